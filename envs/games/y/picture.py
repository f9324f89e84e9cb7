"""The picture of a Y board: a triangle of hexagonal cells."""

from __future__ import annotations

from typing import Sequence

import numpy as np
from PIL import Image, ImageDraw

from envs.board_view import HEX_RADIUS, HEX_ROW, Label, Layout
from envs.render import CELL, MARGIN
from envs.stones.picture import draw_hex_cell


def draw_y_board(board: Sequence[int], n: int, marks: Sequence[str], bottom_names: Sequence[str]) -> np.ndarray:
    """A triangular Y board of hexagonal cells, row 1 (n cells) at the bottom, row n at the top.

    Cell ``r * n + c`` with r + c <= n-1 (the rest of the array is off the board);
    ``bottom_names`` labels row 1's cells, row numbers go on the left.
    """
    radius = CELL / 2
    width = radius * 3**0.5
    dy = 1.5 * radius

    def centre(r: float, c: float) -> tuple[float, float]:
        return MARGIN + width * (c + 0.5 * r + 0.5), MARGIN + radius + dy * (n - 1 - r)

    size = (int(2 * MARGIN + width * n), int(2 * MARGIN + dy * (n - 1) + 2 * radius))
    image = Image.new("RGB", size, (235, 225, 200))
    draw = ImageDraw.Draw(image)
    for r in range(n):
        for c in range(n - r):
            draw_hex_cell(draw, centre(r, c), radius, board[r * n + c], marks[r * n + c])
        x, y = centre(r, -0.5)
        draw.text((x - radius * 0.2, y), str(r + 1), fill=(0, 0, 0), anchor="mm")
    for c, name in enumerate(bottom_names):
        x, y = centre(0, c)
        draw.text((x, y + radius + MARGIN // 2 - 2), name, fill=(0, 0, 0), anchor="mm")
    return np.asarray(image)


def y_layout(n: int, names: Sequence[str]) -> Layout:
    """The triangle as vector geometry (``envs.board_view``), row 1 at the bottom; ``names``
    are row 1's cell names, written under it (row numbers go on the left)."""

    def centre(r: float, c: float) -> tuple[float, float]:
        return c + 0.5 * r + 0.5, HEX_RADIUS + HEX_ROW * (n - 1 - r)

    centres = tuple(centre(*divmod(cell, n)) if sum(divmod(cell, n)) <= n - 1 else None for cell in range(n * n))
    labels = [Label(*centre(r, -0.85), str(r + 1)) for r in range(n)]
    labels += [Label(centre(0, c)[0], centre(0, c)[1] + 0.95, names[c]) for c in range(n)]
    return Layout(n, 2 * HEX_RADIUS + HEX_ROW * (n - 1) + 0.6, "hex", centres, (), tuple(labels))
