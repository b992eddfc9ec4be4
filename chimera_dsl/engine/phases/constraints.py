"""Constraints on the legal plays, written as expressions: ``play.must``.

A ``must`` rule says *"when C holds, a seat must make a play for which E holds, if it can"*::

    must:
      - {when: "trick == 1 and leading", play: "play_has_card(2, clubs)"}    # the 2 of clubs leads
      - {when: "trick == 1", play: "not (play_has_colour(hearts) or play_has_card(q, spades))"}
      - {when: leading, play: "played_colour(hearts) > 0 or not play_has_colour(hearts)"}

The rules run in order after the rules of following (``follow``, ``undertrump``...): each
keeps, of the plays still legal, those for which ``play`` holds, and changes nothing when none
does.  So a rule never leaves a seat without a play, and the loader's proof that a leader
always has a play holds whatever the file writes.  ``when`` is read once per decision, over
the table; ``play`` once per legal play, over the play and the table.  Both are compiled
once, when the file loads (:mod:`chimera_dsl.language.expressions`), their names checked
then; a ``play`` that reads only the play itself (its cards and points) is computed once per
set of trumps, as a mask of the cards it accepts.

The names are those of :func:`must_scope`; they speak of *the play* (its cards) and of the
table, so that the same rules can narrow a climbing play's combinations (whose plays hold
several cards) as well as one card of a trick.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...errors import ExpressionError, Problem, VariantError
from ...language.expressions import EvaluationFault, Expression, Function, Scope, compile_expression

# the names a rule's ``play`` may read that depend on the play itself
PLAY_NAMES = frozenset({"play_points"})
PLAY_FUNCTIONS = frozenset({"play_has", "play_has_colour", "play_has_card"})
TABLE_NUMBERS = ("trick", "round", "players", "held")
TABLE_BOOLS = ("leading",)
# what the trick on the table says (a trick-taking play): read per decision, and per card
TRICK_BOOLS = ("led_trump", "can_follow", "partner_winning")
TRICK_PLAY_BOOLS = ("play_trump", "play_wins", "play_follows")


@dataclass(frozen=True)
class Must:
    """One rule of ``play.must``: when ``when`` holds (None: always), only the plays for which
    ``play`` holds are legal, if there is one."""

    when: Expression | None
    play: Expression
    card_only: bool                   # ``play`` reads only the play's own cards and points
    index: int                        # its place in play.must


def _identifiers(deck) -> tuple[dict[str, int], dict[str, int]]:
    """Ranks and colours as expressions name them: lower case (``q``, ``10``, ``spades``)."""
    ranks = {str(r).lower(): i for i, r in enumerate(deck.ranks)}
    colours = {str(c).lower(): i for i, c in enumerate(deck.colours)}
    return ranks, colours


def _card_masks(deck) -> tuple[dict, dict, dict[tuple[int, int], int], list[int]]:
    """(ranks, colours, the mask of each (rank, colour), the mask of each rank) of ``deck``."""
    ranks, colours = _identifiers(deck)
    card_masks: dict[tuple[int, int], int] = {}
    rank_masks = [0] * len(deck.ranks)
    for c, rank in enumerate(deck.card_rank):
        key = (rank, deck.card_colour[c])
        card_masks[key] = card_masks.get(key, 0) | 1 << c
        rank_masks[rank] |= 1 << c
    return ranks, colours, card_masks, rank_masks


def card_count_functions(deck, prefix: str, key: str) -> list[Function]:
    """``PREFIX_colour(C)`` and ``PREFIX_card(R, C)``: how many cards of colour C, or of rank R
    and colour C, the mask ``env[key]`` holds (``held_colour(hearts)``, ``taken_card(q, spades)``)."""
    ranks, colours, card_masks, _ = _card_masks(deck)
    colour_masks = deck.colour_masks

    def of_colour(env, c: str) -> int:
        return (env[key] & colour_masks[colours[c]]).bit_count()

    def of_card(env, r: str, c: str) -> int:
        return (env[key] & card_masks.get((ranks[r], colours[c]), 0)).bit_count()
    for function in (of_colour, of_card):         # the environment's key they read (Scoring.read_names)
        setattr(function, "reads", (key,))
    # the cards each counts, for its identifiers (a caller may count them itself: play.must's cache)
    setattr(of_colour, "mask_of", lambda c: colour_masks[colours[c]])
    setattr(of_card, "mask_of", lambda r, c: card_masks.get((ranks[r], colours[c]), 0))
    return [Function(f"{prefix}_colour", ("colour",), of_colour), Function(f"{prefix}_card", ("rank", "colour"), of_card)]


def card_identifiers(deck) -> dict[str, set[str]]:
    """The identifier sets the card functions take: ``rank`` and ``colour``, in lower case."""
    ranks, colours = _identifiers(deck)
    return {"rank": set(ranks), "colour": set(colours)}


def must_scope(deck, with_play: bool) -> Scope:
    """The names of a ``must`` rule: ``with_play`` for its ``play`` (which may read the play),
    else for its ``when`` (the table only).

    ==========================  ===============================================================
    ``trick``                   the trick's number in the round, from 1
    ``leading``                 the play leads the trick (no card on the table yet)
    ``held``                    the cards in the seat's hand
    ``round``, ``players``      the round's number, the number of seats
    ``held_colour(C)``          the cards of colour C in the seat's hand
    ``held_card(R, C)``         the cards of rank R and colour C in the seat's hand
    ``played_colour(C)``        the cards of colour C played so far this round (by anyone)
    ``played_card(R, C)``       the cards of rank R and colour C played so far this round
    ``play_has(R)``             (``play`` only) the play holds a card of rank R
    ``play_has_colour(C)``      (``play`` only) the play holds a card of colour C
    ``play_has_card(R, C)``     (``play`` only) the play holds the card of rank R and colour C
    ``play_points``             (``play`` only) the card points of the play's cards
    ``led_trump``               (a trick) the trick's first card is a trump
    ``can_follow``              (a trick) the hand holds a card of the led colour (a trump, when
                                a trump was led); false when leading
    ``partner_winning``         (a trick) the card taking the trick so far is a partner's
    ``play_trump``              (``play`` only, a trick) the card is a trump
    ``play_wins``               (``play`` only, a trick) the card would take the trick as it
                                stands (beats every card on the table; any card when leading)
    ``play_follows``            (``play`` only, a trick) the card is of the colour led (a trump
                                on a trump lead); false when leading
    ==========================  ===============================================================
    """
    functions = card_count_functions(deck, "held", "_held") + card_count_functions(deck, "played", "_played")
    numbers = set(TABLE_NUMBERS)
    bools = set(TABLE_BOOLS) | set(TRICK_BOOLS)
    if with_play:
        bools |= set(TRICK_PLAY_BOOLS)
        functions += play_functions(deck)
        numbers |= PLAY_NAMES
    return Scope(numbers=numbers, bools=bools, functions=functions, identifiers=card_identifiers(deck))


def play_functions(deck) -> list[Function]:
    """``play_has(R)``, ``play_has_colour(C)`` and ``play_has_card(R, C)``: the play (the mask
    ``env["_play"]``) holds a card of rank R, of colour C, the card of rank R and colour C."""
    ranks, colours, card_masks, rank_masks = _card_masks(deck)
    colour_masks = deck.colour_masks

    def colour_of(name: str) -> int:
        return colour_masks[colours[name]]

    def card_of(rank: str, colour: str) -> int:
        return card_masks.get((ranks[rank], colours[colour]), 0)
    return [Function("play_has", ("rank",), lambda env, r: bool(env["_play"] & rank_masks[ranks[r]]), "bool"),
            Function("play_has_colour", ("colour",), lambda env, c: bool(env["_play"] & colour_of(c)), "bool"),
            Function("play_has_card", ("rank", "colour"), lambda env, r, c: bool(env["_play"] & card_of(r, c)),
                     "bool")]


def compile_must(deck, path: tuple, entries) -> tuple[Must, ...]:
    """``play.must`` compiled (raises :class:`VariantError` at the expression's character)."""
    if not entries:
        return ()
    table_scope = must_scope(deck, with_play=False)
    play_scope = must_scope(deck, with_play=True)
    rules = []
    problems: list[Problem] = []
    for i, entry in enumerate(entries):
        when = None
        if entry.get("when") is not None:
            when = _compile(entry["when"], table_scope, path + (i, "when"), problems, play_scope)
        play = _compile(entry.get("play"), play_scope, path + (i, "play"), problems)
        if play is None:
            continue
        reads = set(play.names) | {f[0] for f in play.functions_used}
        card_only = reads <= (PLAY_NAMES | PLAY_FUNCTIONS)
        rules.append(Must(when, play, card_only, i))
    if problems:
        raise VariantError(problems)
    return tuple(rules)


def _written(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _compile(text, scope: Scope, path: tuple, problems: list, play_scope: Scope | None = None) -> Expression | None:
    try:
        return compile_expression(_written(text), scope, expect="bool")
    except ExpressionError as error:
        for p in error.problems:
            hint = p.hint
            name = p.message.split("'")[1] if p.message.startswith(("unknown name '", "unknown function '")) else None
            if play_scope is not None and name is not None and (
                    name in play_scope.numbers or name in play_scope.bools
                    or any(f.name == name for f in play_scope.functions)):
                problems.append(Problem(f"'{name}' reads the play, but when is read once per decision, before any "
                                        "play is chosen", path, p.offset, "read it in play:, the condition each "
                                        "play must meet"))
                continue
            problems.append(Problem(p.message, path, p.offset, hint))
        return None


class Narrower:
    """The ``must`` rules of a play, bound to a deck: :meth:`narrow` keeps the legal cards they allow."""

    def __init__(self, rules: tuple[Must, ...], players: int):
        self.rules = rules
        self.players = players
        self._masks: dict = {}
        self._classes: dict = {}
        read = set()
        for rule in rules:
            for expression in (rule.when, rule.play):
                if expression is not None:
                    read |= set(expression.names) | {f[0] for f in expression.functions_used}
        # what the caller need not compute when no rule reads it: the cards played so far
        # (played_colour(), played_card()), and what the trick on the table says
        self.reads_played = bool(read & {"played_colour", "played_card"})
        self.reads_trick = bool(read & (set(TRICK_BOOLS) | set(TRICK_PLAY_BOOLS)))
        # per rule: the rule, its compiled when (or None) and play, whether play reads the play's
        # cards alone, and whether it reads the trick's trumps and winning cards
        # and its bit in what :meth:`holding` answers
        # (the split: 0 none, 1 by trumps and winning cards, 2 by the cards of the colour led too)
        self._plan = tuple((rule, rule.when.run if rule.when is not None else None, rule.play.run, rule.card_only,
                            2 if "play_follows" in rule.play.names else
                            1 if "play_trump" in rule.play.names or "play_wins" in rule.play.names else 0, 1 << i)
                           for i, rule in enumerate(rules))
        # per rule, what its play reads of the table (None: it cannot be told, or it reads the
        # trick's trumps and winning cards): the cards it accepts are kept per value of those
        self._reads = {rule.index: _table_reads(rule.play) for rule in rules}
        self._accepted: dict = {}
        # the rules' conditions, when each reads only the table's plain names (no function, not
        # the trick): :meth:`wanted` reads them first, on those names alone
        plain = set(TABLE_NUMBERS) | set(TABLE_BOOLS)
        self._whens = tuple(rule.when.run for rule in rules) if all(
            rule.when is not None and not rule.when.functions_used and rule.when.names <= plain
            for rule in rules) else None
        named = set().union(*(rule.when.names for rule in rules)) if self._whens is not None else set()
        # which of those names they read (their answer is kept per value of those alone)
        self._when_reads = tuple(name in named for name in ("trick", "leading", "held", "round"))
        self._wanted: dict = {}
        self._free: dict[int, int] = {}           # free_following_from, per count of tricks
        # where the conditions read the trick's number and the lead alone, :meth:`holding`'s
        # answers by ``trick * 2 + leading``, for the caller to read without a call (None: they
        # read more)
        self.by_turn: dict | None = {} if self._whens is not None and not self._when_reads[2] \
            and not self._when_reads[3] else None
        # per rule, for :meth:`narrow_kept`: its bit, its index, and what its play reads of the
        # table (None: the play's cards alone; (1 or 2, the masks of the cards played it counts)
        # where it reads nothing else); None where a rule reads more than the table's plain
        # names and counts
        plan: list | None = []
        for i, rule in enumerate(rules):
            reads = self._reads[rule.index]
            if rule.card_only:
                plan.append((1 << i, rule.index, None))
            elif reads is not None and set(reads[0]) <= set(TABLE_NUMBERS) | set(TABLE_BOOLS):
                # (the usual rule counts one or two masks of the cards played, and nothing else)
                counts_played = not reads[0] and not reads[2] and 1 <= len(reads[1]) <= 2
                plan.append((1 << i, rule.index, (len(reads[1]), *reads[1], 0)[:3] if counts_played else reads))
            else:
                plan = None
                break
        self._kept_plan = tuple(plan) if plan is not None else None
        # every name a rule may read, as :meth:`narrow` starts: the play's own and the trick's none yet
        self._base: dict[str, Any] = {"trick": 0, "leading": False, "held": 0, "round": 0, "players": players,
                                      "_held": 0, "_played": 0, "play_points": 0, "_play": 0, "led_trump": False,
                                      "can_follow": False, "partner_winning": False, "_trumps": 0, "_wins": 0,
                                      "_follows": 0, "play_trump": False, "play_wins": False, "play_follows": False}

    def wanted(self, trick: int, leading: bool, round_: int, held: int) -> bool:
        """False when :meth:`narrow` would change nothing because no rule's ``when`` holds now
        (known only where every ``when`` reads the table's plain names: else True), so that the
        caller need not gather what the rules read."""
        return self.holding(trick, leading, round_, held) != 0

    def holding(self, trick: int, leading: bool, round_: int, held: int) -> int | None:
        """The rules whose ``when`` holds now, a bit each (bit i: rule i), read on the table's
        plain names alone and kept per value of the names read; None where a ``when`` reads
        more (or fails: :meth:`narrow` says why, as it reads the rule).  0: :meth:`narrow`
        would change nothing, and the caller need not gather what the rules read."""
        whens = self._whens
        if whens is None:
            return None
        r_trick, r_leading, r_held, r_round = self._when_reads
        if r_held or r_round:
            key: Any = (trick if r_trick else None, leading if r_leading else None,
                        held.bit_count() if r_held else None, round_ if r_round else None)
        else:                           # (the usual: a number, no tuple to build)
            key = (trick if r_trick else 0) * 2 + (1 if r_leading and leading else 0)
        found = self._wanted.get(key, False)
        if found is not False:
            return found
        env = {"trick": trick, "leading": leading, "held": held.bit_count(), "round": round_,
               "players": self.players}
        found = 0
        try:
            for i, when in enumerate(whens):
                if when(env):
                    found |= 1 << i
        except EvaluationFault:
            found = None
        if len(self._wanted) >= 4096:   # (a condition on the round's number makes a key per round)
            self._wanted.clear()
        self._wanted[key] = found
        return found

    def free_following_from(self, tricks: int) -> int:
        """The first trick from which no rule's ``when`` holds for a seat that follows (does not
        lead), in a round of at most ``tricks`` tricks, where every ``when`` reads only the
        trick's number and the lead (:attr:`by_turn`); else past the last trick (always read)."""
        found = self._free.get(tricks)
        if found is None:
            found = tricks + 1 if self.by_turn is None else next(
                (trick + 1 for trick in range(tricks, 0, -1)
                 if self.holding(trick, False, 0, 0) != 0), 1)      # (a rule holds, or a condition fails)
            self._free[tricks] = found
        return found

    def narrow_kept(self, legal: int, held: int, played: int, trick: int, leading: bool, round_: int,
                    trumps_key: Any, holding: int) -> int | None:
        """:meth:`narrow`'s answer (with ``holding`` known) from the cards each rule was found
        to accept before, without gathering what the rules read; None where one is not known
        yet (or a rule reads more than the table's plain names and counts): then call
        :meth:`narrow`, which finds and keeps it."""
        plan = self._kept_plan
        if plan is None:
            return None
        for bit, index, reads in plan:
            if not holding & bit:
                continue
            if reads is None:
                accepted = self._masks.get((index, trumps_key))
            elif type(reads[0]) is int:             # one or two masks of the cards played (_counted_key, unrolled)
                count, first, second = reads
                key: tuple
                if count == 1:
                    key = (index, trumps_key, (played & first).bit_count())
                else:
                    key = (index, trumps_key, (played & first).bit_count(), (played & second).bit_count())
                accepted = self._accepted.get(key)
            else:
                names, of_played, of_held = reads
                plain = {"trick": trick, "leading": leading, "held": held.bit_count(), "round": round_,
                         "players": self.players} if names else {}
                accepted = self._accepted.get(_counted_key(index, trumps_key, [plain[name] for name in names],
                                                           played, held, of_played, of_held))
            if accepted is None:
                return None
            kept = legal & accepted
            if kept:
                legal = kept
        return legal

    def _env(self, legal: int, held: int, played: int, trick: int, leading: bool, round_: int,
             context: dict | None) -> dict:
        """Every name a rule may read, the play's own set to none yet."""
        env = self._base.copy()
        env["trick"] = trick
        env["leading"] = leading
        env["held"] = held.bit_count()
        env["round"] = round_
        env["_held"] = held
        env["_played"] = played
        if context:
            env.update(context)
        return env

    def narrow(self, legal: int, held: int, played: int, trick: int, leading: bool, round_: int,
               points: tuple, trumps_key: Any, context: dict | None = None, holding: int | None = None) -> int:
        """The cards of ``legal`` (a mask) the rules allow, for a seat holding ``held``; ``context``
        says what the trick on the table says (:data:`TRICK_BOOLS`, and the masks ``_trumps`` and
        ``_wins`` that ``play_trump`` and ``play_wins`` read); ``holding``: the rules whose
        ``when`` holds, as :meth:`holding` found them (None: each ``when`` is read here)."""
        env: dict | None = None                   # what the rules read, made when one reads the table
        expression = None                         # the expression being read (its fault is told as evaluate tells it)
        try:
            for rule, when, play, card_only, splits, bit in self._plan:
                if holding is not None:
                    if not holding & bit:
                        continue
                elif when is not None:
                    if env is None:
                        env = self._env(legal, held, played, trick, leading, round_, context)
                    expression = rule.when
                    if not when(env):
                        continue
                expression = rule.play
                if card_only:
                    key = (rule.index, trumps_key)
                    accepted = self._masks.get(key)
                    if accepted is None:
                        if env is None:
                            env = self._env(legal, held, played, trick, leading, round_, context)
                        accepted = 0
                        for c, value in enumerate(points):
                            env["_play"] = 1 << c
                            env["play_points"] = value
                            if play(env):
                                accepted |= 1 << c
                        self._masks[key] = accepted
                    kept = legal & accepted
                else:
                    key = (rule.index, trumps_key)
                    classes = self._classes.get(key)
                    if classes is None:
                        classes = self._classes[key] = card_classes(rule.play, points)
                    reads = self._reads[rule.index]
                    if reads is not None:         # the cards it accepts, per what it reads of the table
                        names, of_played, of_held = reads
                        if names and env is None:
                            env = self._env(legal, held, played, trick, leading, round_, context)
                        key = _counted_key(rule.index, trumps_key, [env[name] for name in names], played, held,
                                           of_played, of_held)
                        accepted = self._accepted.get(key)
                        if accepted is None:
                            if env is None:
                                env = self._env(legal, held, played, trick, leading, round_, context)
                            accepted = 0
                            for members in classes:
                                low = members & -members
                                env["_play"] = low
                                env["play_points"] = points[low.bit_length() - 1]
                                if play(env):
                                    accepted |= members
                            if len(self._accepted) >= 4096:
                                self._accepted.clear()
                            self._accepted[key] = accepted
                        kept = legal & accepted
                        if kept:
                            legal = kept
                        continue
                    if env is None:
                        env = self._env(legal, held, played, trick, leading, round_, context)
                    kept = 0
                    if splits:
                        # the trick's trumps and winning cards split each class: one card of each part
                        trumps, wins = env["_trumps"], env["_wins"]
                        parts: tuple = ((trumps & wins, True, True), (trumps & ~wins, True, False),
                                        (~trumps & wins, False, True), (~trumps & ~wins, False, False))
                    else:
                        parts = _WHOLE
                    if splits == 2:               # and the cards of the colour led, where the rule reads them
                        follows = env["_follows"]
                        for members in classes:
                            for side, following in ((members & follows, True), (members & ~follows, False)):
                                if side:
                                    env["play_follows"] = following
                                    kept |= _kept_parts(play, env, legal & side, parts, points)
                    else:
                        for members in classes:   # one card of each class decides for the class
                            kept |= _kept_parts(play, env, legal & members, parts, points)
                if kept:
                    legal = kept
        except EvaluationFault as fault:
            raise expression.failed(fault) from None
        return legal



def _counted_key(index: int, trumps_key: Any, named: list, played: int, held: int, of_played: tuple,
                 of_held: tuple) -> tuple:
    """The key of the cards rule ``index`` accepts (:meth:`Narrower.narrow`, :meth:`Narrower.narrow_kept`):
    the trumps, the values of the plain names it reads, then how many cards played and held each
    mask it counts holds."""
    return (index, trumps_key, *named, *[(played & mask).bit_count() for mask in of_played],
            *[(held & mask).bit_count() for mask in of_held])


def _table_reads(play: Expression) -> tuple | None:
    """What ``play`` reads of the table, as (names, masks of the cards played it counts, masks
    of the cards held it counts): the plain names, and what each call of ``played_colour``,
    ``held_card``... counts; None where it reads the trick's trumps or winning cards, or calls
    a function otherwise than with identifiers."""
    if play.names & set(TRICK_PLAY_BOOLS):
        return None
    functions = {f.name: f for f in play.scope.functions}
    counted: dict[str, list[int]] = {"_played": [], "_held": []}
    for name, *args in sorted(play.functions_used):
        if name in PLAY_FUNCTIONS:
            continue
        function = functions.get(name)
        reads = getattr(function.call, "reads", None) if function is not None else None
        mask_of = getattr(function.call, "mask_of", None) if function is not None else None
        if function is None or len(args) != len(function.args) or mask_of is None or reads is None \
                or len(reads) != 1 or reads[0] not in counted:
            return None
        counted[reads[0]].append(mask_of(*args))
    names = tuple(sorted(play.names - PLAY_NAMES))
    return names, tuple(counted["_played"]), tuple(counted["_held"])


_WHOLE = ((-1, False, False),)        # a class not split by the trick: every card of it, none a trump or a winner


def _kept_parts(play, env: dict, members: int, parts: tuple, points: tuple) -> int:
    """The cards of ``members`` (one class of cards, legal) that ``play`` accepts, one card of
    each part (the trick's trumps and winning cards, or the whole class) deciding for the part."""
    kept = 0
    for part, is_trump, is_win in parts:
        here = members & part
        if here:
            low = here & -here
            env["_play"] = low
            env["play_points"] = points[low.bit_length() - 1]
            env["play_trump"] = is_trump
            env["play_wins"] = is_win
            if play(env):
                kept |= here
    return kept


def card_classes(play: Expression, points: tuple) -> tuple[int, ...]:
    """The cards of the deck in classes (masks) that ``play`` cannot tell apart: the cards
    alike in every value it reads of the play (``play_has(R)``, ``play_has_colour(C)``,
    ``play_has_card(R, C)``, ``play_points``).  The rest of what it reads is the table's, the
    same for every card of one decision, so one card of a class gives the class's answer.
    Every card its own class when a play function is called otherwise than with identifiers."""
    functions = {f.name: f for f in play.scope.functions}
    atoms = []
    for name, *args in play.functions_used:
        if name in PLAY_FUNCTIONS:
            function = functions[name]
            if len(args) != len(function.args):
                return tuple(1 << c for c in range(len(points)))
            atoms.append((function.call, tuple(args)))
    reads_points = "play_points" in play.names
    classes: dict[tuple, int] = {}
    env: dict[str, Any] = {}
    for c, value in enumerate(points):
        env["_play"] = 1 << c
        env["play_points"] = value
        seen = tuple(call(env, *args) for call, args in atoms) + ((value,) if reads_points else ())
        classes[seen] = classes.get(seen, 0) | 1 << c
    return tuple(classes.values())
