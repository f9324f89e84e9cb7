"""Amazons' random playout in one numba kernel (``Amazons.random_playout``), and the queen-move
distances its heuristic counts territory by (``queen_distances``).

It plays the game the engine loop plays for the same seed (``ScheduledGame.engine_playout``):
one ``envs.kernels.draw`` per decision (micro-step) over the legal cells in the engine's order
(the amazons that may move and have an empty neighbour; then the empty cells a queen's move
from the amazon picked; then from where it landed, for the arrow; each in increasing cell
order), from any position, a turn or a move begun included. The rays are the engine's
(``queen_rays``); each seat's amazons are kept in a short list, so no step scans the board.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from envs.kernels import CUT, EMPTY, draw, flat_rays

ARROW = 3  # ``envs.schedule.moves.BLOCK``
UNREACHED = 1 << 16  # ``queen_distances`` of a cell no amazon reaches


@lru_cache(maxsize=None)
def tables(n: int) -> tuple[np.ndarray, np.ndarray]:
    """(every cell's eight queen rays one after another, nearest first; where each cell's rays
    start and end, ``(cells, 9)``), from ``queen_rays(n)``, whose directions run from the row
    above to the row below, left to right within a row (``_reach`` relies on that order)."""
    from envs.games.amazons.game import queen_rays  # here: the game module imports this one

    return flat_rays(queen_rays(n))


@njit(cache=True)
def playout(
    board, rays, bounds, seat, turn, moves_left, picked, landed, restricted, may_move, schedule, seed, cut, cut_board
):
    """``(outcome, decisions, turns)`` of a random game from a position (not over): ``outcome``
    the winning seat's amazon (1 or 2; there are no draws); ``CUT`` once ``cut`` turns have
    ended (-1: never), the board then in ``cut_board``. ``rays``, ``bounds``: ``tables(n)``;
    ``picked``: the amazon a move has picked, not yet moved (-1: none); ``landed``: where a
    move's amazon has gone, its arrow to come (-1: none); ``may_move``: 1 on the cells whose
    amazon may start a move this turn (read only when ``restricted``); ``schedule``: the move
    counts (``TurnSchedule.counts``)."""
    cells = len(board)
    after = board.copy()
    pieces = np.empty((2, cells), np.int64)  # each seat's amazons' cells
    counts = np.zeros(2, np.int64)
    for cell in range(cells):
        if after[cell] == 1 or after[cell] == 2:
            side = after[cell] - 1
            pieces[side, counts[side]] = cell
            counts[side] += 1
    legal = np.empty(cells, np.int64)
    decisions = turns = 0
    while True:
        if landed >= 0:
            count = _reach(after, rays, bounds, landed, legal)
        elif picked >= 0:
            count = _reach(after, rays, bounds, picked, legal)
        else:
            count = _starts(after, rays, bounds, pieces[seat], counts[seat], restricted, may_move, legal)
            if count == 0:  # only at a turn's start: a turn ends as soon as its mover has no move left
                return 2 - seat, decisions, turns  # the seat to start a turn without a move loses
        if turns == cut:  # the game goes on: the heuristic scores the board
            cut_board[:] = after
            return CUT, decisions, turns
        index, seed = draw(seed, count)
        cell = legal[index]
        decisions += 1
        if landed >= 0:  # the arrow: the move is whole
            after[cell] = ARROW
            landed = -1
            moves_left -= 1
            if moves_left and not _starts(after, rays, bounds, pieces[seat], counts[seat], restricted, may_move, legal):
                moves_left = 0  # no amazon of the mover's may move: the turn ends short
            if moves_left == 0:
                turns += 1
                seat, turn = 1 - seat, turn + 1
                moves_left = schedule[min(turn, len(schedule) - 1)]
                # the other seat's flags stay: only the mover's amazons are read, and a cell an
                # amazon leaves is cleared, so no empty cell is ever flagged
                for k in range(counts[seat]):
                    may_move[pieces[seat, k]] = 1
        elif picked >= 0:  # the destination
            after[picked], after[cell] = EMPTY, 1 + seat
            may_move[picked] = 0
            for k in range(counts[seat]):
                if pieces[seat, k] == picked:
                    pieces[seat, k] = cell
            picked, landed = -1, cell
        else:  # the amazon
            picked = cell


@njit(cache=True)
def _starts(board, rays, bounds, pieces, count, restricted, may_move, out):
    """Write the cells of the amazons in ``pieces[:count]`` that may start a move (``may_move``
    when ``restricted``; an empty neighbour) into ``out``, in increasing order; return how many."""
    found = 0
    for k in range(count):
        cell = pieces[k]
        if restricted and not may_move[cell]:
            continue
        for d in range(8):
            if bounds[cell, d + 1] > bounds[cell, d] and board[rays[bounds[cell, d]]] == EMPTY:
                out[found] = cell
                found += 1
                break
    for i in range(1, found):  # a handful of amazons: insertion sort
        value, j = out[i], i
        while j > 0 and out[j - 1] > value:
            out[j] = out[j - 1]
            j -= 1
        out[j] = value
    return found


@njit(cache=True)
def _reach(board, rays, bounds, cell, out):
    """Write the empty cells a queen on ``cell`` reaches into ``out`` in increasing order
    (``AmazonsRules.reach``); return how many. The directions go up-left, up, up-right, left,
    right, down-left, down, down-right, so the row ``d`` above holds the ``d``-th cell of the
    first three rays and the row ``d`` below that of the last three: farthest row above first,
    the left ray backwards, the right ray forwards, then the rows below nearest first."""
    length = np.zeros(8, np.int64)
    for d in range(8):
        start, stop = bounds[cell, d], bounds[cell, d + 1]
        while start + length[d] < stop and board[rays[start + length[d]]] == EMPTY:
            length[d] += 1
    found = 0
    for step in range(max(length[0], length[1], length[2]), 0, -1):
        for d in range(3):
            if step <= length[d]:
                out[found] = rays[bounds[cell, d] + step - 1]
                found += 1
    for step in range(length[3], 0, -1):
        out[found] = rays[bounds[cell, 3] + step - 1]
        found += 1
    for step in range(1, length[4] + 1):
        out[found] = rays[bounds[cell, 4] + step - 1]
        found += 1
    for step in range(1, max(length[5], length[6], length[7]) + 1):
        for d in range(5, 8):
            if step <= length[d]:
                out[found] = rays[bounds[cell, d] + step - 1]
                found += 1
    return found


@njit(cache=True)
def queen_distances(board, rays, bounds, piece, out):
    """For every cell, the fewest queen moves over empty cells that bring an amazon ``piece``
    onto it, into ``out`` (``UNREACHED`` where none can; the amazons' own cells 0): a
    breadth-first search, each round every ray from the cells the last round reached."""
    cells = len(board)
    frontier, reached = np.empty(cells, np.int64), np.empty(cells, np.int64)
    count = 0
    for cell in range(cells):
        out[cell] = UNREACHED
        if board[cell] == piece:
            out[cell] = 0
            frontier[count] = cell
            count += 1
    moves = 0
    while count:
        moves += 1
        found = 0
        for i in range(count):
            cell = frontier[i]
            for d in range(bounds.shape[1] - 1):
                for k in range(bounds[cell, d], bounds[cell, d + 1]):
                    target = rays[k]
                    if board[target] != EMPTY:
                        break
                    if out[target] == UNREACHED:
                        out[target] = moves
                        reached[found] = target
                        found += 1
        frontier, reached = reached, frontier
        count = found
