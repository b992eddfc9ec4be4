"""The engine's speed on one core: rounds and whole games per second.

    python bench/bench_engine.py                       # 300 random games, 30 heuristic games
    python bench/bench_engine.py --games 1000 --heuristic-games 100 --variant variants/chimera.yaml

A round is one deal played out: the deal, the bidding (redeals included), the exchange, the
play and the scoring.  Each line plays whole games with three players of one kind (seeds
0, 1, 2, ...) after a short warm-up, and reports rounds per second and games per second,
in CPU seconds of this process (what one core gives, whatever else the machine runs) and in
wall-clock seconds.  Target: at least 500 random-player rounds per second.

The peer: rlcard's Dou Dizhu game (``rlcard.games.doudizhu.game.DoudizhuGame``, the bench
extra), played out round after round by uniformly random players (its rounds have no
bidding: the landlord is drawn), timed the same way; the ratio is ours / theirs.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from chimera_dsl import load_variant  # noqa: E402
from chimera_dsl.engine import Game  # noqa: E402
from chimera_dsl.players import heuristic_available, make_player, play_game  # noqa: E402

TARGET_RANDOM_ROUNDS = 500
WARM_UP_GAMES = 20


def measure(game: Game, kind: str, games: int, first_seed: int) -> dict:
    """Play ``games`` games with three ``kind`` players; rounds, actions and times."""
    rounds = actions = 0
    cpu = time.process_time()
    wall = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        players = [make_player(kind, seed * 1000 + s) for s in range(game.players)]
        state = play_game(game, players, seed)
        rounds += state.round
        actions += sum(1 for e in state.events if e["type"] in ("bid", "exchange", "play", "pass"))
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    return {"players": kind, "games": games, "rounds": rounds, "actions": actions,
            "cpu_seconds": round(cpu, 3), "wall_seconds": round(wall, 3),
            "rounds_per_second": round(rounds / cpu, 1), "games_per_second": round(games / cpu, 2),
            "rounds_per_second_wall": round(rounds / wall, 1), "games_per_second_wall": round(games / wall, 2),
            "microseconds_per_action": round(cpu / max(actions, 1) * 1e6, 1)}


def measure_rlcard(rounds: int, seed: int = 0) -> dict | None:
    """Random-player rounds per CPU second of rlcard's Dou Dizhu game, or None without rlcard."""
    try:
        import rlcard.games.doudizhu.game  # noqa: F401
    except ImportError:
        return None
    from bench_peers import rounds_rlcard      # one way of timing rlcard's game, shared with bench_peers
    cpu = rounds / rounds_rlcard(rounds, seed)
    return {"players": "rlcard doudizhu, random", "rounds": rounds, "cpu_seconds": round(cpu, 3),
            "rounds_per_second": round(rounds / cpu, 1)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games with random players")
    parser.add_argument("--heuristic-games", type=int, default=30, help="games with heuristic players (0: none)")
    parser.add_argument("--variant", default=os.path.join(os.path.dirname(HERE), "variants", "chimera.yaml"))
    parser.add_argument("--peer-rounds", type=int, default=300, help="rounds of rlcard's Dou Dizhu (0: none)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.games < 1 or args.heuristic_games < 0:
        parser.error("--games must be at least 1 and --heuristic-games at least 0")

    game = Game(load_variant(args.variant))
    rows = []
    plan = [("random", args.games)]
    if args.heuristic_games and heuristic_available():
        plan.append(("heuristic", args.heuristic_games))
    for kind, games in plan:
        measure(game, kind, min(WARM_UP_GAMES, games), 10 ** 6)       # fill the matcher's tables
        rows.append(measure(game, kind, games, 0))

    peer = measure_rlcard(args.peer_rounds) if args.peer_rounds > 0 else None

    if args.json:
        print(json.dumps({"variant": args.variant, "results": rows, "peer": peer}, indent=2))
    else:
        print(f"engine speed, one core ({args.variant})")
        print(f"{'players':<10} {'games':>6} {'rounds':>7} {'rounds/s':>9} {'games/s':>8} "
              f"{'rounds/s wall':>14} {'us/action':>10}")
        for r in rows:
            print(f"{r['players']:<10} {r['games']:>6} {r['rounds']:>7} {r['rounds_per_second']:>9.0f} "
                  f"{r['games_per_second']:>8.1f} {r['rounds_per_second_wall']:>14.0f} "
                  f"{r['microseconds_per_action']:>10.1f}")
        random_rate = rows[0]["rounds_per_second"]
        verdict = "met" if random_rate >= TARGET_RANDOM_ROUNDS else "NOT met"
        print(f"target {TARGET_RANDOM_ROUNDS} random-player rounds/s: {verdict} "
              f"({random_rate / TARGET_RANDOM_ROUNDS:.2f}x)")
        if peer is not None:
            print(f"peer: rlcard Dou Dizhu, random players, no bidding: {peer['rounds_per_second']:.0f} rounds/s; "
                  f"ours / rlcard: {random_rate / peer['rounds_per_second']:.2f}x")
        elif args.peer_rounds:
            print("peer: rlcard not installed (pip install -e '.[bench]'): skipped")
        if len(plan) == 1 and args.heuristic_games:
            print("heuristic player not installed: skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
