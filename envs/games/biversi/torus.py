"""The n x n torus of Biversi: its 8-neighbourhood and the 3 x 3 tiling on which Reversi's own
flanking kernels (``envs.stones.flanking``) run, in ``envs.games.biversi.kernels``.

A line of the torus wraps round the edges: from a cell, each of the 8 directions
meets the other n - 1 cells of its row, column or diagonal and then the cell
itself. Laid out as the 3 x 3 tiling of the board, that is the plane ray from
the cell's copy in the centre tile, and the plane ray meets the cell's own copy
n steps on in every direction. The cell is empty when a stone is tried there, so
the plain kernels stop each ray at that copy: a flanked line ends at another
stone of the mover's, never at the placed stone itself going round.

Sections (the groups of stones grown from the two start patterns) are the
8-connected groups of stones on the torus. The placements, the flips and the
sections are computed by the compiled code of the playout.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

KING_STEPS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


@lru_cache(maxsize=None)
def torus_neighbours(n: int) -> np.ndarray:
    """``(n * n, 8)`` int64: the 8 neighbours of every cell, wrapping round the edges."""
    return np.array(
        [[((r + dr) % n) * n + (c + dc) % n for dr, dc in KING_STEPS] for r in range(n) for c in range(n)],
        np.int64,
    )


@lru_cache(maxsize=None)
def tiling(n: int) -> tuple[np.ndarray, np.ndarray]:
    """(the torus cell of every cell of the 3n x 3n tiling, the tiling cell of every torus cell's
    copy in the centre tile)."""
    big = 3 * n
    torus_of = np.array([(r % n) * n + c % n for r in range(big) for c in range(big)], np.int64)
    centre = np.array([(r + n) * big + c + n for r in range(n) for c in range(n)], np.int64)
    return torus_of, centre
