"""A seat that sits each round out (``deal.sits_out``), shipped as Chimera for four players
(variants/house_rules/chimera-four-players.yaml): the dealer deals the usual three hands and
takes no part in the round.  The key is general: these tests say what it does."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from chimera_dsl import load_variant
from chimera_dsl.cli import run
from chimera_dsl.engine import Game
from chimera_dsl.errors import RecordError, VariantError
from chimera_dsl.players import make_player, play_game
from chimera_dsl.tell.record import replay

ROOT = Path(__file__).resolve().parents[1]
FOUR = ROOT / "variants" / "house_rules" / "chimera-four-players.yaml"


@pytest.fixture(scope="module")
def rules():
    return load_variant(FOUR)


def _games(rules, count: int, kind: str = "random"):
    for seed in range(count):
        game = Game(rules, target=200)
        seen: list = []
        players = [make_player(kind, seed * 4 + s) for s in range(4)]
        final = play_game(game, players, seed, watch=lambda s: seen.append((s.current_player(), s.sitting)))
        yield final, seen


def test_the_dealer_is_dealt_nothing_never_acts_and_scores_nothing(rules):
    rounds = 0
    for final, seen in _games(rules, 12):
        assert final.is_terminal()
        for actor, sitting in seen[:-1]:
            assert sitting is not None and actor != sitting
        events = final.events
        deals = [e for e in events if e["type"] == "deal"]
        for deal in deals:
            assert deal["sits_out"] == deal["dealer"]
            sizes = [len(h) for h in deal["hands"]]
            assert sizes[deal["dealer"]] == 0
            assert sorted(sizes) == [0, 17, 17, 17] and len(deal["nest"]) == 3
        ends = [e for e in events if e["type"] == "round_end"]
        by_round: dict = {}
        for deal in deals:
            by_round[deal["round"]] = deal["dealer"]       # a redeal keeps its dealer
        for end in ends:
            sitting = by_round[end["round"]]
            assert end["points"][sitting] == 0 and end["parts"][sitting] == []
            assert end["out"] != sitting
            rounds += 1
        for e in events:
            if e["type"] in ("bid", "play", "pass", "give"):
                assert e["seat"] != by_round[e["round"]]
    assert rounds > 30


def test_each_seat_sits_out_in_turn_and_the_hunters_are_the_two_in_the_round(rules):
    game = Game(rules, target=10_000, max_rounds=4)
    state = play_game(game, [make_player("heuristic", s) for s in range(4)], 5)
    dealers = [e["dealer"] for e in state.events if e["type"] == "deal" and e.get("deal") is not None]
    sitting = []
    for e in state.events:
        if e["type"] == "deal" and (not sitting or sitting[-1][0] != e["round"]):
            sitting.append((e["round"], e["sits_out"]))
    assert [s for _, s in sitting] == [(sitting[0][1] + i) % 4 for i in range(4)]
    assert dealers
    # mid-round, the bidder's opponents are the two seats in the round
    state = game.new_game(11)
    while state.bidder is None:
        state.apply_action(state.legal_actions()[-1])
    assert state.sitting not in state.others and len(state.others) == 2
    assert state.observation(state.others[0]).partner == state.others[1]
    assert state.role_of(state.sitting) is None


def test_a_sitting_seat_is_refused_where_it_cannot_be_played(tmp_path):
    chibre = ROOT / "variants" / "others" / "chibre.yaml"
    tricks = tmp_path / "tricks.yaml"
    tricks.write_text(f"extends: {chibre}\ndeal:\n  sits_out: dealer\n", encoding="utf-8")
    with pytest.raises(VariantError) as error:
        load_variant(tricks)
    assert "deal.sits_out" in str(error.value) and "trick-taking" in str(error.value)
    assert f"{tricks}:3:" in str(error.value)
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(f"extends: {FOUR}\ndeal:\n  sits_out: delaer\n", encoding="utf-8")
    with pytest.raises(VariantError) as error:
        load_variant(wrong)
    assert "sits_out" in str(error.value) and "dealer" in str(error.value)
    two = tmp_path / "two.yaml"
    two.write_text(f"extends: {FOUR}\nplayers: 2\n", encoding="utf-8")
    with pytest.raises(VariantError) as error:
        load_variant(two)
    assert "fewer than two seats would play" in str(error.value)


def test_a_record_replays_and_a_forged_sitting_seat_is_refused(rules, tmp_path):
    final = next(_games(rules, 1))[0]
    lines = json.loads(json.dumps(final.events))
    assert replay(lines, rules).returns() == final.returns()
    deal = next(i for i, e in enumerate(lines) if e["type"] == "deal")
    for forged in (None, (lines[deal]["sits_out"] + 1) % 4):
        bad = json.loads(json.dumps(lines))
        if forged is None:
            del bad[deal]["sits_out"]
        else:
            bad[deal]["sits_out"] = forged
        with pytest.raises(RecordError) as error:
            replay(bad, rules)
        assert f"line {deal + 1}" in str(error.value) or f":{deal + 1}:" in str(error.value) \
            or "deal" in str(error.value)


def test_every_command_works(tmp_path, capsys):
    path = str(FOUR)
    assert run(["validate", path]) == 0
    log = tmp_path / "game.jsonl"
    assert run(["run", path, "--seed", "4", "--players", "heuristic,random,search,random", "--search-budget", "8",
                "--target", "150", "--log", str(log)]) == 0
    told = capsys.readouterr().out
    assert "sits this round out" in told
    assert run(["replay", str(log)]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == told.strip().splitlines()[-1]
    for lang, words in (("en", "sits out"), ("fr", "ne joue pas"), ("de", "setzt"), ("it", "non gioca")):
        assert run(["rules", path, "--lang", lang]) == 0
        assert words in capsys.readouterr().out
    assert run(["simulate", path, "--games", "20", "--workers", "1", "--target", "150"]) == 0
    assert "20 games" in capsys.readouterr().out


def test_a_seat_named_while_it_sits_out_is_the_next_seat_in_the_round(tmp_path):
    """``first_leader: dealer`` while the dealer sits out (or any seat expression landing on the
    sitting seat, such as a previous round's place): the next seat in the round leads for it.
    Found by composing the recent keys: the sitting seat was asked to lead with no cards and
    no legal action, and the game stopped."""
    path = tmp_path / "leader.yaml"
    path.write_text(f"extends: {ROOT / 'variants' / 'others' / 'big-two.yaml'}\nplayers: 5\n"
                    "deal: {sits_out: dealer}\nplay: {first_leader: dealer, first_lead: null}\n", encoding="utf-8")
    rules = load_variant(path)
    for seed in range(3):
        final = play_game(Game(rules, max_rounds=3), [make_player("random", seed * 5 + s) for s in range(5)], seed)
        assert final.is_terminal()
        deals = {e["round"]: e for e in final.events if e["type"] == "deal"}
        firsts = {}
        for event in final.events:
            if event["type"] in ("play", "pass"):
                firsts.setdefault(event["round"], event["seat"])
        assert len(firsts) == 3
        for number, seat in firsts.items():
            dealer = deals[number]["dealer"]
            assert deals[number]["sits_out"] == dealer and deals[number]["hands"][dealer] == []
            assert seat in ((dealer + 1) % 5, (dealer - 1) % 5)      # its neighbour in the direction of play


def test_a_place_beyond_the_last_of_a_round_with_a_seat_out_names_nobody(tmp_path):
    """Six seats, one sitting each round out: a round has five places, so the previous round's
    ``place(last - 5)`` names nobody and the leader is the next choice of the list (found by the
    long fuzzing run: the game stopped with an IndexError as the second round began)."""
    path = tmp_path / "six.yaml"
    path.write_text(f"extends: {ROOT / 'variants' / 'others' / 'president.yaml'}\nplayers: 6\n"
                    "deal: {hand: 10, sits_out: dealer_left}\n"
                    "play: {first_leader: [previous_round.place(last - 5), dealer], first_lead: null}\n",
                    encoding="utf-8")
    rules = load_variant(path)
    for seed in range(3):
        final = play_game(Game(rules, max_rounds=3), [make_player("random", seed * 6 + s) for s in range(6)], seed)
        assert final.is_terminal()
        ends = [e for e in final.events if e["type"] == "round_end"]
        assert len(ends) == 3 and all(len(e["places"]) == 5 for e in ends)      # five seats in each round
