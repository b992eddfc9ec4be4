"""The phases between the deal and the play: the :class:`BiddingAndTransfers` part of
:class:`~chimera_dsl.engine.State`.

The bidding (``bidding``: levels, passes, redeals and the forced bid, or a void round, when
all pass) names the round's bidder; a transfer hands cards from one place to another (the nest to a seat, an
exchange between seats, chosen by the giver or its highest cards), one giver at a time or
all at once (``simultaneous``), and writes each gift to the record.
"""
from __future__ import annotations

from typing import Any

from ..actions import Action


class BiddingAndTransfers:
    """The methods of :class:`~chimera_dsl.engine.State` that run the bidding and the transfers.

    ``self`` is the state: its fields are declared in ``State.__slots__`` and set as a round
    starts, so the type checker reads ``self`` here as ``Any`` (as the trick-taking phases
    read their ``state``).
    """

    __slots__ = ()

    # -- bidding --------------------------------------------------------------------------------
    def _begin_bidding(self: Any, phase) -> None:
        self._to_act = self._seat(phase.opener)

    def _apply_bid(self: Any, action: Action) -> None:
        spec = self._round.bidding
        seat = self._to_act
        n = self.n
        if action.kind == "pass":
            self.bids += ((seat, None, False),)
            self._events.append({"type": "bid", "round": self.round, "seat": seat, "bid": None, "forced": False})
            self._passed.add(seat)
            if self._first_passer is None:
                self._first_passer = seat
            self._bid_passes += 1
            if self.bid is None:
                if self._bid_passes >= self.in_round:
                    self._all_passed()
                    return
            elif self._bid_passes >= spec.passes_to_close:
                self._close_bidding()
                return
        else:
            self._record_bid(seat, action.bid, False)
            if spec.top_bid_closes and action.bid >= spec.levels[-1]:
                self._close_bidding()
                return
        self._to_act = self._after[seat]

    def _record_bid(self: Any, seat: int, level: int, forced: bool) -> None:
        self.bids += ((seat, level, forced),)
        self._events.append({"type": "bid", "round": self.round, "seat": seat, "bid": level, "forced": forced})
        self.bid = level
        self.high_bidder = seat
        self._bid_passes = 0

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
        bidder = self.high_bidder
        self.bidder = bidder
        self._events.append({"type": self._round.role_word, "round": self.round, "seat": bidder, "bid": self.bid})
        others, seat = [], self._after[bidder]
        while seat != bidder:
            others.append(seat)
            seat = self._after[seat]
        self.others = tuple(others)
        self._next_phase()

    # -- transfers ------------------------------------------------------------------------------
    def _begin_transfer(self: Any, phase) -> bool:
        """Start a transfer (``phase``: a :class:`~chimera_dsl.engine.round.TransferPhase`); True when a seat
        must choose cards, False when it is done already."""
        if phase.when is not None and not phase.when.evaluate({"round": self.round, "players": self.n}):
            return False
        if phase.source == "nest":
            to = self._seat(phase.to)
            self.held[to] |= self.nest_cards
            self.hands[to] += self.nest
            self.sizes[to] += self.game.size_of(self.nest)
            self.nest_holder = to
            self._nest_shown = phase.shown
            return False
        if isinstance(phase.givers, str):
            givers = self.others            # "others": every seat but the bidder
        else:
            givers = (self._seat(phase.givers),)
        if phase.to == "next":
            if len(givers) < 2:
                return False                 # a ring of one seat hands nothing to anybody
            receivers = [givers[(i + 1) % len(givers)] for i in range(len(givers))]
        else:
            to = self._seat(phase.to)
            receivers = [to] * len(givers)
        pairs = [(g, r) for g, r in zip(givers, receivers) if g != r]
        if not pairs:
            return False
        count = phase.count if phase.count is not None else phase.count_by_bid.get(self.bid or 0, 0)
        self._transfer = phase
        self._pairs = pairs
        self._given_masks: dict[int, int] = {}
        self.exchange_count = count
        self.given = [None] * self.n
        self.received = [None] * self.n
        if count == 0:
            for giver, _ in pairs:
                self.given[giver] = 0
            self._finish_transfer()
            return False
        if phase.choose == "highest":
            deck = self.game.rules.deck
            for giver, _ in pairs:
                mask = self._highest(self.held[giver], count)
                self._give(giver, deck.key_of_mask(mask), mask)
            self._finish_transfer()
            return False
        self._to_act = pairs[0][0]
        return True

    def _highest(self: Any, held: int, count: int) -> int:
        """The ``count`` best cards of ``held``: highest rank first (then, where plays name their
        cards, the later colour of ``deck.colours``), then the later card of the deck."""
        deck = self.game.rules.deck
        if self._by_cards:          # colours rank: the best card is the highest value, then colour
            numbers = sorted(deck.numbers_of(held), key=lambda c: (deck.card_rank[c], deck.card_colour[c], c),
                             reverse=True)
        else:
            numbers = sorted(deck.numbers_of(held), key=lambda c: (deck.card_rank[c], c), reverse=True)
        return deck.mask_of(numbers[:count])

    def _give(self: Any, seat: int, key: int, mask: int | None) -> None:
        deck = self.game.rules.deck
        if mask is None:
            mask = deck.take(self.held[seat], key)
        self.given[seat] = key
        self._given_masks[seat] = mask
        self.held[seat] &= ~mask
        self.hands[seat] -= key
        self.sizes[seat] -= deck.size_of(key)
        if not self._transfer.simultaneous:
            to = dict(self._pairs)[seat]
            self._receive(to, key, mask)

    def _receive(self: Any, to: int, key: int, mask: int) -> None:
        self.held[to] |= mask
        self.hands[to] += key
        self.sizes[to] += self.game.size_of(key)
        self.received[to] = key

    def _apply_give(self: Any, action: Action, mask: int | None) -> None:
        seat = self._to_act
        self._give(seat, action.cards, mask)
        pending = [g for g, _ in self._pairs if self.given[g] is None]
        if pending:
            self._to_act = pending[0]
            return
        self._finish_transfer()
        self._next_phase()

    def _finish_transfer(self: Any) -> None:
        phase = self._transfer
        card_names = self.game.card_names
        for giver, to in self._pairs:
            key = self.given[giver]
            mask = self._given_masks.get(giver, 0)
            if phase.simultaneous:
                self._receive(to, key, mask)
            event = {"type": "exchange", "round": self.round, "from": giver, "to": to, "cards": card_names(mask)}
            if phase.name != "exchange":
                event["phase"] = phase.name
            if phase.shown:
                event["shown"] = True
            self._events.append(event)
            self._transfers_done.append((phase.name, giver, to, key, phase.shown, mask))
        self._given_masks = {}
        self._seen = [tuple(self.transfers_seen(seat)) for seat in range(self.n)]
