"""Traps a new user met writing games the project does not ship (Whist, Sheepshead, Daifugo)
from the documentation alone: each is now refused where it is written, or told right."""
from __future__ import annotations

import textwrap

import pytest

import chimera_dsl
from chimera_dsl.errors import VariantError
from chimera_dsl.cli import run

# A climbing game of 52 cards and a joker, 3 low and 2 high (Daifugo's deck).
CLIMBING = """\
format: 1
name: a climbing sketch
players: 4
deck:
  ranks: ["3", "4", "5", "6", "7", "8", "9", "10", J, Q, K, A, "2", JK]
  colours: [clubs, diamonds, hearts, spades, joker]
  wild_colours: [joker]
  cards:
    - {ranks: "3..2", per_colour: 1, colours: [clubs, diamonds, hearts, spades]}
    - {ranks: JK, copies: 1, colour: joker}
  sequence: "3..2"
  groups: {plain: "3..2"}
deal: {hand: 13, rest: dealt}
play:
  first_leader: dealer_left
  round_ends_when: out_count >= players - 1
  effects:
    - {when: "play_has(8)", do: end_trick}
combinations:
  single: {pattern: "single of any"}
  pair: {pattern: "pair of plain, wild JK"}
  run: {pattern: "3+ consecutive singles of plain, same colour, wild JK"}
scoring:
  points: {each: "if place == 1 then 2 else 0"}
end: {rounds: 4, ties: shared}
"""


def write(tmp_path, text: str, name: str = "mine.yaml") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return str(path)


def problems(path: str) -> list:
    with pytest.raises(VariantError) as caught:
        chimera_dsl.load_variant(path)
    return caught.value.problems


def test_the_sketch_loads_and_its_joker_stands_in_a_run(tmp_path):
    rules = chimera_dsl.load_variant(write(tmp_path, CLIMBING))
    assert rules.classify("5/clubs 6/clubs JK")


def test_a_wild_card_without_a_colour_in_a_same_colour_pattern_is_refused_at_its_rank(tmp_path):
    # a joker of no colour could never stand in a run of one colour: the file used to load and
    # silently play runs without it
    text = (CLIMBING.replace("colours: [clubs, diamonds, hearts, spades, joker]", "colours: [clubs, diamonds, hearts, spades]")
            .replace("  wild_colours: [joker]\n", "").replace(", colour: joker}", "}")
            .replace(", colours: [clubs, diamonds, hearts, spades]}", "}"))
    path = write(tmp_path, text)
    found = problems(path)
    assert len(found) == 1
    problem = found[0]
    assert "JK has no colour" in problem.message and "same colour" in problem.message
    assert "wild_colours" in problem.hint
    line = text.splitlines()[problem.line - 1]
    assert line[problem.column - 1:].startswith("JK\"}")
