"""A simple heuristic for trick-taking phases (``trump``, ``tricks``, ``auction``, ``partner``).

It reads only its :class:`~chimera_dsl.engine.Observation` (its own cards, and
``observation.table``: the trumps' effect on every card, the trick, the cards played) and
follows a stated strategy:

* **trump**: score each offered trump by the cards it would make trumps in the hand (count
  and strength); choose the best, or pass the choice to the partner when even the best is
  weak (fewer than three trumps with no top trump) and passing is offered;
* **lead**: a card that is the strongest left of its colour (a sure winner outside trumps);
  else the lowest card of the longest colour outside trumps;
* **follow**: when the own side already wins the trick, give the legal card worth most points
  that cannot take the trick from the side; otherwise take the trick as cheaply as possible
  when it is worth taking (points on the table, or the last cards), else throw the least
  valuable legal card;
* **auction** (cards laid face up as bids): when not alone in the lead, lay just enough cards
  to lead alone (the strongest of the longest colour), as long as the bid stays two below
  that colour's length; otherwise pass.  But when no contract is in this hand's reach and
  another seat has laid ``RACE_FROM`` (4) cards, or cards neither all of one colour nor all
  of one value (a bid no single trump choice rests on, so one aiming at the most cards), the
  auction is likely to end in a tie for the most cards (a dispute), which pays the cards laid,
  except those of the last seat to get level at the top: then lay as many cards as allowed, while that
  leads alone or another seat is still below the count reached (it may come level later),
  else pass.  The race is run only where the auction's ``dispute`` pays a tied seat at
  least what it costs the last of them to get level (``gain >= loss``): a seat racing another
  that reads the same rules is the last as often as not (Mü's 5 against 10 does not pay).
  (Racing on every deal wins more against random players, who lay any cards at
  almost every turn, but makes a table of heuristic players dispute most deals instead of
  playing them; bids of one colour or one value do not start the race.);
* **trump from the turned card** (an ``order_up`` phase): value the hand under each colour
  offered (:meth:`hand_value`: a trump counts by its place among the trumps, the strongest
  ``TOP_TRUMP`` (3) down to 1, an ace outside trumps 1, the turned card counted in the hand
  of the seat that would pick it up); name the best when it reaches ``CALL_AT`` (5), or when
  passing is not allowed; discard the weakest card outside trumps (the lowest of the shortest
  colour), else the weakest trump; go alone at ``ALONE_AT`` (9), never defend alone;
* **one against the others** (a ``solo`` phase): value the hand (with the stock, once taken)
  under each game offered (:meth:`solo_value`: a top trump 2, a trump of the trump colour 1,
  its ace or ten 1.5, an ace outside trumps 1, a ten beside it 0.5; for a game of no tricks, a
  seven, eight or nine 1, a card above the ten -1); a game whose value reaches ``SOLO_AT`` (7)
  is playable, worth its base times its tops and game (and hand).  Bid (or hold) up to the
  worth of the best playable game, naming it at once where the game is the bid; take the
  stock; lay away the cards of most points outside trumps that are not aces, from the
  shortest colour; name the best playable game whose worth reaches the bid (else the best),
  announcing nothing more;
  as declarer of a game of no tricks play as where the lowest total wins;
* **partner**: name the seat that laid most cards (a strong hand), the excluded roles apart;
* **bids of tricks** (a ``bids`` phase: every seat says how many tricks it will take): the
  tricks the hand is expected to take, each card counted by its chance to win a trick: each
  higher card of its colour (the trump colour for a trump) that another seat may hold takes
  that chance down (an unseen card is in another hand as often as the hands hold the unseen
  cards, and beats this one ``HIGHER_HELD`` of the time), and a card outside trumps counts a
  little less (it may be trumped); the legal bid nearest that estimate.  Where the bids of a
  side make its contract, a nil is bid only on a hand expected to take almost nothing
  (``NIL_BELOW``), else at least one trick;
* **playing to a bid**: while the seat (or its side, for a side's contract) still needs tricks,
  it plays as above, taking a trick whenever it can; once it has what it bid (or it bid nil),
  it plays as where the lowest total wins: under the trick's best card, shedding its strongest;
* **passing cards** (a transfer before the play): where the lowest total wins, hand over the
  cards most likely to take points (the most points first, then the strongest, and a card
  stronger than its colour's card of most points, which would take that card); elsewhere the
  cards worth least.
"""
from __future__ import annotations

import random
from typing import Sequence

from ..cards import bit_numbers
from ..engine import Action, Observation

HIGHER_HELD = 0.75     # how often a higher card held elsewhere beats a card (see expected_tricks)
NIL_BELOW = 0.05       # a side's player bids nil only on a hand expected to take fewer tricks than this
RACE_FROM = 4          # another seat's cards laid from which a tie for the most is likely (above)
TOP_TRUMP = 3.0        # the value of the strongest trump in a hand (order_up, above)
CALL_AT = 5.0          # the hand value from which trump is made (order_up)
ALONE_AT = 9.0         # the hand value from which the maker goes alone (order_up)
SOLO_AT = 7.0          # the hand value from which a game is playable alone (solo)
OPEN_FROM = 12         # the points from which a hand opens an auction of contract bids
PARTNER_BID = 12       # the points guessed in a partner's hand once it bid
PARTNER_PASSED = 6     # ... once it only passed
PARTNER_UNKNOWN = 9    # ... before it called


class TrickHeuristicPlayer:
    """The heuristic of the module's text, for trick-taking phases."""

    name = "heuristic"

    def __init__(self, seed=0):
        self._rng = random.Random(f"tricks-heuristic:{seed}")

    def act(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        """Choose one of ``legal_actions`` by the module's strategy."""
        kinds = {a.kind for a in legal_actions}
        if len(legal_actions) == 1:
            return legal_actions[0]
        if observation.kind == "order_up":
            return self._order_up(observation, legal_actions)
        if observation.kind == "solo":
            return self._solo(observation, legal_actions)
        if "card" in kinds:
            return self._card(observation, [a for a in legal_actions if a.kind == "card"])
        if observation.kind == "bids":
            return self._bid_tricks(observation, legal_actions)
        if observation.kind == "contract":
            return self._contract(observation, legal_actions)
        if "trump" in kinds:
            return self._trump(observation, legal_actions)
        if "lay" in kinds:
            return self._lay(observation, legal_actions)
        if "partner" in kinds:
            return self._partner(observation, legal_actions)
        if "give" in kinds:
            return self._give(observation, legal_actions)
        return legal_actions[0]

    # -- passing cards -------------------------------------------------------------------------
    def _give(self, obs: Observation, legal: Sequence[Action]) -> Action:
        from .heuristic import config_for
        play = config_for(obs.rules).play
        deck = obs.rules.deck
        points = play.card_points
        strength = [play.plain_strength[r] for r in deck.card_rank]
        # per colour, the strength of its card of most points (a card above it would take it)
        top: dict[int, tuple[int, int]] = {}
        for c, value in enumerate(points):
            colour = deck.card_colour[c]
            if value > 0 and value > top.get(colour, (0, 0))[0]:
                top[colour] = (value, strength[c])
        avoid = self._avoids(obs)

        def danger(c: int) -> float:
            value = 20 * points[c] + strength[c]
            above = top.get(deck.card_colour[c])
            if above is not None and strength[c] > above[1]:
                value += above[0]
            return value if avoid else -(20 * points[c] + strength[c])
        gifts = [a for a in legal if a.kind == "give" and a.mask is not None]
        if not gifts:
            return legal[0]
        return max(gifts, key=lambda a: (sum(danger(c) for c in bit_numbers(a.mask)), -a.mask))

    # -- trump ---------------------------------------------------------------------------------
    def _trump(self, obs: Observation, legal: Sequence[Action]) -> Action:
        from ..engine.phases.tricks import trump_choices_of
        deck = obs.rules.deck
        options = trump_choices_of(obs)
        avoid = self._avoids(obs)
        best, best_score = None, -1.0
        for action in legal:
            if action.kind != "trump":
                continue
            kind, value = options[action.cards]
            cards = [c for c in bit_numbers(obs.held) if (kind == "colour" and deck.colours.index(deck.cards[c][1]) == value)
                     or (kind == "rank" and deck.cards[c][0] == value)]
            if kind == "none":
                score = 2.5
            else:
                score = len(cards) + sum(deck.cards[c][0] for c in cards) / (4.0 * len(deck.ranks))
            if avoid:
                score = -score               # the fewest and weakest trumps take fewest tricks
            if best is None or score > best_score:
                best, best_score = action, score
        passes = [a for a in legal if a.kind == "pass"]
        if passes and not avoid and best_score < 3.5:
            return passes[0]
        return best if best is not None else legal[0]

    # -- one against the others (a solo phase) -------------------------------------------------
    @staticmethod
    def solo_value(obs: Observation, held: int, game) -> float:
        """The value of ``held`` in ``game`` (a solo phase's game; see the module's text)."""
        deck = obs.rules.deck
        cards = list(bit_numbers(held))
        if game.no_tricks:
            low = {deck.index[r] for r in ("7", "8", "9") if r in deck.index}
            high = {r for r in range(len(deck.ranks)) if r not in low and deck.ranks[r] != "10"}
            return sum(1.0 if deck.card_rank[c] in low else -1.0 if deck.card_rank[c] in high else 0.0
                       for c in cards)
        trump = game.trump[1] if game.trump[0] == "colour" else None
        value = 0.0
        for c in cards:
            rank = deck.ranks[deck.card_rank[c]]
            colour = deck.card_colour[c]
            if c in game.top:
                value += 2.0
            elif colour == trump:
                value += 1.5 if rank in ("A", "10") else 1.0
            elif rank == "A":
                value += 1.0
            elif rank == "10" and any(deck.card_colour[d] == deck.card_colour[c] and deck.ranks[deck.card_rank[d]] == "A"
                                      for d in cards):
                value += 0.5
        return value

    def _solo_games(self, obs: Observation, held: int, hand: bool):
        """The games offered with this hand, best first: (playable, worth, index, game)."""
        solo = obs.table["solo"]
        out = []
        for i, game in enumerate(solo["games"]):
            value = self.solo_value(obs, held, game)
            if game.no_tricks:
                worth = game.hand_base if hand and game.hand_base is not None else game.base
            else:
                tops = 0
                for c in game.top:                     # "with" so many, or "without"
                    if (held >> c & 1) != (held >> game.top[0] & 1):
                        break
                    tops += 1
                worth = game.base * (tops + 1 + (1 if hand else 0))
            out.append((value >= SOLO_AT, worth, i, game))
        out.sort(key=lambda t: (t[0], t[1] if t[0] else -t[1]), reverse=True)
        return out

    def _solo(self, obs: Observation, legal: Sequence[Action]) -> Action:
        solo = obs.table["solo"]
        stage = solo["stage"]
        kinds = {a.kind: a for a in legal}
        if stage == "discard":
            deck = obs.rules.deck
            games = self._solo_games(obs, obs.held, False)
            game = games[0][3]
            trump = game.trump[1] if game.trump[0] == "colour" else None
            cards = [a.mask.bit_length() - 1 for a in legal]
            by_card = dict(zip(cards, legal))
            length: dict[int, int] = {}
            for c in cards:
                length[deck.card_colour[c]] = length.get(deck.card_colour[c], 0) + 1
            points = obs.table["card_points"]

            def keep(c: int) -> tuple:
                is_trump = c in game.top or (trump is not None and deck.card_colour[c] == trump)
                if game.no_tricks:           # lay away the cards likeliest to take a trick
                    return (-deck.card_rank[c],)
                return (is_trump, deck.ranks[deck.card_rank[c]] == "A", length[deck.card_colour[c]], -points[c])
            return by_card[min(cards, key=keep)]
        if stage == "stock":
            return kinds.get("take") or legal[0]
        if stage == "declare":                      # announces nothing beyond its game
            return kinds.get("pass") or legal[0]
        games = self._solo_games(obs, obs.held, bool(solo["hand"]))
        playable = [g for g in games if g[0]]
        if stage == "game" or stage == "bid":
            offered = {a.cards: a for a in legal if a.kind == "game"}
            if stage == "bid" and not playable:
                return kinds.get("pass") or legal[0]
            reaching = [g for g in games if g[2] in offered and g[1] >= solo["bid"]]
            best = (reaching or [g for g in games if g[2] in offered])[0]
            return offered[best[2]]
        most = max((g[1] for g in playable), default=0)
        if stage == "hold":
            return kinds["hold"] if solo["bid"] <= most else kinds["pass"]
        bids = sorted((a for a in legal if a.kind == "bid"), key=lambda a: a.bid)
        if bids and bids[0].bid <= most:
            return bids[0]
        return kinds.get("pass") or legal[0]

    # -- trump from the turned card ------------------------------------------------------------
    @staticmethod
    def hand_value(obs: Observation, held: int, colour: int) -> float:
        """The value of ``held`` with colour number ``colour`` trump (see the module's text)."""
        from .heuristic import config_for
        play = config_for(obs.rules).play
        deck = obs.rules.deck
        extra = play.trump_extra[colour] if play.trump_extra else 0
        trumps, aces = [], 0.0
        top = max(play.trump_strength + (play.extra_strength,))
        plain_top = max(play.plain_strength)
        for c in bit_numbers(held):
            rank = deck.card_rank[c]
            if deck.card_colour[c] == colour:
                trumps.append(play.trump_strength[rank])
            elif extra >> c & 1:
                trumps.append(play.extra_strength)
            elif play.plain_strength[rank] == plain_top:
                aces += 1
        value = sum(1 + (TOP_TRUMP - 1) * max(0, s - top + 3) / 3 if s > top - 3 else 1.0 for s in trumps)
        return value + aces

    def _order_up(self, obs: Observation, legal: Sequence[Action]) -> Action:
        deck = obs.rules.deck
        held = obs.held or 0
        kinds = {a.kind for a in legal}
        passes = [a for a in legal if a.kind == "pass"]
        if "card" in kinds:                                  # the discard
            view = obs.table or {}
            colour = next((layer[1] for layer in (view.get("trump_layers") or []) if layer and layer[0] == "colour"),
                          None)
            return min((a for a in legal if a.kind == "card"), key=lambda a: self._discard_key(obs, a, colour))
        if "alone" in kinds:
            view = obs.table or {}
            trumps = view.get("trump_layers") or []
            colour = next((layer[1] for layer in trumps if layer and layer[0] == "colour"), None)
            makers = obs.bidder is not None and obs.bidder in (view.get("side") or (obs.seat,))
            if makers and colour is not None and self.hand_value(obs, held, colour) >= ALONE_AT:
                return next(a for a in legal if a.kind == "alone")
            return passes[0] if passes else legal[0]
        turned = obs.face_up_card
        number = deck.card_index.get(str(turned).upper()) if turned is not None else None
        best, best_value = None, -1.0
        for action in legal:
            if action.kind != "trump":
                continue
            mine = held
            # the seat picking the turned card up (the dealer) counts it in its hand
            if number is not None and deck.card_colour[number] == action.cards and obs.seat == obs.dealer:
                mine |= 1 << number
            value = self.hand_value(obs, mine, action.cards)
            if value > best_value:
                best, best_value = action, value
        if best is not None and (best_value >= CALL_AT or not passes):
            return best
        return passes[0] if passes else legal[0]

    @staticmethod
    def _discard_key(obs: Observation, action: Action, colour: int | None):
        """Discard first a card outside trumps of the shortest colour, the weakest; then trumps."""
        from .heuristic import config_for
        play = config_for(obs.rules).play
        deck = obs.rules.deck
        c = action.mask.bit_length() - 1
        extra = play.trump_extra[colour] if play.trump_extra and colour is not None else 0
        trump = deck.card_colour[c] == colour or bool(extra >> c & 1)
        held = obs.held or 0
        length = sum(1 for o in bit_numbers(held) if deck.card_colour[o] == deck.card_colour[c])
        return (trump, length, play.plain_strength[deck.card_rank[c]])

    # -- the goal ------------------------------------------------------------------------------
    @staticmethod
    def _avoids(obs: Observation) -> bool:
        """Does the file count the points a seat takes against it?  (``end.winner: lowest``:
        the lowest total wins, so each trick's points are to be left to the others.)"""
        from .heuristic import config_for
        end = getattr(config_for(obs.rules), "end", None)
        return getattr(end, "winner", "highest") == "lowest"

    # -- cards ---------------------------------------------------------------------------------
    def _card(self, obs: Observation, legal: Sequence[Action]) -> Action:
        need = self._needed(obs)
        if self._avoids(obs) or (need is not None and need <= 0):
            return self._card_low(obs, legal)
        if need is not None:
            return self._card_take(obs, legal)
        view = obs.table
        suit, strength, points = view["suit"], view["strength"], view["card_points"]
        trump = view["trump_suit"]
        cards = [a.mask.bit_length() - 1 for a in legal]
        by_card = dict(zip(cards, legal))
        trick = view["trick_cards"]
        if not trick:
            return by_card[self._lead(obs, cards)]
        best_seat, wins = _leading(view)
        on_table = sum(points[c] for _, c in trick)
        if best_seat in view["side"] and best_seat != _me(obs):
            safe = [c for c in cards if not wins(c)] or cards
            return by_card[max(safe, key=lambda c: (points[c], -strength[c]))]
        winners = [c for c in cards if wins(c)]
        last = len(trick) == obs.players - 1 - bin(view.get("sitting_out") or 0).count("1")   # a seat may sit out
        if winners and (on_table > 0 or last or len(cards) <= 2):
            return by_card[min(winners, key=lambda c: (suit[c] == trump, strength[c], points[c]))]
        return by_card[min(cards, key=lambda c: (points[c], suit[c] == trump, strength[c]))]

    # -- bids of tricks ------------------------------------------------------------------------
    @staticmethod
    def expected_tricks(obs: Observation) -> float:
        """The tricks the seat's hand is expected to take (see the module's text)."""
        view = obs.table or {}
        suit, strength = view.get("suit"), view.get("strength")
        if not suit:
            return 0.0
        trump = view["trump_suit"]
        held = obs.held or 0
        seen = held | view.get("played", 0)
        turned = obs.face_up_card            # the card turned face up (its name), seen by all
        number = obs.rules.deck.card_index.get(str(turned).upper()) if turned is not None else None
        if number is not None:
            seen |= 1 << number
        unseen = [c for c in range(len(suit)) if not seen >> c & 1]
        hand = bin(held).count("1")
        in_hands = min(1.0, (obs.players - 1) * hand / max(1, len(unseen)))   # an unseen card is held
        total = 0.0
        for c in bit_numbers(held):
            higher = sum(1 for o in unseen if suit[o] == suit[c] and strength[o] > strength[c])
            # a higher card held elsewhere beats this one about half the time (it may be played
            # on another trick, or its holder may have to follow on another lead)
            chance = (1 - in_hands * HIGHER_HELD) ** higher
            if suit[c] != trump:
                chance *= 0.8
            total += chance
        return total

    def _bid_tricks(self, obs: Observation, legal: Sequence[Action]) -> Action:
        bids = [a for a in legal if a.kind == "bid"]
        if not bids:
            return legal[0]
        wanted = self.expected_tricks(obs)
        side = (obs.table or {}).get("side") or (obs.seat,)
        if len(side) > 1 and wanted < 1:
            # a side's contract: a nil bid risks the side's points, so it is bid only on a hand
            # expected to take almost nothing; else one trick
            wanted = 0 if wanted < NIL_BELOW else max(1.0, wanted)
        return min(bids, key=lambda a: (abs(a.bid - wanted), a.bid))

    @staticmethod
    def _needed(obs: Observation) -> int | None:
        """How many more tricks the seat (or its side, whose bids add up) needs to make its bid;
        0 or less once made (a nil bid always 0); None without bids of tricks.  The declarer of
        a game of no tricks (a solo phase) needs none."""
        view = obs.table or {}
        solo = view.get("solo")
        if solo is not None and solo["no_tricks"] and solo["declarer"] == obs.seat:
            return 0
        bids = {seat: bid for seat, bid, _ in (obs.bids or ()) if isinstance(bid, int)}
        if obs.seat not in bids or not view.get("tricks"):
            return None
        if bids[obs.seat] == 0:
            return 0
        side = view.get("side") or (obs.seat,)
        return sum(bids.get(s, 0) for s in side) - sum(view["tricks"][s] for s in side)

    def _card_take(self, obs: Observation, legal: Sequence[Action]) -> Action:
        """Take tricks: lead a sure winner (else the lowest of the longest colour); follow with the
        cheapest card that takes the trick from the other sides, else throw the weakest."""
        view = obs.table
        suit, strength = view["suit"], view["strength"]
        trump = view["trump_suit"]
        cards = [a.mask.bit_length() - 1 for a in legal]
        by_card = dict(zip(cards, legal))
        trick = view["trick_cards"]
        if not trick:
            return by_card[self._lead(obs, cards)]
        best_seat, wins = _leading(view)
        if best_seat in view["side"] and best_seat != _me(obs):
            return by_card[min(cards, key=lambda c: (suit[c] == trump, strength[c]))]
        winners = [c for c in cards if wins(c)]
        if winners:
            return by_card[min(winners, key=lambda c: (suit[c] == trump, strength[c]))]
        return by_card[min(cards, key=lambda c: (suit[c] == trump, strength[c]))]

    def _card_low(self, obs: Observation, legal: Sequence[Action]) -> Action:
        """Play to take as few points as possible: lead the lowest card outside trumps; follow
        under the trick's best card when possible (shedding the card worth most points, then the
        strongest, onto a trick another side takes), and when the trick must be taken, take it
        with the strongest card (it would only win a later trick)."""
        view = obs.table
        suit, strength, points = view["suit"], view["strength"], view["card_points"]
        trump = view["trump_suit"]
        cards = [a.mask.bit_length() - 1 for a in legal]
        by_card = dict(zip(cards, legal))
        trick = view["trick_cards"]
        if not trick:
            plain = [c for c in cards if suit[c] != trump] or cards
            return by_card[min(plain, key=lambda c: (strength[c], points[c]))]
        best_seat, wins = _leading(view)
        under = [c for c in cards if not wins(c)]
        if best_seat in view["side"] and best_seat != _me(obs):
            # the own side takes this trick unless beaten: add as few points as may be
            return by_card[min(under or cards, key=lambda c: (points[c], -strength[c]))]
        if under:
            return by_card[max(under, key=lambda c: (points[c], strength[c]))]
        return by_card[max(cards, key=lambda c: (strength[c], -points[c]))]

    def _lead(self, obs: Observation, cards: list[int]) -> int:
        view = obs.table
        suit, strength = view["suit"], view["strength"]
        trump = view["trump_suit"]
        gone = view["played"] | obs.held
        for exposed in (view.get("exposed") or {}).values():    # a dummy's cards, face up
            gone |= exposed
        unseen = [c for c in range(len(suit)) if not gone >> c & 1]
        for c in sorted(cards, key=lambda c: -strength[c]):
            if suit[c] != trump and all(strength[o] <= strength[c] for o in unseen if suit[o] == suit[c]):
                return c
        plain = [c for c in cards if suit[c] != trump] or cards
        length = {s: sum(1 for c in plain if suit[c] == s) for s in {suit[c] for c in plain}}
        return min(plain, key=lambda c: (-length[suit[c]], strength[c]))

    # -- an auction of contract bids ------------------------------------------------------------
    def _contract(self, obs: Observation, legal: Sequence[Action]) -> Action:
        """Natural bidding: the side's strength (this hand's points, and the partner's guessed
        from its calls: ``PARTNER_BID`` after a bid, ``PARTNER_PASSED`` after only passes,
        ``PARTNER_UNKNOWN`` before it called) gives the tricks the side may take, the book (half
        the deal's tricks) + (points - 17) / 3; the strain is a colour the partner bid where this hand holds three of it, else
        this hand's longest colour of five or more, else no trump (when offered) on a hand with
        no colour shorter than two, else the longest colour; the cheapest bid in that strain
        within reach, else a pass.  A hand opens with ``OPEN_FROM`` points or more.  An
        opponents' contract the side expects to beat by two tricks is doubled."""
        from .heuristic import config_for
        phase = next(p for p in config_for(obs.rules).phases if p.name == obs.phase)
        view = obs.table or {}
        auction = view.get("auction") or {"calls": (), "last_bid": -1, "last_bidder": None}
        calls = auction["calls"]
        side = view.get("side") or (obs.seat,)
        partner = next((s for s in side if s != obs.seat), None)
        points, lengths = _points_of(obs, obs.held)
        partner_calls = [c for c in calls if c[0] == partner]
        if not partner_calls:
            guess = PARTNER_UNKNOWN
        elif any(kind == "bid" for _, kind, _ in partner_calls):
            guess = PARTNER_BID
        else:
            guess = PARTNER_PASSED
        hand = bin(obs.held).count("1")          # the tricks of the deal
        book = hand // 2                         # the tricks a level counts beyond
        tricks = book + (points + guess - 17) / 3
        strains = phase.strains
        colour_index = {value: i for i, (kind, value) in enumerate(strains) if kind == "colour"}
        passes = [a for a in legal if a.kind == "pass"]
        last, last_bidder = auction["last_bid"], auction["last_bidder"]
        # the opponents' contract: double it when the side expects to beat it by two tricks
        if last_bidder is not None and last_bidder not in side:
            level = phase.low + last // len(strains)
            doubles = [a for a in legal if a.kind == "double"]
            if doubles and hand - tricks <= book + level - 2:
                return doubles[0]
        opened = any(kind == "bid" for seat, kind, _ in calls if seat in side)
        if not opened and points < OPEN_FROM:
            return passes[0] if passes else legal[0]
        partner_strains = [b % len(strains) for s, kind, b in partner_calls if kind == "bid"]
        strain = None
        for st in reversed(partner_strains):
            kind, value = strains[st]
            if kind == "none" or lengths[value] >= 3:
                strain = st
                break
        if strain is None:
            longest = max(range(len(lengths)), key=lambda i: (lengths[i], i))
            no_trump = next((i for i, (kind, _) in enumerate(strains) if kind == "none"), None)
            if lengths[longest] >= 5 and longest in colour_index:
                strain = colour_index[longest]
            elif no_trump is not None and min(lengths) >= 2:
                strain = no_trump
            elif longest in colour_index:
                strain = colour_index[longest]
            else:
                strain = no_trump if no_trump is not None else 0
        reach = int(tricks) - book
        bids = [a for a in legal if a.kind == "bid" and a.bid % len(strains) == strain
                and phase.low + a.bid // len(strains) <= reach]
        if bids:
            return bids[0]
        return passes[0] if passes else legal[0]

    # -- auction and partner ---------------------------------------------------------------------
    def _lay(self, obs: Observation, legal: Sequence[Action]) -> Action:
        deck = obs.rules.deck
        held = list(bit_numbers(obs.held))
        laid = (obs.table or {}).get("laid") or [0] * obs.players     # none laid in a climbing round
        counts = [bin(m).count("1") for m in laid]
        mine = counts[obs.seat]
        best_other = max(c for s, c in enumerate(counts) if s != obs.seat)
        colours: dict = {}
        for c in held:
            colours.setdefault(deck.cards[c][1], []).append(c)
        longest = max(colours.values(), key=len) if colours else []
        passes = [a for a in legal if a.kind == "pass"]
        need = best_other + 1 - mine            # cards that make this seat the only leader
        budget = len(longest) - 2               # a long colour bids up to two less than its length
        strong = set(longest)

        def worth(a: Action) -> int:             # the longest colour's strong cards, others' weak
            return sum(2 * deck.cards[c][0] if c in strong else -deck.cards[c][0] for c in bit_numbers(a.mask))
        if (need > 0 and best_other + 1 > budget and self._race_pays(obs)
                and (best_other >= RACE_FROM or self._aimless(deck, laid, obs.seat))):
            return self._race(counts, obs.seat, legal, passes, worth)
        if need <= 0 or best_other + 1 > budget:
            return passes[0] if passes else legal[0]
        sized = [a for a in legal if a.kind == "lay" and bin(a.mask).count("1") == need]
        if not sized:
            return passes[0] if passes else legal[0]
        return max(sized, key=worth)

    @staticmethod
    def _race_pays(obs: Observation) -> bool:
        """Can a race for a tie pay, by the auction's ``dispute`` settings?  Of two seats level
        at the top one is the last to get there and loses ``loss`` a card while the other gains
        ``gain``; a seat racing another that reads the same rules must expect to be that last
        one as often as not, so the race pays only where ``gain`` is at least ``loss`` (a
        dispute that pays nothing, or less than being last costs, is not worth starting)."""
        from .heuristic import config_for
        for phase in config_for(obs.rules).phases:
            if getattr(phase, "kind", None) == "auction" and phase.name == obs.phase:
                return phase.gain > 0 and phase.gain >= phase.loss
        return False

    @staticmethod
    def _aimless(deck, laid: list[int], seat: int) -> bool:
        """Has another seat laid cards neither all of one colour nor all of one value (a bid no
        single trump choice rests on, so one aiming at the most cards, not at a contract)?"""
        for s, mask in enumerate(laid):
            if s == seat or mask & (mask - 1) == 0:
                continue
            cards = [deck.cards[c] for c in bit_numbers(mask)]
            if len({rank for rank, _ in cards}) > 1 and len({colour for _, colour in cards}) > 1:
                return True
        return False

    @staticmethod
    def _race(counts: list[int], seat: int, legal: Sequence[Action], passes: list, worth) -> Action:
        """No contract in reach: get level at the top early, never as the last to get there
        (laying the cards ``worth`` prefers, should the race end with this seat alone ahead)."""
        lays = [a for a in legal if a.kind == "lay"]
        if not lays:
            return passes[0] if passes else legal[0]
        most = max(bin(a.mask).count("1") for a in lays)
        reached = counts[seat] + most
        best_other = max(c for s, c in enumerate(counts) if s != seat)
        if reached > best_other or any(c < reached for s, c in enumerate(counts) if s != seat):
            return max((a for a in lays if bin(a.mask).count("1") == most), key=worth)
        return passes[0] if passes else legal[0]

    def _partner(self, obs: Observation, legal: Sequence[Action]) -> Action:
        laid = (obs.table or {}).get("laid") or [0] * obs.players     # none laid in a climbing round
        return max(legal, key=lambda a: (bin(laid[a.cards]).count("1"), -a.cards))


def _me(obs: Observation) -> int:
    """The seat whose card is played now: the seat itself, or the dummy it plays for."""
    turn = (obs.table or {}).get("turn")
    return obs.seat if turn is None else turn


def _points_of(obs: Observation, held: int) -> tuple[float, list[int]]:
    """A hand's strength for the auction: per colour the top four cards of its plain order
    count 4, 3, 2, 1 (an ace, king, queen, jack), and each card beyond four in a colour one
    more; and the hand's length in each colour."""
    deck = obs.rules.deck
    from .heuristic import config_for
    play = config_for(obs.rules).play
    top = sorted(set(play.plain_strength), reverse=True)[:4]
    value = {s: 4 - i for i, s in enumerate(top)}
    lengths = [0] * len(deck.colours)
    points = 0.0
    for c in bit_numbers(held):
        lengths[deck.colours.index(deck.cards[c][1])] += 1
        points += value.get(play.plain_strength[deck.card_rank[c]], 0)
    points += sum(max(0, n - 4) for n in lengths)
    return points, lengths


def _leading(view: dict):
    """The seat whose card leads the trick on the table (``view``: the observation's table, the
    trick not empty), and a test of whether a card would beat that card: the same suit and
    stronger, or a trump on a card of another suit."""
    suit, strength, trump = view["suit"], view["strength"], view["trump_suit"]

    def beats(c: int, best: int) -> bool:
        return (suit[c] == suit[best] and strength[c] > strength[best]) or (suit[c] == trump and suit[best] != trump)
    trick = view["trick_cards"]
    best_seat, best = trick[0]
    for seat, c in trick[1:]:
        if beats(c, best):
            best_seat, best = seat, c
    return best_seat, lambda c: beats(c, best)

