"""`chimera analyse`: what the rules give before anyone plays."""
from __future__ import annotations

import itertools
import json
from math import comb
from pathlib import Path

import pytest

import chimera_dsl
from chimera_dsl.study.analyse import analyse, rank_hand_count
from chimera_dsl.cli import run

ROOT = Path(__file__).resolve().parent.parent
OFFICIAL = str(ROOT / "variants" / "chimera.yaml")
DOUDIZHU = ROOT / "variants" / "others"

SMALL = """\
format: 1
name: Five ranks, three copies
players: 2
deck:
  ranks: [1, 2, 3, 4, 5]
  cards:
    - {ranks: "1..5", copies: 3}
  sequence: "1..5"
round: [deal, bidding, nest, play, scoring]
deal:
  hand: 5
  nest: 2
bidding:
  levels: [1, 2]
nest:
  to: bidder
play:
  first_leader: bidder
combinations:
  single: {pattern: single of any}
  pair: {pattern: pair of any}
  trio: {pattern: trio of any}
  run: {pattern: 3+ consecutive singles of any}
  pairs: {pattern: 3+ consecutive pairs of any}
  full: {pattern: trio of any + pair of any}
scoring:
  points: {bidder: "if won then 1 else -1", others: "if won then 1 else -1"}
end:
  rounds: 2
"""


def call(capsys, *argv):
    code = run([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def small(tmp_path):
    path = tmp_path / "small.yaml"
    path.write_text(SMALL, encoding="utf-8")
    return str(path)


def brute_force(rules, size: int) -> dict:
    """Every set of ``size`` cards of the deck, one by one: the share holding each combination."""
    deck = rules.deck
    found = {c.id: 0 for c in rules.combinations}
    for cards in itertools.combinations(range(len(deck.cards)), size):
        for cid in {p.combination for p in rules.leads(deck.key_of_mask(deck.mask_of(cards)))}:
            found[cid] += 1
    total = comb(len(deck.cards), size)
    return {cid: n / total for cid, n in found.items()}


def test_exact_chances_are_those_of_every_hand_listed_one_by_one(small):
    rules = chimera_dsl.load_variant(small)
    data = analyse(rules)
    dealt, with_nest = data["hands"]
    assert (dealt["method"], dealt["cards"], with_nest["cards"]) == ("exact", 5, 7)
    assert dealt["rank_hands"] == rank_hand_count((3,) * 5, 5) < 3 ** 5
    for hand in (dealt, with_nest):
        expected = brute_force(rules, hand["cards"])
        for cid, chance in expected.items():
            assert hand["combinations"][cid]["chance"] == pytest.approx(chance, abs=1e-12), (hand["id"], cid)
            assert hand["combinations"][cid]["ci95"] is None


def test_combinations_a_hand_can_never_hold(small):
    data = analyse(chimera_dsl.load_variant(small))
    never = {n["combination"]: n["why"] for n in data["never"]}
    assert never == {"pairs": "it needs at least 6 cards, more than a hand as dealt (5 cards)"}
    assert data["hands"][0]["combinations"]["pairs"]["chance"] == 0
    assert data["hands"][1]["combinations"]["pairs"]["chance"] > 0    # with the nest, 7 cards


def test_over_the_budget_hands_are_sampled_with_wilson_intervals(small):
    data = analyse(chimera_dsl.load_variant(small), exact_budget=10, samples=3000, seed=4)
    hand = data["hands"][0]
    assert hand["method"] == "sampled" and hand["samples"] == 3000
    exact = analyse(chimera_dsl.load_variant(small))["hands"][0]["combinations"]
    inside = sum(c["ci95"][0] <= exact[cid]["chance"] <= c["ci95"][1] for cid, c in hand["combinations"].items())
    assert inside >= len(exact) - 1        # 95% intervals: at most one miss among seven is no surprise
    assert analyse(chimera_dsl.load_variant(small), exact_budget=10, samples=3000, seed=4) == data


def test_the_official_deck_is_sampled_and_the_flight_matches_its_exact_chance():
    data = analyse(chimera_dsl.load_variant(OFFICIAL), samples=4000)
    dealt, with_nest = data["hands"]
    assert dealt["method"] == "sampled" and dealt["rank_hands"] > 20_000
    assert with_nest["what"] == "the Chimera's hand with the nest" and with_nest["cards"] == 20
    flight = dealt["combinations"]["flight"]                               # P and C both in 17 of 54 cards
    lo, hi = flight["ci95"]
    assert lo <= 17 * 16 / (54 * 53) <= hi
    kinds = {tuple(a["combinations"]): a for a in data["ambiguities"]}
    straights = kinds[("straight", "straight")]
    assert straights["examples"][0]["cards"] == "2 3 4 5 P"
    assert straights["examples"][0]["readings"] == ["Straight, rank 5", "Straight, rank 6"]
    assert data["never"] == [] and data["deck_plays"]["complete"]


def test_against_puts_two_variants_side_by_side(capsys):
    code, out, err = call(capsys, "analyse", DOUDIZHU / "doudizhu.yaml", "--against",
                          DOUDIZHU / "doudizhu-openspiel.yaml", "--samples", 300, "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["a"]["variant"]["name"] != data["b"]["variant"]["name"]
    rows = {(r["hand"], r["combination"]): r for r in data["side_by_side"]}
    assert rows[("dealt", "bomb")]["difference"] == 0          # the same deck, the same draws
    only_a = [r for r in data["side_by_side"] if r["b"] is None]
    assert only_a and all(r["difference"] is None for r in only_a)
    code, out, err = call(capsys, "analyse", DOUDIZHU / "doudizhu.yaml", "--against",
                          DOUDIZHU / "doudizhu-openspiel.yaml", "--samples", 300)
    assert code == 0 and "B - A" in out and "Airplane with singles" in out


def test_text_json_report_and_bad_input(capsys, small, tmp_path):
    code, out, err = call(capsys, "analyse", small)
    assert code == 0 and "exact" in out and "never arises" in out
    code, out, err = call(capsys, "analyse", small, "--json", "--report", tmp_path / "a.html")
    assert code == 0 and json.loads(out)["hands"][0]["method"] == "exact"
    page = (tmp_path / "a.html").read_text(encoding="utf-8")
    assert "Before anyone plays" in page and "never arise in a hand" in page and "<script" not in page
    code, out, err = call(capsys, "analyse", small, "--samples", 0)
    assert code == 2 and "Traceback" not in err
    code, out, err = call(capsys, "analyse", tmp_path / "missing.yaml", "--json")
    assert code == 2 and "error" in json.loads(out)


def test_the_simulation_report_has_the_analysis_section(capsys, tmp_path):
    page = tmp_path / "s.html"
    code, out, err = call(capsys, "simulate", OFFICIAL, "--rounds", 2, "--players", "random", "--workers", 1,
                          "--report", page)
    assert code == 0, err
    text = page.read_text(encoding="utf-8")
    assert "Before anyone plays" in text and "Chimera&#x27;s hand with the nest" in text


def test_a_union_is_the_chance_of_holding_any_of_its_combinations(small, capsys):
    """"A run or a full house": every hand listed one by one, against the exact and the sampled way."""
    rules = chimera_dsl.load_variant(small)
    deck = rules.deck
    either = 0
    for cards in itertools.combinations(range(len(deck.cards)), 5):
        held = {p.combination for p in rules.leads(deck.key_of_mask(deck.mask_of(cards)))}
        either += bool(held & {"run", "full"})
    truth = either / comb(len(deck.cards), 5)
    exact = analyse(rules, unions=["run,full"])["hands"][0]["unions"]["run|full"]
    assert exact["chance"] == pytest.approx(truth, rel=1e-12) and exact["ci95"] is None
    assert exact["combinations"] == ["run", "full"]
    sampled = analyse(rules, unions=["RUN, full"], exact_budget=0, samples=4000)["hands"][0]["unions"]["run|full"]
    assert sampled["ci95"][0] <= truth <= sampled["ci95"][1]
    code, out, err = call(capsys, "analyse", small, "--union", "run,full", "--json")
    assert code == 0 and json.loads(out)["hands"][0]["unions"]["run|full"]["chance"] == pytest.approx(truth)
    code, out, err = call(capsys, "analyse", small, "--union", "run,rocket")
    assert code == 2 and "'rocket'" in err and "run" in err and "Traceback" not in err
    code, out, err = call(capsys, "analyse", small, "--union", "run")
    assert code == 2 and "two or more" in err


def test_a_trick_taking_file_is_refused_with_its_reason(capsys, tmp_path):
    chibre = ROOT / "variants" / "others" / "chibre.yaml"
    code, out, err = call(capsys, "analyse", chibre)
    assert code == 2 and "names no combinations" in err and "trick-taking" in err and "Traceback" not in err
    code, out, err = call(capsys, "analyse", chibre, "--json")
    assert code == 2 and "names no combinations" in json.loads(out)["error"]
    # the report of a simulation of it has no analysis section, and no error
    page = tmp_path / "chibre.html"
    code, out, err = call(capsys, "simulate", chibre, "--games", 1, "--players", "random", "--workers", 1,
                          "--report", page)
    assert code == 0, err
    assert "Before anyone plays" not in page.read_text(encoding="utf-8")


# the shipped files whose plays are combinations (the climbing games)
CLIMBING = [p for p in sorted((ROOT / "variants").rglob("*.yaml")) if chimera_dsl.load_variant(p).combinations]


@pytest.mark.parametrize("path", CLIMBING, ids=lambda p: p.stem)
def test_the_combinations_a_hand_holds_are_those_its_leads_show(path):
    """analyse asks which combinations a hand holds by looking for one play of each
    (Rules.led_combinations): the same as the combinations of every lead listed, on hands of
    every size about a dealt hand's (listing every lead took 40 s of Tichu's analysis, now 9)."""
    import random
    rules = chimera_dsl.load_variant(path)
    deck, rng = rules.deck, random.Random(path.stem)
    for _ in range(150):
        mask = deck.mask_of(rng.sample(range(len(deck.cards)), rng.randrange(1, min(20, len(deck.cards)) + 1)))
        assert rules.card_led_combinations(mask) == {p.combination for p in rules.card_leads(mask)}
        key = deck.key_of_mask(mask)
        assert rules.led_combinations(key) == {p.combination for p in rules.leads(key)}


def test_each_hand_s_table_is_printed_before_the_whole_deck_is_read(capsys, monkeypatch):
    """analyse prints as it goes: a hand's table as soon as it is counted, the whole deck's
    findings after (it printed nothing until all was done)."""
    from chimera_dsl.study import analyse as module
    seen_before_deck = []
    whole_deck = module._whole_deck

    def watched(*args, **kwargs):
        seen_before_deck.append(capsys.readouterr().out)
        return whole_deck(*args, **kwargs)
    monkeypatch.setattr(module, "_whole_deck", watched)
    assert run(["analyse", OFFICIAL, "--samples", "300"]) == 0
    printed = seen_before_deck[0]
    said = " ".join(printed.split())
    assert "a hand as dealt (17 cards)" in said and "with the nest (20 cards)" in said
    assert said.count("sampled: 300 hands") == 2
    assert "Card sets that read as several combinations" not in printed
    assert "Card sets that read as several combinations" in capsys.readouterr().out


def test_the_work_of_an_analysis_is_bounded(capsys):
    """At most a million hands read, exact or sampled: a larger --exact-budget is refused as
    --samples is (it listed rank-count hands without end)."""
    assert run(["analyse", OFFICIAL, "--exact-budget", "1000001"]) == 2
    assert "1000001 is not in the range 0<=x<=1000000" in capsys.readouterr().err
    with pytest.raises(chimera_dsl.ChimeraError, match="from 0 to 1000000 rank-count hands"):
        analyse(chimera_dsl.load_variant(OFFICIAL), exact_budget=10 ** 7)
