"""Game records (docs/game-record.md): write them as JSON Lines, read them back, replay them.

* :func:`write_record` / :func:`dumps` - one JSON object per line, in the order of the events;
* :func:`read_record` - parse a file, checking each line is a well-formed event
  (:class:`RecordError` with the line number otherwise).  Reading is bounded: only a
  regular file is read, never more than :data:`MAX_RECORD_BYTES`; a line holds at most
  :data:`MAX_LINE_CHARS` characters, numbers of at most :data:`MAX_NUMBER_DIGITS` digits
  and values nested at most :data:`MAX_NESTING` deep, all checked before the line is
  decoded, so no line can exhaust the decoder's stack or its number conversion;
* :func:`replay` - play the recorded deals through the engine (the recorded hands, nest and
  face-up card instead of the seed's shuffle) and check that every bid, exchange, play, pass,
  trick, score and total is what the rules allow and give: each line must be the line the
  engine writes at that point, field by field (the exceptions are listed in
  docs/game-record.md, "What replay compares"); the first line that breaks them is reported.
"""
from __future__ import annotations

import errno
import itertools
import json
import os
import re
import stat
from collections import Counter, deque
from pathlib import Path
from typing import Callable, Generator, Iterable, Iterator, NoReturn, Sequence

from ..engine import PASS, Action, Deal, Game, State, TwoPartDeal, bid_action, give_action, play_action
from ..engine.phases.stock import StockDeal
from ..engine.phases.tricks import card_named
from ..errors import CardError, ChimeraError, IllegalActionError, RecordError, VariantError
from ..rules import Rules
from ..engine.phases import calls, registry, tricks

# -- the shape of each event ------------------------------------------------------------------

INT, BOOL, STR, CARDS, HANDS, INTS, SEAT_OR_NULL, BID_OR_NULL, FACE_UP, DICT, ANY = (
    "a whole number", "true or false", "a string", "a list of cards", "a list of hands (lists of cards)",
    "a list of whole numbers", "a seat or null", "a whole number or null",
    'an object {"card": CARD, "seat": SEAT or null} or null', "an object", "a JSON value")

FIELDS: dict[str, dict[str, str]] = {
    "game_start": {"variant": STR, "seed": ANY, "players": INT, "target": INT},
    "deal": {"round": INT, "dealer": INT, "hands": HANDS, "nest": CARDS, "face_up": FACE_UP},
    "bid": {"round": INT, "seat": INT, "bid": BID_OR_NULL, "forced": BOOL},
    "redeal": {"round": INT},
    "exchange": {"round": INT, "from": INT, "to": INT, "cards": CARDS},
    "play": {"round": INT, "seat": INT, "cards": CARDS, "combination": STR, "rank": INT},
    "pass": {"round": INT, "seat": INT},
    "trick": {"round": INT, "winner": SEAT_OR_NULL, "cards": CARDS},
    "round_end": {"round": INT, "out": SEAT_OR_NULL, "bonuses": DICT,
                  "treasures": INTS, "points": INTS, "totals": INTS},
    "game_end": {"totals": INTS, "winner": SEAT_OR_NULL},
    # an effect of a play (play.effects): what it did, and the state it left
    "effect": {"round": INT, "seat": INT, "do": STR},
    # trick-taking (chimera_dsl.engine.phases.tricks): a trump chosen (null: the choice passed on), a card played
    "trump": {"round": INT, "seat": INT, "trump": ANY},
    "card": {"round": INT, "seat": INT, "card": STR},
    "announce": {"round": INT, "seat": INT, "melds": ANY},
    "announcements": {"round": INT, "seats": INTS, "points": INT},
    # an auction by cards laid face up (chimera_dsl.engine.phases.auction)
    "lay": {"round": INT, "seat": INT, "cards": CARDS},
    "dispute": {"round": INT, "seats": INTS, "points": INTS, "totals": INTS},
    "second": {"round": INT, "seat": INT, "role": STR},
    "partner": {"round": INT, "seat": INT, "partner": INT},
    # a call (chimera_dsl.engine.phases.calls): its name, null for a pass in a calls phase
    "call": {"round": INT, "seat": INT, "call": ANY},
    # an auction of contract bids (chimera_dsl.engine.phases.contract): a call (pass, double,
    # redouble, or LEVEL STRAIN), then the contract it reached (null: passed out)
    "auction_call": {"round": INT, "seat": INT, "call": STR},
    "contract": {"round": INT, "declarer": SEAT_OR_NULL, "contract": ANY, "doubled": INT},
    # a deal in two parts: every seat sees its whole hand from here on
    "rest_seen": {"round": INT},
    # trump made from the turned card (chimera_dsl.engine.phases.order_up): the discard of the
    # seat that took the turned card, and whether a seat goes alone
    "discard": {"round": INT, "seat": INT, "card": STR},
    "alone": {"round": INT, "seat": INT, "alone": BOOL},
    # a deal completed after a phase (deal.complete): each seat's cards from the stock
    "rest_dealt": {"round": INT, "hands": ANY},
    # a trick-taking play drawing from the stock (play.draw): each seat's cards drawn after a trick
    "drawn": {"round": INT, "first": INT, "hands": ANY},
    # one against the others (chimera_dsl.engine.phases.solo): each decision (pass, hold, a value,
    # take, hand, a game's name), then the game the declarer plays (a discard is a discard line)
    "solo": {"round": INT, "seat": INT, "call": STR},
    "solo_game": {"round": INT, "declarer": INT, "game": STR, "bid": INT, "hand": BOOL, "declared": ANY},
}


MAX_RECORD_BYTES = 64 << 20     # a whole game record
MAX_LINE_CHARS = 1 << 16        # one event
MAX_NUMBER_DIGITS = 40          # one number (a seed of 128 bits has 39 digits)
MAX_NESTING = 32                # lists and objects inside one another, in one event
_HASH = re.compile(r"[0-9a-f]{64}")
# a string (to its closing quote, or to the end of an unclosed one: never scanned twice), or a bracket
_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"?|([\[\]{}])')


# The line saying who took the bidder's role is named by the variant (its role's name in one
# word, such as ``{"type": "declarer", ...}``), so it is known by its fields, and checked at replay.
ROLE_FIELDS = {"round": INT, "seat": INT, "bid": INT}

def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_cards(value) -> bool:
    return isinstance(value, list) and all(isinstance(c, str) for c in value)


def _fits(value, kind: str) -> bool:
    if kind == ANY:
        return True
    if kind == INT:
        return _is_int(value)
    if kind == BOOL:
        return isinstance(value, bool)
    if kind == STR:
        return isinstance(value, str)
    if kind == CARDS:
        return _is_cards(value)
    if kind == HANDS:
        return isinstance(value, list) and all(_is_cards(h) for h in value)
    if kind == INTS:
        return isinstance(value, list) and all(_is_int(v) for v in value)
    if kind in (SEAT_OR_NULL, BID_OR_NULL):
        return value is None or _is_int(value)
    if kind == FACE_UP:
        return value is None or (isinstance(value, dict) and isinstance(value.get("card"), str) and "seat" in value
                                 and (_is_int(value["seat"]) or value["seat"] is None))
    if kind == DICT:
        return isinstance(value, dict)
    raise ValueError(kind)


def check_event(event, line: int | None = None, file: str | None = None) -> dict:
    """Check one decoded line is a well-formed event; return it (raises :class:`RecordError`)."""
    if not isinstance(event, dict):
        raise RecordError(f"not a game record event: a JSON object is expected, not {type(event).__name__}",
                          line, file)
    kind = event.get("type")
    if kind is None:
        raise RecordError('not a game record event: the object has no "type"', line, file)
    if not isinstance(kind, str):
        raise RecordError(f'the "type" of an event must be a string, not {_shown(kind)}', line, file)
    fields = FIELDS.get(kind)
    if fields is None and all(k in event for k in ROLE_FIELDS):
        fields = ROLE_FIELDS                # the line naming the bidder by its role: its type is the role
        #                                     its fields are checked below, each by name
    if fields is None:
        named = ascii(kind) if len(kind) <= 40 else ascii(kind[:37] + "...")
        raise RecordError(f"unknown event type {named} (known: {', '.join(FIELDS)}, "
                          "and the line naming the bidder's role)", line, file)
    for name, expected in fields.items():
        if name not in event:
            raise RecordError(f"{kind} event lacks the field {name!r}", line, file)
        if not _fits(event[name], expected):
            raise RecordError(f"field {name!r} of a {kind} event must be {expected}, not {_shown(event[name])}",
                              line, file)
    return event


def _check_start_extras(event: dict, line: int | None, file: str | None) -> None:
    """The fields of game_start that name the variant file (beyond those docs/game-record.md lists), when present.

    A record read from a file is checked against the variant these name; a hash that is not
    a SHA-256 would silence the warning that the file changed, so it refuses the record.
    """
    digest = event.get("variant_hash")
    if "variant_hash" in event and not (isinstance(digest, str) and _HASH.fullmatch(digest)):
        raise RecordError(f"field 'variant_hash' of a game_start event must be the variant's SHA-256 "
                          f"(64 hexadecimal digits), not {_shown(digest)}", line, file)
    written = event.get("variant_path")
    if "variant_path" in event and not (isinstance(written, str) and written and "\0" not in written):
        raise RecordError(f"field 'variant_path' of a game_start event must be the path of a file, not "
                          f"{_shown(written)}", line, file)


def _shown(value, limit: int = 60) -> str:
    """A value of a record quoted in a message: JSON (ASCII, so any terminal shows it), cut at ``limit``."""
    text = json.dumps(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _number(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise _Refused(f"a number of {len(text.lstrip('-'))} digits (at most {MAX_NUMBER_DIGITS})")
    return int(text)


def _constant(name: str):
    raise _Refused(f"{name} is not a JSON number")


class _Refused(ValueError):
    """A line holds something no game record holds (raised while decoding it)."""


def json_depth(text: str, limit: int | None = None) -> int:
    """How deeply ``text`` (JSON) nests objects and lists, brackets inside strings not counted,
    read before decoding so that no text makes the decoder recurse deeply; with ``limit``, the
    count stops as soon as it passes it."""
    depth = deepest = 0
    for match in _STRING_OR_BRACKET.finditer(text):
        bracket = match.group(1)
        if not bracket:
            continue
        if bracket in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if limit is not None and deepest > limit:
                    break
        else:
            depth -= 1
    return deepest


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")     # \ud800 to \udfff: half of a pair


def half_character(value) -> bool:
    """Does a decoded JSON value hold a string with a lone surrogate (``"\\ud800"``)?  Such a
    string cannot be written back as UTF-8: echoed in a message, hashed or used as a seed, it
    would break the program instead of being refused."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return True
        return False
    if isinstance(value, dict):
        return any(half_character(k) or half_character(v) for k, v in value.items())
    if isinstance(value, list):
        return any(half_character(v) for v in value)
    return False


def _decode(raw: str, number: int, file: str | None):
    """One line decoded as JSON, within the bounds on length, numbers and nesting."""
    if len(raw) > MAX_LINE_CHARS:
        raise RecordError(f"a line of {len(raw)} characters: a game record's lines hold at most "
                          f"{MAX_LINE_CHARS}", number, file)
    deepest = json_depth(raw) if raw.count("[") + raw.count("{") > MAX_NESTING else 0   # only then too deep
    if deepest > MAX_NESTING:
        raise RecordError(f"values nested {deepest} deep: a game record nests them at most "
                          f"{MAX_NESTING} deep", number, file)
    try:
        value = json.loads(raw, parse_int=_number, parse_constant=_constant)
        if "\\u" in raw and _SURROGATE_ESCAPE.search(raw) and half_character(value):
            raise RecordError("not text: a \\u escape names half a character (a lone surrogate); a game "
                              "record's strings are Unicode text", number, file)
        return value
    except json.JSONDecodeError as error:
        raise RecordError(f"not JSON ({error.msg} at column {error.colno}): "
                          "a game record holds one JSON object per line", number, file) from None
    except _Refused as error:
        raise RecordError(f"not a game record: {error}", number, file) from None
    except RecursionError:          # the pre-scan bounds nesting; kept as a last guard
        raise RecordError("values nested too deep for a game record", number, file) from None


# -- writing and reading -----------------------------------------------------------------------

def dumps(events: Iterable[dict]) -> str:
    """The record as JSON Lines text (one event per line, fields in the order written)."""
    return "".join(json.dumps(event, ensure_ascii=False) + "\n" for event in events)


def write_record(events: Iterable[dict], path) -> None:
    """Write the record to ``path`` (UTF-8 JSON Lines)."""
    Path(path).write_text(dumps(events), encoding="utf-8")


def parse_record(text: str | bytes, file: str | None = None) -> list[tuple[int, dict]]:
    """Parse record text into ``(line number, event)`` pairs, checking each line's shape.

    Blank lines are skipped.  The first event must be ``game_start``.
    """
    raw_lines: list = text.split(b"\n") if isinstance(text, bytes) else text.split("\n")
    return list(_checked(enumerate(raw_lines, start=1), file))


def read_record(path) -> list[tuple[int, dict]]:
    """Read and check the shape of the record in ``path``: ``(line number, event)`` pairs.

    Only a regular file is read (a pipe or a device could block or never end), and at most
    :data:`MAX_RECORD_BYTES` of it; :class:`RecordError` otherwise.  The whole record is held:
    :func:`stream_record` reads it a line at a time.
    """
    return list(stream_record(path))


def stream_record(path) -> Generator[tuple[int, dict], None, None]:
    """The record in ``path`` read one line at a time: ``(line number, event)`` pairs, each line's
    shape checked as :func:`read_record` checks it, none kept once given (replay holds a record
    of any length in the memory of a few lines).  The file is opened, and checked to be a
    regular file of at most :data:`MAX_RECORD_BYTES`, by the call itself."""
    label = str(path)
    handle = _open_regular(path, label)
    return _checked(_raw_lines(handle, label), label)


def _open_regular(path, label: str):
    """``path`` opened for reading in binary: a regular file of at most MAX_RECORD_BYTES, else
    :class:`RecordError` with the reason."""
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file (a device, a pipe or a socket)"
            raise RecordError(f"cannot read the record: it is {kind}", None, label)
        if info.st_size > MAX_RECORD_BYTES:
            raise RecordError(f"a file of {info.st_size} bytes: a game record holds at most "
                              f"{MAX_RECORD_BYTES >> 20} MiB", None, label)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except RecordError:
        raise
    except ValueError:                      # os.stat on a path holding a NUL character
        raise RecordError("cannot read the record: a path cannot hold a NUL character", None, label) from None
    except OSError as error:
        reason = "its symbolic links form a loop" if error.errno == errno.ELOOP else (error.strerror or str(error))
        raise RecordError(f"cannot read the record: {reason}", None, label) from None
    handle = os.fdopen(fd, "rb")
    if not stat.S_ISREG(os.fstat(fd).st_mode):       # swapped for something else since the stat
        handle.close()
        raise RecordError("cannot read the record: it is not a regular file", None, label)
    return handle


def _raw_lines(handle, label: str) -> Iterator[tuple[int, bytes]]:
    """The file's lines as bytes, numbered from 1, none longer than a line may be (a longer one
    is refused with its length, read to its end without being kept), the file closed at its end."""
    limit = 4 * MAX_LINE_CHARS + 2              # the bytes of a line of MAX_LINE_CHARS characters, and more
    read = 0
    with handle:
        for number in itertools.count(1):
            raw = handle.readline(limit)
            if not raw:
                return
            read += len(raw)
            if read > MAX_RECORD_BYTES:
                raise RecordError(f"a game record holds at most {MAX_RECORD_BYTES >> 20} MiB", None, label)
            if len(raw) == limit and not raw.endswith(b"\n"):
                # count its characters (the bytes that begin one) to its end, keeping none
                chars = sum(1 for b in raw if b & 0xC0 != 0x80)
                while raw and not raw.endswith(b"\n"):
                    raw = handle.readline(1 << 16)
                    read += len(raw)
                    chars += sum(1 for b in raw.rstrip(b"\n") if b & 0xC0 != 0x80)
                raise RecordError(f"a line of {chars} characters: a game record's lines hold at most "
                                  f"{MAX_LINE_CHARS}", number, label)
            yield number, raw


def _checked(raw_lines: Iterator[tuple[int, bytes | str]], file: str | None) -> Generator[tuple[int, dict], None, None]:
    """Each line decoded (when bytes) and its shape checked (blank lines skipped; the first
    event must be game_start, and there must be one)."""
    first = True
    for number, raw in raw_lines:
        try:
            text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        except UnicodeDecodeError:
            raise RecordError("not text (UTF-8): this is not a game record", number, file) from None
        if not text.strip():
            continue
        event = _decode(text, number, file)
        check_event(event, number, file)
        if first and event["type"] != "game_start":
            raise RecordError(f"not a game record: it must begin with a game_start event, not {event['type']}",
                              number, file)
        first = False
        yield number, event
    if first:
        raise RecordError("empty: not a game record", 1, file)


def _deal_lines(path, file: str | None) -> Iterator[tuple[int, dict | None]]:
    """The record's deal lines, read by a cursor of their own (replay's deals run a line or two
    ahead of the line it checks), then ``(last line number, None)``.  A line that cannot be a
    deal line is not decoded, and one that is not well formed is passed over: the reading of
    every line reports it at its place.  A deal line that is not well formed is refused here, at
    its place: the next deal is asked for as the line before it has been read, so it is the next
    line replay checks."""
    number = 1
    for number, raw in _raw_lines(_open_regular(path, str(path)), str(path)):
        if b"deal" not in raw and b"\\" not in raw:        # no deal line (its type may be escaped)
            continue
        try:
            decoded = _decode(raw.decode("utf-8"), number, file)
        except (RecordError, UnicodeDecodeError):
            continue
        if isinstance(decoded, dict) and decoded.get("type") == "deal":
            yield number, check_event(decoded, number, file)
    yield number, None


def _deals_in(lines: Sequence[tuple[int, dict]]) -> Iterator[tuple[int, dict | None]]:
    """The deal lines of a record held in memory, then ``(last line number, None)``."""
    for number, event in lines:
        if event["type"] == "deal":
            yield number, event
    yield (lines[-1][0] if lines else 1), None


# -- replay ------------------------------------------------------------------------------------

class _Lines:
    """A record's ``(line number, event)`` pairs read from ``source`` as replay asks for them,
    kept only from the line being checked on (with the few read ahead): index ``k`` is the
    record's k-th event."""

    def __init__(self, source: Iterable[tuple[int, dict]]):
        self._source = iter(source)
        self._kept: deque[tuple[int, dict]] = deque()
        self._base = 0                    # the index of the first line kept
        self._ended = False
        self.last: tuple[int, dict] | None = None

    def has(self, k: int) -> bool:
        """Is there a k-th event (read now if need be)?"""
        kept = self._kept
        while k >= self._base + len(kept):
            if self._ended:
                return False
            item = next(self._source, None)
            if item is None:
                self._ended = True
                return False
            kept.append(item)
            self.last = item
        return True

    def __getitem__(self, k: int) -> tuple[int, dict]:
        if k < self._base or not self.has(k):
            raise IndexError(k)
        return self._kept[k - self._base]

    def forget(self, k: int) -> None:
        """The events before the k-th are no longer wanted."""
        while self._base < k and self._kept:
            self._kept.popleft()
            self._base += 1

    def number(self, k: int) -> int:
        """The line number of the k-th event, or the last line's when the record ends before it."""
        if self.has(k):
            return self[k][0]
        return self.last[0] if self.last is not None else 1


class _Replayer:
    """Drives a fresh :class:`State` with the record's deals and decisions, comparing as it goes."""

    def __init__(self, lines: Iterable[tuple[int, dict]], deal_lines: Callable[[], Iterable[tuple[int, dict]]],
                 rules: Rules, file: str | None, keep: bool = True, on_line: Callable[[dict], None] | None = None):
        self.lines = _Lines(lines)
        self.deal_lines = deal_lines
        self.keep = keep
        self.on_line = on_line
        self.rules = rules
        self.deck = rules.deck
        self.file = file
        self.i = 0

    def fail(self, message: str, line: int | None = None) -> NoReturn:
        if line is None:
            line = self.lines.number(self.i)
        raise RecordError(message, line, self.file)

    def key(self, cards: list[str], line: int, what: str) -> int:
        try:
            return self.deck.parse_key(cards, check_deck=False) if cards else 0
        except CardError as error:
            self.fail(f"{what}: {error}", line)

    def same_cards(self, recorded: list[str], written: list[str], line: int, what: str) -> bool:
        """Do the record's cards name the cards the engine wrote?  The same values, in any order,
        and a card the record names with a colour must be one of the engine's of that very name,
        whether or not the rules tell colours apart (a card named by its value alone matches any
        card of that value: records written without colours still replay)."""
        if not written:
            return not recorded
        if self.key(recorded, line, what) != self.deck.parse_key(written, check_deck=False):
            return False
        left = Counter(str(c).upper() for c in written)
        for rank, colour in self.deck.parse_colours(recorded):
            if colour is None:
                continue
            name = f"{self.deck.ranks[rank]}/{colour}".upper()
            if not left[name]:
                return False
            left[name] -= 1
        return True

    def mask(self, cards: list[str], free: int, line: int, what: str) -> int:
        """The very cards a line names, taken from ``free`` (a card named by rank alone: the first
        of that rank in deck order)."""
        try:
            return self.deck.cards_mask(cards, within=free) if cards else 0
        except CardError as error:
            twins = tricks.twin_mask(self.deck, cards, free)     # a deck with two 7/red, say
            if twins is not None:
                return twins
            self.fail(f"{what}: {error}", line)

    def deals(self) -> Iterator[Deal]:
        """The recorded deals, one per ``deal`` line, each checked against the deck."""
        full = self.deck.full_key
        n = self.players
        for line, event in self.deal_lines():
            if event is None:                   # the record's end
                break
            hands = event["hands"]
            if len(hands) != n:
                self.fail(f"deal: {len(hands)} hands for {n} players", line)
            keys = [self.key(h, line, f"deal: seat {s}'s hand") for s, h in enumerate(hands)]
            nest = self.key(event["nest"], line, "deal: the nest")
            config = self.game.round.deal
            sitting = event.get("sits_out")
            if (sitting is None) != (config.sits_out is None) or not (sitting is None or _is_int(sitting)
                                                                      and 0 <= sitting < n):
                self.fail("deal: " + (f"'sits_out' is {sitting!r}, but the variant seats nobody out"
                                      if config.sits_out is None else
                                      f"'sits_out' is {sitting!r}, but the variant seats one seat out: "
                                      f"a seat from 0 to {n - 1}"), line)
            for seat, hand in enumerate(hands):
                dealt = config.hand_of(seat, event["dealer"], state_step(self.game, event), n, sitting,
                                       event["round"]) if _is_int(event.get("dealer")) else config.hand
                if len(hand) != dealt:
                    self.fail(f"deal: seat {seat} is dealt {len(hand)} cards, but the variant deals "
                              f"{dealt}", line)
            if len(event["nest"]) != config.nest:
                self.fail(f"deal: a nest of {len(event['nest'])} cards, but the variant's nest holds "
                          f"{config.nest}", line)
            total = sum(keys) + nest
            if not self.deck.contains(full, total) or not self.deck.fits(total):
                self.fail("deal: these hands and nest hold cards the deck does not have "
                          f"({self.deck.why_not_fits(total) if not self.deck.fits(total) else 'too many'})", line)
            face = event["face_up"]
            face_up = None
            if face is not None:
                rank = self.key([face["card"]], line, "deal: the face-up card")
                seat = face["seat"]
                if seat is None:
                    if config.face_up_in_nest == "recut" and not config.turn_up:
                        self.fail(f"deal: the face-up card {face['card']} goes to no seat, but under "
                                  "face_up_in_nest: recut a face-up card that would not reach a hand "
                                  "is cut again", line)
                    if self.deck.contains(full - total, rank) or self.deck.contains(nest, rank):
                        pass                               # in the nest, or among the undealt cards
                    else:
                        self.fail(f"deal: the face-up card {face['card']} is neither in the nest "
                                  "nor among the undealt cards", line)
                elif not 0 <= seat < n:
                    self.fail(f"deal: the face-up card goes to seat {seat}, which does not exist", line)
                elif not self.deck.contains(keys[seat], rank):
                    self.fail(f"deal: the face-up card {face['card']} is not in seat {seat}'s hand", line)
                face_up = (self.deck.expand(rank)[0], seat)
            elif config.face_up or config.turn_up:
                self.fail("deal: the variant turns a card face up, but this deal has none", line)
            if face is not None and config.turn_up and face["seat"] is not None:
                self.fail(f"deal: the turned card {face['card']} is in seat {face['seat']}'s hand, but the variant "
                          "turns the first card of the stock, which nobody holds", line)
            # the very cards: those named with a colour first, then by rank in deck order
            free = self.deck.full_mask
            masks = []
            for s, cards in enumerate(list(hands) + [event["nest"]]):
                named = [c for c in cards if "/" in c]
                mask = self.mask(named, free, line, "deal")
                free &= ~mask
                masks.append(mask)
            for s, cards in enumerate(list(hands) + [event["nest"]]):
                plain = [c for c in cards if "/" not in c]
                mask = self.mask(plain, free, line, "deal")
                free &= ~mask
                masks[s] |= mask
            face = None
            if face_up is not None:
                card = face_up_card = event["face_up"]["card"]
                seat = face_up[1]
                pool = masks[seat] if seat is not None else masks[-1] | free
                try:
                    number = self.deck.numbers_of(self.deck.cards_mask([face_up_card], within=pool))[0]
                except CardError:           # named with a colour its holder (or the nest) lacks
                    where = (f"is not in seat {seat}'s hand" if seat is not None
                             else "is neither in the nest nor among the undealt cards")
                    self.fail(f"deal: the face-up card {card} {where}", line)
                face = (number, seat)
            first = self.first_part(event, masks, line)
            stock = self.stock_part(event, masks, face, line)
            if stock is not None:
                yield StockDeal(tuple(masks[:-1]), masks[-1], face, stock)
                continue
            yield Deal(tuple(masks[:-1]), masks[-1], face) if first is None else \
                TwoPartDeal(tuple(masks[:-1]), masks[-1], face, first)
        # the rules want one more deal than the record holds
        self.fail("the record ends before the game does: the rules go on with a new deal "
                  "(nobody has yet won)", line)

    def stock_part(self, event: dict, masks: list, face, line: int) -> tuple[int, ...] | None:
        """A deal completed after a phase (``deal.complete``) or drawn from after each trick
        (``play.draw``): the stock in its order, which the line's ``stock`` names (every card in
        no hand, not in the nest and not turned up, once)."""
        stock = event.get("stock")
        if not self.game.round.deal.keeps_stock:
            if stock is not None:
                self.fail("deal: 'stock' names the cards dealt later, but the variant deals every card at once", line)
            return None
        if not _is_cards(stock):
            self.fail(f"deal: the variant keeps a stock to deal or draw from later, so 'stock' must list its cards in order, "
                      f"not {_shown(stock)}", line)
        used = masks[-1]
        for mask in masks[:-1]:
            used |= mask
        if face is not None:
            used |= 1 << face[0]
        free = self.deck.full_mask & ~used
        out = []
        for name in stock:
            card = card_named(self.deck, name, free)
            if card is None:
                self.fail(f"deal: the stock names {name}, which is dealt, turned up, or named twice", line)
            free &= ~(1 << card)
            out.append(card)
        if free:
            self.fail(f"deal: the stock leaves out {' '.join(self.deck.mask_names(free))}", line)
        return tuple(out)

    def first_part(self, event: dict, masks: list, line: int) -> tuple[int, ...] | None:
        """A deal in two parts (``deal.first``): the cards each seat saw first, which the line's
        ``first`` names (each seat's, out of its hand, as many as the variant shows first)."""
        count = self.game.round.deal.first
        first = event.get("first")
        if count is None:
            if first is not None:
                self.fail("deal: 'first' names the cards each seat sees first, but the variant deals in one part", line)
            return None
        if not _fits(first, HANDS) or len(first) != self.players:
            self.fail(f"deal: the variant deals in two parts, so 'first' must name each seat's first "
                      f"{count} cards ({HANDS}), not {_shown(first)}", line)
        out = []
        for seat, cards in enumerate(first):
            try:
                mask = self.deck.cards_mask(cards, within=masks[seat]) if cards else 0
            except CardError:
                self.fail(f"deal: 'first' names cards seat {seat} is not dealt: {' '.join(cards)}", line)
            held = bin(masks[seat]).count("1")
            if len(cards) != min(count, held):
                self.fail(f"deal: seat {seat} sees {len(cards)} cards first, but the variant shows "
                          f"{min(count, held)}", line)
            out.append(mask)
        return tuple(out)

    def run(self, target: int | None) -> State:
        line, start = self.lines[0]
        n = start["players"]
        self.players = n
        try:
            recorded = start["target"]
            if recorded == 0 and "target" not in (self.rules.spec.get("end") or {}):
                recorded = None                    # 0: the variant ends by rounds or a condition
            game = Game(self.rules, target=target if target is not None else recorded,
                        max_rounds=start.get("max_rounds") if _is_int(start.get("max_rounds")) else None)
        except VariantError:
            raise
        except ChimeraError as error:                      # e.g. a target that is not positive
            self.fail(f"game_start: {error}", line)
        self.game = game
        if n != game.players:
            self.fail(f"game_start: {n} players, but the variant is for {game.players}", line)
        names = start.get("player_names")
        if not (isinstance(names, list) and len(names) == n and all(isinstance(x, str) for x in names)):
            names = None
        try:
            state = game.new_game(start["seed"], deals=self.deals(), player_names=names,
                                  first_dealer=self.first_dealer())
        except IllegalActionError as error:
            self.fail(str(error), line)
        matched = 0
        lines = self.lines
        while True:
            # every event the engine wrote must be the record's next line
            events = state.events
            while matched < len(events):
                self.compare(events[matched])
                lines.forget(self.i)
                if self.on_line is not None:    # the engine's line, checked, stands for the record's
                    self.on_line(events[matched])
                matched += 1
            if not self.keep and matched:       # and leaves the game's memory
                del events[:matched]
                matched = 0
            if state.is_terminal():
                break
            if not lines.has(self.i):
                self.fail(f"the record ends before the game does (seat {state.current_player()} "
                          f"is to act in the {state.phase})", lines.number(self.i))
            action = self.action_for(state)
            try:
                state.apply_action(action)
            except IllegalActionError as error:
                self.fail(f"{lines[self.i][1]['type']}: {error}")
        if lines.has(self.i):
            self.fail(f"a {lines[self.i][1]['type']} line after the end of the game")
        return state

    def first_dealer(self) -> int | None:
        """Who deals first: any seat may when the variant draws the first dealer (the rulebooks:
        « N'importe quel joueur peut distribuer les cartes »), so the record's first deal says;
        None leaves the variant's fixed seat, which the deal line is then checked against."""
        if self.game.round.deal.first_dealer is not None:
            return None
        for line, event in self.deal_lines():
            if event is not None:
                dealer = event["dealer"]
                if not 0 <= dealer < self.players:
                    self.fail(f"deal: dealer {dealer} is no seat (seats are 0 to {self.players - 1})", line)
                return dealer
        return None

    # -- one decision --------------------------------------------------------------------------
    def action_for(self, state: State):
        line, event = self.lines[self.i]
        seat = state.current_player()
        kind = event["type"]
        phase = state.kind
        if phase in registry.KINDS:
            try:
                return registry.action_of_event(state, event)
            except ValueError as error:
                self.fail(str(error))
        if phase == "play" and kind == "call" and not state.interrupting:
            try:
                return calls.of_event(state, event)             # a call on the seat's turn (play.calls)
            except ValueError as error:
                self.fail(str(error))
        if phase == "play" and state.wishing is not None:
            if kind != "effect" or event.get("do") != "wish":
                self.fail(f"expected seat {seat}'s wish (an effect line, do: wish), found {_line_of(event)}")
            rank = event.get("rank")
            if rank is None:
                return Action("wish", cards=-1)
            index = self.deck.index.get(str(rank).upper())
            if index is None:
                self.fail(f"effect: the deck has no rank {rank!r} to wish for")
            return Action("wish", cards=index)
        if phase == "play" and state.choosing is not None:
            if kind != "trick" or not _is_int(event.get("given_to")):
                self.fail(f"expected the trick seat {seat} won, given to one of seats "
                          f"{', '.join(map(str, state.choosing))} (given_to), found {_line_of(event)}")
            return Action("trick_to", cards=event["given_to"])
        if phase == "play" and state.interrupting:
            if kind == "play" and event["seat"] == seat:
                return self.play_of(event, line, state)
            return PASS                                   # the offer was declined: no line
        if phase == "bidding":
            if kind != "bid":
                self.fail(f"expected a bid by seat {seat}, found a {kind} line")
            if event["forced"]:
                self.fail("a forced bid where the rules force none")
            self.check_seat(event["seat"], seat, "bids")
            return PASS if event["bid"] is None else bid_action(event["bid"])
        if phase == "transfer":
            j = self.i
            ahead = self.i + self.players * self.players     # a phase's lines: at most one per giver and taker
            while j < ahead and self.lines.has(j) and self.lines[j][1]["type"] == "exchange" \
                    and self.lines[j][1].get("phase", state.phase) == state.phase:     # this phase's lines
                if self.lines[j][1]["from"] == seat and self.lines[j][1].get("to") == state.give_to:
                    ev_line, ev = self.lines[j]
                    action = give_action(self.key(ev["cards"], ev_line, "exchange"))
                    return action._replace(mask=self.held_mask(state, seat, ev["cards"], ev_line, "exchange"))
                j += 1
            self.fail(f"expected seat {seat}'s {state.phase} line, found {_line_of(event)}")
        if kind == "play":
            self.check_seat(event["seat"], seat, "plays")
            return self.play_of(event, line, state)
        if kind == "pass":
            self.check_seat(event["seat"], seat, "passes")
            return PASS
        self.fail(f"expected a play or a pass by seat {seat}, found a {kind} line")

    def check_seat(self, recorded: int, seat: int, verb: str) -> None:
        if recorded != seat:
            self.fail(f"seat {recorded} {verb} out of turn: it is seat {seat}'s turn")

    def held_mask(self, state: State, seat: int, cards: list[str], line: int, what: str) -> int | None:
        """The very cards a line names from the seat's hand.  A card named with its colour must be
        the seat's own, and named no more often than the seat holds it (refused at the line,
        whether or not the rules tell colours apart); cards named by value alone are the first of
        their value in deck order, None when the seat holds too few (the engine then says why
        the action is not legal)."""
        held = state.held[seat]
        try:
            return self.deck.cards_mask(cards, within=held)
        except CardError:
            pass
        names = self.deck.card_names
        wanted = Counter(f"{self.deck.ranks[rank]}/{colour}".upper()
                         for rank, colour in self.deck.parse_colours(cards) if colour is not None)
        for name, times in wanted.items():
            numbers = [c for c, card in enumerate(names) if card.upper() == name]
            shown = names[numbers[0]] if numbers else name
            owned = sum(1 for c in numbers if held >> c & 1)
            if not numbers:
                self.fail(f"{what}: the deck holds no card {name}", line)
            if times > len(numbers):
                self.fail(f"{what}: {shown} {_times(times)}, but the deck holds {_times(len(numbers), 'it')}",
                          line)
            if times > owned:
                self.fail(f"{what}: seat {seat} does not hold {shown}" if not owned else
                          f"{what}: {shown} {_times(times)}, but seat {seat} holds {_times(owned, 'it')}", line)
        return None

    def play_of(self, event: dict, line: int, state: State | None = None):
        if not event["cards"]:
            self.fail("play: no cards: a play holds at least one card (a pass is written as a pass line)", line)
        key = self.key(event["cards"], line, "play")
        mask = None
        if self.rules.card_plays is not None:        # plays name their very cards
            mask = self.held_mask(state, event["seat"], event["cards"], line, "play") if state is not None else None
            if mask is None:
                try:
                    mask = self.deck.cards_mask(event["cards"])
                except CardError as error:
                    self.fail(f"play: {error}", line)
            play = self.rules.card_play_of(mask, event["combination"], event["rank"])
        else:
            play = self.rules.play_of(key, event["combination"], event["rank"])
        if play is None:
            cards = " ".join(event["cards"])
            readings = self.rules.card_readings(mask) if mask is not None else self.rules.readings(key)
            if event["combination"] not in self.rules.combination:
                self.fail(f"play: unknown combination {event['combination']!r}", line)
            said = ", ".join(f"{p.combination} rank {p.rank}" for p in readings) or "no combination"
            self.fail(f"play: {cards} is not a {event['combination']} of rank {event['rank']} (it reads as {said})",
                      line)
        action = play_action(play)
        if state is not None:
            action = action._replace(mask=self.held_mask(state, event["seat"], event["cards"], line, "play"))
        return action

    # -- comparing what the engine wrote with the record ------------------------------------
    def compare(self, mine: dict) -> None:
        """The record's next line must be the line the engine wrote, field by field, with the
        exceptions docs/game-record.md lists under "What replay compares"."""
        if not self.lines.has(self.i):
            self.fail(f"the record ends here, but the rules go on with a {mine['type']} line",
                      self.lines.number(self.i))
        line, theirs = self.lines[self.i]
        kind = mine["type"]
        if theirs["type"] != kind:
            self.fail(f"expected {_line_of(mine)} here ({_why(mine)}), found {_line_of(theirs)}", line)
        if kind == "exchange" and theirs.get("phase", mine.get("phase")) != mine.get("phase") \
                or kind == "exchange" and theirs["from"] != mine["from"]:
            self.fail(f"expected {_line_of(mine)} here, found {_line_of(theirs)}", line)
        # game_start: the fields that say where and how the game was played (the variant's name
        # and file, its hash, the players' names, a target given on the command line) are not the
        # rules' to give; replay reads them, and checks the players and the seed
        names = ("players", "seed") if kind == "game_start" else [name for name in mine if name != "type"]
        for name in names:
            b = mine[name]
            if name not in theirs:
                # a line may leave out what the rules write beyond its required fields (older records
                # do), but a climbing round_end always says whether the bidder's side won, and a
                # flag left out says "no"
                if name.endswith("_won") and "tricks" not in mine:
                    self.fail(f"{kind} event lacks the field {name!r}", line)
                if name not in _FLAGS:
                    continue
            a = theirs.get(name, False)
            if not self.same(name, a, b, line, kind):
                self.fail(f"{kind}: {name} is {_shown(a, 200)}, but the rules give {_shown(b, 200)}", line)
        if kind != "game_start":
            # extra fields are welcome, but one the rules write (when so) must not be claimed
            # where they write none
            for name, a in theirs.items():
                if name in mine or name == "type" or a is None or a is False:
                    continue
                if name in _WRITTEN_WHEN_SO.get(kind, ()) or kind == "round_end" and (
                        name.endswith("_won") or name == self.game.round.role_word):
                    self.fail(f"{kind}: {name} is {_shown(a)}, but the rules write no {name} here", line)
        self.i += 1

    def same(self, name: str, a, b, line: int, kind: str) -> bool:
        """Does the recorded value ``a`` say what the engine wrote, ``b``?  Cards in any order,
        a card named by its value alone standing for any card of that value; all else equal,
        as JSON values (true is not 1)."""
        if name in ("cards", "nest") and _is_cards(a) and _is_cards(b):
            return self.same_cards(a, b, line, f"{kind}: {name}")
        if name in ("hands", "first") and isinstance(b, list) and _fits(a, HANDS):
            return len(a) == len(b) and all(self.same_cards(x, y, line, "deal") for x, y in zip(a, b))
        if name == "face_up" and isinstance(a, dict) and isinstance(b, dict):
            return (a.keys() == b.keys() and _same_json(a["seat"], b["seat"])
                    and self.same_cards([a["card"]], [b["card"]], line, "deal: the face-up card"))
        return _same_json(a, b)

def state_step(game: Game, event: dict) -> int:
    """The direction of play of a deal line: its ``direction`` when written, else the round's."""
    written = event.get("direction")
    if written in ("clockwise", "counterclockwise"):
        return 1 if written == "clockwise" else -1
    return game.round.direction


# The fields the rules write on a line only when so (docs/game-record.md): a record claiming one
# where the engine wrote none is refused (written false or null, it says nothing, and is read so).
_WRITTEN_WHEN_SO = {
    "deal": {"direction", "first", "stock"},
    "redeal": {"dealer"},
    "exchange": {"phase", "shown"},
    "play": {"out_of_turn", "place"},
    "trick": {"points"},
    "round_end": {"void", "bid", "cards_left", "tricks", "parts", "bonuses", "treasures", "places"},
    "game_end": {"winners", "rounds"},
}


# The fields that are true when written: left out, they say false.
_FLAGS = {"out_of_turn", "shown", "void", "forced"}


def _same_json(a, b) -> bool:
    """Equal as JSON values, and of the same JSON types (true is not 1, a list is a list)."""
    if isinstance(b, (list, tuple)):
        return isinstance(a, list) and len(a) == len(b) and all(map(_same_json, a, b))
    if isinstance(b, dict):
        return isinstance(a, dict) and a.keys() == b.keys() and all(_same_json(a[k], b[k]) for k in b)
    return type(a) is type(b) and a == b


def _line_of(event: dict) -> str:
    """A line named in a message: ``a trick line``, ``seat 2's tribute line``."""
    kind = event["type"]
    if kind == "exchange":
        return f"seat {event['from']}'s {event.get('phase', 'exchange')} line"
    return f"a {kind} line"


def _times(count: int, what: str = "") -> str:
    """``7/red twice``, ``holds it once``: how many times a card is named or held."""
    return f"{what} {({1: 'once', 2: 'twice'}.get(count, f'{count} times'))}".strip()


def _why(event: dict) -> str:
    kind = event["type"]
    if kind not in FIELDS and "seat" in event and "bid" in event:        # the line naming the bidder
        return f"the bidding is over: seat {event['seat']} is the {kind} at {event['bid']}"
    if kind == "trick":
        return f"the trick goes to seat {event['winner']}"
    if kind == "round_end":
        return "everyone passed: the round is void" if event.get("void") else f"seat {event['out']} went out"
    if kind == "redeal":
        return "everyone passed"
    if kind == "bid":
        return f"seat {event['seat']} is forced to bid {event['bid']}" if event.get("forced") else "a bid"
    if kind == "deal":
        return "a new deal"
    if kind == "game_end":
        return "the game is over"
    if kind == "exchange":
        return "the exchange"
    return kind


def replay(events: Sequence, rules: Rules, *, file: str | None = None, target: int | None = None) -> State:
    """Re-play a record under ``rules`` and return the final state (raises :class:`RecordError`).

    ``events`` is what :func:`read_record` returns (``(line, event)`` pairs) or a plain list of
    event dicts (lines are then counted from 1).  The recorded deals replace the seed's
    shuffle; every decision must be legal at its moment, and every line the rules produce
    themselves (forced bids, the line naming the bidder, tricks, scores, totals, the end) must agree.
    """
    lines = list(events)
    if lines and isinstance(lines[0], dict):
        lines = [(number, check_event(event, number, file)) for number, event in enumerate(lines, start=1)]
    if not lines:
        raise RecordError("empty: not a game record", 1, file)
    if lines[0][1].get("type") != "game_start":
        raise RecordError("not a game record: it must begin with a game_start event", lines[0][0], file)
    return _Replayer(lines, lambda: _deals_in(lines), rules, file).run(target)


def replay_file(path, rules: Rules, *, target: int | None = None,
                on_line: Callable[[dict], None] | None = None) -> State:
    """Re-play the record in ``path`` as :func:`replay` does, reading it a line at a time: each
    line is checked against the engine's as it is read, then ``on_line`` is given the engine's
    line (the record's, checked) and neither is kept.  The state returned keeps none of the
    game's lines (its ``events`` end empty), so a record of any length is replayed in the memory
    of one round and a few lines (docs/commands.md, "Memory")."""
    file = str(path)
    return _Replayer(stream_record(path), lambda: _deal_lines(path, file), rules, file,
                     keep=False, on_line=on_line).run(target)


def first_event(path) -> tuple[int, dict]:
    """The record's first event (its game_start), and its line number: what :func:`variant_of`
    reads, without reading the rest."""
    lines = stream_record(path)
    try:
        return next(lines)
    finally:
        lines.close()


def variant_of(lines: Sequence[tuple[int, dict]], record_path, given=None) -> tuple[str, str | None]:
    """The variant file to check a record against, and the hash the record expects of it.

    ``given`` (``--variant``) wins; otherwise ``game_start``'s ``variant_path``, as written or
    relative to the record's folder.  Raises :class:`RecordError` when there is none.
    """
    line, start = lines[0]
    _check_start_extras(start, line, str(record_path))
    expected = start.get("variant_hash")
    if given is not None:
        return str(given), expected
    written = start.get("variant_path")
    if not isinstance(written, str) or not written:
        # a record written with the required fields only: its variant may name the file itself
        named = start.get("variant")
        for candidate in _beside(named, record_path) if _looks_like_a_file(named) else ():
            try:
                if candidate.is_file():
                    return str(candidate), expected
            except (OSError, ValueError):           # a name the system cannot open: not a file
                continue
        raise RecordError("the record does not name its variant file (no variant_path): give --variant",
                          line, str(record_path))
    for candidate in _beside(written, record_path):
        try:
            if candidate.is_file():
                return str(candidate), expected
        except (OSError, ValueError) as error:       # a name too long for the system, say
            reason = getattr(error, "strerror", None) or str(error)
            raise RecordError(f"the record's variant_path {_shown(written)} ({len(written)} characters) "
                              f"cannot be read: {reason}; give --variant", line, str(record_path)) from None
    raise RecordError(f"the record's variant {_shown(written)} cannot be found: give --variant",
                      line, str(record_path))


def _looks_like_a_file(name) -> bool:
    """Whether a ``game_start.variant`` names a variant file (``variants/house.yaml``)."""
    return isinstance(name, str) and name.lower().endswith((".yaml", ".yml"))


def _beside(written: str, record_path) -> list[Path]:
    """Where a path written in a record may be: as written, then relative to the record's folder."""
    return [Path(written), Path(record_path).parent / written]
