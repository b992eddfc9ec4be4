"""A game told readably, from its record: shared by ``chimera run`` and ``chimera replay``.

Everything is read from the events (docs/game-record.md) and the variant (combination names, the
names of the roles); the same events always give the same text.
"""
from __future__ import annotations

from typing import Callable, Iterable, Iterator, Sequence

from ..rules import Rules


class Teller:
    """Turns record events into lines of text.

    ``seat``: tell the game as that seat sees it.  Its own hand is shown, another seat's only
    as a number of cards, and cards handed over in an exchange only to the two seats that
    gave and received them; that seat is called ``seat N (you)``.  ``live``: tell each bid,
    play and pass on its own line as it happens, instead of one line per bidding and trick.
    Without them (``chimera run``, ``chimera replay``) every hand is told.  ``names``: call
    each seat by its name instead of its number (the web table: ``Ann (you)``, ``Ada
    (heuristic)``), in every line, the standings and the result.
    """

    def __init__(self, rules: Rules, seat: int | None = None, live: bool = False,
                 names: Sequence[str] | None = None):
        self.rules = rules
        self.viewer = seat
        self.live = live
        self.by_name = list(names) if names else None
        self.bidder = rules.role_name("bidder")
        self.others = rules.role_name("others")
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
        self.auction_open = False                       # an auction's lays and passes are being told
        self.rest: list | None = None                   # a deal in two parts: each seat's cards seen later

    def _reset_trick(self) -> None:
        self.trick: list[str] = []
        self.trick_leader: int | None = None

    def seat(self, seat) -> str:
        if seat is None:
            return "nobody"
        if self.by_name and isinstance(seat, int) and 0 <= seat < len(self.by_name):
            name = self.by_name[seat] or f"seat {seat}"
            return f"{name} (you)" if seat == self.viewer else name
        return f"seat {seat} (you)" if seat == self.viewer else f"seat {seat}"

    def hidden(self, seat) -> bool:
        """Are the cards of ``seat`` hidden from the seat this game is told to?"""
        return self.viewer is not None and seat != self.viewer

    def named(self, seat: int) -> str:
        if self.by_name:
            return self.seat(seat)
        if self.names and 0 <= seat < len(self.names):
            return f"seat {seat} ({self.names[seat]})"
        return f"seat {seat}"

    def rank_name(self, rank) -> str:
        return self.rules.rank_name(rank)

    def combination_name(self, cid: str) -> str:
        combination = self.rules.combination.get(cid)
        if combination is None:
            return cid
        names = getattr(combination, "names", None) or {}
        return str(names.get("en") or cid)

    def cards(self, cards) -> str:
        """Cards as people read them: with their colours where the variant's rules read colours,
        by rank alone where they do not (the record keeps the colours either way)."""
        if not cards:
            return "no cards"
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
        goal = f"target {e['target']} points" if e.get("target") else self._end_text()
        if e.get("max_rounds") and (e.get("target") or not self.rules.spec.get("end", {}).get("rounds")):
            goal += f" or {e['max_rounds']} rounds"       # the game's configured end, whichever comes first
        # the seed deals every hand: it is told only where every hand is told anyway (run, replay)
        seed = e.get("seed")
        told = f"seed {seed}, " if seed is not None and self.viewer is None and not self.live else ""
        yield f"{e['variant']}: {told}{goal}, {e['players']} players"
        if self.by_name:
            yield "Seats: " + ", ".join(self.seat(s) for s in range(len(self.by_name)))
        elif self.names:
            yield "Seats: " + ", ".join(f"{s} {n}" for s, n in enumerate(self.names))

    def _end_text(self) -> str:
        rounds = (self.rules.spec.get("end") or {}).get("rounds")
        return f"{rounds} rounds" if rounds else f"until {self.round.end.when.text}"

    def on_deal(self, e):
        self.bidder_seat = None
        self.trick_number = 0           # each round numbers its tricks from 1
        self.auction_open = self.has_auction
        yield ""
        face = e.get("face_up")
        head = f"Round {e['round']}: {self.seat(e['dealer'])} deals"
        if face:
            unseated = "stays in the nest" if e.get("nest") else "stays undealt"
            where = unseated if face["seat"] is None else f"goes to {self.seat(face['seat'])}"
            head += f"; the face-up card {face['card']} {where}"
        yield head
        sitting = e.get("sits_out")
        first = e.get("first") if isinstance(e.get("first"), list) else None
        self.rest = None
        if first is not None:           # a deal in two parts: the cards each seat sees first, then the rest
            self.rest = [_less(hand, seen) for hand, seen in zip(e["hands"], first)]
        for seat, hand in enumerate(e["hands"]):
            if seat == sitting:
                yield f"  {self.seat(seat)} sits this round out"
            elif self.hidden(seat):
                yield f"  {self.seat(seat)}: {len(hand)} cards"
            elif first is not None and self.rest is not None:
                rest = self.rest[seat]
                later = (f"{len(rest)} cards not seen yet" if self.viewer is not None else
                         f"then {self.cards(rest)}")
                yield f"  {self.seat(seat)}: {self.cards(first[seat])}, {later}"
            else:
                yield f"  {self.seat(seat)}: {self.cards(hand)}"
        if e.get("nest"):
            yield f"  nest: {len(e['nest'])} cards, face down"

    def on_rest_seen(self, e):
        if self.viewer is not None and self.rest is not None and 0 <= self.viewer < len(self.rest):
            yield f"  {self.seat(self.viewer)} sees the rest of its hand: {self.cards(self.rest[self.viewer])}"
        else:
            yield "  every seat sees its whole hand"

    def call_name(self, name) -> str:
        """A call as the file names it in English (else its id, underscores as spaces)."""
        entry = (self.rules.spec.get("calls") or {}).get(name) or {}
        names = entry.get("names") or {}
        return str(names.get("en") or str(name).replace("_", " "))

    def on_call(self, e):
        if e.get("call") is None:
            yield f"  {self.seat(e['seat'])} makes no call"
            return
        said = f"{self.seat(e['seat'])} calls {self.call_name(e['call'])}"
        if self.trick:                  # in the middle of a trick: told with its plays
            self.trick.append(said)
            if self.live:
                yield f"  {said}"
            return
        yield f"  {said}"

    def on_bid(self, e):
        if e["bid"] is None:
            self.bids.append(f"{self.seat(e['seat'])} passes")
        elif e.get("forced"):
            self.bids.append(f"{self.seat(e['seat'])} must bid {e['bid']}")
        else:
            self.bids.append(f"{self.seat(e['seat'])} bids {e['bid']}")
        if self.live:
            yield f"  {self.bids.pop()}"

    def _flush_bids(self):
        if self.bids:
            yield "  bidding: " + ", ".join(self.bids)
        self.bids = []

    def on_redeal(self, e):
        yield from self._flush_bids()
        if self.disputed:                   # an auction's tie for the most, not a round of passes
            self.disputed = False
            yield "  the same dealer deals again"
            return
        yield "  everyone passed: the same dealer deals again"

    def on_role(self, e):
        self.auction_open = False
        yield from self._flush_bids()
        takes = " and takes the nest" if self.nest_to_bidder else ""
        yield f"  {self.seat(e['seat'])} is the {self.bidder} at {e['bid']}{takes}"
        self.bidder_seat = e["seat"] if isinstance(e.get("seat"), int) else None
        self.trick_number = 0

    def on_exchange(self, e):
        count = len(e["cards"])
        if count and self.hidden(e["from"]) and self.hidden(e["to"]):
            yield (f"  exchange: {self.seat(e['from'])} gives {count} card{'s' if count != 1 else ''} "
                   f"to {self.seat(e['to'])}")
        elif count:
            yield (f"  exchange: {self.seat(e['from'])} gives {count} card{'s' if count != 1 else ''} "
                   f"to {self.seat(e['to'])}: {self.cards(e['cards'])}")
        else:
            yield f"  exchange: {self.seat(e['from'])} gives no card to {self.seat(e['to'])}"

    def on_play(self, e):
        if self.trick_leader is None:
            self.trick_leader = e["seat"]
        how = " out of turn" if e.get("out_of_turn") else ""
        out = f" and is out, place {e['place']}" if isinstance(e.get("place"), int) else ""
        self.trick.append(f"{self.seat(e['seat'])} plays{how} {self.cards(e['cards'])} "
                          f"[{self.combination_name(e['combination'])}, rank {self.rank_name(e['rank'])}]{out}")
        if self.live:
            yield f"  {self.trick[-1]}"

    def on_effect(self, e):
        if e.get("do") == "reverse_order":
            self.trick.append("the rank order is now " + ("reversed" if e.get("reversed") else "restored"))
        elif e.get("do") == "wish":
            wished = e.get("rank")
            self.trick.append(f"{self.seat(e['seat'])} " + (f"wishes for a {wished}" if wished is not None
                                                              else "wishes for nothing"))
        elif e.get("do") == "lead_to":
            self.trick.append(f"the trick ends: {self.seat(e['lead'])} leads next")
        else:
            return
        if self.live:
            yield f"  {self.trick[-1]}"

    def on_pass(self, e):
        if self.auction_open:           # a pass in an auction, told on its line as the lays are
            yield f"  {self.seat(e['seat'])} passes"
            return
        self.trick.append(f"{self.seat(e['seat'])} passes")
        if self.live:
            yield f"  {self.trick[-1]}"

    def on_trick(self, e):
        self.trick_number += 1
        if e.get("given_to") is not None:
            outcome = f"{self.seat(e['winner'])} wins the trick and gives {self.cards(e['cards'])} to " \
                      f"{self.seat(e['given_to'])}"
        elif self.round.taken_cards_count or e["winner"] is None:
            outcome = f"{self.seat(e['winner'])} takes {self.cards(e['cards'])}"
        else:
            outcome = f"{self.seat(e['winner'])} wins the trick"
        if self.live:
            yield f"  trick {self.trick_number}: {outcome}"
        else:
            yield f"  trick {self.trick_number}: " + ", ".join(self.trick)
            yield f"    {outcome}"
        self._reset_trick()

    # -- trick-taking ----------------------------------------------------------------------------
    def on_trump(self, e):
        self.trick_number = 0
        self._reset_trick()
        if e["trump"] is None:
            yield f"  {self.seat(e['seat'])} passes the choice of trump to its partner"
        else:
            yield f"  {self.seat(e['seat'])} chooses {e['trump']} as trump"

    def on_card(self, e):
        self.trick.append(f"{self.seat(e['seat'])} {e['card']}")
        if self.live:
            yield f"  {self.trick[-1]}"

    def on_lay(self, e):
        yield f"  {self.seat(e['seat'])} lays {self.cards(e['cards'])} face up"

    def on_dispute(self, e):
        self.disputed = True
        yield (f"  dispute between {', '.join(self.seat(s) for s in e['seats'])}: "
               + (", ".join(f"{self.seat(s)} {p:+d}" for s, p in enumerate(e["points"]) if p) or "no points"))

    def on_second(self, e):
        yield f"  {self.seat(e['seat'])} is the {e['role']}"

    def on_partner(self, e):
        self._reset_trick()
        yield f"  {self.seat(e['seat'])} names {self.seat(e['partner'])} as partner"

    def on_announce(self, e):
        yield (f"  {self.seat(e['seat'])} announces " + ", ".join(f"{m['name']} ({m['points']})" for m in e["melds"])
               + self._totals_now(e))

    def on_announcements(self, e):
        if e.get("seats"):
            yield f"  announcements: {', '.join(self.seat(s) for s in e['seats'])} score {e['points']}" \
                + self._totals_now(e)

    def _totals_now(self, e) -> str:
        """Points scored at once carry the totals they make (announcements ``scored: at_once``)."""
        if not isinstance(e.get("totals"), list):
            return ""
        return "; totals now: " + ", ".join(f"{self.seat(s)} {t}" for s, t in enumerate(e["totals"]))

    def on_round_end(self, e):
        bidder = e.get(self.role_event)
        won = e.get(f"{self.role_event}_won")
        if isinstance(e.get("tricks"), list):
            self.trick_number = 0
            yield "  tricks taken: " + ", ".join(f"{self.seat(s)} {t}" for s, t in enumerate(e["tricks"]))
            if won is not None:
                yield self._contract_text(bool(won))
        elif e.get("void"):
            yield from self._flush_bids()
            yield "  everyone passed: the round is void, nobody scores"
        elif isinstance(e.get("places"), list):
            yield "  places: " + ", ".join(f"{i}. {self.seat(s)}" for i, s in enumerate(e["places"], 1))
        elif won is None:
            yield f"  {self.seat(e['out'])} is out first"
        else:
            side = self.bidder if won else self.others
            yield f"  {self.seat(e['out'])} is out first: the {side} win{'s' if won else ''} the round"
        bonuses = e.get("bonuses") or {}
        happened = [self.bonus_text(name, value) for name, value in bonuses.items()
                    if value and self.bonus_counts(name, won)]
        if happened:
            yield "  this round: " + ", ".join(happened)
        parts = e.get("parts")
        for seat, points in enumerate(e["points"]):
            role = f" ({self.bidder})" if bidder is not None and seat == bidder else ""
            if isinstance(parts, list) and seat < len(parts) and parts[seat]:
                detail = " + ".join(f"{value} ({self.part_label(label)})" for label, value in parts[seat])
                yield f"  {self.seat(seat)}{role}: {detail} = {points}"
            else:
                yield f"  {self.seat(seat)}{role}: {points}"
        yield "  totals: " + ", ".join(f"{self.seat(s)} {t}" for s, t in enumerate(e["totals"]))

    def _contract_text(self, won: bool) -> str:
        """A trick-taking round's contract, made or failed (``round_end.<role>_won``), said as a
        climbing round says who won: ``seat 1, the <bidder>, makes the contract: the <bidder> wins the round``."""
        who = f"{self.seat(self.bidder_seat)}, the {self.bidder}," if self.bidder_seat is not None else f"the {self.bidder}"
        if won:
            return f"  {who} makes the contract: the {self.bidder} wins the round"
        return f"  {who} fails the contract: the {self.others} win the round"

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

    def bonus_name(self, name: str) -> str:
        """A bonus as people read it: the combination it counts, or its id in words."""
        spec = self._bonus_specs().get(name) or {}
        if spec.get("combination"):
            return self.combination_name(spec["combination"])
        return name.replace("_", " ")

    def bonus_text(self, name: str, value) -> str:
        """A bonus that happened this round, with its count when more than once."""
        if isinstance(value, bool) or value == 1:
            return self.bonus_name(name)
        return f"{self.bonus_name(name)} x{value}"

    def part_label(self, label) -> str:
        """A part of a seat's points as people read it: a bonus by its name (``bombs 2 x 25``
        becomes ``Bomb 2 x 25``), anything else as recorded."""
        text = str(label)
        head, _, rest = text.partition(" ")
        if head in self._bonus_specs():
            return f"{self.bonus_name(head)} {rest}".rstrip()
        return text

    def on_game_end(self, e):
        yield ""
        yield from self.standings(e)

    def standings(self, e) -> Iterator[str]:
        """The final standings, best first."""
        totals = e["totals"]
        rounds = e.get("rounds")
        yield "Game over" + (f" after {rounds} round{'s' if rounds != 1 else ''}" if rounds else "") + "."
        sign = -1 if self.round.end.winner == "highest" else 1
        order = sorted(range(len(totals)), key=lambda s: (sign * totals[s], s))
        place = 0
        previous = None
        for i, seat in enumerate(order):
            if totals[seat] != previous:
                place = i + 1
                previous = totals[seat]
            yield f"  {place}. {self.named(seat)}: {totals[seat]}"
        yield result_line(e, self.names, self.seat if self.by_name else None)


def _less(hand: list, seen: list) -> list:
    """The cards of ``hand`` less those of ``seen`` (each name once per copy)."""
    rest = list(hand)
    for card in seen:
        if card in rest:
            rest.remove(card)
    return rest


def result_line(end: dict, names: list[str] | None = None, call: Callable[[int], str] | None = None) -> str:
    """One line: who won, with how much, and the others' totals; ``call``: how a seat is
    called (by default ``seat 1 (NAME)`` with ``names``, ``seat 1`` without)."""
    totals = end["totals"]

    def who(seat: int) -> str:
        if call is not None:
            return call(seat)
        return f"seat {seat} ({names[seat]})" if names and seat < len(names) else f"seat {seat}"

    winner = end.get("winner")
    if winner is None:
        # the engine names the seats sharing the win (the lowest totals when the lowest wins);
        # a record without them is read as the highest winning
        leaders = end.get("winners") or [s for s, t in enumerate(totals) if t == max(totals)]
        text = " and ".join(who(s) for s in leaders) + f" share the win with {totals[leaders[0]]}"
    else:
        text = f"{who(winner)} wins with {totals[winner]}"
    rounds = end.get("rounds")
    if rounds:
        text += f" after {rounds} round{'s' if rounds != 1 else ''}"
    text += " (" + ", ".join(f"{call(s) if call else f'seat {s}'}: {t}" for s, t in enumerate(totals)) + ")"
    return text


def tell(events: Iterable[dict], rules: Rules) -> Iterator[str]:
    """The whole game, readably, line by line."""
    return Teller(rules).lines(events)
