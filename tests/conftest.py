"""Fixtures shared by the test modules.

* ``official`` (and ``rules``, the name most modules give it): the official rules,
  ``variants/chimera.yaml``, loaded once for the whole run and shared with the helpers of
  ``scripted.py``.  Never change them in a test: build changed rules with
  ``scripted.variant({...})`` instead.
* ``write_variant``: writes a variant file into the test's temporary folder.
* ``house``: writes a house-rules file, the official file extended by some YAML lines.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

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
