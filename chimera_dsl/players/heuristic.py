"""A heuristic player: bids on its hand's strength, plays its hand down in few plays.

The player sees only its :class:`~chimera_dsl.engine.Observation` and the legal actions, and
reads every number (bid levels, exchange sizes, treasures, hand sizes, combinations) from
the rules the observation carries.  Its judgement rests on :mod:`.hand_eval`: the *cost* of
a packed hand, roughly the number of tricks it must lose before it is empty, found by a
memoised search over the rules' plays.

Bidding
    The chance of going out first as the bidder comes from a small logistic model over
    the hand's cost, its top cards, its bombs, the nest's expected help and the cards the
    others will exchange at that bid.  With the variant's scoring (what the bidder wins
    and loses at each level, the bonuses of the bombs and the flight it holds, what each
    other seat scores) that chance gives each level an expected value; the player bids the
    best level at once if it is worth it, else passes.

Exchange
    See :meth:`HeuristicPlayer._give`.

Play
    *Leading*: go out if one play empties the hand; when every play left but one is a
    sure winner, cash the winners; otherwise lead the weakest play of the cheapest split
    (low singles, pairs and attachments first, long runs before short ones among equally
    weak plays), avoiding plays an opponent close to going out could answer with its
    whole hand.  A seat alone against a team (a bidder with no partner) leads the plays
    it cannot count on winning by the most cards first instead: its opponents take turns
    to answer, and a long play it leads early is one it need not find a trick for later.
    A player whose partner holds one or two cards leads low for it.
    *Answering*: go out if possible; a player lets its partner's play stand (unless the
    bidder is about to go out and could beat it); take a trick that leaves at most one
    losing play; when an opponent is close to going out, fight with anything, preferring
    plays nobody can beat; otherwise answer with the play that costs the hand least, as
    long as it does not wreck it (its cost rises by at most ``ANSWER_GAIN``'s worth) and
    neither is a bomb or the flight nor takes its cards from one (a card of a bomb played
    alone), which wait for a reason: the hand going out after it (at most one losing play
    left), or a trick holding treasure.  (Trials between heuristic players:
    answering this freely gains about 13 points a round over answering only with cards that
    fit no combination.)
    *The stake*: a play that raises what the winners gain (read from the scoring: a bomb
    that doubles the stake, a bonus paid per play) goes first once the hand goes out
    anyway: led before the other winners, answered with before other sure answers, and
    split off a bigger play that would empty the hand when the rest is one play.
"""
from __future__ import annotations

import math
import random

from ..matcher import Play
from ..engine import Action
from ..engine.round import Round, compile_round
from .hand_eval import evaluator_for

# An opponent holding at most this many cards is about to go out.
DANGER_FOR_OTHER = 3         # the bidder, as one of the others sees it
DANGER_FOR_BIDDER = 4        # one of the others, as the bidder sees it: it fights earlier
GIFTS_WEIGHED = 12           # exchange gifts weighed exactly, out of those a quick estimate likes
# The chance that the bidder goes out first: a logistic model fitted on 4,742 rounds of
# heuristic players bidding at random under the official rules (log-loss 0.605 against 0.652
# for the base rate of 36%): logit = intercept + sum of weight * feature (see win_chance).
# The nest's expected change of the hand's cost (a search per card it may hold) was tried as
# a feature too and got a weight of -0.05: it does not predict, so it is not computed.
WIN_MODEL = {"intercept": -1.326, "cost": -0.134, "high": 1.364, "tier": 0.237, "exchange": -0.211}
BID_MARGIN = 1.0             # points per other seat a bid must be expected to gain
MARGIN_SWING = 140.0         # the swing BID_MARGIN is written for: the margin scales with the file's swing
BID_RISK = 0.15              # how much a bid's variance (against the widest swing) counts against it
ANSWERS_PER_GROUP = 4        # answers weighed per (combination, size): the lowest ones
ANSWER_GAIN = -1.0           # an answer may raise the hand's cost this much and still be worth it
TREASURE_WORTH_CONTROL = 10  # treasure points in a trick worth spending a control on
ANSWER_MEMO = 64             # sets of opponents' cards whose answers a player keeps
LONE_LEAD_POWER = 0.6        # a lone seat leads the plays less likely than this to win their trick by size


def _key_minus(deck, a: int, b: int) -> int:
    """Rank-wise ``max(a - b, 0)`` of two packed keys of ``deck``."""
    if deck.contains(a, b):                     # b within a: a plain subtraction
        return a - b
    field_mask, step = deck.field_mask, deck.shift
    out = 0
    shift = 0
    while a:
        x = (a & field_mask) - (b & field_mask)
        if x > 0:
            out |= x << shift
        a >>= step
        b >>= step
        shift += step
    return out


_CONFIGS: dict = {}
_FULL_KEYS: dict = {}


def _full_key(rules) -> int:
    """The packed key of the whole deck, once per rules."""
    entry = _FULL_KEYS.get(id(rules))
    if entry is None or entry[0] is not rules:
        entry = _FULL_KEYS[id(rules)] = (rules, rules.deck.full_key)
    return entry[1]


def config_for(rules) -> Round:
    """The engine's reading of the variant's round (levels, transfers, scoring), once per rules."""
    config = _CONFIGS.get(id(rules))
    if config is None or config[0] is not rules:
        config = _CONFIGS[id(rules)] = (rules, compile_round(rules))
    return config[1]


def nest_taken(round_: Round) -> int:
    """How many cards the bidder takes from the nest (0 when no phase gives it the nest)."""
    for transfer in round_.transfers:
        if transfer.source == "nest" and getattr(transfer.to, "text", transfer.to) == "bidder":
            return round_.deal.nest
    return 0


class HeuristicPlayer:
    """A rule-reading heuristic player (see the module docstring)."""

    name = "heuristic"
    # judgement knobs (class attributes, so a variation of the player is a subclass)
    danger_for_other = DANGER_FOR_OTHER
    danger_for_bidder = DANGER_FOR_BIDDER
    answer_gain = ANSWER_GAIN
    bid_margin = BID_MARGIN
    bid_risk = BID_RISK
    keep_controls = True
    lone_lead_power = LONE_LEAD_POWER    # None: a lone seat leads as any other
    help_partner = True
    gift_weights = (0.5, 1.5)    # the partner's side of a gift, for a strong and a weak giver
    treasure_worth_control = TREASURE_WORTH_CONTROL
    opponent_gift_weight = 4.0   # an opponent's side of a gift: what its cards may win against us

    def __init__(self, seed: int = 0):
        # The player is deterministic: the same observation gets the same action.  The seed
        # is kept for the protocol (and for variations that break ties at random).
        self.seed = seed
        self.rng = random.Random(seed)
        self._features_memo: dict[tuple, dict] = {}
        # per set of cards the opponents may hold: answers by (combination, length), and
        # sure winners by the largest opponent hand
        self._answers_memo: dict[tuple, tuple[dict, dict]] = {}
        self._idle_memo: dict[tuple, tuple] = {}
        self._stake_memo: dict[tuple, tuple] = {}

    # -- entry point -----------------------------------------------------------------------------
    def act(self, observation, legal_actions):
        """Choose one of ``legal_actions`` from what ``observation`` shows."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        kinds = {a.kind for a in legal_actions}
        if "bid" in kinds:
            return self._bid(observation, legal_actions)
        if "give" in kinds:
            return self._give(observation, legal_actions)
        if "play" in kinds:
            return self._play(observation, legal_actions)
        if "trick_to" in kinds:
            return self._trick_to(observation, legal_actions)
        if "wish" in kinds:
            return self._wish(observation, legal_actions)
        return legal_actions[0]

    @staticmethod
    def _trick_to(obs, legal):
        """Give a trick away to the opponent holding most cards: the one least likely to go out
        soon and to use its points (ties: the first offered, the next in the direction of play)."""
        sizes = obs.hand_sizes or ()
        return max(legal, key=lambda a: (sizes[a.cards] if a.cards < len(sizes) else 0, -legal.index(a)))

    @staticmethod
    def _wish(obs, legal):
        """Wish for a rank this seat neither holds nor saw played: most likely in an opponent's
        hand, where meeting the wish may break a combination; the highest such rank (a card an
        opponent would keep).  None left: no wish."""
        deck = obs.rules.deck
        held = obs.hand or 0
        played = obs.played or 0
        ranked = [a for a in legal if a.cards is not None and a.cards >= 0]
        unseen = [a for a in ranked if not deck.count_of(held, a.cards)
                  and deck.count_of(played, a.cards) < deck.count_of(deck.full_key, a.cards)]
        if unseen:
            return max(unseen, key=lambda a: a.cards)
        return next(a for a in legal if a.cards is None or a.cards < 0)

    # -- shared facts ----------------------------------------------------------------------------
    @staticmethod
    def _evaluator(obs):
        return evaluator_for(obs.rules)

    @staticmethod
    def _unseen(obs) -> int:
        """The cards this seat has not seen: the deck less its hand and every card played."""
        deck = obs.rules.deck
        return _key_minus(deck, _key_minus(deck, _full_key(obs.rules), obs.hand), obs.played or 0)

    def _opponent_cards(self, obs) -> int:
        """The cards the opponents may hold: those this seat has not seen, and for a seat
        with a partner, less those it knows the partner still holds (the cards it gave, and
        the face-up card if the partner was dealt it), as far as the partner has not played
        that rank since."""
        unseen = self._unseen(obs)
        partner = self._partner(obs)
        if partner is None:
            return unseen
        deck = obs.rules.deck
        known = obs.given or 0
        if obs.face_up is not None and obs.face_up[1] == partner:
            if not deck.count_of(obs.received or 0, obs.face_up[0]):      # not handed to us
                known += deck.bit(obs.face_up[0])
        if known:
            played_by = obs.played_by[partner] if obs.played_by else 0
            unseen = _key_minus(deck, unseen, _key_minus(deck, known, played_by))
        return unseen

    @staticmethod
    def _opponents(obs) -> list[int]:
        if obs.bidder is None:
            return [s for s in range(obs.players) if s != obs.seat]
        if obs.bidder == obs.seat:
            return [s for s in range(obs.players) if s != obs.seat]
        return [obs.bidder]

    @staticmethod
    def _partner(obs):
        partner = getattr(obs, "partner", None)
        if partner is not None or obs.bidder is None or obs.bidder == obs.seat:
            return partner
        others = [s for s in range(obs.players) if s not in (obs.seat, obs.bidder)]
        return others[0] if len(others) == 1 else None

    # -- bidding ---------------------------------------------------------------------------------
    def win_chance(self, obs, exchange: int) -> float:
        """The chance that this hand, as the bidder's, goes out first.

        A logistic model (see :data:`WIN_MODEL`) over: the hand's cost against that of an
        average hand of its size; its top cards, as the summed power of each card played
        alone, with the nest's expected share of top cards added (the nest is drawn from
        the cards this seat has not seen, less the face-up card when another seat holds
        it); its plays of a higher tier (bombs, the flight); and the number of cards each
        of the others exchanges at that bid (they strengthen the others).
        """
        f = self._features(obs)
        z = (WIN_MODEL["intercept"] + WIN_MODEL["cost"] * f["cost"] + WIN_MODEL["high"] * f["high"]
             + WIN_MODEL["tier"] * f["tier"] + WIN_MODEL["exchange"] * exchange)
        return 1.0 / (1.0 + math.exp(-z))

    def _features(self, obs) -> dict:
        key = (id(obs.rules), obs.hand, obs.face_up, obs.seat)
        f = self._features_memo.get(key)
        if f is None:
            ev = self._evaluator(obs)
            config = config_for(obs.rules)
            deck = obs.rules.deck
            count_of = deck.count_of
            hand = obs.hand
            split = ev.split(hand)
            high = sum(count_of(hand, i) * ev.single_power(i) for i in ev.ranks_held(hand))
            nest = nest_taken(config)
            if nest:
                unseen = _key_minus(deck, _full_key(obs.rules), hand)
                if obs.face_up is not None and obs.face_up[1] != obs.seat:      # in another hand
                    unseen = _key_minus(deck, unseen, deck.bit(obs.face_up[0]))
                total = deck.size_of(unseen)
                if total:
                    high += nest * sum(count_of(unseen, i) * ev.single_power(i)
                                       for i in ev.ranks_held(unseen)) / total
            f = {"cost": ev.cost(hand) - ev.average_cost(deck.size_of(hand)), "high": high,
                 "tier": sum(1 for p in split if p.tier > 0), "bonus_plays": [p.index for p in split]}
            if len(self._features_memo) > 10_000:
                self._features_memo.clear()
            self._features_memo[key] = f
        return f

    def bid_values(self, obs, levels, risk: bool = True) -> dict:
        """For each level: the expected points gained on each other seat by bidding it and playing
        (counted the other way where the lowest total wins).

        From the rules: the bidder's points when it goes out first (its bid times the
        variant's multiple, plus the bonuses of the bombs and the flight it holds) and when
        one of the others does (a multiple of its bid, usually negative, while each of the
        others scores its fixed points), and how many cards the others exchange at that bid.
        """
        config = config_for(obs.rules)
        f = self._features(obs)
        combinations = obs.rules.combinations
        out = {}
        chances: dict = {}
        spreads: dict = {}
        # where the lowest total wins (end.winner: lowest), points gained on the others are lost
        goal = -1.0 if getattr(config.end, "winner", "highest") == "lowest" else 1.0
        for level in levels:
            outlook = config.scoring.outlook(level, obs.players)
            bonus = sum(outlook["bonus"].get(combinations[i].id, 0) for i in f["bonus_plays"])
            p = chances[level] = self.win_chance(obs, sum(config.exchange_count(level).values()))
            gain = outlook["win"] + bonus - outlook["win_others"]
            loss = outlook["lose_others"] - outlook["lose"]
            out[level] = goal * (p * gain - (1.0 - p) * loss)
            spreads[level] = gain + loss
        if risk:
            # a bid's swing grows with its level: a hand sure of little bids low.  The
            # variance of the outcome, measured against the widest swing of any level
            # (so the penalty is in the file's own points), is taken off each level's value
            widest = self._widest_swing(obs)
            for level in levels:
                s = spreads[level]
                p = chances[level]
                out[level] -= self.bid_risk * p * (1.0 - p) * s * s / widest
        return out

    @staticmethod
    def _widest_swing(obs) -> float:
        """The difference, at the file's highest bid, between the bidder's edge on another seat
        when it wins and when it loses: the scale of the file's points."""
        config = config_for(obs.rules)
        if not config.levels:
            return MARGIN_SWING
        o = config.scoring.outlook(max(config.levels), obs.players)
        return abs(o["win"] - o["win_others"] + o["lose_others"] - o["lose"]) or MARGIN_SWING

    def _bid(self, obs, legal):
        """Bid the level with the best expected value if it is worth it, else pass.

        A forced bidder (no pass allowed) bids the best of the levels it may bid.
        """
        bids = [a for a in legal if a.kind == "bid"]
        passes = [a for a in legal if a.kind == "pass"]
        if not bids:
            return passes[0]
        levels = [a.bid for a in bids]
        values = self.bid_values(obs, levels)
        level = max(levels, key=lambda lv: (values[lv], -lv))
        if passes and values[level] <= self.bid_margin * self._widest_swing(obs) / MARGIN_SWING:
            return passes[0]
        return next(a for a in bids if a.bid == level)

    # -- exchange --------------------------------------------------------------------------------
    def _give(self, obs, legal):
        """Choose the cards handed to the partner.

        Both partners win when either goes out, so the cards should go where they help the
        team most.  Each candidate gift is scored by the giver's cost afterwards (keep
        combinations whole, shed isolated cards) less the gift's value to the partner (the
        chance each card wins a trick as a single, so high singles and controls help).  A
        giver stronger than an average hand keeps its strength and sheds what it cannot
        use; a weaker one weights the partner's side more, handing over high cards it
        cannot combine.  The partner's hand is unknown, so completing its combinations can
        only be hoped for, not aimed at.

        A gift to an opponent (the transfer's receiver, ``give_to``, is not on this seat's
        side: a card handed back after a tribute) counts the other way: the giver sheds what
        its hand uses least, and each card's chance of beating a hand alone counts against it.
        """
        ev = self._evaluator(obs)
        hand = obs.hand
        base = ev.cost(hand)
        strong, weak = self.gift_weights
        count_of = obs.rules.deck.count_of
        weight = strong if base <= ev.average_cost(obs.rules.deck.size_of(hand)) else weak
        to_ally = self._gift_to_ally(obs)
        if not to_ally:
            # the cards go to an opponent (a card handed back after a tribute, a pass to
            # each seat): each card counts by its chance, played alone, of beating one hand,
            # what it is worth in the receiver's hand; the static cost of this seat's hand
            # undervalues its top cards (a card only this seat's own cards can beat is a
            # sure winner here), so that chance weighs heavily
            weight = -self.opponent_gift_weight
            power_of = ev.single_power_against_one
        else:
            power_of = ev.single_power
        loose = 0                                  # cards that stand alone in the cheapest split
        for p in ev.split(hand):
            if p.size == 1:
                loose |= p.key

        def value(g: int) -> tuple[float, float]:
            help_ = kept = 0.0
            for i in ev.ranks_held(g):
                n = count_of(g, i)
                help_ += n * power_of(i)
                kept += 0.0 if count_of(loose, i) else n
            return help_, kept

        gifts = []
        for a in legal:
            if a.kind == "give":
                help_, kept = value(a.cards)
                gifts.append((kept - weight * help_, help_, a))
        # weigh exactly (one search each) only the most promising gifts by a cheap estimate
        gifts.sort(key=lambda x: x[0])
        best = None
        best_score = float("inf")
        for _, help_, a in gifts[:GIFTS_WEIGHED]:
            # the hand's cost is at most the cost of the rest plus that of the gift, so a gift
            # whose rest cannot cost less than what wins already is not searched
            if base - ev.cost(a.cards, hand) - weight * help_ >= best_score - 1e-9 + 1e-7:
                continue
            score = ev.cost(hand - a.cards, hand) - weight * help_
            if score < best_score - 1e-9:
                best, best_score = a, score
        return best if best is not None else legal[0]

    def _gift_to_ally(self, obs) -> bool:
        """Does the current gift go to this seat's side?  (The transfer's receiver, read from
        the observation; a gift whose receiver is not shown is taken to go to the partner, as
        the exchanges between partners the player was first written for.)"""
        to = getattr(obs, "give_to", None)
        if to is None:
            return True
        partner = self._partner(obs)
        if partner is not None:
            return to == partner
        if obs.bidder is not None and obs.bidder != obs.seat:
            return to != obs.bidder            # among the seats against the bidder, a gift stays on the side
        return False

    def idle_cost(self, obs) -> float:
        """The points the other side gains when this seat makes no play in the round, read from
        the scoring: the terms counted by ``idle(R)`` of this seat's role R (directly, or
        through a fact or bonus that reads it) that another role scores, at most once each
        (``idle(R) > 0``).  0 when the file pays nothing for it."""
        role = self._role(obs)
        key = (id(obs.rules), role)
        entry = self._idle_memo.get(key)
        if entry is None or entry[0] is not obs.rules:
            scoring = config_for(obs.rules).scoring
            reading = {name for name, expr in scoring.facts + scoring.bonuses
                       if ("idle", role) in getattr(expr, "functions_used", ())}
            points = 0.0
            for term in scoring.terms:
                if term.role in (role, "each") or term.times is None or not term.points:
                    continue
                if ("idle", role) in term.times.functions_used or reading & term.times.names:
                    points += max(0.0, float(term.points))
            entry = self._idle_memo[key] = (obs.rules, points)
        return entry[1]

    def stake_plays(self, obs) -> frozenset:
        """The combinations (indices) one more play of which raises what this seat's side gains
        on the other when its side wins the round, read from the scoring at the round's bid:
        plays that multiply the stake or pay a bonus to the winners, whoever plays them."""
        role = self._role(obs)
        if role is None or obs.bid is None:
            return frozenset()
        key = (id(obs.rules), role, obs.bid, obs.players)
        entry = self._stake_memo.get(key)
        if entry is None or entry[0] is not obs.rules:
            scoring = config_for(obs.rules).scoring

            def edge(o):
                return (o["win"] - o["win_others"]) if role == "bidder" else (o["lose_others"] - o["lose"])
            base = edge(scoring.outlook(obs.bid, obs.players))
            found = frozenset(i for i, c in enumerate(obs.rules.combinations)
                              if edge(scoring.outlook(obs.bid, obs.players, {c.id: 1})) > base)
            entry = self._stake_memo[key] = (obs.rules, found)
        return entry[1]

    @staticmethod
    def _role(obs) -> str | None:
        if obs.bidder is None:
            return None
        return "bidder" if obs.bidder == obs.seat else "others"

    # -- trick play ------------------------------------------------------------------------------
    def _play(self, obs, legal):
        ev = self._evaluator(obs)
        hand = obs.hand
        plays = [a for a in legal if a.kind == "play"]
        passes = [a for a in legal if a.kind == "pass"]
        out = next((a for a in plays if a.play.key == hand), None)
        stake = self.stake_plays(obs)
        if out is not None and stake and out.play.index not in stake:
            # going out in one play that holds a play raising the winners' gain (a four with
            # two singles holding a bomb): play that first when nobody can beat it and the
            # rest is one play, led next: the same way out, at a higher stake
            ctx = _Context(self, obs, ev)
            for a in plays:
                if (a.play.index in stake and a.play.key != hand and ctx.sure(a.play)
                        and ev.plays_needed(hand - a.play.key) == 1):
                    return a
        if out is not None:                           # go out when one play empties the hand
            return out
        if not plays:
            return passes[0]
        ctx = _Context(self, obs, ev)
        if obs.last_play is None:
            return ctx.lead(plays)
        if obs.last_player == obs.seat and passes:     # our own play still holds the trick
            return passes[0]
        return ctx.answer(plays, passes)


def _shortlist(plays: list[Action], per_group: int = ANSWERS_PER_GROUP) -> list[Action]:
    """The answers worth weighing: one reading per set of cards (the highest), and in each
    (combination, size) group only the ``per_group`` lowest and the highest; of bombs and
    the like the lowest and the highest.  Higher answers of a group rarely fit a hand better
    than low ones, and weighing each costs a search."""
    by_key: dict[tuple[int, int], tuple[Play, Action]] = {}
    for a in plays:
        p = a.play
        if p is None:
            continue
        old = by_key.get((p.index, p.key))
        if old is None or p.rank > old[0].rank:
            by_key[(p.index, p.key)] = (p, a)
    groups: dict[tuple[int, int], list[tuple[Play, Action]]] = {}
    for p, a in by_key.values():
        groups.setdefault((p.index, p.size), []).append((p, a))
    out: list[Action] = []
    for group in groups.values():
        group.sort(key=lambda pa: pa[0].rank)
        keep = group[:per_group if group[0][0].tier == 0 else 1]
        if group[-1] not in keep:
            keep.append(group[-1])                  # the highest, which may be a sure winner
        out.extend(a for _, a in keep)
    return out


class _Context:
    """One decision's view: opponents, danger, which plays are sure winners."""

    def __init__(self, player: HeuristicPlayer, obs, ev):
        self.obs = obs
        self.ev = ev
        self.rules = obs.rules
        self.hand = obs.hand
        self.me = obs.seat
        self.partner = player._partner(obs)
        self.opponents = player._opponents(obs)
        sizes = obs.hand_sizes
        self.opp_sizes = [sizes[s] for s in self.opponents if sizes[s] > 0]
        self.max_opp = max(self.opp_sizes) if self.opp_sizes else 0
        self.opp_cards = player._opponent_cards(obs)
        limit = player.danger_for_bidder if obs.bidder == obs.seat else player.danger_for_other
        self.player = player
        self.danger = [n for n in self.opp_sizes if n <= limit]
        # what the opponents' cards can answer, shared by the decisions that see the same cards
        memo = player._answers_memo
        key = (id(self.rules), self.opp_cards)
        known = memo.get(key)
        if known is None:
            if len(memo) >= ANSWER_MEMO:
                memo.clear()
            known = memo[key] = ({}, {})
        self._answers_known, sure = known
        self._sure = sure.get(self.max_opp)
        if self._sure is None:
            self._sure = sure[self.max_opp] = {}

    def idle(self) -> bool:
        """Has this seat made no play yet in a round where that pays the other side?"""
        played_by = self.obs.played_by
        if played_by and played_by[self.me]:
            return False
        return self.player.idle_cost(self.obs) > 0

    def _opponent_near_out(self) -> bool:
        """Does an opponent hold at most twice the cards that make it about to go out?"""
        return any(n <= 2 * self.player.danger_for_other for n in self.opp_sizes)

    # -- facts about plays -----------------------------------------------------------------------
    def answers(self, play) -> list:
        """The plays the opponents' cards may make on ``play`` (``rules.answers``).

        The answers to a play are those to a lower play of the same combination and length
        that beat it: one listing per combination and length serves every higher play."""
        group = (play.index, play.length)
        known = self._answers_known.get(group)
        if known is not None and known[0] <= play.rank:
            if known[0] == play.rank:
                return known[1]
            rank, tier, index, size = play.rank, play.tier, play.index, play.size
            return [a for a in known[1]
                    if a.tier > tier or (a.index == index and a.size == size and a.rank > rank)]
        out = self.rules.answers(self.opp_cards, play)
        self._answers_known[group] = (play.rank, out)
        return out

    def sure(self, play) -> bool:
        """True when no card the opponents may hold can answer ``play`` (a trick it wins)."""
        s = self._sure.get(play)
        if s is None:
            top = self.max_opp
            s = not any(a.size <= top for a in self.answers(play))
            self._sure[play] = s
        return s

    @staticmethod
    def is_control(play) -> bool:
        """A play kept for when it matters: one of a higher tier (a bomb, the flight), which
        beats anything.  (Top singles and pairs are spent on answers freely: holding them back
        lost about three points a round in trials between heuristic players, while holding
        bombs and the flight back cost nothing measurable.)"""
        return play.tier > 0

    def spends_control(self, play) -> bool:
        """Does ``play`` spend a control of this hand: is it one, or does it take cards from
        one of the hand's cheapest split (a card of a bomb played alone), which leaves the
        hand without that control?"""
        if self.is_control(play):
            return True
        deck = self.rules.deck
        rest = self.hand - play.key
        return any(self.is_control(p) and not deck.contains(rest, p.key) for p in self.ev.split(self.hand))

    def alone(self) -> bool:
        """Does this seat play alone against a team (the bidder, with no partner, against two
        or more others)?"""
        return self.obs.bidder == self.me and self.partner is None and len(self.opponents) > 1

    def lets_out(self, play) -> bool:
        """Could an opponent answer ``play`` with its whole hand, going out?"""
        sizes = set(self.danger)
        if not sizes:
            return False
        return any(a.size in sizes for a in self.answers(play))

    def losers(self, hand: int) -> list:
        """The plays of a cheapest split of ``hand`` (a part of this seat's hand) that are not
        sure winners."""
        return [p for p in self.ev.split(hand, self.hand) if not self.sure(p)]

    # -- leading ---------------------------------------------------------------------------------
    def lead(self, plays):
        ev = self.ev
        hand = self.hand
        split = ev.split(hand)
        by_key: dict[tuple[int, int], Action] = {}
        for a in plays:
            by_key.setdefault((a.play.key, a.play.index, a.play.rank), a)

        def action(p):
            return by_key.get((p.key, p.index, p.rank))

        losers = [p for p in split if not self.sure(p)]
        winners = [p for p in split if self.sure(p)]
        # every play left but one wins its trick: cash the winners, the loser goes last
        if len(losers) <= 1 and winners:
            # first a play that raises the winners' gain (a bomb doubling the stake), even out
            # of a bigger play of the split, as long as the rest still has one losing play at most
            stake = self.player.stake_plays(self.obs)
            for a in plays:
                if (a.play.index in stake and self.sure(a.play)
                        and len(self.losers(hand - a.play.key)) <= 1):
                    return a
            w = max(winners, key=lambda p: (p.size, -p.rank))
            a = action(w)
            if a is not None:
                return a
        # help a partner about to go out: lead low what it may beat with its whole hand, when it
        # plays right after us (it goes out before the bidder can answer)
        partner = self.partner
        if (partner is not None and len(losers) > 1 and self.player.help_partner
                and (self.me + 1) % self.obs.players == partner):
            n = self.obs.hand_sizes[partner]
            if 0 < n <= 2:
                low = [a for a in plays if a.play.size == n and a.play.tier == 0]
                if low:
                    return min(low, key=lambda a: (a.play.rank, ev.cost(hand - a.play.key, hand)))
        candidates = [p for p in split if action(p) is not None]
        if self.danger:
            # a candidate an opponent could go out on is bad; look at every lead then
            safe = [p for p in candidates if not self.lets_out(p)]
            if not safe:
                others = [a.play for a in plays if not self.lets_out(a.play)]
                if others:
                    best = min(others, key=lambda p: ev.cost(hand - p.key, hand) + ev.play_cost(p))
                    return action(best)
                # nothing is safe: lead the play hardest to beat
                best = max((a.play for a in plays), key=lambda p: (ev.power(p), p.size))
                return action(best)
            candidates = safe
        if not candidates:
            return min(plays, key=lambda a: ev.cost(hand - a.play.key, hand) + ev.play_cost(a.play))
        cut = self.player.lone_lead_power
        if cut is not None and self.alone():
            # a seat alone against a team: of the plays it cannot count on winning, the one of
            # most cards first (the weakest of those of a size); those likely to win, the
            # controls and the sure winners after them.  Its opponents take turns to answer
            # and to lead what suits them, and a long play led early is one it need not find a
            # trick for later (docs/players.md gives the figures)
            best = min(candidates, key=lambda p: (self.sure(p), self.is_control(p), ev.power(p) >= cut,
                                                  -p.size, round(ev.power(p), 1), p.rank))
            return action(best)
        # the weakest play of the split first; long runs before short ones when equally weak
        best = min(candidates, key=lambda p: (self.sure(p), round(ev.power(p), 1), -p.size, p.rank))
        return action(best)

    # -- answering -------------------------------------------------------------------------------
    def answer(self, plays, passes):
        ev = self.ev
        obs = self.obs
        hand = self.hand
        last = obs.last_player
        base = ev.cost(hand)
        partner_holds = last is not None and last == self.partner
        if self.idle():
            # the other side scores a bonus if this seat makes no play: make one now, with the
            # answer that costs the hand least (a bomb or the flight only if nothing else);
            # over a partner's play only if it costs little, or an opponent may soon go out
            plain = [a for a in plays if not self.is_control(a.play)] or plays
            best = self._cheapest(_shortlist(plain), base)
            if (not partner_holds or self._opponent_near_out()
                    or base - ev.cost(hand - best.play.key, hand) >= self.player.answer_gain):
                return best
        if partner_holds:
            return self._over_partner(plays, passes) if passes else self._cheapest(plays, base)
        cands = _shortlist(plays)
        gains: dict[int, float] = {}

        def gain(i: int) -> float:
            """What answer ``i`` saves the hand: its cost less that of the rest (one search)."""
            g = gains.get(i)
            if g is None:
                g = gains[i] = base - ev.cost(hand - cands[i].play.key, hand)
            return g

        # an answer that wins and leaves at most one losing play: go for it (the best such)
        sure = [i for i in range(len(cands)) if self.sure(cands[i].play)]
        # (first those that raise the winners' gain: a bomb doubling the stake)
        stake = self.player.stake_plays(obs)
        for i in sorted(sure, key=lambda i: (cands[i].play.index not in stake, -gain(i))):
            if len(self.losers(hand - cands[i].play.key)) <= 1:
                return cands[i]
        need = self.player.answer_gain
        if self.danger:
            # an opponent is about to go out: fight, preferring answers nobody can beat
            return cands[self._best(cands, sure or range(len(cands)), gain, lambda g: g)]
        treasure = sum(ev.treasure_of(p.key) for _, p in obs.trick or ())
        if treasure:
            need -= min(0.4, treasure / 40.0)
        # a control (a bomb, the flight) is spent only with a reason: the hand goes out after
        # it (at most one losing play left), or the trick holds treasure worth a fight.  (With
        # two losing plays left, as before, a lone bidder spent bombs it needed later when its
        # opponents ran: docs/players.md gives the figures.)  Breaking one up to answer with
        # a part of it spends it too: the part may win the trick, but the control (and what
        # the scoring pays for playing it) is gone.
        spend = (not self.player.keep_controls or treasure >= self.player.treasure_worth_control
                 or len(self.losers(hand)) <= 1)
        allowed = [i for i in range(len(cands)) if spend or not self.spends_control(cands[i].play)]
        best = self._best(cands, allowed, gain, lambda g: round(g, 2), need)
        if best is not None:
            return cands[best]
        if not passes:
            return cands[self._best(cands, range(len(cands)), gain, lambda g: round(g, 2))]
        return passes[0]

    def _best(self, cands, pool, gain, grade, need: float | None = None):
        """The first answer of ``pool`` (indices into ``cands``, in shortlist order) with the highest
        ``(grade(gain), -rank)``, among those whose gain is at least ``need`` when given;
        None if there is none.

        An answer saves the hand at most its own cost (a split of the rest and the answer
        is a split of the hand), so answers are weighed from the highest such bound down,
        and one whose bound cannot reach the best so far (or ``need``) is not searched.
        """
        ev = self.ev
        exact = ev.every_card_plays            # the bound holds when every card plays alone
        bounded = []
        for i in pool:
            p = cands[i].play
            ub = ev.play_cost(p) + 1e-9 if exact else float("inf")
            if need is not None and ub < need:
                continue
            bounded.append((grade(ub), -p.rank, i))
        bounded.sort(key=lambda x: (-x[0], -x[1]))
        best = None
        best_key = None
        for top, neg_rank, i in bounded:
            if best_key is not None and (top, neg_rank) < best_key[:2]:
                continue
            g = gain(i)
            if need is not None and g < need:
                continue
            key = (grade(g), neg_rank, -i)
            if best_key is None or key > best_key:
                best, best_key = i, key
        return best

    def _over_partner(self, plays, passes):
        """A player lets its partner's play stand, unless the bidder is about to go out and
        could beat the partner's play while one of ours would hold."""
        obs = self.obs
        if self.danger and not self.sure(obs.last_play):
            sure = [a for a in plays if self.sure(a.play)]
            if sure:
                return max(sure, key=lambda a: self.ev.cost(self.hand) - self.ev.cost(self.hand - a.play.key, self.hand))
        return passes[0]

    def _cheapest(self, plays, base):
        return max(plays, key=lambda a: base - self.ev.cost(self.hand - a.play.key, self.hand))
