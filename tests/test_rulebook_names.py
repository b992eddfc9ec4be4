"""The names a rulebook says are said in the reader's language.

A scoring expression reads names of two kinds: the engine's (``bid``, ``tricks_taken``,
``game_base``, a solo game's ``schneider_declared``...), which every catalog says in its own
words (its ``names`` section), and the file's own (its facts, bonuses, values and term labels),
which the file's ``labels`` give words per language.  A name without words is said as written,
in italics with spaces (*needed by bid*): in a French, German or Italian rulebook that is a
name left in English.  These tests render every shipped file's rulebook in those languages and
fail on such a name, so a new name of the engine without words in the catalogs, or a new
shipped file without labels, fails here.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from chimera_dsl.engine import scoring as engine_scoring
from chimera_dsl.engine.phases import bids, contract, solo, tricks
from chimera_dsl.errors import VariantError
from chimera_dsl.tell.catalog import catalog, languages
from chimera_dsl.tell.printer import Teller
from chimera_dsl.tell.rulebook import write_rulebook
from chimera_dsl.variant import load_variant as load

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted(ROOT.glob("variants/*.yaml")) + sorted(ROOT.glob("variants/*/*.yaml"))
BASES = [p for p in SHIPPED if not re.search(r"^extends:", p.read_text(encoding="utf-8"), re.M)]
# house files that name things of their own (a value, a term), labelled like a base file
OWN_NAMES = [ROOT / "variants" / "house_rules" / f for f in
             ("chibre-trump-tricks.yaml", "hearts-avoid-all-tricks.yaml", "skat-openspiel.yaml")]
READERS = ("fr", "de", "it")
ITALICS = re.compile(r"\*([^*\n]+)\*")

# every name the engine gives a scoring or an end expression to read
ENGINE = (set(engine_scoring.ENGINE_NAMES) | {"totals"} | set(tricks.SEAT_FACTS) | set(tricks.ROUND_FACTS)
          | set(tricks.DEFENDER_FACTS) | set(bids.SEAT_FACTS) | set(bids.ROUND_FACTS) | set(contract.SEAT_FACTS)
          | set(contract.ROUND_FACTS) | set(solo.ROUND_FACTS))


def defined(spec: dict) -> list[str]:
    """The names the file defines: scoring facts and bonuses, values, the labels of terms."""
    scoring = spec.get("scoring") or {}
    names = [*(scoring.get("facts") or {}), *(scoring.get("bonuses") or {}), *(spec.get("values") or {})]
    for outcome in ("bidder_out_first", "other_out_first"):
        names += list(((scoring.get(outcome) or {}).get("bonuses")) or {})
    names += [label for value in (scoring.get("points") or {}).values() if isinstance(value, dict) for label in value]
    return [str(n) for n in dict.fromkeys(names)]


def read(spec: dict) -> set[str]:
    """Every name written in the file's expressions (scoring, end, play, phases)."""
    text = " ".join(str(spec.get(key)) for key in ("scoring", "end", "play", "phases"))
    return set(re.findall(r"\b[a-z][a-z0-9_]*\b", text))


def test_the_loader_knows_the_languages_of_the_catalogs():
    """labels are checked against the catalogs' languages, which the loader reads as data."""
    from chimera_dsl.variant import rulebook_languages
    assert rulebook_languages() == languages()


@pytest.mark.parametrize("lang", languages())
def test_every_name_of_the_engine_has_words_in_every_catalog(lang):
    names = catalog(lang)["names"]
    missing = sorted(n for n in ENGINE if not names.get(n))
    assert not missing, f"the {lang} catalog's names section lacks {missing}"
    # the declaration of a solo game, said by its name ("Schneider angesagt")
    assert "{name}" in catalog(lang)["tricks"]["declared_name"]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT / "variants")))
def test_no_name_of_the_engine_is_left_in_english(path):
    rules = load(path)
    own = set(defined(rules.spec))
    engine = {n for n in read(rules.spec) if n not in own}
    for lang in READERS:
        said = set(ITALICS.findall(write_rulebook(rules, lang)))
        leaked = sorted(n for n in engine if n.replace("_", " ") in said)
        assert not leaked, f"{lang}: the engine's names said as written: {leaked}"


@pytest.mark.parametrize("path", BASES + OWN_NAMES, ids=lambda p: str(p.relative_to(ROOT / "variants")))
def test_no_name_of_the_file_is_left_untranslated(path):
    """Every name a shipped file defines and its rulebook says has words in French, German and
    Italian (its labels): not the name as written, nor its English words."""
    rules = load(path)
    labels = rules.spec.get("labels") or {}
    for lang in READERS:
        said = set(ITALICS.findall(write_rulebook(rules, lang)))
        bare = sorted(n for n in defined(rules.spec) if not (labels.get(n) or {}).get(lang)
                      and ({n.replace("_", " "), (labels.get(n) or {}).get("en")} & said))
        assert not bare, f"{lang}: names of the file without {lang} words in labels: {bare}"


def test_the_where_list_never_says_a_name_is_itself():
    """The list that says what the engine's names mean reads "name: meaning", never "X: X"."""
    for path in BASES:
        rules = load(path)
        for lang in languages():
            for line in write_rulebook(rules, lang).splitlines():
                name, sep, meaning = line[2:].partition(catalog(lang)["scoring"]["sep"])
                if line.startswith("- ") and sep:
                    assert name.strip().lower() != meaning.strip().lower(), (path.name, lang, line)


# -- labels ------------------------------------------------------------------------------------

BASE = """\
format: 1
name: Labelled
players: 4
deck:
  ranks: ["7", "8", "9", "10", J, Q, K, A]
  colours: [clubs, diamonds, spades, hearts]
  cards:
    - {ranks: "7..A", per_colour: 1}
deal: {first_dealer: random, dealer_rotates: clockwise, hand: 8}
play:
  kind: tricks
  first_leader: dealer_left
  follow: suit
  plain_order: [A, K, Q, J, "10", "9", "8", "7"]
  points: {A: 11, "10": 10, K: 4, Q: 3, J: 2}
values:
  streak: {each: seat, range: [0, 5]}
scoring:
  facts:
    needed: 60
  points:
    each:
      cards: "if trick_points >= needed then trick_points else 0"
  set:
    streak: "if trick_points >= needed then streak + 1 else 0"
end: {target: 500}
"""


ENTRY = BASE.count("\n") + 2          # the line of the first entry of labels written after BASE


def _write(tmp_path: Path, text: str, name: str = "labelled.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_labels_are_said_in_the_readers_language_else_in_english(tmp_path):
    path = _write(tmp_path, BASE + "labels:\n"
                  "  needed: {en: points needed, fr: points requis, de: nötige Punkte}\n"
                  "  cards: {fr: cartes, de: Karten, it: carte}\n"
                  "  streak: {de: Serie}\n")
    rules = load(path)
    de, fr, it, en = (write_rulebook(rules, lang) for lang in ("de", "fr", "it", "en"))
    assert "*nötige Punkte* ist 60." in de and "Jeder Spieler (*Karten*):" in de
    assert "*Serie*" in de and "*streak*" not in de
    assert "*points requis*" in fr and "(*cartes*)" in fr
    assert "*points needed*" in it and "(*carte*)" in it           # no Italian words: the English ones
    assert "*streak*" in fr                                          # no words at all: the name as written
    assert "*points needed* is 60." in en and "(*cards*)" in en
    # the same game is played and scored with or without labels
    plain = load(_write(tmp_path, BASE, "plain.yaml"))
    assert plain.spec["scoring"] == rules.spec["scoring"] and plain.spec["values"] == rules.spec["values"]


def test_a_game_is_told_with_the_labels_of_its_terms(tmp_path):
    rules = load(_write(tmp_path, BASE + "labels:\n  cards: {de: Augen}\n"))
    teller = Teller(rules, lang="de")
    assert teller.part_label("cards") == "Augen"
    assert Teller(rules, lang="fr").part_label("cards") == "cartes"        # the catalog's own word for it
    doudizhu = load(ROOT / "variants" / "others" / "doudizhu.yaml")      # a bonus counted, by its label
    assert Teller(doudizhu, lang="de").bonus_text("rockets", 2) == "Raketen x2"


@pytest.mark.parametrize("entry, place, message, hint", [
    ("  neded: {fr: points requis}\n", (ENTRY, 3), "labels.neded gives words to 'neded', which the file does not define",
     "did you mean 'needed'?"),
    ("  tricks_taken: {fr: plis}\n", (ENTRY, 3), "which the file does not define", "the names it defines: needed, streak, cards"),
    ("  needed: {fra: points requis}\n", (ENTRY, 12), "labels.needed.fra: 'fra' is not a language of the rulebook",
     "did you mean 'fr'?"),
    ("  needed: {fr: ''}\n", (ENTRY, 16), "labels.needed.fr may not be empty", "e.g. fr: points requis"),
    ("  needed: {de: ''}\n", (ENTRY, 16), "labels.needed.de may not be empty", "e.g. de: nötige Punkte"),
    ("  needed: {fr: cartes}\n  cards: {fr: Cartes}\n", (ENTRY + 1, 11),
     "labels.cards.fr is 'Cartes', the words of 'needed' too", "give each name its own words"),
])
def test_a_misused_label_is_refused_at_its_place(tmp_path, entry, place, message, hint):
    path = _write(tmp_path, BASE + "labels:\n" + entry)
    with pytest.raises(VariantError) as error:
        load(path)
    problem = error.value.problems[0]
    assert (problem.line, problem.column) == place, str(problem)
    assert message in problem.message and hint in (problem.hint or ""), str(problem)


def test_a_file_that_extends_another_adds_and_changes_labels(tmp_path):
    _write(tmp_path, BASE + "labels:\n  needed: {en: points needed, fr: points requis}\n  cards: {fr: cartes}\n",
           "base.yaml")
    house = load(_write(tmp_path, "extends: base.yaml\nname: House\n"
                        "labels:\n  needed: {fr: seuil}\n  streak: {fr: série}\n  cards: null\n", "house.yaml"))
    fr = write_rulebook(house, "fr")
    assert "*seuil*" in fr and "*série*" in fr and "*points requis*" not in fr
    assert "(*cards*)" in fr                                     # the base's label removed
    assert "*points needed*" in write_rulebook(house, "en")      # the base's English words kept
    assert "labels" not in fr.split("\n## ")[-1]                 # not a difference of the game
    with pytest.raises(VariantError) as error:                   # a house file's label is checked too
        load(_write(tmp_path, "extends: base.yaml\nname: House\nlabels:\n  streek: {fr: série}\n", "bad.yaml"))
    problem = error.value.problems[0]
    assert problem.file.endswith("bad.yaml") and (problem.line, problem.column) == (4, 3)
    assert "did you mean 'streak'?" in problem.hint


def test_a_label_inherited_for_a_name_the_file_removes_is_left_unused(tmp_path):
    """A house file that removes a fact of its base (``facts: {spare: null}``) need not remove
    the base's label for it too; a label it writes itself for that name is refused."""
    _write(tmp_path, BASE.replace("    needed: 60\n", "    needed: 60\n    spare: 1\n")
           + "labels:\n  spare: {fr: réserve}\n", "base.yaml")
    house = load(_write(tmp_path, "extends: base.yaml\nname: House\nscoring: {facts: {spare: null}}\n", "house.yaml"))
    assert "spare" not in house.spec["scoring"]["facts"] and "réserve" not in write_rulebook(house, "fr")
    with pytest.raises(VariantError) as error:
        load(_write(tmp_path, "extends: base.yaml\nname: House\nscoring: {facts: {spare: null}}\n"
                              "labels: {spare: {fr: surplus}}\n", "own.yaml"))
    assert "labels.spare gives words to 'spare', which the file does not define" in error.value.problems[0].message
