"""A partner phase in a climbing round: the bidder names a seat, the two play as a side (they
win together when either goes out first, ``team_out`` waits for both, the partner is scored by
its own role's term), and the phase needs a bidder named before it."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from chimera_dsl import load_variant
from chimera_dsl.engine import Action, Game
from chimera_dsl.errors import VariantError
from chimera_dsl.tell.record import replay

ROOT = Path(__file__).resolve().parents[1]
CALLED = ROOT / "tests" / "variants" / "compose" / "climbing-called-partner.yaml"


@pytest.fixture(scope="module")
def rules():
    return load_variant(CALLED)


def _round(rules, seed: int, pick):
    """Play one round with seeded random choices, the bidder naming ``pick(candidates)``; the
    state when the round's end line is written, and the partner named."""
    state = Game(rules).new_game(seed)
    rng = random.Random(seed)
    partner = bidder = None
    while not any(e["type"] == "round_end" for e in state.events):
        legal = state.legal_actions()
        if state.kind == "partner":
            seats = [a.cards for a in legal]
            bidder = state.bidder
            assert bidder not in seats and len(seats) == 3
            partner = pick(seats)
            state.apply_action(Action("partner", cards=partner))
            continue
        state.apply_action(rng.choice(legal))
    return state, bidder, partner


def test_the_bidder_and_the_partner_it_names_win_or_lose_together(rules):
    word = Game(rules).round.role_word
    seen = set()
    for seed in range(40):
        state, bidder, partner = _round(rules, seed, lambda seats: seats[seed % len(seats)])
        end = next(e for e in state.events if e["type"] == "round_end")
        side = {bidder, partner}
        won = end["places"][0] in side
        assert end[f"{word}_won"] is won
        bid = end["bid"]
        points = end["points"]
        assert points[bidder] - end["treasures"][bidder] == (2 * bid if won else -bid)
        assert points[partner] - end["treasures"][partner] == (bid if won else -bid)
        for seat in set(range(4)) - side:
            assert points[seat] - end["treasures"][seat] == (0 if won else 20)
        # the round ends when a whole side is out: the bidder and its partner, or the two others
        out = end["places"][:[p for p in range(4) if end["cards_left"][end["places"][p]] == 0][-1] + 1]
        sides = [side, set(range(4)) - side]
        assert any(s <= set(out) for s in sides)
        assert not any(s <= set(out[:-1]) for s in sides)
        seen.add(won)
    assert seen == {True, False}


def test_each_seat_sees_its_partner_once_named(rules):
    state = Game(rules).new_game(3)
    rng = random.Random(3)
    while state.kind != "partner":
        state.apply_action(rng.choice(state.legal_actions()))
    bidder = state.bidder
    partner = next(s for s in range(4) if s != bidder)
    state.apply_action(Action("partner", cards=partner))
    rest = [s for s in range(4) if s not in (bidder, partner)]
    assert state.observation(bidder).partner == partner
    assert state.observation(partner).partner == bidder
    assert state.observation(rest[0]).partner == rest[1]
    assert state.role_of(partner) == "partner"
    assert state.named_seat("partner") == partner


def test_a_game_with_a_partner_named_each_round_replays(rules):
    from chimera_dsl.players import make_player, play_game
    state = play_game(Game(rules), [make_player("heuristic", seed=s) for s in range(4)], seed=11)
    lines = state.events
    assert sum(e["type"] == "partner" for e in lines) == sum(e["type"] == "round_end" for e in lines)
    replayed = replay(lines, rules)
    assert replayed.events == lines


def test_a_partner_phase_needs_a_bidder_named_before_it(tmp_path):
    path = tmp_path / "no-bidder.yaml"
    path.write_text(f"extends: {CALLED}\nround: [deal, partner, bidding, nest, play, scoring]\n"
                    "phases:\n  partner: {kind: partner}\n", encoding="utf-8")
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    text = str(caught.value)
    assert "no-bidder.yaml:4:19:" in text
    assert "a partner phase needs a bidder, which no phase before it names" in text
    assert "put a bidding or an auction phase before it" in text
