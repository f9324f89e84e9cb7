"""The picture of a Hex board: a rhombus of hexagonal cells, each side in the colour that joins it."""

from __future__ import annotations

from typing import Sequence

import numpy as np
from PIL import Image, ImageDraw

from envs.board_view import HEX_RADIUS, HEX_ROW, STONE_FILLS, Label, Layout, Line, colour
from envs.render import BOARD_LINE, CELL, MARGIN, STONE_COLOURS
from envs.stones.board import COLUMNS
from envs.stones.picture import draw_hex_cell


def draw_hex_board(board: Sequence[int], n: int, marks: Sequence[str]) -> np.ndarray:
    """A rhombic Hex board (row r shifted half a cell right of row r-1).

    The top and bottom edges are drawn in the first colour (Vertical joins
    them), the left and right edges in the second colour.
    """
    radius = CELL / 2
    width = radius * 3**0.5  # flat-to-flat width of a pointy-top hexagon
    dy = 1.5 * radius

    def centre(r: float, c: float) -> tuple[float, float]:
        return MARGIN + width * (c + 0.5 * r + 0.5), MARGIN + radius + dy * r

    size = (int(2 * MARGIN + width * (1.5 * n)), int(2 * MARGIN + dy * (n - 1) + 2 * radius))
    image = Image.new("RGB", size, (235, 225, 200))
    draw = ImageDraw.Draw(image)
    edge_width = 6
    first, second = STONE_COLOURS["black"], STONE_COLOURS["white"]
    top_left, top_right = centre(-0.6, -0.6), centre(-0.6, n - 0.4)
    bottom_left, bottom_right = centre(n - 0.4, -0.6), centre(n - 0.4, n - 0.4)
    for start, end in ((top_left, bottom_left), (top_right, bottom_right)):
        draw.line([start, end], fill=BOARD_LINE, width=edge_width + 2)  # a rim for the light colour
        draw.line([start, end], fill=second, width=edge_width)
    draw.line([top_left, top_right], fill=first, width=edge_width)
    draw.line([bottom_left, bottom_right], fill=first, width=edge_width)
    for r in range(n):
        for c in range(n):
            draw_hex_cell(draw, centre(r, c), radius, board[r * n + c], marks[r * n + c])
        x, y = centre(r, -1)
        draw.text((x + radius * 0.3, y), str(r + 1), fill=(0, 0, 0), anchor="mm")
    for c in range(n):
        draw.text((centre(0, c)[0], centre(-1, c)[1] + radius * 0.3), COLUMNS[c], fill=(0, 0, 0), anchor="mm")
    return np.asarray(image)


def hex_layout(n: int) -> Layout:
    """The rhombus as vector geometry (``envs.board_view``): row r shifted half a cell right of
    row r-1, the top and bottom sides in the first colour, the left and right in the second."""

    def centre(r: float, c: float) -> tuple[float, float]:
        return c + 0.5 * r + 0.5, HEX_RADIUS + HEX_ROW * r

    first, second, rim = STONE_FILLS["black"], STONE_FILLS["white"], colour(BOARD_LINE)
    top_left, top_right = centre(-0.6, -0.6), centre(-0.6, n - 0.4)
    bottom_left, bottom_right = centre(n - 0.4, -0.6), centre(n - 0.4, n - 0.4)
    lines = []
    for (x1, y1), (x2, y2) in ((top_left, bottom_left), (top_right, bottom_right)):
        lines += [Line(x1, y1, x2, y2, rim, 0.3), Line(x1, y1, x2, y2, second, 0.2)]  # a rim for the light colour
    for (x1, y1), (x2, y2) in ((top_left, top_right), (bottom_left, bottom_right)):
        lines.append(Line(x1, y1, x2, y2, first, 0.24))
    labels = [Label(*centre(r, -1.05), str(r + 1)) for r in range(n)]
    labels += [Label(centre(-1.1, c)[0] + 0.25, centre(-1.1, c)[1], COLUMNS[c]) for c in range(n)]
    centres = tuple(centre(r, c) for r in range(n) for c in range(n))
    return Layout(1.5 * n - 0.5, 2 * HEX_RADIUS + HEX_ROW * (n - 1), "hex", centres, tuple(lines), tuple(labels))
