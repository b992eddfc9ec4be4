"""The figures of many games, accumulated from game-record events.

A :class:`Summary` reads the same events a game record holds (``game_start``, ``bid``,
``redeal``, ``chimera``, ``play``, ``trick``, ``round_end``, ``game_end``; CONTRACT.md), so
it measures exactly what a record says and nothing of the engine's insides.  Summaries merge
(for parallel runs) and never keep a game: memory stays flat.
"""
from __future__ import annotations

from collections import defaultdict

from .stats import Histogram, Mean, Rate, paired, rate_difference, welch


class Summary:
    """Accumulates the figures of rounds and games."""

    def __init__(self, players: int = 3):
        self.players = players
        self.games = 0
        self.rounds = 0
        self.chimera_success = Rate()
        self.success_by_bid: dict[int, Rate] = defaultdict(Rate)
        self.bid_counts: dict[int, int] = defaultdict(int)       # rounds played at each final bid
        self.forced = Rate()
        self.redeals = Mean()                                    # redeals per round played
        self.points_by_role = {"chimera": Mean(), "hunter": Mean()}
        self.points_by_seat = [Mean() for _ in range(players)]
        self.treasures_by_role = {"chimera": Mean(), "hunter": Mean()}
        self.bombs = Mean()
        self.flight = Rate()
        self.idle_hunter = Rate()
        self.tricks = Mean()
        self.plays = Mean()
        self.game_rounds = Mean()
        self.combination_counts: dict[str, int] = defaultdict(int)
        self.wins_by_seat = [Rate() for _ in range(players)]
        self.last_round_decided = Rate()
        self.score_hist = Histogram()        # final totals, per seat, in buckets of 25
        self.rounds_hist = Histogram()
        self.chimera_points_hist = Histogram()  # round points of the Chimera, buckets of 10
        # per-round scratch
        self._round_redeals = 0
        self._round_plays = 0
        self._round_tricks = 0
        self._round_rounds = 0
        self._chimera_seat = None
        self._bid = None
        self._forced = False
        self._prev_totals: list[int] | None = None
        self._totals: list[int] | None = None
        self._seat_offset = 0

    # -- events ------------------------------------------------------------------------------
    def feed(self, event: dict) -> None:
        """Take one game-record event."""
        kind = event.get("type")
        handler = getattr(self, "_on_" + str(kind), None)
        if handler is not None:
            handler(event)

    def _on_game_start(self, event):
        self._round_rounds = 0
        self._prev_totals = None
        self._totals = [0] * self.players

    def _on_redeal(self, event):
        self._round_redeals += 1

    def _on_bid(self, event):
        if event.get("forced"):
            self._forced = True

    def _on_chimera(self, event):
        self._chimera_seat = event["seat"]
        self._bid = event["bid"]

    def _on_play(self, event):
        self._round_plays += 1
        self.combination_counts[event["combination"]] += 1

    def _on_trick(self, event):
        self._round_tricks += 1

    def _on_round_end(self, event):
        self.rounds += 1
        self._round_rounds += 1
        bid = self._bid
        won = bool(event["chimera_won"])
        self.chimera_success.add(won)
        self.success_by_bid[bid].add(won)
        self.bid_counts[bid] += 1
        self.forced.add(self._forced)
        self.redeals.add(self._round_redeals)
        points = event["points"]
        treasures = event["treasures"]
        for seat in range(self.players):
            role = "chimera" if seat == self._chimera_seat else "hunter"
            self.points_by_role[role].add(points[seat])
            self.points_by_seat[seat].add(points[seat])
            self.treasures_by_role[role].add(treasures[seat])
        self.chimera_points_hist.add(10 * (points[self._chimera_seat] // 10))
        bonuses = event.get("bonuses") or {}
        self.bombs.add(bonuses.get("bombs", 0))
        self.flight.add(bool(bonuses.get("flight", 0)))
        self.idle_hunter.add(bool(bonuses.get("idle_hunter", False)))
        self.tricks.add(self._round_tricks)
        self.plays.add(self._round_plays)
        self._prev_totals = self._totals
        self._totals = list(event["totals"])
        self._round_redeals = self._round_plays = self._round_tricks = 0
        self._forced = False

    def _on_game_end(self, event):
        self.games += 1
        winner = event["winner"]
        for seat in range(self.players):
            self.wins_by_seat[seat].add(seat == winner)
        self.game_rounds.add(self._round_rounds)
        self.rounds_hist.add(self._round_rounds)
        for total in event["totals"]:
            self.score_hist.add(25 * (total // 25))
        before = self._prev_totals
        if before is not None:
            top = max(before)
            leaders = [s for s, t in enumerate(before) if t == top]
            self.last_round_decided.add(leaders != [winner])
        else:
            self.last_round_decided.add(True)

    # -- combining -----------------------------------------------------------------------------
    def merge(self, other: "Summary") -> "Summary":
        """Add another summary's figures to this one (in a fixed order, results are exact)."""
        self.games += other.games
        self.rounds += other.rounds
        self.chimera_success.merge(other.chimera_success)
        for level, rate in other.success_by_bid.items():
            self.success_by_bid[level].merge(rate)
        for level, count in other.bid_counts.items():
            self.bid_counts[level] += count
        self.forced.merge(other.forced)
        for name in ("redeals", "bombs", "tricks", "plays", "game_rounds"):
            getattr(self, name).merge(getattr(other, name))
        for name in ("flight", "idle_hunter", "last_round_decided"):
            getattr(self, name).merge(getattr(other, name))
        for role in ("chimera", "hunter"):
            self.points_by_role[role].merge(other.points_by_role[role])
            self.treasures_by_role[role].merge(other.treasures_by_role[role])
        for seat in range(self.players):
            self.points_by_seat[seat].merge(other.points_by_seat[seat])
            self.wins_by_seat[seat].merge(other.wins_by_seat[seat])
        for k, v in other.combination_counts.items():
            self.combination_counts[k] += v
        self.score_hist.merge(other.score_hist)
        self.rounds_hist.merge(other.rounds_hist)
        self.chimera_points_hist.merge(other.chimera_points_hist)
        return self

    # -- reading -------------------------------------------------------------------------------
    def figures(self) -> dict:
        """Every figure by name: a Mean or a Rate (each with its confidence interval)."""
        out: dict = {
            "chimera_success": self.chimera_success,
            "redeals_per_round": self.redeals,
            "forced_bid_rate": self.forced,
            "chimera_points_per_round": self.points_by_role["chimera"],
            "hunter_points_per_round": self.points_by_role["hunter"],
            "chimera_treasures_per_round": self.treasures_by_role["chimera"],
            "hunter_treasures_per_round": self.treasures_by_role["hunter"],
            "bombs_per_round": self.bombs,
            "flight_rate": self.flight,
            "idle_hunter_rate": self.idle_hunter,
            "tricks_per_round": self.tricks,
            "plays_per_round": self.plays,
        }
        for level in sorted(self.success_by_bid):
            out[f"chimera_success_at_{level}"] = self.success_by_bid[level]
        for level in sorted(self.bid_counts):
            out[f"bid_{level}_rate"] = Rate(self.bid_counts[level], self.rounds)
        for seat in range(self.players):
            out[f"seat_{seat}_points_per_round"] = self.points_by_seat[seat]
        if self.games:
            out["rounds_per_game"] = self.game_rounds
            for seat in range(self.players):
                out[f"seat_{seat}_win_rate"] = self.wins_by_seat[seat]
            out["decided_in_last_round"] = self.last_round_decided
        for name in sorted(self.combination_counts):
            rate = Mean()
            # plays of this combination per round: mean over rounds of a Poisson-like count;
            # approximated from the total (variance = mean), enough for an interval
            rate.n = self.rounds
            rate.mean = self.combination_counts[name] / self.rounds if self.rounds else 0.0
            rate.m2 = rate.mean * max(self.rounds - 1, 0)
            out[f"plays_of_{name}_per_round"] = rate
        return out

    def as_dict(self) -> dict:
        """The figures as JSON-ready data."""
        data = {"games": self.games, "rounds": self.rounds,
                "figures": {name: fig.as_dict() for name, fig in self.figures().items()},
                "combinations": dict(sorted(self.combination_counts.items())),
                "distributions": {"final_totals": self.score_hist.as_dict(),
                                  "rounds_per_game": self.rounds_hist.as_dict(),
                                  "chimera_round_points": self.chimera_points_hist.as_dict()}}
        if self.games:
            data["first_seat_advantage"] = self.wins_by_seat[0].value - 1 / self.players
        return data


def compare(a: Summary, b: Summary, paired_diffs: dict | None = None) -> list:
    """Each figure of A and B side by side with B - A, its interval and significance,
    most significant first.  ``paired_diffs`` maps a figure to a Mean of per-seed differences."""
    fa, fb = a.figures(), b.figures()
    out = []
    for name in fa:
        if name not in fb:
            continue
        x, y = fa[name], fb[name]
        if paired_diffs and name in paired_diffs:
            out.append(paired(name, x, y, paired_diffs[name]))
        elif isinstance(x, Rate):
            out.append(rate_difference(name, x, y))
        else:
            out.append(welch(name, x, y))
    out.sort(key=lambda d: (-d.z if d.z == d.z else 0, d.name))
    return out
