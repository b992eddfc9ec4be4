"""``play.must`` in a climbing play: the same rules as a trick-taking play's (``{when, play}``:
when the first holds, only plays for which the second holds, if there is one), read over the
combination played; a pass stays allowed; told in the rulebook, explained when a play is refused,
misuse located."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from chimera_dsl import load_variant
from chimera_dsl.engine import Game
from chimera_dsl.errors import IllegalActionError, VariantError
from chimera_dsl.tell.rulebook import write_rulebook

ROOT = Path(__file__).resolve().parents[1]
PRESIDENT = ROOT / "variants" / "others" / "president.yaml"

RULES = f"""extends: {PRESIDENT}
name: President, narrowed leads
play:
  must:
    - {{when: leading, play: "not play_has(2)"}}
    - {{when: "leading and held >= 5", play: "play_size >= 2"}}
"""


def _load(tmp_path, text: str):
    path = tmp_path / "must.yaml"
    path.write_text(text, encoding="utf-8")
    return load_variant(path)


@pytest.fixture
def rules(tmp_path):
    return _load(tmp_path, RULES)


def _lockstep(rules, seed: int):
    """The game under the narrowed rules and under President's own, dealt alike and played alike
    (random choices among the narrowed plays): each decision as (narrowed legal, plain legal, state)."""
    state = Game(rules).new_game(seed)
    plain = Game(load_variant(PRESIDENT)).new_game(seed)
    rng = random.Random(seed)
    for _ in range(400):
        if state.is_terminal():
            return
        legal = state.legal_actions()
        yield legal, plain.legal_actions(), state
        action = rng.choice(legal)
        state.apply_action(action)
        plain.apply_action(action)


def test_leads_are_narrowed_rule_by_rule_answers_are_not(rules):
    two = rules.deck.index["2"]
    narrowed = only_twos = 0
    for seed in range(12):
        for legal, every, state in _lockstep(rules, seed):
            plays = [a for a in legal if a.kind == "play"]
            all_plays = [a for a in every if a.kind == "play"]
            if state.kind != "play" or state.interrupting:
                continue
            if state.last_play is not None:
                assert legal == every                         # answers: no rule applies
                continue
            expected = all_plays
            no_two = [a for a in expected if not rules.deck.count_of(a.play.key, two)]
            if no_two:
                expected = no_two
            else:
                only_twos += 1
            if state.sizes[state.current_player()] >= 5:
                wide = [a for a in expected if a.play.size >= 2]
                expected = wide or expected
            assert plays == expected
            narrowed += len(plays) < len(all_plays)
    assert narrowed > 20


def test_a_play_the_rules_take_away_is_refused_with_the_rule(rules):
    two = rules.deck.index["2"]
    for seed in range(30):
        for legal, every, state in _lockstep(rules, seed):
            taken = [a for a in every if a.kind == "play" and a not in legal and rules.deck.count_of(a.play.key, two)]
            if state.kind == "play" and state.last_play is None and taken:
                with pytest.raises(IllegalActionError) as caught:
                    state.apply_action(taken[0])
                assert "play.must[0]" in str(caught.value)
                return
    pytest.fail("no lead with a 2 taken away by the rule")


def test_the_rulebook_says_the_rules(rules):
    text = write_rulebook(rules, "en")
    assert "these rules narrow the plays a player may make" in text
    assert "when the player leads the trick: a play where not the play holds the 2" in text


def test_a_when_that_reads_the_play_is_refused_at_its_place(tmp_path):
    text = RULES.replace('{when: leading, play: "not play_has(2)"}', '{when: "play_size > 1", play: "true"}')
    with pytest.raises(VariantError) as caught:
        _load(tmp_path, text)
    problem = caught.value.problems[0]
    assert problem.path[:4] == ("play", "must", 0, "when")
    assert "play_size" in str(problem) and "reads the play" in str(problem) and problem.line == 5
