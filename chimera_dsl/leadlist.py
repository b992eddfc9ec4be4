"""A variant's leads as one function, written for its combinations.

:meth:`Rules.leads` lists, from a packed hand, the plays of every combination in the
variant's order.  Asking each combination in turn costs a call, a few attribute reads and a
gate test per combination, a dozen times per hand: as much as the listing itself.  So the
rules write, on their first lead, one Python function that does the same work in one pass:

* the spread masks ``ge[k]`` of the levels the combinations read (the ranks held at least
  ``k`` times), each one expression;
* per combination, in the variant's order, under the gate :meth:`Rules.leads` would test (a
  core rank held as many times as a unit has cards; for a chain without wild cards, a run of
  its shortest length among them; consecutive combinations with the same gate share it):

  - a group of one rank, nothing attached: its chunk tables read at the gate's mask
    (:func:`chimera_dsl.cards.gather`, written out);
  - a group with one attached unit: per core rank, the chunk tables of its row read at the
    candidate ranks (built on the core's first use);
  - a chain without wild cards or attachments: its table of plays by the ranks held, filled
    on first use by the combination itself;
  - anything else: the combination's own ``plays(hand, ge)``.

Every step reads the same tables as the combination's ``plays`` and keeps its order, so the
plays are the same objects in the same order (``tests/test_packing.py`` checks it).  The
function is written from the compiled combinations alone: nothing in it names a game.
Its code holds the masks as numbers and the tables as names bound to them; the source is
compiled once per distinct text (many variants share it).  No text of the variant file enters
the source: it is made of this module's fixed lines, whole numbers and the names it makes
(``t0``, ``g2``...), and :func:`_compiled` refuses any source with another character or word
before compiling it.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Callable

from .cards import CHUNK_BITS, CHUNK_MASK, gather

if TYPE_CHECKING:
    from .matcher import Play
    from .rules import Rules


def lead_function(rules: "Rules") -> Callable[[int], "list[Play]"]:
    """The function listing every lead of a packed hand for ``rules`` (see the module), in a
    fresh list."""
    deck = rules.deck
    names: dict[str, object] = {"gather": gather}
    two = len(deck.index_tables) == 2            # spread masks of up to 64 bits: two chunk lookups

    bound: dict[int, str] = {}

    def bind(value: object) -> str:
        """The name the code reads ``value`` by (one name per object)."""
        name = bound.get(id(value))
        if name is None:
            name = bound[id(value)] = f"t{len(names)}"
            names[name] = value
        return name

    def read(tables: str, mask: str) -> str:
        """The expression of the items of the chunk tables named ``tables`` at ``mask``."""
        if two:
            return f"{tables}[0][{mask} & {CHUNK_MASK:#x}] + {tables}[1][{mask} >> {CHUNK_BITS}]"
        return f"gather({tables}, {mask})"

    def extend(tables: str, mask: str, indent: str) -> list[str]:
        """The lines adding those items to ``out`` (one chunk at a time: no joined tuple)."""
        if two:
            return [f"{indent}out += {tables}[0][{mask} & {CHUNK_MASK:#x}]",
                    f"{indent}out += {tables}[1][{mask} >> {CHUNK_BITS}]"]
        return [f"{indent}out += gather({tables}, {mask})"]

    levels = [k for k in range(1, rules._top_level + 1) if k in rules._levels]
    lines = ["def leads(hand):",
             f"    g = hand | {rules._guard:#x}"]
    for k in levels:
        lines.append(f"    g{k} = ((g - {k * deck.low:#x}) & {rules._guard:#x}) >> {rules._top}")
    combos = rules.combinations
    if any(c.lead_step in ("call", "chain") for c in combos):
        # what a combination's own ``plays`` reads: the list Rules._ge makes
        lines.append("    ge = [" + ", ".join(f"g{k}" if k in levels else "0"
                                            for k in range(rules._top_level + 1)) + "]")
    lines.append("    out = []")
    gate = None
    for combo in combos:
        level = 1 if combo.wild_mask else combo.core_size
        this = (level, combo.core_mask, combo.run_shifts)
        if this != gate:
            gate = this
            cores = False               # the core ranks of the gate's mask, once listed
            lines.append(f"    m = g{level} & {combo.core_mask:#x}")
            lines.append("    if " + " & ".join(["m"] + [f"(m >> {s})" for s in combo.run_shifts]) + ":")
        step = combo.lead_step
        if step == "group":
            lines += extend(bind(combo._play_tables), "m", "        ")
        elif step == "unit":
            att = combo.attachments[0]
            rows = bind(combo._unit_tables)
            build = bind(combo._unit_tables_of)
            if not cores:
                lines.append(f"        cores = {read(bind(deck.index_tables), 'm')}")
                cores = True
            lines += [f"        c = g{att.size} & {att.mask:#x}",
                      "        for i in cores:",
                      f"            t = {rows}[i] or {build}(i)"] + extend("t", "c", "            ")
        elif step == "chain":
            lines += [f"        p = {bind(combo._core_cache)}.get(m)",
                      f"        out += {bind(combo.plays)}(hand, ge) if p is None else p"]
        else:
            lines.append(f"        out += {bind(combo.plays)}(hand, ge)")
    lines.append("    return out")
    exec(_compiled("\n".join(lines) + "\n"), names)
    return names["leads"]  # type: ignore[return-value]


# what the written source may hold: the words of its fixed lines, names made here, numbers,
# operators and brackets (a guard: the source is built from integers and these names only)
_WORDS = frozenset({"def", "leads", "hand", "return", "out", "if", "for", "in", "or", "is", "None", "else",
                    "gather", "ge", "get", "g", "m", "c", "i", "t", "p", "cores"})
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|0x[0-9a-f]+|[0-9]+|[ \n()\[\]:,.=+&|>\-]")


@lru_cache(maxsize=64)
def _compiled(source: str):
    words = _TOKEN.findall(source)
    if "".join(words) != source or any(w[0].isalpha() or w[0] == "_"
                                       for w in words if w not in _WORDS and not re.fullmatch(r"[gt][0-9]+", w)):
        raise AssertionError("the written leads hold something other than numbers and their own names")
    return compile(source, "<chimera_dsl leads>", "exec")
