"""Rough edges a new user met: each fixed, each checked here."""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import chimera_dsl
from chimera_dsl.study import simulate as sim
from chimera_dsl.cli import run
from chimera_dsl.tell.printer import Teller

ROOT = Path(__file__).resolve().parent.parent
OFFICIAL = str(ROOT / "variants" / "chimera.yaml")
TARGET_300 = str(ROOT / "variants" / "house_rules" / "target-300.yaml")


def call(capsys, *argv):
    code = run([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_classify_and_moves_name_ranks_as_run_does(capsys):
    code, out, _ = call(capsys, "classify", OFFICIAL, "H H")
    assert code == 0 and out == "pair\trank H\t2 cards\n"
    code, out, _ = call(capsys, "moves", OFFICIAL, "--hand", "H P")
    assert "H\tsingle\trank H" in out and "P\tsingle\trank P" in out


def test_replay_with_another_variant_file_does_not_say_it_changed(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    assert call(capsys, "run", OFFICIAL, "--seed", 4, "--players", "random", "--target", 100, "--log", log)[0] == 0
    code, out, err = call(capsys, "replay", log, "--quiet", "--variant", TARGET_300)
    assert code == 0 and "has changed" not in err
    assert f"written under another variant file ({OFFICIAL})" in err
    code, out, err = call(capsys, "replay", log, "--quiet", "--variant", TARGET_300, "--json")
    assert json.loads(out)["variant_changed"] is False
    # the record's own file, named with --variant and changed since, is still reported
    own = tmp_path / "own.yaml"
    shutil.copy(OFFICIAL, own)
    assert call(capsys, "run", own, "--seed", 4, "--players", "random", "--target", 100, "--log", log)[0] == 0
    own.write_text(own.read_text(encoding="utf-8") + "# a comment\n", encoding="utf-8")
    code, out, err = call(capsys, "replay", log, "--quiet", "--variant", own)
    assert code == 0 and "has changed since" in err


def test_a_record_replays_from_another_folder(capsys, tmp_path, monkeypatch):
    (tmp_path / "variants").mkdir()
    shutil.copy(OFFICIAL, tmp_path / "variants" / "mine.yaml")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path)
    assert call(capsys, "run", "variants/mine.yaml", "--seed", 1, "--players", "random", "--target", 100,
                "--log", "game.jsonl")[0] == 0
    start = json.loads((tmp_path / "game.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert start["variant_path"] == str(tmp_path / "variants" / "mine.yaml")
    monkeypatch.chdir(tmp_path / "elsewhere")
    code, out, err = call(capsys, "replay", "../game.jsonl", "--quiet")
    assert code == 0, err


def round_end(won: bool, bonuses: dict, parts) -> dict:
    return {"type": "round_end", "round": 1, "out": 0, "chimera": 0, "chimera_won": won, "bonuses": bonuses,
            "points": [0, 0, 0], "treasures": [0, 0, 0], "totals": [0, 0, 0], "parts": parts}


def test_bonuses_are_named_as_people_read_them_and_only_when_they_score():
    teller = Teller(chimera_dsl.load_variant(OFFICIAL))
    lost = list(teller.on_round_end(round_end(False, {"bombs": 0, "flight": 0, "idle_hunter": True}, None)))
    assert not any("this round" in line or "idle" in line for line in lost)
    won = list(teller.on_round_end(round_end(True, {"bombs": 2, "flight": 0, "idle_hunter": True},
                                             [[["bid 40 x 2", 80], ["bombs 2 x 25", 50], ["idle_hunter", 25]],
                                              [], []])))
    assert "  this round: Bomb x2, idle hunter" in won
    assert "  seat 0 (Chimera): 80 (bid 40 x 2) + 50 (Bomb 2 x 25) + 25 (idle hunter) = 0" in won


def test_more_workers_than_cores_run_as_many_as_cores_and_say_so(monkeypatch):
    monkeypatch.setattr(sim, "default_workers", lambda: 2)
    rules = chimera_dsl.load_variant(OFFICIAL)
    summary, info = sim.simulate(rules, 3, single_rounds=True, players="random", workers=100)
    assert info.workers == 2 and "--workers 100 is more than the 2 cores" in info.notes[0]
    assert sim.simulation_data(summary, info)["run"]["notes"] == info.notes
    summary, info = sim.simulate(rules, 3, single_rounds=True, players="random", workers=1)
    assert info.workers == 1 and info.notes == []


# -- Dask ----------------------------------------------------------------------------------------


def _children(pid: int) -> list[int]:
    """Every process below ``pid`` (read from /proc)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    out, todo = [], [pid]
    while todo:
        parent = todo.pop()
        for child, ppid in parents.items():
            if ppid == parent:
                out.append(child)
                todo.append(child)
    return out


@pytest.fixture
def port_8787_taken():
    holder = socket.socket()
    holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        holder.bind(("0.0.0.0", 8787))
        holder.listen()
    except OSError:
        pass                          # taken already: as good for the test
    yield
    holder.close()


DASK_GAMES = [sys.executable, "-m", "chimera_dsl", "simulate", OFFICIAL, "--players", "random", "--workers", "2",
              "--backend", "dask"]


def _as_from_a_terminal() -> None:
    """In the child, before it runs: Ctrl-C's default action and not blocked, as a shell gives a
    command in the foreground.  A test run started in the background (``cmd &``, ``nohup``) has
    SIGINT ignored, and a child inherits that: it would never feel the Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _ctrl_c(argv: list[str], children: int, then: float) -> tuple[int, str]:
    """Start ``argv`` in its own process group, wait until it has ``children`` processes and
    ``then`` seconds more, press Ctrl-C (SIGINT to the whole group, as a terminal does): its exit
    status and standard error."""
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          start_new_session=True, preexec_fn=_as_from_a_terminal) as proc:
        deadline = time.monotonic() + 240
        while len(_children(proc.pid)) < children and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(then)
        os.killpg(proc.pid, signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            raise
    return proc.returncode, err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_dask_never_warns_about_port_8787_and_stops_on_ctrl_c_without_tracebacks(port_8787_taken):
    pytest.importorskip("distributed")
    done = subprocess.run(DASK_GAMES + ["--games", "2", "--json"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "8787" not in done.stderr and "Traceback" not in done.stderr
    # the cluster's processes up, and at work for 8 seconds
    code, err = _ctrl_c(DASK_GAMES + ["--games", "100000"], children=3, then=8)
    assert code == 130, err
    assert "Traceback" not in err and "8787" not in err and err.strip().endswith("aborted")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_while_the_dask_cluster_starts_is_felt_once_it_is_up():
    # Ctrl-C pressed while the local cluster starts was lost (its processes are started ignoring
    # it), and a 100,000-game run went on; it is now held back and stops the run once they are up.
    # The resource tracker, the first process started, is the sign that the start has begun.
    pytest.importorskip("distributed")
    code, err = _ctrl_c(DASK_GAMES + ["--games", "100000"], children=1, then=0)
    assert code == 130, err
    assert "Traceback" not in err and err.strip().endswith("aborted")


def test_a_target_given_on_the_command_line_is_bounded_as_the_files_own(capsys):
    from chimera_dsl import load_variant as load
    from chimera_dsl.engine import Game
    from chimera_dsl.errors import ChimeraError
    with pytest.raises(ChimeraError, match="more than 10000 rounds"):
        Game(load(OFFICIAL), target=3_000_000)
    code, out, err = call(capsys, "run", OFFICIAL, "--seed", "1", "--target", "3000000")
    assert code == 2 and out == "" and "more than 10000 rounds" in err
    code, out, err = call(capsys, "run", OFFICIAL, "--seed", "1", "--target", "99999999999999999999999")
    assert code == 2 and "target 99999999999999999999999 is too large" in err
    assert "max(totals)" not in err       # an expression the user never wrote
    code, out, _ = call(capsys, "run", OFFICIAL, "--seed", "1", "--target", "500", "--quiet")
    assert code == 0 and "wins" in out


def test_the_api_refuses_combination_questions_on_a_trick_taking_file_as_the_cli_does(capsys):
    from chimera_dsl import ChimeraError, load_variant
    tricks = str(ROOT / "variants" / "others" / "chibre.yaml")
    rules = load_variant(tricks)
    card = rules.deck.card_names[0]
    for ask in (lambda: rules.classify(card), lambda: rules.legal_plays([card]),
                lambda: rules.beats(card, card), lambda: rules.iter_legal_plays([card]),
                lambda: rules.led_combinations(0), lambda: rules.card_led_combinations(1)):
        with pytest.raises(ChimeraError, match=r"plays tricks \(play.kind: tricks\): it has no combinations"):
            ask()
    code, _, err = call(capsys, "classify", tricks, card)
    assert code == 2 and "it has no combinations" in err
    assert load_variant(OFFICIAL).classify("H H")       # a climbing file still answers


def test_a_card_error_repeats_a_long_input_cut_short(capsys):
    from chimera_dsl import CardError, load_variant
    rules = load_variant(OFFICIAL)
    huge = "5 " * 100_000
    yes, reason = rules.explain_beats("5", huge)
    assert not yes and len(reason) < 300 and "(200000 characters)" in reason
    with pytest.raises(CardError) as caught:
        rules.classify("Z" * 100_000)
    assert len(str(caught.value)) < 300 and "(100000 characters)" in str(caught.value)
    code, out, _ = call(capsys, "beats", OFFICIAL, huge, "--over", "5", "--json")
    assert code == 1 and len(json.loads(out)["reason"]) < 300
    yes, reason = rules.explain_beats("5", "5 5 5 5 5")     # a short input is said whole
    assert reason.startswith("5 5 5 5 5 is not a combination")


def test_a_newline_in_a_quoted_value_is_shown_escaped_in_one_line_messages(capsys, tmp_path):
    bad = tmp_path / "newline.yaml"
    bad.write_text(f'extends: {json.dumps(OFFICIAL)}\ncombinations:\n  "a\\nb": {{pattern: "x"}}\n'
                   'deck:\n  ranks: ["1\\n2", 3]\n', encoding="utf-8")
    code, out, err = call(capsys, "validate", bad)
    said = out + err
    assert code == 2
    lines = [line for line in said.splitlines() if line.startswith(str(bad))]
    assert len(lines) == 2, said
    assert "'a\\nb' cannot name an entry of combinations" in lines[0]
    assert "'1\\n2'" in lines[1]


def test_piped_simulate_output_is_not_padded_with_spaces(capsys):
    code, out, _ = call(capsys, "simulate", OFFICIAL, "--rounds", "3", "--workers", "1", "--seed", "1")
    assert code == 0 and "3 rounds, seed 1" in out
    padded = [line for line in out.splitlines() if line != line.rstrip()]
    assert padded == []


@pytest.mark.parametrize("command", ["compare", "simulate"])
def test_a_missing_file_is_told_before_a_missing_option(capsys, tmp_path, command):
    missing = tmp_path / "missing.yaml"
    files = [missing, OFFICIAL] if command == "compare" else [missing]
    code, _, err = call(capsys, command, *files)
    assert code == 2 and "no such file" in err and "--games" not in err


@pytest.mark.parametrize("pattern, meant", [
    ("trio of number + pair of number ranekd by core", "'ranked' for 'ranekd'"),
    ("5 crads of any", "'cards' for 'crads'"),
    ("pari of number", "'pair' for 'pari'"),
    ("2+ consecutiv trios of number", "'consecutive' for 'consecutiv'"),
])
def test_a_misspelt_word_in_a_pattern_gets_a_did_you_mean(capsys, tmp_path, pattern, meant):
    from chimera_dsl import PatternError
    from chimera_dsl.language.patterns import parse_pattern
    with pytest.raises(PatternError) as caught:
        parse_pattern(pattern)
    assert f"did you mean {meant}?" in (caught.value.hint or "")
    bad = tmp_path / "misspelt.yaml"
    bad.write_text(f"extends: {json.dumps(OFFICIAL)}\ncombinations:\n  pair:\n    pattern: {json.dumps(pattern)}\n",
                   encoding="utf-8")
    code, out, err = call(capsys, "validate", bad)
    assert code == 2 and f"did you mean {meant}?" in out + err


def _colour_lead_state():
    """A seat about to lead in a variant whose plays name their very cards (colours count)."""
    import random

    from chimera_dsl import load_variant
    from chimera_dsl.engine import Game
    state = Game(load_variant(ROOT / "variants" / "others" / "gang-of-four.yaml")).new_game(3)
    rng = random.Random(0)
    while not (state.observation(state.current_player()).kind == "play" and state.last_play is None):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def _decide(state, typed: str):
    import io

    from chimera_dsl.players.human import HumanPlayer, LeftTheTable
    out = io.StringIO()
    try:
        action = HumanPlayer(io.StringIO(typed), out, echo=False).act(
            state.observation(state.current_player()), state.legal_actions())
    except LeftTheTable:
        action = None
    return action, out.getvalue()


def test_a_card_typed_with_a_colour_the_seat_does_not_hold_is_refused_not_swapped():
    state = _colour_lead_state()
    held = state.observation(state.current_player()).cards
    assert "1/multi" in held and "1/red" not in held and "8/green" in held and "8/red" not in held
    for typed in ("1/red", "8/red"):
        action, out = _decide(state, typed + "\n")
        assert action is None and f"You do not hold {typed}." in out
    action, _ = _decide(state, "1/multi\n")
    assert action.play.cards == ["1/multi"]


def test_readings_of_the_same_values_in_other_colours_are_told_by_their_cards():
    state = _colour_lead_state()
    action, out = _decide(state, "1 1\n2\n")
    assert "1 1 can be played 2 ways:" in out
    assert "1) Pair, rank 1: 1/green 1/multi" in out and "2) Pair, rank 1: 1/yellow 1/multi" in out
    assert action.play.cards == ["1/yellow", "1/multi"]


def test_a_refused_lead_says_why():
    state = _colour_lead_state()
    for typed in ("8/green", "2/yellow 2/red"):
        action, out = _decide(state, typed + "\n")
        assert action is None
        assert f"{typed} may not lead this trick: every lead the rules allow now holds 1/multi." in out


def test_a_refused_single_lead_names_the_one_single_allowed():
    import random

    from chimera_dsl import load_variant
    from chimera_dsl.engine import Game
    state = Game(load_variant(ROOT / "variants" / "others" / "gang-of-four.yaml")).new_game(3)
    rng = random.Random(3)
    for _ in range(73):           # to a lead where the next seat holds one card (play.last_card)
        state.apply_action(rng.choice(state.legal_actions()))
    singles = [a.play.cards for a in state.legal_actions() if a.play is not None and a.play.size == 1]
    assert state.last_play is None and singles == [["6/red"]]
    action, out = _decide(state, "1/green\n")
    assert action is None and "1/green may not lead this trick: the only single the rules allow now is 6/red." in out


def test_trick_numbers_restart_each_round_in_a_climbing_game_without_bidding(capsys):
    code, out, _ = call(capsys, "run", ROOT / "variants" / "others" / "gang-of-four.yaml", "--seed", "1")
    assert code == 0
    rounds = out.split("\nRound ")[1:]
    assert len(rounds) >= 2
    for told in rounds:
        numbers = [int(line.split()[1].rstrip(":")) for line in told.splitlines() if line.startswith("  trick ")]
        assert numbers[:2] == [1, 2], told[:300]


def test_a_transfer_with_both_count_and_count_by_bid_is_refused_at_its_place(capsys, tmp_path):
    both = tmp_path / "both.yaml"
    both.write_text(f"extends: {json.dumps(OFFICIAL)}\nexchange:\n  count: 1\n  count_by_bid: {{20: 0, 30: 1, 40: 2}}\n",
                    encoding="utf-8")
    code, out, err = call(capsys, "validate", both)
    assert code == 2
    assert f"{both}:4:17: " in out + err and "is given with count" in out + err
    one = tmp_path / "one.yaml"
    one.write_text(f"extends: {json.dumps(OFFICIAL)}\nexchange:\n  count: 1\n  count_by_bid: null\n", encoding="utf-8")
    code, out, err = call(capsys, "validate", one)     # null removes the inherited count_by_bid
    assert code == 0, out + err


def test_run_tells_the_passes_of_an_auction(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    code, out, _ = call(capsys, "run", ROOT / "variants" / "others" / "mu.yaml", "--seed", "1", "--log", log)
    assert code == 0
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    first_round = events[:next(i for i, e in enumerate(events) if e["type"] == "chief")]
    passes = [e["seat"] for e in first_round if e["type"] == "pass"]
    assert passes                    # the record has them: the story must tell them too
    told = out.split("\nRound 2")[0].split("lays", 1)[1].split("is the chief")[0]
    assert [int(line.split()[1]) for line in told.splitlines() if line.endswith(" passes")] == passes


@pytest.mark.parametrize("argv, said", [
    (["run"], "chimera: error: Missing argument 'VARIANT'."),
    (["frob"], "chimera: error: No such command 'frob'."),
    (["run", OFFICIAL, "--target", "0"], "chimera: error: Invalid value for '--target'"),
])
def test_usage_errors_are_told_in_the_same_style_as_every_other_error(capsys, argv, said):
    code, out, err = call(capsys, *argv)
    assert code == 2 and out == "" and err.startswith(said)
    assert "\nError:" not in "\n" + err and "usage: chimera" in err


def test_a_card_refused_in_a_trick_says_the_suit_to_follow():
    from chimera_dsl import load_variant
    from chimera_dsl.engine import Game
    from chimera_dsl.players import parse_players
    game = Game(load_variant(ROOT / "variants" / "others" / "mu.yaml"))
    state = game.new_game(5)
    players = parse_players("heuristic", game.players, 5, None)
    for _ in range(11):             # the auction, trumps and partner, and the first card: 9/yellow led
        seat = state.current_player()
        state.apply_action(players[seat].act(state.observation(seat), state.legal_actions()))
    obs = state.observation(state.current_player())
    assert obs.kind == "tricks" and "0/black" in obs.cards
    action, out = _decide(state, "0/black\n")
    assert action is None
    assert ("You may not play 0/black now: 9/yellow led, and you must follow its suit (yellow); "
            "the rules let you play: 5/yellow, 6/yellow, 7/yellow.") in out


def test_a_lay_refused_in_an_auction_says_why():
    from chimera_dsl import load_variant
    from chimera_dsl.engine import Game
    from chimera_dsl.players import parse_players
    game = Game(load_variant(ROOT / "variants" / "others" / "mu.yaml"))
    state = game.new_game(5)
    players = parse_players("heuristic", game.players, 5, None)
    action, out = _decide(state, "0/red 0/blue\n")         # the first turn: one card at most
    assert action is None and "You may not lay 0/red 0/blue now: you may lay at most 1 more card this turn" in out
    for _ in range(5):                                      # seat 1 has laid 9/blue; its turn again
        seat = state.current_player()
        state.apply_action(players[seat].act(state.observation(seat), state.legal_actions()))
    assert state.current_player() == 1
    action, out = _decide(state, "9/blue\n")
    assert action is None and "You may not lay 9/blue now: 9/blue already lies face up" in out


def test_moves_refuses_a_hand_larger_than_any_seat_can_hold(capsys):
    from chimera_dsl import load_variant
    rules = load_variant(OFFICIAL)
    whole_deck = " ".join(rules.deck.card_names)
    code, out, err = call(capsys, "moves", OFFICIAL, "--hand", whole_deck)
    assert code == 2 and out == ""
    assert f"--hand holds {len(rules.deck.card_names)} cards, more than the {rules.max_hand}" in err
    largest = " ".join(rules.deck.card_names[:rules.max_hand])
    code, out, _ = call(capsys, "moves", OFFICIAL, "--hand", largest)
    assert code == 0 and out


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_sigterm_on_simulate_stops_its_worker_processes_too():
    argv = [sys.executable, "-m", "chimera_dsl", "simulate", OFFICIAL, "--players", "random", "--workers", "2",
            "--games", "100000"]
    with subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) as proc:
        deadline = time.monotonic() + 120
        while len(_children(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        workers = _children(proc.pid)
        assert len(workers) >= 2
        time.sleep(1)
        proc.send_signal(signal.SIGTERM)
        try:
            _, err = proc.communicate(timeout=30)
        finally:
            left = [pid for pid in workers if Path(f"/proc/{pid}").exists()
                    and Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"]
            for pid in left:                 # the test's own leftovers: never outlive it
                os.kill(pid, signal.SIGKILL)
    assert left == []
    assert proc.returncode == 143 and "Traceback" not in err
