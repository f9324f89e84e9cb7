"""Biversi's rules in numba over ``envs.schedule.rows``' flat row: the ``envs.compiled``
functions (the engine of ``envs.games.biversi.game.Biversi``, the compiled search, the batched
env) and the random playout built on them.

A placement flanks lines of rival stones as at Reversi, on the torus: from a cell, each of the 8
directions meets the other n - 1 cells of its row, column or diagonal and then the cell itself,
which is empty while a stone is tried there, so a flanked line ends at another stone of the
mover's, never at the placed stone itself going round. Every flanked line flips. Without
``must_flank`` a placement is any empty cell next to a stone.

The sections are the 8-connected groups of stones on the torus. Stones are never taken off and
every placement touches a stone, so their number only falls; the row keeps it (its one entry
of Biversi's own, after the turn's), and while it is 2 or more the kernels label the sections
(a union-find in the context's scratch room) where a placement needs them: a turn's later
placements go next to a section none of its earlier ones is in.

The legal actions, in order: the placements in increasing cell order; at a turn's start with
none, PASS (the cell count) alone while the other seat has one; none when neither has, the end,
where more stones wins. The context (:class:`BiversiContext`) holds ``params``
(``envs.schedule.rows``' leading ones, then ``N`` and ``MUST_FLANK``), the schedule's move
counts, the torus's 8 neighbours of every cell and scratch room (:func:`context`).
"""

from __future__ import annotations

from collections import namedtuple
from functools import lru_cache

import numpy as np
from numba import njit

from envs.kernels import EMPTY, find
from envs.schedule import rows
from envs.schedule.rows import CELLS, MOST, MOVES_LEFT, OUTCOME, PARAMS, PLACED, PLACED_COUNT, SCALARS, SEAT
from envs.stones.flanking import count_winner

N, MUST_FLANK = PARAMS, PARAMS + 1  # params: the board's side, whether a placement must flank
KING_STEPS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))

BiversiContext = namedtuple("BiversiContext", ["params", "schedule", "neighbours", "parent", "flipped", "scratch"])


@lru_cache(maxsize=None)
def torus_neighbours(n: int) -> np.ndarray:
    """``(n * n, 8)`` int64: the neighbours of every cell in the directions of ``KING_STEPS``,
    wrapping round the edges."""
    return np.array(
        [[((r + dr) % n) * n + (c + dc) % n for dr, dc in KING_STEPS] for r in range(n) for c in range(n)],
        np.int64,
    )


def context(n: int, must_flank: bool, params: np.ndarray, schedule: np.ndarray) -> BiversiContext:
    """The context of an n x n torus: ``envs.schedule.rows``' leading ``params`` and the
    schedule's move counts."""
    cells = n * n
    return BiversiContext(
        np.array([*params, n, must_flank], np.int64),
        schedule,
        torus_neighbours(n),
        np.empty(cells, np.int64),
        np.empty(8 * n, np.int64),  # at most n - 2 stones in each of the 8 directions
        np.empty(cells, np.int64),
    )


# --- placements ----------------------------------------------------------------------------------
@njit(cache=True)
def flips(board, neighbours, cell, colour, out):
    """The rival stones a ``colour`` stone on the empty ``cell`` flanks into ``out``; their count
    (a stone may stand twice: two lines from a cell can cross on the torus)."""
    count = 0
    for k in range(8):
        start, at = count, neighbours[cell, k]
        while board[at] == 3 - colour:
            out[count] = at
            count += 1
            at = neighbours[at, k]
        if board[at] != colour:  # the line ends empty (the cell itself at the latest): no flank
            count = start
    return count


@njit(cache=True)
def placeable(board, neighbours, must_flank, colour, cell):
    """Whether a ``colour`` stone may go on the empty ``cell``, the section rule aside: it flanks
    a line (``must_flank``), or it touches a stone."""
    for k in range(8):
        at = neighbours[cell, k]
        if not must_flank:
            if board[at] != EMPTY:
                return True
            continue
        if board[at] != 3 - colour:
            continue
        at = neighbours[at, k]
        while board[at] == 3 - colour:
            at = neighbours[at, k]
        if board[at] == colour:
            return True
    return False


@njit(cache=True)
def sections(board, neighbours, parent):
    """The union-find of ``board``'s sections into ``parent``; their number."""
    groups = 0
    for cell in range(len(board)):
        parent[cell] = cell
    for cell in range(len(board)):
        if board[cell] == EMPTY:
            continue
        groups += 1
        for k in range(8):
            other = neighbours[cell, k]
            if board[other] != EMPTY:
                a, b = find(parent, cell), find(parent, other)
                if a != b:
                    parent[a] = b
                    groups -= 1
    return groups


@njit(cache=True)
def _opens_section(board, parent, neighbours, cell, row, placed_at, count):
    """Whether a neighbour of ``cell`` is a stone of a section none of the turn's ``count``
    placements (``row[placed_at:]``) is in."""
    for k in range(8):
        other = neighbours[cell, k]
        if board[other] == EMPTY:
            continue
        root = find(parent, other)
        touched = False
        for i in range(count):
            if find(parent, row[placed_at + i]) == root:
                touched = True
                break
        if not touched:
            return True
    return False


@njit(cache=True)
def placements(context, row, colour, count, out):
    """The cells a ``colour`` stone may go on in a turn that has placed ``count`` stones, in
    order, into ``out``; their number."""
    params, neighbours = context.params, context.neighbours
    cells = params[CELLS]
    board = row[:cells]
    apart = count > 0 and row[_groups_at(params)] >= 2
    if apart:
        sections(board, neighbours, context.parent)
    found = 0
    for cell in range(cells):
        if board[cell] != EMPTY or not placeable(board, neighbours, params[MUST_FLANK], colour, cell):
            continue
        if apart and not _opens_section(board, context.parent, neighbours, cell, row, 2 * cells + PLACED, count):
            continue
        out[found] = cell
        found += 1
    return found


@njit(cache=True, inline="always")
def _groups_at(params):
    """Where the row keeps the number of sections: its one entry of Biversi's own."""
    return 2 * params[CELLS] + SCALARS + params[MOST]


# --- the row's turns ----------------------------------------------------------------------------
@njit(cache=True)
def _options(context, row, out):
    """The legal actions of a running row into ``out``; their count (0: neither seat can place)."""
    cells = context.params[CELLS]
    meta = row[2 * cells :]
    colour, count = 1 + meta[SEAT], meta[PLACED_COUNT]
    found = placements(context, row, colour, count, out)
    if found == 0 and count == 0 and placements(context, row, 3 - colour, 0, out):
        out[0] = cells  # PASS: the other seat can place
        return 1
    return found


@njit(cache=True)
def legal(context, row, out):
    """The legal actions (module docstring) into ``out``; their count."""
    return 0 if rows.is_over(context, row) else _options(context, row, out)


@njit(cache=True)
def _end_turn(context, row, out):
    """The other seat's turn, or the end where neither seat can place; its legal actions into
    ``out``, their count. (Two passed turns in a row cannot come: a seat passes only while the
    other can place.)"""
    rows.begin_turn(context, row)
    rows.mark_origins(context, row)
    count = _options(context, row, out)
    if count == 0:
        cells = context.params[CELLS]
        row[2 * cells + OUTCOME] = count_winner(row[:cells])
    return count


@njit(cache=True)
def step(context, row, action, out):
    """Play the legal ``action``; the legal actions after it into ``out``, their count (0 at
    the end): a placement with its flips, the turn over when its count is reached or no
    placement is left for it, or the forced pass."""
    params = context.params
    cells = params[CELLS]
    meta = row[2 * cells :]
    if action == cells:  # PASS
        return _end_turn(context, row, out)
    colour, board, flipped = 1 + meta[SEAT], row[:cells], context.flipped
    for i in range(flips(board, context.neighbours, action, colour, flipped)):
        board[flipped[i]] = colour
    board[action] = colour
    at = _groups_at(params)
    if row[at] >= 2:
        row[at] = sections(board, context.neighbours, context.parent)
    rows.record_move(context, row, action)  # Biversi has no move limit
    if meta[MOVES_LEFT] > 0:
        count = _options(context, row, out)
        if count:
            return count
    return _end_turn(context, row, out)


@njit(cache=True)
def apply(context, row, action):
    """Play the legal ``action`` (:func:`step`)."""
    step(context, row, action, context.scratch)


@njit(cache=True)
def observe(context, row, out):
    """The observation (``rows.observe_turn``) with Biversi's planes: 2 all ones while the
    sections are apart, 3 all ones when x (seat 1) is to move."""
    rows.observe_turn(context, row, out)
    params = context.params
    meta = row[2 * params[CELLS] :]
    out[2] = 1.0 if row[_groups_at(params)] >= 2 else 0.0
    out[3] = float(meta[SEAT] if meta[OUTCOME] == rows.PLAYING else 0)


rows.register_game(BiversiContext, legal=legal, apply=apply, step=step, observe=observe)
