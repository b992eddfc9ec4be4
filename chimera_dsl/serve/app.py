"""The web table's server: a Starlette application (pages, a small JSON API, one websocket per page).

Routes: ``/`` (the lobby) and ``/t/ID`` (a table) serve the same page; ``/static/...`` its
script and style; ``GET /api/tables`` lists the open tables, ``POST /api/tables`` opens one
(answering its id and the creator's token); ``/ws/ID`` is a table's websocket, whose
messages docs/web-table.md describes.

Nothing of a table is sent on a websocket before the page has said ``hello`` with the
tokens it holds: the first state a connection receives is already its own seat's view
(or a spectator's).  Every message from a page is bounded (:data:`MAX_MESSAGE` bytes,
:data:`MAX_DEPTH` levels of nesting, both checked before it is decoded), rate-limited
(:class:`Bucket`), checked, and refused with a reason when it is wrong; the table goes on
unharmed.

:class:`Guard` wraps the whole application: a websocket or a POST from another site's page
(its ``Origin``) or under a host name the server does not answer to (its ``Host``: another
site's name pointed at this machine) is refused with the reason, and every HTTP answer
carries the security headers (:data:`SECURITY_HEADERS`: a content security policy without
inline script, no framing, no type sniffing, no referrer).
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from pathlib import Path
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import IllegalActionError
from ..tell.articles import title_of
from ..tell.catalog import languages
from ..tell.record import half_character, json_depth
from . import view
from .tables import Hall, Refused, Table
from .words import Said, page_words, pick_language, words_for_page

log = logging.getLogger("chimera.serve")

STATIC = Path(__file__).parent / "static"
CLIENT_COOKIE = "chimera_client"
"""The cookie naming a browser (a random id the server signed): whose waiting tables are whose."""
MAX_MESSAGE = 4096
"""The most bytes a page's message may hold."""
MAX_DEPTH = 8
"""The most levels of nesting (objects and lists) a page's message may hold."""
MAX_FRAME = 1024 * 1024
"""The largest websocket message the server reads at all (uvicorn's ``ws_max_size``): a message
between :data:`MAX_MESSAGE` and this is refused with a reason, a larger one closes the
connection (code 1009)."""
HELLO_TIMEOUT = 30.0
MAX_OUTBOX = 256
MAX_REFUSED = 200
"""Refused messages in a row after which a connection is closed (1008, policy violation)."""


SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     b"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
"""Sent with every HTTP answer: scripts and styles from this server's files only (no inline
script), no framing by another site, no guessing of content types, no referrer."""

UNSAFE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


def _host_name(host: str) -> str:
    """``host`` (a Host header: ``name``, ``name:port``, ``[v6]:port``) without its port, lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class Guard:
    """The ASGI middleware that checks where a request comes from and adds the security headers.

    ``hosts``: the host names the server answers to (None: any; a server listening on a
    loopback address answers to ``localhost`` and its loopback addresses only, so another
    site's name pointed at 127.0.0.1 gets nothing).  ``origins``: the origins, besides the
    server's own, whose pages may open a websocket or POST (``--allow-origin``).  A request
    without an ``Origin`` header (not sent by a browser's page) is let through: the seat and
    creator tokens protect what it may do.
    """

    def __init__(self, app, hosts=None, origins=()):
        self.app = app
        self.hosts = None if hosts is None else {h.lower() for h in hosts}
        self.origins = {o.rstrip("/").lower() for o in origins}
        if self.hosts is not None:
            self.hosts |= {_host_name(urlsplit(o).netloc) for o in self.origins}

    def refusal(self, scope) -> str | None:
        """Why this request is refused, or None."""
        host = _header(scope, b"host")
        if self.hosts is not None and (host is None or _host_name(host) not in self.hosts):
            return f"this server does not answer to the host name {host!r}"
        if scope["type"] == "http" and scope.get("method") not in UNSAFE_METHODS:
            return None
        origin = _header(scope, b"origin")
        if origin is None:
            return None
        origin = origin.rstrip("/").lower()
        if origin in self.origins:
            return None
        scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
        if host is not None and origin == f"{scheme}://{host.lower()}":
            return None
        return (f"a page of {origin} may not use this server (only its own pages"
                f"{' and those of ' + ', '.join(sorted(self.origins)) if self.origins else ''}; "
                f"chimera serve --allow-origin lets another in)")

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return

        async def send_secured(message):
            if message["type"] in ("http.response.start", "websocket.http.response.start"):
                message = dict(message)
                names = {k.lower() for k, _ in message.get("headers", ())}
                message["headers"] = list(message.get("headers", ())) + \
                    [(k, v) for k, v in SECURITY_HEADERS if k not in names]
            await send(message)

        reason = self.refusal(scope)
        if reason is None:
            await self.app(scope, receive, send_secured)
            return
        body = json.dumps({"error": reason}).encode("utf-8")
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        if scope["type"] == "http":
            await send_secured({"type": "http.response.start", "status": 403, "headers": headers})
            await send_secured({"type": "http.response.body", "body": body})
            return
        await receive()                                         # websocket.connect
        if "websocket.http.response" in scope.get("extensions", {}):
            await send_secured({"type": "websocket.http.response.start", "status": 403, "headers": headers})
            await send_secured({"type": "websocket.http.response.body", "body": body})
        else:
            await send({"type": "websocket.close", "code": 1008, "reason": reason[:120]})


def nesting_depth(text: str, limit: int) -> int:
    """How deeply ``text`` (JSON) nests objects and lists, counted up to ``limit + 1`` (brackets
    inside strings are not counted): measured before decoding, so no message makes the decoder
    recurse deeply (the game records' own count, :func:`~chimera_dsl.tell.record.json_depth`)."""
    return json_depth(text, limit)


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

    def __init__(self, socket: WebSocket, table: Table, lang: str = "en"):
        self.socket = socket
        self.table = table
        self.lang = lang                     # the page's language: its log, labels and the reasons it is told
        self.seat: int | None = None
        self.digest: str | None = None       # the held seat's token hash: the seat is lost if it changes
        self.creator = False
        self.log_sent = 0
        self.outbox: deque[dict] = deque()
        self.dirty = False
        self.wake = asyncio.Event()
        self.bucket = Bucket()
        self.refused = 0

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

    def refuse(self, reason, refused=None) -> None:
        """Tell the page its message was refused, and why (a :class:`~.words.Said` in its language)."""
        self.refused += 1
        text = reason.said(self.lang) if isinstance(reason, Said) else str(reason)
        self.reply({"type": "error", "reason": text, "refused": refused})

    def state_message(self) -> dict:
        table = self.table
        message = dict(table.snapshot(self.seat, self.creator, self.lang))
        viewer = view.NO_SEAT if self.seat is None else self.seat
        lines = table.log_of(viewer, self.lang)
        kinds = table.kinds.get(viewer, [])
        message["log"] = {"from": self.log_sent, "lines": lines[self.log_sent:], "kinds": kinds[self.log_sent:len(lines)]}
        self.log_sent = len(lines)
        return message

    def hold(self, seat: int | None) -> None:
        """This connection now holds ``seat`` (None: it watches)."""
        self.seat = seat
        self.digest = None if seat is None else self.table.seats[seat].token

    async def sender(self) -> None:
        """Send queued replies, then the latest state, whenever woken."""
        while True:
            await self.wake.wait()
            self.wake.clear()
            while self.outbox:
                await self.socket.send_text(json.dumps(self.outbox.popleft(), ensure_ascii=False))
            if self.table.status in ("expired", "broken"):      # closed, or not brought back: why
                await self.socket.send_text(json.dumps({"type": "error", "reason": self.table.failed}))
                await self.socket.close(code=4404)
                return
            if self.dirty:
                self.dirty = False
                if self.seat is not None and self.table.seats[self.seat].token != self.digest:
                    seat, self.seat, self.digest, self.log_sent = self.seat, None, None, 0
                    await self.socket.send_text(json.dumps(
                        {"type": "removed", "table": self.table.id, "seat": seat,
                         "reason": page_words(self.lang, "removed")}))
                await self.socket.send_text(json.dumps(self.state_message(), ensure_ascii=False))


def create_app(hall: Hall, resume: bool = True) -> Guard:
    """The application serving ``hall``'s tables (``resume``: bring back unfinished tables at
    startup), behind its :class:`Guard` (``hall.settings``: the host names and origins let in)."""

    @contextlib.asynccontextmanager
    async def lifespan(app):
        resuming = None
        if resume:
            for problem in hall.load():
                hall.report(problem)
            resuming = asyncio.get_running_loop().create_task(hall.resume_tables())
        sweeping = asyncio.get_running_loop().create_task(hall.sweep_forever())
        try:
            yield
        finally:
            sweeping.cancel()
            if resuming is not None:
                resuming.cancel()
            hall.close()

    async def page(request: Request):
        answer = FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})
        if hall.client_of(request.cookies.get(CLIENT_COOKIE)) is None:      # a browser new to this server
            answer.set_cookie(CLIENT_COOKIE, hall.new_client(), max_age=365 * 24 * 3600, httponly=True,
                              samesite="strict", secure=request.url.scheme == "https")
        return answer

    async def words(request: Request):
        lang = pick_language(request.query_params.get("lang"), request.headers.get("accept-language"),
                             hall.settings.lang)
        return JSONResponse({"lang": lang, "languages": list(languages()), "words": words_for_page(lang)})

    async def list_tables(request: Request):
        tables = [t.summary() for t in hall.tables.values() if t.status in ("waiting", "playing") and t.listed]
        lang = pick_language(request.query_params.get("lang"), request.headers.get("accept-language"),
                             hall.settings.lang)
        variant = title_of(hall.rules, lang) if lang != "en" else hall.rules.name
        return JSONResponse({"variant": variant, "tables": tables[:100]})

    async def create_table(request: Request):
        address = request.client.host if request.client else ""
        client = hall.client_of(request.cookies.get(CLIENT_COOKIE))
        owner = f"cookie:{client}" if client else f"address:{address}"
        lang = pick_language(request.query_params.get("lang"), request.headers.get("accept-language"),
                             hall.settings.lang)
        try:
            table, token = hall.create(owner, address)
        except Refused as error:
            return JSONResponse({"error": error.said(lang)}, status_code=429)
        except ValueError as error:
            return JSONResponse({"error": error.said(lang) if isinstance(error, Said) else str(error)}, status_code=503)
        return JSONResponse({"table": table.id, "creator": token, "url": f"/t/{table.id}"}, status_code=201)

    async def socket(websocket: WebSocket):
        await websocket.accept()
        lang = pick_language(websocket.query_params.get("lang"), websocket.headers.get("accept-language"),
                             hall.settings.lang)
        address = websocket.client.host if websocket.client else ""
        limit = hall.settings.max_sockets
        if hall.sockets.get(address, 0) >= limit:     # one address may not hold the server's connections
            await websocket.send_text(json.dumps({"type": "error", "reason": page_words(lang, "too_many_sockets",
                                                                                      n=limit)}, ensure_ascii=False))
            await websocket.close(code=4429)
            return
        table = hall.get(websocket.path_params.get("table_id"))
        if table is None:
            await websocket.send_text(json.dumps({"type": "error", "reason": page_words(lang, "no_such_table")},
                                                 ensure_ascii=False))
            await websocket.close(code=4404)
            return
        hall.sockets[address] = hall.sockets.get(address, 0) + 1
        try:
            await serve_connection(websocket, table, lang)
        finally:
            left = hall.sockets[address] - 1
            if left:
                hall.sockets[address] = left
            else:
                del hall.sockets[address]

    routes = [
        Route("/", page),
        Route("/t/{table_id}", page),
        Route("/api/words", words, methods=["GET"]),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        WebSocketRoute("/ws/{table_id}", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hall = hall
    return Guard(app, hall.settings.hosts, hall.settings.allow_origins)


async def _receive(conn: Connection) -> dict | None:
    """The next message of the page, decoded, or None when refused (the reason is queued);
    raises :class:`WebSocketDisconnect` when the page has gone."""
    message = await conn.socket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    if not conn.bucket.take():                 # every refused message is answered: a page never waits in vain
        conn.refuse(f"too many messages: at most {conn.bucket.rate:g} a second; this one was refused")
        return None
    text = message.get("text")
    if text is None:
        conn.refuse("binary messages are not understood: send JSON text")
        return None
    size = len(text) if len(text) > MAX_MESSAGE else len(text.encode("utf-8"))
    if size > MAX_MESSAGE:
        conn.refuse(f"message too large ({size} bytes or more; at most {MAX_MESSAGE})")
        return None
    if nesting_depth(text, MAX_DEPTH) > MAX_DEPTH:
        conn.refuse(f"message nested too deeply (at most {MAX_DEPTH} levels of objects and lists)")
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        conn.refuse("not JSON: every message is one JSON object")
        return None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        conn.refuse('every message is a JSON object with a "type"')
        return None
    if "\\u" in text and half_character(data):
        conn.refuse("not text: a \\u escape names half a character (a lone surrogate)")
        return None
    return data


async def serve_connection(websocket: WebSocket, table: Table, lang: str = "en") -> None:
    """Talk with one page until it leaves (``lang``: the page's language)."""
    conn = Connection(websocket, table, lang)
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
        if not table.ready.is_set():
            conn.reply({"type": "resuming", "table": table.id, "reason": page_words(conn.lang, "resuming")})
            table.wanted += 1
            table.hall._resume_wake.set()
            try:
                await table.ready.wait()
            finally:
                table.wanted -= 1
        if table.status in ("expired", "broken"):     # the sender says why and closes
            conn.notify()
            await sender
            return
        conn.hold(table.seat_of(data.get("token")))
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
    except Exception as error:           # a bug must not print a page of traceback per message
        log.error("table %s: a connection stopped: %s: %s", table.id, type(error).__name__, error)
        with contextlib.suppress(Exception):
            await websocket.close(code=1011)
    finally:
        sender.cancel()
        _detach(conn)


def _attach(conn: Connection) -> None:
    table = conn.table
    table.listeners.add(conn.notify)
    if conn.seat is not None:
        table.connected[conn.seat] = table.connected.get(conn.seat, 0) + 1
        table.person_back(conn.seat)
        table.changed()
    else:
        conn.notify()


def _detach(conn: Connection) -> None:
    table = conn.table
    table.listeners.discard(conn.notify)
    seat = conn.seat
    if seat is not None and table.connected.get(seat) and table.seats[seat].token == conn.digest:
        table.connected[seat] -= 1
        if not table.connected[seat]:
            table.person_left(seat)
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
            token = table.sit(data.get("seat"), data.get("name"), data.get("invite"), conn.creator)
            _detach(conn)
            conn.hold(table.seat_of(token))
            conn.log_sent = 0
            conn.reply({"type": "seated", "table": table.id, "seat": conn.seat, "token": token})
            _attach(conn)
        elif kind == "start":
            if not conn.creator:
                raise Said("creator_starts")
            table.start()
        elif kind in ("invite", "remove", "list"):
            if not conn.creator:
                raise ValueError(f"only the table's creator may {kind} "
                                 f"{'people' if kind != 'list' else 'the table in the lobby'}")
            if kind == "invite":
                code = table.invite(data.get("seat"))
                conn.reply({"type": "invited", "table": table.id, "seat": data["seat"], "code": code,
                            "url": f"/t/{table.id}#invite={code}"})
            elif kind == "remove":
                table.remove(data.get("seat"))
            else:
                table.set_listed(data.get("listed"))
        elif kind == "hello":
            raise ValueError("hello was already said on this connection")
        else:
            raise ValueError(f"unknown message type {kind!r} (known: act, sit, start, list, invite, remove)")
    except (ValueError, IllegalActionError) as error:
        conn.refuse(error if isinstance(error, Said) else str(error), kind)
        return False
    return True
