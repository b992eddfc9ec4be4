"""The uniform random player: each legal action equally likely, from its own seeded source."""
from __future__ import annotations

import random
from typing import Sequence

from ..engine import Action, Observation


class RandomPlayer:
    """Chooses uniformly among the legal actions; the same seed makes the same choices."""

    name = "random"
    reads_observation = False          # it needs only the legal actions

    def __init__(self, seed=0):
        self._rng = random.Random(f"random-player:{seed}")

    def act(self, observation: Observation | None, legal_actions: Sequence[Action]) -> Action:
        """A legal action drawn uniformly."""
        return legal_actions[int(self._rng.random() * len(legal_actions))]
