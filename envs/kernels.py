"""Numba kernels for the stone games' hot paths: Hex chains and Reversi captures.

They read the board as it is stored in ``envs.stones.StoneState`` (a
``bytearray`` of colours: 0 empty, 1 and 2 the colours, 3 neutral), so no
conversion happens per call. Compiled on first use and cached on disk.
"""

from __future__ import annotations

import numpy as np
from numba import njit

EMPTY = 0


@njit(cache=True)
def chain_joins(board, colour, start, neighbours, first_edge, second_edge):
    """Whether the ``colour`` chain through ``start`` touches both of the colour's edges.

    ``neighbours`` is a (cells, 6) array padded with -1; the edges are 0/1 per cell.
    """
    if board[start] != colour:
        return False
    cells = len(board)
    seen = np.zeros(cells, np.uint8)
    stack = np.empty(cells, np.int64)
    stack[0] = start
    seen[start] = 1
    top, first, second = 1, False, False
    while top:
        top -= 1
        cell = stack[top]
        first = first or first_edge[cell] == 1
        second = second or second_edge[cell] == 1
        if first and second:
            return True
        for k in range(neighbours.shape[1]):
            other = neighbours[cell, k]
            if other >= 0 and seen[other] == 0 and board[other] == colour:
                seen[other] = 1
                stack[top] = other
                top += 1
    return False


@njit(cache=True)
def captures(board, n, cell, colour, out):
    """Write into ``out`` the stones a ``colour`` stone on ``cell`` flanks; return their count.

    A line is one or more stones that are neither empty nor ``colour`` (enemy or
    neutral), closed by a ``colour`` stone, in any of the 8 directions.
    """
    r0, c0 = cell // n, cell % n
    count = 0
    for dr in range(-1, 2):
        for dc in range(-1, 2):
            if dr == 0 and dc == 0:
                continue
            r, c, start, closed = r0 + dr, c0 + dc, count, False
            while 0 <= r < n and 0 <= c < n:
                v = board[r * n + c]
                if v == EMPTY:
                    break
                if v == colour:
                    closed = True
                    break
                out[count] = r * n + c
                count += 1
                r += dr
                c += dc
            if not closed:
                count = start
    return count


@njit(cache=True)
def captures_any(board, n, cell, colour):
    """Whether a ``colour`` stone on ``cell`` flanks at least one line."""
    r0, c0 = cell // n, cell % n
    for dr in range(-1, 2):
        for dc in range(-1, 2):
            if dr == 0 and dc == 0:
                continue
            r, c, length = r0 + dr, c0 + dc, 0
            while 0 <= r < n and 0 <= c < n:
                v = board[r * n + c]
                if v == EMPTY:
                    break
                if v == colour:
                    if length:
                        return True
                    break
                length += 1
                r += dr
                c += dc
    return False


@njit(cache=True)
def capturing_cells(board, n, colour, value):
    """The cells holding ``value`` (empty, or neutral) where a ``colour`` stone captures."""
    out = np.empty(len(board), np.int64)
    count = 0
    for cell in range(len(board)):
        if board[cell] == value and captures_any(board, n, cell, colour):
            out[count] = cell
            count += 1
    return out[:count]


@njit(cache=True)
def placements_after(board, n, cell, colour, value):
    """``capturing_cells`` for ``value`` once a ``colour`` stone has gone on ``cell`` and captured."""
    after = np.empty(len(board), np.uint8)
    for i in range(len(board)):
        after[i] = board[i]
    flipped = np.empty(4 * n, np.int64)
    for i in range(captures(board, n, cell, colour, flipped)):
        after[flipped[i]] = colour
    after[cell] = colour
    return capturing_cells(after, n, colour, value)


@njit(cache=True)
def empty_cells_touching(board, n):
    """The empty cells with a non-empty cell among their 8 neighbours."""
    out = np.empty(len(board), np.int64)
    count = 0
    for cell in range(len(board)):
        if board[cell] != EMPTY:
            continue
        r0, c0 = cell // n, cell % n
        found = False
        for r in range(max(r0 - 1, 0), min(r0 + 2, n)):
            for c in range(max(c0 - 1, 0), min(c0 + 2, n)):
                if board[r * n + c] != EMPTY:
                    found = True
        if found:
            out[count] = cell
            count += 1
    return out[:count]


@njit(cache=True)
def line_through(board, n, cell, colour, length):
    """Whether ``length`` or more ``colour`` stones lie in a row (any of 4 directions) through ``cell``."""
    if board[cell] != colour:
        return False
    r0, c0 = cell // n, cell % n
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            r, c = r0 + sign * dr, c0 + sign * dc
            while 0 <= r < n and 0 <= c < n and board[r * n + c] == colour:
                run += 1
                r += sign * dr
                c += sign * dc
        if run >= length:
            return True
    return False


# --- random playouts of the plain games ---------------------------------------------------------
# Each plays uniformly random legal moves from a position to the end and draws from the
# numpy Generator exactly as the engine loop ``legal[rng.integers(len(legal))]`` does
# (legal cells in increasing order, one draw per decision, passes included), so for the
# same generator state it plays the same game.


@njit(cache=True)
def _remove_at(cells, count, index):
    for i in range(index, count - 1):
        cells[i] = cells[i + 1]


@njit(cache=True)
def _find(parent, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@njit(cache=True)
def _link(board, n, parent, neighbours, cell):
    """Union a stone with its same-coloured neighbours and its colour's edge nodes."""
    colour, cells = board[cell], n * n
    r, c = cell // n, cell % n
    along = r if colour == 1 else c
    base = cells + 2 * (colour - 1)  # colour 1: nodes cells, cells+1; colour 2: cells+2, cells+3
    if along == 0:
        parent[_find(parent, cell)] = _find(parent, base)
    if along == n - 1:
        parent[_find(parent, cell)] = _find(parent, base + 1)
    for k in range(neighbours.shape[1]):
        other = neighbours[cell, k]
        if other >= 0 and board[other] == colour:
            parent[_find(parent, cell)] = _find(parent, other)


@njit(cache=True)
def hex_playout(board, n, colour, neighbours, rng):
    """Random Hex from ``board`` (``colour`` to move): (winning colour, decisions)."""
    cells = n * n
    after = np.empty(cells, np.uint8)
    empty = np.empty(cells, np.int64)
    count = 0
    for i in range(cells):
        after[i] = board[i]
        if board[i] == EMPTY:
            empty[count] = i
            count += 1
    parent = np.arange(cells + 4)
    for i in range(cells):
        if after[i] == 1 or after[i] == 2:
            _link(after, n, parent, neighbours, i)
    decisions = 0
    while count:
        index = rng.integers(0, count)
        cell = empty[index]
        _remove_at(empty, count, index)
        count -= 1
        after[cell] = colour
        _link(after, n, parent, neighbours, cell)
        decisions += 1
        base = cells + 2 * (colour - 1)
        if _find(parent, base) == _find(parent, base + 1):
            return colour, decisions
        colour = 3 - colour
    return 0, decisions


@njit(cache=True)
def gomoku_playout(board, n, colour, length, rng):
    """Random Gomoku from ``board`` (``colour`` to move): (winning colour or 0, decisions)."""
    cells = n * n
    after = np.empty(cells, np.uint8)
    empty = np.empty(cells, np.int64)
    count = 0
    for i in range(cells):
        after[i] = board[i]
        if board[i] == EMPTY:
            empty[count] = i
            count += 1
    decisions = 0
    while count:
        index = rng.integers(0, count)
        cell = empty[index]
        _remove_at(empty, count, index)
        count -= 1
        after[cell] = colour
        decisions += 1
        if line_through(after, n, cell, colour, length):
            return colour, decisions
        colour = 3 - colour
    return 0, decisions


@njit(cache=True)
def reversi_playout(board, n, colour, rng):
    """Random Reversi from ``board`` (``colour`` to move): (winning colour or 0, decisions)."""
    cells = n * n
    after = np.empty(cells, np.uint8)
    for i in range(cells):
        after[i] = board[i]
    flipped = np.empty(4 * n, np.int64)
    decisions = 0
    while True:
        moves = capturing_cells(after, n, colour, EMPTY)
        if len(moves) == 0:
            if len(capturing_cells(after, n, 3 - colour, EMPTY)) == 0:
                break
            rng.integers(0, 1)  # the forced pass is a decision with one choice
        else:
            cell = moves[rng.integers(0, len(moves))]
            for i in range(captures(after, n, cell, colour, flipped)):
                after[flipped[i]] = colour
            after[cell] = colour
        decisions += 1
        colour = 3 - colour
    first = second = 0
    for i in range(cells):
        first += after[i] == 1
        second += after[i] == 2
    return (1 if first > second else 2 if second > first else 0), decisions
