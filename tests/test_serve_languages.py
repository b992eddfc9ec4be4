"""The web table in another language: the page's words come from the catalogs' page section
(/api/words, picked by ?lang= or the browser's languages, else chimera serve --lang), and each
connection gets the game's log, the moves' labels, the seats' marks and the refusals in its
own language while another plays the same table in English."""
from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest

from serve_support import BROWSER_ARGS, VARIANT, Seat, chromium, close_open, require, require_web, running

import chimera_dsl
from chimera_dsl.tell import catalog as catalogs

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "chimera_dsl" / "serve" / "static"
RULES = chimera_dsl.load_variant(VARIANT)
ENGLISH_PAGE = catalogs.catalog("en")["page"]


def test_the_language_is_the_page_s_then_the_browser_s_then_the_server_s():
    from chimera_dsl.serve.words import pick_language
    assert pick_language("de", "fr", "en") == "de"
    assert pick_language("DE", None, "en") == "de"
    assert pick_language(None, "it-CH,it;q=0.9,en;q=0.8", "en") == "it"
    assert pick_language(None, "es, fr;q=0.5, de;q=0.7", "en") == "de"        # by weight, Spanish has no catalog
    assert pick_language(None, "es", "fr") == "fr"
    assert pick_language("zz", "fr;q=0, it", "en") == "it"                     # q=0: not wanted
    assert pick_language(None, "fr;q=x", "de") == "de"


def test_every_word_the_page_and_the_script_ask_for_is_in_the_catalogs():
    """Each data-t key of index.html and each T("key") of table.js names a sentence of the page
    section (a key the catalogs lack shows as the key itself)."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    script = (STATIC / "table.js").read_text(encoding="utf-8")
    asked = set(re.findall(r'data-t(?:-placeholder|-label)?="(\w+)"', html)) | set(re.findall(r'\bT\("(\w+)"[,)]', script))
    assert len(asked) > 80
    assert not sorted(asked - set(ENGLISH_PAGE)), sorted(asked - set(ENGLISH_PAGE))
    prefixed = set(re.findall(r'\bT\("(\w+_)" \+', script))                   # T("status_" + t.status)
    assert prefixed == {"status_"} and {"status_waiting", "status_playing", "status_resuming"} <= set(ENGLISH_PAGE)


@pytest.fixture
def web(tmp_path):
    require_web()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from chimera_dsl.serve.app import create_app
    from chimera_dsl.serve.tables import Hall, Settings
    hall = Hall(Settings(tmp_path, players="random", delay=0, max_rounds=1, lang="de"), VARIANT, RULES)
    with TestClient(create_app(hall)) as client:
        try:
            yield client, hall
        finally:
            close_open()


def test_the_words_are_served_in_the_language_asked(web):
    client, hall = web
    french = client.get("/api/words?lang=fr").json()
    assert french["lang"] == "fr" and french["words"]["start"] == "Commencer la partie"
    assert set(french["languages"]) == set(catalogs.languages())
    assert french["words"]["phases"]["bidding"] == "enchères" and french["words"]["colours"]["hearts"] == "cœur"
    italian = client.get("/api/words", headers={"Accept-Language": "it-IT,it;q=0.9"}).json()
    assert italian["lang"] == "it" and italian["words"]["create"] == "Apri un nuovo tavolo"
    assert client.get("/api/tables?lang=it").json()["variant"] == "Chimera (regole ufficiali)"
    default = client.get("/api/words", headers={"Accept-Language": "es"}).json()
    assert default["lang"] == "de"                     # the server's --lang
    assert set(default["words"]) >= set(ENGLISH_PAGE)


def test_a_table_speaks_each_page_s_language(web):
    client, hall = web
    created = client.post("/api/tables").json()
    table_id = created["table"]
    with client.websocket_connect("/ws/nosuchtable?lang=it") as ws:
        assert ws.receive_json()["reason"] == "questo tavolo non esiste"
    langs = ["fr", "en", "it"]
    seats = []
    for i, lang in enumerate(langs):
        seat = Seat(client, f"{table_id}?lang={lang}")
        seat.hello(creator=created["creator"] if i == 0 else None)
        if i == 1:                                     # not the creator: may not start, told in its language
            seat.send({"type": "start"})
            assert seat.until("error")["reason"].startswith("only the table's creator may start")
        seat.sit(i, ["Anne", "Bob", "Carla"][i])
        seats.append(seat)
    seats[0].send({"type": "start"})
    for seat in seats:
        if seat.state["status"] != "playing":
            seat.until("state", lambda m: m["status"] == "playing")
    french, english, italian = (s.state for s in seats)
    text = {lang: "\n".join(line for _, line in s.state["log"]["lines"]) for lang, s in zip(langs, seats)}
    assert re.search(r"^Manche 1 : .+ distribue", text["fr"], re.M), text["fr"]
    assert re.search(r"^Round 1: .+ deals", text["en"], re.M)
    assert re.search(r"^Mano 1: distribuisce .+", text["it"], re.M)
    for state in (french, english, italian):
        assert state["log"]["kinds"][:len(state["log"]["lines"])].count("round") == 1
        assert len(state["log"]["kinds"]) == len(state["log"]["lines"])
    assert french["variant"] == "Chimère (règles officielles)" and english["variant"] == RULES.name
    assert "donneur" in sum(french["marks"], []) and "dealer" in sum(english["marks"], [])
    assert french["phases"]["bidding"] == "enchères" and english["phases"]["bidding"] == "bidding"
    acting = next(s for s in seats if s.state["to_act"] == s.state["seat"] and s.state["legal"])
    labels = {m["label"] for m in acting.state["legal"]}
    words = {"fr": {"passer", "annoncer 20"}, "en": {"pass", "bid 20"}, "it": {"passo", "dichiara 20"}}
    lang = langs[seats.index(acting)]
    assert labels & words[lang] and not labels & set().union(*(w for k, w in words.items() if k != lang))
    waiting = next(s for s in seats if s is not acting)
    waiting.send({"type": "act", "turn": waiting.state["turn"], "move": 0})
    reason = waiting.until("error")["reason"]
    expected = {"fr": r"^c'est à .+ de jouer, pas à vous$", "en": r"^it is .+'s turn, not yours$",
                "it": r"^tocca a .+, non a te$"}[langs[seats.index(waiting)]]
    assert re.match(expected, reason), reason
    # a notice of the table is said in every log, each in its language, in the same place
    table = hall.get(table_id)
    table.say("notice_back", name="Bob")
    assert table.log_of(0, "fr")[-1][1] == "Bob est de retour à la table et rejoue"
    assert table.log_of(0, "de")[-1][1] == "Bob ist zurück und spielt wieder"       # the server's own log
    italian_log = table.log_of(1, "it")                 # asked for the first time now: told from the record
    assert italian_log[-1][1] == "Bob è di nuovo al tavolo e gioca"
    assert len(italian_log) == len(table.log_of(1, "de")) == len(table.kinds[1])


def test_the_page_shows_the_language_of_its_address(tmp_path):
    """A browser opens the lobby with ?lang=de: the page's own words are German, its html says so."""
    require_web()
    sync_api = require("playwright.sync_api", "pip install playwright (no browser download: chromium from apt)")
    path = chromium()
    with running(tmp_path, "--lang", "fr") as server, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=BROWSER_ARGS)
        page = browser.new_page(locale="it-IT")
        page.goto(f"{server.base}/?lang=de")
        page.wait_for_selector("html[lang='de']", state="attached")   # a selector: no eval, which the CSP refuses
        assert page.inner_text("#create") == "Neuen Tisch eröffnen"
        assert page.inner_text("#lobby h2") == "Spiele eine Variante mit Freunden"
        page.goto(f"{server.base}/")                 # no ?lang=: the browser's Italian
        page.wait_for_selector("html[lang='it']", state="attached")
        assert page.inner_text("#create") == "Apri un nuovo tavolo"
        assert page.title() == "tavolo chimera"
        browser.close()


def test_the_lobby_s_refusal_is_in_the_page_s_language(web):
    client, hall = web
    answers = [client.post("/api/tables?lang=fr") for _ in range(hall.settings.max_waiting + 1)]
    assert [a.status_code for a in answers] == [201] * hall.settings.max_waiting + [429]
    assert answers[-1].json()["error"].startswith(f"vous avez déjà {hall.settings.max_waiting} tables en attente")
    german = client.post("/api/tables", headers={"Accept-Language": "es"})      # the server's language
    assert german.status_code == 429 and german.json()["error"].startswith("du hast schon")
