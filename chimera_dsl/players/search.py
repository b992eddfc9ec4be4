"""A searching player: determinized Monte Carlo search over imagined deals.

At each decision with more than one legal action, the player imagines whole states that
agree with everything its seat has seen (:meth:`Observation.sample`, which deals the hidden
cards again at random), tries candidate actions in them, and plays each imagined round out
to its end.  A playout scores this seat's points in the round minus the mean of the other
seats' (``state.totals`` before and after), the other way round when the lowest total wins.

It reads nothing of any game but the engine's public surface (``legal_actions``,
``apply_action``, ``clone``, ``current_player``, ``observation``, ``round``, ``totals``,
``is_terminal``, whether the game's lowest total wins, an observation's ``kind``, an
action's ``kind`` and ``play``) and talks to
other players only through the player protocol, so it plays every variant the engine plays.

*Guided search* (when the heuristic player is installed, at decisions of the phase kinds in
``informed_kinds``, None: all).  The heuristic player plays the playouts at every seat (it
too sees only each seat's observation of the imagined state), and its own choice for the
real decision is the first candidate, the *guide's choice*.  Another candidate is played
only when it beats the guide's choice on the same imagined worlds by more than
``confidence`` standard errors of the paired differences; sequential halving never drops
the guide's choice.  This is a rollout of a base policy: it keeps the heuristic player's
judgement where a few dozen playouts cannot tell the actions apart (a bid is worth what a
whole round is worth, and a handful of worlds misjudges it), and departs from it where
they clearly can.  Without that gate the search, against heuristic players, lost about
10 points a round to them; with it, it gains (see docs/players.md).

*Where it searches* (guided search only; each measured in docs/players.md).  Playouts are
spent where they pay:

- only at decisions of the phase kinds in ``searched_kinds`` (by default card plays and the
  trick-taking phases, not the climbing games' bidding and exchanges: searching those gained
  nothing measurable and took about half the time); elsewhere the guide's choice is played;
- a card play is searched only once at most ``horizon`` cards are left in the other seats'
  hands (``horizon_counts="others"``; ``"all"``: in all hands): earlier, a playout is long, its
  outcome noisy, and a few dozen of them rarely tell the candidates apart (searching only the
  later plays keeps a gain over the heuristic player at a tenth or less of the time, though
  less of it than searching every decision did).  Counting the others' cards, the cards the
  player does not see, searches a table of three from about as many cards in all hands as a
  table of four with a few cards more each, whose playouts cost several times more;
- a card play of the climbing play (``FAR_KINDS``) within the horizon is searched with
  ``play_share`` of the budget: a little less strength a decision, for a horizon reaching
  further at the same time;
- a lead of the climbing play (no play to answer) beyond the horizon, up to ``far_horizon``,
  is searched with ``far_share`` of the budget among at most ``far_candidates`` candidates: a
  lead picks the shape of the hand for the rest of the round (a long straight led early or
  kept), and a few worlds often show it; the answers there stay the guide's choice (searching
  them cost as much and gained less);
- a guide's choice that empties the hand is played at once;
- *early cut* (``early_cut``): after the first stage of sequential halving, when no other
  candidate scored better than the guide's choice on those worlds, the search stops there;
  with two candidates (``pair_cut``) the worlds are played in two halves, so that the cut can
  happen after the first.

*Plain search* (no heuristic player, or other phase kinds): the playouts use a cheap default
policy (:func:`default_policy`) and the action with the best mean score is played.

Bounded work:

- *Candidates.* At most ``max_candidates`` actions are searched (the guide's choice among
  them): when there are more, a cheap prior keeps half by the most cards shed (lowest rank
  first) and half by the lowest rank (most cards first), and passing when it is legal;
  other kinds of action (bids, cards handed over) are kept in the engine's order when they
  fit, else a seeded sample.
- *Budget.* ``playouts`` per decision are shared by sequential halving: in each of
  ``ceil(log2(candidates))`` stages every candidate still in play gets the same number of
  playouts, on the same imagined worlds with the same random choices (common random
  numbers), and the worse half is dropped.  A time budget (``200ms``) measures one stage's
  first world and turns the time into playouts; it stops at the deadline whatever happens.
- *Playouts.* At most ``max_steps`` actions each; a playout cut short scores nothing.

Deterministic: decision ``k`` of a player seeded ``s`` draws everything from
``random.Random(f"search:{s}:{k}")`` (the heuristic player is deterministic), so with a
playout budget the same seed and the same observations give the same choices (a time
budget depends on the machine's speed).
"""
from __future__ import annotations

import math
import random
import re
import time
from dataclasses import dataclass
from typing import Any, Sequence

from ..engine import Action, Observation
from ..engine.phases.tricks import KINDS as TRICK_KINDS
from .base import PlayerError, heuristic_available, heuristic_player

DEFAULT_PLAYOUTS = 24              # the budget measured in docs/players.md
MAX_PLAYOUTS = 1_000_000          # a budget beyond this is refused (bounded work per decision)
MAX_MILLISECONDS = 600_000
MAX_CANDIDATES = 4
MAX_PLAYOUT_STEPS = 600
CONFIDENCE = 1.0                  # standard errors by which a candidate must beat the guide's choice
EXPLORE = 0.1                     # the default policy's chance of a uniformly random action
ANSWER_PASS = 0.25                # its chance of passing when it could answer
SEARCHED_KINDS = ("play",) + TRICK_KINDS   # kinds of phase searched by default (not bidding, exchanges)
HORIZON = 27                      # card plays searched only when at most this many cards are left in the other hands
HORIZON_COUNTS = "others"         # the horizons count the cards in the other seats' hands ("all": in all hands)
FAR_HORIZON = 33                  # leads beyond the horizon searched, with less, up to this many cards left
PLAY_SHARE = 2 / 3                # the share of the budget spent on a climbing play within the horizon
FAR_SHARE = 0.5                   # the share of the budget spent on a lead beyond it (0: none)
FAR_CANDIDATES = 3                # and the candidates searched there
CARD_PLAY_KINDS = ("play", "tricks")       # kinds of phase whose decisions are plays of cards
FAR_KINDS = ("play",)             # kinds of phase whose leads (no play to answer) are searched beyond the horizon


class BudgetError(PlayerError):
    """A search budget that cannot be read."""


@dataclass(frozen=True)
class Budget:
    """What one decision may spend: a number of ``playouts``, or ``milliseconds`` of time."""

    playouts: int | None = None
    milliseconds: float | None = None

    def __str__(self) -> str:
        if self.milliseconds is not None:
            return f"{self.milliseconds:g}ms"
        return str(self.playouts)


DEFAULT_BUDGET = Budget(playouts=DEFAULT_PLAYOUTS)

_BUDGET = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s|playouts)?\s*$", re.IGNORECASE)


def parse_budget(text: "str | int | Budget | None") -> Budget:
    """A budget from ``"200"`` (playouts), ``"200ms"`` or ``"1.5s"``; None: the default."""
    if text is None:
        return DEFAULT_BUDGET
    if isinstance(text, Budget):
        return text
    if isinstance(text, int) and not isinstance(text, bool):
        text = str(text)
    match = _BUDGET.match(str(text))
    if match is None:
        raise BudgetError(f"cannot read the search budget {text!r}: write a number of playouts (200) "
                          f"or a time per decision (200ms, 1.5s)")
    number, unit = float(match.group(1)), (match.group(2) or "").lower()
    if unit in ("ms", "s"):
        ms = number * (1000 if unit == "s" else 1)
        if not 1 <= ms <= MAX_MILLISECONDS:
            raise BudgetError(f"the search budget {text!r} must be between 1ms and {MAX_MILLISECONDS // 1000}s")
        return Budget(milliseconds=ms)
    if not number.is_integer() or not 1 <= number <= MAX_PLAYOUTS:
        raise BudgetError(f"the search budget {text!r} must be a whole number of playouts "
                          f"from 1 to {MAX_PLAYOUTS}")
    return Budget(playouts=int(number))


class SearchPlayer:
    """Determinized Monte Carlo search with sequential halving (see the module's docstring)."""

    name = "search"

    def __init__(self, seed=0, budget: "Budget | str | int | None" = None,
                 max_candidates: int = MAX_CANDIDATES, max_steps: int = MAX_PLAYOUT_STEPS,
                 informed_kinds: Sequence[str] | None = None, confidence: float = CONFIDENCE,
                 searched_kinds: Sequence[str] | None = SEARCHED_KINDS, horizon: int | None = HORIZON,
                 early_cut: bool = True, far_horizon: int | None = FAR_HORIZON,
                 far_share: float = FAR_SHARE, far_candidates: int = FAR_CANDIDATES,
                 pair_cut: bool = True, horizon_counts: str = HORIZON_COUNTS,
                 play_share: float = PLAY_SHARE):
        self.seed = seed
        self.budget = parse_budget(budget)
        self.max_candidates = max(2, max_candidates)
        self.max_steps = max(1, max_steps)
        self.informed_kinds = None if informed_kinds is None else tuple(informed_kinds)
        self.confidence = confidence
        self.searched_kinds = None if searched_kinds is None else tuple(searched_kinds)
        self.early_cut = early_cut
        self.horizon = horizon
        self.far_horizon = far_horizon
        self.far_share = far_share
        self.far_candidates = max(2, far_candidates)
        self.pair_cut = pair_cut
        if horizon_counts not in ("all", "others"):
            raise PlayerError(f"horizon_counts must be 'all' (cards in all hands) or 'others' (cards in the "
                              f"other seats' hands), not {horizon_counts!r}")
        self.horizon_counts = horizon_counts
        self.play_share = play_share
        self._decisions = 0
        self._bots: list | None = None          # the informed playouts' players, one per seat
        self._guide: Any = None                     # the informed player's view of the real decisions
        self._playout_bots: list | None = None  # those of the decision being searched, or None
        self.last_scores: dict[Action, tuple[float, int]] = {}
        """Mean score and playouts of each candidate at the last searched decision."""

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """The guide's choice unless a candidate clearly beats it; without a guide, the
        candidate with the best mean playout score."""
        self._decisions += 1
        self.last_scores = {}
        if len(legal_actions) == 1:
            return legal_actions[0]
        rng = random.Random(f"search:{self.seed}:{self._decisions}")
        self._playout_bots = None
        first = None
        budget, cap = self.budget, self.max_candidates
        if self.informed_kinds is None or observation.kind in self.informed_kinds:
            self._playout_bots = self._informed_bots(observation.players)
            if self._playout_bots is not None:
                first = self._guide.act(observation, legal_actions)
                if self.searched_kinds is not None and observation.kind not in self.searched_kinds:
                    return first                # a kind of decision where playouts did not pay
                if first.play is not None and first.play.key == observation.hand:
                    return first                # it goes out: nothing does better
                sizes = observation.hand_sizes or ()
                left = sum(sizes)
                if self.horizon_counts == "others" and sizes:
                    left -= sizes[observation.seat]
                if (self.horizon is not None and observation.kind in CARD_PLAY_KINDS
                        and left > self.horizon):
                    if (self.far_share <= 0 or observation.kind not in FAR_KINDS
                            or observation.last_play is not None
                            or (self.far_horizon is not None and left > self.far_horizon)):
                        return first            # too many cards left for playouts to tell
                    budget, cap = self._share(self.far_share), min(cap, self.far_candidates)
                elif observation.kind in FAR_KINDS and self.play_share != 1:
                    budget = self._share(self.play_share)
        candidates = candidate_actions(legal_actions, cap, rng, first)
        return self._search(observation, candidates, rng, anchored=first is not None, budget=budget)

    def _share(self, share: float) -> Budget:
        """``share`` of the decision's budget (a card play of the climbing play: ``play_share``
        within the horizon, ``far_share`` beyond it)."""
        if self.budget.milliseconds is not None:
            return Budget(milliseconds=max(1.0, self.budget.milliseconds * share))
        return Budget(playouts=max(1, round((self.budget.playouts or 1) * share)))

    def _informed_bots(self, seats: int) -> list | None:
        """Heuristic players for every seat of the playouts, when that player is installed
        (and the guide, the heuristic player that proposes the first candidate)."""
        if self._bots is None or len(self._bots) != seats:
            if not heuristic_available():
                return None
            self._bots = [heuristic_player(seat) for seat in range(seats)]
            self._guide = heuristic_player(self.seed)
        return self._bots

    # -- sequential halving ---------------------------------------------------------------------
    def _search(self, observation: Observation, candidates: list[Action], rng: random.Random,
                anchored: bool = False, budget: Budget | None = None) -> Action:
        seat = observation.seat
        budget = budget or self.budget
        deadline = None
        if budget.milliseconds is not None:
            deadline = time.perf_counter() + budget.milliseconds / 1000
        total = budget.playouts
        alive = list(range(len(candidates)))
        sums = [0.0] * len(candidates)
        counts = [0] * len(candidates)
        scores: list[dict[int, float]] = [{} for _ in candidates]     # world number -> score
        world_no = 0
        stages = max(1, math.ceil(math.log2(len(candidates))))
        if anchored and self.early_cut and self.pair_cut and len(candidates) == 2:
            stages = 2              # two halves of the worlds, with the early cut between them
        out_of_time = False
        for stage in range(stages):
            worlds = 0
            while True:
                if total is not None:
                    per = max(1, total // (len(alive) * stages))
                    if worlds >= per:
                        break
                world = observation.sample(rng)
                playout_seed = rng.getrandbits(64)
                started = time.perf_counter()
                last = alive[-1]
                for i in alive:             # the last candidate plays the imagined world itself
                    score = self._playout(world if i == last else world.clone(), candidates[i], seat,
                                          random.Random(playout_seed))
                    sums[i] += score
                    counts[i] += 1
                    scores[i][world_no] = score
                worlds += 1
                world_no += 1
                if deadline is not None:
                    now = time.perf_counter()
                    if total is None:
                        # one world for every candidate took this long: share the rest of the time
                        each = max((now - started) / len(alive), 1e-6)
                        total = max(len(candidates), int((deadline - started) / each))
                    if now >= deadline:
                        out_of_time = True
                        break
            if out_of_time or len(alive) == 1:
                break
            if anchored and self.early_cut and all(sums[i] <= sums[0] for i in alive[1:]):
                break               # no candidate did better than the guide's choice on these worlds
            if anchored:            # the guide's choice stays; the better half of the others with it
                others = sorted(alive[1:], key=lambda i: -sums[i] / counts[i])
                alive = [0] + sorted(others[:max(1, len(others) // 2)])
            else:
                alive.sort(key=lambda i: -sums[i] / counts[i])      # stable: ties keep the prior's order
                alive = sorted(alive[:max(1, (len(alive) + 1) // 2)])
        self.last_scores = {candidates[i]: (sums[i] / counts[i], counts[i]) for i in range(len(candidates))
                            if counts[i]}
        best = max(alive, key=lambda i: (sums[i] / counts[i], -i))
        if anchored and best != 0 and not _clearly_better(scores[best], scores[0], self.confidence):
            best = 0
        return candidates[best]

    def _playout(self, state, action: Action, seat: int, rng: random.Random) -> float:
        """Apply ``action``, play the round out (the default policy, or the informed players),
        and score it for ``seat``."""
        before = list(state.totals)
        start_round = state.round
        state.apply_action(action)
        steps = 0
        limit = self.max_steps
        bots = self._playout_bots
        while not state.is_terminal() and state.round == start_round:
            if steps >= limit:
                return 0.0
            legal = state.legal_actions()
            if bots is None:
                state.apply_action(default_policy(legal, rng))
            elif len(legal) == 1:
                state.apply_action(legal[0])
            else:
                to_act = state.current_player()       # (a lazy view: a playout's players read few fields)
                state.apply_action(bots[to_act].act(state.observation(to_act, lazy=True), legal))
            steps += 1
        gained = [after - was for after, was in zip(state.totals, before)]
        others = [g for s, g in enumerate(gained) if s != seat]
        score = gained[seat] - (sum(others) / len(others) if others else 0.0)
        return -score if _lowest_wins(state.game) else score


def _lowest_wins(game) -> bool:
    """Does the lowest total win the game (points are then penalties to avoid)?"""
    end = getattr(getattr(game, "round", None), "end", None)
    return getattr(end, "winner", "highest") == "lowest"


def _clearly_better(challenger: dict[int, float], anchor: dict[int, float], z: float) -> bool:
    """Does ``challenger`` beat ``anchor`` on the worlds both were played in by more than ``z``
    standard errors of the paired differences?"""
    diffs = [challenger[w] - anchor[w] for w in challenger if w in anchor]
    n = len(diffs)
    if n == 0:
        return False
    mean = sum(diffs) / n
    if n == 1:
        return mean > 0 and z <= 0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > z * math.sqrt(var / n)


# -- the prior and the default policy ---------------------------------------------------------------

def _shed_key(action: Action):
    play = action.play
    return (-play.size, play.rank)


def _low_key(action: Action):
    play = action.play
    return (play.rank, -play.size)


def candidate_actions(legal: Sequence[Action], cap: int, rng: random.Random,
                      first: Action | None = None) -> list[Action]:
    """At most ``cap`` of ``legal`` to search, chosen by a cheap prior (see the module);
    ``first``, when given, comes first (ties between candidates go to the earlier one)."""
    if first is not None:
        rest = [a for a in legal if a != first]
        return [first] + candidate_actions(rest, cap - 1, rng) if rest and cap > 1 else [first]
    if len(legal) <= cap:
        return list(legal)
    plays = [a for a in legal if a.kind == "play" and a.play is not None]
    others = [a for a in legal if not (a.kind == "play" and a.play is not None)]
    passes = [a for a in others if a.kind == "pass"]
    rest = [a for a in others if a.kind != "pass"]
    chosen: list[Action] = list(passes[:1])
    room = cap - len(chosen)
    if plays:
        by_shed = sorted(plays, key=_shed_key)
        by_low = sorted(plays, key=_low_key)
        seen: set = set()
        for a, b in zip(by_shed, by_low):
            for action in (a, b):
                if len(seen) < room and action not in seen:
                    seen.add(action)
                    chosen.append(action)
            if len(seen) >= room:
                break
        room = cap - len(chosen)
    if rest and room > 0:
        chosen.extend(rest if len(rest) <= room else rng.sample(rest, room))
    return chosen


def default_policy(legal: Sequence[Action], rng: random.Random) -> Action:
    """The playouts' cheap policy: now and then (``EXPLORE``) any action; otherwise lead the
    play that sheds the most cards (the lowest of those), answer with the lowest play or, at
    times (``ANSWER_PASS``), pass, and take decisions other than plays (bids, cards to hand
    over) at random."""
    if len(legal) == 1 or rng.random() < EXPLORE:
        return legal[int(rng.random() * len(legal))]
    plays = [a for a in legal if a.play is not None]
    if not plays:
        return legal[int(rng.random() * len(legal))]
    if len(plays) == len(legal):                      # leading: passing is not offered
        return min(plays, key=_shed_key)
    if rng.random() < ANSWER_PASS:
        return next(a for a in legal if a.play is None)
    return min(plays, key=_low_key)

