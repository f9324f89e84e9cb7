"""Lines of stones: the goal of line games (Gomoku, Neumoku)."""

from __future__ import annotations

from numba import njit

LINE = 5  # Gomoku's goal: five or more in a row


@njit(cache=True)
def line_through(board, n, cell, colour, length):
    """Whether ``length`` or more ``colour`` stones lie in a row (any of 4 directions) through ``cell``."""
    if board[cell] != colour:
        return False
    r0, c0 = cell // n, cell % n
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            r, c = r0 + sign * dr, c0 + sign * dc
            while 0 <= r < n and 0 <= c < n and board[r * n + c] == colour:
                run += 1
                r += sign * dr
                c += sign * dc
        if run >= length:
            return True
    return False
