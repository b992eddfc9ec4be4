"""The climbing rulebooks read as a player reads them: each sentence true for its file, and
nothing a file says left out (Dou Dizhu's three files, the house rules, the official files)."""
from __future__ import annotations

from pathlib import Path

from chimera_dsl.rulebook import write_rulebook
from chimera_dsl.variant import load_variant as load

ROOT = Path(__file__).resolve().parents[1]
OTHERS = ROOT / "variants" / "others"


def _row(text: str, name: str) -> str:
    """The combination table's row of ``name``."""
    return next(line for line in text.splitlines() if line.startswith(f"| {name} |"))


def test_pattern_caps_and_not_extending_are_told():
    """rlcard's airplane caps the singles' ranks and refuses a trio next to the chain; OpenSpiel's
    allows that trio, DouZero's allows both: three tables that must not read the same."""
    rl = _row(write_rulebook(load(OTHERS / "doudizhu.yaml")), "Airplane with singles")
    assert "at most 3 attached cards of any one rank" in rl
    assert "the attached cards never hold a trio of a rank just below or above the chain" in rl
    op = _row(write_rulebook(load(OTHERS / "doudizhu-openspiel.yaml")), "Airplane with singles")
    assert "at most 3 attached cards of any one rank" in op and "just below" not in op
    dz = _row(write_rulebook(load(OTHERS / "doudizhu-douzero.yaml")), "Airplane with singles")
    assert "at most" not in dz and "just below" not in dz
    de = _row(write_rulebook(load(OTHERS / "doudizhu.yaml"), "de"), "Flugzeug mit Einzelkarten")
    assert "höchstens 3 angehängte Karten eines Werts" in de
    fr = _row(write_rulebook(load(OTHERS / "doudizhu.yaml"), "fr"), "Avion avec cartes seules")
    assert "ne contiennent jamais un brelan d'une valeur juste au-dessous ou au-dessus de la suite" in fr


def test_several_attached_groups_are_counted_in_words():
    """'2 × one card' and '2 × 2 cards of one rank' read as words."""
    text = write_rulebook(load(OTHERS / "doudizhu.yaml"))
    assert "with 2 single cards from any rank" in _row(text, "Four with two singles")
    assert "with 2 groups of 2 cards of one rank from plain" in _row(text, "Four with two pairs")
    assert " × one card" not in text
    de = write_rulebook(load(OTHERS / "doudizhu.yaml"), "de")
    assert "+ 2 Gruppen von je 2 gleichen Karten aus Normalkarten" in _row(de, "Vierling mit zwei Paaren")
