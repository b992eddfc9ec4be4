"""Bounded memory (docs/commands.md, "Memory"): the heavy cases run under an address-space limit.

Each command runs in a child process whose address space is capped with ``RLIMIT_AS``: a
command that held a whole long game, or listed every play of a huge combination, would meet
``MemoryError`` (exit 3) well before its end.  The limits are the budgets the page states.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MU_6 = ROOT / "variants" / "others" / "mu-6.yaml"
CHIMERA = ROOT / "variants" / "chimera.yaml"
MB = 1 << 20
TIMEOUT = 240           # seconds: each case takes 5 to 15 s alone
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS as Linux counts it")

LIMITED = """
import resource, sys
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
from chimera_dsl.cli import run
sys.exit(run(sys.argv[2:]))
"""


def limited(megabytes: int, *argv, typed: str | None = None) -> subprocess.CompletedProcess:
    """``chimera ARGV`` in a child process whose address space is at most ``megabytes`` MiB
    (``typed``: its standard input)."""
    return subprocess.run([sys.executable, "-c", LIMITED, str(megabytes * MB), *map(str, argv)],
                          capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT, input=typed)


@pytest.fixture(scope="module")
def long_mu(tmp_path_factory) -> Path:
    """Mü for 6 players over 150 rounds: random players dispute and deal again so often that
    the record takes ~330 kB a round (48 MB in all); held in memory, ~1.6 MB a round."""
    path = tmp_path_factory.mktemp("memory") / "mu-150.yaml"
    path.write_text(f"extends: {MU_6}\nend: {{rounds: 150}}\n", encoding="utf-8")
    return path


def test_run_streams_a_long_game_to_its_record_and_story(long_mu, tmp_path):
    """run holds one round's lines at a time: 150 rounds of six-player Mü, told and recorded,
    in 160 MiB of address space (holding the game took 200 MiB and more: MemoryError)."""
    log = tmp_path / "game.jsonl"
    done = limited(160, "run", long_mu, "--seed", 1, "--players", "random", "--log", log)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "after 150 rounds" in done.stdout
    count, first, last = 0, None, None
    with log.open(encoding="utf-8") as lines:
        for count, line in enumerate(lines, start=1):
            first = first or line
            last = line
    assert json.loads(first)["type"] == "game_start" and json.loads(last)["type"] == "game_end"
    assert json.loads(last)["rounds"] == 150 and count > 100_000


def test_play_streams_a_long_game_to_its_record(long_mu, tmp_path):
    """play, like run, holds one round's lines at a time: 150 rounds of six-player Mü with a
    person taking the first legal choice at seat 0, recorded, in 80 MiB of address space (42 MB
    resident at its peak, 18 s of CPU). It wrote the record at the end, holding the whole game:
    MemoryError (exit 3) in round 87 under this cap, after 357 s of CPU."""
    log = tmp_path / "game.jsonl"
    done = limited(80, "play", long_mu, "--seed", 1, "--players", "random", "--log", log,
                   typed="#1\n" * 100_000)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Game over after 150 rounds" in done.stdout
    with log.open(encoding="utf-8") as lines:
        first = json.loads(next(lines))
        for last in lines:
            pass
    assert first["type"] == "game_start" and json.loads(last)["type"] == "game_end"


def test_simulate_feeds_its_figures_round_by_round(long_mu):
    """A simulated game's lines are summed into the figures as each round ends and dropped."""
    done = limited(160, "simulate", long_mu, "--games", 1, "--players", "random", "--workers", 1, "--json")
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout)["run"]["units"] == 1


@pytest.fixture(scope="module")
def mu_record(tmp_path_factory) -> Path:
    """An 11 MB record: six-player Mü over 30 rounds of random players."""
    folder = tmp_path_factory.mktemp("record")
    variant = folder / "mu-30.yaml"
    variant.write_text(f"extends: {MU_6}\nend: {{rounds: 30}}\n", encoding="utf-8")
    log = folder / "game.jsonl"
    assert limited(160, "run", variant, "--seed", 1, "--players", "random", "--log", log, "--quiet").returncode == 0
    assert log.stat().st_size > 10 * MB
    return log


@pytest.mark.parametrize("told", [False, True], ids=["quiet", "told"])
def test_replay_reads_the_record_a_line_at_a_time(mu_record, told):
    """replay checks each line as it reads it and keeps none: an 11 MB record in 100 MiB of
    address space, told or not (the story waits on disk until the record is found good).
    Holding the parsed record took 180 MB for this one, and 900 MB near the 64 MiB cap."""
    done = limited(100, "replay", mu_record, *([] if told else ["--quiet"]))
    assert done.returncode == 0, done.stderr[-2000:]
    assert "after 30 rounds" in done.stdout
    if told:
        assert "\nRound 30:" in done.stdout and done.stdout.index("\nRound 1:") < done.stdout.index(" wins ")


def test_replay_of_a_long_record_that_goes_wrong_tells_nothing(mu_record, tmp_path):
    """A record found bad at its last lines: the line and the reason, and none of the story."""
    lines = mu_record.read_bytes().splitlines(keepends=True)
    end = json.loads(lines[-1])
    end["winner"] = (end["winner"] + 1) % len(end["totals"])
    forged = tmp_path / "forged.jsonl"
    forged.write_bytes(b"".join(lines[:-1]) + json.dumps(end).encode() + b"\n")
    done = limited(100, "replay", forged)
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stdout == "" and f"forged.jsonl:{len(lines)}:" in done.stderr and "winner" in done.stderr


def test_analyse_does_not_list_the_deck_s_plays_past_its_budget(tmp_path):
    """'20 cards of any' in a deck of 60: the hands are sampled, and the whole deck's plays of
    that combination (over a billion) are not listed but said not read (it grew to MemoryError)."""
    variant = tmp_path / "twenty.yaml"
    variant.write_text(f"extends: {CHIMERA}\ncombinations:\n  twenty: {{pattern: \"20 cards of any\"}}\n",
                       encoding="utf-8")
    done = limited(300, "analyse", variant, "--samples", 2000)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "twenty: the whole deck could give up to" in " ".join(done.stdout.split())


def test_moves_refuses_a_hand_whose_plays_have_no_bound():
    from chimera_dsl import load_variant
    whole_deck = " ".join(load_variant(CHIMERA).deck.card_names)
    done = limited(160, "moves", CHIMERA, "--hand", whole_deck)
    assert done.returncode == 2 and "more than the 20 a seat of this game can hold" in done.stderr
