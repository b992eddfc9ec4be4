"""The web table in a real browser: two people take two seats in two browser contexts and play a
round to its end by clicking; neither page's DOM nor its websocket frames ever hold the other
seat's cards.  Screenshots at the bidding, mid-trick and at the end are kept (the test's tmp
folder; CHIMERA_SCREENSHOTS=DIR copies them there, as for docs/img/)."""
from __future__ import annotations

import json
import os
import re
import shutil
import time
from collections import Counter

from serve_support import BROWSER_ARGS, ROOT, chromium, csp_watch, require, require_web, running, sit_and_start, wait_true


def _ranks(cards):
    """Cards by rank: the view names ranks, the record the very cards (7/red)."""
    return [c.split("/", 1)[0] for c in cards]


def _record(data, table: str) -> list[dict]:
    return [json.loads(line) for line in (data / f"{table}.jsonl").read_text().splitlines() if line]


def _cards_of(events: list[dict], seat: int) -> dict[int, Counter]:
    """Per round, every card ``seat`` may know of its own: dealt, from the nest, received."""
    out: dict[int, Counter] = {}
    chimera = {}
    for e in events:
        if e["type"] == "deal":
            out[e["round"]] = Counter(_ranks(e["hands"][seat])) + Counter(_ranks(e["nest"]))
        elif e["type"] == "exchange" and e["to"] == seat:
            out[e["round"]] += Counter(_ranks(e["cards"]))
        elif e["type"] == "chimera":
            chimera[e["round"]] = e["seat"]
    return out


def _walk(value, key=None):
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _walk(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from _walk(v, key)
    yield key, value


class Person:
    """One browser context at one seat, with every websocket frame and DOM text it ever held."""

    def __init__(self, browser, name: str):
        self.name = name
        self.context = browser.new_context(viewport={"width": 1280, "height": 860})
        self.page = self.context.new_page()
        self.frames: list[str] = []
        self.texts: list[str] = []
        self.errors: list[str] = []
        self.page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: self.frames.append(payload)))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        csp_watch(self.page, self.errors)
        self.seat: int | None = None

    def snapshot(self) -> None:
        self.texts.append(self.page.inner_text("body"))

    def turn(self) -> int:
        return int(self.page.get_attribute("body", "data-turn") or -1)

    def my_turn(self) -> bool:
        return self.page.locator("#prompt.yours").count() > 0 and \
            self.page.get_attribute("body", "data-sent") == "false"

    def act(self) -> None:
        """Decide as a person clicking would: bid the lowest level once, give the lowest cards,
        play the first legal move (clicking its cards in the hand), else pass."""
        page = self.page
        self.snapshot()
        before = self.turn()
        bids = page.locator("#buttons button[data-kind='bid']")
        give = page.locator("#buttons button[data-kind='give']")
        play = page.locator("#buttons button[data-kind='play']")
        if bids.count():
            if self.name == "Ann" and page.locator(f"#others .spot[data-seat='{self.seat}'] .bubble.bid").count() == 0:
                bids.first.click()
            else:
                page.click("#buttons button[data-kind='pass']")
        elif give.count():
            count = int(page.inner_text("#prompt").split()[1])
            for i in range(count):
                page.locator("#hand .card").nth(i).click()
            give.click()
        elif play.count():
            moves = page.locator("#moves .move")
            if moves.count():
                cards = moves.first.get_attribute("data-cards").split()
                for card in cards:
                    page.locator(f"#hand .card[data-card='{card}']:not(.selected)").first.click()
                play.click()
                if page.locator("#readings button").count():
                    page.locator("#readings button").first.click()
            else:
                page.click("#buttons button[data-kind='pass']")
        else:
            page.click("#buttons button[data-kind='pass']")
        wait_true(page, f"document.body.dataset.turn != '{before}' || !!document.querySelector('#notice:not([hidden]).error')")


def test_two_people_play_a_round_by_clicking(tmp_path):
    require_web()
    sync_api = require("playwright.sync_api", "pip install playwright (no browser download: chromium from apt)")
    path = chromium()
    data = tmp_path / "tables"
    shots = tmp_path / "screenshots"
    shots.mkdir()
    with running(data, "--players", "random", "--delay", "0.2", "--rounds", "1") as server, \
            sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=BROWSER_ARGS)
        ann, bob = Person(browser, "Ann"), Person(browser, "Bob")
        ann.page.goto(server.base + "/")
        ann.page.click("#create")
        ann.page.wait_for_url("**/t/*")
        table = ann.page.url.rsplit("/", 1)[1]
        for person, seat in ((ann, 0), (bob, 1)):
            if person is bob:
                bob.page.goto(ann.page.url)
            person.page.fill("#name", person.name)
            person.page.click(f"button.sit[data-seat='{seat}']")
            person.page.wait_for_selector(f"#seat-list strong:has-text('{person.name} (you)')")
            person.seat = seat
        assert bob.page.locator("#start-row").is_hidden()          # only the creator may start
        ann.page.click("#start")
        for person in (ann, bob):
            person.page.wait_for_selector("#hand .card")
        shot = {}
        if ann.page.get_attribute("body", "data-phase") == "bidding":      # replaced if Ann gets to bid
            shot["bidding"] = shots / "table-bidding.png"
            ann.page.screenshot(path=shot["bidding"])
        ann_bid = False
        deadline = time.monotonic() + float(os.environ.get('CHIMERA_BROWSER_DEADLINE', 240))
        while ann.page.get_attribute("body", "data-status") != "over":
            if time.monotonic() > deadline:
                for person in (ann, bob):
                    person.page.screenshot(path=shots / f"stuck-{person.name}.png")
                raise AssertionError(f"the round did not end in time: Ann sees {ann.page.inner_text('#prompt')!r}, "
                                     f"Bob sees {bob.page.inner_text('#prompt')!r} (screenshots in {shots})")
            acted = False
            for person in (ann, bob):
                if person.page.get_attribute("body", "data-status") == "over" or not person.my_turn():
                    continue
                phase = person.page.get_attribute("body", "data-phase")
                if person is ann and phase == "bidding" and not ann_bid:
                    shot["bidding"] = shots / "table-bidding.png"
                    ann.page.screenshot(path=shot["bidding"])
                    ann_bid = True
                if person is ann and "trick" not in shot and ann.page.locator("#others .spot.top").count() \
                        and ann.page.locator("#others .spot.played").count() >= 2:
                    shot["trick"] = shots / "table-trick.png"
                    ann.page.screenshot(path=shot["trick"])
                person.act()
                acted = True
            if not acted:
                ann.page.wait_for_timeout(50)
        for person in (ann, bob):
            person.page.wait_for_selector("#result:not([hidden])")
            person.snapshot()
        shot["end"] = shots / "table-end.png"
        ann.page.screenshot(path=shot["end"])
        standings = ann.page.inner_text("#standings")
        round_log = bob.page.inner_text("#round-log")
        frames = {"Ann": list(ann.frames), "Bob": list(bob.frames)}
        errors = ann.errors + bob.errors
        browser.close()

    assert not errors
    assert set(shot) == {"bidding", "trick", "end"}
    assert all(path.stat().st_size > 10_000 for path in shot.values())
    assert "Game over after 1 round." in standings and "Ann" in standings and "Bob" in standings
    assert "Bob (you)" in round_log and "totals:" in round_log        # seats by name, never "seat 1"
    assert "Ann" in round_log and not re.search(r"\bseat \d", round_log), round_log
    events = _record(data, table)
    assert events[-1]["type"] == "game_end"

    for person, other in ((ann, bob), (bob, ann)):
        mine = _cards_of(events, person.seat)
        theirs = [json.dumps(e["hands"][other.seat], ensure_ascii=False) for e in events if e["type"] == "deal"]
        spoken = [" ".join(e["hands"][other.seat]) for e in events if e["type"] == "deal"]
        got = [json.loads(f) for f in frames[person.name]]
        assert got[0]["type"] == "welcome"                 # nothing of the table before hello
        states = [m for m in got if m["type"] == "state"]
        assert states and all(m["seat"] in (None, person.seat) for m in states)
        for message in states:
            if message["view"] is None:
                continue
            assert message["view"]["seat"] == person.seat
            hand = Counter(message["view"]["hand"])
            assert not hand - mine[message["view"]["round"]], "a hand holding cards not of this seat"
            for key, value in _walk(message):
                if key in ("hands",):
                    raise AssertionError("a frame holds every hand")
        for text, message in zip(frames[person.name], got):
            if message["type"] == "state" and message["view"] and message["view"]["hand_sizes"][other.seat] == 0:
                continue                     # every card of a seat that went out is on the table
            assert not any(h in text for h in theirs), f"{person.name} received {other.name}'s hand"
        for text in person.texts:
            assert not any(h in text for h in spoken), f"{person.name}'s page showed {other.name}'s hand"

    target = os.environ.get("CHIMERA_SCREENSHOTS")
    if target:
        os.makedirs(target, exist_ok=True)
        for path in shot.values():
            shutil.copy(path, target)


def _fake_state(**changes) -> dict:
    """A state message as the server sends it, for the page's own logic (the server is not asked)."""
    play = lambda cards, rank, i: {"id": i, "kind": "play", "cards": cards, "combination": "straight",  # noqa: E731
                                   "name": "Straight", "rank": rank, "rank_name": str(rank),
                                   "label": f"{' '.join(cards)}: Straight, rank {rank}"}
    state = {
        "type": "state", "table": "x", "variant": "test", "status": "playing", "turn": 7, "seat": 0,
        "creator": False, "players": 3, "roles": {}, "problem": None, "to_act": 0, "marked_fields": [],
        "seats": [{"seat": i, "kind": "person", "name": name, "connected": True}
                  for i, name in enumerate(["Ann", "<b>Bob</b>", "<img src=x onerror=alert(1)>"])],
        "marks": [[], [], []],
        "view": {"seat": 0, "phase": "play", "round": 1, "hand": ["2", "3", "4", "5", "9", "P"],
                 "hand_sizes": [6, 5, 5], "totals": [0, 0, 0], "trick": [], "last_play": None, "bids": []},
        "legal": [play(["2", "3", "4", "5", "P"], 5, 0), play(["2", "3", "4", "5", "P"], 6, 1),
                  {"id": 2, "kind": "play", "cards": ["9"], "combination": "single", "name": "Single",
                   "rank": 9, "rank_name": "9", "label": "9: Single, rank 9"},
                  {"id": 3, "kind": "pass", "label": "pass"}],
        "log": {"from": 0, "lines": [[1, "Round 1: <b>seat 0</b> deals"]]},
    }
    state.update(changes)
    return state


def test_cards_that_read_several_ways_ask_which_and_names_are_text(tmp_path):
    require_web()
    sync_api = require("playwright.sync_api", "pip install playwright (no browser download: chromium from apt)")
    path = chromium()
    with running(tmp_path, "--delay", "0") as server, sync_api.sync_playwright() as p:
        created = server.create_table()
        browser = p.chromium.launch(executable_path=path, args=BROWSER_ARGS)
        page = browser.new_page()
        sent: list[str] = []
        page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(payload)))
        page.goto(f"{server.base}/t/{created['table']}")
        page.wait_for_selector("#seat-list li")
        page.evaluate("state => receive(state)", _fake_state())
        assert page.locator("#others b, #others img, #log b").count() == 0      # names and log are text
        assert "<b>Bob</b>" in page.inner_text("#others")
        play = page.locator("#buttons button[data-kind='play']")
        assert play.is_disabled() and page.locator("#buttons button[data-kind='pass']").count() == 1
        for card in ["2", "3", "4", "5", "P"]:
            page.click(f"#hand .card[data-card='{card}']")
        assert page.locator("#hand .card.selected").count() == 5
        play.click()
        readings = page.locator("#readings button")
        assert readings.count() == 2
        assert "rank 6" in readings.nth(1).inner_text()
        readings.nth(1).click()
        page.wait_for_timeout(200)
        acts = [json.loads(f) for f in sent if '"act"' in f]
        assert acts == [{"type": "act", "turn": 7, "move": 1}]
        # a state for the next decision: the selection is gone; "9" alone is one reading, sent at once
        page.evaluate("state => receive(state)", _fake_state(turn=8, log={"from": 1, "lines": []}))
        page.click("#hand .card[data-card='9']")
        page.click("#buttons button[data-kind='play']")
        page.wait_for_timeout(200)
        assert [json.loads(f) for f in sent if '"act"' in f][-1] == {"type": "act", "turn": 8, "move": 2}
        # when passing is the only choice the page says so and offers no button: the table passes
        page.evaluate("state => receive(state)", _fake_state(turn=9, forced=True, log={"from": 1, "lines": []},
                                                             legal=[{"id": 0, "kind": "pass", "label": "pass"}]))
        assert "No other choice than pass" in page.inner_text("#prompt")
        assert page.locator("#buttons button").count() == 0
        browser.close()


def test_a_move_chosen_while_disconnected_is_sent_after_reconnecting(tmp_path):
    """The server is killed while it is Ann's turn; she clicks anyway; the server comes back: her
    move is taken (the old page kept every button disabled after reconnecting, nothing sent)."""
    require_web()
    sync_api = require("playwright.sync_api", "pip install playwright (no browser download: chromium from apt)")
    from serve_support import Server
    path = chromium()
    data = tmp_path / "tables"
    options = ("--players", "random", "--delay", "0.2", "--rounds", "1")
    server = Server(data, *options).start()
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=path, args=BROWSER_ARGS)
            ann = Person(browser, "Ann")
            page = ann.page
            sit_and_start(page, server.base)
            movable = "#buttons button[data-move]:not([disabled])"       # a bid, a pass: one click decides
            while True:
                wait_true(page, "(!!document.querySelector('#prompt.yours') && document.body.dataset.sent === 'false')"
                                " || document.body.dataset.status === 'over'", 30)
                assert page.get_attribute("body", "data-status") != "over", "the game ended before the test"
                if page.locator(movable).count():
                    break
                ann.act()                                   # a lead: cards to select first; play it and go on
            before = ann.turn()
            lines = len(_record(data, page.url.rsplit("/", 1)[1]))
            server.kill()
            wait_true(page, "document.getElementById('connection').textContent.startsWith('reconnecting')")
            button = page.locator(movable).first
            chosen = button.get_attribute("data-kind")
            button.click()
            assert page.get_attribute("body", "data-sent") == "true"
            server.stop()
            server = Server(data, *options, port=server.port).start()
            wait_true(page, f"document.body.dataset.turn !== '{before}'", 30)
            record = _record(data, page.url.rsplit("/", 1)[1])[lines:]
            said = next(e for e in record if e.get("seat") == 0)                     # her decision, taken
            assert chosen in ("pass", "bid") and said["type"] in ("bid", "pass"), (chosen, said)
            assert (said["type"] == "pass" or said["bid"] is None) == (chosen == "pass"), (chosen, said)
            wait_true(page, "document.body.dataset.sent === 'false'")
            assert not ann.errors, ann.errors
            browser.close()
    finally:
        server.stop()


def test_the_creator_invites_by_link_and_removes_from_the_page(tmp_path):
    require_web()
    sync_api = require("playwright.sync_api", "pip install playwright (no browser download: chromium from apt)")
    path = chromium()
    with running(tmp_path / "tables", "--players", "random") as server, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=BROWSER_ARGS)
        ann, bob, eve = Person(browser, "Ann"), Person(browser, "Bob"), Person(browser, "Eve")
        ann.page.goto(server.base + "/")
        ann.page.click("#create")
        ann.page.wait_for_url("**/t/*")
        ann.page.click("#listed")                                   # listed in the lobby
        deadline = time.monotonic() + 10
        while not server.tables()["tables"] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(server.tables()["tables"]) == 1
        ann.page.click("button.invite[data-seat='1']")
        link = ann.page.locator("input.invite-link").input_value()
        assert "#invite=" in link
        eve.page.goto(ann.page.url)                                  # the table's link, not the invite
        eve.page.wait_for_selector("#seat-list")
        assert eve.page.locator("button.sit[data-seat='1']").count() == 0
        assert "kept for an invited person" in eve.page.inner_text("#seat-list")
        bob.page.goto(link)
        bob.page.fill("#name", "Bob")
        bob.page.click("button.sit[data-seat='1']")
        bob.page.wait_for_selector("#seat-list strong:has-text('Bob (you)')")
        assert "#invite" not in bob.page.url
        ann.page.click("button.remove[data-seat='1']")
        bob.page.wait_for_selector("#notice:has-text('removed you')")
        wait_true(bob.page, "!document.querySelector('#seat-list strong')")
        assert not ann.errors + bob.errors + eve.errors
        browser.close()


def test_the_very_cards_given_are_chosen_in_the_hand(tmp_path):
    """Tichu's hand names its very cards (``3/stars``), and so do its gifts: a person selects
    a card in the hand and gives it, and that very card is given.  The gifts named only the
    rank and a number (``give 3 32``): every card was greyed, Give never became clickable, and
    a person could not get past the passing of cards."""
    require_web()
    sync_api = require("playwright.sync_api", "pip install playwright (no browser download: chromium from apt)")
    path = chromium()
    variant = str(ROOT / "variants" / "others" / "tichu.yaml")
    with running(tmp_path, "--players", "heuristic", "--delay", "0.05", "--rounds", "1", "--seed", "7",
                 variant=variant) as server, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=BROWSER_ARGS)
        ann = Person(browser, "Ann")
        page = ann.page
        sit_and_start(page, server.base)
        given: list[str] = []
        while page.get_attribute("body", "data-phase") != "play":
            wait_true(page, "(!!document.querySelector('#prompt.yours') && document.body.dataset.sent === 'false')"
                            " || document.body.dataset.phase === 'play'", 30)
            if page.get_attribute("body", "data-phase") == "play":
                break
            before = ann.turn()
            give = page.locator("#buttons button[data-kind='give']")
            if give.count():
                assert page.locator("#hand .card.dim").count() == 0, "every card of the hand may be given"
                assert give.is_disabled()
                card = page.locator("#hand .card").first          # seed 7: one of the four 4s
                given.append(card.get_attribute("data-card"))
                card.click()
                assert give.is_enabled(), "the card selected is a gift offered"
                give.click()
                assert page.locator("#readings button").count() == 0, "one gift: no question which"
            else:
                page.click("#buttons button[data-kind='pass']")              # no Grand Tichu, no Tichu
            wait_true(page, f"document.body.dataset.turn != '{before}'")
        assert len(given) == 3
        record = [json.loads(line) for line in next(tmp_path.glob("*.jsonl")).read_text().splitlines()]
        gifts = [e["cards"] for e in record if e["type"] == "exchange" and e["from"] == 0]
        assert sorted(sum(gifts, [])) == sorted(given), (gifts, given)       # the very cards chosen
        assert not ann.errors, ann.errors
        browser.close()
