"""Reversi's capturing placements on boards of up to 8 x 8 as 64-bit bitboards: all cells
of a colour at once, 8 directions of shifts, instead of a walk from every empty cell
(``envs.stones.flanking.captures_any``). Bit ``r * n + c`` is cell ``r * n + c``."""

from __future__ import annotations

import numpy as np
from numba import njit

MAX_SIZE = 8
_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@njit(cache=True)
def _column_mask(n, column):
    """The bits of one board column."""
    mask = _ZERO
    for r in range(n):
        mask |= _ONE << np.uint64(r * n + column)
    return mask


@njit(cache=True)
def _shift(bits, n, dr, dc, full, not_first, not_last):
    """Every bit moved one cell by (dr, dc), the ones that leave the board dropped."""
    k = dr * n + dc
    moved = bits << np.uint64(k) if k > 0 else bits >> np.uint64(-k)
    if dc == 1:
        moved &= not_first  # wrapped from the last column
    elif dc == -1:
        moved &= not_last
    return moved & full


@njit(cache=True)
def capturing_moves(board, n, colour, out):
    """``envs.stones.flanking.capturing_into(board, n, colour, EMPTY, out)`` for a board without
    neutrals and n <= 8: the empty cells where a ``colour`` stone flanks a line, in
    order, into ``out``; returns their count."""
    moves = capturing_bits(board, n, colour)
    count = 0
    cell = 0
    while moves:
        if moves & _ONE:
            out[count] = cell
            count += 1
        moves >>= _ONE
        cell += 1
    return count


@njit(cache=True)
def capturing_bits(board, n, colour):
    """The cells of :func:`capturing_moves` as one bitboard (nonzero: ``colour`` can place)."""
    own = opp = empty = _ZERO
    for cell in range(n * n):
        v = board[cell]
        bit = _ONE << np.uint64(cell)
        if v == 0:
            empty |= bit
        elif v == colour:
            own |= bit
        else:
            opp |= bit
    full = own | opp | empty
    not_first, not_last = full & ~_column_mask(n, 0), full & ~_column_mask(n, n - 1)
    moves = _ZERO
    for dr in range(-1, 2):
        for dc in range(-1, 2):
            if dr == 0 and dc == 0:
                continue
            line = _shift(own, n, dr, dc, full, not_first, not_last) & opp
            for _ in range(n - 3):
                line |= _shift(line, n, dr, dc, full, not_first, not_last) & opp
            moves |= _shift(line, n, dr, dc, full, not_first, not_last) & empty
    return moves
