"""The network's raw outputs as the search's estimates, in one compiled pass per batch.

:func:`priors_and_values` is what :meth:`NetEstimator.estimate_planes` did in numpy
(mask the illegal actions, softmax, the mover's value and its negation for the other
seats) without the temporaries: the same float64 arithmetic, in the same order (a row's
sum is numpy's pairwise sum), so the estimates are numpy's to the bit.
"""

from __future__ import annotations

import numpy as np
from numba import njit

BLOCK = 128  # numpy's pairwise summation block (PW_BLOCKSIZE)


@njit(cache=True)
def block_sum(a, first, n):
    """``a[first:first + n].sum()`` for ``n <= 128`` as numpy adds it: eight running sums."""
    if n < 8:
        total = 0.0
        for i in range(first, first + n):
            total += a[i]
        return total
    r0, r1, r2, r3 = a[first], a[first + 1], a[first + 2], a[first + 3]
    r4, r5, r6, r7 = a[first + 4], a[first + 5], a[first + 6], a[first + 7]
    i = first + 8
    end = first + n - n % 8
    while i < end:
        r0, r1, r2, r3 = r0 + a[i], r1 + a[i + 1], r2 + a[i + 2], r3 + a[i + 3]
        r4, r5, r6, r7 = r4 + a[i + 4], r5 + a[i + 5], r6 + a[i + 6], r7 + a[i + 7]
        i += 8
    total = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < first + n:
        total += a[i]
        i += 1
    return total


@njit(cache=True)
def pairwise_sum(a, n):
    """``a[:n].sum()`` as numpy adds a contiguous float64 run: blocks of 128 (:func:`block_sum`),
    halves above them, the left half's sum plus the right's. Without recursion (numba's cache
    does not keep a recursive function safely): an explicit stack of the halves still to add."""
    if n <= BLOCK:
        return block_sum(a, 0, n)
    firsts, counts, combine = np.empty(192, np.int64), np.empty(192, np.int64), np.empty(192, np.bool_)
    sums = np.empty(64)
    firsts[0], counts[0], combine[0] = 0, n, False
    top, done = 1, 0
    while top:
        top -= 1
        first, count = firsts[top], counts[top]
        if combine[top]:  # both halves added: left + right
            done -= 1
            sums[done - 1] = sums[done - 1] + sums[done]
        elif count <= BLOCK:
            sums[done] = block_sum(a, first, count)
            done += 1
        else:
            half = count // 2
            half -= half % 8
            firsts[top], counts[top], combine[top] = first, count, True
            firsts[top + 1], counts[top + 1], combine[top + 1] = first + half, count - half, False
            firsts[top + 2], counts[top + 2], combine[top + 2] = first, half, False
            top += 3
    return sums[0]


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
