"""The figures of many games, accumulated from game-record events.

A :class:`Summary` reads the events a game record holds (docs/game-record.md: ``game_start``,
``deal``, ``bid``, ``redeal``, the line naming the bidder, ``exchange``, ``play``, ``pass``,
``trick``, ``round_end``, ``game_end``), so it measures exactly what a record says and
nothing of the engine's insides: it works for every variant the engine plays.  It keeps
sums, never games: memory stays flat however many games it reads, and two summaries merge
exactly.

Positions count from the dealer in seat numbers, as ``chimera run`` numbers seats: position
0 is the dealer, position 1 the next seat (seat 1 when seat 0 deals), and so on.  Per-round
figures use that round's dealer; per-game figures (win rates, the first seat's advantage)
use the game's first dealer.  A variant without a bidder has no bidder figures at all (a
figure nothing was measured for is left out, never shown as zero).
"""
from __future__ import annotations

import re
from collections import defaultdict
from fractions import Fraction

from ..tell.say import label_words
from .figures import label_of, public_fairness, seat_fairness
from .stats import Count, Histogram, Joint, Mean, PairedRatio, Rate, Share

# figures counted in every round (zero when nothing happened): a summary that never saw one
# still counts its rounds as zeros when it merges with one that did
PER_ROUND_PREFIXES = ("final_bid_", "plays_of_", "bonus_")

# means of counts (never below zero): their intervals stay at or above zero (:class:`Count`)
COUNT_FIGURES = frozenset({
    "redeals_per_round", "cards_exchanged_per_round", "out_of_turn_plays_per_round", "tricks_per_round",
    "plays_per_round", "turns_per_round", "rounds_per_game", "turns_per_game", "lead_changes_per_game",
    "lead_changes_per_round", "choices_per_decision"})
COUNT_PREFIXES = ("plays_of_", "bonus_")
SHARE_FIGURES = frozenset({"decisiveness"})     # means of values from 0 to 1 (:class:`Share`)


class Summary:
    """Accumulates the figures of rounds and (unless ``whole_games`` is false) games."""

    def __init__(self, players: int = 3, levels=(20, 30, 40), combinations=(), whole_games: bool = True,
                 role: str = "bidder", bonuses=(), role_names: tuple[str, str] = ("the bidder", "others"),
                 combination_names: dict | None = None, lowest_wins: bool = False, has_bidder: bool = True,
                 hands_over: bool = True, out_of_turn: bool = True, treasures: bool = True, teams=(),
                 forced_bids: bool = True, void_rounds: bool = False, paid_when: dict | None = None,
                 bonus_words: dict | None = None):
        self.players = players
        self.bonus_words = dict(bonus_words or {})   # a bonus's words in English, as the file's labels give them
        # the outcomes in which each bonus is paid (True: the bidder's side won; False: it lost);
        # a bonus not named here is counted in every round (the points read its count)
        self.paid_when = {str(k): frozenset(v) for k, v in (paid_when or {}).items()}
        self.treasures = treasures          # the round may give card points (treasures, points of tricks)
        self.forced_bids = forced_bids      # the round may force a bid (a bidding phase, not then: void)
        self.void_rounds = void_rounds      # a round nobody bids in may be void (all_pass.then: void)
        self.teams = tuple(tuple(int(s) for s in team) for team in teams)   # fixed sides, as the file gives them
        self.hands_over = hands_over        # the round may hand cards from seat to seat (figures of it)
        self.out_of_turn = out_of_turn      # plays may come out of turn (a climbing play)
        self.role_names = role_names
        self.role = role                    # the record's word for the bidder's line
        self.bonus_names = tuple(bonuses)
        self.levels = tuple(int(x) for x in levels)
        self.combination_ids = tuple(combinations)
        self.combination_names = dict(combination_names or {})
        self.whole_games = whole_games
        self.lowest_wins = lowest_wins
        self.has_bidder = has_bidder
        self.games = 0
        self.rounds = 0
        self.acc: dict = {}                 # every figure's accumulator, by name
        # every position's points in each round and wins in each game, together: how the
        # positions move together, for the seat fairness's interval (figures.seat_fairness)
        self.joint_points = Joint(players, grouped=True)
        self.joint_wins = Joint(players, grouped=True)
        for level in self.levels:
            self._rate(f"bidder_success_at_{level}")
            self._mean(f"bidder_points_at_{level}")
            self._rate(f"final_bid_{level}")
        for name in self.bonus_names:
            self._mean(f"bonus_{name}_per_round")
        for combo in self.combination_ids:
            self._mean(f"plays_of_{combo}_per_round")
        # distributions
        self.score_hist = Histogram()          # final totals, per seat, buckets of 25
        self.rounds_hist = Histogram()         # rounds per game
        self.bidder_points_hist = Histogram()  # the bidder's points in a round, buckets of 10
        self._reset_round()
        self._reset_game()

    @classmethod
    def for_rules(cls, rules, whole_games: bool = True) -> "Summary":
        """An empty summary for games of ``rules`` (its players, roles, bid levels, combinations)."""
        from ..engine.round import compile_round
        spec = rules.spec
        round_ = compile_round(rules)
        climbing = round_.play.kind != "tricks"     # 0 out-of-turn plays or cards handed over is a figure there
        teams = tuple(round_.play.teams or ()) if not climbing else ()
        names = {}
        for c in rules.combinations:
            given = getattr(c, "names", None) or {}
            names[c.id] = str(given.get("en") or c.id)
        return cls(int(spec.get("players", 3)), round_.levels, [c.id for c in rules.combinations], whole_games,
                   round_.role_word, [n for n in bonus_names(rules, round_)],
                   (rules.role_name("bidder"), rules.role_name("others")), names,
                   round_.end.winner == "lowest", round_.names_bidder,
                   climbing or any(t.source == "seats" for t in round_.transfers), climbing,
                   has_card_points(round_), teams,
                   round_.bidding is not None and not round_.bidding.void_when_all_pass,
                   round_.bidding is not None and round_.bidding.void_when_all_pass, bonus_paid_when(rules),
                   bonus_label_words(rules, "en"))

    def settings(self) -> tuple:
        """What :meth:`empty_copy` needs to build an empty summary like this one."""
        return (self.players, self.levels, self.combination_ids, self.whole_games, self.role, self.bonus_names,
                self.role_names, self.combination_names, self.lowest_wins, self.has_bidder,
                self.hands_over, self.out_of_turn, self.treasures, self.teams, self.forced_bids, self.void_rounds,
                self.paid_when, self.bonus_words)

    def empty_copy(self) -> "Summary":
        """An empty summary for the same rules."""
        return Summary(*self.settings())

    def _rate(self, name: str) -> Rate:
        acc = self.acc.get(name)
        if acc is None:
            acc = self.acc[name] = Rate(grouped=True)
        return acc

    def _mean(self, name: str) -> Mean:
        acc = self.acc.get(name)
        if acc is None:
            acc = self.acc[name] = new_mean(name)
        return acc

    def _late(self, name: str, reference: str, rate: bool = False):
        """A per-round figure first seen in this round: zero in every earlier round that
        ``reference`` (a figure counted in each such round, this one included) counted."""
        acc = self.acc[name] = Rate(grouped=True) if rate else new_mean(name)
        acc.pad_like(self.acc[reference], less=1)
        return acc

    def _reset_round(self):
        self._dealer = None
        self._redeals = 0
        self._plays = 0
        self._passes = 0
        self._tricks = 0
        self._exchanged = 0
        self._out_of_turn = 0
        self._combos: dict[str, int] = defaultdict(int)
        self._bidder = None
        self._bid = None
        self._partner = None
        self._forced = False
        self._round_plays: list = []        # (seat, cards) of each play: the race to go out
        self._round_tricks: list = []       # the winner of each trick

    def _reset_game(self):
        self._first_dealer = None
        self._game_rounds = 0
        self._game_turns = 0
        self._prev_totals: list | None = None
        self._totals: list | None = None
        self._leader = None
        self._lead_changes = 0
        self._kinds: list | None = None
        self._tops: list = []               # the seats at the top after each round of the game

    def _position(self, seat: int, dealer) -> int:
        """``seat`` counted from ``dealer`` in seat numbers (0: the dealer)."""
        if dealer is None:
            return seat
        return (seat - dealer) % self.players

    def _leading_side(self, leaders: list) -> tuple | None:
        """Who leads, as one leader: the file's team holding every seat at the top (partners
        leading together, or one of them alone, are one leader), else the seat alone at the top;
        None when seats of different sides share the top."""
        for team in self.teams:
            if all(s in team for s in leaders):
                return team
        return (leaders[0],) if len(leaders) == 1 else None

    def _best(self, totals) -> list:
        best = (min if self.lowest_wins else max)(totals)
        return [s for s, t in enumerate(totals) if t == best]

    # -- events ------------------------------------------------------------------------------
    def feed(self, event: dict) -> None:
        """Take one game-record event."""
        kind = str(event.get("type"))
        handler = self._on_role if kind == self.role else getattr(self, "_on_" + kind, None)
        if handler is not None:
            handler(event)

    def feed_all(self, events, choices=None) -> "Summary":
        """Take every event of ``events``, in order; returns the summary.  ``choices``, when
        given, is the number of legal actions offered at each decision of the game (what the
        players saw, which a record does not keep): counted in the game's figures."""
        for event in events:
            if choices is not None and event.get("type") == "game_end":
                self.decisions(choices)
                choices = None
            self.feed(event)
        if choices is not None:
            self.decisions(choices)
        return self

    def decisions(self, choices) -> None:
        """Count the decisions of a game: how many legal actions each one offered."""
        branching, meaningful = self._mean("choices_per_decision"), self._rate("meaningful_decision_rate")
        for count in choices:
            branching.add(count)
            meaningful.add(count > 1)

    def _close_clusters(self) -> None:
        """A game ended (or a single round, with ``--rounds``): its observations are one cluster."""
        for acc in self.acc.values():
            acc.close()
        self.joint_points.close()
        self.joint_wins.close()

    def _on_game_start(self, event):
        self._reset_round()
        self._reset_game()
        self._totals = [0] * self.players
        names = event.get("player_names")
        if isinstance(names, list) and len(names) == self.players and len(set(map(str, names))) > 1:
            self._kinds = [_word(str(n)) for n in names]     # mixed players: figures per kind

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

    def _on_partner(self, event):       # the bidder's partner for the round: neither bidder nor other
        self._partner = event.get("partner")

    def _on_exchange(self, event):
        self._exchanged += len(event.get("cards") or ())

    def _on_play(self, event):
        self._plays += 1
        self._round_plays.append((event["seat"], len(event.get("cards") or ())))
        self._combos[event["combination"]] += 1
        if event.get("out_of_turn"):
            self._out_of_turn += 1

    def _on_card(self, event):          # a card played to a trick
        self._plays += 1

    def _on_pass(self, event):
        self._passes += 1

    def _on_trick(self, event):
        self._tricks += 1
        self._round_tricks.append(event.get("winner"))

    def _on_round_end(self, event):
        self.rounds += 1
        self._game_rounds += 1
        self._game_turns += self._plays + self._passes
        bid, bidder, dealer = self._bid, self._bidder, self._dealer
        points, treasures = event["points"], event["treasures"]
        won = event.get(f"{self.role}_won")
        if self.void_rounds:
            self._rate("void_round_rate").add(bool(event.get("void")))
        if bidder is not None and won is not None:
            self._bidder_round(bool(won), bid, bidder, dealer, points, treasures)
        by_position = [0] * self.players
        for seat in range(self.players):
            self._mean(f"position_{self._position(seat, dealer)}_points_per_round").add(points[seat])
            by_position[self._position(seat, dealer)] = points[seat]
        self.joint_points.add(by_position)
        if self._kinds is not None:
            for seat, kind in enumerate(self._kinds):
                self._mean(f"player_{kind}_points_per_round").add(points[seat])
        bonuses = event.get("bonuses") or {}
        for name in self.bonus_names:      # what was paid: a bonus of the other outcome is not
            value = int(bonuses.get(name) or 0)
            when = self.paid_when.get(name)
            if when is not None and (won is None or bool(won) not in when):
                value = 0
            self._mean(f"bonus_{name}_per_round").add(value)
        if not event.get("void"):
            self._mean("lead_changes_per_round").add(self._play_lead_changes(event))
        if self.hands_over:
            self._mean("cards_exchanged_per_round").add(self._exchanged)
        if self.out_of_turn:
            self._mean("out_of_turn_plays_per_round").add(self._out_of_turn)
        self._mean("tricks_per_round").add(self._tricks)
        self._mean("plays_per_round").add(self._plays)
        self._mean("turns_per_round").add(self._plays + self._passes)
        for combo in list(self._combos) + list(self.combination_ids):
            if f"plays_of_{combo}_per_round" not in self.acc:    # not announced: zeros before
                self._late(f"plays_of_{combo}_per_round", "turns_per_round")
        for name, acc in self.acc.items():
            if name.startswith("plays_of_"):
                acc.add(self._combos.get(name[len("plays_of_"):-len("_per_round")], 0))
        self._prev_totals = self._totals
        self._totals = list(event["totals"])
        self._tops.append(self._best(self._totals))
        leader = self._leading_side(self._best(self._totals))
        if leader is not None and leader != self._leader:
            if self._leader is not None:
                self._lead_changes += 1
            self._leader = leader
        dealer_kept = self._dealer
        self._reset_round()
        self._dealer = dealer_kept

    def _bidder_round(self, won: bool, bid, bidder: int, dealer, points, treasures) -> None:
        self._rate("bidder_success").add(won)
        self._rate("others_round_win_rate").add(not won)
        if f"final_bid_{bid}" not in self.acc:         # a level the rules did not announce
            self._late(f"final_bid_{bid}", "bidder_success", rate=True)
        self._rate(f"bidder_success_at_{bid}").add(won)
        self._mean(f"bidder_points_at_{bid}").add(points[bidder])
        for name, acc in self.acc.items():
            if name.startswith("final_bid_"):
                acc.add(name == f"final_bid_{bid}")
        if self.forced_bids:
            self._rate("forced_bid_rate").add(self._forced)
        self._mean("redeals_per_round").add(self._redeals)
        others = [s for s in range(self.players) if s != bidder and s != self._partner]
        self._mean("bidder_points_per_round").add(points[bidder])
        if self.treasures:
            self._mean("bidder_treasures_per_round").add(treasures[bidder])
        for seat in others:
            self._mean("others_points_per_round").add(points[seat])
            if self.treasures:
                self._mean("others_treasures_per_round").add(treasures[seat])
        if others:      # role fairness: the bidder's points less the mean of one of the others
            self._mean("role_gap_per_round").add(points[bidder] - Fraction(sum(points[s] for s in others),
                                                                             len(others)))
        position = self._position(bidder, dealer)
        for i in range(self.players):
            self._rate(f"bidder_at_position_{i}").add(position == i)
        if self._kinds is not None:
            self._rate(f"player_{self._kinds[bidder]}_bidder_success").add(won)
        self.bidder_points_hist.add(10 * (points[bidder] // 10))

    def _play_lead_changes(self, event) -> int:
        """How often the lead of the round changed at play level (docs/figures.md): in a
        climbing round the leader is the seat alone with the fewest cards in hand after a play
        (the race to go out), in a trick-taking round the side (the file's team, else the seat)
        alone with the most tricks taken after a trick.  A shared top changes nothing; the
        first leader is no change."""
        leaders = []
        if self.out_of_turn:                        # climbing: cards in hand, back from the end
            sizes = list(event.get("cards_left") or [])
            if len(sizes) != self.players:
                return 0
            after = []
            for seat, cards in reversed(self._round_plays):
                after.append(tuple(sizes))
                sizes[seat] += cards
            for sizes_after in reversed(after):
                fewest = min(sizes_after)
                at_top = [s for s, n in enumerate(sizes_after) if n == fewest]
                leaders.append(at_top[0] if len(at_top) == 1 else None)
        else:
            sides = self.teams or tuple((s,) for s in range(self.players))
            taken = [0] * len(sides)
            for winner in self._round_tricks:
                for i, side in enumerate(sides):
                    if winner in side:
                        taken[i] += 1
                most = max(taken)
                at_top = [i for i, t in enumerate(taken) if t == most]
                leaders.append(at_top[0] if len(at_top) == 1 else None)
        changes, current = 0, None
        for leader in leaders:
            if leader is not None and leader != current:
                changes += current is not None
                current = leader
        return changes

    def _on_game_end(self, event):
        if not self.whole_games:
            self._close_clusters()
            return
        self.games += 1
        winner = event.get("winner")
        totals = event["totals"]
        winners = event.get("winners") or ([] if winner is None else [winner])   # a shared win names them all
        won = [0] * self.players
        for seat in range(self.players):
            self._rate(f"position_{self._position(seat, self._first_dealer)}_win_rate").add(seat in winners)
            won[self._position(seat, self._first_dealer)] = int(seat in winners)
        self.joint_wins.add(won)
        if self._kinds is not None:
            for seat, kind in enumerate(self._kinds):
                self._rate(f"player_{kind}_win_rate").add(seat in winners)
        self._mean("rounds_per_game").add(self._game_rounds)
        self._mean("turns_per_game").add(self._game_turns)
        self._mean("lead_changes_per_game").add(self._lead_changes)
        self.rounds_hist.add(self._game_rounds)
        if winners:
            self._mean("winning_total").add(totals[winners[0]])
        for total in totals:
            self.score_hist.add(25 * (total // 25))
        before = self._prev_totals or [0] * self.players
        self._rate("decided_in_last_round").add(self._best(before) != winners)
        if winners and self._tops:
            behind = [not any(w in top for w in winners) for top in self._tops]
            drama = self._rate("drama")
            for was_behind in behind[:-1]:          # after the last round the winner is at the top
                drama.add(was_behind)
            led_from = len(behind)                  # the round after which it led for good
            while led_from > 1 and not behind[led_from - 2]:
                led_from -= 1
            self._mean("decisiveness").add(Fraction(led_from, len(behind)))
        self._close_clusters()

    # -- combining -----------------------------------------------------------------------------
    def merge(self, other: "Summary") -> "Summary":
        """Add another summary's figures to this one (exact: the grouping does not matter)."""
        zeros = {name: _reference(self, name) for name in other.acc
                 if name not in self.acc and name.startswith(PER_ROUND_PREFIXES)}   # before any merging
        theirs = {name: _reference(other, name) for name in self.acc
                  if name not in other.acc and name.startswith(PER_ROUND_PREFIXES)}
        self.games += other.games
        self.rounds += other.rounds
        for name, acc in other.acc.items():
            mine = self.acc.get(name)
            if mine is None:                       # a figure only the other saw
                mine = self.acc[name] = type(acc)(grouped=True)
                if zeros.get(name) is not None:
                    mine.pad(zeros[name])
            mine.merge(acc)
        for name, shape in theirs.items():         # ... and the other way round
            if shape is not None:
                self.acc[name].pad(shape)
        for name in ("score_hist", "rounds_hist", "bidder_points_hist", "joint_points", "joint_wins"):
            getattr(self, name).merge(getattr(other, name))
        return self

    # -- reading -------------------------------------------------------------------------------
    def figures(self) -> dict:
        """Every figure measured at least once, by name, in the order they are shown: a
        :class:`Mean` or a :class:`Rate`, each with its interval."""
        seen = {name: i for i, name in enumerate(self.acc)}
        return {name: self.acc[name] for name in sorted(self.acc, key=lambda n: _order(n, seen[n]))
                if self.acc[name].n}

    def unit_totals(self) -> dict[str, tuple]:
        """Each figure as (numerator, denominator): what pairing needs from one game."""
        out = {}
        for name, acc in self.acc.items():
            out[name] = (acc.hits, acc.n) if isinstance(acc, Rate) else (acc.total, acc.n)
        return out

    def fair_share(self) -> float:
        """The win rate each seat would have if no position were favoured: the seats that won a
        game (a side, or a shared win, counting each of its seats), per game, over the seats;
        1 / players when each game has one winner, 1/2 for two sides of two."""
        rates = [self.acc.get(f"position_{k}_win_rate") for k in range(self.players)]
        games = max((r.n for r in rates if r is not None), default=0)
        winners = sum(r.hits for r in rates if r is not None)
        return winners / (games * self.players) if games and winners else 1 / self.players

    def first_seat_advantage(self) -> dict | None:
        """Position 1's (the seat after the first dealer) win rate minus a fair share, with its interval."""
        rate = self.acc.get("position_1_win_rate")
        if not self.whole_games or rate is None or not rate.n:
            return None
        fair = self.fair_share()
        lo, hi = rate.interval()
        return {"label": label_of("first_seat_advantage"), "n": rate.n, "mean": rate.value - fair,
                "ci95": [lo - fair, hi - fair], "unit": "rate"}

    def label(self, name: str) -> str:
        """The figure's label, with the roles and combinations as the variant names them."""
        return label_of(name, *self.role_names, combinations=self.combination_names, bonuses=self.bonus_words)

    def as_dict(self) -> dict:
        """The figures as JSON-ready data."""
        data = {"games": self.games, "rounds": self.rounds,
                "roles": {"bidder": self.role_names[0], "others": self.role_names[1]} if self.has_bidder else {},
                "figures": {name: {"label": self.label(name), **fig.as_dict()}
                            for name, fig in self.figures().items()},
                "combinations": {c: m.total for c, m in self._combination_totals().items()},
                "distributions": {"final_totals": self.score_hist.as_dict(),
                                  "rounds_per_game": self.rounds_hist.as_dict(),
                                  "bidder_round_points": self.bidder_points_hist.as_dict()}}
        advantage = self.first_seat_advantage()
        if advantage is not None:
            data["first_seat_advantage"] = advantage
        fairness = self.seat_fairness()
        if fairness is not None:
            data["seat_fairness"] = public_fairness(fairness)
        return data

    def seat_fairness(self) -> dict | None:
        """The seat fairness figure (:func:`~chimera_dsl.study.figures.seat_fairness`), its
        positions drawn together as they moved together in this summary's games or rounds."""
        return seat_fairness(self.figures(), self.whole_games,
                             joint=self.joint_wins if self.whole_games else self.joint_points)

    def _combination_totals(self) -> dict:
        return {name[len("plays_of_"):-len("_per_round")]: acc for name, acc in self.acc.items()
                if name.startswith("plays_of_")}


def _reference(summary: Summary, name: str):
    """The shape (:meth:`~chimera_dsl.study.stats.Mean.shape`) of the rounds of ``summary`` a per-round
    figure it lacks would have counted (as zeros), taken before any merging, or None when it
    counted none."""
    acc = summary.acc.get("bidder_success" if name.startswith("final_bid_") else "turns_per_round")
    return None if acc is None else acc.shape()


def new_mean(name: str) -> Mean:
    """The accumulator of a mean figure: a count's interval stays at or above zero, a share's in [0, 1]."""
    if name in COUNT_FIGURES or name.startswith(COUNT_PREFIXES):
        return Count(grouped=True)
    if name in SHARE_FIGURES:
        return Share(grouped=True)
    return Mean(grouped=True)


def bonus_label_words(rules, lang: str) -> dict:
    """Each bonus the file labels (``labels``), by its words in ``lang`` (else in English)."""
    labels = rules.spec.get("labels") or {}
    out = {}
    for name in labels:
        said = label_words(labels, str(name), lang)
        if said is not None:
            out[str(name)] = said
    return out


def bonus_paid_when(rules) -> dict:
    """The bonuses of the scoring's outcomes, each with the outcomes that pay it (True: the
    bidder's side won, ``bidder_out_first``; False: it lost, ``other_out_first``)."""
    scoring = rules.spec.get("scoring") or {}
    paid: dict = {}
    for outcome, won in (("bidder_out_first", True), ("other_out_first", False)):
        for name in ((scoring.get(outcome) or {}).get("bonuses") or {}):
            paid.setdefault(str(name), set()).add(won)
    return paid


_ORDER = ("bidder_success", "others_round_win_rate", "bidder_points_per_round", "others_points_per_round",
          "role_gap_per_round", "bidder_success_at_", "bidder_points_at_", "final_bid_", "forced_bid_rate",
          "redeals_per_round", "void_round_rate", "bidder_treasures_per_round", "others_treasures_per_round",
          "bidder_at_position_", "position_", "player_", "rounds_per_game", "turns_per_game", "lead_changes_per_game", "winning_total",
          "decided_in_last_round", "drama", "decisiveness", "lead_changes_per_round", "tricks_per_round",
          "plays_per_round", "turns_per_round", "choices_per_decision", "meaningful_decision_rate",
          "cards_exchanged_per_round", "out_of_turn_plays_per_round", "bonus_", "plays_of_")


def _order(name: str, seen: int) -> tuple:
    """Where a figure is shown: by group, then by what it measures and its number (bid level,
    position), then in the order the file gives (combinations, bonuses)."""
    for i, prefix in enumerate(_ORDER):
        if name == prefix or (prefix.endswith("_") and name.startswith(prefix)):
            rest = name[len(prefix):]
            number = re.match(r"\d+", rest)
            if number is None:
                return (i, "", 0, seen)
            return (i, rest[number.end():], int(number.group()), seen)
    return (len(_ORDER), "", 0, seen)


def _word(text: str) -> str:
    """A player's name as one word for a figure's name."""
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_").lower() or "player"


def has_card_points(round_) -> bool:
    """Can a seat of the round take card points (``round_end.treasures``)?  The scoring's
    treasures, or, in a trick-taking round, points of cards or of the last trick."""
    if round_.scoring.treasures:
        return True
    play = round_.play
    return play.kind == "tricks" and bool(any(play.card_points) or any(play.trump_card_points) or play.last_trick)


def bonus_names(rules, round_=None) -> list[str]:
    """The scoring's bonuses that are figures of their own: a bonus that only counts the plays of
    one combination (``{combination: bomb}``, ``count(bomb)``) is that combination's figure
    already, and is left out so that no figure is shown twice."""
    from ..engine.round import compile_round
    round_ = round_ or compile_round(rules)
    scoring = rules.spec.get("scoring") or {}
    counts_one = set()
    for name, text in (scoring.get("bonuses") or {}).items():
        if re.fullmatch(r"\s*count\(\s*\w+\s*\)\s*", str(text)):
            counts_one.add(str(name))
    for outcome in ("bidder_out_first", "other_out_first"):
        for name, bonus in ((scoring.get(outcome) or {}).get("bonuses") or {}).items():
            if isinstance(bonus, dict) and "combination" in bonus:
                counts_one.add(str(name))
    return [name for name, _ in round_.scoring.bonuses if name not in counts_one]


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
        """Add another chunk's pairs (exact)."""
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
    """Each figure of A and B side by side with B - A, its interval and p-value, in the order
    figures are shown (figures are paired by seed).  A figure that exists in one variant only
    (a bid level the other does not offer) has no value for the other and no difference."""
    fa, fb = a.figures(), b.figures()
    order = list(fa) + [n for n in fb if n not in fa]
    out = []
    for name in order:
        if name not in paired.figures:
            continue
        d = paired.figures[name].difference(name)
        if name not in fa:
            d.a = None
        if name not in fb:
            d.b = None
        d.absent()
        out.append(d)
    return out
