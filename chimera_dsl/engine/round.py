"""The round as data: the phases a variant file lists, compiled once for the engine.

A variant's ``round`` lists its phases in order; each names a section of the file (``deal``,
``bidding``, ``nest``, ``exchange``, ``play``, ``scoring``) or an entry of ``phases`` (a
phase of the file's own, such as a transfer of cards between rounds), and each section has
a ``kind`` the engine knows: ``deal``, ``bidding``, ``transfer``, ``play`` (climbing) and
``score``.  A file without ``round`` plays the sections it has, in that order (``nest`` and
``exchange`` are transfers; a nest given to ``nobody`` or an exchange ``between: nobody`` is
left out).

:class:`Round` is what the engine consults instead of constants.  The loader has checked the
document (schema and meaning checks) and builds a :class:`Round` as its last check; what can
only be found here (a seat that may name nobody where one is needed, an expression that does
not compile) raises :class:`~chimera_dsl.errors.VariantError` naming its path in the document.
"""
from __future__ import annotations

import re

from dataclasses import dataclass, field
from typing import Any

from ..errors import CardError, ExpressionError, Problem, VariantError
from ..rules import Rules
from .scoring import Scoring, compile_end, compile_scoring
from .seats import PLACE, SeatError, SeatExpr, parse_seat, parse_teams
from .phases import tricks
from .phases.effects import VALUE_EFFECTS, Effect, compile_value_effect, expression, is_value_effect, \
    refuse_shadowed_values, with_values
from .phases.calls import compile_calls, compile_phase as compile_calls_phase
from .phases.bids import ROUND_FACTS as BID_ROUND_FACTS, SEAT_FACTS as BID_SEAT_FACTS, compile_bids

STANDARD_KINDS = {"deal": "deal", "bidding": "bidding", "nest": "transfer", "exchange": "transfer",
                  "play": "play", "scoring": "score"}
DIRECTIONS = {"clockwise": 1, "counterclockwise": -1}


@dataclass(frozen=True)
class DealPhase:
    """Shuffle, cut, turn a card face up, deal the nest and the hands; who deals next."""

    name: str
    first_dealer: SeatExpr | None          # None: drawn from the seed
    next_dealer: SeatExpr
    cut: tuple[int, int]
    face_up: bool
    face_up_in_nest: str                   # recut | keep
    nest: int
    hand: int
    face_up_may_miss: bool
    extra: int = 0                         # deal.rest: dealt: the first ``extra`` seats dealt get one more card
    sits_out: SeatExpr | None = None       # deal.sits_out: the seat dealt no cards, out of the round
    kind: str = "deal"
    first: int | None = None               # deal.first: a deal in two parts, each seat seeing this many cards first
    rest_after: str | None = None          # deal.rest_after: the phase after which each seat sees its whole hand
    by_round: tuple[int, ...] = ()         # deal.hand_by_round: the hand of round 1, 2, ... (then from the first again)
    turn_up: bool = False                  # deal.turn_up: the first card of the stock is turned face up for all
    complete_after: str | None = None      # deal.complete.after: the phase after which the stock is dealt on
    complete_hand: int = 0                 # deal.complete.hand: the cards each seat then holds
    draw: int = 0                          # play.draw: the cards each seat draws from the stock after a trick
    drawn: int = 0                         # ... and all it draws in a round (the stock and the turned card shared)

    @property
    def held(self) -> int:
        """The cards a seat plays in a round (the tricks of a trick-taking round): ``complete.hand``
        for a deal completed after a phase, else ``hand`` and what it draws from the stock."""
        return self.complete_hand or self.hand + self.drawn

    @property
    def keeps_stock(self) -> bool:
        """Does the deal leave a stock in its order, dealt on after a phase or drawn from after
        each trick (the record's deal line names it)?"""
        return self.complete_after is not None or self.draw > 0

    def hand_in(self, round_: int) -> int:
        """The cards each seat is dealt in round ``round_`` (``hand_by_round``, else ``hand``)."""
        by_round = self.by_round
        return by_round[(round_ - 1) % len(by_round)] if by_round else self.hand

    def order(self, dealer: int, step: int, players: int, sitting: int | None) -> list[int]:
        """The seats dealt to, in the order they are dealt: from the dealer's next seat in the
        direction of play, less the seat sitting the round out."""
        return [s for s in ((dealer + step * (1 + j)) % players for j in range(players)) if s != sitting]

    def hand_of(self, seat: int, dealer: int, step: int, players: int, sitting: int | None = None,
                round_: int = 1) -> int:
        """The cards ``seat`` is dealt in round ``round_``: its hand, one more for the first
        ``extra`` seats after the dealer, none for the seat sitting the round out."""
        hand = self.hand_in(round_)
        if sitting is not None:
            if seat == sitting:
                return 0
            return hand + (self.order(dealer, step, players, sitting).index(seat) < self.extra)
        if not self.extra:
            return hand
        return hand + (((seat - dealer) * step - 1) % players < self.extra)


@dataclass(frozen=True)
class BiddingPhase:
    """A ladder of bid levels; the highest bidder takes the role ``bidder``."""

    name: str
    opener: SeatExpr
    levels: tuple[int, ...]
    top_bid_closes: bool
    passes_to_close: int
    reenter_after_pass: bool
    redeals_before_forced: int
    forced_bid: int
    forced_bidder: SeatExpr
    forced_bid_closes: bool
    void_when_all_pass: bool = False       # all_pass.then: void: the round ends, nobody scoring
    kind: str = "bidding"


@dataclass(frozen=True)
class TransferPhase:
    """Cards handed over: the nest to a seat, or cards from seats to seats."""

    name: str
    source: str                            # "nest" or "seats"
    givers: SeatExpr | str | None          # a seat, "others" (every seat but the bidder), "each" (every seat), or None
    to: SeatExpr | str | tuple             # a seat, "next" (the next giver in the direction of play), "each_other",
                                           # or the directions by round: ("left", "right", "across", "none")
    count: int | None                      # None: by bid (count_by_bid) or, for the nest, all of it
    count_by_bid: dict[int, int]
    choose: str                            # player | highest
    shown: bool
    simultaneous: bool
    when: Any = None                       # a compiled bool expression, or None: every round
    kind: str = "transfer"


@dataclass(frozen=True)
class FirstLead:
    """``play.first_lead``: the round's first lead must hold this card, when ``when`` holds."""

    card: str
    card_mask: int
    when: Any = None


@dataclass(frozen=True)
class LastCard:
    """``play.last_card``: when the next seat holds ``holds`` cards or fewer, a single played by
    the seat before it is its strongest card; with ``must_play``, it may not pass while that
    card beats the trick."""

    holds: int
    must_play: bool


@dataclass(frozen=True)
class PlayPhase:
    """Climbing play: lead any combination, beat the last play or pass; the round ends when a
    seat has no card left."""

    name: str
    first_leader: SeatExpr
    leader_may_pass: bool
    passes_to_close_trick: int
    out_of_turn: frozenset
    last_trick_to_out: bool
    first_lead: FirstLead | None = None
    last_card: LastCard | None = None
    ends_when: Any = None                  # play.round_ends_when (compiled); None: the first seat out ends it
    pass_final: bool = False               # play.pass_final: a seat that passed sits out the rest of the trick
    effects: tuple = ()                    # play.effects: (condition, effect name) pairs, run after each play
    kind: str = "play"
    goes_on: bool = False                  # play goes on after a seat is out, or skips seats that passed
                                           # (round_ends_when or pass_final: a field, read on every play)
    teams: tuple = ()                      # play.teams: sides fixed by seat, whose points are pooled
    floating: frozenset = frozenset()      # play.floating: ranks whose single takes the rank of the single below it
    floating_led: int = 0                  # ... and, led, of this rank index
    must: tuple = ()                       # play.must: (when, play) conditions that narrow the plays
    changes_at_trick_end: bool = False     # an effect at trick_end changes a value (add, set)

    def side(self, seat: int, n: int) -> tuple[int, ...]:
        """The seats of ``seat``'s side (its team, or itself alone)."""
        for team in self.teams:
            if seat in team:
                return team
        return (seat,)


@dataclass(frozen=True)
class Round:
    """Every rule of the game's round, its seats, its scoring and its end."""

    players: int
    direction: int                         # +1 clockwise, -1 counter-clockwise (round 1)
    reverse_each_round: bool
    roles: dict[str, str]                  # role id -> its name in the file ("bidder": "declarer")
    phases: tuple
    deal: DealPhase
    bidding: BiddingPhase | None
    transfers: tuple[TransferPhase, ...]
    play: Any                              # a PlayPhase (climbing) or a tricks.TrickPhase
    scoring: Scoring
    end: Any
    target: int
    levels: tuple[int, ...] = field(default=())
    calls: Any = None                      # the file's calls (chimera_dsl.engine.phases.calls.Calls), or None

    @property
    def names_bidder(self) -> bool:
        """Does a phase of the round (a bidding, an auction, trump made from the turned card...)
        name a bidder?"""
        return self.bidding is not None or any(p.kind in ("auction", "contract", "solo", "order_up")
                                               for p in self.phases)

    @property
    def contract(self) -> bool:
        """Does an auction of contract bids (kind contract) name the round's contract?"""
        found = self.__dict__.get("_contract")
        if found is None:                   # asked at every round's end: found once
            found = self.__dict__["_contract"] = any(p.kind == "contract" for p in self.phases)
        return found

    @property
    def taken_cards_count(self) -> bool:
        """Do the cards a trick's winner takes count for anything?  In a trick-taking round they
        do; in a climbing round only through treasures: else they stay on one pile, the trick
        won, not taken."""
        return self.play.kind != "play" or bool(self.scoring.treasures)

    @property
    def role_word(self) -> str:
        """The bidder's role as one lower-case word, as the game record names it (``chimera``)."""
        found = self.__dict__.get("_role_word")
        if found is None:                   # written in every round's end: found once
            found = self.__dict__["_role_word"] = _word(self.roles.get("bidder", "bidder"))
        return found

    def exchange_count(self, bid: int | None) -> dict[str, int]:
        """How many cards each transfer by bid hands over at ``bid`` (0 where it says nothing)."""
        return {t.name: (t.count if t.count is not None else t.count_by_bid.get(bid or 0, 0))
                for t in self.transfers if t.source == "seats"}


def _display(name) -> str:
    """A role's name in the file: a string, or names per language (English first)."""
    if isinstance(name, dict):
        return str(name.get("en") or next(iter(name.values()), ""))
    return str(name)


def _word(name: str) -> str:
    return "_".join(str(name).lower().split()) or "bidder"


class _Reader:
    """Reads the document's values, turning a wrong one into a located :class:`VariantError`."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.spec = rules.spec
        self.sure: frozenset = frozenset()     # names that always name a seat, once the deal is read

    def get(self, path: tuple, default: Any = ...) -> Any:
        node: Any = self.spec
        for part in path:
            if not isinstance(node, dict) or part not in node:
                if default is ...:
                    self.bad(path, "is missing")
                return default
            node = node[part]
        return node

    @staticmethod
    def bad(path: tuple, message: str, hint: str | None = None):
        name = ".".join(str(p) for p in path)
        raise VariantError([Problem(f"{name} {message}", tuple(path), hint=hint)])

    def condition(self, path: tuple, text) -> Any:
        """A phase's condition (``when``) compiled (see :func:`condition`): the phases' own
        compilers read theirs through the reader they are given."""
        return condition(self, path, text)

    def later_rounds(self) -> frozenset:
        """The names that always name a seat in every round after the first: the previous
        round's seats of a climbing round, unless a round may be void (nobody out; after a void
        first round they name nobody)."""
        play = self.spec.get("play") or {}
        if play.get("kind", "play") != "play" or self.void_rounds():
            return frozenset()
        return LAST_ROUND | {PLACE}

    def void_rounds(self) -> bool:
        """May a round be void (``bidding.all_pass.then: void``)?"""
        return any(voids_all_pass(_section(self.spec, n)[0] or {}) for n in _phase_names(self.spec))

    def seat(self, path: tuple, roles: tuple, *, required: bool = True, default: Any = ...,
             sure: frozenset = frozenset(), why: str = "it is not always there", words: tuple = ()) -> SeatExpr:
        value = self.get(path, default)
        sure = sure | self.sure
        deck = self.rules.deck

        def card_number(text: str) -> int | None:
            try:
                return deck.numbers_of(deck.cards_mask(text))[0]
            except Exception:           # any unreadable card name: the caller says where
                return None
        try:
            expr = parse_seat(value, self.spec["players"], roles, card_number, sure=sure, places=places_of(self.spec),
                              later=self.later_rounds(), words=words)
        except SeatError as error:
            raise VariantError([Problem(f"{'.'.join(map(str, path + error.path))}: {error.message}",
                                        tuple(path) + tuple(map(str, error.path)), hint=error.hint)]) from None
        if PLACE in expr.reads and not keeps_places(self.spec):
            self.bad(path, f"names '{expr.text}', but the round ends when the first seat is out, so it has no places",
                     "write play.round_ends_when, e.g. out_count >= players - 1")
        if required and expr.may_fail:
            places = places_of(self.spec)
            if PLACE in expr.reads and places < self.spec["players"]:
                why = f"a seat sits each round out, so a round gives {places} places"
            elif "round" in expr.reads and expr.reads & (LAST_ROUND | {PLACE}) and self.void_rounds():
                why = VOID_WHY
            self.bad(path, f"'{expr.text}' may name nobody ({why})",
                     "give a fallback in a list, e.g. [previous_round.first_out, dealer]")
        return expr


def compile_round(rules: Rules) -> Round:
    """Compile the round of a loaded variant.  Raises :class:`VariantError` naming the path."""
    r = _Reader(rules)
    spec = rules.spec
    players = spec["players"]
    seats = spec.get("seats") or {}
    direction = DIRECTIONS[seats.get("direction", "clockwise")]
    reverse = bool(seats.get("reverse_each_round", False))
    roles_spec = spec.get("roles") or {}
    roles = {str(k): _display(v) for k, v in roles_spec.items()}
    if "bidding" in spec or roles or any((_section(spec, n)[0] or {}).get("kind") in ("auction", "contract", "solo")
                                         for n in _phase_names(spec)):
        roles = {"bidder": "bidder", "others": "others", **roles}
    role_ids = tuple(roles)
    names = _phase_names(spec)
    if "deal" not in names or "play" not in names:
        r.bad(("round",), "must list a deal and a play", "e.g. round: [deal, play, scoring]")
    phases: list = []
    bidding = None
    transfers: list = []
    play: Any = None                      # a PlayPhase or a tricks.TrickPhase
    deal = play = None
    trump_layers: dict[int, tuple] = {}   # the layer each trump phase sets -> where the file says so
    try:
        calls = compile_calls(spec)
        for i, name in enumerate(names):
            section, path = _section(spec, name)
            if section is None:
                r.bad(("round", i), f"names '{name}', which the file does not define",
                      "define it as a top-level section or under phases:")
            kind = section.get("kind", STANDARD_KINDS.get(name))
            if kind == "deal":
                if i:
                    r.bad(("round", i), "the deal comes first in a round", "move deal to the front of round")
                deal = _deal(r, path, section, role_ids)
                phases.append(deal)
                sure = set()
                if deal.face_up and not (deal.face_up_in_nest == "keep" and deal.face_up_may_miss):
                    sure.add("face_up_holder")
                if deal.nest == 0 and deal.hand * players + deal.extra == len(rules.deck.cards) and deal.sits_out is None:
                    sure.add("holder")
                r.sure = frozenset(sure)
            elif kind == "bidding":
                bidding = _bidding(r, path, section, deal)
                phases.append(bidding)
                r.sure = r.sure | {"bidder"}
            elif kind == "transfer":
                if name != "nest" or section.get("to", "bidder") != "nobody":
                    transfer = _transfer(r, path, name, section, role_ids, bidding)
                    transfers.append(transfer)
                    phases.append(transfer)
            elif kind == "play":
                play = _play(r, path, section, role_ids, rules)
                phases.append(play)
            elif kind == "tricks":
                play = tricks.compile_tricks(r, path, section, role_ids, phases)
                phases.append(play)
            elif kind == "auction":
                from .phases.auction import compile_auction
                phases.append(compile_auction(r, path, section, role_ids))
                r.sure = r.sure | {"bidder"}
            elif kind == "partner":
                from .phases.auction import compile_partner
                phases.append(compile_partner(r, path, section, role_ids))
            elif kind == "trump":
                trump = tricks.compile_trump(r, path, section, role_ids)
                if trump.layer in trump_layers:
                    r.bad(path + ("layer",), f"is {trump.layer}, the layer {trump_layers[trump.layer][-1]} sets already",
                          "give each trump phase its own layer: 0 for the strongest, then 1, ...")
                trump_layers[trump.layer] = path
                phases.append(trump)
                if trump.role is not None:
                    r.sure = r.sure | {trump.role}
            elif kind == "calls":
                phases.append(compile_calls_phase(r, path, section, calls))
            elif kind == "bids":
                phases.append(compile_bids(r, path, section, role_ids, calls))
            elif kind == "order_up":
                from .phases.order_up import compile_order_up
                phases.append(compile_order_up(r, path, section, role_ids))
            elif kind == "contract":
                from .phases.contract import compile_contract
                phases.append(compile_contract(r, path, section, role_ids, spec))
                r.sure = r.sure | {"bidder"}
            elif kind == "solo":
                from .phases.solo import compile_solo
                phases.append(compile_solo(r, path, section, role_ids, spec))
                r.sure = r.sure | {"bidder"}
            elif kind == "score":
                continue
            else:
                r.bad(path + ("kind",), f"is '{kind}', not a kind of phase the engine knows",
                      "kinds: deal, bidding, transfer, play, score, trump, tricks, auction, partner, calls, bids, "
                      "order_up, contract, solo")
            if "must" in section and kind not in ("bids", "play", "tricks"):
                r.bad(path + ("must",), f"narrows the bids, but a phase of kind {kind} asks for none",
                      "write kind: bids, or remove must")
            if "call" in section and kind != "calls":
                r.bad(path + ("call",), f"names a call, but a phase of kind {kind} makes none",
                      "write kind: calls, or remove call")
        assert deal is not None and play is not None
        if deal.first is not None:
            _check_rest_after(r, spec, phases, deal)
        if deal.complete_after is not None:
            _check_complete(r, spec, phases, deal)
        for layer, path in trump_layers.items():
            if layer >= len(trump_layers):
                r.bad(path + ("layer",), f"is {layer}, but the round has {len(trump_layers)} trump phase(s): "
                      f"layers 0 to {len(trump_layers) - 1}", "number the layers from 0, the strongest")
        auction = any(p.kind in ("auction", "contract", "solo") for p in phases)
        if bidding is None and not auction and "bidder" in str(play.first_leader.reads):
            r.bad(path_of(spec, "play") + ("first_leader",), "names the bidder, but the round has no bidding",
                  "add a bidding phase, or name another seat")
    except VariantError as error:
        # a phase's problem: the scoring's and the end's are told with it, where they can be read
        raise VariantError(error.problems + _later_problems(rules, roles, phases, names)) from None
    trick_taking = play.kind == "tricks"
    scoring, end, problems = _scoring_and_end(
        rules, roles, bidding is not None, trick_taking, play.ends_when is not None if not trick_taking else False,
        bool(play.teams) if not trick_taking else False, [p.kind for p in phases],
        next((p for p in phases if p.kind == "solo"), None))
    if problems:
        raise VariantError(problems)
    _check_scored_roles(r, spec, phases, bidding is not None or auction or any(p.kind == "order_up" for p in phases))
    names_bidder = auction or any(p.kind == "order_up" for p in phases)    # a phase that names the bidder
    if scoring.won is not None and bidding is None and not names_bidder:
        r.bad(("scoring", "bidder_won"), "decides the bidder's contract, but no bidding or auction names a bidder",
              "remove it, or add a phase that names the bidder")
    end_spec = spec.get("end") or {}
    if not any(k in end_spec for k in ("target", "when", "rounds")):
        r.bad(("end", "target"), "is missing: the game needs a way to end",
              "write end.target: POINTS, end.rounds: N or end.when: CONDITION")
    target = int(r.get(("end", "target"), 0) or 0)
    return Round(players, direction, reverse, roles, tuple(phases), deal, bidding, tuple(transfers), play,
                 scoring, end, target, bidding.levels if bidding else (), calls)


def _scoring_and_end(rules: Rules, roles: dict, bidding: bool, trick_taking: bool, ends_when: bool, teams: bool,
                     kinds: list, solo: Any) -> tuple[Any, Any, list[Problem]]:
    """The round's scoring and end compiled, with the problems of both (all told together):
    the facts the scoring may read follow the kind of play and the kinds of phase."""
    from .phases import contract as contracts, solo as solos
    problems: list[Problem] = []
    scoring = end = None
    try:
        places: tuple[str, ...] = ("place",) if not trick_taking and ends_when else ()
        if places and (teams or "partner" in kinds):
            places += ("partner_place",)
        bid = "bids" in kinds                   # every seat's bid of tricks
        contract = "contract" in kinds          # a contract reached by an auction
        scoring = compile_scoring(rules, roles, bidding,
                                  (tricks.ROUND_FACTS + (BID_ROUND_FACTS if bid else ())
                                   + (contracts.ROUND_FACTS if contract else ())
                                   + (solos.round_facts(solo) if solo else ())) if trick_taking else (),
                                  (tricks.SEAT_FACTS + (BID_SEAT_FACTS if bid else ())
                                   + (contracts.SEAT_FACTS if contract else ())) if trick_taking else places,
                                  tricks.seat_functions(rules.deck) if trick_taking else ((), {}))
    except (ExpressionError, VariantError) as error:
        problems += error.problems
    try:
        end = compile_end(rules)
    except (ExpressionError, VariantError) as error:
        problems += error.problems
    return scoring, end, problems


def _later_problems(rules: Rules, roles: dict, phases: list, names: list) -> list[Problem]:
    """The scoring's and the end's problems in a round one of whose phases has a problem (so
    that every error is told at once), read from what the file says of its phases; none where
    that cannot be known (the play's own section unreadable, or a solo phase not compiled)."""
    spec = rules.spec
    try:
        kinds = [((_section(spec, n)[0] or {}).get("kind", STANDARD_KINDS.get(n))) for n in names]
        play_name = next((n for n, k in zip(names, kinds) if k in ("play", "tricks")), None)
        solo = next((p for p in phases if p.kind == "solo"), None)
        if play_name is None or ("solo" in kinds and solo is None):
            return []
        section = _section(spec, play_name)[0] or {}
        trick_taking = section.get("kind", STANDARD_KINDS.get(play_name)) == "tricks"
        return _scoring_and_end(rules, roles, "bidding" in kinds, trick_taking,
                                section.get("round_ends_when") is not None, bool(section.get("teams")),
                                kinds, solo)[2]
    except Exception:       # (what the file says is too broken to read further: its first problem is told)
        return []


SEEN_BEFORE = ("calls", "bidding")
"""The kinds of phase that may run before a seat sees its whole hand (deal.rest_after): those
whose decisions move no card."""


def _check_rest_after(r: _Reader, spec: dict, phases: list, deal: DealPhase) -> None:
    """``deal.rest_after`` names a phase of the round after the deal, and every phase up to it
    (itself included) moves no card: a seat never gives or plays a card it has not seen."""
    path = path_of(spec, "deal") + ("rest_after",)
    names = [p.name for p in phases]
    may = []                                # the phases the rest may be seen after
    for phase in phases[1:]:
        if phase.kind not in SEEN_BEFORE:
            break
        may.append(phase.name)
    hint = ("name one of: " + ", ".join(may)) if may else \
        "put a phase of kind " + " or ".join(SEEN_BEFORE) + " right after the deal, and name it"
    if deal.rest_after is None:
        r.bad(path_of(spec, "deal") + ("first",), "deals in two parts, but deal.rest_after does not say after which "
              "phase each seat sees its whole hand", f"e.g. rest_after: {may[0]}" if may else hint)
    if deal.rest_after not in names[1:]:
        r.bad(path, f"names '{deal.rest_after}', which is not a phase of the round after the deal", hint)
    for phase in phases[1:names.index(deal.rest_after) + 1]:
        if phase.kind not in SEEN_BEFORE:
            r.bad(path, f"names '{deal.rest_after}', but the {phase.kind} phase '{phase.name}' comes before the "
                  "rest is seen and would move cards a seat has not seen", hint)


def _check_complete(r: _Reader, spec: dict, phases: list, deal: DealPhase) -> None:
    """``deal.complete.after`` names a phase of the round between the deal and the play, and the
    stock holds the cards it must deal (the turned card counted only when a phase before then
    always puts it in a hand for good: an ``order_up`` phase that picks it up in both rounds and
    discards nothing)."""
    path = path_of(spec, "deal") + ("complete", "after")
    names = [p.name for p in phases]
    plays = [i for i, p in enumerate(phases) if p.kind in ("play", "tricks")]
    before = [p.name for p in phases[1:plays[0] if plays else len(phases)]]
    hint = ("name one of: " + ", ".join(before)) if before else "put a phase between the deal and the play"
    if deal.complete_after not in before:
        where = "is not a phase of the round" if deal.complete_after not in names else \
            "is not between the deal and the play (the play needs every hand whole)"
        r.bad(path, f"names '{deal.complete_after}', which {where}", hint)
    if not deal.turn_up:
        return
    up_to = phases[1:names.index(deal.complete_after) + 1]
    kept = any(p.kind == "order_up" and p.pick_up_second and not p.discard for p in up_to)
    size = len(r.rules.deck.cards)
    left = size - deal.nest - spec["players"] * deal.hand - 1 + (1 if kept else 0)
    need = spec["players"] * (deal.complete_hand - deal.hand)
    if need > left:
        r.bad(path_of(spec, "deal") + ("complete", "hand"), f"is {deal.complete_hand}: the stock holds {left} "
              f"cards once the turned card is out, and {need} are needed",
              "let an order_up phase before then keep the turned card (pick_up_second: true, discard: false), "
              f"or deal at most {left // spec['players'] + deal.hand}")


def _check_scored_roles(r: _Reader, spec: dict, phases: list, has_bidder: bool) -> None:
    """Refuse a term of ``scoring.points`` for a role no seat is scored as: a round scores each
    seat as ``bidder`` or ``others`` (when a bidding or an auction names a bidder), as the role a
    partner phase gives, and every seat by ``each``.  A term for any other role (a trump
    chooser's, say) would never count, so the file is refused where it says it."""
    scored = ["each"] + (["bidder", "others"] if has_bidder else [])
    scored += [p.role for p in phases if getattr(p, "kind", None) == "partner" and p.role not in scored]
    points = (spec.get("scoring") or {}).get("points") or {}
    for role in points:
        if str(role) in scored:
            continue
        why = ("no bidding or auction names a bidder in this round" if str(role) in ("bidder", "others")
               else "no seat is scored as that role")
        r.bad(("scoring", "points", role), f"scores the role '{role}', but {why}: its terms would never count",
              "terms are by " + ", ".join(scored) + " (each: every seat)")


def path_of(spec: dict, name: str) -> tuple:
    """The document path of the phase section ``name``."""
    return _section(spec, name)[1]


def _phase_names(spec: dict) -> list[str]:
    if spec.get("round"):
        return [str(n) for n in spec["round"]]
    names = ["deal"]
    if "bidding" in spec:
        names.append("bidding")
    if "nest" in spec:
        names.append("nest")
    exchange = spec.get("exchange")
    if isinstance(exchange, dict) and exchange.get("between", "others") != "nobody":
        names.append("exchange")
    names.append("play")
    return names


def phase_kinds(spec: dict) -> list[tuple[str, str | None, tuple]]:
    """The round's phases as the file names them: (name, kind, the path of its section), the
    kind None where the file defines no such phase."""
    out = []
    for name in _phase_names(spec):
        section, path = _section(spec, name)
        kind = None if not isinstance(section, dict) else section.get("kind", STANDARD_KINDS.get(name))
        out.append((name, kind if isinstance(kind, str) else None, path))
    return out


def _section(spec: dict, name: str) -> tuple[dict | None, tuple]:
    if name in STANDARD_KINDS and isinstance(spec.get(name), dict):
        return spec[name], (name,)
    if name in STANDARD_KINDS and name in ("play", "scoring", "nest") and name in spec:
        return spec.get(name) or {}, (name,)
    phases = spec.get("phases") or {}
    if isinstance(phases.get(name), dict):
        return phases[name], ("phases", name)
    return None, ()


def _deal(r: _Reader, path: tuple, deal: dict, roles: tuple) -> DealPhase:
    rules = r.rules
    deck_size = len(rules.deck.cards)
    players = rules.spec["players"]
    first = deal.get("first_dealer", "random")
    first_dealer = None if first == "random" else r.seat(path + ("first_dealer",), ())
    if "next_dealer" in deal:
        # read when the round is over: the round just played is there, and every role a phase gives
        sections = [_section(r.spec, n)[0] or {} for n in _phase_names(r.spec)]
        given = frozenset(str(section.get("role")) for section in sections)
        # a void round (all_pass.then: void) has nobody out: the seats the last round named are
        # those of an earlier round, or nobody's after a void first round
        void = any(voids_all_pass(s) for s in sections)
        void_tricks = voids_trick_round(r.spec)         # all passing in order_up or solo
        last_round = frozenset() if void or void_tricks else LAST_ROUND | {PLACE}
        next_dealer = r.seat(path + ("next_dealer",), roles, sure=given | last_round,
                             why=VOID_WHY if void else VOID_TRICKS_WHY if void_tricks else "it is not always there")
    else:
        rotate = deal.get("dealer_rotates", "clockwise")
        step = {"clockwise": 1, "counterclockwise": -1, "none": 0}[rotate]
        next_dealer = parse_seat({"left_of": "dealer"} if step == 1 else
                                 {"right_of": "dealer"} if step == -1 else "dealer", players)
    sits_out = None
    if "sits_out" in deal:
        sits_out = r.seat(path + ("sits_out",), (), sure=frozenset({"dealer"}))
        players -= 1                   # the seats dealt to
    nest = int(deal.get("nest", 0))
    hand = int(deal.get("hand") or (deck_size - nest) // players)
    extra = 0
    if deal.get("rest", "undealt") == "dealt":
        extra = deck_size - nest - players * hand
        if extra >= players:
            r.bad(path + ("hand",), f"is {hand}: with rest: dealt, the {extra} cards left over would give every seat "
                  "more than one more card", f"deal {(deck_size - nest) // players} cards to each")
    cut = deal.get("cut")
    cut_range = (1, deck_size - 1) if not cut else (int(cut["from"]), int(cut["to"]))
    face_up = bool(deal.get("face_up", False))
    dealt = nest + players * hand
    places = [deck_size - c - 1 for c in range(cut_range[0], cut_range[1] + 1)]
    may_miss = face_up and any(not nest <= p < dealt for p in places)
    dealt = nest + players * hand + extra
    may_miss = face_up and any(not nest <= p < dealt for p in places)
    first = None
    if "first" in deal:
        first = int(deal["first"])
        if first >= hand:
            r.bad(path + ("first",), f"is {first}: a deal in two parts shows each seat fewer cards first than "
                  f"its hand of {hand}", f"e.g. first: {max(1, hand // 2)}")
        if extra:
            r.bad(path + ("first",), "deals in two parts, but rest: dealt gives some seats one more card",
                  "deal every seat the same hand (rest: undealt)")
    elif "rest_after" in deal:
        r.bad(path + ("rest_after",), "says when the rest of a deal in two parts is seen, but deal.first is not given",
              "write first: N, the cards each seat sees first")
    by_round = tuple(int(h) for h in deal.get("hand_by_round") or ())
    for k, size in enumerate(by_round):
        if not 1 <= size <= hand:
            r.bad(path + ("hand_by_round", k), f"is {size}: a round's hand is 1 to deal.hand ({hand}), the most "
                  "cards a seat is dealt", f"write a number from 1 to {hand}, or raise deal.hand")
    if by_round and (extra or first is not None):
        r.bad(path + ("hand_by_round",), "changes the hand by round, which rest: dealt and a deal in two parts "
              "do not", "remove rest: dealt or first")
    turn_up = bool(deal.get("turn_up", False))
    if turn_up:
        if face_up:
            r.bad(path + ("turn_up",), "turns the stock's first card face up, and face_up turns another: one card "
                  "is turned", "remove face_up or turn_up")
        # a round whose hand deals every card turns none (hand_by_round: Oh Hell's hands of 13
        # at a table of four, played without trump); every round doing so leaves nothing to turn
        smallest = min(by_round) if by_round else hand
        if extra or deck_size - nest - players * smallest < 1:
            r.bad(path + ("turn_up",), f"turns the first card of the stock, but deal.hand {smallest} to {players} seats "
                  f"leaves no card of the {deck_size} undealt", f"deal at most {(deck_size - nest - 1) // players}")
        elif deck_size - nest - players * max(by_round or (hand,)) < 1:
            for name in _phase_names(r.spec):
                if (_section(r.spec, name)[0] or {}).get("kind") == "order_up":
                    r.bad(path + ("hand_by_round",), f"deals every card in a round of {max(by_round)} cards a seat, "
                          f"which turns no card up, and the phase '{name}' (kind: order_up) makes trump from it",
                          f"deal at most {(deck_size - nest - 1) // players} cards a seat in every round")
    complete_after, complete_hand = None, 0
    if "complete" in deal:
        where = path + ("complete",)
        complete = deal["complete"]
        if not isinstance(complete, dict) or "after" not in complete or "hand" not in complete:
            r.bad(where, "deals the stock on after a phase: it needs the phase and the hand it completes",
                  "e.g. complete: {after: making, hand: 8}")
        complete_after, complete_hand = str(complete["after"]), int(complete["hand"])
        if complete_hand <= hand:
            r.bad(where + ("hand",), f"is {complete_hand}: the hand the stock completes holds more than the "
                  f"{hand} cards dealt first", f"e.g. hand: {hand + 1}")
        for key, why in (("first", "a deal in two parts"), ("hand_by_round", "a hand by round"),
                         ("sits_out", "a seat sitting out")):
            if key in deal:
                r.bad(where, f"completes the deal after a phase, which {why} (deal.{key}) does not",
                      f"remove {key} or complete")
        if extra:
            r.bad(where, "completes the deal after a phase, but rest: dealt deals every card at once",
                  "remove rest: dealt")
        left = deck_size - nest - players * hand - (1 if turn_up else 0)
        if players * (complete_hand - hand) > left + (1 if turn_up else 0):
            r.bad(where + ("hand",), f"is {complete_hand}: {players} seats holding {complete_hand} cards need "
                  f"{players * (complete_hand - hand)} more, and the stock holds {left}"
                  + (" (and the turned card)" if turn_up else ""),
                  f"deal at most {(left + (1 if turn_up else 0)) // players + hand}")
    draw, drawn = _draw(r, deal, deck_size, nest, players, hand, turn_up)
    return DealPhase(path[-1], first_dealer, next_dealer, cut_range, face_up,
                     deal.get("face_up_in_nest", "recut"), nest, hand, may_miss, extra, sits_out,
                     first=first, rest_after=None if first is None else str(deal.get("rest_after", "")) or None,
                     by_round=by_round, turn_up=turn_up, complete_after=complete_after,
                     complete_hand=complete_hand, draw=draw, drawn=drawn)


def _draw(r: _Reader, deal: dict, deck_size: int, nest: int, players: int, hand: int,
          turn_up: bool) -> tuple[int, int]:
    """``play.draw`` of a trick-taking play: the cards each seat draws from the stock after each
    trick, and all it draws in a round.  The stock must share out evenly (the turned card, under
    it, drawn last), and the deal must leave it whole: refused at ``play.draw`` otherwise."""
    play = r.spec.get("play") or {}
    if play.get("kind") != "tricks" or not play.get("draw"):
        return 0, 0
    where = ("play", "draw")
    count = int(play["draw"])
    for key, why in (("hand_by_round", "a hand by round"), ("first", "a deal in two parts"),
                     ("sits_out", "a seat sitting out"), ("complete", "a deal completed after a phase"),
                     ("face_up", "a card dealt face up to a seat")):
        if deal.get(key) not in (None, False, []):
            r.bad(where, f"draws from the stock after each trick, which {why} (deal.{key}) does not",
                  f"remove deal.{key} or play.draw")
    if deal.get("rest", "undealt") == "dealt":
        r.bad(where, "draws from the stock after each trick, but rest: dealt deals every card at once",
              "remove rest: dealt")
    for name in _phase_names(r.spec):            # the turned card belongs to the stock drawn from
        section = _section(r.spec, name)[0] or {}
        if section.get("kind") == "order_up":
            r.bad(where, f"draws from the stock after each trick, and the phase '{name}' (kind: order_up) has the "
                  "turned card picked up, which lies on the stock to be drawn", f"remove play.draw or the phase '{name}'")
    stock = deck_size - nest - players * hand
    if stock <= 0:
        r.bad(where, f"draws from the stock after each trick, but deal.hand {hand} to {players} seats leaves no "
              f"stock of the {deck_size} cards", f"deal fewer cards, e.g. hand: {max(1, (deck_size - nest) // players // 2)}")
    if stock % (players * count):
        r.bad(where, f"is {count}: after each trick {players} seats draw {players * count} cards, and the stock of "
              f"{stock} cards" + (" (the turned card last)" if turn_up else "") + " does not share out evenly",
              "deal a hand that leaves a stock of a multiple of "
              f"{players * count} cards (hand: {next((h for h in range(hand, 0, -1) if (deck_size - nest - players * h) % (players * count) == 0), hand)})"
              " or draw another number of cards")
    return count, stock // players


def _bidding(r: _Reader, path: tuple, bidding: dict, deal: DealPhase | None) -> BiddingPhase:
    players = r.spec["players"]
    levels = tuple(sorted(set(bidding["levels"])))
    opener = r.seat(path + ("opener",), (), default="face_up_holder")
    all_pass = bidding.get("all_pass") or {}
    void = voids_all_pass(bidding)                              # nobody is forced: the forced keys are not read
    forced_bidder = opener if void else r.seat(path + ("all_pass", "forced_bidder"), (), default="face_up_holder",
                                               sure=frozenset({"first_passer"}))
    checked = [(opener, path + ("opener",))]
    if not void:
        checked.append((forced_bidder, path + ("all_pass", "forced_bidder")))
    for seat, where in checked:
        if "face_up_holder" in seat.reads and deal is not None:
            if not deal.face_up:
                r.bad(where, "face_up_holder needs deal.face_up: true")
            if deal.face_up_in_nest == "keep" and deal.face_up_may_miss:
                r.bad(where, "face_up_holder: with face_up_in_nest: keep and this cut, the face-up card may "
                      "stay in the nest, where nobody holds it (recut, or name another seat)")
    return BiddingPhase(path[-1], opener, levels, bool(bidding.get("top_bid_closes", False)),
                        int(bidding.get("passes_to_close", players - 1)),
                        bool(bidding.get("reenter_after_pass", True)),
                        int(all_pass.get("redeals_before_forced", 0)),
                        int(all_pass.get("forced_bid", levels[0])), forced_bidder,
                        bool(all_pass.get("forced_bid_closes", False)), void)


def voids_all_pass(bidding: dict) -> bool:
    """Does this bidding section end a round nobody bids in void (``all_pass.then: void``)?"""
    all_pass = bidding.get("all_pass")
    return isinstance(all_pass, dict) and all_pass.get("then") == "void"


def voids_trick_round(spec: dict) -> bool:
    """May a trick-taking round of ``spec`` be void, nobody out, when every seat passes: an
    ``order_up`` phase without ``stick``, or a ``solo`` phase?"""
    for name in _phase_names(spec):
        section = _section(spec, name)[0] or {}
        kind = section.get("kind", STANDARD_KINDS.get(name))
        if kind == "solo" or (kind == "order_up" and not section.get("stick", False)):
            return True
    return False


def _transfer(r: _Reader, path: tuple, name: str, section: dict, roles: tuple,
              bidding: BiddingPhase | None) -> TransferPhase:
    tricks.refuse_foreign_keys(path, section, "transfer")
    if name == "nest" and "from" not in section:         # the nest section: the nest to a seat
        to: SeatExpr | str = r.seat(path + ("to",), roles, default="bidder")
        return TransferPhase(name, "nest", None, to, None, {}, "player", bool(section.get("shown", False)),
                             False)
    when = condition(r, path + ("when",), section.get("when"))
    # a phase that runs only once a round has been played out may name that round's seats bare
    # (not after a void round, nobody out: one every seat passes in, in order_up or solo)
    later = played_before(when, r.spec["players"], bidding)
    void_tricks = later and voids_trick_round(r.spec)
    after = LAST_ROUND | {PLACE} if later and not void_tricks else frozenset()
    why = VOID_TRICKS_WHY if void_tricks else "it is not always there"
    givers_spec = section.get("from", section.get("between", "others"))
    givers: SeatExpr | str
    if givers_spec == "others" and "others" in roles:
        # every seat but the bidder: a phase before this one must name the bidder, else none gives
        if "bidder" not in r.sure:
            where = path + (("from",) if "from" in section else ("between",))
            r.bad(where, "names the others, the seats besides the bidder, but no phase before it names a bidder "
                  "(a bidding or an auction): no seat would give a card",
                  "put the transfer after the bidding, or name the seat that gives, e.g. from: dealer")
        givers = "others"
    elif givers_spec == "each":                          # every seat in the round
        givers = "each"
    else:
        givers = r.seat(path + ("from",), roles, sure=frozenset() if isinstance(givers_spec, list) else after,
                        words=("each",), why=why)
    to_spec = section.get("to", "next")
    # (a list keeps its fallbacks, which files written before this rule give)
    receivers: Any
    if to_spec in PASS_DIRECTIONS or (isinstance(to_spec, dict) and "by_round" in to_spec):
        receivers = _pass_direction(r, path + ("to",), to_spec, givers)
    else:
        receivers = to_spec if to_spec in ("next", "each_other") else r.seat(
            path + ("to",), roles, sure=frozenset() if isinstance(to_spec, list) else after,
            words=("next", "each_other") + PASS_DIRECTIONS, why=why)
    count = section.get("count")
    by_bid = {int(k): int(v) for k, v in (section.get("count_by_bid") or {}).items()}
    if count is None and not by_bid:
        r.bad(path, "says neither count nor count_by_bid", "e.g. count: 1")
    if count is not None and "count_by_bid" in section:      # one would silently override the other
        r.bad(path + ("count_by_bid",), "is given with count: a transfer counts its cards one way",
              "keep count (the same for every bid) or count_by_bid (a count for each bid), not both; "
              "over a file that has count_by_bid, write count_by_bid: null")
    if count is None and bidding is None:
        r.bad(path + ("count_by_bid",), "counts cards by bid, but the round has no bidding",
              "write count: N")
    return TransferPhase(name, "seats", givers, receivers, None if count is None else int(count), by_bid,
                         str(section.get("choose", "player")), bool(section.get("shown", False)),
                         bool(section.get("simultaneous", True)), when)


LAST_ROUND = frozenset({"previous_round.first_out", "previous_round.most_cards_left"})
VOID_WHY = "a round nobody bids in is void, nobody out: all_pass.then: void"
VOID_TRICKS_WHY = "a round every seat passes in is void, nobody out: an order_up phase without stick, or a solo phase"
PASS_DIRECTIONS = ("left", "right", "across")


def _pass_direction(r: _Reader, path: tuple, spec, givers) -> tuple:
    """``to: left | right | across`` or ``to: {by_round: [left, right, across, none]}``: each
    giver hands its cards to the seat on its left, on its right or across the table, perhaps
    by the round's number (``none``: nobody hands anything that round).  Read as a tuple of the
    directions by round (``("left",)`` for one direction)."""
    if givers != "each":
        r.bad(path, "hands each giver's cards to a seat beside it, which needs every seat to give and to receive",
              "write from: each")
    cycle = [spec] if isinstance(spec, str) else spec.get("by_round")
    if not isinstance(cycle, list) or not cycle:
        r.bad(path + ("by_round",), "needs a list of directions, one per round, e.g. [left, right, across, none]")
    players = r.spec["players"] - (1 if (r.spec.get("deal") or {}).get("sits_out") is not None else 0)
    for i, entry in enumerate(cycle):
        where = path + (("by_round", i) if isinstance(spec, dict) else ())
        if entry not in PASS_DIRECTIONS + ("none",) or (entry == "none" and isinstance(spec, str)):
            r.bad(where, f"is '{entry}', not a direction", "left, right, across" +
                  (" or none" if isinstance(spec, dict) else ""))
        if entry == "across" and players % 2:
            r.bad(where, f"passes across the table, but the round has {players} seats: no seat sits across",
                  "pass left or right")
    return tuple(cycle)


def places_of(spec: dict) -> int:
    """How many places a round gives: one per seat, less the seat sitting each round out
    (``deal.sits_out``), which finishes in none."""
    deal = spec.get("deal")
    return spec["players"] - (1 if isinstance(deal, dict) and deal.get("sits_out") is not None else 0)


def keeps_places(spec: dict) -> bool:
    """Does the round go on after the first seat is out (``play.round_ends_when``), so that it
    ends with every seat's finishing place?"""
    play = spec.get("play")
    return isinstance(play, dict) and play.get("kind", "play") == "play" and "round_ends_when" in play


def played_before(when, players: int, bidding: "BiddingPhase | None") -> bool:
    """Does a phase with the condition ``when`` run only once a round has been played out, so
    that the seats the previous round names (:data:`LAST_ROUND`) are always there?  Yes when
    ``when`` is false in the first round, unless a round may be void (nobody out)."""
    if when is None or (bidding is not None and bidding.void_when_all_pass):
        return False
    return not when.evaluate({"round": 1, "players": players})


def condition(r: "_Reader", path: tuple, text) -> Any:
    """A phase's condition (``when``), compiled; None when not written.  Its errors are located at ``path``."""
    from .scoring import compile_condition
    from ..language.bounds import INF, Interval, Ranges, analyse, exact
    if text is None:
        return None
    try:
        compiled = compile_condition(r.rules, str(text))
    except ExpressionError as error:
        raise VariantError([Problem(p.message, path, p.offset, p.hint) for p in error.problems]) from None
    # read with the range of its names (the round from 1, the players as the file has them), as
    # the scoring is: a division that can be by zero is refused here, before the loader reads
    # the condition for the first round and a game for each later one
    players = r.spec.get("players")
    ranges = Ranges(numbers={"round": Interval(1, INF),
                             **({"players": exact(players)} if isinstance(players, int) else {})})
    _, found = analyse(compiled.text, ranges)
    if found:
        raise VariantError([Problem(p.message, path, p.offset, p.hint) for p in found])
    return compiled


def _play(r: _Reader, path: tuple, play: dict, roles: tuple, rules: Rules) -> PlayPhase:
    tricks.refuse_foreign_keys(path, play, "play")
    players = r.spec["players"]
    # the round plays in sides: the file's teams, or those a partner phase forms each round
    sided = bool(play.get("teams")) or any(kind == "partner" for _, kind, _ in phase_kinds(r.spec))
    out_of_turn = frozenset(rules.combination[c].index for c in (play.get("out_of_turn") or []))
    first_lead = None
    spec = play.get("first_lead")
    if isinstance(spec, dict):
        card = str(spec.get("contains", ""))
        try:
            mask = rules.deck.cards_mask(card)
        except CardError as error:
            r.bad(path + ("first_lead", "contains"), f"is not a card of the deck: {error}",
                  "name one card, e.g. 1/multi")
        if bin(mask).count("1") != 1:
            r.bad(path + ("first_lead", "contains"), f"names {bin(mask).count('1')} cards, not one")
        when = condition(r, path + ("first_lead", "when"), spec.get("when"))
        first_lead = FirstLead(rules.deck.card_names[mask.bit_length() - 1], mask, when)
    last_card = None
    spec = play.get("last_card")
    if isinstance(spec, dict):
        last_card = LastCard(int(spec.get("holds", 1)), bool(spec.get("must_play", True)))
    ends_when = None
    if "round_ends_when" in play:
        ends_when = _expression(r, path + ("round_ends_when",), play["round_ends_when"], ROUND_END_SCOPE)
    effects: list[Effect] = []
    if play.get("effects"):
        refuse_shadowed_values(rules, effect_scope(rules, values=False))
    for i, entry in enumerate(play.get("effects") or []):
        where = path + ("effects", i)
        do = entry.get("do")
        if isinstance(do, dict) and "move" in do:          # cards moved between piles as the round ends
            effects.append(_move_effect(r, where, entry, do, play))
            continue
        if is_value_effect(do):                            # a value changed
            effects.append(compile_value_effect(where, entry, rules, effect_scope(rules, values=False)))
            continue
        name, arg = (next(iter(do.items())) if isinstance(do, dict) and len(do) == 1 else (do, None))
        name = str(name)
        if name not in EFFECTS:
            r.bad(where + ("do",), f"is '{do}', not an effect the engine knows",
                  "effects: " + ", ".join(f"{e}: {v}" if v else e for e, v in EFFECTS.items()))
        wanted = EFFECTS[name]
        if name == "wish":                    # the ranks a seat may wish for
            if not isinstance(arg, list) or not arg:
                r.bad(where + ("do", name), "lists the ranks a player may wish for", "e.g. {wish: [2, 3, 4]}")
            ranks = []
            for k, rank in enumerate(arg):
                index = rules.deck.index.get(str(rank).upper())
                if index is None:
                    r.bad(where + ("do", name, k), f"names the unknown rank '{rank}'", "ranks: " + ", ".join(rules.deck.ranks))
                ranks.append(index)
            if "wish" in [e.name for e in effects]:
                r.bad(where + ("do",), "is a second wish: one wish stands at a time", "keep one wish effect")
            when = _expression(r, where + ("when",), entry.get("when", "true"), effect_scope(rules))
            effects.append(Effect("play", when, name, tuple(ranks)))
            if "at" in entry and entry["at"] != "play":
                r.bad(where + ("at",), "'wish' acts on the play just made: it needs at: play", "remove at")
            continue
        if (arg is None) != (wanted is None) or (wanted is not None and str(arg) not in wanted):
            r.bad(where + ("do",) + ((name,) if isinstance(do, dict) else ()),
                  f"'{name}' takes {'no value' if wanted is None else 'one of: ' + ', '.join(wanted)}",
                  f"write do: {name}" if wanted is None else f"write do: {{{name}: {wanted[0]}}}")
        at = str(entry.get("at", "play"))
        if at not in EFFECT_TIMES:
            r.bad(where + ("at",), f"is '{at}', not a moment of the play", "at: " + " or ".join(EFFECT_TIMES))
        if name in TRICK_END_EFFECTS and at != "trick_end":
            r.bad(where + ("at",) if "at" in entry else where, f"'{name}' acts on a trick taken: it needs at: trick_end",
                  "write at: trick_end")
        if at == "round_end":
            r.bad(where + ("at",), f"'{name}' acts during the play: only move acts at round_end", "remove at")
        if name in PLAY_EFFECTS and at != "play":
            r.bad(where + ("at",), f"'{name}' acts on the play just made: it needs at: play", "remove at")
        if name in TEAM_EFFECTS and not sided:
            r.bad(where + ("do",), f"'{name}: {arg}' reads the teams, but play.teams forms no teams",
                  "give play.teams, e.g. [[0, 2], [1, 3]], or put a partner phase in round")
        when = _expression(r, where + ("when",), entry.get("when", "true"), effect_scope(rules))
        effects.append(Effect(at, when, name, None if arg is None else str(arg)))
    try:
        teams = parse_teams(play.get("teams") or [], players)
    except SeatError as error:
        r.bad(path + ("teams",) + error.path, error.message, error.hint)
    floating: frozenset[int] = frozenset()
    floating_led = 0
    spec = play.get("floating")
    if isinstance(spec, dict):
        ranks = []
        for k, rank in enumerate(spec.get("ranks") or []):
            index = rules.deck.index.get(str(rank).upper())
            if index is None:
                r.bad(path + ("floating", "ranks", k), f"names the unknown rank '{rank}'",
                      "ranks: " + ", ".join(rules.deck.ranks))
            ranks.append(index)
        led = rules.deck.index.get(str(spec.get("led", rules.deck.ranks[0])).upper())
        if led is None:
            r.bad(path + ("floating", "led"), f"names the unknown rank '{spec.get('led')}'",
                  "ranks: " + ", ".join(rules.deck.ranks))
        if not all(any(p.size == 1 for p in rules.readings(rules.deck.bit(i))) for i in ranks):
            r.bad(path + ("floating", "ranks"), "names ranks no combination plays as a single",
                  "list the ranks of wild singles, e.g. [P]")
        floating, floating_led = frozenset(ranks), led
    if ends_when is not None and "team_out" in ends_when.names and not sided:
        r.bad(path + ("round_ends_when",), "reads team_out, but play.teams forms no teams",
              "give play.teams, e.g. [[0, 2], [1, 3]], or put a partner phase in round")
    return PlayPhase(path[-1], r.seat(path + ("first_leader",), roles, default="bidder"),
                     bool(play.get("leader_may_pass", False)),
                     int(play.get("passes_to_close_trick", players - 1)), out_of_turn,
                     play.get("last_trick_to", "player_out") == "player_out", first_lead, last_card,
                     ends_when, bool(play.get("pass_final", False)), tuple(effects),
                     goes_on=ends_when is not None or bool(play.get("pass_final", False)), teams=teams,
                     floating=floating, floating_led=floating_led, must=_climbing_must(r, path, play, rules),
                     changes_at_trick_end=any(e.at == "trick_end" and e.name in VALUE_EFFECTS for e in effects))


def must_scopes(rules: Rules) -> tuple[dict, dict]:
    """What a climbing ``play.must`` rule reads: its ``when`` the table (``leading``: no play
    to beat, ``held``: the seat's cards, ``out_count``, ``players``, ``round``, ``reversed``),
    its ``play`` that and the play (as an effect's condition reads it: ``play_size``,
    ``play_rank``, ``play_tier``, ``play_is(C)``, ``play_has(RANK)``)."""
    play = effect_scope(rules, values=False)
    table = {"numbers": ("held", "out_count", "players", "round"), "bools": ("leading", "reversed")}
    return table, {**play, "numbers": tuple(play["numbers"]) + ("held",), "bools": ("leading", "reversed")}


def _climbing_must(r: _Reader, path: tuple, play: dict, rules: Rules) -> tuple:
    """``play.must`` of a climbing play: ``(when or None, play)`` per rule, compiled at their places."""
    table, with_play = must_scopes(rules)
    of_play = set(with_play["numbers"]) - set(table["numbers"]) | {f.name for f in with_play["functions"]}
    out = []
    for i, entry in enumerate(play.get("must") or []):
        where = path + ("must", i)
        when = None
        if entry.get("when") is not None:
            try:
                when = _expression(r, where + ("when",), entry["when"], table)
            except VariantError as error:
                raise VariantError([_reads_the_play(p, of_play) for p in error.problems]) from None
        out.append((when, _expression(r, where + ("play",), entry.get("play"), with_play)))
    return tuple(out)


def _reads_the_play(problem: Problem, of_play: set) -> Problem:
    """An unknown name in a ``must`` rule's ``when`` that its ``play`` may read, said so."""
    name = problem.message.split("'")[1] if problem.message.startswith(("unknown name '", "unknown function '")) \
        else None
    if name not in of_play:
        return problem
    return Problem(f"'{name}' reads the play, but when is read once per decision, before any play is chosen",
                   problem.path, problem.offset, "read it in play:, the condition each play must meet")


ROUND_END_SCOPE = {"numbers": ("out_count", "players", "round"), "bools": ("team_out",)}
"""What ``play.round_ends_when`` reads: the seats out so far, the seats, the round's number,
whether every seat of a team (``play.teams``) is out."""

EFFECTS: dict[str, tuple[str, ...] | None] = {"reverse_order": None, "end_trick": None, "lead_to": ("partner",),
                                              "trick_to": ("opponent",), "wish": ("[RANK, ...]",)}
"""The effects a play may have (``play.effects``), each with the values it takes (None: none)."""
EFFECT_TIMES = ("play", "trick_end", "round_end")
"""When an effect's condition is read: after a play, or as a trick ends (over its last play)."""
TRICK_END_EFFECTS = frozenset({"trick_to"})
PLAY_EFFECTS = frozenset({"lead_to", "end_trick"})
TEAM_EFFECTS = frozenset({"lead_to"})


MOVE_SEATS = re.compile(r"place\((\d+|last)\)")


def _move_effect(r: _Reader, where: tuple, entry: dict, do: dict, play: dict) -> "Effect":
    """``{move: taken|hand, from: SEAT, to: SEAT}`` at ``round_end``: a seat's pile of cards taken,
    or the cards left in its hand, counted for another seat as the round ends (``from``:
    ``place(K)``, ``place(last)`` or ``each``; ``to``: ``place(K)``, ``place(last)``,
    ``opponent``, the first seat of another side after it, or ``nobody``)."""
    if str(entry.get("at", "play")) != "round_end":
        r.bad(where + (("at",) if "at" in entry else ()), "'move' acts as the round ends: it needs at: round_end",
              "write at: round_end")
    what = str(do.get("move"))
    if what not in ("taken", "hand"):
        r.bad(where + ("do", "move"), f"is '{what}': the cards moved are taken (a seat's tricks) or hand",
              "move: taken")
    for key in do:
        if key not in ("move", "from", "to"):
            r.bad(where + ("do", key), f"is not a key of move", "keys: move, from, to")
    source, target = str(do.get("from", "")), str(do.get("to", ""))
    if not (MOVE_SEATS.fullmatch(source) or source == "each"):
        r.bad(where + ("do", "from"), f"is '{source}', not a seat of the round's end",
              "place(1), place(last) or each")
    if not (MOVE_SEATS.fullmatch(target) or target in ("opponent", "nobody")):
        r.bad(where + ("do", "to"), f"is '{target}', not a seat of the round's end",
              "place(1), place(last), opponent or nobody")
    places = places_of(r.spec)
    for key, word in (("from", source), ("to", target)):
        number = MOVE_SEATS.fullmatch(word)
        if number is not None and number.group(1) != "last" and not 1 <= int(number.group(1)[:6]) <= places:
            r.bad(where + ("do", key), f"is '{word}': the round's places are 1 to {places}",
                  "a seat sits each round out (deal.sits_out): it finishes in no place" if places < r.spec["players"]
                  else "place(1), place(last)")
    if "round_ends_when" not in play and ("place" in source or "place" in target):
        r.bad(where + ("do",), "names a place, but the round ends when the first seat is out, so it has no places",
              "write play.round_ends_when, e.g. out_count >= players - 1")
    if source == "each" and target == "opponent":
        r.bad(where + ("do", "to"), "is opponent: every seat's cards would cross over", "name a place, or nobody")
    when = _expression(r, where + ("when",), entry.get("when", "true"), ROUND_END_SCOPE)
    return Effect("round_end", when, "move", (what, source, target))


def effect_scope(rules: Rules, values: bool = True) -> dict:
    """What an effect's condition reads: the play just made (``play_size`` cards, ``play_rank``,
    ``play_tier``, ``play_is(C)``, ``play_has(RANK)``), ``reversed`` (the rank order is reversed now), the seats out,
    the seats, the round's number."""
    from ..language.expressions import Function

    deck = rules.deck

    def play_is(env, combination: str) -> bool:
        return env["_combination"] == combination

    def play_has(env, rank: str) -> bool:
        return deck.count_of(env["_key"], deck.index[rank.upper()]) > 0

    def rank_place(env, rank: str) -> int:       # rank(8): the 8's place in deck.ranks, as play_rank counts
        return deck.index[rank.upper()] + 1
    scope = {"numbers": ("play_size", "play_rank", "play_tier", "out_count", "players", "round"),
             "bools": ("reversed",), "functions": (Function("play_is", ("combination",), play_is, "bool"),
                                                   Function("play_has", ("rank",), play_has, "bool"),
                                                   Function("rank", ("rank",), rank_place)),
             "identifiers": {"combination": {c.id for c in rules.combinations},
                             "rank": set(deck.ranks) | {r.lower() for r in deck.ranks}}}
    # the file's values (a seat's: the player's; at trick_end, the winner's)
    return with_values(rules, scope) if values else scope


def _expression(r: _Reader, path: tuple, text, scope: dict, expect: str = "bool") -> Any:
    """A condition of the play (``expect``: ``number`` for a number), compiled against ``scope``;
    its errors are located at ``path``."""
    return expression(path, text, scope, expect)
