"""Biversi's random playout in one numba kernel (``Biversi.random_playout``).

It plays the game the engine loop plays for the same seed (``ScheduledGame.engine_playout``):
one ``envs.kernels.draw`` per decision over the legal actions in the engine's order (the
placements in increasing cell order, or the forced PASS alone), from any position, a turn
begun included. Flanking runs through Reversi's kernels on the board's 3 x 3 tiling, as the
engine's (``envs.games.biversi.torus``), kept up to date cell by cell instead of tiled afresh;
the sections are a union-find over the torus's 8-neighbourhood, kept as stones are added
(stones are never taken off, so groups only merge).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from envs.kernels import EMPTY, draw, find
from envs.stones.flanking import captures, captures_any, count_winner


@njit(cache=True)
def playout(board, n, must_flank, seat, turn, moves_left, placed_now, schedule, neighbours, torus_of, centre, seed):
    """``(outcome, decisions, turns)`` of a random game from a position (not over): ``outcome``
    the winning seat's stone (1 or 2) or 0 for a draw. ``placed_now``: the cells this turn has
    placed on; ``schedule``: the move counts (``TurnSchedule.counts``); ``neighbours``:
    ``torus_neighbours(n)``; ``torus_of``, ``centre``: ``tiling(n)``."""
    cells, big = n * n, 3 * n
    after, tiled, parent, groups = _setup(board, n, neighbours, torus_of)
    placed = np.empty(schedule.max() + 1, np.int64)
    count = len(placed_now)
    placed[:count] = placed_now
    moves = np.empty(cells, np.int64)
    roots = np.empty(len(placed), np.int64)
    flipped = np.empty(8 * n, np.int64)
    decisions = turns = 0
    while True:
        colour = 1 + seat
        legal = _options(
            after, tiled, n, must_flank, colour, placed, count, groups, parent, neighbours, centre, roots, moves
        )
        if legal == 0 and count == 0:  # a turn start without a placement: a forced pass, or the end
            if (
                _options(
                    after, tiled, n, must_flank, 3 - colour, placed, 0, groups, parent, neighbours, centre, roots, moves
                )
                == 0
            ):
                return count_winner(after), decisions, turns
            _, seed = draw(seed, 1)  # the forced pass is a decision with one choice
            decisions += 1
        elif legal:
            index, seed = draw(seed, legal)
            cell = moves[index]
            for i in range(captures(tiled, big, centre[cell], colour, flipped)):
                _set(after, tiled, n, torus_of[flipped[i]], colour)
            _set(after, tiled, n, cell, colour)
            groups += 1 - _join(after, parent, neighbours, cell)
            decisions += 1
            placed[count] = cell
            count += 1
            moves_left -= 1
            if moves_left:
                continue  # the turn goes on while it has a placement left
        turns += 1  # the turn is over: its quota is filled, it has no placement left, or it passed
        seat, turn, count = 1 - seat, turn + 1, 0
        moves_left = schedule[min(turn, len(schedule) - 1)]


@njit(cache=True)
def legal_cells(board, n, must_flank, colour, placed_now, neighbours, torus_of, centre):
    """The cells (int64, in increasing order) a ``colour`` stone may go on in a turn that has
    placed on ``placed_now``: ``BiversiRules.options``, by the playout's own ``_options``."""
    after, tiled, parent, groups = _setup(board, n, neighbours, torus_of)
    count = len(placed_now)
    placed = np.empty(max(count, 1), np.int64)
    placed[:count] = placed_now
    roots = np.empty(len(placed), np.int64)
    out = np.empty(n * n, np.int64)
    found = _options(after, tiled, n, must_flank, colour, placed, count, groups, parent, neighbours, centre, roots, out)
    return out[:found]


@njit(cache=True)
def place(board, n, cell, colour, torus_of, centre):
    """Put a ``colour`` stone on the empty ``cell`` and flip every line of rival stones it flanks
    on the torus (``BiversiRules.play``), as the playout does."""
    flipped = np.empty(8 * n, np.int64)  # at most n - 2 stones in each of the 8 directions
    for i in range(captures(_tile(board, torus_of), 3 * n, centre[cell], colour, flipped)):
        board[torus_of[flipped[i]]] = colour  # the antipode, on both diagonals, is set twice
    board[cell] = colour


@njit(cache=True)
def _tile(board, torus_of):
    """The board's 3 x 3 tiling (uint8), for Reversi's flanking kernels."""
    tiled = np.empty(len(torus_of), np.uint8)
    for i in range(len(torus_of)):
        tiled[i] = board[torus_of[i]]
    return tiled


@njit(cache=True)
def section_count(board, neighbours):
    """The number of sections (8-connected groups of stones on the torus) on ``board``."""
    return _sections(board, neighbours)[1]


@njit(cache=True)
def _sections(board, neighbours):
    """(the union-find of ``board``'s sections, their number)."""
    parent = np.arange(len(board))
    groups = 0
    for cell in range(len(board)):
        if board[cell] != EMPTY:
            groups += 1 - _join(board, parent, neighbours, cell)
    return parent, groups


@njit(cache=True)
def _setup(board, n, neighbours, torus_of):
    """(a copy of ``board`` as uint8, its 3 x 3 tiling, the union-find of its sections, their
    number)."""
    cells = n * n
    after = np.empty(cells, np.uint8)
    tiled = _tile(board, torus_of)
    for cell in range(cells):
        after[cell] = board[cell]
    parent, groups = _sections(after, neighbours)
    return after, tiled, parent, groups


@njit(cache=True)
def _options(board, tiled, n, must_flank, colour, placed, count, groups, parent, neighbours, centre, roots, out):
    """Write the cells a ``colour`` stone may go on (``BiversiRules.options``), in order, into
    ``out``; return their count. While the sections are apart and the turn has placed, a cell
    must touch a section that none of the turn's ``count`` placements is in."""
    apart = groups >= 2 and count > 0
    for i in range(count):
        roots[i] = find(parent, placed[i])
    found = 0
    for cell in range(n * n):
        if board[cell] != EMPTY:
            continue
        if must_flank:
            if not captures_any(tiled, 3 * n, centre[cell], colour):
                continue
        elif not _touches(board, neighbours, cell):
            continue
        if apart and not _touches_open_section(board, parent, neighbours, cell, roots, count):
            continue
        out[found] = cell
        found += 1
    return found


@njit(cache=True)
def _touches(board, neighbours, cell):
    for k in range(neighbours.shape[1]):
        if board[neighbours[cell, k]] != EMPTY:
            return True
    return False


@njit(cache=True)
def _touches_open_section(board, parent, neighbours, cell, roots, count):
    """Whether a neighbour of ``cell`` is a stone of a section none of ``roots[:count]`` is."""
    for k in range(neighbours.shape[1]):
        other = neighbours[cell, k]
        if board[other] == EMPTY:
            continue
        root = find(parent, other)
        touched = False
        for i in range(count):
            if roots[i] == root:
                touched = True
                break
        if not touched:
            return True
    return False


@njit(cache=True)
def _join(board, parent, neighbours, cell):
    """Union the stone on ``cell`` with the stones next to it; the number of sets merged into it."""
    merged = 0
    for k in range(neighbours.shape[1]):
        other = neighbours[cell, k]
        if board[other] != EMPTY:
            a, b = find(parent, cell), find(parent, other)
            if a != b:
                parent[a] = b
                merged += 1
    return merged


@njit(cache=True)
def _set(board, tiled, n, cell, value):
    """Put ``value`` on the torus ``cell`` and on its 9 copies in the tiling."""
    board[cell] = value
    r, c, big = cell // n, cell % n, 3 * n
    for i in range(3):
        for j in range(3):
            tiled[(r + i * n) * big + c + j * n] = value
