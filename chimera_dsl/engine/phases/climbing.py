"""The climbing play of a round: the :class:`ClimbingPlay` part of
:class:`~chimera_dsl.engine.State`.

A seat leads, the next ones beat the table or pass (``play.passes_to_close_trick`` passes
close the trick), seats may be offered a play out of turn (``play.out_of_turn``), and the
first seat out of cards ends the round, which is scored here.  Where plays name their very
cards, the legal plays follow the rules of the first lead (``play.first_lead``) and of the
seat before one holding its last cards (``play.last_card``).
"""
from __future__ import annotations

from typing import Any

from ..actions import PASS, Action, _play_actions, describe_play
from ...cardplays import CardPlay, strength_of
from ...matcher import Play
from .calls import apply_in_play as apply_call_in_play, made_names, offered as calls_offered
from .effects import VALUE_EFFECTS, change_value, change_values, read_values


class ClimbingPlay:
    """The methods of :class:`~chimera_dsl.engine.State` that play a climbing round's tricks
    and score the round.

    ``self`` is the state: its fields are declared in ``State.__slots__`` and set as a round
    starts, so the type checker reads ``self`` here as ``Any`` (as the trick-taking phases
    read their ``state``).
    """

    __slots__ = ()
    _legal: list[Action] | None         # State's field, which the end of a round empties
    sitting: int | None                 # State's field: the seat sitting the round out (deal.sits_out)

    # -- play ------------------------------------------------------------------------------------
    def _begin_play(self: Any, phase) -> bool:
        self.leader = self._seat(phase.first_leader)
        self._to_act = self.leader
        return True

    def _play_legal(self: Any, phase, narrow: bool = True) -> list[Action]:
        """The legal actions of the seat to act: its wish or the seat it gives a trick to while it
        names one; else its plays (a lead, an answer or a pass, an offer out of turn), under a
        standing wish those holding the wished rank when it has one, and the calls it may make
        on its own turn (``play.calls``)."""
        seat = self._to_act
        if self._wishing is not None:
            return [Action("wish", cards=-1)] + [Action("wish", cards=r) for r in self._wishing]
        if self._choice is not None:
            return [Action("trick_to", cards=s) for s in self._choice[2]]
        interrupting = self._interrupting
        if self.reversed and self.last_play is not None and not interrupting:
            legal = self._reversed_legal(seat)
        elif self._by_cards:
            legal = self._card_legal(seat)
            if interrupting:
                return legal
        elif interrupting:
            allowed = self._play_spec.out_of_turn
            answers = self._reversed_answers if self.reversed else self.game.rules.answers
            return _play_actions([p for p in answers(self.hands[seat], self.last_play) if p.index in allowed]) + [PASS]
        elif self.last_play is None:
            legal = list(self.game.lead_actions(self.hands[seat]))
            if self._play_spec.leader_may_pass and self._lead_passes < self.in_round - 1:
                legal.append(PASS)
        else:
            legal = _play_actions(self.game.rules.answers(self.hands[seat], self.last_play))
            legal.append(PASS)
        if self._play_spec.must and narrow:          # play.must narrows the plays
            legal = self._narrowed(legal, seat, self._play_spec.must)
        if self.wish is not None:                   # the seat's own turn: a wish stands
            legal = self._wished(legal)
        if self._play_calls:
            offered = calls_offered(self, seat)      # a call on its turn (play.calls)
            if offered:
                legal = legal + offered
        return legal

    def _must_refusing(self: Any, phase, action: Action, seat: int) -> int | None:
        """The index of the first ``play.must`` rule that takes ``action`` out of the legal plays,
        or None."""
        legal = self._play_legal(phase, narrow=False)
        if action not in legal:
            return None
        must = self._play_spec.must
        for i in range(len(must)):
            if action not in self._narrowed(legal, seat, must[:i + 1]):
                return i
        return None

    def _narrowed(self: Any, legal: list[Action], seat: int, must: tuple) -> list[Action]:
        """The legal actions ``play.must`` leaves: each rule whose ``when`` holds keeps, of the plays
        still legal, those for which its ``play`` holds, when there is one (else it changes
        nothing); a pass stays a pass."""
        env = {"leading": self.last_play is None, "held": self.sizes[seat], "out_count": len(self.out_order),
               "players": self.in_round, "round": self.round, "reversed": self.reversed}
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

    def _wished(self: Any, legal: list[Action]) -> list[Action]:
        """Under a wish, the plays holding a card of the wished rank, when the seat has one (no
        pass then); else every legal action."""
        count_of, wish = self.game.rules.deck.count_of, self.wish
        must = [a for a in legal if a.kind == "play" and count_of(a.play.key, wish)]
        return must or legal

    def _take_play(self: Any, action: Action, mask: int | None) -> None:
        if action.kind == "call":
            apply_call_in_play(self, action)
            return
        self._apply_play(action, mask)

    def _why_play_illegal(self: Any, phase, action: Action) -> str:
        seat = self._to_act
        if self._wishing is not None:
            ranks = self.game.rules.deck.ranks
            return (f"seat {seat} names the rank it wishes for: one of "
                    f"{', '.join(ranks[r] for r in self._wishing)}, or none (a wish action)")
        if self.wish is not None and action.kind in ("play", "pass") and action not in self.legal_actions():
            return (f"a rank {self.game.rules.deck.ranks[self.wish]} is wished and seat {seat} can play one: "
                    f"it must ({', '.join(describe_play(a.play) for a in self.legal_actions()[:3])}...)")
        if self._choice is not None:
            return (f"seat {seat} gives the trick it won to one of seats "
                    f"{', '.join(map(str, self._choice[2]))} (a trick_to action naming one)")
        if action.kind == "play":
            play = action.play
            if not isinstance(play, Play):
                return "a play action needs a Play"
            what = describe_play(play)
            if not self.game.rules.deck.contains(self.hands[seat], play.key):
                return f"seat {seat} does not hold {' '.join(play.cards)}"
            very = getattr(play, "mask", None)          # a play naming its very cards (colours)
            if isinstance(very, int) and very & ~self.held[seat]:
                return f"seat {seat} does not hold {' '.join(self.game.card_names(very & ~self.held[seat]))}"
            if self._interrupting:
                return f"{what} may not be played out of turn on {describe_play(self.last_play)}"
            narrowing = self._must_refusing(phase, action, seat) if self._play_spec.must else None
            if narrowing is not None:
                return (f"{what} may not be played now: play.must[{narrowing}] asks for a play where "
                        f"{self._play_spec.must[narrowing][1].text}")
            if self.last_play is None:
                return f"{what} is not a legal lead"
            beats = self.game.rules.can_beat_reversed if self.reversed else self.game.rules.can_beat
            if not beats(play, self.last_play):
                order = " (the rank order is reversed)" if self.reversed else ""
                return f"{what} does not beat {describe_play(self.last_play)}{order}"
            return f"{what} is not a legal play here"
        if action.kind == "pass":
            return f"seat {seat} leads the trick and may not pass"
        return f"a {action.kind} is not an action of the play (play or pass)"

    def _apply_play(self: Any, action: Action, mask: int | None) -> None:
        seat = self._to_act
        n = self.n
        spec = self._play_spec
        if self._wishing is not None:              # the wish named (None: no wish)
            wished = action.cards if action.cards is not None and action.cards >= 0 else None
            self.wish = wished
            self._wishing = None
            self._to_act, self._interrupting = self._resume
            self._events.append({"type": "effect", "round": self.round, "seat": seat, "do": "wish",
                                 "rank": None if wished is None else self.game.rules.deck.ranks[wished]})
            return
        if self._choice is not None:               # the trick's winner gives it away (trick_to)
            winner, lead, _options, ending = self._choice
            self._choice = None
            if ending is not None:                 # the round's last trick
                self._end_round(ending, action.cards)
            else:
                self._close_trick(winner, action.cards, lead)
            return
        if action.kind == "pass":
            if self._interrupting:                     # declining an out-of-turn play: no event
                self._next_offer()
                return
            self._events.append({"type": "pass", "round": self.round, "seat": seat})
            goes_on = spec.goes_on
            if self.last_play is None:                 # a leader who may pass hands on the lead
                self._lead_passes += 1
                self.leader = self._next_in(seat) if goes_on else self._after[seat]
                self._to_act = self.leader
                return
            self.passes += 1
            if goes_on:
                self._trick_passed |= 1 << seat
                if self._trick_closes():
                    self._take_trick(self.last_player)
                    return
                self._to_act = self._next_in(seat)
                return
            if self.passes >= spec.passes_to_close_trick:
                self._take_trick(self.last_player)
                return
            self._to_act = self._after[seat]
            return
        play = action.play
        key = play.key
        if mask is None:
            mask = play.mask if self._by_cards else self.game.rules.deck.take(self.held[seat], key)  # type: ignore[attr-defined]
        event = {"type": "play", "round": self.round, "seat": seat, "cards": self.game.card_names(mask),
                 "combination": play.combination, "rank": play.rank}
        if self._interrupting:
            event["out_of_turn"] = True
        self._events.append(event)
        self.held[seat] &= ~mask
        self.hands[seat] -= key
        self.sizes[seat] -= play.size
        self.played += key
        self.played_by[seat] += key
        self.plays[seat] += 1
        self.trick_key += key
        self.trick_cards |= mask
        self.trick += ((seat, play),)
        self.combo_counts[play.index] += 1
        if play.size == 1 and spec.floating and self.game.rules.deck.indices_of_mask(play.key)[0] in spec.floating:
            play = self._floated(play, mask)
        self.last_play = play
        self.last_player = seat
        self.passes = 0
        self._interrupting = False
        if self.wish is not None and self.game.rules.deck.count_of(key, self.wish):
            self.wish = None                       # the wished rank is played: the wish is fulfilled
        if not spec.effects:
            self._go_on(seat, event, None)
            return
        lead, wishing = self._run_effects(seat, play)
        round_ = self.round
        self._go_on(seat, event, lead)
        if wishing is not None and self.round == round_ and self.phase != "over" and self._choice is None:
            # the player names the wished rank before the next seat acts
            self._resume = (self._to_act, self._interrupting)
            self._wishing = wishing
            self._to_act = seat
            self._interrupting = False

    def _go_on(self: Any, seat: int, event: dict, lead: int | None) -> None:
        """After ``seat``'s play (its line ``event``): the seat out, the round's end, the trick
        ended at once (``lead``: who leads next), or the next seat to act."""
        spec = self._play_spec
        n = self.n
        if self.hands[seat] == 0:
            if spec.ends_when is None:
                self._end_round(seat)
                return
            self.out_order += (seat,)
            event["place"] = len(self.out_order)        # out of cards: its finishing place
            if self._round_over():
                self._end_round(self.out_order[0])
                return
        if lead is not None:                      # lead_to: the trick ends at once, another seat leads
            self._take_trick(seat, lead)
            return
        if spec.goes_on:
            if spec.out_of_turn:
                order: list = []            # the seats still in after the player, the next one first
                s = seat
                for _ in range(n - 1):
                    s = self._next_in(s)
                    if s == seat or s in order:
                        break
                    order.append(s)
                self._offers = order[1:]
                self._next_offer()
                return
            if self._trick_closes():            # every seat still in has passed (play.pass_final)
                self._take_trick(seat)
                return
            self._to_act = self._next_in(seat)
            return
        if spec.out_of_turn:
            # every seat but the player and the one whose turn is next may interrupt, in turn
            order, s = [], self._after[self._after[seat]]
            while s != seat:
                order.append(s)
                s = self._after[s]
            self._offers = order
            self._next_offer()
            return
        self._to_act = self._after[seat]

    def _floated(self: Any, play, mask: int):
        """A single of ``play.floating`` as it lies on the table: half a rank above the single it
        was played on (led: above ``floating.led``), so any higher single beats it."""
        below = self.last_play
        if below is not None and below.size == 1 and below.index == play.index:
            under = strength_of(below)[0]
        else:
            under = self._play_spec.floating_led + 1            # a rank's value, as plays hold it
        floated = CardPlay(play, mask, (under + 0.5,), -1)
        floated.rank = under                 # answers are looked for from that rank up
        return floated

    def _next_offer(self: Any) -> None:
        allowed = self._play_spec.out_of_turn
        rules = self.game.rules
        answers, hands = (rules.card_answers, self.held) if self._by_cards else (rules.answers, self.hands)
        if self.reversed:
            answers = self._reversed_answers
        while self._offers:
            seat = self._offers.pop(0)
            if any(p.index in allowed for p in answers(hands[seat], self.last_play)):
                self._interrupting = True
                self._to_act = seat
                return
        self._interrupting = False
        if self._play_spec.goes_on:
            if self._trick_closes():
                self._take_trick(self.last_player)
                return
            self._to_act = self._next_in(self.last_player)
            return
        self._to_act = self._after[self.last_player]

    # -- play that goes on after a seat is out, and passes final for the trick ---------------------
    def _next_in(self: Any, seat: int) -> int:
        """The next seat after ``seat``, in the direction of play, that still holds cards and
        (``play.pass_final``) has not passed this trick; ``seat`` itself when there is none."""
        n, step, sizes = self.n, self.step, self.sizes
        skip = self._trick_passed if self._play_spec.pass_final else 0
        s = seat
        for _ in range(n):
            s = (s + step) % n
            if sizes[s] and not skip >> s & 1:
                return s
        return seat

    def _trick_closes(self: Any) -> bool:
        """Does the trick end now?  Every seat still in but the last to play has passed: in a row
        (``passes_to_close_trick`` at most), or each once where a pass is final for the trick."""
        last = self.last_player
        others = [s for s in range(self.n) if self.sizes[s] and s != last]
        if self._play_spec.pass_final:
            passed = self._trick_passed
            return all(passed >> s & 1 for s in others)
        return self.passes >= min(self._play_spec.passes_to_close_trick, len(others))

    def _round_over(self: Any) -> bool:
        """After a seat goes out: does ``play.round_ends_when`` hold (or does one seat alone hold cards)?"""
        out = len(self.out_order)
        if self.in_round - out < 2:
            return True
        return bool(self._play_spec.ends_when.evaluate({"out_count": out, "players": self.in_round, "round": self.round,
                                                        "team_out": self._team_out()}))

    def _team_out(self: Any) -> bool:
        """Is every seat of some side (a team of ``play.teams``, or a side a partner phase formed)
        out of cards?"""
        sizes = self.sizes
        return any(all(not sizes[s] for s in team) for team in self._sides_now())

    def _side(self: Any, seat: int) -> tuple[int, ...]:
        """The seats playing with ``seat`` this round: the side a partner phase formed, else its
        team of ``play.teams``, else itself alone."""
        sides = self.sides
        return sides[seat] if sides is not None else self._play_spec.side(seat, self.n)

    def _sides_now(self: Any) -> tuple:
        """The round's sides: those a partner phase formed, else ``play.teams``."""
        sides = self.sides
        if sides is None:
            return self._play_spec.teams
        return tuple(dict.fromkeys(sides))

    def _places(self: Any) -> list[int]:
        """Every seat's finishing place, first to last: the seats out, in the order they went out,
        then those still holding cards, fewer cards first (a tie: the first of them after the last
        seat out, in the direction of play)."""
        n = self.n
        out = list(self.out_order)
        last = out[-1] if out else 0
        rest = [(last + i * self.step) % n for i in range(1, n + 1)]
        rest = [s for s in rest if s not in out and s != self.sitting]
        rest.sort(key=lambda s: self.sizes[s])      # stable: the direction of play breaks ties
        return out + rest

    def _effect_env(self: Any, play, seat: int) -> dict:
        """What an effect's condition reads of ``play`` and of the table; the file's values
        (``values``) as ``seat`` has them (the player's, or the trick's winner's)."""
        env = {"play_size": play.size, "play_rank": play.rank, "play_tier": play.tier,
               "out_count": len(self.out_order), "players": self.in_round, "round": self.round,
               "reversed": self.reversed, "_combination": play.combination, "_key": play.key}
        return read_values(self, seat, env)

    def _run_effects(self: Any, seat: int, play) -> tuple[int | None, tuple | None]:
        """The effects of a play (``play.effects`` at ``play``): each whose condition holds, in
        order, with a line in the record.  The seat to lead next when one ends the trick at once
        (``end_trick``, ``lead_to``), else None; and the ranks the player may wish for (``wish``),
        asked once the play's consequences are known, else None."""
        env = self._effect_env(play, seat)
        lead = wishing = None
        for effect in self._play_spec.effects:
            if effect.at != "play" or not effect.when.evaluate(env):
                continue
            if effect.name in VALUE_EFFECTS:
                change_value(self, effect, seat, env)
            elif effect.name == "reverse_order":
                self.reversed = env["reversed"] = not self.reversed
                self._events.append({"type": "effect", "round": self.round, "seat": seat, "do": effect.name,
                                     "reversed": self.reversed})
            elif effect.name == "wish":
                wishing = effect.arg
            elif effect.name == "end_trick":         # the player takes the trick at once and leads on
                lead = seat if self.sizes[seat] else self._next_in(seat)
                self._events.append({"type": "effect", "round": self.round, "seat": seat, "do": effect.name,
                                     "lead": lead})
            elif effect.name == "lead_to":           # the partner, or the next seat still in after it
                partner = next((s for s in self._side(seat) if s != seat), None)
                if partner is None:                  # no partner this round: the next seat still in
                    lead = self._next_in(seat)
                else:
                    lead = partner if self.sizes[partner] else self._next_in(partner)
                self._events.append({"type": "effect", "round": self.round, "seat": seat, "do": effect.name,
                                     "lead": lead})
        return lead, wishing

    def _reversed_answers(self: Any, hand: int, over) -> list:
        """The plays of ``hand`` (cards held where plays name their cards, else packed rank counts)
        that beat ``over`` while the rank order is reversed."""
        game = self.game
        leads = game.card_lead_actions(hand) if self._by_cards else game.lead_actions(hand)
        beats = game.rules.can_beat_reversed
        return [a.play for a in leads if beats(a.play, over)]

    def _reversed_legal(self: Any, seat: int) -> list[Action]:
        """The answers of ``seat`` while the rank order is reversed: its leads that beat the table
        in the reversed order (``Rules.can_beat_reversed``), and passing."""
        hand = self.held[seat] if self._by_cards else self.hands[seat]
        return _play_actions(self._reversed_answers(hand, self.last_play)) + [PASS]

    def _take_trick(self: Any, winner: int, lead: int | None = None) -> None:
        """The trick ends, won by ``winner``; ``lead``: who leads next, when not the winner.  An
        effect at ``trick_end`` (``trick_to``) may first ask the winner whom to give it to; one
        that changes a value (``add``, ``set``) changes the winner's first."""
        if self._play_spec.changes_at_trick_end:
            self._trick_end_values(winner)
        options = self._trick_end_options(winner)
        if options:
            if len(options) > 1:
                self._choose(winner, lead, options, None)
                return
            self._close_trick(winner, options[0], lead)
            return
        self._close_trick(winner, winner, lead)

    def _trick_end_values(self: Any, winner: int) -> None:
        """The effects at ``trick_end`` that change a value (``add``, ``set``), over the trick's
        last play: a value kept per seat or team is ``winner``'s."""
        spec = self._play_spec
        if self.last_play is None:
            return
        change_values(self, spec.effects, "trick_end", winner, self._effect_env(self.last_play, winner))

    def _trick_end_options(self: Any, winner: int) -> tuple[int, ...] | None:
        """The seats the trick ``winner`` won must go to, one of the winner's choice, when an effect
        at ``trick_end`` (``trick_to``) holds over its last play; else None."""
        spec = self._play_spec
        if not spec.effects or self.last_play is None:
            return None
        env = None
        for effect in spec.effects:
            if effect.at != "trick_end":
                continue
            env = env or self._effect_env(self.last_play, winner)
            if effect.name == "trick_to" and effect.when.evaluate(env):   # a seat of another side
                side = self._side(winner)
                return tuple(s for s in self._after_order(winner) if s not in side)
        return None

    def _choose(self: Any, winner: int, lead: int | None, options: tuple, ending: int | None) -> None:
        """Ask ``winner`` which of ``options`` takes the trick it won (``ending``: the round ends
        with this trick, its first seat out)."""
        self._choice = (winner, lead, options, ending)
        self._to_act = winner
        self._legal = None

    def _after_order(self: Any, seat: int) -> list[int]:
        """The seats in the round after ``seat``, in the direction of play (out or not)."""
        order, s = [], self._after[seat]
        while s != seat:
            order.append(s)
            s = self._after[s]
        return order

    def _close_trick(self: Any, winner: int, taker: int, lead: int | None) -> None:
        line = {"type": "trick", "round": self.round, "winner": winner,
                "cards": self.game.card_names(self.trick_cards)}
        if taker != winner:
            line["given_to"] = taker
        self._events.append(line)
        self.taken[taker] += self.trick_key
        self.trick = ()
        self.trick_key = 0
        self.trick_cards = 0
        self.last_play = None
        self.last_player = None
        self.passes = 0
        self._lead_passes = 0
        self._trick_passed = 0
        if lead is not None:
            winner = lead
        elif not self.sizes[winner]:           # the winner went out on it: the next seat still in leads
            winner = self._next_in(winner)
        self.leader = winner
        self._to_act = winner

    # -- legal plays where plays name their cards ------------------------------------------------
    def _card_legal(self: Any, seat: int) -> list[Action]:
        """The play actions of a variant whose plays name their cards, with the play's rules on
        the first lead (``first_lead``) and on the seat before one holding its last cards
        (``last_card``)."""
        rules = self.game.rules
        held = self.held[seat]
        spec = self._play_spec
        if self._interrupting:
            allowed = spec.out_of_turn
            answers = self._reversed_answers if self.reversed else rules.card_answers
            return _play_actions([p for p in answers(held, self.last_play) if p.index in allowed]) + [PASS]
        if self.last_play is None:
            leads = list(self.game.card_lead_actions(held))
            first = spec.first_lead
            if first is not None and self._first_lead_due(first, held):
                leads = [a for a in leads if a.play.mask & first.card_mask]
            last = self._last_card_rule(seat, held)
            if last is not None:
                leads = [a for a in leads if a.play.size != last.size or a.play is last]
            if spec.leader_may_pass and self._lead_passes < self.in_round - 1:
                leads.append(PASS)
            return leads
        out = _play_actions(rules.card_answers(held, self.last_play))
        last = self._last_card_rule(seat, held) if self.last_play.size == 1 else None
        if last is not None:
            out = [a for a in out if a.play.size != 1 or a.play is last]
            if spec.last_card.must_play and any(a.play is last for a in out):
                return out
        out.append(PASS)
        return out

    def _first_lead_due(self: Any, first, held: int) -> bool:
        """Must this lead hold the card of ``play.first_lead``?  The round's first lead, when its
        condition holds and the leader holds the card."""
        if any(self.plays) or not held & first.card_mask:
            return False
        return first.when is None or bool(first.when.evaluate({"round": self.round, "players": self.in_round}))

    def _last_card_rule(self: Any, seat: int, held: int):
        """Under ``play.last_card``, when the next seat holds that many cards: the single this seat
        must play if it plays one (its strongest), else None."""
        rule = self._play_spec.last_card
        if rule is None or self.sizes[self._after[seat]] > rule.holds:
            return None
        rules = self.game.rules
        singles = [a.play for a in self.game.card_lead_actions(held) if a.play.size == 1]
        if not singles:
            return None
        best = singles[0]
        for p in singles[1:]:
            if rules.can_beat(p, best) or (p.tier == best.tier and p.index == best.index
                                           and p.strength > best.strength):
                best = p
        return best

    # -- score -----------------------------------------------------------------------------------
    def _round_end_moves(self: Any, places: list[int] | None) -> None:
        """The effects at ``round_end`` (``move``): piles of cards taken, or cards left in a hand,
        counted for another seat (or nobody) before the round is scored, each with a line."""
        env = {"out_count": len(self.out_order), "players": self.in_round, "round": self.round,
               "team_out": self._team_out()}
        spec = self._play_spec

        def seat_of(word: str) -> int:
            place = word[len("place("):-1]
            return places[-1] if place == "last" else places[int(place) - 1]
        for effect in spec.effects:
            if effect.at != "round_end" or not effect.when.evaluate(env):
                continue
            what, source, target = effect.arg
            sources = [s for s in range(self.n) if s != self.sitting] if source == "each" else [seat_of(source)]
            for giver in sources:
                if target == "nobody":
                    to = None
                elif target == "opponent":
                    side = self._side(giver)
                    to = next((s for s in self._after_order(giver) if s not in side), None)
                else:
                    to = seat_of(target)
                key = self.taken[giver] if what == "taken" else self.hands[giver]
                if what == "taken":
                    self.taken[giver] = 0
                if to is not None and to != giver:
                    self.taken[to] += key
                elif to == giver and what == "taken":
                    self.taken[giver] = key
                self._events.append({"type": "effect", "round": self.round, "seat": giver, "do": "move",
                                     "what": what, "to": to})

    def _void_round(self: Any) -> None:
        """Everyone passed and the file says the round is void (``all_pass.then: void``): it ends
        at once, nobody scoring and nobody out; the seats the previous round named stay named."""
        spec = self._round
        n = self.n
        self._events.append({"type": "round_end", "round": self.round, "out": None, "void": True,
                             "bonuses": {}, "treasures": [0] * n, "points": [0] * n,
                             "totals": list(self.totals), "cards_left": list(self.sizes),
                             "parts": [[] for _ in range(n)]})
        self._legal = None
        if self._game_over():
            return
        self.sitting = None                    # the next dealer is one of every seat
        self.dealer = self._seat(spec.deal.next_dealer)
        self._start_round(redeal=False)

    def _end_round(self: Any, out: int, given_to: int | None = None) -> None:
        spec = self._round
        n = self.n
        # the seat that played the last card takes the last trick (where play goes on, the last seat out)
        winner = (out if not self.out_order else self.out_order[-1]) if spec.play.last_trick_to_out else None
        if given_to is None and winner is not None:
            if self._play_spec.changes_at_trick_end:    # the last trick's values, once (not again after a choice)
                self._trick_end_values(winner)
            options = self._trick_end_options(winner)
            if options and len(options) > 1:
                self._choose(winner, None, options, out)
                return
            if options:
                given_to = options[0]
        line = {"type": "trick", "round": self.round, "winner": winner,
                "cards": self.game.card_names(self.trick_cards)}
        if given_to is not None:
            line["given_to"] = given_to
        self._events.append(line)
        taker = winner if given_to is None else given_to
        if taker is not None:
            self.taken[taker] += self.trick_key
        places = None
        if spec.play.ends_when is not None:
            places = self._places()
        if spec.play.effects:
            self._round_end_moves(places)
        bidder = self.bidder
        sides = self.sides
        # the bidder's side: the bidder, with the partner a partner phase named
        bidder_side = () if bidder is None else sides[bidder] if sides is not None else (bidder,)
        bidder_won = out in bidder_side
        sitting = self.sitting
        roles = {"bidder": (bidder,) if bidder is not None else (), "others": self.others,
                 "each": tuple(s for s in range(n) if s != sitting)}
        for role, holder in self.role_seats.items():        # a role a partner phase gave
            roles[role] = (holder,)
            roles["others"] = tuple(s for s in roles["others"] if s != holder)
        env = {"bid": self.bid or 0, "round": self.round, "players": self.in_round, "bidder_won": bidder_won,
               "_counts": dict(zip(self.game.combination_ids, self.combo_counts)), "_plays": self.plays,
               "_roles": roles}
        env["_calls"] = made_names(self)       # what called(NAME) reads (chimera_dsl.engine.phases.calls)
        scoring = spec.scoring
        seats = []
        teams = spec.play.teams
        for seat in range(n):
            if bidder is None:
                won = out in self._side(seat)
            else:
                won = bidder_won if seat in bidder_side else not bidder_won
            seats.append({"won": won and seat != sitting, "out_first": seat == out, "is_dealer": seat == self.dealer,
                          "cards_left": self.sizes[seat],
                          "plays": self.plays[seat], "card_points": scoring.card_points(self.taken[seat])})
            if places is not None and seat != sitting:
                seats[-1]["place"] = places.index(seat) + 1
                if teams or sides is not None:
                    side = self._side(seat)
                    seats[-1]["partner_place"] = next((places.index(s) + 1 for s in side if s != seat), 0)
            if seat == sitting:
                seats[-1]["sits_out"] = True
        bonuses, parts, treasures = scoring.score(env, seats, self.role_of, teams=teams, kept=self.values)
        points = [sum(p for _, p in parts[seat]) for seat in range(n)]
        for seat in range(n):
            self.totals[seat] += points[seat]
        end = {"type": "round_end", "round": self.round, "out": out}
        if places is not None:
            end["places"] = places
        word = spec.role_word
        if bidder is not None:
            end[f"{word}_won"] = bidder_won
        end.update({"bonuses": bonuses, "treasures": treasures, "points": points, "totals": list(self.totals)})
        if bidder is not None:
            end[word] = bidder
            end["bid"] = self.bid
        end["cards_left"] = list(self.sizes)
        end["parts"] = parts
        if self.values:
            end["values"] = {k: list(v) if isinstance(v, list) else v for k, v in self.values.items()}
        self._events.append(end)
        most = max(self.sizes)
        tied = [(out + i * self.step) % n for i in range(n)]
        self.previous = {"first_out": out, "most_cards_left": next(s for s in tied if self.sizes[s] == most)}
        if places is not None:
            self.previous["places"] = tuple(places)
        self._legal = None
        if self._game_over():
            return
        self.sitting = None                    # the next dealer is one of every seat
        self.dealer = self._seat(spec.deal.next_dealer)
        self._start_round(redeal=False)
