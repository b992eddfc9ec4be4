"""Each house rule loads, runs, and changes the game where it should: measured with compare's
paired statistics on the same seeded deals as the official rules (deterministic by seed)."""
from __future__ import annotations

from pathlib import Path

import pytest

import chimera_dsl
from chimera_dsl.engine import Game
from chimera_dsl.players import play_game
from chimera_dsl.study.simulate import compare, unit_seed
from chimera_dsl.study.summary import PairedFigures, Summary, compare as compare_figures

ROOT = Path(__file__).resolve().parents[1]
OFFICIAL = ROOT / "variants" / "chimera.yaml"
HOUSE = ROOT / "variants" / "house_rules"


def load(name: str):
    return chimera_dsl.load_variant(HOUSE / f"{name}.yaml")


def by_name(comparison) -> dict:
    return {d.name: d for d in comparison.differences()}


class Passer:
    """Passes whenever it may; otherwise takes the first legal action (a forced bid, the first
    cards to give, the first lead).  Everyone passing forces the all-pass rules every deal."""

    name = "passer"

    def act(self, observation, legal_actions):
        for action in legal_actions:
            if action.kind == "pass":
                return action
        return legal_actions[0]


def paired_rounds(rules_a, rules_b, count: int, make_players) -> dict:
    """Single rounds of both variants on the same seeds, with the players ``make_players()``
    gives, summed and paired exactly as `chimera compare` does."""
    games = [Game(rules_a, max_rounds=1), Game(rules_b, max_rounds=1)]
    totals = [Summary.for_rules(rules_a, whole_games=False), Summary.for_rules(rules_b, whole_games=False)]
    paired = PairedFigures()
    for i in range(count):
        seed = unit_seed(21, i)
        units = []
        for game, total in zip(games, totals):
            unit = total.empty_copy().feed_all(play_game(game, make_players(), seed).events)
            total.merge(unit)
            units.append(unit)
        paired.add(*units)
    return {d.name: d for d in compare_figures(totals[0], totals[1], paired)}


def test_no_redeal_makes_the_first_passer_the_chimera_at_once(official):
    diffs = paired_rounds(official, load("no-redeal"), 60, lambda: [Passer(), Passer(), Passer()])
    redeals = diffs["redeals_per_round"]
    assert (redeals.a, redeals.b) == (1.0, 0.0) and redeals.significant
    forced = diffs["forced_bid_rate"]
    assert forced.a == forced.b == 1.0 and not forced.significant
    assert diffs["final_bid_20"].b == 1.0


def test_dealer_forced_puts_the_duty_on_the_dealer(official):
    diffs = paired_rounds(official, load("dealer-forced"), 60, lambda: [Passer(), Passer(), Passer()])
    dealer = diffs["bidder_at_position_0"]        # position 0: the dealer
    assert dealer.b == 1.0 and dealer.a < 0.6 and dealer.significant and dealer.diff > 0
    assert diffs["redeals_per_round"].diff == 0    # the redeal itself is unchanged


def test_tichu_bombs_are_played_out_of_turn(official):
    diffs = by_name(compare(official, load("tichu-bombs"), 250, single_rounds=True, seed=1,
                            players="random", workers=2))
    out_of_turn = diffs["out_of_turn_plays_per_round"]
    assert out_of_turn.a == 0 and out_of_turn.b > 0 and out_of_turn.significant
    # more bombs is the one question asked of this figure: its own interval answers it (the
    # family-wide correction of `significant` is for reading every figure at once)
    bombs = diffs["plays_of_bomb_per_round"]
    assert bombs.diff > 0 and bombs.diff - bombs.half_width > 0


def test_big_exchange_hands_over_one_more_card_each(official):
    comparison = compare(official, load("big-exchange"), 250, single_rounds=True, seed=1,
                         players="random", workers=2)
    exchanged = by_name(comparison)["cards_exchanged_per_round"]
    # random players bid the same on the same deals, so each round both hunters give one card more
    assert exchanged.diff == 2 and exchanged.significant
    assert max(comparison.differences(), key=lambda d: d.z).name == "cards_exchanged_per_round"


def test_double_treasures_doubles_the_treasures_and_nothing_else(official):
    comparison = compare(official, load("double-treasures"), 200, single_rounds=True, seed=1,
                         players="random", workers=2)
    diffs = by_name(comparison)
    for role in ("bidder", "others"):
        treasures = diffs[f"{role}_treasures_per_round"]
        assert treasures.b == pytest.approx(2 * treasures.a) and treasures.significant
    assert diffs["others_points_per_round"].significant and diffs["others_points_per_round"].diff > 0
    # points never change what random players do: the very same rounds were played
    for same in ("bidder_success", "tricks_per_round", "plays_per_round", "plays_of_bomb_per_round"):
        assert diffs[same].diff == 0 and not diffs[same].significant


def test_target_300_shortens_the_game(official):
    comparison = compare(official, load("target-300"), 30, seed=1, players="random", workers=2)
    diffs = by_name(comparison)
    assert diffs["rounds_per_game"].diff < 0 and diffs["rounds_per_game"].significant
    assert diffs["winning_total"].diff < 0 and diffs["winning_total"].significant
    strongest = sorted(comparison.differences(), key=lambda d: -d.z)[:2]
    assert {d.name for d in strongest} == {"rounds_per_game", "winning_total"}
    assert comparison.b.as_dict()["figures"]["winning_total"]["mean"] >= 300
