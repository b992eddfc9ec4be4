"""A person at the table: the Player protocol over a text stream (``chimera play``).

:class:`HumanPlayer` sees exactly what a bot sees, the seat's
:class:`~chimera_dsl.engine.Observation` and the legal actions, shows it as text and reads
the person's choice: cards as the command line types them (``7 7 7 5``, ``7,7,7,5``, any
case), ``pass`` or ``-``, a bid (``20``), ``?`` / ``moves`` for the legal choices numbered and
``#3`` to take one of them, ``look``, ``help``, ``quit``.  A mistyped or illegal choice gets
a message and the question again; the end of the input or ``quit`` raises
:class:`LeftTheTable`.

:func:`play_at_table` plays a game with the person at one seat and computer players at the
others, telling the table's events to the person as they happen through a
:class:`~chimera_dsl.tell.printer.Teller` that sees from that seat (no other hand is ever shown).
"""
from __future__ import annotations

import functools

import sys
from typing import Callable, Sequence, TextIO

from ..engine import PASS, Action, Game, Observation, State
from ..tell.articles import contracted, word as file_word
from ..errors import CardError
from ..matcher import Play
from ..tell.catalog import Section
from ..tell.decisions import trick_words
from ..tell.printer import Teller, say as catalog_say
from ..engine.phases.tricks import KINDS as TRICK_KINDS
from ..tell.wording import trick_action_fields, trick_action_text
from . import Player, PlayerError, make_player, play_game, split_players

QUIT_WORDS = frozenset({"quit", "exit"})
PASS_WORDS = frozenset({"pass", "-"})
LIST_WORDS = frozenset({"?", "moves"})

WORDS = Section("player")
"""What the person at the table reads, by language: the ``player`` section of each catalog;
its ``typed`` words are read besides the English ones (``passe`` as well as ``pass``)."""

HELP = WORDS["en"]["help"]
"""What the person may type, in English (``help``)."""
HELP_TRICKS = WORDS["en"]["help_tricks"]
"""What the person may type in a trick-taking phase, in English, its examples to fill in."""


class LeftTheTable(Exception):
    """The person left before the end of the game: ``reason`` is ``"quit"``, ``"end of input"``
    or ``"interrupted"``; ``state`` is the game as it stood (set by :func:`play_at_table`)."""

    def __init__(self, reason: str, state: State | None = None):
        super().__init__(reason)
        self.reason = reason
        self.state = state


class _Again(Exception):
    """The input was not a choice: say why (if anything) and ask again."""


class HumanPlayer:
    """A person choosing through a text stream (default standard input and output).

    ``echo``: write each line read after its prompt, so that a transcript of piped input
    reads like a session at a terminal (default: when the input is not a terminal).
    """

    name = "human"

    def __init__(self, input: TextIO | None = None, output: TextIO | None = None, echo: bool | None = None,
                 lang: str = "en"):
        self.lang = lang if lang in WORDS else "en"
        self.words = WORDS[self.lang]
        typed = self.words["typed"]
        self.quit_words = QUIT_WORDS | {w.lower() for w in typed["quit"]}
        self.pass_words = PASS_WORDS | {w.lower() for w in typed["pass"]}
        self.list_words = LIST_WORDS | {w.lower() for w in typed["moves"]}
        self.help_words = {"help"} | {w.lower() for w in typed["help"]}
        self.look_words = {"look"} | {w.lower() for w in typed["look"]}
        self.back_words = {"back", ""} | {w.lower() for w in typed["back"]}
        self.input = input if input is not None else sys.stdin
        self.output = output if output is not None else sys.stdout
        self._trumps: list = []            # the trumps the current trump phase offers, by action number
        self._kind: str | None = None      # the kind of the phase last shown (a pass reads by it)
        if echo is None:
            isatty = getattr(self.input, "isatty", None)
            echo = not (isatty() if callable(isatty) else False)
        self.echo = echo
        self._teller: Teller | None = None
        self._readline_tried = False

    # -- talking -------------------------------------------------------------------------------
    def t(self, key: str, n: int | None = None, **fields) -> str:
        """One sentence of the ``player`` catalog in this player's language."""
        return contracted(catalog_say(self.words, key, n, **fields), self.lang)

    def say(self, text: str = "") -> None:
        """Write one line to the person."""
        self.output.write(text + "\n")
        self.output.flush()

    def ask(self, prompt: str) -> str:
        """Ask with ``prompt`` and read one line (:class:`LeftTheTable` at the end of the input)."""
        try:
            if self._at_terminal():
                try:
                    line = input(prompt) + "\n"      # line editing and history at a terminal
                except EOFError:
                    line = ""
            else:
                self.output.write(prompt)
                self.output.flush()
                line = self.input.readline()
        except KeyboardInterrupt:
            self.say()
            raise LeftTheTable("interrupted") from None
        if not line:
            self.say()
            raise LeftTheTable("end of input")
        line = line.strip()
        if self.echo:
            self.output.write(line + "\n")
            self.output.flush()
        if line.lower() in self.quit_words:
            raise LeftTheTable("quit")
        return line

    def _at_terminal(self) -> bool:
        """Are the input and output the terminal of this process (then ``input()`` reads)?"""
        if self.input is not sys.stdin or self.output is not sys.stdout or self.echo:
            return False
        if not self._readline_tried:
            self._readline_tried = True
            try:
                import readline  # noqa: F401  (gives input() line editing)
            except ImportError:
                pass
        return True

    def teller(self, rules) -> Teller:
        if self._teller is None or self._teller.rules is not rules:
            self._teller = Teller(rules, lang=self.lang)
        return self._teller

    # -- the Player protocol -----------------------------------------------------------------
    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """Show the table as ``observation`` sees it and read a choice among ``legal_actions``."""
        legal = list(legal_actions)
        if legal == [PASS]:
            self.say("  " + self.t("only_pass", why=self._why_only_pass(observation)))
            return PASS
        self.say()
        for line in self.view(observation):
            self.say(line)
        prompt = self.prompt(observation, legal)
        while True:
            text = self.ask(prompt)
            try:
                return self.choose(text, observation, legal)
            except _Again as again:
                if str(again):
                    self.say(str(again))

    def _why_only_pass(self, obs: Observation) -> str:
        if obs.kind == "bidding":
            return self.t("only_pass_bidding")
        if obs.kind == "play" and obs.last_play is not None:
            return self.t("only_pass_play", play=self.play_text(obs.rules, obs.last_play))
        return ""

    # -- what the seat sees -----------------------------------------------------------------
    def play_text(self, rules, play: Play) -> str:
        """``7 7 7 5 [Trio with a single, rank 7]``."""
        teller = self.teller(rules)
        return self.t("play", cards=" ".join(play.cards), combination=teller.combination_name(play.combination),
                      rank=teller.rank_name(play.rank))

    def action_text(self, rules, action: Action) -> str:
        if action.kind == "bid":
            return self.t("action_bid", bid=action.bid)
        if action.kind == "give":
            return self.t("action_give", cards=" ".join(rules.deck.names_of(action.cards or 0)))
        if action.kind == "play" and action.play is not None:
            return self.play_text(rules, action.play)
        if action.kind in ("card", "lay", "trump", "partner", "call", "wish", "trick_to") \
                or self._kind in ("trump", "calls"):
            return self.trick_text(rules, action, self._kind)
        return self.t("action_pass") if action.kind == "pass" else action.kind

    def trick_text(self, rules, action: Action, kind: str | None) -> str:
        """A trick-taking decision in words, in this player's language (:func:`~chimera_dsl.tell.decisions.trick_words`)."""
        return trick_words(rules, action, self._trumps, kind, self.lang)

    def view(self, obs: Observation) -> list[str]:
        """The lines that show the table from this seat: only what ``obs`` holds."""
        rules = obs.rules
        teller = self.teller(rules)
        names = rules.deck.names_of
        me = obs.seat
        who = lambda seat: teller.say("you", name=teller.say("seat", seat)) if seat == me \
            else teller.say("seat", seat)    # noqa: E731
        listed = teller.words["list"].join
        self._kind = obs.kind
        out = [self.t("view_head", round=obs.round, phase=self._phase(obs), who=who(me))]
        scores = listed(teller.say("seat_points", who=who(s), points=t) for s, t in enumerate(obs.totals))
        # a game of a number of rounds, or ended by a condition, has no target to show ("target 0")
        out.append("  " + (self.t("view_scores", list=scores, target=obs.target) if obs.target
                           else self.t("view_scores_plain", list=scores)))
        if obs.face_up is not None:
            card, holder = obs.face_up
            # a card turned from the stock (deal.turn_up) stays undealt; else it stayed in the nest
            deal_spec = rules.spec.get("deal") or {}
            drawn = bool((rules.spec.get("play") or {}).get("draw"))       # it lies on the stock drawn from
            unheld = ("face_up_turned" if deal_spec.get("complete") or drawn else "face_up_undealt") \
                if deal_spec.get("turn_up") else "face_up_nest"
            where = teller.say(unheld) if holder is None else self.t("view_face_up_went", who=who(holder))
            out.append("  " + self.t("view_face_up", card=obs.face_up_card or rules.deck.ranks[card], where=where))
        for zone in obs.zones or ():          # a stock drawn from after each trick, and the cards drawn face up
            if zone.name == "stock" and zone.size is not None:
                out.append("  " + self.t("view_stock", zone.size))
            elif zone.name == "drawn" and zone.cards and zone.owner != me:
                out.append("  " + self.t("view_drawn_open", who=who(zone.owner),
                                         cards=" ".join(rules.deck.mask_names(zone.cards))))
        if obs.bids and obs.bidder is None:
            said = []
            for seat, bid, forced in obs.bids:
                key = "bid_pass" if bid is None else "bid_must" if forced else "bid"
                said.append(teller.say(key, who=who(seat), bid=bid))
            out.append("  " + teller.say("bidding", list=listed(said)))
        if obs.bidder is not None and obs.bid is not None:      # (trump made from a turned card has no bid)
            # a declarer found without bids (the first to name a game) holds the role at no bid
            out.append("  " + (teller.say("role", who=who(obs.bidder), bid=obs.bid) if obs.bid
                               else teller.say("role_plain", who=who(obs.bidder))))
        if obs.nest is not None:
            whose = self.t("view_nest_yours") if obs.bidder == me else self.t("view_nest_theirs", who=who(obs.bidder))
            out.append("  " + self.t("view_nest", whose=whose, cards=" ".join(names(obs.nest))))
        if obs.given is not None or obs.received is not None:
            giver, taker = self._exchange_partners(obs)
            if obs.given is not None:
                out.append("  " + self.t("view_gave", cards=teller.cards(names(obs.given)), who=who(taker)))
            if obs.received is not None:
                out.append("  " + self.t("view_received", cards=teller.cards(names(obs.received)), who=who(giver)))
        if obs.kind != "bidding":
            out.append("  " + self.t("view_sizes", list=listed(teller.say("seat_points", who=who(s), points=n)
                                                               for s, n in enumerate(obs.hand_sizes) if s != me)))
        if obs.calls:
            out.append("  " + self.t("view_calls", list=listed(f"{who(seat)} {', '.join(made)}"
                                                               for seat, made in obs.calls.items())))
        if obs.unseen:
            out.append("  " + self.t("view_unseen", obs.unseen))
        if obs.kind == "play":
            if obs.trick:
                plays = listed(self.t("view_plays", who=who(seat), play=self.play_text(rules, play))
                               for seat, play in obs.trick)
                if obs.passes:
                    plays += self.t("view_passes", obs.passes)
                out.append("  " + self.t("view_trick", plays=plays))
            else:
                out.append("  " + self.t("view_you_lead"))
        table = obs.table
        if table:
            self._trumps = table.get("trump_options") or []
            trumps = [t for t in table["trumps"] if t is not None]
            if trumps:
                out.append("  " + self.t("view_trumps", list=listed(teller.colour(t) for t in trumps)))
            # cards laid face up stay in view while their holder keeps them; once played they
            # are in the trick or the tricks taken, no longer in front of that seat
            played = table.get("played") or 0
            laid = [(s, m & ~played) for s, m in enumerate(table.get("laid") or []) if m & ~played]
            for seat, mask in laid:
                out.append("  " + self.t("view_laid", who=who(seat), cards=" ".join(rules.deck.mask_names(mask))))
            # an auction of contracts: its calls so far, or the contract; the dummy's cards, face up
            auction = table.get("auction")
            if auction and obs.kind == "contract":
                from .heuristic import config_for
                phase = next(p for p in config_for(rules).phases if p.name == obs.phase)
                said = [teller.say("auction_bid", who=who(seat), level=phase.bid_name(bid).partition(" ")[0],
                                   strain=teller.strain(phase.bid_name(bid).partition(" ")[2]))
                        if kind == "bid" else teller.say(f"auction_{kind}", who=who(seat))
                        for seat, kind, bid in auction["calls"]]
                if said:
                    out.append("  " + self.t("view_auction", list=listed(said)))
            for seat, mask in (table.get("exposed") or {}).items():
                out.append("  " + self.t("view_dummy", who=who(seat), cards=" ".join(rules.deck.mask_names(mask))))
            if obs.kind == "tricks" and table.get("dummy") is not None and table.get("turn") == table["dummy"] != me:
                out.append("  " + self.t("view_for_dummy", who=who(table["turn"])))
            if obs.kind == "tricks":
                played = listed(teller.say("card", who=who(seat), card=card) for seat, card in table["trick"])
                out.append("  " + (self.t("view_trick", plays=played) if played else self.t("view_you_lead")))
                out.append("  " + teller.say("tricks_taken", list=listed(teller.say("seat_points", who=who(s), points=n)
                                                                         for s, n in enumerate(table["tricks"]))))
            out.append("  " + self.t("view_cards", cards=" ".join(obs.cards)))
            return out
        n = rules.deck.size_of(obs.hand)
        held = obs.cards if rules.reads_colours else names(obs.hand)     # the very cards where colours count
        out.append("  " + self.t("view_hand", n, cards=teller.cards(held)))
        return out

    def _phase(self, obs: Observation) -> str:
        """The phase in this language: the file's name for it (``phases.*.names``), else the
        catalog's word for a phase of that name or kind, else its name as the file writes it."""
        names = ((obs.rules.spec.get("phases") or {}).get(obs.phase) or {}).get("names") or {}
        if isinstance(names, dict) and names.get(self.lang):      # English too: the file's words, not its id
            return str(names[self.lang])
        phases = self.words["phases"]
        if self.lang != "en" and obs.phase not in phases and obs.kind in phases:
            return str(phases[obs.kind])            # a phase of the file's own name, by its kind
        return str(phases.get(obs.phase, obs.phase))

    @staticmethod
    def _exchange_partners(obs: Observation) -> tuple[int | None, int | None]:
        """(who gives to this seat, whom it gives to) in the exchange between the others, or, in a
        round without a bidder, as this round's transfers seen say (the passing of Hearts)."""
        if obs.bidder is None:
            seen = list(getattr(obs, "transfers", None) or ())
            giver = next((g for _, g, to, _ in reversed(seen) if to == obs.seat), None)
            taker = next((to for _, g, to, _ in reversed(seen) if g == obs.seat), None)
            return giver, taker
        others = [(obs.bidder + i) % obs.players for i in range(1, obs.players)]
        if obs.seat not in others:
            return None, None
        i = others.index(obs.seat)
        return others[i - 1], others[(i + 1) % len(others)]

    def prompt(self, obs: Observation, legal: Sequence[Action] = ()) -> str:
        """The question put to the person at this decision (``legal``: what may be chosen)."""
        if obs.kind == "trump":
            return self.t("ask_trump", choices=self._trump_words(obs, legal)) + "> "
        if obs.kind == "order_up":              # trump from the turned card: its words, one per choice
            return self.t("ask_order_up", choices=", ".join(self._order_up_word(obs, a) for a in legal)) + "> "
        if obs.kind == "solo":                  # one against the others: its words, one per choice
            return self.t("ask_order_up", choices=self._solo_choices(obs, legal)) + "> "
        if obs.kind in TRICK_KINDS:
            names = obs.rules.deck.mask_names(obs.held or 0) or [self.t("a_card")]
            return {"tricks": self.t("ask_card", card=names[0]),
                    "auction": self.t("ask_lay", cards=" ".join(names[:2])),
                    "partner": self.t("ask_partner")}[obs.kind] + "> "
        offered = [self.trick_text(obs.rules, a, obs.kind) for a in legal if a.kind == "call"]
        if obs.kind == "calls":
            return self.t("ask_call", call=offered[0] if offered else self.t("a_call")) + "> "
        if offered and obs.kind == "play":
            calls = self.words["calls_or"].join(offered)
            return (self.t("ask_lead_or_call", calls=calls) if obs.last_play is None else
                    self.t("ask_beat_or_call", play=self.play_text(obs.rules, obs.last_play), calls=calls)) + "> "
        if obs.kind == "bids":                       # a number of tricks, no pass
            return self.t("ask_bid_tricks", n=max((a.bid for a in legal if a.kind == "bid"), default=0)) + "> "
        if obs.kind == "bidding":
            return self.t("ask_bid") + "> "
        if obs.kind == "contract":                    # a call of an auction of contracts
            return self.t("ask_contract") + "> "
        if obs.kind == "transfer":
            count = obs.exchange_count
            _, taker = self._exchange_partners(obs)
            if taker is not None:
                return self.t("ask_give_to", count, seat=taker) + "> "
            return self.t("ask_give", count) + "> "
        if obs.interrupt:
            return self.t("ask_interrupt", play=self.play_text(obs.rules, obs.last_play)) + "> "
        if obs.last_play is None:
            return self.t("ask_lead") + "> "
        return self.t("ask_beat", play=self.play_text(obs.rules, obs.last_play)) + "> "

    def _order_up_word(self, obs: Observation, action: Action) -> str:
        """What to type for ``action`` of an order_up phase: a colour, a card, alone, or pass."""
        deck = obs.rules.deck
        if action.kind == "trump":
            return deck.colours[action.cards]
        if action.kind == "card":
            return deck.card_names[action.mask.bit_length() - 1]
        if action.kind == "alone":
            return self.t("typed_alone")
        return self.t("typed_pass")

    def _solo_word(self, obs: Observation, action: Action) -> str:
        """What to type for ``action`` of a solo phase: a value, hold, take, hand, a game or an
        announcement by its name in this language, a card, or pass."""
        solo = (obs.table or {}).get("solo") or {}
        if action.kind == "bid":
            return str(action.bid)
        if action.kind == "game":
            game = solo["games"][action.cards]
            return dict(game.names).get(self.lang, game.name)
        if action.kind == "declare":
            said = solo["declarations"][action.cards]
            return dict(said.names).get(self.lang, said.name)
        if action.kind == "card":
            return obs.rules.deck.card_names[action.mask.bit_length() - 1]
        if action.kind in ("hold", "take", "hand"):
            return self.t("typed_" + action.kind)
        return self.t("typed_pass")

    def _solo_choices(self, obs: Observation, legal: Sequence[Action]) -> str:
        """The choices of a solo phase as typed; the values bid as a range when they are many."""
        bids = [a.bid for a in legal if a.kind == "bid"]
        words = [self._solo_word(obs, a) for a in legal if a.kind != "bid"]
        if len(bids) > 3:
            words.insert(1, f"{bids[0]}..{bids[-1]}")
        else:
            words[1:1] = [str(b) for b in bids]
        return ", ".join(words)

    def _trump_words(self, obs: Observation, legal: Sequence[Action]) -> str:
        """The trumps this seat may choose, named when they are few, else by their kinds; and pass."""
        offered = [a for a in legal if a.kind == "trump"]
        if len(offered) <= 12:
            words = [self.trick_text(obs.rules, a, obs.kind) for a in offered]
        else:
            kinds = {self._trumps[a.cards][0] for a in offered if isinstance(a.cards, int) and 0 <= a.cards < len(self._trumps)}
            words = [self.t("trump_" + k) for k in ("colour", "rank", "none") if k in kinds]
        if any(a.kind == "pass" for a in legal):
            words.append(self.t("typed_pass"))
        if len(words) < 2:
            return "".join(words)
        return self.t("choices", list=", ".join(words[:-1]) + self.words["choices_comma"][len(words) > 2],
                      last=words[-1])

    # -- reading a choice ---------------------------------------------------------------------
    def choose(self, text: str, obs: Observation, legal: list[Action]) -> Action:
        """The action ``text`` names, or :class:`_Again` with the reason it names none."""
        word = text.lower()
        rules = obs.rules
        if not word:
            raise _Again(self.t("again_empty"))
        if word in self.help_words:
            raise _Again(self._help_tricks(obs) if obs.kind in TRICK_KINDS else self.t("help"))
        if word in self.look_words:
            raise _Again("\n".join(self.view(obs)))
        first = word.split(None, 1)[0]
        if first in self.list_words:
            raise _Again(self.list_moves(word[len(first):].strip(), obs, legal))
        if word.startswith("#"):
            return self._numbered(word[1:].strip(), legal)
        if obs.kind == "solo":
            for action in legal:
                if word == self._solo_word(obs, action).lower() or (action.kind == "pass" and word in self.pass_words):
                    return action
            raise _Again(self.t("again_order_up", choices=self._solo_choices(obs, legal)))
        if obs.kind == "order_up":
            for action in legal:
                if word == self._order_up_word(obs, action).lower() or (action.kind == "pass" and word in self.pass_words):
                    return action
            raise _Again(self.t("again_order_up", choices=", ".join(self._order_up_word(obs, a) for a in legal)))
        if word in self.pass_words:
            if PASS in legal:
                return PASS
            if obs.kind in TRICK_KINDS:
                raise _Again(self.t("again_no_pass"))
            if obs.kind == "transfer":
                raise _Again(self.t("again_must_give", n=obs.exchange_count))
            raise _Again(self.t("again_must_lead"))
        if first == "call":                 # a call (calls): "call", or "call" and its name
            return self._call(word[len(first):].strip(), rules, legal)
        if obs.kind in ("bidding", "bids"):
            return self._bid(text, legal, rules)
        if obs.kind == "contract":
            return self._contract_call(word, obs, legal)
        if obs.kind in TRICK_KINDS:
            wanted = " ".join(word.replace("lay ", "").replace("partner ", "").split())
            for action in legal:
                said = trick_action_text(rules, action, self._trumps, obs.kind).lower()
                named = trick_action_fields(rules, action, self._trumps, obs.kind).get("trump")
                if wanted in (said, said.replace("lay ", "").replace("partner seat ", ""),
                              self.trick_text(rules, action, obs.kind).lower()) or \
                        (named is not None and wanted == named.lower()):     # "none" as the record writes it
                    return action
            return self._trick_cards(text, obs, legal)
        try:
            key = rules.cards_key(text, check_deck=False)
        except CardError as error:
            raise _Again(self.t("again_cards", error=error)) from None
        if not rules.deck.contains(obs.hand, key):
            raise _Again(self._not_held(rules, obs.hand, key))
        if obs.kind == "transfer":
            return self._give(key, obs, legal)
        typed = None
        if rules.card_plays is not None:          # plays name their very cards: a colour typed counts
            typed = rules.deck.parse_colours(text)
            try:
                rules.deck.cards_mask(text, within=obs.held or 0)
            except CardError:
                raise _Again(self.t("again_not_held", cards=text.strip())) from None
        return self._play(text, key, obs, legal, typed)

    def _contract_call(self, word: str, obs: Observation, legal: list[Action]) -> Action:
        """The call ``word`` names in an auction of contracts: double, redouble (in English or as
        the game tells them), or a level and a strain (``3 hearts``, ``1 none``, ``2 nt``, a
        colour in this language)."""
        teller = self.teller(obs.rules)
        for kind in ("double", "redouble"):
            told = teller.say(f"auction_{kind}", who="").strip().lower()
            if word in (kind, told):
                action = Action(kind)
                if action in legal:
                    return action
                raise _Again(self.t("again_contract", call=word))
        level, _, strain = word.partition(" ")
        from .heuristic import config_for
        phase = next(p for p in config_for(obs.rules).phases if p.name == obs.phase)
        names = {}
        for i, name in enumerate(phase.strain_names):
            names[name.lower()] = i
            names[teller.strain(name).lower()] = i
        names.setdefault("nt", names.get("none", -1))
        if level.isdigit() and strain.strip() in names and names[strain.strip()] >= 0:
            index = (int(level) - phase.low) * len(phase.strains) + names[strain.strip()]
            action = Action("bid", bid=index)
            if index >= 0 and action in legal:
                return action
        raise _Again(self.t("again_contract", call=word))

    def _call(self, named: str, rules, legal: list[Action]) -> Action:
        """The call ``named`` (its id or its name; empty: the only one offered) among ``legal``."""
        offered = [a for a in legal if a.kind == "call"]
        if not offered:
            raise _Again(self.t("again_no_call"))
        for action in offered:
            said = trick_action_text(rules, action).lower()          # "call grand tichu"
            ident = str(trick_action_fields(rules, action).get("call", "")).lower()
            if not named and len(offered) == 1 or named in (ident, said[len("call "):]):
                return action
        raise _Again(self.t("again_name_call", calls=", ".join(self.trick_text(rules, a, "calls") for a in offered)))

    def _help_tricks(self, obs: Observation) -> str:
        """The help of the trick-taking phases, its examples taken from the seat's own cards."""
        names = obs.rules.deck.mask_names(obs.held or 0) or obs.rules.deck.card_names[:2]
        return self.t("help_tricks", card=names[0], value=names[0].split("/", 1)[0], lay=" ".join(names[:2]))

    def _trick_cards(self, text: str, obs: Observation, legal: list[Action]) -> Action:
        """The card (or the cards laid) ``text`` names among ``legal``, in any order, a value
        alone standing for the one legal card of that value; else :class:`_Again` saying why not."""
        deck = obs.rules.deck
        with_cards = [a for a in legal if a.kind in ("card", "lay") and a.mask]
        if not with_cards:           # a choice of trump or of partner: its words are the choices
            choices = ", ".join(self.trick_text(obs.rules, a, obs.kind) for a in legal)
            raise _Again(self.t("again_not_a_choice", text=text, choices=choices))
        try:
            typed = [deck.parse_card(token) for token in text.replace(",", " ").split() if token.lower() != "lay"]
        except CardError as error:
            raise _Again(self.t("again_cards", error=error)) from None
        if not typed:
            raise _Again(self.t("again_not_a_choice_list", text=text))
        try:
            deck.cards_mask([deck.ranks[i] + (f"/{c}" if c else "") for i, c in typed], within=obs.held or 0)
        except CardError:
            raise _Again(self.t("again_not_held", cards=text.strip())) from None
        matches: dict[tuple[str, ...], Action] = {}
        for action in with_cards:
            names = deck.mask_names(action.mask)
            if _names_match(deck, typed, names):
                matches.setdefault(tuple(names), action)
        if len(matches) == 1:
            return next(iter(matches.values()))
        if len(matches) > 1:
            raise _Again(self.t("again_which", list=self.words["or"].join(" ".join(n) for n in matches)))
        if obs.kind == "tricks":
            allowed = ", ".join(deck.mask_names(a.mask)[0] for a in with_cards)
            why = _follow_reason(obs, [a.mask.bit_length() - 1 for a in with_cards], typed, self)
            raise _Again(self.t("again_may_not_play", cards=text.strip(), why=why, allowed=allowed))
        raise _Again(self.t("again_may_not_lay", cards=text.strip(), why=_lay_reason(obs, with_cards, typed, self)))

    def _numbered(self, text: str, legal: list[Action]) -> Action:
        if not text.isdigit() or not 1 <= int(text) <= len(legal):
            raise _Again(self.t("again_number", text=text, last=len(legal)))
        return legal[int(text) - 1]

    def _bid(self, text: str, legal: list[Action], rules) -> Action:
        levels = [a.bid for a in legal if a.kind == "bid"]
        allowed = self.words["or"].join(map(str, levels))
        choices = self.t("bids_allowed", bids=allowed) if levels else self.t("bids_none")
        if text.strip().isdigit():
            level = int(text)
            for action in legal:
                if action.kind == "bid" and action.bid == level:
                    return action
            raise _Again(self.t("again_bid", bid=level, choices=choices))
        typed = text.strip().lower()
        rank = next((r for r in rules.deck.ranks if r.lower() == typed), None)
        if rank is not None:                     # a card's name ("p" meant as a pass, where P is a card)
            name = rules.deck.names.get(rank)
            called = f" ({file_word(name, self.lang)})" if name else ""
            raise _Again(self.t("again_bid_card", rank=rank, called=called, choices=choices))
        raise _Again(self.t("again_bidding", choices=choices))

    def _give(self, key: int, obs: Observation, legal: list[Action]) -> Action:
        count = obs.exchange_count
        given = obs.rules.deck.size_of(key)
        if given != count:
            raise _Again(self.t("again_give_count", count, given=given))
        for action in legal:
            if action.cards == key:
                return action
        raise _Again(self.t("again_give"))

    def _play(self, text: str, key: int, obs: Observation, legal: list[Action],
              typed: list[tuple[int, str | None]] | None = None) -> Action:
        rules = obs.rules
        mine = [(a, a.play) for a in legal if a.play is not None and a.play.key == key
                and (typed is None or _names_match(rules.deck, typed, list(a.play.cards)))]
        if len(mine) == 1:
            return mine[0][0]
        if len(mine) > 1:
            return self._which_reading(rules, mine, text)
        readings = rules.readings(key)
        # the cards as typed where colours count (names_of would drop them), else by their values
        cards = " ".join(text.replace(",", " ").split()) if typed else " ".join(rules.deck.names_of(key))
        if not readings:
            raise _Again(self.t("again_no_combination", cards=cards))
        if obs.interrupt:
            allowed = sorted({self.teller(rules).combination_name(a.play.combination)
                              for a in legal if a.play is not None})
            raise _Again(self.t("again_interrupt", list=self.words["or"].join(allowed)))
        over = obs.last_play
        if over is None:
            raise _Again(self._why_not_lead(rules, key, cards, typed, legal))
        return self._cannot_beat(rules, readings, over)

    def _why_not_lead(self, rules, key: int, cards: str, typed, legal: list[Action]) -> str:
        """Why these cards, a combination, may not lead: read from the leads the rules allow now
        (every one holding a card these lack: a first lead's card; or one single only)."""
        leads = [a.play for a in legal if a.play is not None]
        if not leads:
            return self.t("lead_none", cards=cards)
        if rules.card_plays is not None:
            # plays that name their cards (CardPlay) hold them as a mask
            common = functools.reduce(lambda m, p: m & getattr(p, "mask", 0), leads, rules.deck.full_mask)
            mine = rules.deck.cards_mask([rules.deck.ranks[i] + (f"/{c}" if c else "") for i, c in typed or ()]) \
                if typed else 0
            if common and not mine & common:
                held = " ".join(rules.deck.mask_names(common))
                return self.t("lead_holds", cards=cards, held=held)
        singles = [p for p in leads if p.size == 1]
        if rules.deck.size_of(key) == 1 and len(singles) == 1:
            return self.t("lead_single", cards=cards, single=" ".join(singles[0].cards))
        return self.t("lead_other", cards=cards)

    def _cannot_beat(self, rules, readings: list[Play], over: Play) -> Action:
        teller = self.teller(rules)
        play = readings[0]
        name, on = teller.combination_name(play.combination), teller.combination_name(over.combination)
        if play.tier < over.tier:
            why = self.t("beat_tier", on=on)
        elif play.index != over.index and play.tier == over.tier:
            why = self.t("beat_kind", name=name, on=on)
        elif play.size != over.size:
            why = self.t("beat_size", size=play.size, over=over.size)
        else:
            best = max(r.rank for r in readings)
            why = self.t("beat_rank", rank=teller.rank_name(best), over=teller.rank_name(over.rank))
        raise _Again(self.t("again_beat", cards=" ".join(play.cards), play=self.play_text(rules, over), why=why))

    def _not_held(self, rules, hand: int, key: int) -> str:
        short = []
        for index, rank in enumerate(rules.deck.ranks):
            want, have = rules.deck.count_of(key, index), rules.deck.count_of(hand, index)
            if want > have:
                short.append(self.t("short", want=want, rank=rank, have=have) if have else f"{rank}")
        return self.t("again_not_held", cards=", ".join(short))

    def _which_reading(self, rules, actions: list[tuple[Action, Play]], typed: str = "") -> Action:
        by_cards = len({tuple(play.cards) for _, play in actions}) > 1     # the same values, other colours
        cards = " ".join(typed.replace(",", " ").split()) if by_cards and typed else " ".join(actions[0][1].cards)
        self.say(self.t("ways", len(actions), cards=cards))
        for i, (_, play) in enumerate(actions, start=1):
            cards_said = f": {' '.join(play.cards)}" if by_cards else ""
            self.say(f"  {i}) " + self.t("reading", combination=self.teller(rules).combination_name(play.combination),
                                         rank=self.teller(rules).rank_name(play.rank)) + cards_said)
        while True:
            answer = self.ask(self.t("ask_which", last=len(actions)) + "> ").strip().lower().lstrip("#")
            if answer.isdigit() and 1 <= int(answer) <= len(actions):
                return actions[int(answer) - 1][0]
            if answer in self.back_words:
                raise _Again("")
            self.say(self.t("again_which_number", last=len(actions)))

    def list_moves(self, text: str, obs: Observation, legal: list[Action]) -> str:
        """``?``: the legal choices, numbered; with cards, only those that hold them."""
        rules = obs.rules
        within = 0
        if text:
            try:
                within = rules.cards_key(text, check_deck=False)
            except CardError as error:
                return f"{error}."
        lines = []
        for i, action in enumerate(legal, start=1):
            if within and not rules.deck.contains(_cards_of(action), within):
                continue
            # a solo phase's choices as they are typed (a game by its name, hold, take...), not by kind
            said = self._solo_word(obs, action) if obs.kind == "solo" and action.kind != "pass" \
                else self.action_text(rules, action)
            lines.append(f"  {f'#{i}':<5}{said}")
        shown = len(lines)
        head = self.t("choices_head", len(legal))
        if within and not shown:
            return self.t("choices_none_with", head=head, cards=" ".join(rules.deck.names_of(within)))
        if within:
            head += self.t("choices_with", shown=shown, cards=" ".join(rules.deck.names_of(within)))
        elif len(legal) > 30:
            head += self.t("choices_hint")
        return "\n".join([self.t("choices_list", head=head)] + lines)


def _follow_reason(obs: Observation, allowed: list[int], typed: list[tuple[int, str | None]],
                   player: HumanPlayer | None = None) -> str:
    """``": you must follow ..."`` when every card allowed is of the suit led (the trumps or a
    colour, as the table classes the cards) and the card typed is not; else ``""``."""
    table = obs.table if isinstance(obs.table, dict) else {}
    trick, suits = table.get("trick_cards") or [], table.get("suit")
    if not trick or not suits or len(typed) != 1:
        return ""
    led = trick[0][1]
    suit = suits[led]
    deck = obs.rules.deck
    try:
        mine = deck.cards_mask([deck.ranks[typed[0][0]] + (f"/{typed[0][1]}" if typed[0][1] else "")],
                               within=obs.held or 0)
    except CardError:
        return ""
    if not allowed or any(suits[c] != suit for c in allowed) or suits[mine.bit_length() - 1] == suit:
        return ""
    name = deck.card_names[led]
    player = player or HumanPlayer()
    led_suit = player.t("trumps") if suit == table.get("trump_suit") \
        else player.teller(obs.rules).colour(name.split("/", 1)[-1])
    return player.t("follow", card=name, suit=led_suit)


def _lay_reason(obs: Observation, lays: list[Action], typed: list[tuple[int, str | None]],
                player: HumanPlayer | None = None) -> str:
    """Why these cards may not be laid, read from the table and the lays allowed: cards laid
    already, or more cards than the turn's room (``"... ; "``); else ``""``."""
    deck = obs.rules.deck
    try:
        mine = deck.cards_mask([deck.ranks[i] + (f"/{c}" if c else "") for i, c in typed], within=obs.held or 0)
    except CardError:
        return ""
    table = obs.table if isinstance(obs.table, dict) else {}
    laid = (table.get("laid") or [0] * (obs.seat + 1))[obs.seat]
    if mine & laid:
        names = deck.mask_names(mine & laid)
        return (player or HumanPlayer()).t("laid_already", len(names), cards=" ".join(names))
    most = max((bin(a.mask).count("1") for a in lays), default=0)
    if bin(mine).count("1") > most:
        return (player or HumanPlayer()).t("lay_at_most", most)
    return ""


def _names_match(deck, typed: list[tuple[int, str | None]], names: list[str]) -> bool:
    """Do the cards ``typed`` ((rank index, colour or None) each) name exactly the cards
    ``names``, in any order, a card typed without its colour standing for any of its value?"""
    if len(typed) != len(names):
        return False
    left = [name.lower() for name in names]
    for i, colour in sorted(typed, key=lambda t: t[1] is None):      # named cards first
        rank = deck.ranks[i].lower()
        if colour is not None:
            wanted = f"{rank}/{colour.lower()}"
            if wanted not in left:
                return False
            left.remove(wanted)
        else:
            found = next((n for n in left if n.split("/", 1)[0] == rank), None)
            if found is None:
                return False
            left.remove(found)
    return True


def _cards_of(action: Action) -> int:
    """The packed cards of a play or of a gift in the exchange (0 for a bid or a pass)."""
    if action.play is not None:
        return action.play.key
    return action.cards or 0


# -- a game with a person at one seat ----------------------------------------------------------

class TableTeller:
    """Tells ``seat`` the new events of a game each time it is called with the state (a ``watch``
    of :func:`~chimera_dsl.players.play_game`), never the cards that seat may not see."""

    def __init__(self, rules, seat: int, write: Callable[[str], None], lang: str = "en",
                 keep: Callable[[list[dict]], None] | None = None):
        self.teller = Teller(rules, seat=seat, live=True, lang=lang)
        self.write = write
        self.keep = keep
        self.told = 0
        self.round: int | None = None
        self.state: State | None = None

    def __call__(self, state: State) -> None:
        self.state = state
        events = state.events[self.told:]
        self.told = len(state.events)
        for line in self.teller.lines(events):
            self.write(line)
        if self.keep is not None and (state.round != self.round or state.is_terminal()):
            # ``keep``: at each new round and at the end, the lines so far, told, are handed to it
            # and leave the game's memory (the engine never reads its past lines), so a game of
            # any length holds one round's lines (docs/commands.md, "Memory")
            self.round = state.round
            chunk = list(state.events)
            del state.events[:]
            self.told = 0
            if chunk:
                self.keep(chunk)


def table_players(spec: str | None, seats: int, seat: int, seed: int, human: Player,
                  search_budget=None) -> list[Player]:
    """The players of a game with ``human`` at ``seat``: ``spec`` names the computer players of
    the other seats, clockwise from seat 0 (one name: all of them); seat ``i`` is seeded
    ``seed * 1000 + i`` as in :func:`~chimera_dsl.players.parse_players`, and ``search_budget``
    goes to every ``search`` player."""
    others = seats - 1
    given = [part.strip() for part in str(spec).split(",")] if spec is not None and str(spec).strip() else []
    if len(given) not in (0, 1, others):
        raise PlayerError(f"--players names the computer players of the other {others} seats: one name for "
                          f"all of them or {others} names, not {len(given)} ({spec!r})")
    if any(name.lower() == "human" for name in given):
        raise PlayerError("--players names the computer players only; you sit at the seat given by --seat")
    names = iter(split_players(spec, others))
    return [human if i == seat else make_player(next(names), seed * 1000 + i, search_budget)
            for i in range(seats)]


def play_at_table(game: Game, players: Sequence[Player], seed, seat: int, human: HumanPlayer,
                  keep: Callable[[list[dict]], None] | None = None) -> State:
    """Play a whole game, telling it to ``human`` at ``seat`` as it goes; the final state.

    ``keep``: given the game's lines round by round (and the last ones at the end, or when the
    person leaves), which the state then no longer holds (:class:`TableTeller`).
    Raises :class:`LeftTheTable` (with the game as it stood) when the person leaves.
    """
    table = TableTeller(game.rules, seat, human.say, getattr(human, "lang", "en"), keep)
    try:
        state = play_game(game, players, seed, watch=table)
    except LeftTheTable as gone:
        if table.state is not None:
            table(table.state)              # what happened up to the last decision
        gone.state = table.state
        raise
    except KeyboardInterrupt:
        raise LeftTheTable("interrupted", table.state) from None
    return state


__all__ = ["HumanPlayer", "LeftTheTable", "TableTeller", "table_players", "play_at_table", "HELP", "HELP_TRICKS"]
