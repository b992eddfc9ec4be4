"""The learner's interface: a fixed action space per variant, observations with colours, trump,
contract and the round's plays, and every shipped variant as an OpenSpiel game (extras rl and
peers) on which OpenSpiel's own checks pass and its ISMCTS bot plays."""
from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from chimera_dsl.engine import PASS, Game, zones
from chimera_dsl.learn.actions import ActionSpace, UnsupportedVariant
from chimera_dsl.variant import load_variant

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = sorted((ROOT / "variants").glob("**/*.yaml"))
IDS = [str(p.relative_to(ROOT / "variants")) for p in VARIANTS]
GANG = ROOT / "variants" / "others" / "gang-of-four.yaml"
CHIBRE = ROOT / "variants" / "others" / "chibre.yaml"
MU = ROOT / "variants" / "others" / "mu.yaml"
OFFICIAL = ROOT / "variants" / "chimera.yaml"

if os.environ.get("CI", "").lower() == "true":
    import numpy as np                              # in CI the extras must be installed: fail, never skip
    import pyspiel
else:
    np = pytest.importorskip("numpy", reason="the 'rl' extra is not installed (pip install -e '.[rl]')")
    pyspiel = pytest.importorskip("pyspiel", reason="the 'peers' extra is not installed (pip install -e '.[peers]')")

from chimera_dsl.learn import spiel  # noqa: E402
from chimera_dsl.learn.observe import Encoder, Table  # noqa: E402

_SPACES: dict[Path, ActionSpace] = {}


def space_of(path: Path, **options) -> ActionSpace:
    if options:
        return ActionSpace(Game(load_variant(path), **options))
    if path not in _SPACES:
        _SPACES[path] = ActionSpace(Game(load_variant(path), max_rounds=2))
    return _SPACES[path]


# -- the action space ------------------------------------------------------------------------

@pytest.mark.parametrize("path", VARIANTS, ids=IDS)
def test_every_legal_action_of_a_random_game_has_an_id_that_decodes_back_to_it(path):
    space = space_of(path)
    rng = random.Random(4)
    state = space.game.new_game(4)
    moves = 0
    while not state.is_terminal() and moves < 400:
        legal = state.legal_actions()
        by_id = space.legal(state)
        assert list(by_id) == sorted(by_id) and all(0 <= i < space.size for i in by_id)
        for action in legal:                      # every legal action has an id, and that id's
            i = space.encode(action, state)       # action is the same decision (its canonical form)
            assert i in by_id and space.key(space.decode(i, state), state) == space.key(action, state)
        state.apply_action(space.decode(rng.choice(list(by_id)), state))
        moves += 1
    assert moves > 20


def test_an_id_means_the_same_action_in_every_position_and_every_load():
    space = space_of(GANG)
    again = ActionSpace(Game(load_variant(GANG)))
    assert again.size == space.size and again._keys == space._keys
    seen: dict[int, object] = {}
    for seed in range(3):
        state = space.game.new_game(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            for i, action in space.legal(state).items():
                described = space.describe(i)
                if action.kind == "play":                     # the cards named are the play's
                    assert sorted(described.split(": ")[1].split()) == sorted(action.play.cards)
                assert seen.setdefault(i, described) == described
            ids = space.legal_ids(state)
            state.apply_action(space.decode(rng.choice(ids), state))
    assert len(seen) > 300
    assert space.encode(PASS, state) == 0 and space.describe(0) == "pass"


def test_the_space_is_the_variant_s_own_size():
    chibre = space_of(CHIBRE)
    # pass, 4 colours + 9 ranks + no trump, 36 cards: a trick-taking space is small and exact
    assert chibre.size == 1 + 14 + 36
    assert [kind for kind, *_ in chibre.segments] == ["pass", "trump", "card"]
    official = space_of(OFFICIAL)
    assert [kind for kind, *_ in official.segments] == ["pass", "bid", "play", "give"]
    firsts = [first for _, first, _ in official.segments]
    assert firsts == sorted(firsts) and sum(count for *_, count in official.segments) == official.size
    with pytest.raises(Exception, match="not legal now"):
        state = official.game.new_game(1)
        official.decode(official.size - 1, state)


def test_a_variant_whose_space_cannot_be_listed_is_refused_with_the_reason(write_variant):
    path = write_variant(f"extends: {MU}\nphases:\n  auction:\n    kind: auction\n    per_turn: null\n", "open.yaml")
    with pytest.raises(UnsupportedVariant, match="auction auction sets no per_turn"):
        ActionSpace(Game(load_variant(path)))


# -- observations ------------------------------------------------------------------------------

def _to_phase(table: Table, kind: str, seed: int) -> None:
    rng = random.Random(seed)
    while table.state.kind != kind:
        table.apply(rng.choice(table.space.legal_ids(table.state)))


def test_two_different_trumps_give_two_different_observations():
    space = space_of(CHIBRE)
    encoder = Encoder(space)
    table = Table(space.game, seed=3, space=space)
    _to_phase(table, "trump", 3)
    chooser = table.state.current_player()
    trumps = [i for i in space.legal_ids(table.state) if space.kind_of(i) == "trump"]
    assert len(trumps) >= 2
    vectors = []
    for i in trumps[:2]:
        twin = table.clone()
        twin.apply(i)
        vectors.append([encoder.encode(twin, seat) for seat in range(4)])
        assert encoder.view(vectors[-1][chooser], "trumps")[0].sum() == 1.0
    for seat in range(4):
        assert not np.array_equal(vectors[0][seat], vectors[1][seat])


def test_the_vector_shows_colours_the_round_s_plays_and_the_contract():
    space = space_of(OFFICIAL)
    encoder = Encoder(space)
    table = Table(space.game, seed=5, space=space)
    _to_phase(table, "play", 5)
    rng = random.Random(5)
    for _ in range(6):
        table.apply(rng.choice(table.space.legal_ids(table.state)))
    state = table.state
    seat = state.current_player()
    vector = encoder.encode(table, seat)
    assert vector.dtype == np.float32 and vector.shape == (encoder.size,)
    hand = encoder.view(vector, "hand")
    names = space.names
    assert sorted(n for i, n in enumerate(names) for _ in range(int(hand[i]))) == \
        sorted(state.observation(seat).cards)                     # each card by its colour
    played = encoder.view(vector, "played")
    assert played.sum() == sum(state.game.rules.deck.size_of(k) for k in state.observation(seat).played_by)
    bidder = state.observation(seat).bidder
    assert encoder.view(vector, "bidder")[(bidder - seat) % 3] == 1.0
    assert encoder.view(vector, "bid_level").sum() == 1.0


@pytest.mark.parametrize("path", VARIANTS, ids=IDS)
def test_cards_a_seat_cannot_see_change_neither_its_vector_nor_its_information_state(path):
    """At every third decision of a random game of two rounds, the hidden cards dealt again for
    the seat to act (as search bots imagine them) leave its vector and its information state
    as they were, and change another seat's where the cards it cannot see lie in more than one
    place (two seats with no stock left: the other's hand is all it does not see, and known)."""
    space = space_of(path)
    encoder = Encoder(space)
    table = Table(space.game, seed=9, space=space)
    rng = random.Random(9)
    checked = moved = 0
    while not table.state.is_terminal():
        if len(table.history) % 3 == 0:
            seat = table.state.current_player()
            world = table.resample(seat, random.Random(len(table.history)))
            assert np.array_equal(encoder.encode(world, seat), encoder.encode(table, seat))
            assert encoder.text(world, seat, history=True) == encoder.text(table, seat, history=True)
            seen = zones.seen_by(table.state, seat)
            hiding = [z for z in zones.zones(table.state) if z.form == zones.MASK and z.cards & ~seen]
            if len(hiding) > 1:
                moved += any(not np.array_equal(encoder.encode(world, s), encoder.encode(table, s))
                             for s in range(space.players) if s != seat)
                checked += 1
        table.apply(rng.choice(table.space.legal_ids(table.state)))
    assert checked > 10 and moved > checked // 2


# -- OpenSpiel ---------------------------------------------------------------------------------

@pytest.mark.parametrize("path", VARIANTS, ids=IDS)
def test_openspiel_s_own_random_simulation_checks_pass(path):
    game = pyspiel.load_game(spiel.SHORT_NAME, {"variant": str(path), "seed": 7, "max_rounds": 1})
    assert game.num_distinct_actions() == game.space.size
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_a_game_s_returns_share_one_win_and_points_are_the_totals():
    for utility in ("win", "points"):
        game = pyspiel.load_game(spiel.SHORT_NAME, {"variant": str(GANG), "seed": 3, "utility": utility})
        state = game.new_initial_state()
        rng = random.Random(3)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        totals = list(state.table.state.observation(0).totals)
        if utility == "win":
            assert sum(state.returns()) == pytest.approx(1.0)
            best = min(totals)                                   # Gang of Four: the fewest points win
            assert [r > 0 for r in state.returns()] == [t == best for t in totals]
        else:
            assert state.returns() == [float(t) for t in totals]


def test_the_same_seed_deals_the_same_games_and_a_clone_plays_on_alike():
    games = [pyspiel.load_game(spiel.SHORT_NAME, {"variant": str(GANG), "seed": 11}) for _ in range(2)]
    states = [g.new_initial_state() for g in games]
    assert str(states[0]) == str(states[1])
    clone = states[0].clone()
    for action in states[0].legal_actions()[:1] * 1:
        states[0].apply_action(action)
        clone.apply_action(action)
    assert str(states[0]) == str(clone)
    assert states[0].information_state_string(0) == clone.information_state_string(0)
    assert states[0].observation_tensor(1) == clone.observation_tensor(1)


def test_wrong_parameters_are_explained():
    with pytest.raises(Exception, match="needs the parameter variant"):
        pyspiel.load_game(spiel.SHORT_NAME, {})
    with pytest.raises(Exception, match="utility must be one of win, points"):
        pyspiel.load_game(spiel.SHORT_NAME, {"variant": str(GANG), "utility": "score"})
    with pytest.raises(Exception, match="needs max_moves"):
        pyspiel.load_game(spiel.SHORT_NAME, {"variant": str(GANG), "max_rounds": 0})


def test_a_game_cut_at_max_moves_is_a_draw():
    game = pyspiel.load_game(spiel.SHORT_NAME, {"variant": str(OFFICIAL), "seed": 1, "max_moves": 5})
    assert game.max_game_length() == 5
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert len(state.history()) == 5 and state.returns() == [pytest.approx(1 / 3)] * 3


def test_the_ismcts_example_plays_the_default_player(capsys):
    import runpy
    example = runpy.run_path(str(ROOT / "examples" / "ismcts_gang_of_four.py"))
    assert example["main"](["--games", "1", "--simulations", "3", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "game 1: ISMCTS in seat 0" in out and "against the default player, 1 games of gang-of-four.yaml" in out


TINY = """format: 1
game: tiny-climb
name: Tiny climb (two players, four cards)
players: 2
deck:
  ranks: [1, 2, 3, 4]
  colours: [red]
  cards:
    - {ranks: "1..4", per_colour: 1}
deal:
  hand: 2
  nest: 0
play:
  first_leader: dealer
combinations:
  single:
    pattern: single of any
scoring:
  points:
    each:
      paid: "-cards_left"
end:
  rounds: 1
  winner: highest
"""


def test_with_explicit_deals_openspiel_s_checks_pass_and_cfr_solves_a_small_variant(write_variant):
    from open_spiel.python.algorithms import cfr, exploitability
    gang = pyspiel.load_game(spiel.SHORT_NAME, {"variant": str(GANG), "deals": 4, "seed": 2})
    assert gang.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = gang.new_initial_state()
    assert state.is_chance_node() and state.chance_outcomes() == [(k, 0.25) for k in range(4)]
    pyspiel.random_sim_test(gang, num_sims=2, serialize=False, verbose=False)
    tiny = pyspiel.load_game(spiel.SHORT_NAME, {"variant": str(write_variant(TINY, "tiny.yaml")), "deals": 6, "seed": 1})
    solver = cfr.CFRSolver(tiny)
    solver.evaluate_and_update_policy()
    first = exploitability.nash_conv(tiny, solver.average_policy())
    for _ in range(30):
        solver.evaluate_and_update_policy()
    last = exploitability.nash_conv(tiny, solver.average_policy())
    assert first > 0.05 and last < first / 4


def test_a_state_that_cannot_be_serialized_says_so():
    import pickle
    game = pyspiel.load_game(spiel.SHORT_NAME, {"variant": str(GANG), "seed": 1})
    with pytest.raises(Exception, match="cannot be serialized"):
        pickle.dumps(game.new_initial_state()._lazy)


def test_the_example_explains_a_missing_file(capsys):
    import runpy
    example = runpy.run_path(str(ROOT / "examples" / "ismcts_gang_of_four.py"))
    assert example["main"](["--variant", "nowhere.yaml"]) == 2
    assert "cannot read 'nowhere.yaml'" in capsys.readouterr().err
