"""A round composes or refuses: the phase kinds and play kinds, put together in any shipped file,
either load and play to their end, or are refused when the file loads with a located problem.

Never a file that validates and then stops every game (a seat with no legal action, an internal
error) or never ends.  The broken files of ``tests/variants/invalid/`` pin the exact messages
of the refusals; here the whole matrix is played.
"""
from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from chimera_dsl import load_variant
from chimera_dsl.engine import Game
from chimera_dsl.players import make_player
from chimera_dsl.variant import check_variant

ROOT = Path(__file__).resolve().parents[1]
CHIBRE = ROOT / "variants" / "others" / "chibre.yaml"
# the shipped files that extend no other: every other shipped file changes one of these
BASES = ["chimera.yaml", "others/doudizhu.yaml", "others/gang-of-four.yaml", "others/chibre.yaml", "others/mu.yaml",
         "others/euchre.yaml"]
PLAY_KINDS = ("play", "tricks")
PHASE_KINDS = (None, "bidding", "transfer", "ring", "trump", "auction", "partner", "order_up")


def game_ends(rules, seed: int, bound: int = 50_000) -> str | None:
    """None when a whole game of random players ends within ``bound`` decisions; else why not."""
    game = Game(rules)
    players = [make_player("random", seed * 10 + seat) for seat in range(game.players)]
    state = game.new_game(seed)
    for _ in range(bound):
        if state.is_terminal():
            return None
        seat = state.current_player()
        state.apply_action(players[seat].act(state.observation(seat), state.legal_actions()))
    return f"no end after {bound} decisions (round {state.round})"


def default_round(spec: dict) -> list[str]:
    """The round a file without ``round`` plays (docs/variant-format.md, "round")."""
    names = ["deal"] + [name for name in ("bidding", "nest") if name in spec]
    exchange = spec.get("exchange")
    if isinstance(exchange, dict) and exchange.get("between", "others") != "nobody":
        names.append("exchange")
    return names + ["play", "scoring"]


def composed(spec: dict, play_kind: str, phase_kind: str | None) -> dict | None:
    """``spec`` with its play of ``play_kind`` and a phase of ``phase_kind`` added to its round
    (None: none added, or the file has that phase already)."""
    spec = copy.deepcopy(spec)
    names = list(spec.get("round") or default_round(spec))
    if spec["play"].get("kind", "play") != play_kind:
        spec["play"] = {"kind": play_kind, "first_leader": "dealer_left"}
        if play_kind == "play" and "combinations" not in spec:
            spec["combinations"] = {"single": {"pattern": "single of any"}, "pair": {"pattern": "pair of any"}}
    phases = spec.setdefault("phases", {})
    before_play = names.index("play")
    if phase_kind == "bidding":
        if "bidding" in names:
            return None
        spec["bidding"] = {"opener": "dealer_left", "levels": [1, 2, 3]}
        names.insert(1, "bidding")
    elif phase_kind == "transfer":
        phases["added"] = {"kind": "transfer", "from": "dealer", "to": "dealer_left", "count": 1}
        names.insert(before_play, "added")
    elif phase_kind == "ring":
        phases["added"] = {"kind": "transfer", "from": "others", "to": "next", "count": 1}
        names.insert(before_play, "added")
    elif phase_kind == "trump":
        layers = sum(1 for phase in phases.values() if phase.get("kind") == "trump")
        phases["added"] = {"kind": "trump", "chooser": "dealer_left", "layer": layers}
        names.insert(before_play, "added")
    elif phase_kind == "auction":
        phases["added"] = {"kind": "auction"}
        names.insert(1, "added")
    elif phase_kind == "order_up":
        if any(phase.get("kind") == "order_up" for phase in phases.values()):
            return None
        phases["added"] = {"kind": "order_up"}
        names.insert(before_play, "added")
    elif phase_kind == "partner":
        spec.setdefault("roles", {})["mate"] = "mate"
        phases["added"] = {"kind": "partner", "role": "mate"}
        names.insert(before_play, "added")
    if not phases:
        del spec["phases"]
    spec["round"] = names
    return spec


@pytest.mark.parametrize("base", BASES)
def test_every_phase_kind_and_play_kind_composes_or_is_refused_with_its_place(tmp_path, base):
    """For each play kind and each kind of phase put into the round of a shipped file: the file
    is refused, every problem at its file, line and column, or a whole game of random players
    ends within a bounded number of decisions (no internal error, no seat without an action)."""
    spec = yaml.safe_load((ROOT / "variants" / base).read_text(encoding="utf-8"))
    outcomes = {}
    for play_kind in PLAY_KINDS:
        for phase_kind in PHASE_KINDS:
            changed = composed(spec, play_kind, phase_kind)
            if changed is None:
                continue
            path = tmp_path / f"{play_kind}-{phase_kind}.yaml"
            path.write_text(yaml.safe_dump(changed, allow_unicode=True, sort_keys=False), encoding="utf-8")
            problems = check_variant(path)
            if problems:
                assert all(p.file == str(path) and p.line and p.column for p in problems), \
                    (play_kind, phase_kind, [str(p) for p in problems])
                outcomes[play_kind, phase_kind] = "refused"
                continue
            assert game_ends(load_variant(path), 1) is None, (play_kind, phase_kind)
            outcomes[play_kind, phase_kind] = "plays"
    # the file itself plays, and each file meets both answers (its play swapped is refused)
    assert outcomes[spec["play"].get("kind", "play"), None] == "plays"
    assert set(outcomes.values()) == {"plays", "refused"}


@pytest.mark.parametrize("ties", ["play_on", "shared", "one_more_round"])
def test_every_rule_for_ties_composes_or_is_refused_with_its_place(tmp_path, ties):
    """Each shipped file with each rule for a shared best total: refused with its place (Chibre's
    partners always tie, so play_on would never end), or a game of random players ends."""
    outcomes = {}
    for base in BASES:
        spec = yaml.safe_load((ROOT / "variants" / base).read_text(encoding="utf-8"))
        spec["end"]["ties"] = ties
        path = tmp_path / Path(base).name
        path.write_text(yaml.safe_dump(spec, allow_unicode=True, sort_keys=False), encoding="utf-8")
        problems = check_variant(path)
        if problems:
            assert all(p.file == str(path) and p.line and p.column for p in problems), [str(p) for p in problems]
            outcomes[base] = "refused"
            continue
        assert game_ends(load_variant(path), 3) is None, base
        outcomes[base] = "plays"
    assert outcomes["others/chibre.yaml"] == ("refused" if ties == "play_on" else "plays")


def test_a_trick_round_keeps_transfers_that_leave_the_hands_even(write_variant):
    """A gift given back between the same seats keeps every hand at one size, so a trick-taking
    round may have it (Gang of Four's tribute and give-back): the file loads and plays to its end."""
    path = write_variant(f"""
extends: {CHIBRE}
round: [deal, gift, gift_back, trump, play, scoring]
phases:
  gift: {{kind: transfer, from: dealer, to: {{next_of: dealer}}, count: 1, choose: highest, when: round > 1}}
  gift_back: {{kind: transfer, from: {{next_of: dealer}}, to: dealer, count: 1, when: round > 1}}
""")
    assert check_variant(path) == []
    assert game_ends(load_variant(path), 1) is None


UNEVEN = [(5, ("phases", "gift", "to")), (6, ("phases", "gift_back", "to"))]


def test_a_gift_not_given_back_the_same_way_leaves_the_hands_uneven(write_variant):
    """Given back under another condition, or more cards than it took, or with a phase between the
    two (a seat they name may change there), the gift and what it gives back each leave the hands
    uneven in some round: refused, each at its to."""
    for changed in ("count: 1, when: round > 2", "count: 2, when: round > 1"):
        path = write_variant(f"""
extends: {CHIBRE}
round: [deal, gift, gift_back, trump, play, scoring]
phases:
  gift: {{kind: transfer, from: dealer, to: {{next_of: dealer}}, count: 1, when: round > 1}}
  gift_back: {{kind: transfer, from: {{next_of: dealer}}, to: dealer, {changed}}}
""")
        assert [(p.line, p.path) for p in check_variant(path)] == UNEVEN, changed
    path = write_variant(f"""
extends: {CHIBRE}
round: [deal, gift, trump, gift_back, play, scoring]
phases:
  gift: {{kind: transfer, from: dealer, to: {{next_of: dealer}}, count: 1}}
  gift_back: {{kind: transfer, from: {{next_of: dealer}}, to: dealer, count: 1}}
""")
    assert [(p.line, p.path) for p in check_variant(path)] == UNEVEN


def test_gang_of_four_as_tricks_plays_when_scored_by_the_tricks(write_variant):
    """Played as tricks, Gang of Four's penalty on the cards left scores nothing (refused: see
    invalid/trick-round-scored-by-cards-left.yaml); scored by the tricks taken, its round (the
    tribute given back) loads and its game ends."""
    path = write_variant(f"""
extends: {ROOT / "variants" / "others" / "gang-of-four.yaml"}
play: {{kind: tricks, first_lead: null, leader_may_pass: null, passes_to_close_trick: null, out_of_turn: null,
       last_card: null}}
scoring: {{points: {{each: {{penalty: tricks_taken}}}}}}
""")
    assert check_variant(path) == []
    assert game_ends(load_variant(path), 2) is None


def test_the_others_give_only_once_a_phase_has_named_the_bidder(write_variant):
    """``from: others`` (every seat but the bidder) in a round where nothing before it names a
    bidder would hand nothing: refused at its from.  Another role names its one seat, like any
    seat expression: one not always given needs a fallback."""
    path = write_variant(f"""
extends: {CHIBRE}
round: [deal, ring, trump, play, scoring]
phases:
  ring: {{kind: transfer, from: others, to: next, count: 1}}
""")
    problems = check_variant(path)
    assert [(p.line, p.path) for p in problems] == [(5, ("phases", "ring", "from"))]
    assert "no phase before it names a bidder" in problems[0].message
    path = write_variant(f"""
extends: {ROOT / "variants" / "others" / "doudizhu.yaml"}
round: [deal, bidding, nest, gift, play, scoring]
roles: {{helper: helper}}
phases:
  gift: {{kind: transfer, from: helper, to: bidder, count: 1}}
""")
    assert [(p.line, p.path) for p in check_variant(path)] == [(6, ("phases", "gift", "from"))]


PRESIDENT = ROOT / "variants" / "others" / "president.yaml"
CHIMERA = ROOT / "variants" / "chimera.yaml"


def test_the_recent_keys_that_could_not_play_together_are_refused_at_their_place(write_variant):
    """Found by composing the recent keys (tests/test_fuzz.py): each once loaded and then stopped
    every game or never ended; each is now refused at the key that cannot hold."""
    # a seat alone on its side has no partner to hand the lead to (was: StopIteration in play)
    path = write_variant(f"""extends: {PRESIDENT}
end: {{ties: shared}}
play:
  teams: [[0, 1, 2], [3]]
  effects:
    - {{when: play_size >= 2, do: {{lead_to: partner}}}}
""")
    problems = check_variant(path)
    assert [(p.line, p.path) for p in problems] == [(6, ("play", "effects", "0", "do", "lead_to"))]
    assert "seat 3 has no partner" in problems[0].message
    # a seat sitting out leaves its side short (was: ValueError scoring partner_place)
    path = write_variant(f"""extends: {PRESIDENT}
players: 5
end: {{ties: shared}}
deal: {{sits_out: dealer, hand: 13}}
play: {{teams: [[0, 2], [1, 3, 4]]}}
""")
    problems = check_variant(path)
    assert [(p.line, p.path) for p in problems] == [(4, ("deal", "sits_out"))]
    assert "side short" in problems[0].message
    # a side of two whose totals never part, with ties played on: uneven sides passed the proof,
    # whose outcomes let the lone seat lead alone, and random play never saw it (1.2 GB, no end)
    path = write_variant(f"""extends: {CHIMERA}
play:
  teams: [[0], [1, 2]]
  round_ends_when: out_count >= players - 1
""")
    problems = check_variant(path)
    assert [p.path for p in problems] == [("end", "ties")]
    assert "(1, 2) always hold the same total" in problems[0].message and problems[0].line
