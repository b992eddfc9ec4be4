"""A variant's leads as one function, written for its combinations.

:meth:`Rules.leads` lists, from a packed hand, the plays of every combination in the
variant's order.  Asking each combination in turn costs a call, a few attribute reads and a
gate test per combination, a dozen times per hand: as much as the listing itself.  So the
rules write, on their first lead, one Python function that does the same work in one pass:

* the masks of the levels the combinations read (the ranks held at least ``k`` times) as
  *dense* masks, bit ``i`` for rank ``i``: the hand read a byte (two 4-bit fields) at a time,
  a table per byte giving its ranks' bits at every level (:func:`_level_lines`).  A dense mask
  of up to 30 ranks is one digit of a Python int, so every operation on it takes the fast
  path of a small int (the spread masks of 15 ranks take two digits, and each operation
  allocates), and its chunks of 8 ranks index tuples rather than key dicts;
* per combination, in the variant's order, under the gate :meth:`Rules.leads` would test (a
  core rank held as many times as a unit has cards; for a chain without wild cards, a run of
  its shortest length among them; consecutive combinations with the same gate share it):

  - a group of one rank, nothing attached: its plays by rank, in tuples indexed by the
    chunks of the gate's mask (:func:`_dense_tables`);
  - a group with one attached unit: per core rank, the same tuples of its row (its plays by
    the attached rank, made on the core's first use from the combination's own chunk tables
    of that row, whose tuples they share), read at the candidate ranks;
  - a chain without wild cards or attachments: its table of plays by the ranks held, filled
    on first use by the combination itself (keyed by the spread mask, made from the dense one
    by two lookups);
  - anything else: the combination's own ``plays(hand, ge)``, ``ge`` being the spread masks
    (made once, where the first such call needs them).

Every step lists the plays the combination's ``plays`` lists, from the same plays by rank
and rows (a group's tuples are the written function's own, a few hundred per group; a
row's are the combination's, one row per core rank at most), and keeps their order, so the
plays are the same objects in the same order (``tests/test_packing.py`` checks it).  The
function is written from the compiled combinations alone: nothing in it names a game.
Its code holds the masks as numbers and the tables as names bound to them; the source is
compiled once per distinct text (many variants share it).  No text of the variant file enters
the source: it is made of this module's fixed lines, whole numbers and the names it makes
(``t0``, ``g2``, ``b1``...), and :func:`_compiled` refuses any source with another character
or word before compiling it.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Callable

from .cards import gather
from .matcher import Play


def lead_function(rules: Any) -> Callable[[int], list[Play]]:
    """The function listing every lead of a packed hand for ``rules`` (see the module), in a
    fresh list.  ``rules`` is the :class:`~chimera_dsl.rules.Rules` being built, which calls
    this as it compiles (this module is below it: it reads the fields, it does not import it)."""
    deck = rules.deck
    n = len(deck.ranks)
    names: dict[str, object] = {}
    bound: dict[int, str] = {}

    def bind(value: object) -> str:
        """The name the code reads ``value`` by (one name per object)."""
        name = bound.get(id(value))
        if name is None:
            name = bound[id(value)] = f"t{len(names)}"
            names[name] = value
        return name

    def dense(mask: int) -> int:
        """A spread mask of the deck as a dense one (bit ``i``: rank ``i``)."""
        return sum(1 << i for i in deck.indices_of_mask(mask))

    chunks = range((n + DENSE_BITS - 1) // DENSE_BITS)

    def part(mask: str, c: int) -> str:
        """The expression of chunk ``c`` of the dense mask named ``mask``."""
        low = f" & {(1 << DENSE_BITS) - 1:#x}" if c < len(chunks) - 1 else ""
        return (f"{mask} >> {DENSE_BITS * c}" if c else mask) + low

    def extend(tables: tuple, mask: str, indent: str) -> list[str]:
        """The lines adding the items of the dense chunk ``tables`` at ``mask`` to ``out``."""
        return [f"{indent}out += {bind(t)}[{part(mask, c)}]" for c, t in enumerate(tables)]

    lines = ["def leads(hand):"] + _level_lines(rules, bind) + ["    ge = None", "    out = []"]
    index = _dense_tables(tuple(range(n)))
    to_spread = _spread_tables(deck.shift, n)
    # what a combination's own ``plays`` reads: the list Rules._ge makes (the spread masks),
    # made where the first such call needs it (in place) or on a chain's first sight of its ranks
    spread_ge = bind(rules._ge)
    spread = "            ge = [" + ", ".join(
        f"((g - {k * deck.low:#x}) & {rules._guard:#x}) >> {rules._top}" if k in rules._levels else "0"
        for k in range(rules._top_level + 1)) + "]"
    gate = None
    for combo in rules.combinations:
        level = 1 if combo.wild_mask else combo.core_size
        this = (level, combo.core_mask, combo.run_shifts)
        if this != gate:
            gate = this
            cores = False               # the core ranks of the gate's mask, once listed
            made = False                # ``ge`` made under this gate
            mask = dense(combo.core_mask)
            lines.append(f"    m = g{level}" + (f" & {mask:#x}" if mask != (1 << n) - 1 else ""))
            lines.append("    if " + " & ".join(["m"] + [f"(m >> {s // deck.shift})" for s in combo.run_shifts]) + ":")
        step = combo.lead_step
        if step == "group":
            items = tuple((gather(combo._play_tables, deck.bit(i)) or (None,))[0] for i in range(n))
            lines += extend(_dense_tables(items), "m", "        ")
        elif step == "unit":
            att = combo.attachments[0]
            if not cores:
                lines.append("        cores = " + " + ".join(f"{bind(t)}[{part('m', c)}]" for c, t in enumerate(index)))
                cores = True
            rows: list = [None] * n      # per core rank, its row's tuples by dense chunk
            unit_names = [f"u{c}" for c in chunks]
            lines += [f"        c = g{att.size} & {dense(att.mask):#x}"]
            lines += [f"        c{c} = {part('c', c)}" for c in chunks]
            lines += ["        for i in cores:",
                      f"            {', '.join(unit_names)}, = {bind(rows)}[i] or {bind(_row_maker(combo, rows, to_spread))}(i)"]
            lines += [f"            out += u{c}[c{c}]" for c in chunks]
        elif step == "chain":
            lines += ["        s = " + " | ".join(f"{bind(t)}[{part('m', c)}]" for c, t in enumerate(to_spread)),
                      f"        p = {bind(combo._core_cache)}.get(s)",
                      f"        out += {bind(combo.plays)}(hand, {spread_ge}(hand)) if p is None else p"]
        else:
            if not made:
                lines += ["        if ge is None:", f"            g = hand | {rules._guard:#x}", spread]
                made = True
            lines.append(f"        out += {bind(combo.plays)}(hand, ge)")
    lines.append("    return out")
    exec(_compiled("\n".join(lines) + "\n"), names)
    return names["leads"]  # type: ignore[return-value]


def _level_lines(rules: Any, bind: Callable[[object], str]) -> list[str]:
    """The lines making ``g1``, ``g2``...: the dense mask of the ranks the hand holds at least
    so many times, for each level the combinations read.

    The hand is read a chunk of whole fields at a time (a byte, two 4-bit fields, where the
    fields fill bytes: ``to_bytes``; else one field, shifted out), and per chunk a table gives
    its ranks' bits of every level at once, as many levels side by side as one machine digit
    of a Python int holds (30 bits); those are split into the levels."""
    deck = rules.deck
    n, shift = len(deck.ranks), deck.shift
    levels = [k for k in range(1, rules._top_level + 1) if k in rules._levels]
    per = DENSE_BITS // shift if DENSE_BITS % shift == 0 else 1
    count = (n + per - 1) // per
    lines = []
    if per > 1:
        # big-endian bytes: the last named is the lowest chunk
        lines.append("    " + ", ".join(f"b{j}" for j in reversed(range(count))) + f", = hand.to_bytes({count})")
    else:
        lines += [f"    b{j} = hand >> {shift * j} & {deck.field_mask:#x}" if j else f"    b0 = hand & {deck.field_mask:#x}"
                  for j in range(count)]
    side = max(1, DIGIT_BITS // n)            # levels side by side in one int
    full = (1 << n) - 1
    for q in range(0, len(levels), side):
        group = tuple(levels[q:q + side])
        tables = _level_tables(shift, n, per, group)
        lines.append(f"    e{q} = " + " | ".join(f"{bind(t)}[b{j}]" for j, t in enumerate(tables)))
        for p, k in enumerate(group):
            value = f"e{q} >> {n * p}" if p else f"e{q}"
            lines.append(f"    g{k} = {value}" + (f" & {full:#x}" if p < len(group) - 1 else ""))
    return lines


DENSE_BITS = 8      # ranks of a dense mask per table lookup (tables of 256 entries)
DIGIT_BITS = 30     # the bits of one digit of a Python int: smaller ints take the fast paths


@lru_cache(maxsize=32)
def _level_tables(shift: int, n: int, per: int, levels: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Per chunk ``j`` of ``per`` fields of a packed hand of ``n`` ranks (fields of ``shift``
    bits), per value of that chunk: its ranks' dense bits at each of ``levels`` (rank ``r`` held
    at least ``levels[p]`` times: bit ``n * p + r``).  Shared by the decks of one layout."""
    field = (1 << shift) - 1
    out = []
    for j in range((n + per - 1) // per):
        ranks = [r for r in range(j * per, (j + 1) * per) if r < n]
        out.append(tuple(sum(1 << (n * p + r) for p, k in enumerate(levels) for t, r in enumerate(ranks)
                             if value >> (shift * t) & field >= k)
                         for value in range(1 << (shift * per))))
    return tuple(out)


def _dense_tables(items: tuple) -> tuple[tuple[tuple, ...], ...]:
    """Per chunk of :data:`DENSE_BITS` ranks, per value of that chunk of a dense mask: the
    items (``items[i]``: rank ``i``'s, ``None`` to leave out) of its ranks, lowest first."""
    out = []
    for start in range(0, len(items), DENSE_BITS):
        part = items[start:start + DENSE_BITS]
        chosen: list[tuple] = [()]
        for value in range(1, 1 << len(part)):
            item = part[(value & -value).bit_length() - 1]
            rest = chosen[value & (value - 1)]
            chosen.append(rest if item is None else (item,) + rest)
        out.append(tuple(chosen))
    return tuple(out)


@lru_cache(maxsize=32)
def _spread_tables(shift: int, n: int) -> tuple[tuple[int, ...], ...]:
    """Per chunk of a dense mask, per value: the spread mask of its ranks (fields of ``shift``
    bits), to read a combination's own tables, keyed by spread masks."""
    return tuple(tuple(sum(1 << (shift * (start + b)) for b in range(DENSE_BITS) if value >> b & 1)
                       for value in range(1 << min(DENSE_BITS, n - start)))
                 for start in range(0, n, DENSE_BITS))


def _row_maker(combo, rows: list, to_spread: tuple) -> Callable[[int], tuple]:
    """The function that makes (on a core's first use) and keeps in ``rows`` the tuples of
    core rank ``i``'s row of ``combo`` by dense chunk: for each value of a chunk, the plays of
    the combination's own chunk tables of that row at the same ranks (made on their first use,
    by leads or answers alike).  The very tuples are shared where the chunks align: a row costs
    a few hundred references more, not a table of its own."""
    def make(i: int) -> tuple:
        own = combo._unit_tables[i] or combo._unit_tables_of(i)
        tables = rows[i] = tuple(tuple(gather(own, spread) for spread in chunk) for chunk in to_spread)
        return tables
    return make


# what the written source may hold: the words of its fixed lines, names made here, numbers,
# operators and brackets (a guard: the source is built from integers and these names only)
_WORDS = frozenset({"def", "leads", "hand", "return", "out", "if", "for", "in", "or", "is", "None", "else",
                    "to_bytes", "ge", "get", "g", "m", "c", "i", "s", "p", "cores"})
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|0x[0-9a-f]+|[0-9]+|[ \n()\[\]:,.=+&|>\-]")


@lru_cache(maxsize=64)
def _compiled(source: str):
    words = _TOKEN.findall(source)
    if "".join(words) != source or any(w[0].isalpha() or w[0] == "_"
                                       for w in words if w not in _WORDS and not re.fullmatch(r"[bcegtu][0-9]+", w)):
        raise AssertionError("the written leads hold something other than numbers and their own names")
    return compile(source, "<chimera_dsl leads>", "exec")
