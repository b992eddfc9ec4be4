"""The PettingZoo environment (extra 'rl'): PettingZoo's own API test, and what the agents get."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OFFICIAL = ROOT / "variants" / "chimera.yaml"

if os.environ.get("CI", "").lower() == "true":
    import numpy as np                              # in CI the extra must be installed: fail, never skip
    import pettingzoo
    from pettingzoo.test import api_test
else:
    np = pytest.importorskip("numpy", reason="the 'rl' extra is not installed (pip install -e '.[rl]')")
    pettingzoo = pytest.importorskip("pettingzoo", reason="the 'rl' extra is not installed (pip install -e '.[rl]')")
    pytest.importorskip("gymnasium", reason="the 'rl' extra is not installed (pip install -e '.[rl]')")
    from pettingzoo.test import api_test

from chimera_dsl.errors import ChimeraError  # noqa: E402
from chimera_dsl.learn.rl import ChimeraEnv, env, observation_layout  # noqa: E402


def _random_game(table, seed: int) -> dict:
    """Play one episode with uniformly random legal indices; the rewards each agent received."""
    table.reset(seed=seed)
    rng = np.random.default_rng(seed)
    received = {agent: 0.0 for agent in table.possible_agents}
    for agent in table.agent_iter():
        observation, reward, termination, truncation, _info = table.last()
        received[agent] += reward
        if termination or truncation:
            table.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        table.step(int(rng.choice(legal)))
    return received


@pytest.mark.parametrize("episode", ["game", "round"])
def test_pettingzoo_api_test_passes(episode):
    api_test(env(OFFICIAL, episode=episode), num_cycles=400)


@pytest.mark.parametrize("path", sorted((ROOT / "variants").glob("**/*.yaml")),
                         ids=lambda p: str(p.relative_to(ROOT / "variants")))
def test_every_shipped_variant_runs_a_random_game_and_rewards_add_up_to_the_totals(path):
    table = env(path, target=150)
    received = _random_game(table, 3)
    totals = table.unwrapped.state.totals
    assert table.unwrapped.state.is_terminal() and not table.agents
    assert [received[a] for a in table.possible_agents] == [float(t) for t in totals]


def test_rewards_come_at_each_round_end_and_an_episode_may_be_one_round():
    table = env(OFFICIAL, target=150)
    table.reset(seed=5)
    rounds_rewarded = 0
    for agent in table.agent_iter():
        observation, reward, termination, truncation, _ = table.last()
        if termination or truncation:
            table.step(None)
            continue
        before = table.unwrapped.state.round
        table.step(int(np.flatnonzero(observation["action_mask"])[0]))
        state = table.unwrapped.state
        ended = state.round != before or state.is_terminal()
        assert any(table.unwrapped.rewards.values()) <= ended       # rewards only when a round ends
        rounds_rewarded += ended
    assert rounds_rewarded == state.round >= 2
    one = env(OFFICIAL, episode="round")
    _random_game(one, 5)
    assert one.unwrapped.state.round == 1


def test_same_seed_same_episode():
    a, b = env(OFFICIAL, episode="round"), env(OFFICIAL, episode="round")
    assert _random_game(a, 11) == _random_game(b, 11)
    assert a.unwrapped.state.events == b.unwrapped.state.events
    a.reset(seed=12)
    assert a.unwrapped.state.events[1] != b.unwrapped.state.events[1]


def test_the_mask_marks_exactly_the_legal_actions_of_the_agent_to_act():
    table = ChimeraEnv(OFFICIAL)
    table.reset(seed=2)
    state = table.state
    for _ in range(60):
        agent = table.agent_selection
        legal = state.legal_actions()
        mask = table.observe(agent)["action_mask"]
        assert int(mask.sum()) == len(legal) and set(table.legal_actions()) == set(legal)
        assert mask[:len(legal)].all() and not mask[len(legal):].any()
        if any(a.kind == "pass" for a in legal):
            assert table.legal_actions()[0].kind == "pass"                # passing is index 0
        for other in table.possible_agents:
            if other != agent:
                assert not table.observe(other)["action_mask"].any()
        table.step(len(legal) - 1)


def test_the_observation_shows_the_seat_s_hand_and_nothing_hidden():
    table = ChimeraEnv(OFFICIAL)
    table.reset(seed=8)
    layout = observation_layout(table.rules, 3)
    assert [name for name, *_ in layout][:3] == ["hand", "cards_left", "last_play"]
    ranks = len(table.rules.deck.ranks)
    for seat, agent in enumerate(table.possible_agents):
        vector = table.observe(agent)["observation"]
        assert vector.dtype == np.float32 and vector.shape == table.observation_space(agent)["observation"].shape
        hand = table.state.hands[seat]
        cards = table.rules.deck.expand(hand)
        assert [int(x) for x in vector[:ranks]] == [cards.count(i) for i in range(ranks)]
        assert list(vector[ranks:ranks + 3]) == [17.0, 17.0, 17.0]
    # the same seat, the same public facts, other hidden cards: the same vector
    twin = table.state.resample(0, __import__("random").Random(1))
    assert twin.hands[1] != table.state.hands[1]
    assert (table.encode(twin.observation(0)) == table.encode(table.state.observation(0))).all()


def test_wrong_options_and_illegal_indices_are_explained():
    with pytest.raises(ChimeraError, match="episode must be one of game, round"):
        ChimeraEnv(OFFICIAL, episode="trick")
    with pytest.raises(ChimeraError, match="max_actions"):
        ChimeraEnv(OFFICIAL, max_actions=1)
    with pytest.raises(ChimeraError, match="render_mode"):
        ChimeraEnv(OFFICIAL, render_mode="rgb_array")
    table = ChimeraEnv(OFFICIAL)
    table.reset(seed=1)
    with pytest.raises(ChimeraError, match="is not legal for player_"):
        table.step(len(table.legal_actions()))


def test_a_state_with_more_actions_than_the_space_offers_the_first_ones_and_says_so():
    table = ChimeraEnv(OFFICIAL, max_actions=3)
    table.reset(seed=4)
    while table.state.kind != "play":
        table.step(0)
    agent = table.agent_selection
    assert table.observe(agent)["action_mask"].tolist() == [1, 1, 1]
    assert table.infos[agent]["actions_left_out"] == len(table.state.legal_actions()) - 3


def test_render_tells_the_game_as_it_goes():
    table = ChimeraEnv(OFFICIAL, render_mode="ansi", episode="round")
    table.reset(seed=3)
    first = table.render()
    assert "Round 1" in first or "seat" in first
    table.step(0)
    assert table.render() and table.render() == ""


FIXED = [OFFICIAL, ROOT / "variants" / "others" / "gang-of-four.yaml", ROOT / "variants" / "others" / "chibre.yaml",
         ROOT / "variants" / "others" / "mu.yaml"]


@pytest.mark.parametrize("path", FIXED, ids=lambda p: p.name)
def test_pettingzoo_api_test_passes_with_the_fixed_action_space(path):
    api_test(env(path, actions="fixed", episode="round"), num_cycles=300)


def test_with_the_fixed_action_space_the_mask_marks_the_ids_of_the_legal_actions():
    table = ChimeraEnv(OFFICIAL, actions="fixed", episode="round")
    table.reset(seed=2)
    space = table.space
    assert table.action_space(table.agent_selection).n == space.size
    rng = np.random.default_rng(2)
    for _ in range(80):
        agent = table.agent_selection
        mask = table.observe(agent)["action_mask"]
        ids = [int(i) for i in np.flatnonzero(mask)]
        assert ids == space.legal_ids(table.state) == table.legal_ids()
        assert [space.encode(a, table.state) for a in table.legal_actions()] == ids
        if table.terminations[agent]:
            break
        table.step(int(rng.choice(ids)))
    with pytest.raises(ChimeraError, match="is not legal for player_"):
        table.reset(seed=2)
        table.step(next(i for i in range(space.size) if i not in table.legal_ids()))
    with pytest.raises(ChimeraError, match="actions must be one of legal, fixed"):
        ChimeraEnv(OFFICIAL, actions="ids")
