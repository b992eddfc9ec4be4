"""Spades (variants/others/spades.yaml) against OpenSpiel's ``spades``.

OpenSpiel's game is one deal: 52 chance nodes deal the cards (its ``i``-th card to seat
``i % 4``), seat 0 bids first and leads first, and ``returns()`` is each seat's partnership's
score for the deal (its win and mercy bonuses compare one deal's score with 500 and -350, which
no deal reaches).  A partnership's score before the deal, which decides its bag penalty, is set
with ``set_current_scores``.  Ours is a game to 500 whose deal rotates.  So the comparison is
**per round**: each round of our games, as it is dealt, is mirrored in a fresh OpenSpiel game
whose current scores are our sides' totals, and the two are played side by side.

The mapping:

* **seats**: OpenSpiel's seat ``k`` is our seat ``dealer + 1 + k`` (mod 4): both bid and lead
  first from the dealer's left (OpenSpiel's seat 0), and play clockwise; partners sit opposite in
  both (our teams ``[0, 2]``, ``[1, 3]``, OpenSpiel's partnerships ``k & 1``);
* **cards**: our card ``R/colour`` is OpenSpiel's action ``13 * suit + rank``, rank 0 for the 2
  up to 12 for the ace, suits clubs, diamonds, hearts, spades (``2C`` is 0, ``AS`` 51);
* **bids**: our bid of ``b`` tricks is OpenSpiel's action ``52 + b`` (0 is nil);
* **the decisions**: at every bid and card the seat to act and its legal actions must be the
  same in both; an action chosen at random among the legal ones is taken in both;
* **the score**: each seat's points in our round (``round_end.points``) must equal its
  OpenSpiel return: the same scale, both partners scoring the side's points.

Two differences remain, each a fault of OpenSpiel's, predicted here (:data:`KNOWN_FAULTS`) and
counted; any other difference fails the test with the position:

* ``spades_never_broken``: OpenSpiel's state has a flag ``is_spades_broken_`` that nothing ever
  sets, so a leader holding another suit may never lead a spade, even after spades were played
  ("Spades may not be led until either spades have been broken ... or the leader has nothing
  but spades left").  Predicted: a leader's legal cards are ours less its spades exactly when
  a spade was played this round and the leader holds another suit.  The card played is then one
  both allow.
* ``negative_bags``: OpenSpiel counts a side's bags as ``current_score % 10`` in C++, whose
  remainder of a negative score is negative: a side at -127 counts -7 bags, where it carries 3
  (the last digit of -130 + 3).  Predicted: OpenSpiel's return is ours with the bag penalty
  computed from C++'s remainder and division.

Each run plays :data:`ROUNDS` rounds (1,000 by default, a few seconds; the environment
variable ``SPADES_PEER_ROUNDS`` sets another count, e.g. 100000 away from CI).  Run once at
100,000 rounds (2 min 49 s): 400,000 bids (60,610 nil), 5,200,000 cards, every difference one
of the two predicted (448,797 spade leads OpenSpiel refused, 1,602 negative bag counts).  OpenSpiel is in
the ``peers`` extra: without it the test is skipped, unless ``CI`` is set, where a missing peer
fails.
"""
from __future__ import annotations

import math
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
FILE = ROOT / "variants" / "others" / "spades.yaml"
ROUNDS = int(os.environ.get("SPADES_PEER_ROUNDS", "1000"))
SUITS = {"clubs": 0, "diamonds": 1, "hearts": 2, "spades": 3}
BID_BASE = 52
KNOWN_FAULTS = {
    "spades_never_broken": "OpenSpiel never sets is_spades_broken_: a spade is never led while the leader holds "
                           "another suit",
    "negative_bags": "OpenSpiel counts bags as current_score % 10 in C++, negative for a negative score",
}


def cpp_remainder(a: int, b: int) -> int:
    return a - b * math.trunc(a / b)


class Mirror:
    """One of our rounds mirrored in OpenSpiel's game, compared decision by decision."""

    def __init__(self, peer_game, state, to_peer: list[int], counts: dict):
        self.to_peer = to_peer
        self.counts = counts
        self.first = (state.dealer + 1) % 4                     # our seat of OpenSpiel's seat 0
        self.peer = peer_game.new_initial_state()
        hands = [[to_peer[c] for c in numbers(state.held[self.ours(k)])] for k in range(4)]
        for i in range(52):
            self.peer.apply_action(hands[i % 4].pop())
        self.before = list(state.totals)
        self.peer.set_current_scores([state.totals[self.ours(0)], state.totals[self.ours(1)]])
        self.spades = sum(1 << c for c, (_, colour) in enumerate(state.game.rules.deck.cards) if colour == "spades")
        self.where = f"round {state.round}"

    def ours(self, k: int) -> int:
        return (self.first + k) % 4

    def fail(self, what: str) -> None:
        pytest.fail(f"{self.where}: {what}\n{self.peer}")

    def step(self, state, rng: random.Random):
        seat = state.current_player()
        peer_seat = self.peer.current_player()
        if self.ours(peer_seat) != seat:
            self.fail(f"our seat {seat} acts, OpenSpiel's seat {peer_seat} (our {self.ours(peer_seat)})")
        legal = state.legal_actions()
        ours = {self.of(a) for a in legal}
        theirs = set(self.peer.legal_actions())
        if ours != theirs:
            held = state.held[seat]
            table = state.table
            broken = bool(state.played_by and any(taken & self.spades for taken in table.taken)) or \
                any(self.spades >> c & 1 for _, c in table.trick)
            leading = not table.trick
            predicted = {self.of(a) for a in legal if not (self.spades >> (a.mask.bit_length() - 1) & 1)}
            if state.phase == "play" and leading and broken and held & ~self.spades and theirs == predicted:
                self.counts["spades_never_broken"] += 1
                legal = [a for a in legal if self.of(a) in theirs]
            else:
                self.fail(f"seat {seat}'s legal actions differ ({state.phase}): only ours {sorted(ours - theirs)}, "
                          f"only OpenSpiel's {sorted(theirs - ours)}")
        action = rng.choice(legal)
        self.peer.apply_action(self.of(action))
        return action

    def of(self, action) -> int:
        if action.kind == "bid":
            return BID_BASE + action.bid
        return self.to_peer[action.mask.bit_length() - 1]

    def score(self, end: dict) -> None:
        if not self.peer.is_terminal():
            self.fail("our round ended before OpenSpiel's")
        returns = self.peer.returns()
        for k in range(4):
            seat = self.ours(k)
            ours = end["points"][seat]
            if ours == returns[k]:
                continue
            # the predicted fault: the bag penalty from C++'s remainder and division
            parts = dict(end["parts"][seat])
            bags = parts.get("bags", 0)
            total = self.before[seat]
            cpp = -100 * math.trunc((cpp_remainder(total, 10) + bags) / 10)
            predicted = ours - parts.get("bag_penalty", 0) + cpp
            if total < 0 and returns[k] == predicted:
                self.counts["negative_bags"] += 1
                continue
            self.fail(f"seat {seat}'s points differ: ours {ours}, OpenSpiel's {returns[k]} (total before {total})")


def compare(rounds: int, seed: int = 2024, path: Path = FILE) -> dict:
    """Play ``rounds`` rounds of the file beside OpenSpiel's spades; returns counts of what was
    compared and of each known fault met."""
    rules = load_variant(path)
    peer_game = pyspiel.load_game("spades")
    to_peer = [13 * SUITS[colour] + rank for rank, colour in rules.deck.cards]
    game = Game(rules)
    rng = random.Random(f"{seed}:spades")
    counts = {"rounds": 0, "bids": 0, "cards": 0, "nil": 0, **{k: 0 for k in KNOWN_FAULTS}}
    def act(state, mirror):
        phase = state.phase
        if phase not in ("bidding", "play"):
            pytest.fail(f"an unexpected phase {phase}")
        action = mirror.step(state, rng)
        counts["nil"] += phase == "bidding" and action.bid == 0
        counts["bids" if phase == "bidding" else "cards"] += 1
        return action

    return play_rounds(game, rounds, counts, lambda state, _: Mirror(peer_game, state, to_peer, counts), act,
                       score_rounds)


def test_rounds_agree_with_openspiel():
    counts = compare(ROUNDS)
    print(f"\nspades.yaml: {counts}")
    assert counts["rounds"] == ROUNDS and counts["cards"] == 52 * ROUNDS
    assert counts["nil"] > 0
    # each known fault was met, and stays a small share of the decisions compared
    assert counts["spades_never_broken"] > 0 and counts["negative_bags"] > 0
    assert counts["spades_never_broken"] < counts["cards"] / 4


def test_openspiel_never_lets_a_broken_spade_lead():
    """The fault ``spades_never_broken`` shown on one deal (our dealer seat 3, so our seats are
    OpenSpiel's): seat 0 leads the 2 of clubs, seat 2, with no club, trumps with the 2 of spades
    and takes the trick: spades are broken.  Seat 2 now holds the 3 of spades and hearts: our
    engine lets it lead the 3 of spades, OpenSpiel does not."""
    from chimera_dsl.engine import Deal
    clubs, diamonds, hearts, spades = (list(range(13 * k, 13 * k + 13)) for k in range(4))
    hands = [[clubs[0]] + diamonds[:12],
             clubs[1:7] + [diamonds[12]] + hearts[11:13] + spades[2:6],
             spades[:2] + hearts[:11],
             clubs[7:13] + spades[6:13]]
    assert sorted(c for h in hands for c in h) == list(range(52))
    peer = pyspiel.load_game("spades").new_initial_state()
    order = [list(h) for h in hands]
    for i in range(52):
        peer.apply_action(order[i % 4].pop())
    rules = load_variant(FILE)
    to_peer = [13 * SUITS[colour] + rank for rank, colour in rules.deck.cards]
    of_peer = {p: c for c, p in enumerate(to_peer)}
    deal = Deal(tuple(sum(1 << of_peer[p] for p in h) for h in hands), 0, None)
    state = Game(rules).new_game(0, deals=iter([deal]), first_dealer=3)
    for seat in range(4):
        state.apply_action(state.legal_actions()[1])              # each bids 1
        peer.apply_action(BID_BASE + 1)
    for peer_card in (clubs[0], clubs[1], spades[0], clubs[7]):
        card = of_peer[peer_card]
        state.apply_action(next(a for a in state.legal_actions() if a.mask == 1 << card))
        peer.apply_action(peer_card)
    assert state.current_player() == peer.current_player() == 2  # the 2 of spades took the trick
    ours = {to_peer[a.mask.bit_length() - 1] for a in state.legal_actions()}
    theirs = set(peer.legal_actions())
    assert ours - theirs == {spades[1]}, "OpenSpiel now lets a broken spade lead: the fault is fixed"
    assert theirs == set(hearts[:11])


def test_a_wrong_rule_is_caught(tmp_path):
    """The comparison fails on a file that plays a rule OpenSpiel does not: spades led at any time."""
    import yaml
    path = tmp_path / "spades-any-lead.yaml"
    path.write_text(yaml.safe_dump({"extends": str(FILE), "play": {"must": None}}))
    with pytest.raises(pytest.fail.Exception, match="legal actions differ"):
        compare(100, path=path)
