"""The package's imports run one way, up the layers of docs/internals.md ("Layout"), and no
module imports itself back through others.

Every import statement counts, wherever it stands: at the top of a module, inside a function,
under ``if TYPE_CHECKING:``.  The source is parsed (``ast``), nothing is imported.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "chimera_dsl"

# The layers, lowest first: a module may import the modules of its own layer and of the layers
# before it, never one after it.  A module belongs to the entry naming the longest prefix of its
# dotted path inside the package ("" is the package itself: chimera_dsl/__init__.py).
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("errors, and the schema's data", ("errors", "schema")),
    ("cards", ("cards",)),
    ("language", ("language",)),
    ("combinations", ("matcher", "cardplays", "leadlist", "rules")),
    ("engine: actions, seats, scoring, observation", ("engine.slotcopy", "engine.actions", "engine.seats",
                                                      "engine.scoring", "engine.observation", "engine.zones",
                                                      "engine.round_bid")),
    ("engine: phases", ("engine.phases",)),
    ("engine: the compiled round", ("engine.round", "engine.proofs")),
    ("engine: the state", ("engine.state_view", "engine.state")),
    ("engine: the game", ("engine.game",)),
    ("engine: its names", ("engine",)),
    ("loading", ("variant", "")),
    ("tell", ("tell",)),
    ("players", ("players",)),
    ("study", ("study",)),
    ("serve", ("serve",)),
    ("learn", ("learn",)),
    ("cli", ("cli", "__main__")),
    ("paths kept for users", ("expressions", "rl")),
]


def modules(root: Path) -> dict[str, tuple[Path, bool]]:
    """Every module of the package at ``root``: dotted name -> (file, is a package's __init__)."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        found[".".join(parts)] = (path, is_package)
    return found


def unknown(root: Path) -> list[str]:
    """Every import of a module the package does not have (``from .moved import x`` after a
    move), as text: the type checker, told to skip missing modules, would not say it."""
    known = modules(root)
    out = []
    for name, (path, is_package) in known.items():
        here = name.split(".") if is_package else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    wanted = [".".join(here[:len(here) - node.level + 1] + ([node.module] if node.module else []))]
                else:
                    wanted = [node.module or ""]
            elif isinstance(node, ast.Import):
                wanted = [alias.name for alias in node.names]
            else:
                continue
            out += [f"{name}:{node.lineno} imports {w}" for w in wanted
                    if (w == root.name or w.startswith(root.name + ".")) and w not in known]
    return out


def imports(root: Path) -> dict[str, set[str]]:
    """Per module, the modules of the package it imports (the longest known module of each name)."""
    known = modules(root)
    package = root.name
    graph: dict[str, set[str]] = {name: set() for name in known}

    def module_of(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    for name, (path, is_package) in known.items():
        here = name.split(".") if is_package else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = ".".join(here[:len(here) - node.level + 1] + ([node.module] if node.module else []))
                else:
                    base = node.module or ""
                # "from B import n": the module B.n when there is one, else B
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                           for alias in node.names]
            for target in targets:
                if target == package or target.startswith(package + "."):
                    found = module_of(target)
                    if found is not None and found != name:
                        graph[name].add(found)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import one another (strongly connected, more than one)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:          # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return groups


def layer_of(module: str, package: str, layers=LAYERS) -> int | None:
    """The index of ``module``'s layer, or None when no entry names it."""
    inside = module[len(package) + 1:] if module != package else ""
    best, best_length = None, -1
    for i, (_, prefixes) in enumerate(layers):
        for prefix in prefixes:
            if (inside == prefix or (prefix and inside.startswith(prefix + "."))) and len(prefix) > best_length:
                best, best_length = i, len(prefix)
    return best


def upward(graph: dict[str, set[str]], package: str, layers=LAYERS) -> list[str]:
    """Every import of a module by one of a lower layer, as text."""
    out = []
    for module, targets in sorted(graph.items()):
        here = layer_of(module, package, layers)
        for target in sorted(targets):
            there = layer_of(target, package, layers)
            if here is not None and there is not None and there > here:
                out.append(f"{module} ({layers[here][0]}) imports {target} ({layers[there][0]})")
    return out


# -- the package ----------------------------------------------------------------------------

def test_every_import_names_a_module_of_the_package():
    assert unknown(PACKAGE) == []


def test_no_module_imports_itself_back():
    assert cycles(imports(PACKAGE)) == []


def test_every_module_has_a_layer():
    missing = [m for m in modules(PACKAGE) if layer_of(m, PACKAGE.name) is None]
    assert missing == [], "add these modules to LAYERS (and to docs/internals.md, 'Layout')"


def test_imports_run_one_way_up_the_layers():
    assert upward(imports(PACKAGE), PACKAGE.name) == []


def test_the_paths_kept_for_users_give_the_same_objects():
    """``chimera_dsl.expressions`` and ``chimera_dsl.rl`` are paths the documents give users;
    they re-export the modules that moved, and nothing in the package imports them."""
    import chimera_dsl.expressions as kept
    from chimera_dsl.language import expressions
    assert kept.compile_expression is expressions.compile_expression and kept.Scope is expressions.Scope
    for module, targets in imports(PACKAGE).items():
        assert not targets & {"chimera_dsl.expressions", "chimera_dsl.rl"}, module
    pytest.importorskip("pettingzoo")
    import chimera_dsl.rl as kept_rl
    from chimera_dsl.learn import rl
    assert kept_rl.env is rl.env and kept_rl.ChimeraEnv is rl.ChimeraEnv


# -- the checks themselves, on a small package made for them ----------------------------------

def _package(tmp_path: Path, files: dict[str, str], folder: str = "one") -> Path:
    root = tmp_path / folder / "pkg"
    for name, text in {"__init__.py": "", **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


SMALL = [("low", ("low",)), ("mid", ("mid",)), ("top", ("top",))]


def test_a_cycle_through_a_function_or_type_checking_import_is_found(tmp_path):
    root = _package(tmp_path, {
        "low.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .mid.m import M\n",
        "mid/__init__.py": "",
        "mid/m.py": "def f():\n    from ..top import g\n",
        "top.py": "from .low import x\nimport pkg.mid\n",
    })
    graph = imports(root)
    assert graph["pkg.low"] == {"pkg.mid.m"} and graph["pkg.mid.m"] == {"pkg.top"}
    assert graph["pkg.top"] == {"pkg.low", "pkg.mid"}
    assert cycles(graph) == [["pkg.low", "pkg.mid.m", "pkg.top"]]
    root = _package(tmp_path, {"low.py": "x = 1\n", "top.py": "from .low import x\n"}, "two")
    assert cycles(imports(root)) == []


def test_an_import_of_a_module_that_moved_away_is_named(tmp_path):
    root = _package(tmp_path, {"low.py": "x = 1\n", "top.py": "def f():\n    from .gone import x\n"})
    assert unknown(root) == ["pkg.top:2 imports pkg.gone"]


def test_an_import_down_from_a_higher_layer_is_allowed_and_up_is_named(tmp_path):
    root = _package(tmp_path, {
        "low.py": "def f():\n    from .top import g\n",
        "mid/__init__.py": "from ..low import f\n",
        "top.py": "from .mid import x\n",
    })
    assert upward(imports(root), "pkg", SMALL) == ["pkg.low (low) imports pkg.top (top)"]
