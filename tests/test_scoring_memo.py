"""The scoring's memo (engine.scoring._Memo): a round that reads as one scored before takes
that score, which must be exactly what scoring it anew gives."""
import os
import random

import pytest

from chimera_dsl import load_variant
from chimera_dsl.engine import Game
from chimera_dsl.engine import scoring as scoring_module

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def records(path: str, games: int, memo: bool, monkeypatch) -> list:
    with monkeypatch.context() as patch:
        if not memo:
            patch.setattr(scoring_module.Scoring, "_memo_plan",
                          lambda self: self.__dict__.__setitem__("_memo", None))
        game = Game(load_variant(os.path.join(ROOT, path)), max_rounds=3)
        rng = random.Random(5)
        out = []
        for seed in range(games):
            state = game.new_game(seed)
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
            out.append([line for line in state.events if line["type"] in ("round_end", "game_end")])
        memo = game.round.scoring.__dict__.get("_memo")
        return out, memo


@pytest.mark.parametrize("path", ["variants/others/euchre.yaml", "variants/others/bridge.yaml",
                                  "variants/chimera.yaml"])
def test_the_memo_scores_every_round_as_scoring_it_anew_does(path, monkeypatch):
    kept, memo = records(path, 120, True, monkeypatch)
    anew, _ = records(path, 120, False, monkeypatch)
    assert kept == anew
    if path != "variants/chimera.yaml":      # (where the rounds repeat, the memo was read)
        assert memo is not None and memo.hits > 50


def test_a_score_taken_from_the_memo_is_a_copy(monkeypatch):
    rules = load_variant(os.path.join(ROOT, "variants/others/euchre.yaml"))
    scoring = Game(rules).round.scoring
    env = {"bid": 0, "round": 1, "players": 4, "bidder_won": False, "_counts": {}, "_plays": [5, 5, 5, 5],
           "bidder_side_tricks": 5, "bidder_alone": 0, "defender_alone": 0}
    seats = [{"bidder_side": int(s in (0, 2))} for s in range(4)]
    roles = ["bidder", "others", "partner", "others"].__getitem__
    for _ in range(3):            # scored anew, then twice from the memo: each changed after
        bonuses, parts, treasures = scoring.score(env, seats, roles)
        assert parts[0] == [["march", 2]] and parts[1] == [] and bonuses == {} and treasures == [0] * 4
        parts[0].append(["forged", 99])
        parts[0][0][1] = 7
        bonuses["forged"] = 1
        treasures[0] = 5


def test_a_condition_and_a_number_are_told_apart_in_the_memo():
    memo = scoring_module._Memo(("x",), (), ())
    assert memo.key({"x": True}, [], [], ()) != memo.key({"x": 1}, [], [], ())
    assert memo.key({"x": [1, 2]}, [], [], ()) == memo.key({"x": [1, 2]}, [], [], ())
    assert memo.key({"x": [1, 2]}, [], [], ()) != memo.key({"x": (1, 2)}, [], [], ())


def test_the_memo_stops_where_rounds_do_not_repeat(monkeypatch):
    _, memo = records("variants/house_rules/skat-openspiel.yaml", 100, True, monkeypatch)
    assert memo is not None and memo.asked == -1 and not memo.found


def test_no_memo_where_the_scoring_reads_a_collection(monkeypatch):
    """The cards taken (Hearts), the plays per combination (Chimera): keys that cost much and
    seldom repeat."""
    for path in ("variants/others/hearts.yaml", "variants/chimera.yaml"):
        _, memo = records(path, 2, True, monkeypatch)
        assert memo is None


def test_seats_that_differ_are_scored_apart():
    rules = load_variant(os.path.join(ROOT, "variants/others/euchre.yaml"))
    scoring = Game(rules).round.scoring
    env = {"bid": 0, "round": 1, "players": 4, "bidder_won": False, "_counts": {}, "_plays": [5, 5, 5, 5],
           "bidder_side_tricks": 1, "bidder_alone": 0, "defender_alone": 0}
    roles = [None] * 4
    one = scoring.score(env, [{"bidder_side": int(s in (0, 2))} for s in range(4)], roles.__getitem__)[1]
    other = scoring.score(env, [{"bidder_side": int(s in (1, 3))} for s in range(4)], roles.__getitem__)[1]
    assert one[1] == [["euchred", 2]] and other[0] == [["euchred", 2]] and other[1] == []


def test_a_seat_keyed_by_what_it_holds_is_told_apart_by_its_names_and_types():
    """``read_only`` (a trick-taking round's end, whose seats hold only names the scoring
    reads): a seat is keyed by the names it holds and their values, each with its type."""
    memo = scoring_module._Memo(("x",), ("a", "b"), ())

    def key(*seats):
        return memo.key({"x": 1}, list(seats), [None] * len(seats), (), True)
    assert key({"a": 1}) == key({"a": 1})
    assert key({"a": 1}) != key({"b": 1})                  # another name held
    assert key({"a": 1}) != key({"a": True})               # a condition is not a number
    assert key({"a": 1}) != key({"a": 1, "b": 0})          # one more name held
    assert key({"a": 1}, {"a": 2}) != key({"a": 2}, {"a": 1})
    assert key({"a": [1]}) == key({"a": [1]}) != key({"a": (1,)})
