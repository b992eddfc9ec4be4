"""What values an expression can take, and whether it can fail when it runs.

An expression that compiles can still fail on values: a division by zero, a power beyond the
bounds of numbers (10^18) or with an exponent outside 0..64, ``at()`` asked for an element a
table does not have, ``step()`` given a number above its last bound with no ``else``.  The
loader knows the range of every name an expression reads (a bid lies between the lowest and
the highest level, a seat holds at most a hand of cards...), so it can tell, before any game
is played, whether such a failure is possible: :func:`analyse` walks the expression's parse
tree once with intervals (the lowest and highest value each part can take, and whether it is
always whole) and reports every operation that could fail, at its character.

The analysis is sound and simple, not exact: an operation is refused when the intervals of its
operands allow a failure, even if the values that would cause it never occur together
(``bid - bid`` lies between the lowest level minus the highest and the reverse, so it can be
0).  A condition on one name narrows it in the branches of an ``if``: in
``if cards_left == 0 then 0 else 60 / cards_left`` the divisor lies between 1 and a hand.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

from lark import Token, Tree

from ..errors import Problem
from .expressions import LIMIT, MAX_EXPONENT, _parser

INF = math.inf


@dataclass(frozen=True)
class Interval:
    """The values a number can take: from ``lo`` to ``hi`` (``-inf``/``inf``: no bound), and
    whether it is always a whole number."""

    lo: Any
    hi: Any
    whole: bool = True

    def has(self, value) -> bool:
        """Can the number be ``value``?"""
        return self.lo <= value <= self.hi

    @property
    def bounded(self) -> bool:
        """Has it both a lowest and a highest value?"""
        return self.lo != -INF and self.hi != INF

    def text(self) -> str:
        """The values in words: ``from 1 to 12``, ``1 or more``, ``any number``."""
        low, high = self.lo != -INF, self.hi != INF
        if low and high:
            return f"from {self.lo} to {self.hi}" if self.lo != self.hi else str(self.lo)
        if low:
            return f"{self.lo} or more"
        return f"{self.hi} or less" if high else "any number"


ANY = Interval(-INF, INF, False)
FAILED = Interval(-INF, INF, False)     # a part already refused: what contains it is not checked again
BOOL = None                     # the "interval" of a condition


def exact(value) -> Interval:
    """The interval of one value."""
    return Interval(value, value, isinstance(value, int) or getattr(value, "denominator", 1) == 1)


@dataclass
class Ranges:
    """What the names an expression reads can be.  A name left out can be any number."""

    numbers: dict[str, Interval] = field(default_factory=dict)
    lists: dict[str, tuple[Interval, int | None]] = field(default_factory=dict)   # elements, length
    # a caller function (count, plays_by...): its interval, from its identifier arguments
    functions: dict[str, Callable[..., Interval]] = field(default_factory=dict)


def analyse(text: str, ranges: Ranges) -> tuple[Interval | None, list[Problem]]:
    """The interval of the expression ``text`` (None for a condition) under ``ranges``, and a
    problem (with its character offset) for each operation that could fail.  ``text`` has
    compiled: its names and types are right."""
    walk = _Walk(ranges)
    tree = _parser().parse(text)
    value = walk.node(tree.children[0], dict(ranges.numbers))
    return value, walk.problems


def _offset(item: Any) -> int:
    return (item.start_pos or 0) if isinstance(item, Token) else item.meta.start_pos


# -- interval arithmetic --------------------------------------------------------------------------
def _mul(a, b):
    if a == 0 or b == 0:
        return 0
    return a * b


def _corners(op: Callable, a: Interval, b: Interval, whole: bool) -> Interval:
    values = [op(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
    values = [v for v in values if not (isinstance(v, float) and math.isnan(v))]
    return Interval(min(values), max(values), whole)


def _join(a: Interval | None, b: Interval | None) -> Interval | None:
    if a is None or b is None:
        return None
    if a is FAILED or b is FAILED:
        return FAILED
    return Interval(min(a.lo, b.lo), max(a.hi, b.hi), a.whole and b.whole)


def _over(v) -> bool:
    return v not in (INF, -INF) and abs(v) > LIMIT


class _Walk:
    def __init__(self, ranges: Ranges):
        self.ranges = ranges
        self.problems: list[Problem] = []

    def problem(self, message: str, offset: int, hint: str | None = None) -> None:
        self.problems.append(Problem(message, offset=offset, hint=hint))

    # -- the walk
    def node(self, item: Any, names: dict) -> Interval | None:
        if isinstance(item, Token):
            if item.type == "NUMBER":
                value = Fraction(str(item)) if "." in item else int(item)
                return exact(int(value) if value == int(value) else value)
            if item.type in ("TRUE", "FALSE"):
                return BOOL
            return names.get(str(item), ANY) if str(item) not in self.ranges.lists else ANY
        data = str(item.data)
        children = item.children
        if data == "if_expr":
            condition, then, otherwise = children[1:]
            self.node(condition, names)
            yes = self.node(then, _narrowed(condition, names, True))
            no = self.node(otherwise, _narrowed(condition, names, False))
            return _join(yes, no)
        if data in ("and_expr", "or_expr", "comparison"):
            for child in children[::2]:
                self.node(child, names)
            return BOOL
        if data == "not_op":
            self.node(children[1], names)
            return BOOL
        if data == "neg":
            a = self.node(children[1], names) or ANY
            return a if a is FAILED else Interval(-a.hi, -a.lo, a.whole)
        if data in ("sum", "product", "power"):
            return self.chain(item, names)
        if data == "call":
            return self.call(item, names)
        return ANY

    def chain(self, tree: Tree, names: dict) -> Interval:
        children = tree.children
        value = self.node(children[0], names) or ANY
        for symbol, operand in zip(children[1::2], children[2::2]):
            other = self.node(operand, names) or ANY
            value = self.operation(str(symbol), value, other, _offset(symbol))
        return value

    def operation(self, symbol: str, a: Interval, b: Interval, offset: int) -> Interval:
        if a is FAILED or b is FAILED:
            return FAILED
        whole = a.whole and b.whole
        if symbol == "+":
            result = Interval(a.lo + b.lo, a.hi + b.hi, whole)
        elif symbol == "-":
            result = Interval(a.lo - b.hi, a.hi - b.lo, whole)
        elif symbol == "*":
            result = _corners(_mul, a, b, whole)
        elif symbol == "/":
            if b.has(0):
                self.problem(f"this can divide by zero: the divisor can be 0 (it can be {b.text()})", offset,
                             hint="divide by something that is never 0, e.g. max(1, ...), or test it first: "
                                  "if X == 0 then ... else ... / X")
                return FAILED
            inverse = Interval(Fraction(1) / b.hi if b.hi != INF else 0, Fraction(1) / b.lo if b.lo != -INF else 0)
            return self.bounded(_corners(_mul, a, inverse, False), "/", offset)
        else:
            return self.power(a, b, offset)
        return self.bounded(result, symbol, offset)

    def bounded(self, value: Interval, symbol: str, offset: int) -> Interval:
        if _over(value.lo) or _over(value.hi):
            self.problem(f"the result of '{symbol}' can be beyond 10^18 in size (it can be {value.text()})",
                         offset, hint="keep the values smaller")
            return FAILED
        return value

    def power(self, base: Interval, exponent: Interval, offset: int) -> Interval:
        if not exponent.whole or exponent.lo < 0 or exponent.hi > MAX_EXPONENT:
            self.problem(f"the exponent of '^' can be {exponent.text()}"
                         f"{'' if exponent.whole else ', not always a whole number'}; it must be a whole "
                         f"number from 0 to {MAX_EXPONENT}", offset,
                         hint="bound the exponent, e.g. min(EXPONENT, 10)")
            return FAILED
        if not base.bounded and exponent.hi > 0:
            self.problem(f"the result of '^' can grow without bound: the base can be {base.text()}", offset,
                         hint="raise a bounded value, e.g. 2 ^ min(N, 10)")
            return FAILED
        top = max(abs(base.lo), abs(base.hi))
        magnitude = top ** exponent.hi if top >= 1 else (top ** exponent.lo if top else 0)
        if _over(magnitude):
            self.problem(f"the result of '^' can be beyond 10^18 in size: the base can be {top} and the exponent "
                         f"{exponent.hi}", offset, hint="bound the base or the exponent")
            return FAILED
        if base.lo >= 0:
            low = min(base.lo ** exponent.lo, base.lo ** exponent.hi)
            return Interval(low, max(base.hi ** exponent.hi, base.hi ** exponent.lo, low), base.whole)
        return Interval(-magnitude, magnitude, base.whole)

    # -- calls
    def call(self, tree: Tree, names: dict) -> Interval | None:
        name_token, args = tree.children[0], tree.children[1:]
        name = str(name_token)
        offset = _offset(name_token)
        if name == "step":
            return self.step(args, names, offset)
        if name in ("at", "count_at_most"):
            return self.lookup(name, args, names, offset)
        if name in ("abs", "floor", "ceil", "round"):
            a = self.node(args[0], names) or ANY
            if a is FAILED:
                return FAILED
            if name == "abs":
                low = 0 if a.has(0) else min(abs(a.lo), abs(a.hi))
                return Interval(low, max(abs(a.lo), abs(a.hi)), a.whole)
            # round() halves away from zero: it lies between the floor and the ceiling
            down: Callable = math.ceil if name == "ceil" else math.floor
            up: Callable = math.floor if name == "floor" else math.ceil
            return Interval(down(a.lo) if a.lo != -INF else -INF, up(a.hi) if a.hi != INF else INF, True)
        if name in ("max", "min", "sum"):
            if len(args) == 1 and isinstance(args[0], Token) and str(args[0]) in self.ranges.lists:
                element, length = self.ranges.lists[str(args[0])]
                if name != "sum":
                    return element
                if length is None:
                    return Interval(-INF if element.lo < 0 else 0, INF if element.hi > 0 else 0, element.whole)
                return self.bounded(Interval(length * element.lo, length * element.hi, element.whole), "sum", offset)
            values = [self.node(arg, names) or ANY for arg in args]
            if any(v is FAILED for v in values):
                return FAILED
            if name == "sum":
                total = values[0]
                for value in values[1:]:
                    total = self.operation("+", total, value, offset)
                return total
            pick = max if name == "max" else min
            return Interval(pick(v.lo for v in values), pick(v.hi for v in values), all(v.whole for v in values))
        function = self.ranges.functions.get(name)
        identifiers = [str(a) for a in args if isinstance(a, Token) and a.type == "NAME"]
        for arg in args:
            if not (isinstance(arg, Token) and arg.type == "NAME"):
                self.node(arg, names)
        return function(*identifiers) if function is not None else ANY

    def lookup(self, name: str, args: list, names: dict, offset: int) -> Interval:
        table = str(args[0]) if isinstance(args[0], Token) else None
        element, length = self.ranges.lists.get(table or "", (ANY, None))
        x = self.node(args[1], names) or ANY
        if name == "count_at_most":
            return Interval(0, INF if length is None else length, True)
        if x is not FAILED and length is not None and (not x.whole or x.lo < 1 or x.hi > length):
            self.problem(f"at() can ask for element {x.text()}{'' if x.whole else ' (not always whole)'} of "
                         f"'{table}', which has {length} (counted from 1)", offset,
                         hint="give the table an entry for every value, or bound the position: "
                              f"at({table}, min(N, {length}))")
        return element

    def step(self, args: list, names: dict, offset: int) -> Interval | None:
        x = self.node(args[0], names) or ANY
        values: list[Interval | None] = []
        top = None
        otherwise = False
        for arg in args[1:]:
            if arg.data == "else_case":
                otherwise = True
                values.append(self.node(arg.children[0], names))
            else:
                bound = self.node(arg.children[0], names)
                top = bound.hi if bound is not None else top
                values.append(self.node(arg.children[1], names))
        if x is not FAILED and not otherwise and top is not None and x.hi > top:
            self.problem(f"step() has no case above its last bound, {top}, and its number can be {x.text()}",
                         offset, hint="add a last case 'else: VALUE'")
        if any(v is FAILED for v in values):
            return FAILED
        result = values[0]
        for value in values[1:]:
            result = _join(result, value)
        return result


# -- a condition narrows the names it tests -------------------------------------------------------
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_NOT = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


def _constant(item: Any):
    if isinstance(item, Token) and item.type == "NUMBER":
        value = Fraction(str(item))
        return int(value) if value == int(value) else value
    if isinstance(item, Tree) and item.data == "neg":
        inner = _constant(item.children[1])
        return None if inner is None else -inner
    return None


def _narrowed(condition: Any, names: dict, holds: bool) -> dict:
    """``names`` with the names ``condition`` compares to a constant narrowed, where it holds
    (``holds``) or where it does not."""
    if isinstance(condition, Tree) and condition.data == "not_op":
        return _narrowed(condition.children[1], names, not holds)
    if isinstance(condition, Tree) and condition.data in ("and_expr", "or_expr"):
        # (a and b) holding, or (a or b) failing, narrows by each part; the other cases by none
        if (condition.data == "and_expr") == holds:
            for part in condition.children[::2]:
                names = _narrowed(part, names, holds)
        return names
    if not (isinstance(condition, Tree) and condition.data == "comparison"):
        return names
    left, symbol, right = condition.children
    symbol = str(symbol)
    if isinstance(left, Token) and left.type == "NAME" and _constant(right) is not None:
        name, value = str(left), _constant(right)
    elif isinstance(right, Token) and right.type == "NAME" and _constant(left) is not None:
        name, value, symbol = str(right), _constant(left), _FLIP[symbol]
    else:
        return names
    if name not in names:
        return names
    if not holds:
        symbol = _NOT[symbol]
    known: Interval = names[name]
    lo, hi = known.lo, known.hi
    step = 1 if known.whole else 0
    if symbol == "==":
        lo, hi = max(lo, value), min(hi, value)
    elif symbol == "!=":
        if known.whole and value == lo:
            lo = lo + 1
        if known.whole and value == hi:
            hi = hi - 1
    elif symbol in (">", ">="):
        edge = (math.floor(value) + step if symbol == ">" and known.whole else
                math.ceil(value) if known.whole else value)
        lo = max(lo, edge)
    else:
        edge = (math.ceil(value) - step if symbol == "<" and known.whole else
                math.floor(value) if known.whole else value)
        hi = min(hi, edge)
    return {**names, name: Interval(lo, hi, known.whole)}
