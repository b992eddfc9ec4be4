"""Values kept from round to round (``values``, ``scoring.set``): one for the table, each seat or
each team, read by the scoring's expressions, set anew once a round is scored, kept within
their range, in the record, the observation and the rulebook; misuse refused at its place."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from chimera_dsl import load_variant
from chimera_dsl.engine import Game
from chimera_dsl.errors import VariantError
from chimera_dsl.players import make_player, play_game
from chimera_dsl.tell.record import RecordError, replay
from chimera_dsl.tell.rulebook import write_rulebook

ROOT = Path(__file__).resolve().parents[1]
PRESIDENT = ROOT / "variants" / "others" / "president.yaml"
CHIBRE = ROOT / "variants" / "others" / "chibre.yaml"

STREAK = f"""extends: {PRESIDENT}
name: President, a streak bonus
values:
  streak: {{each: seat, start: 0, range: [0, 3]}}
  rounds_left: {{start: 5, range: [0, 5]}}
scoring:
  points:
    each:
      place: "if place == 1 then 5 else if place == 2 then 4 else if place == players then 1 else if place == players - 1 then 2 else 3"
      streak: "if place == 1 and streak >= 1 then 2 * streak else 0"
      last_rounds: "if rounds_left == 0 then 1 else 0"
  set:
    streak: "if place == 1 then streak + 1 else 0"
    rounds_left: "rounds_left - 1 / 2"
"""


def _write(tmp_path, text: str, name: str = "v.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def streak(tmp_path_factory):
    return load_variant(_write(tmp_path_factory.mktemp("values"), STREAK))


def _game(rules, seed: int = 2):
    return play_game(Game(rules), [make_player("heuristic", seed=s) for s in range(rules.spec["players"])], seed=seed)


def test_values_are_read_then_set_after_each_round_and_recorded(streak):
    state = _game(streak)
    ends = [e for e in state.events if e["type"] == "round_end"]
    assert len(ends) > 6
    before = {"streak": [0] * 4, "rounds_left": 5}
    for end in ends:
        first = end["places"][0]
        bonus = dict(end["parts"][first]).get("streak", 0)
        assert bonus == (2 * before["streak"][first] if before["streak"][first] >= 1 else 0)
        last = [dict(p).get("last_rounds", 0) for p in end["parts"]]
        assert last == [int(before["rounds_left"] == 0)] * 4
        expected = [min(before["streak"][s] + 1, 3) if s == first else 0 for s in range(4)]
        assert end["values"]["streak"] == expected               # kept within 0..3
        # rounds_left - 1/2 is rounded down: one less each round, never below 0
        assert end["values"]["rounds_left"] == max(before["rounds_left"] - 1, 0)
        before = end["values"]
    assert max(max(e["values"]["streak"]) for e in ends) >= 2      # a streak was built and paid


def test_a_record_with_values_replays_and_a_forged_value_is_refused(streak):
    lines = _game(streak, seed=5).events
    assert replay(lines, streak).events == lines
    forged = json.loads(json.dumps(lines))
    end = next(e for e in forged if e["type"] == "round_end")
    end["values"]["rounds_left"] = 3
    with pytest.raises(RecordError) as caught:
        replay(forged, streak)
    assert "values" in str(caught.value)


def test_every_seat_sees_the_values(streak):
    state = Game(streak).new_game(1)
    assert state.observation(0).values == {"streak": (0, 0, 0, 0), "rounds_left": 5}
    state = _game(streak, seed=1)
    last = [e for e in state.events if e["type"] == "round_end"][-1]["values"]
    assert state.observation(2).values == {"streak": tuple(last["streak"]), "rounds_left": last["rounds_left"]}


TEAM = f"""extends: {CHIBRE}
name: Chibre, a team's rounds made in a row
values:
  run: {{each: team, start: 0, range: [0, 10]}}
scoring:
  points:
    each:
      run_bonus: "if won and run >= 2 then 10 else 0"
  set:
    run: "if won then run + 1 else 0"
"""


def test_a_team_value_is_one_for_both_partners(tmp_path):
    rules = load_variant(_write(tmp_path, TEAM))
    teams = rules.spec["play"]["teams"]
    state = _game(rules, seed=3)
    ends = [e for e in state.events if e["type"] == "round_end"]
    assert ends
    seen = set()
    for end in ends:
        run = end["values"]["run"]
        for team in teams:
            assert len({run[s] for s in team}) == 1
        seen |= set(run)
    assert max(seen) >= 1


@pytest.mark.parametrize("values, scoring, where, words", [
    ("place: {range: [0, 3]}", "", "values.place", "is already a name the scoring reads"),
    ("v: {range: [3, 0]}", "", "values.v.range", "goes down, from 3 to 0"),
    ("v: {start: 7, range: [0, 3]}", "", "values.v.start", "outside its range 0..3"),
    ("v: {each: team, range: [0, 3]}", "", "values.v.each", "play.teams forms no teams"),
    ("v: {range: [0, 3]}", "  set: {w: v + 1}", "scoring.set.w", "which values: does not declare"),
    ("v: {range: [0, 3]}", "  set: {v: place}", "scoring.set.v", "place"),
    ("v: {range: [0, 3]}", "  points: {each: '10 / v'}", "scoring.points.each", "division by zero"),
    ("v: {start: 1}", "", "values.v", "range"),
])
def test_misused_values_are_refused_where_they_are_written(tmp_path, values, scoring, where, words):
    text = f"extends: {PRESIDENT}\nvalues:\n  {values}\nscoring:\n{scoring or '  {}'}\n"
    path = _write(tmp_path, text)
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    messages = "\n".join(str(p) for p in caught.value.problems)
    assert f"{path}:" in messages
    assert words in messages
    located = [p for p in caught.value.problems if words in str(p)]
    assert located and located[0].line is not None and located[0].line >= 3
    assert ".".join(map(str, located[0].path)).startswith(where)


@pytest.mark.parametrize("lang, kept, becomes", [("en", "Kept from round to round", "becomes"),
                                                 ("fr", "Conservé d'une manche à l'autre", "devient"),
                                                 ("de", "Von Runde zu Runde behalten", "wird zu"),
                                                 ("it", "Conservato da una mano all'altra", "diventa")])
def test_the_rulebook_says_what_is_kept_and_how_it_changes(streak, lang, kept, becomes):
    text = write_rulebook(streak, lang)
    assert kept in text
    assert text.count(becomes) >= 2
    assert "streak + 1" not in text                 # said in words, not as written


# -- values kept per round, and values the play changes as it goes ------------------------------

COUNTED = f"""extends: {PRESIDENT}
name: President, counted as it goes
values:
  twos: {{each: seat, per: round, range: [0, 4]}}
  tricks: {{each: seat, per: round, range: [0, 60]}}
  highest: {{per: round, range: [0, 20]}}
  rounds_with_twos: {{each: seat, range: [0, 9]}}
play:
  effects:
    - {{when: play_is(four), do: reverse_order}}
    - {{when: "play_has(2)", do: {{add: {{twos: play_size}}}}}}
    - {{at: trick_end, do: {{add: {{tricks: 1}}}}}}
    - {{when: "play_rank > highest", do: {{set: {{highest: play_rank}}}}}}
scoring:
  points:
    each:
      place: "if place == 1 then 2 else 0"
      twos: twos
  set:
    rounds_with_twos: "rounds_with_twos + (if twos > 0 then 1 else 0)"
end:
  when: "max(rounds_with_twos) >= 3 or round >= 30"
"""


@pytest.fixture(scope="module")
def counted(tmp_path_factory):
    return load_variant(_write(tmp_path_factory.mktemp("counted"), COUNTED))


@pytest.mark.parametrize("seed", [1, 4])
def test_values_of_a_round_count_the_plays_and_tricks_and_start_again_each_round(counted, seed):
    state = _game(counted, seed)
    rounds = {}
    for line in state.events:
        if line["type"] in ("play", "trick", "round_end"):
            rounds.setdefault(line["round"], []).append(line)
    assert len(rounds) >= 3
    kept_before = [0] * 4
    for number, lines in rounds.items():
        end = lines[-1]
        assert end["type"] == "round_end"
        plays = [e for e in lines if e["type"] == "play"]
        twos = [sum(c.startswith("2/") for e in plays if e["seat"] == s for c in e["cards"]) for s in range(4)]
        tricks = [sum(1 for e in lines if e["type"] == "trick" and e["winner"] == s) for s in range(4)]
        assert end["values"]["twos"] == twos            # counted in this round only: started again at 0
        assert end["values"]["tricks"] == tricks
        assert end["values"]["highest"] == max(e["rank"] for e in plays)
        assert [dict(p).get("twos", 0) for p in end["parts"]] == twos     # the scoring reads them
        kept = [k + (t > 0) for k, t in zip(kept_before, twos)]
        assert end["values"]["rounds_with_twos"] == kept
        # the game ends after the first round where a seat played a 2 in three rounds
        assert (max(kept) >= 3) == (number == max(rounds))
        kept_before = kept


def test_values_changed_by_the_play_are_seen_by_every_seat_and_replay(counted):
    game = Game(counted)
    state = game.new_game(5)
    players = [make_player("random", seed=s) for s in range(4)]
    seen_twos = False
    while not state.is_terminal() and state.round == 1:
        seat = state.current_player()
        state.apply_action(players[seat].act(state.observation(seat), state.legal_actions()))
        if state.round == 1:
            for s in range(4):
                assert state.observation(s).values["twos"] == tuple(state.values["twos"])
            seen_twos |= any(state.values["twos"])
    assert seen_twos
    lines = _game(counted, seed=6).events
    assert replay(lines, counted).events == lines


def test_a_team_value_changed_by_a_play_is_the_team_s(tmp_path):
    text = f"""extends: {PRESIDENT}
play:
  teams: [[0, 2], [1, 3]]
  effects:
    - {{when: "play_has(2)", do: {{add: {{team_twos: play_size}}}}}}
values:
  team_twos: {{each: team, per: round, range: [0, 4]}}
end: {{ties: shared}}
"""
    rules = load_variant(_write(tmp_path, text))
    state = _game(rules, 3)
    ends = [e for e in state.events if e["type"] == "round_end"]
    assert ends
    for end in ends:
        twos = end["values"]["team_twos"]
        assert twos[0] == twos[2] and twos[1] == twos[3] and twos[0] + twos[1] == 4


@pytest.mark.parametrize("values, effect, extra, where, words", [
    ("v: {per: round, range: [0, 3]}", "{do: {add: {w: 1}}}", "", "play.effects.0.do.add.w",
     "which values: does not declare"),
    ("v: {per: round, range: [0, 3]}", "{at: round_end, do: {add: {v: 1}}}", "", "play.effects.0.at",
     "a value changes after a play"),
    ("v: {per: round, range: [0, 3]}", "{do: {add: {v: play_sise}}}", "", "play.effects.0.do.add.v",
     "play_sise"),
    ("v: {per: round, range: [0, 3]}", "{do: {add: {v: 'play_size > 1'}}}", "", "play.effects.0.do.add.v",
     "number"),
    ("v: {per: round, range: [0, 3]}", "{do: reverse_order}", "scoring:\n  set: {v: v + 1}\n", "scoring.set.v",
     "kept per round"),
    ("v: {per: week, range: [0, 3]}", "{do: reverse_order}", "", "values.v.per", "round"),
    ("v: {per: round, range: [0, 3]}", "{do: reverse_order}", "end:\n  when: 'max(w) >= 1 or round >= 9'\n",
     "end.when", "'w'"),
])
def test_misused_values_of_the_play_are_refused_where_they_are_written(tmp_path, values, effect, extra, where, words):
    text = f"extends: {PRESIDENT}\nvalues:\n  {values}\nplay:\n  effects:\n    - {effect}\n{extra}"
    path = _write(tmp_path, text)
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    located = [p for p in caught.value.problems if words in str(p)]
    assert located, caught.value.problems
    assert located[0].line is not None and located[0].line >= 3
    assert ".".join(map(str, located[0].path)).startswith(where)


def test_the_rulebook_says_the_values_of_a_round_and_what_the_play_adds(counted):
    text = write_rulebook(counted, "en")
    assert "back to 0 as each round starts" in text
    assert "is added to *twos*" in text and "*highest* becomes" in text
    assert "When a trick ends" in text


@pytest.mark.parametrize("lang, said, unsaid", [
    ("en", "When a trick ends, 1 is added to *tricks won*", "and true"),
    ("fr", "Quand un pli se termine, 1 s'ajoute à *tricks won*", "que vrai"),
    ("de", "Wenn ein Stich endet, wird 1 zu *tricks won* addiert", "und wahr"),
    ("it", "Quando una presa finisce, 1 si aggiunge a *tricks won*", "e vero"),
])
def test_an_effect_without_a_condition_is_told_without_one(tmp_path, lang, said, unsaid):
    text = f"""extends: {PRESIDENT}
play:
  effects:
    - {{at: trick_end, do: {{add: {{tricks_won: 1}}}}}}
values:
  tricks_won: {{each: seat, per: round, range: [0, 60]}}
"""
    rulebook = write_rulebook(load_variant(_write(tmp_path, text)), lang)
    assert said in rulebook
    assert unsaid not in rulebook.lower() and "When a trick ends and" not in rulebook
