"""The rules of a whole game, read from a variant document once: every number and choice.

The loader (:mod:`chimera_dsl.variant`) has already checked the document against the schema
and its meaning checks, and builds a :class:`Config` as its last check, so the checks here
are only those that concern how the game runs (a seat choice the deal cannot give, a bonus
name counting two things); what the loader checks is not checked again.

:class:`Config` is what the engine consults instead of constants: who deals, how the deck is
cut, the bidding's levels and closing passes, the all-pass rule, the nest and the exchange,
the trick's closing passes and plays out of turn, scoring and the end.  A missing or unusable
value raises :class:`~chimera_dsl.errors.VariantError` naming its path in the document.
Values the schema leaves out get the defaults it documents (derived from the variant, never
Chimera's numbers): passes that close = players - 1, the forced bid = the lowest level, no
cut = anywhere.
"""
from __future__ import annotations

from .errors import Problem, VariantError
from .rules import Rules

_MISSING = object()


class Config:
    """Every rule of the game, read from the variant document once (never written in Python).

    A missing or unusable value raises :class:`VariantError` naming its path in the document.
    """

    SEAT_CHOICES = {
        "opener": ("face_up_holder", "dealer_left", "dealer"),
        "first_leader": ("bidder", "face_up_holder", "dealer", "dealer_left"),
        "forced_bidder": ("face_up_holder", "dealer", "dealer_left", "first_passer"),
    }

    def __init__(self, rules: Rules):
        spec = rules.spec
        self.spec = spec
        deck = rules.deck
        self.players = self._int(("players",), minimum=2)
        self.deck_size = len(deck.cards)

        # dealing
        first = self._get(("deal", "first_dealer"))
        if first == "random":
            self.first_dealer: int | None = None
        elif isinstance(first, int) and not isinstance(first, bool) and 0 <= first < self.players:
            self.first_dealer = first
        else:
            self._bad(("deal", "first_dealer"), f"must be 'random' or a seat 0..{self.players - 1}, not {first!r}")
        rotate = self._get(("deal", "dealer_rotates"), "clockwise")
        directions = {"clockwise": 1, "counterclockwise": -1, "none": 0}
        if rotate not in directions:
            self._bad(("deal", "dealer_rotates"), f"must be one of {', '.join(directions)}, not {rotate!r}")
        self.dealer_step = directions[rotate]
        self.nest_size = self._int(("deal", "nest"), minimum=0)
        self.hand_size = self._int(("deal", "hand"), minimum=1)
        self.face_up = bool(self._get(("deal", "face_up"), False))
        cut = self._get(("deal", "cut"), None)
        if cut is None:                                  # anywhere: 1 to all but one card
            self.cut = (1, self.deck_size - 1)
        else:
            if not isinstance(cut, dict) or not all(isinstance(cut.get(k), int) for k in ("from", "to")):
                self._bad(("deal", "cut"), "must be {from: N, to: M}: how many cards the upper part holds")
            self.cut = (cut["from"], cut["to"])
        self.face_up_in_nest = self._get(("deal", "face_up_in_nest"), "recut")
        if self.face_up_in_nest not in ("recut", "keep"):
            self._bad(("deal", "face_up_in_nest"), f"must be 'recut' or 'keep', not {self.face_up_in_nest!r}")
        # can the face-up card miss the hands (land in the nest, or among undealt cards)?
        dealt_from = self.nest_size
        dealt_to = self.nest_size + self.players * self.hand_size
        places = [self.deck_size - c - 1 for c in range(self.cut[0], self.cut[1] + 1)]
        self.face_up_may_miss = self.face_up and any(not dealt_from <= p < dealt_to for p in places)

        # bidding
        self.opener = self._seat_choice(("bidding", "opener"), "opener")
        levels = self._get(("bidding", "levels"))
        if not isinstance(levels, list) or not levels or not all(isinstance(v, int) and v > 0 for v in levels):
            self._bad(("bidding", "levels"), "must be a list of positive whole numbers")
        self.levels = tuple(sorted(set(levels)))
        self.top_bid_closes = bool(self._get(("bidding", "top_bid_closes"), False))
        self.passes_to_close = self._int(("bidding", "passes_to_close"), minimum=1, default=self.players - 1)
        self.reenter_after_pass = bool(self._get(("bidding", "reenter_after_pass"), True))
        self.redeals_before_forced = self._int(("bidding", "all_pass", "redeals_before_forced"), minimum=0)
        self.forced_bid = self._int(("bidding", "all_pass", "forced_bid"), minimum=1, default=self.levels[0])
        self.forced_bidder = self._seat_choice(("bidding", "all_pass", "forced_bidder"), "forced_bidder")
        self.forced_bid_closes = bool(self._get(("bidding", "all_pass", "forced_bid_closes"), False))

        # nest and exchange
        to = self._get(("nest", "to"), "bidder")
        if to not in ("bidder", "nobody"):
            self._bad(("nest", "to"), f"must be 'bidder' or 'nobody', not {to!r}")
        self.nest_to_bidder = to == "bidder"
        self.nest_shown = bool(self._get(("nest", "shown"), False))
        between = self._get(("exchange", "between"), "others" if "exchange" in spec else "nobody")
        if between not in ("others", "nobody"):
            self._bad(("exchange", "between"), f"must be 'others' or 'nobody', not {between!r}")
        self.exchange = between == "others"
        self.exchange_simultaneous = bool(self._get(("exchange", "simultaneous"), True))
        counts = self._get(("exchange", "count_by_bid"), {}) if self.exchange else {}
        if not isinstance(counts, dict):
            self._bad(("exchange", "count_by_bid"), "must map each bid to a number of cards")
        self.exchange_count: dict[int, int] = {}
        for level, count in counts.items():
            try:
                self.exchange_count[int(level)] = int(count)
            except (TypeError, ValueError):
                self._bad(("exchange", "count_by_bid", level), "bids and counts must be whole numbers")
        for level in set(self.levels) | {self.forced_bid}:
            if not self.exchange:
                self.exchange_count[level] = 0
            elif level not in self.exchange_count:     # the loader's meaning checks say where
                self._bad(("exchange", "count_by_bid"), f"says nothing of a bid of {level}")

        # play
        self.first_leader = self._seat_choice(("play", "first_leader"), "first_leader")
        self.leader_may_pass = bool(self._get(("play", "leader_may_pass"), False))
        self.passes_to_close_trick = self._int(("play", "passes_to_close_trick"), minimum=1,
                                               default=self.players - 1)
        out_of_turn = self._get(("play", "out_of_turn"), []) or []
        if not isinstance(out_of_turn, list):
            self._bad(("play", "out_of_turn"), "must be a list of combination ids")
        self.out_of_turn = frozenset(rules.combination[c].index for c in out_of_turn)
        last = self._get(("play", "last_trick_to"), "player_out")
        if last not in ("player_out", "nobody"):
            self._bad(("play", "last_trick_to"), f"must be 'player_out' or 'nobody', not {last!r}")
        self.last_trick_to_out = last == "player_out"

        # scoring
        treasures = self._get(("scoring", "treasures"), {}) or {}
        if not isinstance(treasures, dict):
            self._bad(("scoring", "treasures"), "must map ranks to points")
        self.treasures: list[tuple[int, int]] = []
        for rank, points in treasures.items():
            self.treasures.append((deck.index[str(rank).upper()], points))
        self.outcomes = {}
        self.bonus_names: list[str] = []
        self.bonus_combination: dict[str, int | None] = {}
        for outcome in ("bidder_out_first", "other_out_first"):
            self.outcomes[outcome] = self._outcome(outcome, rules)

        # end
        self.target = self._int(("end", "target"), minimum=1)
        self.ties = self._get(("end", "ties"), "play_on")
        if self.ties not in ("play_on", "shared"):
            self._bad(("end", "ties"), f"must be 'play_on' or 'shared', not {self.ties!r}")

    def _outcome(self, outcome: str, rules: Rules) -> dict:
        base = ("scoring", outcome)
        bidder = self._get(base + ("bidder",))
        if not isinstance(bidder, dict) or not isinstance(bidder.get("times_bid"), (int, float)):
            self._bad(base + ("bidder",), "must be {times_bid: N}")
        others = self._get(base + ("others",), 0)
        if not isinstance(others, (int, float)):
            self._bad(base + ("others",), "must be a number of points")
        bonuses = self._get(base + ("bonuses",), {}) or {}
        if not isinstance(bonuses, dict):
            self._bad(base + ("bonuses",), "must map bonus names to {combination, points}")
        out = []
        for name, bonus in bonuses.items():
            place = base + ("bonuses", name)
            if not isinstance(bonus, dict) or not isinstance(bonus.get("points"), int):
                self._bad(place, "must give points: N")
            to = bonus.get("to", "bidder")
            if to not in ("bidder", "others"):
                self._bad(place + ("to",), f"must be 'bidder' or 'others', not {to!r}")
            combination = bonus.get("combination")
            if combination is not None:
                index: int | None = rules.combination[combination].index
            elif name == "idle_hunter":
                index = None
            else:
                self._bad(place, "a bonus names the combination it counts (combination: ID), "
                          "or is idle_hunter (an other who played no card)")
            known = self.bonus_combination.get(name, _MISSING)
            if known is not _MISSING and known != index:
                self._bad(place, "the same bonus name counts different things in the two outcomes")
            if name not in self.bonus_combination:
                self.bonus_names.append(name)
                self.bonus_combination[name] = index
            out.append((name, index, bonus["points"], to))
        return {"times_bid": bidder["times_bid"], "others": others, "bonuses": tuple(out)}

    # -- reading the document ---------------------------------------------------------------
    def _get(self, path: tuple, default=_MISSING):
        node = self.spec
        for part in path:
            if not isinstance(node, dict) or part not in node:
                if default is _MISSING:
                    self._bad(path, "is missing")
                return default
            node = node[part]
        return node

    def _int(self, path: tuple, minimum: int = 0, default=_MISSING) -> int:
        value = self._get(path, default)
        if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
            self._bad(path, f"must be a whole number of at least {minimum}, not {value!r}")
        return value

    def _seat_choice(self, path: tuple, kind: str) -> str:
        value = self._get(path)
        if value not in self.SEAT_CHOICES[kind]:
            self._bad(path, f"must be one of {', '.join(self.SEAT_CHOICES[kind])}, not {value!r}")
        if value == "face_up_holder":
            if not self.face_up:
                self._bad(path, "face_up_holder needs deal.face_up: true")
            if self.face_up_in_nest == "keep" and self.face_up_may_miss:
                self._bad(path, "face_up_holder: with face_up_in_nest: keep and this cut, the face-up "
                          "card may stay in the nest, where nobody holds it (recut, or name another seat)")
        return value

    @staticmethod
    def _bad(path: tuple, message: str):
        name = ".".join(str(p) for p in path)
        raise VariantError([Problem(f"{name} {message}", tuple(path))])
