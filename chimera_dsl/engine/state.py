"""One game in progress: :class:`State`, mutable and cloneable, made by
:meth:`Game.new_game <chimera_dsl.engine.Game.new_game>`.

This module holds what every kind of phase shares: the state's fields (``__slots__``), the
OpenSpiel surface (``current_player``, ``legal_actions``, ``apply_action``, ``clone``,
``events``...), the seats, the start of a round (the deal and its line of the record), the
passage from phase to phase, the legal actions of each kind and the reasons an action is
refused, and the end of the game.  Each kind of phase is a component
(:mod:`chimera_dsl.engine.phases.registry`) with its own state, held here: the climbing play's
:class:`~chimera_dsl.engine.phases.climbing.Climb` (``climb``, new each round), the trick
table (``table``, :mod:`chimera_dsl.engine.phases.tricks`), the transfers' ``transfers`` and
the bidding's ``_bidding``; what names the round's bidder, shared by the kinds that name one,
is the :class:`~chimera_dsl.engine.round_bid.RoundBid` ``round_bid`` (new each round).  Every
kind's rules are functions of its module over the state (the bidding's
:mod:`chimera_dsl.engine.phases.bidding` among them); what one seat may see
(:mod:`chimera_dsl.engine.state_view`) is a mixin whose methods are State's own.
The climbing fields users read (``trick``, ``last_play``, ``wish``...) are read-only views of
``climb``, and ``bids``, ``bid``, ``high_bidder``, ``bidder`` and ``others`` of ``round_bid``.
"""
from __future__ import annotations

from itertools import repeat
from operator import is_, itemgetter
from typing import Any, Iterator, Protocol, Sequence

from .actions import PASS, Action, Deal, SecretSeed, _play_actions, deal_from_keys, describe_play, first_seen
from ..errors import ChimeraError, IllegalActionError
from ..matcher import Play
from .round import Round
from .round_bid import RoundBid
from .scoring import new_round_values, start_values
from ..rules import Rules
from .slotcopy import slot_copier
from .phases.bidding import NOT_YET
from .state_view import SeatView
from .phases import calls, climbing, registry, stock, tricks, two_part
from .phases.transfers import NONE_YET


class GameRules(Protocol):
    """What a state reads of the game that made it: a :class:`~chimera_dsl.engine.game.Game` (which
    makes states, so this module does not import it; the game passes itself)."""

    rules: Rules
    round: Round
    players: int
    target: int
    max_rounds: int | None
    by_cards: bool
    gives_cards: bool
    bid_actions: dict[int, Action]
    _card_keys: list[int]
    _card_name_list: list[str]

    def first_dealer(self, seed) -> int: ...

    def _deal(self, seed, number: int, dealer: int, step: int, sitting: int | None = None,
              round_: int = 1) -> tuple[Deal, list]: ...

    def card_names(self, mask: int) -> list[str]: ...

    def lead_actions(self, hand: int) -> tuple[Action, ...]: ...

    def give_actions(self, hand: int, count: int) -> list[Action]: ...

    def card_give_actions(self, held: int, count: int) -> Sequence[Action]: ...


TERMINAL = -4
"""What ``current_player()`` answers once the game is over (OpenSpiel's value)."""

KINDS = ("deal", "bidding", "transfer", "play", "score") + registry.KINDS
"""The kinds of phase the engine runs (a phase of the file has one of these kinds)."""
_KIND = registry.KINDS_BY_NAME           # per kind of phase, its component (hooks)


class _DealLine:
    """A deal's line of the record, written out when the record is read (:attr:`State.events`):
    naming every card of every hand is a good part of a deal, and a dispute deals again."""

    __slots__ = ("deck", "names", "numbers", "deal", "round", "dealer", "number", "direction", "sitting")

    def __init__(self, deck, names: list[str], numbers: list, deal: Deal, round_: int, dealer: int, number: int,
                 direction: str | None, sitting: int | None = None):
        self.deck, self.names, self.numbers, self.deal = deck, names, numbers, deal
        self.round, self.dealer, self.number, self.direction = round_, dealer, number, direction
        self.sitting = sitting

    def lines(self) -> list[dict]:
        """The deal's line."""
        deck, deal = self.deck, self.deal
        if deck.rank_major:                     # each hand's card numbers, in deck order
            names = self.names
            hands = [list(itemgetter(*c)(names)) if len(c) > 1 else [names[x] for x in c] for c in self.numbers]
        else:
            hands = [deck.mask_names(h) for h in deal.hands]
        line = {"type": "deal", "round": self.round, "dealer": self.dealer, "hands": hands,
                "nest": deck.mask_names(deal.nest),
                "face_up": None if deal.face_up is None else
                {"card": deck.card_names[deal.face_up[0]], "seat": deal.face_up[1]},
                "deal": self.number}
        if self.direction is not None:
            line["direction"] = self.direction
        if self.sitting is not None:
            line["sits_out"] = self.sitting
        first = first_seen(deal)
        if first is not None:                   # a deal in two parts: the cards each seat sees first
            line["first"] = [deck.mask_names(m) for m in first]
        left = stock.stock_of(deal)
        if left is not None:                    # a deal completed after a phase: the stock, in its order
            line["stock"] = [deck.card_names[c] for c in left]
        return [line]



class State(SeatView):
    """One game in progress.  Mutable; :meth:`clone` gives an independent copy."""

    # Slots: the fields every game sets as it starts (an action reads and writes several: slots
    # are faster than the instance dict, which holds only the few others, set by some phases).
    __slots__ = ('game', 'seed', '_deals', 'table', 'n', '_events', '_lazy', 'totals', 'round', 'deal_number',
                 'dealer', 'phase', 'kind', '_to_act', '_legal', 'previous', '_extra_round', '_round',
                 '_play_spec', '_by_cards', 'step', 'redeals', 'held', '_hand_numbers', 'hands',
                 'sizes', 'nest', 'nest_cards', 'face_up', 'face_up_card', 'round_bid', '_bidding',
                 'transfers', 'nest_holder', '_nest_shown', 'climb', 'leader', '_played', '_played_by', '_plays',
                 '_phase_index', 'sitting', '_after', 'in_round', '_hooks', '_now', 'values', '__dict__')
    sitting: int | None                 # the seat sitting the round out (deal.sits_out), set as a round starts

    def __init__(self, game: GameRules, seed, deals: Iterator | None = None, player_names=None,
                 first_dealer: int | None = None):
        self.game = game
        self.seed = seed
        self._deals = deals
        self.table: Any = None          # a trick-taking round's table (chimera_dsl.engine.phases.tricks.table_of)
        n = game.players
        self.n = n
        self._events: list = []          # the record's lines, and lines kept compact until read (events)
        self._lazy = False              # does _events hold compact lines?
        self.totals = [0] * n
        self.values = start_values(game.round.scoring.values, n)   # the file's values kept round to round
        self.round = 0
        self.deal_number = 0
        self.dealer = game.first_dealer(seed) if first_dealer is None else first_dealer
        self.phase = "deal"
        self.kind = "deal"
        self._to_act = TERMINAL
        self._legal: list[Action] | None = None
        self.previous: dict = {}
        self._extra_round = False
        self._round = game.round
        self._play_spec = game.round.play
        self._play_calls = game.round.calls is not None and bool(game.round.calls.in_play)
        self._by_cards = game.by_cards
        self.step = game.round.direction
        start = {"type": "game_start", "variant": game.rules.name,
                 "seed": None if isinstance(seed, SecretSeed) else seed, "players": n,
                 "target": game.target, "variant_path": game.rules.path,
                 "variant_hash": game.rules.source_hash}
        if game.max_rounds is not None:
            start["max_rounds"] = game.max_rounds
        if player_names is not None:
            start["player_names"] = list(player_names)
        self._events.append(start)
        self._start_round(redeal=False)

    # -- the OpenSpiel surface ---------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to act, or :data:`TERMINAL` when the game is over."""
        return self._to_act

    def is_terminal(self) -> bool:
        """Is the game over?"""
        return self.phase == "over"

    @property
    def events(self) -> list[dict]:
        """The game record so far, one dict per line (docs/game-record.md).  A phase may keep
        its lines compact while it plays (an auction's turns, see :mod:`chimera_dsl.engine.phases.auction`);
        reading the record writes them out, in place: the list is the same object throughout."""
        if self._lazy:
            self._write_lines()
        return self._events

    @events.setter
    def events(self, lines: list[dict]) -> None:
        if self._lazy:
            self._write_lines()         # closes the compact lines a phase is still adding to
        self._events = lines

    def _write_lines(self) -> None:
        """Write out the compact lines of the record in place (each closes: its phase keeps its
        next lines in a new one)."""
        events = self._events
        written: list[dict] = []
        for line in events:
            if isinstance(line, dict):
                written.append(line)
            else:
                written += line.lines()
        events[:] = written
        self._lazy = False

    def returns(self) -> list[float]:
        """Zeros until the game is over, then each seat's final total."""
        if self.phase != "over":
            return [0.0] * self.n
        return [float(t) for t in self.totals]

    def legal_actions(self) -> list[Action]:
        """The actions the current player may take (empty when the game is over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._hooks.legal(self, self._now)
        return legal

    def apply_action(self, action: Action) -> None:
        """Take ``action`` for the current player; :class:`IllegalActionError` if it is not legal.

        An action with ``mask`` names the very cards it uses; they must be the seat's and
        make up the same ranks as a legal action.
        """
        hooks = self._hooks
        if hooks.apply is not None:           # a kind that checks its actions itself
            hooks.apply(self, action)
            return
        legal = self.legal_actions()
        mask = None
        # the player usually hands back one of the very objects offered: test identity first
        # (a lazy list of gifts, engine.game.Gifts, keeps the one it gave last, and tests the
        # others by value without building them all)
        if type(legal) is list or type(legal) is tuple:
            offered = any(map(is_, legal, repeat(action)))
        else:
            offered = action is getattr(legal, "given", None)
        if not offered:
            if isinstance(action, Action) and action.mask is not None and action in legal:
                pass                                  # an action naming its very cards, as offered
            elif isinstance(action, Action) and action.mask is not None:
                mask = action.mask
                action = action._replace(mask=None)
            if action not in legal:
                raise IllegalActionError(self._why_illegal(action))
        if mask is None:
            mask = action.mask
        if mask is not None and not offered:      # (an action offered was made of the seat's very cards)
            key = action.play.key if action.kind == "play" and action.play is not None else action.cards
            seat = self._to_act
            if mask & ~self.held[seat] or self.game.rules.deck.key_of_mask(mask) != key:
                raise IllegalActionError(f"seat {seat} does not hold those very cards: "
                                         f"{' '.join(self.game.card_names(mask & ~self.held[seat])) or 'other ranks'}")
        self._legal = None
        hooks.take(self, action, mask)

    @property
    def exchange_count(self) -> int | None:
        """How many cards each gift of the transfer under way (or the last one) holds, or None."""
        return self.transfers.count

    @property
    def given(self) -> list | None:
        """Per seat, what it gave in the transfer under way or the last one (packed rank counts), or None."""
        return self.transfers.given

    @property
    def received(self) -> list | None:
        """Per seat, what it received in the transfer under way or the last one, or None."""
        return self.transfers.received

    @property
    def give_to(self) -> int | None:
        """The seat the current gift goes to (a transfer phase), else None."""
        if self.kind != "transfer" or self.transfers.phase is None:
            return None
        return self.transfers.give_to()

    # -- views of the round's bids and bidder (state.round_bid, round_bid.py), read-only ------
    @property
    def bids(self) -> tuple:
        """This round's bids in order: ``(seat, level or None for a pass, forced)``."""
        return self.round_bid.bids

    @property
    def bid(self) -> int | None:
        """The standing bid of this round (then the winning one), or None."""
        return self.round_bid.bid

    @property
    def high_bidder(self) -> int | None:
        """The seat that made :attr:`bid`, or None."""
        return self.round_bid.high_bidder

    @property
    def bidder(self) -> int | None:
        """The seat this round's bidding (or another phase naming a bidder) named, or None."""
        return self.round_bid.bidder

    @property
    def others(self) -> tuple[int, ...]:
        """The seats in the round but the bidder, in the order of play after it (the bidding and
        an auction set them as they name the bidder), else ()."""
        return self.round_bid.others

    # -- views of the climbing play's state (state.climb, phases/climbing.py), read-only --------
    @property
    def wishing(self) -> tuple[int, ...] | None:
        """The rank indices the current decision may wish for (an effect ``wish``), or None."""
        return self.climb.wishing

    @property
    def choosing(self) -> tuple[int, ...] | None:
        """The seats the current decision may give the trick to (an effect ``trick_to``), or None."""
        choice = self.climb.choice
        return choice[2] if choice is not None else None

    @property
    def interrupting(self) -> bool:
        """Is the current decision an offer to play out of turn (``play.out_of_turn``)?"""
        return self.climb.interrupting

    @property
    def trick(self) -> tuple:
        """A climbing round's trick so far: ((seat, play), ...)."""
        return self.climb.trick

    @property
    def trick_key(self) -> int:
        """A climbing round's cards on the table this trick (packed rank counts)."""
        return self.climb.trick_key

    @property
    def trick_cards(self) -> int:
        """A climbing round's cards on the table this trick (a bit mask of card numbers)."""
        return self.climb.trick_cards

    @property
    def last_play(self) -> Play | None:
        """The play to beat in a climbing round, None when the seat to act leads."""
        return self.climb.last_play

    @property
    def last_player(self) -> int | None:
        """The seat that made :attr:`last_play`, or None."""
        return self.climb.last_player

    @property
    def taken(self) -> list[int]:
        """Per seat, the cards of the tricks it took this climbing round (packed rank counts)."""
        return self.climb.taken

    @property
    def out_order(self) -> tuple[int, ...]:
        """The seats out of cards this round, in the order they went out (``play.round_ends_when``)."""
        return self.climb.out_order

    @property
    def reversed(self) -> bool:
        """Is the rank order reversed this round (an effect ``reverse_order``)?"""
        return self.climb.reversed

    @property
    def wish(self) -> int | None:
        """The wished rank's index until a play holds it (an effect ``wish``), else None."""
        return self.climb.wish

    # -- the cards played this round: kept by a climbing play as it goes; a trick-taking play
    # keeps only each seat's cards (its table's masks), read here when asked
    def _trick_table(self) -> Any:
        """The trick-taking table of this round, or None where the play climbs or has none yet."""
        table = self.table
        if table is not None and table.deal == self.deal_number and self._play_spec.kind == "tricks":
            return table
        return None

    @property
    def played(self) -> int:
        """Every card played this round, as packed rank counts."""
        table = self._trick_table()
        return self._played if table is None else self.game.rules.deck.key_of_mask(tricks._played(table))

    @property
    def played_by(self) -> list[int]:
        """Per seat, the cards it played this round, as packed rank counts."""
        table = self._trick_table()
        return self._played_by if table is None else list(map(self.game.rules.deck.key_of_mask, table.played_by))

    @property
    def plays(self) -> list[int]:
        """Per seat, how many plays it made this round (a trick-taking play: cards)."""
        table = self._trick_table()
        return self._plays if table is None else [mask.bit_count() for mask in table.played_by]

    def clone(self) -> "State":
        """An independent copy (a replay's deal iterator is shared, not copied)."""
        other = State.__new__(State)
        _copy_slots(self, other)
        other._lazy = False              # its record: a copy of this one, written out below
        other.__dict__.update(self.__dict__)
        for name in ("events", "totals", "hands", "held", "sizes", "_played_by", "_plays", "previous", "_pending"):
            value = getattr(self, name, None)
            if isinstance(value, (list, set, dict)):
                setattr(other, name, value.copy())
        other.transfers = self.transfers.copy()
        other._bidding = self._bidding.copy()
        other.climb = self.climb.copy()
        other.round_bid = self.round_bid.copy()
        if self.table is not None:
            other.table = self.table.copy()
        if self.values:
            other.values = {k: v.copy() if isinstance(v, list) else v for k, v in self.values.items()}
        return other

    # -- seats ---------------------------------------------------------------------------------
    def named_seat(self, name: str) -> int | None:
        """The seat a name of the seat vocabulary gives now (see :mod:`chimera_dsl.engine.seats`)."""
        if name == "dealer":
            return self.dealer
        if name == "face_up_holder":
            return self.face_up[1] if self.face_up is not None else None
        if name == "first_passer":
            return self._bidding.first_passer
        if name == "bidder":
            return self.round_bid.bidder
        if name.startswith("previous_round."):
            if name.startswith("previous_round.place:"):
                places = self.previous.get("places")
                if not places:
                    return None
                place = int(name[len("previous_round.place:"):])
                index = place - 1 if place > 0 else place
                # a round with a seat sitting out has fewer places than seats: no one held this one
                return places[index] if -len(places) <= index < len(places) else None
            return self.previous.get(name[len("previous_round."):])
        seat = tricks.named_seat(self, name)
        return seat if seat is not None else self.climb.role_seats.get(name)

    def holder_of(self, card: int) -> int | None:
        """The seat holding card number ``card`` now, or None."""
        bit_ = 1 << card
        for seat, held in enumerate(self.held):
            if held & bit_:
                return seat
        return None

    def _seat(self, expr) -> int:
        seat = expr.resolve(self)
        if seat is None:        # the loader refuses expressions that may name nobody where one is needed
            raise ChimeraError(f"'{expr.text}' names no seat now")
        if seat == self.sitting:    # the seat sitting the round out: the next seat in the round acts for it
            return self._after[seat]
        return seat

    def role_of(self, seat: int) -> str | None:
        """The role of ``seat`` this round (``bidder`` or ``others``), or None without bidding."""
        bidder = self.round_bid.bidder
        if bidder is None or seat == self.sitting:
            return None
        if seat == bidder:
            return "bidder"
        for role, holder in self.climb.role_seats.items():      # a role a partner phase gave
            if holder == seat:
                return role
        return "others"

    def _after_order(self, seat: int) -> list[int]:
        """The seats in the round after ``seat``, in the direction of play (out of cards or not)."""
        after = self._after
        order, s = [], after[seat]
        while s != seat:
            order.append(s)
            s = after[s]
        return order

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
        return self._hooks.why_illegal(self, self._now, action)

    # -- a round --------------------------------------------------------------------------------
    def _start_round(self, redeal: bool) -> None:
        game = self.game
        n = self.n
        spec = self._round
        if not redeal:
            self.round += 1
            self.redeals = 0
            if self.values:             # the values kept per round start again (values: per: round)
                new_round_values(spec.scoring.values, self.values, n)
            if spec.reverse_each_round:
                self.step = spec.direction * (1 if self.round % 2 else -1)
        self.deal_number += 1
        deck = game.rules.deck
        self._seat_the_round(spec.deal.sits_out)
        if self._deals is not None:
            try:
                given = next(self._deals)
            except StopIteration:
                raise IllegalActionError("no deal left to replay") from None
            deal = given if isinstance(given, Deal) else deal_from_keys(deck, *given)
            numbers = [tuple(deck.numbers_of(h)) for h in deal.hands]
        else:
            deal, numbers = game._deal(self.seed, self.deal_number, self.dealer, self.step, self.sitting, self.round)
        self.unseen = None                  # a deal in two parts (deal.first): per seat, its cards not seen yet
        if spec.deal.first is not None:
            deal = two_part.with_first(spec.deal, deal, numbers)
            self.unseen = two_part.unseen_of(deal)
        self.stock = None                   # a deal completed after a phase (deal.complete): the stock, in order
        if spec.deal.keeps_stock:
            deal = stock.with_stock(deal, deck)
            self.stock = deal.stock
        self.held = held = list(deal.hands)
        self.calls_made: tuple = ((),) * n     # per seat, the calls it made this round (chimera_dsl.engine.phases.calls)
        self._hand_numbers = list(zip(held, numbers))     # each hand's card numbers, as dealt
        keys = game._card_keys                    # a hand's packed rank counts: its cards' sum
        key_of = keys.__getitem__
        self.hands = [sum(map(key_of, c)) for c in numbers]
        self.sizes = list(map(len, numbers))
        self.nest = deck.key_of_mask(deal.nest) if deal.nest else 0
        self.nest_cards = deal.nest
        self.face_up = None if deal.face_up is None else (deck.card_rank[deal.face_up[0]], deal.face_up[1])
        self.face_up_card = None if deal.face_up is None else deal.face_up[0]
        direction = None
        if spec.reverse_each_round or spec.direction != 1:
            direction = "clockwise" if self.step == 1 else "counterclockwise"
        self._events.append(_DealLine(deck, game._card_name_list, numbers, deal, self.round, self.dealer,
                                      self.deal_number, direction, self.sitting))
        self._lazy = True
        self.round_bid = RoundBid()             # the bids and the bidder they name this round (round_bid.py)
        self._bidding = NOT_YET                 # the bidding's own state this round (phases/bidding.py)
        self.transfers = NONE_YET               # the transfers' own state this round (phases/transfers.py)
        self.nest_holder: int | None = None
        self._nest_shown = False
        # what every kind of play keeps: the leader of the trick, the cards each seat played
        # (packed rank counts, all and per seat) and how many plays it made
        self.leader: int | None = None
        self._played = 0
        self._played_by = [0] * n
        self._plays = [0] * n
        # the climbing play's own state this round (phases/climbing.py): a phase before the play
        # (a partner phase) forms its sides there, and what a seat sees reads its trick
        self.climb = climbing.Climb(n, len(game.rules.combinations))
        self._phase_index = 0          # the deal is done
        self._next_phase()

    def _void_round(self) -> None:
        """Everyone passed and the file says the round is void (``all_pass.then: void``): it ends
        at once, nobody scoring and nobody out; the seats the previous round named stay named."""
        n = self.n
        self._events.append({"type": "round_end", "round": self.round, "out": None, "void": True,
                             "bonuses": {}, "treasures": [0] * n, "points": [0] * n,
                             "totals": list(self.totals), "cards_left": list(self.sizes),
                             "parts": [[] for _ in range(n)]})
        self._next_round()

    def _next_round(self) -> None:
        """After a round's end is recorded: the game ends, or the next round is dealt by the
        dealer ``deal.next_dealer`` names (one of every seat: the seat that sat out is back)."""
        self._legal = None
        if self._game_over():
            return
        self.sitting = None
        self.dealer = self._seat(self._round.deal.next_dealer)
        self._start_round(redeal=False)

    def _seat_the_round(self, sits_out) -> None:
        """Who plays this round: every seat but the one ``deal.sits_out`` names (None: all).
        ``_after[s]`` is the seat after ``s`` in the direction of play among those who play."""
        n, step = self.n, self.step
        self.sitting = None
        if sits_out is not None:
            self.sitting = self._seat(sits_out)
        sitting = self.sitting
        found = _AFTER.get((n, step, sitting))
        if found is None:
            after = [(s + step) % n for s in range(n)]
            if sitting is not None:
                after = [a if a != sitting else (a + step) % n for a in after]
            found = _AFTER[(n, step, sitting)] = tuple(after)
        self._after = found
        self.in_round = n if sitting is None else n - 1

    def _next_phase(self) -> None:
        """Begin the phases after the current one until one needs a decision."""
        phases = self._round.phases
        while True:
            if self.unseen is not None and phases[self._phase_index].name == self._round.deal.rest_after:
                two_part.see_the_rest(self)
            if self.stock and phases[self._phase_index].name == self._round.deal.complete_after:
                stock.complete(self)
            self._phase_index += 1
            phase = phases[self._phase_index]
            self.phase = phase.name
            self.kind = phase.kind
            self._now = phase
            hooks = self._hooks = _KIND[phase.kind]
            if hooks.begin(self, phase):
                return

    # -- the end of the game --------------------------------------------------------------------
    def _game_over(self) -> bool:
        totals = self.totals
        end = self._round.end
        done = False
        if self._extra_round:
            done = True
        elif self.game.max_rounds is not None and self.round >= self.game.max_rounds:
            done = True                 # (over or not by the file's end: the rounds asked for are played)
        elif end.over(totals, self.round, self.game.target, self.values):
            # partners (play.teams) hold one total: seats of one side alone at the top are no tie
            play = self._round.play
            if end.ties == "shared" or len({play.side(s, len(totals)) for s in end.leaders(totals)}) == 1:
                done = True
            elif end.ties == "one_more_round":
                self._extra_round = True
        if not done:
            return False
        leaders = end.leaders(totals)
        self.phase = "over"
        self.kind = "over"
        self._hooks = registry.OVER
        self._to_act = TERMINAL
        result = {"type": "game_end", "totals": list(totals),
                  "winner": leaders[0] if len(leaders) == 1 else None, "rounds": self.round}
        if len(leaders) > 1:
            result["winners"] = leaders
        self._events.append(result)
        return True


_copy_slots = slot_copier(State.__slots__[:-1])
_AFTER: dict[tuple, tuple[int, ...]] = {}     # per (seats, direction, seat sitting out): _seat_the_round's _after
