"""Calls (``calls``, a phase of kind ``calls``, ``play.calls``, ``called(NAME)``): each rule held
by a scripted deal on a test file over President (tests/variants/valid/calls-and-two-part-deal.yaml),
records replayed, misuse refused where it is written, and every command run on the file."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from chimera_dsl import load_variant
from scripted import act_cards as _act
from chimera_dsl.cli import run
from chimera_dsl.engine import PASS, Action, Deal, Game
from chimera_dsl.errors import VariantError
from chimera_dsl.players import make_player, play_game
from chimera_dsl.serve.view import actions_json, seat_marks, seat_view
from chimera_dsl.tell.record import replay

ROOT = Path(__file__).resolve().parents[1]
CALLS = ROOT / "tests" / "variants" / "valid" / "calls-and-two-part-deal.yaml"
CHIBRE = ROOT / "variants" / "others" / "chibre.yaml"
GRAND, SMALL = Action("call", cards=0), Action("call", cards=1)


@pytest.fixture(scope="module")
def rules():
    return load_variant(CALLS)


def _deal(rules, *hands: str) -> Deal:
    deck = rules.deck
    return Deal(tuple(deck.cards_mask(h) if h else 0 for h in hands), 0, None)


def _game(rules, *deals, dealer=0, **options):
    return Game(rules, **options).new_game(0, deals=iter(deals), first_dealer=dealer)




def _calls_offered(state) -> list[Action]:
    return [a for a in state.legal_actions() if a.kind == "call"]


def _lines(state, kind: str) -> list[dict]:
    return [e for e in state.events if e["type"] == kind]


# seat 0 holds the 3 of clubs and leads it; seat 1 goes out first, then seat 3, then seat 2
ROUND_1 = ("3/clubs 5/hearts", "4/clubs", "6/clubs 9/clubs", "7/clubs 8/clubs")


def test_a_calls_phase_asks_each_seat_once_from_the_seat_after_the_dealer(rules):
    state = _game(rules, _deal(rules, *ROUND_1), dealer=0)
    assert state.phase == "grand"
    asked = []
    for decision in (GRAND, PASS, PASS, PASS):
        asked.append(state.current_player())
        assert state.legal_actions() == [PASS, GRAND]          # the pass first: a player knowing nothing picks it
        state.apply_action(decision)
    assert asked == [1, 2, 3, 0]
    assert state.phase == "play"
    assert _lines(state, "call") == [{"type": "call", "round": 1, "seat": 1, "call": "grand"},
                                     {"type": "call", "round": 1, "seat": 2, "call": None},
                                     {"type": "call", "round": 1, "seat": 3, "call": None},
                                     {"type": "call", "round": 1, "seat": 0, "call": None}]
    for seat in range(4):                                      # every call is public
        assert state.observation(seat).calls == {1: ("grand",)}


def test_a_call_in_the_play_is_offered_before_the_seats_first_play_and_scores_by_called(rules):
    state = _game(rules, _deal(rules, *ROUND_1), dealer=0, max_rounds=1)
    for decision in (GRAND, PASS, PASS, PASS):
        state.apply_action(decision)
    assert state.current_player() == 0 and _calls_offered(state) == [SMALL]
    state.apply_action(SMALL)
    assert state.current_player() == 0, "a call leaves the turn with the seat that made it"
    assert _calls_offered(state) == [], "a call is made once"
    _act(state, 0, "3/clubs")
    assert _calls_offered(state) == [], "seat 1 called grand, which bars small (one call a round)"
    _act(state, 1, "4/clubs")
    assert _calls_offered(state) == [SMALL], "seat 2 has not played yet"
    _act(state, 2, "6/clubs")
    _act(state, 3, "7/clubs")
    _act(state, 0, None)
    assert _calls_offered(state) == [], "seat 2 has played: its call is closed"
    _act(state, 2, None)
    _act(state, 3, "8/clubs")
    _act(state, 0, None)
    _act(state, 2, "9/clubs")
    end = _lines(state, "round_end")[0]
    assert end["places"] == [1, 3, 2, 0]
    # seat 1 called grand and finished first: +20; seat 0 called small and finished last: -10
    assert end["points"] == [1 - 10, 5 + 20, 2, 4]
    assert ["grand", 20] in end["parts"][1] and ["small", -10] in end["parts"][0]
    assert _lines(state, "call")[-1] == {"type": "call", "round": 1, "seat": 0, "call": "small"}


def _variant(tmp_path, text: str) -> Path:
    path = tmp_path / "variant.yaml"
    path.write_text(f"extends: {CALLS}\n" + text, encoding="utf-8")
    return path


def test_excludes_and_until_any_play_say_who_may_call_when(tmp_path):
    rules = load_variant(_variant(tmp_path, "calls:\n  small: {excludes: []}\n"
                                            "play:\n  calls:\n    - {call: small, until: any_play}\n"))
    state = _game(rules, _deal(rules, *ROUND_1), dealer=0)
    for decision in (PASS, PASS, PASS, GRAND):                 # seat 0 calls grand
        state.apply_action(decision)
    assert _calls_offered(state) == [SMALL], "excludes: [] lets a seat that called grand call small"
    _act(state, 0, "3/clubs")
    assert _calls_offered(state) == [], "until: any_play: the round's first play closes the call for all"
    # grand still excludes small by default (every other call), small excludes nothing
    calls = state.game.round.calls.calls
    assert calls[0].excludes == frozenset({1}) and calls[1].excludes == frozenset()


def test_a_calls_phase_passes_over_a_seat_that_may_not_make_its_call(tmp_path):
    rules = load_variant(_variant(tmp_path, "round: [deal, grand, again, play, scoring]\n"
                                            "phases:\n  again: {kind: calls, call: small, opener: 2}\n"))
    state = _game(rules, _deal(rules, *ROUND_1), dealer=0)
    for decision in (GRAND, PASS, GRAND, PASS):                # seats 1 and 3 call grand
        state.apply_action(decision)
    assert state.phase == "again"
    asked = []
    while state.phase == "again":
        asked.append(state.current_player())
        state.apply_action(PASS)
    assert asked == [2, 0], "seats 1 and 3 called grand, which bars small: they are not asked"


def test_an_illegal_call_is_refused_with_its_reason(rules):
    from chimera_dsl.errors import IllegalActionError
    state = _game(rules, _deal(rules, *ROUND_1), dealer=0)
    with pytest.raises(IllegalActionError, match="calls grand or passes"):
        state.apply_action(SMALL)
    for decision in (GRAND, PASS, PASS, PASS):
        state.apply_action(decision)
    state.apply_action(SMALL)
    with pytest.raises(IllegalActionError):
        state.apply_action(SMALL)                              # once


def test_the_web_table_labels_calls_and_marks_the_seats_that_made_one(rules):
    state = _game(rules, _deal(rules, *ROUND_1), dealer=0)
    obs = state.observation(state.current_player())
    assert [a["label"] for a in actions_json(state.game, state.legal_actions(), obs)] == ["no call", "call Grand call"]
    assert [a.get("call", "-") for a in actions_json(state.game, state.legal_actions(), obs)] == [None, "grand"]
    state.apply_action(GRAND)                                  # seat 1
    view = json.loads(json.dumps(seat_view(state.game, state.observation(3), state.events)))
    assert view["calls"] == {"1": ["grand"]}
    assert seat_marks(state.game, view, 4)[1] == ["Grand call"]


def test_random_games_replay_and_a_forged_call_is_refused(rules):
    game = Game(rules, max_rounds=3)
    made = 0
    for seed in range(6):
        state = play_game(game, [make_player("random", seed * 10 + s) for s in range(4)], seed)
        events = json.loads(json.dumps(state.events))
        made += sum(1 for e in events if e["type"] == "call" and e["call"] is not None)
        assert replay(events, rules).totals == state.totals
    assert made > 10
    called = next(i for i, e in enumerate(events) if e["type"] == "call" and e["call"] == "grand")
    forged = [dict(e) for e in events]
    forged[called]["call"] = "small"
    with pytest.raises(Exception, match="not the call of this phase"):
        replay(forged, rules)
    # a call line where the seat makes none: the engine writes the next play or pass instead
    play = next(i for i, e in enumerate(events) if e["type"] == "play")
    forged = events[:play] + [{"type": "call", "round": 1, "seat": 99, "call": "small"}] + events[play:]
    with pytest.raises(Exception, match="out of turn|expected"):
        replay(forged, rules)


def test_heuristic_and_search_players_finish_games(rules):
    game = Game(rules, max_rounds=2)
    for kind in ("heuristic", "search"):
        players = [make_player(kind, s, search_budget=4) if kind == "search" else make_player(kind, s)
                   for s in range(4)]
        state = play_game(game, players, 1)
        assert state.is_terminal()


def test_a_calls_phase_runs_in_a_trick_taking_round(tmp_path):
    path = tmp_path / "chibre-calls.yaml"
    spec = load_variant(CHIBRE).spec
    round_ = list(spec.get("round") or [])
    where = round_.index("play") if "play" in round_ else len(round_) - 1
    round_.insert(where, "bet")
    path.write_text(f"extends: {CHIBRE}\nround: {json.dumps(round_)}\ncalls:\n  bet: {{}}\n"
                    "phases:\n  bet: {kind: calls, call: bet}\n", encoding="utf-8")
    rules = load_variant(path)
    state = play_game(Game(rules, max_rounds=1), [make_player("random", s) for s in range(4)], 2)
    lines = [e for e in state.events if e["type"] == "call"]
    assert len(lines) == 4 and all(e["call"] in (None, "bet") for e in lines)
    assert replay(json.loads(json.dumps(state.events)), rules).totals == state.totals


@pytest.mark.parametrize("lines, where, words", [
    ('scoring:\n  points:\n    each: "1 + called(nope)"\n', ":4:23:", "'nope' is not a call"),
    ("round: [deal, grand, other, play, scoring]\nphases:\n  other: {kind: calls, call: nope}\n", ":4:30:",
     "phases.other.call names the call 'nope', which calls: does not define"),
    ("round: [deal, grand, other, play, scoring]\nphases:\n  other: {kind: calls}\n", ":4:", "names no call"),
    ("play:\n  calls:\n    - {call: nope}\n", ":4:14:", "play.calls.0.call names the call 'nope'"),
    ("calls:\n  small: {excludes: [nope]}\n", ":3:22:", "calls.small.excludes.0 names the call 'nope'"),
    ('scoring:\n  facts:\n    g: "called(grand)"\n  points:\n    each: g\n', ":4:9:",
     "'called' is each seat's own, but scoring.facts.g is read once per round"),
    ("round: [deal, grand, tribute, play, scoring]\nphases:\n  tribute: {call: grand}\n", ":4:19:",
     "phases.tribute.call names a call, but a phase of kind transfer makes none"),
    ("play:\n  calls:\n    - {call: small, until: never}\n", ":4:", "until"),
])
def test_misused_calls_are_errors_at_their_place(tmp_path, lines, where, words):
    bad = tmp_path / "bad.yaml"
    bad.write_text(f"extends: {CALLS}\n" + lines, encoding="utf-8")
    with pytest.raises(VariantError) as error:
        load_variant(bad)
    text = str(error.value)
    assert f"bad.yaml{where}" in text and words in text, text


def test_called_in_a_file_without_calls_says_so(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(f"extends: {ROOT / 'variants' / 'others' / 'president.yaml'}\n"
                   'scoring:\n  points:\n    each: "called(grand)"\n', encoding="utf-8")
    with pytest.raises(VariantError, match="bad.yaml:4:12: scoring.points.each reads called\\(\\), but the file "
                                           "defines no calls"):
        load_variant(bad)


# -- every command on the file ----------------------------------------------------------------------
def call(capsys, *argv):
    code = run([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_every_command_works(capsys, tmp_path):
    assert call(capsys, "validate", CALLS)[0] == 0
    log = tmp_path / "game.jsonl"
    code, out, _ = call(capsys, "run", CALLS, "--seed", "2", "--target", "20", "--players", "random", "--log", log)
    assert code == 0 and "calls Grand call" in out and "every seat sees its whole hand" in out
    code, replayed, _ = call(capsys, "replay", log)
    assert code == 0 and replayed.strip().splitlines()[-1] == out.strip().splitlines()[-1]
    for lang, words in (("en", "Grand call"), ("fr", "Grande annonce"), ("de", "Große Ansage"),
                        ("it", "Grande dichiarazione")):
        code, out, _ = call(capsys, "rules", CALLS, "--lang", lang)
        assert code == 0 and words in out, out
    code, out, _ = call(capsys, "simulate", CALLS, "--games", "10", "--target", "20")
    assert code == 0 and "10 games" in out


def test_the_learning_action_space_numbers_the_calls(rules):
    from chimera_dsl.learn.actions import ActionSpace
    space = ActionSpace(Game(rules))
    kind, first, count = space.segments[-1]
    assert (kind, count) == ("call", 2)
    assert [space.describe(first + i) for i in range(count)] == ["call grand", "call small"]
    state = _game(rules, _deal(rules, *ROUND_1), dealer=0)
    assert space.decode(first, state) == GRAND and space.encode(GRAND, state) == first


def test_a_table_with_calls_resumes_from_its_record(rules):
    from chimera_dsl.serve.resume import replay_record
    game = Game(rules, max_rounds=2)
    state = play_game(game, [make_player("random", s) for s in range(4)], 5)
    events = json.loads(json.dumps(state.events))
    cut = next(i for i, e in enumerate(events) if e["type"] == "call" and e["call"] and i > 20) + 1
    resumed = replay_record(game, events[:cut]).state
    assert json.loads(json.dumps(resumed.events)) == events[:cut]
    assert resumed.observation(0).calls == state_calls_at(events[:cut])


def state_calls_at(lines: list[dict]) -> dict:
    """Every seat's calls of the last round of ``lines``, as an observation holds them."""
    last = max(i for i, e in enumerate(lines) if e["type"] == "deal")
    made: dict = {}
    for e in lines[last:]:
        if e["type"] == "call" and e["call"] is not None:
            made[e["seat"]] = made.get(e["seat"], ()) + (e["call"],)
    return made
