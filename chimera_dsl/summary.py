"""The figures of many games, accumulated from game-record events.

A :class:`Summary` reads the events a game record holds (CONTRACT.md: ``deal``, ``bid``,
``redeal``, the line naming the bidder, ``exchange``, ``play``, ``trick``, ``round_end``,
``game_end``), so
it measures exactly what a record says and nothing of the engine's insides.  It keeps sums,
never games: memory stays flat however many games it reads, and two summaries merge exactly.

Seats are counted from the dealer's left: seat 1 receives the first card, the last seat is
the dealer.  Per-round figures use that round's dealer; per-game figures (win rates, the
first seat's advantage) use the first dealer of the game.
"""
from __future__ import annotations

from collections import defaultdict

from .stats import Histogram, Mean, PairedRatio, Rate, wilson


class Summary:
    """Accumulates the figures of rounds and (unless ``whole_games`` is false) games."""

    def __init__(self, players: int = 3, levels=(20, 30, 40), combinations=(), whole_games: bool = True,
                 role: str = "bidder", bonuses=(), role_names: tuple[str, str] = ("the bidder", "others")):
        self.players = players
        self.role_names = role_names
        self.role = role                    # the record's word for the bidder's line
        self.bonus_names = tuple(bonuses)
        self.levels = tuple(int(x) for x in levels)
        self.combination_ids = tuple(combinations)
        self.whole_games = whole_games
        self.games = 0
        self.rounds = 0
        # per round
        self.bidder_success = Rate()
        self.success_by_bid = {b: Rate() for b in self.levels}
        self.final_bid = {b: Rate() for b in self.levels}
        self.forced = Rate()
        self.redeals = Mean()
        self.bidder_points = Mean()
        self.others_points = Mean()
        self.seat_points = [Mean() for _ in range(players)]
        self.bidder_seat = [Rate() for _ in range(players)]
        self.bidder_treasures = Mean()
        self.others_treasures = Mean()
        self.bonuses = {name: Mean() for name in self.bonus_names}
        self.exchanged = Mean()
        self.out_of_turn = Mean()
        self.tricks = Mean()
        self.plays = Mean()
        self.combination_plays = {c: Mean() for c in self.combination_ids}
        # per game
        self.game_rounds = Mean()
        self.winning_total = Mean()
        self.seat_wins = [Rate() for _ in range(players)]
        self.last_round_decided = Rate()
        # distributions
        self.score_hist = Histogram()          # final totals, per seat, buckets of 25
        self.rounds_hist = Histogram()         # rounds per game
        self.bidder_points_hist = Histogram()  # the bidder's points in a round, buckets of 10
        self._reset_round()
        self._first_dealer = None
        self._game_rounds = 0
        self._prev_totals: list | None = None
        self._totals: list | None = None

    @classmethod
    def for_rules(cls, rules, whole_games: bool = True) -> "Summary":
        """An empty summary for games of ``rules`` (its players, bid levels and combinations)."""
        from .round import compile_round
        spec = rules.spec
        round_ = compile_round(rules)
        levels = round_.levels
        return cls(int(spec.get("players", 3)), levels, [c.id for c in rules.combinations], whole_games,
                   round_.role_word, [name for name, _ in round_.scoring.bonuses],
                   (rules.role_name("bidder"), rules.role_name("others")))

    def empty_copy(self) -> "Summary":
        return Summary(self.players, self.levels, self.combination_ids, self.whole_games, self.role,
                       self.bonus_names, self.role_names)

    def _reset_round(self):
        self._dealer = None
        self._redeals = 0
        self._plays = 0
        self._tricks = 0
        self._exchanged = 0
        self._out_of_turn = 0
        self._combos: dict[str, int] = defaultdict(int)
        self._bidder = None
        self._bid = None
        self._forced = False

    def _seat_index(self, seat: int, dealer) -> int:
        """0-based seat counted from the dealer's left (0 = first to receive cards, last = dealer)."""
        if dealer is None:
            return seat
        return (seat - dealer - 1) % self.players

    # -- events ------------------------------------------------------------------------------
    def feed(self, event: dict) -> None:
        """Take one game-record event."""
        kind = str(event.get("type"))
        handler = self._on_role if kind == self.role else getattr(self, "_on_" + kind, None)
        if handler is not None:
            handler(event)

    def feed_all(self, events) -> "Summary":
        for event in events:
            self.feed(event)
        return self

    def _on_game_start(self, event):
        self._reset_round()
        self._first_dealer = None
        self._game_rounds = 0
        self._prev_totals = None
        self._totals = [0] * self.players

    def _on_deal(self, event):
        self._dealer = event.get("dealer")
        if self._first_dealer is None:
            self._first_dealer = self._dealer

    def _on_redeal(self, event):
        self._redeals += 1

    def _on_bid(self, event):
        if event.get("forced"):
            self._forced = True

    def _on_role(self, event):
        self._bidder = event["seat"]
        self._bid = event["bid"]

    def _on_exchange(self, event):
        self._exchanged += len(event.get("cards") or ())

    def _on_play(self, event):
        self._plays += 1
        self._combos[event["combination"]] += 1
        if event.get("out_of_turn"):
            self._out_of_turn += 1

    def _on_trick(self, event):
        self._tricks += 1

    def _on_round_end(self, event):
        self.rounds += 1
        self._game_rounds += 1
        bid, bidder, dealer = self._bid, self._bidder, self._dealer
        points, treasures = event["points"], event["treasures"]
        won = event.get(f"{self.role}_won")
        if bidder is not None and won is not None:
            won = bool(won)
            self.bidder_success.add(won)
            if bid not in self.success_by_bid:          # a level the rules did not announce
                self.success_by_bid[bid] = Rate()
                self.final_bid[bid] = Rate(0, self.rounds - 1)
            self.success_by_bid[bid].add(won)
            for level, rate in self.final_bid.items():
                rate.add(level == bid)
            self.forced.add(self._forced)
            self.redeals.add(self._redeals)
            for seat in range(self.players):
                if seat == bidder:
                    self.bidder_points.add(points[seat])
                    self.bidder_treasures.add(treasures[seat])
                else:
                    self.others_points.add(points[seat])
                    self.others_treasures.add(treasures[seat])
            for i in range(self.players):
                self.bidder_seat[i].add(self._seat_index(bidder, dealer) == i)
            self.bidder_points_hist.add(10 * (points[bidder] // 10))
        for seat in range(self.players):
            self.seat_points[self._seat_index(seat, dealer)].add(points[seat])
        bonuses = event.get("bonuses") or {}
        for name, value in bonuses.items():
            mean = self.bonuses.get(name)
            if mean is None:                          # not announced: counted from here on
                mean = self.bonuses[name] = Mean(self.rounds - 1, 0, 0)
            mean.add(int(value))
        self.exchanged.add(self._exchanged)
        self.out_of_turn.add(self._out_of_turn)
        self.tricks.add(self._tricks)
        self.plays.add(self._plays)
        for combo, mean in self.combination_plays.items():
            mean.add(self._combos.get(combo, 0))
        for combo in self._combos:
            if combo not in self.combination_plays:   # not announced: count it from here on
                self.combination_plays[combo] = Mean(self.rounds, self._combos[combo], self._combos[combo] ** 2)
        self._prev_totals = self._totals
        self._totals = list(event["totals"])
        dealer_kept = self._dealer
        self._reset_round()
        self._dealer = dealer_kept

    def _on_game_end(self, event):
        if not self.whole_games:
            return
        self.games += 1
        winner = event["winner"]
        totals = event["totals"]
        for seat in range(self.players):
            self.seat_wins[self._seat_index(seat, self._first_dealer)].add(False)
        self.seat_wins[self._seat_index(winner, self._first_dealer)].hits += 1
        self.game_rounds.add(self._game_rounds)
        self.rounds_hist.add(self._game_rounds)
        self.winning_total.add(totals[winner])
        for total in totals:
            self.score_hist.add(25 * (total // 25))
        before = self._prev_totals or [0] * self.players
        top = max(before)
        self.last_round_decided.add([s for s, t in enumerate(before) if t == top] != [winner])

    # -- combining -----------------------------------------------------------------------------
    def merge(self, other: "Summary") -> "Summary":
        """Add another summary's figures to this one (exact: the grouping does not matter)."""
        rounds_before = self.rounds
        self.games += other.games
        self.rounds += other.rounds
        mine, theirs = self._accumulators(), other._accumulators()
        for name, acc in theirs.items():
            if name in mine:
                mine[name].merge(acc)
            else:                                  # a level or combination only the other saw
                self._adopt(name, acc, rounds_before)
        for name, acc in mine.items():
            if name not in theirs and name.startswith(("final_bid_", "plays_of_", "bonus_")):
                acc.n += other.rounds              # ... and the other way round
        for name in ("score_hist", "rounds_hist", "bidder_points_hist"):
            getattr(self, name).merge(getattr(other, name))
        return self

    def _adopt(self, name: str, acc, rounds_before: int) -> None:
        """Take a per-round figure only the other summary had; it was 0 in our own rounds."""
        copy = type(acc)()
        copy.merge(acc)
        if name.startswith("bidder_success_at_"):    # conditional on the bid: nothing to add
            self.success_by_bid[int(name.rsplit("_", 1)[1])] = copy
            return
        copy.n += rounds_before                      # zeros add nothing to the sums
        if name.startswith("final_bid_"):
            self.final_bid[int(name.rsplit("_", 1)[1])] = copy
        elif name.startswith("plays_of_"):
            self.combination_plays[name[len("plays_of_"):-len("_per_round")]] = copy
        elif name.startswith("bonus_"):
            self.bonuses[name[len("bonus_"):-len("_per_round")]] = copy

    def _accumulators(self) -> dict:
        """Every figure's accumulator by name, in the order they are shown."""
        out: dict = {"bidder_success": self.bidder_success}
        for level in sorted(self.success_by_bid):
            out[f"bidder_success_at_{level}"] = self.success_by_bid[level]
        for level in sorted(self.final_bid):
            out[f"final_bid_{level}"] = self.final_bid[level]
        out["forced_bid_rate"] = self.forced
        out["redeals_per_round"] = self.redeals
        out["bidder_points_per_round"] = self.bidder_points
        out["others_points_per_round"] = self.others_points
        for i in range(self.players):
            out[f"seat_{i + 1}_points_per_round"] = self.seat_points[i]
        for i in range(self.players):
            out[f"bidder_is_seat_{i + 1}"] = self.bidder_seat[i]
        out["bidder_treasures_per_round"] = self.bidder_treasures
        out["others_treasures_per_round"] = self.others_treasures
        for name, mean in self.bonuses.items():
            out[f"bonus_{name}_per_round"] = mean
        out["cards_exchanged_per_round"] = self.exchanged
        out["out_of_turn_plays_per_round"] = self.out_of_turn
        out["tricks_per_round"] = self.tricks
        out["plays_per_round"] = self.plays
        for combo in self.combination_plays:
            out[f"plays_of_{combo}_per_round"] = self.combination_plays[combo]
        if self.whole_games:
            out["rounds_per_game"] = self.game_rounds
            out["winning_total"] = self.winning_total
            for i in range(self.players):
                out[f"seat_{i + 1}_win_rate"] = self.seat_wins[i]
            out["decided_in_last_round"] = self.last_round_decided
        return out

    # -- reading -------------------------------------------------------------------------------
    def figures(self) -> dict:
        """Every figure by name: a :class:`Mean` or a :class:`Rate`, each with its interval."""
        return self._accumulators()

    def unit_totals(self) -> dict[str, tuple]:
        """Each figure as (numerator, denominator): what pairing needs from one game."""
        out = {}
        for name, acc in self._accumulators().items():
            out[name] = (acc.hits, acc.n) if isinstance(acc, Rate) else (acc.total, acc.n)
        return out

    def first_seat_advantage(self) -> dict | None:
        """Seat 1's (the first dealer's left) win rate minus a fair share, with its interval."""
        if not self.whole_games or not self.games:
            return None
        rate = self.seat_wins[0]
        fair = 1 / self.players
        lo, hi = wilson(rate.hits, rate.n)
        return {"n": rate.n, "value": rate.value - fair, "ci95": [lo - fair, hi - fair]}

    def as_dict(self) -> dict:
        """The figures as JSON-ready data."""
        data = {"games": self.games, "rounds": self.rounds,
                "figures": {name: {"label": label_of(name, *self.role_names), **fig.as_dict()}
                            for name, fig in self.figures().items()},
                "combinations": {c: m.total for c, m in self.combination_plays.items()},
                "distributions": {"final_totals": self.score_hist.as_dict(),
                                  "rounds_per_game": self.rounds_hist.as_dict(),
                                  "bidder_round_points": self.bidder_points_hist.as_dict()}}
        advantage = self.first_seat_advantage()
        if advantage is not None:
            data["first_seat_advantage"] = advantage
        return data


class PairedFigures:
    """Per-figure paired accumulators for a comparison: each unit (a seeded game, or a single
    round) was played under both variants."""

    def __init__(self):
        self.figures: dict[str, PairedRatio] = {}
        self.units = 0

    def add(self, a: Summary, b: Summary) -> None:
        """Add one unit: the summaries of the same seed under A and under B."""
        self.units += 1
        ta, tb = a.unit_totals(), b.unit_totals()
        for name in ta.keys() | tb.keys():
            xa, na = ta.get(name, (0, 0))
            xb, nb = tb.get(name, (0, 0))
            acc = self.figures.get(name)
            if acc is None:
                acc = self.figures[name] = PairedRatio()
                acc.units = self.units - 1      # earlier units had (0, 0): no sums to add
            acc.add(xa, na, xb, nb)

    def merge(self, other: "PairedFigures") -> "PairedFigures":
        for name, acc in other.figures.items():
            mine = self.figures.get(name)
            if mine is None:
                mine = self.figures[name] = PairedRatio()
                mine.units = self.units
            mine.merge(acc)
        for name, mine in self.figures.items():
            if name not in other.figures:
                mine.units += other.units
        self.units += other.units
        return self


def compare(a: Summary, b: Summary, paired: PairedFigures) -> list:
    """Each figure of A and B side by side with B - A, its interval and significance, most
    significant first (figures are paired by seed)."""
    order = list(a.figures()) + [n for n in b.figures() if n not in a.figures()]
    out = [paired.figures[name].difference(name) for name in order if name in paired.figures]
    out.sort(key=lambda d: (-d.z, order.index(d.name)))
    return out


_LABELS = {
    "bidder_success": "{bidder}'s success rate",
    "forced_bid_rate": "rounds with a forced bid",
    "redeals_per_round": "redeals per round played",
    "bidder_points_per_round": "{bidder}'s points per round",
    "others_points_per_round": "points per round of one of the {others}",
    "bidder_treasures_per_round": "{bidder}'s treasure points per round",
    "others_treasures_per_round": "treasure points per round of one of the {others}",
    "cards_exchanged_per_round": "cards handed over per round",
    "out_of_turn_plays_per_round": "plays out of turn per round",
    "tricks_per_round": "tricks per round",
    "plays_per_round": "plays per round",
    "rounds_per_game": "rounds per game",
    "winning_total": "the winner's final total",
    "decided_in_last_round": "games decided in the last round (the winner was not alone in the lead before it)",
}


def label_of(name: str, bidder: str = "the bidder", others: str = "others") -> str:
    """A short description of a figure, for tables, with the roles as the variant names them."""
    if name in _LABELS:
        return _LABELS[name].format(bidder=bidder, others=others)
    parts = name.split("_")
    if name.startswith("bidder_success_at_"):
        return f"{bidder}'s success at bid {parts[-1]}"
    if name.startswith("final_bid_"):
        return f"rounds played at bid {parts[-1]}"
    if name.startswith("bidder_is_seat_"):
        return f"{bidder} sits at seat {parts[-1]} (from the dealer's left)"
    if name.startswith("bonus_"):
        return f"{name[len('bonus_'):-len('_per_round')].replace('_', ' ')} per round (a bonus of the variant)"
    if name.startswith("seat_") and name.endswith("_points_per_round"):
        return f"points per round of seat {parts[1]} (from the dealer's left)"
    if name.startswith("seat_") and name.endswith("_win_rate"):
        return f"wins of seat {parts[1]} (from the first dealer's left)"
    if name.startswith("plays_of_"):
        return f"{name[len('plays_of_'):-len('_per_round')]} plays per round"
    return name.replace("_", " ")
