"""The picture of a Biversi board: stones on a square grid whose edges wrap, the first seat's
(o) black, the second's (x) white, as the board view draws them."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from envs.render import draw_square_board
from envs.stones.board import COLUMNS
from envs.stones.picture import WOOD

STONE_OF_VALUE = (None, "black", "white")


def draw_biversi(board: Sequence[int], n: int, marks: Sequence[str]) -> np.ndarray:
    """An n x n board, row 1 at the top (as the text prints it)."""
    rows = range(n)
    return draw_square_board(
        [[WOOD] * n for _ in rows],
        [[STONE_OF_VALUE[board[r * n + c]] for c in range(n)] for r in rows],
        [str(r + 1) for r in rows],
        list(COLUMNS[:n]),
        [[marks[r * n + c] for c in range(n)] for r in rows],
    )
