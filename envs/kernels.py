"""What the compiled (numba) kernels of every stone game share: the board's values, the goal
codes the generic playouts dispatch on, the playouts' random numbers, a union-find's root and
the chain search by which Hex and Y judge their goals.

Each game's own kernels sit beside its rules: ``envs.stones.chains`` (Hex's union-find),
``envs.stones.sides`` (Y's), ``envs.stones.lines`` (lines), ``envs.stones.flanking`` (captures), and each other game's in its own folder
(``envs.games.NAME.kernels``, ``envs.games.NAME.playout``: the random playout over the game's own
arrays). The stone games' read the board as their rows hold it (``envs.stones.compiled``: the
values below), the scheduled games' rows (``envs.schedule.rows``: ``envs.schedule.moves``'
values), so no conversion happens per call. Compiled on first use and cached on disk.

The stone games' rules (``envs.stones.compiled``, ``envs.neutral.compiled``) are built from these
kernels; the playouts keep what they need per turn (counts, union-finds) up to date instead of
rescanning the board, and must follow the rules move for move: ``tests/test_neutral_properties.py::test_random_playout_plays_the_engine_loop_game``
checks that, seed by seed, for every stone game, and ``tests/test_*_playouts.py`` for the others.
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


def cut_returns(outcome: int, score) -> tuple[float, ...]:
    """The returns of a compiled playout that may have stopped at its cut: ``score()`` (the
    heuristic of where it stopped) for ``CUT``, else the outcome's (``OUTCOME_RETURNS``)."""
    return score() if outcome == CUT else OUTCOME_RETURNS[outcome]


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
def nth(values, start, stop, first, second, index, skip, skip_too):
    """The ``index``-th position (from 0) in ``[start, stop)``, in order, holding ``first`` or
    ``second``, positions ``skip`` and ``skip_too`` not counted (-1: none); -1 when there are fewer."""
    for cell in range(start, stop):
        v = values[cell]
        if (v == first or v == second) and cell != skip and cell != skip_too:
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
