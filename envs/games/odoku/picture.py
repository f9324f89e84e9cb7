"""The picture of an Odoku board: the five regions coloured, decided groups marked."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from envs.render import RGB, draw_square_board

# Odoku: the five regions (cross and four corners) get their own colours.
REGION_COLOURS: tuple[RGB, ...] = (
    (250, 235, 160),  # cross
    (190, 225, 190),  # NE
    (190, 210, 240),  # SE
    (240, 200, 200),  # SW
    (220, 200, 235),  # NW
)


def draw_odoku(board: Sequence[int], region_of_cell: Sequence[int], status: Sequence[str | None]) -> np.ndarray:
    """Odoku board (north at the top) with regions coloured and decided groups marked.

    A decided row or column gets ``+`` (balanced) or ``-`` (unbalanced) in its
    margin; a decided region gets the mark in the corner of each of its empty cells.
    """
    size = 5
    sign = {None: "", "balanced": "+", "unbalanced": "-"}
    rows = list(reversed(range(size)))  # draw row 5 first
    backgrounds = [[REGION_COLOURS[region_of_cell[r * size + c]] for c in range(size)] for r in rows]
    stones = [[(None, "blue", "white")[board[r * size + c]] for c in range(size)] for r in rows]
    marks = [
        [sign[status[10 + region_of_cell[r * size + c]]] if board[r * size + c] == 0 else "" for c in range(size)]
        for r in rows
    ]
    row_labels = [f"{r + 1}{sign[status[r]]}" for r in rows]
    column_labels = [f"{'abcde'[c]}{sign[status[5 + c]]}" for c in range(size)]
    return draw_square_board(backgrounds, stones, row_labels, column_labels, marks)
