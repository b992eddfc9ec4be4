"""The web table without a browser: the JSON views, resuming from a record, and the websocket
protocol through Starlette's TestClient (a raw client: every refusal, and that the table goes on)."""
from __future__ import annotations

import hashlib
import json
import random
import re
import warnings
from pathlib import Path

import pytest

from serve_support import VARIANT, Seat, close_open, replayed_alike, require_web

import chimera_dsl
from chimera_dsl.engine import Game
from chimera_dsl.players import parse_players
from chimera_dsl.tell.record import replay

RULES = chimera_dsl.load_variant(VARIANT)


def _played(seed: int, rounds: int = 1, variant=RULES):
    """A finished game of random players, with a clone of the state after every decision."""
    game = Game(variant, max_rounds=rounds)
    players = parse_players("random", game.players, seed)
    state = game.new_game(seed, player_names=[p.name for p in players])
    after = []
    while not state.is_terminal():
        seat = state.current_player()
        state.apply_action(players[seat].act(state.observation(seat), state.legal_actions()))
        after.append(state.clone())
    return game, state, after


# -- view ------------------------------------------------------------------------------------------

def test_seat_view_turns_every_packed_key_into_card_names():
    from chimera_dsl.serve import view
    game, state, after = _played(3)
    for mid in after[::7]:
        for seat in range(game.players):
            obs = mid.observation(seat)
            shown = view.seat_view(game, obs)
            assert shown["hand"] == game.names(obs.hand)
            assert shown["played_by"] == [game.names(k) for k in obs.played_by]
            assert "rules" not in shown
            json.dumps(shown)                              # plain JSON all the way down
            for entry in shown["trick"]:
                assert set(entry) == {"seat", "play"} and entry["play"]["cards"]


def test_public_view_holds_no_seat_own_field_and_no_hand():
    from chimera_dsl.serve import view
    game, state, after = _played(5)
    for mid in after[::5]:
        views = [view.seat_view(game, mid.observation(s)) for s in range(game.players)]
        public = view.public_view(views)
        assert not set(public) & view.SEAT_OWN_FIELDS
        text = json.dumps(public)
        for v in views:
            if len(v["hand"]) >= 3:
                assert json.dumps(v["hand"]) not in text
        assert public["totals"] == views[0]["totals"] and public["hand_sizes"] == views[0]["hand_sizes"]


def test_generic_conversion_of_fields_the_view_does_not_know():
    from chimera_dsl.serve import view
    game, state, after = _played(1)
    play = next(p for _, p in after[-1].observation(0).trick) if after[-1].observation(0).trick else None
    assert view.generic(game, (1, (2, None), frozenset())) == [1, [2, None], []]
    assert view.generic(game, {"a": (1,)}) == {"a": [1]}
    assert view.generic(game, Path("x")) == "x"
    if play is not None:
        assert view.generic(game, play)["cards"] == list(play.cards)


def test_actions_have_ids_labels_and_come_back_as_the_same_action():
    from chimera_dsl.serve import view
    game, state, after = _played(2)
    kinds = set()
    for mid in after:
        legal = mid.legal_actions()
        data = view.actions_json(game, legal)
        assert [d["id"] for d in data] == list(range(len(legal)))
        for d, action in zip(data, legal):
            kinds.add(d["kind"])
            assert d["label"]
            assert view.action_of(legal, {"turn": 4, "move": d["id"]}, 4) is action
            assert view.action_from_json(game, legal, view.choice_json(game, action)) == action
    assert {"bid", "pass", "play"} <= kinds


@pytest.mark.parametrize("choice, reason", [
    ({"move": 0}, '"turn"'),
    ({"turn": 3, "move": 0}, "decision 3"),
    ({"turn": 4}, '"move"'),
    ({"turn": 4, "move": "0"}, '"move"'),
    ({"turn": 4, "move": True}, '"move"'),
    ({"turn": 4, "move": 99}, "no legal move has the id 99"),
    ({"turn": 4, "move": -1}, "no legal move has the id -1"),
])
def test_a_choice_that_names_no_legal_action_is_refused_with_the_reason(choice, reason):
    from chimera_dsl.serve import view
    game, state, after = _played(2)
    with pytest.raises(view.ChoiceError, match=reason.replace('"', '.')):
        view.action_of(after[0].legal_actions(), choice, 4)


def test_an_unknown_action_kind_gets_a_generic_label():
    from chimera_dsl.serve import view
    assert view.action_label({"id": 0, "kind": "declare", "suit": "red", "cards": ["7", "8"]}) == "declare red 7 8"


# -- resuming ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", ["chimera.yaml", "house_rules/tichu-bombs.yaml", "house_rules/big-exchange.yaml"])
def test_replaying_a_cut_record_gives_back_the_same_table(variant):
    from chimera_dsl.serve import view
    rules = chimera_dsl.load_variant(Path(VARIANT).parent / variant)
    game, state, after = _played(11, rounds=2, variant=rules)
    rng = random.Random(1)
    cuts = [i for i in range(len(after)) if i == 0 or len(after[i].events) > len(after[i - 1].events)]
    for i in rng.sample(cuts, 12) + [cuts[-1]]:
        snap = after[i]
        got = replayed_alike(rules, snap, i + 1)
        assert got.legal_actions() == snap.legal_actions()
        for seat in range(game.players):
            assert view.seat_view(game, got.observation(seat)) == view.seat_view(game, snap.observation(seat))


def test_a_record_naming_its_variant_relatively_still_resumes():
    """Records written before the server named its variant by an absolute path resume too."""
    from chimera_dsl.serve.resume import ResumeError, replay_record
    game, state, after = _played(4)
    lines = json.loads(json.dumps(after[20].events))
    lines[0]["variant_path"] = "variants/chimera.yaml"
    assert replay_record(Game(RULES, max_rounds=1), lines).state.current_player() == after[20].current_player()
    lines[0]["players"] = 4                                   # any other difference is still refused
    with pytest.raises(ResumeError, match="line 1"):
        replay_record(Game(RULES, max_rounds=1), lines)


def test_a_decision_that_wrote_no_line_yet_comes_back_from_the_pending_list():
    from chimera_dsl.serve import view
    from chimera_dsl.serve.resume import replay_record
    game, state, after = _played(4)
    quiet = next(i for i in range(1, len(after)) if len(after[i].events) == len(after[i - 1].events))
    snap, before = after[quiet], after[quiet - 1]
    lines = json.loads(json.dumps(snap.events))
    taken = [a for a in before.legal_actions()
             if (lambda c: (c.apply_action(a), c)[1])(before.clone()).observation(0).as_dict() == snap.observation(0).as_dict()
             and (lambda c: (c.apply_action(a), c)[1])(before.clone()).current_player() == snap.current_player()]
    pending = [view.choice_json(game, taken[0])]
    got = replay_record(Game(RULES, max_rounds=1), lines, pending)
    assert got.pending == pending and got.state.current_player() == snap.current_player()
    without = replay_record(Game(RULES, max_rounds=1), lines)
    assert without.state.current_player() == before.current_player()      # asked again


def test_a_record_the_rules_cannot_write_is_not_resumed():
    from chimera_dsl.serve.resume import ResumeError, replay_record
    game, state, after = _played(6)
    lines = json.loads(json.dumps(after[20].events))
    play = next(i for i, e in enumerate(lines) if e["type"] == "play")
    lines[play]["cards"] = ["C", "C"]
    with pytest.raises(ResumeError, match=f"line {play + 1}"):
        replay_record(Game(RULES, max_rounds=1), lines)
    with pytest.raises(ResumeError, match="game_start"):
        replay_record(Game(RULES, max_rounds=1), lines[1:])


# -- the protocol ------------------------------------------------------------------------------------

@pytest.fixture
def web(tmp_path):
    require_web()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")                  # starlette's note on httpx vs httpx2
        from starlette.testclient import TestClient
    from chimera_dsl.serve.app import create_app
    from chimera_dsl.serve.tables import Hall, Settings
    hall = Hall(Settings(tmp_path, players="random", delay=0, max_rounds=1), VARIANT, RULES)
    with TestClient(create_app(hall)) as client:
        try:
            yield client, hall
        finally:
            close_open()                                 # the server waits for its sockets to close


def _open(client) -> dict:
    answer = client.post("/api/tables")
    assert answer.status_code == 201
    return answer.json()


def _full_table(client, hall) -> tuple[dict, list[Seat], list[str]]:
    """A table whose three seats are taken by three people, started by its creator (seat 0)."""
    created = _open(client)
    seats, tokens = [], []
    for i in range(3):
        seat = Seat(client, created["table"])
        seat.hello(creator=created["creator"] if i == 0 else None)
        tokens.append(seat.sit(i, f"p{i}"))
        seats.append(seat)
    seats[0].send({"type": "start"})
    for seat in seats:
        if seat.state["status"] != "playing":
            seat.until("state", lambda m: m["status"] == "playing")
    return created, seats, tokens


def _to_act(seats) -> tuple[Seat, dict]:
    """The connection whose seat is to act, with its state (offering the legal moves)."""
    for seat in seats:
        if seat.state["to_act"] == seat.state["seat"] and seat.state["legal"]:
            return seat, seat.state
    raise AssertionError("nobody is to act")


def test_nothing_of_the_table_is_sent_before_hello(web):
    client, hall = web
    created = _open(client)
    seat = Seat(client, created["table"])
    seat.send({"type": "sit", "seat": 0})
    first = seat.ws.receive_json()
    assert first["type"] == "error" and "hello" in first["reason"]
    welcome = seat.hello()
    assert welcome["seat"] is None and seat.state["view"] is None


def test_no_such_table(web):
    client, hall = web
    with client.websocket_connect("/ws/nosuchtable") as ws:
        assert "no such table" in ws.receive_json()["reason"]
        with pytest.raises(Exception):
            ws.receive_json()


def test_a_seat_is_held_by_its_token_and_spectators_see_no_hand(web, tmp_path):
    client, hall = web
    created, seats, tokens = _full_table(client, hall)
    table = created["table"]
    for i, seat in enumerate(seats):
        assert seat.state["seat"] == i and len(seat.state["view"]["hand"]) == 17
    # a second tab with the token holds the same seat and sees the same hand
    again = Seat(client, table)
    assert again.hello(token=tokens[1])["seat"] == 1
    assert again.state["view"]["hand"] == seats[1].state["view"]["hand"]
    # a wrong token, or none, is a spectator: no hand, no legal moves, the public facts
    # the real token with its last character changed (to one it does not already end with)
    altered = tokens[1][:-1] + ("y" if tokens[1].endswith("x") else "x")
    for token in ("not-a-token", None, altered):
        watcher = Seat(client, table)
        assert watcher.hello(token=token)["seat"] is None
        assert "hand" not in watcher.state["view"] and watcher.state["legal"] == []
        assert watcher.state["view"]["hand_sizes"] == [17, 17, 17]
        assert all(" ".join(s.state["view"]["hand"]) not in json.dumps(watcher.state) for s in seats)
        assert not any("(you)" in line for _, line in watcher.state["log"]["lines"])
        watcher.close()
    # the sidecar keeps hashes of the tokens, never the tokens
    sidecar = (tmp_path / f"{table}.json").read_text()
    for token in tokens + [created["creator"]]:
        assert token not in sidecar and hashlib.sha256(token.encode()).hexdigest() in sidecar


def test_refusals_leave_the_game_unharmed(web):
    client, hall = web
    created, seats, tokens = _full_table(client, hall)
    actor, state = _to_act(seats)
    other = next(s for s in seats if s is not actor)
    watcher = Seat(client, created["table"])
    watcher.hello()
    turn = state["turn"]
    cases = [
        (other, {"type": "act", "turn": turn, "move": 0}, f"it is p{actor.state['seat']}'s turn, not yours"),   # by name
        (actor, {"type": "act", "turn": turn, "move": 0, "seat": other.state["seat"]}, "may not act for seat"),
        (watcher, {"type": "act", "turn": turn, "move": 0}, "hold no seat"),
        (actor, {"type": "act", "turn": turn, "move": 10 ** 6}, "no legal move has the id"),
        (actor, {"type": "act", "turn": turn - 1, "move": 0}, "answers decision"),
        (actor, "{not json", "not JSON"),
        (actor, "[1, 2]", "JSON object"),
        (actor, json.dumps({"type": "act", "pad": "x" * 5000}), "message too large"),
        (actor, {"type": "dance"}, "unknown message type"),
        (actor, {"type": "hello"}, "already said"),
        (actor, {"type": "sit", "seat": 2}, "already hold seat"),
        (other, {"type": "start"}, "only the table's creator" if other is not seats[0] else "already started"),
    ]
    for conn, message, reason in cases:
        conn.send(message)
        error = conn.until("error")
        assert reason in error["reason"], (message, error)
    actor.ws.send_bytes(b"\x00\x01")
    assert "binary" in actor.until("error")["reason"]
    assert hall.get(created["table"]).turn == turn            # nothing was played
    actor.send({"type": "act", "turn": turn, "move": 0})      # a right move is still taken
    assert actor.until("state", lambda m: m["turn"] > turn)["turn"] > turn


def test_a_flood_of_messages_is_refused_and_the_game_goes_on(web):
    client, hall = web
    created, seats, tokens = _full_table(client, hall)
    actor, state = _to_act(seats)
    flooder = next(s for s in seats if s is not actor)
    for _ in range(60):
        flooder.send({"type": "dance"})
    reasons = []
    while not any("too many messages" in r for r in reasons):
        reasons.append(flooder.until("error")["reason"])
    actor.send({"type": "act", "turn": state["turn"], "move": 0})
    assert actor.until("state", lambda m: m["turn"] > state["turn"])


def test_only_the_creator_starts_and_computers_take_the_free_seats(web):
    client, hall = web
    created = _open(client)
    guest = Seat(client, created["table"])
    guest.hello()
    guest.sit(1, "<b>Guest</b>\x00")
    guest.send({"type": "start"})
    assert "creator" in guest.until("error")["reason"]
    host = Seat(client, created["table"])
    assert host.hello(creator=created["creator"])["creator"] is True
    host.send({"type": "sit", "seat": 1})
    assert "taken" in host.until("error")["reason"]
    host.send({"type": "start"})
    started = guest.until("state", lambda m: m["status"] != "waiting")
    kinds = [s["kind"] for s in started["seats"]]
    assert kinds == ["computer", "person", "computer"]
    assert started["seats"][1]["name"] == "<b>Guest</b>"       # shown as text by the page
    host.send({"type": "sit", "seat": 0})
    assert "started" in host.until("error")["reason"]


def test_every_seat_is_called_by_a_name_of_its_own_in_the_state_and_the_log(web):
    client, hall = web
    created = _open(client)
    ann = Seat(client, created["table"])
    ann.hello(creator=created["creator"])
    ann.sit(1, "Ann")
    ann.send({"type": "start"})
    state = ann.until("state", lambda m: m["status"] != "waiting" and m["log"]["from"] == 0)
    names = [s["name"] for s in state["seats"]]
    assert names[1] == "Ann" and len(set(names)) == 3                       # two computers, told apart
    assert all("random" in names[i] for i in (0, 2))                        # and what plays them
    text = "\n".join(line for _, line in state["log"]["lines"])
    assert "Ann (you)" in text and names[0] in text and names[2] in text
    assert not re.search(r"\bseat \d", text), text
    table = hall.get(created["table"])
    spectator = "\n".join(line for _, line in table.logs[-1])
    assert "Ann" in spectator and "(you)" not in spectator and not re.search(r"\bseat \d", spectator)


def test_shown_names_tell_computers_and_namesakes_apart():
    from chimera_dsl.serve.tables import Seat as TableSeat
    from chimera_dsl.serve.view import shown_names
    seats = [TableSeat("computer", "heuristic"), TableSeat("person", "Ann"), TableSeat("computer", "heuristic"),
             TableSeat("person", "Ann"), TableSeat()]
    names = shown_names(seats)
    assert names[1:4] == ["Ann", "Grace (heuristic)", "Ann 2"] and names[0] == "Ada (heuristic)" and names[4] == ""


def test_the_state_says_the_configured_end_and_the_decks_colours():
    from chimera_dsl.serve.view import deck_json, end_json
    assert end_json(Game(RULES, max_rounds=2)) == {"target": 400, "rounds": 2, "when": None, "winner": "highest"}
    assert end_json(Game(RULES))["rounds"] is None
    root = Path(VARIANT).parent
    doudizhu = chimera_dsl.load_variant(str(root / "others" / "doudizhu.yaml"))
    assert end_json(Game(doudizhu)) == {"target": None, "rounds": 12, "when": None, "winner": "highest"}
    assert end_json(Game(doudizhu, max_rounds=3))["rounds"] == 3
    gang = chimera_dsl.load_variant(str(root / "others" / "gang-of-four.yaml"))
    assert deck_json(gang)["colours"] == ["green", "yellow", "red", "multi"] and deck_json(gang)["wild"] == ["multi"]
    assert deck_json(gang)["names"]["D"] == "Dragon"
    assert end_json(Game(gang))["winner"] == "lowest"


@pytest.mark.parametrize("variant", ["chimera.yaml", "others/chibre.yaml"])
def test_the_last_trick_taken_is_in_the_view_with_its_plays_in_order(variant):
    from chimera_dsl.serve import view
    rules = chimera_dsl.load_variant(str(Path(VARIANT).parent / variant))
    game, state, after = _played(4, variant=rules)
    seen = 0
    for mid in after:
        events = mid.events
        shown = view.seat_view(game, mid.observation(0), events)
        tricks = [e for e in events if e["type"] == "trick"]
        since_deal = max(i for i, e in enumerate(events) if e["type"] == "deal")
        if not tricks or events.index(tricks[-1]) < since_deal:
            assert shown["last_trick"] is None
            continue
        last = shown["last_trick"]
        assert last["winner"] == tricks[-1]["winner"]
        played = [c.split("/")[0] for p in last["plays"] for c in p["cards"]]
        assert sorted(played) == sorted(c.split("/")[0] for c in tricks[-1]["cards"])
        seen += 1
    assert seen > 10
    assert "last_trick" not in view.seat_view(game, after[-1].observation(0))     # no record lines, no last trick


def test_a_deck_may_say_how_its_colours_are_drawn_and_names_only_its_own(tmp_path):
    from chimera_dsl.errors import VariantError
    from chimera_dsl.serve.view import deck_json
    chibre = Path(VARIANT).parent / "others" / "chibre.yaml"
    text = chibre.read_text(encoding="utf-8")
    assert "\ndeck:\n" in text
    drawn = tmp_path / "drawn.yaml"
    drawn.write_text(text.replace("\ndeck:\n", "\ndeck:\n  looks: {clubs: {symbol: A, colour: '#8b5a2b'}, hearts: {colour: '#aa0000'}}\n"),
                     encoding="utf-8")
    looks = deck_json(chimera_dsl.load_variant(str(drawn)))["looks"]
    assert looks == {"clubs": {"symbol": "A", "colour": "#8b5a2b"}, "hearts": {"colour": "#aa0000"}}
    assert deck_json(chimera_dsl.load_variant(str(chibre)))["looks"] == {}
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(text.replace("\ndeck:\n", "\ndeck:\n  looks: {club: {symbol: A}}\n"), encoding="utf-8")
    with pytest.raises(VariantError) as error:
        chimera_dsl.load_variant(str(wrong))
    assert f"{wrong}:" in str(error.value) and "club" in str(error.value) and "did you mean 'clubs'" in str(error.value)
    ink = tmp_path / "ink.yaml"
    ink.write_text(text.replace("\ndeck:\n", "\ndeck:\n  looks: {clubs: {colour: green}}\n"), encoding="utf-8")
    with pytest.raises(VariantError):
        chimera_dsl.load_variant(str(ink))


def test_a_whole_game_is_recorded_and_the_record_replays(web, tmp_path):
    client, hall = web
    created = _open(client)
    me = Seat(client, created["table"])
    me.hello(creator=created["creator"])
    me.sit(0, "Ann")
    me.send({"type": "start"})
    state = me.until("state")
    while state["status"] != "over":
        if state["to_act"] == 0 and state["legal"] and not state.get("forced"):
            state = me.act(state, len(state["legal"]) - 1)
        else:
            state = me.until("state")
    lines = [line for _, line in state["log"]["lines"]] if state["log"]["from"] == 0 else []
    record = tmp_path / f"{created['table']}.jsonl"
    events = [json.loads(line) for line in record.read_text().splitlines()]
    final = replay(events, RULES)
    assert final.is_terminal() and events[-1]["type"] == "game_end"
    assert state["totals"] == final.returns()
    assert json.loads((tmp_path / f"{created['table']}.json").read_text())["status"] == "over"
    assert lines is not None


def test_with_a_seed_every_server_deals_its_tables_alike(tmp_path):
    """--seed: the first table gets the seed, the next one the seed plus one; two servers with
    the same seed deal their first tables the same hands."""
    require_web()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from chimera_dsl.serve.app import create_app
    from chimera_dsl.serve.tables import Hall, Settings

    def first_hand(data: Path) -> tuple[list, list[int]]:
        hall = Hall(Settings(data, players="random", delay=0, max_rounds=1, seed=7), VARIANT, RULES)
        with TestClient(create_app(hall)) as client:
            try:
                created = [_open(client) for _ in range(2)]
                me = Seat(client, created[0]["table"])
                me.hello(creator=created[0]["creator"])
                me.sit(0, "Ann")
                me.send({"type": "start"})
                hand = me.until("state", lambda m: m["status"] == "playing")["view"]["hand"]
            finally:
                close_open()
        seeds = [json.loads((data / f"{c['table']}.json").read_text())["seed"] for c in created]
        return hand, seeds

    hand, seeds = first_hand(tmp_path / "one")
    assert seeds == [7, 8]
    assert first_hand(tmp_path / "two") == (hand, seeds)
    game = Game(RULES, max_rounds=1)
    assert hand == game.names(game.new_game(7).observation(0).hand)


# -- the command -------------------------------------------------------------------------------------

def test_serve_without_the_web_extra_says_how_to_get_it(monkeypatch, capsys):
    from chimera_dsl.cli import run
    monkeypatch.setitem(__import__("sys").modules, "uvicorn", None)
    assert run(["serve", VARIANT]) == 2
    assert "pip install 'chimera_dsl[web]'" in capsys.readouterr().err


def test_serve_refuses_bad_input_before_it_listens(capsys):
    require_web()
    import socket
    from chimera_dsl.cli import run
    assert run(["serve", "no-such-variant.yaml"]) == 2
    assert run(["serve", VARIANT, "--players", "nobody"]) == 2
    assert "unknown player 'nobody'" in capsys.readouterr().err
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        assert run(["serve", VARIANT, "--port", str(busy.getsockname()[1])]) == 2
    err = capsys.readouterr().err
    assert "cannot listen on 127.0.0.1" in err and "Traceback" not in err
    for origin in ("ftp://cards.example.org", "https://cards.example.org/path", "cards.example.org"):
        assert run(["serve", VARIANT, "--allow-origin", origin]) == 2
        assert "an origin is scheme://host[:port]" in capsys.readouterr().err
    assert run(["serve", VARIANT, "--max-waiting", "0"]) == 2


def test_where_colours_count_the_hand_names_the_very_cards_the_legal_plays_name():
    # a browser selects cards of the hand and matches them to a legal play by name
    from chimera_dsl.serve.view import actions_json, seat_view
    game = Game(chimera_dsl.load_variant(Path(__file__).resolve().parents[1] / "variants" / "others"
                                         / "gang-of-four.yaml"))
    state = game.new_game(3)
    seat = state.current_player()
    hand = seat_view(game, state.observation(seat))["hand"]
    assert all("/" in card for card in hand)
    plays = [a for a in actions_json(game, state.legal_actions()) if a["kind"] == "play"]
    assert plays and all(not set(p["cards"]) - set(hand) for p in plays)


def test_a_gift_of_the_very_cards_names_them_as_the_hand_does():
    # Tichu's passing gives one very card to each seat: the page finds it in the hand by name
    from chimera_dsl.serve.view import actions_json, seat_view
    game = Game(chimera_dsl.load_variant(Path(__file__).resolve().parents[1] / "variants" / "others" / "tichu.yaml"))
    state = game.new_game(7)
    while state.observation(state.current_player()).phase != "pass_cards":
        state.apply_action(state.legal_actions()[0])
    seat = state.current_player()
    hand = seat_view(game, state.observation(seat))["hand"]
    gifts = actions_json(game, state.legal_actions(), state.observation(seat))
    assert gifts and {g["kind"] for g in gifts} == {"give"}
    assert sorted(card for g in gifts for card in g["cards"]) == sorted(hand)       # one gift per card held
    assert all(g["label"] == f"give {g['cards'][0]}" and "mask" not in g for g in gifts)


def test_the_cards_handed_are_the_very_cards_where_the_hand_names_them():
    # Tichu: "you gave 4 4 4" read as three fours; the round's exchange lines name 4/jade...
    from chimera_dsl.serve.view import seat_view
    game = Game(chimera_dsl.load_variant(Path(__file__).resolve().parents[1] / "variants" / "others" / "tichu.yaml"))
    state = game.new_game(7)
    while state.observation(0).phase != "play":
        state.apply_action(state.legal_actions()[0])
    shown = seat_view(game, state.observation(0), state.events)
    lines = [e for e in state.events if e["type"] == "exchange"]
    assert sorted(shown["given"]) == sorted(c for e in lines if e["from"] == 0 for c in e["cards"])
    assert sorted(shown["received"]) == sorted(c for e in lines if e["to"] == 0 for c in e["cards"])
    assert all("/" in c for c in shown["given"] + shown["received"] if c not in ("1", "D", "P", "X"))
