"""Reference implementations of Chimera's 14 combinations and of Dou Dizhu's plays, for testing the matcher.

Written straight from the table "The 14 combinations" of RULINGS.md, and deliberately
naive: plain Counters and loops, no packed integers, nothing imported from chimera_dsl.
It must stay independent of the matcher, so that the two can disagree.

* :func:`readings` - every (combination id, rank) a multiset of cards can be read as;
* :func:`beats` - may a play be made on another (tiers, same combination and size, rank);
* :func:`all_plays` - brute force: every sub-multiset of a hand and its readings.

Cards are the strings of the notation (``"1"``..``"12"``, ``"H"``, ``"P"``, ``"C"``); ranks
are on the record scale: 1..12, H = 13, P = 14, C = 15.

The same for Dou Dizhu (``ddz_readings``, ``ddz_beats``, ``ddz_all_plays``), written from the
rules listed in ``variants/others/doudizhu.yaml``, with the three engines' differences as
flags (:data:`DDZ_RULES`): cards ``3``..``10 J Q K A 2 BJ RJ``, ranks 1..15 in that order.

Run ``python tests/oracle.py`` to recompute ``tests/perft.json`` from the hands listed in it.
"""
from __future__ import annotations

import functools
import itertools
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Iterable, NamedTuple

# --- cards -----------------------------------------------------------------------------------
NUMBERS = tuple(range(1, 13))        # the "numbers": the only ranks that chain
H, P, C = 13, 14, 15                 # Hero, Pi Ya, Chimera on the record scale
NAME = {**{v: str(v) for v in NUMBERS}, H: "H", P: "P", C: "C"}
VALUE = {name: v for v, name in NAME.items()}
COPIES = {**{v: 4 for v in NUMBERS}, H: 4, P: 1, C: 1}    # 54 cards
DECK = tuple(NAME[v] for v in sorted(COPIES) for _ in range(COPIES[v]))
NUMBER_OR_H = frozenset(NUMBERS) | {H}

# --- the table of RULINGS.md -------------------------------------------------------------------
COMBINATIONS = (
    "single", "pair", "pair_chain", "trio", "trio_chain", "trio_single", "trio_pair",
    "trio_chain_singles", "trio_chain_pairs", "straight", "quad_singles", "quad_pairs",
    "bomb", "flight",
)
TIER = {"bomb": 1, "flight": 2}      # every other combination: tier 0
FLIGHT_RANK = 15                     # a convention, mirrored from the matcher (the Chimera's value)
STRAIGHT_LENGTHS = range(5, 13)


class Play(NamedTuple):
    """One reading of some cards: the cards (sorted by value), the combination, the rank."""

    cards: tuple[str, ...]
    combination: str
    rank: int

    @property
    def size(self) -> int:
        return len(self.cards)


def sort_cards(cards: Iterable[str]) -> tuple[str, ...]:
    """The cards as a tuple sorted by value: the canonical name of a multiset."""
    return tuple(sorted((str(c).strip().upper() for c in cards), key=lambda c: VALUE[c]))


def parse(cards: str | Iterable[str]) -> tuple[str, ...]:
    """``"7 7 7 5"`` / ``"7,7,7,5"`` / a list of card strings -> sorted tuple."""
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    return sort_cards(cards)


def deck_holds(counts: Counter) -> bool:
    """The deck has at least this many cards of every rank."""
    return all(v in COPIES and n <= COPIES[v] for v, n in counts.items())


def consecutive(values: Iterable[int]) -> bool:
    """Distinct numbers 1..12 with no gap."""
    vs = sorted(values)
    return all(v in NUMBERS for v in vs) and len(set(vs)) == len(vs) and \
        all(b == a + 1 for a, b in zip(vs, vs[1:]))


def readings(cards: str | Iterable[str]) -> set[tuple[str, int]]:
    """Every (combination id, rank) the multiset ``cards`` can be read as."""
    values = tuple(VALUE[c] for c in parse(cards))
    return set(_readings(values))


@functools.lru_cache(maxsize=None)
def _readings(values: tuple[int, ...]) -> frozenset[tuple[str, int]]:
    c = Counter(values)
    n = len(values)
    if n == 0 or not deck_holds(c):
        return frozenset()
    out: set[tuple[str, int]] = set()
    for name in COMBINATIONS:
        for rank in RULES[name](c, n):
            out.add((name, rank))
    return frozenset(out)


# --- one function per row of the table: (counts, number of cards) -> ranks ---------------------
def _single(c: Counter, n: int):
    # 1 card, any; 1..12 < H < P < C
    if n == 1:
        yield next(iter(c))


def _of_a_kind(size: int, allowed: frozenset):
    def rule(c: Counter, n: int):
        if n == size and len(c) == 1:
            (v, k), = c.items()
            if v in allowed:
                yield v
    return rule


def _chain_of(size: int, min_length: int):
    # consecutive units of `size` cards each, numbers only, ranked by the top unit
    def rule(c: Counter, n: int):
        if len(c) >= min_length and all(k == size for k in c.values()) and consecutive(c):
            yield max(c)
    return rule


def _remove(c: Counter, core: dict[int, int]) -> Counter | None:
    """``c`` without the core's cards; None if ``c`` lacks them."""
    rest = Counter(c)
    for v, k in core.items():
        if rest[v] < k:
            return None
        rest[v] -= k
    return +rest


def _singles_ok(rest: Counter, count: int, core_ranks: set[int]) -> bool:
    """``count`` single cards, all different, none of a core rank, never P and C together."""
    return (sum(rest.values()) == count and all(k == 1 for k in rest.values())
            and not (set(rest) & core_ranks) and not (P in rest and C in rest))


def _pairs_ok(rest: Counter, count: int, core_ranks: set[int]) -> bool:
    """``count`` pairs of different ranks, numbers or H, none of a core rank."""
    return (sum(rest.values()) == 2 * count and all(k == 2 for k in rest.values())
            and len(rest) == count and all(v in NUMBER_OR_H for v in rest)
            and not (set(rest) & core_ranks))


def _trio_single(c: Counter, n: int):
    # trio of numbers or H + one card of another rank (H, P, C allowed)
    if n != 4:
        return
    for t in NUMBER_OR_H:
        rest = _remove(c, {t: 3})
        if rest is not None and sum(rest.values()) == 1 and t not in rest:
            yield t


def _trio_pair(c: Counter, n: int):
    # trio of numbers or H + a pair of numbers or H (never P/C), of another rank
    if n != 5:
        return
    for t in NUMBER_OR_H:
        rest = _remove(c, {t: 3})
        if rest is not None and _pairs_ok(rest, 1, {t}):
            yield t


def _chain_windows(min_length: int):
    """Every run of consecutive numbers of at least ``min_length``: (ranks, top)."""
    for length in range(min_length, 13):
        for start in range(1, 13 - length + 1):
            ranks = list(range(start, start + length))
            yield ranks, ranks[-1]


def _trio_chain_singles(c: Counter, n: int):
    # 2+ consecutive trios of numbers, one single each: singles all different, none of a
    # trio's rank, H/P/C allowed but not P and C together; ranked by the top trio
    for ranks, top in _chain_windows(2):
        if n != 4 * len(ranks):
            continue
        rest = _remove(c, {v: 3 for v in ranks})
        if rest is not None and _singles_ok(rest, len(ranks), set(ranks)):
            yield top


def _trio_chain_pairs(c: Counter, n: int):
    # 2+ consecutive trios of numbers, one pair each: pairs of different ranks, none of a
    # trio's rank, numbers or H; ranked by the top trio
    for ranks, top in _chain_windows(2):
        if n != 5 * len(ranks):
            continue
        rest = _remove(c, {v: 3 for v in ranks})
        if rest is not None and _pairs_ok(rest, len(ranks), set(ranks)):
            yield top


def _straight(c: Counter, n: int):
    # 5 to 12 consecutive values, numbers; P stands for any one value 1..12 (either end too);
    # H and C never; ranked by the top value, counting where P stands
    if n not in STRAIGHT_LENGTHS or H in c or C in c:
        return
    numbers = {v for v in c if v in NUMBERS}
    if any(c[v] != 1 for v in numbers):
        return
    wild = c.get(P, 0)
    for start in range(1, 13 - n + 1):
        window = set(range(start, start + n))
        if numbers <= window and len(window - numbers) == wild:
            yield start + n - 1


def _quad_singles(c: Counter, n: int):
    # quad of numbers or H + 2 cards of different ranks, any other rank, not P and C together
    if n != 6:
        return
    for q in NUMBER_OR_H:
        rest = _remove(c, {q: 4})
        if rest is not None and _singles_ok(rest, 2, {q}):
            yield q


def _quad_pairs(c: Counter, n: int):
    # quad of numbers or H + 2 pairs of different ranks, numbers or H
    if n != 8:
        return
    for q in NUMBER_OR_H:
        rest = _remove(c, {q: 4})
        if rest is not None and _pairs_ok(rest, 2, {q}):
            yield q


def _flight(c: Counter, n: int):
    # P + C, nothing else
    if c == Counter({P: 1, C: 1}):
        yield FLIGHT_RANK


RULES = {
    "single": _single,
    "pair": _of_a_kind(2, NUMBER_OR_H),
    "pair_chain": _chain_of(2, 3),
    "trio": _of_a_kind(3, NUMBER_OR_H),
    "trio_chain": _chain_of(3, 2),
    "trio_single": _trio_single,
    "trio_pair": _trio_pair,
    "trio_chain_singles": _trio_chain_singles,
    "trio_chain_pairs": _trio_chain_pairs,
    "straight": _straight,
    "quad_singles": _quad_singles,
    "quad_pairs": _quad_pairs,
    "bomb": _of_a_kind(4, NUMBER_OR_H),
    "flight": _flight,
}
assert tuple(RULES) == COMBINATIONS


# --- beating -----------------------------------------------------------------------------------
def beats(play: Play, over: Play) -> bool:
    """May ``play`` be made on ``over``?  A higher tier wins (bomb 1, flight 2); within a tier,
    the same combination with the same number of cards and a strictly higher rank."""
    mine, theirs = TIER.get(play.combination, 0), TIER.get(over.combination, 0)
    if mine != theirs:
        return mine > theirs
    return (play.combination == over.combination and play.size == over.size
            and play.rank > over.rank)


def plays_of(cards: str | Iterable[str]) -> set[Play]:
    """Every reading of exactly these cards, as plays."""
    key = parse(cards)
    return {Play(key, name, rank) for name, rank in readings(key)}


def beats_cards(cards: str | Iterable[str], over: str | Iterable[str]) -> bool:
    """Yes if any reading of ``cards`` beats any reading of ``over`` (RULINGS: the player chooses)."""
    return any(beats(p, o) for p in plays_of(cards) for o in plays_of(over))


# --- brute force over a hand -------------------------------------------------------------------
def sub_multisets(hand: str | Iterable[str]):
    """Every non-empty sub-multiset of ``hand``, each once, as a sorted tuple of cards."""
    counts = Counter(parse(hand))
    ranks = sorted(counts, key=lambda c: VALUE[c])
    for take in itertools.product(*(range(counts[r] + 1) for r in ranks)):
        cards = tuple(r for r, k in zip(ranks, take) for _ in range(k))
        if cards:
            yield cards


def all_plays(hand: str | Iterable[str]) -> set[Play]:
    """Every play a hand can lead: each sub-multiset with each of its readings."""
    out: set[Play] = set()
    for cards in sub_multisets(hand):
        for name, rank in _readings(tuple(VALUE[c] for c in cards)):
            out.add(Play(cards, name, rank))
    return out


def all_answers(hand: str | Iterable[str], over: Play) -> set[Play]:
    """Every play of the hand that may be made on ``over``."""
    return {p for p in all_plays(hand) if beats(p, over)}


# --- Dou Dizhu, as three open-source engines read it -------------------------------------------
# Written from the rules listed in variants/others/doudizhu*.yaml, as plainly as above: the
# ranks 3..A, 2, BJ, RJ on the record scale 1..15; chains run over 3..A (1..12).
DDZ_NAMES = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "BJ", "RJ")
DDZ_VALUE = {name: v for v, name in enumerate(DDZ_NAMES, start=1)}
DDZ_COPIES = {**{v: 4 for v in range(1, 14)}, 14: 1, 15: 1}
DDZ_DECK = tuple(DDZ_NAMES[v - 1] for v in sorted(DDZ_COPIES) for _ in range(DDZ_COPIES[v]))
DDZ_RUNS = frozenset(range(1, 13))      # 3..A: 2 and the jokers never chain
DDZ_PLAIN = frozenset(range(1, 14))     # 3..2: no pair, trio or quad of jokers
BJ, RJ = 14, 15
DDZ_COMBINATIONS = ("solo", "pair", "trio", "trio_solo", "trio_pair", "chain", "pair_chain", "airplane",
                    "airplane_solos", "airplane_pairs", "four_two_solos", "four_two_pairs", "bomb", "rocket")
DDZ_TIER = {"bomb": 1, "rocket": 2}


class DdzRules(NamedTuple):
    """Where the three engines differ."""

    four_with_two: bool          # a quad with two singles or two pairs exists
    four_two_rocket: bool        # the two singles of a quad may be both jokers
    kicker_most: int             # an airplane's singles hold at most this many cards of one rank
    kicker_next_trio: bool       # an airplane's singles may be a trio of a rank next to its chain
    kicker_rocket: bool          # an airplane's singles may be both jokers


DDZ_RULES = {
    "rlcard": DdzRules(True, False, 3, False, False),
    "douzero": DdzRules(True, True, 4, True, True),
    "openspiel": DdzRules(False, False, 3, True, False),
}


def ddz_readings(cards: str | Iterable[str], engine: str = "rlcard") -> set[tuple[str, int]]:
    """Every (combination id, rank) the multiset ``cards`` can be read as under ``engine``'s rules."""
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    values = tuple(sorted(DDZ_VALUE[str(c).strip().upper()] for c in cards))
    return set(_ddz_readings(values, engine))


@functools.lru_cache(maxsize=None)
def _ddz_readings(values: tuple[int, ...], engine: str) -> frozenset[tuple[str, int]]:
    rules = DDZ_RULES[engine]
    c = Counter(values)
    n = len(values)
    if n == 0 or any(k > DDZ_COPIES[v] for v, k in c.items()):
        return frozenset()
    out: set[tuple[str, int]] = set()
    only = next(iter(c)) if len(c) == 1 else None
    if n == 1:
        out.add(("solo", only))
    if only in DDZ_PLAIN and n in (2, 3, 4):
        out.add(({2: "pair", 3: "trio", 4: "bomb"}[n], only))
    if c == Counter({BJ: 1, RJ: 1}):
        out.add(("rocket", BJ))                 # ranked by its first card, as the pattern "BJ + RJ"
    for size, name, least in ((1, "chain", 5), (2, "pair_chain", 3), (3, "airplane", 2)):
        if len(c) >= least and all(k == size for k in c.values()) and _ddz_run(c):
            out.add((name, max(c)))
    for t in DDZ_PLAIN:
        rest = _remove(c, {t: 3})
        if rest is None or t in rest:
            continue
        if n == 4:
            out.add(("trio_solo", t))
        if n == 5 and _ddz_pairs(rest, 1):
            out.add(("trio_pair", t))
    for length in range(2, 13):
        for start in range(1, 14 - length):
            window = range(start, start + length)
            rest = _remove(c, {v: 3 for v in window})
            if rest is None or set(rest) & set(window):
                continue
            if n == 4 * length and _ddz_airplane_singles(rest, window, rules):
                out.add(("airplane_solos", window[-1]))
            if n == 5 * length and _ddz_pairs(rest, length):
                out.add(("airplane_pairs", window[-1]))
    if rules.four_with_two:
        for q in DDZ_PLAIN:
            rest = _remove(c, {q: 4})
            if rest is None:
                continue
            # the two singles may be a pair (two of one rank)
            if n == 6 and (rules.four_two_rocket or not (BJ in rest and RJ in rest)):
                out.add(("four_two_solos", q))
            if n == 8 and _ddz_pairs(rest, 2):
                out.add(("four_two_pairs", q))
    return frozenset(out)


def _ddz_run(c: Counter) -> bool:
    vs = sorted(c)
    return all(v in DDZ_RUNS for v in vs) and all(b == a + 1 for a, b in zip(vs, vs[1:]))


def _ddz_pairs(rest: Counter, count: int) -> bool:
    """``count`` pairs of different plain ranks."""
    return len(rest) == count and all(k == 2 and v in DDZ_PLAIN for v, k in rest.items())


def _ddz_airplane_singles(rest: Counter, window: range, rules: DdzRules) -> bool:
    """An airplane's singles (one per trio, none of a trio's rank) under ``rules``."""
    if any(k > rules.kicker_most for k in rest.values()):
        return False
    if not rules.kicker_rocket and BJ in rest and RJ in rest:
        return False
    if not rules.kicker_next_trio:
        # a trio next to the chain would make it longer: below its first or above its last rank
        if any(v in DDZ_RUNS and rest[v] >= 3 for v in (window[0] - 1, window[-1] + 1)):
            return False
    return True


def ddz_beats(play: Play, over: Play) -> bool:
    """Bombs (tier 1) beat every lower tier, the rocket (tier 2) everything; otherwise the same
    combination, as many cards, a higher rank."""
    mine, theirs = DDZ_TIER.get(play.combination, 0), DDZ_TIER.get(over.combination, 0)
    if mine != theirs:
        return mine > theirs
    return play.combination == over.combination and play.size == over.size and play.rank > over.rank


def ddz_all_plays(hand: str | Iterable[str], engine: str = "rlcard") -> set[Play]:
    """Every play a Dou Dizhu hand can lead under ``engine``'s rules (brute force)."""
    if isinstance(hand, str):
        hand = hand.replace(",", " ").split()
    counts = Counter(DDZ_VALUE[str(c).strip().upper()] for c in hand)
    ranks = sorted(counts)
    out: set[Play] = set()
    for take in itertools.product(*(range(counts[v] + 1) for v in ranks)):
        values = tuple(v for v, k in zip(ranks, take) for _ in range(k))
        for name, rank in _ddz_readings(values, engine) if values else ():
            out.add(Play(tuple(DDZ_NAMES[v - 1] for v in values), name, rank))
    return out


# --- perft ------------------------------------------------------------------------------------
PERFT = Path(__file__).with_name("perft.json")


def perft_counts(hand: str, overs: list[dict]) -> dict:
    """The number of leads of ``hand`` and of answers to each play of ``overs``."""
    plays = all_plays(hand)
    answers = {}
    for over in overs:
        o = Play(parse(over["cards"]), over["combination"], over["rank"])
        answers[f"{over['combination']} {over['rank']}: {over['cards']}"] = sum(beats(p, o) for p in plays)
    return {"leads": len(plays), "answers": answers}


def regenerate_perft(path: Path = PERFT) -> None:
    """Recompute every count in ``perft.json`` with this oracle (hands and overs are kept)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    for over in data["overs"]:
        assert (over["combination"], over["rank"]) in readings(over["cards"]), over
    for entry in data["hands"]:
        entry.update(perft_counts(entry["hand"], data["overs"]))
        entry["cards"] = len(parse(entry["hand"]))
        print(f"{entry['name']:<24} {entry['cards']:>2} cards  {entry['leads']:>6} leads", file=sys.stderr)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    regenerate_perft()
