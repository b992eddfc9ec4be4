"""The web table (``chimera serve``): people play a variant together in their browsers.

An optional extra (``pip install 'chimera_dsl[web]'``: Starlette and uvicorn); the core never
imports this package.  :mod:`.view` turns engine objects into JSON and back, :mod:`.tables`
runs the tables (seats, computer players, records on disk), :mod:`.resume` brings a table
back from its record, :mod:`.app` is the web application.
"""
from __future__ import annotations

import socket
from pathlib import Path

from ..errors import ChimeraError


def serve(variant: str, host: str = "127.0.0.1", port: int = 8000, players: str | None = None,
          data: str = "chimera-tables", delay: float = 0.8, target: int | None = None,
          max_rounds: int | None = None, seed: int | None = None, allow_origins=(),
          max_waiting: int = 3, max_sockets: int = 60, expire_after: float = 600.0, replace_after: float = 60.0,
          announce=print, lang: str = "en") -> None:
    """Load ``variant``, bring back the unfinished tables of ``data`` and serve until stopped.

    ``allow_origins``: origins (``https://example.org``) whose pages may use the server besides
    its own; a server listening on a loopback address answers only to ``localhost`` and
    loopback addresses as host names, and to those origins' host names.

    With ``seed``, the tables this server creates are dealt from ``seed``, ``seed + 1``, ... in
    the order they are created (the same deals at every playtest); without it, every deal is
    drawn from the system's secure random source (there is no seed to learn).

    ``lang``: the language of a page that asks for none its browser's languages have a catalog
    for (a page asks with ``?lang=LANG``), and of the tables' log as the server keeps it.
    """
    import uvicorn

    from .. import load_variant
    from ..engine import Game
    from ..players import make_player, split_players
    from .app import MAX_FRAME, create_app
    from .tables import Hall, Settings

    rules = load_variant(variant)
    rules.path = str(Path(variant).resolve())      # the records name it so: they replay from any folder
    game = Game(rules, target=target, max_rounds=max_rounds)          # a bad target fails here
    for seat, name in enumerate(split_players(players, game.players)):
        make_player(name, seat)                                        # an unknown player fails here
    origins = tuple(check_origin(o) for o in allow_origins)
    _check_address(host, port)
    settings = Settings(Path(data), players=players, delay=delay, target=target, max_rounds=max_rounds, seed=seed,
                        hosts=LOOPBACK_NAMES if _loopback(host) else None, allow_origins=origins,
                        max_waiting=max_waiting, max_sockets=max_sockets, expire_after=expire_after,
                        replace_after=replace_after, lang=lang)
    hall = Hall(settings, rules.path, rules)
    app = create_app(hall)
    shown = f"[{host}]" if ":" in host else host
    announce(f"chimera serve: {rules.name}, tables kept in {settings.data.resolve()}")
    announce(f"open http://{shown}:{port}/ (Ctrl-C stops; unfinished tables resume at the next start)")
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=MAX_FRAME,
                    ws_ping_interval=20.0, ws_ping_timeout=20.0)
    except SystemExit as stop:          # uvicorn gives up (it said why): an error of this command
        if stop.code:
            raise ChimeraError(f"the server on {host}:{port} stopped (see the message above)") from None


LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


def _loopback(host: str) -> bool:
    """Does ``host`` (the address listened on) reach this machine only?"""
    import ipaddress
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_origin(origin: str) -> str:
    """``origin`` as ``--allow-origin`` takes it (``scheme://host[:port]``), or a ChimeraError saying why not."""
    from urllib.parse import urlsplit
    parts = urlsplit(origin.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path not in ("", "/") \
            or parts.query or parts.fragment or "@" in parts.netloc:
        raise ChimeraError(f"--allow-origin {origin!r}: an origin is scheme://host[:port], "
                           "e.g. https://cards.example.org (no path)")
    return f"{parts.scheme}://{parts.netloc}".lower()


def _check_address(host: str, port: int) -> None:
    """Refuse an address this machine cannot listen on before anything is announced."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family = infos[0][0]
        with socket.create_server((host, port), family=family):
            pass
    except OSError as error:
        raise ChimeraError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
