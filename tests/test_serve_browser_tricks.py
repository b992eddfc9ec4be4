"""The web table of a trick-taking file in a real browser: one person plays Mü (mu.yaml) against
four computer players by clicking, through the auction, the choices of trump and partner, and
some tricks; the buttons name cards (``7/red``), never a card mask, and the page shows the
cards laid face up, the trick in progress and the trumps."""
from __future__ import annotations

import os
import re
import shutil
import time

from serve_support import BROWSER_ARGS, ROOT, chromium, csp_watch, require, require_web, running, sit_and_start, wait_true

MU = str(ROOT / "variants" / "others" / "mu.yaml")
COLOURS = ("red", "blue", "green", "yellow", "black")
CARD = re.compile(r"^(\d)/(" + "|".join(COLOURS) + r")$")
TURNS = 3                                   # card plays of the person before the test stops


def test_a_person_plays_tricks_of_mu_by_clicking_card_names(tmp_path):
    require_web()
    sync_api = require("playwright.sync_api", "pip install playwright (no browser download: chromium from apt)")
    path = chromium()
    shots = tmp_path / "screenshots"
    shots.mkdir()
    seen: dict[str, list[str]] = {"lay": [], "trump": [], "partner": [], "card": []}
    played: list[str] = []
    laid_marked = 0
    trick_rows: list[tuple] = []
    trump_facts = ""
    with running(tmp_path / "tables", "--players", "heuristic", "--delay", "0.05", "--seed", "3", variant=MU) as server, \
            sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=BROWSER_ARGS)
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        csp_watch(page, errors)
        sit_and_start(page, server.base)
        page.wait_for_selector("#hand .card")
        deadline = time.monotonic() + float(os.environ.get("CHIMERA_BROWSER_DEADLINE", 180))
        while len(played) < TURNS:
            if time.monotonic() > deadline:
                page.screenshot(path=shots / "stuck.png")
                raise AssertionError(f"no {TURNS} card plays in time: {page.inner_text('#prompt')!r} ({shots})")
            if page.get_attribute("body", "data-status") == "over":
                break
            if not (page.locator("#prompt.yours").count() and page.get_attribute("body", "data-sent") == "false"):
                page.wait_for_timeout(50)
                continue
            before = page.get_attribute("body", "data-turn")
            buttons = page.locator("#buttons button, #moves button")
            texts = [buttons.nth(i).text_content().strip() for i in range(buttons.count())]   # card buttons sit in a closed box
            kinds = [buttons.nth(i).get_attribute("data-kind") for i in range(buttons.count())]
            for kind, text in zip(kinds, texts):
                if kind in seen:
                    seen[kind].append(text)
            if "card" in kinds:
                if not trick_rows and page.locator("#others .spot.played").count():
                    rows = page.locator("#others .spot.played")
                    trick_rows = [(rows.nth(i).get_attribute("data-seat"), rows.nth(i).locator(".card").get_attribute("data-card"))
                                  for i in range(rows.count())]
                    trump_facts = page.inner_text("#facts")
                    page.screenshot(path=shots / "mu-trick.png")
                if not played:                   # her first card: what she laid is still in her hand
                    laid_marked = page.locator("#hand .card.laid").count()
                card = page.locator("#hand .card.playable").first     # a card of the trick: one click in the hand
                played.append(card.get_attribute("data-card"))
                card.click()
            elif "lay" in kinds and not seen["card"] and page.locator("#hand .card.laid").count() == 0:
                page.locator("#hand .card:not(.dim)").first.click()
                page.click("#buttons button[data-kind='lay']")
            elif "trump" in kinds:
                page.locator("#buttons button[data-kind='trump']").first.click()
            elif "partner" in kinds:
                page.locator("#buttons button[data-kind='partner']").first.click()
            else:
                page.click("#buttons button[data-kind='pass']")
            wait_true(page, f"document.body.dataset.turn != '{before}' || "
                      "!!document.querySelector('#notice:not([hidden]).error')", timeout=30)   # a busy machine
            assert not page.locator("#notice.error:not([hidden])").count(), page.inner_text("#notice")
        hand = [page.locator("#hand .card").nth(i).get_attribute("data-card")
                for i in range(page.locator("#hand .card").count())]
        browser.close()

    assert not errors
    assert len(played) == TURNS, "the person never got to play a card"
    for text in seen["card"] + played:
        assert CARD.match(text), f"a card button reads {text!r}, not a card's name"
    for text in seen["lay"]:
        assert text == "Lay"
    trumps = [re.sub(r"^[^\w]+\s*", "", t) for t in seen["trump"]]       # a colour's button leads with its pip
    assert all(t in COLOURS or t.isdigit() and len(t) == 1 or t == "no trump" for t in trumps), seen["trump"]
    assert all(t.startswith("partner: ") for t in seen["partner"]), seen["partner"]
    assert not any(re.search(r"\b\d{3,}\b", t) for texts in seen.values() for t in texts)   # no mask
    assert all(CARD.match(c) for c in hand)
    assert set(played).isdisjoint(hand) or len(hand) + len(played) <= 12
    if trick_rows:                               # another seat led: the trick names seat and card
        assert all(seat in "1234" and CARD.match(card) for seat, card in trick_rows), trick_rows
        assert "trump of the chief" in trump_facts, trump_facts
    assert laid_marked >= 1, "the cards the person laid face up are not marked in the hand"
    target = os.environ.get("CHIMERA_SCREENSHOTS")
    if target:
        os.makedirs(target, exist_ok=True)
        for shot in shots.iterdir():
            shutil.copy(shot, target)
