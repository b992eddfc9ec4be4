"""Gang of Four (variants/others/gang-of-four.yaml) against its rulebook, example by example.

Each test quotes the sentence of the French rulebook it checks.  The plays are compared
through the public API (``Rules.beats``, ``classify``, ``legal_plays``) and the round through
the engine's ``State``, with deals injected where a test needs a position.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from chimera_dsl import load_variant
from chimera_dsl.engine import PASS, Deal, Game
from chimera_dsl.players import make_player

ROOT = Path(__file__).resolve().parent.parent
GANG = ROOT / "variants" / "others" / "gang-of-four.yaml"


@pytest.fixture(scope="module")
def rules():
    return load_variant(GANG)


def reading(rules, cards: str, combination: str):
    """The play these cards make as ``combination``."""
    return next(p for p in rules.classify(cards) if p.combination == combination)


def readings(rules, cards: str) -> set[str]:
    return {p.combination for p in rules.classify(cards)}


# -- the deck ------------------------------------------------------------------------------------
def test_the_deck_holds_64_cards_as_the_rulebook_lists_them(rules):
    deck = rules.deck
    assert len(deck.cards) == 64
    names = list(deck.card_names)
    for value in range(1, 11):
        for colour in ("green", "yellow", "red"):
            assert names.count(f"{value}/{colour}") == 2
    assert names.count("1/multi") == 1
    assert sorted(n for n in names if n.startswith(("Ph", "D"))) == ["D/red", "Ph/green", "Ph/yellow"]


# -- singles -------------------------------------------------------------------------------------
def test_red_beats_yellow_beats_green_at_the_same_value(rules):
    # "Le rouge est toujours supérieur au jaune, qui est lui même toujours supérieur au vert,
    # même lorsque ces cartes sont de la même valeur."
    assert rules.beats("7/yellow", "7/red") and rules.beats("7/green", "7/yellow")
    assert not rules.beats("7/red", "7/yellow") and not rules.beats("7/red", "7/red")
    # a higher value beats whatever its colour
    assert rules.beats("7/red", "8/green")


def test_the_multicoloured_one_beats_the_other_ones_and_nothing_else(rules):
    # "Il est plus fort que les autres 1, mais moins fort que toutes les autres cartes."
    assert rules.beats("1/red", "1/multi")
    assert rules.beats("1/red 1/red", "1/multi 1/green")      # the best card of a pair decides
    assert rules.beats("1/multi", "2/green")
    assert not rules.beats("2/green", "1/multi")


def test_the_dragon_is_the_best_single_and_only_plays_alone(rules):
    # "Le dragon est la plus forte de toutes les cartes seules, devant Phénix. Le Dragon ne peut
    # être utilisé que seul."
    assert rules.beats("Ph/yellow", "D/red") and rules.beats("10/red", "Ph/green")
    assert not rules.beats("D/red", "Ph/yellow")
    assert readings(rules, "D/red") == {"single"}
    assert readings(rules, "D/red Ph/green") == set()
    assert readings(rules, "D/red 10/red 10/green 10/yellow 9/red") == set()


# -- pairs and trios -----------------------------------------------------------------------------
def test_pairs_by_value_then_by_their_best_card(rules):
    # "Une paire rouge/jaune bat une paire rouge/verte qui bat une paire jaune/jaune qui bat une
    # paire jaune/verte qui bat une paire verte/verte."
    ladder = ["5/green 5/green", "5/yellow 5/green", "5/yellow 5/yellow", "5/red 5/green", "5/red 5/yellow"]
    for lower, higher in zip(ladder, ladder[1:]):
        assert rules.beats(lower, higher), (lower, higher)
        assert not rules.beats(higher, lower), (higher, lower)
    assert rules.beats("5/red 5/red", "6/green 6/green")     # "la valeur ... doit être supérieure"


def test_the_two_phoenixes_are_the_best_pair(rules):
    # "Les deux phénix posés ensemble constituent la plus forte des paires."
    assert readings(rules, "Ph/green Ph/yellow") == {"pair"}
    assert rules.beats("10/red 10/red", "Ph/green Ph/yellow")
    assert not rules.beats("Ph/green Ph/yellow", "10/red 10/red")


def test_trios_follow_the_rules_of_pairs(rules):
    # "La règles des nombres et la règle des couleurs sont identiques pour les brelans et pour
    # les paires."
    assert rules.beats("4/yellow 4/yellow 4/green", "4/red 4/green 4/green")
    assert rules.beats("4/red 4/red 4/yellow", "5/green 5/green 5/yellow")
    assert readings(rules, "Ph/green Ph/yellow D/red") == set()


# -- five cards ------------------------------------------------------------------------------------
def test_five_card_plays_are_ordered_straight_flush_full_house_straight_flush(rules):
    straight = "1/green 2/red 3/yellow 4/green 5/red"
    flush = "2/green 4/green 7/green 8/green 9/green"
    full = "2/green 2/yellow 2/red 3/green 3/yellow"
    straight_flush = "6/yellow 7/yellow 8/yellow 9/yellow 10/yellow"
    assert readings(rules, straight) == {"straight"}
    assert readings(rules, flush) == {"flush"}
    assert readings(rules, full) == {"full_house"}
    assert readings(rules, straight_flush) == {"straight", "flush", "straight_flush"}
    order = [(straight, "straight"), (flush, "flush"), (full, "full_house"), (straight_flush, "straight_flush")]
    for i, (lower, lower_kind) in enumerate(order):
        for higher, higher_kind in order[i + 1:]:
            assert rules.beats(lower, higher), (lower, higher)
            low, high = reading(rules, lower, lower_kind), reading(rules, higher, higher_kind)
            assert rules.can_beat(high, low) and not rules.can_beat(low, high), (lower, higher)
    # the order holds whatever the values: a low flush beats the highest straight
    assert rules.beats("6/red 7/green 8/red 9/yellow 10/red", "1/green 2/green 3/green 4/green 6/green")


SPLIT_FULL_HOUSE = f"""
extends: {GANG}
combinations:
  full_house:
    pattern: "trio of number + pair of number"
  full_house_phoenix:
    names: {{en: Full house (Phoenix in the pair), fr: Full (paire de Phénix), de: Full House (Phönix-Paar)}}
    pattern: "trio of number + pair of Ph"
    compare: cards
    order: 3
"""


def test_two_combinations_of_one_order_share_a_place_in_the_rulebook(write_variant):
    """The full house split in two combinations of one order: they compare their plays, as one
    combination does, so the rulebook says they share a place (not Full house < Full house
    (Phoenix in the pair)); a name two of them share is said once."""
    from chimera_dsl.tell.rulebook import write_rulebook
    split = load_variant(write_variant(SPLIT_FULL_HOUSE))
    text = write_rulebook(split, "en")
    assert "in this order: Straight < Flush < Full house = Full house (Phoenix in the pair) < Straight flush." in text
    assert "Full house and Full house (Phoenix in the pair) share one place in this order: between them, the " \
           "stronger play beats, as within one combination." in text
    assert "Full = Full (paire de Phénix) < Suite" in write_rulebook(split, "fr")
    same_name = load_variant(write_variant(SPLIT_FULL_HOUSE.replace(
        "{en: Full house (Phoenix in the pair), fr: Full (paire de Phénix), de: Full House (Phönix-Paar)}",
        "{en: Full house, fr: Full, de: Full House}")))
    text = write_rulebook(same_name, "en")
    assert "in this order: Straight < Flush < Full house < Straight flush." in text and "share one place" not in text


def test_beats_tells_two_combinations_of_one_order_apart(write_variant):
    """Between two combinations of one order the stronger play beats; beats says they are two
    combinations sharing a place, not "the same combination"."""
    split = load_variant(write_variant(SPLIT_FULL_HOUSE))
    phoenix, plain = "5/green 5/yellow 5/red Ph/green Ph/yellow", "3/green 3/yellow 3/red 2/green 2/yellow"
    assert split.explain_beats(plain, phoenix) == (
        True, "a full_house_phoenix and a full_house share one place in the order of their tier, same number of "
              "cards, higher rank (5 > 3)")
    assert split.explain_beats(phoenix, plain) == (
        False, "a full_house and a full_house_phoenix share one place in the order of their tier: rank 3 is not "
               "higher than 5")
    # one combination keeps its words
    assert split.explain_beats(plain, "5/green 5/yellow 5/red 2/green 2/yellow")[1] == \
        "same combination (full_house), same number of cards, higher rank (5 > 3)"


def test_straights_compare_their_colours_from_the_highest_card(rules):
    # "on commence la comparaison des couleurs en commencant par la carte la plus forte, 9 jaune
    # est plus fort que le 9 vert."
    assert rules.beats("5/red 6/red 7/red 8/red 9/green", "5/green 6/green 7/green 8/green 9/yellow")
    assert not rules.beats("5/green 6/green 7/green 8/green 9/yellow", "5/red 6/red 7/red 8/red 9/green")
    assert rules.beats("5/red 6/red 7/red 8/red 9/red", "6/green 7/green 8/yellow 9/green 10/green")


def test_a_flush_with_a_higher_card_wins_whatever_its_colour(rules):
    # "Une 'couleur' bat une autre, si elle contient une carte au moins d'une valeur supérieure,
    # et quelle que soit sa couleur. ... En cas d'égalité de valeur de cartes, c'est la carte en
    # dessous de la plus forte qui permet d'établir la supériorité, etc..."
    red = "2/red 3/red 5/red 7/red 9/red"
    green_higher_second = "2/green 3/green 5/green 8/green 9/green"
    assert rules.beats(red, green_higher_second)
    assert not rules.beats(green_higher_second, red)
    # the same values: the colour decides
    assert rules.beats("2/green 3/green 5/green 7/green 9/green", red)


def test_a_full_house_is_decided_by_its_trio_then_its_pair(rules):
    # "Un full en bat un autre si son brelan est supérieur à l'autre. S'ils sont identiques, la
    # paire départage les joueurs."
    assert rules.beats("3/green 3/green 3/yellow 9/red 9/red", "4/green 4/green 4/yellow 2/green 2/green")
    assert rules.beats("3/green 3/green 3/yellow 2/green 2/green", "3/green 3/green 3/yellow 9/red 9/red")
    # the trio is compared as trios are ("la règle des couleurs"): a redder trio of 3s wins
    # whatever the pairs, and only identical trios leave the pair to decide, colours included
    assert rules.beats("3/green 3/green 3/yellow 9/red 9/red", "3/red 3/red 3/yellow 2/green 2/green")
    assert not rules.beats("3/red 3/red 3/yellow 2/green 2/green", "3/green 3/green 3/yellow 9/red 9/red")
    assert rules.beats("3/red 3/red 3/yellow 2/green 2/green", "3/red 3/red 3/yellow 2/yellow 2/green")


def test_the_phoenixes_may_be_the_pair_of_a_full_house(rules):
    # "Les Phénix peuvent être utilisés comme paire dans un full, si un joueur a les deux."
    assert "full_house" in readings(rules, "6/green 6/yellow 6/red Ph/green Ph/yellow")
    assert rules.beats("6/green 6/yellow 6/red 10/red 10/red", "6/green 6/yellow 6/red Ph/green Ph/yellow")


def test_the_multicoloured_one_takes_the_colour_of_a_flush(rules):
    # "Il possède toutes les couleurs et peut donc se combiner avec toutes les autres couleurs.
    # En cas de combinaison à la couleur, il prend la couleur de cette combinaison."
    assert readings(rules, "1/multi 3/red 5/red 7/red 9/red") == {"flush"}
    assert "straight_flush" in readings(rules, "1/multi 2/yellow 3/yellow 4/yellow 5/yellow")
    assert readings(rules, "1/multi 3/red 5/green 7/red 9/red") == set()
    # it counts as a card of the flush's colour: a yellow flush with it beats a green one
    assert rules.beats("1/green 3/green 5/green 7/green 9/green", "1/multi 3/yellow 5/yellow 7/yellow 9/yellow")


# -- gangs -------------------------------------------------------------------------------------------
def test_gangs_beat_everything_and_bigger_gangs_beat_smaller(rules):
    # "Le Gang of Four est constitué de 4 cartes de la même valeur.  Avec le Gang of Five, le Gang
    # of Six et le Gang of Seven, ils constituent les combinaisons les plus fortes du jeu."
    four = "2/green 2/green 2/yellow 2/red"
    assert readings(rules, four) == {"gang_of_four"}
    assert rules.beats("6/red 7/red 8/red 9/red 10/red", four)
    assert rules.beats("D/red", four) and rules.beats("Ph/green Ph/yellow", four)
    # "Un Gang of Four peut être battu par un autre Gang of Four d'un niveau supérieur, ou par
    # n'importe quel gang of Five ou Gang of Six."
    assert rules.beats(four, "3/green 3/green 3/yellow 3/red")
    assert not rules.beats("3/green 3/green 3/yellow 3/red", four)
    five = "2/green 2/green 2/yellow 2/yellow 2/red"
    assert rules.beats("10/green 10/green 10/yellow 10/red", five)
    six = "1/green 1/green 1/yellow 1/yellow 1/red 1/red"
    assert rules.beats("10/green 10/green 10/yellow 10/yellow 10/red", six)
    # "La combinaison la plus forte est constituée par les sept 1: c'est le gang of Seven."
    assert readings(rules, six) == {"gang_of_six"}
    seven = six + " 1/multi"
    # the multicoloured 1 is a 1 in every gang of 1s, and the best of them
    assert readings(rules, "1/multi 1/green 1/yellow 1/red") == {"gang_of_four"}
    assert rules.beats("1/green 1/yellow 1/red 1/red", "1/multi 1/green 1/yellow 1/red")
    assert readings(rules, seven) == {"gang_of_seven"}
    assert rules.beats("10/green 10/green 10/yellow 10/yellow 10/red 10/red", seven)


def test_a_gang_answers_any_play_and_plays_need_as_many_cards(rules):
    # "chaque joueur doit poser le même nombre de cartes que celui imposé par le meneur de jeu"
    plays = rules.legal_plays("3/green 4/green 4/yellow 8/red 8/red 8/green 8/yellow", "5/red 5/red")
    assert {p.combination for p in plays} == {"pair", "gang_of_four"}
    assert all(p.size == 2 for p in plays if p.combination == "pair")


# -- the round ---------------------------------------------------------------------------------------
def _deal(rules, *hands: str) -> Deal:
    deck = rules.deck
    masks = []
    free = deck.full_mask
    for hand in hands:
        mask = deck.cards_mask(hand, within=free)
        free &= ~mask
        masks.append(mask)
    return Deal(tuple(masks), 0, None)


def _game_with(rules, *hands: str, seed=0):
    game = Game(rules)
    return game.new_game(seed, deals=iter([_deal(rules, *hands)] * 1), first_dealer=0)


def test_the_holder_of_the_multicoloured_one_leads_it_in_round_one(rules):
    # "Au premier tour le joueur qui détient la carte '1 multicolore' commence la partie en
    # posant cette carte dans une combinaison de cartes de son choix."
    for seed in range(20):
        state = Game(rules).new_game(seed)
        holder = next(s for s in range(4) if state.held[s] & rules.deck.cards_mask("1/multi"))
        assert state.current_player() == holder
        legal = state.legal_actions()
        assert legal and PASS not in legal
        assert all("1/multi" in a.play.cards for a in legal)
        assert any(a.play.combination != "single" for a in legal) or len(legal) == 1


def test_play_goes_counterclockwise_then_reverses_each_round(rules):
    # "Le premier tour se joue dans le sens inverse des aiguilles d'une montre. Ensuite, le sens
    # est inversé à chaque tour."
    state = Game(rules).new_game(5)
    players = [make_player("random", s) for s in range(4)]
    directions = {}
    seen = 0
    while not state.is_terminal() and state.round <= 3:
        seat = state.current_player()
        state.apply_action(players[seat].act(state.observation(seat), state.legal_actions()))
        for event in state.events[seen:]:
            if event["type"] == "deal":
                directions[event["round"]] = event.get("direction")
        seen = len(state.events)
    assert directions[1] == "counterclockwise" and directions[2] == "clockwise" and directions[3] == "counterclockwise"
    plays = [e for e in state.events if e["type"] in ("play", "pass") and e["round"] == 1 and not e.get("out_of_turn")]
    first, second = plays[0]["seat"], plays[1]["seat"]
    assert second == (first - 1) % 4


def test_the_loser_gives_its_best_card_and_the_winner_one_of_its_choice_shown_to_all(rules):
    # "Le joueur qui avait le plus de cartes en main à la fin de la manche précédente lui donne sa
    # meilleure carte. ... il lui rend une carte de son choix. Pendant l'échange, les cartes sont
    # visibles des autres joueurs."
    for seed in range(6):
        state = Game(rules).new_game(seed)
        players = [make_player("random", seed * 4 + s) for s in range(4)]
        while state.round < 2 and not state.is_terminal():
            seat = state.current_player()
            state.apply_action(players[seat].act(state.observation(seat), state.legal_actions()))
        end = next(e for e in state.events if e["type"] == "round_end")
        winner = end["out"]
        most = max(end["cards_left"])
        deal2 = next(e for e in state.events if e["type"] == "deal" and e["round"] == 2)
        # the second round is dealt by the first round's winner
        assert deal2["dealer"] == winner
        # the tribute is the best card of a seat that held the most cards
        while state.kind == "transfer":
            seat = state.current_player()
            state.apply_action(players[seat].act(state.observation(seat), state.legal_actions()))
        gifts = [e for e in state.events if e["type"] == "exchange" and e["round"] == 2]
        assert [g["phase"] for g in gifts] == ["tribute", "give_back"]
        tribute, back = gifts
        loser = tribute["from"]
        assert end["cards_left"][loser] == most and tribute["to"] == winner
        assert back["from"] == winner and back["to"] == loser
        assert tribute["shown"] and back["shown"]
        hand = rules.deck.cards_mask(deal2["hands"][loser])
        best = max(rules.deck.numbers_of(hand),
                   key=lambda c: (rules.deck.card_rank[c], rules.deck.card_colour[c]))
        given = rules.deck.cards_mask(tribute["cards"])
        assert rules.deck.card_rank[given.bit_length() - 1] == rules.deck.card_rank[best]
        assert rules.deck.card_colour[given.bit_length() - 1] == rules.deck.card_colour[best]
        # every other seat sees both cards
        for seat in range(4):
            seen = state.observation(seat).transfers
            assert len([t for t in seen if t]) >= 2


def test_the_seat_before_a_last_card_must_play_its_strongest_single(rules):
    # "Lorsqu'un joueur a annoncé 'carte' et que l'on joue un single, le joueur le précédant
    # immédiatement doit impérativement jouer sa carte la plus forte à son tour de jeu."
    # Seat 0 leads (it holds the multicoloured 1); play goes 0, 3, 2, 1; seat 1 holds one card,
    # so seat 2, just before it, must answer a single with its strongest card.
    state = _game_with(rules, "1/multi 3/green 4/green", "5/green", "2/green 6/yellow 6/red 9/red 9/green",
                       "2/yellow 7/green 8/green")
    assert state.current_player() == 0
    lead = next(a for a in state.legal_actions() if a.play.cards == ["1/multi"])
    state.apply_action(lead)
    assert state.current_player() == 3 and PASS in state.legal_actions()
    state.apply_action(PASS)
    assert state.current_player() == 2
    legal = state.legal_actions()
    assert [a.play.cards for a in legal if a.play.size == 1] == [["9/red"]]
    assert PASS not in legal                     # its strongest card beats the trick: no pass
    state.apply_action(legal[0])
    for _ in range(3):                           # seats 1, 0 and 3 cannot beat 9/red
        assert state.legal_actions() == [PASS]
        state.apply_action(PASS)
    # seat 2 leads: a single it leads is its strongest card; its pair stays free
    assert state.current_player() == 2
    leads = {(a.play.combination, " ".join(a.play.cards)) for a in state.legal_actions()}
    assert leads == {("single", "9/green"), ("pair", "6/yellow 6/red")}


def test_the_last_card_knob_lets_the_seat_pass(tmp_path):
    house = ROOT / "variants" / "house_rules" / "gang-of-four-last-card-may-pass.yaml"
    rules = load_variant(house)
    state = _game_with(rules, "1/multi 3/green 4/green", "5/green", "2/green 6/yellow 6/red 9/red 9/green",
                       "2/yellow 7/green 8/green")
    state.apply_action(next(a for a in state.legal_actions() if a.play.cards == ["1/multi"]))
    state.apply_action(PASS)
    legal = state.legal_actions()
    assert [a.play.cards for a in legal if a.kind == "play" and a.play.size == 1] == [["9/red"]]
    assert PASS in legal


def test_gangs_are_offered_out_of_turn_and_in_turn_only_under_the_knob():
    # "contrairement aux autres figures, ils peuvent être joués à tous moment. Lorsqu'un joueur
    # pose un Gang, il prend immédiatement la main."
    hands = ("1/multi 3/green", "5/green 5/green 5/yellow 5/red 9/green", "2/green 6/yellow", "2/yellow 7/green")
    rules = load_variant(GANG)
    state = _game_with(rules, *hands)
    state.apply_action(next(a for a in state.legal_actions() if a.play.cards == ["1/multi"]))
    # seat 3 is next in turn; seat 1 (not next) is offered its gang at once
    assert state.current_player() == 1 and state.interrupting
    assert {a.play.combination for a in state.legal_actions() if a.kind == "play"} == {"gang_of_four"}
    in_turn = load_variant(ROOT / "variants" / "house_rules" / "gang-of-four-gangs-in-turn.yaml")
    state = _game_with(in_turn, *hands)
    state.apply_action(next(a for a in state.legal_actions() if a.play.cards == ["1/multi"]))
    assert state.current_player() == 3 and not state.interrupting


def _penalty(rules, cards_left: int) -> int:
    scoring = Game(rules).round.scoring
    env = {"bid": 0, "round": 1, "players": 4, "bidder_won": False, "_counts": {}, "_plays": [1, 1, 1, 1],
           "_roles": {"bidder": (), "others": (), "each": (0, 1, 2, 3)}}
    seats = [{"won": s == 0, "out_first": s == 0, "cards_left": 0 if s == 0 else cards_left, "plays": 1,
              "card_points": 0} for s in range(4)]
    _bonuses, parts, _treasures = scoring.score(env, seats, lambda seat: None)
    return sum(points for _, points in parts[1])


def test_penalties_by_cards_left_as_the_rulebook_counts_them(rules):
    # "Un joueur à qui il reste 6 cartes en main: 6 x 1 = 6 points de malus; 10 cartes: 10 x 2 =
    # 20; 14 cartes: 14 x 4 = 56."
    assert _penalty(rules, 6) == 6
    assert _penalty(rules, 10) == 20
    assert _penalty(rules, 14) == 56
    # "De 1 à 7 cartes = 1 point par carte ... 16 cartes = 5 points par carte"
    per_card = {**{n: 1 for n in range(1, 8)}, 8: 2, 9: 2, 10: 2, 11: 3, 12: 3, 13: 3, 14: 4, 15: 4, 16: 5}
    for n, factor in per_card.items():
        assert _penalty(rules, n) == n * factor


def test_whole_games_end_at_100_with_the_lowest_total_winning(rules):
    # "La partie se finit lorsqu'un joueur atteint 100 points ou plus ... le gagnant étant celui
    # qui totalise à ce moment là le moins de points."  A tie plays one more round.
    rng = random.Random(7)
    for seed in range(8):
        state = Game(rules).new_game(seed)
        players = [make_player("random", rng.randrange(10**6)) for s in range(4)]
        while not state.is_terminal():
            seat = state.current_player()
            state.apply_action(players[seat].act(state.observation(seat), state.legal_actions()))
        ends = [e for e in state.events if e["type"] == "round_end"]
        game_end = state.events[-1]
        totals = game_end["totals"]
        assert max(totals) >= 100
        before = ends[-2]["totals"] if len(ends) > 1 else [0] * 4
        low = min(totals)
        if totals.count(low) == 1:
            assert game_end["winner"] == totals.index(low)
            # the game ended at the first round that reached 100, or the round after a tie
            assert max(before) < 100 or before.count(min(before)) > 1
        for end in ends:
            out = end["out"]
            assert end["cards_left"][out] == 0 and end["points"][out] == 0


def test_a_shared_win_names_the_lowest_totals_when_the_lowest_wins(rules):
    # "le gagnant étant celui qui totalise à ce moment là le moins de points"; a tie still there
    # after the one more round is shared by the seats with the lowest total, and the last line of
    # `run` and `replay` must name them, not the seats with the most points.
    from chimera_dsl.tell.printer import result_line, tell
    end = {"type": "game_end", "totals": [12, 12, 57, 104], "winner": None, "rounds": 6, "winners": [0, 1]}
    line = result_line(end)
    assert line.startswith("seat 0 and seat 1 share the win with 12"), line
    told = list(tell([end], rules))
    assert told[-1] == line and "1. seat 0: 12" in " ".join(told)


# -- records --------------------------------------------------------------------------------------
def _two_rounds(rules, seed: int) -> list[dict]:
    from chimera_dsl.players import play_game
    return play_game(Game(rules, max_rounds=2), [make_player("random", seed * 10 + s) for s in range(4)], seed).events


def _recolour(card: str) -> str:
    rank, colour = card.split("/")
    others = {"Ph": ["green", "yellow"]}.get(rank, ["green", "yellow", "red"])
    return f"{rank}/{next(c for c in others if c != colour)}"


def test_a_record_naming_a_card_of_another_colour_is_refused(rules):
    # Colours rank here ("sa meilleure carte"; "une paire rouge/jaune bat une paire rouge/verte"):
    # replay must hold a record to the very cards, not only to their values.
    import copy

    from chimera_dsl.errors import RecordError
    from chimera_dsl.tell.record import replay
    seed = next(s for s in range(50) if any(
        e["type"] == "exchange" and e["phase"] == "tribute" and not e["cards"][0].startswith(("D/", "1/multi"))
        for e in _two_rounds(rules, s)))
    events = _two_rounds(rules, seed)
    assert replay(copy.deepcopy(events), rules).totals == events[-1]["totals"]
    tribute = next(i for i, e in enumerate(events) if e["type"] == "exchange" and e["phase"] == "tribute")
    trick = next(i for i, e in enumerate(events) if e["type"] == "trick"
                 and any(not c.startswith(("D/", "1/multi")) for c in e["cards"]))
    for line, field in ((tribute, "cards"), (trick, "cards")):
        tampered = copy.deepcopy(events)
        cards = tampered[line][field]
        k = next(k for k, c in enumerate(cards) if not c.startswith(("D/", "1/multi")))
        cards[k] = _recolour(cards[k])
        with pytest.raises(RecordError) as info:
            replay(tampered, rules)
        assert info.value.line == line + 1 and f"{events[line]['type']}: {field}" in str(info.value)
    # a card named by its value alone (a record written without colours) is still read
    plain = copy.deepcopy(events)
    plain[trick]["cards"] = [c.split("/")[0] for c in plain[trick]["cards"]]
    assert replay(plain, rules).totals == events[-1]["totals"]


def test_a_record_playing_a_colour_the_seat_does_not_hold_says_so(rules):
    import copy

    from chimera_dsl.errors import RecordError
    from chimera_dsl.tell.record import replay
    events = _two_rounds(rules, 3)
    deal = events[1]
    line = next(i for i, e in enumerate(events) if e["type"] == "play" and len(e["cards"]) == 1
                and not e["cards"][0].startswith(("D/", "1/multi")))
    seat, card = events[line]["seat"], events[line]["cards"][0]
    rank = card.split("/")[0]
    missing = next(f"{rank}/{c}" for c in ("green", "yellow", "red") if f"{rank}/{c}" not in deal["hands"][seat])
    tampered = copy.deepcopy(events)
    tampered[line]["cards"] = [missing]
    with pytest.raises(RecordError) as info:
        replay(tampered, rules)
    assert info.value.line == line + 1 and f"seat {seat} does not hold {missing}" in str(info.value)


@pytest.mark.parametrize("seat", [-1, 4, "0", None, 1.0])
def test_an_observation_for_a_seat_not_at_the_table_is_refused(rules, seat):
    # seat -1 used to read as the last seat (its hand shown under another number)
    from chimera_dsl.errors import ChimeraError
    state = Game(rules).new_game(1)
    with pytest.raises(ChimeraError, match="not at the table"):
        state.observation(seat)
    assert state.observation(3).seat == 3


def _act(state, cards: str | None = None):
    """Apply the legal action that plays or gives exactly ``cards`` (None: pass)."""
    legal = state.legal_actions()
    if cards is None:
        assert PASS in legal, legal
        return state.apply_action(PASS)
    wanted = cards.split()
    for action in legal:
        named = action.play.cards if action.kind == "play" else \
            state.game.rules.deck.mask_names(action.mask) if action.kind == "give" else None
        if named == wanted:
            return state.apply_action(action)
    raise AssertionError(f"{cards} is not legal for seat {state.current_player()}: {legal}")


def test_every_card_is_dealt_sixteen_to_each_player(rules):
    # "La totalité des cartes est toujours distribuée, en 4 mains distinctes, soit 16 cartes par main."
    for seed in range(3):
        state = Game(rules).new_game(seed)
        assert [bin(held).count("1") for held in state.held] == [16] * 4
        everything = 0
        for held in state.held:
            assert not everything & held
            everything |= held
        assert everything == rules.deck.full_mask


def test_a_player_who_passed_may_play_again_in_the_same_trick(rules):
    # "(2) C a gagné le cycle 1 et prend la main (à noter qu'il a pu rejouer après avoir passé)";
    # "La dernière personne à jouer dans ce cycle prend la main et commence un nouveau cycle".
    # Play goes 0, 3, 2, 1 in the first round.
    state = _game_with(rules, "1/multi 3/green 10/red", "2/green 6/red 6/yellow", "4/green 9/red 9/yellow",
                       "2/yellow 7/green 8/green")
    _act(state, "1/multi")
    _act(state)                                   # seat 3 passes, though it could play
    _act(state, "4/green")
    _act(state, "6/red")
    _act(state)                                   # seat 0 passes
    assert state.current_player() == 3
    _act(state, "7/green")                        # seat 3 plays after having passed
    _act(state)
    _act(state)
    _act(state)                                   # three passes in a row close the trick
    trick = [e for e in state.events if e["type"] == "trick"][-1]
    assert trick["winner"] == 3 and state.current_player() == 3
    assert PASS not in state.legal_actions()      # the new leader plays what it likes, but plays


def test_a_gang_takes_the_lead_at_once_and_only_a_higher_gang_answers_it(rules):
    # "Lorsqu'un joueur pose un Gang, il prend immédiatement la main. Il remporte le tour, à moins
    # qu'un autre joueur pose à son tour un Gang supérieur."  Play goes 0, 3, 2, 1.
    state = _game_with(rules, "1/multi 3/green D/red", "5/green 5/green 5/yellow 5/red 9/green",
                       "2/green 6/yellow 6/yellow 6/red 6/red Ph/green", "2/yellow 7/green 10/red")
    _act(state, "1/multi")
    assert state.current_player() == 2 and state.interrupting
    _act(state)                                   # seat 2 keeps its gang for now
    assert state.current_player() == 1 and state.interrupting
    _act(state, "5/green 5/green 5/yellow 5/red")
    assert state.current_player() == 2 and state.interrupting
    _act(state)
    # the turn goes on from the gang's player: seat 0, then 3, then 2
    assert state.current_player() == 0 and not state.interrupting
    assert state.legal_actions() == [PASS]        # the Dragon does not beat a gang
    _act(state)
    assert state.current_player() == 3 and state.legal_actions() == [PASS]
    _act(state)
    assert state.current_player() == 2
    answers = {(a.play.combination, a.play.size) for a in state.legal_actions() if a.kind == "play"}
    assert answers == {("gang_of_four", 4)}
    _act(state)                                   # three passes: the gang wins the trick
    trick = [e for e in state.events if e["type"] == "trick"][-1]
    assert trick["winner"] == 1 and state.current_player() == 1


def test_the_last_card_rule_binds_the_seat_before_in_the_direction_of_the_round(rules):
    # "le joueur le précédant immédiatement doit impérativement jouer sa carte la plus forte", in
    # the second round, which is played clockwise ("le sens est inversé à chaque tour").
    first = _deal(rules, "1/multi", "3/green 4/green 5/yellow", "2/green 6/yellow", "2/yellow 7/green 8/red")
    second = _deal(rules, "1/green 9/red 9/green", "1/multi D/red 5/green 6/red", "2/red",
                   "Ph/green 7/yellow 8/yellow")
    state = Game(rules).new_game(0, deals=iter([first, second]), first_dealer=2)
    _act(state, "1/multi")                        # seat 0 goes out at once
    _act(state, "1/green")                        # the tribute is given; seat 0 gives back a card
    assert state.current_player() == 0
    _act(state, "9/green")
    # seat 1 plays before seat 2 (one card left) in this round: only its strongest card
    assert state.current_player() == 1
    legal = state.legal_actions()
    assert [a.play.cards for a in legal if a.kind == "play"] == [["D/red"]] and PASS not in legal


def test_the_round_winner_deals_leads_freely_and_a_tie_for_the_lowest_plays_one_more_round(rules):
    # "Aux tours suivants, c'est le joueur qui a gagné le tour précédent qui commence"; "Il entame
    # la manche suivante en ouvrant avec la combinaison de son choix"; "il lui rend une carte de
    # son choix"; "Lorsque deux joueurs terminent une manche avec le même nombre de points, un
    # nouveau tour est organisé.  Cet unique tour déterminera le classement final."
    deals = [_deal(rules, "1/multi", "3/green", "4/green", "5/green 6/green"),
             _deal(rules, "2/green 3/yellow", "D/red", "1/multi 4/yellow", "7/green 8/green"),
             _deal(rules, "2/yellow 3/red", "9/green", "4/red 10/red", "5/red 6/red")]
    state = Game(rules, target=3).new_game(0, deals=iter(deals), first_dealer=0)
    _act(state, "1/multi")                        # round 1: seat 0 out; totals 0 1 1 2
    # round 2: seat 3 (most cards) gives its best card to seat 0, who may give that very card back
    assert state.current_player() == 0 and state.kind == "transfer"
    tribute = [e for e in state.events if e["type"] == "exchange"][-1]
    assert (tribute["from"], tribute["to"], tribute["cards"]) == (3, 0, ["8/green"])
    _act(state, "8/green")
    # seat 0 leads, not seat 2 who holds the multicoloured 1, and need not play it
    assert state.current_player() == 0
    leads = [a.play.cards for a in state.legal_actions()]
    assert leads and all("1/multi" not in cards for cards in leads)
    _act(state, "3/yellow")
    _act(state, "D/red")                          # seat 1 out; totals 1 1 3 4: seats 0 and 1 tie
    ends = [e for e in state.events if e["type"] == "round_end"]
    assert ends[-1]["totals"] == [1, 1, 3, 4] and not state.is_terminal()
    deal = [e for e in state.events if e["type"] == "deal"][-1]
    assert deal["round"] == 3 and deal["dealer"] == 1
    # seats 2 and 3 held the most cards: the first of them after seat 1, in the order of play of
    # the round just played (clockwise), gives
    tribute = [e for e in state.events if e["type"] == "exchange"][-1]
    assert (tribute["from"], tribute["to"], tribute["cards"]) == (2, 1, ["10/red"])
    _act(state, "10/red")
    assert state.current_player() == 1
    _act(state, "9/green")                        # seat 1 out: totals 3 1 5 6
    assert state.is_terminal()
    end = state.events[-1]
    assert end["type"] == "game_end" and end["rounds"] == 3 and end["winner"] == 1


def test_the_rulebook_and_the_told_game_leave_played_cards_on_the_pile(rules):
    # "Les cartes déposées sur la table ne se ramasse jamais. Elles sont jetées en tas, en un seul
    # endroit, face visible."  Nobody takes a trick: its last player wins it and leads.
    from chimera_dsl.players import play_game
    from chimera_dsl.tell.printer import tell
    from chimera_dsl.tell.rulebook import write_rulebook
    text = write_rulebook(rules, "en")
    assert "the last player to have played wins it and leads" in text
    assert "Played cards are never picked up" in text and "takes the cards" not in text
    assert "ne se ramassent jamais" in write_rulebook(rules, "fr")
    events = play_game(Game(rules, max_rounds=1), [make_player("random", s) for s in range(4)], 2).events
    told = list(tell(events, rules))
    tricks = [e for e in events if e["type"] == "trick"]
    assert sum(line.endswith(" wins the trick") for line in told) == len(tricks)
    assert not any(" takes " in line for line in told)


def test_the_rulebook_tells_the_exchange_the_straight_and_the_full_house_as_the_rules_do(rules):
    # "sa meilleure carte ... il lui rend une carte de son choix ... les cartes sont visibles":
    # one card each way; "La suite" is five cards in a row; "Un full en bat un autre si son
    # brelan est supérieur à l'autre. S'ils sont identiques, la paire départage les joueurs."
    from chimera_dsl.tell.rulebook import write_rulebook
    text = write_rulebook(rules, "en")
    # "from round 2 on" the previous round always names its seats: no fallback is told
    assert "From round 2 on: the player who held the most cards when the previous round ended gives 1 card " \
           "to the player who went out first in the previous round; it is the giver's highest card; " \
           "everyone sees it." in text
    assert "## Cards handed over" in text and "or else the dealer" not in text
    assert "In the first round, the round's first lead must hold 1/multi." in text
    assert "the giver chooses it; everyone sees it." in text
    assert "| Straight | 5 consecutive ranks, 1 card of each from number |" in text
    assert "Full house: the first part is compared this way first; the attached cards decide only when " \
           "it is equal." in text
    french = write_rulebook(rules, "fr")
    assert "c'est sa carte la plus haute ; tous la voient." in french and "| Suite | 5 valeurs consécutives," in french


def test_the_game_ends_as_soon_as_a_total_reaches_the_target_exactly(rules):
    # "La partie se finit lorsqu'un joueur atteint 100 points ou plus"; with a target of 2 the
    # seat holding two cards when seat 0 goes out reaches it exactly.
    state = Game(rules, target=2).new_game(0, deals=iter([_deal(rules, "1/multi", "3/green", "4/green",
                                                                 "5/green 6/green")]), first_dealer=0)
    _act(state, "1/multi")
    assert state.is_terminal()
    end = state.events[-1]
    assert end["totals"] == [0, 1, 1, 2] and end["winner"] == 0 and end["rounds"] == 1
