"""The random playout of the plain placement games (``envs.stones.compiled``): Hex, Y and Gomoku.

A playout plays uniformly random legal actions from a turn start to the end of the game,
drawing ``index, seed = draw(seed, len(legal))`` exactly as the engine loop over the
compiled rows (``Game.engine_playout``) would (legal actions in increasing order, SWAP_SIDES last, one draw
per decision, forced passes included), so for the same seed both play the same game; the tests
check it. ``pie_turn`` is the turn count at which seat 1 may swap sides (-1: no pie rule). A
playout returns (outcome colour or 0, decisions, turns, whether the sides swapped). Reversi's
playout is ``envs.row_playout``'s over its rows, the neutral games' in ``envs.neutral.kernels``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from envs.kernels import EMPTY, GOAL_CHAIN, GOAL_SIDES, draw
from envs.stones.chains import link, link_joins
from envs.stones.goals import TARGETS
from envs.stones.lines import LINE, line_through
from envs.stones.sides import join_sides


@njit(cache=True)
def placement_playout(board, n, colour, turns, pie_turn, goal, neighbours, sides, seed):
    """Plain Hex (``GOAL_CHAIN``, by union-find), Y (``GOAL_SIDES``: a union-find whose roots
    hold the sides their chains touch, ``sides`` as ``Rules.goal_sides``) or Gomoku
    (``GOAL_LINE``): one stone a turn. The union-finds give ``envs.stones.goals``' answers
    as stones are added, without a search per turn."""
    cells = n * n
    after = np.empty(cells, np.uint8)
    empty = np.empty(cells, np.int64)
    count = 0
    for i in range(cells):
        after[i] = board[i]
        if board[i] == EMPTY:
            empty[count] = i
            count += 1
    parent = np.arange(cells + 4)
    touched = np.zeros(cells, np.uint8)  # GOAL_SIDES: the sides each root's chain touches
    for i in range(cells):
        if after[i] == 1 or after[i] == 2:
            touched[i] = sides[after[i], i]
    target = TARGETS[goal]
    if goal == GOAL_CHAIN or goal == GOAL_SIDES:
        for i in range(cells):
            if after[i] == 1 or after[i] == 2:
                if goal == GOAL_CHAIN:
                    link(after, n, parent, neighbours, i)
                else:
                    join_sides(after, parent, touched, neighbours, i)
    decisions, start, swapped = 0, turns, False
    while count:
        pie = 1 if turns == pie_turn and not swapped else 0
        index, seed = draw(seed, count + pie)
        decisions += 1
        turns += 1
        if index == count:  # swap-sides: the same colour moves next, now seat 0's
            swapped = True
            continue
        cell = empty[index]
        for i in range(index, count - 1):
            empty[i] = empty[i + 1]
        count -= 1
        after[cell] = colour
        if goal == GOAL_CHAIN:
            if link_joins(after, n, parent, neighbours, cell):
                return colour, decisions, turns - start, swapped
        elif goal == GOAL_SIDES:
            touched[cell] = sides[colour, cell]
            if join_sides(after, parent, touched, neighbours, cell) == target:
                return colour, decisions, turns - start, swapped
        elif line_through(after, n, cell, colour, LINE):
            return colour, decisions, turns - start, swapped
        colour = 3 - colour
    return 0, decisions, turns - start, swapped
