"""The generated rulebooks read in the language asked for: card names from the file, German
cases, no words of another language in the sentences the code writes."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from chimera_dsl.rulebook import write_rulebook
from chimera_dsl.variant import load_variant as load

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted(ROOT.glob("variants/*.yaml")) + sorted(ROOT.glob("variants/*/*.yaml"))
CHIBRE = ROOT / "variants" / "others" / "chibre.yaml"

# Words that only one of the three languages writes (function words and the common nouns of
# the templates), matched as whole words and case-sensitively ("Dame" is German, "dame" French).
FOREIGN = {
    "en": {"der", "dem", "den", "und", "mit", "wird", "Spieler", "Karten", "Geber", "Stich",
           "le", "les", "du", "des", "et", "avec", "joueur", "joueurs", "cartes", "donneur", "pli",
           "valet", "dame", "roi"},
    "fr": {"the", "of", "and", "with", "each", "player", "players", "cards", "dealer", "trick",
           "der", "dem", "den", "und", "mit", "wird", "Spieler", "Karten", "Geber", "Stich"},
    "de": {"the", "of", "and", "with", "each", "player", "players", "cards", "dealer", "trick",
           "le", "les", "du", "et", "avec", "joueur", "joueurs", "cartes", "donneur", "pli",
           "valet", "dame", "roi", "as"},
}


def _file_words(value) -> set[str]:
    """Every text the variant file writes (names of combinations, roles, groups...)."""
    if isinstance(value, dict):
        return set().union(*(_file_words(v) for v in value.values()), *(_file_words(k) for k in value)) \
            if value else set()
    if isinstance(value, list):
        return set().union(*(_file_words(v) for v in value)) if value else set()
    return {value} if isinstance(value, str) and len(value) > 2 else set()


def _template_text(rules, lang: str) -> str:
    """The rulebook without what the file itself writes: its title, code spans and its own words."""
    text = write_rulebook(rules, lang)
    text = "\n".join(line for line in text.splitlines() if not line.startswith("# "))
    text = re.sub(r"`[^`]*`", " ", text)
    for written in sorted(_file_words(rules.spec), key=len, reverse=True):
        text = re.sub(r"(?<!\w)" + re.escape(written) + r"(?!\w)", " ", text)
    return text


@pytest.mark.parametrize("lang", ["en", "fr", "de"])
@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT / "variants")))
def test_no_word_of_another_language_in_the_sentences(path, lang):
    words = set(re.findall(r"[A-Za-zÀ-ÿ]+", _template_text(load(path), lang)))
    assert not words & FOREIGN[lang], sorted(words & FOREIGN[lang])


def test_chibre_in_german_names_its_cards_in_german_and_declines_the_dealer():
    text = write_rulebook(load(CHIBRE), "de")
    assert "36 Karten: 6, 7, 8, 9, 10, Bauer, Dame, König, Ass, in jeder Farbe" in text
    assert not re.search(r"\b(valet|dame|roi|as|jack|queen|king|ace)\b", text)
    assert "der Spieler nach dem Geber" in text and "nach der Geber" not in text
    assert "In der nächsten Runde gibt der Trumpfansager dieser Runde." in text
    assert "Den Trumpf bestimmt in der ersten Runde der Spieler mit der Karo 7; sonst" in text
    assert "Der Trumpfansager spielt zum ersten Stich aus" in text


@pytest.mark.parametrize("lang, deck, dealt, chooser", [
    ("en", "6, 7, 8, 9, 10, jack, queen, king, ace,", "The next round is dealt by the trump maker of this round.",
     "In the first round, the holder of the 7 of diamonds; otherwise"),
    ("fr", "6, 7, 8, 9, 10, valet, dame, roi, as,", "La manche suivante est donnée par celui qui fait atout de cette manche.",
     "À la première manche, le joueur qui a le 7 de carreau ; sinon"),
])
def test_chibre_in_english_and_french(lang, deck, dealt, chooser):
    text = write_rulebook(load(CHIBRE), lang)
    assert deck in text and dealt in text and chooser in text


def test_a_rank_named_in_other_languages_only_is_written_as_the_rank(tmp_path):
    source = CHIBRE.read_text(encoding="utf-8").replace("J: {en: jack, fr: valet, de: Bauer}", "J: {fr: valet}")
    path = tmp_path / "chibre.yaml"
    path.write_text(source, encoding="utf-8")
    rules = load(path)
    assert "10, J, Dame, König, Ass," in write_rulebook(rules, "de")
    assert "10, J, queen, king, ace," in write_rulebook(rules, "en")
    assert "10, valet, dame, roi, as," in write_rulebook(rules, "fr")


@pytest.mark.parametrize("wrong, said", [
    ("J: {english: jack}", "unknown key 'english' in deck.names.J"),
    ("J: [jack]", "deck.names.J must be a name, or names per language"),
])
def test_a_misused_rank_name_is_a_located_error(tmp_path, capsys, wrong, said):
    from chimera_dsl.cli import run
    source = CHIBRE.read_text(encoding="utf-8").replace("J: {en: jack, fr: valet, de: Bauer}", wrong)
    path = tmp_path / "chibre.yaml"
    path.write_text(source, encoding="utf-8")
    assert run(["rules", str(path)]) != 0
    err = capsys.readouterr().err
    assert f"{path}:" in err and said in err and "Traceback" not in err


def test_chimera_german_names_agree_with_their_numbers():
    text = write_rulebook(load(ROOT / "variants" / "chimera.yaml"), "de")
    assert "| Drilling mit einer angehängten Karte | 3 gleiche Karten aus Zahl oder H + eine Karte aus beliebigem Wert" in text
    assert "Vierling mit zwei angehängten Paaren" in text
    assert " 1 angehängten" not in text and "+ 1 Karte" not in text and "| 1 Karte" not in text


@pytest.mark.parametrize("lang, first, chooses", [
    ("en", "The chief leads the first trick", "The vice chooses the trump"),
    ("fr", "Le Chef entame le premier pli", "Le sous-Chef choisit l'atout"),
    ("de", "Der Chef spielt zum ersten Stich aus", "Den Trumpf bestimmt der Vize"),
])
def test_a_role_that_plays_or_chooses_has_its_article(lang, first, chooses):
    text = write_rulebook(load(ROOT / "variants" / "others" / "mu.yaml"), lang)
    assert first in text and chooses in text


@pytest.mark.parametrize("lang, sentence", [
    ("en", "The chief makes the contract when `made == 1`: that side then wins the round, otherwise the other side does."),
    ("fr", "Le Chef réussit le contrat si `made == 1` : son camp gagne alors la manche, sinon c'est l'autre camp."),
    ("de", "Der Chef erfüllt den Vertrag, wenn `made == 1`: Dann gewinnt diese Partei die Runde, sonst die andere Partei."),
])
def test_the_scoring_says_when_the_bidders_contract_is_made(lang, sentence):
    text = write_rulebook(load(ROOT / "variants" / "others" / "mu.yaml"), lang)
    scoring = text.split("\n## ")[-2]                 # the section before the end of the game
    assert sentence in scoring
    assert "contra" not in write_rulebook(load(CHIBRE), lang).lower()     # no bidder_won, no sentence
