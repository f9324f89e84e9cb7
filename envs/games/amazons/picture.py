"""The picture of an Amazons board: amazons as stones, arrows as dark cells (the same in the
board view: an arrow is a neutral stone on a dark cell)."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from envs.board_view import colour
from envs.render import draw_square_board
from envs.stones.board import COLUMNS
from envs.stones.picture import WOOD

ARROW = (90, 60, 40)
AMAZON_OF_VALUE = (None, "white", "black", None)
ARROW_FILL, WOOD_FILL = colour(ARROW), colour(WOOD)


def amazons_cell_look(value: int) -> tuple[str, str, tuple[str, ...]]:
    """The board view of a cell holding ``value``: the first seat's amazons white, the second's
    black, an arrow a neutral stone on a dark cell (tagged ``arrow``)."""
    if value == 3:
        return "neutral", ARROW_FILL, ("arrow",)
    return AMAZON_OF_VALUE[value] or "", WOOD_FILL, ()


def draw_amazons(board: Sequence[int], n: int, marks: Sequence[str]) -> np.ndarray:
    """An n x n board, row 1 at the top (as the text prints it)."""
    rows = range(n)
    return draw_square_board(
        [[ARROW if board[r * n + c] == 3 else WOOD for c in range(n)] for r in rows],
        [[AMAZON_OF_VALUE[board[r * n + c]] for c in range(n)] for r in rows],
        [str(r + 1) for r in rows],
        list(COLUMNS[:n]),
        [[marks[r * n + c] for c in range(n)] for r in rows],
    )
