"""Effects of plays written as data (``play.effects``): ``lead_to: partner`` ends the trick at once
and hands the lead to the player's partner; ``trick_to: opponent`` (at ``trick_end``) lets the
winner give the trick to a seat of the other side.  General keys: the tests say what they do."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from chimera_dsl import load_variant
from chimera_dsl.engine import Game
from chimera_dsl.errors import RecordError, VariantError
from chimera_dsl.players import make_player, play_game
from chimera_dsl.tell.record import replay

ROOT = Path(__file__).resolve().parents[1]
PRESIDENT = ROOT / "variants" / "others" / "president.yaml"
EFFECTS = f"""extends: {PRESIDENT}
name: effects
play:
  teams: [[0, 2], [1, 3]]
  effects:
    - {{when: "play_is(single) and play_rank == 3", do: {{lead_to: partner}}}}
    - {{at: trick_end, when: "play_is(pair)", do: {{trick_to: opponent}}}}
end: {{ties: shared}}
"""


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    path = tmp_path_factory.mktemp("effects") / "effects.yaml"
    path.write_text(EFFECTS, encoding="utf-8")
    return load_variant(path)


def _games(rules, count):
    for seed in range(count):
        yield play_game(Game(rules, target=30), [make_player("random", seed * 4 + s) for s in range(4)], seed)


def test_lead_to_partner_ends_the_trick_and_the_partner_leads(rules):
    seen = 0
    for final in _games(rules, 6):
        events = final.events
        for i, e in enumerate(events):
            if e["type"] != "effect" or e["do"] != "lead_to":
                continue
            play = events[i - 1]
            assert play["type"] == "play" and play["combination"] == "single" and play["rank"] == 3
            partner = (play["seat"] + 2) % 4
            trick = events[i + 1]
            assert trick["type"] == "trick" and trick["winner"] == play["seat"]
            following = next((x for x in events[i + 2:] if x["type"] in ("play", "pass", "round_end")), None)
            if following is not None and following["type"] == "play" and following["round"] == play["round"]:
                assert following["seat"] == e["lead"]
                out = {x["seat"] for x in events[:i] if x["type"] == "play" and x.get("place")
                       and x["round"] == play["round"]}
                assert e["lead"] == partner or partner in out
                seen += 1
    assert seen > 5


def test_trick_to_gives_the_trick_to_a_seat_of_the_other_side(rules):
    given = 0
    for final in _games(rules, 6):
        events = final.events
        for i, e in enumerate(events):
            if e["type"] == "trick" and "given_to" in e:
                last = [x for x in events[:i] if x["type"] == "play"][-1]
                assert last["combination"] == "pair" and last["seat"] == e["winner"]
                assert e["given_to"] % 2 != e["winner"] % 2          # the other side
                given += 1
            elif e["type"] == "trick" and e["winner"] is not None:
                plays = [x for x in events[:i] if x["type"] == "play"]
                if plays and plays[-1]["combination"] == "pair" and plays[-1]["round"] == e["round"]:
                    raise AssertionError(f"a trick won with a pair was kept: {e}")
        lines = json.loads(json.dumps(events))
        assert replay(lines, rules).returns() == final.returns()
    assert given > 5


def test_a_forged_gift_is_refused_at_replay(rules):
    final = next(_games(rules, 1))
    lines = json.loads(json.dumps(final.events))
    i = next(i for i, e in enumerate(lines) if e["type"] == "trick" and "given_to" in e)
    lines[i]["given_to"] = (lines[i]["winner"] + 2) % 4                 # to the partner: no choice offered
    with pytest.raises(RecordError):
        replay(lines, rules)


def test_effects_are_checked_where_they_are_written(tmp_path):
    cases = {
        "- {when: 'true', do: {lead_to: partner}}": "play.teams forms no teams",
        "- {when: 'true', do: {trick_to: opponent}}": "needs at: trick_end",
        "- {at: trick_end, do: {lead_to: partner}}": "needs at: play",
        "- {do: {lead_to: dealer}}": "must be one of partner",
        "- {at: later, do: reverse_order}": "must be one of play, trick_end",
    }
    for line, message in cases.items():
        path = tmp_path / "bad.yaml"
        path.write_text(f"extends: {PRESIDENT}\nplay:\n  effects:\n    {line}\n", encoding="utf-8")
        with pytest.raises(VariantError) as error:
            load_variant(path)
        assert message in str(error.value), (line, str(error.value))
        assert f"{path}:4:" in str(error.value)


TWO_CLEARS = ROOT / "variants" / "house_rules" / "president-two-clears.yaml"


def test_end_trick_gives_the_trick_to_its_player_at_once():
    rules = load_variant(TWO_CLEARS)
    seen = 0
    for final in _games(rules, 5):
        events = final.events
        for i, e in enumerate(events):
            if e["type"] != "effect" or e["do"] != "end_trick":
                continue
            play = events[i - 1]
            assert play["type"] == "play" and any(c.startswith("2/") for c in play["cards"])
            trick = events[i + 1]
            assert trick["type"] == "trick" and trick["winner"] == play["seat"]
            nxt = next((x for x in events[i + 2:] if x["type"] in ("play", "pass", "round_end", "effect")), None)
            if nxt is not None and nxt["type"] == "play" and nxt["round"] == play["round"]:
                assert nxt["seat"] == e["lead"]
                if "place" not in play:
                    assert e["lead"] == play["seat"]           # still holding cards: it leads on
                seen += 1
        assert replay(json.loads(json.dumps(events)), rules).returns() == final.returns()
    assert seen > 5
