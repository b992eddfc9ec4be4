"""Scoring and the end of the game, as expressions of the variant file.

A round's points are *terms*: each seat scores the sum of the terms of its role (``bidder``,
``others``, or ``each`` seat), each term an expression of the round's facts (see
docs/variant-format.md, "scoring").  Two ways to write them compile to the same terms:

* ``points``: terms by role, each an expression (``"if won then 2 * stake else -2 * stake"``);
* the two outcomes ``bidder_out_first`` / ``other_out_first``: what the bidder and the others
  score when the bidder's side goes out first or not, with named bonuses counted by a
  combination or an expression.

Named ``facts`` and ``bonuses`` are expressions computed once per round (the bonuses are
written in the game record whoever wins); ``treasures`` give points for cards taken.

The facts every expression may read:

====================  =========================================================================
``bid``               the final bid (0 without bidding)
``round``             the round's number, from 1
``players``           the number of seats
``bidder_won``        the bidder's side went out first (false without bidding)
``won``               (a seat's term) this seat's side went out first: the bidder alone, the
                      others together, or, without bidding, the seat's team (``play.teams``)
                      or the seat alone
``out_first``         (a seat's term) this seat went out first
``is_dealer``         (a seat's term) this seat dealt the round
``cards_left``        (a seat's term) the cards it still holds
``plays``             (a seat's term) how many plays it made this round
``card_points``       (a seat's term) the treasures in the cards it took
``place``             (a seat's term, where play goes on: ``play.round_ends_when``) its
                      finishing place, 1 the first out
``partner_place``     (a seat's term, with ``place`` and ``play.teams``) its partner's place
``count(C)``          how many plays of combination C were made this round, by anyone
``plays_by(R)``       how many plays the seats of role R made
``idle(R)``           how many seats of role R made no play this round
``sum_others(T)``     (a term of ``points``) the sum, over every other seat, of the term labelled
                      T written before it: what the others paid, which the winner collects
``sum_side(T)``       (a term of ``points``) the sum, over the seat's side (itself included), of
                      the term labelled T written before it: a partner's nil
``called(NAME)``      (a seat's term, where the file has ``calls``) 1 if this seat made the
                      call NAME this round, else 0
====================  =========================================================================
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Sequence

from ..errors import ExpressionError, Problem, VariantError
from ..language.expressions import EvaluationFault, Expression, Function, Scope, _known, compile_expression
from ..rules import Rules

ROUND_NUMBERS = ("bid", "round", "players")
SEAT_NUMBERS = ("cards_left", "plays", "card_points")
SEAT_BOOLS = ("won", "out_first", "is_dealer")


def _reads(*keys: str) -> Callable:
    """Mark a function of expressions with the keys of the environment it reads (``reads``):
    the scoring then gives a seat's terms only the names they read (see :meth:`Scoring.read_names`)."""
    def mark(function: Callable) -> Callable:
        setattr(function, "reads", keys)
        return function
    return mark


@_reads("_counts")
def _count(env, combination: str) -> int:
    return env["_counts"].get(combination, 0)


@_reads("_plays", "_roles")
def _plays_by(env, role: str) -> int:
    plays = env["_plays"]
    return sum(plays[s] for s in env["_roles"].get(role, ()))


@_reads("_plays", "_roles")
def _idle(env, role: str) -> int:
    plays = env["_plays"]
    return sum(1 for s in env["_roles"].get(role, ()) if plays[s] == 0)


@_reads("_calls", "_seat")
def _called(env, call: str) -> int:
    """1 if the seat scored made the call ``call`` this round, else 0 (``called(NAME)``)."""
    made = env.get("_calls")
    seat = env.get("_seat")
    return int(made is not None and seat is not None and call in made[seat])


@_reads("_terms", "_seat")
def _sum_others(env, term: str):
    """The term ``term`` summed over every seat but the one scored (``sum_others(T)``)."""
    values, seat = env["_terms"][term], env["_seat"]
    return sum(v for s, v in enumerate(values) if s != seat)


@_reads("_terms", "_seat", "_side")
def _sum_side(env, term: str):
    """The term ``term`` summed over the seat's side, the seat included (``sum_side(T)``): a seat
    alone where the round has no sides."""
    values, seat = env["_terms"][term], env["_seat"]
    return sum(values[s] for s in env.get("_side") or (seat,))


def _scope(rules: Rules, roles: Sequence[str], extra_numbers=(), seat: bool = True, lists=(),
           terms: Sequence[str] | None = None, seat_functions: tuple = ((), {})) -> Scope:
    """The names a scoring expression may read; ``terms``: in a seat's term of ``points``, the
    labels of the terms written before it, which ``sum_others()`` reads."""
    combos = {c.id for c in rules.combinations}
    functions = [Function("count", ("combination",), _count),
                 Function("plays_by", ("role",), _plays_by),
                 Function("idle", ("role",), _idle)]
    identifiers = {"combination": combos, "role": set(roles) | {"each"}}
    calls = rules.spec.get("calls")
    if seat and isinstance(calls, dict) and calls:        # a seat's own: did it make the call this round?
        functions.append(Function("called", ("call",), _called))
        identifiers["call"] = {str(name) for name in calls}
    if terms is not None:
        functions.append(Function("sum_others", ("term",), _sum_others))
        functions.append(Function("sum_side", ("term",), _sum_side))
        identifiers["term"] = set(terms)
    if seat:                            # a kind of play's own functions of a seat (taken_colour(C)...)
        functions += list(seat_functions[0])
        for kind, names in seat_functions[1].items():
            identifiers.setdefault(kind, set()).update(names)
    numbers = set(ROUND_NUMBERS) | set(extra_numbers) | (set(SEAT_NUMBERS) if seat else set())
    bools = {"bidder_won"} | (set(SEAT_BOOLS) if seat else set())
    return Scope(numbers=numbers, bools=bools, lists=set(lists), functions=functions, identifiers=identifiers)


@dataclass(frozen=True)
class Term:
    """One part of a seat's points: who scores it, when, its value, and how it is labelled."""

    role: str                         # bidder | others | each
    value: Expression
    label: Callable[[dict, Any], str]
    when: bool | None = None          # True: only if the bidder's side won; False: only if it lost
    skip_zero: bool = True
    times: Expression | None = None   # a bonus: its count (value = count x points)
    points: Any = None
    name: str | None = None           # a labelled term of ``points``: what sum_others() reads it as
    path: tuple = ()                  # where the file writes it


@dataclass(frozen=True)
class Value:
    """A named value the game keeps from round to round (``values``): one for the table, or
    one per seat (``each: seat``) or per team (``each: team``: kept per seat, the same for the
    seats of a team), starting at ``start``, kept within ``low``..``high``."""

    name: str
    each: str | None
    start: int
    low: int
    high: int
    per: str = "game"                 # ``game``: kept from round to round; ``round``: back to start each round

    def fresh(self, n: int) -> Any:
        """The value as a game starts: a number, or one per seat."""
        return self.start if self.each is None else [self.start] * n


def start_values(values: Sequence[Value], n: int) -> dict:
    """Every value as a game starts (what :attr:`State.values` holds first)."""
    return {v.name: v.fresh(n) for v in values}


def new_round_values(values: Sequence[Value], kept: dict, n: int) -> None:
    """Set the values kept per round (``per: round``) back to their start, as a round starts."""
    for value in values:
        if value.per == "round":
            kept[value.name] = value.fresh(n)


def kept_value(value: Value, number) -> int:
    """``number`` as ``value`` keeps it: a whole number (rounded down), within its range."""
    return _kept(value, number)


def _names_read(expressions, names: set[str]) -> set[str] | None:
    """``names`` with every name the expressions read and the keys their functions read (each
    function marked with ``reads``); None when a function does not say what it reads.  An item
    that is no expression (none, or a fact written as a table of numbers) reads nothing."""
    names = set(names)
    for expr in expressions:
        if not isinstance(expr, Expression):
            continue
        names |= set(expr.names)
        functions = {f.name: f for f in expr.scope.functions}
        for name, *_ in expr.functions_used:
            keys = getattr(functions[name].call, "reads", None)
            if keys is None:
                return None
            names |= set(keys)
    return names


@dataclass(frozen=True)
class Scoring:
    """The compiled scoring of a variant."""

    facts: tuple[tuple[str, Expression], ...]
    bonuses: tuple[tuple[str, Expression], ...]      # recorded in round_end.bonuses
    terms: tuple[Term, ...]
    treasures: tuple[tuple[int, int], ...]           # (rank index, points)
    counts: tuple[int, int]                          # the deck's count fields: (bits, mask of one)
    won: Expression | None = None                    # ``scoring.bidder_won``: the contract (trick-taking)
    values: tuple[Value, ...] = ()                   # ``values``: kept from round to round
    sets: tuple[tuple[Value, Expression], ...] = ()  # ``scoring.set``: each value's new value after a round
    team_of: tuple[int, ...] = ()                    # per seat, its team's first seat (``each: team``)

    def score(self, env: dict, seats: Sequence[dict], role_of: Callable[[int], str | None],
              facts: dict | None = None, teams: Sequence[Sequence[int]] = (),
              kept: dict | None = None, read_only: bool = False) -> tuple[dict, list[list], list[int]]:
        """(bonus counts, labelled parts per seat, treasures per seat) of a round.

        ``env`` holds the round's facts (see the module's table) and ``_counts`` (plays per
        combination id), ``_plays`` (plays per seat), ``_roles`` (seats per role); ``seats[s]``
        each seat's own facts.  ``facts``, when given, receives the round's facts as the terms
        read them (the file's facts and bonuses, and ``bidder_won`` where the file decides it).
        ``teams`` (a climbing play's ``play.teams``): each seat of a team adds its partners'
        points as one more part (``partner``, or ``team`` for a team of three or more).
        ``kept`` (the state's named values, :func:`start_values` when None): read by the
        expressions, then set anew in place by ``scoring.set``.  ``read_only``: each seat's
        dictionary holds only names the scoring may read, of the round or of a seat (the memo
        then keys a seat by what it holds, not by every name the scoring may read, and a
        seat's environment takes the dictionary whole).
        """
        role_at = [role_of(seat) for seat in range(len(seats))]
        memo = self.__dict__.get("_memo", False)
        if memo is False:
            memo = self._memo_plan()
        key = None
        if memo is not None:                      # a round like one scored before scores alike
            key = memo.key(env, seats, role_at, teams, read_only)
            if key is not None:
                found = memo.get(key)
                if found is not None:
                    kept_bonuses, kept_parts, kept_treasures, made = found
                    if facts is not None:
                        facts.update(env)
                        facts.update(made)
                    return dict(kept_bonuses), [[list(part) for part in seat] for seat in kept_parts], \
                        list(kept_treasures)
        env = dict(env)
        if self.values:
            if kept is None:
                kept = start_values(self.values, len(seats))
            for held in self.values:                # the table's values: read like the round's facts
                if held.each is None:
                    env[held.name] = kept[held.name]
        # a fact or a bonus written as a condition counts once (1) or not at all (0): the
        # expressions after it read it as the number it is declared as
        for name, expr in self.facts:
            value = expr.evaluate(env)
            env[name] = int(value) if isinstance(value, bool) else value
        bonuses = {}
        for name, expr in self.bonuses:
            value = bonuses[name] = expr.evaluate(env)
            env[name] = int(value) if isinstance(value, bool) else value
        if self.won is not None:
            env["bidder_won"] = bool(self.won.evaluate(env))
        if facts is not None:
            facts.update(env)
        # term by term, each over every seat: a term may read an earlier one's values at the
        # other seats (sum_others), each seat's labelled values kept in ``values``
        values: dict[str, list] = {}
        seat_envs = []
        read = self.read_names()
        if read is None:
            for seat, own in enumerate(seats):
                seat_env = dict(env)
                seat_env.update(own)
                seat_envs.append(seat_env)
        else:                   # each seat's environment holds only what its expressions read
            shared = {name: env[name] for name in read if name in env}
            for seat, own in enumerate(seats):
                seat_env = shared.copy()
                if read_only:                   # (a seat's dictionary holds only names read)
                    seat_env.update(own)
                else:
                    for name in read:
                        if name in own:
                            seat_env[name] = own[name]
                seat_envs.append(seat_env)
        for held in self.values:                    # a seat's (its team's) own values
            if held.each is not None:
                assert kept is not None
                for seat, seat_env in enumerate(seat_envs):
                    seat_env[held.name] = kept[held.name][seat]
        # a seat whose environment and role are those of an earlier seat scores what that seat
        # scores (partners, in a game of sides): its terms are read once, for the earlier seat,
        # unless they read which seat is scored (sum_others(), called()...)
        twin: list = [None] * len(seats)
        if read is not None and "_seat" not in read and "_terms" not in read:
            # (the roles told apart only where a term is scored by role, not by each seat)
            twin = _twins(seat_envs, role_at if self._by_role() else [None] * len(seats))
        for seat, seat_env in enumerate(seat_envs):
            seat_env["_seat"] = seat
            seat_env["_terms"] = values
        parts: list[list] = [[] for _ in seats]
        # the seats each role scores (a seat sitting the round out scores no term)
        scored = {"each": [(seat, seat_env, parts[seat]) for seat, seat_env in enumerate(seat_envs)
                           if "sits_out" not in seat_env and twin[seat] is None]}
        # each labelled term's values, kept where a term reads them (sum_others(), sum_side())
        keep = read is None or "_terms" in read
        for term, role, when, name, run, fixed, skip_zero in self._term_plan():
            at = scored.get(role)
            if at is None:
                at = scored[role] = [one for one in scored["each"] if role_at[one[0]] == role]
            if not keep:
                name = None
            elif name is not None:
                values.setdefault(name, [0] * len(seats))
            if run is None:                        # a bonus: its count times its points
                for seat, seat_env, out in at:
                    if when is not None and bool(env["bidder_won"]) != when:
                        continue
                    times = _number(term.times.evaluate(seat_env))
                    if not times:
                        continue
                    out.append([term.label(seat_env, times), _number(times * term.points)])
                continue
            expression = term.value
            label = term.label
            named = values[name] if name is not None else None
            try:                                   # Expression.evaluate, without its call per seat
                if when is None and named is None and fixed is not None and skip_zero:
                    for seat, seat_env, out in at:         # the usual term, its values read by no other
                        exact = run(seat_env)
                        if type(exact) is int:
                            if exact:
                                out.append([fixed, exact])
                            continue
                        value = _number(exact)
                        if value:
                            out.append([fixed, value])
                    continue
                if when is None and named is not None and fixed is not None and skip_zero:
                    for seat, seat_env, out in at:         # the usual term: each seat's, labelled
                        exact = run(seat_env)
                        if type(exact) is int:
                            named[seat] += exact
                            if exact:
                                out.append([fixed, exact])
                            continue
                        named[seat] += int(exact) if isinstance(exact, bool) else exact
                        value = _number(exact)
                        if value:
                            out.append([fixed, value])
                    continue
                for seat, seat_env, out in at:
                    if when is not None and bool(env["bidder_won"]) != when:
                        continue
                    exact = run(seat_env)
                    if named is not None:
                        named[seat] += int(exact) if isinstance(exact, bool) else exact
                    value = exact if type(exact) is int else _number(exact)
                    if value or not skip_zero:
                        out.append([fixed if fixed is not None else label(seat_env, value), value])
            except EvaluationFault as fault:
                raise expression.failed(fault) from None
        for seat, first in enumerate(twin):
            if first is not None:
                parts[seat] = [list(part) for part in parts[first]]
                for named in values.values():
                    named[seat] = named[first]
        treasures = []
        for seat, own in enumerate(seats):
            treasure = own.get("card_points", 0)
            treasures.append(treasure)
            if treasure:
                parts[seat].append(["treasures", treasure])
        if teams:                       # a side's points are pooled: each seat adds its partners'
            earned = [sum(p for _, p in seat_parts) for seat_parts in parts]
            for team in teams:
                for seat in team:
                    pooled = sum(earned[other] for other in team if other != seat)
                    if len(team) > 1 and pooled:
                        parts[seat].append(["partner" if len(team) == 2 else "team", _number(pooled)])
        if self.sets:
            assert kept is not None
            self._set_values(kept, env, seat_envs)
        if key is not None:
            made = {name: env[name] for name in memo.made}
            memo.keep(key, (dict(bonuses), [[list(part) for part in seat] for seat in parts], list(treasures), made))
        return bonuses, parts, treasures

    def _memo_plan(self) -> "_Memo | None":
        """What :meth:`score` keeps of the rounds it scored, or None where a round's score may
        depend on more than the names the scoring reads (a value kept from round to round, a
        function that does not say what it reads).  Made once."""
        rounds, seats = self.round_names(), self.read_names()
        memo = None
        # (a collection read, the plays per combination, the cards taken, the seats per role,
        # makes a key that costs much and seldom repeats: _seat and _terms are score's own)
        collections = {name for name in set(rounds or ()) | set(seats or ()) if name.startswith("_")} - \
            {"_seat", "_terms"}
        if not self.values and rounds is not None and seats is not None and not collections:
            made = tuple(name for name, _ in self.facts) + tuple(name for name, _ in self.bonuses) + \
                (("bidder_won",) if self.won is not None else ())
            memo = _Memo(tuple(sorted(rounds)), tuple(sorted(set(seats) | {"card_points", "sits_out"})), made)
        self.__dict__["_memo"] = memo             # (a frozen dataclass: set past its __setattr__)
        return memo

    def _term_plan(self) -> tuple:
        """Per term, what :meth:`score` reads of it: the term, its role, when, name, compiled
        expression (None for a bonus counted ``times``), fixed label (or None) and skip_zero.
        Made once."""
        plan = self.__dict__.get("_terms_plan")
        if plan is None:
            plan = self.__dict__["_terms_plan"] = tuple(
                (term, term.role, term.when, term.name, term.value.run if term.times is None else None,
                 getattr(term.label, "text", None), term.skip_zero) for term in self.terms)
        return plan

    def _by_role(self) -> bool:
        """Does a term score the seats of one role (not ``each``)?  Found once."""
        found = self.__dict__.get("_role_terms")
        if found is None:
            found = self.__dict__["_role_terms"] = any(term.role != "each" for term in self.terms)
        return found

    def round_names(self) -> frozenset[str] | None:
        """Every name of the round's environment or of a seat's that the scoring may read: the
        names its expressions read (facts, bonuses, ``bidder_won``, terms, values set) and the
        keys their functions read, with what :meth:`score` reads itself; None when a function
        does not say what it reads.  A kind of play need not compute a fact outside it.
        Computed once."""
        found = self.__dict__.get("_round_names", False)
        if found is not False:
            return found
        expressions = [expr for _, expr in self.facts] + [expr for _, expr in self.bonuses] + [self.won] + \
            [term.value for term in self.terms] + [term.times for term in self.terms] + [expr for _, expr in self.sets]
        names = _names_read(expressions, {"bid", "sits_out", "bidder_won", "card_points"})
        found = frozenset(names) if names is not None else None
        self.__dict__["_round_names"] = found          # (a frozen dataclass: set past its __setattr__)
        return found

    def read_names(self) -> tuple[str, ...] | None:
        """The names of the environment that the seats' terms (and the values set per seat)
        may read: the names their expressions read, the keys their functions read (each
        function marked with ``reads``), and what :meth:`score` reads itself; None when a
        function does not say what it reads (every seat's environment then holds everything).
        Computed once."""
        found = self.__dict__.get("_read_names", False)
        if found is not False:
            return found
        expressions = [term.value for term in self.terms] + [term.times for term in self.terms] + \
            [expr for _, expr in self.sets]
        # a bid term's label reads bid; a seat sitting out scores nothing
        names = _names_read(expressions, {"bid", "sits_out"})
        found = tuple(sorted(names)) if names is not None else None
        self.__dict__["_read_names"] = found          # (a frozen dataclass: set past its __setattr__)
        return found

    def _set_values(self, kept: dict, env: dict, seat_envs: list[dict]) -> None:
        """``scoring.set``: each value's new value, every one read over the values before the
        round (then all set together), a whole number kept within its range; a team's from its
        first seat's view, for every seat of the team."""
        new: dict[str, Any] = {}
        for value, expr in self.sets:
            if value.each is None:
                new[value.name] = _kept(value, expr.evaluate(env))
                continue
            if value.each != "team":
                new[value.name] = [_kept(value, expr.evaluate(seat_env)) for seat_env in seat_envs]
                continue
            of_team: dict[int, int] = {}            # (read once per team, at its first seat)
            for first in self.team_of:
                if first not in of_team:
                    of_team[first] = _kept(value, expr.evaluate(seat_envs[first]))
            new[value.name] = [of_team[first] for first in self.team_of]
        kept.update(new)

    def outlook(self, bid: int, players: int, counts: dict | None = None) -> dict:
        """What a bid is worth, for players that judge bids: the bidder's and each other's points
        when the bidder's side wins and when it loses (no bonus, no treasure; with ``counts``,
        plays per combination id, as if those were played), and the bonus points the bidder
        scores per play of each combination when it wins."""
        out: dict = {"bonus": {}}
        for won in (True, False):
            env = {"bid": bid, "round": 1, "players": players, "bidder_won": won, "_counts": dict(counts or {}),
                   "_plays": [1] * players,
                   "_roles": {"bidder": (0,), "others": tuple(range(1, players)), "each": tuple(range(players))}}
            seats = [{"won": won if s == 0 else not won, "out_first": False, "is_dealer": False, "cards_left": 0, "plays": 1,
                      "card_points": 0} for s in range(players)]
            _, parts, _ = self.score(env, seats, lambda s: "bidder" if s == 0 else "others")
            out["win" if won else "lose"] = sum(p for _, p in parts[0])
            out["win_others" if won else "lose_others"] = sum(p for _, p in parts[1]) if players > 1 else 0
        for term in self.terms:
            if term.times is not None and term.role == "bidder" and term.when is not False:
                used = term.times.functions_used
                if len(used) == 1:
                    (function, *args), = used
                    if function == "count":
                        out["bonus"][args[0]] = out["bonus"].get(args[0], 0) + term.points
        return out

    def card_points(self, taken: int) -> int:
        """The treasures in the packed cards ``taken``."""
        shift, field_mask = self.counts
        return sum(((taken >> (shift * index)) & field_mask) * points for index, points in self.treasures)


class _Unkeyed(Exception):
    """A value :func:`_frozen` cannot make a key of."""


_MISSING = object()


def _frozen(value) -> Any:
    """``value`` as part of a key: hashable, and equal only to a value of the same type
    (``True`` is not ``1`` here: a term may tell them apart)."""
    kind = type(value)
    if kind is int or kind is str or value is None or value is _MISSING:
        return value
    if kind is list or kind is tuple:
        return kind, tuple(map(_frozen, value))
    if kind is bool or kind is Fraction or kind is float:
        return kind, value
    raise _Unkeyed


# the types of values a key holds as they are, beside their types: hashable, and equal only to
# an equal value of the same type there (``object``: the mark of a name not given)
_PLAIN = frozenset({int, bool, str, float, Fraction, type(None), object})


class _Memo:
    """The scores of the rounds a scoring met, per what it reads of them: the round's names
    (``rounds``), each seat's (``seats``), the seats' roles and the teams.  ``made``: the names
    the scoring adds to the round's facts.  It gives up (reads no more) when few rounds repeat,
    as where a term reads the very cards taken, or where scoring anew costs about what
    the key does."""

    __slots__ = ("rounds", "seats", "made", "found", "asked", "hits", "missing")
    LIMIT = 4096                                  # rounds kept, at most
    TRIAL = 256                                   # rounds asked before judging whether it pays: it
                                                  # does where three in four of the last half of
                                                  # them repeat one seen

    def __init__(self, rounds: tuple, seats: tuple, made: tuple):
        self.rounds, self.seats, self.made = rounds, seats, made
        self.missing = ((_MISSING,) * len(rounds), (_MISSING,) * len(seats))   # what a name not given reads as
        self.found: dict = {}
        self.asked = self.hits = 0

    def key(self, env: dict, seats: Sequence[dict], roles: list, teams, read_only: bool = False) -> tuple | None:
        """The round's key: the values of the names read, per seat too (``read_only``: the
        names a seat's dictionary holds, and their values), the roles and the teams; None
        where a value cannot be keyed, or the memo was judged not worth it."""
        if self.asked < 0:                        # judged not worth it
            return None
        self.asked += 1
        if self.asked == self.TRIAL // 2:
            self.hits = 0
        elif self.asked == self.TRIAL:
            if self.hits * 8 < self.TRIAL * 3:
                self.asked = -1
                self.found.clear()
                return None
        values = list(map(env.get, self.rounds, self.missing[0]))
        names = None
        if read_only:
            names = tuple(map(tuple, seats))
            for own in seats:
                values += own.values()
        else:
            for own in seats:
                values += map(own.get, self.seats, self.missing[1])
        values += roles
        grouped = tuple(map(tuple, teams)) if teams else ()
        # the values and their types (True is not 1 here: a term may tell them apart) where
        # each is a plain number, a text or None; else each value frozen with its type
        kinds = tuple(map(type, values))
        if _PLAIN.issuperset(kinds):
            return tuple(values), kinds, names, grouped
        try:
            return tuple([_frozen(v) for v in values]), None, names, grouped
        except _Unkeyed:
            return None

    def get(self, key: tuple):
        found = self.found.get(key)
        if found is not None:
            self.hits += 1
        return found

    def keep(self, key: tuple, scored: tuple) -> None:
        if len(self.found) >= self.LIMIT:
            self.found.clear()
        self.found[key] = scored


def _kept(value: Value, number) -> int:
    """``number`` as ``value`` keeps it: a whole number (rounded down), within its range."""
    whole = math.floor(number)
    return min(max(whole, value.low), value.high)


def _twins(envs: list[dict], roles: list) -> list:
    """Per seat, the first earlier seat with the same role and an equal environment (every
    name of the same type and value), or None."""
    twin: list = [None] * len(envs)
    for seat in range(1, len(envs)):
        env, role = envs[seat], roles[seat]
        for first in range(seat):
            if twin[first] is None and roles[first] == role and envs[first] == env \
                    and list(map(type, envs[first].values())) == list(map(type, env.values())):
                twin[seat] = first
                break
    return twin


def _number(value) -> Any:
    if type(value) is int:            # the usual case, before the costlier checks
        return value
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value


def _written(value: Any) -> str:
    """An expression as the file wrote it: a YAML boolean is the literal ``true`` / ``false``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _compile(text: str, scope: Scope, path: tuple, expect: str = "number", seat_only: Sequence[str] = ()) -> Expression:
    try:
        return compile_expression(_written(text), scope, expect=expect)
    except ExpressionError as error:
        raise VariantError([_per_round(p, path, seat_only) for p in error.problems]) from None


def _per_round(problem: Problem, path: tuple, seat_only: Sequence[str], offset: bool = True) -> Problem:
    """``problem`` at ``path``; an unknown name that is a seat's own value (``seat_only``) is said
    to be one, since the expression at ``path`` is read once per round."""
    for name in seat_only:
        if problem.message == f"unknown name '{name}'":
            return Problem(f"'{name}' is each seat's own, but {'.'.join(map(str, path))} is read once per round",
                           path, problem.offset if offset else None,
                           "read it in scoring.points (each seat's terms), or use a round's fact")
    return Problem(problem.message, path, problem.offset if offset else None, problem.hint)


def _count_expression(text, scope: Scope, path: tuple, written: bool = True,
                      seat_only: Sequence[str] = ()) -> Expression:
    """A count: a number, or a condition counted as 1 or 0.  ``written``: ``text`` is the value
    at ``path`` as the file gives it, so a problem's character offset points into it."""
    try:
        return compile_expression(_written(text), scope, expect="number")
    except ExpressionError as number_error:
        try:
            return compile_expression(_written(text), scope, expect="bool")
        except ExpressionError:
            raise VariantError([_per_round(p, path, seat_only, written) for p in number_error.problems]) from None


def compile_scoring(rules: Rules, roles: dict, has_bidding: bool, extra: tuple = (),
                    seat_extra: tuple = (), seat_functions: tuple = ((), {})) -> Scoring:
    """Compile ``scoring`` (raises :class:`VariantError` naming the path).

    ``extra`` names the numbers a kind of play adds to the round's facts, ``seat_extra`` those
    it adds to each seat's (trick-taking: ``bidder_side_points``; ``tricks_taken``...: see
    :mod:`chimera_dsl.engine.phases.tricks`), ``seat_functions`` the functions of a seat it adds
    (``(functions, identifier sets)``: trick-taking's ``taken_colour(C)``, ``taken_card(R, C)``).
    Facts, bonuses and ``bidder_won`` are read once per round: only the seats' terms read a
    seat's own values."""
    spec = rules.spec.get("scoring") or {}
    deck = rules.deck
    role_ids = list(roles) or ["bidder", "others"]
    treasures = tuple((deck.index[str(rank).upper()], int(points))
                      for rank, points in (spec.get("treasures") or {}).items() if points is not None)
    problems = _Problems()
    compiled = problems.kept
    kept, team_of = _values(rules, problems, set(extra) | set(seat_extra))
    seat_extra = tuple(seat_extra) + tuple(v.name for v in kept if v.each is not None)
    seat_only = tuple(SEAT_NUMBERS) + tuple(SEAT_BOOLS) + tuple(seat_extra)
    fact_names: list[str] = list(extra) + [v.name for v in kept if v.each is None]
    table_names: list[str] = []
    facts: list = []
    engine_names = ENGINE_NAMES | set(extra) | set(seat_extra) | {"totals"}
    for part in ("facts", "bonuses"):
        for name in (spec.get(part) or {}):
            if str(name) in engine_names:       # the expressions would read the engine's value
                thing = "fact" if part == "facts" else "bonus"
                problems.append(Problem(f"scoring.{part}.{name}: '{name}' is already a name the scoring reads: "
                                        f"the expressions would read the engine's, never this {thing}",
                                        ("scoring", part, str(name)), hint=f"give the {thing} another name"))
    for name, text in (spec.get("facts") or {}).items():
        if isinstance(text, list):
            facts.append((str(name), _table(text)))
            table_names.append(str(name))
            continue
        scope = _scope(rules, role_ids, fact_names, seat=False, lists=table_names)
        facts.append((str(name), compiled(lambda: _count_expression(text, scope, ("scoring", "facts", name),
                                                                    seat_only=seat_only))))
        fact_names.append(str(name))       # known to what follows, even when it has a problem
    bonuses: list = []
    terms: list[Term] = []
    known_bonus: dict[str, str] = {}
    for name, text in (spec.get("bonuses") or {}).items():
        scope = _scope(rules, role_ids, fact_names + [b for b, _ in bonuses], seat=False, lists=table_names)
        bonuses.append((str(name), compiled(lambda: _count_expression(text, scope, ("scoring", "bonuses", name),
                                                                      seat_only=seat_only))))
    for outcome, won in (("bidder_out_first", True), ("other_out_first", False)):
        if outcome not in spec:
            continue
        if not has_bidding:
            problems.append(Problem(f"scoring.{outcome} scores the bidder, but the round has no bidding",
                                    ("scoring", outcome), hint="write scoring.points with 'each' instead"))
            continue
        _outcome_terms(rules, spec[outcome], outcome, won, role_ids, fact_names + list(seat_extra), bonuses,
                       known_bonus, terms, problems)
    contract: Expression | None = None
    if "bidder_won" in spec:
        contract = compiled(lambda: _contract(rules, spec, role_ids, fact_names + [b for b, _ in bonuses],
                                              table_names, facts, bonuses, not extra, seat_only))
    written: list[str] = []               # the labels of the terms so far, which sum_others() reads
    every = [str(label) for value in (spec.get("points") or {}).values() if isinstance(value, dict)
             for label in value]
    for role, value in (spec.get("points") or {}).items():
        items = value.items() if isinstance(value, dict) else [("points", value)]
        for label, text in items:
            scope = _scope(rules, role_ids, fact_names + list(seat_extra) + [b for b, _ in bonuses],
                           lists=table_names, terms=list(written), seat_functions=seat_functions)
            where = ("scoring", "points", role) + ((label,) if isinstance(value, dict) else ())
            expr = compiled(lambda: _later_terms(lambda: _compile(text, scope, where), every, written))
            named = str(label) if isinstance(value, dict) else None
            terms.append(Term(str(role), expr, _fixed(str(label)), name=named, path=where))
            if named is not None and named not in written:
                written.append(named)
    sets: list = []
    by_name = {v.name: v for v in kept}
    for name, text in (spec.get("set") or {}).items():
        value = by_name.get(str(name))
        where = ("scoring", "set", name)
        if value is None:
            problems.append(Problem(f"scoring.set.{name} sets '{name}', which values: does not declare", where,
                                    hint=_known(str(name), list(by_name), "declared values") if by_name else
                                    f"declare it, e.g. values: {{{name}: {{start: 0, range: [0, 100]}}}}"))
            continue
        if value.per == "round":
            problems.append(Problem(f"scoring.set.{name} sets '{name}', which is kept per round: it starts again "
                                    f"at {value.start} as each round starts, so a value set after the round is lost",
                                    where, hint=f"keep it from round to round (remove values.{name}.per), "
                                                "or change it during the play (play.effects: {add: ...})"))
            continue
        per_seat = value.each is not None
        # a value kept per seat or team reads what a seat's terms read, every term's label too
        # (sum_side(T), sum_others(T): the terms are scored before the values are set)
        scope = _scope(rules, role_ids, fact_names + [b for b, _ in bonuses] + (list(seat_extra) if per_seat else []),
                       seat=per_seat, lists=table_names, terms=list(written) if per_seat else None,
                       seat_functions=seat_functions if per_seat else ((), {}))
        expr = compiled(lambda: _later_terms(lambda: _count_expression(text, scope, where, seat_only=() if per_seat
                                                                       else seat_only), every if per_seat else [], written))
        if expr is not None:
            sets.append((value, expr))
    if problems:
        raise VariantError([_about_called(p, bool(rules.spec.get("calls"))) for p in problems])
    return Scoring(tuple(facts), tuple(bonuses), tuple(terms), treasures, (deck.shift, deck.field_mask), contract,
                   tuple(kept), tuple(sets), team_of)


ENGINE_NAMES = frozenset(ROUND_NUMBERS) | frozenset(SEAT_NUMBERS) | frozenset(SEAT_BOOLS) | {"bidder_won", "place",
                                                                                           "partner_place", "target"}


def _values(rules: Rules, problems: list, taken: set) -> tuple[list[Value], tuple[int, ...]]:
    """The file's ``values``, checked (each problem kept, at its place), and per seat its team's
    first seat (for values kept per team)."""
    spec = rules.spec.get("values") or {}
    players = rules.spec["players"]
    teams = (rules.spec.get("play") or {}).get("teams") or []
    team_of = list(range(players))
    for team in teams:
        if isinstance(team, list) and team and all(isinstance(s, int) and 0 <= s < players for s in team):
            for seat in team:
                team_of[seat] = min(team)
    facts = set(map(str, (rules.spec.get("scoring") or {}).get("facts") or {}))
    bonuses = set(map(str, (rules.spec.get("scoring") or {}).get("bonuses") or {}))
    out = []
    for name, entry in spec.items():
        name = str(name)
        where = ("values", name)
        if name in ENGINE_NAMES or name in taken or name in facts or name in bonuses or name == "totals":
            problems.append(Problem(f"values.{name}: '{name}' is already a name the scoring reads", where,
                                    hint="give the value another name"))
            continue
        low, high = (int(x) for x in entry["range"])
        start = int(entry.get("start", 0))
        if low > high:
            problems.append(Problem(f"values.{name}.range goes down, from {low} to {high}", where + ("range",),
                                    hint=f"write range: [{high}, {low}]"))
            continue
        if not low <= start <= high:
            problems.append(Problem(f"values.{name}.start is {start}, outside its range {low}..{high}",
                                    where + ("start",), hint=f"start within the range, e.g. start: {low}"))
            continue
        each = entry.get("each")
        if each == "team" and not teams:
            problems.append(Problem(f"values.{name} is kept per team, but play.teams forms no teams",
                                    where + ("each",), hint="give play.teams, e.g. [[0, 2], [1, 3]], or write each: seat"))
            continue
        out.append(Value(name, each, start, low, high, str(entry.get("per", "game"))))
    return out, tuple(team_of)


def _about_called(problem: Problem, has_calls: bool) -> Problem:
    """``called(NAME)`` where it cannot be read, said so: a file without ``calls``, or an
    expression read once per round (a fact, a bonus), where no seat is scored."""
    if problem.message != "unknown function 'called'":
        return problem
    where = ".".join(map(str, problem.path))
    if not has_calls:
        return Problem(f"{where} reads called(), but the file defines no calls", problem.path, problem.offset,
                       "define them, e.g. calls: {grand: {}}")
    return Problem(f"'called' is each seat's own, but {where} is read once per round", problem.path, problem.offset,
                   "read it in scoring.points (each seat's terms)")


def _contract(rules: Rules, spec: dict, role_ids: list, names: list, table_names: list, facts: list,
              bonuses: list, climbing: bool, seat_only: Sequence[str] = ()) -> Expression:
    """``scoring.bidder_won``: the condition under which the bidder's side wins a trick-taking
    round (makes its contract), read after the facts and bonuses; the terms read it as
    ``bidder_won`` and the game record writes it in ``round_end``."""
    path = ("scoring", "bidder_won")
    if climbing:
        raise VariantError([Problem("scoring.bidder_won is for trick-taking rounds: in a climbing round the "
                                    "bidder's side wins by going out first", path,
                                    hint="remove it; the terms read bidder_won as the play decides it")])
    for name, expr in facts + bonuses:
        if "bidder_won" in getattr(expr, "names", ()):
            where = ("scoring", "facts" if (name, expr) in facts else "bonuses", name)
            raise VariantError([Problem(f"{'.'.join(where)} reads bidder_won, which scoring.bidder_won decides "
                                        "after the facts and bonuses", where,
                                        hint="read the facts it is made of instead")])
    scope = _scope(rules, role_ids, names, seat=False, lists=table_names)
    contract = _compile(spec["bidder_won"], scope, path, expect="bool", seat_only=seat_only)
    if "bidder_won" in getattr(contract, "names", ()):
        raise VariantError([Problem("scoring.bidder_won reads itself: while it is decided, bidder_won is false",
                                    path, hint="write it with the facts alone, e.g. bidder_won: made == 1")])
    return contract


def _later_terms(make: Callable[[], Any], every: list[str], written: list[str]) -> Any:
    """``make()``, its problems told as :func:`_later_term` tells them."""
    try:
        return make()
    except VariantError as error:
        raise VariantError([_later_term(p, every, written) for p in error.problems]) from None


def _later_term(problem: Problem, every: list[str], written: list[str]) -> Problem:
    """``sum_others(T)`` of a term T of the file written at or after this one: said so; a term's
    label read as a name (``nil`` for ``sum_side(nil)``): said how a term is read."""
    for label in every:
        if problem.message == f"unknown name '{label}'":
            if label not in written:
                before = ", ".join(written) or "none"
                return Problem(f"'{label}' is a term of scoring.points written after this one, and an expression "
                               f"reads a term written before it through sum_side({label}) or sum_others({label}), "
                               "not by its label alone", problem.path, problem.offset,
                               f"write '{label}' before this term, or read one written before it: {before}")
            return Problem(f"'{label}' is a term of scoring.points, which an expression reads through "
                           f"sum_side({label}) or sum_others({label}), not by its label alone",
                           problem.path, problem.offset,
                           f"sum_side({label}) is the term over the seat's side, the seat included (the seat "
                           f"alone where it has no partner); sum_others({label}) over every other seat")
        if problem.message == f"'{label}' is not a term" and label not in written:
            before = ", ".join(written) or "none"
            return Problem(f"sum_others() reads a term written before this one, and '{label}' is not",
                           problem.path, problem.offset,
                           f"write '{label}' before this term, or read one written before it: {before}")
    return problem


class _Table:
    """A fact written as a list of numbers (a table read with at() and count_at_most())."""

    def __init__(self, values: tuple):
        self.values = values
        self.text = ", ".join(str(v) for v in values)

    def evaluate(self, env: dict) -> tuple:
        return self.values


def _table(values: list) -> _Table:
    """A list fact (the schema has checked it holds 1 to 200 numbers), decimals made exact."""
    out = []
    for value in values:
        number = Fraction(str(value)) if isinstance(value, float) else value
        out.append(int(number) if number == int(number) else number)
    return _Table(tuple(out))


class _Fixed:
    """A term's label that is always its ``text`` (the term's name in the file)."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __call__(self, env, value) -> str:
        return self.text

    def __reduce__(self) -> tuple:
        return _Fixed, (self.text,)


def _fixed(label: str) -> Callable[[dict, Any], str]:
    return _Fixed(label)


def _outcome_terms(rules: Rules, outcome_spec: dict, outcome: str, won: bool, role_ids: list,
                   fact_names: list, bonuses: list, known_bonus: dict, terms: list, problems: "_Problems") -> None:
    """The terms of ``outcome`` (``bidder_out_first`` or ``other_out_first``) added to ``terms``;
    the problems of each expression go to ``problems``, and the next is checked."""
    compiled = problems.kept
    base = ("scoring", outcome)
    scope = _scope(rules, role_ids, fact_names + [b for b, _ in bonuses])
    bidder = outcome_spec.get("bidder", 0)
    if isinstance(bidder, dict):                       # {times_bid: N}
        times = bidder.get("times_bid", 0)
        expr = compiled(lambda: _compile(f"{times} * bid", scope, base + ("bidder", "times_bid")))
        shown = times

        def bid_label(env, value, shown=shown) -> str:
            return f"bid {env['bid']} x {shown}"
        terms.append(Term("bidder", expr, bid_label, won, skip_zero=False, path=base + ("bidder", "times_bid")))
    else:
        expr = compiled(lambda: _compile(bidder, scope, base + ("bidder",)))
        terms.append(Term("bidder", expr, _fixed("outcome"), won, skip_zero=False, path=base + ("bidder",)))
    others = outcome_spec.get("others", 0)
    terms.append(Term("others", compiled(lambda: _compile(others, scope, base + ("others",))), _fixed("outcome"), won,
                      path=base + ("others",)))
    for name, bonus in (outcome_spec.get("bonuses") or {}).items():
        here = base + ("bonuses", name)
        if "combination" in bonus:
            counted = f"count({bonus['combination']})"
        elif "count" in bonus:
            counted = str(bonus["count"])
        else:
            problems.append(Problem(f"the bonus '{name}' counts nothing", here,
                                    hint="add 'combination: <id>' or 'count: <expression>'"))
            continue
        if known_bonus.setdefault(str(name), counted) != counted:
            problems.append(Problem("the same bonus name counts different things in the two outcomes", here))
            continue
        where = here + ("count" if "count" in bonus else "combination",)
        times = compiled(lambda: _count_expression(counted, scope, where, written="count" in bonus))
        if str(name) not in [b for b, _ in bonuses]:
            bonuses.append((str(name), times))
        points = int(bonus["points"])

        def bonus_label(env, times, name=str(name), points=points) -> str:
            return f"{name} {times} x {points}" if times > 1 else name
        terms.append(Term(str(bonus.get("to", "bidder")), times, bonus_label, won, times=times, points=points,
                          path=where))


class _Problems(list):
    """The problems of the scoring's expressions, kept so that every expression is checked: a
    wrong fact does not hide the problems of the terms and the end that follow it."""

    def kept(self, make: Callable[[], Any]) -> Any:
        """``make()``, or None with its problems kept."""
        try:
            return make()
        except VariantError as error:
            self.extend(error.problems)
            return None


@dataclass(frozen=True)
class End:
    """When the game ends and who wins."""

    when: Expression
    winner: str                 # highest | lowest
    ties: str                   # play_on | shared | one_more_round
    values: tuple = ()          # the file's values (``values``), which ``when`` may read

    def over(self, totals: Sequence[int], round_number: int, target: int, kept: dict | None = None) -> bool:
        """Does the end condition hold after this round?  ``kept``: the game's values now (the
        state's ``values``; their start when None)."""
        # a total with a fraction of a point (a half-point score) is a float in records: read it exactly
        exact = [Fraction(t) if isinstance(t, float) else t for t in totals]
        env = {"totals": exact, "round": round_number, "target": target, "players": len(totals)}
        if self.values:
            if kept is None:
                kept = start_values(self.values, len(totals))
            for value in self.values:        # one for the table: a number; per seat or team: a list
                held = kept[value.name]
                env[value.name] = list(held) if isinstance(held, list) else held
        return bool(self.when.evaluate(env))

    def leaders(self, totals: Sequence[int]) -> list[int]:
        """The seats with the best total."""
        best = (max if self.winner == "highest" else min)(totals)
        return [seat for seat, total in enumerate(totals) if total == best]


def compile_end(rules: Rules) -> End:
    """Compile ``end`` (raises :class:`VariantError` naming the path)."""
    spec = rules.spec.get("end") or {}
    values, _team_of = _values(rules, [], set())
    scope = Scope(numbers={"round", "target", "players"} | {v.name for v in values if v.each is None},
                  lists={"totals"} | {v.name for v in values if v.each is not None})
    if "when" in spec:
        text = str(spec["when"])
    elif "rounds" in spec:
        text = f"round >= {int(spec['rounds'])}"
    else:
        text = "max(totals) >= target" if spec.get("winner", "highest") == "highest" else "max(totals) >= target"
    when = _compile(text, scope, ("end", "when"), expect="bool")
    return End(when, str(spec.get("winner", "highest")), str(spec.get("ties", "play_on")), tuple(values))


def compile_condition(rules: Rules, text: str) -> Expression:
    """A condition on the round (``round > 1``) for a phase's ``when``."""
    scope = Scope(numbers={"round", "players"})
    return compile_expression(text, scope, expect="bool")
