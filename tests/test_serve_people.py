"""Tables belong to their people: how many waiting tables a client may hold and when they
expire, unlisted tables, invites per seat, removing a seated person before the start, and a
computer player taking the seat of a person who left until they come back (through
Starlette's TestClient; the flood of anonymous tables over a real socket is in
test_serve_server.py)."""
from __future__ import annotations

import contextlib
import json
import time
import warnings

from serve_support import VARIANT, Seat, close_open, require_web

from test_serve import RULES


@contextlib.contextmanager
def serving(tmp_path, **settings):
    require_web()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from chimera_dsl.serve.app import create_app
    from chimera_dsl.serve.tables import Hall, Settings
    options = dict(players="random", delay=0, max_rounds=1) | settings
    hall = Hall(Settings(tmp_path, **options), VARIANT, RULES)
    with TestClient(create_app(hall)) as client:
        try:
            yield client, hall
        finally:
            close_open()


def test_a_client_holds_a_few_waiting_tables_and_expired_ones_free_the_server(tmp_path):
    with serving(tmp_path, max_waiting=3) as (client, hall):
        answers = [client.post("/api/tables") for _ in range(40)]          # no cookie: by address
        assert [a.status_code for a in answers[:3]] == [201] * 3
        assert {a.status_code for a in answers[3:]} == {429}
        assert "already hold 3 waiting tables" in answers[3].json()["error"]
        # a browser (its page set the cookie) is another client
        page = client.get("/")
        assert "chimera_client" in page.cookies and "httponly" in page.headers["set-cookie"].lower()
        mine = [client.post("/api/tables").status_code for _ in range(4)]
        assert mine == [201, 201, 201, 429]
        # a forged cookie is no identity: it counts as its address
        client.cookies.set("chimera_client", "made-up.0123456789abcdef0123456789abcdef")
        assert client.post("/api/tables").status_code == 429
        # waiting tables nobody sits at expire, files and all, and the client may open tables again
        assert len(list(tmp_path.glob("*.json"))) == 6
        hall.settings.expire_after = 0.0
        assert len(hall.sweep()) == 6 and not list(tmp_path.glob("*.json"))
        hall.settings.expire_after = 600.0
        assert client.post("/api/tables").status_code == 201


def test_a_waiting_table_with_a_person_seated_and_watched_does_not_expire(tmp_path):
    with serving(tmp_path, expire_after=0.3) as (client, hall):
        kept, dropped = client.post("/api/tables").json(), client.post("/api/tables").json()
        ann = Seat(client, kept["table"])
        ann.hello(creator=kept["creator"])
        ann.sit(0, "Ann")
        watcher = Seat(client, dropped["table"])
        watcher.hello()
        time.sleep(0.5)
        hall.sweep()
        assert kept["table"] in hall.tables and dropped["table"] not in hall.tables
        assert "expired" in watcher.until("error")["reason"]                  # its page is told why
        late = Seat(client, dropped["table"])
        late.send('{"type": "hello"}')
        assert "no such table" in late.ws.receive_json()["reason"]


def test_a_table_is_unlisted_until_its_creator_lists_it(tmp_path):
    with serving(tmp_path) as (client, hall):
        created = client.post("/api/tables").json()
        assert client.get("/api/tables").json()["tables"] == []
        guest = Seat(client, created["table"])
        guest.hello()
        guest.send({"type": "list", "listed": True})
        assert "only the table's creator" in guest.until("error")["reason"]
        host = Seat(client, created["table"])
        host.hello(creator=created["creator"])
        host.send({"type": "list", "listed": "yes"})
        assert "true" in host.until("error")["reason"]
        host.send({"type": "list", "listed": True})
        assert host.until("state", lambda m: m["listed"])["listed"] is True
        assert [t["table"] for t in client.get("/api/tables").json()["tables"]] == [created["table"]]
        host.send({"type": "list", "listed": False})
        host.until("state", lambda m: not m["listed"])
        assert client.get("/api/tables").json()["tables"] == []


def test_the_creator_invites_per_seat_and_removes_a_person_before_the_start(tmp_path):
    with serving(tmp_path) as (client, hall):
        created = client.post("/api/tables").json()
        host = Seat(client, created["table"])
        host.hello(creator=created["creator"])
        host.send({"type": "invite", "seat": 1})
        invited = host.until("invited")
        assert invited["seat"] == 1 and invited["url"] == f"/t/{created['table']}#invite={invited['code']}"
        assert host.until("state", lambda m: m["seats"][1]["invited"])
        assert invited["code"] not in (tmp_path / f"{created['table']}.json").read_text()     # kept hashed
        stranger = Seat(client, created["table"])
        stranger.hello()
        for invite in (None, "not-the-code"):
            stranger.send({"type": "sit", "seat": 1, "invite": invite})
            assert "kept for the person the table's creator invited" in stranger.until("error")["reason"]
        stranger.send({"type": "invite", "seat": 2})
        assert "only the table's creator" in stranger.until("error")["reason"]
        friend = Seat(client, created["table"])
        friend.hello()
        friend.send({"type": "sit", "seat": 1, "name": "Friend", "invite": invited["code"]})
        assert friend.until("seated")["seat"] == 1
        # a stranger took the open seat: the creator removes them; their token holds nothing now
        stranger_token = stranger.sit(2, "Stranger")
        stranger.send({"type": "remove", "seat": 1})
        assert "only the table's creator" in stranger.until("error")["reason"]
        host.send({"type": "remove", "seat": 2})
        removed = stranger.until("removed")
        assert removed["seat"] == 2 and "removed you" in removed["reason"]
        assert stranger.until("state")["seat"] is None
        assert hall.get(created["table"]).seats[2].kind == "free"
        again = Seat(client, created["table"])
        assert again.hello(token=stranger_token)["seat"] is None
        stranger.send({"type": "act", "turn": 0, "move": 0})
        assert "hold no seat" in stranger.until("error")["reason"]
        host.send({"type": "remove", "seat": 2})
        assert "nobody to remove" in host.until("error")["reason"]
        host.send({"type": "start"})
        host.until("state", lambda m: m["status"] == "playing")
        host.send({"type": "remove", "seat": 1})
        assert "has started" in host.until("error")["reason"]


def test_a_person_who_leaves_is_replaced_by_a_computer_and_takes_the_seat_back(tmp_path):
    with serving(tmp_path, replace_after=0.3, delay=0.05) as (client, hall):
        created = client.post("/api/tables").json()
        ann = Seat(client, created["table"])
        ann.hello(creator=created["creator"])
        token = ann.sit(0, "Ann")
        ann.send({"type": "start"})
        ann.until("state", lambda m: m["status"] == "playing")
        watcher = Seat(client, created["table"])
        watcher.hello()
        ann.close()
        said = []
        state = watcher.until("state", lambda m: said.extend(t for _, t in m["log"]["lines"]) or m["seats"][0]["away"])
        assert any("Ann left: a computer player takes the seat in 0.3 s" in t for t in said)
        assert any("Ann has been away 0.3 s: a computer player plays the seat" in t for t in said)
        # the game goes on: the computer decides for Ann's seat (lines of seat 0 are written)
        record = tmp_path / f"{created['table']}.jsonl"

        def anns() -> int:
            return sum(1 for e in map(json.loads, record.read_text().splitlines())
                       if e["type"] in ("bid", "play", "exchange") and (e.get("seat") == 0 or e.get("from") == 0))
        before = anns()
        watcher.until("state", lambda m: anns() > before or m["status"] == "over")
        assert anns() > before
        back = Seat(client, created["table"])
        assert back.hello(token=token)["seat"] == 0
        state = back.state                                   # the first state: the whole log
        assert not state["seats"][0]["away"]
        assert any("Ann is back and plays again" in t for _, t in state["log"]["lines"]), state["log"]["lines"][-5:]
        if state["status"] == "playing":           # her decisions are hers again
            # the table may be waiting on her already: then the state she got back is her turn,
            # and no other state comes until she acts (waiting for one hung 1 run in ~10)
            mine = state if state["to_act"] == 0 and state["legal"] else \
                back.until("state", lambda m: m["status"] == "over" or (m["to_act"] == 0 and m["legal"]))
            assert mine["status"] == "over" or mine["legal"]


def test_strangers_who_take_every_free_seat_cannot_start_a_table_before_its_creator(tmp_path):
    """A listed table: strangers take every seat but the creator's, one connection each.  The
    table waits for its creator (it started by itself when the last seat was taken, so the
    creator could remove nobody); the creator removes one of them and starts."""
    with serving(tmp_path) as (client, hall):
        created = client.post("/api/tables").json()
        host = Seat(client, created["table"])
        host.hello(creator=created["creator"])
        host.send({"type": "list", "listed": True})
        host.sit(0, "Ann")
        strangers = []
        for seat in (1, 2):
            eve = Seat(client, created["table"])
            eve.hello()
            eve.sit(seat, "Eve")
            strangers.append(eve)
        full = host.until("state", lambda m: all(s["kind"] == "person" for s in m["seats"]))
        assert full["status"] == "waiting" and hall.get(created["table"]).status == "waiting"
        strangers[1].send({"type": "start"})
        assert "only the table's creator may start the game" == strangers[1].until("error")["reason"]
        host.send({"type": "remove", "seat": 2})
        assert strangers[1].until("removed")["seat"] == 2
        host.send({"type": "start"})
        started = host.until("state", lambda m: m["status"] == "playing")
        assert [s["kind"] for s in started["seats"]] == ["person", "person", "computer"]


def test_tables_started_and_left_to_the_computers_count_as_the_clients_too(tmp_path):
    """Open a table, start it with computer players alone, leave: without a limit one address
    filled the server this way, each table held until its game ended."""
    with serving(tmp_path, delay=5.0, max_waiting=3) as (client, hall):
        answers = []
        for _ in range(5):
            answer = client.post("/api/tables")
            answers.append(answer.status_code)
            if answer.status_code != 201:
                continue
            created = answer.json()
            host = Seat(client, created["table"])
            host.hello(creator=created["creator"])
            host.send({"type": "start"})
            host.until("state", lambda m: m["status"] == "playing")
            host.close()
            deadline = time.monotonic() + 5
            while hall.tables[created["table"]].listeners and time.monotonic() < deadline:
                time.sleep(0.01)                             # the server has seen the page go
        assert answers == [201, 201, 201, 429, 429]
        assert "or tables playing with nobody watching" in client.post("/api/tables").json()["error"]
        # a page watching one of them: that table is looked after, and one more may be opened
        watched = next(t for t in hall.tables.values() if t.status == "playing")
        watcher = Seat(client, watched.id)
        watcher.hello()
        assert client.post("/api/tables").status_code == 201


def test_one_address_holds_at_most_max_sockets_pages_open_and_a_page_closed_frees_one(tmp_path):
    with serving(tmp_path, max_sockets=3) as (client, hall):
        table = client.post("/api/tables").json()["table"]
        pages = [Seat(client, table) for _ in range(3)]
        for page in pages:
            page.hello()
        assert sum(hall.sockets.values()) == 3
        with client.websocket_connect(f"/ws/{table}?lang=fr") as fourth:      # one too many: refused, with why
            refusal = fourth.receive_json()
            assert refusal["type"] == "error"
            assert refusal["reason"].startswith("3 pages sont déjà ouvertes sur ce serveur depuis votre adresse")
            from starlette.websockets import WebSocketDisconnect
            try:
                fourth.receive_json()
            except WebSocketDisconnect as closed:
                assert closed.code == 4429           # the page stops retrying on this code
            else:
                raise AssertionError("the refused page stayed open")
        pages[0].context.__exit__(None, None, None)
        pages[0].closed = True
        deadline = time.monotonic() + 5
        while sum(hall.sockets.values()) > 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert sum(hall.sockets.values()) == 2
        Seat(client, table).hello()                  # the page closed freed its place
        assert sum(hall.sockets.values()) == 3
