"""Trick-taking games written from their published rules with the documentation alone (Hearts,
Spades, Belote, Oh Hell): what writing them showed, each a behaviour that matters to such a file."""
from __future__ import annotations

from pathlib import Path

import pytest

from chimera_dsl import load_variant
from chimera_dsl.engine import Game
from chimera_dsl.players import make_player, play_game

SIDES = """format: 1
name: two sides, a trick each
players: 4
deck:
  ranks: ["9", "10", J, Q, K, A]
  colours: [clubs, diamonds, hearts, spades]
  cards: [{ranks: "9..A", per_colour: 1}]
deal: {hand: 6}
play: {kind: tricks, teams: [[0, 2], [1, 3]], trump: spades}
scoring:
  points: {each: side_tricks}
end: {target: 20, ties: one_more_round}
"""


def _file(tmp_path: Path, text: str, name: str = "game.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("seed", range(6))
def test_partners_alone_at_the_top_end_the_game_without_one_more_round(tmp_path, seed):
    # the two seats of a side always hold one total: a side alone at the top past the target
    # wins there; only two sides level at the top play one more round
    rules = load_variant(_file(tmp_path, SIDES))
    game = Game(rules)
    state = play_game(game, [make_player("random", seed=seed + s) for s in range(4)], seed)
    ends = [e["totals"] for e in state.events if e["type"] == "round_end"]
    over = [i for i, totals in enumerate(ends) if max(totals) >= 20]
    first = over[0]
    tied = ends[first][0] == ends[first][1]
    assert len(ends) == first + (2 if tied else 1)
    last = ends[-1]
    end = [e for e in state.events if e["type"] == "game_end"][-1]
    if last[0] != last[1]:
        winners = end.get("winners") or [end["winner"]]
        assert set(winners) == ({0, 2} if last[0] > last[1] else {1, 3})


SET_READS_TERMS = SIDES.replace("end: {target: 20, ties: one_more_round}", """end: {rounds: 2, ties: shared}
values:
  nil_seen: {each: team, range: [0, 40]}
  by_others: {each: seat, range: [0, 40]}""").replace("points: {each: side_tricks}", """points:
    each:
      own: "if tricks_taken == 0 then 1 else 0"
      side: side_tricks
  set:
    nil_seen: "sum_side(own)"
    by_others: "sum_others(own)\"""")


def test_a_value_set_after_the_round_reads_the_terms_as_the_terms_do(tmp_path):
    # scoring.set reads what a seat's terms read: a term's label through sum_side() and
    # sum_others() (Spades' bags, which leave out the tricks of a side's nil bidder)
    rules = load_variant(_file(tmp_path, SET_READS_TERMS))
    state = play_game(Game(rules), [make_player("random", seed=s) for s in range(4)], 3)
    ends = [e for e in state.events if e["type"] == "round_end"]
    first = ends[0]
    tricks = first["tricks"]
    nil = [1 if t == 0 else 0 for t in tricks]
    assert first["values"]["nil_seen"] == [nil[0] + nil[2], nil[1] + nil[3]] * 2
    assert first["values"]["by_others"] == [sum(nil) - nil[s] for s in range(4)]
    from chimera_dsl.tell.rulebook import write_rulebook
    text = write_rulebook(rules, "en")
    assert "*nil seen* becomes the *own* of the player's side, added up" in text


@pytest.mark.parametrize("lang, colour, rank", [
    ("en", "In every round the trump colour is spades.", "Every jack is a trump in every round"),
    ("fr", "À chaque manche, l'atout est pique.", "Chaque carte de valeur valet est un atout"),
    ("de", "In jeder Runde ist Pik Trumpf.", "Jede Karte vom Wert Bube ist in jeder Runde Trumpf"),
    ("it", "In ogni mano la briscola è picche.", "Ogni carta di valore fante è una briscola"),
])
def test_the_rulebook_says_a_trump_fixed_by_the_file(tmp_path, lang, colour, rank):
    # play.trump: spades (Spades) or a rank is trump in every round: the rulebook said only
    # "the highest trump takes the trick", never which cards are trumps
    from chimera_dsl.tell.rulebook import write_rulebook
    assert colour in write_rulebook(load_variant(_file(tmp_path, SIDES)), lang)
    ranked = SIDES.replace("trump: spades", "trump: J").replace(
        "cards: [{ranks: \"9..A\", per_colour: 1}]",
        "cards: [{ranks: \"9..A\", per_colour: 1}]\n  names: {J: {en: jack, fr: valet, de: Bube, it: fante}}")
    text = write_rulebook(load_variant(_file(tmp_path, ranked, "ranked.yaml")), lang)
    assert rank in text and colour not in text


MUSTS = SIDES.replace("play: {kind: tricks, teams: [[0, 2], [1, 3]], trump: spades}", """play:
  kind: tricks
  teams: [[0, 2], [1, 3]]
  trump: spades
  must:
    - {when: "not leading and not can_follow and not partner_winning", play: play_trump}
    - {when: "trick == 1", play: "not (play_has_colour(hearts) or play_has_card(q, spades))"}
    - {when: leading, play: "played_colour(hearts) > 0 or not play_has_colour(hearts)"}""")


@pytest.mark.parametrize("lang, when, neither, either", [
    ("en", "When the player does not lead the trick and the player cannot follow the colour led and the player's "
           "partner does not hold the trick so far: a card where the card is a trump",
     "the card is not of hearts and the card is not the Q of spades",
     "played so far this round are more than 0 or the card is not of hearts"),
    ("fr", "Quand le joueur n'entame pas le pli et le joueur ne peut pas fournir la couleur demandée et le partenaire "
           "du joueur n'est pas maître du pli :",
     "la carte n'est pas à cœur et la carte n'est pas", "ou la carte n'est pas à cœur"),
    ("de", "Wenn die Person nicht zum Stich ausspielt und die Person die ausgespielte Farbe nicht bedienen kann und "
           "die eigene Partei den Stich bisher nicht hält:",
     "die Karte nicht Herz ist und die Karte nicht", "oder die Karte nicht Herz ist"),
    ("it", "Quando il giocatore non apre la presa e il giocatore non può rispondere al colore di uscita e il compagno "
           "del giocatore non sta prendendo la presa:",
     "la carta non è di cuori e la carta non è", "o la carta non è di cuori"),
])
def test_the_rulebook_says_not_inside_the_conditions_of_the_trick(tmp_path, lang, when, neither, either):
    # "not leading and not can_follow" read "(not the player leads the trick) and (not the player
    # can follow ...)"; "not (A or B)" read "not (the card is of hearts or ...)"
    from chimera_dsl.tell.rulebook import write_rulebook
    text = write_rulebook(load_variant(_file(tmp_path, MUSTS)), lang)
    assert when in text and neither in text and either in text, text
    assert "(" + {"en": "not", "fr": "non", "de": "nicht", "it": "non"}[lang] + " " not in text


BLIND = SIDES.replace("deal: {hand: 6}", """deal: {hand: 6, first: 1, rest_after: blind}
calls:
  blind_nil: {names: {en: blind nil}}
round: [deal, blind, play, scoring]
phases:
  blind: {kind: calls, call: blind_nil, names: {en: blind nil, fr: nil aveugle, de: Blind Null, it: nil al buio}}""")


@pytest.mark.parametrize("lang, said", [
    ("en", "Each player first looks only at the first card dealt to them, and picks up the other 5 after the blind nil."),
    ("fr", "Chaque joueur ne regarde d'abord que la première carte qu'il reçoit, et ne prend les 5 autres qu'après"),
    ("de", "Jeder Spieler sieht sich zuerst nur die erste Karte an, die er erhält, und nimmt die übrigen 5 erst"),
    ("it", "Ogni giocatore guarda prima solo la prima carta che riceve, e prende le altre 5 dopo"),
])
def test_the_rulebook_says_one_card_seen_first_in_the_singular(tmp_path, lang, said):
    # deal.first: 1 (a call made on one card, as near blind as the format goes) read "the first 1 cards"
    from chimera_dsl.tell.rulebook import write_rulebook
    text = write_rulebook(load_variant(_file(tmp_path, BLIND)), lang)
    assert said in text and " 1 cards" not in text and " 1 cartes" not in text


def test_the_bidders_card_points_count_the_last_trick_not_the_all_tricks_bonus(tmp_path):
    # the format's page said "the card points of the bidder's side": they hold the last trick's
    # 10 (Belote's dix de der), not the bonus for every trick (162 at a capot, where
    # trick_points is 252)
    belote = Path(__file__).resolve().parents[1] / "variants" / "others" / "belote.yaml"
    path = _file(tmp_path, f"extends: {belote}\nscoring:\n  bonuses:\n    takers_seen: bidder_side_points\n"
                           "    defence_seen: defenders_points\n")
    rules = load_variant(path)
    game = Game(rules, target=3000)
    played = capot = 0
    for seed in range(12):
        state = play_game(game, [make_player("heuristic", seed=seed + s) for s in range(4)], seed)
        for end in (e for e in state.events if e["type"] == "round_end" and not e.get("void")):
            bonuses = end["bonuses"]
            assert bonuses["takers_seen"] + bonuses["defence_seen"] == 162
            capot += bonuses["takers_seen"] in (0, 162)
            played += 1
    assert played > 50 and capot > 0


def test_a_deal_whose_first_part_is_no_card_is_refused_at_the_key(tmp_path):
    # the format's page said only "fewer than hand": 0 (a call before any card is seen) is
    # refused, at deal.first, and the page now says so
    from chimera_dsl.errors import VariantError
    with pytest.raises(VariantError) as refused:
        load_variant(_file(tmp_path, BLIND.replace("first: 1", "first: 0")))
    problem = refused.value.problems[0]
    assert "deal.first must be at least 1, not 0" in problem.message
    page = (Path(__file__).resolve().parents[1] / "docs" / "variant-format.md").read_text(encoding="utf-8")
    assert "0 is refused at the key" in page


@pytest.mark.parametrize("where", ["points", "set"])
def test_a_term_read_by_its_label_alone_is_told_how_a_term_is_read(tmp_path, where):
    # 'unknown name' with the list of the engine's names did not say that a term is read
    # through sum_side() or sum_others()
    from chimera_dsl.errors import VariantError
    text = SET_READS_TERMS
    if where == "points":
        text = text.replace("side: side_tricks", "side: side_tricks + own")
    else:
        text = text.replace('nil_seen: "sum_side(own)"', "nil_seen: own")
    with pytest.raises(VariantError) as refused:
        load_variant(_file(tmp_path, text))
    problem, = refused.value.problems
    assert problem.message.startswith("'own' is a term of scoring.points, which an expression reads through "
                                      "sum_side(own) or sum_others(own)")
    assert problem.path[:2] == ("scoring", where)


def test_a_term_read_by_its_label_alone_is_told_in_every_language(tmp_path):
    from chimera_dsl.errors import VariantError
    from chimera_dsl.tell.problems import said
    with pytest.raises(VariantError) as refused:
        load_variant(_file(tmp_path, SET_READS_TERMS.replace("side: side_tricks", "side: side_tricks + own")))
    problem, = refused.value.problems
    assert "qu'une expression lit par sum_side(own) ou sum_others(own)" in said(problem, "fr")
    assert "den ein Ausdruck mit sum_side(own) oder sum_others(own) liest" in said(problem, "de")
    assert "che un'espressione legge con sum_side(own) o sum_others(own)" in said(problem, "it")
    with pytest.raises(VariantError) as refused:
        load_variant(_file(tmp_path, SET_READS_TERMS.replace('own: "if', 'own: "side + 0 * (if').replace(
            'tricks_taken == 0 then 1 else 0"', 'tricks_taken == 0 then 1 else 0)"'), "later.yaml"))
    problem, = refused.value.problems
    assert problem.message.startswith("'side' is a term of scoring.points written after this one")
    assert "écrit après celui-ci" in said(problem, "fr")


CALLED = BLIND.replace("points: {each: side_tricks}", """points:
    each:
      blind: "if called(blind_nil) == 1 then (if tricks_taken == 0 then 200 else -200) else 0"
      open: "if called(blind_nil) != 1 then side_tricks else 0"
      times: "3 * called(blind_nil)\"""")


@pytest.mark.parametrize("lang, made, not_made, times", [
    ("en", "if the player made blind nil this round", "if the player did not make blind nil this round",
     "how many times the player made blind nil this round (1 or 0)"),
    ("fr", "si le joueur a fait l'annonce blind nil dans la manche",
     "si le joueur n'a pas fait l'annonce blind nil dans la manche", "le nombre de fois où le joueur a fait"),
    ("de", "wenn der Spieler in der Runde blind nil angesagt hat", "wenn der Spieler in der Runde blind nil nicht "
     "angesagt hat", "wie oft der Spieler in der Runde blind nil angesagt hat (1 oder 0)"),
    ("it", "se il giocatore ha fatto la dichiarazione blind nil in questa mano",
     "se il giocatore non ha fatto la dichiarazione blind nil in questa mano", "quante volte il giocatore"),
])
def test_the_trick_taking_rulebook_says_a_call_of_the_file(tmp_path, lang, made, not_made, times):
    # called(blind_nil) read '*called* of *blind nil* is 1' in a trick-taking rulebook
    from chimera_dsl.tell.rulebook import write_rulebook
    text = write_rulebook(load_variant(_file(tmp_path, CALLED)), lang)
    assert made in text and not_made in text and times in text and "*called*" not in text, text


ORDER_UP = SIDES.replace("deal: {hand: 6}", """deal: {hand: 5, turn_up: true}
roles:
  bidder: {en: taker, fr: preneur, de: Nehmer, it: prenditore}
  others: {en: defenders, fr: défenseurs, de: Gegenspieler, it: difensori}
round: [deal, taking, play, scoring]
phases:
  taking: {kind: order_up, pick_up: bidder}""").replace("trump: spades", "trump: turned")


@pytest.mark.parametrize("lang, said, old", [
    ("en", "The player who makes trump is the taker, and plays with their partner against the defenders.", "maker"),
    ("fr", "Le joueur qui fait l'atout est le preneur ; il joue avec son partenaire contre les défenseurs.",
     "sont les preneurs"),
    ("de", "Wer Trumpf macht, ist der Nehmer und spielt mit seinem Partner gegen die Gegenspieler.", "Macher"),
    ("it", "Chi fa la briscola è il prenditore, e gioca con il compagno contro i difensori.", "chiamante"),
])
def test_the_order_up_rulebook_names_the_roles_of_the_file(tmp_path, lang, said, old):
    # Belote's roles (taker, defenders) were said as Euchre's: "the maker; ... the makers"
    from chimera_dsl.tell.rulebook import write_rulebook
    text = write_rulebook(load_variant(_file(tmp_path, ORDER_UP)), lang)
    assert said in text and old not in text
    bare = ORDER_UP.replace("roles:\n  bidder: {en: taker, fr: preneur, de: Nehmer, it: prenditore}\n"
                            "  others: {en: defenders, fr: défenseurs, de: Gegenspieler, it: difensori}\n", "")
    assert old in write_rulebook(load_variant(_file(tmp_path, bare, "bare.yaml")), lang)


@pytest.mark.parametrize("lang, said", [
    ("en", "- king + queen of the trump colour, announced when the second is played: 20"),
    ("fr", "- roi + dame d'atout, annoncés en posant la seconde : 20"),
    ("de", "- König + Dame"), ("it", "- re + donna"),
])
def test_the_trump_pair_is_said_by_the_names_of_its_ranks(tmp_path, lang, said):
    # Belote's belote read "K + Q of the trump colour" where the deck names its ranks
    from chimera_dsl.tell.rulebook import write_rulebook
    text = SIDES.replace("cards: [{ranks: \"9..A\", per_colour: 1}]", """cards: [{ranks: "9..A", per_colour: 1}]
  names:
    Q: {en: queen, fr: dame, de: Dame, it: donna}
    K: {en: king, fr: roi, de: König, it: re}""").replace("trump: spades}", """trump: spades,
       announcements: {trump_pair: {ranks: [K, Q], points: 20, always_scores: true}}}""")
    assert said in write_rulebook(load_variant(_file(tmp_path, text)), lang)


ALONE = SIDES.replace("play: {kind: tricks, teams: [[0, 2], [1, 3]], trump: spades}",
                      "play: {kind: tricks, points: {A: 4, K: 3}}").replace(
    "points: {each: side_tricks}", "points: {each: trick_points}").replace("ties: one_more_round", "ties: play_on")


@pytest.mark.parametrize("lang, name, meaning, side", [
    ("en", "Each player: the player's trick points", "The player's trick points: the card points of the tricks the "
     "player took\n", "the side's trick points"),
    ("fr", "Chaque joueur : les points de plis du joueur", "Les points de plis du joueur : les points des cartes des "
     "plis du joueur\n", "du camp"),
    ("de", "die Stichpunkte des Spielers", "die Kartenpunkte der Stiche des Spielers\n", "der Partei"),
    ("it", "i punti delle prese del giocatore", "i punti delle carte delle prese fatte dal giocatore\n", "squadra"),
])
def test_a_player_alone_scores_its_own_trick_points_in_the_rulebook(tmp_path, lang, name, meaning, side):
    # Hearts' 'trick_points' read "the side's trick points: ... the player's side took, the last
    # trick's and the all-tricks bonus included", in a game of no sides and neither bonus
    from chimera_dsl.tell.rulebook import write_rulebook
    text = write_rulebook(load_variant(_file(tmp_path, ALONE)), lang)
    assert name in text and meaning in text and side not in text, text
    teams = ALONE.replace("{kind: tricks,", "{kind: tricks, teams: [[0, 2], [1, 3]], last_trick: 5,").replace(
        "ties: play_on", "ties: shared")
    assert side in write_rulebook(load_variant(_file(tmp_path, teams, "teams.yaml")), lang)


def test_the_told_game_takes_a_negative_part_away(tmp_path, capsys):
    # "50 (contract) + 4 (bags) + -100 (penalty)" read as a sum of a negative number
    from chimera_dsl.cli import run
    text = SIDES.replace("points: {each: side_tricks}", """points:
    each:
      tricks: side_tricks
      fee: "-100\"""").replace("end: {target: 20, ties: one_more_round}", "end: {rounds: 1, ties: shared}")
    assert run(["run", str(_file(tmp_path, text)), "--seed", "1", "--players", "random"]) == 0
    told = capsys.readouterr().out
    lines = [line for line in told.splitlines() if "(fee)" in line]
    assert len(lines) == 4 and all(" - 100 (fee) = " in line and "+ -" not in line for line in lines), told


PASSING = SIDES.replace("play: {kind: tricks, teams: [[0, 2], [1, 3]], trump: spades}", """round: [deal, passing, play, scoring]
phases:
  passing: {kind: transfer, from: each, to: left, count: 2, simultaneous: true,
            names: {en: passing, fr: passe, de: Schieben, it: passaggio}}
play: {kind: tricks, teams: [[0, 2], [1, 3]], trump: spades}""").replace(
    "end: {target: 20, ties: one_more_round}", "end: {rounds: 1, ties: shared}")


@pytest.mark.parametrize("lang, said", [("en", "  passing: seat 0 gives 2 cards to seat 1: "),
                                        ("fr", "  passe : "), ("de", "  Schieben: "), ("it", "  passaggio: ")])
def test_the_told_game_names_a_transfer_by_its_phase(tmp_path, capsys, lang, said):
    # Hearts' pass of three cards, a phase named "passing", was told as "exchange: ..."
    from chimera_dsl.cli import run
    assert run(["run", str(_file(tmp_path, PASSING)), "--seed", "1", "--players", "random", "--lang", lang]) == 0
    told = capsys.readouterr().out
    assert told.count("\n" + said[:len(said.split(":")[0]) + 1]) == 4 and said in told, told
    assert "exchange" not in told and "échange" not in told and "Tausch" not in told and "scambio" not in told


@pytest.mark.parametrize("lang, said", [
    ("en", "Once the taking is over, the rest of the cards are dealt on"),
    ("fr", "Une fois la phase « prise » terminée, le reste des cartes est distribué"),
    ("de", "Ist die Phase „Reizen“ vorbei, werden die übrigen Karten weitergegeben"),
    ("it", "Finita la fase «presa», il resto delle carte viene distribuito"),
])
def test_the_deal_completed_after_a_phase_names_it_with_its_article(tmp_path, lang, said):
    # Belote's completed deal read "Une fois prise terminée", "Finita presa", "Once taking is over"
    from chimera_dsl.tell.rulebook import write_rulebook
    text = ORDER_UP.replace("deal: {hand: 5, turn_up: true}", "deal: {hand: 5, turn_up: true, complete: "
                            "{after: taking, hand: 6}}").replace(
        "taking: {kind: order_up, pick_up: bidder}", "taking: {kind: order_up, pick_up: bidder, discard: false, "
        "pick_up_second: true, names: {en: taking, fr: prise, de: Reizen, it: presa}}")
    assert said in write_rulebook(load_variant(_file(tmp_path, text)), lang)


def test_single_rounds_are_each_a_games_first_round(tmp_path, capsys):
    # simulating.md: --rounds plays first rounds, so hands by round deal their first entry (the
    # page did not say it, and Oh Hell's 10 tricks a round looked like a fault)
    import json
    from chimera_dsl.cli import run
    text = SIDES.replace("deal: {hand: 6}", "deal: {hand: 6, hand_by_round: [3, 6]}").replace(
        "end: {target: 20, ties: one_more_round}", "end: {rounds: 2, ties: shared}")
    path = _file(tmp_path, text)
    assert run(["simulate", str(path), "--rounds", "6", "--json", "--workers", "1", "--players", "random"]) == 0
    figures = json.loads(capsys.readouterr().out)["figures"]
    assert figures["tricks_per_round"]["mean"] == 3
    assert run(["simulate", str(path), "--games", "3", "--json", "--workers", "1", "--players", "random"]) == 0
    figures = json.loads(capsys.readouterr().out)["figures"]
    assert figures["tricks_per_round"]["mean"] == 4.5
    page = (Path(__file__).resolve().parents[1] / "docs" / "simulating.md").read_text(encoding="utf-8")
    assert "each is the first round of a game" in page


@pytest.mark.parametrize("lang, said, again", [
    ("en", "Each player receives, round after round, 3, 2, 1 cards.", "starts again"),
    ("fr", "Chaque joueur reçoit, manche après manche, 3, 2, 1 cartes.", "recommence"),
    ("de", "Jeder Spieler erhält Runde für Runde 3, 2, 1 Karten.", "von vorn"),
    ("it", "Ogni giocatore riceve, mano dopo mano, 3, 2, 1 carte.", "ricomincia"),
])
def test_hands_by_round_that_the_game_never_repeats_are_said_once(tmp_path, lang, said, again):
    # Oh Hell's 19 hands in a game of 19 rounds read "after the last of these the list starts again"
    from chimera_dsl.tell.rulebook import write_rulebook
    text = SIDES.replace("deal: {hand: 6}", "deal: {hand: 6, hand_by_round: [3, 2, 1, 2, 3, 4]}").replace(
        "end: {target: 20, ties: one_more_round}", "end: {rounds: 3, ties: shared}")
    told = write_rulebook(load_variant(_file(tmp_path, text)), lang)
    assert said in told and again not in told
    longer = text.replace("rounds: 3", "rounds: 8")
    assert again in write_rulebook(load_variant(_file(tmp_path, longer, "longer.yaml")), lang)


BLIND_BIDS = BLIND.replace("round: [deal, blind, play, scoring]", "round: [deal, blind, bidding, play, scoring]").replace(
    "phases:\n", """phases:
  bidding:
    kind: bids
    must:
      - {when: "called(blind_nil) == 1", bid: "bid == 0"}
""")


def test_a_bid_rule_reads_the_calls_of_the_seat(tmp_path):
    # Spades' blind nil: a call made before the hand is seen binds the bid to 0 (bids.must could
    # not read called(), so a seat that called blind nil could bid anything)
    from chimera_dsl.engine.actions import PASS
    rules = load_variant(_file(tmp_path, BLIND_BIDS))
    for seed in range(4):
        state = Game(rules).new_game(seed)
        callers = set()
        while state.kind == "calls":
            seat = state.current_player()
            calls = [a for a in state.legal_actions() if a != PASS]
            if seat % 2 == seed % 2:
                callers.add(seat)
                state.apply_action(calls[0])
            else:
                state.apply_action(PASS)
        assert callers
        while state.kind == "bids":
            seat = state.current_player()
            bids = [a.bid for a in state.legal_actions()]
            assert bids == ([0] if seat in callers else list(range(7)))
            state.apply_action(state.legal_actions()[-1])


@pytest.mark.parametrize("lang, said", [
    ("en", "When the player made blind nil this round: a bid where the bid is 0"),
    ("fr", "Quand le joueur a fait l'annonce blind nil dans la manche : une annonce telle que l'annonce vaut 0"),
    ("de", "Wenn der Spieler in der Runde blind nil angesagt hat:"),
    ("it", "Quando il giocatore ha fatto la dichiarazione blind nil in questa mano:"),
])
def test_the_rulebook_says_a_bid_rule_on_a_call(tmp_path, lang, said):
    from chimera_dsl.tell.rulebook import write_rulebook
    assert said in write_rulebook(load_variant(_file(tmp_path, BLIND_BIDS)), lang)


def test_a_bid_rule_reading_a_call_in_a_file_without_calls_is_refused_at_it(tmp_path):
    from chimera_dsl.errors import VariantError
    text = SIDES.replace("play: {kind", """round: [deal, bidding, play, scoring]
phases:
  bidding:
    kind: bids
    must:
      - {when: "called(blind_nil) == 1", bid: "bid == 0"}
play: {kind""")
    with pytest.raises(VariantError) as refused:
        load_variant(_file(tmp_path, text))
    problem, = refused.value.problems
    assert problem.message == "phases.bidding.must.0.when reads called(), but the file defines no calls"
    assert problem.path == ("phases", "bidding", "must", 0, "when")


def test_a_trick_taking_house_file_lists_no_climbing_key_among_its_changes(tmp_path):
    # Oh Hell for seven over the file for four listed 'play.passes_to_close_trick: 3 → 6', a key of
    # climbing play that a trick-taking file may not even write (the default was filled in)
    from chimera_dsl.tell.rulebook import write_rulebook
    base = _file(tmp_path, SIDES.replace("teams: [[0, 2], [1, 3]], ", "").replace(
        "side_tricks", "tricks_taken").replace("ties: one_more_round", "ties: shared"), "base.yaml")
    house = _file(tmp_path, "extends: base.yaml\nplayers: 3\ndeal: {hand: 8}\n", "house.yaml")
    rules = load_variant(house)
    assert "passes_to_close_trick" not in rules.spec["play"]
    assert "passes_to_close_trick" not in write_rulebook(rules, "en")


@pytest.mark.parametrize("lang, said", [
    ("en", "- Players: 3 players, each playing alone. (instead of: 4 players, each playing alone.)"),
    ("fr", "- Joueurs : 3 joueurs"), ("de", "- Spieler: 3 Spieler"), ("it", "- Giocatori: 3 giocatori"),
])
def test_a_house_file_that_changes_the_players_says_so_in_words(tmp_path, capsys, lang, said):
    # the sentences before the first section (the players, the teams) were never compared: Oh
    # Hell for seven over the file for four told its new hands but not its seven players
    from chimera_dsl.cli import run
    _file(tmp_path, SIDES.replace("teams: [[0, 2], [1, 3]], ", "").replace(
        "side_tricks", "tricks_taken").replace("ties: one_more_round", "ties: shared"), "base.yaml")
    house = _file(tmp_path, "extends: base.yaml\nplayers: 3\ndeal: {hand: 8}\n", "house.yaml")
    assert run(["rules", str(house), "--lang", lang]) == 0
    assert said in capsys.readouterr().out


@pytest.mark.parametrize("lang, intro, always", [
    ("en", "The trump pair is announced as its cards are played:", "it scores whatever the other announcements"),
    ("fr", "La paire d'atout s'annonce en posant ses cartes :", "ils comptent quelle que soit la meilleure annonce"),
    ("de", "Das Trumpfpaar wird gemeldet, wenn seine Karten gespielt werden:", "zählt unabhängig von der besten"),
    ("it", "La coppia di briscola si dichiara giocandone le carte:", "contano qualunque sia la dichiarazione migliore"),
])
def test_a_trump_pair_alone_is_announced_as_it_is_played(tmp_path, lang, intro, always):
    # Belote's belote, the only announcement, read "With the first card, each player announces
    # what the hand holds"; Italian said the pair scored for "whoever has the best announcement"
    from chimera_dsl.tell.rulebook import write_rulebook
    text = SIDES.replace("trump: spades}", """trump: spades,
       announcements: {trump_pair: {ranks: [K, Q], points: 20, always_scores: true}}}""")
    told = write_rulebook(load_variant(_file(tmp_path, text)), lang)
    assert intro in told and always in told
    melds = text.replace("{trump_pair:", "{sequences: {3: 20}, trump_pair:")
    assert intro not in write_rulebook(load_variant(_file(tmp_path, melds, "melds.yaml")), lang)


@pytest.mark.parametrize("lang, said", [
    ("en", "The taker makes the contract when the bidding side's tricks are at least 4"),
    ("fr", "Le preneur"), ("de", "Der Nehmer"), ("it", "Il prenditore"),
])
def test_the_rulebook_states_the_contract_of_trump_made_from_the_turned_card(tmp_path, lang, said):
    # scoring.bidder_won of an order_up round (Belote's taker) was never said: the round counted
    # no phase of kind order_up among those that name a bidder
    from chimera_dsl.tell.rulebook import write_rulebook
    text = ORDER_UP.replace("points: {each: side_tricks}", """bidder_won: bidder_side_tricks >= 4
  points: {each: side_tricks}""")
    told = write_rulebook(load_variant(_file(tmp_path, text)), lang)
    contract = [line for line in told.splitlines() if line.startswith(said)]
    assert contract and "4" in contract[0], told


@pytest.mark.parametrize("lang, took, not_took", [
    ("en", "the player took the Q of spades", "the player did not take the A of hearts"),
    ("fr", "le joueur a ramassé le Q de pique dans ses plis", "le joueur n'a pas ramassé l'A de cœur dans ses plis"),
    ("de", "der Spieler Pik Q in seinen Stichen hat", "der Spieler Herz A nicht in seinen Stichen hat"),
    ("it", "il giocatore ha preso il Q di picche", "il giocatore non ha preso l'A di cuori"),
])
def test_a_count_of_one_card_compared_with_1_or_0_is_said_as_a_condition(tmp_path, lang, took, not_took):
    # Hearts' moon read "the queen of spades in the tricks the player took (0 or 1) is 1"
    from chimera_dsl.tell.rulebook import write_rulebook
    text = ALONE.replace("points: {each: trick_points}", """points:
    each:
      moon: "if taken_card(q, spades) == 1 then 5 else 0"
      ace: "if taken_card(a, hearts) != 1 then 1 else 0\"""")
    told = write_rulebook(load_variant(_file(tmp_path, text)), lang)
    assert took in told and not_took in told and "(0 or 1) is 1" not in told, told


@pytest.mark.parametrize("rule, path", [
    ('{when: "10 / (trick - 1) > 0", play: "play_has_colour(hearts)"}', ("play", "must", 0, "when")),
    ('{play: "played_colour(hearts) / trick >= 0"}', None),
])
def test_a_rule_of_play_that_can_divide_by_zero_is_refused_where_it_is_written(tmp_path, rule, path):
    # the loader proved the scoring and the end, not the play's rules: a file that loaded
    # stopped its first game with "division by zero"
    from chimera_dsl.errors import VariantError
    text = ALONE.replace("{kind: tricks, points: {A: 4, K: 3}}", "{kind: tricks, points: {A: 4, K: 3}, must: [" + rule + "]}")
    if path is None:                                   # a trick's number is 1 or more: no failure
        load_variant(_file(tmp_path, text))
        return
    with pytest.raises(VariantError) as refused:
        load_variant(_file(tmp_path, text))
    problem, = refused.value.problems
    assert problem.message.startswith("this can divide by zero") and problem.path == path


def test_a_bid_rule_that_can_divide_by_zero_is_refused_where_it_is_written(tmp_path):
    from chimera_dsl.errors import VariantError
    text = SIDES.replace("play: {kind", """round: [deal, bidding, play, scoring]
phases:
  bidding:
    kind: bids
    must:
      - {bid: "tricks / bid_total >= 1"}
play: {kind""")
    with pytest.raises(VariantError) as refused:
        load_variant(_file(tmp_path, text))
    problem, = refused.value.problems
    assert problem.message.startswith("this can divide by zero") and problem.path == ("phases", "bidding", "must", 0, "bid")
    load_variant(_file(tmp_path, text.replace("tricks / bid_total", "tricks / max(1, bid_total)"), "fixed.yaml"))


def test_a_phase_condition_that_can_divide_by_zero_is_refused_at_its_character(tmp_path):
    # a transfer's when read "10 / (round - 1)": validate itself stopped on "division by zero",
    # with no file, line or column, as the loader read the condition for the first round
    from chimera_dsl.cli import run
    text = PASSING.replace("count: 2, simultaneous: true,", 'count: 2, simultaneous: true, when: "10 / (round - 1) > 1",')
    path = _file(tmp_path, text)
    assert run(["validate", str(path)]) == 2
    from chimera_dsl.errors import VariantError
    with pytest.raises(VariantError) as refused:
        load_variant(path)
    problem, = refused.value.problems
    assert problem.message.startswith("this can divide by zero") and problem.path == ("phases", "passing", "when")
    load_variant(_file(tmp_path, text.replace("(round - 1)", "round"), "fixed.yaml"))


@pytest.mark.parametrize("base, overlay, path", [
    ("bridge.yaml", 'phases:\n  auction:\n    vulnerable: "10 / (round - 1) > 1"\n', ("phases", "auction", "vulnerable")),
    ("president.yaml", 'play:\n  round_ends_when: "10 / (out_count - 1) > 1 or out_count >= players - 1"\n',
     ("play", "round_ends_when")),
])
def test_a_condition_of_the_round_that_can_divide_by_zero_is_refused(tmp_path, base, overlay, path):
    # a contract's vulnerability and a climbing round's end loaded and stopped a game as they ran
    from chimera_dsl.errors import VariantError
    shipped = Path(__file__).resolve().parents[1] / "variants" / "others" / base
    with pytest.raises(VariantError) as refused:
        load_variant(_file(tmp_path, f"extends: {shipped}\n" + overlay))
    problem, = refused.value.problems
    assert problem.message.startswith("this can divide by zero") and problem.path == path


@pytest.mark.parametrize("lang, queen, ace, two", [
    ("fr", "la carte est la dame de pique", "la carte n'est pas l'as de cœur", "la carte est le 9 de trèfle"),
    ("it", "la carta è la donna di picche", "la carta non è l'asso di cuori", "la carta è il 9 di fiori"),
    ("en", "the card is the queen of spades", "the card is not the ace of hearts", "the card is the 9 of clubs"),
])
def test_a_card_of_a_rule_takes_the_article_of_its_rank(tmp_path, lang, queen, ace, two):
    # French read "la carte est 2 de trèfle", "dame de pique dans les plis...", Italian "il donna"
    from chimera_dsl.tell.rulebook import write_rulebook
    text = ALONE.replace('cards: [{ranks: "9..A", per_colour: 1}]', """cards: [{ranks: "9..A", per_colour: 1}]
  names:
    Q: {en: queen, fr: dame, de: Dame, it: donna}
    A: {en: ace, fr: as, de: Ass, it: asso}""").replace("points: {A: 4, K: 3}}", """points: {A: 4, K: 3}, must: [
    {when: "trick == 1", play: "play_has_card(q, spades) or not play_has_card(a, hearts) or play_has_card(9, clubs)"}]}""")
    told = write_rulebook(load_variant(_file(tmp_path, text)), lang)
    assert queen in told and ace in told and two in told, told
