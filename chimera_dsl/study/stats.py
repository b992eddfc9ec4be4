"""Streaming statistics with confidence intervals, mergeable across workers.

Simulations never keep their games: each figure is a small accumulator (count, mean and
sum of squared deviations, Welford's method) that can be merged with another (Chan et al.),
so memory stays flat however many games run and results from several workers combine
exactly.  Observations that are not independent (the seats of one round, the rounds of one
game) are grouped in clusters and the intervals are cluster-robust.  Rates use the Wilson
score interval at the clusters' effective sample size; counts a quasi-Poisson score interval
(never below zero); other means the normal approximation; differences between two variants
Welch's interval, or the paired interval when both variants played the same seeded deals,
with Holm's correction when many are read together (:func:`holm`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

Z95 = 1.959963984540054


class _Clustered:
    """The sums a figure keeps: over observations (count, sum, sum of squares) and over clusters.

    A cluster is a group of observations that are not independent of each other: the seats of
    one round, the rounds of one game.  :meth:`add` puts an observation in the open cluster
    when the accumulator is ``grouped`` (a :class:`~chimera_dsl.study.summary.Summary` closes its
    clusters at the end of each game with :meth:`close`); otherwise every observation is a
    cluster of its own.  The interval comes from the clusters' totals (the cluster-robust
    variance of a ratio of sums: the delta method with residuals summed per cluster), so two
    seats of one round whose points move together (two partners of one side) count for what
    they are worth, and a
    sample with one observation per cluster gets the usual interval.  Only sums are kept: two
    accumulators merge exactly (integers and fractions are exact), whatever the grouping.
    """

    __slots__ = ("n", "total", "total_sq", "clusters", "sxx", "sxn", "snn", "open_x", "open_n", "grouped")

    def __init__(self, n: int = 0, total=0, total_sq=0, grouped: bool = False):
        self.n, self.total, self.total_sq = n, total, total_sq
        # given sums are read as independent observations: one cluster each
        self.clusters, self.sxx, self.sxn, self.snn = n, total_sq, total, n
        self.open_x, self.open_n = 0, 0
        self.grouped = grouped

    def add(self, x) -> None:
        self.n += 1
        self.total += x
        self.total_sq += x * x
        if self.grouped:
            self.open_x += x
            self.open_n += 1
        else:
            self.clusters += 1
            self.sxx += x * x
            self.sxn += x
            self.snn += 1

    def close(self) -> None:
        """End the open cluster (a game): what was added since the last close is one cluster."""
        if self.open_n:
            x, m = self.open_x, self.open_n
            self.clusters += 1
            self.sxx += x * x
            self.sxn += x * m
            self.snn += m * m
            self.open_x, self.open_n = 0, 0

    def shape(self) -> tuple:
        """How many observations were counted, in which clusters (for :meth:`pad`)."""
        return (self.n, self.clusters, self.snn, self.open_n)

    def pad(self, shape: tuple, less: int = 0) -> None:
        """Count, as zeros, the observations of ``shape`` (another figure's :meth:`shape`, but
        its last ``less`` ones, of the open cluster): a figure first seen late was zero in every
        earlier round, in the same clusters."""
        n, clusters, snn, open_n = shape
        self.n += n - less
        self.clusters += clusters
        self.snn += snn
        self.open_n += open_n - less

    def pad_like(self, other: "_Clustered", less: int = 0) -> None:
        """:meth:`pad` with the observations ``other`` counted so far."""
        self.pad(other.shape(), less)

    def merge(self, other: "_Clustered") -> None:
        self.n += other.n
        self.total += other.total
        self.total_sq += other.total_sq
        self.clusters += other.clusters
        self.sxx += other.sxx
        self.sxn += other.sxn
        self.snn += other.snn
        self.open_x += other.open_x
        self.open_n += other.open_n

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    @property
    def variance(self) -> float:
        """The variance of one observation (as if all were independent)."""
        if self.n < 2:
            return 0.0
        # n*S2 - S1^2 is exact for integers; for floats clamp the rounding below zero
        return max(0.0, (self.n * self.total_sq - self.total * self.total) / (self.n * (self.n - 1)))

    def mean_variance(self, small_sample: bool = True) -> float | None:
        """The cluster-robust variance of the mean (None with fewer than two clusters).

        ``sum over clusters (x_c - mean * n_c)^2 / n^2``, times ``G / (G - 1)`` when
        ``small_sample`` (so that one observation per cluster gives ``s^2 / n``)."""
        g = self.clusters + (1 if self.open_n else 0)
        if g < 2 or not self.n:
            return None
        sxx, sxn, snn = self.sxx, self.sxn, self.snn
        if self.open_n:
            sxx += self.open_x * self.open_x
            sxn += self.open_x * self.open_n
            snn += self.open_n * self.open_n
        r = _exact(self.total) / self.n
        residuals = _exact(sxx) - 2 * r * _exact(sxn) + r * r * snn
        v = max(float(residuals / (self.n * self.n)), 0.0)
        return v * g / (g - 1) if small_sample else v


def _exact(x):
    """``x`` as an exact fraction (integers, fractions and floats alike)."""
    return x if isinstance(x, Fraction) else Fraction(x)


class Mean(_Clustered):
    """A running mean with its 95% confidence interval: the normal one, mean +- 1.96
    cluster-robust standard errors (a figure that may take any sign: points, a gap).

    Game figures are integers (points, cards, tricks) or fractions, and both are exact, so
    merging summaries in any grouping gives exactly the same figures: a run split over 1 or 16
    workers, or a cluster, agrees to the last digit.  (Floats work too, with the usual rounding.)
    """

    __slots__ = ()
    kind = "mean"

    @property
    def half_width(self) -> float:
        v = self.mean_variance()
        return math.inf if v is None else Z95 * math.sqrt(v)

    def interval(self) -> tuple[float, float]:
        h = self.half_width
        return (self.mean - h, self.mean + h)

    def as_dict(self) -> dict:
        lo, hi = self.interval()
        return {"n": self.n, "mean": float(self.mean), "ci95": [_finite(float(lo)), _finite(float(hi))]}


class Count(Mean):
    """A mean of counts (plays, redeals, rounds: never below zero), whose interval stays at or
    above zero: the score interval of a quasi-Poisson mean, the counts' analogue of Wilson's.
    It holds the means ``mu`` with ``(mean - mu)^2 <= z^2 * k * mu``, where ``k`` is the mean's
    cluster-robust variance over the mean (1 / n, Poisson, when nothing was counted); for large
    counts it is the normal interval."""

    __slots__ = ()
    kind = "count"

    def interval(self) -> tuple[float, float]:
        v = self.mean_variance()
        m = float(self.mean)
        if v is None:
            return (m - math.inf, m + math.inf)
        if m < 0:                               # not counts after all: the normal interval
            h = Z95 * math.sqrt(v)
            return (m - h, m + h)
        k = v / m if m > 0 else 1 / self.n
        a = Z95 * Z95 * k / 2
        root = math.sqrt(Z95 * Z95 * k * m + a * a)
        return (max(0.0, m + a - root), m + a + root)


class Share(Mean):
    """A mean of values from 0 to 1 (a share of a game), whose interval stays in [0, 1]: Wilson's
    with the effective sample size the clusters give (see :meth:`Rate.effective_n`)."""

    __slots__ = ()
    kind = "share"

    def interval(self) -> tuple[float, float]:
        if self.mean_variance() is None:
            return (-math.inf, math.inf)
        return wilson_p(float(self.mean), effective_n(self))


class Joint:
    """The sums of a vector observed together, mergeable like :class:`_Clustered`: the points
    of every position in one round, or which positions won one game.

    Besides each element's total it keeps the cross-products of the elements per cluster, so
    it gives the cluster-robust covariance of the elements' means (:meth:`covariance`): how
    the positions of one round move together (partners score alike, opponents the opposite,
    at most one seat wins a game).  Each element's variance is exactly the one its own
    :class:`Mean` gives.  Only sums are kept (integers and fractions stay exact): two
    accumulators merge exactly, in any order and grouping.
    """

    __slots__ = ("size", "n", "totals", "clusters", "sxx", "sxn", "snn", "open_x", "open_n", "grouped")

    def __init__(self, size: int, grouped: bool = False):
        self.size = size
        self.n = 0                                          # observations (vectors)
        self.totals = [0] * size
        self.clusters = 0
        self.sxx = [[0] * size for _ in range(size)]        # sum over clusters of x_c[i] * x_c[j]
        self.sxn = [0] * size                               # sum over clusters of x_c[i] * n_c
        self.snn = 0                                        # sum over clusters of n_c ** 2
        self.open_x, self.open_n = [0] * size, 0
        self.grouped = grouped

    def add(self, xs) -> None:
        """One observation of the vector (as many values as :attr:`size`)."""
        xs = list(xs)
        if len(xs) != self.size:
            raise ValueError(f"{len(xs)} values for a vector of {self.size}")
        self.n += 1
        for i, x in enumerate(xs):
            self.totals[i] += x
        if self.grouped:
            for i, x in enumerate(xs):
                self.open_x[i] += x
            self.open_n += 1
        else:
            self._cluster(xs, 1)

    def _cluster(self, xs, m) -> None:
        self.clusters += 1
        self.snn += _add_cluster(self.sxx, self.sxn, xs, m)

    def close(self) -> None:
        """End the open cluster (a game): what was added since the last close is one cluster."""
        if self.open_n:
            self._cluster(self.open_x, self.open_n)
            self.open_x, self.open_n = [0] * self.size, 0

    def merge(self, other: "Joint") -> None:
        if other.size != self.size:
            raise ValueError(f"cannot merge vectors of {other.size} into vectors of {self.size}")
        self.n += other.n
        self.clusters += other.clusters
        self.snn += other.snn
        for i in range(self.size):
            self.totals[i] += other.totals[i]
            self.sxn[i] += other.sxn[i]
            self.open_x[i] += other.open_x[i]
            for j in range(self.size):
                self.sxx[i][j] += other.sxx[i][j]
        self.open_n += other.open_n

    def means(self) -> list:
        """Each element's mean, exact (fractions)."""
        return [_exact(t) / self.n if self.n else Fraction(0) for t in self.totals]

    def covariance(self) -> list | None:
        """The cluster-robust covariance matrix of the elements' means, exact (fractions), with
        the small-sample factor ``G / (G - 1)``; None with fewer than two clusters.

        ``sum over clusters (x_c - m n_c)(x_c - m n_c)^T / n^2``: on the diagonal, each
        element's :meth:`_Clustered.mean_variance`."""
        g = self.clusters + (1 if self.open_n else 0)
        if g < 2 or not self.n:
            return None
        sxx = [[_exact(v) for v in row] for row in self.sxx]
        sxn = [_exact(v) for v in self.sxn]
        snn = self.snn
        if self.open_n:                     # the cluster still open counts as one
            snn += _add_cluster(sxx, sxn, [_exact(x) for x in self.open_x], self.open_n)
        m = self.means()
        scale = Fraction(g, (g - 1) * self.n * self.n)
        return [[(sxx[i][j] - m[i] * sxn[j] - m[j] * sxn[i] + m[i] * m[j] * snn) * scale
                 for j in range(self.size)] for i in range(self.size)]


def _add_cluster(sxx: list, sxn: list, xs, m) -> int:
    """Add one cluster's sums ``xs`` (of ``m`` observations) to the cross-products ``sxx`` and
    ``sxn`` (see :class:`Joint`); return its ``m ** 2``, for ``snn``."""
    for i, x in enumerate(xs):
        sxn[i] += x * m
        row = sxx[i]
        for j, y in enumerate(xs):
            row[j] += x * y
    return m * m


def normal_draws(means, covariance, rng, draws: int) -> list:
    """``draws`` vectors from the multivariate normal law of ``means`` and ``covariance`` (a
    positive semi-definite matrix, exact or not: singular ones, as of positions whose points
    always add up to the same, are welcome), from ``rng`` (a :class:`random.Random`)."""
    lower, scales = _ldl(covariance)
    size = len(means)
    base = [float(m) for m in means]
    out = []
    for _ in range(draws):
        z = [rng.gauss(0.0, s) if s else 0.0 for s in scales]
        out.append([base[i] + sum(lower[i][k] * z[k] for k in range(i + 1)) for i in range(size)])
    return out


def _ldl(covariance) -> tuple[list, list]:
    """``covariance = L D L^T`` in exact arithmetic (L unit lower triangular, D diagonal,
    at or above zero): L as floats and the square roots of D.  A direction with no variance
    (a zero pivot: an element that is a combination of the ones before) gets a zero column."""
    size = len(covariance)
    a = [[_exact(v) for v in row] for row in covariance]
    lower = [[Fraction(int(i == j)) for j in range(size)] for i in range(size)]
    d = [Fraction(0)] * size
    for j in range(size):
        d[j] = a[j][j] - sum(lower[j][k] * lower[j][k] * d[k] for k in range(j))
        if d[j] <= 0:                           # no variance left in this direction
            d[j] = Fraction(0)
            continue
        for i in range(j + 1, size):
            lower[i][j] = (a[i][j] - sum(lower[i][k] * lower[j][k] * d[k] for k in range(j))) / d[j]
    return [[float(v) for v in row] for row in lower], [math.sqrt(v) for v in d]


def effective_n(acc: _Clustered) -> float:
    """How many independent observations the clusters are worth for a share ``p``: ``p (1 - p)``
    over the mean's cluster-robust variance (Kish's design effect; without the small-sample
    factor, so one observation per cluster gives ``n`` exactly).  When every observation is
    the same (p = 0 or 1) the clusters cannot be told apart and ``n`` is used."""
    v = acc.mean_variance(small_sample=False)
    p = _exact(acc.total) / acc.n if acc.n else Fraction(0)
    if not v or p in (0, 1):
        return float(acc.n)
    return float(p * (1 - p)) / v


class Rate(_Clustered):
    """How often something happened, with the Wilson 95% interval at the clusters' effective
    sample size (:func:`effective_n`)."""

    __slots__ = ()
    kind = "rate"

    def __init__(self, hits: int = 0, n: int = 0, grouped: bool = False):
        super().__init__(n, hits, hits, grouped)

    @property
    def hits(self):
        return self.total

    def add(self, hit: bool) -> None:
        super().add(1 if hit else 0)

    @property
    def value(self) -> float:
        return self.total / self.n if self.n else 0.0

    def interval(self) -> tuple[float, float]:
        if not self.n:
            return (0.0, 1.0)
        lo, hi = wilson_p(float(self.value), effective_n(self))
        return (0.0 if self.total == 0 else lo, 1.0 if self.total == self.n else hi)

    def as_dict(self) -> dict:
        lo, hi = self.interval()
        return {"n": self.n, "rate": self.value, "ci95": [lo, hi]}


def wilson(hits: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``hits`` out of ``n``."""
    if n == 0:
        return (0.0, 1.0)
    lo, hi = wilson_p(hits / n, n, z)
    return (0.0 if hits == 0 else lo, 1.0 if hits == n else hi)


def wilson_p(p: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a share ``p`` measured on ``n`` (possibly effective, not
    whole) independent observations."""
    if n <= 0:
        return (0.0, 1.0)
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p), 0.0) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def holm(p_values: list) -> list:
    """Holm's step-down adjustment of ``p_values`` (None: not tested, left None): the adjusted
    p-value of the k-th smallest of m is the largest of ``(m - j + 1) p_j`` for j up to k,
    at most 1.  A difference is significant at 5% for the family when its adjusted p < 0.05."""
    tested = sorted((p, i) for i, p in enumerate(p_values) if p is not None)
    m = len(tested)
    out: list = [None] * len(p_values)
    running = 0.0
    for j, (p, i) in enumerate(tested):
        running = max(running, min(1.0, (m - j) * p))
        out[i] = running
    return out


def p_value(z: float) -> float:
    """The two-sided p-value of a normal statistic ``z``."""
    return math.erfc(abs(z) / math.sqrt(2)) if math.isfinite(z) else 0.0


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
    p_adjusted: float | None = None     # Holm's adjusted p-value, once the family is known

    def __post_init__(self) -> None:
        self.absent()

    def absent(self) -> None:
        """A figure missing on one side has no difference and no interval."""
        if self.a is None or self.b is None:
            self.diff, self.half_width = None, math.inf

    @property
    def significant(self) -> bool:
        """Significant at 5%: for the family when it was adjusted (Holm), else on its own."""
        if self.p_adjusted is not None:
            return self.p_adjusted < 0.05
        return self.diff is not None and math.isfinite(self.half_width) and abs(self.diff) > self.half_width

    @property
    def p(self) -> float | None:
        """The two-sided p-value of the difference (None without one)."""
        if self.diff is None or not math.isfinite(self.half_width):
            return None
        return p_value(self.z)

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
                    "p": None, "p_adjusted": None, "significant": False, "paired": self.paired}
        return {"figure": self.name, "a": self.a, "b": self.b, "difference": self.diff,
                "ci95": [_finite(self.diff - self.half_width), _finite(self.diff + self.half_width)],
                "p": self.p, "p_adjusted": self.p_adjusted, "significant": self.significant,
                "paired": self.paired}


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
