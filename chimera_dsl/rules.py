"""Rules: a variant compiled once, answering the questions of the game.

``Rules`` is what the engine, the players and the command line share.  Its hot path works on
packed hands (:mod:`chimera_dsl.cards`); the friendly methods accept what people type.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Collection, Iterator, Sequence

from .cards import Deck
from .errors import CardError, ChimeraError, Problem, VariantError, shown
from .cardplays import CardPlay, CardPlays, strength_of
from .leadlist import lead_function
from .matcher import CompiledCombination, Play, compile_combinations

# The sentences of :meth:`Rules.explain_beats` and :meth:`Rules.why_not` in English, as the
# library answers; the command line passes a language's own (the catalogs' ``cli.beats``, whose
# English is this, tests/test_cli_languages.py), since this layer reads no catalog.
BEATS_WORDS = {
    "not_a_combination": "{cards} is not a combination: {why}",
    "no_combination": "these cards match none of the variant's combinations",
    "higher_tier": "a {play} beats any play of a lower tier, such as a {over}",
    "lower_tier": "a {over} can only be beaten by a higher play of its own tier or a higher tier",
    "size": "a play within a tier must have as many cards ({mine} against {theirs})",
    "not_same": "a {play} cannot be played on a {over}: it must be the same combination",
    "higher_in_order": "a {play} comes higher than a {over} in the order of its tier",
    "lower_in_order": "a {play} comes lower than a {over} in the order of its tier",
    "same_combination": "same combination ({play})",
    "same_place": "a {play} and a {over} share one place in the order of their tier",
    "alike": "{alike}: ",
    "higher_rank": "{alike}, same number of cards, higher rank ({mine} > {theirs})",
    "not_higher": "{alike}rank {mine} is not higher than {theirs}",
    "stronger": "{alike}same rank ({mine}), and its cards are stronger card by card (values, then colours)",
    "not_stronger": "{alike}same rank ({mine}), and its cards are not stronger card by card (values, then colours)",
    "readings": " (the cards on the table read {n} ways: {readings}; {verdict})",
    "reading": "{combination} {rank}",
    "beats_none": "it beats none of them",
    "beats_each": "it beats each of them",
    "beats_some": "it beats them played as {beaten}, not as {kept}",
    "or": " or ",
}

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
        # Do any rules of this variant read a card's colour?  Then plays are sets of cards
        # (:mod:`chimera_dsl.cardplays`), listed from the cards held; otherwise rank counts do.
        # A combination that yields to another (``unless``) is decided by the very cards too: a
        # straight flush depends on the colours of the straight's cards.
        self.reads_colours = any(c.same_colour or c.compare_cards or c.unless for c in combinations) \
            or names_cards(spec)
        self._order = tuple(c.order for c in combinations)
        self._intern = intern if intern is not None else {}
        self._levels = sorted({level for c in combinations for level in c.levels}
                              | ({1} if any(c.wild_mask for c in combinations) else set()))
        self._top_level = max(self._levels) if self._levels else 1
        # what _ge reads: the deck's guard bits and the place of a field's guard bit, and per
        # level k, k cards of every rank (packed)
        self._guard = deck.guard
        self._top = deck.top
        self._level_units = tuple((k, k * deck.low) for k in self._levels)
        self._tiers = sorted({c.tier for c in combinations})
        self._lead_cache: dict[int, tuple[Play, ...]] = {}
        # the leads of a hand not in that cache: a function written for these combinations
        # on the first lead (chimera_dsl.leadlist)
        self._list_leads: Callable[[int], list[Play]] | None = None
        # per combination: its listing, the level and ranks of ``ge`` it needs something in (a
        # core's rank held as many times as a unit has cards; a wild chain, one natural card),
        # and for a chain without wild cards, the shifts that find a run of its shortest length
        # among them: a hand without them is skipped without a call
        self._gated = tuple((c.plays, 1 if c.wild_mask else c.core_size, c.core_mask, c.run_shifts)
                            for c in combinations)
        # _above_tier[t]: the combinations whose tier is higher than t
        self._above_tier = {t: tuple(c for c in combinations if c.tier > t) for t in self._tiers}
        # _rivals[i]: the other combinations of i's tier that an ordered play of i may meet
        self._rivals = {c.index: tuple(o for o in combinations if o.tier == c.tier and o.index != c.index
                                       and o.order is not None) if c.order is not None else ()
                        for c in combinations}
        self.card_plays = CardPlays(deck, combinations, self._ge) if self.reads_colours else None
        # card text read in one pass: each rank's name (as written, upper and lower case) -> its
        # unit in a packed key
        self._units = {form: deck.bit(i) for i, rank in enumerate(deck.ranks)
                       for form in (rank, rank.upper(), rank.lower())}
        self._text_key = _text_reader(deck, self._units)
        # _unbeatable[i]: the rank from which a play of combination i has nothing above it (no
        # higher tier, no ordered rival, no core rank above it; ranked by its core), else None
        self._unbeatable = tuple(
            None if self._above_tier[c.tier] or self._rivals[c.index] or c.ranked_by_highest
            else next((r for r in range(len(c._above_masks)) if not c._above_mask(r)), len(c._above_masks))
            for c in combinations)

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
        combos: list = []
        problems: list = []
        if spec.get("combinations") or (spec.get("play") or {}).get("kind") != "tricks":   # tricks need none
            combos, problems = compile_combinations(spec.get("combinations") or {}, deck, max_hand, intern)
        if problems:
            raise VariantError(problems)
        return cls(spec, deck, combos, path=path, source_hash=source_hash, max_hand=max_hand, intern=intern)

    # -- hot path: packed hands ---------------------------------------------------------------
    def _write_leads(self) -> Callable[[int], list[Play]]:
        """The function listing a packed hand's leads, written on the first lead."""
        self._list_leads = lead_function(self)
        return self._list_leads

    def _leads_by_call(self, hand: int) -> tuple[Play, ...]:
        """The leads of ``hand`` asked of each combination in turn: what the function
        :meth:`leads` writes for these combinations lists (kept to check it against)."""
        ge = self._ge(hand)
        out: list[Play] = []
        for plays, level, mask, shifts in self._gated:
            held = ge[level] & mask
            if held:
                if shifts:
                    run = held
                    for s in shifts:
                        run &= held >> s
                    if not run:
                        continue
                out += plays(hand, ge)
        return tuple(out)

    def _ge(self, hand: int) -> list[int]:
        ge = [0] * (self._top_level + 1)
        guard = self._guard
        guarded = hand | guard
        top = self._top
        for k, units in self._level_units:
            ge[k] = ((guarded - units) & guard) >> top
        return ge

    def leads(self, hand: int) -> tuple[Play, ...]:
        """Every play that may lead a trick from the packed ``hand`` (passing not included).

        The result is shared (cached per hand): a tuple, never to be changed.
        """
        cached = self._lead_cache.get(hand)
        if cached is not None:
            return cached
        result = tuple((self._list_leads or self._write_leads())(hand))
        if len(self._lead_cache) >= 4096:
            self._lead_cache.clear()
        self._lead_cache[hand] = result
        return result

    def answers(self, hand: int, over: Play) -> list[Play]:
        """Every play that may be made on ``over`` from the packed ``hand`` (passing not included)."""
        top = self._unbeatable[over.index]
        if top is not None and over.rank >= top:
            return []                 # nothing ranks above it: no need to read the hand
        higher = self._above_tier[over.tier]
        rivals = self._rivals[over.index]
        ge = self._ge(hand)
        gated = self._gated
        # the same combination, as many units (so as many cards), a higher rank
        plays, level, mask, _ = gated[over.index]
        out = list(plays(hand, ge, over.length, over.rank)) if ge[level] & mask else []
        for combo in rivals:             # ordered combinations of the same tier
            out.extend(p for p in combo.plays(hand, ge) if self.can_beat(p, over))
        for combo in higher:
            plays, level, mask, _ = gated[combo.index]
            if ge[level] & mask:
                out += plays(hand, ge)
        return out

    def can_beat(self, play: Play, over: Play) -> bool:
        """May ``play`` be made on ``over``?  A higher tier beats; within a tier, as many cards and
        the same combination stronger, or an ordered combination of a higher order (equal
        orders: the stronger play)."""
        if play.tier != over.tier:
            return play.tier > over.tier
        if play.size != over.size:
            return False
        if play.index == over.index:
            return strength_of(play) > strength_of(over)
        mine, theirs = self._order[play.index], self._order[over.index]
        if mine is None or theirs is None:
            return False
        return (mine, strength_of(play)) > (theirs, strength_of(over))

    def can_beat_reversed(self, play: Play, over: Play) -> bool:
        """May ``play`` be made on ``over`` once the rank order is reversed (the effect
        ``reverse_order``)?  Tiers, sizes and the order of ordered combinations still beat as they
        do; only the strength within one place of the order is read the other way (the weaker play
        beats)."""
        if play.tier == over.tier and play.size == over.size and \
                (play.index == over.index or self._order[play.index] == self._order[over.index] is not None):
            return strength_of(play) < strength_of(over)
        return self.can_beat(play, over)

    def led_combinations(self, hand: int) -> frozenset[str]:
        """The ids of the combinations the packed ``hand`` can lead: the combinations of
        :meth:`leads`, found by looking for one play of each rather than listing them all (a hand
        of fourteen cards may lead hundreds of plays)."""
        self._needs_combinations("led_combinations")
        ge = self._ge(hand)
        found = []
        for combo, (plays, level, mask, shifts) in zip(self.combinations, self._gated):
            within = ge[level] & mask           # gated as the listing of leads is (_leads_by_call)
            run = within
            for s in shifts if within else ():
                run &= within >> s
            if run and next(iter(plays(hand, ge)), None) is not None:
                found.append(combo.id)
        return frozenset(found)

    def card_led_combinations(self, held: int) -> frozenset[str]:
        """The ids of the combinations the cards ``held`` (a bit mask over the deck's cards) can
        lead: those of :meth:`card_leads`, one play of each looked for."""
        self._needs_combinations("card_led_combinations")
        if self.card_plays is None:
            return self.led_combinations(self.deck.key_of_mask(held))
        plays = self.card_plays
        return frozenset(c.id for c in self.combinations if next(iter(plays.plays_of(c, held)), None) is not None)

    # -- plays of the very cards (variants whose rules read colours) -----------------------------
    def card_leads(self, held: int) -> tuple[Play, ...]:
        """Every play that may lead from the cards ``held`` (a bit mask over the deck's cards).

        Plays of a variant whose rules read colours name their cards (:class:`CardPlay`); in
        any other variant, these are :meth:`leads` of the cards' ranks.
        """
        if self.card_plays is None:
            return self.leads(self.deck.key_of_mask(held))
        return self.card_plays.leads(held)

    def card_answers(self, held: int, over: Play) -> list[Play]:
        """Every play from the cards ``held`` that may be made on ``over``."""
        if self.card_plays is None:
            return self.answers(self.deck.key_of_mask(held), over)
        combos = (self.combinations[over.index],) + self._rivals[over.index] + self._above_tier[over.tier]
        return self.card_plays.answers(held, over, combos, self.can_beat)  # type: ignore[return-value]

    def card_play_of(self, mask: int, combination: str, rank: int) -> Play | None:
        """The play these very cards make as ``combination`` at ``rank``, or None."""
        for p in self.card_readings(mask):
            if p.combination == combination and p.rank == rank:
                return p
        return None

    def card_readings(self, mask: int) -> list[Play]:
        """Every reading of exactly the cards of ``mask``."""
        if self.card_plays is None:
            return self.readings(self.deck.key_of_mask(mask))
        return [p for p in self.card_plays.leads(mask) if p.mask == mask]

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
        if check_deck and isinstance(cards, str):
            key = self._text_key(cards)
            if key is not None:
                return key
        return self.deck.parse_key(cards, check_deck=check_deck)

    def _needs_combinations(self, asked: str) -> None:
        """Refuse ``asked`` on a variant without combinations (a trick-taking play), as the CLI
        does, instead of answering an empty list or False that reads as 'none' or 'no'."""
        if not self.combinations:
            raise ChimeraError(f"{self.path or self.name} plays tricks (play.kind: tricks): it has no combinations, "
                               f"so {asked} has nothing to answer; a trick's legal cards depend on the trick and "
                               "the trumps: ask a game's state for them (State.legal_actions in chimera_dsl.engine)")

    def classify(self, cards: CardsLike) -> list[Play]:
        """Every combination these cards form (empty when none, or when the deck cannot hold them)."""
        self._needs_combinations("classify")
        indices, problem = self.deck.held(cards)
        if problem:
            return []
        if self.card_plays is not None:
            return self.card_readings(self.deck.cards_mask(cards))
        return self.readings(self.deck.key(indices))

    def why_not(self, cards: CardsLike, words: dict | None = None) -> str:
        """Why these cards form no combination (``words``: the sentences, :data:`BEATS_WORDS`)."""
        return self.deck.held(cards)[1] or (words or BEATS_WORDS)["no_combination"]

    def beats(self, over: CardsLike, cards: CardsLike) -> bool:
        """May ``cards`` (the second) be played on ``over`` (the first), in the order of ``chimera beats --over``?

        Yes if any reading of ``cards`` beats any reading of ``over``: the player who made
        ``over`` chose its reading (a straight to 5 or to 6), and these cards may be played on it
        when it was made so.  :meth:`explain_beats` says which readings of ``over`` are beaten;
        a combination that yields to another (``unless``) leaves cards one reading only.
        """
        return self.explain_beats(over, cards)[0]

    def explain_beats(self, over: CardsLike, cards: CardsLike, words: dict | None = None) -> tuple[bool, str]:
        """(may ``cards`` be played on ``over``, a sentence saying why, and, when ``over`` reads
        several ways, which of its readings are beaten and which are not); ``words``: the
        sentences, in English by default (:data:`BEATS_WORDS`)."""
        self._needs_combinations("beats")
        w = words or BEATS_WORDS
        plays = self.classify(cards)
        unders = self.classify(over)
        if not plays:
            return False, w["not_a_combination"].format(cards=_text(cards), why=self.why_not(cards, w))
        if not unders:
            return False, w["not_a_combination"].format(cards=_text(over), why=self.why_not(over, w))
        beaten = [u for u in unders if any(self.can_beat(p, u) for p in plays)]
        said = self._readings_said(unders, beaten, w)
        if beaten:
            play = next(p for p in plays if self.can_beat(p, beaten[0]))
            return True, self._reason(play, beaten[0], w) + said
        return False, self._reason(plays[0], unders[-1], w) + said

    def over_readings(self, over: CardsLike, cards: CardsLike | None = None) -> list[dict]:
        """Each reading of ``over`` as ``{"combination", "rank"}``, with ``"beaten"`` (does a
        reading of ``cards`` beat it?) when ``cards`` are given: what ``chimera beats`` and
        ``chimera moves`` answer besides, in JSON."""
        plays = self.classify(cards) if cards is not None else []
        out = []
        for under in self.classify(over):
            entry: dict = {"combination": under.combination, "rank": under.rank}
            if cards is not None:
                entry["beaten"] = any(self.can_beat(p, under) for p in plays)
            out.append(entry)
        return out

    def _readings_said(self, unders: list[Play], beaten: list[Play], w: dict = BEATS_WORDS) -> str:
        """What an answer adds when the cards on the table read several ways: which readings
        the play beats (it may be played on them when they were made so) and which not."""
        if len(unders) < 2:
            return ""

        def named(plays: list[Play], sep: str = ", ") -> str:
            return sep.join(w["reading"].format(combination=p.combination, rank=self.rank_name(p.rank)) for p in plays)
        if not beaten:
            verdict = w["beats_none"]
        elif len(beaten) == len(unders):
            verdict = w["beats_each"]
        else:
            kept = [u for u in unders if u not in beaten]
            verdict = w["beats_some"].format(beaten=named(beaten, w["or"]), kept=named(kept, w["or"]))
        return w["readings"].format(n=len(unders), readings=named(unders), verdict=verdict)

    def _reason(self, play: Play, over: Play, w: dict = BEATS_WORDS) -> str:
        names = {"play": play.combination, "over": over.combination}
        if play.tier > over.tier:
            return w["higher_tier"].format(**names)
        if play.tier < over.tier:
            return w["lower_tier"].format(**names)
        if play.size != over.size:
            return w["size"].format(mine=play.size, theirs=over.size)
        mine, theirs = self._order[play.index], self._order[over.index]
        # two plays compared by their strength: of one combination, or of two with one order
        alike, prefix = w["same_combination"].format(**names), ""
        if play.index != over.index:
            if mine is None or theirs is None:
                return w["not_same"].format(**names)
            if mine != theirs:
                return w["higher_in_order" if mine > theirs else "lower_in_order"].format(**names)
            alike = w["same_place"].format(**names)
            prefix = w["alike"].format(alike=alike)
        ranks = {"mine": self.rank_name(play.rank), "theirs": self.rank_name(over.rank)}
        if play.rank != over.rank or not self.reads_colours:
            if play.rank > over.rank:
                return w["higher_rank"].format(alike=alike, **ranks)
            return w["not_higher"].format(alike=prefix, **ranks)
        return w["stronger" if self.can_beat(play, over) else "not_stronger"].format(alike=prefix, **ranks)

    def rank_name(self, rank) -> str:
        """A play's rank (1 for the deck's first rank) as the deck names it: ``"A"``, not ``12``."""
        ranks = self.deck.ranks
        return ranks[rank - 1] if isinstance(rank, int) and 1 <= rank <= len(ranks) else str(rank)

    def legal_plays(self, hand: CardsLike, over: CardsLike | Play | None = None) -> list[Play]:
        """Every legal lead from ``hand``, or with ``over``, every legal answer to it (no pass).

        An ``over`` given as cards with several readings is answered for each reading.
        """
        self._needs_combinations("legal_plays")
        key = self._text_key(hand) if hand.__class__ is str else None
        if key is None:
            key = self.cards_key(hand)
        if self.card_plays is not None:
            return list(self._iter_card_plays(self.deck.cards_mask(hand), over))
        if over is None:
            cached = self._lead_cache.get(key)
            if cached is not None:
                return list(cached)
            return (self._list_leads or self._write_leads())(key)    # a fresh list, not kept: one copy fewer
        if isinstance(over, Play):
            top = self._unbeatable[over.index]
            if top is not None and over.rank >= top:
                return []             # nothing ranks above it (as answers says), the hand read
            return self.answers(key, over)
        unders = self.classify(over)
        if not unders:
            raise CardError(f"{_text(over)} is not a combination: {self.why_not(over)}")
        seen: dict[Play, None] = {}
        for under in unders:
            for p in self.answers(key, under):
                seen.setdefault(p, None)
        return list(seen)

    def _iter_card_plays(self, held: int, over: "CardsLike | Play | None") -> Iterator[Play]:
        if over is None:
            yield from self.card_leads(held)
            return
        unders = [over] if isinstance(over, Play) else self.classify(over)
        if not unders:
            assert not isinstance(over, Play)
            raise CardError(f"{_text(over)} is not a combination: {self.why_not(over)}")
        seen: set = set()
        for under in unders:
            for p in self.card_answers(held, under):
                if p not in seen:
                    seen.add(p)
                    yield p

    def iter_legal_plays(self, hand: CardsLike, over: CardsLike | None = None, *,
                         only: Collection[str] | None = None) -> Iterator[Play]:
        """The plays of :meth:`legal_plays`, in the same order, made one combination at a time.

        Nothing is kept once given (for listing a large hand with flat memory).  The hand and
        ``over`` are read at once, so a :class:`CardError` is raised by the call itself.
        ``only``: the ids of the combinations whose leads are listed (with no ``over``); the
        others are not made at all.
        """
        self._needs_combinations("iter_legal_plays")
        key = self.cards_key(hand)
        if only is not None and over is None:
            if self.card_plays is not None:         # one combination at a time: the others never made
                held = self.deck.cards_mask(hand)
                plays = self.card_plays
                return (p for combo in self.combinations if combo.id in only
                        for p in plays.plays_of(combo, held))
            ge = self._ge(key)
            return (p for combo in self.combinations if combo.id in only for p in combo.plays(key, ge))
        if self.card_plays is not None:
            return iter(self.legal_plays(hand, over))
        unders: list[Play] = []
        if over is not None:
            unders = self.classify(over)
            if not unders:
                raise CardError(f"{_text(over)} is not a combination: {self.why_not(over)}")
        return self._iter_plays(key, unders)

    def play_bounds(self, cards: int) -> dict[str, int]:
        """For each combination, the most plays it can list from ``cards`` cards (the bound the
        loader holds a dealt hand to; a whole deck may give far more).  Where plays name their
        very cards, each play of ranks is as many plays as ways to take its cards among the
        card names of its ranks (at most the most names a rank has, per card)."""
        bounds = {combo.id: combo.work_bound(cards) for combo in self.combinations}
        if self.card_plays is not None:
            deck = self.deck
            names: dict[int, set] = {}
            for card, name in enumerate(deck.card_names):
                names.setdefault(deck.card_rank[card], set()).add(name)
            most = max((len(n) for n in names.values()), default=1)
            for combo in self.combinations:
                bounds[combo.id] *= most ** combo.max_size()
        return bounds

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


def names_cards(spec: dict) -> bool:
    """Does a play phase of the variant have a rule about one card (``first_lead``) or about
    a seat's strongest card (``last_card``)?  Then its plays name their very cards."""
    sections = [spec.get("play")] + list((spec.get("phases") or {}).values())
    return any(isinstance(s, dict) and (s.get("first_lead") or s.get("last_card")) for s in sections)


def _text_reader(deck: Deck, units: dict[str, int]) -> Callable[[str], int | None]:
    """The reader of card text of rank names only (``"3 3 4 BJ"``) into a packed key, in one
    pass; it answers None when the full reader must decide (colours, commas, an unknown card,
    more of a rank than the deck holds, no card at all).

    One sum of the cards' units (a dict lookup each: a name it does not know, a colour or a
    comma included, stops it), checked against the deck with two masks.  More cards than a
    field counts (15 for 4-bit fields) could overflow a count into the next field, which would
    lose a field's worth of cards from the key's total: so then the key must hold as many cards
    as were read.  Each overflow takes ``whole`` (a full field) from that total, and a key's set
    bits never outnumber its cards: a key with more than ``len - whole`` bits set cannot have
    overflowed, so only a key with few bits set for its cards is counted.  The reader is a
    closure over its constants, as it reads every hand typed or sent."""
    unit_of = units.__getitem__
    guard = deck.guard
    room = deck.full_key | deck.guard      # a key within the deck's counts has every guard bit of this minus it
    whole = deck.field_mask
    parts = _count_parts(deck)

    def text_key(text: str) -> int | None:
        tokens = text.split()
        try:
            key = sum(map(unit_of, tokens))
        except KeyError:
            return None
        if not key or key & guard or (room - key) & guard != guard:
            return None
        count = len(tokens)
        if count > whole and key.bit_count() + whole <= count:
            if parts is None:
                if deck.size_of(key) != count:
                    return None
            else:
                # the cards of the key, counted in place (every field is below its guard bit):
                # neighbouring fields added pairwise into fields twice as wide, then summed by
                # one multiplication
                width, halves, ones, top, mask = parts
                if ((key & halves) + (key >> width & halves)) * ones >> top & mask != count:
                    return None
        return key
    return text_key


def _count_parts(deck: Deck) -> tuple[int, int, int, int, int] | None:
    """What the text reader (:func:`_text_reader`) counts the cards of a key with: (a field's width, the mask
    of every other field, the units of the pairs' fields, the place of their total, its mask),
    for a key whose every count is below its guard bit; None when one fold is not enough (a
    total of the deck's ranks could overflow a field twice as wide), and the deck counts."""
    width = deck.shift
    ranks = len(deck.ranks)
    pairs = (ranks + 1) // 2
    if ranks * deck.room >= 1 << (2 * width):
        return None
    halves = sum(deck.field_mask << (2 * width * j) for j in range(pairs))
    ones = sum(1 << (2 * width * j) for j in range(pairs))
    return width, halves, ones, 2 * width * (pairs - 1), (1 << (2 * width)) - 1


def max_hand_of(spec: dict) -> int:
    """The most cards one player can hold under the variant: a hand, plus the nest if it is taken."""
    deal = spec.get("deal") or {}
    hand = int(deal.get("hand") or 0)
    nest = int(deal.get("nest") or 0)
    if hand and deal.get("rest") == "dealt":      # the cards left over are dealt on: one more each at most
        hand += 1
    if (spec.get("nest") or {}).get("to", "bidder") and nest:
        hand += nest
    if not hand:
        hand = sum(1 for _ in spec.get("deck", {}).get("cards", [])) or 64
    return hand


def _text(cards: CardsLike) -> str:
    """Cards as a message repeats them: cut when long (see :func:`~chimera_dsl.errors.shown`)."""
    return shown(cards if isinstance(cards, str) else " ".join(map(str, cards)))
