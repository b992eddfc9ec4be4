"""A fixed action space per variant: every distinct decision of the variant has one integer id,
the same in every position and every run.

    space = ActionSpace(Game(load_variant("variants/others/gang-of-four.yaml")))
    space.size                          # the number of distinct actions (OpenSpiel's num_distinct_actions)
    ids = space.legal_ids(state)        # the ids of the legal actions now, ascending
    action = space.decode(ids[0], state)
    assert space.encode(action, state) == ids[0]

Needs no extra: this module reads the variant and the engine's actions only.

What an id names (the *canonical form* of an action, read from the variant once):

* ``pass``: one id, whatever is passed (a bid, a trick, an offer to play out of turn, the
  choice of trump handed to the partner);
* ``bid``: one id per level of the bidding, and per number of tricks a phase of kind ``bids`` takes (0 to a hand);
* ``play`` (climbing): one id per distinct play of the whole deck, listed by the variant's own
  combinations (``Rules.leads`` of every card): a play is its combination, its rank and its
  cards by rank (how many of each rank) -- or, where the variant's plays name their very cards
  (its rules read colours), its cards by name (``7/red``), two cards of one name being
  interchangeable as the engine offers them -- unless that would make more than
  :data:`MAX_ACTIONS` ids (runs of many cards in four suits): the plays are then numbered by
  their cards' ranks, plays of the same ranks in other suits sharing an id (``decode`` gives
  the engine's first legal one; :attr:`ActionSpace.plays_by_rank` says so);
* ``give`` (a transfer chosen by a seat): one id per set of as many cards as a transfer of the
  variant hands over, by rank, or by name where plays name their cards;
* ``trump``: one id per colour, per rank and for no trump, whichever trump phase offers it (a
  colour named in an ``order_up`` phase is its colour's id);
* ``partner``: one id per seat counted from the chooser (1: the next seat, ...);
* ``card`` (trick-taking): one id per card name;
* ``lay`` (an auction by cards laid face up): one id per set of up to ``per_turn`` cards, by name;
* ``call`` (``calls``: a calls phase, ``play.calls``): one id per call of the file, by name;
* ``alone`` (an ``order_up`` phase): one id, the maker going alone;
* an auction of contracts (``contract``): its bids among the ``bid`` ids by number (lowest
  first, level by level, strain by strain), and one id each for ``double`` and ``redouble``;
* a ``solo`` phase: its values among the ``bid`` ids (by value), one id each for ``hold``
  (holding the value said), ``take`` and ``hand`` (the stock taken or not), ``game``: one
  id per game of the phase, by name, and ``declare``: one id per declaration, by name (the
  cards laid away are ``card`` ids).

The ids are contiguous per kind, in the order above; :attr:`ActionSpace.segments` gives each
kind's first id and count.  A variant whose space would be too large to list (an auction
without ``per_turn``, where one turn may lay any set of cards; a transfer of very many cards)
is refused when the space is made, with :class:`UnsupportedVariant` saying which phase and why:
an action space that numbered only some of the decisions would not be exact.
"""
from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any, Iterable

from ..engine import Action, Game, State
from ..errors import ChimeraError

MAX_ACTIONS = 1_000_000
"""The most distinct actions a space may have (larger spaces are refused)."""

KIND_ORDER = ("pass", "bid", "play", "give", "trump", "partner", "card", "lay", "wish", "trick_to", "call", "alone",
              "double", "redouble", "hold", "take", "hand", "game", "declare")


Key = tuple[Any, ...]
"""The canonical form of an action: its kind, then what tells it from the others of its kind."""


class UnsupportedVariant(ChimeraError):
    """The variant's decisions cannot be numbered exactly in a space of bounded size."""


def _submultisets(counts: list[int], size: int) -> Iterable[tuple[int, ...]]:
    """Every multiset of ``size`` items over ``len(counts)`` kinds, at most ``counts[i]`` of kind
    ``i``, as a sorted tuple of kinds (``combinations_with_replacement`` order)."""
    for chosen in combinations_with_replacement(range(len(counts)), size):
        ok = True
        run = 0
        for j, kind in enumerate(chosen):
            run = run + 1 if j and chosen[j - 1] == kind else 1
            if run > counts[kind]:
                ok = False
                break
        if ok:
            yield chosen


def _count_submultisets(counts: list[int], size: int) -> int:
    """How many multisets :func:`_submultisets` lists (without listing them)."""
    ways = [1] + [0] * size
    for cap in counts:
        new = [0] * (size + 1)
        for total in range(size + 1):
            if ways[total]:
                for take in range(min(cap, size - total) + 1):
                    new[total + take] += ways[total]
        ways = new
    return ways[size]


class ActionSpace:
    """The fixed action space of one variant (see the module's text).

    ``game``: a :class:`~chimera_dsl.engine.Game`.  ``size`` is the number of ids (0 to
    ``size - 1``); ``segments`` lists ``(kind, first id, count)``; ``names`` are the deck's
    distinct card names in deck order (``name_index`` their places, ``name_copies`` how many
    cards bear each), ``rank_copies`` the cards of each rank; :meth:`encode`,
    :meth:`decode`, :meth:`legal_ids` and :meth:`describe` convert between ids and the
    engine's :class:`~chimera_dsl.engine.Action`.
    """

    def __init__(self, game: Game):
        self.game = game
        rules = game.rules
        deck = rules.deck
        self.players = game.players
        self.by_cards = bool(game.by_cards)
        # card names in deck order, each once: the "looks" a card is known by
        self.names: list[str] = []
        self.name_index: dict[str, int] = {}
        copies: dict[str, int] = {}
        for name in deck.card_names:
            if name not in self.name_index:
                self.name_index[name] = len(self.names)
                self.names.append(name)
            copies[name] = copies.get(name, 0) + 1
        self.name_copies = [copies[n] for n in self.names]
        self.rank_copies = [len(deck.rank_cards[r]) for r in range(len(deck.ranks))]
        kinds = self._kinds_of(game)
        keys: dict[str, list[Key]] = {kind: [] for kind in KIND_ORDER}
        keys["pass"] = [("pass",)]
        keys["bid"] = [("bid", level) for level in game.bid_actions]
        if any(p.kind == "bids" for p in game.round.phases):      # bids of tricks: 0 to a whole hand
            keys["bid"] += [("bid", n) for n in range(game.round.deal.hand + 1) if n not in game.bid_actions]
        self.plays_by_rank = False
        if "play" in kinds:
            packed = rules.leads(deck.key_of_mask(deck.full_mask))
            if self.by_cards and self._card_plays_bound(packed) <= MAX_ACTIONS:
                plays = rules.card_leads(deck.full_mask)
            else:
                # numbered by their cards' ranks: by name there would be too many (long runs in
                # four suits); plays of the same ranks in other suits share an id
                self.plays_by_rank = self.by_cards
                plays = packed
            keys["play"] = sorted({self._play_key(p) for p in plays}, key=_sort_key)
        if kinds.get("give"):
            keys["give"] = self._give_keys(kinds["give"])
        for phase in game.round.phases:
            if phase.kind == "contract":   # an auction of contracts: its bids by number, lowest first
                count = (phase.high - phase.low + 1) * len(phase.strains)
                keys["bid"] += [("bid", i) for i in range(count) if ("bid", i) not in keys["bid"]]
                keys["double"] = [("double",)] if phase.double else []
                keys["redouble"] = [("redouble",)] if phase.redouble else []
        for phase in game.round.phases:
            if phase.kind == "solo":       # bids of game values, holding, the stock, the games by name
                keys["bid"] += [("bid", v) for v in phase.values if ("bid", v) not in keys["bid"]]
                if phase.values:
                    keys["hold"] = [("hold",)]
                if phase.stock_choice:
                    keys["take"], keys["hand"] = [("take",)], [("hand",)]
                keys["game"] += [("game", g.name) for g in phase.games if ("game", g.name) not in keys["game"]]
                keys["declare"] += [("declare", d.name) for d in phase.declarations
                                    if ("declare", d.name) not in keys["declare"]]
        if "order_up" in kinds:         # a colour named as trump (the turned card's, or another), going alone
            keys["alone"] = [("alone",)]
        if "trump" in kinds or "order_up" in kinds:
            keys["trump"] = ([("trump", ("colour", i)) for i in range(len(deck.colours))]
                             + [("trump", ("rank", i)) for i in range(len(deck.ranks))] + [("trump", ("none", -1))])
        if "partner" in kinds:
            keys["partner"] = [("partner", k) for k in range(1, self.players)]
        if "tricks" in kinds:
            keys["card"] = [("card", name) for name in self.names]
        if "auction" in kinds:
            keys["lay"] = self._lay_keys(kinds["auction"])
        effects = getattr(game.round.play, "effects", ())
        wished = sorted({r for e in effects if e.name == "wish" for r in e.arg})
        if wished:                      # the rank a play's wish names, or none (-1)
            keys["wish"] = [("wish", -1)] + [("wish", r) for r in wished]
        if any(e.name == "trick_to" for e in effects):     # the seat a trick is given to, after the giver
            keys["trick_to"] = [("trick_to", k) for k in range(1, self.players)]
        calls = game.round.calls
        if calls is not None and ("calls" in kinds or calls.in_play):
            keys["call"] = [("call", c.name) for c in calls.calls]
        self.segments: list[tuple[str, int, int]] = []
        self._keys: list[Key] = []
        for kind in KIND_ORDER:
            if keys[kind]:
                self.segments.append((kind, len(self._keys), len(keys[kind])))
                self._keys.extend(keys[kind])
        self._ids = {key: i for i, key in enumerate(self._keys)}
        self.size = len(self._keys)

    # -- what the variant decides ------------------------------------------------------------
    @staticmethod
    def _kinds_of(game: Game) -> dict[str, Any]:
        """Per kind of decision the variant's round has, what sizes it reads: the counts of
        cards its chosen transfers hand over, the ``per_turn`` caps of its auctions."""
        kinds: dict[str, Any] = {}
        for phase in game.round.phases:
            kind = phase.kind
            if kind == "transfer":
                if getattr(phase, "source", None) == "nest" or getattr(phase, "choose", "player") != "player":
                    continue                   # the nest is taken, the highest cards given: nobody chooses
                counts = set(getattr(phase, "count_by_bid", {}).values())
                if getattr(phase, "count", None) is not None:
                    counts.add(phase.count)
                kinds.setdefault("give", {})[phase.name] = sorted(c for c in counts if c > 0)
            elif kind == "auction":
                kinds.setdefault("auction", []).append(phase)
            else:
                kinds.setdefault(kind, True)
        return kinds

    def _give_keys(self, per_phase: dict[str, list[int]]) -> list[Key]:
        sizes = sorted({c for counts in per_phase.values() for c in counts})
        counts = self.name_copies if self.by_cards else self.rank_copies
        total = sum(_count_submultisets(counts, k) for k in sizes)
        if total > MAX_ACTIONS:
            phases = ", ".join(sorted(per_phase))
            raise UnsupportedVariant(
                f"the transfers {phases} hand over up to {max(sizes)} cards chosen by the seat: {total:,} distinct "
                f"sets, more than the {MAX_ACTIONS:,} ids a fixed action space may hold; the engine hands the "
                f"cards over in one decision, so they cannot be numbered one card at a time")
        out: list[Key] = []
        shift = self.game.rules.deck.shift
        for k in sizes:
            for chosen in _submultisets(counts, k):
                if self.by_cards:
                    out.append(("give", tuple(self.names[i] for i in chosen)))
                else:
                    out.append(("give", sum(1 << (shift * r) for r in chosen)))
        return out

    def _lay_keys(self, phases: list) -> list[Key]:
        hand = max(getattr(p, "hand", 0) for p in self.game.round.phases if p.kind == "deal")
        caps = []
        for phase in phases:
            cap = getattr(phase, "per_turn", None)
            if cap is None:
                total = sum(_count_submultisets(self.name_copies, k) for k in range(1, hand + 1))
                raise UnsupportedVariant(
                    f"the auction {phase.name} sets no per_turn: one turn may lay any set of up to {hand} cards "
                    f"({total:,} distinct sets), too many to number; the engine lays them in one decision, so "
                    f"they cannot be numbered one card at a time (set per_turn to cap a turn's cards)")
            caps.append(min(cap, hand))
        most = max(caps)
        total = sum(_count_submultisets(self.name_copies, k) for k in range(1, most + 1))
        if total > MAX_ACTIONS:
            raise UnsupportedVariant(
                f"an auction's turn may lay up to {most} cards: {total:,} distinct sets, more than the "
                f"{MAX_ACTIONS:,} ids a fixed action space may hold")
        return [("lay", tuple(self.names[i] for i in chosen))
                for k in range(1, most + 1) for chosen in _submultisets(self.name_copies, k)]

    # -- canonical forms ---------------------------------------------------------------------
    def _names_of(self, mask: int) -> tuple[str, ...]:
        names = self.game.rules.deck.mask_names(mask)
        index = self.name_index
        return tuple(sorted(names, key=index.__getitem__))

    def _card_plays_bound(self, packed) -> int:
        """At most how many plays by card name the plays ``packed`` (by rank) make: per play, the
        ways to take its count of each rank among that rank's card names."""
        from math import comb
        deck = self.game.rules.deck
        names: dict[int, set] = {}
        for card, name in enumerate(deck.card_names):
            names.setdefault(deck.card_rank[card], set()).add(name)
        total = 0
        for play in packed:
            ways = 1
            for rank, count in enumerate(deck.counts(play.key)):
                if count:
                    ways *= comb(len(names.get(rank, ())) + count - 1, count)
            total += ways
            if total > MAX_ACTIONS:
                break
        return total

    def _play_key(self, play) -> Key:
        mask = getattr(play, "mask", None)
        if self.plays_by_rank:
            return ("play", play.index, play.rank, play.key)
        if self.by_cards and isinstance(mask, int):
            return ("play", play.index, play.rank, self._names_of(mask))
        return ("play", play.index, play.rank, play.key)

    def key(self, action: Action, state: State) -> Key:
        """The canonical form of ``action``, taken by the seat to act in ``state`` (see the
        module's text)."""
        kind = action.kind
        if kind == "pass":
            return ("pass",)
        if kind == "bid":
            return ("bid", action.bid)
        if kind == "play":
            return self._play_key(action.play)
        if kind == "give":
            if self.by_cards:
                if action.mask is None:
                    raise ChimeraError("a gift of this variant names its very cards (Action.mask)")
                return ("give", self._names_of(action.mask))
            return ("give", action.cards)
        if kind == "trump" and state.kind == "order_up":      # the colour's index in deck.colours
            return ("trump", ("colour", action.cards))
        if kind in ("alone", "double", "redouble", "hold", "take", "hand"):
            return (kind,)
        if kind == "game" and state.kind == "solo" and isinstance(action.cards, int):
            return ("game", state._now.games[action.cards].name)
        if kind == "declare" and state.kind == "solo" and isinstance(action.cards, int):
            return ("declare", state._now.declarations[action.cards].name)
        if kind == "trump":
            options = (state.observation(state.current_player()).table or {}).get("trump_options") or []
            if not isinstance(action.cards, int) or not 0 <= action.cards < len(options):
                raise ChimeraError(f"{action!r} is not a choice the current trump phase offers")
            return ("trump", tuple(options[action.cards]))
        if kind == "partner":
            return ("partner", (action.cards - state.current_player()) % self.players)
        if kind == "card":
            return ("card", self.game.rules.deck.card_names[action.mask.bit_length() - 1])
        if kind == "lay":
            return ("lay", self._names_of(action.mask))
        if kind == "wish":
            return ("wish", action.cards if action.cards is not None and action.cards >= 0 else -1)
        if kind == "trick_to":
            return ("trick_to", (action.cards - state.current_player()) % self.players)
        if kind == "call" and self.game.round.calls is not None and isinstance(action.cards, int) \
                and 0 <= action.cards < len(self.game.round.calls.calls):
            return ("call", self.game.round.calls.calls[action.cards].name)
        raise ChimeraError(f"{action!r}: no action of kind {kind!r} in this variant's action space")

    # -- ids -----------------------------------------------------------------------------------
    def encode(self, action: Action, state: State) -> int:
        """The id of ``action``, taken by the seat to act in ``state``."""
        key = self.key(action, state)
        found = self._ids.get(key)
        if found is None:
            raise ChimeraError(f"{action!r} has no id in the action space of {self.game.rules.name} "
                               f"(its canonical form {key!r} is not one the variant lists)")
        return found

    def legal(self, state: State) -> dict[int, Action]:
        """The legal actions of ``state`` by id, ascending (of actions with one id -- two cards of
        one name --, the engine's first)."""
        out: dict[int, Action] = {}
        ids = self._ids
        for action in state.legal_actions():
            key = self.key(action, state)
            found = ids.get(key)
            if found is None:
                raise ChimeraError(f"{action!r} has no id in the action space of {self.game.rules.name} "
                                   f"(its canonical form {key!r} is not one the variant lists)")
            out.setdefault(found, action)
        return dict(sorted(out.items()))

    def legal_ids(self, state: State) -> list[int]:
        """The ids of the legal actions of ``state``, ascending."""
        return list(self.legal(state))

    def decode(self, action_id: int, state: State) -> Action:
        """The engine's action of id ``action_id`` for the seat to act in ``state`` (one of
        ``state.legal_actions()``); :class:`ChimeraError` when it is not legal there."""
        found = self.legal(state).get(int(action_id))
        if found is None:
            what = self.describe(action_id) if 0 <= int(action_id) < self.size else "no action"
            raise ChimeraError(f"action {action_id} ({what}) is not legal now")
        return found

    def kind_of(self, action_id: int) -> str:
        """The kind of the action of ``action_id`` (``pass``, ``bid``, ``play``...)."""
        for kind, first, count in self.segments:
            if first <= action_id < first + count:
                return kind
        raise ChimeraError(f"action {action_id} is outside the action space (0 to {self.size - 1})")

    def canonical(self, action_id: int) -> Key:
        """The canonical form of the action of ``action_id`` (see the module's text)."""
        if not 0 <= action_id < self.size:
            raise ChimeraError(f"action {action_id} is outside the action space (0 to {self.size - 1})")
        return self._keys[action_id]

    def describe_public(self, action_id: int) -> str:
        """The action of ``action_id`` as the other seats see it: a gift by its number of cards
        (``give 2 cards``; which cards, only those who see the transfer know), else
        :meth:`describe`."""
        key = self.canonical(action_id)
        if key[0] == "give":
            count = len(key[1]) if isinstance(key[1], tuple) else self.game.rules.deck.size_of(key[1])
            return f"give {count} card{'s' if count != 1 else ''}"
        return self.describe(action_id)

    def describe(self, action_id: int) -> str:
        """The action of ``action_id`` in words: ``pass``, ``bid 30``, ``play pair 7: 7 7``,
        ``give 3/red``, ``trump colour red``, ``partner +2``, ``card 7/red``, ``lay 1/red 7/blue``,
        ``call grand``."""
        if not 0 <= action_id < self.size:
            raise ChimeraError(f"action {action_id} is outside the action space (0 to {self.size - 1})")
        key = self._keys[action_id]
        kind = key[0]
        deck = self.game.rules.deck
        if kind == "pass":
            return "pass"
        if kind == "bid":
            return f"bid {key[1]}"
        if kind == "play":
            cards = " ".join(key[3]) if isinstance(key[3], tuple) else " ".join(deck.names_of(key[3]))
            return f"play {self.game.rules.combinations[key[1]].id} {key[2]}: {cards}"
        if kind == "give":
            return "give " + (" ".join(key[1]) if isinstance(key[1], tuple) else " ".join(deck.names_of(key[1])))
        if kind == "trump":
            what, value = key[1]
            if what == "none":
                return "trump none"
            return f"trump {what} " + (deck.colours[value] if what == "colour" else deck.ranks[value])
        if kind == "partner":
            return f"partner +{key[1]}"
        if kind == "card":
            return f"card {key[1]}"
        if kind == "wish":
            return "wish none" if key[1] < 0 else f"wish {deck.ranks[key[1]]}"
        if kind == "trick_to":
            return f"give the trick +{key[1]}"
        if kind == "call":
            return f"call {key[1]}"
        if kind in ("alone", "double", "redouble", "hold", "take", "hand"):
            return kind
        if kind in ("game", "declare"):
            return f"{kind} {key[1]}"
        return "lay " + " ".join(key[1])


def _sort_key(key) -> tuple:
    """A stable order of canonical play forms (combination, rank, then the cards)."""
    cards = key[3]
    return (key[1], key[2], (0, cards) if isinstance(cards, int) else (1, cards))


__all__ = ["ActionSpace", "UnsupportedVariant", "MAX_ACTIONS"]
