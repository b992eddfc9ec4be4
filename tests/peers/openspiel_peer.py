"""OpenSpiel's ``dou_dizhu``, asked through its Python API (``pyspiel``).

OpenSpiel offers no function from a hand to its plays: its legal actions belong to a state.
So each question drives a real game into a position: the chance player deals chosen cards
(the first chance outcome says which dealt card is face up; its holder bids first; card ``k``
of the deal goes to seat ``k % 3``, the three cards left over to the landlord), the opener
bids 3 and becomes the landlord, and the play goes on as the question needs:

* leads of 20 cards: seat 0 is the landlord and holds them; its legal actions;
* leads of 17 to 19 cards: seat 0 is the landlord with the hand and a few more cards, leads
  those first as one play, seats 1 and 2 pass, and seat 0 leads again;
* answers (17 cards): seat 2 is the landlord, holds the play and leads it; seat 0 holds the
  hand and answers.  No position of this game lets a hand of 20 cards answer a play (the
  landlord, the only seat with 20 cards, leads first), nor anyone answer a play of 20 cards
  (the landlord's whole hand: the game ends with it).  Such questions raise
  :class:`Unreachable`.

:func:`random_game` plays a whole game (deal, bidding, play) with a policy and returns what a
replay needs, OpenSpiel's returns included.

Actions are numbers; ``action_to_string`` writes their cards (``T`` for 10, ``(BWJ)`` and
``(CJ)`` for the jokers, ``333444-56`` for an airplane and its kickers).  The kinds of play
are ranges of action numbers (``dou_dizhu_utils.h``).
"""
from __future__ import annotations

import re
import random
from collections import Counter
from typing import Callable, NamedTuple, Sequence

import pyspiel

from . import RANKS, Reading, sort_ranks

NAME = "OpenSpiel"
GAME = pyspiel.load_game("dou_dizhu")
PASS = 0
BID_BASE = 0                          # a bid of n is action n (1..3); 0 passes
BID_3 = 3
DEAL_BASE = 51                        # a deal action is 51 + the card's number
# the first action number of each kind of play, in order (dou_dizhu_utils.h)
KIND_BASES = (
    (4, "solo"), (19, "chain"), (55, "pair"), (68, "pair_chain"), (120, "trio"), (133, "trio_solo"),
    (315, "trio_pair"), (471, "airplane"), (516, "airplane_solos"), (23104, "airplane_pairs"),
    (26043, "bomb"), (26056, "rocket"),
)
_TOKEN = re.compile(r"\(BWJ\)|\(CJ\)|[3-9TJQKA2]")
_FROM_PEER = {"T": "10", "(BWJ)": "BJ", "(CJ)": "RJ"}
_CARDS: dict[int, tuple[str, ...]] = {}      # action -> its cards, as our ranks
_TOPS: dict[int, str] = {}                   # action -> the rank that ranks it


class Unreachable(ValueError):
    """No position of OpenSpiel's game asks this question."""


def card_numbers(cards: Sequence[str], taken: set[int]) -> list[int]:
    """Card numbers for ranks (suit by suit; rank r of suit s is 13 s + r; jokers 52, 53)."""
    out = []
    for rank in cards:
        index = RANKS.index(rank)
        choices = [52 + index - 13] if index >= 13 else [s * 13 + index for s in range(4)]
        free = [n for n in choices if n not in taken]
        if not free:
            raise ValueError(f"the deck holds no further {rank}")
        taken.add(free[0])
        out.append(free[0])
    return out


def _deal(seats: list[list[int]], left_over: list[int], opener: int):
    """A state in the bidding, after dealing ``seats`` (17 cards each) and ``left_over``."""
    state = GAME.new_initial_state()
    state.apply_action(opener)                  # the face-up card is the opener's first card
    queues = [list(s) for s in seats]
    for k in range(51):
        state.apply_action(DEAL_BASE + queues[k % 3].pop())
    return state


def _position(landlord: int, landlord_cards: list[int], others: dict[int, list[int]]):
    """Seat ``landlord`` bids 3 holding ``landlord_cards`` (20); the others hold 17 each."""
    seats = [others.get(seat, []) for seat in range(3)]
    seats[landlord] = landlord_cards[:17]
    state = _deal(seats, landlord_cards[17:], landlord)
    state.apply_action(BID_3)
    return state


def _rest(taken: set[int]) -> list[int]:
    return [n for n in range(54) if n not in taken]


def cards_of(action: int) -> tuple[str, ...]:
    """The cards of a play action, as our sorted ranks."""
    cards = _CARDS.get(action)
    if cards is None:
        text = GAME.new_initial_state().action_to_string(0, action)
        chain, _, _kickers = text.partition("-")
        tokens = [_FROM_PEER.get(t, t) for t in _TOKEN.findall(text)]
        cards = _CARDS[action] = sort_ranks(tokens)
        kind = kind_of(action)
        counted = Counter(_FROM_PEER.get(t, t) for t in _TOKEN.findall(chain))
        if kind in ("trio_solo", "trio_pair"):
            counted = Counter({r: n for r, n in counted.items() if n == 3})
        # the rocket is ranked by its first card, like the pattern 'BJ + RJ'
        _TOPS[action] = "BJ" if kind == "rocket" else max(counted, key=RANKS.index)
    return cards


def kind_of(action: int) -> str:
    """Our combination id of a play action."""
    kind = None
    for base, name in KIND_BASES:
        if action >= base:
            kind = name
    if kind is None:
        raise ValueError(f"action {action} is no play")
    return kind


def _plays(state) -> set[tuple[str, ...]]:
    return {cards_of(a) for a in state.legal_actions() if a != PASS}


def _filler(size: int, taken: set[int]) -> list[str]:
    """``size`` cards of one rank still in the deck (a single, pair or trio): the landlord's
    opening play when the hand to lead from is smaller than 20 cards."""
    for rank in RANKS[:13]:
        if sum(n * 13 + RANKS.index(rank) not in taken for n in range(4)) >= size:
            return [rank] * size
    raise Unreachable("no rank is left for the opening play")


def answer_state(hand: Sequence[str], over: Sequence[str], reading=None):
    """The state where seat 0, holding ``hand`` (17 cards), is to answer ``over`` (played by the
    landlord, seat 2) read as ``reading`` (an action number; by default its first reading)."""
    if len(hand) != 17:
        raise Unreachable("only a hand of 17 cards answers a play in OpenSpiel's game")
    if len(over) >= 20:
        # the landlord's whole hand in one play: the game ends there, and nobody answers
        raise Unreachable("a play of 20 cards empties the landlord's hand and ends the game")
    taken: set[int] = set()
    mine = card_numbers(hand, taken)
    action = reading if reading is not None else readings(over)[0].token
    theirs = card_numbers(over, taken)
    rest = _rest(taken)
    landlord = theirs + _spare(rest, over)[:20 - len(theirs)]
    seat1 = [n for n in rest if n not in landlord]
    state = _position(2, landlord[::-1], {0: mine, 1: seat1})
    state.apply_action(action)
    return state


def lead_state(hand: Sequence[str]):
    """The state where seat 0, the landlord, holding ``hand`` (17 to 20 cards), is to lead."""
    taken: set[int] = set()
    mine = card_numbers(hand, taken)
    if len(hand) == 20:
        rest = _rest(taken)
        return _position(0, mine[::-1], {1: rest[:17], 2: rest[17:]})
    if not 17 <= len(hand) < 20:
        raise Unreachable("OpenSpiel's game leads with 17 to 20 cards")
    opening = _filler(20 - len(hand), taken)
    extra = card_numbers(opening, taken)
    rest = _rest(taken)
    state = _position(0, (extra + mine)[::-1], {1: rest[:17], 2: rest[17:]})
    first = next(a for a in state.legal_actions() if a != PASS and cards_of(a) == sort_ranks(opening))
    state.apply_action(first)
    state.apply_action(PASS)
    state.apply_action(PASS)
    return state


def legal_plays(hand: Sequence[str], over: Sequence[str] | None = None, reading=None) -> set[tuple[str, ...]]:
    """OpenSpiel's legal leads of ``hand`` (17 to 20 cards), or its answers (17 cards) to
    ``over`` read as ``reading`` (an action number; by default its first reading)."""
    state = answer_state(hand, over, reading) if over else lead_state(hand)
    return _plays(state)


def _spare(rest: list[int], cards: Sequence[str]) -> list[int]:
    """The cards of ``rest``, those of ranks outside ``cards`` first."""
    first = [n for n in rest if RANKS[n % 13 if n < 52 else n - 39] not in cards]
    return first + [n for n in rest if n not in first]


def readings(cards: Sequence[str]) -> list[Reading]:
    """Every action of OpenSpiel's game whose cards are ``cards``, as readings."""
    taken: set[int] = set()
    theirs = card_numbers(cards, taken)
    rest = _rest(taken)
    landlord = theirs + _spare(rest, cards)[:20 - len(theirs)]
    others = [n for n in rest if n not in landlord]
    state = _position(0, landlord[::-1], {1: others[:17], 2: others[17:]})
    wanted = sort_ranks(cards)
    out = []
    for action in state.legal_actions():
        if action != PASS and cards_of(action) == wanted:
            out.append(Reading(kind_of(action), _TOPS[action], action))
    return out


# --- whole games ---------------------------------------------------------------------------------
def rank_of(card: int) -> str:
    """Our rank of OpenSpiel's card number (13 s + r for rank r of suit s; jokers 52, 53)."""
    return RANKS[card % 13] if card < 52 else RANKS[card - 39]


def reading_of(action: int) -> Reading:
    """A play action as a reading: our combination id, the rank that ranks it, the action."""
    cards_of(action)
    return Reading(kind_of(action), _TOPS[action], action)


class PlayedGame(NamedTuple):
    """One game of OpenSpiel's ``dou_dizhu``, played to its end: what a replay needs."""

    hands: tuple[tuple[str, ...], ...]          # the 17 cards dealt to each seat, sorted
    left_over: tuple[str, ...]                  # the 3 cards the landlord takes
    face_up: tuple[str, int]                    # the face-up card's rank and its holder
    bids: tuple[tuple[int, int | None], ...]    # (seat, bid 1..3 or None for a pass), in turn
    plays: tuple[tuple[int, Reading | None], ...]   # (seat, the play or None for a pass), in turn
    returns: tuple[float, ...]                  # each seat's return


# a policy: (seat, landlord seat or None while bidding, legal actions, the play to beat or None)
Policy = Callable[[int, "int | None", list, "int | None"], int]


def random_game(rng: random.Random, policy: Policy | None = None) -> PlayedGame:
    """A game dealt by ``rng`` (the face-up position and the shuffle) and played by ``policy``
    (by default a uniformly random legal action, bids included)."""
    choose: Policy = policy or (lambda seat, landlord, legal, over: rng.choice(legal))
    state = GAME.new_initial_state()
    position = rng.randrange(DEAL_BASE)
    state.apply_action(position)
    cards = list(range(54))
    rng.shuffle(cards)
    for card in cards[:51]:
        state.apply_action(DEAL_BASE + card)
    hands = tuple(sort_ranks(rank_of(c) for c in cards[seat:51:3]) for seat in range(3))
    bids: list = []
    plays: list = []
    landlord = high_bidder = None
    over = None                 # the action to beat in the current trick
    passes = 0
    while not state.is_terminal():
        seat = state.current_player()
        action = choose(seat, landlord, state.legal_actions(), over)
        if landlord is None:
            bids.append((seat, None if action == PASS else action - BID_BASE))
            if action != PASS:
                high_bidder = seat
            state.apply_action(action)
            # the play has begun when the landlord, who may not pass, is to lead
            if not state.is_terminal() and min(state.legal_actions()) >= KIND_BASES[0][0]:
                landlord = high_bidder
            continue
        plays.append((seat, None if action == PASS else reading_of(action)))
        if action == PASS:
            passes += 1
            if passes == 2:
                over, passes = None, 0
        else:
            over, passes = action, 0
        state.apply_action(action)
    return PlayedGame(hands, sort_ranks(rank_of(c) for c in cards[51:]),
                      (rank_of(cards[position]), position % 3), tuple(bids), tuple(plays),
                      tuple(state.returns()))
