"""The kinds of phase that run in a module of their own, by name: the state calls each through
here (the deal, the bidding, the transfers and the climbing play are parts of the state itself).

* ``trump`` and ``tricks``: :mod:`chimera_dsl.engine.phases.tricks` (with the announcements of a trick play,
  :mod:`chimera_dsl.engine.phases.announce`);
* ``auction`` and ``partner``: :mod:`chimera_dsl.engine.phases.auction`;
* ``calls``: :mod:`chimera_dsl.engine.phases.calls` (a phase of any family's round).

Each module has the same hooks: ``begin(state, phase)``, ``legal(state, phase)``,
``why_illegal(state, phase, action)`` and ``action_of_event(state, phase, event)``, and an
``apply_action`` per kind (:data:`APPLY`).  The modules do not import this one, nor the state:
they read the state they are given.
"""
from __future__ import annotations

from typing import Any, Callable

from . import auction, calls, tricks

KINDS = tricks.KINDS + calls.KINDS
"""The kinds of phase of this registry."""

MODULES: dict[str, Any] = {"trump": tricks, "tricks": tricks, "auction": auction, "partner": auction,
                          "calls": calls}
"""Per kind, the module that runs it."""

APPLY: dict[str, Callable[[Any, Any], None]] = {"trump": tricks.apply, "tricks": tricks.apply,
                                                "auction": auction.play_turn, "partner": auction.take,
                                                "calls": calls.apply}
"""Per kind, the engine's ``apply_action`` (it checks the action, then takes it)."""


def _phase(state):
    return state._round.phases[state._phase_index]


def begin(state, phase) -> bool:
    """Begin ``phase``; True when a seat must decide, False when it is over already."""
    return MODULES[phase.kind].begin(state, phase)


def legal(state) -> list:
    """The legal actions of the seat to act in the current phase."""
    phase = _phase(state)
    return MODULES[phase.kind].legal(state, phase)


def action_of_event(state, event: dict):
    """The action a game record's line stands for (replay); ValueError says why it cannot be."""
    phase = _phase(state)
    return MODULES[phase.kind].action_of_event(state, phase, event)
