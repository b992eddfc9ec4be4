"""The web table's words by language: the ``page`` section of each catalog
(``chimera_dsl/tell/locales/LANG.json``), for the page (``/api/words``) and for what the
server says to people (the table's notices, the refusals a person meets).

A page asks for a language with ``?lang=LANG`` in its address; without it, the server picks
the first of the browser's languages (its ``Accept-Language`` header) that has a catalog, else
its own (``chimera serve --lang``).
"""
from __future__ import annotations

from typing import Any

from ..tell.catalog import Section, languages
from ..tell.printer import say

PAGE = Section("page")
PLAYER = Section("player")
COLOURS = Section("colours")


def page_words(lang: str, key: str, n: int | None = None, **fields) -> str:
    """The sentence ``key`` of the ``page`` section in ``lang`` (English where it has no catalog)."""
    return say(PAGE[lang if lang in languages() else "en"], key, n, **fields)


def words_for_page(lang: str) -> dict[str, Any]:
    """Everything the page writes in ``lang``: the ``page`` section, the phases' names (the
    ``player`` section's) and the deck's colours (the rulebook's)."""
    lang = lang if lang in languages() else "en"
    return {**PAGE[lang], "phases": dict(PLAYER[lang].get("phases") or {}),
            "colours": dict(COLOURS[lang] if lang in COLOURS else {})}


def pick_language(asked: str | None, accept: str | None, default: str) -> str:
    """The language of a page: ``asked`` (its ``?lang=``) if a catalog has it, else the first
    of the browser's ``accept`` (``Accept-Language``: ``de-CH,de;q=0.9,en;q=0.8``), by its
    weight, that one has, else ``default``."""
    known = languages()
    if asked and asked.lower() in known:
        return asked.lower()
    wanted = []
    for i, part in enumerate((accept or "").split(",")):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        code = tag.strip().lower().split("-")[0]
        if code and weight > 0:
            wanted.append((-weight, i, code))
    for _, _, code in sorted(wanted):
        if code in known:
            return code
    return default if default in known else "en"


class Said(ValueError):
    """A refusal a person meets, said in each page's language: the sentence ``key`` of the
    ``page`` section with ``fields``; ``str()`` is the English sentence."""

    def __init__(self, key: str, **fields):
        super().__init__(page_words("en", key, **fields))
        self.key = key
        self.fields = fields

    def said(self, lang: str) -> str:
        return page_words(lang, self.key, **self.fields)
