"""Where RULINGS.md and CONTRACT.md are checked sentence by sentence against behaviour.

Each test names the sentence it holds the code to.  Records are driven through
``chimera_dsl.tell.record.replay`` (and the CLI where the contract speaks of exit codes), cards
through the Python API and the CLI.
"""
from __future__ import annotations

import json

import pytest

from chimera_dsl.cli import run
from chimera_dsl.engine import Game
from chimera_dsl.errors import CardError, RecordError
from chimera_dsl.players import make_player, play_game
from chimera_dsl.tell.record import dumps, parse_record, replay
from scripted import OFFICIAL, deal, events_of, official, script, start, variant


def call(capsys, *argv):
    code = run([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def random_record(seed: int, rules=None, target=120) -> list[dict]:
    """A whole game of random players, as record events (plain dicts)."""
    rules = rules or official()
    players = [make_player("random", seed * 10 + i) for i in range(3)]
    state = play_game(Game(rules, target=target), players, seed)
    return [json.loads(json.dumps(e)) for e in state.events]


def replayed(events: list[dict], rules=None):
    return replay(parse_record(dumps(events), "game.jsonl"), rules or official(), file="game.jsonl")


def rejected(events: list[dict], rules=None) -> RecordError:
    with pytest.raises(RecordError) as caught:
        replayed(events, rules)
    return caught.value


def index_of(events: list[dict], kind: str, nth: int = 0) -> int:
    return [i for i, e in enumerate(events) if e["type"] == kind][nth]


def with_redeal(first_seed: int = 0) -> list[dict]:
    """A random game that has a redeal (so a ``redeal`` line) in it."""
    for seed in range(first_seed, first_seed + 200):
        events = random_record(seed)
        if any(e["type"] == "redeal" for e in events):
            return events
    raise AssertionError("no random game with a redeal")


# -- RULINGS "Dealing": "Dealer rotates clockwise each round" and the French text: "N'importe quel
# joueur peut distribuer les cartes."  The first dealer is free under `first_dealer: random`, so a
# record whose first dealer is not the one this program would draw from its seed is still a legal
# game (CONTRACT: replay checks "that a game record is a legal game under its variant").

def test_replay_accepts_any_first_dealer_when_the_variant_lets_anyone_deal():
    events = random_record(3)
    recorded = events[1]["dealer"]
    game = Game(official())
    other = next(s for s in range(1000) if game.first_dealer(s) != recorded)
    events[0]["seed"] = other
    state = replayed(events)
    assert state.is_terminal()
    assert state.events[1]["dealer"] == recorded


def test_replay_still_holds_a_fixed_first_dealer_and_the_rotation():
    rules = variant({"deal": {"first_dealer": 1}})
    events = random_record(5, rules)
    assert events[1]["dealer"] == 1
    forged = json.loads(json.dumps(events))
    forged[1]["dealer"] = 2
    assert "dealer is 2, but the rules give 1" in rejected(forged, rules).message
    # under first_dealer: random, the second round's dealer still follows clockwise
    events = random_record(4)
    second = next(i for i, e in enumerate(events) if e["type"] == "deal" and e["round"] == 2)
    events[second]["dealer"] = (events[second]["dealer"] + 1) % 3
    assert rejected(events).line == second + 1


def test_replay_refuses_a_first_dealer_that_is_no_seat():
    events = random_record(3)
    events[1]["dealer"] = 5
    error = rejected(events)
    assert error.line == 2 and "dealer" in error.message


# -- CONTRACT "Game record": "bonuses": {"bombs": N, "flight": N, "idle_hunter": true|false}

@pytest.mark.parametrize("field, value", [
    ("idle_hunter", "int"),      # 1 / 0 instead of true / false
    ("bombs", "bool"),           # false instead of 0
    ("flight", "float"),         # 0.0 instead of 0
])
def test_a_bonus_of_the_wrong_type_is_refused(field, value):
    events = random_record(3)
    i = index_of(events, "round_end")
    old = events[i]["bonuses"][field]
    events[i]["bonuses"][field] = {"int": int(bool(old)), "bool": bool(old), "float": float(old)}[value]
    error = rejected(events)
    assert error.line == i + 1 and "bonuses" in error.message


# -- CONTRACT: "A record that breaks the rules, or is not a game record, is wrong input (exit 2)
# with the line and the reason."

@pytest.mark.parametrize("target", [0, -50])
def test_a_record_with_a_target_that_is_not_positive_is_refused_at_its_line(capsys, tmp_path, target):
    events = random_record(3)
    events[0]["target"] = target
    assert rejected(events).line == 1
    path = tmp_path / "game.jsonl"
    path.write_text(dumps(events), encoding="utf-8")
    code, out, err = call(capsys, "replay", path, "--variant", OFFICIAL, "--json")
    assert code == 2 and "Traceback" not in err
    data = json.loads(out)
    assert data["valid"] is False and data["line"] == 1 and "target" in data["reason"]


# -- CONTRACT: "Extra fields are welcome"; but a field the rules themselves write (docs/internals.md:
# redeal's dealer, deal's number, round_end's chimera / bid / parts, game_end's rounds) must not
# be forged when a record carries it.

def _forge_redeal_dealer(events):
    i = index_of(events, "redeal")
    events[i]["dealer"] = (events[i]["dealer"] + 1) % 3
    return i


def _forge(kind, field, change):
    def forge(events):
        i = index_of(events, kind)
        events[i][field] = change(events[i][field])
        return i
    return forge


@pytest.mark.parametrize("forge", [
    _forge_redeal_dealer,
    _forge("deal", "deal", lambda n: n + 1),
    _forge("round_end", "chimera", lambda s: (s + 1) % 3),
    _forge("round_end", "bid", lambda b: b + 5),
    _forge("round_end", "parts", lambda p: [[["outcome", 999]]] * 3),
    _forge("game_end", "rounds", lambda n: n + 1),
], ids=["redeal.dealer", "deal.deal", "round_end.chimera", "round_end.bid", "round_end.parts",
        "game_end.rounds"])
def test_a_forged_field_that_the_rules_write_is_refused(forge):
    events = with_redeal()
    replayed(events)                                   # the genuine record replays
    i = forge(events)
    assert rejected(events).line == i + 1


def test_a_record_without_the_extra_fields_still_replays():
    extra = {"deal": ["deal"], "redeal": ["dealer"], "round_end": ["chimera", "bid", "parts"],
             "game_end": ["rounds"], "game_start": ["variant_path", "variant_hash"]}
    events = with_redeal()
    for event in events:
        for name in extra.get(event["type"], ()):
            event.pop(name, None)
    assert replayed(events).is_terminal()


# -- RULINGS "Cards": "A colour may be given after a slash (7/red)".  The deck holds one card of
# each colour per number and Hero, and the Pi Ya and the Chimera have none: CONTRACT "Cards the
# deck does not hold that many of ... are not a combination" (classify/beats: no, exit 1; moves:
# exit 2).

@pytest.mark.parametrize("cards", ["7/red 7/red", "H/blue H/Blue", "P/red", "7/red 7/red 7 7",
                                   "3/green 3 3/green"])
def test_cards_the_deck_does_not_hold_by_colour_are_not_a_combination(capsys, cards):
    rules = official()
    assert rules.classify(cards) == []
    assert rules.beats("3", cards) is False
    with pytest.raises(CardError):
        rules.legal_plays(cards)
    code, out, err = call(capsys, "classify", OFFICIAL, cards, "--json")
    data = json.loads(out)
    assert code == 1 and data["valid"] is False and "deck" in data["reason"]
    code, out, err = call(capsys, "beats", OFFICIAL, "--over", "3", cards, "--json")
    assert code == 1 and json.loads(out)["beats"] is False
    code, out, err = call(capsys, "moves", OFFICIAL, "--hand", cards)
    assert code == 2 and "Traceback" not in err


@pytest.mark.parametrize("cards, combination", [
    ("7/red 7/blue", "pair"),
    ("7/red 7/BLUE 7 7", "bomb"),
    ("H/red H/yellow H/green H/blue", "bomb"),
    ("P C", "flight"),
    ("2/red 2 2 2", "bomb"),
])
def test_cards_the_deck_holds_by_colour_are_read(cards, combination):
    assert [p.combination for p in official().classify(cards)] == [combination]


# -- RULINGS "Dealing": "If the face-up card would land in the nest, cut again (knob:
# `face_up_in_nest: recut`)" and "The player who receives the face-up card opens the bidding".

def test_a_record_whose_face_up_card_reaches_no_seat_is_refused_under_recut():
    events = random_record(3)
    deal = events[1]
    deal["face_up"] = {"card": deal["nest"][0], "seat": None}
    error = rejected(events)
    assert error.line == 2 and "face-up" in error.message


# -- CONTRACT: a record that ends before the game does (nobody has reached the target) is refused,
# at its last line, and says so.

def test_a_record_that_stops_at_a_round_end_before_the_target_is_refused_at_its_end():
    events = random_record(3)
    events[0]["target"] = 100000
    events.pop()                                       # the game_end line
    error = rejected(events)
    assert error.line == len(events) and "ends before the game does" in error.message


# -- RULINGS "Scoring a round": "Chimera goes out first: it scores twice its bid plus 25 for each
# bomb played this round by anyone, 25 if the flight was played by anyone, and 25 once if at least
# one hunter played no card all round"; "A hunter goes out first: ... no bonuses"; CONTRACT
# "bonuses counts what happened in the round whoever won it; points apply them only as the rules
# say".  (German rulebook: « für jede in dieser Runde ausgespielte Falle (egal von wem) ».)

DEALER_2 = {"deal": {"first_dealer": 2}}      # seat 0 sits at the dealer's left


def _one_round(hands: list[str], nest: str, *steps: str) -> dict:
    rules = variant(DEALER_2)
    state = start(rules, deal(rules, hands, nest=nest, face_up=(hands[0].split()[0], 0)), max_rounds=1)
    script(state, *steps)
    assert state.is_terminal()
    return events_of(state, "round_end")[0]


def test_a_hunter_s_bomb_and_the_flight_score_for_the_chimera_that_goes_out_first():
    end = _one_round(["5 3 3 3 3 P C 12", "4 4 4 4 11 1", "7 10 1"], "6",
                     "0 bid 20", "1 pass", "2 pass",
                     "0 play 5", "1 play 4 4 4 4", "2 pass", "0 play P C", "1 pass", "2 pass",
                     "0 play 3 3 3 3", "1 pass", "2 pass",
                     "0 play 6", "1 play 11", "2 pass", "0 play 12")
    assert end["out"] == 0 and end["chimera_won"] is True
    assert end["bonuses"] == {"bombs": 2, "flight": 1, "idle_hunter": True}
    assert end["treasures"] == [5, 0, 0]
    assert end["points"] == [2 * 20 + 2 * 25 + 25 + 25 + 5, 0, 0]


def test_the_idle_hunter_bonus_counts_once_when_both_hunters_played_nothing():
    end = _one_round(["5 3 3 3 3", "4 8", "7 10"], "6",
                     "0 bid 30", "1 pass", "2 pass", "1 give 4", "2 give 7",
                     "0 play 3 3 3 3", "1 pass", "2 pass", "0 play 5", "1 pass", "2 pass", "0 play 6")
    assert end["bonuses"] == {"bombs": 1, "flight": 0, "idle_hunter": True}
    assert end["points"] == [2 * 30 + 25 + 25, 0, 0]


def test_quads_with_attachments_are_no_bombs_for_the_bonus():
    end = _one_round(["5 3 3 3 3 1 2", "4 4 4 4 8 9 10 10 12 12", "7 10"], "6",
                     "0 bid 20", "1 pass", "2 pass",
                     "0 play 3 3 3 3 1 2", "1 play 4 4 4 4 8 9", "2 pass", "0 pass",
                     "1 play 12 12", "2 pass", "0 pass", "1 play 10 10")
    assert end["out"] == 1 and end["bonuses"]["bombs"] == 0
    assert end["treasures"] == [0, 10, 0]


def test_bonuses_are_counted_but_not_scored_when_a_hunter_goes_out_first():
    end = _one_round(["5 9 9", "3 3 3 3 12", "1 6"], "7",
                     "0 bid 20", "1 pass", "2 pass",
                     "0 play 5", "1 play 3 3 3 3", "2 pass", "0 pass", "1 play 12")
    assert end["out"] == 1 and end["chimera_won"] is False
    assert end["bonuses"] == {"bombs": 1, "flight": 0, "idle_hunter": True}
    assert end["points"] == [-20, 20, 20]


# -- RULINGS "Bidding": "If all three pass again on the very next deal, the player holding the
# face-up card of that deal must bid 20".  The count of redeals is the round's own: a later round
# whose first deal nobody bids on is dealt again, not forced.

def test_the_redeal_before_the_forced_bid_is_counted_afresh_each_round():
    rules = variant(DEALER_2)
    round_1 = ["5 9 12", "7 10 3", "4 6 1"]
    round_2 = ["8 9 12", "5 10 3", "4 6 1"]          # dealer 0: seat 1 is at the dealer's left
    state = start(rules, deal(rules, round_1, nest="2", face_up=("5", 0)),
                  deal(rules, round_1, nest="2", face_up=("9", 0)),
                  deal(rules, round_2, nest="2", face_up=("5", 1)),
                  deal(rules, round_2, nest="2", face_up=("10", 1)), max_rounds=2)
    script(state, "0 pass", "1 pass", "2 pass")                     # round 1, first deal: redeal
    script(state, "0 pass", "1 pass", "2 pass")                     # again: seat 0 is forced
    assert state.events[-1] == {"type": "bid", "round": 1, "seat": 0, "bid": 20, "forced": True}
    script(state, "1 pass", "2 pass",
           "0 play 5", "1 pass", "2 pass", "0 play 9", "1 pass", "2 pass",
           "0 play 12", "1 pass", "2 pass", "0 play 2")
    assert events_of(state, "round_end")[0]["round"] == 1 and state.dealer == 0
    script(state, "1 pass", "2 pass", "0 pass")                     # round 2, first deal
    assert [e["type"] for e in state.events[-2:]] == ["redeal", "deal"]
    assert not any(e["type"] == "bid" and e["forced"] and e["round"] == 2 for e in state.events)
    script(state, "1 pass", "2 pass", "0 pass")                     # round 2, second deal
    assert state.events[-1] == {"type": "bid", "round": 2, "seat": 1, "bid": 20, "forced": True}


# -- CONTRACT "replay": "Without --variant, the variant is found from the record".  A record
# written with the required fields only has no variant_path; when its "variant" names a
# variant file, that file is the variant (as written, or beside the record).

@pytest.mark.parametrize("where", ["absolute", "beside the record"])
def test_a_record_whose_variant_names_a_file_replays_without_variant_path(capsys, tmp_path, where):
    events = random_record(3)
    for name in ("variant_path", "variant_hash"):
        events[0].pop(name, None)
    if where == "absolute":
        events[0]["variant"] = str(OFFICIAL)
    else:
        (tmp_path / "mine.yaml").write_text(OFFICIAL.read_text(encoding="utf-8"), encoding="utf-8")
        events[0]["variant"] = "mine.yaml"
    path = tmp_path / "game.jsonl"
    path.write_text(dumps(events), encoding="utf-8")
    code, out, err = call(capsys, "replay", path, "--json")
    assert code == 0 and json.loads(out)["totals"] == events[-1]["totals"], err
    events[0]["variant"] = "Chimera (official rules)"           # a name, not a file
    path.write_text(dumps(events), encoding="utf-8")
    code, out, err = call(capsys, "replay", path)
    assert code == 2 and "give --variant" in err and "Traceback" not in err


# -- RULINGS "Cards": "54 cards: ranks 1-12 in 4 colours (48), 4 Heroes H (one per colour), one
# Pi Ya P, one Chimera C"; "Dealing": "3 cards to the nest, ... 17 each".  Every deal of a record
# is that deck, card for card.

def test_every_deal_is_the_whole_deck_of_54_cards():
    from collections import Counter
    colours = {"red", "yellow", "green", "blue"}
    deals = [e for e in with_redeal() if e["type"] == "deal"]
    assert len(deals) >= 2
    for event in deals:
        cards = [c for hand in event["hands"] for c in hand] + event["nest"]
        assert [len(h) for h in event["hands"]] == [17, 17, 17] and len(event["nest"]) == 3
        assert len(cards) == len(set(cards)) == 54
        ranks = Counter(c.split("/")[0] for c in cards)
        assert ranks == {**{str(v): 4 for v in range(1, 13)}, "H": 4, "P": 1, "C": 1}
        for card in cards:
            rank, _, colour = card.partition("/")
            assert (colour in colours) if rank not in ("P", "C") else colour == ""
