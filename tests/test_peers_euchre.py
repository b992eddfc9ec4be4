"""Euchre (variants/others/euchre.yaml and its house files) against OpenSpiel's ``euchre``.

OpenSpiel's game is one hand: a chance node picks the dealer, 20 chance nodes deal the cards (its
``i``-th card to seat ``(dealer + i) % 4``, the dealer first), a 21st turns the upcard; then the
bidding, the dealer's discard, going alone and the play; ``returns()`` scores the hand.  Ours is a
game to 10 whose deal rotates.  So the comparison is **per round**: each round of our games, as
it is dealt, is mirrored in a fresh OpenSpiel game, and the two are played side by side.

The mapping:

* **seats**: the same numbers, the same dealer (OpenSpiel's first chance outcome is our dealer);
  both bid and lead from the dealer's left and play clockwise, partners opposite;
* **cards**: our card ``R/colour`` is OpenSpiel's ``4 * rank + suit``, ranks 9, 10, J, Q, K, A
  (0 to 5), suits clubs, diamonds, hearts, spades (0 to 3): ``9C`` is 0, ``AS`` 23;
* **the decisions**: a pass while making trump is 24, ordering up or naming colour ``c`` is
  ``25 + c``, going alone 29, playing with the partner (our PASS then) 30, a discard or a play
  the card's number; at every decision the seat to act and its legal actions must be the same in
  both, and an action chosen at random among the legal ones is taken in both;
* **the score**: OpenSpiel scores a hand zero-sum: the makers get the points of the published
  table (1, 2, 4) and the defenders their negation; when the makers are euchred the makers get
  -2 (-4 against a lone defender) and the defenders 2 (4).  Our round gives the published points
  to the side that scores them, nothing to the other: OpenSpiel's return of a seat is our points
  of its side less those of the other side (``points[seat] - points[seat + 1]``).  A hand
  everybody passes twice is void in both (0).

The files and OpenSpiel's parameters: ``euchre.yaml`` is ``stick_the_dealer=false``, the house
file ``euchre-stick-the-dealer.yaml`` OpenSpiel's default (``stick_the_dealer=true``), the house
file ``euchre-lone-defender.yaml`` ``allow_lone_defender=true, stick_the_dealer=false``.

One difference remains, a reading of OpenSpiel's against the published rules, predicted here
(:data:`KNOWN_DIFFERENCES`) and counted; any other difference fails the test with the position:

* ``dealer_keeps_the_upcard``: OpenSpiel does not let the dealer discard the card it picked up
  (``card != upcard_``), where the rules quoted in euchre.yaml let it discard any card ("possibly,
  though rarely, the one just picked up").  Predicted: at the discard, OpenSpiel's legal cards are
  ours less the turned card.  The card discarded is then one both allow.  (A file with
  ``discard_turned: false`` agrees with OpenSpiel there exactly: tested below.)

Once, away from CI (``EUCHRE_PEER_ROUNDS=100000``): 100,000 hands of each of the three files, every
decision and every return equal but the predicted discard (euchre.yaml: 1,749,710 cards played,
27 hands passed out, 93,875 discards; the stick-the-dealer file: no hand passed out; the
lone-defender file: 149,819 defenders asked, 1,374,225 cards played).

Each run plays :data:`ROUNDS` hands per file (1,000 by default, a few seconds; the environment
variable ``EUCHRE_PEER_ROUNDS`` sets another count, e.g. 100000 away from CI).  OpenSpiel is in
the ``peers`` extra: without it the test is skipped, unless ``CI`` is set, where a missing peer
fails.
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
FILE = ROOT / "variants" / "others" / "euchre.yaml"
STICK = ROOT / "variants" / "house_rules" / "euchre-stick-the-dealer.yaml"
LONE = ROOT / "variants" / "house_rules" / "euchre-lone-defender.yaml"
ROUNDS = int(os.environ.get("EUCHRE_PEER_ROUNDS", "1000"))
RANKS = ["9", "10", "J", "Q", "K", "A"]
SUITS = {"clubs": 0, "diamonds": 1, "hearts": 2, "spades": 3}
PASS_ACTION, TRUMP_BASE, ALONE_ACTION, PARTNER_ACTION = 24, 25, 29, 30
KNOWN_DIFFERENCES = {
    "dealer_keeps_the_upcard": "OpenSpiel does not let the dealer discard the card it picked up",
}
PARAMETERS = {FILE: {"stick_the_dealer": False}, STICK: {"stick_the_dealer": True},
              LONE: {"allow_lone_defender": True, "stick_the_dealer": False}}


class Mirror:
    """One of our rounds mirrored in OpenSpiel's game, compared decision by decision."""

    def __init__(self, peer_game, state, to_peer: list[int], counts: dict, pass_bias: float = 0.0):
        self.to_peer = to_peer
        self.pass_bias = pass_bias
        self.counts = counts
        self.peer = peer_game.new_initial_state()
        self.peer.apply_action(state.dealer)
        hands = [[to_peer[c] for c in numbers(state.held[s])] for s in range(4)]
        for i in range(20):
            self.peer.apply_action(hands[(state.dealer + i) % 4].pop())
        self.upcard = to_peer[state.face_up_card]
        self.peer.apply_action(self.upcard)
        self.where = f"round {state.round}"

    def fail(self, what: str) -> None:
        pytest.fail(f"{self.where}: {what}\n{self.peer}")

    def step(self, state, rng: random.Random):
        seat = state.current_player()
        if self.peer.current_player() != seat:
            self.fail(f"our seat {seat} acts, OpenSpiel's seat {self.peer.current_player()}")
        legal = state.legal_actions()
        stage = state.table.making[0] if state.phase == "making" else "play"
        ours = {self.of(a, stage) for a in legal}
        theirs = set(self.peer.legal_actions())
        if ours != theirs:
            if stage == "discard" and ours - theirs == {self.upcard} and theirs < ours:
                self.counts["dealer_keeps_the_upcard"] += 1
                legal = [a for a in legal if self.of(a, stage) in theirs]
            else:
                self.fail(f"seat {seat}'s legal actions differ ({stage}): only ours {sorted(ours - theirs)}, "
                          f"only OpenSpiel's {sorted(theirs - ours)}")
        passes = [a for a in legal if a.kind == "pass"]
        if stage == "bid" and passes and rng.random() < self.pass_bias:
            action = passes[0]                  # (a bias towards passing reaches the void hands)
        else:
            action = rng.choice(legal)
        self.peer.apply_action(self.of(action, stage))
        self.counts["decisions: " + stage] += 1
        self.counts["went alone"] += action.kind == "alone"
        return action

    def of(self, action, stage: str) -> int:
        if action.kind == "pass":
            return PASS_ACTION if stage == "bid" else PARTNER_ACTION
        if action.kind == "trump":
            return TRUMP_BASE + action.cards
        if action.kind == "alone":
            return ALONE_ACTION
        return self.to_peer[action.mask.bit_length() - 1]

    def score(self, end: dict) -> None:
        if not self.peer.is_terminal():
            self.fail("our round ended before OpenSpiel's")
        returns = self.peer.returns()
        points = end["points"]
        for seat in range(4):
            ours = points[seat] - points[(seat + 1) % 4]
            if ours != returns[seat]:
                self.fail(f"seat {seat}'s points differ: ours {points}, OpenSpiel's returns {returns}")
        self.counts["void"] += bool(end.get("void"))


def compare(rounds: int, path: Path = FILE, seed: int = 2024, parameters: dict | None = None,
            pass_bias: float = 0.0) -> dict:
    """Play ``rounds`` hands of the file beside OpenSpiel's euchre; returns counts of what was
    compared and of each known difference met."""
    rules = load_variant(path)
    peer_game = pyspiel.load_game("euchre", parameters if parameters is not None else PARAMETERS[path])
    to_peer = [4 * RANKS.index(rules.deck.ranks[rank]) + SUITS[colour] for rank, colour in rules.deck.cards]
    game = Game(rules)
    rng = random.Random(f"{seed}:euchre:{path.name}")
    counts = {"rounds": 0, "went alone": 0, "void": 0, **{k: 0 for k in KNOWN_DIFFERENCES},
              **{"decisions: " + stage: 0 for stage in ("bid", "discard", "alone", "defend", "play")}}
    return play_rounds(game, rounds, counts, lambda state, _: Mirror(peer_game, state, to_peer, counts, pass_bias),
                       lambda state, mirror: mirror.step(state, rng), score_rounds)


def test_hands_agree_with_openspiel():
    counts = compare(ROUNDS)
    print(f"\neuchre.yaml: {counts}")
    assert counts["rounds"] == ROUNDS
    assert counts["went alone"] > 0 and counts["decisions: discard"] > 0
    assert counts["dealer_keeps_the_upcard"] == counts["decisions: discard"] > 0


def test_hands_passed_out_agree_with_openspiel():
    """With the seats passing nine times in ten, hands are passed out (void: 0 to all in both)."""
    counts = compare(max(ROUNDS // 5, 100), pass_bias=0.9)
    assert counts["void"] > 0


def test_stick_the_dealer_agrees_with_openspiel():
    counts = compare(ROUNDS, STICK)
    print(f"\neuchre-stick-the-dealer.yaml: {counts}")
    assert counts["rounds"] == ROUNDS and counts["void"] == 0
    assert compare(max(ROUNDS // 5, 100), STICK, pass_bias=0.9)["void"] == 0


def test_lone_defender_agrees_with_openspiel():
    counts = compare(ROUNDS, LONE)
    print(f"\neuchre-lone-defender.yaml: {counts}")
    assert counts["rounds"] == ROUNDS and counts["decisions: defend"] > 0


def test_keeping_the_upcard_agrees_exactly(tmp_path):
    """With ``discard_turned: false`` the predicted difference disappears: OpenSpiel's reading."""
    import yaml
    path = tmp_path / "euchre-keep-upcard.yaml"
    path.write_text(yaml.safe_dump({"extends": str(FILE), "phases": {"making": {"discard_turned": False}}}))
    counts = compare(200, path, parameters={"stick_the_dealer": False})
    assert counts["decisions: discard"] > 0 and counts["dealer_keeps_the_upcard"] == 0


def test_a_wrong_rule_is_caught(tmp_path):
    """The comparison fails on a file whose left bower is not a trump: the bowers matter."""
    import yaml
    path = tmp_path / "euchre-no-bower.yaml"
    path.write_text(yaml.safe_dump({"extends": str(FILE),
                                    "play": {"trump_extra": None, "trump_order": ["J", "A", "K", "Q", "10", "9"]}}))
    with pytest.raises(pytest.fail.Exception, match="differ"):
        compare(300, path, parameters={"stick_the_dealer": False})
