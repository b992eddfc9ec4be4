"""A deal in two parts (``deal.first``, ``deal.rest_after``): every seat is dealt its whole hand
at once, but sees only the first ``first`` cards dealt to it until the phase ``rest_after`` is
over; a decision between the two (a call, a bid) is taken on those cards alone.

The deal's line of the record keeps every card (and, in ``first``, the cards each seat saw
first), so a replay deals the same; when the rest is seen the state writes
``{"type": "rest_seen", "round": N}``.  While cards are unseen, the seat's observation holds
only those it has seen (:meth:`State.observation <chimera_dsl.engine.State.observation>`) and
a searching player imagines the unseen ones among the hidden cards
(:meth:`State.resample <chimera_dsl.engine.State.resample>`).
"""
from __future__ import annotations

from typing import Any

from ..actions import Deal, TwoPartDeal, first_seen


def with_first(phase: Any, deal: Deal, numbers: list) -> TwoPartDeal:
    """``deal`` with the cards each seat sees first: those it names (a shuffled deal, a record:
    a :class:`TwoPartDeal`), else each hand's first ``phase.first`` cards in deck order (a deal
    given as hands alone)."""
    given = first_seen(deal)
    if given is not None:
        first = [f & h for f, h in zip(given, deal.hands)]
    else:
        first = []
        for seat, hand in enumerate(deal.hands):
            mine = numbers[seat][:phase.first] if seat < len(numbers) else ()
            first.append(sum(1 << c for c in mine) & hand)
    return TwoPartDeal(deal.hands, deal.nest, deal.face_up, first)


def unseen_of(deal: TwoPartDeal) -> tuple[int, ...]:
    """Per seat, the cards of its hand it does not see yet."""
    return tuple(hand & ~first for hand, first in zip(deal.hands, deal.first))


def see_the_rest(state: Any) -> None:
    """Every seat sees its whole hand from now on."""
    state.unseen = None
    state._events.append({"type": "rest_seen", "round": state.round})


def seen(state: Any, seat: int) -> int:
    """The cards ``seat`` holds and has seen (a mask)."""
    held = state.held[seat]
    unseen = state.unseen
    return held if unseen is None else held & ~unseen[seat]
