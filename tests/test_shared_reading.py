"""What the engine reads once and shares, instead of reading again: the seats whose scoring
environments are alike (partners) take one reading of the terms, and ``play.must`` reads each
rule's ``when`` once per state of the table.  Each shared reading must give what reading again
gives, and the seats' parts must stay their own lists.
"""
from __future__ import annotations

import random
from pathlib import Path

from chimera_dsl import load_variant
from chimera_dsl.engine import Game
from chimera_dsl.engine.phases import tricks
from chimera_dsl.engine.scoring import _twins

ROOT = Path(__file__).resolve().parents[1]


def test_twins_are_equal_environments_of_one_role_and_the_same_types():
    envs = [{"a": 1, "b": 2}, {"a": 1, "b": 3}, {"a": 1, "b": 2}, {"a": 1, "b": 3}]
    assert _twins(envs, [None] * 4) == [None, None, 0, 1]
    # equal values of another type (True == 1) are told apart: a term may read them otherwise
    assert _twins([{"a": 1}, {"a": True}, {"a": 1.0}, {"a": 1}], [None] * 4) == [None, None, None, 0]
    # the same environment in two roles: each role scores its own terms
    assert _twins([{"a": 1}, {"a": 1}, {"a": 1}], ["bidder", "others", "others"]) == [None, None, 1]


def test_partners_score_what_they_would_score_apart_in_lists_of_their_own():
    game = Game(load_variant(ROOT / "variants" / "others" / "euchre.yaml"), max_rounds=1)
    scoring = game.round.scoring
    env = {"bid": 0, "round": 1, "players": 4, "bidder_won": False, "bidder_alone": 0, "defender_alone": 0,
           "bidder_side_tricks": 5}
    alike = [{"bidder_side": side} for side in (1, 0, 1, 0)]
    _, parts, _ = scoring.score(env, alike, lambda s: None)
    # each seat scored alone: nothing to share
    alone = [scoring.score(env, [seat], lambda s: None)[1][0] for seat in alike]
    assert parts == alone
    assert parts[0] == [["march", 2]] and parts[1] == []
    assert parts[2] is not parts[0] and parts[2][0] is not parts[0][0]
    parts[2][0][1] = 99                        # a seat's parts are its own
    assert parts[0] == [["march", 2]]


def test_a_must_rule_read_once_per_table_narrows_as_reading_it_again():
    game = Game(load_variant(ROOT / "variants" / "others" / "hearts.yaml"), max_rounds=1)
    rng = random.Random(3)
    checked = 0
    for seed in range(6):
        state = game.new_game(seed)
        while not state.is_terminal():
            if state.kind == "tricks":
                phase, table = state._now, state.table
                rules = tricks.narrower(game, phase)
                held = state.held[table.turn]
                holding = rules.holding(table.count + 1, not table.trick, state.round, held)
                # the rules of hearts.yaml: 2 of clubs leads trick 1, no points on trick 1, hearts broken to lead
                assert holding == ((table.count == 0 and not table.trick) * 1 | (table.count == 0) * 2
                                   | (not table.trick) * 4)
                legal = table.legal_mask(held) if table.trick else held
                args = (legal, held, tricks._played(table), table.count + 1, not table.trick, state.round,
                        table.card_points, (phase.name, tuple(table.layers)), None)
                assert rules.narrow(*args, holding) == rules.narrow(*args)
                checked += 1
            legal_actions = state.legal_actions()
            state.apply_action(legal_actions[int(rng.random() * len(legal_actions))])
    assert checked == 6 * 52
