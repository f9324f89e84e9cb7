"""The picture of a Hop Chess board: checkered squares, pieces as letters, the hoppers."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from envs.render import RGB, draw_square_board

LIGHT, DARK, CHOSEN = (235, 215, 180), (180, 135, 95), (240, 240, 120)
HOPPER_STONES = {"@": "white", "#": "black"}


def draw_hop_chess(symbols: Sequence[str], chosen: int) -> np.ndarray:
    """The board, rank 8 at the top; ``symbols`` as in ``render_text`` (index rank * 8 + file)."""
    squares = [[rank * 8 + file for file in range(8)] for rank in range(7, -1, -1)]
    backgrounds: list[list[RGB]] = [
        [CHOSEN if s == chosen else (LIGHT if (s // 8 + s % 8) % 2 else DARK) for s in row] for row in squares
    ]
    stones = [[HOPPER_STONES.get(symbols[s]) for s in row] for row in squares]
    marks = [["" if symbols[s] in ".@#" else symbols[s] for s in row] for row in squares]
    return draw_square_board(backgrounds, stones, [str(r) for r in range(8, 0, -1)], list("abcdefgh"), marks)
