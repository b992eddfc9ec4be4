"""What the figures of a simulation mean, as people read them, and the figures built from others.

:func:`label_of` names a figure with the roles and combinations as the variant names them;
:func:`seat_fairness` sums up how much the seats differ in one number with its interval;
:func:`derived_figures` adds the estimated playing time (at a pace the user sets) and
:func:`warnings_for` what the reader must know before trusting the figures.  docs/figures.md
describes every figure.
"""
from __future__ import annotations

import math
import random
import statistics
from typing import Sequence

from ..tell.catalog import catalog
from .stats import normal_draws

DEFAULT_SECONDS_PER_PLAY = 6.0      # a card play or a pass at a table of people, in seconds
FAIRNESS_DRAWS = 2000               # draws of the parametric bootstrap of the seat fairness figure

def label_of(name: str, bidder: str = "the bidder", others: str = "others", combinations: dict | None = None,
             lang: str = "en", fields: dict | None = None, bonuses: dict | None = None) -> str:
    """A short description of a figure, for tables, with the roles and combinations as the
    variant names them (``combinations``: id -> name), in ``lang`` (the catalogs' ``figures``
    section); ``fields``: the roles' names with their articles in that language (``{bidder_the}``,
    ``{others_the}``...), made from ``bidder`` and ``others`` when not given; ``bonuses``: a
    bonus's words (id -> words, the file's ``labels``), else its id with spaces."""
    from ..tell.articles import contracted
    words = catalog(lang)["figures"]
    said = {**_role_fields(bidder, others, lang), "bidder": bidder, "others": others, **(fields or {})}

    def say(key: str, **more) -> str:
        return words[key].format(**{**said, **more})
    if name in words["labels"]:
        return contracted(words["labels"][name].format(**said), lang)
    parts = name.split("_")
    text = None
    if name.startswith("bidder_success_at_"):
        text = say("bidder_success_at", bid=parts[-1])
    elif name.startswith("bidder_points_at_"):
        text = say("bidder_points_at", bid=parts[-1])
    elif name.startswith("final_bid_"):
        text = say("final_bid", bid=parts[-1])
    elif name.startswith("bidder_at_position_"):
        text = say("bidder_at_position", n=parts[-1], position=_position(parts[-1], "dealer", words))
    elif name.startswith("bonus_"):
        bonus = name[len("bonus_"):-len("_per_round")]
        text = say("bonus", bonus=(bonuses or {}).get(bonus) or bonus.replace("_", " "))
    elif name.startswith("position_") and name.endswith("_points_per_round"):
        text = say("position_points", n=parts[1], position=_position(parts[1], "dealer", words))
    elif name.startswith("position_") and name.endswith("_win_rate"):
        text = say("position_win_rate", n=parts[1], position=_position(parts[1], "first_dealer", words))
    elif name.startswith("player_"):
        for suffix, key in (("_points_per_round", "player_points"), ("_win_rate", "player_win_rate"),
                            ("_bidder_success", "player_bidder_success")):
            if name.endswith(suffix):
                text = say(key, kind=name[len("player_"):-len(suffix)].replace("_", " "))
                break
    if text is None and name.startswith("plays_of_"):
        combo = name[len("plays_of_"):-len("_per_round")]
        text = say("plays_of", combination=(combinations or {}).get(combo, combo))
    return contracted(text, lang) if text is not None else name.replace("_", " ")


def _position(number: str, dealer: str, words: dict) -> str:
    k = int(number)
    if k == 0:
        return words["at_" + dealer]
    text = words["after_" + dealer]
    return (text[0] if k == 1 else text[1]).format(n=k)


def _role_fields(bidder: str, others: str, lang: str) -> dict[str, str]:
    """The roles' names with their articles in ``lang`` (a role read as masculine, the group
    with the plural article), as a sentence of the ``figures`` section may read them."""
    from ..tell.articles import role_forms
    teller = catalog(lang)["teller"]
    vowel = others[:1].lower() in (teller.get("vowels") or "")
    return {**role_forms(bidder, "masculine", lang, "bidder"),
            "others_the": teller["the_many_vowel" if vowel else "the_many"].format(x=others)}


# what a designer asks first, then the rest (the order of `compare`'s table): fairness, the
# bidder's success, the length of a game, its shape, then the mechanics (plays, bids, bonuses)
DESIGNER_GROUPS = (
    ("fairness", ("role_gap_per_round", "seat_fairness", "first_seat_advantage", "position_", "player_")),
    ("success", ("bidder_success", "others_round_win_rate", "bidder_points_per_round", "others_points_per_round",
                 "bidder_success_at_", "bidder_points_at_", "void_round_rate")),
    ("length", ("rounds_per_game", "minutes_per_game", "turns_per_game", "minutes_per_round", "turns_per_round")),
    ("shape", ("drama", "decisiveness", "decided_in_last_round", "lead_changes_per_game", "lead_changes_per_round",
               "winning_total", "choices_per_decision", "meaningful_decision_rate")),
)


def designer_group(name: str) -> int:
    """Where a figure stands in what a designer asks (0: fairness ... 4: the mechanics)."""
    return designer_rank(name)[0]


def designer_rank(name: str) -> tuple[int, int]:
    """(the group of :data:`DESIGNER_GROUPS`, the figure's place in it): the order of `compare`."""
    for i, (_, names) in enumerate(DESIGNER_GROUPS):
        for j, prefix in enumerate(names):
            if name == prefix or (prefix.endswith("_") and name.startswith(prefix)):
                if name.startswith("player_") and name.endswith("_points_per_round"):
                    continue
                return (i, j)
    return (len(DESIGNER_GROUPS), 0)


def seat_fairness(figures: dict, whole_games: bool, draws: int = FAIRNESS_DRAWS, joint=None) -> dict | None:
    """How much the positions at the table differ, in one number: the best position's result
    minus the worst's (games won per position for whole games, points per round for single
    rounds), with a 95% interval from a parametric bootstrap, corrected for its bias (the spread
    of drawn rates exceeds the spread of the true ones).

    The positions' results are drawn together, from a multivariate normal law with the
    covariance of their means: ``joint``, a :class:`~chimera_dsl.study.stats.Joint` of the
    positions' results in each game (wins) or round (points), gives it as measured, so that
    positions which move together (partners scoring alike, opponents the opposite, at most one
    seat winning a game) are drawn that way.  Without ``joint`` the covariance is what the
    figures alone tell: each position's variance, and for wins of one winner a game (rates adding
    up to at most one) the multinomial's covariances; points, or wins shared, independent.
    Drawn rates stay within 0 and 1.  The draws use a fixed seed: the same figures give the
    same interval.
    """
    suffix = "_win_rate" if whole_games else "_points_per_round"
    accs = [figures[name] for name in sorted(figures, key=_position_number)
            if name.startswith("position_") and name.endswith(suffix)]
    if len(accs) < 2 or any(a.n < 2 for a in accs):
        return None
    means = [a.mean for a in accs]
    covariance = joint.covariance() if joint is not None and joint.size == len(accs) and joint.n else None
    if covariance is None:
        covariance = _covariance_of(accs, whole_games)
    if covariance is None:
        return None
    rng = random.Random(0)
    values = [float(m) for m in means]
    spread = max(values) - min(values)
    samples = []
    for drawn in normal_draws(means, covariance, rng, draws):
        if whole_games:
            drawn = [min(1.0, max(0.0, x)) for x in drawn]
        samples.append(max(drawn) - min(drawn))
    unit = "rate" if whole_games else "points per round"
    # the spread of noisy rates is larger than the spread of the true ones: the draws sit above
    # the figure (all equal rates give 0 while no draw does); the interval is moved down by that
    # bias (the draws' median minus the figure), never below 0, so it holds the figure
    lo, hi = _percentiles(samples)
    bias = max(0.0, statistics.median(samples) - spread)
    lo, hi = max(0.0, min(lo - bias, spread)), max(hi - bias, spread)
    return {"value": spread, "ci95": [lo, hi], "n": accs[0].n, "unit": unit,
            "positions": len(accs), "samples": samples}


def _covariance_of(accs: list, whole_games: bool) -> list | None:
    """The covariance of the positions' means from their figures alone (see :func:`seat_fairness`);
    None when a figure has no variance to give (fewer than two games)."""
    if whole_games:
        n = accs[0].n
        shares = [float(a.hits) / n for a in accs]
        one_winner = sum(shares) <= 1 + 1e-9
        return [[p * (1 - p) / n if i == j else (-p * q / n if one_winner else 0.0)
                 for j, q in enumerate(shares)] for i, p in enumerate(shares)]
    variances = [a.mean_variance() for a in accs]
    if None in variances:
        return None
    return [[v if i == j else 0.0 for j in range(len(accs))] for i, v in enumerate(variances)]


def _percentiles(samples: list) -> tuple[float, float]:
    """The 2.5% and 97.5% points of the draws."""
    ordered = sorted(samples)
    return ordered[int(0.025 * len(ordered))], ordered[int(0.975 * len(ordered)) - 1]


def _position_number(name: str) -> int:
    try:
        return int(name.split("_")[1])
    except (IndexError, ValueError):
        return 0


def fairness_difference(a: dict | None, b: dict | None) -> dict | None:
    """B - A of the seat fairness figure, with an interval from the two bootstraps drawn
    independently (the shared seeds are not used: a wider, cautious interval)."""
    if a is None or b is None or a["unit"] != b["unit"]:
        return None
    lo, hi = _percentiles([y - x for x, y in zip(a["samples"], b["samples"])])
    diff = b["value"] - a["value"]
    return {"figure": "seat_fairness", "a": a["value"], "b": b["value"], "difference": diff,
            "ci95": [lo, hi], "significant": lo > 0 or hi < 0, "paired": False, "unit": a["unit"]}


def public_fairness(fairness: dict | None) -> dict | None:
    """The seat fairness figure without its bootstrap draws (for JSON)."""
    if fairness is None:
        return None
    return {"label": label_of("seat_fairness"), "n": fairness["n"], "mean": fairness["value"],
            "ci95": fairness["ci95"], "unit": fairness["unit"], "positions": fairness["positions"]}


def with_derived_figures(figures: dict, seconds_per_play: float) -> dict:
    """``figures`` with the estimated playing time shown after the turns it is computed from."""
    derived = derived_figures(figures, seconds_per_play)
    out = {}
    for name, fig in figures.items():
        out[name] = fig
        minutes = name.replace("turns_", "minutes_") if name.startswith("turns_per_") else None
        if minutes in derived:
            out[minutes] = derived[minutes]
    return out


def derived_figures(figures: dict, seconds_per_play: float) -> dict:
    """The estimated playing time: turns (plays and passes) times the pace, in minutes."""
    out = {}
    for source, name in (("turns_per_game", "minutes_per_game"), ("turns_per_round", "minutes_per_round")):
        fig = figures.get(source)
        if fig is None:
            continue
        scale = seconds_per_play / 60
        lo, hi = fig["ci95"]
        words = catalog("en")["figures"]
        out[name] = {"label": words["at_pace"].format(label=words["labels"][name], seconds=f"{seconds_per_play:g}"),
                     "n": fig["n"], "mean": fig["mean"] * scale,
                     "ci95": [None if lo is None else lo * scale, None if hi is None else hi * scale]}
    return out


def scaled_difference(d: dict, name: str, scale: float, label: str) -> dict:
    """A difference of turns as a difference of minutes (the pace is the same on both sides)."""
    lo, hi = d["ci95"]

    def times(x):
        return None if x is None else x * scale
    return {**d, "figure": name, "label": label, "a": times(d["a"]), "b": times(d["b"]),
            "difference": times(d["difference"]), "ci95": [times(lo), times(hi)]}


def warnings_for(players: str, lang: str = "en", later_rounds: Sequence[str] = ()) -> list[str]:
    """What the reader must know about who played: balance figures from random play mislead;
    and, in a run of single rounds, the rules of later rounds it never played (``later_rounds``,
    the keys that say them) (in ``lang``: the catalogs' ``figures`` section)."""
    names = [p.strip() for p in str(players).split(",") if p.strip()]
    out = []
    if names and all(n == "random" for n in names):
        out.append(catalog(lang)["figures"]["all_random"])
    if later_rounds:
        out.append(catalog(lang)["figures"]["later_rounds"].format(keys=", ".join(later_rounds)))
    return out
