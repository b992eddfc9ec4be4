"""The rulebook's phrases by language (:data:`T`, which the climbing and the trick-taking
rulebooks share), and those of the climbing rulebook that read the very cards: the rules on
colours, compared and ordered combinations, the first lead and the last card; the clauses of a
pattern that read cards one by one, cap a rank or refuse a longer chain.
:mod:`chimera_dsl.tell.rulebook` writes them; :func:`round_words` says a condition on the round's
number in words.
"""
from __future__ import annotations

from collections.abc import Mapping

from .catalog import Section, languages

import re
from typing import Any

LANGUAGES = languages()

# Phrases by language.  Placeholders are filled with str.format.
T: Mapping[str, dict[str, Any]] = Section("rulebook")



# The sentences of the rules that read the very cards (colours that rank, ordered combinations,
# a card in the first lead, the last card).
RULE_WORDS: Mapping[str, dict[str, Any]] = Section("rules")


# The words of the parts and clauses that read cards one by one (any N cards, one colour).
CARD_WORDS: Mapping[str, dict[str, Any]] = Section("patterns")

# A chain's unit (its cards of one rank) as the not-extending clause names it, by size.
UNIT_WORDS: Mapping[str, dict[int, str]] = Section("units", numbered=True)


_ROUND_TEST = re.compile(r"\s*round\s*(==|>=|<=|>|<)\s*(\d+)\s*")


def _round_bound(when) -> tuple[str, int] | None:
    """A condition on the round's number alone as ``(op, n)`` with op ``==``, ``>=`` or ``<=``
    (``round > 1``: ``(">=", 2)``), or None for any other condition."""
    match = _ROUND_TEST.fullmatch(when) if isinstance(when, str) else None
    if match is None:
        return None
    op, n = match.group(1), int(match.group(2))
    if op == ">":
        return ">=", n + 1
    if op == "<":
        return "<=", n - 1
    return op, n


def cut_words(cut: dict | None, t: dict) -> str:
    """The deal's cut in words (``deal.cut``: from, to), or the cut that turns the face-up card
    up when the file gives none; ``t`` the rulebook's words."""
    if not cut:
        return t["cut_any"]
    lo, hi = cut.get("from"), cut.get("to")
    return t["cut_exact"].format(n=lo) if lo == hi else t["cut"].format(lo=lo, hi=hi)


def round_words(when, t: dict) -> str | None:
    """A condition on the round's number alone in words (``round > 1``: "from round 2 on"), or
    None for any other condition, which the rulebook shows as written."""
    bound = _round_bound(when)
    if bound is None:
        return None
    op, n = bound
    if n < 1 or (op == ">=" and n == 1):
        return None                     # never or always: written as it is
    if n == 1:                          # == 1 or <= 1
        return t["r_first"]
    return t[{"==": "r_only", ">=": "r_from", "<=": "r_upto"}[op]].format(n=n)


def phase_words(spec: dict, name: str, lang: str) -> str:
    """A phase of the file's own in words: its ``names`` in ``lang``, else its id with spaces."""
    names = ((spec.get("phases") or {}).get(name) or {}).get("names") or {}
    return str(names.get(lang) or names.get("en") or name.replace("_", " "))
