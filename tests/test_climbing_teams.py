"""Teams in climbing play (``play.teams``): a side goes out together, ``team_out`` ends the round,
``partner_place`` reads the partner's place, and a side's points are pooled."""
from __future__ import annotations

from pathlib import Path

import pytest

from chimera_dsl import load_variant
from chimera_dsl.engine import Game
from chimera_dsl.errors import VariantError
from chimera_dsl.players import make_player, play_game

ROOT = Path(__file__).resolve().parents[1]
PRESIDENT = ROOT / "variants" / "others" / "president.yaml"

TEAMS = f"""extends: {PRESIDENT}
name: teams
play:
  teams: [[0, 2], [1, 3]]
  round_ends_when: team_out or out_count >= players - 1
scoring:
  points:
    each:
      first: "if place == 1 then 3 else 0"
      double: "if place == 1 and partner_place == 2 then 10 else 0"
end:
  target: 60
  ties: shared
"""


@pytest.fixture(scope="module")
def rules(tmp_path_factory):
    path = tmp_path_factory.mktemp("teams") / "teams.yaml"
    path.write_text(TEAMS, encoding="utf-8")
    return load_variant(path)


def test_a_side_is_scored_together_and_a_whole_team_out_ends_the_round(rules):
    doubles = singles = 0
    for seed in range(8):
        final = play_game(Game(rules), [make_player("random", seed * 4 + s) for s in range(4)], seed)
        assert final.is_terminal()
        for end in (e for e in final.events if e["type"] == "round_end"):
            places = end["places"]
            points = end["points"]
            assert points[0] == points[2] and points[1] == points[3]
            first, second = places[0], places[1]
            same_team = {first, second} in ({0, 2}, {1, 3})
            winners = (0, 2) if first in (0, 2) else (1, 3)
            expected = 13 if same_team else 3
            assert [points[s] for s in winners] == [expected, expected]
            assert sum(points) == 2 * expected
            partner = [p for p in winners if p != first][0]
            assert ["partner", expected] in end["parts"][partner]
            # the round ends as soon as a whole team is out: with a double win, the last two
            # seats still hold cards
            left = [end["cards_left"][s] for s in places[2:]]
            if same_team:
                doubles += 1
                assert all(left)
            else:
                singles += 1
                assert end["cards_left"][places[2]] == 0
        assert final.totals[0] == final.totals[2] and final.totals[1] == final.totals[3]
    assert doubles and singles


def test_teams_are_checked_where_they_are_written(tmp_path):
    cases = {
        "teams: [[0, 4], [1, 3]]": "names seat 4",
        "teams: [[0, 2], [2, 3]]": "puts seat 2 in two teams",
    }
    for line, message in cases.items():
        path = tmp_path / "bad.yaml"
        path.write_text(f"extends: {PRESIDENT}\nend: {{ties: shared}}\nplay:\n  {line}\n", encoding="utf-8")
        with pytest.raises(VariantError) as error:
            load_variant(path)
        assert message in str(error.value) and f"{path}:4:" in str(error.value)
    lonely = tmp_path / "lonely.yaml"
    lonely.write_text(f"extends: {PRESIDENT}\nplay:\n  round_ends_when: team_out\n", encoding="utf-8")
    with pytest.raises(VariantError) as error:
        load_variant(lonely)
    assert "team_out" in str(error.value) and "play.teams" in str(error.value)
    tied = tmp_path / "tied.yaml"
    tied.write_text(f"extends: {PRESIDENT}\nplay:\n  teams: [[0, 2], [1, 3]]\n", encoding="utf-8")
    with pytest.raises(VariantError) as error:
        load_variant(tied)
    assert "ties" in str(error.value)


def test_a_seat_term_reads_whether_the_seat_dealt(tmp_path):
    path = tmp_path / "dealer.yaml"
    path.write_text(f"extends: {PRESIDENT}\nscoring:\n  points:\n    each: \"if is_dealer then 7 else 0\"\n",
                    encoding="utf-8")
    rules = load_variant(path)
    final = play_game(Game(rules, target=20), [make_player("random", s) for s in range(4)], 3)
    dealers = {e["round"]: e["dealer"] for e in final.events if e["type"] == "deal"}
    ends = [e for e in final.events if e["type"] == "round_end"]
    assert ends
    for end in ends:
        assert end["points"] == [7 if s == dealers[end["round"]] else 0 for s in range(4)]
