"""Blockdance's one rule: which blocks of a player's men may turn around a pivot, and where they go.

A move turns a connected block of the mover's men, one of them the pivot, by ``angle`` x 60
degrees clockwise around the pivot; every man lands on an empty cell, an enemy man (taken) or
a cell that the block itself leaves. So a man whose landing cell holds a man of the mover's
forces that man into the block too, and a man whose landing cell is off the board can never
be in it.

For one pivot and angle the legal blocks are closed under union (two legal blocks through
the pivot are connected through it, and each man's forced partner is in one of them), so
there is a largest one, :func:`largest_block`: a set S through the pivot can be grown
into a legal block exactly when S lies inside it. That is what lets the engine offer the
block's men one at a time without a dead end.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Sequence

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


def _component(start: int, allowed: set[int], adjacent) -> set[int]:
    found, todo = {start}, [start]
    while todo:
        for other in adjacent[todo.pop()]:
            if other in allowed and other not in found:
                found.add(other)
                todo.append(other)
    return found


def largest_block(board: Sequence[int], pivot: int, image: Sequence[int], adjacent) -> frozenset[int]:
    """The largest connected block through ``pivot`` (a man on ``board``) whose every man may
    land where ``image`` sends it; the pivot alone when no other man may join it."""
    piece = board[pivot]
    group = group_of(board, pivot, adjacent)
    usable = set()
    for man in group:  # follow the men it forces in: all must land on the board
        cell = man
        for _ in range(6):
            target = image[cell]
            if target < 0:
                break
            if board[target] != piece or target == man:
                usable.add(man)
                break
            cell = target
    allowed = usable
    while True:
        block = _component(pivot, allowed, adjacent)
        closed = {m for m in block if board[image[m]] != piece or image[m] in block}
        if len(closed) == len(block):
            return frozenset(block)
        allowed = closed


def moves_something(board: Sequence[int], block: Iterable[int], image: Sequence[int]) -> bool:
    """Whether turning ``block`` changes the board: some man lands outside the block's own cells
    (a block that turns onto itself, a ring round its pivot, would be a pass in disguise)."""
    piece = None
    for man in block:
        piece = board[man] if piece is None else piece
        if board[image[man]] != piece:
            return True
    return False


def is_legal_block(board: Sequence[int], block: frozenset[int] | set[int], image: Sequence[int]) -> bool:
    """Whether ``block`` (connected men of one colour through the pivot) may turn: two men or
    more, each landing on the board on an empty cell, an enemy or a cell of the block, and the
    board changes."""
    if len(block) < 2:
        return False
    piece = board[next(iter(block))]
    for man in block:
        target = image[man]
        if target < 0 or (board[target] == piece and target not in block):
            return False
    return moves_something(board, block, image)


def turn_block(board: list[int], block: Iterable[int], image: Sequence[int]) -> int:
    """Turn ``block`` in place on ``board``; the number of enemy men taken."""
    men = list(block)
    piece = board[men[0]]
    targets = [image[m] for m in men]
    for man in men:
        board[man] = EMPTY
    taken = 0
    for target in targets:
        taken += board[target] not in (EMPTY, piece)
        board[target] = piece
    return taken
