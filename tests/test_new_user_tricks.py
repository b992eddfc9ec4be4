"""Trick-taking games written from their published rules with the documentation alone (Hearts,
Spades, Belote, Oh Hell): what writing them showed, each a behaviour that matters to such a file."""
from __future__ import annotations

from pathlib import Path

import pytest

from chimera_dsl import load_variant
from chimera_dsl.engine import Game
from chimera_dsl.players import make_player, play_game

SIDES = """format: 1
name: two sides, a trick each
players: 4
deck:
  ranks: ["9", "10", J, Q, K, A]
  colours: [clubs, diamonds, hearts, spades]
  cards: [{ranks: "9..A", per_colour: 1}]
deal: {hand: 6}
play: {kind: tricks, teams: [[0, 2], [1, 3]], trump: spades}
scoring:
  points: {each: side_tricks}
end: {target: 20, ties: one_more_round}
"""


def _file(tmp_path: Path, text: str, name: str = "game.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("seed", range(6))
def test_partners_alone_at_the_top_end_the_game_without_one_more_round(tmp_path, seed):
    # the two seats of a side always hold one total: a side alone at the top past the target
    # wins there; only two sides level at the top play one more round
    rules = load_variant(_file(tmp_path, SIDES))
    game = Game(rules)
    state = play_game(game, [make_player("random", seed=seed + s) for s in range(4)], seed)
    ends = [e["totals"] for e in state.events if e["type"] == "round_end"]
    over = [i for i, totals in enumerate(ends) if max(totals) >= 20]
    first = over[0]
    tied = ends[first][0] == ends[first][1]
    assert len(ends) == first + (2 if tied else 1)
    last = ends[-1]
    end = [e for e in state.events if e["type"] == "game_end"][-1]
    if last[0] != last[1]:
        winners = end.get("winners") or [end["winner"]]
        assert set(winners) == ({0, 2} if last[0] > last[1] else {1, 3})
