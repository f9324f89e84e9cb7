"""Odoku's rules in numba over one flat row (``envs.compiled``'s protocol), the coin a chance
node before every move; ``envs.kit.RowGame`` makes them the engine (``game.py``).

Cells (index = (row - 1) * 5 + column), row 5 is north::

    5 | 20 21 22 23 24
    4 | 15 16 17 18 19
    3 | 10 11 12 13 14
    2 |  5  6  7  8  9
    1 |  0  1  2  3  4
         a  b  c  d  e

Every cell lies in exactly three of the 15 groups: its row, its column and one of the five
regions (the cross and four pinwheel corners). A row (int32) holds the board (25 cells: 0 empty,
1 blue, 2 white), the blue then the white stones of each group (``COUNTS``), then ``PLAYER`` (a
seat, CHANCE or TERMINAL) and ``MOVES`` (placements made). The context is an
:class:`OdokuContext`: ``bias`` (float64 ``[1]``, the probability that the coin picks B).
``fill_playout`` is the random playout.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from envs.compiled import register
from envs.core import CHANCE, TERMINAL
from envs.kernels import draw

SIZE = 5
NUM_CELLS = SIZE * SIZE
EMPTY, BLUE, WHITE = 0, 1, 2


def cell_index(name: str) -> int:
    """``"b3"`` -> 11."""
    return (int(name[1:]) - 1) * SIZE + "abcde".index(name[0])


REGIONS = {
    "cross": "c3 b3 d3 c2 c4",
    "NE": "d4 d5 e4 e5 c5",
    "SE": "d1 d2 e1 e2 e3",
    "SW": "a1 a2 b1 b2 c1",
    "NW": "a4 a5 b4 b5 a3",
}
GROUP_CELLS: tuple[tuple[int, ...], ...] = (
    tuple(tuple(r * SIZE + c for c in range(SIZE)) for r in range(SIZE))
    + tuple(tuple(r * SIZE + c for r in range(SIZE)) for c in range(SIZE))
    + tuple(tuple(cell_index(n) for n in cells.split()) for cells in REGIONS.values())
)
GROUPS = len(GROUP_CELLS)
CELL_GROUPS: tuple[tuple[int, ...], ...] = tuple(
    tuple(g for g, cells in enumerate(GROUP_CELLS) if cell in cells) for cell in range(NUM_CELLS)
)
_CELL_GROUPS = np.array(CELL_GROUPS, np.int64)  # [cell] -> (row, column, region) groups

COUNTS = NUM_CELLS  # the blue counts, then the white ones
PLAYER = COUNTS + 2 * GROUPS
MOVES = PLAYER + 1
WIDTH = MOVES + 1
MAX_LEGAL = 2 * NUM_CELLS
MAX_CHANCE = 2
OdokuContext = namedtuple("OdokuContext", ["bias"])


def context(bias: float) -> OdokuContext:
    return OdokuContext(np.array([bias]))


def start_row() -> np.ndarray:
    """The empty board, the coin to flip."""
    row = np.zeros(WIDTH, np.int32)
    row[PLAYER] = CHANCE
    return row


@njit(cache=True)
def legal(context, row, out):
    """Both colours on every empty cell, none at a chance node."""
    if row[PLAYER] < 0:
        return 0
    count = 0
    for cell in range(NUM_CELLS):
        if row[cell] == EMPTY:
            out[count], out[count + 1] = 2 * cell, 2 * cell + 1
            count += 2
    return count


@njit(cache=True)
def apply(context, row, action):
    """A placement; at a chance node the coin's outcome is the seat to move."""
    if row[PLAYER] == CHANCE:
        row[PLAYER] = action
        return
    cell, colour = action >> 1, action & 1
    row[cell] = BLUE if colour == 0 else WHITE
    for g in _CELL_GROUPS[cell]:
        row[COUNTS + colour * GROUPS + g] += 1
    row[MOVES] += 1
    row[PLAYER] = TERMINAL if row[MOVES] == NUM_CELLS else CHANCE


@njit(cache=True)
def to_play(context, row):
    return row[PLAYER]


@njit(cache=True)
def chance(context, row, outcomes, probs):
    """B moves (0) with probability ``bias``, else A (1)."""
    if row[PLAYER] != CHANCE:
        return 0
    outcomes[0], outcomes[1] = 0, 1
    probs[0], probs[1] = context.bias[0], 1.0 - context.bias[0]
    return 2


@njit(cache=True)
def b_return(counts):
    """B's return of a full board: (balanced groups - 7.5) / 7.5; ``counts``: the row's."""
    score = 0
    for g in range(GROUPS):
        score += counts[g] + counts[GROUPS + g] == SIZE and 2 <= counts[g] <= 3
    return (score - 7.5) / 7.5


@njit(cache=True)
def returns(context, row, out):
    out[0] = out[1] = 0.0
    if row[PLAYER] == TERMINAL:
        out[0] = b_return(row[COUNTS:PLAYER])
        out[1] = -out[0]


@njit(cache=True)
def fill_playout(board, blue, seed):
    """B's return of a random playout: under uniformly random play
    every empty cell ends with an independent fair-coin colour, whoever the coins pick to place
    it, so the final board is drawn directly, a colour per empty cell in cell order from the
    ``draw`` stream at ``seed`` (0: blue). ``blue``: the blue stones per group."""
    final = np.empty(GROUPS, np.int64)
    final[:] = blue[:GROUPS]
    for cell in range(NUM_CELLS):
        if board[cell] == EMPTY:
            colour, seed = draw(seed, 2)
            if colour == 0:
                for g in _CELL_GROUPS[cell]:
                    final[g] += 1
    score = 0
    for g in range(GROUPS):
        score += 2 <= final[g] <= 3
    return (score - 7.5) / 7.5


@njit(cache=True)
def playout(context, row, seed, out):
    """The returns of :func:`fill_playout`."""
    if row[PLAYER] == TERMINAL:
        returns(context, row, out)
        return
    out[0] = fill_playout(row[:COUNTS], row[COUNTS:PLAYER], seed)
    out[1] = -out[0]


@njit(cache=True)
def observe(context, row, out):
    """The network's planes into ``out`` ``[11, 5, 5]`` (``Odoku``'s docstring): the cell's colour or emptiness, the seat to
    move, and per cell its three groups' blue and white counts (over ``SIZE``)."""
    flat = out.reshape(11, NUM_CELLS)
    flat[:] = 0.0
    for cell in range(NUM_CELLS):
        v = row[cell]
        flat[0 if v == BLUE else 1 if v == WHITE else 2, cell] = 1.0
        for k in range(3):
            g = _CELL_GROUPS[cell, k]
            flat[5 + 2 * k, cell] = row[COUNTS + g] / SIZE
            flat[6 + 2 * k, cell] = row[COUNTS + GROUPS + g] / SIZE
    if row[PLAYER] >= 0:
        flat[3 + row[PLAYER], :] = 1.0


register(
    OdokuContext,
    legal=legal,
    apply=apply,
    to_play=to_play,
    returns=returns,
    playout=playout,
    observe=observe,
    chance=chance,
)
