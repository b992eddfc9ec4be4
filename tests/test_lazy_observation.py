"""A lazy observation (``State.observation(seat, lazy=True)``, what the search player's
playouts read) holds what the whole observation holds, field for field, whichever field is
read first; its later fields are read from the state as it is when first asked."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from chimera_dsl import load_variant
from chimera_dsl.engine import Game
from chimera_dsl.engine.observation import LazyObservation, Observation

ROOT = Path(__file__).resolve().parent.parent
FILES = ["variants/chimera.yaml", "variants/others/gang-of-four.yaml", "variants/others/tichu.yaml",
         "variants/others/hearts.yaml", "variants/others/mu.yaml", "variants/others/bridge.yaml",
         "variants/others/doudizhu.yaml", "variants/others/belote.yaml"]


@pytest.mark.parametrize("path", FILES)
@pytest.mark.parametrize("first", ["hand", "table", "nest"])
def test_a_lazy_observation_equals_the_whole_one(path, first):
    game = Game(load_variant(str(ROOT / path)), max_rounds=1)
    rng = random.Random(7)
    state = game.new_game(3)
    compared = 0
    while not state.is_terminal():
        for seat in range(state.n):
            whole = state.observation(seat)
            lazy = state.observation(seat, lazy=True)
            assert type(lazy) is LazyObservation and isinstance(lazy, Observation)
            assert getattr(lazy, first) == getattr(whole, first)
            assert repr(lazy.as_dict()) == repr(whole.as_dict())
            compared += 1
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert compared > 20


def test_a_lazy_observation_reads_its_later_fields_when_first_asked():
    game = Game(load_variant(str(ROOT / "variants/chimera.yaml")), max_rounds=1)
    state = game.new_game(1)
    lazy = state.observation(state.current_player(), lazy=True)
    legal = state.legal_actions()
    state.apply_action(legal[0])
    assert lazy.phase == state.phase          # read now, from the state as it is now
    with pytest.raises(AttributeError):
        lazy.no_such_field                    # noqa: B018


def test_the_search_plays_the_same_with_a_lazy_view():
    from chimera_dsl.engine.state import State
    from chimera_dsl.players.search import SearchPlayer
    game = Game(load_variant(str(ROOT / "variants/chimera.yaml")), max_rounds=1)
    whole = State.observation

    def choices(eager: bool) -> list:
        State.observation = (lambda self, seat, lazy=False: whole(self, seat)) if eager else whole
        try:
            player, rng, out = SearchPlayer(5), random.Random(2), []
            state = game.new_game(11)
            while not state.is_terminal():
                seat = state.current_player()
                action = player.act(state.observation(seat), state.legal_actions()) if seat == 0 \
                    else state.legal_actions()[rng.randrange(len(state.legal_actions()))]
                out.append(action)
                state.apply_action(action)
            return out
        finally:
            State.observation = whole
    assert choices(eager=False) == choices(eager=True)
