"""One player against two others: share of games won and points per round, with 95% intervals.

    python bench/bench_players.py                      # heuristic against two random players, 2,000 games
    python bench/bench_players.py --games 300 --jobs 2 --variant variants/chimera.yaml
    python bench/bench_players.py --hero search --opponent heuristic --search-budget 24 --games 120 --jobs 2 --log a.jsonl
    python bench/bench_players.py --hero search --opponent heuristic --summarize a.jsonl b.jsonl

Game ``g`` (seed ``g``) seats the measured player (``--hero``) at seat ``g % 3``, so each seat
position gets a third of the games; the other seats get ``--opponent``.  A win is the game's
winner (the one best total at the end); where partners share a total (teams), the measured
player wins with its side, and the fair share is the winners' mean number over the seats (a
half for two teams).  Prints the win rate with its 95% Wilson interval
per seat position and overall (a fair share is one in three); the measured player's mean points
per round, the opponents' (per opponent), and the difference with its 95% interval (the delta
method clustered by game: rounds of one game are not independent); and the speed (wall clock,
all jobs together; per core with ``--jobs 1``).  ``--log FILE`` appends one JSON line per game
as it ends, so a long run can be watched and its games read back: ``--summarize LOG...``
prints the figures of the games in such files (several runs pooled, or a run cut short).
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
from chimera_dsl.study.stats import PairedRatio, wilson  # noqa: E402


_GAMES: dict = {}


def play_one(args: tuple) -> dict:
    """Play game ``g``: the measured player's seat, the winner, and each round's points."""
    variant, g, hero_name, opponent, target, budget = args
    game = _GAMES.get((variant, target))
    if game is None:
        game = _GAMES[(variant, target)] = Game(load_variant(variant), target=target)
    seats = game.players
    hero = g % seats
    players = [make_player(hero_name if s == hero else opponent, g * 1000 + s, budget) for s in range(seats)]
    start = time.process_time()
    state = play_game(game, players, g)
    seconds = time.process_time() - start
    end = state.events[-1]
    points = [e["points"] for e in state.events if e["type"] == "round_end"]
    winners = end.get("winners") or ([end["winner"]] if end.get("winner") is not None else [])
    return {"game": g, "hero": hero, "winner": end.get("winner"), "winners": winners, "rounds": len(points),
            "points": points,
            "seconds": seconds}


def winners_of(result: dict, lowest: bool = False) -> list[int]:
    """The seats that won a logged game: its ``winners``; in a log written before they were
    logged, the winner, or when there was none (partners sharing the best total) the seats
    with the best sum of the round points."""
    if "winners" in result:
        return result["winners"]
    if result.get("winner") is not None:
        return [result["winner"]]
    totals = [sum(p[s] for p in result["points"]) for s in range(len(result["points"][0]))] if result["points"] else []
    best = (min if lowest else max)(totals) if totals else None
    return [s for s, t in enumerate(totals) if t == best]


def figures(results: list[dict], seats: int, lowest: bool = False) -> dict:
    """Wins per seat position and overall; points per round of the measured player and of the others."""
    rows = []
    for seat in list(range(seats)) + [None]:
        games = [r for r in results if seat is None or r["hero"] == seat]
        wins = sum(1 for r in games if r["hero"] in winners_of(r, lowest))
        lo, hi = wilson(wins, len(games))
        rows.append({"seat": "all" if seat is None else seat, "games": len(games), "wins": wins,
                     "rate": wins / len(games) if games else 0.0, "ci95": [lo, hi]})
    ratio = PairedRatio()
    for r in results:
        hero = r["hero"]
        mine = sum(p[hero] for p in r["points"])
        theirs = sum(sum(p) - p[hero] for p in r["points"])
        ratio.add(theirs, (seats - 1) * r["rounds"], mine, r["rounds"])
    diff = ratio.difference("points per round").as_dict()
    rounds = sum(r["rounds"] for r in results)
    fair = (sum(len(winners_of(r, lowest)) for r in results) / len(results) / seats) if results else 1 / seats
    return {"games": len(results), "rounds": rounds, "fair_share": fair, "by_seat": rows,
            "points_per_round": {"hero": diff["b"], "opponent": diff["a"], "difference": diff["difference"],
                                 "ci95": diff["ci95"]},
            "cpu_seconds_per_round": sum(r["seconds"] for r in results) / max(rounds, 1)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--variant", default=os.path.join(os.path.dirname(HERE), "variants", "chimera.yaml"))
    parser.add_argument("--hero", default="heuristic", help="the measured player")
    parser.add_argument("--opponent", default="random", help="the player in the other seats")
    parser.add_argument("--search-budget", default=None, help="a search player's budget per decision (200, 200ms)")
    parser.add_argument("--target", type=int, default=None, help="override the variant's target score")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--log", default=None, help="append one JSON line per game to this file")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--summarize", nargs="+", metavar="LOG", default=None,
                        help="play nothing: the figures of the games in these --log files (the other "
                             "options only label the output)")
    args = parser.parse_args(argv)

    jobs = max(1, args.jobs)
    tasks = [(args.variant, g, args.hero, args.opponent, args.target, args.search_budget)
             for g in range(args.first_seed, args.first_seed + args.games)]
    log = open(args.log, "a", encoding="utf-8") if args.log and not args.summarize else None
    start = time.perf_counter()
    results: list = []
    try:
        if args.summarize:
            games = {}
            for name in args.summarize:
                with open(name, encoding="utf-8") as lines:
                    for line in lines:
                        if line.strip():
                            result = json.loads(line)
                            games[result["game"]] = result          # a game logged twice counts once
            outcomes = [games[g] for g in sorted(games)]
            pool = None
        elif jobs == 1:
            outcomes = map(play_one, tasks)
            pool = None
        else:
            pool = ProcessPoolExecutor(jobs)
            outcomes = pool.map(play_one, tasks)
        for result in outcomes:
            results.append(result)
            if log is not None:
                log.write(json.dumps(result) + "\n")
                log.flush()
        if pool is not None:
            pool.shutdown()
    finally:
        if log is not None:
            log.close()
    wall = time.perf_counter() - start

    game = Game(load_variant(args.variant))
    seats = game.players
    lowest = game.round.end.winner == "lowest"
    out = figures(results, seats, lowest)
    out["lowest_wins"] = lowest
    out.update({"variant": args.variant, "hero": args.hero, "opponent": args.opponent,
                "search_budget": args.search_budget, "target": args.target, "first_seed": args.first_seed,
                "jobs": jobs, "games_per_second": len(results) / wall, "wall_seconds": wall})
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    budget = f" (search budget {args.search_budget})" if args.search_budget else ""
    print(f"{args.hero}{budget} against {seats - 1} {args.opponent} players, {out['games']} games "
          f"({out['rounds']} rounds), {args.variant}")
    print(f"{'seat':>5} {'games':>6} {'wins':>6} {'rate':>7}  95% interval (Wilson)")
    for row in out["by_seat"]:
        lo, hi = row["ci95"]
        print(f"{row['seat']:>5} {row['games']:>6} {row['wins']:>6} {row['rate']:>7.1%}  [{lo:.1%}, {hi:.1%}]")
    print(f"fair share {out['fair_share']:.1%}; {out['rounds'] / max(1, len(results)):.1f} rounds per game")
    ppr = out["points_per_round"]
    lo, hi = ppr["ci95"]
    interval = (f"95% interval [{lo:+.1f}, {hi:+.1f}] (clustered by game)" if lo is not None and hi is not None
                else "no interval from a single game")
    print(f"points per round: {args.hero} {ppr['hero']:.1f}, each {args.opponent} {ppr['opponent']:.1f}; "
          f"difference {ppr['difference']:+.1f}, {interval}")
    if lowest:
        print(f"the lowest total wins: points are penalties, a negative difference favours {args.hero}")
    speed = (f"read from {len(args.summarize)} log file(s)" if args.summarize
             else f"{len(results) / wall:.2f} games/s with {jobs} job(s)")
    print(f"{speed}; {out['cpu_seconds_per_round'] * 1000:.0f} ms of CPU per round")
    return 0


if __name__ == "__main__":
    sys.exit(main())
