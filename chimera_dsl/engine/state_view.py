"""What one seat may see of a game in progress: the :class:`SeatView` part of
:class:`~chimera_dsl.engine.State`.

``observation(seat)`` is the seat's view (an :class:`~chimera_dsl.engine.observation.Observation`),
``transfers_seen(seat)`` the transfers it saw, and ``resample(seat, rng)`` a whole state
consistent with what it has seen, the hidden cards dealt again at random, for searching
players.
"""
from __future__ import annotations

import functools
import operator
import random
from typing import Any

from ..errors import ChimeraError
from .observation import LazyObservation, Observation
from .phases import calls, tricks
from . import zones


_new_observation = object.__new__


class SeatView:
    """The methods of :class:`~chimera_dsl.engine.State` that tell what one seat may see.

    ``self`` is the state: its fields are declared in ``State.__slots__`` and set as a round
    starts, so the type checker reads ``self`` here as ``Any`` (as the trick-taking phases
    read their ``state``).
    """

    __slots__ = ()

    def observation(self: Any, seat: int, lazy: bool = False) -> Observation:
        """What ``seat`` may see now (raises :class:`ChimeraError` for a seat not at the table).

        ``lazy``: the fields a player reads at nearly every decision (the seat, its hand, the
        bidder and bid, the play to beat, the hand sizes, the cards played, the partner...) are
        read now and the others the first time one of them is read, from the state as it is
        then: read them before the game moves on.  A searching player's playouts ask for one
        view per decision and read few of its fields."""
        index = getattr(seat, "__index__", None)         # an int, or a numpy integer
        if index is None or not 0 <= index() < self.n:
            raise ChimeraError(f"seat {seat!r} is not at the table: seats are 0 to {self.n - 1}")
        seat = index()
        if lazy:
            lazily = _new_observation(LazyObservation)
            self._observe_first(lazily, seat)
            return lazily
        observation = _new_observation(Observation)
        self._observe_first(observation, seat)
        self._observe_rest(observation, seat)
        return observation

    def _observe_first(self: Any, observation: Observation, seat: int) -> None:
        """Set the fields of ``seat``'s observation that a lazy one reads at once."""
        rb = self.round_bid                     # the round's bids and bidder (round_bid.py)
        bidder = rb.bidder
        climb = self.climb                      # the climbing play's state (phases/climbing.py)
        partner = None
        table = self.table
        if table is not None and table.deal != self.deal_number:
            table = None                        # a trick table of an earlier round
        if table is not None:
            # a trick-taking round: the seats playing together are its sides (a team of the
            # file, the side a phase formed), not whoever is left beside the bidder
            side = tricks.side_of(self, seat)
            if len(side) == 2:
                partner = side[0] if seat == side[1] else side[1]
        elif climb.sides is not None:
            side = climb.sides[seat]            # the sides a partner phase formed (a climbing round)
            if len(side) == 2:
                partner = side[0] if seat == side[1] else side[1]
        else:
            others = rb.others
            if len(others) == 2 and seat in others:
                partner = others[0] if seat == others[1] else others[1]
        # the cards it sees, each read from its zone through the one rule of what a seat sees
        # (chimera_dsl.engine.zones): the face-up card, and in a climbing round the trick (a
        # trick-taking round's table view reads its own: public_view)
        face_up = self.face_up                  # (its rank, the seat that received it)
        if face_up is not None and not zones.shows("face_up", face_up[1], seat):
            face_up = None
        trick, last_play, last_player = climb.trick, climb.last_play, climb.last_player
        if table is None and not zones.shows("trick", None, seat):
            trick, last_play, last_player = (), None, None
        given = self.given
        if given is not None:
            given = given[seat]
        unseen = self.unseen[seat] if self.unseen is not None else 0
        # (a deal in two parts: the cards it has not seen yet are in its unseen zone)
        hand = self.game.rules.deck.key_of_mask(zones.hand(self, seat).cards) if unseen else self.hands[seat]
        observation.seat = seat
        observation.players = self.n
        observation.kind = self.kind
        observation.hand = hand
        observation.face_up = face_up
        observation.bidder = bidder
        observation.bid = rb.bid
        observation.given = given
        observation.received = self.received[seat] if self.received is not None else None
        observation.trick = trick
        observation.last_play = last_play
        observation.last_player = last_player
        observation.hand_sizes = tuple(self.sizes)
        observation.played = self.played
        observation.played_by = tuple(self.played_by)
        observation.rules = self.game.rules
        observation.partner = partner
        observation._state = self

    def _observe_rest(self: Any, observation: Observation, seat: int) -> None:
        """Set the other fields of ``seat``'s observation (those :meth:`_observe_first` leaves)."""
        rb = self.round_bid
        climb = self.climb
        table = self.table
        if table is not None and table.deal != self.deal_number:
            table = None
        # the nest, and in a climbing round the piles won, read through the rule of what a seat sees
        if table is None:
            taken = tuple(zones.seen_each("won", climb.taken, seat))
        else:
            taken = tuple(climb.taken)
        unseen = self.unseen[seat] if self.unseen is not None else 0
        observation.phase = self.phase
        observation.round = self.round
        observation.dealer = self.dealer
        observation.held = zones.hand(self, seat).cards
        observation.bids = rb.bids
        observation.exchange_count = self.exchange_count
        observation.taken = taken
        observation.totals = tuple(self.totals)
        observation.target = self.game.target
        observation.nest = self.nest if zones.sees(zones.nest(self), seat) else None
        observation.leader = self.leader
        observation.passes = climb.passes
        observation.interrupt = climb.interrupting
        observation.redeals = self.redeals
        observation.others = rb.others
        observation.direction = self.step
        observation.roles = self._round.roles
        observation.transfers = self.transfers.seen[seat] if self.transfers.seen else ()
        observation.table = tricks.public_view(self, seat) if self.table is not None else None
        observation.values = {k: tuple(v) if isinstance(v, list) else v for k, v in self.values.items()} \
            if self.values else {}
        observation.reversed = bool(climb.reversed)
        observation.out = climb.out_order if climb.out_order else ()
        observation.sitting = self.sitting
        observation.wish = self.game.rules.deck.ranks[climb.wish] if climb.wish is not None else None
        observation.give_to = self.give_to if self.kind == "transfer" and self._to_act == seat else None
        observation.calls = calls.public(self) if any(self.calls_made) else {}
        observation.unseen = unseen.bit_count() if unseen else 0

    def zones_seen(self: Any, seat: int) -> tuple:
        """What ``seat`` sees of every zone of the round now (:func:`chimera_dsl.engine.zones.seen_zones`)."""
        return zones.seen_zones(self, seat)

    def transfers_seen(self: Any, seat: int):
        """The transfers of this round that ``seat`` may see: (phase, from, to, rank key)."""
        return self.transfers.seen_by(seat)

    def resample(self: Any, seat: int, rng: random.Random) -> Any:
        """A copy of this state in which every card ``seat`` cannot know the place of is dealt
        again at random: the other hands (each keeping its size) and the unseen nest.

        What the seat has seen stays: its own hand (in a deal in two parts, the cards of it the seat
        has seen: the others are dealt again among the hidden cards), the cards played, the face-up card in its
        holder's hand, the cards it handed over or saw handed over (while they are still held),
        unless their holder has since handed cards over unseen by the seat.
        Search players imagine the hidden cards this way (determinization); the copy plays on
        like any state, but a replay's deal iterator is not carried over, and its later deals
        (a redeal, the next round) come from a seed drawn from ``rng``, not the game's.
        """
        world = self.clone()
        world._deals = None
        world.seed = rng.getrandbits(63)        # later shuffles (a redeal, the next round) are imagined too
        deck = self.game.rules.deck
        # cards whose holder the seat knows, per holder: first the face-up card it saw dealt
        known = zones.known_holders(self, seat, ("face_up",))
        transfers = self.transfers
        for _phase, giver, to, _key, shown, mask in transfers.done:
            if shown or seat in (giver, to):   # the seat saw these cards move
                known[giver] &= ~mask
                known[to] |= mask
            else:
                # a gift the seat did not see: any card it knew in the giver's hand may have gone
                # (judging by where the cards really are would read what the seat cannot see)
                known[giver] = 0
        table = getattr(self, "table", None)
        if table is not None and table.deal != self.deal_number:
            table = None
        lacks = [0] * self.n                    # cards a seat showed it does not hold (trick-taking)
        if table is not None:
            # cards laid face up, cards of announced melds, a dummy's cards face up for all:
            # the zones of a seat's cards that the seat sees stay with their holder
            for other, mask in enumerate(zones.known_holders(self, seat, ("laid", "melds", "exposed", "drawn"))):
                known[other] |= mask
                lacks[other] = table.lacks[other]
        pool = 0
        slots = []
        unseen = self.unseen
        for other in range(self.n):
            if other == seat:
                if unseen is not None and unseen[seat]:
                    # a deal in two parts: the cards it has not seen yet are among the hidden ones
                    pool |= unseen[seat]
                    sure = self.held[seat] & ~unseen[seat]
                    slots.append((seat, sure, bin(unseen[seat]).count("1")))
                continue
            sure = known[other] & self.held[other]
            pool |= self.held[other] & ~sure
            slots.append((other, sure, deck.size_of(self.hands[other]) - bin(sure).count("1")))
        nest_seen = self.nest_holder is not None and (self.nest_holder == seat or self._nest_shown)
        # a solo phase's declarer lays cards away as the new stock, out of every hand: hidden
        # from the other seats as the stock was
        laid_away = table is not None and getattr(table, "solo", None) is not None
        nest_hidden = (self.nest_holder is None or (laid_away and not nest_seen)) and self.nest_cards
        if nest_hidden:
            pool |= self.nest_cards
        # cards handed over in a simultaneous transfer not yet delivered: in nobody's hand, and
        # unseen by the seat unless it gave them
        in_transit = {g: m for g, m in transfers.in_transit.items() if g != seat and m}
        for mask in in_transit.values():
            pool |= mask
        stock = getattr(self, "stock", None) or ()    # a deal completed later: its stock, unseen by all
        for card in stock:
            pool |= 1 << card
        cards = deck.numbers_of(pool)
        rng.shuffle(cards)
        if any(lacks[other] & pool for other, _sure, _count in slots):
            cards = _deal_lacking(cards, [(count, lacks[other]) for other, _sure, count in slots], rng)
        at = 0
        for other, sure, count in slots:
            mask = sure | deck.mask_of(cards[at:at + count])
            at += count
            world.held[other] = mask
            world.hands[other] = deck.key_of_mask(mask)
        for giver, was in in_transit.items():
            count = bin(was).count("1")
            mask = deck.mask_of(cards[at:at + count])
            at += count
            world.transfers.in_transit[giver] = mask
            world.given[giver] = deck.key_of_mask(mask)
            # the giver's gifts of this phase, one per receiver: as many of the imagined cards each
            numbers = deck.numbers_of(mask)
            imagined = world.transfers
            for i, (g, _to) in enumerate(imagined.pairs):
                if g == giver and imagined.masks[i]:
                    k = bin(imagined.masks[i]).count("1")
                    imagined.masks[i] = deck.mask_of(numbers[:k])
                    imagined.keys[i] = deck.key_of_mask(imagined.masks[i])
                    numbers = numbers[k:]
        if stock:                                # the stock in an imagined order
            world.stock = tuple(cards[at:at + len(stock)])
            at += len(stock)
        if unseen is not None:
            # each seat's unseen cards in the world: the seat's own, those just dealt to it; another's,
            # as many of its cards the seat cannot place (which of them it has seen, the seat cannot know)
            world_unseen = list(unseen)
            for other, sure, count in slots:
                if other == seat:
                    world_unseen[other] = world.held[other] & ~sure
                elif unseen[other]:
                    free = deck.numbers_of(world.held[other] & ~sure)
                    rng.shuffle(free)
                    world_unseen[other] = deck.mask_of(free[:bin(unseen[other]).count("1")])
            world.unseen = tuple(world_unseen)
        if table is not None:
            # an auction keeps each seat's cards not laid yet: those of the imagined hands now
            free = world.table.free_cards
            for other, _sure, _count in slots:
                cards_free = world.held[other] & ~table.laid[other]
                free[other] = (cards_free, tuple(deck.numbers_of(cards_free)))
        self._imagine_unseen_transfers(world, seat, known, rng)
        if nest_hidden:
            world.nest_cards = deck.mask_of(cards[at:])
            world.nest = deck.key_of_mask(world.nest_cards)
        elif not nest_seen and self.nest_holder is not None:
            # the nest is inside its holder's hand, dealt above: imagine which of its cards it was
            holder = self.nest_holder
            free = deck.numbers_of(world.held[holder] & ~known[holder])
            rng.shuffle(free)
            world.nest_cards = deck.mask_of(free[:deck.size_of(self.nest)])
            world.nest = deck.key_of_mask(world.nest_cards)
        if table is not None and table.first_order and not table.pair_shown and table.pair_holder != seat:
            # who holds the trump pair is hidden until shown: read it from the imagined hands
            world.table.pair_holder = next(
                (s for s in range(self.n) if s != seat and table.pair_cards
                 and (world.held[s] | table.played_by[s]) & table.pair_cards == table.pair_cards), None)
        world.events = []                        # an imagined state has no record
        world._legal = None
        return world

    def _imagine_unseen_transfers(self: Any, world: Any, seat: int, known: list, rng: random.Random) -> None:
        """In ``world``, replace the cards of each finished transfer ``seat`` did not see by
        cards its receiver holds in the world (those the seat cannot place first), so that the
        imagined players' own views of their gifts tell nothing of the real ones."""
        deck = self.game.rules.deck
        done = list(world.transfers.done)
        changed = False
        latest = self.transfers.phase.name if self.transfers.phase is not None else None
        for i, (phase, giver, to, _key, shown, was) in enumerate(done):
            if shown or seat in (giver, to):
                continue
            count = bin(was).count("1")
            free = deck.numbers_of(world.held[to] & ~known[to])
            rng.shuffle(free)
            rest = deck.numbers_of(world.held[to] & known[to])
            rng.shuffle(rest)
            chosen = (free + rest)[:count]
            if len(chosen) < count:         # the receiver has played some: any card out of every hand
                out = deck.full_mask & ~(functools.reduce(operator.or_, world.held, 0) | (world.nest_cards or 0)) & ~deck.mask_of(chosen)
                spare = deck.numbers_of(out)
                rng.shuffle(spare)
                chosen += spare[:count - len(chosen)]
            mask = deck.mask_of(chosen)
            key = deck.key_of_mask(mask)
            done[i] = (phase, giver, to, key, shown, mask)
            changed = True
            if phase == latest and world.given is not None:
                world.given[giver] = key
                world.received[to] = key
        if changed:
            world.transfers.done = done
            world.transfers.seen = [tuple(world.transfers_seen(s)) for s in range(world.n)]


def _deal_lacking(cards: list, slots: list, rng: random.Random, tries: int = 20) -> list:
    """``cards`` (shuffled) reordered so that dealing them in order, ``count`` to each of
    ``slots`` (``(count, lacking mask)``; the cards past them go on, unconstrained), gives no
    slot a card it lacks: the cards fewest slots may take are placed first, each to a slot with
    room drawn in proportion to that room.  When no such deal is found in ``tries`` attempts
    (or none exists), the cards as they were."""
    spare = len(cards) - sum(count for count, _ in slots)
    if spare < 0:
        return cards
    slots = list(slots) + [(spare, 0)]
    options = {c: [i for i, (_count, lacking) in enumerate(slots) if not lacking >> c & 1] for c in cards}
    order = sorted(cards, key=lambda c: len(options[c]))        # stable: the shuffle breaks ties
    for _ in range(tries):
        room = [count for count, _ in slots]
        dealt: list[list] = [[] for _ in slots]
        for c in order:
            open_ = [i for i in options[c] if room[i]]
            if not open_:
                break
            pick = rng.random() * sum(room[i] for i in open_)
            for i in open_:
                pick -= room[i]
                if pick < 0:
                    break
            room[i] -= 1
            dealt[i].append(c)
        else:
            return [c for part in dealt for c in part]
        rng.shuffle(order)
        order.sort(key=lambda c: len(options[c]))
    return cards
