"""Any variant as an OpenSpiel game: ``python_chimera_dsl``.

    import pyspiel
    import chimera_dsl.learn.spiel            # registers the game
    game = pyspiel.load_game("python_chimera_dsl", {"variant": "variants/others/gang-of-four.yaml"})
    state = game.new_initial_state()

Needs OpenSpiel (the ``peers`` extra: ``pip install 'chimera_dsl[peers,rl]'``) and numpy.

Parameters
    ``variant``: the path of the variant file (required); ``seed``: the seed of the game's
    deals (-1, the default: a fresh one); ``max_rounds``: rounds played before the game ends
    (default 1; 0: the variant's own end, ``end.target``); ``max_moves``: decisions after
    which a game is cut, a draw (0, the default: 16 x cards of the deck x players x rounds;
    needed when ``max_rounds`` is 0); ``utility``: ``win`` (default) or ``points``;
    ``points_bound``: the bound of ``points``; ``deals``: 0 (default: sampled deals) or the
    number of deals of an explicit chance node (below).

Chance
    Sampled (``SAMPLED_STOCHASTIC``, the default): there is no chance node.  Each new initial
    state draws a game seed from the game's own source (``seed``); every deal of that game
    (redeals and later rounds included) comes from it, so a clone deals what the original
    deals.  Search bots imagine the cards they cannot see with ``resample_from_infostate``.
    With ``deals`` N > 0 (``EXPLICIT_STOCHASTIC``): the initial state is a chance node of N
    equally likely outcomes, N fixed game seeds drawn from ``seed``: a game of N possible
    deals, whose tree algorithms that enumerate chance (CFR) can walk on a small variant.

Actions
    The variant's fixed action space (:class:`~chimera_dsl.learn.actions.ActionSpace`):
    ``num_distinct_actions`` is its size; ``action_to_string`` describes an id.

Observations
    ``observation_tensor``: :class:`~chimera_dsl.learn.observe.Encoder`'s vector (colours,
    trump, contract, the round's plays, the cards shown to all; docs/learning.md gives the
    layout); ``observation_string``: the same as text; ``information_state_string``: the text
    with every public action of the game, which remembers the round exactly (earlier rounds by
    their public actions).

Returns
    ``win``: 1 for the winner of the game, shared equally by tied winners, 0 for the others
    (constant sum 1).  ``points``: each seat's total (general sum, bounded by
    ``points_bound``, default 100000: a total past it is an error naming the parameter).  A
    game cut at ``max_moves`` ends there, a draw (each seat 1/players of the win; its
    totals so far with ``points``).
"""
from __future__ import annotations

import os
import random
from typing import Any

try:
    import numpy as np
    import pyspiel
except ModuleNotFoundError as error:            # the optional extra is not installed
    raise ModuleNotFoundError(
        f"chimera_dsl.learn.spiel needs OpenSpiel and numpy ({error.name} is missing): "
        f"pip install 'chimera_dsl[peers,rl]'", name=error.name) from None

from ..engine import Game
from ..errors import ChimeraError
from .actions import ActionSpace
from .observe import Encoder, Table

SHORT_NAME = "python_chimera_dsl"
UTILITIES = ("win", "points")
DEFAULTS = {"variant": "", "seed": -1, "max_rounds": 1, "max_moves": 0, "utility": "win", "points_bound": 100000,
            "deals": 0}


def _game_type(utility: str, explicit: bool = False) -> "pyspiel.GameType":
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="chimera_dsl variant",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if explicit
                     else pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC),
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.CONSTANT_SUM if utility == "win"
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=16,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(DEFAULTS))


_GAME_TYPE = _game_type("win")
_LOADED: dict[tuple, Any] = {}         # per path and time of change, its rules (loading checks the whole file)


class ChimeraGame(pyspiel.Game):
    """A variant as an OpenSpiel game (see the module's text)."""

    def __init__(self, params: dict | None = None):
        params = {**DEFAULTS, **(params or {})}
        path = str(params["variant"])
        if not path:
            raise ChimeraError(f"{SHORT_NAME} needs the parameter variant: the path of a variant file")
        utility = str(params["utility"])
        if utility not in UTILITIES:
            raise ChimeraError(f"utility must be one of {', '.join(UTILITIES)}, not {utility!r}")
        max_rounds = int(params["max_rounds"])
        max_moves = int(params["max_moves"])
        if max_rounds < 0 or max_moves < 0:
            raise ChimeraError("max_rounds and max_moves must be 0 or more")
        if max_rounds == 0 and max_moves == 0:
            raise ChimeraError("max_rounds 0 (the variant's own end) needs max_moves: OpenSpiel needs a bound "
                               "on the length of a game, and a game to a target has none")
        try:
            stamp = os.stat(path).st_mtime_ns
        except OSError:
            stamp = None                # load_variant says why the file cannot be read
        rules = _LOADED.get((path, stamp))
        if rules is None:
            from ..variant import load_variant
            rules = _LOADED[(path, stamp)] = load_variant(path)
        self.engine = Game(rules, max_rounds=max_rounds or None)
        self.space = ActionSpace(self.engine)
        self.encoder = Encoder(self.space)
        n = self.engine.players
        if max_moves == 0:
            max_moves = 16 * len(rules.deck.cards) * n * max_rounds
        self.max_moves = max_moves
        self.utility = utility
        self.points_bound = float(params["points_bound"])
        seed = int(params["seed"])
        self._seeds = random.Random(f"{SHORT_NAME}:{seed}") if seed >= 0 else random.Random()
        self.deals = int(params["deals"])
        if self.deals < 0:
            raise ChimeraError(f"deals must be 0 (sampled deals) or more, not {self.deals}")
        self._base = self._seeds.getrandbits(63)       # the seeds of the explicit deals: base:0, base:1...
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size,
            max_chance_outcomes=self.deals,
            num_players=n,
            min_utility=0.0 if utility == "win" else -self.points_bound,
            max_utility=1.0 if utility == "win" else self.points_bound,
            utility_sum=1.0 if utility == "win" else None,
            max_game_length=max_moves)
        super().__init__(_game_type(utility, explicit=self.deals > 0), info, params)

    def deal_seed(self, outcome: int) -> str:
        """The engine's seed of the explicit chance outcome ``outcome`` (parameter ``deals``)."""
        return f"{self._base}:{outcome}"

    def new_initial_state(self) -> "ChimeraState":
        """A new game, its deals drawn from a seed of this game's source."""
        return ChimeraState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "ChimeraObserver":
        """The observer of ``iig_obs_type`` (perfect recall: the information state)."""
        if params:
            raise ChimeraError(f"the observer of {SHORT_NAME} takes no parameters, not {params!r}")
        return ChimeraObserver(self, iig_obs_type)


class _Lazy:
    """The state's table, made when first read (OpenSpiel's clone makes a new state, then copies
    each field into it: the new state's own table is never made) and cloned, not deep-copied."""

    __slots__ = ("game", "table")

    def __init__(self, game: ChimeraGame, table: Table | None = None):
        self.game = game
        self.table = table

    def dealt(self) -> bool:
        """Is the game dealt (always, with sampled deals; after the chance node, with ``deals``)?"""
        return self.table is not None or self.game.deals == 0

    def get(self) -> Table:
        if self.table is None:
            if self.game.deals:
                raise ChimeraError("the game is not dealt yet: apply a chance outcome first (parameter deals)")
            self.table = Table(self.game.engine, seed=self.game._seeds.getrandbits(63), space=self.game.space)
        return self.table

    def __deepcopy__(self, memo) -> "_Lazy":
        return _Lazy(self.game, None if self.table is None else self.table.clone())

    def __reduce__(self):
        raise ChimeraError(f"a state of {SHORT_NAME} cannot be serialized: it holds an engine state and the "
                           f"game it belongs to, which OpenSpiel's serialization does not rebuild "
                           f"(run random_sim_test with serialize=False)")


class ChimeraState(pyspiel.State):
    """One game of the variant (see the module's text)."""

    def __init__(self, game: ChimeraGame, table: Table | None = None):
        super().__init__(game)
        self._lazy = _Lazy(game, table)
        self._cut = False

    @property
    def table(self) -> Table:
        """The engine's state and the public history (:class:`~chimera_dsl.learn.observe.Table`)."""
        return self._lazy.get()

    def current_player(self) -> int:
        if not self._lazy.dealt():
            return pyspiel.PlayerId.CHANCE
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.table.state.current_player()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """With ``deals``: the deals the game may begin with, equally likely."""
        if self._lazy.dealt():
            return []
        deals = self._lazy.game.deals
        return [(k, 1.0 / deals) for k in range(deals)]

    def _legal_actions(self, player: int) -> list[int]:
        if not self._lazy.dealt() or self.is_terminal() or player != self.table.state.current_player():
            return []
        return self.table.space.legal_ids(self.table.state)

    def _apply_action(self, action: int) -> None:
        if not self._lazy.dealt():
            game = self._lazy.game
            if not 0 <= action < game.deals:
                raise ChimeraError(f"chance outcome {action} is not one of the {game.deals} deals")
            self._lazy.table = Table(game.engine, seed=game.deal_seed(action), space=game.space)
            return
        table = self.table
        table.apply(action)
        if len(table.history) >= self._game_max_moves() and not table.state.is_terminal():
            self._cut = True

    def _game_max_moves(self) -> int:
        return self._lazy.game.max_moves

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return self.table.space.describe(action)

    def is_terminal(self) -> bool:
        if not self._lazy.dealt():
            return False
        return self._cut or self.table.state.is_terminal()

    def returns(self) -> list[float]:
        game = self._lazy.game
        n = game.engine.players
        if not self._lazy.dealt() or not self.is_terminal():
            return [0.0] * n
        totals = [float(t) for t in self.table.state.observation(0).totals]
        if game.utility == "points":
            for seat, total in enumerate(totals):
                if abs(total) > game.points_bound:
                    raise ChimeraError(f"seat {seat}'s total {total:g} is past points_bound {game.points_bound:g}: "
                                       f"raise the parameter points_bound")
            return totals
        winners = self._winners(totals)
        return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(n)]

    def _winners(self, totals: list[float]) -> list[int]:
        """The game's winners, as the record's last line says them; a game cut short has no
        winner: every seat shares the win."""
        state = self.table.state
        if state.is_terminal():
            end = state.events[-1]
            if end.get("type") == "game_end":
                if end.get("winners"):
                    return list(end["winners"])
                if end.get("winner") is not None:
                    return [end["winner"]]
        return list(range(len(totals)))

    def resample_from_infostate(self, player_id: int, probability_sampler) -> "ChimeraState":
        """A state the seat ``player_id`` cannot tell from this one: the cards it cannot see
        dealt again at random (the sampler's draws seed the shuffle)."""
        rng = random.Random(int(probability_sampler() * (1 << 53)))
        other = ChimeraState(self._lazy.game, self.table.resample(player_id, rng))
        other._cut = self._cut
        return other

    def __str__(self) -> str:
        if not self._lazy.dealt():
            return "before the deal"
        state = self.table.state
        deck = self._lazy.game.engine.rules.deck
        hands = " / ".join(" ".join(deck.mask_names(state.observation(s).held)) for s in range(state.observation(0).players))
        return f"{self.table.state!r} hands: {hands} moves: {len(self.table.history)}"


class ChimeraObserver:
    """OpenSpiel's observer: :class:`~chimera_dsl.learn.observe.Encoder`'s vector and text."""

    def __init__(self, game: ChimeraGame, iig_obs_type):
        self.encoder = game.encoder
        private = True
        perfect_recall = False
        if iig_obs_type is not None:
            private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
            perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = private
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(self.encoder.size, dtype=np.float32)
        self.dict: dict[str, Any] = {name: self.encoder.view(self.tensor, name) for name, _ in self.encoder.layout}

    def set_from(self, state: ChimeraState, player: int) -> None:
        if not state._lazy.dealt():
            self.tensor.fill(0.0)
            return
        self.encoder.encode(state.table, player, private=self.private, out=self.tensor)

    def string_from(self, state: ChimeraState, player: int) -> str:
        if not state._lazy.dealt():
            return f"seat {player} | before the deal"
        return self.encoder.text(state.table, player, private=self.private, history=self.perfect_recall)


def register() -> None:
    """Register ``python_chimera_dsl`` with OpenSpiel (once; importing this module does it)."""
    if SHORT_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_GAME_TYPE, ChimeraGame)


register()

__all__ = ["ChimeraGame", "ChimeraState", "ChimeraObserver", "SHORT_NAME", "register"]
