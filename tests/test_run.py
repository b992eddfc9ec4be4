"""`chimera run` and `chimera replay` end to end: output, records, determinism, exit codes."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from chimera_dsl.cli import run
from chimera_dsl.players import PlayerError, make_player, parse_players
from chimera_dsl.players.random_player import RandomPlayer

ROOT = Path(__file__).resolve().parents[1]
OFFICIAL = str(ROOT / "variants" / "chimera.yaml")


def call(capsys, *argv):
    code = run([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_run_tells_the_game_round_by_round_and_writes_the_record(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    code, out, err = call(capsys, "run", OFFICIAL, "--seed", 7, "--players", "random", "--log", log)
    assert code == 0, err
    assert out.startswith("Chimera (official rules): seed 7, target 400 points, 3 players\n")
    assert "Round 1: seat " in out and "the face-up card" in out
    assert "bidding: " in out and "is the Chimera at " in out
    assert "exchange: seat " in out and "trick 1: seat " in out
    assert "is out first" in out and "totals: seat 0 " in out
    assert "(treasures)" in out or "(bid " in out
    assert "Game over after " in out and "  1. seat " in out
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert events[0]["type"] == "game_start" and events[0]["seed"] == 7
    assert events[0]["player_names"] == ["random", "random", "random"]
    assert events[-1]["type"] == "game_end"
    assert out.rstrip("\n").endswith(f"wins with {max(events[-1]['totals'])} after {events[-1]['rounds']} rounds "
                                     f"({', '.join(f'seat {s}: {t}' for s, t in enumerate(events[-1]['totals']))})")


def test_the_same_seed_gives_the_same_game_byte_for_byte(tmp_path):
    outputs = []
    for name in ("a", "b"):
        log = tmp_path / f"{name}.jsonl"
        done = subprocess.run([sys.executable, "-m", "chimera_dsl", "run", OFFICIAL, "--seed", "12",
                               "--players", "heuristic,random,random", "--log", str(log)],
                              capture_output=True, cwd=ROOT, timeout=120)
        assert done.returncode == 0, done.stderr
        outputs.append((done.stdout, log.read_bytes()))
    assert outputs[0] == outputs[1]
    other = subprocess.run([sys.executable, "-m", "chimera_dsl", "run", OFFICIAL, "--seed", "13",
                            "--players", "heuristic,random,random"], capture_output=True, cwd=ROOT, timeout=120)
    assert other.stdout != outputs[0][0]


def test_quiet_prints_only_the_result_and_target_ends_earlier(capsys):
    code, out, err = call(capsys, "run", OFFICIAL, "--seed", 3, "--players", "random", "--quiet", "--target", 100)
    assert code == 0, err
    assert len(out.splitlines()) == 1 and (" wins with " in out or " share the win " in out)
    totals = [int(part.split(": ")[1]) for part in out.split("(")[-1].rstrip(")\n").split(", ")]
    assert max(totals) >= 100


@pytest.mark.parametrize("argv, message", [
    (["--players", "random,random"], "2 players given"),
    (["--players", "random,genius,random"], "unknown player 'genius'"),
    (["--players", "random,,random"], "empty player name"),
    (["--target", "0"], "Invalid value for '--target'"),
])
def test_run_refuses_bad_options_with_exit_2(capsys, argv, message):
    code, out, err = call(capsys, "run", OFFICIAL, "--seed", 1, *argv)
    assert code == 2
    assert message in err and "Traceback" not in err


def test_run_of_a_missing_variant_is_exit_2(capsys, tmp_path):
    code, out, err = call(capsys, "run", tmp_path / "nope.yaml")
    assert code == 2 and "Traceback" not in err


def test_replay_checks_the_record_and_tells_the_same_story(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    code, told, _ = call(capsys, "run", OFFICIAL, "--seed", 5, "--players", "random", "--log", log)
    assert code == 0
    code, out, err = call(capsys, "replay", log)
    assert code == 0, err
    assert out == told and err == ""
    code, out, err = call(capsys, "replay", log, "--quiet")
    assert code == 0 and out == told.splitlines()[-1] + "\n"


def test_replay_finds_the_variant_from_the_record_or_from_variant(capsys, tmp_path):
    variant = tmp_path / "mine.yaml"
    shutil.copy(OFFICIAL, variant)
    log = tmp_path / "game.jsonl"
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert call(capsys, "run", "mine.yaml", "--seed", 2, "--players", "random", "--log", "game.jsonl")[0] == 0
    finally:
        os.chdir(here)
    # the record names mine.yaml relative to where it was run: found next to the record
    code, out, err = call(capsys, "replay", log)
    assert code == 0, err
    # a changed variant is reported, and the record is still checked against it
    variant.write_text(variant.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    code, out, err = call(capsys, "replay", log)
    assert code == 0 and "has changed since" in err
    # a variant whose rules differ rejects the record at the first line it breaks
    variant.write_text(variant.read_text(encoding="utf-8").replace("treasures: {2: 10, 11: 5}",
                                                                   "treasures: {2: 10, 11: 6}"), encoding="utf-8")
    code, out, err = call(capsys, "replay", log)
    assert code == 2 and "round_end: treasures is" in err
    # --variant wins over the record
    code, out, err = call(capsys, "replay", log, "--variant", OFFICIAL)
    assert code == 0, err
    # a record whose variant cannot be found
    variant.unlink()
    code, out, err = call(capsys, "replay", log)
    assert code == 2 and "cannot be found: give --variant" in err


@pytest.mark.parametrize("content, line, message", [
    (b"", 1, "empty"),
    (b"just some text\n", 1, "not JSON"),
    (b"\x00\xff\xfe binary", 1, "not text"),
])
def test_replay_of_a_foreign_file_is_exit_2_with_file_and_line(capsys, tmp_path, content, line, message):
    path = tmp_path / "foreign.jsonl"
    path.write_bytes(content)
    code, out, err = call(capsys, "replay", path)
    assert code == 2
    assert f"{path}:{line}: " in err and message in err and "Traceback" not in err


def test_replay_of_a_tampered_record_names_the_line(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    assert call(capsys, "run", OFFICIAL, "--seed", 9, "--players", "random", "--log", log)[0] == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    index = next(i for i, text in enumerate(lines) if json.loads(text)["type"] == "round_end")
    event = json.loads(lines[index])
    event["totals"][0] += 5
    lines[index] = json.dumps(event)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = call(capsys, "replay", log)
    assert code == 2
    assert f"{log}:{index + 1}: round_end: totals is" in err


def test_replay_of_a_missing_file_is_exit_2(capsys, tmp_path):
    code, out, err = call(capsys, "replay", tmp_path / "none.jsonl")
    assert code == 2 and "Traceback" not in err


# -- players -------------------------------------------------------------------------------------

def test_players_are_made_by_name_and_seeded():
    assert isinstance(make_player("random", 1), RandomPlayer)
    assert make_player("heuristic", 1).name == "heuristic"
    with pytest.raises(PlayerError, match="known players: heuristic, random"):
        make_player("alphazero", 1)
    a, b = parse_players("random", 3, 4), parse_players("random", 3, 4)
    legal = list(range(50))
    assert [p.act(None, legal) for p in a] == [p.act(None, legal) for p in b]
    assert len({p.act(None, legal) for p in parse_players("random", 3, 5) * 3}) > 1


def test_a_missing_heuristic_player_is_a_clear_error(monkeypatch):
    import chimera_dsl.players as players
    monkeypatch.setitem(sys.modules, "chimera_dsl.players.heuristic", None)
    with pytest.raises(PlayerError, match="heuristic player is not available"):
        players.make_player("heuristic", 1)
    assert players.default_player_spec() == "random"


def test_replay_json_answers_valid_or_the_line_and_reason(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    assert call(capsys, "run", OFFICIAL, "--seed", 6, "--players", "random", "--log", log)[0] == 0
    code, out, err = call(capsys, "replay", log, "--json")
    data = json.loads(out)
    assert code == 0 and data["valid"] is True and data["variant_changed"] is False
    last = json.loads(log.read_text(encoding="utf-8").splitlines()[-1])
    assert data["totals"] == last["totals"] and data["winner"] == last["winner"] and data["rounds"] == last["rounds"]
    lines = log.read_text(encoding="utf-8").splitlines()
    log.write_text("\n".join(lines[:-1] + ["{oops"]) + "\n", encoding="utf-8")
    code, out, err = call(capsys, "replay", log, "--json")
    data = json.loads(out)
    assert code == 2 and data["valid"] is False and data["line"] == len(lines)
    assert data["reason"].startswith("not JSON")
