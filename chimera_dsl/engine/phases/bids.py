"""Bids of tricks: every seat in turn says how many tricks it will take, once (``kind: bids``).

A phase of kind ``bids`` asks each seat of the round once, from its ``opener`` (the dealer's
left unless said) in the direction of play, for a number of tricks from 0 (nil) to the hand it
was dealt (the tricks of the round).  Its ``must`` rules narrow the bids as ``play.must``
narrows the cards: each ``{when: CONDITION, bid: CONDITION}`` keeps, while ``when`` holds, the
bids for which ``bid`` holds, if there is one (so a seat always has a bid)::

    phases:
      bidding:
        kind: bids
        opener: dealer_left
        must:
          - {when: last, bid: "bid_total + bid != tricks"}     # Oh Hell: the dealer's "hook"

The names a rule reads (:func:`bid_scope`): ``bid`` (in ``bid`` only: the bid considered),
``tricks`` (the tricks of the round), ``bid_total`` (the bids made so far, added up),
``side_bid_total`` (those of the seat's side: its partners, ``play.teams``), ``bids_made``,
``last`` and ``first`` (the seat bids last, first), ``round``, ``players``, and, where the file
has ``calls``, ``called(NAME)`` (1 if the seat made the call NAME this round, else 0: Spades'
blind nil, called before the cards are seen, bids 0: ``{when: "called(blind_nil) == 1", bid:
"bid == 0"}``).

Every bid is public: each is a ``bid`` line of the record (``{"type": "bid", "round", "seat",
"bid", "forced": false}``) and in every observation's ``bids`` (``(seat, bid, False)``).  The
scoring of a trick-taking round reads a seat's own bid (``own_bid``), its side's (``side_bid``)
and all of them (``bid_total``), from the observation's ``bids``: :mod:`chimera_dsl.engine.phases.tricks`.  The actions are
``Action("bid", bid=N)``.  The engine runs the phase through
:mod:`chimera_dsl.engine.phases.registry` (``begin``, ``legal``, ``apply``, ``action_of_event``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..actions import Action, phase_taking
from .calls import turn_order
from .tricks import side_of, table_of
from ...errors import ExpressionError, Problem, VariantError
from ...language.expressions import Expression, Function, Scope, compile_expression

KINDS = ("bids",)
NUMBERS = ("tricks", "bid_total", "side_bid_total", "bids_made", "round", "players")
BOOLS = ("last", "first")
SEAT_FACTS = ("own_bid", "side_bid")
"""What a seat's term of the scoring reads of the bids: its own, its side's (added up)."""
ROUND_FACTS = ("bid_total",)
"""What the round's facts read of the bids: every seat's, added up."""


@dataclass(frozen=True)
class BidRule:
    """One rule of ``must``: while ``when`` holds (None: always), only the bids for which
    ``bid`` holds are allowed, if there is one."""

    when: Expression | None
    bid: Expression
    index: int


@dataclass(frozen=True)
class BidsPhase:
    """Each seat bids a number of tricks once, from ``opener``."""

    name: str
    opener: Any                       # a SeatExpr
    must: tuple[BidRule, ...] = ()
    kind: str = "bids"


def _called(env, call: str) -> int:
    """1 if the seat bidding made the call ``call`` this round, else 0 (``called(NAME)``)."""
    return int(call in env["_called"])


def bid_scope(with_bid: bool, calls: tuple[str, ...] = ()) -> Scope:
    """The names of a ``must`` rule of a bids phase: ``with_bid`` for its ``bid`` condition;
    ``calls``, the file's calls, read by ``called(NAME)``."""
    numbers = set(NUMBERS) | ({"bid"} if with_bid else set())
    if not calls:
        return Scope(numbers=numbers, bools=set(BOOLS))
    return Scope(numbers=numbers, bools=set(BOOLS), functions=[Function("called", ("call",), _called)],
                 identifiers={"call": set(calls)})


def _reads(expr: Expression | None) -> set[str]:
    """The names of the bidding's environment ``expr`` reads: its names, and ``_called`` (the
    seat's calls) where it reads ``called()``."""
    if expr is None:
        return set()
    return set(expr.names) | ({"_called"} if any(f[0] == "called" for f in expr.functions_used) else set())


def _written(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _compile(text, path: tuple, with_bid: bool, problems: list, calls: tuple[str, ...] = ()) -> Expression | None:
    try:
        return compile_expression(_written(text), bid_scope(with_bid, calls), expect="bool")
    except ExpressionError as error:
        for p in error.problems:
            if not with_bid and p.message == "unknown name 'bid'":
                problems.append(Problem("'bid' is the bid considered, but when is read once per decision, before any "
                                        "bid is chosen", path, p.offset, "read it in bid:, the condition each bid "
                                        "must meet"))
            elif p.message == "unknown function 'called'" and not calls:
                problems.append(Problem(f"{'.'.join(map(str, path))} reads called(), but the file defines no calls",
                                        path, p.offset, "define them, e.g. calls: {grand: {}}"))
            else:
                problems.append(Problem(p.message, path, p.offset, p.hint))
        return None


def compile_bids(r, path: tuple, section: dict, roles: tuple, calls=None) -> BidsPhase:
    """A phase of kind ``bids`` (``r`` reads seats and reports located errors; ``calls``: the
    file's calls, which ``called(NAME)`` reads)."""
    opener = r.seat(path + ("opener",), roles, default="dealer_left")
    names = tuple(c.name for c in calls.calls) if calls is not None else ()
    rules: list[BidRule] = []
    problems: list[Problem] = []
    for i, entry in enumerate(section.get("must") or []):
        where = path + ("must", i)
        when = None
        if entry.get("when") is not None:
            when = _compile(entry["when"], where + ("when",), False, problems, names)
        if "bid" not in entry:
            problems.append(Problem(f"{'.'.join(map(str, where))} says no condition on the bid", where,
                                    hint='write bid: CONDITION, e.g. bid: "bid_total + bid != tricks"'))
            continue
        bid = _compile(entry["bid"], where + ("bid",), True, problems, names)
        if bid is not None:
            rules.append(BidRule(when, bid, i))
    if problems:
        raise VariantError(problems)
    return BidsPhase(path[-1], opener, tuple(rules))


# -- the phase: the engine's hooks (chimera_dsl.engine.phases.registry) --------------------------

_ACTIONS: dict[int, Action] = {}


def bid_of(tricks: int) -> Action:
    """The action of bidding ``tricks`` tricks (shared)."""
    return _ACTIONS.get(tricks) or _ACTIONS.setdefault(tricks, Action("bid", bid=tricks))


def begin(state, phase: BidsPhase) -> bool:
    """Begin the phase: every seat of the round in turn from the opener; the trick table is laid
    (the trump turned up is known while bidding)."""
    table_of(state)
    order = turn_order(state, state._seat(phase.opener))
    state.bid_turns = tuple(order)
    state._to_act = order[0]
    return True


def _env(state, seat: int) -> dict:
    made = state.round_bid.bids
    side = side_of(state, seat)
    total = partners = 0
    for s, b, _ in made:
        total += b
        if s in side and s != seat:
            partners += b
    calls = state._round.calls
    return {"tricks": max(state.sizes), "bid_total": total,
            "side_bid_total": partners, "bids_made": len(made),
            "last": len(state.bid_turns) == 1, "first": not made, "round": state.round, "players": state.n,
            "bid": 0, "_called": frozenset(calls.calls[i].name for i in state.calls_made[seat]) if calls else frozenset()}


def allowed(state, phase: BidsPhase, seat: int) -> list[int]:
    """The bids ``seat`` may make now: 0 to the tricks of the round, narrowed by ``must``."""
    return list(_allowed(state, phase, seat)[0])


def _allowed(state, phase: BidsPhase, seat: int) -> tuple:
    """(the bids ``seat`` may make now, their actions), kept per value of what the rules read:
    the tricks of the round and the names of every rule's ``when`` and ``bid`` (plain numbers
    and conditions, no function: see :func:`_kept`)."""
    env = _env(state, seat)
    game = state.game
    cache = game.__dict__.get("_allowed_bids")
    if cache is None:
        cache = game._allowed_bids = {}
    reads = cache.get(phase.name)
    if reads is None:
        names = {"tricks"}
        for rule in phase.must:
            names |= _reads(rule.bid) | _reads(rule.when)
        reads = cache[phase.name] = tuple(sorted(names - {"bid"}))
    key = (phase.name, *[env.get(name) for name in reads])
    found = cache.get(key)
    if found is None:
        bids = _narrowed(state, phase, env)
        if len(cache) >= 4096:          # a rule reading the round's number makes many keys
            cache.clear()
            cache[phase.name] = reads
        found = cache[key] = (tuple(bids), tuple(bid_of(b) for b in bids))
    return found


def _narrowed(state, phase: BidsPhase, env: dict) -> list[int]:
    """0 to the tricks of the round, narrowed by ``must`` (on ``env``, :func:`_env`)."""
    bids = list(range(env["tricks"] + 1))
    for rule in phase.must:
        if rule.when is not None and not rule.when.evaluate(env):
            continue
        kept = _kept(state.game, phase, rule, env, bids)
        if kept:
            bids = list(kept)
    return bids


def _kept(game, phase: BidsPhase, rule: BidRule, env: dict, bids: list[int]) -> tuple[int, ...]:
    """The bids of ``bids`` for which ``rule.bid`` holds.  The names of a bid rule are plain
    numbers and conditions (no function), so the answer is kept per value of the names it reads:
    a Spades seat's bids depend only on its partner's bid and the tricks of the round."""
    cache = game.__dict__.get("_kept_bids")
    if cache is None:
        cache = game._kept_bids = {}
    reads = cache.get((phase.name, rule.index))
    if reads is None:
        reads = cache[(phase.name, rule.index)] = tuple(sorted(_reads(rule.bid) - {"bid"}))
    key = (phase.name, rule.index, tuple(bids), tuple([env.get(name) for name in reads]))
    found = cache.get(key)
    if found is None:
        chosen = []
        for b in bids:
            env["bid"] = b
            if rule.bid.evaluate(env):
                chosen.append(b)
        if len(cache) >= 4096:          # a rule reading the round's number makes many keys
            cache.clear()
            cache[(phase.name, rule.index)] = reads
        found = cache[key] = tuple(chosen)
    return found


def legal(state, phase: BidsPhase) -> list:
    """The bids of the seat to act, lowest first."""
    return list(_allowed(state, phase, state._to_act)[1])


def apply(state, action) -> None:
    """Take the bid of the seat to act (raises :class:`IllegalActionError`)."""
    phase = phase_taking(state, action, why_illegal)
    seat = state._to_act
    state._events.append({"type": "bid", "round": state.round, "seat": seat, "bid": action.bid, "forced": False})
    rb = state.round_bid
    rb.bids = rb.bids + ((seat, action.bid, False),)
    turns = state.bid_turns[1:]
    state.bid_turns = turns
    if turns:
        state._to_act = turns[0]
        return
    state._next_phase()


def why_illegal(state, phase: BidsPhase, action) -> str:
    """Why ``action`` is not a bid the seat to act may make, in words."""
    seat = state._to_act
    if not isinstance(action, Action):
        return f"{action!r} is not an Action"
    if action.kind != "bid" or not isinstance(action.bid, int):
        return f"seat {seat} bids a number of tricks (Action('bid', bid=N)), not a {action.kind}"
    tricks = max(state.sizes)
    if not 0 <= action.bid <= tricks:
        return f"seat {seat} may bid 0 to {tricks} tricks, not {action.bid}"
    env = _env(state, seat)
    for rule in phase.must:
        if rule.when is not None and not rule.when.evaluate(env):
            continue
        env["bid"] = action.bid
        if not rule.bid.evaluate(env):
            return (f"seat {seat} may not bid {action.bid}: {phase.name}.must[{rule.index}] asks for a bid where "
                    f"{rule.bid.text} (when {rule.when.text if rule.when is not None else 'always'})")
    return f"seat {seat} may not bid {action.bid} now"


def action_of_event(state, phase: BidsPhase, event: dict):
    """The bid a record's line stands for (replay); ValueError says why it cannot be."""
    seat = state._to_act
    if event["type"] != "bid":
        raise ValueError(f"expected a bid by seat {seat}, found a {event['type']} line")
    if event["seat"] != seat:
        raise ValueError(f"seat {event['seat']} bids out of turn: it is seat {seat}'s turn")
    if event.get("forced"):
        raise ValueError("a forced bid where the rules force none")
    if not isinstance(event.get("bid"), int):
        raise ValueError(f"bid: seat {seat} must bid a number of tricks, not {event.get('bid')!r}")
    return bid_of(event["bid"])
