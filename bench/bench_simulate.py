"""Simulated games per second per core, and how `chimera simulate` scales from 1 to 2 workers.

    python bench/bench_simulate.py                     # 300 games, random players; 20 heuristic
    python bench/bench_simulate.py --games 1000 --players heuristic --variant variants/chimera.yaml

Runs the same seeded simulation with 1 worker and with 2 (the local process pool), a few
times each, alternating, and keeps the best of each (other jobs on the machine only slow a
run down); checks that both give the same figures, and prints games/s for each, per core, and
the speed-up (target: at least 1.8x on 2 workers).  The 1-worker run plays in this process; the 2-worker
run includes starting the pool, as `chimera simulate` does.  Exit status 0 (a benchmark
reports; it does not judge), 2 on bad options.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from chimera_dsl import load_variant  # noqa: E402
from chimera_dsl.study.simulate import default_workers, simulate  # noqa: E402

TARGET_SCALING = 1.8


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure(rules, games: int, workers: int, players: str, seed: int) -> tuple[float, float, dict]:
    """(games per wall-clock second, games per CPU second, the figures) for one run."""
    start, cpu = time.perf_counter(), cpu_seconds()
    summary, _ = simulate(rules, games, seed=seed, players=players, workers=workers)
    seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    return games / seconds, games / cpu, summary.as_dict()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default=os.path.join(os.path.dirname(HERE), "variants", "chimera.yaml"))
    parser.add_argument("--games", type=int, default=300, help="games per measurement (default 300)")
    parser.add_argument("--players", default="random", help="player specification (default random)")
    parser.add_argument("--heuristic-games", type=int, default=20,
                        help="games with heuristic players (the default players), 1 worker; 0: skip")
    parser.add_argument("--repeat", type=int, default=3,
                        help="measure each worker count this many times, alternating, and keep the best")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.games < 2:
        parser.error("--games must be at least 2")
    rules = load_variant(args.variant)
    cores = default_workers()
    measure(rules, max(2, args.games // 20), 1, args.players, args.seed + 1)   # warm caches
    load = os.getloadavg()[0]
    runs: dict[int, list] = {1: [], 2: []}
    for _ in range(max(1, args.repeat)):         # alternate, so passing load hits both alike
        for workers in ((1, 2) if cores >= 2 else (1,)):
            runs[workers].append(measure(rules, args.games, workers, args.players, args.seed))
    one, one_cpu, figures_one = max(runs[1], key=lambda run: run[0])
    result = {"variant": args.variant, "players": args.players, "games": args.games, "cores": cores,
              "load_average": round(load, 2), "games_per_second_1_worker": round(one, 2),
              "games_per_cpu_second": round(one_cpu, 2)}
    if cores >= 2:
        two, two_cpu, figures_two = max(runs[2], key=lambda run: run[0])
        result["games_per_second_2_workers"] = round(two, 2)
        result["scaling_1_to_2"] = round(two / one, 3)
        # CPU spent per game with 2 workers against 1: the pool's own cost (1.0 = none)
        result["cpu_overhead_2_workers"] = round(one_cpu / two_cpu, 3)
        result["same_figures"] = figures_one == figures_two
    if args.heuristic_games > 0:
        wall, cpu, _ = measure(rules, args.heuristic_games, 1, "heuristic", args.seed)
        result["heuristic_games_per_second_1_worker"] = round(wall, 2)
        result["heuristic_games_per_cpu_second"] = round(cpu, 2)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"simulate: {args.games} games of {args.variant}, players {args.players}, {cores} core(s), "
          f"best of {max(1, args.repeat)}, load average {load:.2f} at start")
    print(f"  1 worker : {one:8.1f} games/s   (per core; {one_cpu:.1f} games per CPU second)")
    if cores >= 2:
        print(f"  2 workers: {result['games_per_second_2_workers']:8.1f} games/s   "
              f"(per core {result['games_per_second_2_workers'] / 2:.1f})")
        scaling = result["scaling_1_to_2"]
        verdict = "meets" if scaling >= TARGET_SCALING else "below"
        print(f"  scaling 1 -> 2 workers: {scaling:.2f}x ({verdict} the {TARGET_SCALING}x target)")
        print(f"  CPU per game, 2 workers against 1: {result['cpu_overhead_2_workers']:.2f} "
              "(1.00: the pool costs nothing; a low scaling with this near 1 means other load on the machine)")
        print(f"  same figures with 1 and 2 workers: {'yes' if result['same_figures'] else 'NO'}")
    else:
        print("  scaling: this machine has one core; run on two or more to measure it")
    if args.heuristic_games > 0:
        print(f"  heuristic players (the default), {args.heuristic_games} games, 1 worker: "
              f"{result['heuristic_games_per_second_1_worker']:.1f} games/s "
              f"({result['heuristic_games_per_cpu_second']:.1f} games per CPU second)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
