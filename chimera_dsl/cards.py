"""The deck, the card notation, and the packed hand representation.

Where no rule reads a colour, the hot paths see a hand as a *rank-count vector* packed
into one integer: rank index ``i`` (its place in the single order, lowest 0) holds its
count in a field of ``deck.shift`` bits, bits ``shift*i .. shift*i+shift-1``.  Adding,
removing and comparing hands is then integer arithmetic:

* a play ``p`` can be taken from a hand ``h`` exactly when :meth:`Deck.contains` holds;
* removing it is ``h - p``;
* ``deck.ge_mask(h, k)`` marks, with bit ``shift*i`` (a *spread mask*), every rank held at
  least ``k`` times.

The top bit of every field is a guard: it stays clear in a hand, so one subtraction over
all fields compares every count at once.  The deck chooses the narrowest field that holds
its largest count below the guard (:func:`field_bits`: 4 bits for up to 7 cards of a rank, 5
for up to 15, and so on), and its ``low`` and ``guard`` masks cover exactly its ranks.  What
bounds a deck is its size, :data:`MAX_DECK_CARDS`.  :class:`Hand` is the friendly wrapper
for people.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable, NamedTuple, Sequence

from .errors import CardError, shown

MAX_DECK_CARDS = 224        # cards in one deck: bounds its ranks and the copies of a rank (see docs: Limits)
CHUNK_BITS = 32             # bits of a spread mask read per lookup (see chunk_tables)
CHUNK_MASK = (1 << CHUNK_BITS) - 1


def field_bits(most: int) -> int:
    """The bits of a count field that holds up to ``most`` cards of one rank below its guard
    bit: 4 for up to 7, 5 for up to 15, and so on."""
    return max(4, most.bit_length() + 1)


def chunk_tables(items: Sequence, shift: int) -> tuple[dict[int, tuple], ...]:
    """Lookup tables that turn a spread mask (fields of ``shift`` bits) into the items of its ranks.

    ``items[i]`` belongs to rank ``i`` (``None``: leave it out).  For each chunk of
    :data:`CHUNK_BITS` bits of a spread mask, a map from that chunk (``mask >> (CHUNK_BITS *
    c) & CHUNK_MASK``) to the tuple of the items of the ranks whose bit lies in it, lowest
    first; :func:`gather` joins them.  Every possible chunk is in the table, so a lookup never
    misses.  There are always at least two tables (the second may hold only the empty
    chunk), so that :func:`gather` reads a mask of up to 64 bits in one step.
    """
    tables: list[dict[int, tuple]] = []
    n = len(items)
    start = 0
    while start < n or len(tables) < 2:
        base = CHUNK_BITS * len(tables)
        stop = start
        while stop < n and shift * stop < base + CHUNK_BITS:
            stop += 1
        # chunk value v (bit j: rank start + j) from v without its lowest bit: that rank's item
        # goes first, so every tuple lists its ranks lowest first
        spreads = [0]
        chosen: list[tuple] = [()]
        for value in range(1, 1 << (stop - start)):
            j = (value & -value).bit_length() - 1
            rest = value & (value - 1)
            item = items[start + j]
            spreads.append(spreads[rest] | 1 << (shift * (start + j) - base))
            chosen.append(chosen[rest] if item is None else (item,) + chosen[rest])
        tables.append(dict(zip(spreads, chosen)))
        start = stop
    return tuple(tables)


def gather(tables: tuple[dict[int, tuple], ...], mask: int) -> tuple:
    """The items (see :func:`chunk_tables`) of every rank whose bit is set in the spread ``mask``."""
    if len(tables) == 2:
        return tables[0][mask & 0xFFFFFFFF] + tables[1][mask >> 32]     # CHUNK_MASK, CHUNK_BITS
    out: tuple = ()
    for table in tables:
        if not mask:
            break
        out += table[mask & CHUNK_MASK]
        mask >>= CHUNK_BITS
    return out


@lru_cache(maxsize=None)
def index_tables(shift: int, n_ranks: int) -> tuple[dict[int, tuple], ...]:
    """The chunk tables of the rank indices themselves: ``gather(tables, mask)`` is the rank
    indices of a spread mask, lowest first (shared by the decks of one layout)."""
    return chunk_tables(range(n_ranks), shift)


_SPLIT = re.compile(r"[\s,]+")


def bit_numbers(mask: int) -> list[int]:
    """The numbers of the bits set in ``mask``, lowest first (card numbers of a card mask)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
_getitem = tuple.__getitem__


class _ByteParts(NamedTuple):
    """A deck's masks read a byte at a time (see :meth:`Deck._make_byte_parts`)."""

    size: int                            # bytes of a mask of the deck's cards
    numbers: tuple[tuple[tuple[int, ...], ...], ...]     # per byte, per value: its card numbers
    keys: tuple[tuple[int, ...], ...]                    # per byte, per value: their packed counts


@dataclass(frozen=True)
class Deck:
    """A deck compiled from a variant's ``deck`` section.

    ``ranks`` is the single order, lowest first; a rank's *value* (used in game records) is
    its place in that order counting from 1.  ``copies[i]`` is how many cards of rank ``i``
    the deck holds; ``cards`` lists every physical card as ``(rank index, colour or None)``.
    """

    ranks: tuple[str, ...]
    colours: tuple[str, ...]
    copies: tuple[int, ...]
    cards: tuple[tuple[int, str | None], ...]
    groups: dict = field(default_factory=dict)      # name -> frozenset of rank indices
    sequence: tuple[int, ...] = ()                  # rank indices that chain, in order
    names: dict = field(default_factory=dict)       # rank -> long name, or {language: name}
    index: dict = field(default_factory=dict)       # rank string (upper case) -> index
    # Card identity: card ``c`` is ``cards[c]``; a set of cards is a bit mask with bit ``c``.
    card_names: tuple[str, ...] = ()                # "7/red", or "P" for a card without colour
    card_rank: tuple[int, ...] = ()                 # rank index of each card
    rank_cards: tuple[tuple[int, ...], ...] = ()    # per rank, its cards' bits, lowest card first
    card_index: dict = field(default_factory=dict)  # "7/RED" (upper case) -> card number
    rank_major: bool = True                         # cards listed rank by rank: deck order is rank order
    _rank_masks: tuple = ()                         # per rank, the mask of its cards
    # Colours: ``colours`` lists them lowest first (the order they rank in where a combination
    # compares cards).  ``card_colour[c]`` is the place of card ``c``'s colour in that list (-1:
    # no colour); ``colour_masks[k]`` the mask of the cards of colour ``k``; a card of a
    # ``wild_colours`` colour counts as any colour (``wild_colour_mask``).
    card_colour: tuple[int, ...] = ()
    colour_masks: tuple[int, ...] = ()
    wild_colour_mask: int = 0
    # The packed layout, chosen from ``copies`` (see the module's docstring): fields of
    # ``shift`` bits, ``field_mask`` the bits of one field, ``top`` the place of its guard bit,
    # ``room`` the most cards of one rank a field holds; ``low`` (bit 0 of every field) and
    # ``guard`` (the guard bit of every field) span exactly the deck's ranks.
    shift: int = field(init=False, repr=False)
    field_mask: int = field(init=False, repr=False)
    top: int = field(init=False, repr=False)
    room: int = field(init=False, repr=False)
    low: int = field(init=False, repr=False)
    guard: int = field(init=False, repr=False)
    index_tables: tuple = field(init=False, repr=False, compare=False)
    # size_of: the fields folded pairwise into fields wide enough for any total (each fold a
    # width and the mask of the lower halves), then added up by one multiplication
    _size_folds: tuple = field(init=False, repr=False, compare=False)
    _size_sum: tuple = field(init=False, repr=False, compare=False)
    _byte_parts: "_ByteParts" = field(init=False, repr=False, compare=False)   # made on first use
    _rank_order: tuple = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        shift = field_bits(max(self.copies, default=0))
        n = len(self.ranks)
        low = sum(1 << (shift * i) for i in range(n))
        field_mask = (1 << shift) - 1
        folds = []
        width, fields = shift, max(n, 1)
        while (1 << width) <= max(n, 1) * field_mask:       # the largest total of full fields
            halves = (fields + 1) // 2
            folds.append((width, sum(((1 << width) - 1) << (2 * width * j) for j in range(halves))))
            width, fields = 2 * width, halves
        ones = sum(1 << (width * j) for j in range(fields))
        for name, value in (("shift", shift), ("field_mask", field_mask), ("top", shift - 1),
                            ("room", (1 << (shift - 1)) - 1), ("low", low), ("guard", low << (shift - 1)),
                            ("index_tables", index_tables(shift, n)), ("_size_folds", tuple(folds)),
                            ("_size_sum", (1 << (shift * n), ones, width * (fields - 1), (1 << width) - 1)),
                            # per card, its place by rank, then deck order (mask_names sorts by it)
                            ("_rank_order", tuple(r * len(self.card_rank) + c for c, r in enumerate(self.card_rank)))):
            object.__setattr__(self, name, value)

    @classmethod
    def from_spec(cls, spec: dict) -> "Deck":
        """Build the deck from an already validated ``deck`` mapping."""
        ranks = tuple(str(r) for r in spec["ranks"])
        index = {r.upper(): i for i, r in enumerate(ranks)}
        colours = tuple(str(c) for c in spec.get("colours", ()))
        copies = [0] * len(ranks)
        cards: list[tuple[int, str | None]] = []
        for entry in spec["cards"]:
            for i in resolve_ranks(entry["ranks"], ranks):
                if "per_colour" in entry:
                    for colour in entry.get("colours") or colours:
                        for _ in range(int(entry["per_colour"])):
                            cards.append((i, str(colour)))
                            copies[i] += 1
                else:
                    colour = entry.get("colour")
                    for _ in range(int(entry.get("copies", 1))):
                        cards.append((i, None if colour is None else str(colour)))
                        copies[i] += 1
        groups = {name: frozenset(resolve_ranks(value, ranks))
                  for name, value in (spec.get("groups") or {}).items()}
        sequence = tuple(resolve_ranks(spec["sequence"], ranks)) if spec.get("sequence") else ()
        names = {str(k): ({str(lang): str(n) for lang, n in v.items()} if isinstance(v, dict) else str(v))
                 for k, v in (spec.get("names") or {}).items() if v is not None}
        card_names = tuple(ranks[i] if colour is None else f"{ranks[i]}/{colour}" for i, colour in cards)
        rank_cards = tuple(tuple(1 << c for c, (i, _) in enumerate(cards) if i == r) for r in range(len(ranks)))
        card_index: dict[str, int] = {}
        for c, name in enumerate(card_names):
            card_index.setdefault(name.upper(), c)
        card_rank = tuple(i for i, _ in cards)
        place = {c: k for k, c in enumerate(colours)}
        card_colour = tuple(place.get(colour, -1) if colour is not None else -1 for _, colour in cards)
        colour_masks = tuple(sum(1 << c for c, k in enumerate(card_colour) if k == place_)
                             for place_ in range(len(colours)))
        wild = {str(c) for c in spec.get("wild_colours") or ()}
        wild_mask = sum(1 << c for c, (_, colour) in enumerate(cards) if colour in wild)
        return cls(ranks, colours, tuple(copies), tuple(cards), groups, sequence, names, index,
                   card_names, card_rank, rank_cards, card_index,
                   all(a <= b for a, b in zip(card_rank, card_rank[1:])), tuple(sum(bits) for bits in rank_cards),
                   card_colour, colour_masks, wild_mask)

    # -- card identity ---------------------------------------------------------------
    @property
    def full_mask(self) -> int:
        """The mask of every card of the deck."""
        return (1 << len(self.cards)) - 1

    def mask_of(self, card_numbers: Iterable[int]) -> int:
        """The mask of a sequence of card numbers."""
        mask = 0
        for c in card_numbers:
            mask |= 1 << c
        return mask

    def numbers_of(self, mask: int) -> list[int]:
        """The card numbers of a mask, in deck order."""
        try:
            parts = self._byte_parts
        except AttributeError:
            parts = self._make_byte_parts()
        out: list[int] = []
        try:
            for numbers, value in zip(parts.numbers, mask.to_bytes(parts.size, "little")):
                if value:
                    out += numbers[value]
        except OverflowError:            # bits beyond the deck's cards
            out = bit_numbers(mask)
        return out

    def key_of_mask(self, mask: int) -> int:
        """The packed rank counts of a set of cards."""
        try:
            parts = self._byte_parts
        except AttributeError:
            parts = self._make_byte_parts()
        return sum(map(_getitem, parts.keys, mask.to_bytes(parts.size, "little")))

    def mask_names(self, mask: int) -> list[str]:
        """The card strings of a set of cards, lowest rank first (deck order within a rank)."""
        names = self.card_names
        if self.rank_major:
            return list(map(names.__getitem__, self.numbers_of(mask)))
        numbers = self.numbers_of(mask)
        numbers.sort(key=self._rank_order.__getitem__)
        return [names[c] for c in numbers]

    def _make_byte_parts(self) -> "_ByteParts":
        """Per byte of a mask (8 cards) and each of its 256 values: its card numbers and their
        packed rank counts, so that a mask is read a byte at a time (made on first use)."""
        size = max(1, (len(self.cards) + 7) // 8)
        shift, rank = self.shift, self.card_rank
        numbers, keys = [], []
        for at in range(0, 8 * size, 8):
            cards = [c for c in range(at, at + 8) if c < len(self.cards)]
            by_value = [tuple(c for c in cards if value >> (c - at) & 1) for value in range(256)]
            numbers.append(tuple(by_value))
            keys.append(tuple(sum(1 << (shift * rank[c]) for c in chosen) for chosen in by_value))
        parts = _ByteParts(size, tuple(numbers), tuple(keys))
        object.__setattr__(self, "_byte_parts", parts)
        return parts

    def take(self, mask: int, key: int) -> int:
        """The cards of ``mask`` that make up the rank counts ``key``: of each rank, the first
        held in deck order.  The caller knows ``mask`` holds them."""
        out = 0
        i = 0
        rank_masks = self.rank_masks
        field_mask = self.field_mask
        shift = self.shift
        while key:
            want = key & field_mask
            if want:
                avail = mask & rank_masks[i]
                while want:
                    low = avail & -avail
                    out |= low
                    avail ^= low
                    want -= 1
            key >>= shift
            i += 1
        return out

    @property
    def rank_masks(self) -> tuple[int, ...]:
        """Per rank, the mask of its cards."""
        return self._rank_masks

    def cards_mask(self, cards: str | Sequence[str], within: int | None = None) -> int:
        """The cards named (``7/red 7 P``) as a mask, chosen from ``within`` (default: the deck).

        A card named with its colour is that card; a card named by rank alone is the first of
        that rank in deck order not named otherwise.  Raises :class:`CardError` when the cards
        are not there to take.
        """
        available = self.full_mask if within is None else within
        parsed = self.parse_colours(cards)
        named = [(i, colour) for i, colour in parsed if colour is not None]
        mask = 0
        for i, colour in named:
            first = self.card_index.get(f"{self.ranks[i]}/{colour}".upper())
            if first is None:
                raise CardError(f"the deck holds no card {self.ranks[i]}/{colour}")
            name = self.card_names[first]
            # the deck may hold several cards of one name: the first one still free
            same = [b for b in self.rank_cards[i] if self.card_names[b.bit_length() - 1] == name]
            free = [b for b in same if available & b and not mask & b]
            if not free:
                taken = any(mask & b for b in same)
                raise CardError(f"{name} is not there to take twice" if taken and all(available & b for b in same)
                                else f"{name} is not among the cards" if not taken
                                else f"{name} is not there to take {sum(1 for b in same if mask & b) + 1} times")
            mask |= free[0]
        for i, colour in parsed:
            if colour is not None:
                continue
            for b in self.rank_cards[i]:
                if available & b and not mask & b:
                    mask |= b
                    break
            else:
                raise CardError(f"no card {self.ranks[i]} is left to take")
        return mask

    # -- values and keys -------------------------------------------------------------
    def value(self, index: int) -> int:
        """The rank's value in game records: its place in the single order from 1."""
        return index + 1

    @property
    def full_key(self) -> int:
        """The packed rank counts of the whole deck."""
        shift = self.shift
        return sum(c << (shift * i) for i, c in enumerate(self.copies))

    def key(self, indices: Iterable[int]) -> int:
        """Pack a sequence of rank indices into a rank-count integer."""
        shift = self.shift
        k = 0
        for i in indices:
            k += 1 << (shift * i)
        return k

    def expand(self, key: int) -> list[int]:
        """The rank indices of a packed hand, lowest first, one per card."""
        field_mask, shift = self.field_mask, self.shift
        out = []
        i = 0
        while key:
            out.extend([i] * (key & field_mask))
            key >>= shift
            i += 1
        return out

    # -- packed counts -----------------------------------------------------------------
    def contains(self, hand: int, play: int) -> bool:
        """True when every rank count of ``play`` is at most that of ``hand``."""
        guard = self.guard
        return ((hand | guard) - play) & guard == guard

    def ge_mask(self, hand: int, k: int) -> int:
        """Bit ``shift*i`` set for every rank ``i`` that ``hand`` holds at least ``k`` times
        (``k`` at most one more than :attr:`room`)."""
        if k <= 0:
            return self.low
        guard = self.guard
        return (((hand | guard) - k * self.low) & guard) >> self.top

    def count_of(self, hand: int, index: int) -> int:
        """How many cards of rank ``index`` the packed hand holds."""
        return (hand >> (self.shift * index)) & self.field_mask

    def size_of(self, hand: int) -> int:
        """The number of cards in a packed hand (the sum of its fields)."""
        limit, ones, top, mask = self._size_sum
        if 0 <= hand < limit:
            for width, halves in self._size_folds:
                hand = (hand & halves) + ((hand >> width) & halves)
            return (hand * ones) >> top & mask
        field_mask, shift = self.field_mask, self.shift
        total = 0
        while hand:
            total += hand & field_mask
            hand >>= shift
        return total

    def bit(self, index: int) -> int:
        """The spread-mask bit of rank ``index``: one card of it, packed."""
        return 1 << (self.shift * index)

    def indices_of_mask(self, mask: int) -> tuple[int, ...]:
        """The rank indices whose bit ``shift*i`` is set in a spread mask, lowest first."""
        return gather(self.index_tables, mask)

    def counts(self, key: int) -> list[int]:
        """The count of every rank in a packed hand, lowest rank first."""
        field_mask, shift = self.field_mask, self.shift
        return [(key >> (shift * i)) & field_mask for i in range(len(self.ranks))]

    def names_of(self, key: int) -> list[str]:
        """The card strings of a packed hand, lowest first."""
        return [self.ranks[i] for i in self.expand(key)]

    def fits(self, key: int) -> bool:
        """Can the deck hold these cards (no more copies of a rank than it has)?"""
        return self.contains(self.full_key, key)

    # -- reading what people type ----------------------------------------------------
    def parse_card(self, text: str) -> tuple[int, str | None]:
        """Read one card (``7``, ``h``, ``7/red``) into (rank index, colour or None)."""
        token = text.strip()
        colour = None
        if "/" in token:
            token, colour = token.split("/", 1)
            colour = colour.strip()
            if colour.lower() not in {c.lower() for c in self.colours}:
                known = ", ".join(self.colours) or "none"
                raise CardError(f"unknown colour {shown(colour)!r} in card {shown(text)!r} (colours: {known})")
        i = self.index.get(token.strip().upper())
        if i is None:
            raise CardError(f"unknown card {shown(text)!r}; cards are written "
                            + ", ".join(self.ranks))
        return i, colour

    def parse_colours(self, cards: str | Sequence[str] | "Hand") -> list[tuple[int, str | None]]:
        """Read a list of cards into ``(rank index, colour or None)`` pairs (see :meth:`parse`)."""
        if isinstance(cards, Hand):
            return [(i, None) for i in self.expand(cards.key)]
        if isinstance(cards, str):
            tokens = [t for t in _SPLIT.split(cards.strip()) if t]
        elif isinstance(cards, (list, tuple)):
            tokens = [str(t) for t in cards]
        else:
            raise CardError(f"cards must be a string like '7 7 5' or a list of card strings, "
                            f"not {type(cards).__name__}")
        if not tokens:
            raise CardError("no cards given")
        return [self.parse_card(t) for t in tokens]

    def parse(self, cards: str | Sequence[str] | "Hand") -> list[int]:
        """Read a list of cards (a string ``"7 7 7 5"`` / ``"7,7,7,5"`` or a list of card strings).

        Raises :class:`CardError` for anything that is not such a list.
        """
        return [i for i, _colour in self.parse_colours(cards)]

    def held(self, cards: str | Sequence[str] | "Hand") -> tuple[list[int], str | None]:
        """Read a list of cards: (rank indices, why the deck cannot hold them or None).

        Besides the count of each rank, a card named with its colour (``7/red``) must be one the
        deck has, as many times as it is named: one red 7, no red card of a rank without colours.
        """
        parsed = self.parse_colours(cards)
        indices = [i for i, _colour in parsed]
        return indices, self.too_many(indices) or self._colour_problem(parsed)

    def _colour_problem(self, parsed: Sequence[tuple[int, str | None]]) -> str | None:
        wanted: dict[tuple[int, str], int] = {}
        for i, colour in parsed:
            if colour is not None:
                wanted[(i, colour.lower())] = wanted.get((i, colour.lower()), 0) + 1
        if not wanted:
            return None
        have: dict[tuple[int, str], int] = {}
        spelled = {c.lower(): c for c in self.colours}
        for i, colour in self.cards:
            if colour is not None:
                have[(i, colour.lower())] = have.get((i, colour.lower()), 0) + 1
        for (i, colour), want in sorted(wanted.items()):
            held = have.get((i, colour), 0)
            if want > held:
                name = f"{self.ranks[i]}/{spelled.get(colour, colour)}"
                if not held:
                    return f"the deck holds no card {name}"
                return f"the deck holds {held} card{'s' if held != 1 else ''} {name}, not {want}"
        return None

    def too_many(self, indices: Sequence[int]) -> str | None:
        """Why the deck cannot hold these cards (a rank asked for more often than it has), or None."""
        wanted: dict[int, int] = {}
        for i in indices:
            wanted[i] = wanted.get(i, 0) + 1
        for i in sorted(wanted):
            have, want = self.copies[i], wanted[i]
            if want > have:
                return (f"the deck holds {have} card{'s' if have != 1 else ''} of rank "
                        f"{self.ranks[i]}, not {want}")
        return None

    def parse_key(self, cards: str | Sequence[str] | "Hand", *, check_deck: bool = True) -> int:
        """Read a list of cards into a packed key; with ``check_deck``, refuse what the deck cannot hold.

        Without ``check_deck`` a rank may still appear at most :attr:`room` times (the most a
        packed field holds).
        """
        if isinstance(cards, str) and "/" not in cards:
            key = self._plain_key(cards, check_deck)
            if key is not None:
                return key
        if check_deck:
            indices, problem = self.held(cards)
        else:
            indices = self.parse(cards)
            problem = self.too_many(indices)
        if problem and (check_deck or max(indices.count(i) for i in set(indices)) > self.room):
            raise CardError(problem)
        return self.key(indices)

    def _plain_key(self, text: str, check_deck: bool) -> int | None:
        """The packed key of card text without colours, read in one pass; None when the full
        reader must decide (an unknown card, more of a rank than allowed, no card at all)."""
        index = self.index
        counts: dict[int, int] = {}
        for token in text.upper().replace(",", " ").split():
            i = index.get(token)
            if i is None:
                return None
            counts[i] = counts.get(i, 0) + 1
        if not counts:
            return None
        key = 0
        shift = self.shift
        for i, n in counts.items():
            if n > (self.copies[i] if check_deck else self.room):
                return None
            key += n << (shift * i)
        return key

    def why_not_fits(self, key: int) -> str:
        """Explain which rank the deck holds fewer copies of than ``key`` asks for."""
        return self.too_many(self.expand(key)) or "the deck cannot hold these cards"


def resolve_ranks(value, ranks: Sequence[str]) -> list[int]:
    """Resolve a rank list (``[H, P]``, ``"1..12"``, ``[1, "3..5"]``) to rank indices.

    Raises :class:`KeyError` naming an unknown rank; the variant loader turns it into a
    located problem.
    """
    index = {str(r).upper(): i for i, r in enumerate(ranks)}
    items = value if isinstance(value, list) else [value]
    out: list[int] = []
    for item in items:
        text = str(item)
        if ".." in text:
            lo, hi = (t.strip().upper() for t in text.split("..", 1))
            if lo not in index:
                raise KeyError(lo)
            if hi not in index:
                raise KeyError(hi)
            a, b = index[lo], index[hi]
            if a > b:
                raise KeyError(f"{text} (runs downwards)")
            out.extend(range(a, b + 1))
        else:
            key = text.strip().upper()
            if key not in index:
                raise KeyError(text)
            out.append(index[key])
    return out


class Hand:
    """A readable multiset of cards over a deck, wrapping the packed key.

    >>> hand = Hand.parse(deck, "7 7 7 5")
    >>> str(hand)
    '5 7 7 7'
    """

    __slots__ = ("deck", "key")

    def __init__(self, deck: Deck, key: int):
        self.deck = deck
        self.key = key

    @classmethod
    def parse(cls, deck: Deck, cards) -> "Hand":
        return cls(deck, deck.parse_key(cards))

    @property
    def cards(self) -> list[str]:
        return self.deck.names_of(self.key)

    def __len__(self) -> int:
        return self.deck.size_of(self.key)

    def __contains__(self, other) -> bool:
        other_key = other.key if isinstance(other, Hand) else self.deck.parse_key(other, check_deck=False)
        return self.deck.contains(self.key, other_key)

    def __eq__(self, other) -> bool:
        return isinstance(other, Hand) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __str__(self) -> str:
        return " ".join(self.cards)

    def __repr__(self) -> str:
        return f"Hand({str(self)!r})"
