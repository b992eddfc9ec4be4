"""The bidding: the :class:`BiddingAndTransfers` part of :class:`~chimera_dsl.engine.State`.

The bidding (``bidding``: levels, passes, redeals and the forced bid, or a void round, when
all pass) names the round's bidder.  The transfers that may follow it are their own module,
:mod:`chimera_dsl.engine.phases.transfers`, with their own state.
"""
from __future__ import annotations

from typing import Any

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


class BiddingAndTransfers:
    """The methods of :class:`~chimera_dsl.engine.State` that run the bidding (the name is kept
    for those who import it; the transfers are :mod:`chimera_dsl.engine.phases.transfers`).

    ``self`` is the state: its fields are declared in ``State.__slots__`` and set as a round
    starts, so the type checker reads ``self`` here as ``Any`` (as the trick-taking phases
    read their ``state``).
    """

    __slots__ = ()

    # -- bidding --------------------------------------------------------------------------------
    def _begin_bidding(self: Any, phase) -> bool:
        if self._bidding is NOT_YET:
            self._bidding = Bidding()
        self._to_act = self._seat(phase.opener)
        return True

    def _bidding_legal(self: Any, phase) -> list[Action]:
        """A pass, then every level above the current bid (a pass alone for a seat that passed,
        unless the bidding lets it come back)."""
        if not self._round.bidding.reenter_after_pass and self._to_act in self._bidding.passed:
            return [PASS]
        current = self.round_bid.bid
        out = [PASS]
        for level, action in self.game.bid_actions.items():
            if current is None or level > current:
                out.append(action)
        return out

    def _take_bid(self: Any, action: Action, mask: int | None) -> None:
        self._apply_bid(action)

    def _why_bid_illegal(self: Any, phase, action: Action) -> str:
        seat = self._to_act
        levels = self._round.bidding.levels
        if action.kind == "bid":
            current = self.round_bid.bid
            if action.bid not in levels:
                return f"{action.bid} is not a bid level ({', '.join(map(str, levels))})"
            if current is not None and action.bid <= current:
                return f"a bid of {action.bid} does not exceed the current bid of {current}"
            return f"seat {seat} passed and may not bid again"
        return f"a {action.kind} is not an action of the bidding (bid or pass)"

    def _apply_bid(self: Any, action: Action) -> None:
        spec = self._round.bidding
        seat = self._to_act
        if action.kind == "pass":
            rb = self.round_bid
            rb.bids += ((seat, None, False),)
            self._events.append({"type": "bid", "round": self.round, "seat": seat, "bid": None, "forced": False})
            self._bidding.passed.add(seat)
            if self._bidding.first_passer is None:
                self._bidding.first_passer = seat
            self._bidding.passes += 1
            if rb.bid is None:
                if self._bidding.passes >= self.in_round:
                    self._all_passed()
                    return
            elif self._bidding.passes >= spec.passes_to_close:
                self._close_bidding()
                return
        else:
            self._record_bid(seat, action.bid, False)
            if spec.top_bid_closes and action.bid >= spec.levels[-1]:
                self._close_bidding()
                return
        self._to_act = self._after[seat]

    def _record_bid(self: Any, seat: int, level: int, forced: bool) -> None:
        rb = self.round_bid
        rb.bids += ((seat, level, forced),)
        self._events.append({"type": "bid", "round": self.round, "seat": seat, "bid": level, "forced": forced})
        rb.bid = level
        rb.high_bidder = seat
        self._bidding.passes = 0

    def _all_passed(self: Any) -> None:
        spec = self._round.bidding
        if self.redeals < spec.redeals_before_forced:
            self.redeals += 1
            self._events.append({"type": "redeal", "round": self.round, "dealer": self.dealer})
            self._start_round(redeal=True)
            return
        if spec.void_when_all_pass:
            self._void_round()
            return
        seat = self._seat(spec.forced_bidder)
        self._record_bid(seat, spec.forced_bid, True)
        if spec.forced_bid_closes or (spec.top_bid_closes and spec.forced_bid >= spec.levels[-1]):
            self._close_bidding()
            return
        self._to_act = self._after[seat]

    def _close_bidding(self: Any) -> None:
        rb = self.round_bid
        bidder = rb.bidder = rb.high_bidder
        self._events.append({"type": self._round.role_word, "round": self.round, "seat": bidder, "bid": rb.bid})
        others, seat = [], self._after[bidder]
        while seat != bidder:
            others.append(seat)
            seat = self._after[seat]
        rb.others = tuple(others)
        self._next_phase()

