"""numpy's sum of a contiguous float run, compiled: the same additions in the same order
(numpy's pairwise summation), so a kernel's sum equals numpy's ``a[:n].sum()`` to the bit, in
float64 and in float32 alike."""

from __future__ import annotations

import numpy as np
from numba import njit

BLOCK = 128  # numpy's pairwise summation block (PW_BLOCKSIZE)


@njit(cache=True)
def block_sum(a, first, n):
    """``a[first:first + n].sum()`` for ``n <= 128`` as numpy adds it: eight running sums."""
    if n < 8:
        total = np.zeros(1, a.dtype)[0]  # numpy's running sum is of the array's type
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
    """``a[:n].sum()`` as numpy adds a contiguous run: blocks of 128 (:func:`block_sum`),
    halves above them, the left half's sum plus the right's. Without recursion (numba's cache
    does not keep a recursive function safely): an explicit stack of the halves still to add."""
    if n <= BLOCK:
        return block_sum(a, 0, n)
    firsts, counts, combine = np.empty(192, np.int64), np.empty(192, np.int64), np.empty(192, np.bool_)
    sums = np.empty(64, a.dtype)
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
