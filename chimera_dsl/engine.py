"""The game as a state machine, in the style of OpenSpiel: deal, bid, exchange, play, score.

``Game`` reads every number and choice from the variant (``rules.spec``) once; ``State`` is
one game in progress, mutable and cloneable.  Hands are packed rank-count integers
(:mod:`chimera_dsl.cards`) and legal plays come from the matcher's fast path
(``rules.leads`` / ``rules.answers``): a round with random players costs about 1.5 ms.

The game record (CONTRACT.md) is written as it happens, in ``state.events``.

    game = Game(rules)
    state = game.new_game(seed=7)
    while not state.is_terminal():
        seat = state.current_player()
        state.apply_action(choose(state.observation(seat), state.legal_actions()))
"""
from __future__ import annotations

import random
from itertools import repeat
from operator import is_
from typing import Iterator, NamedTuple

from .cards import FIELD, SHIFT, contains, count_of, size_of
from .errors import ChimeraError, IllegalActionError
from .knobs import Config
from .matcher import Play
from .rules import Rules

TERMINAL = -4
"""What ``current_player()`` answers once the game is over (OpenSpiel's value)."""

PHASES = ("bidding", "exchange", "play", "over")


class Action(NamedTuple):
    """One decision: ``kind`` is ``"bid"``, ``"pass"``, ``"give"`` or ``"play"``.

    ``bid`` is the level of a bid, ``cards`` the packed key handed over in the exchange,
    ``play`` the matcher :class:`~chimera_dsl.matcher.Play` of a play.  ``"pass"`` passes in
    the bidding, in a trick, or declines an out-of-turn play.  Hashable, compared by value.
    """

    kind: str
    bid: int | None = None
    cards: int | None = None
    play: Play | None = None

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
    return [_new_action(Action, ("play", None, None, p)) for p in plays]


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
    """One deal: packed hands per seat, the packed nest, the face-up card and its holder."""

    hands: tuple[int, ...]
    nest: int
    face_up: tuple[int, int] | None     # (rank index, seat), or None


def _key_of(cards) -> int:
    key = 0
    for rank in cards:
        key += 1 << (SHIFT * rank)
    return key


# -- observation ------------------------------------------------------------------------------

class Observation:
    """What one seat may see, nothing more (see docs/internals.md).

    Never holds another seat's hand, the nest before it is taken (nor after, unless the
    variant shows it), or the cards given in the exchange before they arrive.
    """

    __slots__ = ("seat", "players", "phase", "round", "dealer", "hand", "face_up", "bids", "chimera",
                 "bid", "exchange_count", "given", "received", "trick", "last_play", "last_player",
                 "hand_sizes", "played", "played_by", "taken", "totals", "target", "rules", "nest",
                 "leader", "passes", "interrupt", "redeals", "partner")

    def __init__(self, seat, players, phase, round, dealer, hand, face_up, bids, chimera, bid,
                 exchange_count, given, received, trick, last_play, last_player, hand_sizes, played,
                 played_by, taken, totals, target, rules, nest, leader, passes, interrupt, redeals,
                 partner):
        self.seat = seat
        self.players = players
        self.phase = phase
        self.round = round
        self.dealer = dealer
        self.hand = hand
        self.face_up = face_up
        self.bids = bids
        self.chimera = chimera
        self.bid = bid
        self.exchange_count = exchange_count
        self.given = given
        self.received = received
        self.trick = trick
        self.last_play = last_play
        self.last_player = last_player
        self.hand_sizes = hand_sizes
        self.played = played
        self.played_by = played_by
        self.taken = taken
        self.totals = totals
        self.target = target
        self.rules = rules
        self.nest = nest
        self.leader = leader
        self.passes = passes
        self.interrupt = interrupt
        self.redeals = redeals
        self.partner = partner

    def as_dict(self) -> dict:
        """The observation's fields by name (for debugging and remote players)."""
        return {name: getattr(self, name) for name in self.__slots__ if name != "rules"}

    def __repr__(self) -> str:
        return f"Observation(seat={self.seat}, phase={self.phase!r}, round={self.round})"


# -- the game ---------------------------------------------------------------------------------

class Game:
    """The compiled rules of a whole game, and a factory of :class:`State`.

    ``target`` overrides ``end.target``; ``max_rounds`` stops the game after that many rounds
    played out (the highest total then wins).
    """

    def __init__(self, rules: Rules, target: int | None = None, max_rounds: int | None = None):
        self.rules = rules
        self.config = Config(rules)
        if target is not None and target <= 0:
            raise ChimeraError(f"the target must be positive, not {target}")
        self.target = target if target is not None else self.config.target
        self.max_rounds = max_rounds
        self.players = self.config.players
        self.bid_actions = {level: bid_action(level) for level in self.config.levels}
        self.forced_bid_action = bid_action(self.config.forced_bid)
        self._lead_actions: dict[int, tuple[Action, ...]] = {}
        self._names: dict[int, tuple[str, ...]] = {}

    def new_game(self, seed, deals: Iterator | None = None, player_names=None,
                 first_dealer: int | None = None) -> "State":
        """A new game whose every shuffle and cut comes from ``seed``.

        ``deals`` (replay): an iterator of ``(hands, nest, face_up)`` used instead of the
        shuffle, one per deal (redeals included); ``face_up`` is ``(rank index, seat)`` or None.
        ``first_dealer`` (replay): who deals first, instead of :meth:`first_dealer`'s choice.
        """
        return State(self, seed, deals, player_names, first_dealer)

    def first_dealer(self, seed) -> int:
        """The first dealer: the variant's seat, or drawn from the seed."""
        if self.config.first_dealer is not None:
            return self.config.first_dealer
        return random.Random(f"{seed}:first_dealer").randrange(self.players)

    def deal(self, seed, number: int, dealer: int) -> Deal:
        """Shuffle, cut, turn the face-up card and deal, all drawn from ``Random(f"{seed}:deal:{number}")``.

        The upper part of the cut holds between ``deal.cut.from`` and ``.to`` cards; the top
        card of the lower part goes face up on the upper part, the lower part on top; the nest
        is dealt first, then one card at a time clockwise from the dealer's left.
        """
        config = self.config
        rng = random.Random(f"{seed}:deal:{number}")
        cards = [rank for rank, _colour in self.rules.deck.cards]
        rng.shuffle(cards)
        n = self.players
        nest_size = config.nest_size
        dealt = nest_size + n * config.hand_size
        while True:
            face_index = None
            if config.face_up:
                cut = rng.randint(config.cut[0], config.cut[1])
                upper, lower = cards[:cut], cards[cut:]
                # the lower part, less its top card, goes on top of [face-up card] + upper part
                stack = lower[1:] + [lower[0]] + upper
                face_index = len(lower) - 1
            else:
                cut = rng.randint(config.cut[0], config.cut[1])
                stack = cards[cut:] + cards[:cut]
            if face_index is not None and not nest_size <= face_index < dealt \
                    and config.face_up_in_nest == "recut":
                continue                       # cut the same cards again
            break
        nest = _key_of(stack[:nest_size])
        hands = [0] * n
        for j, rank in enumerate(stack[nest_size:dealt]):
            hands[(dealer + 1 + j) % n] += 1 << (SHIFT * rank)
        face_up = None
        if face_index is not None:
            holder = (dealer + 1 + face_index - nest_size) % n if nest_size <= face_index < dealt else None
            face_up = (stack[face_index], holder)
        return Deal(tuple(hands), nest, face_up)

    def names(self, key: int) -> list[str]:
        """The card strings of a packed key, lowest first (a fresh list; cached)."""
        cached = self._names.get(key)
        if cached is None:
            if len(self._names) >= 65536:
                self._names.clear()
            cached = self._names[key] = tuple(self.rules.deck.names_of(key))
        return list(cached)

    def lead_actions(self, hand: int) -> tuple[Action, ...]:
        """The play actions that may lead a trick from ``hand`` (cached, shared)."""
        cached = self._lead_actions.get(hand)
        if cached is None:
            cached = tuple(_play_actions(self.rules.leads(hand)))
            if len(self._lead_actions) >= 4096:
                self._lead_actions.clear()
            self._lead_actions[hand] = cached
        return cached

    def give_actions(self, hand: int, count: int) -> list[Action]:
        """Every distinct set of ``count`` cards that ``hand`` may hand over, as actions."""
        # options[k]: the distinct keys of k cards from the ranks seen so far
        options: list[list[int]] = [[0]] + [[] for _ in range(count)]
        index = 0
        while hand:
            have = hand & FIELD
            if have:
                unit = 1 << (SHIFT * index)
                for k in range(count, 0, -1):
                    extra = options[k]
                    for take in range(1, min(have, k) + 1):
                        add = take * unit
                        extra.extend([key + add for key in options[k - take]])
            hand >>= SHIFT
            index += 1
        return [_new_action(Action, ("give", None, key, None)) for key in options[count]]


class State:
    """One game in progress.  Mutable; :meth:`clone` gives an independent copy."""

    def __init__(self, game: Game, seed, deals: Iterator | None = None, player_names=None,
                 first_dealer: int | None = None):
        self.game = game
        self.seed = seed
        self._deals = deals
        config = game.config
        n = game.players
        self.n = n
        self.events: list[dict] = []
        self.totals = [0] * n
        self.round = 0
        self.deal_number = 0
        self.dealer = game.first_dealer(seed) if first_dealer is None else first_dealer
        self.phase = "bidding"
        self._to_act = TERMINAL
        self._legal: list[Action] | None = None
        start = {"type": "game_start", "variant": game.rules.name, "seed": seed, "players": n,
                 "target": game.target, "variant_path": game.rules.path,
                 "variant_hash": game.rules.source_hash}
        if game.max_rounds is not None:
            start["max_rounds"] = game.max_rounds
        if player_names is not None:
            start["player_names"] = list(player_names)
        self.events.append(start)
        self._config = config
        self._start_round(redeal=False)

    # -- the OpenSpiel surface ---------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to act, or :data:`TERMINAL` when the game is over."""
        return self._to_act

    def is_terminal(self) -> bool:
        """Is the game over?"""
        return self.phase == "over"

    def returns(self) -> list[float]:
        """Zeros until the game is over, then each seat's final total."""
        if self.phase != "over":
            return [0.0] * self.n
        return [float(t) for t in self.totals]

    def legal_actions(self) -> list[Action]:
        """The actions the current player may take (empty when the game is over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def apply_action(self, action: Action) -> None:
        """Take ``action`` for the current player; :class:`IllegalActionError` if it is not legal."""
        legal = self.legal_actions()
        # the player usually hands back one of the very objects offered: test identity first
        if not any(map(is_, legal, repeat(action))) and action not in legal:
            raise IllegalActionError(self._why_illegal(action))
        self._legal = None
        phase = self.phase
        if phase == "play":
            self._apply_play(action)
        elif phase == "bidding":
            self._apply_bid(action)
        else:
            self._apply_give(action)

    @property
    def interrupting(self) -> bool:
        """Is the current decision an offer to play out of turn (``play.out_of_turn``)?"""
        return self._interrupting

    def clone(self) -> "State":
        """An independent copy (a replay's deal iterator is shared, not copied)."""
        other = State.__new__(State)
        other.__dict__.update(self.__dict__)
        for name in ("events", "totals", "hands", "sizes", "played_by", "taken", "given", "received",
                     "combo_counts", "_offers", "_passed"):
            value = getattr(self, name, None)
            if isinstance(value, (list, set, dict)):
                setattr(other, name, value.copy())
        return other

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see now."""
        chimera = self.chimera
        config = self._config
        hunters = self.hunters
        partner = None
        if len(hunters) == 2 and seat in hunters:
            partner = hunters[0] if seat == hunters[1] else hunters[1]
        return Observation(
            seat, self.n, self.phase, self.round, self.dealer, self.hands[seat], self.face_up, self.bids,
            chimera, self.bid, self.exchange_count,
            self.given[seat] if self.given is not None else None,
            self.received[seat] if self.received is not None else None,
            self.trick, self.last_play, self.last_player, tuple(self.sizes), self.played,
            tuple(self.played_by), tuple(self.taken), tuple(self.totals), self.game.target, self.game.rules,
            self.nest if chimera is not None and config.nest_to_bidder and (seat == chimera or config.nest_shown)
            else None,
            self.leader, self.passes, self._interrupting, self.redeals, partner)

    # -- describing ---------------------------------------------------------------------------
    def __repr__(self) -> str:
        return (f"State(round={self.round}, phase={self.phase!r}, to_act={self._to_act}, "
                f"totals={self.totals})")

    def _why_illegal(self, action) -> str:
        seat = self._to_act
        if self.phase == "over":
            return "the game is over"
        if not isinstance(action, Action):
            return f"{action!r} is not an Action"
        if self.phase == "play":
            if action.kind == "play":
                play = action.play
                if not isinstance(play, Play):
                    return "a play action needs a Play"
                what = describe_play(play)
                if not contains(self.hands[seat], play.key):
                    return f"seat {seat} does not hold {' '.join(play.cards)}"
                if self._interrupting:
                    return f"{what} may not be played out of turn on {describe_play(self.last_play)}"
                if self.last_play is None:
                    return f"{what} is not a legal lead"
                if not self.game.rules.can_beat(play, self.last_play):
                    return f"{what} does not beat {describe_play(self.last_play)}"
                return f"{what} is not a legal play here"
            if action.kind == "pass":
                return f"seat {seat} leads the trick and may not pass"
            return f"a {action.kind} is not an action of the play (play or pass)"
        if self.phase == "bidding":
            if action.kind == "bid":
                current = self.bid
                if action.bid not in self._config.levels:
                    return f"{action.bid} is not a bid level ({', '.join(map(str, self._config.levels))})"
                if current is not None and action.bid <= current:
                    return f"a bid of {action.bid} does not exceed the current bid of {current}"
                return f"seat {seat} passed and may not bid again"
            return f"a {action.kind} is not an action of the bidding (bid or pass)"
        if action.kind == "give":
            cards = action.cards if isinstance(action.cards, int) else 0
            return (f"seat {seat} must give exactly {self.exchange_count} card(s) from its hand, "
                    f"not {' '.join(self.game.rules.deck.names_of(cards)) or 'none'}")
        return f"a {action.kind} is not an action of the exchange (give)"

    # -- a round --------------------------------------------------------------------------------
    def _start_round(self, redeal: bool) -> None:
        game = self.game
        n = self.n
        if not redeal:
            self.round += 1
            self.redeals = 0
        self.deal_number += 1
        if self._deals is not None:
            try:
                hands, nest, face_up = next(self._deals)
            except StopIteration:
                raise IllegalActionError("no deal left to replay") from None
            deal = Deal(tuple(hands), nest, face_up)
        else:
            deal = game.deal(self.seed, self.deal_number, self.dealer)
        self.hands = list(deal.hands)
        self.sizes = [size_of(h) for h in self.hands]
        self.nest = deal.nest
        self.face_up = deal.face_up
        deck = game.rules.deck
        names = game.names
        self.events.append({
            "type": "deal", "round": self.round, "dealer": self.dealer,
            "hands": [names(h) for h in self.hands], "nest": names(self.nest),
            "face_up": None if deal.face_up is None else
            {"card": deck.ranks[deal.face_up[0]], "seat": deal.face_up[1]},
            "deal": self.deal_number})
        # bidding
        self.phase = "bidding"
        self.bids: tuple = ()
        self.bid: int | None = None
        self.high_bidder: int | None = None
        self.chimera: int | None = None
        self._bid_passes = 0
        self._passed: set = set()
        self._first_passer: int | None = None
        self.exchange_count: int | None = None
        self.given: list | None = None
        self.received: list | None = None
        self.hunters: tuple[int, ...] = ()
        self.trick: tuple = ()
        self.trick_key = 0
        self.last_play: Play | None = None
        self.last_player: int | None = None
        self.leader: int | None = None
        self.passes = 0
        self.played = 0
        self.played_by = [0] * n
        self.taken = [0] * n
        self.combo_counts = [0] * len(game.rules.combinations)
        self._offers: list = []
        self._interrupting = False
        self._lead_passes = 0
        self._to_act = self._seat_of(self._config.opener)

    def _seat_of(self, choice: str) -> int:
        if choice == "face_up_holder":
            return self.face_up[1]
        if choice == "dealer":
            return self.dealer
        if choice == "dealer_left":
            return (self.dealer + 1) % self.n
        if choice == "bidder":
            return self.chimera
        if choice == "first_passer":
            return self._first_passer
        raise ValueError(choice)

    # -- bidding --------------------------------------------------------------------------------
    def _compute_legal(self) -> list[Action]:
        phase = self.phase
        seat = self._to_act
        if phase == "play":
            hand = self.hands[seat]
            if self._interrupting:
                allowed = self._config.out_of_turn
                return _play_actions([p for p in self.game.rules.answers(hand, self.last_play)
                                      if p.index in allowed]) + [PASS]
            if self.last_play is None:
                leads = list(self.game.lead_actions(hand))
                if self._config.leader_may_pass and self._lead_passes < self.n - 1:
                    leads.append(PASS)
                return leads
            out = _play_actions(self.game.rules.answers(hand, self.last_play))
            out.append(PASS)
            return out
        if phase == "bidding":
            if not self._config.reenter_after_pass and seat in self._passed:
                return [PASS]
            current = self.bid
            out = [PASS]
            for level, action in self.game.bid_actions.items():
                if current is None or level > current:
                    out.append(action)
            return out
        if phase == "exchange":
            return self.game.give_actions(self.hands[seat], self.exchange_count)
        return []

    def _apply_bid(self, action: Action) -> None:
        config = self._config
        seat = self._to_act
        n = self.n
        if action.kind == "pass":
            self.bids += ((seat, None, False),)
            self.events.append({"type": "bid", "round": self.round, "seat": seat, "bid": None, "forced": False})
            self._passed.add(seat)
            if self._first_passer is None:
                self._first_passer = seat
            self._bid_passes += 1
            if self.bid is None:
                if self._bid_passes >= n:
                    self._all_passed()
                    return
            elif self._bid_passes >= config.passes_to_close:
                self._close_bidding()
                return
        else:
            self._record_bid(seat, action.bid, False)
            if config.top_bid_closes and action.bid >= config.levels[-1]:
                self._close_bidding()
                return
        self._to_act = (seat + 1) % n

    def _record_bid(self, seat: int, level: int, forced: bool) -> None:
        self.bids += ((seat, level, forced),)
        self.events.append({"type": "bid", "round": self.round, "seat": seat, "bid": level, "forced": forced})
        self.bid = level
        self.high_bidder = seat
        self._bid_passes = 0

    def _all_passed(self) -> None:
        config = self._config
        if self.redeals < config.redeals_before_forced:
            self.redeals += 1
            self.events.append({"type": "redeal", "round": self.round, "dealer": self.dealer})
            self._start_round(redeal=True)
            return
        seat = self._seat_of(config.forced_bidder)
        self._record_bid(seat, config.forced_bid, True)
        if config.forced_bid_closes or (config.top_bid_closes and config.forced_bid >= config.levels[-1]):
            self._close_bidding()
            return
        self._to_act = (seat + 1) % self.n

    def _close_bidding(self) -> None:
        config = self._config
        chimera = self.high_bidder
        self.chimera = chimera
        self.events.append({"type": "chimera", "round": self.round, "seat": chimera, "bid": self.bid})
        if config.nest_to_bidder:
            self.hands[chimera] += self.nest
            self.sizes[chimera] += size_of(self.nest)
        n = self.n
        self.hunters = tuple((chimera + i) % n for i in range(1, n))
        self.exchange_count = config.exchange_count[self.bid]
        self.given = [None] * n
        self.received = [None] * n
        self.phase = "exchange"
        if not config.exchange:
            self._start_play()
        elif self.exchange_count == 0:
            # nothing to choose: every hunter hands over no card
            for hunter in self.hunters:
                self.given[hunter] = 0
            self._finish_exchange()
        else:
            self._to_act = self.hunters[0]

    # -- exchange ------------------------------------------------------------------------------
    def _apply_give(self, action: Action) -> None:
        seat = self._to_act
        self.given[seat] = action.cards
        self.hands[seat] -= action.cards
        self.sizes[seat] -= self.exchange_count
        hunters = self.hunters
        if not self._config.exchange_simultaneous:
            # one after the other: each hunter's cards reach the next at once
            i = hunters.index(seat)
            to = hunters[(i + 1) % len(hunters)]
            self.hands[to] += action.cards
            self.sizes[to] += self.exchange_count
            self.received[to] = action.cards
        pending = [h for h in hunters if self.given[h] is None]
        if pending:
            self._to_act = pending[0]
            return
        self._finish_exchange()

    def _finish_exchange(self) -> None:
        hunters = self.hunters
        names = self.game.names
        simultaneous = self._config.exchange_simultaneous
        for i, giver in enumerate(hunters):
            to = hunters[(i + 1) % len(hunters)]
            cards = self.given[giver]
            if simultaneous or self.received[to] is None:
                self.hands[to] += cards
                self.sizes[to] += self.exchange_count
                self.received[to] = cards
            self.events.append({"type": "exchange", "round": self.round, "from": giver, "to": to,
                                "cards": names(cards)})
        self._start_play()

    def _start_play(self) -> None:
        self.phase = "play"
        self.leader = self._seat_of(self._config.first_leader)
        self._to_act = self.leader

    # -- play ------------------------------------------------------------------------------------
    def _apply_play(self, action: Action) -> None:
        seat = self._to_act
        n = self.n
        config = self._config
        if action.kind == "pass":
            if self._interrupting:                     # declining an out-of-turn play: no event
                self._next_offer()
                return
            self.events.append({"type": "pass", "round": self.round, "seat": seat})
            if self.last_play is None:                 # a leader who may pass hands on the lead
                self._lead_passes += 1
                self.leader = (seat + 1) % n
                self._to_act = self.leader
                return
            self.passes += 1
            if self.passes >= config.passes_to_close_trick:
                self._take_trick(self.last_player)
                return
            self._to_act = (seat + 1) % n
            return
        play = action.play
        event = {"type": "play", "round": self.round, "seat": seat, "cards": self.game.names(play.key),
                 "combination": play.combination, "rank": play.rank}
        if self._interrupting:
            event["out_of_turn"] = True
        self.events.append(event)
        key = play.key
        self.hands[seat] -= key
        self.sizes[seat] -= play.size
        self.played += key
        self.played_by[seat] += key
        self.trick_key += key
        self.trick += ((seat, play),)
        self.combo_counts[play.index] += 1
        self.last_play = play
        self.last_player = seat
        self.passes = 0
        self._interrupting = False
        if self.hands[seat] == 0:
            self._end_round(seat)
            return
        if config.out_of_turn:
            # every seat but the player and the one whose turn is next may interrupt, clockwise
            self._offers = [(seat + i) % n for i in range(2, n)]
            self._next_offer()
            return
        self._to_act = (seat + 1) % n

    def _next_offer(self) -> None:
        allowed = self._config.out_of_turn
        answers = self.game.rules.answers
        while self._offers:
            seat = self._offers.pop(0)
            if any(p.index in allowed for p in answers(self.hands[seat], self.last_play)):
                self._interrupting = True
                self._to_act = seat
                return
        self._interrupting = False
        self._to_act = (self.last_player + 1) % self.n

    def _take_trick(self, winner: int) -> None:
        self.events.append({"type": "trick", "round": self.round, "winner": winner,
                            "cards": self.game.names(self.trick_key)})
        self.taken[winner] += self.trick_key
        self.trick = ()
        self.trick_key = 0
        self.last_play = None
        self.last_player = None
        self.passes = 0
        self._lead_passes = 0
        self.leader = winner
        self._to_act = winner

    def _end_round(self, out: int) -> None:
        config = self._config
        n = self.n
        winner = out if config.last_trick_to_out else None
        self.events.append({"type": "trick", "round": self.round, "winner": winner,
                            "cards": self.game.names(self.trick_key)})
        if winner is not None:
            self.taken[winner] += self.trick_key
        chimera = self.chimera
        bidder_won = out == chimera
        idle = any(self.played_by[h] == 0 for h in self.hunters)
        counts: dict = {}
        for name in config.bonus_names:
            index = config.bonus_combination[name]
            counts[name] = idle if index is None else self.combo_counts[index]
        outcome = config.outcomes["bidder_out_first" if bidder_won else "other_out_first"]
        parts: list[list] = [[] for _ in range(n)]
        bid_points = outcome["times_bid"] * self.bid
        if isinstance(bid_points, float) and bid_points.is_integer():
            bid_points = int(bid_points)
        parts[chimera].append([f"bid {self.bid} x {outcome['times_bid']}", bid_points])
        for seat in self.hunters:
            if outcome["others"]:
                parts[seat].append(["outcome", outcome["others"]])
        for name, index, points, to in outcome["bonuses"]:
            times = (1 if idle else 0) if index is None else self.combo_counts[index]
            if not times:
                continue
            for seat in ((chimera,) if to == "bidder" else self.hunters):
                parts[seat].append([f"{name} {times} x {points}" if times > 1 else name, times * points])
        treasures = [0] * n
        for seat in range(n):
            taken = self.taken[seat]
            treasures[seat] = sum(count_of(taken, index) * points for index, points in config.treasures)
            if treasures[seat]:
                parts[seat].append(["treasures", treasures[seat]])
        points = [sum(p for _, p in parts[seat]) for seat in range(n)]
        for seat in range(n):
            self.totals[seat] += points[seat]
        self.events.append({"type": "round_end", "round": self.round, "out": out,
                            "chimera_won": bidder_won, "bonuses": counts, "treasures": treasures,
                            "points": points, "totals": list(self.totals), "chimera": chimera,
                            "bid": self.bid, "parts": parts})
        self._legal = None
        if self._game_over():
            return
        self.dealer = (self.dealer + config.dealer_step) % n
        self._start_round(redeal=False)

    def _game_over(self) -> bool:
        totals = self.totals
        top = max(totals)
        leaders = [seat for seat, total in enumerate(totals) if total == top]
        done = False
        if top >= self.game.target:
            done = len(leaders) == 1 or self._config.ties == "shared"
        if self.game.max_rounds is not None and self.round >= self.game.max_rounds:
            done = True
        if not done:
            return False
        self.phase = "over"
        self._to_act = TERMINAL
        end = {"type": "game_end", "totals": list(totals),
               "winner": leaders[0] if len(leaders) == 1 else None, "rounds": self.round}
        if len(leaders) > 1:
            end["winners"] = leaders
        self.events.append(end)
        return True
