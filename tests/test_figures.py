"""The figures designers ask for: per role, per bid, fairness, game length, per kind of player,
each combination once, the random-play warning, and the same in `compare` and the report."""
from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

import chimera_dsl
from chimera_dsl.cli import run
from chimera_dsl.engine import Game
from chimera_dsl.study.figures import seat_fairness
from chimera_dsl.players import parse_players, play_game
from chimera_dsl.study.report import comparison_report, simulation_report
from chimera_dsl.study.simulate import compare, comparison_data, simulate, simulation_data
from chimera_dsl.study.stats import Rate
from chimera_dsl.study.summary import Summary

ROOT = Path(__file__).resolve().parent.parent
OFFICIAL = str(ROOT / "variants" / "chimera.yaml")
DOUDIZHU = str(ROOT / "variants" / "others" / "doudizhu.yaml")

NO_BIDDING = """\
format: 1
name: Small climb without bidding
players: 3
deck:
  ranks: [1, 2, 3, 4, 5, 6, 7, 8]
  cards:
    - {ranks: "1..8", copies: 3}
  sequence: "1..8"
round: [deal, play, scoring]
deal:
  hand: 8
play:
  first_leader: dealer_left
combinations:
  single: {pattern: single of any}
  pair: {pattern: pair of any}
  run: {pattern: 3+ consecutive singles of any}
scoring:
  points: {each: "cards_left * step(cards_left, 4: 1, else: 2)"}
end:
  target: 30
  winner: lowest
  ties: shared
"""


def call(capsys, *argv):
    code = run([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def official():
    return chimera_dsl.load_variant(OFFICIAL)


@pytest.fixture
def no_bidding(tmp_path):
    path = tmp_path / "nobid.yaml"
    path.write_text(NO_BIDDING, encoding="utf-8")
    return str(path)


@pytest.fixture
def bid_50(tmp_path):
    path = tmp_path / "bid50.yaml"
    path.write_text(f"extends: {OFFICIAL}\nbidding:\n  levels: [20, 30, 40, 50]\n"
                    "exchange:\n  count_by_bid: {50: 3}\n", encoding="utf-8")
    return str(path)


def games(rules, seeds, players="random"):
    game = Game(rules)
    for seed in seeds:
        yield play_game(game, parse_players(players, game.players, seed), seed).events


# -- each figure is what the records say -------------------------------------------------------
def test_new_figures_match_the_game_records(official):
    summary = Summary.for_rules(official)
    gaps, at_40, turns, lead_changes, last_round = [], [], [], [], []
    for events in games(official, range(5)):
        summary.feed_all(events)
        bidder, bid, leader, changes, game_turns, before = None, None, None, 0, 0, [0, 0, 0]
        totals = [0, 0, 0]
        for e in events:
            if e["type"] == "chimera":
                bidder, bid = e["seat"], e["bid"]
            elif e["type"] in ("play", "pass"):
                game_turns += 1
            elif e["type"] == "round_end":
                points = e["points"]
                others = [points[s] for s in range(3) if s != bidder]
                gaps.append(points[bidder] - Fraction(sum(others), 2))
                if bid == 40:
                    at_40.append(points[bidder])
                before, totals = totals, e["totals"]
                top = [s for s in range(3) if totals[s] == max(totals)]
                if len(top) == 1 and top[0] != leader:
                    changes += leader is not None
                    leader = top[0]
            elif e["type"] == "game_end":
                turns.append(game_turns)
                lead_changes.append(changes)
                last_round.append([s for s in range(3) if before[s] == max(before)] != [e["winner"]])
    figs = summary.figures()
    assert figs["role_gap_per_round"].total == sum(gaps) and figs["role_gap_per_round"].n == len(gaps)
    assert figs["bidder_points_at_40"].total == sum(at_40) and figs["bidder_points_at_40"].n == len(at_40)
    assert figs["turns_per_game"].total == sum(turns)
    assert figs["lead_changes_per_game"].total == sum(lead_changes)
    assert figs["decided_in_last_round"].hits == sum(last_round)
    assert figs["others_round_win_rate"].hits == figs["bidder_success"].n - figs["bidder_success"].hits
    assert sum(figs[f"bidder_at_position_{k}"].hits for k in range(3)) == figs["bidder_success"].n


def test_a_game_without_bidding_has_no_bidder_figures(no_bidding):
    rules = chimera_dsl.load_variant(no_bidding)
    summary, info = simulate(rules, 12, players="random", workers=1, seed=3)
    data = simulation_data(summary, info)
    names = set(data["figures"])
    assert not {n for n in names if n.startswith(("bidder", "others", "role_gap", "final_bid", "forced"))}
    assert {"position_0_points_per_round", "position_2_win_rate", "lead_changes_per_game",
            "minutes_per_game"} <= names
    assert data["roles"] == {} and data["seat_fairness"]["unit"] == "rate"
    assert all(fig["n"] > 0 for fig in data["figures"].values())


def test_each_combination_figure_is_shown_once_by_its_name(official):
    summary, info = simulate(official, 6, single_rounds=True, players="random", workers=1)
    data = simulation_data(summary, info)
    labels = [fig["label"] for fig in data["figures"].values()]
    assert [label for label in labels if "bomb" in label.lower()] == ["Bomb plays per round"]
    assert "Chimera's flight plays per round" in labels
    assert not any(name in data["figures"] for name in ("bonus_bombs_per_round", "bonus_flight_per_round"))
    assert "bonus_idle_hunter_per_round" in data["figures"]        # a bonus that counts no combination


def test_dou_dizhu_counts_bombs_once_and_names_its_roles():
    rules = chimera_dsl.load_variant(DOUDIZHU)
    summary, info = simulate(rules, 6, single_rounds=True, players="random", workers=1)
    data = simulation_data(summary, info)
    assert "bonus_bombs_per_round" not in data["figures"] and "plays_of_bomb_per_round" in data["figures"]
    assert data["roles"] == {"bidder": "landlord", "others": "peasants"}
    at = [name for name in data["figures"] if name.startswith("bidder_points_at_")]
    assert at and all(data["figures"][n]["label"] == f"landlord's expected points at bid {n[-1]}" for n in at)


def test_positions_count_from_the_dealer_from_zero_as_run_numbers_seats(official):
    summary, info = simulate(official, 4, players="random", workers=1)
    names = set(simulation_data(summary, info)["figures"])
    assert {"position_0_points_per_round", "position_2_points_per_round", "position_0_win_rate"} <= names
    assert not any(n.startswith("seat_") for n in names)


def test_figures_per_kind_of_player_when_players_are_mixed(official):
    mixed, _ = simulate(official, 4, players="heuristic,random,random", workers=1)
    figs = mixed.figures()
    assert figs["player_heuristic_win_rate"].n == 4 and figs["player_random_win_rate"].n == 8
    assert figs["player_heuristic_win_rate"].hits + figs["player_random_win_rate"].hits == 4
    assert figs["player_random_points_per_round"].n == 2 * mixed.rounds
    same, _ = simulate(official, 2, players="random", workers=1)
    assert not any(name.startswith("player_") for name in same.figures())


def test_random_players_are_warned_about(capsys):
    code, out, err = call(capsys, "simulate", OFFICIAL, "--rounds", 3, "--players", "random", "--workers", 1)
    assert code == 0 and "balance figures from random play" not in err     # the words are ours, below
    assert "warning: every player is random" in err and "--players heuristic" in err and "search" in err
    code, out, err = call(capsys, "simulate", OFFICIAL, "--rounds", 3, "--players", "random", "--workers", 1,
                          "--json")
    assert code == 0 and err == "" and "--players heuristic" in json.loads(out)["warnings"][0]
    code, out, err = call(capsys, "simulate", OFFICIAL, "--rounds", 2, "--players", "heuristic,random,random",
                          "--workers", 1, "--json")
    assert code == 0 and json.loads(out)["warnings"] == []


def test_the_pace_sets_the_estimated_minutes(capsys):
    code, out, _ = call(capsys, "simulate", OFFICIAL, "--games", 2, "--players", "random", "--workers", 1,
                        "--seconds-per-play", 30, "--json")
    figures = json.loads(out)["figures"]
    assert figures["minutes_per_game"]["mean"] == pytest.approx(figures["turns_per_game"]["mean"] / 2)
    assert json.loads(out)["run"]["seconds_per_play"] == 30
    code, _, err = call(capsys, "simulate", OFFICIAL, "--games", 2, "--seconds-per-play", 0)
    assert code == 2


# -- seat fairness -----------------------------------------------------------------------------------
def test_seat_fairness_is_the_spread_of_win_rates_with_a_reproducible_interval():
    equal = {f"position_{k}_win_rate": Rate(100, 300) for k in range(3)}
    fair = seat_fairness(equal, True)
    assert fair["value"] == 0 and fair["ci95"][0] >= 0 and 0 < fair["ci95"][1] < 0.15
    skewed = {"position_0_win_rate": Rate(200, 300), "position_1_win_rate": Rate(50, 300),
              "position_2_win_rate": Rate(50, 300)}
    unfair = seat_fairness(skewed, True)
    assert unfair["value"] == pytest.approx(0.5) and unfair["ci95"][0] > 0.35
    assert seat_fairness(skewed, True)["ci95"] == unfair["ci95"]


def _rounds_summary(vectors, whole_games=False) -> Summary:
    """A summary of single rounds (or whole one-round games) whose positions scored ``vectors``
    (the dealer at seat 0: position k is seat k); a game is won by the seats that scored most."""
    summary = Summary(players=len(vectors[0]), levels=(), whole_games=whole_games, has_bidder=False)
    for points in vectors:
        summary.feed_all([
            {"type": "game_start"}, {"type": "deal", "dealer": 0},
            {"type": "round_end", "points": list(points), "treasures": [0] * len(points), "totals": list(points)},
            {"type": "game_end", "totals": list(points),
             "winners": [s for s, x in enumerate(points) if x == max(points)]}])
    return summary


def _noisy_points(n, mean, seed):
    import random
    rng = random.Random(seed)
    return [round(rng.gauss(mean, 100)) for _ in range(n)]


def test_the_seat_fairness_draws_positions_that_move_together_together():
    # two partners score alike in every round: they never differ, whatever the noise; drawn
    # independently they would seem to (an interval up to about 2.8 standard errors)
    alike = _rounds_summary([(x, x) for x in _noisy_points(300, 20, 1)]).seat_fairness()
    assert alike["value"] == 0 and alike["ci95"] == [0.0, 0.0]
    # two sides of two, each side scoring what the other loses: the spread is twice a side's
    # mean, so its interval is twice the side's mean's (drawn independently it is narrower:
    # the four draws pull apart less than two opposite sides do)
    sides = _noisy_points(300, 30, 2)
    summary = _rounds_summary([(x, -x, x, -x) for x in sides])
    fair = summary.seat_fairness()
    side = summary.figures()["position_0_points_per_round"]
    lo, hi = side.interval()
    assert fair["value"] == pytest.approx(2 * side.mean)
    assert fair["ci95"][0] == pytest.approx(2 * lo, rel=0.1) and fair["ci95"][1] == pytest.approx(2 * hi, rel=0.1)
    # the covariance is the summary's own: every position's variance is its figure's
    covariance = summary.joint_points.covariance()
    for k in range(4):
        figure = summary.figures()[f"position_{k}_points_per_round"]
        assert float(covariance[k][k]) == pytest.approx(figure.mean_variance())
        assert float(covariance[0][k]) == pytest.approx((1 if k % 2 == 0 else -1) * figure.mean_variance())


def test_the_seat_fairness_of_games_won_by_sides_draws_the_partners_together():
    # partners win together: the spread of the rates is |2 p - 1|, its interval twice p's
    import random
    rng = random.Random(3)
    games = [(1, 0, 1, 0) if rng.random() < 0.6 else (0, 1, 0, 1) for _ in range(300)]
    summary = _rounds_summary(games, whole_games=True)
    fair = summary.seat_fairness()
    rate = summary.figures()["position_0_win_rate"]
    se = (rate.value * (1 - rate.value) / rate.n) ** 0.5
    assert fair["value"] == pytest.approx(abs(2 * rate.value - 1))
    assert fair["ci95"][1] - fair["ci95"][0] == pytest.approx(2 * 2 * 1.96 * se, rel=0.1)


def test_the_seat_fairness_is_the_same_however_the_rounds_were_split():
    vectors = [(x, -x, x, -x) for x in _noisy_points(120, 30, 4)]
    whole = _rounds_summary(vectors).seat_fairness()
    for cut in (1, 37, 119):
        first, second = _rounds_summary(vectors[:cut]), _rounds_summary(vectors[cut:])
        assert second.merge(first).seat_fairness()["ci95"] == whole["ci95"]


# -- compare -----------------------------------------------------------------------------------------
def test_compare_shows_no_value_for_a_figure_one_variant_lacks(capsys, official, bid_50):
    comparison = compare(official, chimera_dsl.load_variant(bid_50), 6, players="random", workers=1, seed=2)
    rows = {d["figure"]: d for d in comparison_data(comparison)["differences"]}
    at_50 = rows["bidder_success_at_50"]
    assert at_50["a"] is None and at_50["difference"] is None and not at_50["significant"]
    assert rows["final_bid_50"]["a"] is None and rows["final_bid_50"]["b"] > 0
    code, out, _ = call(capsys, "compare", OFFICIAL, bid_50, "--games", 3, "--players", "random", "--workers", 1)
    line = next(line for line in out.splitlines() if "success at bid 50" in line)
    assert "0.0%" not in line and " - " in line


def test_compare_pairs_the_first_seats_advantage_and_shows_the_seat_fairness(official):
    other = chimera_dsl.load_variant(str(ROOT / "variants" / "house_rules" / "target-300.yaml"))
    comparison = compare(official, other, 8, players="random", workers=1, seed=1)
    data = comparison_data(comparison)
    rows = {d["figure"]: d for d in data["differences"]}
    advantage, wins = rows["first_seat_advantage"], rows["position_1_win_rate"]
    assert advantage["a"] == pytest.approx(wins["a"] - 1 / 3) and advantage["paired"]
    assert advantage["difference"] == pytest.approx(wins["difference"])
    fairness = rows["seat_fairness"]
    assert not fairness["paired"] and fairness["a"] == data["a"]["seat_fairness"]["mean"]
    assert fairness["ci95"][0] <= fairness["difference"] <= fairness["ci95"][1]
    assert "minutes_per_game" in rows
    page = comparison_report(data)
    assert "first seat&#x27;s advantage" in page and "seat fairness" in page and "Warning: every player" in page


def test_the_report_shows_the_new_figures_and_the_warning(official):
    summary, info = simulate(official, 3, players="random", workers=1)
    page = simulation_report(simulation_data(summary, info))
    for text in ("seat fairness", "role fairness", "expected points at bid", "lead changes per game",
                 "estimated minutes per game", "Warning: every player is random"):
        assert text in page


def test_the_seat_fairness_interval_holds_the_figure_when_wins_are_shared_or_equal():
    # teams share their wins: the rates add up to more than one (the multinomial does not apply)
    teams = {f"position_{k}_win_rate": Rate(5, 10) for k in range(4)}
    shared = seat_fairness(teams, True)
    assert shared["value"] == 0 and shared["ci95"][0] == 0 and 0 < shared["ci95"][1] < 0.6
    equal = seat_fairness({f"position_{k}_win_rate": Rate(100, 300) for k in range(3)}, True)
    assert equal["ci95"][0] <= equal["value"] <= equal["ci95"][1]
    near = seat_fairness({"position_0_win_rate": Rate(105, 300), "position_1_win_rate": Rate(100, 300),
                          "position_2_win_rate": Rate(95, 300)}, True)
    assert near["ci95"][0] <= near["value"] <= near["ci95"][1]


def test_a_trick_taking_game_counts_its_cards_as_plays_and_shows_no_figure_it_cannot_have():
    from chimera_dsl.study.summary import Summary
    rules = chimera_dsl.load_variant(Path(__file__).resolve().parents[1] / "variants" / "others" / "chibre.yaml")
    game = Game(rules)
    state = play_game(game, parse_players("random", game.players, 3), 3)
    summary = Summary.for_rules(rules).feed_all(state.events)
    cards = sum(1 for e in state.events if e["type"] == "card")
    rounds = sum(1 for e in state.events if e["type"] == "round_end")
    assert cards > 0 and float(summary.acc["plays_per_round"].mean) == pytest.approx(cards / rounds)
    assert "cards_exchanged_per_round" not in summary.acc and "out_of_turn_plays_per_round" not in summary.acc


def test_the_first_seats_advantage_of_a_game_of_sides_is_measured_against_the_sides_share(capsys):
    """In Chibre two seats win each game (a side of two): a fair share is 1/2, not 1/4; with
    one winner a game it stays 1 / players."""
    chibre = chimera_dsl.load_variant(ROOT / "variants" / "others" / "chibre.yaml")
    summary, info = simulate(chibre, 6, players="random", workers=1, seed=3)
    wins = summary.acc["position_1_win_rate"]
    assert summary.fair_share() == pytest.approx(0.5)
    assert summary.first_seat_advantage()["mean"] == pytest.approx(wins.value - 0.5)
    comparison = compare(chibre, chibre, 4, players="random", workers=1, seed=1)
    rows = {d["figure"]: d for d in comparison_data(comparison)["differences"]}
    assert rows["first_seat_advantage"]["a"] == pytest.approx(rows["position_1_win_rate"]["a"] - 0.5)
    official = Summary(players=3)
    official.acc.update({f"position_{k}_win_rate": Rate(hits, 10) for k, hits in enumerate((3, 3, 4))})
    assert official.fair_share() == pytest.approx(1 / 3)


# -- a bidder named by any phase, sides, figures the file can produce ---------------------------
MU = ROOT / "variants" / "others" / "mu.yaml"
CHIBRE = ROOT / "variants" / "others" / "chibre.yaml"


def test_an_auctions_chief_has_its_contract_figures_counted_from_the_record():
    """Mü names its bidder (the chief) by an auction: its success, points by cards bid and the role
    fairness are shown under the file's word; a partner is on the chief's side, not an opponent;
    an auction ending in a dispute names no chief and is no failed contract."""
    rules = chimera_dsl.load_variant(MU)
    summary = Summary.for_rules(rules)
    made, rounds, disputes, at_2, gaps = 0, 0, 0, [], []
    # a random seat's lays set off the disputes the heuristic seats no longer start
    for events in games(rules, range(6), players="random,heuristic,heuristic,heuristic,heuristic"):
        summary.feed_all(events)
        chief = partner = bid = None
        for e in events:
            if e["type"] == "chief":
                chief, bid = e["seat"], e["bid"]
            elif e["type"] == "partner":
                partner = e["partner"]
            elif e["type"] == "dispute":
                disputes += 1
            elif e["type"] == "round_end":
                rounds += 1
                made += e["chief_won"]
                points = e["points"]
                if bid == 2:
                    at_2.append(points[chief])
                opponents = [points[s] for s in range(5) if s not in (chief, partner)]
                gaps.append(points[chief] - Fraction(sum(opponents), len(opponents)))
                chief = partner = None
    figs = summary.figures()
    assert disputes > 0 and rounds > 0
    assert (figs["bidder_success"].hits, figs["bidder_success"].n) == (made, rounds)
    assert figs["others_round_win_rate"].hits == rounds - made
    assert figs["bidder_points_at_2"].total == sum(at_2) and figs["bidder_points_at_2"].n == len(at_2)
    assert figs["role_gap_per_round"].total == sum(gaps)
    assert figs["others_points_per_round"].n == 3 * rounds          # five seats: the chief, its partner, 3
    assert sum(f.hits for name, f in figs.items() if name.startswith("final_bid_")) == rounds
    assert "forced_bid_rate" not in figs                            # an auction forces no bid
    assert summary.label("bidder_success").startswith("chief's success")
    assert summary.as_dict()["roles"] == {"bidder": "chief", "others": "opponents"}


def test_bid_levels_first_seen_in_one_chunk_count_every_round_after_a_merge():
    """An auction's bids are not announced by the file: a chunk that never saw a bid counts its
    rounds as zeros for it, whichever order the chunks merge in."""
    rules = chimera_dsl.load_variant(MU)
    chunks = []
    for seed in range(4):
        chunks.append(Summary.for_rules(rules).feed_all(next(games(rules, [seed], players="heuristic"))))
    merged = Summary.for_rules(rules)
    for chunk in chunks:
        merged.merge(chunk)
    rounds = merged.acc["bidder_success"].n
    assert {acc.n for name, acc in merged.acc.items() if name.startswith("final_bid_")} == {rounds}


def test_a_trump_chooser_is_no_bidder_and_partners_leading_together_are_one_leader(capsys):
    rules = chimera_dsl.load_variant(CHIBRE)
    summary = Summary.for_rules(rules)
    changes = []
    for events in games(rules, range(4)):
        summary.feed_all(events)
        leader, n = None, 0
        for e in events:
            if e["type"] == "round_end":
                top = {s for s, t in enumerate(e["totals"]) if t == max(e["totals"])}
                team = next((t for t in ({0, 2}, {1, 3}) if top <= t), None)
                if team is not None and team != leader:
                    n += leader is not None
                    leader = team
            elif e["type"] == "game_end":
                changes.append(n)
    figs = summary.figures()
    assert not {n for n in figs if n.startswith(("bidder", "others", "role_gap", "final_bid", "forced", "redeals"))}
    assert figs["lead_changes_per_game"].total == sum(changes) > 0


def test_a_lead_change_is_a_new_leader_alone_at_the_top():
    """Alone: one seat, or one team (both partners, or one of them); a top shared by different
    leaders keeps the last leader."""
    def changes(totals_seq, players=4, teams=()):
        summary = Summary(players=players, levels=(), teams=teams)
        summary.feed({"type": "game_start"})
        for totals in totals_seq:
            summary.feed({"type": "round_end", "points": [0] * players, "treasures": [0] * players,
                          "totals": totals})
        summary.feed({"type": "game_end", "totals": totals_seq[-1], "winner": None})
        return summary.acc["lead_changes_per_game"].total
    teams = ((0, 2), (1, 3))
    assert changes([[10, 0, 10, 0], [10, 20, 10, 20], [30, 20, 30, 20]], teams=teams) == 2
    assert changes([[10, 0, 10, 0], [20, 0, 10, 0], [20, 20, 20, 20], [20, 0, 30, 0]], teams=teams) == 0
    assert changes([[1, 0, 0], [1, 1, 0], [1, 2, 0], [3, 3, 3], [0, 2, 0]], players=3) == 1
    assert changes([[1, 0, 0], [1, 2, 2], [1, 2, 3]], players=3) == 1


def test_treasure_figures_only_where_the_file_gives_cards_points():
    doudizhu = Summary.for_rules(chimera_dsl.load_variant(DOUDIZHU))
    for events in games(chimera_dsl.load_variant(DOUDIZHU), range(2)):
        doudizhu.feed_all(events)
    assert "bidder_success" in doudizhu.figures()
    assert not {n for n in doudizhu.figures() if "treasures" in n}
    official_rules = chimera_dsl.load_variant(OFFICIAL)
    official = Summary.for_rules(official_rules)
    for events in games(official_rules, range(2)):
        official.feed_all(events)
    assert {"bidder_treasures_per_round", "others_treasures_per_round", "forced_bid_rate"} <= set(official.figures())


# -- what was paid, and the figures of a game's shape ---------------------------------------------
def test_a_bonus_of_one_outcome_counts_only_the_rounds_it_was_paid_in(official):
    """The official file pays idle_hunter only when the Chimera goes out first
    (scoring.bidder_out_first.bonuses): a round whose hunter stayed idle but the Chimera lost
    pays nothing and counts nothing."""
    summary = Summary.for_rules(official)
    paid = counted = rounds = 0
    for events in games(official, range(9), players="heuristic"):
        summary.feed_all(events)
        for e in events:
            if e["type"] == "round_end":
                rounds += 1
                idle = int(bool((e.get("bonuses") or {}).get("idle_hunter")))
                counted += idle
                paid += idle if e.get("chimera_won") else 0
    acc = summary.acc["bonus_idle_hunter_per_round"]
    assert acc.total == paid and acc.n == rounds
    assert paid < counted, "the seeds must hold an idle hunter in a round the Chimera lost"


def _game_of_totals(summary, totals_seq, winner, extra=None):
    players = len(totals_seq[0])
    summary.feed({"type": "game_start"})
    for totals in totals_seq:
        summary.feed({"type": "round_end", "points": [0] * players, "treasures": [0] * players,
                      "totals": totals, **(extra or {})})
    summary.feed({"type": "game_end", "totals": totals_seq[-1], "winner": winner})


def test_drama_and_decisiveness_read_the_eventual_winner_after_each_round():
    summary = Summary(players=3, levels=())
    # seat 0 leads, is overtaken, wins: behind after round 2 of 3; leads for good only after round 3
    _game_of_totals(summary, [[10, 0, 0], [10, 20, 0], [30, 20, 0]], 0)
    assert (summary.acc["drama"].hits, summary.acc["drama"].n) == (1, 2)
    assert summary.acc["decisiveness"].total == 1
    # seat 2 at the top (shared after round 1) from the first round to the end: 1/4 of the game
    _game_of_totals(summary, [[5, 0, 5], [5, 0, 9], [5, 0, 20], [5, 0, 40]], 2)
    assert (summary.acc["drama"].hits, summary.acc["drama"].n) == (1, 5)
    assert summary.acc["decisiveness"].total == 1 + Fraction(1, 4)
    assert summary.acc["decisiveness"].n == 2


def test_lead_changes_at_play_level_follow_the_race_or_the_tricks():
    # climbing: cards in hand after each play, back from cards_left: [4,6,6] [4,3,6] [4,3,5] [0,3,5]
    climbing = Summary(players=3, levels=())
    climbing.feed({"type": "game_start"})
    for seat, cards in ((0, 2), (1, 3), (2, 1), (0, 4)):
        climbing.feed({"type": "play", "seat": seat, "cards": ["x"] * cards, "combination": "c"})
    climbing.feed({"type": "round_end", "points": [0, 0, 0], "treasures": [0, 0, 0], "totals": [0, 0, 0],
                   "cards_left": [0, 3, 5]})
    assert climbing.acc["lead_changes_per_round"].total == 2
    # trick-taking: most tricks taken; a tie changes nothing (0, -, 1, 1, -, 0)
    tricks = Summary(players=3, levels=(), out_of_turn=False)
    tricks.feed({"type": "game_start"})
    for winner in (0, 1, 1, 2, 0, 0):
        tricks.feed({"type": "trick", "winner": winner})
    tricks.feed({"type": "round_end", "points": [0, 0, 0], "treasures": [0, 0, 0], "totals": [0, 0, 0]})
    assert tricks.acc["lead_changes_per_round"].total == 2
    # sides: partners taking tricks in turn keep their side ahead
    sides = Summary(players=4, levels=(), out_of_turn=False, teams=((0, 2), (1, 3)))
    sides.feed({"type": "game_start"})
    for winner in (0, 2, 1, 0, 3, 3, 3):
        sides.feed({"type": "trick", "winner": winner})
    sides.feed({"type": "round_end", "points": [0] * 4, "treasures": [0] * 4, "totals": [0] * 4})
    assert sides.acc["lead_changes_per_round"].total == 1


def test_branching_factor_and_meaningful_moves_count_every_decision(official):
    summary = Summary(players=3, levels=())
    summary.feed_all([{"type": "game_start"}, {"type": "game_end", "totals": [0, 0, 0], "winner": None}],
                     choices=[1, 3, 2, 1])
    assert summary.acc["choices_per_decision"].mean == Fraction(7, 4)
    assert (summary.acc["meaningful_decision_rate"].hits, summary.acc["meaningful_decision_rate"].n) == (2, 4)
    # from a simulation: one count per decision the players took, on every kind of file
    figures, _ = simulate(official, 1, players="random", workers=1, seed=0)
    assert figures.acc["choices_per_decision"].n > 50
    chibre, _ = simulate(chimera_dsl.load_variant(CHIBRE), 2, players="random", workers=1, seed=0)
    for name in ("choices_per_decision", "meaningful_decision_rate", "lead_changes_per_round", "drama",
                 "decisiveness"):
        assert chibre.acc[name].n > 0, name


@pytest.mark.parametrize("path", [OFFICIAL, MU])
def test_merged_summaries_give_the_intervals_of_one_summary(path):
    """Per-game summaries merged in any grouping (as chunks of workers are) keep every figure's
    clusters: the same sums and intervals as one summary fed every game, bid levels first seen
    late included."""
    rules = chimera_dsl.load_variant(path)
    records = list(games(rules, range(8), players="heuristic"))
    whole = Summary.for_rules(rules)
    for events in records:
        whole.feed_all(events)
    for cut in (1, 3, 6):
        left, right = Summary.for_rules(rules), Summary.for_rules(rules)
        for i, events in enumerate(records):
            (left if i < cut else right).merge(Summary.for_rules(rules).feed_all(events))
        right.merge(left) if cut % 2 else left.merge(right)
        merged = right if cut % 2 else left
        assert set(merged.acc) == set(whole.acc)
        for name, acc in whole.acc.items():
            assert merged.acc[name].shape() == acc.shape(), name
            assert merged.acc[name].interval() == acc.interval(), name
