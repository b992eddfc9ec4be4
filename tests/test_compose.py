"""A round composes or refuses: the phase kinds and play kinds, put together in any shipped file,
either load and play to their end, or are refused when the file loads with a located problem.

Never a file that validates and then stops every game (a seat with no legal action, an internal
error) or never ends.  The broken files of ``tests/variants/invalid/`` pin the exact messages
of the refusals; here the whole matrix is played.
"""
from __future__ import annotations

from pathlib import Path

from chimera_dsl import load_variant
from chimera_dsl.engine import Game
from chimera_dsl.players import make_player
from chimera_dsl.variant import check_variant

ROOT = Path(__file__).resolve().parents[1]
CHIBRE = ROOT / "variants" / "others" / "chibre.yaml"


def game_ends(rules, seed: int, bound: int = 50_000) -> str | None:
    """None when a whole game of random players ends within ``bound`` decisions; else why not."""
    game = Game(rules)
    players = [make_player("random", seed * 10 + seat) for seat in range(game.players)]
    state = game.new_game(seed)
    for _ in range(bound):
        if state.is_terminal():
            return None
        seat = state.current_player()
        state.apply_action(players[seat].act(state.observation(seat), state.legal_actions()))
    return f"no end after {bound} decisions (round {state.round})"


def test_a_trick_round_keeps_transfers_that_leave_the_hands_even(write_variant):
    """A gift given back between the same seats keeps every hand at one size, so a trick-taking
    round may have it (Gang of Four's tribute and give-back): the file loads and plays to its end."""
    path = write_variant(f"""
extends: {CHIBRE}
round: [deal, gift, gift_back, trump, play, scoring]
phases:
  gift: {{kind: transfer, from: dealer, to: {{next_of: dealer}}, count: 1, choose: highest, when: round > 1}}
  gift_back: {{kind: transfer, from: {{next_of: dealer}}, to: dealer, count: 1, when: round > 1}}
""")
    assert check_variant(path) == []
    assert game_ends(load_variant(path), 1) is None


UNEVEN = [(5, ("phases", "gift", "to")), (6, ("phases", "gift_back", "to"))]


def test_a_gift_not_given_back_the_same_way_leaves_the_hands_uneven(write_variant):
    """Given back under another condition, or more cards than it took, or with a phase between the
    two (a seat they name may change there), the gift and what it gives back each leave the hands
    uneven in some round: refused, each at its to."""
    for changed in ("count: 1, when: round > 2", "count: 2, when: round > 1"):
        path = write_variant(f"""
extends: {CHIBRE}
round: [deal, gift, gift_back, trump, play, scoring]
phases:
  gift: {{kind: transfer, from: dealer, to: {{next_of: dealer}}, count: 1, when: round > 1}}
  gift_back: {{kind: transfer, from: {{next_of: dealer}}, to: dealer, {changed}}}
""")
        assert [(p.line, p.path) for p in check_variant(path)] == UNEVEN, changed
    path = write_variant(f"""
extends: {CHIBRE}
round: [deal, gift, trump, gift_back, play, scoring]
phases:
  gift: {{kind: transfer, from: dealer, to: {{next_of: dealer}}, count: 1}}
  gift_back: {{kind: transfer, from: {{next_of: dealer}}, to: dealer, count: 1}}
""")
    assert [(p.line, p.path) for p in check_variant(path)] == UNEVEN


def test_gang_of_four_as_tricks_plays_when_scored_by_the_tricks(write_variant):
    """Played as tricks, Gang of Four's penalty on the cards left scores nothing (refused: see
    invalid/trick-round-scored-by-cards-left.yaml); scored by the tricks taken, its round (the
    tribute given back) loads and its game ends."""
    path = write_variant(f"""
extends: {ROOT / "variants" / "others" / "gang-of-four.yaml"}
play: {{kind: tricks}}
scoring: {{points: {{each: {{penalty: tricks_taken}}}}}}
""")
    assert check_variant(path) == []
    assert game_ends(load_variant(path), 2) is None


def test_the_others_give_only_once_a_phase_has_named_the_bidder(write_variant):
    """``from: others`` (every seat but the bidder) in a round where nothing before it names a
    bidder would hand nothing: refused at its from.  Another role names its one seat, like any
    seat expression: one not always given needs a fallback."""
    path = write_variant(f"""
extends: {CHIBRE}
round: [deal, ring, trump, play, scoring]
phases:
  ring: {{kind: transfer, from: others, to: next, count: 1}}
""")
    problems = check_variant(path)
    assert [(p.line, p.path) for p in problems] == [(5, ("phases", "ring", "from"))]
    assert "no phase before it names a bidder" in problems[0].message
    path = write_variant(f"""
extends: {ROOT / "variants" / "others" / "doudizhu.yaml"}
round: [deal, bidding, nest, gift, play, scoring]
roles: {{helper: helper}}
phases:
  gift: {{kind: transfer, from: helper, to: bidder, count: 1}}
""")
    assert [(p.line, p.path) for p in check_variant(path)] == [(6, ("phases", "gift", "from"))]
