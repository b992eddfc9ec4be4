"""What one seat may see: :class:`Observation`, which :meth:`State.observation
<chimera_dsl.engine.State.observation>` builds for a seat and the players read.
"""
from __future__ import annotations

import random
from typing import Any


class Observation:
    """What one seat may see, nothing more (see docs/internals.md).

    Never holds another seat's hand, the nest before it is taken (nor after, unless the
    variant shows it), or the cards of a transfer before they arrive (unless shown to all).
    ``hand`` is the seat's packed rank counts, ``held`` its cards (a mask over the deck's
    cards) and ``cards`` their names (``7/red``): in a deal in two parts, only the cards it has
    seen (``unseen`` counts the others).  ``sample(rng)`` imagines a whole
    :class:`State` consistent with what this seat has seen (the hidden cards dealt again at
    random: :meth:`State.resample`), for searching players.
    """

    __slots__ = ("seat", "players", "phase", "kind", "round", "dealer", "hand", "held", "face_up", "bids",
                 "bidder", "bid", "exchange_count", "given", "received", "trick", "last_play", "last_player",
                 "hand_sizes", "played", "played_by", "taken", "totals", "target", "rules", "nest",
                 "leader", "passes", "interrupt", "redeals", "partner", "others", "direction", "roles",
                 "transfers", "table", "reversed", "out", "sitting", "wish", "give_to", "calls", "unseen",
                 "values", "_state")

    def __init__(self, seat, players, phase, kind, round, dealer, hand, held, face_up, bids, bidder, bid,
                 exchange_count, given, received, trick, last_play, last_player, hand_sizes, played,
                 played_by, taken, totals, target, rules, nest, leader, passes, interrupt, redeals, partner,
                 others, direction, roles, transfers, state):
        self.seat = seat
        self.players = players
        self.phase = phase
        self.kind = kind
        self.round = round
        self.dealer = dealer
        self.hand = hand
        self.held = held
        self.face_up = face_up
        self.bids = bids
        self.bidder = bidder
        self.bid = bid
        self.exchange_count = exchange_count
        self.given = given
        self.received = received
        self.trick = trick
        self.last_play = last_play
        self.last_player = last_player
        self.hand_sizes = hand_sizes
        self.played = played
        self.played_by = played_by
        self.taken = taken
        self.totals = totals
        self.target = target
        self.rules = rules
        self.nest = nest
        self.leader = leader
        self.passes = passes
        self.interrupt = interrupt
        self.redeals = redeals
        self.partner = partner
        self.others = others
        self.direction = direction
        self.roles = roles
        self.transfers = transfers
        self.table = None             # trick-taking: what all see of the table (chimera_dsl.engine.phases.tricks.public_view)
        self.reversed = False         # the rank order is reversed this round (play.effects: reverse_order)
        self.out: tuple = ()          # the seats out of cards this round, in order (play.round_ends_when)
        self.sitting = None           # the seat sitting this round out (deal.sits_out), or None
        self.wish = None              # the rank wished and not yet played (an effect: wish), or None
        self.give_to = None           # in a transfer: the seat the seat's current gift goes to
        self.calls: dict = {}         # every seat's calls this round by name, the seats with one (calls)
        self.unseen = 0               # how many of its cards the seat has not seen yet (deal.first)
        self.values: dict = {}        # the file's values kept round to round (values), public
        self._state = state

    @property
    def face_up_card(self) -> str | None:
        """The face-up card by its name, colour included (``8/green``), as everyone saw it dealt;
        None when there is none (``face_up`` gives its rank and who received it)."""
        number = getattr(self._state, "face_up_card", None)
        if number is None or self.face_up is None:
            return None
        return self.rules.deck.card_names[number]

    @classmethod
    def of(cls, **fields) -> "Observation":
        """An observation from its fields by name (those not given are None): for tests and tools."""
        later = ("_state", "table", "reversed", "out", "sitting", "wish", "give_to", "calls", "unseen", "values")   # set after the constructor
        names = [n for n in cls.__slots__ if n not in later] + ["state"]
        observation = cls(*[fields.get(n) for n in names])
        observation.table = fields.get("table")
        observation.reversed = bool(fields.get("reversed", False))
        observation.out = tuple(fields.get("out") or ())
        observation.sitting = fields.get("sitting")
        observation.wish = fields.get("wish")
        observation.give_to = fields.get("give_to")
        observation.calls = dict(fields.get("calls") or {})
        observation.unseen = int(fields.get("unseen") or 0)
        observation.values = dict(fields.get("values") or {})
        return observation

    @property
    def zones(self) -> tuple:
        """What the seat sees of every zone of the round (its hand, the others' hands, the
        trick, the piles won, the nest, the cards laid, shown or not dealt...), each a
        :class:`~chimera_dsl.engine.zones.SeenZone`: name, owner, the cards (None where the
        seat may not see which) and their number (``size``: None where it may not count them).  Read from
        the state when asked, as :meth:`sample` is: read it before the game moves on.  Empty for
        an observation made without a state (:meth:`of`)."""
        state = self._state
        return () if state is None else state.zones_seen(self.seat)

    @property
    def cards(self) -> list[str]:
        """The seat's cards by name, lowest first."""
        return self.rules.deck.mask_names(self.held)

    def sample(self, rng: random.Random) -> Any:
        """A whole state consistent with what this seat has seen (see :meth:`State.resample`):
        a :class:`~chimera_dsl.engine.State` (which makes observations: this module is below it)."""
        return self._state.resample(self.seat, rng)

    def as_dict(self) -> dict:
        """The observation's fields by name (for debugging and remote players)."""
        out = {name: getattr(self, name) for name in Observation.__slots__ if name not in ("rules", "_state")}
        out["cards"] = self.cards
        return out

    def __repr__(self) -> str:
        return f"Observation(seat={self.seat}, phase={self.phase!r}, round={self.round})"



_LATER = frozenset(("phase", "round", "dealer", "held", "bids", "exchange_count", "taken", "totals", "target",
                    "nest", "leader", "passes", "interrupt", "redeals", "others", "direction", "roles",
                    "transfers", "table", "values", "reversed", "out", "sitting", "wish", "give_to", "calls",
                    "unseen"))


class LazyObservation(Observation):
    """An :class:`Observation` made with ``State.observation(seat, lazy=True)``: the fields a
    player reads at nearly every decision are set, the others are read from the state the
    first time one of them is asked for (all at once).  The same values as an observation made
    at that moment: ask before the game moves on."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        if name not in _LATER:
            raise AttributeError(f"'Observation' object has no attribute {name!r}")
        self._state._observe_rest(self, self.seat)
        return object.__getattribute__(self, name)
