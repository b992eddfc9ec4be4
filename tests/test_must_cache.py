"""play.must keeps, per what a rule reads of the table, the cards it accepts: the cards it
leaves must be those a rule read card by card leaves, on any hand, trick and cards played."""
import os
import random

from hypothesis import given, settings, strategies as st

from chimera_dsl import load_variant
from chimera_dsl.engine.phases.constraints import Narrower, compile_must

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DECK = load_variant(os.path.join(ROOT, "variants/others/hearts.yaml")).deck
POINTS = tuple(13 if name.upper() == "Q/SPADES" else 1 if name.endswith("/hearts") else 0
               for name in DECK.card_names)
RULES = compile_must(DECK, ("play", "must"), [
    {"when": "leading", "play": "played_colour(hearts) > 0 or played_card(q, spades) > 0 or "
                                "not play_has_colour(hearts)"},
    {"play": "held_colour(spades) < 4 or play_has_colour(spades) or held_card(a, clubs) > 0"},
    {"when": "trick > 1", "play": "play_points < 2 or trick + held > 15 or played_colour(clubs) >= 3"},
])
ALL = (1 << len(DECK.cards)) - 1


def by_card(legal: int, held: int, played: int, trick: int, leading: bool) -> int:
    """The rules read one card at a time, every name given."""
    for rule in RULES:
        base = {"trick": trick, "leading": leading, "held": held.bit_count(), "round": 1, "players": 4,
                "_held": held, "_played": played, "led_trump": False, "can_follow": False,
                "partner_winning": False, "_trumps": 0, "_wins": 0, "play_trump": False, "play_wins": False,
                "_play": 0, "play_points": 0}
        if rule.when is not None and not rule.when.evaluate(base):
            continue
        kept = 0
        for c in range(len(DECK.cards)):
            if legal >> c & 1 and rule.play.evaluate({**base, "_play": 1 << c, "play_points": POINTS[c]}):
                kept |= 1 << c
        if kept:
            legal = kept
    return legal


NARROWER = Narrower(RULES, 4)


def random_table(rng: random.Random) -> tuple:
    """A hand, the cards played, the hand's cards that following allows, the trick and the lead."""
    cards = list(range(len(DECK.cards)))
    rng.shuffle(cards)
    held = sum(1 << c for c in cards[:rng.randint(1, 13)])
    played = sum(1 << c for c in cards[13:13 + rng.randint(0, 39)])
    legal = held & (rng.getrandbits(len(DECK.cards)) | (1 << (held.bit_length() - 1)))
    return held, played, legal, rng.randint(1, 13), rng.random() < 0.5


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2 ** 32 - 1))
def test_the_cards_kept_are_those_read_card_by_card(seed):
    held, played, legal, trick, leading = random_table(random.Random(seed))
    expected = by_card(legal, held, played, trick, leading)
    assert NARROWER.narrow(legal, held, played, trick, leading, 1, POINTS, "key") == expected
    # and again, from what the narrower kept of the first time
    assert NARROWER.narrow(legal, held, played, trick, leading, 1, POINTS, "key") == expected


# every rule with a condition on the table's plain names: what play_legal reads without a call
RULES_WHEN = compile_must(DECK, ("play", "must"), [
    {"when": "leading", "play": "played_colour(hearts) > 0 or played_card(q, spades) > 0 or "
                                "not play_has_colour(hearts)"},
    {"when": "trick >= 1", "play": "held_colour(spades) < 4 or play_has_colour(spades) or held_card(a, clubs) > 0"},
    {"when": "trick > 1", "play": "play_points < 2 or trick + held > 15 or played_colour(clubs) >= 3"},
    {"when": "trick == 1 and leading", "play": "play_has_card(2, clubs)"},
])


def test_the_kept_answers_read_without_gathering_are_the_rules_answers():
    narrower = Narrower(RULES_WHEN, 4)
    assert narrower.by_turn is not None        # the conditions read the trick and the lead alone
    rng = random.Random(7)
    known = 0
    for _ in range(600):
        held, played, legal, trick, leading = random_table(rng)
        holding = narrower.holding(trick, leading, 1, held)
        expected = narrower.narrow(legal, held, played, trick, leading, 1, POINTS, "key", None, holding)
        kept = narrower.narrow_kept(legal, held, played, trick, leading, 1, "key", holding)
        assert kept is None or kept == expected
        known += kept is not None
        # once narrow has read this table, every answer it needs is kept
        assert narrower.narrow_kept(legal, held, played, trick, leading, 1, "key", holding) == expected
    assert known > 100


def test_a_rule_reading_the_trick_is_not_answered_from_kept_masks():
    rules = compile_must(DECK, ("play", "must"), [{"when": "not leading", "play": "play_wins or not can_follow"}])
    narrower = Narrower(rules, 4)
    assert narrower.narrow_kept(1, 1, 0, 2, False, 1, "key", 1) is None


def test_the_trick_from_which_a_seat_that_follows_is_free_of_the_rules():
    """play_legal reads no rule for a seat that follows from this trick on."""
    def free(rules):
        return Narrower(compile_must(DECK, ("play", "must"), rules), 4).free_following_from(13)
    assert free([{"when": "leading", "play": "not play_has_colour(hearts)"}]) == 1          # a lead rule only
    assert free([{"when": "trick == 1 and leading", "play": "play_has_card(2, clubs)"},
                 {"when": "trick == 1", "play": "not play_has_colour(hearts)"},
                 {"when": "leading", "play": "not play_has_colour(hearts)"}]) == 2           # the first trick
    assert free([{"when": "trick <= 3 or trick == 7", "play": "not play_has_colour(hearts)"}]) == 8
    assert free([{"when": "held > 2", "play": "not play_has_colour(hearts)"}]) == 14        # reads the hand: always read
    assert free([{"play": "not play_has_colour(hearts)"}]) == 14                             # no condition: always
