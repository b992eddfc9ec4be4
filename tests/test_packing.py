"""Packed rank counts whose width follows the deck: the helpers against a plain list of
counts, decks with more than seven cards of a rank (their plays against a brute force), the
bound on a deck's size, and the groups a deck's count fields hold."""
from __future__ import annotations

import itertools
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chimera_dsl import load_variant
from chimera_dsl.cards import MAX_DECK_CARDS, Deck, chunk_tables, field_bits, gather
from chimera_dsl.engine import Game
from chimera_dsl.errors import CardError, VariantError
from chimera_dsl.players import make_player, play_game

ROOT = Path(__file__).resolve().parents[1]


# -- the width of a field -----------------------------------------------------------------------

def test_the_field_is_the_narrowest_that_holds_the_largest_count_below_its_guard_bit():
    assert [field_bits(n) for n in (0, 1, 4, 7, 8, 10, 15, 16, 31, 32, 224)] == [4, 4, 4, 4, 5, 5, 5, 6, 6, 7, 9]


def deck_of(copies: list[int]) -> Deck:
    ranks = [f"r{i}" for i in range(len(copies))]
    return Deck.from_spec({"ranks": ranks,
                           "cards": [{"ranks": [r], "copies": c} for r, c in zip(ranks, copies) if c]})


@pytest.mark.parametrize("most, shift", [(4, 4), (7, 4), (8, 5), (10, 5), (15, 5), (16, 6)])
def test_a_deck_chooses_its_width_and_its_masks_span_exactly_its_ranks(most, shift):
    deck = deck_of([1, most, 3])
    assert (deck.shift, deck.field_mask, deck.top, deck.room) == (shift, (1 << shift) - 1, shift - 1,
                                                                   (1 << (shift - 1)) - 1)
    assert deck.low == 1 | 1 << shift | 1 << (2 * shift)
    assert deck.guard == deck.low << (shift - 1)
    assert deck.full_key == 1 | most << shift | 3 << (2 * shift)
    assert deck.counts(deck.full_key) == [1, most, 3]


# -- the helpers against a list of counts --------------------------------------------------------

# decks of 4-bit (at most 7 of a rank), 5-bit (8 to 15) and 6-bit fields, 1 to 20 ranks
decks = st.lists(st.integers(0, 7), min_size=1, max_size=20).flatmap(
    lambda small: st.sampled_from([0, 8, 10, 15, 16]).map(
        lambda big: small if not big else small[:-1] + [big]))


@st.composite
def deck_and_hands(draw):
    copies = draw(decks)
    deck = deck_of(copies)
    hands = [[draw(st.integers(0, c)) for c in copies] for _ in range(2)]
    return deck, copies, hands[0], hands[1]


def packed(deck: Deck, counts: list[int]) -> int:
    return deck.key([i for i, n in enumerate(counts) for _ in range(n)])


@settings(max_examples=300, deadline=None)
@given(deck_and_hands())
def test_the_packed_helpers_agree_with_a_list_of_counts(args):
    deck, copies, a, b = args
    ka, kb = packed(deck, a), packed(deck, b)
    assert deck.shift == field_bits(max(copies))
    assert deck.counts(ka) == a and [deck.count_of(ka, i) for i in range(len(a))] == a
    assert deck.size_of(ka) == sum(a)
    assert deck.expand(ka) == [i for i, n in enumerate(a) for _ in range(n)]
    assert deck.contains(ka, kb) == all(y <= x for x, y in zip(a, b))
    assert deck.fits(ka) and deck.contains(deck.full_key, ka)
    if deck.contains(ka, kb):
        assert deck.counts(ka - kb) == [x - y for x, y in zip(a, b)]
    assert deck.counts(ka + kb) == [x + y for x, y in zip(a, b)] or max(x + y for x, y in zip(a, b)) > deck.field_mask
    for k in range(0, deck.room + 2):
        held = deck.ge_mask(ka, k)
        assert deck.indices_of_mask(held) == tuple(i for i, n in enumerate(a) if n >= k)
        assert held & ~deck.low == 0
    spread = sum(deck.bit(i) for i, n in enumerate(b) if n)
    assert deck.indices_of_mask(spread) == tuple(i for i, n in enumerate(b) if n)
    # the cards of a hand, by card number, and back
    mask = deck.take(deck.full_mask, ka)
    assert deck.key_of_mask(mask) == ka and bin(mask).count("1") == sum(a)
    # reading card text: a count the deck holds is read, one more is refused
    text = " ".join(deck.names_of(ka))
    if text:
        assert deck.parse_key(text) == ka
    full = max(range(len(copies)), key=copies.__getitem__)
    assert deck.too_many([full] * (copies[full] + 1))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([4, 5, 6, 9]), st.lists(st.one_of(st.none(), st.integers(0, 9)), min_size=1, max_size=40),
       st.data())
def test_chunk_tables_give_the_items_of_a_spread_mask(shift, items, data):
    tables = chunk_tables(items, shift)
    assert len(tables) >= 2
    for _ in range(20):
        chosen = data.draw(st.sets(st.integers(0, len(items) - 1)))
        mask = sum(1 << (shift * i) for i in chosen)
        assert gather(tables, mask) == tuple(items[i] for i in sorted(chosen) if items[i] is not None)


# -- decks with ten and fifteen cards of a rank --------------------------------------------------

VARIANT = """\
format: 1
game: many-of-a-kind
name: Many of a kind ({big} cards of rank 2)
players: 2
deck:
  ranks: [1, 2, 3, 4, 5, 6]
  cards:
    - {{ranks: 1, copies: 10}}
    - {{ranks: 2, copies: {big}}}
    - {{ranks: "3..6", copies: 4}}
  sequence: "1..6"
deal:
  hand: 16
  nest: 3
bidding:
  levels: [1, 2]
exchange:
  count_by_bid: {{1: 0, 2: 1}}
play: {{}}
combinations:
  single: {{pattern: single of any}}
  pair: {{pattern: pair of any}}
  full: {{pattern: trio of any + pair of any}}
  quad_two: {{pattern: quad of any + 2 singles of any}}
  pairs: {{pattern: 3+ consecutive pairs of any}}
  five: {{pattern: 5 cards of 1|2}}
  nine: {{pattern: "9 of a kind of any", tier: 1}}
scoring:
  bidder_out_first: {{bidder: {{times_bid: 1}}}}
  other_out_first: {{bidder: {{times_bid: -1}}, others: 1}}
end:
  target: 10
"""

_FILES = Path(tempfile.mkdtemp(prefix="packing-"))


def many_of_a_kind(big: int):
    path = _FILES / f"many-{big}.yaml"
    if not path.exists():
        path.write_text(VARIANT.format(big=big), encoding="utf-8")
    return load_variant(path)


MANY = {big: many_of_a_kind(big) for big in (10, 15, 16)}


def brute_leads(counts: list[int]) -> set[tuple]:
    """Every play of the combinations of VARIANT from a hand of ``counts``, found by trying
    every choice: (combination, counts of the play, rank)."""
    n = len(counts)
    out = set()

    def play(name, parts, rank):
        c = [0] * n
        for i, k in parts:
            c[i] += k
        if all(x <= h for x, h in zip(c, counts)):
            out.add((name, tuple(c), rank))

    for i in range(n):
        play("single", [(i, 1)], i + 1)
        play("pair", [(i, 2)], i + 1)
        play("nine", [(i, 9)], i + 1)
        for j in range(n):
            if j != i:
                play("full", [(i, 3), (j, 2)], i + 1)
        for j, k in itertools.combinations_with_replacement([x for x in range(n) if x != i], 2):
            play("quad_two", [(i, 4), (j, 1), (k, 1)], i + 1)
    for length in range(3, n + 1):
        for start in range(n - length + 1):
            play("pairs", [(i, 2) for i in range(start, start + length)], start + length)
    for ones in range(6):
        twos = 5 - ones
        play("five", [(0, ones), (1, twos)], 2 if twos else 1)
    return out


def brute_beats(play: tuple, over: tuple, tiers: dict) -> bool:
    if tiers[play[0]] != tiers[over[0]]:
        return tiers[play[0]] > tiers[over[0]]
    return play[0] == over[0] and sum(play[1]) == sum(over[1]) and play[2] > over[2]


def as_tuple(rules, p) -> tuple:
    return (p.combination, tuple(rules.deck.counts(p.key)), p.rank)


@st.composite
def many_hands(draw):
    big = draw(st.sampled_from(sorted(MANY)))
    rules = MANY[big]
    counts = [draw(st.integers(0, c)) for c in rules.deck.copies]
    other = [draw(st.integers(0, c)) for c in rules.deck.copies]
    return rules, counts, other


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(many_hands())
def test_leads_and_answers_with_many_cards_of_a_rank_agree_with_a_brute_force(args):
    rules, counts, other = args
    deck = rules.deck
    assert deck.shift == (5 if max(deck.copies) <= 15 else 6)
    key = packed(deck, counts)
    leads = rules.leads(key)
    assert len(set(leads)) == len(leads)
    found = {as_tuple(rules, p) for p in leads}
    assert found == brute_leads(counts)
    for p in leads:
        assert p.size == sum(deck.counts(p.key)) and deck.contains(key, p.key)
    tiers = {c.id: c.tier for c in rules.combinations}
    unders = rules.leads(packed(deck, other))
    for over in random.Random(sum(other)).sample(unders, min(4, len(unders))):
        answers = rules.answers(key, over)
        assert len(set(answers)) == len(answers)
        want = {p for p in found if brute_beats(p, as_tuple(rules, over), tiers)}
        assert {as_tuple(rules, p) for p in answers} == want


@pytest.mark.parametrize("big", sorted(MANY))
def test_nine_of_a_kind_is_read_from_text_and_beats(big):
    rules = MANY[big]
    nine = " ".join(["2"] * 9)
    assert [(p.combination, p.rank) for p in rules.classify(nine)] == [("nine", 2)]
    assert rules.beats("6 6 6 6 5 5", nine) and not rules.beats(nine, " ".join(["1"] * 9))
    assert rules.beats(" ".join(["1"] * 9), nine)
    assert rules.cards_key(" ".join(["2"] * big)) == big << rules.deck.shift
    with pytest.raises(Exception, match=f"the deck holds {big} cards of rank 2, not {big + 1}"):
        rules.cards_key(" ".join(["2"] * (big + 1)))


@pytest.mark.parametrize("big", sorted(MANY))
@pytest.mark.parametrize("kind", ["random", "heuristic"])
def test_games_on_a_deck_with_many_cards_of_a_rank_play_to_the_end(big, kind):
    rules = MANY[big]
    game = Game(rules)
    for seed in range(1, 3 if kind == "random" else 2):
        state = play_game(game, [make_player(kind, seed * 10 + s) for s in range(2)], seed)
        assert state.is_terminal()
        plays = [e for e in state.events if e["type"] == "play"]
        assert plays and all(len(e["cards"]) for e in plays)


# -- the bounds ---------------------------------------------------------------------------------

def load_text(tmp_path, text: str):
    path = tmp_path / "v.yaml"
    path.write_text(text, encoding="utf-8")
    return load_variant(path)


def test_a_deck_past_the_bound_is_refused_at_the_entry_that_crosses_it(tmp_path):
    text = VARIANT.format(big=15).replace('    - {ranks: "3..6", copies: 4}\n',
                                          '    - {ranks: "3..6", copies: 4}\n    - {ranks: "3..6", copies: 50}\n')
    with pytest.raises(VariantError) as caught:
        load_text(tmp_path, text)
    (problem,) = caught.value.problems
    assert problem.message == (f"with this entry the deck holds {10 + 15 + 16 + 200} cards, more than the "
                               f"{MAX_DECK_CARDS} a deck may hold")
    assert problem.line == 11 and problem.column == 7
    assert problem.hint.startswith("the size of the deck bounds the work")


def test_a_deck_of_the_largest_size_loads_and_holds_its_cards_in_wide_fields(tmp_path):
    rest = MAX_DECK_CARDS - 10 - 4 * 4
    text = VARIANT.format(big=rest).replace("Many of a kind", "Largest")
    rules = load_text(tmp_path, text)
    assert len(rules.deck.cards) == MAX_DECK_CARDS and rules.deck.shift == field_bits(rest) == 9
    state = play_game(Game(rules), [make_player("random", s) for s in range(2)], 1)
    assert state.is_terminal()


def test_a_group_asks_no_more_than_the_deck_holds_or_its_fields_hold(tmp_path):
    ten = VARIANT.format(big=15)
    with pytest.raises(VariantError) as caught:
        load_text(tmp_path, ten.replace("9 of a kind of any", "16 of a kind of any"))
    assert caught.value.problems[0].message == "this can never match: no rank of any has 16 cards in the deck"
    # with a wild card, 16 cards of rank 2 (15 and the wild one) would fit the deck, but not
    # its 5-bit fields: say so
    wild = ten.replace("  ranks: [1, 2, 3, 4, 5, 6]", "  ranks: [1, 2, 3, 4, 5, 6, W]").replace(
        '    - {ranks: "3..6", copies: 4}', '    - {ranks: "3..6", copies: 4}\n    - {ranks: W, copies: 1}').replace(
        "3+ consecutive pairs of any", "3+ consecutive pairs of 1..6")
    rules = load_text(tmp_path, wild.replace("9 of a kind of any", "15 of a kind of 1..6, wild W"))
    assert [(p.combination, p.rank) for p in rules.classify(" ".join(["2"] * 14) + " W")] == [("nine", 2)]
    assert [(p.combination, p.rank) for p in rules.classify(" ".join(["2"] * 15))] == [("nine", 2)]
    # listed after a hand that makes it, thirteen 2s and the wild card make no such group
    assert not [p for p in rules.leads(rules.cards_key(" ".join(["2"] * 13) + " W")) if p.combination == "nine"]
    with pytest.raises(VariantError) as caught:
        load_text(tmp_path, wild.replace("9 of a kind of any", "16 of a kind of 1..6, wild W"))
    (problem,) = caught.value.problems
    assert problem.message == ("a group holds at most 15 cards of one rank with this deck, not 16: the deck's "
                               "packed counts hold no more")
    assert problem.hint.startswith("the deck holds at most 15 cards of one rank")


def test_too_many_ranks_are_refused_by_the_schema(tmp_path):
    ranks = ", ".join(f"r{i}" for i in range(MAX_DECK_CARDS + 1))
    text = VARIANT.format(big=15).replace("  ranks: [1, 2, 3, 4, 5, 6]", f"  ranks: [1, 2, 3, 4, 5, 6, {ranks}]")
    with pytest.raises(VariantError) as caught:
        load_text(tmp_path, text)
    assert any(f"may hold at most {MAX_DECK_CARDS} items" in p.message for p in caught.value.problems)


# -- a deck with more ranks than the matcher keeps rows for -------------------------------------

def test_attached_cards_on_a_deck_of_many_ranks_are_listed_from_the_hand(tmp_path):
    ranks = [str(i) for i in range(1, 41)]
    text = (VARIANT.format(big=8).replace("  ranks: [1, 2, 3, 4, 5, 6]", f"  ranks: [{', '.join(ranks)}]")
            .replace('    - {ranks: "3..6", copies: 4}', '    - {ranks: "3..40", copies: 2}')
            .replace('  sequence: "1..6"', '  sequence: "1..40"'))
    rules = load_text(tmp_path, text)
    deck = rules.deck
    assert len(deck.ranks) == 40 and deck.shift == 5
    rng = random.Random(3)
    for _ in range(30):
        counts = [0] * 40
        for c in rng.sample(range(len(deck.cards)), 21):
            counts[deck.card_rank[c]] += 1
        key = packed(deck, counts)
        # every play holding attached cards, against the listing of every sub-hand
        found = {(p.combination, p.key, p.rank) for p in rules.leads(key) if p.combination in ("full", "quad_two")}
        for p in rules.leads(key):
            assert deck.contains(key, p.key)
        for combination, part, rank in found:
            assert (combination, part, rank) in {(q.combination, q.key, q.rank) for q in rules.readings(part)}
        trios = [i for i, n in enumerate(counts) if n >= 3]
        pairs = [i for i, n in enumerate(counts) if n >= 2]
        assert sum(1 for f in found if f[0] == "full") == sum(1 for t in trios for p in pairs if p != t)


# -- the leads function written for a variant ---------------------------------------------------

def test_the_written_leads_list_the_plays_of_each_combination_in_order(tmp_path):
    """Rules.leads runs a function written for the variant's combinations; it lists the very
    plays, in the same order, as asking each combination in turn (Rules._leads_by_call), on
    the official rules, the three Dou Dizhu files, the decks with many cards of a rank, and a
    deck of 40 ranks (three chunk tables per mask)."""
    ranks = [str(i) for i in range(1, 41)]
    wide = load_text(tmp_path, VARIANT.format(big=8).replace("  ranks: [1, 2, 3, 4, 5, 6]", f"  ranks: [{', '.join(ranks)}]")
                     .replace('    - {ranks: "3..6", copies: 4}', '    - {ranks: "3..40", copies: 2}')
                     .replace('  sequence: "1..6"', '  sequence: "1..40"'))
    variants = [load_variant(p) for p in [ROOT / "variants" / "chimera.yaml",
                                          *sorted((ROOT / "variants" / "others").glob("doudizhu*.yaml"))]]
    rng = random.Random(5)
    for rules in [wide, *MANY.values(), *variants]:
        deck = rules.deck
        for _ in range(60):
            cards = rng.sample(range(len(deck.cards)), rng.randint(0, min(24, len(deck.cards))))
            key = deck.key([deck.card_rank[c] for c in cards])
            leads = rules.leads(key)
            assert leads == rules._leads_by_call(key)
            assert all(a is b for a, b in zip(leads, rules._leads_by_call(key)))


def test_card_text_of_more_cards_than_a_field_counts_is_read_or_refused():
    """Text of more than 15 cards is one sum too: a count that would overflow its field is
    refused (the full reader says why), any other is read as the full reader reads it."""
    rules = load_variant(ROOT / "variants" / "others" / "doudizhu.yaml")
    hand = "3 3 4 5 6 7 8 9 10 J Q K A 2 2 BJ RJ 4 4 5"
    assert rules.cards_key(hand) == rules.deck.parse_key(hand) and rules.deck.size_of(rules.cards_key(hand)) == 20
    for text in ("3 " * 16 + "4", "3 " * 17, "3 " * 32 + "5 5", "4 " * 8 + "5 " * 9, "RJ " * 16,
                 "3 " * 31 + "4 " * 2 + "5"):
        with pytest.raises(CardError, match="the deck holds"):
            rules.legal_plays(text)


def test_the_one_pass_text_reader_reads_as_the_full_reader_or_leaves_it_to_it():
    """On texts of 1 to 40 cards drawn from a few ranks (so counts pass 15, 16 and 31, where a
    field overflows once or twice), the one-pass reader gives the full reader's key, or None
    where the full reader refuses the text."""
    rules = load_variant(ROOT / "variants" / "others" / "doudizhu.yaml")
    rng = random.Random(11)
    names = rules.deck.ranks
    read = refused = 0
    for _ in range(3000):
        few = rng.sample(names, rng.randint(1, 3))
        text = " ".join(rng.choice(few) for _ in range(rng.randint(1, 40)))
        try:
            key = rules.deck.parse_key(text)
        except CardError:
            assert rules._text_key(text) is None, text
            refused += 1
        else:
            assert rules._text_key(text) == key, text
            read += 1
    assert read > 300 and refused > 300
