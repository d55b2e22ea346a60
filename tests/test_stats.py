"""The 95% intervals of the Monte Carlo results (solver/cards/stats.py) against published values
and against their definitions, computed here by other means.

Wilson score interval: the published values are Newcombe, "Two-sided confidence intervals for
the single proportion: comparison of seven methods", Statistics in Medicine 17 (1998) 857-872,
Table I, method 3 (score interval without continuity correction), four decimals. The
definition: the interval is the set of p with |k/n - p| <= z sqrt(p (1 - p) / n), so each end
strictly inside (0, 1) is a root of (k/n - p)^2 = z^2 p (1 - p) / n; with k = 0 it is
[0, z^2 / (n + z^2)], with k = n it is [n / (n + z^2), 1]. z is the 97.5% point of the
standard normal, 1.959963984540054 (NormalDist().inv_cdf(0.975) recomputes it).

Normal interval of a mean: mean +- z s / sqrt(n) with the sample variance s^2 (divisor n - 1),
worked by hand for a small sample below.
"""

from __future__ import annotations

import math
from fractions import Fraction
from statistics import NormalDist

import pytest

from fleece.solver.cards.stats import Z95, Mean, Proportion

Z = NormalDist().inv_cdf(0.975)


def test_z_is_the_975_percent_normal_point() -> None:
    assert abs(Z95 - Z) < 1e-12 and abs(Z - 1.96) < 5e-5


@pytest.mark.parametrize(("k", "n", "lo", "hi"), [
    (81, 263, 0.2553, 0.3662),  # Newcombe 1998, Table I, example (a)
    (15, 148, 0.0624, 0.1605),  # example (b)
    (0, 20, 0.0000, 0.1611),  # example (c)
    (1, 29, 0.0061, 0.1718),  # example (d)
    (29, 29, 0.8830, 1.0000),  # the mirror image of 0/29
])
def test_wilson_interval_reproduces_newcombe_table_1(k: int, n: int, lo: float, hi: float
                                                     ) -> None:
    got = Proportion(k, n).interval()
    assert (round(got[0], 4), round(got[1], 4)) == (lo, hi)


@pytest.mark.parametrize("n", [1, 2, 5, 20, 263, 10_000])
def test_wilson_interval_ends_solve_the_score_equation(n: int) -> None:
    """Every end inside (0, 1) is a root of (p_hat - p)^2 = z^2 p (1 - p) / n, one below
    p_hat and one above; k = 0 and k = n give the closed forms of the module docstring."""
    z2 = Z * Z
    for k in sorted({0, 1, n // 3, n // 2, n - 1, n}):
        p_hat = k / n
        lo, hi = Proportion(k, n).interval()
        assert 0.0 <= lo <= p_hat <= hi <= 1.0
        for end in (lo, hi):
            if 0.0 < end < 1.0:
                assert abs((p_hat - end) ** 2 - z2 * end * (1 - end) / n) < 1e-12
        if k == 0:
            assert lo == 0.0 and abs(hi - z2 / (n + z2)) < 1e-12
        if k == n:
            assert hi == 1.0 and abs(lo - n / (n + z2)) < 1e-12
        if 0 < k < n:
            assert 0.0 < lo < p_hat < hi < 1.0


def test_wilson_interval_is_symmetric_under_swapping_successes_and_failures() -> None:
    for k, n in ((3, 10), (81, 263), (0, 7)):
        lo, hi = Proportion(k, n).interval()
        lo2, hi2 = Proportion(n - k, n).interval()
        assert abs(lo - (1 - hi2)) < 1e-12 and abs(hi - (1 - lo2)) < 1e-12


def test_wilson_interval_narrows_as_n_grows() -> None:
    """Half the successes of 100, 1000, 10000 trials: the width shrinks as 1/sqrt(n) (to
    within the z^2 / n terms)."""
    widths = [Proportion(n // 2, n).interval()[1] - Proportion(n // 2, n).interval()[0]
              for n in (100, 1000, 10_000)]
    assert widths[0] > widths[1] > widths[2]
    assert abs(widths[1] / widths[2] - math.sqrt(10)) < 0.01


def test_proportion_of_no_trials_is_the_whole_unit_interval() -> None:
    empty = Proportion(0, 0)
    assert empty.value == 0.0 and empty.interval() == (0.0, 1.0)


def test_proportion_json_has_the_count_the_fraction_and_the_interval() -> None:
    """81/263 = 0.307985 (six decimals), interval as in Newcombe's table."""
    d = Proportion(81, 263).to_json()
    assert d["count"] == 81 and d["of"] == 263 and d["fraction"] == 0.307985
    lo, hi = d["ci95"]  # type: ignore[misc]
    assert (round(lo, 4), round(hi, 4)) == (0.2553, 0.3662)


def test_mean_interval_of_a_small_sample_by_hand() -> None:
    """2 4 4 4 5 5 7 9: mean 5, squared deviations 9+1+1+1+0+0+4+16 = 32, s^2 = 32/7,
    standard error sqrt(32/7/8) = sqrt(4/7), half width z sqrt(4/7) = 1.4816."""
    m = Mean.of([2, 4, 4, 4, 5, 5, 7, 9])
    assert (m.n, m.total, m.squares) == (8, 40.0, 232.0)
    assert m.value == 5.0
    lo, hi = m.interval()
    half = Z * math.sqrt(float(Fraction(32, 7) / 8))
    assert abs(lo - (5 - half)) < 1e-12 and abs(hi - (5 + half)) < 1e-12
    assert round(half, 4) == 1.4816
    assert m.to_json() == {"n": 8, "mean": 5.0, "ci95": [round(5 - half, 4),
                                                         round(5 + half, 4)]}


def test_mean_interval_degenerate_samples() -> None:
    """No value: mean 0; one value: the point itself; equal values: no width, also when
    rounding makes the sum of squares a hair smaller than total^2 / n (0.7 five times)."""
    assert Mean.of([]).value == 0.0 and Mean.of([]).interval() == (0.0, 0.0)
    assert Mean.of([7]).interval() == (7.0, 7.0)
    same = Mean.of([0.7] * 5)
    assert same.squares - same.total * same.total / same.n < 0  # the rounding case
    assert same.interval() == (same.value, same.value)
