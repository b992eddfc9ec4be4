"""The web table's server: a Starlette application (pages, a small JSON API, one websocket per page).

Routes: ``/`` (the lobby) and ``/t/ID`` (a table) serve the same page; ``/static/...`` its
script and style; ``GET /api/tables`` lists the open tables, ``POST /api/tables`` opens one
(answering its id and the creator's token); ``/ws/ID`` is a table's websocket, whose
messages docs/web-table.md describes.

Nothing of a table is sent on a websocket before the page has said ``hello`` with the
tokens it holds: the first state a connection receives is already its own seat's view
(or a spectator's).  Every message from a page is bounded (:data:`MAX_MESSAGE` bytes),
rate-limited (:class:`Bucket`), checked, and refused with a reason when it is wrong; the
table goes on unharmed.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections import deque
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import IllegalActionError
from . import view
from .tables import Hall, Table

STATIC = Path(__file__).parent / "static"
MAX_MESSAGE = 4096
"""The most bytes a page's message may hold."""
HELLO_TIMEOUT = 30.0
MAX_OUTBOX = 256
MAX_REFUSED = 200
"""Refused messages in a row after which a connection is closed (1008, policy violation)."""


class Bucket:
    """A token bucket: ``rate`` messages a second on average, bursts of ``capacity``."""

    def __init__(self, rate: float = 10.0, capacity: float = 20.0):
        self.rate = rate
        self.capacity = capacity
        self.tokens = capacity
        self.stamp = time.monotonic()

    def take(self) -> bool:
        """May one more message pass now?"""
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Connection:
    """One page's websocket at one table: the seat it holds, what it was last sent."""

    def __init__(self, socket: WebSocket, table: Table):
        self.socket = socket
        self.table = table
        self.seat: int | None = None
        self.creator = False
        self.log_sent = 0
        self.outbox: deque[dict] = deque()
        self.dirty = False
        self.wake = asyncio.Event()
        self.bucket = Bucket()
        self.refused = 0
        self.warned = 0.0

    def notify(self) -> None:
        """The table changed: send the new state when the socket is free."""
        self.dirty = True
        self.wake.set()

    def reply(self, message: dict) -> None:
        """Queue a message for this page alone."""
        if len(self.outbox) >= MAX_OUTBOX:
            raise ConnectionError("the page does not read its messages")
        self.outbox.append(message)
        self.wake.set()

    def refuse(self, reason: str, refused=None) -> None:
        """Tell the page its message was refused, and why."""
        self.refused += 1
        self.reply({"type": "error", "reason": reason, "refused": refused})

    def state_message(self) -> dict:
        table = self.table
        message = dict(table.snapshot(self.seat, self.creator))
        lines = table.logs.get(view.NO_SEAT if self.seat is None else self.seat, [])
        message["log"] = {"from": self.log_sent, "lines": lines[self.log_sent:]}
        self.log_sent = len(lines)
        return message

    async def sender(self) -> None:
        """Send queued replies, then the latest state, whenever woken."""
        while True:
            await self.wake.wait()
            self.wake.clear()
            while self.outbox:
                await self.socket.send_text(json.dumps(self.outbox.popleft(), ensure_ascii=False))
            if self.dirty:
                self.dirty = False
                await self.socket.send_text(json.dumps(self.state_message(), ensure_ascii=False))


def create_app(hall: Hall, resume: bool = True) -> Starlette:
    """The application serving ``hall``'s tables (``resume``: bring back unfinished tables at startup)."""

    @contextlib.asynccontextmanager
    async def lifespan(app):
        if resume:
            for problem in hall.resume():
                print(f"chimera serve: {problem}", flush=True)
        try:
            yield
        finally:
            hall.close()

    async def page(request: Request):
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    async def list_tables(request: Request):
        tables = [t.summary() for t in hall.tables.values() if t.status != "over"]
        return JSONResponse({"variant": hall.rules.name, "tables": tables[:100]})

    async def create_table(request: Request):
        try:
            table, token = hall.create()
        except ValueError as error:
            return JSONResponse({"error": str(error)}, status_code=503)
        return JSONResponse({"table": table.id, "creator": token, "url": f"/t/{table.id}"}, status_code=201)

    async def socket(websocket: WebSocket):
        await websocket.accept()
        table = hall.get(websocket.path_params.get("table_id"))
        if table is None:
            await websocket.send_text(json.dumps({"type": "error", "reason": "there is no such table"}))
            await websocket.close(code=4404)
            return
        await serve_connection(websocket, table)

    routes = [
        Route("/", page),
        Route("/t/{table_id}", page),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        WebSocketRoute("/ws/{table_id}", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hall = hall
    return app


async def _receive(conn: Connection) -> dict | None:
    """The next message of the page, decoded, or None when refused (the reason is queued);
    raises :class:`WebSocketDisconnect` when the page has gone."""
    message = await conn.socket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    if not conn.bucket.take():
        now = time.monotonic()
        if now - conn.warned >= 1.0:           # say it once a second, not once a message
            conn.warned = now
            conn.refuse(f"too many messages: at most {conn.bucket.rate:g} a second; this one was refused")
        else:
            conn.refused += 1
        return None
    text = message.get("text")
    if text is None:
        conn.refuse("binary messages are not understood: send JSON text")
        return None
    size = len(text.encode("utf-8"))
    if size > MAX_MESSAGE:
        conn.refuse(f"message too large ({size} bytes; at most {MAX_MESSAGE})")
        return None
    try:
        data = json.loads(text)
    except ValueError:
        conn.refuse("not JSON: every message is one JSON object")
        return None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        conn.refuse('every message is a JSON object with a "type"')
        return None
    return data


async def serve_connection(websocket: WebSocket, table: Table) -> None:
    """Talk with one page until it leaves."""
    conn = Connection(websocket, table)
    sender = asyncio.get_running_loop().create_task(conn.sender())
    try:
        # nothing of the table goes out before the page says which tokens it holds
        while True:
            try:
                data = await asyncio.wait_for(_receive(conn), HELLO_TIMEOUT)
            except asyncio.TimeoutError:
                await websocket.close(code=1008)
                return
            if data is None:
                continue
            if data["type"] == "hello":
                break
            conn.refuse('say "hello" first (with your seat\'s token, if you hold one)', data["type"])
        conn.seat = table.seat_of(data.get("token"))
        conn.creator = table.is_creator(data.get("creator"))
        conn.reply({"type": "welcome", "table": table.id, "seat": conn.seat, "creator": conn.creator})
        _attach(conn)
        while conn.refused < MAX_REFUSED:
            data = await _receive(conn)
            if data is None:
                continue
            if handle(conn, data):
                conn.refused = 0
        await websocket.close(code=1008)
    except (WebSocketDisconnect, ConnectionError):
        pass
    finally:
        sender.cancel()
        _detach(conn)


def _attach(conn: Connection) -> None:
    table = conn.table
    table.listeners.add(conn.notify)
    if conn.seat is not None:
        table.connected[conn.seat] = table.connected.get(conn.seat, 0) + 1
        table.changed()
    else:
        conn.notify()


def _detach(conn: Connection) -> None:
    table = conn.table
    table.listeners.discard(conn.notify)
    if conn.seat is not None and table.connected.get(conn.seat):
        table.connected[conn.seat] -= 1
        table.changed()


def handle(conn: Connection, data: dict) -> bool:
    """Carry out one message of a page (True), or refuse it with the reason (False)."""
    kind = data["type"]
    table = conn.table
    try:
        if kind == "act":
            if conn.seat is None:
                raise ValueError("you hold no seat at this table: spectators cannot act")
            if "seat" in data and data["seat"] != conn.seat:
                raise ValueError(f"you hold seat {conn.seat}: you may not act for seat {data['seat']!r}")
            table.act(conn.seat, data)
        elif kind == "sit":
            if conn.seat is not None:
                raise ValueError(f"you already hold seat {conn.seat}")
            token = table.sit(data.get("seat"), data.get("name"))
            _detach(conn)
            conn.seat = table.seat_of(token)
            conn.log_sent = 0
            conn.reply({"type": "seated", "table": table.id, "seat": conn.seat, "token": token})
            _attach(conn)
        elif kind == "start":
            if not conn.creator:
                raise ValueError("only the table's creator may start the game (it also starts when every seat is taken)")
            table.start()
        elif kind == "hello":
            raise ValueError("hello was already said on this connection")
        else:
            raise ValueError(f"unknown message type {kind!r} (known: act, sit, start)")
    except (ValueError, IllegalActionError) as error:
        conn.refuse(str(error), kind)
        return False
    return True
