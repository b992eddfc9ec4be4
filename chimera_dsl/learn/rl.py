"""Any variant as a PettingZoo AEC environment, for reinforcement learning.

    from chimera_dsl.learn.rl import env
    table = env("variants/chimera.yaml")
    table.reset(seed=42)
    for agent in table.agent_iter():
        observation, reward, termination, truncation, info = table.last()
        ...
        table.step(None if termination or truncation else an_index_where(observation["action_mask"]))

Needs the ``rl`` extra (``pip install 'chimera_dsl[rl]'``: pettingzoo, gymnasium, numpy); the
rest of the package never imports this module.

Agents are ``player_0`` .. ``player_{n-1}``, one per seat.  The engine decides who acts next
(``agent_selection``); every agent may be observed at any time.

Actions (``actions="fixed"``)
    ``Discrete(size)``: the variant's fixed action space
    (:class:`~chimera_dsl.learn.actions.ActionSpace`): one id per distinct pass, bid, play,
    gift, trump, partner, card or lay, meaning the same in every position and every run; the
    ``action_mask`` marks the ids legal now.  The observation is then
    :class:`~chimera_dsl.learn.observe.Encoder`'s vector: cards by colour, the trump, the
    contract, the round's plays and the cards shown to all (docs/learning.md).

Actions (``actions="legal"``, the default)
    ``Discrete(max_actions)``: an index into the current legal actions, ordered
    deterministically (passing first when it is legal, then the engine's order).  The
    observation's ``action_mask`` marks the indices that are legal now (all zero for an agent
    whose turn it is not).  The default of 2048 is more than twice the most legal actions
    found in 30,000 random hands of up to 24 cards under the official rules (902 leads);
    should a state ever offer more, only the first ``max_actions`` are offered and
    ``info["actions_left_out"]`` says how many were not.

Observations
    ``{"observation": float32 vector, "action_mask": int8 vector}``.  The vector is built from
    the seat's :class:`~chimera_dsl.engine.Observation` only (never another hand); seats are
    counted from the observing seat (0: itself, 1: the next in seat order, ...).
    See :func:`observation_layout` for the parts, their sizes and bounds.

Rewards and episodes
    At the end of each round every agent receives its points of that round.  An episode is
    one game (``episode="game"``, the default) or one round (``episode="round"``).  A game
    that runs past ``max_steps`` decisions is truncated.
"""
from __future__ import annotations

import os
import random
from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ModuleNotFoundError as error:           # the optional extra is not installed
    raise ModuleNotFoundError(
        f"chimera_dsl.learn.rl needs the 'rl' extra ({error.name} is missing): pip install 'chimera_dsl[rl]'",
        name=error.name) from None

from ..engine import Action, Game, Observation, State
from ..errors import ChimeraError
from ..rules import Rules
from .actions import ActionSpace
from .observe import PHASES as PHASE_KINDS, SCORE_BOUND, Encoder, Table   # totals in targets, clipped

DEFAULT_MAX_ACTIONS = 2048
DEFAULT_MAX_STEPS = 100_000
EPISODES = ("game", "round")
ACTIONS = ("legal", "fixed")


def observation_layout(rules: Rules, players: int) -> list[tuple[str, int, float]]:
    """The parts of the observation vector, in order: ``(name, size, upper bound)``.

    - ``hand``: the seat's cards as counts per rank (the deck's rank order);
    - ``cards_left``: how many cards each seat holds, from this seat on;
    - ``last_play``: the play to beat, as counts per rank (zeros when leading);
    - ``last_player``: who made it, one-hot from this seat on, the last entry for nobody;
    - ``played``: every card played this round, as counts per rank;
    - ``scores``: each seat's total divided by the target, from this seat on, clipped to
      [-10, 10] (the lower bound of this part is -10; of every other part, 0);
    - ``phase``: the kind of the current phase, one-hot (bidding, transfer, play, over);
    - ``bidder``: the seat that won the bidding, one-hot from this seat on, last: none yet;
    - ``bid``: the current bid divided by the highest level (0 without a bid);
    - ``leading``: 1 when this seat leads a trick; ``interrupt``: 1 for an offer to play out
      of turn.
    """
    ranks = len(rules.deck.ranks)
    copies = float(max(rules.deck.copies))
    cards = float(len(rules.deck.cards))
    return [("hand", ranks, copies), ("cards_left", players, cards), ("last_play", ranks, copies),
            ("last_player", players + 1, 1.0), ("played", ranks, copies), ("scores", players, SCORE_BOUND),
            ("phase", len(PHASE_KINDS), 1.0), ("bidder", players + 1, 1.0), ("bid", 1, 1.0),
            ("leading", 1, 1.0), ("interrupt", 1, 1.0)]


def env(variant, **options) -> AECEnv:
    """The environment of ``variant`` (a path or loaded :class:`~chimera_dsl.rules.Rules`), wrapped
    as PettingZoo recommends (an illegal index or a step out of turn raises).  ``options`` go
    to :class:`ChimeraEnv`."""
    wrapped = ChimeraEnv(variant, **options)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class ChimeraEnv(AECEnv):
    """One game (or round) of a variant, seat by seat (see the module's docstring).

    ``episode``: ``"game"`` or ``"round"``; ``target``: points that end a game instead of the
    variant's; ``actions``: ``"legal"`` (an index into the legal actions of the moment) or
    ``"fixed"`` (the variant's fixed action space and the observations with colours, trump and
    history); ``max_actions``: the size of the ``legal`` action space; ``max_steps``: decisions after
    which a game is truncated; ``render_mode``: ``"human"`` (print) or ``"ansi"`` (return) the
    game told since the last render.
    """

    metadata: dict[str, Any] = {"name": "chimera_dsl_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, variant, *, episode: str = "game", target: int | None = None,
                 max_actions: int = DEFAULT_MAX_ACTIONS, max_steps: int = DEFAULT_MAX_STEPS,
                 render_mode: str | None = None, actions: str = "legal"):
        super().__init__()
        if episode not in EPISODES:
            raise ChimeraError(f"episode must be one of {', '.join(EPISODES)}, not {episode!r}")
        if actions not in ACTIONS:
            raise ChimeraError(f"actions must be one of {', '.join(ACTIONS)}, not {actions!r}")
        if not isinstance(max_actions, int) or max_actions < 2:
            raise ChimeraError(f"max_actions must be a whole number of at least 2, not {max_actions!r}")
        if not isinstance(max_steps, int) or max_steps < 1:
            raise ChimeraError(f"max_steps must be a whole number of at least 1, not {max_steps!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ChimeraError(f"render_mode must be one of {', '.join(self.metadata['render_modes'])} or None, "
                               f"not {render_mode!r}")
        if isinstance(variant, (str, os.PathLike)):
            from ..variant import load_variant
            variant = load_variant(variant)
        self.rules: Rules = variant
        self.game = Game(variant, target=target, max_rounds=1 if episode == "round" else None)
        self.episode = episode
        self.actions = actions
        self.space: ActionSpace | None = None
        self.encoder: Encoder | None = None
        if actions == "fixed":
            self.space = ActionSpace(self.game)
            self.encoder = Encoder(self.space)
            max_actions = self.space.size
        self.max_actions = max_actions
        self.max_steps = max_steps
        self.render_mode = render_mode
        n = self.game.players
        self.possible_agents = [f"player_{seat}" for seat in range(n)]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        layout = observation_layout(variant, n)
        low = np.concatenate([np.full(size, -bound if name == "scores" else 0.0, dtype=np.float32)
                              for name, size, bound in layout])
        high = np.concatenate([np.full(size, bound, dtype=np.float32) for _name, size, bound in layout])
        if self.encoder is not None:
            low, high = self.encoder.bounds()
        self._size = int(low.size)
        levels = [level for level in self.game.bid_actions]
        self._top_bid = float(max(levels)) if levels else 1.0
        self._scale = float(self.game.target) if self.game.target else 100.0
        ranks = len(variant.deck.ranks)
        self._ranks = ranks
        self.observation_spaces = {
            agent: spaces.Dict({"observation": spaces.Box(low, high, dtype=np.float32),
                                "action_mask": spaces.Box(0, 1, shape=(max_actions,), dtype=np.int8)})
            for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(max_actions) for agent in self.possible_agents}
        self._seeds = random.Random()
        self.state: State | None = None
        self.table: Table | None = None
        self._legal: list[Action] = []
        self._ids: list[int] = []
        self._teller = None
        self._told = 0

    # -- spaces ----------------------------------------------------------------------------------
    def observation_space(self, agent: str):
        """The observation space of ``agent`` (the same object at every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        """The action space of ``agent`` (the same object at every call)."""
        return self.action_spaces[agent]

    # -- the AEC cycle ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game: from ``seed`` when given (the same seed, the same deals), else the
        next seed of this environment's own source."""
        if seed is not None:
            self._seeds = random.Random(f"chimera_dsl.learn.rl:{seed}")
        game_seed = self._seeds.getrandbits(63)
        if self.space is not None:
            self.table = Table(self.game, seed=game_seed, space=self.space)
            self.state = self.table.state
        else:
            self.state = self.game.new_game(game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict] = {agent: {} for agent in self.agents}
        self.steps = 0
        self._told = 0
        self._teller = None
        self._select()

    def step(self, action) -> None:
        """Take the legal action at index ``action`` (``actions="fixed"``: of id ``action``) for
        ``agent_selection`` (None once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        index = int(action)
        if self.table is not None:
            if index not in self._ids:
                raise ChimeraError(f"action {index} is not legal for {agent}: the legal ids are "
                                   f"{', '.join(map(str, self._ids))} (see the observation's action_mask)")
            index = self._ids.index(index)
        if not 0 <= index < len(self._legal):
            raise ChimeraError(f"action {index} is not legal for {agent}: the legal indices are 0 to "
                               f"{len(self._legal) - 1} (see the observation's action_mask)")
        state = self.state
        before = list(state.totals)
        round_before = state.round
        self._cumulative_rewards[agent] = 0.0
        if self.table is not None:
            self.table.apply(self._ids[index])
        else:
            state.apply_action(self._legal[index])
        self.steps += 1
        self._clear_rewards()
        # a step that changes the totals pays: the end of a round, or points scored before the
        # play (a dispute of an auction, dealt again)
        if state.totals != before or state.round != round_before or state.is_terminal():
            for seat, name in enumerate(self.agents):
                self.rewards[name] = float(state.totals[seat] - before[seat])
        self._accumulate_rewards()
        if state.is_terminal():
            self.terminations = {name: True for name in self.agents}
        elif self.steps >= self.max_steps:
            self.truncations = {name: True for name in self.agents}
        self._select()

    def _select(self) -> None:
        """Point ``agent_selection`` at the seat to act and list its legal actions."""
        state = self.state
        if state.is_terminal() or any(self.truncations.values()):
            self._legal = []
            self._ids = []
            for name in self.agents:
                self.infos[name] = {}
            self.agent_selection = self.agents[0]
            return
        if self.space is not None:
            by_id = self.space.legal(state)
            self._ids = list(by_id)
            ordered = list(by_id.values())
        else:
            legal = state.legal_actions()
            passes = [a for a in legal if a.kind == "pass"]
            ordered = passes + [a for a in legal if a.kind != "pass"]
        self._legal = ordered[:self.max_actions]
        seat = state.current_player()
        self.agent_selection = self.possible_agents[seat]
        for name in self.agents:
            self.infos[name] = {}
        left_out = len(ordered) - len(self._legal)
        if left_out:
            self.infos[self.agent_selection] = {"actions_left_out": left_out}

    # -- observing -------------------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, Any]:
        """What ``agent``'s seat may see, as a vector, and which action indices are legal for it."""
        seat = self._seat_of[agent]
        mask = np.zeros(self.max_actions, dtype=np.int8)
        if agent == self.agent_selection and self._legal:
            if self.table is not None:
                mask[self._ids] = 1
            else:
                mask[:len(self._legal)] = 1
        if self.encoder is not None and self.table is not None:
            return {"observation": self.encoder.encode(self.table, seat), "action_mask": mask}
        return {"observation": self.encode(self.state.observation(seat)), "action_mask": mask}

    def legal_actions(self) -> list[Action]:
        """The engine's actions behind the legal indices (ids) of ``agent_selection``, in order."""
        return list(self._legal)

    def legal_ids(self) -> list[int]:
        """``actions="fixed"``: the legal ids of ``agent_selection``, ascending."""
        return list(self._ids)

    def encode(self, obs: Observation) -> "np.ndarray":
        """The observation vector of one seat's :class:`Observation` (see :func:`observation_layout`)."""
        n = self.game.players
        seat = obs.seat
        order = [(seat + i) % n for i in range(n)]
        parts: list = [self._counts(obs.hand), [obs.hand_sizes[s] for s in order]]
        last = obs.last_play
        parts.append(self._counts(last.key if last is not None else 0))
        parts.append(self._one_hot(obs.last_player, seat))
        parts.append(self._counts(obs.played))
        parts.append([max(-SCORE_BOUND, min(SCORE_BOUND, obs.totals[s] / self._scale)) for s in order])
        kind = obs.kind if obs.kind in PHASE_KINDS else "over"
        parts.append([1.0 if k == kind else 0.0 for k in PHASE_KINDS])
        parts.append(self._one_hot(obs.bidder, seat))
        parts.append([min(1.0, (obs.bid or 0) / self._top_bid)])
        leading = (obs.kind == "play" and obs.last_play is None and self.state.current_player() == seat)
        parts.append([1.0 if leading else 0.0])
        parts.append([1.0 if obs.interrupt and self.state.current_player() == seat else 0.0])
        return np.asarray([x for part in parts for x in part], dtype=np.float32)

    def _counts(self, key: int) -> list[int]:
        return self.game.rules.deck.counts(key)

    def _one_hot(self, other: int | None, seat: int) -> list[float]:
        n = self.game.players
        out = [0.0] * (n + 1)
        out[n if other is None else (other - seat) % n] = 1.0
        return out

    # -- telling ---------------------------------------------------------------------------------
    def render(self):
        """The game told since the last render: printed (``human``) or returned (``ansi``)."""
        if self.render_mode is None or self.state is None:
            return None
        from ..tell.printer import Teller
        if self._teller is None:
            self._teller = Teller(self.rules, live=True)
        events = self.state.events[self._told:]
        self._told = len(self.state.events)
        text = "\n".join(self._teller.lines(events))
        if self.render_mode == "human":
            if text:
                print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""
        self._teller = None

    def __str__(self) -> str:
        return self.metadata["name"]


__all__ = ["env", "ChimeraEnv", "observation_layout", "DEFAULT_MAX_ACTIONS"]
