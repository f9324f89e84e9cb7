"""The one-stone-a-turn ``StoneGame`` s as ``envs.compiled.CompiledGame`` s over a flat row:
the plain placement games (Hex, Y, Gomoku; with or without the pie rule) and Reversi.

A row (int32) holds the board (``cells`` colours, as ``StoneState.board``), then the scalars
``COLOUR, SWAPPED, TURNS, PLAYER, OUTCOME, EMPTIES`` (the empty cells' count), then for a
chain goal (Hex, Y) the union-find of ``envs.stones.chains`` / ``envs.stones.sides`` over
``cells + 4`` nodes, and for Y the sides each root's chain touches (``cells`` entries). The
context is a :class:`PlacementContext`: ``params`` int64 ``[n, goal, pie_turn]`` (pie_turn -1
without the pie rule), ``neighbours`` and ``sides`` as the rules' ``neighbour_array`` and
``goal_sides``. Each function mirrors the ``StoneGame`` method it is
named after; the tests hold the driver that uses them to the engine's searches.

Reversi (:class:`FlankingRows`) has the same board and scalars and nothing after them; its
context is a :class:`FlankingContext`: ``params`` int64 ``[n, GOAL_COUNT, -1]`` and ``flipped``, scratch room
for one placement's captures. Its functions are ``envs.stones.flanking``'s kernels in
``StoneGame``'s turn order: a capturing stone, else a pass, the count when neither side can place.

Both register ``observe`` (``StoneGame.observe`` from the row, by :func:`observe_stones`,
which the neutral games' observer builds on).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from envs.compiled import CompiledGame, register
from envs.core import TERMINAL
from envs.kernels import EMPTY, FIRST, GOAL_CHAIN, GOAL_COUNT, GOAL_LINE, GOAL_SIDES, OFF_BOARD, SECOND
from envs.stones.bitboards import MAX_SIZE, capturing_bits, capturing_moves
from envs.stones.chains import link, link_joins
from envs.stones.flanking import any_capture, captures, capturing_into, count_winner, reversi_playout
from envs.stones.goals import TARGETS, outcome_at_end
from envs.stones.lines import LINE, line_through
from envs.stones.playout import placement_playout
from envs.stones.rules import StoneGame, StoneState
from envs.stones.sides import join_sides

COLOUR, SWAPPED, TURNS, PLAYER, OUTCOME, EMPTIES = range(6)  # after the board
SCALARS = 6
N, GOAL, PIE_TURN = range(3)  # params
STONE_PLANES = len(StoneGame.PLANES)  # before the off-board plane (Y's) and the last two
PlacementContext = namedtuple("PlacementContext", ["params", "neighbours", "sides"])
FlankingContext = namedtuple("FlankingContext", ["params", "flipped"])


class PlacementRows(CompiledGame):
    """The ``CompiledGame`` of a plain placement ``StoneGame`` (no captures, a goal)."""

    def __init__(self, game):
        rules = game.rules
        if rules.captures or rules.kernel_goal == GOAL_COUNT:
            raise ValueError(f"{game.info.name}: not a plain placement game")
        self.game, self.goal, self.cells = game, rules.kernel_goal, game.n * game.n
        params = np.array([game.n, self.goal, -1 if game.pie_turn is None else game.pie_turn], np.int64)
        neighbours = np.ascontiguousarray(rules.neighbour_array, dtype=np.int64)
        if self.goal != GOAL_LINE and neighbours.shape != (self.cells, 6):
            raise ValueError(f"{game.info.name}: a chain goal needs a (cells, 6) neighbour table")
        sides = np.ascontiguousarray(rules.goal_sides, dtype=np.uint8)
        self.context = PlacementContext(params, neighbours, sides)
        self.chains = self.cells + SCALARS  # where the union-find starts (chain goals)
        self.width = self.chains + (self.cells + 4 if self.goal != GOAL_LINE else 0)
        self.width += self.cells if self.goal == GOAL_SIDES else 0
        self.max_legal = self.cells + 1

    def encode(self, state: StoneState) -> np.ndarray:
        if state.phase != 0:
            raise ValueError("a placement game's state is always at a turn start")
        cells = self.cells
        row = np.zeros(self.width, np.int32)
        row[:cells] = np.frombuffer(bytes(state.board), np.uint8)
        scalars = (state.colour, state.swapped, state.turns, state.player, state.outcome, state.counts[EMPTY])
        row[cells : cells + SCALARS] = scalars
        if self.goal in (GOAL_CHAIN, GOAL_SIDES):
            build_chains(self.context, row)
        return row

    def decode(self, row: np.ndarray) -> StoneState:
        cells = self.cells
        state = StoneState(row[:cells].astype(np.uint8).tobytes())
        if self.goal == GOAL_CHAIN and self.game.keeps_chains:  # the row's union-find: the engine's chains
            state.chains = row[self.chains : self.chains + cells + 4].astype(np.int64)
        state.colour, swapped, state.turns, state.player, state.outcome = row[cells : cells + OUTCOME + 1].tolist()
        state.swapped = bool(swapped)
        return state


class FlankingRows(PlacementRows):
    """The ``CompiledGame`` of plain Reversi (captures by flanking, the count at the end)."""

    def __init__(self, game):
        rules = game.rules
        if not rules.captures or rules.kernel_goal != GOAL_COUNT or game.pie_turn is not None:
            raise ValueError(f"{game.info.name}: not plain Reversi")
        self.game, self.goal, self.cells = game, GOAL_COUNT, game.n * game.n
        params = np.array([game.n, GOAL_COUNT, -1], np.int64)  # the placement games' layout: no pie rule
        self.context = FlankingContext(params, np.empty(4 * game.n, np.int64))
        self.chains = self.width = self.cells + SCALARS
        self.max_legal = self.cells  # the capturing cells, or a pass alone


@njit(cache=True)
def build_chains(context, row):
    """The union-find (and Y's touched sides) of the row's board, as the engine builds them."""
    params, neighbours, sides = context.params, context.neighbours, context.sides
    n, goal = params[N], params[GOAL]
    cells = n * n
    parent = row[cells + SCALARS : cells + SCALARS + cells + 4]
    for i in range(cells + 4):
        parent[i] = i
    board = row[:cells]
    if goal == GOAL_SIDES:
        touched = row[cells + SCALARS + cells + 4 :]
        for i in range(cells):
            if board[i] == FIRST or board[i] == SECOND:
                touched[i] = sides[board[i], i]
    for i in range(cells):
        if board[i] == FIRST or board[i] == SECOND:
            if goal == GOAL_CHAIN:
                link(board, n, parent, neighbours, i)
            else:
                join_sides(board, parent, touched, neighbours, i)


@njit(cache=True)
def legal(context, row, out):
    """``StoneGame.legal_actions``: the empty cells in order, then SWAP_SIDES where the pie allows."""
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
    """``StoneGame.apply`` for a legal action: swap sides, or a stone judged as ``_end_turn`` does."""
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
    board = row[:cells]
    board[action] = mover
    meta[EMPTIES] -= 1
    if goal == GOAL_CHAIN:
        won = link_joins(board, n, row[cells + SCALARS : cells + SCALARS + cells + 4], neighbours, action)
    elif goal == GOAL_SIDES:
        touched = row[cells + SCALARS + cells + 4 :]
        touched[action] = sides[mover, action]
        won = join_sides(board, row[cells + SCALARS : cells + SCALARS + cells + 4], touched, neighbours, action)
        won = won == TARGETS[goal]
    else:
        won = line_through(board, n, action, mover, LINE)  # (fewer than LINE stones never make one)
    if won:
        meta[OUTCOME], meta[PLAYER] = mover, TERMINAL
        return
    meta[COLOUR] = 3 - mover
    if meta[EMPTIES] > 0:
        meta[PLAYER] = (2 - mover) ^ meta[SWAPPED]
        return
    first = second = 0
    for i in range(cells):
        first += board[i] == FIRST
        second += board[i] == SECOND
    meta[OUTCOME] = outcome_at_end(board, first, second, n, goal, neighbours, sides)
    meta[PLAYER] = TERMINAL


@njit(cache=True)
def to_play(context, row):
    params = context.params
    return row[params[N] * params[N] + PLAYER]


@njit(cache=True)
def returns(context, row, out):
    """``StoneGame.returns``: +1 / -1 by the winning colour's seat, zeros for a draw or before the end."""
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
def playout(context, row, seed, out):
    """``StoneGame.random_playout``'s returns from a row at a turn start (the same kernel)."""
    params, neighbours, sides = context.params, context.neighbours, context.sides
    n = params[N]
    cells = n * n
    swapped = row[cells + SWAPPED]
    pie_turn = -1 if params[PIE_TURN] < 0 or swapped else params[PIE_TURN]
    outcome, _, _, swaps = placement_playout(
        row[:cells], n, row[cells + COLOUR], row[cells + TURNS], pie_turn, params[GOAL], neighbours, sides, seed
    )
    won_by(outcome, swapped != 0 or swaps, out)


@njit(cache=True)
def observe_stones(board, mover, pie, planes, out):
    """``StoneGame.observe``'s planes into ``out`` (``[planes + (1 with an off-board plane) + 2,
    n, n]``): 0 the mover's stones, 1 the opponent's, ``planes`` (the game's ``PLANES``
    count) the cells off the board where ``out`` has that plane (Y), -2 all ``pie`` (the
    swap available now), -1 all ones where the mover holds the first colour; the rest zeros."""
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
    """``StoneGame.observe`` (Hex, Y, Gomoku, Reversi: no extra planes)."""
    params = context.params
    cells = params[N] * params[N]
    meta = row[cells : cells + SCALARS]
    pie = meta[TURNS] == params[PIE_TURN] and meta[SWAPPED] == 0 and meta[PLAYER] != TERMINAL
    observe_stones(row[:cells], meta[COLOUR], pie, STONE_PLANES, out)


@njit(cache=True)
def flanking_legal(context, row, out):
    """``StoneGame.legal_actions`` for Reversi: the capturing cells in order (by
    ``envs.stones.bitboards`` up to 8 x 8), else PASS."""
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
    """``StoneGame.apply`` for Reversi: a stone with its captures, or a pass, then
    ``_start_turn``: the other colour moves (passing where it must) unless neither can place."""
    n, flipped = context.params[N], context.flipped
    cells = n * n
    board, meta = row[:cells], row[cells : cells + SCALARS]
    mover = meta[COLOUR]
    meta[TURNS] += 1
    if action != cells:  # not a pass
        for i in range(captures(board, n, action, mover, flipped)):
            board[flipped[i]] = mover
        board[action] = mover
        meta[EMPTIES] -= 1
    colour = 3 - mover
    meta[COLOUR] = colour
    if _can_place(board, n, colour) or _can_place(board, n, mover):
        meta[PLAYER] = (colour - 1) ^ meta[SWAPPED]
    else:
        meta[OUTCOME], meta[PLAYER] = count_winner(board), TERMINAL


@njit(cache=True)
def _can_place(board, n, colour):
    """Whether ``colour`` has a capturing placement (by bitboards up to 8 x 8)."""
    return capturing_bits(board, n, colour) != 0 if n <= MAX_SIZE else any_capture(board, n, colour, EMPTY)


@njit(cache=True)
def flanking_playout(context, row, seed, out):
    """``StoneGame.random_playout``'s returns for Reversi (``reversi_playout``, no pie rule)."""
    n = context.params[N]
    cells = n * n
    outcome = reversi_playout(row[:cells], n, row[cells + COLOUR], seed)[0]
    won_by(outcome, row[cells + SWAPPED] != 0, out)


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
