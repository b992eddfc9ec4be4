"""Expressions said in words from their parse tree (chimera_dsl/tell/say.py), in any catalog's
language: the shapes a scoring file writes become sentences and tables, never code."""
from __future__ import annotations

import pytest

from chimera_dsl.tell.say import Speaker, picked_by


def test_a_step_becomes_a_table_of_ranges_named_in_the_sentence():
    speaker = Speaker("en")
    said = speaker.say("cards_left * step(cards_left, 7: 1, 8: 2, 13: 3, else: 5)")
    assert said == "the cards left in hand × the value of table 1 for the cards left in hand"
    table = "\n".join(speaker.take_tables())
    assert "| Up to 7 | 1 |\n| 8 | 2 |\n| 9 to 13 | 3 |\n| More than 13 | 5 |" in table
    assert speaker.take_tables() == []                    # taken once
    assert speaker.say("step(x, 0.5: 1, 2: 3)") == "the value of table 2 for *x*"   # numbered on
    assert "| More than 0.5, up to 2 | 3 |" in "\n".join(speaker.take_tables())


@pytest.mark.parametrize("lang, text, said", [
    ("en", "if made == 1 then bonus else -10 * short", "*bonus* if *made* is 1, otherwise −10 × *short*"),
    ("fr", "if made == 1 then bonus else -10 * short", "*bonus* si *made* vaut 1, sinon −10 × *short*"),
    ("de", "min(bid, count_at_most(needed_by_bid, points))",
     "der kleinste dieser Werte: das Gebot und wie viele Einträge von *needed by bid* höchstens *points* sind"),
    ("it", "bid * 2 ^ (a + b)", "l'offerta × 2 elevato a (*a* + *b*)"),
    ("en", "a and b or not c", "(*a* and *b*) or (not *c*)"),
    ("en", "(a + b) * c - d / e", "(*a* + *b*) × *c* − *d* ÷ *e*"),
    ("en", "at(needed, bid) >= 3", "the entry of *needed* for the bid is at least 3"),
    ("en", "count(bomb) + sum_others(paid)", "the plays of *bomb* this round + the *paid* of every other player, added up"),
    ("en", -5, "−5"),
    ("en", "if won then", "if won then"),                  # the loader refuses it: said as written
])
def test_expression_shapes_in_words(lang, text, said):
    assert Speaker(lang).say(text) == said


def test_a_list_is_a_table_of_its_positions():
    lines = Speaker("en").list_table("needed_by_bid", [24, 27, 30])
    assert "| position | 1 | 2 | 3 |" in lines and "| *needed by bid*, by position | 24 | 27 | 30 |" in lines
    by_bid = Speaker("en").list_table("needed_by_bid", [24, 27, 30], picked_by(["at(needed_by_bid, bid) + 1"], "needed_by_bid"))
    assert "| The bid | 1 | 2 | 3 |" in by_bid
    assert picked_by(["at(l, bid)", "at(l, round)"], "l") is None


def test_a_caller_names_the_engine_functions_in_its_own_words():
    speaker = Speaker("en", calls=lambda function, arg: f"the {arg}s played" if function == "count" else None)
    assert speaker.say("count(bomb) * 2") == "the bombs played × 2"


def test_a_choice_inside_a_then_branch_is_bracketed():
    """``if A then (if B then x else y) else z`` read as "x if B, otherwise y if A, otherwise z"
    said the otherwise of the inner choice as the outer's: the inner choice is bracketed."""
    from chimera_dsl.tell.say import Speaker
    said = Speaker("en").say("if own_bid == 0 then (if tricks_taken == 0 then 100 else -100) else 0")
    assert said == "(100 if the tricks taken are 0, otherwise −100) if the player's bid is 0, otherwise 0"
