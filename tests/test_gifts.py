"""The gifts of a pass of cards (a trick-taking file's ``transfer``) are offered as a lazy list,
``chimera_dsl.engine.game.Gifts``: it must read, compare and check as the full list would."""
from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest

from chimera_dsl import load_variant
from chimera_dsl.engine import Game
from chimera_dsl.engine.actions import Action
from chimera_dsl.errors import IllegalActionError

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def game():
    return Game(load_variant(ROOT / "variants" / "others" / "hearts.yaml"), max_rounds=1)


def listed(game, held: int) -> list:
    """Every gift of three cards of ``held``, listed eagerly in itertools order."""
    deck = game.rules.deck
    cards = [c for c in range(len(deck.cards)) if held >> c & 1]
    out = []
    for combo in combinations(cards, 3):
        mask = sum(1 << c for c in combo)
        out.append(Action("give", cards=deck.key_of_mask(mask), mask=mask))
    return out


def test_the_lazy_gifts_are_the_full_list(game):
    state = game.new_game(3)
    assert state.phase == "passing"
    legal = state.legal_actions()
    full = listed(game, state.held[state.current_player()])
    assert len(legal) == len(full) == 286
    assert legal == full and list(legal) == full
    assert [legal[i] for i in range(len(legal))] == full
    assert legal[-1] == full[-1] and legal[5:8] == full[5:8]
    assert all(a in legal for a in full)
    with pytest.raises(IndexError):
        legal[286]


def test_a_gift_not_offered_is_refused(game):
    state = game.new_game(3)
    seat = state.current_player()
    held = state.held[seat]
    legal = state.legal_actions()
    two = listed(game, held)[0]
    low = two.mask & -two.mask
    short = Action("give", cards=game.rules.deck.key_of_mask(two.mask ^ low), mask=two.mask ^ low)
    assert short not in legal                          # two cards, not three
    other = state.held[(seat + 1) % 4]
    theirs = next(iter(listed(game, other)))
    assert theirs not in legal                         # cards of another seat
    wrong_key = two._replace(cards=two.cards + 1)
    assert wrong_key not in legal                      # the key does not match the cards
    for action in (short, theirs):
        with pytest.raises(IllegalActionError):
            state.apply_action(action)


def test_an_equal_gift_not_the_offered_object_is_taken(game):
    state = game.new_game(3)
    seat = state.current_player()
    copy = Action(*listed(game, state.held[seat])[7])    # equal, but not an object the list gave
    held = state.held[seat]
    state.apply_action(copy)
    assert state.current_player() != seat or state.held[seat] != held
