"""Pictures of stone boards: stones by board value on square cells or on hexagonal ones."""

from __future__ import annotations

from typing import Sequence

import numpy as np
from PIL import ImageDraw

from envs.render import BOARD_LINE, RGB, STONE_COLOURS, draw_square_board
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
