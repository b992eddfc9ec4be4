"""What the players share: the :class:`Player` protocol, its error, and the heuristic player
(each kind of phase to its heuristic), which the search player also plays its playouts with.
:mod:`chimera_dsl.players` gathers the players' names.
"""
from __future__ import annotations

from typing import Protocol, Sequence, runtime_checkable

from ..engine import Action, Observation
from ..engine.phases.tricks import KINDS as TRICK_KINDS
from ..engine.phases.bids import KINDS as BIDS_KINDS
from ..engine.phases.order_up import KINDS as ORDER_UP_KINDS
from ..engine.phases.contract import KINDS as CONTRACT_KINDS
from ..engine.phases.solo import KINDS as SOLO_KINDS
from ..errors import ChimeraError

TRICK_SIDE = frozenset(TRICK_KINDS + BIDS_KINDS + ORDER_UP_KINDS + CONTRACT_KINDS + SOLO_KINDS)
"""The kinds of phase the trick heuristic decides (with the passing of a trick-taking round)."""


@runtime_checkable
class Player(Protocol):
    """What every player offers: a ``name`` and ``act``."""

    name: str

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """Choose one of ``legal_actions`` from what ``observation`` shows.

        A player that decides from the legal actions alone says so with a class attribute
        ``reads_observation = False``; :func:`play_game` then hands it None and saves building
        the observation.
        """
        ...


class PlayerError(ChimeraError):
    """A player specification names no known player, or a player is not available."""


def heuristic_player(seed):
    """The heuristic player, seeded with ``seed`` (:class:`PlayerError` when it is not installed)."""
    return _HeuristicRouter(seed, _heuristic_class())


def _trick_round(rules) -> bool:
    """Is the round of ``rules`` played as tricks?  (Its transfers then go to the trick heuristic.)"""
    play = rules.spec.get("play")
    return isinstance(play, dict) and play.get("kind") == "tricks"


class _HeuristicRouter:
    """The heuristic player: trick-taking phases go to :mod:`.tricks_heuristic`, the others to
    the climbing heuristic (made when first needed)."""

    name = "heuristic"

    def __init__(self, seed, climbing_class):
        self._seed = seed
        self._class = climbing_class
        self._climbing = None
        self._tricks = None

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """Hand the decision to the heuristic of the observation's kind of phase."""
        if observation.kind in TRICK_SIDE or (observation.kind == "transfer" and _trick_round(observation.rules)):
            if self._tricks is None:
                from .tricks_heuristic import TrickHeuristicPlayer
                self._tricks = TrickHeuristicPlayer(self._seed)
            return self._tricks.act(observation, legal_actions)
        if self._climbing is None:
            self._climbing = self._class(self._seed)
        return self._climbing.act(observation, legal_actions)

    def __getattr__(self, name):
        # attributes of the climbing heuristic (its options, for tools that read them)
        if name.startswith("_"):
            raise AttributeError(name)
        if self._climbing is None:
            self._climbing = self._class(self._seed)
        return getattr(self._climbing, name)


def heuristic_available() -> bool:
    """Is the heuristic player installed?"""
    try:
        _heuristic_class()
    except PlayerError:
        return False
    return True


def _heuristic_class():
    try:
        from .heuristic import HeuristicPlayer
    except ModuleNotFoundError as error:
        if error.name in (f"{__package__}.heuristic",):
            raise PlayerError("the heuristic player is not available: "
                              "chimera_dsl/players/heuristic.py is missing") from None
        raise
    return HeuristicPlayer
