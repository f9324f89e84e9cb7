"""A hexagon of hexagonal cells (Hexxagon, Blockdance): its cells, names, diagrams and symmetries.

The hexagon of side s is kept in a (2s-1) x (2s-1) array in axial coordinates:
cell ``r * (2s-1) + q`` is on the board when s-1 <= r + q <= 3(s-1); row r+1
is printed with its cells at the doubled letters 2q + r - (s-1) (17 rows and the
letters ``a``-``G`` for s = 9; 15 rows and ``a``-``C`` for s = 8)::

    row 1        i . . . q . . . y            (s = 9: i1 is r = 0, q = 8)
    row 9    a . . . . . . . . . . . . . . . . G
    row 17       i . . . q . . . y

Neighbours differ by one of ``envs.stones.board.HEX_STEPS`` in (r, q).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Mapping, Sequence

import numpy as np

from envs.core import NotationError
from envs.stones.board import HEX_STEPS, neighbour_table, padded

LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_SIDE = (len(LETTERS) - 1) // 4 + 1  # the widest row uses letters 0 .. 4(s-1)
CELL = re.compile(r"([a-zA-Z])([0-9]{1,2})")


@lru_cache(maxsize=None)
def geometry(side: int):
    """(on-board mask, neighbour lists, cells two away) of the hexagon of side ``side``."""
    n = 2 * side - 1
    on = np.array([side - 1 <= r + q <= 3 * (side - 1) for r in range(n) for q in range(n)])
    ring2 = [(dr, dq) for dr in range(-2, 3) for dq in range(-2, 3) if (abs(dr) + abs(dq) + abs(dr + dq)) == 4]
    return on, neighbour_table(n, HEX_STEPS, on), neighbour_table(n, ring2, on)


@lru_cache(maxsize=None)
def tables(side: int) -> tuple[np.ndarray, np.ndarray]:
    """(the 6 cells next to every cell, the 12 cells two away), each sorted, as int64 rows
    padded with -1: ``geometry``'s lists for the numba kernels (Hexxagon's, Blockdance's playouts)."""
    _, adjacent, two_away = geometry(side)
    return tuple(padded([sorted(cells) for cells in lists], max(map(len, lists))) for lists in (adjacent, two_away))


def cell_name(side: int, cell: int) -> str:
    """``cell_name(8, 7)`` -> ``"h1"``: the doubled letter, then the row."""
    r, q = divmod(int(cell), 2 * side - 1)
    return f"{LETTERS[2 * q + r - (side - 1)]}{r + 1}"


def parse_cell(side: int, text: str) -> int:
    """The cell named ``text``; NotationError for bad text or a cell off the hexagon."""
    match = CELL.fullmatch(text)
    if match is None:
        raise NotationError(f"cannot read cell {text!r}: expected a letter and a row number, e.g. 'v4'")
    n = 2 * side - 1
    x, r = LETTERS.index(match.group(1)), int(match.group(2)) - 1
    doubled = x + side - 1 - r
    q = doubled // 2
    if not 0 <= r < n or doubled % 2 or not 0 <= q < n or not geometry(side)[0][r * n + q]:
        raise NotationError(f"cell {text!r} is not on the hexagon of side {side}")
    return r * n + q


def diagram(side: int, board: Sequence[int], symbols: Mapping[int, str]) -> str:
    """The board in the seeds' layout: the letters on top, one line a row, the row number right."""
    n, width = 2 * side - 1, 4 * (side - 1) + 1
    on = geometry(side)[0]
    lines = ["  " + LETTERS[:width]]
    for r in range(n):
        row = [symbols[int(board[c])] for c in range(r * n, (r + 1) * n) if on[c]]
        text = "  " + " " * abs(r - (side - 1)) + " ".join(row)
        lines.append(text.ljust(width + 4) + str(r + 1))
    return "\n".join(lines)


def read_diagram(side: int, text: str, values: Mapping[str, int], off_board: int) -> np.ndarray:
    """The board of a diagram in the seeds' layout: a line of the letters, then one line a row,
    each cell's symbol (a key of ``values``) under its letter; blank lines between the rows and
    what stands right of the board are ignored."""
    n, width = 2 * side - 1, 4 * (side - 1) + 1
    on = geometry(side)[0]
    lines = text.splitlines()
    top = next((k for k, line in enumerate(lines) if LETTERS[:width] in line), None)
    base = lines[top].index(LETTERS[:width]) if top is not None else 0
    lines = [line for line in lines[top + 1 :] if line.strip()] if top is not None else []
    if len(lines) < n:
        raise NotationError(f"a diagram needs the letters {LETTERS[:width]} and {n} rows under them")
    board = np.full(n * n, off_board, dtype=np.int8)
    for cell in np.flatnonzero(on):
        r, q = divmod(int(cell), n)
        line = lines[r]
        at = base + 2 * q + r - (side - 1)
        if at >= len(line) or line[at] not in values:
            raise NotationError(f"row {r + 1} of the diagram has no cell under {cell_name(side, cell)[0]}")
        board[cell] = values[line[at]]
    return board


def rotate(side: int, cell: int, centre: int, turns: int) -> int:
    """The cell that ``cell`` goes to when turned ``turns`` x 60 degrees clockwise (as printed:
    row 1 at the top) around ``centre``; -1 when that is off the board."""
    n = 2 * side - 1
    r, q = divmod(int(cell), n)
    cr, cq = divmod(int(centre), n)
    x, z = q - cq, r - cr  # cube coordinates of the offset: x + y + z = 0
    y = -x - z
    for _ in range(turns % 6):
        x, y, z = -z, -x, -y  # east (the next letter but one) goes to south-east (a row down)
    r, q = cr + z, cq + x
    return r * n + q if 0 <= r < n and 0 <= q < n and geometry(side)[0][r * n + q] else -1


@lru_cache(maxsize=None)
def hexagon_maps(side: int) -> tuple[tuple[str, np.ndarray, bool], ...]:
    """The 12 maps of the hexagon, identity first: 6 turns by 60 degrees, each with and without a
    reflection, as ``(name, image, reflects)`` with ``image[new] = old`` over the array's cells
    (cells off the board map to themselves)."""
    n, centre = 2 * side - 1, (side - 1) * 2 * side  # the middle cell, row and column side - 1
    maps = []
    for reflect in (False, True):
        for turn in range(6):
            image = np.arange(n * n)
            for cell in np.flatnonzero(geometry(side)[0]):
                r, q = divmod(int(cell), n)
                image[rotate(side, q * n + r if reflect else cell, centre, turn)] = cell  # reflect: swap r, q
            name = ("reflect_" if reflect else "") + f"turn{60 * turn}"
            maps.append(("identity" if not reflect and not turn else name, image, reflect))
    return tuple(maps)
