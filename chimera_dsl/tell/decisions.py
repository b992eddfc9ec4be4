"""A trick-taking decision in the words of a language, for the terminal player and the web table.

:func:`~chimera_dsl.tell.wording.trick_action_text` says a decision in English, as the record
names it (``hearts``, ``no trump``, ``partner seat 2``); :func:`trick_words` says it with the
``player`` section of a catalog (``cœur``, ``sans atout``, ``partenaire : la place 2``), and in
English exactly as ``trick_action_text`` does.
"""
from __future__ import annotations

from typing import Sequence

from .articles import colour_word
from .catalog import Section
from .printer import say
from .wording import trick_action_fields, trick_action_text

PLAYER = Section("player")


def trick_words(rules, action, trumps: Sequence = (), kind: str | None = None, lang: str = "en") -> str:
    """A trick-taking decision in ``lang``: a trump by its colour's name, no trump, the pass of
    the choice to the partner, a partner's seat, the seat a trick is given to, a lay."""
    if lang == "en" or lang not in PLAYER:
        return trick_action_text(rules, action, trumps, kind)
    words = PLAYER[lang]
    fields = trick_action_fields(rules, action, trumps, kind)
    if "trump" in fields:
        if fields["trump"] is None:
            return say(words, "trump_to_partner")
        return say(words, "no_trump") if fields["trump"] == "none" else colour_word(rules.deck, fields["trump"], lang)
    if "partner" in fields:
        return say(words, "partner_seat", seat=fields["partner"])
    if "given_to" in fields:
        return say(words, "give_trick", seat=fields["given_to"])
    if action.kind == "lay" and "cards" in fields:
        return say(words, "lay_cards", cards=" ".join(fields["cards"]))
    if "alone" in fields and "typed_alone" in words:
        return say(words, "typed_alone")
    return trick_action_text(rules, action, trumps, kind)
