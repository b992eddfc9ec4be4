"""The documentation site (mkdocs.yml, docs/) builds with warnings as errors, and its generated
pages say what the code has: the CLI reference lists every command of the click group with its
options, and the Python API documents the public names.  Without the docs extra the tests skip,
and under CI=true they fail: the README's test command installs it."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from html import unescape
from pathlib import Path

import click
import pytest

from serve_support import require

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site built by ``mkdocs build --strict`` into a temporary folder."""
    for module in ("mkdocs", "material", "mkdocs_click", "mkdocstrings", "mkdocstrings_handlers.python"):
        require(module, "pip install -e '.[docs]'")
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
           "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}"
    return out


def text_of(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", html))


def sections(html: str) -> dict[str, str]:
    """The page cut at its headings: each heading's id -> the page from it to the next heading."""
    marks = list(re.finditer(r'<h[1-6] id="([^"]+)"', html))
    return {m.group(1): html[m.start():(marks[i + 1].start() if i + 1 < len(marks) else len(html))]
            for i, m in enumerate(marks)}


def test_every_page_of_docs_is_built(site):
    """--strict already refuses a page left out of the navigation; each is a page of the site."""
    pages = sorted(p.stem for p in (ROOT / "docs").glob("*.md"))
    assert pages and [p for p in pages if not (site / f"{p}.html").is_file()] == []


def test_the_cli_page_lists_every_command_of_the_click_group_with_its_options(site):
    from chimera_dsl.cli import main
    html = (site / "cli.html").read_text(encoding="utf-8")
    parts = sections(html)
    listed = {key.removeprefix("chimera-") for key in parts if key.startswith("chimera-")}
    assert listed == set(main.commands)
    missing = []
    for name, command in main.commands.items():
        shown = text_of(parts[f"chimera-{name}"])
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden:
                missing += [f"{name} {opt}" for opt in param.opts if opt not in shown]
    assert missing == []


def test_the_api_page_documents_load_variant_and_the_public_names(site):
    import chimera_dsl
    html = (site / "api.html").read_text(encoding="utf-8")
    parts = sections(html)
    for name in ("chimera_dsl.load_variant", "chimera_dsl.Rules.legal_plays", "chimera_dsl.engine.Game",
                 "chimera_dsl.engine.State", "chimera_dsl.engine.State.observation",
                 "chimera_dsl.engine.Observation", "chimera_dsl.players.play_game",
                 "chimera_dsl.tell.record.replay", "chimera_dsl.errors.VariantError"):
        assert name in parts, name
    # its docstring, a reStructuredText role shown as the name it stands for (mkdocs_hooks.py)
    first_line = re.sub(r":\w+:`~?([\w.]+)`", r"\1", chimera_dsl.load_variant.__doc__.strip().splitlines()[0])
    assert " ".join(first_line.split()) in " ".join(text_of(parts["chimera_dsl.load_variant"]).split())
    assert re.findall(r":(?:class|func|meth|mod|attr|data):", text_of(html)) == []


def set_up_commands() -> list[str]:
    """The README's first lines: the fenced bash block of the two set-up commands."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.match(r"```bash\n(.*?)\n```\n", readme, re.S)
    assert block, "README.md must open with the set-up commands in a bash block"
    return block.group(1).splitlines()


def test_the_readme_opens_with_the_two_set_up_commands_and_ci_runs_its_test_command():
    install, tests = set_up_commands()
    assert install == "pip install -e . && chimera run variants/chimera.yaml"
    assert tests.startswith("pip install -e '.[") and tests.endswith("python -m pytest -q")
    extras = re.search(r"-e '\.\[([\w,]+)\]'", tests).group(1)
    assert "docs" in extras.split(","), "the test command installs the docs extra, which test_docs_site needs"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert f"pip install -q -e '.[{extras}]'" in ci
    assert "pip install -q --no-deps douzero" in ci
