"""Placement by flanking (Reversi's rule), the kernels that ``envs.stones.compiled`` and
``envs.neutral.compiled`` build Reversi's and NeuVersi's rules from: captures, the cells where a
stone captures, the starts of a NeuVersi turn, and the count that decides at the end.

A capture flanks one or more stones that are neither empty nor the mover's (enemy, or neutral
in the neutral games), closed by a stone of the mover's, in any of the 8 directions.
"""

from __future__ import annotations

from numba import njit

from envs.kernels import EMPTY, NEUTRAL


@njit(cache=True)
def captures(board, n, cell, colour, out):
    """Write into ``out`` the stones a ``colour`` stone on ``cell`` flanks; return their count."""
    r0, c0 = cell // n, cell % n
    count = 0
    for dr in range(-1, 2):
        for dc in range(-1, 2):
            if dr == 0 and dc == 0:
                continue
            r, c, start, closed = r0 + dr, c0 + dc, count, False
            while 0 <= r < n and 0 <= c < n:
                v = board[r * n + c]
                if v == EMPTY:
                    break
                if v == colour:
                    closed = True
                    break
                out[count] = r * n + c
                count += 1
                r += dr
                c += dc
            if not closed:
                count = start
    return count


@njit(cache=True)
def captures_any(board, n, cell, colour):
    """Whether a ``colour`` stone on ``cell`` flanks at least one line."""
    r0, c0 = cell // n, cell % n
    for dr in range(-1, 2):
        for dc in range(-1, 2):
            if dr == 0 and dc == 0:
                continue
            r, c, length = r0 + dr, c0 + dc, 0
            while 0 <= r < n and 0 <= c < n:
                v = board[r * n + c]
                if v == EMPTY:
                    break
                if v == colour:
                    if length:
                        return True
                    break
                length += 1
                r += dr
                c += dc
    return False


@njit(cache=True)
def capturing_into(board, n, colour, value, out):
    """The cells holding ``value`` where a ``colour`` stone captures, in order, into ``out``; their count."""
    count = 0
    for cell in range(len(board)):
        if board[cell] == value and captures_any(board, n, cell, colour):
            out[count] = cell
            count += 1
    return count


@njit(cache=True)
def any_capture(board, n, colour, value):
    """Whether a ``colour`` stone captures on some cell holding ``value``."""
    for cell in range(len(board)):
        if board[cell] == value and captures_any(board, n, cell, colour):
            return True
    return False


@njit(cache=True)
def capture_starts(board, n, colour, out, work):
    """Write the cells that start a NeuVersi turn (capturing drops and completable swaps),
    in order, into ``out``; return their count. ``work`` holds scratch space: (cells, board, flipped)."""
    neutrals, scratch, flipped = work
    count = candidates = 0
    for cell in range(len(board)):
        v = board[cell]
        if (v == EMPTY or v == NEUTRAL) and captures_any(board, n, cell, colour):
            out[count] = cell
            count += 1
            if v == NEUTRAL:
                neutrals[candidates] = cell
                candidates += 1
    if candidates == 0:
        return count
    kept = 0  # keep the drops and the swaps that a second neutral can complete
    for i in range(count):
        cell = out[i]
        if board[cell] == EMPTY or _swap_completes(board, n, cell, colour, neutrals[:candidates], scratch, flipped):
            out[kept] = cell
            kept += 1
    return kept


@njit(cache=True)
def _swap_completes(board, n, cell, colour, likely, scratch, flipped):
    """Whether, once a ``colour`` stone on the neutral ``cell`` has captured, another neutral
    captures too (the swap can be completed). The ``likely`` cells (neutrals that capture now)
    are tried first: most still do."""
    for i in range(len(board)):
        scratch[i] = board[i]
    for i in range(captures(board, n, cell, colour, flipped)):
        scratch[flipped[i]] = colour
    scratch[cell] = colour
    for other in likely:
        if scratch[other] == NEUTRAL and captures_any(scratch, n, other, colour):
            return True
    return any_capture(scratch, n, colour, NEUTRAL)


@njit(cache=True)
def count_winner(board):
    first = second = 0
    for v in board:
        first += v == 1
        second += v == 2
    return 1 if first > second else 2 if second > first else 0
