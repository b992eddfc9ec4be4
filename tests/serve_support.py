"""Helpers of the web table's tests: skipping without the web extra or a browser (failing under
CI=true instead), a real ``chimera serve`` in a subprocess on 127.0.0.1, and a raw websocket client."""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
ROOT = Path(__file__).resolve().parent.parent
VARIANT = str(ROOT / "variants" / "chimera.yaml")


def require(module: str, why: str):
    """Import ``module``, or skip the test (fail under CI=true) saying how to get it."""
    try:
        return __import__(module, fromlist=["_"])
    except ImportError:
        message = f"{module} is missing ({why})"
        if IN_CI:
            pytest.fail(f"CI=true but {message}: the test command must install it")
        pytest.skip(message)


def require_web() -> None:
    """The web extra and the test clients: starlette, uvicorn, httpx, websockets."""
    for module in ("starlette", "uvicorn", "httpx", "websockets"):
        require(module, "pip install -e '.[test,web]'")


def chromium() -> str:
    """The path of Debian's chromium, or skip (fail under CI=true)."""
    path = next((shutil.which(name) for name in ("chromium", "chromium-browser") if shutil.which(name)), None)
    if path is None:
        if IN_CI:
            pytest.fail("CI=true but no chromium found: .ci/run must install it")
        pytest.skip("chromium is not installed (apt-get install -y chromium); under CI it must be")
    return path


BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``chimera serve`` in a subprocess on 127.0.0.1 (stopped, or killed, by the test)."""

    def __init__(self, data: Path, *extra: str, variant: str = VARIANT, port: int | None = None,
                 cwd: Path | None = None):
        self.data = data
        self.cwd = cwd
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.args = [sys.executable, "-m", "chimera_dsl", "serve", variant, "--host", "127.0.0.1",
                     "--port", str(self.port), "--data", str(data), *extra]
        self.process: subprocess.Popen | None = None
        self.lines: list[tuple[float, str]] = []        # (time.monotonic(), line) of its output
        self.answered: float | None = None              # when it first answered

    def _read(self, stream) -> None:
        for line in stream:
            self.lines.append((time.monotonic(), line))
        stream.close()

    def output(self) -> str:
        return "".join(line for _, line in self.lines)

    def start(self) -> "Server":
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
        self.process = subprocess.Popen(self.args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                        cwd=self.cwd, env=env)
        self.reader = threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True)
        self.reader.start()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.reader.join(5)
                raise AssertionError(f"the server stopped: {self.output()}")
            try:
                with urllib.request.urlopen(self.base + "/api/tables", timeout=1) as answer:
                    if answer.status == 200:
                        self.answered = time.monotonic()
                        return self
            except OSError:
                time.sleep(0.1)
        raise AssertionError("the server did not answer within 30 s")

    def create_table(self) -> dict:
        request = urllib.request.Request(self.base + "/api/tables", method="POST")
        with urllib.request.urlopen(request, timeout=5) as answer:
            return json.loads(answer.read())

    def tables(self) -> dict:
        with urllib.request.urlopen(self.base + "/api/tables", timeout=5) as answer:
            return json.loads(answer.read())

    def kill(self) -> None:
        """SIGKILL: the server gets no chance to save anything."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> str:
        """Stop the server as Ctrl-C would; its output."""
        out = ""
        if self.process is not None:
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGINT)
                try:
                    self.process.wait(10)
                except subprocess.TimeoutExpired:
                    self.process.kill()
                    self.process.wait(10)
            self.reader.join(10)
            out = self.output()
        return out


@contextlib.contextmanager
def running(data: Path, *extra: str, **kwargs):
    """A started :class:`Server`, stopped at the end."""
    server = Server(data, *extra, **kwargs).start()
    try:
        yield server
    finally:
        server.stop()


class Client:
    """A raw websocket client (the ``websockets`` library), reading the table's messages."""

    def __init__(self, url: str):
        from websockets.sync.client import connect
        self.socket = connect(url, open_timeout=10, max_size=2 ** 22).__enter__()
        self.state: dict | None = None
        self.log: list = []

    def send(self, message) -> None:
        self.socket.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    def receive(self, timeout: float = 10.0) -> dict:
        message = json.loads(self.socket.recv(timeout=timeout))
        if message.get("type") == "state":
            if message["log"]["from"] == 0:
                self.log = []
            self.log.extend(message["log"]["lines"])
            self.state = message
        return message

    def until(self, test, timeout: float = 20.0) -> dict:
        """Read messages until ``test(message)`` holds; that message."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("the awaited message did not come")
            message = self.receive(left)
            if test(message):
                return message

    def error(self, timeout: float = 10.0) -> dict:
        return self.until(lambda m: m["type"] == "error", timeout)

    def close(self) -> None:
        self.socket.close()


OPEN: list = []
"""The TestClient websockets still open: :func:`close_open` closes them (the app waits for them)."""


def close_open() -> None:
    """Close every TestClient websocket a test left open."""
    while OPEN:
        OPEN.pop().close()


class Seat:
    """A TestClient websocket at a table, reading the messages it gets."""

    def __init__(self, client, table: str):
        self.context = client.websocket_connect(f"/ws/{table}")
        self.ws = self.context.__enter__()
        self.state: dict | None = None
        self.closed = False
        OPEN.append(self)

    def hello(self, token=None, creator=None) -> dict:
        self.ws.send_text(json.dumps({"type": "hello", "token": token, "creator": creator}))
        welcome = self.ws.receive_json()
        assert welcome["type"] == "welcome"
        self.state = self.until("state")
        return welcome

    def send(self, message) -> None:
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    def until(self, kind: str, test=lambda m: True) -> dict:
        while True:
            message = self.ws.receive_json()
            if message["type"] == "state":
                self.state = message
            if message["type"] == kind and test(message):
                return message

    def act(self, state: dict, move: int) -> dict:
        """Answer ``state``'s decision with legal move ``move`` and return the next state. A move
        the server's rate limit refuses (a test plays faster than a person) is sent again a
        moment later; any other refusal fails the test."""
        while True:
            self.send({"type": "act", "turn": state["turn"], "move": move})
            while True:
                message = self.ws.receive_json()
                if message["type"] == "state":
                    self.state = message
                    if message["turn"] > state["turn"] or message["status"] == "over":
                        return message
                elif message["type"] == "error":
                    break
            if "too many messages" not in message["reason"]:
                raise AssertionError(f"move refused: {message['reason']}")
            time.sleep(0.2)

    def sit(self, seat: int, name: str = "") -> str:
        self.send({"type": "sit", "seat": seat, "name": name})
        token = self.until("seated")["token"]
        self.until("state", lambda m: m["seat"] == seat)
        return token

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.context.__exit__(None, None, None)


def replayed_alike(rules, snap, decisions: int, max_rounds: int = 2):
    """The state the web table's resume rebuilds from ``snap``'s record, checked to write the same
    lines back, to count ``decisions`` decisions and to wait on the same seat."""
    from chimera_dsl.engine import Game
    from chimera_dsl.serve.resume import replay_record
    lines = json.loads(json.dumps(snap.events))
    got = replay_record(Game(rules, max_rounds=max_rounds), lines)
    assert json.loads(json.dumps(got.state.events)) == lines
    assert got.decisions == decisions
    assert got.state.current_player() == snap.current_player()
    return got.state


def sit_and_start(page, base: str, name: str = "Ann") -> None:
    """In ``page``: open a table from the lobby at ``base``, take seat 0 as ``name`` and start
    the game (the computer players take the other seats)."""
    page.goto(base + "/")
    page.click("#create")
    page.wait_for_url("**/t/*")
    page.fill("#name", name)
    page.click("button.sit[data-seat='0']")
    page.wait_for_selector(f"#seat-list strong:has-text('{name} (you)')")
    page.click("#start")


def wait_true(page, expression: str, timeout: float = 10.0) -> None:
    """Wait until the JavaScript ``expression`` is true in ``page`` (polled with ``page.evaluate``,
    which the page's content security policy allows, unlike ``wait_for_function``'s eval)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout:g} s: {expression}")
        page.wait_for_timeout(50)


def csp_watch(page, errors: list) -> None:
    """Add to ``errors`` every message of ``page``'s console saying its content security policy
    blocked something (the page must run under it untouched)."""
    page.on("console", lambda message: errors.append(message.text)
            if "Content Security Policy" in message.text else None)
