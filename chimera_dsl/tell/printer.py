"""A game told readably, from its record: shared by ``chimera run`` and ``chimera replay``.

Everything is read from the events (docs/game-record.md) and the variant (combination names, the
names of the roles); the same events always give the same text.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Iterable, Iterator, Sequence

from ..rules import Rules
from .articles import colour_word, contracted, gender_of, role_forms, word
from .catalog import Section, catalog
from .rulebook_words import phase_words
from .say import label_words

WORDS = Section("teller")
"""The teller's words by language: the ``teller`` section of each catalog (docs/translating.md)."""
MELD_ROW = re.compile(r"(\d+) in a row to (\S+)")     # the announcements the engine names (announce.py)
MELD_ALL = re.compile(r"all the (\S+)")


def words(lang: str) -> dict[str, Any]:
    """The teller's words in ``lang`` (English where the language has no catalog)."""
    return WORDS[lang] if lang in WORDS else WORDS["en"]


def say(table: dict[str, Any], key: str, n: int | None = None, **fields) -> str:
    """The sentence ``key`` of ``table`` with its fields filled in; a pair ``[one, many]`` is
    chosen by ``n`` (one when ``n`` is 1)."""
    text = table[key]
    if isinstance(text, list):
        text = text[0] if n == 1 else text[1]
    return text.format(n=n, **fields)


class Teller:
    """Turns record events into lines of text.

    ``seat``: tell the game as that seat sees it.  Its own hand is shown, another seat's only
    as a number of cards, and cards handed over in an exchange only to the two seats that
    gave and received them; that seat is called ``seat N (you)``.  ``live``: tell each bid,
    play and pass on its own line as it happens, instead of one line per bidding and trick.
    Without them (``chimera run``, ``chimera replay``) every hand is told.  ``names``: call
    each seat by its name instead of its number (the web table: ``Ann (you)``, ``Ada
    (heuristic)``), in every line, the standings and the result.  ``lang``: the language of
    the lines, a catalog's code (``fr``); English by default.
    """

    def __init__(self, rules: Rules, seat: int | None = None, live: bool = False,
                 names: Sequence[str] | None = None, lang: str = "en"):
        self.rules = rules
        self.lang = lang
        self.words = words(lang)
        self.viewer = seat
        self.live = live
        self.by_name = list(names) if names else None
        roles = rules.spec.get("roles") or {}
        self.bidder = word(roles.get("bidder", "bidder"), lang)
        self.others = word(roles.get("others", "others"), lang)
        self.role_words = {"bidder": self.bidder, **self.role_forms(roles.get("bidder", "bidder"), "bidder"),
                           **self.many_forms(roles.get("others", "others"), "others")}
        from ..engine.round import compile_round
        self.round = compile_round(rules)
        self.role_event = self.round.role_word          # the record's line naming the bidder
        self.nest_to_bidder = any(t.source == "nest" and "bidder" in getattr(t.to, "reads", ()) for t in self.round.transfers)
        self.names: list[str] | None = None
        self.players = 0
        self._reset_trick()
        self.trick_number = 0
        self.bids: list[str] = []
        self.bidder_seat: int | None = None             # the seat the round's role line named
        self.disputed = False                           # the last line was an auction's dispute
        self.has_auction = any(p.kind == "auction" for p in self.round.phases)
        self.orders_up = any(p.kind == "order_up" for p in self.round.phases)   # trump made from the turned card
        self.solo = next((p for p in self.round.phases if p.kind == "solo"), None)   # one against the others
        self.solo_bid = 0                                                   # the value said last (solo)
        self.solo_named = False                                             # its game named (solo)
        self.auction_open = False                       # an auction's lays and passes are being told
        self.rest: list | None = None                   # a deal in two parts: each seat's cards seen later

    def say(self, key: str, n: int | None = None, **fields) -> str:
        """One sentence of the teller's catalog (:func:`say`), the roles' forms at hand."""
        return contracted(say(self.words, key, n, **self.role_words, **fields), self.lang)

    def role_forms(self, value, prefix: str) -> dict[str, str]:
        """A role of the file (its names by language, or one word) with its article in this
        language: ``{bidder_the}``, ``{Bidder_the}``..."""
        return role_forms(word(value, self.lang), gender_of(value, self.lang), self.lang, prefix)

    def many_forms(self, value, prefix: str) -> dict[str, str]:
        """A role that names several seats (``others``) with the plural article: ``{others_the}``."""
        name = word(value, self.lang)
        vowel = name[:1].lower() in (self.words["vowels"] or "")
        return {prefix: name, f"{prefix}_the": self.words["the_many_vowel" if vowel else "the_many"].format(x=name)}

    def _list(self, items: Iterable[str]) -> str:
        return self.words["list"].join(items)

    def _reset_trick(self) -> None:
        self.trick: list[str] = []
        self.trick_leader: int | None = None

    def seat(self, seat) -> str:
        if seat is None:
            return self.say("nobody")
        if self.by_name and isinstance(seat, int) and 0 <= seat < len(self.by_name):
            name = self.by_name[seat] or self.say("seat", seat)
            return self.say("you", name=name) if seat == self.viewer else name
        return self.say("you", name=self.say("seat", seat)) if seat == self.viewer else self.say("seat", seat)

    def hidden(self, seat) -> bool:
        """Are the cards of ``seat`` hidden from the seat this game is told to?"""
        return self.viewer is not None and seat != self.viewer

    def named(self, seat: int) -> str:
        if self.by_name:
            return self.seat(seat)
        if self.names and 0 <= seat < len(self.names):
            return self.say("named", seat, name=self.names[seat])
        return self.say("seat", seat)

    def rank_name(self, rank) -> str:
        return self.rules.rank_name(rank)

    def combination_name(self, cid: str) -> str:
        combination = self.rules.combination.get(cid)
        if combination is None:
            return cid
        names = getattr(combination, "names", None) or {}
        return str(names.get(self.lang) or names.get("en") or cid)

    def cards(self, cards) -> str:
        """Cards as people read them: with their colours where the variant's rules read colours,
        by rank alone where they do not (the record keeps the colours either way)."""
        if not cards:
            return self.say("no_cards")
        if not self.rules.reads_colours:
            cards = [c.split("/", 1)[0] for c in cards]
        return " ".join(cards)

    def lines(self, events: Iterable[dict]) -> Iterator[str]:
        """Every line of the story of these events."""
        for event in events:
            kind = str(event.get("type"))
            handler = self.on_role if kind == self.role_event else getattr(self, "on_" + kind, None)
            if handler is not None:
                yield from handler(event)

    # -- events ---------------------------------------------------------------------------------
    def on_game_start(self, e):
        self.players = e["players"]
        names = e.get("player_names")
        self.names = list(names) if isinstance(names, list) else None
        goal = self.say("game_target", e["target"]) if e.get("target") else self._end_text()
        if e.get("max_rounds") and (e.get("target") or not self.rules.spec.get("end", {}).get("rounds")):
            goal += self.say("game_or_rounds", e["max_rounds"])  # the game's configured end, whichever comes first
        # the seed deals every hand: it is told only where every hand is told anyway (run, replay)
        seed = e.get("seed")
        told = self.say("game_seed", seed=seed) if seed is not None and self.viewer is None and not self.live else ""
        title = (self.rules.spec.get("titles") or {}).get(self.lang) if self.lang != "en" else None
        yield self.say("game", e["players"], variant=title or e["variant"], seed=told, goal=goal)
        if self.by_name:
            yield self.say("seats", list=self._list(self.seat(s) for s in range(len(self.by_name))))
        elif self.names:
            yield self.say("seats", list=self._list(self.say("seat_name", s, name=n) for s, n in enumerate(self.names)))

    def _end_text(self) -> str:
        rounds = (self.rules.spec.get("end") or {}).get("rounds")
        return self.say("game_rounds", rounds) if rounds else self.say("game_until", when=self.round.end.when.text)

    def on_deal(self, e):
        self.step = -1 if e.get("direction") == "counterclockwise" else 1     # the order seats draw in
        self.bidder_seat = None
        self.trick_number = 0           # each round numbers its tricks from 1
        self.auction_open = self.has_auction
        yield ""
        face = e.get("face_up")
        head = self.say("round", round=e["round"], dealer=self.seat(e["dealer"]))
        if face:
            unseated = self.say("face_up_nest") if e.get("nest") else \
                self.say("face_up_turned") if "stock" in e else self.say("face_up_undealt")
            where = unseated if face["seat"] is None else self.say("face_up_goes", who=self.seat(face["seat"]))
            head += self.say("face_up", card=face["card"], where=where)
        yield head
        sitting = e.get("sits_out")
        first = e.get("first") if isinstance(e.get("first"), list) else None
        self.rest = None
        if first is not None:           # a deal in two parts: the cards each seat sees first, then the rest
            self.rest = [_less(hand, seen) for hand, seen in zip(e["hands"], first)]
        for seat, hand in enumerate(e["hands"]):
            if seat == sitting:
                yield "  " + self.say("sits_out", who=self.seat(seat))
            elif self.hidden(seat):
                yield "  " + self.say("hand_hidden", len(hand), who=self.seat(seat))
            elif first is not None and self.rest is not None:
                rest = self.rest[seat]
                later = (self.say("hand_unseen", len(rest)) if self.viewer is not None else
                         self.say("hand_then", cards=self.cards(rest)))
                yield "  " + self.say("hand_first", who=self.seat(seat), cards=self.cards(first[seat]), later=later)
            else:
                yield "  " + self.say("hand", who=self.seat(seat), cards=self.cards(hand))
        if e.get("nest"):
            yield "  " + self.say("nest", len(e["nest"]))

    def on_rest_dealt(self, e):
        """A deal completed after a phase: each seat's cards from the stock (a viewer's only)."""
        for seat, cards in enumerate(e["hands"]):
            if not cards:
                continue
            if self.hidden(seat):
                yield "  " + self.say("rest_dealt_hidden", len(cards), who=self.seat(seat))
            else:
                yield "  " + self.say("rest_dealt", who=self.seat(seat), cards=self.cards(cards))

    def on_drawn(self, e):
        """Cards drawn from the stock after a trick (play.draw): a viewer sees its own, and every
        seat who takes the turned card."""
        turned = e.get("turned") or {}
        hands = e["hands"]
        first = e.get("first", 0)               # the trick's winner draws first, then the others in turn
        step = getattr(self, "step", 1)
        for seat in [(first + step * k) % len(hands) for k in range(len(hands))]:
            cards = hands[seat]
            if turned.get("seat") == seat:          # the turned card, face up: said apart, to all
                cards = list(cards)
                if turned.get("card") in cards:
                    cards.remove(turned["card"])
            if cards and self.hidden(seat):
                yield "    " + self.say("drawn_hidden", len(cards), who=self.seat(seat))
            elif cards:
                yield "    " + self.say("drawn", who=self.seat(seat), cards=self.cards(cards))
            if turned.get("seat") == seat:
                yield "    " + self.say("drawn_turned", who=self.seat(seat), card=self.cards([turned["card"]]))
        if e.get("top"):                            # the stock's next card, turned face up
            yield "    " + self.say("drawn_top", card=self.cards([e["top"]]))

    def on_rest_seen(self, e):
        if self.viewer is not None and self.rest is not None and 0 <= self.viewer < len(self.rest):
            yield "  " + self.say("rest_seen_own", who=self.seat(self.viewer), cards=self.cards(self.rest[self.viewer]))
        else:
            yield "  " + self.say("rest_seen_all")

    def call_name(self, name) -> str:
        """A call as the file names it in this language (else in English, else its id)."""
        entry = (self.rules.spec.get("calls") or {}).get(name) or {}
        names = entry.get("names") or {}
        if not isinstance(names, dict):
            return str(names)
        return str(names.get(self.lang) or names.get("en") or str(name).replace("_", " "))

    def on_call(self, e):
        if e.get("call") is None:
            yield "  " + self.say("no_call", who=self.seat(e["seat"]))
            return
        said = self.say("calls", who=self.seat(e["seat"]), call=self.call_name(e["call"]))
        if self.trick:                  # in the middle of a trick: told with its plays
            self.trick.append(said)
            if self.live:
                yield f"  {said}"
            return
        yield f"  {said}"

    def on_bid(self, e):
        if e["bid"] is None:
            self.bids.append(self.say("bid_pass", who=self.seat(e["seat"])))
        elif e.get("forced"):
            self.bids.append(self.say("bid_must", who=self.seat(e["seat"]), bid=e["bid"]))
        else:
            self.bids.append(self.say("bid", who=self.seat(e["seat"]), bid=e["bid"]))
        if self.live:
            yield f"  {self.bids.pop()}"

    def _flush_bids(self):
        if self.bids:
            yield "  " + self.say("bidding", list=self._list(self.bids))
        self.bids = []

    def on_redeal(self, e):
        yield from self._flush_bids()
        if self.disputed:                   # an auction's tie for the most, not a round of passes
            self.disputed = False
            yield "  " + self.say("redeal_dispute")
            return
        yield "  " + self.say("redeal")

    def on_role(self, e):
        self.auction_open = False
        yield from self._flush_bids()
        yield "  " + self.say("role_nest" if self.nest_to_bidder else "role", who=self.seat(e["seat"]), bid=e["bid"])
        self.bidder_seat = e["seat"] if isinstance(e.get("seat"), int) else None
        self.trick_number = 0

    def on_exchange(self, e):
        count = len(e["cards"])
        # a transfer phase of the file's own is told by its name (Hearts' "passing"), else "exchange"
        name = e.get("phase")
        phase = phase_words(self.rules.spec, name, self.lang) if isinstance(name, str) and name in (
            self.rules.spec.get("phases") or {}) else self.words["exchange_phase"]
        if count and self.hidden(e["from"]) and self.hidden(e["to"]):
            yield "  " + self.say("exchange_hidden", count, who=self.seat(e["from"]), to=self.seat(e["to"]),
                                  phase=phase)
        elif count:
            yield "  " + self.say("exchange", count, who=self.seat(e["from"]), to=self.seat(e["to"]),
                                  cards=self.cards(e["cards"]), phase=phase)
        else:
            yield "  " + self.say("exchange_none", who=self.seat(e["from"]), to=self.seat(e["to"]), phase=phase)

    def on_play(self, e):
        if self.trick_leader is None:
            self.trick_leader = e["seat"]
        play = self.say("play_out_of_turn" if e.get("out_of_turn") else "play", who=self.seat(e["seat"]),
                        cards=self.cards(e["cards"]), combination=self.combination_name(e["combination"]),
                        rank=self.rank_name(e["rank"]))
        if isinstance(e.get("place"), int):
            play = self.say("play_out", play=play, place=e["place"])
        self.trick.append(play)
        if self.live:
            yield f"  {self.trick[-1]}"

    def on_effect(self, e):
        if e.get("do") == "reverse_order":
            self.trick.append(self.say("order_reversed" if e.get("reversed") else "order_restored"))
        elif e.get("do") == "wish":
            wished = e.get("rank")
            # English "an A", "an 8": the grammar's vowel_starts
            vowel = str(wished).lower().startswith(tuple(catalog(self.lang)["grammar"].get("vowel_starts", ())))
            self.trick.append(self.say("wish_none", who=self.seat(e["seat"])) if wished is None
                              else self.say("wish_named_vowel" if vowel else "wish_named", who=self.seat(e["seat"]),
                                            rank=wished))
        elif e.get("do") == "move":                 # as the round ends: a line of its own
            to = self.say("nobody") if e.get("to") is None else self.seat(e["to"])
            yield "  " + self.say("move_taken" if e.get("what") == "taken" else "move_hand",
                                  who=self.seat(e["seat"]), to=to)
            return
        elif e.get("do") == "end_trick":
            self.trick.append(self.say("end_trick", who=self.seat(e["lead"])))
        elif e.get("do") == "lead_to":
            self.trick.append(self.say("lead_to", who=self.seat(e["lead"])))
        else:
            return
        if self.live:
            yield f"  {self.trick[-1]}"

    def on_pass(self, e):
        if self.auction_open:           # a pass in an auction, told on its line as the lays are
            yield "  " + self.say("pass", who=self.seat(e["seat"]))
            return
        self.trick.append(self.say("pass", who=self.seat(e["seat"])))
        if self.live:
            yield f"  {self.trick[-1]}"

    def on_trick(self, e):
        self.trick_number += 1
        if e.get("given_to") is not None:
            outcome = self.say("trick_given", winner=self.seat(e["winner"]), cards=self.cards(e["cards"]),
                               to=self.seat(e["given_to"]))
        elif self.round.taken_cards_count or e["winner"] is None:
            outcome = self.say("trick_takes", winner=self.seat(e["winner"]), cards=self.cards(e["cards"]))
        else:
            outcome = self.say("trick_wins", winner=self.seat(e["winner"]))
        if e.get("points"):                     # a trick-taking play's card points in the trick
            outcome += self.say("trick_points", e["points"])
        if self.live:
            yield "  " + self.say("trick", self.trick_number, plays=outcome)
        else:
            yield "  " + self.say("trick", self.trick_number, plays=self._list(self.trick))
            yield f"    {outcome}"
        self._reset_trick()

    # -- trick-taking ----------------------------------------------------------------------------
    def on_trump(self, e):
        self.trick_number = 0
        self._reset_trick()
        if self.orders_up:
            key = "order_up_passed" if e["trump"] is None else "order_up_made"
            yield "  " + self.say(key, who=self.seat(e["seat"]), trump=self.colour(e["trump"] or ""))
        elif e["trump"] is None:
            yield "  " + self.say("trump_passed", who=self.seat(e["seat"]))
        else:
            yield "  " + self.say("trump", who=self.seat(e["seat"]), trump=self.colour(e["trump"]))

    def on_discard(self, e):
        key = "solo_discard" if self.solo is not None else "order_up_discard"
        yield "  " + self.say(key, who=self.seat(e["seat"]))

    # -- one against the others (a solo phase) ---------------------------------------------------
    def game_word(self, name: str) -> str:
        """A solo phase's game in this language (its ``names``), else as the file names it."""
        for game in self.solo.games if self.solo is not None else ():
            if game.name == name:
                return dict(game.names).get(self.lang, name)
        return name

    def on_solo(self, e):
        self.trick_number = 0
        self._reset_trick()
        call = str(e["call"])
        who = self.seat(e["seat"])
        declarations = {d.name: d for d in self.solo.declarations} if self.solo is not None else {}
        if call in declarations:
            word = dict(declarations[call].names).get(self.lang, call)
            yield "  " + self.say("solo_declare", who=who, name=word)
        elif call == "pass" and self.solo_named:
            return                                   # (a declaration not made: nothing to tell)
        elif call in ("pass", "hold", "take", "hand"):
            yield "  " + self.say(f"solo_{call}", who=who, bid=self.solo_bid)
        elif call.isdigit():
            self.solo_bid = int(call)
            yield "  " + self.say("solo_bid", who=who, bid=call)
        else:
            self.solo_named = True
            yield "  " + self.say("solo_name", who=who, game=self.game_word(call))

    def on_solo_game(self, e):
        self.solo_bid = 0
        self.solo_named = False
        game = self.game_word(e["game"])
        if e.get("hand"):
            game = self.say("solo_hand_game", game=game)
        key = "solo_game_bid" if e.get("bid") else "solo_game"
        if any(p.kind == "partner" for p in self.round.phases):    # a partner is named next: not alone
            key += "_partner"
        yield "  " + self.say(key, who=self.seat(e["declarer"]), game=game, bid=e.get("bid"))

    def on_alone(self, e):
        yield "  " + self.say("order_up_alone" if e["alone"] else "order_up_with_partner", who=self.seat(e["seat"]))

    def on_auction_call(self, e):
        call = str(e["call"])
        who = self.seat(e["seat"])
        if call in ("pass", "double", "redouble"):
            yield "  " + self.say(f"auction_{call}", who=who)
            return
        level, _, strain = call.partition(" ")
        yield "  " + self.say("auction_bid", who=who, level=level, strain=self.strain(strain))

    def on_contract(self, e):
        self.trick_number = 0
        self._reset_trick()
        if e["contract"] is None:
            yield "  " + self.say("passed_out")
            return
        level, _, strain = str(e["contract"]).partition(" ")
        doubled = {1: self.say("contract_doubled"), 2: self.say("contract_redoubled")}.get(e["doubled"], "")
        yield "  " + self.say("contract", who=self.seat(e["declarer"]), level=level, strain=self.strain(strain),
                              doubled=doubled)

    def strain(self, name: str) -> str:
        """A strain of a contract: a colour, or no trump."""
        return self.say("no_trump") if name == "none" else self.colour(name)

    def on_card(self, e):
        yield from self._flush_bids()          # every seat's bid of tricks (a bids phase), told before the play
        self.trick.append(self.say("card", who=self.seat(e["seat"]), card=e["card"]))
        if self.live:
            yield f"  {self.trick[-1]}"

    def on_lay(self, e):
        yield "  " + self.say("lay", who=self.seat(e["seat"]), cards=self.cards(e["cards"]))

    def on_dispute(self, e):
        self.disputed = True
        points = self._list(self.say("seat_points", who=self.seat(s), points=f"{p:+d}") for s, p in enumerate(e["points"]) if p)
        yield "  " + self.say("dispute", seats=self._list(self.seat(s) for s in e["seats"]),
                              points=points or self.say("dispute_none"))

    def on_second(self, e):
        yield "  " + self.say("second", who=self.seat(e["seat"]), **self.role_forms(e["role"], "role"))

    def on_partner(self, e):
        self._reset_trick()
        yield "  " + self.say("partner", who=self.seat(e["seat"]), partner=self.seat(e["partner"]))

    def on_announce(self, e):
        melds = self._list(self.say("meld", name=self.meld_name(m["name"]), points=m["points"]) for m in e["melds"])
        yield "  " + self.say("announce", who=self.seat(e["seat"]), melds=melds) + self._totals_now(e)

    def on_announcements(self, e):
        if e.get("seats"):
            yield "  " + self.say("announcements", seats=self._list(self.seat(s) for s in e["seats"]),
                                  points=e["points"]) + self._totals_now(e)

    def meld_name(self, name) -> str:
        """An announcement as the record names it (``3 in a row to J/hearts``, ``all the J``,
        ``trump pair``), in this language."""
        text = str(name)
        found = MELD_ROW.fullmatch(text)
        if found:
            return self.say("meld_row", int(found.group(1)), card=found.group(2))
        found = MELD_ALL.fullmatch(text)
        if found:
            return self.say("meld_all", rank=found.group(1))
        return str(self.words["melds"].get(text, text))

    def _totals_now(self, e) -> str:
        """Points scored at once carry the totals they make (announcements ``scored: at_once``)."""
        if not isinstance(e.get("totals"), list):
            return ""
        return self.say("totals_now", list=self._seat_points(e["totals"]))

    def _seat_points(self, values) -> str:
        """``seat 0 12, seat 1 3``: a value per seat."""
        return self._list(self.say("seat_points", who=self.seat(s), points=t) for s, t in enumerate(values))

    def on_round_end(self, e):
        bidder = e.get(self.role_event)
        won = e.get(f"{self.role_event}_won")
        if isinstance(e.get("tricks"), list):
            self.trick_number = 0
            yield "  " + self.say("tricks_taken", list=self._seat_points(e["tricks"]))
            if won is not None:
                yield self._contract_text(bool(won))
        elif e.get("void"):
            yield from self._flush_bids()
            yield "  " + self.say("void")
        elif isinstance(e.get("places"), list):
            yield "  " + self.say("places", list=self._list(self.say("place", i=i, who=self.seat(s))
                                                             for i, s in enumerate(e["places"], 1)))
        elif won is None:
            yield "  " + self.say("out_first", who=self.seat(e["out"]))
        else:
            yield "  " + self.say("out_first_bidder" if won else "out_first_others", who=self.seat(e["out"]))
        bonuses = e.get("bonuses") or {}
        happened = [self.bonus_text(name, value) for name, value in bonuses.items()
                    if value and self.bonus_counts(name, won)]
        if happened:
            yield "  " + self.say("this_round", list=self._list(happened))
        parts = e.get("parts")
        for seat, points in enumerate(e["points"]):
            key = "score_role" if bidder is not None and seat == bidder else "score"
            if isinstance(parts, list) and seat < len(parts) and parts[seat]:
                detail = ""
                for i, (label, value) in enumerate(parts[seat]):
                    # a part after the first is added or taken away: "50 (contract) - 100 (bags)"
                    minus = i > 0 and isinstance(value, (int, float)) and value < 0
                    if i:
                        detail += self.words["score_parts_minus" if minus else "score_parts"]
                    detail += self.say("score_part", value=-value if minus else value, label=self.part_label(label))
                points = self.say("score_detail", detail=detail, points=points)
            yield "  " + self.say(key, who=self.seat(seat), points=points)
        yield "  " + self.say("totals", list=self._seat_points(e["totals"]))

    def _contract_text(self, won: bool) -> str:
        """A trick-taking round's contract, made or failed (``round_end.<role>_won``), said as a
        climbing round says who won: ``seat 1, the <bidder>, makes the contract: the <bidder> wins the round``."""
        who = self.say("contract_who", who=self.seat(self.bidder_seat)) if self.bidder_seat is not None \
            else self.role_words["bidder_the"]
        return "  " + self.say("contract_made" if won else "contract_failed", who=who)

    def _bonus_specs(self) -> dict:
        """Each bonus of the scoring: what it counts, and the outcomes it scores in (None: every
        round, a bonus of ``scoring.bonuses``; True / False: the bidder's side won / lost)."""
        if getattr(self, "_bonuses", None) is None:
            scoring = self.rules.spec.get("scoring") or {}
            specs: dict = {}
            for name in scoring.get("bonuses") or {}:
                specs[str(name)] = {"when": None, "combination": None}
            for outcome, won in (("bidder_out_first", True), ("other_out_first", False)):
                for name, bonus in ((scoring.get(outcome) or {}).get("bonuses") or {}).items():
                    entry = specs.setdefault(str(name), {"when": set(), "combination": None})
                    if entry["when"] is not None:
                        entry["when"].add(won)
                    if isinstance(bonus, dict) and bonus.get("combination"):
                        entry["combination"] = str(bonus["combination"])
            self._bonuses = specs
        return self._bonuses

    def bonus_counts(self, name: str, won) -> bool:
        """Does the bonus ``name`` score in a round whose bidder's side won (``won``)?"""
        spec = self._bonus_specs().get(name)
        if spec is None or spec["when"] is None or won is None:
            return True
        return bool(won) in spec["when"]

    def label(self, name: str) -> str | None:
        """The words the file's ``labels`` give one of its names in this language (else in
        English), or None."""
        return label_words(self.rules.spec.get("labels"), name, self.lang)

    def bonus_name(self, name: str) -> str:
        """A bonus as people read it: the combination it counts, its label, or its id in words."""
        spec = self._bonus_specs().get(name) or {}
        if spec.get("combination"):
            return self.combination_name(spec["combination"])
        return self.label(name) or name.replace("_", " ")

    def bonus_text(self, name: str, value) -> str:
        """A bonus that happened this round, with its count when more than once."""
        if isinstance(value, bool) or value == 1:
            return self.bonus_name(name)
        return self.say("bonus_times", value, name=self.bonus_name(name))

    def part_label(self, label) -> str:
        """A part of a seat's points as people read it: a bonus by its name (``bombs 2 x 25``
        becomes ``Bomb 2 x 25``), anything else as recorded."""
        text = str(label)
        parts = self.words["parts"]
        if self.label(text) is not None:            # a term the file labels (labels)
            return str(self.label(text))
        if text in parts:                           # a part by a name the catalog knows (treasures)
            return str(parts[text])
        head, _, rest = text.partition(" ")
        if head in self._bonus_specs():
            return f"{self.bonus_name(head)} {rest}".rstrip()
        if head in parts:                           # bid 20 x 2
            return f"{parts[head]} {rest}"
        return text

    def on_game_end(self, e):
        yield ""
        yield from self.standings(e)

    def standings(self, e) -> Iterator[str]:
        """The final standings, best first."""
        totals = e["totals"]
        rounds = e.get("rounds")
        yield self.say("game_over_after", rounds) if rounds else self.say("game_over")
        sign = -1 if self.round.end.winner == "highest" else 1
        order = sorted(range(len(totals)), key=lambda s: (sign * totals[s], s))
        place = 0
        previous = None
        for i, seat in enumerate(order):
            if totals[seat] != previous:
                place = i + 1
                previous = totals[seat]
            yield "  " + self.say("standing", place=place, who=self.named(seat), points=totals[seat])
        yield result_line(e, self.names, self.seat if self.by_name else None, self.lang)

    def colour(self, name) -> str:
        """A colour of the deck (a trump) in this language, as the rulebook names it."""
        return colour_word(self.rules.deck, name, self.lang)


def _less(hand: list, seen: list) -> list:
    """The cards of ``hand`` less those of ``seen`` (each name once per copy)."""
    rest = list(hand)
    for card in seen:
        if card in rest:
            rest.remove(card)
    return rest


def result_line(end: dict, names: list[str] | None = None, call: Callable[[int], str] | None = None,
                lang: str = "en") -> str:
    """One line: who won, with how much, and the others' totals; ``call``: how a seat is
    called (by default ``seat 1 (NAME)`` with ``names``, ``seat 1`` without); ``lang``: the
    language of the line."""
    totals = end["totals"]
    table = words(lang)

    def who(seat: int) -> str:
        if call is not None:
            return call(seat)
        return say(table, "named", seat, name=names[seat]) if names and seat < len(names) else say(table, "seat", seat)

    winner = end.get("winner")
    if winner is None:
        # the engine names the seats sharing the win (the lowest totals when the lowest wins);
        # a record without them is read as the highest winning
        leaders = end.get("winners") or [s for s, t in enumerate(totals) if t == max(totals)]
        text = say(table, "result_share", who=table["and"].join(who(s) for s in leaders), points=totals[leaders[0]])
    else:
        text = say(table, "result_wins", who=who(winner), points=totals[winner])
    rounds = end.get("rounds")
    if rounds:
        text += say(table, "result_after", rounds)
    text += say(table, "result_totals", list=table["list"].join(
        say(table, "result_total", who=call(s) if call else say(table, "seat", s), points=t) for s, t in enumerate(totals)))
    return contracted(text, lang)


def tell(events: Iterable[dict], rules: Rules, lang: str = "en") -> Iterator[str]:
    """The whole game, readably, line by line (``lang``: in that catalog's language)."""
    return Teller(rules, lang=lang).lines(events)
