"""The command-line contract (CONTRACT.md): outputs, JSON shapes and exit codes."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from chimera_dsl.cli import run
from scripted import ranks_of

ROOT = Path(__file__).resolve().parents[1]
OFFICIAL = str(ROOT / "variants" / "chimera.yaml")


def call(capsys, *argv):
    code = run(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def call_json(capsys, *argv):
    code, out, err = call(capsys, *argv, "--json")
    return code, json.loads(out)


@pytest.mark.parametrize("cards, combination, rank", [
    ("7 7 7 5", "trio_single", 7),
    ("5,5,5,12", "trio_single", 5),
    ("8 9 10 P 12", "straight", 12),
    ("H H H H", "bomb", 13),
    ("P C", "flight", 15),
    ("7/red 7/blue", "pair", 7),
])
def test_classify_json_names_the_combination_and_rank(capsys, cards, combination, rank):
    code, data = call_json(capsys, "classify", OFFICIAL, cards)
    assert code == 0
    assert data["valid"] is True
    assert {"combination": combination, "rank": rank, "cards": len(cards.replace(",", " ").split())} in data["readings"]


def test_classify_lists_every_reading(capsys):
    code, data = call_json(capsys, "classify", OFFICIAL, "P 2 3 4 5")
    assert code == 0
    assert sorted(r["rank"] for r in data["readings"]) == [5, 6]


@pytest.mark.parametrize("cards, reason", [
    ("P P", "the deck holds 1 card of rank P, not 2"),
    ("5 5 5 5 5", "the deck holds 4 cards of rank 5, not 5"),
    ("3 4 5 6", "match none"),
    ("7 7 7 7 P C", "match none"),
])
def test_classify_says_no_with_exit_1_and_why(capsys, cards, reason):
    code, data = call_json(capsys, "classify", OFFICIAL, cards)
    assert code == 1
    assert data["valid"] is False and data["readings"] == []
    assert reason in data["reason"]


@pytest.mark.parametrize("argv", [
    ["classify", OFFICIAL, "7 X"],
    ["classify", OFFICIAL, ""],
    ["classify", OFFICIAL, "7/purple"],
    ["moves", OFFICIAL, "--hand", "P P 3"],
    ["moves", OFFICIAL, "--hand", "3 4", "--over", "3 4"],
    ["classify", "no/such/file.yaml", "7"],
    ["classify"],
    ["beats", OFFICIAL, "7"],
])
def test_wrong_input_is_exit_2_without_traceback(capsys, argv):
    code, out, err = call(capsys, *argv)
    assert code == 2
    assert "Traceback" not in out + err
    assert err.strip()


@pytest.mark.parametrize("play, over, yes", [
    ("7 7 7 5", "5 5 5 12", True),         # the rulebooks' own example
    ("5 5 5 12", "7 7 7 5", False),
    ("9 9 9 11 11", "5 5 5 12 12", True),  # the French rulebook's full example
    ("3 3 3 3", "12 12 12 12 1 3", True),  # a quad with attachments is not a bomb
    ("4 5 6 7 8 9 10 11", "3 4 5 6 7 8 9 10", True),
    ("5 6 7 8 9 10 11", "3 4 5 6 7 8 9 10", False),  # a straight of 8 needs exactly 8
    ("P C", "H H H H", True),
    ("H H H H", "P C", False),
    ("C", "P", True),
    ("8 8", "7", False),
])
def test_beats(capsys, play, over, yes):
    code, data = call_json(capsys, "beats", OFFICIAL, "--over", over, play)
    assert data["beats"] is yes
    assert code == (0 if yes else 1)
    assert data["reason"]


def test_beats_not_a_combination_is_no(capsys):
    code, data = call_json(capsys, "beats", OFFICIAL, "--over", "7", "P P")
    assert code == 1 and data["beats"] is False
    assert "not a combination" in data["reason"]


@pytest.mark.parametrize("variant, play, over, said", [
    ("doudizhu.yaml", "2", "A", "higher rank (2 > A)"),
    ("doudizhu.yaml", "A", "2", "rank A is not higher than 2"),
    ("gang-of-four.yaml", "1/multi", "D/red", "rank 1 is not higher than D"),
])
def test_beats_names_the_ranks_as_the_deck_writes_them(capsys, variant, play, over, said):
    code, data = call_json(capsys, "beats", str(ROOT / "variants" / "others" / variant), "--over", over, play)
    assert said in data["reason"]


def test_moves_json_matches_the_python_api(capsys):
    import chimera_dsl
    rules = chimera_dsl.load_variant(OFFICIAL)
    hand = "3 3 4 4 5 5 6 7 H H P C"
    code, data = call_json(capsys, "moves", OFFICIAL, "--hand", hand)
    assert code == 0
    api = rules.legal_plays(hand)
    assert data["count"] == len(api) == len(data["moves"])
    assert {(tuple(m["cards"]), m["combination"], m["rank"]) for m in data["moves"]} == \
        {(tuple(p.cards), p.combination, p.rank) for p in api}


def test_moves_over_a_pair_lists_higher_pairs_bombs_and_the_flight(capsys):
    code, data = call_json(capsys, "moves", OFFICIAL, "--hand", "2 2 9 9 H H 5 5 5 5 P C", "--over", "4 4")
    got = {(" ".join(m["cards"]), m["combination"]) for m in data["moves"]}
    assert got == {("5 5", "pair"), ("9 9", "pair"), ("H H", "pair"),
                   ("5 5 5 5", "bomb"), ("P C", "flight")}


def test_moves_lists_a_set_once_per_reading(capsys):
    code, data = call_json(capsys, "moves", OFFICIAL, "--hand", "2 3 4 5 P")
    straights = [m for m in data["moves"] if m["combination"] == "straight"]
    ranks = sorted(m["rank"] for m in straights if ranks_of(m["cards"]) == ["2", "3", "4", "5", "P"])
    assert ranks == [5, 6]
    # colours do not matter: the same ranks are listed once
    code, data = call_json(capsys, "moves", OFFICIAL, "--hand", "7/red 7/blue")
    assert [m["cards"] for m in data["moves"]] == [["7"], ["7", "7"]]


def test_moves_text_is_one_play_per_line(capsys):
    code, out, err = call(capsys, "moves", OFFICIAL, "--hand", "7 7 8")
    assert code == 0
    assert out.splitlines() == ["7\tsingle\trank 7", "8\tsingle\trank 8", "7 7\tpair\trank 7"]


def test_the_console_script_runs(tmp_path):
    done = subprocess.run([sys.executable, "-m", "chimera_dsl", "classify", OFFICIAL, "7 7"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("pair")


def test_every_command_has_help(capsys):
    for command in ["validate", "classify", "beats", "moves"]:
        code, out, err = call(capsys, command, "--help")
        assert code == 0 and "Usage" in out


@pytest.mark.parametrize("argv", [["classify", "7/hearts"], ["beats", "7/hearts", "--over", "6/hearts"],
                                  ["moves", "--hand", "7/hearts 8/hearts"]])
def test_the_combination_commands_say_a_trick_taking_file_has_no_combinations(capsys, argv):
    chibre = str(ROOT / "variants" / "others" / "chibre.yaml")
    code, out, err = call(capsys, argv[0], chibre, *argv[1:])
    assert code == 2 and "plays tricks (play.kind: tricks)" in err and "chimera play" in err


@pytest.mark.parametrize("command", ["simulate", "run", "play"])
def test_search_budget_help_states_the_real_default(capsys, command):
    from chimera_dsl.players.search import DEFAULT_PLAYOUTS
    code, out, _ = call(capsys, command, "--help")
    text = " ".join(out.split())
    assert code == 0
    assert f"playouts (default {DEFAULT_PLAYOUTS};" in text
