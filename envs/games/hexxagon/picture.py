"""The picture of a Hexxagon board: a hexagon of hexagonal cells, stones in two colours; and its
geometry for the board view."""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

import numpy as np
from PIL import Image, ImageDraw

from envs.board_view import HEX_RADIUS, HEX_ROW, Label, Layout
from envs.render import CELL, MARGIN
from envs.stones.picture import draw_hex_cell


def draw_hexxagon(board: Sequence[int], side: int, marks: Sequence[str]) -> np.ndarray:
    """Row 1 at the top; each cell at its doubled letter column (module doc of the game)."""
    radius = CELL / 2
    half = radius * 3**0.5 / 2  # half the flat-to-flat width: one doubled column
    n = 2 * side - 1
    size = (int(2 * MARGIN + half * (4 * side - 2)), int(2 * MARGIN + 1.5 * radius * (n - 1) + 2 * radius))
    image = Image.new("RGB", size, (235, 225, 200))
    draw = ImageDraw.Draw(image)
    for cell, value in enumerate(board):
        if value < 0:
            continue
        r, q = divmod(cell, n)
        x = 2 * q + r - (side - 1)
        draw_hex_cell(
            draw, (MARGIN + half * (x + 1), MARGIN + radius + 1.5 * radius * r), radius, int(value), marks[cell]
        )
    return np.asarray(image)


@lru_cache(maxsize=None)
def hexxagon_layout(side: int, letters: str) -> Layout:
    """The hexagon as vector geometry (``envs.board_view``), row 1 at the top: cell ``r * n + q``
    at its doubled letter column ``2q + r - (side - 1)`` (half a cell width a letter), the
    ``letters`` above the board, every row's number left of its first cell."""
    n, k = 2 * side - 1, side - 1
    centres: list[tuple[float, float] | None] = []
    labels = []
    for r in range(n):
        for q in range(n):
            on = k <= r + q <= 3 * k
            centres.append((0.5 * (2 * q + r - k + 1), HEX_RADIUS + HEX_ROW * r) if on else None)
        first = abs(r - k)  # the doubled column of the row's first cell
        labels.append(Label(0.5 * (first + 1) - 0.85, HEX_RADIUS + HEX_ROW * r, str(r + 1)))
    labels += [Label(0.5 * (x + 1), -0.45, letters[x]) for x in range(4 * k + 1)]
    return Layout(float(n), 2 * HEX_RADIUS + HEX_ROW * (n - 1), "hex", tuple(centres), (), tuple(labels))
