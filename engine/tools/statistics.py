"""Confidence intervals of the results of many games.

>>> wilson_interval(0, 10)[0], round(wilson_interval(0, 10)[1], 3)   # no win in 10: still up to 28 %
(0.0, 0.278)
"""
from __future__ import annotations

import math

Z95 = 1.959963984540054  # the 97.5th percentile of the standard normal


def mean_interval(samples: list[float]) -> tuple[float, float, float]:
    """(mean, low, high): the mean and its 95 % normal-approximation interval."""
    n = len(samples)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(samples) / n
    if n == 1:
        return (mean, mean, mean)
    variance = sum((x - mean) ** 2 for x in samples) / (n - 1)
    half = Z95 * math.sqrt(variance / n)
    return (mean, mean - half, mean + half)


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (95 %) of a rate: unlike the normal one it does not shrink to a point
    at 0 or 1 (no win in 10 games is not a win rate of exactly 0). `successes` may be fractional (shared
    wins, a mean over seatings): the interval then bounds any rate of values in [0, 1]."""
    if trials <= 0:
        return (math.nan, math.nan)
    rate = successes / trials
    scale = 1 + z * z / trials
    centre = (rate + z * z / (2 * trials)) / scale
    half = z * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials)) / scale
    return (max(0.0, centre - half), min(1.0, centre + half))
