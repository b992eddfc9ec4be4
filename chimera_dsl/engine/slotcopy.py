"""A fast copy of an object's slots (:meth:`chimera_dsl.engine.State.clone`, the tricks table's copy).

``setattr`` in a loop costs about five times what plain assignments do, and a search clones
a state for each playout: like :mod:`dataclasses`, the assignments are written once from the
class's own slot names (identifiers of the code, never text of a file) and compiled.
"""
from __future__ import annotations

from typing import Callable


def slot_copier(names: tuple[str, ...]) -> Callable[[object, object], None]:
    """A function ``copy(source, target)`` that sets each slot of ``names`` of ``target`` to
    the source's value (a slot unset in the source raises AttributeError)."""
    for name in names:
        if not name.isidentifier():
            raise ValueError(f"not a slot name: {name!r}")
    body = "".join(f"    target.{name} = source.{name}\n" for name in names) or "    pass\n"
    namespace: dict = {}
    exec(f"def copy(source, target):\n{body}", namespace)
    return namespace["copy"]
