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
    """A running mean with its 95% confidence interval."""

    n: int = 0
    mean: float = 0.0
    m2: float = 0.0

    def add(self, x: float) -> None:
        self.n += 1
        delta = x - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (x - self.mean)

    def merge(self, other: "Mean") -> None:
        if other.n == 0:
            return
        if self.n == 0:
            self.n, self.mean, self.m2 = other.n, other.mean, other.m2
            return
        n = self.n + other.n
        delta = other.mean - self.mean
        self.mean += delta * other.n / n
        self.m2 += other.m2 + delta * delta * self.n * other.n / n
        self.n = n

    @property
    def variance(self) -> float:
        return self.m2 / (self.n - 1) if self.n > 1 else 0.0

    @property
    def half_width(self) -> float:
        return Z95 * math.sqrt(self.variance / self.n) if self.n > 1 else math.inf

    def interval(self) -> tuple[float, float]:
        h = self.half_width
        return (self.mean - h, self.mean + h)

    def as_dict(self) -> dict:
        lo, hi = self.interval()
        return {"n": self.n, "mean": self.mean, "ci95": [_finite(lo), _finite(hi)]}

    def state(self) -> tuple:
        return (self.n, self.mean, self.m2)

    @classmethod
    def from_state(cls, state) -> "Mean":
        return cls(*state)


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

    def state(self) -> tuple:
        return (self.hits, self.n)

    @classmethod
    def from_state(cls, state) -> "Rate":
        return cls(*state)


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
    a: float
    b: float
    diff: float
    half_width: float
    paired: bool

    @property
    def significant(self) -> bool:
        return math.isfinite(self.half_width) and abs(self.diff) > self.half_width

    @property
    def z(self) -> float:
        """How many standard errors the difference is from zero (for sorting)."""
        se = self.half_width / Z95 if math.isfinite(self.half_width) and self.half_width > 0 else math.inf
        return abs(self.diff) / se if se not in (0, math.inf) else (math.inf if self.diff and se == 0 else 0.0)

    def as_dict(self) -> dict:
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
