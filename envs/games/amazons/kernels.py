"""Amazons' rules in numba over a flat row (``envs.schedule.rows``): the ``envs.compiled``
functions of an :class:`AmazonsContext` (the engine of ``envs.games.amazons.game.Amazons``,
its playouts, the compiled search and the batched env), and the queen-move distances its
heuristic counts territory by (``queen_distances``).

A row is the scheduled game's, then each seat's amazons' cells in increasing order (the first
seat's, then the second's; amazons are never taken, so a seat keeps as many as it starts with),
so no step scans the board for them. ``legal`` gives the cells in increasing order (the
amazons that may move and have an empty neighbour; then the empty cells a queen's move from
the amazon picked; then from where it landed, for the arrow), so the playout (``rows.play``
over :func:`step`, ``apply`` then ``legal``) plays the engine loop's game for a seed. The
functions a step runs are inlined (``inline="always"``): called, they made the random playout
about a third slower.
"""

from __future__ import annotations

from collections import namedtuple
from functools import lru_cache

import numpy as np
from numba import njit

from envs.kernels import EMPTY, flat_rays
from envs.schedule.moves import BLOCK, PIECE
from envs.schedule.rows import (
    CELLS,
    MOST,
    MOVES_LEFT,
    OUTCOME,
    PARAMS,
    PARTIAL,
    PLAYING,
    RESTRICTED,
    SCALARS,
    SEAT,
    STEP,
    begin_turn,
    observe_turn,
    record_move,
    register_game,
)
from envs.stones.board import ray_table

QUEEN_STEPS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
UNREACHED = 1 << 16  # ``queen_distances`` of a cell no amazon reaches
PIECES_AT, FIRST_COUNT = PARAMS, PARAMS + 1  # params: where the amazons' lists start, the first seat's count
ARROWS = 2  # the observation's plane of arrows
AmazonsContext = namedtuple("AmazonsContext", ["params", "schedule", "rays", "bounds"])


@lru_cache(maxsize=None)
def tables(n: int) -> tuple[np.ndarray, np.ndarray]:
    """(every cell's eight queen rays one after another, nearest first; where each cell's rays
    start and end, ``(cells, 9)``), the directions ``QUEEN_STEPS``: from the row above to the
    row below, left to right within a row (``reach`` relies on that order)."""
    return flat_rays(ray_table(n, QUEEN_STEPS))


def context(n: int, params: np.ndarray, schedule: np.ndarray, start: np.ndarray) -> AmazonsContext:
    """The context of a game on n x n: ``envs.schedule.rows``' leading ``params``, the schedule's
    move counts and the ``start`` board (how many amazons each seat keeps)."""
    counts = [int((start == piece).sum()) for piece in PIECE]
    at = 2 * n * n + SCALARS + int(params[MOST])  # where the amazons' lists start
    return AmazonsContext(np.array([*params, at, *counts], np.int64), schedule, *tables(n))


def amazon_lists(board: np.ndarray) -> list[int]:
    """A row's own entries (module docstring): each seat's amazons' cells, increasing."""
    return [*np.flatnonzero(board == PIECE[0]).tolist(), *np.flatnonzero(board == PIECE[1]).tolist()]


@njit(cache=True, inline="always")
def legal(context, row, out):
    """The legal actions: the amazons that may start a move, else the cells a
    queen's move from the amazon picked or from where it landed."""
    fields = 2 * context.params[CELLS]
    if row[fields + OUTCOME] != PLAYING:
        return 0
    step = row[fields + STEP]
    if step == 0:
        return _starts(context, row, row[fields + SEAT], out)
    return reach(row, context.rays, context.bounds, row[fields + PARTIAL + step - 1], out)


@njit(cache=True, inline="always")
def apply(context, row, action):
    """Play a legal micro-step: the amazon picked, its destination, or
    the arrow that completes the move and may end the turn (the seat to start a turn with no
    move loses)."""
    cells = context.params[CELLS]
    fields = 2 * cells
    seat, step = row[fields + SEAT], row[fields + STEP]
    if step == 0:
        row[fields + PARTIAL], row[fields + STEP] = action, 1
    elif step == 1:
        origin = row[fields + PARTIAL]
        row[origin], row[action], row[cells + origin] = EMPTY, PIECE[seat], 0
        _move_amazon(context, row, seat, origin, action)
        row[fields + PARTIAL + 1], row[fields + STEP] = action, 2
    elif _arrow(context, row, action) and _has_start(context, row, seat):
        return
    else:
        _pass_turn(context, row, seat)
        if not _has_start(context, row, 1 - seat):
            row[fields + OUTCOME] = 1 + seat  # the mover wins (``envs.kernels.OUTCOME_RETURNS``)


@njit(cache=True, inline="always")
def step(context, row, action, out):
    """``apply``, then the legal cells after it into ``out``; their count (``rows.step``). After
    an arrow the amazons that may start the next move are listed once, for the turn's end and
    for ``out``."""
    fields = 2 * context.params[CELLS]
    if row[fields + STEP] != 2:
        apply(context, row, action)
        return legal(context, row, out)
    seat = row[fields + SEAT]
    if _arrow(context, row, action):
        count = _starts(context, row, seat, out)
        if count:
            return count
    _pass_turn(context, row, seat)
    count = _starts(context, row, 1 - seat, out)
    if count == 0:
        row[fields + OUTCOME] = 1 + seat
    return count


@njit(cache=True, inline="always")
def _arrow(context, row, action):
    """The arrow on ``action`` that completes the move; whether the turn has moves left."""
    fields = 2 * context.params[CELLS]
    row[action] = BLOCK
    record_move(context, row, row[fields + PARTIAL + 1])  # Amazons has no move limit
    return row[fields + MOVES_LEFT] > 0


@njit(cache=True, inline="always")
def _pass_turn(context, row, seat):
    """The other seat's turn after ``seat``'s (the caller judges whether it has a move)."""
    begin_turn(context, row)  # never two passed turns: every turn moves
    _mark_origins(context, row, seat)


@njit(cache=True)
def observe(context, row, out):
    """The observation: ``rows.observe_turn`` and the arrows."""
    observe_turn(context, row, out)
    cells = context.params[CELLS]
    flat = out.reshape(out.shape[0], cells)
    for cell in range(cells):
        if row[cell] == BLOCK:
            flat[ARROWS, cell] = 1.0


@njit(cache=True, inline="always")
def _starts(context, row, seat, out):
    """Write the cells of ``seat``'s amazons that may start a move into ``out`` in increasing
    order (``_may_start``); return how many."""
    params = context.params
    first = params[PIECES_AT] + seat * params[FIRST_COUNT]
    found = 0
    for k in range(first, first + params[FIRST_COUNT + seat]):
        if _may_start(context, row, row[k]):
            out[found] = row[k]
            found += 1
    return found


@njit(cache=True, inline="always")
def _has_start(context, row, seat):
    """Whether one of ``seat``'s amazons may start a move (``_starts`` without the list)."""
    params = context.params
    first = params[PIECES_AT] + seat * params[FIRST_COUNT]
    for k in range(first, first + params[FIRST_COUNT + seat]):
        if _may_start(context, row, row[k]):
            return True
    return False


@njit(cache=True, inline="always")
def _may_start(context, row, cell):
    """Whether the amazon on ``cell`` may start a move: an origin where the turn's restriction
    holds, with an empty neighbour."""
    params, rays, bounds = context.params, context.rays, context.bounds
    if params[RESTRICTED] and row[params[CELLS] + cell] == 0:
        return False
    for d in range(8):
        if bounds[cell, d + 1] > bounds[cell, d] and row[rays[bounds[cell, d]]] == EMPTY:
            return True
    return False


@njit(cache=True, inline="always")
def _mark_origins(context, row, seat):
    """The origins of the turn ``begin_turn`` began, from the lists: the new mover's amazons,
    none of ``seat``'s (the mover before)."""
    params = context.params
    cells = params[CELLS]
    for side in range(2):
        first = params[PIECES_AT] + side * params[FIRST_COUNT]
        for k in range(first, first + params[FIRST_COUNT + side]):
            row[cells + row[k]] = 1 if side != seat else 0
    # nothing else is flagged: only amazons' cells ever are, and a cell an amazon leaves is cleared


@njit(cache=True, inline="always")
def _move_amazon(context, row, seat, origin, destination):
    """``seat``'s list of amazons with ``origin`` now ``destination``, kept in increasing order."""
    params = context.params
    first = params[PIECES_AT] + seat * params[FIRST_COUNT]
    last = first + params[FIRST_COUNT + seat] - 1
    k = first
    while row[k] != origin:
        k += 1
    row[k] = destination
    while k > first and row[k - 1] > row[k]:
        row[k - 1], row[k] = row[k], row[k - 1]
        k -= 1
    while k < last and row[k + 1] < row[k]:
        row[k + 1], row[k] = row[k], row[k + 1]
        k += 1


@njit(cache=True, inline="always")
def reach(board, rays, bounds, cell, out):
    """Write the empty cells a queen on ``cell`` reaches into ``out`` in increasing order;
    return how many. The directions go up-left, up, up-right, left,
    right, down-left, down, down-right, so the row ``d`` above holds the ``d``-th cell of the
    first three rays and the row ``d`` below that of the last three: farthest row above first,
    the left ray backwards, the right ray forwards, then the rows below nearest first."""
    length = (
        _run(board, rays, bounds, cell, 0),
        _run(board, rays, bounds, cell, 1),
        _run(board, rays, bounds, cell, 2),
        _run(board, rays, bounds, cell, 3),
        _run(board, rays, bounds, cell, 4),
        _run(board, rays, bounds, cell, 5),
        _run(board, rays, bounds, cell, 6),
        _run(board, rays, bounds, cell, 7),
    )  # a tuple, not an array: no allocation per call
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


@njit(cache=True, inline="always")
def _run(board, rays, bounds, cell, d):
    """How many empty cells ray ``d`` of ``cell`` crosses before its first occupied one."""
    start, stop = bounds[cell, d], bounds[cell, d + 1]
    k = start
    while k < stop and board[rays[k]] == EMPTY:
        k += 1
    return k - start


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


register_game(AmazonsContext, legal=legal, apply=apply, step=step, observe=observe)
