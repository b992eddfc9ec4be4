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
all).  Each kind of zone has its visibility in one table, :data:`VISIBILITY` (the nest's
depends on who took it).  :meth:`State.observation <chimera_dsl.engine.State.observation>`
builds what it shows of cards from the zones, each read through this rule (:func:`seen`): the
seat's own hand, the nest, the face-up card, the trick, the piles won, and in a trick-taking
round the cards laid face up, the announced melds and the exposed hands (a dummy's, an ouvert
declarer's); a zone a seat may not see shows it nothing.  :func:`seen_zones` gives a seat
every zone at once as it sees it (the observation's ``zones``), so a zone of a new kind reaches
the players without a field of its own.  ``tests/test_zones.py`` checks, for
every shipped file, that no observation shows a card no zone lets its seat see, and that
changing a kind's visibility changes what the observations show.
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

VISIBILITY = {"hand": OWNER, "unseen": COUNT, "given": OWNER, "won": ALL, "laid": ALL, "melds": ALL,
              "exposed": ALL, "face_up": ALL, "drawn": ALL, "trick": ALL, "stock": COUNT, "undealt": NOBODY}
"""Who sees each kind of zone (the nest's, which changes as the round goes, aside: :func:`nest`)."""


class Zone(NamedTuple):
    """One place of cards: its name, its owner (a seat, a tuple of seats, or None), its
    visibility (:data:`OWNER`, :data:`ALL`, :data:`COUNT`, :data:`NOBODY`) and its cards
    (``form`` :data:`MASK`: a bit mask over the deck's cards; :data:`RANKS`: packed rank counts)."""

    name: str
    owner: Any
    visibility: str
    cards: int
    form: str = MASK


class SeenZone(NamedTuple):
    """What one seat sees of one zone (:func:`seen_zones`): its name and owner, its ``cards``
    (None when the seat may not see which they are), how many (``size``: None when it may not
    even count them) and their ``form`` (:data:`MASK` or :data:`RANKS`, as :class:`Zone`)."""

    name: str
    owner: Any
    cards: int | None
    size: int | None
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


def shows(kind: str, owner: Any, seat: int) -> bool:
    """Does a zone of ``kind`` (of :data:`VISIBILITY`) owned by ``owner`` show its cards to
    ``seat``?  The rule of :func:`sees`, for a zone not built (the observation's hot path)."""
    visibility = VISIBILITY[kind]
    return visibility == ALL or (visibility == OWNER and owns(owner, seat))


def seen_each(kind: str, held: list, seat: int, hidden: Any = 0) -> list:
    """Per seat, what ``seat`` sees of that seat's zone of ``kind``, whose cards are ``held[s]``:
    the cards when the zone shows them (:func:`shows`), else ``hidden``."""
    visibility = VISIBILITY[kind]
    if visibility == ALL:
        return list(held)
    return [cards if visibility == OWNER and owns(s, seat) else hidden for s, cards in enumerate(held)]


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
    return Zone("hand", seat, VISIBILITY["hand"], held)


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
        return [Zone("exposed", table.dummy, VISIBILITY["exposed"], state.held[table.dummy])]
    if table.open_hand is not None:
        return [Zone("exposed", table.open_hand, VISIBILITY["exposed"], state.held[table.open_hand])]
    return []


def won(state, seat: int, table: Any = None) -> Zone:
    """The pile ``seat`` won this round: the cards of its tricks (``table``: the round's trick
    table, None in a climbing round, whose piles are packed rank counts)."""
    if table is not None:
        return Zone("won", seat, VISIBILITY["won"], table.taken[seat])
    return Zone("won", seat, VISIBILITY["won"], state.climb.taken[seat], RANKS)


def laid(table, seat: int) -> Zone:
    """The cards ``seat`` laid face up this round (an auction by cards laid)."""
    return Zone("laid", seat, VISIBILITY["laid"], table.laid[seat])


def drawn(state, table, seat: int) -> Zone:
    """The cards ``seat`` drew face up from the stock's top (``play.stock_top: face_up``) and
    still holds: every seat saw it take them."""
    shown = table.drawn_open[seat] if table.drawn_open is not None else 0
    return Zone("drawn", seat, VISIBILITY["drawn"], shown & state.held[seat])


def melds(table, seat: int) -> Zone:
    """The cards of the melds ``seat`` announced this round."""
    cards = 0
    for meld in table.announced[seat]:
        cards |= meld.mask
    return Zone("melds", seat, VISIBILITY["melds"], cards)


def face_up(state) -> Zone | None:
    """The card dealt face up (owned by the seat that received it), or None."""
    card = state.face_up_card
    if card is None:
        return None
    return Zone("face_up", state.face_up[1] if state.face_up is not None else None, VISIBILITY["face_up"], 1 << card)


def trick(state, table: Any = None) -> Zone:
    """The cards on the table in the trick under way (``table``: the round's trick table, None
    in a climbing round)."""
    if table is not None:
        cards = 0
        for _seat, card in table.trick:
            cards |= 1 << card
        return Zone("trick", None, VISIBILITY["trick"], cards)
    return Zone("trick", None, VISIBILITY["trick"], state.climb.trick_cards)


def zones(state) -> list[Zone]:
    """Every zone of the round under way, each seat's first (in seat order), then the trick,
    the stock drawn from, the nest and the undealt cards."""
    n = state.n
    table = _current_table(state)
    unseen = state.unseen
    out: list[Zone] = []
    in_transit: dict[int, int] = {}
    top_open = getattr(state._round.play, "top_open", False)     # cards drawn face up (play.stock_top)
    transfers = state.transfers
    if transfers.phase is not None and transfers.phase.simultaneous:
        in_transit = transfers.in_transit
    for seat in range(n):
        out.append(hand(state, seat))
        if unseen is not None:
            out.append(Zone("unseen", seat, VISIBILITY["unseen"], unseen[seat]))
        if seat in in_transit:          # handed over in a simultaneous transfer, not delivered yet
            out.append(Zone("given", seat, VISIBILITY["given"], in_transit[seat]))
        out.append(won(state, seat, table))
        if table is not None:
            out.append(laid(table, seat))
            out.append(melds(table, seat))
            if top_open:
                out.append(drawn(state, table, seat))
    out += exposed(state)
    card = face_up(state)
    if card is not None:
        out.append(card)
    out.append(trick(state, table))
    if state._round.deal.draw:          # the stock the play draws from (play.draw)
        out.append(stock(state))
    out.append(nest(state))
    out.append(Zone("undealt", None, VISIBILITY["undealt"], undealt(state)))
    return out


def seen_zones(state, seat: int) -> tuple[SeenZone, ...]:
    """What ``seat`` sees of every zone of the round under way (:func:`zones`, in its order),
    each through the one rule (:func:`sees`, :func:`counts`): a zone of a new kind is shown to
    the players as soon as :func:`zones` lists it, with no field of its own in the observation."""
    counts_of = state.game.rules.deck.counts
    out = []
    for zone in zones(state):
        cards = zone.cards
        size = cards.bit_count() if zone.form == MASK else sum(counts_of(cards))
        out.append(SeenZone(zone.name, zone.owner, cards if sees(zone, seat) else None,
                            size if counts(zone, seat) else None, zone.form))
    return tuple(out)


def stock(state) -> Zone:
    """The face-down stock a trick-taking play draws from after each trick (``play.draw``):
    every seat sees how many cards it holds, none which (the turned card under it is the
    ``face_up`` zone)."""
    cards = 0
    for card in state.stock or ():
        cards |= 1 << card
    return Zone("stock", None, VISIBILITY["stock"], cards)


def undealt(state) -> int:
    """The cards of the deck no seat was dealt, outside the nest and the face-up card (none
    where the play draws the rest from the stock)."""
    if state._round.deal.draw:
        return 0
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
