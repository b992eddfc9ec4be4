"""A file that validates plays to its end: the loader refuses, at the value to change, a file
whose leader could be left without a play, whose transfers could empty a hand, whose bidding
could redeal without end in practice, or whose game could never end."""
from __future__ import annotations

from pathlib import Path

import pytest

from chimera_dsl.engine import Game
from chimera_dsl.players import make_player
from chimera_dsl.engine.proofs import MAX_END_SEARCH, MAX_REDEALS
from chimera_dsl.variant import check_variant, load_variant

ROOT = Path(__file__).resolve().parents[1]
OFFICIAL = ROOT / "variants" / "chimera.yaml"

# The official scoring with every point taken away.
NO_POINTS = ("scoring:\n  treasures: {2: 0, 11: 0}\n"
             "  bidder_out_first: {bidder: 0, others: 0, bonuses: null}\n"
             "  other_out_first: {bidder: 0, others: 0}")


def house(tmp_path: Path, text: str, name: str = "house.yaml") -> Path:
    """A file extending the official one with ``text`` (YAML lines)."""
    path = tmp_path / name
    path.write_text(f"extends: {OFFICIAL}\n{text}\n", encoding="utf-8")
    return path


def problem_of(path: Path):
    [problem] = check_variant(path)
    return problem


def play_game(path: Path, seed: int = 1, max_actions: int = 200_000) -> dict:
    """A whole game of random players; its last event (the game's end)."""
    game = Game(load_variant(path))
    players = [make_player("random", seed + seat) for seat in range(game.players)]
    state = game.new_game(seed)
    for _ in range(max_actions):
        if state.is_terminal():
            return state.events[-1]
        seat = state.current_player()
        state.apply_action(players[seat].act(state.observation(seat), state.legal_actions()))
    raise AssertionError(f"no end after {max_actions} actions")


# -- a leader always has a play ------------------------------------------------------------------
def test_without_a_combination_of_one_card_the_file_is_refused_at_its_combinations(tmp_path):
    path = house(tmp_path, "combinations: {single: null}")
    problem = problem_of(path)
    assert (problem.file, problem.line, problem.column) == (str(path), 2, 15)
    assert problem.message == ("no combination plays the cards 1, 2, 3, 4, 5, 6, 7, 8 and 7 more alone, so a "
                               "player left holding only such a card could not lead")
    assert problem.hint == 'add a combination of one card, e.g. single: {pattern: "single of any"}'


def test_the_cards_that_cannot_be_led_alone_are_named(tmp_path):
    path = house(tmp_path, "combinations: {single: {pattern: 'single of number|H'}}")
    assert problem_of(path).message.startswith("no combination plays the cards P, C alone")


def test_cards_led_alone_by_different_combinations_are_enough(tmp_path):
    path = house(tmp_path, "combinations:\n  single: {pattern: 'single of number'}\n"
                           "  honour: {pattern: 'single of H|P|C', tier: 1}")
    assert check_variant(path) == []
    assert play_game(path)["type"] == "game_end"


# -- every hand holds a card when play begins ---------------------------------------------------
def test_an_exchange_of_a_whole_hand_is_refused_at_its_count(tmp_path):
    line = "exchange: {count_by_bid: {20: 0, 30: 1, 40: 17}}"
    problem = problem_of(house(tmp_path, line))
    assert problem.line == 2 and problem.column == line.index("17") + 1      # the largest count
    assert problem.message == ("this transfer takes up to 17 cards from a seat, but a hand holds 17: a seat could "
                               "have no card left to give or to play")
    assert check_variant(house(tmp_path, "exchange: {count_by_bid: {20: 0, 30: 1, 40: 16}}", "ok.yaml")) == []


def test_transfers_are_added_up_over_the_round(tmp_path):
    path = house(tmp_path, "round: [deal, bidding, nest, exchange, pass_on, play, scoring]\n"
                           "exchange: {count_by_bid: {20: 10, 30: 10, 40: 10}}\n"
                           "phases:\n  pass_on: {kind: transfer, from: others, to: next, count: 7}")
    problem = problem_of(path)
    assert problem.path == ("phases", "pass_on", "count") and problem.line == 5
    assert "takes up to 7 cards from a seat (with the transfers before it, 17)" in problem.message


# -- bidding ends -------------------------------------------------------------------------------
def test_redeals_are_bounded(tmp_path):
    path = house(tmp_path, f"bidding: {{all_pass: {{redeals_before_forced: {MAX_REDEALS + 1}}}}}")
    problem = problem_of(path)
    assert problem.path == ("bidding", "all_pass", "redeals_before_forced") and problem.line == 2
    assert problem.message.startswith(f"{MAX_REDEALS + 1} redeals before the forced bid")
    at_most = house(tmp_path, f"bidding: {{all_pass: {{redeals_before_forced: {MAX_REDEALS}}}}}", "ok.yaml")
    assert check_variant(at_most) == []


# -- the game ends ------------------------------------------------------------------------------
def test_points_that_never_reach_the_target_are_refused_at_the_scoring(tmp_path):
    path = house(tmp_path, NO_POINTS)
    problem = problem_of(path)
    assert (problem.file, problem.line, problem.column) == (str(path), 3, 3)
    assert problem.message == ("no seat can score more than 0 points in a round, so no total ever reaches "
                               "end.target (400) and the game never ends")
    assert "end.rounds" in problem.hint


def test_losing_points_only_never_reaches_the_target(tmp_path):
    path = house(tmp_path, "scoring:\n  treasures: null\n"
                           "  bidder_out_first: {bidder: {times_bid: -1}, others: -5, bonuses: null}\n"
                           "  other_out_first: {bidder: {times_bid: -1}, others: 0}")
    assert problem_of(path).path == ("scoring",)


def test_a_single_bonus_is_enough_to_reach_the_target(tmp_path):
    path = house(tmp_path, "scoring:\n  treasures: {2: 0, 11: 0}\n"
                           "  bidder_out_first: {bidder: 0, others: 0, bonuses: {bombs: {points: 5}, flight: null, "
                           "idle_hunter: null}}\n"
                           "  other_out_first: {bidder: 0, others: 0}")
    assert check_variant(path) == []


def test_a_number_of_rounds_ends_a_game_without_points(tmp_path):
    path = house(tmp_path, NO_POINTS + "\nend: {target: null, rounds: 2, ties: shared}")
    assert check_variant(path) == []
    end = play_game(path)
    assert end["rounds"] == 2 and end["totals"] == [0, 0, 0] and end["winners"] == [0, 1, 2]


def test_ties_that_play_on_for_ever_are_refused(tmp_path):
    path = house(tmp_path, NO_POINTS + "\nend: {target: null, rounds: 2, ties: play_on}")
    problem = problem_of(path)
    assert problem.path == ("end", "ties") and "stay tied" in problem.message


def test_a_target_out_of_reach_in_practice_is_refused(tmp_path):
    path = house(tmp_path, "end: {target: 100000000000}")
    problem = problem_of(path)
    assert problem.path == ("end", "target") and problem.line == 2
    assert f"takes more than {MAX_END_SEARCH} rounds" in problem.message


@pytest.mark.parametrize("condition, loads", [
    ("max(totals) >= 100", True),
    ("round >= 3", True),
    ("round == 7 and max(totals) < 10 ^ 9", True),
    ("min(totals) >= 100 or round >= 20", True),
    ("round < 0", False),
    (f"round > {MAX_END_SEARCH}", False),
    ("max(totals) < 0", False),
])
def test_an_end_condition_must_hold_in_some_round(tmp_path, condition, loads):
    path = house(tmp_path, f"end: {{target: null, when: '{condition}'}}")
    problems = check_variant(path)
    if loads:
        assert problems == []
    else:
        [problem] = problems
        assert problem.path == ("end", "when") and problem.line == 2
        assert problem.message == (f"this condition holds in none of the first {MAX_END_SEARCH} rounds of any "
                                   "outcome the loader tries (each won round after round), so the game may "
                                   "never end")


def test_an_end_condition_on_points_nobody_scores_is_refused(tmp_path):
    path = house(tmp_path, NO_POINTS + "\nend: {target: null, when: 'max(totals) >= 10'}")
    assert problem_of(path).path == ("end", "when")


def test_the_validate_command_exits_2_on_a_file_that_cannot_end(tmp_path, capsys):
    from chimera_dsl.cli import run
    path = house(tmp_path, NO_POINTS)
    assert run(["validate", str(path)]) == 2
    assert "the game never ends" in capsys.readouterr().err


# -- trick-taking rounds ---------------------------------------------------------------------------
CHIBRE = ROOT / "variants" / "others" / "chibre.yaml"


def test_a_trick_taking_file_needs_no_combination_to_lead_and_its_card_points_reach_the_target():
    # every card may lead a trick, and a side that takes every trick scores the deck's points
    assert check_variant(CHIBRE) == []


def test_a_trick_taking_file_whose_tricks_score_nothing_is_refused_at_the_scoring(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text(f"extends: {CHIBRE}\nscoring:\n  points:\n    each: {{cards: 0, announcements: 0}}\n",
                    encoding="utf-8")
    problem = problem_of(path)
    assert problem.path == ("scoring",)
    assert "no seat can score more than 0 points" in problem.message


def test_an_end_condition_reads_totals_with_half_points():
    # found by bench/fuzz_long.py: a scoring of -2.5 points made float totals the end condition refused
    from chimera_dsl.engine.scoring import compile_end
    end = compile_end(load_variant(OFFICIAL))
    assert end.over([100.5, 3, 2.0], 5, 100) and not end.over([99.5, 3, 2.0], 5, 100)


# -- every bid can be scored ----------------------------------------------------------------------
MU = ROOT / "variants" / "others" / "mu.yaml"


def test_a_table_too_short_for_a_bid_the_auction_can_reach_is_refused_at_the_fact_reading_it(tmp_path):
    path = tmp_path / "short.yaml"
    path.write_text(f"extends: {MU}\nscoring:\n  facts:\n    needed_by_bid: [24, 27, 30]\n", encoding="utf-8")
    problem = problem_of(path)
    assert problem.file == str(MU) and problem.line == MU.read_text(encoding="utf-8").splitlines().index(
        "    needed: at(needed_by_bid, bid)") + 1
    assert problem.message == ("a round won or lost at bid 4 cannot be scored: at() asks for element 4 of "
                               "'needed_by_bid', which has 3 (counted from 1)")
    assert problem.hint.startswith("give every table of facts an entry for each bid the round can reach")


@pytest.mark.parametrize("table, message", [
    ("[24, x, 30]", "scoring.facts.needed_by_bid.1 must be a number, not the string 'x'"),
    ("{a: 1}", "scoring.facts.needed_by_bid must be an expression or a list of numbers, not a map"),
    ("[]", "scoring.facts.needed_by_bid needs at least 1 item(s)"),
    ("[" + ", ".join(["1"] * 201) + "]", "scoring.facts.needed_by_bid may hold at most 200 items, not 201"),
])
def test_a_table_of_facts_holds_numbers(tmp_path, table, message):
    path = tmp_path / "bad.yaml"
    path.write_text(f"extends: {MU}\nscoring:\n  facts:\n    needed_by_bid: {table}\n", encoding="utf-8")
    problem = problem_of(path)
    assert (problem.file, problem.line, problem.message) == (str(path), 4, message)


def test_a_fact_written_as_a_condition_counts_once_where_a_term_reads_it(tmp_path):
    """``bombed: count(bomb) > 0`` is a fact (a number, 1 or 0) that terms may multiply: it was
    refused as 'a bool, not a number' at every bid."""
    path = tmp_path / "bombed.yaml"
    path.write_text(f"extends: {ROOT / 'variants' / 'others' / 'doudizhu.yaml'}\nscoring:\n  facts:\n"
                    "    bombed: count(bomb) > 0\n  bonuses:\n    sprung: spring == 1\n"
                    "  points:\n    bidder: {bombs: '10 * bombed + sprung'}\n", encoding="utf-8")
    assert check_variant(path) == []
    rules = load_variant(path)
    from chimera_dsl.engine.round import compile_round
    scoring = compile_round(rules).scoring
    env = {"bid": 2, "round": 1, "players": 3, "bidder_won": True, "_counts": {"bomb": 1}, "_plays": [1, 1, 1],
           "_roles": {"bidder": (0,), "others": (1, 2), "each": (0, 1, 2)}}
    seats = [{"won": s == 0, "out_first": s == 0, "cards_left": 0, "plays": 1, "card_points": 0} for s in range(3)]
    bonuses, parts, _ = scoring.score(env, seats, lambda s: "bidder" if s == 0 else "others")
    assert ["bombs", 10] in parts[0]
    assert bonuses["sprung"] is False           # the record keeps the condition as written
