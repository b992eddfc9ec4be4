"""The seat vocabulary: one way, everywhere a rule names a seat, to say which seat it is.

A *seat expression* in a variant file is one of:

* a seat number (``0``);
* a name: ``dealer``, ``face_up_holder`` (who was dealt the face-up card), ``first_passer``
  (the first to pass in the bidding), ``dealer_left`` (the seat after the dealer in the
  direction of play), ``previous_round.first_out`` (who went out first last round),
  ``previous_round.most_cards_left`` (who held most cards when it ended; a tie goes to the
  first of them after the one who went out, in the direction of play),
  ``previous_round.place(K)`` (the seat that finished K-th in the previous round, where play
  goes on after the first seat out: ``play.round_ends_when``), ``previous_round.place(last)``
  and ``previous_round.place(last - K)`` (counted from the last place), or a role of the file
  (``bidder``);
* a map: ``{next_of: X}`` / ``{previous_of: X}`` (the seat after / before X in the direction of
  play), ``{left_of: X}`` / ``{right_of: X}`` (seats are numbered clockwise, so the left of seat
  s is s + 1), ``{holder: CARD}`` (who holds that card when the rule is read),
  ``{first_round: X}`` (X in the game's first round, nobody later: a list gives the later seat);
  a seat sitting the round out (``deal.sits_out``) is passed over by the relative ones;
* a list: the first of its items that names a seat (``[previous_round.first_out, {holder: 1/multi}]``).

:func:`parse_seat` checks one against what the variant has and returns a :class:`SeatExpr`;
the engine asks :meth:`SeatExpr.resolve` with a :class:`SeatContext`.  An expression *may
fail* (name no seat) when it reads something that is not always there; the loader refuses
one that may fail where a seat is needed, unless a list gives a fallback.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Protocol

NAMES = ("dealer", "face_up_holder", "first_passer", "dealer_left", "previous_round.first_out",
         "previous_round.most_cards_left")
PLACE = "previous_round.place"
RELATIVE = ("next_of", "previous_of", "left_of", "right_of")
ONLY = ("first_round",)


class SeatContext(Protocol):
    """What a seat expression reads from the game (the engine's :class:`~chimera_dsl.engine.State`)."""

    n: int
    step: int
    dealer: int
    round: int

    def named_seat(self, name: str) -> int | None:
        """The seat a name gives now (None when nobody is that seat now)."""
        ...

    def holder_of(self, card: int) -> int | None:
        """The seat holding card number ``card`` (None when no seat does)."""
        ...


class SeatError(ValueError):
    """A seat expression that cannot be read: ``path`` inside it, and why."""

    def __init__(self, message: str, path: tuple = (), hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.hint = hint


@dataclass(frozen=True)
class SeatExpr:
    """A compiled seat expression (see the module's text)."""

    text: str
    resolve: Callable[[SeatContext], int | None]
    may_fail: bool
    reads: frozenset        # the names and kinds it reads: "bidder", "holder", "previous_round.first_out"...

    def __call__(self, ctx: SeatContext) -> int | None:
        return self.resolve(ctx)


def parse_seat(value, players: int, roles: tuple[str, ...] = (), card_number: Callable[[str], int | None] | None = None,
               path: tuple = (), sure: frozenset = frozenset(), places: int | None = None,
               later: frozenset = frozenset(), words: tuple[str, ...] = ()) -> SeatExpr:
    """Compile a seat expression written in a variant file.

    ``roles`` are the role ids the file defines (they name a seat once the round has given
    them); ``card_number`` reads a card name into its number (None: unknown card); ``sure``
    the names that always name a seat where this expression is read (``holder``: every card
    is always in some hand); ``places`` the places a round gives (``players`` unless a seat sits
    each round out: one fewer); ``later`` the names that always name a seat in every round after
    the first (the previous round's seats, where no round is void), so that a list that names a
    seat of the first round (``{first_round: X}``) and then one of those never names nobody;
    ``words`` the words the caller reads at this place besides seats (a transfer's ``each``,
    ``each_other``...), offered with the seats when a name is misspelt.  Raises
    :class:`SeatError` with the path inside ``value`` of what is wrong.
    """
    if isinstance(value, bool):
        raise SeatError(f"a seat is a name, a number or a map, not {value!r}", path, _HINT)
    if isinstance(value, int):
        if not 0 <= value < players:
            raise SeatError(f"there is no seat {value}: seats are 0 to {players - 1}", path)
        seat = value
        return SeatExpr(str(value), lambda ctx: seat, False, frozenset())
    if isinstance(value, str):
        name = value.strip()
        if name.startswith(PLACE):
            place = parse_place(name[len(PLACE):], players, path)
            key = f"{PLACE}:{place}"
            # a place past those a round gives (a seat sitting each round out finishes in none) names nobody
            beyond = places is not None and (place if place > 0 else -place) > places
            return SeatExpr(name, lambda ctx: ctx.named_seat(key), beyond or PLACE not in sure, frozenset({PLACE}))
        if name in NAMES or name in roles:
            may_fail = name not in ("dealer", "dealer_left") and name not in sure
            if name == "dealer":
                return SeatExpr(name, lambda ctx: ctx.dealer, False, frozenset({name}))
            if name == "dealer_left":
                return SeatExpr(name, lambda ctx: _moved(ctx, ctx.dealer, ctx.step), False, frozenset({name}))
            return SeatExpr(name, lambda ctx: ctx.named_seat(name), may_fail, frozenset({name}))
        known = list(words) + list(NAMES) + [f"{PLACE}(1)", f"{PLACE}(last)"] + list(roles)
        # a seat beside another written as one word (left_of_dealer, bidder_right): a map says it
        beside = re.fullmatch(r"(left|right|next|previous)_of_(\w+)", name)
        side, other = beside.groups() if beside else (None, None)
        if beside is None:
            beside = re.fullmatch(r"(\w+?)_(left|right|next|previous)", name)
            other, side = beside.groups() if beside else (None, None)
        if beside is not None:
            raise SeatError(f"'{name}' names no seat", path,
                            f"write {{{side}_of: {other}}}, the seat {'after' if side in ('left', 'next') else 'before'} "
                            f"{other} ({'clockwise' if side in ('left', 'right') else 'in the direction of play'})")
        import difflib
        close = difflib.get_close_matches(name, known, n=1)
        raise SeatError(f"'{name}' names no seat", path,
                        f"did you mean '{close[0]}'?" if close else "seats: " + ", ".join(known))
    if isinstance(value, list):
        if not value:
            raise SeatError("an empty list names no seat", path, _HINT)
        items = [parse_seat(v, players, roles, card_number, path + (i,), sure, places) for i, v in enumerate(value)]
        for i, item in enumerate(items[:-1]):
            if not item.may_fail:
                raise SeatError(f"'{item.text}' always names a seat, so what follows it is never read",
                                path + (i + 1,), "put the items that may name nobody first")

        def first(ctx: SeatContext) -> int | None:
            for item in items:
                seat = item.resolve(ctx)
                if seat is not None:
                    return seat
            return None
        reads = frozenset().union(*(item.reads for item in items))
        return SeatExpr("[" + ", ".join(i.text for i in items) + "]", first,
                        items[-1].may_fail and not _covers_later_rounds(value, players, roles, card_number, path,
                                                                        sure, places, later), reads)
    if isinstance(value, dict):
        if len(value) != 1:
            raise SeatError("a seat map has exactly one key: " + ", ".join(RELATIVE + ONLY + ("holder",)), path, _HINT)
        (key, inner), = value.items()
        key = str(key)
        if key == "first_round":
            of = parse_seat(inner, players, roles, card_number, path + (key,), sure, places)

            def first_round(ctx: SeatContext) -> int | None:
                return of.resolve(ctx) if ctx.round == 1 else None
            return SeatExpr(f"in round 1, {of.text}", first_round, True, of.reads | {"round"})
        if key == "holder":
            number = card_number(str(inner)) if card_number is not None else None
            if number is None:
                raise SeatError(f"the deck has no card {inner!r}", path + (key,),
                                "name one card with its colour where the deck has colours, e.g. 7/red")
            card = number
            return SeatExpr(f"holder of {inner}", lambda ctx: ctx.holder_of(card), "holder" not in sure,
                            frozenset({"holder"}))
        if key in RELATIVE:
            of = parse_seat(inner, players, roles, card_number, path + (key,), sure, places)
            sign = {"next_of": None, "previous_of": None, "left_of": 1, "right_of": -1}[key]
            forward = key == "next_of"

            def relative(ctx: SeatContext) -> int | None:
                seat = of.resolve(ctx)
                if seat is None:
                    return None
                delta = sign if sign is not None else (ctx.step if forward else -ctx.step)
                return _moved(ctx, seat, delta)
            return SeatExpr(f"{key.replace('_', ' ')} {of.text}", relative, of.may_fail, of.reads)
        import difflib
        close = difflib.get_close_matches(key, RELATIVE + ONLY + ("holder",), n=1)
        raise SeatError(f"'{key}' is not a way to name a seat", path,
                        f"did you mean '{close[0]}'?" if close else _HINT)
    raise SeatError(f"a seat is a name, a number or a map, not {type(value).__name__}", path, _HINT)


def _covers_later_rounds(value: list, players: int, roles, card_number, path: tuple, sure: frozenset,
                         places: int | None, later: frozenset) -> bool:
    """Does a list of seats always name one because it names a seat of the first round
    (``{first_round: X}``, X always there) and, after it, one that every later round has
    (``previous_round.place(1)``: a round has always been played out then)?"""
    if not later:
        return False
    for i, item in enumerate(value):
        if isinstance(item, dict) and len(item) == 1 and "first_round" in item:
            if parse_seat(item["first_round"], players, roles, card_number, path + (i, "first_round"), sure,
                          places).may_fail:
                return False
            return any(not parse_seat(rest, players, roles, card_number, path + (i + 1 + j,), sure | later,
                                      places).may_fail for j, rest in enumerate(value[i + 1:]))
    return False


def parse_teams(value, players: int) -> tuple[tuple[int, ...], ...]:
    """``teams``: sides fixed by seat (``[[0, 2], [1, 3]]``); :class:`SeatError` with the path
    inside ``value`` of a seat that does not exist or stands in two teams."""
    if not isinstance(value, (list, tuple)):
        raise SeatError("teams are a list of lists of seats", (), "e.g. [[0, 2], [1, 3]]")
    teams = []
    seen: set = set()
    for i, team in enumerate(value):
        if not isinstance(team, (list, tuple)):
            raise SeatError("a team is a list of seats", (i,), "e.g. [0, 2]")
        for j, seat in enumerate(team):
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
                raise SeatError(f"names seat {seat}: seats are 0 to {players - 1}", (i, j))
            if seat in seen:
                raise SeatError(f"puts seat {seat} in two teams", (i, j))
            seen.add(seat)
        teams.append(tuple(team))
    return tuple(teams)


def _moved(ctx, seat: int, delta: int) -> int:
    """The seat ``delta`` (1 or -1) from ``seat`` among the seats playing the round: a seat sitting
    the round out (``deal.sits_out``) is passed over."""
    moved = (seat + delta) % ctx.n
    if moved == getattr(ctx, "sitting", None):
        moved = (moved + delta) % ctx.n
    return moved


def parse_place(text: str, players: int, path: tuple = ()) -> int:
    """The place in ``(K)``, ``(last)`` or ``(last - K)``: K from the front (1 the first out), or
    from the back as a negative number (-1 the last place)."""
    import re
    match = re.fullmatch(r"\s*\(\s*(?:(\d+)|last(?:\s*-\s*(\d+))?)\s*\)\s*", text)
    if match is None:
        raise SeatError(f"'{PLACE}{text}' is not a place", path,
                        f"write {PLACE}(1), {PLACE}(2), {PLACE}(last) or {PLACE}(last - 1)")
    for digits in match.groups():
        if digits is not None and len(digits) > 4:        # far past any table (and past int()'s limit)
            shown = digits if len(digits) <= 12 else digits[:12] + "..."
            raise SeatError(f"there is no place {shown}: places are 1 to {players}", path)
    if match.group(1) is not None:
        place = int(match.group(1))
        if not 1 <= place <= players:
            raise SeatError(f"there is no place {place}: places are 1 to {players}", path)
        return place
    back = int(match.group(2) or 0)
    if back >= players:
        raise SeatError(f"there is no place last - {back}: places are 1 to {players}", path)
    return -1 - back


_HINT = "e.g. dealer, 0, {next_of: dealer}, {holder: 7/red}, [previous_round.first_out, dealer]"
