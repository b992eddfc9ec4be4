"""Trick-taking: one card each per trick, follow the led suit, trumps win.

Two kinds of phase live here, beside the climbing phases of :mod:`chimera_dsl.engine.round`:

* ``tricks``: the play of a trick-taking round.  The leader plays any card, the others one
  card each in turn; the legal cards follow the file's composable rules (``follow``,
  ``exempt``, ``undertrump``); the strongest card takes the trick and its taker leads the
  next.  When the hands are empty the round is scored.
* ``trump``: a seat declares the trump (a colour, a rank, or no trump), perhaps after
  passing the choice once to its partner.

Trumps come in *layers*, strongest first (one layer in most games, two when two seats each
name one).  A card is a trump when it matches a layer; a trump belongs to no colour (it
answers a trump lead, and only a trump lead).  Among trumps, a card matching more layers, or a
stronger layer, beats one matching fewer or weaker ones; then ranks decide, in the
``trump_order`` for a trump colour, the plain order otherwise; equal cards (two copies, or
two cards of a trump rank in different colours) leave the trick to the first played.

Cards are read by identity (bit masks over the deck's cards), never by packed rank counts,
so the rules here hold for decks with any number of copies of a rank.

The round's state lives in a :class:`Table` (``state.table``), created by the first of these
phases in a round.  The engine calls :func:`begin`, :func:`legal` and :func:`apply` (through
:mod:`chimera_dsl.engine.phases.registry`, which also runs the auction's kinds).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from itertools import repeat
from operator import or_
from typing import Any, Callable

from ..actions import PASS, Action
from .announce import compile_announcements, on_card, settle_announcements
from .calls import made_names
from .constraints import Narrower, card_count_functions, card_identifiers, compile_must, play_functions
from .effects import change_values, compile_value_effect, is_value_effect, read_values, refuse_shadowed_values
from ...cards import bit_numbers
from ...errors import IllegalActionError, Problem, VariantError
from ..seats import SeatError, parse_teams
from ..slotcopy import slot_copier
from .. import zones

KINDS = ("trump", "tricks", "auction", "partner")
FOLLOW = ("suit", "suit_or_trump", "none")
UNDERTRUMP = ("allowed", "forbidden", "unless_only_trumps")
TRUMP_CHOICES = ("colours", "ranks", "none")
TRUMP_WEIGHT = 1 << 12             # a trump's strength is above every plain card's
TURNED = ("turned", -1)            # play.trump: turned: the colour of the card the deal turned face up
EXTRA = "extra"                    # in play.trump_order: the place of the extra trumps (play.trump_extra)


# -- the compiled phases ------------------------------------------------------------------------

@dataclass(frozen=True)
class TrumpPhase:
    """A seat declares a trump layer (see the module's text)."""

    name: str
    chooser: Any                      # a SeatExpr
    role: str | None                  # the role the chooser (the first asked) takes this round
    choices: tuple[str, ...]          # of TRUMP_CHOICES
    pass_to: str | None               # "partner": the chooser may pass the choice once to its partner
    layer: int                        # which layer it sets: 0 is the strongest
    from_laid: bool = False           # only colours and ranks of the cards the chooser laid face up
    kind: str = "trump"


@dataclass(frozen=True)
class TrickPhase:
    """The play of a trick-taking round (see docs/variant-format.md, "Trick-taking")."""

    name: str
    first_leader: Any                 # a SeatExpr
    follow: str                       # of FOLLOW
    exempt: frozenset                 # trump ranks that never have to follow a trump lead
    undertrump: str                   # of UNDERTRUMP
    plain_strength: tuple[int, ...]   # per rank index: its strength outside trumps
    trump_strength: tuple[int, ...]   # per rank index: its strength in a trump colour
    points: tuple[int, ...]           # per rank index: the points play.points gives the rank (its rank entries)
    trump_points: tuple[int, ...]     # per rank index: likewise for a card of a trump colour
    last_trick: int
    all_tricks: int
    teams: tuple[tuple[int, ...], ...]
    layers: int                       # how many trump layers the round may have
    default_trump: tuple | None = None      # a fixed trump, when no phase declares one
    announcements: Any = None         # compiled announcements (chimera_dsl.engine.phases.announce), or None
    kind: str = "tricks"
    # (trump, factor): every point of a round whose strongest trump is that one counts factor times
    trump_factors: tuple = ()
    # play.must: the rules that narrow the legal cards (chimera_dsl.engine.phases.constraints.Must)
    must: tuple = ()
    # play.points and play.trump_points as written: ((rank index | None, colour index | None, points), ...)
    point_entries: tuple = ()
    trump_point_entries: tuple = ()
    # per card number: its points, by rank, colour or card (what a trick counts), and as a card of
    # a trump colour
    card_points: tuple = ()
    trump_card_points: tuple = ()
    # play.trump_extra: per trump colour (index), the cards of other colours that are trumps with it
    trump_extra: tuple = ()
    extra_strength: int = 0          # their strength among the trumps (play.trump_order's extra)
    effects: tuple = ()               # play.effects: values changed after a card or a trick (effects.Effect)
    card_effects: tuple = ()          # ... those at play (after each card), read on every card
    trick_effects: tuple = ()         # ... those at trick_end (as each trick ends)
    draw: int = 0                     # play.draw: the cards each seat draws from the stock after a trick
    top_open: bool = False            # play.stock_top: face_up: the stock's top card lies face up, drawn first

    def factor(self, layer) -> int:
        """How many times a point counts under the strongest trump ``layer`` (None: no trump)."""
        trump = ("none", -1) if layer is None else layer
        for value, factor in self.trump_factors:
            if value == trump:
                return factor
        return 1

    def side(self, seat: int, n: int) -> tuple[int, ...]:
        """The seats of ``seat``'s side (its team, or itself alone)."""
        for team in self.teams:
            if seat in team:
                return team
        return (seat,)


TRICK_KEYS = ("follow", "exempt", "undertrump", "plain_order", "trump_order", "points", "trump_points",
              "last_trick", "all_tricks", "trump", "announcements", "trump_factors", "trump_extra", "draw",
              "stock_top")
TRUMP_KEYS = ("chooser", "role", "choices", "pass_to", "layer", "among", "excluded", "limit", "per_turn", "dispute",
              "second", "second_from", "opener")


def refuse_foreign_keys(path: tuple, section: dict, kind: str) -> None:
    """A key of the trick-taking phases written in a phase of another kind is an error, located."""
    keys, wants = (TRICK_KEYS, "play.kind: tricks") if kind == "play" else \
        (TRUMP_KEYS, "kind: trump, auction or partner")
    for key in keys:
        if key in section:
            _bad(path + (key,), f"is a setting of trick-taking ({wants}), not of a phase of kind {kind}",
                 f"write {wants}, or remove {key}")


def _bad(path: tuple, message: str, hint: str | None = None):
    name = ".".join(str(p) for p in path)
    raise VariantError([Problem(f"{name} {message}", tuple(path), hint=hint)])


def _rank(deck, value, path: tuple) -> int:
    index = deck.index.get(str(value).upper())
    if index is None:
        import difflib
        close = difflib.get_close_matches(str(value), list(deck.ranks), n=1)
        _bad(path, f"names the unknown rank '{value}'",
             f"did you mean '{close[0]}'?" if close else "ranks: " + ", ".join(deck.ranks))
    return index


def _point_entries(deck, table, path: tuple) -> tuple:
    """``play.points`` (or ``trump_points``) as written: each key a rank (``A``: every card of
    that rank), a colour (``hearts``: every card of that colour) or a card (``Q/spades``), with
    its points: ``((rank index or None, colour index or None, points), ...)``."""
    entries = []
    for key, points in (table or {}).items():
        text = str(key)
        where = path + (key,)
        if "/" in text:
            name, colour = text.split("/", 1)
            rank = _rank(deck, name.strip(), where)
            colour_index = _colour(deck, colour.strip(), where)
            if deck.card_index.get(f"{deck.ranks[rank]}/{deck.colours[colour_index]}".upper()) is None:
                _bad(where, f"names the card '{text}', which the deck does not hold", "name a card of the deck")
            entries.append((rank, colour_index, int(points)))
            continue
        is_colour = text.lower() in [c.lower() for c in deck.colours]
        is_rank = deck.index.get(text.upper()) is not None
        if is_colour and is_rank:
            _bad(where, f"'{text}' is both a rank and a colour of the deck",
                 f"write a card ({text}/COLOUR) or rename the rank")
        if is_colour:
            entries.append((None, _colour(deck, text, where), int(points)))
        else:
            entries.append((_rank(deck, text, where), None, int(points)))
    return tuple(entries)


def _per_rank(deck, entries: tuple, default) -> tuple[int, ...]:
    """Each rank's points by the rank entries alone (``A: 11``), others at ``default``."""
    values = list(default)
    for rank, colour, points in entries:
        if colour is None:
            values[rank] = points
    return tuple(values)


def _colour(deck, text: str, path: tuple) -> int:
    lowered = [c.lower() for c in deck.colours]
    if text.lower() not in lowered:
        import difflib
        close = difflib.get_close_matches(text, list(deck.colours) + list(deck.ranks), n=1)
        _bad(path, f"names '{text}', which is neither a rank nor a colour of the deck",
             f"did you mean '{close[0]}'?" if close else "colours: " + ", ".join(deck.colours))
    return lowered.index(text.lower())


def _per_card(deck, entries: tuple, default: tuple | None = None) -> tuple[int, ...]:
    """Each card's points: the sum of the entries naming its rank, its colour or itself (a card
    no entry names: its ``default``, or 0)."""
    values = []
    for c, rank in enumerate(deck.card_rank):
        colour = deck.card_colour[c]
        named = [p for r, k, p in entries if (r is None or r == rank) and (k is None or k == colour)]
        values.append(sum(named) if named or default is None else default[c])
    return tuple(values)


def compile_trump(r, path: tuple, section: dict, roles: tuple) -> TrumpPhase:
    """A ``trump`` phase of the file (``r`` reads seats and reports located errors)."""
    spec = r.spec
    choices = section.get("choices", ["colours"])
    if isinstance(choices, str):
        choices = [choices]
    choices = tuple(str(c) for c in choices)
    if "colours" in choices and not r.rules.deck.colours:
        _bad(path + ("choices",), "offers the colours as trump, but the deck has no colours",
             "give deck.colours, or choose ranks")
    if not [c for c in choices if c != "none"]:
        _bad(path + ("choices",), "offers nothing to choose but no trump", "add colours or ranks")
    role = section.get("role")
    if role is not None and str(role) not in roles:
        _bad(path + ("role",), f"names the role '{role}', which roles: does not define",
             "add it to roles:, e.g. roles: {" + f"{role}: ..." + "}")
    pass_to = section.get("pass_to", "nobody")
    if pass_to == "partner" and not (spec.get("play") or {}).get("teams"):
        _bad(path + ("pass_to",), "passes the choice to the partner, but play.teams forms no teams",
             "give play.teams, e.g. [[0, 2], [1, 3]]")
    source = section.get("among", "hand")
    # a chooser that may name nobody (a role not given every round) skips the phase then
    chooser = r.seat(path + ("chooser",), roles, required=False)
    return TrumpPhase(path[-1], chooser, None if role is None else str(role),
                      choices, None if pass_to == "nobody" else str(pass_to), int(section.get("layer", 0)),
                      source == "laid")


def compile_tricks(r, path: tuple, section: dict, roles: tuple, phases: list) -> TrickPhase:
    """The ``play`` section of kind ``tricks``."""
    deck = r.rules.deck
    r.rules.reads_colours = True          # cards are told apart by colour here
    players = r.spec["players"]
    ranks = len(deck.ranks)
    follow = section.get("follow", "suit")
    if not deck.colours:
        _bad(path, "plays tricks, which need colours: the deck has none", "give deck.colours and per_colour cards")
    plain = list(range(ranks))
    order = section.get("plain_order")
    if order is not None:
        indices = [_rank(deck, v, path + ("plain_order", i)) for i, v in enumerate(order)]
        for i, index in enumerate(indices):     # as trump_order: a rank named twice ranks where?
            if index in indices[:i]:
                _bad(path + ("plain_order", i), f"names {deck.ranks[index]} a second time",
                     "name each rank once, strongest first")
        plain = [0] * ranks
        for place, index in enumerate(reversed(indices)):
            plain[index] = place + 1
    trump = list(plain)
    order = section.get("trump_order")
    extra_strength = 0                    # where the extra trumps (trump_extra) rank: below every trump rank
    if order is not None:
        order = list(order)
        if EXTRA in order and deck.index.get(EXTRA.upper()) is None:
            if order.count(EXTRA) > 1:
                _bad(path + ("trump_order",), f"names {EXTRA} twice", f"name {EXTRA} once, where the extra trumps rank")
            if not section.get("trump_extra"):
                _bad(path + ("trump_order", order.index(EXTRA)), "places the extra trumps, but play.trump_extra "
                     "names none", "give play.trump_extra, e.g. {hearts: [J/diamonds]}, or remove extra")
            extra_strength = len(order) - order.index(EXTRA)
        indices = [_rank(deck, v, path + ("trump_order", i)) for i, v in enumerate(order) if v != EXTRA]
        if sorted(indices) != sorted(set(indices)):
            _bad(path + ("trump_order",), "names a rank twice", "name each rank once, strongest first")
        trump = [0] * ranks
        for place, index in enumerate(reversed(indices)):
            trump[index] = place + 1 + (1 if extra_strength and place + 1 >= extra_strength else 0)
    trump_extra = _trump_extra(deck, section.get("trump_extra"), path + ("trump_extra",))
    point_entries = _point_entries(deck, section.get("points"), path + ("points",))
    trump_entries = _point_entries(deck, section.get("trump_points"), path + ("trump_points",))
    card_points = _per_card(deck, point_entries)
    trump_card_points = _per_card(deck, trump_entries, card_points)
    points = _per_rank(deck, point_entries, [0] * ranks)
    trump_points = _per_rank(deck, trump_entries, points)
    exempt = frozenset(_rank(deck, v, path + ("exempt", i)) for i, v in enumerate(section.get("exempt") or []))
    if exempt and follow == "none":
        _bad(path + ("exempt",), "frees trumps from following a trump lead, but follow: none asks no card to follow",
             "remove exempt, or write follow: suit")
    try:
        teams = parse_teams(section.get("teams") or [], players)
    except SeatError as error:
        _bad(path + ("teams",) + error.path, error.message, error.hint)
    layers = sum(1 for p in phases if getattr(p, "kind", None) == "trump")
    default_trump = None
    fixed = section.get("trump")
    if fixed == "turned":                 # the colour of the card turned face up in the deal
        deal = r.spec.get("deal") or {}
        if not (deal.get("turn_up") or deal.get("face_up")):
            _bad(path + ("trump",), "is the colour of the turned card, but the deal turns no card face up",
                 "write deal.turn_up: true")
        default_trump = TURNED
    elif fixed is not None:
        default_trump = _trump_value(deck, fixed, path + ("trump",))
    announcements = None
    if section.get("announcements"):
        announcements = compile_announcements(deck, section["announcements"], path + ("announcements",), trump,
                                              _rank)
    factors: list[tuple[tuple, int]] = []
    for value, factor in (section.get("trump_factors") or {}).items():
        where = path + ("trump_factors", value)
        trump_value = _trump_value(deck, value, where)
        if any(trump_value == seen for seen, _ in factors):
            _bad(where, "names a trump already given a factor", "give each trump one factor")
        factors.append((trump_value, int(factor)))
    effects = compile_effects(r.rules, path, section)
    return TrickPhase(path[-1], r.seat(path + ("first_leader",), roles, default="dealer_left"), str(follow),
                      exempt, str(section.get("undertrump", "allowed")), tuple(plain), tuple(trump), points,
                      trump_points, int(section.get("last_trick", 0)), int(section.get("all_tricks", 0)), teams,
                      max(layers, 1), default_trump, announcements, trump_factors=tuple(factors),
                      must=compile_must(deck, path + ("must",), section.get("must")),
                      point_entries=point_entries, trump_point_entries=trump_entries,
                      card_points=card_points, trump_card_points=trump_card_points, trump_extra=trump_extra,
                      extra_strength=extra_strength, effects=effects,
                      card_effects=tuple(e for e in effects if e.at == "play"),
                      trick_effects=tuple(e for e in effects if e.at == "trick_end"),
                      draw=int(section.get("draw") or 0), top_open=_stock_top(r, path, section))


def _stock_top(r, path: tuple, section: dict) -> bool:
    """``play.stock_top``: does the stock's top card lie face up (``face_up``: the turned card of
    ``deal.turn_up`` on top, drawn first, the next card turned once the seats have drawn), or the
    turned card under the stock, drawn last (``face_down``, the default)?"""
    top = section.get("stock_top", "face_down")
    if top != "face_up":
        return False
    if not section.get("draw"):
        _bad(path + ("stock_top",), "lays the stock's top card face up, but the play draws nothing from the stock",
             "write play.draw: 1, or remove stock_top")
    if not (r.spec.get("deal") or {}).get("turn_up"):
        _bad(path + ("stock_top",), "lays the stock's top card face up, but the deal turns no card up",
             "write deal.turn_up: true")
    return True


def _trump_extra(deck, table, path: tuple) -> tuple[int, ...]:
    """``play.trump_extra``: per trump colour, the cards of other colours that are trumps when it
    is (a mask per colour index)."""
    masks = [0] * len(deck.colours)
    if table is None:
        return tuple(masks)
    if not isinstance(table, dict):
        _bad(path, "maps a trump colour to the cards it adds to the trumps", "e.g. {hearts: [J/diamonds]}")
    for colour, cards in table.items():
        where = path + (colour,)
        index = _colour(deck, str(colour), where)
        for i, name in enumerate(cards if isinstance(cards, list) else [cards]):
            card = deck.card_index.get(str(name).upper())
            if card is None:
                _bad(where + (i,), f"names '{name}', which is no card of the deck", "name a card: RANK/COLOUR")
            if deck.card_colour[card] == index:
                _bad(where + (i,), f"names '{name}', a {colour} already: a trump when {colour} is",
                     "name a card of another colour")
            masks[index] |= 1 << card
    return tuple(masks)


def _trump_value(deck, text, path: tuple) -> tuple:
    """A trump written in the file: a colour, a rank, or none."""
    text = str(text)
    if text == "none":
        return ("none", -1)
    if text in deck.colours:
        return ("colour", deck.colours.index(text))
    if deck.index.get(text.upper()) is None:
        import difflib
        close = difflib.get_close_matches(text, list(deck.colours) + list(deck.ranks) + ["none"], n=1)
        _bad(path, f"names '{text}', which is neither a colour, a rank nor none",
             f"did you mean '{close[0]}'?" if close else
             "colours: " + ", ".join(deck.colours) + "; ranks: " + ", ".join(deck.ranks) + "; or none")
    return ("rank", _rank(deck, text, path))


# -- the round's table ---------------------------------------------------------------------------

class Table:
    """The trick-taking state of one round: the trumps, the trick on the table, what each seat took."""

    # slots: an auction's turn reads and writes a dozen of these (faster than an instance dict)
    __slots__ = ("deal", "spec", "layers", "declared_by", "trick", "taken", "tricks", "points", "count",
                 "last_winner", "first_card", "announced", "announce_winner", "bonus", "first_order",
                 "pair_holder", "pair_cards", "pair_shown", "ends_now", "sides", "laid", "auction_passes", "lay_order",
                 "lay_counts", "free_cards", "lays", "lay_best", "lay_top", "next_seat", "auction", "lay_cap", "log",
                 "played_by", "lacks", "role_seats", "dummy", "turn", "exposed",
                 "chooser", "passed", "_cache", "colour_of", "rank_of", "trump_suit",
                 "suit", "strength", "card_points", "trump_mask", "suit_masks", "exempt_mask", "factor",
                 "out", "alone", "lone_defender", "making", "pair_bonus", "solo", "game", "tops", "open_hand",
                 "rare", "listed", "plain_follow", "must", "drawn_open")

    def __init__(self, state, spec: TrickPhase):
        deck = state.game.rules.deck
        n = state.n
        self.deal = state.deal_number
        self.spec = spec
        self.layers: list = [None] * spec.layers          # per layer: ("colour", i) | ("rank", i) | ("none", -1)
        self.declared_by: list = [None] * spec.layers
        self.trick: list = []                             # [(seat, card number)]
        self.taken = [0] * n                              # cards each seat took (mask)
        self.tricks = [0] * n                             # tricks each seat took
        self.points = [0] * n                             # card points of the tricks each seat took
        self.count = 0                                    # tricks played
        self.last_winner: int | None = None
        self.first_card = [True] * n
        self.announced: list = list(map(list, repeat((), n)))   # per seat, its announcements (announce.Meld)
        self.announce_winner: tuple | None = None         # the side whose announcements score
        self.bonus = [0] * n                              # announcement points, per seat's side
        self.pair_bonus = [0] * n                         # of which the trump pair's, per seat's side
        self.first_order: list = []                       # who played in the first trick, in order
        self.pair_holder: int | None = None               # who holds the trump pair (announce.py)
        self.pair_cards = 0
        self.pair_shown = False
        self.ends_now = False                             # announcements scored at once ended the game
        self.sides: list | None = None                    # per seat, its side, when a phase forms them
        self.laid = [0] * n                               # cards laid face up (an auction), per seat
        self.auction_passes = 0                           # passes in a row in an auction
        self.lay_order = [0] * n                          # per seat, when it last laid (ties of an auction)
        self.lay_counts = [0] * n                         # per seat, how many cards it laid
        self.free_cards: list[tuple[int, tuple[int, ...]]] = [(0, ())] * n   # per seat, (its free cards, their numbers)
        self.lays = 0                                     # lays so far in an auction
        self.lay_best = 0                                 # the most cards a seat laid (max of lay_counts)
        self.lay_top = 0                                  # the most a seat's count may reach (lay_best + limit)
        self.next_seat: tuple = ()                        # per seat, the seat after it in an auction
        self.auction = None                               # the auction phase under way
        self.lay_cap = 0                                  # the most cards a turn may lay (its per_turn)
        self.log: Any = None                              # an auction's turns not yet written in the record
        self.played_by = [0] * n                          # cards each seat played this round (mask)
        self.lacks = [0] * n                              # cards each seat showed it does not hold
        self.role_seats: dict = {}
        self.dummy: int | None = None                     # the seat whose cards its partner plays (a contract's dummy)
        self.turn = 0                                     # the seat whose card is played next (the dummy's, its partner deciding)
        self.exposed = False                              # are the dummy's cards face up for all (after the opening lead)?
        self.chooser: int | None = None
        self.passed = False
        self.out = 0                                      # the seats sitting the hand out (a bit each)
        self.alone = False                                # the bidder goes alone (its partner sits out)
        self.lone_defender: int | None = None             # the defender going alone, if one does
        self.making: Any = None                           # an order_up phase's progress (order_up.py)
        self.solo: Any = None                             # a solo phase's progress (solo.py)
        self.game: Any = None                             # the game a solo phase's declarer named (solo.SoloGame)
        self.tops = 0                                     # its trumps held from the top, or lacked (solo.tops)
        self.open_hand: int | None = None                 # a declarer whose hand is face up for all (solo)
        self.listed = None                                # the game's card_actions (kept on the table: read per card)
        self.plain_follow = False                         # legal_mask is the led suit or any card (set by settle)
        self.must = None                                  # (the phase, its play.must rules, ...), kept while it plays
        self.drawn_open: list | None = None               # per seat, the cards it drew face up (play.stock_top)
        self.rare = True                                  # a dummy, announcements, effects of a card or a seat
                                                          # out this round (set as the play begins)
        game = state.game
        self._cache = game.__dict__.get("_trick_tables")
        if self._cache is None:
            self._cache = game._trick_tables = {}
        statics = self._cache.get("colour_of")
        if statics is None:
            colours = deck.colours
            statics = self._cache["colour_of"] = tuple(-1 if c is None else colours.index(c) for _, c in deck.cards)
        self.colour_of = statics
        self.rank_of = deck.card_rank
        self.trump_suit = len(deck.colours)
        if spec.default_trump == TURNED:
            card = state.face_up_card
            self.layers[0] = None if card is None or self.colour_of[card] < 0 else ("colour", self.colour_of[card])
        elif spec.default_trump is not None:
            self.layers[0] = spec.default_trump
        self.settle(deck)

    def side(self, seat: int) -> tuple[int, ...]:
        """The seats playing with ``seat`` this round: the side a phase formed, a team of the
        file, or itself."""
        sides = self.sides
        return sides[seat] if sides is not None else _spec_sides(self.spec, len(self.taken))[seat]

    def copy(self) -> "Table":
        """An independent copy (for :meth:`State.clone`)."""
        other = Table.__new__(Table)
        _copy_table(self, other)
        for name in ("layers", "declared_by", "trick", "taken", "tricks", "points", "first_card", "bonus", "pair_bonus",
                     "first_order", "laid", "lay_counts", "lay_order", "free_cards", "played_by", "lacks"):
            setattr(other, name, list(getattr(self, name)))
        other.announced = [list(a) for a in self.announced]
        if self.drawn_open is not None:
            other.drawn_open = list(self.drawn_open)
        other.role_seats = dict(self.role_seats)
        other.log = None                                  # the copy's next turns start their own
        return other

    def settle(self, deck) -> None:
        """Compute each card's suit, strength and points from the trumps declared so far (cached
        per set of trumps: a game meets few of them)."""
        # (a solo phase's game by identity: one of its phase's games, kept as long as the game is)
        key = (self.spec.name, tuple(self.layers), None if self.game is None else id(self.game))
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._settle(deck)
        (self.suit, self.strength, self.card_points, self.trump_mask, self.suit_masks, self.exempt_mask,
         self.factor) = found
        # the rules of following are the plainest (legal_mask: the led suit if the hand has it, else any card)
        spec = self.spec
        self.plain_follow = spec.follow == "suit" and spec.undertrump == "allowed" and not self.exempt_mask

    def _settle(self, deck) -> tuple:
        spec = self.spec
        n_cards = len(deck.cards)
        suit = [0] * n_cards
        strength = [0] * n_cards
        points = [0] * n_cards
        trump_mask = 0
        layers = self.layers
        count = len(layers)
        factor = spec.factor(layers[0] if layers else None)     # the strongest trump's (play.trump_factors)
        extras = spec.trump_extra
        game = self.game                                 # a solo phase's game: its top trumps, its plain order
        top = {c: len(game.top) - i for i, c in enumerate(game.top)} if game is not None else {}
        plain_strength = game.plain if game is not None and game.plain is not None else spec.plain_strength
        for c in range(n_cards):
            rank, colour = self.rank_of[c], self.colour_of[c]
            if c in top:                                 # above every trump of the layers, in its own order
                trump_mask |= 1 << c
                suit[c] = self.trump_suit
                strength[c] = TRUMP_WEIGHT * (1 << count) + top[c]
                points[c] = spec.trump_card_points[c] * factor
                continue
            score = 0
            colour_trump = False
            extra = False
            for i, layer in enumerate(layers):
                if layer is None or layer[0] == "none":
                    continue
                if (layer[0] == "colour" and layer[1] == colour) or (layer[0] == "rank" and layer[1] == rank):
                    score |= 1 << (count - 1 - i)
                    colour_trump = colour_trump or layer[0] == "colour"
                elif layer[0] == "colour" and extras and extras[layer[1]] >> c & 1:
                    score |= 1 << (count - 1 - i)       # a card of another colour that is a trump with this one
                    colour_trump = extra = True
            if score:
                trump_mask |= 1 << c
                suit[c] = self.trump_suit
                in_order = spec.trump_strength[rank] if colour_trump else plain_strength[rank]
                if extra:
                    in_order = spec.extra_strength
                # a card matching only rank layers: all of that rank are equal
                if not colour_trump:
                    in_order = 0
                strength[c] = TRUMP_WEIGHT * score + in_order
            else:
                suit[c] = colour
                strength[c] = plain_strength[rank]
            points[c] = (spec.trump_card_points[c] if colour_trump else spec.card_points[c]) * factor
        suit_masks = [0] * (self.trump_suit + 1)
        for c in range(n_cards):
            suit_masks[suit[c]] |= 1 << c
        exempt = 0
        for c in range(n_cards):
            if trump_mask >> c & 1 and self.rank_of[c] in spec.exempt:
                exempt |= 1 << c
        return tuple(suit), tuple(strength), tuple(points), trump_mask, tuple(suit_masks), exempt, factor

    # -- the rules of one trick ------------------------------------------------------------------
    def legal_mask(self, held: int) -> int:
        """The cards of ``held`` that may be played now."""
        trick = self.trick
        if not trick:
            return held
        spec = self.spec
        trumps = held & self.trump_mask
        if spec.follow == "none":                # no card must answer the lead (the limits on undertrumping aside)
            legal = held
        else:
            led = self.suit[trick[0][1]]
            same = held & self.suit_masks[led]
            if led == self.trump_suit:
                if same & ~self.exempt_mask:
                    return same
                return held
            if same:
                legal = same | trumps if spec.follow == "suit_or_trump" else same
            else:
                legal = held
        if spec.undertrump != "allowed" and trumps:
            best = self.best_trump()
            if best is not None:
                if spec.undertrump == "unless_only_trumps" and trumps == held:
                    return legal
                strength = self.strength
                lower = 0
                for c in bit_numbers(trumps):
                    if strength[c] < best:
                        lower |= 1 << c
                if legal & ~lower:
                    legal &= ~lower
        return legal

    def shown_lacking(self, led_card: int, card: int) -> int:
        """The cards a seat shows it does not hold by answering ``led_card`` with ``card``
        (by the rules of following of :meth:`legal_mask`; the limits on undertrumping are
        not read, so this may tell less than the seat showed, never more)."""
        suit = self.suit
        led = suit[led_card]
        if suit[card] == led or self.spec.follow == "none":
            return 0
        if led == self.trump_suit:
            return self.suit_masks[led] & ~self.exempt_mask
        if suit[card] == self.trump_suit and self.spec.follow == "suit_or_trump":
            return 0                 # trumping is allowed while holding the led suit
        return self.suit_masks[led]

    def best_trump(self) -> int | None:
        """The strength of the best trump in the trick, or None."""
        best = None
        trump = self.trump_suit
        for _, c in self.trick:
            if self.suit[c] == trump and (best is None or self.strength[c] > best):
                best = self.strength[c]
        return best

    def winner(self) -> int:
        """The seat whose card takes the trick (on equal cards, the first played)."""
        suit, strength = self.suit, self.strength
        trump = self.trump_suit
        best_seat, best = self.trick[0]
        for seat, c in self.trick[1:]:
            if suit[c] == suit[best]:
                if strength[c] > strength[best]:
                    best_seat, best = seat, c
            elif suit[c] == trump:
                best_seat, best = seat, c
        return best_seat


# -- the engine's hooks ----------------------------------------------------------------------------

def card_action(game, card: int):
    """The action of playing card number ``card`` (shared, cached on the game)."""
    actions = game.__dict__.get("_card_actions")
    if actions is None:
        actions = game._card_actions = tuple(Action("card", mask=1 << c) for c in range(len(game.rules.deck.cards)))
    return actions[card]


def trump_actions(game, phase: TrumpPhase) -> list:
    """Every choice the ``phase`` offers, as actions ``Action("trump", cards=i)`` over :func:`trump_options`."""
    cache = game.__dict__.setdefault("_trump_actions", {})
    found = cache.get(phase.name)
    if found is None:
        found = cache[phase.name] = tuple(Action("trump", cards=i) for i in range(len(trump_options(game, phase))))
    return list(found)


def trump_options(game, phase: TrumpPhase) -> list[tuple]:
    """The trumps ``phase`` offers, in order: ``("colour", i)``, ``("rank", i)``, ``("none", -1)``."""
    cache = game.__dict__.setdefault("_trump_options", {})
    found = cache.get(phase.name)
    if found is None:
        deck = game.rules.deck
        found = []
        for choice in phase.choices:
            if choice == "colours":
                found += [("colour", i) for i in range(len(deck.colours))]
            elif choice == "ranks":
                found += [("rank", i) for i in range(len(deck.ranks))]
            else:
                found.append(("none", -1))
        cache[phase.name] = found
    return found


def trump_name(deck, layer) -> str:
    """A trump as the game record writes it: a colour, a rank, or ``none``."""
    if layer is None or layer[0] == "none":
        return "none"
    return deck.colours[layer[1]] if layer[0] == "colour" else deck.ranks[layer[1]]


_copy_table = slot_copier(Table.__slots__)


def table_of(state, spec: TrickPhase | None = None) -> Table:
    """The round's table, made when the round's first trick-taking phase begins."""
    table = getattr(state, "table", None)
    if table is None or table.deal != state.deal_number:
        table = state.table = Table(state, spec or _play_spec(state))
    return table


def _play_spec(state) -> TrickPhase:
    return of_phases(_PLAY_SPECS, state._round.phases, lambda phases: next(p for p in phases if p.kind == "tricks"))


def of_phases(cache: dict, phases: tuple, find: Callable[[tuple], Any]) -> Any:
    """``find(phases)``, found once per round's phases: kept in ``cache`` by their identity,
    with the phases themselves (so that a key is never another's reused id)."""
    found = cache.get(id(phases))
    if found is None or found[0] is not phases:
        if len(cache) >= 256:
            cache.clear()
        found = cache[id(phases)] = (phases, find(phases))
    return found[1]


_PLAY_SPECS: dict[int, tuple] = {}     # per round's phases: the trick-taking play


def narrower(game, phase: TrickPhase) -> Narrower:
    """The ``play.must`` rules of ``phase``, bound to the game (cached: they keep the cards each
    rule accepts per set of trumps)."""
    found = phase.__dict__.get("_narrower")        # kept on the phase, which is the game's own
    if found is not None and found[0] is game:
        return found[1]
    found = game.__dict__.get("_narrowers")
    found = found.get(phase.name) if found is not None else None
    if found is None:
        found = game.__dict__.setdefault("_narrowers", {})[phase.name] = Narrower(phase.must,
                                                                                  game.rules.spec["players"])
    phase.__dict__["_narrower"] = (game, found)
    return found


def begin(state, phase) -> bool:
    """Begin ``phase`` (a trump or tricks phase); True when a seat must decide, False when it is
    over already."""
    if phase.kind == "trump":
        table = table_of(state)
        seat = phase.chooser.resolve(state)
        if seat is None:
            return False                      # nobody to choose (a role nobody holds this round): no trump on this layer
        table.chooser = seat
        table.passed = False
        if phase.role is not None:
            table.role_seats[phase.role] = seat
        state._to_act = seat
        return True
    table = table_of(state, phase)
    table.settle(state.game.rules.deck)
    # what the play of a card reads only where the round has it (known before the first card)
    table.rare = table.dummy is not None or phase.announcements is not None or bool(phase.card_effects) \
        or table.out != 0
    leader = state._seat(phase.first_leader)
    while table.out >> leader & 1:                        # a seat sitting the hand out leads no trick
        leader = (leader + state.step) % state.n
    state.leader = leader
    give_turn(state, table, leader)
    return True


def give_turn(state, table: Table, seat: int) -> None:
    """The next card is ``seat``'s: its own decision, or its partner's when it is the dummy."""
    table.turn = seat
    state._to_act = state.round_bid.bidder if seat == table.dummy else seat


def legal(state, phase) -> list:
    """The legal actions of the seat to act in ``phase`` (a trump or tricks phase)."""
    game = state.game
    if phase.kind == "trump":
        out = trump_actions(game, phase)
        table = state.table
        if phase.from_laid:
            deck = game.rules.deck
            laid = [deck.cards[c] for c in bit_numbers(table.laid[state._to_act])]
            options = trump_options(game, phase)
            out = [a for a, (kind, value) in zip(out, options)
                   if kind == "none" or any((kind == "rank" and r == value) or
                                            (kind == "colour" and deck.colours.index(c) == value) for r, c in laid)]
        if phase.pass_to is not None and not table.passed:
            out.append(PASS)
        return out
    return play_legal(state, phase)


def play_legal(state, phase: TrickPhase) -> list:
    """The legal cards of the seat to play in a tricks phase (the hook of the kind ``tricks``)."""
    table = state.table
    held = state.held[table.turn]
    trick = table.trick
    if not trick:
        mask = held
    elif table.plain_follow:                # follow the led suit if the hand can, else anything
        mask = held & table.suit_masks[table.suit[trick[0][1]]] or held
    else:
        mask = table.legal_mask(held)
    if phase.must:                          # play.must narrows what following allows
        must = table.must
        if must is None or must[0] is not phase:
            rules = narrower(state.game, phase)
            # (the phase, its rules, and the index of the trick from which none holds for a seat that follows)
            must = table.must = (phase, rules, rules.free_following_from(len(state.game.rules.deck.cards)) - 1)
        if not trick or table.count < must[2]:
            rules = must[1]
            by_turn = rules.by_turn           # (the rules' conditions read the trick's number and the lead alone)
            if by_turn is not None:
                turn = table.count * 2 + 2 + (not trick)
                holding = by_turn.get(turn)
                if holding is None:
                    holding = rules.holding(table.count + 1, not trick, state.round, held)
                    if holding is not None:
                        by_turn[turn] = holding
            else:
                holding = rules.holding(table.count + 1, not trick, state.round, held)
            if holding != 0:
                played = _played(table) if rules.reads_played else 0
                trumps_key = (phase.name, tuple(table.layers))
                narrowed = None
                if holding is not None and not rules.reads_trick:
                    narrowed = rules.narrow_kept(mask, held, played, table.count + 1, not trick, state.round,
                                                 trumps_key, holding)
                if narrowed is None:
                    narrowed = rules.narrow(mask, held, played, table.count + 1, not trick, state.round,
                                            table.card_points, trumps_key,
                                            trick_context(table, held) if rules.reads_trick else None, holding)
                mask = narrowed
    listed = table.listed
    if listed is None:
        game = state.game
        listed = table.listed = game.__dict__.get("_card_lists") or _card_lists(game)
    return listed(mask)


def card_actions(game, mask: int) -> list:
    """The actions of playing each card of ``mask``, lowest first (a fresh list)."""
    return (game.__dict__.get("_card_lists") or _card_lists(game))(mask)


def _card_lists(game):
    """The function listing the card actions of a mask (:func:`card_actions`), made once per
    game: it reads the mask in four slices, each slice's actions kept in a table the first time
    they are read, instead of a step per card (a deck of at most 64 cards; a step per card for
    a larger one)."""
    card_action(game, 0)
    actions = game._card_actions
    size = len(actions)
    if size > 64:
        def listed(mask: int) -> list:
            out = []
            while mask:
                low = mask & -mask
                out.append(actions[low.bit_length() - 1])
                mask ^= low
            return out
        game._card_lists = listed
        return listed
    width = max(1, -(-size // 4))
    full = (1 << width) - 1
    tables = [[None] * (1 << width) for _ in range(4)]
    # each slice's entry is made of its two halves, every value of each half listed now
    low_width = width // 2
    low_mask = (1 << low_width) - 1
    halves = [(tuple(tuple(actions[k * width + i] for i in range(low_width) if v >> i & 1 and k * width + i < size)
                     for v in range(1 << low_width)),
               tuple(tuple(actions[k * width + low_width + i] for i in range(width - low_width)
                           if v >> i & 1 and k * width + low_width + i < size)
                     for v in range(1 << (width - low_width))))
              for k in range(4)]

    def fill(k: int, part: int) -> tuple:
        low, high = halves[k]
        found = tables[k][part] = low[part & low_mask] + high[part >> low_width]
        return found
    t0, t1, t2, t3 = tables
    w1, w2, w3 = width, 2 * width, 3 * width

    def listed(mask: int) -> list:
        a = t0[mask & full]
        if a is None:
            a = fill(0, mask & full)
        b = t1[mask >> w1 & full]
        if b is None:
            b = fill(1, mask >> w1 & full)
        c = t2[mask >> w2 & full]
        if c is None:
            c = fill(2, mask >> w2 & full)
        d = t3[mask >> w3 & full]
        if d is None:
            d = fill(3, mask >> w3 & full)
        return [*a, *b, *c, *d]
    game._card_lists = listed
    return listed


def apply(state, action) -> None:
    """Take ``action`` for the seat to act in a trump or tricks phase (raises
    :class:`IllegalActionError`): the engine's ``apply_action`` in these phases."""
    phase = state._now                       # the round's phase under way
    legal = state._legal
    if legal is None:
        legal = state.legal_actions()
    if action not in legal:                  # a list tests identity first
        raise IllegalActionError(why_illegal(state, phase, action))
    state._legal = None
    if phase.kind == "trump":
        _apply_trump(state, phase, action)
    else:
        _apply_card(state, phase, action[4].bit_length() - 1)     # action.mask


def play_apply(state, action) -> None:
    """Play ``action``'s card for the seat to play in a tricks phase (raises
    :class:`IllegalActionError`): :func:`apply`, for the kind ``tricks`` (its hook)."""
    legal = state._legal
    if legal is None:
        legal = state.legal_actions()
    if action not in legal:                  # a list tests identity first
        raise IllegalActionError(why_illegal(state, state._now, action))
    state._legal = None
    _apply_card(state, state._now, action[4].bit_length() - 1)     # action.mask


def why_illegal(state, phase, action) -> str:
    """Why ``action`` may not be taken now in ``phase`` (a trump or tricks phase), in words."""
    seat = state._to_act
    deck = state.game.rules.deck
    if not isinstance(action, Action):
        return f"{action!r} is not an Action"
    if phase.kind == "trump":
        if action.kind == "pass":
            return f"seat {seat} may not pass the choice of trump (again)"
        options = trump_options(state.game, phase)
        if phase.from_laid and action.kind == "trump" and isinstance(action.cards, int) \
                and 0 <= action.cards < len(options):
            laid = " ".join(deck.mask_names(state.table.laid[seat])) or "none"
            return (f"seat {seat} may not choose {trump_name(deck, options[action.cards])}: only a colour or a "
                    f"value of the cards it laid face up ({laid})")
        return f"a {action.kind} is not a choice of trump (trump or pass)"
    if action.kind != "card" or not action.mask or action.mask & (action.mask - 1):
        return f"a {action.kind} is not an action of the play (one card: Action('card', mask=...))"
    card = action.mask.bit_length() - 1
    seat = state.table.turn
    if card >= len(deck.cards) or not state.held[seat] >> card & 1:
        return f"seat {seat} does not hold {deck.card_names[card] if card < len(deck.cards) else card}"
    table = state.table
    if table.legal_mask(state.held[seat]) >> card & 1:
        rule = _must_refusing(state, phase, card)
        if rule is not None:
            return (f"{deck.card_names[card]} may not be played now: play.must[{rule.index}] asks for a play where "
                    f"{rule.play.text} (when {rule.when.text if rule.when is not None else 'always'}), and the hand "
                    "holds one")
    led = deck.card_names[table.trick[0][1]] if table.trick else None
    if led is None:
        return f"{deck.card_names[card]} may not lead this trick"
    return f"{deck.card_names[card]} may not be played on {led}: the rules of following forbid it"


def _must_refusing(state, phase, card: int):
    """The first rule of ``play.must`` that takes ``card`` out of the legal cards, or None."""
    table = state.table
    held = state.held[table.turn]
    legal = table.legal_mask(held)
    rules = narrower(state.game, phase)
    for i, rule in enumerate(phase.must):
        one = Narrower(phase.must[:i + 1], rules.players)
        if not one.narrow(legal, held, _played(table), table.count + 1, not table.trick, state.round,
                          table.card_points, None, trick_context(table, held)) >> card & 1:
            return rule
    return None


def trick_context(table: Table, held: int) -> dict:
    """What the trick on the table says to the seat to play, holding ``held``, for ``play.must``
    (:data:`~chimera_dsl.engine.phases.constraints.TRICK_BOOLS`): whether a trump was led,
    whether the hand can follow, whether a partner's card takes the trick so far, and the masks
    of the trumps, of the cards that would take the trick as it stands and of those of the colour led."""
    trick = table.trick
    trumps = table.trump_mask
    if not trick:
        return {"_trumps": trumps, "_wins": held}
    suit, strength, trump = table.suit, table.strength, table.trump_suit
    winner, best = trick[0]
    for seat, c in trick[1:]:                 # the card taking the trick so far (as Table.winner)
        if suit[c] == suit[best]:
            if strength[c] > strength[best]:
                winner, best = seat, c
        elif suit[c] == trump:
            winner, best = seat, c
    top = strength[best]
    wins = 0
    rest = held & table.suit_masks[suit[best]]      # a higher card of the winning card's suit
    while rest:
        low = rest & -rest
        rest ^= low
        if strength[low.bit_length() - 1] > top:
            wins |= low
    if suit[best] != trump:                          # any trump on a plain card
        wins |= held & trumps
    led = suit[trick[0][1]]
    seat = table.turn
    follows = held & table.suit_masks[led]
    return {"led_trump": led == trump, "can_follow": bool(follows),
            "partner_winning": winner != seat and winner in table.side(seat), "_trumps": trumps, "_wins": wins,
            "_follows": follows}


def action_of_event(state, phase, event: dict):
    """The action a game record's line stands for in ``phase`` (a trump or tricks phase, in a
    replay); ValueError says why it cannot be."""
    seat = state._to_act if phase.kind == "trump" else state.table.turn
    kind = event["type"]
    expected = "trump" if phase.kind == "trump" else "card"
    if kind != expected:
        raise ValueError(f"expected a {expected} line by seat {seat}, found a {kind} line")
    if event["seat"] != seat:
        raise ValueError(f"seat {event['seat']} acts out of turn: it is seat {seat}'s turn")
    deck = state.game.rules.deck
    if kind == "card":
        card = card_named(deck, event["card"], state.held[seat])
        if card is None:
            card = deck.card_index.get(str(event["card"]).upper())
        if card is None:
            raise ValueError(f"card: the deck holds no card {event['card']!r}")
        return card_action(state.game, card)
    if event["trump"] is None:
        return PASS
    for i, layer in enumerate(trump_options(state.game, phase)):
        if trump_name(deck, layer) == event["trump"]:
            return trump_actions(state.game, phase)[i]
    raise ValueError(f"trump: {event['trump']!r} is not a trump this phase offers")


def card_named(deck, name: str, within: int) -> int | None:
    """The first card of ``within`` named ``name`` (a deck may hold two cards of one name)."""
    wanted = str(name).upper()
    for c, card in enumerate(deck.card_names):
        if within >> c & 1 and card.upper() == wanted:
            return c
    return None


def twin_mask(deck, names, within: int) -> int | None:
    """The cards named, taken from ``within``, where names may repeat (twin cards); None when
    they are not all there.  Every name must carry its colour."""
    mask = 0
    for name in names:
        c = card_named(deck, name, within & ~mask)
        if c is None:
            return None
        mask |= 1 << c
    return mask


def _apply_trump(state, phase: TrumpPhase, action) -> None:
    table = state.table
    seat = state._to_act
    if action.kind == "pass":
        table.passed = True
        state._events.append({"type": "trump", "round": state.round, "seat": seat, "trump": None})
        partner = [s for s in side_of(state, seat) if s != seat]
        state._to_act = partner[0] if partner else seat
        return
    layer = trump_options(state.game, phase)[action.cards]
    table.layers[phase.layer] = layer
    table.declared_by[phase.layer] = seat
    state._events.append({"type": "trump", "round": state.round, "seat": seat,
                         "trump": trump_name(state.game.rules.deck, layer)})
    state._next_phase()


def _apply_card(state, phase: TrickPhase, card: int) -> None:
    table = state.table
    seat = table.turn
    rare = table.rare                                     # a dummy, announcements, effects of a card, a seat out?
    if rare and table.dummy is not None and not table.exposed:
        table.exposed = True                              # the opening lead is made: the dummy's cards go face up
    played = (seat, card)
    events = state._events                                # the card's line, kept compact (CardLines)
    if events and type(events[-1]) is CardLines:
        events[-1].append(played)
    else:
        _open_card_lines(state).append(played)
    melds = phase.announcements
    if rare and melds is not None:
        on_card(state, table, phase, seat, card)
    key = state.game._card_keys[card]                     # its packed rank count (as _rank_keys)
    bit = 1 << card
    state.held[seat] &= ~bit
    state.hands[seat] -= key
    state.sizes[seat] -= 1                                # (what each seat played: table.played_by, below)
    trick = table.trick
    if trick:
        led = trick[0][1]
        suit = table.suit
        if suit[card] != suit[led]:                       # (following shows nothing lacking)
            # (where following is the plainest, the led suit: shown_lacking's answer)
            table.lacks[seat] |= table.suit_masks[suit[led]] if table.plain_follow else table.shown_lacking(led, card)
    table.played_by[seat] |= bit
    trick.append(played)
    n = state.n
    if not rare:
        if len(trick) < n:
            table.turn = state._to_act = (seat + state.step) % n      # give_turn
            return
    else:
        if table.ends_now and state._game_over():
            return                                        # announced points reached the end at this card
        if phase.card_effects:
            effects_after_card(state, table, phase, seat, card)
        out = table.out
        if len(trick) < (n - out.bit_count() if out else n):
            step = state.step
            nxt = (seat + step) % n
            while out >> nxt & 1:                         # a seat sitting the hand out plays no card
                nxt = (nxt + step) % n
            table.turn = nxt                              # give_turn
            state._to_act = state.round_bid.bidder if nxt == table.dummy else nxt
            return
    winner = table.winner()
    cards = 0
    points = 0
    card_points = table.card_points
    for _, c in trick:
        cards |= 1 << c
        points += card_points[c]
    table.count += 1
    last = state.sizes[winner] == 0
    if last:
        points += phase.last_trick * table.factor
    table.taken[winner] |= cards
    table.tricks[winner] += 1
    table.points[winner] += points
    table.last_winner = winner
    if events and type(events[-1]) is CardLines:        # the trick's line, compact: (winner, points, its cards)
        events[-1].append((winner, points, trick))
    else:
        _open_card_lines(state).append((winner, points, trick))
    if phase.trick_effects:
        effects_after_trick(state, table, phase, winner, points)
    table.trick = []
    if phase.draw and not last:
        draw_from_stock(state, table, phase, winner)          # each seat draws from the stock, the winner first
    if melds is not None and table.count == 1:
        settle_announcements(state, table, phase)
        if table.ends_now and state._game_over():
            return
    if last or (table.game is not None and table.game.no_tricks and winner == state.round_bid.bidder):
        end_round(state, phase)                           # (a game of no tricks is lost at the declarer's first)
        return
    state.leader = winner
    give_turn(state, table, winner)


def draw_from_stock(state, table: Table, phase: TrickPhase, winner: int) -> None:
    """After a trick (``play.draw``): each seat playing, from the trick's winner in the direction
    of play, draws ``phase.draw`` cards from the stock while it lasts.  The turned card
    (``deal.turn_up``) lies under the stock and is drawn last, or (``play.stock_top: face_up``)
    on top of it and is drawn first, the next card turned face up once every seat has drawn;
    every seat sees who takes a card lying face up.  A seat that drew may hold again a suit it
    showed it lacked.  The record's ``drawn`` line gives each seat's cards."""
    stock = state.stock
    face = state.face_up
    turned = face is not None and face[1] is None and state.face_up_card is not None
    if not stock and not turned:
        return
    n, step, count, top_open = state.n, state.step, phase.draw, phase.top_open
    keys = state.game._card_keys
    names = state.game.rules.deck.card_names
    held, hands, sizes, lacks = state.held, state.hands, state.sizes, table.lacks
    drawn: list[list[str]] = [[] for _ in range(n)]
    took_turned = None
    taken_open = 0
    at = 0
    seat = winner
    for _ in range(n):
        if not table.out >> seat & 1:                     # a seat sitting the hand out draws nothing
            for _ in range(count):
                if turned and (top_open or at >= len(stock)):
                    card = taken_open = state.face_up_card
                    turned = False
                    took_turned = seat
                    if table.drawn_open is None:
                        table.drawn_open = [0] * n
                    table.drawn_open[seat] |= 1 << card
                    state.face_up = (face[0], seat)       # kept: every seat knows who holds it
                elif at < len(stock):
                    card = stock[at]
                    at += 1
                else:
                    break
                held[seat] |= 1 << card
                hands[seat] += keys[card]
                sizes[seat] += 1
                drawn[seat].append(names[card])
                lacks[seat] = 0
        seat = (seat + step) % n
    line: dict = {"type": "drawn", "round": state.round, "first": winner, "hands": drawn}
    if took_turned is not None:
        line["turned"] = {"seat": took_turned, "card": names[taken_open]}
    if top_open and at < len(stock):                      # the next card of the stock is turned face up
        card = stock[at]
        at += 1
        state.face_up_card = card
        state.face_up = (state.game.rules.deck.card_rank[card], None)
        line["top"] = names[card]
    state.stock = stock[at:]
    state._events.append(line)


class CardLines(list):
    """The cards played and the tricks taken, one after another in the record, kept compact
    until the record is read (:attr:`State.events <chimera_dsl.engine.State.events>`), which
    writes them out with :meth:`lines`: per card ``(seat, card number)``, per trick ``(winner,
    points, [(seat, card number), ...])``.  It stands last in the record while it grows: a card
    played after any other line opens new ones."""

    __slots__ = ("round", "names")
    round: int                      # the round the lines belong to
    names: tuple                    # per card number, its name

    def lines(self) -> list[dict]:
        """The record's lines: ``card`` and ``trick``."""
        names, rnd = self.names, self.round
        out = []
        for entry in self:
            if len(entry) == 2:
                seat, card = entry
                out.append({"type": "card", "round": rnd, "seat": seat, "card": names[card]})
            else:
                winner, points, trick = entry
                out.append({"type": "trick", "round": rnd, "winner": winner,
                            "cards": [names[c] for _, c in trick], "points": points})
        return out


def _open_card_lines(state) -> CardLines:
    """New :class:`CardLines`, last in the state's record."""
    log = CardLines()
    log.round = state.round
    log.names = state.game.rules.deck.card_names
    state._events.append(log)
    state._lazy = True
    return log


def _rank_keys(game) -> tuple[int, ...]:
    """Per card, its packed rank count (cached on the game)."""
    deck = game.rules.deck
    keys = game._rank_keys = tuple(deck.key_of_mask(1 << c) for c in range(len(deck.cards)))
    return keys


# -- effects of the play on the file's values (play.effects) -----------------------------------------

EFFECT_NUMBERS = ("trick", "held", "round", "players", "play_points", "trick_points")
EFFECT_BOOLS = ("leading", "led_trump", "play_trump", "play_wins", "last_trick")


def effect_scope(deck) -> dict:
    """What the condition of an effect of a trick-taking play reads (the values aside): the card
    (``play_has(R)``, ``play_has_colour(C)``, ``play_has_card(R, C)``, ``play_points``,
    ``play_trump``, ``play_wins``: it takes the trick as it stands), the trick (``trick``: its
    number, ``leading``: the card led it, ``led_trump``, ``trick_points``: its points so far,
    ``last_trick``: the round's last), the player's hand (``held``, ``held_colour(C)``,
    ``held_card(R, C)``), the round (``played_colour(C)``,
    ``played_card(R, C)``, ``round``, ``players``).  At a trick's end the card is the one that
    took it, the seat its player's."""
    functions = card_count_functions(deck, "held", "_held") + card_count_functions(deck, "played", "_played")
    return {"numbers": EFFECT_NUMBERS, "bools": EFFECT_BOOLS, "functions": tuple(functions + play_functions(deck)),
            "identifiers": card_identifiers(deck)}


def compile_effects(rules, path: tuple, section: dict) -> tuple:
    """``play.effects`` of a trick-taking play: each entry changes a value (``add``, ``set``)
    after a card (``at: play``) or a trick (``at: trick_end``); an effect of climbing play is
    refused at its ``do``."""
    entries = section.get("effects") or []
    if not entries:
        return ()
    scope = effect_scope(rules.deck)
    refuse_shadowed_values(rules, scope)
    out = []
    for i, entry in enumerate(entries):
        where = path + ("effects", i)
        do = entry.get("do")
        if not is_value_effect(do):
            name = next(iter(do)) if isinstance(do, dict) and do else do
            _bad(where + ("do",), f"is '{name}', an effect of climbing play: an effect of a trick-taking play "
                 "(play.kind: tricks) changes a value (add, set)",
                 "e.g. {at: trick_end, when: play_trump, do: {add: {NAME: 1}}}, NAME declared in values")
        out.append(compile_value_effect(where, entry, rules, scope))
    return tuple(out)


def _effect_env(state, table: Table, seat: int, card: int, trick: list, number: int) -> dict:
    """What an effect's condition reads when ``seat``'s ``card`` is (or took) ``trick``, the
    round's trick ``number``; the values as ``seat`` has them."""
    points = table.card_points
    env = {"trick": number, "leading": trick[0][1] == card, "held": state.sizes[seat], "round": state.round,
           "players": state.n, "play_points": points[card], "trick_points": sum(points[c] for _, c in trick),
           "led_trump": table.suit[trick[0][1]] == table.trump_suit, "play_trump": bool(table.trump_mask >> card & 1),
           "play_wins": False, "last_trick": state.sizes[seat] == 0,
           "_held": state.held[seat], "_played": _played(table), "_play": 1 << card}
    return read_values(state, seat, env)


def effects_after_card(state, table: Table, phase: TrickPhase, seat: int, card: int) -> None:
    """The effects at ``play`` once ``seat`` played ``card`` (the player's values)."""
    env = _effect_env(state, table, seat, card, table.trick, table.count + 1)
    env["play_wins"] = table.winner() == seat
    change_values(state, phase.card_effects, "play", seat, env)


def effects_after_trick(state, table: Table, phase: TrickPhase, winner: int, points: int) -> None:
    """The effects at ``trick_end`` once ``winner`` took the trick on the table, worth ``points``
    (its line's, the last trick's bonus included), over the card that took it (the winner's values)."""
    trick = table.trick
    card = next(c for s, c in trick if s == winner)
    env = _effect_env(state, table, winner, card, trick, table.count)
    env["trick_points"] = points
    env["play_wins"] = True
    change_values(state, phase.trick_effects, "trick_end", winner, env)


# -- the end of the round ----------------------------------------------------------------------------

SEAT_FACTS = ("trick_points", "own_trick_points", "tricks_taken", "side_tricks", "announced", "total",
              "bidder_side", "trump_pair")
DEFENDER_FACTS = frozenset({"defenders_points", "defenders_announced", "defenders_pair"})
BID_FACTS = frozenset({"bid_total", "own_bid", "side_bid"})
ROUND_FACTS = ("all_tricks_taken", "bidder_side_points", "bidder_trump_colour", "bidder_trump_rank",
               "bidder_trump_none", "bidder_trump_cards", "bidder_side_tricks", "bidder_alone", "defender_alone",
               "bidder_side_announced", "bidder_side_pair", "defenders_points", "defenders_announced",
               "defenders_pair")


def seat_functions(deck) -> tuple:
    """The functions of a seat's term in a trick-taking round: ``taken_colour(C)`` and
    ``taken_card(R, C)``, the cards of colour C (of rank R and colour C) in the tricks it took
    (with the identifier sets they take), for :func:`~chimera_dsl.engine.scoring.compile_scoring`."""
    return tuple(card_count_functions(deck, "taken", "_taken")), card_identifiers(deck)


def trump_cards(table, layer) -> int:
    """How many cards of the deck the layer makes trumps (0 for no trump)."""
    if layer is None or layer[0] == "none":
        return 0
    key = ("trump_cards", layer)                  # the same for every round of the game: kept
    found = table._cache.get(key)
    if found is None:
        of = table.colour_of if layer[0] == "colour" else table.rank_of
        found = table._cache[key] = sum(1 for x in of if x == layer[1])
    return found


def end_round(state, phase: TrickPhase) -> None:
    """Score the round with the file's scoring, then end the game or deal the next round."""
    table = state.table
    n = state.n
    spec = state._round
    seats_range = range(n)
    rb = state.round_bid
    bidder = rb.bidder
    if table.solo is not None and bidder is not None:
        # a solo phase: the stock (laid away, or untouched in a hand game) counts in the
        # declarer's tricks, now that it is scored (seen by nobody else before)
        stock = state.nest_cards
        table.taken[bidder] |= stock
        table.points[bidder] += sum(table.card_points[c] for c in bit_numbers(stock))
    sides = table.sides if table.sides is not None else _spec_sides(table.spec, n)   # side_of, for each seat
    tricks, taken_points = table.tricks, table.points
    total_tricks = table.count
    side_tricks = []
    side_points = []
    all_tricks = phase.all_tricks * table.factor
    for s in seats_range:
        won = pts = 0
        for t in sides[s]:
            won += tricks[t]
            pts += taken_points[t]
        if won == total_tricks:
            pts += all_tricks
        side_tricks.append(won)
        side_points.append(pts)
    layer = table.layers[0] if table.layers else None
    partner = partner_role(state)
    if bidder is None:                          # role_of, for each seat
        roles: list[str | None] = [None] * n
    else:
        partner_seat = table.role_seats.get(partner)
        roles = ["bidder" if s == bidder else partner if s == partner_seat else "others" for s in seats_range]
    reads = spec.scoring.round_names()         # the facts the scoring reads (None: it may read any)
    env = {"bid": rb.bid or 0, "round": state.round, "players": n, "bidder_won": False,
           "_counts": {}, "_plays": state.plays}
    want: Any = ROUND_FACTS if reads is None else reads    # (a fact nobody reads is not computed)
    if "all_tricks_taken" in want:
        env["all_tricks_taken"] = int(max(side_tricks) == total_tricks)
    if "bidder_side_points" in want:
        env["bidder_side_points"] = side_points[bidder] - (all_tricks if side_tricks[bidder] == total_tricks
                                                           else 0) if bidder is not None else 0
    if "bidder_trump_colour" in want:
        env["bidder_trump_colour"] = int(layer is not None and layer[0] == "colour")
    if "bidder_trump_rank" in want:
        env["bidder_trump_rank"] = int(layer is not None and layer[0] == "rank")
    if "bidder_trump_none" in want:
        env["bidder_trump_none"] = int(layer is None or layer[0] == "none")
    if "bidder_trump_cards" in want:
        env["bidder_trump_cards"] = trump_cards(table, layer)
    if "bidder_side_tricks" in want:
        env["bidder_side_tricks"] = side_tricks[bidder] if bidder is not None else 0
    if "bidder_alone" in want:
        env["bidder_alone"] = int(table.alone)             # the bidder's partner sat the hand out
    if "defender_alone" in want:
        env["defender_alone"] = int(table.lone_defender is not None)
    if "bidder_side_announced" in want:
        env["bidder_side_announced"] = table.bonus[bidder] if bidder is not None else 0
    if "bidder_side_pair" in want:
        env["bidder_side_pair"] = table.pair_bonus[bidder] if bidder is not None else 0
    if reads is None or not reads.isdisjoint(DEFENDER_FACTS):
        # the announcements of the bidder's side and of the others (each side counted once), the trump pair apart
        others = {sides[s] for s in seats_range if bidder is None or bidder not in sides[s]}
        mine = sides[bidder] if bidder is not None else None
        env["defenders_points"] = sum([taken_points[s] for s in seats_range if mine is None or s not in mine])
        env["defenders_announced"] = sum([table.bonus[side[0]] for side in others])
        env["defenders_pair"] = sum([table.pair_bonus[side[0]] for side in others])
    if reads is None or "_calls" in reads:
        env["_calls"] = made_names(state)      # what called(NAME) reads (chimera_dsl.engine.phases.calls)
    with_bids = reads is None or not reads.isdisjoint(BID_FACTS)
    if with_bids:
        bids = [0] * n                         # each seat's bid of tricks (a bids phase), 0 without one
        for seat, bid, _ in rb.bids:
            bids[seat] = bid or 0
        env["bid_total"] = sum(bids)
    if reads is None or "_roles" in reads:     # the seats of each role (plays_by(R), idle(R))
        env["_roles"] = {"bidder": (bidder,) if bidder is not None else (), "each": tuple(seats_range),
                         "others": tuple(s for s in seats_range if roles[s] == "others"),
                         partner: tuple(s for s in seats_range if roles[s] == partner)}
    best = max(side_points)
    dealer, plays, totals = state.dealer, state.plays, state.totals
    bonus, pair_bonus, taken = table.bonus, table.pair_bonus, table.taken
    seat_reads = spec.scoring.read_names()     # the names the seats' terms read (None: any)
    if seat_reads is None:
        seats = [{"won": side_points[s] == best, "out_first": False, "is_dealer": s == dealer,
                  "cards_left": 0,
                  "plays": plays[s], "card_points": 0,
                  "trick_points": side_points[s], "own_trick_points": taken_points[s],
                  "tricks_taken": tricks[s], "side_tricks": side_tricks[s],
                  "announced": bonus[s], "trump_pair": pair_bonus[s], "_taken": taken[s],
                  "total": totals[s], "_side": sides[s],
                  "bidder_side": int(bidder is not None and bidder in sides[s])}       # its total before this round
                 for s in seats_range]
    else:                                      # only the facts they read, the same values, fact by fact
        seats = [{} for _ in seats_range]
        column: Any
        for name in _seat_facts_read(seat_reads):
            if name == "won":
                column = [side_points[s] == best for s in seats_range]
            elif name == "is_dealer":
                column = [s == dealer for s in seats_range]
            elif name == "plays":
                column = plays
            elif name == "trick_points":
                column = side_points
            elif name == "own_trick_points":
                column = taken_points
            elif name == "tricks_taken":
                column = tricks
            elif name == "side_tricks":
                column = side_tricks
            elif name == "announced":
                column = bonus
            elif name == "trump_pair":
                column = pair_bonus
            elif name == "_taken":
                column = taken
            elif name == "total":
                column = totals
            elif name == "_side":
                column = sides
            elif name == "bidder_side":
                column = [int(bidder is not None and bidder in sides[s]) for s in seats_range]
            else:                              # out_first, cards_left, card_points: none in a trick-taking round
                column = [False if name == "out_first" else 0] * n
            for seat, value in zip(seats, column):
                seat[name] = value
    if with_bids:
        for s in seats_range:
            seats[s]["own_bid"] = bids[s]
            seats[s]["side_bid"] = sum([bids[t] for t in sides[s]])
    if table.solo is not None:                 # a solo phase: the game its declarer plays
        env.update(solo_facts(table, spec.phases))
    if spec.contract:                          # an auction of contract bids: what the contract was
        round_facts, declarer_side = contract_facts(state)
        env.update(round_facts)
        for s in seats_range:
            seats[s]["declarer_side"] = declarer_side[s]
    contract = bidder is not None and spec.scoring.won is not None     # the file says when it is made
    facts: dict | None = {} if contract else None
    bonuses, parts, _treasures = spec.scoring.score(env, seats, roles.__getitem__, facts, kept=state.values,
                                                    read_only=seat_reads is not None)
    points = []
    for s in seats_range:
        earned = 0
        for _, p in parts[s]:
            earned += p
        points.append(earned)
        totals[s] += earned
    out = table.last_winner if table.last_winner is not None else 0
    end = {"type": "round_end", "round": state.round, "out": out}
    if facts is not None:
        end[f"{spec.role_word}_won"] = bool(facts["bidder_won"])
    end.update({"bonuses": bonuses, "treasures": list(taken_points), "points": points, "totals": list(totals),
                "tricks": list(tricks), "parts": parts})
    if state.values:
        end["values"] = {k: list(v) if isinstance(v, list) else v for k, v in state.values.items()}
    state._events.append(end)
    state.previous = {"first_out": out, "most_cards_left": out, **table.role_seats}
    state._next_round()


_SEAT_FACTS = ("won", "out_first", "is_dealer", "cards_left", "plays", "card_points", "trick_points",
               "own_trick_points", "tricks_taken", "side_tricks", "announced", "trump_pair", "_taken", "total",
               "_side", "bidder_side")
_FACTS_READ: dict = {}


def _seat_facts_read(reads: tuple) -> tuple:
    """The facts of a seat at the end of a trick-taking round that ``reads`` (a scoring's
    :meth:`~chimera_dsl.engine.scoring.Scoring.read_names`) holds, in their order."""
    found = _FACTS_READ.get(reads)
    if found is None:
        if len(_FACTS_READ) >= 256:
            _FACTS_READ.clear()
        found = _FACTS_READ[reads] = tuple(name for name in _SEAT_FACTS if name in reads)
    return found


def solo_facts(table: Table, phases) -> dict:
    """The round's facts of the game a solo phase's declarer plays
    (:data:`chimera_dsl.engine.phases.solo.ROUND_FACTS`; all 0 before a game is named)."""
    s, g = table.solo, table.game
    names = of_phases(_SAID_NAMES, phases, lambda phases: tuple(
        f"{d.name}_declared" for d in next(p for p in phases if p.kind == "solo").declarations))
    said = {name: int(s is not None and i in s.said) for i, name in enumerate(names)}
    if s is None or g is None:
        return {"game_base": 0, "hand_game": 0, "no_trick_game": 0, "tops": 0, "declared": 0, **said}
    base = g.hand_base if s.hand and g.hand_base is not None else g.base
    return {"game_base": base, "hand_game": int(s.hand), "no_trick_game": int(g.no_tricks), "tops": table.tops,
            "declared": 1, **said}


_SAID_NAMES: dict[int, tuple] = {}     # per round's phases (by identity): the solo phase's NAME_declared facts


def role_of(state, seat: int) -> str | None:
    """The scoring role of ``seat`` this round: bidder (the auction's winner), the role a partner
    phase gives (``partner`` unless it names another), others; None when the round has no bidder."""
    bidder = state.round_bid.bidder
    if bidder is None:
        return None
    if seat == bidder:
        return "bidder"
    table = getattr(state, "table", None)
    if table is not None:
        role = partner_role(state)
        if table.role_seats.get(role) == seat:
            return role
    return "others"


def partner_role(state) -> str:
    """The role a partner phase of the round gives the seat it names (``partner`` without one)."""
    return of_phases(_PARTNER_ROLES, state._round.phases,
                     lambda phases: next((phase.role for phase in phases if phase.kind == "partner"), "partner"))


_PARTNER_ROLES: dict[int, tuple] = {}      # per round's phases: partner_role's answer


def _spec_sides(spec: TrickPhase, n: int) -> tuple:
    """Per seat, its side by the file's teams (``spec.side``), computed once per phase."""
    found = spec.__dict__.get("_sides")
    if found is None or len(found) != n:
        found = spec.__dict__["_sides"] = tuple(spec.side(s, n) for s in range(n))
    return found


def named_seat(state, name: str) -> int | None:
    """A role of the round given by a trick-taking phase (the chooser of the trump, say)."""
    table = getattr(state, "table", None)
    if table is None or table.deal != state.deal_number:
        return None
    return table.role_seats.get(name)


def public_view(state, seat: int) -> dict:
    """What every seat sees of the table (trumps, the trick, tricks taken, announcements), for ``seat``."""
    table = getattr(state, "table", None)
    if table is None or table.deal != state.deal_number:
        return {}
    deck = state.game.rules.deck
    phase = state._round.phases[state._phase_index] if state.kind in KINDS else None
    # the cards of the table, each read from its zone through the one rule of what a seat sees
    # (chimera_dsl.engine.zones): the trick, the piles won, the cards laid, the melds announced
    on_table = table.trick if zones.shows("trick", None, seat) else []
    taken = zones.seen_each("won", table.taken, seat)
    played = 0                                    # the cards played so far this round that it sees
    for mask in taken:
        played |= mask
    for _, c in on_table:
        played |= 1 << c
    return {"trumps": [trump_name(deck, layer) if layer is not None else None for layer in table.layers],
            "trump_layers": list(table.layers),           # the same, as ("colour", i), ("rank", i), ("none", -1)
            "sitting_out": table.out,                     # the seats sitting the hand out (a bit each)
            "trick": [(s, deck.card_names[c]) for s, c in on_table],
            "trick_cards": [(s, c) for s, c in on_table],
            "tricks": list(table.tricks), "points": list(table.points),
            "taken": taken, "roles": dict(table.role_seats),
            "announced": [[m.name for m in melds] for melds in zones.seen_each("melds", table.announced, seat, [])],
            "side": side_of(state, seat),
            # the rules of the trumps declared (public): per card its suit (trump_suit: a trump),
            # strength and points; the cards played so far this round (a mask)
            "suit": table.suit, "strength": table.strength, "card_points": table.card_points,
            "trump_suit": table.trump_suit, "played": played,
            "laid": zones.seen_each("laid", table.laid, seat),
            "trump_options": trump_options(state.game, phase) if phase is not None and phase.kind == "trump" else [],
            # the seat whose card is played next (the dummy's, its partner deciding), the dummy,
            # and the cards face up for all: the dummy's hand once the opening lead is made
            "turn": table.turn if state.kind == "tricks" else None, "dummy": table.dummy,
            "exposed": {zone.owner: zone.cards for zone in zones.exposed(state) if zones.sees(zone, seat)},
            **_contract_view(state), **_solo_view(state, table)}


def _solo_view(state, table: Table) -> dict:
    """What every seat sees of a solo phase (:mod:`chimera_dsl.engine.phases.solo`): the stage,
    the value bid, the declarer, a hand game, the game named and the games offered."""
    s = table.solo
    if s is None:
        return {}
    phase = next(p for p in state._round.phases if p.kind == "solo")
    return {"solo": {"stage": s.stage, "bid": s.bid, "declarer": s.declarer, "hand": s.hand,
                     "game": phase.games[s.game].name if s.game >= 0 else None, "games": phase.games,
                     "declared": [phase.declarations[i].name for i in s.said],
                     "values": phase.values, "declarations": phase.declarations,
                     "no_tricks": bool(table.game is not None and table.game.no_tricks)}}


def _contract_view(state) -> dict:
    """What every seat sees of an auction of contract bids (its calls, the contract):
    ``state.auction`` and ``state.contract`` (:mod:`chimera_dsl.engine.phases.contract`)."""
    if not state._round.contract:
        return {}
    out = {}
    a = getattr(state, "auction", None)
    if a is not None:
        out["auction"] = {"last_bid": a.last_bid, "last_bidder": a.last_bidder, "doubled": a.doubled,
                          "calls": a.history}
    c = getattr(state, "contract", None)
    if c is not None:
        out["contract"] = {"level": c.level, "strain": c.strain, "doubled": c.doubled, "declarer": c.declarer,
                           "vulnerable": c.vulnerable}
    return out


def contract_facts(state) -> tuple[dict, list]:
    """The round's facts of the contract an auction of contract bids reached (``state.contract``),
    and per seat whether it is on the declarer's side (all 0 when the deal was passed out)."""
    c = getattr(state, "contract", None)
    table = state.table
    if c is None or c.level == 0:
        return ({"contract_level": 0, "contract_strain": 0, "contract_no_trump": 0, "doubled": 0, "redoubled": 0,
                 "vulnerable": 0, "declarer_tricks": 0}, [0] * state.n)
    side = side_of(state, c.declarer)
    tricks = sum(table.tricks[s] for s in side)
    return ({"contract_level": c.level, "contract_strain": c.strain + 1, "contract_no_trump": int(c.no_trump),
             "doubled": int(c.doubled == 1), "redoubled": int(c.doubled == 2), "vulnerable": int(c.vulnerable),
             "declarer_tricks": tricks}, [int(s in side) for s in range(state.n)])


def trump_choices_of(observation) -> list[tuple]:
    """The trumps the current trump phase offers, as its actions number them (``Action("trump", cards=i)``)."""
    return (observation.table or {}).get("trump_options") or []


def _played(table: Table) -> int:
    """The cards played this round: those of every seat (each card played once, whoever took it)."""
    return reduce(or_, table.played_by, 0)


def side_of(state, seat: int) -> tuple[int, ...]:
    """The seats playing with ``seat`` this round: a team of the file, the side a phase formed, or itself."""
    table = getattr(state, "table", None)
    if table is not None and table.deal == state.deal_number:
        return table.side(seat)
    return _play_spec(state).side(seat, state.n)
