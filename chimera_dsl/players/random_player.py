"""The random player: each legal action equally likely, from its own seeded source, except the
calls (named bets of a round, ``calls``), made one time in :data:`CALL_ODDS` where offered: a
bet made at random fails far more often than it wins, and half the time would sink every total
so far below zero that a game to a target never ends."""
from __future__ import annotations

import random
from typing import Sequence

from ..engine import Action, Observation


CALL_ODDS = 20
"""Where a call is offered beside other actions, the random player makes one once in so many
decisions (else it chooses uniformly among the others)."""


class RandomPlayer:
    """Chooses uniformly among the legal actions (a call rarely: :data:`CALL_ODDS`); the same
    seed makes the same choices."""

    name = "random"
    reads_observation = False          # it needs only the legal actions

    def __init__(self, seed=0):
        self._rng = random.Random(f"random-player:{seed}")

    def act(self, observation: Observation | None, legal_actions: Sequence[Action]) -> Action:
        """A legal action drawn uniformly (a call, once in :data:`CALL_ODDS` where offered)."""
        draw = self._rng.random()
        if getattr(legal_actions[-1], "kind", None) == "call":      # the engine offers calls last
            others = [a for a in legal_actions if a.kind != "call"]
            calls = [a for a in legal_actions if a.kind == "call"]
            if others and draw * CALL_ODDS >= 1:
                return others[int(self._rng.random() * len(others))]
            return calls[int(self._rng.random() * len(calls))]
        return legal_actions[int(draw * len(legal_actions))]
