"""Connect Four's rules, written once, in numba over one flat int32 row: the state of
``ConnectFour`` (``game.py``) and the rows of ``envs.compiled``, so the engine, the random
playouts, the compiled search and the batched env play this code (docs/games/connect_four.md).

Cells, index ``r * columns + c`` with row 0 at the top (as the observation's planes)::

    6 |  0  1  2  3  4  5  6
    5 |  7  8  9 10 11 12 13
      ...
    1 | 35 36 37 38 39 40 41
         a  b  c  d  e  f  g

A row: the cells (``EMPTY``, or the seat + 1 whose disc is there), then ``PLAYER`` (the seat
to move, or ``envs.core.TERMINAL``), ``WINNER`` (0 none, 1 or 2 the seat + 1), ``MOVES`` (discs
dropped), then each column's ``HEIGHT`` (its discs). An action is the cell where the disc comes to
rest: the lowest empty cell of a column, so each column offers one action while it has room.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from envs.compiled import register
from envs.core import TERMINAL
from envs.row_playout import random_play
from envs.stones.goals import line_through

EMPTY = 0  # an empty cell; a disc is its seat + 1
LINE = 4  # discs in a row that win
PLAYER, WINNER, MOVES, HEIGHT = range(4)  # after the cells; HEIGHT: the first of one entry a column
NUM_PLANES = 3  # the mover's discs, the opponent's, the mover moved first

ConnectFourContext = namedtuple("ConnectFourContext", "columns rows")


def start_row(context: ConnectFourContext) -> np.ndarray:
    """The empty board, seat 0 to move: the cells, the scalars, each column's height."""
    return np.zeros(context.columns * context.rows + HEIGHT + context.columns, np.int32)


@njit(cache=True)
def landing(context, row, column):
    """The cell where a disc dropped in ``column`` comes to rest (-1: the column is full)."""
    height = row[context.columns * context.rows + HEIGHT + column]
    return -1 if height == context.rows else (context.rows - 1 - height) * context.columns + column


@njit(cache=True)
def legal(context, row, out):
    """Each column's landing cell while the game goes on, in increasing order."""
    cells = context.columns * context.rows
    if row[cells + PLAYER] == TERMINAL:
        return 0
    count = 0
    for column in range(context.columns):
        cell = landing(context, row, column)
        if cell >= 0:
            k = count  # insertion: a landing cell may lie above (before) one of an earlier column
            while k > 0 and out[k - 1] > cell:
                out[k] = out[k - 1]
                k -= 1
            out[k] = cell
            count += 1
    return count


@njit(cache=True)
def apply(context, row, action):
    """Drop the mover's disc at the legal cell ``action``; four in a row wins, a full board draws."""
    columns, rows = context.columns, context.rows
    cells = columns * rows
    player = row[cells + PLAYER]
    row[action] = player + 1
    row[cells + HEIGHT + action % columns] += 1
    row[cells + MOVES] += 1
    if line_through(row, columns, rows, action, player + 1, LINE):
        row[cells + WINNER], row[cells + PLAYER] = player + 1, TERMINAL
    elif row[cells + MOVES] == cells:
        row[cells + PLAYER] = TERMINAL
    else:
        row[cells + PLAYER] = 1 - player


@njit(cache=True)
def to_play(context, row):
    return row[context.columns * context.rows + PLAYER]


@njit(cache=True)
def returns(context, row, out):
    """+1 / -1 once a seat has four in a row; zeros for a draw and before the end."""
    winner = row[context.columns * context.rows + WINNER]
    out[:] = 0.0
    if winner:
        out[winner - 1], out[2 - winner] = 1.0, -1.0


@njit(cache=True)
def playout(context, row, seed, out):
    """The returns of ``envs.row_playout.random_play`` from ``row`` (left untouched) to the end."""
    row = row.copy()
    random_play(context, row, seed, -1, np.empty(context.columns, np.int64))
    returns(context, row, out)


@njit(cache=True)
def observe(context, row, out):
    """Planes ``[3, rows, columns]`` from the mover's view: 0 the mover's discs, 1 the
    opponent's, 2 ones where the mover dropped first (the seat to move by the discs' count,
    so a finished game reads as if play went on)."""
    cells = context.columns * context.rows
    mover = row[cells + MOVES] % 2
    flat = out.reshape(NUM_PLANES, cells)
    for cell in range(cells):
        disc = row[cell]
        flat[0, cell] = disc == mover + 1
        flat[1, cell] = disc == 2 - mover
        flat[2, cell] = mover == 0


register(
    ConnectFourContext, legal=legal, apply=apply, to_play=to_play, returns=returns, playout=playout, observe=observe
)
