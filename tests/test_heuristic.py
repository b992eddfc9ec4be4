"""The heuristic player: legal in every situation, sensible in chosen ones, and strong enough."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import chimera_dsl
from chimera_dsl.engine import PASS, Action, Game, Observation
from chimera_dsl.players import make_player, play_game
from chimera_dsl.players.hand_eval import HandEvaluator, evaluator_for
from chimera_dsl.players.heuristic import HeuristicPlayer

ROOT = Path(__file__).resolve().parent.parent


def key(rules, cards: str) -> int:
    return rules.cards_key(cards) if cards else 0


def observation(rules, **fields) -> Observation:
    """An observation with quiet defaults (a play phase, seat 1 a hunter, seat 0 the Chimera)."""
    values = {}
    values.update(seat=1, players=3, phase="play", kind="play", round=1, dealer=0, hand=0, face_up=(0, 0), bids=(),
                  bidder=0, bid=20, exchange_count=0, given=0, received=0, trick=(), last_play=None,
                  last_player=None, hand_sizes=(10, 10, 10), played=0, played_by=(0, 0, 0),
                  taken=(0, 0, 0), totals=(0, 0, 0), target=400, rules=rules, passes=0,
                  interrupt=False, redeals=0, partner=2)
    values.update(fields)
    return Observation.of(**values)


def lead_actions(rules, hand: int) -> list[Action]:
    return [Action("play", play=p) for p in rules.leads(hand)]


def answer_actions(rules, hand: int, over) -> list[Action]:
    return [Action("play", play=p) for p in rules.answers(hand, over)] + [PASS]


def play_of(rules, cards: str):
    return rules.classify(cards)[0]


class Checked:
    """Wraps a player and checks each of its actions is among the legal ones."""

    def __init__(self, player):
        self.player = player
        self.name = player.name
        self.decisions = 0

    def act(self, observation, legal_actions):
        action = self.player.act(observation, legal_actions)
        assert action in legal_actions, (action, legal_actions)
        self.decisions += 1
        return action


# -- hand evaluation -------------------------------------------------------------------------

@pytest.mark.parametrize("cards, plays", [
    ("3 4 5 6 7", 1), ("3 3 3 5", 1), ("1 1 2 2 3 3", 1), ("1 5 9", 3), ("P C", 1),
    ("3 3 3 4 4 4 5 5 6 6", 1), ("2 3 4 6 7 P", 1), ("1 1 5 9 9", 3), ("H H H H", 1),
])
def test_plays_needed(rules, cards, plays):
    assert evaluator_for(rules).plays_needed(key(rules, cards)) == plays


def test_split_uses_every_card_once(rules):
    ev = evaluator_for(rules)
    hand = key(rules, "1 1 2 3 3 4 5 5 6 6 7 8 9 10 10 11 12 H H C")
    split = ev.split(hand)
    assert sum(p.key for p in split) == hand
    assert abs(sum(ev.play_cost(p) for p in split) - ev.cost(hand)) < 1e-9


def test_evaluation_does_not_depend_on_what_came_before(rules):
    """Costs and splits are the same from a fresh evaluator, whatever hands were listed or
    searched before (the plays of a listed hand serve its parts, and memos are shared)."""
    cards = [i for i, _ in rules.deck.cards]
    rng = random.Random(11)
    warm = HandEvaluator(rules)
    for _ in range(25):
        rng.shuffle(cards)
        whole = rules.deck.key(cards[:20])
        part = rules.deck.key(cards[2:15])
        warm.cost(whole)
        fresh = HandEvaluator(rules)
        assert warm.cost(part, whole) == fresh.cost(part)
        assert warm.split(part, whole) == fresh.split(part)


def test_cost_is_subadditive(rules):
    """A hand costs at most the sum of its parts (answers and gifts are weighed on this bound)."""
    ev = evaluator_for(rules)
    assert ev.every_card_plays
    cards = [i for i, _ in rules.deck.cards]
    rng = random.Random(5)
    for _ in range(40):
        rng.shuffle(cards)
        a, b = rules.deck.key(cards[:9]), rules.deck.key(cards[9:17])
        assert ev.cost(a + b) <= ev.cost(a) + ev.cost(b) + 1e-9


def test_cost_prefers_combinations(rules):
    ev = evaluator_for(rules)
    assert ev.cost(key(rules, "3 4 5 6 7")) < ev.cost(key(rules, "3 4 5 6 9"))
    assert ev.power(play_of(rules, "C")) > ev.power(play_of(rules, "12"))
    assert ev.power(play_of(rules, "P C")) == 1.0


# -- situations ------------------------------------------------------------------------------

def test_hunter_lets_its_partner_win(rules):
    hand = key(rules, "3 9 12 H 7 7")
    over = play_of(rules, "5")
    obs = observation(rules, hand=hand, trick=((2, over),), last_play=over, last_player=2,
                      hand_sizes=(18, 6, 9), played_by=(0, key(rules, "4 4 6 8 10 10 11 11 12 2 2 1"), 0))
    action = HeuristicPlayer(0).act(obs, answer_actions(rules, hand, over))
    assert action == PASS


def test_hunter_beats_the_chimera(rules):
    hand = key(rules, "3 9 12 7 7 10 10")
    over = play_of(rules, "5")
    obs = observation(rules, hand=hand, trick=((0, over),), last_play=over, last_player=0,
                      hand_sizes=(18, 7, 9))
    action = HeuristicPlayer(0).act(obs, answer_actions(rules, hand, over))
    assert action.kind == "play" and action.play.key == key(rules, "9")


def test_hunter_goes_out_even_over_its_partner(rules):
    hand = key(rules, "9 9")
    over = play_of(rules, "5 5")
    obs = observation(rules, hand=hand, trick=((2, over),), last_play=over, last_player=2,
                      hand_sizes=(18, 2, 9))
    action = HeuristicPlayer(0).act(obs, answer_actions(rules, hand, over))
    assert action.kind == "play" and action.play.key == hand


@pytest.mark.parametrize("cards", ["3 4 5 6 7 8", "5 5 5 9", "P C", "H H", "8"])
def test_leads_its_whole_hand(rules, cards):
    hand = key(rules, cards)
    obs = observation(rules, hand=hand, seat=0, bidder=0, partner=None, hand_sizes=(len(cards.split()), 9, 9))
    action = HeuristicPlayer(0).act(obs, lead_actions(rules, hand))
    assert action.play.key == hand


def test_keeps_the_flight_and_bombs_for_later(rules):
    hand = key(rules, "3 3 8 5 5 5 5 P C 10 10 10 12")
    obs = observation(rules, hand=hand, seat=0, bidder=0, partner=None, hand_sizes=(13, 17, 17))
    action = HeuristicPlayer(0).act(obs, lead_actions(rules, hand))
    kept = key(rules, "5 5 5 5 P C")
    cards = action.play.key
    assert action.play.tier == 0
    # no card of the bomb or the flight in the lead
    assert all(count == 0 for count in _counts(rules, cards & _fields(rules.deck, kept)))


def test_does_not_spend_a_bomb_on_a_low_single(rules):
    hand = key(rules, "5 5 5 5 3 8 8 10 10")
    over = play_of(rules, "4")
    obs = observation(rules, hand=hand, seat=0, bidder=0, partner=None, trick=((1, over),),
                      last_play=over, last_player=1, hand_sizes=(9, 14, 15))
    action = HeuristicPlayer(0).act(obs, answer_actions(rules, hand, over))
    assert action == PASS or action.play.tier == 0 and action.play.key != key(rules, "5")


def test_chimera_fights_a_hunter_about_to_go_out(rules):
    hand = key(rules, "5 5 5 5 3 8 8 10 10 12")
    over = play_of(rules, "H")
    obs = observation(rules, hand=hand, seat=0, bidder=0, partner=None, trick=((1, over),),
                      last_play=over, last_player=1, hand_sizes=(10, 1, 15))
    action = HeuristicPlayer(0).act(obs, answer_actions(rules, hand, over))
    assert action.kind == "play" and action.play.combination == "bomb"


def test_does_not_lead_a_single_to_a_hunter_holding_one_card(rules):
    hand = key(rules, "3 6 6 9 9 11")
    obs = observation(rules, hand=hand, seat=0, bidder=0, partner=None, hand_sizes=(6, 1, 12))
    action = HeuristicPlayer(0).act(obs, lead_actions(rules, hand))
    assert action.play.size != 1


def test_bids_higher_with_a_strong_hand(rules):
    strong = key(rules, "P C H H H 12 12 12 11 11 11 10 10 10 9 9 8")
    weak = key(rules, "1 1 2 3 3 4 6 6 7 8 9 9 10 11 12 2 5")
    levels = [20, 30, 40]
    legal = [PASS] + [Action("bid", bid=level) for level in levels]

    def chosen(hand):
        obs = observation(rules, phase="bidding", kind="bidding", hand=hand, bidder=None, partner=None, bid=None,
                          hand_sizes=(17, 17, 17), face_up=(0, 2))
        action = HeuristicPlayer(0).act(obs, legal)
        return 0 if action == PASS else action.bid

    assert chosen(weak) == 0
    assert chosen(strong) > chosen(weak)


def test_forced_bidder_bids(rules):
    hand = key(rules, "1 1 2 3 3 4 6 6 7 8 9 9 10 11 12 2 5")
    obs = observation(rules, phase="bidding", kind="bidding", hand=hand, bidder=None, partner=None, bid=None,
                      hand_sizes=(17, 17, 17), face_up=(0, 1))
    action = HeuristicPlayer(0).act(obs, [Action("bid", bid=20), Action("bid", bid=30), Action("bid", bid=40)])
    assert action.kind == "bid"


def test_exchange_gives_legal_cards(rules):
    game = Game(rules)
    hand = key(rules, "1 2 3 4 4 5 7 7 7 9 10 10 11 12 H P 6")
    for count in (1, 2):
        legal = game.give_actions(hand, count)
        obs = observation(rules, phase="exchange", kind="transfer", hand=hand, bid=40, exchange_count=count, given=None,
                          received=None, hand_sizes=(20, 17, 17))
        action = HeuristicPlayer(0).act(obs, legal)
        assert action in legal
        assert action.kind == "give"


# -- whole games -----------------------------------------------------------------------------

@pytest.mark.parametrize("variant", ["chimera.yaml", "house_rules/tichu-bombs.yaml",
                                     "house_rules/big-exchange.yaml", "official/chimera-fr.yaml"])
def test_legal_in_every_situation(variant):
    rules = chimera_dsl.load_variant(str(ROOT / "variants" / variant))
    game = Game(rules, max_rounds=3)
    for seed in range(4):
        players = [Checked(HeuristicPlayer(seed * 10 + s)) for s in range(3)]
        if seed % 2:
            players[1] = Checked(make_player("random", seed))
        state = play_game(game, players, seed)
        assert state.is_terminal()
        assert sum(p.decisions for p in players) > 0


def test_same_seed_same_game(rules):
    game = Game(rules, max_rounds=2)
    runs = [play_game(game, [HeuristicPlayer(s) for s in range(3)], 5).events for _ in range(2)]
    assert runs[0] == runs[1]


def test_beats_two_random_players(rules):
    """200 seeded games to 200 points, the heuristic player in each seat in turn: it must win
    far more than a third (the full benchmark, 2,000 games to 400: bench/bench_players.py)."""
    game = Game(rules, target=200)
    wins = 0
    games = 200
    for g in range(games):
        hero = g % 3
        players = [make_player("heuristic" if s == hero else "random", g * 1000 + s) for s in range(3)]
        players[hero] = Checked(players[hero])
        state = play_game(game, players, g)
        wins += state.events[-1].get("winner") == hero
    assert wins / games >= 0.6


# -- small helpers over packed keys ------------------------------------------------------------

def _fields(deck, key: int) -> int:
    """A mask with every count field of ``deck`` that is non-zero in ``key`` set to all ones."""
    mask = 0
    for i, count in enumerate(deck.counts(key)):
        if count:
            mask |= deck.field_mask << (deck.shift * i)
    return mask


def _counts(rules, key: int) -> list[int]:
    return rules.deck.counts(key)


def test_leads_low_for_a_partner_about_to_go_out(rules):
    # seat 1 leads; its partner, seat 2, plays next and holds one card: lead the lowest single
    # (left to itself, it would lead its low pair 9 9 first, the longer of its weakest plays)
    hand = key(rules, "3 9 9 10 10 12 12 H 6")
    obs = observation(rules, hand=hand, hand_sizes=(15, 9, 1))
    action = HeuristicPlayer(0).act(obs, lead_actions(rules, hand))
    assert action.play.cards == ["3"]
    alone = observation(rules, hand=hand, hand_sizes=(15, 9, 9))
    assert HeuristicPlayer(0).act(alone, lead_actions(rules, hand)).play.cards == ["9", "9"]
