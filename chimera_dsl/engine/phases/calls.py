"""Calls: named bets a seat makes in a round, which the scoring reads (``called(NAME)``).

The file names its calls at the top level (``calls: {grand: {...}, small: {...}}``); a seat
makes each at most once a round, and not after one of the calls its entry ``excludes`` (by
default every other call: one call a round).  Two ways to call:

* a phase of kind ``calls`` (``phases: {grand: {kind: calls, call: grand}}``): from its
  ``opener`` (``dealer_left`` unless said), each seat in the round that may make the
  call, in the direction of play, calls it or passes, once;
* during a climbing play (``play.calls: [{call: small, until: first_play}]``): on its turn, a
  seat that has not yet played this round (``until: first_play``), or before anyone has played
  (``until: any_play``), may make the call; it is still its turn after it.

Every call is public: each seat's calls of the round are in every observation (``calls``), and
each call or pass writes a line ``{"type": "call", "round", "seat", "call": NAME or null}``.

The engine calls the phase through :mod:`chimera_dsl.engine.phases.registry` (``begin``,
``legal``, ``apply``, ``action_of_event``); the play's calls through :func:`offered` and
:func:`apply_in_play`.  The state keeps ``calls_made``: per seat, the indices of the calls it
made this round (a tuple of tuples, replaced, never changed in place).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..actions import PASS, Action
from ...errors import IllegalActionError, Problem, VariantError

KINDS = ("calls",)
UNTIL = ("first_play", "any_play")
"""How long a call stays open during the play: until the seat's own first play, or until the
round's first play by anyone."""


@dataclass(frozen=True)
class Call:
    """One call of the file: its name, its place in ``calls``, the calls that bar it."""

    name: str
    index: int
    excludes: frozenset            # indices of the calls a seat must not have made to make this one


@dataclass(frozen=True)
class PlayCall:
    """One entry of ``play.calls``: the call a seat may make on its turn, and until when."""

    index: int
    until: str                     # of UNTIL


@dataclass(frozen=True)
class Calls:
    """The calls of a file, and those the climbing play offers."""

    calls: tuple[Call, ...]
    in_play: tuple[PlayCall, ...] = ()

    def index(self, name: str) -> int | None:
        """The index of the call ``name``, or None."""
        for call in self.calls:
            if call.name == name:
                return call.index
        return None


@dataclass(frozen=True)
class CallsPhase:
    """A phase where each seat in turn makes ``call`` or passes."""

    name: str
    call: int                      # the call's index
    opener: Any                    # a SeatExpr
    kind: str = "calls"


def _bad(path: tuple, message: str, hint: str | None = None):
    raise VariantError([Problem(f"{'.'.join(map(str, path))} {message}", tuple(path), hint=hint)])


def names_of(spec: dict) -> list[str]:
    """The names of the calls a file defines (``calls``), in order."""
    calls = spec.get("calls")
    return [str(name) for name in calls] if isinstance(calls, dict) else []


def compile_calls(spec: dict) -> Calls | None:
    """The file's ``calls`` and ``play.calls`` (None when it has neither); a name no call has is
    refused where it is written."""
    names = names_of(spec)
    calls: list[Call] = []
    for i, name in enumerate(names):
        entry = spec["calls"][name] or {}
        excludes = entry.get("excludes")
        if excludes is None:
            barred = frozenset(j for j in range(len(names)) if j != i)
        else:
            barred_list = []
            for k, other in enumerate(excludes):
                if str(other) not in names:
                    _unknown(("calls", name, "excludes", k), other, names)
                barred_list.append(names.index(str(other)))
            barred = frozenset(barred_list)
        calls.append(Call(name, i, barred))
    play = spec.get("play") or {}
    in_play: list[PlayCall] = []
    for i, entry in enumerate(play.get("calls") or []):
        where = ("play", "calls", i)
        if play.get("kind") == "tricks":
            _bad(where, "is a call during a climbing play, which a trick-taking play (play.kind: tricks) never offers",
                 "call in a phase of kind calls before the play")
        name = str(entry.get("call"))
        if name not in names:
            _unknown(where + ("call",), name, names)
        if any(c.index == names.index(name) for c in in_play):
            _bad(where + ("call",), f"offers '{name}' a second time", "list each call once")
        in_play.append(PlayCall(names.index(name), str(entry.get("until", "first_play"))))
    if not calls:
        return None
    return Calls(tuple(calls), tuple(in_play))


def _unknown(path: tuple, name, names: list[str]):
    _bad(path, f"names the call '{name}', which calls: does not define",
         ("calls: " + ", ".join(names)) if names else "define it, e.g. calls: {" + f"{name}: {{}}" + "}")


def compile_phase(r, path: tuple, section: dict, calls: Calls | None) -> CallsPhase:
    """A ``calls`` phase of the file."""
    name = section.get("call")
    if name is None:
        _bad(path, "names no call", "e.g. call: grand (a call of calls:)")
    names = [c.name for c in calls.calls] if calls is not None else []
    if str(name) not in names:
        _unknown(path + ("call",), name, names)
    opener = r.seat(path + ("opener",), (), default="dealer_left")
    return CallsPhase(path[-1], names.index(str(name)), opener)


# -- what a seat may call ------------------------------------------------------------------------

def may_call(state, seat: int, call: Call) -> bool:
    """May ``seat`` make ``call`` now: not made yet, nor one it excludes?"""
    made = state.calls_made[seat]
    return call.index not in made and not any(m in call.excludes for m in made)


def call_action(index: int) -> Action:
    """The action of making the call number ``index``."""
    return _ACTIONS.get(index) or _ACTIONS.setdefault(index, Action("call", cards=index))


_ACTIONS: dict[int, Action] = {}


def _record(state, seat: int, index: int | None) -> None:
    calls = state._round.calls
    state._events.append({"type": "call", "round": state.round, "seat": seat,
                          "call": None if index is None else calls.calls[index].name})
    if index is not None:
        made = list(state.calls_made)
        made[seat] = made[seat] + (index,)
        state.calls_made = tuple(made)


# -- the phase: the engine's hooks (chimera_dsl.engine.phases.registry) -----------------------------

def turn_order(state, first: int) -> list[int]:
    """The seats of the round once each, in the order of play from ``first`` (``first`` left
    out when it sits the round out): the turns of a phase every seat takes part in."""
    order = [first] if first != state.sitting else []
    s = first
    for _ in range(state.n - 1):
        s = state._after[s]
        if s == first or s in order:
            break
        order.append(s)
    return order


def begin(state, phase) -> bool:
    """Begin the phase: the seats that may make its call, from its opener; False when none may."""
    call = state._round.calls.calls[phase.call]
    order = turn_order(state, state._seat(phase.opener))
    state.calls_turns = tuple(s for s in order if may_call(state, s, call))
    if not state.calls_turns:
        return False
    state._to_act = state.calls_turns[0]
    return True


def legal(state, phase) -> list:
    """A pass first (what a player that knows nothing of calls plays), then the call."""
    return [PASS, call_action(phase.call)]


def apply(state, action) -> None:
    """Take the call or the pass of the seat to act (raises :class:`IllegalActionError`)."""
    phase = state._round.phases[state._phase_index]
    if action not in legal(state, phase):
        raise IllegalActionError(why_illegal(state, phase, action))
    state._legal = None
    seat = state._to_act
    _record(state, seat, phase.call if action.kind == "call" else None)
    turns = state.calls_turns[1:]
    state.calls_turns = turns
    if turns:
        state._to_act = turns[0]
        return
    state._next_phase()


def why_illegal(state, phase, action) -> str:
    """Why ``action`` is not a decision of the phase, in words."""
    if not isinstance(action, Action):
        return f"{action!r} is not an Action"
    name = state._round.calls.calls[phase.call].name
    return (f"seat {state._to_act} calls {name} or passes (Action('call', cards={phase.call}) or a pass), "
            f"not a {action.kind}")


def action_of_event(state, phase, event: dict):
    """The action a record's line stands for in the phase (replay); ValueError says why it cannot be."""
    seat = state._to_act
    if event["type"] != "call":
        raise ValueError(f"expected a call line by seat {seat}, found a {event['type']} line")
    if event["seat"] != seat:
        raise ValueError(f"seat {event['seat']} calls out of turn: it is seat {seat}'s turn")
    name = event.get("call")
    if name is None:
        return PASS
    expected = state._round.calls.calls[phase.call].name
    if name != expected:
        raise ValueError(f"call: {name!r} is not the call of this phase ({expected!r})")
    return call_action(phase.call)


# -- calls during the climbing play ----------------------------------------------------------------

def offered(state, seat: int) -> list[Action]:
    """The calls ``seat`` may make on its turn in the play (``play.calls``)."""
    calls = state._round.calls
    out = []
    for entry in calls.in_play:
        if entry.until == "first_play" and state.plays[seat] or entry.until == "any_play" and any(state.plays):
            continue
        if may_call(state, seat, calls.calls[entry.index]):
            out.append(call_action(entry.index))
    return out


def apply_in_play(state, action: Action) -> None:
    """``action`` (a call offered by :func:`offered`, already checked legal) made by the seat to
    act; it is still that seat's turn."""
    state._legal = None
    _record(state, state._to_act, action.cards)


def of_event(state, event: dict) -> Action:
    """The call a record's call line stands for during the play (replay); ValueError says why not."""
    seat = state._to_act
    if event["seat"] != seat:
        raise ValueError(f"seat {event['seat']} calls out of turn: it is seat {seat}'s turn")
    index = state._round.calls.index(str(event.get("call")))
    if index is None:
        raise ValueError(f"call: {event.get('call')!r} is not a call of the variant")
    return call_action(index)


def made_names(state) -> tuple:
    """Per seat, the names of the calls it made this round (what ``called(NAME)`` reads)."""
    calls = state._round.calls
    if calls is None:
        return ((),) * state.n
    return tuple(tuple(calls.calls[i].name for i in made) for made in state.calls_made)


def public(state) -> dict[int, tuple[str, ...]]:
    """Every seat's calls this round by name (what every seat sees), the seats without one left out."""
    calls = state._round.calls
    if calls is None:
        return {}
    return {seat: tuple(calls.calls[i].name for i in made) for seat, made in enumerate(state.calls_made) if made}
