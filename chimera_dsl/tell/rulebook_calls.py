"""The rulebook's sentences on calls (``calls``, a phase of kind ``calls``, ``play.calls``) and
on a deal in two parts (``deal.first``, ``deal.rest_after``), in the catalog's words
(``rulebook`` strings ``calls_*`` and ``deal_first``)."""
from __future__ import annotations

from typing import Callable

from .wording import call_words


def two_part_deal_line(rules, round_, t: dict, phase_name: Callable[[str], str]) -> str | None:
    """The deal's sentence on a deal in two parts, or None for a deal in one."""
    deal = round_.deal
    if deal.first is None or deal.rest_after is None:
        return None
    key = "deal_first_one" if deal.first == 1 else "deal_first"     # "the first card", not "the first 1 cards"
    return t[key].format(first=deal.first, rest=deal.hand - deal.first, phase=phase_name(deal.rest_after))


def calls_lines(rules, round_, t: dict, lang: str, seat_words: Callable[[object], str],
                phase_name: Callable[[str], str]) -> list[str]:
    """The section on calls: which there are, which bar which, who calls when; [] without calls."""
    calls = round_.calls
    if calls is None:
        return []
    names = [call_words(rules, c.name, lang) for c in calls.calls]
    out = [f"## {t['calls_title']}", "", t["calls_list"].format(list=", ".join(names))]
    everyone = len(names) > 1 and all(c.excludes == frozenset(j for j in range(len(names)) if j != c.index)
                                      for c in calls.calls)
    if everyone:
        out.append(t["calls_one"])
    else:
        for c in calls.calls:
            if c.excludes:
                barred = t["calls_or"].join(names[j] for j in sorted(c.excludes))
                out.append(t["calls_excludes"].format(name=names[c.index], others=barred))
    for phase in round_.phases:
        if getattr(phase, "kind", None) == "calls":
            spec = (rules.spec.get("phases") or {}).get(phase.name) or {}
            opener = spec.get("opener", "dealer_left")
            out.append(t["calls_phase"].format(phase=phase_name(phase.name), name=names[phase.call],
                                               who=seat_words(opener)))
    for entry in calls.in_play:
        out.append(t["calls_play_" + entry.until].format(name=names[entry.index]))
    out += [t["calls_public"], ""]
    return out
