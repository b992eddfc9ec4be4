"""Fixtures shared by the test modules.

* ``official`` (and ``rules``, the name most modules give it): the official rules,
  ``variants/chimera.yaml``, loaded once for the whole run and shared with the helpers of
  ``scripted.py``.  Never change them in a test: build changed rules with
  ``scripted.variant({...})`` instead.
* ``write_variant``: writes a variant file into the test's temporary folder.
* ``house``: writes a house-rules file, the official file extended by some YAML lines.
* ``new_language``: installs, for one test, a catalog folder holding the shipped catalogs and
  one more language, ``xx``: a copy of the English catalog with the sentences the test changes.
"""
from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Callable, Iterator

import pytest

import scripted
from chimera_dsl.rules import Rules

OFFICIAL = scripted.OFFICIAL


@pytest.fixture(scope="session")
def official() -> Rules:
    """The official rules (variants/chimera.yaml), loaded once."""
    return scripted.official()


@pytest.fixture(scope="session")
def rules(official: Rules) -> Rules:
    """The official rules, under the name most test modules use."""
    return official


@pytest.fixture
def write_variant(tmp_path: Path) -> Callable[..., Path]:
    """``write_variant(text, name="variant.yaml")``: the file ``name`` in the test's temporary
    folder, holding ``text``."""
    def write(text: str, name: str = "variant.yaml") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path
    return write


@pytest.fixture
def house(write_variant) -> Callable[..., Path]:
    """``house(text, name="house.yaml")``: a file extending the official one with ``text``
    (YAML lines)."""
    def write(text: str, name: str = "house.yaml") -> Path:
        return write_variant(f"extends: {OFFICIAL}\n{text}\n", name)
    return write


@pytest.fixture
def new_language(tmp_path: Path, monkeypatch) -> Iterator[Callable[[Callable[[dict], None]], None]]:
    """``new_language(change)``: the catalogs of ``chimera_dsl/tell/locales`` and a language
    ``xx``, the English catalog changed in place by ``change(data)``, read instead of the
    package's own until the test ends (no Python changed: what a translator does)."""
    from chimera_dsl.tell import catalog as catalogs
    locales = resources.files("chimera_dsl.tell.locales")
    folder = tmp_path / "locales"

    def install(change: Callable[[dict], None]) -> None:
        folder.mkdir()
        for lang in catalogs.languages():
            (folder / (lang + ".json")).write_text(locales.joinpath(lang + ".json").read_text(encoding="utf-8"),
                                                  encoding="utf-8")
        data = json.loads(locales.joinpath("en.json").read_text(encoding="utf-8"))
        change(data)
        (folder / "xx.json").write_text(json.dumps(data), encoding="utf-8")
        files = catalogs.resources.files
        monkeypatch.setattr(catalogs.resources, "files",
                            lambda package: folder if package == "chimera_dsl.tell.locales" else files(package))
        catalogs.languages.cache_clear()
        catalogs.catalog.cache_clear()

    try:
        yield install
    finally:
        monkeypatch.undo()
        catalogs.languages.cache_clear()
        catalogs.catalog.cache_clear()
