"""Traps a new user met writing climbing games the project ships (Tichu, Big Two, President)
again from the documentation alone: each is now accepted where the documentation says so, or
told right."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import chimera_dsl
from chimera_dsl.engine import PASS, Game
from chimera_dsl.cli import run
from chimera_dsl.players import parse_players, play_game
from scripted import problems, write  # noqa: E402  (the helpers next to this file)

ROOT = Path(__file__).resolve().parents[1]

# President for four, from the documentation alone: the Scum deals, the exchange by place,
# the President leading every round but the first.
PRESIDENT = """\
format: 1
name: a President sketch
players: 4
deck:
  ranks: ["3", "4", "5", "6", "7", "8", "9", "10", J, Q, K, A, "2"]
  colours: [clubs, diamonds, hearts, spades]
  cards:
    - {ranks: "3..2", per_colour: 1}
deal: {hand: 13, next_dealer: previous_round.place(last)}
round: [deal, tribute, give_back, play, scoring]
phases:
  tribute: {kind: transfer, when: round > 1, from: previous_round.place(last), to: previous_round.place(1),
            count: 2, choose: highest}
  give_back: {kind: transfer, when: round > 1, from: previous_round.place(1), to: previous_round.place(last),
              count: 2}
play:
  first_leader: [{first_round: dealer_left}, previous_round.place(1)]
  round_ends_when: out_count >= players - 1
combinations:
  single: {pattern: "single of any"}
  pair: {pattern: "pair of any"}
  triple: {pattern: "trio of any"}
  quad: {pattern: "quad of any"}
scoring:
  points: {each: "if place == 1 then 2 else if place == 2 then 1 else 0"}
end: {rounds: 3, ties: shared}
"""


def test_a_seat_of_the_first_round_then_one_of_the_previous_round_always_names_a_seat(tmp_path):
    # the documentation's way to say "X in the first round, then Y": every later round follows
    # a round played out, so the previous round's President is always there to lead
    rules = chimera_dsl.load_variant(write(tmp_path, PRESIDENT))
    game = Game(rules)
    state = play_game(game, parse_players("random", game.players, seed=1), seed=1)
    events = state.events
    deals = [e for e in events if e["type"] == "deal"]
    ends = [e for e in events if e["type"] == "round_end"]
    firsts = [next(e for e in events[events.index(d):] if e["type"] == "play") for d in deals]
    assert firsts[0]["seat"] == (deals[0]["dealer"] + 1) % 4            # the dealer's left, in round 1
    for previous, first in zip(ends, firsts[1:]):
        assert first["seat"] == previous["places"][0]                   # then the last President


def test_a_first_round_seat_then_a_previous_round_seat_is_still_refused_where_a_round_may_be_void(tmp_path):
    text = PRESIDENT.replace("deal: {hand: 13, next_dealer: previous_round.place(last)}",
                             "deal: {hand: 13}\nbidding:\n  levels: [1, 2]\n  all_pass: {redeals_before_forced: 0, then: void}") \
        .replace("round: [deal, tribute, give_back, play, scoring]", "round: [deal, bidding, play, scoring]")
    text = text[:text.index("phases:")] + text[text.index("play:"):]
    # after a void first round nobody finished first: a fallback is needed
    found = problems(write(tmp_path, text))
    assert [p.message for p in found] == ["play.first_leader '[in round 1, dealer_left, previous_round.place(1)]' "
                                          "may name nobody (a round nobody bids in is void, nobody out: "
                                          "all_pass.then: void)"]


@pytest.mark.parametrize("lang, said", [
    ("en", "The player on the dealer's left in the first round (in later rounds, the player who finished first "
           "in the previous round) leads the first trick"),
    ("fr", "Le joueur à gauche du donneur à la première manche (aux manches suivantes, le joueur arrivé premier "
           "à la manche précédente) entame le premier pli"),
    ("de", "In der ersten Runde der Spieler links vom Geber, in den späteren Runden wer in der vorigen Runde "
           "Erster wurde, eröffnet den ersten Stich"),
    ("it", "Il giocatore alla sinistra del mazziere nella prima mano (nelle mani seguenti, il giocatore arrivato "
           "primo nella mano precedente) apre la prima presa"),
])
def test_the_rulebook_says_the_seat_of_the_first_round_and_that_of_the_later_ones(tmp_path, capsys, lang, said):
    # it printed the map as written: `{"first_round": "dealer_left"}` or else ...
    assert run(["rules", write(tmp_path, PRESIDENT), "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert said in out
    assert "first_round" not in out


# A round of Tichu's ends: the Dragon's trick to an opponent, the last player's tricks to the
# first out and its hand to the opponents, card points counted as treasures.
TEAMS = """\
format: 1
name: a teams sketch
players: 4
deck:
  ranks: ["2", "3", "4", "5", "6", "7", "8", "9", "10", J, Q, K, A, Dragon]
  colours: [jade, swords, pagodas, stars]
  cards:
    - {ranks: "2..A", per_colour: 1}
    - {ranks: Dragon, copies: 1}
deal: {hand: 13}
play:
  first_leader: dealer_left
  teams: [[0, 2], [1, 3]]
  round_ends_when: team_out or out_count >= players - 1
  effects:
    - {at: trick_end, when: play_has(dragon), do: {trick_to: opponent}}
    - {at: round_end, when: "out_count == players - 1", do: {move: taken, from: place(last), to: place(1)}}
    - {at: round_end, when: "out_count == players - 1", do: {move: hand, from: place(last), to: opponent}}
combinations:
  single: {pattern: "single of any"}
  pair: {pattern: "pair of any"}
scoring:
  treasures: {"5": 5, "10": 10, K: 10, Dragon: 25}
  points: {each: {cards: card_points}}
end: {target: 1000, ties: shared}
"""


@pytest.mark.parametrize("lang, moved, given", [
    ("en", "the tricks it won or was given, and the cards the end of the round counts for it (see Play); any other "
           "card left in a hand scores nothing.",
     "Each player adds the treasures in the tricks it won or was given; cards left in hands score nothing."),
    ("fr", "les plis qu'il a remportés ou reçus, et les cartes que la fin de la manche lui attribue (voir Le jeu de "
           "la carte) ; les autres cartes restées en main ne valent rien.",
     "Chaque joueur marque les trésors des plis qu'il a remportés ou reçus ; les cartes restées en main ne valent rien."),
    ("de", "in den Stichen, die sie gewonnen oder erhalten haben, und in den Karten, die ihnen das Rundenende "
           "zuschreibt (siehe Spielverlauf); andere Handkarten zählen nicht.",
     "Alle Spieler werten die Schätze in den Stichen, die sie gewonnen oder erhalten haben; Handkarten zählen nicht."),
    ("it", "le prese che ha vinto o ricevuto e le carte che la fine della mano gli attribuisce (vedi Gioco); le altre "
           "carte rimaste in mano non valgono nulla.",
     "Ogni giocatore aggiunge i tesori delle prese che ha vinto o ricevuto; le carte rimaste in mano non valgono nulla."),
])
def test_the_rulebook_counts_treasures_where_the_effects_move_them(tmp_path, capsys, lang, moved, given):
    # it said that each player counts the tricks it won and that cards left in hands score
    # nothing, where the last player's hand counts for the opponents and the Dragon's trick
    # for the seat it is given to
    assert run(["rules", write(tmp_path, TEAMS), "--lang", lang]) == 0
    assert moved in capsys.readouterr().out
    dragon_only = "\n".join(line for line in TEAMS.splitlines() if "move:" not in line)
    assert run(["rules", write(tmp_path, dragon_only, "dragon.yaml"), "--lang", lang]) == 0
    assert given in capsys.readouterr().out


def test_the_told_game_wishes_for_an_ace_and_a_9(capsys):
    # "seat 0 wishes for a A": the article follows the grammar's vowel_starts, as the rulebook's does
    assert run(["run", str(ROOT / "variants" / "others" / "tichu.yaml"), "--seed", "3", "--target", "300"]) == 0
    out = capsys.readouterr().out
    assert "wishes for an A" in out and "wishes for a 9" in out
    assert "wishes for a A" not in out


def test_a_run_of_single_rounds_warns_that_the_rules_of_later_rounds_are_never_played(tmp_path, capsys):
    # President's exchange by place runs from round 2 on: --rounds showed 0 cards handed over
    # without a word
    path = write(tmp_path, PRESIDENT)
    assert run(["simulate", path, "--rounds", "4", "--players", "random", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["run"]["later_rounds"] == ["deal.next_dealer", "phases.give_back", "phases.tribute", "play.first_leader"]
    warning = data["warnings"][-1]
    assert warning.startswith("with --rounds each round is played as a game's first round")
    assert "(deal.next_dealer, phases.give_back, phases.tribute, play.first_leader)" in warning
    assert run(["simulate", path, "--rounds", "4", "--lang", "de"]) == 0
    assert "mit --rounds wird jede Runde als erste Runde eines Spiels gespielt" in capsys.readouterr().err
    assert run(["simulate", path, "--games", "1", "--json"]) == 0          # whole games play them
    data = json.loads(capsys.readouterr().out)
    assert "later_rounds" not in data["run"] and data["warnings"] == []


def test_a_file_that_says_nothing_of_later_rounds_runs_single_rounds_without_the_warning(capsys):
    assert run(["simulate", str(ROOT / "variants" / "others" / "big-two.yaml"), "--rounds", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "later_rounds" not in data["run"] and data["warnings"] == []


@pytest.mark.parametrize("lang, said", [
    ("en", "each 5 is worth 5, each 10 is worth 10, each king is worth 10, each Dragon is worth 25 (125 points in all)"),
    ("fr", "chaque 5 vaut 5, chaque 10 vaut 10, chaque roi vaut 10, chaque Dragon vaut 25 (125 points en tout)"),
    ("de", "jede 5 zählt 5, jede 10 zählt 10, jede Karte König zählt 10, jede Karte Drache zählt 25 "
           "(insgesamt 125 Punkte)"),
    ("it", "ogni 5 vale 5, ogni 10 vale 10, ogni re vale 10, ogni Drago vale 25 (125 punti in tutto)"),
])
def test_the_treasures_are_said_by_the_names_of_their_ranks(tmp_path, capsys, lang, said):
    # "jede K zählt 10, jede Dragon zählt 25": the ranks as written, in every language
    named = TEAMS.replace("  cards:\n", "  names:\n    K: {en: king, fr: roi, de: König, it: re}\n"
                                        "    Dragon: {en: Dragon, fr: Dragon, de: Drache, it: Drago}\n  cards:\n", 1)
    assert run(["rules", write(tmp_path, named), "--lang", lang]) == 0
    assert said in capsys.readouterr().out


def test_beats_reads_a_floating_single_at_its_own_rank_as_the_commands_page_says(capsys):
    # the page's example: beats answers from the combinations, without the play's floating rule
    page = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    assert "`chimera beats variants/others/tichu.yaml --over P 2/jade` says no" in page
    assert run(["beats", str(ROOT / "variants" / "others" / "tichu.yaml"), "--over", "P", "2/jade"]) == 1
    assert capsys.readouterr().out.startswith("no:")


def test_the_french_rulebook_sets_off_the_teams_of_a_climbing_play_with_a_spaced_semicolon(tmp_path, capsys):
    # "équipes de sièges : 0 et 2; 1 et 3 ;": the separator was English whatever the language
    assert run(["rules", write(tmp_path, TEAMS), "--lang", "fr"]) == 0
    assert "Ils jouent par équipes de sièges : 0 et 2 ; 1 et 3 ; chacun" in capsys.readouterr().out
    assert run(["rules", write(tmp_path, TEAMS)]) == 0
    assert "They play in teams of seats: 0 and 2; 1 and 3; each" in capsys.readouterr().out


def test_a_fact_named_like_a_name_of_the_engine_is_refused_at_its_key(tmp_path):
    # a fact 'place' was accepted, told in the rulebook ("the player's place is 3"), and never
    # read: the terms read the seat's finishing place
    text = PRESIDENT.replace("scoring:\n", "scoring:\n  facts:\n    place: 3\n")
    found = problems(write(tmp_path, text))
    assert [(p.message, p.hint) for p in found] == [
        ("scoring.facts.place: 'place' is already a name the scoring reads: the expressions would read the "
         "engine's, never this fact", "give the fact another name")]


@pytest.mark.parametrize("lang, term, name", [
    ("en", "Each player (*place*): 2 if the player's place is 1", "- The player's place: in a player's term"),
    ("de", "Jeder Spieler (*Platz*): 2, wenn der Platz der Person 1 ist", "- Der Platz der Person: im Term"),
])
def test_a_term_labelled_like_a_name_of_the_engine_keeps_the_engine_s_words_for_the_name(tmp_path, capsys, lang,
                                                                                        term, name):
    # a term 'place' with a label: the label said the engine's place too ("2 if *Platz* is 1",
    # and "*Platz*: in a player's term..."), as if it were a name of the file
    text = PRESIDENT.replace('  points: {each: "if place == 1 then 2 else if place == 2 then 1 else 0"}',
                             '  points: {each: {place: "if place == 1 then 2 else if place == 2 then 1 else 0"}}\n'
                             'labels:\n  place: {en: place, de: Platz}')
    assert run(["rules", write(tmp_path, text), "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert term in out and name in out


@pytest.mark.parametrize("key, written, meant", [
    ("from", "eachh", "each"), ("to", "eachother", "each_other"), ("to", "lefft", "left")])
def test_a_misspelt_word_of_a_transfer_is_told_the_word_it_is_close_to(tmp_path, key, written, meant):
    # 'eachother' was told "did you mean 'others'?", 'eachh' a list of seats: the words a transfer
    # reads besides seats were not among the names offered
    text = PRESIDENT.replace("give_back: {kind: transfer, when: round > 1, from: previous_round.place(1), "
                             "to: previous_round.place(last),",
                             f"give_back: {{kind: transfer, when: round > 1, "
                             f"{'from: ' + written if key == 'from' else 'from: each'}, "
                             f"{'to: ' + written if key == 'to' else 'to: left'},")
    found = problems(write(tmp_path, text))
    assert [(p.message, p.hint) for p in found] == [
        (f"phases.give_back.{key}: '{written}' names no seat", f"did you mean '{meant}'?")]


def test_the_table_names_a_phase_of_the_file_by_its_english_words_in_english(tmp_path):
    # the rulebook said "the Scum's tribute", the terminal "== Round 2, tribute: your turn" and
    # the web table "tribute": the file's English words were read in every language but English
    from chimera_dsl.serve.view import phase_names
    text = PRESIDENT.replace("count: 2, choose: highest}", "count: 2, choose: highest, names: {en: the Scum's tribute, "
                                                           "fr: le tribut du Trou}}")
    game = Game(chimera_dsl.load_variant(write(tmp_path, text)))
    assert phase_names(game, "en")["tribute"] == "the Scum's tribute"
    assert phase_names(game, "fr")["tribute"] == "le tribut du Trou"
    assert phase_names(game, "en")["give_back"] == "give_back"          # no words: as the file names it


def test_a_combination_that_yields_to_several_lists_them_once(tmp_path, capsys):
    # "... are never straight: they are only sf5 or sf6" repeated the whole list after "only"
    text = TEAMS.replace('  pair: {pattern: "pair of any"}',
                         '  pair: {pattern: "pair of any"}\n'
                         '  straight: {pattern: "5+ consecutive singles of 2..A", unless: [sf5, sf6]}\n'
                         '  sf5: {pattern: "5 consecutive singles of 2..A, same colour", tier: 1}\n'
                         '  sf6: {pattern: "6 consecutive singles of 2..A, same colour", tier: 2}') \
        .replace("  cards:\n", '  sequence: "2..A"\n  cards:\n', 1)
    assert run(["rules", write(tmp_path, text)]) == 0
    out = capsys.readouterr().out
    assert "Cards that also form sf5 or sf6 are never straight: they are only the one of these they form." in out


@pytest.mark.parametrize("lang, said", [
    ("en", "The player holding the Dragon leads the first trick"),
    ("fr", "Le joueur qui tient la carte Dragon entame le premier pli"),
    ("de", "Wer die Karte Drache hält, eröffnet den ersten Stich"),
    ("it", "Il giocatore che ha la carta Drago apre la prima presa"),
])
def test_a_card_of_no_colour_is_named_with_its_article(tmp_path, capsys, lang, said):
    # "The player holding Dragon leads", "Le joueur qui tient Dragon": a card with a colour had
    # its article ("the 3 of diamonds"), one without none
    text = TEAMS.replace("  first_leader: dealer_left", "  first_leader: {holder: Dragon}") \
        .replace("deal: {hand: 13}", "deal: {hand: 13, rest: dealt}") \
        .replace("  cards:\n", "  names:\n    Dragon: {en: Dragon, fr: Dragon, de: Drache, it: Drago}\n  cards:\n", 1)
    assert run(["rules", write(tmp_path, text), "--lang", lang]) == 0
    assert said in capsys.readouterr().out


@pytest.mark.parametrize("base", ["euchre.yaml", "skat.yaml"])
def test_the_previous_round_s_seat_needs_a_fallback_where_a_trick_round_may_be_void(tmp_path, base):
    # euchre (order_up without stick) and skat (solo) end a round every seat passes in void: the
    # next dealer 'previous_round.first_out' was accepted, and the game stopped after a void
    # first round ("'previous_round.first_out' names no seat now")
    base_path = ROOT / "variants" / "others" / base
    path = write(tmp_path, f"extends: {base_path}\ndeal:\n  next_dealer: previous_round.first_out\n")
    found = problems(path)
    assert [(p.message, p.hint) for p in found] == [
        ("deal.next_dealer 'previous_round.first_out' may name nobody (a round every seat passes in is void, nobody "
         "out: an order_up phase without stick, or a solo phase)",
         "give a fallback in a list, e.g. [previous_round.first_out, dealer]")]
    fallback = write(tmp_path, f"extends: {base_path}\ndeal:\n  next_dealer: [previous_round.first_out, dealer]\n",
                     "fallback.yaml")
    game = Game(chimera_dsl.load_variant(fallback))
    state = game.new_game(1)
    while not any(e["type"] == "round_end" for e in state.events):     # every seat passes: a void round
        legal = state.legal_actions()
        state.apply_action(PASS if PASS in legal else legal[0])
    assert [e for e in state.events if e["type"] == "round_end"][0]["void"] is True
    assert not state.is_terminal() and state.legal_actions()            # the next round is dealt


def test_a_transfer_from_round_2_on_needs_a_fallback_where_a_trick_round_may_be_void(tmp_path):
    # a transfer 'when: round > 1' may name the previous round's seats bare, since a round was
    # played out before it; not where that round may have been void (euchre: order_up without
    # stick), which stopped the game at the transfer
    path = write(tmp_path, f"""\
        extends: {ROOT / "variants" / "others" / "euchre.yaml"}
        round: [deal, swap, back, making, play, scoring]
        phases:
          swap: {{kind: transfer, when: round > 1, from: previous_round.first_out,
                  to: {{left_of: previous_round.first_out}}, count: 1}}
          back: {{kind: transfer, when: round > 1, from: {{left_of: previous_round.first_out}},
                  to: previous_round.first_out, count: 1}}
        """)
    found = problems(path)
    assert [p.message for p in found] == [
        "phases.swap.from 'previous_round.first_out' may name nobody (a round every seat passes in is void, nobody "
        "out: an order_up phase without stick, or a solo phase)"]


def test_one_value_where_a_list_is_read_is_told_to_be_written_as_a_list(tmp_path):
    # a wish of one rank written bare ('wish: 5'): the type error says how to write it
    path = write(tmp_path, f"""\
        extends: {ROOT / "variants" / "others" / "tichu.yaml"}
        play:
          effects:
            - {{when: "play_has(1)", do: {{wish: 5}}}}
        """)
    (found,) = problems(path)
    assert found.message == "play.effects.0.do.wish must be a list, not the number 5"
    assert found.hint == "write it as a list: [5]"
