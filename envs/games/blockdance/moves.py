"""Blockdance's board values and where a turn sends each cell (the rotation rule itself, which
blocks may turn and the turn, is ``kernels.py``'s), and a man's group for the notation."""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

import numpy as np

from envs.stones.hexagon import geometry, rotate

EMPTY, OFF_BOARD = 0, -1
PIECE = (1, 2)  # the board value of seat 0's men (Y) and seat 1's (O)
ANGLES = (1, 2, 3, 4, 5)  # clockwise, in sixths of a full turn; a full turn moves nothing


@lru_cache(maxsize=None)
def rotation_table(side: int) -> np.ndarray:
    """``table[angle, pivot, cell]``: where ``cell`` goes turned around ``pivot`` (-1 off the
    board), for every angle 0..5 and on-board pivot and cell (-1 elsewhere)."""
    n = 2 * side - 1
    on = np.flatnonzero(geometry(side)[0])
    table = np.full((6, n * n, n * n), -1, dtype=np.int16)
    for angle in range(6):
        for pivot in on:
            for cell in on:
                table[angle, pivot, cell] = rotate(side, int(cell), int(pivot), angle)
    return table


def landing(side: int, pivot: int, angle: int) -> list[int]:
    """Every cell's landing cell turned ``angle`` around ``pivot`` (-1: off the board)."""
    return rotation_table(side)[angle, pivot].tolist()


def group_of(board: Sequence[int], cell: int, adjacent) -> set[int]:
    """The men of ``cell``'s colour connected to it (its maximal group)."""
    piece, group, todo = board[cell], {cell}, [cell]
    while todo:
        for other in adjacent[todo.pop()]:
            if other not in group and board[other] == piece:
                group.add(other)
                todo.append(other)
    return group
