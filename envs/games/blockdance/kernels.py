"""Blockdance's rules, written once, in numba over a flat int32 row: which blocks may turn
around a pivot, the turn itself, and the game's micro-steps, which the engine
(``envs.kit.RowGame``: the state is the row), the random and cut playouts, the search driver
and the batched env all run (docs/games/blockdance.md).

A move turns a connected block of the mover's men, one of them the pivot, by ``angle`` x 60
degrees clockwise around the pivot; every man lands on an empty cell, an enemy man (taken) or
a cell that the block itself leaves. So a man whose landing cell holds a man of the mover's
forces that man into the block too, and a man whose landing cell is off the board can never
be in it. For one pivot and angle the legal blocks are closed under union (two legal blocks
through the pivot are connected through it, and each man's forced partner is in one of
them), so there is a largest one (:func:`largest_block`): a set S through the pivot can be
grown into a legal block exactly when S lies inside it. That is what lets a turn offer the
block's men one at a time without a dead end.

A row (int32) holds the board (``cells`` values: ``OFF_BOARD``, ``EMPTY``, or ``PIECE[seat]``),
then the scalars ``PLAYER`` (the seat, or ``envs.core.TERMINAL``), ``PIVOT`` (-1 none),
``ANGLE`` (0 none), ``TURNS``, ``IDLE`` (turns since a capture), ``PASSES`` (in a row),
``WINNER`` (-1 none), ``SIZE`` (the block's men so far), ``REACH`` (the men of the chosen
angle's largest block, 0 before the angle), then the block's men in the order chosen (the
pivot first), then the largest block's men by cell (each list ``params[MOST]`` entries, -1 past
its count: a side never has more men than at the start), and last the board's cell count. The
context is a :class:`BlockdanceContext`: ``params`` int64 ``[cells, free_pass, idle_limit,
max_turns, most]``, :func:`rotation_table` and the cells' neighbours
(``envs.stones.hexagon.tables``), and scratch room the kernels leave zeroed. The legal actions
come in increasing order (the pivots by cell, then the pass; the angles 1..5; the men that may
join the block and the pivot again, by cell).
"""

from __future__ import annotations

from collections import namedtuple
from functools import lru_cache

import numpy as np
from numba import njit

from envs.compiled import register
from envs.core import TERMINAL
from envs.row_playout import random_play
from envs.stones import hexagon

EMPTY, OFF_BOARD = 0, -1
PIECE = (1, 2)  # the board value of seat 0's men (Y) and seat 1's (O)
ANGLES = (1, 2, 3, 4, 5)  # clockwise, in sixths of a full turn; a full turn moves nothing
PLAYER, PIVOT, ANGLE, TURNS, IDLE, PASSES, WINNER, SIZE, REACH = range(9)  # after the board
SCALARS = 9
CELLS, FREE_PASS, IDLE_LIMIT, MAX_TURNS, MOST = range(5)  # params
BlockdanceContext = namedtuple(
    "BlockdanceContext", ["params", "rotation", "adjacent", "allowed", "in_out", "group", "stack", "found", "mask"]
)


def context(side: int, free_pass: bool, idle_limit: int, max_turns: int, most: int) -> BlockdanceContext:
    """The kernels' constants for a hexagon of side ``side`` whose sides have at most ``most``
    men, and their scratch room."""
    cells = (2 * side - 1) ** 2
    params = np.array([cells, free_pass, idle_limit, max_turns, most], np.int64)
    scratch = [np.zeros(cells, np.uint8), np.zeros(cells, np.uint8), np.empty(cells, np.int64)]
    scratch += [np.empty(cells, np.int64), np.empty(cells, np.int64), np.zeros(cells, np.uint8)]
    return BlockdanceContext(params, rotation_table(side), hexagon.tables(side)[0], *scratch)


def row_of(
    context: BlockdanceContext,
    board,
    player: int,
    pivot: int,
    angle: int,
    block,
    turns: int,
    idle: int,
    passes: int,
    winner: int,
) -> np.ndarray:
    """The row of these fields (a turn begun included: the chosen angle's largest block is
    worked out), the board's cell count last (so a state reads its board)."""
    cells, most = int(context.params[CELLS]), int(context.params[MOST])
    row = np.full(cells + SCALARS + 2 * most + 1, -1, np.int32)
    row[:cells] = board
    row[cells : cells + SIZE] = (player, pivot, 0, turns, idle, passes, winner)
    row[cells + SIZE], row[cells + REACH], row[-1] = len(block), 0, cells
    row[cells + SCALARS : cells + SCALARS + len(block)] = block
    if angle:
        apply(context, row, cells + angle - 1)  # the angle chosen, as a turn chooses it
    return row


@lru_cache(maxsize=None)
def rotation_table(side: int) -> np.ndarray:
    """``table[angle, pivot, cell]``: where ``cell`` goes turned around ``pivot`` (-1 off the
    board), for every angle 0..5 and on-board pivot and cell (-1 elsewhere)."""
    n = 2 * side - 1
    on = np.flatnonzero(hexagon.geometry(side)[0])
    table = np.full((6, n * n, n * n), -1, dtype=np.int16)
    for angle in range(6):
        for pivot in on:
            for cell in on:
                table[angle, pivot, cell] = hexagon.rotate(side, int(cell), int(pivot), angle)
    return table


# --- the rotation rule -------------------------------------------------------------------------------
@njit(cache=True, inline="always")  # inside largest_block, the hot path
def group_of(context, board, cell):
    """The men of ``cell``'s colour connected to it (its maximal group) into ``context.group``;
    their count."""
    adjacent, in_out, group, piece = context.adjacent, context.in_out, context.group, board[cell]
    group[0], in_out[cell], size, top = cell, 1, 1, 0  # marked in ``in_out`` for the moment
    while top < size:
        here = group[top]
        top += 1
        for k in range(adjacent.shape[1]):
            other = adjacent[here, k]
            if other >= 0 and not in_out[other] and board[other] == piece:
                in_out[other] = 1
                group[size] = other
                size += 1
    for i in range(size):
        in_out[group[i]] = 0
    return size


@njit(cache=True)
def largest_block(context, board, pivot, angle):
    """The largest connected block through ``pivot`` (a man on ``board``) whose every man may
    land where turning by ``angle`` sends it: its men into ``context.found``, their count (1:
    the pivot alone). The pivot's group, less the men whose chain of forced partners runs off
    the board, then cut down until connected and closed (every forced partner inside)."""
    image, adjacent = context.rotation[angle, pivot], context.adjacent
    allowed, in_out, group, kept, out = context.allowed, context.in_out, context.group, context.stack, context.found
    piece = board[pivot]
    size = group_of(context, board, pivot)
    for i in range(size):  # follow the men it forces in: all must land on the board
        man = group[i]
        cell = man
        for _ in range(6):
            target = image[cell]
            if target < 0:
                break
            if board[target] != piece or target == man:
                allowed[man] = 1
                break
            cell = target
    while True:
        # the component of the pivot in ``allowed``
        out[0], in_out[pivot], count, top = pivot, 1, 1, 0
        while top < count:
            cell = out[top]
            top += 1
            for k in range(adjacent.shape[1]):
                other = adjacent[cell, k]
                if other >= 0 and allowed[other] and not in_out[other]:
                    in_out[other] = 1
                    out[count] = other
                    count += 1
        closed = 0
        for i in range(count):
            m = out[i]
            if board[image[m]] != piece or in_out[image[m]]:
                kept[closed] = m
                closed += 1
        for i in range(count):
            in_out[out[i]] = 0
        for i in range(size):
            allowed[group[i]] = 0
        if closed == count:
            return count
        for i in range(closed):
            allowed[kept[i]] = 1


@njit(cache=True)
def turning_block(context, board, pivot, angle):
    """``largest_block``'s count (its men in ``context.found``) where the block turns: two men
    or more, and some man lands outside the block's own cells (a ring turned onto itself
    would be a pass in disguise); else 0."""
    count = largest_block(context, board, pivot, angle)
    if count < 2:
        return 0
    image, piece = context.rotation[angle, pivot], board[pivot]
    for i in range(count):
        if board[image[context.found[i]]] != piece:
            return count
    return 0


@njit(cache=True)
def can_pivot(context, board, pivot):
    """Whether a block through the man on ``pivot`` turns by some angle."""
    for angle in range(1, 6):
        if turning_block(context, board, pivot, angle):
            return True
    return False


@njit(cache=True)
def pivots_into(context, board, piece, out):
    """The cells of the men of ``piece`` (1 or 2) that may pivot, into ``out``; their count."""
    count = 0
    for cell in range(context.params[CELLS]):
        if board[cell] == piece and can_pivot(context, board, cell):
            out[count] = cell
            count += 1
    return count


@njit(cache=True)
def can_turn(context, board, block, pivot, angle):
    """Whether ``block`` (connected men of one colour, the pivot first) may turn: two men or
    more, each landing on the board on an empty cell, an enemy or a cell of the block, and
    the board changes."""
    size = len(block)
    if size < 2:
        return False
    image, in_block = context.rotation[angle, pivot], context.mask
    for i in range(size):
        in_block[block[i]] = 1
    piece, legal, moves = board[block[0]], True, False
    for i in range(size):
        target = image[block[i]]
        if target < 0 or (board[target] == piece and not in_block[target]):
            legal = False
            break
        moves |= board[target] != piece
    for i in range(size):
        in_block[block[i]] = 0
    return legal and moves


@njit(cache=True)
def turn_block(context, board, block, pivot, angle):
    """Turn ``block`` on ``board`` in place; the number of enemy men taken."""
    image, piece = context.rotation[angle, pivot], board[block[0]]
    for i in range(len(block)):
        board[block[i]] = EMPTY
    taken = 0
    for i in range(len(block)):
        target = image[block[i]]
        taken += board[target] != EMPTY and board[target] != piece
        board[target] = piece
    return taken


# --- the game over a row ----------------------------------------------------------------------------
@njit(cache=True)
def legal(context, row, out):
    """The legal actions: the pivots and the pass; the angles; the men next to the
    block in its largest block, and the pivot again where the block turns."""
    params = context.params
    cells = params[CELLS]
    board, meta = row[:cells], row[cells:]
    if meta[PLAYER] == TERMINAL:
        return 0
    pivot, angle = meta[PIVOT], meta[ANGLE]
    if pivot < 0:
        count = pivots_into(context, board, 1 + meta[PLAYER], out)
        if params[FREE_PASS] or count == 0:
            out[count] = cells + 5
            count += 1
        return count
    count = 0
    if angle == 0:
        for a in range(1, 6):
            if turning_block(context, board, pivot, a):
                out[count] = cells + a - 1
                count += 1
        return count
    block = meta[SCALARS : SCALARS + meta[SIZE]]
    turns = can_turn(context, board, block, pivot, angle)
    in_block, adjacent = context.mask, context.adjacent
    for man in block:
        in_block[man] = 1
    reach = SCALARS + params[MOST]
    for man in meta[reach : reach + meta[REACH]]:  # by cell, the pivot among them
        if man == pivot:
            if turns:
                out[count] = man
                count += 1
        elif not in_block[man]:
            for k in range(adjacent.shape[1]):
                other = adjacent[man, k]
                if other >= 0 and in_block[other]:
                    out[count] = man
                    count += 1
                    break
    for man in block:
        in_block[man] = 0
    return count


@njit(cache=True)
def apply(context, row, action):
    """Play the legal ``action``: the pass, the pivot, the angle, a man joining
    the block, or the pivot again (the turn)."""
    cells = context.params[CELLS]
    meta = row[cells:]
    if action == cells + 5:
        meta[PASSES] += 1
        _end_turn(context, row, 0)
    elif meta[PIVOT] < 0:
        meta[PIVOT], meta[SIZE], meta[SCALARS] = action, 1, action
    elif meta[ANGLE] == 0:
        meta[ANGLE] = action - cells + 1
        count = largest_block(context, row[:cells], meta[PIVOT], meta[ANGLE])
        reach = meta[SCALARS + context.params[MOST] : SCALARS + context.params[MOST] + count]
        reach[:] = context.found[:count]
        reach.sort()
        meta[REACH] = count
    elif action != meta[PIVOT]:
        meta[SCALARS + meta[SIZE]] = action
        meta[SIZE] += 1
    else:
        taken = turn_block(context, row[:cells], meta[SCALARS : SCALARS + meta[SIZE]], meta[PIVOT], meta[ANGLE])
        meta[PASSES] = 0
        _end_turn(context, row, taken)


@njit(cache=True)
def _end_turn(context, row, taken):
    """The turn ends: the other side's turn, or the end (every enemy man killed, two
    passes in a row, ``idle_limit`` turns without a capture, ``max_turns`` turns)."""
    params = context.params
    cells = params[CELLS]
    meta = row[cells:]
    mover = meta[PLAYER]
    meta[TURNS] += 1
    meta[IDLE] = 0 if taken else meta[IDLE] + 1
    meta[PLAYER] = 1 - mover
    meta[SCALARS : SCALARS + meta[SIZE]] = -1
    most = context.params[MOST]
    meta[SCALARS + most : SCALARS + most + meta[REACH]] = -1
    meta[PIVOT], meta[ANGLE], meta[SIZE], meta[REACH] = -1, 0, 0, 0
    enemy = 0
    for cell in range(cells):
        enemy += row[cell] == 2 - mover
    if enemy == 0:
        meta[WINNER], meta[PLAYER] = mover, TERMINAL
        return
    if meta[PASSES] >= 2 or meta[IDLE] >= params[IDLE_LIMIT] or meta[TURNS] >= params[MAX_TURNS]:
        meta[PLAYER] = TERMINAL


@njit(cache=True)
def to_play(context, row):
    return row[context.params[CELLS] + PLAYER]


@njit(cache=True)
def returns(context, row, out):
    """+1 / -1 once a side has killed every enemy man; zeros otherwise."""
    meta = row[context.params[CELLS] :]
    out[:] = 0.0
    if meta[PLAYER] == TERMINAL and meta[WINNER] >= 0:
        out[meta[WINNER]], out[1 - meta[WINNER]] = 1.0, -1.0


@njit(cache=True)
def playout(context, row, seed, out):
    """The returns of ``envs.row_playout.random_play`` from ``row`` (left untouched) to the end."""
    row = row.copy()
    random_play(context, row, seed, -1, np.empty(context.params[CELLS] + 1, np.int64))
    returns(context, row, out)


@njit(cache=True)
def observe(context, row, out):
    """The planes of ``Blockdance``'s docstring: the men from the mover's view, the board, the pivot,
    the block and where it lands, the angle, the pass, the two counters."""
    params = context.params
    cells = params[CELLS]
    meta = row[cells:]
    flat = out.reshape(out.shape[0], cells)
    flat[:] = 0.0
    mover = 0 if meta[PLAYER] == TERMINAL else meta[PLAYER]
    pivot, angle = meta[PIVOT], meta[ANGLE]
    for cell in range(cells):
        value = row[cell]
        flat[0, cell] = 1.0 if value == 1 + mover else 0.0
        flat[1, cell] = 1.0 if value == 2 - mover else 0.0
        flat[2, cell] = 1.0 if value >= 0 else 0.0
    block = meta[SCALARS : SCALARS + meta[SIZE]]
    if pivot >= 0:
        flat[3, pivot] = 1.0
        for man in block:
            flat[4, man] = 1.0
    if angle:
        image = context.rotation[angle, pivot]
        for man in block:
            flat[5, image[man]] = 1.0
        flat[5 + angle] = 1.0
    flat[11] = 1.0 if meta[PASSES] > 0 else 0.0
    flat[12] = np.float32(meta[IDLE] / params[IDLE_LIMIT])
    flat[13] = np.float32(meta[TURNS] / params[MAX_TURNS])


register(
    BlockdanceContext, legal=legal, apply=apply, to_play=to_play, returns=returns, playout=playout, observe=observe
)
