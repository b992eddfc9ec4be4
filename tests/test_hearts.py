"""Hearts (variants/others/hearts.yaml and its house files): each published rule by its example.

Deals are injected (a hand's named cards, the rest drawn at random), then the play is scripted
card by card; the legal cards are read from the engine.  The language's misuses of the keys
Hearts brought (``play.must``, points by colour and card, passing by round, ``taken_colour``)
are each refused at their place.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from chimera_dsl import load_variant
from chimera_dsl.engine import Deal, Game
from chimera_dsl.errors import VariantError

ROOT = Path(__file__).resolve().parents[1]
HOUSE = ROOT / "variants" / "house_rules"


@pytest.fixture(scope="module")
def hearts():
    return load_variant(ROOT / "variants" / "others" / "hearts.yaml")


def house(name: str):
    return load_variant(HOUSE / f"hearts-{name}.yaml")


def deal_of(deck, hands: list[str], seed: int = 0) -> Deal:
    """Each seat the cards named, the rest of its 13 drawn at random from the cards left."""
    masks = [deck.cards_mask(h) if h else 0 for h in hands]
    free = deck.full_mask
    for m in masks:
        free &= ~m
    pool = deck.numbers_of(free)
    random.Random(seed).shuffle(pool)
    out = []
    for m in masks:
        need = 13 - bin(m).count("1")
        m |= deck.mask_of(pool[:need])
        pool = pool[need:]
        out.append(m)
    return Deal(tuple(out), 0, None)


def start(rules, hands: list[str], round_number: int = 4, seed: int = 0):
    """A game at the play of a round without passing (the 4th of the cycle: left, right, across,
    none), dealt ``hands``; earlier rounds are dealt at random and played out by their first
    legal card."""
    game = Game(rules)
    deals = [deal_of(rules.deck, ["", "", "", ""], seed + k) for k in range(1, round_number)]
    state = game.new_game(seed, deals=iter(deals + [deal_of(rules.deck, hands, seed)]), first_dealer=0)
    while state.round < round_number:
        state.apply_action(state.legal_actions()[0])
    assert state.phase == "play"
    return state


def play(state, card: str) -> None:
    number = state.game.rules.deck.card_index[card.upper()]
    legal = state.legal_actions()
    action = next((a for a in legal if a.mask == 1 << number), None)
    assert action is not None, f"{card} is not legal: {sorted(legal_names(state))}"
    state.apply_action(action)


def legal_names(state) -> set[str]:
    deck = state.game.rules.deck
    return {deck.card_names[a.mask.bit_length() - 1] for a in state.legal_actions()}


def held(state, seat: int) -> set[str]:
    deck = state.game.rules.deck
    return set(deck.mask_names(state.held[seat]))


# -- passing ------------------------------------------------------------------------------------
def test_passing_goes_left_right_across_then_none_in_a_cycle(hearts):
    """On the first deal the cards go to the player on the left, on the second to the right, on
    the third across; on the fourth there is no passing; and so on."""
    game = Game(hearts, max_rounds=5)
    state = game.new_game(7)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    gifts = {}
    for event in state.events:
        if event["type"] == "exchange":
            gifts.setdefault(event["round"], []).append(((event["to"] - event["from"]) % 4, len(event["cards"])))
    assert sorted(gifts) == [1, 2, 3, 5]
    assert gifts[1] == gifts[5] == [(1, 3)] * 4                # left: the next seat clockwise
    assert gifts[2] == [(3, 3)] * 4                            # right
    assert gifts[3] == [(2, 3)] * 4                            # across


def test_three_cards_are_chosen_before_any_is_received(hearts):
    game = Game(hearts, max_rounds=1)
    deal = deal_of(hearts.deck, ["2/clubs", "", "", ""])
    state = game.new_game(0, deals=iter([deal]), first_dealer=3)
    assert state.phase == "passing" and state.current_player() == 0
    gifts = state.legal_actions()
    assert len(gifts) == 286                                  # every 3 of 13 named cards
    gift = next(a for a in gifts if a.mask & 1 << hearts.deck.card_index["2/CLUBS"])
    state.apply_action(gift)
    assert "2/clubs" not in held(state, 0) and "2/clubs" not in held(state, 1)    # not received yet
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    assert "2/clubs" in held(state, 1)
    # the holder of the 2 of clubs after the pass leads it
    assert state.phase == "play" and state.current_player() == 1 and legal_names(state) == {"2/clubs"}


def test_without_passing_the_play_begins_at_once():
    rules = house("no-passing")
    state = Game(rules, max_rounds=1).new_game(3)
    assert state.phase == "play"


# -- the first trick ----------------------------------------------------------------------------
def test_the_two_of_clubs_leads_the_first_trick(hearts):
    state = start(hearts, ["", "", "2/clubs 3/clubs 4/hearts", ""])
    assert state.current_player() == 2 and legal_names(state) == {"2/clubs"}


def test_with_the_house_rule_any_club_may_open():
    state = start(house("lead-any-club"), ["", "", "2/clubs 9/clubs A/clubs", "3/clubs 4/clubs 5/clubs"])
    assert state.current_player() == 2
    assert legal_names(state) == {c for c in held(state, 2) if c.endswith("/clubs")} >= {"2/clubs", "A/clubs"}


CLUBLESS = ("2/clubs 3/clubs 4/clubs 5/clubs 6/clubs 7/clubs 8/clubs 9/clubs 10/clubs J/clubs Q/clubs K/clubs "
            "A/clubs")


def test_no_penalty_card_on_the_first_trick_unless_the_hand_holds_nothing_else(hearts):
    # seat 0 holds every club; seat 1 holds hearts, the queen of spades and diamonds
    state = start(hearts, [CLUBLESS, "2/hearts 3/hearts Q/spades 4/diamonds 5/diamonds", "", ""])
    play(state, "2/clubs")
    assert state.current_player() == 1
    assert legal_names(state) == {c for c in held(state, 1) if not c.endswith("/hearts") and c != "Q/spades"}
    assert "4/diamonds" in legal_names(state)


def test_a_hand_of_nothing_but_penalty_cards_may_discard_one_on_the_first_trick(hearts):
    hearts_only = " ".join(f"{r}/hearts" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"])
    state = start(hearts, [CLUBLESS, hearts_only + " Q/spades", "", ""])
    play(state, "2/clubs")
    assert legal_names(state) == held(state, 1)


def test_with_the_house_rule_points_may_be_discarded_on_the_first_trick():
    state = start(house("points-on-first-trick"), [CLUBLESS, "2/hearts Q/spades 4/diamonds", "", ""])
    play(state, "2/clubs")
    assert legal_names(state) == held(state, 1)


# -- breaking hearts ----------------------------------------------------------------------------
def play_trick(state, *cards: str) -> None:
    for card in cards:
        play(state, card)


ELEVEN_SPADES = " ".join(f"{r}/spades" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "K"])


def broken_setup(rules, discard: str = "8/hearts"):
    """Seat 3 takes the first trick with the ace of clubs and leads, holding hearts and other
    cards; seat 0, with one club only, may discard ``discard`` on the second trick."""
    zero = f"2/clubs {discard} {ELEVEN_SPADES}"
    return start(rules, [zero, "3/clubs 4/clubs 4/diamonds", "5/clubs 6/clubs 5/diamonds",
                         "A/clubs K/clubs 2/hearts 2/diamonds 3/diamonds"])


def test_hearts_may_not_be_led_before_they_are_broken(hearts):
    state = broken_setup(hearts)
    play_trick(state, "2/clubs", "3/clubs", "5/clubs", "A/clubs")
    assert state.current_player() == 3
    assert not any(c.endswith("/hearts") for c in legal_names(state))
    assert {"K/clubs", "2/diamonds"} <= legal_names(state)


def test_a_heart_played_breaks_hearts(hearts):
    state = broken_setup(hearts)
    play_trick(state, "2/clubs", "3/clubs", "5/clubs", "A/clubs")
    play_trick(state, "K/clubs", "8/hearts", "4/clubs", "6/clubs")        # seat 0 has no club: a heart
    assert state.current_player() == 3
    assert "2/hearts" in legal_names(state)


@pytest.mark.parametrize("name, breaks", [(None, True), ("queen-does-not-break", False)])
def test_the_queen_of_spades_breaks_hearts_unless_the_house_rule_says_not(hearts, name, breaks):
    rules = hearts if name is None else house(name)
    state = broken_setup(rules, "Q/spades")
    play_trick(state, "2/clubs", "3/clubs", "5/clubs", "A/clubs")
    play_trick(state, "K/clubs", "Q/spades", "4/clubs", "6/clubs")
    assert state.current_player() == 3
    assert ("2/hearts" in legal_names(state)) is breaks


def test_a_leader_holding_only_hearts_may_lead_one(hearts):
    only_hearts = " ".join(f"{r}/hearts" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"])
    state = start(hearts, ["A/clubs " + only_hearts, "2/clubs", "3/clubs", "4/clubs"])
    play_trick(state, "2/clubs", "3/clubs", "4/clubs", "A/clubs")
    assert state.current_player() == 0 and legal_names(state) == held(state, 0)


def test_hearts_may_be_led_at_any_time_with_the_house_rule():
    state = broken_setup(house("no-breaking"))
    play_trick(state, "2/clubs", "3/clubs", "5/clubs", "A/clubs")
    assert "2/hearts" in legal_names(state)


@pytest.mark.parametrize("name, free", [(None, False), ("lead-hearts-instead-of-queen", True)])
def test_a_leader_with_the_queen_and_hearts_only(hearts, name, free):
    rules = hearts if name is None else house(name)
    eleven = " ".join(f"{r}/hearts" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q"])
    state = start(rules, ["A/clubs Q/spades " + eleven, "2/clubs", "3/clubs", "4/clubs"])
    play_trick(state, "2/clubs", "3/clubs", "4/clubs", "A/clubs")
    assert state.current_player() == 0
    assert legal_names(state) == (held(state, 0) if free else {"Q/spades"})


# -- scoring ------------------------------------------------------------------------------------
def scored(rules, taken: list[str], tricks: list[int] | None = None) -> list:
    """Each seat's points for a round in which each seat took the cards ``taken`` (and
    ``tricks`` tricks), scored by the file's own scoring."""
    game = Game(rules)
    deck = rules.deck
    play = game.round.play
    masks = [deck.cards_mask(t) if t else 0 for t in taken]
    rest = deck.full_mask & ~sum(masks)
    masks[3] |= rest                          # the cards nobody named: seat 3's
    tricks = tricks or [max(1, bin(m).count("1") // 4) for m in masks]
    seats = []
    for s, mask in enumerate(masks):
        points = sum(play.card_points[c] for c in deck.numbers_of(mask))
        seats.append({"won": False, "out_first": False, "is_dealer": s == 0, "cards_left": 0, "plays": 13,
                      "card_points": 0, "trick_points": points, "own_trick_points": points,
                      "tricks_taken": tricks[s], "side_tricks": tricks[s], "announced": 0, "_taken": mask})
    env = {"bid": 0, "round": 1, "players": 4, "bidder_won": False, "_counts": {}, "_plays": [13] * 4,
           "_roles": {"bidder": (), "others": (), "each": (0, 1, 2, 3)}}
    _, parts, _ = game.round.scoring.score(env, seats, lambda seat: None)
    return [sum(p for _, p in part) for part in parts]


HEARTS13 = " ".join(f"{r}/hearts" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"])


def test_each_heart_is_one_point_and_the_queen_thirteen(hearts):
    assert scored(hearts, ["2/hearts 3/hearts", "Q/spades", "A/hearts 5/clubs", ""]) == [2, 13, 1, 10]


def test_shooting_the_moon_scores_zero_and_26_to_each_other(hearts):
    assert scored(hearts, ["", "", HEARTS13 + " Q/spades", "2/clubs"]) == [26, 26, 0, 26]
    # twelve hearts and the queen are no moon
    assert scored(hearts, ["", "", HEARTS13.replace("2/hearts ", "") + " Q/spades", "2/hearts"]) == [0, 0, 25, 1]


def test_the_jack_of_diamonds_counts_minus_ten_and_is_not_needed_to_shoot():
    rules = house("jack-of-diamonds")
    assert scored(rules, ["J/diamonds 2/hearts", "Q/spades", "", ""]) == [-9, 13, 0, 12]
    assert scored(rules, ["J/diamonds", "", HEARTS13 + " Q/spades", ""]) == [16, 26, 0, 26]
    assert scored(rules, ["", "", HEARTS13 + " Q/spades J/diamonds", ""]) == [26, 26, -10, 26]


def test_taking_no_trick_is_five_points_off_unless_the_moon_is_shot():
    rules = house("avoid-all-tricks")
    assert scored(rules, ["", "Q/spades", "2/hearts", ""], [0, 3, 5, 5]) == [-5, 13, 1, 12]
    assert scored(rules, ["", "", HEARTS13 + " Q/spades", ""], [0, 0, 10, 3]) == [26, 26, 0, 26]


# -- the end ------------------------------------------------------------------------------------
def test_the_game_ends_at_100_and_the_lowest_total_wins(hearts):
    game = Game(hearts)
    state = game.new_game(11)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    totals = state.totals
    assert max(totals) >= 100
    before = [e["totals"] for e in state.events if e["type"] == "round_end"][-2]
    assert max(before) < 100
    game_end = [e for e in state.events if e["type"] == "game_end"][0]
    assert game_end["winner"] == totals.index(min(totals))


def test_a_shooter_who_only_scores_zero_still_ends_the_game(tmp_path):
    """The loader proves a game reaches its end from outcomes of a round: where the seat that
    takes every point scores 0 (a moon shot without the 26 to the others), the points split
    between seats make the end reachable; it was refused ("no seat can score more than 0")."""
    house_file = tmp_path / "shooter.yaml"
    house_file.write_text(f"extends: {ROOT / 'variants' / 'others' / 'hearts.yaml'}\n"
                          "scoring:\n  points:\n    each: \"if own_trick_points == 26 then 0 else own_trick_points\"\n",
                          encoding="utf-8")
    rules = load_variant(house_file)
    assert Game(rules).round.end.winner == "lowest"


# -- misuse -------------------------------------------------------------------------------------
@pytest.mark.parametrize("edit, where, says", [
    ("play:\n  must: [{play: \"play_has_colour(heart)\"}]\n", "play.must.0.play", "'heart' is not a colour"),
    ("play:\n  must: [{when: \"play_has_colour(hearts)\", play: \"true\"}]\n", "play.must.0.when",
     "reads the play"),
    ("play:\n  must: [{play: \"trick + 1\"}]\n", "play.must.0.play", "condition"),
    ("play:\n  must: [{play: \"play_has_card(x, clubs)\"}]\n", "play.must.0.play", "'x' is not a rank"),
    ("play:\n  points: {heart: 1}\n", "play.points.heart", "unknown rank 'heart'"),
    ("play:\n  points: {Z/spades: 1}\n", "play.points.Z/spades", "unknown rank"),
    ("phases:\n  passing: {to: {by_round: [left, up]}}\n", "phases.passing.to", "not 'up'"),
    ("phases:\n  passing: {from: 0}\n", "phases.passing.to", "needs every seat to give"),
    ("players: 5\ndeal: {hand: 10}\nphases:\n  passing: {to: across}\n", "phases.passing.to",
     "no seat sits across"),
    ("scoring:\n  points:\n    each: \"taken_colour(spade)\"\n", "scoring.points.each", "'spade' is not a colour"),
])
def test_misuse_is_located(tmp_path, edit, where, says):
    bad = tmp_path / "bad.yaml"
    bad.write_text(f"extends: {ROOT / 'variants' / 'others' / 'hearts.yaml'}\n" + edit, encoding="utf-8")
    with pytest.raises(VariantError) as info:
        load_variant(bad)
    problem = info.value.problems[0]
    assert ".".join(map(str, problem.path)).startswith(where) and says in problem.message, problem
    assert problem.line is not None


# -- the default player ---------------------------------------------------------------------------
def test_the_heuristic_takes_fewer_points_than_random_players(hearts):
    """The lowest total wins: the heuristic passes its dangerous cards and sheds points onto
    others' tricks, so from each seat in turn it takes fewer points a round than the random
    players beside it."""
    from chimera_dsl.players import make_player
    game = Game(hearts, max_rounds=4)
    mine = others = rounds = 0
    for g in range(12):
        seat = g % 4
        players = [make_player("heuristic" if s == seat else "random", seed=g * 10 + s) for s in range(4)]
        state = game.new_game(g)
        while not state.is_terminal():
            p = state.current_player()
            state.apply_action(players[p].act(state.observation(p), state.legal_actions()))
        for event in (e for e in state.events if e["type"] == "round_end"):
            rounds += 1
            mine += event["points"][seat]
            others += sum(event["points"]) - event["points"][seat]
    assert mine / rounds < 0.6 * others / (3 * rounds)


def test_a_card_a_rule_forbids_is_refused_with_the_rule(hearts):
    from chimera_dsl.engine.phases.tricks import card_action
    from chimera_dsl.errors import IllegalActionError
    state = broken_setup(hearts)
    play_trick(state, "2/clubs", "3/clubs", "5/clubs", "A/clubs")
    heart = hearts.deck.card_index["2/HEARTS"]
    with pytest.raises(IllegalActionError, match=r"play.must\[2\] asks for a play where"):
        state.apply_action(card_action(state.game, heart))


def test_the_rulebook_says_each_new_rule_in_four_languages(hearts):
    from chimera_dsl.tell.rulebook import write_rulebook
    says = {"en": ("the card is the 2 of clubs", "the player on their left", "each card of hearts: 1",
                   "the cards of hearts in the tricks the player took"),
            "fr": ("2 de trèfle", "son voisin de gauche", "chaque carte de cœur : 1", "plis ramassés"),
            "de": ("Kreuz 2", "die Person zur Linken", "jede Karte Herz: 1", "in den eigenen Stichen"),
            "it": ("il 2 di fiori", "il giocatore alla sua sinistra", "ogni carta di cuori: 1", "nelle prese")}
    for lang, phrases in says.items():
        text = write_rulebook(hearts, lang)
        for phrase in phrases:
            assert phrase in text, (lang, phrase)
        assert "atout" not in text.lower() and "trump" not in text.lower() and "trumpf" not in text.lower()
