"""Square-grid geometry shared by Hex, Gomoku and Reversi (and their neutral variants).

Cell index = r * n + c; r = 0 is row ``1`` (the top row), c = 0 is column ``a``::

    row 1 |  0      1    ...  n-1
    row 2 |  n     n+1   ... 2n-1
            a      b           ...

Names are column letter then row number, ``a11``, so boards go up to 26 x 26.
"""

from __future__ import annotations

import re
from typing import Callable, Sequence

import numpy as np

from envs.core import NotationError, Symmetry

COLUMNS = "abcdefghijklmnopqrstuvwxyz"
# The six neighbours of a cell on a hexagonal grid stored as a rhombus (row, column).
HEX_STEPS = ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0))
_CELL = re.compile(r"^([a-z])([0-9]{1,2})$")


def check_size(size, minimum: int, even: bool = False) -> int:
    """``size`` as an int, or a ValueError naming ``size`` and the allowed range."""
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)):
        raise ValueError(f"size must be an integer, got {size!r}")
    rule = f"an even integer from {minimum} to {len(COLUMNS)}" if even else f"from {minimum} to {len(COLUMNS)}"
    if not minimum <= size <= len(COLUMNS) or (even and size % 2):
        raise ValueError(f"size must be {rule}, got {size}")
    return int(size)


def cell_name(cell: int, n: int) -> str:
    """``cell_name(110, 11)`` -> ``"a11"``."""
    return f"{COLUMNS[cell % n]}{cell // n + 1}"


def parse_cell(text: str, n: int) -> int:
    """``parse_cell("a11", 11)`` -> 110; NotationError for bad text or a cell off the board."""
    match = _CELL.match(text)
    if match is None:
        raise NotationError(f"cannot read cell {text!r}: expected a column letter and a row number, e.g. 'e3'")
    column, row = COLUMNS.index(match.group(1)), int(match.group(2))
    if column >= n or not 1 <= row <= n:
        raise NotationError(f"cell {text!r} is off the {n}x{n} board (columns a-{COLUMNS[n - 1]}, rows 1-{n})")
    return (row - 1) * n + column


def neighbour_table(n: int, steps: Sequence[tuple[int, int]], on=None) -> tuple[tuple[int, ...], ...]:
    """For every cell of the n x n array, the cells one ``(dr, dc)`` step away that lie on the
    board; ``on``: where the board does not fill the array, its cells (a flat 0/1 mask): a cell
    off it has none, and none is off it."""
    table = tuple(
        tuple((r + dr) * n + c + dc for dr, dc in steps if 0 <= r + dr < n and 0 <= c + dc < n)
        for r in range(n)
        for c in range(n)
    )
    if on is None:
        return table
    return tuple(tuple(other for other in cells if on[other]) if on[cell] else () for cell, cells in enumerate(table))


def padded(lists: Sequence[Sequence[int]], width: int) -> np.ndarray:
    """Lists of cells as the rows of an int64 ``(len(lists), width)`` array padded with -1 (for numba)."""
    table = np.full((len(lists), width), -1, np.int64)
    for row, cells in enumerate(lists):
        table[row, : len(cells)] = cells
    return table


# --- symmetries ----------------------------------------------------------------------------
PlaneMap = Callable[[np.ndarray], np.ndarray]

DIHEDRAL: dict[str, PlaneMap] = {
    "identity": lambda a: a,
    "rot90": lambda a: np.rot90(a, 1, axes=(-2, -1)),
    "rot180": lambda a: np.rot90(a, 2, axes=(-2, -1)),
    "rot270": lambda a: np.rot90(a, 3, axes=(-2, -1)),
    "flip_rows": lambda a: np.flip(a, axis=-2),
    "flip_columns": lambda a: np.flip(a, axis=-1),
    "transpose": lambda a: np.swapaxes(a, -1, -2),
    "antitranspose": lambda a: np.rot90(np.swapaxes(a, -1, -2), 2, axes=(-2, -1)),
}


def ray_table(n: int, steps: Sequence[tuple[int, int]]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For every cell of an n x n grid, the cells along each (row, column) step in turn, nearest first."""
    rays = []
    for r in range(n):
        for c in range(n):
            cell_rays = []
            for dr, dc in steps:
                ray, rr, cc = [], r + dr, c + dc
                while 0 <= rr < n and 0 <= cc < n:
                    ray.append(rr * n + cc)
                    rr, cc = rr + dr, cc + dc
                cell_rays.append(tuple(ray))
            rays.append(tuple(cell_rays))
    return tuple(rays)


def board_symmetry(name: str, n: int, num_actions: int, invert_plane: int | None = None) -> Symmetry:
    """The symmetry ``DIHEDRAL[name]`` of an n x n board; actions past the cells stay fixed.

    ``invert_plane`` names a constant 0/1 plane that the map turns into ``1 - plane``
    (Hex's "mover joins top and bottom" plane under a transposition).
    """
    spatial = DIHEDRAL[name]
    image = spatial(np.arange(n * n).reshape(n, n)).reshape(-1)  # image[new] = old
    perm = np.arange(num_actions)
    perm[image] = np.arange(n * n)

    def planes(obs: np.ndarray) -> np.ndarray:
        out = np.array(spatial(obs), dtype=obs.dtype)
        if invert_plane is not None:
            out[..., invert_plane, :, :] = 1 - out[..., invert_plane, :, :]
        return out

    return Symmetry(name, planes, perm)


def cell_symmetry(name: str, image: np.ndarray, num_actions: int) -> Symmetry:
    """A symmetry given as a map of the array's cells: ``image[new] = old`` (cells off a
    board that does not fill its array map to themselves); actions past the cells stay fixed."""
    cells = len(image)
    perm = np.arange(num_actions)
    perm[image] = np.arange(cells)

    def planes(obs: np.ndarray) -> np.ndarray:
        flat = obs.reshape(*obs.shape[:-2], cells)
        return np.ascontiguousarray(flat[..., image]).reshape(obs.shape)

    return Symmetry(name, planes, perm)


# --- text ----------------------------------------------------------------------------------
def square_diagram(symbols: Sequence[str], n: int) -> list[str]:
    """Rows top to bottom, row number on the right, column letters below (the seed's layout)."""
    width = len(str(n)) + 1
    lines = [" ".join(symbols[r * n : (r + 1) * n]) + " " + str(r + 1).rjust(width) for r in range(n)]
    lines.append(" ".join(COLUMNS[:n]))
    return lines


def hex_diagram(symbols: Sequence[str], n: int) -> list[str]:
    """The seed's Hex layout: letters above, each row shifted half a cell right of the last."""
    letters = " ".join(COLUMNS[:n])
    lines = ["  " + letters]
    for r in range(n):
        label = str(r + 1)
        lines.append(label + " " * (3 + r - len(label)) + " ".join(symbols[r * n : (r + 1) * n]))
    lines.append(" " * (3 + n) + letters)
    return lines
