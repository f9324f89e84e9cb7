"""Hexxagon's rules in numba over ``envs.schedule.rows``' flat row: the ``envs.compiled``
functions (the engine of ``envs.games.hexxagon.game.Hexxagon``, the compiled search, the
batched env) and the random playout built on them.

The legal micro-steps, in order: with no stone picked, the clones
(empty cells next to a stone of the mover's that may move) and the stones that can jump
(with an empty cell two away), in increasing cell order; after a stone is picked, the empty
cells two away from it in increasing order. A move turns the rival stones next to the cell
it moved to. The context (:class:`HexxagonContext`) holds ``params`` (``envs.schedule.rows``'
leading ones), the schedule's move counts, the neighbour tables of ``envs.stones.hexagon.tables``
(sorted, padded with -1) and scratch room for the next position's legal cells (:func:`context`).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from envs.kernels import EMPTY
from envs.schedule import rows
from envs.schedule.rows import CELLS, MOVES_LEFT, OUTCOME, PARTIAL, RESTRICTED, SEAT, STEP
from envs.stones.flanking import count_winner
from envs.stones.hexagon import tables

HexxagonContext = namedtuple("HexxagonContext", ["params", "schedule", "adjacent", "two_away", "scratch"])


def context(side: int, params: np.ndarray, schedule: np.ndarray) -> HexxagonContext:
    """The context of a hexagon of ``side``: ``envs.schedule.rows``' leading ``params`` and the
    schedule's move counts."""
    adjacent, two_away = tables(side)
    return HexxagonContext(params, schedule, adjacent, two_away, np.empty(int(params[CELLS]), np.int64))


@njit(cache=True, inline="always")
def starts(board, cells, may_move, offset, restricted, adjacent, two_away, piece, out):
    """The cells that start a move of ``piece`` (no stone picked), in order, into ``out``: the empty cells next to a stone that may move
    (``may_move[offset + cell]`` 1, read only when ``restricted``), and such stones with an
    empty cell two away. Their count. ``board``'s first ``cells`` entries are the board."""
    count = 0
    for cell in range(cells):
        v = board[cell]
        if v == EMPTY:
            for k in range(adjacent.shape[1]):
                other = adjacent[cell, k]
                if other >= 0 and board[other] == piece and (not restricted or may_move[offset + other]):
                    out[count] = cell
                    count += 1
                    break
        elif v == piece and (not restricted or may_move[offset + cell]):
            for k in range(two_away.shape[1]):
                other = two_away[cell, k]
                if other >= 0 and board[other] == EMPTY:
                    out[count] = cell
                    count += 1
                    break
    return count


@njit(cache=True, inline="always")
def landings(board, two_away, picked, out):
    """The empty cells two away from the picked stone, in order, into ``out``; their count."""
    count = 0
    for k in range(two_away.shape[1]):
        other = two_away[picked, k]
        if other >= 0 and board[other] == EMPTY:
            out[count] = other
            count += 1
    return count


@njit(cache=True, inline="always")
def move_to(board, adjacent, piece, source, cell):
    """A move of ``piece`` to ``cell`` (a jump from ``source``; -1: a clone) with its captures."""
    if source >= 0:
        board[source] = EMPTY
    board[cell] = piece
    for k in range(adjacent.shape[1]):
        other = adjacent[cell, k]
        if other >= 0 and board[other] == 3 - piece:
            board[other] = piece


@njit(cache=True, inline="always")
def _options(context, row, out):
    params = context.params
    cells = params[CELLS]
    picked, piece = row[2 * cells + PARTIAL], 1 + row[2 * cells + SEAT]  # -1: none picked
    if picked >= 0:
        return landings(row, context.two_away, picked, out)
    return starts(row, cells, row, cells, params[RESTRICTED] != 0, context.adjacent, context.two_away, piece, out)


@njit(cache=True)
def stuck_outcome(board, seat):
    """The outcome, the winning piece (0: a draw), when ``seat`` cannot move at the start of its
    turn: the empty cells go to the other side, and more stones win."""
    first = second = 0
    for v in board:
        first += v == 1 or (v == EMPTY and seat == 1)
        second += v == 2 or (v == EMPTY and seat == 0)
    return 1 if first > second else 2 if second > first else 0


@njit(cache=True)
def legal(context, row, out):
    """The legal micro-steps (module docstring) into ``out``; their count."""
    return 0 if rows.is_over(context, row) else _options(context, row, out)


@njit(cache=True, inline="always")
def step(context, row, action, out):
    """Play the legal micro-step ``action``; the legal cells after it
    into ``out``, their count (0 at the end)."""
    cells = context.params[CELLS]
    base = 2 * cells
    piece, picked = 1 + row[base + SEAT], row[base + PARTIAL]
    if picked < 0 and row[action] == piece:
        row[base + PARTIAL], row[base + STEP] = action, 1  # a jump starts
        return landings(row, context.two_away, action, out)
    if picked >= 0:
        row[cells + picked] = 0  # the stone that jumped leaves the origins
    move_to(row, context.adjacent, piece, picked, action)
    if rows.record_move(context, row, action):
        row[base + OUTCOME] = count_winner(row[:cells])  # the move limit: scored by the stones on the board
        return 0
    if row[base + MOVES_LEFT] > 0:
        count = _options(context, row, out)
        if count:
            return count
    rows.begin_turn(context, row)  # Hexxagon never passes: a turn always placed a stone
    rows.mark_origins(context, row)
    count = _options(context, row, out)
    if count == 0:
        row[base + OUTCOME] = stuck_outcome(row[:cells], row[base + SEAT])
    return count


@njit(cache=True)
def apply(context, row, action):
    """Play the legal micro-step ``action``: a jump's stone picked, or a move with its captures
    that may end the turn or the game."""
    step(context, row, action, context.scratch)


@njit(cache=True)
def observe(context, row, out):
    """The observation (``rows.observe_turn``), the board's cells (plane 2) Hexxagon's own plane."""
    rows.observe_turn(context, row, out)
    cells = context.params[CELLS]
    flat = out.reshape(out.shape[0], cells)
    for i in range(cells):
        flat[2, i] = row[i] >= 0


rows.register_game(HexxagonContext, legal=legal, apply=apply, step=step, observe=observe)
