"""How often one heuristic player wins a whole game against two random players.

    python bench/bench_players.py                      # 2,000 games, official rules
    python bench/bench_players.py --games 300 --jobs 2 --variant variants/chimera.yaml

Game ``g`` (seed ``g``) seats the heuristic player at seat ``g % 3``, so each seat position
gets a third of the games.  A win is the game's winner (the one highest total at the end).
Prints the win rate with its 95% Wilson interval per seat position and overall (a fair share
is one in three), and the games played per second (wall clock, all jobs together; per core
with ``--jobs 1``).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from chimera_dsl import load_variant  # noqa: E402
from chimera_dsl.engine import Game  # noqa: E402
from chimera_dsl.players import make_player, play_game  # noqa: E402
from chimera_dsl.stats import wilson  # noqa: E402


def play_range(args: tuple) -> list[tuple[int, int, int, float]]:
    """Play games ``first .. first + count - 1``: (seat of the heuristic, winner, rounds, seconds) each."""
    variant, first, count, opponent, target = args
    rules = load_variant(variant)
    game = Game(rules, target=target)
    seats = game.players
    out = []
    for g in range(first, first + count):
        hero = g % seats
        players = [make_player("heuristic" if s == hero else opponent, g * 1000 + s) for s in range(seats)]
        start = time.perf_counter()
        state = play_game(game, players, g)
        seconds = time.perf_counter() - start
        end = state.events[-1]
        winner = end.get("winner")
        out.append((hero, -1 if winner is None else winner, end.get("rounds", 0), seconds))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--variant", default=os.path.join(os.path.dirname(HERE), "variants", "chimera.yaml"))
    parser.add_argument("--opponent", default="random", help="the player in the two other seats")
    parser.add_argument("--target", type=int, default=None, help="override the variant's target score")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)

    jobs = max(1, args.jobs)
    chunk = max(1, -(-args.games // (jobs * 4)))
    tasks = [(args.variant, first, min(chunk, args.first_seed + args.games - first), args.opponent, args.target)
             for first in range(args.first_seed, args.first_seed + args.games, chunk)]
    start = time.perf_counter()
    results: list = []
    if jobs == 1:
        for task in tasks:
            results.extend(play_range(task))
    else:
        with ProcessPoolExecutor(jobs) as pool:
            for part in pool.map(play_range, tasks):
                results.extend(part)
    wall = time.perf_counter() - start

    seats = 1 + max(hero for hero, *_ in results)
    rows = []
    for seat in list(range(seats)) + [None]:
        games = [r for r in results if seat is None or r[0] == seat]
        wins = sum(1 for hero, winner, *_ in games if hero == winner)
        lo, hi = wilson(wins, len(games))
        rows.append({"seat": "all" if seat is None else seat, "games": len(games), "wins": wins,
                     "rate": wins / len(games) if games else 0.0, "ci95": [lo, hi]})
    rounds = sum(r[2] for r in results)
    busy = sum(r[3] for r in results)
    figures = {"variant": args.variant, "opponent": args.opponent, "games": len(results),
               "fair_share": 1 / seats, "by_seat": rows, "games_per_second": len(results) / wall,
               "seconds_per_game_one_core": busy / len(results), "rounds_per_game": rounds / len(results),
               "jobs": jobs}
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"heuristic against two {args.opponent} players, {len(results)} games, {args.variant}")
    print(f"{'seat':>5} {'games':>6} {'wins':>6} {'rate':>7}  95% interval (Wilson)")
    for row in rows:
        lo, hi = row["ci95"]
        print(f"{row['seat']:>5} {row['games']:>6} {row['wins']:>6} {row['rate']:>7.1%}  [{lo:.1%}, {hi:.1%}]")
    print(f"fair share {1 / seats:.1%}; {rounds / len(results):.1f} rounds per game")
    print(f"{len(results) / wall:.2f} games/s with {jobs} job(s); "
          f"{busy / len(results) * 1000:.0f} ms per game on one core")
    return 0


if __name__ == "__main__":
    sys.exit(main())
