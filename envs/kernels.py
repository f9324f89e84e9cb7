"""What the compiled (numba) kernels of the games share: the stone games' board values and goal
codes, the playouts' random numbers (:func:`draw`), a compiled playout's outcome as returns, rays
laid out for numba, a union-find's root and the chain search by which Hex and Y judge their goals.
Compiled on first use and cached on disk (``envs.numba_cache``); the stone games' rules are
``envs.stones.compiled`` and ``envs.neutral.compiled``, every other game's its ``kernels.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

EMPTY, FIRST, SECOND, NEUTRAL, OFF_BOARD = 0, 1, 2, 3, 4  # a cell's value on the board
GOAL_CHAIN, GOAL_LINE, GOAL_COUNT, GOAL_SIDES = 0, 1, 2, 3  # Hex, Gomoku, Reversi, Y: ``Rules.kernel_goal``


# --- the playouts' random numbers ----------------------------------------------------------------------
# SplitMix64 (Steele, Lea and Flood, OOPSLA 2014): a 64-bit counter mixed into each output. A
# playout gets one 63-bit seed from the caller's numpy Generator (``playout_seed``) and draws the
# rest from this stream: handing the Generator itself to a numba function costs ~20 us per call,
# a whole 5x5 Hex playout ~1 us. Seeds are int64 (the state's bits), so they pass to and from Python.
_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


# a compiled playout's outcome (0 a draw, 1 seat 0 won, 2 seat 1 won) as the seats' returns
OUTCOME_RETURNS = ((0.0, 0.0), (1.0, -1.0), (-1.0, 1.0))
CUT = -1  # a compiled playout's outcome when it stopped after the turns it was given (``Game.cut_playout``)


def flat_rays(rays_of_cells) -> tuple[np.ndarray, np.ndarray]:
    """Every cell's rays (lists of cells, nearest first) one after another, and where each
    cell's rays start and end (``(cells, rays + 1)``): ray ``k`` of ``cell`` is
    ``flat[bounds[cell, k] : bounds[cell, k + 1]]``, a layout numba kernels index quickly."""
    rays_of_cells = list(rays_of_cells)
    flat, bounds = [], np.zeros((len(rays_of_cells), len(rays_of_cells[0]) + 1), np.int64)
    for cell, cell_rays in enumerate(rays_of_cells):
        bounds[cell, 0] = len(flat)
        for k, ray in enumerate(cell_rays):
            flat += ray
            bounds[cell, k + 1] = len(flat)
    return np.array(flat, np.int64), bounds


def playout_seed(rng: np.random.Generator) -> int:
    """A playout's seed: 63 random bits, one raw draw of ``rng``'s bit generator."""
    return rng.bit_generator.random_raw() >> 1


@njit(cache=True)
def draw(seed, bound):
    """``(index, next_seed)``: a uniform integer in ``[0, bound)`` (``bound`` < 2**32) from the
    stream at ``seed`` (bias below ``bound / 2**32``), and the seed of the rest of the stream."""
    state = np.uint64(seed) + _GAMMA
    z = (state ^ (state >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    return np.int64(((z >> np.uint64(32)) * np.uint64(bound)) >> np.uint64(32)), np.int64(state)


@njit(cache=True)
def nth(values, start, stop, first, second, index):
    """The ``index``-th position (from 0) in ``[start, stop)``, in order, holding ``first`` or
    ``second``; -1 when there are fewer."""
    for cell in range(start, stop):
        v = values[cell]
        if v == first or v == second:
            if index == 0:
                return cell
            index -= 1
    return -1


# --- chains ------------------------------------------------------------------------------------------
@njit(cache=True)
def find(parent, x):
    """The root of ``x``'s set in the union-find ``parent`` (halving the path on the way)."""
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@njit(cache=True)
def chain_sides(board, colour, start, neighbours, sides, goal):
    """The sides that the ``colour`` chain through ``start`` touches, as bits (``sides``: the
    bits of each cell), 0 when ``start`` does not hold ``colour``; the search stops once the
    bits of ``goal`` are all touched. ``neighbours`` is a (cells, 6) array padded with -1.

    Hex: a colour's two edges (bits 1, 2; goal 3). Y: the three sides (bits 1, 2, 4; goal 7).
    """
    if board[start] != colour:
        return 0
    seen = np.zeros(len(board), np.uint8)
    stack = np.empty(len(board), np.int64)
    stack[0] = start
    seen[start] = 1
    top, touched = 1, 0
    while top and touched & goal != goal:
        top -= 1
        cell = stack[top]
        touched |= sides[cell]
        for k in range(neighbours.shape[1]):
            other = neighbours[cell, k]
            if other >= 0 and seen[other] == 0 and board[other] == colour:
                seen[other] = 1
                stack[top] = other
                top += 1
    return touched
