"""Reading a YAML file safely into a *located tree*: every value and key keeps its place.

Only a regular file is read (never a device, a pipe or a socket, which could block or never
end), under a size bound, and composed with ``yaml.SafeLoader`` (libyaml's where installed)
under a nesting bound: no object is ever constructed from a tag.  The nodes are then walked into :class:`Map`, :class:`Seq` and :class:`Scalar`, each
with a :class:`Where` (file, line, column).  Only plain data tags are accepted, aliases are
expanded under a bound on the number of values (alias bombs), lists and numbers are bounded
(:data:`MAX_LIST_ITEMS`, :data:`MAX_INT_DIGITS`), duplicate keys are refused.
Every problem is a located :class:`~chimera_dsl.errors.Problem`; nothing here raises on
bad input.
"""
from __future__ import annotations

import difflib
import errno
import functools
import json
import math
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

import yaml
from yaml.constructor import SafeConstructor

from ..errors import Problem, one_line

MAX_FILE_BYTES = 1 << 20        # 1 MiB per file
MAX_DEPTH = 32                  # nesting of maps and lists
MAX_NODES = 20_000              # values in one file once aliases are expanded
MAX_LIST_ITEMS = 256            # items in one list
MAX_INT_DIGITS = 15             # digits of a whole number (below 2**53: exact in any JSON reader)
MAX_EXCERPT = 160               # a line longer than this is not quoted under a message

# YAML's line breaks (a form feed or a vertical tab is not one, as it is for str.splitlines)
_LINE_BREAK = re.compile(r"\r\n|[\r\n\x85\u2028\u2029]")


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
        """The file's lines, split where YAML breaks lines (so line numbers agree with YAML's)."""
        return _LINE_BREAK.split(self.text)

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
    text = text if text and text.strip() and len(text) <= MAX_EXCERPT else None
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
_RESOLVER = yaml.resolver.Resolver()
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


def absolute(path) -> Path:
    """``path`` made absolute, following symbolic links where it can; never raises.

    A loop of symbolic links or a NUL character leaves the path as written (made absolute):
    reading it then reports why it cannot be read.
    """
    try:
        resolved = Path(path).resolve()
    except (OSError, RuntimeError, ValueError):
        return Path(os.path.abspath(path))
    # /dev/stdin on a pipe resolves to /proc/PID/fd/pipe:[N], a name that is no file: keep the
    # path as written, so that reading it says what it is (a pipe), not that it does not exist
    if not os.path.lexists(resolved) and os.path.exists(path):
        return Path(os.path.abspath(path))
    return resolved


class _NotRegular(OSError):
    """A path names a device, a pipe or a socket: never read (it could block or never end)."""


class _TooBig(Exception):
    """A file larger than MAX_FILE_BYTES."""


def _read_regular(path: Path) -> bytes:
    """The bytes of a regular file (at most MAX_FILE_BYTES + 1); OSError, ValueError or _TooBig otherwise.

    The file is checked before it is opened, opened without blocking (a file swapped for a
    pipe in between cannot stall the read) and checked again once open.
    """
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, "") if stat.S_ISDIR(info.st_mode) else _NotRegular()
    if info.st_size > MAX_FILE_BYTES:
        raise _TooBig()                     # refused without reading it
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _NotRegular()
        chunks, size = [], 0
        while size <= MAX_FILE_BYTES:
            chunk = os.read(fd, MAX_FILE_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_source(path: Path, label: str, cited: Where | None, problems: list,
                 written: str | None = None) -> Source | None:
    """Read one regular file under the size bound; a problem at ``cited`` (the extends naming it) if it cannot be."""
    def fail(message: str, hint: str | None = None) -> None:
        if cited is not None:
            problems.append(problem_at(cited, message, hint))
        else:
            problems.append(Problem(message, hint=hint, file=label, line=1, column=1))
    try:
        data = _read_regular(path)
    except FileNotFoundError:
        try:
            siblings = sorted(p.name for p in path.parent.glob("*.y*ml")) if path.parent.is_dir() else []
        except OSError:
            siblings = []
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
    except _TooBig:
        fail(f"'{label}' is larger than {MAX_FILE_BYTES // 1024} KiB, the most a variant file may be")
        return None
    except _NotRegular:
        fail(f"cannot read '{label}': it is not a regular file (a device, a pipe or a socket)",
             "a variant is a file on disk")
        return None
    except ValueError:                  # a NUL character in the path
        fail(f"cannot read '{label}': a path cannot hold a NUL character")
        return None
    except OSError as error:
        if error.errno == errno.ELOOP:
            fail(f"cannot read '{label}': its symbolic links form a loop")
        else:
            fail(f"cannot read '{label}': {error.strerror or error}")
        return None
    if len(data) > MAX_FILE_BYTES:
        fail(f"'{label}' is larger than {MAX_FILE_BYTES // 1024} KiB, the most a variant file may be")
        return None
    source = Source(label, absolute(path), data)
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


# libyaml words a few errors differently from the pure-Python reader; the messages are the latter's
_LIBYAML_WORDING = {
    "mapping values are not allowed in this context": "mapping values are not allowed here",
}


_FLOW_TOKENS = {":": "':'", ",": "','", "[": "'['", "]": "']'", "{": "'{'", "}": "'}'", "?": "'?'",
                "&": "'<anchor>'", "*": "'<alias>'", "!": "'<tag>'"}


def _token_at(source: Source, index: int) -> str:
    """The token the pure-Python reader names at ``index`` of a flow collection ('<scalar>', ':'...)."""
    rest = source.text[index:].lstrip()
    if not rest:
        return "'<stream end>'"
    return _FLOW_TOKENS.get(rest[0], "'<scalar>'")


def _yaml_problem(source: Source, error: yaml.YAMLError) -> Problem:
    if isinstance(error, yaml.MarkedYAMLError) and error.problem_mark is not None:
        mark, problem, context = error.problem_mark, error.problem or "", error.context
        problem = _LIBYAML_WORDING.get(problem, problem)
        if problem.startswith("did not find expected ") and context and "flow" in context:
            problem = f"{problem[len('did not find '):]}, but got {_token_at(source, mark.index)}"
        if problem == "found character that cannot start any token":      # libyaml does not name it
            char = source.line(mark.line + 1)[mark.column:mark.column + 1]
            problem = f"found character {char!r} that cannot start any token" if char else problem
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


# libyaml, where installed, composes the same nodes some 15 times faster, and its answer is final:
# a file it cannot read is reported from its error (reading a large malformed file again with
# the pure-Python reader would take tens of seconds).  The nesting bound is checked on its
# event stream (which is not recursive) before it composes.
_FAST_LOADER = getattr(yaml, "CSafeLoader", None) if getattr(yaml, "__with_libyaml__", False) else None
_NODE_EVENTS = (yaml.ScalarEvent, yaml.AliasEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)


class _TooLarge(Exception):
    """The event stream already shows what the walker would refuse: a list or a file too large."""

    def __init__(self, mark, message: str, hint: str):
        self.mark, self.message, self.hint = mark, message, hint


def _compose_fast(text: str):
    """The root node as libyaml composes it (None for an empty file); raises what the pure reader would.

    Before composing, the event stream (which is not recursive, and cheaper than the nodes) is
    checked for what the walker refuses anyway: nesting, a list longer than MAX_LIST_ITEMS,
    more than MAX_NODES values.  A large file is then refused without building its nodes.
    """
    open_: list = []            # the collections open: [start event, items so far]
    nodes = 0
    too_long = None             # the first list (in the file's order) found too long, and its 257th item
    for event in yaml.parse(text, Loader=_FAST_LOADER):
        if isinstance(event, _NODE_EVENTS):
            if len(open_) + 1 > MAX_DEPTH:
                raise _TooDeep(event.start_mark)        # as deep as the pure reader refuses
            parent = open_[-1] if open_ else None
            is_key = parent is not None and isinstance(parent[0], yaml.MappingStartEvent) and parent[1] % 2 == 0
            nodes += not is_key                         # the walker counts values, not keys
            if nodes > MAX_NODES and too_long is None:
                where = parent[0].start_mark if parent else event.start_mark
                raise _TooLarge(where, f"the file holds more than {MAX_NODES} values once its aliases are "
                                "expanded (an alias bomb?)", "aliases (*name) copy what their anchor holds: use fewer")
            if parent is not None:
                parent[1] += 1
                if isinstance(parent[0], yaml.SequenceStartEvent) and parent[1] == MAX_LIST_ITEMS + 1:
                    if too_long is None or parent[0].start_mark.index < too_long[0].start_mark.index:
                        too_long = (parent[0], event.start_mark, parent)
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                open_.append([event, 0])
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            done = open_.pop()
            if too_long is not None and done is too_long[2]:
                raise _TooLarge(too_long[1], f"a list may hold at most {MAX_LIST_ITEMS} items, this one holds "
                                f"{done[1]}", "a variant file never needs a longer list")
    return yaml.compose(text, Loader=_FAST_LOADER)


def _compose_pure(text: str):
    loader = _Loader(text)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


def parse(source: Source, problems: list) -> Map | None:
    """The located tree of one file, or None (with problems) if it cannot be read."""
    try:
        root = _compose_fast(source.text) if _FAST_LOADER is not None else _compose_pure(source.text)
    except _TooDeep as error:
        problems.append(located(source, error.mark.line + 1, error.mark.column + 1,
                                 f"maps and lists are nested more than {MAX_DEPTH} deep",
                                 "a variant file is never that deep"))
        return None
    except _TooLarge as error:
        problems.append(located(source, error.mark.line + 1, error.mark.column + 1, error.message, error.hint))
        return None
    except yaml.YAMLError as error:
        problems.append(_yaml_problem(source, error))
        return None
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
                if len(node.value) > MAX_LIST_ITEMS:
                    self.problem(node.value[MAX_LIST_ITEMS], f"a list may hold at most {MAX_LIST_ITEMS} items, "
                                 f"this one holds {len(node.value)}", "a variant file never needs a longer list")
                    self.stopped = True
                    return None
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
        # a tag written in the file (not one YAML gave a plain scalar) is what a hint may ask to remove
        written = node.style is not None or _RESOLVER.resolve(yaml.ScalarNode, node.value, (True, False)) != tag
        value: object
        try:
            if tag == _CORE + "int":
                if len(node.value) > 2 * MAX_INT_DIGITS:          # too long to be read: never converted
                    raise OverflowError
                value = _CONSTRUCT.construct_yaml_int(node)
                if abs(value) >= 10 ** MAX_INT_DIGITS:
                    raise OverflowError
            elif tag == _CORE + "float":
                value = _CONSTRUCT.construct_yaml_float(node)
                if not math.isfinite(value):                        # .inf, .nan, 1e400
                    self.problem(node, f"{short(node.value)} is not a finite number: every number of a variant "
                                 "file is finite", "write a number such as 20 or 2.5")
                    return None
            elif tag == _CORE + "bool":
                value = _CONSTRUCT.construct_yaml_bool(node)
            elif tag == _CORE + "null":
                value = None
            else:                               # str, and dates read as the text written
                value = node.value
        except OverflowError:
            self.problem(node, f"the number {short(node.value)} is too large: the numbers of a variant file "
                         f"stay below 10^{MAX_INT_DIGITS} ({MAX_INT_DIGITS} digits)", "a variant never needs a number that large")
            return None
        except (ValueError, KeyError, IndexError, TypeError, AttributeError, yaml.YAMLError):
            self.problem(node, f"{short(node.value)} cannot be read as {_tag_text(tag)}",
                         "remove the tag" if written else None)
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
    """A value quoted for a message, cut at 40 characters, a newline in it written ``\\n``."""
    text = value if isinstance(value, str) else json.dumps(value)
    text = one_line(text if len(text) <= 40 else text[:37] + "...")
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
