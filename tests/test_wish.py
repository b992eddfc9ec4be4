"""The wish (``play.effects`` with ``do: {wish: [RANK, ...]}``): the player names a rank, and a seat
that can then make a legal play holding a card of that rank must make one, in its turn, until one
is played.  General key: the tests check the engine against a recomputation of the legal plays."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from chimera_dsl import load_variant
from chimera_dsl.engine import PASS, Game
from chimera_dsl.errors import VariantError
from chimera_dsl.tell.record import replay

ROOT = Path(__file__).resolve().parents[1]
PRESIDENT = ROOT / "variants" / "others" / "president.yaml"
WISH = f"""extends: {PRESIDENT}
name: wish
play:
  effects:
    - {{when: "play_rank == 1", do: {{wish: ["4", "5", "6", "7", "8", "9", "10", J, Q, K, A]}}}}
"""


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    path = tmp_path_factory.mktemp("wish") / "wish.yaml"
    path.write_text(WISH, encoding="utf-8")
    return load_variant(path)


def test_a_wished_rank_must_be_played_when_it_can_be(rules):
    deck = rules.deck
    forced = free = wishes = fulfilled = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = Game(rules, target=20).new_game(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.wishing is not None:
                wishes += 1
                assert {a.kind for a in legal} == {"wish"} and len(legal) == 12
                action = legal[1 + rng.randrange(11)]            # a rank, never "no wish" here
                state.apply_action(action)
                assert state.wish == action.cards
                continue
            if state.wish is not None and state.kind == "play" and not state.interrupting:
                free_world = state.clone()
                free_world.climb.wish = None
                free_world._legal = None
                unfiltered = free_world.legal_actions()
                holding = [a for a in unfiltered if a.kind == "play" and deck.count_of(a.play.key, state.wish)]
                if holding:
                    assert legal == holding and PASS not in legal
                    forced += 1
                else:
                    assert legal == unfiltered
                    free += 1
            wish, played = state.wish, None
            action = legal[rng.randrange(len(legal))]
            if action.kind == "play":
                played = action.play.key
            round_ = state.round
            state.apply_action(action)
            if wish is not None and played is not None and deck.count_of(played, wish) and state.round == round_:
                assert state.wish is None
                fulfilled += 1
        lines = json.loads(json.dumps(state.events))
        assert replay(lines, rules).returns() == state.returns()
    assert wishes > 20 and forced > 20 and free > 20 and fulfilled > 10


def test_a_wish_is_checked_where_it_is_written(tmp_path):
    for do, message in (("{wish: [Z]}", "unknown rank 'Z'"), ("{wish: []}", "needs at least 1 item")):
        path = tmp_path / "bad.yaml"
        path.write_text(f"extends: {PRESIDENT}\nplay:\n  effects:\n    - {{do: {do}}}\n", encoding="utf-8")
        with pytest.raises(VariantError) as error:
            load_variant(path)
        assert message in str(error.value) and f"{path}:4:" in str(error.value), str(error.value)
