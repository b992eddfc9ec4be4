"""What an expression can be, and whether it can fail when it runs (chimera_dsl/language/bounds.py).

The table below reads each expression with fixed ranges: a bid from 20 to 40, a seat's cards
from 0 to 17, a round from 1 up, x from -3 to 3, a fraction f from 0 to 5, a table of 12
numbers.  Each row says the interval the analysis gives and the operations it refuses (their
offsets); the last test plays every accepted row on every corner of its names, to check that
what the analysis accepts never fails, and that the values stay in the interval it gives.
"""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from chimera_dsl.language.bounds import INF, Interval, Ranges, analyse
from chimera_dsl.errors import ExpressionEvaluationError
from chimera_dsl.expressions import Scope, compile_expression

TABLE = (24, 27, 30, 33, 36, 39, 42, 45, 48, 51, 54, 57)
NUMBERS = {"bid": Interval(20, 40), "cards_left": Interval(0, 17), "round": Interval(1, INF),
           "x": Interval(-3, 3), "f": Interval(0, 5, False)}
RANGES = Ranges(numbers=NUMBERS, lists={"table": (Interval(24, 57), len(TABLE))},
                functions={"count": lambda c: Interval(0, 13)})
# the values tried for each name when an accepted expression is played
CORNERS = {"bid": (20, 30, 40), "cards_left": (0, 1, 16, 17), "round": (1, 2, 1000), "x": (-3, -1, 0, 1, 3),
           "f": (0, Fraction(1, 2), 5)}

ROWS = [
    # expression, (lo, hi) of what it can be (None: a condition or refused), offsets refused
    ("20 / (bid - bid)", None, [3]),
    ("bid ^ bid ^ bid", None, [10]),
    ("2 ^ round", None, [2]),
    ("round ^ 2", None, [6]),
    ("2 ^ x", None, [2]),
    ("2 ^ f", None, [2]),
    ("60 / cards_left", None, [3]),
    ("1 / -x", None, [2]),
    ("at(table, bid)", None, [0]),
    ("at(table, cards_left)", None, [0]),
    ("step(cards_left, 7: 1, 10: 2)", None, [0]),
    ("bid * 1000000000 * 1000000000", None, [17]),
    ("1 / (bid - bid) + 2 ^ round", None, [2, 20]),     # every problem, not only the first
    ("if cards_left == 0 then 0 else 60 / cards_left", (0, 60), []),
    ("if cards_left > 0 then 60 / cards_left else 0", (0, 60), []),
    ("if not (cards_left == 0) then 60 / cards_left else 0", (0, 60), []),
    ("if x == 0 or cards_left == 0 then 0 else 1 / cards_left", (0, 1), []),
    ("if x > 0 and cards_left > 0 then 1 / x + 1 / cards_left else 0", (0, 2), []),
    ("60 / max(1, cards_left)", (Fraction(60, 17), 60), []),
    ("1 / (x + 4)", (Fraction(1, 7), 1), []),
    ("1 / (if x > 0 then x else 1)", (Fraction(1, 3), 1), []),
    ("at(table, min(bid - 19, 12))", (24, 57), []),
    ("step(cards_left, 7: 1, else: 2)", (1, 2), []),
    ("bid * 2 ^ (count(bomb) + 1)", (40, 40 * 2 ** 14), []),
    ("-bid + abs(x)", (-40, -17), []),
    ("floor(f) + ceil(f / 2) + round(f)", (0, 13), []),
    ("bid > 30 and x != 0", None, []),
]


@pytest.mark.parametrize("text, interval, refused", ROWS, ids=[row[0] for row in ROWS])
def test_the_analysis_refuses_what_could_fail_and_bounds_the_rest(text, interval, refused):
    value, problems = analyse(text, RANGES)
    assert [p.offset for p in problems] == refused
    if interval is not None:
        assert (value.lo, value.hi) == interval


def test_a_refusal_says_why_and_what_to_write():
    (problem,) = analyse("20 / (bid - bid)", RANGES)[1]
    assert problem.message == "this can divide by zero: the divisor can be 0 (it can be from -20 to 20)"
    assert "max(1, ...)" in problem.hint
    (problem,) = analyse("bid ^ bid ^ bid", RANGES)[1]
    assert problem.message == "the result of '^' can be beyond 10^18 in size: the base can be 40 and the exponent 40"
    (problem,) = analyse("at(table, bid)", RANGES)[1]
    assert problem.message == "at() can ask for element from 20 to 40 of 'table', which has 12 (counted from 1)"


ACCEPTED = [row for row in ROWS if not row[2]]


@pytest.mark.parametrize("text, interval, refused", ACCEPTED, ids=[row[0] for row in ACCEPTED])
def test_what_the_analysis_accepts_runs_on_every_corner_within_its_interval(text, interval, refused):
    from chimera_dsl.expressions import Function
    scope = Scope(numbers=set(NUMBERS), lists={"table"}, identifiers={"combination": {"bomb"}},
                  functions=[Function("count", ("combination",), lambda env, c: env["_count"])])
    expr = compile_expression(text, scope, expect="bool" if interval is None else "number")
    for values in itertools.product(*CORNERS.values(), (0, 13)):
        env = dict(zip(CORNERS, values[:-1]), table=TABLE, _count=values[-1])
        try:
            value = expr.evaluate(env)
        except ExpressionEvaluationError as error:      # the analysis accepted what fails
            pytest.fail(f"{text} fails with {env}: {error}")
        if interval is not None:
            assert interval[0] <= value <= interval[1], (text, env, value)
