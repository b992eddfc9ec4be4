"""The Python API exactly as CONTRACT.md writes it: the smallest stable surface."""
from __future__ import annotations

import pytest

import chimera_dsl


def test_classify_gives_readings_with_combination_and_rank(rules):
    [reading] = rules.classify("7 7 7 5")
    assert (reading.combination, reading.rank) == ("trio_single", 7)
    assert reading.cards == ["5", "7", "7", "7"]


def test_beats_asks_whether_the_second_may_be_played_on_the_first(rules):
    assert rules.beats("5 5 5 12", "7 7 7 5") is True
    assert rules.beats("7 7 7 5", "5 5 5 12") is False


def test_card_lists_may_be_strings_or_lists_of_card_strings(rules):
    assert rules.classify(["7", "7", "7", "5"]) == rules.classify("7,7,7,5")
    assert rules.beats(["5", "5", "5", "12"], ["7", "7", "7", "5"]) is True


def test_legal_plays_leads_and_answers(rules):
    hand = "3 3 4 5 6 7 H P"
    leads = rules.legal_plays(hand)
    assert {(tuple(p.cards), p.combination) for p in leads} >= {
        (("3", "4", "5", "6", "7"), "straight"), (("3", "3"), "pair"), (("P",), "single")}
    answers = rules.legal_plays(hand, over="4 4")
    assert {(tuple(p.cards), p.combination) for p in answers} == set()
    assert [p.cards for p in rules.legal_plays("3 3 9 9 H H", over="4 4")] == [["9", "9"], ["H", "H"]]


def test_a_variant_that_does_not_load_raises_variant_error(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: nowhere.yaml\n", encoding="utf-8")
    with pytest.raises(chimera_dsl.VariantError) as caught:
        chimera_dsl.load_variant(bad)
    assert caught.value.problems and "bad.yaml:1:" in str(caught.value)


# The examples a user copies: each block's lines whose comment starts with a value (``# True``,
# ``# [Play(...)]``) give that value, run from the top of the repository.  The Python API's
# first session moved from the README to docs/api.md (the README keeps a short one).
EXAMPLES = [
    ("docs/api.md", "## A first session", 3),
    ("docs/api.md", "A whole game with computer players", 1),
    ("README.md", "From Python:", 1),
]


@pytest.mark.parametrize("document, after, least", EXAMPLES, ids=lambda v: str(v))
def test_the_python_examples_of_the_documents_run_as_written_and_print_what_their_comments_say(
        monkeypatch, document, after, least):
    """The first ``python`` block after ``after`` in ``document`` runs, and at least ``least``
    of its lines give the value their comment shows."""
    import re
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    text = (root / document).read_text(encoding="utf-8")
    found = re.search(re.escape(after) + r".*?```python\n(.*?)```", text, re.S)
    assert found, f"{document}: no python block after {after!r}"
    block = found.group(1)
    monkeypatch.chdir(root)
    scope: dict = {}
    checked = 0
    for line in block.splitlines():
        code, _, comment = line.partition("#")
        if not code.strip():
            continue
        shown = re.match(r"\s*(True|False|\[.*?\])(?=[:\s]|$)", comment)
        if shown is None:
            exec(code, scope)
            continue
        value = eval(code, scope)
        assert repr(value) == shown.group(1), line
        checked += 1
    assert checked >= least
