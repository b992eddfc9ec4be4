"""The engine: every phase of a round, as the rulebooks and RULINGS.md describe it.

Specific situations are driven by injected deals and scripted actions (tests/scripted.py);
the invariants (cards conserved, every play legal and beating the one before, every game
ends, observations never leak) are checked over many seeds.
"""
from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chimera_dsl
from chimera_dsl.engine import PASS, TERMINAL, Action, Deal, Game, bid_action
from chimera_dsl.errors import IllegalActionError, VariantError
from chimera_dsl.players import make_player, play_game
from scripted import OFFICIAL, deal, events_of, official, ranks_of, script, start, variant

DEALER_2 = {"deal": {"first_dealer": 2}}     # seat 0 sits at the dealer's left


def random_players(seed: int, n: int = 3):
    return [make_player("random", seed * 10 + i) for i in range(n)]


def act(state, *words: str):
    """Apply bids/passes for whoever is to act: act(state, "bid 20", "pass")."""
    for word in words:
        state.apply_action(PASS if word == "pass" else bid_action(int(word.split()[1])))
    return state


# -- the German rulebook's two scoring examples -----------------------------------------------

def test_german_example_1_chimera_out_first_with_a_bomb_and_an_idle_hunter():
    """Bid 20, the Chimera goes out first, one bomb, one hunter played no card: 40 + 25 + 25 = 90
    (plus the treasures in its tricks: an 11, 5 points)."""
    rules = variant(DEALER_2)
    state = start(rules, deal(rules, ["3 3 3 3 7 12", "4 11 1", "5 6 8"], nest="9", face_up=("7", 0)),
                  max_rounds=1)
    script(state, "0 bid 20", "1 pass", "2 pass",
           "0 play 3 3 3 3", "1 pass", "2 pass",
           "0 play 7", "1 play 11", "2 pass", "0 play 12", "1 pass", "2 pass",
           "0 play 9")
    end = events_of(state, "round_end")[0]
    assert end["out"] == 0 and end["chimera_won"] is True
    assert end["bonuses"] == {"bombs": 1, "flight": 0, "idle_hunter": True}
    assert end["treasures"] == [5, 0, 0]
    assert end["points"] == [40 + 25 + 25 + 5, 0, 0]
    assert state.is_terminal() and state.returns() == [95.0, 0.0, 0.0]


def test_german_example_2_hunter_out_first_after_the_flight():
    """Bid 40, a hunter goes out first, the flight was played: the Chimera loses 40 and gets no
    bonus; each hunter scores 20, plus the treasures each took."""
    rules = variant(DEALER_2)
    state = start(rules, deal(rules, ["5 6 7 9 10", "P C 3 8 1 1", "2 2 4 4 6 6"], nest="12 12 4",
                              face_up=("5", 0)), max_rounds=1)
    script(state, "0 bid 40",                       # the top bid closes the bidding at once
           "1 give 1 1", "2 give 2 2",
           "0 play 5", "1 play P C", "2 pass", "0 pass",
           "1 play 2 2", "2 pass", "0 pass",
           "1 play 3", "2 pass", "0 pass",
           "1 play 8")
    end = events_of(state, "round_end")[0]
    assert end["out"] == 1 and end["chimera_won"] is False
    assert end["bonuses"]["flight"] == 1
    assert end["treasures"] == [0, 20, 0]
    assert end["points"] == [-40, 20 + 20, 20]
    assert end["totals"] == [-40, 40, 20]


# -- bidding -----------------------------------------------------------------------------------

def test_top_bid_closes_the_bidding_at_once():
    state = Game(official()).new_game(11)
    opener = state.current_player()
    assert opener == state.face_up[1]              # the face-up card's holder opens
    act(state, "bid 40")
    assert [e["type"] for e in state.events[-2:]] == ["bid", "chimera"]
    assert state.bidder == opener and state.bid == 40 and state.phase == "exchange"


def test_without_top_bid_closes_a_40_waits_for_the_passes():
    state = Game(variant({"bidding": {"top_bid_closes": False}})).new_game(11)
    opener = state.current_player()
    act(state, "bid 40")
    assert state.phase == "bidding" and state.legal_actions() == [PASS]   # nothing exceeds 40
    act(state, "pass", "pass")
    assert state.bidder == opener and state.bid == 40


def test_two_passes_in_a_row_after_a_bid_close_the_bidding():
    state = Game(official()).new_game(3)
    opener = state.current_player()
    act(state, "bid 20", "pass")
    assert state.phase == "bidding"
    act(state, "pass")
    assert state.bidder == opener and state.bid == 20
    assert events_of(state, "chimera")[-1] == {"type": "chimera", "round": 1, "seat": opener, "bid": 20}


def test_each_bid_must_exceed_the_current_one_and_a_passer_may_come_back():
    state = Game(official()).new_game(3)
    o = state.current_player()
    act(state, "pass", "bid 20")
    legal = state.legal_actions()
    assert bid_action(20) not in legal and bid_action(30) in legal and bid_action(40) in legal
    with pytest.raises(IllegalActionError, match="does not exceed"):
        state.apply_action(bid_action(20))
    act(state, "pass")
    assert state.current_player() == o             # the first passer bids again
    act(state, "bid 30", "pass", "pass")
    assert state.bidder == o and state.bid == 30


def test_without_reentry_a_player_who_passed_may_only_pass():
    state = Game(variant({"bidding": {"reenter_after_pass": False}})).new_game(3)
    o = state.current_player()
    act(state, "pass", "bid 20", "pass")
    assert state.current_player() == o and state.legal_actions() == [PASS]


def test_three_passes_under_passes_to_close_3_give_the_high_bidder_a_turn():
    """The French text read literally: three passes after a bid, so the high bidder may pass on
    or raise its own bid."""
    rules = variant({"bidding": {"passes_to_close": 3}})
    state = Game(rules).new_game(3)
    o = state.current_player()
    act(state, "bid 20", "pass", "pass")
    assert state.phase == "bidding" and state.current_player() == o
    assert bid_action(30) in state.legal_actions()
    act(state, "bid 30", "pass", "pass")
    assert state.phase == "bidding"
    act(state, "pass")
    assert state.bidder == o and state.bid == 30


def test_all_pass_redeals_with_the_same_dealer_and_round():
    game = Game(official())
    state = game.new_game(5)
    dealer = state.dealer
    first = events_of(state, "deal")[0]
    act(state, "pass", "pass", "pass")
    kinds = [e["type"] for e in state.events]
    assert kinds[-2:] == ["redeal", "deal"]
    second = state.events[-1]
    assert second["round"] == 1 and second["dealer"] == dealer and second["deal"] == 2
    assert second["hands"] != first["hands"]
    assert state.round == 1 and state.phase == "bidding" and state.bids == ()
    assert state.current_player() == second["face_up"]["seat"]
    # the redeal's cards are those of deal number 2 of this seed
    deck = state.game.rules.deck
    assert [deck.cards_mask(h) for h in second["hands"]] == list(game.deal(5, 2, dealer).hands)


def test_second_all_pass_forces_the_face_up_holder_to_bid_20_and_others_may_overbid():
    state = Game(official()).new_game(5)
    act(state, "pass", "pass", "pass")             # redeal
    holder = state.face_up[1]
    act(state, "pass", "pass", "pass")             # everyone passes again
    forced = state.events[-1]
    assert forced == {"type": "bid", "round": 1, "seat": holder, "bid": 20, "forced": True}
    assert not events_of(state, "redeal")[1:]      # no second redeal
    assert state.phase == "bidding" and state.current_player() == (holder + 1) % 3
    act(state, "bid 30", "pass", "pass")
    assert state.bidder == (holder + 1) % 3 and state.bid == 30


def _seed_with_second_face_up_at(seat: int, rules) -> int:
    game = Game(rules)
    for seed in range(200):
        if game.deal(seed, 2, game.first_dealer(seed)).face_up[1] == seat:
            return seed
    raise AssertionError("no such seed")


@pytest.mark.parametrize("forced_bidder, expected", [("face_up_holder", 2), ("dealer", 0), ("first_passer", 1)])
def test_each_forced_bidder(forced_bidder, expected):
    """Dealer 0, the dealer's left (1) opens, the second deal's face-up card goes to seat 2."""
    rules = variant({"deal": {"first_dealer": 0}, "bidding": {"opener": "dealer_left",
                                                               "all_pass": {"forced_bidder": forced_bidder}}})
    state = Game(rules).new_game(_seed_with_second_face_up_at(2, rules))
    act(state, "pass", "pass", "pass", "pass", "pass", "pass")
    assert state.events[-1] == {"type": "bid", "round": 1, "seat": expected, "bid": 20, "forced": True}
    act(state, "pass", "pass")
    assert state.bidder == expected and state.bid == 20


def test_no_redeal_reading_makes_the_first_passer_the_chimera_at_20():
    rules = variant({"bidding": {"all_pass": {"redeals_before_forced": 0, "forced_bidder": "first_passer",
                                              "forced_bid_closes": True}}})
    state = Game(rules).new_game(8)
    o = state.current_player()
    act(state, "pass", "pass", "pass")
    assert not events_of(state, "redeal")
    assert [e["type"] for e in state.events[-4:]] == ["bid", "chimera", "exchange", "exchange"]
    assert state.events[-4]["forced"] is True and state.bidder == o and state.bid == 20


# -- nest and exchange -------------------------------------------------------------------------

@pytest.mark.parametrize("level, count", [(20, 0), (30, 1), (40, 2)])
def test_exchange_size_follows_the_bid(level, count):
    state = Game(official()).new_game(21)
    size_of, contains = state.game.rules.deck.size_of, state.game.rules.deck.contains
    act(state, f"bid {level}")
    if level != 40:
        act(state, "pass", "pass")
    chimera = state.bidder
    assert size_of(state.hands[chimera]) == 20     # the nest is taken, nothing discarded
    assert state.exchange_count == count
    if count:
        hunters = [(chimera + 1) % 3, (chimera + 2) % 3]
        for hunter in hunters:
            assert state.current_player() == hunter
            legal = state.legal_actions()
            assert legal and all(a.kind == "give" and size_of(a.cards) == count for a in legal)
            assert all(contains(state.hands[hunter], a.cards) for a in legal)
            state.apply_action(legal[-1])
    lines = events_of(state, "exchange")
    assert len(lines) == 2 and all(len(e["cards"]) == count for e in lines)
    assert {(e["from"], e["to"]) for e in lines} == {((chimera + 1) % 3, (chimera + 2) % 3),
                                                      ((chimera + 2) % 3, (chimera + 1) % 3)}
    assert state.phase == "play" and state.current_player() == chimera   # the Chimera leads
    assert [size_of(h) for h in state.hands] == [20 if s == chimera else 17 for s in range(3)]


def test_the_exchange_is_secret_and_simultaneous():
    rules = variant(DEALER_2)
    state = start(rules, deal(rules, ["5 6 7", "1 2 3", "8 9 10"], nest="11", face_up=("5", 0)), max_rounds=1)
    script(state, "0 bid 40", "1 give 1 2")
    second = state.observation(2)
    assert second.given is None and second.received is None
    assert second.hand == rules.deck.parse_key("8 9 10")          # seat 1's cards have not arrived
    assert state.observation(1).hand == rules.deck.parse_key("3")  # set aside, not yet received
    assert not events_of(state, "exchange")                        # nothing public yet
    script(state, "2 give 9 10")
    first, second, chimera = state.observation(1), state.observation(2), state.observation(0)
    assert first.received == rules.deck.parse_key("9 10") and second.received == rules.deck.parse_key("1 2")
    assert first.hand == rules.deck.parse_key("3 9 10") and second.hand == rules.deck.parse_key("1 2 8")
    assert chimera.given is None and chimera.received is None      # the Chimera never sees them


def test_exchanged_cards_may_not_be_cards_the_hunter_lacks():
    rules = variant(DEALER_2)
    state = start(rules, deal(rules, ["5 6 7", "1 2 3", "8 9 10"], nest="11", face_up=("5", 0)), max_rounds=1)
    script(state, "0 bid 30", "1 pass", "2 pass")
    with pytest.raises(IllegalActionError, match="exactly 1 card"):
        state.apply_action(Action("give", cards=rules.deck.parse_key("12")))
    with pytest.raises(IllegalActionError):
        state.apply_action(Action("give", cards=rules.deck.parse_key("1 2")))


# -- trick play -------------------------------------------------------------------------------

def test_the_leader_may_not_pass_and_answers_must_beat():
    rules = variant(DEALER_2)
    state = start(rules, deal(rules, ["5 9 9", "7 8", "4 6"], nest="10", face_up=("5", 0)), max_rounds=1)
    script(state, "0 bid 20", "1 pass", "2 pass")
    assert PASS not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="may not pass"):
        state.apply_action(PASS)
    script(state, "0 play 9 9")
    assert state.legal_actions() == [PASS]            # seat 1 holds no higher pair
    script(state, "1 pass")
    assert all(a == PASS for a in state.legal_actions())   # nor does seat 2


def test_a_player_who_passed_may_play_when_the_turn_comes_back_and_the_last_player_takes_the_trick():
    rules = variant(DEALER_2)
    state = start(rules, deal(rules, ["5 9 12", "7 10 3", "4 6 1"], nest="2", face_up=("5", 0)), max_rounds=1)
    script(state, "0 bid 20", "1 pass", "2 pass",
           "0 play 5", "1 pass", "2 play 6", "0 play 9", "1 play 10", "2 pass", "0 pass")
    trick = events_of(state, "trick")[0]
    assert {**trick, "cards": ranks_of(trick["cards"])} == {"type": "trick", "round": 1, "winner": 1,
                                                           "cards": ["5", "6", "9", "10"]}
    assert state.current_player() == 1 and state.last_play is None        # the winner leads


def test_the_round_ends_mid_trick_and_the_player_out_takes_that_trick():
    """Seat 1 plays its last card: nobody may answer (seat 2 holds the Chimera), and seat 1
    takes the cards of the trick, treasures included."""
    rules = variant(DEALER_2)
    state = start(rules, deal(rules, ["11 9 5", "12", "C 1"], nest="3", face_up=("5", 0)), max_rounds=1)
    script(state, "0 bid 20", "1 pass", "2 pass", "0 play 11", "1 play 12")
    assert [e["type"] for e in state.events[-4:]] == ["play", "trick", "round_end", "game_end"]
    trick = state.events[-3]
    assert {**trick, "cards": ranks_of(trick["cards"])} == {"type": "trick", "round": 1, "winner": 1,
                                                           "cards": ["11", "12"]}
    end = state.events[-2]
    assert end["out"] == 1 and end["chimera_won"] is False
    assert end["treasures"] == [0, 5, 0] and end["points"] == [-20, 25, 20]


@pytest.mark.parametrize("steps, idle, points", [
    # seat 2 gave a card in the exchange but plays none: still idle
    (("0 play 3 3 3 3", "1 pass", "2 pass", "0 play 7", "1 play 11", "2 pass", "0 play 12", "1 pass", "2 pass",
      "0 play 9"), True, 60 + 25 + 25 + 5),
    # both hunters play a card: no idle-hunter bonus
    (("0 play 7", "1 play 11", "2 play H", "0 play 3 3 3 3", "1 pass", "2 pass", "0 play 12", "1 pass", "2 pass",
      "0 play 9"), False, 60 + 25 + 5),
])
def test_idle_hunter_bonus_and_exchanged_cards_do_not_count_as_played(steps, idle, points):
    rules = variant(DEALER_2)
    state = start(rules, deal(rules, ["3 3 3 3 7 12", "4 11 1", "5 6 H"], nest="9", face_up=("7", 0)),
                  max_rounds=1)
    script(state, "0 bid 30", "1 pass", "2 pass", "1 give 1", "2 give 5", *steps)
    end = events_of(state, "round_end")[0]
    assert end["bonuses"]["idle_hunter"] is idle
    assert end["points"][0] == points


def test_out_of_turn_bombs_interrupt_and_play_goes_on_from_the_interrupter():
    rules = variant({**DEALER_2, "play": {"out_of_turn": ["bomb"]}})
    hands = ["5 9", "7 8", "4 4 4 4 6"]

    def fresh():
        state = start(rules, deal(rules, hands, nest="10", face_up=("5", 0)), max_rounds=1)
        return script(state, "0 bid 20", "1 pass", "2 pass", "0 play 5")

    state = fresh()
    assert state.current_player() == 2 and state.interrupting      # seat 2 is offered its bomb
    assert {a.kind for a in state.legal_actions()} == {"play", "pass"}
    script(state, "2 play 4 4 4 4")
    assert state.events[-1]["out_of_turn"] is True
    assert state.current_player() == 0                              # clockwise from the interrupter
    script(state, "0 pass", "1 pass")
    assert events_of(state, "trick")[0]["winner"] == 2

    declined = fresh()
    n = len(declined.events)
    script(declined, "2 pass")
    assert len(declined.events) == n                                # declining leaves no line
    assert declined.current_player() == 1 and not declined.interrupting

    official_rules = variant(DEALER_2)
    plain = start(official_rules, deal(official_rules, hands, nest="10", face_up=("5", 0)), max_rounds=1)
    script(plain, "0 bid 20", "1 pass", "2 pass", "0 play 5")
    assert plain.current_player() == 1                              # official: no play out of turn


# -- the end of the game -------------------------------------------------------------------------

ROUND_1 = ["5 9 10", "7", "C 1"]     # the hunters win at 20: totals -20, 20, 20
ROUND_2 = ["4 6 H", "8 10", "3 12"]  # seat 0 is the Chimera at 20 and goes out: 40 + 25 idle


def _tie_game(ties: str):
    rules = variant({**DEALER_2, "end": {"ties": ties}})
    state = start(rules, deal(rules, ROUND_1, nest="3", face_up=("5", 0)),
                  deal(rules, ROUND_2, nest="5", face_up=("4", 0)), target=20)
    return script(state, "0 bid 20", "1 pass", "2 pass", "0 play 5", "1 play 7")


def test_a_shared_highest_total_plays_on_and_the_third_player_may_still_win():
    state = _tie_game("play_on")
    assert state.totals == [-20, 20, 20] and not state.is_terminal()
    assert state.round == 2 and state.dealer == 0                   # the dealer moved clockwise
    script(state, "0 bid 20", "1 pass", "2 pass", "0 play 4", "1 pass", "2 pass", "0 play 5", "1 pass",
           "2 pass", "0 play 6", "1 pass", "2 pass", "0 play H")
    assert state.totals == [45, 20, 20]
    assert state.events[-1] == {"type": "game_end", "totals": [45, 20, 20], "winner": 0, "rounds": 2}
    assert state.current_player() == TERMINAL and state.returns() == [45.0, 20.0, 20.0]


def test_with_ties_shared_the_game_ends_on_a_shared_total():
    state = _tie_game("shared")
    assert state.is_terminal()
    end = state.events[-1]
    assert end["winner"] is None and end["winners"] == [1, 2]


def test_the_game_ends_when_one_seat_alone_reaches_the_target():
    rules = variant(DEALER_2)
    state = start(rules, deal(rules, ["11 9 5", "12", "C 1"], nest="3", face_up=("5", 0)), target=25)
    script(state, "0 bid 20", "1 pass", "2 pass", "0 play 11", "1 play 12")
    assert state.is_terminal() and state.events[-1]["winner"] == 1     # 25 against 20


# -- dealing -------------------------------------------------------------------------------------

def test_the_deal_follows_the_documented_procedure():
    """Shuffle with Random(f"{seed}:deal:{k}"), cut, turn the lower part's top card face up on the
    upper part, lower part on top, nest first, then one card at a time from the dealer's left."""
    rules = official()
    game = Game(rules)
    for seed in range(20):
        for dealer in range(3):
            rng = random.Random(f"{seed}:deal:1")
            cards = list(range(len(rules.deck.cards)))      # each card by its number in the deck
            rng.shuffle(cards)
            cut = rng.randint(22, 32)
            upper, lower = cards[:cut], cards[cut:]
            stack = lower[1:] + [lower[0]] + upper
            hands = [0, 0, 0]
            for j, card in enumerate(stack[3:]):
                hands[(dealer + 1 + j) % 3] |= 1 << card
            face_seat = (dealer + 1 + len(lower) - 1 - 3) % 3
            dealt = game.deal(seed, 1, dealer)
            assert dealt.hands == tuple(hands)
            assert dealt.nest == rules.deck.mask_of(stack[:3])
            assert dealt.face_up == (lower[0], face_seat)
            assert hands[face_seat] >> lower[0] & 1
            assert sum(dealt.hands) + dealt.nest == rules.deck.full_mask


@pytest.mark.parametrize("rule", ["recut", "keep"])
def test_a_face_up_card_in_the_nest_is_recut_or_kept(rule):
    changes = {"deal": {"cut": {"from": 50, "to": 53}, "face_up_in_nest": rule}}
    if rule == "keep":
        changes["bidding"] = {"opener": "dealer_left", "all_pass": {"forced_bidder": "dealer"}}
    game = Game(variant(changes))
    holders = set()
    for seed in range(60):
        dealt = game.deal(seed, 1, 0)
        card, seat = dealt.face_up
        holders.add(seat)
        if seat is None:
            assert dealt.nest >> card & 1
        else:
            assert dealt.hands[seat] >> card & 1
    assert (None in holders) == (rule == "keep")


def test_a_face_up_holder_rule_that_the_cut_can_leave_without_a_holder_is_refused():
    rules = variant({"deal": {"cut": {"from": 50, "to": 53}, "face_up_in_nest": "keep"}})
    with pytest.raises(VariantError, match="face_up_holder"):
        Game(rules)


def test_the_first_dealer_comes_from_the_seed_or_the_variant_and_rotates_clockwise():
    game = Game(official())
    assert {game.first_dealer(seed) for seed in range(30)} == {0, 1, 2}
    assert Game(variant({"deal": {"first_dealer": 1}})).first_dealer(99) == 1
    state = play_game(game, random_players(4), 4)
    first = state.events[1]["dealer"]
    for event in events_of(state, "deal"):
        assert event["dealer"] == (first + event["round"] - 1) % 3


# -- observations ----------------------------------------------------------------------------------

def _observations_equal(a, b) -> bool:
    x, y = a.as_dict(), b.as_dict()
    return x == y


def test_an_observation_does_not_depend_on_other_seats_hidden_cards():
    """Two deals that agree on seat 0's hand and the face-up card but differ in everything
    seat 0 cannot see give seat 0 the same observations, through bidding and exchange."""
    rules = variant({"deal": {"first_dealer": 1}})       # seat 2 opens when it holds the face-up card
    game = Game(rules)
    seed = next(s for s in range(100) if game.deal(s, 1, 1).face_up[1] == 2)
    hands, nest, face = game.deal(seed, 1, 1)
    deck = rules.deck
    pool = deck.numbers_of(hands[1] | hands[2] | nest)
    pool.remove(face[0])                                  # the face-up card stays with seat 2
    random.Random(1).shuffle(pool)
    other_1 = deck.mask_of(pool[:17])
    other_2 = deck.mask_of(pool[17:33]) | (1 << face[0])
    other_nest = deck.mask_of(pool[33:])
    a = game.new_game(seed, deals=iter([Deal(hands, nest, face)]))
    b = game.new_game(seed, deals=iter([Deal(hands[:1] + (other_1, other_2), other_nest, face)]))
    for state in (a, b):
        act(state, "bid 20", "pass")
    assert _observations_equal(a.observation(0), b.observation(0))
    for state in (a, b):
        act(state, "bid 30", "pass", "pass")             # seat 1 is the Chimera at 30
    assert a.bidder == 1 and _observations_equal(a.observation(0), b.observation(0))
    assert a.observation(0).nest is None                 # the nest went to seat 1, unseen
    assert a.observation(1).nest == deck.key_of_mask(nest) and b.observation(1).nest == deck.key_of_mask(other_nest)
    # seat 2 gives first, its lowest card (different in a and b): seat 0 sees nothing of it
    assert a.current_player() == 2
    a.apply_action(a.legal_actions()[0])
    b.apply_action(next(g for g in b.legal_actions() if g.cards != a.given[2]))
    assert _observations_equal(a.observation(0), b.observation(0))
    assert a.observation(0).received is None
    assert not events_of(a, "exchange") and not events_of(b, "exchange")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10 ** 9))
def test_observations_show_only_the_seat_s_own_cards(seed):
    game = Game(official(), max_rounds=2)
    state = game.new_game(seed)
    players = random_players(seed)
    while not state.is_terminal():
        seat = state.current_player()
        for other in range(3):
            obs = state.observation(other)
            assert obs.hand == state.hands[other]
            assert obs.face_up == state.face_up and obs.face_up[1] is not None   # everyone sees it, and who got it
            if state.phase == "bidding":
                assert obs.nest is None
            if state.phase == "exchange":
                assert obs.received is None or not state._transfer.simultaneous
            if obs.nest is not None:
                assert other == state.bidder
        state.apply_action(players[seat].act(state.observation(seat), state.legal_actions()))


# -- the knobs come from the file ----------------------------------------------------------------

def test_changing_knobs_in_a_yaml_file_changes_the_game(tmp_path):
    house = tmp_path / "house.yaml"
    house.write_text(
        f"extends: {os.path.relpath(OFFICIAL, tmp_path)}\n"
        "name: Test house rules\n"
        "deal: {first_dealer: 1}\n"
        "bidding:\n"
        "  levels: [25, 50]\n"
        "  passes_to_close: 3\n"
        "  all_pass: {forced_bid: 25}\n"
        "exchange:\n"
        "  count_by_bid: {20: null, 30: null, 40: null, 25: 2, 50: 3}\n"
        "scoring:\n"
        "  treasures: {2: 7, 11: null, 12: 3}\n"
        "  other_out_first: {others: 11}\n"
        "end: {target: 150}\n", encoding="utf-8")
    rules = chimera_dsl.load_variant(house)
    values = {"2": 7, "12": 3}
    for seed in range(6):
        state = play_game(Game(rules), random_players(seed), seed)
        assert state.events[0]["target"] == 150 and state.events[0]["variant"] == "Test house rules"
        assert state.events[1]["dealer"] == 1
        assert {e["bid"] for e in events_of(state, "bid")} <= {None, 25, 50}
        taken = [0, 0, 0]
        last_bid = state_bid = None
        passes = 0
        for event in state.events:
            kind = event["type"]
            if kind == "bid":
                passes = passes + 1 if event["bid"] is None else 0
                last_bid = event["bid"] if event["bid"] is not None else last_bid
            elif kind == "chimera":
                assert last_bid == 50 or passes == 3         # three passes close
                passes, last_bid = 0, None
                state_bid = event["bid"]
            elif kind == "exchange":
                assert len(event["cards"]) == {25: 2, 50: 3}[state_bid]
            elif kind == "trick" and event["winner"] is not None:
                taken[event["winner"]] += sum(values.get(c, 0) for c in ranks_of(event["cards"]))
            elif kind == "round_end":
                assert event["treasures"] == taken
                hunters = [s for s in range(3) if s != event["chimera"]]
                if not event["chimera_won"]:
                    assert all(event["points"][h] == 11 + taken[h] for h in hunters)
                taken = [0, 0, 0]
        official_state = play_game(Game(official()), random_players(seed), seed)
        assert official_state.events[1:] != state.events[1:]


def test_a_variant_missing_a_rule_the_engine_needs_is_refused_with_its_path():
    spec = dict(official().spec)
    spec["end"] = {}
    rules = chimera_dsl.Rules.from_spec(spec)
    with pytest.raises(VariantError, match="end.target"):
        Game(rules)


# -- the state API --------------------------------------------------------------------------------

def test_clone_is_independent_and_returns_are_zero_until_the_end():
    state = Game(official()).new_game(2)
    act(state, "bid 20", "pass")
    copy = state.clone()
    act(copy, "pass")
    assert state.phase == "bidding" and copy.phase in ("exchange", "play")
    assert len(copy.events) > len(state.events)
    assert state.bidder is None and copy.bidder is not None
    assert state.returns() == [0.0, 0.0, 0.0]
    finished = play_game(Game(official()), random_players(2), 2)
    assert finished.returns() == [float(t) for t in finished.events[-1]["totals"]]
    assert finished.legal_actions() == []
    with pytest.raises(IllegalActionError, match="over"):
        finished.apply_action(PASS)


@pytest.mark.parametrize("path, offered", [("variants/chimera.yaml", False), ("variants/others/tichu.yaml", True),
                                           ("variants/others/gang-of-four.yaml", True),
                                           ("variants/others/president.yaml", False),
                                           ("tests/variants/compose/climbing-called-partner.yaml", False)])
def test_a_clone_in_the_middle_of_a_climbing_round_shares_nothing_of_its_play(path, offered):
    # the climbing play's state (state.climb) is copied with the state: the copy playing on
    # changes nothing of the original's trick, piles taken, seats out, offers (where seats are
    # offered plays out of turn, cloned while more offers wait) or sides
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    game = Game(chimera_dsl.load_variant(os.path.join(root, path)))
    rng = random.Random(4)
    state = game.new_game(4)
    while not (state.kind == "play" and state.trick and any(state.taken) and (state.climb.offers or not offered)):
        state.apply_action(rng.choice(state.legal_actions()))
    climb = state.climb
    before = {name: repr(getattr(climb, name)) for name in type(climb).__slots__}
    legal = list(state.legal_actions())
    copy = state.clone()
    assert copy.climb is not climb
    copy_rng = random.Random(5)
    for _ in range(60):
        if copy.is_terminal():
            break
        copy.apply_action(copy_rng.choice(copy.legal_actions()))
    assert {name: repr(getattr(climb, name)) for name in type(climb).__slots__} == before
    assert state.climb is climb and state.legal_actions() == legal


@pytest.mark.parametrize("path", ["variants/chimera.yaml", "variants/others/mu.yaml", "variants/others/bridge.yaml",
                                  "variants/others/euchre.yaml", "variants/others/skat.yaml",
                                  "variants/others/spades.yaml"])
def test_a_clone_while_a_phase_names_the_bidder_shares_nothing_of_the_rounds_bids(path):
    # the round's bids and bidder (state.round_bid), which a bidding, an auction, a contract
    # auction, an order-up, a solo auction or a bids phase writes, are copied with the state:
    # the copy naming the bidder changes nothing of the original's, which reads them through
    # read-only views
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    game = Game(chimera_dsl.load_variant(os.path.join(root, path)))
    rng = random.Random(4)
    state = game.new_game(4)
    state.apply_action(rng.choice(state.legal_actions()))      # the first call of the phase naming the bidder
    assert state.kind in ("bidding", "auction", "contract", "order_up", "solo", "bids")
    round_bid = state.round_bid
    names = type(round_bid).__slots__
    before = {name: getattr(round_bid, name) for name in names}
    assert before == {"bids": state.bids, "bid": state.bid, "high_bidder": state.high_bidder,
                      "bidder": state.bidder, "others": state.others}
    for seed in range(20):            # (a round of disputes may end the game before anyone is named)
        copy = state.clone()
        assert copy.round_bid is not round_bid
        copy_rng = random.Random(seed)
        while not copy.is_terminal() and copy.round == state.round and \
                {name: getattr(copy.round_bid, name) for name in names} == before:
            copy.apply_action(copy_rng.choice(copy.legal_actions()))
        if not copy.is_terminal() and copy.round == state.round:
            break                         # the copy's bids changed within the round
    assert {name: getattr(copy.round_bid, name) for name in names} != before
    assert {name: getattr(round_bid, name) for name in names} == before and state.round_bid is round_bid
    with pytest.raises(AttributeError):
        state.bidder = 0


def test_an_action_that_is_not_legal_is_refused_with_a_reason():
    rules = variant(DEALER_2)
    state = start(rules, deal(rules, ["5 9", "7 8", "4 6"], nest="10", face_up=("5", 0)), max_rounds=1)
    with pytest.raises(IllegalActionError, match="not a bid level"):
        state.apply_action(bid_action(25))
    script(state, "0 bid 20", "1 pass", "2 pass", "0 play 9")
    play_7 = rules.classify("7")[0]
    with pytest.raises(IllegalActionError, match="does not beat"):
        state.apply_action(Action("play", play=play_7))
    with pytest.raises(IllegalActionError, match="does not hold"):
        state.apply_action(Action("play", play=rules.classify("12")[0]))


# -- invariants over many games -------------------------------------------------------------------

def _conserved(state) -> bool:
    total = sum(state.hands) + sum(state.taken) + state.trick_key
    if state.nest_holder is None:
        total += state.nest
    if state.kind == "transfer" and state.given is not None:
        total += sum(g for h, g in enumerate(state.given) if g is not None and state.received[
            state.others[(state.others.index(h) + 1) % len(state.others)]] is None)
    cards = list(state.held) + [state.trick_cards]
    disjoint = not any(a & b for i, a in enumerate(cards) for b in cards[i + 1:])
    deck = state.game.rules.deck
    same = all(deck.key_of_mask(mask) == hand for mask, hand in zip(state.held, state.hands))
    return total == deck.full_key and disjoint and same


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10 ** 9), st.sampled_from([None, {"play": {"out_of_turn": ["bomb"]}},
                                                 {"bidding": {"passes_to_close": 3}}]))
def test_random_games_conserve_cards_play_legally_and_end(seed, changes):
    rules = variant(changes)
    game = Game(rules, target=200)
    state = game.new_game(seed)
    players = random_players(seed)
    steps = 0
    while not state.is_terminal():
        assert _conserved(state)
        seat = state.current_player()
        state.apply_action(players[seat].act(state.observation(seat), state.legal_actions()))
        steps += 1
        assert steps < 20_000
    previous = None
    for event in state.events:
        if event["type"] == "play":
            play = rules.play_of(rules.deck.parse_key(event["cards"]), event["combination"], event["rank"])
            assert play is not None
            if previous is not None:
                assert rules.can_beat(play, previous)
            previous = play
        elif event["type"] == "trick":
            previous = None
    ends = events_of(state, "round_end")
    assert state.events[-1]["totals"] == ends[-1]["totals"]
    assert max(ends[-1]["totals"]) >= 200
    for end in ends:
        assert sum(end["treasures"]) <= 60
