"""The eight maps of the square as symmetries of Four-way walls (docs/games/four_way_walls.md).

The rules do not change when the board is turned or reflected, provided each stone's goal turns
with it: a stone heading north on the mirrored board heads for the mirror image of the north
boundary. So a map moves the cells, the wall centres (a turn by a quarter or a reflection in a
diagonal swaps horizontal and vertical walls) and the goal directions; in the observation the
planes of stones heading N, E, S, W and of the walls on a cell's N, E, S, W side are permuted
by the map of directions, every plane's cells by the map of cells.
"""

from __future__ import annotations

import numpy as np

from envs.core import Symmetry
from envs.stones.board import DIHEDRAL

# (name, the map of the board's arrays in envs.stones.board.DIHEDRAL: numpy turns anticlockwise)
MAPS = (
    ("identity", "identity"),
    ("turn 90", "rot270"),
    ("turn 180", "rot180"),
    ("turn 270", "rot90"),
    ("mirror left-right", "flip_columns"),
    ("mirror top-bottom", "flip_rows"),
    ("transpose", "transpose"),
    ("anti-transpose", "antitranspose"),
)
SIDES = (1, 5, 7, 3)  # the north, east, south and west neighbours of the middle of a 3 x 3 grid


def symmetries(game) -> list[Symmetry]:
    """The game's eight symmetries, identity first (planes as in ``FourWayWalls.observe``)."""
    return [_symmetry(game, name, DIHEDRAL[spatial]) for name, spatial in MAPS]


def _symmetry(game, name: str, spatial) -> Symmetry:
    n, cells, slots = game.size, game.size**2, game.slots
    planes = game.info.obs_shape[0]

    def old_of(side: int) -> np.ndarray:  # on a side x side grid: the old index of each new one
        return spatial(np.arange(side * side).reshape(side, side)).reshape(-1)

    grid, cell, centre = old_of(3).tolist(), old_of(n), old_of(n - 1)  # centre: the wall centres' grid
    direction = [SIDES.index(grid.index(SIDES[d])) for d in range(4)]  # the image of direction d
    swaps = direction[0] % 2 == 1  # north turns east or west: horizontal walls turn vertical
    perm = np.arange(game.info.num_actions)
    perm[cell] = np.arange(cells)
    for o in (0, 1):
        perm[game.WALL0 + o * slots + centre] = game.WALL0 + (1 - o if swaps else o) * slots + np.arange(slots)
    plane_of = np.arange(planes)  # the old plane of each new one
    for base in (0, 4, 10):  # the mover's stones, the opponent's, the walls on a cell's sides
        plane_of[base + np.array(direction)] = base + np.arange(4)
    if swaps:
        plane_of[8], plane_of[9] = 9, 8
    drawn = np.arange(cells).reshape(n, n)  # planes 8 and 9 draw wall centre (i, j) on cell (i - 1, j - 1)
    drawn[:-1, :-1] = (centre // (n - 1) * n + centre % (n - 1)).reshape(n - 1, n - 1)
    source = np.concatenate([p * cells + (drawn.reshape(-1) if p in (8, 9) else cell) for p in plane_of])

    def obs(planes_array: np.ndarray) -> np.ndarray:
        flat = planes_array.reshape(*planes_array.shape[:-3], -1)
        return np.ascontiguousarray(flat[..., source]).reshape(planes_array.shape)

    return Symmetry(name, obs, perm)
