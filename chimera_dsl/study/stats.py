"""Streaming statistics with confidence intervals, mergeable across workers.

Simulations never keep their games: each figure is a small accumulator (count, mean and
sum of squared deviations, Welford's method) that can be merged with another (Chan et al.),
so memory stays flat however many games run and results from several workers combine
exactly.  Rates use the Wilson score interval; means the normal approximation; differences
between two variants Welch's interval, or the paired interval when both variants played the
same seeded deals.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

Z95 = 1.959963984540054


@dataclass
class Mean:
    """A running mean with its 95% confidence interval.

    It keeps the count, the sum and the sum of squares.  Game figures are integers (points,
    cards, tricks), and Python integers are exact, so merging summaries in any grouping gives
    exactly the same figures: a run split over 1 or 16 workers, or a cluster, agrees to the
    last digit.  (Floats work too, with the usual rounding.)
    """

    n: int = 0
    total: float = 0
    total_sq: float = 0

    def add(self, x: float) -> None:
        self.n += 1
        self.total += x
        self.total_sq += x * x

    def merge(self, other: "Mean") -> None:
        self.n += other.n
        self.total += other.total
        self.total_sq += other.total_sq

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    @property
    def variance(self) -> float:
        if self.n < 2:
            return 0.0
        # n*S2 - S1^2 is exact for integers; for floats clamp the rounding below zero
        return max(0.0, (self.n * self.total_sq - self.total * self.total) / (self.n * (self.n - 1)))

    @property
    def half_width(self) -> float:
        return Z95 * math.sqrt(self.variance / self.n) if self.n > 1 else math.inf

    def interval(self) -> tuple[float, float]:
        h = self.half_width
        return (self.mean - h, self.mean + h)

    def as_dict(self) -> dict:
        lo, hi = self.interval()
        return {"n": self.n, "mean": float(self.mean), "ci95": [_finite(float(lo)), _finite(float(hi))]}


@dataclass
class Rate:
    """How often something happened, with the Wilson 95% interval."""

    hits: int = 0
    n: int = 0

    def add(self, hit: bool) -> None:
        self.n += 1
        self.hits += bool(hit)

    def merge(self, other: "Rate") -> None:
        self.hits += other.hits
        self.n += other.n

    @property
    def value(self) -> float:
        return self.hits / self.n if self.n else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson(self.hits, self.n)

    def as_dict(self) -> dict:
        lo, hi = self.interval()
        return {"n": self.n, "rate": self.value, "ci95": [lo, hi]}


def wilson(hits: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``hits`` out of ``n``."""
    if n == 0:
        return (0.0, 1.0)
    p = hits / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if hits == 0 else max(0.0, centre - half)
    hi = 1.0 if hits == n else min(1.0, centre + half)
    return (lo, hi)


def _finite(x: float):
    return x if math.isfinite(x) else None


@dataclass
class Difference:
    """B minus A for one figure, with its 95% interval and whether it is significant."""

    name: str
    a: float | None             # None: the figure does not exist in that variant
    b: float | None
    diff: float | None
    half_width: float
    paired: bool

    def __post_init__(self) -> None:
        self.absent()

    def absent(self) -> None:
        """A figure missing on one side has no difference and no interval."""
        if self.a is None or self.b is None:
            self.diff, self.half_width = None, math.inf

    @property
    def significant(self) -> bool:
        return self.diff is not None and math.isfinite(self.half_width) and abs(self.diff) > self.half_width

    @property
    def z(self) -> float:
        """How many standard errors the difference is from zero (for sorting)."""
        if self.diff is None or not math.isfinite(self.half_width):
            return 0.0
        if self.half_width == 0:
            return math.inf if self.diff else 0.0
        return abs(self.diff) / (self.half_width / Z95)

    def as_dict(self) -> dict:
        if self.diff is None:
            return {"figure": self.name, "a": self.a, "b": self.b, "difference": None, "ci95": [None, None],
                    "significant": False, "paired": self.paired}
        return {"figure": self.name, "a": self.a, "b": self.b, "difference": self.diff,
                "ci95": [_finite(self.diff - self.half_width), _finite(self.diff + self.half_width)],
                "significant": self.significant, "paired": self.paired}


def welch(name: str, a: Mean, b: Mean) -> Difference:
    """The difference of two independent means (Welch)."""
    if a.n < 2 or b.n < 2:
        return Difference(name, a.mean, b.mean, b.mean - a.mean, math.inf, False)
    se = math.sqrt(a.variance / a.n + b.variance / b.n)
    return Difference(name, a.mean, b.mean, b.mean - a.mean, Z95 * se, False)


def rate_difference(name: str, a: Rate, b: Rate) -> Difference:
    """The difference of two independent rates (normal approximation)."""
    if a.n == 0 or b.n == 0:
        return Difference(name, a.value, b.value, b.value - a.value, math.inf, False)
    pa, pb = a.value, b.value
    se = math.sqrt(pa * (1 - pa) / a.n + pb * (1 - pb) / b.n)
    if se == 0:
        # both rates at 0 or 1: use the Wilson widths so "no difference" is not "significant"
        se = max(wilson(a.hits, a.n)[1] - wilson(a.hits, a.n)[0], 1e-12) / (2 * Z95)
    return Difference(name, pa, pb, pb - pa, Z95 * se, False)


def paired(name: str, a: Mean, b: Mean, d: Mean) -> Difference:
    """The difference of means when A and B were measured on the same seeds (``d`` = B - A per seed)."""
    return Difference(name, a.mean, b.mean, d.mean, d.half_width, True)


@dataclass
class Histogram:
    """Counts by integer bucket (for score and length distributions); mergeable."""

    counts: dict = field(default_factory=dict)

    def add(self, value: int) -> None:
        self.counts[value] = self.counts.get(value, 0) + 1

    def merge(self, other: "Histogram") -> None:
        for k, v in other.counts.items():
            self.counts[k] = self.counts.get(k, 0) + v

    def as_dict(self) -> dict:
        return {str(k): v for k, v in sorted(self.counts.items())}


_PAIRED_SUMS = ("xa", "na", "xb", "nb", "xa_xa", "xa_na", "na_na", "xb_xb", "xb_nb", "nb_nb",
                "xa_xb", "xa_nb", "na_xb", "na_nb")


@dataclass
class PairedRatio:
    """B minus A for a figure measured on the same units (seeded games) under both variants.

    A figure is a ratio of sums over units: points per round is (points in the game) / (rounds
    in the game) summed over games; a per-game figure has one per unit.  For each unit we add
    ``(x_a, n_a, x_b, n_b)``; the difference of the two ratios gets its interval from the
    linearised per-unit residuals (the delta method, clustered by unit), so the noise that
    both variants share through their common deals cancels.  With ``n = 1`` everywhere it is
    the ordinary paired difference.  Only sums are kept: mergeable, exact for integers.
    """

    units: int = 0
    sums: dict = field(default_factory=lambda: dict.fromkeys(_PAIRED_SUMS, 0))

    def add(self, xa, na, xb, nb) -> None:
        self.units += 1
        s = self.sums
        s["xa"] += xa
        s["na"] += na
        s["xb"] += xb
        s["nb"] += nb
        s["xa_xa"] += xa * xa
        s["xa_na"] += xa * na
        s["na_na"] += na * na
        s["xb_xb"] += xb * xb
        s["xb_nb"] += xb * nb
        s["nb_nb"] += nb * nb
        s["xa_xb"] += xa * xb
        s["xa_nb"] += xa * nb
        s["na_xb"] += na * xb
        s["na_nb"] += na * nb

    def merge(self, other: "PairedRatio") -> None:
        self.units += other.units
        for key, value in other.sums.items():
            self.sums[key] += value

    def difference(self, name: str) -> "Difference":
        """B - A with its 95% interval (infinite when there are too few units to tell)."""
        from fractions import Fraction

        s = {k: Fraction(v) for k, v in self.sums.items()}
        g = self.units
        ra = float(s["xa"] / s["na"]) if s["na"] else 0.0
        rb = float(s["xb"] / s["nb"]) if s["nb"] else 0.0
        if g < 2 or not s["na"] or not s["nb"]:
            return Difference(name, ra, rb, rb - ra, math.inf, True)
        fa, fb = s["xa"] / s["na"], s["xb"] / s["nb"]
        alpha, beta = s["na"] / g, s["nb"] / g
        saa = s["xa_xa"] - 2 * fa * s["xa_na"] + fa * fa * s["na_na"]
        sbb = s["xb_xb"] - 2 * fb * s["xb_nb"] + fb * fb * s["nb_nb"]
        sab = s["xa_xb"] - fb * s["xa_nb"] - fa * s["na_xb"] + fa * fb * s["na_nb"]
        su2 = sbb / (beta * beta) - 2 * sab / (alpha * beta) + saa / (alpha * alpha)
        se = math.sqrt(max(float(su2), 0.0) / (g * (g - 1)))
        return Difference(name, ra, rb, float(fb - fa), Z95 * se, True)
