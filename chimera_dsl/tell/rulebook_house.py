"""What a house-rule file changes, in the rulebook's own sentences.

The house-rules section lists the keys a file changes in its base (``bidding.all_pass.forced_bidder:
face_up_holder → dealer``): exact, but in the file's words.  Before that list it says the same in
the rulebook's words: each section whose sentences differ from the base's rulebook, with the
sentences this file's rulebook says and those of the base they replace.
"""
from __future__ import annotations

from collections.abc import Mapping

from .catalog import Section

WORDS: Mapping[str, dict[str, str]] = Section("house")


def _sections(lines: list[str], head: str = "") -> dict[str, list[tuple[str, str]]]:
    """The sentences of a rulebook by section title, each as (row name, text): a table row as
    (its first cell, 'name: what'), its header left out; any other sentence with no row name.
    The sentences before the first section (the players, the teams) are the section ``head``."""
    out: dict[str, list[tuple[str, str]]] = {}
    title = head
    header = True                       # the next table row is a header
    for line in lines:
        if line.startswith("## "):
            title = line[3:]
            out.setdefault(title, [])
        elif not title or not line.strip() or line.startswith("# "):
            pass
        elif line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not header and not set(line) <= set("|-: "):
                out[title].append((cells[0], f"{cells[0]}: {cells[1]}" if len(cells) > 1 else cells[0]))
            header = False
            continue
        else:
            out.setdefault(title, []).append(("", line.strip()))
        header = True
    return out


def changed_sentences(base_lines: list[str], lines: list[str], lang: str) -> list[str]:
    """The lines of the house-rules section that tell, section by section, the sentences of
    ``lines`` (this file's rulebook) that differ from ``base_lines`` (its base's)."""
    w = WORDS.get(lang, WORDS["en"])
    old_sections, new_sections = _sections(base_lines, w["head"]), _sections(lines, w["head"])
    items = []
    for title, new in new_sections.items():
        old = old_sections.get(title, [])
        added = [s for s in new if s not in old]
        removed = [s for s in old if s not in new]
        # a table row changed is told beside its base row; the other sentences together
        for row, text in [s for s in added if s[0]]:
            was = [t for r, t in removed if r == row]
            items.append(w["item"].format(section=title, new=text) + (w["was"].format(old=was[0]) if was else ""))
        rows = {s[0] for s in added if s[0]}
        items += [w["dropped"].format(section=title, old=t) for r, t in removed if r and r not in rows]
        plain_new = " ".join(t for r, t in added if not r)
        plain_old = " ".join(t for r, t in removed if not r)
        if plain_new:
            items.append(w["item"].format(section=title, new=plain_new) + (w["was"].format(old=plain_old) if plain_old else ""))
        elif plain_old:
            items.append(w["dropped"].format(section=title, old=plain_old))
    return [w["intro"], *("- " + i for i in items), "", w["keys"]] if items else []
