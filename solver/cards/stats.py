"""Interval estimates for Monte Carlo results (95%: Wilson for proportions, normal for means)."""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Proportion:
    """k successes out of n, with a 95% Wilson interval."""

    k: int
    n: int

    @property
    def value(self) -> float:
        """k / n (0 when n is 0)."""
        return self.k / self.n if self.n else 0.0

    def interval(self) -> tuple[float, float]:
        """The 95% Wilson score interval; it ends exactly at 0 when k = 0 and at 1 when
        k = n (where rounding would leave the end a hair inside and miss k / n itself)."""
        if self.n == 0:
            return (0.0, 1.0)
        p, n, z = self.k / self.n, self.n, Z95
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        lo = 0.0 if self.k == 0 else max(0.0, centre - half)
        hi = 1.0 if self.k == self.n else min(1.0, centre + half)
        return (lo, hi)

    def to_json(self) -> dict[str, object]:
        """`{"count", "of", "fraction", "ci95"}`."""
        lo, hi = self.interval()
        return {"count": self.k, "of": self.n, "fraction": round(self.value, 6),
                "ci95": [round(lo, 6), round(hi, 6)]}


@dataclass(frozen=True)
class Mean:
    """A sample mean with a 95% normal interval (n, sum, sum of squares)."""

    n: int
    total: float
    squares: float

    @classmethod
    def of(cls, values: list[float] | list[int]) -> Mean:
        """From a list of values."""
        return cls(len(values), float(sum(values)), float(sum(v * v for v in values)))

    @property
    def value(self) -> float:
        """The mean (0 when empty)."""
        return self.total / self.n if self.n else 0.0

    def interval(self) -> tuple[float, float]:
        """mean +- 1.96 standard errors (the point itself for n < 2)."""
        if self.n < 2:
            return (self.value, self.value)
        var = max(0.0, (self.squares - self.total * self.total / self.n) / (self.n - 1))
        half = Z95 * math.sqrt(var / self.n)
        return (self.value - half, self.value + half)

    def to_json(self) -> dict[str, object]:
        """`{"n", "mean", "ci95"}`."""
        lo, hi = self.interval()
        return {"n": self.n, "mean": round(self.value, 4), "ci95": [round(lo, 4), round(hi, 4)]}
