"""The documents a user reads name only files a user has: every `*.md` file and every
`docs/`, `variants/`, `bench/` or `tests/` path that README.md and docs/*.md mention exists
in the repository."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NAMED = re.compile(r"(?<![\w./-])((?:docs|variants|bench|tests|chimera_dsl|grammar)/[\w./-]*\w|[\w-]+\.md)\b")


EXAMPLES = {"variants/mine.yaml"}      # a user's own file, in an example of an error message


def named_paths(document: Path) -> set[str]:
    """The paths ``document`` names, but globs (``mu*.yaml``) and examples of a user's files."""
    text = document.read_text(encoding="utf-8")
    return {m.group(1) for m in NAMED.finditer(text)
            if text[m.end():m.end() + 1] != "*" and m.group(1) not in EXAMPLES}


def exists(name: str, document: Path) -> bool:
    if "/" not in name:                          # a bare NAME.md: beside the document, or at the top
        return (document.parent / name).exists() or (ROOT / name).exists() or (ROOT / "docs" / name).exists()
    return (ROOT / name).exists() or (document.parent / name).exists()


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_every_file_a_document_names_is_in_the_repository(document):
    missing = sorted(n for n in named_paths(document) if not exists(n, document))
    assert missing == []
