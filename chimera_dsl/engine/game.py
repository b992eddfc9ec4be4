"""The compiled rules of a whole game: :class:`Game`, the factory of
:class:`~chimera_dsl.engine.state.State`.

``Game`` reads the round's phases from the variant once (:func:`~chimera_dsl.engine.round.compile_round`),
deals (each deal's shuffle and cut drawn from the game's seed and the deal's number) and keeps
what every state of the game shares: the actions of each bid level, the leads of a hand, the
names of packed keys and of masks of cards.  The shuffle draws what ``random.Random.shuffle``
draws, without a method call per card; a check as the module loads falls back to
``Random.shuffle`` itself where the two would differ.
"""
from __future__ import annotations

import random
from itertools import combinations
from collections.abc import Sequence
from typing import Iterator

from .actions import Action, Deal, TwoPartDeal, _new_action, _play_actions, bid_action, seed_rng
from ..errors import ChimeraError
from .proofs import prove_target
from .round import Round, compile_round
from ..rules import Rules
from .state import State


_COMBINATIONS: dict[tuple[int, int], tuple] = {}


class Gifts(Sequence):
    """The gifts of ``count`` cards from distinct ``cards`` (each a ``(bit, packed key)`` pair,
    in deck order), as the list of actions they make in the order of ``itertools.combinations``:
    ``Action("give", cards=KEY, mask=MASK)``.  Built one at a time as they are read, not
    listed: a random player reads one of the 286 gifts of three cards from thirteen.  It
    compares equal to the list of the same actions; the action read last is kept in ``given``,
    which ``State.apply_action`` accepts without searching."""

    __slots__ = ("_cards", "_count", "_picks", "given")

    def __init__(self, cards: tuple, count: int):
        self._cards = cards
        self._count = count
        picks = _COMBINATIONS.get((len(cards), count))
        if picks is None:
            picks = _COMBINATIONS[(len(cards), count)] = tuple(combinations(range(len(cards)), count))
        self._picks = picks
        self.given = None

    def __len__(self) -> int:
        return len(self._picks)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        cards = self._cards
        mask = key = 0
        for i in self._picks[index]:
            bit, k = cards[i]
            mask |= bit
            key += k
        action = self.given = _new_action(Action, ("give", None, key, None, mask))
        return action

    def __iter__(self) -> Iterator[Action]:
        new = _new_action
        bits = [bit for bit, _ in self._cards]
        keys = [key for _, key in self._cards]
        count = self._count
        # distinct single bits: their sum is their union
        for key, mask in zip(map(sum, combinations(keys, count)), map(sum, combinations(bits, count))):
            yield new(Action, ("give", None, key, None, mask))

    def __contains__(self, action) -> bool:
        if action is self.given:
            return True
        if not isinstance(action, tuple) or len(action) != 5:
            return False
        kind, bid, key, play, mask = action
        if kind != "give" or bid is not None or play is not None or type(mask) is not int:
            return False
        chosen = [k for bit, k in self._cards if mask & bit]
        return len(chosen) == self._count == mask.bit_count() and sum(chosen) == key

    def __eq__(self, other) -> bool:
        if isinstance(other, Gifts):
            return self._cards == other._cards and self._count == other._count
        if isinstance(other, (list, tuple)):
            return len(other) == len(self) and list(self) == list(other)
        return NotImplemented

    __hash__ = None

    def __repr__(self) -> str:
        return f"Gifts({list(self)!r})"


class Game:
    """The compiled rules of a whole game, and a factory of :class:`State`.

    ``target`` overrides ``end.target``; ``max_rounds`` stops the game after that many rounds
    played out (the best total then wins).
    """

    def __init__(self, rules: Rules, target: int | None = None, max_rounds: int | None = None):
        self.rules = rules
        self.round: Round = compile_round(rules)
        if target is not None and target <= 0:
            raise ChimeraError(f"the target must be positive, not {target}")
        if target is not None and max_rounds is None:
            prove_target(rules, self.round, target)    # it must end the game as end.target must
        self.target = target if target is not None else self.round.target
        self.max_rounds = max_rounds
        self.players = self.round.players
        bidding = self.round.bidding
        self.bid_actions = {level: bid_action(level) for level in (bidding.levels if bidding else ())}
        self._lead_actions: dict[int, tuple[Action, ...]] = {}
        self._names: dict[int, tuple[str, ...]] = {}
        self._card_names: dict[int, tuple[str, ...]] = {}
        self.combination_ids = tuple(c.id for c in rules.combinations)
        self.by_cards = rules.card_plays is not None      # plays name their very cards
        # transfers hand over named cards where plays do, and in a trick-taking round, whose cards
        # are told apart by colour (a gift of ranks would leave the colours to chance)
        self.gives_cards = self.by_cards or self.round.play.kind == "tricks"
        self._card_leads: dict[int, tuple[Action, ...]] = {}
        # the deck's packed layout (see cards.py): the cards of a packed hand, and its fields
        self.size_of = rules.deck.size_of
        self._shift = rules.deck.shift
        self._field_mask = rules.deck.field_mask
        # per card number its bit, its packed rank count and its name: lists, which a deal maps
        # over its cards (a list's item lookup is the cheapest call there is)
        deck = rules.deck
        self._card_bits = [1 << c for c in range(len(deck.cards))]
        self._card_keys = [1 << (deck.shift * deck.card_rank[c]) for c in range(len(deck.cards))]
        self._card_name_list = list(deck.card_names)

    def new_game(self, seed, deals: Iterator | None = None, player_names=None,
                 first_dealer: int | None = None) -> "State":
        """A new game whose every shuffle and cut comes from ``seed``.

        ``deals`` (replay, tests): an iterator of deals used instead of the shuffle, one per
        deal (redeals included): :class:`Deal` (cards by identity) or ``(hands, nest, face_up)``
        in packed rank counts with ``face_up`` as ``(rank index, seat)`` or None.
        ``first_dealer`` (replay): who deals first, instead of :meth:`first_dealer`'s choice.
        """
        return State(self, seed, deals, player_names, first_dealer)

    def first_dealer(self, seed) -> int:
        """The first dealer: the variant's seat, or drawn from the seed."""
        deal = self.round.deal
        if deal.first_dealer is not None:
            return deal.first_dealer.resolve(None)       # a fixed seat reads nothing
        return _randint(seed_rng(seed, "first_dealer"), 0, self.players - 1)    # randrange(players), drawn alike

    def deal(self, seed, number: int, dealer: int, step: int = 1, sitting: int | None = None,
             round_: int = 1) -> Deal:
        """Shuffle, cut, turn the face-up card and deal, all drawn from ``Random(f"{seed}:deal:{number}")``
        (from the secure source for :data:`SECRET_SEED`).

        The upper part of the cut holds between ``deal.cut.from`` and ``.to`` cards; the top
        card of the lower part goes face up on the upper part, the lower part on top; the nest
        is dealt first, then one card at a time from the seat after the dealer (``step``: the
        direction of play), skipping ``sitting``, the seat out of the round (``deal.sits_out``),
        each seat the hand of round ``round_`` (``deal.hand_by_round``); with ``deal.turn_up``
        the first card left over is turned face up (held by nobody).
        """
        return self._deal(seed, number, dealer, step, sitting, round_)[0]

    def _deal(self, seed, number: int, dealer: int, step: int, sitting: int | None = None,
              round_: int = 1) -> tuple[Deal, list]:
        """:meth:`deal`, and each seat's cards as numbers in deck order."""
        spec = self.round.deal
        rng = seed_rng(seed, f"deal:{number}")
        cards = list(range(len(self.rules.deck.cards)))
        _shuffle(rng, cards)
        n = self.players
        order = None if sitting is None else spec.order(dealer, step, n, sitting)
        dealt_to = n if order is None else len(order)
        nest_size = spec.nest
        dealt = nest_size + dealt_to * (spec.hand_in(round_) if spec.by_round else spec.hand) + spec.extra
        while True:
            face_index = None
            cut = _randint(rng, spec.cut[0], spec.cut[1])
            if spec.face_up:
                upper, lower = cards[:cut], cards[cut:]
                # the lower part, less its top card, goes on top of [face-up card] + upper part
                stack = lower[1:] + [lower[0]] + upper
                face_index = len(lower) - 1
            else:
                stack = cards[cut:] + cards[:cut]
            if face_index is not None and not nest_size <= face_index < dealt \
                    and spec.face_up_in_nest == "recut":
                continue                       # cut the same cards again
            break
        bit = self._card_bits.__getitem__
        nest = sum(map(bit, stack[:nest_size]))
        hands = [0] * n
        numbers: list = [()] * n
        dealt_cards = stack[nest_size:dealt]
        first = spec.first
        seen: list | None = None if first is None else [0] * n
        for j in range(min(dealt_to, len(dealt_cards))):  # the j-th card, and every n-th after it
            seat = (dealer + step * (1 + j)) % n if order is None else order[j]
            mine = dealt_cards[j::dealt_to]
            hands[seat] = sum(map(bit, mine))
            if seen is not None:                 # a deal in two parts: the first cards dealt to it
                seen[seat] = sum(map(bit, mine[:first]))
            mine.sort()
            numbers[seat] = tuple(mine)
        face_up = None
        if face_index is not None:
            holder = None
            if nest_size <= face_index < dealt:
                j = face_index - nest_size
                holder = (dealer + step * (1 + j)) % n if order is None else order[j % dealt_to]
            face_up = (stack[face_index], holder)
        elif spec.turn_up and dealt < len(stack):  # the stock's first card, seen by all, held by nobody
            face_up = (stack[dealt], None)       # (none left: a round dealing every card turns none)
        if spec.keeps_stock:                     # the stock, in its order, dealt on after a phase or drawn from
            from .phases.stock import StockDeal
            return StockDeal(tuple(hands), nest, face_up, stack[dealt + (1 if spec.turn_up and face_up is not None else 0):]), numbers
        if seen is not None:
            return TwoPartDeal(tuple(hands), nest, face_up, seen), numbers
        return Deal(tuple(hands), nest, face_up), numbers

    def names(self, key: int) -> list[str]:
        """The rank names of a packed key, lowest first (a fresh list; cached)."""
        return _cached(self._names, key, self.rules.deck.names_of)

    def card_names(self, mask: int) -> list[str]:
        """The card names (``7/red``) of a mask of cards, lowest first (a fresh list; cached)."""
        return _cached(self._card_names, mask, self.rules.deck.mask_names)

    def lead_actions(self, hand: int) -> tuple[Action, ...]:
        """The play actions that may lead a trick from ``hand`` (cached, shared)."""
        cached = self._lead_actions.get(hand)
        return cached if cached is not None else _keep_leads(self._lead_actions, hand, self.rules.leads)

    def card_lead_actions(self, held: int) -> tuple[Action, ...]:
        """The play actions that may lead a trick from the cards ``held`` (cached, shared)."""
        cached = self._card_leads.get(held)
        return cached if cached is not None else _keep_leads(self._card_leads, held, self.rules.card_leads)

    def card_give_actions(self, held: int, count: int) -> Sequence[Action]:
        """Every distinct set of ``count`` cards that ``held`` may hand over, one per look (two
        cards of one rank and colour are interchangeable), as actions naming the very cards."""
        deck = self.rules.deck
        pairs = self.__dict__.get("_gift_pairs")
        if pairs is None:                   # per card (bit, packed key), or False: a deck with twin cards
            looks_of = list(zip(deck.card_rank, deck.card_colour))
            keys = self._card_keys
            pairs = self._gift_pairs = [(1 << c, keys[c]) for c in range(len(keys))] \
                if len(set(looks_of)) == len(looks_of) else False
        if pairs:                           # every card its own look: the gifts are the combinations of the cards
            return Gifts(tuple(map(pairs.__getitem__, deck.numbers_of(held))), count)
        looks: dict[tuple[int, int], list[int]] = {}
        for c in deck.numbers_of(held):
            looks.setdefault((deck.card_rank[c], deck.card_colour[c]), []).append(c)
        groups = list(looks.values())
        out: list[Action] = []
        if len(groups) == len(looks) and all(len(g) == 1 for g in groups):
            # every card its own look (no twins): the gifts are the combinations of the cards
            # every card its own look (no twins): the gifts are the combinations of the cards,
            # listed lazily (a pass of three cards from thirteen has 286 of them)
            keys = self._card_keys
            return Gifts(tuple((1 << g[0], keys[g[0]]) for g in groups), count)

        def pick(j: int, left: int, mask: int) -> None:
            if not left:
                out.append(Action("give", cards=deck.key_of_mask(mask), mask=mask))
                return
            if j == len(groups):
                return
            cards = groups[j]
            for n in range(min(left, len(cards)), -1, -1):
                taken = mask
                for c in cards[:n]:
                    taken |= 1 << c
                pick(j + 1, left - n, taken)
        pick(0, count, 0)
        return out

    def give_actions(self, hand: int, count: int) -> list[Action]:
        """Every distinct set of ``count`` cards (by rank) that ``hand`` may hand over, as actions."""
        # options[k]: the distinct keys of k cards from the ranks seen so far
        options: list[list[int]] = [[0]] + [[] for _ in range(count)]
        shift, field_mask = self._shift, self._field_mask
        index = 0
        while hand:
            have = hand & field_mask
            if have:
                unit = 1 << (shift * index)
                for k in range(count, 0, -1):
                    extra = options[k]
                    for take in range(1, min(have, k) + 1):
                        add = take * unit
                        extra.extend([key + add for key in options[k - take]])
            hand >>= shift
            index += 1
        return [_new_action(Action, ("give", None, key, None, None)) for key in options[count]]


def _shuffle(rng: random.Random, cards: list) -> None:
    """``rng.shuffle(cards)``: the same permutation from the same draws (``random``'s
    Fisher-Yates, each place drawn with ``getrandbits``, again while too large), without a
    method call per card: a deal's shuffle is a good part of a short round.
    :func:`_check_shuffle` keeps ``rng.shuffle`` where they differ."""
    steps = _STEPS.get(len(cards))
    if steps is None:
        if len(cards) >= 1 << 10:
            rng.shuffle(cards)
            return
        steps = _STEPS[len(cards)] = tuple((i, (i + 1).bit_length()) for i in range(len(cards) - 1, 0, -1))
    getrandbits = rng.getrandbits
    for i, k in steps:                  # place i takes a card drawn from places 0..i
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


_STEPS: dict[int, tuple[tuple[int, int], ...]] = {}     # per deck size: (place, bits drawn for it)


def _randint(rng: random.Random, low: int, high: int) -> int:
    """``rng.randint(low, high)``, drawn the same way (checked by :func:`_check_shuffle`)."""
    n = high - low + 1
    if n <= 0:
        return rng.randint(low, high)
    k = n.bit_length()
    getrandbits = rng.getrandbits
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return low + r


def _check_shuffle() -> None:
    """Use ``Random.shuffle`` and ``Random.randint`` themselves if :func:`_shuffle` and
    :func:`_randint` do not draw as they do here."""
    global _shuffle, _randint
    for seed in ("0:deal:1", "7:deal:2", "x"):
        for size in (0, 1, 2, 36, 60, 108):
            mine, theirs = list(range(size)), list(range(size))
            a, b = random.Random(seed), random.Random(seed)
            _shuffle(a, mine)
            b.shuffle(theirs)
            same = mine == theirs and [_randint(a, 0, 9) for _ in range(9)] == [b.randint(0, 9) for _ in range(9)] \
                and _randint(a, 3, 3) == b.randint(3, 3) and _randint(a, 0, 4) == b.randrange(5) \
                and a.random() == b.random()
            if not same:
                _shuffle, _randint = _stdlib_shuffle, _stdlib_randint
                return


def _stdlib_shuffle(rng: random.Random, cards: list) -> None:
    rng.shuffle(cards)


def _stdlib_randint(rng: random.Random, low: int, high: int) -> int:
    return rng.randint(low, high)


_check_shuffle()


def _keep_leads(cache: dict, key: int, leads) -> tuple[Action, ...]:
    """The play actions of ``leads(key)``, remembered in ``cache`` (emptied when it is full):
    what the lead-action methods compute on a miss, their hits staying one lookup."""
    if len(cache) >= 4096:
        cache.clear()
    found = cache[key] = tuple(_play_actions(leads(key)))
    return found


def _cached(cache: dict, key: int, make) -> list[str]:
    """``make(key)`` as a fresh list, remembered in ``cache`` (emptied when it is full)."""
    found = cache.get(key)
    if found is None:
        if len(cache) >= 65536:
            cache.clear()
        found = cache[key] = tuple(make(key))
    return list(found)
