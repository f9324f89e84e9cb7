"""The picture of a Biqala board: the two rings in each owner's colour, stone counts on the cells."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from envs.render import RGB, draw_square_board

# owner x ring: A's outer, A's inner, B's outer, B's inner; the transfer's source is marked
BIQALA_COLOURS: tuple[tuple[RGB, RGB], ...] = (((235, 205, 150), (210, 170, 110)), ((170, 200, 225), (120, 160, 200)))
SOURCE_COLOUR: RGB = (240, 240, 120)


def draw_biqala(board: Sequence[int], owner: Sequence[int], inner: Sequence[bool], source: int) -> np.ndarray:
    """The 6 x 4 grid, row 0 (A's outer board) at the top; lists are indexed row * 6 + column."""
    rows, cols = 4, 6
    cells = [[r * cols + c for c in range(cols)] for r in range(rows)]
    backgrounds = [
        [SOURCE_COLOUR if i == source else BIQALA_COLOURS[owner[i]][int(inner[i])] for i in line] for line in cells
    ]
    stones = [[None] * cols for _ in range(rows)]
    marks = [[str(board[i]) if board[i] else "" for i in line] for line in cells]
    return draw_square_board(backgrounds, stones, ["A", "A", "B", "B"], [""] * cols, marks)
