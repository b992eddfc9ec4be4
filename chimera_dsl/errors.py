"""Every error chimera_dsl raises on purpose, in one place.

All of them derive from :class:`ChimeraError` (itself a ``ValueError``), so a caller can catch
one class.  A problem in a variant file is a :class:`Problem`: a message with a place.  Code
that works on the merged document (the schema, the pattern compiler, the meaning checks)
names the place as a *path* into the document (``("combinations", "pair", "pattern")``) and,
for errors inside a string, a character *offset*; the loader turns the path into the file,
line and column where that value was written.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable


INPUT_SHOWN = 60      # characters of a person's input a message repeats


def shown(text: str, limit: int = INPUT_SHOWN) -> str:
    """``text`` (typed by a person) as a message repeats it: whole when short, else its first
    ``limit`` characters and how long it was, so a long input never makes a message as long."""
    text = str(text)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters)"


def one_line(text: str) -> str:
    """``text`` with its control characters (a newline, a tab...) written as escapes (``\\n``),
    so a value read from a file never splits the one line a message takes."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a variant file."""

    message: str
    path: tuple = ()
    offset: int | None = None
    hint: str | None = None
    file: str | None = None
    line: int | None = None
    column: int | None = None
    excerpt: str | None = None      # the source line, shown with a caret under the column

    def located(self, file: str | None, line: int | None, column: int | None) -> "Problem":
        """This problem with its place in a file filled in."""
        return replace(self, file=file, line=line, column=column)

    def __str__(self) -> str:
        return self.render(self.message, self.hint)

    def render(self, message: str, hint: str | None, hint_frame: str = "(hint: {hint})") -> str:
        """The problem as printed, with ``message`` and ``hint`` (this problem's own, or the
        same in another language) and the words around the hint."""
        place = ""
        if self.file is not None:
            place = f"{self.file}:{self.line or 1}:{self.column or 1}: "
        elif self.path:
            place = "/".join(str(p) for p in self.path) + ": "
        text = place + one_line(message)
        if hint:
            text += " " + hint_frame.format(hint=one_line(hint))
        if self.excerpt is not None and self.column:
            text += f"\n    {self.excerpt}\n    {' ' * (self.column - 1)}^"
        return text


class ChimeraError(ValueError):
    """Base class of every error chimera_dsl raises on purpose."""


class VariantError(ChimeraError):
    """A variant file (or one it extends) does not load; carries every problem found."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class PatternError(ChimeraError):
    """A combination pattern string is wrong; ``offset`` is the character it is about."""

    def __init__(self, message: str, offset: int = 0, hint: str | None = None, text: str = ""):
        self.message = message
        self.offset = offset
        self.hint = hint
        self.text = text
        super().__init__(self.render())

    def render(self, message: str | None = None, hint: str | None = None, hint_frame: str = "(hint: {hint})") -> str:
        """The message, then the pattern with a caret under the character at fault (``message``
        and ``hint``: the same in another language)."""
        out = self.message if message is None else message
        hint = self.hint if hint is None else hint
        if hint:
            out += " " + hint_frame.format(hint=hint)
        if self.text:
            out += f"\n    {self.text}\n    {' ' * self.offset}^"
        return out


def _pointing(text: str, offset: int, width: int = 40) -> str:
    """The line of ``text`` that holds ``offset`` (at most ``width`` characters either side),
    with a caret under that character."""
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    end = len(text) if end < 0 else end
    left, right = max(start, offset - width), min(end, offset + width)
    before = "..." if left > start else ""
    after = "..." if right < end else ""
    return f"\n    {before}{text[left:right]}{after}\n    {' ' * (len(before) + offset - left)}^"


class ExpressionError(ChimeraError):
    """A scoring or end expression does not compile.

    ``problems`` holds every problem found, in the order of the text, each a :class:`Problem`
    whose ``offset`` is a character offset in ``text``; ``message``, ``offset`` and ``hint``
    are those of the first.
    """

    def __init__(self, problems: Iterable[Problem], text: str = ""):
        self.problems = tuple(sorted(problems, key=lambda p: p.offset or 0))
        if not self.problems:
            raise ValueError("an ExpressionError needs at least one problem")
        first = self.problems[0]
        self.message = first.message
        self.offset = first.offset or 0
        self.hint = first.hint
        self.text = text
        super().__init__(self.render())

    def render(self) -> str:
        """Each problem: its message and hint, then the line at fault with a caret under it."""
        out = []
        for problem in self.problems:
            line = problem.message
            if problem.hint:
                line += f" (hint: {problem.hint})"
            if self.text:
                line += self.pointing(problem)
            out.append(line)
        return "\n".join(out)

    def pointing(self, problem: Problem) -> str:
        """The line of the text that ``problem`` is about, with a caret under it."""
        return _pointing(self.text, problem.offset or 0)

    def __reduce__(self):
        return type(self), (self.problems, self.text)


class ExpressionEvaluationError(ChimeraError):
    """An expression failed while it was evaluated (division by zero, a value out of bounds,
    a missing or malformed value); ``offset`` is the operation at fault in ``text``."""

    def __init__(self, message: str, offset: int = 0, text: str = ""):
        self.message = message
        self.offset = offset
        self.text = text
        super().__init__(f"{message}, in the expression {text!r}" + (_pointing(text, offset) if text else ""))

    def __reduce__(self):
        return type(self), (self.message, self.offset, self.text)


class CardError(ChimeraError):
    """A card or a list of cards written by a person cannot be read, or the deck cannot hold it."""


class RecordError(ChimeraError):
    """A game record cannot be read back or does not describe a legal game."""

    def __init__(self, message: str, line: int | None = None, file: str | None = None):
        self.message = message
        self.line = line
        self.file = file
        place = ""
        if file is not None:
            place = f"{file}:{line}: " if line is not None else f"{file}: "
        elif line is not None:
            place = f"line {line}: "
        super().__init__(place + message)


class IllegalActionError(ChimeraError):
    """An action was applied to a game state that does not allow it."""
