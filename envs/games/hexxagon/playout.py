"""Hexxagon's random playout in one numba kernel (``Hexxagon.random_playout``).

It plays the game the engine loop plays for the same seed (``ScheduledGame.engine_playout``):
one ``envs.kernels.draw`` per decision over the legal micro-steps in the engine's order (the
clones and the stones that can jump, in increasing cell order; after a stone is picked, the
empty cells two away from it in increasing order), from any position, a turn or a jump begun
included. The neighbour tables are the engine's (``envs.stones.hexagon.geometry``), padded
with -1; ``origins`` keeps the restriction as the engine's set does.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from envs.kernels import CUT, EMPTY, draw
from envs.stones.flanking import count_winner


@njit(cache=True)
def playout(
    board,
    adjacent,
    two_away,
    seat,
    turn,
    moves_left,
    picked,
    restricted,
    may_move,
    moves,
    move_limit,
    schedule,
    seed,
    cut,
    cut_board,
):
    """``(outcome, decisions, turns)`` of a random game from a position (not over): ``outcome``
    the winning seat's stone (1 or 2) or 0 for a draw; ``CUT`` once ``cut`` turns have ended
    (-1: never), the board then in ``cut_board``. ``adjacent``, ``two_away``: ``envs.stones.hexagon.tables(side)``;
    ``picked``: the stone a jump has picked (-1: none); ``may_move``: 1 on the cells that may
    start a move this turn (read only when ``restricted``); ``moves``: the moves of the game so
    far, against ``move_limit``; ``schedule``: the move counts (``TurnSchedule.counts``)."""
    cells = len(board)
    after = board.copy()
    legal = np.empty(cells, np.int64)
    decisions = turns = 0
    while True:
        piece = 1 + seat
        if picked >= 0:
            count = 0
            for k in range(two_away.shape[1]):
                other = two_away[picked, k]
                if other >= 0 and after[other] == EMPTY:
                    legal[count] = other
                    count += 1
        else:
            count = _starts(after, adjacent, two_away, piece, restricted, may_move, legal)
            if count == 0:
                if moves_left == schedule[min(turn, len(schedule) - 1)]:  # a turn start: the end
                    return _stuck(after, seat), decisions, turns
                moves_left = 0  # the turn has no move left: it ends
        if turns == cut:  # the game goes on: the heuristic scores the board
            cut_board[:] = after
            return CUT, decisions, turns
        if count:
            index, seed = draw(seed, count)
            cell = legal[index]
            decisions += 1
            if picked < 0 and after[cell] == piece:
                picked = cell  # a jump starts
                continue
            if picked >= 0:
                after[picked] = EMPTY
                may_move[picked] = 0
                picked = -1
            after[cell] = piece
            for k in range(adjacent.shape[1]):
                other = adjacent[cell, k]
                if other >= 0 and after[other] == 3 - piece:
                    after[other] = piece
            moves += 1
            moves_left -= 1
            if moves >= move_limit:
                return count_winner(after), decisions, turns + 1  # scored by the stones on the board
        if moves_left == 0:
            turns += 1
            seat, turn = 1 - seat, turn + 1
            moves_left = schedule[min(turn, len(schedule) - 1)]
            for i in range(cells):
                may_move[i] = after[i] == 1 + seat


@njit(cache=True)
def _starts(board, adjacent, two_away, piece, restricted, may_move, out):
    """Write the cells that start a move of ``piece`` (``HexxagonRules.options`` with no stone
    picked), in order, into ``out``: the empty cells next to a stone that may move, and the
    stones that may move with an empty cell two away. Return their count."""
    count = 0
    for cell in range(len(board)):
        v = board[cell]
        if v == EMPTY:
            for k in range(adjacent.shape[1]):
                other = adjacent[cell, k]
                if other >= 0 and board[other] == piece and (not restricted or may_move[other]):
                    out[count] = cell
                    count += 1
                    break
        elif v == piece and (not restricted or may_move[cell]):
            for k in range(two_away.shape[1]):
                other = two_away[cell, k]
                if other >= 0 and board[other] == EMPTY:
                    out[count] = cell
                    count += 1
                    break
    return count


@njit(cache=True)
def _stuck(board, seat):
    """``HexxagonRules.stuck_returns``: ``seat`` cannot move, the empty cells go to the other side."""
    first = second = 0
    for v in board:
        first += v == 1 or (v == EMPTY and seat == 1)
        second += v == 2 or (v == EMPTY and seat == 0)
    return 1 if first > second else 2 if second > first else 0
