"""Push Go's random playout in one numba kernel (``PushGo.random_playout``).

It plays the game the engine loop plays for the same seed (``Game.engine_playout``): one
``envs.kernels.draw`` per turn over the legal actions in ``PushGo.legal_actions``' order (the
placements by cell, the pushes by cell, the pass), from any position not over. The rules are
``game.py``'s, step for step: a placement that takes nothing is legal when the stone has an
empty neighbour or joins a group of its colour with another liberty (``legal_actions``' own
shortcut, which skips the ko test); every other placement and every push is tried as
``PushGo._result`` tries it (the push into the stone's one liberty, in the ``place`` or the
``move`` form; the enemy's groups left without liberties go, then a group of the mover's
without liberties makes it illegal; under ``ko="simple"`` a board equal to the one before the
opponent's last turn is refused). The end is two passes in a row or ``max_turns`` turns, scored
by ``PushGo.area`` and the komi, or under ``ko="push"`` the third time a position (the board and
the player to move, ``PushGoState.seen``'s keys) stands: a draw.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import njit

from envs.games.push_go.game import ORTHOGONAL, REPETITIONS
from envs.kernels import CUT, draw
from envs.stones.board import neighbour_table

EMPTY = 0
FORMS = ("place", "move")  # ``push_form``'s code in the kernel: its index


@cache
def neighbours(n: int) -> np.ndarray:
    """``PushGo.neighbours`` (the same table, the same order) as an (n*n, 4) array padded with -1."""
    table = np.full((n * n, 4), -1, np.int64)
    for cell, found in enumerate(neighbour_table(n, ORTHOGONAL)):
        table[cell, : len(found)] = found
    return table


@njit(cache=True)
def playout(board, previous, player, passes, turns, history, neighbours, rules, komi, seed, cut, cut_board):
    """``(outcome, decisions, turns)`` of a random game from a position (not over), as
    ``Game.engine_playout`` counts them: ``outcome`` 0 a draw, 1 or 2 the winning seat + 1;
    ``CUT`` once ``cut`` turns have ended (-1: never), the board then in ``cut_board``.
    ``board``, ``previous``: ``PushGoState``'s (uint8); ``history``: its ``seen``, a key a
    row (the board, then the player to move; none under simple ko); ``rules``: ``(n,
    push form code, ko code (0 simple, 1 push), max_turns)``."""
    n, move_form, push_ko, max_turns = rules[0], rules[1] == 1, rules[2] == 1, rules[3]
    cells = n * n
    board, previous = board.copy(), previous.copy()
    room = len(history) + max(max_turns - turns, 0) + 1 if push_ko else 0  # a row a turn at most
    seen = np.empty((room, cells + 1), np.uint8)
    seen[: len(history)] = history
    stored = len(history)
    after = np.empty(cells, np.uint8)
    options = np.empty(2 * cells + 1, np.int64)
    label = np.empty(cells, np.int64)  # each stone's group (its index in ``liberties``)
    size = np.empty(cells, np.int64)  # stones per group
    liberties = np.empty(cells, np.int64)  # liberties per group
    stack = np.empty(cells, np.int64)
    mark = np.zeros(cells, np.int64)  # a liberty counted in search ``mark[x]`` (no clearing)
    stamp = np.zeros(1, np.int64)
    decisions = 0
    while True:
        if decisions == cut:  # every turn one decision; the game goes on: the heuristic scores the board
            cut_board[:] = board
            return CUT, decisions, decisions
        colour = player + 1
        enemy = 3 - colour
        _label_groups(board, neighbours, label, size, liberties, stack, mark, stamp)
        count = 0
        for cell in range(cells):  # placements (``legal_actions``)
            if board[cell] != EMPTY:
                continue
            captures = False
            breathes = False
            for k in range(4):
                x = neighbours[cell, k]
                if x < 0:
                    break
                if board[x] == enemy and liberties[label[x]] == 1:  # its one liberty is ``cell``
                    captures = True
                elif board[x] == EMPTY or (board[x] == colour and liberties[label[x]] > 1):
                    breathes = True
            if captures:  # only a capture can bring a board back (ko): the whole test
                if _result(board, previous, colour, cell, n, move_form, push_ko, neighbours, after, stack, mark, stamp):
                    options[count] = cell
                    count += 1
            elif breathes:
                options[count] = cell
                count += 1
        for cell in range(cells):  # pushes: an isolated enemy stone in atari
            if board[cell] == enemy and size[label[cell]] == 1 and liberties[label[cell]] == 1:
                if _result(
                    board, previous, colour, cells + cell, n, move_form, push_ko, neighbours, after, stack, mark, stamp
                ):
                    options[count] = cells + cell
                    count += 1
        options[count] = 2 * cells  # the pass
        count += 1
        index, seed = draw(seed, count)
        action = options[index]
        decisions += 1
        if action == 2 * cells:  # ``PushGo.apply``
            previous[:] = board
            passes += 1
        else:
            _result(board, previous, colour, action, n, move_form, push_ko, neighbours, after, stack, mark, stamp)
            previous[:] = board
            board[:] = after
            passes = 0
        turns += 1
        player = 1 - player
        if passes < 2 and push_ko:  # ``PushGo._record``
            seen[stored, :cells] = board
            seen[stored, cells] = player
            repeats = 0
            for k in range(stored + 1):
                repeats += _same(seen[k], seen[stored])
            stored += 1
            if repeats >= REPETITIONS:
                return 0, decisions, decisions
        if passes >= 2 or turns >= max_turns:
            black, white = _area(board, neighbours, stack, mark, stamp)
            margin = black - white - komi
            return (0 if margin == 0 else (1 if margin > 0 else 2)), decisions, decisions


@njit(cache=True)
def _same(a, b):
    for k in range(len(a)):
        if a[k] != b[k]:
            return False
    return True


@njit(cache=True)
def _label_groups(board, neighbours, label, size, liberties, stack, mark, stamp):
    """Every stone's group into ``label``, and each group's stones and liberties."""
    label[:] = -1
    groups = 0
    for start in range(len(board)):
        if board[start] == EMPTY or label[start] >= 0:
            continue
        colour = board[start]
        stamp[0] += 1
        label[start] = groups
        stack[0] = start
        top, head, free = 1, 0, 0
        while head < top:
            stone = stack[head]
            head += 1
            for k in range(4):
                x = neighbours[stone, k]
                if x < 0:
                    break
                if board[x] == EMPTY:
                    if mark[x] != stamp[0]:
                        mark[x] = stamp[0]
                        free += 1
                elif board[x] == colour and label[x] < 0:
                    label[x] = groups
                    stack[top] = x
                    top += 1
        size[groups], liberties[groups] = top, free
        groups += 1


@njit(cache=True)
def _breathes(board, start, neighbours, stack, mark, stamp):
    """``(has a liberty, stones)``: the group through ``start`` into ``stack[:stones]``; the
    search stops at the first liberty (then ``stones`` is partial)."""
    colour = board[start]
    stamp[0] += 1
    mark[start] = stamp[0]
    stack[0] = start
    top, head = 1, 0
    while head < top:
        stone = stack[head]
        head += 1
        for k in range(4):
            x = neighbours[stone, k]
            if x < 0:
                break
            if board[x] == EMPTY:
                return True, top
            if board[x] == colour and mark[x] != stamp[0]:
                mark[x] = stamp[0]
                stack[top] = x
                top += 1
    return False, top


@njit(cache=True)
def _result(board, previous, colour, action, n, move_form, push_ko, neighbours, after, stack, mark, stamp):
    """``PushGo._result``: whether ``action`` is legal, the board after it into ``after``.
    ``action``: a placement on an empty cell, or a push of an isolated enemy stone in atari."""
    cells = n * n
    enemy = 3 - colour
    after[:] = board
    first = second = action  # the cells the turn touched
    if action < cells:
        after[action] = colour
    else:  # the caller offers only isolated enemy stones in atari: find the one liberty
        cell = action - cells
        liberty = -1
        for k in range(4):
            x = neighbours[cell, k]
            if x >= 0 and board[x] == EMPTY:
                liberty = x
        if move_form:  # the mover's stone beyond, opposite the liberty, moves onto ``cell`` (on the board,
            # beyond is the mover's: the stone's other neighbours are; off it, no push)
            r, c = cell // n, cell % n
            rr, cc = 2 * r - liberty // n, 2 * c - liberty % n
            if rr < 0 or rr >= n or cc < 0 or cc >= n or board[rr * n + cc] != colour:
                return False
            after[rr * n + cc] = EMPTY
        after[liberty], after[cell] = enemy, colour
        first, second = cell, liberty
    for start in (first, second):  # the enemy's groups without liberties go
        for k in range(-1, 4):
            x = start if k < 0 else neighbours[start, k]
            if x < 0:
                break
            if after[x] == enemy:
                free, stones = _breathes(after, x, neighbours, stack, mark, stamp)
                if not free:
                    for i in range(stones):
                        after[stack[i]] = EMPTY
    for start in (first, second):  # then no group of the mover's may be without liberties
        for k in range(-1, 4):
            x = start if k < 0 else neighbours[start, k]
            if x < 0:
                break
            if after[x] == colour and not _breathes(after, x, neighbours, stack, mark, stamp)[0]:
                return False
    if push_ko:  # no ko rule: the push settles kos, repetition ends cycles
        return True
    for cell in range(cells):  # simple ko
        if after[cell] != previous[cell]:
            return True
    return False


@njit(cache=True)
def _area(board, neighbours, stack, mark, stamp):
    """``PushGo.area``: (x, o), stones plus the empty regions that touch one colour only."""
    scores = np.zeros(3, np.int64)
    stamp[0] += 1
    seen = stamp[0]
    for cell in range(len(board)):
        scores[board[cell]] += 1
    for start in range(len(board)):
        if board[start] != EMPTY or mark[start] == seen:
            continue
        mark[start] = seen
        stack[0] = start
        top, head, touches = 1, 0, 0
        while head < top:
            cell = stack[head]
            head += 1
            for k in range(4):
                x = neighbours[cell, k]
                if x < 0:
                    break
                if board[x] == EMPTY:
                    if mark[x] != seen:
                        mark[x] = seen
                        stack[top] = x
                        top += 1
                else:
                    touches |= 1 << board[x]
        if touches == 2:
            scores[1] += top
        elif touches == 4:
            scores[2] += top
    return scores[1], scores[2]
