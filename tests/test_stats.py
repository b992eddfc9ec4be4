"""Streaming statistics: the same figures as a direct computation, merged or not; intervals
that count correlated seats once, stay in their range, and a known multiple-comparison correction."""
import math
import random
import statistics

from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from chimera_dsl.study.stats import Z95, Count, Mean, Rate, Share, holm, p_value, paired, rate_difference, welch, wilson


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-1e4, 1e4), min_size=2, max_size=200), st.integers(0, 200))
def test_mean_matches_statistics_and_merging_is_exact(values, cut):
    whole = Mean()
    for v in values:
        whole.add(v)
    left, right = Mean(), Mean()
    cut = min(cut, len(values))
    for v in values[:cut]:
        left.add(v)
    for v in values[cut:]:
        right.add(v)
    left.merge(right)
    assert math.isclose(whole.mean, statistics.fmean(values), rel_tol=1e-9, abs_tol=1e-6)
    assert math.isclose(whole.variance, statistics.variance(values), rel_tol=1e-6, abs_tol=1e-4)
    assert left.n == whole.n
    assert math.isclose(left.mean, whole.mean, rel_tol=1e-9, abs_tol=1e-6)
    assert math.isclose(left.variance, whole.variance, rel_tol=1e-6, abs_tol=1e-4)


def test_wilson_interval_known_value():
    # 60 of 100: the Wilson interval is about (0.502, 0.691)
    lo, hi = wilson(60, 100)
    assert math.isclose(lo, 0.5020, abs_tol=5e-4) and math.isclose(hi, 0.6906, abs_tol=5e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_interval_covers_the_truth_about_95_percent_of_the_time():
    rng = random.Random(7)
    covered = 0
    for _ in range(400):
        m = Mean()
        for _ in range(50):
            m.add(rng.gauss(3.0, 2.0))
        lo, hi = m.interval()
        covered += lo <= 3.0 <= hi
    assert 0.90 <= covered / 400 <= 0.99


def test_differences_detect_a_real_shift_and_not_noise():
    rng = random.Random(3)
    a, b, same = Mean(), Mean(), Mean()
    for _ in range(2000):
        a.add(rng.gauss(0, 1))
        b.add(rng.gauss(0.3, 1))
        same.add(rng.gauss(0, 1))
    assert welch("x", a, b).significant
    assert not welch("x", a, same).significant or abs(welch("x", a, same).diff) < 0.15
    r1, r2 = Rate(), Rate()
    for _ in range(1000):
        r1.add(rng.random() < 0.5)
        r2.add(rng.random() < 0.6)
    assert rate_difference("r", r1, r2).significant


def test_paired_difference_is_tighter_than_welch_on_shared_noise():
    rng = random.Random(5)
    a, b, d = Mean(), Mean(), Mean()
    for _ in range(500):
        noise = rng.gauss(0, 10)
        x, y = noise, noise + 0.5 + rng.gauss(0, 0.5)
        a.add(x)
        b.add(y)
        d.add(y - x)
    assert paired("p", a, b, d).half_width < welch("p", a, b).half_width / 5
    assert paired("p", a, b, d).significant


def test_paired_ratio_is_the_delta_method_and_merges_exactly():
    """B - A for ratios of sums over shared units, against the per-unit residuals computed directly."""
    from chimera_dsl.study.stats import Z95, PairedRatio
    rng = random.Random(11)
    units = []
    for _ in range(300):
        na = rng.randint(4, 15)                       # e.g. rounds in a game under A and under B
        nb = max(1, na + rng.randint(-3, 1))
        xa = sum(rng.randint(-40, 120) for _ in range(na))
        xb = sum(rng.randint(-30, 130) for _ in range(nb))
        units.append((xa, na, xb, nb))
    whole, left, right = PairedRatio(), PairedRatio(), PairedRatio()
    for i, u in enumerate(units):
        whole.add(*u)
        (left if i % 3 else right).add(*u)
    left.merge(right)
    assert left.sums == whole.sums and left.units == whole.units
    d = whole.difference("x")
    g = len(units)
    ra = sum(u[0] for u in units) / sum(u[1] for u in units)
    rb = sum(u[2] for u in units) / sum(u[3] for u in units)
    ma, mb = sum(u[1] for u in units) / g, sum(u[3] for u in units) / g
    resid = [(xb - rb * nb) / mb - (xa - ra * na) / ma for xa, na, xb, nb in units]
    se = math.sqrt(sum(r * r for r in resid) / (g * (g - 1)))
    assert math.isclose(d.diff, rb - ra, rel_tol=1e-12) and d.paired
    assert math.isclose(d.half_width, Z95 * se, rel_tol=1e-9)
    assert PairedRatio().difference("empty").half_width == math.inf


def test_perfectly_correlated_seats_are_worth_one_observation_per_round():
    """Two seats of one round that always score alike: the interval is as wide as one observation
    per round, not sqrt(2) narrower as if the seats were independent."""
    rng = random.Random(2)
    rounds = [rng.randint(-20, 60) for _ in range(200)]
    hits = [rng.random() < 0.3 for _ in range(200)]
    seats, once, independent = Mean(grouped=True), Mean(), Mean()
    seat_rate, once_rate = Rate(grouped=True), Rate()
    for value, hit in zip(rounds, hits):
        for _ in range(2):                  # both hunters of the round
            seats.add(value)
            independent.add(value)
            seat_rate.add(hit)
        seats.close()
        seat_rate.close()
        once.add(value)
        once_rate.add(hit)
    assert seats.n == 400 and seats.mean == once.mean
    assert math.isclose(seats.half_width, once.half_width, rel_tol=1e-12)
    assert independent.half_width < 0.75 * seats.half_width      # what counting seats apart gave
    assert seat_rate.interval() == pytest.approx(once_rate.interval(), rel=1e-12)
    assert seat_rate.interval() == pytest.approx(wilson(sum(hits), 200), rel=1e-12)


def test_clusters_merge_exactly_and_late_figures_count_earlier_rounds_as_zeros():
    rng = random.Random(4)
    games = [[rng.randint(0, 3) for _ in range(rng.randint(1, 6))] for _ in range(60)]
    whole, left, right = Count(grouped=True), Count(grouped=True), Count(grouped=True)
    for i, game in enumerate(games):
        for value in game:
            whole.add(value)
            (left if i < 25 else right).add(value)
        for acc in (whole, left, right):
            acc.close()
    left.merge(right)
    assert left.interval() == whole.interval()
    # a figure first seen in game 10: the zeros of games 0-9 count, in their clusters
    reference, late, direct = Count(grouped=True), Count(grouped=True), Count(grouped=True)
    for i, game in enumerate(games):
        for value in game:
            reference.add(1)
            direct.add(value if i >= 10 else 0)
            if i >= 10:
                late.add(value)
        if i == 9:
            late.pad_like(reference)
        for acc in (reference, late, direct):
            acc.close()
    assert late.n == direct.n and late.interval() == direct.interval()


def test_counts_and_rates_never_leave_their_range():
    rare = Count()
    normal = Mean()
    for i in range(1000):                   # 3 redeals in 1,000 rounds
        rare.add(1 if i % 333 == 7 else 0)
        normal.add(1 if i % 333 == 7 else 0)
    assert normal.interval()[0] < 0                      # the normal interval went below zero
    lo, hi = rare.interval()
    assert 0 < lo < rare.mean < hi < 0.012
    none = Count()
    for _ in range(500):
        none.add(0)
    assert none.interval() == (0.0, pytest.approx(Z95 ** 2 / 500))
    big = Count()
    for i in range(400):
        big.add(20 + i % 7)
    assert big.interval() == pytest.approx(Mean(big.n, big.total, big.total_sq).interval(), rel=1e-3)
    share = Share(grouped=True)
    for i in range(30):
        share.add(Fraction(1, 1 + i % 4) if i % 10 else 1)
        share.close()
    lo, hi = share.interval()
    assert 0 <= lo < share.mean < hi <= 1
    assert Rate(0, 50).interval()[0] == 0.0 and Rate(50, 50).interval()[1] == 1.0


def test_holm_against_known_values():
    # R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") gives 0.03 0.06 0.06 0.02
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.2, None, 0.01]) == pytest.approx([0.2, None, 0.02])
    assert holm([0.5, 0.9]) == [1.0, 1.0]                 # 2 x 0.5, capped at 1
    assert p_value(Z95) == pytest.approx(0.05)
