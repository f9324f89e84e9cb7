"""Confidence intervals of match scores and of mean outcomes.

Scores count a win 1, a draw 0.5, a loss 0. Their 95% interval is the Wilson
score interval of the mean score over ``n`` games (exact for win/loss results,
conservative when there are draws, and sensible at 0% and 100%).
"""

from __future__ import annotations

from typing import Iterable

import numpy as np

from agents.evaluation.ratings import Z95


def score_interval(points: float, games: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of the mean score ``points / games``."""
    if games <= 0:
        return (0.0, 1.0)
    p = points / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * np.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    low = 0.0 if points <= 0 else max(0.0, centre - half)
    high = 1.0 if points >= games else min(1.0, centre + half)
    return (float(low), float(high))


def mean_interval(values: Iterable[float], z: float = Z95) -> tuple[float, float]:
    """Mean and half-width of its normal-approximation interval (z * standard error)."""
    values = np.asarray(list(values), dtype=float)
    if len(values) == 0:
        raise ValueError("no values to average")
    half = z * values.std(ddof=1) / np.sqrt(len(values)) if len(values) > 1 else float("inf")
    return float(values.mean()), float(half)
