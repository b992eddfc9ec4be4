"""Bring an unfinished table back from its game record, after the server stopped.

The record (``state.events`` as written, docs/game-record.md) holds the deals and every line the
decisions wrote, not the decisions themselves.  :func:`replay_record` plays the recorded
deals through a fresh :class:`~chimera_dsl.engine.State` (``deals=``; after the last recorded
deal the seed deals, as it would have) and, at each decision, finds the legal action whose
lines are the record's next lines: it tries the actions :func:`~.view.candidates` lets
through on a clone of the state.  A decision that writes no line at once (a first gift of an
exchange, declining an out-of-turn play) is found by looking one decision further.  The
search is bounded; a record the rules cannot produce raises :class:`ResumeError`.
"""
from __future__ import annotations

import json
from typing import NamedTuple, Sequence

from ..engine import SECRET_SEED, Action, Game, State
from ..errors import ChimeraError
from .view import action_from_json, candidates, deal_of

MAX_TRIALS = 200_000
"""The most trial decisions one resumption may try (bounds the work a record can cause)."""


class ResumeError(ChimeraError):
    """The record cannot be replayed up to its end under the rules."""


class RecordedDeals:
    """The deals of a record, in order; after them, the deals the seed gives (as the engine would).

    ``position`` counts the deals handed out; trials on clones put it back.  ``state`` is the
    state being driven, whose dealer the seed's next deal needs.
    """

    def __init__(self, game: Game, seed, deals: Sequence[tuple]):
        self.game = game
        self.seed = seed
        self.deals = list(deals)
        self.position = 0
        self.state: State | None = None

    def __iter__(self) -> "RecordedDeals":
        return self

    def __next__(self) -> tuple:
        self.position += 1
        if self.position <= len(self.deals):
            return self.deals[self.position - 1]
        if self.state is None:
            raise StopIteration
        dealer = self.state.observation(0).dealer
        return self.game.deal(self.seed, self.position, dealer)


def _normal(event: dict) -> dict:
    """An event as it reads back from JSON (tuples become lists)."""
    return json.loads(json.dumps(event, ensure_ascii=False))


class _Search:
    def __init__(self, game: Game, lines: list[dict], deals: RecordedDeals):
        self.game = game
        self.lines = lines
        self.deals = deals
        self.window = 2 * game.players + 4
        self.trials = 0

    def find(self, state: State, pos: int, depth: int) -> list[Action] | None:
        """The shortest list of decisions (at most ``depth + 1``) whose lines are ``lines[pos:...]``."""
        upcoming = self.lines[pos:pos + self.window]
        quiet: list[tuple[Action, State]] = []
        before = len(state.events)
        obs = state.observation(state.current_player())
        for action in candidates(self.game, state.legal_actions(), upcoming, obs):
            self.trials += 1
            if self.trials > MAX_TRIALS:
                raise ResumeError(f"line {pos + 1}: too many trials to find the decision that wrote it")
            trial = state.clone()
            mark, driven = self.deals.position, self.deals.state
            self.deals.state = trial
            try:
                trial.apply_action(action)
            finally:
                self.deals.position, self.deals.state = mark, driven
            produced = [_normal(e) for e in trial.events[before:]]
            if not produced:
                quiet.append((action, trial))
            elif produced == self.lines[pos:pos + len(produced)]:
                return [action]
        if depth > 0:
            for action, trial in quiet:
                rest = self.find(trial, pos, depth - 1)
                if rest is not None:
                    return [action] + rest
        return None


class Replayed(NamedTuple):
    """The state a record leads to, how many decisions it took, and the pending ones taken again."""

    state: State
    decisions: int
    pending: list[dict]


def replay_record(game: Game, lines: Sequence[dict], pending: Sequence[dict] = ()) -> Replayed:
    """The state a table had reached when its record ``lines`` (decoded events) were written.

    ``pending``: decisions the table took after its last line that wrote no line yet (stored as
    :func:`~.view.choice_json`), taken again at the end.  Raises :class:`ResumeError`.
    """
    lines = [_normal(e) for e in lines]
    if not lines or lines[0].get("type") != "game_start":
        raise ResumeError("the record does not begin with game_start")
    start = lines[0]
    deal_lines = [e for e in lines if e.get("type") == "deal"]
    if not deal_lines:
        raise ResumeError("the record holds no deal")
    # a record without a seed was dealt from the secure source: its later deals are too
    seed = start.get("seed")
    if seed is None:
        seed = SECRET_SEED
    try:
        deals = RecordedDeals(game, seed, [deal_of(game, e) for e in deal_lines])
    except (ChimeraError, KeyError, TypeError, IndexError) as error:
        raise ResumeError(f"a deal line cannot be read: {error}") from None
    names = start.get("player_names")
    state = game.new_game(seed, deals=deals, player_names=names,
                          first_dealer=deal_lines[0].get("dealer"))
    deals.state = state
    written = _normal(state.events[0])
    if {**lines[0], "variant_path": None} == {**written, "variant_path": None}:
        lines[0] = written          # an older record named its variant by a relative path
    search = _Search(game, lines, deals)
    pos = 0
    decisions = 0
    while True:
        produced = [_normal(e) for e in state.events[pos:]]
        if produced != lines[pos:pos + len(produced)]:
            bad = next(i for i, (a, b) in enumerate(zip(produced, lines[pos:])) if a != b) + pos \
                if any(a != b for a, b in zip(produced, lines[pos:])) else len(lines)
            raise ResumeError(f"line {bad + 1} is not what the rules write there")
        pos = len(state.events)
        if pos >= len(lines):
            break
        if state.is_terminal():
            raise ResumeError(f"line {pos + 1} comes after the end of the game")
        path = search.find(state, pos, depth=game.players)
        if path is None:
            raise ResumeError(f"line {pos + 1} ({lines[pos].get('type')}): no legal decision writes it")
        for action in path:
            state.apply_action(action)
        decisions += len(path)
    taken: list[dict] = []
    for data in pending:
        if state.is_terminal() or not isinstance(data, dict):
            break
        chosen = action_from_json(game, state.legal_actions(), data, state.observation(state.current_player()))
        if chosen is None:
            break
        state.apply_action(chosen)
        if len(state.events) != len(lines):          # not a decision that writes no line
            raise ResumeError("a pending decision of the table writes lines the record lacks")
        taken.append(data)
    return Replayed(state, decisions + len(taken), taken)
