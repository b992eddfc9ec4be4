"""The expression language (grammar/expression.lark, chimera_dsl/language/expressions.py): values of
valid expressions, exact messages and offsets of invalid ones, evaluation errors, and
properties against an independent evaluator written here."""
from __future__ import annotations

import pickle
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from chimera_dsl.errors import ChimeraError, ExpressionError, ExpressionEvaluationError
from chimera_dsl.language.expressions import (LIMIT, MAX_DEPTH, MAX_NODES, Expression, Function, Scope,
                                     compile_expression)


def count(env, combination):
    """The number of plays of a combination this round (the test's own fact)."""
    return env["plays"].get(combination, 0)


def points(env, seat):
    return env["totals"][seat]


def seated(env, totals):
    return len(totals)


def half(env, x):
    return Fraction(x, 2)


def broken(env):
    """A caller function that returns the wrong type."""
    return "seven"


def broken_flag(env):
    return 1


COMBINATIONS = {"bomb", "rocket", "flight", "pair", "single"}
SCOPE = Scope(
    numbers={"bid", "round", "target", "bombs", "flight", "idle_hunter", "cards_left", "spring", "zero",
             "big", "seven"},
    bools={"won", "lost"},
    lists={"totals", "empty"},
    functions=[Function("count", ("combination",), count),
               Function("points", ("number",), points),
               Function("seats", ("list",), seated),
               Function("half", ("number",), half),
               Function("broken", (), broken, returns="number"),
               Function("is_done", (), broken_flag, returns="bool")],
    identifiers={"combination": COMBINATIONS},
)
ENV = {"bid": 40, "round": 3, "target": 1000, "bombs": 2, "flight": 1, "idle_hunter": 0, "cards_left": 6,
       "spring": 1, "zero": 0, "big": 10 ** 10, "seven": 7, "won": True, "lost": False,
       "totals": [120, -40, 985], "empty": [], "plays": {"bomb": 2, "rocket": 1}}

CHIMERA = "if won then 2 * bid + 25 * bombs + 25 * flight + 25 * idle_hunter else -bid"
DOU_DIZHU = "bid * 2 ^ (count(bomb) + count(rocket) + spring)"
GANG_OF_FOUR = "cards_left * step(cards_left, 7: 1, 10: 2, 13: 3, 15: 4, else: 5)"


def value(text: str, expect: str = "number", **changes):
    return compile_expression(text, SCOPE, expect).evaluate({**ENV, **changes})


# --- the three games' expressions -------------------------------------------------------------------

@pytest.mark.parametrize("won, expected", [(True, 80 + 50 + 25), (False, -40)])
def test_chimera_bidder_score(won, expected):
    assert value(CHIMERA, won=won) == expected


@pytest.mark.parametrize("bombs, rockets, spring, expected", [
    (0, 0, 0, 40), (1, 0, 0, 80), (2, 1, 1, 40 * 16), (0, 0, 1, 80), (5, 1, 1, 40 * 2 ** 7)])
def test_dou_dizhu_stake_doubles_per_bomb_rocket_and_spring(bombs, rockets, spring, expected):
    assert value(DOU_DIZHU, plays={"bomb": bombs, "rocket": rockets}, spring=spring) == expected


@pytest.mark.parametrize("cards_left, expected", [
    (0, 0), (1, 1), (6, 6), (7, 7), (8, 16), (10, 20), (11, 33), (13, 39), (14, 56), (15, 60), (16, 80)])
def test_gang_of_four_penalty_brackets(cards_left, expected):
    assert value(GANG_OF_FOUR, cards_left=cards_left) == expected


# --- a table of valid expressions ------------------------------------------------------------------

VALID = [
    ("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("10 - 4 - 3", 3), ("2 * 3 / 4", Fraction(3, 2)),
    ("12 / 4 / 3", 1), ("7 / 2", Fraction(7, 2)), ("0.5 * 4", 2), ("0.25 + 0.5", Fraction(3, 4)),
    ("2 ^ 3 ^ 2", 512), ("(2 ^ 3) ^ 2", 64), ("-2 ^ 2", -4), ("(-2) ^ 2", 4), ("2 ^ -(-3)", 8),
    ("2 ^ 0", 1), ("0 ^ 0", 1), ("0.5 ^ 2", Fraction(1, 4)), ("- - 3", 3), ("-bid", -40),
    ("2 ^ 59 / 2 ^ 55", 16), ("min(3, 1, 2)", 1), ("max(bid, round)", 40), ("max(7)", 7),
    ("max(totals)", 985), ("min(totals)", -40), ("sum(totals)", 1065), ("sum(1, 2, 3)", 6),
    ("sum(empty)", 0), ("abs(-3)", 3), ("abs(0.5 - 1)", Fraction(1, 2)), ("floor(7 / 2)", 3),
    ("floor(-7 / 2)", -4), ("ceil(7 / 2)", 4), ("ceil(-7 / 2)", -3), ("round(2.5)", 3),
    ("round(-2.5)", -3), ("round(2.4)", 2), ("round(-2.6)", -3), ("round(7)", 7), ("round + 1", 4),
    ("round(round / 2)", 2), ("count(bomb) + count(pair)", 2), ("points(2) - points(0)", 865),
    ("seats(totals)", 3), ("half(seven)", Fraction(7, 2)), ("half(8)", 4),
    ("if won then 1 else 2", 1), ("if lost then 1 else if won then 2 else 3", 2),
    ("if won then if lost then 1 else 5 else 3", 5), ("(if won then 1 else 2) + 10", 11),
    ("step(5, 1: 10, 5: 20, 9: 30)", 20), ("step(5.5, 1: 10, 5: 20, 9: 30)", 30),
    ("step(-3, -2: 1, else: 2)", 1), ("step(0.5, 0.25: 1, 0.75: 2)", 2), ("step(100, 1: 1, else: 7)", 7),
    ("step(1, 1: 2 ^ 3, else: 0)", 8), ("step(1 + 1, 1 + 1: 3)", 3),
    ("at(totals, 1)", 120), ("at(totals, round)", 985), ("at(totals, 4 / 2) + 1", -39),
    ("count_at_most(totals, 120)", 2), ("count_at_most(totals, -41)", 0), ("count_at_most(empty, 5)", 0),
    ("count_at_most(totals, 985) + at(totals, 1)", 123),
    ("999999999999999999 + 1", 10 ** 18), ("-999999999999999999 - 1", -10 ** 18),
    ("big * 1000 / big", 1000), ("1 / 3 + 2 / 3", 1),
]

VALID_BOOL = [
    ("round >= 12", False), ("round >= 3", True), ("max(totals) >= target", False),
    ("max(totals) >= target - 15", True), ("1 < 2 and 2 < 3", True), ("not won", False),
    ("not not won", True), ("not 1 > 2", True), ("won or lost and false", True),
    ("(won or lost) and false", False), ("won == true", True), ("won != lost", True),
    ("1 == 1.0", True), ("0.1 + 0.2 == 0.3", True), ("1 / 3 * 3 == 1", True), ("true", True),
    ("if won then lost else won", False), ("step(round, 2: false, else: true)", True),
    ("lost and is_done()", False),
    ("count(bomb) >= 2 or round >= 12", True), ("lost or lost or won", True), ("won and won and lost", False),
    ("lost or not won or 2 * (if won then 1 else 0) == 2", True),
]


@pytest.mark.parametrize("text, expected", VALID)
def test_valid_number_expressions(text, expected):
    result = value(text)
    assert result == expected
    assert type(result) is type(expected)      # whole numbers come back as int, others as Fraction


@pytest.mark.parametrize("text, expected", VALID_BOOL)
def test_valid_bool_expressions(text, expected):
    assert value(text, "bool") is expected


def test_names_and_functions_used_are_what_the_engine_must_compute():
    expression = compile_expression(CHIMERA, SCOPE)
    assert expression.names == {"won", "bid", "bombs", "flight", "idle_hunter"}
    assert expression.functions_used == frozenset()
    stake = compile_expression(DOU_DIZHU, SCOPE)
    assert stake.names == {"bid", "spring"}
    assert stake.functions_used == {("count", "bomb"), ("count", "rocket")}
    assert compile_expression("points(round) + seats(totals)", SCOPE).functions_used == {("points",), ("seats",)}
    assert compile_expression("max(totals) >= target", SCOPE, "bool").names == {"totals", "target"}
    assert compile_expression("round(1.5)", SCOPE).names == frozenset()
    assert stake.text == DOU_DIZHU and stake.type == "number"


def test_only_the_branch_taken_is_read():
    expression = compile_expression("if won then bid else round", SCOPE)
    assert expression.evaluate({"won": False, "round": 2}) == 2


def test_a_compiled_expression_pickles_by_its_text():
    expression = compile_expression(DOU_DIZHU, SCOPE)
    copy = pickle.loads(pickle.dumps(expression))
    assert isinstance(copy, Expression) and copy.text == DOU_DIZHU
    assert copy.evaluate(ENV) == expression.evaluate(ENV) == 640


def test_a_value_and_a_function_may_share_a_name():
    assert value("round(round * 1.5)") == 5       # round = 3: 4.5 rounds away from zero


# --- a table of invalid expressions: exact message and offset ------------------------------------------

KNOWN = "bid, big, bombs, cards_left, empty, flight, idle_hunter, lost, round, seven, spring, target, totals, won, zero"
FUNCTIONS = "abs, at, broken, ceil, count, count_at_most, floor, half, is_done, max, min, points, round, seats, step, sum"
PLAYS = "bomb, flight, pair, rocket, single"

INVALID = [
    # names, functions, identifiers
    ("bidd * 2", "unknown name 'bidd'", 0, f"did you mean 'bid'? known names: {KNOWN}"),
    ("2 * xyzzy", "unknown name 'xyzzy'", 4, f"known names: {KNOWN}"),
    ("cout(bomb)", "unknown function 'cout'", 0, f"did you mean 'count'? known functions: {FUNCTIONS}"),
    ("count(bomm)", "'bomm' is not a combination", 6, f"did you mean 'bomb'? a combination is one of: {PLAYS}"),
    ("count(1)", "count() takes one combination name here, written bare", 6, None),
    ("count(bomb, pair)", "count() takes 1 argument (combination), not 2", 0, None),
    ("bid(2)", "'bid' is a number, not a function", 0, None),
    ("count + 1", "'count' is a function: call it with its arguments in brackets", 0, "e.g. count(...)"),
    # types
    ("if 3 then 1 else 2", "'if' needs a condition; this is a number", 3, None),
    ("bid + won", "'+' needs a number; 'won' is a condition", 6, None),
    ("won * 2", "'*' needs a number; 'won' is a condition", 0, None),
    ("-won", "'-' needs a number; 'won' is a condition", 1, None),
    ("not bid", "'not' needs a condition; 'bid' is a number", 4, None),
    ("won and 1", "'and' needs a condition; this is a number", 8, None),
    ("1 == won", "'==' compares two numbers or two conditions; the left side is a number, 'won' is a condition",
     5, None),
    ("if won then 1 else true",
     "'then' and 'else' must both be numbers or both conditions; 'then' gives a number, 'else' a condition", 19, None),
    ("won", "the expression must give a number; 'won' is a condition", 0, None),
    ("abs(won)", "abs() needs a number; 'won' is a condition", 4, None),
    ("half(won)", "half() needs a number; 'won' is a condition", 5, None),
    ("seats(bid)", "seats() takes a list here; 'bid' is a number", 6, None),
    # lists
    ("totals + 1", "'totals' is a list of numbers: use it inside max(), min(), sum(), at() or count_at_most()", 0, "e.g. max(totals)"),
    ("abs(totals)", "'totals' is a list of numbers: use it inside max(), min(), sum(), at() or count_at_most()", 4, "e.g. max(totals)"),
    ("max(1, totals)", "max() takes several numbers or exactly one list; 'totals' is a list", 7, None),
    ("sum()", "sum() needs one list or at least one number", 0, None),
    # step
    ("step(bid, 10: 1, 10: 2)", "the bounds of step() must increase: 10 comes after 10", 17, None),
    ("step(bid, 10: 1, 5: 2, else: 3)", "the bounds of step() must increase: 5 comes after 10", 17, None),
    ("step(bid, round: 1)", "a bound of step() must be a constant number", 10, None),
    ("step(bid, else: 1, 3: 2)", "'else' must be the last case of step()", 10, None),
    ("step(bid, else: 1)", "step() needs at least one case 'BOUND: VALUE'", 0,
     "step(x, BOUND: VALUE, ..., else: VALUE)"),
    ("step(bid, 3)", "after its first argument, step() takes cases 'BOUND: VALUE'", 10,
     "step(x, BOUND: VALUE, ..., else: VALUE)"),
    ("step(1: 2)", "step() needs the number to look up first", 0, "step(x, BOUND: VALUE, ..., else: VALUE)"),
    ("step(bid, 1: 1, 2: won)",
     "the values of step() must all be numbers or all conditions; the first is a number, 'won' is a condition", 19,
     None),
    ("max(bid, 1: 2)", "only step() takes 'BOUND: VALUE' cases, not max()", 9, None),
    # syntax
    ("(bid + 1", "this '(' is never closed", 0, None),
    ("bid + 1)", "this ')' closes no '('", 7, None),
    ("1 < 2 < 3", "comparisons do not chain (found '<')", 6, "write 'a < b and b < c'"),
    ("2 ** 3", "found '**'", 2, "write a power with '^': 2 ^ n"),
    ("2 bid", "found 'bid' where an operator was expected", 2, "put an operator between two values, e.g. '2 * x'"),
    ("if won then 1", "found the end of the expression, expected 'else'", 13,
     "write 'if CONDITION then VALUE else VALUE'"),
    ("bid +  ", "found the end of the expression, expected a value", 5, None),
    ("max(1,)", "found ')', expected a value", 6, None),
    ("won == not lost", "the keyword 'not' cannot stand here", 7, "put 'not ...' in brackets"),
    ("won or or lost", "the keyword 'or' cannot stand here", 7, None),
    ("else", "the keyword 'else' cannot stand here", 0, None),
    ("bid then 2", "found 'then', expected the end", 4, None),
    ("if won then 1 else 2 else 3", "found 'else', expected the end", 21, None),
    ("bid = 40", "unexpected character '='", 4, "compare with '=='"),
    ("won && lost", "unexpected character '&'", 4, "write 'and'"),
    ("Bid", "unexpected character 'B'", 0, "names are written in lowercase"),
    (".5", "unexpected character '.'", 0, "write a decimal with digits on both sides of the point: 0.5"),
    ("", "the expression is empty", 0, "e.g. '2 * bid' or 'round >= 12'"),
    ("   ", "the expression is empty", 0, "e.g. '2 * bid' or 'round >= 12'"),
    # bounds
    ("1" * 19, "a number may have at most 18 digits, this one has 19", 0, None),
    ("1 + 1234567890.123456789", "a number may have at most 18 digits, this one has 19", 4, None),
    ("1" * 2001, "an expression may be at most 2000 characters long, this one has 2001", 2000, None),
    ("(" * 33 + "1" + ")" * 33, "more than 32 brackets are open at once", 32, None),
    ("-" * 33 + "1", "the expression nests more than 32 levels deep", 32,
     "each operation inside another counts one level: 1 + 2 * 3 has two"),
    ("+".join(["1"] * 151), f"an expression may have at most {MAX_NODES} parts (numbers, names, operators, calls "
     "and ifs), this one has 301", 300, None),
    ("at(bid, 1)", "at() takes a list first; 'bid' is a number", 3, "at(LIST, N)"),
    ("at(totals)", "at() takes a list and a number, not 1 argument", 0, "at(LIST, N)"),
    ("count_at_most(totals, totals)", "'totals' is a list of numbers: use it inside max(), min(), sum(), at() "
     "or count_at_most()", 22, "e.g. max(totals)"),
    ("at(totals, 1: 2)", "only step() takes 'BOUND: VALUE' cases, not at()", 11, None),
    ("count_at_most(totals, won)", "count_at_most() needs a number; 'won' is a condition", 22, None),
    # constant parts are computed when compiling, so their failures are found then
    ("1 / (2 - 2)", "division by zero", 2, None),
    ("2 ^ 65", "the exponent of '^' must be a whole number from 0 to 64, not 65", 2, None),
    ("10 ^ 19", "the result of '^' is beyond 10^18 in size", 3, None),
]


@pytest.mark.parametrize("text, message, offset, hint", INVALID)
def test_invalid_expressions_report_message_offset_and_hint(text, message, offset, hint):
    with pytest.raises(ExpressionError) as caught:
        compile_expression(text, SCOPE)
    error = caught.value
    assert (error.message, error.offset, error.hint) == (message, offset, hint)
    assert error.text == text and len(error.problems) == 1


def test_a_bool_expression_must_give_a_condition():
    with pytest.raises(ExpressionError) as caught:
        compile_expression("max(totals)", SCOPE, "bool")
    assert (caught.value.message, caught.value.offset) == ("the expression must give a condition; this is a number", 0)


def test_every_problem_is_reported_in_one_compile_in_text_order():
    with pytest.raises(ExpressionError) as caught:
        compile_expression("tagret + bdi * count(bomm) + (if 1 then won else 2)", SCOPE)
    found = [(p.message, p.offset) for p in caught.value.problems]
    assert found == [("unknown name 'tagret'", 0), ("unknown name 'bdi'", 9),
                     ("'bomm' is not a combination", 21),
                     ("'if' needs a condition; this is a number", 33),
                     ("'then' and 'else' must both be numbers or both conditions; 'then' gives a condition, "
                      "'else' a number", 49)]
    assert caught.value.message == "unknown name 'tagret'"


def test_an_error_points_at_the_character_in_its_line():
    text = "2 * bid\n  + bdi"
    with pytest.raises(ExpressionError) as caught:
        compile_expression(text, SCOPE)
    assert caught.value.offset == 12
    assert str(caught.value).splitlines()[1:] == ["      + bdi", "        ^"]


def test_an_error_in_a_long_expression_shows_the_text_around_it():
    text = "1 + " * 30 + "bdi" + " + 1" * 30
    with pytest.raises(ExpressionError) as caught:
        compile_expression(text, SCOPE)
    assert caught.value.offset == 120
    excerpt, caret = str(caught.value).splitlines()[1:]
    assert excerpt == "    ..." + text[80:160] + "..."
    assert caret.index("^") == excerpt.index("bdi")


def test_errors_survive_pickling_with_their_fields():
    with pytest.raises(ExpressionError) as caught:
        compile_expression("bdi + tagret", SCOPE)
    copy = pickle.loads(pickle.dumps(caught.value))
    assert (copy.message, copy.offset, copy.text, len(copy.problems)) == ("unknown name 'bdi'", 0, "bdi + tagret", 2)
    failure = ExpressionEvaluationError("division by zero", 4, "bid / zero")
    copy2 = pickle.loads(pickle.dumps(failure))
    assert (copy2.message, copy2.offset, copy2.text) == ("division by zero", 4, "bid / zero")


def test_a_text_that_is_not_a_string_is_a_compile_error():
    with pytest.raises(ExpressionError, match="an expression must be a string, not a int"):
        compile_expression(25, SCOPE)  # type: ignore[arg-type]


# --- evaluation errors -------------------------------------------------------------------------------

EVALUATION_ERRORS = [
    ("bid / zero", {}, "division by zero", 4),
    ("bid / (round - 3)", {}, "division by zero", 4),
    ("2 ^ seven", {"seven": 65}, "the exponent of '^' must be a whole number from 0 to 64, not 65", 2),
    ("2 ^ (0 - seven)", {}, "the exponent of '^' must be a whole number from 0 to 64, not -7", 2),
    ("2 ^ (seven / 2)", {}, "the exponent of '^' must be a whole number from 0 to 64, not 7/2", 2),
    ("big * big", {}, "the result of '*' is beyond 10^18 in size", 4),
    ("big * 10000000 * 1000 + 1", {}, "the result of '*' is beyond 10^18 in size", 15),
    ("1 / big / big", {}, "the result of '/' is a fraction whose numerator or denominator is beyond 10^18", 8),
    ("bid + 1", {"bid": 10 ** 19}, "the value of 'bid' is beyond 10^18 in size", 0),
    ("bid + 1", {"bid": 1.5}, "the value of 'bid' is a float, not a number (an int or a Fraction)", 0),
    ("bid + 1", {"bid": True}, "the value of 'bid' is a bool, not a number (an int or a Fraction)", 0),
    ("if won then 1 else 2", {"won": 1}, "the value of 'won' is a int, not a bool", 3),
    ("max(totals)", {"totals": "abc"}, "the value of 'totals' is a str, not a list of numbers", 4),
    ("max(totals)", {"totals": [1, 2.5]}, "an element of 'totals' is a float, not a number (an int or a Fraction)", 4),
    ("max(empty)", {}, "max() of an empty list 'empty'", 0),
    ("sum(totals)", {"totals": [LIMIT, LIMIT]}, "the sum of 'totals' is beyond 10^18 in size", 0),
    ("step(cards_left, 7: 1, 10: 2)", {"cards_left": 11},
     "step() has no case for 11: it is above the last bound, 10, and there is no 'else'", 0),
    ("broken() + 1", {}, "the value of broken() is a str, not a number (an int or a Fraction)", 0),
    ("at(totals, round + 1)", {}, "at() asks for element 4 of 'totals', which has 3 (counted from 1)", 0),
    ("1 + at(totals, zero)", {}, "at() asks for element 0 of 'totals', which has 3 (counted from 1)", 4),
    ("at(totals, seven / 2)", {}, "at() asks for element 7/2 of 'totals', which has 3 (counted from 1)", 0),
    ("at(empty, 1)", {}, "at() asks for element 1 of 'empty', which has 0 (counted from 1)", 0),
]


@pytest.mark.parametrize("text, changes, message, offset", EVALUATION_ERRORS)
def test_evaluation_errors_name_the_expression_and_the_operation(text, changes, message, offset):
    expression = compile_expression(text, SCOPE)
    with pytest.raises(ExpressionEvaluationError) as caught:
        expression.evaluate({**ENV, **changes})
    error = caught.value
    assert (error.message, error.offset, error.text) == (message, offset, text)
    assert str(error).startswith(f"{message}, in the expression {text!r}")


def test_a_missing_value_and_a_malformed_bool_result_are_evaluation_errors():
    with pytest.raises(ExpressionEvaluationError, match="no value was given for 'bid'"):
        compile_expression("bid + 1", SCOPE).evaluate({})
    with pytest.raises(ExpressionEvaluationError, match=r"the value of is_done\(\) is a int, not a bool"):
        compile_expression("is_done()", SCOPE, "bool").evaluate(ENV)


def test_evaluation_errors_are_chimera_errors():
    assert issubclass(ExpressionEvaluationError, ChimeraError) and issubclass(ExpressionError, ChimeraError)


# --- declaring a scope ---------------------------------------------------------------------------------

@pytest.mark.parametrize("make, message", [
    (lambda: Scope(numbers={"Bid"}), "the number name 'Bid' cannot be written in an expression"),
    (lambda: Scope(numbers={"if"}), "the number name 'if' is a keyword of expressions"),
    (lambda: Scope(numbers={"x"}, bools={"x"}), "the name 'x' is declared twice"),
    (lambda: Scope(functions=[Function("max", ("number",), abs)]), "'max' is a built-in function"),
    (lambda: Scope(functions=[Function("f", ("team",), abs)]), "the function 'f' takes a 'team'"),
    (lambda: Scope(functions=[Function("f", (), abs, returns="list")]), "the function 'f' returns 'list'"),
    (lambda: Scope(identifiers={"number": {"a"}}), "an identifier set cannot be called 'number'"),
])
def test_a_malformed_scope_is_refused(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_expect_must_be_a_type():
    with pytest.raises(ValueError, match="expect must be 'number' or 'bool'"):
        compile_expression("1", SCOPE, "list")


# --- properties: random well-typed trees against an independent evaluator --------------------------------

NUMBER_NAMES = {"a": 3, "b": -2, "c": 0, "d": 7}
BOOL_NAMES = {"p": True, "q": False}
LISTS = {"xs": [4, -1, 9], "nil": []}
PROPERTY_SCOPE = Scope(numbers=set(NUMBER_NAMES), bools=set(BOOL_NAMES), lists=set(LISTS))
PROPERTY_ENV = {**NUMBER_NAMES, **BOOL_NAMES, **LISTS}


class Failed(Exception):
    """The reference evaluator's evaluation error."""


def bounded(x):
    x = Fraction(x)
    if abs(x.numerator) > LIMIT or x.denominator > LIMIT:
        raise Failed
    return x


def reference(node):
    """The value of a generated tree, computed directly (Failed on an evaluation error)."""
    kind = node[0]
    if kind == "lit":
        return node[1]
    if kind == "name":
        return NUMBER_NAMES[node[1]] if node[1] in NUMBER_NAMES else BOOL_NAMES[node[1]]
    if kind == "neg":
        return -reference(node[1])
    if kind == "bin":
        op, x, y = node[1], reference(node[2]), reference(node[3])
        if op == "+":
            return bounded(x + y)
        if op == "-":
            return bounded(x - y)
        if op == "*":
            return bounded(x * y)
        if op == "/":
            if y == 0:
                raise Failed
            return bounded(Fraction(x) / y)
        if Fraction(y).denominator != 1 or not 0 <= y <= 64:
            raise Failed
        return bounded(Fraction(x) ** int(y))
    if kind == "fn":
        x = Fraction(reference(node[2]))
        if node[1] == "abs":
            return abs(x)
        if node[1] == "floor":
            return x.numerator // x.denominator
        if node[1] == "ceil":
            return -(-x.numerator // x.denominator)
        whole = abs(x).numerator * 2 + abs(x).denominator
        return (whole // (2 * abs(x).denominator)) * (1 if x >= 0 else -1)
    if kind == "agg":
        values = [reference(arg) for arg in node[2]]
        return {"max": max, "min": min}[node[1]](values)
    if kind == "list":
        values = LISTS[node[2]]
        if node[1] == "sum":
            return sum(values)
        if not values:
            raise Failed
        return {"max": max, "min": min}[node[1]](values)
    if kind == "if":
        return reference(node[2]) if reference(node[1]) else reference(node[3])
    if kind == "step":
        x = reference(node[1])
        for bound, result in node[2]:
            if x <= bound:
                return reference(result)
        if node[3] is None:
            raise Failed
        return reference(node[3])
    if kind == "cmp":
        x, y = reference(node[2]), reference(node[3])
        return {"==": x == y, "!=": x != y, "<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[node[1]]
    if kind == "not":
        return not reference(node[1])
    if kind == "and":
        return reference(node[1]) and reference(node[2])
    assert kind == "or"
    return reference(node[1]) or reference(node[2])


def children(node):
    kind = node[0]
    if kind in ("lit", "name", "list"):
        return []
    if kind in ("neg", "not"):
        return [node[1]]
    if kind in ("bin", "cmp"):
        return [node[2], node[3]]
    if kind == "fn":
        return [node[2]]
    if kind == "agg":
        return list(node[2])
    if kind == "step":
        return [node[1], *[v for _, v in node[2]], *([node[3]] if node[3] is not None else [])]
    return list(node[1:])


def constant_failure(node):
    """Whether a part without names fails on its own: compiling computes those parts."""
    def reads(n):
        return n[0] in ("name", "list") or any(reads(c) for c in children(n))

    def fails(n):
        try:
            reference(n)
        except Failed:
            return True
        return False
    return (not reads(node) and fails(node)) or any(constant_failure(c) for c in children(node))


LEVEL = {"if": 0, "or": 1, "and": 2, "not": 3, "cmp": 4, "+": 5, "-": 5, "*": 6, "/": 6, "neg": 7, "^": 8}


def render(node):
    """Text with only the brackets the grammar needs; (text, binding level, 9 for atoms)."""
    def wrap(child, least):
        text, level = render(child)
        return f"({text})" if level < least else text
    kind = node[0]
    if kind == "lit":
        x = node[1]
        if isinstance(x, bool):
            return ("true" if x else "false"), 9
        if isinstance(x, Fraction):
            return f"{x.numerator // x.denominator}.{(x.numerator % x.denominator) * 100 // x.denominator:02d}", 9
        return str(x), 9
    if kind == "name":
        return node[1], 9
    if kind == "neg":
        return "-" + wrap(node[1], 7), 7
    if kind == "bin":
        op = node[1]
        if op == "^":
            return f"{wrap(node[2], 9)} ^ {wrap(node[3], 7)}", 8
        return f"{wrap(node[2], LEVEL[op])} {op} {wrap(node[3], LEVEL[op] + 1)}", LEVEL[op]
    if kind == "fn":
        return f"{node[1]}({render(node[2])[0]})", 9
    if kind == "agg":
        return f"{node[1]}({', '.join(render(a)[0] for a in node[2])})", 9
    if kind == "list":
        return f"{node[1]}({node[2]})", 9
    if kind == "if":
        return f"if {render(node[1])[0]} then {render(node[2])[0]} else {render(node[3])[0]}", 0
    if kind == "step":
        cases = [f"{render(('lit', b))[0] if b >= 0 else '-' + render(('lit', -b))[0]}: {render(v)[0]}"
                 for b, v in node[2]]
        if node[3] is not None:
            cases.append(f"else: {render(node[3])[0]}")
        return f"step({render(node[1])[0]}, {', '.join(cases)})", 9
    if kind == "cmp":
        return f"{wrap(node[2], 5)} {node[1]} {wrap(node[3], 5)}", 4
    if kind == "not":
        return "not " + wrap(node[1], 3), 3
    return f"{wrap(node[1], LEVEL[kind])} {kind} {wrap(node[2], LEVEL[kind] + 1)}", LEVEL[kind]


def depth(node):
    inner = max((depth(c) for c in children(node)), default=0)
    return inner + (0 if node[0] in ("lit", "name") else 1)


literal_numbers = st.one_of(st.integers(0, 30), st.integers(0, 999).map(lambda n: Fraction(n, 100)))
number_leaves = st.one_of(literal_numbers.map(lambda x: ("lit", x)), st.sampled_from(sorted(NUMBER_NAMES)).map(
    lambda n: ("name", n)), st.tuples(st.just("list"), st.sampled_from(["max", "min", "sum"]),
                                      st.sampled_from(sorted(LISTS))))
bool_leaves = st.one_of(st.booleans().map(lambda b: ("lit", b)), st.sampled_from(sorted(BOOL_NAMES)).map(
    lambda n: ("name", n)))


simple_bools = st.one_of(bool_leaves, st.tuples(st.just("cmp"), st.sampled_from(["==", "!=", "<", "<=", ">", ">="]),
                                                number_leaves, number_leaves))
conditions = st.one_of(simple_bools, st.tuples(st.sampled_from(["and", "or"]), simple_bools, simple_bools),
                       st.tuples(st.just("not"), simple_bools))


def steps(numbers):
    bounds = st.lists(st.integers(-20, 40), min_size=1, max_size=4, unique=True).map(sorted)
    return bounds.flatmap(lambda bs: st.tuples(
        st.just("step"), numbers, st.tuples(*[st.tuples(st.just(b), numbers) for b in bs]),
        st.one_of(st.none(), numbers)))


def extend_numbers(numbers):
    small_exponents = st.one_of(st.integers(0, 4).map(lambda x: ("lit", x)), numbers)
    return st.one_of(
        st.tuples(st.just("neg"), numbers),
        st.tuples(st.just("bin"), st.sampled_from(["+", "-", "*", "/"]), numbers, numbers),
        st.tuples(st.just("bin"), st.just("^"), numbers, small_exponents),
        st.tuples(st.just("fn"), st.sampled_from(["abs", "floor", "ceil", "round"]), numbers),
        st.tuples(st.just("agg"), st.sampled_from(["max", "min"]), st.lists(numbers, min_size=1, max_size=3)),
        st.tuples(st.just("if"), conditions, numbers, numbers),
        steps(numbers),
    )


number_trees = st.recursive(number_leaves, extend_numbers, max_leaves=12)
bool_trees = st.recursive(
    simple_bools,
    lambda bools: st.one_of(
        st.tuples(st.just("not"), bools), st.tuples(st.just("and"), bools, bools),
        st.tuples(st.just("or"), bools, bools),
        st.tuples(st.just("cmp"), st.sampled_from(["==", "!="]), bools, bools),
        st.tuples(st.just("cmp"), st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), number_trees, number_trees),
        st.tuples(st.just("if"), bools, bools, bools)),
    max_leaves=8)


def check_against_reference(tree, expect):
    assume(depth(tree) <= MAX_DEPTH)
    text = render(tree)[0]
    try:
        expected = reference(tree)
    except Failed:
        expected = Failed
    if constant_failure(tree):
        with pytest.raises(ExpressionError):
            compile_expression(text, PROPERTY_SCOPE, expect)
        return
    expression = compile_expression(text, PROPERTY_SCOPE, expect)
    if expected is Failed:
        with pytest.raises(ExpressionEvaluationError):
            expression.evaluate(PROPERTY_ENV)
    else:
        result = expression.evaluate(PROPERTY_ENV)
        assert result == expected, text
        assert type(result) is (bool if expect == "bool" else int if Fraction(expected).denominator == 1
                                else Fraction), text


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number_trees)
def test_random_number_trees_match_the_reference_evaluator(tree):
    check_against_reference(tree, "number")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bool_trees)
def test_random_bool_trees_match_the_reference_evaluator(tree):
    check_against_reference(tree, "bool")


TOKENS = ["1", "0.5", "18", "a", "b", "p", "q", "xs", "nil", "zz", "+", "-", "*", "/", "^", "(", ")", ",", ":",
          "==", "<", ">=", "!=", "and", "or", "not", "if", "then", "else", "true", "false", "max", "min", "sum",
          "step", "abs", "round", "=", "&", "**", ".", "\n", "é", "A", "999999999999999999999", "2 ^ 64"]


def compile_and_run(text):
    for expect in ("number", "bool"):
        try:
            expression = compile_expression(text, PROPERTY_SCOPE, expect)
        except ExpressionError as error:
            assert 0 <= error.offset <= len(text) and error.problems
            continue
        try:
            expression.evaluate(PROPERTY_ENV)
        except ExpressionEvaluationError as error:
            assert 0 <= error.offset < len(text)


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=60))
def test_any_text_compiles_or_is_a_compile_error(text):
    compile_and_run(text)


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=25).map(" ".join))
def test_any_sequence_of_tokens_compiles_or_is_a_compile_error(text):
    compile_and_run(text)


@pytest.mark.parametrize("text", [
    "-" * 1999 + "1", "not " * 499 + "p", "2 ^ " * 499 + "2", "(" * 1000 + ")" * 1000,
    "if p then " * 200 + "1" + " else 2" * 200, "max(" * 400 + "1" + ")" * 400, "a" * 2000,
])
def test_deep_or_long_input_is_a_located_error_never_a_recursion_error(text):
    with pytest.raises(ExpressionError) as caught:
        compile_expression(text, PROPERTY_SCOPE)
    assert 0 <= caught.value.offset <= len(text)


@settings(max_examples=300, deadline=None)
@given(st.integers(-10 ** 6, 10 ** 6), st.integers(-50, 50),
       st.sampled_from(["floor(x / y)", "ceil(x / y)", "floor((x + 3) / y) - ceil(x / (y * 2))"]))
def test_floor_and_ceil_of_a_division_read_as_the_fraction_would(x, y, text):
    """floor(x / y) and ceil(x / y) of whole numbers are read without making the fraction: the
    same number as through it, and the same fault on a division by zero."""
    import math
    expression = compile_expression(text, Scope(numbers={"x", "y"}))
    env = {"x": x, "y": y}
    if y == 0 or (text.startswith("floor((") and y * 2 == 0):
        with pytest.raises(ExpressionEvaluationError, match="division by zero"):
            expression.evaluate(env)
        return
    expected = {"floor(x / y)": math.floor(Fraction(x, y)), "ceil(x / y)": math.ceil(Fraction(x, y)),
                "floor((x + 3) / y) - ceil(x / (y * 2))":
                    math.floor(Fraction(x + 3, y)) - math.ceil(Fraction(x, y * 2))}[text]
    assert expression.evaluate(env) == expected and type(expression.evaluate(env)) is int


def test_floor_of_a_division_of_fractions_still_reads_the_fraction():
    expression = compile_expression("floor(x / y)", Scope(numbers={"x", "y"}))
    assert expression.evaluate({"x": Fraction(7, 2), "y": 2}) == 1
    assert expression.evaluate({"x": 7, "y": Fraction(1, 3)}) == 21
