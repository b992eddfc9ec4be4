"""A variant's rulebook, written as Markdown from the variant itself.

Everything printed comes from the compiled rules: the deck, the deal, the bidding knobs, the
combinations (each described from its pattern, with an example drawn by the matcher from
the full deck), what beats what, scoring and the end.  For a file that ``extends`` another,
a last section lists exactly what differs from the base, so the printed rules stay true
when the file changes.
"""
from __future__ import annotations

import json
from pathlib import Path

import yaml


from .articles import card_phrase, colour_word, contracted, gender_of, group_word, rank_word, role_forms, set_off, singular, title_of, word
from ..language.patterns import Card, Cards, Chain, Pattern, RankSet
from ..engine.round import compile_round, path_of, played_before
from .catalog import catalog
from .say import Speaker
from .rulebook_house import changed_sentences
from .rulebook_words import CARD_WORDS, LANGUAGES, RULE_WORDS, T, UNIT_WORDS, cut_words, phase_words, round_words
from .rulebook_scoring import scoring_lines, value_effect_line
from .rulebook_tricks import S as TRICK_WORDS, partner_lines, trick_rulebook
from .rulebook_calls import calls_lines, two_part_deal_line
from ..engine.seats import NAMES as SEAT_NAMES, PLACE, RELATIVE, SeatError, parse_place

def _seat_words(value, t: dict, roles: dict | None = None, forms: dict | None = None, deck=None,
                lang: str = "en") -> str:
    """A seat expression in words: the language's phrase for what it names, else as written.

    ``roles`` maps the file's role ids to their names in the language (``bidder`` -> declarer);
    ``forms``, to the forms of those names with their articles (:func:`articles.role_forms`).
    """
    roles = roles or {}
    forms = forms or {}
    if isinstance(value, int) and not isinstance(value, bool):
        return t["who_seat"].format(n=value)
    if isinstance(value, str):
        if value.startswith(PLACE) and "who_place" in t:
            try:
                place = parse_place(value[len(PLACE):], 99)
            except SeatError:
                return f"`{value}`"
            p = (t.get(f"place_{place}") or t["place_n"].format(n=place)) if place > 0 else \
                t["place_last"] if place == -1 else t["place_last_1"] if place == -2 else \
                t["place_last_n"].format(n=-1 - place)
            return t["who_place"].format(p=p)
        if value in SEAT_NAMES and "who_" + value in t:
            return t["who_" + value]
        if value in roles:
            return t["who_role"].format(role=roles[value], **forms.get(value, {}))
    if isinstance(value, list) and value:
        said = _seat_words(value[0], t, roles, forms, deck, lang)
        for before, item in zip(value, value[1:]):
            words = _seat_words(item, t, roles, forms, deck, lang)
            # after the seat of the first round, the seat of the later rounds; else a fallback
            later = isinstance(before, dict) and list(before) == ["first_round"]
            said += t["who_later_rounds"] + words + t["who_later_close"] if later else \
                t["who_or"] + words + t.get("who_or_close", "")
        return said
    if isinstance(value, dict) and len(value) == 1:
        (key, inner), = value.items()
        if key == "holder":
            return t["who_holder"].format(card=card_words(deck, inner, lang) if deck is not None else inner)
        if key in RELATIVE or key == "first_round":
            return t["who_" + str(key)].format(of=_seat_words(inner, t, roles, forms, deck, lang))
    if isinstance(value, (dict, list)):
        return "`" + json.dumps(value, ensure_ascii=False) + "`"
    return f"`{value}`"


def card_words(deck, card, lang: str) -> str:
    """A card of the file (``3/diamonds``, ``P``) named in words with its article: its rank's
    long name and its colour's word in ``lang`` (the catalog's ``cards.card``, or ``cards.card_alone``
    for a card of no colour)."""
    rank, _, colour = str(card).partition("/")
    known = rank.upper() in deck.index          # ranks are read without regard to case (Dragon, DRAGON)
    said = rank_word(deck, deck.ranks[deck.index[rank.upper()]], lang) if known else rank
    if not colour:      # a card of no colour, with its article ("the Mah Jong", "die Karte Mah Jong")
        return catalog(lang)["cards"]["card_alone"].format(rank=said) if known else said
    return card_phrase(catalog(lang)["cards"]["card"], said, colour_word(deck, colour, lang), lang)


def _cap(text: str) -> str:
    """A sentence's first letter in capitals."""
    return text[:1].upper() + text[1:]


def _plural(t: dict, key: str, n) -> str:
    one, many = t[key]
    singular = n == 1 or (n == 0 and t.get("zero_is_singular", False))
    return (one if singular else many).format(n=n)


def _outcome(t: dict, times, bf: dict | None = None) -> str:
    """What the bidder scores: ``times`` times its bid (negative: a loss); ``bf``: the bidder's
    forms (its possessive: "ihr Gebot", "sein Gebot")."""
    if not times:
        return t["nothing"]
    kind = "gain" if times > 0 else "loss"
    k = abs(times)
    return (t[kind + "_1"] if k == 1 else t[kind]).format(k=k, **(bf or {}))


def _set_text(ranks: RankSet, t: dict, lang: str, groups: dict | None = None) -> str:
    groups = groups or {}
    return t["p_or"].join(t["p_any"] if i.kind == "any" else "..".join(groups.get(n) or word(n, lang) for n in i.names)
                          for i in ranks.items)


def describe_pattern(pattern: Pattern, lang: str = "en", groups: dict | None = None, wild: bool = True) -> str:
    """A sentence saying what a pattern allows, in ``lang``; ``groups`` names the deck's groups
    of ranks in that language (:func:`group_word`); ``wild``: the deck has a wild colour (said
    of a play of one colour)."""
    t = {**T[lang], **CARD_WORDS.get(lang, CARD_WORDS["en"])}
    pieces = []
    for n, part in enumerate(pattern.parts):
        if isinstance(part, Card):
            text = t["p_card"].format(r=(groups or {}).get(part.rank, part.rank))
        elif isinstance(part, Cards):
            text = t["p_cards"].format(n=part.count) + " " + t["p_from"].format(set=_set_text(part.ranks, t, lang, groups))
        elif isinstance(part, Chain):
            key = ("p_chain" if part.max_length is None else
                   "p_chain_exact" if part.max_length == part.min_length else "p_chain_range")
            text = t[key].format(lo=part.min_length, hi=part.max_length, cards=_plural(t, "n_cards", part.size))
            text += " " + t["p_from"].format(set=_set_text(part.ranks, t, lang, groups))
        else:
            if part.count > 1:           # "2 single cards", "2 groups of 2 cards of one rank"
                text = t["p_singles" if part.size == 1 else "p_groups"].format(k=part.count, n=part.size)
            else:
                text = t["p_single"] if part.size == 1 else t["p_group"].format(n=part.size)
            text += " " + t["p_from"].format(set=_set_text(part.ranks, t, lang, groups))
            if part.each:
                text += t["p_each"]
        pieces.append(text)
    sentence = pieces[0] + "".join(t["p_plus"] + p for p in pieces[1:])
    clauses = []
    if len(pattern.parts) > 1 and not all(isinstance(p, Card) for p in pattern.parts):
        clauses.append(t["p_other_rank"])
    if pattern.distinct:
        clauses.append(t["p_distinct"])
    for a, b, _ in pattern.not_both:
        clauses.append(t["p_not_both"].format(a=a, b=b))
    if pattern.at_most:
        clauses.append(t["p_at_most"].format(n=pattern.at_most))
    if pattern.not_extending and isinstance(pattern.parts[0], Chain):
        size = pattern.parts[0].size
        unit = UNIT_WORDS.get(lang, UNIT_WORDS["en"]).get(size) or t["n_cards"][1].format(n=size)
        clauses.append(t["p_not_extending"].format(unit=unit))
    if pattern.wild:
        clauses.append(t["p_wild"].format(w=_set_text(pattern.wild, t, lang, groups)))
    if pattern.ranked_by == "highest":
        clauses.append(t["p_ranked_highest"])
    if pattern.same_colour:
        clauses.append(t["p_same_colour" if wild else "p_one_colour"])
    return sentence + (t["semi"] + t["semi"].join(clauses) if clauses else "")


def _example(rules, combo) -> str:
    deck = rules.deck
    full = deck.full_key
    plays = combo.plays(full, rules._ge(full))
    if not plays:
        return ""
    chosen = plays[len(plays) // 3]
    if combo.same_colour and deck.colour_masks:
        # a play of one colour: ranks that one colour holds (a flush of one pack has no pair)
        colour = deck.key_of_mask(deck.colour_masks[0] | deck.wild_colour_mask)
        within = [p for p in plays if deck.contains(colour, p.key)]
        if within and chosen not in within:
            chosen = within[len(within) // 3]
    return "-".join(chosen.cards)


def _name(combo, lang: str) -> str:
    return combo.names.get(lang) or combo.names.get("en") or combo.id


def _order_sentences(ordered: list, lang: str, words: dict) -> list[str]:
    """The order of a tier's ordered combinations, lowest first: a higher order beats a lower
    one; combinations of one order share a place (``=``) and compare their plays, as within
    one combination (a name given to several of them is said once)."""
    places: dict[int, list[str]] = {}
    for combo in sorted(ordered, key=lambda c: c.order):
        names = places.setdefault(combo.order, [])
        if _name(combo, lang) not in names:
            names.append(_name(combo, lang))
    if len(places) < 2 and all(len(names) < 2 for names in places.values()):
        return []
    out = [words["order"].format(names=" < ".join(" = ".join(names) for names in places.values()))]
    out += [words["order_equal"].format(names=words["and"].join(names)) for names in places.values() if len(names) > 1]
    return out


def write_rulebook(rules, lang: str = "en", base=None, base_label: str | None = None) -> str:
    """The rulebook of ``rules`` as Markdown; with ``base``, a section of what differs from it."""
    if lang not in T:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    return contracted(_rulebook_text(rules, lang, base, base_label), lang)


def _rulebook_text(rules, lang: str, base, base_label: str | None) -> str:
    if (rules.spec.get("play") or {}).get("kind") == "tricks":
        lines = trick_rulebook(rules, lang)
        # the cards handed over before the play (the passing of Hearts) come before the play
        passing = _passing_of_tricks(rules, lang)
        heading = "## " + catalog(lang)["tricks"]["play"]
        at = lines.index(heading) if heading in lines else len(lines)
        lines[at:at] = passing
        lines += _calls_of_tricks(rules, lang)
        lines += end_and_differences(rules.spec, T[lang], base, base_label, lang, lines)
        return "\n".join(lines)
    t = T[lang]
    spec = rules.spec
    deck = rules.deck
    round_ = compile_round(rules)
    if round_.direction != 1 or round_.reverse_each_round:
        # "on the dealer's left" is the seat after the dealer only when play goes clockwise
        t = {**t, "who_dealer_left": t["who_dealer_next"],
             "opener_dealer_left": _cap(t["opener_seat"].format(who=t["who_dealer_next"]))}
    roles = spec.get("roles") or {}
    others_given = roles.get("others", "others")
    bidder = word(roles.get("bidder", "bidder"), lang)
    others = word(others_given, lang)
    # one of them: the plural without its s, in the file's own words for the language, else
    # the English word's singular as the glossary says it
    if isinstance(others_given, dict):
        other = singular(others)
    else:
        other = word(singular(str(others_given)), lang)
    role_words = {str(r): word(v, lang) for r, v in roles.items()}
    role_words = {"bidder": bidder, "others": others, **role_words}
    # each role with its article, pronoun and possessive, as its gender in the language says
    # (fields role_the, Role_the... for seat phrases, and bidder_the, Bidder_the... by the role's id)
    forms = {r: {**role_forms(name, gender_of(roles.get(r), lang), lang),
                 **role_forms(name, gender_of(roles.get(r), lang), lang, prefix=r)} for r, name in role_words.items()}
    bf = forms["bidder"]

    def seat(value, line: str) -> str:
        """``line`` (a template with ``{who}``) naming the seat ``value``, with its German commas."""
        who = _seat_words(value, t, role_words, forms, deck, lang)
        return set_off(line.format(who=who), who, lang)
    if round_.reverse_each_round:
        first = t["w_cw"] if round_.direction == 1 else t["w_ccw"]
        direction = t["direction_reverse"].format(first=first)
    else:
        direction = t["direction_cw"] if round_.direction == 1 else t["direction_ccw"]
    phases = [t.get("ph_" + p.name) or phase_words(spec, p.name, lang) for p in round_.phases] + [t["ph_scoring"]]
    out = [f"# {title_of(rules, lang)}", "", t["players"].format(n=spec.get("players", 3)), direction,
           t["phases"].format(list=", ".join(phases)), ""]
    if round_.play.teams:
        joined = TRICK_WORDS[lang]["team_sep"].join(RULE_WORDS[lang]["and"].join(str(s) for s in team)
                                                   for team in round_.play.teams)   # French: "0 et 2 ; 1 et 3"
        out.insert(3, t["climb_teams"].format(teams=joined))

    out += [f"## {t['cards']}", ""]
    counts: dict[int, list[str]] = {}
    for i, n in enumerate(deck.copies):
        counts.setdefault(n, []).append(rank_word(deck, deck.ranks[i], lang))
    detail = t["semi"].join(f"{', '.join(ranks)} × {n}" for n, ranks in counts.items())
    out.append(t["deck"].format(n=len(deck.cards), detail=detail))
    out.append(t["order"].format(order=" < ".join(deck.ranks)))
    if deck.colours:
        colours = ", ".join(colour_word(deck, c, lang) for c in deck.colours)
        if rules.reads_colours:
            out.append(RULE_WORDS.get(lang, RULE_WORDS["en"])["colours_rank"].format(c=colours))
        else:
            out.append(t["colours"].format(c=colours))
    for name, ranks in deck.groups.items():
        out.append("- " + t["groups"].format(name=group_word(deck, name, lang), ranks=", ".join(deck.ranks[i] for i in sorted(ranks))))
    scoring = spec.get("scoring") or {}
    treasures = scoring.get("treasures") or {}
    if treasures:
        items = []
        for r, p in treasures.items():
            # a rank by its long name in the language (the Dragon, the king), as the cards are listed
            rank = deck.ranks[deck.index[str(r).upper()]] if str(r).upper() in deck.index else str(r)
            said = rank_word(deck, rank, lang)
            items.append(t["treasure" if said == rank else "treasure_named"].format(rank=said, points=p))
        total = sum(int(p) * deck.copies[deck.index[str(r).upper()]] for r, p in treasures.items()
                    if str(r).upper() in deck.index)
        out.append(t["treasures"].format(list=", ".join(items), total=total))
    out.append("")

    deal = spec.get("deal") or {}
    out += [f"## {t['deal']}", ""]
    first = deal.get("first_dealer", "random")
    if "next_dealer" in deal:
        passes = seat(deal["next_dealer"], t["passes_seat"])
    else:
        rotates = {"clockwise": "cw", "counterclockwise": "ccw"}.get(deal.get("dealer_rotates", "clockwise"), "none")
        passes = t["passes_" + rotates]
    out.append(t["dealer_random"].format(passes=passes) if first == "random"
               else t["dealer_seat"].format(s=first, passes=passes))
    if deal.get("cut") or deal.get("face_up"):     # (the face-up card is the lower part's: the cut makes it)
        out.append(cut_words(deal.get("cut"), t))
    if deal.get("face_up"):
        out.append(t["face_up"])
        if deal.get("face_up_in_nest") == "recut":
            out.append(t["recut"])
        elif round_.deal.nest or round_.deal.face_up_may_miss:
            out.append(t["keep"])
    order = t["order_play"] if round_.reverse_each_round else t["order_cw" if round_.direction == 1 else "order_ccw"]
    if round_.deal.nest:
        out.append(t["nest_hand"].format(nest=round_.deal.nest, hand=round_.deal.hand, order=order))
    else:
        out.append(t["hand_only"].format(hand=round_.deal.hand, order=order))
    dealt_to = spec.get("players", 3)
    if round_.deal.sits_out is not None:
        dealt_to -= 1
        out.append(seat(deal["sits_out"], t["sits_out"].format(who="{who}", k=dealt_to)))
    if round_.deal.extra:
        out.append(t["deal_rest"])
    undealt = len(deck.cards) - round_.deal.nest - dealt_to * round_.deal.hand - round_.deal.extra
    if undealt > 0:
        out.append(t["undealt"].format(n=undealt))
    def phase_name(name: str) -> str:
        return t.get("ph_" + name) or phase_words(spec, name, lang)
    two_parts = two_part_deal_line(rules, round_, t, phase_name)
    if two_parts is not None:
        out.append(two_parts)
    out.append("")

    bidding = spec.get("bidding") or {}
    if bidding:
        out += [f"## {t['bidding']}", ""]
        opener = bidding.get("opener")
        out.append(t["roles"].format(bidder=bidder, others=others, **bf))
        out.append(t.get("opener_" + str(opener)) or seat(opener, t["opener_seat"]))
        levels = bidding.get("levels") or []
        out.append(t["levels"].format(levels=", ".join(str(x) for x in levels)))
        if bidding.get("top_bid_closes") and levels:
            out.append(t["top_closes"].format(top=levels[-1]))
        out.append(t["passes_close"].format(n=bidding.get("passes_to_close")))
        out.append(t["reenter"] if bidding.get("reenter_after_pass", True) else t["no_reenter"])
        all_pass = bidding.get("all_pass") or {}
        if all_pass and all_pass.get("then") == "void":
            n = all_pass.get("redeals_before_forced", 0)
            line = (t["all_pass_redeals_void"].format(times=_plural(t, "n_times", n)) if n else t["all_pass_void"])
            out.append(line)
        elif all_pass:
            n = all_pass.get("redeals_before_forced", 0)
            template = t["all_pass_redeal" if n == 1 else "all_pass_redeals"] if n else t["all_pass_forced"]
            template = template.replace("{times}", _plural(t, "n_times", n)).replace("{bid}", str(all_pass.get("forced_bid")))
            line = seat(all_pass.get("forced_bidder"), template)
            line += t["forced_closes"].format(bidder=bidder, **bf) if all_pass.get("forced_bid_closes") else t["forced_open"]
            out.append(line)
        out.append("")

    out += calls_lines(rules, round_, t, lang, lambda value: _seat_words(value, t, role_words, forms, deck, lang),
                       phase_name)

    # a round whose only transfer is the nest taken has no exchange to title
    exchanges = any(tr.source != "nest" for tr in round_.transfers)
    title = (t["exchange"] if exchanges else t["nest_only"]) if round_.deal.nest else t["exchange_only"]
    out += [f"## {title}", ""]
    transfers = [_transfer_text(tr, rules, round_, t, lang, role_words, forms) for tr in round_.transfers]
    if round_.deal.nest and not any(tr.source == "nest" for tr in round_.transfers):
        out.append(t["nest_nobody"])
    out += transfers or ([] if round_.deal.nest else [t["no_transfer"]])
    out.append("")
    for phase in round_.phases:             # the sides a partner phase forms
        if phase.kind == "partner":
            out += partner_lines(phase, spec.get("roles") or {}, lang, n_players=spec["players"])

    play = spec.get("play") or {}
    leader = play.get("first_leader", "bidder")
    out += [f"## {t['play']}", "", t["first_leader"].format(bidder=bidder, **bf) if leader == "bidder" else
            _cap(seat(leader, t["first_leader_seat"]))]
    out.append(t["leader_may_pass"] if round_.play.leader_may_pass else t["leader_no_pass"])
    out.append(t["answer_final"] if getattr(round_.play, "pass_final", False) else t["answer"])
    kept = round_.taken_cards_count          # else nobody is said to take the cards of a trick
    if not round_.play.pass_final:          # a final pass: the answer's sentence says when the trick ends
        out.append(t["trick_close" if kept else "trick_close_won"].format(n=round_.play.passes_to_close_trick))
    ooo = play.get("out_of_turn") or []
    out.append(t["out_of_turn"].format(list=", ".join(_name(rules.combination[c], lang) for c in ooo
                                                       if c in rules.combination)) if ooo else t["in_turn"])
    # the play's conditions said in words; play_is(C) names the combination
    def called(function: str, arg: str):
        if function == "play_is" and arg in rules.combination:
            return t["play_is"].format(name=_name(rules.combination[arg], lang))
        if function == "play_has" and str(arg).upper() in deck.index:
            return t["play_has"].format(name=rank_word(deck, deck.ranks[deck.index[str(arg).upper()]], lang))
        if function == "rank" and str(arg).upper() in deck.index:      # rank(8): the 8, by its place
            return rank_word(deck, deck.ranks[deck.index[str(arg).upper()]], lang)
        return None

    def place(number: str) -> str | None:    # play_rank == 13: the rank at place 13, by its name
        k = int(number) if number.isdigit() else 0
        return rank_word(deck, deck.ranks[k - 1], lang) if 1 <= k <= len(deck.ranks) else None
    speaker = Speaker(lang, calls=called, labels=spec.get("labels"))
    speaker.places = {"play_rank": place}
    if round_.play.ends_when is not None:
        cond = round_.play.ends_when.text
        until = t["until_one"] if cond.replace(" ", "") == "out_count>=players-1" else speaker.say(cond)
        out.append(t["goes_on"].format(until=until))
    else:
        out.append(t["round_end_pile"] if not kept else t["round_end"] if round_.play.last_trick_to_out
                   else t["round_end_nobody"])
    def moved(word: str, form: str) -> str:
        if word.startswith("place("):
            place = word[len("place("):-1]
            return t[form + "last"] if place == "last" else t[form + "place"].format(n=place)
        return t[form + word]
    for effect in round_.play.effects:
        always = "_always" if effect.when.text.strip() == "true" else ""     # no condition: none said
        if effect.name == "move":
            what, source, target = effect.arg
            out.append(t["effect_move"].format(when=speaker.say(effect.when.text), what=t["mv_" + what],
                                               source=moved(source, "mvs_"), target=moved(target, "mvt_")))
            continue
        if effect.name in ("add", "set"):     # a value of the file changed as the play goes
            out.append(value_effect_line(effect, lang, speaker))
            continue
        ranks = ", ".join(rank_word(deck, deck.ranks[r], lang) for r in effect.arg) if effect.name == "wish" else ""
        key = "effect_" + effect.name.split("_")[0]
        key += always if key + always in t else ""
        out.append(t[key].format(when=speaker.say(effect.when.text), ranks=ranks))
    if round_.play.must:                    # play.must: the plays narrowed, rule by rule
        out.append(t["play_must_intro"])
        for when, condition in round_.play.must:
            out.append("- " + (t["play_must_always"].format(play=speaker.say(condition.text)) if when is None else
                               t["play_must_when"].format(when=speaker.say(when.text), play=speaker.say(condition.text))))
    out += speaker.tables
    out.append("")

    # the file's names of its ranks and groups, as patterns say them ("the card Pi Ya", "from number or Hero")
    group_words = {**{rank: rank_word(deck, rank, lang) for rank in deck.ranks},
                   **{name: group_word(deck, name, lang) for name in deck.groups}}
    out += [f"## {t['combinations']}", "",
            f"| {t['col_name']} | {t['col_what']} | {t['col_example']} | {t['col_tier']} |", "|---|---|---|---|"]
    for combo in rules.combinations:
        out.append(f"| {_name(combo, lang)} | {describe_pattern(combo.pattern, lang, group_words, bool(deck.wild_colour_mask))} | {_example(rules, combo)} | {combo.tier} |")
    out += ["", f"## {t['beats']}", "", t["beats_same"]]
    words = RULE_WORDS.get(lang, RULE_WORDS["en"])
    compared = [_name(c, lang) for c in rules.combinations if c.compare_cards]
    if compared:
        out.append(words["compare_cards"].format(names=", ".join(compared)))
        # the strength of a play with attached cards puts its first part first (cardplays.py)
        parted = [_name(c, lang) for c in rules.combinations if c.compare_cards and c.attachments
                  and not c.cards_count and not c.ranked_by_highest]
        if parted:
            out.append(words["compare_parts"].format(names=", ".join(parted)))
    # which rank a play of several ranks compares by (its first part's; a chain's highest)
    ranked = [c for c in rules.combinations if not c.compare_cards and not c.cards_count]
    parts = [_name(c, lang) for c in ranked if c.attachments and not c.ranked_by_highest
             and not all(isinstance(p, Card) for p in c.pattern.parts)]
    chains = [_name(c, lang) for c in ranked if not c.attachments and isinstance(c.pattern.parts[0], Chain)
              and not c.ranked_by_highest and not c.pattern.wild]
    if parts:
        out.append(words["rank_parts"].format(names=", ".join(parts)))
    if chains:
        out.append(words["rank_chain"].format(names=", ".join(chains)))
    for tier in sorted({c.tier for c in rules.combinations}):
        out += _order_sentences([c for c in rules.combinations if c.tier == tier and c.order is not None],
                                lang, words)
    or_word = catalog(lang)["grammar"]["or"]
    for combo in rules.combinations:
        if combo.unless:
            others = or_word.join(_name(rules.combinations[i], lang) for i in combo.unless)
            # several: the list once, not repeated after "only"
            out.append(words["unless_many" if len(combo.unless) > 1 else "unless"].format(name=_name(combo, lang),
                                                                                        others=others))
    for tier in sorted({c.tier for c in rules.combinations if c.tier > 0}):
        names = ", ".join(_name(c, lang) for c in rules.combinations if c.tier == tier)
        out.append(t["beats_tier"].format(names=names, tier=tier))
    play = rules.spec.get("play") or {}
    if isinstance(play.get("first_lead"), dict):
        first = play["first_lead"]
        in_words = round_words(first.get("when"), t)
        if in_words is not None:
            out.append(words["first_lead_when"].format(When=_cap(in_words), card=card_words(deck, first.get("contains"), lang)))
        else:
            when = f" ({first['when']})" if first.get("when") is not None else ""
            out.append(words["first_lead"].format(card=card_words(deck, first.get("contains"), lang), when=when))
    if isinstance(play.get("last_card"), dict):
        last = play["last_card"]
        key = "last_card_must" if last.get("must_play", True) else "last_card_may_pass"
        out.append(words[key].format(cards=_plural(t, "n_cards", last.get("holds", 1))))
    out.append("")

    out += [f"## {t['scoring']}", ""]
    win = scoring.get("bidder_out_first") or {}
    lose = scoring.get("other_out_first") or {}
    labels = spec.get("labels")
    if win:
        out.append(t["bidder_out"].format(bidder=bidder, others=others, outcome=_outcome_of(t, win.get("bidder", 0), bf, lang, labels),
                                          others_pts=_points(win.get("others", 0), lang, labels), **bf))
        out.append(_bonuses(win.get("bonuses") or {}, rules, t, lang, role_words, other, forms))
    if lose:
        out.append(t["other_out"].format(bidder=bidder, others=others, other=other, **bf,
                                         outcome=_outcome_of(t, lose.get("bidder", 0), bf, lang, labels),
                                         others_pts=_points(lose.get("others", 0), lang, labels)))
        out.append(_bonuses(lose.get("bonuses") or {}, rules, t, lang, role_words, other, forms))
    out += scoring_lines(scoring, rules, lang, role_words, forms, lambda combo: _name(combo, lang))
    if treasures:
        out.append(t["treasure_rule" + _cards_change_sides(play)])
    out.append("")

    out += end_and_differences(spec, t, base, base_label, lang, out)
    return "\n".join(line for line in out if line is not None)


def _cards_change_sides(play: dict) -> str:
    """How the play's effects count cards for a seat that did not win them, as the ending of
    the catalog's ``treasure_rule`` says it: ``_moved`` (tricks or a hand moved as the round
    ends, ``move``), ``_given`` (a trick given away, ``trick_to``), else nothing."""
    done = [e["do"] for e in play.get("effects") or [] if isinstance(e, dict) and isinstance(e.get("do"), dict)]
    return "_moved" if any("move" in d for d in done) else "_given" if any("trick_to" in d for d in done) else ""


def _passing_of_tricks(rules, lang: str) -> list[str]:
    """A trick-taking rulebook's section on the cards handed between seats before the play
    (the passing of Hearts), or nothing."""
    t = T[lang]
    round_ = compile_round(rules)
    passed = [tr for tr in round_.transfers if tr.source == "seats"]
    if not passed:
        return []
    roles = rules.spec.get("roles") or {}
    words = {"bidder": "bidder", "others": "others", **{str(r): word(v, lang) for r, v in roles.items()}}
    forms = {r: role_forms(name, gender_of(roles.get(r), lang), lang) for r, name in words.items()}
    return [f"## {t['exchange_only']}", ""] + [_transfer_text(tr, rules, round_, t, lang, words, forms)
                                                for tr in passed] + [""]


def _calls_of_tricks(rules, lang: str) -> list[str]:
    """A trick-taking rulebook's sentences on a deal in two parts and on calls (its own sections
    say the rest)."""
    t = T[lang]
    round_ = compile_round(rules)
    spec = rules.spec

    def phase_name(name: str) -> str:
        return t.get("ph_" + name) or phase_words(spec, name, lang)
    out: list[str] = []
    two_parts = two_part_deal_line(rules, round_, t, phase_name)
    if two_parts is not None:
        out += [two_parts, ""]
    return out + calls_lines(rules, round_, t, lang, lambda value: _seat_words(value, t, deck=rules.deck, lang=lang),
                             phase_name)


def end_and_differences(spec: dict, t: dict, base=None, base_label: str | None = None, lang: str = "en",
                        before: list[str] | None = None) -> list[str]:
    """The rulebook's last sections: the end of the game, and what a house file changes in its base
    (``before``: the rulebook's lines so far, whose sentences are compared with the base's)."""
    end = spec.get("end") or {}
    out = [f"## {t['end']}", ""]
    if "when" in end:
        out.append(t["ends_when"].format(when=Speaker(lang, labels=spec.get("labels")).say(end["when"])))
    elif "rounds" in end:
        out.append(t["ends_rounds"].format(n=end["rounds"]))
    else:
        out.append(t["target"].format(target=end.get("target")))
    out.append(t["winner_lowest" if end.get("winner") == "lowest" else "winner_highest"])
    out += [t["ties_" + str(end.get("ties", "play_on"))], ""]
    if base is not None:
        out += [f"## {t['house']}", "", t["house_intro"].format(base=base_label or base.path), ""]
        if before is not None:
            base_lines = _rulebook_text(base, lang, None, None).splitlines()
            out += changed_sentences(base_lines, before + out[:-4], lang)
        diffs = diff_specs(base.spec, spec)
        if not diffs:
            out.append(t["no_diff"])
        for kind, path, old, new in diffs:
            out.append("- " + t[kind].format(path=".".join(path), old=_show(old), new=_show(new)))
        out.append("")
    return out


def _bonuses(bonuses: dict, rules, t: dict, lang: str, roles: dict, other: str, forms: dict) -> str:
    items = []
    for entry in bonuses.values():
        if not isinstance(entry, dict):
            continue
        to = str(entry.get("to", "bidder"))
        whom = (t["to_" + to].format(bidder=roles.get("bidder"), others=roles.get("others"), **forms.get("bidder", {}))
                if "to_" + to in t else t["to_role"].format(role=roles.get(to, to), **forms.get(to, {})))
        count = str(entry.get("count", ""))
        if entry.get("combination") in rules.combination:
            items.append(t["bonus_combo"].format(points=entry.get("points"), to=whom,
                                                 name=_name(rules.combination[entry["combination"]], lang)))
        elif "".join(count.split()) == "idle(others)>0":
            items.append(t["bonus_idle"].format(points=entry.get("points"), to=whom, other=other, others=roles.get("others")))
        else:
            items.append(t["bonus_count"].format(points=entry.get("points"), to=whom, count=Speaker(lang, labels=rules.spec.get("labels")).say(count)))
    return t["bonuses"].format(list=t["semi"].join(items)) if items else t["no_bonus"]


def _outcome_of(t: dict, value, bf: dict | None = None, lang: str = "en", labels: dict | None = None) -> str:
    """What the bidder scores in one outcome: ``{times_bid: K}``, a number or an expression."""
    if isinstance(value, dict):
        return _outcome(t, value.get("times_bid", 0), bf)
    if not value:
        return t["nothing"]
    return t["outcome_expr"].format(expr=Speaker(lang, labels=labels).say(value))


def _points(value, lang: str = "en", labels: dict | None = None) -> str:
    """Points written in the file: a number as it is, an expression in words."""
    return str(value) if isinstance(value, (int, float)) else Speaker(lang, labels=labels).say(value)


def _transfer_text(transfer, rules, round_, t: dict, lang: str, roles: dict, forms: dict) -> str:
    """One transfer of the round in words: the nest taken, an exchange, or cards handed over."""
    section = rules.spec
    for step in path_of(rules.spec, transfer.name):
        section = section.get(step) or {}
    n = round_.deal.nest
    if transfer.source == "nest":
        to = section.get("to", "bidder")
        if to == "bidder":
            text = t["nest_to"].format(bidder=roles["bidder"], n=n, **forms.get("bidder", {}))
        else:
            who = _cap(_seat_words(to, t, roles, forms, rules.deck, lang))
            text = set_off(t["nest_to_seat"].format(who=who, n=n), who, lang)
        if transfer.shown:           # the sentence says it is not shown: say what happens instead
            text = text.rsplit(";", 1)[0].rstrip() + ". " + t["nest_shown"]
        return text
    by_bid = t["semi"].join(t["exchange_item"].format(cards=_plural(t, "n_cards", k), bid=b)
                       for b, k in transfer.count_by_bid.items())
    if transfer.givers == "others" and transfer.to == "next" and transfer.when is None and transfer.choose == "player":
        manner = t["m_" + ("shown" if transfer.shown else "secret") + "_" + ("sim" if transfer.simultaneous else "turn")]
        if transfer.count is None:
            return t["exchange_counts"].format(others=roles["others"], manner=manner, list=by_bid)
        return t["exchange_count"].format(others=roles["others"], manner=manner,
                                          cards=_plural(t, "n_cards", transfer.count))
    givers = section.get("from", section.get("between", "others"))
    to_seat = section.get("to")
    in_words = round_words(section.get("when"), t)
    if played_before(transfer.when, round_.players, round_.bidding):
        # the previous round's seats always exist then: their fallbacks are never read
        givers, to_seat = _without_fallback(givers), _without_fallback(to_seat)
    who = (t["givers_each"] if transfer.givers == "each" else
           t["givers_role"].format(role=roles.get(givers, givers)) if isinstance(transfer.givers, str)
           else _seat_words(givers, t, roles, forms, rules.deck, lang))
    to = (t["to_next"] if transfer.to == "next" else t["to_each_other"] if transfer.to == "each_other"
          else _directions(transfer.to, t) if isinstance(transfer.to, tuple)
          else _seat_words(to_seat, t, roles, forms, rules.deck, lang))
    cards = _plural(t, "n_cards", transfer.count) if transfer.count is not None else by_bid
    when = ("" if transfer.when is None else t["when_words"].format(when=_cap(in_words)) if in_words is not None
            else t["when"].format(when=Speaker(lang).say(section["when"])))
    one = "_1" if transfer.count == 1 else ""          # one card: "it", not "them"
    text = _cap(t["transfer"].format(when=when, givers=who, cards=cards, to=to, choice=t["ch_" + transfer.choose + one],
                                     seen=t[("t_shown" if transfer.shown else "t_secret") + one]))
    return set_off(set_off(text, who, lang), to, lang)


def _directions(directions: tuple, t: dict) -> str:
    """``to: left`` or ``to: {by_round: [left, right, across, none]}`` in words."""
    def one(direction: str) -> str:
        return t["dir_none" if direction == "none" else "to_" + direction]
    if len(directions) == 1:
        return one(directions[0])
    return t["to_by_round"].format(n=len(directions), list=t["semi"].join(
        t["by_round_item"].format(k=k, to=one(d)) for k, d in enumerate(directions, start=1)))


def _without_fallback(value):
    """A seat list whose first seat is one of the previous round's, as that seat alone."""
    if isinstance(value, list) and value and isinstance(value[0], str) and value[0].startswith("previous_round."):
        return value[0]
    return value


def _show(value) -> str:
    if isinstance(value, dict) and "pattern" in value:
        return f"`{value['pattern']}`"
    if isinstance(value, str):
        return f"`{value}`"
    # as YAML writes it: true/false/null, flow lists and mappings
    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=1_000_000).strip()
    if text.endswith("\n..."):
        text = text[:-4].strip()
    return f"`{text}`"


def diff_specs(old, new, path: tuple = ()) -> list[tuple[str, tuple, object, object]]:
    """Every difference between two merged variant documents: (kind, path, old, new)."""
    if isinstance(old, dict) and isinstance(new, dict):
        out: list[tuple[str, tuple, object, object]] = []
        for key in list(old) + [k for k in new if k not in old]:
            if key in ("extends", "name", "titles") or (not path and key == "labels"):
                continue                # names and words, no rule: not a difference of the game
            if key not in new:
                out.append(("removed", path + (str(key),), old[key], None))
            elif key not in old:
                out.append(("added", path + (str(key),), None, new[key]))
            else:
                out.extend(diff_specs(old[key], new[key], path + (str(key),)))
        return out
    if old != new:
        return [("changed", path, old, new)]
    return []


def base_of(path) -> Path | None:
    """The file that the variant at ``path`` extends (absolute), or None (the loader reads it)."""
    from ..variant import base_of as loader_base_of
    return loader_base_of(path)
