"""The tables of a server: seats, the game, computer players, the record on disk, resuming.

A :class:`Hall` holds every open :class:`Table`.  A table waits for people to take seats,
starts when its creator says so or when every seat is taken (computer players fill the free
seats), and then runs: a person's decision comes from a connection (:meth:`Table.act`), a
computer player's from a task that waits ``delay`` seconds first so people can follow.
Every decision appends its record lines to ``DATA/<id>.jsonl`` at once; ``DATA/<id>.json``
keeps the seats (hashes of their tokens, never the tokens), the variant's path and, with
``--seed``, the table's seed.  :meth:`Hall.resume` reads them back and replays every
unfinished table.  The folder and its files are the server's user's alone (0700, 0600): they
hold every hand.

No hidden card can be learned from what a seat or a spectator receives: without ``--seed`` a
table's deals come from the system's secure random source (``SECRET_SEED``), and its computer
players are seeded from it too; with ``--seed`` the deals repeat at every playtest, but the seed
is never sent to anyone (no log line, no message, no lobby entry names it).

A seat is held by a secret token (``secrets.token_urlsafe``) given once to the person who
took it; whoever presents it again (a reload, a second tab) holds the seat.
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import re
import secrets
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Callable

from ..engine import SECRET_SEED, Action, Game, State
from ..errors import ChimeraError, RecordError
from ..players import Player, make_player, split_players
from ..tell.printer import Teller
from ..tell.record import dumps, parse_record
from ..rules import Rules
from . import view
from .resume import ResumeError, replay_record

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


@dataclass
class Settings:
    """What every table of a server shares."""

    data: Path
    players: str | None = None       # --players: the computer players of the free seats
    delay: float = 0.8               # seconds a computer player waits before it acts
    target: int | None = None
    max_rounds: int | None = None
    max_tables: int = 500
    seed: int | None = None          # --seed: the first table's seed, the next one's plus one; None: secret deals


class Table:
    """One table: its seats, its game once started, its record and who listens to it."""

    def __init__(self, hall: "Hall", table_id: str, rules: Rules, variant_path: str, seed: int | None,
                 seats: list[Seat], creator: str, target: int | None, max_rounds: int | None,
                 created: float):
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
        self.state: State | None = None
        self.status = "waiting"
        self.problem: str | None = None
        self.turn = 0                       # decisions taken so far
        self.version = 0                    # changes seen by the page (seats, decisions)
        self.players: dict[int, Player] = {}
        self.pending: list[dict] = []       # decisions since the last record line that wrote none
        self.listeners: set[Callable[[], None]] = set()
        self.connected: dict[int, int] = {}
        self.logs: dict[int, list[list]] = {}
        self._tellers: dict[int, Teller] = {}
        self._told = 0
        self._record: IO[bytes] | None = None
        self._wake = asyncio.Event()
        self._driver: asyncio.Task | None = None
        self._cache: dict[tuple, dict] = {}

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
                "creator": self.creator, "seats": [asdict(s) for s in self.seats],
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

    def sit(self, seat, name) -> str:
        """Give free ``seat`` to a person: the token that holds it (raises ``ValueError``)."""
        if self.status != "waiting":
            raise ValueError("the game has started: every seat is taken")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.seats):
            raise ValueError(f"there is no seat {seat!r} (seats 0 to {len(self.seats) - 1})")
        if self.seats[seat].kind != "free":
            raise ValueError(f"seat {seat} is taken")
        token = secrets.token_urlsafe(24)
        self.seats[seat] = Seat("person", clean_name(name) or f"player {seat}", token_hash(token))
        self.save()
        if all(s.kind == "person" for s in self.seats):
            self.start()
        else:
            self.changed()
        return token

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
        self.changed()
        self.run()

    def _computers(self) -> None:
        # with --seed the computer players repeat too; without it their randomness is secret
        self.players = {i: make_player(s.name, self.seed * 1000 + i if self.seed is not None
                                       else secrets.randbits(62))
                        for i, s in enumerate(self.seats) if s.kind == "computer"}

    def resume(self, lines: list[dict], pending: dict) -> None:
        """Replay the record ``lines`` and go on from there (raises :class:`ResumeError`)."""
        moves = pending.get("moves") if isinstance(pending, dict) and \
            pending.get("after_events") == len(lines) else None
        replayed = replay_record(self.game, lines, moves if isinstance(moves, list) else ())
        self.state = replayed.state
        self.status = "playing" if not self.state.is_terminal() else "over"
        self.turn = replayed.decisions
        self.pending = replayed.pending
        self._computers()
        self._after_events()
        self.save()
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
                if self.seats[seat].kind != "computer" and len(legal) != 1:
                    self._wake.clear()
                    await self._wake.wait()
                    continue
                turn = self.turn
                await asyncio.sleep(self.hall.settings.delay)
                if self.turn != turn or self.state.is_terminal():
                    continue
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
            raise ValueError("the game is not being played" if self.status != "over" else "the game is over")
        to_act = self.state.current_player()
        if to_act != seat:
            raise ValueError(f"it is {view.shown_names(self.seats)[to_act]}'s turn, not yours")
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
        for viewer in list(range(len(self.seats))) + [view.NO_SEAT]:
            teller = self._tellers.get(viewer)
            if teller is None:
                teller = self._tellers[viewer] = Teller(self.rules, seat=viewer, live=True,
                                                        names=view.shown_names(self.seats))
            lines = self.logs.setdefault(viewer, [])
            for event in events:
                round_ = event.get("round")
                for text in teller.lines([event]):
                    lines.append([round_, text])

    def changed(self) -> None:
        """Something the pages show changed: wake the computer players and every connection."""
        self.version += 1
        self._cache.clear()
        self._wake.set()
        for notify in list(self.listeners):
            notify()

    def snapshot(self, seat: int | None, creator: bool) -> dict:
        """What a connection holding ``seat`` (None: a spectator) sees now, as a message."""
        key = (seat, creator)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        game, state = self.game, self.state
        names = view.shown_names(self.seats)
        message = {"type": "state", "table": self.id, "variant": self.rules.name, "status": self.status,
                   "turn": self.turn, "seat": seat, "creator": creator, "players": len(self.seats),
                   "deck": view.deck_json(self.rules), "end": view.end_json(game),
                   "seats": [{"seat": i, "kind": s.kind, "name": names[i],
                              "connected": self.connected.get(i, 0) > 0} for i, s in enumerate(self.seats)],
                   "roles": view.roles(game), "marked_fields": list(view.SEAT_MARKS), "problem": self.problem, "to_act": None, "view": None,
                   "marks": [[] for _ in self.seats], "legal": []}
        if state is not None:
            if seat is not None:
                shown = view.seat_view(game, state.observation(seat), state.events)
            else:
                shown = view.public_view([view.seat_view(game, state.observation(s), state.events)
                                          for s in range(len(self.seats))])
            message["view"] = shown
            message["marks"] = view.seat_marks(game, shown, len(self.seats))
            to_act = state.current_player()
            if not state.is_terminal():
                message["to_act"] = to_act
                if seat == to_act and self.seats[seat].kind == "person":
                    legal = state.legal_actions()
                    message["legal"] = view.actions_json(game, legal, state.observation(seat))
                    message["forced"] = len(legal) == 1          # taken for the person at once
            if state.is_terminal():
                message["totals"] = list(state.returns())
        self._cache[key] = message
        return message

    def summary(self) -> dict:
        """The table as the lobby lists it."""
        return {"table": self.id, "status": self.status, "variant": self.rules.name,
                "seats": [{"kind": s.kind, "name": s.name} for s in self.seats]}


class Hall:
    """Every table of one server, keyed by id."""

    def __init__(self, settings: Settings, variant_path: str, rules: Rules):
        self.settings = settings
        self.variant_path = variant_path
        self.rules = rules
        self.tables: dict[str, Table] = {}
        self._rules: dict[str, Rules] = {variant_path: rules}
        self._created = 0                # tables this server has created (the next one's seed, with --seed)
        private_folder(settings.data)

    def create(self) -> tuple[Table, str]:
        """A new waiting table of the server's variant: the table and its creator's token."""
        self._forget_finished()
        open_tables = sum(1 for t in self.tables.values() if t.status != "over")
        if open_tables >= self.settings.max_tables:
            raise ValueError(f"this server holds {open_tables} open tables, its limit")
        table_id = secrets.token_urlsafe(6)
        while table_id in self.tables or not TABLE_ID.match(table_id):
            table_id = secrets.token_urlsafe(6)
        token = secrets.token_urlsafe(24)
        seed = None if self.settings.seed is None else self.settings.seed + self._created
        self._created += 1
        table = Table(self, table_id, self.rules, self.variant_path, seed,
                      [], token_hash(token), self.settings.target, self.settings.max_rounds, time.time())
        table.seats = [Seat() for _ in range(table.game.players)]
        self.tables[table_id] = table
        table.save()
        return table, token

    def _forget_finished(self, keep: int = 200) -> None:
        """Let go of finished tables nobody watches, but the ``keep`` latest (their records stay on disk)."""
        finished = [t for t in self.tables.values() if t.status == "over" and not t.listeners]
        for table in finished[:max(0, len(finished) - keep)]:
            table.close()
            del self.tables[table.id]

    def get(self, table_id) -> Table | None:
        if not isinstance(table_id, str) or not TABLE_ID.match(table_id):
            return None
        return self.tables.get(table_id)

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

    def resume(self) -> list[str]:
        """Bring back every unfinished table from the data folder; one line per table that failed."""
        problems = []
        for sidecar in sorted(self.settings.data.glob("*.json")):
            table_id = sidecar.stem
            if not TABLE_ID.match(table_id) or table_id in self.tables:
                continue
            try:
                table = self._load(sidecar)
            except (OSError, ValueError, KeyError, TypeError, ChimeraError) as error:
                problems.append(f"{sidecar}: not resumed: {error}")
                continue
            if table is not None:
                self.tables[table_id] = table
        return problems

    def _load(self, sidecar: Path) -> Table | None:
        if sidecar.stat().st_size > MAX_SIDECAR:
            raise ValueError("the file is too large for a table's sidecar")
        data = json.loads(sidecar.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError("not a table sidecar of this version")
        if data["status"] == "over":
            return None
        rules = self._rules_of(data["variant"])
        seats = [Seat(str(s["kind"]), str(s.get("name") or ""), s.get("token")) for s in data["seats"]]
        seed = None if data.get("seed") is None else int(data["seed"])
        table = Table(self, data["id"], rules, data["variant"], seed, seats, str(data["creator"]),
                      data.get("target"), data.get("max_rounds"), float(data.get("created", 0)))
        if len(seats) != table.game.players or table.id != sidecar.stem:
            raise ValueError("the sidecar does not match its variant")
        if data["status"] == "waiting":
            return table
        try:
            lines = [event for _, event in parse_record(_whole_lines(table.record_path), str(table.record_path))]
        except RecordError as error:
            raise ValueError(str(error)) from None
        try:
            table.resume(lines, data.get("pending") or {})
        except ResumeError as error:
            raise ValueError(f"{table.record_path}: {error}") from None
        return table


def _whole_lines(path: Path) -> bytes:
    """The file's bytes up to its last newline; a line cut short by a crash is dropped from the file."""
    data = path.read_bytes()
    whole = data[:data.rfind(b"\n") + 1]
    if len(whole) != len(data):
        with open(path, "r+b") as f:
            f.truncate(len(whole))
    return whole
