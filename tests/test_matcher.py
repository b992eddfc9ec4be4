"""The matcher against RULINGS.md's table "The 14 combinations", the rulebooks' examples,
an independent brute-force oracle (tests/oracle.py) and the perft counts in tests/perft.json.

Everything goes through the public API: ``chimera_dsl.load_variant(...)`` and the rules'
``classify`` / ``beats`` / ``legal_plays`` (and the packed ``leads`` / ``answers``).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chimera_dsl
from chimera_dsl.cards import contains, size_of
from chimera_dsl.rules import Rules

sys.path.insert(0, str(Path(__file__).parent))
import oracle  # noqa: E402  (the independent reference implementation next to this file)

ROOT = Path(__file__).resolve().parents[1]
OFFICIAL = ROOT / "variants" / "chimera.yaml"
PERFT = Path(__file__).with_name("perft.json")


RULES = chimera_dsl.load_variant(OFFICIAL)     # for hypothesis tests (fixtures do not mix with @given)


def readings(rules, cards) -> set[tuple[str, int]]:
    return {(p.combination, p.rank) for p in rules.classify(cards)}


def as_tuples(plays) -> set[tuple[tuple[str, ...], str, int]]:
    return {(tuple(p.cards), p.combination, p.rank) for p in plays}


# --- every row of the table: the exact readings of a set of cards -----------------------------
# (cards, every reading as (combination, rank), the rule of RULINGS.md the row checks)
READINGS = [
    # 1 single: any card; 1..12 < H < P < C
    ("1", {("single", 1)}, "a number is a single"),
    ("12", {("single", 12)}, "the highest number"),
    ("H", {("single", 13)}, "a Hero is a single, above 12"),
    ("P", {("single", 14)}, "the Pi Ya alone is a single, above H"),
    ("C", {("single", 15)}, "the Chimera alone is the highest single"),
    # 2 pair: numbers or H
    ("1 1", {("pair", 1)}, "lowest pair"),
    ("12 12", {("pair", 12)}, "pair of 12"),
    ("H H", {("pair", 13)}, "H-H is the highest pair"),
    ("P C", {("flight", 15)}, "P and C are never a pair, only the flight"),
    ("7 8", set(), "two ranks are no pair"),
    # 3 pair chain: 3+ consecutive pairs of numbers, ranked by the top pair
    ("3 3 4 4 5 5", {("pair_chain", 5)}, "three consecutive pairs"),
    ("10 10 11 11 12 12", {("pair_chain", 12)}, "a pair chain may end at 12"),
    ("1 1 2 2 3 3 4 4 5 5 6 6 7 7 8 8 9 9 10 10", {("pair_chain", 10)}, "ten pairs: 20 cards"),
    ("3 3 4 4", set(), "two pairs are not a chain"),
    ("3 3 4 4 6 6", set(), "pairs must be consecutive"),
    ("11 11 12 12 H H", set(), "H is not a number: no chain"),
    ("12 12 1 1 2 2", set(), "chains do not wrap round from 12 to 1"),
    ("3 3 4 4 5 5 5", set(), "each unit is exactly a pair"),
    # 4 trio: numbers or H
    ("1 1 1", {("trio", 1)}, "lowest trio"),
    ("H H H", {("trio", 13)}, "H-H-H is the highest trio"),
    # 5 trio chain: 2+ consecutive trios of numbers
    ("3 3 3 4 4 4", {("trio_chain", 4)}, "two consecutive trios"),
    ("5 5 5 6 6 6 7 7 7", {("trio_chain", 7)}, "three trios"),
    ("11 11 11 12 12 12", {("trio_chain", 12)}, "a trio chain may end at 12"),
    ("12 12 12 H H H", set(), "H is not a number: no trio chain"),
    ("3 3 3 5 5 5", set(), "trios must be consecutive"),
    ("3 3 3 4 4 4 5 5 5 6 6 6", {("trio_chain", 6)},
     "four trios: a trio chain, not three trios with the fourth trio as their singles (singles differ)"),
    # 6 trio + single: trio of numbers or H, a single of another rank, H/P/C allowed
    ("7 7 7 5", {("trio_single", 7)}, "rulebooks: 7-7-7-5"),
    ("1 1 1 6", {("trio_single", 1)}, "rulebooks: 1-1-1-6"),
    ("7 7 7 H", {("trio_single", 7)}, "the single may be a Hero"),
    ("7 7 7 P", {("trio_single", 7)}, "the single may be the Pi Ya"),
    ("7 7 7 C", {("trio_single", 7)}, "the single may be the Chimera"),
    ("H H H 2", {("trio_single", 13)}, "a trio of Heroes"),
    ("H H H P", {("trio_single", 13)}, "trio of Heroes with the Pi Ya"),
    ("7 7 7 7", {("bomb", 7)}, "the single is of another rank: four of a kind is a bomb only"),
    # 7 full: trio of numbers or H + pair of numbers or H, another rank, never P/C
    ("8 8 8 H H", {("trio_pair", 8)}, "rulebooks: 8-8-8-H-H"),
    ("9 9 9 11 11", {("trio_pair", 9)}, "rulebooks: 9-9-9-11-11"),
    ("5 5 5 12 12", {("trio_pair", 5)}, "rulebooks: 5-5-5-12-12"),
    ("3 3 H H H", {("trio_pair", 13)}, "trio of Heroes with a pair of numbers"),
    ("7 7 7 P C", set(), "P and C are never a pair, not even attached"),
    ("7 7 7 8 9", set(), "the pair must be a pair"),
    # 8 trio chain + singles: trios of numbers; singles all different, none of a trio's rank,
    #   H/P/C allowed, never P and C together
    ("1 1 1 6 2 2 2 12", {("trio_chain_singles", 2)}, "rulebooks: 1-1-1-6 + 2-2-2-12"),
    ("3 3 3 4 4 4 H P", {("trio_chain_singles", 4)}, "H and P may be attached"),
    ("3 3 3 4 4 4 H C", {("trio_chain_singles", 4)}, "H and C may be attached"),
    ("3 3 3 4 4 4 P C", set(), "never P and C together"),
    ("3 3 3 4 4 4 9 9", set(), "the singles must all be different"),
    ("3 3 3 4 4 4 4 5", set(), "no single of a trio's rank"),
    ("3 3 3 4 4 4 5 5 5 6 7 8", {("trio_chain_singles", 5)}, "three trios, three singles"),
    ("3 3 3 4 4 4 5 5 5 H H H", set(), "three Heroes are not three different singles"),
    ("H H H 1 1 1 5 6", set(), "no trio of Heroes in a chain"),
    # 9 trio chain + pairs (chain of fulls): pairs of different ranks, numbers or H
    ("6 6 6 10 10 7 7 7 H H", {("trio_chain_pairs", 7)}, "rulebooks: 6-6-6-10-10 + 7-7-7-H-H"),
    ("3 3 3 4 4 4 2 2 12 12", {("trio_chain_pairs", 4)}, "only the trios must follow each other"),
    ("3 3 3 4 4 4 5 5 5 6 6 7 7 8 8", {("trio_chain_pairs", 5)}, "three fulls"),
    ("3 3 3 4 4 4 9 9 9 9", set(), "the pairs must be of different ranks"),
    ("H H H 12 12 12 1 1 2 2", set(), "no trio of Heroes in a chain"),
    # 10 straight: 5..12 consecutive numbers; P replaces any one value 1-12, anywhere
    ("1 2 3 4 5", {("straight", 5)}, "the lowest straight"),
    ("8 9 10 11 12", {("straight", 12)}, "German rulebook: 8-9-10-11-12"),
    ("8 9 10 P 12", {("straight", 12)}, "rulebooks: 8-9-10-Pi Ya-12, P inside"),
    ("P 2 3 4 5", {("straight", 5), ("straight", 6)}, "P at either end: 1-5 or 2-6"),
    ("3 4 5 6 P", {("straight", 6), ("straight", 7)}, "P below or above"),
    ("1 2 3 4 P", {("straight", 5)}, "nothing below 1: P is the 5"),
    ("P 9 10 11 12", {("straight", 12)}, "nothing above 12: P is the 8"),
    ("1 2 3 4 5 6 7 8 9 10 11 12", {("straight", 12)}, "the longest straight: 12 cards"),
    ("1 2 3 4 5 6 7 8 9 10 11 P", {("straight", 12)}, "P as the 12 of a 12-card straight"),
    ("P 2 3 4 5 6 7 8 9 10 11 12", {("straight", 12)}, "P as the 1 of a 12-card straight"),
    ("1 2 3 4", set(), "at least 5 cards"),
    ("1 2 3 P", set(), "at least 5 cards, P included"),
    ("H 1 2 3 4", set(), "H is not a number: no straight"),
    ("10 11 12 H P", set(), "H never continues a straight"),
    ("C 1 2 3 4", set(), "the Chimera never joins a straight"),
    ("P C 1 2 3", set(), "P and C only ever form the flight"),
    ("11 12 1 2 3", set(), "straights do not wrap round"),
    ("1 2 3 4 6", set(), "a gap without P"),
    ("1 2 P 4 6 7", set(), "P replaces one value only"),
    ("1 2 3 4 5 5", set(), "a straight has no repeated value"),
    # 11 quad + 2 singles: quad of numbers or H; singles of different ranks, not P and C together
    ("7 7 7 7 2 10", {("quad_singles", 7)}, "rulebooks: 7-7-7-7-2-10 (the French text misprints 7-7-7-2-10)"),
    ("H H H H 1 2", {("quad_singles", 13)}, "a quad of Heroes"),
    ("7 7 7 7 H P", {("quad_singles", 7)}, "H and P attached"),
    ("7 7 7 7 C 3", {("quad_singles", 7)}, "C attached"),
    ("7 7 7 7 P C", set(), "never P and C attached to the same quad"),
    ("7 7 7 7 2 2", set(), "the two singles must be of different ranks"),
    ("7 7 7 7 H H", set(), "two Heroes are not two different singles"),
    ("7 7 7 2 10", set(), "the French misprint: a trio with two singles is nothing"),
    # 12 quad + 2 pairs: quad of numbers or H; pairs of different ranks, numbers or H
    ("7 7 7 7 H H 9 9", {("quad_pairs", 7)}, "rulebooks: 7-7-7-7-H-H-9-9"),
    ("H H H H 1 1 2 2", {("quad_pairs", 13)}, "a quad of Heroes with two pairs"),
    ("7 7 7 7 9 9 9 9", set(), "the two pairs must be of different ranks"),
    ("3 3 3 3 4 4 4 4", set(), "two quads are no quad with two pairs"),
    # 13 bomb: 4 of a kind, numbers or H
    ("1 1 1 1", {("bomb", 1)}, "lowest bomb"),
    ("12 12 12 12", {("bomb", 12)}, "bomb of 12"),
    ("H H H H", {("bomb", 13)}, "H-H-H-H is the highest bomb"),
    # 14 the flight: P + C
    ("P C 3", set(), "the flight is exactly P and C"),
    ("P C H H", set(), "nothing joins the flight"),
    # cards the deck does not hold that many of
    ("P P", set(), "one Pi Ya in the deck"),
    ("5 5 5 5 5", set(), "four 5s in the deck"),
    (" ".join(["5"] * 16), set(), "sixteen 5s do not spill over into a 6"),
]


@pytest.mark.parametrize("cards, expected, why", READINGS, ids=[r[0] for r in READINGS])
def test_every_reading_of_the_table(rules, cards, expected, why):
    assert readings(rules, cards) == expected, why


@pytest.mark.parametrize("cards, expected, why", READINGS, ids=[r[0] for r in READINGS])
def test_the_table_agrees_with_the_oracle(cards, expected, why):
    # the oracle is a second, independent reading of the same table
    assert oracle.readings(cards) == expected, why


def test_every_combination_of_the_table_is_in_the_variant(rules):
    assert [c.id for c in rules.combinations] == list(oracle.COMBINATIONS)
    assert {c.id: c.tier for c in rules.combinations if c.tier} == {"bomb": 1, "flight": 2}
    covered = {combination for _, expected, _ in READINGS for combination, _ in expected}
    assert covered == set(oracle.COMBINATIONS)


def test_colours_do_not_matter(rules):
    assert readings(rules, "7/red 7/blue 7/green 5/yellow") == {("trio_single", 7)}
    assert readings(rules, "7/red 7/BLUE") == {("pair", 7)}
    # but a card named by its colour is that card: the deck holds one red 7 (CONTRACT.md: cards
    # the deck does not hold that many of are not a combination)
    assert readings(rules, "7/red 7/red") == set()


# --- beating --------------------------------------------------------------------------------
# (play, over, may the play be made on the over, why)
BEATS = [
    ("7 7 7 5", "5 5 5 12", True, "rulebooks: the trio decides, not the single"),
    ("5 5 5 12", "7 7 7 5", False, "rulebooks, the other way round"),
    ("9 9 9 11 11", "5 5 5 12 12", True, "rulebooks: full"),
    ("8 8", "4 4", True, "German rulebook: 8-8 beats 4-4"),
    ("11 11 11", "2 2 2", True, "German rulebook: 11-11-11 beats 2-2-2"),
    ("H H", "12 12", True, "H-H is the highest pair"),
    ("H H H", "12 12 12", True, "H-H-H is the highest trio"),
    ("2", "1", True, "single order"),
    ("H", "12", True, "H above the numbers"),
    ("P", "H", True, "P above H"),
    ("C", "P", True, "C above P"),
    ("1", "C", False, "nothing single beats C"),
    ("7 7 7 6", "7 7 7 5", False, "strictly higher rank: the attached card does not count"),
    ("7 7", "7", False, "the same combination"),
    ("3 3 3", "2 2", False, "the same combination"),
    ("7 7 7 5", "5 5 5 12 12", False, "trio+single on a full: not the same combination"),
    ("4 4 5 5 6 6", "3 3 4 4 5 5", True, "pair chain: the top pair decides"),
    ("4 4 5 5 6 6 7 7", "3 3 4 4 5 5", False, "pair chain: as many pairs"),
    ("2 2 2 3 3 3 4 5", "1 1 1 2 2 2 6 12", True, "trio chain with singles: the top trio"),
    ("2 3 4 5 6", "1 2 3 4 5", True, "straight: top value"),
    ("4 5 6 7 8 9 10 11", "3 4 5 6 7 8 9 10", True, "a straight of 8 beaten by a higher 8"),
    ("5 6 7 8 9 10 11", "3 4 5 6 7 8 9 10", False, "a straight of 7 never beats one of 8"),
    ("4 5 6 7 8 9 10 11 12", "3 4 5 6 7 8 9 10", False, "a straight of 9 never beats one of 8"),
    ("P 5 6 7 8 9 10 11", "3 4 5 6 7 8 9 10", True, "P counts where it stands (4..11 or 5..12)"),
    ("7 7 7 7 2 10", "3 3 3 3 1 2", True, "quad with singles: the quad decides"),
    ("3 3 3 3", "12 12 12 12 1 3", True, "a quad with attachments is not a bomb: any bomb beats it"),
    ("3 3 3 3", "H H H H 1 1 2 2", True, "quad with pairs is not a bomb"),
    ("12 12 12 12 1 3", "2 2", False, "a quad with attachments does not bomb a pair"),
    ("7 7 7 7 2 10", "3 3 3 3", False, "a quad with attachments does not beat a bomb"),
    ("2 2 2 2", "H H", True, "a bomb beats a pair"),
    ("2 2 2 2", "1 2 3 4 5 6 7 8 9 10 11 12", True, "a bomb beats the longest straight"),
    ("2 2 2 2", "C", True, "a bomb beats the highest single"),
    ("5 5 5 5", "4 4 4 4", True, "a higher bomb beats a bomb"),
    ("4 4 4 4", "5 5 5 5", False, "a lower bomb does not"),
    ("H H H H", "12 12 12 12", True, "H-H-H-H is the highest bomb"),
    ("12 12 12 12", "H H H H", False, "nothing but the flight beats H-H-H-H"),
    ("H H H H", "P C", False, "no bomb beats the flight"),
    ("P C", "H H H H", True, "the flight beats every bomb"),
    ("P C", "1", True, "the flight beats a single"),
    ("P C", "3 3 3 4 4 4 5 5 5 6 7 8", True, "the flight beats everything"),
    ("2 3 4 5 6", "P 2 3 4 5", True, "several readings: 2-6 beats the reading 1-5"),
    ("P 2 3 4 5", "2 3 4 5 6", False, "neither reading (5, 6) is higher than 6"),
    ("P 3 4 5 6", "2 3 4 5 6", True, "the reading 3-7 beats 2-6"),
    ("P P", "7", False, "not a combination beats nothing"),
]


@pytest.mark.parametrize("play, over, yes, why", BEATS, ids=[f"{b[0]} on {b[1]}" for b in BEATS])
def test_beats(rules, play, over, yes, why):
    assert rules.beats(over, play) is yes, why      # CONTRACT.md: may the second be played on the first
    assert oracle.beats_cards(play, over) is yes, why


def test_the_flight_beats_every_play_and_nothing_beats_it(rules):
    flight = rules.classify("P C")[0]
    hand = rules.cards_key("1 1 1 1 2 2 2 2 H H H H 3 4 5 6 7")
    for play in rules.leads(hand):
        assert rules.can_beat(flight, play)
        assert not rules.can_beat(play, flight)
    assert rules.legal_plays("H H H H 12 12 12 12 3 4 5 6 7", over="P C") == []


# --- listing plays ----------------------------------------------------------------------------
def test_answers_to_a_straight_of_8_are_straights_of_exactly_8_bombs_and_the_flight(rules):
    hand = "1 2 3 4 5 6 7 8 9 10 11 12 P C 9 9 9"
    got = as_tuples(rules.legal_plays(hand, over="2 3 4 5 6 7 8 9"))
    straights = {g for g in got if g[1] == "straight"}
    assert straights and all(len(cards) == 8 and rank > 9 for cards, _, rank in straights)
    assert {g[1] for g in got} == {"straight", "bomb", "flight"}
    assert (("P", "C"), "flight", 15) in got
    assert (("9", "9", "9", "9"), "bomb", 9) in got


def test_answers_to_a_bomb_are_higher_bombs_and_the_flight(rules):
    got = as_tuples(rules.legal_plays("3 3 3 3 8 8 8 8 H H H H P C 1 2", over="5 5 5 5"))
    assert got == {(("8",) * 4, "bomb", 8), (("H",) * 4, "bomb", 13), (("P", "C"), "flight", 15)}


def test_answers_to_a_quad_with_singles_include_higher_quads_with_singles_and_every_bomb(rules):
    got = as_tuples(rules.legal_plays("3 3 3 3 8 8 8 8 1 2", over="5 5 5 5 6 7"))
    assert (("3",) * 4, "bomb", 3) in got and (("8",) * 4, "bomb", 8) in got
    quads = {g for g in got if g[1] == "quad_singles"}
    assert quads and all(rank == 8 for _, _, rank in quads)


def test_a_set_with_two_readings_is_listed_once_per_reading(rules):
    leads = [p for p in rules.legal_plays("2 3 4 5 P") if len(p.cards) == 5]
    assert sorted((p.combination, p.rank) for p in leads) == [("straight", 5), ("straight", 6)]


def test_answers_to_a_set_with_two_readings_answer_each_reading(rules):
    # "P 2 3 4 5" is 1-5 or 2-6: 2-6 beats the first reading, so it is an answer
    got = as_tuples(rules.legal_plays("2 3 4 5 6 H", over="P 2 3 4 5"))
    assert (("2", "3", "4", "5", "6"), "straight", 6) in got


def test_a_leader_always_has_a_play(rules):
    for hand in ["1", "P", "C", "H", "P C", "12 12 12 12"]:
        assert rules.legal_plays(hand)


@pytest.mark.parametrize("hand, over, message", [
    ("P P 3", None, "the deck holds 1 card of rank P, not 2"),
    ("3 4", "3 4", "not a combination"),
    ("3 X", None, "unknown card"),
    ("", None, "no cards given"),
    (None, None, "cards must be"),
    (17, None, "cards must be"),
])
def test_bad_input_is_a_card_error_never_a_traceback(rules, hand, over, message):
    with pytest.raises(chimera_dsl.CardError, match=message):
        rules.legal_plays(hand, over=over)


@pytest.mark.parametrize("cards", [None, 7, {"7": 1}, "", "7 Q", "7/purple"])
def test_classify_bad_input_raises_card_error(rules, cards):
    with pytest.raises(chimera_dsl.CardError):
        rules.classify(cards)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(sorted(set(oracle.DECK)) + ["h", "p", "x", "3/red"]), max_size=40),
       st.sampled_from([" ", "  ", "\t", " \n "]))
def test_card_text_is_read_as_the_full_reader_reads_it(tokens, gap):
    """The one-pass reader of card text (any count of a rank, 16 and more included, unknown
    cards, colours) gives the full reader's key, or the same error."""
    text = gap.join(tokens)

    def read(how):
        try:
            return how(text)
        except chimera_dsl.CardError as error:
            return str(error)
    assert read(RULES.cards_key) == read(RULES.deck.parse_key)


@pytest.mark.parametrize("count", [5, 8, 9, 15, 16, 17, 33])
def test_a_rank_named_more_often_than_the_deck_holds_is_refused(rules, count):
    with pytest.raises(chimera_dsl.CardError, match="the deck holds 4 cards of rank 7"):
        rules.legal_plays(" ".join(["7"] * count))


def test_nothing_answers_the_top_play_but_the_hand_is_still_read():
    ddz = chimera_dsl.load_variant(ROOT / "variants" / "others" / "doudizhu.yaml")
    hand = "3 3 3 3 4 5 6 7 8 2 2 2 2 BJ"
    (rocket,) = ddz.classify("BJ RJ")
    assert ddz.legal_plays(hand, rocket) == []
    with pytest.raises(chimera_dsl.CardError, match="unknown card"):
        ddz.legal_plays("3 X", rocket)
    # the highest single is still beaten by the bombs
    (red_joker,) = ddz.classify("RJ")
    assert sorted(" ".join(p.cards) for p in ddz.legal_plays(hand, red_joker)) == ["2 2 2 2", "3 3 3 3"]


def test_play_of_finds_a_recorded_reading(rules):
    key = rules.cards_key("P 2 3 4 5")
    assert rules.play_of(key, "straight", 6).rank == 6
    assert rules.play_of(key, "straight", 5).rank == 5
    assert rules.play_of(key, "straight", 7) is None
    assert rules.play_of(key, "pair", 5) is None


# --- a house pattern without "distinct": repeats need the cards -------------------------------
def test_repeated_attachments_need_the_cards_in_hand():
    spec = yaml.safe_load(OFFICIAL.read_text(encoding="utf-8"))
    spec["combinations"] = {
        "trios_singles": {"pattern": "2+ consecutive trios of number + single of number each"},
        "quad_pairs": {"pattern": "quad of number + 2 pairs of number"},
    }
    house = Rules.from_spec(spec)
    # one 9 in hand: 3-3-3-4-4-4-9-9 must not be offered (earlier the matcher reused the
    # attachments of a hand holding two 9s)
    assert as_tuples(house.legal_plays("3 3 3 4 4 4 9 9 8")) >= {
        (("3", "3", "3", "4", "4", "4", "9", "9"), "trios_singles", 4)}
    assert as_tuples(p for p in house.legal_plays("3 3 3 4 4 4 9 8") if p.size == 8) == {
        (("3", "3", "3", "4", "4", "4", "8", "9"), "trios_singles", 4)}
    # without "distinct" the two pairs may share a rank, when the hand holds four of it
    assert ("quad_pairs", 7) in readings(house, "7 7 7 7 9 9 9 9")
    assert not [p for p in house.legal_plays("7 7 7 7 9 9 8") if p.combination == "quad_pairs"]
    for hand in ["3 3 3 4 4 4 9 9 8", "3 3 3 4 4 4 9 8", "7 7 7 7 9 9 9 9 8 8", "7 7 7 7 9 9 8 8"]:
        key = house.cards_key(hand)
        for play in house.leads(key):
            assert contains(key, play.key), (hand, play)
        assert len(set(house.leads(key))) == len(house.leads(key)), "a play listed twice"


# --- properties on random hands, against the oracle -------------------------------------------
def _pool(lo: int, hi: int) -> list[int]:
    """Indices into the deck of the numbers lo..hi and the three special ranks."""
    return [i for i, c in enumerate(oracle.DECK)
            if c in ("H", "P", "C") or lo <= oracle.VALUE[c] <= hi]


@st.composite
def hands(draw, max_size: int = 20):
    """A hand dealt from the real 54-card deck: sometimes anywhere in it, sometimes from a
    few neighbouring ranks (so that chains, trios and quads are common)."""
    if draw(st.booleans()):
        pool = list(range(len(oracle.DECK)))
    else:
        lo = draw(st.integers(1, 10))
        pool = _pool(lo, min(12, lo + draw(st.integers(2, 6))))
    size = draw(st.sampled_from(range(1, min(max_size, len(pool)) + 1)))
    picked = draw(st.lists(st.sampled_from(pool), unique=True, min_size=size, max_size=size))
    return [oracle.DECK[i] for i in picked]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands())
def test_every_lead_classifies_to_itself_and_uses_cards_of_the_hand(hand):
    key = RULES.cards_key(hand)
    leads = RULES.leads(key)
    assert leads, "a leader always has a play"
    assert len(set(leads)) == len(leads), "a play listed twice"
    for play in leads:
        assert contains(key, play.key), f"{play} uses cards the hand {hand} lacks"
        assert play.size == size_of(play.key) == len(play.cards) <= len(hand)
        assert play in RULES.readings(play.key)
        assert (play.combination, play.rank) in oracle.readings(play.cards)


@st.composite
def hand_and_over(draw, max_size: int = 20):
    hand = draw(hands(max_size))
    other = draw(hands(12))
    over = draw(st.sampled_from(RULES.leads(RULES.cards_key(other))))
    return hand, over


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand_and_over())
def test_every_answer_beats_the_play_it_answers(args):
    hand, over = args
    key = RULES.cards_key(hand)
    answers = RULES.answers(key, over)
    assert len(set(answers)) == len(answers), "an answer listed twice"
    leads = set(RULES.leads(key))
    under = oracle.Play(tuple(over.cards), over.combination, over.rank)
    for play in answers:
        assert play in leads, "every answer is also a lead"
        assert contains(key, play.key)
        assert RULES.can_beat(play, over)
        assert oracle.beats(oracle.Play(tuple(play.cards), play.combination, play.rank), under)
    # and every lead that beats it is an answer
    assert {p for p in leads if RULES.can_beat(p, over)} == set(answers)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands(max_size=12), st.data())
def test_leads_and_answers_equal_the_oracles_brute_force(hand, data):
    key = RULES.cards_key(hand)
    expected = oracle.all_plays(hand)
    assert as_tuples(RULES.leads(key)) == {(p.cards, p.combination, p.rank) for p in expected}
    assert len(RULES.leads(key)) == len(expected)
    over = data.draw(st.sampled_from(sorted(expected)))
    mine = RULES.play_of(RULES.cards_key(list(over.cards)), over.combination, over.rank)
    assert mine is not None
    assert as_tuples(RULES.answers(key, mine)) == \
        {(p.cards, p.combination, p.rank) for p in expected if oracle.beats(p, over)}


@settings(max_examples=200, deadline=None)
@given(hands(12), hands(12), st.data())
def test_can_beat_agrees_with_the_oracle(hand_a, hand_b, data):
    a = data.draw(st.sampled_from(RULES.legal_plays(hand_a)))
    b = data.draw(st.sampled_from(RULES.legal_plays(hand_b)))
    expected = oracle.beats(oracle.Play(tuple(a.cards), a.combination, a.rank),
                            oracle.Play(tuple(b.cards), b.combination, b.rank))
    assert RULES.can_beat(a, b) is expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(oracle.DECK), min_size=1, max_size=9))
def test_classify_equals_the_oracle_on_any_multiset(cards):
    # also sets the deck cannot hold (P P, five 5s): no reading
    assert readings(RULES, cards) == oracle.readings(cards)


# --- perft: counts for fixed hands, computed by the oracle (python tests/oracle.py) -----------
PERFT_DATA = json.loads(PERFT.read_text(encoding="utf-8"))


@pytest.mark.parametrize("entry", PERFT_DATA["hands"], ids=[h["name"] for h in PERFT_DATA["hands"]])
def test_perft(rules, entry):
    key = rules.cards_key(entry["hand"])
    assert len(rules.leads(key)) == entry["leads"]
    for over in PERFT_DATA["overs"]:
        play = rules.play_of(rules.cards_key(over["cards"]), over["combination"], over["rank"])
        label = f"{over['combination']} {over['rank']}: {over['cards']}"
        assert len(rules.answers(key, play)) == entry["answers"][label], label


def test_perft_covers_big_hands_and_every_combination():
    assert len(PERFT_DATA["hands"]) >= 12
    assert {h["cards"] for h in PERFT_DATA["hands"]} >= {17, 20}
    assert {o["combination"] for o in PERFT_DATA["overs"]} == set(oracle.COMBINATIONS)


# --- Dou Dizhu: the three variant files of variants/others/ against the oracle ------------------
# (the clauses 'at most N per rank' and 'not extending', and attachments without 'distinct')
DDZ_FILES = {"rlcard": "doudizhu.yaml", "douzero": "doudizhu-douzero.yaml", "openspiel": "doudizhu-openspiel.yaml"}
DDZ = {engine: chimera_dsl.load_variant(ROOT / "variants" / "others" / name) for engine, name in DDZ_FILES.items()}


@st.composite
def ddz_hands(draw, max_size: int = 12):
    """A Dou Dizhu hand from the real deck, often from a few neighbouring ranks and the top
    cards (so that airplanes, bombs and their attachments are common)."""
    if draw(st.booleans()):
        pool = list(range(len(oracle.DDZ_DECK)))
    else:
        lo = draw(st.integers(1, 9))
        hi = lo + draw(st.integers(2, 4))
        pool = [i for i, c in enumerate(oracle.DDZ_DECK) if lo <= oracle.DDZ_VALUE[c] <= hi or oracle.DDZ_VALUE[c] >= 13]
    size = draw(st.integers(1, min(max_size, len(pool))))
    picked = draw(st.lists(st.sampled_from(pool), unique=True, min_size=size, max_size=size))
    return [oracle.DDZ_DECK[i] for i in picked]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(DDZ_FILES)), ddz_hands(), st.data())
def test_dou_dizhu_leads_and_answers_equal_the_oracle(engine, hand, data):
    rules = DDZ[engine]
    expected = oracle.ddz_all_plays(hand, engine)
    leads = rules.legal_plays(hand)
    assert as_tuples(leads) == {(p.cards, p.combination, p.rank) for p in expected}
    assert len(leads) == len(expected), "a play listed twice"
    over = data.draw(st.sampled_from(sorted(expected)))
    mine = rules.play_of(rules.cards_key(list(over.cards)), over.combination, over.rank)
    assert as_tuples(rules.answers(rules.cards_key(hand), mine)) == \
        {(p.cards, p.combination, p.rank) for p in expected if oracle.ddz_beats(p, over)}


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(DDZ_FILES)), st.lists(st.sampled_from(oracle.DDZ_DECK), min_size=1, max_size=16))
def test_dou_dizhu_classify_equals_the_oracle_on_any_multiset(engine, cards):
    assert readings(DDZ[engine], cards) == oracle.ddz_readings(cards, engine)


@pytest.mark.parametrize("engine, cards, expected", [
    ("rlcard", "3 3 3 4 4 4 5 5 5 6 6 6", {("airplane", 4)}),            # 6-6-6 would extend the chain
    ("openspiel", "3 3 3 4 4 4 5 5 5 6 6 6", {("airplane", 4), ("airplane_solos", 3), ("airplane_solos", 4)}),
    ("douzero", "3 3 3 4 4 4 5 5 5 6 6 6 8 8 8 8", {("airplane_solos", 4)}),  # a bomb as the singles
    ("rlcard", "3 3 3 4 4 4 5 5 5 6 6 6 8 8 8 8", set()),
    ("rlcard", "Q Q Q K K K A A A 2 2 2", {("airplane_solos", 12)}),         # the 2 is next to no chain
    ("rlcard", "3 3 3 3 4 4", {("four_two_solos", 1)}),                      # a pair as the two singles
    ("openspiel", "3 3 3 3 4 4", set()),
    ("douzero", "3 3 3 3 BJ RJ", {("four_two_solos", 1)}),
    ("rlcard", "3 3 3 3 BJ RJ", set()),
])
def test_dou_dizhu_readings_where_the_engines_differ(engine, cards, expected):
    assert readings(DDZ[engine], cards) == expected == oracle.ddz_readings(cards, engine)
