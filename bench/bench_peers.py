"""Dou Dizhu move generation and random rounds: chimera_dsl against rlcard, DouZero and OpenSpiel.

    python bench/bench_peers.py                    # 200 hands of each size, 300 rounds per engine
    python bench/bench_peers.py --hands 500 --rounds 1000 --json

One process, the same seeded hands for every engine.  For each hand size (17, 20), the median
wall-clock time of one call (the fastest of a few batches, each on hands of its own) listing

* every lead of a hand, and
* every answer to a previous play, for each kind of play (the play drawn from the legal plays
  of other hands, one the rest of the deck can hold and every engine reads as that kind);

and, per engine, random-player rounds per CPU second (a round: the deal played out; ours and
OpenSpiel's include the bidding, rlcard's and DouZero's have none).

Each engine is timed on its own call, with its own notation prepared beforehand: rlcard's
``DoudizhuJudger.playable_cards_from_hand`` (leads) and ``get_gt_cards`` (answers), DouZero's
``GameEnv.get_legal_card_play_actions``, OpenSpiel's ``state.legal_actions()`` on a state
already driven to the question (OpenSpiel's answers: 17-card hands only, as no position of its
game has 20 cards answering).  Ours through the public API, card text in:
``rules.legal_plays("3 3 4 ...")`` and ``rules.legal_plays(hand, over=play)``, on each
engine's variant file (variants/others/); *cold*: a freshly loaded variant meeting its first
hands; *warm*: hands it never saw, after others have filled its lazily built tables.  The
ratio is ours (warm) / theirs: below 1, we are faster.  A missing engine says "not installed".
"""
from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import chimera_dsl  # noqa: E402
import peers  # noqa: E402  (the engine adapters of tests/peers)
from chimera_dsl.engine import Game  # noqa: E402
from chimera_dsl.players import make_player, play_game  # noqa: E402

SIZES = (17, 20)
VARIANTS = {
    "rlcard": ROOT / "variants" / "others" / "doudizhu.yaml",
    "douzero": ROOT / "variants" / "others" / "doudizhu-douzero.yaml",
    "openspiel": ROOT / "variants" / "others" / "doudizhu-openspiel.yaml",
}
KINDS = ("solo", "pair", "trio", "trio_solo", "trio_pair", "chain", "pair_chain", "airplane",
         "airplane_solos", "airplane_pairs", "four_two_solos", "four_two_pairs", "bomb", "rocket")
CARDS = Counter(peers.DECK)


# --- the questions -------------------------------------------------------------------------------
def deal(rng: random.Random, size: int, rest: Counter) -> list[str]:
    return rng.sample(sorted(rest.elements(), key=peers.ORDER.__getitem__), size)


def clustered(rng: random.Random, size: int) -> list[str]:
    """20 cards mostly from a few neighbouring ranks: hands rich in every kind of play."""
    low = rng.randrange(0, 8)
    near = {peers.RANKS[i] for i in range(low, low + 6)} | {"2", "BJ", "RJ"}
    pool = [c for c in peers.DECK if c in near]
    hand = rng.sample(pool, min(size, len(pool)))
    return hand + rng.sample(list((CARDS - Counter(hand)).elements()), size - len(hand))


def plays_by_kind(rules, rng: random.Random, count: int = 400) -> dict[str, list]:
    """Plays of every kind from ``count`` hands, the kinds every engine reads alike: no singles of
    an airplane or a quad repeat a rank or hold both jokers."""
    out: dict[str, dict] = {}
    for i in range(count):
        hand = clustered(rng, 20) if i % 2 else deal(rng, 20, CARDS)
        for play in rules.leads(rules.cards_key(hand)):
            if play.combination in ("airplane_solos", "four_two_solos"):
                counts = Counter(play.cards)
                singles = [r for r, n in counts.items() if n < 3]
                if any(counts[r] > 1 for r in singles) or {"BJ", "RJ"} <= set(singles):
                    continue
            out.setdefault(play.combination, {})[tuple(play.cards)] = None
    return {kind: sorted(plays) for kind, plays in out.items()}


def questions(hands_per_size: int, batches: int, seed: int) -> dict:
    """{size: batches of [(hand, {kind: previous play})]}: the same questions for every engine,
    each batch on hands of its own."""
    rng = random.Random(seed)
    base = chimera_dsl.load_variant(VARIANTS["rlcard"])
    pool = plays_by_kind(base, rng)
    out = {}
    for size in SIZES:
        out[size] = []
        for _ in range(batches):
            rows = []
            for _ in range(hands_per_size):
                hand = deal(rng, size, CARDS)
                rest = CARDS - Counter(hand)
                overs = {}
                for kind in KINDS:
                    plays = pool.get(kind, [])
                    candidates = [p for p in rng.sample(plays, min(60, len(plays))) if not Counter(p) - rest]
                    if candidates:
                        overs[kind] = list(candidates[0])
                rows.append((hand, overs))
            out[size].append(rows)
    return out


# --- timing --------------------------------------------------------------------------------------
def median_us(calls: list[Callable[[], object]]) -> float | None:
    """The median wall-clock time of the calls, in microseconds (None without calls)."""
    times = []
    clock = time.perf_counter
    for call in calls:
        start = clock()
        call()
        times.append(clock() - start)
    return statistics.median(times) * 1e6 if times else None


def fastest(values: list[float | None]) -> float | None:
    """The lowest of the batches' medians: other processes on a shared machine only ever slow
    a batch down."""
    known = [v for v in values if v is not None]
    return min(known) if known else None


class Ours:
    """chimera_dsl through its public API, card text in."""

    name = "ours"

    def __init__(self, engine: str):
        self.rules = chimera_dsl.load_variant(VARIANTS[engine])

    def lead_call(self, hand: list[str]):
        text = " ".join(hand)
        return lambda: self.rules.legal_plays(text)

    def answer_call(self, hand: list[str], over: list[str], kind: str):
        text = " ".join(hand)
        play = next((p for p in self.rules.classify(over) if p.combination == kind), None)
        if play is None:
            return None
        return lambda: self.rules.legal_plays(text, play)


class Rlcard:
    name = "rlcard"

    def __init__(self):
        self.peer = peers.load("rlcard")
        from rlcard.games.doudizhu.judger import DoudizhuJudger
        from rlcard.games.doudizhu.utils import get_gt_cards
        self.judge = DoudizhuJudger.playable_cards_from_hand
        self.gt = get_gt_cards

    def lead_call(self, hand):
        text = self.peer.to_peer(hand)
        return lambda: self.judge(text)

    def answer_call(self, hand, over, kind):
        if not any(r.combination == kind for r in self.peer.readings(over)):
            return None
        me, table = self.peer.player(hand), self.peer.player([], over)
        return lambda: self.gt(me, table)


class Douzero:
    name = "douzero"

    def __init__(self):
        self.peer = peers.load("douzero")

    def lead_call(self, hand):
        return self._call(hand, None)

    def answer_call(self, hand, over, kind):
        if not any(r.combination == kind for r in self.peer.readings(over)):
            return None
        return self._call(hand, over)

    def _call(self, hand, over):
        peer = self.peer

        def call():
            # the position is two assignments; the engine's work is the legal-move search
            return peer.position(hand, over).get_legal_card_play_actions()
        return call


class OpenSpiel:
    name = "openspiel"

    def __init__(self):
        self.peer = peers.load("openspiel")

    def lead_call(self, hand):
        state = self.peer.lead_state(hand)
        return state.legal_actions

    def answer_call(self, hand, over, kind):
        if len(hand) != 17:
            return None
        reading = next((r for r in self.peer.readings(over) if r.combination == kind), None)
        if reading is None:
            return None
        return self.peer.answer_state(hand, over, reading.token).legal_actions


PEERS = {"rlcard": Rlcard, "douzero": Douzero, "openspiel": OpenSpiel}


def bench_moves(engine_object, asked: dict, batches: int | None = None,
                warm_up: Callable[[], None] | None = None) -> dict:
    """{(operation, size): median us} for one engine on the questions (the fastest batch of
    the first ``batches``)."""
    if warm_up is not None:
        warm_up()
    figures: dict = {}
    for size, all_rows in asked.items():
        for rows in all_rows[:batches]:
            here = figures.setdefault(("all leads", size), [])
            here.append(median_us([engine_object.lead_call(hand) for hand, _ in rows]))
            for kind in KINDS:
                calls = [engine_object.answer_call(hand, overs[kind], kind) for hand, overs in rows if kind in overs]
                figures.setdefault((f"answers to {kind}", size), []).append(
                    median_us([c for c in calls if c is not None]))
    return {op: fastest(values) for op, values in figures.items()}


def warm(ours: Ours, count: int, seed: int) -> Callable[[], None]:
    """Fill our tables with ``count`` other hands (leads, and answers to plays of every kind)."""
    def run():
        rng = random.Random(seed)
        rules = ours.rules
        overs = [p for p in rules.leads(rules.cards_key(clustered(rng, 20)))][:50]
        for i in range(count):
            hand = deal(rng, rng.choice(SIZES), CARDS)
            rules.legal_plays(hand)
            rules.legal_plays(hand, overs[i % len(overs)])
    return run


# --- rounds --------------------------------------------------------------------------------------
def rounds_ours(rounds: int, seed: int) -> float:
    rules = chimera_dsl.load_variant(VARIANTS["rlcard"])
    game = Game(rules, max_rounds=1)
    played = 0
    cpu = time.process_time()
    for s in range(seed, seed + rounds):
        state = play_game(game, [make_player("random", s * 10 + i) for i in range(3)], s)
        played += state.round
    return played / (time.process_time() - cpu)


def rounds_rlcard(rounds: int, seed: int) -> float:
    from rlcard.games.doudizhu.game import DoudizhuGame
    game = DoudizhuGame()
    game.np_random.seed(seed)
    rng = random.Random(seed)
    cpu = time.process_time()
    for _ in range(rounds):
        state, _player = game.init_game()
        while not game.is_over():
            state, _player = game.step(rng.choice(state["actions"]))
    return rounds / (time.process_time() - cpu)


def rounds_douzero(rounds: int, seed: int) -> float:
    from douzero.env.game import GameEnv
    rng = random.Random(seed)

    class RandomAgent:
        def act(self, infoset):
            return rng.choice(infoset.legal_actions)

    players = {pos: RandomAgent() for pos in ("landlord", "landlord_up", "landlord_down")}
    deck = [peers.douzero_peer.TO_PEER[c] for c in peers.DECK]
    env = GameEnv(players)
    cpu = time.process_time()
    for _ in range(rounds):
        cards = deck[:]
        rng.shuffle(cards)
        env.card_play_init({"landlord": sorted(cards[:20]), "landlord_up": sorted(cards[20:37]),
                            "landlord_down": sorted(cards[37:54]), "three_landlord_cards": sorted(cards[17:20])})
        while not env.game_over:
            env.step()
        env.reset()
    return rounds / (time.process_time() - cpu)


def rounds_openspiel(rounds: int, seed: int) -> float:
    game = peers.openspiel_peer.GAME
    rng = random.Random(seed)
    cpu = time.process_time()
    for _ in range(rounds):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
    return rounds / (time.process_time() - cpu)


ROUNDS = {"rlcard": rounds_rlcard, "douzero": rounds_douzero, "openspiel": rounds_openspiel}


# --- the table -----------------------------------------------------------------------------------
def cell(value: float | None, width: int = 9) -> str:
    return f"{value:>{width}.1f}" if value is not None else f"{'-':>{width}}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200, help="hands of each size (default 200)")
    parser.add_argument("--warmup", type=int, default=3000, help="hands that warm our tables (default 3000)")
    parser.add_argument("--rounds", type=int, default=300, help="random-player rounds per engine (default 300)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the hands and rounds (default 1)")
    parser.add_argument("--repeats", type=int, default=3,
                        help="batches of fresh hands per figure, the fastest is shown (default 3)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.hands < 1 or args.warmup < 0 or args.rounds < 0 or args.repeats < 1:
        parser.error("--hands and --repeats must be at least 1, --warmup and --rounds at least 0")
    asked = questions(args.hands, args.repeats, args.seed)
    engines = {}
    missing = {}
    for name, make in PEERS.items():
        try:
            engines[name] = make()
        except peers.PeerMissing as error:
            missing[name] = str(error)

    figures: dict = {"peers": {}, "ours cold": {}, "ours warm": {}}
    for name in peers.ENGINES:
        if name in engines:
            figures["peers"][name] = bench_moves(engines[name], asked)
        figures["ours cold"][name] = bench_moves(Ours(name), asked, batches=1)      # its first hands
        ours = Ours(name)
        figures["ours warm"][name] = bench_moves(ours, asked, warm_up=warm(ours, args.warmup, args.seed + 1))
    rates = {"ours": rounds_ours(args.rounds, args.seed) if args.rounds else None}
    for name in peers.ENGINES:
        rates[name] = ROUNDS[name](args.rounds, args.seed) if name in engines and args.rounds else None

    if args.json:
        def keyed(table):
            return {f"{op}, {size}": value for (op, size), value in table.items()}
        print(json.dumps({"hands": args.hands, "seed": args.seed, "missing": missing,
                          "peers": {n: keyed(t) for n, t in figures["peers"].items()},
                          "ours_cold": {n: keyed(t) for n, t in figures["ours cold"].items()},
                          "ours_warm": {n: keyed(t) for n, t in figures["ours warm"].items()},
                          "rounds_per_second": rates}, indent=2))
        return 0

    print(f"Dou Dizhu: chimera_dsl against rlcard, DouZero, OpenSpiel; Python {platform.python_version()}, "
          f"{args.hands} hands of each size (seed {args.seed}); median microseconds per call, "
          f"the fastest of {args.repeats} batches of fresh hands (ours cold: the first batch)")
    print("ours: the variant file of that engine; cold = a fresh variant, warm = after "
          f"{args.warmup} other hands; ratio = ours warm / theirs")
    header = f"{'operation':<26} {'cards':>5}"
    for name in peers.ENGINES:
        header += f" | {name:>13} {'ours cold':>9} {'ours warm':>9} {'ratio':>6}"
    print(header)
    print("-" * len(header))
    for size in SIZES:
        for op in ["all leads"] + [f"answers to {k}" for k in KINDS]:
            line = f"{op:<26} {size:>5}"
            for name in peers.ENGINES:
                cold = figures["ours cold"][name].get((op, size))
                hot = figures["ours warm"][name].get((op, size))
                if name not in engines:
                    line += f" | {'not installed':>13} {cell(cold)} {cell(hot)} {'-':>6}"
                    continue
                theirs = figures["peers"][name].get((op, size))
                ratio = f"{hot / theirs:>6.2f}" if theirs and hot else f"{'-':>6}"
                line += f" | {cell(theirs, 13)} {cell(cold)} {cell(hot)} {ratio}"
            print(line)
    print()
    print(f"random-player rounds per CPU second ({args.rounds} rounds each):")
    ours_rate = rates["ours"]
    print(f"  ours (doudizhu.yaml, bidding included): {ours_rate:.0f}" if ours_rate else "  ours: -")
    for name in peers.ENGINES:
        if name not in engines:
            print(f"  {name}: not installed ({missing[name]})")
        elif rates[name]:
            print(f"  {name}: {rates[name]:.0f}; ours / {name}: {ours_rate / rates[name]:.2f}")
    print("('-': a question the engine cannot be asked - OpenSpiel has no four with two, and no "
          "20-card hand answering)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
