"""Euchre (variants/others/euchre.yaml): each rule the file quotes, shown on a scripted deal, and
the located errors of the keys it needs (``kind: order_up``, ``play.trump_extra``).

The deals here are written out: dealer seat 3, so seat 0 (the dealer's left) speaks and leads
first; the turned card is given as the deal's face-up card, held by nobody."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from chimera_dsl import load_variant
from chimera_dsl.engine import PASS, Action, Deal, Game
from chimera_dsl.errors import IllegalActionError, VariantError

ROOT = Path(__file__).resolve().parents[1]
FILE = ROOT / "variants" / "others" / "euchre.yaml"
STICK = ROOT / "variants" / "house_rules" / "euchre-stick-the-dealer.yaml"
LONE = ROOT / "variants" / "house_rules" / "euchre-lone-defender.yaml"

HANDS = [
    "J/hearts J/diamonds A/hearts K/hearts 9/clubs",       # seat 0: both bowers in hearts
    "10/hearts Q/hearts A/clubs K/clubs Q/clubs",           # seat 1
    "A/spades K/spades Q/spades J/spades 10/spades",        # seat 2
    "A/diamonds K/diamonds Q/diamonds 10/diamonds 9/diamonds",  # seat 3, the dealer
]
TURNED = "9/hearts"


def start(path=FILE, hands=HANDS, turned=TURNED):
    rules = load_variant(path)
    deck = rules.deck
    masks = tuple(deck.cards_mask(h.replace(" ", ",")) if hasattr(deck, "cards_mask") else 0 for h in hands)
    card = deck.card_index[turned.upper()]
    deal = Deal(masks, 0, (card, None))
    return rules, Game(rules).new_game(0, deals=iter([deal, deal, deal]), first_dealer=3)


def card(state, name: str) -> Action:
    number = state.game.rules.deck.card_index[name.upper()]
    return next(a for a in state.legal_actions() if a.kind == "card" and a.mask == 1 << number)


def trump(state, colour: str) -> Action:
    index = state.game.rules.deck.colours.index(colour)
    return next(a for a in state.legal_actions() if a.kind == "trump" and a.cards == index)


def names(state, actions) -> list[str]:
    deck = state.game.rules.deck
    out = []
    for a in actions:
        if a.kind == "card":
            out.append(deck.card_names[a.mask.bit_length() - 1])
        elif a.kind == "trump":
            out.append(deck.colours[a.cards])
        else:
            out.append(a.kind)
    return sorted(out)


def test_first_round_orders_up_only_the_turned_colour_then_the_dealer_picks_up_and_discards():
    _, state = start()
    assert state.current_player() == 0
    assert names(state, state.legal_actions()) == ["hearts", "pass"]
    state.apply_action(trump(state, "hearts"))                   # seat 0 orders up hearts
    assert state.current_player() == 3 and state.sizes[3] == 6    # the dealer took the 9 of hearts
    assert "9/hearts" in names(state, state.legal_actions())     # any card may go (discard_turned)
    state.apply_action(card(state, "9/diamonds"))
    assert state.sizes[3] == 5 and state.bidder == 0
    assert [e for e in state.events if e["type"] == "discard"][-1]["card"] == "9/diamonds"
    assert state.current_player() == 0 and names(state, state.legal_actions()) == ["alone", "pass"]


def test_the_dealer_keeps_the_turned_card_when_the_file_says_so(tmp_path):
    path = tmp_path / "keep.yaml"
    path.write_text(yaml.safe_dump({"extends": str(FILE), "phases": {"making": {"kind": "order_up",
                                                                                  "discard_turned": False}}}))
    _, state = start(path)
    state.apply_action(trump(state, "hearts"))
    assert "9/hearts" not in names(state, state.legal_actions())
    number = state.game.rules.deck.card_index["9/HEARTS"]
    with pytest.raises(IllegalActionError, match="may not discard the turned card"):
        state.apply_action(Action("card", mask=1 << number))


def test_second_round_names_another_colour_and_all_passing_voids_the_hand():
    _, state = start()
    for _ in range(4):
        state.apply_action(PASS)
    assert names(state, state.legal_actions()) == ["clubs", "diamonds", "pass", "spades"]
    for _ in range(4):
        state.apply_action(PASS)
    end = [e for e in state.events if e["type"] == "round_end"][-1]
    assert end.get("void") and end["points"] == [0, 0, 0, 0]
    assert state.round == 2 and state.dealer == 0                # the deal passed on


def test_stick_the_dealer_forbids_the_last_pass():
    _, state = start(STICK)
    for _ in range(7):
        state.apply_action(PASS)
    assert state.current_player() == 3
    assert names(state, state.legal_actions()) == ["clubs", "diamonds", "spades"]
    with pytest.raises(IllegalActionError, match="may not pass"):
        state.apply_action(PASS)


def _make_hearts_and_play_with_partner(path=FILE):
    rules, state = start(path)
    state.apply_action(trump(state, "hearts"))
    state.apply_action(card(state, "9/diamonds"))
    return rules, state


def test_the_left_bower_is_a_trump_second_only_to_the_right_bower():
    _, state = _make_hearts_and_play_with_partner()
    state.apply_action(PASS)                                     # seat 0 plays with its partner
    assert state.current_player() == 0
    state.apply_action(card(state, "J/diamonds"))                # the left bower leads: a trump lead
    # seat 1 holds hearts: it must follow with a heart (trump), not with anything else
    assert names(state, state.legal_actions()) == ["10/hearts", "Q/hearts"]
    state.apply_action(card(state, "Q/hearts"))
    state.apply_action(card(state, "10/spades"))                 # seat 2: no trump
    # seat 3 holds the 9 of hearts it picked up: a trump lead is answered with it, its diamonds
    # are no trumps
    assert names(state, state.legal_actions()) == ["9/hearts"]
    state.apply_action(card(state, "9/hearts"))
    assert [e for e in state.events if e["type"] == "trick"][-1]["winner"] == 0   # the left bower beat the Q and 9
    state.apply_action(card(state, "A/hearts"))
    state.apply_action(card(state, "10/hearts"))
    state.apply_action(card(state, "J/spades"))
    state.apply_action(card(state, "A/diamonds"))
    state.apply_action(card(state, "J/hearts"))                  # the right bower
    assert state.current_player() == 1


def test_a_diamond_lead_is_not_answered_by_the_left_bower():
    rules, state = start(hands=["J/diamonds 9/clubs 10/clubs A/hearts K/hearts",
                                "A/diamonds K/diamonds Q/hearts 10/hearts 9/spades",
                                "A/spades K/spades Q/spades J/spades 10/spades",
                                "A/clubs K/clubs Q/clubs 10/diamonds 9/diamonds"])
    state.apply_action(trump(state, "hearts"))
    state.apply_action(card(state, "A/clubs"))                   # the dealer discards
    state.apply_action(PASS)
    state.apply_action(card(state, "9/clubs"))                   # seat 0 leads a club
    state.apply_action(card(state, "9/spades"))
    state.apply_action(card(state, "10/spades"))
    state.apply_action(card(state, "K/clubs"))
    # seat 3 took it and leads a diamond: seat 0's jack of diamonds is a heart now, not a diamond
    state.apply_action(card(state, "9/diamonds"))
    assert names(state, state.legal_actions()) == ["10/clubs", "A/hearts", "J/diamonds", "K/hearts"]


def test_going_alone_sits_the_partner_out_and_an_alone_march_scores_four():
    _, state = _make_hearts_and_play_with_partner()
    state.apply_action(Action("alone"))
    plays = 0
    while state.round == 1:
        assert state.current_player() != 2                       # the partner never plays
        # seat 0 plays its strongest card first (bowers, then the ace and king of trumps)
        state.apply_action(state.legal_actions()[-1] if state.current_player() != 0 else
                           next(card(state, c) for c in ("J/hearts", "J/diamonds", "A/hearts", "K/hearts", "9/clubs")
                                if c in names(state, state.legal_actions())))
        plays += 1
    assert plays == 15                                           # 5 tricks of 3 cards
    tricks = [e for e in state.events if e["type"] == "trick"]
    assert all(len(t["cards"]) == 3 for t in tricks)
    end = [e for e in state.events if e["type"] == "round_end"][-1]
    assert end["tricks"][0] >= 4
    assert end["points"] == ([4, 0, 4, 0] if end["tricks"][0] == 5 else [1, 0, 1, 0])


def _score(path, alone: bool, defender: bool | None, taken: int) -> list[int]:
    """The points of a round whose makers (seats 0 and 2) take ``taken`` tricks, as the file's
    scoring terms give them (the scoring read directly)."""
    rules = load_variant(path)
    round_ = Game(rules).round
    env = {"bidder_side_tricks": taken, "bidder_alone": int(alone), "defender_alone": int(bool(defender))}
    terms = {term.path[-1]: term.value for term in round_.scoring.terms}
    points = []
    for seat in range(4):
        facts = {**env, "bidder_side": int(seat in (0, 2))}
        points.append(sum(expr.evaluate(facts) for expr in terms.values()))
    return points


@pytest.mark.parametrize("taken, alone, defender, expected", [
    (3, False, False, [1, 0, 1, 0]),         # "three or four tricks ... one point"
    (4, True, False, [1, 0, 1, 0]),
    (5, False, False, [2, 0, 2, 0]),         # a march: two points
    (5, True, False, [4, 0, 4, 0]),          # alone and marching: four
    (2, False, False, [0, 2, 0, 2]),         # euchred: the opponents score two
    (0, True, True, [0, 4, 0, 4]),           # a lone defender's euchre: four
])
def test_the_scoring_table(taken, alone, defender, expected):
    assert _score(FILE, alone, defender, taken) == expected


def test_a_lone_defender_plays_without_its_partner():
    _, state = _make_hearts_and_play_with_partner(LONE)
    state.apply_action(PASS)                                     # the maker plays with its partner
    assert state.current_player() == 1                           # the defenders, from the dealer's left
    state.apply_action(PASS)
    assert state.current_player() == 3
    state.apply_action(Action("alone"))
    while state.round == 1:
        assert state.current_player() != 1
        state.apply_action(state.legal_actions()[0])
    tricks = [e for e in state.events if e["type"] == "trick"]
    assert len(tricks) == 5 and all(len(e["cards"]) == 3 for e in tricks)


def _error(tmp_path, change: dict) -> str:
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump({"extends": str(FILE), **change}))
    with pytest.raises(VariantError) as info:
        load_variant(path)
    return str(info.value)


def test_misuse_is_refused_where_it_is_written(tmp_path):
    assert "turns no card up" in _error(tmp_path, {"deal": {"turn_up": False}})
    assert "names none" in _error(tmp_path, {"play": {"trump_extra": None}})
    assert "already" in _error(tmp_path, {"play": {"trump_extra": {"hearts": ["J/hearts"]}}})
    assert "no card of the deck" in _error(tmp_path, {"play": {"trump_extra": {"hearts": ["J/stars"]}}})
    assert "alone: false" in _error(tmp_path, {"phases": {"making": {"kind": "order_up", "alone": False,
                                                                      "lone_defender": True}}})


def test_errors_are_located(tmp_path):
    from chimera_dsl.variant import check_variant
    path = tmp_path / "bad.yaml"
    text = FILE.read_text().replace("hearts: [J/diamonds]", "hearts: [J/hearts]")
    path.write_text(text)
    problems = check_variant(path)
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "hearts: [J/hearts]" in row)
    assert any(f"{path.name}:{line}:" in str(p) for p in problems), problems


def test_the_heuristic_makes_sensible_calls_and_beats_random_players():
    """Two heuristic partners against two random ones win most games, and make good most of the
    trumps they name (bench/bench_sides.py measures it on 400 games: docs/players.md)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("bench_sides", ROOT / "bench" / "bench_sides.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    figures = bench.figures(str(FILE), 40)
    assert figures["won"] >= 36, figures
    assert figures["made"][0] >= 0.8 * figures["called"][0] > 0, figures      # its calls are made good
    assert figures["made"][1] < 0.5 * figures["called"][1], figures           # the random calls are not
