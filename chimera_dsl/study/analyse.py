"""What a variant's rules give before anyone plays: `chimera analyse`.

A file without combinations (a trick-taking game plays single cards) is refused with that
reason.  Unions a designer asks for (``--union bomb,rocket``: a hand holding a bomb or a
rocket) are counted on the same hands as the combinations.

For a hand as dealt (and, where the bidder takes the nest, a hand with the nest added), the
chance that it holds each combination: some of its cards form it, as a leader could play it.
Combinations read rank counts, so a hand is its count of cards of each rank, and:

- **exact** when the number of distinct rank-count hands is at most ``exact_budget``: every
  rank-count hand is listed once, weighted by the number of card sets it stands for (the
  product over ranks of C(copies, count)), over C(deck, hand size);
- **sampled** otherwise: ``samples`` hands drawn uniformly from the deck with a fixed seed,
  each chance with its Wilson 95% interval.

From every play the whole deck holds (listed once, at most ``deck_budget`` plays), it also
finds the combinations no set of cards of the deck forms, those a hand (as dealt, or with the
nest) is too small to hold, and the card sets that read as several combinations (or one combination at several
ranks): ambiguities, counted by kind, with the smallest example of each.  Everything is read
through the rules' public API (:meth:`Rules.leads`, :meth:`Rules.iter_legal_plays`).
"""
from __future__ import annotations

import math
import random
from math import comb

from ..errors import ChimeraError
from .stats import wilson

EXACT_BUDGET = 20_000          # rank-count hands listed exactly, at most
SAMPLES = 20_000               # hands drawn when listing is too much
MAX_SAMPLES = 1_000_000
REPORT_SAMPLES = 5_000         # hands drawn for the section of a simulation's report
DECK_BUDGET = 1_000_000        # plays of the whole deck read, at most
EXAMPLES = 3                   # examples kept per kind of ambiguity


class AnalysisError(ChimeraError):
    """An analysis cannot run as asked (a bad budget)."""


def rank_hand_count(copies, size: int) -> int:
    """How many distinct rank-count hands of ``size`` cards the deck holds."""
    ways = [1] + [0] * size
    for c in copies:
        new = [0] * (size + 1)
        for s, w in enumerate(ways):
            if w:
                for k in range(min(c, size - s) + 1):
                    new[s + k] += w
        ways = new
    return ways[size]


def _rank_hands(copies, size: int):
    """Every rank-count hand of ``size`` cards: (counts, number of card sets it stands for)."""
    n = len(copies)
    room = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        room[i] = room[i + 1] + copies[i]
    counts = [0] * n

    def walk(i: int, left: int, weight: int):
        if i == n:
            if left == 0:
                yield tuple(counts), weight
            return
        if left > room[i]:
            return
        for k in range(min(copies[i], left) + 1):
            counts[i] = k
            yield from walk(i + 1, left - k, weight * comb(copies[i], k))
        counts[i] = 0
    yield from walk(0, size, 1)


class _Holds:
    """Which combinations a packed hand holds (a lead of that combination exists)."""

    def __init__(self, rules):
        self.rules = rules
        self.cache: dict[int, frozenset] = {}

    def __call__(self, key: int, mask: int = 0) -> frozenset:
        """The combinations held by the packed ``key`` (or, where plays name their cards, by the
        cards of ``mask``): one play of each is looked for (:meth:`Rules.led_combinations`)."""
        if self.rules.card_plays is not None:
            key = mask
        found = self.cache.get(key)
        if found is None:
            found = self.rules.card_led_combinations(mask) if self.rules.card_plays is not None \
                else self.rules.led_combinations(key)
            if len(self.cache) > 200_000:
                self.cache.clear()
            self.cache[key] = found
        return found


def _key(counts, shift: int) -> int:
    key = 0
    for i, c in enumerate(counts):
        key |= c << (shift * i)
    return key


def hand_sizes(rules) -> list[tuple[str, str, int]]:
    """The hands to study: (id, description, size): a dealt hand and, where the bidder takes the
    nest, the bidder's hand with it."""
    from ..engine.round import compile_round
    round_ = compile_round(rules)
    out = [("dealt", "a hand as dealt", round_.deal.hand)]
    nest_to_bidder = any(t.source == "nest" and "bidder" in getattr(t.to, "reads", ()) for t in round_.transfers)
    if round_.deal.nest and nest_to_bidder:
        out.append(("with_nest", f"the {rules.role_name('bidder')}'s hand with the nest", round_.deal.hand + round_.deal.nest))
    return out


def analysable(rules) -> bool:
    """Has the file combinations for :func:`analyse` to count?  A trick-taking file plays single
    cards and names none."""
    return bool(rules.combinations)


def read_unions(rules, unions) -> list[tuple[str, ...]]:
    """The unions a designer asked for (``"bomb,rocket"``: a hand holding a bomb or a rocket), as
    tuples of combination ids; each combination named by its id or its English name (any case)."""
    by_name = {}
    for c in rules.combinations:
        by_name[c.id.lower()] = c.id
        by_name.setdefault(_name(c).lower(), c.id)
    out = []
    for text in unions or ():
        parts = [p.strip() for p in str(text).split(",") if p.strip()]
        if len(parts) < 2:
            raise AnalysisError(f"the union {text!r} names {len(parts)} combination(s): give two or more, "
                                "separated by commas (--union bomb,rocket)")
        ids = []
        for part in parts:
            cid = by_name.get(part.lower())
            if cid is None:
                known = ", ".join(c.id for c in rules.combinations)
                raise AnalysisError(f"the union {text!r} names {part!r}, which is no combination of "
                                    f"{rules.path}: its combinations are {known}")
            if cid not in ids:
                ids.append(cid)
        out.append(tuple(ids))
    return out


def analyse(rules, *, samples: int = SAMPLES, exact_budget: int = EXACT_BUDGET, seed: int = 0,
            deck_budget: int = DECK_BUDGET, unions=(), on_hand=None) -> dict:
    """The analysis of ``rules`` as JSON-ready data (see the module's description); ``unions``:
    groups of combinations (``"bomb,rocket"``) whose chance that a hand holds any one is given
    too (:func:`read_unions`); ``on_hand``: called with each hand's part as soon as it is
    counted (``chimera analyse`` prints its table then, before the whole deck is read).

    The work is bounded: at most ``exact_budget`` rank-count hands or ``samples`` drawn hands
    for each hand (each at most :data:`MAX_SAMPLES`), each read for one play of each
    combination; at most ``deck_budget`` plays of the whole deck."""
    if not analysable(rules):
        raise AnalysisError(f"{rules.path} names no combinations (its plays are single cards, as in a "
                            "trick-taking game): analyse counts the combinations a hand holds, so it has "
                            "nothing to count here")
    if not 1 <= samples <= MAX_SAMPLES:
        raise AnalysisError(f"the number of sampled hands must be from 1 to {MAX_SAMPLES}, not {samples}")
    if not 0 <= exact_budget <= MAX_SAMPLES:
        raise AnalysisError(f"the exact budget must be from 0 to {MAX_SAMPLES} rank-count hands, not {exact_budget}")
    deck = rules.deck
    names = {c.id: _name(c) for c in rules.combinations}
    groups = read_unions(rules, unions)
    union_names = {"|".join(g): " or ".join(names[c] for c in g) for g in groups}
    holds = _Holds(rules)
    hands = []
    sizes = hand_sizes(rules)
    for hid, what, size in sizes:
        size = min(size, len(deck.cards))
        count = rank_hand_count(deck.copies, size)
        # rank counts decide what a hand holds unless the rules read colours
        if count <= exact_budget and rules.card_plays is None:
            found = dict.fromkeys(names, 0)
            either = dict.fromkeys(union_names, 0)
            for counts, weight in _rank_hands(deck.copies, size):
                held = holds(_key(counts, deck.shift))
                for cid in held:
                    found[cid] += weight
                for group in groups:
                    if not held.isdisjoint(group):
                        either["|".join(group)] += weight
            total = comb(len(deck.cards), size)
            chances = {cid: {"name": names[cid], "chance": found[cid] / total, "ci95": None} for cid in names}
            union_chances = {key: {"name": union_names[key], "combinations": key.split("|"),
                                   "chance": either[key] / total, "ci95": None} for key in union_names}
            hands.append({"id": hid, "what": what, "cards": size, "method": "exact", "rank_hands": count,
                          "combinations": chances, "unions": union_chances})
            if on_hand is not None:
                on_hand(hands[-1])
            continue
        # one draw of the largest hand, drawn again for each hand (none kept): a smaller hand is
        # the first cards of each drawn hand
        rng = random.Random(seed)
        largest = min(max(s for _, _, s in sizes), len(deck.cards))
        found = dict.fromkeys(names, 0)
        either = dict.fromkeys(union_names, 0)
        for _ in range(samples):
            drawn = rng.sample(range(len(deck.cards)), largest)
            mask = deck.mask_of(drawn[:size])
            held = holds(deck.key_of_mask(mask), mask)
            for cid in held:
                found[cid] += 1
            for group in groups:
                if not held.isdisjoint(group):
                    either["|".join(group)] += 1
        chances = {cid: {"name": names[cid], "chance": found[cid] / samples,
                         "ci95": list(wilson(found[cid], samples))} for cid in names}
        union_chances = {key: {"name": union_names[key], "combinations": key.split("|"),
                               "chance": either[key] / samples, "ci95": list(wilson(either[key], samples))}
                         for key in union_names}
        hands.append({"id": hid, "what": what, "cards": size, "method": "sampled", "rank_hands": count,
                      "samples": samples, "seed": seed, "combinations": chances, "unions": union_chances})
        if on_hand is not None:
            on_hand(hands[-1])
    deck_part = _whole_deck(rules, names, [(h["what"], h["cards"]) for h in hands], deck_budget)
    return {"variant": {"name": rules.name, "path": str(rules.path)},
            "deck": {"cards": len(deck.cards), "ranks": list(deck.ranks)},
            "budget": {"exact_rank_hands": exact_budget, "samples": samples, "deck_plays": deck_budget},
            "hands": hands, **deck_part}


def _name(combination) -> str:
    given = getattr(combination, "names", None) or {}
    return str(given.get("en") or combination.id)


def _whole_deck(rules, names: dict, hands: list, budget: int) -> dict:
    """Combinations the deck never forms or no hand can hold, and the ambiguous card sets."""
    deck = rules.deck
    largest_hand = max(cards for _, cards in hands)
    readings: dict[int, list] = {}
    smallest = dict.fromkeys(names, None)
    seen = 0
    complete = True
    # a combination that could list more plays from the whole deck than the budget (a deck is
    # larger than any hand: '20 cards of any' in a deck of 60) is not listed at all
    bounds = rules.play_bounds(len(deck.cards))
    skipped = [cid for cid, bound in bounds.items() if bound > budget]
    if skipped:
        complete = False
    for play in rules.iter_legal_plays(list(deck.card_names), only=[c for c in bounds if c not in skipped]):
        seen += 1
        if seen > budget:
            complete = False
            break
        size = play.size
        if smallest[play.combination] is None or size < smallest[play.combination]:
            smallest[play.combination] = size
        if size <= largest_hand:
            # a card set: its rank counts, or its very cards where the rules read colours
            readings.setdefault(-getattr(play, "mask", 0) or play.key, []).append(play)
    never = []
    for cid, size in smallest.items():
        if size is None and complete:
            never.append({"combination": cid, "name": names[cid], "why": "no set of cards of the deck forms it"})
        elif size is not None:
            short = [f"{what} ({cards} cards)" for what, cards in hands if cards < size]
            if short:
                never.append({"combination": cid, "name": names[cid],
                              "why": f"it needs at least {size} cards, more than " + " or ".join(short)})
    kinds: dict[tuple, dict] = {}
    for key, plays in readings.items():
        if len(plays) < 2:
            continue
        signature = tuple(sorted(p.combination for p in plays))
        entry = kinds.setdefault(signature, {"readings": [names[c] for c in signature],
                                             "combinations": list(signature), "card_sets": 0, "examples": []})
        entry["card_sets"] += 1
        entry["examples"].append((plays[0].size, key, plays))
    ambiguities = []
    for entry in sorted(kinds.values(), key=lambda e: -e["card_sets"]):
        entry["examples"].sort(key=lambda t: (t[0], t[1]))
        entry["examples"] = [{"cards": " ".join(plays[0].cards),
                              "readings": [f"{names[p.combination]}, rank {_rank(deck, p.rank)}" for p in plays],
                              "plays": [{"combination": p.combination, "rank": _rank(deck, p.rank)} for p in plays]}
                             for _, key, plays in entry["examples"][:EXAMPLES]]
        ambiguities.append(entry)
    return {"never": never, "ambiguities": ambiguities,
            "deck_plays": {"read": min(seen, budget), "complete": complete,
                           "not_read": [{"combination": cid, "name": names[cid], "bound": bounds[cid]}
                                        for cid in skipped]}}


def _rank(deck, rank) -> str:
    ranks = deck.ranks
    return ranks[rank - 1] if isinstance(rank, int) and 1 <= rank <= len(ranks) else str(rank)


def side_by_side(a: dict, b: dict) -> list[dict]:
    """The chances of A and B per hand and combination (present in either), for --against."""
    rows = []
    for hand_a in a["hands"]:
        hand_b = next((h for h in b["hands"] if h["id"] == hand_a["id"]), None)
        if hand_b is None:
            continue
        both_a = {**hand_a["combinations"], **hand_a.get("unions", {})}
        both_b = {**hand_b["combinations"], **hand_b.get("unions", {})}
        ids = list(both_a) + [c for c in both_b if c not in both_a]
        for cid in ids:
            ca, cb = both_a.get(cid), both_b.get(cid)
            rows.append({"hand": hand_a["id"], "combination": cid, "name": (ca or cb)["name"],
                         "a": None if ca is None else ca["chance"], "b": None if cb is None else cb["chance"],
                         "difference": None if ca is None or cb is None else cb["chance"] - ca["chance"]})
    return rows


def render_analysis(data: dict, console, lang: str = "en", names: dict | None = None,
                    parts: tuple[str, ...] = ("hands", "deck")) -> None:
    """The analysis (or, with ``data["b"]``, two side by side) as tables on a rich console, in
    ``lang`` (the catalogs' ``cli`` section); ``names``: the variant's words in that language,
    ``combinations`` (id -> name), ``bidder`` and ``fields`` (the bidder's name with its articles,
    ``{bidder_the}``...), for the hand the bidder holds with the nest.  ``parts``: the hands'
    tables, the whole deck's findings, or both (``chimera analyse`` prints each hand's table as
    soon as it is counted, then the deck's)."""
    from rich.table import Table

    from ..tell.catalog import catalog
    words = catalog(lang)["cli"]
    own = (names or {}).get("combinations") or {}
    either = catalog(lang)["grammar"]["or"]

    def named(cid: str, name: str) -> str:
        """A combination (or a union, ``a|b``) by its name in ``lang``, else as the data names it."""
        if lang == "en" or not own:
            return name
        parts = cid.split("|")
        return either.join(own.get(c, c) for c in parts) if all(c in own for c in parts) else name
    pair = "b" in data
    first = data["a"] if pair else data
    for hand in first["hands"] if "hands" in parts else ():
        other = next((h for h in data["b"]["hands"] if h["id"] == hand["id"]), None) if pair else None
        what = hand["what"]
        if hand["id"] == "dealt":
            what = words["hand_dealt"]
        elif hand["id"] == "with_nest" and names:
            what = words["hand_with_nest"].format(bidder=names["bidder"], **names.get("fields", {}))
        title = words["hand_chance"].format(what=what, n=hand["cards"])
        caption = _method(hand, words)
        if other:
            caption = words["method_b"].format(a=caption, b=_method(other, words))
        table = Table(title=title, caption=caption, title_justify="left", caption_justify="left")
        table.add_column(words["combination"])
        if pair:
            for column in ("A", "B", "B - A"):
                table.add_column(column, justify="right")
        else:
            table.add_column(words["chance"], justify="right")
            table.add_column(words["interval"], justify="right")
        mine_all = {**hand["combinations"], **hand.get("unions", {})}
        theirs_all = {**other["combinations"], **other.get("unions", {})} if other else {}
        ids = list(hand["combinations"])
        if other:
            ids += [c for c in other["combinations"] if c not in hand["combinations"]]
        unions = list(hand.get("unions", {})) + [u for u in (other or {}).get("unions", {})
                                                  if u not in hand.get("unions", {})]
        for cid in ids + unions:
            if unions and cid == unions[0]:
                table.add_section()
            mine = mine_all.get(cid)
            theirs = theirs_all.get(cid) if other else None
            name = named(cid, (mine or theirs)["name"])
            if pair:
                a = None if mine is None else mine["chance"]
                b = None if theirs is None else theirs["chance"]
                diff = "-" if a is None or b is None else f"{100 * (b - a):+.1f}%"
                table.add_row(name, _percent(a), _percent(b), diff)
            else:
                ci = mine["ci95"]
                table.add_row(name, _percent(mine["chance"]),
                              words["exact"] if ci is None else f"{_percent(ci[0])} .. {_percent(ci[1])}")
        console.print(table)
    for label, part in ((("A: ", data["a"]), ("B: ", data["b"])) if pair else (("", data),)) if "deck" in parts else ():
        for item in part["never"]:
            console.print(words["never"].format(label=label, name=named(item.get("combination", ""), item["name"]), why=item["why"]),
                          markup=False)
        for item in part["deck_plays"].get("not_read", ()):
            console.print(words["not_read"].format(label=label, name=named(item["combination"], item["name"]), bound=item["bound"],
                                                   budget=part["budget"]["deck_plays"]), markup=False)
        if not part["deck_plays"]["complete"] and part["deck_plays"]["read"] >= part["budget"]["deck_plays"]:
            console.print(words["deck_partly_read"].format(label=label, budget=part["budget"]["deck_plays"]),
                          markup=False)
        if part["ambiguities"]:
            table = Table(title=words["ambiguous"].format(label=label), title_justify="left")
            table.add_column(words["readings"])
            table.add_column(words["card_sets"], justify="right")
            table.add_column(words["for_example"])
            for entry in part["ambiguities"]:
                example = entry["examples"][0]
                readings = [named(c, n) for c, n in zip(entry["combinations"], entry["readings"])]
                plays = example["readings"]
                if lang != "en" and own and example.get("plays"):
                    plays = [words["rank_reading"].format(combination=named(p["combination"], p["combination"]),
                                                          rank=p["rank"]) for p in example["plays"]]
                table.add_row(" / ".join(readings), str(entry["card_sets"]), f"{example['cards']}: " + "; ".join(plays))
            console.print(table)
        else:
            console.print(words["none_ambiguous"].format(label=label), markup=False)


def _method(hand: dict | None, words: dict) -> str:
    if hand is None:
        return ""
    if hand["method"] == "exact":
        return words["method_exact"].format(n=hand["rank_hands"])
    return words["method_sampled"].format(samples=hand["samples"], seed=hand["seed"], n=hand["rank_hands"])


def _percent(x) -> str:
    if x is None:
        return "-"
    if 0 < x < 0.001:
        return f"{100 * x:.3f}%"
    return f"{100 * x:.1f}%"


def analysis_json(data: dict) -> dict:
    """``data`` as printed by --json (nothing to change: it is JSON already; finite floats only)."""
    def clean(value):
        if isinstance(value, float) and not math.isfinite(value):
            return None
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items()}
        if isinstance(value, list):
            return [clean(v) for v in value]
        return value
    return clean(data)
