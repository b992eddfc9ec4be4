"""The engine's decisions and deals: :class:`Action` (a bid, a pass, a gift of cards, a play)
with the functions that make one, and :class:`Deal` (the cards of each seat and of the nest).

Both are small values, hashable and compared by value; :mod:`chimera_dsl.engine` gives them
to its players and takes them back.
"""
from __future__ import annotations

import random
from hashlib import sha512 as _sha512
from typing import NamedTuple

from ..errors import IllegalActionError
from ..matcher import Play


class Action(NamedTuple):
    """One decision: ``kind`` is ``"bid"``, ``"pass"``, ``"give"`` or ``"play"``.

    ``bid`` is the level of a bid, ``cards`` the packed key handed over in a transfer,
    ``play`` the matcher :class:`~chimera_dsl.matcher.Play` of a play.  ``"pass"`` passes in
    the bidding, in a trick, or declines an out-of-turn play.  Hashable, compared by value.
    ``mask``, when given, names the very cards (a bit mask over the deck's cards) that a play
    or a gift uses; without it the engine takes, of each rank, the first held in deck order.
    """

    kind: str
    bid: int | None = None
    cards: int | None = None
    play: Play | None = None
    mask: int | None = None

    def __repr__(self) -> str:
        if self.kind == "bid":
            return f"Action(bid {self.bid})"
        if self.kind == "give":
            return f"Action(give {self.cards:#x})"
        if self.kind == "play" and self.play is not None:
            return f"Action(play {' '.join(self.play.cards)} as {self.play.combination} {self.play.rank})"
        return f"Action({self.kind})"


PASS = Action("pass")
_new_action = tuple.__new__


def _play_actions(plays) -> list[Action]:
    """Actions of a sequence of plays (built without the NamedTuple constructor: hot path)."""
    return [_new_action(Action, ("play", None, None, p, None)) for p in plays]


def bid_action(level: int) -> Action:
    """The action of bidding ``level``."""
    return Action("bid", bid=level)


def give_action(key: int) -> Action:
    """The exchange action handing over the packed cards ``key``."""
    return Action("give", cards=key)


def play_action(play: Play) -> Action:
    """The action of making ``play``."""
    return Action("play", play=play)


def describe_play(play: Play) -> str:
    """``7 7 7 5 (trio_single, rank 7)``: the cards and the reading of a play."""
    return f"{' '.join(play.cards)} ({play.combination}, rank {play.rank})"


# -- the deal --------------------------------------------------------------------------------

class Deal(NamedTuple):
    """One deal: the cards of each seat and of the nest (bit masks over the deck's cards), and
    the face-up card with its holder (``(card number, seat)``; seat None: no seat holds it)."""

    hands: tuple[int, ...]
    nest: int
    face_up: tuple[int, int | None] | None


class TwoPartDeal(Deal):
    """A deal in two parts (``deal.first``): a :class:`Deal` (its three fields, unpacked and
    compared as one) that also says, in ``first``, the cards of each seat's hand it sees first
    (bit masks).  A plain :class:`Deal` given to a game that deals in two parts shows each seat
    the first cards of its hand in deck order."""

    first: tuple[int, ...]

    def __new__(cls, hands, nest, face_up, first):
        deal = tuple.__new__(cls, (hands, nest, face_up))
        deal.first = tuple(first)
        return deal

    def __repr__(self) -> str:
        return f"TwoPartDeal(hands={self.hands!r}, nest={self.nest!r}, face_up={self.face_up!r}, first={self.first!r})"


def first_seen(deal: Deal) -> tuple[int, ...] | None:
    """The cards each seat sees first in ``deal`` (a :class:`TwoPartDeal`), else None."""
    return getattr(deal, "first", None)


def deal_from_keys(deck, hands, nest: int, face_up) -> Deal:
    """A :class:`Deal` from packed rank counts (an injected deal that names no colours): of each
    rank, the cards are taken in deck order.  ``face_up`` is ``(rank index, seat)`` or None."""
    free = deck.full_mask
    masks = []
    for key in list(hands) + [nest]:
        mask = deck.take(free, key)
        free &= ~mask
        masks.append(mask)
    face = None
    if face_up is not None:
        rank, seat = face_up
        pool = masks[seat] if seat is not None else (masks[-1] | free)
        bits = [b for b in deck.rank_cards[rank] if pool & b] or list(deck.rank_cards[rank])
        face = (bits[0].bit_length() - 1, seat)
    return Deal(tuple(masks[:-1]), masks[-1], face)


class SecretSeed:
    """A seed nobody knows: every shuffle, cut and first dealer it gives is drawn from the
    operating system's cryptographically secure source (:class:`random.SystemRandom`), so no
    deal can be predicted from anything shown.  Its games cannot be dealt again from it: a
    record keeps their deals (``game_start.seed`` is ``null``), and replay reads those.

    ``Game.new_game(SECRET_SEED)`` is what a table that strangers play at uses (``chimera
    serve`` and ``chimera play`` without ``--seed``).
    """

    __slots__ = ()

    def rng(self) -> random.Random:
        return random.SystemRandom()

    def __repr__(self) -> str:
        return "SECRET_SEED"


SECRET_SEED = SecretSeed()


def seed_rng(seed, label: str) -> random.Random:
    """The random source of ``label`` (``deal:3``, ``first_dealer``) in the game of ``seed``:
    ``Random(f"{seed}:{label}")``, or the secure source for :data:`SECRET_SEED`."""
    if isinstance(seed, SecretSeed):
        return seed.rng()
    return _seeded(f"{seed}:{label}")


def _fast_seeded(text: str) -> random.Random:
    """``random.Random(text)``: the same state, seeded as ``Random.seed`` seeds from a string
    (its bytes and their SHA-512, as one integer), without the Python-level calls between
    (a deal seeds twice per round; :func:`_check_seeded` keeps ``Random(text)`` where they differ)."""
    data = text.encode()
    rng = _new_random(random.Random)
    _c_seed(rng, int.from_bytes(data + _sha512(data).digest(), "big"))
    setattr(rng, "gauss_next", None)             # as Random.seed leaves it
    return rng


def _check_seeded() -> None:
    global _seeded
    for text in ("0:deal:1", "7:first_dealer", "x"):
        try:
            same = _fast_seeded(text).getstate() == random.Random(text).getstate()
        except Exception:
            same = False
        if not same:
            _seeded = random.Random
            return


_new_random = random.Random.__new__
_c_seed = getattr(random.Random.__mro__[1], "seed")  # _random.Random.seed: the generator's own
_seeded = _fast_seeded
_check_seeded()


def phase_taking(state, action, why_illegal):
    """The phase of the round under way, once ``action`` is found among the legal actions of
    the seat to act (else :class:`~chimera_dsl.errors.IllegalActionError` with ``why_illegal``'s
    reason); the legal actions are then forgotten, as the action changes them."""
    phase = state._now                        # the round's phase under way
    legal = state._legal
    if legal is None:
        legal = state.legal_actions()
    if action not in legal:
        raise IllegalActionError(why_illegal(state, phase, action))
    state._legal = None
    return phase
