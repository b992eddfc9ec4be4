"""The long fuzzing run: mutated variant files, card lists and game records, counted by outcome.

Each input is judged as in ``tests/test_fuzz.py`` (the same mutators, ``tests/fuzzing.py``):
accepted, rejected with a located error, crash (an exception, exit 3, a traceback, JSON
missing under ``--json``, a secret shown) or stall (past the per-input deadline, counted in
CPU time so that a busy machine makes no false stalls; ten times as long in wall-clock time
catches a blocked read).  Every
accepted variant also plays one round with random players, which must reach its end within a
bound of actions and of time; those that do not are listed (the loader should refuse them).
Composed files are shipped files with the language's recent keys put in (``fuzzing.compose_recent``):
each is refused with its place, or a whole game of random players is played: it ends, or is
"slow" (still going after 20 000 decisions, its rounds ending and its totals not stuck tied: the
loader proved an end that random play has not reached), or has "no end" (a round that does not
end, or totals tied past the end for ever), which counts as a failure.

    python bench/fuzz_long.py                          # 100 000 inputs
    python bench/fuzz_long.py --inputs 5000 --seed 7 --keep /tmp/fuzz-finds
    python bench/fuzz_long.py --jobs 2 --keep /tmp/fuzz-finds  # one run on two cores, one table

With ``--jobs N`` the inputs are shared among N processes, each drawing its own inputs from the
run's seed and its number (process 0 draws exactly the inputs of ``--jobs 1``); their counts are
added into the one table, and the inputs they keep are numbered across the whole run.

Stopped early (Ctrl-C, or ``kill`` with SIGTERM), it finishes the input being judged and prints
the counts of the inputs judged so far.  The target is 0 crashes and 0 stalls.  Inputs that
crash, stall or do not play are written to ``--keep`` (a folder) so they can be replayed by
hand.  Exit 1 if any was found.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from random import Random

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
import fuzzing  # noqa: E402  (the mutators of the test suite)

from chimera_dsl import load_variant  # noqa: E402

KINDS = ("variant files", "card lists", "records", "composed files")
STOPPING = threading.Event()      # set by SIGINT or SIGTERM, in the process that receives it
CATEGORIES = ("inputs", "accepted", "rejected", "slow", "crashes", "stalls", "no end")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=100_000, help="inputs in all (default 100000)")
    parser.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    parser.add_argument("--deadline", type=float, default=10.0, help="CPU seconds one input may take (default 10; ten times as many seconds of wall-clock time)")
    parser.add_argument("--mix", default="5,2,2,1",
                        help="shares of variant files, card lists, records, composed files (default 5,2,2,1)")
    parser.add_argument("--no-play", action="store_true", help="do not play the accepted variants")
    parser.add_argument("--keep", type=Path, default=None, help="write the inputs that fail in this folder")
    parser.add_argument("--jobs", type=int, default=1, help="processes sharing the inputs (default 1)")
    args = parser.parse_args(argv)
    if args.jobs < 1 or args.inputs < 0:
        parser.error("--jobs must be at least 1 and --inputs at least 0")
    args.shares = [float(x) for x in args.mix.split(",")]
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)

    def stop(signum, frame) -> None:     # ends the run after the input being judged, in every process
        STOPPING.set()
        for child in multiprocessing.active_children():
            os.kill(child.pid, signum)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    start = time.perf_counter()
    shares = [args.inputs // args.jobs + (j < args.inputs % args.jobs) for j in range(args.jobs)]
    firsts = [sum(shares[:j]) for j in range(args.jobs)]
    if args.jobs == 1:
        parts = [judge_share(args, 0, shares[0], 0)]
    else:
        pool = multiprocessing.get_context("fork").Pool(args.jobs)
        waiting = [pool.apply_async(judge_share, (args, j, shares[j], firsts[j])) for j in range(args.jobs)]
        pool.close()         # the workers leave when their share is judged (terminate would meet their handler)
        parts = [w.get() for w in waiting]
        pool.join()
    elapsed = time.perf_counter() - start
    counts = {kind: sum((part[0][kind] for part in parts), Counter()) for kind in KINDS}
    played = sum((part[1] for part in parts), Counter())
    finds = [line for part in parts for line in part[2]]
    judged_inputs = sum(part[3] for part in parts)
    stopped_early = judged_inputs < args.inputs

    print(f"Fuzzing chimera_dsl: {judged_inputs} inputs" + (f" (stopped early, of {args.inputs})" if stopped_early else "")
          + f", seed {args.seed}, {args.jobs} process{'es' if args.jobs > 1 else ''}, deadline {args.deadline:g} s "
          f"per input, {elapsed:.0f} s ({platform.python_implementation()} {platform.python_version()}, "
          f"{os.cpu_count()} cores)")
    print(f"{'':16}" + "".join(f"{c:>10}" for c in CATEGORIES))
    for kind in KINDS:
        print(f"{kind:16}" + "".join(f"{counts[kind][c]:>10}" for c in CATEGORIES))
    total = sum(counts.values(), Counter())
    print(f"{'all':16}" + "".join(f"{total[c]:>10}" for c in CATEGORIES))
    if not args.no_play:
        print(f"accepted variants played for one round with random players: {played['plays to its end']} reach "
              f"the end, {played['does not']} do not")
    for line in finds[:50]:
        print("  " + line)
    return 1 if finds else 0


def judge_share(args, job: int, inputs: int, first: int) -> tuple[dict, Counter, list[str], int]:
    """Process ``job``'s share: ``inputs`` inputs numbered from ``first``; its counts, plays, finds and inputs judged."""
    rng = Random(args.seed if job == 0 else args.seed * 1_000_003 + job)
    work = Path(tempfile.mkdtemp(prefix="chimera-fuzz-"))
    fuzzing.prepare_folder(work)
    seeds = [(p, fuzzing.seed_text(p)) for p in fuzzing.SEED_VARIANTS]
    records = fuzzing.short_records(work, seeds=(3, 5, 11))
    card_rules = [load_variant(p) for p in (fuzzing.ROOT / "variants" / "chimera.yaml",
                                            fuzzing.ROOT / "tests" / "variants" / "valid" / "dou-dizhu-sketch.yaml",
                                            fuzzing.ROOT / "tests" / "variants" / "valid" / "minimal.yaml")]
    counts = {kind: Counter() for kind in KINDS}
    played = Counter()
    finds: list[str] = []

    def keep(kind: str, path: Path | None, outcome: fuzzing.Outcome, number: int) -> None:
        finds.append(f"input {number} ({kind}): {outcome.category}: {outcome.detail.strip().splitlines()[-1:]}")
        if args.keep and path is not None:
            target = args.keep / f"{number:06d}-{outcome.category}{path.suffix}"
            shutil.copyfile(path, target)
            target.with_suffix(".txt").write_text(outcome.detail, encoding="utf-8")

    judged_inputs = run_inputs(args, rng, work, seeds, records, card_rules, counts, played, keep,
                               time.perf_counter(), inputs, first)
    shutil.rmtree(work, ignore_errors=True)
    return counts, played, finds, judged_inputs


def run_inputs(args, rng: Random, work: Path, seeds, records, card_rules, counts: dict, played: Counter, keep,
               start: float, inputs: int, first: int) -> int:
    """Judge ``inputs`` inputs numbered from ``first``, counting them in ``counts`` and ``played``; the number judged."""
    for number in range(first, first + inputs):
        if STOPPING.is_set():
            return number - first
        kind = rng.choices(KINDS, args.shares)[0]
        path = None
        if kind == "variant files":
            path = fuzzing.variant_input(work, rng, seeds)
            outcome = fuzzing.judged(lambda: fuzzing.load_outcome(path), args.deadline)
            if outcome.category == "accepted" and not args.no_play:
                result = fuzzing.judged(lambda: fuzzing.Outcome(
                    "accepted", fuzzing.plays_to_the_end(outcome.rules, number) or ""), args.deadline)
                ended = result.category == "accepted" and not result.detail
                played["plays to its end" if ended else "does not"] += 1
                if not ended:
                    keep("accepted variant that does not play", path,
                         fuzzing.Outcome("no-end", result.detail or result.category), number)
        elif kind == "card lists":
            rules = rng.choice(card_rules)
            outcome = fuzzing.judged(lambda: fuzzing.cards_outcome(rules, rng), args.deadline)
        elif kind == "composed files":
            path = fuzzing.composed_input(work, rng)
            # 20 000 decisions take at most ~4 s of CPU: a slow game stays well inside the deadline
            outcome = fuzzing.judged(lambda: fuzzing.refusal_or_end(path, number, 20_000), args.deadline)
        else:
            path, options = fuzzing.record_input(work, rng, records)
            named = "--variant" in options
            outcome = fuzzing.judged(lambda: fuzzing.cli_outcome(
                ["replay", path] + options, json_wanted="--json" in options,
                secret=None if named else fuzzing.SECRET), args.deadline)
        counts[kind]["inputs"] += 1
        counts[kind][{"crash": "crashes", "stall": "stalls", "no-end": "no end"}.get(outcome.category,
                                                                                 outcome.category)] += 1
        if outcome.bad:
            keep(kind, path, outcome, number)
        if (number + 1 - first) % 1000 == 0:
            print(f"  {number + 1 - first} inputs{f' (from {first})' if first else ''}, {time.perf_counter() - start:.0f} s, "
                  f"{sum(c['crashes'] + c['stalls'] + c['no end'] for c in counts.values())} crashes, stalls or "
                  "games without end", file=sys.stderr)
    return inputs


if __name__ == "__main__":
    sys.exit(main())
