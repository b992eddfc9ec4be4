"""Plays of the very cards: combinations that read colours, and plays compared card by card.

The matcher lists plays by ranks (how many cards of each rank), which is all a variant needs
while no rule reads a colour.  A variant whose combinations ask for ``same colour`` or
compare their cards (``compare: cards``) needs each play to be a set of cards; this module
turns the matcher's plays into :class:`CardPlay` objects:

* every way to take a play's ranks from the cards held, one per *look* (two cards of one rank
  and one colour are interchangeable, so only one of them is offered);
* for ``same colour``, the ranks are listed from the cards of each colour (with the cards of a
  wild colour, which take the play's colour) so a flush is found from a handful of cards;
* the plays of a combination that yields to others (``unless``) without the sets of cards that
  also form one of them (a straight flush is then never also a straight);
* a strength to compare two plays of one combination: its rank, then the values of its cards
  card by card from the highest, then their colours card by card (``deck.colours``, lowest
  first); the first part's cards, values and colours, come before the attached ones'.

Nothing here names a game: the colours, their order and the wild colours come from the deck.
"""
from __future__ import annotations

import itertools
from typing import Iterable, Iterator

from .cards import Deck
from .matcher import CompiledCombination, Play

CACHE_LIMIT = 4096


class CardPlay(Play):
    """A play of named cards: ``mask`` (a bit mask over the deck's cards), ``strength`` (compared
    within a combination) and ``colour`` (the colour a ``same colour`` play is in, else -1)."""

    __slots__ = ("mask", "strength", "colour")

    def __init__(self, base: Play, mask: int, strength: tuple, colour: int):
        super().__init__(base.combination, base.index, base.rank, base.size, base.key, base.tier,
                         base.length, base.deck)
        self.mask = mask
        self.strength = strength
        self.colour = colour

    @property
    def cards(self) -> list[str]:
        """The card names of this play (``7/red``), lowest first."""
        return self.deck.mask_names(self.mask)

    def __eq__(self, other) -> bool:
        return self is other or (isinstance(other, CardPlay) and other.index == self.index
                                 and other.mask == self.mask and other.rank == self.rank)

    def __hash__(self) -> int:
        return hash((self.index, self.mask, self.rank))

    def __repr__(self) -> str:
        return f"CardPlay({' '.join(self.cards)!r}, {self.combination}, rank={self.rank})"


def strength_of(play: Play):
    """What two plays of one combination compare by: a card play's strength, else its rank."""
    return play.strength if isinstance(play, CardPlay) else (play.rank,)


class CardPlays:
    """The plays of the very cards a seat holds, for a variant whose rules read colours."""

    def __init__(self, deck: Deck, combinations: Iterable[CompiledCombination], ge):
        self.deck = deck
        self.combinations = tuple(combinations)
        self._ge = ge                            # Rules._ge: the spread masks of a packed hand
        self._intern: dict = {}
        self._leads: dict[int, tuple[CardPlay, ...]] = {}
        self._formed: dict[tuple[int, int], bool] = {}     # _forms: (combination, cards) -> formed
        wild = deck.wild_colour_mask
        self._colours = tuple((k, mask | wild) for k, mask in enumerate(deck.colour_masks)
                              if mask & ~wild)
        self._colour_rank = deck.card_colour
        self._value = tuple(deck.value(deck.card_rank[c]) for c in range(len(deck.cards)))

    # -- listing -------------------------------------------------------------------------------
    def leads(self, held: int) -> tuple[CardPlay, ...]:
        """Every play that may lead from the cards ``held`` (cached, shared)."""
        cached = self._leads.get(held)
        if cached is None:
            out: dict[CardPlay, None] = {}
            for combo in self.combinations:
                out.update(dict.fromkeys(self._plays(combo, held)))
            cached = tuple(out)
            if len(self._leads) >= CACHE_LIMIT:
                self._leads.clear()
            self._leads[held] = cached
        return cached

    def plays_of(self, combo: CompiledCombination, held: int) -> Iterator[CardPlay]:
        """The plays of one combination from the cards ``held``, made as they are read (not kept)."""
        return self._plays(combo, held)

    def answers(self, held: int, over: Play, combinations: Iterable[CompiledCombination], can_beat) -> list[CardPlay]:
        """The plays from ``held`` of ``combinations`` (those that may beat ``over``) that beat it."""
        out: dict[CardPlay, None] = {}
        for combo in combinations:
            same = combo.index == over.index
            for play in self._plays(combo, held, over.length if same else 0, over.rank - 1 if same else 0):
                if can_beat(play, over):
                    out[play] = None
        return list(out)

    def _plays(self, combo: CompiledCombination, held: int, length: int = 0, above: int = 0) -> Iterator[CardPlay]:
        """The plays of ``combo`` from ``held`` (above ``above`` and of ``length`` units when
        given), without those whose very cards also form a combination it yields to (``unless``)."""
        plays = self._all_plays(combo, held, length, above)
        if not combo.unless:
            return plays
        others = [self.combinations[i] for i in combo.unless]
        return (p for p in plays if not any(self._forms(other, p.mask) for other in others))

    def _forms(self, combo: CompiledCombination, mask: int) -> bool:
        """Do exactly the cards of ``mask`` form ``combo`` (read as it is listed, ``unless`` aside)?"""
        code = (combo.index, mask)
        known = self._formed.get(code)
        if known is None:
            known = any(p.mask == mask for p in self._all_plays(combo, mask))
            if len(self._formed) >= CACHE_LIMIT:
                self._formed.clear()
            self._formed[code] = known
        return known

    def _all_plays(self, combo: CompiledCombination, held: int, length: int = 0, above: int = 0) -> Iterator[CardPlay]:
        deck = self.deck
        if combo.same_colour:
            for colour, cards in self._colours:
                pool = held & cards
                if pool:
                    key = deck.key_of_mask(pool)
                    for base in combo.plays(key, self._ge(key), length, above):
                        yield from self._looks(combo, base, pool, colour)
            return
        key = deck.key_of_mask(held)
        for base in combo.plays(key, self._ge(key), length, above):
            yield from self._looks(combo, base, held, -1)

    def _looks(self, combo: CompiledCombination, base: Play, pool: int, colour: int) -> Iterator[CardPlay]:
        """Each way to take ``base``'s ranks from ``pool``, one per look (rank and colour)."""
        deck = self.deck
        colour_of = self._colour_rank
        per_rank: list[list[int]] = []
        field_mask, shift = deck.field_mask, deck.shift
        key = base.key
        i = 0
        while key:
            want = key & field_mask
            if want:
                # the cards of rank i in the pool, one list per colour (a look)
                looks: dict[int, list[int]] = {}
                for c in deck.numbers_of(pool & deck.rank_masks[i]):
                    looks.setdefault(colour_of[c], []).append(c)
                options = []
                for counts in _splits(want, [len(v) for v in looks.values()]):
                    mask = 0
                    for n, cards in zip(counts, looks.values()):
                        for c in cards[:n]:
                            mask |= 1 << c
                    options.append(mask)
                per_rank.append(options)
            key >>= shift
            i += 1
        for chosen in itertools.product(*per_rank):
            mask = 0
            for m in chosen:
                mask |= m
            yield self._card_play(combo, base, mask, colour)

    def _card_play(self, combo: CompiledCombination, base: Play, mask: int, colour: int) -> CardPlay:
        code = (base.index, mask, base.rank, colour)
        play = self._intern.get(code)
        if play is None:
            play = CardPlay(base, mask, self._strength(combo, base, mask, colour), colour)
            if len(self._intern) >= 200_000:
                self._intern.clear()
            self._intern[code] = play
        return play

    # -- comparing -------------------------------------------------------------------------------
    def _strength(self, combo: CompiledCombination, base: Play, mask: int, colour: int) -> tuple:
        if not combo.compare_cards:
            return (base.rank,)
        deck = self.deck
        wild = deck.wild_colour_mask
        value = self._value
        colour_of = self._colour_rank
        core = self._core_ranks(combo, base)
        parts: list[list[tuple[int, int]]] = [[], []]
        for c in deck.numbers_of(mask):
            k = colour if (colour >= 0 and wild >> c & 1) else colour_of[c]
            in_core = core is None or deck.card_rank[c] in core
            parts[0 if in_core else 1].append((value[c], k))
        out: list[int] = [base.rank]
        for part in parts:
            part.sort(reverse=True)
            out.extend(v for v, _ in part)
            out.extend(k for _, k in part)
        return tuple(out)

    def _core_ranks(self, combo: CompiledCombination, base: Play) -> frozenset | None:
        """The ranks of a play's first part (None: all its cards are one part)."""
        if combo.cards_count or combo.ranked_by_highest or not combo.attachments:
            return None
        top = base.rank - 1                         # a rank's value is its index + 1
        if not combo.is_chain:
            return frozenset({top})
        seq = self.deck.sequence
        end = seq.index(top)
        return frozenset(seq[end - base.length + 1:end + 1])


def _splits(total: int, room: list[int]) -> Iterator[tuple[int, ...]]:
    """Every way to write ``total`` as a sum of one count per list, each at most its room."""
    if not room:
        if total == 0:
            yield ()
        return
    first, rest = room[0], room[1:]
    for n in range(min(first, total), -1, -1):
        if total - n <= sum(rest):
            for tail in _splits(total - n, rest):
                yield (n,) + tail
