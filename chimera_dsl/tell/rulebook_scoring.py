"""The scoring expressions of a climbing rulebook, each in its place, with what its names mean.

A file's ``scoring`` may name *facts* (computed once per round and read by the terms), *bonuses*
written as expressions (counted and recorded with the round: they score nothing by themselves)
and *points* (the terms each role scores).  The rulebook lists the three apart, so that a
recorded count is never read as points, and then says what each name of the engine they read
means (``bid``, ``won``, ``cards_left``, ``count(C)``, ``plays_by(R)``, ``sum_others(T)``,
``step(...)``...), in
the file's words for its roles and combinations.  Every expression is said in words, with
tables for its steps (:mod:`chimera_dsl.tell.say`); the words are the catalog's ``scoring``
section (:mod:`chimera_dsl.tell.catalog`).
"""
from __future__ import annotations

import re
from typing import Any

from .catalog import catalog
from .say import Speaker, humanise, is_flag, picked_by, said_as_condition
from .wording import call_words

_NAMES = ("bid", "round", "players", "bidder_won", "won", "out_first", "cards_left", "plays", "card_points", "place")
_WORD = re.compile(r"\b[a-z_][a-z0-9_]*\b")


def scoring_lines(scoring: dict, rules, lang: str, roles: dict, forms: dict, name_of) -> list[str]:
    """The scoring expressions of ``scoring`` (facts, recorded counts, points) in ``lang``, then
    what the engine's names they read mean.  ``roles`` maps role ids to their words, ``forms``
    to their forms with articles; ``name_of`` gives a combination's name in the language."""
    w = catalog(lang)["scoring"]
    bf = {"bidder": roles.get("bidder", "bidder"), "others": roles.get("others", "others"),
          **forms.get("bidder", {})}
    has_bidder: bool | str = bool((rules.spec.get("bidding") or {}) or "bidder" in (rules.spec.get("roles") or {}))
    if has_bidder and rules.spec["play"].get("kind", "play") == "play" and \
            any((p or {}).get("kind") == "partner" for p in (rules.spec.get("phases") or {}).values()):
        has_bidder = "partner"              # the bidder's side: the bidder and the partner it names
    facts = [(str(k), v) for k, v in (scoring.get("facts") or {}).items()]
    # expression bonuses are recorded counts; the {combination:, points:} kind belongs to the
    # two outcomes and is told there
    recorded = [(str(k), v) for k, v in (scoring.get("bonuses") or {}).items() if not isinstance(v, dict)]
    terms: list[tuple[str, str, Any]] = []
    for role, value in (scoring.get("points") or {}).items():
        key = "who_" + str(role)
        who = w[key].format(**bf) if key in w else str(roles.get(role, role))
        items = list(value.items()) if isinstance(value, dict) else [("", value)]
        terms += [(who, str(label), text) for label, text in items]
    read = {name for name, _ in facts} | {str(k) for k in (scoring.get("bonuses") or {})} | \
        {str(k) for k in (rules.spec.get("values") or {})}
    speaker = Speaker(lang, calls=_calls(rules, lang, w, bf, roles, name_of), labels=rules.spec.get("labels"),
                      conditions=[k for k, v in facts + recorded if is_flag(v)],
                      terms={label for _, label, _ in terms if label and label not in read})
    out: list[str] = []

    def said(name: str, value) -> list[str]:
        if isinstance(value, list):
            return speaker.list_table(name, value, picked_by([v for _, v in facts + recorded] + [v for _, _, v in terms], name))
        key = "fact_condition" if said_as_condition(value) else "fact"      # a condition counts 1 or 0
        return ["- " + _cap(w[key].format(name=speaker.name(name), value=speaker.say(value)))] + speaker.take_tables()
    if facts:
        out.append(w["facts"])
        for name, text in facts:
            out += said(name, text)
    if terms:
        out.append(w["points"])
        for who, label, text in terms:
            template = w["term"] if label else w["term_plain"]
            out.append("- " + _cap(template.format(who=who, label=speaker.label(label) if label else "",
                                                   expr=speaker.say(text))))
            out += speaker.take_tables()
    sets = [(str(k), v) for k, v in (scoring.get("set") or {}).items()]
    out += values_lines(rules, lang, speaker)
    if recorded:
        out.append(w["recorded"])
        for name, text in recorded:
            out += said(name, text)
    texts = [_text(text) for _, text in facts + recorded + sets] + [_text(text) for _, _, text in terms]
    meanings = _meanings(texts, w, bf, has_bidder, speaker)
    if meanings:
        out.append(w["where"])
        out += [f"- {name}{w['sep']}{meaning}" for name, meaning in meanings]
    return out


def values_lines(rules, lang: str, speaker) -> list[str]:
    """The file's values (``values``): what the game keeps from round to round, and what each
    becomes once a round is scored (``scoring.set``), said by ``speaker``."""
    w = catalog(lang)["scoring"]
    values = rules.spec.get("values") or {}
    sets = [(str(k), v) for k, v in ((rules.spec.get("scoring") or {}).get("set") or {}).items()]
    out = []
    if values:
        out.append(w["values_kept"])
        for name, entry in values.items():
            low, high = entry["range"]
            out.append("- " + _cap(w["value_" + str(entry.get("each") or "table")].format(
                name=speaker.name(str(name)), start=entry.get("start", 0), low=low, high=high))
                + (w["value_per_round"].format(start=entry.get("start", 0)) if entry.get("per") == "round" else ""))
    if sets:
        out.append(w["values_set"])
        for name, text in sets:
            out.append("- " + _cap(w["value_set_line"].format(name=speaker.name(name), expr=speaker.say(text))))
            out += speaker.take_tables()
    return out


def value_effect_line(effect, lang: str, speaker) -> str:
    """An effect of ``play.effects`` that changes a value (``add``, ``set``), said by ``speaker``
    (whose names are the play's): "When a trick ends and ..., 1 is added to *tricks won* ..."."""
    t = catalog(lang)["rulebook"]
    value, amount = effect.arg
    always = "_always" if effect.when.text.strip() == "true" else ""     # no condition: none said
    key = "effect_" + effect.name + ("_end" if effect.at == "trick_end" else "") + always
    return t[key].format(when=speaker.say(effect.when.text), name=speaker.name(value), expr=speaker.say(amount.text))


def _calls(rules, lang: str, w: dict, bf: dict, roles: dict, name_of):
    """The engine's functions of one name (count, plays_by, idle) said in the scoring's words;
    the others (sum_others) as the speaker says them."""
    def say(function: str, arg: str) -> str | None:
        if function == "count":
            combo = rules.combination.get(arg)
            return w["f_count"].format(name=name_of(combo) if combo is not None else humanise(arg))
        if function in ("called", "called:yes", "called:no"):   # a call of the file (calls), by its name
            return w["f_" + function.replace(":", "_")].format(name=call_words(rules, arg, lang))
        if function in ("plays_by", "idle"):
            role = w["role_" + arg].format(**bf) if "role_" + arg in w else str(roles.get(arg, arg))
            one = function == "plays_by" and arg == "bidder" and "f_plays_by_1" in w
            return w["f_plays_by_1" if one else "f_" + function].format(role=role)
        return None
    return say


def _meanings(texts: list[str], w: dict, bf: dict, has_bidder: bool | str, speaker) -> list[tuple[str, str]]:
    """(name as said, its meaning) for each engine name the expressions read, as first met."""
    seen: dict[str, str] = {}
    for text in texts:
        for match in _WORD.finditer(text):
            name = match.group(0)
            if name in _NAMES and name not in seen:
                key = "n_" + name
                if name == "won" and has_bidder:
                    key = "n_won_partner" if has_bidder == "partner" else "n_won_roles"
                seen[name] = w[key].format(**bf)
    # a name said in words that already say what it means ("the number of players") needs no line
    return [(_cap(speaker.name(name)), meaning) for name, meaning in seen.items()
            if speaker.name(name).lower() != meaning.lower()]


def _text(value) -> str:
    """An expression as written, on one line."""
    return " ".join(str(value).split())


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
