"""The web table as people see it, in a real browser, for three decks (Chimera's colours, Gang of
Four's colours with its many-coloured 1, Chibre's French suits): one person plays against
computer players until a trick is on the table and it is her turn, and the page is
photographed at 1280x800 and on a 390x844 phone (tests/artifacts/web-table/; with
CHIMERA_SCREENSHOTS=DIR copied there too, as for docs/img/).

On the phone the hand and the buttons are within the screen without scrolling and nothing is
wider than it; the trick's cards lie in front of the seats that played them; every card of the
hand carries its suit's symbol; the log names the seats, never ``seat N``; computer seats are
told apart."""
from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pytest

from serve_support import BROWSER_ARGS, ROOT, chromium, require, require_web, running, sit_and_start, wait_true

ARTIFACTS = ROOT / "tests" / "artifacts" / "web-table"
DECKS = {
    "chimera": ROOT / "variants" / "chimera.yaml",
    "gang-of-four": ROOT / "variants" / "others" / "gang-of-four.yaml",
    "chibre": ROOT / "variants" / "others" / "chibre.yaml",
}
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def _act(page) -> None:
    """One decision as a person would click it: pass a bid, give or play the first legal cards,
    play the first playable card of a trick, choose the first trump, else pass."""
    before = page.get_attribute("body", "data-turn")
    buttons = page.locator("#buttons button")
    kinds = [buttons.nth(i).get_attribute("data-kind") for i in range(buttons.count())]
    if page.locator("#hand .card.playable").count():
        page.locator("#hand .card.playable").first.click()
    elif "play" in kinds or "give" in kinds:
        kind = "play" if "play" in kinds else "give"
        moves = page.locator("#moves .move[data-cards]")
        cards = moves.first.get_attribute("data-cards").split() if moves.count() else []
        if kind == "give" and not cards:
            count = int(page.inner_text("#prompt").split()[1])
            cards = [page.locator("#hand .card").nth(i).get_attribute("data-card") for i in range(count)]
        for card in cards:
            page.locator(f"#hand .card[data-card='{card}']:not(.selected)").first.click()
        page.click(f"#buttons button[data-kind='{kind}']")
        if page.locator("#readings button").count():
            page.locator("#readings button").first.click()
    elif "trump" in kinds:
        page.locator("#buttons button[data-kind='trump']").first.click()
    elif "pass" in kinds:
        page.click("#buttons button[data-kind='pass']")
    else:
        buttons.first.click()
    wait_true(page, f"document.body.dataset.turn != '{before}' || "
                    "!!document.querySelector('#notice:not([hidden]).error')", timeout=10)


def _trick_on_the_table(page) -> bool:
    return page.locator("#others .spot.played").count() >= 2


def _play_until_a_trick(page, deadline: float) -> None:
    """Act for the person until it is her turn with at least two plays on the table."""
    while True:
        if time.monotonic() > deadline:
            raise AssertionError(f"no trick with the person to play in time: {page.inner_text('#prompt')!r}")
        assert page.get_attribute("body", "data-status") != "over", "the game ended first"
        mine = page.locator("#prompt.yours").count() and page.get_attribute("body", "data-sent") == "false"
        if not mine:
            page.wait_for_timeout(40)
            continue
        if page.get_attribute("body", "data-phase") == "play" and _trick_on_the_table(page):
            return
        _act(page)


CLIPPED = """() => {
  // a card's rank and suit must show whole: inside the card, and left of the card laid over it;
  // a word must fit its box
  const out = [];
  for (const card of document.querySelectorAll("#hand .card, #others .card")) {
    const next = card.nextElementSibling && card.nextElementSibling.classList.contains("card") ? card.nextElementSibling : null;
    const edge = Math.min(card.getBoundingClientRect().right, next ? next.getBoundingClientRect().left : Infinity);
    for (const part of card.querySelectorAll(".rank, .corner .suit")) {
      const r = part.getBoundingClientRect();
      if (r.right > edge + 0.5 || part.scrollWidth > part.clientWidth + 1) out.push(card.dataset.card + " " + part.textContent);
    }
  }
  for (const word of document.querySelectorAll(".seat .name, .mark, .bubble, .spot .what, #where, #facts .fact, #buttons button")) {
    if (word.offsetParent !== null && word.scrollWidth > word.clientWidth + 1) out.push(word.textContent);
  }
  return out;
}"""


def _box(page, selector: str) -> dict:
    return page.eval_on_selector(selector, "e => { const r = e.getBoundingClientRect();"
                                           " return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; }")


@pytest.mark.parametrize("deck", sorted(DECKS))
def test_the_table_reads_well_on_a_desk_and_a_phone(tmp_path, deck):
    require_web()
    sync_api = require("playwright.sync_api", "pip install playwright (no browser download: chromium from apt)")
    path = chromium()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shots = []
    with running(tmp_path / "tables", "--players", "heuristic", "--delay", "0.05", "--rounds", "3", "--seed", "5",
                 variant=str(DECKS[deck])) as server, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=BROWSER_ARGS)
        page = browser.new_context(viewport=DESKTOP).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        sit_and_start(page, server.base)
        page.wait_for_selector("#hand .card")
        _play_until_a_trick(page, time.monotonic() + float(os.environ.get("CHIMERA_BROWSER_DEADLINE", 180)))
        page.wait_for_timeout(150)                       # the notice of a seat taken fades first
        page.evaluate("document.getElementById('notice').hidden = true")

        desk = ARTIFACTS / f"{deck}-1280x800.png"
        page.screenshot(path=desk, animations="disabled")
        shots.append(desk)
        seats = [page.inner_text(f"#others .seat[data-seat='{i}'] .name") for i in range(1, page.locator("#others .seat").count() + 1)]
        spots = {page.get_attribute(f"#others .spot.played >> nth={i}", "data-seat")
                 for i in range(page.locator("#others .spot.played").count())}
        suits = [page.get_attribute(f"#hand .card >> nth={i}", "data-suit") for i in range(page.locator("#hand .card").count())]
        coloured = page.evaluate("page.state.view.cards.filter((c) => c.includes('/')).length")   # the deck's cards with a colour
        log = page.inner_text("#log")
        clipped = page.evaluate(CLIPPED)
        end_rule = page.inner_text("#end-rule")
        facts = page.inner_text("#facts")
        unsuited = page.evaluate("[...document.querySelectorAll('#facts .card')].filter((c) => !c.dataset.suit).length")

        page.set_viewport_size(PHONE)
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(100)
        phone = ARTIFACTS / f"{deck}-390x844.png"
        page.screenshot(path=phone, animations="disabled")
        shots.append(phone)
        width = page.evaluate("document.documentElement.scrollWidth")
        hand, buttons = _box(page, "#hand"), _box(page, "#buttons")
        cards = [_box(page, f"#hand .card >> nth={i}") for i in range(page.locator("#hand .card").count())]
        seat_boxes = [_box(page, f"#others .seat >> nth={i}") for i in range(page.locator("#others .seat").count())]
        ring = _box(page, "#others")
        clipped += page.evaluate(CLIPPED)
        browser.close()

    assert not errors
    assert all(shot.stat().st_size > 10_000 for shot in shots)
    # the phone: no sideways scrolling, the hand and the buttons on the first screen
    assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px phone"
    assert 0 <= hand["top"] and hand["bottom"] <= PHONE["height"], hand
    assert 0 <= buttons["top"] and buttons["bottom"] <= PHONE["height"], buttons
    assert all(0 <= c["left"] and c["right"] <= PHONE["width"] and c["bottom"] <= PHONE["height"] for c in cards)
    assert all(ring["left"] <= b["left"] and b["right"] <= ring["right"] for b in seat_boxes), (ring, seat_boxes)
    assert not clipped, f"ranks or words cut short: {clipped}"
    # the trick lies in front of the seats that played it; every card of the hand has a suit
    assert len(spots) >= 2 and spots <= {str(i) for i in range(len(seats) + 1)}
    assert coloured and sum(1 for suit in suits if suit) == coloured, f"a card of the hand is drawn without its suit: {suits}"
    assert unsuited == 0, "a card above the table (the face-up card) is drawn without its suit"
    # names everywhere: computer seats told apart, the log by name
    assert len(set(seats)) == len(seats) and all("heuristic" in name for name in seats), seats
    assert "Ann (you)" in log and all(name in log for name in seats)
    assert not re.search(r"\bseat \d", log), [line for line in log.splitlines() if re.search(r"\bseat \d", line)]
    assert "3 rounds" in end_rule, end_rule
    # the facts above the table are words, never a field's raw value ("calls {}", "unseen 0")
    assert not re.search(r"[{}\[\]]|\bcalls\b|\bunseen\b", facts), facts

    target = os.environ.get("CHIMERA_SCREENSHOTS")
    if target:
        os.makedirs(target, exist_ok=True)
        for shot in shots:
            shutil.copy(shot, Path(target) / shot.name)


def test_a_suit_is_drawn_by_the_decks_look_or_by_its_name(tmp_path):
    """The deck's ``looks`` first; then a suit's name (``hearts``: ♥, a colour word: a pip of that
    colour, a wild colour: ✦); any other name by its initial: never by the game's name."""
    require_web()
    sync_api = require("playwright.sync_api", "pip install playwright (no browser download: chromium from apt)")
    path = chromium()
    state = {
        "type": "state", "table": "x", "variant": "any", "status": "playing", "turn": 1, "seat": 0,
        "creator": False, "players": 2, "roles": {}, "problem": None, "to_act": 1, "marked_fields": [],
        "deck": {"colours": ["acorns", "hearts", "blue", "leaves", "multi"], "wild": ["multi"], "names": {"U": "Unter"},
                 "looks": {"acorns": {"symbol": "A", "colour": "#8b5a2b"}}},
        "end": {"target": None, "rounds": 4, "when": None, "winner": "highest"},
        "seats": [{"seat": 0, "kind": "person", "name": "Ann", "connected": True},
                  {"seat": 1, "kind": "computer", "name": "Ada (heuristic)", "connected": False}],
        "marks": [[], []], "legal": [],
        "view": {"seat": 0, "phase": "play", "round": 1, "hand": ["7/acorns", "7/hearts", "U/blue", "8/leaves", "1/multi"],
                 "hand_sizes": [5, 5], "totals": [0, 0], "trick": [], "last_play": None, "bids": []},
        "log": {"from": 0, "lines": []},
    }
    with running(tmp_path, "--delay", "0") as server, sync_api.sync_playwright() as p:
        created = server.create_table()
        browser = p.chromium.launch(executable_path=path, args=BROWSER_ARGS)
        page = browser.new_page()
        page.goto(f"{server.base}/t/{created['table']}")
        page.wait_for_selector("#seat-list li")
        page.evaluate("state => receive(state)", state)
        drawn = page.evaluate("""() => [...document.querySelectorAll('#hand .card')].map((c) => [c.dataset.card,
            c.querySelector('.corner .suit').textContent, getComputedStyle(c).color, c.title, c.classList.contains('wild')])""")
        end_rule = page.inner_text("#end-rule")
        browser.close()
    looks = {card: (symbol, colour, title, wild) for card, symbol, colour, title, wild in drawn}
    assert looks["7/acorns"][:2] == ("A", "rgb(139, 90, 43)")                # the deck's look
    assert looks["7/hearts"][0] == "♥" and looks["7/hearts"][2] == "7 of hearts"
    assert looks["U/blue"][0] == "●" and looks["U/blue"][2] == "blue Unter"   # a colour word, a rank's long name
    assert looks["8/leaves"][0] == "L"                                        # any other name: its initial
    assert looks["1/multi"][0] == "✦" and looks["1/multi"][3]
    assert "4 rounds" in end_rule


def test_the_readme_shows_two_of_these_pictures():
    """Two of the pictures this test takes (a desk and a phone) are in the README, kept in docs/img/."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = set(re.findall(r"docs/img/((" + "|".join(DECKS) + r")-(1280x800|390x844)\.png)", readme))
    assert {size for _, _, size in shown} == {"1280x800", "390x844"}, shown
    assert all((ROOT / "docs" / "img" / name).stat().st_size > 10_000 for name, _, _ in shown)
