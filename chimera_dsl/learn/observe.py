"""What one seat may see, as a numpy vector of documented layout and as text, with the public
history of the round: for learners and for OpenSpiel (:mod:`chimera_dsl.learn.spiel`).

    table = Table(Game(rules), seed=7)          # an engine state and its public history
    encoder = Encoder(table.space)
    vector = encoder.encode(table, seat)        # float32, encoder.size long
    encoder.layout                              # [(part, shape), ...] in order

Needs numpy (the ``rl`` extra).  Everything is read from the seat's
:class:`~chimera_dsl.engine.Observation` and from the public actions of the game (the cards
each seat played, its bids, its trump, whom it named), never from another seat's hand: two
states that differ only in cards the seat cannot see give the same vector and the same text.

Seats are counted from the observing seat (0: itself, 1: the next seat in seat order, ...);
a one-hot over seats has one more entry, last, for "nobody".  Cards are counted per *look*:
each distinct card name of the deck (``7/red``) in deck order, two cards of one name being
interchangeable; ranks are the deck's ranks in order.  See :attr:`Encoder.layout` (and
docs/learning.md) for the parts.
"""
from __future__ import annotations

import random

try:
    import numpy as np
except ModuleNotFoundError as error:            # the optional extra is not installed
    raise ModuleNotFoundError(
        f"chimera_dsl.learn.observe needs numpy ({error.name} is missing): pip install 'chimera_dsl[rl]'",
        name=error.name) from None

from ..engine import KINDS, Action, Game, State
from .actions import ActionSpace

SCORE_BOUND = 10.0
PHASES = tuple(k for k in KINDS if k != "deal") + ("over",)


class Table:
    """One game in progress (an engine :class:`~chimera_dsl.engine.State`) with its public
    history: per action taken, ``(round, seat, action id, cards it showed)``, the cards shown
    being the cards a play or a trick's card moved to the table (a bit mask over the deck).

    ``apply(action_id)`` takes the action of that id for the seat to act;
    ``resample(seat, rng)`` is a copy in which the cards the seat cannot see are dealt again
    (:meth:`Observation.sample <chimera_dsl.engine.Observation.sample>`), the history kept.
    """

    def __init__(self, game: Game, seed=None, space: ActionSpace | None = None, state: State | None = None,
                 history: list | None = None):
        self.game = game
        self.space = space if space is not None else ActionSpace(game)
        self.state: State = state if state is not None else game.new_game(seed)
        self.history: list[tuple[int, int, int, int]] = list(history or [])

    def apply(self, action_id: int) -> Action:
        """Take the action of ``action_id`` for the seat to act; the engine's action taken."""
        state = self.state
        seat = state.current_player()
        action = self.space.decode(action_id, state)
        round_before = state.observation(seat).round
        before = state.observation(seat).held
        state.apply_action(action)
        shown = 0
        if action.kind in ("play", "card"):
            after = state.observation(seat)
            if action.kind == "card":
                shown = action.mask
            elif after.round == round_before:
                shown = before & ~after.held
            else:       # the play ended the round: its cards, as the play names them or by rank
                shown = getattr(action.play, "mask", None) or self.game.rules.deck.take(before, action.play.key)
        self.history.append((round_before, seat, int(action_id), shown))
        return action

    def clone(self) -> "Table":
        """An independent copy."""
        return Table(self.game, space=self.space, state=self.state.clone(), history=self.history)

    def resample(self, seat: int, rng: random.Random) -> "Table":
        """A copy in which every card ``seat`` cannot know the place of is dealt again at random."""
        world = self.state.observation(seat).sample(rng)
        return Table(self.game, space=self.space, state=world, history=self.history)

    def round_history(self) -> list[tuple[int, int, int, int]]:
        """The history of the current round."""
        state = self.state
        now = state.observation(0).round
        out = []
        for entry in reversed(self.history):
            if entry[0] != now:
                break
            out.append(entry)
        out.reverse()
        return out


class Encoder:
    """Vectors and texts of what one seat sees (see the module's text and :attr:`layout`)."""

    def __init__(self, space: ActionSpace):
        self.space = space
        game = space.game
        rules = game.rules
        deck = rules.deck
        self.game = game
        self.n = n = game.players
        self.looks = len(space.names)
        self.ranks = len(deck.ranks)
        self.colours = len(deck.colours)
        self._look_of_card = [space.name_index[name] for name in deck.card_names]
        self._rank_of_look = [deck.card_rank[deck.card_names.index(name)] for name in space.names]
        self.levels = list(game.bid_actions)
        self.layers = 0
        self.roles: list[str] = []
        hand = 0
        for phase in game.round.phases:
            if phase.kind == "tricks":
                self.layers = max(self.layers, int(getattr(phase, "layers", 1)))
            if phase.kind == "deal":
                hand = int(getattr(phase, "hand", 0))
            for name in ("role", "second"):
                role = getattr(phase, name, None)
                if isinstance(role, str) and role not in self.roles:
                    self.roles.append(role)
        self._top_bid = float(max(self.levels)) if self.levels else float(max(hand, 1))
        self._hand = float(max(hand, 1))
        self._scale = float(game.target) if game.target else 100.0
        L, R = self.looks, self.ranks
        self.trump_options = self.colours + self.ranks + 1
        layout: list[tuple[str, tuple[int, ...]]] = [
            ("hand", (L,)), ("hand_sizes", (n,)), ("played", (n, L)), ("trick", (n, L)),
            ("last_play", (L,)), ("last_player", (n + 1,)), ("face_up", (L,)), ("face_up_holder", (n + 1,)),
            ("laid", (n, L)), ("nest", (R,)), ("seen_given", (n, R)), ("seen_received", (n, R)),
            ("trumps", (self.layers, self.trump_options + 1)), ("bidder", (n + 1,)), ("bid_level", (len(self.levels),)),
            ("bid", (1,)), ("roles", (len(self.roles), n + 1)), ("tricks", (n,)), ("scores", (n,)),
            ("phase", (len(PHASES),)), ("to_act", (n + 1,)), ("flags", (3,))]
        self.layout = layout
        self.size = sum(int(np.prod(shape)) for _name, shape in layout)
        self._offsets: dict[str, tuple[int, tuple[int, ...]]] = {}
        at = 0
        for name, shape in layout:
            self._offsets[name] = (at, shape)
            at += int(np.prod(shape))

    def bounds(self) -> tuple["np.ndarray", "np.ndarray"]:
        """The least and greatest value of each entry of a vector (for a gymnasium ``Box``)."""
        low = np.zeros(self.size, dtype=np.float32)
        high = np.ones(self.size, dtype=np.float32)
        deck = self.game.rules.deck
        look = float(max(self.space.name_copies))
        rank = float(max(self.space.rank_copies))
        for name in ("hand", "played", "trick", "last_play", "laid"):
            self.view(high, name)[...] = look
        for name in ("nest", "seen_given", "seen_received"):
            self.view(high, name)[...] = rank
        self.view(high, "hand_sizes")[...] = float(len(deck.cards))
        self.view(high, "tricks")[...] = float(len(deck.cards))
        self.view(high, "scores")[...] = SCORE_BOUND
        self.view(low, "scores")[...] = -SCORE_BOUND
        return low, high

    # -- parts ------------------------------------------------------------------------------------
    def view(self, vector: "np.ndarray", part: str) -> "np.ndarray":
        """The part ``part`` of ``vector`` in its shape (a view: writing it writes the vector)."""
        at, shape = self._offsets[part]
        return vector[at:at + int(np.prod(shape))].reshape(shape)

    def _add_cards(self, row: "np.ndarray", mask: int) -> None:
        look = self._look_of_card
        while mask:
            low = mask & -mask
            row[look[low.bit_length() - 1]] += 1.0
            mask ^= low

    def _add_ranks(self, row: "np.ndarray", key: int | None) -> None:
        if key:
            counts = self.game.rules.deck.counts(key)
            row[:len(counts)] += np.asarray(counts, dtype=np.float32)

    def _seat(self, row: "np.ndarray", other: int | None, seat: int) -> None:
        row[self.n if other is None else (other - seat) % self.n] = 1.0

    def encode(self, table: Table, seat: int, private: bool = True, out: "np.ndarray | None" = None) -> "np.ndarray":
        """The vector of what ``seat`` sees in ``table`` (``private=False``: without its hand
        and what it alone saw handed over: the public part only)."""
        vector = np.zeros(self.size, dtype=np.float32) if out is None else out
        if out is not None:
            vector.fill(0.0)
        state = table.state
        obs = state.observation(seat)
        n = self.n
        rel = [(seat + i) % n for i in range(n)]
        part = self.view
        if private:
            self._add_cards(part(vector, "hand"), obs.held)
        part(vector, "hand_sizes")[:] = [obs.hand_sizes[s] for s in rel]
        history = table.round_history()
        played = part(vector, "played")
        for _round, who, _action, shown in history:
            if shown:
                self._add_cards(played[(who - seat) % n], shown)
        trick = part(vector, "trick")
        view = obs.table or {}
        if view.get("trick_cards") is not None and obs.table:
            for who, card in view["trick_cards"]:
                self._add_cards(trick[(who - seat) % n], 1 << card)
        else:
            plays = [entry for entry in history if entry[3]]
            count = len(obs.trick or ())
            for _round, who, _action, shown in (plays[-count:] if count else []):
                self._add_cards(trick[(who - seat) % n], shown)
        if obs.last_play is not None:
            last = next((entry for entry in reversed(history) if entry[3] and entry[1] == obs.last_player), None)
            if last is not None:
                self._add_cards(part(vector, "last_play"), last[3])
        self._seat(part(vector, "last_player"), obs.last_player, seat)
        number = getattr(state, "face_up_card", None)
        if obs.face_up is not None and number is not None:
            part(vector, "face_up")[self._look_of_card[number]] = 1.0
            self._seat(part(vector, "face_up_holder"), obs.face_up[1], seat)
        else:
            self._seat(part(vector, "face_up_holder"), None, seat)
        laid = part(vector, "laid")
        for who, mask in enumerate(view.get("laid") or ()):
            if mask:
                self._add_cards(laid[(who - seat) % n], mask)
        if private:                 # the nest, once its holder took it (to all, when the variant shows it)
            self._add_ranks(part(vector, "nest"), obs.nest)
        given, received = part(vector, "seen_given"), part(vector, "seen_received")
        for _phase, giver, to, key in obs.transfers or ():
            if private or seat not in (giver, to):
                self._add_ranks(given[(giver - seat) % n], key)
                self._add_ranks(received[(to - seat) % n], key)
        trumps = part(vector, "trumps")
        for layer, name in enumerate((view.get("trumps") or [])[:self.layers]):
            trumps[layer, self._trump_index(name)] = 1.0
        for layer in range(len(view.get("trumps") or []), self.layers):
            trumps[layer, self.trump_options] = 1.0
        self._seat(part(vector, "bidder"), obs.bidder, seat)
        if obs.bid is not None and obs.bid in self.levels:
            part(vector, "bid_level")[self.levels.index(obs.bid)] = 1.0
        part(vector, "bid")[0] = min(1.0, (obs.bid or 0) / self._top_bid)
        roles = part(vector, "roles")
        held_roles = view.get("roles") or {}
        for i, role in enumerate(self.roles):
            self._seat(roles[i], held_roles.get(role), seat)
        if view.get("tricks"):
            part(vector, "tricks")[:] = [view["tricks"][s] / self._hand for s in rel]
        part(vector, "scores")[:] = [max(-SCORE_BOUND, min(SCORE_BOUND, obs.totals[s] / self._scale)) for s in rel]
        kind = obs.kind if obs.kind in PHASES else "over"
        part(vector, "phase")[PHASES.index(kind)] = 1.0
        to_act = state.current_player()
        self._seat(part(vector, "to_act"), to_act if to_act >= 0 else None, seat)
        flags = part(vector, "flags")
        flags[0] = 1.0 if obs.kind == "play" and obs.last_play is None and to_act == seat else 0.0
        flags[1] = 1.0 if obs.interrupt and to_act == seat else 0.0
        flags[2] = 1.0 if obs.reversed else 0.0
        return vector

    def _trump_index(self, name: str | None) -> int:
        """The place of a trump (as the table names it: a colour, a rank or ``none``) in a layer's row."""
        deck = self.game.rules.deck
        if name is None:
            return self.trump_options
        if name == "none":
            return self.trump_options - 1
        if name in deck.colours:
            return deck.colours.index(name)
        return self.colours + deck.ranks.index(name)

    # -- text ---------------------------------------------------------------------------------------
    def text(self, table: Table, seat: int, private: bool = True, history: bool = False) -> str:
        """What ``seat`` sees, as one line of text (``private=False``: its public part only);
        ``history``: with every public action of the game so far (an information state: what
        the seat saw happen and what it holds, so it remembers the round exactly)."""
        state = table.state
        obs = state.observation(seat)
        space = self.space
        deck = self.game.rules.deck
        parts = [f"seat {seat}", f"round {obs.round}", f"dealer {obs.dealer}", f"phase {obs.phase}",
                 f"to act {state.current_player()}"]
        if private:
            parts.append("hand " + " ".join(deck.mask_names(obs.held)))
        parts.append("sizes " + ",".join(map(str, obs.hand_sizes)))
        parts.append("totals " + ",".join(map(str, obs.totals)))
        if obs.bidder is not None or obs.bid is not None:
            parts.append(f"bidder {obs.bidder} bid {obs.bid}")
        if obs.face_up is not None:
            parts.append(f"face up {obs.face_up_card} with {obs.face_up[1]}")
        if obs.nest is not None and private:
            parts.append("nest " + " ".join(deck.names_of(obs.nest)))
        for _phase, giver, to, key in obs.transfers or ():
            if private or seat not in (giver, to):
                parts.append(f"{giver} gave {to} " + " ".join(deck.names_of(key)))
        view = obs.table or {}
        if view:
            parts.append("trumps " + ",".join(str(t) for t in view.get("trumps") or []))
            if any(view.get("laid") or ()):
                parts.append("laid " + "; ".join(" ".join(deck.mask_names(m)) for m in view["laid"]))
            if view.get("roles"):
                parts.append("roles " + ",".join(f"{k}={v}" for k, v in sorted(view["roles"].items())))
            parts.append("trick " + ",".join(f"{s}:{c}" for s, c in view.get("trick") or []))
        elif obs.trick:
            parts.append("trick " + ",".join(f"{s}:{' '.join(p.cards)}" for s, p in obs.trick))
        if obs.interrupt:
            parts.append("interrupt")
        if obs.reversed:
            parts.append("reversed")
        if history:
            lines = []
            for round_, who, action_id, _shown in table.history:
                lines.append(f"r{round_} {who} {space.describe_public(action_id)}")
            parts.append("history " + "; ".join(lines))
        return " | ".join(parts)


__all__ = ["Table", "Encoder", "PHASES"]
