"""The tables of a server: seats, the game, computer players, the record on disk, resuming.

A :class:`Hall` holds every open :class:`Table`.  A table waits for people to take seats,
starts when its creator says so (computer players fill the free seats; a full table waits for
its creator too, who may still remove a stranger), and then runs: a person's decision comes from a connection (:meth:`Table.act`), a
computer player's from a task that waits ``delay`` seconds first so people can follow.
Every decision appends its record lines to ``DATA/<id>.jsonl`` at once; ``DATA/<id>.json``
keeps the seats (hashes of their tokens, never the tokens), the variant's path and, with
``--seed``, the table's seed.  :meth:`Hall.load` reads the sidecars back when the server starts
(at once: the server answers from the first moment) and :meth:`Hall.resume_tables` replays
every unfinished table's record in the background, one at a time in a worker thread, a table
somebody is waiting for first; a finished table is brought back the same way when somebody
asks for it, so its result and log outlive the server.  The folder and its files are the server's user's alone (0700, 0600): they
hold every hand.

No hidden card can be learned from what a seat or a spectator receives: without ``--seed`` a
table's deals come from the system's secure random source (``SECRET_SEED``), and its computer
players are seeded from it too; with ``--seed`` the deals repeat at every playtest, but the seed
is never sent to anyone (no log line, no message, no lobby entry names it).

A seat is held by a secret token (``secrets.token_urlsafe``) given once to the person who
took it; whoever presents it again (a reload, a second tab) holds the seat.

Tables belong to their people.  A table is *unlisted* (only its link leads to it) unless its
creator lists it in the lobby; the creator may keep a seat for one person (an invite: a
secret code that only that seat's link carries) and remove a seated person before the start.
A client (a browser, by its signed cookie; else its address) may hold at most
``max_waiting`` waiting tables, a waiting table nobody is seated at, or nobody watches,
expires after ``expire_after`` seconds (:meth:`Hall.sweep`), so the server's table limit is
never held for good.  A person whose every page leaves a started game is replaced by a
computer player after ``replace_after`` seconds, said in every seat's log, and takes the seat
back by coming back with the token.
"""
from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import os
import re
import secrets
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any, Callable

from ..engine import SECRET_SEED, Action, Game, State
from ..errors import ChimeraError, RecordError
from ..players import Player, make_player, split_players
from ..tell.articles import title_of
from ..tell.catalog import languages
from ..tell.printer import Teller
from .words import Said, page_words
from ..tell.record import dumps, parse_record
from ..rules import Rules
from . import view
from .resume import Replayed, ResumeError, replay_record

log = logging.getLogger("chimera.serve")

TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{4,32}$")
MAX_NAME = 24
MAX_SIDECAR = 256 * 1024
FORMAT = 1


def private_folder(path: Path) -> None:
    """Make ``path`` (and its parents) and keep it to the server's user alone (0700): its
    records and sidecars hold every hand."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(path, 0o700)
    for child in path.iterdir():            # the files an earlier version left readable to all
        if child.is_file() and child.suffix in (".json", ".jsonl", ".tmp"):
            os.chmod(child, 0o600)


def private_file(path: Path, mode: str) -> IO[bytes]:
    """``open(path, mode)`` unbuffered, binary, created readable and writable by the server's user alone (0600)."""
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if "a" in mode else os.O_TRUNC)
    fd = os.open(path, flags, 0o600)
    os.fchmod(fd, 0o600)                     # an existing file keeps its mode through os.open
    return os.fdopen(fd, mode, buffering=0)


def token_hash(token: str) -> str:
    """The stored form of a seat's token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def clean_name(name) -> str:
    """A person's name as the table shows it: printable, trimmed, at most 24 characters."""
    text = "".join(ch for ch in str(name or "") if ch.isprintable()).strip()
    return text[:MAX_NAME]


@dataclass
class Seat:
    """One seat: ``free``, a ``person`` (with the hash of its token) or a ``computer`` player."""

    kind: str = "free"
    name: str = ""
    token: str | None = None         # SHA-256 of the seat's token, never the token
    invite: str | None = None        # SHA-256 of the invite code keeping a free seat for one person
    away: bool = False               # a person's seat a computer player plays while they are gone


@dataclass
class Settings:
    """What every table of a server shares."""

    data: Path
    players: str | None = None       # --players: the computer players of the free seats
    delay: float = 0.8               # seconds a computer player waits before it acts
    target: int | None = None
    max_rounds: int | None = None
    max_tables: int = 500
    max_waiting: int = 3             # --max-waiting: waiting tables one client may hold
    max_sockets: int = 60            # --max-sockets: websockets one address may hold open at once
    expire_after: float = 600.0      # --expire-after: seconds a waiting table may stand with nobody seated or watching
    replace_after: float = 60.0      # --replace-after: seconds before a computer plays for a person who left
    seed: int | None = None          # --seed: the first table's seed, the next one's plus one; None: secret deals
    hosts: tuple[str, ...] | None = None      # the host names answered to (None: any)
    allow_origins: tuple[str, ...] = ()       # --allow-origin: other sites whose pages may play here
    lang: str = "en"                 # --lang: the language of a page that asks for none, and of the server's log


def line_kinds(event: dict, texts: list[str]) -> list[str]:
    """What each line a record ``event`` is told in says, for the page: the event's type, but
    ``round`` for the first line with words of a deal (the line heading a round)."""
    kind = str(event.get("type"))
    out = []
    head = kind == "deal"
    for text in texts:
        out.append("round" if head and text else kind)
        head = head and not text
    return out


class Table:
    """One table: its seats, its game once started, its record and who listens to it."""

    def __init__(self, hall: "Hall", table_id: str, rules: Rules, variant_path: str, seed: int | None,
                 seats: list[Seat], creator: str, target: int | None, max_rounds: int | None,
                 created: float, owner: str = "", address: str = "", listed: bool = False):
        self.hall = hall
        self.id = table_id
        self.rules = rules
        self.variant_path = variant_path
        self.seed = seed
        self.game = Game(rules, target=target, max_rounds=max_rounds)
        self.target = target
        self.max_rounds = max_rounds
        self.seats = seats
        self.creator = creator
        self.created = created
        self.owner = owner                  # the client that opened it (its cookie's id, or its address)
        self.address = address              # the address it was opened from
        self.listed = listed                # shown in the lobby (the creator's choice)
        self.last_seated = self.last_watched = time.monotonic()     # for expiring a waiting table
        self._away_timers: dict[int, asyncio.TimerHandle] = {}
        self.state: State | None = None
        self.status = "waiting"
        self.problem: str | None = None
        self.turn = 0                       # decisions taken so far
        self.version = 0                    # changes seen by the page (seats, decisions)
        self.players: dict[int, Player] = {}
        self.pending: list[dict] = []       # decisions since the last record line that wrote none
        self.listeners: set[Callable[[], None]] = set()
        self.connected: dict[int, int] = {}
        self.logs: dict[int, list[list]] = {}       # per viewer, [round, text] in the server's language
        self.kinds: dict[int, list[str]] = {}       # per viewer, what each line of its log tells (see log_of)
        self._tellers: dict = {}                    # per viewer, and per (viewer, lang) for other languages
        self._other_logs: dict[tuple[int, str], list[list]] = {}
        self._notices: list[tuple[int, Any, str, dict]] = []    # (events told before it, round, key, fields)
        self._told = 0
        self._record: IO[bytes] | None = None
        self._wake = asyncio.Event()
        self._driver: asyncio.Task | None = None
        self._cache: dict[tuple, dict] = {}
        self.ready = asyncio.Event()        # set once the table can be played or watched
        self.ready.set()
        self.resuming = False               # its record is being replayed: :meth:`Hall.resume_tables`
        self.wanted = 0                     # connections waiting for it to be ready
        self.failed: str | None = None      # why it could not be brought back
        self.saved_pending: dict = {}       # the sidecar's pending decisions, until resumed

    # -- files ----------------------------------------------------------------------------------
    @property
    def record_path(self) -> Path:
        return self.hall.settings.data / f"{self.id}.jsonl"

    @property
    def sidecar_path(self) -> Path:
        return self.hall.settings.data / f"{self.id}.json"

    def save(self) -> None:
        """Write the sidecar (atomically: a new file moved over the old one)."""
        data = {"format": FORMAT, "id": self.id, "variant": self.variant_path,
                "variant_hash": self.rules.source_hash, "seed": self.seed, "target": self.target,
                "max_rounds": self.max_rounds, "created": self.created, "status": self.status,
                "creator": self.creator, "owner": self.owner, "address": self.address, "listed": self.listed,
                "seats": [asdict(s) for s in self.seats],
                "pending": {"after_events": len(self.state.events) if self.state else 0,
                            "moves": self.pending}}
        tmp = self.sidecar_path.with_suffix(".json.tmp")
        with private_file(tmp, "wb") as f:
            f.write(json.dumps(data, ensure_ascii=False).encode("utf-8"))
        os.replace(tmp, self.sidecar_path)

    def _append(self, events: list[dict]) -> None:
        if self._record is None:
            self._record = private_file(self.record_path, "ab")
        self._record.write(dumps(events).encode("utf-8"))      # one write: whole lines or none

    def close(self) -> None:
        """Stop the computer players and close the record."""
        for timer in self._away_timers.values():
            timer.cancel()
        self._away_timers.clear()
        if self._driver is not None:
            self._driver.cancel()
            self._driver = None
        if self._record is not None:
            self._record.close()
            self._record = None

    # -- seats ----------------------------------------------------------------------------------
    def seat_of(self, token) -> int | None:
        """The seat ``token`` holds here, or None."""
        if not isinstance(token, str) or not token or len(token) > 200:
            return None
        digest = token_hash(token)
        for i, seat in enumerate(self.seats):
            if seat.kind == "person" and seat.token is not None and secrets.compare_digest(seat.token, digest):
                return i
        return None

    def is_creator(self, token) -> bool:
        return isinstance(token, str) and 0 < len(token) <= 200 and \
            secrets.compare_digest(self.creator, token_hash(token))

    def _seat_number(self, seat) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.seats):
            raise ValueError(f"there is no seat {seat!r} (seats 0 to {len(self.seats) - 1})")
        return seat

    def sit(self, seat, name, invite=None, creator: bool = False) -> str:
        """Give free ``seat`` to a person: the token that holds it (raises ``ValueError``).  A seat
        kept by an invite is given only with its code (or to the creator)."""
        if self.status != "waiting":
            raise Said("game_started")
        seat = self._seat_number(seat)
        if self.seats[seat].kind != "free":
            raise Said("seat_taken", seat=seat)
        kept = self.seats[seat].invite
        if kept is not None and not creator and not (
                isinstance(invite, str) and 0 < len(invite) <= 200 and secrets.compare_digest(kept, token_hash(invite))):
            raise Said("seat_kept", seat=seat)
        token = secrets.token_urlsafe(24)
        self.seats[seat] = Seat("person", clean_name(name) or f"player {seat}", token_hash(token))
        self.save()
        self.changed()              # a full table waits for its creator too: strangers who take
        return token                # every free seat cannot start it before they are removed

    def invite(self, seat) -> str:
        """Keep free ``seat`` for one person: the invite code its link carries (a new code
        replaces an earlier one; raises ``ValueError``)."""
        if self.status != "waiting":
            raise ValueError("the game has started: there is no seat left to invite to")
        seat = self._seat_number(seat)
        if self.seats[seat].kind != "free":
            raise ValueError(f"seat {seat} is taken: remove its person first")
        code = secrets.token_urlsafe(18)
        self.seats[seat].invite = token_hash(code)
        self.save()
        self.changed()
        return code

    def remove(self, seat) -> None:
        """Free ``seat`` before the start (its person's pages become spectators' and its token
        holds nothing any more), or drop the invite that keeps a free seat (raises ``ValueError``)."""
        if self.status != "waiting":
            raise ValueError("the game has started: nobody can be removed any more")
        seat = self._seat_number(seat)
        if self.seats[seat].kind == "free" and self.seats[seat].invite is None:
            raise ValueError(f"seat {seat} is free: there is nobody to remove")
        self.seats[seat] = Seat()
        self.connected.pop(seat, None)
        self.save()
        self.changed()

    def set_listed(self, listed) -> None:
        if not isinstance(listed, bool):
            raise ValueError('"listed" is true (show this table in the lobby) or false')
        self.listed = listed
        self.save()
        self.changed()

    # -- people who leave ------------------------------------------------------------------------
    def say(self, key: str, **fields) -> None:
        """A line for every seat's log and the spectators' (what happens at the table, not in the
        game): the sentence ``key`` of the catalogs' ``page`` section, in each log's language."""
        round_ = self.state.events[-1].get("round") if self.state is not None and self.state.events else None
        self._notices.append((self._told, round_, key, fields))
        for viewer in self._viewers():
            self.logs.setdefault(viewer, []).append([round_, page_words(self.hall.settings.lang, key, **fields)])
            self.kinds.setdefault(viewer, []).append("notice")
        for (viewer, lang), lines in self._other_logs.items():
            lines.append([round_, page_words(lang, key, **fields)])

    def _viewers(self) -> list[int]:
        return list(range(len(self.seats))) + [view.NO_SEAT]

    def log_of(self, viewer: int, lang: str) -> list[list]:
        """The log of ``viewer`` (a seat, or :data:`~.view.NO_SEAT`) in ``lang``: the server's
        language's is kept as the game goes; another's is told from the record's lines the first
        time a page asks for it, then kept as well.  Every language's log has the same lines in
        the same places, so :attr:`kinds` serves them all: ``deal``, ``round`` (the line heading
        a round), ``round_end``, ``game_end`` (the event a line tells) or ``notice``."""
        if lang == self.hall.settings.lang or lang not in languages():
            return self.logs.get(viewer, [])
        key = (viewer, lang)
        if key not in self._other_logs:
            if self.state is None:          # before the game: the notices alone, kept by no teller
                return [[round_, page_words(lang, said, **fields)] for _, round_, said, fields in self._notices]
            lines: list[list] = []
            told = 0
            teller = self._tellers[key] = self._teller(viewer, lang)
            for at, round_, said, fields in self._notices + [(self._told, None, None, {})]:
                for event in self.state.events[told:at]:
                    lines.extend([event.get("round"), text] for text in teller.lines([event]))
                told = at
                if said is not None:
                    lines.append([round_, page_words(lang, said, **fields)])
            self._other_logs[key] = lines
        return self._other_logs[key]

    def _teller(self, viewer: int, lang: str) -> Teller:
        return Teller(self.rules, seat=viewer, live=True, names=view.shown_names(self.seats), lang=lang)

    def person_left(self, seat: int) -> None:
        """The last page holding ``seat`` left: a computer plays for it after ``replace_after`` s."""
        if self.status != "playing" or self.seats[seat].kind != "person" or self.seats[seat].away:
            return
        after = self.hall.settings.replace_after
        if seat not in self._away_timers:
            self._away_timers[seat] = asyncio.get_running_loop().call_later(after, self._replace, seat)
            self.say("notice_left", name=self.seats[seat].name, after=f"{after:g}")

    def person_back(self, seat: int) -> None:
        """A page holding ``seat`` is connected again: the person plays it again."""
        timer = self._away_timers.pop(seat, None)
        if timer is not None:
            timer.cancel()
        if self.seats[seat].away:
            self.seats[seat].away = False
            self.say("notice_back", name=self.seats[seat].name)

    def _replace(self, seat: int) -> None:
        self._away_timers.pop(seat, None)
        if self.status != "playing" or self.connected.get(seat, 0) > 0 or self.seats[seat].kind != "person":
            return
        self.seats[seat].away = True
        name = split_players(self.hall.settings.players, len(self.seats))[seat]
        self.players.setdefault(seat, make_player(name, secrets.randbits(62)))
        self.say("notice_replaced", name=self.seats[seat].name, after=f"{self.hall.settings.replace_after:g}")
        self.changed()

    def _watch_the_absent(self) -> None:
        """At the start, or back after a restart: every person with no page connected is gone."""
        for i, seat in enumerate(self.seats):
            if seat.kind == "person" and self.connected.get(i, 0) == 0:
                self.person_left(i)

    # -- the game -------------------------------------------------------------------------------
    def start(self) -> None:
        """Fill the free seats with computer players and deal."""
        if self.status != "waiting":
            raise ValueError("the game has already started")
        names = split_players(self.hall.settings.players, len(self.seats))
        for i, seat in enumerate(self.seats):
            if seat.kind == "free":
                self.seats[i] = Seat("computer", names[i])
        self.state = self.game.new_game(SECRET_SEED if self.seed is None else self.seed,
                                        player_names=[s.name for s in self.seats])
        self.status = "playing"
        self._computers()
        self._append(self.state.events)
        self.save()
        self._after_events()
        self._watch_the_absent()
        self.changed()
        self.run()

    def _computers(self) -> None:
        # with --seed the computer players repeat too; without it their randomness is secret
        self.players = {i: make_player(s.name, self.seed * 1000 + i if self.seed is not None
                                       else secrets.randbits(62))
                        for i, s in enumerate(self.seats) if s.kind == "computer"}

    def replay(self) -> Replayed:
        """The state the record on disk leads to (raises :class:`ResumeError`, ``ValueError``).
        Touches nothing of the table: it runs in a worker thread while the server goes on."""
        try:
            lines = [event for _, event in parse_record(_whole_lines(self.record_path), str(self.record_path))]
        except RecordError as error:
            raise ValueError(str(error)) from None
        pending = self.saved_pending
        moves = pending.get("moves") if isinstance(pending, dict) and \
            pending.get("after_events") == len(lines) else None
        try:
            return replay_record(self.game, lines, moves if isinstance(moves, list) else ())
        except ResumeError as error:
            raise ValueError(f"{self.record_path}: {error}") from None

    def resume(self, replayed: Replayed) -> None:
        """Go on from the state a replay of the record gave (:meth:`replay`)."""
        self.state = replayed.state
        self.status = "playing" if not self.state.is_terminal() else "over"
        self.turn = replayed.decisions
        self.pending = replayed.pending
        self._computers()
        self._after_events()
        self._watch_the_absent()
        self.resuming = False
        self.save()
        self.ready.set()
        self.changed()
        self.run()

    def run(self) -> None:
        """Start the task that plays the computer players' decisions."""
        if self._driver is None and self.status == "playing":
            self._driver = asyncio.get_running_loop().create_task(self._drive())

    async def _drive(self) -> None:
        try:
            while self.state is not None and not self.state.is_terminal():
                seat = self.state.current_player()
                legal = self.state.legal_actions()
                if self.seats[seat].kind != "computer" and not self.seats[seat].away and len(legal) != 1:
                    self._wake.clear()
                    await self._wake.wait()
                    continue
                turn = self.turn
                await asyncio.sleep(self.hall.settings.delay)
                if self.turn != turn or self.state.is_terminal() or (
                        self.seats[seat].kind != "computer" and not self.seats[seat].away and len(legal) != 1):
                    continue                     # taken meanwhile, or its person came back
                player = self.players.get(seat)
                action = legal[0] if player is None else player.act(self.state.observation(seat), legal)
                self.apply(action)
        except asyncio.CancelledError:
            raise
        except Exception as error:          # a bug must not take the server down: the table says so
            log.exception("table %s stopped", self.id)
            self.problem = f"the table stopped: {type(error).__name__}: {error}"
            self.changed()

    def act(self, seat: int, choice: dict) -> None:
        """A person's decision for ``seat`` (raises ``ValueError`` with the reason it is refused)."""
        if self.state is None or self.status != "playing":
            raise Said("not_playing" if self.status != "over" else "game_over_refused")
        to_act = self.state.current_player()
        if to_act != seat:
            raise Said("not_your_turn", who=view.shown_names(self.seats)[to_act])
        action = view.action_of(self.state.legal_actions(), choice, self.turn)
        self.apply(action)

    def apply(self, action: Action) -> None:
        """Take ``action`` for the seat to act, write its lines and tell everyone."""
        state = self.state
        assert state is not None, "no game is being played"
        before = len(state.events)
        acting = state.observation(state.current_player())     # names the action if it writes no line
        state.apply_action(action)
        self.turn += 1
        new = state.events[before:]
        if new:
            self.pending = []
            self._append(new)
        else:
            self.pending.append(view.choice_json(self.game, action, acting))
            self.save()
        if state.is_terminal():
            self.status = "over"
            self.save()
            self.close()
        self._after_events()
        self.changed()

    # -- telling -------------------------------------------------------------------------------
    def _after_events(self) -> None:
        """Tell the new record lines to every seat's log and the spectators' (one teller each)."""
        assert self.state is not None, "no game is being played"
        events = self.state.events[self._told:]
        self._told = len(self.state.events)
        for viewer in self._viewers():
            teller = self._tellers.get(viewer)
            if teller is None:
                teller = self._tellers[viewer] = self._teller(viewer, self.hall.settings.lang)
            lines = self.logs.setdefault(viewer, [])
            kinds = self.kinds.setdefault(viewer, [])
            for event in events:
                texts = list(teller.lines([event]))
                lines.extend([event.get("round"), text] for text in texts)
                kinds.extend(line_kinds(event, texts))
        for (viewer, lang), lines in self._other_logs.items():
            teller = self._tellers[(viewer, lang)]
            for event in events:
                lines.extend([event.get("round"), text] for text in teller.lines([event]))

    def changed(self) -> None:
        """Something the pages show changed: wake the computer players and every connection."""
        self.version += 1
        self._cache.clear()
        self._wake.set()
        for notify in list(self.listeners):
            notify()

    def snapshot(self, seat: int | None, creator: bool, lang: str = "en") -> dict:
        """What a connection holding ``seat`` (None: a spectator) sees now, as a message, its
        names and labels in ``lang``."""
        key = (seat, creator, lang)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        game, state = self.game, self.state
        names = view.shown_names(self.seats)
        variant = title_of(self.rules, lang) if lang != "en" else self.rules.name
        message = {"type": "state", "table": self.id, "variant": variant, "status": self.status,
                   "turn": self.turn, "seat": seat, "creator": creator, "players": len(self.seats),
                   "deck": view.deck_json(self.rules, lang), "end": view.end_json(game), "listed": self.listed,
                   "seats": [{"seat": i, "kind": s.kind, "name": names[i], "away": s.away, "invited": s.invite is not None,
                              "connected": self.connected.get(i, 0) > 0} for i, s in enumerate(self.seats)],
                   "roles": view.roles(game, lang), "phases": view.phase_names(game, lang), "marked_fields": list(view.MARKED_FIELDS), "problem": self.problem, "to_act": None, "view": None,
                   "marks": [[] for _ in self.seats], "legal": []}
        if state is not None:
            if seat is not None:
                shown = view.seat_view(game, state.observation(seat), state.events)
            else:
                shown = view.public_view([view.seat_view(game, state.observation(s), state.events)
                                          for s in range(len(self.seats))])
            message["marks"] = view.seat_marks(game, shown, len(self.seats), lang)
            message["view"] = shown = view.localised(game, shown, lang)
            to_act = state.current_player()
            if not state.is_terminal():
                message["to_act"] = to_act
                if seat == to_act and self.seats[seat].kind == "person" and not self.seats[seat].away:
                    legal = state.legal_actions()
                    message["legal"] = view.actions_json(game, legal, state.observation(seat), lang)
                    message["forced"] = len(legal) == 1          # taken for the person at once
            if state.is_terminal():
                message["totals"] = list(state.returns())
        self._cache[key] = message
        return message

    def summary(self) -> dict:
        """The table as the lobby lists it."""
        return {"table": self.id, "status": "resuming" if self.resuming else self.status, "variant": self.rules.name,
                "seats": [{"kind": s.kind, "name": s.name} for s in self.seats]}


class Refused(Said):
    """A client may not open another table now (it holds its share of waiting tables)."""


class Hall:
    """Every table of one server, keyed by id."""

    def __init__(self, settings: Settings, variant_path: str, rules: Rules):
        self.settings = settings
        self.variant_path = variant_path
        self.rules = rules
        self.tables: dict[str, Table] = {}
        self._rules: dict[str, Rules] = {variant_path: rules}
        self._created = 0                # tables this server has created (the next one's seed, with --seed)
        self._resume_wake = asyncio.Event()
        self.sockets: dict[str, int] = {}  # the websockets open, by the address they come from
        self.report: Callable[[str], None] = lambda problem: print(f"chimera serve: {problem}", flush=True)
        private_folder(settings.data)

    # -- clients -------------------------------------------------------------------------------
    @property
    def _client_key(self) -> bytes:
        """The key signing the clients' cookies (kept in the data folder, so cookies outlive a restart)."""
        key = getattr(self, "_key", None)
        if key is None:
            path = self.settings.data / "client-key"
            try:
                key = bytes.fromhex(path.read_text().strip())
            except (OSError, ValueError):
                key = b""
            if len(key) < 32:
                key = secrets.token_bytes(32)
                with private_file(path, "wb") as f:
                    f.write(key.hex().encode())
            self._key = key
        return key

    def new_client(self) -> str:
        """A new client's cookie value: a random id and its signature."""
        client = secrets.token_urlsafe(16)
        return f"{client}.{self._signature(client)}"

    def _signature(self, client: str) -> str:
        return hmac.new(self._client_key, client.encode(), hashlib.sha256).hexdigest()[:32]

    def client_of(self, cookie) -> str | None:
        """The client id a cookie value names, if this server signed it."""
        if not isinstance(cookie, str) or len(cookie) > 100 or "." not in cookie:
            return None
        client, signature = cookie.rsplit(".", 1)
        return client if hmac.compare_digest(signature, self._signature(client)) else None

    def create(self, owner: str = "", address: str = "") -> tuple[Table, str]:
        """A new waiting table of the server's variant: the table and its creator's token.

        ``owner``: the client asking (``cookie:ID``, or ``address:ADDR`` without a cookie), which
        may hold at most ``max_waiting`` tables waiting or playing with no page watching; one
        address at most ten times as many.
        Raises :class:`Refused` (too many of this client's) or ``ValueError`` (the server is full).
        """
        self._forget_finished()
        self.sweep()
        limit = self.settings.max_waiting
        # a table started and left to the computer players counts too: else one address could
        # open, start and leave tables until the server is full, each held until its game ends
        waiting = [t for t in self.tables.values()
                   if t.status == "waiting" or (t.status == "playing" and not t.listeners)]
        mine = sum(1 for t in waiting if owner and t.owner == owner)
        if owner and mine >= limit:
            raise Refused("too_many_waiting", n=mine, after=f"{self.settings.expire_after:g}")
        if address and sum(1 for t in waiting if t.address == address) >= 10 * limit:
            raise Refused("too_many_from_address", n=10 * limit)
        open_tables = sum(1 for t in self.tables.values() if t.status != "over")
        if open_tables >= self.settings.max_tables:
            raise Said("server_full", n=open_tables)
        table_id = secrets.token_urlsafe(6)
        while table_id in self.tables or not TABLE_ID.match(table_id):
            table_id = secrets.token_urlsafe(6)
        token = secrets.token_urlsafe(24)
        seed = None if self.settings.seed is None else self.settings.seed + self._created
        self._created += 1
        table = Table(self, table_id, self.rules, self.variant_path, seed,
                      [], token_hash(token), self.settings.target, self.settings.max_rounds, time.time(),
                      owner=owner, address=address)
        table.seats = [Seat() for _ in range(table.game.players)]
        self.tables[table_id] = table
        table.save()
        return table, token

    def sweep(self) -> list[str]:
        """Let the waiting tables expire that nobody has been seated at, or nobody has watched,
        for ``expire_after`` seconds (their files go too): their ids."""
        now = time.monotonic()
        gone = []
        for table in list(self.tables.values()):
            if table.status != "waiting" or table.resuming:
                continue
            if any(s.kind == "person" for s in table.seats):
                table.last_seated = now
            if table.listeners:
                table.last_watched = now
            if now - min(table.last_seated, table.last_watched) >= self.settings.expire_after:
                table.status = "expired"
                table.failed = (f"this table expired: nobody was seated at it, or nobody watched it, for "
                                f"{self.settings.expire_after:g} s")
                del self.tables[table.id]
                table.close()
                for path in (table.sidecar_path, table.record_path):
                    try:
                        path.unlink()
                    except FileNotFoundError:
                        pass
                table.changed()
                gone.append(table.id)
        return gone

    async def sweep_forever(self) -> None:
        """:meth:`sweep` every few seconds (a task of the server)."""
        while True:
            await asyncio.sleep(max(0.2, min(5.0, self.settings.expire_after / 4)))
            self.sweep()

    def _forget_finished(self, keep: int = 200) -> None:
        """Let go of finished tables nobody watches, but the ``keep`` latest (their records stay on disk)."""
        finished = [t for t in self.tables.values() if t.status == "over" and not t.listeners]
        for table in finished[:max(0, len(finished) - keep)]:
            table.close()
            del self.tables[table.id]

    def get(self, table_id) -> Table | None:
        """The table ``table_id``; a finished one no longer held is brought back from its files
        (it is :attr:`Table.resuming` until its record is replayed)."""
        if not isinstance(table_id, str) or not TABLE_ID.match(table_id):
            return None
        table = self.tables.get(table_id)
        if table is None:
            sidecar = self.settings.data / f"{table_id}.json"
            try:
                table = self._load(sidecar) if sidecar.is_file() else None
            except (OSError, ValueError, KeyError, TypeError, ChimeraError) as error:
                self.report(f"{sidecar}: not resumed: {error}")
                return None
            if table is not None:
                self.tables[table_id] = table
                self._resume_wake.set()
        return table

    def close(self) -> None:
        for table in self.tables.values():
            table.close()

    # -- resuming ------------------------------------------------------------------------------
    def _rules_of(self, path: str) -> Rules:
        rules = self._rules.get(path)
        if rules is None:
            from .. import load_variant
            rules = self._rules[path] = load_variant(path)
        return rules

    def load(self) -> list[str]:
        """Read back every unfinished table's sidecar from the data folder (quick: no record is
        replayed here; :meth:`resume_tables` does it); one line per table that failed."""
        problems = []
        for sidecar in sorted(self.settings.data.glob("*.json")):
            table_id = sidecar.stem
            if not TABLE_ID.match(table_id) or table_id in self.tables:
                continue
            try:
                table = self._load(sidecar, finished=False)
            except (OSError, ValueError, KeyError, TypeError, ChimeraError) as error:
                problems.append(f"{sidecar}: not resumed: {error}")
                continue
            if table is not None:
                self.tables[table_id] = table
        self._resume_wake.set()
        return problems

    async def resume_tables(self) -> None:
        """Replay the records of the tables waiting to resume, for ever (a task of the server):
        one at a time, in a worker thread so the server keeps answering; a table a connection
        waits for goes first.  A table that cannot be brought back is reported and let go."""
        while True:
            queue = [t for t in self.tables.values() if t.resuming]
            if not queue:
                self._resume_wake.clear()
                await self._resume_wake.wait()
                continue
            table = max(queue, key=lambda t: t.wanted > 0)       # the first wanted one, else the first
            try:
                replayed = await asyncio.to_thread(table.replay)
            except asyncio.CancelledError:
                raise
            except Exception as error:         # ValueError (a bad record), or a bug: this table only
                self.report(f"{table.sidecar_path}: not resumed: {error}")
                table.resuming = False
                table.status = "broken"           # kept, so that pages asking for it are told why
                table.failed = f"this table could not be brought back from its record: {error}"
                table.ready.set()
                continue
            if self.tables.get(table.id) is table:
                table.resume(replayed)

    def _load(self, sidecar: Path, finished: bool = True) -> Table | None:
        """The table a sidecar describes (waiting: ready; else to be resumed), or None for a
        finished table when not ``finished``."""
        if sidecar.stat().st_size > MAX_SIDECAR:
            raise ValueError("the file is too large for a table's sidecar")
        data = json.loads(sidecar.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError("not a table sidecar of this version")
        if data["status"] == "over" and not finished:
            return None
        rules = self._rules_of(data["variant"])
        seats = [Seat(str(s["kind"]), str(s.get("name") or ""), s.get("token"), s.get("invite")) for s in data["seats"]]
        seed = None if data.get("seed") is None else int(data["seed"])
        table = Table(self, data["id"], rules, data["variant"], seed, seats, str(data["creator"]),
                      data.get("target"), data.get("max_rounds"), float(data.get("created", 0)),
                      owner=str(data.get("owner") or ""), address=str(data.get("address") or ""),
                      listed=data.get("listed") is True)
        if len(seats) != table.game.players or table.id != sidecar.stem:
            raise ValueError("the sidecar does not match its variant")
        if data["status"] == "waiting":
            return table
        if not table.record_path.is_file():
            raise ValueError(f"{table.record_path} is missing")
        table.saved_pending = data.get("pending") or {}
        table.status = "over" if data["status"] == "over" else "playing"
        table.resuming = True
        table.ready.clear()
        return table


def _whole_lines(path: Path) -> bytes:
    """The file's bytes up to its last newline; a line cut short by a crash is dropped from the file."""
    data = path.read_bytes()
    whole = data[:data.rfind(b"\n") + 1]
    if len(whole) != len(data):
        with open(path, "r+b") as f:
            f.truncate(len(whole))
    return whole
