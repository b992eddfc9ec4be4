"""Mü (variants/others/mu*.yaml): every sentence of its text.

The shipped files for four to six players hold ten cards of rank 1 and of rank 7: their deck
and whole games are checked on the files themselves.  The sentences about the vice, the
partner and five players are tested on small files extending mu-3.yaml (more players on its
36 cards, where hands stay small).  The trick winner is checked against an independent brute
force over every trump set-up (colour, value or none, for chief and vice).
"""
from __future__ import annotations

import dataclasses
import functools
import random
from itertools import product
from pathlib import Path

import pytest

from chimera_dsl import load_variant
from chimera_dsl.engine import PASS, Game
from chimera_dsl.players import make_player, play_game
from chimera_dsl.engine.phases.tricks import trump_cards

ROOT = Path(__file__).resolve().parents[1]
MU3 = ROOT / "variants" / "others" / "mu-3.yaml"


@pytest.fixture(scope="module")
def mu3():
    return load_variant(MU3)


def extended(tmp_path, text: str):
    for name in ("mu.yaml", "mu-3.yaml"):
        (tmp_path / name).write_text((ROOT / "variants" / "others" / name).read_text(encoding="utf-8"), encoding="utf-8")
    path = tmp_path / "test.yaml"
    path.write_text("extends: mu-3.yaml\n" + text, encoding="utf-8")
    return load_variant(path)


def test_the_cards_and_their_points(mu3):
    deck = mu3.deck
    assert len(deck.cards) == 36 and deck.colours == ("red", "blue", "green")
    per_colour = sorted(deck.ranks[r] for r, c in deck.cards if c == "red")
    assert per_colour == ["0", "1", "1", "2", "3", "4", "5", "6", "7", "7", "8", "9"]
    points = Game(mu3).round.play.points
    assert sum(points[r] for r in deck.card_rank) == 36          # « 36 à 3 joueurs »
    assert [points[deck.index[r]] for r in "0123456789"] == [1, 0, 1, 1, 1, 1, 2, 2, 1, 0]


@pytest.mark.parametrize("name, players, hand", [("mu.yaml", 5, 12), ("mu-4.yaml", 4, 15), ("mu-6.yaml", 6, 10)])
def test_the_whole_deck_of_sixty_cards_is_dealt_and_played(name, players, hand):
    rules = load_variant(ROOT / "variants" / "others" / name)
    deck = rules.deck
    assert len(deck.cards) == 60 and len(deck.colours) == 5                # « cinq couleurs de 12 cartes »
    assert [deck.copies[deck.index[r]] for r in "0123456789"] == [5, 10, 5, 5, 5, 5, 5, 10, 5, 5]
    points = Game(rules).round.play.points
    assert sum(points[r] for r in deck.card_rank) == 60                     # « Il y a 60 points dans le jeu »
    assert rules.deck.fits(rules.deck.full_key) and rules.deck.shift == 5  # ten of a rank: wider count fields
    game = Game(rules, max_rounds=2)
    for seed in (1, 2):
        state = play_game(game, [make_player("random", seed * 10 + s) for s in range(players)], seed)
        assert state.is_terminal()
        deals = [e for e in state.events if e["type"] == "deal"]
        assert deals and all(len(h) == hand for e in deals for h in e["hands"])


def first_lay_wins(state):
    """The auction's first seat lays one card, the others pass; trumps: the first offered."""
    legal = state.legal_actions()
    if state.kind == "auction":
        laid = state.table.laid
        return legal[1] if not any(laid) else PASS
    return legal[0]


def lays(state):
    return [a for a in state.legal_actions() if a.kind == "lay"]


def test_the_auction_limits_each_lay_and_ends_when_all_pass_in_a_row(mu3):
    state = Game(mu3, max_rounds=1).new_game(3, first_dealer=0)
    assert state.kind == "auction" and state.current_player() == 0     # the dealer opens
    assert {bin(a.mask).count("1") for a in lays(state)} == {1}        # one more than the best (0)
    state.apply_action(lays(state)[0])
    # seat 1 may lay up to 2 (one more than the best, 1); never more than 2 in one turn
    assert {bin(a.mask).count("1") for a in lays(state)} == {1, 2}
    state.apply_action(PASS)                                            # seat 1 passes ...
    state.apply_action(PASS)                                            # seat 2 passes
    # seat 0, alone in the lead with 1, may lay one more card
    assert {bin(a.mask).count("1") for a in lays(state)} == {1}
    state.apply_action(lays(state)[0])
    assert {bin(a.mask).count("1") for a in lays(state)} == {1, 2}      # seat 1 re-enters: at most 2 a turn
    state.apply_action([a for a in lays(state) if bin(a.mask).count("1") == 2][0])
    laid = state.observation(2).table["laid"]
    assert [bin(m).count("1") for m in laid] == [2, 2, 0]               # everyone sees what was laid
    state.apply_action(PASS)
    state.apply_action(lays(state)[0])                                  # seat 0: 3
    for _ in range(3):
        state.apply_action(PASS)
    assert state.kind != "auction" and state.bidder == 0 and state.bid == 3


@pytest.mark.parametrize("most", [0, 1, 2, 3, 12])
def test_the_lays_counted_are_the_lays_listed(most):
    """A turn's lays are counted, not listed: each index, ``in`` and iteration give the list of
    every set of 1 to ``most`` free cards, fewer first, in the order of ``combinations``."""
    from itertools import combinations

    from chimera_dsl.engine.phases.auction import Lays
    from chimera_dsl.engine import Action
    free = 0b1011_0110_1101 << 3
    cards = [c for c in range(20) if free >> c & 1]
    listed = [PASS] + [Action("lay", mask=sum(1 << c for c in chosen))
                       for k in range(1, most + 1) for chosen in combinations(cards, k)]
    lays_ = Lays(free, most)
    assert len(lays_) == len(listed) and list(lays_) == listed and lays_ == listed and listed == lays_
    assert [lays_[i] for i in range(len(listed))] == listed and lays_[-1] == listed[-1]
    assert all(a in lays_ for a in listed) and lays_[1:4] == listed[1:4]
    assert Action("lay", mask=1) not in lays_ and Action("lay", mask=0) not in lays_
    assert (Action("lay", mask=sum(1 << c for c in cards[:most + 1])) in lays_) == (most >= len(cards))


def test_a_tie_for_most_cards_is_a_dispute_and_the_cards_are_dealt_again(mu3):
    state = Game(mu3, max_rounds=1).new_game(5, first_dealer=0)
    state.apply_action(lays(state)[0])                                  # seat 0: 1
    state.apply_action(lays(state)[0])                                  # seat 1: 1 (ties)
    for _ in range(3):
        state.apply_action(PASS)
    dispute = next(e for e in state.events if e["type"] == "dispute")
    assert dispute["seats"] == [0, 1] and dispute["last"] == 1
    assert dispute["points"] == [5, -10, 0]                             # seat 2 laid none; the last -10 a card
    assert state.totals == [5, -10, 0] and state.events[-2]["type"] == "redeal" and state.events[-1]["type"] == "deal"
    assert state.kind == "auction" and state.round == 1 and state.deal_number == 2


def _dispute_with_a_smaller_lay(rules):
    """Seat 0 lays 1, seat 1 two, seat 2 one (staying below), seat 0 one more (2: tied with
    seat 1, the last of the tied to lay), then everyone passes: the dispute's points."""
    state = Game(rules, max_rounds=1).new_game(5, first_dealer=0)
    for count in (1, 2, 1, 1):
        state.apply_action(next(a for a in lays(state) if bin(a.mask).count("1") == count))
    for _ in range(3):
        state.apply_action(PASS)
    dispute = next(e for e in state.events if e["type"] == "dispute")
    assert dispute["seats"] == [0, 1] and dispute["last"] == 0
    return dispute["points"]


def test_in_a_dispute_the_tied_players_score_5_a_card_laid_but_the_challenger(mu3, tmp_path):
    # "there are negative points for the challenger and positive points for any others that are
    # tied for Chief" (the published game's help; its scoring aid pays the tied players alone):
    # seat 2, which laid one card without being tied for the most, scores nothing.
    assert _dispute_with_a_smaller_lay(mu3) == [-20, 10, 0]
    # « Les joueurs reçoivent 5 points / carte misée » read as every player (gainers: all, the
    # house file's one line): seat 2 scores 5 for its card too
    every = extended(tmp_path, "phases:\n  auction:\n    dispute: {gainers: all}\n")
    assert _dispute_with_a_smaller_lay(every) == [-20, 10, 5]


def test_the_house_file_of_the_dispute_changes_only_who_gains():
    base = Game(load_variant(ROOT / "variants" / "others" / "mu.yaml")).round
    house = Game(load_variant(ROOT / "variants" / "house_rules" / "mu-dispute-pays-everyone.yaml")).round
    [auction] = [p for p in base.phases if p.kind == "auction"]
    [changed] = [p for p in house.phases if p.kind == "auction"]
    assert (auction.gain, auction.loss, auction.gainers) == (5, 10, "tied")
    assert (changed.gain, changed.loss, changed.gainers) == (5, 10, "all")
    same = dataclasses.replace(changed, gainers="tied", opener=auction.opener)   # a seat compiles to a new closure
    assert same == auction and changed.opener.text == auction.opener.text          # nothing else changes


def test_three_players_have_no_vice_and_no_partner_and_the_chief_leads(mu3):
    state = play_game(Game(mu3, max_rounds=2), [make_player("random", s) for s in range(3)], 2)
    kinds = {e["type"] for e in state.events}
    assert "second" not in kinds and "partner" not in kinds
    for e in state.events:
        if e["type"] == "chief":
            chief = e["seat"]
        if e["type"] == "card" and state.events[state.events.index(e) - 1]["type"] == "trump":
            assert e["seat"] == chief


def test_vice_partner_and_trumps_with_four_players(tmp_path):
    rules = extended(tmp_path, "players: 4\ndeal:\n  hand: 9\n")
    game = Game(rules, max_rounds=3)
    state = play_game(game, [make_player("heuristic", s) for s in range(4)], 4)
    events = state.events
    rounds = [e["round"] for e in events if e["type"] == "chief"]
    assert rounds
    for r in set(rounds):
        mine = [e for e in events if e.get("round") == r]
        chief = next(e["seat"] for e in mine if e["type"] == "chief")
        vice = [e["seat"] for e in mine if e["type"] == "second"]
        partner = [e for e in mine if e["type"] == "partner"]
        assert len(partner) == 1 and partner[0]["seat"] == chief
        assert partner[0]["partner"] not in vice + [chief]             # « à l'exception du sous-Chef »
        trumps = [e for e in mine if e["type"] == "trump"]
        assert [e["seat"] for e in trumps] == vice + [chief]            # the vice chooses first
        laid = {s: [] for s in range(4)}
        for e in mine:
            if e["type"] == "lay":
                laid[e["seat"]] += e["cards"]
        for e in trumps:                                                 # among the cards it laid
            assert e["trump"] == "none" and e["seat"] == chief or any(
                e["trump"] in card.split("/") for card in laid[e["seat"]])


@functools.lru_cache(maxsize=None)
def _dealt(name: str):
    game = Game(load_variant(ROOT / "variants" / "others" / name))
    return game, game.new_game(1)


def contract(name: str, points: int, bid: int, trump: str = "red") -> list:
    """The contract part of each seat's points: seat 0 the chief, seat 1 its partner."""
    game, state = _dealt(name)
    rules, n = game.rules, game.round.players
    layer = _layer(rules.deck, trump)
    kind = layer[0]
    env = {"bid": bid, "round": 1, "players": n, "bidder_won": False, "_counts": {}, "_plays": [0] * n,
           "_roles": {}, "all_tricks_taken": 0, "bidder_side_points": points,
           "bidder_trump_colour": int(kind == "colour"), "bidder_trump_rank": int(kind == "rank"),
           "bidder_trump_none": int(kind == "none"), "bidder_trump_cards": trump_cards(state.table, layer)}
    seats = [{"won": False, "out_first": False, "cards_left": 0, "plays": 0, "card_points": 0,
              "trick_points": 0, "own_trick_points": 0, "tricks_taken": 0, "side_tricks": 0, "announced": 0}
             for _ in range(n)]
    roles = {0: "bidder", 1: "partner"} if n > 3 else {0: "bidder"}
    _, parts, _ = game.round.scoring.score(env, seats, lambda s: roles.get(s, "others"))
    return [dict(p).get("contract", 0) for p in parts]


def test_the_contract_of_the_rulebooks_example():
    """« A cinq joueurs, en misant 4 cartes, il aurait dû atteindre 33 points [...] il n'a
    obtenu que 29 points [...] il aurait dû miser 2 cartes au lieu de 4 [...] pénalité de
    2 X 10 [...] Les adversaires marquent chacun 10 points. »"""
    assert contract("mu.yaml", 29, 4) == [-20, 0, 10, 10, 10]
    assert contract("mu.yaml", 32, 4) == [-10, 0, 5, 5, 5]                 # one short of the 33 needed
    assert contract("mu.yaml", 33, 4) == [40, 40, 0, 0, 0]                 # made: both score the bonus
    assert contract("mu.yaml", 10, 4) == [-40, 0, 20, 20, 20]              # below one card's 24: all four short


# The published tables (the points needed by players and cards bid; the bonus by cards bid and
# the kind of the chief's trump), as mu.yaml's comment gives their source.
NEEDED = {"mu-3.yaml": (12, 2, 12), "mu-4.yaml": (30, 2, 15), "mu.yaml": (24, 3, 12), "mu-6.yaml": (20, 4, 10)}


@pytest.mark.parametrize("name", sorted(NEEDED))
def test_the_points_needed_follow_the_published_row_for_each_number_of_players(name):
    first, step, bids = NEEDED[name]
    for bid in range(1, bids + 1):
        needed = first + step * (bid - 1)
        made, short = contract(name, needed, bid), contract(name, needed - 1, bid)
        assert made[0] > 0 and short[0] == -10, (bid, needed)
    assert load_variant(ROOT / "variants" / "others" / name).spec["deal"]["hand"] == bids   # every bid a hand can lay


@pytest.mark.parametrize("name", ["mu-3.yaml", "mu.yaml", "mu-6.yaml"])
def test_the_bonus_grows_as_the_chiefs_trump_makes_fewer_trumps(name):
    needed = {"mu-3.yaml": 34, "mu.yaml": 57, "mu-6.yaml": 56}[name]      # enough for any bid
    bonus = {trump: contract(name, needed, 3, trump)[0] for trump in ("red", "7", "1", "5", "0", "none")}
    assert bonus == {"red": 30, "7": 40, "1": 40, "5": 50, "0": 50, "none": 60}
    assert contract(name, needed, 9 if name != "mu-6.yaml" else 8, "none")[0] == 100   # 12 or 11 steps: at most 100


# -- the trick: an independent brute force over every trump set-up -------------------------------
def brute_winner(trick, chief, vice, order):
    """The taker by the text: double trumps, then the chief's, then the vice's; by value in a
    colour trump; equal cards: the first; no trump: the highest of the colour led."""
    def matches(card, trump):
        if trump is None or trump == "none":
            return False
        rank, colour = card.split("/")
        return trump in (rank, colour)

    def key(card):
        rank, colour = card.split("/")
        layer = 2 * matches(card, chief) + matches(card, vice)
        if layer:
            colour_trump = (matches(card, chief) and chief == colour) or (matches(card, vice) and vice == colour)
            return (1, layer, order.index(rank) if colour_trump else 0)
        return None
    keys = [key(c) for c in trick]
    if any(keys):
        best = max(k for k in keys if k)
        return keys.index(best)
    led = trick[0].split("/")[1]
    values = [order.index(c.split("/")[0]) if c.split("/")[1] == led else -1 for c in trick]
    return values.index(max(values))


def test_trick_winners_over_every_trump_setup(mu3):
    deck = mu3.deck
    game = Game(mu3, max_rounds=1)
    state = game.new_game(1)
    while state.kind != "tricks":
        state.apply_action(first_lay_wins(state))
    table = state.table
    order = list(deck.ranks)
    choices = [None, "none"] + list(deck.colours) + list(deck.ranks)
    rng = random.Random(9)
    checked = 0
    for chief, vice in product(choices[1:], choices):
        if vice == "none":
            continue
        table.layers = [None if chief is None else _layer(deck, chief), None if vice is None else _layer(deck, vice)]
        table.settle(deck)
        for _ in range(30):
            cards = rng.sample(range(len(deck.cards)), 3)
            table.trick = [(s, c) for s, c in enumerate(cards)]
            names = [deck.card_names[c] for c in cards]
            assert table.winner() == brute_winner(names, chief, vice, order), (chief, vice, names)
            checked += 1
    table.trick = []
    assert checked > 1000


def _layer(deck, value):
    if value == "none":
        return ("none", -1)
    if value in deck.colours:
        return ("colour", deck.colours.index(value))
    return ("rank", deck.index[value])


def test_the_texts_two_hierarchies_and_a_value_trump_leaves_its_colour(mu3):
    deck = mu3.deck
    state = Game(mu3, max_rounds=1).new_game(1)
    while state.kind != "tricks":
        state.apply_action(first_lay_wins(state))
    table = state.table

    def order_of(chief, vice):
        table.layers = [_layer(deck, chief), _layer(deck, vice)]
        table.settle(deck)
        trumps = [c for c in range(len(deck.cards)) if table.suit[c] == table.trump_suit]
        ranked = sorted(trumps, key=lambda c: -table.strength[c])
        out = []
        for c in ranked:
            if not out or out[-1] != deck.card_names[c].replace("/blue", "/other").replace("/green", "/other"):
                out.append(deck.card_names[c].replace("/blue", "/other").replace("/green", "/other"))
        return out
    # « Atout Chef : Rouge. Atout sous-Chef : Sept. » sept rouge, neuf rouge ... zéro rouge, sept autres
    assert order_of("red", "7") == ["7/red", "9/red", "8/red", "6/red", "5/red", "4/red", "3/red", "2/red",
                                    "1/red", "0/red", "7/other"]
    # « Atout Chef : Sept. Atout sous-Chef : Rouge. » sept rouge, sept autres, neuf rouge ... zéro rouge
    assert order_of("7", "red") == ["7/red", "7/other", "9/red", "8/red", "6/red", "5/red", "4/red", "3/red",
                                    "2/red", "1/red", "0/red"]
    # a 7 chosen as trump is no longer red: with red led, a hand whose only red card is a 7
    # may play anything; and on a trump lead any trump of chief or vice answers
    table.layers = [_layer(deck, "blue"), _layer(deck, "7")]
    table.settle(deck)
    red_lead = deck.card_index["2/RED"]
    table.trick = [(1, red_lead)]
    hand = deck.cards_mask("7/red 3/green 5/blue")
    assert table.legal_mask(hand) == hand
    table.trick = [(1, deck.card_index["9/BLUE"])]
    assert table.legal_mask(hand) == deck.cards_mask("7/red 5/blue")
    table.trick = []


def _auction_after(lay_of_opener, seed: int, game=None):
    """mu.yaml (or ``game``) dealt with ``seed``, after the opener laid the two cards ``lay_of_opener``
    picks from its hand (one a turn, the others passing in between): (state, the seat to act)."""
    state = (game or _dealt("mu.yaml")[0]).new_game(seed)
    opener = state.current_player()
    cards = lay_of_opener(state, opener)
    if cards is None:
        return None, None
    first = cards & -cards
    for mask in (first, cards & ~first):
        state.apply_action(next(a for a in state.legal_actions() if a.kind == "lay" and a.mask == mask))
        if mask == first:
            for _ in range(state.n - 1):
                state.apply_action(PASS)
    return state, state.current_player()


def _two(state, seat, same_colour: bool):
    deck = state.game.rules.deck
    held = [c for c in range(len(deck.cards)) if state.held[seat] >> c & 1]
    for a in held:
        for b in held:
            ra, ca = deck.cards[a]
            rb, cb = deck.cards[b]
            if a < b and ra != rb and (ca == cb) == same_colour:
                return 1 << a | 1 << b
    return None


def test_heuristic_races_after_an_aimless_bid_and_not_after_a_coherent_one(tmp_path):
    """Two cards of different colours and values serve no trump choice: a tie for the most
    cards is coming, so where a dispute pays the tied seats as much as it costs the last of
    them (gain 10, loss 10 here), a heuristic seat with no contract in reach lays as many as
    it may; two cards of one colour are a contract bid, which such a seat leaves alone (it
    passes).  Under Mü's own settings (gain 5, loss 10) the race does not pay: it passes."""
    (tmp_path / "mu.yaml").write_text((ROOT / "variants" / "others" / "mu.yaml").read_text(encoding="utf-8"),
                                      encoding="utf-8")
    (tmp_path / "even.yaml").write_text("extends: mu.yaml\nphases:\n  auction:\n    dispute: {gain: 10, loss: 10}\n",
                                        encoding="utf-8")
    even = Game(load_variant(tmp_path / "even.yaml"))
    heuristic = make_player("heuristic", 0)
    checked = 0
    for seed in range(40):
        aimless, seat = _auction_after(lambda s, o: _two(s, o, same_colour=False), seed, even)
        coherent, other = _auction_after(lambda s, o: _two(s, o, same_colour=True), seed, even)
        official, _ = _auction_after(lambda s, o: _two(s, o, same_colour=False), seed)
        if aimless is None or coherent is None:
            continue
        deck = aimless.game.rules.deck
        colours = [deck.cards[c][1] for c in range(len(deck.cards)) if aimless.held[seat] >> c & 1]
        if max(colours.count(c) for c in set(colours)) - 2 >= 3:
            continue                                       # a contract is in this hand's reach
        raced = heuristic.act(aimless.observation(seat), aimless.legal_actions())
        assert raced.kind == "lay" and raced.mask.bit_count() == 2
        waited = heuristic.act(coherent.observation(other), coherent.legal_actions())
        assert waited.kind == "pass"
        assert heuristic.act(official.observation(seat), official.legal_actions()).kind == "pass"
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("name", ["mu-3.yaml", "mu.yaml"])
def test_the_record_is_the_same_whenever_it_is_read(name):
    """A deal's line and an auction's turns wait in compact form until the record is read:
    reading it after every action, now and then, or only at the end, and cloning mid-auction,
    all give the same lines (a deal, then a lay or a pass per turn, a dispute...)."""
    game = Game(load_variant(ROOT / "variants" / "others" / name), max_rounds=1)

    def play(read_every: int, clone_at: int = -1) -> list[dict]:
        state = game.new_game(11)
        rng = random.Random(3)
        step = 0
        while not state.is_terminal():
            if read_every and step % read_every == 0:
                assert all(isinstance(line, dict) for line in state.events)
            if step == clone_at:
                state = state.clone()
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
            step += 1
        return state.events

    record = play(0)
    assert record == play(1) == play(5) == play(0, clone_at=9) == play(3, clone_at=20)
    kinds = [line["type"] for line in record]
    assert kinds[:2] == ["game_start", "deal"] and "lay" in kinds and "pass" in kinds
    lays = [line for line in record if line["type"] in ("lay", "pass")]
    seats = [line["seat"] for line in lays[:6]]
    assert all(b == (a + 1) % game.players for a, b in zip(seats, seats[1:]))     # turns go round


def test_an_imagined_auction_lays_only_cards_the_imagined_hands_hold():
    """A search player's imagined world (``State.resample``) deals the hidden hands again; the
    auction's later turns must offer the cards of those hands, not of the real ones."""
    import random as _random
    game = Game(load_variant(ROOT / "variants" / "others" / "mu.yaml"), max_rounds=1)
    rng = _random.Random(5)
    checked = 0
    for seed in range(30):
        state = game.new_game(seed)
        while state.kind == "auction" and len(state.events) < 12:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        if state.kind != "auction":
            continue
        world = state.resample(state.current_player(), _random.Random(seed))
        while world.kind == "auction":
            seat = world.current_player()
            legal = world.legal_actions()
            for action in legal:
                if action.kind == "lay":
                    assert action.mask & ~world.held[seat] == 0, (seed, seat)
                    checked += 1
            world.apply_action(legal[rng.randrange(len(legal))])
    assert checked


# -- the contract in the record ------------------------------------------------------------------
def _chief_contracts(events: list) -> list[tuple]:
    """(chief_won, the chief's contract points) of each round_end, from the record's lines."""
    out, chief = [], None
    for e in events:
        if e["type"] == "chief":
            chief = e["seat"]
        elif e["type"] == "round_end":
            contract = sum(p for label, p in e["parts"][chief] if label == "contract")
            out.append((e.get("chief_won"), contract))
            chief = None
    return out


@pytest.mark.parametrize("name", ["mu.yaml", "mu-3.yaml"])
def test_round_end_says_whether_the_chiefs_contract_was_made(name):
    """A made contract scores the chief its bonus (above 0), a failed one its penalty (below 0)."""
    rules = load_variant(ROOT / "variants" / "others" / name)
    game = Game(rules)
    seen = set()
    for seed in range(3):
        state = play_game(game, [make_player("heuristic", seed * 10 + s) for s in range(game.players)], seed)
        for won, contract in _chief_contracts(state.events):
            assert won is (contract > 0)
            seen.add(won)
    assert seen == {True, False}


def test_a_record_without_chief_won_still_replays_and_a_forged_one_is_refused(tmp_path):
    from chimera_dsl.errors import RecordError
    from chimera_dsl.tell.record import dumps, parse_record, replay
    rules = load_variant(ROOT / "variants" / "others" / "mu.yaml")
    state = play_game(Game(rules), [make_player("heuristic", s) for s in range(5)], 4)
    events = [dict(e) for e in state.events]
    old = [{k: v for k, v in e.items() if k != "chief_won"} for e in events]
    replay(parse_record(dumps(old), "old.jsonl"), rules, file="old.jsonl")
    forged = [dict(e) for e in events]
    end = next(e for e in forged if e["type"] == "round_end")
    end["chief_won"] = not end["chief_won"]
    with pytest.raises(RecordError, match="chief_won"):
        replay(parse_record(dumps(forged), "forged.jsonl"), rules, file="forged.jsonl")


@pytest.mark.parametrize("text, message", [
    ("scoring:\n  bidder_won: made == 1\n  facts:\n    odd: if bidder_won then 1 else 0\n", "reads bidder_won"),
    ("scoring:\n  bidder_won: made\n", "must give a condition"),
])
def test_bidder_won_is_a_condition_read_after_the_facts(tmp_path, text, message):
    from chimera_dsl.errors import VariantError
    with pytest.raises(VariantError, match=message):
        extended(tmp_path, text)


def test_bidder_won_is_refused_where_the_play_or_no_bidder_decides(tmp_path):
    from chimera_dsl.errors import VariantError
    climbing = tmp_path / "climb.yaml"
    climbing.write_text(f"extends: {ROOT / 'variants' / 'chimera.yaml'}\nscoring:\n  bidder_won: bid > 20\n",
                        encoding="utf-8")
    with pytest.raises(VariantError, match="going out first"):
        load_variant(climbing)
    no_bidder = tmp_path / "chibre.yaml"
    no_bidder.write_text(f"extends: {ROOT / 'variants' / 'others' / 'chibre.yaml'}\n"
                         "scoring:\n  bidder_won: round > 1\n", encoding="utf-8")
    with pytest.raises(VariantError, match="no bidding or auction names a bidder"):
        load_variant(no_bidder)


# -- the contract told: chimera run / replay, the terminal and the web table ---------------------
@functools.lru_cache(maxsize=None)
def _mu_games() -> tuple:
    """The records of three heuristic games of mu.yaml (their chiefs both make and fail contracts)."""
    rules = load_variant(ROOT / "variants" / "others" / "mu.yaml")
    game = Game(rules)
    return rules, tuple(tuple(play_game(game, [make_player("heuristic", seed * 10 + s) for s in range(game.players)],
                                        seed).events) for seed in range(3))


def _told(rules, events, seat=None) -> list[str]:
    from chimera_dsl.tell.printer import Teller
    return list(Teller(rules, seat=seat, live=seat is not None).lines(events))


def test_a_rounds_end_tells_whether_the_chief_made_the_contract():
    rules, games = _mu_games()
    said = set()
    for events in games:
        lines = _told(rules, events)
        ends = [i for i, line in enumerate(lines) if line.startswith("  tricks taken: ")]
        chiefs = [e["seat"] for e in events if e["type"] == "chief"]
        made = [e["chief_won"] for e in events if e["type"] == "round_end"]
        assert len(ends) == len(chiefs) == len(made)
        for i, chief, won in zip(ends, chiefs, made):
            expected = (f"  seat {chief}, the chief, makes the contract: the chief wins the round" if won else
                        f"  seat {chief}, the chief, fails the contract: the opponents win the round")
            assert lines[i + 1] == expected
            said.add(won)
    assert said == {True, False}


def test_a_seat_at_the_table_is_told_the_contract_as_you():
    rules, games = _mu_games()
    events = games[0]
    chief = next(e["seat"] for e in events if e["type"] == "chief")
    won = next(e["chief_won"] for e in events if e["type"] == "round_end")
    lines = _told(rules, events, seat=chief)
    verb = "makes" if won else "fails"
    assert f"  seat {chief} (you), the chief, {verb} the contract: " in "\n".join(lines)


def test_a_record_without_chief_won_is_told_as_before():
    rules, games = _mu_games()
    for events in games:
        old = [{k: v for k, v in e.items() if k != "chief_won"} for e in events]
        before = _told(rules, old)
        assert not any("the contract" in line for line in before)
        assert before == [line for line in _told(rules, events) if " the contract: " not in line]


def test_bidder_won_may_not_read_itself(tmp_path):
    """Read inside its own condition it would be the default (false): 'bidder_won or made == 1' meant made == 1."""
    from chimera_dsl.errors import VariantError
    with pytest.raises(VariantError, match="reads itself") as caught:
        extended(tmp_path, "scoring:\n  bidder_won: bidder_won or made == 1\n")
    assert "test.yaml:3:" in str(caught.value)


def test_a_fact_that_reads_bidder_won_is_refused_at_the_fact(tmp_path):
    """The house file's fact is what to change, not the base's bidder_won."""
    from chimera_dsl.errors import VariantError
    with pytest.raises(VariantError, match="reads bidder_won") as caught:
        extended(tmp_path, "scoring:\n  facts:\n    odd: if bidder_won then 1 else 0\n")
    assert "test.yaml:4:" in str(caught.value)


@pytest.mark.parametrize("value, won", [("true", True), ("false", False)])
def test_bidder_won_written_as_a_yaml_boolean_is_that_condition(tmp_path, value, won):
    rules = extended(tmp_path, f"scoring:\n  bidder_won: {value}\n")
    state = play_game(Game(rules), [make_player("heuristic", s) for s in range(3)], 2)
    assert {e["chief_won"] for e in state.events if e["type"] == "round_end"} == {won}


def test_bidder_won_written_as_a_list_hints_at_a_condition(tmp_path):
    from chimera_dsl.errors import VariantError
    with pytest.raises(VariantError, match="must be an expression") as caught:
        extended(tmp_path, "scoring:\n  bidder_won: [1, 2]\n")
    assert "bidder_side_points >= needed" in str(caught.value) and "won then" not in str(caught.value)


@pytest.mark.parametrize("text, where", [
    ("scoring:\n  bidder_won: made == 1 and tricks_taken > 0\n", "scoring.bidder_won"),
    ("scoring:\n  facts:\n    t: own_trick_points * 2\n", "scoring.facts.t"),
    ("scoring:\n  bonuses:\n    t: tricks_taken\n", "scoring.bonuses.t"),
])
def test_a_seats_own_number_read_once_per_round_is_refused_as_such(tmp_path, text, where):
    """Each seat has its own tricks_taken: a round's condition or fact cannot read it."""
    from chimera_dsl.errors import VariantError
    with pytest.raises(VariantError, match=f"is each seat's own, but {where} is read once per round"):
        extended(tmp_path, text)


def test_the_last_bidder_of_a_dispute_is_the_last_of_the_tied_to_lay(mu3):
    # « hormis le dernier enchérisseur qui écope d'un malus » : mu.yaml reads it as the seat whose
    # lay made the tie (seat 0 here), not seat 2, which laid one card below the top after it.
    state = Game(mu3, max_rounds=1).new_game(5, first_dealer=0)
    for count in (1, 2, None, 1, None, 1):                 # seat 0, 1, 2, 0, 1, 2
        state.apply_action(PASS if count is None else next(a for a in lays(state) if bin(a.mask).count("1") == count))
    for _ in range(3):
        state.apply_action(PASS)
    dispute = next(e for e in state.events if e["type"] == "dispute")
    assert dispute["seats"] == [0, 1] and dispute["last"] == 0
    assert dispute["points"] == [-20, 10, 0]               # seat 2, not tied, gains nothing
