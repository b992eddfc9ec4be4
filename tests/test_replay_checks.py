"""Replay holds every line of a record to the line the engine writes at that point: the seat's
own cards (each once), every card's colour, bonuses and parts, the order of every phase's
lines. Each tampered record below was accepted before; now it is refused at its line, through
the Python API and through `chimera replay` (--json: valid false, the line, a reason; exit 2)."""
from __future__ import annotations

import copy
import json
from pathlib import Path
from random import Random

import pytest

import chimera_dsl
from chimera_dsl.engine import Game
from chimera_dsl.errors import RecordError
from chimera_dsl.players import make_player, parse_players, play_game
from chimera_dsl.tell.record import dumps, parse_record, replay
from fuzzing import cli, tamper_meaning

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = ROOT / "variants"


def load(name: str):
    return chimera_dsl.load_variant(VARIANTS / name)


def game_events(rules, seed: int, rounds: int = 2, player: str = "random") -> list[dict]:
    """A game's record as a reader sees it (plain JSON values)."""
    game = Game(rules, max_rounds=rounds)
    players = [make_player(player, seed * 10 + s) for s in range(game.players)]
    state = play_game(game, players, seed)
    return json.loads("[" + ",".join(json.dumps(e) for e in state.events) + "]")


def refused(events: list[dict], rules) -> RecordError:
    with pytest.raises(RecordError) as caught:
        replay(parse_record(dumps(events), "game.jsonl"), rules, file="game.jsonl")
    return caught.value


def held_before(events: list[dict], index: int) -> list[list[str]]:
    """What each seat holds just before line ``index`` (from the deal and the plays since)."""
    deal = max(i for i in range(index) if events[i]["type"] == "deal")
    hands = [list(h) for h in events[deal]["hands"]]
    for e in events[deal + 1:index]:
        if e["type"] == "play":
            for c in e["cards"]:
                hands[e["seat"]].remove(c)
        elif e["type"] == "exchange":
            for c in e["cards"]:
                hands[e["from"]].remove(c)
                hands[e["to"]].append(c)
    return hands


def rank(card: str) -> str:
    return card.split("/")[0]


# -- the seat's own cards, each once (games whose combinations read ranks only) ----------------

def another_seats_card(events: list[dict]) -> tuple[int, str, str]:
    """A play line, one of its cards, and a card of the same rank another seat holds then."""
    for i, e in enumerate(events):
        if e["type"] != "play":
            continue
        hands = held_before(events, i)
        for card in e["cards"]:
            for seat, hand in enumerate(hands):
                twin = next((c for c in hand if seat != e["seat"] and rank(c) == rank(card) and c != card
                             and "/" in c), None)
                if twin is not None:
                    return i, card, twin
    raise AssertionError("no play with a card of a rank another seat holds")


@pytest.mark.parametrize("name", ["chimera.yaml", "others/doudizhu.yaml"])
def test_a_play_naming_another_seats_card_of_the_same_rank_is_refused(name):
    rules = load(name)
    assert not rules.reads_colours           # combinations read ranks only: this was the hole
    events = game_events(rules, 3)
    i, card, twin = another_seats_card(events)
    tampered = copy.deepcopy(events)
    cards = tampered[i]["cards"]
    cards[cards.index(card)] = twin
    error = refused(tampered, rules)
    assert error.line == i + 1, str(error)
    assert f"seat {events[i]['seat']} does not hold {twin}" in str(error)


@pytest.mark.parametrize("name", ["chimera.yaml", "others/doudizhu.yaml"])
def test_a_play_naming_the_same_card_twice_is_refused(name):
    rules = load(name)
    for seed in range(3, 30):
        events = game_events(rules, seed)
        pairs = [i for i, e in enumerate(events) if e["type"] == "play" and len(e["cards"]) >= 2
                 and rank(e["cards"][0]) == rank(e["cards"][1]) and "/" in e["cards"][0]]
        if pairs:
            break
    i = pairs[0]
    tampered = copy.deepcopy(events)
    tampered[i]["cards"][1] = tampered[i]["cards"][0]
    error = refused(tampered, rules)
    assert error.line == i + 1, str(error)
    assert f"{events[i]['cards'][0]} twice" in str(error)


# -- every line's colours ----------------------------------------------------------------------

@pytest.mark.parametrize("name", ["chimera.yaml", "others/doudizhu.yaml"])
def test_a_trick_line_with_a_card_of_another_colour_is_refused(name):
    rules = load(name)
    events = game_events(rules, 3)
    deck_cards = [c for h in events[1]["hands"] for c in h] + events[1]["nest"]
    i, k, other = next((i, k, other) for i, e in enumerate(events) if e["type"] == "trick"
                       for k, card in enumerate(e["cards"]) if "/" in card
                       for other in deck_cards if rank(other) == rank(card) and other not in e["cards"])
    tampered = copy.deepcopy(events)
    tampered[i]["cards"][k] = other
    error = refused(tampered, rules)
    assert error.line == i + 1, str(error)
    assert "trick: cards is" in str(error) and "but the rules give" in str(error)
    # a card named by its rank alone still stands for any card of that rank
    plain = copy.deepcopy(events)
    plain[i]["cards"] = [rank(c) for c in plain[i]["cards"]]
    assert replay(plain, rules).totals == events[-1]["totals"]


# -- bonuses and parts ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["others/chibre.yaml", "others/gang-of-four.yaml"])
@pytest.mark.parametrize("field, forged", [
    ("bonuses", lambda b, parts: {**b, "forged": 50}),
    ("parts", lambda b, parts: [[["forged", p[1]] for p in seat] for seat in parts]),
    ("parts", lambda b, parts: [seat + [["forged", 0]] for seat in parts]),
], ids=["bonus-added", "part-relabelled", "part-added"])
def test_round_end_bonuses_and_parts_are_those_the_rules_give(name, field, forged):
    rules = load(name)
    events = game_events(rules, 3)
    i = next(i for i, e in enumerate(events) if e["type"] == "round_end" and any(e["parts"]))
    tampered = copy.deepcopy(events)
    tampered[i][field] = forged(tampered[i]["bonuses"], tampered[i]["parts"])
    error = refused(tampered, rules)
    assert error.line == i + 1, str(error)
    assert f"round_end: {field} is" in str(error)


# -- the order of every phase's lines ------------------------------------------------------------

def test_tribute_and_give_back_lines_in_the_wrong_order_are_refused():
    rules = load("others/gang-of-four.yaml")
    for seed in range(3, 40):
        events = game_events(rules, seed, rounds=3)
        tributes = [i for i, e in enumerate(events) if e["type"] == "exchange" and e.get("phase") == "tribute"]
        if tributes and events[tributes[0] + 1].get("phase") == "give_back":
            break
    i = tributes[0]
    tampered = copy.deepcopy(events)
    tampered[i], tampered[i + 1] = tampered[i + 1], tampered[i]
    error = refused(tampered, rules)
    assert error.line == i + 1, str(error)
    assert "tribute" in str(error) and "give_back" in str(error)


def test_a_line_the_rules_do_not_write_there_is_refused_with_a_reason():
    rules = load("chimera.yaml")
    events = game_events(rules, 3)
    i = next(i for i, e in enumerate(events) if e["type"] == "trick")
    tampered = events[:i] + [dict(events[i], type="redeal", dealer=0)] + events[i + 1:]
    error = refused(tampered, rules)
    assert error.line == i + 1 and "expected a trick line here" in str(error)
    # a flag the rules write only when so, claimed where they do not
    j = next(i for i, e in enumerate(events) if e["type"] == "exchange")
    tampered = copy.deepcopy(events)
    tampered[j]["shown"] = True
    error = refused(tampered, rules)
    assert error.line == j + 1 and "exchange: shown is true, but the rules write no shown here" in str(error)


# -- the command line ------------------------------------------------------------------------------

def _another_seats_card(events):
    i, card, twin = another_seats_card(events)
    events[i]["cards"][events[i]["cards"].index(card)] = twin
    return i + 1, f"does not hold {twin}"


def _twice(events):
    i = next(i for i, e in enumerate(events) if e["type"] == "play" and len(e["cards"]) >= 2
             and rank(e["cards"][0]) == rank(e["cards"][1]))
    events[i]["cards"][1] = events[i]["cards"][0]
    return i + 1, f"{events[i]['cards'][0]} twice"


def _trick_colour(events):
    deck_cards = [c for h in events[1]["hands"] for c in h] + events[1]["nest"]
    i, k, other = next((i, k, other) for i, e in enumerate(events) if e["type"] == "trick"
                       for k, card in enumerate(e["cards"])
                       for other in deck_cards if rank(other) == rank(card) and other not in e["cards"])
    events[i]["cards"][k] = other
    return i + 1, "trick: cards is"


def _bonus(events):
    i = next(i for i, e in enumerate(events) if e["type"] == "round_end")
    events[i]["bonuses"]["forged"] = 5
    return i + 1, "round_end: bonuses is"


def _part(events):
    i = next(i for i, e in enumerate(events) if e["type"] == "round_end" and any(e["parts"]))
    events[i]["parts"] = [[["forged", p[1]] for p in seat] for seat in events[i]["parts"]]
    return i + 1, "round_end: parts is"


def _tribute_order(events):
    i = next(i for i, e in enumerate(events) if e.get("phase") == "tribute"
             and events[i + 1].get("phase") == "give_back")
    events[i], events[i + 1] = events[i + 1], events[i]
    return i + 1, "expected seat"


@pytest.mark.parametrize("name, seed, tamper", [
    ("chimera.yaml", 3, _another_seats_card), ("others/doudizhu.yaml", 3, _twice),
    ("chimera.yaml", 3, _trick_colour), ("others/chibre.yaml", 3, _bonus),
    ("others/gang-of-four.yaml", 3, _part), ("others/gang-of-four.yaml", 3, _tribute_order),
], ids=["another-seats-card", "a-card-twice", "trick-colour", "bonus", "parts", "tribute-order"])
def test_the_command_line_names_the_line_and_the_reason(tmp_path, name, seed, tamper):
    events = game_events(load(name), seed, rounds=3)
    events[0]["variant_path"] = str(VARIANTS / name)
    line, reason = tamper(events)
    path = tmp_path / "game.jsonl"
    path.write_text(dumps(events), encoding="utf-8")
    code, out, err = cli(["replay", path, "--json"])
    assert code == 2
    answer = json.loads(out)
    assert answer["valid"] is False and answer["line"] == line and reason in answer["reason"], answer
    code, out, err = cli(["replay", path])
    assert code == 2 and f"game.jsonl:{line}: " in err and reason in err


def test_a_variant_path_too_long_for_the_system_is_refused_at_its_line(tmp_path):
    events = game_events(load("chimera.yaml"), 3)
    events[0]["variant_path"] = "/x" * 2500
    path = tmp_path / "game.jsonl"
    path.write_text(dumps(events), encoding="utf-8")
    code, out, err = cli(["replay", path, "--json"])
    assert code == 2
    answer = json.loads(out)
    assert answer["valid"] is False and answer["line"] == 1 and "too long" in answer["reason"]
    assert answer["problems"] and answer["problems"][0]["line"] == 1
    assert len(answer["reason"]) < 300                  # the path is not repeated whole
    code, out, err = cli(["replay", path])
    assert code == 2 and "game.jsonl:1: " in err and "too long" in err and len(err) < 400


# -- what today's writers write still replays -----------------------------------------------------

@pytest.mark.parametrize("path", sorted(VARIANTS.rglob("*.yaml")), ids=lambda p: p.relative_to(VARIANTS).as_posix())
def test_records_of_every_shipped_variant_replay_line_for_line(path):
    rules = chimera_dsl.load_variant(path)
    for seed in (1, 2, 5):
        game = Game(rules, max_rounds=2)
        spec = ",".join(("random", "heuristic")[s % 2] for s in range(game.players))
        state = play_game(game, parse_players(spec, game.players, seed), seed)
        events = json.loads("[" + ",".join(json.dumps(e) for e in state.events) + "]")
        assert replay(parse_record(dumps(events)), rules).events == state.events


@pytest.mark.parametrize("name", ["chimera.yaml", "others/doudizhu.yaml", "others/chibre.yaml",
                                  "others/gang-of-four.yaml"])
def test_records_changed_in_what_they_say_are_refused_at_the_change_or_after(name):
    rules = load(name)
    rng = Random(27)
    records = [game_events(rules, seed) for seed in (3, 4)]
    tried = 0
    while tried < 25:
        tampered = tamper_meaning(rng.choice(records), rng)
        if tampered is None:
            continue
        tried += 1
        events, line = tampered
        error = refused(events, rules)
        assert error.line >= line, str(error)


def test_a_face_up_card_of_another_colour_than_its_holders_is_refused():
    rules = load("chimera.yaml")
    events = game_events(rules, 3)
    i = next(i for i, e in enumerate(events) if e["type"] == "deal" and e["face_up"]["seat"] is not None)
    face = events[i]["face_up"]
    holder = events[i]["hands"][face["seat"]]
    other = next(c for h in events[i]["hands"] for c in h if rank(c) == rank(face["card"]) and c not in holder)
    tampered = copy.deepcopy(events)
    tampered[i]["face_up"]["card"] = other
    error = refused(tampered, rules)
    assert error.line == i + 1 and f"the face-up card {other} is not in seat {face['seat']}'s hand" in str(error)


def test_a_face_up_card_without_its_seat_is_refused_at_its_line(tmp_path):
    """A deal line's ``face_up`` without its ``seat`` key (``"se"`` in a record the long fuzzing
    run mutated) is refused at its line by ``chimera replay``, as a missing key anywhere is:
    it stopped the replay with an internal error (KeyError)."""
    rules = load("chimera.yaml")
    events = game_events(rules, 3)
    i = next(i for i, e in enumerate(events) if e["type"] == "deal")
    tampered = copy.deepcopy(events)
    tampered[i]["face_up"]["se"] = tampered[i]["face_up"].pop("seat")
    error = refused(tampered, rules)
    assert error.line == i + 1
    path = tmp_path / "tampered.jsonl"
    path.write_text(dumps(tampered), encoding="utf-8")
    code, out, err = cli(["replay", str(path)])
    assert code == 2 and f":{i + 1}: field 'face_up'" in out + err and "internal error" not in out + err
