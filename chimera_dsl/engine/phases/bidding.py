"""The phases between the deal and the play: the :class:`BiddingAndTransfers` part of
:class:`~chimera_dsl.engine.State`.

The bidding (``bidding``: levels, passes, redeals and the forced bid, or a void round, when
all pass) names the round's bidder; a transfer hands cards from one place to another (the nest to a seat, an
exchange between seats, chosen by the giver or its highest cards), one giver at a time or
all at once (``simultaneous``), and writes each gift to the record.
"""
from __future__ import annotations

from typing import Any

from ..actions import PASS, Action
from ..seats import _moved


class BiddingAndTransfers:
    """The methods of :class:`~chimera_dsl.engine.State` that run the bidding and the transfers.

    ``self`` is the state: its fields are declared in ``State.__slots__`` and set as a round
    starts, so the type checker reads ``self`` here as ``Any`` (as the trick-taking phases
    read their ``state``).
    """

    __slots__ = ()

    # -- bidding --------------------------------------------------------------------------------
    def _begin_bidding(self: Any, phase) -> bool:
        self._to_act = self._seat(phase.opener)
        return True

    def _bidding_legal(self: Any, phase) -> list[Action]:
        """A pass, then every level above the current bid (a pass alone for a seat that passed,
        unless the bidding lets it come back)."""
        if not self._round.bidding.reenter_after_pass and self._to_act in self._passed:
            return [PASS]
        current = self.bid
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
            current = self.bid
            if action.bid not in levels:
                return f"{action.bid} is not a bid level ({', '.join(map(str, levels))})"
            if current is not None and action.bid <= current:
                return f"a bid of {action.bid} does not exceed the current bid of {current}"
            return f"seat {seat} passed and may not bid again"
        return f"a {action.kind} is not an action of the bidding (bid or pass)"

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
        if phase.givers == "each":         # every seat in the round, from the dealer's next
            givers: tuple = (self._after[self.dealer],)
            while len(givers) < self.in_round:
                givers += (self._after[givers[-1]],)
        elif isinstance(phase.givers, str):
            givers = self.others            # "others": every seat but the bidder
        else:
            givers = (self._seat(phase.givers),)
        if phase.to == "each_other":       # each giver to every other seat in the round, in order of play
            pairs = [(g, r) for g in givers for r in self._after_order(g)]
        elif isinstance(phase.to, tuple):    # left, right or across, perhaps by round
            direction = phase.to[(self.round - 1) % len(phase.to)]
            if direction == "none":
                return False
            pairs = [(g, self._beside(g, direction)) for g in givers]
        elif phase.to == "next":
            if len(givers) < 2:
                return False                 # a ring of one seat hands nothing to anybody
            pairs = [(g, givers[(i + 1) % len(givers)]) for i, g in enumerate(givers)]
        else:
            to = self._seat(phase.to)
            pairs = [(g, to) for g in givers]
        pairs = [(g, r) for g, r in pairs if g != r]
        if not pairs:
            return False
        count = phase.count if phase.count is not None else phase.count_by_bid.get(self.bid or 0, 0)
        self._transfer = phase
        self._pairs = pairs
        self._pair_at = 0                  # the pair whose giver chooses now
        self._pair_keys: list = [None] * len(pairs)
        self._pair_masks: list = [0] * len(pairs)
        self._given_masks: dict[int, int] = {}
        self.exchange_count = count
        self.given = [None] * self.n
        self.received = [None] * self.n
        if count == 0:
            for i, (giver, _) in enumerate(pairs):
                self.given[giver] = 0
                self._pair_keys[i] = 0
            self._finish_transfer()
            return False
        if phase.choose == "highest":
            deck = self.game.rules.deck
            for i, (giver, _) in enumerate(pairs):
                mask = self._highest(self.held[giver], count)
                self._give(i, deck.key_of_mask(mask), mask)
            self._finish_transfer()
            return False
        self._to_act = pairs[0][0]
        return True

    def _beside(self: Any, seat: int, direction: str) -> int:
        """The seat on the left of ``seat`` (the next clockwise), on its right, or across the table
        (half the seats of the round away), among the seats in the round."""
        if direction == "across":
            for _ in range(self.in_round // 2):
                seat = _moved(self, seat, 1)
            return seat
        return _moved(self, seat, 1 if direction == "left" else -1)

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

    def _give(self: Any, pair: int, key: int, mask: int | None) -> None:
        """The giver of pair number ``pair`` hands over ``key`` (the very cards ``mask``)."""
        deck = self.game.rules.deck
        seat, to = self._pairs[pair]
        if mask is None:
            mask = deck.take(self.held[seat], key)
        given = self.given[seat]
        self.given[seat] = key if given is None else given + key
        self._given_masks[seat] = self._given_masks.get(seat, 0) | mask
        self._pair_keys[pair] = key
        self._pair_masks[pair] = mask
        self.held[seat] &= ~mask
        self.hands[seat] -= key
        self.sizes[seat] -= deck.size_of(key)
        if not self._transfer.simultaneous:
            self._receive(to, key, mask)

    def _receive(self: Any, to: int, key: int, mask: int) -> None:
        self.held[to] |= mask
        self.hands[to] += key
        self.sizes[to] += self.game.size_of(key)
        received = self.received[to]
        self.received[to] = key if received is None else received + key

    @property
    def give_to(self: Any) -> int | None:
        """The seat the current gift goes to (a transfer phase), else None."""
        if self.kind != "transfer" or self._transfer is None:
            return None
        return self._pairs[self._pair_at][1]

    def _transfer_legal(self: Any, phase) -> list[Action]:
        """The gifts of ``exchange_count`` cards the seat to act may choose."""
        seat = self._to_act
        if self.game.gives_cards:
            return self.game.card_give_actions(self.held[seat], self.exchange_count)
        return self.game.give_actions(self.hands[seat], self.exchange_count)

    def _why_give_illegal(self: Any, phase, action: Action) -> str:
        if action.kind == "give":
            cards = action.cards if isinstance(action.cards, int) else 0
            return (f"seat {self._to_act} must give exactly {self.exchange_count} card(s) from its hand, "
                    f"not {' '.join(self.game.rules.deck.names_of(cards)) or 'none'}")
        return f"a {action.kind} is not an action of the {self.phase} (give)"

    def _apply_give(self: Any, action: Action, mask: int | None) -> None:
        self._give(self._pair_at, action.cards, mask)
        pending = [i for i, key in enumerate(self._pair_keys) if key is None]
        if pending:
            self._pair_at = pending[0]
            self._to_act = self._pairs[pending[0]][0]
            return
        self._finish_transfer()
        self._next_phase()

    def _finish_transfer(self: Any) -> None:
        phase = self._transfer
        card_names = self.game.card_names
        for (giver, to), key, mask in zip(self._pairs, self._pair_keys, self._pair_masks):
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
