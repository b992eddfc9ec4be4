"""Cards moved as the round ends (``play.effects`` at ``round_end`` with ``move``): the last player's
tricks to the first out, its hand to the opponents, or every pile to nobody after a double
victory; the scores read the moved cards."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from chimera_dsl import load_variant
from chimera_dsl.engine import Game
from chimera_dsl.errors import VariantError
from chimera_dsl.players import make_player, play_game
from chimera_dsl.tell.record import replay

ROOT = Path(__file__).resolve().parents[1]
PRESIDENT = ROOT / "variants" / "others" / "president.yaml"
MOVES = f"""extends: {PRESIDENT}
name: moves
play:
  teams: [[0, 2], [1, 3]]
  round_ends_when: team_out or out_count >= players - 1
  effects:
    - {{at: round_end, when: "out_count == players - 1", do: {{move: taken, from: place(last), to: place(1)}}}}
    - {{at: round_end, when: "out_count == players - 1", do: {{move: hand, from: place(last), to: opponent}}}}
    - {{at: round_end, when: "out_count < players - 1", do: {{move: taken, from: each, to: nobody}}}}
scoring:
  treasures: {{"5": 5, "10": 10, K: 10}}
  points:
    each:
      double: "if place == 1 and partner_place == 2 then 200 else 0"
end: {{target: 600, ties: shared}}
"""


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    path = tmp_path_factory.mktemp("moves") / "moves.yaml"
    path.write_text(MOVES, encoding="utf-8")
    return load_variant(path)


def _points(deck, cards):
    worth = {"5": 5, "10": 10, "K": 10}
    return sum(worth.get(c.split("/")[0], 0) for c in cards)


def test_the_last_players_cards_go_to_the_first_out_and_the_opponents(rules):
    deck = rules.deck
    doubles = normal = 0
    for seed in range(6):
        final = play_game(Game(rules), [make_player("random", seed * 4 + s) for s in range(4)], seed)
        events = final.events
        start = 0
        for i, e in enumerate(events):
            if e["type"] == "deal":
                start = i
            if e["type"] != "round_end":
                continue
            lines = events[start:i]
            taken = [0] * 4
            for line in lines:
                if line["type"] == "trick" and line["winner"] is not None:
                    taken[line.get("given_to", line["winner"])] += _points(deck, line["cards"])
            places = e["places"]
            moves = [x for x in lines if x["type"] == "effect" and x["do"] == "move"]
            if len([s for s in range(4) if e["cards_left"][s] == 0]) == 3:
                normal += 1
                last, first = places[-1], places[0]
                assert [(m["seat"], m["what"], m["to"]) for m in moves] == \
                    [(last, "taken", first), (last, "hand", (last + 1) % 4)]
                played = {c for x in lines if x["type"] == "play" for c in x["cards"]}
                dealt = next(x for x in lines if x["type"] == "deal")["hands"][last]
                given = {c for x in lines if x["type"] == "exchange" and x["from"] == last for c in x["cards"]}
                got = {c for x in lines if x["type"] == "exchange" and x["to"] == last for c in x["cards"]}
                left = (set(dealt) - given | got) - played
                expected = list(taken)
                expected[first] += expected[last]
                expected[last] = 0
                expected[(last + 1) % 4] += _points(deck, left)
                assert e["treasures"] == expected
                assert sum(expected) == 100
            else:
                doubles += 1
                assert all(m["to"] is None for m in moves) and len(moves) == 4
                assert e["treasures"] == [0, 0, 0, 0]
                winners = {places[0], places[1]}
                assert all(e["points"][s] == (200 if s in winners else 0) for s in range(4))
        assert replay(json.loads(json.dumps(events)), rules).returns() == final.returns()
    assert doubles and normal


def test_moves_are_checked_where_they_are_written(tmp_path):
    cases = {
        "{at: round_end, do: {move: cards, from: each, to: nobody}}": "must be one of taken, hand",
        "{do: {move: taken, from: each, to: nobody}}": "needs at: round_end",
        "{at: round_end, do: {move: taken, from: each, to: opponent}}": "every seat's cards would cross",
        "{at: round_end, do: {move: taken, from: place(last), to: nobody}}": "has no places",
        "{at: round_end, do: reverse_order}": "only move acts at round_end",
    }
    for line, message in cases.items():
        path = tmp_path / "bad.yaml"
        body = f"extends: {ROOT / 'variants' / 'others' / 'big-two.yaml'}\nplay:\n  effects:\n    - {line}\n"
        path.write_text(body, encoding="utf-8")
        with pytest.raises(VariantError) as error:
            load_variant(path)
        assert message in str(error.value), (line, str(error.value))
        assert f"{path}:4:" in str(error.value)
