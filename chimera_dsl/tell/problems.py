"""The loader's messages in a person's language, by message templates read from the catalogs.

The loader, the schema check, the pattern and expression compilers and the meaning checks
compose their messages in English (hundreds of them, each naming keys and values of the file);
the library, ``--json`` and the tests read that English.  A person reads them through the
``loader`` section of the catalogs: ``templates`` maps an English message template, whose
``{fields}`` stand for what the loader put in, to the same message in the catalog's language.
A message is matched against the English templates (the one with the most words of its own
first), and its fields are put into the language's template:

    "unknown key '{key}'{inside}"  ->  "clé inconnue '{key}'{inside}"

A field written between quotes in the English template (``'{key}'``), or named in the
catalog's ``verbatim`` list (``{example}``: YAML, ``{path}``: keys), is the file's own text
and stays as written (a ``{path}`` or an unquoted ``{key}`` is keys joined by dots, never words; ``{names}`` a list, never past a ``;``); any other field (``{inside}``: `` in deck``, ``{kind}``: ``a
list``) is itself looked up in the templates, so the parts a message is built of are
translated once each; parts joined by ``"; "`` (and, in a field, by ``", "``) are looked up
one by one, and said so only when every part is.  A message no template matches is said in English.
"""
from __future__ import annotations

import functools
import re
import string
from typing import Iterable

from ..errors import ExpressionError, PatternError, Problem, one_line
from .catalog import catalog

_DEPTH = 4          # fields within fields that are looked up again
# what a field matches: anything, but a {path} is keys joined by dots (deck.ranks.0), never a phrase
_FIELD = {"path": r"[\w./-]+?", "key": r"[\w./-]+?", "names": r"[^;]+?"}


def _compiled(template: str) -> tuple[re.Pattern, set[str]] | None:
    """The regular expression matching the messages ``template`` makes, and its quoted fields."""
    pattern, seen, quoted = "", set(), set()
    parts = list(string.Formatter().parse(template))
    for i, (literal, name, _, _) in enumerate(parts):
        pattern += re.escape(literal)
        if name is None:
            continue
        if not name.isidentifier():
            return None
        following = parts[i + 1][0] if i + 1 < len(parts) else ""
        quote = literal[-1:] if literal.endswith(("'", '"')) and following.startswith(literal[-1]) else ""
        if quote:
            quoted.add(name)
        if name in seen:
            pattern += f"(?P={name})"
        else:        # a quoted field holds no quote of its own
            pattern += f"(?P<{name}>{f'[^{quote}]+?' if quote else _FIELD.get(name, '.+?')})"
            seen.add(name)
    return re.compile(pattern + r"\Z", re.S), quoted


def _literal_size(template: str) -> int:
    return sum(len(literal) for literal, *_ in string.Formatter().parse(template))


def _weak(template: str) -> bool:
    """A template of joints alone (``{one} or {other}``, ``{path}: {message}``), which matches
    it only where each of its fields is said too (else any sentence holding ' or ' would be
    cut in two)."""
    letters = " ".join(literal for literal, *_ in string.Formatter().parse(template))
    return not re.search(r"[^\W\d_]{4}", letters)


@functools.lru_cache(maxsize=None)
def _table(lang: str) -> list[tuple[re.Pattern, set[str], str, bool]]:
    """The language's templates, compiled, the most specific (most literal text) first."""
    templates = catalog(lang).get("loader", {}).get("templates", {})
    out = []
    for english in sorted(templates, key=lambda t: (-_literal_size(t), t)):
        compiled = _compiled(english)
        own = templates[english]
        if compiled is None or not isinstance(own, str) or not _literal_size(english):
            continue
        out.append((compiled[0], compiled[1], own, _weak(english)))
    return out


@functools.lru_cache(maxsize=1)
def _verbatim() -> frozenset[str]:
    """The fields that hold the file's own words wherever they stand (a path, YAML written as
    an example), named by the English catalog."""
    return frozenset(catalog("en").get("loader", {}).get("verbatim", ()))


def translated(text: str | None, lang: str) -> str | None:
    """``text``, an English message of the loader, in ``lang`` (as it is when no template
    of the catalog matches it)."""
    if text is None or lang == "en":
        return text
    said = _said(text, lang, 0)
    return text if said is None else said[0]


_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


def _as_written(part: str) -> tuple[str, bool] | None:
    """A part that is said as it is in every language: quoted, or without a letter."""
    return (part, True) if _QUOTED.fullmatch(part) or not re.search(r"[^\W\d_]", part) else None


def _said(text: str, lang: str, depth: int) -> tuple[str, bool] | None:
    """``text`` in ``lang`` by a template, and whether every part of it was said (a field no
    template knows, other than the file's own words, stays English); None when no template
    matches it."""
    if depth > _DEPTH:
        return None
    first = None            # the first template that matched, though a field of it was not said
    for pattern, quoted, own, weak in _table(lang):
        match = pattern.match(text)
        if match is None:
            continue
        fields, whole = {}, True
        for name, value in match.groupdict().items():
            if name in quoted or name in _verbatim() or _QUOTED.fullmatch(value):
                fields[name] = value
                continue
            said = _said(value, lang, depth + 1)
            fields[name] = value if said is None else said[0]
            whole = whole and (said[1] if said is not None else not re.search(r"[^\W\d_]", value))
        if whole:
            return own.format(**fields), True
        if not weak and first is None:
            first = own.format(**fields)
    for joint in ("; ", ", ") if depth else ("; ",):       # parts said in a row: each on its own
        if joint in text:
            parts = [_said(part, lang, depth + 1) or _as_written(part) for part in text.split(joint)]
            if all(part is not None for part in parts):     # never half a sentence in English
                return joint.join(p[0] for p in parts), all(p[1] for p in parts)
    return None if first is None else (first, False)


def _hint_frame(lang: str) -> str:
    return catalog(lang).get("loader", {}).get("hint", "(hint: {hint})")


def said(problem: Problem, lang: str) -> str:
    """``problem`` as a person reads it in ``lang``: ``FILE:LINE:COL: message (hint: ...)``,
    its place, excerpt and caret as in English, its message and hint translated."""
    if lang == "en":
        return str(problem)
    return problem.render(translated(problem.message, lang), translated(problem.hint, lang), _hint_frame(lang))


def said_problems(problems: Iterable[Problem], lang: str) -> list[str]:
    return [said(p, lang) for p in problems]


def said_error(error: Exception, lang: str) -> str:
    """An error of reading a pattern, an expression or cards in ``lang`` (its text in English
    when ``lang`` is English)."""
    if lang == "en":
        return str(error)
    frame = _hint_frame(lang)
    if isinstance(error, ExpressionError):
        lines = []
        for problem in error.problems:
            line = one_line(translated(problem.message, lang) or "")
            if problem.hint:
                line += " " + frame.format(hint=one_line(translated(problem.hint, lang) or ""))
            lines.append(line + (error.pointing(problem) if error.text else ""))
        return "\n".join(lines)
    if isinstance(error, PatternError):
        return error.render(translated(error.message, lang), translated(error.hint, lang), frame)
    text = str(error)
    first, _, rest = text.partition("\n")
    return translated(first, lang) + ("\n" + rest if rest else "")
