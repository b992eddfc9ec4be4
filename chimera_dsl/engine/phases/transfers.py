"""The transfer phase (``transfer``): cards handed from one place to another, the nest to a
seat, an exchange between seats (chosen by the giver, or its highest cards), one giver at a
time or all at once (``simultaneous``), each gift written to the record.

The phase keeps its own state in :class:`Transfers` (the state's ``transfers``, new each
round): the gifts under way and the transfers done this round, which each seat may see.  The
state reads ``exchange_count``, ``given``, ``received`` and ``give_to`` from it.
"""
from __future__ import annotations

from typing import Any

from ..actions import Action
from ..seats import _moved


class Transfers:
    """The transfers' state in one round: the phase under way (``phase``), its pairs (giver,
    receiver) and the gift of each (``keys``: packed rank counts, ``masks``: the very cards),
    the pair whose giver chooses now (``at``), the cards handed over and not yet delivered in a
    simultaneous transfer (``in_transit``, per giver), how many cards each gift holds
    (``count``), per seat what it gave and received in this phase (``given``, ``received``),
    and every transfer of the round done so far (``done``: ``(phase, giver, to, key, shown,
    mask)``) with, per seat, those it may see (``seen``)."""

    __slots__ = ("phase", "pairs", "at", "keys", "masks", "in_transit", "count", "given", "received",
                 "done", "seen")

    def __init__(self) -> None:
        self.phase: Any = None
        self.pairs: list = []
        self.at = 0
        self.keys: list = []
        self.masks: list = []
        self.in_transit: dict[int, int] = {}
        self.count: int | None = None
        self.given: list | None = None
        self.received: list | None = None
        self.done: list = []
        self.seen: list = []

    def copy(self) -> "Transfers":
        """An independent copy (for a state's clone; the shared :data:`NONE_YET` is itself)."""
        if self is NONE_YET:
            return self
        other = Transfers.__new__(Transfers)
        other.phase, other.pairs, other.at, other.count = self.phase, self.pairs, self.at, self.count
        other.keys, other.masks, other.in_transit = self.keys.copy(), self.masks.copy(), self.in_transit.copy()
        other.given = None if self.given is None else self.given.copy()
        other.received = None if self.received is None else self.received.copy()
        other.done, other.seen = self.done.copy(), self.seen
        return other

    def seen_by(self, seat: int):
        """The transfers of this round that ``seat`` may see: (phase, from, to, rank key)."""
        for phase, giver, to, key, shown, _mask in self.done:
            if shown or seat in (giver, to):
                yield (phase, giver, to, key)

    def give_to(self) -> int | None:
        """The seat the current gift goes to, while a transfer asks for one, else None."""
        if self.phase is None or self.at >= len(self.pairs):
            return None
        return self.pairs[self.at][1]


NONE_YET = Transfers()
"""The transfers of a round before any phase hands cards over: shared by every state, never
changed (:func:`begin` gives the state its own before the first gift), so that a round
without transfers costs nothing."""


def begin(state: Any, phase) -> bool:
    """Start a transfer (``phase``: a :class:`~chimera_dsl.engine.round.TransferPhase`); True when a seat
    must choose cards, False when it is done already."""
    if phase.when is not None and not phase.when.evaluate({"round": state.round, "players": state.n}):
        return False
    if phase.source == "nest":
        to = state._seat(phase.to)
        state.held[to] |= state.nest_cards
        state.hands[to] += state.nest
        state.sizes[to] += state.game.size_of(state.nest)
        state.nest_holder = to
        state._nest_shown = phase.shown
        return False
    if phase.givers == "each":         # every seat in the round, from the dealer's next
        givers: tuple = (state._after[state.dealer],)
        while len(givers) < state.in_round:
            givers += (state._after[givers[-1]],)
    elif isinstance(phase.givers, str):
        givers = state.round_bid.others  # "others": every seat but the bidder
    else:
        givers = (state._seat(phase.givers),)
    if phase.to == "each_other":       # each giver to every other seat in the round, in order of play
        pairs = [(g, r) for g in givers for r in state._after_order(g)]
    elif isinstance(phase.to, tuple):    # left, right or across, perhaps by round
        direction = phase.to[(state.round - 1) % len(phase.to)]
        if direction == "none":
            return False
        pairs = [(g, _beside(state, g, direction)) for g in givers]
    elif phase.to == "next":
        if len(givers) < 2:
            return False                 # a ring of one seat hands nothing to anybody
        pairs = [(g, givers[(i + 1) % len(givers)]) for i, g in enumerate(givers)]
    else:
        to = state._seat(phase.to)
        pairs = [(g, to) for g in givers]
    pairs = [(g, r) for g, r in pairs if g != r]
    if not pairs:
        return False
    count = phase.count if phase.count is not None else phase.count_by_bid.get(state.round_bid.bid or 0, 0)
    t = state.transfers
    if t is NONE_YET:
        t = state.transfers = Transfers()
    t.phase = phase
    t.pairs = pairs
    t.at = 0                           # the pair whose giver chooses now
    t.keys = [None] * len(pairs)
    t.masks = [0] * len(pairs)
    t.in_transit = {}
    t.count = count
    t.given = [None] * state.n
    t.received = [None] * state.n
    if count == 0:
        for i, (giver, _) in enumerate(pairs):
            t.given[giver] = 0
            t.keys[i] = 0
        _finish(state)
        return False
    if phase.choose == "highest":
        deck = state.game.rules.deck
        for i, (giver, _) in enumerate(pairs):
            mask = _highest(state, state.held[giver], count)
            _give(state, i, deck.key_of_mask(mask), mask)
        _finish(state)
        return False
    state._to_act = pairs[0][0]
    return True


def _beside(state: Any, seat: int, direction: str) -> int:
    """The seat on the left of ``seat`` (the next clockwise), on its right, or across the table
    (half the seats of the round away), among the seats in the round."""
    if direction == "across":
        for _ in range(state.in_round // 2):
            seat = _moved(state, seat, 1)
        return seat
    return _moved(state, seat, 1 if direction == "left" else -1)


def _highest(state: Any, held: int, count: int) -> int:
    """The ``count`` best cards of ``held``: highest rank first (then, where plays name their
    cards, the later colour of ``deck.colours``), then the later card of the deck."""
    deck = state.game.rules.deck
    if state._by_cards:          # colours rank: the best card is the highest value, then colour
        numbers = sorted(deck.numbers_of(held), key=lambda c: (deck.card_rank[c], deck.card_colour[c], c),
                         reverse=True)
    else:
        numbers = sorted(deck.numbers_of(held), key=lambda c: (deck.card_rank[c], c), reverse=True)
    return deck.mask_of(numbers[:count])


def _give(state: Any, pair: int, key: int, mask: int | None) -> None:
    """The giver of pair number ``pair`` hands over ``key`` (the very cards ``mask``)."""
    deck = state.game.rules.deck
    t = state.transfers
    seat, to = t.pairs[pair]
    if mask is None:
        mask = deck.take(state.held[seat], key)
    given = t.given[seat]
    t.given[seat] = key if given is None else given + key
    t.in_transit[seat] = t.in_transit.get(seat, 0) | mask
    t.keys[pair] = key
    t.masks[pair] = mask
    state.held[seat] &= ~mask
    state.hands[seat] -= key
    state.sizes[seat] -= mask.bit_count()       # (the very cards: as many as the key counts)
    if not t.phase.simultaneous:
        _receive(state, to, key, mask)


def _receive(state: Any, to: int, key: int, mask: int) -> None:
    state.held[to] |= mask
    state.hands[to] += key
    state.sizes[to] += mask.bit_count()
    t = state.transfers
    received = t.received[to]
    t.received[to] = key if received is None else received + key


def legal(state: Any, phase) -> list[Action]:
    """The gifts of ``count`` cards the seat to act may choose."""
    seat = state._to_act
    count = state.transfers.count
    if state.game.gives_cards:
        return state.game.card_give_actions(state.held[seat], count)
    return state.game.give_actions(state.hands[seat], count)


def why_illegal(state: Any, phase, action: Action) -> str:
    if action.kind == "give":
        cards = action.cards if isinstance(action.cards, int) else 0
        return (f"seat {state._to_act} must give exactly {state.transfers.count} card(s) from its hand, "
                f"not {' '.join(state.game.rules.deck.names_of(cards)) or 'none'}")
    return f"a {action.kind} is not an action of the {state.phase} (give)"


def take(state: Any, action: Action, mask: int | None) -> None:
    t = state.transfers
    _give(state, t.at, action.cards, mask)
    pending = [i for i, key in enumerate(t.keys) if key is None]
    if pending:
        t.at = pending[0]
        state._to_act = t.pairs[pending[0]][0]
        return
    _finish(state)
    state._next_phase()


def _finish(state: Any) -> None:
    t = state.transfers
    phase = t.phase
    card_names = state.game.rules.deck.mask_names     # (a gift's cards seldom come again: not cached)
    for (giver, to), key, mask in zip(t.pairs, t.keys, t.masks):
        if phase.simultaneous:
            _receive(state, to, key, mask)
        event = {"type": "exchange", "round": state.round, "from": giver, "to": to, "cards": card_names(mask)}
        if phase.name != "exchange":
            event["phase"] = phase.name
        if phase.shown:
            event["shown"] = True
        state._events.append(event)
        t.done.append((phase.name, giver, to, key, phase.shown, mask))
    t.in_transit = {}
    seen: list[list] = [[] for _ in range(state.n)]     # per seat, t.seen_by(seat), in one pass
    for name, giver, to, key, shown, _mask in t.done:
        entry = (name, giver, to, key)
        if shown:
            for one in seen:
                one.append(entry)
        else:
            seen[giver].append(entry)
            if to != giver:
                seen[to].append(entry)
    t.seen = list(map(tuple, seen))
