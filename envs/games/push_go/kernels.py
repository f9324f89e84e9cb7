"""Push Go's rules, written once, in numba over a flat int32 row: the engine (``envs.kit.RowGame``:
the state is the row), its random and cut playouts, the search driver and the batched env all
run them (docs/games/push_go.md).

A row holds the board (``cells`` entries, 0 empty, 1 x, 2 o), the board before the last turn
(what simple ko refuses to bring back), the scalars ``PLAYER, PASSES, TURNS, REPEATS, STORED``
(``REPEATS``: how often the position has stood, ``STORED`` the positions kept), under
``ko="push"`` the positions that have stood: a key a ``words``-entry slot from
:func:`history_start` on, the board and the player to move packed two bits a cell
(:func:`pack`), room for one a turn up to ``max_turns``; and last the board's side ``n`` (so a
state reads its board). The context is a :class:`PushGoContext`: ``params`` int64 ``[n,
push form code, ko code, max_turns, words]``, ``komi``, ``neighbours`` (each cell's orthogonal
neighbours, an (n*n, 4) array padded with -1) and scratch room for the kernels.

The rules are ``docs/games/push_go.md``'s: a placement that takes nothing is legal when the
stone has an empty neighbour or joins a group of its colour with another liberty; every other
placement and every push is tried whole (:func:`result`: the push into the stone's one liberty,
in the ``place`` or the ``move`` form; the enemy's groups left without liberties go, then a group
of the mover's without liberties makes it illegal; under ``ko="simple"`` a board equal to the one
before the opponent's last turn is refused). The end is two passes in a row or ``max_turns``
turns, scored by area and the komi, or under ``ko="push"`` the third time a position stands: a
draw. The legal actions: the placements by cell, the pushes by cell, the pass.
"""

from __future__ import annotations

from collections import namedtuple
from functools import cache

import numpy as np
from numba import njit

from envs.compiled import register
from envs.core import TERMINAL
from envs.row_playout import random_play
from envs.stones.board import neighbour_table

EMPTY = 0
ORTHOGONAL = ((-1, 0), (1, 0), (0, -1), (0, 1))
PUSH_FORMS = ("place", "move")  # ``push_form``'s code in the kernels: its index
KO_RULES = ("simple", "push")  # ``ko``'s code in the kernels: its index
REPETITIONS = 3  # ko="push": the third time a position stands ends the game drawn
PLAYER, PASSES, TURNS, REPEATS, STORED = range(5)  # after the two boards
SCALARS = 5
N, MOVE_FORM, PUSH_KO, MAX_TURNS, WORDS = range(5)  # params
CELLS_A_WORD = 16  # two bits a cell in an int32
PushGoContext = namedtuple(
    "PushGoContext",
    ["params", "komi", "neighbours", "after", "label", "size", "liberties", "stack", "mark", "stamp", "moves", "copy"],
)


@cache
def neighbours(n: int) -> np.ndarray:
    """Each cell's orthogonal neighbours (``envs.stones.board.neighbour_table``'s order) as an
    (n*n, 4) array padded with -1."""
    table = np.full((n * n, 4), -1, np.int64)
    for cell, found in enumerate(neighbour_table(n, ORTHOGONAL)):
        table[cell, : len(found)] = found
    return table


def words(cells: int) -> int:
    """The int32 entries of one packed position key (the board and the player to move)."""
    return -(-(cells + 1) // CELLS_A_WORD)


def history_start(cells: int) -> int:
    """Where a row's positions start: after the board, the previous board and the scalars."""
    return 2 * cells + SCALARS


def context(n: int, push_form: str, ko: str, max_turns: int, komi: float, width: int) -> PushGoContext:
    """The kernels' constants and scratch room for a game's settings (``width``: its rows')."""
    cells = n * n
    params = np.array([n, PUSH_FORMS.index(push_form), KO_RULES.index(ko), max_turns, words(cells)], np.int64)
    scratch = [np.empty(cells, np.int32)] + [np.empty(cells, np.int64) for _ in range(4)]
    return PushGoContext(
        params,
        np.array([komi], np.float64),
        neighbours(n),
        *scratch,
        np.zeros(cells, np.int64),  # mark: a cell met in search ``stamp`` (no clearing between searches)
        np.zeros(1, np.int64),
        np.empty(2 * cells + 1, np.int64),
        np.empty(width, np.int32),
    )


def width(n: int, ko: str, max_turns: int) -> int:
    """The entries of a row: the position, under ``ko="push"`` room for a key a turn (the start
    too), and the side last."""
    room = max_turns + 1 if ko == "push" else 0
    return history_start(n * n) + room * words(n * n) + 1


def start_row(context: PushGoContext, board, player: int) -> np.ndarray:
    """The row of ``board`` (0 empty, 1 x, 2 o) with ``player`` to move at the start of a game:
    no previous board to repeat, the position standing once (kept under ``ko="push"``)."""
    n = int(context.params[N])
    cells = n * n
    row = np.zeros(len(context.copy), np.int32)
    row[:cells] = row[cells : 2 * cells] = board
    row[2 * cells + PLAYER], row[2 * cells + REPEATS], row[-1] = player, 1, n
    if context.params[PUSH_KO]:
        start = history_start(cells)
        pack(row[:cells], player, row[start : start + words(cells)])
        row[2 * cells + STORED] = 1
    return row


@njit(cache=True)
def pack(board, player, out):
    """The key of ``board`` with ``player`` to move into ``out`` (``words`` entries), two bits a cell."""
    cells = len(board)
    for w in range(len(out)):
        word = 0
        for j in range(CELLS_A_WORD):
            i = w * CELLS_A_WORD + j
            value = board[i] if i < cells else (player if i == cells else 0)
            word |= np.int64(value) << (2 * j)
        out[w] = np.int32(np.uint32(word))


@njit(cache=True, inline="always")
def legal(context, row, out):
    """The legal actions into ``out[:count]``: the placements by cell, the pushes (``n*n +
    cell``) by cell, the pass; the count (0 at the end)."""
    params, adjacent = context.params, context.neighbours
    n = params[N]
    cells = n * n
    player = row[2 * cells + PLAYER]
    if player == TERMINAL:
        return 0
    board, previous = row[:cells], row[cells : 2 * cells]
    move_form, push_ko = params[MOVE_FORM], params[PUSH_KO]
    colour = player + 1
    enemy = 3 - colour
    label, size, liberties = context.label, context.size, context.liberties
    after, stack, mark, stamp = context.after, context.stack, context.mark, context.stamp
    label_groups(board, adjacent, label, size, liberties, stack, mark, stamp)
    count = 0
    for cell in range(cells):  # placements
        if board[cell] != EMPTY:
            continue
        captures = breathes = False
        for k in range(4):
            x = adjacent[cell, k]
            if x < 0:
                break
            if board[x] == enemy and liberties[label[x]] == 1:  # its one liberty is ``cell``
                captures = True
            elif board[x] == EMPTY or (board[x] == colour and liberties[label[x]] > 1):
                breathes = True
        if captures:  # only a capture can bring a board back (ko): the whole test
            if _result(board, previous, colour, cell, n, move_form, push_ko, adjacent, after, stack, mark, stamp):
                out[count] = cell
                count += 1
        elif breathes:
            out[count] = cell
            count += 1
    for cell in range(cells):  # pushes: an isolated enemy stone in atari
        if board[cell] == enemy and size[label[cell]] == 1 and liberties[label[cell]] == 1:
            if _result(
                board, previous, colour, cells + cell, n, move_form, push_ko, adjacent, after, stack, mark, stamp
            ):
                out[count] = cells + cell
                count += 1
    out[count] = 2 * cells  # the pass
    return count + 1


@njit(cache=True, inline="always")
def apply(context, row, action):
    """Play a legal ``action``: the board after it, the one before it kept as the previous
    board, the passes in a row, the turn, the player; under ``ko="push"`` the new position kept
    and counted. The game ends after a second pass in a row, at a position's third time or after
    ``max_turns`` turns."""
    params = context.params
    cells = params[N] ** 2
    board, previous, meta = row[:cells], row[cells : 2 * cells], row[2 * cells : 2 * cells + SCALARS]
    if action == 2 * cells:
        previous[:] = board
        meta[PASSES] += 1
    else:
        result(context, row, action)
        previous[:] = board
        board[:] = context.after
        meta[PASSES] = 0
    meta[TURNS] += 1
    meta[PLAYER] = 1 - meta[PLAYER]
    if meta[PASSES] >= 2:
        meta[PLAYER] = TERMINAL
        return
    if params[PUSH_KO]:
        size, stored = params[WORDS], meta[STORED]
        history = row[2 * cells + SCALARS :]
        key = history[stored * size : (stored + 1) * size]
        pack(board, meta[PLAYER], key)
        repeats = 0
        for k in range(stored + 1):
            repeats += _same(history[k * size : (k + 1) * size], key)
        meta[STORED], meta[REPEATS] = stored + 1, repeats
    if meta[REPEATS] >= REPETITIONS or meta[TURNS] >= params[MAX_TURNS]:
        meta[PLAYER] = TERMINAL


@njit(cache=True)
def to_play(context, row):
    return row[2 * context.params[N] ** 2 + PLAYER]


@njit(cache=True)
def returns(context, row, out):
    """+1 / -1 by area and komi at the end; zeros before it and for a draw (a third repetition,
    or no margin)."""
    out[0] = out[1] = 0.0
    cells = context.params[N] ** 2
    if row[2 * cells + PLAYER] == TERMINAL and row[2 * cells + REPEATS] < REPETITIONS:
        black, white = area(row[:cells], context.neighbours, context.stack, context.mark, context.stamp)
        margin = black - white - context.komi[0]
        if margin != 0:
            won = 0 if margin > 0 else 1
            out[won], out[1 - won] = 1.0, -1.0


@njit(cache=True)
def playout(context, row, seed, out):
    """The returns of ``envs.row_playout.random_play`` from ``row`` (left untouched) into ``out``."""
    copy = context.copy
    copy[:] = row
    won = random_play(context, copy, seed, -1, context.moves)[0]  # random_play scored the end already
    out[0] = out[1] = 0.0
    if won:
        out[won - 1], out[2 - won] = 1.0, -1.0


@njit(cache=True)
def observe(context, row, out):
    """The planes of ``PushGo``'s docstring into ``out`` (``[6 or 7, n, n]``): the mover's and the opponent's stones,
    those in atari, all ones where the mover is x, where the opponent passed last, and under
    ``ko="push"`` where the position stands for the second time."""
    cells = context.params[N] ** 2
    board, meta = row[:cells], row[2 * cells : 2 * cells + SCALARS]
    mover = (0 if meta[PLAYER] == TERMINAL else meta[PLAYER]) + 1
    label, liberties = context.label, context.liberties
    label_groups(board, context.neighbours, label, context.size, liberties, context.stack, context.mark, context.stamp)
    flat = out.reshape(out.shape[0], cells)
    flat[:] = 0.0
    for cell in range(cells):
        if board[cell] == EMPTY:
            continue
        mine = board[cell] == mover
        flat[0 if mine else 1, cell] = 1.0
        if liberties[label[cell]] == 1:
            flat[2 if mine else 3, cell] = 1.0
    flat[4, :] = 1.0 if mover == 1 else 0.0
    flat[5, :] = 1.0 if meta[PASSES] > 0 else 0.0
    if out.shape[0] > 6:
        flat[6, :] = 1.0 if meta[REPEATS] == REPETITIONS - 1 else 0.0


@njit(cache=True)
def _same(a, b):
    for k in range(len(a)):
        if a[k] != b[k]:
            return False
    return True


@njit(cache=True)
def label_groups(board, neighbours, label, size, liberties, stack, mark, stamp):
    """Every stone's group into ``label``, and each group's stones and liberties."""
    label[:] = -1
    groups = 0
    for start in range(len(board)):
        if board[start] == EMPTY or label[start] >= 0:
            continue
        colour = board[start]
        stamp[0] += 1
        seen = stamp[0]  # a local: the stores to ``mark`` may alias ``stamp`` for the compiler
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
                    if mark[x] != seen:
                        mark[x] = seen
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
    seen = stamp[0]
    mark[start] = seen
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
            if board[x] == colour and mark[x] != seen:
                mark[x] = seen
                stack[top] = x
                top += 1
    return False, top


@njit(cache=True)
def result(context, row, action):
    """Whether ``action`` is legal for the player to move, the board after it into
    ``context.after``. ``action``: a placement on an empty cell, or a push of an isolated enemy
    stone in atari (the callers offer no other)."""
    params = context.params
    n = params[N]
    cells = n * n
    return _result(
        row[:cells],
        row[cells : 2 * cells],
        row[2 * cells + PLAYER] + 1,
        action,
        n,
        params[MOVE_FORM],
        params[PUSH_KO],
        context.neighbours,
        context.after,
        context.stack,
        context.mark,
        context.stamp,
    )


@njit(cache=True)
def _result(board, previous, colour, action, n, move_form, push_ko, adjacent, after, stack, mark, stamp):
    """:func:`result` over the arrays it reads (one call a candidate action: no context to pass)."""
    cells = n * n
    enemy = 3 - colour
    after[:] = board
    first = second = action  # the cells the turn touched
    if action < cells:
        after[action] = colour
    else:
        cell = action - cells
        liberty = push_target(board, cell, colour, n, move_form, adjacent)
        if liberty < 0:
            return False
        if move_form:  # the mover's stone beyond, opposite the liberty, moves onto ``cell``
            after[2 * cell - liberty] = EMPTY
        after[liberty], after[cell] = enemy, colour
        first, second = cell, liberty
    for start in (first, second):  # the enemy's groups without liberties go
        for k in range(-1, 4):
            x = start if k < 0 else adjacent[start, k]
            if x < 0:
                break
            if after[x] == enemy:
                free, stones = _breathes(after, x, adjacent, stack, mark, stamp)
                if not free:
                    for i in range(stones):
                        after[stack[i]] = EMPTY
    for start in (first, second):  # then no group of the mover's may be without liberties
        for k in range(-1, 4):
            x = start if k < 0 else adjacent[start, k]
            if x < 0:
                break
            if after[x] == colour and not _breathes(after, x, adjacent, stack, mark, stamp)[0]:
                return False
    if push_ko:  # no ko rule: the push settles kos, repetition ends cycles
        return True
    for cell in range(cells):  # simple ko
        if after[cell] != previous[cell]:
            return True
    return False


@njit(cache=True)
def push_target(board, cell, colour, n, move_form, adjacent):
    """The liberty a push by ``colour`` sends the enemy stone on ``cell`` into: the stone must
    be isolated (no stone of its colour beside it) and in atari, and in the ``move`` form a stone
    of ``colour`` must stand beyond it, opposite the liberty; -1 where there is no push."""
    if board[cell] != 3 - colour:
        return -1
    liberty, free = -1, 0
    for k in range(4):
        x = adjacent[cell, k]
        if x < 0:
            break
        if board[x] == EMPTY:
            liberty, free = x, free + 1
        elif board[x] == board[cell]:
            return -1
    if free != 1:
        return -1
    if move_form:
        r, c = cell // n, cell % n
        rr, cc = 2 * r - liberty // n, 2 * c - liberty % n
        if rr < 0 or rr >= n or cc < 0 or cc >= n or board[rr * n + cc] != colour:
            return -1
    return liberty


@njit(cache=True)
def group_of(context, board, cell):
    """The stones and the liberties of the group on ``cell``."""
    label, size, liberties = context.label, context.size, context.liberties
    label_groups(board, context.neighbours, label, size, liberties, context.stack, context.mark, context.stamp)
    return size[label[cell]], liberties[label[cell]]


@njit(cache=True)
def area(board, neighbours, stack, mark, stamp):
    """(x, o) area: stones plus the empty regions that touch one colour only."""
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


@njit(cache=True)
def area_of(context, board):
    """:func:`area` of ``board`` (int32) with the context's scratch room."""
    return area(board, context.neighbours, context.stack, context.mark, context.stamp)


register(PushGoContext, legal=legal, apply=apply, to_play=to_play, returns=returns, playout=playout, observe=observe)
