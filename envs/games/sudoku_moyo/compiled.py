"""Sudoku Moyo as an ``envs.compiled.CompiledGame``: the engine's kernels
(``envs.games.sudoku_moyo.kernels``) over one flat row, the drawn puzzle a chance node.

A row (int32) holds the grid (81 digits, 0 empty), which of them are givens (81 flags), then
``PLAYER`` (a seat, CHANCE at the setup, TERMINAL), ``STUCK`` (the seat that could not place,
-1), ``OPENING`` (1 while the centre is filled first) and ``PUZZLE`` (the drawn puzzle
number, -1 for none). The context is a :class:`SudokuContext`: ``givens`` (int64 ``[1]``,
the givens of a drawn puzzle).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from envs.compiled import CompiledGame, register
from envs.core import CHANCE, TERMINAL
from envs.games.sudoku_moyo.game import NUM_CELLS, PUZZLE_COUNT, SudokuMoyoState
from envs.games.sudoku_moyo.kernels import (
    NEUTRAL,
    placements_into,
    planes,
    puzzle,
    random_playout,
    start_turn,
)

GIVEN = NUM_CELLS
PLAYER, STUCK, OPENING, PUZZLE = range(2 * NUM_CELLS, 2 * NUM_CELLS + 4)
SudokuContext = namedtuple("SudokuContext", ["givens"])


class SudokuRows(CompiledGame):
    """The ``CompiledGame`` of a ``SudokuMoyo`` (module docstring)."""

    width = PUZZLE + 1
    max_legal = 4 * 9 * 9  # a seat's four boxes, every digit on every cell
    max_chance = PUZZLE_COUNT

    def __init__(self, game):
        self.context = SudokuContext(np.array([game.givens], np.int64))

    def encode(self, state: SudokuMoyoState) -> np.ndarray:
        row = np.zeros(self.width, np.int32)
        row[:GIVEN] = np.frombuffer(bytes(state.grid), np.uint8)
        row[GIVEN:PLAYER] = np.frombuffer(state.given, np.uint8)
        row[PLAYER], row[STUCK], row[OPENING] = state.player, state.stuck, state.opening
        row[PUZZLE] = -1 if state.puzzle is None else state.puzzle
        return row

    def decode(self, row: np.ndarray) -> SudokuMoyoState:
        state = SudokuMoyoState()
        for cell, digit in enumerate(row[:GIVEN].tolist()):
            if digit:
                state.place(cell, digit)
        state.given = row[GIVEN:PLAYER].astype(np.uint8).tobytes()
        state.player, state.stuck, state.opening = int(row[PLAYER]), int(row[STUCK]), bool(row[OPENING])
        state.puzzle = None if row[PUZZLE] < 0 else int(row[PUZZLE])
        return state


@njit(cache=True)
def legal(context, row, out):
    """``SudokuMoyo.legal_actions``: the placements in the centre while the opening lasts, then
    in the mover's boxes."""
    player = row[PLAYER]
    if player < 0:
        return 0
    return placements_into(row[:GIVEN], NEUTRAL if row[OPENING] else player, out)


@njit(cache=True)
def apply(context, row, action):
    """``SudokuMoyo.apply``: the setup lays out the drawn puzzle, a placement hands the move over;
    then ``_start_turn``."""
    grid = row[:GIVEN]
    if row[PLAYER] == CHANCE:
        digits = puzzle(action, context.givens[0])
        if digits.sum() == 0:
            raise ValueError("the generator found no proper puzzle for this number")
        for cell in range(NUM_CELLS):
            grid[cell] = digits[cell]
            row[GIVEN + cell] = digits[cell] != 0
        row[PUZZLE], row[PLAYER] = action, 0
    else:
        grid[action // 9] = action % 9 + 1
        row[PLAYER] = 1 - row[PLAYER]
    opening, stuck = start_turn(grid, row[PLAYER], row[OPENING] != 0)
    row[OPENING] = opening
    if stuck >= 0:
        row[STUCK], row[PLAYER] = stuck, TERMINAL


@njit(cache=True)
def to_play(context, row):
    return row[PLAYER]


@njit(cache=True)
def chance(context, row, outcomes, probs):
    """``SudokuMoyo.chance_outcomes``: every puzzle number, equally likely."""
    if row[PLAYER] != CHANCE:
        return 0
    for number in range(PUZZLE_COUNT):
        outcomes[number], probs[number] = number, 1.0 / PUZZLE_COUNT
    return PUZZLE_COUNT


@njit(cache=True)
def returns(context, row, out):
    """``SudokuMoyo.returns``: -1 for the stuck seat, +1 for the other."""
    out[0] = out[1] = 0.0
    if row[PLAYER] == TERMINAL:
        out[row[STUCK]], out[1 - row[STUCK]] = -1.0, 1.0


@njit(cache=True)
def playout(context, row, seed, out):
    """``SudokuMoyo.random_playout``'s returns from a decision row (the same kernel)."""
    if row[PLAYER] == TERMINAL:
        returns(context, row, out)
        return
    winner = random_playout(row[:GIVEN], row[PLAYER], seed)[0]
    out[winner], out[1 - winner] = 1.0, -1.0


@njit(cache=True)
def observe(context, row, out):
    """``SudokuMoyo.observe`` (zeros at the setup)."""
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
