"""Send It's rules in numba over ``envs.schedule.rows``' flat row: the ``envs.compiled``
functions (the engine of ``envs.games.send_it.game.SendIt``, the compiled search, the batched
env), the random playout built on them, and the drops, captures and area that
``SendItRules`` words its errors and scores with.

The legal actions, in order: the drops in increasing cell order, then
PASS. Each position labels the groups once (their stones, their liberties, whether a drop of
this turn is in one), and a drop on an empty cell in sight is then legal by its neighbours
alone: it keeps a liberty when it touches an empty cell, a friendly group with another
liberty, or a rival group it captures (one whose last liberty it fills); with the group
rule, no friendly group it joins holds a drop of this turn. The context
(:class:`SendItContext`) holds ``params`` (``envs.schedule.rows``' leading ones), the schedule's move
counts, the neighbours and rays of :func:`tables` and scratch room (:func:`context`).
"""

from __future__ import annotations

from collections import namedtuple
from functools import lru_cache

import numpy as np
from numba import njit

from envs.kernels import EMPTY, flat_rays
from envs.schedule import rows
from envs.schedule.rows import CELLS, MOVES_LEFT, OUTCOME, PLACED, PLACED_COUNT, RESTRICTED, SEAT
from envs.stones.board import neighbour_table, padded, ray_table

STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))

SendItContext = namedtuple(
    "SendItContext",
    ["params", "schedule", "neighbours", "rays", "bounds", "work", "holds_drop", "dropped", "seen", "scratch"],
)


@lru_cache(maxsize=None)
def tables(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the orthogonal neighbours of every cell, ``(cells, 4)`` padded with -1, in the order of
    ``STEPS``; every cell's four rays one after another, nearest first; where each cell's rays
    start and end, ``(cells, 5)``)."""
    return (padded(neighbour_table(n, STEPS), 4), *flat_rays(ray_table(n, STEPS)))


def context(n: int, params: np.ndarray, schedule: np.ndarray) -> SendItContext:
    """The context of an n x n board: ``envs.schedule.rows``' leading ``params`` and the schedule's
    move counts."""
    cells = n * n
    return SendItContext(
        params,
        schedule,
        *tables(n),
        np.empty((4, cells), np.int64),
        np.empty(cells, np.uint8),
        np.zeros(cells, np.uint8),
        np.zeros(cells, np.uint8),
        np.empty(cells + 1, np.int64),
    )


@njit(cache=True)
def drops(board, neighbours, rays, bounds, piece, restricted, dropped, out, work, holds_drop):
    """Write the cells ``piece`` may drop on, in order, into ``out``; return their count.
    ``restricted``: none may join a group holding a cell of ``dropped`` (1 on this turn's
    drops); ``work``: four int64 arrays of a cell each, ``holds_drop`` uint8 (scratch)."""
    label, liberties, marked, stack = work
    _label(board, neighbours, dropped, label, liberties, marked, stack, holds_drop)
    count = 0
    for cell in range(len(board)):
        if board[cell] != EMPTY or not in_sight(board, rays, bounds, cell, piece):
            continue
        free = joins_drop = False
        for k in range(neighbours.shape[1]):
            other = neighbours[cell, k]
            if other < 0:
                break
            v = board[other]
            if v == EMPTY:
                free = True
            elif v == piece:
                g = label[other]
                free |= liberties[g] >= 2  # a liberty besides this cell
                joins_drop |= holds_drop[g] == 1
            elif liberties[label[other]] == 1:
                free = True  # its last liberty is this cell: it is captured
        if free and not (restricted and joins_drop):
            out[count] = cell
            count += 1
    return count


@njit(cache=True)
def _label(board, neighbours, dropped, label, liberties, marked, stack, holds_drop):
    """Number the groups of stones (``label`` per stone), count each one's liberties and mark
    those that hold a cell of ``dropped``; return how many there are."""
    cells = len(board)
    for i in range(cells):
        label[i] = -1
        marked[i] = -1
    groups = 0
    for start in range(cells):
        colour = board[start]
        if colour == EMPTY or label[start] >= 0:
            continue
        label[start], stack[0], top = groups, start, 1
        libs, has_drop = 0, dropped[start]
        while top:
            top -= 1
            cell = stack[top]
            for k in range(neighbours.shape[1]):
                other = neighbours[cell, k]
                if other < 0:
                    break
                v = board[other]
                if v == EMPTY:
                    if marked[other] != groups:
                        marked[other] = groups
                        libs += 1
                elif v == colour and label[other] < 0:
                    label[other] = groups
                    has_drop |= dropped[other]
                    stack[top] = other
                    top += 1
        liberties[groups], holds_drop[groups] = libs, has_drop
        groups += 1
    return groups


@njit(cache=True)
def in_sight(board, rays, bounds, cell, piece):
    """Whether the empty ``cell`` sees a ``piece`` stone along its row or column."""
    for k in range(4):
        for i in range(bounds[cell, k], bounds[cell, k + 1]):
            v = board[rays[i]]
            if v != EMPTY:
                if v == piece:
                    return True
                break
    return False


@njit(cache=True)
def region(board, neighbours, start, stack, seen):
    """``(size, touches)``: the cells holding ``start``'s value joined to it (a group of stones,
    an empty region) into ``stack[:size]``, marked in ``seen``, and the values next to them
    as bits (``1 << value``: bit 0 a liberty, bits 1 and 2 the sides' stones)."""
    value = board[start]
    stack[0], seen[start], size, top, touches = start, 1, 1, 0, 0
    while top < size:
        at = stack[top]
        top += 1
        for k in range(neighbours.shape[1]):
            other = neighbours[at, k]
            if other < 0:
                break
            v = board[other]
            if v != value:
                touches |= 1 << v
            elif not seen[other]:
                seen[other] = 1
                stack[size] = other
                size += 1
    return size, touches


@njit(cache=True)
def group(board, neighbours, cell, stack, seen):
    """``(size, free)``: the group of the stone on ``cell``, its cells into ``stack[:size]``,
    and whether it has a liberty. ``seen`` (uint8, a cell each) is all zeros before and after."""
    size, touches = region(board, neighbours, cell, stack, seen)
    for i in range(size):
        seen[stack[i]] = 0
    return size, touches & 1 != 0


@njit(cache=True)
def drop(board, neighbours, cell, piece, stack, seen):
    """Put ``piece`` on ``cell`` and take the rival groups next to it left without a liberty."""
    board[cell] = piece
    for k in range(neighbours.shape[1]):
        other = neighbours[cell, k]
        if other < 0:
            break
        if board[other] == 3 - piece:
            size, free = group(board, neighbours, other, stack, seen)
            if not free:
                for i in range(size):
                    board[stack[i]] = EMPTY


@njit(cache=True)
def area(board, neighbours, stack, seen):
    """``(first, second)``: each side's Chinese area, its stones plus the empty regions that
    touch only its stones. ``seen`` (uint8, a cell each) is all zeros before and after."""
    first = second = 0
    for start in range(board.shape[0]):
        v = board[start]
        first += v == 1
        second += v == 2
        if v == EMPTY and not seen[start]:
            size, touches = region(board, neighbours, start, stack, seen)
            if touches == 1 << 1:
                first += size
            elif touches == 1 << 2:
                second += size
    for i in range(board.shape[0]):
        seen[i] = 0
    return first, second


@njit(cache=True)
def _area_outcome(context, row):
    """The winning piece by area (0: equal areas)."""
    first, second = area(row[: context.params[CELLS]], context.neighbours, context.work[3], context.seen)
    return 1 if first > second else 2 if second > first else 0


@njit(cache=True)
def _options(context, row, out):
    """The drops of the mover into ``out``, then PASS; their count."""
    params = context.params
    cells = params[CELLS]
    meta, dropped = row[2 * cells :], context.dropped
    dropped[:] = 0
    for k in range(meta[PLACED_COUNT]):
        dropped[meta[PLACED + k]] = 1
    board = row[:cells]
    restricted = params[RESTRICTED] != 0
    piece = 1 + meta[SEAT]
    work = (context.work[0], context.work[1], context.work[2], context.work[3])
    count = drops(
        board,
        context.neighbours,
        context.rays,
        context.bounds,
        piece,
        restricted,
        dropped,
        out,
        work,
        context.holds_drop,
    )
    out[count] = cells
    return count + 1


@njit(cache=True)
def legal(context, row, out):
    """The legal actions: the drops, then PASS."""
    return 0 if rows.is_over(context, row) else _options(context, row, out)


@njit(cache=True)
def _end_turn(context, row, out):
    if not rows.begin_turn(context, row):  # both sides passed: area decides
        row[2 * context.params[CELLS] + OUTCOME] = _area_outcome(context, row)
        return 0
    rows.mark_origins(context, row)
    return _options(context, row, out)  # PASS is always legal: never stuck


@njit(cache=True)
def step(context, row, action, out):
    """Play the legal ``action``; the legal actions after it into
    ``out``, their count (0 at the end)."""
    cells = context.params[CELLS]
    meta = row[2 * cells :]
    if action == cells:  # PASS
        return _end_turn(context, row, out)
    drop(row[:cells], context.neighbours, action, 1 + meta[SEAT], context.work[3], context.seen)
    if rows.record_move(context, row, action):
        meta[OUTCOME] = _area_outcome(context, row)  # the move limit: scored by area
        return 0
    if meta[MOVES_LEFT] > 0:
        count = _options(context, row, out)
        if count > 1:
            return count
    return _end_turn(context, row, out)


@njit(cache=True)
def apply(context, row, action):
    """Play the legal ``action``: a drop with its captures, or PASS, ending the turn (and the
    game after two passed turns in a row, or at the move limit: area decides)."""
    step(context, row, action, context.scratch)


@njit(cache=True)
def observe(context, row, out):
    """The observation (``rows.observe_turn``; Send It adds no planes of its own)."""
    rows.observe_turn(context, row, out)


rows.register_game(SendItContext, legal=legal, apply=apply, step=step, observe=observe)
