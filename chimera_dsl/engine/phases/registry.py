"""Every kind of phase as a component, by name: the state runs a round's phases through the
:class:`Kind` this module gives for each, and never names a kind itself.

A :class:`Kind` is what the engine knows of a kind of phase:

* its hooks: ``begin(state, phase)`` (True when a seat must decide, False when the phase has
  nothing to do this round), ``legal(state, phase)``, ``why_illegal(state, phase, action)``,
  and either ``apply(state, action)`` (the kind checks the action itself) or ``take(state,
  action, mask)`` (after the state's shared check, which also reads the very cards an action
  may name); ``action_of_event(state, phase, event)`` when the kind reads its own lines of a
  record (a replay), else the record's reader does;
* ``requires`` and ``provides``: what the kind needs of the round (from the deal, an earlier
  phase or the round's play) and what it gives the phases after it, by name (:data:`NEEDS`
  says each name in words).  The loader walks the round's phases with them
  (:func:`unmet`): a kind whose needs nothing provides is refused where the file names it,
  which is how any combination of phases the loader accepts can run.

Where each kind lives:

* ``bidding``: :mod:`chimera_dsl.engine.phases.bidding`;
* ``transfer``: :mod:`chimera_dsl.engine.phases.transfers` (its state: the state's ``transfers``);
* ``play`` (climbing): :mod:`chimera_dsl.engine.phases.climbing`;
* ``trump`` and ``tricks``: :mod:`chimera_dsl.engine.phases.tricks` (with the announcements of a trick play,
  :mod:`chimera_dsl.engine.phases.announce`);
* ``auction`` and ``partner``: :mod:`chimera_dsl.engine.phases.auction`;
* ``calls``: :mod:`chimera_dsl.engine.phases.calls` (a phase of any family's round);
* ``bids`` (every seat bids a number of tricks): :mod:`chimera_dsl.engine.phases.bids`;
* ``order_up`` (trump made from the turned card, picking it up, going alone):
  :mod:`chimera_dsl.engine.phases.order_up`.
* ``contract`` (an auction of contract bids, its declarer and dummy): :mod:`chimera_dsl.engine.phases.contract`.
* ``solo`` (a declarer found by bids of game values or first come, the stock, the game named):
  :mod:`chimera_dsl.engine.phases.solo`.

The bidding keeps its outputs on the state itself and its progress in its own ``Bidding``; the
climbing play keeps its state in its own :class:`~chimera_dsl.engine.phases.climbing.Climb` (the
state's ``climb``); the transfers keep theirs in their own
:class:`~chimera_dsl.engine.phases.transfers.Transfers`; the other kinds keep theirs at the trick
table (:class:`chimera_dsl.engine.phases.tricks.Table`) or in a field of their own.  The modules do
not import this one, nor the state: they read the state they are given.
"""
from __future__ import annotations

from typing import Any, Callable

from . import auction, bidding, bids, calls, climbing, contract, order_up, solo, transfers, tricks


class Kind:
    """One kind of phase: its hooks, and what it requires of the round and provides."""

    __slots__ = ("name", "begin", "legal", "why_illegal", "apply", "take", "action_of_event", "requires",
                 "provides")

    def __init__(self, name: str, *, begin: Callable, legal: Callable, why_illegal: Callable,
                 apply: Callable | None = None, take: Callable | None = None,
                 action_of_event: Callable | None = None, requires: frozenset = frozenset(),
                 provides: frozenset = frozenset()):
        assert (apply is None) != (take is None), name
        self.name = name
        self.begin = begin
        self.legal = legal
        self.why_illegal = why_illegal
        self.apply = apply
        self.take = take
        self.action_of_event = action_of_event
        self.requires = requires
        self.provides = provides

    def __repr__(self) -> str:
        return f"Kind({self.name!r})"


def _over_legal(state, phase) -> list:
    return []


def _over_why(state, phase, action) -> str:
    return "the game is over"


def _over_take(state, action, mask) -> None:       # never reached: nothing is legal
    raise AssertionError("no action is legal once the game is over")


NEEDS: dict[str, tuple[str, str]] = {
    "bidder": ("a bidder, which no phase before it names",
               "put a bidding or an auction phase before it in round; in a trick-taking round, an order_up, "
               "contract or solo phase names a bidder too"),
    "trumps": ("a play in which a card can be a trump: this round's play is climbing",
               "write play: {kind: tricks}, or remove it from round"),
    "tricks": ("a play of tricks to bid: this round's play is climbing",
               "write play: {kind: tricks}, or remove it from round"),
    "laid cards": ("a play that reads the cards laid face up: this round's play is climbing",
                   "name the bidder of a climbing round with a bidding section (bidding: {levels: [...]}), "
                   "or write play: {kind: tricks}"),
}
"""What each name a kind may require means, said as what is missing, with what to write."""

KINDS_BY_NAME: dict[str, Kind] = {
    "bidding": Kind("bidding", begin=bidding.begin, legal=bidding.legal,
                    why_illegal=bidding.why_illegal, take=bidding.take,
                    provides=frozenset({"bidder"})),
    "transfer": Kind("transfer", begin=transfers.begin, legal=transfers.legal, why_illegal=transfers.why_illegal,
                     take=transfers.take),
    "play": Kind("play", begin=climbing.begin, legal=climbing.legal, why_illegal=climbing.why_illegal,
                 take=climbing.take),
    "trump": Kind("trump", begin=tricks.begin, legal=tricks.legal, why_illegal=tricks.why_illegal,
                  apply=tricks.apply, action_of_event=tricks.action_of_event, requires=frozenset({"trumps"}),
                  provides=frozenset({"trump"})),
    "tricks": Kind("tricks", begin=tricks.begin, legal=tricks.play_legal, why_illegal=tricks.why_illegal,
                   apply=tricks.play_apply, action_of_event=tricks.action_of_event),
    "auction": Kind("auction", begin=auction.begin, legal=auction.legal, why_illegal=auction.why_illegal,
                    apply=auction.play_turn, action_of_event=auction.action_of_event,
                    requires=frozenset({"laid cards"}), provides=frozenset({"bidder"})),
    "partner": Kind("partner", begin=auction.begin, legal=auction.legal, why_illegal=auction.why_illegal,
                    apply=auction.take, action_of_event=auction.action_of_event, requires=frozenset({"bidder"}),
                    provides=frozenset({"sides"})),
    "calls": Kind("calls", begin=calls.begin, legal=calls.legal, why_illegal=calls.why_illegal, apply=calls.apply,
                  action_of_event=calls.action_of_event),
    "bids": Kind("bids", begin=bids.begin, legal=bids.legal, why_illegal=bids.why_illegal, apply=bids.apply,
                 action_of_event=bids.action_of_event, requires=frozenset({"tricks"}), provides=frozenset({"bids"})),
    "order_up": Kind("order_up", begin=order_up.begin, legal=order_up.legal, why_illegal=order_up.why_illegal,
                     apply=order_up.apply, action_of_event=order_up.action_of_event, requires=frozenset({"trumps"}),
                     provides=frozenset({"trump", "bidder"})),
    "contract": Kind("contract", begin=contract.begin, legal=contract.legal, why_illegal=contract.why_illegal,
                     apply=contract.apply, action_of_event=contract.action_of_event,
                     requires=frozenset({"tricks"}), provides=frozenset({"bidder", "trump"})),
    "solo": Kind("solo", begin=solo.begin, legal=solo.legal, why_illegal=solo.why_illegal, apply=solo.apply,
                 action_of_event=solo.action_of_event, requires=frozenset({"trumps"}),
                 provides=frozenset({"bidder", "trump"})),
}
"""Per kind of phase that runs, its component."""

OVER = Kind("over", begin=lambda state, phase: False, legal=_over_legal, why_illegal=_over_why, take=_over_take)
"""The state's hooks once the game is over: nothing is legal."""

KINDS = tuple(name for name, kind in KINDS_BY_NAME.items() if kind.action_of_event is not None)
"""The kinds of phase that read their own lines of a record (the record's reader reads the
others': bids, gifts and plays)."""

PLAY_PROVIDES: dict[str, frozenset[str]] = {"tricks": frozenset({"trumps", "laid cards", "sides", "tricks"}),
                                            "play": frozenset({"sides"})}
"""What each kind of play gives every phase of its round: a trick play ranks trumps, reads the
cards laid face up and scores sides; a climbing play scores sides (``play.teams``, or those a
partner phase forms)."""


def unmet(kinds: list[str], play_kind: str, deal_provides: frozenset = frozenset()) -> list[tuple[int, str]]:
    """For the round's phases (their kinds, in order, the deal first), each need no earlier phase,
    the deal or the round's play provides: (index in ``kinds``, the need's name)."""
    have = set(deal_provides) | PLAY_PROVIDES.get(play_kind, frozenset())
    missing = []
    for i, name in enumerate(kinds):
        kind = KINDS_BY_NAME.get(name)
        if kind is None:
            continue
        missing += [(i, need) for need in sorted(kind.requires - have)]
        have |= kind.provides
    return missing


def action_of_event(state, event: dict):
    """The action a game record's line stands for (replay); ValueError says why it cannot be."""
    return state._hooks.action_of_event(state, state._now, event)


__all__ = ["Kind", "KINDS", "KINDS_BY_NAME", "NEEDS", "OVER", "PLAY_PROVIDES", "action_of_event", "unmet"]
