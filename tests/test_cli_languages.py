"""The command line in another language: the diagnostic commands (validate, classify, beats,
moves, analyse, simulate, compare), their tables and the command line's errors say their
sentences from the catalogs' cli section, in the language --lang or CHIMERA_LANG names; a
catalog added alone is a language these commands speak, with no change to the code."""
from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest

from chimera_dsl.cli import run
from chimera_dsl.tell import catalog as catalogs

ROOT = Path(__file__).resolve().parents[1]
LOCALES = resources.files("chimera_dsl.tell.locales")
OTHERS = [lang for lang in catalogs.languages() if lang != "en"]
WORD = re.compile(r"[^\W\d_]{3,}")
CHIMERA = "variants/chimera.yaml"


def _raw(lang: str) -> dict:
    return json.loads(LOCALES.joinpath(lang + ".json").read_text(encoding="utf-8"))


def _leaves(value, path=()) -> dict[tuple, object]:
    if isinstance(value, dict):
        return {k: v for key, inner in value.items() for k, v in _leaves(inner, path + (key,)).items()}
    if isinstance(value, list):
        return {k: v for i, inner in enumerate(value) for k, v in _leaves(inner, path + (str(i),)).items()}
    return {path: value}


def _words(value) -> set[str]:
    return {w.lower() for text in _leaves(value).values() if isinstance(text, str)
            for w in WORD.findall(re.sub(r"\{[^}]*\}", "", text))}


SECTIONS = ("cli", "figures")


def _english_left(lang: str) -> set[str]:
    """The words of English's cli and figures sections that ``lang``'s do not use."""
    return _words({s: _raw("en")[s] for s in SECTIONS}) - _words({s: _raw(lang)[s] for s in SECTIONS})


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("section", SECTIONS)
def test_every_cli_sentence_is_in_every_catalog_and_translated(lang, section):
    english, own = _leaves(_raw("en")[section]), _leaves(_raw(lang)[section])
    assert sorted(set(english) - set(own)) == [] and sorted(set(own) - set(english)) == []
    same = [".".join(key) for key, text in english.items()
            if own[key] == text and WORD.search(re.sub(r"\{[^}]*\}", "", text))]
    assert not same, same


def _said(capsys, args: list[str], code: int | None = None) -> str:
    got = run(args)
    if code is not None:
        assert got == code, args
    out = capsys.readouterr()
    return out.out + out.err


# what each diagnostic command says, right and wrong, with its exit code
COMMANDS = [
    (["validate", CHIMERA, "variants/others/chibre.yaml"], 0),
    (["classify", CHIMERA, "7 7 7 5"], 0),
    (["classify", CHIMERA, "7"], 0),
    (["classify", "variants/others/chibre.yaml", "7"], 2),
    (["classify", CHIMERA, "1 2"], 1),
    (["beats", CHIMERA, "8 8", "--over", "7 7"], 0),
    (["beats", CHIMERA, "6 6 6 6", "--over", "7 7"], 0),
    (["beats", CHIMERA, "6 6", "--over", "7 7"], 1),
    (["beats", CHIMERA, "1 2 3 4 5 6", "--over", "2 3 4 5 P"], 1),
    (["beats", CHIMERA, "7 7", "--over", "1 2"], 1),
    (["moves", CHIMERA, "--hand", "1 1 2 3 4 5"], 0),
    (["moves", CHIMERA, "--hand", "1 1 2 3 4 5", "--over", "6 6"], 0),
    (["moves", CHIMERA], 2),
    (["moves", CHIMERA, "--hand", "1", "--bogus"], 2),
    (["moves", CHIMERA, "--hand", "1", "--ove", "2"], 2),
    (["beats", CHIMERA, "8 8"], 2),
    (["nosuch"], 2),
    (["simulate", CHIMERA], 2),
    (["simulate", CHIMERA, "--games", "1", "--rounds", "1"], 2),
    (["simulate", CHIMERA, "--games", "0"], 2),
    (["simulate", CHIMERA, "--games", "1", "--report", "/nonexistent-folder/r.html"], 2),
    (["run", CHIMERA, "--seed", "x"], 2),
    (["play", CHIMERA, "--seat", "7"], 2),
    (["analyse", CHIMERA, "--samples", "200", "--exact-budget", "0"], 0),
    (["analyse", "variants/others/big-two.yaml", "--samples", "100", "--exact-budget", "0"], 0),
    (["simulate", CHIMERA, "--rounds", "2", "--workers", "1"], 0),
    (["simulate", CHIMERA, "--rounds", "1", "--workers", "1", "--players", "random"], 0),
    (["compare", CHIMERA, "variants/house_rules/target-300.yaml", "--rounds", "2", "--workers", "1"], 0),
]


def _data_words() -> set[str]:
    """The words of the variants' own names: their titles, their combinations' ids and names,
    their bonuses, said as the file writes them; and the players' names."""
    from chimera_dsl import load_variant
    out = set()
    for path in (CHIMERA, "variants/others/big-two.yaml", "variants/house_rules/target-300.yaml"):
        rules = load_variant(ROOT / path)
        spec = rules.spec
        out |= _words(rules.name) | _words(" ".join(spec.get("bonuses") or {}).replace("_", " "))
        for cid, combination in (spec.get("combinations") or {}).items():
            out |= _words(cid.replace("_", " ")) | _words((combination or {}).get("names") or {})
    return out | {"heuristic", "random"}


def _frame(text: str) -> str:
    """The output less what names things: the files' paths, the usage's metavariables (CARDS),
    the options and commands named."""
    return re.sub(r"\S*/\S*|\b[A-Z]{3,}\b|--[\w-]+|chimera \w+", " ", text)


@pytest.mark.parametrize("lang", OTHERS)
def test_the_diagnostic_commands_say_no_english_sentence_of_the_catalog(capsys, lang):
    english = {}
    left = _english_left(lang) - _data_words()
    for args, code in COMMANDS:
        english[tuple(args)] = _said(capsys, args, code)
        told = _said(capsys, args + ["--lang", lang], code)
        assert told != english[tuple(args)], args
        found = sorted({w for w in WORD.findall(_frame(told)) if w.lower() in left})
        assert not found, (args, found, told[:2000])


def test_the_english_reasons_of_beats_are_the_librarys():
    """The library answers a beats reason in English (BEATS_WORDS; it reads no catalog); the
    catalog's cli.beats, which the command line passes in a language, is the same English."""
    from chimera_dsl.rules import BEATS_WORDS
    assert _raw("en")["cli"]["beats"] == BEATS_WORDS


def test_the_language_comes_from_chimera_lang_when_no_lang_is_given(capsys, monkeypatch):
    monkeypatch.setenv("CHIMERA_LANG", "de")
    assert _said(capsys, ["validate", CHIMERA], 0) == f"{CHIMERA}: in Ordnung\n"
    assert _said(capsys, ["validate", CHIMERA, "--lang", "it"], 0) == f"{CHIMERA}: corretto\n"
    assert "Fehlende Option '--hand'" in _said(capsys, ["moves", CHIMERA], 2)
    monkeypatch.setenv("CHIMERA_LANG", "zz")        # a language without a catalog is refused, in English
    assert "'zz' is not one of" in _said(capsys, ["validate", CHIMERA], 2)


def test_english_is_said_as_before(capsys):
    assert _said(capsys, ["validate", CHIMERA], 0) == f"{CHIMERA}: ok\n"
    assert _said(capsys, ["classify", CHIMERA, "7 7"], 0) == "pair\trank 7\t2 cards\n"
    assert _said(capsys, ["moves", CHIMERA, "--hand", "1 1"], 0) == "1\tsingle\trank 1\n1 1\tpair\trank 1\n2 moves\n"
    assert _said(capsys, ["moves", CHIMERA], 2) == ("chimera: error: Missing option '--hand'.\n"
                                                   "usage: chimera moves [OPTIONS] VARIANT (see chimera moves --help)\n")


def test_the_french_command_line(capsys):
    assert _said(capsys, ["classify", CHIMERA, "7 7", "--lang", "fr"], 0) == "pair\trang 7\t2 cartes\n"
    assert _said(capsys, ["moves", CHIMERA, "--hand", "1", "--lang", "fr"], 0) == "1\tsingle\trang 1\n1 coup\n"
    assert _said(capsys, ["moves", CHIMERA, "--lang", "fr"], 2) == (
        "chimera : erreur : Option manquante '--hand'.\n"
        "usage : chimera moves [OPTIONS] VARIANT (voir chimera moves --help)\n")
    said = _said(capsys, ["moves", CHIMERA, "--hand", "1", "--ove", "2", "--lang", "fr"], 2)
    assert "Option inconnue : '--ove'. Vouliez-vous dire '--over' ?" in said
    said = _said(capsys, ["analyse", CHIMERA, "--samples", "100", "--exact-budget", "0", "--lang", "fr"], 0)
    assert "la main que tient la Chimère avec le talon" in said and "probabilité" in said


def test_a_new_catalog_speaks_through_the_diagnostic_commands(new_language, monkeypatch, capsys):
    """A copy of the English catalog under another code, sentences of its cli section changed
    (click's own among them): the commands say them, by --lang and by CHIMERA_LANG."""
    def change(data: dict) -> None:
        data["cli"]["ok"] = "{path}: va bene"
        data["cli"]["moves"] = ["{n} mossa", "{n} mosse"]
        data["cli"]["error"] = "chimera: guaio: {message}"
        data["cli"]["click"]["Missing option"] = "Manca l'opzione"
        data["cli"]["figure"] = "cifra"

    new_language(change)
    assert _said(capsys, ["validate", CHIMERA, "--lang", "xx"], 0) == f"{CHIMERA}: va bene\n"
    assert _said(capsys, ["moves", CHIMERA, "--hand", "1 1", "--lang", "xx"], 0).endswith("2 mosse\n")
    assert _said(capsys, ["moves", CHIMERA, "--lang", "xx"], 2).startswith(
        "chimera: guaio: Manca l'opzione '--hand'.\n")
    assert "┃ cifra " in _said(capsys, ["simulate", CHIMERA, "--rounds", "1", "--workers", "1", "--lang", "xx"], 0)
    monkeypatch.setenv("CHIMERA_LANG", "xx")
    assert _said(capsys, ["validate", CHIMERA], 0) == f"{CHIMERA}: va bene\n"


def test_replay_warns_in_the_language_asked(capsys, tmp_path):
    variant = tmp_path / "chimera.yaml"
    variant.write_text((ROOT / CHIMERA).read_text(encoding="utf-8"), encoding="utf-8")
    log = tmp_path / "game.jsonl"
    assert run(["run", str(variant), "--seed", "2", "--quiet", "--log", str(log)]) == 0
    capsys.readouterr()
    variant.write_text(variant.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    said = _said(capsys, ["replay", str(log), "--quiet", "--lang", "fr"], 0)
    assert f"chimera : attention : {variant} a changé depuis l'écriture de {log}" in said
    said = _said(capsys, ["replay", str(log), "--quiet"], 0)
    assert f"chimera: warning: {variant} has changed since {log} was written" in said
