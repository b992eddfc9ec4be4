"""The combination matcher: patterns compiled against a deck, generating plays fast.

A compiled combination lists its plays from a packed hand (``cards``) and the hand's spread
masks ``ge[k]`` (the ranks held at least ``k`` times) in two steps:

1. the *core*: a group of one rank comes from fixed chunk tables (a spread mask in, the
   plays or cores of its ranks out, no miss possible); a chain from a table keyed by the
   held ranks it depends on, filled on first use (at most one entry per possible set of
   ranks, so it stops growing), after a few shifts have ruled out most hands; a straight
   with the one wild card from per-window tables (natural, wild card in a gap, wild card
   replacing a held card);
2. the *attachments*: when there is one attached group, per-core rows give the play for
   each choice of one or two candidate ranks (two units of one rank on the diagonal, where
   the pattern allows repeats), so listing is reading rows at the candidate ranks; longer
   choices of different ranks are their combinations, and general patterns (several
   attached groups, longer choices with repeats) pick from what the rest of the hand holds,
   bounded by its counts and by ``at most N per rank``.  ``not extending`` is checked where
   each play is built.

A group with one attached unit (a trio with a single) goes one step further: per core rank,
chunk tables of its row turn the candidate ranks' spread mask into that core's plays, two
lookups for a deck of up to 16 ranks (:data:`UNIT_TABLE_LIMIT` bounds them).

Every play is an interned :class:`Play`, built once; tables hold plays, not cards.  The
lazily filled tables are bounded: a full one is emptied, so memory stays flat.
"""
from __future__ import annotations

import difflib
import itertools
from dataclasses import dataclass
from collections import Counter
from math import comb
from typing import Sequence

from .cards import Deck, chunk_tables, gather
from .errors import PatternError, Problem
from .language.patterns import Card, Cards, Chain, Group, Pattern, RankSet, parse_pattern

CACHE_LIMIT = 60_000          # entries per cache before it is emptied
MAX_PLAYS_PER_HAND = 200_000  # the most plays one combination may list from one hand
MAX_COMBINATIONS = 63
# Plays with one attached group are read from per-core rows of ranks x ranks plays while the
# deck has at most this many ranks; a deck with more lists them from the hand (the rows would
# grow with the cube of its ranks).
ROW_RANKS = 32
# A group with one attached unit reads a core's plays from chunk tables of its row (a tuple per
# possible chunk of candidate ranks, :func:`chimera_dsl.cards.chunk_tables`) while all its
# cores' tables together hold at most this many tuples (a trio with a single card over a
# 15-rank deck: 13 cores x (256 + 128)); beyond, from the row itself, one rank at a time.
UNIT_TABLE_LIMIT = 8192
KEYWORDS = {"any", "of", "each", "consecutive", "distinct", "not", "both", "and", "wild", "ranked",
            "by", "core", "highest", "single", "singles", "pair", "pairs", "trio", "trios", "quad", "quads",
            "extending", "at", "most", "per", "rank", "card", "cards", "kind", "same", "colour", "color"}


class Play:
    """One reading of a set of cards: a combination, the cards (packed), and the rank.

    Plays are interned by the rules that made them, so identical plays are the same object.
    """

    __slots__ = ("combination", "index", "rank", "size", "key", "tier", "length", "deck")

    def __init__(self, combination: str, index: int, rank: int, size: int, key: int,
                 tier: int, length: int, deck: Deck):
        self.combination = combination
        self.index = index
        self.rank = rank
        self.size = size
        self.key = key
        self.tier = tier
        self.length = length
        self.deck = deck

    @property
    def cards(self) -> list[str]:
        """The card strings of this play, lowest first."""
        return self.deck.names_of(self.key)

    def as_dict(self) -> dict:
        """The play as the contract's JSON: cards, combination, rank."""
        return {"cards": self.cards, "combination": self.combination, "rank": self.rank}

    def __eq__(self, other) -> bool:
        return self is other or (isinstance(other, Play) and other.index == self.index
                                 and other.key == self.key and other.rank == self.rank)

    def __hash__(self) -> int:
        return hash((self.index, self.key, self.rank))

    def __repr__(self) -> str:
        return f"Play({' '.join(self.cards)!r}, {self.combination}, rank={self.rank})"


@dataclass(frozen=True)
class CoreEntry:
    """One possible core: its cards, the ranks it uses (spread mask), its rank and length."""

    key: int
    mask: int
    rank: int
    length: int
    ident: int


@dataclass(frozen=True)
class Attachment:
    size: int
    count: int
    each: bool
    mask: int          # spread mask of allowed ranks

    def total(self, length: int) -> int:
        return self.count * (length if self.each else 1)


class CompiledCombination:
    """A combination of a variant, compiled against its deck."""

    def __init__(self, cid: str, index: int, tier: int, names: dict, pattern: Pattern,
                 deck: Deck, max_hand: int, intern: dict, *, order: int | None = None, compare: str = "rank"):
        self.id = cid
        self.index = index
        self.tier = tier
        self.order = order                 # plays of ordered combinations of a tier beat across them
        self.compare_cards = compare == "cards"
        # the indices of the combinations (``unless``) whose cards are never also this one
        self.unless: tuple[int, ...] = ()
        self.same_colour = pattern.same_colour
        self.cards_count = 0               # "N cards of SET": N
        self.names = names
        self.pattern = pattern
        self.pattern_text = pattern.text
        self.deck = deck
        # the deck's packed layout, read where plays are listed
        self._shift = deck.shift
        self._field_mask = deck.field_mask
        self._index_tables = deck.index_tables      # gather(tables, spread mask): its rank indices
        self._intern = intern
        self._core_ids: dict = {}
        self.ranked_by_highest = pattern.ranked_by == "highest"
        self.not_both: tuple[int, ...] = ()
        self.attachments: tuple[Attachment, ...] = ()
        self.levels: set[int] = set()
        self.run_shifts: tuple[int, ...] = ()
        self._compile(deck, max_hand)

    # -- compiling ------------------------------------------------------------------------
    def _mask(self, ranks: RankSet) -> int:
        deck = self.deck
        bit = deck.bit
        mask = 0
        for item in ranks.items:
            if item.kind == "any":
                mask |= deck.low
            elif item.kind == "range":
                lo, hi = (self._rank_index(n, item.offset) for n in item.names)
                if lo > hi:
                    raise PatternError(f"the range {item.names[0]}..{item.names[1]} runs downwards",
                                       item.offset, text=self.pattern.text)
                mask |= sum(bit(i) for i in range(lo, hi + 1))
            else:
                name = item.names[0]
                if name in deck.groups:
                    mask |= sum(bit(i) for i in deck.groups[name])
                else:
                    mask |= bit(self._rank_index(name, item.offset, allow_groups=True))
        return mask

    def _rank_index(self, name: str, offset: int, allow_groups: bool = False) -> int:
        i = self.deck.index.get(name.upper())
        if i is None:
            known = list(self.deck.ranks) + (list(self.deck.groups) + ["any"] if allow_groups else [])
            close = difflib.get_close_matches(name, known, n=1)
            what = "rank or group" if allow_groups else "rank"
            hint = f"did you mean '{close[0]}'?" if close else "known: " + ", ".join(known)
            raise PatternError(f"unknown {what} '{name}'", offset, hint=hint, text=self.pattern.text)
        return i

    def _compile(self, deck: Deck, max_hand: int) -> None:
        pattern = self.pattern
        parts = [Group(1, 1, RankSet((_name_item(p),), p.offset), False, p.offset)
                 if isinstance(p, Card) else p for p in pattern.parts]
        core = parts[0]
        text = pattern.text
        for part in parts[1:]:
            if isinstance(part, Cards):
                raise PatternError("'N cards of' is a whole pattern: it cannot be attached", part.offset,
                                   hint="attach single cards with '+ N singles of SET'", text=text)
        if isinstance(core, Cards):
            self._compile_cards(core, parts, max_hand)
            return
        if isinstance(core, Group) and (core.count != 1 or core.each):
            raise PatternError("the first part must be a single group (one rank) or a chain",
                               core.offset, hint="put further groups after '+'", text=text)
        self.core_mask = self._mask(core.ranks)
        self.core_size = core.size
        self.is_chain = isinstance(core, Chain)
        self.levels.add(core.size)
        attachments = []
        for part in parts[1:]:
            if isinstance(part, Chain):
                raise PatternError("only the first part may be a chain", part.offset, text=text)
            assert isinstance(part, Group), part           # "N cards of" is a whole pattern, never attached
            if part.each and not self.is_chain:
                raise PatternError("'each' attaches once per unit of a chain, but the first part is not a chain",
                                   part.offset, text=text)
            attachments.append(Attachment(part.size, part.count, part.each, self._mask(part.ranks)))
            self.levels.add(part.size)
        self.attachments = tuple(attachments)
        self.distinct = pattern.distinct
        bit = deck.bit
        nb = []
        for a, b, offset in pattern.not_both:
            nb.append(bit(self._rank_index(a, offset)) | bit(self._rank_index(b, offset)))
        self.not_both = tuple(nb)
        self.wild_mask = self._mask(pattern.wild) if pattern.wild else 0
        self.wild_ranks = deck.indices_of_mask(self.wild_mask)
        if self.wild_mask:
            # the cores of a wild pattern are cached by the core ranks' counts up to a unit
            # (_wild_key): every level from 1 to the unit's size must be in ``ge``
            self.levels.update(range(1, core.size + 1))
        self.at_most = pattern.at_most
        self.not_extending = pattern.not_extending
        self._max_hand = max_hand
        copies = deck.copies
        self._check_caps(parts)

        core_ranks: Sequence[int] = deck.indices_of_mask(self.core_mask)
        if self.wild_mask & self.core_mask:
            raise PatternError("a wild rank cannot also be one of the first part's ranks", pattern.wild.offset,
                               hint="leave the wild ranks out of the first part's rank set", text=text)
        if self.same_colour and self.wild_mask:
            # a card without a colour is of no colour, so a play holding it is never of one: such a
            # wild card could never stand in, and the file would silently play without it
            plain = [deck.card_names[c] for r in deck.indices_of_mask(self.wild_mask)
                     for c, k in enumerate(deck.card_rank) if k == r and deck.card_colour[c] < 0]
            if plain:
                raise PatternError(f"{', '.join(plain)} has no colour, so with 'same colour' it never stands in "
                                   "for a card", pattern.wild.offset,
                                   hint="give it a colour listed in deck.wild_colours (it then takes the play's "
                                   "colour): colours: [..., joker], wild_colours: [joker], and its deck.cards entry "
                                   "colour: joker", text=text)

        if self.is_chain:
            seq = deck.sequence
            if not seq:
                raise PatternError("a chain needs the deck's 'sequence' (which ranks follow one another)",
                                   core.offset, text=text)
            outside = [deck.ranks[i] for i in core_ranks if i not in seq]
            if outside:
                raise PatternError(f"{', '.join(outside)} cannot be part of a chain: not in the deck's sequence",
                                   core.ranks.offset, hint="chains run over deck.sequence", text=text)
            self.windows = self._windows(core, max_hand)  # type: ignore[arg-type]  # a chain here
            if not self.windows:
                raise PatternError("this chain can never match: no run of its ranks is long enough "
                                   "or it needs more cards than a hand holds", core.offset, text=text)
            wild_copies = sum(copies[i] for i in self.wild_ranks)
            if any(copies[i] < core.size for i in core_ranks) and not wild_copies:
                short = [deck.ranks[i] for i in core_ranks if copies[i] < core.size]
                raise PatternError(f"this chain can never match: the deck holds fewer than {core.size} of "
                                   f"{', '.join(short)}", core.offset, text=text)
            self.max_length = max(w[2] for w in self.windows)
        else:
            wild_copies = sum(copies[i] for i in self.wild_ranks)
            if not any(copies[i] + min(wild_copies, core.size - 1) >= core.size for i in core_ranks):
                raise PatternError(f"this can never match: no rank of {core.ranks.text} has {core.size} cards "
                                   "in the deck", core.offset, text=text)
            if core.size > deck.room:          # wild cards would complete it, but a count field holds less
                raise PatternError(f"a group holds at most {deck.room} cards of one rank with this deck, not "
                                   f"{core.size}: the deck's packed counts hold no more", core.offset,
                                   hint=f"the deck holds at most {max(copies)} cards of one rank, and its count "
                                   f"fields are as wide as that needs", text=text)
            self.max_length = 1
        # an attached part never shares a rank with the core: it needs a rank of its own
        core_ranks = [i for i in core_ranks if copies[i] >= core.size or self.is_chain or self.wild_mask]
        for att, part in zip(self.attachments, parts[1:]):
            own = [a for a in deck.indices_of_mask(att.mask) if copies[a] >= att.size]
            if not any(a != c for a in own for c in core_ranks):
                raise PatternError(f"this can never match: no rank of {part.ranks.text} can be attached (attached "
                                   f"cards need a rank other than the first part's, with {att.size} "
                                   f"card{'s' if att.size > 1 else ''} in the deck)", part.offset, text=text)
        smallest = self.size_for_length(self.windows[0][2] if self.is_chain else 1)
        if smallest > max_hand:
            raise PatternError(f"this can never match: it needs at least {smallest} cards and a hand holds "
                               f"at most {max_hand}", 0, text=text)
        bound = self._work_bound()
        if bound > MAX_PLAYS_PER_HAND:
            raise PatternError(f"this pattern could list up to {bound} plays from one hand (the limit is "
                               f"{MAX_PLAYS_PER_HAND})", 0, hint="narrow its rank sets, lengths or attachments",
                               text=text)
        self._prepare()

    def _compile_cards(self, core: Cards, parts: list, max_hand: int) -> None:
        """``N cards of SET``: any N cards of the set's ranks, alone; ranked by the highest."""
        pattern = self.pattern
        text = pattern.text
        deck = self.deck
        if len(parts) > 1:
            raise PatternError("'N cards of' is a whole pattern: nothing can be attached to it", parts[1].offset,
                               hint="write the attached cards into the set, or use groups", text=text)
        for clause in ("wild", "not_extending"):
            if pattern.clause_offset(clause) or (clause == "wild" and pattern.wild):
                raise PatternError(f"'{'wild' if clause == 'wild' else 'not extending'}' does not apply to "
                                   "'N cards of'", pattern.clause_offset(clause), text=text)
        if pattern.ranked_by == "core" and pattern.clause_offset("ranked_by"):
            raise PatternError("'N cards of' is always ranked by its highest card", pattern.clause_offset("ranked_by"),
                               hint="write 'ranked by highest' or leave the clause out", text=text)
        self.core_mask = self._mask(core.ranks)
        self.core_size = 1
        self.is_chain = False
        self.cards_count = core.count
        self.ranked_by_highest = True
        self.levels.add(1)
        self.attachments = ()
        self.distinct = pattern.distinct
        bit = deck.bit
        self.not_both = tuple(bit(self._rank_index(a, o)) | bit(self._rank_index(b, o)) for a, b, o in pattern.not_both)
        self.wild_mask = 0
        self.wild_ranks = ()
        self.at_most = pattern.at_most
        self.not_extending = False
        self._max_hand = max_hand
        self.max_length = 1
        ranks = deck.indices_of_mask(self.core_mask)
        cap = 1 if self.distinct else (self.at_most or deck.room)
        room = sum(min(deck.copies[i], cap) for i in ranks)
        if room < core.count:
            raise PatternError(f"this can never match: the deck holds {room} cards of {core.ranks.text} that "
                               f"it may take, fewer than {core.count}", core.offset, text=text)
        if core.count > max_hand:
            raise PatternError(f"this can never match: it needs {core.count} cards and a hand holds at most "
                               f"{max_hand}", core.offset, text=text)
        bound = min(comb(max_hand, core.count), comb(len(ranks) + core.count - 1, core.count))
        if bound > MAX_PLAYS_PER_HAND:
            raise PatternError(f"this pattern could list up to {bound} plays from one hand (the limit is "
                               f"{MAX_PLAYS_PER_HAND})", 0, hint="narrow its rank set or take fewer cards",
                               text=text)
        self._core_cache: dict = {}
        self._rows: dict = {}
        self._core_fields = self.core_mask * deck.field_mask
        self.plays = self._plays_cards
        self.lead_step = "call"

    def _plays_cards(self, hand: int, ge: list[int], length: int = 0, above: int = 0):
        """``N cards of SET``: every choice of N cards of the set's ranks the hand holds."""
        own = hand & self._core_fields
        plays = self._core_cache.get(own)
        if plays is None:
            cap = 1 if self.distinct else self.at_most
            deck = self.deck
            shift, field_mask = self._shift, self._field_mask
            units = []
            for i in gather(self._index_tables, deck.ge_mask(own, 1)):
                have = (own >> (shift * i)) & field_mask
                units.append((i, min(have, cap) if cap else have))
            out = []
            value = deck.value
            for key, mask in _picks(units, self.cards_count, 1, shift):
                if any(mask & nb == nb for nb in self.not_both):
                    continue
                out.append(self._play(key, value((key.bit_length() - 1) // shift), 1))
            plays = tuple(out)
            self._remember(self._core_cache, own, plays)
        return [p for p in plays if p.rank > above] if above else plays

    def _check_caps(self, parts: list) -> None:
        """The clauses on attached cards need attached parts (and a chain, for ``not extending``),
        and a cap no attached group exceeds on its own."""
        pattern = self.pattern
        text = pattern.text
        if self.at_most:
            offset = pattern.clause_offset("at_most")
            if not self.attachments:
                raise PatternError("'at most N per rank' caps attached cards, but this pattern attaches none",
                                   offset, hint="attach parts with '+'", text=text)
            for att, part in zip(self.attachments, parts[1:]):
                if att.size > self.at_most:
                    raise PatternError(f"this can never match: each attached {_GROUP_NAMES[att.size]} holds "
                                       f"{att.size} cards of one rank, more than 'at most {self.at_most} per "
                                       f"rank' allows", part.offset, text=text)
        if self.not_extending:
            offset = pattern.clause_offset("not_extending")
            if not self.is_chain:
                raise PatternError("'not extending' is about the ranks next to a chain, but the first part is "
                                   "not a chain", offset, text=text)
            if not self.attachments:
                raise PatternError("'not extending' is about attached cards, but this pattern attaches none",
                                   offset, hint="attach parts with '+'", text=text)

    def _windows(self, core: Chain, max_hand: int) -> list[tuple[int, int, int, int]]:
        """Every window of the chain: (spread mask of its ranks, top rank value, length, start)."""
        seq = self.deck.sequence
        bit = self.deck.bit
        allowed = [bool(self.core_mask & bit(i)) for i in seq]
        out = []
        longest_possible = core.max_length or len(seq)
        for length in range(core.min_length, longest_possible + 1):
            if self.size_for_length(length, core.size) > max_hand:
                break
            for start in range(0, len(seq) - length + 1):
                if all(allowed[start:start + length]):
                    ranks = seq[start:start + length]
                    mask = sum(bit(i) for i in ranks)
                    out.append((mask, self.deck.value(ranks[-1]), length, start))
        return out

    def size_for_length(self, length: int, core_size: int | None = None) -> int:
        """How many cards a play of this combination holds with a chain of ``length`` units."""
        size = (core_size or self.core_size) * length
        for att in self.attachments:
            size += att.size * att.total(length)
        return size

    def work_bound(self, cards: int) -> int:
        """The most plays this combination can list from ``cards`` cards (a hand, or a whole
        deck, which may be larger than any hand: analyse reads the deck's plays within a budget)."""
        if self.cards_count:
            ranks = len(self.deck.indices_of_mask(self.core_mask))
            return min(comb(cards, self.cards_count), comb(ranks + self.cards_count - 1, self.cards_count))
        return self._work_bound(cards)

    def max_size(self) -> int:
        """The most cards one play of this combination holds (its longest chain, with what is
        attached to it)."""
        if self.cards_count:
            return self.cards_count
        lengths = [w[2] for w in self.windows] if self.is_chain else [1]
        return max(length * self.core_size + sum(att.total(length) * att.size for att in self.attachments)
                   for length in lengths or [1])

    def _work_bound(self, max_hand: int | None = None) -> int:
        """The most plays (and attachment choices) one hand can give: for each chain length, its
        cores times the choices of each attached group, a choice being at most any
        ``k``-unit pick of the attached ranks, and at most any sub-multiset of that size of the
        cards a hand (of ``max_hand`` cards, by default the largest dealt) has left beside the core."""
        max_hand = self._max_hand if max_hand is None else max_hand
        n_ranks = len(self.deck.ranks)
        cores: Counter = Counter()
        wild_copies = sum(self.deck.copies[i] for i in self.wild_ranks)
        if self.is_chain:
            for w in self.windows:
                cores[w[2]] += 1 + (w[2] * self.core_size if self.wild_mask else 0)
        else:
            cores[1] = len(self.deck.indices_of_mask(self.core_mask)) * (1 + self.core_size * wild_copies)
        total = 0
        for length, count in cores.items():
            rest = max(max_hand - self.core_size * length, 0)
            n = 1
            for att in self.attachments:
                k = att.total(length)
                choices = len(self.deck.indices_of_mask(att.mask))
                picks = comb(min(choices, n_ranks), k) if self.distinct else comb(choices + k - 1, k)
                n *= min(picks, comb(rest, k * att.size))
            total += count * n
        return total

    # -- generating -----------------------------------------------------------------------
    #
    # ``plays(hand, ge, length=0, above=0)`` is bound at compile time to one of the
    # ``_plays_*`` methods below.  ``ge[k]`` is the spread mask of the ranks the hand holds at
    # least ``k`` times (see ``Rules._ge``).  With ``length``, only chains of that many units
    # are listed; with ``above``, only plays ranked higher than that.

    def _core_id(self, key: int, rank: int, length: int) -> int:
        code = (key << 16) | (rank << 8) | length        # a rank's value and a length fit 8 bits
        ident = self._core_ids.get(code)
        if ident is None:
            ident = self._core_ids[code] = len(self._core_ids)
        return ident

    def _entry(self, key: int, mask: int, rank: int, length: int) -> CoreEntry:
        return CoreEntry(key, mask, rank, length, self._core_id(key, rank, length))

    def _above_mask(self, above: int) -> int:
        """The spread mask of the core ranks whose value is higher than ``above``."""
        masks = self._above_masks
        return masks[above] if above < len(masks) else 0

    def cores(self, hand: int, ge: list[int]) -> tuple[CoreEntry, ...]:
        """Every core this hand can make, ordered by length then rank."""
        if not self.is_chain and not self.wild_mask:
            return gather(self._entry_tables, ge[self.core_size] & self.core_mask)
        if not self.wild_mask:
            mask = ge[self.core_size] & self.core_mask
            entries = self._core_cache.get(mask)
            if entries is None:
                size = self.core_size
                entries = tuple(self._entry(w[0] * size, w[0], w[1], w[2]) for w in self.windows
                                if w[0] & mask == w[0]) if self._may_chain(mask) else ()
                self._remember(self._core_cache, mask, entries)
            return entries
        key = self._wild_key(hand, ge)
        entries = self._core_cache.get(key)
        if entries is None:
            entries = tuple(self._wild_cores(hand) if self.is_chain else self._wild_group_cores(hand))
            self._remember(self._core_cache, key, entries)
        return entries

    def _wild_group_cores(self, hand: int):
        """Group cores with wild cards: of each core rank held at least once, its natural group
        when the hand holds it, and every group that wild cards complete (never wild cards only)."""
        size = self.core_size
        deck = self.deck
        shift, field_mask = self._shift, self._field_mask
        wilds = []
        for i in self.wild_ranks:
            wilds.extend([i] * ((hand >> (shift * i)) & field_mask))
        for i in gather(self._index_tables, deck.ge_mask(hand, 1) & self.core_mask):
            have = min((hand >> (shift * i)) & field_mask, size)
            rank = deck.value(i)
            for t in range(size - have, min(len(wilds), size - 1) + 1):
                natural = (size - t) << (shift * i)
                if t == 0:
                    yield self._entry(natural, 1 << (shift * i), rank, 1)
                    continue
                for chosen in sorted(set(itertools.combinations(wilds, t))):
                    wkey = sum(1 << (shift * w) for w in chosen)
                    wmask = sum(1 << (shift * w) for w in set(chosen))
                    yield self._entry(natural + wkey, (1 << (shift * i)) | wmask, rank, 1)

    def _may_chain(self, mask: int) -> bool:
        """False when the ranks of ``mask`` hold no run as long as the shortest chain: most
        hands, decided with a few shifts before any table is consulted."""
        shifts = self._run_shifts
        if shifts is None:
            return True
        run = mask
        for s in shifts:
            run &= mask >> s
        return bool(run)

    def _wild_key(self, hand: int, ge: list[int]) -> int:
        """What a wild chain's cores depend on: the core ranks' counts (capped at the unit
        size) and the wild ranks' counts, packed like a hand."""
        capped = 0
        for k in range(1, self.core_size + 1):
            capped += ge[k] & self.core_mask
        return capped | (hand & self._wild_fields)

    def _wild_cores(self, hand: int):
        """Chain cores with wild cards: each wild card stands in for one missing card."""
        size = self.core_size
        shift, field_mask = self._shift, self._field_mask
        wilds = []
        for i in self.wild_ranks:
            wilds.extend([i] * ((hand >> (shift * i)) & field_mask))
        for mask, rank, length, start in self.windows:
            ranks = self.deck.sequence[start:start + length]
            have = [min((hand >> (shift * i)) & field_mask, size) for i in ranks]
            need = sum(size - h for h in have)
            if need > len(wilds):
                continue
            if need == 0:          # the natural chain, no wild card
                yield self._entry(sum(h << (shift * i) for i, h in zip(ranks, have)), mask, rank, length)
            # t wild cards in all: `need` fill the gaps, the rest replace cards that are held
            for t in range(max(need, 1), len(wilds) + 1):
                if size * length - t <= 0:
                    continue       # a chain of wild cards only
                for places in itertools.combinations_with_replacement(range(length), t - need):
                    taken = list(have)
                    for p in places:
                        taken[p] -= 1
                    if min(taken) < 0:
                        continue
                    natural = sum(h << (shift * i) for i, h in zip(ranks, taken))
                    for chosen in set(itertools.combinations(wilds, t)):
                        wkey = sum(1 << (shift * i) for i in chosen)
                        wmask = sum(1 << (shift * i) for i in set(chosen))
                        yield self._entry(natural + wkey, mask | wmask, rank, length)

    @staticmethod
    def _remember(cache: dict, key, value) -> None:
        if len(cache) >= CACHE_LIMIT:
            cache.clear()
        cache[key] = value

    def _play(self, key: int, rank: int, length: int) -> Play:
        code = (key << 14) | (rank << 6) | self.index     # a rank's value fits 8 bits, an index 6
        play = self._intern.get(code)
        if play is None:
            play = Play(self.id, self.index, rank, self.deck.size_of(key), key, self.tier, length, self.deck)
            self._intern[code] = play
        return play

    def _rank(self, key: int, core_rank: int) -> int:
        if not self.ranked_by_highest:
            return core_rank
        return self.deck.value((key.bit_length() - 1) // self._shift)

    def _prepare(self) -> None:
        """Fill the fixed tables and bind ``plays`` to the fastest way of listing this
        combination's plays."""
        deck = self.deck
        n = len(deck.ranks)
        size = self.core_size
        self._core_cache = {}
        self._rows = {}
        self._wild_fields = self.wild_mask * deck.field_mask
        self._run_shifts = None
        self._one_wild_windows: tuple | None = None
        # how the leads function of Rules lists this combination (chimera_dsl.leadlist): read
        # its tables in place ("group", "unit", "chain"), or call ``plays``
        self.lead_step = "call"
        seq = deck.sequence
        if self.is_chain and seq == tuple(range(seq[0], seq[0] + len(seq))):
            shortest = min(w[2] for w in self.windows)
            self._run_shifts = tuple(deck.shift * j for j in range(1, shortest))
        # what Rules.leads checks before a call: a run of the shortest chain among the ranks held
        # as many times as a unit has cards (none for a wild chain: wild cards fill gaps)
        self.run_shifts = () if self.wild_mask else (self._run_shifts or ())
        # _above_masks[r]: the core ranks whose value is above r
        top = max(deck.value(i) for i in range(n))
        bit = deck.bit
        self._above_masks = tuple(sum(bit(i) for i in deck.indices_of_mask(self.core_mask) if deck.value(i) > r)
                                  for r in range(top + 1))
        if not self.is_chain:
            entries = [self._entry(size << (deck.shift * i), bit(i), deck.value(i), 1)
                       if deck.copies[i] >= size and self.core_mask & bit(i) else None for i in range(n)]
            self._entry_tables = chunk_tables(entries, deck.shift)
        att = self.attachments
        if self.wild_mask and not self.is_chain:
            self._unit_rows = len(att) == 1 and n <= ROW_RANKS
            self._repeat = self._unit_rows and not (self.distinct or (att[0].count == 1 and not att[0].each))
            self._double = 2 * att[0].size if att else 0
            self._adjacent = {}
            if self._repeat and self._double <= deck.room:
                self.levels.add(self._double)
            self._unit_keys = tuple(att[0].size << (deck.shift * i) for i in range(n)) if att else ()
            self.plays = self._plays_attached if att else self._plays_wild_group
        elif not att and not self.is_chain:
            self._play_tables = chunk_tables([self._play(e.key, self._rank(e.key, e.rank), 1) if e else None
                                              for e in entries], deck.shift)
            self.plays = self._plays_group
            self.lead_step = "group"
        elif not att:
            if not self.wild_mask:
                self._window_plays = tuple((w[0], self._play(w[0] * size, self._rank(w[0] * size, w[1]), w[2]))
                                           for w in self.windows)
            elif size == 1 and sum(deck.copies[i] for i in self.wild_ranks) == 1:
                self._prepare_one_wild()
            self.plays = self._plays_chain
            self.lead_step = "call" if self.wild_mask else "chain"
        else:
            # One attached group: its plays with one or two units are read from per-core rows
            # by the units' ranks (filled here for groups and for the shortest chains, on first
            # use for the others); two units of one rank, where the pattern allows repeats, sit
            # on the rows' diagonal.  More units: the combinations of the candidate ranks, or
            # with repeats, the general listing.
            self._unit_rows = len(att) == 1 and n <= ROW_RANKS
            self._repeat = self._unit_rows and not (self.distinct or (att[0].count == 1 and not att[0].each))
            self._double = 2 * att[0].size
            if self._repeat and self._double <= deck.room:
                self.levels.add(self._double)
            self._adjacent = self._adjacent_masks() if self.not_extending else {}
            self._unit_keys = tuple(att[0].size << (deck.shift * i) for i in range(n))
            self._group_rows = None
            if self._unit_rows and not self.is_chain and att[0].total(1) <= 2:
                self._group_rows = [self._row(e) if e else None for e in entries]
                self.plays = self._plays_group_attached
                cores = sum(1 for e in entries if e)
                if att[0].total(1) == 1 and cores * sum(map(len, deck.index_tables)) <= UNIT_TABLE_LIMIT:
                    # one unit: a core's plays are its row's at the candidate ranks, gathered
                    # from chunk tables of that row (built on the core's first use)
                    self._unit_tables: list = [None] * n
                    self.plays = self._plays_group_unit
                    self.lead_step = "unit"
            else:
                if self._unit_rows and self.is_chain and not self.wild_mask:
                    for mask, rank, length, _ in self.windows:
                        if att[0].total(length) <= 2:
                            self._row(self._entry(mask * size, mask, rank, length))
                self.plays = self._plays_attached

    def _prepare_one_wild(self) -> None:
        """Tables for a run of single cards with one wild card in the deck: per window, its
        natural play, its plays with the wild card replacing each held card, and its play with
        the wild card filling each gap."""
        (wild,) = self.wild_ranks
        bit = self.deck.bit
        indices_of_mask = self.deck.indices_of_mask
        wkey = bit(wild)

        def play(key: int, rank: int, length: int) -> Play:
            return self._play(key, self._rank(key, rank), length)

        self._one_wild_windows = tuple(
            (mask, play(mask, rank, length),
             tuple(play(mask - bit(i) + wkey, rank, length) for i in indices_of_mask(mask)),
             {bit(i): play(mask - bit(i) + wkey, rank, length) for i in indices_of_mask(mask)})
            for mask, rank, length, _ in self.windows)

    def _one_wild_plays(self, mask: int, wild: bool) -> tuple[Play, ...]:
        """The plays of a run of single cards from the held ranks ``mask``, with or without the
        one wild card."""
        out: list[Play] = []
        for window, natural, replaced, gaps in self._one_wild_windows:
            missing = window & ~mask
            if not missing:
                out.append(natural)
                if wild:
                    out.extend(replaced)
            elif wild:
                play = gaps.get(missing)      # None when more than one value is missing
                if play is not None:
                    out.append(play)
        return tuple(out)

    def _plays_group(self, hand: int, ge: list[int], length: int = 0, above: int = 0) -> tuple[Play, ...]:
        """A group of one rank, nothing attached: a table lookup per chunk of ranks."""
        mask = ge[self.core_size] & self.core_mask
        if above:
            mask &= self._above_mask(above)
        return gather(self._play_tables, mask)

    def _plays_wild_group(self, hand: int, ge: list[int], length: int = 0, above: int = 0):
        """A group of one rank with wild cards, nothing attached: its cores as plays."""
        plays = [self._play(e.key, self._rank(e.key, e.rank), 1) for e in self.cores(hand, ge)]
        return [p for p in plays if p.rank > above] if above else plays

    def _plays_chain(self, hand: int, ge: list[int], length: int = 0, above: int = 0):
        """A chain, nothing attached: the windows the hand fills, cached by what they depend on."""
        if self.wild_mask:
            key = self._wild_key(hand, ge)
            plays = self._core_cache.get(key)
            if plays is None:
                if self._one_wild_windows is not None:
                    plays = self._one_wild_plays(key & self.core_mask, bool(key & self._wild_fields))
                else:
                    plays = tuple(dict.fromkeys(self._play(e.key, self._rank(e.key, e.rank), e.length)
                                                for e in self._wild_cores(hand)))
                self._remember(self._core_cache, key, plays)
        else:
            mask = ge[self.core_size] & self.core_mask
            plays = self._core_cache.get(mask)
            if plays is None:
                plays = tuple(p for w, p in self._window_plays
                              if w & mask == w) if self._may_chain(mask) else ()
                self._remember(self._core_cache, mask, plays)
        if length or above:
            return [p for p in plays if p.rank > above and (not length or p.length == length)]
        return plays

    def _plays_group_attached(self, hand: int, ge: list[int], length: int = 0, above: int = 0) -> list[Play]:
        """A group of one rank with one or two attached units of different ranks: per core
        rank, its row read at the candidate ranks."""
        mask = ge[self.core_size] & self.core_mask
        highest = self.ranked_by_highest
        if above and not highest:
            mask &= self._above_mask(above)
        if not mask:
            return []
        att = self.attachments[0]
        tables = self._index_tables
        ranks = gather(tables, ge[att.size] & att.mask)
        rows = self._group_rows
        out: list[Play] = []
        if att.count == 1:
            for i in gather(tables, mask):
                out.extend(filter(None, map(rows[i].__getitem__, ranks)))
        elif not self._repeat:
            for i in gather(tables, mask):
                row = rows[i]
                for j in range(len(ranks) - 1):
                    out.extend(filter(None, map(row[ranks[j]].__getitem__, ranks[j + 1:])))
        else:
            doubles = ge[self._double] & att.mask if self._double < len(ge) else 0
            for i in gather(tables, mask):
                self._pairs_of(rows[i], ranks, doubles, out)
        if above and highest:
            out = [p for p in out if p.rank > above]
        return out

    def _plays_group_unit(self, hand: int, ge: list[int], length: int = 0, above: int = 0) -> tuple[Play, ...]:
        """A group of one rank with one attached unit: per core rank, its plays at the
        candidate ranks, a lookup per chunk of them."""
        mask = ge[self.core_size] & self.core_mask
        highest = self.ranked_by_highest
        if above and not highest:
            mask &= self._above_mask(above)
        if not mask:
            return ()
        att = self.attachments[0]
        cand = ge[att.size] & att.mask
        tables = self._unit_tables
        out: tuple[Play, ...] = ()
        for i in gather(self._index_tables, mask):
            out += gather(tables[i] or self._unit_tables_of(i), cand)
        if above and highest:
            return tuple(p for p in out if p.rank > above)
        return out

    def _unit_tables_of(self, core: int) -> tuple:
        """The chunk tables of core rank ``core``'s row: a candidate mask in, its plays out."""
        tables = self._unit_tables[core] = chunk_tables(self._group_rows[core], self._shift)
        return tables

    def _plays_attached(self, hand: int, ge: list[int], length: int = 0, above: int = 0) -> list[Play]:
        """A core with attached cards."""
        cores: Sequence[CoreEntry] = self.cores(hand, ge)
        highest = self.ranked_by_highest
        if length or (above and not highest):
            cores = [e for e in cores if (not length or e.length == length) and (highest or e.rank > above)]
        out: list[Play] = []
        if self._unit_rows:
            att = self.attachments[0]
            cand = ge[att.size] & att.mask
            repeat = self._repeat
            doubles = ge[self._double] & att.mask if repeat and self._double < len(ge) else 0
            tables = self._index_tables
            for entry in cores:
                ranks = gather(tables, cand & ~entry.mask)
                k = att.total(entry.length)
                if k == 1:
                    out.extend(filter(None, map(self._row(entry).__getitem__, ranks)))
                elif k == 2 and repeat:
                    self._pairs_of(self._row(entry), ranks, doubles, out)
                elif k == 2:
                    row = self._row(entry)
                    for j in range(len(ranks) - 1):
                        out.extend(filter(None, map(row[ranks[j]].__getitem__, ranks[j + 1:])))
                elif repeat:
                    out.extend(self._general(hand, entry))
                elif len(ranks) >= k:
                    out.extend(self._combinations(entry, ranks, k))
        else:
            for entry in cores:
                out.extend(self._general(hand, entry))
        if above and highest:
            out = [p for p in out if p.rank > above]
        return out

    def _pairs_of(self, row: list, ranks: tuple[int, ...], doubles: int, out: list) -> None:
        """Two attached units from a row: of the ranks ``ranks`` (lowest first), both of one
        rank where ``doubles`` (a spread mask) allows it, or of two ranks."""
        shift = self._shift
        for j, a in enumerate(ranks):
            here = row[a]
            if doubles >> (shift * a) & 1 and here[a] is not None:
                out.append(here[a])
            out.extend(filter(None, map(here.__getitem__, ranks[j + 1:])))

    def _row(self, entry: CoreEntry) -> list:
        """The plays of ``entry`` with one or two attached units, by the units' ranks.

        One unit: ``row[a]``; two: ``row[a][b]`` with ``a < b``, and ``row[a][a]`` (two units of
        one rank) where the pattern allows repeats.  ``None`` where the pattern forbids that
        choice (``not both``, ``at most``, ``not extending``) or the deck cannot hold it.
        """
        row = self._rows.get(entry.ident)
        if row is not None:
            return row
        deck = self.deck
        bit = deck.bit
        ge_mask = deck.ge_mask
        att = self.attachments[0]
        n = len(deck.ranks)
        allowed = [bool(att.mask & ~entry.mask & bit(a)) and deck.copies[a] >= att.size for a in range(n)]
        double = [self._repeat and allowed[a] and deck.copies[a] >= self._double
                  and (not self.at_most or self.at_most >= self._double) for a in range(n)]
        unit = self._unit_keys
        adjacent = self._adjacent.get((entry.rank, entry.length), 0)

        def play(akey: int, amask: int):
            full = entry.mask | amask
            if any(full & nb == nb for nb in self.not_both):
                return None
            if adjacent and ge_mask(akey, self.core_size) & adjacent:
                return None
            key = entry.key + akey
            return self._play(key, self._rank(key, entry.rank), entry.length)

        if att.total(entry.length) == 1:
            row = [play(unit[a], bit(a)) if allowed[a] else None for a in range(n)]
        else:
            row = [[play(unit[a] + unit[b], bit(a) | bit(b))
                    if (allowed[a] and allowed[b] and b > a) or (b == a and double[a]) else None
                    for b in range(n)] for a in range(n)]
        self._remember(self._rows, entry.ident, row)
        return row

    def _combinations(self, entry: CoreEntry, ranks: tuple[int, ...], k: int):
        """The plays of ``entry`` with ``k`` attached units of different ranks among ``ranks``."""
        unit = self._unit_keys
        not_both = self.not_both
        adjacent = self._adjacent.get((entry.rank, entry.length), 0)
        if self.attachments[0].size < self.core_size:
            adjacent = 0          # one unit of each rank: never a whole unit of the chain
        shift = self._shift
        for combo in itertools.combinations(ranks, k):
            if not_both or adjacent:
                full = 0
                for i in combo:
                    full |= 1 << (shift * i)
                if adjacent and full & adjacent:
                    continue
                full |= entry.mask
                if any(full & nb == nb for nb in not_both):
                    continue
            key = entry.key + sum(unit[i] for i in combo)
            yield self._play(key, self._rank(key, entry.rank), entry.length)

    def _adjacent_masks(self) -> dict[tuple[int, int], int]:
        """For ``not extending``: per chain (its top rank's value, its length), the spread mask of
        the ranks just below and just above it in the deck's sequence."""
        seq = self.deck.sequence
        out = {}
        for _mask, rank, length, start in self.windows:
            around = [seq[j] for j in (start - 1, start + length) if 0 <= j < len(seq)]
            out[(rank, length)] = sum(self.deck.bit(i) for i in around)
        return out

    def _general(self, hand: int, entry: CoreEntry) -> list[Play]:
        """The plays of ``entry`` with any attachments: every choice the rest of the hand allows."""
        out: dict[Play, None] = {}
        # not extending: no whole unit attached on a rank next to the chain
        adjacent = self._adjacent.get((entry.rank, entry.length), 0) if self.not_extending else 0
        ge_mask = self.deck.ge_mask
        for akey, amask in self._choices(hand - entry.key, entry, 0, 0, 0):
            full = entry.mask | amask
            if any(full & nb == nb for nb in self.not_both):
                continue
            if adjacent and ge_mask(akey, self.core_size) & adjacent:
                continue
            key = entry.key + akey
            out[self._play(key, self._rank(key, entry.rank), entry.length)] = None
        return list(out)

    def _choices(self, rem: int, entry: CoreEntry, group: int, akey: int, amask: int):
        """Attachments in general: several groups, repeats allowed unless ``distinct``, at most
        ``at_most`` attached cards of a rank when the pattern says so."""
        if group == len(self.attachments):
            yield akey, amask
            return
        att = self.attachments[group]
        size = att.size
        held = self.deck.ge_mask(rem, size) & att.mask & ~entry.mask
        if self.distinct:
            held &= ~amask
        cap = self.at_most
        shift, field_mask = self._shift, self._field_mask
        units = []            # (rank, the most units of it this group may take)
        for i in gather(self._index_tables, held):
            have = (rem >> (shift * i)) & field_mask
            if cap:
                have = min(have, cap - ((akey >> (shift * i)) & field_mask))
            most = have // size
            if most:
                units.append((i, 1 if self.distinct else most))
        for key, mask in _picks(units, att.total(entry.length), size, shift):
            yield from self._choices(rem - key, entry, group + 1, akey + key, amask | mask)


def _picks(units: list[tuple[int, int]], k: int, size: int, shift: int):
    """Every way to take ``k`` units of ``size`` cards from ``units`` (rank, most units of it):
    (packed cards in fields of ``shift`` bits, spread mask of their ranks), lowest ranks
    first, as ``combinations_with_replacement`` orders them."""
    room = [0] * (len(units) + 1)        # room[j]: the units of ranks j.. together
    for j in range(len(units) - 1, -1, -1):
        room[j] = room[j + 1] + units[j][1]

    def pick(j: int, left: int, key: int, mask: int):
        if not left:
            yield key, mask
            return
        if room[j] < left:
            return
        rank, most = units[j]
        spread = 1 << (shift * rank)
        unit = size * spread
        for m in range(min(most, left), 0, -1):
            yield from pick(j + 1, left - m, key + m * unit, mask | spread)
        yield from pick(j + 1, left, key, mask)

    yield from pick(0, k, 0, 0)


_GROUP_NAMES = {1: "single", 2: "pair", 3: "trio", 4: "quad"}


def _name_item(card: Card):
    from .language.patterns import RankItem
    return RankItem("name", (card.rank,), card.offset)


def compile_combinations(spec: dict, deck: Deck, max_hand: int, intern: dict
                         ) -> tuple[list[CompiledCombination], list[Problem]]:
    """Compile every combination of a variant's ``combinations`` mapping.

    Returns the compiled combinations and the problems found (each with the path of the
    pattern and the character offset inside it).
    """
    combos: list[CompiledCombination] = []
    problems: list[Problem] = []
    entries = [(cid, entry) for cid, entry in (spec or {}).items() if entry is not None]
    if len(entries) > MAX_COMBINATIONS:
        problems.append(Problem(f"a variant may define at most {MAX_COMBINATIONS} combinations, "
                                f"this one defines {len(entries)}", ("combinations",)))
        return combos, problems
    for index, (cid, entry) in enumerate(entries):
        path = ("combinations", cid, "pattern")
        try:
            pattern = parse_pattern(entry["pattern"])
            order = entry.get("order")
            combos.append(CompiledCombination(str(cid), index, int(entry.get("tier", 0)),
                                              dict(entry.get("names") or {}), pattern, deck, max_hand, intern,
                                              order=None if order is None else int(order),
                                              compare=str(entry.get("compare", "rank"))))
        except PatternError as error:
            problems.append(Problem(error.message, path, error.offset, error.hint))
    if not problems and not combos:
        problems.append(Problem("a variant needs at least one combination", ("combinations",)))
    if not problems:
        problems += _resolve_unless(entries, combos)
    return combos, problems


def _resolve_unless(entries: list, combos: list[CompiledCombination]) -> list[Problem]:
    """Set each combination's ``unless`` (the indices of the combinations it yields to); a name
    that is unknown, its own, or a combination that yields back to it is a problem at the name."""
    problems: list[Problem] = []
    index = {c.id: c.index for c in combos}
    named = {str(cid): [str(x) for x in (entry.get("unless") or [])] for cid, entry in entries}
    for combo in combos:
        found: list[int] = []
        for i, other in enumerate(named[combo.id]):
            path = ("combinations", combo.id, "unless", i)
            if other not in index:
                close = difflib.get_close_matches(other, list(index), n=1)
                problems.append(Problem(f"unless names the unknown combination '{other}'", path,
                                        hint=f"did you mean '{close[0]}'?" if close
                                        else "combinations: " + ", ".join(index)))
            elif other == combo.id:
                problems.append(Problem(f"'{other}' cannot yield to itself", path,
                                        hint="name the other combination its cards may also form"))
            elif combo.id in named[other]:
                problems.append(Problem(f"'{combo.id}' and '{other}' each yield to the other: cards that form "
                                        "both would be neither", path,
                                        hint="keep 'unless' on the weaker of the two only"))
            elif index[other] not in found:
                found.append(index[other])
        combo.unless = tuple(found)
    return problems
