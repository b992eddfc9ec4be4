"""Belote (variants/others/belote.yaml), the FFB's « belote classique »: each rule the file quotes,
held by a scripted deal, and a referee written here from the rules alone (the legal cards at every
decision and every deal's points, computed without the engine's scoring) that follows thousands of
random decisions.

The scripted deals name each seat's eight cards; :func:`deal_of` splits them as the FFB deals: five
first, the turned card, and the stock in the order it is dealt on (from the dealer's right, the
taker receiving two cards and the others three).  The dealer is seat 1; play turns
counter-clockwise, so the order round the table is 0, 3, 2, 1 and seat 0 speaks and leads first.
Partners: seats 0 and 2 against 1 and 3."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from chimera_dsl import load_variant
from chimera_dsl.engine import PASS, Action, Game
from chimera_dsl.engine.phases.stock import StockDeal

ROOT = Path(__file__).resolve().parents[1]
FILE = ROOT / "variants" / "others" / "belote.yaml"
ORDER = [0, 3, 2, 1]                    # round the table from the dealer's right (dealer: seat 1)

# -- the rules, written here from the FFB's text (not read from the engine) ----------------------
TRUMP_ORDER = ["J", "9", "A", "10", "K", "Q", "8", "7"]         # strongest first
PLAIN_ORDER = ["A", "10", "K", "Q", "J", "9", "8", "7"]
TRUMP_POINTS = {"J": 20, "9": 14, "A": 11, "10": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
NATURAL = ["7", "8", "9", "10", "J", "Q", "K", "A"]               # the order of runs
SETS = {"J": 200, "9": 150, "A": 100, "10": 100, "K": 100, "Q": 100}


def rank(card: str) -> str:
    return card.split("/")[0]


def colour(card: str) -> str:
    return card.split("/")[1]


def power(card: str, led: str, trump: str) -> int:
    """A card's power in a trick: trumps above the led colour, the others nothing."""
    if colour(card) == trump:
        return 100 - TRUMP_ORDER.index(rank(card))
    if colour(card) == led:
        return 50 - PLAIN_ORDER.index(rank(card))
    return 0


def master(trick: list, trump: str) -> tuple:
    """(seat, card) taking the trick so far."""
    led = colour(trick[0][1])
    return max(trick, key=lambda sc: power(sc[1], led, trump))


def ffb_legal(hand: list, trick: list, trump: str, seat: int) -> set:
    """The cards the FFB's rules allow ``seat`` to play on ``trick`` (a list of (seat, card))."""
    if not trick:
        return set(hand)
    led = colour(trick[0][1])
    same = [c for c in hand if colour(c) == led]
    trumps = [c for c in hand if colour(c) == trump]
    best_seat, best = master(trick, trump)
    top = max((power(c, led, trump) for _, c in trick if colour(c) == trump), default=0)
    higher = [c for c in trumps if power(c, led, trump) > top]
    if led == trump:                      # follow, and climb if possible, partner or not
        return set(same and (higher or same) or hand)
    if same:
        return set(same)
    if best_seat % 2 == seat % 2:         # the partner is master: anything
        return set(hand)
    return set(trumps and (higher or trumps) or hand)   # trump, over the opponent's if possible


def card_points(card: str, trump: str) -> int:
    return TRUMP_POINTS[rank(card)] if colour(card) == trump else PLAIN_POINTS[rank(card)]


def melds(hand: list, trump: str) -> list[tuple]:
    """Each announcement of ``hand``: (points, is a set, cards, top, in trumps)."""
    out = []
    for c in {colour(x) for x in hand}:
        have = sorted(NATURAL.index(rank(x)) for x in hand if colour(x) == c)
        run = [have[0]]
        for place in have[1:] + [99]:
            if place == run[-1] + 1:
                run.append(place)
                continue
            if len(run) >= 3:
                out.append(({3: 20, 4: 50}.get(len(run), 100), False, len(run), run[-1], c == trump))
            run = [place]
    for r, points in SETS.items():
        if sum(rank(x) == r for x in hand) == 4:
            out.append((points, True, 4, NATURAL.index(r), False))
    return out


def expected_points(hands: dict, taker: int, trump: str, tricks: list, held: int) -> tuple[list, int]:
    """Each seat's points for a deal by the FFB's rules, and the points held by a litige after it.
    ``hands``: each seat's eight cards as play begins; ``tricks``: (winner, cards) in order."""
    cards = [0, 0]
    won = [0, 0]
    for i, (winner, trick) in enumerate(tricks):
        cards[winner % 2] += sum(card_points(c, trump) for c in trick) + (10 if i == len(tricks) - 1 else 0)
        won[winner % 2] += 1
    for side in (0, 1):
        if won[side] == len(tricks):
            cards[side] = 252                                          # capot: the dix de der is 100
    best = [max((m for s in (side, side + 2) for m in melds(hands[s], trump)), default=None) for side in (0, 1)]
    ann = [0, 0]
    if best[0] != best[1]:                                             # equal best: nobody scores
        side = 0 if best[1] is None or (best[0] is not None and best[0] > best[1]) else 1
        ann[side] = sum(m[0] for s in (side, side + 2) for m in melds(hands[s], trump))
    belote = [0, 0]
    for s in range(4):
        if {"K/" + trump, "Q/" + trump} <= set(hands[s]):
            belote[s % 2] = 20
    t, d = taker % 2, 1 - taker % 2
    capot = won[t] == len(tricks)
    total_t, total_d = cards[t] + ann[t] + belote[t], cards[d] + ann[d] + belote[d]
    side_points = [0, 0]
    if capot or total_t > total_d:                                     # made
        side_points[t] = cards[t] + ann[t] + (ann[d] if capot else 0) + belote[t] + held
        side_points[d] = (0 if capot else cards[d] + ann[d]) + belote[d]
        held = 0
    elif total_t == total_d:                                           # litige
        side_points[t] = belote[t]
        side_points[d] = cards[d] + ann[d] + belote[d]
        held += cards[t] + ann[t]
    else:                                                              # dedans
        side_points[t] = belote[t]
        side_points[d] = (252 if won[d] == len(tricks) else 162) + ann[d] + ann[t] + belote[d] + held
        held = 0
    return [side_points[s % 2] for s in range(4)], held


# -- scripted deals ---------------------------------------------------------------------------------

def deal_of(rules, hands: list[str], turned: str, taker: int) -> StockDeal:
    """The deal giving ``hands`` (eight cards per seat) once ``taker`` has taken ``turned``."""
    deck = rules.deck
    number = lambda name: deck.card_index[name.upper()]          # noqa: E731
    split = [[c for c in h.split() if c != turned] for h in hands]
    first = [cards[:5] for cards in split]
    stock = [c for s in ORDER for c in split[s][5:]]
    masks = tuple(sum(1 << number(c) for c in cards) for cards in first)
    return StockDeal(masks, 0, (number(turned), None), [number(c) for c in stock])


def start(hands, turned, taker, path=FILE):
    rules = load_variant(path)
    deal = deal_of(rules, hands, turned, taker)
    return Game(rules).new_game(0, deals=iter([deal] * 3), first_dealer=1)


def names(state, actions=None) -> list[str]:
    deck = state.game.rules.deck
    out = []
    for a in state.legal_actions() if actions is None else actions:
        out.append(deck.card_names[a.mask.bit_length() - 1] if a.kind == "card" else
                   deck.colours[a.cards] if a.kind == "trump" else a.kind)
    return sorted(out)


def play(state, name: str) -> None:
    number = state.game.rules.deck.card_index[name.upper()]
    state.apply_action(Action("card", mask=1 << number))


def take(state, colour_name: str) -> None:
    state.apply_action(Action("trump", cards=state.game.rules.deck.colours.index(colour_name)))


# Deal A: seat 0 takes hearts, the 7 of hearts turned; trumps are led.
HANDS_A = ["7/hearts J/hearts 9/hearts A/spades 10/spades K/clubs Q/clubs 8/diamonds",
           "Q/hearts 8/spades 7/spades 8/clubs 7/clubs J/diamonds 9/diamonds 7/diamonds",
           "10/hearts K/hearts J/spades 9/spades A/clubs 10/clubs K/diamonds Q/diamonds",
           "A/hearts 8/hearts K/spades Q/spades J/clubs 9/clubs A/diamonds 10/diamonds"]
# Deal B: seat 0 passes, seat 3 takes hearts; seat 0 holds every club, the others none.
HANDS_B = ["7/clubs 8/clubs 9/clubs 10/clubs J/clubs Q/clubs K/clubs A/clubs",
           "9/hearts 10/hearts A/hearts J/diamonds 10/diamonds 9/diamonds 8/diamonds 7/diamonds",
           "Q/hearts K/hearts 9/spades 8/spades 7/spades A/diamonds K/diamonds Q/diamonds",
           "7/hearts J/hearts 8/hearts A/spades K/spades Q/spades J/spades 10/spades"]


def test_the_deck_and_its_points():
    """32 cards from the 7 to the ace; [W]'s values: 62 in trumps, 30 in each other colour, and
    the dix de der: 162 in a deal."""
    rules = load_variant(FILE)
    deck = rules.deck
    assert len(deck.cards) == 32
    play_spec = Game(rules).round.play
    trump_total = sum(TRUMP_POINTS.values())
    plain_total = sum(PLAIN_POINTS.values())
    assert (trump_total, plain_total) == (62, 30)
    assert trump_total + 3 * plain_total + play_spec.last_trick == 162
    for c, name in enumerate(deck.card_names):
        assert play_spec.card_points[c] == PLAIN_POINTS[rank(name)]
        assert play_spec.trump_card_points[c] == TRUMP_POINTS[rank(name)]


def test_five_cards_a_turned_card_then_the_rest_to_eight():
    state = start(HANDS_A, "7/hearts", 0)
    assert state.dealer == 1 and state.current_player() == 0          # the dealer's right speaks first
    assert state.sizes == [5, 5, 5, 5]
    deck = state.game.rules.deck
    assert deck.card_names[state.face_up_card] == "7/hearts"
    assert not any(h >> state.face_up_card & 1 for h in state.held)   # nobody holds the turned card
    assert names(state) == ["hearts", "pass"]                           # the turned colour, or pass
    take(state, "hearts")
    assert state.sizes == [8, 8, 8, 8] and state.bidder == 0
    for seat, hand in enumerate(HANDS_A):                               # everyone holds its eight
        assert sorted(deck.mask_names(state.held[seat])) == sorted(hand.split())
    dealt = [e for e in state.events if e["type"] == "rest_dealt"][-1]["hands"]
    assert [len(h) for h in dealt] == [2, 3, 3, 3]                      # two to the taker, three to the others
    assert state.current_player() == 0                                  # the dealer's right leads


def test_the_second_round_names_another_colour_and_its_taker_takes_the_turned_card():
    hands = list(HANDS_A)
    state = start(hands, "7/hearts", 3)
    for _ in range(4):
        state.apply_action(PASS)
    assert names(state) == ["clubs", "diamonds", "pass", "spades"]     # any colour but the turned one
    state.apply_action(PASS)                                            # seat 0
    take(state, "spades")                                               # seat 3 names spades
    assert state.bidder == 3 and state.sizes[3] == 8
    assert state.held[3] >> state.face_up_card & 1                      # the turned card is the taker's
    assert state.table.layers[0] == ("colour", state.game.rules.deck.colours.index("spades"))


def test_all_passing_twice_throws_the_cards_in_and_the_next_dealer_deals():
    state = start(HANDS_A, "7/hearts", 0)
    for _ in range(8):
        state.apply_action(PASS)
    end = [e for e in state.events if e["type"] == "round_end"][-1]
    assert end.get("void") and end["points"] == [0, 0, 0, 0]
    assert state.round == 2 and state.dealer == 0                       # the dealer's right deals next


def test_a_trump_lead_must_be_overtrumped_even_over_the_partner():
    state = start(HANDS_A, "7/hearts", 0)
    take(state, "hearts")
    play(state, "7/hearts")                                             # seat 0 leads a trump
    assert names(state) == ["8/hearts", "A/hearts"]                     # seat 3: both beat the 7
    play(state, "8/hearts")
    assert names(state) == ["10/hearts", "K/hearts"]                    # seat 2: over the 8
    play(state, "K/hearts")
    assert names(state) == ["Q/hearts"]                                 # seat 1: cannot climb, follows
    play(state, "Q/hearts")
    assert state.current_player() == 2                                  # the king took it
    play(state, "10/hearts")                                            # seat 2 leads the 10 of trumps
    assert len(names(state)) == 7                                       # seat 1: no trump left, anything
    play(state, "7/diamonds")
    assert names(state) == ["9/hearts", "J/hearts"]                     # seat 0 climbs over its partner
    play(state, "9/hearts")
    assert names(state) == ["A/hearts"]                                 # seat 3: lower, but a trump


def test_a_void_seat_trumps_an_opponent_overtrumps_or_else_undertrumps_and_a_master_partner_frees():
    state = start(HANDS_B, "7/hearts", 3)
    state.apply_action(PASS)                                            # seat 0
    take(state, "hearts")                                               # seat 3 takes hearts
    play(state, "A/clubs")                                              # seat 0 leads clubs
    assert names(state) == ["7/hearts", "8/hearts", "J/hearts"]         # seat 3: an opponent is master: trump
    play(state, "J/hearts")
    assert names(state) == ["K/hearts", "Q/hearts"]                     # seat 2: cannot overtrump: « pisser »
    play(state, "Q/hearts")
    assert len(names(state)) == 8                                       # seat 1: its partner is master
    play(state, "7/diamonds")
    assert state.current_player() == 3
    play(state, "A/spades")                                             # seat 3 leads spades
    assert names(state) == ["7/spades", "8/spades", "9/spades"]         # seat 2 follows
    play(state, "7/spades")
    assert "9/hearts" in names(state) and len(names(state)) == 7        # seat 1: partner master, a trump too
    play(state, "9/hearts")
    assert len(names(state)) == 7                                       # seat 0: no trump, anything


def test_the_refusal_says_which_rule():
    from chimera_dsl.errors import IllegalActionError
    state = start(HANDS_B, "7/hearts", 3)
    state.apply_action(PASS)
    take(state, "hearts")
    play(state, "A/clubs")
    play(state, "J/hearts")
    with pytest.raises(IllegalActionError, match=r"play.must\[1\]"):
        play(state, "A/diamonds")                                       # seat 2 must undertrump


def _announcements(state) -> list:
    return [e for e in state.events if e["type"] == "announcements"]


def _first_trick(state) -> None:
    while not [e for e in state.events if e["type"] == "trick"]:
        state.apply_action(state.legal_actions()[0])


def test_a_carre_of_100_beats_a_cent_and_equal_announcements_cancel():
    # seat 0: four kings; seat 3: a run of five in spades (a cent, 100)
    hands = ["K/spades K/hearts K/diamonds K/clubs 7/clubs 8/hearts 7/diamonds 9/diamonds",
             "A/hearts 10/hearts Q/hearts 8/clubs 9/clubs 10/diamonds J/diamonds Q/diamonds",
             "7/hearts 9/hearts A/spades A/clubs 10/clubs J/clubs Q/clubs A/diamonds",
             "7/spades 8/spades 9/spades 10/spades J/spades Q/spades J/hearts 8/diamonds"]
    state = start(hands, "7/hearts", 0)
    take(state, "hearts")
    _first_trick(state)
    # seats 0 and 2 score all of theirs: the four kings and seat 2's tierce of clubs (10 J Q)
    assert _announcements(state)[-1]["seats"] == [0, 2] and _announcements(state)[-1]["points"] == 100 + 20
    # the same runs of four on both sides (7 to 10, 50 each, neither in trumps): nobody scores
    hands = ["7/clubs 8/clubs 9/clubs 10/clubs A/hearts A/spades 7/diamonds K/hearts",
             "7/spades 8/spades 9/spades 10/spades Q/hearts J/diamonds 8/diamonds 9/diamonds",
             "J/clubs Q/clubs 10/hearts 9/hearts J/spades Q/spades 10/diamonds A/diamonds",
             "7/hearts 8/hearts J/hearts K/spades A/clubs K/clubs Q/diamonds K/diamonds"]
    assert melds(hands[0].split(), "hearts") == [(50, False, 4, 3, False)]
    assert melds(hands[1].split(), "hearts") == [(50, False, 4, 3, False)]
    assert not melds(hands[2].split(), "hearts") and not melds(hands[3].split(), "hearts")
    state = start(hands, "A/hearts", 0)
    take(state, "hearts")
    _first_trick(state)
    assert _announcements(state)[-1]["points"] == 0 and _announcements(state)[-1]["seats"] == []


def _hands_at_play(state, events) -> dict:
    """Each seat's eight cards as play begins, from the record's lines of the last deal."""
    deal = [e for e in events if e["type"] == "deal"][-1]
    hands = {s: list(deal["hands"][s]) for s in range(4)}
    rest = [e for e in events if e["type"] == "rest_dealt"][-1]["hands"]
    taker = next(e["seat"] for e in events[events.index(deal):] if e["type"] == "trump" and e["trump"])
    hands[taker].append(deal["face_up"]["card"])
    for s in range(4):
        hands[s] += rest[s]
    return hands


def test_a_referee_from_the_rules_agrees_at_every_decision_and_every_deal():
    """Random players over many deals: at each card, the legal cards are those the FFB's rules
    allow (:func:`ffb_legal`); each deal's points are those :func:`expected_points` computes, the
    points a litige holds going to the next deal's winner; and every kind of deal turns up."""
    rules = load_variant(FILE)
    rng = random.Random(7)
    seen = {"made": 0, "dedans": 0, "capot": 0, "litige": 0, "held paid": 0, "belote dedans": 0,
            "announcements": 0, "second round": 0}
    decisions = 0
    for game_seed in range(60):
        state = Game(rules).new_game(game_seed)
        held = 0
        done = 0                                   # the deals checked so far in this game
        while not state.is_terminal():
            if state.kind == "tricks":
                table = state.table
                seat = table.turn
                deck = rules.deck
                hand = deck.mask_names(state.held[seat])
                trick = [(s, deck.card_names[c]) for s, c in table.trick]
                trump = deck.colours[table.layers[0][1]]
                assert set(names(state)) == ffb_legal(hand, trick, trump, seat), (hand, trick, trump, seat)
                decisions += 1
            before = state.round
            state.apply_action(rng.choice(state.legal_actions()))
            if state.round == before and not state.is_terminal():
                continue
            events = state.events
            ends = [i for i, e in enumerate(events) if e["type"] == "round_end"]
            for k in range(done, len(ends)):
                mine = events[(ends[k - 1] + 1 if k else 0):ends[k] + 1]
                end = mine[-1]
                if end.get("void"):                # all passed twice (a scripted test shows it)
                    continue
                trumps = [e for e in mine if e["type"] == "trump" and e["trump"]]
                taker, trump = trumps[-1]["seat"], trumps[-1]["trump"]
                deal = [e for e in mine if e["type"] == "deal"][-1]
                seen["second round"] += trump != colour(deal["face_up"]["card"])
                hands = _hands_at_play(state, mine)
                tricks = [(e["winner"], e["cards"]) for e in mine if e["type"] == "trick"]
                points, new_held = expected_points(hands, taker, trump, tricks, held)
                assert end["points"] == points, (end, hands, taker, trump, tricks, held)
                assert end["values"]["in_litige"] == new_held
                if held and new_held == 0:
                    seen["held paid"] += 1
                if new_held > held:
                    seen["litige"] += 1
                elif end["taker_won"]:
                    seen["made"] += 1
                else:
                    seen["dedans"] += 1
                    seen["belote dedans"] += any({"K/" + trump, "Q/" + trump} <= set(hands[s])
                                                for s in (taker, (taker + 2) % 4))
                seen["capot"] += any(sum(1 for w, _ in tricks if w % 2 == side) == 8 for side in (0, 1))
                seen["announcements"] += any(e["type"] == "announcements" and e["points"] for e in mine)
                held = new_held
            done = len(ends)
    assert decisions > 10000
    assert all(count > 0 for count in seen.values()), [k for k, v in seen.items() if not v]


def test_a_recorded_game_replays_and_a_forged_stock_is_refused():
    from chimera_dsl.players import make_player, play_game
    from chimera_dsl.tell.record import RecordError, replay
    rules = load_variant(FILE)
    final = play_game(Game(rules), [make_player("random", s) for s in range(4)], 11)
    events = final.events
    assert replay(events, rules).totals == final.totals
    forged = [dict(e) for e in events]
    deal = next(e for e in forged if e["type"] == "deal")
    deal["stock"] = list(reversed(deal["stock"]))          # the same cards, dealt in another order
    with pytest.raises(RecordError):
        replay(forged, rules)


def _error(tmp_path, change: dict) -> str:
    from chimera_dsl.variant import check_variant
    spec = yaml.safe_load(FILE.read_text())
    for key, value in change.items():
        if isinstance(value, dict) and isinstance(spec.get(key), dict):
            spec[key] = {**spec[key], **value}
        else:
            spec[key] = value
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(spec, allow_unicode=True, sort_keys=False))
    return "\n".join(str(p) for p in check_variant(path))


def test_misuse_is_refused_where_it_is_written(tmp_path):
    deal = yaml.safe_load(FILE.read_text())["deal"]
    assert "not a phase of the round" in _error(tmp_path, {"deal": {**deal, "complete": {"after": "bidding",
                                                                                         "hand": 8}}})
    assert "more than the" in _error(tmp_path, {"deal": {**deal, "complete": {"after": "taking", "hand": 5}}})
    assert "stock holds" in _error(tmp_path, {"deal": {**deal, "complete": {"after": "taking", "hand": 9}}})
    phases = yaml.safe_load(FILE.read_text())["phases"]
    keeps = {**phases["taking"], "pick_up_second": False}
    assert "turned card is out" in _error(tmp_path, {"phases": {"taking": keeps}})
    both = {**phases["taking"], "discard_turned": False}
    assert "discards none" in _error(tmp_path, {"phases": {"taking": both}})
    play_spec = yaml.safe_load(FILE.read_text())["play"]
    bad = {**play_spec, "announcements": {**play_spec["announcements"], "sets_beat_sequences": "yes"}}
    assert "must be true or false" in _error(tmp_path, {"play": bad})


def test_errors_are_located(tmp_path):
    from chimera_dsl.variant import check_variant
    path = tmp_path / "bad.yaml"
    text = FILE.read_text().replace("complete: {after: taking, hand: 8}", "complete: {after: tacking, hand: 8}")
    path.write_text(text)
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "after: tacking" in row)
    problems = check_variant(path)
    assert any(f"{path.name}:{line}:" in str(p) for p in problems), problems


def test_the_heuristic_beats_random_players():
    """Two heuristic partners against two random ones win most games (bench/bench_sides.py)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("bench_sides", ROOT / "bench" / "bench_sides.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    figures = bench.figures(str(FILE), 20)
    assert figures["won"] >= 18, figures
    assert figures["points"][0] > 1.5 * figures["points"][1], figures

