"""The table of zones (chimera_dsl.engine.zones): every shipped file, played at random, shows
each seat no card of a zone it may not see, and the zones say where the cards are."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from chimera_dsl import load_variant
from chimera_dsl.engine import Game
from chimera_dsl.engine import zones
from chimera_dsl.engine.zones import ALL, COUNT, NOBODY, OWNER, Zone

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "variants").rglob("*.yaml"))
STEPS = 160


def shown(observation) -> dict[str, int]:
    """The cards an observation names by their very identity (bit masks), by where it shows them."""
    out = {"held": observation.held or 0}
    table = observation.table or {}
    for seat, mask in (table.get("exposed") or {}).items():
        out[f"exposed[{seat}]"] = mask
    for seat, mask in enumerate(table.get("laid") or ()):
        out[f"laid[{seat}]"] = mask
    for seat, mask in enumerate(table.get("taken") or ()):
        out[f"taken[{seat}]"] = mask
    trick = 0
    for _seat, card in table.get("trick_cards") or ():
        trick |= 1 << card
    out["trick"] = trick
    out["played"] = table.get("played") or 0
    return out


def check(state, where: str) -> None:
    deck = state.game.rules.deck
    table = zones.zones(state)
    for seat in range(state.n):
        observation = state.observation(seat)
        seen = zones.seen_by(state, seat)
        for name, mask in shown(observation).items():
            hidden = mask & ~seen
            assert not hidden, (f"{where}: seat {seat} is shown {deck.mask_names(hidden)} in {name}, "
                                f"in no zone it may see")
        nest = zones.nest(state)
        assert (observation.nest is not None) == (zones.sees(nest, seat) and state.nest is not None), where
        own = [z for z in table if z.name == "hand" and z.owner == seat]
        assert len(own) == 1 and own[0].cards == observation.held, where
        for zone in table:               # another seat's hand: never seen, but for what it exposes
            if zone.name == "hand" and zone.owner != seat:
                assert not zones.sees(zone, seat)
        # the observation's zones: its own hand's cards, the other hands counted and never named,
        # the cards not dealt neither named nor counted, the same cards wherever the view names them
        seen_zones = observation.zones
        assert [(z.name, z.owner) for z in seen_zones] == [(z.name, z.owner) for z in table], where
        for zone in seen_zones:
            if zone.name == "hand":
                assert zone.cards == (observation.held if zone.owner == seat else None), where
                assert zone.size == zones.hand(state, zone.owner).cards.bit_count(), where
            elif zone.name == "undealt":
                assert zone.cards is None and zone.size is None, where
            elif zone.name == "exposed":
                assert zone.cards == state.held[zone.owner], where


@pytest.mark.parametrize("path", SHIPPED)
def test_no_observation_shows_a_card_of_a_zone_its_seat_may_not_see(path):
    game = Game(load_variant(str(ROOT / path)))
    rng = random.Random(7)
    state = game.new_game(3)
    for step in range(STEPS):
        if state.is_terminal():
            break
        check(state, f"{path}, step {step}")
        state.apply_action(rng.choice(state.legal_actions()))


def test_the_one_rule_of_what_a_seat_sees():
    hand = Zone("hand", 1, OWNER, 0b1010)
    assert zones.sees(hand, 1) and not zones.sees(hand, 0) and zones.counts(hand, 0)
    team = Zone("won", (0, 2), OWNER, 0b1)
    assert zones.sees(team, 2) and not zones.sees(team, 1)
    assert all(zones.sees(Zone("trick", None, ALL, 1), s) for s in range(4))
    unseen = Zone("unseen", 0, COUNT, 0b11)
    assert not zones.sees(unseen, 0) and zones.counts(unseen, 3)
    nest = Zone("nest", None, NOBODY, 0b100)
    assert not any(zones.sees(nest, s) or zones.counts(nest, s) for s in range(4))


def test_a_trick_round_keeps_every_card_in_one_place():
    """In a trick-taking round every card of the deck is in exactly one of the hands, the piles
    won, the trick, the nest not yet taken and the undealt cards, whatever was played."""
    game = Game(load_variant(str(ROOT / "variants/others/hearts.yaml")))
    rng = random.Random(1)
    state = game.new_game(5)
    seen_tricks = False
    for _ in range(60):
        kinds = {"hand", "won", "trick", "undealt", "nest", "given"}
        places = [z for z in zones.zones(state) if z.name in kinds and z.form == zones.MASK
                  and not (z.name == "nest" and z.owner is not None)]
        union = 0
        for zone in places:
            assert not union & zone.cards, f"{zone.name} of {zone.owner} overlaps another zone"
            union |= zone.cards
        assert union == state.game.rules.deck.full_mask
        seen_tricks |= any(z.name == "won" and z.cards for z in places)
        state.apply_action(rng.choice(state.legal_actions()))
    assert seen_tricks


def test_a_dummy_is_exposed_to_all_once_the_opening_lead_is_made():
    game = Game(load_variant(str(ROOT / "variants/others/bridge.yaml")))
    rng = random.Random(2)
    for seed in range(20):
        state = game.new_game(seed)
        while not state.is_terminal() and not zones.exposed(state):
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        (dummy_zone,) = zones.exposed(state)
        dummy = dummy_zone.owner
        for seat in range(state.n):
            observation = state.observation(seat)
            assert observation.table["exposed"] == {dummy: state.held[dummy]}
            assert zones.seen_by(state, seat) & state.held[dummy] == state.held[dummy]
        return
    pytest.fail("no deal of twenty reached its play")


def _random_state(path: str, ready, seed: int = 4):
    """A state of a random game of ``path`` at its first decision where ``ready(state)`` holds."""
    game = Game(load_variant(str(ROOT / path)))
    rng = random.Random(seed)
    state = game.new_game(seed)
    while not ready(state):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_what_an_observation_shows_of_cards_follows_the_visibility_of_each_kind(monkeypatch):
    """The observation is built from the zones: made visible to their owner only, the piles won
    are no longer shown to the others (nor counted in the cards they saw played); the trick made
    visible to nobody is shown to nobody; the face-up card made its receiver's is the receiver's."""
    hearts = _random_state("variants/others/hearts.yaml",
                           lambda s: s.kind == "tricks" and sum(1 for t in s.table.taken if t) >= 2 and s.table.trick)
    table = hearts.table
    before = [hearts.observation(s).table for s in range(4)]
    assert all(view["taken"] == list(table.taken) for view in before)
    monkeypatch.setitem(zones.VISIBILITY, "won", OWNER)
    monkeypatch.setitem(zones.VISIBILITY, "trick", NOBODY)
    for seat in range(4):
        view = hearts.observation(seat).table
        assert view["taken"] == [t if s == seat else 0 for s, t in enumerate(table.taken)]
        assert view["trick"] == [] and view["trick_cards"] == []
        assert view["played"] == table.taken[seat]
    chimera = _random_state("variants/chimera.yaml", lambda s: any(s.taken) and s.trick and s.face_up, seed=2)
    for seat in range(chimera.n):
        seen = chimera.observation(seat)
        assert seen.taken == tuple(t if s == seat else 0 for s, t in enumerate(chimera.taken))
        assert seen.trick == () and seen.last_play is None and seen.last_player is None
    receiver = chimera.face_up[1]
    assert all(chimera.observation(s).face_up == chimera.face_up for s in range(chimera.n))
    monkeypatch.setitem(zones.VISIBILITY, "face_up", OWNER)
    assert [chimera.observation(s).face_up is not None for s in range(chimera.n)] == \
        [s == receiver for s in range(chimera.n)]
    monkeypatch.setitem(zones.VISIBILITY, "won", ALL)
    monkeypatch.setitem(zones.VISIBILITY, "trick", ALL)
    assert hearts.observation(1).table == before[1]


def test_a_zone_of_a_new_kind_reaches_the_players_with_no_field_of_its_own(monkeypatch):
    """A kind of zone the observation has no field for is seen through ``observation.zones``,
    by the one rule: a pool face up for all, a seat's hidden reserve counted by the others."""
    state = _random_state("variants/chimera.yaml", lambda s: s.kind == "play")
    listed = zones.zones
    monkeypatch.setattr(zones, "zones", lambda st: listed(st) + [Zone("pool", None, ALL, 0b101),
                                                                 Zone("reserve", 1, OWNER, 0b11000)])
    for seat in range(state.n):
        seen = {z.name: z for z in state.observation(seat).zones}
        assert (seen["pool"].cards, seen["pool"].size) == (0b101, 2)
        assert (seen["reserve"].cards, seen["reserve"].size) == ((0b11000 if seat == 1 else None), 2)
