"""The picture of a Hexxagon board: a hexagon of hexagonal cells, stones in two colours."""

from __future__ import annotations

from typing import Sequence

import numpy as np
from PIL import Image, ImageDraw

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
