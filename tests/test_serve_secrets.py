"""No hidden card can be learned from anything a seat or a spectator of the web table receives.

Whole games of three variants are played through the websocket, one connection holding a seat
and one watching; every frame they receive, the lobby's answer and the pages are kept.  Every
number in them (in JSON values and inside text) is then tried as a seed: dealt as the engine
deals from a seed, does it give any hand of the game that the viewer was not dealt?  Before the
secret deals, the first log line said ``seed N`` and ``N`` gave every hand.
"""
from __future__ import annotations

import json
import re
import stat
import time
import warnings
from pathlib import Path

import pytest

from serve_support import Seat, close_open, require_web

import chimera_dsl
from chimera_dsl.engine import Game

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ["variants/chimera.yaml", "variants/others/gang-of-four.yaml", "variants/others/chibre.yaml"]
NUMBER = re.compile(r"\d+")


def _numbers(value, found: set[int]) -> set[int]:
    """Every whole number in a JSON value: its numbers, and the digits inside its strings."""
    if isinstance(value, bool) or value is None:
        return found
    if isinstance(value, int):
        found.add(abs(value))
    elif isinstance(value, float) and value.is_integer():
        found.add(abs(int(value)))
    elif isinstance(value, str):
        found.update(int(m) for m in NUMBER.findall(value))
    elif isinstance(value, dict):
        for k, v in value.items():
            _numbers(k, found)
            _numbers(v, found)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _numbers(v, found)
    return found


def _deals(record: Path) -> list[dict]:
    return [e for e in map(json.loads, record.read_text().splitlines()) if e["type"] == "deal"]


def _reproduces(game: Game, seed: int, deals: list[dict], viewer: int | None) -> bool:
    """Does dealing from ``seed`` give a hand of ``deals`` that ``viewer`` was not dealt?"""
    for line in deals:
        step = -1 if line.get("direction") == "counterclockwise" else 1
        dealt = game.deal(seed, line["deal"], line["dealer"], step)
        for seat, hand in enumerate(line["hands"]):
            if seat != viewer and sorted(game.card_names(dealt.hands[seat])) == sorted(hand):
                return True
    return False


def _play_as_seat_and_spectator(tmp_path: Path, variant: str, seed: int | None):
    """A whole game at a table of ``variant``: every frame seat 0 and a spectator received,
    the lobby's and the pages' answers, and the table's record."""
    require_web()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from chimera_dsl.serve.app import create_app
    from chimera_dsl.serve.tables import Hall, Settings

    path = str(ROOT / variant)
    rules = chimera_dsl.load_variant(path)
    data = tmp_path / "tables"
    hall = Hall(Settings(data, players="random", delay=0, max_rounds=2, seed=seed), path, rules)
    seat_frames: list = []
    watcher_frames: list = []
    with TestClient(create_app(hall)) as client:
        try:
            created = client.post("/api/tables").json()
            seat_frames.append(created["table"])            # the creator's answer holds its own token only
            me = Seat(client, created["table"])
            me.hello(creator=created["creator"])
            me.sit(0, "Ann")
            watcher = Seat(client, created["table"])
            watcher.hello()
            me.send({"type": "start"})
            while True:
                message = me.ws.receive_json()
                seat_frames.append(message)
                if message["type"] != "state":
                    continue
                if message["status"] == "over":
                    break
                if message["to_act"] == 0 and message["legal"] and not message.get("forced"):
                    time.sleep(0.11)                    # within the server's 10 messages a second
                    me.send({"type": "act", "turn": message["turn"], "move": len(message["legal"]) - 1})
            while True:
                message = watcher.ws.receive_json()
                watcher_frames.append(message)
                if message["type"] == "state" and message["status"] == "over":
                    break
            lobby = client.get("/api/tables")
            pages = [client.get("/"), client.get(f"/t/{created['table']}")]
            watcher_frames.append(lobby.json())
            for page in pages:
                watcher_frames.append(page.text)
                watcher_frames.append(dict(page.headers))
        finally:
            close_open()
    return Game(rules, max_rounds=2), seat_frames, watcher_frames, data / f"{created['table']}.jsonl", data


@pytest.mark.parametrize("variant", VARIANTS)
def test_no_number_a_seat_or_a_spectator_receives_deals_another_hand(tmp_path, variant):
    game, seat_frames, watcher_frames, record, data = _play_as_seat_and_spectator(tmp_path, variant, None)
    deals = _deals(record)
    assert deals
    for viewer, frames in ((0, seat_frames), (None, watcher_frames)):
        numbers = _numbers(frames, set())
        assert numbers, "the frames hold numbers (turns, sizes, points): the check has something to try"
        leaks = [n for n in sorted(numbers) if _reproduces(game, n, deals, viewer)]
        assert leaks == [], f"{variant}: these numbers deal a hidden hand: {leaks[:5]}"
        text = json.dumps(frames)
        assert "seed" not in text.lower()
    # nothing on disk deals the table again either: its deals came from the secure source
    assert json.loads(record.read_text().splitlines()[0])["seed"] is None
    assert json.loads(record.with_suffix(".json").read_text())["seed"] is None


def test_with_an_operators_seed_the_seed_reaches_nobody(tmp_path):
    """--seed makes the deals repeat, but neither a seat nor a spectator is told the seed; and
    the seed really does deal the hands (so the check above would catch a shown seed)."""
    seed = 424242
    game, seat_frames, watcher_frames, record, data = _play_as_seat_and_spectator(tmp_path, VARIANTS[0], seed)
    deals = _deals(record)
    assert _reproduces(game, seed, deals, 0), "the operator's seed deals the table's hands"
    for viewer, frames in ((0, seat_frames), (None, watcher_frames)):
        numbers = _numbers(frames, set())
        assert seed not in numbers
        assert [n for n in sorted(numbers) if _reproduces(game, n, deals, viewer)] == []


def test_the_tables_folder_and_files_are_the_servers_alone(tmp_path):
    game, seat_frames, watcher_frames, record, data = _play_as_seat_and_spectator(tmp_path, VARIANTS[0], None)
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    files = list(data.iterdir())
    assert {f.suffix for f in files} >= {".json", ".jsonl"}
    for f in files:
        assert stat.S_IMODE(f.stat().st_mode) == 0o600, f


def test_a_folder_an_earlier_server_left_readable_is_closed_at_start(tmp_path):
    require_web()
    from chimera_dsl.serve.tables import Hall, Settings
    data = tmp_path / "old"
    data.mkdir(mode=0o755)
    old = data / "abcdef.jsonl"
    old.write_text("")
    old.chmod(0o644)
    Hall(Settings(data), str(ROOT / VARIANTS[0]), chimera_dsl.load_variant(str(ROOT / VARIANTS[0])))
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    assert stat.S_IMODE(old.stat().st_mode) == 0o600


def test_secret_deals_differ_and_follow_the_rules():
    """Two games of the secret seed are dealt differently, each a whole deck dealt as the file says."""
    rules = chimera_dsl.load_variant(str(ROOT / VARIANTS[0]))
    game = Game(rules)
    from chimera_dsl.engine import SECRET_SEED
    first, second = game.new_game(SECRET_SEED), game.new_game(SECRET_SEED)
    assert first.held != second.held
    for state in (first, second):
        cards = state.nest_cards
        for hand in state.held:
            assert not cards & hand
            cards |= hand
        assert cards == (1 << len(rules.deck.cards)) - 1
        assert state.events[0]["seed"] is None
