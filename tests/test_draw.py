"""A trick-taking play that draws from a stock after each trick (``play.draw``), any card played
(``follow: none``), a file's own names of its colours (``deck.names``): Briscola
(variants/others/briscola.yaml), each of its rules' examples checked by a computation of its own.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from chimera_dsl import load_variant
from chimera_dsl.cards import bit_numbers
from chimera_dsl.engine import Game
from chimera_dsl.engine import zones
from chimera_dsl.engine.phases.stock import StockDeal
from chimera_dsl.errors import VariantError
from chimera_dsl.players import make_player, play_game
from chimera_dsl.tell.record import replay
from chimera_dsl.tell.rulebook import write_rulebook

ROOT = Path(__file__).resolve().parents[1]
FILE = ROOT / "variants" / "others" / "briscola.yaml"
ORDER = ["A", "3", "K", "C", "J", "7", "6", "5", "4", "2"]       # the file's plain order, strongest first
POINTS = {"A": 11, "3": 10, "K": 4, "C": 3, "J": 2}


@pytest.fixture(scope="module")
def game():
    return Game(load_variant(str(FILE)))


def _name(game, card: int) -> str:
    return game.rules.deck.card_names[card]


def _winner(trick: list[tuple[int, str]], trump: str) -> int:
    """The seat taking a trick by the published rule: the highest trump, else the highest card of
    the suit led (computed here from the names, not by the engine)."""
    def strength(name: str) -> tuple[int, int]:
        rank, suit = name.split("/")
        led = trick[0][1].split("/")[1]
        tier = 2 if suit == trump else 1 if suit == led else 0
        return tier, -ORDER.index(rank)
    return max(trick, key=lambda played: strength(played[1]))[0]


def _play_round(game, seed: int, rng: random.Random):
    """One round played by random choices; yields (state before each card, the card's action)."""
    state = game.new_game(seed)
    rounds = state.round
    while not state.is_terminal() and state.round == rounds:
        action = rng.choice(state.legal_actions())
        yield state, action
        state.apply_action(action)


def test_the_deal_three_cards_each_a_turned_trump_and_a_stock_of_the_rest(game):
    for seed in range(20):
        state = game.new_game(seed)
        deal = next(e for e in state.events if e["type"] == "deal")
        assert [len(h) for h in deal["hands"]] == [3, 3]
        assert deal["face_up"]["seat"] is None
        assert len(deal["stock"]) == 33                       # 40 - 6 dealt - 1 turned
        assert len(set(sum(deal["hands"], []) + deal["stock"] + [deal["face_up"]["card"]])) == 40
        # the turned card's suit is trumps: the table's strongest suit holds its ten cards
        turned = deal["face_up"]["card"].split("/")[1]
        trumps = {_name(game, c).split("/")[1] for c in bit_numbers(state.table.trump_mask)} \
            if state.table is not None else {turned}
        assert trumps == {turned}


def test_any_card_may_be_played_and_the_highest_trump_or_card_of_the_suit_led_takes(game):
    rng = random.Random(4)
    checked = 0
    for seed in range(30):
        state = game.new_game(seed)
        turned = state.events[1]["face_up"]["card"].split("/")[1]
        trick: list[tuple[int, str]] = []
        while not state.is_terminal() and state.round == 1:
            seat = state.current_player()
            legal = state.legal_actions()
            # no need to follow suit: every card of the hand is legal, leading or not
            assert sorted(a.mask for a in legal) == [1 << c for c in bit_numbers(state.held[seat])]
            action = rng.choice(legal)
            trick.append((seat, _name(game, action.mask.bit_length() - 1)))
            state.apply_action(action)
            if len(trick) == 2:
                line = [e for e in state.events if e["type"] == "trick"][-1]
                assert line["winner"] == _winner(trick, turned), (seed, trick, line)
                checked += 1
                trick = []
    assert checked > 500


def test_after_each_trick_the_winner_draws_first_and_the_turned_card_is_drawn_last(game):
    rng = random.Random(9)
    for seed in range(25):
        state = game.new_game(seed)
        deal = state.events[1]
        stock = list(deal["stock"])
        turned = deal["face_up"]["card"]
        draws = 0
        while not state.is_terminal() and state.round == 1:
            state.apply_action(rng.choice(state.legal_actions()))
            events = state.events
            if events[-1]["type"] != "drawn":
                continue
            trick = events[-2]
            assert trick["type"] == "trick"
            winner, loser = trick["winner"], 1 - trick["winner"]
            line = events[-1]
            draws += 1
            if draws < 17:                                     # the stock's top card to the winner
                assert line["hands"][winner] == [stock.pop(0)] and line["hands"][loser] == [stock.pop(0)]
                assert "turned" not in line
            else:                                              # the 17th: the last card, then the turned one
                assert line["hands"][winner] == [stock.pop(0)] and line["hands"][loser] == [turned]
                assert line["turned"] == {"seat": loser, "card": turned}
                assert state.face_up[1] == loser               # every seat knows who holds it
            assert state.sizes == [3, 3]                       # the hands are full again
        assert draws == 17 and not stock
        tricks = [e for e in state.events if e["type"] == "trick" and e["round"] == 1]
        assert len(tricks) == 20                                # 3 + 17 cards each
        assert sum(t["points"] for t in tricks) == 120


def test_a_hand_won_takes_more_than_60_and_the_first_to_two_wins(game):
    for seed in range(12):
        players = [make_player("heuristic", seed * 10 + s) for s in range(2)]
        result = play_game(game, players, seed)
        events = result.events
        won = [0, 0]
        for end in (e for e in events if e["type"] == "round_end"):
            points = [0, 0]
            for trick in (e for e in events if e["type"] == "trick" and e["round"] == end["round"]):
                points[trick["winner"]] += sum(POINTS.get(c.split("/")[0], 0) for c in trick["cards"])
            assert sum(points) == 120
            expected = [1 if p > 60 else 0 for p in points]    # 60 each: nobody wins the hand
            assert end["points"] == expected
            won = [w + e for w, e in zip(won, expected)]
        assert max(won) == 2 and list(result.totals) == won


def test_the_stock_is_counted_by_all_and_seen_by_none(game):
    rng = random.Random(3)
    state = game.new_game(8)
    for _ in range(30):
        for seat in range(2):
            observation = state.observation(seat)
            (stock,) = [z for z in observation.zones if z.name == "stock"]
            assert stock.cards is None and stock.size == len(state.stock)
            assert not zones.seen_by(state, seat) & zones.stock(state).cards
        # every card in one place: the hands, the piles won, the trick, the stock, the turned card
        # while it lies under the stock
        places = [z.cards for z in zones.zones(state) if z.name in ("hand", "won", "trick", "stock")]
        if state.face_up[1] is None:
            places.append(1 << state.face_up_card)
        union = 0
        for cards in places:
            assert not union & cards
            union |= cards
        assert union == game.rules.deck.full_mask
        state.apply_action(rng.choice(state.legal_actions()))


def test_the_order_of_the_stock_changes_no_observation(game):
    """Two deals alike but for the order of the stock: each seat's view is the same until a card
    of the stock is drawn (what it draws then is its own)."""
    deck = game.rules.deck
    first = game.new_game(5)
    deal = first.events[1]
    hands = tuple(deck.cards_mask(h) for h in deal["hands"])
    stock = [deck.card_index[name.upper()] for name in deal["stock"]]
    turned = deck.card_index[deal["face_up"]["card"].upper()]
    views = []
    for order in (stock, stock[::-1]):
        state = game.new_game(5, deals=iter([StockDeal(hands, 0, (turned, None), order)]),
                              first_dealer=first.dealer)
        views.append([json.dumps(state.observation(s).as_dict(), sort_keys=True, default=str) for s in range(2)])
    assert views[0] == views[1]


def test_a_searching_player_imagines_the_stock_and_keeps_the_turned_card_where_all_saw_it(game):
    rng = random.Random(6)
    state = game.new_game(11)
    while state.face_up[1] is None:                           # play until the turned card is drawn
        state.apply_action(rng.choice(state.legal_actions()))
    holder = state.face_up[1]
    other = 1 - holder
    for k in range(20):
        world = state.resample(other, random.Random(k))
        assert world.held[other] == state.held[other]          # its own hand
        assert world.held[holder] >> state.face_up_card & 1     # the turned card stays with its taker
        assert world.sizes == state.sizes and len(world.stock) == len(state.stock)
        while not world.is_terminal() and world.round == state.round:
            world.apply_action(rng.choice(world.legal_actions()))
    fresh = game.new_game(12)
    for k in range(10):                                        # before any draw: the stock reimagined
        world = fresh.resample(0, random.Random(k))
        assert world.face_up_card == fresh.face_up_card and world.held[0] == fresh.held[0]
        assert sorted(world.stock + tuple(bit_numbers(world.held[1]))) == \
            sorted(fresh.stock + tuple(bit_numbers(fresh.held[1])))


def test_search_players_play_a_whole_game(game):
    players = [make_player("search", s) for s in range(2)]
    result = play_game(game, players, 2)
    assert max(result.totals) >= 2


def test_the_record_replays_and_a_card_drawn_otherwise_is_refused(game, tmp_path):
    players = [make_player("heuristic", s) for s in range(2)]
    state = game.new_game(21)
    while not state.is_terminal():
        seat = state.current_player()
        state.apply_action(players[seat].act(state.observation(seat), state.legal_actions()))
    events = json.loads(json.dumps(state.events))
    assert replay(events, game.rules).totals == state.totals
    at = next(i for i, e in enumerate(events) if e["type"] == "drawn")
    line = events[at]
    deal = events[1]
    line["hands"][0] = [deal["stock"][-1]]                    # the stock's last card, not one of its first two
    with pytest.raises(Exception) as error:
        replay(events, game.rules)
    assert "drawn" in str(error.value)


def test_the_game_is_told_with_its_draws_and_hidden_cards_stay_hidden(game):
    from chimera_dsl.tell.printer import Teller
    state = game.new_game(3)
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    told = "\n".join(Teller(game.rules).lines(state.events))
    assert "draws" in told and "takes the face-up card" in told
    first = next(e for e in state.events if e["type"] == "drawn")
    seat = next(s for s, cards in enumerate(first["hands"]) if cards)
    seen_by_other = "\n".join(Teller(game.rules, seat=1 - seat).lines(state.events))
    assert f"draws {first['hands'][seat][0]}" not in seen_by_other.split("Round 2")[0].split("trick 2:")[0]
    assert "draws 1 card" in seen_by_other


def test_the_rulebook_says_the_draw_and_the_file_names_its_colours():
    english = write_rulebook(load_variant(str(FILE)), "en")
    assert "Any card may be played" in english
    assert "each player draws 1 card from it, the trick's winner first" in english
    assert "it is the last card drawn" in english
    italian = write_rulebook(load_variant(str(FILE)), "it")
    assert "(denari, coppe, spade, bastoni)" in italian
    assert "coins" not in italian


BASE = {"format": 1, "name": "T", "players": 2,
        "deck": {"ranks": ["7", "8", "9", "10", "J", "Q", "K", "A"], "colours": ["hearts", "spades", "clubs", "diamonds"],
                 "cards": [{"ranks": "7..A", "per_colour": 1}]},
        "round": ["deal", "play", "scoring"],
        "deal": {"hand": 4, "turn_up": True},
        "play": {"kind": "tricks", "trump": "turned", "draw": 1, "follow": "none", "points": {"A": 11, "10": 10}},
        "scoring": {"points": {"each": {"cards": "trick_points"}}},
        "end": {"target": 100}}


def _load(tmp_path, **changes):
    import copy
    spec = copy.deepcopy(BASE)
    for key, value in changes.items():
        section, _, name = key.partition("__")
        if name and value is None:
            del spec[section][name]
        elif name:
            spec[section][name] = value
        else:
            spec[section] = value
    path = tmp_path / "v.yaml"
    path.write_text(json.dumps(spec))
    return load_variant(str(path))


def test_a_file_that_draws_plays_every_round_to_its_end(tmp_path):
    rules = _load(tmp_path)                                    # 32 cards: 8 dealt, a stock of 24 with the turned card
    game = Game(rules, max_rounds=2)
    rng = random.Random(2)
    for seed in range(5):
        state = game.new_game(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        assert len([e for e in state.events if e["type"] == "trick"]) == 32


@pytest.mark.parametrize("changes,where,words", [
    ({"deal__hand": 5, "play__draw": 4}, "play.draw", "does not share out evenly"),
    ({"play__draw": 5}, "play.draw", "does not share out evenly"),
    ({"deal__hand": 16, "deal__turn_up": False, "play__trump": None}, "play.draw", "leaves no stock"),
    ({"deal__hand_by_round": [4, 3]}, "play.draw", "a hand by round"),
    ({"play__exempt": ["J"]}, "play.exempt", "follow: none asks no card to follow"),
])
def test_a_draw_the_deal_cannot_give_is_refused_at_its_place(tmp_path, changes, where, words):
    with pytest.raises(VariantError) as error:
        _load(tmp_path, **{k: v for k, v in changes.items()})
    text = str(error.value)
    assert where in text and words in text, text


def test_a_draw_in_a_climbing_play_is_refused_at_its_key(tmp_path):
    import yaml
    spec = yaml.safe_load((ROOT / "variants" / "others" / "president.yaml").read_text())
    spec["play"]["draw"] = 1
    path = tmp_path / "president-draws.yaml"
    path.write_text(yaml.safe_dump(spec))
    with pytest.raises(VariantError) as error:
        load_variant(str(path))
    assert "play.draw" in str(error.value) and "trick-taking" in str(error.value)


# -- German Whist: the stock's top card face up, taken by the trick's winner --------------------

WHIST = ROOT / "variants" / "others" / "german-whist.yaml"


def test_german_whist_the_winner_takes_the_face_up_card_the_loser_the_next_and_one_more_is_turned():
    game = Game(load_variant(str(WHIST)))
    rng = random.Random(5)
    for seed in range(10):
        state = game.new_game(seed)
        deal = state.events[1]
        assert [len(h) for h in deal["hands"]] == [13, 13] and len(deal["stock"]) == 25
        face_up, stock = deal["face_up"]["card"], list(deal["stock"])
        trump = face_up.split("/")[1]
        draws = 0
        while not state.is_terminal() and state.round == 1:
            seat = state.current_player()
            legal = state.legal_actions()
            trick = state.table.trick
            if trick:                                           # must follow suit when able
                led = _name(game, trick[0][1]).split("/")[1]
                mine = [_name(game, c) for c in bit_numbers(state.held[seat])]
                same = [c for c in mine if c.split("/")[1] == led]
                assert sorted(_name(game, a.mask.bit_length() - 1) for a in legal) == sorted(same or mine)
            state.apply_action(rng.choice(legal))
            if state.events[-1]["type"] != "drawn":
                continue
            line, taken = state.events[-1], state.events[-2]
            winner, loser = taken["winner"], 1 - taken["winner"]
            draws += 1
            assert line["turned"] == {"seat": winner, "card": face_up} and line["hands"][winner] == [face_up]
            assert line["hands"][loser] == [stock.pop(0)]
            if draws < 13:                                      # the stock's next card is turned face up
                face_up = stock.pop(0)
                assert line["top"] == face_up and state.observation(loser).face_up_card == face_up
            else:
                assert "top" not in line and not stock
            # the loser's card is its own; every card the winner drew face up, all have seen
            shown = [z for z in state.observation(loser).zones if z.name == "drawn" and z.owner == winner]
            assert shown and shown[0].cards & state.held[winner] == shown[0].cards
            assert shown[0].cards >> game.rules.deck.card_index[line["turned"]["card"].upper()] & 1
            assert not [z for z in state.observation(winner).zones
                        if z.name == "hand" and z.owner == loser][0].cards
            # the trump is the first turned card's suit throughout
            assert {_name(game, c).split("/")[1] for c in bit_numbers(state.table.trump_mask)} == {trump}
        assert draws == 13


def test_german_whist_scores_the_tricks_won_once_the_stock_is_gone():
    game = Game(load_variant(str(WHIST)), max_rounds=1)
    rng = random.Random(8)
    for seed in range(10):
        state = game.new_game(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        tricks = [e for e in state.events if e["type"] == "trick"]
        assert len(tricks) == 26
        late = [sum(1 for t in tricks[13:] if t["winner"] == s) for s in range(2)]
        assert state.totals == late and sum(late) == 13


def _whist_after(seed: int, cards: int, choices: int):
    """German Whist dealt from ``seed``, ``cards`` cards played at random (from ``choices``)."""
    game = Game(load_variant(str(WHIST)))
    rng = random.Random(choices)
    state = game.new_game(seed)
    for _ in range(cards):
        state.apply_action(rng.choice(state.legal_actions()))
    return game, state


def test_german_whist_a_searching_player_keeps_the_face_up_cards_where_all_saw_them():
    game, state = _whist_after(3, 14, 4)                        # seven tricks and their draws
    for seat in range(2):
        other = 1 - seat
        open_cards = state.table.drawn_open[other] & state.held[other]
        for k in range(10):
            world = state.resample(seat, random.Random(k))
            assert world.held[other] & open_cards == open_cards
            assert world.face_up_card == state.face_up_card and len(world.stock) == len(state.stock)


@pytest.mark.parametrize("changes,words", [
    ({"play__stock_top": "face_up", "play__draw": None}, "draws nothing from the stock"),
    ({"play__stock_top": "face_up", "deal__turn_up": False, "play__trump": None}, "the deal turns no card up"),
])
def test_a_face_up_stock_top_needs_a_draw_and_a_turned_card(tmp_path, changes, words):
    with pytest.raises(VariantError) as error:
        _load(tmp_path, **changes)
    assert "play.stock_top" in str(error.value) and words in str(error.value), str(error.value)


def test_the_web_table_shows_the_stock_the_face_up_card_and_what_the_other_drew_face_up():
    from chimera_dsl.serve.view import seat_view
    game, state = _whist_after(1, 8, 1)                         # four tricks and their draws
    for seat in range(2):
        other = 1 - seat
        view = seat_view(game, state.observation(seat), state.events)
        assert view["stock"] == len(state.stock)
        assert view["face_up"]["drawn"] == _name(game, state.face_up_card)     # the stock's top, with its suit
        shown = view.get("drawn_open", {}).get(str(other), [])
        assert shown == game.rules.deck.mask_names(state.table.drawn_open[other] & state.held[other])
        hidden = state.held[other] & ~state.table.drawn_open[other]
        assert not set(json.dumps(view).split('"')) & set(game.rules.deck.mask_names(hidden))   # drawn face down


def test_a_draw_with_the_turned_card_picked_up_is_refused_at_play_draw(tmp_path):
    """The turned card of a play that draws lies on the stock: a phase that has it picked up
    (kind: order_up) would deal it twice."""
    path = tmp_path / "euchre-draws.yaml"
    path.write_text(f"extends: {ROOT / 'variants' / 'others' / 'euchre.yaml'}\ndeal: {{hand: 3}}\nplay: {{draw: 1}}\n")
    with pytest.raises(VariantError) as error:
        load_variant(str(path))
    assert "play.draw" in str(error.value) and "order_up" in str(error.value)


def test_following_owed_once_the_stock_is_gone_through_play_follows(tmp_path):
    """follow: none, and a must rule reading play_follows from the trick after the last draw
    (Sixty-six's stricter play once the stock is gone): before it any card, from it a card of the
    colour led whenever the hand holds one, and of those one that takes the trick if one does."""
    rules = _load(tmp_path, play__must=[{"when": "trick > 12 and can_follow", "play": "play_follows"},
                                        {"when": "trick > 12 and not leading", "play": "play_wins"}])
    game = Game(rules, max_rounds=1)
    deck = rules.deck
    order = ["7", "8", "9", "10", "J", "Q", "K", "A"]             # the deck's ranks, lowest first
    rng = random.Random(3)
    strict = free = 0
    for seed in range(40):
        state = game.new_game(seed)
        trump = deck.card_names[state.face_up_card].split("/")[1]
        while not state.is_terminal():
            seat = state.current_player()
            legal = sorted(deck.card_names[a.mask.bit_length() - 1] for a in state.legal_actions())
            hand = sorted(deck.card_names[c] for c in bit_numbers(state.held[seat]))
            trick = [deck.card_names[c] for _, c in state.table.trick]
            if trick and state.table.count + 1 > 12:
                led = trick[0].split("/")[1]
                same = [c for c in hand if c.split("/")[1] == led] or hand

                def beats(card: str, other: str) -> bool:
                    (r, s), (r2, s2) = card.split("/"), other.split("/")
                    return (s == s2 and order.index(r) > order.index(r2)) or (s == trump and s2 != trump)
                best = trick[0]
                for other in trick[1:]:
                    best = other if beats(other, best) else best
                winners = [c for c in same if beats(c, best)]
                assert legal == sorted(winners or same), (seed, trick, hand, legal)
                strict += 1
            else:
                assert legal == hand
                free += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert strict > 100 and free > 100


def test_the_terminal_table_shows_the_stock_and_the_cards_the_other_drew_face_up():
    import io
    from chimera_dsl.players.human import HumanPlayer
    game = Game(load_variant(str(WHIST)))
    rng = random.Random(1)
    state = game.new_game(4)
    while not (state.table is not None and state.table.drawn_open and state.table.count >= 1
               and any(state.table.drawn_open[s] & state.held[s] for s in range(2) if s != state.current_player())):
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    other = 1 - seat
    out = io.StringIO()
    HumanPlayer(io.StringIO("#1\n"), out).act(state.observation(seat), state.legal_actions())
    text = out.getvalue()
    assert f"stock: {len(state.stock)} cards" in text
    shown = " ".join(game.rules.deck.mask_names(state.table.drawn_open[other] & state.held[other]))
    assert f"drawn face up by seat {other}: {shown}" in text
    assert f"face-up card: {_name(game, state.face_up_card)}, waits to be taken" in text


def test_a_fixed_trump_is_said_by_the_files_own_name_of_its_colour(tmp_path):
    path = tmp_path / "briscola-coins.yaml"
    path.write_text(f"extends: {FILE}\ndeal: {{turn_up: false}}\nplay: {{trump: coins}}\n", encoding="utf-8")
    italian = write_rulebook(load_variant(str(path)), "it")
    assert "denari" in italian.split("## Gioco")[1].split("##")[0]
