"""A deal completed after a phase (``deal.complete``): each seat is dealt ``deal.hand`` cards,
the rest stays in a face-down stock in the order the shuffle left it, and once the phase
``complete.after`` is over the stock is dealt on, from the seat after the dealer in the direction
of play, each seat in turn receiving what it lacks of ``complete.hand`` cards.  A seat that took
a card meanwhile (the turned card, picked up in an ``order_up`` phase) receives one card fewer.

The deal's line of the record names the stock in its order (``stock``), so a replay deals the same
cards; when the rest is dealt the state writes ``{"type": "rest_dealt", "round": N, "hands":
[[cards], ...]}``, each seat's new cards.  Nobody sees the stock before then: a searching player
imagines its order among the hidden cards (:meth:`State.resample
<chimera_dsl.engine.State.resample>`).
"""
from __future__ import annotations

from typing import Any

from ..actions import Deal


class StockDeal(Deal):
    """A deal completed after a phase: a :class:`Deal` (its three fields, unpacked and compared as
    one) that also says, in ``stock``, the undealt cards in the order they will be dealt (card numbers)."""

    stock: tuple[int, ...]

    def __new__(cls, hands, nest, face_up, stock):
        deal = tuple.__new__(cls, (hands, nest, face_up))
        deal.stock = tuple(stock)
        return deal

    def __repr__(self) -> str:
        return f"StockDeal(hands={self.hands!r}, nest={self.nest!r}, face_up={self.face_up!r}, stock={self.stock!r})"


def stock_of(deal: Deal) -> tuple[int, ...] | None:
    """The stock of ``deal`` in its order (a :class:`StockDeal`), else None."""
    return getattr(deal, "stock", None)


def with_stock(deal: Deal, deck) -> StockDeal:
    """``deal`` with its stock: the one it names (a shuffled deal, a record), else the cards in no
    hand, not in the nest and not turned up, in deck order (a deal given as hands alone)."""
    given = stock_of(deal)
    if given is not None:
        return deal if isinstance(deal, StockDeal) else StockDeal(deal.hands, deal.nest, deal.face_up, given)
    used = deal.nest
    for hand in deal.hands:
        used |= hand
    if deal.face_up is not None:
        used |= 1 << deal.face_up[0]
    return StockDeal(deal.hands, deal.nest, deal.face_up, deck.numbers_of(deck.full_mask & ~used))


def complete(state: Any) -> None:
    """Deal the stock on: from the seat after the dealer, each seat what it lacks of the hand."""
    spec = state._round.deal
    keys = state.game._card_keys              # per card, its packed rank count
    deck = state.game.rules.deck
    stock = list(state.stock or ())
    dealt: list[list[int]] = [[] for _ in range(state.n)]
    seat = state.dealer
    for _ in range(state.n):
        seat = (seat + state.step) % state.n
        lack = max(0, spec.complete_hand - state.sizes[seat])
        mine, stock = stock[:lack], stock[lack:]
        for card in mine:
            state.held[seat] |= 1 << card
            state.hands[seat] += keys[card]
        state.sizes[seat] += len(mine)
        dealt[seat] = sorted(mine)
    state.stock = tuple(stock)
    state._events.append({"type": "rest_dealt", "round": state.round,
                          "hands": [[deck.card_names[c] for c in cards] for cards in dealt]})
