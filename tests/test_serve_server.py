"""The web table as a real server (``chimera serve`` on 127.0.0.1, a raw ``websockets`` client):
killed mid-round with SIGKILL and started again, every unfinished table comes back from its
record, each seat still held by its token."""
from __future__ import annotations

import json
from collections import Counter

from serve_support import Client, Server, require_web, running

from chimera_dsl.tell.record import replay
from test_serve import RULES


def _ranks(cards):
    """Cards by rank: the view names ranks, the record the very cards (7/red)."""
    return [c.split("/", 1)[0] for c in cards]


def _events(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _hand_from_record(events: list[dict], seat: int) -> Counter:
    """What ``seat`` holds after the record's last line (official rules: the nest goes to the bidder)."""
    hand: Counter = Counter()
    for e in events:
        if e["type"] == "deal":
            hand, nest = Counter(_ranks(e["hands"][seat])), e["nest"]
        elif e["type"] == "chimera" and e["seat"] == seat:
            hand += Counter(_ranks(nest))
        elif e["type"] == "exchange":
            if e["from"] == seat:
                hand -= Counter(_ranks(e["cards"]))
            if e["to"] == seat:
                hand += Counter(_ranks(e["cards"]))
        elif e["type"] == "play" and e["seat"] == seat:
            hand -= Counter(_ranks(e["cards"]))
    return hand


def _join(server: Server, table: str, token=None, creator=None) -> Client:
    client = Client(f"{server.ws_base}/ws/{table}")
    client.send({"type": "hello", "token": token, "creator": creator})
    assert client.receive()["type"] == "welcome"
    client.until(lambda m: m["type"] == "state")
    return client


def _play(client: Client, decisions: int | None, seat: int = 0, pick: int = -1) -> None:
    """Take ``decisions`` decisions for ``seat`` (None: until the game is over), the legal move at
    index ``pick`` each time (-1: the last, which passes when passing is legal)."""
    done = 0
    while decisions is None or done < decisions:
        state = client.state
        if state["status"] == "over":
            return
        if state["to_act"] == seat and state["legal"] and not state.get("forced"):
            move = pick if pick >= 0 else len(state["legal"]) + pick
            client.send({"type": "act", "turn": state["turn"], "move": move})
            client.until(lambda m: m["type"] == "state" and m["turn"] > state["turn"])
            done += 1
        else:
            client.until(lambda m: m["type"] == "state", timeout=30)


def test_a_killed_server_resumes_every_table_from_its_record(tmp_path):
    require_web()
    data = tmp_path / "tables"
    options = ("--players", "random", "--delay", "0.05", "--rounds", "1", "--seed", "3")
    server = Server(data, *options).start()
    try:
        created = server.create_table()
        table = created["table"]
        ann = _join(server, table, creator=created["creator"])
        ann.send({"type": "sit", "seat": 0, "name": "Ann"})
        token = ann.until(lambda m: m["type"] == "seated")["token"]
        ann.send({"type": "start"})
        ann.until(lambda m: m["type"] == "state" and m["status"] == "playing")
        while not (ann.state["view"]["phase"] == "play" and any(
                e["type"] == "play" and e["seat"] == 0 for e in _events(data / f"{table}.jsonl"))):
            assert ann.state["status"] == "playing", "the round ended before Ann played"
            _play(ann, 1, pick=0)                      # the first move: a pass in the bidding, a play after
        # a second table, waiting, with one person seated
        waiting = server.create_table()
        bob = _join(server, waiting["table"])
        bob.send({"type": "sit", "seat": 2, "name": "Bob"})
        bob_token = bob.until(lambda m: m["type"] == "seated")["token"]
        server.kill()
    finally:
        server.stop()
    before = (data / f"{table}.jsonl").read_text()
    assert before.endswith("\n") and "round_end" not in before        # killed mid-round

    server = Server(data, *options, port=server.port).start()
    try:
        listed = {t["table"]: t for t in server.tables()["tables"]}
        assert listed[table]["status"] == "playing" and listed[waiting["table"]]["status"] == "waiting"
        ann = _join(server, table, token=token)
        assert ann.state["seat"] == 0 and ann.state["status"] in ("playing", "over")
        events = _events(data / f"{table}.jsonl")
        assert (data / f"{table}.jsonl").read_text().startswith(before)
        assert Counter(ann.state["view"]["hand"]) == _hand_from_record(events, 0)
        assert any("Ann" in line or "(you)" in line for _, line in ann.log)     # the log comes back too
        stranger = _join(server, table, token="not-the-token")
        assert stranger.state["seat"] is None and "hand" not in stranger.state["view"]
        bob = _join(server, waiting["table"], token=bob_token)
        assert bob.state["seat"] == 2 and bob.state["status"] == "waiting"
        _play(ann, None)
        assert ann.state["status"] == "over"
    finally:
        out = server.stop()
    assert "not resumed" not in out
    final = replay(_events(data / f"{table}.jsonl"), RULES)
    assert final.is_terminal()
    sidecar = json.loads((data / f"{table}.json").read_text())
    assert sidecar["status"] == "over" and token not in json.dumps(sidecar)


def test_refusals_over_a_real_socket(tmp_path):
    require_web()
    with running(tmp_path, "--players", "random", "--delay", "0") as server:
        created = server.create_table()
        client = Client(f"{server.ws_base}/ws/{created['table']}")
        client.send({"type": "act", "turn": 0, "move": 0})
        assert "hello" in client.error()["reason"]            # nothing of the table before hello
        client.send({"type": "hello"})
        assert client.receive()["type"] == "welcome"
        client.send("x" * 5000)
        assert "message too large" in client.error()["reason"]
        client.send({"type": "act", "turn": 0, "move": 0})
        assert "hold no seat" in client.error()["reason"]
        for _ in range(40):
            client.send({"type": "nonsense"})
        reasons = []
        while not any("too many messages" in r for r in reasons):
            reasons.append(client.error()["reason"])
        client.close()
