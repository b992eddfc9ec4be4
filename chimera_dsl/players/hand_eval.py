"""Hand evaluation for computer players: how hard is it to empty a packed hand?

Everything here is derived from a :class:`~chimera_dsl.rules.Rules` object, never from
constants about one game, so a house variant with other combinations, levels or treasures
is evaluated by the same code.

The central quantity is the *cost* of a hand: the cheapest way to split it into legal
plays, where a play costs ``PLAY_COST`` (every play takes a turn) plus the chance that an
opponent can beat it (a play nobody can beat wins its trick and hands back the lead, so it
is nearly free; a low single almost always loses its trick).  Roughly, the cost counts the
tricks the hand must *lose* before it is empty: a hand of cost about 1 goes out as soon as
it has the lead.

* :meth:`HandEvaluator.cost` - the minimum cost, a search over ``rules.leads`` that only
  branches on plays holding the hand's lowest card (every split must play that card in
  some play, and the order of plays does not change a split), memoised on the packed key.
  The memo is shared by every player using the same rules, so subhands seen in one game
  are free in the next.
* :meth:`HandEvaluator.split` - one cheapest split, as a list of plays.
* :meth:`HandEvaluator.plays_needed` - the fewest plays that empty the hand.
* :meth:`HandEvaluator.beat_chance` - the chance that one random opponent's hand can beat
  a play.  It comes from a table sampled once per rules: random hands of the deal's size
  are drawn with a fixed seed, and for each (combination, size) the highest rank such a
  hand can make is recorded.
"""
from __future__ import annotations

import bisect
import random

from ..matcher import Play
from ..rules import Rules

CONTROL_POWER = 0.5       # a play at least this likely to win its trick is a control
PLAY_COST = 0.15          # what a play costs even when nobody can beat it
SAMPLE_HANDS = 160        # random hands drawn to estimate how often a play can be beaten
AVERAGE_HANDS = 30        # random hands whose mean cost is the yardstick of an average hand
MEMO_LIMIT = 200_000      # entries in a memo before it is emptied (memory stays flat)
SPLIT_MEMO_LIMIT = 20_000 # hands whose cheapest split is kept
ROOTS = 12                # recent hands whose plays are listed; a part of one uses its list
SAMPLE_SEED = "hand-eval"
INFINITY = float("inf")

_EVALUATORS: dict[int, "HandEvaluator"] = {}


def evaluator_for(rules: Rules) -> "HandEvaluator":
    """The evaluator of ``rules`` (built once per rules object, then shared)."""
    ev = _EVALUATORS.get(id(rules))
    if ev is None or ev.rules is not rules:
        ev = _EVALUATORS[id(rules)] = HandEvaluator(rules)
    return ev


class HandEvaluator:
    """Hand costs, splits and beat chances for one set of rules (see the module docstring)."""

    def __init__(self, rules: Rules):
        self.rules = rules
        deck = rules.deck
        self.deck = deck
        self._guard = deck.guard                   # the guard bits of the deck's packed counts
        self.n_ranks = len(deck.ranks)
        spec = rules.spec
        deal = spec.get("deal") or {}
        self.opponents = max(1, int(spec.get("players") or 2) - 1)
        self.hand_size = int(deal.get("hand") or max(1, rules.max_hand))
        treasures = (spec.get("scoring") or {}).get("treasures") or {}
        # points of one card of each rank index
        self.treasure = [0] * self.n_ranks
        for rank, points in treasures.items():
            i = deck.index.get(str(rank).upper())
            if i is not None:
                self.treasure[i] = int(points)
        self._memo: dict[int, float] = {}
        self._split_memo: dict[int, tuple[Play, ...]] = {}
        self._entries: dict[int, tuple] = {}       # by a play's identity: its search entry
        self._fresh = self._make_fresh()
        self._plays_memo: dict[int, int] = {}
        self._play_cost: dict[int, tuple[float, Play]] = {}
        self._beat: dict[tuple, float] = {}
        self._single_power: dict[int, float] = {}
        self._single_power_one: dict[int, float] = {}
        self._average: dict[int, float] = {}
        self._roots: list[tuple[int, dict]] = []   # recent hands and their plays, by lowest rank
        self._sample()
        # every card can be played alone: then no search falls back on counting lost cards, and
        # a hand's cost is at most the sum of its parts' costs (a bound players rely on)
        self.every_card_plays = all(rules.leads(deck.bit(i)) for i in range(self.n_ranks)
                                    if deck.copies[i])

    # -- the sampled table of what a random hand can make ------------------------------------
    def _sample(self) -> None:
        """Draw random hands and record, per (combination index, size), the best rank of each.

        ``self._best[(index, size)]`` is a sorted list with one entry per sampled hand (0 when
        the hand cannot make that combination at that size); ``self._tier_samples`` holds,
        per hand, the highest tier it can play.
        """
        rng = random.Random(SAMPLE_SEED)
        cards = [i for i, _ in self.deck.cards]
        size = min(self.hand_size, len(cards))
        best: dict[tuple[int, int], list[int]] = {}
        tiers: list[int] = []
        for n in range(SAMPLE_HANDS):
            rng.shuffle(cards)
            hand = self.deck.key(cards[:size])
            top: dict[tuple[int, int], int] = {}
            tier = 0
            for p in self.rules.leads(hand):
                k = (p.index, p.size)
                if p.rank > top.get(k, 0):
                    top[k] = p.rank
                if p.tier > tier:
                    tier = p.tier
            for k, r in top.items():
                best.setdefault(k, [0] * n).append(r)
            for k, lst in best.items():
                if len(lst) < n + 1:
                    lst.append(0)
            tiers.append(tier)
        self._best = {k: sorted(v) for k, v in best.items()}
        self._n_samples = SAMPLE_HANDS
        self._tier_samples = sorted(tiers)

    def beat_chance(self, play: Play) -> float:
        """The chance that one random opponent hand can answer ``play``.

        Answers of the same combination and size rank above it, and plays of a higher tier
        (bombs, the flight); those are counted at half weight, since they are usually kept.
        """
        key = (play.index, play.size, play.rank, play.tier)
        p = self._beat.get(key)
        if p is not None:
            return p
        n = self._n_samples
        lst = self._best.get((play.index, play.size))
        same = (n - bisect.bisect_right(lst, play.rank)) / n if lst else 0.0
        higher = (n - bisect.bisect_right(self._tier_samples, play.tier)) / n
        p = 1.0 - (1.0 - same) * (1.0 - 0.5 * higher)
        self._beat[key] = p
        return p

    def power(self, play: Play, opponents: int | None = None) -> float:
        """The chance (static, from the deck alone) that none of ``opponents`` random hands
        (by default every other seat) can beat ``play``."""
        return (1.0 - self.beat_chance(play)) ** (self.opponents if opponents is None else opponents)

    def play_cost(self, play: Play) -> float:
        """What a play costs in a split: ``PLAY_COST`` plus the chance it loses its trick.

        Memoised by the play's identity: plays are interned by the rules, which this
        evaluator keeps alive, and an entry holds its play so the identity is never reused."""
        entry = self._play_cost.get(id(play))
        if entry is None:
            if len(self._play_cost) >= MEMO_LIMIT:
                self._play_cost.clear()
            entry = self._play_cost[id(play)] = (PLAY_COST + 1.0 - self.power(play), play)
        return entry[0]

    # -- splitting a hand into plays -----------------------------------------------------------
    def _buckets(self, hand: int) -> dict[int, list[tuple[int, float, Play]]]:
        """The plays of ``hand`` by their lowest rank: ``{lowest bit: [(key, cost, play)]}``,
        where a hand's list is ``buckets[hand & -hand]``.

        A play's legality depends on its own cards only, so the plays of any part of the hand
        are those of the whole that fit in the part: one call to ``rules.leads`` serves a
        whole search, and a recently listed hand serves for any part of it (its plays that do
        not fit a part are skipped by the search; ``rules.leads`` lists a part's plays in the
        same order as the whole's, so splits do not depend on which hand was listed).  One
        reading per set of cards (the cheapest).  The search branches on the plays holding a
        part's lowest card, and a play that fits the part and holds its lowest card has that
        card as its own lowest: so each play is filed under its lowest rank only.
        """
        guard = self._guard
        for root, buckets in self._roots:
            if ((root | guard) - hand) & guard == guard:
                return buckets
        lists: list[list] = [[] for _ in range(self.n_ranks)]
        for i, key, c, p in self._list_plays(hand):
            lists[i].append((key, c, p))
        # filed under each bit a rank's count may have lowest: ``hand & -hand`` finds the list
        shift = self.deck.shift
        buckets = {1 << (shift * i + b): lists[i] for i in range(self.n_ranks) for b in range(shift)}
        if len(self._roots) >= ROOTS:
            self._roots.pop(0)
        self._roots.append((hand, buckets))
        return buckets

    def _list_plays(self, hand: int) -> list[tuple[int, int, float, Play]]:
        """The plays of ``hand`` as ``(lowest rank index, key, cost, play)``, in the order of
        ``rules.leads`` (the order of any part's leads too), one per set of cards."""
        entries = self._entries
        shift = self.deck.shift
        cheapest: dict[int, tuple] = {}
        for p in self.rules.leads(hand):
            e = entries.get(id(p))
            if e is None:
                if len(entries) >= MEMO_LIMIT:
                    entries.clear()
                key = p.key
                e = entries[id(p)] = (((key & -key).bit_length() - 1) // shift, key, self.play_cost(p), p)
            old = cheapest.get(e[1])
            if old is None or e[2] < old[2]:
                cheapest[e[1]] = e
        return list(cheapest.values())

    def cost(self, hand: int, within: int | None = None) -> float:
        """The minimum cost of emptying the packed ``hand`` (0 for an empty hand).

        ``within``: a hand that holds ``hand`` (the hand before a play), whose list of plays
        then serves: it saves listing the plays again.
        """
        if not hand:
            return 0.0
        c = self._memo.get(hand)
        if c is not None:
            return c
        if len(self._memo) >= MEMO_LIMIT:
            self._memo.clear()
        return self._fresh(hand, self._buckets(hand if within is None else within))

    def _search(self, hand: int, buckets) -> float:
        """:meth:`cost`, branching on the plays that hold the lowest card (memoised)."""
        if not hand:
            return 0.0
        c = self._memo.get(hand)
        return c if c is not None else self._fresh(hand, buckets)

    def _make_fresh(self):
        """The search proper, for a non-empty hand not in the memo: a closure over the memo
        (emptied in place, never replaced), so each step looks up no attribute."""
        memo = self._memo
        guard = self._guard
        size_of = self.deck.size_of
        infinity = INFINITY

        def fresh(hand: int, buckets) -> float:
            best = infinity
            guarded = hand | guard
            for key, pc, _ in buckets[hand & -hand]:
                if pc < best and (guarded - key) & guard == guard:
                    rest = hand - key
                    if rest:
                        r = memo.get(rest)
                        v = pc + (r if r is not None else fresh(rest, buckets))
                    else:
                        v = pc
                    if v < best:
                        best = v
            if best == infinity:       # a card that forms no play: count it as a lost trick each
                best = size_of(hand) * (PLAY_COST + 1.0)
            memo[hand] = best
            return best

        return fresh

    def split(self, hand: int, within: int | None = None) -> list[Play]:
        """One cheapest split of ``hand`` into plays (weakest first); ``within`` as for :meth:`cost`.

        Memoised on the hand: the split found does not depend on ``within`` (a part's plays
        come in the same order as the whole's)."""
        cached = self._split_memo.get(hand)
        if cached is None:
            if len(self._split_memo) >= SPLIT_MEMO_LIMIT:
                self._split_memo.clear()
            cached = self._split_memo[hand] = tuple(self._split(hand, within))
        return list(cached)

    def _split(self, hand: int, within: int | None) -> list[Play]:
        out: list[Play] = []
        buckets = self._buckets(hand if within is None else within)
        search = self._search
        guard = self._guard
        while hand:
            target = search(hand, buckets)
            guarded = hand | guard
            chosen = None
            for key, pc, p in buckets[hand & -hand]:
                if (guarded - key) & guard == guard:
                    rest = hand - key
                    if not rest:
                        v = pc
                    elif pc >= target:     # the rest costs at least PLAY_COST: it cannot match
                        continue
                    else:
                        v = pc + search(rest, buckets)
                    if abs(v - target) < 1e-9:
                        chosen = p
                        break
            if chosen is None:
                break
            out.append(chosen)
            hand -= chosen.key
        out.sort(key=lambda p: (-self.play_cost(p), p.rank))
        return out

    def plays_needed(self, hand: int) -> int:
        """The fewest plays that empty ``hand``."""
        if not hand:
            return 0
        n = self._plays_memo.get(hand)
        if n is not None:
            return n
        if len(self._plays_memo) >= MEMO_LIMIT:
            self._plays_memo.clear()
        return self._count(hand, self._buckets(hand))

    def _count(self, hand: int, buckets) -> int:
        if not hand:
            return 0
        memo = self._plays_memo
        n = memo.get(hand)
        if n is not None:
            return n
        best = self.deck.size_of(hand)
        guard = self._guard
        guarded = hand | guard
        for key, _, _ in buckets[hand & -hand]:
            if (guarded - key) & guard == guard:
                v = 1 + self._count(hand - key, buckets)
                if v < best:
                    best = v
                    if best == 1:
                        break
        memo[hand] = best
        return best

    # -- hand facts ----------------------------------------------------------------------------
    def treasure_of(self, key: int) -> int:
        """The treasure points of the cards of a packed key."""
        field_mask, shift = self.deck.field_mask, self.deck.shift
        total = 0
        i = 0
        while key:
            n = key & field_mask
            if n:
                total += n * self.treasure[i]
            key >>= shift
            i += 1
        return total

    def single_power(self, index: int) -> float:
        """The best power of one card of rank ``index`` played alone (0 if it cannot be)."""
        p = self._single_power.get(index)
        if p is None:
            plays = self.rules.leads(self.deck.bit(index))
            p = self._single_power[index] = max((self.power(q) for q in plays), default=0.0)
        return p

    def single_power_against_one(self, index: int) -> float:
        """The chance that one card of rank ``index`` played alone beats one random hand (0 if
        it cannot be played alone): what the card is worth to whoever holds it."""
        p = self._single_power_one.get(index)
        if p is None:
            plays = self.rules.leads(self.deck.bit(index))
            p = self._single_power_one[index] = max((self.power(q, 1) for q in plays), default=0.0)
        return p

    def average_cost(self, size: int) -> float:
        """The mean cost of a random hand of ``size`` cards (sampled once, with a fixed seed)."""
        c = self._average.get(size)
        if c is None:
            rng = random.Random(f"{SAMPLE_SEED}:{size}")
            cards = [i for i, _ in self.deck.cards]
            drawn = min(size, len(cards))
            total = 0.0
            for _ in range(AVERAGE_HANDS):
                rng.shuffle(cards)
                total += self.cost(self.deck.key(cards[:drawn]))
            c = self._average[size] = total / AVERAGE_HANDS
        return c

    def ranks_held(self, hand: int) -> tuple[int, ...]:
        """The rank indices held in a packed hand, lowest first."""
        deck = self.deck
        return deck.indices_of_mask(deck.ge_mask(hand, 1))

    def controls(self, hand: int) -> float:
        """The summed power of the control plays (power at least one half) of a cheapest split."""
        return sum(self.power(p) for p in self.split(hand) if self.power(p) >= CONTROL_POWER)

    def control_plays(self, hand: int) -> list[Play]:
        """The plays of a cheapest split that are hard to beat (power at least one half)."""
        return [p for p in self.split(hand) if self.power(p) >= CONTROL_POWER]
