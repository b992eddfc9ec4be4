"""An auction of contract bids (``kind: contract``): levels and strains, pass, double, redouble.

Each seat in turn from the ``opener`` (the dealer unless said), in the direction of play, makes
one call: a bid of a level (``levels: [LOW, HIGH]``) in a strain (``strains``, lowest first: a
colour of the deck, or ``none`` for no trump), higher than the last bid (a higher level, or
the same level in a higher strain); a pass; a double of the last bid when an opponent made it
and nobody doubled it yet (``double: opponents``, or ``never``); a redouble of that double by
the side it doubled (``redouble: true``).  The auction ends after ``passes_to_end`` passes in a
row that follow a bid (3 for four players), or when every seat passed at its first turn: the
deal is passed out and scored at once with no contract (``contract_level`` is 0).

The contract is the last bid, doubled or redoubled as the calls after it left it; the declarer
is the first seat of the side that made it to have named its strain in this auction.  The
declarer is the round's bidder (the seat expressions' ``bidder``); the strain sets the trump
of the play (a colour, or no trump).  With ``dummy: partner`` the declarer's partner is the
dummy: its cards are face up for every seat once the opening lead is made, and the declarer
plays them (the dummy's turn is the declarer's decision).  ``vulnerable`` says, as a
condition, whether the declarer's side is vulnerable: it reads ``round``, ``team`` (the
declarer's team, its index in ``play.teams`` from 0) and ``dealer_side`` (the dealer is on
the declarer's side).

The scoring reads what the contract was (:data:`ROUND_FACTS`, :data:`SEAT_FACTS`, computed
from ``state.contract`` by :func:`chimera_dsl.engine.phases.tricks.contract_facts`, which also
shows the auction and the contract to every seat).  The
record's lines: ``{"type": "auction_call", "round", "seat", "call"}`` per call (``pass``,
``double``, ``redouble``, or ``LEVEL STRAIN``, e.g. ``3 hearts``), then ``{"type": "contract",
"round", "declarer", "contract", "doubled"}`` (declarer and contract null when passed out).
The actions are ``Action("bid", bid=i)`` (the ``i``-th bid, lowest first: level by level,
strain by strain), ``PASS``, ``Action("double")``, ``Action("redouble")``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..actions import PASS, Action, phase_taking
from .tricks import side_of, table_of
from ...errors import ExpressionError, Problem, VariantError
from ...language.expressions import Expression, Scope, compile_expression

KINDS = ("contract",)
DOUBLE = Action("double")
REDOUBLE = Action("redouble")
SEAT_FACTS = ("declarer_side",)
"""A seat's term reads whether it is on the declarer's side (1) or not (0; 0 when passed out)."""
ROUND_FACTS = ("contract_level", "contract_strain", "contract_no_trump", "doubled", "redoubled", "vulnerable",
               "declarer_tricks")
"""What the round's facts read of the contract: its level (0 when passed out), its strain (1 for
the lowest of ``strains``), whether it is in no trump, doubled, redoubled, whether the
declarer's side is vulnerable, and the tricks the declarer's side took."""
VULNERABLE_NAMES = ("round", "team", "players")


@dataclass(frozen=True)
class ContractPhase:
    """An auction of contract bids (see the module's text)."""

    name: str
    opener: object                    # a SeatExpr
    low: int
    high: int
    strains: tuple                    # per strain: ("colour", i) or ("none", -1), lowest first
    strain_names: tuple[str, ...]
    double: bool
    redouble: bool
    passes_to_end: int
    dummy: bool
    vulnerable: Expression | None = None     # a condition, or None: never vulnerable
    kind: str = "contract"

    def bid_name(self, index: int) -> str:
        level, strain = divmod(index, len(self.strains))
        return f"{self.low + level} {self.strain_names[strain]}"


_new_tuple = tuple.__new__          # a NamedTuple made from its fields, without its constructor's call


class Auction(NamedTuple):
    """The auction so far (immutable: a clone shares it)."""

    turn: int                         # the seat to call
    last_bid: int                     # the index of the last bid, -1 before any
    last_bidder: int | None
    doubled: int                      # 0, 1 doubled, 2 redoubled
    passes: int                       # passes in a row
    calls: int                        # calls made
    named: tuple                      # per strain, the seats that named it, in the order they first did
    history: tuple = ()               # every call so far: (seat, kind, bid index or None)


class Contract(NamedTuple):
    """The contract the auction reached (level 0: passed out)."""

    level: int
    strain: int                       # index in strains (-1 passed out)
    doubled: int
    declarer: int | None
    no_trump: bool
    vulnerable: bool


def compile_contract(r, path: tuple, section: dict, roles: tuple, spec: dict) -> ContractPhase:
    """A phase of kind ``contract`` (``r`` reads seats and reports located errors)."""
    deck = r.rules.deck
    opener = r.seat(path + ("opener",), roles, default="dealer")
    levels = section.get("levels", [1, 7])
    if not (isinstance(levels, list) and len(levels) == 2 and all(isinstance(v, int) for v in levels)
            and 1 <= levels[0] <= levels[1]):
        r.bad(path + ("levels",), f"is {levels!r}: the lowest and highest level of a bid, e.g. [1, 7]",
              "write levels: [LOW, HIGH], 1 <= LOW <= HIGH")
    strains_written = section.get("strains")
    if not strains_written:
        r.bad(path + ("strains",), "is missing: the strains a bid names, lowest first",
              "e.g. strains: [clubs, diamonds, hearts, spades, none]")
    strains = []
    names = []
    for i, s in enumerate(strains_written):
        text = str(s)
        if text == "none":
            value = ("none", -1)
        elif text in deck.colours:
            value = ("colour", deck.colours.index(text))
        else:
            r.bad(path + ("strains", i), f"names '{text}', which is neither a colour of the deck nor none",
                  "colours: " + ", ".join(deck.colours) + "; or none (no trump)")
        if value in strains:
            r.bad(path + ("strains", i), f"names '{text}' twice", "name each strain once, lowest first")
        strains.append(value)
        names.append(text)
    players = spec["players"]
    play = spec.get("play") or {}
    dummy = section.get("dummy", "none") == "partner"
    teams = play.get("teams") or []
    if dummy and not teams:
        r.bad(path + ("dummy",), "makes the declarer's partner the dummy, but play.teams forms no teams",
              "give play.teams, e.g. [[0, 2], [1, 3]]")
    if dummy and any(len(t) != 2 for t in teams):
        r.bad(path + ("dummy",), "makes the declarer's partner the dummy, but a team of play.teams is not a pair",
              "give teams of two seats")
    if play.get("kind") != "tricks":
        r.bad(path + ("kind",), "is an auction of contracts for a play of tricks, but this round's play is climbing",
              "write play: {kind: tricks}")
    passes = int(section.get("passes_to_end", players - 1))
    if not 1 <= passes <= players - 1:
        r.bad(path + ("passes_to_end",), f"is {passes}: after a bid, 1 to {players - 1} passes in a row end the "
              "auction", f"write {players - 1}")
    vulnerable = None
    if section.get("vulnerable") is not None:
        text = section["vulnerable"]
        text = ("true" if text else "false") if isinstance(text, bool) else str(text)
        try:
            vulnerable = compile_expression(text, Scope(numbers=set(VULNERABLE_NAMES), bools={"dealer_side"}),
                                            expect="bool")
        except ExpressionError as error:
            raise VariantError([Problem(p.message, path + ("vulnerable",), p.offset, p.hint)
                                for p in error.problems]) from None
    return ContractPhase(path[-1], opener, levels[0], levels[1], tuple(strains), tuple(names),
                         section.get("double", "opponents") == "opponents", bool(section.get("redouble", True)),
                         passes, dummy, vulnerable)


# -- the phase: the engine's hooks (chimera_dsl.engine.phases.registry) --------------------------

def _bids(game, phase: ContractPhase) -> tuple:
    cache = game.__dict__.get("_contract_bids")
    if cache is None:
        cache = game._contract_bids = {}
    found = cache.get(phase.name)
    if found is None:
        count = (phase.high - phase.low + 1) * len(phase.strains)
        found = cache[phase.name] = tuple(Action("bid", bid=i) for i in range(count))
    return found


def begin(state, phase: ContractPhase) -> bool:
    """Begin the auction at the opener; the trick table is laid (no trump yet)."""
    table_of(state)
    seat = state._seat(phase.opener)
    state.auction = Auction(seat, -1, None, 0, 0, 0, tuple(() for _ in phase.strains))
    state.contract = None
    state._to_act = seat
    return True


def _opponent(state, a: int, b: int | None) -> bool:
    return b is not None and b not in side_of(state, a)


def legal(state, phase: ContractPhase) -> list:
    """Pass, the doubles allowed, then every bid above the last."""
    a = state.auction
    out = [PASS]
    seat = a.turn
    if a.last_bidder is not None:
        if phase.double and a.doubled == 0 and _opponent(state, seat, a.last_bidder):
            out.append(DOUBLE)
        if phase.redouble and a.doubled == 1 and not _opponent(state, seat, a.last_bidder):
            out.append(REDOUBLE)
    out += _bids(state.game, phase)[a.last_bid + 1:]
    return out


def why_illegal(state, phase: ContractPhase, action) -> str:
    """Why ``action`` is not a call the seat to act may make, in words."""
    a = state.auction
    seat = a.turn
    if not isinstance(action, Action):
        return f"{action!r} is not an Action"
    if action.kind == "double":
        if a.last_bidder is None:
            return f"seat {seat} may not double: nobody has bid"
        if a.doubled:
            return f"seat {seat} may not double: the bid is doubled already"
        return f"seat {seat} may not double its own side's bid" if phase.double else "the rules allow no double"
    if action.kind == "redouble":
        if a.doubled != 1:
            return f"seat {seat} may redouble only a double of its side's bid, and the bid is not doubled"
        return f"seat {seat} may not redouble an opponents' bid" if phase.redouble else "the rules allow no redouble"
    if action.kind == "bid" and isinstance(action.bid, int):
        if not 0 <= action.bid < len(_bids(state.game, phase)):
            return f"{action.bid} is no bid of this auction"
        return (f"seat {seat} may not bid {phase.bid_name(action.bid)}: it must bid higher than "
                f"{phase.bid_name(a.last_bid)}")
    return f"a {action.kind} is not a call of this auction (a bid, pass, double or redouble)"


def _call_name(phase: ContractPhase, action) -> str:
    if action.kind != "bid":
        return action.kind
    found = _BID_NAMES.get(id(phase))                 # each bid's name, made once per phase (kept alive)
    if found is None or found[0] is not phase:
        if len(_BID_NAMES) >= 64:
            _BID_NAMES.clear()
        found = _BID_NAMES[id(phase)] = (phase, {})
    names = found[1]
    name = names.get(action.bid)
    if name is None:
        name = names[action.bid] = phase.bid_name(action.bid)
    return name


_BID_NAMES: dict = {}


def apply(state, action) -> None:
    """Take the call of the seat to act (raises :class:`IllegalActionError`)."""
    phase = phase_taking(state, action, why_illegal)
    a = state.auction
    seat = a.turn
    state._events.append({"type": "auction_call", "round": state.round, "seat": seat,
                          "call": _call_name(phase, action)})
    last_bid, last_bidder, doubled, passes, named = a.last_bid, a.last_bidder, a.doubled, a.passes, a.named
    if action.kind == "pass":
        passes += 1
    elif action.kind == "double":
        doubled, passes = 1, 0
    elif action.kind == "redouble":
        doubled, passes = 2, 0
    else:
        last_bid, last_bidder, doubled, passes = action.bid, seat, 0, 0
        strain = action.bid % len(phase.strains)
        if seat not in named[strain]:
            named = named[:strain] + (named[strain] + (seat,),) + named[strain + 1:]
    calls = a.calls + 1
    nxt = state._after[seat]
    state.auction = _new_tuple(Auction, (nxt, last_bid, last_bidder, doubled, passes, calls, named,
                                         a.history + ((seat, action.kind, action.bid),)))   # Auction(...)
    if last_bidder is None and passes == state.n:
        _settle(state, phase, None)
        return
    if last_bidder is not None and passes == phase.passes_to_end:
        _settle(state, phase, (last_bid, last_bidder, doubled, named))
        return
    state._to_act = nxt


def _settle(state, phase: ContractPhase, won) -> None:
    """The auction is over: name the contract and its declarer, then play (or score a passed-out deal)."""
    table = state.table
    if won is None:
        state.contract = Contract(0, -1, 0, None, False, False)
        state._events.append({"type": "contract", "round": state.round, "declarer": None, "contract": None,
                              "doubled": 0})
        from .tricks import end_round, _play_spec
        end_round(state, _play_spec(state))
        return
    bid, bidder, doubled, named = won
    strain = bid % len(phase.strains)
    side = side_of(state, bidder)
    declarer = next(s for s in named[strain] if s in side)      # the first of its side to name the strain
    no_trump = phase.strains[strain][0] == "none"
    vulnerable = False
    if phase.vulnerable is not None:
        teams = state._round.play.teams
        team = next((i for i, t in enumerate(teams) if declarer in t), 0)
        vulnerable = bool(phase.vulnerable.evaluate({"round": state.round, "team": team, "players": state.n,
                                                     "dealer_side": state.dealer in side}))
    level = phase.low + bid // len(phase.strains)
    state.contract = Contract(level, strain, doubled, declarer, no_trump, vulnerable)
    rb = state.round_bid
    rb.bidder = declarer
    rb.bid = level
    table.layers[0] = phase.strains[strain]
    table.declared_by[0] = declarer
    table.settle(state.game.rules.deck)
    if phase.dummy:
        table.dummy = next(s for s in side if s != declarer)
    state._events.append({"type": "contract", "round": state.round, "declarer": declarer,
                          "contract": phase.bid_name(bid), "doubled": doubled})
    state._next_phase()


def action_of_event(state, phase: ContractPhase, event: dict):
    """The call a record's line stands for (replay); ValueError says why it cannot be."""
    seat = state.auction.turn
    if event["type"] != "auction_call":
        raise ValueError(f"expected a call of the auction by seat {seat}, found a {event['type']} line")
    if event["seat"] != seat:
        raise ValueError(f"seat {event['seat']} calls out of turn: it is seat {seat}'s turn")
    call = event.get("call")
    if call == "pass":
        return PASS
    if call == "double":
        return DOUBLE
    if call == "redouble":
        return REDOUBLE
    for action in _bids(state.game, phase):
        if phase.bid_name(action.bid) == call:
            return action
    raise ValueError(f"call: {call!r} is no call of this auction (pass, double, redouble, or LEVEL STRAIN)")
