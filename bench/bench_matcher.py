"""Move generation: chimera_dsl's matcher against rlcard's Dou Dizhu move generator.

For random 17- and 20-card hands, the time to list every lead, and every answer to a single,
a pair, a trio with a single and a straight; the average number of plays and plays per
second.  The same operations of rlcard (``rlcard.games.doudizhu``: the judger's
``playable_cards_from_hand`` for leads, ``utils.get_gt_cards`` for answers) run on random
17- and 20-card Dou Dizhu hands, and the ratio ours / theirs is printed.

The matcher fills some tables lazily (chains and straights by the ranks held, attachment
rows per core) and keeps the leads of the last few thousand hands.  So three figures:

* cold: a freshly loaded variant, the first hands it ever sees;
* warm: fresh hands it has never seen, after other hands have filled its tables (what a
  long simulation sees);
* repeat: the same hand asked again (the lead cache; answers are never cached per hand).

Run with ``bash bench/run`` (all benchmarks) or ``python bench/bench_matcher.py --help``.
"""
from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

import chimera_dsl

ROOT = Path(__file__).resolve().parents[1]
VARIANT = ROOT / "variants" / "chimera.yaml"
SIZES = (17, 20)
# (label, our play on the table, rlcard's play of the same kind)
ANSWERS = (
    ("answers to a single", ("7", "single", 7), "7"),
    ("answers to a pair", ("7 7", "pair", 7), "77"),
    ("answers to a trio + single", ("7 7 7 5", "trio_single", 7), "5777"),
    ("answers to a straight", ("3 4 5 6 7", "straight", 7), "34567"),
)
TARGET_US = {"all leads": 50.0}          # every answer: 10 microseconds
ANSWER_TARGET_US = 10.0


def timed(call, args_list) -> tuple[list[float], int, float]:
    """Wall-clock seconds per call of ``call(*args)`` for each args, the number of plays
    listed, and the CPU seconds of the whole batch (this thread only, so time the machine
    gives to other processes does not count: the mean per call is that over the count)."""
    times = []
    plays = 0
    clock = time.perf_counter
    cpu_start = time.thread_time()
    for args in args_list:
        start = clock()
        result = call(*args)
        times.append(clock() - start)
        plays += len(result)
    return times, plays, time.thread_time() - cpu_start


def chimera_hands(rules, size: int, count: int, rng: random.Random) -> list[int]:
    ranks = [rank for rank, _colour in rules.deck.cards]
    return [rules.deck.key(rng.sample(ranks, size)) for _ in range(count)]


def us(seconds: float) -> str:
    return f"{seconds * 1e6:8.1f}"


def fastest(batches: list[tuple[list[float], int, float]]) -> tuple[list[float], int, float]:
    """The batch with the lowest median: other processes on a shared machine only ever slow
    a batch down, so the fastest of a few is the closest to the code's own speed."""
    return min(batches, key=lambda batch: statistics.median(batch[0]))


def bench_chimera(count: int, warmup: int, seed: int, repeats: int) -> dict:
    """{(operation, size): figures} for chimera_dsl."""
    out: dict = {}
    operations = [("all leads", None)] + [(label, over) for label, over, _ in ANSWERS]
    for size in SIZES:
        rng = random.Random(f"{seed}:chimera:{size}")
        rules = chimera_dsl.load_variant(VARIANT)
        cold_hands = [chimera_hands(rules, size, count, rng) for _ in range(repeats)]
        warm_hands = chimera_hands(rules, size, warmup, rng)
        fresh_hands = [chimera_hands(rules, size, count, rng) for _ in range(repeats)]
        for label, over in operations:
            def call_and_args(rules, hands):
                if over is None:
                    return rules.leads, [(h,) for h in hands]
                play = rules.play_of(rules.cards_key(over[0]), over[1], over[2])
                return rules.answers, [(h, play) for h in hands]

            # cold: a new variant object each time, so every lazily filled table starts empty
            cold = []
            for hands in cold_hands:
                call, args = call_and_args(chimera_dsl.load_variant(VARIANT), hands)
                gc.collect()
                cold.append(timed(call, args))
            # warm: fill the tables with other hands, then time hands never seen before
            rules = chimera_dsl.load_variant(VARIANT)
            call, args = call_and_args(rules, warm_hands)
            timed(call, args)
            warm = []
            for hands in fresh_hands:
                call, args = call_and_args(rules, hands)
                gc.collect()
                warm.append(timed(call, args))
            times, plays, cpu = fastest(warm)
            figures = {"cold": fastest(cold)[0], "warm": times, "cpu": cpu / count, "plays": plays / count}
            if over is None:            # the same hands again: the lead cache
                figures["repeat"] = timed(call, args)[0]
            out[label, size] = figures
    return out


def bench_rlcard(count: int, seed: int, repeats: int) -> dict | None:
    """{(operation, size): figures} for rlcard's Dou Dizhu generator, or None without rlcard."""
    try:
        from rlcard.games.doudizhu.judger import DoudizhuJudger
        from rlcard.games.doudizhu.utils import CARD_RANK_STR, get_gt_cards
    except ImportError:
        return None

    class Card:                       # what rlcard's cards2str reads: rank, or the joker's suit
        __slots__ = ("rank", "suit")

        def __init__(self, rank: str, suit: str):
            self.rank, self.suit = rank, suit

    class Seat:                       # the two player attributes get_gt_cards reads
        def __init__(self, current_hand=None, played_cards=None):
            self.current_hand, self.played_cards = current_hand, played_cards

    deck = [Card(r, s) for r in CARD_RANK_STR[:13] for s in "SHDC"] + [Card("", "BJ"), Card("", "RJ")]
    order = {r: i for i, r in enumerate(CARD_RANK_STR)}

    def sort_key(card: Card) -> int:
        return order[card.rank or card.suit[0]]

    out: dict = {}
    for size in SIZES:
        rng = random.Random(f"{seed}:rlcard:{size}")
        batches = [[sorted(rng.sample(deck, size), key=sort_key) for _ in range(count)] for _ in range(repeats)]

        def run(call, args_of):
            timed(call, args_of(batches[0][:50]))            # load and warm up
            done = []
            for hands in batches:
                gc.collect()
                done.append(timed(call, args_of(hands)))
            return fastest(done)

        times, plays, _ = run(DoudizhuJudger.playable_cards_from_hand,
                              lambda hands: [("".join(c.rank or c.suit[0] for c in hand),) for hand in hands])
        out["all leads", size] = {"warm": times, "plays": plays / count}
        for label, _, theirs in ANSWERS:
            over = Seat(played_cards=theirs)
            times, plays, _ = run(get_gt_cards, lambda hands: [(Seat(current_hand=hand), over) for hand in hands])
            out[label, size] = {"warm": times, "plays": plays / count - 1}   # without 'pass'
    return out


def report(ours: dict, theirs: dict | None, count: int, warmup: int, repeats: int) -> bool:
    """Print the table; True when every target is met (warm medians)."""
    print(f"chimera_dsl matcher vs rlcard Dou Dizhu: Python {platform.python_version()}, "
          f"{os.cpu_count()} CPUs, {platform.machine()}")
    print(f"the fastest of {repeats} batches of {count} fresh random hands per figure, warm after "
          f"{warmup} other hands; microseconds per call:")
    print("medians of wall-clock time per call; CPU mean: the batch's CPU time / calls (warm); "
          "plays/s from the CPU mean")
    print()
    head = (f"{'operation':<28}{'cards':>5}{'plays':>8}{'cold med':>10}{'warm med':>10}"
            f"{'CPU mean':>10}{'plays/s':>11}{'rlcard med':>11}{'plays':>7}{'ratio':>7}")
    print(head)
    print("-" * len(head))
    ok = True
    for label in ["all leads"] + [a[0] for a in ANSWERS]:
        for size in SIZES:
            f = ours[label, size]
            warm_median = statistics.median(f["warm"])
            rate = f["plays"] / f["cpu"]
            line = (f"{label:<28}{size:>5}{f['plays']:>8.1f}{us(statistics.median(f['cold'])):>10}"
                    f"{us(warm_median):>10}{us(f['cpu']):>10}{rate:>11,.0f}")
            if theirs:
                t = theirs[label, size]
                their_median = statistics.median(t["warm"])
                line += f"{us(their_median):>11}{t['plays']:>7.1f}{warm_median / their_median:>7.2f}"
            print(line)
            target = TARGET_US.get(label, ANSWER_TARGET_US)
            if size == 20 and warm_median * 1e6 >= target:
                ok = False
    print()
    for size in SIZES:
        f = ours["all leads", size]
        print(f"all leads, {size} cards, the same hand again (lead cache): "
              f"median {us(statistics.median(f['repeat'])).strip()} us")
    print()
    if theirs is None:
        print("rlcard is not installed: pip install -e '.[bench]' (bash bench/run does it)")
    print("ratio = our warm median / rlcard's median (below 1: we are faster)")
    print(f"targets (20 cards, warm median): all leads < {TARGET_US['all leads']:.0f} us, "
          f"each kind of answer < {ANSWER_TARGET_US:.0f} us: {'met' if ok else 'MISSED'}")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per figure (default 2000)")
    parser.add_argument("--warmup", type=int, default=20000, help="hands that warm the tables (default 20000)")
    parser.add_argument("--repeats", type=int, default=3,
                        help="batches per figure, the fastest is shown (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random hands (default 1)")
    args = parser.parse_args(argv)
    if args.hands < 1 or args.warmup < 0 or args.repeats < 1:
        parser.error("--hands and --repeats must be at least 1, --warmup at least 0")
    ours = bench_chimera(args.hands, args.warmup, args.seed, args.repeats)
    theirs = bench_rlcard(args.hands, args.seed, args.repeats)
    report(ours, theirs, args.hands, args.warmup, args.repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
