"""The pattern language (grammar/pattern.lark): what each pattern means, and the exact
messages and positions of the mistakes people make in one."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chimera_dsl.errors import PatternError, VariantError
from chimera_dsl.language.patterns import Card, Chain, Group, parse_pattern
from chimera_dsl.rules import Rules

OFFICIAL = Path(__file__).resolve().parents[1] / "variants" / "chimera.yaml"
SPEC = yaml.safe_load(OFFICIAL.read_text(encoding="utf-8"))


def shape(pattern) -> tuple:
    """A pattern as plain tuples: its parts, then its clauses."""
    parts = []
    for part in pattern.parts:
        if isinstance(part, Group):
            parts.append(("group", part.count, part.size, part.ranks.text, part.each))
        elif isinstance(part, Chain):
            parts.append(("chain", part.min_length, part.max_length, part.size, part.ranks.text))
        else:
            assert isinstance(part, Card)
            parts.append(("card", part.rank))
    wild = pattern.wild.text if pattern.wild else None
    nb = tuple((a, b) for a, b, _ in pattern.not_both)
    return tuple(parts), pattern.distinct, nb, wild, pattern.ranked_by


# --- the fourteen official patterns, read back ------------------------------------------------
OFFICIAL_SHAPES = {
    "single": ((("group", 1, 1, "any", False),), False, (), None, "core"),
    "pair": ((("group", 1, 2, "number|H", False),), False, (), None, "core"),
    "pair_chain": ((("chain", 3, None, 2, "number"),), False, (), None, "core"),
    "trio": ((("group", 1, 3, "number|H", False),), False, (), None, "core"),
    "trio_chain": ((("chain", 2, None, 3, "number"),), False, (), None, "core"),
    "trio_single": ((("group", 1, 3, "number|H", False), ("group", 1, 1, "any", False)),
                    False, (), None, "core"),
    "trio_pair": ((("group", 1, 3, "number|H", False), ("group", 1, 2, "number|H", False)),
                  False, (), None, "core"),
    "trio_chain_singles": ((("chain", 2, None, 3, "number"), ("group", 1, 1, "any", True)),
                           True, (("P", "C"),), None, "core"),
    "trio_chain_pairs": ((("chain", 2, None, 3, "number"), ("group", 1, 2, "number|H", True)),
                         True, (), None, "core"),
    "straight": ((("chain", 5, 12, 1, "number"),), False, (), "P", "core"),
    "quad_singles": ((("group", 1, 4, "number|H", False), ("group", 2, 1, "any", False)),
                     True, (("P", "C"),), None, "core"),
    "quad_pairs": ((("group", 1, 4, "number|H", False), ("group", 2, 2, "number|H", False)),
                   True, (), None, "core"),
    "bomb": ((("group", 1, 4, "number|H", False),), False, (), None, "core"),
    "flight": ((("card", "P"), ("card", "C")), False, (), None, "highest"),
}


@pytest.mark.parametrize("cid", list(OFFICIAL_SHAPES))
def test_official_patterns_parse_to_what_the_table_says(cid):
    assert shape(parse_pattern(SPEC["combinations"][cid]["pattern"])) == OFFICIAL_SHAPES[cid]


@pytest.mark.parametrize("text, expected", [
    ("pairs of any", ((("group", 1, 2, "any", False),), False, (), None, "core")),
    ("single of 1..12|H", ((("group", 1, 1, "1..12|H", False),), False, (), None, "core")),
    ("3 consecutive pairs of number", ((("chain", 3, 3, 2, "number"),), False, (), None, "core")),
    ("5.. consecutive singles of number", ((("chain", 5, None, 1, "number"),), False, (), None, "core")),
    ("  trio   of number|H+single of any  ", ((("group", 1, 3, "number|H", False),
                                               ("group", 1, 1, "any", False)), False, (), None, "core")),
    ("quad of H + 2 singles of any, not both P and C, not both H and 1",
     ((("group", 1, 4, "H", False), ("group", 2, 1, "any", False)), False, (("P", "C"), ("H", "1")),
      None, "core")),
    ("pair of number, ranked by core", ((("group", 1, 2, "number", False),), False, (), None, "core")),
])
def test_spacing_plurals_ranges_and_repeated_not_both(text, expected):
    assert shape(parse_pattern(text)) == expected


def test_parts_and_rank_items_keep_their_offsets():
    text = "2+ consecutive trios of number + single of any each, distinct, not both P and C"
    pattern = parse_pattern(text)
    core, single = pattern.parts
    assert text[core.offset:].startswith("2+ consecutive")
    assert text[core.ranks.offset:].startswith("number")
    assert text[single.offset:].startswith("single of any")
    assert text[single.ranks.items[0].offset:].startswith("any each")
    assert text[pattern.not_both[0][2]:].startswith("P and C")


# --- mistakes: message, character offset, hint ------------------------------------------------
# (pattern, start of the message, offset of the character at fault, hint or None)
MISTAKES = [
    ("trio of number +", "a '+' must be followed by another part (found the end of the pattern)", 16,
     "e.g. 'trio of number + single of any'"),
    ("pair of", "a rank set must follow 'of' (found the end of the pattern)", 7, "e.g. 'pair of number|H'"),
    ("pair number", "write the rank set after 'of' (found 'number')", 5, "e.g. 'pair of number', not 'pair number'"),
    ("consecutive pairs of number", "a chain needs a length before 'consecutive' (found 'pairs')", 12,
     "e.g. '3+ consecutive pairs of number' or '5..12 consecutive singles'"),
    ("3+ consecutive of number", "'consecutive' must be followed by single(s), pair(s), trio(s) or quad(s) "
     "(found 'of')", 15, "e.g. '2+ consecutive trios of number'"),
    ("single of any, unique", "a clause after ',' must be one of: distinct, not both X and Y, not extending, "
     "at most N per rank, wild SET, ranked by core|highest, same colour (found 'unique')", 15, None),
    ("pair of any, not P and C", "a clause after ','", 17, None),
    ("quintet of number", "a part is a group ('single', 'pair', 'trio', 'quad' or 'N of a kind', then 'of' and "
     "its ranks), 'N cards of' a rank set, a chain or one card (found 'of')", 8,
     "e.g. 'trio of number|H', '5 of a kind of number', '5 cards of number', '3+ consecutive pairs of number' or 'P'"),
    ("225 of a kind of number", "a group holds 1 to 224 cards of one rank (the most a deck may hold), not 225",
     0, None),
    ("225 cards of number", "'N cards' takes 1 to 224 cards (the most a deck may hold), not 225", 0, None),
    ("5-12 consecutive singles of number", "unexpected character '-'", 1, "write a range with two dots: 5..12"),
    ("pair of number & H", "unexpected character '&'", 15, "separate ranks with '|': number|H"),
    ("pair of 1..", "found the end of the pattern, expected a number, a rank or group name", 11, None),
    ("", "the pattern is empty", 0, "e.g. 'pair of number'"),
    ("   ", "the pattern is empty", 0, "e.g. 'pair of number'"),
    ("pair of number, distinct, distinct", "the clause 'distinct' is given twice", 26, None),
    ("pair of H, ranked by core, ranked by highest", "the clause 'ranked by' is given twice", 27, None),
    ("pair of any, not extending, not extending", "the clause 'not extending' is given twice", 28, None),
    ("pair of any, at most 2 per rank, at most 3 per rank", "the clause 'at most N per rank' is given twice",
     33, None),
    ("pair of any, at most 0 per rank", "'at most N per rank' needs N of at least 1", 21, None),
    ("pair of any, at most 3", "write the cap as 'at most N per rank' (found the end of the pattern)", 22,
     "e.g. 'at most 3 per rank'"),
    ("pair of any, at most 3 per", "write the cap as 'at most N per rank'", 26, "e.g. 'at most 3 per rank'"),
    ("pair of any, at 3 per rank", "write the cap as 'at most N per rank' (found '3')", 16,
     "e.g. 'at most 3 per rank'"),
    ("pair of any, at most x per rank", "found 'x', expected a number", 21, None),
    ("pair of any, not extend", "a clause after ','", 17, "did you mean 'extending' for 'extend'?"),
    ("12..5 consecutive singles of number", "the length range 12..5 runs downwards", 0, "write 5..12"),
    ("0 pairs of number", "a count must be at least 1", 0, None),
    ("0+ consecutive pairs of number", "a chain needs at least 1 unit", 0, None),
    ("x" * 301, "a pattern may be at most 300 characters long, this one has 301", 300, None),
]


@pytest.mark.parametrize("text, message, offset, hint", MISTAKES, ids=[m[0][:40] or "empty" for m in MISTAKES])
def test_mistakes_get_a_message_an_offset_and_a_hint(text, message, offset, hint):
    with pytest.raises(PatternError) as caught:
        parse_pattern(text)
    error = caught.value
    assert error.message.startswith(message)
    assert error.offset == offset
    assert error.hint == hint


def test_a_rendered_mistake_puts_a_caret_under_the_character():
    with pytest.raises(PatternError) as caught:
        parse_pattern("pair of number & H")
    lines = str(caught.value).splitlines()
    assert lines[1] == "    pair of number & H"
    assert lines[2] == "    " + " " * 15 + "^"


def test_a_pattern_that_is_not_a_string_is_a_pattern_error():
    with pytest.raises(PatternError, match="a pattern must be a string"):
        parse_pattern(42)


# --- compiling against the deck: names, chains, never-matching patterns -----------------------
def compile_one(pattern: str) -> Rules:
    spec = dict(SPEC)
    spec["combinations"] = {"x": {"pattern": pattern}}
    return Rules.from_spec(spec)


@pytest.mark.parametrize("pattern, message, offset, hint", [
    ("pair of numbr", "unknown rank or group 'numbr'", 8, "did you mean 'number'?"),
    ("pair of X", "unknown rank or group 'X'", 8,
     "known: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, H, P, C, number, any"),
    ("trio of number + single of any, not both P and X", "unknown rank 'X'", 41, None),
    ("single of 12..1", "the range 12..1 runs downwards", 10, None),
    ("3+ consecutive pairs of number|H", "H cannot be part of a chain: not in the deck's sequence", 24,
     "chains run over deck.sequence"),
    ("3+ consecutive singles of any", "H, P, C cannot be part of a chain", 26, "chains run over deck.sequence"),
    ("trio of number + 2 cards of any", "'N cards of' is a whole pattern: it cannot be attached", 17, None),
    ("5 cards of number, wild P", "'wild' does not apply to 'N cards of'", 19, None),
    ("5 cards of 11|12, distinct", "this can never match: the deck holds 2 cards of 11|12 that it may take, "
     "fewer than 5", 0, None),
    ("pair of any, wild P", "a wild rank cannot also be one of the first part's ranks", 18, None),
    ("5+ consecutive singles of number, wild 3", "a wild rank cannot also be one of the first part's ranks", 39, None),
    ("quad of P", "this can never match: no rank of P has 4 cards in the deck", 0, None),
    ("8 of a kind of number", "this can never match: no rank of number has 8 cards in the deck", 0, None),
    ("P + P", "this can never match: no rank of P can be attached", 4, None),
    ("trio of number + pair of P|C", "this can never match: no rank of P|C can be attached", 17, None),
    ("7+ consecutive trios of number", "this chain can never match", 0, None),
    ("trio of number + 40 singles of any", "this can never match: it needs at least 43 cards and a hand "
     "holds at most 20", 0, None),
    ("2 singles of any", "the first part must be a single group (one rank) or a chain", 0,
     "put further groups after '+'"),
    ("trio of number + single of any each", "'each' attaches once per unit of a chain", 17, None),
    ("single of any + 10 singles of any", "this pattern could list up to", 0,
     "narrow its rank sets, lengths or attachments"),
    ("pair of number + single of any, at most 2 per rank, not extending", "'not extending' is about the ranks "
     "next to a chain, but the first part is not a chain", 52, None),
    ("3+ consecutive pairs of number, not extending", "'not extending' is about attached cards, but this "
     "pattern attaches none", 32, "attach parts with '+'"),
    ("trio of number, at most 3 per rank", "'at most N per rank' caps attached cards, but this pattern "
     "attaches none", 16, "attach parts with '+'"),
    ("trio of number + pair of number + single of any, at most 1 per rank", "this can never match: each "
     "attached pair holds 2 cards of one rank, more than 'at most 1 per rank' allows", 17, None),
])
def test_compile_errors_name_the_fault_and_where(pattern, message, offset, hint):
    with pytest.raises(VariantError) as caught:
        compile_one(pattern)
    (problem,) = caught.value.problems
    assert problem.message.startswith(message), problem.message
    assert problem.path == ("combinations", "x", "pattern")
    assert problem.offset == offset
    if hint is not None:
        assert problem.hint == hint


# --- what a pattern means, shown by small house patterns --------------------------------------
def kinds(rules: Rules, cards: str) -> set[tuple[str, int]]:
    return {(p.combination, p.rank) for p in rules.classify(cards)}


@pytest.mark.parametrize("pattern, yes, no", [
    ("pair of number", ["7 7", "12 12"], ["H H", "P C"]),
    ("pair of any", ["H H", "7 7"], ["P C", "7 8"]),
    ("3 consecutive pairs of number", ["3 3 4 4 5 5"], ["3 3 4 4 5 5 6 6", "3 3 4 4"]),
    ("5..6 consecutive singles of number", ["1 2 3 4 5", "1 2 3 4 5 6"], ["1 2 3 4 5 6 7", "1 2 3 4 P"]),
    ("5..12 consecutive singles of number, wild P|H", ["1 2 3 H 5", "1 2 P 4 5", "1 2 P H 5"],
     ["1 2 3 C 5", "1 2 H 4 6 7"]),
    ("trio of number + single of any", ["7 7 7 P", "7 7 7 H"], ["H H H 7", "7 7 7 7"]),
    ("quad of number|H + 2 singles of any, distinct", ["7 7 7 7 P C", "7 7 7 7 1 2"], ["7 7 7 7 2 2"]),
    ("quad of number|H + 2 singles of any", ["7 7 7 7 2 2", "7 7 7 7 P C"], ["7 7 7 7 7 2"]),
    ("2+ consecutive trios of number + pair of number|H each, distinct", ["3 3 3 4 4 4 H H 9 9"],
     ["3 3 3 4 4 4 9 9 9 9"]),
    ("2+ consecutive trios of number + pair of number|H each", ["3 3 3 4 4 4 9 9 9 9"], ["3 3 3 4 4 4 P C"]),
    # the attached cards of one rank, capped (repeats allowed up to the cap)
    ("2+ consecutive trios of number + single of any each", ["3 3 3 4 4 4 5 5 5 6 6 6 8 8 8 8"], []),
    ("2+ consecutive trios of number + single of any each, at most 3 per rank",
     ["3 3 3 4 4 4 5 5 5 6 6 6 8 8 8 9", "3 3 3 4 4 4 9 9"], ["3 3 3 4 4 4 5 5 5 6 6 6 8 8 8 8"]),
    ("2+ consecutive trios of number + single of any each, at most 1 per rank",
     ["3 3 3 4 4 4 9 10"], ["3 3 3 4 4 4 9 9"]),
    ("quad of number + 2 pairs of number, at most 2 per rank", ["7 7 7 7 9 9 10 10"], ["7 7 7 7 9 9 9 9"]),
    # not extending: no attached unit (here a trio) just below or above the chain
    ("2+ consecutive trios of number + single of any each, not extending",
     ["3 3 3 4 4 4 5 5 5 7 7 7", "4 4 4 5 5 5 6 6 6 3 3 H", "10 10 10 11 11 11 12 12 12 H H H"],
     ["3 3 3 4 4 4 5 5 5 6 6 6 7", "4 4 4 5 5 5 6 6 6 3 3 3"]),
    ("2+ consecutive pairs of number + pair of number each, not extending",
     ["3 3 4 4 7 7 8 8", "3 3 4 4 6 6 7 7"], ["3 3 4 4 5 5 7 7"]),
])
def test_patterns_mean_what_they_say(pattern, yes, no):
    rules = compile_one(pattern)
    for cards in yes:
        assert kinds(rules, cards), f"{pattern!r} should match {cards}"
    for cards in no:
        assert not kinds(rules, cards), f"{pattern!r} should not match {cards}"


def test_a_set_that_extends_its_chain_is_read_as_the_longer_chain_only():
    # 3-3-3-4-4-4-5-5-5-6-6-6 as three trios with the 6s attached would extend the chain
    rules = Rules.from_spec({**SPEC, "combinations": {
        "trios": {"pattern": "2+ consecutive trios of number"},
        "trios_singles": {"pattern": "2+ consecutive trios of number + single of any each, not extending"}}})
    assert kinds(rules, "3 3 3 4 4 4 5 5 5 6 6 6") == {("trios", 6)}
    free = Rules.from_spec({**SPEC, "combinations": {
        "trios": {"pattern": "2+ consecutive trios of number"},
        "trios_singles": {"pattern": "2+ consecutive trios of number + single of any each"}}})
    assert kinds(free, "3 3 3 4 4 4 5 5 5 6 6 6") == {("trios", 6), ("trios_singles", 5), ("trios_singles", 6)}


def test_the_new_clauses_are_read_back():
    pattern = parse_pattern("2+ consecutive trios of number + single of any each, at most 3 per rank, "
                            "not extending, not both P and C")
    assert (pattern.at_most, pattern.not_extending) == (3, True)
    assert [name for name, _ in pattern.clauses] == ["at_most", "not_extending", "not_both"]
    assert pattern.clause_offset("not_extending") == 73
    plain = parse_pattern("pair of any")
    assert (plain.at_most, plain.not_extending, plain.clause_offset("at_most")) == (0, False, 0)


def test_ranked_by_decides_the_rank():
    assert kinds(compile_one("P + C"), "P C") == {("x", 14)}
    assert kinds(compile_one("P + C, ranked by highest"), "P C") == {("x", 15)}
    assert kinds(compile_one("trio of number + single of any"), "7 7 7 12") == {("x", 7)}
    assert kinds(compile_one("trio of number + single of any, ranked by highest"), "7 7 7 12") == {("x", 12)}


def test_a_wild_card_in_a_chain_counts_where_it_stands():
    rules = compile_one("3+ consecutive pairs of number, wild P")
    assert kinds(rules, "3 3 4 P 5 5") == {("x", 5)}
    assert kinds(rules, "3 3 4 4 5 P") == {("x", 5)}
    assert kinds(rules, "3 3 4 4 5 5 6 P") == {("x", 6)}      # P is the second 6
    assert kinds(rules, "3 3 4 4 5 5 P") == set()             # seven cards are no chain of pairs
    assert not kinds(rules, "3 3 4 P P 5")                     # the deck holds one P


def test_a_wild_group_reads_each_hand_by_its_own_counts():
    """A trio with the wild card needs two cards of its rank: a hand with one, listed after a
    hand with two, is not offered the other's trio (the cores of a wild group are cached by
    every count up to its size)."""
    rules = compile_one("trio of number, wild P")
    for _ in range(2):
        assert [p.cards for p in rules.leads(rules.cards_key("5 5 P 6"))] == [["5", "5", "P"]]
        assert rules.leads(rules.cards_key("5 P 6")) == ()
        assert rules.leads(rules.cards_key("5 5 5 P")) == tuple(rules.classify("5 5 5")) + tuple(
            rules.classify("5 5 P"))


# --- never a traceback --------------------------------------------------------------------------
WORDS = ["single", "singles", "pair", "pairs", "trio", "trios", "quad", "of", "any", "number", "H", "P",
         "C", "1", "12", "5..12", "3+", "2", "0", "..", "|", "+", ",", "each", "distinct", "not", "both",
         "and", "wild", "ranked", "by", "highest", "core", "consecutive", "99", "-", "&", "é", "x",
         "at", "most", "per", "rank", "extending"]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(WORDS), max_size=14))
def test_any_string_parses_or_is_a_pattern_error_and_compiles_or_is_a_variant_error(words):
    text = " ".join(words)
    try:
        pattern = parse_pattern(text)
    except PatternError as error:
        assert 0 <= error.offset <= len(text)
        return
    assert pattern.parts
    try:
        rules = compile_one(text)
    except VariantError as error:
        assert all(p.path == ("combinations", "x", "pattern") for p in error.problems)
        return
    # a pattern that compiles lists plays from a real hand without failing
    key = rules.cards_key("1 1 2 2 3 3 4 4 5 5 6 7 8 H H P C")
    for play in rules.leads(key):
        assert play.combination == "x"
