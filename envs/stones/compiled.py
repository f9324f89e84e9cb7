"""The rules of the one-stone-a-turn games, written once in numba over a flat int32 row: the
plain placement games (Hex, Y, Gomoku; with or without the pie rule) and Reversi. The row is
the state of ``envs.stones.rules.StoneGame`` (``envs.kit``), so its engine, playouts, the
compiled search and the batched env all play this code.

A row of any stone game (these and the neutral games', ``envs.neutral.compiled``) holds the
board (``cells`` colours: ``envs.kernels.EMPTY``, ``FIRST``, ``SECOND``, ``NEUTRAL``,
``OFF_BOARD``), then ``SCALARS`` entries: ``COLOUR`` (the colour to move), ``SWAPPED`` (the
pie swap taken), ``TURNS`` (turns played), ``PLAYER`` (the seat to move, or ``TERMINAL``),
``OUTCOME`` (-1 before the end, then the winning colour or 0 for a draw), the counts of each
value (``COUNTS + value``), ``PHASE`` (a neutral turn's micro-step, ``START`` otherwise) and the
turn's ``CHOSEN`` cells (two entries, -1 where none); then for a chain goal (Hex, Y) the
union-find of ``envs.stones.chains`` over ``cells + 4`` nodes, and for
Y the sides each root's chain touches (``cells`` entries); last, ``cells`` itself, so a row
reads without its game (``StoneState``).

A placement game's context is a :class:`PlacementContext`: ``params`` int64 ``[n, goal,
pie_turn]`` (pie_turn -1 without the pie rule), the rules' ``neighbour_array`` and
``goal_sides``. Reversi's is a :class:`FlankingContext`: ``params`` ``[n, GOAL_COUNT, -1]`` and
``flipped``, scratch room for one placement's captures. A turn is one action: a stone (judged
by the goal at once), ``cells + 1`` the pie swap, ``cells`` a pass (Reversi, when no placement
captures); the game ends at the goal or when neither side can place.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from envs.compiled import register
from envs.core import TERMINAL
from envs.kernels import EMPTY, FIRST, GOAL_CHAIN, GOAL_COUNT, GOAL_LINE, GOAL_SIDES, OFF_BOARD, SECOND, draw
from envs.row_playout import random_play
from envs.stones.bitboards import MAX_SIZE, capturing_bits, capturing_moves
from envs.stones.chains import join_sides, link, link_joins
from envs.stones.flanking import any_capture, captures, capturing_into
from envs.stones.goals import LINE, TARGETS, line_through, outcome_at_end

COLOUR, SWAPPED, TURNS, PLAYER, OUTCOME, COUNTS, PHASE, CHOSEN = 0, 1, 2, 3, 4, 5, 9, 10  # after the board
SCALARS = 12
START = 0  # the phase of a turn's start (the only one of a one-stone game)
N, GOAL, PIE_TURN = range(3)  # params
STONE_PLANES = 2  # the mover's stones, the opponent's: before the off-board plane (Y's) and the last two
PlacementContext = namedtuple("PlacementContext", ["params", "neighbours", "sides"])
FlankingContext = namedtuple("FlankingContext", ["params", "flipped"])


def placement_context(n: int, goal: int, pie_turn: int, neighbours: np.ndarray, sides: np.ndarray):
    """The context of a plain placement game (``pie_turn`` -1: no pie rule)."""
    neighbours = np.ascontiguousarray(neighbours, dtype=np.int64)
    if goal != GOAL_LINE and neighbours.shape != (n * n, 6):
        raise ValueError("a chain goal needs a (cells, 6) neighbour table")
    params = np.array([n, goal, pie_turn], np.int64)
    return PlacementContext(params, neighbours, np.ascontiguousarray(sides, dtype=np.uint8))


def flanking_context(n: int):
    """The context of plain Reversi (no pie rule)."""
    return FlankingContext(np.array([n, GOAL_COUNT, -1], np.int64), np.empty(4 * n, np.int64))


def new_row(board, extra: int, colour: int, turns: int) -> np.ndarray:
    """A row of ``board`` with ``extra`` entries after the scalars, ``colour`` to move after
    ``turns`` turns; the rest is filled by the game's ``begin``."""
    cells = len(board)
    row = np.zeros(cells + SCALARS + extra + 1, np.int32)
    row[:cells] = board
    row[cells + COLOUR], row[cells + TURNS], row[-1] = colour, turns, cells
    return row


def chain_room(goal: int, cells: int) -> int:
    """The entries a placement row keeps after its scalars: the union-find of a chain goal (and Y's sides)."""
    return (cells + 4 if goal != GOAL_LINE else 0) + (cells if goal == GOAL_SIDES else 0)


@njit(cache=True)
def count_values(row, cells):
    """The scalars of a turn's start from the board: the counts, no pie swap, no outcome yet."""
    meta = row[cells : cells + SCALARS]
    meta[SWAPPED], meta[OUTCOME], meta[PHASE], meta[CHOSEN], meta[CHOSEN + 1] = 0, -1, START, -1, -1
    for value in range(4):
        meta[COUNTS + value] = 0
    for i in range(cells):
        if row[i] != OFF_BOARD:
            meta[COUNTS + row[i]] += 1


@njit(cache=True)
def placement_begin(context, row):
    """Fill a row made by ``new_row``: counts, the union-find, whose turn it is (or the end)."""
    params, neighbours, sides = context.params, context.neighbours, context.sides
    n, goal = params[N], params[GOAL]
    cells = n * n
    count_values(row, cells)
    if goal == GOAL_CHAIN or goal == GOAL_SIDES:
        board, parent, touched = _placement_parts(row, cells)
        for i in range(cells + 4):
            parent[i] = i
        for i in range(cells):
            if goal == GOAL_SIDES and (board[i] == FIRST or board[i] == SECOND):
                touched[i] = sides[board[i], i]  # every stone's sides before any union
        for i in range(cells):
            if board[i] == FIRST or board[i] == SECOND:
                if goal == GOAL_CHAIN:
                    link(board, n, parent, neighbours, i)
                else:
                    join_sides(board, parent, touched, neighbours, i)
    _placement_turn(context, row)


@njit(cache=True)
def _placement_turn(context, row):
    """The turn of the colour to move, or the end when the board is full."""
    params = context.params
    n = params[N]
    cells = n * n
    meta = row[cells : cells + SCALARS]
    if meta[COUNTS + EMPTY] > 0:
        meta[PLAYER] = (meta[COLOUR] - 1) ^ meta[SWAPPED]
        return
    first, second = meta[COUNTS + FIRST], meta[COUNTS + SECOND]
    meta[OUTCOME] = outcome_at_end(row[:cells], first, second, n, params[GOAL], context.neighbours, context.sides)
    meta[PLAYER] = TERMINAL


@njit(cache=True)
def legal(context, row, out):
    """The empty cells in order, then SWAP_SIDES where the pie rule offers it."""
    params = context.params
    cells = params[N] * params[N]
    if row[cells + PLAYER] == TERMINAL:
        return 0
    count = 0
    for i in range(cells):
        if row[i] == EMPTY:
            out[count] = i
            count += 1
    if row[cells + TURNS] == params[PIE_TURN] and row[cells + SWAPPED] == 0:
        out[count] = cells + 1
        count += 1
    return count


@njit(cache=True)
def apply(context, row, action):
    """A legal action: swap sides, or a stone judged by the goal at once."""
    params, neighbours, sides = context.params, context.neighbours, context.sides
    n, goal = params[N], params[GOAL]
    cells = n * n
    meta = row[cells : cells + SCALARS]
    mover = meta[COLOUR]
    meta[TURNS] += 1
    if action == cells + 1:  # swap-sides: the same colour moves next, now seat 0's
        meta[SWAPPED] = 1
        meta[PLAYER] = (mover - 1) ^ 1
        return
    meta[COUNTS + EMPTY] -= 1
    meta[COUNTS + mover] += 1
    board, parent, touched = _placement_parts(row, cells)
    if place_stone(board, n, goal, parent, touched, neighbours, sides, action, mover):
        meta[OUTCOME], meta[PLAYER] = mover, TERMINAL
        return
    meta[COLOUR] = 3 - mover
    _placement_turn(context, row)


@njit(cache=True)
def _placement_parts(row, cells):
    """The board of a placement row and its chain goal's union-find and sides (empty where none)."""
    after = cells + SCALARS
    return row[:cells], row[after : after + cells + 4], row[after + cells + 4 : after + 2 * cells + 4]


@njit(cache=True, inline="always")
def place_stone(board, n, goal, parent, touched, neighbours, sides, cell, colour):
    """A ``colour`` stone on ``cell``, joined into the chain goal's union-find: whether it
    reaches the goal (fewer than ``LINE`` stones never make a line)."""
    board[cell] = colour
    if goal == GOAL_CHAIN:
        return link_joins(board, n, parent, neighbours, cell)
    if goal == GOAL_SIDES:
        touched[cell] = sides[colour, cell]
        return join_sides(board, parent, touched, neighbours, cell) == TARGETS[goal]
    return line_through(board, n, n, cell, colour, LINE)


@njit(cache=True)
def to_play(context, row):
    params = context.params
    return row[params[N] * params[N] + PLAYER]


@njit(cache=True)
def returns(context, row, out):
    """+1 / -1 by the winning colour's seat, zeros for a draw or before the end."""
    cells = context.params[N] * context.params[N]
    out[0] = out[1] = 0.0
    if row[cells + PLAYER] == TERMINAL:
        won_by(row[cells + OUTCOME], row[cells + SWAPPED], out)


@njit(cache=True)
def won_by(outcome, swapped, out):
    """The returns into ``out`` when colour ``outcome`` (0: a draw) won, ``swapped``: the pie swap taken."""
    out[0] = out[1] = 0.0
    if outcome > 0:
        seat = (outcome - 1) ^ (1 if swapped else 0)
        out[seat], out[1 - seat] = 1.0, -1.0


@njit(cache=True)
def placement_play(context, row, seed):
    """A random game from the row (left untouched): ``(outcome colour or 0, decisions, turns,
    the pie swap taken)``, the game ``envs.row_playout`` plays over ``legal`` and ``apply``
    (the tests check it). Its stones are ``apply``'s (:func:`place_stone` on a copy of the row's
    board and union-find); the empty cells are kept in order as they fill, so no draw scans the
    board, and the turn's scalars live in locals until the end."""
    params, neighbours, sides = context.params, context.neighbours, context.sides
    n, goal, pie_turn = params[N], params[GOAL], params[PIE_TURN]
    cells = n * n
    meta = row[cells : cells + SCALARS]
    colour, turns, swapped = meta[COLOUR], meta[TURNS], meta[SWAPPED] != 0
    if meta[PLAYER] == TERMINAL:
        return meta[OUTCOME], 0, 0, swapped
    board, parent, touched = _placement_parts(row, cells)  # copies, in the narrow types quickest here
    board, parent, touched = board.astype(np.uint8), parent.astype(np.int64), touched.astype(np.uint8)
    empty = np.empty(cells, np.int64)
    count = 0
    for i in range(cells):
        if board[i] == EMPTY:
            empty[count] = i
            count += 1
    decisions, start = 0, turns
    while count:  # ``legal``: the empty cells in order, then SWAP_SIDES where the pie rule offers it
        index, seed = draw(seed, count + (turns == pie_turn and not swapped))
        decisions += 1
        turns += 1
        if index == count:  # swap-sides: the same colour moves next, now seat 0's
            swapped = True
            continue
        cell = empty[index]
        for i in range(index, count - 1):
            empty[i] = empty[i + 1]
        count -= 1
        if place_stone(board, n, goal, parent, touched, neighbours, sides, cell, colour):
            return colour, decisions, turns - start, swapped
        colour = 3 - colour
    return outcome_at_end(board, 0, 0, n, goal, neighbours, sides), decisions, turns - start, swapped


@njit(cache=True)
def playout(context, row, seed, out):
    """The returns of ``placement_play``."""
    outcome, _, _, swapped = placement_play(context, row, seed)
    won_by(outcome, swapped, out)


@njit(cache=True)
def observe_stones(board, mover, pie, planes, out):
    """The stone games' planes into ``out`` (``[planes + (1 with an off-board plane) + 2, n,
    n]``): 0 the mover's stones, 1 the opponent's, ``planes`` (the game's ``PLANES`` count) the
    cells off the board where ``out`` has that plane (Y), -2 all ``pie`` (the swap available
    now), -1 all ones where the mover holds the first colour; the rest zeros."""
    flat = out.reshape(out.shape[0], board.shape[0])
    flat[:] = 0.0
    for i in range(board.shape[0]):
        if board[i] == mover:
            flat[0, i] = 1.0
        elif board[i] == 3 - mover:
            flat[1, i] = 1.0
        elif board[i] == OFF_BOARD and out.shape[0] == planes + 3:
            flat[planes, i] = 1.0
    flat[-2, :] = 1.0 if pie else 0.0
    flat[-1, :] = 1.0 if mover == FIRST else 0.0


@njit(cache=True)
def observe(context, row, out):
    """Hex, Y, Gomoku, Reversi: the stone planes (no extra planes)."""
    params = context.params
    cells = params[N] * params[N]
    meta = row[cells : cells + SCALARS]
    pie = meta[TURNS] == params[PIE_TURN] and meta[SWAPPED] == 0 and meta[PLAYER] != TERMINAL
    observe_stones(row[:cells], meta[COLOUR], pie, STONE_PLANES, out)


# --- Reversi ------------------------------------------------------------------------------------------
@njit(cache=True)
def flanking_begin(context, row):
    """Fill a row made by ``new_row``: counts, whose turn it is (passing where it must), or the end."""
    count_values(row, context.params[N] * context.params[N])
    _flanking_turn(context, row)


@njit(cache=True)
def _flanking_turn(context, row):
    """The colour to move plays (or passes) while either side can place; else the count decides."""
    n = context.params[N]
    cells = n * n
    board, meta = row[:cells], row[cells : cells + SCALARS]
    colour = meta[COLOUR]
    if _can_place(board, n, colour) or _can_place(board, n, 3 - colour):
        meta[PLAYER] = (colour - 1) ^ meta[SWAPPED]
    else:
        first, second = meta[COUNTS + FIRST], meta[COUNTS + SECOND]
        meta[OUTCOME] = FIRST if first > second else SECOND if second > first else 0
        meta[PLAYER] = TERMINAL


@njit(cache=True)
def flanking_legal(context, row, out):
    """The capturing cells in order (by ``envs.stones.bitboards`` up to 8 x 8), else PASS."""
    n = context.params[N]
    cells = n * n
    if row[cells + PLAYER] == TERMINAL:
        return 0
    board, colour = row[:cells], row[cells + COLOUR]
    if n <= MAX_SIZE:  # every cell at once on 64-bit boards
        count = capturing_moves(board, n, colour, out)
    else:
        count = capturing_into(board, n, colour, EMPTY, out)
    if count == 0:  # the other side can place (else the game would be over)
        out[0] = cells
        return 1
    return count


@njit(cache=True)
def flanking_apply(context, row, action):
    """A stone with its captures, or a pass; then the other colour's turn or the end."""
    n, flipped = context.params[N], context.flipped
    cells = n * n
    board, meta = row[:cells], row[cells : cells + SCALARS]
    mover = meta[COLOUR]
    meta[TURNS] += 1
    if action != cells:  # not a pass
        for i in range(captures(board, n, action, mover, flipped)):
            meta[COUNTS + board[flipped[i]]] -= 1
            board[flipped[i]] = mover
            meta[COUNTS + mover] += 1
        board[action] = mover
        meta[COUNTS + EMPTY] -= 1
        meta[COUNTS + mover] += 1
    meta[COLOUR] = 3 - mover
    _flanking_turn(context, row)


@njit(cache=True)
def _can_place(board, n, colour):
    """Whether ``colour`` has a capturing placement (by bitboards up to 8 x 8)."""
    return capturing_bits(board, n, colour) != 0 if n <= MAX_SIZE else any_capture(board, n, colour, EMPTY)


@njit(cache=True)
def flanking_play(context, row, seed):
    """A random game of Reversi from the row (left untouched) by ``envs.row_playout`` over the
    rules above (the bitboards make it quicker than a playout of its own), as ``placement_play``."""
    n = context.params[N]
    cells = n * n
    row = row.copy()
    _, decisions, turns = random_play(context, row, seed, -1, np.empty(cells, np.int64))
    return row[cells + OUTCOME], decisions, turns, row[cells + SWAPPED] != 0


@njit(cache=True)
def flanking_playout(context, row, seed, out):
    """The returns of ``flanking_play``."""
    outcome, _, _, swapped = flanking_play(context, row, seed)
    won_by(outcome, swapped, out)


register(PlacementContext, legal=legal, apply=apply, to_play=to_play, returns=returns, playout=playout, observe=observe)
register(
    FlankingContext,
    legal=flanking_legal,
    apply=flanking_apply,
    to_play=to_play,
    returns=returns,
    playout=flanking_playout,
    observe=observe,
)
