"""Computer players behind one small protocol, and the loop that plays a game with them.

A player receives what its seat may see (an :class:`~chimera_dsl.engine.Observation`) and
the legal actions, and returns one of those actions.  It never sees the ``State``: a bot
cannot cheat by accident, and a remote player would get exactly what a bot gets.

    players = [make_player("heuristic", seed=1), make_player("random", seed=2), ...]
    state = play_game(Game(rules), players, seed=7)
"""
from __future__ import annotations

from typing import Callable, Sequence

from ..engine import Game, State
from .base import Player, PlayerError, heuristic_available, heuristic_player

KNOWN_PLAYERS = ("heuristic", "random", "search")


def make_player(spec: str, seed: int, search_budget=None) -> Player:
    """The player named ``spec`` (``random``, ``heuristic`` or ``search``), seeded with ``seed``.

    ``search_budget`` is what a ``search`` player may spend on each decision: a number of
    playouts (``200``) or a time (``"200ms"``); None: its default.  Other players ignore it.
    """
    name = str(spec).strip().lower()
    if name == "random":
        from .random_player import RandomPlayer
        return RandomPlayer(seed)
    if name == "heuristic":
        return heuristic_player(seed)
    if name == "search":
        from .search import SearchPlayer
        return SearchPlayer(seed, budget=search_budget)
    raise PlayerError(f"unknown player {spec!r}; known players: {', '.join(KNOWN_PLAYERS)}")


def default_player_spec() -> str:
    """``heuristic`` when that player is installed, else ``random``."""
    return "heuristic" if heuristic_available() else "random"


def parse_players(spec: str | None, seats: int, seed: int, search_budget=None) -> list[Player]:
    """Players from a specification such as ``heuristic,random,search`` (one name: every seat).

    Seat ``i`` gets the seed ``seed * 1000 + i``, so a game's players are fixed by its seed;
    ``search_budget`` goes to every ``search`` player (see :func:`make_player`).
    """
    return [make_player(name, seed * 1000 + seat, search_budget)
            for seat, name in enumerate(split_players(spec, seats))]


def split_players(spec: str | None, seats: int) -> list[str]:
    """The ``seats`` player names of a specification (one name: every seat; none: the default)."""
    if spec is None or not str(spec).strip():
        spec = default_player_spec()
    names = [part.strip() for part in str(spec).split(",")]
    if any(not part for part in names):
        raise PlayerError(f"empty player name in {spec!r}; write e.g. heuristic,random,random")
    if len(names) == 1:
        names = names * seats
    if len(names) != seats:
        raise PlayerError(f"{len(names)} players given ({spec!r}) but the variant has {seats} seats")
    return names


def play_game(game: Game, players: Sequence[Player], seed, deals=None,
              watch: Callable[[State], None] | None = None) -> State:
    """Play a whole game with ``players`` (one per seat) and return the final state.

    ``watch(state)``, when given, is called before every decision and once at the end: a
    table that tells the game as it goes (``chimera play``) reads the new events there.
    """
    if len(players) != game.players:
        raise PlayerError(f"{len(players)} players for a game of {game.players} seats")
    state = game.new_game(seed, deals=deals, player_names=[p.name for p in players])
    current = state.current_player
    observe = state.observation
    reads = [getattr(p, "reads_observation", True) for p in players]
    while not state.is_terminal():
        seat = current()
        legal = state.legal_actions()
        if watch is not None:
            watch(state)
        state.apply_action(players[seat].act(observe(seat) if reads[seat] else None, legal))
    if watch is not None:
        watch(state)
    return state


__all__ = ["Player", "PlayerError", "make_player", "parse_players", "split_players", "play_game", "heuristic_available",
           "default_player_spec", "KNOWN_PLAYERS"]
