"""The documents a user reads name only files a user has: every `*.md` file and every
`docs/`, `variants/`, `bench/` or `tests/` path that README.md and docs/*.md mention exists
in the repository."""
from __future__ import annotations

import re
import subprocess
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


CLIMBING = re.compile(r"(?<![\w.])((?:\.\./)+[\w.-][\w./-]*)")


def tracked_files() -> list[Path]:
    """The repository's files as git lists them (every file on disk when git is not there)."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return [p for p in ROOT.rglob("*") if p.is_file() and ".git" not in p.parts]
    return [ROOT / name for name in out.decode("utf-8").split("\0") if name]


def test_no_file_points_outside_the_repository():
    """A relative path in a variant, the code, the tests or the benchmarks resolves inside the
    repository from the file's own folder, and in a shipped variant (`extends: ../chimera.yaml`,
    a `$schema=` line, a comment naming a source) it names a file the repository has: a path
    that climbs out of the repository, or counts from a folder beside the clone, names a file a
    clone does not have.  The documents are left out: their `../` paths are examples written
    from a variant file's folder; so are the broken files of `tests/variants/`."""
    outside = []
    for path in tracked_files():
        if path.suffix == ".md" or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        shipped_variant = path.suffix == ".yaml" and path.relative_to(ROOT).parts[0] == "variants"
        for m in CLIMBING.finditer(text):
            target = (path.parent / m.group(1)).resolve()
            if not target.is_relative_to(ROOT) or (shipped_variant and not target.exists()):
                outside.append(f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(1)}")
    assert outside == []


def heading_anchors(document: Path) -> set[str]:
    """The anchors of ``document``'s headings, as GitHub makes them (lower case, punctuation
    but hyphens dropped, spaces as hyphens), outside code blocks."""
    text = re.sub(r"```.*?```", "", document.read_text(encoding="utf-8"), flags=re.S)
    return {re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
            for m in re.finditer(r"^#+\s+(.*)$", text, re.M)}


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_every_link_reaches_its_file_and_heading(document):
    """A Markdown link (`[Python API](#python-api)`, `[...](docs/variant-format.md#trick-taking)`)
    names a file of the repository and, after `#`, one of its headings."""
    broken = []
    for m in re.finditer(r"\]\(([^)\s]+)\)", document.read_text(encoding="utf-8")):
        target = m.group(1)
        if re.match(r"[a-z]+:", target):                 # https:, mailto:
            continue
        name, _, anchor = target.partition("#")
        path = (document.parent / name) if name else document
        if not path.exists():
            broken.append(target)
        elif anchor and path.suffix == ".md" and anchor not in heading_anchors(path):
            broken.append(target)
    assert broken == []


BARE = re.compile(r"(?<![\w./-])([a-z0-9][\w-]*\.(?:yaml|py|lark))\b")


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_every_file_named_without_its_folder_is_in_the_repository(document):
    """A variant or module named by its file name alone (`no-redeal.yaml` in the table of house
    rules, `mu-3.yaml`, `hand_eval.py`) is a file somewhere in the repository."""
    names = {p.name for p in tracked_files()}
    missing = sorted({m.group(1) for m in BARE.finditer(document.read_text(encoding="utf-8"))} - names)
    assert missing == []
