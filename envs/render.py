"""What every picture of a board (``render_mode="rgb_array"``) shares, drawn with Pillow.

Square boards share :func:`draw_square_board`: a background colour per cell,
an optional stone per cell, coordinates in the margin. Row 0 of the arrays is
drawn at the top. Each game draws its own board in its folder (``picture.py``)
with these pieces; this module names no game.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from PIL import Image, ImageDraw

RGB = tuple[int, int, int]
CELL = 48
MARGIN = 28
BOARD_LINE: RGB = (60, 60, 60)
STONE_COLOURS: dict[str, RGB] = {
    "black": (25, 25, 25),
    "white": (245, 245, 245),
    "blue": (40, 90, 200),
    "neutral": (150, 150, 150),
}


def draw_square_board(
    backgrounds: Sequence[Sequence[RGB]],
    stones: Sequence[Sequence[str | None]],
    row_labels: Sequence[str],
    column_labels: Sequence[str],
    marks: Sequence[Sequence[str]] | None = None,
) -> np.ndarray:
    """A grid of cells with stones (keys of STONE_COLOURS) and optional text marks."""
    rows, cols = len(backgrounds), len(backgrounds[0])
    image = Image.new("RGB", (2 * MARGIN + cols * CELL, 2 * MARGIN + rows * CELL), (235, 225, 200))
    draw = ImageDraw.Draw(image)
    for r in range(rows):
        for c in range(cols):
            x0, y0 = MARGIN + c * CELL, MARGIN + r * CELL
            draw.rectangle([x0, y0, x0 + CELL, y0 + CELL], fill=backgrounds[r][c], outline=BOARD_LINE)
            stone = stones[r][c]
            if stone is not None:
                pad = CELL // 7
                draw.ellipse(
                    [x0 + pad, y0 + pad, x0 + CELL - pad, y0 + CELL - pad],
                    fill=STONE_COLOURS[stone],
                    outline=BOARD_LINE,
                    width=2,
                )
            if marks is not None and marks[r][c]:
                draw.text((x0 + CELL // 2, y0 + CELL // 2), marks[r][c], fill=(200, 30, 30), anchor="mm")
    for r, label in enumerate(row_labels):
        draw.text((MARGIN // 2, MARGIN + r * CELL + CELL // 2), label, fill=(0, 0, 0), anchor="mm")
    for c, label in enumerate(column_labels):
        x = MARGIN + c * CELL + CELL // 2
        draw.text((x, MARGIN + rows * CELL + MARGIN // 2), label, fill=(0, 0, 0), anchor="mm")
    return np.asarray(image)
