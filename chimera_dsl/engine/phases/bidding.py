"""The bidding, a kind of phase (``bidding``: levels, passes, redeals and the forced bid, or a
void round, when all pass), which names the round's bidder.

Its own progress in a round is a :class:`Bidding` (the state's ``_bidding``); what it gives the
round is the state's ``round_bid`` (:class:`~chimera_dsl.engine.round_bid.RoundBid`).  The phase
is the module's functions :func:`begin`, :func:`legal`, :func:`why_illegal` and :func:`take`,
which the registry of kinds (:mod:`chimera_dsl.engine.phases.registry`) calls with the state,
as it calls every kind's.  The transfers that may follow it are their own module,
:mod:`chimera_dsl.engine.phases.transfers`, with their own state.
"""
from __future__ import annotations

from ..actions import PASS, Action


class Bidding:
    """The bidding's own state in one round (the state's ``_bidding``, new each round): the
    passes in a row (``passes``), the seats that passed (``passed``) and the first of them
    (``first_passer``).  What the bidding gives the round (``bids``, ``bid``, ``high_bidder``,
    ``bidder``, ``others``) is the state's ``round_bid``
    (:class:`~chimera_dsl.engine.round_bid.RoundBid`), which the other kinds that name a
    bidder write too and the scoring and the play read."""

    __slots__ = ("passes", "passed", "first_passer")

    def __init__(self) -> None:
        self.passes = 0
        self.passed: set = set()
        self.first_passer: int | None = None

    def copy(self) -> "Bidding":
        """An independent copy (for a state's clone; the shared :data:`NOT_YET` is itself)."""
        if self is NOT_YET:
            return self
        other = Bidding()
        other.passes, other.passed, other.first_passer = self.passes, set(self.passed), self.first_passer
        return other


NOT_YET = Bidding()
"""The bidding of a round before its bidding phase begins: shared by every state, never changed
(the phase gives the state its own as it begins), so that a round without bidding costs nothing."""


def begin(state, phase) -> bool:
    """The bidding begins: its own state for the round, the opener to act."""
    if state._bidding is NOT_YET:
        state._bidding = Bidding()
    state._to_act = state._seat(phase.opener)
    return True


def legal(state, phase) -> list[Action]:
    """A pass, then every level above the current bid (a pass alone for a seat that passed,
    unless the bidding lets it come back)."""
    if not state._round.bidding.reenter_after_pass and state._to_act in state._bidding.passed:
        return [PASS]
    current = state.round_bid.bid
    out = [PASS]
    for level, action in state.game.bid_actions.items():
        if current is None or level > current:
            out.append(action)
    return out


def take(state, action: Action, mask: int | None) -> None:
    """A bid or a pass of the seat to act (``mask``: unused, a bid names no cards)."""
    spec = state._round.bidding
    seat = state._to_act
    bidding = state._bidding
    if action.kind == "pass":
        rb = state.round_bid
        rb.bids += ((seat, None, False),)
        state._events.append({"type": "bid", "round": state.round, "seat": seat, "bid": None, "forced": False})
        bidding.passed.add(seat)
        if bidding.first_passer is None:
            bidding.first_passer = seat
        bidding.passes += 1
        if rb.bid is None:
            if bidding.passes >= state.in_round:
                _all_passed(state)
                return
        elif bidding.passes >= spec.passes_to_close:
            _close(state)
            return
    else:
        _record(state, seat, action.bid, False)
        if spec.top_bid_closes and action.bid >= spec.levels[-1]:
            _close(state)
            return
    state._to_act = state._after[seat]


def why_illegal(state, phase, action: Action) -> str:
    """Why ``action`` is not a legal bid now."""
    seat = state._to_act
    levels = state._round.bidding.levels
    if action.kind == "bid":
        current = state.round_bid.bid
        if action.bid not in levels:
            return f"{action.bid} is not a bid level ({', '.join(map(str, levels))})"
        if current is not None and action.bid <= current:
            return f"a bid of {action.bid} does not exceed the current bid of {current}"
        return f"seat {seat} passed and may not bid again"
    return f"a {action.kind} is not an action of the bidding (bid or pass)"


def _record(state, seat: int, level: int, forced: bool) -> None:
    rb = state.round_bid
    rb.bids += ((seat, level, forced),)
    state._events.append({"type": "bid", "round": state.round, "seat": seat, "bid": level, "forced": forced})
    rb.bid = level
    rb.high_bidder = seat
    state._bidding.passes = 0


def _all_passed(state) -> None:
    """Every seat passed: a redeal, a void round, or the forced bid, as the file says."""
    spec = state._round.bidding
    if state.redeals < spec.redeals_before_forced:
        state.redeals += 1
        state._events.append({"type": "redeal", "round": state.round, "dealer": state.dealer})
        state._start_round(redeal=True)
        return
    if spec.void_when_all_pass:
        state._void_round()
        return
    seat = state._seat(spec.forced_bidder)
    _record(state, seat, spec.forced_bid, True)
    if spec.forced_bid_closes or (spec.top_bid_closes and spec.forced_bid >= spec.levels[-1]):
        _close(state)
        return
    state._to_act = state._after[seat]


def _close(state) -> None:
    """The bidding ends: the high bidder is the round's bidder, the other seats its others."""
    rb = state.round_bid
    bidder = rb.bidder = rb.high_bidder
    state._events.append({"type": state._round.role_word, "round": state.round, "seat": bidder, "bid": rb.bid})
    others, seat = [], state._after[bidder]
    while seat != bidder:
        others.append(seat)
        seat = state._after[seat]
    rb.others = tuple(others)
    state._next_phase()
