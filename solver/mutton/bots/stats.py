"""Small statistics for match results: the mean with its 95% confidence interval (Student's t)
and paired differences. The t quantile is exact: the t distribution's closed-form CDF for an
integer number of degrees of freedom (Abramowitz & Stegun 26.7.3-4), inverted by bisection."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

LEVEL = 0.95
NORMAL_FROM = 100_000  # degrees of freedom from which the normal quantile is used


def t_cdf(t: float, df: int) -> float:
    """P(T <= t) for Student's t with `df` degrees of freedom (df >= 1)."""
    theta = math.atan(abs(t) / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    s = math.sin(theta)
    if df % 2:
        term, acc = s * math.cos(theta), 0.0
        if df > 1:
            acc = term
            for k in range(3, df - 1, 2):
                term *= c2 * (k - 1) / k
                acc += term
        inside = 2 / math.pi * (theta + acc)
    else:
        term = acc = 1.0
        for k in range(2, df - 1, 2):
            term *= c2 * (k - 1) / k
            acc += term
        inside = s * acc
    return 0.5 + math.copysign(inside / 2, t)


def t_quantile(p: float, df: int) -> float:
    """The `p` quantile of Student's t with `df` degrees of freedom (0.5 < p < 1)."""
    if df >= NORMAL_FROM:
        from statistics import NormalDist

        return NormalDist().inv_cdf(p)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12:
            break
    return (lo + hi) / 2


@dataclass(frozen=True)
class Estimate:
    """A sample's size, mean, standard deviation and 95% confidence interval of the mean
    (None with fewer than two values)."""

    n: int
    mean: float
    sd: float
    ci95: tuple[float, float] | None

    @classmethod
    def of(cls, values: Sequence[float]) -> Estimate:
        """The estimate of a sample (at least one value)."""
        n = len(values)
        if n == 0:
            return cls(0, math.nan, math.nan, None)
        mean = math.fsum(values) / n
        if n < 2:
            return cls(n, mean, math.nan, None)
        sd = math.sqrt(math.fsum((x - mean) ** 2 for x in values) / (n - 1))
        half = t_quantile(0.5 + LEVEL / 2, n - 1) * sd / math.sqrt(n)
        return cls(n, mean, sd, (mean - half, mean + half))

    @property
    def excludes_zero(self) -> bool:
        """True when the interval lies wholly on one side of zero."""
        return self.ci95 is not None and (self.ci95[0] > 0 or self.ci95[1] < 0)

    def to_json(self) -> dict[str, Any]:
        """`{"mean", "ci95": [lo, hi] or null, "sd", "n"}` (rounded to 4 decimals)."""
        ci = None if self.ci95 is None else [round(self.ci95[0], 4), round(self.ci95[1], 4)]
        sd = None if math.isnan(self.sd) else round(self.sd, 4)
        mean = None if math.isnan(self.mean) else round(self.mean, 4)
        return {"mean": mean, "ci95": ci, "sd": sd, "n": self.n}

    def text(self) -> str:
        """`3.21 (95% CI 2.90 to 3.52)`."""
        if self.ci95 is None:
            return f"{self.mean:.2f}"
        return f"{self.mean:.2f} (95% CI {self.ci95[0]:.2f} to {self.ci95[1]:.2f})"
