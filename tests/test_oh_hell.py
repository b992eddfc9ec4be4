"""Oh Hell (variants/others/oh-hell*.yaml): each published rule by its example, and the
language it brought (a ``bids`` phase, ``deal.hand_by_round``, ``deal.turn_up``, ``play.trump:
turned``, ``own_bid``) refused where it is misused, at its place.

Deals are injected (each seat's named cards, the turned card); bids and cards are scripted and
the legal actions read from the engine.
"""
from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest

from chimera_dsl import load_variant
from chimera_dsl.engine import Deal, Game
from chimera_dsl.engine.phases.bids import bid_of
from chimera_dsl.errors import IllegalActionError, VariantError
from chimera_dsl.rules import Rules
from scripted import write  # noqa: E402  (the helpers next to this file)

ROOT = Path(__file__).resolve().parents[1]
BASE = ROOT / "variants" / "others" / "oh-hell.yaml"


@pytest.fixture(scope="module")
def oh_hell():
    return load_variant(BASE)


def changed(rules, changes: dict) -> Rules:
    """``rules`` with some keys changed (nested dicts merged key by key; None removes)."""
    spec = copy.deepcopy(rules.spec)

    def merge(base, more):
        for key, value in more.items():
            if value is None:
                base.pop(key, None)
            elif isinstance(value, dict) and isinstance(base.get(key), dict):
                merge(base[key], value)
            else:
                base[key] = value
    merge(spec, changes)
    return Rules.from_spec(spec, path=rules.path, source_hash="test:oh-hell")


def deal_of(deck, hands: list[str], turned: str) -> Deal:
    """Each seat exactly the cards named, and the turned card (held by nobody)."""
    return Deal(tuple(deck.cards_mask(h) for h in hands), 0, (deck.card_index[turned.upper()], None))


def started(rules, hands: list[str], turned: str, dealer: int = 3):
    game = Game(rules)
    return game.new_game(0, deals=iter([deal_of(rules.deck, hands, turned)] * 40), first_dealer=dealer)


def card(state, name: str):
    for action in state.legal_actions():
        if action.kind == "card" and state.game.rules.deck.card_names[action.mask.bit_length() - 1] == name:
            return action
    raise AssertionError(f"{name} is not legal: {[a for a in state.legal_actions()]}")


def test_the_hands_go_down_from_ten_to_one_and_back_up(oh_hell):
    """"In each subsequent round, the dealer deals 1 card LESS ... until after the 1 card, then
    ... 1 card MORE ... until the starting number of cards are dealt": 19 hands."""
    game = Game(oh_hell)
    state = game.new_game(1)
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    sizes = [len(e["hands"][0]) for e in state.events if e["type"] == "deal"]
    assert sizes == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    for path, first, rounds in (("oh-hell-6.yaml", 8, 15), ("oh-hell-7.yaml", 7, 13)):
        rules = load_variant(BASE.parent / path)
        assert Game(rules).round.deal.by_round[0] == first and rules.spec["end"]["rounds"] == rounds


def test_the_turned_card_is_seen_by_all_and_its_colour_is_trump(oh_hell):
    """"After the dealing is complete, the next card is turned face up, and the suit of this card
    determines the trump suit": the turned card is in no hand, every seat sees it, and a trump
    takes a trick led in another colour."""
    game = Game(oh_hell)
    state = game.new_game(4)
    line = next(e for e in state.events if e["type"] == "deal")
    turned = line["face_up"]
    assert turned["seat"] is None and all(turned["card"] not in hand for hand in line["hands"])
    assert {state.observation(s).face_up_card for s in range(4)} == {turned["card"]}
    assert state.observation(0).table["trumps"] == [turned["card"].split("/")[1]]
    hands = ["2/clubs", "3/clubs", "2/hearts", "4/clubs"] + [""] * 0
    rules = changed(oh_hell, {"deal": {"hand_by_round": [1]}})
    state = started(rules, hands, "A/hearts", dealer=3)
    for _ in range(4):
        state.apply_action(state.legal_actions()[0])
    for seat, name in ((0, "2/clubs"), (1, "3/clubs"), (2, "2/hearts"), (3, "4/clubs")):
        assert state.current_player() == seat
        state.apply_action(card(state, name))
    trick = next(e for e in state.events if e["type"] == "trick")
    assert trick["winner"] == 2                     # the 2 of hearts, a trump, over the clubs


def test_bids_start_at_the_dealers_left_and_every_seat_bids_once(oh_hell):
    """"The player to the left of the dealer bids first"; each bids from 0 to the cards in hand,
    and "the player to the left of the dealer makes the opening lead"."""
    rules = changed(oh_hell, {"deal": {"hand_by_round": [2]}})
    hands = ["2/clubs 3/clubs", "4/clubs 5/clubs", "6/clubs 7/clubs", "8/clubs 9/clubs"]
    state = started(rules, hands, "A/hearts", dealer=1)
    order = []
    while state.phase == "bidding":
        order.append(state.current_player())
        assert [a.bid for a in state.legal_actions()][:2] == [0, 1]
        state.apply_action(bid_of(0) if len(order) < 4 else state.legal_actions()[0])
    assert order == [2, 3, 0, 1]
    assert state.phase == "play" and state.current_player() == 2
    assert [b for _, b, _ in state.observation(0).bids] == [0, 0, 0, 0]


def _dealer_may_bid(oh_hell, first_three: list[int]) -> list[int]:
    rules = changed(oh_hell, {"deal": {"hand_by_round": [5]}})
    deck = rules.deck
    names = [c for c in deck.card_names]
    hands = [" ".join(names[s * 5:(s + 1) * 5]) for s in range(4)]
    state = started(rules, hands, names[-1], dealer=3)
    for bid in first_three:
        state.apply_action(bid_of(bid))
    assert state.current_player() == 3              # the dealer bids last
    return [a.bid for a in state.legal_actions()]


def test_the_dealer_may_not_make_the_bids_add_up_to_the_tricks(oh_hell):
    """"if five cards are dealt, and the first three bids are two, zero, and one, then the dealer
    may not bid two.  However, if ... the first three bids are three, one, and two, then the dealer
    is free to make any bid.\""""
    assert _dealer_may_bid(oh_hell, [2, 0, 1]) == [0, 1, 3, 4, 5]
    assert _dealer_may_bid(oh_hell, [3, 1, 2]) == [0, 1, 2, 3, 4, 5]
    rules = changed(oh_hell, {"deal": {"hand_by_round": [5]}})
    names = list(rules.deck.card_names)
    state = started(rules, [" ".join(names[s * 5:(s + 1) * 5]) for s in range(4)], names[-1], dealer=3)
    for bid in (2, 0, 1):
        state.apply_action(bid_of(bid))
    with pytest.raises(IllegalActionError, match=r"may not bid 2: bidding.must\[0\]"):
        state.apply_action(bid_of(2))


def test_a_trick_a_point_and_ten_for_the_exact_bid(oh_hell):
    """"You score one point for each trick made and a bonus of 10 if you make the exact amount of
    tricks bid": seat 0 bids 1 and takes 1 (11), seat 1 bids 1 and takes none (0)."""
    rules = changed(oh_hell, {"deal": {"hand_by_round": [1]}})
    state = started(rules, ["A/clubs", "2/clubs", "3/clubs", "4/clubs"], "2/hearts", dealer=3)
    for bid in (1, 1, 0, 0):                       # seats 0, 1, 2, 3; the dealer's 0 makes 2 of 1
        state.apply_action(bid_of(bid))
    for name in ("A/clubs", "2/clubs", "3/clubs", "4/clubs"):
        state.apply_action(card(state, name))
    end = next(e for e in state.events if e["type"] == "round_end")
    assert end["tricks"] == [1, 0, 0, 0]
    assert end["points"] == [11, 0, 10, 10]


def test_the_heuristic_makes_more_contracts_than_random_players(oh_hell):
    """The default player bids the tricks its hand is expected to take and plays to make them."""
    from chimera_dsl.players import parse_players, play_game
    game = Game(oh_hell)
    made = {"heuristic": 0, "random": 0}
    seen = {"heuristic": 0, "random": 0}
    for g in range(3):
        names = ["random"] * 4
        names[g % 4] = "heuristic"
        state = play_game(game, parse_players(",".join(names), 4, g), g)
        bids: dict = {}
        for e in state.events:
            if e["type"] == "bid":
                bids[e["seat"]] = e["bid"]
            elif e["type"] == "round_end":
                for s in range(4):
                    seen[names[s]] += 1
                    made[names[s]] += e["tricks"][s] == bids[s]
    assert made["heuristic"] / seen["heuristic"] > 1.5 * made["random"] / seen["random"]


@pytest.mark.parametrize("changes, where, message", [
    ({"play": {"kind": "play", "follow": None, "plain_order": None, "trump": None},
      "combinations": {"single": {"pattern": "single of any"}}},
     ("phases", "bidding", "kind"), "needs a play of tricks to bid"),
    ({"phases": {"bidding": {"must": [{"when": "bid > 0", "bid": "true"}]}}},
     ("phases", "bidding", "must", 0, "when"), "'bid' is the bid considered"),
    ({"phases": {"bidding": {"must": [{"bid": "tricks_left > 0"}]}}},
     ("phases", "bidding", "must", 0, "bid"), "unknown name 'tricks_left'"),
    ({"deal": {"hand_by_round": [11]}}, ("deal", "hand_by_round", 0), "a round's hand is 1 to deal.hand"),
    ({"deal": {"hand": 13, "hand_by_round": [13]}}, ("deal", "turn_up"), "leaves no card"),
    ({"deal": {"turn_up": False}}, ("play", "trump"), "the deal turns no card face up"),
    ({"scoring": {"facts": {"mine": "own_bid"}}}, ("scoring", "facts", "mine"), "'own_bid' is each seat's own"),
    ({"round": ["deal", "bidding", "swap", "play", "scoring"],
      "phases": {"swap": {"kind": "transfer", "from": "each", "to": "left", "count": 1,
                          "must": [{"bid": "bid > 0"}]}}},
     ("phases", "swap", "must"), "a phase of kind transfer asks for none"),
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


def test_a_term_reads_the_seats_total_before_the_round(tmp_path):
    """``total`` in a seat's term of a trick-taking round: the seat's total before the round (a
    tax of 1 on every seat at 10 points or more, checked against the totals round by round)."""
    import yaml
    path = tmp_path / "taxed.yaml"
    path.write_text(yaml.safe_dump({"extends": str(BASE),
                                    "scoring": {"points": {"each": {"tax": "if total >= 10 then -1 else 0"}}}}))
    rules = load_variant(path)
    state = Game(rules, max_rounds=6).new_game(2)
    rng = random.Random(2)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    before = [0, 0, 0, 0]
    taxed = 0
    for e in state.events:
        if e["type"] == "round_end":
            for s in range(4):
                assert (["tax", -1] in e["parts"][s]) == (before[s] >= 10)
                taxed += before[s] >= 10
            before = list(e["totals"])
    assert taxed > 0


def test_a_hand_that_deals_every_card_turns_none_and_is_played_without_trump(tmp_path):
    # pagat's Oh Hell at four up to thirteen cards: "when all the cards are dealt there are no trumps"
    path = write(tmp_path, f"extends: {ROOT / 'variants' / 'others' / 'oh-hell.yaml'}\n"
                              "deal: {hand: 13, hand_by_round: [13, 12]}\nend: {rounds: 2}\n")
    game = Game(load_variant(path))
    rng = random.Random(4)
    for seed in range(6):
        state = game.new_game(seed)
        checked = set()
        while not state.is_terminal():
            if state.kind == "tricks" and state.round not in checked:
                checked.add(state.round)
                deal = [e for e in state.events if e["type"] == "deal"][-1]
                if state.round == 1:          # 52 cards to four seats: none left to turn, no trump
                    assert deal["face_up"] is None and state.face_up_card is None
                    assert state.table.trump_mask == 0
                else:                         # 48 dealt: the next card turned, its colour trump
                    colour = deal["face_up"]["card"].split("/")[1]
                    trumps = {state.game.rules.deck.card_names[c].split("/")[1]
                              for c in range(52) if state.table.trump_mask >> c & 1}
                    assert trumps == {colour}
            state.apply_action(rng.choice(state.legal_actions()))
            if state.events[-1]["type"] == "trick" and state.round == 1 and state.events[-1]["round"] == 1:
                cards = state.events[-1]["cards"]        # no trump: the highest card of the colour led
                led = cards[0].split("/")[1]
                ranks = state.game.rules.deck.ranks
                best = max((c for c in cards if c.split("/")[1] == led), key=lambda c: ranks.index(c.split("/")[0]))
                plays = [e for e in state.events if e["type"] == "card"][-4:]
                assert next(e["seat"] for e in plays if e["card"] == best) == state.events[-1]["winner"]
        assert checked == {1, 2}


def test_every_hand_dealing_every_card_leaves_nothing_to_turn(tmp_path):
    path = write(tmp_path, f"extends: {ROOT / 'variants' / 'others' / 'oh-hell.yaml'}\n"
                              "deal: {hand: 13, hand_by_round: [13]}\nend: {rounds: 2}\n")
    with pytest.raises(VariantError) as error:
        load_variant(path)
    assert "deal.turn_up" in str(error.value) and "leaves no card of the 52 undealt" in str(error.value)


def test_a_hand_turning_no_card_is_refused_where_trump_is_made_from_it(tmp_path):
    path = write(tmp_path, f"extends: {ROOT / 'variants' / 'others' / 'euchre.yaml'}\n"
                              "deal: {hand: 6, hand_by_round: [5, 6]}\n")
    with pytest.raises(VariantError) as error:
        load_variant(path)
    assert "deal.hand_by_round" in str(error.value) and "order_up" in str(error.value)
