"""Every translation between engine objects and the web table's JSON, in one place.

* :func:`seat_view` - one seat's :class:`~chimera_dsl.engine.Observation` as JSON, field by
  field: packed card keys become card strings (``game.names``), plays become
  ``{"cards", "combination", "name", "rank"}``, tuples become lists; a field this module does
  not know is converted generically, so a new observation field reaches the page as it is.
* :func:`public_view` - what every seat sees alike: the fields on which all the seats'
  views agree, less the fields about the viewing seat itself (a spectator's view).
* :func:`actions_json` - the legal actions, each with an ``id`` (its place in the list), its
  ``kind``, a ``label`` and its data (``cards``, ``bid``, ``combination``, ``rank``...); an
  action kind this module does not know gets a generic label.
* :func:`action_of` - a client's choice (``{"turn", "move"}``) back to an ``Action``.
* :func:`deal_of` / :func:`candidates` - what resuming a table from its record needs: a
  recorded deal as the engine's deal tuple, and the legal actions that could have written a
  recorded line.

Nothing here reads anything but the observation, the actions, ``state.events`` lines and the
deck's names: a change of the engine's objects is adapted here and nowhere else.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from ..engine import Action, Deal, Game, Observation, TwoPartDeal
from ..tell.articles import word
from ..tell.decisions import trick_words
from ..tell.printer import Teller
from ..tell.wording import TRICK_ACTION_KINDS, call_words, trick_action_fields, trick_action_text
from .words import PLAYER as PLAYER_WORDS, page_words

NO_SEAT = -1
"""The seat a spectator's :class:`~chimera_dsl.tell.printer.Teller` tells from: one that is nobody's,
so every hand and every card handed between seats is hidden."""

SEAT_OWN_FIELDS = frozenset({"seat", "hand", "held", "cards", "given", "received", "partner", "transfers", "nest",
                             "side", "unseen"})
"""Observation fields about the viewing seat itself: never in the public view, even when every
seat's value happens to agree."""


class ChoiceError(ValueError):
    """A client's choice names no legal action: the message says why."""


# -- converting values ---------------------------------------------------------------------------

Convert = Callable[[Game, Any], Any]


def _cards(game: Game, key) -> list[str] | None:
    return None if key is None else game.names(key)


def _rank_index(game: Game, index) -> str | None:
    ranks = game.rules.deck.ranks
    return ranks[index] if isinstance(index, int) and 0 <= index < len(ranks) else None


def _per_seat(convert: Convert) -> Convert:
    return lambda game, values: None if values is None else [convert(game, v) for v in values]


def _named(*parts: tuple[str, Convert | None]) -> Convert:
    """A tuple whose members get names (and their own conversion)."""
    def convert(game: Game, value):
        if value is None:
            return None
        return {name: (fn(game, v) if fn is not None else generic(game, v))
                for (name, fn), v in zip(parts, value)}
    return convert


def _each(convert: Convert) -> Convert:
    return lambda game, values: [convert(game, v) for v in values or ()]


FIELDS: dict[str, Convert] = {
    "hand": _cards,
    "given": _cards,
    "received": _cards,
    "played": _cards,
    "nest": _cards,
    "played_by": _per_seat(_cards),
    "taken": _per_seat(_cards),
    "face_up": _named(("card", _rank_index), ("seat", None)),
    "bids": _each(_named(("seat", None), ("bid", None), ("forced", None))),
    "trick": _each(_named(("seat", None), ("play", None))),
}
"""How each known observation field becomes JSON; any other field goes through :func:`generic`."""

SEAT_MARKS: dict[str, str] = {"dealer": "dealer", "bidder": "@bidder", "partner": "your partner"}
"""Observation fields that name a seat, and the mark that seat gets at the table (``@role``:
what the variant calls that role; ``bidder`` is the observation's name for the bidder's seat)."""

MARKED_FIELDS = (*SEAT_MARKS, "calls")
"""The observation fields :func:`seat_marks` shows as marks by the seats (the state's
``marked_fields``): the page shows them there, not again among the facts."""

HIDDEN_FIELDS = frozenset({"rules", "held"})
"""Observation fields never sent (objects of the engine, not facts of the table): ``held`` is a
mask over the deck's cards, sent by name as ``hand`` and ``cards``; it tells twin cards (two
``7/red``) apart, which nothing at the table does."""


def play_json(game: Game, play, lang: str = "en") -> dict:
    """A play: its cards, its combination's id and name (in ``lang``), and its rank (number and name)."""
    teller = _teller(game, lang)
    return {"cards": list(play.cards), "combination": play.combination,
            "name": teller.combination_name(play.combination), "rank": play.rank,
            "rank_name": teller.rank_name(play.rank)}


def _is_play(value) -> bool:
    return all(hasattr(value, name) for name in ("cards", "combination", "rank"))


def generic(game: Game, value):
    """Any engine value as JSON: plays as :func:`play_json`, tuples as lists, the rest as text."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if _is_play(value):
        return play_json(game, value)
    if isinstance(value, (tuple, list, frozenset, set)):
        return [generic(game, v) for v in value]
    if isinstance(value, dict):
        return {str(k): generic(game, v) for k, v in value.items()}
    return str(value)


_TELLERS: dict[tuple[int, str], Teller] = {}


def _teller(game: Game, lang: str = "en") -> Teller:
    """A teller of the game's rules, for combination and rank names (one per rules object and language)."""
    teller = _TELLERS.get((id(game.rules), lang))
    if teller is None or teller.rules is not game.rules:
        if len(_TELLERS) > 256:
            _TELLERS.clear()
        teller = _TELLERS[(id(game.rules), lang)] = Teller(game.rules, lang=lang)
    return teller


def role_word(rules, role: str, lang: str = "en") -> str:
    """What the variant calls ``role`` in ``lang`` (its ``roles``, else the catalog's glossary)."""
    return word((rules.spec.get("roles") or {}).get(role, role), lang)


def localised(game: Game, shown, lang: str):
    """A seat's view (:func:`seat_view`) with the names people read in ``lang``: the
    combinations of its plays, the roles and the announcements of a trick-taking table."""
    if lang == "en" or not isinstance(shown, (dict, list)):
        return shown
    rules = game.rules
    teller = _teller(game, lang)
    roles = {rules.role_name(r): role_word(rules, r, lang) for r in list(rules.spec.get("roles") or {}) + ["bidder", "others"]}

    def walk(value, key=None):
        if isinstance(value, str) and key == "announced":     # a trick-taking table's announcements
            return teller.meld_name(value)
        if isinstance(value, list):
            return [walk(v, key) for v in value]
        if not isinstance(value, dict):
            return value
        out = {k: walk(v, k) for k, v in value.items()}
        if "combination" in out and "name" in out and "cards" in out:
            out["name"] = teller.combination_name(out["combination"])
        elif key == "roles" and "role" in out and "name" in out:
            out["name"] = role_word(rules, str(out["role"]), lang)
        elif key == "chosen" and isinstance(out.get("role"), str):
            out["role"] = roles.get(out["role"], out["role"])
        return out
    return walk(shown)


# -- views ----------------------------------------------------------------------------------------

def seat_view(game: Game, obs: Observation, events: Sequence[dict] = ()) -> dict:
    """The observation of one seat as JSON, every field converted (see :data:`FIELDS`).

    A trick-taking round's table (``obs.table``) becomes :func:`table_json`, and its ``side``
    a field of its own (the seats playing with this one); ``events``, the game's record
    lines so far, tell who chose each trump of the round.
    """
    out: dict[str, Any] = {}
    for name, value in obs.as_dict().items():
        if name in HIDDEN_FIELDS:
            continue
        if name == "table":
            if value:
                out["table"] = table_json(game, value, events, obs.bidder)
                out["side"] = generic(game, value.get("side"))
            else:
                out["table"] = None
            continue
        convert = FIELDS.get(name)
        out[name] = convert(game, value) if convert is not None else generic(game, value)
    if game.rules.reads_colours and obs.cards is not None:
        out["hand"] = list(obs.cards)       # the very cards, as the legal plays name them (7/red)
        if events:
            _very_cards_handed(out, obs.seat, events)
    face = out.get("face_up")
    if isinstance(face, dict) and isinstance(face.get("card"), str) and "/" not in face["card"]:
        very = obs.face_up_card              # the very card, to draw it with its colour (a stock's top changes)
        if isinstance(very, str) and very.split("/", 1)[0] == face["card"]:
            face["drawn"] = very
    for zone in obs.zones or ():
        if zone.name == "stock" and zone.size is not None:
            out["stock"] = zone.size         # a stock drawn from after each trick (play.draw): how many cards
        elif zone.name == "drawn" and zone.cards:  # cards a seat drew face up, still held: seen by all
            out.setdefault("drawn_open", {})[str(zone.owner)] = game.rules.deck.mask_names(zone.cards)
    if events:
        out["last_trick"] = last_trick(game, events)
    return out


def _very_cards_handed(out: dict, seat, events: Sequence[dict]) -> None:
    """``given`` and ``received`` (named by rank in the observation) as the very cards this
    round's exchange lines of ``seat`` name (``4/jade``, not ``4``), where they name the same
    ranks."""
    handed: dict[str, list[str]] = {"given": [], "received": []}
    for event in _this_round(events):
        if event.get("type") == "exchange" and isinstance(event.get("cards"), list):
            if event.get("from") == seat:
                handed["given"] += event["cards"]
            if event.get("to") == seat:
                handed["received"] += event["cards"]
    for field, cards in handed.items():
        ranks = out.get(field)
        if isinstance(ranks, list) and ranks and sorted(str(c).split("/", 1)[0] for c in cards) == sorted(ranks):
            out[field] = sorted(cards, key=lambda c: ranks.index(str(c).split("/", 1)[0]))


def last_trick(game: Game, events: Sequence[dict]) -> dict | None:
    """The last trick taken this round, from the record's lines: ``{"winner", "plays": [{"seat",
    "cards"}]}``, its plays and cards in the order played (cards named as the view names plays:
    by rank where the rules read no colours); None before the round's first trick.  Every card
    in it was played face up: the page shows it while the next trick is empty."""
    end = None
    for i in range(len(events) - 1, -1, -1):
        kind = events[i].get("type")
        if kind == "deal":
            return None
        if kind == "trick":
            end = i
            break
    if end is None:
        return None
    colours = game.rules.reads_colours
    plays = []
    for event in reversed(events[:end]):
        kind = event.get("type")
        if kind in ("trick", "deal"):
            break
        if kind == "card":
            plays.append({"seat": event.get("seat"), "cards": [event.get("card")]})
        elif kind == "play":
            cards = [str(c) for c in event.get("cards") or ()]
            plays.append({"seat": event.get("seat"), "cards": cards if colours else [c.split("/", 1)[0] for c in cards]})
    plays.reverse()
    return {"winner": events[end].get("winner"), "plays": plays}


def table_json(game: Game, table: dict, events: Sequence[dict] = (), bidder: int | None = None) -> dict:
    """What every seat sees of a trick-taking round's table, by name.

    ``trumps``: per layer (0 first: the one that prevails) the trump's name, ``none`` (no
    trump) or None (not chosen); ``chosen``: this round's choices of trump in order, each
    ``{"seat", "trump", "role"}`` (``trump`` None: the choice passed to the partner; ``role``:
    what the variant calls the chooser's role, if any); ``trick``: ``{"seat", "card"}`` in
    the order played; ``tricks`` and ``points``: per seat, the tricks and card points taken
    so far; ``laid``: per seat, the cards it laid face up and still holds; ``roles``: the
    seats of the round's roles, ``{"role", "name", "seat"}``; ``announced``: per seat, the
    announcements it made; ``trump_options``: the trump phase's options by name.  Nothing of
    the table's engine-side arrays (suits, strengths) is sent.
    """
    rules = game.rules
    deck = rules.deck
    played = table.get("played") or 0
    role_seats = {str(k): v for k, v in (table.get("roles") or {}).items() if isinstance(v, int)}
    role_of = {seat: role for role, seat in role_seats.items()}

    def role_name(seat) -> str | None:
        if seat is not None and seat == bidder:
            return rules.role_name("bidder")
        role = role_of.get(seat)
        return rules.role_name(role) if role is not None else None

    chosen = []
    for event in _this_round(events):
        if event.get("type") == "trump":
            chosen.append({"seat": event.get("seat"), "trump": event.get("trump"), "role": role_name(event.get("seat"))})
    from ..engine.phases.tricks import trump_name
    # cards face up for all that their holder still holds: laid in an auction, or a dummy's hand
    laid = list(table.get("laid") or ()) or ([0] * game.players if table.get("exposed") else [])
    exposed = {int(seat): mask for seat, mask in (table.get("exposed") or {}).items()}
    for seat, mask in exposed.items():
        laid[seat] |= mask
    out: dict[str, Any] = {
        "trumps": list(table.get("trumps") or ()),
        "chosen": chosen,
        "trick": [{"seat": seat, "card": card} for seat, card in table.get("trick") or ()],
        "tricks": list(table.get("tricks") or ()),
        "points": list(table.get("points") or ()),
        "laid": [deck.mask_names(mask & ~played) for mask in laid],
        "roles": [{"role": role, "name": rules.role_name(role), "seat": seat} for role, seat in role_seats.items()],
        "announced": [list(melds) for melds in table.get("announced") or ()],
        "trump_options": [trump_name(deck, option) for option in table.get("trump_options") or ()],
        # an auction of contracts: the dummy's cards face up (also in laid), whose card is played next
        "exposed": [{"seat": seat, "cards": deck.mask_names(mask)} for seat, mask in exposed.items()],
    }
    if table.get("turn") is not None:
        out["turn"] = table["turn"]
    contract = table.get("contract")
    if contract is not None:
        out["contract"] = dict(contract)
    return out


def _this_round(events: Sequence[dict]) -> list[dict]:
    """The record lines since the last deal (a redeal starts the round's choices anew)."""
    for i in range(len(events) - 1, -1, -1):
        if events[i].get("type") == "deal":
            return list(events[i + 1:])
    return []


def public_view(views: Sequence[dict]) -> dict:
    """What every seat sees alike: the fields equal in all ``views``, less :data:`SEAT_OWN_FIELDS`."""
    if not views:
        return {}
    first = views[0]
    return {name: value for name, value in first.items()
            if name not in SEAT_OWN_FIELDS and all(v.get(name) == value for v in views[1:])}


def seat_marks(game: Game, view: dict, players: int, lang: str = "en") -> list[list[str]]:
    """Per seat, the marks the table shows by its name (``dealer``, the bidder's role, a
    trick-taking round's roles, ``your partner`` / ``your side``, the calls it made...), in ``lang``."""
    marks: list[list[str]] = [[] for _ in range(players)]
    for field, label in SEAT_MARKS.items():
        seat = view.get(field)
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < players:
            if label.startswith("@"):
                label = role_word(game.rules, label[1:], lang)
            else:
                label = page_words(lang, "mark_" + field)
            marks[seat].append(label)
    table = view.get("table") or {}
    for role in table.get("roles") or ():               # a trick-taking round's roles (vice, partner...)
        seat = role.get("seat")
        name = role["name"] if lang == "en" else role_word(game.rules, str(role.get("role")), lang)
        if _is_int(seat) and 0 <= seat < players and name not in marks[seat]:
            marks[seat].append(name)
    for seat, made in (view.get("calls") or {}).items():     # every seat's calls this round (calls)
        seat = int(seat) if isinstance(seat, str) and seat.isdigit() else seat
        if _is_int(seat) and 0 <= seat < players:
            marks[seat] += [call_words(game.rules, name, lang) for name in made
                            if call_words(game.rules, name, lang) not in marks[seat]]
    side = view.get("side") or []
    own = view.get("seat")
    for seat in side:                                   # the seats playing with the viewer this round
        if _is_int(seat) and seat != own and 0 <= seat < players:
            mark = page_words(lang, "mark_partner" if len(side) == 2 else "mark_side")
            if mark not in marks[seat]:
                marks[seat].append(mark)
    return marks


def phase_names(game: Game, lang: str = "en") -> dict[str, str]:
    """The round's phases by the names people read in ``lang``: the file's own (``phases.*.names``),
    else the catalog's word for a phase of that name or kind; in English, the file's English
    words, else as the file names them."""
    words = PLAYER_WORDS[lang].get("phases") or {} if lang in PLAYER_WORDS else {}
    out = {}
    for phase in game.round.phases:
        names = ((game.rules.spec.get("phases") or {}).get(phase.name) or {}).get("names") or {}
        given = names.get(lang) if isinstance(names, dict) else None
        said = words.get(phase.name) or words.get(phase.kind) if lang != "en" else None     # by name, else kind
        out[phase.name] = str(given or said or phase.name)
    return out


def roles(game: Game, lang: str = "en") -> dict:
    """What the variant calls its roles (``bidder``, ``others``), in ``lang``."""
    return {"bidder": role_word(game.rules, "bidder", lang), "others": role_word(game.rules, "others", lang)}


COMPUTER_NAMES = ("Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Hedy", "Claude",
                  "Frances", "John", "Radia", "Niklaus")
"""First names the page gives computer seats, one per seat (``Ada (heuristic)``): every
computer seat of a table runs the same player, and people must tell them apart."""


def shown_names(seats: Sequence) -> list[str]:
    """The name of each seat as the table shows it, every one different.

    ``seats``: objects with ``kind`` (``free``, ``person``, ``computer``) and ``name`` (a
    person's name; a computer seat's player).  A computer seat is a first name of
    :data:`COMPUTER_NAMES` and its player (``Grace (heuristic)``); a free seat is ``""``; a name
    that two seats share gets its number (``Ann``, ``Ann 2``).
    """
    names = []
    for i, seat in enumerate(seats):
        if seat.kind == "computer":
            names.append(f"{COMPUTER_NAMES[i % len(COMPUTER_NAMES)]} ({seat.name})")
        else:
            names.append(seat.name if seat.kind != "free" else "")
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        if not name:
            continue
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            names[i] = f"{name} {seen[name]}"
    return names


def deck_json(rules, lang: str = "en") -> dict:
    """What the page needs to draw the deck's cards: its ``colours`` (lowest first: the suits,
    by the names the cards use after ``/``), its ``wild`` colours (a card of every colour), the
    ``looks`` the file gives some colours (``deck.looks``: ``{"symbol", "colour"}``), and the
    long names of its ranks in ``lang`` (``J``: ``jack``; English where the file gives none)."""
    deck = rules.deck
    spec = rules.spec.get("deck") or {}
    names = {}
    for rank, name in (deck.names or {}).items():
        if isinstance(name, dict):
            names[rank] = str(name.get(lang) or name.get("en") or next(iter(name.values()), rank))
        else:
            names[rank] = word(name, lang)
    looks = {str(colour): {k: str(v) for k, v in (look or {}).items() if k in ("symbol", "colour")}
             for colour, look in (spec.get("looks") or {}).items()}
    return {"colours": list(deck.colours), "wild": [str(c) for c in spec.get("wild_colours") or ()],
            "looks": looks, "names": names}


def end_json(game: Game) -> dict:
    """How the game ends, as configured: ``target`` (the points that end it, when the end
    condition reads them; None otherwise), ``rounds`` (the most rounds played: the variant's
    ``end.rounds`` or the server's ``--rounds``, the smaller), ``when`` (a condition of the
    variant's own, as written, when it is neither) and ``winner`` (``highest`` or ``lowest``)."""
    end = game.round.end
    spec = game.rules.spec.get("end") or {}
    limits = [n for n in (spec.get("rounds"), game.max_rounds) if isinstance(n, int) and not isinstance(n, bool)]
    reads_target = "target" in end.when.names
    written = "when" in spec and not reads_target and "rounds" not in spec
    return {"target": game.target if reads_target else None, "rounds": min(limits) if limits else None,
            "when": end.when.text if written else None, "winner": end.winner}


# -- actions --------------------------------------------------------------------------------------

def action_json(game: Game, action: Action, index: int, obs: Observation | None = None, lang: str = "en") -> dict:
    """One legal action: ``id``, ``kind``, ``label`` and the data of its fields.

    A trick-taking action names its cards and choices as the record does
    (:func:`~chimera_dsl.tell.wording.trick_action_fields`: ``cards`` of a lay, ``card``, ``trump``,
    ``partner``) and is labelled as the terminal says it; ``obs``, the acting seat's
    observation, gives the trump phase's options and the kind of the phase (a pass of the
    choice of trump is labelled as such); ``lang``: the language of the label and of a play's name.
    """
    out: dict[str, Any] = {"id": index, "kind": action.kind}
    table = obs.table if obs is not None else None
    kind = obs.kind if obs is not None else None
    if kind == "contract":                     # a call of an auction of contracts, named as the record does
        phase = next(p for p in game.round.phases if p.kind == "contract" and p.name == obs.phase)
        out["call"] = phase.bid_name(action.bid) if action.kind == "bid" else action.kind
        out["label"] = out["call"]
        return out
    if kind == "solo" and action.kind in ("game", "declare", "hold", "take", "hand"):
        # a solo phase: a game or a declaration by its name in this language, or its typed word
        solo = (table or {}).get("solo") or {}
        if action.kind in ("game", "declare"):
            item = solo["games" if action.kind == "game" else "declarations"][action.cards]
            out[action.kind] = item.name
            out["label"] = dict(item.names).get(lang, item.name)
        else:
            words = PLAYER_WORDS.get(lang) or PLAYER_WORDS["en"]
            out["label"] = str(words["typed_" + action.kind])
        return out
    if action.kind in TRICK_ACTION_KINDS or (action.kind == "pass" and kind in ("trump", "calls")):
        trumps = (table or {}).get("trump_options") or ()
        out.update(trick_action_fields(game.rules, action, trumps, kind))
        out["label"] = trick_words(game.rules, action, trumps, kind, lang)
        return out
    for name, value in zip(action._fields, action):
        if name in ("kind", "mask") or value is None:      # the mask: the very cards, named below
            continue
        if _is_play(value):
            out.update({k: v for k, v in play_json(game, value, lang).items()})
        elif name == "cards" and isinstance(value, int):
            # a gift of the very cards (3/stars, not any 3) names them
            out["cards"] = game.card_names(action.mask) if action.mask else game.names(value)
        else:
            out[name] = generic(game, value)
    out["label"] = action_label(out, lang)
    return out


def action_label(data: dict, lang: str = "en") -> str:
    """``pass``, ``bid 40``, ``give 3 5``, ``7 7 7 5: Trio with a single, rank 7``; other kinds: the kind and its data."""
    kind = data["kind"]
    if "name" in data and "cards" in data:
        return page_words(lang, "label_play", cards=" ".join(data["cards"]), name=data["name"],
                          rank=data.get("rank_name", data.get("rank")))
    fields = data.keys() - {"id", "kind", "label"}
    if kind == "pass" and not fields:
        return page_words(lang, "label_pass")
    if kind == "bid" and fields == {"bid"}:
        return page_words(lang, "label_bid", bid=data["bid"])
    if kind == "give" and fields == {"cards"} and isinstance(data["cards"], list):
        return page_words(lang, "label_give", cards=" ".join(map(str, data["cards"])))
    rest = [" ".join(map(str, v)) if isinstance(v, list) else str(v)
            for k, v in data.items() if k not in ("id", "kind", "label")]
    return " ".join([kind] + rest)


def actions_json(game: Game, legal: Sequence[Action], obs: Observation | None = None,
                 lang: str = "en") -> list[dict]:
    """The legal actions as JSON, each with its ``id`` (its index in ``legal``); ``obs``: the
    acting seat's observation (see :func:`action_json`); ``lang``: the labels' language."""
    return [action_json(game, action, i, obs, lang) for i, action in enumerate(legal)]


def action_of(legal: Sequence[Action], choice: dict, turn: int) -> Action:
    """The action a client chose: ``choice["move"]`` is an ``id`` of the list offered at ``turn``.

    Raises :class:`ChoiceError` with the reason when it names none.
    """
    sent_turn = choice.get("turn")
    if not _is_int(sent_turn):
        raise ChoiceError('an action needs "turn": the number of the decision it answers')
    if sent_turn != turn:
        raise ChoiceError(f"that move answers decision {sent_turn}, but the table is at decision {turn}")
    move = choice.get("move")
    if not isinstance(move, int) or isinstance(move, bool):
        raise ChoiceError('an action needs "move": the id of one of the legal moves')
    if not 0 <= move < len(legal):
        raise ChoiceError(f"no legal move has the id {move} (there are {len(legal)}, ids 0 to {len(legal) - 1})")
    return legal[move]


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# -- reading a record back ------------------------------------------------------------------------

def deal_of(game: Game, event: dict) -> Deal:
    """A recorded ``deal`` line as the engine's :class:`~chimera_dsl.engine.Deal` (the very cards)."""
    deck = game.rules.deck
    free = deck.full_mask
    masks = []
    for cards in list(event["hands"]) + [event["nest"]]:
        mask = deck.cards_mask(cards, within=free) if cards else 0
        free &= ~mask
        masks.append(mask)
    face = event.get("face_up")
    face_up = None
    if face is not None:
        seat = face["seat"]
        pool = masks[seat] if seat is not None else masks[-1] | free
        face_up = (deck.numbers_of(deck.cards_mask([face["card"]], within=pool))[0], seat)
    stock = event.get("stock")              # a deal completed after a phase: the stock, in its order
    if isinstance(stock, list):
        from ..engine.phases.stock import StockDeal
        return StockDeal(tuple(masks[:-1]), masks[-1], face_up,
                         [deck.card_index[str(name).upper()] for name in stock])
    first = event.get("first")              # a deal in two parts: the cards each seat saw first
    if isinstance(first, list):
        return TwoPartDeal(tuple(masks[:-1]), masks[-1], face_up,
                           [deck.cards_mask(cards, within=masks[s]) if cards else 0 for s, cards in enumerate(first)])
    return Deal(tuple(masks[:-1]), masks[-1], face_up)


def _same(a, b) -> bool:
    if isinstance(a, list) and isinstance(b, list) and all(isinstance(x, str) for x in a + b):
        # a legal action names ranks; its line names the very cards (7/red): compare by rank
        return sorted(x.split("/", 1)[0] for x in a) == sorted(x.split("/", 1)[0] for x in b)
    return a == b


def candidates(game: Game, legal: Sequence[Action], upcoming: Sequence[dict],
               obs: Observation | None = None) -> list[Action]:
    """The legal actions that agree with some ``upcoming`` recorded line on every field both have
    (``cards``, ``bid``, ``combination``, ``rank``, ``card``, ``trump``, ``partner``...); an
    action with no such field (a pass) always qualifies.  Resuming tries these in order and
    keeps the one whose lines match.  ``obs``: the acting seat's observation (trump names)."""
    out = []
    for i, action in enumerate(legal):
        data = action_json(game, action, i, obs)
        fields = {k: v for k, v in data.items() if k not in ("id", "kind", "label", "name", "rank_name")}
        if not fields or any(all(_same(v, line[k]) for k, v in fields.items() if k in line)
                             and any(k in line for k in fields) for line in upcoming):
            out.append(action)
    return out


def choice_json(game: Game, action: Action, obs: Observation | None = None) -> dict:
    """An action as JSON without its ``id``: what a table stores of a decision no record line shows yet."""
    data = action_json(game, action, 0, obs)
    del data["id"]
    return data


def action_from_json(game: Game, legal: Sequence[Action], data: dict,
                     obs: Observation | None = None) -> Action | None:
    """The legal action described by :func:`choice_json` ``data``, or None."""
    for i, action in enumerate(legal):
        mine = action_json(game, action, i, obs)
        del mine["id"]
        if mine == data:
            return action
    return None
