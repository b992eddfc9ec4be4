"""Skat (variants/house_rules/skat-openspiel.yaml, the Order's skat.yaml with OpenSpiel's
simplifications) against OpenSpiel's ``skat``.

OpenSpiel's game is one hand: 32 chance nodes deal the cards in the Order's packets (its
``i``-th card to player 0 for ``i`` in 0-2, 11-14 and 23-25, to player 1 for 3-5, 15-18 and
26-28, to player 2 for 6-8, 19-22 and 29-31, to the skat for 9 and 10); then each player in turn
from player 0 names a game or passes, the first to name one takes the skat and lays two cards
away, one at a time; player 0 leads; ``returns()`` scores the hand.  Ours is a game of 36 deals
whose deal rotates.  So the comparison is **per round**: each round of our games, as it is dealt,
is mirrored in a fresh OpenSpiel game, and the two are played side by side.

The mapping:

* **seats**: OpenSpiel's player ``i`` is our seat ``(dealer + 1 + i) % 3``: player 0 is
  forehand, the dealer's left, who speaks first and leads to the first trick in both;
* **cards**: our card ``R/colour`` is OpenSpiel's ``8 * suit + rank``, suits diamonds, hearts,
  spades, clubs (0 to 3), ranks 7, 8, 9, Q, K, 10, A, J (0 to 7): ``7/diamonds`` is 0,
  ``J/clubs`` 31; the skat's two cards are the ones our deal leaves in the nest;
* **the decisions**: a pass is 32, naming the ``i``-th game of the file (diamonds, hearts,
  spades, clubs, grand, null: OpenSpiel's order) ``33 + i``; a card laid away or played, the
  card's number.  At every decision the seat to act and its legal actions must be the same in
  both, and an action chosen at random among the legal ones is taken in both;
* **the score**: OpenSpiel's returns are fractions of 120 and 240 card points (the soloist
  ``(points - 60) / 120``, each opponent ``(their points - 60) / 240``; a null game 90 or 30
  points to each side); our points are those returns times 240.  A hand every player passes
  ends with 0 to all in both (our round is void).

No difference remains: every decision and every return agree.  Once, away from CI
(``SKAT_PEER_ROUNDS=100000``, with ``--timeout 0``): 100,000 hands, every decision and every
return equal (116,213 bids, 199,402 cards laid away, 2,651,550 cards played; 299 hands passed
out, 15,491 null games stopped at the soloist's first trick; each of the six games named about
16,600 times).  Each run plays :data:`ROUNDS`
hands (1,000 by default, a few seconds; the environment variable ``SKAT_PEER_ROUNDS`` sets
another count).  OpenSpiel is in the ``peers`` extra: without it the test is skipped, unless
``CI`` is set, where a missing peer fails.
"""
from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from chimera_dsl import load_variant
from chimera_dsl.cards import bit_numbers as numbers
from chimera_dsl.engine import Game
from peers import openspiel, play_rounds, score_rounds  # noqa: E402  (the helpers next to this file)

pyspiel = openspiel()       # skipped without OpenSpiel; under CI, missing, it fails

ROOT = Path(__file__).resolve().parents[1]
FILE = ROOT / "variants" / "house_rules" / "skat-openspiel.yaml"
ROUNDS = int(os.environ.get("SKAT_PEER_ROUNDS", "1000"))
RANKS = ["7", "8", "9", "Q", "K", "10", "A", "J"]
SUITS = {"diamonds": 0, "hearts": 1, "spades": 2, "clubs": 3}
PASS_ACTION, GAME_BASE = 32, 33
PACKETS = [0, 0, 0, 1, 1, 1, 2, 2, 2, None, None, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 0, 0, 0, 1, 1, 1, 2, 2, 2]
"""Who OpenSpiel deals its ``i``-th card to (None: the skat)."""


class Mirror:
    """One of our rounds mirrored in OpenSpiel's game, compared decision by decision."""

    def __init__(self, peer_game, state, to_peer: list[int], counts: dict, pass_bias: float):
        self.to_peer = to_peer
        self.counts = counts
        self.pass_bias = pass_bias
        self.seat_of = [(state.dealer + 1 + i) % 3 for i in range(3)]     # OpenSpiel's player -> our seat
        self.peer = peer_game.new_initial_state()
        hands = [[to_peer[c] for c in numbers(state.held[self.seat_of[p]])] for p in range(3)]
        skat = [to_peer[c] for c in numbers(state.nest_cards)]
        for packet in PACKETS:
            self.peer.apply_action((skat if packet is None else hands[packet]).pop())
        self.where = f"round {state.round}"

    def fail(self, what: str) -> None:
        pytest.fail(f"{self.where}: {what}\n{self.peer}")

    def step(self, state, rng: random.Random):
        seat = state.current_player()
        if self.seat_of[self.peer.current_player()] != seat:
            self.fail(f"our seat {seat} acts, OpenSpiel's player {self.peer.current_player()} "
                      f"(our seat {self.seat_of[self.peer.current_player()]})")
        legal = state.legal_actions()
        stage = state.table.solo.stage if state.phase == "bidding" else "play"
        ours = {self.of(a) for a in legal}
        theirs = set(self.peer.legal_actions())
        if ours != theirs:
            self.fail(f"seat {seat}'s legal actions differ ({stage}): only ours {sorted(ours - theirs)}, "
                      f"only OpenSpiel's {sorted(theirs - ours)}")
        if stage == "bid" and rng.random() < self.pass_bias:
            action = legal[0]                   # (a bias towards passing reaches the hands passed out)
        else:
            action = rng.choice(legal)
        self.peer.apply_action(self.of(action))
        self.counts["decisions: " + stage] += 1
        if action.kind == "game":
            self.counts["game: " + state._round.phases[state._phase_index].games[action.cards].name] += 1
        return action

    def of(self, action) -> int:
        if action.kind == "pass":
            return PASS_ACTION
        if action.kind == "game":
            return GAME_BASE + action.cards
        return self.to_peer[action.mask.bit_length() - 1]

    def score(self, end: dict) -> None:
        if not self.peer.is_terminal():
            self.fail("our round ended before OpenSpiel's")
        returns = self.peer.returns()
        points = end["points"]
        for player in range(3):
            if abs(points[self.seat_of[player]] - returns[player] * 240) > 1e-9:
                self.fail(f"player {player}'s points differ: ours {points} (by seat), OpenSpiel's returns {returns}")
        self.counts["void"] += bool(end.get("void"))
        self.counts["null lost early"] += not end.get("void") and sum(end["tricks"]) < 10


def compare(rounds: int, path: Path = FILE, seed: int = 2024, pass_bias: float = 0.0) -> dict:
    """Play ``rounds`` hands of the file beside OpenSpiel's skat; returns counts of what was compared."""
    rules = load_variant(path)
    peer_game = pyspiel.load_game("skat")
    to_peer = [8 * SUITS[colour] + RANKS.index(rules.deck.ranks[rank]) for rank, colour in rules.deck.cards]
    game = Game(rules)
    rng = random.Random(f"{seed}:skat:{path.name}")
    counts = {"rounds": 0, "void": 0, "null lost early": 0,
              **{"decisions: " + stage: 0 for stage in ("bid", "discard", "play")},
              **{"game: " + g: 0 for g in ("diamonds", "hearts", "spades", "clubs", "grand", "null")}}
    return play_rounds(game, rounds, counts, lambda state, _: Mirror(peer_game, state, to_peer, counts, pass_bias),
                       lambda state, mirror: mirror.step(state, rng), score_rounds)


def test_hands_agree_with_openspiel():
    counts = compare(ROUNDS)
    print(f"\nskat-openspiel.yaml: {counts}")
    assert counts["rounds"] == ROUNDS
    assert counts["decisions: discard"] == 2 * (ROUNDS - counts["void"])
    assert all(counts["game: " + g] > 0 for g in ("diamonds", "hearts", "spades", "clubs", "grand", "null"))
    assert counts["null lost early"] > 0          # a null game stops at the soloist's first trick in both


def test_hands_passed_out_agree_with_openspiel():
    """With the players passing nine times in ten, hands are passed out (0 to all in both)."""
    counts = compare(max(ROUNDS // 5, 100), pass_bias=0.9)
    assert counts["void"] > 0


def test_a_wrong_rule_is_caught(tmp_path):
    """The comparison fails on a file whose jacks rank in the wrong order (diamonds highest):
    the order of the top trumps matters."""
    import yaml
    path = tmp_path / "skat-wrong-jacks.yaml"
    jacks = ["J/diamonds", "J/hearts", "J/spades", "J/clubs"]
    path.write_text(yaml.safe_dump({
        "extends": str(FILE),
        "phases": {"bidding": {"kind": "solo", "games": {
            g: {"top_trumps": jacks} for g in ("diamonds", "hearts", "spades", "clubs", "grand")}}}}))
    with pytest.raises(pytest.fail.Exception, match="differ|acts"):
        compare(300, path)
