"""The loader's located problems and every command's --help in the language asked.

A variant that does not load is told in the language of ``--lang`` (or ``CHIMERA_LANG``): the
place ``FILE:LINE:COL`` and the keys and values quoted stay as written, the rest comes from the
catalog's ``loader`` section; ``--help`` comes from its ``help`` section.  A catalog added
under a new code is a new language of both, with no change to the code.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from chimera_dsl.cli import main, run
from chimera_dsl.tell import catalog as catalogs
from chimera_dsl.tell.problems import translated
from chimera_dsl.variant import PATTERN_WORDS, schema

ROOT = Path(__file__).resolve().parents[1]
CHIMERA = str(ROOT / "variants" / "chimera.yaml")
OTHERS = [lang for lang in catalogs.languages() if lang != "en"]

# typical mistakes, each as the lines of a file extending the official one
MISTAKES = {
    "unknown key": "playres: 4\n",
    "wrong type": "players: many\n",
    "not one of": "play:\n  kind: trickz\n",
    "bad expression": "end:\n  when: \"max(total) >= 400 &&\"\n",
    "bad pattern": "combinations:\n  pair:\n    pattern: \"pair of nubmer\"\n",
    "bad card": "play:\n  first_leader: {holder: Z/red}\n",
    "unknown seat": "play:\n  first_leader: dealr\n",
    "yaml": "players: 4\n  deck: x: y\n",
    "key twice": "players: 4\nplayers: 5\n",
    "unknown function": "end:\n  when: \"maxx(totals) >= 400\"\n",
    "not a condition": "end:\n  when: \"max(totals) and 1\"\n",
    "bad range": "combinations:\n  pair:\n    pattern: \"3..1 consecutive pairs of number\"\n",
    "tricks setting": "play:\n  follow: true\n",
}


def _words(text) -> set[str]:
    if isinstance(text, list):          # a pair [one, many]
        return set().union(*map(_words, text))
    return {w.lower() for w in re.findall(r"[A-Za-z]{3,}", text)}


def _keys_of_the_file() -> set[str]:
    """Every key the schema names (a problem writes paths such as play.kind unquoted)."""
    found: set[str] = set()

    def walk(node):
        if isinstance(node, dict):
            found.update(w.lower() for k in node.get("properties", {}) for w in re.findall(r"[A-Za-z]+", k))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(schema())
    return found


def _english_left(text: str, lang: str, english_texts, own_texts) -> list[str]:
    """The English words of ``english_texts`` in ``text`` (quotes, paths, metavars, an option's
    values and default, and the words the language's own texts use too left aside)."""
    plain = re.sub(r"'[^'\n]*'|\"[^\"\n]*\"|\S*[/.]\S*|--[\w-]+|\{[^}]*\}|\b[A-Z_]{2,}\b|  \[[^\]]*\]", " ", text)
    english = set().union(*(_words(t) for t in english_texts))
    own = set().union(*(_words(t) for t in own_texts))
    choices = {str(c).lower() for command in main.commands.values() for p in command.params
               for c in getattr(p.type, "choices", ())}         # values an option takes, as typed
    return sorted((_words(plain) & english) - own - _keys_of_the_file() - choices - set(main.commands))


def _said(capsys, args: list[str]) -> str:
    run(args)
    out = capsys.readouterr()
    return out.out + out.err


def _loader(lang: str) -> dict:
    return catalogs.catalog(lang)["loader"]["templates"]


@pytest.fixture(scope="module")
def mistakes(tmp_path_factory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("mistakes")
    out = {}
    for name, lines in MISTAKES.items():
        path = folder / (name.replace(" ", "_") + ".yaml")
        path.write_text(f"extends: {CHIMERA}\n{lines}", encoding="utf-8")
        out[name] = str(path)
    return out


@pytest.mark.parametrize("lang", OTHERS)
def test_a_loader_problem_is_said_in_the_language_asked_with_its_place_as_written(capsys, mistakes, lang):
    for name, path in mistakes.items():
        english = _said(capsys, ["validate", path]).splitlines()
        said = _said(capsys, ["validate", path, "--lang", lang]).splitlines()
        assert len(said) == len(english) and said != english, name
        for line, ours in zip(english, said):
            place = re.match(r"\S+:\d+:\d+: ", line)
            if place is None:                           # the excerpt and its caret
                assert ours == line, name
                continue
            assert ours.startswith(place.group(0)), (name, ours)
            for quoted in re.findall(r"'[^']*'", line.split(" (hint: ")[0]):
                assert quoted in ours, (name, quoted, ours)
            left = _english_left(ours[place.end():], lang, _loader("en"), _loader(lang).values())
            assert not left, (name, left, ours)


@pytest.mark.parametrize("lang", OTHERS)
def test_the_same_with_chimera_lang_and_in_any_command_that_loads(capsys, monkeypatch, mistakes, lang):
    english = _said(capsys, ["run", mistakes["unknown key"], "--quiet"])
    monkeypatch.setenv("CHIMERA_LANG", lang)
    said = _said(capsys, ["run", mistakes["unknown key"], "--quiet"])
    assert said != english and "'playres'" in said and "'players'" in said
    assert not _english_left(said.split(": ", 1)[1], lang, _loader("en"), _loader(lang).values())


def test_json_keeps_the_english_message_and_gives_the_language_beside_it(capsys, mistakes):
    english = json.loads(_said(capsys, ["validate", mistakes["wrong type"], "--json"]))
    problem, = english["files"][mistakes["wrong type"]]
    assert problem["message"] == "players must be a whole number, not the string 'many'" and "said" not in problem
    french = json.loads(_said(capsys, ["validate", mistakes["wrong type"], "--json", "--lang", "fr"]))
    problem, = french["files"][mistakes["wrong type"]]
    assert problem["message"] == "players must be a whole number, not the string 'many'"
    assert problem["said"] == {"lang": "fr", "message": "players doit être un nombre entier, pas la chaîne 'many'",
                               "hint": "p. ex. players: 3"}


def test_a_quoted_field_stays_as_the_file_writes_it_and_others_are_said_again():
    # 'a list' is a key of the file here, not the words a list: never translated
    assert translated("unknown key 'a list'", "fr") == "clé inconnue 'a list'"
    assert translated("players must be a list, not a map", "de") == "players muss eine Liste sein, nicht eine Tabelle"
    assert translated("a message no template knows", "it") == "a message no template knows"
    assert translated("unknown key 'x'", "en") == "unknown key 'x'"


def _commands() -> list[list[str]]:
    return [[]] + [[name] for name in sorted(main.commands)]


@pytest.mark.parametrize("lang", OTHERS)
def test_every_command_helps_in_the_language_asked(capsys, lang):
    english_help = list(catalogs.catalog("en")["help"])
    own_help = list(catalogs.catalog(lang)["help"].values()) + list(catalogs.catalog(lang)["cli"]["click"].values())
    for command in _commands():
        english = _said(capsys, command + ["--help"])
        for args in (["--lang", lang] + command + ["--help"], command + ["--help", "--lang", lang]):
            if not command and args[-1] == lang:
                continue
            said = _said(capsys, args)
            assert said != english, args
            for word in ("Usage:", "Options:", "Commands:", "Show this message", "env var:"):
                assert word not in said, (args, word)
            flat = " ".join(said.split())
            for text in english_help:
                start = " ".join(text.split())[:40]
                assert start not in flat or start in " ".join(own_help), (args, start)
            left = _english_left(said, lang, english_help, own_help)
            assert not left, (args, left)


def test_chimera_lang_sets_the_help_too(capsys, monkeypatch):
    monkeypatch.setenv("CHIMERA_LANG", "de")
    said = _said(capsys, ["run", "--help"])
    assert "Eine ganze Partie von VARIANT" in said and "Aufruf:" in said
    said = _said(capsys, ["--lang", "fr", "run", "--help"])       # the command line's before the environment's
    assert "Jouer une partie entière de VARIANT" in said


def test_a_language_given_before_the_command_is_the_command_s(capsys, mistakes):
    said = _said(capsys, ["--lang", "it", "validate", mistakes["unknown key"]])
    assert "chiave sconosciuta 'playres'" in said
    said = _said(capsys, ["--lang", "it", "validate", mistakes["unknown key"], "--lang", "de"])
    assert "unbekannter Schlüssel 'playres'" in said


def test_a_new_catalog_says_the_loader_and_the_help_without_touching_the_code(new_language, capsys, mistakes):
    """A copy of the English catalog under another code, with a template of the loader and a
    help changed: validate and --help say them."""
    def change(data: dict) -> None:
        data["loader"]["hint"] = "[consiglio: {hint}]"
        data["loader"]["templates"]["unknown key '{key}'"] = "chiave ignota '{key}'"
        data["loader"]["templates"]["did you mean '{word}'?"] = "forse '{word}'?"
        data["help"]["Print only the result."] = "Solo il risultato, per favore."

    new_language(change)
    said = _said(capsys, ["validate", mistakes["unknown key"], "--lang", "xx"])
    assert said.endswith(":2:1: chiave ignota 'playres' [consiglio: forse 'players'?]\n")
    said = _said(capsys, ["--lang", "xx", "run", "--help"])
    assert "Solo il risultato, per favore." in said


@pytest.mark.parametrize("lang", OTHERS)
def test_each_template_is_the_one_its_messages_find(lang):
    """A message made from an English template (its fields filled with tokens no template
    knows) is said with that template's translation: no other template takes it first."""
    import string
    from chimera_dsl.tell.problems import _weak
    own = _loader(lang)
    wrong = {}
    for english in _loader("en"):
        if _weak(english):
            continue
        names = [name for _, name, _, _ in string.Formatter().parse(english) if name]
        tokens = {name: f"Zq{i}" for i, name in enumerate(dict.fromkeys(names))}
        said = translated(english.format(**tokens), lang)
        if said != own[english].format(**tokens):
            wrong[english] = said
    assert not wrong, wrong


INVALID = sorted((ROOT / "tests" / "variants" / "invalid").glob("*.yaml"))


@pytest.mark.parametrize("lang", OTHERS)
def test_every_broken_file_of_the_tests_is_said_in_the_language(capsys, lang):
    """The files tests/variants/invalid holds (each problem the loader finds, as test_variant
    pins it in English): every problem and hint said in the language, no English word left."""
    failures = []
    for path in INVALID:
        english = _said(capsys, ["validate", str(path)]).splitlines()
        said = _said(capsys, ["validate", str(path), "--lang", lang]).splitlines()
        for line, ours in zip(english, said):
            place = re.match(r"\S+:\d+:\d+: ", line)
            if place is None:
                continue
            # lists of the file's names (a, b, c) and the pattern language's words are the file's own
            plain = re.sub(r"[\w|]+(, [\w|]+){2,}", " ", ours[place.end():])
            left = set(_english_left(plain, lang, _loader("en"), _loader(lang).values())) - set(PATTERN_WORDS) - {"same", "colour"} \
                - _words(path.read_text(encoding="utf-8"))          # a value the file writes
            if ours == line or left:
                failures.append((path.name, left, ours))
    assert not failures, failures
