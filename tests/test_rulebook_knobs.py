"""The rulebook says what the file says: each knob turned in a small file extending Chimera's
changes the sentence that tells it, in every language that has Chimera's text."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import chimera_dsl
from chimera_dsl.tell.rulebook import T, write_rulebook

ROOT = Path(__file__).resolve().parents[1]
OFFICIAL = ROOT / "variants" / "chimera.yaml"


def book(tmp_path: Path, overlay: str, lang: str = "en") -> str:
    """The rulebook of a file extending the official one with ``overlay`` (YAML lines)."""
    path = tmp_path / "house.yaml"
    path.write_text(f"extends: {OFFICIAL}\n{overlay}\n", encoding="utf-8")
    return write_rulebook(chimera_dsl.load_variant(path), lang)


def body(text: str) -> str:
    """The rulebook without its house-rules section (which quotes the changed keys)."""
    return re.split(r"^## (House rules|Règles maison|Hausregeln)$", text, flags=re.M)[0]


OFFICIAL_TEXT = {lang: body(write_rulebook(chimera_dsl.load_variant(OFFICIAL), lang)) for lang in T}

# (knob, overlay, {lang: (a sentence the official text says, what the changed file says instead)})
KNOBS = [
    ("direction of play", "seats: {direction: counterclockwise}", {
        "en": ("Play goes clockwise (to the left).", "Play goes counter-clockwise (to the right)."),
        "fr": ("Le jeu tourne dans le sens des aiguilles d'une montre (vers la gauche).",
               "Le jeu tourne dans le sens inverse des aiguilles d'une montre (vers la droite)."),
        "de": ("Gespielt wird im Uhrzeigersinn (nach links).", "Gespielt wird gegen den Uhrzeigersinn (nach rechts).")}),
    ("dealing order", "seats: {direction: counterclockwise}", {
        "en": ("one at a time clockwise from the dealer's left.", "one at a time counter-clockwise from the dealer's right."),
        "fr": ("une à une, en commençant à gauche du donneur.", "une à une, en commençant à droite du donneur."),
        "de": ("einzeln im Uhrzeigersinn links vom Geber beginnend.",
               "einzeln gegen den Uhrzeigersinn rechts vom Geber beginnend.")}),
    ("reversed each round", "seats: {reverse_each_round: true}", {
        "en": ("Play goes clockwise (to the left).",
               "Play goes clockwise in the first round and changes direction every round."),
        "fr": ("Le jeu tourne dans le sens des aiguilles d'une montre (vers la gauche).",
               "Le jeu tourne dans le sens des aiguilles d'une montre à la première manche et change de sens à "
               "chaque manche."),
        "de": ("Gespielt wird im Uhrzeigersinn (nach links).",
               "Gespielt wird in der ersten Runde im Uhrzeigersinn; die Richtung wechselt jede Runde.")}),
    ("the deal passes", "deal: {dealer_rotates: counterclockwise}", {
        "en": ("the deal passes clockwise.", "the deal passes counter-clockwise."),
        "fr": ("la donne tourne dans le sens des aiguilles d'une montre.",
               "la donne tourne dans le sens inverse des aiguilles d'une montre."),
        "de": ("danach wechselt der Geber im Uhrzeigersinn.", "danach wechselt der Geber gegen den Uhrzeigersinn.")}),
    ("the same dealer", "deal: {dealer_rotates: none}", {
        "en": ("the deal passes clockwise.", "the same player deals every round.")}),
    ("next dealer", "deal: {dealer_rotates: null, next_dealer: previous_round.first_out}", {
        "en": ("the deal passes clockwise.",
               "then the player who went out first in the previous round deals the next round.")}),
    ("opener: dealer", "bidding: {opener: dealer}", {
        "en": ("The player who received the face-up card opens the bidding.", "The bidding is opened by the dealer."),
        "fr": ("Le joueur qui a reçu la carte visible ouvre les enchères.", "Les enchères sont ouvertes par le donneur."),
        "de": ("Wer die aufgedeckte Karte erhalten hat, beginnt das Bieten.", "Das Bieten eröffnet der Geber.")}),
    ("nest.to: nobody", "nest: {to: nobody}", {
        "en": ("The Chimera takes the nest (3 cards)", "The nest stays face down; nobody takes it."),
        "fr": ("La Chimère prend le terrier (3 cartes)", "Le terrier reste face cachée ; personne ne le prend."),
        "de": ("Die Chimäre nimmt das Versteck (3 Karten)", "Das Versteck bleibt verdeckt; niemand nimmt es.")}),
    ("nest.to: a seat", "nest: {to: dealer}", {
        "en": ("The Chimera takes the nest (3 cards)", "The dealer takes the nest (3 cards)")}),
    ("exchange.between: nobody", "exchange: {between: nobody}", {
        "en": ("The hunters then exchange cards", "A round has these phases, in order: the deal, the bidding, the nest, "
                                                  "the play, the scoring."),
        "fr": ("Les chasseurs échangent ensuite", "Une manche comprend ces phases, dans l'ordre : la distribution, "
                                                  "les enchères, le terrier, le jeu de la carte, le comptage."),
        "de": ("Die Jäger tauschen dann", "Eine Runde hat diese Phasen, in dieser Reihenfolge: das Austeilen, "
                                          "das Bieten, das Versteck, der Spielverlauf, die Wertung.")}),
    ("simultaneous: false", "exchange: {simultaneous: false}", {
        "en": ("exchange cards, secretly and simultaneously:",
               "exchange cards, secretly, one after the other (a player may pass on cards just received):"),
        "fr": ("échangent ensuite, secrètement et simultanément :",
               "échangent ensuite, secrètement, l'un après l'autre (on peut donner une carte qu'on vient de recevoir) :"),
        "de": ("tauschen dann gleichzeitig und verdeckt:",
               "tauschen dann nacheinander und verdeckt (erhaltene Karten dürfen weitergegeben werden):")}),
    ("first_leader", "play: {first_leader: dealer_left}", {
        "en": ("The Chimera leads the first trick;", "The player on the dealer's left leads the first trick;"),
        "fr": ("La Chimère entame le premier pli ;", "Le joueur à gauche du donneur entame le premier pli ;"),
        "de": ("Die Chimäre eröffnet den ersten Stich;", "Der Spieler links vom Geber eröffnet den ersten Stich;")}),
    ("leader_may_pass", "play: {leader_may_pass: true}", {
        "en": ("The leader plays any combination and may not pass.",
               "The leader may pass and hand the lead to the next player, unless every other player has already "
               "passed the lead in this trick.")}),
    ("last_trick_to: nobody", "play: {last_trick_to: nobody}", {
        "en": ("that player takes the cards of the current trick.", "nobody takes the cards of the current trick."),
        "fr": ("il récupère les cartes du pli en cours.", "personne ne récupère les cartes du pli en cours."),
        "de": ("er nimmt die Karten des laufenden Stichs.", "niemand nimmt die Karten des laufenden Stichs.")}),
    ("a bonus's to", "scoring: {bidder_out_first: {bonuses: {bombs: {to: others}}}}", {
        "en": ("25 points to the Chimera for each Bomb", "25 points to each of the hunters for each Bomb"),
        "fr": ("25 points à la Chimère pour chaque combinaison « Bombe »",
               "25 points à chacun des chasseurs pour chaque combinaison « Bombe »"),
        "de": ("25 Punkte für die Chimäre für jede in der Runde gespielte Kombination „Falle“",
               "25 Punkte für jeden der Jäger für jede in der Runde gespielte Kombination „Falle“")}),
    ("face_up_in_nest: keep", "deal: {face_up_in_nest: keep}", {
        "en": ("If the face-up card would land in the nest, the dealer cuts again.",
               "If the face-up card lands in the nest, it stays there, seen by everyone, and nobody holds it."),
        "fr": ("Si la carte visible devait aller au terrier, le donneur coupe à nouveau.",
               "Si la carte visible arrive au terrier, elle y reste, vue de tous, et personne ne la tient."),
        "de": ("Würde die aufgedeckte Karte ins Versteck gelangen, wird neu abgehoben.",
               "Gelangt die aufgedeckte Karte ins Versteck, bleibt sie dort, für alle sichtbar, und niemand hält sie.")}),
]
CASES = [(knob, overlay, lang, said, instead) for knob, overlay, by_lang in KNOBS
         for lang, (said, instead) in by_lang.items()]


@pytest.mark.parametrize("knob, overlay, lang, said, instead", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_each_knob_changes_what_the_rulebook_says(tmp_path, knob, overlay, lang, said, instead):
    assert said in OFFICIAL_TEXT[lang] and instead not in OFFICIAL_TEXT[lang]
    text = body(book(tmp_path, overlay, lang))
    assert instead in text
    assert said not in text


def test_the_official_text_states_its_phases_roles_and_direction():
    text = OFFICIAL_TEXT["en"]
    assert "A round has these phases, in order: the deal, the bidding, the nest, the exchange, the play, " \
           "the scoring." in text
    assert "The highest bidder becomes the Chimera; the other players are the hunters." in text
    assert "Play goes clockwise (to the left)." in text


def test_a_transfer_phase_of_the_file_is_told(tmp_path):
    text = body(book(tmp_path, "round: [deal, bidding, nest, tribute, play, scoring]\n"
                               "exchange: null\n"
                               "phases:\n"
                               "  tribute: {kind: transfer, when: round > 1, from: [previous_round.most_cards_left, dealer],\n"
                               "            to: {left_of: dealer}, count: 1, choose: highest, shown: true}"))
    assert ("From round 2 on: the player who held the most cards when the previous round ended "
            "gives 1 card to the player on the left of the dealer; it is the giver's highest card; everyone "
            "sees it.") in text
    assert "the bidding, the nest, tribute, the play" in text          # no names: its id, said
    assert "exchange cards" not in text
    named = body(book(tmp_path, "round: [deal, bidding, nest, give_back, play, scoring]\n"
                                "exchange: null\n"
                                "phases:\n"
                                "  give_back: {kind: transfer, names: {en: card given back, fr: carte rendue}, when: round > 1,\n"
                                "              from: [previous_round.most_cards_left, dealer], to: {left_of: dealer},\n"
                                "              count: 1, choose: highest, shown: true}"))
    assert "the bidding, the nest, card given back, the play" in named and "give_back" not in named


def test_an_exchange_of_a_fixed_count_is_told(tmp_path):
    text = body(book(tmp_path, "exchange: {count_by_bid: null, count: 2, shown: true}"))
    assert "The hunters then exchange 2 cards each, face up and simultaneously." in text


def test_outcomes_written_as_expressions_are_told_not_misread(tmp_path):
    text = body(book(tmp_path, "scoring:\n  bidder_out_first: {bidder: '3 * bid + 5', others: 0}\n"
                               "  other_out_first: {bidder: -10, others: 'bid / 2'}"))
    assert "If the Chimera goes out first: the Chimera scores 3 × the bid + 5;" in text
    assert "the Chimera scores −10; each of the hunters scores the bid ÷ 2." in text


def test_a_bonus_counted_by_an_expression_is_told_as_written(tmp_path):
    text = body(book(tmp_path, "scoring: {bidder_out_first: {bonuses: {idle_hunter: {count: 'plays_by(others)'}}}}"))
    assert "25 points to the Chimera, times the plays of *others* this round" in text
    assert "once if a hunter played no card" not in text


# -- conditions on the round's number, told in words -------------------------------------------------
GANG_OF_FOUR = ROOT / "variants" / "others" / "gang-of-four.yaml"


@pytest.mark.parametrize("when, words", [
    ("round > 1", {"en": "from round 2 on", "fr": "à partir de la manche 2", "de": "ab Runde 2"}),
    ("round >= 3", {"en": "from round 3 on", "fr": "à partir de la manche 3", "de": "ab Runde 3"}),
    ("round == 1", {"en": "in the first round", "fr": "à la première manche", "de": "in der ersten Runde"}),
    ("round < 2", {"en": "in the first round", "fr": "à la première manche", "de": "in der ersten Runde"}),
    ("round == 4", {"en": "in round 4", "fr": "à la manche 4", "de": "in Runde 4"}),
    ("round <= 5", {"en": "up to round 5", "fr": "jusqu'à la manche 5", "de": "bis Runde 5"}),
    ("round >= 1", None),                      # always: shown as written
    ("round < 1", None),                       # never: shown as written
    ("round > 1 and players > 3", None),       # not the round's number alone
])
def test_a_condition_on_the_round_s_number_is_told_in_words(when, words):
    from chimera_dsl.tell.rulebook import round_words
    for lang in ("en", "fr", "de"):
        assert round_words(when, T[lang]) == (words[lang] if words else None)


def test_a_transfer_from_round_2_on_is_told_in_words_without_the_fallback_it_never_reads(tmp_path):
    text = write_rulebook(chimera_dsl.load_variant(GANG_OF_FOUR), "en")
    assert "From round 2 on: the player who went out first in the previous round gives 1 card to the " \
           "player who held the most cards when the previous round ended; the giver chooses it" in text
    assert "`round > 1`" not in text and "or else the dealer" not in text
    # a condition that is not the round's number alone is shown as written; false in the first
    # round, it still leaves the fallbacks out; true then, they are told
    path = tmp_path / "g.yaml"
    path.write_text(f"extends: {GANG_OF_FOUR}\nphases:\n  tribute:\n    when: round > 1 and players > 3\n", encoding="utf-8")
    text = write_rulebook(chimera_dsl.load_variant(path), "en")
    assert "When the round's number is more than 1 and the number of players is more than 3: the player who held the most cards when the previous round " \
           "ended gives 1 card" in text
    path.write_text(f"extends: {GANG_OF_FOUR}\nphases:\n  tribute:\n    when: players > 3\n", encoding="utf-8")
    text = write_rulebook(chimera_dsl.load_variant(path), "en")
    assert "When the number of players is more than 3: the player who held the most cards when the previous round " \
           "ended or else the dealer gives 1 card" in text


def test_a_round_that_may_be_void_keeps_the_fallback_of_the_previous_round_s_seats(tmp_path):
    # after a void first round nobody went out: from round 2 on the fallback may still be read
    path = tmp_path / "void.yaml"
    path.write_text(f"extends: {ROOT / 'variants' / 'others' / 'doudizhu-openspiel.yaml'}\n"
                    "round: [deal, bidding, nest, tribute, play, scoring]\n"
                    "deal: {next_dealer: [previous_round.first_out, dealer_left]}\n"
                    "phases:\n  tribute:\n    kind: transfer\n    from: [previous_round.most_cards_left, dealer]\n"
                    "    to: [previous_round.first_out, dealer]\n    count: 1\n    choose: highest\n"
                    "    shown: true\n    when: round > 1\n", encoding="utf-8")
    text = write_rulebook(chimera_dsl.load_variant(path), "en")
    assert "From round 2 on: the player who held the most cards when the previous round ended or else the " \
           "dealer gives 1 card to the player who went out first in the previous round or else the dealer" in text
