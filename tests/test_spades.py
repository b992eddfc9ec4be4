"""Spades (variants/others/spades.yaml): each published rule by its example.

The bidding and the lead are scripted on injected deals; the scoring's examples are read
through the file's compiled scoring, given each seat's bid, tricks and total.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from chimera_dsl import load_variant
from chimera_dsl.engine import Deal, Game
from chimera_dsl.engine.phases.bids import bid_of

ROOT = Path(__file__).resolve().parents[1]
FILE = ROOT / "variants" / "others" / "spades.yaml"


@pytest.fixture(scope="module")
def spades():
    return load_variant(FILE)


def suits(rules):
    """Per colour, its card numbers from the 2 to the ace."""
    out = {}
    for c, (rank, colour) in enumerate(rules.deck.cards):
        out.setdefault(colour, []).append((rank, c))
    return {colour: [c for _, c in sorted(cards)] for colour, cards in out.items()}


def started(rules, hands: list[list[int]], dealer: int = 3):
    deal = Deal(tuple(sum(1 << c for c in h) for h in hands), 0, None)
    return Game(rules).new_game(0, deals=iter([deal] * 60), first_dealer=dealer)


def a_deal(rules) -> list[list[int]]:
    """Seat 0: the 2 of clubs and twelve diamonds; seat 1: six clubs, a diamond, two hearts,
    four spades; seat 2: the 2 and 3 of spades and eleven hearts; seat 3: six clubs, seven spades."""
    s = suits(rules)
    clubs, diamonds, hearts, spade = s["clubs"], s["diamonds"], s["hearts"], s["spades"]
    return [[clubs[0]] + diamonds[:12], clubs[1:7] + [diamonds[12]] + hearts[11:13] + spade[2:6],
            spade[:2] + hearts[:11], clubs[7:13] + spade[6:13]]


def test_every_seat_bids_once_from_the_dealers_left_and_a_side_bids_at_most_13(spades):
    """"The player to the left of the dealer starts the bidding"; no side bids past the 13 tricks."""
    state = started(spades, a_deal(spades), dealer=1)
    assert state.phase == "bidding" and state.current_player() == 2
    state.apply_action(bid_of(10))                          # seat 2
    assert state.current_player() == 3
    state.apply_action(bid_of(0))                           # seat 3: nil
    assert [a.bid for a in state.legal_actions()] == [0, 1, 2, 3]       # seat 0, seat 2's partner
    state.apply_action(bid_of(3))
    assert [a.bid for a in state.legal_actions()] == list(range(14))   # seat 1: its partner bid nil
    state.apply_action(bid_of(13))
    assert state.phase == "play" and state.current_player() == 2      # the dealer's left leads


def test_spades_are_not_led_until_broken(spades):
    """"Spades may not be led until either spades have been broken (played on the lead of another
    suit) or the leader has nothing but spades left": seat 2 leads a spade only once it trumped."""
    rules = spades
    s = suits(rules)
    state = started(rules, a_deal(rules), dealer=3)
    for _ in range(4):
        state.apply_action(bid_of(1))
    assert state.current_player() == 0
    lead = {a.mask.bit_length() - 1 for a in state.legal_actions()}
    assert lead == set(a_deal(rules)[0])                     # no spade in seat 0's hand anyway
    for card in (s["clubs"][0], s["clubs"][1], s["spades"][0], s["clubs"][7]):
        state.apply_action(next(a for a in state.legal_actions() if a.mask == 1 << card))
    assert state.current_player() == 2                       # the 2 of spades trumped the clubs
    lead = {a.mask.bit_length() - 1 for a in state.legal_actions()}
    assert s["spades"][1] in lead                            # broken: the 3 of spades may lead
    # before any spade is played, a leader holding another suit may not lead one
    state = started(rules, a_deal(rules), dealer=0)          # seat 1 leads first
    for _ in range(4):
        state.apply_action(bid_of(1))
    assert state.current_player() == 1
    lead = {a.mask.bit_length() - 1 for a in state.legal_actions()}
    assert not lead & set(s["spades"]) and lead


def score(rules, bids: list[int], tricks: list[int], carried=(0, 0, 0, 0), kept: dict | None = None) -> list:
    """Each seat's points under the file's scoring for these bids, tricks and bags carried
    before (``kept`` receives the values the round sets)."""
    game = Game(rules)
    sides = [(0, 2), (1, 3), (0, 2), (1, 3)]
    seats = []
    for s in range(4):
        side = sides[s]
        seats.append({"won": False, "out_first": False, "is_dealer": False, "cards_left": 0, "plays": 13,
                      "card_points": 0, "trick_points": 0, "own_trick_points": 0, "tricks_taken": tricks[s],
                      "side_tricks": sum(tricks[t] for t in side), "announced": 0, "_taken": 0,
                      "own_bid": bids[s], "side_bid": sum(bids[t] for t in side), "total": 0, "_side": side})
    env = {"bid": 0, "round": 1, "players": 4, "bidder_won": False, "_counts": {}, "_plays": [13] * 4,
           "_roles": {"each": (0, 1, 2, 3)}, "all_tricks_taken": 0, "bidder_side_points": 0,
           "bidder_trump_colour": 1, "bidder_trump_rank": 0, "bidder_trump_none": 0, "bidder_trump_cards": 13,
           "bid_total": sum(bids), "_calls": ((),) * 4}
    values = {"carried_bags": list(carried)} if kept is None else kept
    values.setdefault("carried_bags", list(carried))
    _, parts, _ = game.round.scoring.score(env, seats, lambda s: None, kept=values)
    return [sum(p for _, p in part) for part in parts]


def test_a_side_scores_ten_a_trick_bid_and_a_point_a_bag(spades):
    """"A side that takes at least as many tricks as its bid calls for receives a score equal to
    10 times its bid ... Additional tricks (bags) are worth an extra one point each"; "If a side
    does not make its bid, they lose 10 points for each trick they bid.\""""
    points = score(spades, bids=[3, 4, 2, 4], tricks=[4, 3, 2, 4])      # 5 bid, 6 taken; 8 bid, 7 taken
    assert points == [51, -80, 51, -80]


def test_nil_scores_100_or_loses_100_and_its_tricks_count_for_the_partner(spades):
    """A nil bidder who takes no trick gains its side 100; one who takes a trick loses 100, its
    tricks still counting toward the partner's bid."""
    assert score(spades, bids=[0, 4, 5, 4], tricks=[0, 4, 5, 4]) == [150, 80, 150, 80]   # the partner too (sum_side)
    # seat 0's nil fails with one trick, which makes seat 2's bid of 5 (4 + 1)
    assert score(spades, bids=[0, 4, 5, 4], tricks=[1, 4, 4, 4]) == [-50, 80, -50, 80]


def test_ten_bags_cost_a_hundred_and_the_rest_carry_over(spades):
    """"A side which (over several deals) accumulates ten or more overtricks has 100 points
    deducted ... Any overtricks beyond ten are carried over": a side carrying 8 bags that takes 3
    more scores 10 x 5 + 3 - 100 and carries 1 bag; the other side, 2 bags and none more, keeps 2."""
    kept: dict = {"carried_bags": [8, 2, 8, 2]}
    points = score(spades, bids=[2, 4, 3, 4], tricks=[4, 4, 4, 1], kept=kept)
    assert points[0] == 50 + 3 - 100
    assert kept["carried_bags"] == [1, 2, 1, 2]


def test_the_game_ends_at_500_or_when_a_side_sinks_to_minus_350(spades):
    end = Game(spades).round.end
    assert end.over([500, 120, 500, 120], 9, 500) and not end.over([490, 120, 490, 120], 9, 500)
    assert end.over([-350, 120, -350, 120], 9, 500) and not end.over([-340, 120, -340, 120], 9, 500)
    assert end.leaders([500, 120, 500, 120]) == [0, 2]                 # partners share the win


def test_the_heuristic_side_makes_more_contracts_than_random_players(spades):
    """Two heuristic partners against two random players: the heuristic side makes its contract
    (the side's bids added up) more often, and scores more."""
    from chimera_dsl.players import parse_players, play_game
    game = Game(spades, max_rounds=6)
    made = {"heuristic": 0, "random": 0}
    points = {"heuristic": 0, "random": 0}
    for g in range(3):
        names = ["heuristic", "random"] * 2 if g % 2 else ["random", "heuristic"] * 2
        state = play_game(game, parse_players(",".join(names), 4, g), g)
        bids: dict = {}
        for e in state.events:
            if e["type"] == "bid":
                bids[e["seat"]] = e["bid"]
            elif e["type"] == "round_end":
                for side in ((0, 2), (1, 3)):
                    kind = names[side[0]]
                    made[kind] += sum(e["tricks"][s] for s in side) >= sum(bids[s] for s in side)
                    points[kind] += e["points"][side[0]]
    assert made["heuristic"] > made["random"] and points["heuristic"] > points["random"]
