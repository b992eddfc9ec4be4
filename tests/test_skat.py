"""Skat (variants/others/skat.yaml): each rule of the International Skat Order the file quotes,
shown on a scripted deal, and the located errors of the keys it needs (``kind: solo``).

The deals here are written out: dealer seat 2, so seat 0 is forehand (listens first, leads
first), seat 1 middlehand (says first), seat 2 rearhand.  The play after the bidding is scripted
by a fixed policy (:func:`play_out`): the declarer plays its strongest legal card (its weakest in
a null game), the opponents their weakest; each test checks the card points or tricks its example
needs before reading the score."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from chimera_dsl import load_variant
from chimera_dsl.engine import Deal, Game
from chimera_dsl.errors import IllegalActionError, VariantError

ROOT = Path(__file__).resolve().parents[1]
FILE = ROOT / "variants" / "others" / "skat.yaml"
GAMES = ["diamonds", "hearts", "spades", "clubs", "grand", "null"]

# seat 1 (middlehand) holds the jacks of clubs and spades, not the jack of hearts: "with 2"
WITH_TWO = ["7/diamonds 8/diamonds 9/diamonds K/diamonds 7/hearts 8/hearts 9/hearts A/spades 10/spades J/hearts",
            "J/clubs J/spades A/clubs 10/clubs K/clubs Q/clubs 9/clubs 7/spades 8/spades A/hearts",
            "J/diamonds 8/clubs 7/clubs 9/spades Q/spades K/spades 10/diamonds A/diamonds Q/diamonds K/hearts"]
SKAT = "10/hearts Q/hearts"
# the same, but seat 1 holds the ace and ten of spades instead of the seven and eight: schneider
STRONG = ["7/diamonds 8/diamonds 9/diamonds K/diamonds 7/hearts 8/hearts 9/hearts 7/spades 8/spades J/hearts",
          "J/clubs J/spades A/clubs 10/clubs K/clubs Q/clubs 9/clubs A/spades 10/spades A/hearts",
          WITH_TWO[2]]
# seat 1 holds the four lowest cards of each suit but the nines of spades and clubs: a null hand
NULL = ["A/diamonds K/diamonds Q/diamonds J/diamonds A/hearts K/hearts Q/hearts J/hearts A/spades K/spades",
        "7/diamonds 8/diamonds 9/diamonds 7/hearts 8/hearts 9/hearts 7/spades 8/spades 7/clubs 8/clubs",
        "Q/spades J/spades A/clubs K/clubs Q/clubs J/clubs 10/clubs 9/clubs 10/spades 10/diamonds"]
NULL_SKAT = "10/hearts 9/spades"


def start(hands, skat, path=FILE):
    rules = load_variant(path)
    deck = rules.deck
    masks = tuple(deck.cards_mask(",".join(h.split())) for h in hands)
    deal = Deal(masks, deck.cards_mask(",".join(skat.split())), None)
    return Game(rules).new_game(0, deals=iter([deal] * 4), first_dealer=2)


def act(state, kind: str, **fields):
    for action in state.legal_actions():
        if action.kind == kind and all(getattr(action, k) == v for k, v in fields.items()):
            state.apply_action(action)
            return
    raise AssertionError(f"no legal {kind} {fields}: {state.legal_actions()}")


def card(state, name: str) -> int:
    return 1 << state.game.rules.deck.card_index[name.upper()]


def declare(hands, skat, game: str, *, bid=18, hand=False, lay_away=None, announce=(), path=FILE):
    """Seat 1 bids ``bid``, seat 0 and seat 2 pass; seat 1 takes the skat (lays ``lay_away``, the
    skat's own cards unless said) or plays hand, names ``game`` and announces ``announce``."""
    state = start(hands, skat, path)
    act(state, "bid", bid=bid)
    act(state, "pass")
    act(state, "pass")
    if hand:
        act(state, "hand")
    else:
        act(state, "take")
        for name in (lay_away or skat).split():
            act(state, "card", mask=card(state, name))
    act(state, "game", cards=GAMES.index(game))
    while state.table.solo.stage == "declare":
        offered = state._now.declarations[state.table.solo.offer].name
        if offered in announce:
            act(state, "declare", cards=state.table.solo.offer)
        else:
            act(state, "pass")
    return state


def play_out(state) -> dict:
    """Play the round to its end by the module's policy; its round_end line."""
    number = state.round
    null = state.table.game.no_tricks
    while state.round == number and not state.is_terminal():
        t = state.table

        def strength(action) -> int:
            c = action.mask.bit_length() - 1
            return t.strength[c] + (10_000 if t.suit[c] == t.trump_suit else 0)
        legal = state.legal_actions()
        best = max if state.current_player() == state.bidder and not null else min
        state.apply_action(best(legal, key=strength))
    return [e for e in state.events if e["type"] == "round_end"][-1]


# -- the game value (ISkO 5.1, 5.2, 5.3) ------------------------------------------------------------

def test_with_two_game_three_times_clubs_is_36():
    state = declare(WITH_TWO, SKAT, "clubs")
    assert state.table.tops == 2                     # the jacks of clubs and spades, not hearts
    end = play_out(state)
    assert 61 <= end["treasures"][1] < 90 and end["tricks"][1] < 10       # game, no schneider
    assert end["declarer_won"] is True
    assert end["points"] == [0, 36, 0]


def test_hand_adds_one_multiplier():
    """With 2, game 3, hand 4, times clubs 12 = 48; the skat, untouched, still counts for the soloist."""
    end = play_out(declare(WITH_TWO, SKAT, "clubs", hand=True))
    assert 61 <= end["treasures"][1] < 90
    assert end["points"] == [0, 48, 0]


def test_schneider_adds_one_multiplier():
    """With 2, game 3, schneider 4, times clubs 12 = 48."""
    end = play_out(declare(STRONG, SKAT, "clubs"))
    assert end["treasures"][1] >= 90 and end["tricks"][1] < 10
    assert end["points"] == [0, 48, 0]


def test_an_overbid_game_is_lost_at_the_lowest_multiple_of_its_base_reaching_the_bid():
    """Bid 40, clubs with 2 is worth 36: overbid, lost whatever the card points; 4 x 12 = 48 is
    the lowest multiple of 12 reaching 40, lost twice: -96."""
    end = play_out(declare(WITH_TWO, SKAT, "clubs", bid=40))
    assert end["treasures"][1] >= 61
    assert end["declarer_won"] is False
    assert end["points"] == [0, -96, 0]


def test_without_three_game_four_times_spades_is_44():
    """The soloist's best trump is the jack of diamonds: without the three jacks above it."""
    hands = ["J/clubs 7/diamonds 8/diamonds 9/diamonds K/diamonds 7/hearts 8/hearts 9/hearts Q/hearts K/hearts",
             "J/diamonds A/spades 10/spades K/spades Q/spades 9/spades 8/spades A/hearts 10/hearts A/clubs",
             "J/spades J/hearts 7/spades 7/clubs 8/clubs 9/clubs Q/clubs K/clubs 10/diamonds A/diamonds"]
    state = declare(hands, "10/clubs Q/diamonds", "spades")
    assert state.table.tops == 3
    end = play_out(state)
    assert 61 <= end["treasures"][1] < 90, end
    assert end["points"] == [0, 44, 0]


def test_the_tops_count_the_skat():
    """The jack of clubs found in the skat makes the soloist's hand "with 1" (ISkO 2.4: the tops
    are counted over the soloist's cards and the skat)."""
    hands = [WITH_TWO[0], WITH_TWO[1].replace("J/clubs", "10/hearts"), WITH_TWO[2]]
    state = declare(hands, "J/clubs Q/hearts", "clubs", lay_away="10/hearts Q/hearts")
    assert state.table.tops == 2
    hand = declare(hands, "J/clubs Q/hearts", "clubs", hand=True)
    assert hand.table.tops == 2                      # in a hand game too: the skat is the soloist's


@pytest.mark.parametrize("hand, ouvert, value", [(False, False, 23), (True, False, 35), (False, True, 46),
                                                  (True, True, 59)])
def test_null_values(hand, ouvert, value):
    """ISkO 5.1: null 23, null hand 35, null ouvert 46, null ouvert hand 59."""
    state = declare(NULL, NULL_SKAT, "null", hand=hand, announce=("ouvert",) if ouvert else ())
    if ouvert:                                       # the soloist's cards face up for every seat
        seen = state.observation(0).table["exposed"]
        assert seen == {1: state.held[1]}
    else:
        assert state.observation(0).table["exposed"] == {}
    end = play_out(state)
    assert end["tricks"][1] == 0 and sum(end["tricks"]) == 10
    assert end["points"] == [0, value, 0]


def test_a_null_game_is_lost_at_the_soloists_first_trick():
    """The soloist who takes a trick at null has lost: the play stops there, 2 x 23 = -46."""
    state = declare(STRONG, SKAT, "null")
    number = state.round
    while state.round == number:                     # the soloist plays its strongest cards
        t = state.table
        legal = state.legal_actions()
        pick = max if state.current_player() == 1 else min
        state.apply_action(pick(legal, key=lambda a: t.strength[a.mask.bit_length() - 1]))
    end = [e for e in state.events if e["type"] == "round_end"][-1]
    assert end["tricks"][1] == 1 and sum(end["tricks"]) < 10
    assert end["points"] == [0, -46, 0]


def test_announced_schneider_must_reach_90():
    """Clubs hand, schneider announced: with 2, game 3, hand 4, schneider 5, announced 6 = 72 when
    the soloist takes 90; short of 90 it loses, and the announced multiplier still counts."""
    won = play_out(declare(STRONG, SKAT, "clubs", hand=True, announce=("schneider",)))
    assert won["treasures"][1] >= 90 and won["points"] == [0, 72, 0]
    lost = play_out(declare(WITH_TWO, SKAT, "clubs", hand=True, announce=("schneider",)))
    assert 61 <= lost["treasures"][1] < 90
    assert lost["points"] == [0, -2 * 12 * 5, 0]     # with 2, game 3, hand 4, announced 5


def test_ouvert_in_a_suit_game_needs_hand_and_schwarz_announced():
    state = declare(WITH_TWO, SKAT, "clubs")         # skat taken: nothing to announce
    assert state.table.solo.said == ()
    state = start(WITH_TWO, SKAT)
    act(state, "bid", bid=18)
    act(state, "pass")
    act(state, "pass")
    act(state, "hand")
    act(state, "game", cards=GAMES.index("clubs"))
    names = state._now.declarations
    assert names[state.table.solo.offer].name == "schneider"
    act(state, "pass")                               # no schneider: neither schwarz nor ouvert is offered
    assert state.table.solo.stage == "done" and state.kind == "tricks"


def test_the_card_points_make_120_with_the_skat():
    """ISkO 1.2.2: A 11, 10 10, K 4, Q 3, J 2: 30 a suit, 120 in all; the skat is the soloist's."""
    end = play_out(declare(WITH_TWO, SKAT, "clubs"))
    assert sum(end["treasures"]) == 120


# -- the bidding (ISkO 3.3) -----------------------------------------------------------------------

def test_middlehand_says_to_forehand_then_rearhand_to_the_one_left():
    state = start(WITH_TWO, SKAT)
    assert state.current_player() == 1               # middlehand says first
    legal = state.legal_actions()
    assert legal[0].kind == "pass" and [a.bid for a in legal[1:4]] == [18, 20, 22]
    act(state, "bid", bid=20)
    assert state.current_player() == 0               # forehand listens: holds or passes
    assert sorted(a.kind for a in state.legal_actions()) == ["hold", "pass"]
    act(state, "hold")
    assert state.current_player() == 1 and min(a.bid for a in state.legal_actions() if a.kind == "bid") == 22
    act(state, "pass")                               # middlehand is out; rearhand says to forehand
    assert state.current_player() == 2 and min(a.bid for a in state.legal_actions() if a.kind == "bid") == 22
    act(state, "bid", bid=23)
    assert state.current_player() == 0
    act(state, "hold")
    act(state, "pass")                               # rearhand passes: forehand plays at 23
    assert state.bidder == 0 and state.bid == 23
    assert sorted(a.kind for a in state.legal_actions()) == ["hand", "take"]
    with pytest.raises(IllegalActionError, match="takes the stock"):
        state.apply_action(state.legal_actions()[0]._replace(kind="hold"))


def test_forehand_may_play_when_the_others_pass_without_a_bid():
    state = start(WITH_TWO, SKAT)
    act(state, "pass")
    act(state, "pass")
    assert state.current_player() == 0
    act(state, "bid", bid=18)
    assert state.bidder == 0 and state.bid == 18


def test_all_passing_throws_the_game_in():
    state = start(WITH_TWO, SKAT)
    for _ in range(3):
        act(state, "pass")
    end = [e for e in state.events if e["type"] == "round_end"][-1]
    assert end["void"] and end["points"] == [0, 0, 0]
    assert state.round == 2 and state.dealer == 0    # the next dealer deals


# -- the play (ISkO 2.3, 4.2) ----------------------------------------------------------------------

def test_a_jack_led_asks_for_a_trump_and_a_suit_led_not_for_its_jack():
    state = declare(WITH_TWO, SKAT, "clubs")
    deck = state.game.rules.deck
    act(state, "card", mask=card(state, "J/hearts"))              # forehand leads a jack: a trump
    legal = sorted(deck.card_names[a.mask.bit_length() - 1] for a in state.legal_actions())
    assert legal == ["10/clubs", "9/clubs", "A/clubs", "J/clubs", "J/spades", "K/clubs", "Q/clubs"]
    act(state, "card", mask=card(state, "9/clubs"))
    legal = sorted(deck.card_names[a.mask.bit_length() - 1] for a in state.legal_actions())
    assert legal == ["7/clubs", "8/clubs", "J/diamonds"]          # rearhand's trumps


def test_at_null_the_jacks_belong_to_their_suits_and_rank_between_queen_and_ten():
    state = declare(NULL, NULL_SKAT, "null")
    deck = state.game.rules.deck
    act(state, "card", mask=card(state, "J/diamonds"))
    legal = sorted(deck.card_names[a.mask.bit_length() - 1] for a in state.legal_actions())
    assert legal == ["7/diamonds", "8/diamonds", "9/diamonds"]   # diamonds are followed
    t = state.table
    assert t.strength[deck.card_index["J/DIAMONDS"]] > t.strength[deck.card_index["10/DIAMONDS"]]
    assert t.strength[deck.card_index["J/DIAMONDS"]] < t.strength[deck.card_index["Q/DIAMONDS"]]


# -- the heuristic ----------------------------------------------------------------------------------

def test_the_heuristic_beats_random_players():
    from chimera_dsl.players import make_player
    rules = load_variant(FILE)
    game = Game(rules)
    totals = {"heuristic": 0, "random": 0}
    rng = random.Random(5)
    for seed in range(40):
        seat = seed % 3
        players = [make_player("heuristic" if s == seat else "random", seed=rng.randrange(1 << 30))
                   for s in range(3)]
        state = game.new_game(seed)
        while not state.is_terminal() and state.round <= 3:        # three deals a game
            p = state.current_player()
            state.apply_action(players[p].act(state.observation(p), state.legal_actions()))
        for s in range(3):
            totals["heuristic" if s == seat else "random"] += state.totals[s]
    assert totals["heuristic"] > totals["random"] / 2            # per player: two random ones a game


# -- located errors -------------------------------------------------------------------------------

def _broken(tmp_path, change: dict) -> str:
    path = tmp_path / "broken.yaml"
    path.write_text(yaml.safe_dump({"extends": str(FILE), **change}))
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    return str(caught.value)


def test_errors_are_located(tmp_path):
    assert "bids.2" in _broken(tmp_path, {"phases": {"bidding": {"kind": "solo", "bids": [18, 20, 19]}}})
    assert "no card of the deck" in _broken(tmp_path, {"phases": {"bidding": {"kind": "solo", "games": {
        "grand": {"top_trumps": ["J/stars"]}}}}})
    assert "not a declaration written before" in _broken(tmp_path, {"phases": {"bidding": {
        "kind": "solo", "declarations": {"schneider": {"needs": "ouvert"}}}}})
    assert "play.teams" in _broken(tmp_path, {"play": {"teams": [[0, 1], [2]]}})
    assert "unknown key 'trumps'" in _broken(tmp_path, {"phases": {"bidding": {"kind": "solo", "games": {
        "grand": {"trumps": "none"}}}}})


def test_the_skat_laid_away_is_hidden_from_the_opponents_until_the_score():
    """The opponents' observations show nothing of the cards laid away (nor their points) before
    the round is scored, and an opponent's imagined worlds (a search player's) deal them again
    among its hidden cards, every card once; the soloist sees its skat."""
    state = declare(WITH_TWO, SKAT, "clubs")
    deck = state.game.rules.deck
    skat = deck.cards_mask(",".join(SKAT.split()))
    assert state.nest_cards == skat
    for seat in (0, 2):
        view = state.observation(seat)
        assert view.nest is None
        assert not any(t & skat for t in view.table["taken"]) and view.table["points"] == [0, 0, 0]
    assert state.observation(1).nest is not None
    rng = random.Random(1)
    moved = 0
    for _ in range(40):
        world = state.resample(0, rng)
        masks = [world.held[s] for s in range(3)] + [world.nest_cards]
        assert sum(bin(m).count("1") for m in masks) == 32 and len(set(masks)) == 4
        assert all(a & b == 0 for i, a in enumerate(masks) for b in masks[i + 1:])
        assert world.held[0] == state.held[0] and bin(world.nest_cards).count("1") == 2
        moved += world.nest_cards != skat
    assert moved > 0                                 # the opponent cannot know which cards they were
