"""Reading a YAML file safely into a *located tree*: every value and key keeps its place.

The file is read under a size bound and composed with ``yaml.SafeLoader`` (libyaml's where
installed, for well-formed files) under a nesting bound: no object is ever constructed from a
tag.  The nodes are then walked into :class:`Map`, :class:`Seq` and :class:`Scalar`, each
with a :class:`Where` (file, line, column).  Only plain data tags are accepted, aliases are
expanded under a bound on the number of values (alias bombs), duplicate keys are refused.
Every problem is a located :class:`~chimera_dsl.errors.Problem`; nothing here raises on
bad input.
"""
from __future__ import annotations

import difflib
import functools
import json
from dataclasses import dataclass
from pathlib import Path

import yaml
from yaml.constructor import SafeConstructor

from .errors import Problem

MAX_FILE_BYTES = 1 << 20        # 1 MiB per file
MAX_DEPTH = 32                  # nesting of maps and lists
MAX_NODES = 20_000              # values in one file once aliases are expanded


# ---------------------------------------------------------------------------------------------
# The located tree
# ---------------------------------------------------------------------------------------------
@dataclass(eq=False)
class Source:
    """One file read: the label it is reported under, its absolute path, its text."""

    label: str
    path: Path
    data: bytes
    text: str = ""

    @functools.cached_property
    def lines(self) -> list[str]:
        return self.text.splitlines()

    def line(self, number: int) -> str:
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""


@dataclass(eq=False)
class Where:
    """Where a value or key was written: its file, line and column (from 1)."""

    source: Source
    line: int
    column: int
    style: str | None = None      # the scalar's style: None (plain), "'", '"', "|", ">"
    end_line: int = 0


@dataclass(eq=False)
class Scalar:
    value: object
    where: Where


@dataclass(eq=False)
class Seq:
    items: list
    where: Where


@dataclass(eq=False)
class Map:
    # str(key) -> (the key as written: str or int, where the key is, the value)
    entries: dict
    where: Where


def located(source: Source, line: int, column: int, message: str, hint: str | None = None,
             caret: bool = False) -> Problem:
    """A problem at a line and column of ``source``; with ``caret``, the line is shown with a caret."""
    text = source.line(line).replace("\t", " ") if caret else None
    text = text if text and text.strip() else None
    return Problem(message, hint=hint, file=source.label, line=line, column=column, excerpt=text)


def problem_at(where: Where, message: str, hint: str | None = None) -> Problem:
    """A problem at the place ``where``."""
    return located(where.source, where.line, where.column, message, hint)


# ---------------------------------------------------------------------------------------------
# Reading a file and its YAML
# ---------------------------------------------------------------------------------------------
_CORE = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_CORE + t for t in ("str", "int", "float", "bool", "null", "timestamp")}
_CONSTRUCT = SafeConstructor()
_YAML_HINTS = [
    ("'\\t'", "indent with spaces, not tabs"),
    ("mapping values are not allowed", "is a ':' missing after the key on the line above? A value holding ': ' must be quoted"),
    ("could not find expected ':'", "write each key as 'key: value'"),
    ("undefined alias", "an alias *name needs an anchor &name written before it"),
    ("single document", "a variant file holds one document: remove the '---' line"),
    ("expected <block end>", "check the indentation of this line against the lines above"),
    ("did not find expected key", "check the indentation of this line against the lines above"),
    ("found unexpected end of stream", "a quote or bracket is not closed"),
]


def _tag_text(tag: str) -> str:
    return "!!" + tag[len(_CORE):] if tag.startswith(_CORE) else tag


def read_source(path: Path, label: str, cited: Where | None, problems: list,
                 written: str | None = None) -> Source | None:
    """Read one file under the size bound; a problem at ``cited`` (the extends naming it) if it cannot be."""
    def fail(message: str, hint: str | None = None) -> None:
        if cited is not None:
            problems.append(problem_at(cited, message, hint))
        else:
            problems.append(Problem(message, hint=hint, file=label, line=1, column=1))
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        siblings = sorted(p.name for p in path.parent.glob("*.y*ml")) if path.parent.is_dir() else []
        close = difflib.get_close_matches(path.name, siblings, n=1)
        if written is not None:
            fail(f"extends '{written}', but there is no such file (looked for {label})",
                 f"did you mean '{close[0]}'?" if close else "the path is relative to the file that extends it")
        else:
            fail(f"cannot read '{label}': no such file")
        return None
    except IsADirectoryError:
        fail(f"cannot read '{label}': it is a directory")
        return None
    except OSError as error:
        fail(f"cannot read '{label}': {error.strerror or error}")
        return None
    if len(data) > MAX_FILE_BYTES:
        fail(f"'{label}' is larger than {MAX_FILE_BYTES // 1024} KiB, the most a variant file may be")
        return None
    source = Source(label, path.resolve(), data)
    try:
        source.text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        before = data[:error.start]
        line = before.count(b"\n") + 1
        column = len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
        problems.append(located(source, line, column, "the file is not UTF-8 text",
                                 "save it as UTF-8"))
        return None
    return source


def _yaml_problem(source: Source, error: yaml.YAMLError) -> Problem:
    if isinstance(error, yaml.MarkedYAMLError) and error.problem_mark is not None:
        mark, problem, context = error.problem_mark, error.problem or "", error.context
        if mark.index >= len(source.text.rstrip()) and error.context_mark is not None:
            mark = error.context_mark           # at the end: where the unclosed quote, bracket or map starts
        if context and problem.startswith("but "):        # "expected X, but found Y"
            message = f"YAML syntax error: {context}, {problem}"
        else:
            message = f"YAML syntax error: {problem}" + (f", {context}" if context else "")
            if context and error.context_mark is not None and error.context_mark.line != mark.line:
                message += f" on line {error.context_mark.line + 1}"
        hint = next((h for key, h in _YAML_HINTS if key in f"{problem} {context or ''}"), None)
        return located(source, mark.line + 1, mark.column + 1, message, hint, caret=True)
    if isinstance(error, yaml.reader.ReaderError):
        before = source.text[:error.position]
        line = before.count("\n") + 1
        column = error.position - (before.rfind("\n") + 1) + 1
        return located(source, line, column, f"the file holds a character YAML does not allow "
                        f"(U+{error.character:04X})", "remove it")
    return located(source, 1, 1, f"YAML error: {error}")


class _TooDeep(Exception):
    def __init__(self, mark):
        self.mark = mark


class _Loader(yaml.SafeLoader):
    """yaml's safe composer, refusing to nest deeper than MAX_DEPTH (its recursion is bounded)."""

    depth = 0

    def compose_node(self, parent, index):
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise _TooDeep(self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


# libyaml, where installed, composes the same nodes some 15 times faster.  It serves files
# that are well formed and not too deep (checked on its event stream, which is not recursive);
# anything else is read again by the pure-Python composer, whose messages the tests fix.
_FAST_LOADER = getattr(yaml, "CSafeLoader", None) if getattr(yaml, "__with_libyaml__", False) else None


def _compose_fast(text: str):
    if _FAST_LOADER is None:
        return None
    try:
        depth = 0
        for event in yaml.parse(text, Loader=_FAST_LOADER):
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth >= MAX_DEPTH:
                    return None
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
        return yaml.compose(text, Loader=_FAST_LOADER)
    except yaml.YAMLError:
        return None


def parse(source: Source, problems: list) -> Map | None:
    """The located tree of one file, or None (with problems) if it cannot be read."""
    root = _compose_fast(source.text)
    if root is not None:
        return _walk(source, root, problems)
    loader = None
    try:
        loader = _Loader(source.text)
        root = loader.get_single_node()
    except _TooDeep as error:
        problems.append(located(source, error.mark.line + 1, error.mark.column + 1,
                                 f"maps and lists are nested more than {MAX_DEPTH} deep",
                                 "a variant file is never that deep"))
        return None
    except yaml.YAMLError as error:
        problems.append(_yaml_problem(source, error))
        return None
    finally:
        if loader is not None:
            loader.dispose()
    if root is None:
        problems.append(located(source, 1, 1, "the file holds nothing (it is empty, or only comments)",
                                 "a variant starts with 'format: 1', or 'extends: <file>'"))
        return None
    return _walk(source, root, problems)


def _walk(source: Source, root, problems: list) -> Map | None:
    walker = _Walker(source, problems)
    tree = walker.node(root, 0)
    if walker.stopped:
        return None
    if not isinstance(tree, Map):
        if tree is not None:
            problems.append(problem_at(tree.where, "a variant file must be a map of keys (format, players, deck, ...)",
                                "write 'key: value' lines"))
        return None
    return tree


class _Walker:
    """Builds the located tree from composed YAML nodes, refusing what is not plain data."""

    def __init__(self, source: Source, problems: list):
        self.source = source
        self.problems = problems
        self.count = 0
        self.active: set[int] = set()
        self.seen: set[int] = set()
        self.written: list = []       # containers being walked where they are written (not copies)
        self.stopped = False

    def where(self, node) -> Where:
        return Where(self.source, node.start_mark.line + 1, node.start_mark.column + 1,
                     getattr(node, "style", None) or None, node.end_mark.line + 1)

    def problem(self, node, message: str, hint: str | None = None) -> None:
        self.problems.append(problem_at(self.where(node), message, hint))

    def node(self, node, depth: int):
        if self.stopped:
            return None
        self.count += 1
        if self.count > MAX_NODES:
            self.problem(self.written[-1] if self.written else node,
                         f"the file holds more than {MAX_NODES} values once its aliases are "
                         "expanded (an alias bomb?)", "aliases (*name) copy what their anchor holds: use fewer")
            self.stopped = True
            return None
        if depth > MAX_DEPTH:           # aliases inside aliases can nest what the composer did not
            self.problem(self.written[-1] if self.written else node,
                         f"maps and lists are nested more than {MAX_DEPTH} deep once aliases are expanded",
                         "a variant file is never that deep")
            self.stopped = True
            return None
        if id(node) in self.active:
            self.problem(node, "an alias refers to the map or list that contains it",
                         "an alias may only copy a value written before it")
            self.stopped = True
            return None
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node)
        tag_ok = node.tag == (_CORE + ("seq" if isinstance(node, yaml.SequenceNode) else "map"))
        if not tag_ok:
            self.refuse_tag(node)
            return None
        first = id(node) not in self.seen
        self.seen.add(id(node))
        self.active.add(id(node))
        if first:
            self.written.append(node)
        try:
            if isinstance(node, yaml.SequenceNode):
                items = [self.node(child, depth + 1) for child in node.value]
                return Seq([i for i in items if i is not None], self.where(node))
            return self.mapping(node, depth)
        finally:
            self.active.discard(id(node))
            if first:
                self.written.pop()

    def refuse_tag(self, node) -> None:
        tag = _tag_text(node.tag)
        if "python/" in node.tag:
            self.problem(node, f"the tag {tag} is not allowed: variant files are data, never code",
                         "remove the tag")
        else:
            self.problem(node, f"unknown tag {tag}",
                         "variant files hold plain maps, lists, strings, numbers and true/false; remove the tag")

    def scalar(self, node) -> Scalar | None:
        tag = node.tag
        if tag not in _SCALAR_TAGS:
            self.refuse_tag(node)
            return None
        value: object
        try:
            if tag == _CORE + "int":
                value = _CONSTRUCT.construct_yaml_int(node)
            elif tag == _CORE + "float":
                value = _CONSTRUCT.construct_yaml_float(node)
            elif tag == _CORE + "bool":
                value = _CONSTRUCT.construct_yaml_bool(node)
            elif tag == _CORE + "null":
                value = None
            else:                               # str, and dates read as the text written
                value = node.value
        except (ValueError, KeyError, yaml.YAMLError):
            self.problem(node, f"{short(node.value)} cannot be read as {_tag_text(tag)}", "remove the tag")
            return None
        return Scalar(value, self.where(node))

    def mapping(self, node, depth: int) -> Map:
        entries: dict = {}
        merges = []
        for key_node, value_node in node.value:
            if key_node.tag == _CORE + "merge":
                merges.append(value_node)
                continue
            key = self.key(key_node)
            value = self.node(value_node, depth + 1)
            if key is None or value is None:
                continue
            name = str(key)
            if name in entries:
                first = entries[name][1]
                self.problem(key_node, f"the key '{name}' is given twice (first on line {first.line})",
                             "keep one of them")
                continue
            entries[name] = (key, self.where(key_node), value)
        for merge_node in merges:           # '<<: *anchor' adds the keys not written here
            sources = merge_node.value if isinstance(merge_node, yaml.SequenceNode) else [merge_node]
            for one in sources:
                merged = self.node(one, depth + 1)
                if merged is None:
                    continue
                if not isinstance(merged, Map):
                    self.problem(one, "'<<' merges a map: write an alias to a map after it")
                    continue
                for name, entry in merged.entries.items():
                    entries.setdefault(name, entry)
        return Map(entries, self.where(node))

    def key(self, node):
        if not isinstance(node, yaml.ScalarNode):
            self.problem(node, "a key must be a name or a number, not a map or list")
            return None
        value = self.scalar(node)
        if value is None:
            return None
        if isinstance(value.value, bool) or value.value is None or isinstance(value.value, float):
            self.problem(node, f"the key {node.value!r} reads as {kind(value.value)}",
                         f"quote it: '{node.value}'")
            return None
        return value.value



def kind(value) -> str:
    """What a value is, for messages: "the string 'x'", "a list"..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {'true' if value else 'false'}"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {short(value)}"
    if isinstance(value, list):
        return "a list"
    return "a map"


def short(value) -> str:
    """A value quoted for a message, cut at 40 characters."""
    text = value if isinstance(value, str) else json.dumps(value)
    text = text if len(text) <= 40 else text[:37] + "..."
    return f"'{text}'" if isinstance(value, str) else text


def char_place(where: Where, text: str, offset: int) -> tuple[int, int]:
    """The line and column in the file of character ``offset`` of a scalar's value."""
    line = where.source.line(where.line)
    start = where.column - 1
    if where.style is None and where.end_line == where.line:
        return where.line, where.column + offset
    if where.style in ("'", '"') and where.end_line == where.line:
        i, n = start + 1, 0
        while n < offset and i < len(line):
            if where.style == "'" and line[i] == "'" and line[i + 1:i + 2] == "'":
                i += 2
            elif where.style == '"' and line[i] == "\\":
                i += 2 + {"x": 2, "u": 4, "U": 8}.get(line[i + 1:i + 2], 0)
            else:
                i += 1
            n += 1
        return where.line, i + 1
    if where.style == "|":
        before = text[:offset]
        k = before.count("\n")
        column = offset - (before.rfind("\n") + 1)
        body = [l for l in where.source.lines[where.line:where.end_line] if l.strip()]
        indent = len(body[0]) - len(body[0].lstrip(" ")) if body else 0
        return where.line + 1 + k, indent + column + 1
    return where.line, where.column
