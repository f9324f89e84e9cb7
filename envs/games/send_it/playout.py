"""Send It's random playout in one numba kernel (``SendIt.random_playout``).

It plays the game the engine loop plays for the same seed (``ScheduledGame.engine_playout``):
one ``envs.kernels.draw`` per decision over the legal actions in the engine's order (the drops
in increasing cell order, then PASS), from any position, a turn begun included. Each decision
labels the groups once (their stones, their liberties, whether a drop of this turn is in one),
and a drop on an empty cell in sight is then legal by its neighbours alone: it keeps a
liberty when it touches an empty cell, a friendly group with another liberty, or a rival group
it captures (one whose last liberty it fills); with the group rule, no friendly group it joins
holds a drop of this turn. The drop played takes the groups so found by their labels. The rays and neighbours are the engine's (``send_it.geometry``).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from envs.kernels import CUT, EMPTY, draw, flat_rays
from envs.stones.flanking import count_winner


@lru_cache(maxsize=None)
def tables(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the orthogonal neighbours of every cell, ``(cells, 4)`` padded with -1; every cell's four
    rays one after another, nearest first; where each cell's rays start and end, ``(cells, 5)``)."""
    from envs.games.send_it.game import geometry  # here: the game module imports this one

    neighbours, rays = geometry(n)
    table = np.full((n * n, 4), -1, np.int64)
    for cell, others in enumerate(neighbours):
        table[cell, : len(others)] = others
    return (table, *flat_rays(rays))


@njit(cache=True)
def playout(
    board,
    neighbours,
    rays,
    bounds,
    seat,
    turn,
    moves_left,
    placed,
    passes,
    moves,
    move_limit,
    restricted,
    schedule,
    seed,
    cut,
    cut_board,
):
    """``(outcome, decisions, turns)`` of a random game from a position (not over): ``outcome``
    the winning seat's stone (1 or 2) or 0 for a draw by area; ``CUT`` once ``cut`` turns have
    ended (-1: never), the board then in ``cut_board``. ``neighbours``, ``rays``,
    ``bounds``: ``tables(n)``; ``placed``: the cells this turn has dropped on; ``passes``: the
    turns passed in a row; ``moves``: the drops of the game so far, against ``move_limit``;
    ``schedule``: the move counts (``TurnSchedule.counts``)."""
    cells = len(board)
    after = board.copy()
    dropped = np.zeros(cells, np.uint8)  # the cells this turn has dropped on
    for cell in placed:
        dropped[cell] = 1
    begun = len(placed) > 0
    legal = np.empty(cells, np.int64)
    work = (np.empty(cells, np.int64), np.empty(cells, np.int64), np.empty(cells, np.int64), np.empty(cells, np.int64))
    label, liberties, marked, stack = work
    holds_drop = np.empty(cells, np.uint8)
    decisions = turns = 0
    while True:
        if turns == cut:  # the game goes on: the heuristic scores the board
            cut_board[:] = after
            return CUT, decisions, turns
        piece = 1 + seat
        count = _drops(after, neighbours, rays, bounds, piece, restricted, dropped, legal, work, holds_drop)
        if count == 0 and begun:  # the turn has no drop left: it ends
            index = -1
        else:
            index, seed = draw(seed, count + 1)  # the drops, then PASS
            decisions += 1
        if 0 <= index < count:
            cell = legal[index]
            _drop(after, neighbours, cell, piece, label, liberties)
            dropped[cell] = 1
            begun = True
            moves += 1
            moves_left -= 1
            if moves >= move_limit:
                return _area_winner(after, neighbours, stack, marked), decisions, turns + 1
            if moves_left:
                continue
        passes = 0 if begun else passes + 1  # the turn is over: a drop ended it, or a PASS
        turns += 1
        if passes >= 2:
            return _area_winner(after, neighbours, stack, marked), decisions, turns
        seat, turn, begun = 1 - seat, turn + 1, False
        moves_left = schedule[min(turn, len(schedule) - 1)]
        dropped[:] = 0


@njit(cache=True)
def _drops(board, neighbours, rays, bounds, piece, restricted, dropped, out, work, holds_drop):
    """Write the cells ``piece`` may drop on (``SendItRules.options``), in order, into ``out``;
    return their count."""
    label, liberties, marked, stack = work
    _label(board, neighbours, dropped, label, liberties, marked, stack, holds_drop)
    count = 0
    for cell in range(len(board)):
        if board[cell] != EMPTY or not _in_sight(board, rays, bounds, cell, piece):
            continue
        free = joins_drop = False
        for k in range(neighbours.shape[1]):
            other = neighbours[cell, k]
            if other < 0:
                break
            v = board[other]
            if v == EMPTY:
                free = True
            elif v == piece:
                g = label[other]
                free |= liberties[g] >= 2  # a liberty besides this cell
                joins_drop |= holds_drop[g] == 1
            elif liberties[label[other]] == 1:
                free = True  # its last liberty is this cell: it is captured
        if free and not (restricted and joins_drop):
            out[count] = cell
            count += 1
    return count


@njit(cache=True)
def _label(board, neighbours, dropped, label, liberties, marked, stack, holds_drop):
    """Number the groups of stones (``label`` per stone), count each one's liberties and mark
    those that hold a cell of ``dropped``; return how many there are."""
    cells = len(board)
    for i in range(cells):
        label[i] = -1
        marked[i] = -1
    groups = 0
    for start in range(cells):
        colour = board[start]
        if colour == EMPTY or label[start] >= 0:
            continue
        label[start], stack[0], top = groups, start, 1
        libs, has_drop = 0, dropped[start]
        while top:
            top -= 1
            cell = stack[top]
            for k in range(neighbours.shape[1]):
                other = neighbours[cell, k]
                if other < 0:
                    break
                v = board[other]
                if v == EMPTY:
                    if marked[other] != groups:
                        marked[other] = groups
                        libs += 1
                elif v == colour and label[other] < 0:
                    label[other] = groups
                    has_drop |= dropped[other]
                    stack[top] = other
                    top += 1
        liberties[groups], holds_drop[groups] = libs, has_drop
        groups += 1
    return groups


@njit(cache=True)
def _in_sight(board, rays, bounds, cell, piece):
    """Whether the empty ``cell`` sees a ``piece`` stone along its row or column."""
    for k in range(4):
        for i in range(bounds[cell, k], bounds[cell, k + 1]):
            v = board[rays[i]]
            if v != EMPTY:
                if v == piece:
                    return True
                break
    return False


@njit(cache=True)
def _drop(board, neighbours, cell, piece, label, liberties):
    """Put ``piece`` on ``cell`` and take the rival groups next to it whose last liberty it was
    (``label`` and ``liberties`` as ``_label`` left them for the board before the drop)."""
    board[cell] = piece
    for k in range(neighbours.shape[1]):
        other = neighbours[cell, k]
        if other >= 0 and board[other] == 3 - piece and liberties[label[other]] == 1:
            group = label[other]
            for i in range(len(board)):
                if label[i] == group:
                    board[i] = EMPTY


@njit(cache=True)
def _area_winner(board, neighbours, stack, seen):
    """``SendItRules.area`` decided: 1 or 2 for the side with more area, 0 for equal areas."""
    area = board.copy()  # each empty region that touches one side only turns that side's
    for i in range(len(board)):
        seen[i] = 0
    for start in range(len(board)):
        if board[start] != EMPTY or seen[start]:
            continue
        seen[start], stack[0], size, top, touches = 1, start, 1, 0, 0
        while top < size:
            cell = stack[top]
            top += 1
            for k in range(neighbours.shape[1]):
                other = neighbours[cell, k]
                if other < 0:
                    break
                v = board[other]
                if v == EMPTY:
                    if not seen[other]:
                        seen[other] = 1
                        stack[size] = other
                        size += 1
                else:
                    touches |= v
        if touches == 1 or touches == 2:
            for i in range(size):
                area[stack[i]] = touches
    return count_winner(area)
