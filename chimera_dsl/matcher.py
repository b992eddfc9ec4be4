"""The combination matcher: patterns compiled against a deck, generating plays fast.

A compiled combination lists its plays from a packed hand in two steps:

1. the *core* (a group of one rank, or a chain of consecutive units, possibly with wild
   cards) comes from a table keyed by the hand's spread masks (``ge_mask``): which ranks
   are held at least ``n`` times.  Tables fill lazily and are reused across hands;
2. the *attachments* (singles or pairs hung on the core) are combinations of candidate
   ranks, again tabled by the candidates' mask.

Every play is an interned :class:`Play`, so the result of a lookup can be cached as a tuple
and reused.  Caches are bounded: a full cache is emptied, so memory stays flat.
"""
from __future__ import annotations

import difflib
import itertools
from dataclasses import dataclass
from math import comb

from .cards import SHIFT, Deck, bit, contains, indices_of_mask
from .errors import PatternError, Problem
from .patterns import Card, Chain, Group, Pattern, RankSet, parse_pattern

CACHE_LIMIT = 60_000          # entries per cache before it is emptied
MAX_PLAYS_PER_HAND = 200_000  # the most plays one combination may list from one hand
MAX_COMBINATIONS = 63
KEYWORDS = {"any", "of", "each", "consecutive", "distinct", "not", "both", "and", "wild", "ranked",
            "by", "core", "highest", "single", "singles", "pair", "pairs", "trio", "trios", "quad", "quads"}


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
                 deck: Deck, max_hand: int, intern: dict):
        self.id = cid
        self.index = index
        self.tier = tier
        self.names = names
        self.pattern = pattern
        self.pattern_text = pattern.text
        self.deck = deck
        self._intern = intern
        self._core_cache: dict = {}
        self._attach_cache: dict = {}
        self._play_cache: dict = {}
        self._core_ids: dict = {}
        self.ranked_by_highest = pattern.ranked_by == "highest"
        self.not_both: tuple[int, ...] = ()
        self.attachments: tuple[Attachment, ...] = ()
        self.levels: set[int] = set()
        self._compile(deck, max_hand)

    # -- compiling ------------------------------------------------------------------------
    def _mask(self, ranks: RankSet) -> int:
        deck = self.deck
        mask = 0
        for item in ranks.items:
            if item.kind == "any":
                mask |= sum(bit(i) for i in range(len(deck.ranks)))
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
            if part.each and not self.is_chain:
                raise PatternError("'each' attaches once per unit of a chain, but the first part is not a chain",
                                   part.offset, text=text)
            attachments.append(Attachment(part.size, part.count, part.each, self._mask(part.ranks)))
            self.levels.add(part.size)
        self.attachments = tuple(attachments)
        self.distinct = pattern.distinct
        nb = []
        for a, b, offset in pattern.not_both:
            nb.append(bit(self._rank_index(a, offset)) | bit(self._rank_index(b, offset)))
        self.not_both = tuple(nb)
        self.wild_mask = self._mask(pattern.wild) if pattern.wild else 0
        self.wild_ranks = indices_of_mask(self.wild_mask)
        copies = deck.copies

        core_ranks = indices_of_mask(self.core_mask)
        if self.wild_mask and not self.is_chain:
            raise PatternError("a wild card only stands in for a rank of a chain", pattern.wild.offset, text=text)
        if self.wild_mask & self.core_mask:
            raise PatternError("a wild rank cannot also be one of the chain's ranks", pattern.wild.offset, text=text)

        if self.is_chain:
            seq = deck.sequence
            if not seq:
                raise PatternError("a chain needs the deck's 'sequence' (which ranks follow one another)",
                                   core.offset, text=text)
            outside = [deck.ranks[i] for i in core_ranks if i not in seq]
            if outside:
                raise PatternError(f"{', '.join(outside)} cannot be part of a chain: not in the deck's sequence",
                                   core.ranks.offset, hint="chains run over deck.sequence", text=text)
            self.windows = self._windows(core, max_hand)
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
            if not any(copies[i] >= core.size for i in core_ranks):
                raise PatternError(f"this can never match: no rank of {core.ranks.text} has {core.size} cards "
                                   "in the deck", core.offset, text=text)
            self.max_length = 1
        for att, part in zip(self.attachments, parts[1:]):
            if not any(copies[i] >= att.size for i in indices_of_mask(att.mask & ~self.core_mask)
                       ) and not any(copies[i] >= att.size for i in indices_of_mask(att.mask)):
                raise PatternError(f"this can never match: no rank of {part.ranks.text} has {att.size} cards",
                                   part.offset, text=text)
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

    def _windows(self, core: Chain, max_hand: int) -> list[tuple[int, int, int, int]]:
        """Every window of the chain: (spread mask of its ranks, top rank value, length, start)."""
        seq = self.deck.sequence
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

    def _work_bound(self) -> int:
        n_ranks = len(self.deck.ranks)
        if self.is_chain:
            cores = sum(1 + (w[2] * self.core_size if self.wild_mask else 0) for w in self.windows)
            lengths = {w[2] for w in self.windows}
        else:
            cores = len(indices_of_mask(self.core_mask))
            lengths = {1}
        worst = 0
        for length in lengths:
            n = 1
            for att in self.attachments:
                k = att.total(length)
                choices = len(indices_of_mask(att.mask))
                n *= comb(min(choices, n_ranks), k) if self.distinct else comb(choices + k - 1, k)
            worst = max(worst, n)
        return cores * worst

    # -- generating -----------------------------------------------------------------------
    def _core_id(self, key: int, rank: int, length: int) -> int:
        code = (key << 12) | (rank << 6) | length
        ident = self._core_ids.get(code)
        if ident is None:
            ident = self._core_ids[code] = len(self._core_ids)
        return ident

    def _entry(self, key: int, mask: int, rank: int, length: int) -> CoreEntry:
        return CoreEntry(key, mask, rank, length, self._core_id(key, rank, length))

    def cores(self, hand: int, ge: list[int]) -> tuple[CoreEntry, ...]:
        """Every core this hand can make, ordered by length then rank."""
        if not self.is_chain:
            mask = ge[self.core_size] & self.core_mask
            entries = self._core_cache.get(mask)
            if entries is None:
                size = self.core_size
                entries = tuple(self._entry(size << (SHIFT * i), bit(i), self.deck.value(i), 1)
                                for i in indices_of_mask(mask))
                self._remember(self._core_cache, mask, entries)
            return entries
        if not self.wild_mask:
            mask = ge[self.core_size] & self.core_mask
            entries = self._core_cache.get(mask)
            if entries is None:
                size = self.core_size
                entries = tuple(self._entry(w[0] * size, w[0], w[1], w[2]) for w in self.windows
                                if w[0] & mask == w[0])
                self._remember(self._core_cache, mask, entries)
            return entries
        wild_fields = self.wild_mask * 0xF
        key = (tuple(ge[k] & self.core_mask for k in range(1, self.core_size + 1)), hand & wild_fields)
        entries = self._core_cache.get(key)
        if entries is None:
            entries = tuple(self._wild_cores(hand, ge))
            self._remember(self._core_cache, key, entries)
        return entries

    def _wild_cores(self, hand: int, ge: list[int]):
        """Chain cores with wild cards: each wild card stands in for one missing card."""
        size = self.core_size
        wilds = []
        for i in self.wild_ranks:
            wilds.extend([i] * ((hand >> (SHIFT * i)) & 0xF))
        for mask, rank, length, start in self.windows:
            ranks = self.deck.sequence[start:start + length]
            have = [min((hand >> (SHIFT * i)) & 0xF, size) for i in ranks]
            deficit = [size - h for h in have]
            need = sum(deficit)
            if need > len(wilds):
                continue
            natural = sum((size - d) << (SHIFT * i) for i, d in zip(ranks, deficit))
            # no wild: only when nothing is missing
            if need == 0:
                yield self._entry(natural, mask, rank, length)
            # t wild cards in all: `need` fill the gaps, the rest replace held cards
            for t in range(max(need, 1), len(wilds) + 1):
                extra = t - need
                for places in itertools.combinations_with_replacement(range(length), extra):
                    taken = list(have)
                    ok = True
                    for p in places:
                        taken[p] -= 1
                        if taken[p] < 0:
                            ok = False
                            break
                    if not ok:
                        continue
                    if size * length - t <= 0:
                        continue
                    nat = sum(h << (SHIFT * i) for i, h in zip(ranks, taken))
                    for chosen in set(itertools.combinations(wilds, t)):
                        wkey = sum(1 << (SHIFT * i) for i in chosen)
                        wmask = sum(bit(i) for i in set(chosen))
                        yield self._entry(nat + wkey, mask | wmask, rank, length)

    @staticmethod
    def _remember(cache: dict, key, value) -> None:
        if len(cache) >= CACHE_LIMIT:
            cache.clear()
        cache[key] = value

    def _play(self, key: int, rank: int, length: int) -> Play:
        code = (key << 12) | (rank << 6) | self.index
        play = self._intern.get(code)
        if play is None:
            size = 0
            k = key
            while k:
                size += k & 0xF
                k >>= SHIFT
            play = Play(self.id, self.index, rank, size, key, self.tier, length, self.deck)
            self._intern[code] = play
        return play

    def _prepare(self) -> None:
        """Choose the fastest way to list this combination's plays, and fill its fixed tables."""
        deck = self.deck
        size = self.core_size
        if not self.attachments and not self.is_chain:
            self._mode = "group"
            self._group_plays = [self._play(size << (SHIFT * i), deck.value(i), 1)
                                 if deck.copies[i] >= size else None for i in range(len(deck.ranks))]
        elif not self.attachments and not self.wild_mask:
            self._mode = "run"
            self._window_plays = tuple((w[0], self._play(w[0] * size, w[1], w[2])) for w in self.windows)
        elif not self.attachments:
            self._mode = "wild_run"
        elif (not self.is_chain and len(self.attachments) == 1 and self.attachments[0].total(1) == 1):
            self._mode = "group_one"
            # _above_masks[r]: the ranks whose value is above r
            self._above_masks = [sum(bit(i) for i in range(len(deck.ranks)) if deck.value(i) > r)
                                 for r in range(len(deck.ranks) + 2)]
            att = self.attachments[0]
            self._one_tables = {}
            for i in indices_of_mask(self.core_mask):
                if deck.copies[i] < size:
                    continue
                row = [None] * len(deck.ranks)
                for a in indices_of_mask(att.mask & ~bit(i)):
                    if deck.copies[a] < att.size:
                        continue
                    if any((bit(i) | bit(a)) & nb == nb for nb in self.not_both):
                        continue
                    key = (size << (SHIFT * i)) + (att.size << (SHIFT * a))
                    row[a] = self._play(key, self._rank(key, deck.value(i)), 1)
                self._one_tables[i] = row
        else:
            self._mode = "general"

    def plays(self, hand: int, ge: list[int], length: int = 0, above: int = 0):
        """Every play of this combination from ``hand`` (a list or tuple); with ``length``,
        only chains of that many units; with ``above``, only plays ranked higher than that."""
        mode = self._mode
        if mode == "group":
            mask = ge[self.core_size] & self.core_mask
            plays = self._core_cache.get(mask)
            if plays is None:
                table = self._group_plays
                plays = tuple(table[i] for i in indices_of_mask(mask))
                self._remember(self._core_cache, mask, plays)
            return [p for p in plays if p.rank > above] if above else plays
        if mode == "run":
            mask = ge[self.core_size] & self.core_mask
            plays = self._core_cache.get(mask)
            if plays is None:
                plays = tuple(p for w, p in self._window_plays if w & mask == w)
                self._remember(self._core_cache, mask, plays)
        elif mode == "wild_run":
            key = (tuple(ge[k] & self.core_mask for k in range(1, self.core_size + 1)),
                   hand & (self.wild_mask * 0xF))
            plays = self._play_cache.get(key)
            if plays is None:
                plays = tuple(self._play(e.key, e.rank, e.length) for e in self._wild_cores(hand, ge))
                self._remember(self._play_cache, key, plays)
        elif mode == "group_one":
            att = self.attachments[0]
            cand_all = ge[att.size] & att.mask
            plays = []
            tables = self._one_tables
            cores = ge[self.core_size] & self.core_mask
            if above and not self.ranked_by_highest:
                cores &= self._above_masks[above] if above < len(self._above_masks) else 0
            for i in indices_of_mask(cores):
                row = tables[i]
                plays.extend([row[a] for a in indices_of_mask(cand_all & ~bit(i)) if row[a] is not None])
        else:
            plays = self._general_plays(hand, ge, length, above)
        if length or above:
            return [p for p in plays if p.rank > above and (not length or p.length == length)]
        return plays

    def _general_plays(self, hand: int, ge: list[int], length: int, above: int) -> list[Play]:
        out: list[Play] = []
        highest = self.ranked_by_highest
        for entry in self.cores(hand, ge):
            if length and entry.length != length:
                continue
            if above and not highest and entry.rank <= above:
                continue
            if len(self.attachments) == 1:
                att = self.attachments[0]
                cand = ge[att.size] & att.mask & ~entry.mask
                memo_key = (cand << 16) | entry.ident
            else:
                cand = 0
                memo_key = (entry.ident, hand & ~(entry.mask * 0xF))
            plays = self._play_cache.get(memo_key)
            if plays is None:
                plays = tuple(self._attached(hand, entry, cand))
                self._remember(self._play_cache, memo_key, plays)
            out.extend(plays)
        return out

    def _rank(self, key: int, core_rank: int) -> int:
        if not self.ranked_by_highest:
            return core_rank
        return self.deck.value((key.bit_length() - 1) // SHIFT)

    def _attached(self, hand: int, entry: CoreEntry, cand: int):
        """The plays made of ``entry`` and every allowed choice of attached cards."""
        not_both = self.not_both
        for akey, amask in self._attachment_choices(hand, entry, cand):
            full = entry.mask | amask
            if not_both and any(full & nb == nb for nb in not_both):
                continue
            key = entry.key + akey
            yield self._play(key, self._rank(key, entry.rank), entry.length)

    def _attachment_choices(self, hand: int, entry: CoreEntry, cand: int) -> list[tuple[int, int]]:
        if len(self.attachments) == 1:
            att = self.attachments[0]
            k = att.total(entry.length)
            if self.distinct or k == 1:
                memo_key = (cand, k)
                choices = self._attach_cache.get(memo_key)
                if choices is None:
                    ranks = indices_of_mask(cand)
                    choices = tuple((sum(att.size << (SHIFT * i) for i in combo), sum(bit(i) for i in combo))
                                    for combo in itertools.combinations(ranks, k))
                    self._remember(self._attach_cache, memo_key, choices)
                return choices
        return list(self._general_choices(hand - entry.key, entry, 0, 0, 0, 0))

    def _general_choices(self, rem: int, entry: CoreEntry, group: int, akey: int, amask: int, start_rank: int):
        """Attachments in general: several groups, repeats allowed unless ``distinct``."""
        if group == len(self.attachments):
            yield akey, amask
            return
        att = self.attachments[group]
        k = att.total(entry.length)
        allowed = [i for i in indices_of_mask(att.mask & ~entry.mask)
                   if not (self.distinct and amask & bit(i))]
        pick = itertools.combinations if self.distinct else itertools.combinations_with_replacement
        for combo in pick(allowed, k):
            key = sum(att.size << (SHIFT * i) for i in combo)
            if not contains(rem, key):
                continue
            mask = sum(bit(i) for i in set(combo))
            yield from self._general_choices(rem - key, entry, group + 1, akey + key, amask | mask, 0)


def _name_item(card: Card):
    from .patterns import RankItem
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
            combos.append(CompiledCombination(str(cid), index, int(entry.get("tier", 0)),
                                              dict(entry.get("names") or {}), pattern, deck, max_hand, intern))
        except PatternError as error:
            problems.append(Problem(error.message, path, error.offset, error.hint))
    if not problems and not combos:
        problems.append(Problem("a variant needs at least one combination", ("combinations",)))
    return combos, problems
