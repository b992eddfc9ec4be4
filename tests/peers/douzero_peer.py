"""DouZero's Dou Dizhu (``douzero.env``), asked through its own code.

Its package pins torch, but the game itself (``douzero/env/game.py``, ``move_generator.py``,
``move_detector.py``, ``move_selector.py``) needs only numpy: install it with ``pip install
--no-deps douzero``.  Legal plays come from ``GameEnv.get_legal_card_play_actions`` on a game
whose acting seat holds the hand and whose last move is the play to answer; the play's type
is what ``move_detector.get_move_type`` says.  DouZero writes ranks as numbers: 3..14 for
3..A, 17 for 2, 20 and 30 for the jokers.
"""
from __future__ import annotations

from typing import Sequence

from douzero.env import move_detector as md
from douzero.env.game import GameEnv

from . import Reading, sort_ranks

NAME = "douzero"
TO_PEER = {"3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "J": 11, "Q": 12,
           "K": 13, "A": 14, "2": 17, "BJ": 20, "RJ": 30}
FROM_PEER = {v: k for k, v in TO_PEER.items()}

# DouZero's move types as our combination ids (a type it cannot read has none)
KINDS = {
    md.TYPE_1_SINGLE: "solo", md.TYPE_2_PAIR: "pair", md.TYPE_3_TRIPLE: "trio", md.TYPE_4_BOMB: "bomb",
    md.TYPE_5_KING_BOMB: "rocket", md.TYPE_6_3_1: "trio_solo", md.TYPE_7_3_2: "trio_pair",
    md.TYPE_8_SERIAL_SINGLE: "chain", md.TYPE_9_SERIAL_PAIR: "pair_chain",
    md.TYPE_10_SERIAL_TRIPLE: "airplane", md.TYPE_11_SERIAL_3_1: "airplane_solos",
    md.TYPE_12_SERIAL_3_2: "airplane_pairs", md.TYPE_13_4_2: "four_two_solos",
    md.TYPE_14_4_22: "four_two_pairs",
}
CHAINS = (md.TYPE_8_SERIAL_SINGLE, md.TYPE_9_SERIAL_PAIR, md.TYPE_10_SERIAL_TRIPLE,
          md.TYPE_11_SERIAL_3_1, md.TYPE_12_SERIAL_3_2)

_GAME = GameEnv(players={})


def to_peer(cards: Sequence[str]) -> list[int]:
    """Our ranks as DouZero's sorted list of numbers."""
    return sorted(TO_PEER[c] for c in cards)


def from_peer(move: Sequence[int]) -> tuple[str, ...]:
    """DouZero's move as our sorted ranks."""
    return sort_ranks(FROM_PEER[v] for v in move)


def position(hand: Sequence[str], over: Sequence[str] | None = None) -> GameEnv:
    """DouZero's game with the acting seat holding ``hand`` and ``over`` as the last move
    (``GameEnv.get_legal_card_play_actions`` then gives its legal moves)."""
    game = _GAME
    game.acting_player_position = "landlord"
    game.info_sets["landlord"].player_hand_cards = to_peer(hand)
    game.card_play_action_seq = [to_peer(over)] if over else []
    return game


def legal_plays(hand: Sequence[str], over: Sequence[str] | None = None, reading=None) -> set[tuple[str, ...]]:
    """DouZero's legal leads of ``hand``, or its answers to ``over`` (passing excluded)."""
    return {from_peer(m) for m in position(hand, over).get_legal_card_play_actions() if m}


def readings(cards: Sequence[str]) -> list[Reading]:
    """DouZero's type of ``cards`` (none when its detector cannot read them)."""
    move = to_peer(cards)
    found = md.get_move_type(move)
    kind = KINDS.get(found["type"])
    if kind is None:
        return []
    if kind == "rocket":
        return [Reading(kind, "BJ", found["type"])]
    rank = found["rank"]
    if found["type"] in CHAINS:          # DouZero ranks a chain by its lowest unit
        rank += found["len"] - 1
    return [Reading(kind, FROM_PEER[rank], found["type"])]
