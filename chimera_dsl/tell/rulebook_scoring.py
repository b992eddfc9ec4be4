"""The scoring expressions of a climbing rulebook, each in its place, with what its names mean.

A file's ``scoring`` may name *facts* (computed once per round and read by the terms), *bonuses*
written as expressions (counted and recorded with the round: they score nothing by themselves)
and *points* (the terms each role scores).  The rulebook lists the three apart, so that a
recorded count is never read as points, and then says what each name of the engine they read
means (``bid``, ``won``, ``cards_left``, ``count(C)``, ``plays_by(R)``, ``sum_others(T)``,
``step(...)``...), in
the file's words for its roles and combinations.
"""
from __future__ import annotations

import re
from typing import Any

# Phrases by language; ``{bidder_the}`` and the like are the bidder's forms (articles.role_forms).
WORDS: dict[str, dict[str, Any]] = {
    "en": {
        "facts": "Each round, these facts are computed once, in order:",
        "points": "In each round, a player scores the sum of the terms below that name it:",
        "recorded": "These are counted and recorded with each round; they score no points themselves:",
        "where": "Where:", "sep": ": ",
        "term": "{who} (`{label}`): `{expr}`", "term_plain": "{who}: `{expr}`",
        "who_bidder": "the {bidder}", "who_others": "each of the {others}", "who_each": "each player",
        "role_bidder": "the {bidder}", "role_others": "the {others}", "role_each": "all players",
        "n_bid": "the final bid",
        "n_round": "the round's number, from 1", "n_players": "the number of players",
        "n_bidder_won": "true when the {bidder} went out first",
        "n_won_roles": "in a player's term, true when that player's side went out first: the {bidder} alone, or the {others} together",
        "n_won": "in a player's term, true when that player went out first",
        "n_out_first": "in a player's term, true when that player itself went out first",
        "n_cards_left": "in a player's term, the cards that player still holds when the round ends",
        "n_place": "in a player's term, that player's finishing place this round (1 for the first out, the number of players for the last)",
        "n_plays": "in a player's term, the plays that player made this round",
        "n_card_points": "in a player's term, the treasure points in the tricks that player took",
        "f_count": "how many plays of {name} were made this round, by anyone",
        "f_plays_by": "how many plays {role} made this round",
        "f_idle": "how many of {role} made no play this round",
        "f_sum_others": "in a player's term, the term `{term}` of every other player, added up",
        "f_step": "`step(x, B1: V1, B2: V2, ..., else: V)` is V1 when x is at most B1, else V2 when x is at most B2, and so on; above the last bound it is V",
        "f_power": "`a ^ b` is a to the power b",
    },
    "fr": {
        "facts": "À chaque manche, ces valeurs se calculent une fois, dans l'ordre :",
        "points": "À chaque manche, un joueur marque la somme des termes ci-dessous qui le concernent :",
        "recorded": "Ces valeurs sont comptées et notées avec chaque manche ; elles ne rapportent aucun point :",
        "where": "Où :", "sep": " : ",
        "term": "{who} (`{label}`) : `{expr}`", "term_plain": "{who} : `{expr}`",
        "who_bidder": "{bidder_the}", "who_others": "chacun des {others}", "who_each": "chaque joueur",
        "role_bidder": "{bidder_the}", "role_others": "les {others}", "role_each": "tous les joueurs",
        "n_bid": "l'enchère finale",
        "n_round": "le numéro de la manche, à partir de 1", "n_players": "le nombre de joueurs",
        "n_bidder_won": "vrai quand {bidder_the} a posé toutes ses cartes en premier",
        "n_won_roles": "dans le terme d'un joueur, vrai quand son camp a posé toutes ses cartes en premier : {bidder_the} seul, ou les {others} ensemble",
        "n_won": "dans le terme d'un joueur, vrai quand ce joueur a posé toutes ses cartes en premier",
        "n_out_first": "dans le terme d'un joueur, vrai quand ce joueur lui-même a posé toutes ses cartes en premier",
        "n_cards_left": "dans le terme d'un joueur, les cartes qu'il tient encore à la fin de la manche",
        "n_place": "dans le terme d'un joueur, sa place à l'arrivée de la manche (1 pour le premier sorti, le nombre de joueurs pour le dernier)",
        "n_plays": "dans le terme d'un joueur, les combinaisons qu'il a jouées dans la manche",
        "n_card_points": "dans le terme d'un joueur, les points des trésors des plis qu'il a remportés",
        "f_count": "le nombre de combinaisons « {name} » jouées dans la manche, par n'importe qui",
        "f_plays_by": "le nombre de combinaisons que {role} ont jouées dans la manche",
        "f_plays_by_1": "le nombre de combinaisons que {role} a jouées dans la manche",
        "f_idle": "le nombre de joueurs parmi {role} qui n'ont rien joué dans la manche",
        "f_sum_others": "dans le terme d'un joueur, la somme du terme `{term}` de chacun des autres joueurs",
        "f_step": "`step(x, B1: V1, B2: V2, ..., else: V)` vaut V1 quand x vaut au plus B1, sinon V2 quand x vaut au plus B2, et ainsi de suite ; au-delà de la dernière borne, il vaut V",
        "f_power": "`a ^ b` est a puissance b",
    },
    "de": {
        "facts": "In jeder Runde werden diese Werte einmal berechnet, der Reihe nach:",
        "points": "In jeder Runde erhält ein Spieler die Summe der folgenden Terme, die ihn betreffen:",
        "recorded": "Diese Werte werden mit jeder Runde gezählt und notiert; sie bringen selbst keine Punkte:",
        "where": "Dabei:", "sep": ": ",
        "term": "{who} (`{label}`): `{expr}`", "term_plain": "{who}: `{expr}`",
        "who_bidder": "{bidder_the}", "who_others": "jeder der {others}", "who_each": "jeder Spieler",
        "role_bidder": "{bidder_the}", "role_others": "die {others}", "role_each": "alle Spieler",
        "n_bid": "das Endgebot",
        "n_round": "die Nummer der Runde, ab 1", "n_players": "die Zahl der Spieler",
        "n_bidder_won": "wahr, wenn {bidder_the} zuerst alle Karten ausgespielt hat",
        "n_won_roles": "im Term eines Spielers wahr, wenn seine Partei zuerst alle Karten ausgespielt hat: {bidder_the} allein oder die {others} zusammen",
        "n_won": "im Term eines Spielers wahr, wenn dieser Spieler zuerst alle Karten ausgespielt hat",
        "n_out_first": "im Term eines Spielers wahr, wenn dieser Spieler selbst zuerst alle Karten ausgespielt hat",
        "n_cards_left": "im Term eines Spielers die Karten, die er am Ende der Runde noch hält",
        "n_place": "im Term eines Spielers sein Platz in dieser Runde (1 für den zuerst Ausgeschiedenen, die Spielerzahl für den Letzten)",
        "n_plays": "im Term eines Spielers die Kombinationen, die er in der Runde gespielt hat",
        "n_card_points": "im Term eines Spielers die Schatzpunkte in seinen Stichen",
        "f_count": "wie oft die Kombination „{name}“ in der Runde gespielt wurde, von wem auch immer",
        "f_plays_by": "wie viele Kombinationen {role} in der Runde gespielt haben",
        "f_plays_by_1": "wie viele Kombinationen {role} in der Runde gespielt hat",
        "f_idle": "wie viele von {role} in der Runde nichts gespielt haben",
        "f_sum_others": "im Term eines Spielers die Summe des Terms `{term}` aller anderen Spieler",
        "f_step": "`step(x, B1: V1, B2: V2, ..., else: V)` ist V1, wenn x höchstens B1 ist, sonst V2, wenn x höchstens B2 ist, und so weiter; über der letzten Grenze ist es V",
        "f_power": "`a ^ b` ist a hoch b",
    },
}

_NAMES = ("bid", "round", "players", "bidder_won", "won", "out_first", "cards_left", "plays", "card_points", "place")
_CALL = re.compile(r"\b(count|plays_by|idle|sum_others)\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)")
_WORD = re.compile(r"\b[a-z_][a-z0-9_]*\b")


def scoring_lines(scoring: dict, rules, lang: str, roles: dict, forms: dict, name_of) -> list[str]:
    """The scoring expressions of ``scoring`` (facts, recorded counts, points) in ``lang``, then
    what the engine's names they read mean.  ``roles`` maps role ids to their words, ``forms``
    to their forms with articles; ``name_of`` gives a combination's name in the language."""
    w = WORDS.get(lang, WORDS["en"])
    bf = {"bidder": roles.get("bidder", "bidder"), "others": roles.get("others", "others"),
          **forms.get("bidder", {})}
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
    out: list[str] = []
    if facts:
        out.append(w["facts"])
        out += [f"- `{name}` = `{_text(text)}`" for name, text in facts]
    if terms:
        out.append(w["points"])
        out += ["- " + _cap((w["term"] if label else w["term_plain"]).format(who=who, label=label, expr=_text(text)))
                for who, label, text in terms]
    if recorded:
        out.append(w["recorded"])
        out += [f"- `{name}` = `{_text(text)}`" for name, text in recorded]
    texts = [_text(text) for _, text in facts + recorded] + [_text(text) for _, _, text in terms]
    meanings = _meanings(texts, rules, w, bf, roles, forms, name_of, bool(scoring.get("points")))
    if meanings:
        out.append(w["where"])
        out += [f"- {name}{w['sep']}{meaning}" if name else f"- {meaning}" for name, meaning in meanings]
    return out


def _meanings(texts: list[str], rules, w: dict, bf: dict, roles: dict, forms: dict, name_of,
              has_terms: bool) -> list[tuple[str, str]]:
    """(name as written, its meaning) for each engine name the expressions read, as first met."""
    seen: dict[str, str] = {}
    has_bidder = bool((rules.spec.get("bidding") or {}) or "bidder" in (rules.spec.get("roles") or {}))
    for text in texts:
        calls = {m.start(): m for m in _CALL.finditer(text)}
        for match in _WORD.finditer(text):
            if match.start() in calls:
                call = calls[match.start()]
                function, arg = call.group(1), call.group(2)
                shown = f"`{function}({arg})`"
                if shown in seen:
                    continue
                if function == "sum_others":
                    seen[shown] = w["f_sum_others"].format(term=arg)
                elif function == "count":
                    combo = rules.combination.get(arg)
                    seen[shown] = w["f_count"].format(name=name_of(combo) if combo is not None else arg)
                else:
                    role = w["role_" + arg].format(**bf) if "role_" + arg in w else str(roles.get(arg, arg))
                    one = function == "plays_by" and arg == "bidder" and "f_plays_by_1" in w
                    seen[shown] = w["f_plays_by_1" if one else "f_" + function].format(role=role)
                continue
            name = match.group(0)
            shown = f"`{name}`"
            if name in _NAMES and shown not in seen:
                key = "n_won_roles" if name == "won" and has_bidder else "n_" + name
                seen[shown] = w[key].format(**bf)
        if re.search(r"\bstep\s*\(", text) and "step" not in seen:
            seen["step"] = w["f_step"]
        if "^" in text and "^" not in seen:
            seen["^"] = w["f_power"]
    # the function and operator lines carry their own code quotes: no name before them
    return [(name if name.startswith("`") else "", meaning) for name, meaning in seen.items()]


def _text(value) -> str:
    """An expression as written, on one line."""
    return " ".join(str(value).split())


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]
