"""``bidding.all_pass.then: void``: a round nobody bids in ends at once, nobody scoring (as
OpenSpiel's Dou Dizhu ends its one-round game at 0); the loader requires an end that such
rounds reach, the record says it, and every reader of records understands it."""
from __future__ import annotations

from pathlib import Path

import pytest

import chimera_dsl
from chimera_dsl.engine import PASS, Game
from chimera_dsl.tell.printer import tell
from chimera_dsl.tell.record import replay
from chimera_dsl.tell.rulebook import write_rulebook
from chimera_dsl.study.summary import Summary
from chimera_dsl.variant import check_variant

ROOT = Path(__file__).resolve().parents[1]
DOUDIZHU = ROOT / "variants" / "others" / "doudizhu-openspiel.yaml"
CHIMERA = ROOT / "variants" / "chimera.yaml"
RULES = chimera_dsl.load_variant(DOUDIZHU)


def all_pass(state) -> None:
    """Every seat passes in the bidding of the round now dealt."""
    for _ in range(state.game.players):
        assert state.kind == "bidding" and PASS in state.legal_actions()
        state.apply_action(PASS)


def test_a_round_nobody_bids_in_is_void_and_the_next_one_is_dealt():
    state = Game(RULES).new_game(3)
    dealer = state.dealer
    all_pass(state)
    [end] = [e for e in state.events if e["type"] == "round_end"]
    assert end["void"] is True and end["out"] is None
    assert end["points"] == [0, 0, 0] and end["totals"] == [0, 0, 0]
    assert "redeal" not in [e["type"] for e in state.events]
    assert (state.round, state.kind) == (2, "bidding")            # a round played, the next one dealt
    assert state.events[-1]["type"] == "deal" or state.events[-2]["type"] == "deal"
    assert state.dealer == (dealer + state.step) % 3                # the next dealer, as deal.next_dealer says


def test_a_game_of_one_round_nobody_bids_in_ends_at_zero():
    state = Game(RULES, max_rounds=1).new_game(5)
    all_pass(state)
    assert state.is_terminal()
    assert state.returns() == [0, 0, 0]
    assert state.events[-1]["type"] == "game_end"


def test_the_void_round_is_recorded_replayed_printed_and_counted():
    state = Game(RULES, max_rounds=2).new_game(8)
    all_pass(state)
    while not state.is_terminal():                    # the second round: the first legal action each time
        state.apply_action(state.legal_actions()[-1])
    events = state.events
    final = replay(events, RULES)
    assert final.returns() == state.returns()
    text = "\n".join(tell(events, RULES))
    assert "everyone passed: the round is void, nobody scores" in text
    summary = Summary.for_rules(RULES).feed_all(events)
    assert summary.rounds == 2
    void = summary.acc["void_round_rate"]
    assert (void.hits, void.n) == (1, 2)                              # one void round of the two
    assert summary.acc["bidder_success"].n == 1                        # the bidder's figures: the other round
    assert "forced_bid_rate" not in summary.acc                        # nobody is ever forced to bid
    assert "void_round_rate" not in Summary.for_rules(chimera_dsl.load_variant(CHIMERA)).feed_all(events).acc


def test_a_hand_edited_void_round_is_refused_at_its_line():
    state = Game(RULES, max_rounds=1).new_game(5)
    all_pass(state)
    events = [dict(e) for e in state.events]
    end = next(e for e in events if e["type"] == "round_end")
    end["points"] = [2, -1, -1]
    with pytest.raises(chimera_dsl.errors.RecordError, match="points"):
        replay(events, RULES)


def test_the_rulebook_says_so_in_each_language():
    said = {lang: write_rulebook(RULES, lang=lang) for lang in ("en", "fr", "de")}
    assert "If everyone passes, the round is void: nobody scores" in said["en"]
    assert "Si tous passent, la manche est nulle" in said["fr"]
    assert "Passen alle, ist die Runde ungültig" in said["de"]
    assert "void" not in write_rulebook(chimera_dsl.load_variant(CHIMERA), lang="en")


def house(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(f"extends: {DOUDIZHU}\n{text}\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("end", ["end: {rounds: null, target: 50}", "end: {rounds: 12, ties: play_on}"])
def test_void_rounds_need_an_end_that_zero_totals_reach(tmp_path, end):
    path = house(tmp_path, end)
    problems = check_variant(path)
    [problem] = [p for p in problems if "void" in p.message]
    assert problem.message.startswith("all_pass.then: void: if nobody ever bids")
    assert "end: {rounds: 12, ties: shared}" in problem.hint
    assert problem.file == str(DOUDIZHU) or problem.file == str(path)


def test_then_is_checked_against_its_two_values(tmp_path):
    path = house(tmp_path, "bidding:\n  all_pass: {then: redeal}")
    [problem] = check_variant(path)
    assert (problem.line, problem.column) == (3, 20)
    assert "forced_bid" in problem.message and "void" in problem.message


def test_forced_bid_stays_the_default():
    state = Game(chimera_dsl.load_variant(CHIMERA)).new_game(2)
    for _ in range(10):
        if state.kind != "bidding":
            break
        state.apply_action(PASS)
    kinds = [e["type"] for e in state.events]
    assert "redeal" in kinds and all(not e.get("void") for e in state.events)


@pytest.mark.parametrize("seat", ["previous_round.first_out", "previous_round.most_cards_left"])
def test_a_dealer_named_by_the_last_round_needs_a_fallback_when_a_round_may_be_void(tmp_path, seat):
    """A void first round names nobody out first: the next dealer must fall back on a seat."""
    path = house(tmp_path, f"deal: {{next_dealer: {seat}}}")
    [problem] = [p for p in check_variant(path) if "next_dealer" in p.message]
    assert "may name nobody" in problem.message and "void" in problem.message
    assert (problem.file, problem.line) == (str(path), 2)
    assert "[previous_round.first_out, dealer]" in problem.hint
    fixed = house(tmp_path, f"deal: {{next_dealer: [{seat}, dealer_left]}}")
    assert check_variant(fixed) == []
    state = Game(chimera_dsl.load_variant(fixed), max_rounds=3).new_game(5)
    all_pass(state)                                   # a void first round: the dealer's left deals next
    assert state.round == 2 and state.kind == "bidding"


def test_with_void_rounds_the_forced_keys_are_not_read(tmp_path):
    """No card face up and an inherited forced_bidder: face_up_holder: with then: void nobody is
    forced to bid, so the key that could not be played is not held against the file."""
    path = tmp_path / "no-face-up.yaml"
    path.write_text(f"extends: {ROOT / 'variants' / 'others' / 'doudizhu.yaml'}\n"
                    "deal: {face_up: false, face_up_in_nest: null}\n"
                    "bidding:\n  opener: dealer\n  all_pass: {redeals_before_forced: 0, then: void}\n"
                    "end: {rounds: 3, ties: shared}\n", encoding="utf-8")
    assert check_variant(path) == []
    state = Game(chimera_dsl.load_variant(path)).new_game(4)
    all_pass(state)
    assert [e for e in state.events if e["type"] == "round_end"][0]["void"] is True
    forced = tmp_path / "forced.yaml"
    forced.write_text(path.read_text(encoding="utf-8").replace(", then: void", ""), encoding="utf-8")
    [problem] = check_variant(forced)
    assert "forced_bidder is face_up_holder, but no card is dealt face up" in problem.message
