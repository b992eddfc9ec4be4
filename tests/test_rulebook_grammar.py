"""The rulebook's grammar where a sentence is built from parts: a card's article agrees with its
rank's word, and "not (A or B)" is said as each part negated."""
from __future__ import annotations

from pathlib import Path

import pytest

from chimera_dsl import load_variant
from chimera_dsl.tell.articles import contracted
from chimera_dsl.tell.rulebook import card_words, write_rulebook

ROOT = Path(__file__).resolve().parents[1]
HEARTS = ROOT / "variants" / "others" / "hearts.yaml"


@pytest.mark.parametrize("lang,expected", [
    ("en", ["the queen of spades", "the ace of spades", "the king of hearts", "the 2 of clubs"]),
    ("fr", ["la dame de pique", "l'as de pique", "le roi de cœur", "le 2 de trèfle"]),
    ("it", ["la donna di picche", "l'asso di picche", "il re di cuori", "il 2 di fiori"]),
    ("de", ["die Pik Dame", "das Pik Ass", "der Herz König", "die Kreuz 2"]),
])
def test_a_cards_article_agrees_with_its_rank(lang, expected):
    deck = load_variant(str(HEARTS)).deck
    said = [contracted(card_words(deck, card, lang), lang) for card in ("Q/spades", "A/spades", "K/hearts", "2/clubs")]
    assert said == expected


def test_the_rulebook_says_the_queen_with_her_article():
    assert "la donna di picche: 13" in write_rulebook(load_variant(str(HEARTS)), "it")


@pytest.mark.parametrize("lang,expected", [
    ("en", "the card is not of hearts and the card is not the queen of spades"),
    ("fr", "la carte n'est pas à cœur et la carte n'est pas la dame de pique"),
    ("de", "die Karte nicht Herz ist und die Karte nicht Pik Dame ist"),
    ("it", "la carta non è di cuori e la carta non è la donna di picche"),
])
def test_not_a_or_b_is_said_as_each_negated(tmp_path, lang, expected):
    path = tmp_path / "first-trick.yaml"
    path.write_text(f"extends: {HEARTS}\nplay:\n  must:\n"
                    "    - {when: \"trick == 1\", play: \"not (play_has_colour(hearts) or play_has_card(q, spades))\"}\n")
    text = write_rulebook(load_variant(str(path)), lang)
    assert expected in text, text
    assert "not (" not in text and "nicht (" not in text


@pytest.mark.parametrize("lang,expected", [
    ("fr", "la dame de pique déjà jouée dans la manche"),
    ("it", "la donna di picche già giocata nella mano"),
    ("en", "the queen of spades played so far this round"),
])
def test_a_participle_agrees_with_the_card_it_tells_of(lang, expected):
    # Hearts' leading rule reads played_card(q, spades): the queen, feminine in French and Italian
    assert expected in write_rulebook(load_variant(str(HEARTS)), lang)
