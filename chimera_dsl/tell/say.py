"""Expressions of a variant file said in words, with small tables, for the rulebook.

A scoring or end expression is parsed with the language's own grammar
(:mod:`chimera_dsl.language.expressions`) and said from its parse tree, whatever game it comes
from: ``if``/``then``/``else`` as "if ..., ...; otherwise ...", comparisons as "is at least",
``min``/``max``/``at``/``count_at_most`` as phrases, and every ``step(x, B: V, ..., else: V)``
as a numbered table of ranges of ``x`` (the sentence names the table).  Arithmetic keeps its
signs (×, +, −, ÷), which every reader reads.  The engine's names are said in the catalog's
words (``cards_left``: "the cards left in hand"); the file's own names in italics, in the words
its ``labels`` give them for the language (``needed``: *points requis*), else as the file writes
them, with spaces (``bonus_cap``: *bonus cap*).

The words come from the language's catalog (:mod:`chimera_dsl.tell.catalog`).
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

from lark import Token, Tree
from lark.exceptions import LarkError

from ..language.expressions import _parser
from .catalog import catalog

_COMPARE = {"==": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}
_NEGATED = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
_SIGNS = {"+": " + ", "-": " − ", "*": " × ", "/": " ÷ "}
# how tightly each kind of node binds: a child binding more loosely than its parent is bracketed
_BIND = {"if_expr": 0, "or_expr": 1, "and_expr": 2, "not_op": 3, "comparison": 4, "sum": 5,
         "product": 6, "neg": 7, "power": 8}


def humanise(name: str) -> str:
    """A name as the file writes it, said as words: ``bonus_cap`` -> *bonus cap*."""
    return "*" + name.replace("_", " ") + "*"


def label_words(labels: dict | None, name: str, lang: str) -> str | None:
    """The words the file's ``labels`` give ``name`` in ``lang``, else in English, else None."""
    entry = (labels or {}).get(name)
    if not isinstance(entry, dict):
        return None
    said = entry.get(lang) or entry.get("en")
    return str(said) if said else None


class Speaker:
    """Says expressions of one rulebook in ``lang``; the tables of its ``step`` calls are kept in
    :attr:`tables`, numbered across the rulebook, for the caller to print after the sentence.

    ``calls`` says an engine function read with one name (``count(bomb)``) in words: it receives
    the function's name and its argument and returns a phrase, or None to say it plainly.

    ``labels``: the file's ``labels`` (a name it defines -> its words per language); a labelled
    name is said in the file's words for ``lang`` (else its English ones), in italics as a name
    of the file, before any word of the catalog.  ``terms``: the names that are only labels of
    terms of ``scoring.points``, whose labels say the terms and never a name an expression reads."""

    def __init__(self, lang: str, names: dict[str, str] | None = None,
                 calls: Callable[[str, str], str | None] | None = None, labels: dict | None = None,
                 flags: dict[str, Sequence[str]] | None = None, conditions: Iterable[str] = (),
                 terms: Iterable[str] = ()):
        book = catalog(lang)
        self.lang = lang
        self.w: dict[str, str] = book["expression"]
        self.names: dict[str, str] = {**book.get("names", {}), **(names or {})}
        # names that are 1 or 0, compared with 1 or 0: said as a condition, [when 1, when 0]
        self.flags: dict[str, Sequence[str]] = {**book.get("flags", {}), **(flags or {})}
        self.conditions = frozenset(conditions)     # the file's facts written as conditions (1 or 0)
        self.plural = frozenset(book.get("grammar", {}).get("plural_names", ()))    # names said in the plural
        self.labels = labels or {}
        # the labels of terms of scoring.points alone: an expression never reads a term by its
        # label, so a bare name of an expression that a term shares (place) is the engine's
        self.term_only = frozenset(terms)
        self.calls = calls
        self.count = 0
        self.tables: list[str] = []
        # names whose numbers are places of ranks (play_rank): a number compared with one is said
        # as the rank at that place, by the function given (None: said as the number)
        self.places: dict[str, Callable[[str], str | None]] = {}

    def name(self, name: str) -> str:
        """A name an expression reads: the file's label, the catalog's words, or the name humanised."""
        said = None if name in self.term_only else label_words(self.labels, name, self.lang)
        if said is not None:
            return "*" + said + "*"
        return self.names.get(name) or humanise(name)

    def label(self, name: str) -> str:
        """A name the file gives a thing of its own (a term of ``scoring.points``): its label in
        italics, else the name humanised (never the catalog's words of an engine name)."""
        said = label_words(self.labels, name, self.lang)
        return "*" + said + "*" if said is not None else humanise(name)

    def say(self, text: Any) -> str:
        """The expression ``text`` in words (a number as it is; a list as its numbers)."""
        if isinstance(text, bool):
            return self.w["true" if text else "false"]
        if isinstance(text, (int, float)):
            return _number(text)
        if isinstance(text, list):
            return ", ".join(_number(v) if isinstance(v, (int, float)) else str(v) for v in text)
        try:
            tree = _parser().parse(str(text))
        except LarkError:          # the loader refuses such a file: say it as written, in words
            return " ".join(str(text).split())
        return self.node(tree.children[0])

    def fact(self, name: str, value: Any) -> str:
        """A named value of the file said as a sentence: "*bonus cap* is 100."; a fact written as
        a condition, the number it is: "*schneider* is 1 when ..., otherwise 0."."""
        key = "fact_condition" if said_as_condition(value) else "fact"
        return self.w[key].format(name=self.name(name), value=self.say(value))

    def take_tables(self) -> list[str]:
        """The tables made since the last call (Markdown lines, each table after a blank line)."""
        tables, self.tables = self.tables, []
        return tables

    def list_table(self, name: str, values: list, by: str | None = None) -> list[str]:
        """A list of numbers as a table of its positions (from 1) and values; ``by``: the name
        that picks an entry (``at(needed_by_bid, bid)``: the bid), said as the positions' head."""
        head = self.w["list_head"].format(name=self.name(name))
        first = _cap(self.name(by)) if by else self.w["position"]
        return ["", f"| {first} | " + " | ".join(str(i) for i in range(1, len(values) + 1)) + " |",
                "|---" * (len(values) + 1) + "|",
                f"| {head} | " + " | ".join(_number(v) for v in values) + " |", ""]

    # --- nodes --------------------------------------------------------------------------------

    def node(self, item: Any, parent: str | None = None) -> str:
        if isinstance(item, Token):
            if item.type == "NUMBER":
                return item.value
            if item.type in ("TRUE", "FALSE"):
                return self.w[item.type.lower()]
            return self.name(item.value)
        kind = item.data
        said = getattr(self, "_" + kind)(item)
        if parent is not None and _BIND.get(kind, 9) <= _BIND.get(parent, 9) and kind in _BIND:
            if kind == "not_op" and self._one_clause(item.children[-1]):
                return said             # a negation said inside one clause needs no brackets
            return "(" + said + ")"
        return said

    def _one_clause(self, operand: Any) -> bool:
        """Is ``not OPERAND`` said as one clause of its own words (a name or a card test)?"""
        operand = _unwrapped(operand)
        single = isinstance(operand, Token) or (isinstance(operand, Tree) and operand.data == "call")
        return single and self._negated(operand) is not None

    def _if_expr(self, tree: Tree) -> str:
        cond, then, other = [c for c in tree.children if not (isinstance(c, Token) and c.type == "IF")]
        said = self.node(then)
        if isinstance(then, Tree) and then.data == "if_expr":
            # "X if A, otherwise Y" with X itself a choice: bracketed, else the otherwise would
            # read as its own ("100 if B, otherwise -100 if A, otherwise 0")
            said = "(" + said + ")"
        return self.w["if"].format(cond=self.node(cond), then=said, **{"else": self.node(other)})

    def _logic(self, tree: Tree, word: str) -> str:
        # a logical operation inside another is bracketed, so that "a and b or c" never reads two ways
        parts = [self.node(c, "not_op") for c in tree.children if not isinstance(c, Token) or c.type not in ("AND", "OR")]
        said = parts[0]
        for part in parts[1:]:
            said = self.w[word].format(a=said, b=part)
        return said

    def _or_expr(self, tree: Tree) -> str:
        return self._logic(tree, "or")

    def _and_expr(self, tree: Tree) -> str:
        return self._logic(tree, "and")

    def _not_op(self, tree: Tree) -> str:
        said = self._negated(tree.children[-1])
        if said is not None:
            return said
        return self.w["not"].format(a=self.node(tree.children[-1], "not_op"))

    def _negated(self, operand: Any) -> str | None:
        """``not OPERAND`` said inside it where the words allow: a card test or a condition of
        the caller's ("the card is not of hearts", "the player cannot follow the colour led":
        the name with ``:not`` among the caller's names), a comparison by the opposite one
        ("is at most 3"), ``not X`` as X, and an ``or`` (``and``) of such, as the ``and``
        (``or``) of their negations ("the card is not of hearts and the card is not the queen of
        spades"); else None."""
        operand = _unwrapped(operand)
        if isinstance(operand, Token):
            if operand.type != "NAME" or label_words(self.labels, operand.value, self.lang) is not None:
                return None
            return self.names.get(operand.value + ":not")
        if not isinstance(operand, Tree):
            return None
        if operand.data == "call":
            return self._called(operand, negated=True)
        if operand.data == "comparison":
            left, op, right = operand.children
            if not isinstance(op, Token):
                return None
            return self._comparison(Tree("comparison", [left, Token(op.type, _NEGATED[str(op)]), right]))
        if operand.data == "not_op":
            return self.node(operand.children[-1], "and_expr")
        if operand.data in ("or_expr", "and_expr"):
            word = "and" if operand.data == "or_expr" else "or"
            parts = [self._negated(c) for c in operand.children
                     if not isinstance(c, Token) or c.type not in ("AND", "OR")]
            if any(part is None for part in parts):
                return None
            said = parts[0]
            for part in parts[1:]:
                said = self.w[word].format(a=said, b=part)
            return said
        return None

    def _called(self, tree: Tree, negated: bool = False) -> str | None:
        """A call said by the caller's words for it (``calls``), or None; ``negated``: its
        negation (the caller's function name with ``:not``), None where it has no such words."""
        if self.calls is None:
            return None
        name = str(tree.children[0]) + (":not" if negated else "")
        args = [a for a in tree.children[1:] if a is not None]
        if len(args) == 1 and isinstance(args[0], Token) and args[0].type in ("NAME", "NUMBER"):
            return self.calls(name, args[0].value)
        if len(args) > 1 and all(_bare(a) is not None for a in args):
            # several names (a rank and a colour: play_has_card(2, clubs)) are handed over as one
            # text, "2,clubs"
            return self.calls(name, ",".join(str(_bare(a)) for a in args))
        return None

    def _comparison(self, tree: Tree) -> str:
        left, op, right = tree.children
        flag = self._flag(left, str(op), right)
        if flag is not None:
            return flag
        key = _COMPARE[str(op)]
        if _head(left) in self.plural and key + "_many" in self.w:        # "the tricks taken are at least 3"
            key += "_many"
        a, b = self.node(left, "comparison"), self.node(right, "comparison")
        for name, number in ((left, right), (right, left)):     # play_rank == 13: the rank at place 13
            place = self.places.get(str(name)) if isinstance(name, Token) and name.type == "NAME" else None
            if place is not None and isinstance(number, Token) and number.type == "NUMBER":
                said = place(str(number))
                if said is not None:
                    a, b = (a, said) if number is right else (said, b)
        return self.w[key].format(a=a, b=b)

    def _flag(self, left: Any, op: str, right: Any) -> str | None:
        """A name that is 1 or 0 compared with 1 or 0 (``bidder_side == 1``, ``doubled != 1``), said
        as the condition it is: the catalog's ``flags``, or a fact of the file written as a
        condition said by its name (``not`` before it for 0); None for any other comparison."""
        if op not in ("==", "!="):
            return None
        for name, number in ((left, right), (right, left)):
            call, value = _unwrapped(name), _bare(number)
            if isinstance(call, Tree) and call.data == "call" and value in ("0", "1") and self.calls is not None:
                # a function of 1 or 0 compared with 1 or 0 (called(grand) == 1): the caller's words
                # for it holding or not, asked as NAME:yes and NAME:no ("the player made Grand Tichu")
                yes = (value == "1") == (op == "==")
                args = [a for a in call.children[1:] if a is not None]
                if args and all(_bare(a) is not None for a in args):
                    # (several names, a rank and a colour, handed over as one text: "q,spades")
                    told = self.calls(str(call.children[0]) + (":yes" if yes else ":no"),
                                      ",".join(str(_bare(a)) for a in args))
                    if told is not None:
                        return told
        for name, number in ((left, right), (right, left)):
            word, value = _bare(name), _bare(number)
            if word is None or value not in ("0", "1") or word.isdigit():
                continue
            yes = (value == "1") == (op == "==")
            said = self.flags.get(word)
            if said is not None and label_words(self.labels, word, self.lang) is None:
                return said[0 if yes else 1]
            if word in self.conditions:
                return self.w["fact_holds" if yes else "fact_fails"].format(name=self.name(word))
        return None

    def _chain(self, tree: Tree) -> str:
        said = ""
        for child in tree.children:
            if isinstance(child, Token) and child.value in _SIGNS:
                said += _SIGNS[child.value]
            else:
                said += self.node(child, tree.data)
        return said

    def _sum(self, tree: Tree) -> str:
        return self._chain(tree)

    def _product(self, tree: Tree) -> str:
        return self._chain(tree)

    def _neg(self, tree: Tree) -> str:
        return "−" + self.node(tree.children[-1], "neg")

    def _power(self, tree: Tree) -> str:
        base, _, exponent = tree.children
        return self.w["power"].format(a=self.node(base, "power"), b=self.node(exponent, "power"))

    def _call(self, tree: Tree) -> str:
        name = str(tree.children[0])
        args = [a for a in tree.children[1:] if a is not None]
        if name == "step":
            return self._step(args)
        said = self._called(tree)
        if said is not None:
            return said
        if name in ("count", "plays_by", "idle", "sum_others", "sum_side") and len(args) == 1 and isinstance(args[0], Token):
            # the engine's functions of one name, said plainly when the caller has no better words
            return self.w[name].format(name=humanise(str(args[0])), role=humanise(str(args[0])),
                                       term=self.label(str(args[0])))
        spoken = [self.node(a) for a in args]
        if name in ("min", "max", "sum") and spoken:
            return self.w[name].format(list=self.w["list_and"].join(spoken))
        if name in ("abs", "floor", "ceil", "round") and len(spoken) == 1:
            return self.w[name].format(a=spoken[0])
        if name == "at" and len(spoken) == 2:
            return self.w["at"].format(list=spoken[0], n=spoken[1])
        if name == "count_at_most" and len(spoken) == 2:
            return self.w["count_at_most"].format(list=spoken[0], x=spoken[1])
        return self.w["call"].format(name=humanise(name), list=self.w["list_and"].join(spoken))

    def _step(self, args: list) -> str:
        """``step(x, B1: V1, ..., else: V)``: a table of the ranges of x, named in the sentence."""
        x = self.node(args[0])
        cases = [(a.children[0], a.children[1]) for a in args[1:] if isinstance(a, Tree) and a.data == "case"]
        other = next((a.children[0] for a in args[1:] if isinstance(a, Tree) and a.data == "else_case"), None)
        bounds = [self.node(b) for b, _ in cases]
        whole = all(_whole(b) for b, _ in cases)
        rows: list[tuple[str, str]] = []
        for i, (bound, value) in enumerate(cases):
            if i == 0:
                rows.append((self.w["up_to"].format(b=bounds[0]), self.node(value)))
            elif whole and int(bounds[i]) == int(bounds[i - 1]) + 1:
                rows.append((bounds[i], self.node(value)))
            elif whole:
                rows.append((self.w["range"].format(lo=int(bounds[i - 1]) + 1, hi=bounds[i]), self.node(value)))
            else:
                rows.append((self.w["between"].format(lo=bounds[i - 1], hi=bounds[i]), self.node(value)))
        if other is not None and bounds:
            rows.append((self.w["above"].format(b=bounds[-1]), self.node(other)))
        self.count += 1
        n = self.count
        self.tables += ["", self.w["table_head"].format(n=n, x=x), "",
                        f"| {_cap(x)} | {self.w['value']} |", "|---|---|"]
        self.tables += [f"| {_cap(a)} | {b} |" for a, b in rows] + [""]
        return self.w["step"].format(n=n, x=x)


def is_condition(text: Any) -> bool:
    """Is ``text`` written as a condition (a comparison, ``and``, ``or``, ``not``, ``true``)? A
    scoring fact so written is the number 1 when it holds, else 0."""
    return isinstance(text, bool) or _condition_node(_root(text))


def said_as_condition(text: Any) -> bool:
    """Is a fact ``text`` a condition said as one ("*schneider* is 1 when ..., otherwise 0"):
    :func:`is_condition`, but not a choice (``if ... then ... else``), which reads as its own
    "..., otherwise ..." and is said as written."""
    if isinstance(text, bool):
        return True
    root = _root(text)
    return _condition_node(root) and not (isinstance(root, Tree) and root.data == "if_expr")


def is_flag(text: Any) -> bool:
    """Is ``text`` 1 or 0 whatever the round: a condition (:func:`is_condition`), or a choice
    whose every outcome is one or the number 1 or 0 (``if A then 1 else 0``)?"""
    if not isinstance(text, str):
        return isinstance(text, bool) or text in (0, 1)
    return _condition_node(_root(text), numbers=True)


def _root(text: Any) -> Any:
    """The expression ``text`` parsed, its outer wrappings taken off; None for what is not one."""
    if not isinstance(text, str):
        return None
    try:
        return _unwrapped(_parser().parse(text).children[0])
    except LarkError:
        return None


def _unwrapped(node: Any) -> Any:
    """``node`` without the nodes of one child around it (a bracket, a lone operand)."""
    while isinstance(node, Tree) and len(node.children) == 1:
        node = node.children[0]
    return node


def _condition_node(node: Any, numbers: bool = False) -> bool:
    """Is ``node`` a condition: ``true``/``false``, a comparison, ``and``/``or``/``not``, or a
    choice (``if ... then ... else``) between two conditions (``numbers``: or the numbers 1 and 0)?"""
    node = _unwrapped(node)
    if node is None:
        return False
    if isinstance(node, Token):
        return node.type in ("TRUE", "FALSE") or (numbers and node.type == "NUMBER" and str(node) in ("0", "1"))
    if node.data == "if_expr":
        branches = [c for c in node.children if not (isinstance(c, Token) and c.type == "IF")][1:]
        return bool(branches) and all(_condition_node(b, numbers) for b in branches)
    return node.data in ("comparison", "or_expr", "and_expr", "not_op")


def _head(item: Any) -> str | None:
    """The name an operand is said by: a name written alone, or a function called
    (``played_colour(hearts)``: ``played_colour``); else None."""
    item = _unwrapped(item)
    if isinstance(item, Tree) and item.data == "call":
        return str(item.children[0])
    return _bare(item)


def _bare(item: Any) -> str | None:
    """A name or a whole number written alone (``clubs``, ``2``), else None."""
    item = _unwrapped(item)
    if isinstance(item, Token) and (item.type == "NAME" or str(item).isdigit()):
        return str(item)
    return None


def picked_by(texts, name: str) -> str | None:
    """The one name that picks entries of the list ``name`` in ``texts`` (``at(name, bid)``), or None."""
    import re
    found = {m.group(1) for text in texts for m in re.finditer(r"\bat\(\s*" + re.escape(name) + r"\s*,\s*([a-z_][a-z0-9_]*)\s*\)", str(text))}
    return found.pop() if len(found) == 1 else None


def _whole(item: Any) -> bool:
    return isinstance(item, Token) and item.type == "NUMBER" and "." not in item.value


def _number(value) -> str:
    """A number as the sentences write it: whole when it is, with the minus sign of the arithmetic."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).replace("-", "−")


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
