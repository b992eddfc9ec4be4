"""An auction by cards laid face up, and a partner named by the auction's winner.

Two kinds of phase for trick-taking rounds (see :mod:`chimera_dsl.engine.phases.tricks`):

* ``auction``: in turn, each seat lays cards of its hand face up (they stay in the hand, and
  everyone sees them) or passes; a seat may pass and lay again later.  A lay may bring the
  seat's count to at most ``limit`` more than the best count so far (its own included), and
  ``per_turn`` caps the cards of one turn.  The auction ends when every seat has passed in a
  row.  The seat that laid most takes the role ``bidder`` (the bid is its count); when several
  share the most, the round is a *dispute*: ``dispute.gain`` points per card laid to each of
  them (``gainers: tied``) or to every seat (``all``), except the last of them to have laid,
  who loses ``dispute.loss`` per card; the cards are dealt again.  Otherwise the seat that
  laid most among the others takes the role ``second`` (from ``second_from`` players), ties
  broken by its highest laid card, then the next...; still tied, nobody does.
* ``partner``: the bidder names a partner among the seats not excluded (the second's role,
  say); the bidder and the partner form one side, the other seats the other.
"""
from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Any

from ..actions import PASS, Action, _new_action
from ...cards import bit_numbers
from ...errors import IllegalActionError, Problem, VariantError
from .tricks import _play_spec, table_of, twin_mask


@dataclass(frozen=True)
class AuctionPhase:
    """The auction by cards laid face up (see the module's text)."""

    name: str
    opener: Any                        # a SeatExpr
    limit: int                         # a seat's count may exceed the best count by at most this
    per_turn: int | None               # cards one turn may lay (None: no cap but the limit)
    second: str | None                 # the role of the runner-up
    second_from: int                   # players needed for a runner-up
    gain: int
    loss: int
    gainers: str                       # tied | all
    kind: str = "auction"


@dataclass(frozen=True)
class PartnerPhase:
    """The bidder names a partner."""

    name: str
    excluded: tuple[str, ...]          # roles whose seats may not be named
    role: str
    when: Any = None                   # a compiled condition on round and players, or None
    kind: str = "partner"


def _bad(path: tuple, message: str, hint: str | None = None):
    raise VariantError([Problem(f"{'.'.join(map(str, path))} {message}", tuple(path), hint=hint)])


def compile_auction(r, path: tuple, section: dict, roles: tuple) -> AuctionPhase:
    """An ``auction`` phase of the file."""
    second = section.get("second")
    if second is not None and str(second) not in roles:
        _bad(path + ("second",), f"names the role '{second}', which roles: does not define",
             "add it to roles:, e.g. roles: {" + f"{second}: ..." + "}")
    dispute = section.get("dispute") or {}
    per_turn = section.get("per_turn")
    return AuctionPhase(path[-1], r.seat(path + ("opener",), roles, default="dealer"),
                        int(section.get("limit", 1)), None if per_turn is None else int(per_turn),
                        None if second is None else str(second), int(section.get("second_from", 0)),
                        int(dispute.get("gain", 0)), int(dispute.get("loss", 0)), str(dispute.get("gainers", "tied")))


def compile_partner(r, path: tuple, section: dict, roles: tuple) -> PartnerPhase:
    """A ``partner`` phase of the file."""
    excluded = tuple(str(x) for x in (section.get("excluded") or []))
    for i, role in enumerate(excluded):
        if role not in roles:
            _bad(path + ("excluded", i), f"names the role '{role}', which roles: does not define")
    role = str(section.get("role", "partner"))
    if role not in roles:
        _bad(path + ("role",), f"names the role '{role}', which roles: does not define",
             "add it to roles:, e.g. roles: {partner: partner}")
    when = r.condition(path + ("when",), section.get("when"))
    return PartnerPhase(path[-1], excluded, role, when)


def _count(mask: int) -> int:
    return mask.bit_count()


# -- the engine's hooks (the state calls them by kind: chimera_dsl.engine.phases.registry) ---------------------------

def begin(state, phase) -> bool:
    """Begin the phase; False when there is nothing to decide."""
    if phase.kind == "auction":
        table = table_of(state)
        n = state.n
        table.auction_passes = 0
        table.lay_order = [0] * n
        table.lay_counts = [0] * n
        table.lay_best = 0
        table.lay_top = phase.limit
        table.next_seat = _NEXT.get((state.step, n)) or _next_seats(state.step, n)
        table.lays = 0
        table.auction = phase
        table.log = None
        table.lay_cap = _NO_CAP if phase.per_turn is None else phase.per_turn
        # (free mask, its card numbers) per seat: what play_turn keeps as the seats lay
        laid = table.laid
        numbers = state._hand_numbers
        if not any(laid) and numbers and [held for held, _ in numbers] == state.held:
            table.free_cards = list(numbers)              # the hands as dealt (a new deal)
        else:
            table.free_cards = [(held & ~laid[s], numbers[s][1] if numbers and numbers[s][0] == held and not laid[s]
                                 else tuple(bit_numbers(held & ~laid[s]))) for s, held in enumerate(state.held)]
        state._to_act = seat = state._seat(phase.opener)
        state._legal = _turn(state, table, phase, seat)
        return True
    if phase.when is not None and not phase.when.evaluate({"round": state.round, "players": state.n}):
        return False
    bidder = state.round_bid.bidder
    if bidder is None:
        return False
    if not _candidates(state, phase):
        return False
    state._to_act = bidder
    return True


_NEXT: dict[tuple[int, int], tuple[int, ...]] = {}     # per (direction, players): the seat after each


def _next_seats(step: int, n: int) -> tuple[int, ...]:
    found = _NEXT[(step, n)] = tuple((s + step) % n for s in range(n))
    return found


def _role_seats(state) -> dict:
    """The roles the round's phases gave: at the trick table, or on the state (a climbing round)."""
    return table_of(state).role_seats if state._play_spec.kind == "tricks" else state.climb.role_seats


def _candidates(state, phase: PartnerPhase) -> list[int]:
    barred = {_role_seats(state).get(role) for role in phase.excluded} | {state.round_bid.bidder, state.sitting}
    return [s for s in range(state.n) if s not in barred]


def legal(state, phase):
    """The legal actions of the seat to act (an auction's turn: a :class:`Lays`)."""
    seat = state._to_act
    if phase.kind == "partner":
        return [Action("partner", cards=s) for s in _candidates(state, phase)]
    return _turn(state, state.table, phase, seat)


def _turn(state, table, phase: AuctionPhase, seat: int) -> "Lays":
    """The lays of ``seat``'s turn: its cards not laid yet, up to the room the counts leave
    (:func:`play_turn` makes the next turn's the same way, inline)."""
    room = table.lay_best + phase.limit - table.lay_counts[seat]
    if room > table.lay_cap:
        room = table.lay_cap
    free = state.held[seat] & ~table.laid[seat]
    known = table.free_cards[seat]        # (mask, its card numbers), kept as the seat lays
    if known[0] != free:
        known = table.free_cards[seat] = (free, tuple(bit_numbers(free)))
    lays = _new_object(Lays)
    lays._known = known
    lays._shape = _SHAPES.get((room << 16) + len(known[1])) or _shape(len(known[1]), room)
    lays._given = None
    return lays


_NO_CAP = 1 << 30                         # lay_cap when per_turn sets none
_new_object = object.__new__

# A turn's shape, per number of free cards f and room: (the most cards a lay may have, how many
# sets of 1, 2, ... cards, the actions in all, then per action index of a single or a pair: the
# places (i, j) of its cards among the f (i, i for a single), and the picker of the cards left,
# one C call).
_SHAPES: dict[int, tuple] = {}
_LAY_ACTIONS: dict[int, Action] = {}    # the lay actions by mask (equal values; bounded)


def _shape(free: int, most: int) -> tuple:
    """For ``free`` cards and sets of at most ``most``: that cap (no more than the cards), how
    many sets of 1, 2, ... cards there are, the actions in all (the pass too), and for each
    index of a single or a pair (after the pass, None) its places and the picker of the cards
    it leaves."""
    cap = max(0, min(most, free))
    sizes = tuple(comb(free, k) for k in range(1, cap + 1))
    others = range(free)
    reads: list = [None]
    if cap >= 1:
        reads += [(i, i, _picker([p for p in others if p != i])) for i in others]
    if cap >= 2:
        reads += [(i, j, _picker([p for p in others if p != i and p != j])) for i, j in combinations(others, 2)]
    found = _SHAPES[(most << 16) + free] = (cap, sizes, 1 + sum(sizes), tuple(reads))
    return found


def _picker(places: list[int]):
    """A function of a tuple giving the tuple of its items at ``places``."""
    if len(places) >= 2:
        return operator.itemgetter(*places)
    if places:
        place = places[0]
        return lambda items: (items[place],)
    return lambda items: ()


def _lay_action(mask: int) -> Action:
    if len(_LAY_ACTIONS) >= 65536:
        _LAY_ACTIONS.clear()
    action = _LAY_ACTIONS[mask] = _new_action(Action, ("lay", None, None, None, mask))
    return action


class Lays(Sequence):
    """The legal actions of a turn of the auction, as the list they make: a pass first, then
    every set of 1 to ``most`` of the ``free`` cards (a mask), fewer cards first, the sets of
    one size in the order of ``itertools.combinations`` over the cards in deck order.

    The sets are counted, not listed: ``len``, ``legal[i]`` (the i-th set, unranked), ``in``
    and iteration cost no more than what they read, since a turn may lay any of very many sets
    (every subset of a hand when ``per_turn`` sets no cap).  It compares equal to the list of
    the same actions."""

    __slots__ = ("_known", "_shape", "_given", "_rest")

    def __init__(self, free: int, most: int):
        self._known = (free, tuple(bit_numbers(free)))
        self._shape = _SHAPES.get((most << 16) + len(self._known[1])) or _shape(len(self._known[1]), most)
        self._given = None                # the action last read (apply checks it first)

    @property
    def free(self) -> int:
        """The mask of the cards the seat may lay."""
        return self._known[0]

    @property
    def cards(self) -> tuple[int, ...]:
        """The numbers of those cards, in deck order."""
        return self._known[1]

    @property
    def most(self) -> int:
        """The most cards one lay of the turn may have."""
        return self._shape[0]

    def __len__(self) -> int:
        return self._shape[2]

    def __getitem__(self, index):
        try:
            if index > 0:                 # (a slice, or no number, raises TypeError: _read)
                i, j, rest = self._shape[3][index]     # a single or a pair
                cards = self._known[1]
                mask = 1 << cards[i] | 1 << cards[j]
                try:
                    action = _LAY_ACTIONS[mask]
                except KeyError:
                    action = _lay_action(mask)
                self._rest = rest(cards)  # the cards it leaves (play_turn)
                self._given = action      # the action last read
                return action
            if index == 0 and type(index) is int:
                return PASS
        except (IndexError, TypeError):   # three cards or more, out of range, a slice...
            pass
        return self._read(index)

    def _read(self, index):
        """``self[index]`` for a slice, a negative index, the pass, three cards or more, or an
        index out of range."""
        if type(index) is not int:
            if isinstance(index, slice):
                return [self[i] for i in range(*index.indices(len(self)))]
            index = operator.index(index)
        if index < 0:
            index += len(self)
            if index < 0:
                raise IndexError("legal action index out of range")
        elif index >= len(self):
            raise IndexError("legal action index out of range")
        if index == 0:
            return PASS
        if index < len(self._shape[3]):
            return self[index]
        cards = self._known[1]
        sizes = self._shape[1]
        index -= len(self._shape[3])      # past the singles and the pairs
        k = 3
        for size in sizes[2:]:
            if index < size:
                break
            index -= size
            k += 1
        mask = _unrank(cards, k, index)
        action = _LAY_ACTIONS.get(mask) or _lay_action(mask)
        self._rest = _left(cards, mask)
        self._given = action
        return action

    def __iter__(self):
        yield PASS
        bits = [1 << c for c in self._known[1]]
        for k in range(1, self.most + 1):
            for chosen in combinations(bits, k):
                yield _new_action(Action, ("lay", None, None, None, sum(chosen)))

    def __contains__(self, action) -> bool:
        if action is self._given or action == PASS:
            return True
        if not isinstance(action, tuple) or len(action) != 5:
            return False
        kind, bid, cards, play, mask = action
        return (kind == "lay" and bid is None and cards is None and play is None and isinstance(mask, int)
                and mask > 0 and not mask & ~self.free and mask.bit_count() <= self.most)

    def __eq__(self, other) -> bool:
        if isinstance(other, Lays):
            return self.free == other.free and self.most == other.most
        if isinstance(other, (list, tuple)):
            return len(other) == len(self) and list(self) == list(other)
        return NotImplemented

    __hash__ = None

    def __add__(self, other):
        return list(self) + list(other)

    def __radd__(self, other):
        return list(other) + list(self)

    def __repr__(self) -> str:
        return repr(list(self))


class _Turn(Lays):
    """A turn's lays as :func:`play_turn` makes them, its slots set there: no ``__init__`` to
    run (the C one of ``object``), cheaper than ``object.__new__``."""

    __slots__ = ()
    __init__ = object.__init__


def _left(cards: tuple, mask: int) -> tuple:
    """The cards of ``cards`` not in ``mask``."""
    return tuple(c for c in cards if not mask >> c & 1)


def _unrank(cards, k: int, index: int) -> int:
    """The mask of the ``index``-th set of ``k`` of ``cards`` in the order of ``combinations``."""
    f = len(cards)
    mask = 0
    p = 0
    while k > 1:
        # the sets whose first card is cards[p]: comb(f - p - 1, k - 1)
        count = comb(f - p - 1, k - 1)
        while index >= count:
            index -= count
            p += 1
            count = comb(f - p - 1, k - 1)
        mask |= 1 << cards[p]
        p += 1
        k -= 1
    return mask | 1 << cards[p + index]


def why_illegal(state, phase, action) -> str:
    """Why ``action`` may not be taken now."""
    seat = state._to_act
    if not isinstance(action, Action):
        return f"{action!r} is not an Action"
    if phase.kind == "partner":
        return f"seat {seat} may name as partner only one of seats {_candidates(state, phase)}"
    if action.kind != "lay" or not action.mask:
        return f"a {action.kind} is not an action of the auction (lay cards face up, or pass)"
    if action.mask & ~state.held[seat]:
        return f"seat {seat} does not hold those cards"
    return f"seat {seat} may not lay {_count(action.mask)} card(s) now: too many, or cards already laid"


def take(state, action) -> None:
    """Take ``action`` for the seat to act (raises :class:`IllegalActionError`): the engine's
    ``apply_action`` in a partner phase (in an auction: :func:`play_turn`)."""
    phase = state._round.phases[state._phase_index]
    if action not in state.legal_actions():  # a list tests identity first
        raise IllegalActionError(why_illegal(state, phase, action))
    state._legal = None
    apply(state, phase, action)


def apply(state, phase, action) -> None:
    """Take ``action`` (already checked legal)."""
    table = state.table
    seat = state._to_act
    if phase.kind == "partner":
        partner = action.cards
        side = (state.round_bid.bidder, partner)
        rest = tuple(s for s in range(state.n) if s not in side and s != state.sitting)
        sides = [side if s in side else rest if s in rest else (s,) for s in range(state.n)]
        if state._play_spec.kind == "tricks":  # the trick table keeps the round's sides
            table = table_of(state)
            table.role_seats[phase.role] = partner
            table.sides = sides
        else:                               # a climbing round: its play reads its sides (state.climb)
            state.climb.role_seats[phase.role] = partner
            state.climb.sides = sides
        state._events.append({"type": "partner", "round": state.round, "seat": seat, "partner": partner})
        state._next_phase()
        return
    play_turn(state, action)


def play_turn(state, action) -> None:
    """Take ``action`` in an auction (raises :class:`IllegalActionError`), and offer the next
    seat its turn: the engine's ``apply_action`` in an auction phase.  The next turn's lays
    are made here as :func:`_turn` makes them, and the record's line waits in the table's
    :class:`Turns` (a mask per turn) until the record is read: a turn costs a few
    microseconds, and random rounds are mostly turns of the auction."""
    legal = state._legal
    if legal is None:
        legal = state.legal_actions()
    table = state.table
    seat = state._to_act
    if action is legal._given:            # the lay last read from the turn's lays
        mask = action[4]
        rest = legal._rest
    else:
        if action is not PASS and action not in legal:
            raise IllegalActionError(why_illegal(state, table.auction, action))
        mask = action.mask or 0
        if mask:
            rest = _left(legal._known[1], mask)
    log = table.log
    if log is None:
        log = _open_log(state, table, seat)
    log.append(mask)
    if mask:
        laid = table.laid
        laid[seat] = now = laid[seat] | mask
        counts = table.lay_counts
        counts[seat] = count = now.bit_count()
        if count > table.lay_best:
            table.lay_best = count
            table.lay_top = count + table.auction.limit
        table.lay_order[seat] = table.lays = table.lays + 1
        table.auction_passes = 0
        table.free_cards[seat] = (legal._known[0] ^ mask, rest)
    else:
        table.auction_passes += 1
        if table.auction_passes >= state.n:
            state._legal = None
            _close(state, table.auction)
            return
    # the next seat's turn, as _turn makes it (begin made every seat's free cards)
    state._to_act = seat = table.next_seat[seat]
    room = table.lay_top - table.lay_counts[seat]
    if room > table.lay_cap:
        room = table.lay_cap
    state._legal = lays = _Turn()
    lays._known = known = table.free_cards[seat]
    lays._shape = _SHAPES.get((room << 16) + len(known[1])) or _shape(len(known[1]), room)
    lays._given = None


class Turns(list):
    """The turns of an auction not yet written in the record, from ``seat`` on (then each next
    seat in the direction of play): per turn, the mask of the cards laid, 0 for a pass.  It
    stands in the state's record for their lines until the record is read
    (:attr:`State.events <chimera_dsl.engine.State.events>`), which writes them out with
    :meth:`lines`."""

    __slots__ = ("table", "game", "round", "seat", "step", "n")

    def __init__(self, state, table, seat: int):
        super().__init__()
        self.table = table
        self.game = state.game
        self.round: int = state.round
        self.seat = seat
        self.step: int = state.step
        self.n: int = state.n

    def lines(self) -> list[dict]:
        """The record's lines of these turns; the auction keeps its next turns in new ones."""
        if self.table.log is self:
            self.table.log = None
        names = self.game.card_names
        n, step, rnd = self.n, self.step, self.round
        seat = self.seat
        out = []
        for mask in self:
            if mask:
                out.append({"type": "lay", "round": rnd, "seat": seat, "cards": names(mask)})
            else:
                out.append({"type": "pass", "round": rnd, "seat": seat})
            seat = (seat + step) % n
        return out


def _open_log(state, table, seat: int) -> Turns:
    """New :class:`Turns` from ``seat``'s turn on, in the record and the table."""
    log = table.log = Turns(state, table, seat)
    state._events.append(log)
    state._lazy = True
    return log


def _close(state, phase: AuctionPhase) -> None:
    table = state.table
    n = state.n
    counts = table.lay_counts
    top = table.lay_best
    tied = [s for s in range(n) if counts[s] == top]
    if len(tied) > 1:
        last = max(tied, key=lambda s: table.lay_order[s])
        points = [0] * n
        for s in range(n):
            if s == last:
                points[s] = -phase.loss * counts[s]
            elif phase.gainers == "all" or s in tied:
                points[s] = phase.gain * counts[s]
            state.totals[s] += points[s]
        state._events.append({"type": "dispute", "round": state.round, "seats": tied, "last": last,
                             "points": points, "totals": list(state.totals)})
        state._legal = None
        end = state._round.end
        if end.over(state.totals, state.round, state.game.target, state.values) and state._game_over():
            return                        # the dispute's points end the game (not the round count)
        state.redeals += 1
        state._events.append({"type": "redeal", "round": state.round, "dealer": state.dealer})
        state._start_round(redeal=True)
        return
    winner = tied[0]
    rb = state.round_bid
    rb.bidder = rb.high_bidder = winner
    rb.bid = top
    rb.others = tuple((winner + i * state.step) % n for i in range(1, n))
    state._events.append({"type": state._round.role_word, "round": state.round, "seat": winner, "bid": top})
    if phase.second is not None and n >= phase.second_from:
        strength = _play_spec(state).plain_strength
        rank = state.game.rules.deck.card_rank

        def key(s: int) -> tuple:
            laid = sorted((strength[rank[c]] for c in state.game.rules.deck.numbers_of(table.laid[s])), reverse=True)
            return (counts[s], laid)
        others = [s for s in range(n) if s != winner and counts[s] > 0]
        if others:
            keys = {s: key(s) for s in others}
            best = max(keys.values())
            seconds = [s for s in others if keys[s] == best]
            if len(seconds) == 1:
                table.role_seats[phase.second] = seconds[0]
                state._events.append({"type": "second", "round": state.round, "seat": seconds[0], "role": phase.second})
    state._next_phase()


def action_of_event(state, phase, event: dict):
    """The action a record's line stands for (replay); ValueError says why it cannot be."""
    seat = state._to_act
    kind = event["type"]
    if event.get("seat") != seat:
        raise ValueError(f"seat {event.get('seat')} acts out of turn: it is seat {seat}'s turn")
    if phase.kind == "partner":
        if kind != "partner":
            raise ValueError(f"expected a partner line by seat {seat}, found a {kind} line")
        return Action("partner", cards=event.get("partner"))
    if kind == "pass":
        return PASS
    if kind != "lay":
        raise ValueError(f"expected a lay or a pass by seat {seat}, found a {kind} line")
    mask = twin_mask(state.game.rules.deck, event.get("cards") or [], state.held[seat] & ~state.table.laid[seat])
    if not mask:
        raise ValueError(f"lay: seat {seat} holds no such cards to lay: {' '.join(map(str, event.get('cards') or []))}")
    return Action("lay", mask=mask)

