"""Expressions: the small language in which variant files write scores and ends of games.

An expression is parsed with the grammar in ``grammar/expression.lark`` (installed as
``chimera_dsl.grammar``), checked against a :class:`Scope` (the names, per-seat lists and
functions its caller provides, with their types) and compiled once into nested closures.
Every problem is found at compile time, with its character offset; evaluating costs a few
microseconds and only fails on values (division by zero, a value out of bounds).  Nothing is
ever handed to Python's ``eval``.  docs/expressions.md describes the language.

>>> scope = Scope(numbers={"bid"}, bools={"won"})
>>> expression = compile_expression("if won then 2 * bid else -bid", scope, expect="number")
>>> expression.evaluate({"bid": 40, "won": False})
-40
"""
from __future__ import annotations

import difflib
import functools
import math
import operator
import weakref
import re
from bisect import bisect_left
from collections.abc import Callable, Collection, Mapping, Set
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources
from typing import Any, NamedTuple

from lark import Lark, Token, Tree, UnexpectedCharacters, UnexpectedInput

from ..errors import ExpressionError, ExpressionEvaluationError, Problem

MAX_LENGTH = 2000        # characters of text
MAX_NODES = 300          # numbers, names, true/false, operators, calls and ifs
MAX_DEPTH = 32           # operations inside operations; also brackets open at once
MAX_DIGITS = 18          # digits of a number written in the text
MAX_EXPONENT = 64        # the right side of ^ is a whole number 0..64
LIMIT = 10 ** 18         # every value (and numerator, denominator) lies within -LIMIT..LIMIT

TYPES = ("number", "bool")
KEYWORDS = frozenset({"if", "then", "else", "and", "or", "not", "true", "false"})
BUILTINS = ("abs", "at", "ceil", "count_at_most", "floor", "max", "min", "round", "step", "sum")
_LOOKUPS = {"at": "at(LIST, N)", "count_at_most": "count_at_most(LIST, X)"}

Number = int | Fraction
Value = int | Fraction | bool
Env = Mapping[str, Any]
_Run = Callable[[Env], Any]

_NAME = re.compile(r"[a-z_][a-z0-9_]*\Z")
_PHRASE = {"number": "a number", "bool": "a condition", "list": "a list of numbers"}
_EMPTY: dict[str, Any] = {}


# --- what the caller declares ----------------------------------------------------------------

@dataclass(frozen=True)
class Function:
    """A function the caller offers to expressions.

    ``args`` gives each argument's kind: ``"number"``, ``"bool"``, ``"list"`` (one of the
    scope's lists), or the name of one of the scope's identifier sets (the argument is then
    one identifier from that set, written bare: ``count(bomb)``).  ``call(env, *args)``
    receives the evaluation environment, then the arguments (identifiers as strings), and
    returns a number (int or Fraction) or a bool, as ``returns`` says.
    """

    name: str
    args: tuple[str, ...]
    call: Callable[..., Any]
    returns: str = "number"


@dataclass(frozen=True)
class Scope:
    """The names an expression may read, with their types, and the functions it may call.

    ``numbers`` and ``bools`` are single values, ``lists`` are lists of numbers (one per
    seat, say); ``identifiers`` maps a kind of identifier (``"combination"``) to the
    identifiers of that kind, for functions that take one.  A value and a function may share
    a name (``round`` the number, ``round(x)`` the function): a call is a name followed by
    ``(``.  A malformed scope raises ``ValueError``.
    """

    numbers: Set[str] = frozenset()
    bools: Set[str] = frozenset()
    lists: Set[str] = frozenset()
    functions: Collection[Function] = ()
    identifiers: Mapping[str, Set[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "numbers", frozenset(self.numbers))
        object.__setattr__(self, "bools", frozenset(self.bools))
        object.__setattr__(self, "lists", frozenset(self.lists))
        object.__setattr__(self, "functions", tuple(self.functions))
        object.__setattr__(self, "identifiers", {k: frozenset(v) for k, v in self.identifiers.items()})
        seen: set[str] = set()
        for kind, names in (("number", self.numbers), ("bool", self.bools), ("list", self.lists)):
            for name in sorted(names):
                _check_declared_name(name, f"the {kind} name")
                if name in seen:
                    raise ValueError(f"the name {name!r} is declared twice in an expression scope")
                seen.add(name)
        for kind in self.identifiers:
            if kind in ("number", "bool", "list"):
                raise ValueError(f"an identifier set cannot be called {kind!r}: that is an argument type")
        declared: set[str] = set()
        for function in self.functions:
            _check_declared_name(function.name, "the function name")
            if function.name in BUILTINS:
                raise ValueError(f"{function.name!r} is a built-in function of expressions")
            if function.name in declared:
                raise ValueError(f"the function {function.name!r} is declared twice in an expression scope")
            declared.add(function.name)
            if function.returns not in TYPES:
                raise ValueError(f"the function {function.name!r} returns {function.returns!r}; "
                                 f"it must return 'number' or 'bool'")
            for kind in function.args:
                if kind not in ("number", "bool", "list") and kind not in self.identifiers:
                    raise ValueError(f"the function {function.name!r} takes a {kind!r}, which is neither "
                                     f"number, bool, list nor an identifier set of the scope")

    def kind_of(self, name: str) -> str | None:
        """``"number"``, ``"bool"`` or ``"list"`` for a declared name, else None."""
        for kind, names in (("number", self.numbers), ("bool", self.bools), ("list", self.lists)):
            if name in names:
                return kind
        return None


def _check_declared_name(name: object, what: str) -> None:
    if not isinstance(name, str) or not _NAME.match(name):
        raise ValueError(f"{what} {name!r} cannot be written in an expression (lowercase letters, "
                         f"digits and '_', not starting with a digit)")
    if name in KEYWORDS:
        raise ValueError(f"{what} {name!r} is a keyword of expressions")


# --- the compiled expression -----------------------------------------------------------------

class Expression:
    """A compiled expression.

    ``text`` is its source, ``type`` is ``"number"`` or ``"bool"``, ``names`` the names it may
    read, ``functions_used`` the caller functions it may call, each as a tuple of the
    function's name and its identifier arguments (``("count", "bomb")``).
    """

    __slots__ = ("text", "type", "scope", "names", "functions_used", "_run")

    def __init__(self, text: str, type_: str, scope: Scope, names: frozenset[str],
                 functions_used: frozenset[tuple[str, ...]], run: _Run):
        self.text = text
        self.type = type_
        self.scope = scope
        self.names = names
        self.functions_used = functions_used
        self._run = run

    @property
    def run(self) -> _Run:
        """The compiled closure itself: ``run(env)`` is :meth:`evaluate`'s value, for a caller
        that evaluates many times in a loop; it raises :class:`EvaluationFault`, which
        :meth:`failed` turns into the error :meth:`evaluate` raises."""
        return self._run

    def failed(self, fault: "_Fault") -> ExpressionEvaluationError:
        """The error :meth:`evaluate` raises for ``fault`` (raised by :attr:`run`)."""
        return ExpressionEvaluationError(fault.message, fault.offset, self.text)

    def evaluate(self, env: Env) -> Value:
        """The value under ``env`` (name -> int, Fraction, bool or list of numbers).

        A number comes back as an int when it is whole, else as a Fraction.  Raises
        :class:`ExpressionEvaluationError` on a division by zero, a value out of bounds, a
        missing or malformed value, or a ``step`` without ``else`` given too large a number.
        """
        try:
            return self._run(env)
        except _Fault as fault:
            raise ExpressionEvaluationError(fault.message, fault.offset, self.text) from None

    def __repr__(self) -> str:
        return f"Expression({self.text!r}, type={self.type!r})"

    def __reduce__(self) -> tuple:
        # closures do not pickle: a copy is compiled again from the text (process pools, Dask)
        return compile_expression, (self.text, self.scope, self.type)


class _Fault(Exception):
    """An evaluation failure inside the closures; ``Expression.evaluate`` adds the text."""

    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.message = message
        self.offset = offset


EvaluationFault = _Fault
"""What :attr:`Expression.run` raises on a value it cannot compute (see :meth:`Expression.failed`)."""


# --- checking values at run time --------------------------------------------------------------

def _bounded(value: Number, offset: int, what: str) -> Number:
    """``value`` as an int when whole, after checking it (and its numerator, denominator)."""
    if isinstance(value, int) and not isinstance(value, bool):
        if -LIMIT <= value <= LIMIT:
            return int(value)
        raise _Fault(f"{what} is beyond 10^18 in size", offset)
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return _bounded(value.numerator, offset, what)
        if -LIMIT <= value.numerator <= LIMIT and value.denominator <= LIMIT:
            return value
        raise _Fault(f"{what} is a fraction whose numerator or denominator is beyond 10^18", offset)
    raise _Fault(f"{what} is a {type(value).__name__}, not a number (an int or a Fraction)", offset)


_AND: dict[int, Callable[..., _Run]] = {
    2: lambda a, b: lambda env: a(env) and b(env),
    3: lambda a, b, c: lambda env: a(env) and b(env) and c(env),
    4: lambda a, b, c, d: lambda env: a(env) and b(env) and c(env) and d(env),
}
_OR: dict[int, Callable[..., _Run]] = {
    2: lambda a, b: lambda env: a(env) or b(env),
    3: lambda a, b, c: lambda env: a(env) or b(env) or c(env),
    4: lambda a, b, c, d: lambda env: a(env) or b(env) or c(env) or d(env),
}


def _reader(name: str, kind: str, offset: int) -> _Run:
    """The closure that reads one name from the environment, checking its value."""
    missing = f"no value was given for '{name}'"
    if kind == "number":
        what = f"the value of '{name}'"

        def read(env: Env) -> Any:
            try:
                value = env[name]
            except KeyError:
                raise _Fault(missing, offset) from None
            if type(value) is int and -LIMIT <= value <= LIMIT:
                return value
            return _bounded(value, offset, what)
    elif kind == "bool":
        def read(env: Env) -> Any:
            try:
                value = env[name]
            except KeyError:
                raise _Fault(missing, offset) from None
            if value is True or value is False:
                return value
            raise _Fault(f"the value of '{name}' is a {type(value).__name__}, not a bool", offset)
    else:
        def read(env: Env) -> Any:
            try:
                values = env[name]
            except KeyError:
                raise _Fault(missing, offset) from None
            if not isinstance(values, (list, tuple)):
                raise _Fault(f"the value of '{name}' is a {type(values).__name__}, not a list of numbers", offset)
            if all(type(v) is int and -LIMIT <= v <= LIMIT for v in values):
                return values
            return [_bounded(v, offset, f"an element of '{name}'") for v in values]
    return read


def _bare_number(arg: Any) -> str | None:
    """The text of a whole number written alone (``10``), or None."""
    while isinstance(arg, Tree) and len(arg.children) == 1:
        arg = arg.children[0]
    if isinstance(arg, Token) and arg.type != "NAME" and str(arg).isdigit():
        return str(arg)
    return None


def _constant(value: Any) -> _Run:
    return lambda env: value


# --- arithmetic and functions as closures --------------------------------------------------------

def _arithmetic(symbol: str, left: _Node, right: _Node, offset: int) -> _Run:
    """The closure of one operation; a constant operand of + - * is taken once, now."""
    a, b = left.run, right.run
    lo, hi = -LIMIT, LIMIT
    what = f"the result of '{symbol}'"
    if symbol in "+-*":
        combine = {"+": operator.add, "-": operator.sub, "*": operator.mul}[symbol]
        if right.constant or (left.constant and symbol != "-"):    # + and * commute
            side, k = (a, b(_EMPTY)) if right.constant else (b, a(_EMPTY))
            node = left if right.constant else right
            if node.name is not None and node.kind == "number":      # a name and a constant: one closure
                read_value = _value_reader(node.name, node.offset)

                def run(env: Env) -> Any:
                    try:
                        x = env[name]
                    except KeyError:
                        x = read_value(env)
                    if type(x) is not int or not lo <= x <= hi:
                        x = read_value(env)
                    v = combine(x, k)
                    if type(v) is int and lo <= v <= hi:
                        return v
                    return _bounded(v, offset, what)
                name = node.name
            else:
                def run(env: Env) -> Any:
                    v = combine(side(env), k)
                    if type(v) is int and lo <= v <= hi:
                        return v
                    return _bounded(v, offset, what)
        elif left.name is not None and right.name is not None and left.kind == right.kind == "number":
            read_left, read_right = _value_reader(left.name, left.offset), _value_reader(right.name, right.offset)
            first, second = left.name, right.name

            def run(env: Env) -> Any:                     # two names: read in one closure
                x = env.get(first)
                if type(x) is not int or not lo <= x <= hi:
                    x = read_left(env)
                y = env.get(second)
                if type(y) is not int or not lo <= y <= hi:
                    y = read_right(env)
                v = combine(x, y)
                if type(v) is int and lo <= v <= hi:
                    return v
                return _bounded(v, offset, what)
        else:
            def run(env: Env) -> Any:
                v = combine(a(env), b(env))
                if type(v) is int and lo <= v <= hi:
                    return v
                return _bounded(v, offset, what)
    elif symbol == "/":
        def run(env: Env) -> Any:
            x, y = a(env), b(env)
            if not y:
                raise _Fault("division by zero", offset)
            if type(x) is int and type(y) is int:
                quotient, remainder = divmod(x, y)
                if not remainder:
                    return quotient
                return _bounded(Fraction(x, y), offset, what)
            return _bounded(Fraction(x) / y, offset, what)
        _DIVISIONS[run] = (a, b)      # floor(x / y), ceil(x / y) of whole numbers: no fraction made
    else:
        def run(env: Env) -> Any:
            x, e = a(env), b(env)
            if type(e) is not int or not 0 <= e <= MAX_EXPONENT:
                raise _Fault(f"the exponent of '^' must be a whole number from 0 to {MAX_EXPONENT}, not {e}",
                             offset)
            return _bounded(x ** e, offset, what)
    return run


def _value_reader(name: str, offset: int) -> _Run:
    """What :func:`_reader` reads of a number name: its value, or the fault it raises (a fused
    closure's slow path, when the value is missing or not a plain int within bounds)."""
    return _reader(name, "number", offset)


def _comparison(symbol: str, left: _Node, right: _Node) -> _Run:
    """The closure of one comparison.  Its usual form, a name against a constant number
    (``tricks_taken >= 3``), reads the name itself: one call where there were three."""
    compare, ra, rb = _COMPARE[symbol], left.run, right.run
    if right.constant:
        k = rb(_EMPTY)
        if left.name is not None and left.kind == "number":
            name, offset = left.name, left.offset
            missing, what = f"no value was given for '{name}'", f"the value of '{name}'"
            lo, hi = -LIMIT, LIMIT

            def run(env: Env) -> Any:           # _reader's checks, then the comparison
                try:
                    value = env[name]
                except KeyError:
                    raise _Fault(missing, offset) from None
                if type(value) is not int or not lo <= value <= hi:
                    value = _bounded(value, offset, what)
                return compare(value, k)
            return run
        return lambda env: compare(ra(env), k)
    if left.constant:
        k = ra(_EMPTY)
        return lambda env: compare(k, rb(env))
    if left.name is not None and right.name is not None and left.kind == right.kind == "number":
        read_left, read_right = _value_reader(left.name, left.offset), _value_reader(right.name, right.offset)
        first, second = left.name, right.name
        lo, hi = -LIMIT, LIMIT

        def both(env: Env) -> Any:                 # two names compared: read in one closure
            x = env.get(first)
            if type(x) is not int or not lo <= x <= hi:
                x = read_left(env)
            y = env.get(second)
            if type(y) is not int or not lo <= y <= hi:
                y = read_right(env)
            return compare(x, y)
        return both
    return lambda env: compare(ra(env), rb(env))


def _round_half_away(x: Number) -> int:
    if isinstance(x, int):
        return x
    magnitude = (2 * abs(x.numerator) + x.denominator) // (2 * x.denominator)
    return magnitude if x.numerator >= 0 else -magnitude


# each compiled division, by its closure: its two operands (kept while the closure lives)
_DIVISIONS: "weakref.WeakKeyDictionary[_Run, tuple[_Run, _Run]]" = weakref.WeakKeyDictionary()

_ONE_NUMBER: dict[str, Callable[[Any], Any]] = {
    "abs": abs, "floor": math.floor, "ceil": math.ceil, "round": _round_half_away,
}
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge}


# --- parsing --------------------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def _parser() -> Lark:
    text = resources.files("chimera_dsl.grammar").joinpath("expression.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", propagate_positions=True, maybe_placeholders=False)


_READABLE = {
    "NUMBER": "a number", "NAME": "a name", "TRUE": "'true'", "FALSE": "'false'", "LPAR": "'('",
    "RPAR": "')'", "COMMA": "','", "COLON": "':'", "PLUS": "'+'", "MINUS": "'-'", "STAR": "'*'",
    "SLASH": "'/'", "CARET": "'^'", "COMP_OP": "a comparison", "AND": "'and'", "OR": "'or'",
    "NOT": "'not'", "IF": "'if'", "THEN": "'then'", "ELSE": "'else'", "$END": "the end",
}
_OPERATORS = {"PLUS", "MINUS", "STAR", "SLASH", "CARET", "COMP_OP", "AND", "OR"}
_VALUE_START = {"NUMBER", "NAME", "TRUE", "FALSE", "LPAR", "NOT", "IF"}

_CHARACTER_HINTS = {
    "=": "compare with '=='", "&": "write 'and'", "|": "write 'or'", "!": "write 'not', or '!=' to compare",
    ".": "write a decimal with digits on both sides of the point: 0.5", "%": "there is no remainder operator",
    "\"": "expressions have no strings; a name is written bare",
    "'": "expressions have no strings; a name is written bare",
}


_KEYWORD_BEFORE = re.compile(r"(?<![a-z0-9_])(if|then|else|and|or|not)\s*\Z")


def _syntax_error(text: str, error: UnexpectedInput) -> Problem:
    """The problem of a text the grammar refuses, said in the language's own words."""
    if isinstance(error, UnexpectedCharacters):
        offset = error.pos_in_stream or 0
        char = text[offset] if offset < len(text) else ""
        hint = _CHARACTER_HINTS.get(char)
        beside = text[max(offset - 1, 0):offset] + text[offset + 1:offset + 2]
        if char == "." and not any(c in "0123456789" for c in beside):
            hint = "a name is letters, digits and '_' only"
        if char.isalpha() and char.isascii() and char.isupper():
            hint = "names are written in lowercase"
        return Problem(f"unexpected character {char!r}", offset=offset, hint=hint)
    token: Token | None = getattr(error, "token", None)
    expected = set(getattr(error, "expected", ()) or ())
    if token is None or token.type == "$END":
        offset, found, kind = len(text.rstrip()), "the end of the expression", None
    else:
        offset, found, kind = token.start_pos or 0, repr(str(token)), token.type
    if kind == "COMP_OP" and "AND" in expected:
        return Problem(f"comparisons do not chain (found {found})", offset=offset,
                       hint="write 'a < b and b < c'")
    if kind == "STAR" and text[offset - 1:offset] == "*":
        return Problem("found '**'", offset=offset - 1, hint="write a power with '^': 2 ^ n")
    keyword = _KEYWORD_BEFORE.search(text, 0, offset)
    if kind in _VALUE_START and keyword:       # the keyword could not stand there, so it was read as a name
        word = keyword.group(1)
        return Problem(f"the keyword '{word}' cannot stand here", offset=keyword.start(1),
                       hint=f"put '{word} ...' in brackets" if word == "not" else None)
    if kind in _VALUE_START and _OPERATORS & expected:
        return Problem(f"found {found} where an operator was expected", offset=offset,
                       hint="put an operator between two values, e.g. '2 * x'")
    readable = set()
    for name in expected:
        if name in _OPERATORS and len(_OPERATORS & expected) > 2:
            readable.add("an operator")
        elif name in _VALUE_START | {"MINUS"} and {"NUMBER", "NAME"} <= expected:
            readable.add("a value")
        else:
            readable.add(_READABLE.get(name, name.lower()))
    hint = None
    if expected == {"ELSE"} or expected == {"THEN"}:
        hint = "write 'if CONDITION then VALUE else VALUE'"
    return Problem(f"found {found}, expected {', '.join(sorted(readable))}", offset=offset, hint=hint)


def _brackets(text: str) -> Problem | None:
    """Unbalanced or too deeply nested brackets, found before parsing (cheaply)."""
    opened: list[int] = []
    for offset, char in enumerate(text):
        if char == "(":
            opened.append(offset)
            if len(opened) > MAX_DEPTH:
                return Problem(f"more than {MAX_DEPTH} brackets are open at once", offset=offset)
        elif char == ")":
            if not opened:
                return Problem("this ')' closes no '('", offset=offset)
            opened.pop()
    if opened:
        return Problem("this '(' is never closed", offset=opened[-1])
    return None


_OPERATIONS = {"if_expr", "or_expr", "and_expr", "not_op", "comparison", "sum", "product", "neg",
               "power", "call"}
_COUNTED = {"NUMBER", "NAME", "TRUE", "FALSE", "OR", "AND", "NOT", "COMP_OP", "PLUS", "MINUS",
            "STAR", "SLASH", "CARET", "IF"}


def _measure(tree: Tree) -> Problem | None:
    """Too many parts, or nested too deep: found without recursion."""
    parts: list[int] = []
    too_deep: list[int] = []
    stack: list[tuple[Any, int]] = [(tree, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, Token):
            if item.type in _COUNTED:
                parts.append(item.start_pos or 0)
            continue
        if item.data in _OPERATIONS:
            level += 1
            if level > MAX_DEPTH:
                too_deep.append(item.meta.start_pos)
        stack.extend((child, level) for child in item.children)
    if len(parts) > MAX_NODES:
        return Problem(f"an expression may have at most {MAX_NODES} parts (numbers, names, operators, "
                       f"calls and ifs), this one has {len(parts)}", offset=sorted(parts)[MAX_NODES])
    if too_deep:
        return Problem(f"the expression nests more than {MAX_DEPTH} levels deep", offset=min(too_deep),
                       hint="each operation inside another counts one level: 1 + 2 * 3 has two")
    return None


# --- compiling: types, names, closures -------------------------------------------------------------

class _Node(NamedTuple):
    kind: str            # "number" | "bool" | "list" | "error" (already reported)
    run: _Run
    offset: int
    constant: bool       # reads no name and calls no caller function
    name: str | None = None   # the name, when the node is one bare name


def _offset(item: Any) -> int:
    if isinstance(item, Token):
        return item.start_pos or 0
    return item.meta.start_pos


def _never(env: Env) -> Any:
    raise AssertionError("an expression with problems is never evaluated")


def _error(offset: int) -> _Node:
    """The node of a part whose problem is already reported."""
    return _Node("error", _never, offset, False)


def _known(word: str, known: Collection[str], label: str) -> str:
    """A did-you-mean hint, then every known word."""
    if not known:
        return f"there are no {label} here"
    listing = f"{label}: {', '.join(sorted(known))}"
    close = difflib.get_close_matches(word, sorted(known), n=1)
    return f"did you mean '{close[0]}'? {listing}" if close else listing


class _Compiler:
    """One compilation: walks the parse tree once, gathers every problem, builds closures."""

    def __init__(self, text: str, scope: Scope):
        self.text = text
        self.scope = scope
        self.problems: list[Problem] = []
        self.names: set[str] = set()
        self.functions_used: set[tuple[str, ...]] = set()
        self.functions = {f.name: f for f in scope.functions}

    # -- helpers
    def problem(self, message: str, offset: int, hint: str | None = None) -> _Node:
        self.problems.append(Problem(message, offset=offset, hint=hint))
        return _error(offset)

    def describe(self, node: _Node) -> str:
        return f"'{node.name}' is {_PHRASE[node.kind]}" if node.name else f"this is {_PHRASE[node.kind]}"

    def need(self, node: _Node, kind: str, who: str) -> bool:
        """Whether ``node`` is of ``kind``; if not, a problem saying that ``who`` needs it."""
        if node.kind == kind or node.kind == "error":
            return node.kind == kind
        if node.kind == "list":
            self.problem(f"'{node.name}' is a list of numbers: use it inside max(), min(), sum(), at() or count_at_most()",
                         node.offset, hint=f"e.g. max({node.name})")
        else:
            self.problem(f"{who} needs {_PHRASE[kind]}; {self.describe(node)}", node.offset)
        return False

    def fold(self, kind: str, run: _Run, offset: int, parts: list[_Node]) -> _Node:
        """A node; computed now when every part is constant (a failure is then a problem)."""
        if all(part.constant for part in parts):
            try:
                return _Node(kind, _constant(run(_EMPTY)), offset, True)
            except _Fault as fault:
                return self.problem(fault.message, fault.offset)
        return _Node(kind, run, offset, False)

    # -- the walk
    def compile(self, item: Any) -> _Node:
        """The node of one parse-tree item."""
        if isinstance(item, Token):
            return self.token(item)
        data = str(item.data)
        if data in ("sum", "product", "power"):
            return self.binary_chain(item)
        if data in ("and_expr", "or_expr"):
            return self.logic(item, data[:-5])
        return getattr(self, "tree_" + data)(item)

    def token(self, token: Token) -> _Node:
        offset = token.start_pos or 0
        if token.type == "NUMBER":
            digits = sum(c.isdigit() for c in token)
            if digits > MAX_DIGITS:
                return self.problem(f"a number may have at most {MAX_DIGITS} digits, this one has {digits}",
                                    offset)
            value = Fraction(str(token)) if "." in token else int(token)
            if isinstance(value, Fraction) and value.denominator == 1:
                value = int(value)
            return _Node("number", _constant(value), offset, True)
        if token.type in ("TRUE", "FALSE"):
            return _Node("bool", _constant(token.type == "TRUE"), offset, True)
        name = str(token)
        if name in KEYWORDS:        # a keyword where the grammar cannot take it reads as a name
            return self.problem(f"the keyword '{name}' cannot stand here", offset)
        kind = self.scope.kind_of(name)
        if kind is None:
            if name in self.functions or name in BUILTINS:
                return self.problem(f"'{name}' is a function: call it with its arguments in brackets",
                                    offset, hint=f"e.g. {name}(...)")
            return self.problem(f"unknown name '{name}'", offset,
                                hint=_known(name, self.scope.numbers | self.scope.bools | self.scope.lists,
                                            "known names"))
        self.names.add(name)
        return _Node(kind, _reader(name, kind, offset), offset, False, name)

    def tree_if_expr(self, tree: Tree) -> _Node:
        condition, then, otherwise = (self.compile(child) for child in tree.children[1:])
        ok = self.need(condition, "bool", "'if'")
        for branch in (then, otherwise):
            if branch.kind not in TYPES:
                ok = self.need(branch, "number", "")      # a list is reported, an error already was
        if then.kind in TYPES and otherwise.kind in TYPES and then.kind != otherwise.kind:
            ok = False
            self.problem(f"'then' and 'else' must both be numbers or both conditions; 'then' gives "
                         f"{_PHRASE[then.kind]}, 'else' {_PHRASE[otherwise.kind]}", otherwise.offset)
        if not ok:
            return _error(_offset(tree))
        c, a, b = condition.run, then.run, otherwise.run
        run: _Run = lambda env: a(env) if c(env) else b(env)
        if then.constant and otherwise.constant:      # the usual "if ... then 2 else 0": no call per branch
            x, y = a(_EMPTY), b(_EMPTY)
            run = lambda env: x if c(env) else y
        elif then.constant:
            x = a(_EMPTY)
            run = lambda env: x if c(env) else b(env)
        elif otherwise.constant:
            y = b(_EMPTY)
            run = lambda env: a(env) if c(env) else y
        return self.fold(then.kind, run, _offset(tree), [condition, then, otherwise])

    def logic(self, tree: Tree, word: str) -> _Node:
        operands = [self.compile(child) for child in tree.children[::2]]
        if not all([self.need(node, "bool", f"'{word}'") for node in operands]):
            return _error(_offset(tree))
        runs = [node.run for node in operands]
        every = all if word == "and" else any       # both stop at the first operand that decides

        def chained(env: Env) -> Any:
            return every(r(env) for r in runs)
        run: _Run = chained
        if len(runs) <= 4:        # unrolled: no generator to build (the operands are bools)
            run = _AND[len(runs)](*runs) if word == "and" else _OR[len(runs)](*runs)
        return self.fold("bool", run, _offset(tree), operands)

    def tree_not_op(self, tree: Tree) -> _Node:
        operand = self.compile(tree.children[1])
        if not self.need(operand, "bool", "'not'"):
            return _error(_offset(tree))
        a = operand.run
        return self.fold("bool", lambda env: not a(env), _offset(tree), [operand])

    def tree_comparison(self, tree: Tree) -> _Node:
        left, symbol, right = tree.children
        a, b = self.compile(left), self.compile(right)
        who = f"'{symbol}'"
        if symbol in ("==", "!=") and a.kind in ("number", "bool"):
            ok = a.kind == b.kind or b.kind == "error"
            if not ok and b.kind == "list":
                self.need(b, a.kind, who)
            elif not ok:
                self.problem(f"{who} compares two numbers or two conditions; the left side is "
                             f"{_PHRASE[a.kind]}, {self.describe(b)}", b.offset)
        else:
            ok = all([self.need(a, "number", who), self.need(b, "number", who)])
        if not ok or a.kind == "error":
            return _error(_offset(tree))
        return self.fold("bool", _comparison(str(symbol), a, b), _offset(tree), [a, b])

    def binary_chain(self, tree: Tree) -> _Node:
        """``a + b - c``, ``a * b / c`` (evaluated from the left) or ``a ^ b``."""
        children = tree.children
        operands = [self.compile(child) for child in children[::2]]
        symbols = children[1::2]
        ok = all([self.need(node, "number", f"'{symbol}'")
                  for node, symbol in zip(operands, [symbols[0], *symbols])])
        if not ok:
            return _error(_offset(tree))
        node = operands[0]
        for symbol, right in zip(symbols, operands[1:]):
            run = _arithmetic(str(symbol), node, right, _offset(symbol))
            node = self.fold("number", run, node.offset, [node, right])
            if node.kind == "error":
                return node
        return node

    def tree_neg(self, tree: Tree) -> _Node:
        operand = self.compile(tree.children[1])
        if not self.need(operand, "number", "'-'"):
            return _error(_offset(tree))
        a = operand.run
        return self.fold("number", lambda env: -a(env), _offset(tree), [operand])

    # -- calls
    def tree_call(self, tree: Tree) -> _Node:
        name_token, args = tree.children[0], tree.children[1:]
        name, offset = str(name_token), _offset(name_token)
        if name == "step":
            return self.step(args, offset)
        if name in _LOOKUPS:
            return self.lookup(name, args, offset)
        if name not in BUILTINS:
            function = self.functions.get(name)
            if function is None:
                kind = self.scope.kind_of(name)
                if kind is not None:
                    return self.problem(f"'{name}' is {_PHRASE[kind]}, not a function", offset)
                return self.problem(f"unknown function '{name}'", offset,
                                    hint=_known(name, [*BUILTINS, *self.functions], "known functions"))
            return self.caller_function(function, args, offset)
        for arg in args:
            if isinstance(arg, Tree) and arg.data in ("case", "else_case"):
                return self.problem(f"only step() takes 'BOUND: VALUE' cases, not {name}()", _offset(arg))
        nodes = [self.compile(arg) for arg in args]
        if name in _ONE_NUMBER:
            if len(nodes) != 1:
                return self.problem(f"{name}() takes one number, not {len(nodes)} arguments", offset)
            if not self.need(nodes[0], "number", f"{name}()"):
                return _error(offset)
            f, a = _ONE_NUMBER[name], nodes[0].run
            run: _Run = lambda env: f(a(env))
            parts = _DIVISIONS.get(a) if name in ("floor", "ceil") else None
            if parts is not None:          # floor(x / y) of whole numbers is x // y, read without a fraction
                x_of, y_of = parts
                up = name == "ceil"

                def run(env: Env) -> Any:
                    x, y = x_of(env), y_of(env)
                    if type(x) is int and type(y) is int and y:
                        return -(-x // y) if up else x // y
                    return f(a(env))       # (a fraction, or the fault the division tells)
            return self.fold("number", run, offset, nodes)
        return self.aggregate(name, nodes, offset)

    def aggregate(self, name: str, nodes: list[_Node], offset: int) -> _Node:
        """max(), min(), sum(): of several numbers, or of exactly one list."""
        if not nodes:
            return self.problem(f"{name}() needs one list or at least one number", offset)
        if len(nodes) == 1 and nodes[0].kind == "list":
            read, list_name = nodes[0].run, nodes[0].name
            if name == "sum":
                what = f"the sum of '{list_name}'"

                def run(env: Env) -> Any:
                    return _bounded(sum(read(env)), offset, what)
                return _Node("number", run, offset, False)
            pick: Callable[..., Any] = max if name == "max" else min

            def run(env: Env) -> Any:
                values = read(env)
                if not values:
                    raise _Fault(f"{name}() of an empty list '{list_name}'", offset)
                return pick(values)
            return _Node("number", run, offset, False)
        ok = True
        for node in nodes:
            if node.kind == "list":
                self.problem(f"{name}() takes several numbers or exactly one list; '{node.name}' is a list",
                             node.offset)
                ok = False
            else:
                ok = self.need(node, "number", f"{name}()") and ok
        if not ok:
            return _error(offset)
        if name == "sum":
            total = nodes[0]
            for node in nodes[1:]:
                total = self.fold("number", _arithmetic("+", total, node, offset), offset, [total, node])
            return _Node(total.kind, total.run, offset, total.constant)
        pick = max if name == "max" else min
        runs = [node.run for node in nodes]
        if len(runs) == 1:
            return _Node("number", runs[0], offset, nodes[0].constant)
        if len(runs) == 2:
            a, b = runs
            return self.fold("number", lambda env: pick(a(env), b(env)), offset, nodes)
        return self.fold("number", lambda env: pick([r(env) for r in runs]), offset, nodes)

    def lookup(self, name: str, args: list[Any], offset: int) -> _Node:
        """at(LIST, N): the N-th element, from 1; count_at_most(LIST, X): how many are <= X."""
        usage = _LOOKUPS[name]
        if len(args) != 2:
            return self.problem(f"{name}() takes a list and a number, not {len(args)} argument"
                                f"{'s' * (len(args) != 1)}", offset, hint=usage)
        for arg in args:
            if isinstance(arg, Tree) and arg.data in ("case", "else_case"):
                return self.problem(f"only step() takes 'BOUND: VALUE' cases, not {name}()", _offset(arg))
        values, x = self.compile(args[0]), self.compile(args[1])
        ok = True
        if values.kind not in ("list", "error"):
            ok = False
            self.problem(f"{name}() takes a list first; {self.describe(values)}", values.offset, hint=usage)
        ok = self.need(x, "number", f"{name}()") and ok
        if not ok:
            return _error(offset)
        read, get, list_name = values.run, x.run, values.name
        if name == "count_at_most":
            def run(env: Env) -> Any:
                limit = get(env)
                return sum(1 for v in read(env) if v <= limit)
        else:
            def run(env: Env) -> Any:
                elements, n = read(env), get(env)
                if n != int(n) or not 1 <= n <= len(elements):
                    raise _Fault(f"at() asks for element {n} of '{list_name}', which has {len(elements)} "
                                 f"(counted from 1)", offset)
                return elements[int(n) - 1]
        return _Node("number", run, offset, False)

    def step(self, args: list[Any], offset: int) -> _Node:
        """step(x, B1: V1, ..., else: V): the value of the first bound that x does not exceed."""
        usage = "step(x, BOUND: VALUE, ..., else: VALUE)"
        if not args or (isinstance(args[0], Tree) and args[0].data in ("case", "else_case")):
            return self.problem("step() needs the number to look up first", offset, hint=usage)
        x = self.compile(args[0])
        ok = self.need(x, "number", "step()")
        bounds: list[Number] = []
        cases: list[_Node] = []
        otherwise: _Node | None = None
        for i, arg in enumerate(args[1:], start=1):
            if not (isinstance(arg, Tree) and arg.data in ("case", "else_case")):
                ok = False
                self.problem("after its first argument, step() takes cases 'BOUND: VALUE'", _offset(arg),
                             hint=usage)
            elif arg.data == "else_case":
                if i != len(args) - 1:
                    ok = False
                    self.problem("'else' must be the last case of step()", _offset(arg))
                otherwise = self.compile(arg.children[0])
            else:
                bound = self.compile(arg.children[0])
                cases.append(self.compile(arg.children[1]))
                if not self.need(bound, "number", "a bound of step()"):
                    ok = False
                elif not bound.constant:
                    ok = False
                    self.problem("a bound of step() must be a constant number", bound.offset)
                else:
                    value = bound.run(_EMPTY)
                    if bounds and value <= bounds[-1]:
                        ok = False
                        self.problem(f"the bounds of step() must increase: {value} comes after {bounds[-1]}",
                                     bound.offset)
                    bounds.append(value)
        if not cases and ok:
            return self.problem("step() needs at least one case 'BOUND: VALUE'", offset, hint=usage)
        values = cases + ([otherwise] if otherwise is not None else [])
        first = next((v for v in values if v.kind in TYPES), None)
        for value in values:
            if value.kind not in TYPES:
                ok = self.need(value, "number", "")      # a list is reported, an error already was
            elif first is not None and value.kind != first.kind:
                ok = False
                self.problem(f"the values of step() must all be numbers or all conditions; the first is "
                             f"{_PHRASE[first.kind]}, {self.describe(value)}", value.offset)
        if not ok or first is None:
            return _error(offset)
        lookup, runs = x.run, [case.run for case in cases]
        last = otherwise.run if otherwise is not None else None
        count, top = len(bounds), bounds[-1]

        def run(env: Env) -> Any:
            key = lookup(env)
            i = bisect_left(bounds, key)
            if i < count:
                return runs[i](env)
            if last is None:
                raise _Fault(f"step() has no case for {key}: it is above the last bound, {top}, "
                             f"and there is no 'else'", offset)
            return last(env)
        return self.fold(first.kind, run, offset, [x, *values])

    def caller_function(self, function: Function, args: list[Any], offset: int) -> _Node:
        name = function.name
        if len(args) != len(function.args):
            wanted = ", ".join(function.args)
            return self.problem(f"{name}() takes {len(function.args)} argument{'s' * (len(function.args) != 1)} "
                                f"({wanted}), not {len(args)}", offset)
        getters: list[_Run] = []
        identifiers: list[str] = []
        ok = True
        for kind, arg in zip(function.args, args):
            if isinstance(arg, Tree) and arg.data in ("case", "else_case"):
                self.problem(f"only step() takes 'BOUND: VALUE' cases, not {name}()", _offset(arg))
                ok = False
            elif kind in ("number", "bool", "list"):
                node = self.compile(arg)
                if kind == "list" and node.kind not in ("list", "error"):
                    self.problem(f"{name}() takes a list here; {self.describe(node)}", node.offset)
                    ok = False
                elif kind != "list":
                    ok = self.need(node, kind, f"{name}()") and ok
                getters.append(node.run)
            elif _bare_number(arg) in self.scope.identifiers[kind]:
                # an identifier written as a number (a rank named 10)
                identifiers.append(_bare_number(arg))
                getters.append(_constant(_bare_number(arg)))
            elif not (isinstance(arg, Token) and arg.type == "NAME"):
                self.problem(f"{name}() takes one {kind} name here, written bare", _offset(arg))
                ok = False
            elif str(arg) not in self.scope.identifiers[kind]:
                self.problem(f"'{arg}' is not a {kind}", _offset(arg),
                             hint=_known(str(arg), self.scope.identifiers[kind], f"a {kind} is one of"))
                ok = False
            else:
                identifiers.append(str(arg))
                getters.append(_constant(str(arg)))
        if not ok:
            return _error(offset)
        self.functions_used.add((name, *identifiers))
        call = function.call
        what = f"the value of {name}()"
        if function.returns == "bool":
            def check(v: Any) -> Any:
                if v is True or v is False:
                    return v
                raise _Fault(f"{what} is a {type(v).__name__}, not a bool", offset)
        else:
            def check(v: Any) -> Any:
                if type(v) is int and -LIMIT <= v <= LIMIT:
                    return v
                return _bounded(v, offset, what)
        if len(identifiers) == len(getters) and len(identifiers) <= 2:
            run = _fixed_call(call, tuple(identifiers), function.returns == "bool", check)
        elif len(identifiers) == len(getters):
            fixed = tuple(identifiers)

            def run(env: Env) -> Any:
                return check(call(env, *fixed))
        else:
            def run(env: Env) -> Any:
                return check(call(env, *[g(env) for g in getters]))
        return _Node(function.returns, run, offset, False)


def _fixed_call(call: Callable, fixed: tuple, boolean: bool, check: Callable) -> _Run:
    """The closure of a call of a function with one or two identifiers (``played_colour(hearts)``):
    ``check(call(env, *fixed))`` with the identifiers passed one by one and the usual value (a
    bool; a plain int within bounds) let through before ``check`` is called (a play's rules read
    several such calls per card)."""
    lo, hi = -LIMIT, LIMIT
    if len(fixed) == 1:
        a, = fixed

        def one_bool(env: Env) -> Any:
            v = call(env, a)
            return v if v is True or v is False else check(v)

        def one_number(env: Env) -> Any:
            v = call(env, a)
            return v if type(v) is int and lo <= v <= hi else check(v)
        return one_bool if boolean else one_number
    if len(fixed) == 2:
        a, b = fixed

        def two_bool(env: Env) -> Any:
            v = call(env, a, b)
            return v if v is True or v is False else check(v)

        def two_number(env: Env) -> Any:
            v = call(env, a, b)
            return v if type(v) is int and lo <= v <= hi else check(v)
        return two_bool if boolean else two_number

    def none(env: Env) -> Any:
        return check(call(env))
    return none


def compile_expression(text: str, scope: Scope, expect: str = "number") -> Expression:
    """Parse, check and compile ``text``; ``expect`` is the type the whole must have.

    Raises :class:`ExpressionError` carrying every problem found (each with its character
    offset); see docs/expressions.md for the language and its bounds.
    """
    if expect not in TYPES:
        raise ValueError(f"expect must be 'number' or 'bool', not {expect!r}")
    if not isinstance(text, str):
        raise ExpressionError([Problem(f"an expression must be a string, not a {type(text).__name__}",
                                       offset=0)])
    if len(text) > MAX_LENGTH:
        raise ExpressionError([Problem(f"an expression may be at most {MAX_LENGTH} characters long, "
                                       f"this one has {len(text)}", offset=MAX_LENGTH)], text)
    if not text.strip():
        raise ExpressionError([Problem("the expression is empty", offset=0,
                                       hint="e.g. '2 * bid' or 'round >= 12'")], text)
    unbalanced = _brackets(text)
    if unbalanced is not None:
        raise ExpressionError([unbalanced], text)
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as error:
        raise ExpressionError([_syntax_error(text, error)], text) from None
    too_large = _measure(tree)
    if too_large is not None:
        raise ExpressionError([too_large], text)
    compiler = _Compiler(text, scope)
    root = compiler.compile(tree.children[0])
    if root.kind not in (expect, "error"):
        if root.kind == "list":
            compiler.need(root, expect, "")
        else:
            compiler.problem(f"the expression must give {_PHRASE[expect]}; {compiler.describe(root)}", root.offset)
    if compiler.problems:
        raise ExpressionError(compiler.problems, text)
    return Expression(text, expect, scope, frozenset(compiler.names), frozenset(compiler.functions_used), root.run)
