"""The rulebook's words by language, read from data files at run time.

Each language is one JSON file, ``chimera_dsl/tell/locales/LANG.json`` (LANG a two-letter code),
shipped with the package.  A key the language's file leaves out is read from English, so a
catalog may grow a section at a time; ``docs/translating.md`` says how to add a language.
The standard library reads them: no catalog tool is needed at run time.
"""
from __future__ import annotations

import functools
import json
from importlib import resources
from collections.abc import Mapping
from typing import Any, Iterator


@functools.lru_cache(maxsize=None)
def languages() -> tuple[str, ...]:
    """The languages that have a catalog, English first."""
    found = sorted(p.name[:-5] for p in resources.files("chimera_dsl.tell.locales").iterdir()
                   if p.name.endswith(".json"))
    return tuple(["en"] + [lang for lang in found if lang != "en"])


@functools.lru_cache(maxsize=None)
def catalog(lang: str) -> dict[str, Any]:
    """The words of ``lang``, each section completed from English where the file leaves a key out."""
    english = _read("en")
    if lang == "en":
        return english
    own = _read(lang) if lang in languages() else {}
    return _merged(english, own)


def _read(lang: str) -> dict[str, Any]:
    text = resources.files("chimera_dsl.tell.locales").joinpath(lang + ".json").read_text(encoding="utf-8")
    return json.loads(text)


def _merged(base: dict, own: dict) -> dict:
    out = dict(base)
    for key, value in own.items():
        out[key] = _merged(base[key], value) if isinstance(value, dict) and isinstance(base.get(key), dict) else value
    return out


class Section(Mapping):
    """One section of every catalog, by language: ``Section("rulebook")["fr"]`` is the French
    catalog's ``rulebook`` section.  ``numbered``: keys written as numbers ("2") are read back
    as numbers (JSON keys are text)."""

    def __init__(self, name: str, numbered: bool = False):
        self.name = name
        self.numbered = numbered

    def __getitem__(self, lang: str) -> Any:
        if lang not in languages():
            raise KeyError(lang)
        value = catalog(lang).get(self.name, {})
        return _numbered(value) if self.numbered else value

    def __iter__(self) -> Iterator[str]:
        return iter(languages())

    def __len__(self) -> int:
        return len(languages())


def _numbered(value: Any) -> Any:
    if isinstance(value, dict):
        return {(int(k) if isinstance(k, str) and k.isdigit() else k): _numbered(v) for k, v in value.items()}
    return value
