"""Trick-taking: the tricks phase (legal cards, trick winners, card points) and the trump phase,
on Chibre's file (variants/others/chibre.yaml)."""
from __future__ import annotations

import contextlib
import io
import json
import random
from pathlib import Path

import pytest

from chimera_dsl import load_variant
from chimera_dsl.cli import run
from chimera_dsl.engine import PASS, Deal, Game
from chimera_dsl.errors import IllegalActionError, VariantError
from chimera_dsl.players import make_player, play_game
from chimera_dsl.engine.phases.tricks import card_action, trump_options

ROOT = Path(__file__).resolve().parents[1]
CHIBRE = ROOT / "variants" / "others" / "chibre.yaml"


@pytest.fixture(scope="module")
def chibre():
    return load_variant(CHIBRE)


def chibre_house(tmp_path, overlay: str, name: str = "house.yaml") -> Path:
    """A house rule written beside a copy of chibre.yaml: ``extends: chibre.yaml`` and ``overlay``."""
    (tmp_path / "chibre.yaml").write_text(CHIBRE.read_text(encoding="utf-8"), encoding="utf-8")
    house = tmp_path / name
    house.write_text("extends: chibre.yaml\n" + overlay, encoding="utf-8")
    return house


def deal_of(deck, hands: list[str], rng: random.Random) -> Deal:
    """A deal giving each seat the cards named, the rest of its 9 cards drawn at random."""
    masks = [deck.cards_mask(h) if h else 0 for h in hands]
    free = deck.full_mask
    for m in masks:
        free &= ~m
    pool = deck.numbers_of(free)
    rng.shuffle(pool)
    out = []
    for m in masks:
        need = 9 - bin(m).count("1")
        m |= deck.mask_of(pool[:need])
        pool = pool[need:]
        out.append(m)
    return Deal(tuple(out), 0, None)


def at_play(rules, hands: list[str], trump: str, seed: int = 0):
    """A game whose first deal gives these cards; trump chosen by its chooser; at the first trick."""
    game = Game(rules, max_rounds=1)
    deal = deal_of(rules.deck, hands, random.Random(seed))
    state = game.new_game(seed, deals=iter([deal]), first_dealer=0)
    assert state.kind == "trump"
    phase = state._round.phases[state._phase_index]
    index = trump_options(game, phase).index(("colour", rules.deck.colours.index(trump)))
    state.apply_action(state.legal_actions()[index])
    assert state.kind == "tricks"
    return state


def play(state, card: str) -> None:
    number = state.game.rules.deck.card_index[card.upper()]
    state.apply_action(card_action(state.game, number))


def legal_names(state) -> set[str]:
    deck = state.game.rules.deck
    return {deck.card_names[a.mask.bit_length() - 1] for a in state.legal_actions()}


def test_the_holder_of_the_seven_of_diamonds_makes_trump_and_leads(chibre):
    state = at_play(chibre, ["", "", "7/diamonds", ""], "hearts")
    assert state.events[1]["type"] == "deal" and state.events[2] == {
        "type": "trump", "round": 1, "seat": 2, "trump": "hearts"}
    assert state.current_player() == 2


def test_je_chibre_passes_the_choice_once_to_the_partner_and_the_first_asked_leads(chibre):
    game = Game(chibre, max_rounds=1)
    deal = deal_of(chibre.deck, ["7/diamonds", "", "", ""], random.Random(1))
    state = game.new_game(1, deals=iter([deal]), first_dealer=3)
    assert state.current_player() == 0 and PASS in state.legal_actions()
    state.apply_action(PASS)
    assert state.current_player() == 2                  # the partner (teams [0, 2], [1, 3])
    assert PASS not in state.legal_actions()            # the partner must choose
    with pytest.raises(IllegalActionError):
        state.apply_action(PASS)
    state.apply_action(state.legal_actions()[1])         # hearts
    assert state.events[-1] == {"type": "trump", "round": 1, "seat": 2, "trump": "hearts"}
    assert state.kind == "tricks" and state.current_player() == 0     # the first asked leads


def test_later_rounds_the_maker_deals_and_the_seat_after_the_dealer_makes_trump(chibre):
    game = Game(chibre, max_rounds=3)
    state = play_game(game, [make_player("random", s) for s in range(4)], seed=5)
    deals = [e for e in state.events if e["type"] == "deal"]
    firsts = []
    for r in (1, 2, 3):
        firsts.append(next(e for e in state.events if e["type"] == "trump" and e["round"] == r)["seat"])
    # counter-clockwise: the seat after seat s is s - 1
    assert deals[1]["dealer"] == firsts[0] and deals[2]["dealer"] == firsts[1]
    assert firsts[1] == (deals[1]["dealer"] - 1) % 4 and firsts[2] == (deals[2]["dealer"] - 1) % 4


def test_follow_suit_or_trump_and_anything_when_void(chibre):
    state = at_play(chibre, ["", "", "7/diamonds 8/spades", "A/spades 6/hearts 9/clubs"], "hearts")
    play(state, "8/spades")                              # seat 2 leads, seat 1 next (counter-clockwise)
    seat = state.current_player()
    held = set(state.game.rules.deck.mask_names(state.held[seat]))
    spades = {c for c in held if c.endswith("/spades")}
    hearts = {c for c in held if c.endswith("/hearts")}
    assert legal_names(state) == (spades | hearts if spades else held)


@pytest.mark.parametrize("extra, exempt", [("6/diamonds", True), ("Q/hearts", False)])
def test_a_trump_lead_must_be_answered_with_a_trump_but_the_trump_jack_is_exempt(chibre, extra, exempt):
    zero = "J/hearts 6/spades 7/spades 8/spades 6/clubs 7/clubs 8/clubs 8/diamonds " + extra
    state = at_play(chibre, [zero, "8/hearts 9/clubs", "7/diamonds 10/hearts", ""], "hearts", seed=3)
    play(state, "10/hearts")                              # seat 2 leads a trump
    assert state.current_player() == 1
    trumps1 = {c for c in chibre.deck.mask_names(state.held[1]) if c.endswith("/hearts")}
    assert legal_names(state) == trumps1                  # it holds 8/hearts: a trump it must play
    play(state, "8/hearts")
    assert state.current_player() == 0
    if exempt:      # its only trump is the bourg: any card
        assert legal_names(state) == set(zero.split())
    else:           # another trump: a trump, the bourg or the queen
        assert legal_names(state) == {"J/hearts", "Q/hearts"}


def test_undertrumping_knob(chibre, tmp_path):
    strict = chibre_house(tmp_path, "play:\n  undertrump: unless_only_trumps\n", "strict.yaml")
    hands = ["6/hearts 7/hearts 8/spades", "K/hearts", "7/diamonds 9/spades", "A/spades"]
    loose = at_play(chibre, hands, "hearts", seed=4)
    tight = at_play(load_variant(strict), hands, "hearts", seed=4)
    for state in (loose, tight):
        play(state, "9/spades")                           # seat 2 leads spades
        play(state, "K/hearts")                           # seat 1 trumps with the king
    # seat 0 holds 8/spades: it may follow, or trump higher (jack, nine, ace) but not lower
    allowed = legal_names(loose)
    assert "6/hearts" in allowed and "7/hearts" in allowed and "8/spades" in allowed
    assert {"6/hearts", "7/hearts"}.isdisjoint(legal_names(tight)) and "8/spades" in legal_names(tight)


def brute_winner(trick, trump: str, plain: list[str], trump_order: list[str]) -> int:
    """The taker of a trick as the rulebook says it: the best trump, else the best card of the led colour."""
    def parts(card):
        rank, colour = card.split("/")
        return rank, colour
    trumps = [(i, c) for i, c in enumerate(trick) if parts(c)[1] == trump]
    if trumps:
        return min(trumps, key=lambda ic: trump_order.index(parts(ic[1])[0]))[0]
    led = parts(trick[0])[1]
    follow = [(i, c) for i, c in enumerate(trick) if parts(c)[1] == led]
    return min(follow, key=lambda ic: plain.index(parts(ic[1])[0]))[0]


# « Dans la couleur d'atout : Valet - 9 - As - Roi - Dame - 10 - 8 - 7 - 6 »; « Dans toutes les
# autres couleurs c'est l'ordre habituel, soit As - Roi etc. »  (written here, not read from the file)
RULEBOOK_PLAIN = ["A", "K", "Q", "J", "10", "9", "8", "7", "6"]
RULEBOOK_TRUMP = ["J", "9", "A", "K", "Q", "10", "8", "7", "6"]


def test_every_trick_and_every_round_of_random_games(chibre):
    """Trick winners equal the rulebook's rule; the points of a round are 157, or 257 for a match."""
    plain, order = RULEBOOK_PLAIN, RULEBOOK_TRUMP
    game = Game(chibre, max_rounds=6)
    state = play_game(game, [make_player("random", s) for s in range(4)], seed=11)
    trump = None
    cards: list = []
    rounds = 0
    for e in state.events:
        if e["type"] == "trump" and e["trump"] is not None:
            trump = e["trump"]
        elif e["type"] == "card":
            cards.append((e["seat"], e["card"]))
        elif e["type"] == "trick":
            assert [c for _, c in cards] == e["cards"]
            assert cards[brute_winner(e["cards"], trump, plain, order)][0] == e["winner"]
            cards = []
        elif e["type"] == "round_end":
            rounds += 1
            team = {0: e["treasures"][0] + e["treasures"][2], 1: e["treasures"][1] + e["treasures"][3]}
            assert team[0] + team[1] == 157
            for side, seats in ((0, (0, 2)), (1, (1, 3))):
                match = all(e["tricks"][s] == 0 for s in (1 - side, 3 - side))
                cards_part = [dict(e["parts"][s]).get("cards") for s in seats]
                assert cards_part == [team[side] + (100 if match else 0)] * 2
    assert rounds == 6


def test_card_points_depend_on_trump(chibre):
    state = at_play(chibre, ["J/hearts", "9/hearts", "7/diamonds J/spades", "9/spades"], "hearts", seed=9)
    table = state.table
    deck = chibre.deck
    value = {name: table.card_points[deck.card_index[name.upper()]] for name in
             ("J/hearts", "9/hearts", "J/spades", "9/spades", "A/spades", "10/clubs", "6/hearts",
              "K/clubs", "Q/clubs", "K/hearts", "Q/hearts", "A/hearts", "8/diamonds", "7/hearts")}
    # « L'as vaut 11 points, le roi 4, la dame 3, le valet 2, le 10 dix.  Le valet d'atout en vaut
    #   20, le 9 d'atout 14.  Les autres cartes ne valent aucun point. »
    assert value == {"J/hearts": 20, "9/hearts": 14, "J/spades": 2, "9/spades": 0, "A/spades": 11,
                     "10/clubs": 10, "6/hearts": 0, "K/clubs": 4, "Q/clubs": 3, "K/hearts": 4,
                     "Q/hearts": 3, "A/hearts": 11, "8/diamonds": 0, "7/hearts": 0}
    assert sum(table.card_points) == 152                   # + 5 for the last trick = 157


@pytest.mark.parametrize("edit, where, says", [
    ("play:\n  trump_order: [J, X]\n", "play.trump_order.1", "unknown rank 'X'"),
    ("play:\n  teams: [[0, 7], [1, 3]]\n", "play.teams.0.1", "seat 7"),
    ("deal:\n  next_dealer: dealer\nphases:\n  trump:\n    role: chooser\n", "phases.trump.role",
     "roles: does not define"),
    ("play:\n  undertrump: never\n", "play.undertrump", ""),
    ("play:\n  trump_factors: {purple: 2}\n", "play.trump_factors.purple", "neither a colour, a rank nor none"),
    ("play:\n  trump_factors: {spade: 2}\n", "play.trump_factors.spade", "neither a colour"),
    ("play:\n  trump_factors: {J: 2, j: 3}\n", "play.trump_factors.j", "already given a factor"),
    ("play:\n  trump_factors: {spades: 0}\n", "play.trump_factors.spades", ""),
    ("play:\n  trump: spade\n", "play.trump", "neither a colour, a rank nor none"),
])
def test_misuse_is_located(tmp_path, edit, where, says):
    bad = chibre_house(tmp_path, edit, "bad.yaml")
    with pytest.raises(VariantError) as info:
        load_variant(bad)
    problem = info.value.problems[0]
    assert ".".join(map(str, problem.path)) == where and says in problem.message
    assert problem.line is not None and problem.file.endswith("bad.yaml")


def test_trick_keys_in_a_climbing_play_are_refused(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(f"extends: {ROOT / 'variants' / 'chimera.yaml'}\nplay:\n  follow: suit\n", encoding="utf-8")
    with pytest.raises(VariantError) as info:
        load_variant(bad)
    assert "kind: tricks" in str(info.value)


# -- announcements (Weis and Stöck) ------------------------------------------------------------------
def melds(rules, cards: str, trump: str = "hearts"):
    from chimera_dsl.engine.phases.announce import melds_of
    spec = Game(rules).round.play.announcements
    deck = rules.deck
    return sorted((m.points, m.cards) for m in melds_of(spec, deck, deck.cards_mask(cards),
                                                        deck.colours.index(trump)))


def test_what_a_hand_announces(chibre):
    assert melds(chibre, "6/spades 7/spades 8/spades A/clubs") == [(20, 3)]
    assert melds(chibre, "J/spades Q/spades K/spades A/spades") == [(50, 4)]
    assert melds(chibre, "10/clubs J/clubs Q/clubs K/clubs A/clubs 6/hearts") == [(100, 5)]
    assert melds(chibre, "6/clubs 7/clubs 8/clubs 9/clubs 10/clubs J/clubs") == [(100, 6)]   # longer: as five
    assert melds(chibre, "J/spades J/hearts J/clubs J/diamonds") == [(200, 4)]
    assert melds(chibre, "9/spades 9/hearts 9/clubs 9/diamonds") == [(150, 4)]
    assert melds(chibre, "A/spades A/hearts A/clubs A/diamonds 6/hearts") == [(100, 4)]
    # « Carré : 4 cartes de même rang » : the fours below the ten too (the examples name the higher)
    assert melds(chibre, "6/spades 6/hearts 6/clubs 6/diamonds") == [(100, 4)]
    assert melds(chibre, "8/spades 8/hearts 8/clubs 8/diamonds 7/spades") == [(100, 4)]
    assert melds(chibre, "K/hearts Q/hearts 6/spades") == []                          # Stöck: when played


def test_the_rulebooks_comparisons_of_announcements(chibre):
    from chimera_dsl.engine.phases.announce import melds_of
    spec = Game(chibre).round.play.announcements
    deck = chibre.deck

    def best(cards):
        return max(m.strength() for m in melds_of(spec, deck, deck.cards_mask(cards), 0))
    five = best("6/clubs 7/clubs 8/clubs 9/clubs 10/clubs")
    four_aces, four_kings = best("A/spades A/hearts A/clubs A/diamonds"), best("K/spades K/hearts K/clubs K/diamonds")
    assert five > four_aces > four_kings           # 100 in five beats 100 in four; aces beat kings
    assert four_kings > best("10/spades 10/hearts 10/clubs 10/diamonds") > best("6/spades 6/hearts 6/clubs 6/diamonds")
    assert best("6/spades 7/spades 8/spades 9/spades") > best("Q/clubs K/clubs A/clubs")


def test_only_the_best_side_scores_its_announcements_and_stock_always_scores(chibre):
    # seat 2 makes trump (7 of diamonds); seat 1 holds a run of 4 (50), seat 3 a run of 3 (20),
    # seat 0 the four aces (100): seat 0's side has the best and scores it; seat 2 holds the
    # king and queen of hearts (trump): 20 for its side, whoever has the best announcement
    hands = ["A/spades A/clubs A/diamonds A/hearts 6/diamonds 8/diamonds 6/hearts 10/spades 10/clubs",
             "6/clubs 7/clubs 8/clubs 9/clubs 7/hearts 8/hearts 10/diamonds J/spades Q/diamonds",
             "7/diamonds K/hearts Q/hearts 9/diamonds J/clubs 6/spades 9/hearts J/diamonds K/clubs",
             "7/spades 8/spades 9/spades 10/hearts J/hearts Q/spades Q/clubs K/diamonds K/spades"]
    state = at_play(chibre, hands, "hearts", seed=2)
    players = [make_player("random", s) for s in range(4)]
    while not state.is_terminal():
        seat = state.current_player()
        state.apply_action(players[seat].act(None, state.legal_actions()))
    events = [e for e in state.events if e["type"] in ("announce", "announcements", "round_end")]
    settled = next(e for e in events if e["type"] == "announcements")
    assert sorted(settled["seats"]) == [0, 2]
    shown0 = [m["points"] for e in events if e["type"] == "announce" and e["seat"] == 0 for m in e["melds"]]
    assert 100 in shown0
    stock = [e for e in events if e["type"] == "announce" and e["melds"][0]["name"] == "trump pair"]
    assert len(stock) == 1 and stock[0]["seat"] == 2
    end = events[-1]
    # scored at once (« marque immédiatement »): in the totals beside the round's card points
    assert settled["points"] == 100 and end["totals"][0] - end["points"][0] == 120
    assert end["totals"][1] == end["points"][1] == dict(end["parts"][1])["cards"]


def _announced_by_side(rules, hands, trump="hearts"):
    state = at_play(rules, hands, trump, seed=2)
    players = [make_player("random", s) for s in range(4)]
    while not state.is_terminal():
        state.apply_action(players[state.current_player()].act(None, state.legal_actions()))
    end = [e for e in state.events if e["type"] == "round_end"][-1]
    # scored at once they are in the totals already, else a part of the round's points
    return [end["totals"][s] - end["points"][s] + dict(end["parts"][s]).get("announcements", 0) for s in (0, 1)]


# Seat 2 holds the king and queen of hearts; no hand holds a run of three or four of a kind.
STOCK_ONLY = ["6/diamonds 8/diamonds 10/diamonds Q/diamonds A/diamonds 6/hearts 8/hearts 6/spades 8/spades",
              "7/diamonds 9/diamonds J/diamonds K/diamonds 7/hearts 9/hearts 7/spades 9/spades J/spades",
              "K/hearts Q/hearts 10/spades A/spades 6/clubs 8/clubs 10/clubs Q/clubs A/clubs",
              "10/hearts J/hearts A/hearts Q/spades K/spades 7/clubs 9/clubs J/clubs K/clubs"]


@pytest.mark.parametrize("always", [True, False])
def test_the_stock_alone_is_the_best_announcement_under_either_reading(tmp_path, always):
    # « Seules les annonces de l'équipe ayant fait l'annonce la plus forte sont comptabilisées » and
    # the "schtöckr" is in the rulebook's table of announcements (20): when nobody announces
    # anything else, its side made the strongest announcement and scores it, whichever reading
    # of always_scores the file takes.
    rules = load_variant(chibre_house(tmp_path, "play:\n  announcements:\n    trump_pair: {always_scores: %s}\n"
                                      % str(always).lower()))
    assert _announced_by_side(rules, STOCK_ONLY) == [20, 0]


def test_without_always_scores_the_stock_is_compared_like_any_announcement(tmp_path):
    # Under always_scores: false the stöck is one announcement among the others: a run of three
    # (20 points in three cards) beats it; a side whose best is the stöck does not score then.
    rules = load_variant(chibre_house(tmp_path, "play:\n  announcements:\n    trump_pair: {always_scores: false}\n"))
    hands = list(STOCK_ONLY)
    # seat 1 gets 7-8-9 of spades (a run of three): swap its J/spades for seat 0's 8/spades
    hands[0] = hands[0].replace("8/spades", "J/spades")
    hands[1] = hands[1].replace("J/spades", "8/spades")
    assert _announced_by_side(rules, hands) == [0, 20]
    assert _announced_by_side(load_variant(CHIBRE), hands) == [20, 20]


# -- players ----------------------------------------------------------------------------------------
def test_the_heuristic_beats_random_players_from_either_seat_pair(chibre):
    game = Game(chibre, max_rounds=2)
    margin = 0
    for g in range(24):
        hero = g % 2                        # the heuristic's team: seats 0 and 2, or 1 and 3
        players = [make_player("heuristic" if s % 2 == hero else "random", g * 10 + s) for s in range(4)]
        totals = play_game(game, players, g).totals
        margin += totals[hero] - totals[1 - hero]
    assert margin / 24 > 40                 # points per game of two rounds (314 points in play)


def test_observations_show_the_table_but_no_other_hand(chibre):
    state = at_play(chibre, ["", "", "7/diamonds", ""], "spades")
    play(state, next(iter(legal_names(state))))
    seen = state.observation(1)
    assert seen.held == state.held[1] and seen.table["trumps"] == ["spades"]
    assert len(seen.table["trick"]) == 1 and seen.table["side"] == (1, 3)
    assert all(state.held[s] != seen.held for s in (0, 2, 3))
    assert not any(isinstance(v, int) and v in (state.held[0], state.held[2], state.held[3]) and v
                   for v in seen.as_dict().values())


# -- the generated rulebook ----------------------------------------------------------------------------
@pytest.mark.parametrize("lang, says", [
    ("en", ["In the trump colour, strongest first: jack > 9 > ace > king > queen > 10 > 8 > 7 > 6.",
            "In the first round, the holder of the 7 of diamonds; otherwise the player after the dealer chooses the trump",
            "pass the choice, once, to the partner", "J of the trump colour never has to be played",
            "157 points in all.", "all the J: 200", "king + queen of the trump colour"]),
    ("fr", ["À l'atout, de la plus forte à la plus faible : valet > 9 > as > roi > dame > 10 > 8 > 7 > 6.",
            "À la première manche, le joueur qui a le 7 de carreau ; sinon le joueur après le donneur choisit l'atout",
            "passer le choix, une fois, à son partenaire", "157 points en tout.", "les quatre J : 200"]),
])
def test_the_rulebook_tells_the_trick_taking_rules_from_the_file(chibre, lang, says):
    from chimera_dsl.tell.rulebook import write_rulebook
    text = write_rulebook(chibre, lang)
    for sentence in says:
        assert sentence in text, sentence
    assert "combination" not in text.lower()


def test_a_team_win_is_named_by_replay_and_run(chibre, tmp_path):
    # Partners share the win (« La première équipe à atteindre 1000 points remporte la partie »):
    # replay --json names both seats, and the last line names the winning team, not the losers.
    log = tmp_path / "game.jsonl"
    assert run(["run", str(CHIBRE), "--seed", "1", "--players", "random", "--quiet", "--log", str(log)]) == 0
    end = json.loads(log.read_text(encoding="utf-8").splitlines()[-1])
    team = end["winners"]
    assert len(team) == 2 and team[0] + 2 == team[1]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert run(["replay", str(log), "--json"]) == 0
    answer = json.loads(out.getvalue())
    assert answer["winner"] is None and answer["winners"] == team


def test_equal_best_announcements_go_to_the_side_that_showed_first(chibre):
    # chibre.yaml: "Equal in points, cards and top card (and trump): the side that showed first
    # scores" (ties: first_in_play).  Seat 2 leads (7 of diamonds) and announces nothing; seat 1
    # then shows 10-J-Q of clubs, seat 0 after it 10-J-Q of spades (hearts are trumps): seat 1's
    # side showed the best first, though seat 2, who played before it, is on the other side.
    hands = ["10/spades J/spades Q/spades 7/hearts 9/hearts 6/clubs 8/clubs K/diamonds J/diamonds",
             "10/clubs J/clubs Q/clubs 6/hearts 8/hearts 6/spades 8/spades A/diamonds 9/diamonds",
             "7/diamonds 10/hearts Q/hearts A/hearts 7/spades 9/spades K/spades 7/clubs K/clubs",
             "6/diamonds 8/diamonds 10/diamonds Q/diamonds J/hearts K/hearts A/spades 9/clubs A/clubs"]
    assert at_play(chibre, hands, "hearts").current_player() == 2
    assert _announced_by_side(chibre, hands) == [0, 20]


# « L'équipe ayant remporté les annonces marque immédiatement les points de ses annonces. »
# « La première équipe à atteindre 1000 points remporte la partie. »
SHOWED_FIRST = ["10/spades J/spades Q/spades 7/hearts 9/hearts 6/clubs 8/clubs K/diamonds J/diamonds",
                "10/clubs J/clubs Q/clubs 6/hearts 8/hearts 6/spades 8/spades A/diamonds 9/diamonds",
                "7/diamonds 10/hearts Q/hearts A/hearts 7/spades 9/spades K/spades 7/clubs K/clubs",
                "6/diamonds 8/diamonds 10/diamonds Q/diamonds J/hearts K/hearts A/spades 9/clubs A/clubs"]


def _play_out(state, seed=0):
    players = [make_player("random", seed + s) for s in range(4)]
    while not state.is_terminal():
        state.apply_action(players[state.current_player()].act(None, state.legal_actions()))
    return state


def test_announcements_reaching_the_target_win_the_game_at_once(chibre):
    # seats 1 and 3 stand at 985 and their run of three (20) is the best announcement: they
    # reach 1000 as the first trick ends and win there, whatever the rest of the round would
    # have brought to seats 0 and 2 (at 990).
    for seed in range(4):
        state = at_play(chibre, SHOWED_FIRST, "hearts", seed=seed)
        state.totals[:] = [990, 985, 990, 985]
        _play_out(state, seed)
        kinds = [e["type"] for e in state.events]
        settled = kinds.index("announcements")
        assert kinds[settled - 1] == "trick" and kinds[settled + 1:] == ["game_end"]
        assert "round_end" not in kinds
        end = state.events[-1]
        assert end["winners"] == [1, 3] and end["totals"] == [990, 1005, 990, 1005]
        assert state.events[settled]["totals"] == [990, 1005, 990, 1005]


def test_the_stock_reaching_the_target_wins_as_its_second_card_is_played(chibre):
    state = at_play(chibre, STOCK_ONLY, "hearts", seed=3)
    state.totals[:] = [985, 995, 985, 995]
    _play_out(state, 3)
    events = state.events
    assert events[-1]["type"] == "game_end" and events[-1]["winners"] == [0, 2]
    assert events[-1]["totals"] == [1005, 995, 1005, 995]
    stock = events[-2]
    assert stock["type"] == "announce" and stock["melds"][0]["name"] == "trump pair" and stock["seat"] == 2
    assert events[-3]["type"] == "card" and events[-3]["card"] in ("K/hearts", "Q/hearts")


def test_announcements_count_once_in_the_totals(chibre):
    # scored at once, they are not added again with the round's points
    state = _play_out(at_play(chibre, SHOWED_FIRST, "hearts", seed=5), 5)
    settled = next(e for e in state.events if e["type"] == "announcements")
    end = next(e for e in state.events if e["type"] == "round_end")
    assert settled["seats"] == [1, 3] and settled["totals"] == [0, 20, 0, 20]
    assert [end["totals"][s] - end["points"][s] for s in range(4)] == [0, 20, 0, 20]
    assert sum(end["points"]) == 2 * 157


def test_announcements_scored_at_round_end_under_the_knob(tmp_path):
    rules = load_variant(chibre_house(tmp_path, "play:\n  announcements:\n    scored: at_round_end\n"))
    state = at_play(rules, SHOWED_FIRST, "hearts", seed=1)
    state.totals[:] = [990, 985, 990, 985]
    _play_out(state, 1)
    kinds = [e["type"] for e in state.events]
    assert kinds[-2:] == ["round_end", "game_end"]
    end = state.events[-2]
    assert "totals" not in next(e for e in state.events if e["type"] == "announcements")
    assert dict(end["parts"][1])["announcements"] == 20 and dict(end["parts"][0]).get("announcements") is None
    assert end["totals"] == [990 + end["points"][0], 985 + end["points"][1]] * 2


# -- a trump that multiplies the round's points (play.trump_factors) --------------------------------
PIQUE_DOUBLE = ROOT / "variants" / "house_rules" / "chibre-pique-double.yaml"


@pytest.mark.parametrize("trump, factor", [("spades", 2), ("hearts", 1)])
def test_a_spades_round_counts_every_point_double_under_pique_double(trump, factor):
    """Cards, last trick and announcements count twice under spades, once under another trump:
    the tricks hold 157 x the factor, and the best side's announcements score their points x the
    factor (at once, into the totals)."""
    rules = load_variant(PIQUE_DOUBLE)
    assert rules.spec["end"]["target"] == 1500
    state = _play_out(at_play(rules, SHOWED_FIRST, trump, seed=5), 5)
    at = next(i for i, e in enumerate(state.events) if e["type"] == "announcements")
    settled = state.events[at]
    shown = sum(m["points"] for e in state.events[:at] if e["type"] == "announce" and e["seat"] in settled["seats"]
                for m in e["melds"])
    assert shown == 20 and settled["points"] == shown * factor
    assert [settled["totals"][s] for s in settled["seats"]] == [shown * factor] * 2
    assert sum(e["points"] for e in state.events if e["type"] == "trick") == 157 * factor
    end = next(e for e in state.events if e["type"] == "round_end")
    match = any(end["tricks"][a] + end["tricks"][b] == 0 for a, b in ((0, 2), (1, 3)))
    assert sum(end["points"]) == 2 * (157 + (100 if match else 0)) * factor


def test_the_match_bonus_counts_double_under_a_doubling_trump(tmp_path):
    """A side taking every trick scores (157 + 100) x 2 under spades: the bonus is doubled too."""
    rules = load_variant(chibre_house(tmp_path, "play:\n  trump_factors: {spades: 2}\n  announcements: null\n"))
    # seats 0 and 2 hold every trump and every ace, king and queen: the maker's side takes all
    hands = ["J/spades 9/spades A/spades K/spades Q/spades 10/spades 8/spades 7/spades 6/spades",
             "6/hearts 7/hearts 8/hearts 9/hearts 6/clubs 7/clubs 8/clubs 9/clubs 6/diamonds",
             "A/hearts K/hearts Q/hearts J/hearts 10/hearts A/clubs K/clubs Q/clubs J/clubs",
             "7/diamonds 8/diamonds 9/diamonds 10/diamonds J/diamonds 10/clubs Q/diamonds K/diamonds A/diamonds"]
    game = Game(rules, max_rounds=1)
    state = game.new_game(1, deals=iter([Deal(tuple(rules.deck.cards_mask(h) for h in hands), 0, None)]),
                          first_dealer=2)
    # seat 3 holds the 7 of diamonds and chooses; it passes to seat 1, which must choose: spades
    phase = state._round.phases[state._phase_index]
    options = trump_options(game, phase)
    assert state.current_player() == 3
    state.apply_action(next(a for a in state.legal_actions() if a.kind == "pass"))
    state.apply_action(state.legal_actions()[options.index(("colour", rules.deck.colours.index("spades")))])
    while not state.is_terminal():
        actions = state.legal_actions()
        seat = state.current_player()
        # seat 0 leads its trumps from the top; everyone else plays its first legal card
        state.apply_action(actions[-1] if seat == 0 else actions[0])
    end = next(e for e in state.events if e["type"] == "round_end")
    assert end["tricks"][1] + end["tricks"][3] == 0
    assert [dict(end["parts"][s]).get("cards", 0) for s in range(4)] == [(157 + 100) * 2, 0, (157 + 100) * 2, 0]


@pytest.mark.parametrize("lang, says", [
    ("en", "When the trump is spades, every point of the round counts double"),
    ("fr", "Quand l'atout est pique, chaque point de la manche compte double"),
    ("de", "Ist Pik Trumpf, zählt jeder Punkt der Runde doppelt"),
])
def test_the_rulebook_says_which_trump_multiplies_the_points(lang, says):
    from chimera_dsl.tell.rulebook import write_rulebook
    text = write_rulebook(load_variant(PIQUE_DOUBLE), lang)
    assert says in text and "1500" in text
    assert "counts double" not in write_rulebook(load_variant(CHIBRE), "en")


# -- the rulebook's sentences not asserted above ----------------------------------------------------
def test_four_players_two_teams_thirty_six_cards_nine_each(chibre):
    # « Le jeu se joue à 4 joueurs, en 2 équipes de 2, avec un jeu de 36 cartes, allant de l'as au
    #   6. »  « Le donneur donne 9 cartes à chacun »
    deck = chibre.deck
    assert len(deck.cards) == 36 and len(deck.colours) == 4
    assert sorted({deck.ranks[r] for r, _ in deck.cards}, key=RULEBOOK_PLAIN.index) == RULEBOOK_PLAIN
    game = Game(chibre, max_rounds=1)
    state = game.new_game(4)
    assert game.players == 4 and [bin(h).count("1") for h in state.held] == [9] * 4
    sides = {tuple(sorted(Game(chibre).round.play.side(s, 4))) for s in range(4)}
    assert sides == {(0, 2), (1, 3)}


def _whole_round(rules, hands, first_dealer=2, pick=None):
    """One round of ``rules`` from these hands, the trump chosen by the seat to choose (spades),
    the cards by ``pick(seat, actions)`` (default: the first legal card)."""
    game = Game(rules, max_rounds=1)
    state = game.new_game(1, deals=iter([Deal(tuple(rules.deck.cards_mask(h) for h in hands), 0, None)]),
                          first_dealer=first_dealer)
    options = trump_options(game, state._round.phases[state._phase_index])
    state.apply_action(state.legal_actions()[options.index(("colour", rules.deck.colours.index("spades")))])
    while not state.is_terminal():
        actions = state.legal_actions()
        seat = state.current_player()
        state.apply_action(pick(seat, actions) if pick else actions[0])
    return state


def test_a_match_scores_the_157_points_and_100_more(chibre):
    # « Si une équipe remporte tous les plis, elle a fait un match, et marque 257 points (les 157
    #   points du jeu plus 100 points pour le match). »  Seat 0 holds every trump (spades), seat 2
    # every other ace, king and queen; seat 0 plays its trumps from the top.
    hands = ["J/spades 9/spades A/spades K/spades Q/spades 10/spades 8/spades 7/spades 6/spades",
             "6/hearts 7/hearts 8/hearts 9/hearts 6/clubs 7/clubs 8/clubs 9/clubs 6/diamonds",
             "A/hearts K/hearts Q/hearts J/hearts 10/hearts A/clubs K/clubs Q/clubs J/clubs",
             "7/diamonds 8/diamonds 9/diamonds 10/diamonds J/diamonds 10/clubs Q/diamonds K/diamonds A/diamonds"]
    state = _whole_round(chibre, hands, pick=lambda seat, actions: actions[-1] if seat == 0 else actions[0])
    end = next(e for e in state.events if e["type"] == "round_end")
    assert end["tricks"][1] + end["tricks"][3] == 0
    assert [dict(end["parts"][s]).get("cards", 0) for s in range(4)] == [257, 0, 257, 0]


# Seat 0 holds 6-7-8 of spades (20), its partner seat 2 6-7-8-9 of diamonds (50), seat 1 9-10-J of
# spades (20); nobody holds four of a kind, and no hand both the king and queen of hearts.
PARTNERS_BOTH_SHOW = ["6/spades 7/spades 8/spades 10/diamonds Q/diamonds 6/hearts 8/hearts A/clubs J/clubs",
                      "9/spades 10/spades J/spades J/diamonds A/diamonds 7/hearts K/hearts 7/clubs 10/clubs",
                      "6/diamonds 7/diamonds 8/diamonds 9/diamonds K/spades 10/hearts Q/hearts 6/clubs 8/clubs",
                      "K/diamonds 9/hearts J/hearts A/hearts Q/spades A/spades 9/clubs Q/clubs K/clubs"]


def test_the_team_with_the_best_announcement_scores_both_partners_announcements(chibre):
    # « Seules les annonces de l'équipe ayant fait l'annonce la plus forte sont comptabilisées » :
    # the team's, the partner's run of three (20) with the run of four (50): 70; the other team's
    # run of three counts nothing.
    assert _announced_by_side(chibre, PARTNERS_BOTH_SHOW) == [70, 0]


def test_the_stock_inside_a_run_counts_with_it(chibre):
    # « ... soit s'il est dans un annonce (par exemple : trois cartes et schtöckr as-roi-dame
    #   d'atout) » : the ace, king and queen of the trump score the run of three (20) and the
    # stöck (20).  STOCK_ONLY with the ace of hearts given to seat 2 (for its 6 of clubs).
    hands = list(STOCK_ONLY)
    hands[2] = hands[2].replace("6/clubs", "A/hearts")
    hands[3] = hands[3].replace("A/hearts", "6/clubs")
    assert _announced_by_side(chibre, hands) == [40, 0]


def test_when_both_teams_pass_the_target_in_one_round_the_higher_total_wins(chibre):
    # « La première équipe à atteindre 1000 points remporte la partie. »  The cards are counted
    # « A la fin du tour », for both teams at once: when both reach 1000 there, the higher wins.
    assert chibre.spec["end"]["target"] == 1000
    winners = set()
    for seed in range(12):
        state = at_play(chibre, PARTNERS_BOTH_SHOW, "hearts", seed=seed)
        state.totals[:] = [905, 910, 905, 910]            # announcements (70) alone reach no 1000
        _play_out(state, seed)
        end = state.events[-1]
        assert end["type"] == "game_end" and "round_end" in [e["type"] for e in state.events]
        totals = end["totals"]
        if min(totals) >= 1000 and totals[0] != totals[1]:
            team = [0, 2] if totals[0] > totals[1] else [1, 3]
            assert end["winners"] == team, (seed, totals)
            winners.add(tuple(team))
    assert winners == {(0, 2), (1, 3)}            # either team, the higher, whatever its seats
