"""Loading variant files: strict, safe, and every problem at once with its place.

The pipeline:

1. **read** the file and its YAML into a located tree (:mod:`chimera_dsl.language.yamlsource`: size
   and nesting bounds, safe tags only, alias bombs refused, the place of every value kept);
2. **extends**: a file may change another; maps merge key by key, ``null`` removes an
   entry, lists and scalars replace.  Every value keeps the place where it was written;
3. **schema**: the merged document is checked against ``schema/variant.schema.json``
   (draft 2020-12) and every error becomes a located :class:`Problem` with a hint;
   defaults declared in the schema are filled in;
4. **meaning**: what a schema cannot say (the deck is large enough for the deal, bid levels
   go up, every level has an exchange count, names refer to ranks and combinations that
   exist, patterns compile and can match), all reported together;
5. **compile**: the :class:`~chimera_dsl.rules.Rules`.

``load_variant(path)`` raises :class:`VariantError` with every problem;
``check_variant(path)`` returns them.  A problem prints as ``FILE:LINE:COL: message``.
"""
from __future__ import annotations

import copy
import difflib
import functools
import hashlib
import json
from typing import Any, Sequence
import os
import re
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import best_match

from .cards import MAX_DECK_CARDS, Deck, resolve_ranks
from .errors import CardError, Problem, VariantError
from .engine.proofs import prove_playable
from .engine.phases import registry
from .engine.round import compile_round, phase_kinds, places_of, voids_all_pass
from .engine.seats import SeatError, parse_seat
from .matcher import compile_combinations
from .rules import Rules, max_hand_of
from .language.yamlsource import Map, Scalar, Seq, Where, absolute, char_place, located, parse, problem_at, read_source
from .language.yamlsource import MAX_INT_DIGITS
from .language.yamlsource import kind as _kind
from .language.yamlsource import short as _short

MAX_EXTENDS = 8                 # files in one chain of extends
MAX_BID_LEVELS = 32             # bids a variant may offer
MAX_TOTAL_PLAYS = 400_000       # plays one hand may list, all combinations together (see docs: Limits)

# Words of the pattern language, which a group of ranks may not be called.
PATTERN_WORDS = ("any", "each", "distinct", "of", "consecutive", "wild", "not", "both", "and",
                 "ranked", "by", "core", "highest", "single", "singles", "pair", "pairs", "trio",
                 "trios", "quad", "quads", "extending", "at", "most", "per", "rank")


# ---------------------------------------------------------------------------------------------
# extends
# ---------------------------------------------------------------------------------------------
@dataclass
class Document:
    """A variant file read, merged over the files it extends, with the place of every value."""

    label: str
    tree: Map | None = None
    sources: list = field(default_factory=list)      # the file first, then what it extends
    base: Path | None = None                          # the file it extends directly (absolute)
    problems: list = field(default_factory=list)
    values: dict = field(default_factory=dict)        # path (tuple of str) -> Where of the value
    keys: dict = field(default_factory=dict)          # path -> Where of the key naming it
    removed: dict = field(default_factory=dict)       # path -> Where of the key a null (or empty value) removed

    def place(self, path, key: bool = False) -> Where:
        """Where the value at ``path`` (or, with ``key``, the key naming it) was written.

        A path that was never written (a default, a missing key) gives the nearest enclosing
        value that was.  Only for a document that was read (``tree`` is not None).
        """
        path = tuple(str(p) for p in path)
        if key and path in self.keys:
            return self.keys[path]
        while path not in self.values and path:
            path = path[:-1]
        return self.values[path]

    def where(self, path, key: bool = False) -> tuple[str, int, int]:
        """(file, line, column) of the value at ``path`` (see :meth:`place`)."""
        place = self.place(path, key)
        return place.source.label, place.line, place.column

    @property
    def source_hash(self) -> str:
        digest = hashlib.sha256()
        for source in self.sources:
            digest.update(source.data)
        return digest.hexdigest()


def read_document(path) -> Document:
    """Read a variant file and the files it extends into one located tree (no schema yet)."""
    label = str(path)
    doc = Document(label)
    start = absolute(path)
    doc.tree = _load_chain(start, label, [start], doc, None)
    if doc.tree is not None:
        _index(doc.tree, (), doc)
    return doc


def _load_chain(path: Path, label: str, chain: list, doc: Document, cited: Where | None,
                written: str | None = None) -> Map | None:
    source = read_source(path, label, cited, doc.problems, written)
    if source is None:
        return None
    doc.sources.append(source)
    tree = parse(source, doc.problems)
    if tree is None:
        return None
    entry = tree.entries.pop("extends", None)
    if entry is None:
        return _merge(None, tree, (), doc, extends=False)
    _, _, value = entry
    if not (isinstance(value, Scalar) and isinstance(value.value, str) and value.value.strip()):
        doc.problems.append(problem_at(value.where, "'extends' must be the path of another variant file",
                                "e.g. extends: ../chimera.yaml"))
        return None
    target = absolute(path.parent / value.value)
    target_label = os.path.normpath(os.path.join(os.path.dirname(label), value.value))
    if len(chain) == 1:
        doc.base = target
    if target in chain:
        names = [s.label for s in doc.sources] + [target_label]
        doc.problems.append(problem_at(value.where, "circular extends: " + " -> ".join(names),
                                "a file may not extend itself, directly or through others"))
        return None
    if len(chain) >= MAX_EXTENDS:
        doc.problems.append(problem_at(value.where, f"more than {MAX_EXTENDS} files extend one another",
                                "extend the official file directly"))
        return None
    base = _load_chain(target, target_label, chain + [target], doc, value.where, value.value)
    if base is None:
        return None
    if "titles" in base.entries and "titles" not in tree.entries:
        # the titles translate the base's name: a file of its own name does not inherit them
        base = Map({k: v for k, v in base.entries.items() if k != "titles"}, base.where)
    return _merge(base, tree, (), doc)


def _merge(base: Map | None, over: Map, path: tuple, doc: Document, extends: bool = True) -> Map:
    """``over`` written on ``base``: maps merge, null removes, anything else replaces.

    ``extends`` is false for a file that extends none, where a null has nothing to remove.
    """
    entries = dict(base.entries) if base is not None else {}
    for name, (key, kwhere, value) in over.entries.items():
        here = path + (name,)
        if isinstance(value, Scalar) and value.value is None:
            if name in entries:
                del entries[name]
                doc.removed[here] = kwhere
            else:
                doc.problems.append(_null_problem(here, kwhere, base, extends))
            continue
        old = entries.get(name)
        if old is not None and isinstance(old[2], Map) and isinstance(value, Map):
            entries[name] = (key, kwhere, _merge(old[2], value, here, doc, extends))
        else:
            entries[name] = (key, kwhere, _merge(None, value, here, doc, extends)
                             if isinstance(value, Map) else value)
    return Map(entries, over.where)


def _null_problem(path: tuple, kwhere: Where, base: Map | None, extends: bool) -> Problem:
    dotted = ".".join(path)
    message = (f"{dotted} is null, which removes an entry of the file extended, but "
               + ("there is none to remove" if extends else "this file extends none"))
    there = list(base.entries) if base else []
    close = [] if path[-1].isdigit() else difflib.get_close_matches(path[-1], there, n=1)
    hint = f"did you mean '{close[0]}'?" if close else "give it a value, or delete the line"
    if not close and there and len(there) <= 8:
        hint = "the file extended has " + ", ".join(there)
    return problem_at(kwhere, message, hint)


def _index(node, path: tuple, doc: Document) -> None:
    doc.values[path] = node.where
    if isinstance(node, Map):
        for name, (_, kwhere, child) in node.entries.items():
            doc.keys[path + (name,)] = kwhere
            _index(child, path + (name,), doc)
    elif isinstance(node, Seq):
        for i, child in enumerate(node.items):
            doc.keys[path + (str(i),)] = child.where
            _index(child, path + (str(i),), doc)


def _plain(node, string_keys: bool = False):
    """The tree as plain dicts, lists and scalars (keys as written, or all as strings)."""
    if isinstance(node, Map):
        return {(name if string_keys else key): _plain(child, string_keys)
                for name, (key, _, child) in node.entries.items()}
    if isinstance(node, Seq):
        return [_plain(child, string_keys) for child in node.items]
    return node.value


def base_of(path) -> Path | None:
    """The file that the variant at ``path`` extends directly (absolute), or None."""
    where = absolute(path)
    problems: list = []
    source = read_source(where, str(path), None, problems)
    tree = parse(source, problems) if source else None
    entry = tree.entries.get("extends") if tree else None
    if entry is None or not isinstance(entry[2], Scalar) or not isinstance(entry[2].value, str):
        return None
    return absolute(where.parent / entry[2].value)


# ---------------------------------------------------------------------------------------------
# The JSON Schema
# ---------------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def schema() -> dict:
    """The JSON Schema of variant files (draft 2020-12), shipped in the package."""
    text = resources.files("chimera_dsl.schema").joinpath("variant.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


@functools.lru_cache(maxsize=1)
def _validator():
    # YAML's true is not an integer, nor is 2.0: integers are strict.
    checker = Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _, value: isinstance(value, int) and not isinstance(value, bool))
    return validators.extend(Draft202012Validator, type_checker=checker)(schema())


def _resolve(node: dict) -> dict:
    ref = node.get("$ref") if isinstance(node, dict) else None
    if ref and ref.startswith("#/$defs/"):
        resolved = dict(schema()["$defs"][ref[len("#/$defs/"):]])
        resolved.update({k: v for k, v in node.items() if k != "$ref"})
        return resolved
    return node


def _schema_at(path: tuple) -> dict | None:
    """The schema that applies at ``path`` of the document (None where nothing is declared)."""
    node = _resolve(schema())
    for step in path:
        props = node.get("properties", {})
        if step in props:
            node = _resolve(props[step])
        elif isinstance(node.get("additionalProperties"), dict):
            node = _resolve(node["additionalProperties"])
        elif isinstance(node.get("items"), dict) and str(step).isdigit():
            node = _resolve(node["items"])
        else:
            return None
    return node


_TYPE_NAMES = {"integer": "a whole number", "number": "a number", "string": "a string",
               "boolean": "true or false", "array": "a list", "object": "a map of keys", "null": "null"}
_TYPE_EXAMPLES = {"integer": 1, "number": 1, "string": "text", "boolean": True}


def _flow(value) -> str:
    """A value written as YAML flow (for examples in hints)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, str) and (not value or any(c in value for c in ":#{}[],&*!|>'\"%@`") or value.strip() != value):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _example(path: tuple, node: dict | None) -> str | None:
    if not node:
        return None
    name = path[-1] if path else None
    if node.get("examples"):
        value = node["examples"][0]
    else:
        types = node.get("type")
        types = [types] if isinstance(types, str) else (types or [])
        if not types or types[0] not in _TYPE_EXAMPLES:
            return None
        value = _TYPE_EXAMPLES[types[0]]
    if name is None or str(name).isdigit():
        return f"e.g. {_flow(value)}"
    return f"e.g. {name}: {_flow(value)}"


def _expected(node: dict) -> str:
    if node.get("title") and not node["title"].startswith(("a combination", "a bonus", "a round")):
        return node["title"]
    types = node.get("type")
    types = [types] if isinstance(types, str) else [t for t in (types or []) if t != "null"]
    return " or ".join(_TYPE_NAMES.get(t, t) for t in types) or "something else"


def _dotted(path: tuple) -> str:
    return ".".join(str(p) for p in path) if path else "the file"


def rulebook_languages() -> tuple[str, ...]:
    """The languages the rulebook speaks, English first: the codes of its catalogs
    (``chimera_dsl/tell/locales/LANG.json``), read as data as the schema is, for the checks of
    ``labels`` (the catalogs' words are the telling layer's, above loading)."""
    found = sorted(p.name[:-5] for p in resources.files("chimera_dsl.tell.locales").iterdir()
                   if p.name.endswith(".json"))
    return tuple(["en"] + [lang for lang in found if lang != "en"])


def _schema_problems(doc: Document, instance) -> tuple[list[Problem], set]:
    """Every schema error as a located problem, and the top-level sections whose values are wrong.

    An unknown key does not make a section wrong: the values beside it can still be checked.
    """
    problems: list[Problem] = []
    broken: set[str] = set()
    for error in _validator().iter_errors(instance):
        path = tuple(str(p) for p in error.absolute_path)
        problems.extend(replace(p, path=path) for p in _schema_error(doc, error, path))
        if error.validator == "required":
            broken.update((path + (k,))[0] for k in error.validator_value if k not in error.instance)
        elif error.validator != "additionalProperties":
            broken.add(path[0] if path else "")
    return problems, broken


def _schema_error(doc: Document, error, path: tuple) -> list[Problem]:
    kind = error.validator
    if kind in ("anyOf", "oneOf") and error.context:
        # the value fits none of the forms: explain by the form it is closest to (one whose
        # type it has, where an element or an entry is wrong), not by the list of forms
        deeper = [e for e in error.context if e.validator != "type" or e.relative_path]
        entries = [e for e in deeper if e.relative_path]       # a map whose entry is wrong: say the entry
        if entries and isinstance(error.instance, dict):
            deeper = entries
        if deeper:
            sub = best_match(deeper)
            return _schema_error(doc, sub, tuple(str(p) for p in sub.absolute_path))
        forms = [_resolve(branch).get("title") or _expected(_resolve(branch)) for branch in error.validator_value]
        return [problem_at(doc.place(path), f"{_dotted(path)} must be {' or '.join(forms)}, not {_kind(error.instance)}",
                           (error.schema.get("description") if isinstance(error.schema, dict) else None))]
    node = _resolve(error.schema) if isinstance(error.schema, dict) else {}
    if not node.get("examples") and path:   # an entry of a map: the map's example of that key
        for example in (_schema_at(path[:-1]) or {}).get("examples") or ():
            if isinstance(example, dict) and path[-1] in example:
                node = {**node, "examples": [example[path[-1]]]}
                break
    where = doc.place(path)
    name = _dotted(path)
    value = error.instance
    if kind == "additionalProperties":
        known = list(node.get("properties", {}))
        patterns = node.get("patternProperties", {})
        out = []
        for key in value:
            if key in known or any(re.search(p, key) for p in patterns):
                continue
            close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
            advice = f"did you mean '{close[0]}'?" if close else "known keys: " + ", ".join(known)
            inside = f" in {name}" if path else ""
            out.append(problem_at(doc.place(path + (key,), key=True), f"unknown key '{key}'{inside}", advice))
        return out
    if kind == "required":
        missing = [k for k in error.validator_value if k not in value]
        who = f"{name} lacks" if path else "the variant lacks"
        if len(missing) > 1:
            keys = ", ".join(f"'{k}'" for k in missing[:-1]) + f" and '{missing[-1]}'"
            return [problem_at(doc.place(path, key=True), f"{who} the keys {keys}",
                        None if path else "write them, or extend a file that has them: extends: <file>")]
        sub = _schema_at(path + (missing[0],))
        hint: str | None = _example((missing[0],), sub) or (sub or {}).get("description")
        return [problem_at(doc.place(path, key=True), f"{who} the key '{missing[0]}'", hint)]
    if kind == "type":
        own = _schema_at(path)          # the key's own example (a condition), not its shared type's
        hint = _example(path, own if own and own.get("examples") else node)
        if not hint and node.get("type") == "array" and isinstance(value, (int, float, str)) \
                and not isinstance(value, bool):
            hint = f"write it as a list: [{value}]"     # one value where a list is read
        return [problem_at(where, f"{name} must be {_expected(node)}, not {_kind(value)}", hint)]
    if kind == "enum":
        options = [str(o) for o in error.validator_value]
        close = difflib.get_close_matches(str(value), options, n=1)
        hint = f"did you mean '{close[0]}'?" if close else (_example(path, node) or "")
        return [problem_at(where, f"{name} must be one of {', '.join(options)}; not {_short(value)}", hint)]
    if kind == "const":
        return [problem_at(where, f"{name} must be {_flow(error.validator_value)}", _example(path, node))]
    if "propertyNames" in error.relative_schema_path:      # a key of the map at path is wrong
        key_place = doc.place(path + (str(value),), key=True)
        if error.validator_value == "^[0-9]+$":
            return [problem_at(key_place, f"the keys of {name} are bid levels (whole numbers), not {_short(value)}",
                        _example(path, _schema_at(path)))]
        return [problem_at(key_place, f"{_short(value)} cannot name an entry of {name}",
                    "names use letters, digits and '_', and do not start with a digit")]
    if kind == "pattern":
        if node.get("title"):
            return [problem_at(where, f"{name} must be {node['title']}, not {_kind(value)}", _example(path, node))]
        return [problem_at(where, f"{_short(value)} is not a valid name for {name}",
                    "names use letters, digits and '_', and do not start with a digit")]
    if kind in ("minimum", "exclusiveMinimum"):
        return [problem_at(where, f"{name} must be at least {error.validator_value}, not {value}", _example(path, node))]
    if kind in ("maximum", "exclusiveMaximum"):
        return [problem_at(where, f"{name} may be at most {error.validator_value}, not {value}", _example(path, node))]
    if kind == "minItems":
        return [problem_at(where, f"{name} needs at least {error.validator_value} item(s)", _example(path, node))]
    if kind == "maxItems":
        return [problem_at(where, f"{name} may hold at most {error.validator_value} items, not {len(value)}")]
    if kind == "uniqueItems":
        seen, twice = set(), None
        for item in value:
            marker = json.dumps(item, sort_keys=True)
            if marker in seen:
                twice = item
                break
            seen.add(marker)
        return [problem_at(where, f"{name} lists {_flow(twice)} twice", "each item may appear once")]
    if kind == "minLength":
        return [problem_at(where, f"{name} may not be empty", _example(path, node))]
    if kind == "maxLength":
        return [problem_at(where, f"{name} may be at most {error.validator_value} characters long, not {len(value)}")]
    if kind == "minProperties":
        return [problem_at(where, f"{name} needs at least {error.validator_value} entry", _example(path, node))]
    if kind == "maxProperties":
        return [problem_at(where, f"{name} may hold at most {error.validator_value} entries, not {len(value)}")]
    return [problem_at(where, f"{name}: {error.message}")]


def _fill_defaults(value, node: dict | None) -> None:
    """Insert the defaults the schema declares for keys a map leaves out (in place)."""
    if node is None:
        return
    node = _resolve(node)
    if isinstance(value, dict):
        props = node.get("properties", {})
        for key, sub in props.items():
            sub_resolved = _resolve(sub)
            if key not in value and "default" in sub_resolved:
                value[key] = copy.deepcopy(sub_resolved["default"])
            if key in value:
                _fill_defaults(value[key], sub_resolved)
        extra = node.get("additionalProperties")
        if isinstance(extra, dict):
            for key, child in value.items():
                if str(key) not in props:
                    _fill_defaults(child, extra)
    elif isinstance(value, list) and isinstance(node.get("items"), dict):
        for child in value:
            _fill_defaults(child, node["items"])


def _fill_derived_defaults(spec: dict, broken: set) -> None:
    """Defaults that depend on other values (the number of players, the bid levels); bids as numbers."""
    players = spec.get("players") if "players" not in broken else None
    bidding, play = spec.get("bidding"), spec.get("play")
    if isinstance(bidding, dict) and "bidding" not in broken:
        if isinstance(players, int):
            bidding.setdefault("passes_to_close", players - 1)
        if bidding.get("levels"):
            bidding.setdefault("all_pass", {}).setdefault("forced_bid", min(bidding["levels"]))
    if isinstance(play, dict) and "play" not in broken and isinstance(players, int) and play.get("kind") != "tricks":
        # (a climbing play's: a trick-taking play never reads it, and a house file of one would
        # list it among its differences when the players change)
        play.setdefault("passes_to_close_trick", players - 1)
    exchange = spec.get("exchange")
    if isinstance(exchange, dict) and "exchange" not in broken and isinstance(exchange.get("count_by_bid"), dict):
        counts = exchange["count_by_bid"]                             # bids are numbers, however written
        numbers = {_bid_number(k) for k in counts}
        if None not in numbers and len(numbers) == len(counts):     # else the meaning check says why
            exchange["count_by_bid"] = {_bid_number(k): v for k, v in counts.items()}


def _bid_number(key) -> int | None:
    """A count_by_bid key as a bid (written 20 or "20"); None if it is too long to be one."""
    if isinstance(key, int):
        return key
    text = str(key)
    return int(text) if text.isascii() and text.isdigit() and len(text) <= MAX_INT_DIGITS else None


# ---------------------------------------------------------------------------------------------
# Meaning checks
# ---------------------------------------------------------------------------------------------
class _Checks:
    """The checks a schema cannot express; each adds (path, problem, hint) and is told where."""

    def __init__(self, doc: Document, spec: dict, broken: set):
        self.doc = doc
        self.spec = spec
        self.broken = broken          # top-level sections with schema errors: not checked further
        self.problems: list[Problem] = []
        self.deck: Deck | None = None
        self.combinations: list = []
        self.intern: dict = {}

    def section(self, name: str) -> dict:
        """A top-level section as a map; {} when it is missing or not a map (the schema says so)."""
        value = self.spec.get(name)
        return value if isinstance(value, dict) else {}

    def ok(self, *sections: str) -> bool:
        return all(s in self.spec and s not in self.broken for s in sections)

    def add(self, path: tuple, message: str, hint: str | None = None, key: bool = False) -> None:
        problem = problem_at(self.doc.place(path, key), message, hint)
        self.problems.append(replace(problem, path=tuple(str(p) for p in path)))

    def run(self) -> None:
        self.check_budget()
        if self.ok("deck"):
            self.check_deck()
        if self.deck is not None and self.ok("deal", "players"):
            self.check_deal(self.deck)
        if self.ok("bidding", "players", "deal"):
            self.check_bidding()
        self.check_needs_bidding()
        if self.ok("exchange", "bidding", "deal"):
            self.check_exchange()
        if self.deck is not None and self.ok("combinations", "deal") and "nest" not in self.broken:
            self.check_combinations(self.deck)
        if self.ok("play", "players"):
            self.check_play()
            if "phases" not in self.broken and "round" not in self.broken:
                self.check_phase_needs()
        if self.ok("scoring"):
            self.check_scoring()
        if self.ok("labels") and "scoring" not in self.broken and "values" not in self.broken:
            self.check_labels()
        if self.deck is not None and self.ok("players"):
            self.check_seats(self.deck)

    # -- seats --------------------------------------------------------------------------------
    SEAT_PATHS = (("deal", "next_dealer"), ("bidding", "opener"), ("bidding", "all_pass", "forced_bidder"),
                  ("play", "first_leader"), ("nest", "to"), ("exchange", "from"), ("exchange", "to"))

    def check_seats(self, deck: Deck) -> None:
        """Every seat the file names is one of the seat vocabulary (see :mod:`chimera_dsl.engine.seats`)."""
        roles = tuple(str(r) for r in self.section("roles")) + ("bidder", "others")
        paths = list(self.SEAT_PATHS)
        for name, phase in self.section("phases").items():
            if isinstance(phase, dict):
                paths += [("phases", name, "from"), ("phases", name, "to")]

        def card_number(text: str) -> int | None:
            try:
                return deck.numbers_of(deck.cards_mask(text))[0]
            except CardError:
                return None
        for path in paths:
            node = self.spec
            for step in path:
                node = node.get(step) if isinstance(node, dict) else None
            if node is None or path[0] in self.broken or node in ("next", "nobody", "others") \
                    or (path[-1] == "from" and node == "each") or (path[-1] == "to" and (
                        node in ("each_other", "left", "right", "across")
                        or (isinstance(node, dict) and "by_round" in node))):
                continue
            # what a transfer reads at its from and to besides seats, offered when a name is misspelt
            words = ("each",) if path[-1] == "from" else ("next", "each_other", "left", "right", "across") \
                if path[-1] == "to" and path[0] != "nest" else ()
            try:
                parse_seat(node, self.spec["players"], roles, card_number, places=places_of(self.spec), words=words)
            except SeatError as error:
                self.add(path + tuple(str(p) for p in error.path), f"{'.'.join(path)}: {error.message}", error.hint)

    # -- names of ranks and combinations ----------------------------------------------------
    def ranks(self, value, path: tuple, key: bool = False, groups: Sequence[str] = ()) -> list[int] | None:
        """The rank indices ``value`` names, or None (the problem added).  ``groups``: the groups
        that may stand there too, named with the ranks when the value is neither."""
        ranks = [str(r) for r in self.spec["deck"]["ranks"]]
        try:
            return resolve_ranks(value, ranks)
        except KeyError as error:
            bad = str(error.args[0])
            if "runs downwards" in bad:
                self.add(path, f"the range {bad}", "write the lower rank first", key)
            else:
                known = ranks + [str(g) for g in groups]
                close = [] if bad.isdigit() else difflib.get_close_matches(bad, known, n=1)
                listed = "ranks: " + ", ".join(ranks) + ("; groups: " + ", ".join(map(str, groups)) if groups else "")
                self.add(path, f"unknown rank{' or group' if groups else ''} '{bad}'",
                         f"did you mean '{close[0]}'?" if close else listed, key)
            return None

    def one_rank_each(self, entries: dict, path: tuple, what: str, groups: Sequence[str] = ()) -> None:
        """The keys of a map by rank (names, treasures): each names one rank, and no rank twice
        (``groups``: the groups a key may name instead, already left out of ``entries``)."""
        seen: dict[int, object] = {}
        for key in entries:
            here = path + (key,)
            indices = self.ranks(key, here, key=True, groups=groups)
            if indices is None:
                continue
            if len(indices) != 1 or ".." in str(key):
                self.add(here, f"'{key}' names {len(indices)} ranks, but each key of {'.'.join(path)} gives "
                         f"{what}", "write one rank per key", key=True)
            elif indices[0] in seen:
                self.add(here, f"'{key}' and '{seen[indices[0]]}' name the same rank (cards are read without "
                         "regard to case)", "keep one of them", key=True)
            else:
                seen[indices[0]] = key

    def combination(self, cid, path: tuple, what: str) -> None:
        known = list((self.spec.get("combinations") or {}))
        if cid not in known:
            close = difflib.get_close_matches(str(cid), known, n=1)
            self.add(path, f"{what} names the unknown combination '{cid}'",
                     f"did you mean '{close[0]}'?" if close else "combinations: " + ", ".join(known))

    # -- deck ---------------------------------------------------------------------------------
    def check_deck(self) -> None:
        deck = self.spec["deck"]
        before = len(self.problems)
        total = 0                                       # cards of the entries so far
        colours = deck.get("colours") or []
        seen: dict[str, int] = {}
        for i, rank in enumerate(deck["ranks"]):       # cards are read without regard to case
            if str(rank).upper() in seen:
                self.add(("deck", "ranks", i), f"the ranks '{deck['ranks'][seen[str(rank).upper()]]}' and "
                         f"'{rank}' differ only in case", "cards are read without regard to case: rename one")
            seen.setdefault(str(rank).upper(), i)
        for i, entry in enumerate(deck["cards"]):
            here = ("deck", "cards", i)
            indices = self.ranks(entry["ranks"], here + ("ranks",))
            if "per_colour" in entry and "copies" in entry:
                self.add(here, "a deck entry gives both per_colour and copies", "keep one of them")
            if "per_colour" in entry and not colours:
                self.add(here + ("per_colour",), "per_colour needs deck.colours, and there are none",
                         "list the colours, or write copies")
            if "colour" in entry and "per_colour" in entry:
                self.add(here + ("colour",), "a deck entry gives both per_colour and colour",
                         "per_colour makes cards of every colour (or of its 'colours'); colour makes them of one")
            if "colours" in entry and "per_colour" not in entry:
                self.add(here + ("colours",), "colours chooses the colours of per_colour, and this entry has none",
                         "write per_colour: N beside it")
            named: list[tuple[tuple, Any]] = [(("colour",), entry["colour"])] if "colour" in entry else []
            named += [(("colours", k), c) for k, c in enumerate(entry.get("colours") or [])]
            for where, name in named:
                if str(name) not in [str(c) for c in colours]:
                    close = difflib.get_close_matches(str(name), [str(c) for c in colours], n=1)
                    self.add(here + where, f"names the colour '{name}', which deck.colours does not list",
                             f"did you mean '{close[0]}'?" if close else "colours: " + (", ".join(map(str, colours)) or "none"))
            if "per_colour" in entry:
                each = entry["per_colour"] * max(len(entry.get("colours") or colours), 1)
            else:
                each = entry.get("copies", 1)
            if total <= MAX_DECK_CARDS:
                total += each * len(indices or [])
                if total > MAX_DECK_CARDS:
                    self.add(here, f"with this entry the deck holds {total} cards, more than the "
                             f"{MAX_DECK_CARDS} a deck may hold",
                             "the size of the deck bounds the work of every game: give fewer ranks, "
                             "colours or copies")
        for k, name in enumerate(deck.get("wild_colours") or []):
            if str(name) not in [str(c) for c in colours]:
                self.add(("deck", "wild_colours", k), f"names the colour '{name}', which deck.colours does not list",
                         "colours: " + (", ".join(map(str, colours)) or "none"))
        for name in deck.get("looks") or {}:
            if str(name) not in [str(c) for c in colours]:
                close = difflib.get_close_matches(str(name), [str(c) for c in colours], n=1)
                self.add(("deck", "looks", name), f"gives the look of the colour '{name}', which deck.colours does not list",
                         f"did you mean '{close[0]}'?" if close else "colours: " + (", ".join(map(str, colours)) or "none"),
                         key=True)
        for name, value in (deck.get("groups") or {}).items():
            if str(name) in PATTERN_WORDS or str(name).upper() in {str(r).upper() for r in deck["ranks"]}:
                self.add(("deck", "groups", name), f"a group cannot be called '{name}': "
                         + ("it is a word of the pattern language" if str(name) in PATTERN_WORDS else "it is a rank"),
                         "choose another name", key=True)
            self.ranks(value, ("deck", "groups", name))
        if deck.get("sequence") is not None:
            self.ranks(deck["sequence"], ("deck", "sequence"))
        groups = {str(g) for g in deck.get("groups") or {}}
        # a colour's name (coins: {en: coins, it: denari}), unless a rank is called so too
        colours = {str(c) for c in deck.get("colours") or ()} - {str(r) for r in deck.get("ranks") or ()}
        self.one_rank_each({k: v for k, v in (deck.get("names") or {}).items() if str(k) not in groups | colours},
                           ("deck", "names"), "the long name of one rank (or of a group, or of a colour)",
                           groups=sorted(groups))
        if len(self.problems) == before:
            self.deck = Deck.from_spec(deck)

    # -- deal ---------------------------------------------------------------------------------
    def check_deal(self, deck: Deck) -> None:
        deal, players = self.spec["deal"], self.spec["players"]
        if "sits_out" in deal:
            players -= 1                   # one seat sits each round out: the others are dealt to
            if players < 2:
                self.add(("deal", "sits_out"), "deal.sits_out: with one seat sitting out, fewer than two seats would play",
                         "remove sits_out, or seat more players")
                players = max(players, 1)
            if self.section("play").get("teams"):
                self.add(("deal", "sits_out"), "deal.sits_out with play.teams: the seat sitting out would leave its "
                         "side short, its partner playing alone and the side's places incomplete",
                         "remove sits_out, or play.teams")
            if self.section("play").get("kind") == "tricks":
                self.add(("deal", "sits_out"), "deal.sits_out needs climbing play: a trick-taking play "
                         "(play.kind: tricks) deals and plays every seat", "remove sits_out", key=True)
        total = len(deck.cards)
        nest, hand = deal.get("nest", 0), deal["hand"]
        needed = nest + players * hand
        if needed > total:
            self.add(("deal", "hand"), f"the deck has {total} cards, too few to deal {nest} to the nest and "
                     f"{hand} to each of {players} players ({needed})",
                     f"a hand may be at most {(total - nest) // players} cards here")
        first = deal.get("first_dealer")
        if isinstance(first, int) and first >= players:
            self.add(("deal", "first_dealer"), f"there is no seat {first}: seats are 0 to {players - 1}")
        cut = deal.get("cut")
        low, high = (cut["from"], cut["to"]) if cut else (1, total - 1)
        if cut:
            if low > high:
                self.add(("deal", "cut"), f"the cut runs downwards: from {low} to {high}", "write the smaller number in 'from'")
            for end, count in (("from", low), ("to", high)):
                if count > total - 1:
                    self.add(("deal", "cut", end), f"a cut of {count} leaves no lower part: the deck has {total} cards",
                             f"the upper part may hold at most {total - 1}")
        if deal.get("face_up") and deal.get("face_up_in_nest") == "recut" and low <= high <= total - 1:
            # The top card of the lower part is turned on the upper part and the lower part goes on
            # top: the face-up card is card number total - upper from the top (index total - upper - 1).
            # It reaches a hand only after the nest and before the undealt cards.
            if not any(nest <= total - upper - 1 < needed for upper in range(low, high + 1)):
                self.add(("deal", "cut") if cut else ("deal", "face_up_in_nest"),
                         "with this cut the face-up card never reaches a hand, so recutting would never end",
                         f"let the upper part hold between {max(total - needed, 1)} and {total - nest - 1} cards")

    # -- bidding --------------------------------------------------------------------------------
    def check_bidding(self) -> None:
        bidding, players = self.spec["bidding"], self.spec["players"]
        levels = bidding["levels"]
        for i in range(1, len(levels)):
            if levels[i] <= levels[i - 1]:
                self.add(("bidding", "levels", i), f"bid levels must go up: {levels[i]} comes after {levels[i - 1]}",
                         "list the levels lowest first, e.g. [20, 30, 40]")
                break
        if bidding.get("passes_to_close", 0) > players:
            self.add(("bidding", "passes_to_close"), f"passes_to_close is {bidding['passes_to_close']}, but there "
                     f"are only {players} players", f"at most {players}")
        # with a void round nobody is forced to bid: the forced keys are not read
        all_pass = {} if voids_all_pass(bidding) else bidding.get("all_pass") or {}
        forced = all_pass.get("forced_bid")
        if forced is not None and forced not in levels:
            self.add(("bidding", "all_pass", "forced_bid"), f"the forced bid {forced} is not a bid level",
                     "levels: " + ", ".join(str(x) for x in levels))
        face_up = self.section("deal").get("face_up")
        if not face_up:
            for path, value in ((("bidding", "opener"), bidding.get("opener")),
                                (("bidding", "all_pass", "forced_bidder"), all_pass.get("forced_bidder"))):
                if value == "face_up_holder":
                    self.add(path, f"{'.'.join(path)} is face_up_holder, but no card is dealt face up",
                             "set deal.face_up: true, or choose another player")

    def check_needs_bidding(self) -> None:
        from .engine.phases.registry import KINDS_BY_NAME
        phases = self.spec.get("phases") if isinstance(self.spec.get("phases"), dict) else {}

        def names_bidder(phase) -> bool:   # an auction, an order_up, a contract, a solo phase...
            kind = KINDS_BY_NAME.get(str(phase.get("kind"))) if isinstance(phase, dict) else None
            return kind is not None and "bidder" in kind.provides
        if "bidding" in self.spec or any(names_bidder(p) for p in phases.values()):
            return
        if self.section("play").get("first_leader") == "bidder":
            self.add(("play", "first_leader"), "the first leader is the bidder, but no phase of the round names "
                     "a bidder (a bidding section, or a phase of kind auction, order_up, contract or solo)",
                     "add such a phase, or choose another first leader, e.g. dealer_left")
        exchange = self.spec.get("exchange")
        if isinstance(exchange, dict) and "count_by_bid" in exchange and exchange.get("between") != "nobody":
            self.add(("exchange", "count_by_bid"), "the exchange counts cards by bid, but the variant has no bidding",
                     "add a bidding section, or write count: N")
        scoring = self.section("scoring")
        for outcome in ("bidder_out_first", "other_out_first"):
            if outcome in scoring:
                self.add(("scoring", outcome), f"scoring.{outcome} scores the bidder, but the variant has no bidding",
                         "add a bidding section, or write scoring.points with 'each'")

    # -- exchange -----------------------------------------------------------------------------
    def check_exchange(self) -> None:
        if "count_by_bid" not in self.spec["exchange"]:
            return
        counts = self.spec["exchange"]["count_by_bid"]
        levels = self.spec["bidding"]["levels"]
        hand = self.spec["deal"]["hand"]
        given: dict[int, tuple] = {}
        for key, count in counts.items():
            level = _bid_number(key)
            here = ("exchange", "count_by_bid", key)
            if level is None:
                self.add(here, f"the bid {_short(str(key))} is too large: a bid has at most {MAX_INT_DIGITS} digits",
                         "e.g. count_by_bid: {20: 1}", key=True)
            elif level in given:
                self.add(here, f"'{key}' and '{given[level][0]}' both give the count for the bid {level}",
                         "keep one of them", key=True)
            else:
                given[level] = (key, count)
        if len(given) != len(counts):
            return
        for level in levels:
            if level not in given:
                self.add(("exchange", "count_by_bid"), f"no exchange count for the bid {level}",
                         f"add '{level}: <cards>' to count_by_bid")
        for level, (key, count) in given.items():
            if level not in levels:
                self.add(("exchange", "count_by_bid", key), f"{level} is not a bid level",
                         "levels: " + ", ".join(str(x) for x in levels), key=True)
            elif count > hand:
                self.add(("exchange", "count_by_bid", key), f"an exchange of {count} cards is more than a hand "
                         f"of {hand}", f"at most {hand}")

    # -- combinations -------------------------------------------------------------------------
    def check_combinations(self, deck: Deck) -> None:
        combos = self.spec["combinations"]
        max_hand = max_hand_of(self.spec)
        compiled, problems = compile_combinations(combos, deck, max_hand, self.intern)
        for problem in problems:
            self.problems.append(replace(self.locate_pattern(problem), path=problem.path, offset=problem.offset))
        self.combinations = compiled
        if not problems:
            self.check_total_plays(compiled)

    def check_total_plays(self, compiled: list) -> None:
        """The plays one hand may list, summed over the combinations, within MAX_TOTAL_PLAYS.

        Each combination's bound is the matcher's own (already within its per-combination
        limit); the problem is at the combination whose bound crosses the budget.
        """
        total = 0
        for combination in compiled:
            bound = combination._work_bound()
            total += bound
            if total > MAX_TOTAL_PLAYS:
                self.add(("combinations", combination.id, "pattern"),
                         f"with this combination, one hand could list up to {total} plays in all "
                         f"(this one up to {bound}); the most a variant may allow is {MAX_TOTAL_PLAYS}",
                         "narrow the rank sets, lengths or attachments of the combinations, or drop some")
                return

    def check_budget(self) -> None:
        """The limits of what a variant may ask that the schema does not state (docs: Limits)."""
        bidding = self.spec.get("bidding")
        if self.ok("bidding") and len(bidding["levels"]) > MAX_BID_LEVELS:
            self.add(("bidding", "levels", MAX_BID_LEVELS), f"a variant may offer at most {MAX_BID_LEVELS} bid "
                     f"levels, this one offers {len(bidding['levels'])}")

    def locate_pattern(self, problem: Problem) -> Problem:
        where = self.doc.place(problem.path)
        if where is None:
            return problem
        if problem.offset is None or problem.path[-1:] != ("pattern",):
            return problem_at(where, problem.message, problem.hint)
        text = self.spec
        for step in problem.path:
            text = text[step]
        line, column = char_place(where, str(text), problem.offset)
        return located(where.source, line, column, problem.message, problem.hint, caret=True)

    # -- play ---------------------------------------------------------------------------------
    def check_play(self) -> None:
        play, players = self.spec["play"], self.spec["players"]
        if "combinations" in self.spec and "combinations" not in self.broken:
            for i, cid in enumerate(play.get("out_of_turn") or []):
                self.combination(cid, ("play", "out_of_turn", i), "out_of_turn")
        if play.get("passes_to_close_trick", 0) > players - 1:
            self.add(("play", "passes_to_close_trick"), f"passes_to_close_trick is {play['passes_to_close_trick']}, "
                     f"but only {players - 1} other players can pass after a play", f"at most {players - 1}")
        if play.get("first_leader") == "face_up_holder" and not self.section("deal").get("face_up"):
            self.add(("play", "first_leader"), "play.first_leader is face_up_holder, but no card is dealt face up",
                     "set deal.face_up: true, or choose another leader")
        if play.get("kind") == "tricks":
            self.check_trick_play()
        self.check_partners(play, players)

    def check_partners(self, play: dict, players: int) -> None:
        """``{lead_to: partner}`` hands the lead to the player's partner: every seat needs one."""
        teams = play.get("teams") or []
        if not all(isinstance(t, list) and all(isinstance(s, int) for s in t) for t in teams):
            return                         # the teams' own check says what is wrong with them
        alone = [s for s in range(players) if not any(s in t and len(t) > 1 for t in teams)]
        for i, entry in enumerate(play.get("effects") or []):
            do = entry.get("do") if isinstance(entry, dict) else None
            if teams and alone and isinstance(do, dict) and do.get("lead_to") == "partner":
                self.add(("play", "effects", i, "do", "lead_to"), f"lead_to: partner, but seat {alone[0]} has no "
                         "partner in play.teams (a side of one seat)", "put every seat in a team of two or more")

    # Keys of the climbing play (and of its scoring) that a trick-taking play never reads.
    CLIMBING_KEYS = ("leader_may_pass", "passes_to_close_trick", "out_of_turn", "last_trick_to", "first_lead",
                     "last_card", "round_ends_when", "pass_final", "floating")

    def check_trick_play(self) -> None:
        """A key of the climbing play written in a trick-taking one would be silently ignored
        (the converse is refused when the round is compiled): refused at the key, as are the
        treasures, which count the cards a climbing play's tricks take."""
        for key in self.CLIMBING_KEYS:
            if ("play", key) in self.doc.values:
                self.add(("play", key), f"play.{key} is a setting of climbing play, which a trick-taking play "
                         "(play.kind: tricks) never reads", "remove it", key=True)
        treasures = self.section("scoring").get("treasures")
        if treasures and "scoring" not in self.broken:
            self.add(("scoring", "treasures"), "treasures count the cards taken in a climbing play; a trick-taking "
                     "play counts them by play.points (read as trick_points)",
                     "remove them, and write the points per rank in play.points, e.g. play: {points: {A: 11}}",
                     key=True)

    def check_phase_needs(self) -> None:
        """Each phase of the round gets what its kind requires (a bidder, trumps, cards laid face
        up) from the deal, an earlier phase or the round's play (:func:`registry.unmet`): a
        kind whose needs nothing provides is refused at its ``kind``."""
        named = phase_kinds(self.spec)
        play_kind = next((kind for name, kind, path in named if name == "play" or kind in registry.PLAY_PROVIDES),
                         "play")
        for i, need in registry.unmet([kind or "" for _, kind, _ in named], play_kind):
            name, kind, path = named[i]
            why, hint = registry.NEEDS[need]
            article = "an" if kind[0] in "aeiou" else "a"
            self.add(path + ("kind",) if path and path[0] == "phases" else ("round", i),
                     f"{article} {kind} phase needs {why}", hint)

    # -- scoring ------------------------------------------------------------------------------
    def check_scoring(self) -> None:
        scoring = self.spec["scoring"]
        if "deck" in self.spec and "deck" not in self.broken:
            self.one_rank_each(scoring.get("treasures") or {}, ("scoring", "treasures"), "the points of one rank")
        combos_ok = "combinations" in self.spec and "combinations" not in self.broken
        for outcome in ("bidder_out_first", "other_out_first"):
            for name, bonus in ((scoring.get(outcome) or {}).get("bonuses") or {}).items():
                here = ("scoring", outcome, "bonuses", name)
                if "combination" in bonus:
                    if combos_ok:
                        self.combination(bonus["combination"], here + ("combination",), f"the bonus '{name}'")
                elif "count" not in bonus:
                    self.add(here, f"the bonus '{name}' counts nothing",
                             "add 'combination: <id>', or 'count: <expression>' such as idle(others) > 0", key=True)


    # -- labels -------------------------------------------------------------------------------
    def defined_names(self) -> list[str]:
        """The names this file defines, which ``labels`` may give words: the facts and bonuses
        of its scoring, its values, and the labels of the terms of ``scoring.points``."""
        scoring = self.section("scoring")
        names = [str(n) for n in (scoring.get("facts") or {})] + [str(n) for n in (scoring.get("bonuses") or {})]
        for outcome in ("bidder_out_first", "other_out_first"):
            names += [str(n) for n in (((scoring.get(outcome) or {}).get("bonuses")) or {})]
        names += [str(n) for n in self.section("values")]
        names += [str(label) for value in (scoring.get("points") or {}).values() if isinstance(value, dict)
                  for label in value]
        return list(dict.fromkeys(names))

    def check_labels(self) -> None:
        """Every label the file writes names a name it defines, in languages the rulebook speaks
        (a label it inherits for a name it removes, ``scoring: {facts: null}``, is left unused)."""
        languages = rulebook_languages()
        defined = self.defined_names()
        own = self.doc.sources[0] if self.doc.sources else None
        taken: dict[tuple[str, str], str] = {}          # (language, words) -> the first name given them
        for name, words in self.section("labels").items():
            name = str(name)
            if name not in defined and self.doc.place(("labels", name), key=True).source is not own:
                continue            # a label of the file extended, for a name this file removes: unused
            if name not in defined:
                close = difflib.get_close_matches(name, defined, n=3, cutoff=0.6)
                hint = ("did you mean " + " or ".join(f"'{c}'" for c in close) + "?" if close else
                        "the names it defines: " + ", ".join(defined) if defined else
                        "labels name the facts, bonuses, values and term labels of the file, which it has none of")
                self.add(("labels", name), f"labels.{name} gives words to '{name}', which the file does not define "
                         "(a fact or a bonus of scoring, a value of values, or a term's label in scoring.points)",
                         hint, key=True)
            for lang, said in (words or {}).items():
                first = taken.setdefault((str(lang), str(said).strip().lower()), name)
                if first != name and isinstance(said, str):
                    self.add(("labels", name, lang), f"labels.{name}.{lang} is '{said}', the words of "
                             f"'{first}' too: a reader could not tell the two names apart",
                             "give each name its own words", key=True)
                if str(lang) not in languages:
                    close = difflib.get_close_matches(str(lang), languages, n=1)
                    self.add(("labels", name, lang), f"labels.{name}.{lang}: '{lang}' is not a language of the "
                             "rulebook", (f"did you mean '{close[0]}'? " if close else "") +
                             "languages: " + ", ".join(languages), key=True)


# ---------------------------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------------------------
def _check(path) -> tuple[list[Problem], Rules | None, Document]:
    doc = read_document(path)
    problems = list(doc.problems)
    if problems or doc.tree is None:
        return _sorted(problems, doc), None, doc
    instance = _plain(doc.tree, string_keys=True)
    schema_problems, broken = _schema_problems(doc, instance)
    problems.extend(schema_problems)
    spec = _plain(doc.tree)
    if "" not in broken:
        play = spec.get("play")
        if isinstance(play, dict) and play.get("kind") == "tricks" and "play" not in broken:
            play.setdefault("first_leader", "dealer_left")    # a trick play's default (the schema's: climbing's)
        _fill_defaults(spec, schema())
        _fill_derived_defaults(spec, broken)
    checks = _Checks(doc, spec, broken)
    checks.run()
    problems.extend(checks.problems)
    if problems or checks.deck is None:     # no problem: every section checked, the deck built
        if checks.deck is not None and "" not in broken and all(map(_unread_key, problems)):
            problems.extend(_expression_problems(doc, spec, checks))
        return _sorted(problems, doc), None, doc
    rules = _rules_of(doc, spec, checks)
    try:        # the last word: the game must be able to read every rule it needs, and play to its end
        prove_playable(rules, compile_round(rules))
    except VariantError as error:
        return _sorted(_round_problems(doc, spec, error), doc), None, doc
    return [], rules, doc


def _rules_of(doc: Document, spec: dict, checks: "_Checks") -> Rules:
    """The rules of a file whose deck and combinations are built."""
    rules = Rules(spec, checks.deck, checks.combinations, path=doc.label, source_hash=doc.source_hash,
                  max_hand=max_hand_of(spec), intern=checks.intern)
    rules.base_path = doc.base
    rules.files = tuple(s.path for s in doc.sources)
    return rules


def _round_problems(doc: Document, spec: dict, error: VariantError) -> list[Problem]:
    """The problems of the round's rules, each placed in the file (:func:`_round_problem_at`)."""
    return [replace(_round_problem_at(doc, spec, p), path=p.path) for p in error.problems]


def _unread_key(problem: Problem) -> bool:
    """Is ``problem`` a key the game would not read (unknown, or of another kind of play)?  The
    round compiles as well with it: the problems of its expressions can be told beside it."""
    return problem.message.startswith("unknown key ") or "never reads" in problem.message


def _expression_problems(doc: Document, spec: dict, checks: "_Checks") -> list[Problem]:
    """The problems the round's expressions have (an unknown name in a scoring term...) in a
    file whose other problems are keys the game would not read (:func:`_unread_key`), so that
    every error is told at once (a key not read cannot be the same mistake as an expression).
    Nothing where the round cannot be compiled even so: the problems found are told."""
    try:
        compile_round(_rules_of(doc, spec, checks))
    except VariantError as error:
        return _round_problems(doc, spec, error)
    except Exception:       # (a file broken elsewhere may not compile at all: its problems are told)
        return []
    return []


def _round_problem_at(doc: Document, spec: dict, problem: Problem) -> Problem:
    """A problem of the round's rules placed in the file: inside an expression written as a
    string, at the character ``problem.offset`` (with the line and a caret), else at the value."""
    where = doc.place(problem.path)
    text: Any = spec
    for step in problem.path:             # through maps and lists (play.effects[1].when)
        text = (text.get(step) if isinstance(text, dict) else
                text[step] if isinstance(text, list) and isinstance(step, int) and 0 <= step < len(text) else None)
    if (problem.offset is None or not isinstance(text, str) or problem.offset > len(text)
            or tuple(str(p) for p in problem.path) not in doc.values):
        return problem_at(where, problem.message, problem.hint)
    line, column = char_place(where, text, problem.offset)
    return located(where.source, line, column, problem.message, problem.hint, caret=True)


def _written_empty(where: Where) -> bool:
    """Was the key at ``where`` written with nothing after its colon (not ``null`` or ``~``)?"""
    rest = where.source.line(where.line)[where.column - 1:].split(":", 1)
    return len(rest) == 2 and rest[1].split("#", 1)[0].strip() == ""


def _explained(problems: list[Problem], doc: Document) -> list[Problem]:
    """Problems that the user's own file caused, explained there: a key reported missing that
    a null or an empty value of the file removed, and a problem found in a file it extends
    (what to write in the user's own file to change it)."""
    if not doc.sources or not doc.removed and len(doc.sources) < 2:
        return problems
    user = doc.sources[0]
    out = []
    for p in problems:
        gone = next(((path, where) for path, where in doc.removed.items()
                     if where.source is user and "lacks the key" in p.message
                     and p.message.endswith(f"'{path[-1]}'") and tuple(p.path) == path[:-1]), None)
        if gone is not None:
            path, where = gone
            how = "is written with no value" if _written_empty(where) else "is null"
            p = replace(located(user, where.line, where.column,
                                f"{p.message}: '{_dotted(path)}' {how} here, which removes it from the file "
                                "extended", caret=True),
                        path=p.path, hint="give it a value, or indent the lines meant to be under it (an empty "
                                          "value is null, and null removes an entry of the file extended)")
        elif p.file is not None and p.file != user.label and len(doc.sources) > 1:
            causes = [f"{user.label}:{where.line} removes '{_dotted(path)}'" for path, where in doc.removed.items()
                      if where.source is user and re.search(rf"\b{re.escape(path[-1])}\b", p.message)]
            write = _nested(p.path) if p.path else None
            if causes or write:
                advice = "; ".join(causes + ([f"to change it, write in {user.label}: {write} (null removes "
                                              "an entry)"] if write else []))
                note = f"this is in {p.file}, which {user.label} extends; {advice}"
                p = replace(p, hint=f"{p.hint}; {note}" if p.hint else note)
        out.append(p)
    return out


def _nested(path: tuple) -> str:
    """A path written as nested YAML flow maps: ``a: {b: {c: ...}}``."""
    parts = [str(x) for x in path]
    text = "..."
    for key in reversed(parts[1:]):
        text = f"{{{key}: {text}}}"
    return f"{parts[0]}: {text}"


def _sorted(problems: list[Problem], doc: Document) -> list[Problem]:
    problems = _explained(problems, doc)
    order = {s.label: i for i, s in enumerate(doc.sources)}
    unique: dict[str, Problem] = {}
    for p in problems:
        unique.setdefault(str(p), p)
    return sorted(unique.values(), key=lambda p: (order.get(p.file, len(order)), p.file or "",
                                                  p.line or 0, p.column or 0))


def load_variant(path) -> Rules:
    """Load, check and compile the variant file at ``path``.

    Raises :class:`VariantError` listing every problem found, each located in the file (or
    in the file it extends) where the faulty value was written.
    """
    problems, rules, _ = _check(path)
    if rules is None:
        raise VariantError(problems)
    return rules


def check_variant(path) -> list[Problem]:
    """Every problem of the variant file at ``path`` (empty when it loads)."""
    return _check(path)[0]

