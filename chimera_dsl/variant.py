"""Loading variant files (minimal first cut: safe YAML, extends, compile)."""
from __future__ import annotations

import hashlib
from pathlib import Path

import yaml

from .errors import Problem, VariantError
from .rules import Rules


def _merge(base, over):
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for k, v in over.items():
            if v is None:
                out.pop(k, None)
            else:
                out[k] = _merge(base.get(k), v)
        return out
    return over


def _read(path: Path, seen=()):
    text = path.read_bytes()
    doc = yaml.safe_load(text) or {}
    h = hashlib.sha256(text)
    if "extends" in doc:
        parent = (path.parent / doc.pop("extends")).resolve()
        base, ph = _read(parent, seen + (path,))
        h.update(ph.encode())
        doc = _merge(base, doc)
    return doc, h.hexdigest()


def load_variant(path) -> Rules:
    path = Path(path)
    doc, digest = _read(path.resolve())
    return Rules.from_spec(doc, path=str(path), source_hash=digest)


def check_variant(path) -> list[Problem]:
    try:
        load_variant(path)
    except VariantError as e:
        return e.problems
    return []
