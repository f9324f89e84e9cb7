"""Odoku as an ``envs.compiled.CompiledGame``: the batch's rules kernels
(``envs.games.odoku.batched``) over one flat row, the coin a chance node before every move.

A row (int32) holds the board (25 cells: 0 empty, 1 blue, 2 white), the blue then the white
stones of each of the 15 groups, and the batch's ``meta`` columns (``PLAYER``: a seat, CHANCE
or TERMINAL; ``MOVES``: placements made). The context is an :class:`OdokuContext`: ``bias``
(float64 ``[1]``, the probability that the coin picks B) and ``mask``, scratch room for the
legal mask.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from envs.compiled import CompiledGame, register
from envs.core import CHANCE, TERMINAL
from envs.games.odoku.batched import (
    GROUPS,
    META,
    MOVES,
    b_return,
    fill_playout,
    legal_into,
    observe_into,
    place,
)
from envs.games.odoku.game import NUM_CELLS, OdokuState
from envs.vector.common import PLAYER

COUNTS = NUM_CELLS  # the blue counts, then the white ones
METAS = COUNTS + 2 * GROUPS  # the meta columns
OdokuContext = namedtuple("OdokuContext", ["bias", "mask"])


class OdokuRows(CompiledGame):
    """The ``CompiledGame`` of an ``Odoku`` (module docstring)."""

    width = METAS + META
    max_legal = 2 * NUM_CELLS
    max_chance = 2

    def __init__(self, game):
        self.context = OdokuContext(np.array([game.bias]), np.zeros(2 * NUM_CELLS, np.int8))

    def encode(self, state: OdokuState) -> np.ndarray:
        row = np.zeros(self.width, np.int32)
        row[:COUNTS] = state.board
        row[COUNTS:METAS] = state.blue + state.white
        row[METAS + PLAYER], row[METAS + MOVES] = state.player, state.moves
        return row

    def decode(self, row: np.ndarray) -> OdokuState:
        state = OdokuState()
        state.board = row[:COUNTS].tolist()
        state.blue, state.white = row[COUNTS : COUNTS + GROUPS].tolist(), row[COUNTS + GROUPS : METAS].tolist()
        state.player, state.moves = int(row[METAS + PLAYER]), int(row[METAS + MOVES])
        return state


@njit(cache=True)
def legal(context, row, out):
    """``Odoku.legal_actions``: both colours on every empty cell, none at a chance node."""
    mask = context.mask
    legal_into(row[:COUNTS], row[METAS:], mask)
    count = 0
    for action in range(mask.shape[0]):
        if mask[action]:
            out[count] = action
            count += 1
    return count


@njit(cache=True)
def apply(context, row, action):
    """``Odoku.apply``: at a chance node the coin's outcome is the seat to move."""
    meta = row[METAS:]
    if meta[PLAYER] == CHANCE:
        meta[PLAYER] = action
    else:
        place(row[:COUNTS], row[COUNTS:METAS], meta, action)


@njit(cache=True)
def to_play(context, row):
    return row[METAS + PLAYER]


@njit(cache=True)
def chance(context, row, outcomes, probs):
    """``Odoku.chance_outcomes``: B moves (0) with probability ``bias``, else A (1)."""
    if row[METAS + PLAYER] != CHANCE:
        return 0
    outcomes[0], outcomes[1] = 0, 1
    probs[0], probs[1] = context.bias[0], 1.0 - context.bias[0]
    return 2


@njit(cache=True)
def returns(context, row, out):
    out[0] = out[1] = 0.0
    if row[METAS + PLAYER] == TERMINAL:
        out[0] = b_return(row[COUNTS:METAS])
        out[1] = -out[0]


@njit(cache=True)
def playout(context, row, seed, out):
    """``Odoku.random_playout``'s returns (the same kernel)."""
    if row[METAS + PLAYER] == TERMINAL:
        returns(context, row, out)
        return
    out[0] = fill_playout(row[:COUNTS], row[COUNTS:METAS], seed)
    out[1] = -out[0]


@njit(cache=True)
def observe(context, row, out):
    """``Odoku.observe``."""
    observe_into(row[:COUNTS], row[COUNTS:METAS], row[METAS:], out)


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
