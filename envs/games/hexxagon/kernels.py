"""Hexxagon's rules in numba over ``envs.schedule.rows``' flat row: the ``envs.compiled``
functions the search driver calls, the random playout built on them and the
move generation the Python engine asks (``HexxagonRules.options``).

The legal micro-steps are the engine's, in its order: with no stone picked, the clones
(empty cells next to a stone of the mover's that may move) and the stones that can jump
(with an empty cell two away), in increasing cell order; after a stone is picked, the empty
cells two away from it in increasing order. A move turns the rival stones next to the cell
it moved to. The context (:class:`HexxagonContext`) holds ``params`` (``envs.schedule.rows``'
leading ones), the schedule's move counts, the neighbour tables of ``envs.stones.hexagon.tables``
(sorted, padded with -1) and scratch room for the next position's legal cells.

The random playout (``Hexxagon.random_playout``, ``cut_playout``) is ``envs.schedule.rows.play``
over :func:`step`, which applies a micro-step and leaves the next position's legal cells behind, so
the playout finds each decision's legal cells once: one ``envs.kernels.draw`` per decision over
them, the game the engine loop plays for the same seed (``Game.engine_playout``).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from envs.kernels import EMPTY
from envs.schedule import rows
from envs.schedule.rows import CELLS, MOVES_LEFT, OUTCOME, PARTIAL, RESTRICTED, SEAT, STEP, ScheduledRows
from envs.stones.flanking import count_winner
from envs.stones.hexagon import tables

HexxagonContext = namedtuple("HexxagonContext", ["params", "schedule", "adjacent", "two_away", "scratch"])


@njit(cache=True, inline="always")
def starts(board, cells, may_move, offset, restricted, adjacent, two_away, piece, out):
    """The cells that start a move of ``piece`` (``HexxagonRules.options`` with no stone
    picked), in order, into ``out``: the empty cells next to a stone that may move
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
    """``HexxagonRules.stuck_returns`` as the winning piece (0: a draw): ``seat`` cannot move,
    the empty cells go to the other side."""
    first = second = 0
    for v in board:
        first += v == 1 or (v == EMPTY and seat == 1)
        second += v == 2 or (v == EMPTY and seat == 0)
    return 1 if first > second else 2 if second > first else 0


@njit(cache=True)
def legal(context, row, out):
    """``ScheduledGame.legal_actions``."""
    return 0 if rows.is_over(context, row) else _options(context, row, out)


@njit(cache=True, inline="always")
def step(context, row, action, out):
    """``ScheduledGame.apply`` of the legal micro-step ``action``; the legal cells after it
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
    """``ScheduledGame.apply`` of the legal micro-step ``action``."""
    step(context, row, action, context.scratch)


@njit(cache=True)
def play_from(params, schedule, adjacent, two_away, scratch, row, seed, cut, cut_board):
    """``envs.schedule.rows.play`` given the context's arrays one by one: a quicker call from Python."""
    context = HexxagonContext(params, schedule, adjacent, two_away, scratch)
    return rows.play(context, row, seed, cut, cut_board)


@njit(cache=True)
def observe(context, row, out):
    """``ScheduledGame.observe``, the board's cells (plane 2) Hexxagon's own plane."""
    rows.observe_turn(context, row, out)
    cells = context.params[CELLS]
    flat = out.reshape(out.shape[0], cells)
    for i in range(cells):
        flat[2, i] = row[i] >= 0


class HexxagonRows(ScheduledRows):
    """The ``CompiledGame`` of a Hexxagon game's rules, schedule and restriction."""

    def __init__(self, rules, schedule, restricted: bool):
        super().__init__(rules, schedule, restricted, max_legal=rules.num_cells)  # starts, or landings
        params = np.array(self.leading_params, np.int64)
        adjacent, two_away = tables(rules.side)
        self.context = HexxagonContext(params, self.schedule, adjacent, two_away, np.empty(self.cells, np.int64))

    play_from = staticmethod(play_from)


rows.register_game(HexxagonContext, legal=legal, apply=apply, step=step, observe=observe)
