"""A transfer from every seat to every other at once (``from: each, to: each_other``): each seat
chooses one gift per other seat, and with ``simultaneous: true`` nothing arrives before every
seat has chosen every gift."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from chimera_dsl import load_variant
from chimera_dsl.engine import Game
from chimera_dsl.players import make_player, play_game
from chimera_dsl.tell.record import replay

ROOT = Path(__file__).resolve().parents[1]
PRESIDENT = ROOT / "variants" / "others" / "president.yaml"
EACH = f"""extends: {PRESIDENT}
name: each to each
round: [deal, pass_cards, play, scoring]
phases:
  pass_cards: {{kind: transfer, from: each, to: each_other, count: 1, simultaneous: true}}
"""


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    path = tmp_path_factory.mktemp("each") / "each.yaml"
    path.write_text(EACH, encoding="utf-8")
    return load_variant(path)


def test_every_seat_gives_one_card_to_every_other_and_none_arrives_early(rules):
    rng = random.Random(3)
    state = Game(rules, target=10).new_game(5)
    dealt = list(state.held)
    asked = []
    while state.kind == "transfer":
        seat = state.current_player()
        observation = state.observation(seat)
        asked.append((seat, observation.give_to))
        for other in range(4):                  # nothing received yet: each hand is its dealt cards less its gifts
            assert state.held[other] & ~dealt[other] == 0
        legal = state.legal_actions()
        assert all(a.kind == "give" for a in legal)
        state.apply_action(legal[rng.randrange(len(legal))])
    assert len(asked) == 12 and len(set(asked)) == 12
    assert all(giver != to for giver, to in asked)
    lines = [e for e in state.events if e["type"] == "exchange"]
    assert sorted((e["from"], e["to"]) for e in lines) == sorted(asked)
    assert all(len(e["cards"]) == 1 and e["phase"] == "pass_cards" for e in lines)
    deck = rules.deck
    for seat in range(4):
        gave = {c for e in lines if e["from"] == seat for c in e["cards"]}
        got = {c for e in lines if e["to"] == seat for c in e["cards"]}
        assert len(gave) == len(got) == 3
        assert set(deck.mask_names(state.held[seat])) == (set(deck.mask_names(dealt[seat])) - gave) | got


def test_games_with_gifts_to_each_replay_and_search_imagines_them(rules):
    for seed in range(3):
        players = [make_player("search", seed, search_budget=4)] + [make_player("random", seed * 4 + s) for s in range(1, 4)]
        final = play_game(Game(rules, target=12), players, seed)
        assert final.is_terminal()
        lines = json.loads(json.dumps(final.events))
        assert replay(lines, rules).returns() == final.returns()
        forged = json.loads(json.dumps(lines))
        i = next(i for i, e in enumerate(forged) if e["type"] == "exchange")
        forged[i]["to"], forged[i + 1]["to"] = forged[i + 1]["to"], forged[i]["to"]
        with pytest.raises(Exception):
            replay(forged, rules)
