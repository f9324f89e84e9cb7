"""Pictures of stone boards: stones by board value on square cells, on hexagonal ones, or on a
hexagon of hexagonal cells (``envs.stones.hexagon``)."""

from __future__ import annotations

from typing import Sequence

import numpy as np
from PIL import Image, ImageDraw

from envs.render import BOARD_LINE, CELL, MARGIN, RGB, STONE_COLOURS, draw_square_board
from envs.stones.board import COLUMNS

# Stone games (Hex, Gomoku, Reversi and their neutral variants): board values
# 0 empty, 1 first colour, 2 second colour, 3 neutral.
STONE_OF_VALUE = (None, "black", "white", "neutral")
WOOD: RGB = (220, 180, 110)


def draw_stone_square(board: Sequence[int], n: int, marks: Sequence[str]) -> np.ndarray:
    """An n x n board of stones, row 1 at the top (Gomoku, Reversi)."""
    rows = range(n)
    return draw_square_board(
        [[WOOD] * n for _ in rows],
        [[STONE_OF_VALUE[board[r * n + c]] for c in range(n)] for r in rows],
        [str(r + 1) for r in rows],
        list(COLUMNS[:n]),
        [[marks[r * n + c] for c in range(n)] for r in rows],
    )


def draw_hex_cell(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, value: int, mark: str) -> None:
    """One pointy-top hexagonal cell with its stone (board value) and mark."""
    x, y = centre
    width = radius * 3**0.5
    corners = [
        (0.5 * width, -0.5 * radius),
        (0, -radius),
        (-0.5 * width, -0.5 * radius),
        (-0.5 * width, 0.5 * radius),
        (0, radius),
        (0.5 * width, 0.5 * radius),
    ]
    draw.polygon([(x + dx, y + dy) for dx, dy in corners], fill=WOOD, outline=BOARD_LINE)
    stone = STONE_OF_VALUE[value]
    if stone is not None:
        pad = radius * 0.7
        draw.ellipse([x - pad, y - pad, x + pad, y + pad], fill=STONE_COLOURS[stone], outline=BOARD_LINE, width=2)
    if mark:
        draw.text((x, y), mark, fill=(200, 30, 30), anchor="mm")


def draw_hexagon_board(board: Sequence[int], side: int, marks: Sequence[str]) -> np.ndarray:
    """A hexagon of side ``side`` (``envs.stones.hexagon``), row 1 at the top, each cell at its
    doubled letter column; board values as ``STONE_OF_VALUE``, negative off the board."""
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
