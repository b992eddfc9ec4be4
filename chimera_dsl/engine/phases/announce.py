"""Announcements (melds) of a trick-taking play: what a hand shows with its first card.

A variant's ``play.announcements`` lists what may be announced, as data:

* ``sequences``: runs of one colour in ``sequence_order`` (points by length);
* ``sets``: every card of one rank (points by rank);
* ``trump_pair``: two ranks of the trump colour held together (announced when the second is
  played; with ``always_scores`` it scores whoever has the best announcement, without it it is
  compared with the others like any announcement).

Every seat announces, with its first card, everything its hand holds (announcing is not a
choice here: the best is always shown).  Once the first trick is over, the announcements are
compared: more points, then more cards, then the higher top card in ``sequence_order``, then
a run in the trump colour; when two sides are still equal, ``ties`` decides.  Only the side
with the best announcement scores, all of its own: with the round's points (the round's
``announced`` seat fact), or at once with ``scored: at_once``, when a total that reaches the
file's end wins the game there.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, NamedTuple

from ...errors import Problem, VariantError


SCORED = ("at_round_end", "at_once")


class Meld(NamedTuple):
    """One announcement: its name, points, number of cards, top card's place, and whether it is in trumps."""

    name: str
    points: int
    cards: int
    top: int
    trump: bool
    mask: int
    is_set: bool = False

    def strength(self, sets_first: bool = False) -> tuple:
        """What compares announcements: points, (with ``sets_first``, a set before a run,) cards,
        top card, trump."""
        if sets_first:
            return (self.points, self.is_set, self.cards, self.top, self.trump)
        return (self.points, self.cards, self.top, self.trump)


@dataclass(frozen=True)
class Announcements:
    """The compiled ``play.announcements``."""

    sequences: tuple[tuple[int, int], ...]     # (length, points), shortest first
    order: tuple[int, ...]                     # rank indices, lowest first
    sets: tuple[tuple[int, int], ...]          # (rank index, points)
    pair: tuple[int, ...]                      # the trump pair's rank indices (empty: none)
    pair_points: int
    pair_always: bool
    ties: str
    at_once: bool = False                      # scored: at_once (added to the totals as they are settled)
    sets_first: bool = False                   # sets_beat_sequences: at equal points a set beats a run


def _bad(path: tuple, message: str, hint: str | None = None):
    raise VariantError([Problem(f"{'.'.join(map(str, path))} {message}", tuple(path), hint=hint)])


def compile_announcements(deck, spec: dict, path: tuple, trump_strength,
                          rank: Callable[..., int]) -> Announcements:
    """Read ``play.announcements`` (raises :class:`VariantError` naming the path); ``rank(deck,
    name, path)`` reads a rank's name as the trick play reads it (:mod:`chimera_dsl.engine.phases.tricks`,
    which compiles this)."""
    sequences = tuple(sorted((int(k), int(v)) for k, v in (spec.get("sequences") or {}).items()))
    for length, _ in sequences:
        if length < 2:
            _bad(path + ("sequences", str(length)), "is a run of fewer than 2 cards", "runs are 2 cards or more")
    order_spec = spec.get("sequence_order")
    order = tuple(rank(deck, v, path + ("sequence_order", i)) for i, v in enumerate(order_spec)) \
        if order_spec else tuple(range(len(deck.ranks)))
    if len(set(order)) != len(order):
        _bad(path + ("sequence_order",), "names a rank twice", "name each rank once, lowest first")
    sets = tuple((rank(deck, k, path + ("sets", k)), int(v)) for k, v in (spec.get("sets") or {}).items())
    pair_spec = spec.get("trump_pair") or {}
    pair = tuple(rank(deck, v, path + ("trump_pair", "ranks", i)) for i, v in enumerate(pair_spec.get("ranks") or []))
    if pair and pair[0] == pair[1]:
        _bad(path + ("trump_pair", "ranks"), "names one rank twice", "e.g. ranks: [K, Q]")
    scored = str(spec.get("scored", "at_round_end"))
    if scored not in SCORED:
        _bad(path + ("scored",), f"is '{scored}'", "write " + " or ".join(SCORED))
    sets_first = spec.get("sets_beat_sequences", False)
    if not isinstance(sets_first, bool):
        _bad(path + ("sets_beat_sequences",), f"is {sets_first!r}, not true or false",
             "write sets_beat_sequences: true or false")
    if sets_first and not sets:
        _bad(path + ("sets_beat_sequences",), "lets a set beat a run of equal points, but sets names none",
             "give sets, or remove sets_beat_sequences")
    return Announcements(sequences, order, sets, pair, int(pair_spec.get("points", 0)),
                         bool(pair_spec.get("always_scores", True)), str(spec.get("ties", "first_in_play")),
                         scored == "at_once", sets_first)


def melds_of(spec: Announcements, deck, held: int, trump_colour: int | None) -> list[Meld]:
    """Every announcement a hand holds (the trump pair apart: it is announced when played)."""
    out: list[Meld] = []
    place = {rank: i for i, rank in enumerate(spec.order)}
    names = deck.card_names
    if spec.sequences:
        shortest = spec.sequences[0][0]
        by_colour: dict[str, dict[int, int]] = {}
        for c in deck.numbers_of(held):
            rank, colour = deck.cards[c]
            if colour is not None and rank in place:
                by_colour.setdefault(colour, {})[place[rank]] = c
        for colour, cards in by_colour.items():
            run: list[int] = []
            for p in range(len(spec.order) + 1):
                if p in cards:
                    run.append(p)
                    continue
                if len(run) >= shortest:
                    points = [v for length, v in spec.sequences if length <= len(run)][-1]
                    mask = 0
                    for q in run:
                        mask |= 1 << cards[q]
                    trump = trump_colour is not None and deck.colours.index(colour) == trump_colour
                    out.append(Meld(f"{len(run)} in a row to {names[cards[run[-1]]]}", points, len(run), run[-1],
                                    trump, mask))
                run = []
    for rank, points in spec.sets:
        all_of = deck.rank_masks[rank]
        if held & all_of == all_of:
            out.append(Meld(f"all the {deck.ranks[rank]}", points, bin(all_of).count("1"),
                            place.get(rank, -1), False, all_of, True))
    return out


def _trump_colour(table) -> int | None:
    layer = table.layers[0] if table.layers else None
    return layer[1] if layer is not None and layer[0] == "colour" else None


def on_card(state, table, phase, seat: int, card: int) -> None:
    """Before ``card`` leaves ``seat``'s hand: announce with the first card, and the trump pair with its second."""
    spec: Announcements = phase.announcements
    deck = state.game.rules.deck
    trump = _trump_colour(table)
    if table.count == 0 and not table.trick and seat not in table.first_order:
        # the round's first card: who holds the trump pair, from the hands as play begins
        table.pair_holder = None
        if spec.pair and trump is not None:
            table.pair_cards = 0
            for rank in spec.pair:
                for c in deck.numbers_of(deck.rank_masks[rank]):
                    if deck.cards[c][1] == deck.colours[trump]:
                        table.pair_cards |= 1 << c
            for s in range(state.n):
                if state.held[s] & table.pair_cards == table.pair_cards:
                    table.pair_holder = s
    if table.count == 0:
        table.first_order.append(seat)
    if table.first_card[seat]:
        table.first_card[seat] = False
        melds = melds_of(spec, deck, state.held[seat], trump)
        table.announced[seat] = melds
        if melds:
            state._events.append({"type": "announce", "round": state.round, "seat": seat,
                                 "melds": [{"name": m.name, "points": m.points,
                                            "cards": deck.mask_names(m.mask)} for m in melds]})
    if table.pair_holder == seat and (1 << card) & table.pair_cards:
        if state.held[seat] & table.pair_cards == 1 << card:         # the second of the two
            table.pair_shown = True
            event = {"type": "announce", "round": state.round, "seat": seat,
                     "melds": [{"name": "trump pair", "points": spec.pair_points,
                                "cards": deck.mask_names(table.pair_cards)}]}
            if spec.pair_always:
                _score(state, table, spec, table.side(seat), spec.pair_points, event)
                if not spec.at_once:
                    for s in table.side(seat):
                        table.pair_bonus[s] += spec.pair_points * table.factor
            state._events.append(event)


def settle_announcements(state, table, phase) -> None:
    """After the first trick: the side with the best announcement scores all of its own."""
    spec: Announcements = phase.announcements
    best: dict[tuple, tuple] = {}
    shown: dict[tuple, int] = {}          # per side, the place in the first trick of the seat showing its best

    def offer(side: tuple, strength: tuple, place: int) -> None:
        if side not in best or strength > best[side] or (strength == best[side] and place < shown[side]):
            best[side], shown[side] = strength, place

    for place, seat in enumerate(table.first_order):
        for meld in table.announced[seat]:
            offer(table.side(seat), meld.strength(spec.sets_first), place)
    holder = table.pair_holder
    if not spec.pair_always and holder is not None and holder in table.first_order:
        # the trump pair is then one announcement among the others, compared like them
        order = {rank: i for i, rank in enumerate(spec.order)}
        high = max(order.get(rank, -1) for rank in spec.pair)
        pair = (spec.pair_points, False, len(spec.pair), high, True) if spec.sets_first else \
            (spec.pair_points, len(spec.pair), high, True)
        offer(table.side(holder), pair, table.first_order.index(holder))
    if not best:
        return
    top = max(best.values())
    winners = [side for side, strength in best.items() if strength == top]
    if len(winners) > 1:
        if spec.ties == "nobody":
            state._events.append({"type": "announcements", "round": state.round, "seats": [], "points": 0})
            return
        winners = [min(winners, key=lambda side: shown[side])]      # the side that showed it first
    side = winners[0]
    points = sum(m.points for s in side for m in table.announced[s])
    if not spec.pair_always and holder is not None and holder in side:
        points += spec.pair_points
        if not spec.at_once:
            for s in side:
                table.pair_bonus[s] += spec.pair_points * table.factor
    event = {"type": "announcements", "round": state.round, "seats": list(side), "points": points}
    _score(state, table, spec, side, points, event)
    state._events.append(event)


def _score(state, table, spec: Announcements, side: tuple, points: int, event: dict) -> None:
    """Give ``side`` its announcement points: with the round's points (the ``announced`` fact),
    or at once (``scored: at_once``: into the totals now, written in ``event``; a total that
    ends the game by the file's end ends it as soon as the card or trick is played).  The points
    count as many times as every point of the round (``play.trump_factors``)."""
    points *= table.factor
    if "points" in event:
        event["points"] = points
    if not spec.at_once:
        for s in side:
            table.bonus[s] += points
        return
    totals = state.totals
    for s in side:
        totals[s] += points
    event["totals"] = list(totals)
    end = state._round.end
    if state._extra_round or not end.over(totals, state.round, state.game.target, state.values):
        return                  # an extra round to break a tie is played to its end
    leaders = end.leaders(totals)
    if end.ties != "one_more_round" or len({table.side(s) for s in leaders}) == 1:
        table.ends_now = True
