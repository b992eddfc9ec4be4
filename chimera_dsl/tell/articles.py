"""The words of a rulebook in each language: the file's own words (roles, cards, colours, groups
of ranks) as the language says them, the words that agree with a role's gender, and the commas
of German clauses.

A variant file names its roles per language (``bidder: {fr: propriétaire, de: Grundbesitzer}``)
and may give their grammatical gender per language (``gender: {fr: masculine, de: masculine}``,
masculine when left out).  The rulebook's sentences then take the article, the pronoun and the
possessive that agree with it: "le propriétaire", "au propriétaire", "la Chimère", "à la
Chimère"; "der Grundbesitzer", "für den Grundbesitzer", "die Chimäre".
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .catalog import Section, catalog

GENDERS = ("masculine", "feminine", "neuter")
DEFAULT_GENDER = "masculine"

# Per language and gender, each form of a role's name ("{x}" is the name) and the words that
# refer back to it.  the: the name as a subject; to: after "to" (French "à", which merges
# with the article); acc: German accusative (after "für"); dat: German dative (after "nach");
# pron: the pronoun; poss / poss_gen: the possessive before a neuter noun (German: "sein
# Gebot", genitive "seines Gebots"); first: French "the first" agreeing with the role; no: "no"
# before it, as an object ("keinen Chef", "pas de chef").
_FORMS: Mapping[str, dict[str, dict[str, str]]] = Section("forms")
_COLOURS: Mapping[str, dict[str, str]] = Section("colours")
# French elides le / la before a vowel or a mute h: "l'empereur", "à l'empereur" (the catalog's
# ``elision``: the first letters that elide, and the forms then).
_ELISION: Mapping[str, dict[str, Any]] = Section("elision")



def gender_of(value, lang: str) -> str:
    """The gender a role's names give for ``lang`` (``gender: {de: feminine}``), else masculine."""
    if isinstance(value, dict) and isinstance(value.get("gender"), dict):
        given = value["gender"].get(lang)
        if given in GENDERS:
            return str(given)
    return DEFAULT_GENDER


def role_forms(name: str, gender: str, lang: str, prefix: str = "role") -> dict[str, str]:
    """Every form of a role's ``name`` in ``lang`` as template fields: ``{prefix}_the`` ("der
    Grundbesitzer"), ``{Prefix}_the`` (capitalised, to begin a sentence), ``{prefix}_to``,
    ``_acc``, ``_dat``, ``_pron``, ``_poss``, ``_poss_gen`` and ``_first``."""
    by_gender = _FORMS.get(lang, _FORMS["en"])
    forms = dict(by_gender.get(gender) or by_gender.get(DEFAULT_GENDER) or next(iter(by_gender.values())))
    elision = _ELISION.get(lang) or {}
    if elision.get("before") and name[:1].lower() in elision["before"]:
        forms.update(elision.get("forms_" + gender, elision.get("forms")) or {})     # a plural: its own, or none
    out = {}
    for key, form in forms.items():
        text = form.format(x=name)
        out[f"{prefix}_{key}"] = text
        out[f"{prefix.capitalize()}_{key}"] = text[:1].upper() + text[1:]
    return out


def needs_commas(phrase: str, lang: str) -> bool:
    """Is a German seat phrase a clause ("wer zuerst gepasst hat") or a list of alternatives
    ("..., sonst der Geber")?  Then the sentence sets it off with commas."""
    if lang not in GLOSSARY or not catalog(lang)["grammar"]["clause_commas"]:
        return False
    low = phrase.lower()
    starts = tuple(catalog(lang)["grammar"].get("clause_words") or ())
    return bool(starts) and (low.startswith(starts) or any(" " + w in low for w in starts)) or ", " in phrase


def set_off(line: str, phrase: str, lang: str) -> str:
    """``line`` with the German clause ``phrase`` set off by commas where the main clause goes
    on around it: "danach gibt, wer ... hat, die nächste Runde"; "Wer ... hat, eröffnet".
    Nothing changes at the start of a sentence or after a colon or a bracket (before the
    phrase), nor before a full stop, a semicolon or a bracket (after it)."""
    if not needs_commas(phrase, lang):
        return line
    for shown in (phrase, phrase[:1].upper() + phrase[1:]):
        start = line.find(shown)
        if start < 0:
            continue
        end = start + len(shown)
        before, after = line[:start], line[end:]
        if before.endswith(" ") and not before.rstrip().endswith((":", "(", ".")) and before.strip():
            before = before[:-1] + ", "
        if after.startswith(" ") and after[1:2].isalnum() or after.startswith(" `"):
            after = "," + after
        return before + shown + after
    return line


def contracted(text: str, lang: str) -> str:
    """``text`` with a preposition and the article after it merged as ``lang`` merges them (the
    catalog's ``grammar.contractions``: French "à le nombre" -> "au nombre", Italian "di il capo"
    -> "del capo"), where a sentence's preposition meets a phrase put in after it; a capital stays."""
    contractions = catalog(lang)["grammar"].get("contractions") if lang in GLOSSARY else None
    if not contractions:
        return text
    merged = {k.lower(): v for k, v in contractions.items()}
    # re caches the compiled pattern: the same catalog gives the same text
    pattern = re.compile(r"(?<![^\W\d_])(?:" + "|".join(re.escape(k) for k in sorted(merged, key=len, reverse=True))
                         + ")", re.IGNORECASE)

    def merge(match: re.Match) -> str:
        found = match.group(0)
        into = merged[found.lower()]
        return into[:1].upper() + into[1:] if found[:1].isupper() else into
    return pattern.sub(merge, text)


# Words that variant files write in English (role names, card names, colours, rank groups),
# as each language's rulebook says them.  A variant may also give a word by language itself:
# `bidder: {en: declarer, fr: déclarant}`; words found in neither are printed as written.
GLOSSARY: Mapping[str, dict[str, str]] = Section("glossary")


def word(value, lang: str) -> str:
    """A word of the variant file in ``lang``: its own translation, the glossary's, or as written."""
    if isinstance(value, dict):
        names = [v for k, v in value.items() if k != "gender" and isinstance(v, str)]
        return str(value.get(lang) or value.get("en") or next(iter(names), ""))
    text = str(value)
    return GLOSSARY.get(lang, {}).get(text, text)


def singular(plural: str) -> str:
    """One of a group the file names in the plural (``defenders``, ``défenseurs``; ``Gegner``)."""
    return plural[:-1] if plural.endswith("s") and len(plural) > 1 else plural


def rank_word(deck, rank: str, lang: str) -> str:
    """The long name of ``rank`` in ``lang``, from the file's ``deck.names``.

    A name given per language (``{en: jack, fr: valet}``) that leaves ``lang`` out gives the
    rank as the file writes it (``J``), never another language's word; a single name is the
    file's word (translated by the glossary when it knows it); a rank without a name is itself.
    """
    name = deck.names.get(rank)
    if name is None:
        return rank
    if isinstance(name, dict):
        return name.get(lang) or rank
    return word(name, lang)


def colour_word(deck, colour: str, lang: str) -> str:
    """What ``lang`` calls a colour of the deck: the file's name for it in ``deck.names``
    (``coins: {en: coins, it: denari}``), else the catalog's (its ``colours`` section), else the
    glossary's word, else the colour as the file writes it."""
    name = deck.names.get(colour) if deck is not None else None
    if isinstance(name, dict) and name.get(lang):
        return str(name[lang])
    if isinstance(name, str):
        return word(name, lang)
    known = _COLOURS[lang] if lang in _COLOURS else {}
    return str(known.get(colour) or word(colour, lang))


def rank_gender(rank: str, lang: str) -> str:
    """The gender of a rank's word in ``lang`` (the grammar's ``genders``: "dame" feminine; a
    number ``number_gender``; else masculine), which a card said by it takes."""
    grammar = catalog(lang)["grammar"] if lang in GLOSSARY else {}
    if rank[:1].isdigit():
        return grammar.get("number_gender") or DEFAULT_GENDER
    return (grammar.get("genders") or {}).get(rank.lower(), DEFAULT_GENDER)


def card_phrase(template: str, rank: str, colour: str, lang: str) -> str:
    """A card said by a catalog's ``card`` template (``{the}{rank} de {colour}``), its article
    agreeing with the rank's word: the grammar's ``card_articles`` by the word's gender
    (``genders``: "dame" feminine; a number ``number_gender``; else masculine), elided before a
    vowel where the language elides (``card_vowels``: "l'as de pique", "l'asso di picche")."""
    grammar = catalog(lang)["grammar"] if lang in GLOSSARY else {}
    articles = grammar.get("card_articles") or {}
    said = str(rank)
    the = articles.get(rank_gender(said, lang)) or articles.get(DEFAULT_GENDER, "")
    if articles.get("vowel") and said.lower().startswith(tuple(grammar.get("card_vowels") or ())):
        the = articles["vowel"]
    return template.format(the=the, rank=said, colour=colour)


def group_word(deck, group: str, lang: str) -> str:
    """What ``lang`` calls a group of ranks: the file's name for it in ``deck.names``
    (``plain: {en: plain, de: Normalkarten}``), else the glossary's word, else its id."""
    name = deck.names.get(group)
    if isinstance(name, dict) and name.get(lang):
        return str(name[lang])
    return word(group if isinstance(name, dict) or name is None else name, lang)


def title_of(rules, lang: str) -> str:
    """The variant's name in ``lang``: the file's ``titles``, else its ``name``."""
    titles = rules.spec.get("titles") or {}
    return str(titles.get(lang) or rules.name)
