"""rlcard 1.2.0's Dou Dizhu, asked through its own code.

Leads: ``DoudizhuJudger.playable_cards_from_hand`` (what its judger computes for a hand when
it is dealt).  Answers: ``utils.get_gt_cards`` (what a player may play on the greatest play of
the trick), which reads the play's type from the engine's table of 27,471 plays.  rlcard
writes ranks ``3..9 T J Q K A 2 B R``; each set of cards has exactly one type there.
"""
from __future__ import annotations

from types import SimpleNamespace
from typing import Sequence

from rlcard.games.base import Card
from rlcard.games.doudizhu.judger import DoudizhuJudger
from rlcard.games.doudizhu.utils import CARD_RANK_STR, CARD_TYPE, get_gt_cards

from . import Reading, sort_ranks

NAME = "rlcard 1.2.0"
TO_PEER = {"10": "T", "BJ": "B", "RJ": "R"}
FROM_PEER = {"T": "10", "B": "BJ", "R": "RJ"}
PEER_INDEX = {c: i for i, c in enumerate(CARD_RANK_STR)}
OURS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "BJ", "RJ")

# rlcard's types, by the prefix of their name, as our combination ids
KINDS = (
    ("solo_chain_", "chain"), ("pair_chain_", "pair_chain"), ("trio_chain_", "airplane"),
    ("trio_solo_chain_", "airplane_solos"), ("trio_pair_chain_", "airplane_pairs"),
    ("solo", "solo"), ("pair", "pair"), ("trio_solo", "trio_solo"), ("trio_pair", "trio_pair"),
    ("trio", "trio"), ("four_two_solo", "four_two_solos"), ("four_two_pair", "four_two_pairs"),
    ("bomb", "bomb"), ("rocket", "rocket"),
)
# types whose weight counts from 1 (the others from 0)
_FROM_ONE = ("trio_solo", "trio_pair", "four_two")


def to_peer(cards: Sequence[str]) -> str:
    """Our ranks as rlcard's sorted card string."""
    return "".join(sorted((TO_PEER.get(c, c) for c in cards), key=PEER_INDEX.__getitem__))


def from_peer(text: str) -> tuple[str, ...]:
    """rlcard's card string as our sorted ranks."""
    return sort_ranks(FROM_PEER.get(c, c) for c in text)


def player(cards: Sequence[str], played: Sequence[str] | None = None) -> SimpleNamespace:
    """What rlcard's ``get_gt_cards`` reads of a player: its hand (card objects) and the cards
    it played last."""
    hand = [Card(c, "") if c in ("BJ", "RJ") else Card("S", TO_PEER.get(c, c)) for c in cards]
    return SimpleNamespace(current_hand=hand, played_cards=to_peer(played) if played else None)


def leads(hand: Sequence[str]) -> set[str]:
    """rlcard's own call for the leads of a hand (its card strings)."""
    return DoudizhuJudger.playable_cards_from_hand(to_peer(hand))


def legal_plays(hand: Sequence[str], over: Sequence[str] | None = None, reading=None) -> set[tuple[str, ...]]:
    """rlcard's legal leads of ``hand``, or its answers to ``over`` (passing excluded)."""
    if not over:
        return {from_peer(p) for p in leads(hand)}
    return {from_peer(p) for p in get_gt_cards(player(hand), player([], over)) if p != "pass"}


def readings(cards: Sequence[str]) -> list[Reading]:
    """rlcard's type of ``cards`` (none when its table does not hold them)."""
    out = []
    for kind, weight in CARD_TYPE[0].get(to_peer(cards), []):
        ours = next(name for prefix, name in KINDS if kind.startswith(prefix))
        if ours == "rocket":
            out.append(Reading(ours, "BJ", kind))
            continue
        head = int(weight) - (1 if kind.startswith(_FROM_ONE) else 0)
        length = int(kind.rsplit("_", 1)[1]) if "chain" in kind else 1
        out.append(Reading(ours, OURS[head + length - 1], kind))
    return out
