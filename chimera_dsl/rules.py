"""Rules: a variant compiled once, answering the questions of the game.

``Rules`` is what the engine, the players and the command line share.  Its hot path works on
packed hands (:mod:`chimera_dsl.cards`); the friendly methods accept what people type.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterator, Sequence

from .cards import GUARD, LOW, Deck
from .errors import CardError, Problem, VariantError
from .matcher import CompiledCombination, Play, compile_combinations

CardsLike = str | Sequence[str]


class Rules:
    """A compiled variant.  Build with :func:`chimera_dsl.load_variant` or :meth:`from_spec`."""

    def __init__(self, spec: dict, deck: Deck, combinations: list[CompiledCombination], *,
                 path: str = "", source_hash: str = "", max_hand: int = 0, intern: dict | None = None):
        self.spec = spec
        self.deck = deck
        self.combinations: tuple[CompiledCombination, ...] = tuple(combinations)
        self.combination = {c.id: c for c in combinations}
        self.path = path
        self.source_hash = source_hash
        self.base_path: Path | None = None   # the file this variant extends directly (absolute), set by the loader
        self.files: tuple = ()      # the variant file and every file it extends (absolute), set by the loader
        self.name = str(spec.get("name") or spec.get("game") or path)
        self.max_hand = max_hand
        # Do any rules of this variant read a card's colour?  (The rank-count matcher does not.)
        self.reads_colours = False
        self._intern = intern if intern is not None else {}
        self._levels = sorted({level for c in combinations for level in c.levels})
        self._top_level = max(self._levels) if self._levels else 1
        self._tiers = sorted({c.tier for c in combinations})
        self._lead_cache: dict[int, tuple[Play, ...]] = {}
        # _above_tier[t]: the combinations whose tier is higher than t
        self._above_tier = {t: tuple(c for c in combinations if c.tier > t) for t in self._tiers}

    @classmethod
    def from_spec(cls, spec: dict, *, path: str = "", source_hash: str = "") -> "Rules":
        """Compile a merged, schema-valid variant document.

        Raises :class:`VariantError` whose problems carry the path of the fault in the
        document (and, inside a pattern, the character offset).
        """
        try:
            deck = Deck.from_spec(spec["deck"])
        except KeyError as error:
            raise VariantError([Problem(f"unknown rank {error.args[0]!s}", ("deck",))]) from None
        max_hand = max_hand_of(spec)
        intern: dict = {}
        combos, problems = compile_combinations(spec.get("combinations") or {}, deck, max_hand, intern)
        if problems:
            raise VariantError(problems)
        return cls(spec, deck, combos, path=path, source_hash=source_hash, max_hand=max_hand, intern=intern)

    # -- hot path: packed hands ---------------------------------------------------------------
    def _ge(self, hand: int) -> list[int]:
        ge = [0] * (self._top_level + 1)
        guarded = hand | GUARD
        for k in self._levels:
            ge[k] = ((guarded - k * LOW) & GUARD) >> 3
        return ge

    def leads(self, hand: int) -> tuple[Play, ...]:
        """Every play that may lead a trick from the packed ``hand`` (passing not included).

        The result is shared (cached per hand): a tuple, never to be changed.
        """
        cached = self._lead_cache.get(hand)
        if cached is not None:
            return cached
        ge = self._ge(hand)
        out: list[Play] = []
        for combo in self.combinations:
            out.extend(combo.plays(hand, ge))
        result = tuple(out)
        if len(self._lead_cache) >= 4096:
            self._lead_cache.clear()
        self._lead_cache[hand] = result
        return result

    def answers(self, hand: int, over: Play) -> list[Play]:
        """Every play that may be made on ``over`` from the packed ``hand`` (passing not included)."""
        ge = self._ge(hand)
        # the same combination, as many units (so as many cards), a higher rank
        out = list(self.combinations[over.index].plays(hand, ge, over.length, over.rank))
        for combo in self._above_tier[over.tier]:
            out.extend(combo.plays(hand, ge))
        return out

    @staticmethod
    def can_beat(play: Play, over: Play) -> bool:
        """May ``play`` be made on ``over``?"""
        if play.tier != over.tier:
            return play.tier > over.tier
        return play.index == over.index and play.size == over.size and play.rank > over.rank

    def readings(self, key: int) -> list[Play]:
        """Every reading of exactly the cards of ``key``."""
        if not self.deck.fits(key):
            return []
        return [p for p in self.leads(key) if p.key == key]

    def play_of(self, key: int, combination: str, rank: int) -> Play | None:
        """The play these cards make as ``combination`` at ``rank``, or None if they cannot."""
        for p in self.readings(key):
            if p.combination == combination and p.rank == rank:
                return p
        return None

    # -- friendly API ---------------------------------------------------------------------------
    def cards_key(self, cards: CardsLike, *, check_deck: bool = True) -> int:
        """Read a list of cards typed by a person (raises :class:`CardError`)."""
        return self.deck.parse_key(cards, check_deck=check_deck)

    def classify(self, cards: CardsLike) -> list[Play]:
        """Every combination these cards form (empty when none, or when the deck cannot hold them)."""
        indices, problem = self.deck.held(cards)
        if problem:
            return []
        return self.readings(self.deck.key(indices))

    def why_not(self, cards: CardsLike) -> str:
        """Why these cards form no combination."""
        return self.deck.held(cards)[1] or "these cards match none of the variant's combinations"

    def beats(self, over: CardsLike, cards: CardsLike) -> bool:
        """May ``cards`` (the second) be played on ``over`` (the first), as CONTRACT.md orders them?

        Yes if any reading of ``cards`` beats any reading of ``over``.
        """
        return self.explain_beats(over, cards)[0]

    def explain_beats(self, over: CardsLike, cards: CardsLike) -> tuple[bool, str]:
        """(may ``cards`` be played on ``over``, a sentence saying why)."""
        plays = self.classify(cards)
        unders = self.classify(over)
        if not plays:
            return False, f"{_text(cards)} is not a combination: {self.why_not(cards)}"
        if not unders:
            return False, f"{_text(over)} is not a combination: {self.why_not(over)}"
        for play in plays:
            for under in unders:
                if self.can_beat(play, under):
                    return True, self._reason(play, under)
        return False, self._reason(plays[0], unders[0])

    def _reason(self, play: Play, over: Play) -> str:
        if play.tier > over.tier:
            return f"a {play.combination} beats any play of a lower tier, such as a {over.combination}"
        if play.tier < over.tier:
            return f"a {over.combination} can only be beaten by a higher play of its own tier or a higher tier"
        if play.index != over.index:
            return f"a {play.combination} cannot be played on a {over.combination}: it must be the same combination"
        if play.size != over.size:
            return f"the same combination must have the same number of cards ({play.size} against {over.size})"
        if play.rank > over.rank:
            return f"same combination ({play.combination}), same number of cards, higher rank ({play.rank} > {over.rank})"
        return f"rank {play.rank} is not higher than {over.rank}"

    def legal_plays(self, hand: CardsLike, over: CardsLike | Play | None = None) -> list[Play]:
        """Every legal lead from ``hand``, or with ``over``, every legal answer to it (no pass).

        An ``over`` given as cards with several readings is answered for each reading.
        """
        key = self.cards_key(hand)
        if over is None:
            return list(self.leads(key))
        if isinstance(over, Play):
            return self.answers(key, over)
        unders = self.classify(over)
        if not unders:
            raise CardError(f"{_text(over)} is not a combination: {self.why_not(over)}")
        seen: dict[Play, None] = {}
        for under in unders:
            for p in self.answers(key, under):
                seen.setdefault(p, None)
        return list(seen)

    def iter_legal_plays(self, hand: CardsLike, over: CardsLike | None = None) -> Iterator[Play]:
        """The plays of :meth:`legal_plays`, in the same order, made one combination at a time.

        Nothing is kept once given (for listing a large hand with flat memory).  The hand and
        ``over`` are read at once, so a :class:`CardError` is raised by the call itself.
        """
        key = self.cards_key(hand)
        unders: list[Play] = []
        if over is not None:
            unders = self.classify(over)
            if not unders:
                raise CardError(f"{_text(over)} is not a combination: {self.why_not(over)}")
        return self._iter_plays(key, unders)

    def _iter_plays(self, key: int, unders: list[Play]) -> Iterator[Play]:
        ge = self._ge(key)
        if not unders:
            for combo in self.combinations:
                yield from combo.plays(key, ge)
            return
        for i, under in enumerate(unders):
            for play in self.answers(key, under):
                # listed once: a play that also answers an earlier reading was given with it
                if not any(self.can_beat(play, earlier) for earlier in unders[:i]):
                    yield play

    def role_name(self, role: str, lang: str = "en") -> str:
        """What the variant calls a role (``bidder``, ``others``), in ``lang`` when it says."""
        value = (self.spec.get("roles") or {}).get(role, role)
        if isinstance(value, dict):
            return str(value.get(lang) or value.get("en") or next(iter(value.values()), role))
        return str(value)

    def __repr__(self) -> str:
        return f"Rules({self.name!r}, {len(self.combinations)} combinations)"


def max_hand_of(spec: dict) -> int:
    """The most cards one player can hold under the variant: a hand, plus the nest if it is taken."""
    deal = spec.get("deal") or {}
    hand = int(deal.get("hand") or 0)
    nest = int(deal.get("nest") or 0)
    if (spec.get("nest") or {}).get("to", "bidder") and nest:
        hand += nest
    if not hand:
        hand = sum(1 for _ in spec.get("deck", {}).get("cards", [])) or 64
    return hand


def _text(cards: CardsLike) -> str:
    return cards if isinstance(cards, str) else " ".join(cards)
