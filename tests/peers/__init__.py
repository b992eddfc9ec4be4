"""Adapters to three open-source Dou Dizhu engines, for the agreement tests and the benchmark.

Each engine is wrapped by one module (``rlcard_peer``, ``douzero_peer``, ``openspiel_peer``)
that asks the engine itself, through its own code, which plays are legal, and answers in our
notation: ranks ``3 4 5 6 7 8 9 10 J Q K A 2 BJ RJ``, a play as the sorted tuple of its ranks.
Every module offers:

* ``legal_plays(hand, over=None, reading=None) -> set[tuple[str, ...]]``: the legal leads of
  ``hand`` (a list of ranks), or with ``over`` (the cards on the table) its legal answers,
  passing excluded.  ``reading`` picks one of the engine's readings of ``over`` (from
  :func:`readings`); without it, the engine's first reading.
* ``readings(cards) -> list[Reading]``: how the engine reads a set of cards, in the names of
  ``variants/others/doudizhu.yaml`` (combination id and the rank that ranks it).
* ``NAME`` and ``INSTALL``: the engine's name and how to install it.

:func:`load` imports one of them, raising :class:`PeerMissing` (with the install line) when
its engine is not installed.
"""
from __future__ import annotations

import importlib
import importlib.util
from typing import Iterable, NamedTuple

RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "BJ", "RJ")
ORDER = {rank: i for i, rank in enumerate(RANKS)}
DECK = tuple(rank for rank in RANKS[:13] for _ in range(4)) + ("BJ", "RJ")
ENGINES = ("rlcard", "douzero", "openspiel")
INSTALL = {
    "rlcard": "pip install rlcard==1.2.0",
    "douzero": "pip install --no-deps douzero",
    "openspiel": "pip install open_spiel",
}


PACKAGE = {"rlcard": "rlcard", "douzero": "douzero", "openspiel": "pyspiel"}   # what each installs


class Reading(NamedTuple):
    """One reading of a set of cards by an engine: our combination id, the rank that ranks it
    (a chain: its top unit), and the engine's own token for it (passed back to ``legal_plays``)."""

    combination: str
    rank: str
    token: object


class PeerMissing(ImportError):
    """The engine behind an adapter is not installed."""


def sort_ranks(cards: Iterable[str]) -> tuple[str, ...]:
    """Ranks in the deck's order, lowest first: the name of a play as a multiset."""
    return tuple(sorted(cards, key=ORDER.__getitem__))


def load(name: str):
    """The adapter module of engine ``name``; :class:`PeerMissing` when the engine is absent
    (an adapter that fails to import for another reason raises that error)."""
    if name not in ENGINES:
        raise ValueError(f"unknown engine {name!r}; known: {', '.join(ENGINES)}")
    if importlib.util.find_spec(PACKAGE[name]) is None:
        raise PeerMissing(f"{name} is not installed; install it with: {INSTALL[name]}")
    return importlib.import_module(f"{__name__}.{name}_peer")


def openspiel():
    """OpenSpiel's ``pyspiel``, for the trick-taking agreement tests: the calling test module is
    skipped without it, except under ``CI``, where a missing peer fails (ImportError)."""
    import os

    import pytest
    if os.environ.get("CI"):
        import pyspiel  # noqa: F401  (in CI a missing peer fails)
    return pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install -e '.[peers]')")


def play_rounds(game, rounds: int, counts: dict, begin, act, read) -> dict:
    """Play games of ``game`` (seeds 0, 1, ...) beside a peer until ``counts["rounds"]`` reaches
    ``rounds``: the trick-taking agreement tests' loop.  ``begin(state, game_seed)`` makes the
    round's mirror (the peer's state) as each round begins; ``act(state, mirror)`` returns the
    action our seat plays at each decision, once the mirror has compared both engines' legal
    actions; ``read(mirror, line)`` sees each record line as it is written (a mirror compares
    the scores of a ``round_end``).  A ``round_end`` counts a round and closes its mirror."""
    game_seed = 0
    while counts["rounds"] < rounds:
        state = game.new_game(game_seed)
        seen = 0
        mirror = None
        while not state.is_terminal() and counts["rounds"] < rounds:
            if mirror is None:
                mirror = begin(state, game_seed)
            state.apply_action(act(state, mirror))
            events = state.events
            for event in events[seen:]:
                read(mirror, event)
                if event["type"] == "round_end":
                    counts["rounds"] += 1
                    mirror = None
            seen = len(events)
        game_seed += 1
    return counts


def score_rounds(mirror, line: dict) -> None:
    """A :func:`play_rounds` reader: the mirror compares the scores of each ``round_end``."""
    if line["type"] == "round_end":
        mirror.score(line)
