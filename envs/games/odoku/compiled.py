"""Odoku as an ``envs.compiled.CompiledGame``: its rules in numba over one flat row, the coin a
chance node before every move.

A row (int32) holds the board (25 cells: 0 empty, 1 blue, 2 white), the blue then the white
stones of each of the 15 groups (``COUNTS``), then ``PLAYER`` (a seat, CHANCE or TERMINAL) and
``MOVES`` (placements made). The context is an :class:`OdokuContext`: ``bias`` (float64 ``[1]``,
the probability that the coin picks B). ``fill_playout`` is also the engine's random playout.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from envs.compiled import CompiledGame, register
from envs.core import CHANCE, TERMINAL
from envs.games.odoku.game import CELL_GROUPS, NUM_CELLS, SIZE, OdokuState
from envs.kernels import draw

EMPTY, BLUE, WHITE = 0, 1, 2
GROUPS = 15
COUNTS = NUM_CELLS  # the blue counts, then the white ones
PLAYER = COUNTS + 2 * GROUPS
MOVES = PLAYER + 1
OdokuContext = namedtuple("OdokuContext", ["bias"])
_CELL_GROUPS = np.array(CELL_GROUPS, np.int64)  # [cell] -> (row, column, region) groups


class OdokuRows(CompiledGame):
    """The ``CompiledGame`` of an ``Odoku`` (module docstring)."""

    width = MOVES + 1
    max_legal = 2 * NUM_CELLS
    max_chance = 2

    def __init__(self, game):
        self.context = OdokuContext(np.array([game.bias]))

    def encode(self, state: OdokuState) -> np.ndarray:
        row = np.zeros(self.width, np.int32)
        row[:COUNTS] = state.board
        row[COUNTS:PLAYER] = state.blue + state.white
        row[PLAYER], row[MOVES] = state.player, state.moves
        return row

    def decode(self, row: np.ndarray) -> OdokuState:
        state = OdokuState()
        state.board = row[:COUNTS].tolist()
        state.blue, state.white = row[COUNTS : COUNTS + GROUPS].tolist(), row[COUNTS + GROUPS : PLAYER].tolist()
        state.player, state.moves = int(row[PLAYER]), int(row[MOVES])
        return state


@njit(cache=True)
def legal(context, row, out):
    """``Odoku.legal_actions``: both colours on every empty cell, none at a chance node."""
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
    """``Odoku.apply``: at a chance node the coin's outcome is the seat to move."""
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
    """``Odoku.chance_outcomes``: B moves (0) with probability ``bias``, else A (1)."""
    if row[PLAYER] != CHANCE:
        return 0
    outcomes[0], outcomes[1] = 0, 1
    probs[0], probs[1] = context.bias[0], 1.0 - context.bias[0]
    return 2


@njit(cache=True)
def b_return(counts):
    """B's return of a full board (``Odoku.returns``' first entry); ``counts``: the row's."""
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
    """B's return of a random playout (``Odoku.random_playout``): under uniformly random play
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
    """``Odoku.random_playout``'s returns (the same kernel)."""
    if row[PLAYER] == TERMINAL:
        returns(context, row, out)
        return
    out[0] = fill_playout(row[:COUNTS], row[COUNTS:PLAYER], seed)
    out[1] = -out[0]


@njit(cache=True)
def observe(context, row, out):
    """``Odoku.observe`` into ``out`` ``[11, 5, 5]``: the cell's colour or emptiness, the seat to
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
