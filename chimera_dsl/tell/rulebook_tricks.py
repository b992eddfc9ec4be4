"""The generated rulebook of a trick-taking variant (``play.kind: tricks``), in en, fr and de.

:func:`chimera_dsl.tell.rulebook.write_rulebook` hands a trick-taking variant to
:func:`trick_rulebook` and adds the end of the game; every sentence is read from the file (the
deck, who chooses the trump, the rules of following, card points, announcements, scoring).
"""
from __future__ import annotations

from collections.abc import Mapping

import json
import re
from typing import Any

from .catalog import Section, catalog
from .rulebook_words import T, cut_words, phase_words, round_words
from .say import Speaker, humanise, is_flag, picked_by
from .rulebook_scoring import value_effect_line, values_lines

S: Mapping[str, dict[str, Any]] = Section("tricks", numbered=True)


WORDS: Mapping[str, dict[str, Any]] = Section("seats")
COLOURS: Mapping[str, dict[str, str]] = Section("colours")


def _seat(value, lang: str, roles: dict, case: str = "") -> str:
    """A seat expression of the file in words (``case="_dat"``: the German dative, after a preposition)."""
    from .articles import card_phrase, word
    w = WORDS[lang]
    if isinstance(value, bool):
        return f"`{value}`"
    if isinstance(value, int):
        return w["seat"].format(x=value)
    if isinstance(value, str):
        if value in roles:
            return _role_forms(roles[value], lang)["role_dat" if case == "_dat" else "role_the"]
        # dealer_left is the seat after the dealer in the direction of play, on the dealer's
        # right when play goes counter-clockwise: said as the seat after the dealer
        phrase = T[lang].get("who_" + ("dealer_next" if value == "dealer_left" else value))
        return _dative(phrase, lang) if phrase and case else phrase or f"`{value}`"
    if isinstance(value, list):
        return w["else"].join(_seat(v, lang, roles, case) for v in value)
    if isinstance(value, dict) and len(value) == 1:
        (key, inner), = value.items()
        if key == "holder":
            rank, _, colour = str(inner).partition("/")
            card = card_phrase(w["card"], rank, COLOURS.get(lang, {}).get(colour, colour), lang) if colour else rank
            return w.get("holder" + case, w["holder"]).format(x=card)
        if key in w:
            inner_case = "_dat" if key in w.get("dative_of", "").split() else case
            return w.get(key + case, w[key]).format(x=_seat(inner, lang, roles, inner_case))
    return "`" + json.dumps(value, ensure_ascii=False) + "`"


def _point_entry(deck, entry: tuple, lang: str, t: dict) -> str:
    """One entry of ``play.points`` in words: a rank ("jack: 2"), a colour ("each card of hearts:
    1") or a card ("the queen of spades: 13")."""
    from .articles import card_phrase, colour_word, rank_word, word
    rank, colour, points = entry
    if colour is None:
        return t["point"].format(rank=rank_word(deck, deck.ranks[rank], lang), points=points)
    name = colour_word(deck, deck.colours[colour], lang)
    if rank is None:
        return t["point_colour"].format(colour=name, points=points)
    card = card_phrase(WORDS[lang]["card"], rank_word(deck, deck.ranks[rank], lang), name, lang)
    return t["point"].format(rank=card, points=points)


def _must_lines(play, deck, lang: str, t: dict, labels: dict | None = None) -> list[str]:
    """``play.must`` in words: each rule, when it applies and what a play must then be."""
    speaker = Speaker(lang, names=_must_names(deck, lang, t), calls=card_calls(deck, lang, t), labels=labels)
    out = []
    for rule in play.must:
        what = speaker.say(rule.play.text)
        if rule.when is None:
            out.append(t["must_always"].format(play=what))
        else:
            out.append(t["must_when"].format(when=speaker.say(rule.when.text), play=what))
    return out


def _bids(phase, spec: dict, lang: str, roles: dict, t: dict, rules=None) -> list[str]:
    """A bids phase in words: who bids first, what a bid is, and its ``must`` rules."""
    section = (spec.get("phases") or {}).get(phase.name) or {}
    out = [f"## {t['bids_head']}", "", t["bids"].format(who=_seat(section.get("opener", "dealer_left"), lang, roles, "_dat"))]
    if phase.must:
        speaker = Speaker(lang, names={name: t["bid_name_" + name] for name in
                                       ("bid", "tricks", "bid_total", "side_bid_total", "bids_made", "last", "first")},
                          calls=_and_called(lambda function, arg: None, rules, lang) if rules is not None else None)
        out.append(t["bids_must_intro"])
        for rule in phase.must:
            what = speaker.say(rule.bid.text)
            out.append("- " + _cap(t["bids_must_always"].format(bid=what) if rule.when is None else
                                   t["bids_must_when"].format(when=speaker.say(rule.when.text), bid=what)))
    out.append(t["bids_public"])
    return out + [""]


def _order_up(phase, spec: dict, lang: str, roles: dict, t: dict) -> list[str]:
    """An order_up phase in words: the two rounds bound to the turned card, the picking up,
    sticking, going alone."""
    section = (spec.get("phases") or {}).get(phase.name) or {}
    picker = _seat(section.get("pick_up", "dealer"), lang, roles)
    pick = "order_up_pick_nodiscard" if not phase.discard else \
        "order_up_pick" if phase.discard_turned else "order_up_pick_keep"
    out = [f"## {t['order_up_head']}", "",
           t["order_up_first"].format(who=_seat(section.get("opener", "dealer_left"), lang, roles, "_dat")),
           t[pick].format(who=picker),
           t["order_up_second_pick"].format(who=picker) if phase.pick_up_second else t["order_up_second"],
           t["order_up_stick" if phase.stick else "order_up_void"], _order_up_maker(roles, lang, t)]
    if phase.alone:
        out.append(t["order_up_alone"])
    if phase.lone_defender:
        out.append(t["order_up_lone_defender"])
    return out + [""]


def _order_up_maker(roles: dict, lang: str, t: dict) -> str:
    """Who makes trump, and the sides: in the roles' names where the file gives them ("the
    taker ... against the defenders"), else the catalog's ("the maker ... the makers")."""
    if "bidder" not in roles:
        return t["order_up_maker"]
    from .articles import role_forms, word
    others = role_forms(word(roles["others"], lang), "plural", lang, "others") if "others" in roles else \
        {"others_acc": t["order_up_others"]}
    return t["order_up_maker_role"].format(**_role_forms(roles["bidder"], lang, "bidder"), **others)


def _solo(phase, spec: dict, lang: str, roles: dict, t: dict, deck, round_phases=()) -> list[str]:
    """A solo phase in words: how the declarer is found, the stock, and each game offered (its
    trumps, its plain order, its base value)."""
    from .articles import card_phrase, colour_word, rank_word, word
    section = (spec.get("phases") or {}).get(phase.name) or {}
    who = _seat(section.get("opener", "dealer_left"), lang, roles)
    out = [f"## {t['solo_head']}", ""]
    # a partner phase of the round gives the declarer a partner: it is then not alone
    sided = "_partner" if any(p.kind == "partner" for p in round_phases) else ""
    if phase.first_come:                    # "Beginnend mit dem Spieler ...": the German dative
        first = _seat(section.get("opener", "dealer_left"), lang, roles, "_dat")
        out.append(_cap(t["solo_first" + sided].format(who=first)))
    else:
        out += [_cap(t["solo_ladder" + sided].format(who=who, values=", ".join(map(str, phase.values)))),
                t["solo_ladder_open"]]
    nest = int((spec.get("deal") or {}).get("nest", 0) or 0)
    if nest:
        out += [t["solo_stock_choice" if phase.stock_choice else "solo_stock_taken"].format(n=nest),
                t["solo_stock_counts"]]
    out.append(t["solo_games" if phase.first_come else "solo_name_game"])

    def colour(name: str) -> str:
        return colour_word(deck, name, lang)
    for game in phase.games:
        name = dict(game.names).get(lang, game.name)
        cards = ", ".join(card_phrase(WORDS[lang]["card"], rank_word(deck, deck.ranks[deck.card_rank[c]], lang),
                                      colour(deck.cards[c][1]), lang) for c in game.top)
        if game.trump[0] == "colour":
            line = t["solo_game_colour"].format(game=name, trump=colour(deck.colours[game.trump[1]]))
            if game.top:
                line += t["solo_game_top"].format(cards=cards)
        elif game.top:
            line = t["solo_game_only_top"].format(game=name, cards=cards)
        else:
            line = t["solo_game_none"].format(game=name)
        if game.plain is not None:
            order = sorted(range(len(deck.ranks)), key=lambda i: -game.plain[i])
            line += t["solo_game_plain"].format(order=" > ".join(rank_word(deck, deck.ranks[i], lang) for i in order))
        line += t["solo_game_base"].format(base=game.base)
        if game.hand_base is not None:
            line += t["solo_game_hand_base"].format(hand=game.hand_base)
        if game.no_tricks:
            line += t["solo_game_no_tricks"]
        if game.hand_only:
            line += t["solo_game_hand_only"]
        out.append(f"- {line}.")
    if phase.declarations:
        out.append(t["solo_declarations"])
        for d in phase.declarations:
            line = dict(d.names).get(lang, d.name)
            if len(d.games) < len(phase.games):
                line += t["solo_decl_games"].format(games=", ".join(
                    dict(phase.games[i].names).get(lang, phase.games[i].name) for i in sorted(d.games)))
            if d.hand_only:
                line += t["solo_decl_hand"]
            if d.needs:
                line += t["solo_decl_needs"].format(needs=", ".join(
                    dict(phase.declarations[i].names).get(lang, phase.declarations[i].name) for i in d.needs))
            if d.open:
                line += t["solo_decl_open"]
            out.append(f"- {line}.")
    return out + [""]


def _contract(phase, spec: dict, lang: str, roles: dict, t: dict) -> list[str]:
    """An auction of contract bids in words: who calls first, the bids and their order, double
    and redouble, its end, the declarer and the trump, the dummy, the vulnerability."""
    section = (spec.get("phases") or {}).get(phase.name) or {}
    strains = ", ".join(t["contract_no_trump"] if kind == "none" else COLOURS.get(lang, {}).get(name, name)
                        for (kind, _), name in zip(phase.strains, phase.strain_names))
    out = [f"## {t['contract_head']}", "",
           _cap(t["contract_turn"].format(who=_seat(section.get("opener", "dealer"), lang, roles, "_dat"))),
           t["contract_bids"].format(low=phase.low, high=phase.high, strains=strains)]
    if phase.double:
        out.append(t["contract_double"])
    if phase.redouble:
        out.append(t["contract_redouble"])
    out += [t["contract_end"].format(n=phase.passes_to_end), t["contract_declarer"]]
    if phase.dummy:
        out.append(t["contract_dummy"])
    if phase.vulnerable is not None:
        speaker = Speaker(lang, names={name: t["contract_name_" + name] for name in ("team", "dealer_side")})
        out.append(t["contract_vulnerable"].format(when=speaker.say(phase.vulnerable.text)))
    return out + [""]


def card_calls(deck, lang: str, t: dict):
    """The functions of cards said in words (``play_has_card(2, clubs)``: "the card is the 2 of
    clubs", ``taken_colour(hearts)``...), for a :class:`Speaker`; None for any other."""
    from .articles import card_phrase, colour_word, rank_gender, rank_word, word
    ranks = {str(r).lower(): r for r in deck.ranks}
    colours = {str(c).lower(): c for c in deck.colours}

    def said_colour(name: str) -> str:
        return colour_word(deck, colours[name], lang)

    def called(function: str, arg: str) -> str | None:
        # "play_has_colour:not": its negation, said where the catalog has words for it; a count of
        # one card compared with 1 or 0, "taken_card:yes" / ":no": "the player took the queen of spades"
        suffix = function[function.index(":"):] if ":" in function else ""
        function, negated = function[:len(function) - len(suffix)], suffix == ":not"
        key = "f_" + function
        parts = arg.split(",")
        values: dict[str, str] = {}
        feminine = False
        if len(parts) == 1 and parts[0] in colours and function.endswith("_colour"):
            values = {"colour": said_colour(parts[0])}
        elif len(parts) == 1 and parts[0] in ranks and function == "play_has":
            values = {"rank": rank_word(deck, ranks[parts[0]], lang)}
            # (English "an ace", "an 8": the grammar's vowel_starts)
            if values["rank"].lower().startswith(tuple(catalog(lang)["grammar"].get("vowel_starts", ()))):
                key += "_vowel"
        elif len(parts) == 2 and parts[0] in ranks and parts[1] in colours:
            # the card with its article, as the rank's word takes it: "la dame de pique", "l'as"
            rank = rank_word(deck, ranks[parts[0]], lang)
            values = {"card": card_phrase(t["card_the"], rank, said_colour(parts[1]), lang)}
            feminine = rank_gender(rank, lang) == "feminine"
        if negated:
            key += "_not"
        elif suffix in (":yes", ":no"):
            if "card" not in values:            # (a count of a colour is no condition)
                return None
            key += "_" + suffix[1:]
        if "card" in values and feminine and key + "_feminine" in t:
            key += "_feminine"                  # a participle agreeing with the card ("la dame ... jouée")
        return t[key].format(**values) if values and key in t else None
    return called


def _and_called(cards, rules, lang: str):
    """``cards`` (:func:`card_calls`), and a call of the file (``called(NAME)``) said by its name
    for people, as the climbing rulebook says it: "how many times the player made blind nil this
    round (1 or 0)"."""
    from .wording import call_words
    w = catalog(lang)["scoring"]

    def called(function: str, arg: str) -> str | None:
        if function in ("called", "called:yes", "called:no"):
            return w["f_" + function.replace(":", "_")].format(name=call_words(rules, arg, lang))
        return cards(function, arg)
    return called


def _must_names(deck, lang: str, t: dict) -> dict[str, str]:
    """The names of ``play.must`` said in words (the functions of a card are said by
    :func:`_say_card_calls`)."""
    names = ("trick", "leading", "held", "play_points", "led_trump", "can_follow", "partner_winning", "play_trump",
             "play_wins", "play_follows", "trick_points", "last_trick")
    said = {name: t["n_" + name] for name in names if "n_" + name in t}
    # a condition's negation in its own words ("the player cannot follow the colour led"), NAME:not
    said.update({name + ":not": t["n_" + name + "_not"] for name in names if "n_" + name + "_not" in t})
    return said


def _role_forms(value, lang: str, prefix: str = "role") -> dict[str, str]:
    """A role of the file (its entry in ``roles``: names per language, and perhaps a gender) in
    every form of :func:`articles.role_forms`, as template fields ``{prefix}_the``,
    ``{Prefix}_the``, ``{prefix}_pron``, ``{prefix}_no`` ...: "the trump maker", "la Cheffe",
    "dem Chef", "keine Vize".  A name that already begins with an article or a pronoun ("celui
    qui fait atout") stands as written where the article would go."""
    from .articles import gender_of, role_forms, word
    name = word(value, lang)
    forms = role_forms(name, gender_of(value, lang), lang, prefix)
    if not name or name.lower().startswith(tuple(WORDS[lang]["role_as_is"])):
        for key in ("the", "acc", "dat"):
            forms[f"{prefix}_{key}"] = name
            forms[f"{prefix.capitalize()}_{key}"] = name[:1].upper() + name[1:]
    return forms


def _dative(phrase: str, lang: str) -> str:
    """A seat phrase in the nominative ("der Geber", "wer zuerst gepasst hat") in the dative, as the
    catalog's ``grammar.dative`` says (German: "dem Geber"; a language without cases keeps it)."""
    for nominative, dative in catalog(lang)["grammar"]["dative"].items():
        if phrase.startswith(nominative):
            return dative + phrase[len(nominative):]
    return phrase


def _and(items, lang: str) -> str:
    """Items as a list in words: "0 and 2", "0, 1 and 2"."""
    items = list(items)
    return ", ".join(items[:-1]) + WORDS[lang]["and"] + items[-1] if len(items) > 1 else "".join(items)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _auction(phase, spec: dict, lang: str, roles: dict, t: dict) -> list[str]:
    from .articles import word
    out = [f"## {t['auction']}", "", t["auction_turn"].format(who=_cap(_seat(spec["phases"][phase.name].get("opener", "dealer"),
                                                                              lang, roles)))]
    out.append(t["auction_limit"].format(n=phase.limit))
    if phase.per_turn is not None:
        out.append(t["auction_per_turn"].format(n=phase.per_turn))
    out.append(t["auction_end"].format(**_role_forms(roles.get("bidder", "bidder"), lang, "bidder")))
    out.append(t["dispute_" + phase.gainers].format(gain=phase.gain, loss=phase.loss))
    if phase.second and spec["players"] >= phase.second_from:
        out.append(t["second_here"].format(**_role_forms(roles.get(phase.second, phase.second), lang)))
    return out + [""]


def _partner_plays(phase, players: int) -> bool | None:
    """Whether a partner phase's ``when`` holds with this many players: True or False, or None
    when it reads the round too (then the rulebook says the condition)."""
    if phase.when is None:
        return True
    if "round" in phase.when.names:
        return None
    return bool(phase.when.evaluate({"players": players, "round": 1}))


def partner_lines(phase, roles: dict, lang: str, missing: frozenset = frozenset(), n_players: int = 0) -> list[str]:
    """A partner phase told: its heading, whom the bidder may name (not the roles it excludes
    that some seat holds), and when it takes place if that depends on the round."""
    t = S[lang]
    but = _and([_role_forms(roles.get(r, r), lang)["role_the"] for r in phase.excluded if r not in missing], lang)
    forms = _role_forms(roles.get("bidder", "bidder"), lang, "bidder")
    out = [f"## {t['partner']}", "",
           t["partner_names"].format(**forms, but=but) if but else t["partner_names_any"].format(**forms)]
    if _partner_plays(phase, n_players) is None:
        in_words = round_words(phase.when.text, T[lang])
        out.append(t["when"].format(when=Speaker(lang).say(phase.when.text)) if in_words is None
                   else t["when_words"].format(when=in_words))
    return out + [""]


def _missing_roles(phases, players: int) -> frozenset[str]:
    """The roles an auction gives its runner-up, but only from more players than these."""
    return frozenset(p.second for p in phases if p.kind == "auction" and p.second and players < p.second_from)


def _chosen(phase, missing: frozenset[str]) -> bool:
    """Whether someone may choose this trump: not when its chooser is only roles nobody takes."""
    reads = set(getattr(phase.chooser, "reads", ()) or ())
    return not reads or not reads <= missing


def _facts_read(formulas: list, t: dict, forms: dict, speaker, declared_words: dict | None = None,
                meanings: dict | None = None) -> list[str]:
    """What the round's facts that the scoring expressions read mean, in the order they are met;
    ``meanings``: a fact's meaning where the round's words differ from the catalog's usual ones."""
    t = {**t, **(meanings or {})}
    seen: list[str] = []
    said: dict[str, str] = {}                  # a solo phase's NAME_declared: the declaration's name
    declared_words = declared_words or {}
    for _, text in formulas:
        for name in re.findall(r"[a-z_]+", str(text)):
            if name.endswith("_declared") and name in declared_words and name not in seen:
                said[name] = declared_words[name]
                seen.append(name)
            elif "fact_" + name in t and name not in seen:
                seen.append(name)
    if not seen:
        return []
    return [t["facts_where"]] + ["- " + _cap(speaker.name(name)) + t["facts_sep"] +
                                 (t["fact_declared_name"].format(name=said[name]) if name in said
                                  else t["fact_" + name].format(**forms)) for name in seen]


def trick_rulebook(rules, lang: str = "en") -> list[str]:
    """The rulebook of a trick-taking variant as Markdown lines, up to the end of the game
    (:func:`chimera_dsl.tell.rulebook.write_rulebook` adds the end, and what a house file changes)."""
    from ..engine import Game
    from .articles import card_phrase, colour_word, rank_word, word
    t, g = S[lang], T[lang]
    spec = rules.spec
    deck = rules.deck
    round_ = Game(rules).round
    play = round_.play
    raw = spec["play"]
    from .articles import title_of
    out = [f"# {title_of(rules, lang)}", ""]
    teams = raw.get("teams") or []
    roles = spec.get("roles") or {}
    n_players = spec["players"]
    missing = _missing_roles(round_.phases, n_players)
    partners = [p for p in round_.phases if p.kind == "partner" and _partner_plays(p, n_players) is not False]
    trumps = [p for p in round_.phases if p.kind == "trump" and _chosen(p, missing)]
    layers = {p.layer for p in trumps} | ({0} if raw.get("trump") not in (None, "none") else set())
    if any(g.trump[0] != "none" or g.top for p in round_.phases if p.kind == "solo" for g in p.games) \
            or any(p.kind == "contract" for p in round_.phases):
        layers.add(0)                       # the game a solo declarer names, a contract's strain: trumps
    second_roles = {p.second for p in round_.phases if p.kind == "auction" and p.second}
    head = t["players"].format(n=n_players)
    if teams:
        head += t["teams"].format(teams=t["team_sep"].join(t["team"].format(seats=_and(map(str, team), lang))
                                                          for team in teams))
    elif partners:
        head += t["sides"].format(**_role_forms(roles.get("bidder", "bidder"), lang, "bidder"))
    else:
        head += t["alone"]
    out += [head, ""]

    out += [f"## {t['cards']}", ""]
    per_colour = [deck.ranks[r] for r, c in deck.cards if c == deck.colours[0]]
    out.append(t["deck"].format(n=len(deck.cards), ranks=", ".join(rank_word(deck, r, lang) for r in per_colour),
                                colours=", ".join(colour_word(deck, c, lang) for c in deck.colours)))
    plain = sorted(range(len(deck.ranks)), key=lambda i: -play.plain_strength[i])
    ranked = rank_word(deck, deck.ranks[plain[0]], lang)
    for before, i in zip(plain, plain[1:]):   # ranks a plain_order leaves out are equal: "J = Q"
        ranked += (" = " if play.plain_strength[i] == play.plain_strength[before] else " > ") \
            + rank_word(deck, deck.ranks[i], lang)
    out.append(t["plain" if layers else "order_no_trump"].format(order=ranked))
    if play.trump_strength != play.plain_strength or any(play.trump_extra):
        order = sorted(range(len(deck.ranks)), key=lambda i: -play.trump_strength[i])
        words = [(play.trump_strength[i], rank_word(deck, deck.ranks[i], lang)) for i in order]
        if any(play.trump_extra):              # play.trump_extra: where the extra trumps rank
            words.append((play.extra_strength, t["extra_trumps"]))
            words.sort(key=lambda pair: -pair[0])
        out.append(t["trump_order"].format(order=" > ".join(word_ for _, word_ in words)))
        for colour, mask in enumerate(play.trump_extra):
            if mask:
                cards = ", ".join(card_phrase(WORDS[lang]["card"], rank_word(deck, deck.ranks[deck.card_rank[c]], lang),
                                              colour_word(deck, deck.cards[c][1], lang), lang)
                                  for c in range(len(deck.cards)) if mask >> c & 1)
                trump = colour_word(deck, deck.colours[colour], lang)
                out.append(t["trump_extra"].format(trump=trump, cards=cards))
    # each entry by the file's name for it, with its points ("jack: 2", "each card of hearts: 1")
    points = [_point_entry(deck, entry, lang, t) for entry in play.point_entries if entry[2]]
    if points:
        out.append(t["points"].format(list=", ".join(points)))
    differs = [_point_entry(deck, entry, lang, t) for entry in play.trump_point_entries]
    if differs:
        out.append(t["trump_points"].format(list=", ".join(differs)))
    if play.last_trick:
        out.append(t["last"].format(n=play.last_trick))
    if play.all_tricks:
        out.append(t["all"].format(n=play.all_tricks))
    if points:
        total = sum(play.card_points) + play.last_trick
        if differs and raw.get("trump") != "none":
            trump_cards = [c for c, (_, colour) in enumerate(deck.cards) if colour == deck.colours[0]]
            total += sum(play.trump_card_points[c] - play.card_points[c] for c in trump_cards)
        out.append(t["total"].format(n=total))
    for (kind, index), factor in play.trump_factors:
        times = t["times"].get(factor) or t["times_n"].format(n=factor)
        if kind == "none":
            out.append(t["factor_none"].format(times=times))
            continue
        trump = (colour_word(deck, deck.colours[index], lang) if kind == "colour"
                 else rank_word(deck, deck.ranks[index], lang))
        out.append(t["factor"].format(trump=trump, times=times))
    out.append("")

    deal = spec.get("deal") or {}
    out += [f"## {t['deal']}", ""]
    first = deal.get("first_dealer", "random")
    out.append(t["dealer_random"] if first == "random" else t["dealer_seat"].format(s=first))
    if "next_dealer" in deal:
        key = "next_dealer_role" if str(deal["next_dealer"]) in roles else "next_dealer"
        out.append(t[key].format(who=_seat(deal["next_dealer"], lang, roles)))
    if round_.deal.by_round:                 # deal.hand_by_round: the hand changes with the round
        # a game of no more rounds than the list never starts it again: the rulebook says no restart
        end = spec.get("end") or {}
        rounds = end.get("rounds")
        once = "when" not in end and "target" not in end and isinstance(rounds, int) and rounds <= len(round_.deal.by_round)
        out.append(t["hand_by_round_once" if once else "hand_by_round"].format(
            list=", ".join(map(str, round_.deal.by_round[:rounds] if once else round_.deal.by_round))))
    else:
        out.append(t["hand"].format(n=round_.deal.hand))
    undealt = len(deck.cards) - round_.deal.nest - n_players * round_.deal.hand
    if deal.get("face_up"):                 # a card dealt face up into a hand (or the nest): the cut makes it
        out.append(cut_words(deal.get("cut"), g))
        out.append(g["face_up"])
        if deal.get("face_up_in_nest", "recut") == "recut":
            if round_.deal.nest or round_.deal.face_up_may_miss:
                out.append(g["recut"])
        elif round_.deal.nest or round_.deal.face_up_may_miss:
            out.append(g["keep"])
        if raw.get("trump") == "turned":
            out.append(t["trump_turned"])
    if round_.deal.turn_up:
        out.append(t["turn_up_top" if play.top_open else "turn_up_draw" if round_.deal.draw else
                     "turn_up_complete" if round_.deal.complete_after else "turn_up"])
        if raw.get("trump") == "turned" and not any(p.kind == "order_up" for p in round_.phases):
            out.append(t["trump_turned"])
        most = max(round_.deal.by_round or (round_.deal.hand,))
        if len(deck.cards) - round_.deal.nest - n_players * most < 1:      # a round dealing every card
            out.append(t["turn_up_none"])
    elif round_.deal.draw:                  # play.draw: the rest is a stock to draw from
        out.append(t["stock_draw"].format(n=undealt))
    elif undealt > 0:
        out.append(g["undealt"].format(n=undealt))
    if round_.deal.complete_after:          # deal.complete: the stock dealt on after a phase
        after = round_.deal.complete_after
        out.append(t["complete"].format(phase=t.get("ph_" + after) or phase_words(spec, after, lang),
                                        n=round_.deal.complete_hand))
    out.append(t["direction"].format(d=t["clockwise" if round_.direction == 1 else "counterclockwise"]))
    out.append("")

    for phase in round_.phases:
        if phase.kind == "bids":
            out += _bids(phase, spec, lang, roles, t, rules)
        if phase.kind == "order_up":
            out += _order_up(phase, spec, lang, roles, t)
        if phase.kind == "contract":
            out += _contract(phase, spec, lang, roles, t)
        if phase.kind == "solo":
            out += _solo(phase, spec, lang, roles, t, deck, round_.phases)
        if phase.kind == "auction":
            out += _auction(phase, spec, lang, roles, t)
        if phase.kind == "partner" and phase in partners:
            out += partner_lines(phase, roles, lang, missing, n_players)
        if phase.kind != "trump" or phase not in trumps:
            continue
        section = (spec.get("phases") or {}).get(phase.name) or {}
        # several trumps: each heading says whose choice it is
        heading = t["trump"] if len(trumps) == 1 else f"{t['trump']} ({_seat(section.get('chooser'), lang, roles)})"
        out += [f"## {heading}", ""]
        named = [t[{"colours": "colour_choice", "ranks": "rank_choice", "none": "none_choice"}[c]]
                 for c in phase.choices]        # "a colour, a value or no trump"
        choices = ", ".join(named[:-1]) + t["or"] + named[-1] if len(named) > 1 else "".join(named)
        out.append(_cap(t["chooser"].format(who=_seat(section.get("chooser"), lang, roles), choices=choices)))
        if phase.from_laid:
            out.append(t["among_laid"])
        if phase.layer:
            out.append(t["layer"].format(n=phase.layer + 1))
        elif len(layers) > 1:
            out.append(t["layer_first"])
        if "none" in phase.choices and len(layers) > 1:
            out.append(t["none_keeps"])
        absent = set(getattr(phase.chooser, "reads", ()) or ()) & second_roles
        for role in sorted(absent):
            out.append(t["no_chooser"].format(**_role_forms(roles.get(role, role), lang)))
        if phase.pass_to == "partner":
            out.append(t["pass_partner"])
        if phase.role:
            out.append(t["role"].format(**_role_forms(roles.get(phase.role, phase.role), lang)))
        out.append("")

    out += [f"## {t['play']}", ""]
    leader = raw.get("first_leader", "dealer_left")
    who = _seat(leader, lang, roles)
    out.append(t["leader"].format(who=who[:1].upper() + who[1:]))
    out.append(t["one_card"])
    out.append(t["follow_" + play.follow])
    by_rank = any("ranks" in p.choices for p in trumps) or str(raw.get("trump")) in deck.index
    fixed = str(raw.get("trump"))           # play.trump: a colour or a rank, trump in every round
    if fixed not in ("None", "none", "turned") and not any(
            p.kind in ("trump", "order_up", "contract", "solo") for p in round_.phases):
        if fixed in deck.colours:
            out.append(t["trump_fixed"].format(trump=colour_word(deck, fixed, lang)))
        elif fixed in deck.index:
            out.append(t["trump_fixed_rank"].format(rank=rank_word(deck, fixed, lang)))
    if by_rank:
        out.append(t["rank_trump"])
    if layers and play.follow != "none":    # a game without trumps, or without following, says nothing of them
        out.append(t["trump_lead_layers" if len(layers) > 1 else "trump_lead"])
    if play.exempt:
        out.append(t["exempt"].format(ranks=", ".join(deck.ranks[i] for i in sorted(play.exempt))))
    if play.undertrump != "allowed":
        out.append(t["undertrump_" + play.undertrump])
    if play.must:
        out.append(t["must_intro"])
        out += ["- " + _cap(line) for line in _must_lines(play, deck, lang, t, spec.get("labels"))]
    out.append(t["winner" if layers else "winner_no_trump"])
    if play.draw:                           # play.draw: each seat draws from the stock after a trick
        text = t["draw_top" if play.top_open else "draw"]
        out.append((text[0] if play.draw == 1 else text[1]).format(n=play.draw))
    if len(layers) > 1:
        out.append(t["trump_ranking"])
    elif by_rank:                           # one layer: nothing to say of layers
        out.append(t["trump_ranking_one"])
    if play.effects:                        # play.effects: values changed as cards and tricks are played
        speaker = Speaker(lang, names=_must_names(deck, lang, t), calls=card_calls(deck, lang, t),
                          labels=spec.get("labels"))
        out += [value_effect_line(effect, lang, speaker) for effect in play.effects]
        if any(effect.at == "trick_end" for effect in play.effects):
            out.append(t["effect_end_card"])
    out.append("")

    melds = play.announcements
    if melds is not None:
        # the trump pair alone is announced as it is played, not with the first card
        only_pair = not melds.sequences and not melds.sets
        out += [f"## {t['melds']}", "", t["melds_intro_pair" if only_pair else "melds_intro"]]
        from .articles import rank_word            # the ranks by the deck's names for them ("king + queen")
        sequence = " < ".join(rank_word(deck, deck.ranks[i], lang) for i in melds.order)
        for length, points in melds.sequences:
            out.append("- " + t["seq"].format(n=length, order=sequence, p=points))
        if melds.sequences:
            out.append("- " + t["seq_longer"])
        for rank, points in melds.sets:
            out.append("- " + t["set"].format(rank=deck.ranks[rank], p=points))
        if melds.pair:
            out.append("- " + t["pair"].format(ranks=" + ".join(rank_word(deck, deck.ranks[i], lang) for i in melds.pair),
                                               p=melds.pair_points)
                       + " (" + t["pair_always" if melds.pair_always else "pair_with"] + ")")
        if melds.sequences or melds.sets or not melds.pair_always:      # announcements compared
            out += ["", t["melds_best_sets" if melds.sets_first else "melds_best"],
                    t["melds_tie_first" if melds.ties == "first_in_play" else "melds_tie_nobody"]]
        out += [t["melds_at_once"], ""] if melds.at_once else [""]

    scoring = spec.get("scoring") or {}
    out += [f"## {g['scoring']}", ""]
    formulas = [(k, v) for section in ("facts", "bonuses") for k, v in (scoring.get(section) or {}).items()]
    # a solo phase's NAME_declared, said by the declaration's name: "Schneider angesagt"
    declared = {f"{d.name}_declared": dict(d.names).get(lang, d.name)
                for p in round_.phases if p.kind == "solo" for d in p.declarations}
    flags = catalog(lang)["flags"]["declared_name"]
    # trick_points: a player's own where each plays alone, without the bonuses the file leaves at 0
    alone = not teams and not any(p.kind in ("partner", "order_up", "contract", "solo") for p in round_.phases)
    bonus = bool(play.last_trick or play.all_tricks)
    meanings = {"fact_trick_points": t["fact_trick_points" + ("_alone" if alone else "") + ("" if bonus else "_plain")]}
    names = {"trick_points": t["n_trick_points_alone"]} if alone else {}
    speaker = Speaker(lang, calls=_and_called(card_calls(deck, lang, t), rules, lang), labels=spec.get("labels"),
                      names={**names, **{name: t["declared_name"].format(name=said) for name, said in declared.items()}},
                      flags={name: [f.format(name=said) for f in flags] for name, said in declared.items()},
                      conditions=[str(k) for k, v in formulas if is_flag(v)])
    said: list[str] = []
    for name, text in formulas:
        if isinstance(text, list):
            texts = [v for _, v in formulas] + [v for value in (scoring.get("points") or {}).values()
                                                for v in (value.values() if isinstance(value, dict) else [value])]
            said += speaker.list_table(str(name), text, picked_by(texts, str(name)))
        else:
            said += ["- " + _cap(speaker.fact(str(name), text))] + speaker.take_tables()
    from .articles import role_forms, word
    for role, value in (scoring.get("points") or {}).items():
        items = value.items() if isinstance(value, dict) else [("", value)]
        formulas += [(f"{role} {label}".strip(), text) for label, text in items]
        who = t["each"] if role == "each" else \
            role_forms(word(roles.get(role, role), lang), "plural", lang)["Role_the"] if role == "others" else \
            _role_forms(roles.get(role, role), lang)["Role_the"]
        for label, text in items:
            said += ["- " + (t["term"] if label else t["term_plain"]).format(
                who=who, label=speaker.label(str(label)), expr=speaker.say(text))] + speaker.take_tables()
    formulas += [(str(k), v) for k, v in (scoring.get("set") or {}).items()]
    if formulas:
        out.append(g["formulas"])
        out += said
        out += values_lines(rules, lang, speaker)
        out += _facts_read(formulas, t, _role_forms(roles.get("bidder", "bidder"), lang, "bidder"), speaker,
                           declared, meanings)
    if "bidder_won" in scoring and round_.names_bidder:
        # the condition the file writes, said as the bidder's contract made or failed
        out += ["", t["contract"].format(**_role_forms(roles.get("bidder", "bidder"), lang, "bidder"),
                                         when=speaker.say(scoring["bidder_won"]))]
    out.append("")
    return out
