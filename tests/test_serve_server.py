"""The web table as a real server (``chimera serve`` on 127.0.0.1, a raw ``websockets`` client):
killed mid-round with SIGKILL and started again, every unfinished table comes back from its
record, each seat still held by its token."""
from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path

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
    first = client.receive()
    if first["type"] == "resuming":                    # after a restart, until the table is back
        first = client.until(lambda m: m["type"] != "resuming", timeout=60)
    assert first["type"] == "welcome"
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
            while True:
                client.send({"type": "act", "turn": state["turn"], "move": move})
                answer = client.until(lambda m: m["type"] == "error"
                                      or (m["type"] == "state" and m["turn"] > state["turn"]))
                if answer["type"] == "state":
                    break
                assert "too many messages" in answer["reason"], answer["reason"]
                time.sleep(0.2)                        # faster than a person: sent again a moment later
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
        ann.send({"type": "list", "listed": True})            # shown in the lobby
        ann.send({"type": "start"})
        ann.until(lambda m: m["type"] == "state" and m["status"] == "playing")
        while not (ann.state["view"]["phase"] == "play" and any(
                e["type"] == "play" and e["seat"] == 0 for e in _events(data / f"{table}.jsonl"))):
            assert ann.state["status"] == "playing", "the round ended before Ann played"
            _play(ann, 1, pick=0)                      # the first move: a pass in the bidding, a play after
        # a second table, waiting, with one person seated
        waiting = server.create_table()
        bob = _join(server, waiting["table"], creator=waiting["creator"])
        bob.send({"type": "list", "listed": True})
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
        assert listed[table]["status"] in ("playing", "resuming") and listed[waiting["table"]]["status"] == "waiting"
        ann = _join(server, table, token=token)
        assert ann.state["seat"] == 0 and ann.state["status"] in ("playing", "over")
        events = _events(data / f"{table}.jsonl")
        assert (data / f"{table}.jsonl").read_text().startswith(before)
        assert Counter(ann.state["view"]["hand"]) == _hand_from_record(events, 0)
        assert any("Ann" in line or "(you)" in line for _, line in ann.log)     # the log comes back too
        stranger = _join(server, table, token="not-the-token")
        assert stranger.state["seat"] is None and "hand" not in stranger.state["view"]
        bob = _join(server, waiting["table"], token=bob_token)
        assert {t["table"] for t in server.tables()["tables"]} >= {table, waiting["table"]}   # both still open
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


def _http(server: Server, path: str, method: str = "GET", headers: dict | None = None) -> tuple[int, dict, bytes]:
    """A raw HTTP request to the server: status, headers (lower-case names), body."""
    import http.client
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request(method, path, headers=headers or {})
        answer = connection.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        connection.close()


def _refused_handshake(url: str, **headers) -> tuple[int, dict]:
    """Open a websocket that the server should refuse at the handshake: the status and the JSON body."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect
    try:
        connect(url, open_timeout=10, **headers).close()
    except InvalidStatus as refused:
        return refused.response.status_code, json.loads(refused.response.body)
    raise AssertionError("the websocket was accepted")


def test_another_sites_page_and_another_host_name_are_refused_with_the_reason(tmp_path):
    require_web()
    with running(tmp_path / "t", "--players", "random", "--allow-origin", "https://cards.example.org") as server:
        own = f"http://127.0.0.1:{server.port}"
        # a POST from another site's page (a form or a fetch there) opens no table
        status, _, body = _http(server, "/api/tables", "POST", {"Origin": "https://evil.example"})
        assert status == 403 and "https://evil.example may not use this server" in json.loads(body)["error"]
        assert server.tables()["tables"] == [] and not list((tmp_path / "t").glob("*.json"))
        # the server's own pages, an allowed origin, and a client that is no page (no Origin) may
        for origin in (own, "https://cards.example.org", None):
            status, _, body = _http(server, "/api/tables", "POST", {"Origin": origin} if origin else {})
            assert status == 201, body
        table = json.loads(body)["table"]
        url = f"{server.ws_base}/ws/{table}"
        status, body = _refused_handshake(url, origin="https://evil.example")
        assert status == 403 and "may not use this server" in body["error"]
        # another site's name pointed at this machine (DNS rebinding) gets nothing, not even a page
        upgrade = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
                   "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Host": f"evil.example:{server.port}",
                   "Origin": f"http://evil.example:{server.port}"}
        status, _, body = _http(server, f"/ws/{table}", headers=upgrade)
        assert status == 403 and "does not answer to the host name" in json.loads(body)["error"]
        status, _, body = _http(server, "/api/tables", headers={"Host": f"evil.example:{server.port}"})
        assert status == 403 and "host name" in json.loads(body)["error"]
        for origin in (own, "https://cards.example.org"):
            from websockets.sync.client import connect
            with connect(url, open_timeout=10, origin=origin) as socket:
                socket.send(json.dumps({"type": "hello"}))
                assert json.loads(socket.recv(timeout=10))["type"] == "welcome"
        status, _, _ = _http(server, "/", headers={"Host": f"localhost:{server.port}"})
        assert status == 200


def test_every_answer_carries_the_security_headers(tmp_path):
    require_web()
    with running(tmp_path, "--players", "random") as server:
        table = server.create_table()["table"]
        for path in ("/", f"/t/{table}", "/static/table.js", "/static/table.css", "/api/tables", "/nothing-here"):
            status, headers, _ = _http(server, path)
            assert status in (200, 404), path
            csp = headers["content-security-policy"]
            assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp and "unsafe-inline" not in csp
            assert headers["x-content-type-options"] == "nosniff"
            assert headers["referrer-policy"] == "no-referrer"
        status, headers, _ = _http(server, "/api/tables", "POST", {"Origin": "https://evil.example"})
        assert status == 403 and headers["x-content-type-options"] == "nosniff"
        # the page itself runs no inline script: its scripts are files the policy allows
        _, _, page = _http(server, "/")
        import re
        assert b"<script>" not in page and b"<script src=" in page
        assert not re.search(rb"<[^>]*\son[a-z]+\s*=", page)                # no inline event handler


def test_deep_large_and_flooding_messages_are_each_refused_with_a_reason(tmp_path):
    require_web()
    server = Server(tmp_path, "--players", "random").start()
    try:
        created = server.create_table()
        client = Client(f"{server.ws_base}/ws/{created['table']}")
        client.send({"type": "hello"})
        assert client.receive()["type"] == "welcome"
        client.until(lambda m: m["type"] == "state")
        deep = '{"type": "act", "x": ' + "[" * 990 + "]" * 990 + "}"
        assert len(deep) < 4096
        client.send(deep)
        assert "nested too deeply" in client.error()["reason"]
        client.send('{"type": "act", "x": "' + "[" * 3000 + '"}')      # brackets in a string are text
        assert "hold no seat" in client.error()["reason"]
        client.send(json.dumps({"type": "act", "pad": "x" * 100_000}))   # over 64 KiB: a reason, not a closed socket
        assert "message too large" in client.error()["reason"]
        client.send({"type": "hello"})
        assert "already said" in client.error()["reason"]               # still open
        # a flood: every message refused gets its answer, none is silently dropped
        time.sleep(2.5)                                                   # a full bucket
        for _ in range(60):
            client.send({"type": "nonsense"})
        reasons = [client.error()["reason"] for _ in range(60)]
        assert sum("too many messages" in r for r in reasons) >= 30
        assert all("too many messages" in r or "unknown message type" in r for r in reasons)
        client.close()
    finally:
        out = server.stop()
    assert "Traceback" not in out and "RecursionError" not in out, out


def test_half_a_character_is_refused_with_a_reason_and_the_connection_goes_on(tmp_path):
    """A \\u escape naming a lone surrogate decodes to a string that cannot be written as UTF-8:
    it broke the connection (a hello's token: closed 1011 without a reason; a message's type,
    echoed in its refusal: the connection answered nothing ever again)."""
    require_web()
    with running(tmp_path, "--players", "random") as server:
        created = server.create_table()
        client = Client(f"{server.ws_base}/ws/{created['table']}")
        client.send('{"type": "hello", "token": "\\ud800"}')
        assert "half a character" in client.error()["reason"]
        client.send({"type": "hello"})
        assert client.receive()["type"] == "welcome"
        client.until(lambda m: m["type"] == "state")
        for message in ('{"type": "\\ud800"}', '{"type": "sit", "seat": 0, "name": "Ann\\udfff"}',
                        '{"type": "act", "\\ud83d": 1}'):
            client.send(message)
            assert "half a character" in client.error()["reason"], message
        client.send('{"type": "sit", "seat": 0, "name": "Ann \\ud83c\\udccf"}')    # a whole character: a card
        assert client.until(lambda m: m["type"] == "seated")["seat"] == 0
        assert client.until(lambda m: m["type"] == "state")["seats"][0]["name"] == "Ann \U0001f0cf"
        client.close()
        out = server.stop()
    assert "a connection stopped" not in out and "Traceback" not in out, out


def test_a_finished_table_keeps_its_result_and_log_and_its_record_replays_from_another_folder(tmp_path):
    require_web()
    import os
    import subprocess
    import sys
    from serve_support import ROOT
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # the server started from the project's folder, the variant named relatively
    with running(tmp_path / "t", "--players", "random", "--delay", "0", "--rounds", "1",
                 variant="variants/chimera.yaml", cwd=ROOT) as server:
        created = server.create_table()
        ann = _join(server, created["table"], creator=created["creator"])
        ann.send({"type": "sit", "seat": 0, "name": "Ann"})
        token = ann.until(lambda m: m["type"] == "seated")["token"]
        ann.send({"type": "start"})
        ann.until(lambda m: m["type"] == "state" and m["status"] == "playing")
        _play(ann, None)
        over = ann.state
    record = tmp_path / "t" / f"{created['table']}.jsonl"
    assert Path(_events(record)[0]["variant_path"]).is_absolute()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-m", "chimera_dsl", "replay", "--quiet",
                           os.path.relpath(record, elsewhere)], cwd=elsewhere, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "win" in done.stdout, done.stdout
    # after a restart the finished table is still there, as it ended (it was "no such table")
    with running(tmp_path / "t", "--players", "random") as server:
        for token_held in (token, None):
            client = Client(f"{server.ws_base}/ws/{created['table']}")
            client.send({"type": "hello", "token": token_held})
            assert client.until(lambda m: m["type"] == "welcome")["seat"] == (0 if token_held else None)
            back = client.until(lambda m: m["type"] == "state")
            assert back["status"] == "over" and back["totals"] == over["totals"]
            if token_held:
                assert client.log == ann.log and back["view"]["hand"] == over["view"]["hand"]
            assert any(text.startswith("Game over") for _, text in client.log)
            client.close()


def _unfinished_tables(data: Path, count: int, decisions: int = 300) -> list[tuple[str, str]]:
    """Write ``count`` tables into ``data`` as a killed server leaves them: each played by random
    players for about ``decisions`` decisions, seat 0 a person's; their ids and seat 0's tokens."""
    import hashlib
    import secrets
    from chimera_dsl.engine import SECRET_SEED, Game
    from chimera_dsl.players import parse_players
    from chimera_dsl.tell.record import dumps
    from serve_support import VARIANT
    data.mkdir(mode=0o700)
    tables = []
    game = Game(RULES)
    for n in range(count):
        state = game.new_game(SECRET_SEED)
        while state.is_terminal() or not state.events[-1]["type"] == "play":   # a game long enough
            players = parse_players("random", game.players, secrets.randbits(30))
            state = game.new_game(SECRET_SEED, player_names=["Ann", "random", "random"])
            taken = 0
            while not state.is_terminal() and (taken < decisions or not state.events[-1]["type"] == "play"):
                seat = state.current_player()
                state.apply_action(players[seat].act(state.observation(seat), state.legal_actions()))
                taken += 1
        table, token = f"table{n:04d}", secrets.token_urlsafe(24)
        (data / f"{table}.jsonl").write_text(dumps(state.events))
        sidecar = {"format": 1, "id": table, "variant": VARIANT, "variant_hash": RULES.source_hash,
                   "seed": None, "target": None, "max_rounds": None, "created": time.time(), "status": "playing", "listed": True,
                   "creator": hashlib.sha256(b"creator").hexdigest(),
                   "seats": [{"kind": "person", "name": "Ann", "token": hashlib.sha256(token.encode()).hexdigest()},
                             {"kind": "computer", "name": "random", "token": None},
                             {"kind": "computer", "name": "random", "token": None}],
                   "pending": {"after_events": len(state.events), "moves": []}}
        (data / f"{table}.json").write_text(json.dumps(sidecar))
        tables.append((table, token))
    return tables


def test_a_server_with_a_hundred_unfinished_tables_answers_at_once_and_resumes_them_behind(tmp_path):
    require_web()
    tables = _unfinished_tables(tmp_path / "t", 100)
    server = Server(tmp_path / "t", "--players", "random", "--delay", "5").start()
    try:
        announced = next(at for at, line in server.lines if "open http" in line)
        assert server.answered - announced < 2.0           # the old server replayed all 100 first (43 s)
        # the last table to be replayed says it is resuming, then comes back, the seat held by its token
        table, token = tables[-1]
        client = Client(f"{server.ws_base}/ws/{table}")
        client.send({"type": "hello", "token": token})
        first = client.receive()
        assert first["type"] == "resuming" and "brought back" in first["reason"]
        assert client.until(lambda m: m["type"] == "welcome", timeout=60)["seat"] == 0
        state = client.until(lambda m: m["type"] == "state")
        assert state["status"] == "playing" and state["view"]["hand"]
        # it jumped the queue: most tables were still being resumed when it came back
        assert sum(t["status"] == "resuming" for t in server.tables()["tables"]) > 20
        client.close()
    finally:
        out = server.stop()
    assert "not resumed" not in out and "Traceback" not in out, out


def test_five_hundred_anonymous_tables_never_lock_the_server(tmp_path):
    """The old server took 500 anonymous POSTs and was full for good; now one address holds 3
    waiting tables, the others are refused with the reason, and expired tables free the room."""
    require_web()
    import urllib.error
    import urllib.request
    with running(tmp_path, "--players", "random", "--expire-after", "8") as server:
        started = time.monotonic()
        codes, reasons = [], set()
        for _ in range(500):
            request = urllib.request.Request(server.base + "/api/tables", method="POST")
            try:
                with urllib.request.urlopen(request, timeout=10) as answer:
                    codes.append(answer.status)
            except urllib.error.HTTPError as refused:
                codes.append(refused.code)
                reasons.add(json.loads(refused.read())["error"])
        assert time.monotonic() - started < 8, "too slow to tell: the first tables expired meanwhile"
        assert codes.count(201) == 3 and codes.count(429) == 497
        assert len(reasons) == 1 and "already hold 3 waiting tables" in reasons.pop()
        # a friend's browser (its cookie) opens a table meanwhile
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        opener.open(server.base + "/", timeout=10).close()
        with opener.open(urllib.request.Request(server.base + "/api/tables", method="POST"), timeout=10) as answer:
            assert answer.status == 201
        deadline = time.monotonic() + 30                  # nobody sat: the tables expire
        while len(list(tmp_path.glob("*.json"))) > 0:
            assert time.monotonic() < deadline, "the waiting tables did not expire"
            time.sleep(0.2)
        assert time.monotonic() - started >= 8
        assert server.create_table()["table"]


def test_a_table_whose_record_cannot_be_replayed_says_so_to_the_page_waiting_for_it(tmp_path):
    require_web()
    tables = _unfinished_tables(tmp_path / "t", 2, decisions=40)
    table, token = tables[1]
    record = tmp_path / "t" / f"{table}.jsonl"
    lines = record.read_text().splitlines(keepends=True)
    del lines[len(lines) // 2]                                  # a line lost: the rules cannot write the rest
    record.write_text("".join(lines))
    server = Server(tmp_path / "t", "--players", "random", "--delay", "5").start()
    try:
        client = Client(f"{server.ws_base}/ws/{table}")
        client.send({"type": "hello", "token": token})
        message = client.until(lambda m: m["type"] in ("error", "welcome"), timeout=60)
        assert message["type"] == "error" and "could not be brought back from its record" in message["reason"]
        good = _join(server, tables[0][0], token=tables[0][1])     # the other table is unharmed
        assert good.state["seat"] == 0 and good.state["status"] == "playing"
    finally:
        out = server.stop()
    assert f"{table}.json: not resumed" in out and "Traceback" not in out
