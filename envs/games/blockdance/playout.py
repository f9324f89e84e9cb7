"""Blockdance's random playout in one numba kernel (``Blockdance.random_playout``).

It plays the game the engine loop plays for the same seed (``Game.engine_playout``): one
``envs.kernels.draw`` per decision over the legal micro-steps in the engine's order (the pivots
in increasing cell order, then the pass; the angles 1..5; the men that may join the block and
the pivot again, in increasing cell order), from any position, a turn begun included. The
rotation rule is ``moves.py``'s, step for step: a pivot's largest legal block for an angle
(``largest_block``: the pivot's group, less the men whose chain of forced partners runs off
the board, then cut down until connected and closed), whether a block may turn
(``is_legal_block``) and the turn itself (``turn_block``). The tables are the engine's:
``moves.rotation_table`` and ``envs.stones.hexagon.tables``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from envs.kernels import CUT, draw

EMPTY = 0


@njit(cache=True)
def playout(board, rotation, adjacent, player, pivot, angle, block, turns, idle, passes, rules, seed, cut, cut_board):
    """``(outcome, decisions, turns)`` of a random game from a position (not over), as
    ``Game.engine_playout`` counts them: ``outcome`` 0 a draw, 1 or 2 the winning seat + 1;
    ``CUT`` once ``cut`` turns have ended (-1: never), the board then in ``cut_board``.
    ``board``: ``BlockdanceState.board`` (-1 off the board, 0 empty, 1 and 2 the men);
    ``block``: the block so far (the pivot first; empty before the pivot); ``rules``:
    ``(free_pass, idle_limit, max_turns)``."""
    free_pass, idle_limit, max_turns = rules[0], rules[1], rules[2]
    cells = len(board)
    board = board.copy()
    pass_action = cells + 5
    options = np.empty(cells + 1, np.int64)
    in_block = np.zeros(cells, np.uint8)
    members = np.empty(cells, np.int64)  # the block so far, ``size`` of them
    size = 0
    for man in block:
        in_block[man] = 1
        members[size] = man
        size += 1
    largest = np.zeros((6, cells), np.uint8)  # the pivot's largest block by angle (``_turns``)
    legal_angle = np.zeros(6, np.uint8)
    work = (np.zeros(cells, np.uint8), np.zeros(cells, np.uint8), np.empty(cells, np.int64), np.empty(cells, np.int64))
    found = np.empty(cells, np.int64)
    if pivot >= 0:
        _angles(board, rotation, adjacent, pivot, largest, legal_angle, work, found)
    decisions = played = 0
    while True:
        if played == cut:  # the game goes on: the heuristic scores the board
            cut_board[:] = board
            return CUT, decisions, played
        piece = 1 + player
        if pivot < 0:
            count = 0
            for cell in range(cells):
                if board[cell] == piece and _can_pivot(board, rotation, adjacent, cell, work, found):
                    options[count] = cell
                    count += 1
            if free_pass or count == 0:
                options[count] = pass_action
                count += 1
        elif angle == 0:
            count = 0
            for a in range(1, 6):
                if legal_angle[a]:
                    options[count] = cells + a - 1
                    count += 1
        else:
            image = rotation[angle, pivot]
            reach = largest[angle]
            can_turn = _is_legal_block(board, members, size, in_block, image)
            count = 0
            for cell in range(cells):
                if cell == pivot:
                    if can_turn:
                        options[count] = cell
                        count += 1
                elif reach[cell] and not in_block[cell]:
                    for k in range(adjacent.shape[1]):
                        other = adjacent[cell, k]
                        if other >= 0 and in_block[other]:
                            options[count] = cell
                            count += 1
                            break
        index, seed = draw(seed, count)
        action = options[index]
        decisions += 1
        taken = -1  # the turn goes on
        if action == pass_action:
            passes += 1
            taken = 0
        elif pivot < 0:
            pivot, size = action, 1
            members[0] = action
            in_block[action] = 1
            _angles(board, rotation, adjacent, pivot, largest, legal_angle, work, found)
        elif angle == 0:
            angle = action - cells + 1
        elif action != pivot:
            members[size] = action
            in_block[action] = 1
            size += 1
        else:
            taken = _turn_block(board, members, size, rotation[angle, pivot])
            passes = 0
        if taken < 0:
            continue
        played += 1  # the turn is over (``Blockdance._end_turn``)
        turns += 1
        idle = 0 if taken else idle + 1
        enemy = 0
        for cell in range(cells):
            enemy += board[cell] == 2 - player
        if enemy == 0:
            return 1 + player, decisions, played
        if passes >= 2 or idle >= idle_limit or turns >= max_turns:
            return 0, decisions, played
        player = 1 - player
        for i in range(size):
            in_block[members[i]] = 0
        pivot, angle, size = -1, 0, 0


@njit(cache=True)
def _can_pivot(board, rotation, adjacent, pivot, work, found):
    """Whether some angle turns a block through ``pivot`` (``Blockdance._turns``, first only)."""
    for a in range(1, 6):
        if _largest_moves(board, rotation[a, pivot], adjacent, pivot, work, found) >= 2:
            return True
    return False


@njit(cache=True)
def _angles(board, rotation, adjacent, pivot, largest, legal_angle, work, found):
    """Every angle's largest block through ``pivot`` into ``largest``, and whether it turns."""
    largest[:] = 0
    for a in range(1, 6):
        count = _largest_moves(board, rotation[a, pivot], adjacent, pivot, work, found)
        legal_angle[a] = 0
        if count >= 2:
            legal_angle[a] = 1
            for i in range(count):
                largest[a, found[i]] = 1


@njit(cache=True)
def _largest_moves(board, image, adjacent, pivot, work, found):
    """The size of the largest block through ``pivot`` (its men into ``found``) when it has two
    men or more and turning it moves something; else 0."""
    count = _largest_block(board, pivot, image, adjacent, work, found)
    if count < 2:
        return 0
    piece = board[pivot]
    for i in range(count):
        if board[image[found[i]]] != piece:
            return count
    return 0


@njit(cache=True)
def _largest_block(board, pivot, image, adjacent, work, out):
    """``moves.largest_block``: its men into ``out``; their count. ``work``: two zeroed masks and
    two cell buffers, left zeroed."""
    allowed, in_out, group, stack = work
    piece = board[pivot]
    # the pivot's group (``group_of``), marked in ``in_out`` for the moment
    group[0], in_out[pivot], size, top = pivot, 1, 1, 0
    while top < size:
        cell = group[top]
        top += 1
        for k in range(adjacent.shape[1]):
            other = adjacent[cell, k]
            if other >= 0 and not in_out[other] and board[other] == piece:
                in_out[other] = 1
                group[size] = other
                size += 1
    for i in range(size):
        in_out[group[i]] = 0
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
        kept = 0
        for i in range(count):
            m = out[i]
            if board[image[m]] != piece or in_out[image[m]]:
                stack[kept] = m
                kept += 1
        for i in range(count):
            in_out[out[i]] = 0
        if kept == count:
            for i in range(size):
                allowed[group[i]] = 0
            return count
        for i in range(size):
            allowed[group[i]] = 0
        for i in range(kept):
            allowed[stack[i]] = 1


@njit(cache=True)
def _is_legal_block(board, members, size, in_block, image):
    """``moves.is_legal_block`` for the block so far."""
    if size < 2:
        return False
    piece = board[members[0]]
    moves = False
    for i in range(size):
        target = image[members[i]]
        if target < 0 or (board[target] == piece and not in_block[target]):
            return False
        if board[target] != piece:
            moves = True
    return moves


@njit(cache=True)
def _turn_block(board, members, size, image):
    """``moves.turn_block``: turn the block in place; the number of enemy men taken."""
    piece = board[members[0]]
    for i in range(size):
        board[members[i]] = EMPTY
    taken = 0
    for i in range(size):
        target = image[members[i]]
        if board[target] != EMPTY and board[target] != piece:
            taken += 1
        board[target] = piece
    return taken
