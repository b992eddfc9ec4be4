"""The search player's speed beside an earlier revision's, and its strength against the heuristic player.

    python bench/bench_search.py                          # speed on Chimera and Gang of Four, then 1,000 paired deals
    python bench/bench_search.py --rev 49ed6c2 --positions 200 --rounds 0
    python bench/bench_search.py --variant variants/others/gang-of-four.yaml --positions 0 --rounds 200 --first-seed 0
    python bench/bench_search.py --positions 0 --strength-of-rev      # the revision's strength too (slow)
    python bench/bench_search.py --positions 0 --rounds 0 --table-rounds 1000   # three search players, timed

*Speed.*  Positions come from seeded rounds of heuristic players (every decision of every seat
with more than one legal action, thinned evenly to ``--positions``).  At each one, the search
player of this tree and the one of ``--rev`` (``chimera_dsl/players/search.py`` read from git at
that revision, on this tree's engine) each choose an action at their default budget, in
alternating order, timed in CPU seconds of this process; one player of each per variant, so
their memos carry over from decision to decision as in a game.  Prints decisions per second
of each, the 95th percentile of a decision's time, and the ratio (this tree over the revision).

*Strength.*  ``--rounds N`` deals (seeds ``--first-seed`` on, 10000 by default) of the first variant are each played twice,
seat ``seed % players`` held once by the heuristic player and once by this tree's search
player, every other seat by the heuristic player: the difference in that seat's points less
the mean of the others' (the other way round where the lowest total wins), paired by deal,
with its 95% interval (``chimera_dsl.study.stats.Mean``).

*A table of search players.*  ``--table-rounds N`` plays N rounds of the first variant with a
search player at every seat through the project's simulation (``chimera simulate FILE --players
search --rounds N --workers J``, seed 0) and prints the wall-clock time, the CPU time of this
process and its workers (per round too), and the load average of the machine before and after
(other work on shared cores stretches the wall-clock time, not the CPU time).
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from chimera_dsl import load_variant  # noqa: E402
from chimera_dsl.engine import Game  # noqa: E402
from chimera_dsl.players import make_player  # noqa: E402
from chimera_dsl.players.search import SearchPlayer  # noqa: E402
from chimera_dsl.study.stats import Mean  # noqa: E402

BEFORE = "49ed6c2"          # the revision before the search player was made faster
VARIANTS = ("variants/chimera.yaml", "variants/others/gang-of-four.yaml")
POSITIONS = {"variants/chimera.yaml": 150, "variants/others/gang-of-four.yaml": 60}


def player_of_revision(rev: str):
    """The ``SearchPlayer`` class of ``chimera_dsl/players/search.py`` at git revision ``rev``,
    imported beside this tree's (it runs on this tree's engine and heuristic player)."""
    try:
        source = subprocess.run(["git", "-C", ROOT, "show", f"{rev}:chimera_dsl/players/search.py"],
                                check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        detail = getattr(error, "stderr", "") or str(error)
        raise SystemExit(f"bench_search: cannot read the search player of revision {rev!r}: {detail.strip()}")
    name = f"chimera_dsl.players._search_at_{rev.replace('-', '_').replace('~', '_')}"
    spec = importlib.util.spec_from_loader(name, loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "chimera_dsl.players"
    sys.modules[name] = module
    exec(compile(source, f"{rev}:chimera_dsl/players/search.py", "exec"), module.__dict__)
    return module.SearchPlayer


def positions(game: Game, count: int, rounds: int = 40) -> list:
    """Up to ``count`` states at decisions with a choice, from seeded rounds of heuristic
    players, thinned evenly."""
    found = []
    n = game.players
    for seed in range(rounds):
        state = game.new_game(seed)
        players = [make_player("heuristic", seed * 1000 + s) for s in range(n)]
        while not state.is_terminal():
            seat = state.current_player()
            legal = state.legal_actions()
            if len(legal) > 1:
                found.append(state.clone())
            state.apply_action(players[seat].act(state.observation(seat), legal))
        if len(found) >= 4 * count:
            break
    step = max(1, len(found) // count) if count else 1
    return found[::step][:count]


def speed(variant: str, count: int, rev: str, before_class) -> dict:
    """Decisions per second of this tree's search player and the revision's, side by side."""
    game = Game(load_variant(os.path.join(ROOT, variant)), max_rounds=1)
    states = positions(game, count)
    players = {"now": SearchPlayer(1), rev: before_class(1)}
    times: dict = {name: [] for name in players}
    warm = states[0]
    for player in players.values():              # the heuristic's tables, built once per variant
        player.act(warm.observation(warm.current_player()), warm.legal_actions())
    for i, state in enumerate(states):
        seat = state.current_player()
        legal = state.legal_actions()
        order = list(players.items())
        if i % 2:
            order.reverse()
        for name, player in order:
            observation = state.observation(seat)
            start = time.process_time()
            player.act(observation, legal)
            times[name].append(time.process_time() - start)
    out = {"variant": variant, "positions": len(states)}
    for name, spent in times.items():
        spent.sort()
        total = sum(spent)
        out[name] = {"per_second": len(spent) / total if total else float("inf"),
                     "ms": 1000 * total / max(1, len(spent)),
                     "p95_ms": 1000 * spent[int(0.95 * (len(spent) - 1))] if spent else 0.0}
    out["ratio"] = out["now"]["per_second"] / out[rev]["per_second"]
    return out


_GAMES: dict = {}


def paired_deal(task: tuple) -> tuple[float, float, float | None]:
    """Deal ``seed`` played with the heuristic player and with the search player at one seat:
    (the search player's score less the heuristic's, the search player's CPU seconds, and with
    ``rev`` the revision's search player's score less the heuristic's, else None)."""
    variant, seed, rev = task
    game = _GAMES.get(variant)
    if game is None:
        game = _GAMES[variant] = Game(load_variant(os.path.join(ROOT, variant)), max_rounds=1)
    n = game.players
    seat = seed % n
    lowest = game.round.end.winner == "lowest"
    scores, spent = [], 0.0
    for searching in (None, SearchPlayer) + ((_revision_class(rev),) if rev else ()):
        players = [make_player("heuristic", seed * 1000 + s) for s in range(n)]
        if searching is not None:
            players[seat] = searching(seed * 1000 + seat)
        state = game.new_game(seed)
        while not state.is_terminal():
            to_act = state.current_player()
            legal = state.legal_actions()
            start = time.process_time()
            action = players[to_act].act(state.observation(to_act), legal)
            if searching is SearchPlayer and to_act == seat:
                spent += time.process_time() - start
            state.apply_action(action)
        gained = state.totals
        others = sum(g for s, g in enumerate(gained) if s != seat) / (n - 1)
        score = gained[seat] - others
        scores.append(-score if lowest else score)
    return scores[1] - scores[0], spent, (scores[2] - scores[0] if rev else None)


_REVISIONS: dict = {}


def _revision_class(rev: str):
    if rev not in _REVISIONS:
        _REVISIONS[rev] = player_of_revision(rev)
    return _REVISIONS[rev]


def strength(variant: str, rounds: int, jobs: int, first: int = 0, rev: str | None = None) -> dict:
    tasks = [(variant, seed, rev) for seed in range(first, first + rounds)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(paired_deal, tasks, chunksize=4))
    else:
        results = list(map(paired_deal, tasks))
    difference, before, gain = Mean(), Mean(), Mean()
    for d, _, old in results:
        difference.add(d)
        if old is not None:
            before.add(old)
            gain.add(d - old)
    out = {"variant": variant, "rounds": rounds, **difference.as_dict(),
           "search_ms_per_round": 1000 * sum(s for _, s, _ in results) / max(1, rounds)}
    if rev:
        out["revision"] = before.as_dict()
        out["over_revision"] = gain.as_dict()
    return out


def table(variant: str, rounds: int, jobs: int) -> dict:
    """``rounds`` rounds of ``variant`` with a search player at every seat, through the
    project's simulation (seed 0): wall-clock and CPU seconds, and the load average around it."""
    from chimera_dsl.study.simulate import simulate
    rules = load_variant(os.path.join(ROOT, variant))
    load_before = os.getloadavg()
    cpu = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    start = time.perf_counter()
    simulate(rules, rounds, single_rounds=True, seed=0, players="search", workers=jobs)
    wall = time.perf_counter() - start
    after = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    spent = sum(a.ru_utime + a.ru_stime - b.ru_utime - b.ru_stime for a, b in zip(after, cpu))
    return {"variant": variant, "rounds": rounds, "jobs": jobs, "wall_s": wall, "cpu_s": spent,
            "load_before": load_before[0], "load_after": os.getloadavg()[0]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", default=BEFORE, help=f"the git revision to compare with (default {BEFORE})")
    parser.add_argument("--variant", action="append", default=None,
                        help="a variant file, relative to the repository (repeatable; default: "
                             + ", ".join(VARIANTS) + ")")
    parser.add_argument("--positions", type=int, default=None,
                        help="decisions timed per variant (default 150 for Chimera, 60 for Gang of Four, "
                             "100 otherwise; 0: no speed)")
    parser.add_argument("--rounds", type=int, default=1000,
                        help="paired deals of the first variant for the strength (0: none)")
    parser.add_argument("--first-seed", type=int, default=10000,
                        help="the first deal's seed for the strength (default 10000: apart from seeds 0-599 and "
                             "20000-20999, on which the search player's settings were chosen)")
    parser.add_argument("--strength-of-rev", action="store_true",
                        help="also play the revision's search player at the seat of every deal, and give "
                             "the difference between the two search players (slow: the revision's speed)")
    parser.add_argument("--table-rounds", type=int, default=0,
                        help="rounds of the first variant with a search player at every seat, timed (0: none)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes for the strength and the table")
    args = parser.parse_args(argv)
    variants = args.variant or list(VARIANTS)

    if args.positions != 0:
        before_class = player_of_revision(args.rev)
        print(f"search player at its default budget: this tree against revision {args.rev} "
              f"(CPU time, same positions, alternating)")
        print(f"{'variant':<38} {'positions':>9} {'now/s':>8} {'p95 ms':>8} {args.rev + '/s':>10} "
              f"{'p95 ms':>8} {'ratio':>7}")
        for variant in variants:
            count = args.positions if args.positions is not None else POSITIONS.get(variant, 100)
            row = speed(variant, count, args.rev, before_class)
            now, then = row["now"], row[args.rev]
            print(f"{variant:<38} {row['positions']:>9} {now['per_second']:>8.1f} {now['p95_ms']:>8.1f} "
                  f"{then['per_second']:>10.1f} {then['p95_ms']:>8.1f} {row['ratio']:>6.1f}x", flush=True)
    if args.rounds > 0:
        start = time.perf_counter()
        row = strength(variants[0], args.rounds, max(1, args.jobs), args.first_seed,
                       args.rev if args.strength_of_rev else None)
        lo, hi = row["ci95"]
        print(f"strength, {variants[0]}: {row['rounds']} deals from seed {args.first_seed}, the search player's "
              f"score less the heuristic player's at the same seat: {row['mean']:+.2f} [{lo:+.2f}, {hi:+.2f}] "
              f"(95%, paired by deal); search {row['search_ms_per_round']:.0f} ms of CPU a round; "
              f"{time.perf_counter() - start:.0f} s with {args.jobs} job(s)")
        if "revision" in row:
            old, gain = row["revision"], row["over_revision"]
            print(f"  revision {args.rev}'s search player less the heuristic: {old['mean']:+.2f} "
                  f"[{old['ci95'][0]:+.2f}, {old['ci95'][1]:+.2f}]; this tree's less the revision's: "
                  f"{gain['mean']:+.2f} [{gain['ci95'][0]:+.2f}, {gain['ci95'][1]:+.2f}]")
    if args.table_rounds > 0:
        row = table(variants[0], args.table_rounds, max(1, args.jobs))
        minutes, seconds = divmod(row["wall_s"], 60)
        print(f"table, {variants[0]}: {row['rounds']} rounds, a search player at every seat, {row['jobs']} worker(s): "
              f"{int(minutes)} min {seconds:.0f} s of wall-clock time, {row['cpu_s']:.0f} s of CPU "
              f"({1000 * row['cpu_s'] / row['rounds']:.0f} ms a round); load average {row['load_before']:.1f} "
              f"before, {row['load_after']:.1f} after")
    return 0


if __name__ == "__main__":
    sys.exit(main())
