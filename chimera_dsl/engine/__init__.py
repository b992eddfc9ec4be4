"""The game as a state machine, in the style of OpenSpiel: deal, bid, exchange, play, score.

``Game`` reads every number and choice from the variant (``rules.spec``) once; ``State`` is
one game in progress, mutable and cloneable.  Hands are packed rank-count integers
(:mod:`chimera_dsl.cards`) and legal plays come from the matcher's fast path
(``rules.leads`` / ``rules.answers``): a round with random players costs about 1.5 ms.

The round's phases come from the variant (:mod:`chimera_dsl.engine.round`): the engine has one
implementation per *kind* of phase (deal, bidding, transfer, climbing play, score), never
per game.  Cards keep their identity: each seat's cards are a bit mask over the deck's cards
(``state.held``) beside the packed rank counts the matcher reads (``state.hands``).

The game record (docs/game-record.md) is written as it happens, in ``state.events``.

This module gathers the engine's names; each lives in a module about one thing:
:mod:`chimera_dsl.engine.actions` (``Action``, ``PASS``, ``bid_action``..., ``Deal``, ``TwoPartDeal``),
:mod:`chimera_dsl.engine.observation` (``Observation``), :mod:`chimera_dsl.engine.game` (``Game``: the
compiled rules, the deal), :mod:`chimera_dsl.engine.state` (``State``, ``TERMINAL``, ``KINDS``: one
game in progress), whose parts are :mod:`chimera_dsl.engine.phases.bidding` (bidding, transfers)
and :mod:`chimera_dsl.engine.state_view` (what one seat may see); each kind of phase is a
component of :mod:`chimera_dsl.engine.phases` with its own state, such as
:mod:`chimera_dsl.engine.phases.climbing` (the climbing play and its score, its state the
state's ``climb``) and :mod:`chimera_dsl.engine.phases.tricks` (the trick-taking kinds, their
state the state's ``table``).

    game = Game(rules)
    state = game.new_game(seed=7)
    while not state.is_terminal():
        seat = state.current_player()
        state.apply_action(choose(state.observation(seat), state.legal_actions()))
"""
from __future__ import annotations

from .actions import (PASS, SECRET_SEED, Action, Deal, SecretSeed, TwoPartDeal, bid_action, deal_from_keys, describe_play,
                      give_action, play_action)
from .game import Game
from .observation import Observation
from .state import KINDS, TERMINAL, State

__all__ = ["Game", "State", "Observation", "Action", "Deal", "TwoPartDeal", "PASS", "TERMINAL", "KINDS", "bid_action",
           "give_action", "play_action", "describe_play", "deal_from_keys", "SECRET_SEED", "SecretSeed"]
