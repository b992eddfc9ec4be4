"""A game told in another language: every shipped variant's game, as run and replay tell it
and as the person at the table reads it, says no English sentence once --lang names another
catalog; the words come from the catalogs' teller and player sections alone."""
from __future__ import annotations

import io
import json
import re
import sys
from importlib import resources
from pathlib import Path

import pytest

from chimera_dsl import load_variant
from chimera_dsl.cli import run
from chimera_dsl.engine import Game
from chimera_dsl.players import parse_players, play_game
from chimera_dsl.players.human import HumanPlayer, LeftTheTable
from chimera_dsl.tell import catalog as catalogs
from chimera_dsl.tell.printer import Teller, result_line, tell

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "variants").rglob("*.yaml"))
OTHERS = [lang for lang in catalogs.languages() if lang != "en"]
WORD = re.compile(r"[^\W\d_]{3,}")


def _raw(lang: str) -> dict:
    return json.loads(resources.files("chimera_dsl.tell.locales").joinpath(lang + ".json").read_text(encoding="utf-8"))


def _words(value) -> set[str]:
    """Every word of a catalog section (or of a variant's data), lowercased."""
    if isinstance(value, dict):
        return set().union(*(_words(k) | _words(v) for k, v in value.items())) if value else set()
    if isinstance(value, list):
        return set().union(*(_words(v) for v in value)) if value else set()
    return {w.lower() for w in WORD.findall(str(value))} if isinstance(value, str) else set()


def _english_only(sections: tuple[str, ...], lang: str, rules=None) -> set[str]:
    """The words English says in ``sections`` that ``lang`` does not (the English sentences' own
    words), less the variant's words (a name the file gives in English only is the file's)."""
    words = set().union(*(_words(_raw("en")[s]) for s in sections))
    words -= set().union(*(_words(_raw(lang)[s]) for s in sections)) | _words(_raw(lang).get("glossary", {}))
    if rules is not None:
        words -= _names(rules.spec) | _words(rules.name)
    return words


NAMING = {"names", "titles", "roles", "name", "when"}


def _names(spec) -> set[str]:
    """The words a variant file gives as names (``names``, ``titles``, ``roles``...): shown as
    the file writes them where it gives no word in the language asked."""
    if isinstance(spec, dict):
        return set().union(set(), *(_words(v) if k in NAMING else _names(v) for k, v in spec.items()))
    if isinstance(spec, list):
        return set().union(set(), *(_names(v) for v in spec))
    return set()


@pytest.fixture(scope="module")
def games():
    """One game of every shipped variant, the same for every language: four rounds at most
    (every round a file plays differently from its first, a passing direction, an exchange by
    place, a smaller hand, comes by then, and the game's end is told after them)."""
    out = {}
    for path in VARIANTS:
        rules = load_variant(ROOT / path)
        game = Game(rules, max_rounds=4)
        players = parse_players(None, game.players, 5, None)
        out[path] = (rules, play_game(game, players, 5).events, [p.name for p in players])
    return out


@pytest.mark.parametrize("lang", OTHERS)
def test_every_shipped_game_is_told_without_an_english_sentence(games, lang):
    for path, (rules, events, names) in games.items():
        english = list(tell(events, rules))
        told = list(tell(events, rules, lang)) + list(Teller(rules, seat=0, live=True, lang=lang).lines(events)) \
            + [result_line(events[-1], names, lang=lang)]
        assert len(told) > len(english), path
        left = _english_only(("teller",), lang, rules) - {n.lower() for n in names}
        found = sorted({w for line in told for w in WORD.findall(line) if w.lower() in left})
        assert not found, (path, found, [line for line in told if any(w in line for w in found)][:5])
        assert told[:len(english)] != english, path


def test_the_french_story_reads_as_french(games):
    rules, events, _ = games["variants/chimera.yaml"]
    text = "\n".join(tell(events, rules, "fr"))
    assert "Manche 1 : le joueur " in text and " distribue" in text
    assert re.search(r"^  pli 1 : le joueur \d joue ", text, re.M)
    assert re.search(r"^Partie terminée après \d+ manches\.$", text, re.M)
    assert "est la Chimère à " in text            # the role in French, with the article its gender takes


def test_a_french_seat_is_a_player_and_merges_with_a_or_de(games):
    """A seat is "le joueur 2" (a place does not play), and "à le joueur" is said "au joueur", as
    the catalog's grammar.contractions merge them; no "à le", "de le" is left anywhere."""
    told = []
    for rules, events, _ in games.values():
        told += list(tell(events, rules, "fr")) + list(Teller(rules, seat=0, live=True, lang="fr").lines(events))
    text = "\n".join(told)
    assert "la place" not in text
    assert re.search(r"va au joueur \d$", text, re.M)
    assert re.search(r"échange : le joueur \d donne \d cartes? au joueur \d", text)
    assert not re.search(r"\b(à|de) les? ", text, re.I), re.findall(r".{30}\b(?:à|de) les? .{20}", text)[:5]


def test_the_command_line_tells_in_the_language_asked(capsys, tmp_path):
    log = tmp_path / "game.jsonl"
    assert run(["run", "variants/chimera.yaml", "--seed", "4", "--lang", "de", "--log", str(log)]) == 0
    told = capsys.readouterr().out
    assert "Runde 1: Platz " in told and "Spielende nach" in told
    assert run(["replay", str(log), "--lang", "it"]) == 0
    replayed = capsys.readouterr().out
    assert "Mano 1: distribuisce Posto " in replayed and "Partita finita dopo" in replayed
    assert run(["replay", str(log), "--quiet", "--lang", "fr"]) == 0
    assert re.fullmatch(r"le joueur \d \(\w+\) gagne avec -?\d+ après \d+ manches \(.*\)\n", capsys.readouterr().out)
    assert run(["run", "variants/chimera.yaml", "--lang", "zz"]) == 2
    assert "'zz' is not one of" in capsys.readouterr().err


@pytest.mark.parametrize("lang", OTHERS)
def test_the_person_at_the_table_reads_the_language_asked(lang):
    rules = load_variant(ROOT / "variants" / "chimera.yaml")
    state = Game(rules).new_game(3)
    out = io.StringIO()
    human = HumanPlayer(io.StringIO("help\n?\n\nlook\nquit\n"), out, echo=True, lang=lang)
    with pytest.raises(LeftTheTable):
        human.act(state.observation(state.current_player()), state.legal_actions())
    text = out.getvalue()
    english = HumanPlayer(io.StringIO(), io.StringIO(), lang="en")
    assert english.t("help") not in text and human.t("help") in text
    left = _english_only(("player", "teller"), lang, rules)
    # the words the person types stay what the help says (#3, ?), and a card's name is the deck's
    found = sorted({w for w in WORD.findall(text) if w.lower() in left})
    assert not found, (found, text)


def test_typed_words_of_the_language_are_read_besides_the_english_ones():
    rules = load_variant(ROOT / "variants" / "chimera.yaml")
    state = Game(rules).new_game(3)
    obs = state.observation(state.current_player())
    french = HumanPlayer(io.StringIO(), io.StringIO(), lang="fr")
    assert french.choose("passe", obs, state.legal_actions()).kind == "pass"
    assert french.choose("pass", obs, state.legal_actions()).kind == "pass"
    with pytest.raises(LeftTheTable):
        HumanPlayer(io.StringIO("quitter\n"), io.StringIO(), lang="fr").ask("> ")


def _leaves(value, path=()) -> dict[tuple, object]:
    if isinstance(value, dict):
        return {k: v for key, inner in value.items() for k, v in _leaves(inner, path + (key,)).items()}
    if isinstance(value, list):
        return {k: v for i, inner in enumerate(value) for k, v in _leaves(inner, path + (str(i),)).items()}
    return {path: value}


# the same in every language: the word a person types for no trump, as the record writes it;
# and words French shares with English
SAME = {"*": {"player.trump_none"},
        "fr": {"page.table_link", "page.scores", "page.pts.1", "page.target_points", "page.fact_phase", "page.points.1",
               "teller.trick_points.0", "teller.trick_points.1"}}
SECTIONS = ("teller", "player", "page")


@pytest.mark.parametrize("lang", OTHERS)
def test_every_sentence_with_words_is_translated(lang):
    """A sentence of the teller's, the player's or the page's catalog left as English (words
    beyond its placeholders, the same as English's) is an English sentence a reader would meet."""
    english, own = _raw("en"), _raw(lang)
    same = []
    for section in SECTIONS:
        theirs = _leaves(own[section])
        for key, text in _leaves(english[section]).items():
            bare = re.sub(r"\{[^}]*\}", "", text) if isinstance(text, str) else ""
            name = ".".join((section,) + key)
            if WORD.search(bare) and theirs.get(key) == text and name not in SAME["*"] | SAME.get(lang, set()):
                same.append(name)
    assert not same, same
