"""The climbing play of a round: the ``play`` kind of phase, its state and its score.

A seat leads, the next ones beat the table or pass (``play.passes_to_close_trick`` passes
close the trick), seats may be offered a play out of turn (``play.out_of_turn``), and the
first seat out of cards ends the round, which is scored here.  Where plays name their very
cards, the legal plays follow the rules of the first lead (``play.first_lead``) and of the
seat before one holding its last cards (``play.last_card``).

The round's climbing state lives in a :class:`Climb`, the state's ``climb``, made afresh as
each round starts (a phase before the play, a partner phase, forms its sides there; what a
seat sees reads its trick from there in every phase).  The engine calls :func:`begin`,
:func:`legal`, :func:`why_illegal` and :func:`take` (through
:mod:`chimera_dsl.engine.phases.registry`); each function here reads the state it is given,
binding its ``climb`` to a local once.  The fields every kind of play keeps (``leader``,
``played``, ``played_by``, ``plays``) and the cards (``hands``, ``held``, ``sizes``) stay on the
state.
"""
from __future__ import annotations

from functools import partial

from ..actions import PASS, Action, _play_actions, describe_play
from ..slotcopy import slot_copier
from ...cardplays import CardPlay, strength_of
from ...matcher import Play
from .calls import apply_in_play as apply_call_in_play, made_names, offered as calls_offered
from .effects import VALUE_EFFECTS, change_value, change_values, read_values


class Climb:
    """The climbing play's state of one round (``state.climb``): the trick on the table, what
    each seat took, the seats out, and the round's standing effects and pending decisions."""

    # slots: a play reads and writes several of these (faster than an instance dict)
    __slots__ = ("trick", "trick_key", "trick_cards", "last_play", "last_player", "passes", "taken",
                 "combo_counts", "offers", "interrupting", "lead_passes", "out_order", "reversed",
                 "trick_passed", "choice", "wish", "wishing", "resume", "sides", "role_seats")

    def __init__(self, n: int, combinations: int):
        self.trick: tuple = ()                  # this trick's plays: ((seat, play), ...)
        self.trick_key = 0                      # this trick's cards, packed rank counts
        self.trick_cards = 0                    # this trick's cards, a bit mask
        self.last_play: Play | None = None      # the play to beat (None: a lead)
        self.last_player: int | None = None     # who made it
        self.passes = 0                         # passes in a row since it
        self.taken = [0] * n                    # per seat, the cards of the tricks it took (packed rank counts)
        self.combo_counts = [0] * combinations  # per combination, how many were played this round
        self.offers: list = []                  # the seats still to be offered a play out of turn, in order
        self.interrupting = False               # is the seat to act offered a play out of turn?
        self.lead_passes = 0                    # leaders who passed the lead on (play.leader_may_pass)
        self.out_order: tuple = ()              # the seats out of cards this round, in order (play.round_ends_when)
        self.reversed = False                   # the rank order is reversed (an effect: reverse_order)
        self.trick_passed = 0                   # the seats that passed this trick, a bit each (play.pass_final)
        self.choice: tuple | None = None        # (winner, next leader, seats, ending): a trick to give away (trick_to)
        self.wish: int | None = None            # the wished rank's index, until a play holds it (an effect: wish)
        self.wishing: tuple | None = None       # the ranks the player of a wish may name, while it names one
        self.resume: tuple | None = None        # (seat to act, interrupting) once the wish is named
        self.sides: list | None = None          # per seat, its side, when a partner phase formed sides
        self.role_seats: dict = {}              # the roles a partner phase gave: role -> seat

    def copy(self) -> "Climb":
        """An independent copy (:meth:`State.clone <chimera_dsl.engine.State.clone>`)."""
        other = Climb.__new__(Climb)
        _copy_climb(self, other)
        other.taken = self.taken.copy()
        other.combo_counts = self.combo_counts.copy()
        other.offers = self.offers.copy()
        other.role_seats = self.role_seats.copy()
        return other


_copy_climb = slot_copier(Climb.__slots__)


# -- play ------------------------------------------------------------------------------------
def begin(state, phase) -> bool:
    """The play begins: the first leader (``play.first_leader``) is to act."""
    state.leader = state._seat(phase.first_leader)
    state._to_act = state.leader
    return True


def legal(state, phase, narrow: bool = True) -> list[Action]:
    """The legal actions of the seat to act: its wish or the seat it gives a trick to while it
    names one; else its plays (a lead, an answer or a pass, an offer out of turn), under a
    standing wish those holding the wished rank when it has one, and the calls it may make
    on its own turn (``play.calls``)."""
    c = state.climb
    seat = state._to_act
    if c.wishing is not None:
        return [Action("wish", cards=-1)] + [Action("wish", cards=r) for r in c.wishing]
    if c.choice is not None:
        return [Action("trick_to", cards=s) for s in c.choice[2]]
    spec = state._play_spec
    interrupting = c.interrupting
    last_play = c.last_play
    if c.reversed and last_play is not None and not interrupting:
        actions = _reversed_legal(state, seat)
    elif state._by_cards:
        actions = _card_legal(state, seat)
        if interrupting:
            return actions
    elif interrupting:
        allowed = spec.out_of_turn
        answers = partial(_reversed_answers, state) if c.reversed else state.game.rules.answers
        return _play_actions([p for p in answers(state.hands[seat], last_play) if p.index in allowed]) + [PASS]
    elif last_play is None:
        actions = list(state.game.lead_actions(state.hands[seat]))
        if spec.leader_may_pass and c.lead_passes < state.in_round - 1:
            actions.append(PASS)
    else:
        actions = _play_actions(state.game.rules.answers(state.hands[seat], last_play))
        actions.append(PASS)
    if spec.must and narrow:          # play.must narrows the plays
        actions = _narrowed(state, actions, seat, spec.must)
    if c.wish is not None:                   # the seat's own turn: a wish stands
        actions = _wished(state, actions)
    if state._play_calls:
        offered = calls_offered(state, seat)      # a call on its turn (play.calls)
        if offered:
            actions = actions + offered
    return actions


def _must_refusing(state, phase, action: Action, seat: int) -> int | None:
    """The index of the first ``play.must`` rule that takes ``action`` out of the legal plays,
    or None."""
    actions = legal(state, phase, narrow=False)
    if action not in actions:
        return None
    must = state._play_spec.must
    for i in range(len(must)):
        if action not in _narrowed(state, actions, seat, must[:i + 1]):
            return i
    return None


def _narrowed(state, legal: list[Action], seat: int, must: tuple) -> list[Action]:
    """The legal actions ``play.must`` leaves: each rule whose ``when`` holds keeps, of the plays
    still legal, those for which its ``play`` holds, when there is one (else it changes
    nothing); a pass stays a pass."""
    c = state.climb
    env = {"leading": c.last_play is None, "held": state.sizes[seat], "out_count": len(c.out_order),
           "players": state.in_round, "round": state.round, "reversed": c.reversed}
    for when, condition in must:
        if when is not None and not when.evaluate(env):
            continue
        kept = []
        for action in legal:
            if action.kind == "play":
                play = action.play
                env.update(play_size=play.size, play_rank=play.rank, play_tier=play.tier,
                           _combination=play.combination, _key=play.key)
                if not condition.evaluate(env):
                    continue
            kept.append(action)
        if any(a.kind == "play" for a in kept):
            legal = kept
    return legal


def _wished(state, legal: list[Action]) -> list[Action]:
    """Under a wish, the plays holding a card of the wished rank, when the seat has one (no
    pass then); else every legal action."""
    c = state.climb
    count_of, wish = state.game.rules.deck.count_of, c.wish
    must = [a for a in legal if a.kind == "play" and count_of(a.play.key, wish)]
    return must or legal


def take(state, action: Action, mask: int | None) -> None:
    """Take a legal action of the play: a call made on the seat's turn, else a play, a pass, a
    wish named or a trick given."""
    if action.kind == "call":
        apply_call_in_play(state, action)
        return
    _apply_play(state, action, mask)


def why_illegal(state, phase, action: Action) -> str:
    """Why ``action`` is not legal now, said for the player."""
    c = state.climb
    seat = state._to_act
    if c.wishing is not None:
        ranks = state.game.rules.deck.ranks
        return (f"seat {seat} names the rank it wishes for: one of "
                f"{', '.join(ranks[r] for r in c.wishing)}, or none (a wish action)")
    if c.wish is not None and action.kind in ("play", "pass") and action not in state.legal_actions():
        return (f"a rank {state.game.rules.deck.ranks[c.wish]} is wished and seat {seat} can play one: "
                f"it must ({', '.join(describe_play(a.play) for a in state.legal_actions()[:3])}...)")
    if c.choice is not None:
        return (f"seat {seat} gives the trick it won to one of seats "
                f"{', '.join(map(str, c.choice[2]))} (a trick_to action naming one)")
    if action.kind == "play":
        play = action.play
        if not isinstance(play, Play):
            return "a play action needs a Play"
        what = describe_play(play)
        if not state.game.rules.deck.contains(state.hands[seat], play.key):
            return f"seat {seat} does not hold {' '.join(play.cards)}"
        very = getattr(play, "mask", None)          # a play naming its very cards (colours)
        if isinstance(very, int) and very & ~state.held[seat]:
            return f"seat {seat} does not hold {' '.join(state.game.card_names(very & ~state.held[seat]))}"
        if c.interrupting:
            return f"{what} may not be played out of turn on {describe_play(c.last_play)}"
        narrowing = _must_refusing(state, phase, action, seat) if state._play_spec.must else None
        if narrowing is not None:
            return (f"{what} may not be played now: play.must[{narrowing}] asks for a play where "
                    f"{state._play_spec.must[narrowing][1].text}")
        if c.last_play is None:
            return f"{what} is not a legal lead"
        beats = state.game.rules.can_beat_reversed if c.reversed else state.game.rules.can_beat
        if not beats(play, c.last_play):
            order = " (the rank order is reversed)" if c.reversed else ""
            return f"{what} does not beat {describe_play(c.last_play)}{order}"
        return f"{what} is not a legal play here"
    if action.kind == "pass":
        return f"seat {seat} leads the trick and may not pass"
    return f"a {action.kind} is not an action of the play (play or pass)"


def _apply_play(state, action: Action, mask: int | None) -> None:
    c = state.climb
    seat = state._to_act
    spec = state._play_spec
    if c.wishing is not None:              # the wish named (None: no wish)
        wished = action.cards if action.cards is not None and action.cards >= 0 else None
        c.wish = wished
        c.wishing = None
        state._to_act, c.interrupting = c.resume
        state._events.append({"type": "effect", "round": state.round, "seat": seat, "do": "wish",
                             "rank": None if wished is None else state.game.rules.deck.ranks[wished]})
        return
    if c.choice is not None:               # the trick's winner gives it away (trick_to)
        winner, lead, _options, ending = c.choice
        c.choice = None
        if ending is not None:                 # the round's last trick
            _end_round(state, ending, action.cards)
        else:
            _close_trick(state, winner, action.cards, lead)
        return
    if action.kind == "pass":
        if c.interrupting:                     # declining an out-of-turn play: no event
            _next_offer(state)
            return
        state._events.append({"type": "pass", "round": state.round, "seat": seat})
        goes_on = spec.goes_on
        if c.last_play is None:                 # a leader who may pass hands on the lead
            c.lead_passes += 1
            state.leader = _next_in(state, seat) if goes_on else state._after[seat]
            state._to_act = state.leader
            return
        c.passes += 1
        if goes_on:
            c.trick_passed |= 1 << seat
            if _trick_closes(state):
                _take_trick(state, c.last_player)
                return
            state._to_act = _next_in(state, seat)
            return
        if c.passes >= spec.passes_to_close_trick:
            _take_trick(state, c.last_player)
            return
        state._to_act = state._after[seat]
        return
    play = action.play
    key = play.key
    game = state.game
    deck = game.rules.deck
    if mask is None:
        mask = play.mask if state._by_cards else deck.take(state.held[seat], key)  # type: ignore[attr-defined]
    event = {"type": "play", "round": state.round, "seat": seat, "cards": game.card_names(mask),
             "combination": play.combination, "rank": play.rank}
    if c.interrupting:
        event["out_of_turn"] = True
    state._events.append(event)
    state.held[seat] &= ~mask
    state.hands[seat] -= key
    state.sizes[seat] -= play.size
    state._played += key
    state._played_by[seat] += key
    state._plays[seat] += 1
    c.trick_key += key
    c.trick_cards |= mask
    c.trick += ((seat, play),)
    c.combo_counts[play.index] += 1
    if play.size == 1 and spec.floating and deck.indices_of_mask(play.key)[0] in spec.floating:
        play = _floated(state, play, mask)
    c.last_play = play
    c.last_player = seat
    c.passes = 0
    c.interrupting = False
    if c.wish is not None and deck.count_of(key, c.wish):
        c.wish = None                       # the wished rank is played: the wish is fulfilled
    if not spec.effects:
        _go_on(state, seat, event, None)
        return
    lead, wishing = _run_effects(state, seat, play)
    round_ = state.round
    _go_on(state, seat, event, lead)
    if wishing is not None and state.round == round_ and state.phase != "over" and c.choice is None:
        # the player names the wished rank before the next seat acts
        c.resume = (state._to_act, c.interrupting)
        c.wishing = wishing
        state._to_act = seat
        c.interrupting = False


def _go_on(state, seat: int, event: dict, lead: int | None) -> None:
    """After ``seat``'s play (its line ``event``): the seat out, the round's end, the trick
    ended at once (``lead``: who leads next), or the next seat to act."""
    c = state.climb
    spec = state._play_spec
    n = state.n
    if state.hands[seat] == 0:
        if spec.ends_when is None:
            _end_round(state, seat)
            return
        c.out_order += (seat,)
        event["place"] = len(c.out_order)        # out of cards: its finishing place
        if _round_over(state):
            _end_round(state, c.out_order[0])
            return
    if lead is not None:                      # lead_to: the trick ends at once, another seat leads
        _take_trick(state, seat, lead)
        return
    if spec.goes_on:
        if spec.out_of_turn:
            order: list = []            # the seats still in after the player, the next one first
            s = seat
            for _ in range(n - 1):
                s = _next_in(state, s)
                if s == seat or s in order:
                    break
                order.append(s)
            c.offers = order[1:]
            _next_offer(state)
            return
        if _trick_closes(state):            # every seat still in has passed (play.pass_final)
            _take_trick(state, seat)
            return
        state._to_act = _next_in(state, seat)
        return
    if spec.out_of_turn:
        # every seat but the player and the one whose turn is next may interrupt, in turn
        order, s = [], state._after[state._after[seat]]
        while s != seat:
            order.append(s)
            s = state._after[s]
        c.offers = order
        _next_offer(state)
        return
    state._to_act = state._after[seat]


def _floated(state, play, mask: int):
    """A single of ``play.floating`` as it lies on the table: half a rank above the single it
    was played on (led: above ``floating.led``), so any higher single beats it."""
    c = state.climb
    below = c.last_play
    if below is not None and below.size == 1 and below.index == play.index:
        under = strength_of(below)[0]
    else:
        under = state._play_spec.floating_led + 1            # a rank's value, as plays hold it
    floated = CardPlay(play, mask, (under + 0.5,), -1)
    floated.rank = under                 # answers are looked for from that rank up
    return floated


def _next_offer(state) -> None:
    c = state.climb
    allowed = state._play_spec.out_of_turn
    rules = state.game.rules
    answers, hands = (rules.card_answers, state.held) if state._by_cards else (rules.answers, state.hands)
    if c.reversed:
        answers = partial(_reversed_answers, state)
    while c.offers:
        seat = c.offers.pop(0)
        if any(p.index in allowed for p in answers(hands[seat], c.last_play)):
            c.interrupting = True
            state._to_act = seat
            return
    c.interrupting = False
    if state._play_spec.goes_on:
        if _trick_closes(state):
            _take_trick(state, c.last_player)
            return
        state._to_act = _next_in(state, c.last_player)
        return
    state._to_act = state._after[c.last_player]


# -- play that goes on after a seat is out, and passes final for the trick ---------------------
def _next_in(state, seat: int, passed_too: bool = False) -> int:
    """The next seat after ``seat``, in the direction of play, that still holds cards and
    (``play.pass_final``) has not passed this trick; ``seat`` itself when there is none.
    ``passed_too``: one that passed too, the leader of the next trick when an effect ends this
    one at once (a pass that is final holds only until the trick ends)."""
    c = state.climb
    n, step, sizes = state.n, state.step, state.sizes
    skip = c.trick_passed if state._play_spec.pass_final and not passed_too else 0
    s = seat
    for _ in range(n):
        s = (s + step) % n
        if sizes[s] and not skip >> s & 1:
            return s
    return seat


def _trick_closes(state) -> bool:
    """Does the trick end now?  Every seat still in but the last to play has passed: in a row
    (``passes_to_close_trick`` at most), or each once where a pass is final for the trick."""
    c = state.climb
    last = c.last_player
    others = [s for s in range(state.n) if state.sizes[s] and s != last]
    if state._play_spec.pass_final:
        passed = c.trick_passed
        return all(passed >> s & 1 for s in others)
    return c.passes >= min(state._play_spec.passes_to_close_trick, len(others))


def _round_over(state) -> bool:
    """After a seat goes out: does ``play.round_ends_when`` hold (or does one seat alone hold cards)?"""
    c = state.climb
    out = len(c.out_order)
    if state.in_round - out < 2:
        return True
    return bool(state._play_spec.ends_when.evaluate({"out_count": out, "players": state.in_round, "round": state.round,
                                                    "team_out": _team_out(state)}))


def _team_out(state) -> bool:
    """Is every seat of some side (a team of ``play.teams``, or a side a partner phase formed)
    out of cards?"""
    sizes = state.sizes
    return any(all(not sizes[s] for s in team) for team in _sides_now(state))


def _side(state, seat: int) -> tuple[int, ...]:
    """The seats playing with ``seat`` this round: the side a partner phase formed, else its
    team of ``play.teams``, else itself alone."""
    c = state.climb
    sides = c.sides
    return sides[seat] if sides is not None else state._play_spec.side(seat, state.n)


def _sides_now(state) -> tuple:
    """The round's sides: those a partner phase formed, else ``play.teams``."""
    c = state.climb
    sides = c.sides
    if sides is None:
        return state._play_spec.teams
    return tuple(dict.fromkeys(sides))


def _places(state) -> list[int]:
    """Every seat's finishing place, first to last: the seats out, in the order they went out,
    then those still holding cards, fewer cards first (a tie: the first of them after the last
    seat out, in the direction of play)."""
    c = state.climb
    n = state.n
    out = list(c.out_order)
    last = out[-1] if out else 0
    rest = [(last + i * state.step) % n for i in range(1, n + 1)]
    rest = [s for s in rest if s not in out and s != state.sitting]
    rest.sort(key=lambda s: state.sizes[s])      # stable: the direction of play breaks ties
    return out + rest


def _effect_env(state, play, seat: int) -> dict:
    """What an effect's condition reads of ``play`` and of the table; the file's values
    (``values``) as ``seat`` has them (the player's, or the trick's winner's)."""
    c = state.climb
    env = {"play_size": play.size, "play_rank": play.rank, "play_tier": play.tier,
           "out_count": len(c.out_order), "players": state.in_round, "round": state.round,
           "reversed": c.reversed, "_combination": play.combination, "_key": play.key}
    return read_values(state, seat, env)


def _run_effects(state, seat: int, play) -> tuple[int | None, tuple | None]:
    """The effects of a play (``play.effects`` at ``play``): each whose condition holds, in
    order, with a line in the record.  The seat to lead next when one ends the trick at once
    (``end_trick``, ``lead_to``), else None; and the ranks the player may wish for (``wish``),
    asked once the play's consequences are known, else None."""
    c = state.climb
    env = _effect_env(state, play, seat)
    lead = wishing = None
    for effect in state._play_spec.effects:
        if effect.at != "play" or not effect.when.evaluate(env):
            continue
        if effect.name in VALUE_EFFECTS:
            change_value(state, effect, seat, env)
        elif effect.name == "reverse_order":
            c.reversed = env["reversed"] = not c.reversed
            state._events.append({"type": "effect", "round": state.round, "seat": seat, "do": effect.name,
                                 "reversed": c.reversed})
        elif effect.name == "wish":
            wishing = effect.arg
        elif effect.name == "end_trick":         # the player takes the trick at once and leads on
            lead = seat if state.sizes[seat] else _next_in(state, seat, passed_too=True)
            state._events.append({"type": "effect", "round": state.round, "seat": seat, "do": effect.name,
                                 "lead": lead})
        elif effect.name == "lead_to":           # the partner, or the next seat still in after it
            partner = next((s for s in _side(state, seat) if s != seat), None)
            if partner is None:                  # no partner this round: the next seat still in
                lead = _next_in(state, seat, passed_too=True)
            else:
                lead = partner if state.sizes[partner] else _next_in(state, partner, passed_too=True)
            state._events.append({"type": "effect", "round": state.round, "seat": seat, "do": effect.name,
                                 "lead": lead})
    return lead, wishing


def _reversed_answers(state, hand: int, over) -> list:
    """The plays of ``hand`` (cards held where plays name their cards, else packed rank counts)
    that beat ``over`` while the rank order is reversed."""
    game = state.game
    leads = game.card_lead_actions(hand) if state._by_cards else game.lead_actions(hand)
    beats = game.rules.can_beat_reversed
    return [a.play for a in leads if beats(a.play, over)]


def _reversed_legal(state, seat: int) -> list[Action]:
    """The answers of ``seat`` while the rank order is reversed: its leads that beat the table
    in the reversed order (``Rules.can_beat_reversed``), and passing."""
    c = state.climb
    hand = state.held[seat] if state._by_cards else state.hands[seat]
    return _play_actions(_reversed_answers(state, hand, c.last_play)) + [PASS]


def _take_trick(state, winner: int, lead: int | None = None) -> None:
    """The trick ends, won by ``winner``; ``lead``: who leads next, when not the winner.  An
    effect at ``trick_end`` (``trick_to``) may first ask the winner whom to give it to; one
    that changes a value (``add``, ``set``) changes the winner's first."""
    if state._play_spec.changes_at_trick_end:
        _trick_end_values(state, winner)
    options = _trick_end_options(state, winner)
    if options:
        if len(options) > 1:
            _choose(state, winner, lead, options, None)
            return
        _close_trick(state, winner, options[0], lead)
        return
    _close_trick(state, winner, winner, lead)


def _trick_end_values(state, winner: int) -> None:
    """The effects at ``trick_end`` that change a value (``add``, ``set``), over the trick's
    last play: a value kept per seat or team is ``winner``'s."""
    c = state.climb
    spec = state._play_spec
    if c.last_play is None:
        return
    change_values(state, spec.effects, "trick_end", winner, _effect_env(state, c.last_play, winner))


def _trick_end_options(state, winner: int) -> tuple[int, ...] | None:
    """The seats the trick ``winner`` won must go to, one of the winner's choice, when an effect
    at ``trick_end`` (``trick_to``) holds over its last play; else None."""
    c = state.climb
    spec = state._play_spec
    if not spec.effects or c.last_play is None:
        return None
    env = None
    for effect in spec.effects:
        if effect.at != "trick_end":
            continue
        env = env or _effect_env(state, c.last_play, winner)
        if effect.name == "trick_to" and effect.when.evaluate(env):   # a seat of another side
            side = _side(state, winner)
            return tuple(s for s in state._after_order(winner) if s not in side)
    return None


def _choose(state, winner: int, lead: int | None, options: tuple, ending: int | None) -> None:
    """Ask ``winner`` which of ``options`` takes the trick it won (``ending``: the round ends
    with this trick, its first seat out)."""
    c = state.climb
    c.choice = (winner, lead, options, ending)
    state._to_act = winner
    state._legal = None


def _close_trick(state, winner: int, taker: int, lead: int | None) -> None:
    c = state.climb
    line = {"type": "trick", "round": state.round, "winner": winner,
            "cards": state.game.card_names(c.trick_cards)}
    if taker != winner:
        line["given_to"] = taker
    state._events.append(line)
    c.taken[taker] += c.trick_key
    c.trick = ()
    c.trick_key = 0
    c.trick_cards = 0
    c.last_play = None
    c.last_player = None
    c.passes = 0
    c.lead_passes = 0
    c.trick_passed = 0
    if lead is not None:
        winner = lead
    elif not state.sizes[winner]:           # the winner went out on it: the next seat still in leads
        winner = _next_in(state, winner)
    state.leader = winner
    state._to_act = winner


# -- legal plays where plays name their cards ------------------------------------------------
def _card_legal(state, seat: int) -> list[Action]:
    """The play actions of a variant whose plays name their cards, with the play's rules on
    the first lead (``first_lead``) and on the seat before one holding its last cards
    (``last_card``)."""
    c = state.climb
    rules = state.game.rules
    held = state.held[seat]
    spec = state._play_spec
    if c.interrupting:
        allowed = spec.out_of_turn
        answers = partial(_reversed_answers, state) if c.reversed else rules.card_answers
        return _play_actions([p for p in answers(held, c.last_play) if p.index in allowed]) + [PASS]
    if c.last_play is None:
        leads = list(state.game.card_lead_actions(held))
        first = spec.first_lead
        if first is not None and _first_lead_due(state, first, held):
            leads = [a for a in leads if a.play.mask & first.card_mask]
        last = _last_card_rule(state, seat, held)
        if last is not None:
            leads = [a for a in leads if a.play.size != last.size or a.play is last]
        if spec.leader_may_pass and c.lead_passes < state.in_round - 1:
            leads.append(PASS)
        return leads
    out = _play_actions(rules.card_answers(held, c.last_play))
    last = _last_card_rule(state, seat, held) if c.last_play.size == 1 else None
    if last is not None:
        out = [a for a in out if a.play.size != 1 or a.play is last]
        if spec.last_card.must_play and any(a.play is last for a in out):
            return out
    out.append(PASS)
    return out


def _first_lead_due(state, first, held: int) -> bool:
    """Must this lead hold the card of ``play.first_lead``?  The round's first lead, when its
    condition holds and the leader holds the card."""
    if any(state._plays) or not held & first.card_mask:
        return False
    return first.when is None or bool(first.when.evaluate({"round": state.round, "players": state.in_round}))


def _last_card_rule(state, seat: int, held: int):
    """Under ``play.last_card``, when the next seat holds that many cards: the single this seat
    must play if it plays one (its strongest), else None."""
    rule = state._play_spec.last_card
    if rule is None or state.sizes[state._after[seat]] > rule.holds:
        return None
    rules = state.game.rules
    singles = [a.play for a in state.game.card_lead_actions(held) if a.play.size == 1]
    if not singles:
        return None
    best = singles[0]
    for p in singles[1:]:
        if rules.can_beat(p, best) or (p.tier == best.tier and p.index == best.index
                                       and p.strength > best.strength):
            best = p
    return best


# -- score -----------------------------------------------------------------------------------
def _round_end_moves(state, places: list[int] | None) -> None:
    """The effects at ``round_end`` (``move``): piles of cards taken, or cards left in a hand,
    counted for another seat (or nobody) before the round is scored, each with a line."""
    c = state.climb
    env = {"out_count": len(c.out_order), "players": state.in_round, "round": state.round,
           "team_out": _team_out(state)}
    spec = state._play_spec

    def seat_of(word: str) -> int:
        place = word[len("place("):-1]
        return places[-1] if place == "last" else places[int(place) - 1]
    for effect in spec.effects:
        if effect.at != "round_end" or not effect.when.evaluate(env):
            continue
        what, source, target = effect.arg
        sources = [s for s in range(state.n) if s != state.sitting] if source == "each" else [seat_of(source)]
        for giver in sources:
            if target == "nobody":
                to = None
            elif target == "opponent":
                side = _side(state, giver)
                to = next((s for s in state._after_order(giver) if s not in side), None)
            else:
                to = seat_of(target)
            key = c.taken[giver] if what == "taken" else state.hands[giver]
            if what == "taken":
                c.taken[giver] = 0
            if to is not None and to != giver:
                c.taken[to] += key
            elif to == giver and what == "taken":
                c.taken[giver] = key
            state._events.append({"type": "effect", "round": state.round, "seat": giver, "do": "move",
                                 "what": what, "to": to})


def _end_round(state, out: int, given_to: int | None = None) -> None:
    c = state.climb
    spec = state._round
    n = state.n
    # the seat that played the last card takes the last trick (where play goes on, the last seat out)
    winner = (out if not c.out_order else c.out_order[-1]) if spec.play.last_trick_to_out else None
    if given_to is None and winner is not None:
        if state._play_spec.changes_at_trick_end:    # the last trick's values, once (not again after a choice)
            _trick_end_values(state, winner)
        options = _trick_end_options(state, winner)
        if options and len(options) > 1:
            _choose(state, winner, None, options, out)
            return
        if options:
            given_to = options[0]
    line = {"type": "trick", "round": state.round, "winner": winner,
            "cards": state.game.card_names(c.trick_cards)}
    if given_to is not None:
        line["given_to"] = given_to
    state._events.append(line)
    taker = winner if given_to is None else given_to
    if taker is not None:
        c.taken[taker] += c.trick_key
    places = None
    if spec.play.ends_when is not None:
        places = _places(state)
    if spec.play.effects:
        _round_end_moves(state, places)
    rb = state.round_bid                             # the round's bids and bidder (round_bid.py)
    bidder = rb.bidder
    sides = c.sides
    # the bidder's side: the bidder, with the partner a partner phase named
    bidder_side = () if bidder is None else sides[bidder] if sides is not None else (bidder,)
    bidder_won = out in bidder_side
    sitting = state.sitting
    roles = {"bidder": (bidder,) if bidder is not None else (), "others": rb.others,
             "each": tuple(s for s in range(n) if s != sitting)}
    for role, holder in c.role_seats.items():        # a role a partner phase gave
        roles[role] = (holder,)
        roles["others"] = tuple(s for s in roles["others"] if s != holder)
    env = {"bid": rb.bid or 0, "round": state.round, "players": state.in_round, "bidder_won": bidder_won,
           "_counts": dict(zip(state.game.combination_ids, c.combo_counts)), "_plays": state._plays,
           "_roles": roles}
    env["_calls"] = made_names(state)       # what called(NAME) reads (chimera_dsl.engine.phases.calls)
    scoring = spec.scoring
    seats = []
    teams = spec.play.teams
    for seat in range(n):
        if bidder is None:
            won = out in _side(state, seat)
        else:
            won = bidder_won if seat in bidder_side else not bidder_won
        seats.append({"won": won and seat != sitting, "out_first": seat == out, "is_dealer": seat == state.dealer,
                      "cards_left": state.sizes[seat],
                      "plays": state._plays[seat], "card_points": scoring.card_points(c.taken[seat])})
        if places is not None and seat != sitting:
            seats[-1]["place"] = places.index(seat) + 1
            if teams or sides is not None:
                side = _side(state, seat)
                seats[-1]["partner_place"] = next((places.index(s) + 1 for s in side if s != seat), 0)
        if seat == sitting:
            seats[-1]["sits_out"] = True
    bonuses, parts, treasures = scoring.score(env, seats, state.role_of, teams=teams, kept=state.values)
    points = [sum(p for _, p in parts[seat]) for seat in range(n)]
    for seat in range(n):
        state.totals[seat] += points[seat]
    end = {"type": "round_end", "round": state.round, "out": out}
    if places is not None:
        end["places"] = places
    word = spec.role_word
    if bidder is not None:
        end[f"{word}_won"] = bidder_won
    end.update({"bonuses": bonuses, "treasures": treasures, "points": points, "totals": list(state.totals)})
    if bidder is not None:
        end[word] = bidder
        end["bid"] = rb.bid
    end["cards_left"] = list(state.sizes)
    end["parts"] = parts
    if state.values:
        end["values"] = {k: list(v) if isinstance(v, list) else v for k, v in state.values.items()}
    state._events.append(end)
    most = max(state.sizes)
    tied = [(out + i * state.step) % n for i in range(n)]
    state.previous = {"first_out": out, "most_cards_left": next(s for s in tied if state.sizes[s] == most)}
    if places is not None:
        state.previous["places"] = tuple(places)
    state._next_round()
