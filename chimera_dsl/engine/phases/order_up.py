"""Making trump from the turned card (``kind: order_up``): bidding rounds bound to the card the
deal turned face up, the picking up of that card, and going alone.

A phase of kind ``order_up`` runs after a deal that turns a card up (``deal.turn_up``) and before
a trick play.  In its first round every seat in turn, from ``opener``, passes or orders the turned
card's colour as trump; then ``pick_up`` (the dealer unless said) takes the turned card into its
hand and discards one card face down (``discard_turned: false``: not the card it took).  If all
pass, a second round: each seat in turn passes or names any other colour.  With ``stick: true``
the last seat of the second round may not pass; without it a second round of passes makes the
round void (nobody scores, the next dealer deals)::

    phases:
      making:
        kind: order_up
        opener: dealer_left
        pick_up: dealer
        stick: false
        alone: true            # the maker may play without its partner
        lone_defender: false   # a defender may also play alone

The seat that names the trump is the round's bidder (its side the makers').  With ``alone`` it then
says whether it goes alone: its partner sits the hand out (keeps its cards, plays none); with
``lone_defender`` each defender in turn from the opener may then do the same, the first to accept
playing alone.  The trick play skips the seats sitting out (a trick has one card fewer).  The
scoring reads ``bidder_side`` (per seat: 1 on the makers' side), ``bidder_side_tricks``,
``bidder_alone`` and ``defender_alone``: :mod:`chimera_dsl.engine.phases.tricks`.

The actions: ``PASS``, ``Action("trump", cards=COLOUR)`` (the colour's index in ``deck.colours``),
``Action("card", mask=...)`` (the discard), ``Action("alone")``.  The record's lines:
``{"type": "trump", "seat", "trump": COLOUR or None}``, ``{"type": "discard", "seat", "card"}``,
``{"type": "alone", "seat", "alone": bool}``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..actions import PASS, Action, phase_taking
from .tricks import _rank_keys, card_action, card_actions, card_named, side_of, table_of
from ...errors import Problem, VariantError

KINDS = ("order_up",)
KEYS = ("opener", "pick_up", "stick", "alone", "lone_defender", "discard_turned", "discard", "pick_up_second")
ALONE = Action("alone")


@dataclass(frozen=True)
class OrderUpPhase:
    """Trump made from the turned card (see the module's text)."""

    name: str
    opener: Any                       # a SeatExpr
    pick_up: Any                      # a SeatExpr: who takes the turned card when it is ordered up
    stick: bool                       # the last seat of the second round may not pass
    alone: bool                       # the maker may go alone
    lone_defender: bool               # then a defender may go alone
    discard_turned: bool              # the seat picking up may discard the card it took
    discard: bool = True              # the seat picking up discards a card (false: it keeps them all)
    pick_up_second: bool = False      # a colour named in the second round also sends the turned card to pick_up
    kind: str = "order_up"


def compile_order_up(r, path: tuple, section: dict, roles: tuple) -> OrderUpPhase:
    """A phase of kind ``order_up`` (``r`` reads seats and reports located errors)."""
    problems = []
    deal = r.spec.get("deal") or {}
    if not deal.get("turn_up"):
        problems.append(Problem(f"{'.'.join(map(str, path))} makes trump from the turned card, but the deal turns "
                                "no card up", path + ("kind",), hint="write deal.turn_up: true"))
    for key in ("stick", "alone", "lone_defender", "discard_turned", "discard", "pick_up_second"):
        if key in section and not isinstance(section[key], bool):
            problems.append(Problem(f"{'.'.join(map(str, path + (key,)))} is {section[key]!r}, not true or false",
                                    path + (key,), hint=f"write {key}: true or {key}: false"))
    if section.get("lone_defender") and not section.get("alone", True):
        problems.append(Problem(f"{'.'.join(map(str, path + ('lone_defender',)))} lets a defender go alone, but "
                                "alone: false lets nobody", path + ("lone_defender",),
                                hint="remove lone_defender, or write alone: true"))
    teams = (r.spec.get("play") or {}).get("teams")
    if (section.get("alone") or section.get("lone_defender")) and not teams:
        problems.append(Problem(f"{'.'.join(map(str, path + ('alone',)))} sits the maker's partner out, but "
                                "play.teams forms no partnerships", path + ("alone",),
                                hint="give play.teams, e.g. [[0, 2], [1, 3]]"))
    if section.get("discard") is False and "discard_turned" in section:
        problems.append(Problem(f"{'.'.join(map(str, path + ('discard_turned',)))} says which card may be discarded, "
                                "but discard: false discards none", path + ("discard_turned",),
                                hint="remove discard_turned, or write discard: true"))
    if problems:
        raise VariantError(problems)
    # the turned card is picked up once a seat has named the trump: the bidder is known then
    return OrderUpPhase(path[-1], r.seat(path + ("opener",), roles, default="dealer_left"),
                        r.seat(path + ("pick_up",), tuple(roles) + ("bidder",), default="dealer",
                               sure=frozenset({"bidder"})),
                        bool(section.get("stick", False)),
                        bool(section.get("alone", False)), bool(section.get("lone_defender", False)),
                        bool(section.get("discard_turned", True)), bool(section.get("discard", True)),
                        bool(section.get("pick_up_second", False)))


# -- the phase: the engine's hooks (chimera_dsl.engine.phases.registry) --------------------------

_TRUMPS: dict[int, Action] = {}


def trump_of(colour: int) -> Action:
    """The action of naming (or ordering up) colour number ``colour`` as trump (shared)."""
    return _TRUMPS.get(colour) or _TRUMPS.setdefault(colour, Action("trump", cards=colour))


def _turned_colour(state) -> int:
    return state.table.colour_of[state.face_up_card]


def begin(state, phase: OrderUpPhase) -> bool:
    """The first round of bids begins with the opener."""
    table = table_of(state)
    table.making = ("bid", 0, None)       # (stage, passes so far or the defenders left, the seat picking up)
    state._to_act = state._seat(phase.opener)
    return True


def legal(state, phase: OrderUpPhase) -> list:
    """The actions of the seat to act: its bid, its discard, or going alone or not."""
    table = state.table
    stage, passes, _ = table.making
    if stage == "bid":
        turned = _turned_colour(state)
        out = [] if phase.stick and passes == 2 * state.n - 1 else [PASS]
        if passes < state.n:
            return out + [trump_of(turned)]
        return out + [trump_of(c) for c in range(len(state.game.rules.deck.colours)) if c != turned]
    if stage == "discard":
        held = state.held[state._to_act]
        if not phase.discard_turned:
            held &= ~(1 << state.face_up_card)
        return card_actions(state.game, held)
    return [ALONE, PASS]


def _seat_after(state, seat: int) -> int:
    return (seat + state.step) % state.n


def apply(state, action) -> None:
    """Take the action of the seat to act (raises :class:`IllegalActionError`)."""
    phase = phase_taking(state, action, why_illegal)
    table = state.table
    seat = state._to_act
    stage, passes, picker = table.making
    deck = state.game.rules.deck
    if stage == "bid":
        if action.kind == "pass":
            state._events.append({"type": "trump", "round": state.round, "seat": seat, "trump": None})
            passes += 1
            if passes == 2 * state.n:
                state._void_round()
                return
            table.making = ("bid", passes, None)
            state._to_act = _seat_after(state, seat)
            return
        colour = action.cards
        state._events.append({"type": "trump", "round": state.round, "seat": seat, "trump": deck.colours[colour]})
        table.layers[0] = ("colour", colour)
        table.declared_by[0] = seat
        state.round_bid.bidder = seat
        partner = [s for s in side_of(state, seat) if s != seat]
        if partner:
            table.role_seats["partner"] = partner[0]
        if passes < state.n or phase.pick_up_second:     # the picker takes the turned card
            picker = state._seat(phase.pick_up)
            card = state.face_up_card
            _move(state, picker, card, +1)
            if phase.discard:
                table.making = ("discard", 0, picker)
                state._to_act = picker
                return
            state.face_up = (state.face_up[0], picker)      # kept: every seat knows who holds it
        _after_discard(state, phase)
        return
    if stage == "discard":
        card = action.mask.bit_length() - 1
        _move(state, seat, card, -1)
        state._events.append({"type": "discard", "round": state.round, "seat": seat, "card": deck.card_names[card]})
        _after_discard(state, phase)
        return
    alone = action.kind == "alone"
    state._events.append({"type": "alone", "round": state.round, "seat": seat, "alone": alone})
    if alone:
        partner = [s for s in side_of(state, seat) if s != seat]
        for s in partner:
            table.out |= 1 << s
        if stage == "alone":
            table.alone = True
        else:
            table.lone_defender = seat
    if stage == "alone" and phase.lone_defender:
        defenders = _defenders(state, phase)
        table.making = ("defend", defenders[1:], None)
        state._to_act = defenders[0]
        return
    if stage == "defend" and not alone and passes:
        table.making = ("defend", passes[1:], None)
        state._to_act = passes[0]
        return
    state._next_phase()


def _defenders(state, phase) -> tuple:
    """The seats not on the makers' side, in the order of play from the opener."""
    makers = side_of(state, state.round_bid.bidder)
    order = []
    s = state._seat(phase.opener)
    for _ in range(state.n):
        if s not in makers:
            order.append(s)
        s = _seat_after(state, s)
    return tuple(order)


def _after_discard(state, phase: OrderUpPhase) -> None:
    table = state.table
    if phase.alone:
        table.making = ("alone", 0, None)
        state._to_act = state.round_bid.bidder
        return
    state._next_phase()


def _move(state, seat: int, card: int, sign: int) -> None:
    """The card enters (+1) or leaves (-1) ``seat``'s hand."""
    game = state.game
    keys = game.__dict__.get("_rank_keys")        # computed once per game (tricks._rank_keys)
    key = (keys if keys is not None else _rank_keys(game))[card]
    if sign > 0:
        state.held[seat] |= 1 << card
    else:
        state.held[seat] &= ~(1 << card)
    state.hands[seat] += sign * key
    state.sizes[seat] += sign


def why_illegal(state, phase: OrderUpPhase, action) -> str:
    """Why ``action`` may not be taken now, in words."""
    seat = state._to_act
    if not isinstance(action, Action):
        return f"{action!r} is not an Action"
    stage, passes, _ = state.table.making
    deck = state.game.rules.deck
    if stage == "bid":
        if action.kind == "pass":
            return f"seat {seat} may not pass: the last seat to speak must name a trump (stick: true)"
        if action.kind != "trump":
            return f"seat {seat} passes or names a trump (Action('trump', cards=COLOUR)), not a {action.kind}"
        turned = deck.colours[_turned_colour(state)]
        if passes < state.n:
            return f"seat {seat} may only order up the turned card's colour, {turned}, or pass"
        return f"seat {seat} may name any colour but the turned card's, {turned}, or pass"
    if stage == "discard":
        if action.kind == "card" and action.mask and action.mask == 1 << state.face_up_card:
            return f"seat {seat} may not discard the turned card it took (discard_turned: false)"
        return f"seat {seat} discards one card of its hand (Action('card', mask=...))"
    return f"seat {seat} goes alone (Action('alone')) or plays with its partner (PASS), not a {action.kind}"


def action_of_event(state, phase: OrderUpPhase, event: dict):
    """The action a record's line stands for (replay); ValueError says why it cannot be."""
    seat = state._to_act
    stage = state.table.making[0]
    expected = {"bid": "trump", "discard": "discard"}.get(stage, "alone")
    if event["type"] != expected:
        raise ValueError(f"expected a {expected} line by seat {seat}, found a {event['type']} line")
    if event.get("seat") != seat:
        raise ValueError(f"seat {event.get('seat')} acts out of turn: it is seat {seat}'s turn")
    deck = state.game.rules.deck
    if expected == "trump":
        if event.get("trump") is None:
            return PASS
        if event["trump"] not in deck.colours:
            raise ValueError(f"trump: {event['trump']!r} is not a colour of the deck")
        return trump_of(deck.colours.index(event["trump"]))
    if expected == "discard":
        card = card_named(deck, event.get("card"), state.held[seat])
        if card is None:
            raise ValueError(f"card: seat {seat} holds no card {event.get('card')!r}")
        return card_action(state.game, card)
    return ALONE if event.get("alone") else PASS
