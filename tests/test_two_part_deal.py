"""A deal in two parts (``deal.first``, ``deal.rest_after``) on a test file over President
(tests/variants/valid/calls-and-two-part-deal.yaml: 13 cards each, 6 seen first, the rest after the
``grand`` calls): what each seat sees, what a search player imagines, what the record keeps and
replay checks, what the told game and the web table show, and misuse refused where it is written."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from chimera_dsl import load_variant
from chimera_dsl.engine import PASS, Deal, Game, TwoPartDeal
from chimera_dsl.errors import VariantError
from chimera_dsl.players import make_player, play_game
from chimera_dsl.serve.view import seat_view
from chimera_dsl.tell.printer import Teller
from chimera_dsl.tell.record import replay

ROOT = Path(__file__).resolve().parents[1]
TWO_PARTS = ROOT / "tests" / "variants" / "valid" / "calls-and-two-part-deal.yaml"
PRESIDENT = ROOT / "variants" / "others" / "president.yaml"


@pytest.fixture(scope="module")
def rules():
    return load_variant(TWO_PARTS)


def _mask(rules, names) -> int:
    return rules.deck.cards_mask(list(names)) if names else 0


def _ones(mask: int) -> int:
    return bin(mask).count("1")


def test_a_seat_sees_its_first_cards_until_the_calls_are_over(rules):
    state = Game(rules).new_game(4)
    deal = next(e for e in state.events if e["type"] == "deal")
    assert state.phase == "grand"
    for seat in range(4):
        first = _mask(rules, deal["first"][seat])
        whole = _mask(rules, deal["hands"][seat])
        assert _ones(first) == 6 and first & ~whole == 0
        obs = state.observation(seat)
        assert obs.held == first and len(obs.cards) == 6 and obs.unseen == 7
        assert obs.hand == rules.deck.key_of_mask(first)
        assert obs.hand_sizes == (13, 13, 13, 13)          # every seat knows how many cards each was dealt
    while state.phase == "grand":
        assert state.observation(state.current_player()).unseen == 7
        state.apply_action(PASS)
    assert state.events[-1] == {"type": "rest_seen", "round": 1}
    for seat in range(4):
        obs = state.observation(seat)
        assert obs.held == _mask(rules, deal["hands"][seat]) and obs.unseen == 0


def test_the_first_part_is_the_first_cards_dealt_to_each_seat(rules):
    game = Game(rules)
    deal = game.deal(7, 1, dealer=0)
    assert isinstance(deal, TwoPartDeal)
    hands, nest, face_up = deal                   # unpacked as any deal
    assert hands == deal.hands
    for hand, first in zip(deal.hands, deal.first):
        assert _ones(first) == 6 and first & ~hand == 0
    # dealt one at a time from the seat after the dealer: the shuffle's first 24 cards make the four first parts
    stack_first = set()
    for first in deal.first:
        stack_first |= set(rules.deck.numbers_of(first))
    assert len(stack_first) == 24


def test_a_deal_given_as_hands_shows_each_seat_its_lowest_cards_first(rules):
    deck = rules.deck
    suits = ("clubs", "diamonds", "hearts", "spades")
    hands = tuple(deck.cards_mask([f"{r}/{s}" for r in deck.ranks]) for s in suits)
    state = Game(rules).new_game(0, deals=iter([Deal(hands, 0, None)]), first_dealer=0)
    assert state.observation(2).cards == [f"{r}/hearts" for r in deck.ranks[:6]]
    chosen = tuple(deck.cards_mask([f"{r}/{s}" for r in deck.ranks[-6:]]) for s in suits)
    state = Game(rules).new_game(0, deals=iter([TwoPartDeal(hands, 0, None, chosen)]), first_dealer=0)
    assert state.observation(2).cards == [f"{r}/hearts" for r in deck.ranks[-6:]]
    line = next(e for e in state.events if e["type"] == "deal")
    assert line["first"][2] == [f"{r}/hearts" for r in deck.ranks[-6:]]


def test_resampling_keeps_the_seen_cards_and_deals_the_unseen_again(rules):
    state = Game(rules).new_game(11)
    seat = state.current_player()
    seen = state.observation(seat).held
    real = state.held[seat]
    dealt = 0
    for held in state.held:
        dealt |= held
    moved = False
    for k in range(30):
        world = state.observation(seat).sample(random.Random(k))
        mine = world.held[seat]
        assert mine & seen == seen and _ones(mine) == 13
        assert world.unseen[seat] == mine & ~seen
        assert world.observation(seat).held == seen
        union = 0
        for s, held in enumerate(world.held):
            assert union & held == 0
            union |= held
            assert _ones(held) == 13
            assert _ones(world.unseen[s]) == 7 and world.unseen[s] & ~held == 0
        assert union == dealt
        moved |= mine != real
    assert moved, "the seat's unseen cards are imagined, not read from the real hand"


def test_a_seat_is_told_only_the_cards_it_has_seen(rules):
    state = Game(rules, max_rounds=1).new_game(4)
    while state.phase == "grand":
        state.apply_action(PASS)
    deal = next(e for e in state.events if e["type"] == "deal")
    told = list(Teller(rules, seat=1, live=True).lines(state.events))
    first = " ".join(deal["first"][1])
    rest = " ".join(c for c in deal["hands"][1] if c not in deal["first"][1])
    assert f"  seat 1 (you): {first}, 7 cards not seen yet" in told
    assert f"  seat 1 (you) sees the rest of its hand: {rest}" in told
    assert "  seat 2: 13 cards" in told
    whole = list(Teller(rules).lines(state.events))
    assert f"  seat 1: {first}, then {rest}" in whole


def test_the_web_table_shows_only_the_cards_seen(rules):
    game = Game(rules)
    state = game.new_game(4)
    seat = state.current_player()
    view = seat_view(game, state.observation(seat), state.events)
    deal = next(e for e in state.events if e["type"] == "deal")
    assert view["hand"] == deal["first"][seat] and view["unseen"] == 7


def test_replay_reads_and_checks_the_first_cards(rules):
    state = play_game(Game(rules, max_rounds=2), [make_player("random", s) for s in range(4)], 3)
    events = json.loads(json.dumps(state.events))
    assert replay(events, rules).totals == state.totals
    at = next(i for i, e in enumerate(events) if e["type"] == "deal")
    other = next(c for c in events[at]["hands"][1] if c not in events[at]["first"][0])
    forged = json.loads(json.dumps(events))
    forged[at]["first"][0][0] = other
    with pytest.raises(Exception, match="'first' names cards seat 0 is not dealt"):
        replay(forged, rules)
    forged = json.loads(json.dumps(events))
    forged[at]["first"][0] = forged[at]["first"][0][:5]
    with pytest.raises(Exception, match="seat 0 sees 5 cards first, but the variant shows 6"):
        replay(forged, rules)
    forged = json.loads(json.dumps(events))
    del forged[at]["first"]
    with pytest.raises(Exception, match="deals in two parts"):
        replay(forged, rules)
    forged = [e for e in json.loads(json.dumps(events)) if e["type"] != "rest_seen"]
    with pytest.raises(Exception, match="rest_seen"):
        replay(forged, rules)


@pytest.mark.parametrize("lines, where, words", [
    ("deal: {first: 13}\n", ":2:15:", "deal.first is 13: a deal in two parts shows each seat fewer cards first"),
    ("deal: {rest_after: nope}\n", ":2:20:", "deal.rest_after names 'nope', which is not a phase of the round"),
    ("round: [deal, tribute, grand, play, scoring]\n", ":", "the transfer phase 'tribute' comes before the rest is seen"),
    ("deal: {rest_after: play}\n", ":2:20:", "the play phase 'play' comes before the rest is seen"),
])
def test_misused_two_part_deals_are_errors_at_their_place(tmp_path, lines, where, words):
    bad = tmp_path / "bad.yaml"
    bad.write_text(f"extends: {TWO_PARTS}\n" + lines, encoding="utf-8")
    with pytest.raises(VariantError) as error:
        load_variant(bad)
    text = str(error.value)
    assert where in text and words in text, text


@pytest.mark.parametrize("lines, where, words", [
    ("deal: {rest_after: play}\n", "bad.yaml:2:20:", "deal.first is not given"),
    ("deal: {first: 6}\n", "bad.yaml:2:15:", "deal.rest_after does not say after which phase"),
    ("deal: {first: 6, rest_after: play}\n", "bad.yaml:2:15:", "rest: dealt gives some seats one more card"),
])
def test_a_two_part_deal_needs_both_keys_and_even_hands(tmp_path, lines, where, words):
    bad = tmp_path / "bad.yaml"
    base = PRESIDENT.with_name("president-5.yaml") if "rest: dealt" in words else PRESIDENT   # 52 cards to 5: 11, 11, 10...
    bad.write_text(f"extends: {base}\n" + lines, encoding="utf-8")
    with pytest.raises(VariantError) as error:
        load_variant(bad)
    text = str(error.value)
    assert where in text and words in text, text
