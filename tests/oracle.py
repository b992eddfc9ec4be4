"""A reference implementation of Chimera's 14 combinations, for testing the matcher.

Written straight from the table "The 14 combinations" of RULINGS.md, and deliberately
naive: plain Counters and loops, no packed integers, nothing imported from chimera_dsl.
It must stay independent of the matcher, so that the two can disagree.

* :func:`readings` - every (combination id, rank) a multiset of cards can be read as;
* :func:`beats` - may a play be made on another (tiers, same combination and size, rank);
* :func:`all_plays` - brute force: every sub-multiset of a hand and its readings.

Cards are the strings of the notation (``"1"``..``"12"``, ``"H"``, ``"P"``, ``"C"``); ranks
are on the record scale: 1..12, H = 13, P = 14, C = 15.

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
