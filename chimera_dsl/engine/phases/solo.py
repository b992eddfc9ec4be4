"""One seat against the others, in a game it names (``kind: solo``): bidding by game values or
first come, the stock taken or not (a hand game), the game named among the file's ``games``.

A phase of kind ``solo`` runs before a trick play.  It finds the *declarer* (the round's
bidder, alone against the other seats), who may take the stock (the deal's ``nest``) into its
hand and lay as many cards away, then names the game it plays.  Each game says its trumps and
what the scoring reads of it::

    phases:
      bidding:
        kind: solo
        opener: dealer_left             # forehand: listens first, leads the first trick
        bids: [18, 20, 22, 23, 24, 27]  # the values a seat may bid (or: bids: games)
        stock: choice                   # the declarer takes the stock or plays hand (or: taken)
        games:
          clubs: {trump: clubs, top_trumps: [J/clubs, J/spades, J/hearts, J/diamonds], base: 12}
          grand: {trump: none, top_trumps: [J/clubs, J/spades, J/hearts, J/diamonds], base: 24}
          "null": {trump: none, plain_order: [A, K, Q, J, "10", "9", "8", "7"], base: 23,
                 hand_base: 35, no_tricks: true}

**Bidding by values** (``bids`` a list): the seat after the opener *says* values to the opener,
who *listens*: it holds each value (``Action("hold")``) or passes; the sayer bids a higher value
(``Action("bid", bid=VALUE)``) or passes.  The one who passes is out; the next seat then says to
the one left, from the value reached; the last seat left is the declarer at the last value held.
When nobody bid at all, the last seat left may still bid a value or pass: if it passes, the round
is void (nobody scores, the next dealer deals).  **First come** (``bids: games``): each seat in
turn from the opener names a game (``Action("game", cards=i)``, the ``i``-th of ``games``) or
passes; the first to name one is the declarer; all passing make the round void.

**The stock**: with ``stock: taken`` the declarer always takes it; with ``choice`` it takes it
(``Action("take")``) or plays hand (``Action("hand")``).  Taking it, it lays away as many cards
one at a time (``Action("card", mask=...)``), any of its hand.  The cards laid away (or the stock
untouched in a hand game) count in the declarer's tricks.  Then (with bidding by values) it names
its game; a game with ``hand_only: true`` is offered only in a hand game.

**A game**: ``trump`` (a colour, or ``none``); ``top_trumps``: cards that are trumps above all
others in this game, strongest first, whatever their colour (they belong to no colour then: a
lead of one asks for a trump); ``plain_order``: the order of the ranks outside trumps in this
game (the play's ``plain_order`` otherwise); ``base``: the number the scoring reads as
``game_base`` (``hand_base`` instead in a hand game, when given); ``no_tricks: true``: the
declarer undertakes to take no trick, and the play stops as soon as it takes one.

**Declarations** (``declarations``, in order): once the game is named, each one the game offers
(``games``; ``hand_only``: in a hand game only; ``needs``: after those named, where this game has
them) is put to the declarer, who says it (``Action("declare", cards=i)``) or not (``PASS``);
``open: true`` lays the declarer's hand face up for all (``table.exposed``).

The scoring reads (:func:`round_facts`): ``game_base``, ``hand_game`` (1: the stock was not
taken), ``no_trick_game``, ``tops`` (the trumps the declarer held, with the stock, from the
strongest down without a gap, or lacked from the strongest down: "with 2" and "without 2" both
give 2), ``declared`` (1 once a seat is the declarer), ``NAME_declared`` per declaration and
``bid`` (the last value held; 0 with first come).  The sides: the declarer alone, the others together (``bidder_side``).

The record's lines: ``{"type": "solo", "round", "seat", "call"}`` per decision (``pass``,
``hold``, a value, ``take``, ``hand``, a game's or a declaration's name), ``{"type": "discard",
"round", "seat", "card"}``, then ``{"type": "solo_game", "round", "declarer", "game", "bid",
"hand", "declared"}``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..actions import PASS, Action, phase_taking
from .order_up import _move as _order_up_move
from .tricks import card_action, card_actions, card_named, table_of

KINDS = ("solo",)
KEYS = ("opener", "bids", "stock", "games", "declarations")
DECLARATION_KEYS = ("games", "hand_only", "needs", "open", "names")
GAME_KEYS = ("trump", "top_trumps", "plain_order", "base", "hand_base", "no_tricks", "hand_only", "names")
HOLD = Action("hold")
TAKE = Action("take")
HAND = Action("hand")
ROUND_FACTS = ("game_base", "hand_game", "no_trick_game", "tops", "declared")
"""What the scoring reads of the game the declarer plays (see the module's text)."""


@dataclass(frozen=True)
class SoloGame:
    """A game a declarer may name."""

    name: str
    trump: tuple                       # ("colour", i) or ("none", -1)
    top: tuple[int, ...]               # card numbers, strongest first
    plain: tuple[int, ...] | None      # per rank index its strength outside trumps, or None: the play's
    base: int
    hand_base: int | None
    no_tricks: bool
    hand_only: bool
    names: tuple = ()                  # ((language, word), ...): the game's name in other languages


@dataclass(frozen=True)
class Declaration:
    """What a declarer may announce once its game is named (schneider, say)."""

    name: str
    games: frozenset[int]              # the games (indices) it is offered in
    hand_only: bool                    # offered only in a hand game
    needs: tuple[int, ...]             # declarations (indices) said first, where this game has them
    open: bool                         # the declarer's hand is then face up for all
    names: tuple = ()                  # ((language, word), ...)


@dataclass(frozen=True)
class SoloPhase:
    """A declarer found, the stock taken or not, a game named (see the module's text)."""

    name: str
    opener: object                     # a SeatExpr
    values: tuple[int, ...]            # the values a seat may bid, lowest first; () for first come
    stock_choice: bool                 # the declarer may play hand
    games: tuple[SoloGame, ...]
    declarations: tuple[Declaration, ...] = ()
    kind: str = "solo"

    @property
    def first_come(self) -> bool:
        return not self.values


class Solo(NamedTuple):
    """The phase's progress (immutable: a clone shares it)."""

    stage: str                         # bid (first come) | say | hold | open | stock | discard | game | declare | done
    turn: int
    bid: int = 0                       # the last value held or bid
    sayer: int | None = None
    listener: int | None = None
    waiting: tuple = ()                # the seats still to say, in order
    passes: int = 0                    # first come: passes so far
    declarer: int | None = None
    game: int = -1
    hand: bool = False
    left: int = 0                      # cards still to lay away
    offer: int = 0                     # the declaration offered (or the next to look at)
    said: tuple = ()                   # the declarations said (indices)


_SOLO_PLACES = {name: i for i, name in enumerate(Solo._fields)}


def _with(s: Solo, **changes) -> Solo:
    """``s`` with ``changes`` (as ``s._replace``, without its checks: the bidding takes several a round)."""
    values = list(s)
    for name, value in changes.items():
        values[_SOLO_PLACES[name]] = value
    return tuple.__new__(Solo, values)


def compile_solo(r, path: tuple, section: dict, roles: tuple, spec: dict) -> SoloPhase:
    """A phase of kind ``solo`` (``r`` reads seats and reports located errors)."""
    deck = r.rules.deck
    play = spec.get("play") or {}
    if play.get("kind") != "tricks":
        r.bad(path + ("kind",), "finds a declarer for a play of tricks, but this round's play is climbing",
              "write play: {kind: tricks}")
    if play.get("teams"):
        r.bad(path + ("kind",), "sets the declarer alone against the others, but play.teams fixes the sides",
              "remove play.teams")
    if play.get("trump") is not None:
        r.bad(path + ("kind",), "lets the declarer name the game and its trumps, but play.trump fixes a trump",
              "remove play.trump")
    bids = section.get("bids", "games")
    values: tuple = ()
    if bids != "games":
        if not (isinstance(bids, list) and bids and all(isinstance(v, int) and not isinstance(v, bool) and v > 0
                                                        for v in bids)):
            r.bad(path + ("bids",), f"is {bids!r}: the values a seat may bid, lowest first, or games",
                  "e.g. bids: [18, 20, 22, 23, 24], or bids: games (first come)")
        for i in range(1, len(bids)):
            if bids[i] <= bids[i - 1]:
                r.bad(path + ("bids", i), f"is {bids[i]}, not above the value before it ({bids[i - 1]})",
                      "list the values from the lowest up, each once")
        values = tuple(bids)
    stock = section.get("stock", "choice")
    if stock not in ("choice", "taken"):
        r.bad(path + ("stock",), f"is {stock!r}, not choice or taken", "write stock: choice (the declarer may play "
              "hand) or stock: taken")
    nest = int((spec.get("deal") or {}).get("nest", 0) or 0)
    written = section.get("games")
    if not isinstance(written, dict) or not written:
        r.bad(path + ("games",), "is missing: the games the declarer may name, each with its trumps",
              "e.g. games: {grand: {trump: none, top_trumps: [J/clubs, J/spades], base: 24}}")
    games = []
    for name, g in written.items():
        where = path + ("games", name)
        if not isinstance(g, dict):
            r.bad(where, "is a game: a map of trump, top_trumps, plain_order, base, hand_base, no_tricks",
                  "e.g. {trump: clubs, base: 12}")
        for key in g:
            if key not in GAME_KEYS:
                r.bad(where + (key,), "is not a setting of a game", "settings: " + ", ".join(GAME_KEYS))
        trump_text = str(g.get("trump", "none"))
        if trump_text == "none":
            trump = ("none", -1)
        elif trump_text in deck.colours:
            trump = ("colour", deck.colours.index(trump_text))
        else:
            r.bad(where + ("trump",), f"names '{trump_text}', which is neither a colour of the deck nor none",
                  "colours: " + ", ".join(deck.colours) + "; or none")
        top = []
        for i, card in enumerate(g.get("top_trumps") or []):
            c = deck.card_index.get(str(card).upper())
            if c is None:
                r.bad(where + ("top_trumps", i), f"names '{card}', which is no card of the deck",
                      "name a card: RANK/COLOUR")
            if c in top:
                r.bad(where + ("top_trumps", i), f"names '{card}' twice", "name each card once, strongest first")
            top.append(c)
        plain = None
        if g.get("plain_order") is not None:
            order = g["plain_order"]
            indices = []
            for i, v in enumerate(order if isinstance(order, list) else []):
                index = deck.index.get(str(v).upper())
                if index is None:
                    r.bad(where + ("plain_order", i), f"names the unknown rank '{v}'", "ranks: " + ", ".join(deck.ranks))
                indices.append(index)
            if not indices or len(set(indices)) != len(indices):
                r.bad(where + ("plain_order",), "is the order of the ranks outside trumps: each rank once, "
                      "strongest first", "e.g. [A, K, Q, J, \"10\", \"9\", \"8\", \"7\"]")
            strength = [0] * len(deck.ranks)
            for place, index in enumerate(reversed(indices)):
                strength[index] = place + 1
            plain = tuple(strength)
        for key in ("base", "hand_base"):
            value = g.get(key)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
                r.bad(where + (key,), f"is {value!r}, not a whole number", f"write {key}: N")
        for key in ("no_tricks", "hand_only"):
            if key in g and not isinstance(g[key], bool):
                r.bad(where + (key,), f"is {g[key]!r}, not true or false", f"write {key}: true or {key}: false")
        if g.get("hand_only") and (stock != "choice" or not values):
            r.bad(where + ("hand_only",), "offers the game only in a hand game, but the declarer never plays hand "
                  "(stock: taken) or names its game with its bid (bids: games)",
                  "write stock: choice and bids: [VALUES], or remove hand_only")
        words = g.get("names") or {}
        if not isinstance(words, dict):
            r.bad(where + ("names",), "gives the game's name per language", "e.g. names: {fr: trèfle, de: Kreuz}")
        games.append(SoloGame(str(name), trump, tuple(top), plain, int(g.get("base", 0) or 0),
                              None if g.get("hand_base") is None else int(g["hand_base"]),
                              bool(g.get("no_tricks", False)), bool(g.get("hand_only", False)),
                              tuple(sorted((str(k), str(v)) for k, v in words.items()))))
    declarations: list[Declaration] = []
    written_d = section.get("declarations") or {}
    if not isinstance(written_d, dict):
        r.bad(path + ("declarations",), "names what the declarer may announce once its game is named",
              "e.g. declarations: {schneider: {hand_only: true}}")
    game_names = [g.name for g in games]
    for name, d in written_d.items():
        where = path + ("declarations", name)
        d = d or {}
        if not isinstance(d, dict):
            r.bad(where, "is a declaration: a map of games, hand_only, needs, open", "e.g. {hand_only: true}")
        for key in d:
            if key not in DECLARATION_KEYS:
                r.bad(where + (key,), "is not a setting of a declaration", "settings: " + ", ".join(DECLARATION_KEYS))
        if str(name) in game_names:
            r.bad(where, f"is also the name of a game", "give the declaration another name")
        offered = set()
        for i, g in enumerate(d.get("games", game_names) or []):
            if str(g) not in game_names:
                r.bad(where + ("games", i), f"names '{g}', which is not a game of games", "games: " + ", ".join(game_names))
            offered.add(game_names.index(str(g)))
        needs = d.get("needs") or []
        needs = [needs] if isinstance(needs, str) else list(needs)
        known = [x.name for x in declarations]
        indices = []
        for i, n in enumerate(needs):
            if str(n) not in known:
                r.bad(where + ("needs",), f"names '{n}', which is not a declaration written before this one",
                      "declarations: " + (", ".join(known) or "none before it"))
            indices.append(known.index(str(n)))
        for key in ("hand_only", "open"):
            if key in d and not isinstance(d[key], bool):
                r.bad(where + (key,), f"is {d[key]!r}, not true or false", f"write {key}: true or {key}: false")
        if d.get("hand_only") and not (stock == "choice" and nest):
            r.bad(where + ("hand_only",), "is offered only in a hand game, but the declarer never plays hand",
                  "write stock: choice, or remove hand_only")
        words = d.get("names") or {}
        declarations.append(Declaration(str(name), frozenset(offered), bool(d.get("hand_only", False)),
                                        tuple(indices), bool(d.get("open", False)),
                                        tuple(sorted((str(k), str(v)) for k, v in words.items()))))
    if nest == 0 and (stock == "choice" or "stock" in section):
        r.bad(path + ("stock",), "takes the stock, but the deal leaves none (deal.nest is 0)",
              "write deal.nest: N, or remove stock")
    return SoloPhase(path[-1], r.seat(path + ("opener",), roles, default="dealer_left"), values,
                     stock == "choice" and nest > 0, tuple(games), tuple(declarations))


def round_facts(phase: SoloPhase) -> tuple[str, ...]:
    """What the scoring reads of ``phase``: :data:`ROUND_FACTS`, and ``NAME_declared`` for each
    declaration (1 when the declarer said it)."""
    return ROUND_FACTS + tuple(f"{d.name}_declared" for d in phase.declarations)


# -- the phase: the engine's hooks (chimera_dsl.engine.phases.registry) --------------------------

def _cached(game, phase: SoloPhase, what: str, make):
    cache = game.__dict__.get("_solo_actions")
    if cache is None:
        cache = game._solo_actions = {}
    found = cache.get((phase.name, what))
    if found is None:
        found = cache[(phase.name, what)] = make()
    return found


def game_actions(game, phase: SoloPhase) -> tuple:
    """Naming each game of ``phase``, in the file's order."""
    return _cached(game, phase, "games", lambda: tuple(Action("game", cards=i) for i in range(len(phase.games))))


def bid_actions(game, phase: SoloPhase) -> tuple:
    """Bidding each value of ``phase``, lowest first."""
    return _cached(game, phase, "bids", lambda: tuple(Action("bid", bid=v) for v in phase.values))


def declaration_actions(game, phase: SoloPhase) -> tuple:
    """Saying each declaration of ``phase``, in the file's order."""
    return _cached(game, phase, "declarations",
                   lambda: tuple(Action("declare", cards=i) for i in range(len(phase.declarations))))


def begin(state, phase: SoloPhase) -> bool:
    """The first seat to speak: the opener (first come), or the seat after it saying to it."""
    table = table_of(state)
    opener = state._seat(phase.opener)
    state.round_bid.bid = 0
    if phase.first_come:
        table.solo = Solo("bid", opener)
    else:
        order = [opener]
        while len(order) < state.n:
            order.append(state._after[order[-1]])
        table.solo = Solo("say", order[1], sayer=order[1], listener=opener, waiting=tuple(order[2:]))
    state._to_act = table.solo.turn
    return True


def legal(state, phase: SoloPhase) -> list:
    """The decisions of the seat to act (see the module's text)."""
    s = state.table.solo
    game = state.game
    if s.stage == "bid":
        return [PASS, *game_actions(game, phase)]
    if s.stage == "say" or s.stage == "open":
        return [PASS, *(a for a in bid_actions(game, phase) if a.bid > s.bid)]
    if s.stage == "hold":
        return [HOLD, PASS]
    if s.stage == "stock":
        return [TAKE, HAND]
    if s.stage == "discard":
        held = state.held[s.turn]
        return card_actions(game, held)
    if s.stage == "declare":
        return [PASS, declaration_actions(game, phase)[s.offer]]
    return [a for a, g in zip(game_actions(game, phase), phase.games) if s.hand or not g.hand_only]


def _call(state, seat: int, call: str) -> None:
    state._events.append({"type": "solo", "round": state.round, "seat": seat, "call": call})


def apply(state, action) -> None:
    """Take the decision of the seat to act (raises :class:`IllegalActionError`)."""
    phase = phase_taking(state, action, why_illegal)
    table = state.table
    s = table.solo
    seat = s.turn
    if s.stage == "bid":
        if action.kind == "pass":
            _call(state, seat, "pass")
            if s.passes + 1 == state.n:
                _void(state)
                return
            _turn(state, _with(s, turn=state._after[seat], passes=s.passes + 1))
            return
        _call(state, seat, phase.games[action.cards].name)
        _declarer(state, phase, _with(s, declarer=seat, game=action.cards))
        return
    if s.stage in ("say", "open"):
        if action.kind == "pass":
            _call(state, seat, "pass")
            if s.stage == "open":
                _void(state)
                return
            _duel_over(state, phase, s, s.listener)
            return
        _call(state, seat, str(action.bid))
        if s.stage == "open":
            _declarer(state, phase, _with(s, declarer=seat, bid=action.bid))
            return
        _turn(state, _with(s, stage="hold", turn=s.listener, bid=action.bid))
        return
    if s.stage == "hold":
        if action.kind == "hold":
            _call(state, seat, "hold")
            _turn(state, _with(s, stage="say", turn=s.sayer))
            return
        _call(state, seat, "pass")
        _duel_over(state, phase, s, s.sayer)
        return
    if s.stage == "stock":
        _call(state, seat, action.kind)
        if action.kind == "hand":
            _after_stock(state, phase, _with(s, hand=True))
            return
        _take(state, phase, s)
        return
    if s.stage == "discard":
        card = action.mask.bit_length() - 1
        _move(state, seat, card, -1)
        state.nest_cards |= 1 << card
        state.nest = state.game.rules.deck.key_of_mask(state.nest_cards)
        state._events.append({"type": "discard", "round": state.round, "seat": seat,
                              "card": state.game.rules.deck.card_names[card]})
        left = s.left - 1
        if left:
            _turn(state, _with(s, left=left))
            return
        _after_stock(state, phase, _with(s, left=0))
        return
    if s.stage == "declare":
        said = s.said
        if action.kind == "declare":
            _call(state, seat, phase.declarations[s.offer].name)
            said += (s.offer,)
        else:
            _call(state, seat, "pass")
        _declarations(state, phase, _with(s, offer=s.offer + 1, said=said))
        return
    _call(state, seat, phase.games[action.cards].name)
    _declarations(state, phase, _with(s, game=action.cards))


def _offered(phase: SoloPhase, s: Solo, i: int) -> bool:
    """Is declaration ``i`` offered to the declarer of ``s`` (its game, a hand game, those it needs)?"""
    d = phase.declarations[i]
    if s.game not in d.games or (d.hand_only and not s.hand):
        return False
    return all(n in s.said or s.game not in phase.declarations[n].games for n in d.needs)


def _declarations(state, phase: SoloPhase, s: Solo) -> None:
    """Offer the declarer the next declaration its game allows, or settle the game."""
    for i in range(s.offer, len(phase.declarations)):
        if _offered(phase, s, i):
            _turn(state, _with(s, stage="declare", turn=s.declarer, offer=i))
            return
    _settle(state, phase, _with(s, offer=len(phase.declarations)))


def _turn(state, s: Solo) -> None:
    state.table.solo = s
    state._to_act = s.turn


def _duel_over(state, phase: SoloPhase, s: Solo, winner: int) -> None:
    """The seat ``winner`` stays in; the next seat says to it, or the bidding is over."""
    if s.waiting:
        _turn(state, _with(s, stage="say", turn=s.waiting[0], sayer=s.waiting[0], listener=winner,
                                waiting=s.waiting[1:]))
        return
    if s.bid == 0:                                    # nobody bid: the seat left may bid or pass
        _turn(state, _with(s, stage="open", turn=winner, sayer=winner, listener=None))
        return
    _declarer(state, phase, _with(s, declarer=winner))


def _declarer(state, phase: SoloPhase, s: Solo) -> None:
    """The declarer is found: the sides are set; then the stock."""
    table = state.table
    declarer = s.declarer
    rb = state.round_bid
    rb.bidder = declarer
    rb.bid = s.bid
    others = tuple(x for x in range(state.n) if x != declarer)
    table.sides = [(declarer,) if x == declarer else others for x in range(state.n)]
    table.declared_by[0] = declarer
    if phase.stock_choice:
        _turn(state, _with(s, stage="stock", turn=declarer))
        return
    if state.nest_cards:
        _take(state, phase, s)
        return
    _after_stock(state, phase, s)


def _take(state, phase: SoloPhase, s: Solo) -> None:
    """The declarer takes the stock into its hand and lays as many cards away."""
    declarer = s.declarer
    stock = state.nest_cards
    count = stock.bit_count()
    while stock:
        low = stock & -stock
        _move(state, declarer, low.bit_length() - 1, +1)
        stock ^= low
    state.nest_holder = declarer
    state.nest_cards = 0
    state.nest = 0
    _turn(state, _with(s, stage="discard", turn=declarer, left=count))


def _after_stock(state, phase: SoloPhase, s: Solo) -> None:
    if s.game >= 0:
        _declarations(state, phase, s)
        return
    _turn(state, _with(s, stage="game", turn=s.declarer))


def _settle(state, phase: SoloPhase, s: Solo) -> None:
    """The game is named: its trumps rule the play (the stock counts for the declarer when the
    round is scored: :func:`chimera_dsl.engine.phases.tricks.end_round`)."""
    table = state.table
    g = phase.games[s.game]
    s = table.solo = _with(s, stage="done", turn=s.declarer)
    table.layers[0] = g.trump
    table.game = g
    table.settle(state.game.rules.deck)
    declarer = s.declarer
    table.tops = tops(table, state.held[declarer] | state.nest_cards)
    if any(phase.declarations[i].open for i in s.said):
        table.open_hand = declarer                     # its cards face up for all
    state._events.append({"type": "solo_game", "round": state.round, "declarer": declarer, "game": g.name,
                          "bid": s.bid, "hand": s.hand, "declared": [phase.declarations[i].name for i in s.said]})
    state._next_phase()


def tops(table, cards: int) -> int:
    """The trumps of ``cards`` from the strongest down without a gap, or missing from the
    strongest down ("with" or "without" so many)."""
    key = ("tops", table.trump_mask, table.strength)     # the trumps in order: the same for each game named
    trumps = table._cache.get(key)
    if trumps is None:
        trumps = table._cache[key] = sorted((c for c in range(table.trump_mask.bit_length())
                                             if table.trump_mask >> c & 1), key=lambda c: -table.strength[c])
    if not trumps:
        return 0
    first = cards >> trumps[0] & 1
    count = 0
    for c in trumps:
        if (cards >> c & 1) != first:
            break
        count += 1
    return count


def _void(state) -> None:
    """Every seat passed: nobody plays, nobody scores; the next dealer deals."""
    state.table.solo = None
    state._void_round()


def _move(state, seat: int, card: int, sign: int) -> None:
    _order_up_move(state, seat, card, sign)


def why_illegal(state, phase: SoloPhase, action) -> str:
    """Why ``action`` may not be taken now, in words."""
    s = state.table.solo
    seat = s.turn
    if not isinstance(action, Action):
        return f"{action!r} is not an Action"
    if s.stage == "bid":
        return f"seat {seat} names a game (Action('game', cards=i)) or passes, not a {action.kind}"
    if s.stage in ("say", "open"):
        if action.kind == "bid":
            return f"seat {seat} may not bid {action.bid}: it bids one of {list(phase.values)} above {s.bid}"
        return f"seat {seat} bids a value (Action('bid', bid=V)) or passes, not a {action.kind}"
    if s.stage == "hold":
        return f"seat {seat} holds {s.bid} (Action('hold')) or passes, not a {action.kind}"
    if s.stage == "stock":
        return f"seat {seat} takes the stock (Action('take')) or plays hand (Action('hand')), not a {action.kind}"
    if s.stage == "discard":
        return f"seat {seat} lays away one card of its hand (Action('card', mask=...))"
    if s.stage == "declare":
        return (f"seat {seat} announces {phase.declarations[s.offer].name} (Action('declare', cards={s.offer})) "
                f"or not (PASS), not a {action.kind}")
    if action.kind == "game" and isinstance(action.cards, int) and 0 <= action.cards < len(phase.games):
        return f"seat {seat} may name {phase.games[action.cards].name} only in a hand game"
    return f"seat {seat} names a game (Action('game', cards=i)), not a {action.kind}"


def action_of_event(state, phase: SoloPhase, event: dict):
    """The action a record's line stands for (replay); ValueError says why it cannot be."""
    s = state.table.solo
    seat = s.turn
    expected = "discard" if s.stage == "discard" else "solo"
    if event["type"] != expected:
        raise ValueError(f"expected a {expected} line by seat {seat}, found a {event['type']} line")
    if event.get("seat") != seat:
        raise ValueError(f"seat {event.get('seat')} acts out of turn: it is seat {seat}'s turn")
    if expected == "discard":
        card = card_named(state.game.rules.deck, event.get("card"), state.held[seat])
        if card is None:
            raise ValueError(f"card: seat {seat} holds no card {event.get('card')!r}")
        return card_action(state.game, card)
    call = str(event.get("call"))
    for action in legal(state, phase):
        if _name(phase, action) == call:
            return action
    raise ValueError(f"call: {call!r} is not a decision seat {seat} may take now")


def _name(phase: SoloPhase, action) -> str:
    if action.kind == "bid":
        return str(action.bid)
    if action.kind == "game":
        return phase.games[action.cards].name
    if action.kind == "declare":
        return phase.declarations[action.cards].name
    return action.kind
