"""Every shipped file's rulebook, in every language, reads as words a player follows: no raw
expression or code in backticks, no internal id (a phase's ``p01``, a card written ``1/multi``),
no heading twice, and a title in the rulebook's own language.

The rulebooks are written as ``chimera rules FILE --lang LANG`` writes them.  The section of a
house file's differences is left out of the backtick check: it quotes the file's keys and
values on purpose (the sentences that differ are told in words above it).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from chimera_dsl.cli import run
from chimera_dsl.tell import catalog as catalogs
from chimera_dsl.tell.rulebook import T, write_rulebook
from chimera_dsl.variant import load_variant

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted(ROOT.glob("variants/*.yaml")) + sorted(ROOT.glob("variants/*/*.yaml"))
LANGS = ("en", "fr", "de", "it")

# words only English has: one of them in a French, German or Italian rulebook is a sentence
# left untranslated (the file's own names for that language, in `own`, are left aside)
ENGLISH = re.compile(r"\b(the|and|with|when|who|which|each|must|player|players|cards|trick|tricks|wins|"
                     r"rounds|scores|their|than|after|before|only|otherwise|instead)\b", re.I)
CARD_SYNTAX = re.compile(r"(?<![\w/.:])[0-9A-Za-z]{1,3}/[a-z]+\b")
PHASE_ID = re.compile(r"\bp[0-9]{2}\b")


def rulebook(capsys, path: Path, lang: str) -> str:
    assert run(["rules", str(path), "--lang", lang]) == 0
    return capsys.readouterr().out


def _own_names(value, lang: str) -> list[str]:
    """Every name a file gives in ``lang`` (``{en: Pair, fr: Paire}``: Paire) or in one word."""
    if isinstance(value, dict):
        if lang in value and isinstance(value[lang], str):
            return [value[lang]]
        return [name for inner in value.values() for name in _own_names(inner, lang)]
    if isinstance(value, list):
        return [name for inner in value for name in _own_names(inner, lang)]
    return []


def problems(text: str, lang: str, english_title: str | None, titles: dict | None = None,
             own: list[str] = ()) -> list[str]:
    """What keeps ``text`` (a rulebook in ``lang``) from reading as words, one line each;
    ``titles``: the file's titles by language (a title the same in every language is given);
    ``own``: the names the file gives in that language (an English word among them is its choice)."""
    found = []
    house = "## " + T[lang]["house"]
    body = text.split("\n" + house + "\n")[0]
    if lang != "en":
        words = re.sub(r"`[^`\n]*`|\*[^*\n]*\*", " ", body.split("\n", 1)[-1])
        for name in sorted(own, key=len, reverse=True):
            words = words.replace(name, " ")
        found += [f"an English word: {w}" for w in sorted({m.group(0) for m in ENGLISH.finditer(words)})]
    for span in re.findall(r"`([^`\n]*)`", body):
        found.append(f"code in backticks: `{span}`")
    plain = re.sub(r"`[^`\n]*`", " ", body)
    for match in CARD_SYNTAX.finditer(plain):
        found.append(f"a card as the file writes it: {match.group(0)}")
    for match in PHASE_ID.finditer(plain):
        found.append(f"a phase id: {match.group(0)}")
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    found += [f"heading twice: {h}" for h in sorted({h for h in headings if headings.count(h) > 1})]
    title = text.splitlines()[0]
    if english_title is not None and lang != "en" and title == english_title and not (titles or {}).get(lang):
        found.append(f"title not translated: {title}")
    return found


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT / "variants")))
def test_every_rulebook_reads_as_words_in_every_language(capsys, path):
    english = rulebook(capsys, path, "en").splitlines()[0]
    spec = load_variant(path).spec
    titles = spec.get("titles")
    failures = {}
    for lang in LANGS:
        found = problems(rulebook(capsys, path, lang), lang, english, titles, _own_names(spec, lang))
        named = {**catalogs.catalog(lang)["glossary"], **catalogs.catalog(lang)["colours"]}
        own = (spec.get("deck") or {}).get("names") or {}      # the file's own names of its colours
        found += [f"a colour neither the catalog nor the file names: {c}"
                  for c in (spec.get("deck") or {}).get("colours", ())
                  if lang != "en" and c not in named and not (isinstance(own.get(c), dict) and own[c].get(lang))]
        if found:
            failures[lang] = found
    assert not failures, failures


@pytest.mark.parametrize("text, lang, expected", [
    ("# T\n\nScore `cards_left * 2`.\n", "en", ["code in backticks: `cards_left * 2`"]),
    ("# T\n\nPhases: the deal, p01, the play.\n", "en", ["a phase id: p01"]),
    ("# T\n\nThe holder of 1/multi leads.\n", "en", ["a card as the file writes it: 1/multi"]),
    ("# T\n\n## Trump\n\n## Trump\n", "en", ["heading twice: ## Trump"]),
    ("# T\n", "fr", ["title not translated: # T"]),
    ("# Mü\n", "de", []),
    ("# T\n\nA 10 or a 7/8 split and 1.5/2 points.\n", "en", []),
    ("# T\n\n## House rules\n\n- `scoring.x` changed\n", "en", []),
    ("# T\n\nLe joueur qui gagne the trick mène.\n", "fr", ["an English word: the", "an English word: trick",
                                                          "title not translated: # T"]),
    ("# Mü\n\nDer Chef wählt *the vice*.\n", "de", []),
])
def test_the_checks_find_what_they_look_for(text, lang, expected):
    assert problems(text, lang, "# T" if "# T" in text else "# Mü", {"de": "Mü"}) == expected


def _house(tmp_path: Path, overlay: str, lang: str = "en") -> str:
    path = tmp_path / "house.yaml"
    path.write_text(f"extends: {ROOT / 'variants' / 'chimera.yaml'}\nname: house\n{overlay}\n", encoding="utf-8")
    return write_rulebook(load_variant(path), lang)


def test_the_seat_after_the_dealer_is_not_on_the_left_counter_clockwise(tmp_path):
    clockwise = _house(tmp_path, "bidding: {opener: dealer_left}")
    assert "The player on the dealer's left opens the bidding." in clockwise
    text = _house(tmp_path, "seats: {direction: counterclockwise}\nbidding: {opener: dealer_left}")
    assert "The bidding is opened by the player after the dealer." in text and "dealer's left" not in text


def test_a_lowest_wins_game_does_not_speak_of_the_highest_total(tmp_path):
    text = _house(tmp_path, "end: {winner: lowest, ties: play_on}")
    assert "The lowest total wins." in text and "highest" not in text.split("## End of the game")[1]


def test_cards_left_out_of_the_deal_are_told(tmp_path):
    text = _house(tmp_path, "deal: {hand: 15}")
    assert "The other 6 cards are not dealt: they stay face down, unseen, for the whole round." in text
    assert "not dealt" not in write_rulebook(load_variant(ROOT / "variants" / "chimera.yaml"), "en")
    chibre = tmp_path / "chibre.yaml"
    chibre.write_text(f"extends: {ROOT / 'variants' / 'others' / 'chibre.yaml'}\nname: c\ndeal: {{hand: 8}}\n",
                      encoding="utf-8")
    assert "Les 4 autres cartes ne sont pas distribuées" in write_rulebook(load_variant(chibre), "fr")


def test_a_counter_clockwise_trick_game_does_not_seat_the_leader_on_the_dealer_s_left(tmp_path):
    chibre = tmp_path / "chibre.yaml"
    chibre.write_text(f"extends: {ROOT / 'variants' / 'others' / 'chibre.yaml'}\nname: c\n"
                      "play: {first_leader: dealer_left}\n", encoding="utf-8")
    text = write_rulebook(load_variant(chibre), "en")
    assert "The player after the dealer leads the first trick" in text and "dealer's left" not in text


# -- a name that is 1 or 0, said as the condition it is ------------------------------------------
@pytest.mark.parametrize("lang, said, never", [
    ("en", "1 if the player is on the bidding side and", "on the bidding side is 1"),
    ("fr", "1 si le joueur est dans le camp attaquant et", "dans le camp attaquant vaut 1"),
    ("de", "1, wenn der Spieler in der Spielpartei ist und", "in der Spielpartei 1 ist"),
    ("it", "1 se il giocatore è nella squadra dichiarante e", "nella squadra dichiarante vale 1"),
])
def test_an_engine_flag_compared_with_1_or_0_is_said_as_a_condition(capsys, lang, said, never):
    text = rulebook(capsys, ROOT / "variants/others/euchre.yaml", lang)
    assert said in text and never not in text


def test_a_fact_written_as_a_condition_is_said_by_its_name(capsys):
    """Skat's contract: 'game_made == 1 and not overbid' reads 'when *game made* and not
    *overbid*'; a declaration announced or not, by its name."""
    text = rulebook(capsys, ROOT / "variants/others/skat.yaml", "en")
    assert "makes the contract when *game made* and not *overbid*" in text
    assert "the declarer did not announce schneider or" in text
    assert "schneider announced is 0" not in text


@pytest.mark.parametrize("lang, said", [
    ("en", "the bidding side's tricks are at least 3"),
    ("en-hearts", "the cards of hearts played so far this round are more than 0"),
    ("fr", "les plis du camp attaquant valent au moins 3"),
    ("de", "die Stiche der Spielpartei mindestens 3 sind"),
    ("it", "le prese della squadra dichiarante valgono almeno 3"),
])
def test_a_name_said_in_the_plural_is_compared_in_the_plural(capsys, lang, said):
    lang, _, name = lang.partition("-")
    assert said in rulebook(capsys, ROOT / f"variants/others/{name or 'euchre'}.yaml", lang)


@pytest.mark.parametrize("name", ["skat", "bridge"])
def test_a_solo_game_s_or_a_contract_s_trumps_are_in_the_play_section(capsys, name):
    """The game a Skat declarer names has trumps (the jacks, the colour), a Bridge contract its
    strain: the play section said only that the highest card of the colour led takes the trick."""
    text = rulebook(capsys, ROOT / f"variants/others/{name}.yaml", "en")
    play = text.split("## Play", 1)[1].split("## ", 1)[0]
    assert "A trump lead must be answered with a trump if possible." in play
    assert "The highest trump takes the trick; without trumps, the highest card of the colour led" in play


def test_english_says_an_before_a_rank_said_with_a_vowel(capsys, tmp_path):
    hearts = ROOT / "variants/others/hearts.yaml"
    path = tmp_path / "aces.yaml"
    path.write_text(f"extends: {hearts}\nname: no ace first\nplay:\n  must:\n    - when: \"trick == 1\"\n"
                    "      play: \"play_has(a) or play_has(k)\"\n", encoding="utf-8")
    text = rulebook(capsys, path, "en")
    assert "the card is an ace or the card is a king" in text


@pytest.mark.parametrize("lang, said", [
    ("en", "the card is not of hearts"), ("fr", "la carte n'est pas à cœur"),
    ("de", "die Karte nicht Herz ist"), ("it", "la carta non è di cuori"),
])
def test_not_before_a_card_test_is_said_in_it(capsys, lang, said):
    """Hearts' lead: 'not play_has_colour(hearts)' read 'not the card is of hearts'; said as one
    clause, it needs no brackets in the 'or' around it."""
    text = rulebook(capsys, ROOT / "variants/others/hearts.yaml", lang)
    assert said in text and "(" + said not in text
