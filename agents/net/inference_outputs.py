"""The network's raw outputs as the search's estimates, in one compiled pass per batch.

:func:`priors_and_values` is what :meth:`NetEstimator.estimate_planes` did in numpy
(mask the illegal actions, softmax, the mover's value and its negation for the other
seats) without the temporaries: the same float64 arithmetic, in the same order (a row's
sum is numpy's pairwise sum), so the estimates are numpy's to the bit wherever the two agree
on ``exp`` (numpy's SIMD ``exp`` and the libm's differ in the last bit on some CPUs:
tests/test_inference_outputs.py).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.search.sums import pairwise_sum


@njit(cache=True)
def priors_and_values(logits, value, masks, movers, num_seats):
    """Priors ``[B, A]`` (float64: the softmax of ``logits`` over ``masks``' legal actions, zero
    elsewhere) and values ``[B, num_seats]`` (``value`` for the mover, its negation for the others)."""
    count, actions = logits.shape
    priors = np.empty((count, actions))
    values = np.empty((count, num_seats))
    for i in range(count):
        row = priors[i]
        top = -np.inf
        for a in range(actions):
            row[a] = np.float64(logits[i, a]) if masks[i, a] else -np.inf
            top = max(top, row[a])
        for a in range(actions):
            row[a] = np.exp(row[a] - top)
        total = pairwise_sum(row, actions)
        for a in range(actions):
            row[a] /= total
        v = np.float64(value[i])
        for seat in range(num_seats):
            values[i, seat] = -v
        values[i, movers[i]] = v
    return priors, values
