"""Dou Dizhu move generation and random rounds: chimera_dsl against rlcard, DouZero and OpenSpiel.

    python bench/bench_peers.py                    # 200 hands of each size per batch, 5 batches
    python bench/bench_peers.py --hands 100 --repeats 3 --rounds 300 --json

One process, the same seeded hands for every engine.  For each hand size (17, 20), the
wall-clock time of one call listing

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
engine's variant file (variants/others/), hands it never saw, after a warm-up has filled its
lazily built tables.  *First call*: the leads of a variant loaded afresh meeting its very first
hands (no table filled, nothing cached).  *Packed hand*: the leads and answers as our engine
asks for them, ``rules.leads(key)`` and ``rules.answers(key, play)`` on a hand already packed and
never seen: our own notation prepared beforehand, as each peer's is (rlcard's player object,
DouZero's position, OpenSpiel's state already holding the hand).  The ratio is ours / theirs:
below 1, we are faster.

The machine may be shared: the engines are interleaved (each batch of fresh hands is timed
for every engine in turn, the order rotating), a batch's figure is the median of its calls, and
the figure shown is the median over the batches; the rounds are interleaved the same way.  A
missing engine says "not installed".
"""
from __future__ import annotations

import argparse
import gc
import json
import os
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
    """The median wall-clock time of the calls, in microseconds (None without calls); the
    garbage collector waits until the batch is done."""
    if not calls:
        return None
    times = []
    clock = time.perf_counter
    gc.collect()
    gc.disable()
    try:
        for call in calls:
            start = clock()
            call()
            times.append(clock() - start)
    finally:
        gc.enable()
    return statistics.median(times) * 1e6


def median(values: list) -> float | None:
    """The median of the known values (None when there is none)."""
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else None


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


class OursPacked(Ours):
    """chimera_dsl as its engine asks: the hand already packed, its own notation prepared
    beforehand as each peer's is (``rules.leads`` and ``rules.answers``; a hand never seen, so
    the lead cache does not hold it)."""

    def lead_call(self, hand: list[str]):
        key = self.rules.cards_key(hand)
        return lambda: self.rules.leads(key)

    def answer_call(self, hand: list[str], over: list[str], kind: str):
        key = self.rules.cards_key(hand)
        play = next((p for p in self.rules.classify(over) if p.combination == kind), None)
        if play is None:
            return None
        return lambda: self.rules.answers(key, play)


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
OPERATIONS = ["all leads"] + [f"answers to {k}" for k in KINDS]


def time_batch(engine_object, rows: list, leads_only: bool = False) -> dict:
    """{operation: median us of one call} for one engine on one batch of questions."""
    out = {"all leads": median_us([engine_object.lead_call(hand) for hand, _ in rows])}
    if leads_only:
        return out
    for kind in KINDS:
        calls = [engine_object.answer_call(hand, overs[kind], kind) for hand, overs in rows if kind in overs]
        out[f"answers to {kind}"] = median_us([c for c in calls if c is not None])
    return out


def warm(ours: Ours, count: int, seed: int) -> None:
    """Fill our tables with ``count`` other hands (leads, and answers to plays of every kind)."""
    rng = random.Random(seed)
    rules = ours.rules
    overs = [p for p in rules.leads(rules.cards_key(clustered(rng, 20)))][:50]
    for i in range(count):
        hand = deal(rng, rng.choice(SIZES), CARDS)
        rules.legal_plays(hand)
        rules.legal_plays(hand, overs[i % len(overs)])


def bench_moves(engines: dict, asked: dict, repeats: int, warmup: int, seed: int) -> dict:
    """{column: {(operation, size): median us}}, columns: each engine, ``ours <engine>`` (our
    public API on that engine's file, warm) and ``first <engine>`` (its leads on a variant
    loaded afresh).  Batch ``r`` of every size is timed for every column before batch ``r + 1``,
    in an order that rotates."""
    ours = {}
    for name in peers.ENGINES:
        ours[name] = Ours(name)
        warm(ours[name], warmup, seed + 1)
    columns = [name for name in peers.ENGINES if name in engines]
    columns += [f"{kind} {name}" for kind in ("ours", "first", "packed") for name in peers.ENGINES]
    packed = {}
    for name in peers.ENGINES:       # rules of their own: the batch's hands are new to them too
        packed[name] = OursPacked(name)
        warm(packed[name], warmup, seed + 1)
    figures: dict = {c: {} for c in columns}
    for r in range(repeats):
        shift = r % len(columns)
        for column in columns[shift:] + columns[:shift]:
            kind, _, name = column.rpartition(" ")
            if kind == "first":
                engine_object, leads_only = Ours(name), True      # loaded afresh: its first hands
            elif kind == "packed":
                engine_object, leads_only = packed[name], False
            else:
                engine_object, leads_only = (ours[name] if kind == "ours" else engines[name]), False
            for size in SIZES:
                for op, value in time_batch(engine_object, asked[size][r], leads_only).items():
                    figures[column].setdefault((op, size), []).append(value)
    return {c: {key: median(values) for key, values in table.items()} for c, table in figures.items()}


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


def bench_rounds(engines: dict, rounds: int, repeats: int, seed: int) -> dict:
    """{engine or "ours": median random-player rounds per CPU second}, ``rounds`` rounds each,
    in ``repeats`` interleaved chunks."""
    makers = {"ours": rounds_ours, **{n: ROUNDS[n] for n in peers.ENGINES if n in engines}}
    names = list(makers)
    chunk = max(1, rounds // repeats)
    rates: dict = {n: [] for n in names}
    for r in range(repeats):
        shift = r % len(names)
        for name in names[shift:] + names[:shift]:
            rates[name].append(makers[name](chunk, seed + r * chunk))
    return {n: median(v) for n, v in rates.items()}


# --- the table -----------------------------------------------------------------------------------
def cell(value: float | None, width: int = 9) -> str:
    return f"{value:>{width}.1f}" if value is not None else f"{'-':>{width}}"


def ratio(ours: float | None, theirs: float | None) -> float | None:
    return ours / theirs if ours and theirs else None


def machine() -> str:
    """The CPU, the cores, the Python and the load average: what the figures ran on."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"{model}, {os.cpu_count()} core(s), Python {platform.python_version()}, "
            f"load average {load:.2f}")


def targets(figures: dict, rates: dict, engines: dict) -> list[tuple[str, bool, str]]:
    """(target, met, the figures that say so) for each target of the benchmark."""
    out = []
    for name in ("rlcard", "douzero"):
        if name not in engines:
            continue
        for kind, how in (("packed", "each hand in its engine's own notation, ours packed"),
                          ("ours", "ours from card text, stricter than the peers' notation: ours also reads the text")):
            ratios = {key: ratio(ours, figures[name].get(key)) for key, ours in figures[f"{kind} {name}"].items()}
            ratios = {key: r for key, r in ratios.items() if r is not None}
            slower = [f"{op}, {size} cards: {r:.2f}" for (op, size), r in ratios.items() if r >= 1]
            worst = max(ratios.values(), default=0)
            if rates.get(name) and rates.get("ours"):
                if rates["ours"] <= rates[name]:
                    slower.append(f"rounds: {rates['ours'] / rates[name]:.2f}x")
            out.append((f"faster than {name} on every row ({how})", not slower,
                        "; ".join(slower) if slower else f"worst ratio {worst:.2f}"))
    if "openspiel" in engines:
        leads = [ratio(figures["ours openspiel"].get(("all leads", s)), figures["openspiel"].get(("all leads", s)))
                 for s in SIZES]
        out.append(("within 2x of OpenSpiel on leads (card text in)", all(r is not None and r <= 2 for r in leads),
                    ", ".join(f"{s} cards {r:.2f}x" for s, r in zip(SIZES, leads) if r is not None)))
        leads = [ratio(figures["packed openspiel"].get(("all leads", s)), figures["openspiel"].get(("all leads", s)))
                 for s in SIZES]
        out.append(("within 2x of OpenSpiel on leads (packed hand)", all(r is not None and r <= 2 for r in leads),
                    ", ".join(f"{s} cards {r:.2f}x" for s, r in zip(SIZES, leads) if r is not None)))
    if "rlcard" in engines:
        first = [ratio(figures["first rlcard"].get(("all leads", s)), figures["rlcard"].get(("all leads", s)))
                 for s in SIZES]
        out.append(("first call (fresh variant, card text) at most half of rlcard's leads",
                    all(r is not None and r <= 0.5 for r in first),
                    ", ".join(f"{s} cards {r:.2f}" for s, r in zip(SIZES, first) if r is not None)))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200, help="hands of each size per batch (default 200)")
    parser.add_argument("--repeats", type=int, default=5,
                        help="interleaved batches of fresh hands; the median is shown (default 5)")
    parser.add_argument("--warmup", type=int, default=3000, help="hands that warm our tables (default 3000)")
    parser.add_argument("--rounds", type=int, default=500, help="random-player rounds per engine (default 500)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the hands and rounds (default 1)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.hands < 1 or args.warmup < 0 or args.rounds < 0 or args.repeats < 1:
        parser.error("--hands and --repeats must be at least 1, --warmup and --rounds at least 0")
    engines = {}
    missing = {}
    for name, make in PEERS.items():
        try:
            engines[name] = make()
        except peers.PeerMissing as error:
            missing[name] = str(error)
    before = machine()
    asked = questions(args.hands, args.repeats, args.seed)
    figures = bench_moves(engines, asked, args.repeats, args.warmup, args.seed)
    rates = bench_rounds(engines, args.rounds, args.repeats, args.seed) if args.rounds else {}
    after = machine()
    met = targets(figures, rates, engines)

    if args.json:
        def keyed(table):
            return {f"{op}, {size}": value for (op, size), value in table.items()}
        print(json.dumps({"machine": {"before": before, "after": after}, "hands": args.hands,
                          "repeats": args.repeats, "seed": args.seed, "missing": missing,
                          "us_per_call": {c: keyed(t) for c, t in figures.items()},
                          "rounds_per_second": rates,
                          "targets": [{"target": t, "met": ok, "figures": why} for t, ok, why in met]},
                         indent=2))
        return 0

    print(f"Dou Dizhu: chimera_dsl against rlcard, DouZero, OpenSpiel; {before}")
    print(f"{args.repeats} interleaved batches of {args.hands} fresh hands of each size (seed {args.seed}); "
          "microseconds per call: the median over the batches of each batch's median")
    print(f"ours: the public API, card text in, on the variant file of that engine, after {args.warmup} "
          "other hands; ratio = ours / theirs")
    header = f"{'operation':<26} {'cards':>5}"
    for name in peers.ENGINES:
        header += f" | {name:>13} {'ours':>7} {'ratio':>6}"
    print(header)
    print("-" * len(header))
    for size in SIZES:
        for op in OPERATIONS:
            line = f"{op:<26} {size:>5}"
            for name in peers.ENGINES:
                hot = figures[f"ours {name}"].get((op, size))
                if name not in engines:
                    line += f" | {'not installed':>13} {cell(hot, 7)} {'-':>6}"
                    continue
                theirs = figures[name].get((op, size))
                r = ratio(hot, theirs)
                line += f" | {cell(theirs, 13)} {cell(hot, 7)} {f'{r:.2f}' if r else '-':>6}"
            print(line)
    print()
    for title, kind, operations in (
            ("first call: the leads of a variant loaded afresh, its first hands (card text in)",
             "first", ["all leads"]),
            ("packed hand: as our engine asks (rules.leads, rules.answers on a packed hand never seen), "
             "each engine in its own notation", "packed", OPERATIONS)):
        print(title)
        for size in SIZES:
            for op in operations:
                line = f"{op:<26} {size:>5}"
                for name in peers.ENGINES:
                    mine = figures[f"{kind} {name}"].get((op, size))
                    theirs = figures[name].get((op, size)) if name in engines else None
                    r = ratio(mine, theirs)
                    line += f" | {cell(theirs, 13)} {cell(mine, 7)} {f'{r:.2f}' if r else '-':>6}"
                print(line)
        print()
    if rates:
        print(f"random-player rounds per CPU second ({args.rounds} rounds each, in {args.repeats} "
              "interleaved chunks; the median chunk):")
        ours_rate = rates["ours"]
        print(f"  ours (doudizhu.yaml, bidding included): {ours_rate:.0f}")
        for name in peers.ENGINES:
            if name not in engines:
                print(f"  {name}: not installed ({missing[name]})")
            elif rates.get(name):
                print(f"  {name}: {rates[name]:.0f}; ours / {name}: {ours_rate / rates[name]:.2f}")
        print()
    print("targets:")
    for target, ok, why in met:
        print(f"  {target}: {'met' if ok else 'MISSED'} ({why})")
    print(f"('-': a question the engine cannot be asked - OpenSpiel has no four with two, and no "
          f"20-card hand answering)\nmachine at the end: {after}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
