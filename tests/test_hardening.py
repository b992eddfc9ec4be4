"""Hostile input found by fuzzing: each case is a located error (exit 2), never a crash or a stall.

Variant files (paths, YAML, numbers, lists, keys that name one thing twice, the budget of
plays), patterns, game records (numbers, nesting, types, surrogates, the record's variant)
and the command line's JSON answers.
"""
from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from chimera_dsl import yamlsource
from chimera_dsl.cli import run
from chimera_dsl.errors import PatternError
from chimera_dsl.patterns import parse_pattern
from chimera_dsl.variant import MAX_BID_LEVELS, MAX_TOTAL_PLAYS, check_variant

ROOT = Path(__file__).resolve().parents[1]
OFFICIAL = ROOT / "variants" / "chimera.yaml"


def messages(path) -> list[str]:
    """The problems of a variant file, as printed."""
    return [str(p) for p in check_variant(path)]


def house(tmp_path: Path, text: str, name: str = "house.yaml") -> Path:
    """A file extending the official one with ``text`` (YAML lines)."""
    path = tmp_path / name
    path.write_text(f"extends: {OFFICIAL}\n{text}\n", encoding="utf-8")
    return path


# -- paths the loader must not trip on ----------------------------------------------------------
def test_a_nul_character_in_extends_is_located(tmp_path):
    path = tmp_path / "nul.yaml"
    path.write_text('extends: "base\\0.yaml"\nname: x\n', encoding="utf-8")
    assert messages(path) == [f"{path}:1:10: cannot read '{tmp_path}/base\0.yaml': a path cannot hold a NUL character"]


def test_a_symlink_loop_as_the_file_or_as_its_base_is_located(tmp_path):
    os.symlink(tmp_path / "b.yaml", tmp_path / "a.yaml")
    os.symlink(tmp_path / "a.yaml", tmp_path / "b.yaml")
    assert messages(tmp_path / "a.yaml") == [f"{tmp_path}/a.yaml:1:1: cannot read '{tmp_path}/a.yaml': "
                                             "its symbolic links form a loop"]
    (tmp_path / "c.yaml").write_text("extends: a.yaml\n", encoding="utf-8")
    assert messages(tmp_path / "c.yaml") == [f"{tmp_path}/c.yaml:1:10: cannot read '{tmp_path}/a.yaml': "
                                             "its symbolic links form a loop"]


def test_extends_naming_a_fifo_is_refused_without_opening_it(tmp_path):
    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "v.yaml").write_text("extends: pipe.yaml\n", encoding="utf-8")
    answer: list = []
    reader = threading.Thread(target=lambda: answer.append(messages(tmp_path / "v.yaml")), daemon=True)
    reader.start()
    reader.join(10)
    if reader.is_alive():           # unblock the reader, then fail
        os.close(os.open(tmp_path / "pipe.yaml", os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("reading a variant that extends a FIFO blocked")
    assert answer == [[f"{tmp_path}/v.yaml:1:10: cannot read '{tmp_path}/pipe.yaml': it is not a regular file "
                       "(a device, a pipe or a socket) (hint: a variant is a file on disk)"]]


def test_a_device_is_not_read(tmp_path):
    (tmp_path / "v.yaml").write_text("extends: /dev/zero\n", encoding="utf-8")
    assert "it is not a regular file" in messages(tmp_path / "v.yaml")[0]


# -- YAML the fast reader cannot read is not read again -----------------------------------------
@pytest.mark.skipif(yamlsource._FAST_LOADER is None, reason="libyaml is not installed")
def test_a_malformed_file_is_not_read_again_by_the_slow_reader(tmp_path, monkeypatch):
    items = ", ".join(str(i % 10) for i in range(300_000))
    path = tmp_path / "flow.yaml"
    path.write_text(f"format: 1\nx: [{items}]]\n", encoding="utf-8")

    def slow(text):
        raise AssertionError("the pure-Python reader read the file again")
    monkeypatch.setattr(yamlsource, "_compose_pure", slow)
    [problem] = check_variant(path)
    assert (problem.line, problem.message) == (2, "YAML syntax error: did not find expected key, "
                                                  "while parsing a block mapping on line 1")


@pytest.mark.skipif(yamlsource._FAST_LOADER is None, reason="libyaml is not installed")
def test_nesting_is_refused_on_libyaml_events_where_the_pure_reader_refuses_it(tmp_path, monkeypatch):
    for depth in (30, 31, 32):      # the map, then the lists, then the value: depth + 2
        path = tmp_path / f"deep{depth}.yaml"
        path.write_text("x: " + "[" * depth + "1" + "]" * depth + "\n", encoding="utf-8")
        fast = messages(path)
        monkeypatch.setattr(yamlsource, "_FAST_LOADER", None)
        assert messages(path) == fast
        monkeypatch.undo()
        assert ("nested more than 32 deep" in "".join(fast)) == (depth + 2 > 32)


# -- numbers and lists are bounded ---------------------------------------------------------------
@pytest.mark.parametrize("written", ["2" * 5000, "0x" + "f" * 5000, "1" * 16, "-" + "9" * 16,
                                     "0b" + "1" * 60, "1:0:0:0:0:0:0:0:0:0"])
def test_a_huge_number_is_located_with_the_right_hint(tmp_path, written):
    path = house(tmp_path, f"end: {{target: {written}}}")
    [problem] = check_variant(path)
    assert (problem.line, problem.column) == (2, 15)
    assert problem.message.startswith("the number ") and "is too large" in problem.message
    assert problem.hint == "a variant never needs a number that large"


def test_a_huge_bid_as_a_key_is_located(tmp_path):
    path = house(tmp_path, f'exchange: {{count_by_bid: {{"{"2" * 200}": 2}}}}')
    [problem] = check_variant(path)
    assert (problem.line, problem.column) == (2, 27)
    assert "is too large: a bid has at most 15 digits" in problem.message


def test_a_tag_is_blamed_only_when_it_was_written(tmp_path):
    tagged = house(tmp_path, "end: {target: !!int abc}")
    assert check_variant(tagged)[0].hint == "remove the tag"
    plain = house(tmp_path, "end: {target: 12345678901234567}", "plain.yaml")
    assert check_variant(plain)[0].hint != "remove the tag"


def test_a_list_longer_than_the_budget_is_refused_before_the_schema(tmp_path):
    colours = ", ".join(f"c{i}" for i in range(19_000))
    path = house(tmp_path, f"deck: {{colours: [{colours}]}}")
    [problem] = check_variant(path)
    assert problem.message == "a list may hold at most 256 items, this one holds 19000"
    assert problem.line == 2 and problem.column == path.read_text().splitlines()[1].index("c256") + 1


def test_a_long_line_is_not_quoted_under_its_message(tmp_path):
    path = tmp_path / "long.yaml"
    path.write_text("format: 1\nx: [" + "1, " * 100 + "]]\n", encoding="utf-8")
    [problem] = check_variant(path)
    assert problem.excerpt is None and "\n" not in str(problem)


# -- two keys naming the same thing --------------------------------------------------------------
@pytest.mark.parametrize("text, message", [
    ('deck: {names: {"1..3": low}}',
     "2:16: '1..3' names 3 ranks, but each key of deck.names gives the long name of one rank"),
    ('scoring: {treasures: {"1..3": 5}}',
     "2:23: '1..3' names 3 ranks, but each key of scoring.treasures gives the points of one rank"),
    ("scoring: {treasures: {h: 1, H: 2}}",
     "2:29: 'H' and 'h' name the same rank (cards are read without regard to case)"),
    ('exchange: {count_by_bid: {"020": 2, 20: 0}}',
     "2:27: '020' and '20' both give the count for the bid 20"),
])
def test_two_keys_naming_the_same_thing_are_a_located_error(tmp_path, text, message):
    path = house(tmp_path, text)
    [problem] = messages(path)
    assert problem.startswith(f"{path}:{message}")


# -- the budget ----------------------------------------------------------------------------------
def test_the_total_plays_of_a_hand_are_bounded_at_the_combination_crossing_the_budget(tmp_path):
    lines = [f"  extra_{i}: {{pattern: 'pair of number|H + 4 singles of any'}}" for i in range(49)]
    path = house(tmp_path, "combinations:\n" + "\n".join(lines))
    [problem] = check_variant(path)
    # the official combinations allow 138 759 plays; each extra one 39 780
    crossing = next(i for i in range(49) if 138_759 + 39_780 * (i + 1) > MAX_TOTAL_PLAYS)
    assert (problem.line, problem.column) == (3 + crossing, 22)
    assert problem.message == (f"with this combination, one hand could list up to {138_759 + 39_780 * (crossing + 1)} "
                               f"plays in all (this one up to 39780); the most a variant may allow is {MAX_TOTAL_PLAYS}")
    fewer = house(tmp_path, "combinations:\n" + "\n".join(lines[:crossing]), "fewer.yaml")
    assert check_variant(fewer) == []


def test_bid_levels_are_bounded(tmp_path):
    levels = ", ".join(str(10 * (i + 1)) for i in range(MAX_BID_LEVELS + 1))
    counts = ", ".join(f"{10 * (i + 1)}: 1" for i in range(MAX_BID_LEVELS + 1))
    path = house(tmp_path, f"bidding: {{levels: [{levels}]}}\nexchange: {{count_by_bid: {{{counts}}}}}")
    [problem] = check_variant(path)
    assert problem.message == f"a variant may offer at most {MAX_BID_LEVELS} bid levels, this one offers 33"
    assert problem.line == 2


# -- patterns ------------------------------------------------------------------------------------
def test_a_pattern_error_never_names_the_parsers_internal_terminals():
    for text in ("pair of any, 7", "single of any, +", "pair of any, distinct, 5", "single of any, ..",
                 "pair of any, ranked 7", "pair of any, not both 7 P"):
        with pytest.raises(PatternError) as raised:
            parse_pattern(text)
        assert "anon" not in raised.value.message.lower() and "_" not in raised.value.message, raised.value.message
    with pytest.raises(PatternError) as raised:
        parse_pattern("pair of any, distinct, 5")
    assert raised.value.message == "found '5', expected 'distinct', 'not', 'ranked', 'wild'"


@pytest.mark.parametrize("text", ["2+ consecutive trios ofnumber", "pair ofnumber", "single of any,distinct",
                                  "single of any, notboth P and C", "5..12 consecutivesingles of number"])
def test_a_keyword_glued_to_a_name_is_an_error(text):
    if text == "single of any,distinct":        # a comma separates: no glue
        assert parse_pattern(text).distinct
        return
    with pytest.raises(PatternError):
        parse_pattern(text)
