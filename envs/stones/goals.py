"""The goal of a stone game, decided in one compiled place for the rows
(``envs.stones.compiled``, ``envs.neutral.compiled``) and the playouts.

A game names its goal by a code (``Rules.kernel_goal``):

- ``GOAL_CHAIN`` / ``GOAL_SIDES``: a chain of the colour touching every side of its goal, the
  sides given per colour and cell as bits by ``Rules.goal_sides`` (Hex: a colour's two edges,
  bits 1 and 2; Y: the triangle's three sides, bits 1, 2 and 4, the same for both colours);
- ``GOAL_LINE``: ``LINE`` or more of the colour in a row (Gomoku);
- ``GOAL_COUNT``: no goal during play; more stones wins when neither side can move (Reversi).

These functions search the board, so they are exact after any change, a stone given back
included. Where stones are only ever added, the plain games' rows and
playouts (``envs.stones.compiled``) keep the same answer up to date in a union-find
(``envs.stones.chains``) instead; the tests hold both to the same games.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from envs.kernels import FIRST, GOAL_CHAIN, GOAL_COUNT, GOAL_LINE, GOAL_SIDES, SECOND, chain_sides

LINE = 5  # Gomoku's goal: five or more in a row


@njit(cache=True)
def line_through(board, columns, rows, cell, colour, length):
    """Whether ``length`` or more ``colour`` stones lie in a row (any of 4 directions) through
    ``cell`` of a ``columns`` x ``rows`` board (Gomoku's square, Connect Four's rectangle)."""
    if board[cell] != colour:
        return False
    r0, c0 = cell // columns, cell % columns
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            r, c = r0 + sign * dr, c0 + sign * dc
            while 0 <= r < rows and 0 <= c < columns and board[r * columns + c] == colour:
                run += 1
                r += sign * dr
                c += sign * dc
        if run >= length:
            return True
    return False


# by goal code: the side bits a winning chain touches (0: not a chain goal)
TARGETS = np.array([3, 0, 0, 7], np.uint8)
assert TARGETS[GOAL_CHAIN] == 3 and TARGETS[GOAL_SIDES] == 7


def no_sides(n: int) -> np.ndarray:
    """The ``goal_sides`` table of a game whose goal is not a chain: all zeros, ``[3, n * n]``."""
    return np.zeros((3, n * n), np.uint8)


@njit(cache=True)
def reached(board, n, goal, colour, cell, neighbours, sides):
    """Whether ``colour``'s goal runs through ``cell`` (a chain touching all its goal's sides, or
    a line); ``neighbours`` is a (cells, 6) array padded with -1, ``sides`` ``[3, cells]``."""
    if goal == GOAL_LINE:
        return line_through(board, n, n, cell, colour, LINE)
    if goal == GOAL_COUNT:
        return False
    target = TARGETS[goal]
    return chain_sides(board, colour, cell, neighbours, sides[colour], target) == target


@njit(cache=True)
def turn_reached(board, n, goal, colour, first, second, neighbours, sides):
    """Whether the turn that made ``first`` (and ``second``; -1: none) ``colour``'s reached its goal."""
    if first >= 0 and reached(board, n, goal, colour, first, neighbours, sides):
        return True
    return second >= 0 and reached(board, n, goal, colour, second, neighbours, sides)


@njit(cache=True)
def outcome_at_end(board, first_count, second_count, n, goal, neighbours, sides):
    """The winning colour (or 0, a draw) when neither side can move: the larger count for
    ``GOAL_COUNT``, the colour holding its goal anywhere otherwise (first colour first)."""
    if goal == GOAL_COUNT:
        return FIRST if first_count > second_count else SECOND if second_count > first_count else 0
    for colour in (FIRST, SECOND):
        for cell in range(len(board)):
            if board[cell] == colour and reached(board, n, goal, colour, cell, neighbours, sides):
                return colour
    return 0
