"""Contract bridge (variants/others/bridge.yaml): each rule of the Laws by its example, and the
language it brought (a ``contract`` phase: levels, strains, double, redouble, the declarer, the
dummy, the vulnerability; the contract's facts in scoring) refused where it is misused, at its
place.

Deals are injected (each seat's named cards); calls and cards are scripted and the legal
actions read from the engine.  North is seat 0, East 1, South 2, West 3; North deals board 1.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from chimera_dsl import load_variant
from chimera_dsl.engine import PASS, Deal, Game
from chimera_dsl.engine.phases.contract import DOUBLE, REDOUBLE
from chimera_dsl.errors import IllegalActionError, VariantError

ROOT = Path(__file__).resolve().parents[1]
BASE = ROOT / "variants" / "others" / "bridge.yaml"
STRAINS = ["clubs", "diamonds", "hearts", "spades", "none"]
SUIT_HANDS = {                      # each seat one whole suit: every trick's outcome is known
    "clubs": 0, "spades": 1, "hearts": 2, "diamonds": 3}


@pytest.fixture(scope="module")
def bridge():
    return load_variant(BASE)


def hands_of(deck, suits: dict) -> Deal:
    """Each seat the whole suit named for it."""
    hands = [0] * 4
    for suit, seat in suits.items():
        hands[seat] = deck.cards_mask(" ".join(f"{r}/{suit}" for r in deck.ranks))
    return Deal(tuple(hands), 0, None)


def random_deal(deck, seed: int) -> Deal:
    cards = list(range(len(deck.cards)))
    random.Random(seed).shuffle(cards)
    return Deal(tuple(sum(1 << c for c in cards[13 * s:13 * s + 13]) for s in range(4)), 0, None)


def started(rules, deal: Deal):
    return Game(rules).new_game(0, deals=iter([deal] * 40), first_dealer=0)


def bid(level: int, strain: str):
    from chimera_dsl.engine import Action
    return Action("bid", bid=(level - 1) * 5 + STRAINS.index(strain))


def call(state, *actions) -> None:
    for action in actions:
        state.apply_action(action)


def play_out(state, rng: random.Random) -> dict:
    """Play random legal cards until the round ends; its round_end line."""
    seen = len(state.events)
    while True:
        for e in state.events[seen:]:
            if e["type"] == "round_end":
                return e
        seen = len(state.events)
        state.apply_action(rng.choice(state.legal_actions()))


def law77(level: int, strain: str, doubled: int, vulnerable: bool, tricks: int) -> int:
    """The Laws' duplicate score of the declarer's side, from the table (written out here apart
    from the file's expressions)."""
    if level == 0:
        return 0
    need = 6 + level
    times = (1, 2, 4)[doubled]
    if tricks >= need:
        per = 20 if strain in ("clubs", "diamonds") else 30
        trick_score = (level * per + (10 if strain == "none" else 0)) * times
        over = tricks - need
        over_score = over * per if not doubled else over * (200 if vulnerable else 100) * (times // 2)
        insult = (0, 50, 100)[doubled]
        bonus = (500 if vulnerable else 300) if trick_score >= 100 else 50
        slam = {6: 750 if vulnerable else 500, 7: 1500 if vulnerable else 1000}.get(level, 0)
        return trick_score + over_score + insult + bonus + slam
    down = need - tricks
    if not doubled:
        return -down * (100 if vulnerable else 50)
    if vulnerable:
        lost = 200 + 300 * (down - 1)
    else:
        lost = [100, 300, 500][min(down, 3) - 1] + 300 * max(down - 3, 0)
    return -lost * (times // 2)


def test_the_table_of_law_77_by_its_examples():
    # the scores every bridge scorecard prints
    assert law77(4, "spades", 0, False, 10) == 420
    assert law77(3, "none", 0, False, 9) == 400
    assert law77(3, "none", 0, True, 10) == 630
    assert law77(2, "hearts", 0, False, 9) == 140
    assert law77(1, "none", 1, False, 7) == 180
    assert law77(6, "spades", 0, True, 12) == 1430
    assert law77(7, "none", 2, True, 13) == 2980
    assert law77(4, "hearts", 1, False, 7) == -500
    assert law77(4, "hearts", 1, True, 7) == -800
    assert law77(2, "clubs", 2, False, 6) == -600


def test_the_dealer_calls_first_and_a_bid_must_be_higher(bridge):
    state = started(bridge, random_deal(bridge.deck, 1))
    assert state.phase == "auction" and state.current_player() == 0
    legal = state.legal_actions()
    assert legal[0] == PASS and DOUBLE not in legal and len(legal) == 1 + 35
    call(state, bid(2, "hearts"))
    assert state.current_player() == 1
    legal = state.legal_actions()
    assert bid(2, "hearts") not in legal and bid(2, "spades") in legal and bid(2, "diamonds") not in legal
    assert bid(3, "clubs") in legal
    with pytest.raises(IllegalActionError, match="must bid higher than 2 hearts"):
        state.apply_action(bid(1, "none"))


def test_double_only_an_opponents_bid_and_redouble_only_a_double_of_ones_own(bridge):
    state = started(bridge, random_deal(bridge.deck, 2))
    call(state, bid(1, "clubs"))
    assert DOUBLE in state.legal_actions() and REDOUBLE not in state.legal_actions()     # East
    call(state, PASS)
    assert DOUBLE not in state.legal_actions()                                           # South: its side's bid
    with pytest.raises(IllegalActionError, match="may not double its own side's bid"):
        state.apply_action(DOUBLE)
    call(state, PASS)
    call(state, DOUBLE)                                                                  # West doubles
    assert REDOUBLE in state.legal_actions() and DOUBLE not in state.legal_actions()     # North
    call(state, PASS)
    assert REDOUBLE not in state.legal_actions()                                         # East: its own side's double
    call(state, PASS)
    call(state, REDOUBLE)                                                                # South redoubles
    call(state, PASS, PASS, PASS)
    contract = [e for e in state.events if e["type"] == "contract"][-1]
    assert contract == {"type": "contract", "round": 1, "declarer": 0, "contract": "1 clubs", "doubled": 2}


def test_four_passes_pass_the_deal_out_and_it_scores_nothing(bridge):
    state = started(bridge, random_deal(bridge.deck, 3))
    call(state, PASS, PASS, PASS)
    assert state.phase == "auction"
    call(state, PASS)
    end = [e for e in state.events if e["type"] == "round_end"][-1]
    assert end["points"] == [0, 0, 0, 0] and end["tricks"] == [0, 0, 0, 0]
    assert state.round == 2 and state.dealer == 1 and state.current_player() == 1      # the next board


def test_the_declarer_first_named_the_strain_and_its_left_leads(bridge):
    state = started(bridge, random_deal(bridge.deck, 4))
    # North 1 hearts, South raises to 2 hearts: North, who named hearts first, declares
    call(state, bid(1, "hearts"), PASS, bid(2, "hearts"), PASS, PASS, PASS)
    assert state.bidder == 0 and state.phase == "play"
    assert state.current_player() == 1                     # East, the declarer's left, leads
    assert state.table.layers[0] == ("colour", bridge.deck.colours.index("hearts"))


def test_the_dummy_is_exposed_after_the_opening_lead_and_played_by_the_declarer(bridge):
    deal = random_deal(bridge.deck, 5)
    state = started(bridge, deal)
    call(state, bid(1, "none"), PASS, PASS, PASS)          # North declares: South is the dummy
    for seat in range(4):
        assert state.observation(seat).table["exposed"] == {}           # before the opening lead
    state.apply_action(state.legal_actions()[0])                        # East leads
    for seat in range(4):
        exposed = state.observation(seat).table["exposed"]
        assert exposed == {2: state.held[2]}                            # South's cards, to every seat
        assert set(exposed) == {2}                                      # and no other hand
    assert state.current_player() == 0                                  # South's turn: North decides
    cards = {a.mask for a in state.legal_actions()}
    assert all(mask & state.held[2] == mask for mask in cards)          # from South's hand
    state.apply_action(state.legal_actions()[0])
    line = [e for e in state.events if e["type"] == "card"][-1]
    assert line["seat"] == 2                                            # the record: South's card
    assert state.current_player() == 3


def test_a_grand_slam_made_and_a_contract_going_down_score_by_law_77(bridge):
    deck = bridge.deck
    # North holds every club: 7 clubs takes all 13 tricks, not vulnerable on board 1
    state = started(bridge, hands_of(deck, SUIT_HANDS))
    call(state, bid(7, "clubs"), PASS, PASS, PASS)
    end = play_out(state, random.Random(0))
    assert end["points"] == [1440, -1440, 1440, -1440] == [law77(7, "clubs", 0, False, 13) * s for s in (1, -1, 1, -1)]
    # 1 no trump by North, doubled: East runs its thirteen spades, North's side takes nothing
    state = started(bridge, hands_of(deck, SUIT_HANDS))
    call(state, bid(1, "none"), DOUBLE, PASS, PASS, PASS)
    end = play_out(state, random.Random(0))
    assert end["points"][0] == law77(1, "none", 1, False, 0) == -1700
    assert end["points"][1] == 1700


@pytest.mark.parametrize("calls, board", [
    ([bid(4, "spades"), PASS, PASS, PASS], 1),
    ([bid(3, "none"), PASS, PASS, PASS], 2),
    ([bid(1, "none"), DOUBLE, PASS, PASS, PASS], 3),
    ([bid(2, "hearts"), DOUBLE, REDOUBLE, PASS, PASS, PASS], 4),
    ([PASS, bid(6, "diamonds"), PASS, PASS, PASS], 7),
])
def test_random_play_scores_by_the_table_with_the_boards_vulnerability(bridge, calls, board):
    """The vulnerability of board b (the Laws' table of 16 boards): 1 none, 2 North-South,
    3 East-West, 4 both, ... 7 both."""
    vulnerable = {1: (False, False), 2: (True, False), 3: (False, True), 4: (True, True), 7: (True, True)}[board]
    rng = random.Random(board)
    game = Game(bridge)
    state = game.new_game(0, deals=iter([random_deal(bridge.deck, board)] * 40), first_dealer=0)
    for _ in range(board - 1):                       # pass the boards before out
        call(state, PASS, PASS, PASS, PASS)
    assert state.round == board
    call(state, *calls)
    contract = [e for e in state.events if e["type"] == "contract"][-1]
    declarer = contract["declarer"]
    level, strain = contract["contract"].split()
    end = play_out(state, rng)
    tricks = end["tricks"][declarer] + end["tricks"][(declarer + 2) % 4]
    expected = law77(int(level), strain, contract["doubled"], vulnerable[declarer % 2], tricks)
    assert end["points"][declarer] == expected and end["points"][(declarer + 1) % 4] == -expected


def test_replay_reads_the_auction_back(bridge, tmp_path):
    from chimera_dsl.players import make_player, play_game
    from chimera_dsl.tell.record import replay
    state = play_game(Game(bridge, max_rounds=3), [make_player("heuristic", s) for s in range(4)], 7)
    again = replay(list(state.events), bridge)
    assert again.totals == state.totals
    events = list(state.events)
    i = next(k for k, e in enumerate(events) if e["type"] == "contract" and e["contract"])
    events[i] = {**events[i], "doubled": (events[i]["doubled"] + 1) % 3}
    from chimera_dsl.errors import RecordError
    with pytest.raises(RecordError):
        replay(events, bridge)


def test_the_heuristic_beats_random_players(bridge):
    from chimera_dsl.players import make_player, play_game
    game = Game(bridge, max_rounds=8)
    ahead = 0
    for seed in range(6):
        side = seed % 2
        players = [make_player("heuristic" if s % 2 == side else "random", seed * 10 + s) for s in range(4)]
        state = play_game(game, players, seed)
        ahead += state.totals[side] > state.totals[1 - side]
    assert ahead == 6


@pytest.mark.parametrize("changes, where, message", [
    ({"phases": {"auction": {"strains": ["clubs", "stars"]}}}, ("phases", "auction", "strains", 1),
     "neither a colour of the deck nor none"),
    ({"phases": {"auction": {"strains": ["clubs", "clubs"]}}}, ("phases", "auction", "strains", 1), "twice"),
    ({"phases": {"auction": {"levels": [3, 1]}}}, ("phases", "auction", "levels"), "lowest and highest level"),
    ({"phases": {"auction": {"passes_to_end": 4}}}, ("phases", "auction", "passes_to_end"), "1 to 3 passes"),
    ({"phases": {"auction": {"vulnerable": "board == 2"}}}, ("phases", "auction", "vulnerable"),
     "unknown name 'board'"),
    ({"play": {"teams": None}}, ("phases", "auction", "dummy"), "play.teams forms no teams"),
    ({"scoring": {"points": {"each": {"x": "contract_tier"}}}}, ("scoring", "points", "each", "x"),
     "contract_tier"),
])
def test_misuses_are_refused_at_their_place(tmp_path, changes, where, message):
    import yaml
    path = tmp_path / "mine.yaml"
    path.write_text(yaml.safe_dump({"extends": str(BASE), **changes}))
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    problems = caught.value.problems
    assert any(message in p.message and tuple(p.path)[:len(where)] == where for p in problems), \
        [(p.path, p.message) for p in problems]


def test_the_worlds_a_seat_imagines_keep_the_dummys_cards_with_the_dummy(bridge):
    state = started(bridge, random_deal(bridge.deck, 6))
    call(state, bid(1, "spades"), PASS, PASS, PASS)        # North declares, South is the dummy
    state.apply_action(state.legal_actions()[0])          # the opening lead: the dummy goes face up
    rng = random.Random(0)
    for seat in (1, 3, 0):
        for _ in range(5):
            world = state.resample(seat, rng)
            assert world.held[2] == state.held[2]
            assert world.held[seat] == state.held[seat]
