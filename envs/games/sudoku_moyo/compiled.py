"""Sudoku Moyo's rules over one flat row (``envs.compiled``'s protocol), the drawn puzzle a chance
node; the grid's algorithms (placements, turn starts, the generator, the playout) are
``kernels.py``'s. ``envs.kit.RowGame`` makes them the engine (``game.py``).

A row (int32) holds the grid (81 digits, 0 empty, cell ``(row - 1) * 9 + column``), which of
them are givens (81 flags), then ``PLAYER`` (a seat, CHANCE at the setup, TERMINAL), ``STUCK``
(the seat that could not place, -1), ``OPENING`` (1 while the centre is filled first) and
``PUZZLE`` (the drawn puzzle number, -1 for none). The context is a :class:`SudokuContext`:
``givens`` (int64 ``[1]``, the givens of a drawn puzzle).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from envs.compiled import register
from envs.core import CHANCE, TERMINAL
from envs.games.sudoku_moyo.kernels import (
    NEUTRAL,
    placements_into,
    planes,
    puzzle,
    random_playout,
    start_turn,
)

SIZE = 9
NUM_CELLS = SIZE * SIZE
PUZZLE_COUNT = 2**16  # the setup chance: puzzle numbers 0 .. PUZZLE_COUNT - 1, equally likely
GIVEN = NUM_CELLS
PLAYER, STUCK, OPENING, PUZZLE = range(2 * NUM_CELLS, 2 * NUM_CELLS + 4)
WIDTH = PUZZLE + 1
MAX_LEGAL = 4 * 9 * 9  # a seat's four boxes, every digit on every cell
SudokuContext = namedtuple("SudokuContext", ["givens"])


def context(givens: int) -> SudokuContext:
    return SudokuContext(np.array([givens], np.int64))


def setup_row() -> np.ndarray:
    """The setup chance node: the puzzle not drawn yet."""
    row = np.zeros(WIDTH, np.int32)
    row[PLAYER], row[STUCK], row[OPENING], row[PUZZLE] = CHANCE, -1, 1, -1
    return row


@njit(cache=True)
def set_up(row, digits, number):
    """Lay out the puzzle ``digits`` (81, 0 empty; ``number``: its puzzle number or -1) on the
    setup ``row``, light to move in the centre first."""
    for cell in range(NUM_CELLS):
        row[cell] = digits[cell]
        row[GIVEN + cell] = digits[cell] != 0
    row[PUZZLE], row[PLAYER] = number, 0
    _start_turn(row)


@njit(cache=True)
def _start_turn(row):
    """After a placement or the setup: end the opening, or the game, when due."""
    opening, stuck = start_turn(row[:GIVEN], row[PLAYER], row[OPENING] != 0)
    row[OPENING] = opening
    if stuck >= 0:
        row[STUCK], row[PLAYER] = stuck, TERMINAL


@njit(cache=True)
def legal(context, row, out):
    """The placements in the centre while the opening lasts, then in the mover's boxes."""
    player = row[PLAYER]
    if player < 0:
        return 0
    return placements_into(row[:GIVEN], NEUTRAL if row[OPENING] else player, out)


@njit(cache=True)
def apply(context, row, action):
    """The setup lays out the drawn puzzle; a placement hands the move over."""
    if row[PLAYER] == CHANCE:
        digits = puzzle(action, context.givens[0])
        if digits.sum() == 0:
            raise ValueError("the generator found no proper puzzle for this number")
        set_up(row, digits, action)
    else:
        row[action // 9] = action % 9 + 1
        row[PLAYER] = 1 - row[PLAYER]
        _start_turn(row)


@njit(cache=True)
def to_play(context, row):
    return row[PLAYER]


@njit(cache=True)
def chance(context, row, outcomes, probs):
    """Every puzzle number, equally likely."""
    if row[PLAYER] != CHANCE:
        return 0
    for number in range(PUZZLE_COUNT):
        outcomes[number], probs[number] = number, 1.0 / PUZZLE_COUNT
    return PUZZLE_COUNT


@njit(cache=True)
def returns(context, row, out):
    """-1 for the stuck seat, +1 for the other."""
    out[0] = out[1] = 0.0
    if row[PLAYER] == TERMINAL:
        out[row[STUCK]], out[1 - row[STUCK]] = -1.0, 1.0


@njit(cache=True)
def playout(context, row, seed, out):
    """The returns of ``kernels.random_playout`` from a decision row."""
    if row[PLAYER] == TERMINAL:
        returns(context, row, out)
        return
    winner = random_playout(row[:GIVEN], row[PLAYER], seed)[0]
    out[winner], out[1 - winner] = 1.0, -1.0


@njit(cache=True)
def observe(context, row, out):
    """The network's planes (``SudokuMoyo``'s docstring; zeros at the setup)."""
    flat = out.reshape(out.shape[0], NUM_CELLS)
    flat[:] = 0.0
    player = row[PLAYER]
    if player == CHANCE:
        return
    mover = row[STUCK] if player == TERMINAL else player
    region = -1 if player == TERMINAL else (NEUTRAL if row[OPENING] else mover)
    planes(row[:GIVEN], row[GIVEN:PLAYER], mover, region, flat)


register(
    SudokuContext,
    legal=legal,
    apply=apply,
    to_play=to_play,
    returns=returns,
    playout=playout,
    observe=observe,
    chance=chance,
)
