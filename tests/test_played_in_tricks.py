"""What a state says was played this round (``played``, ``played_by``, ``plays``): a
trick-taking play reads it from its table's masks when asked, a climbing play keeps it as it
goes; either way it is what the record's card lines of the round add up to."""
import os
import random

import pytest

from chimera_dsl import load_variant
from chimera_dsl.engine import Game

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.parametrize("path", ["variants/others/hearts.yaml", "variants/others/bridge.yaml",
                                  "variants/others/skat.yaml", "variants/others/mu.yaml",
                                  "variants/others/euchre.yaml"])
def test_what_was_played_is_what_the_record_says(path):
    game = Game(load_variant(os.path.join(ROOT, path)), max_rounds=2)
    deck = game.rules.deck
    rng = random.Random(3)
    checked = 0
    for seed in range(3):
        state = game.new_game(seed)
        while not state.is_terminal():
            keys, counts = [0] * state.n, [0] * state.n     # (two cards of one name share their key)
            for line in state.events:
                if line["type"] == "card" and line["round"] == state.round and state.phase != "over":
                    keys[line["seat"]] += deck.key_of_mask(1 << deck.card_index[line["card"].upper()])
                    counts[line["seat"]] += 1
            assert state.plays == counts
            assert state.played_by == keys
            assert state.played == sum(keys)
            checked += sum(counts) != 0
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
    assert checked > 20
