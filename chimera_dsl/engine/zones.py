"""The table of zones: where every card of a round is, who owns each place and who may see it.

A zone is a named place of cards (``hand``, ``trick``, ``won``, ``nest``...) with an owner (a
seat, a team as a tuple of seats, or None) and a visibility:

- ``owner``: its owner sees the cards, every other seat only how many there are (a hand);
- ``all``: every seat sees the cards (the trick on the table, the piles won, a dummy's hand
  once the opening lead is made, a face-up card, cards laid face up);
- ``count``: every seat sees how many cards there are, none which (the cards of a deal in two
  parts not seen yet);
- ``nobody``: no seat sees them (the nest before it is taken, the undealt cards).

The zones are read from the objects the engine plays on (the state's ``held`` list, a
trick-taking round's table): a zone's ``cards`` is the very mask those hold now, so the hot
paths keep reading and writing the same objects and the table costs nothing until someone
asks for it.  ``cards`` is a bit mask over the deck's cards, except for the piles a climbing
round's seats won, which the climbing play keeps as packed rank counts (``form`` says which).

What a seat may see is one rule (:func:`sees`): a zone is seen by every seat if its visibility
is ``all``, by its owner if it is ``owner``, by nobody else; a card is seen by a seat when some
zone holding it is (the dummy's cards are in its hand, seen by its owner, and exposed, seen by
all).  :meth:`State.observation <chimera_dsl.engine.State.observation>` reads the seat's own
hand, the nest and the exposed cards through this rule; ``tests/test_zones.py`` checks, for
every shipped file, that no observation shows a card no zone lets its seat see.
"""
from __future__ import annotations

from typing import Any, NamedTuple

OWNER = "owner"
ALL = "all"
COUNT = "count"
NOBODY = "nobody"
VISIBILITIES = (OWNER, ALL, COUNT, NOBODY)

MASK = "mask"
RANKS = "ranks"


class Zone(NamedTuple):
    """One place of cards: its name, its owner (a seat, a tuple of seats, or None), its
    visibility (:data:`OWNER`, :data:`ALL`, :data:`COUNT`, :data:`NOBODY`) and its cards
    (``form`` :data:`MASK`: a bit mask over the deck's cards; :data:`RANKS`: packed rank counts)."""

    name: str
    owner: Any
    visibility: str
    cards: int
    form: str = MASK


def owns(owner: Any, seat: int) -> bool:
    """Is ``seat`` the owner, or one of the owners, of a zone owned by ``owner``?"""
    return owner == seat or (isinstance(owner, tuple) and seat in owner)


def sees(zone: Zone, seat: int) -> bool:
    """May ``seat`` see which cards ``zone`` holds?  The one rule of what a seat sees."""
    visibility = zone.visibility
    return visibility == ALL or (visibility == OWNER and owns(zone.owner, seat))


def counts(zone: Zone, seat: int) -> bool:
    """May ``seat`` see how many cards ``zone`` holds?"""
    return zone.visibility != NOBODY


def _current_table(state) -> Any:
    """The trick-taking table of the round under way, or None (a climbing round)."""
    table = getattr(state, "table", None)
    return table if table is not None and table.deal == state.deal_number else None


def hand(state, seat: int) -> Zone:
    """``seat``'s hand: the cards it holds and has seen (a deal in two parts keeps the others
    in its ``unseen`` zone)."""
    held = state.held[seat]
    unseen = state.unseen
    if unseen is not None:
        held &= ~unseen[seat]
    return Zone("hand", seat, OWNER, held)


def nest(state) -> Zone:
    """The nest: seen by nobody until a seat takes it, then by that seat (by all if the
    transfer that gave it shows it).  Its cards are those it held, wherever they went since."""
    holder = state.nest_holder
    if holder is None:
        visibility = NOBODY
    else:
        visibility = ALL if state._nest_shown else OWNER
    return Zone("nest", holder, visibility, state.nest_cards)


def exposed(state) -> list[Zone]:
    """The hands face up for all: a dummy's, once the opening lead is made; a declarer's
    playing open (its hand shown to all)."""
    table = _current_table(state)
    if table is None:
        return []
    if table.exposed:
        return [Zone("exposed", table.dummy, ALL, state.held[table.dummy])]
    if table.open_hand is not None:
        return [Zone("exposed", table.open_hand, ALL, state.held[table.open_hand])]
    return []


def zones(state) -> list[Zone]:
    """Every zone of the round under way, each seat's first (in seat order), then the trick,
    the nest and the undealt cards."""
    n = state.n
    table = _current_table(state)
    unseen = state.unseen
    out: list[Zone] = []
    in_transit: dict[int, int] = {}
    transfers = state.transfers
    if transfers.phase is not None and transfers.phase.simultaneous:
        in_transit = transfers.in_transit
    face_up = state.face_up_card
    for seat in range(n):
        out.append(hand(state, seat))
        if unseen is not None:
            out.append(Zone("unseen", seat, COUNT, unseen[seat]))
        if seat in in_transit:          # handed over in a simultaneous transfer, not delivered yet
            out.append(Zone("given", seat, OWNER, in_transit[seat]))
        if table is not None:
            out.append(Zone("won", seat, ALL, table.taken[seat]))
            out.append(Zone("laid", seat, ALL, table.laid[seat]))
            melds = 0
            for meld in table.announced[seat]:
                melds |= meld.mask
            out.append(Zone("melds", seat, ALL, melds))
        else:
            out.append(Zone("won", seat, ALL, state.taken[seat], RANKS))
    out += exposed(state)
    if face_up is not None:
        out.append(Zone("face_up", state.face_up[1] if state.face_up is not None else None, ALL, 1 << face_up))
    if table is not None:
        trick = 0
        for _seat, card in table.trick:
            trick |= 1 << card
        out.append(Zone("trick", None, ALL, trick))
    else:
        out.append(Zone("trick", None, ALL, state.trick_cards))
    out.append(nest(state))
    out.append(Zone("undealt", None, NOBODY, undealt(state)))
    return out


def undealt(state) -> int:
    """The cards of the deck no seat was dealt, outside the nest and the face-up card."""
    dealt = state.nest_cards or 0
    for mask, _numbers in state._hand_numbers:
        dealt |= mask
    if state.face_up_card is not None:
        dealt |= 1 << state.face_up_card
    return state.game.rules.deck.full_mask & ~dealt


def seen_by(state, seat: int) -> int:
    """Every card ``seat`` may see now, as a mask (the zones kept as rank counts aside)."""
    seen = 0
    for zone in zones(state):
        if zone.form == MASK and sees(zone, seat):
            seen |= zone.cards
    return seen


def known_holders(state, seat: int, names: tuple[str, ...]) -> list[int]:
    """Per seat, the cards of the zones named ``names`` it owns that ``seat`` sees (cards whose
    holder ``seat`` knows: cards laid face up, announced, on a dummy)."""
    known = [0] * state.n
    for zone in zones(state):
        owner = zone.owner
        if zone.name in names and isinstance(owner, int) and zone.form == MASK and sees(zone, seat):
            known[owner] |= zone.cards
    return known
