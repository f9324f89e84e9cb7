"""The eight maps of the square as symmetries of Four-way walls (docs/games/four_way_walls.md).

The rules do not change when the board is turned or reflected, provided each stone's goal turns
with it: a stone heading north on the mirrored board heads for the mirror image of the north
boundary. So a map moves the cells, the wall centres (a turn by a quarter or a reflection in a
diagonal swaps horizontal and vertical walls) and the goal directions; in the observation the
planes of stones heading N, E, S, W and of the walls on a cell's N, E, S, W side are permuted
by the map of directions, every plane's cells by the map of cells.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from envs.core import Symmetry

# (name, the map of (row, column) on a grid whose last index is m, swaps the axes)
_MAPS: tuple[tuple[str, Callable[[int, int, int], tuple[int, int]], bool], ...] = (
    ("identity", lambda r, c, m: (r, c), False),
    ("turn 90", lambda r, c, m: (c, m - r), True),
    ("turn 180", lambda r, c, m: (m - r, m - c), False),
    ("turn 270", lambda r, c, m: (m - c, r), True),
    ("mirror left-right", lambda r, c, m: (r, m - c), False),
    ("mirror top-bottom", lambda r, c, m: (m - r, c), False),
    ("transpose", lambda r, c, m: (c, r), True),
    ("anti-transpose", lambda r, c, m: (m - c, m - r), True),
)
_STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # north, east, south, west as (row, column)


@dataclass(frozen=True)
class SquareMap:
    """One map of the n x n board: of cells, of interior points (wall centres), of directions."""

    name: str
    size: int
    point: Callable[[int, int, int], tuple[int, int]]
    swaps: bool

    def cell(self, cell: int) -> int:
        r, c = self.point(*divmod(cell, self.size), self.size - 1)
        return r * self.size + c

    def wall(self, orientation: int, i: int, j: int) -> tuple[int, int, int]:
        i2, j2 = self.point(i, j, self.size)
        return (1 - orientation if self.swaps else orientation), i2, j2

    def direction(self, d: int) -> int:
        """The image of direction d (the map's linear part: the image of the origin subtracted)."""
        r0, c0 = self.point(0, 0, 0)
        r, c = self.point(*_STEPS[d], 0)
        return _STEPS.index((r - r0, c - c0))


def square_maps(size: int) -> list[SquareMap]:
    return [SquareMap(name, size, point, swaps) for name, point, swaps in _MAPS]


def symmetries(game) -> list[Symmetry]:
    """The game's eight symmetries, identity first (planes as in ``FourWayWalls.observe``)."""
    return [_symmetry(game, square) for square in square_maps(game.size)]


def _symmetry(game, square: SquareMap) -> Symmetry:
    n, cells = game.size, game.size * game.size
    planes = game.info.obs_shape[0]
    perm = np.arange(game.info.num_actions)
    cell_image = np.array([square.cell(x) for x in range(cells)])
    perm[:cells] = cell_image
    centre_image = np.arange(cells)  # a wall centre (i, j) is drawn on cell (i - 1, j - 1)
    for o in (0, 1):
        for i in range(1, n):
            for j in range(1, n):
                o2, i2, j2 = square.wall(o, i, j)
                perm[game._wall_action(o, i, j)] = game._wall_action(o2, i2, j2)
                if o == 0:
                    centre_image[(i - 1) * n + j - 1] = (i2 - 1) * n + j2 - 1
    plane_image = np.arange(planes)
    for d in range(4):
        for base in (0, 4, 10):  # the mover's stones, the opponent's, the walls on a cell's sides
            plane_image[base + d] = base + square.direction(d)
    if square.swaps:
        plane_image[8], plane_image[9] = 9, 8
    source = np.empty(planes * cells, np.int64)  # new flat index -> old flat index
    for p in range(planes):
        image = centre_image if p in (8, 9) else cell_image
        source[plane_image[p] * cells + image] = p * cells + np.arange(cells)

    def obs(planes_array: np.ndarray) -> np.ndarray:
        flat = planes_array.reshape(*planes_array.shape[:-3], -1)
        return np.ascontiguousarray(flat[..., source]).reshape(planes_array.shape)

    return Symmetry(square.name, obs, perm)
