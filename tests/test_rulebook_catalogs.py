"""The rulebook's catalogs (chimera_dsl/tell/locales/LANG.json): every language has every key
English has, with the same placeholders, and a new catalog is a new language of the rulebook
with no change to the code."""
from __future__ import annotations

import json
import re
import string
from importlib import resources
from pathlib import Path

import pytest

from chimera_dsl.tell import catalog as catalogs
from chimera_dsl.tell.rulebook import write_rulebook
from chimera_dsl.variant import load_variant

ROOT = Path(__file__).resolve().parents[1]
LOCALES = resources.files("chimera_dsl.tell.locales")


def _raw(lang: str) -> dict:
    return json.loads(LOCALES.joinpath(lang + ".json").read_text(encoding="utf-8"))


def _leaves(value, path=()) -> dict[tuple, object]:
    if isinstance(value, dict):
        out: dict[tuple, object] = {}
        for key, inner in value.items():
            out.update(_leaves(inner, path + (key,)))
        return out
    if isinstance(value, list):
        return {path + (str(i),): v for i, v in enumerate(value)} if value and all(isinstance(v, str) for v in value) \
            else {path: value}
    return {path: value}


def _fields(text) -> set[str]:
    if not isinstance(text, str):
        return set()
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


# keys whose content is the language's own (its grammar, its glossary): not a translation of English's
FORMS = re.compile(r"[A-Za-z]+_(the|to|acc|dat|pron|poss|poss_gen|first|no)")
OWN = ("_about", "language", "grammar", "forms", "elision", "glossary", "colours")


@pytest.mark.parametrize("lang", [lang for lang in catalogs.languages() if lang != "en"])
def test_every_catalog_says_every_sentence_with_the_same_placeholders(lang):
    english = {k: v for k, v in _leaves(_raw("en")).items() if k[0] not in OWN}
    own = {k: v for k, v in _leaves(_raw(lang)).items() if k[0] not in OWN}
    missing = sorted(".".join(k) for k in english if k not in own)
    # a key only this language needs (a French singular) is fine: English simply has no such case
    assert not missing, missing
    # a sentence may read a role with its article or case ({bidder_the}, {role_dat}) where
    # English reads the bare name; any other placeholder must be one a catalog already reads there
    known = [_leaves(_raw(other)) for other in catalogs.languages() if other != lang]
    differ = sorted(".".join(k) for k in english
                    if any(f not in set().union(*(_fields(c.get(k)) for c in known)) and not FORMS.fullmatch(f)
                           for f in _fields(own[k])))
    assert not differ, differ
    forms = _raw(lang)["forms"]
    assert forms and all({"the", "to", "acc", "dat", "pron", "poss", "poss_gen", "first", "no"} <= set(f)
                         for f in forms.values())


def test_a_new_catalog_is_a_new_language_without_touching_the_code(new_language):
    """A copy of the English catalog under another code, a sentence of each section changed:
    the rulebook, a game told, the person at the table and the web page all say it."""
    def change(data: dict) -> None:
        data["rulebook"]["cards"] = "Le carte"
        data["teller"]["round"] = "Giro {round}: {dealer} mescola"
        data["player"]["ask_lead"] = "Tocca a te"
        data["page"]["create"] = "Apri un tavolo nuovo"

    new_language(change)
    assert "xx" in catalogs.languages()
    rules = load_variant(ROOT / "variants" / "chimera.yaml")
    text = write_rulebook(rules, "xx")
    assert "\n## Le carte\n" in text
    # a game told, the person at the table, the web page: the same catalog
    from chimera_dsl.engine import Game
    from chimera_dsl.players import parse_players, play_game
    from chimera_dsl.players.human import HumanPlayer
    from chimera_dsl.serve.words import pick_language, words_for_page
    from chimera_dsl.tell.printer import tell
    game = Game(rules, max_rounds=1)
    events = play_game(game, parse_players(None, game.players, 1), 1).events
    assert any(re.match(r"Giro 1: seat \d mescola", line) for line in tell(events, rules, "xx"))
    assert HumanPlayer(lang="xx").t("ask_lead") == "Tocca a te"
    assert pick_language(None, "xx-YY", "en") == "xx" and words_for_page("xx")["create"] == "Apri un tavolo nuovo"


@pytest.mark.parametrize("path, lang, said, never", [
    ("variants/others/tichu.yaml", "fr", "est inférieur au nombre de joueurs", "à le nombre"),
    ("variants/others/mu.yaml", "it", "l'offerta del capo", "di il capo"),
])
def test_a_preposition_merges_with_the_article_after_it(path, lang, said, never):
    """French "à le" is "au", Italian "di il" is "del" (grammar.contractions), where a sentence's
    preposition meets a phrase put in after it; a house file's rulebook compares like with like."""
    text = write_rulebook(load_variant(ROOT / path), lang)
    assert said in text and never not in text


def test_a_contraction_keeps_a_capital_and_leaves_other_words_alone():
    from chimera_dsl.tell.articles import contracted
    assert contracted("À le joueur 2, de les cartes; à lequel", "fr") == "Au joueur 2, des cartes; à lequel"
    assert contracted("à le joueur", "en") == "à le joueur"


def test_an_unknown_language_is_refused_with_the_languages_there_are():
    with pytest.raises(ValueError, match=r"unknown language 'zz'; choose one of en, "):
        write_rulebook(load_variant(ROOT / "variants" / "chimera.yaml"), "zz")
    assert re.fullmatch(r"[a-z]{2}", catalogs.languages()[-1])
