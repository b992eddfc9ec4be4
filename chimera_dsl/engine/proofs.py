"""What the loader proves about play: a file that validates plays every round and game to its end.

The engine asks the current seat for an action until the game is over; it would stop (a
seat with no legal action) or run for ever (a round or a game without end) on a file that
validates but cannot be played.  :func:`prove_playable` refuses such files when they load,
each problem at the value to change.  What is proved, and how (docs/variant-format.md,
"Limits", says the same for people):

* **A leader always has a play.**  In a climbing play, every card of the deck, held alone, is
  a play of some combination, so a hand that holds any card can lead (in a trick-taking play
  any card may lead).  (A leader may pass only while
  another seat has not had the lead in this trick, so passing is never enough.)
* **Every hand holds a card when play begins**: the card transfers of a round (nest aside)
  take at most ``deal.hand - 1`` cards from any seat in all, so no seat is asked to give cards
  it does not have, and no seat enters the play empty-handed.
* **A trick-taking play begins with hands of one size**: each trick takes one card from each
  seat, so the nest may not go to a seat and every transfer must hand cards round the table or
  be given back (:func:`_even_hands`).
* **Bidding ends**: each bid is higher than the last and the levels are finite; passes close
  it or, everyone passing, lead to a redeal, of which there are at most ``MAX_REDEALS``
  before the forced bid (or a void round, ``all_pass.then: void``: then the game must end
  after a number of rounds with every total 0, so that seats that always pass end it too).  A trick ends after a bounded number of passes and every play takes
  cards from a hand, so the play ends when one hand is empty.
* **No expression fails when it runs**: each expression of the scoring and the end is read
  with the range of every name (:mod:`chimera_dsl.language.bounds`); an operation its values could make
  fail is refused at its character.
* **The game ends**: there is an outcome of one round (who goes out first, the bid, bonuses
  counted 0 or 1 time, seats idle or not, cards left, treasures taken or not; in a trick-taking
  round, one side taking every trick or none) whose points,
  won round after round, make the end condition hold with a single leader (or a rule for
  ties that does not play on): at once with ``end.rounds``, when some seat can score more
  than 0 with ``end.target``, and, for an ``end.when`` condition, within
  ``MAX_END_SEARCH`` rounds.
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Sequence

from ..errors import ChimeraError, ExpressionEvaluationError, Problem, VariantError
from ..language.expressions import LIMIT
from ..language.bounds import INF, Interval, Ranges, analyse, exact
from .round import Round, TransferPhase, path_of
from ..rules import Rules

MAX_REDEALS = 1000          # redeals when everyone passes, before the forced bid
MAX_END_SEARCH = 10_000     # rounds searched for an end written as a condition (as end.rounds' maximum)


def prove_playable(rules: Rules, round_: Round) -> None:
    """Raise :class:`VariantError` (problems with their paths) unless the variant plays to its end."""
    # in a trick-taking play every card may lead: only climbing plays need a combination per card
    leads = _leads(rules) if round_.play.kind != "tricks" else []
    problems = (leads + _transfers(rules, round_) + _even_hands(rules, round_) + _redeals(rules, round_)
                + _void_rounds(rules, round_))
    # a bid no round can be scored at is told as such; then every other expression a value
    # could make fail
    scored = _bids_scored(rules, round_)
    told = {p.path for p in scored}
    problems = problems + scored + [p for p in _expressions(rules, round_) if p.path not in told]
    problems = problems or _end(rules, round_)
    if problems:
        raise VariantError(problems)


# -- a leader always has a play ----------------------------------------------------------------
def _leads(rules: Rules) -> list[Problem]:
    deck = rules.deck
    alone = [deck.ranks[i] for i in sorted(set(deck.card_rank))
             if not rules.leads(deck.key([i]))]
    if not alone:
        return []
    shown = ", ".join(alone[:8]) + (f" and {len(alone) - 8} more" if len(alone) > 8 else "")
    return [Problem(f"no combination plays {'the card' if len(alone) == 1 else 'the cards'} {shown} alone, "
                    "so a player left holding only such a card could not lead", ("combinations",),
                    hint="add a combination of one card, e.g. single: {pattern: \"single of any\"}")]


# -- every hand holds a card when play begins ---------------------------------------------------
def _most(transfer: TransferPhase) -> int:
    if transfer.count is not None:
        return transfer.count
    return max(transfer.count_by_bid.values(), default=0)


def _transfers(rules: Rules, round_: Round) -> list[Problem]:
    hand = round_.deal.hand
    given = 0
    for transfer in round_.transfers:
        if transfer.source != "seats":
            continue
        most = _most(transfer)
        given += most
        if given >= hand:
            if transfer.count is not None:
                where: tuple = ("count",)
            else:       # the bid whose count is the largest
                where = ("count_by_bid", max(transfer.count_by_bid, key=lambda b: (transfer.count_by_bid[b], b)))
            earlier = "" if given == most else f" (with the transfers before it, {given})"
            return [Problem(f"this transfer takes up to {most} cards from a seat{earlier}, but a hand holds "
                            f"{hand}: a seat could have no card left to give or to play",
                            path_of(rules.spec, transfer.name) + where,
                            hint=f"take at most {hand - 1} cards from a seat in all the transfers of a round")]
    return []


# -- a trick-taking play begins with hands of one size ---------------------------------------------
def _even_hands(rules: Rules, round_: Round) -> list[Problem]:
    """A trick takes one card from each seat and the round ends when the hands are empty, so a
    trick-taking play needs every hand to hold as many cards when it begins.  The deal gives
    each seat ``deal.hand``; a transfer keeps the hands even when it hands cards round the
    table (``to: next``: each giver receives as many), or when another transfer gives the same
    count back between the same two seats under the same condition, with only transfers
    between the two (so that both name the same seats).  The nest given to a seat, or any
    other transfer, would leave a seat without a card while others still hold some."""
    if round_.play.kind != "tricks":
        return []
    problems: list[Problem] = []
    phases = list(round_.phases)
    matched: set[int] = set()
    for i, transfer in enumerate(phases):
        if not isinstance(transfer, TransferPhase) or i in matched:
            continue
        path = path_of(rules.spec, transfer.name)
        if transfer.source == "nest":
            if round_.deal.nest:
                problems.append(Problem(
                    f"the nest gives its {round_.deal.nest} cards to one seat, but a trick-taking play needs every "
                    "hand to hold as many cards when it begins (each trick takes one card from each seat)",
                    path + ("to",), hint="give the nest to nobody (nest: {to: nobody}: its cards stay out of "
                                          "play), or deal no nest (deal: {nest: 0})"))
            continue
        if transfer.to == "next" or isinstance(transfer.to, tuple):
            continue                    # a ring (next, left, right, across): each giver receives as many as it gives
        back = _given_back(phases, i, matched)
        if back is not None:
            matched.add(back)
            continue
        givers, to = _seat_text(transfer.givers), _seat_text(transfer.to)
        problems.append(Problem(
            f"this transfer hands cards from {givers} to {to} with nothing given back, but a "
            "trick-taking play needs every hand to hold as many cards when it begins (each trick takes one card "
            "from each seat)", path + ("to",),
            hint=f"give as many back in a later transfer (from: {to}, to: {givers}, the same count "
                 "and when), or hand cards round the table: to: next"))
    return problems


def _given_back(phases: list, i: int, matched: set) -> int | None:
    """The index of the transfer after ``phases[i]`` that gives back what it hands over (the same
    count, seats swapped, the same condition), with only transfers between; None if there is none."""
    transfer = phases[i]
    givers, to = transfer.givers, transfer.to
    if isinstance(givers, str) or isinstance(to, (str, tuple)) or "holder" in givers.reads | to.reads:
        return None                     # the others all give to one seat; a card's holder moves with it
    for j in range(i + 1, len(phases)):
        other = phases[j]
        if not isinstance(other, TransferPhase):
            return None                 # a phase between may change the seats the two name
        if (j not in matched and other.source == "seats" and _seat_text(other.givers) == to.text
                and _seat_text(other.to) == givers.text and other.count == transfer.count
                and other.count_by_bid == transfer.count_by_bid
                and getattr(other.when, "text", None) == getattr(transfer.when, "text", None)):
            return j
    return None


def _seat_text(seat) -> str:
    """A transfer's givers or receivers as written: a seat expression, ``others`` or ``next``."""
    return seat if isinstance(seat, str) else seat.text


# -- bidding ends -------------------------------------------------------------------------------
def _redeals(rules: Rules, round_: Round) -> list[Problem]:
    bidding = round_.bidding
    if bidding is None or bidding.redeals_before_forced <= MAX_REDEALS:
        return []
    return [Problem(f"{bidding.redeals_before_forced} redeals before the forced bid: a round could be dealt "
                    f"again without end in practice; at most {MAX_REDEALS}",
                    path_of(rules.spec, bidding.name) + ("all_pass", "redeals_before_forced"),
                    hint="e.g. redeals_before_forced: 1")]


def _void_rounds(rules: Rules, round_: Round) -> list[Problem]:
    """With ``all_pass.then: void`` seats that always pass play void rounds for ever, unless the
    end comes after a number of rounds with every total 0 (and a tie of all seats ends it)."""
    bidding = round_.bidding
    if bidding is None or not bidding.void_when_all_pass:
        return []
    end = round_.end
    zeros = [0] * int(rules.spec["players"])
    try:
        ends = end.over(zeros, MAX_END_SEARCH, round_.target) and end.ties != "play_on"
    except ExpressionEvaluationError:
        ends = False
    if ends:
        return []
    return [Problem("all_pass.then: void: if nobody ever bids, every round is void, the totals stay 0 and "
                    "tied, and the game never ends", path_of(rules.spec, bidding.name) + ("all_pass", "then"),
                    hint="end after a number of rounds, a tie shared: end: {rounds: 12, ties: shared}; "
                         "or then: forced_bid")]


# -- every bid can be scored ----------------------------------------------------------------------
def _levels(round_: Round) -> tuple[int, ...]:
    """The final bids a round can have: its bidding's levels, 1 to a hand's cards where cards
    laid face up are the bid, else 0."""
    if round_.bidding is not None:
        return tuple(round_.bidding.levels)
    if any(getattr(phase, "kind", None) == "auction" for phase in round_.phases):
        return tuple(range(1, round_.deal.hand + 1))
    return (0,)


def _bids_scored(rules: Rules, round_: Round) -> list[Problem]:
    """A bid at which no round can be scored (a table too short, a division by zero...)."""
    n = round_.players
    for bid in _levels(round_):
        failure = None
        for bidder_won in (True, False):
            try:
                _score(rules, round_.scoring, round_, n, 0 if bidder_won else 1, bidder_won, bid, 0, False,
                       round_.deal.hand, 0, 0, [c.id for c in rules.combinations], strict=True)
                break
            except ExpressionEvaluationError as error:
                failure = error
        else:
            scoring = round_.scoring
            own = (rules.spec.get("scoring") or {}).get("bonuses") or {}      # an outcome's bonus is a term
            written = [(("scoring", "facts", name), expr) for name, expr in scoring.facts]
            written += [(("scoring", "bonuses", name), expr) for name, expr in scoring.bonuses if name in own]
            written += [(term.path, term.value) for term in scoring.terms if term.path]
            where = next((path for path, expr in written if getattr(expr, "text", None) == failure.text),
                         ("scoring",))
            return [Problem(f"a round won or lost at bid {bid} cannot be scored: {failure.message}",
                            where, failure.offset,
                            hint="give every table of facts an entry for each bid the round "
                                 "can reach" if "at()" in failure.message else None)]
    return []


# -- no expression fails when it runs ------------------------------------------------------------
def _expressions(rules: Rules, round_: Round) -> list[Problem]:
    """Each expression of the scoring and the end, analysed with the range of every name it reads
    (:mod:`chimera_dsl.language.bounds`): a division that can be by zero, a power that can overflow or
    whose exponent can leave 0..64, ``at()`` past its table, ``step()`` past its last bound
    without ``else`` are refused at their character.  The facts and bonuses are analysed in
    order, each giving its range to those after it."""
    ranges = _ranges(rules, round_)
    scoring = round_.scoring
    problems: list[Problem] = []

    def check(expr, path: tuple) -> Interval | None:
        if expr is None or not hasattr(expr, "scope"):     # a table of facts: its range is known
            return None
        value, found = analyse(expr.text, ranges)
        problems.extend(Problem(p.message, path, p.offset, p.hint) for p in found)
        return value
    spec = rules.spec.get("scoring") or {}
    for name, expr in scoring.facts:
        value = check(expr, ("scoring", "facts", name))
        if hasattr(expr, "scope"):
            ranges.numbers[name] = value if value is not None else Interval(0, 1)
    for name, expr in scoring.bonuses:
        written = name in (spec.get("bonuses") or {})
        value = check(expr, ("scoring", "bonuses", name)) if written else analyse(expr.text, ranges)[0]
        ranges.numbers[name] = value if value is not None else Interval(0, 1)
    if scoring.won is not None:
        check(scoring.won, ("scoring", "bidder_won"))
    seen: set = set()
    for term in scoring.terms:
        if term.path not in seen:           # an outcome's bonus counts in both outcomes: said once
            seen.add(term.path)
            check(term.value, term.path)
    for held, expr in scoring.sets:
        check(expr, ("scoring", "set", held.name))
    end_ranges = Ranges(numbers={"round": Interval(1, INF), "players": exact(round_.players),
                                 "target": exact(round_.target)},
                        lists={"totals": (Interval(-INF, INF, False), round_.players)})
    value, found = analyse(round_.end.when.text, end_ranges)
    problems.extend(Problem(p.message, ("end", "when"), p.offset, p.hint) for p in found)
    return problems + _conditions(rules, round_)


def _conditions(rules: Rules, round_: Round) -> list[Problem]:
    """The play's rules (``play.must``), its effects (``play.effects``: their conditions and
    numbers) and the rules of a bids phase (``must``), read as the scoring's expressions are,
    with the range of each number they read (a trick's number from 1 to a hand, the bids made so
    far from 0 to every seat's hand, a value within its range...): a division that can be by
    zero, say, is refused at its character, where it stopped a game as it ran."""
    n = round_.players
    hand = max(rules.max_hand, round_.deal.hand)
    numbers = {"round": Interval(1, INF), "players": exact(n), "trick": Interval(1, hand),
               "tricks": Interval(0, hand), "bid": Interval(0, hand), "bid_total": Interval(0, n * hand),
               "side_bid_total": Interval(0, n * hand), "bids_made": Interval(0, n), "out_count": Interval(0, n),
               "play_size": Interval(1, hand), "play_rank": Interval(1, len(rules.deck.ranks)),
               "play_tier": Interval(0, INF)}
    numbers.update({v.name: Interval(v.low, v.high) for v in round_.scoring.values})
    ranges = Ranges(numbers=numbers)
    problems: list[Problem] = []

    def check(expr, path: tuple) -> None:
        if expr is None or not isinstance(getattr(expr, "text", None), str):
            return
        _, found = analyse(expr.text, ranges)
        problems.extend(Problem(p.message, path, p.offset, p.hint) for p in found)
    play = round_.play
    for i, rule in enumerate(getattr(play, "must", ()) or ()):
        # (a trick-taking play's rules are Must, a climbing play's (when, play) pairs, in order)
        when, what = (rule.when, rule.play) if hasattr(rule, "play") else rule
        check(when, ("play", "must", getattr(rule, "index", i), "when"))
        check(what, ("play", "must", getattr(rule, "index", i), "play"))
    for i, effect in enumerate(getattr(play, "effects", ()) or ()):
        check(getattr(effect, "when", None), ("play", "effects", i, "when"))
        if effect.name in ("add", "set") and isinstance(effect.arg, tuple):
            check(effect.arg[1], ("play", "effects", i, "do", effect.name, effect.arg[0]))
    check(getattr(play, "ends_when", None), ("play", "round_ends_when"))
    for phase in round_.phases:
        if getattr(phase, "kind", None) == "bids":
            for rule in phase.must:
                check(rule.when, ("phases", phase.name, "must", rule.index, "when"))
                check(rule.bid, ("phases", phase.name, "must", rule.index, "bid"))
        if getattr(phase, "kind", None) == "contract":      # the declarer's team: its index in play.teams
            ranges.numbers["team"] = Interval(0, max(0, len(play.teams) - 1))
            check(phase.vulnerable, ("phases", phase.name, "vulnerable"))
    return problems


def _ranges(rules: Rules, round_: Round) -> Ranges:
    """The range of every name a scoring expression may read, from the variant's own numbers."""
    deck = rules.deck
    n = round_.players
    levels = _levels(round_)
    hand = max(rules.max_hand, round_.deal.hand)
    cards = len(deck.cards)
    treasures = [points * deck.copies[index] for index, points in round_.scoring.treasures]
    numbers = {"bid": Interval(min(levels), max(levels)), "round": Interval(1, INF), "players": exact(n),
               "cards_left": Interval(0, hand), "plays": Interval(0, hand),
               "card_points": Interval(sum(min(t, 0) for t in treasures), sum(max(t, 0) for t in treasures))}
    play = round_.play
    if play.kind == "tricks":
        factor = max([1] + [f for _, f in play.trump_factors])
        per_card = [(min(p, t, 0), max(p, t, 0)) for p, t in zip(play.card_points, play.trump_card_points)]
        low = (sum(lo for lo, _ in per_card) + min(play.last_trick, 0) + min(play.all_tricks, 0)) * factor
        high = (sum(hi for _, hi in per_card) + max(play.last_trick, 0) + max(play.all_tricks, 0)) * factor
        for name in ("trick_points", "own_trick_points", "bidder_side_points"):
            numbers[name] = Interval(low, high)
        for name in ("tricks_taken", "side_tricks", "own_bid"):
            numbers[name] = Interval(0, round_.deal.held)
        for name in ("side_bid", "bid_total"):              # bids of tricks (a bids phase), added up
            numbers[name] = Interval(0, round_.deal.held * n)
        numbers["total"] = Interval(-INF, INF)               # a seat's total before the round
        for name in ("all_tricks_taken", "bidder_trump_colour", "bidder_trump_rank", "bidder_trump_none",
                     "bidder_side", "bidder_alone", "defender_alone"):
            numbers[name] = Interval(0, 1)
        numbers["bidder_side_tricks"] = Interval(0, round_.deal.held)
        numbers["defenders_points"] = Interval(low, high)
        melds = play.announcements
        pair = melds.pair_points * factor if melds is not None else 0
        for name in ("bidder_side_announced", "defenders_announced"):      # announcements: no more than every card shows
            numbers[name] = Interval(0, INF) if melds is not None else exact(0)
        for name in ("bidder_side_pair", "defenders_pair", "trump_pair"):
            numbers[name] = Interval(min(pair, 0), max(pair, 0))
        numbers["bidder_trump_cards"] = Interval(0, cards)
        contract = next((p for p in round_.phases if getattr(p, "kind", None) == "contract"), None)
        if contract is not None:             # an auction of contract bids: what the contract was
            numbers["contract_level"] = Interval(0, contract.high)
            numbers["contract_strain"] = Interval(0, len(contract.strains))
            numbers["declarer_tricks"] = Interval(0, round_.deal.held)
            for name in ("contract_no_trump", "doubled", "redoubled", "vulnerable", "declarer_side"):
                numbers[name] = Interval(0, 1)
        solo = next((p for p in round_.phases if getattr(p, "kind", None) == "solo"), None)
        if solo is not None:                 # a declarer's game (kind solo): what the game was
            bases = [v for g in solo.games for v in (g.base, g.hand_base) if v is not None]
            numbers["game_base"] = Interval(0, max(bases + [0]))
            numbers["tops"] = Interval(0, max([len(g.top) for g in solo.games] + [0]) + cards // max(
                len(rules.deck.colours), 1))
            for name in ("hand_game", "no_trick_game", "declared") + tuple(f"{d.name}_declared"
                                                                          for d in solo.declarations):
                numbers[name] = Interval(0, 1)
    for value in round_.scoring.values:       # the file's values, within their ranges
        numbers[value.name] = Interval(value.low, value.high)
    smallest = {c.id: _smallest_play(c) for c in rules.combinations}
    lists = {}
    for name, table in round_.scoring.facts:
        if not hasattr(table, "scope"):
            values: Any = table.evaluate({})       # a table of facts: its numbers
            lists[name] = (Interval(min(values), max(values), all(v == int(v) for v in values)), len(values))
    functions = {"count": lambda c: Interval(0, cards // smallest.get(c, 1)),
                 "plays_by": lambda r: Interval(0, cards), "idle": lambda r: Interval(0, n)}
    if play.kind == "tricks":               # a seat's cards taken, of a colour or of one name
        functions["taken_colour"] = functions["taken_card"] = lambda *names: Interval(0, cards)
    return Ranges(numbers=numbers, lists=lists, functions=functions)


def _smallest_play(combination) -> int:
    """The fewest cards a play of ``combination`` holds (so a round holds at most so many of them)."""
    if combination.cards_count:
        return combination.cards_count
    length = min(w[2] for w in combination.windows) if combination.is_chain else 1
    return max(1, combination.size_for_length(length))


# -- the game ends ------------------------------------------------------------------------------
def prove_target(rules: Rules, round_: Round, target: int) -> None:
    """Raise :class:`ChimeraError` unless a game played to ``target`` (given instead of
    ``end.target``, as ``run --target`` does) ends as the file's own target must:
    within ``MAX_END_SEARCH`` rounds, with values expressions can hold."""
    if target > LIMIT:
        raise ChimeraError(f"the target {target} is too large: it may be at most {LIMIT}")
    problems = _end(rules, round_, target)
    if problems:
        problem = problems[0]
        text = f"with a target of {target} the game might never end: {problem.message}"
        if problem.hint:
            text += f" (hint: {problem.hint})"
        raise ChimeraError(text)


def _end(rules: Rules, round_: Round, target: int | None = None) -> list[Problem]:
    """The problems with the game's end; ``target`` (when given) replaces ``end.target``."""
    problems = _end_reached(rules, round_, target)
    sides = [team for team in getattr(round_.play, "teams", ()) if len(team) > 1]
    if not problems and round_.end.ties == "play_on" and sides:
        # a side's points are pooled: once it leads, its seats stay tied however they play, and
        # the game waits for a seat of another side to lead alone, which random play may never see
        return [Problem(f"the seats of a side of play.teams ({', '.join(map(str, sides[0]))}) always hold the same "
                        "total, so when that side leads the totals stay tied and the game may play on for ever",
                        ("end", "ties"), hint="write ties: shared or ties: one_more_round")]
    return problems


def _end_reached(rules: Rules, round_: Round, target: int | None = None) -> list[Problem]:
    """The problems with reaching the game's end by the outcomes a round can give."""
    spec = rules.spec.get("end") or {}
    end = round_.end
    target = round_.target if target is None else target
    vectors = _outcomes(rules, round_)

    def settles(totals: Sequence) -> bool:
        if end.ties != "play_on":
            return True
        return len(end.leaders(list(totals))) == 1

    if "when" not in spec and "rounds" in spec:
        if any(settles(v) for v in vectors):
            return []
        return [Problem("in every round several seats score the best points alike (every seat, or the seats of "
                        "one side), so their totals stay tied and the game plays on for ever", ("end", "ties"),
                        hint="write ties: shared or ties: one_more_round, or score the seats differently")]
    if "when" not in spec:
        if not any(max(v) > 0 for v in vectors):
            hint = "give points in scoring, or end after a number of rounds: end.rounds: N"
            if round_.play.kind == "tricks":
                hint = ("score the tricks (trick_points, tricks_taken...): when a trick-taking round ends the hands "
                        "are empty, cards_left is 0 and nobody went out first; or end after a number of rounds: "
                        "end.rounds: N")
            return [Problem(f"no seat can score more than 0 points in a round, so no total ever reaches "
                            f"end.target ({target}) and the game never ends", ("scoring",), hint=hint)]
        if not any(max(v) > 0 and settles(v) for v in vectors):
            return [Problem("in every round that scores points several seats score the best points alike (the "
                            "seats of one side, say), so their totals stay tied and the game plays on for ever",
                            ("end", "ties"),
                            hint="write ties: shared or ties: one_more_round, or score the seats differently")]
        best = max(max(v) for v in vectors)
        if math.ceil(target / best) > MAX_END_SEARCH:
            return [Problem(f"a seat scores at most {best} points in a round here, so reaching the target takes "
                            f"more than {MAX_END_SEARCH} rounds", ("end", "target"),
                            hint=f"at most {best * MAX_END_SEARCH} with this scoring, or write end.rounds: N")]
        return []
    # a condition: search the rounds for one where it holds, each outcome won round after round
    order = sorted(vectors, key=lambda v: (-max(v), v))[:8]
    reads_totals = "totals" in end.when.names
    for vector in order if reads_totals else order[:1]:
        for k in range(1, MAX_END_SEARCH + 1):
            totals = [k * x for x in vector]
            try:
                if end.over(totals, k, target) and settles(totals):
                    return []
            except ExpressionEvaluationError:
                continue
    return [Problem(f"this condition holds in none of the first {MAX_END_SEARCH} rounds of any outcome the "
                    "loader tries (each won round after round), so the game may never end", ("end", "when"),
                    hint="add a number of rounds, e.g. '... or round >= 20', or write end.rounds: N")]


def _outcomes(rules: Rules, round_: Round) -> list[tuple]:
    """The points of each seat in a few outcomes of a round (distinct vectors).

    Who goes out first (or whether the bidder's side wins), the lowest, middle and highest bid,
    every bonus and combination counted 0 or 1 time, the other seats idle or not, with one card
    or a whole hand left, the treasures taken by nobody or by one seat.
    """
    n = round_.players
    scoring = round_.scoring
    hand = round_.deal.hand
    levels = _levels(round_)
    bids = sorted({levels[0], levels[len(levels) // 2], levels[-1]})
    deck = rules.deck
    treasure = sum(max(points, 0) * deck.copies[index] for index, points in scoring.treasures)
    ids = [c.id for c in rules.combinations]
    if round_.play.kind == "tricks" and scoring.won is None:
        cases = [(0, False)]        # no seat goes out, and only scoring.bidder_won says the bidder won
    elif round_.bidding is not None:
        cases = [(0 if won else 1, won) for won in (True, False)]
    else:
        cases = [(out, False) for out in range(n)]
    seen: dict[tuple, None] = {}
    # the file's values at their start, and all at their lowest and at their highest
    kept_cases: list = [None]
    if scoring.values:
        kept_cases += [{v.name: v.low if v.each is None else [v.low] * n for v in scoring.values},
                       {v.name: v.high if v.each is None else [v.high] * n for v in scoring.values}]
    for (out, bidder_won), kept in ((c, k) for k in kept_cases for c in cases):
        for bid in bids:
            for counted in (0, 1):
                for idle in (False, True):
                    for left in sorted({1, hand}):
                        for taker in (None, out, (out + 1) % n):
                            vector = _score(rules, scoring, round_, n, out, bidder_won, bid, counted, idle, left,
                                            taker, treasure, ids, kept=kept)
                            if vector is not None:
                                seen.setdefault(vector, None)
                        if round_.play.kind == "tricks" and n > 1:
                            # one side takes every trick but one, whose card of points another seat
                            # takes: points split between seats (a seat taking every point may score
                            # nothing, as a Hearts player who shoots the moon)
                            for split in _splits(round_.play, out, n, hand):
                                vector = _score(rules, scoring, round_, n, out, bidder_won, bid, counted, idle,
                                                left, out, treasure, ids, split=split, kept=kept)
                                if vector is not None:
                                    seen.setdefault(vector, None)
    return list(seen) or [tuple([0] * n)]


def _splits(play, out: int, n: int, hand: int) -> list[dict[int, int]]:
    """Outcomes where ``out`` takes every trick but a few, each another seat's (per seat, the
    mask of the cards of points it takes, one card a trick): the next seat takes one card of
    each nonzero value of points in turn; and, where one value has enough cards, the seat k
    places after ``out`` takes k of them (every seat a different score)."""
    by_value: dict[int, list[int]] = {}
    for card, points in enumerate(play.card_points):
        if points:
            by_value.setdefault(points, []).append(card)
    out_splits = [{(out + 1) % n: 1 << cards[0]} for _, cards in sorted(by_value.items())]
    for _, cards in sorted(by_value.items()):
        if len(cards) >= n * (n - 1) // 2 and n * (n - 1) // 2 < hand:
            ladder, at = {}, 0
            for k in range(1, n):
                mask = 0
                for card in cards[at:at + k]:
                    mask |= 1 << card
                ladder[(out + k) % n] = mask
                at += k
            out_splits.append(ladder)
            break
    return out_splits


def _trick_points(rules: Rules, play) -> int:
    """The card points of a whole deck taken in tricks, with the last trick's and every trick's bonus."""
    return sum(max(p, t) for p, t in zip(play.card_points, play.trump_card_points)) + play.last_trick + play.all_tricks


def _score(rules: Rules, scoring, round_: Round, n: int, out: int, bidder_won: bool, bid: int, counted: int,
           idle: bool, left: int, taker, treasure: int, ids: list, strict: bool = False,
           split: dict[int, int] | None = None, kept: dict | None = None) -> tuple | None:
    """The points of each seat in one outcome (see :func:`_outcomes`); in a trick-taking round,
    ``taker``'s side takes every trick, or with ``split`` (seat -> mask of cards) every trick but
    those the seats of ``split`` take, one card of points a trick."""
    with_bidding = round_.bidding is not None
    plays = [1 if seat == out or not idle else 0 for seat in range(n)]
    roles: dict[str, tuple[int, ...]] = {"bidder": (0,), "others": tuple(range(1, n))} if with_bidding \
        else {"bidder": (), "others": ()}
    roles["each"] = tuple(range(n))
    env = {"bid": bid, "round": 1, "players": n, "bidder_won": bidder_won, "_plays": plays, "_roles": roles,
           "_counts": {cid: counted for cid in ids}}
    seats = []
    for seat in range(n):
        if with_bidding:
            won = bidder_won if seat == 0 else not bidder_won
        else:
            won = seat == out
        seats.append({"won": won, "out_first": seat == out, "is_dealer": seat == (out + 1) % n,
                      "cards_left": 0 if seat == out else left,
                      "plays": plays[seat], "card_points": treasure if seat == taker else 0,
                      "place": (seat - out) % n + 1})      # where play goes on: out first, then round the table
    teams = round_.play.teams if round_.play.kind != "tricks" else ()
    if teams:                               # a climbing play's teams: the side goes out, and is scored together
        for seat, facts in enumerate(seats):
            side = round_.play.side(seat, n)
            facts["partner_place"] = next((seats[s]["place"] for s in side if s != seat), 0)
            if not with_bidding:
                facts["won"] = out in side
    if round_.play.kind == "tricks":        # the taker's side takes every trick, or nobody takes points
        # as the trick-taking play scores a round: the hands empty together (nobody goes out
        # first, no card is left, no seat is idle), no combination is played, no treasure is
        # counted, and the side with the most card points has won
        hand = round_.deal.held
        env.update({"_plays": [hand] * n, "_counts": {}})
        winners = round_.play.side(taker, n) if taker is not None else tuple(range(n))
        for seat, facts in enumerate(seats):
            facts.update({"won": seat in winners, "out_first": False, "cards_left": 0, "plays": hand,
                          "card_points": 0})
        whole = _trick_points(rules, round_.play)
        env.update({"all_tricks_taken": int(taker is not None), "bidder_side_points": whole if taker == 0 else 0,
                    "bidder_trump_colour": 1, "bidder_trump_rank": 0, "bidder_trump_none": 0,
                    "bidder_trump_cards": len(rules.deck.cards) // max(len(rules.deck.colours), 1),
                    # the bidder (seat 0) plays with its partner, no defender alone
                    "bidder_side_tricks": round_.deal.held if taker is not None and 0 in winners else 0,
                    "bidder_alone": 0, "defender_alone": 0,
                    "defenders_points": whole if taker is not None and taker != 0 else 0,
                    "bidder_side_announced": 0, "bidder_side_pair": 0, "defenders_announced": 0,
                    "defenders_pair": 0})
        full = (1 << len(rules.deck.cards)) - 1
        for seat, facts in enumerate(seats):
            took = seat == taker                    # the seat's own tricks, then its side's
            side = taker is not None and seat in winners
            facts.update({"trick_points": whole if side else 0, "own_trick_points": whole if took else 0,
                          "tricks_taken": round_.deal.held if took else 0,
                          "side_tricks": round_.deal.held if side else 0,
                          "announced": 0, "trump_pair": 0, "_taken": full if took else 0,
                          # bids of tricks (a bids phase): every seat bid what it took
                          "own_bid": round_.deal.held if took else 0,
                          "side_bid": round_.deal.held if side else 0,
                          "total": 0, "_side": round_.play.side(seat, n),
                          "bidder_side": int(0 in round_.play.side(seat, n))})
        env["bid_total"] = round_.deal.held
        contract = next((p for p in round_.phases if getattr(p, "kind", None) == "contract"), None)
        if contract is not None:             # the highest contract, in the highest strain, taken or lost
            declarers = round_.play.side(0, n)
            env.update({"contract_level": contract.high, "contract_strain": len(contract.strains),
                        "contract_no_trump": int(contract.strains[-1][0] == "none"), "doubled": 0, "redoubled": 0,
                        "vulnerable": 0, "declarer_tricks": round_.deal.held if taker in declarers else 0})
            for seat, facts in enumerate(seats):
                facts["declarer_side"] = int(seat in declarers)
        solo = next((p for p in round_.phases if getattr(p, "kind", None) == "solo"), None)
        if solo is not None:                 # the declarer's game of the highest base, with every top trump
            best = max(solo.games, key=lambda g: max(g.base, g.hand_base or 0))
            env.update({"game_base": max(best.base, best.hand_base or 0), "hand_game": int(best.hand_base is not None),
                        "no_trick_game": int(best.no_tricks), "tops": len(best.top), "declared": 1,
                        **{f"{d.name}_declared": 1 for d in solo.declarations}})
        if split is not None:
            points = round_.play.card_points
            own = [sum(points[c] for c in range(len(points)) if split.get(s, 0) >> c & 1) for s in range(n)]
            tricks = [bin(split.get(s, 0)).count("1") for s in range(n)]
            taken = [split.get(s, 0) for s in range(n)]
            own[taker] = whole - sum(own)
            tricks[taker] = round_.deal.held - sum(tricks)
            taken[taker] = full & ~sum(split.values())
            sides = [round_.play.side(s, n) for s in range(n)]
            side_points = [sum(own[t] for t in sides[s]) for s in range(n)]
            for seat, facts in enumerate(seats):
                facts.update({"trick_points": side_points[seat], "own_trick_points": own[seat],
                              "tricks_taken": tricks[seat], "side_tricks": sum(tricks[t] for t in sides[seat]),
                              "own_bid": tricks[seat], "side_bid": sum(tricks[t] for t in sides[seat]),
                              "won": side_points[seat] == max(side_points), "_taken": taken[seat]})
            env["bidder_side_tricks"] = sum(tricks[t] for t in sides[0])
            env["all_tricks_taken"] = int(any(sum(tricks[t] for t in side) == round_.deal.held for side in sides))

    def role_of(seat: int) -> str | None:
        if not with_bidding:
            return None
        return "bidder" if seat == 0 else "others"
    try:
        _, parts, _ = scoring.score(env, seats, role_of, teams=teams,
                                    kept=None if kept is None else {k: v.copy() if isinstance(v, list) else v
                                                                    for k, v in kept.items()})
    except ExpressionEvaluationError:
        if strict:
            raise
        return None
    return tuple(_plain(sum(p for _, p in parts[seat])) for seat in range(n))


def _plain(value):
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return value
