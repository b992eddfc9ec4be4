"""What names a round's bidder: :class:`RoundBid`, the state's ``round_bid``, new each round.

Several kinds of phase name the round's bidder (those whose entry in
:mod:`chimera_dsl.engine.phases.registry` provides ``bidder`` or ``bids``: ``bidding``,
``auction``, ``contract``, ``order_up``, ``solo``, ``bids``), and the phases after them, the
scoring, what a seat sees and the record read it: it is shared, so it is its own small
component here rather than one phase's.  Users read it through read-only views on the state
(``state.bidder``, ``state.bid``, ``state.bids``, ``state.others``, ``state.high_bidder``).
"""
from __future__ import annotations


class RoundBid:
    """The bids of one round and the bidder they named.

    ``bids``: each bid in order, ``(seat, level or None for a pass, forced)``; ``bid``: the
    standing (then the winning) level, or None; ``high_bidder``: who made it; ``bidder``: the
    seat the round's bidding named, None until a phase names one; ``others``: the seats in the
    round but the bidder, in the order of play after it (set by the kinds ``bidding`` and
    ``auction`` as they name the bidder; empty otherwise).  Every value is immutable (a write
    replaces it), so a copy is one assignment per field."""

    __slots__ = ("bids", "bid", "high_bidder", "bidder", "others")

    def __init__(self) -> None:
        self.bids: tuple = ()
        self.bid: int | None = None
        self.high_bidder: int | None = None
        self.bidder: int | None = None
        self.others: tuple[int, ...] = ()

    def copy(self) -> "RoundBid":
        """An independent copy (:meth:`State.clone <chimera_dsl.engine.State.clone>`): its
        values are immutable, so the copy takes them as they are; the five assignments are
        written out (a search clones a state per playout: one call fewer than a copier's)."""
        other = _new(RoundBid)
        other.bids = self.bids
        other.bid = self.bid
        other.high_bidder = self.high_bidder
        other.bidder = self.bidder
        other.others = self.others
        return other


_new = object.__new__
