"""The trick-taking decisions in words, shared by the terminal player and the web table.

A decision of a trick-taking phase names its cards or its choice by number (a mask of cards, an
option's place in the trump phase's list, a seat): :func:`trick_action_fields` gives them the
names the game record writes (``7/red``, ``hearts``, ``none``, a seat), and
:func:`trick_action_text` says the decision as a person reads it (``7/red``, ``lay 3/red
5/blue``, ``hearts``, ``no trump``, ``partner seat 2``, ``pass to your partner``, ``call Grand Tichu``).  Both read
only the rules' deck and what the seat's observation holds (the trump options,
``observation.table["trump_options"]``).
"""
from __future__ import annotations

from typing import Any, Sequence

from ..engine.phases.tricks import trump_name

TRICK_ACTION_KINDS = frozenset({"card", "lay", "trump", "partner", "trick_to", "wish", "call", "alone"})
"""The kinds of action of the trick-taking phases (a pass aside), the choice of the seat a
climbing trick is given to (``trick_to``), a wish, and a call (``calls``)."""


def call_names(rules) -> list[str]:
    """The file's calls by id, in the order their actions number them (``Action("call", cards=i)``)."""
    calls = rules.spec.get("calls")
    return [str(name) for name in calls] if isinstance(calls, dict) else []


def call_words(rules, name: str, lang: str = "en") -> str:
    """A call as the file names it for people (its id, underscores as spaces, without names)."""
    entry = (rules.spec.get("calls") or {}).get(name) or {}
    names = entry.get("names") or {}
    return str(names.get(lang) or names.get("en") or str(name).replace("_", " "))

NO_TRUMP = "no trump"
PASS_TRUMP = "pass to your partner"


def trick_action_fields(rules, action, trumps: Sequence = (), kind: str | None = None) -> dict[str, Any]:
    """The data of a trick-taking action by name, as its record line names it.

    ``{"card": "7/red"}``, ``{"cards": ["3/red", "5/blue"]}`` (a lay), ``{"trump": "hearts"}``
    (``"none"``: no trump; ``None``: a pass of the choice, when ``kind`` is ``"trump"``),
    ``{"partner": 2}``; ``{}`` for any other action.  ``trumps``: the options of the trump
    phase (``observation.table["trump_options"]``), in the order its actions number them.
    """
    deck = rules.deck
    if action.kind == "card" and action.mask:
        return {"card": deck.card_names[action.mask.bit_length() - 1]}
    if action.kind == "lay" and action.mask:
        return {"cards": list(deck.mask_names(action.mask))}
    if action.kind == "partner" and action.cards is not None:
        return {"partner": action.cards}
    if action.kind == "trick_to" and action.cards is not None:
        return {"given_to": action.cards}
    if action.kind == "wish" and action.cards is not None:
        return {"wish": deck.ranks[action.cards] if action.cards >= 0 else None}
    if action.kind == "call" and action.cards is not None:
        names = call_names(rules)
        return {"call": names[action.cards]} if 0 <= action.cards < len(names) else {}
    if action.kind == "pass" and kind == "calls":
        return {"call": None}
    if action.kind == "alone":                     # an order_up phase: the seat goes alone
        return {"alone": True}
    if action.kind == "trump" and action.cards is not None and kind == "order_up":
        # an order_up phase numbers its trumps by the deck's colours
        return {"trump": deck.colours[action.cards]} if 0 <= action.cards < len(deck.colours) else {}
    if action.kind == "trump" and action.cards is not None:
        if 0 <= action.cards < len(trumps):
            return {"trump": trump_name(deck, trumps[action.cards])}
        return {}
    if action.kind == "pass" and kind == "trump":
        return {"trump": None}
    if action.kind in ("game", "declare") and action.cards is not None:    # a solo phase's game or declaration
        names = solo_names(rules, "games" if action.kind == "game" else "declarations")
        return {action.kind: names[action.cards]} if 0 <= action.cards < len(names) else {}
    return {}


def solo_names(rules, key: str) -> list[str]:
    """The names of a solo phase's ``games`` or ``declarations``, in the file's order."""
    for section in (rules.spec.get("phases") or {}).values():
        if isinstance(section, dict) and section.get("kind") == "solo":
            return [str(name) for name in (section.get(key) or {})]
    return []


def trick_action_text(rules, action, trumps: Sequence = (), kind: str | None = None) -> str:
    """A trick-taking action in words: ``7/hearts``, ``lay 3/red 5/blue``, ``hearts``, ``no trump``,
    ``partner seat 2``, ``pass to your partner`` (a pass while ``kind`` is ``"trump"``)."""
    fields = trick_action_fields(rules, action, trumps, kind)
    if "card" in fields:
        return fields["card"]
    if action.kind == "lay" and "cards" in fields:
        return "lay " + " ".join(fields["cards"])
    if "partner" in fields:
        return f"partner seat {fields['partner']}"
    if "given_to" in fields:
        return f"give the trick to seat {fields['given_to']}"
    if "wish" in fields:
        return "no wish" if fields["wish"] is None else f"wish for {fields['wish']}"
    if "call" in fields:
        return "no call" if fields["call"] is None else f"call {call_words(rules, fields['call'])}"
    if "trump" in fields:
        if fields["trump"] is None:
            return PASS_TRUMP
        return NO_TRUMP if fields["trump"] == "none" else fields["trump"]
    if action.kind == "trump":
        return f"trump #{action.cards}"
    if "alone" in fields:
        return "go alone"
    if "game" in fields:
        return f"play {fields['game']}"
    if "declare" in fields:
        return f"announce {fields['declare']}"
    return action.kind


__all__ = ["TRICK_ACTION_KINDS", "call_names", "call_words", "solo_names", "trick_action_fields", "trick_action_text"]
