"""Combination patterns: from a pattern string to a frozen syntax tree.

The grammar lives in ``grammar/pattern.lark`` (installed as ``chimera_dsl.grammar``).  This
module only parses: it knows nothing of decks.  Names are checked against a deck later, by
the matcher's compiler, which reports problems with the character offsets kept here.

>>> parse_pattern("trio of number|H + single of any").parts[1].size
1
"""
from __future__ import annotations

import difflib
import functools
import re
from dataclasses import dataclass
from importlib import resources

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, v_args
from lark.exceptions import VisitError

from ..cards import MAX_DECK_CARDS
from ..errors import PatternError

MAX_PATTERN_LENGTH = 300

GROUP_SIZES = {"single": 1, "pair": 2, "trio": 3, "quad": 4}
# The most cards of one rank a group may ask for, before a deck is known: as many as a deck may
# hold.  Compiled against a deck, a group holds at most what the deck's count fields hold
# (``Deck.room``) and, to ever match, what the deck holds of one rank (the matcher says which).
MAX_GROUP = MAX_DECK_CARDS
MAX_CARDS = MAX_DECK_CARDS      # the most cards 'N cards of SET' may take


@dataclass(frozen=True)
class RankItem:
    """One entry of a rank set: a rank or group name, a range ``lo..hi``, or ``any``."""

    kind: str            # "name" | "range" | "any"
    names: tuple         # ("H",) / ("1", "12") / ()
    offset: int


@dataclass(frozen=True)
class RankSet:
    items: tuple[RankItem, ...]
    offset: int

    @property
    def text(self) -> str:
        parts = []
        for item in self.items:
            if item.kind == "any":
                parts.append("any")
            elif item.kind == "range":
                parts.append("..".join(item.names))
            else:
                parts.append(item.names[0])
        return "|".join(parts)


ANY = RankSet((RankItem("any", (), 0),), 0)


@dataclass(frozen=True)
class Group:
    """``count`` times ``size`` cards of one rank each, from ``ranks`` (``each``: per chain unit)."""

    count: int
    size: int
    ranks: RankSet
    each: bool
    offset: int


@dataclass(frozen=True)
class Chain:
    """Units of ``size`` cards of one rank, on consecutive ranks, ``min_length..max_length`` units."""

    min_length: int
    max_length: int | None
    size: int
    ranks: RankSet
    offset: int


@dataclass(frozen=True)
class Cards:
    """``count`` cards of any ranks of ``ranks``, as many of one rank as the hand holds (a flush's
    five cards); ranked by the highest."""

    count: int
    ranks: RankSet
    offset: int


@dataclass(frozen=True)
class Card:
    """One named card, e.g. the ``P`` of ``P + C``."""

    rank: str
    offset: int


Part = Group | Chain | Cards | Card


@dataclass(frozen=True)
class Pattern:
    text: str
    parts: tuple[Part, ...]
    distinct: bool = False
    not_both: tuple[tuple[str, str, int], ...] = ()
    wild: RankSet | None = None
    ranked_by: str = "core"
    at_most: int = 0                   # "at most N per rank": attached cards of one rank (0: no cap)
    not_extending: bool = False        # "not extending": no attached unit next to the chain
    clauses: tuple[tuple[str, int], ...] = ()      # (clause name, offset), as written
    same_colour: bool = False          # "same colour": every card of one colour (wild colours aside)

    def clause_offset(self, name: str) -> int:
        """Where the clause ``name`` starts in the text (0 when it is not there)."""
        return next((offset for clause, offset in self.clauses if clause == name), 0)

    @property
    def core(self) -> Part:
        return self.parts[0]

    @property
    def attachments(self) -> tuple[Part, ...]:
        return self.parts[1:]


@functools.lru_cache(maxsize=1)
def _parser() -> Lark:
    text = resources.files("chimera_dsl.grammar").joinpath("pattern.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", propagate_positions=True, maybe_placeholders=False)


def _offset(item) -> int:
    if isinstance(item, Token):
        return item.start_pos or 0
    meta = getattr(item, "meta", None)
    if meta is not None and not meta.empty:
        return meta.start_pos
    return 0


@v_args(meta=True)
class _Build(Transformer):
    """Turns the parse tree into the frozen dataclasses above."""

    def __init__(self, text: str):
        super().__init__()
        self.text = text

    def start(self, meta, children):
        return children[0]

    def pattern(self, meta, children):
        parts = tuple(c for c in children if isinstance(c, (Group, Chain, Cards, Card)))
        clauses = [c for c in children if isinstance(c, tuple)]
        distinct = False
        not_both: list = []
        wild = None
        ranked_by = "core"
        at_most = 0
        not_extending = False
        seen: dict[str, int] = {}
        for name, value, offset in clauses:
            if name in seen and name != "not_both":
                raise PatternError(f"the clause '{_CLAUSE_WORDS.get(name, name)}' is given twice", offset,
                                   text=self.text)
            seen[name] = offset
            if name == "distinct":
                distinct = True
            elif name == "not_both":
                not_both.append(value)
            elif name == "wild":
                wild = value
            elif name == "ranked_by":
                ranked_by = value
            elif name == "at_most":
                at_most = value
            elif name == "not_extending":
                not_extending = True
        return Pattern(self.text, parts, distinct, tuple(not_both), wild, ranked_by, at_most, not_extending,
                       tuple((name, offset) for name, _value, offset in clauses), "same_colour" in seen)

    def group_part(self, meta, children):
        count = 1
        ranks = ANY
        each = False
        size = None
        for child in children:
            if isinstance(child, int) and not isinstance(child, Token):
                count = child
            elif isinstance(child, Token) and child.type == "GROUP":
                size = GROUP_SIZES[child.value.rstrip("s")]
            elif isinstance(child, Token) and child.type == "EACH":
                each = True
            elif isinstance(child, RankSet):
                ranks = child
        if count < 1:
            raise PatternError("a count must be at least 1", meta.start_pos, text=self.text)
        return Group(count, size, ranks, each, meta.start_pos)

    def kind_part(self, meta, children):
        size = int(children[0])
        ranks = next((c for c in children[1:] if isinstance(c, RankSet)), ANY)
        each = any(isinstance(c, Token) and c.type == "EACH" for c in children[1:])
        if not 1 <= size <= MAX_GROUP:
            raise PatternError(f"a group holds 1 to {MAX_GROUP} cards of one rank (the most a deck may hold), "
                               f"not {size}", meta.start_pos, text=self.text)
        return Group(1, size, ranks, each, meta.start_pos)

    def cards_part(self, meta, children):
        count = int(children[0])
        ranks = children[1] if len(children) > 1 else ANY
        if not 1 <= count <= MAX_CARDS:
            raise PatternError(f"'N cards' takes 1 to {MAX_CARDS} cards (the most a deck may hold), not {count}",
                               meta.start_pos, text=self.text)
        return Cards(count, ranks, meta.start_pos)

    def same_colour(self, meta, children):
        return ("same_colour", True, meta.start_pos)

    def chain_part(self, meta, children):
        (lo, hi, length_offset), group = children[0], children[1]
        ranks = children[2] if len(children) > 2 else ANY
        size = GROUP_SIZES[group.value.rstrip("s")]
        if lo < 1:
            raise PatternError("a chain needs at least 1 unit", length_offset, text=self.text)
        if hi is not None and hi < lo:
            raise PatternError(f"the length range {lo}..{hi} runs downwards", length_offset,
                               hint=f"write {hi}..{lo}", text=self.text)
        return Chain(lo, hi, size, ranks, meta.start_pos)

    def card_part(self, meta, children):
        name, offset = children[0]
        return Card(name, offset)

    def count(self, meta, children):
        return int(children[0])

    def exact_length(self, meta, children):
        n = int(children[0])
        return (n, n, _offset(children[0]))

    def at_least(self, meta, children):
        return (int(children[0].value[:-1]), None, _offset(children[0]))

    def span(self, meta, children):
        lo, _, hi = children[0].value.partition("..")
        return (int(lo), int(hi) if hi else None, _offset(children[0]))

    def rankset(self, meta, children):
        return RankSet(tuple(children), meta.start_pos)

    def one_rank(self, meta, children):
        name, offset = children[0]
        return RankItem("name", (name,), offset)

    def rank_range(self, meta, children):
        (lo, offset), (hi, _) = children
        return RankItem("range", (lo, hi), offset)

    def any_rank(self, meta, children):
        return RankItem("any", (), _offset(children[0]))

    def rank(self, meta, children):
        token = children[0]
        return (str(token.value), _offset(token))

    def distinct(self, meta, children):
        return ("distinct", True, meta.start_pos)

    def not_both(self, meta, children):
        (a, offset), (b, _) = children
        return ("not_both", (a, b, offset), meta.start_pos)

    def not_extending(self, meta, children):
        return ("not_extending", True, meta.start_pos)

    def at_most(self, meta, children):
        count = children[0]
        if int(count) < 1:
            raise PatternError("'at most N per rank' needs N of at least 1", _offset(count), text=self.text)
        return ("at_most", int(count), meta.start_pos)

    def wild(self, meta, children):
        return ("wild", children[0], meta.start_pos)

    def ranked_by(self, meta, children):
        return ("ranked_by", str(children[0].value), meta.start_pos)


# Known mistakes, recognised by example (as Lark's match_examples does): message, hint, examples.
_KNOWN_MISTAKES: list[tuple[str, str | None, list[str]]] = [
    ("a '+' must be followed by another part", "e.g. 'trio of number + single of any'",
     ["trio of number +", "single +", "pair of H + , distinct"]),
    ("a rank set must follow 'of'", "e.g. 'pair of number|H'",
     ["pair of", "pair of + single", "trio of , distinct"]),
    ("write the rank set after 'of'", "e.g. 'pair of number', not 'pair number'",
     ["pair number", "trio H", "single any"]),
    ("a chain needs a length before 'consecutive'", "e.g. '3+ consecutive pairs of number' or '5..12 consecutive singles'",
     ["consecutive pairs of number", "consecutive singles"]),
    ("'consecutive' must be followed by single(s), pair(s), trio(s) or quad(s)", "e.g. '2+ consecutive trios of number'",
     ["3+ consecutive of number", "3+ consecutive cards", "5..12 consecutive number"]),
    ("a part is a group ('single', 'pair', 'trio', 'quad' or 'N of a kind', then 'of' and its ranks), "
     "'N cards of' a rank set, a chain or one card",
     "e.g. 'trio of number|H', '5 of a kind of number', '5 cards of number', '3+ consecutive pairs of number' or 'P'",
     ["quintet of number", "card of any", "P of any"]),
    ("a clause after ',' must be one of: distinct, not both X and Y, not extending, at most N per rank, "
     "wild SET, ranked by core|highest, same colour", None,
     ["single of any, unique", "pair of any, wild", "single of any,", "pair of any, not P and C",
      "pair of any, 7", "single of any, +", "single of any, |"]),
    ("write the cap as 'at most N per rank'", "e.g. 'at most 3 per rank'",
     ["pair of any, at most", "pair of any, at most 3", "pair of any, at most 3 per", "pair of any, at 3"]),
]

# how each clause is written, for messages
_CLAUSE_WORDS = {"not_both": "not both", "ranked_by": "ranked by", "at_most": "at most N per rank",
                 "not_extending": "not extending", "same_colour": "same colour"}


def _match_known(text: str, error: UnexpectedInput) -> tuple[str, str | None] | None:
    parser = _parser()
    for message, hint, examples in _KNOWN_MISTAKES:
        for example in examples:
            try:
                parser.parse(example)
            except UnexpectedInput as other:
                if (type(other) is type(error)
                        and getattr(other, "state", None) == getattr(error, "state", None)
                        and getattr(getattr(other, "token", None), "type", None)
                        == getattr(getattr(error, "token", None), "type", None)):
                    return message, hint
    return None


_READABLE = {
    "GROUP": "single/pair/trio/quad", "NAME": "a rank or group name", "INT": "a number",
    "ANY": "'any'", "EACH": "'each'", "DISTINCT": "'distinct'", "RANKED": "'core' or 'highest'",
    "EXTENDING": "'extending'", "AT": "'at'", "MOST": "'most'", "PER": "'per'", "RANK": "'rank'",
    "ATLEAST": "a length like 3+", "SPAN": "a length like 5..12", "PLUS": "'+'", "COMMA": "','",
    "VBAR": "'|'", "$END": "the end", "COLOUR": "'colour'", "_KIND": "'of a kind'", "_CARDS": "'cards'",
}


def _readable(names) -> str:
    """The terminals a parser expected, in words (never the parser's own names for them)."""
    parser = _parser()
    patterns = {t.name: t.pattern.value for t in parser.terminals}
    out = set()
    for name in names:
        if name in _READABLE:
            out.add(_READABLE[name])
        elif name.startswith("_") and name.lstrip("_").isalpha():     # a keyword: _OF is 'of'
            out.add(f"'{name.lstrip('_').lower()}'")
        else:                                   # a literal Lark named itself, such as '..'
            literal = patterns.get(name, "").replace("\\", "")
            out.add(f"'{literal}'" if literal else "something else")
    return ", ".join(sorted(out))


# The words of the pattern language (grammar/pattern.lark), for a did-you-mean on a misspelt one
_WORDS = ("single", "pair", "trio", "quad", "singles", "pairs", "trios", "quads", "of", "kind", "card", "cards",
          "consecutive", "each", "any", "distinct", "not", "both", "and", "extending", "at", "most", "per",
          "rank", "wild", "ranked", "by", "core", "highest", "same", "colour", "color")


def _did_you_mean(text: str, offset: int) -> str | None:
    """'did you mean ...?' for the word at ``offset`` or the word just before it, when it is not
    a word of the language but close to one (``ranekd`` for ``ranked``); else None."""
    words = [m for m in re.finditer(r"[A-Za-z_]+", text) if m.start() <= offset]
    for match in reversed(words[-2:]):
        word = match.group().lower()
        if word in _WORDS or len(word) < 3:
            continue
        close = difflib.get_close_matches(word, _WORDS, n=1, cutoff=0.7)
        if close:
            return f"did you mean '{close[0]}' for '{match.group()}'?"
    return None


def _with(hint: str | None, more: str | None) -> str | None:
    return "; ".join(h for h in (more, hint) if h) or None


def parse_pattern(text: str) -> Pattern:
    """Parse a pattern string; raise :class:`PatternError` with the offset of the fault."""
    if not isinstance(text, str):
        raise PatternError("a pattern must be a string", 0)
    if len(text) > MAX_PATTERN_LENGTH:
        raise PatternError(f"a pattern may be at most {MAX_PATTERN_LENGTH} characters long, "
                           f"this one has {len(text)}", MAX_PATTERN_LENGTH, text=text)
    if not text.strip():
        raise PatternError("the pattern is empty", 0, hint="e.g. 'pair of number'", text=text)
    try:
        tree = _parser().parse(text)
    except UnexpectedCharacters as error:
        char = text[error.pos_in_stream] if error.pos_in_stream < len(text) else ""
        raise PatternError(f"unexpected character {char!r}", error.pos_in_stream,
                           hint=_with(_hint_for(text, error), _did_you_mean(text, error.pos_in_stream)),
                           text=text) from None
    except (UnexpectedToken, UnexpectedEOF) as error:
        known = _match_known(text, error)
        token = getattr(error, "token", None)
        at_end = token is None or token.type == "$END"
        offset = len(text.rstrip()) if at_end else (token.start_pos or 0)
        found = "the end of the pattern" if at_end else repr(str(token))
        guess = _did_you_mean(text, offset)
        if known:
            raise PatternError(f"{known[0]} (found {found})", offset, hint=_with(known[1], guess),
                               text=text) from None
        expected = _readable(getattr(error, "expected", []) or getattr(error, "accepts", []))
        raise PatternError(f"found {found}, expected {expected}", offset, hint=guess, text=text) from None
    try:
        return _Build(text).transform(tree)
    except VisitError as error:
        if isinstance(error.orig_exc, PatternError):
            raise error.orig_exc from None
        raise


def _hint_for(text: str, error: UnexpectedCharacters) -> str | None:
    rest = text[error.pos_in_stream:]
    if rest.startswith("-") and text[:error.pos_in_stream].rstrip()[-1:].isdigit():
        return "write a range with two dots: 5..12"
    if rest.startswith(("&", "/")):
        return "separate ranks with '|': number|H"
    return None
