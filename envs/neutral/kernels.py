"""The neutral mutator's compiled kernels (``envs.neutral.mutator``): its micro-steps, Taylor's
end-game rule, the cells a drop's neutral may take in AdNeuVersi, and the random playouts of
the neutral games (as ``envs.stones.compiled.placement_play`` describes a playout).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from envs.kernels import (
    EMPTY,
    GOAL_CHAIN,
    GOAL_COUNT,
    NEUTRAL,
    draw,
    nth,
)
from envs.stones.chains import EXACT, STALE, UNTRACKED, joined, link
from envs.stones.flanking import capture_starts, captures, capturing_into, count_winner
from envs.stones.goals import outcome_at_end, turn_reached

START, DROP_NEUTRAL, SWAP_SECOND, SWAP_GIVE = 0, 1, 2, 3  # a turn's micro-steps (``envs.neutral.mutator``)


@njit(cache=True)
def turn_starts(empty, neutral, own):
    """Without captures, what a turn may start with, given the counts of empty cells, neutrals
    and the mover's stones: ``(drop, swap, on_empty, on_neutral)``. A drop needs two empty
    cells, a swap two neutrals and a stone to give back; when neither exists Bill Taylor's
    end-game rules give the turn: fill an empty cell, else convert a neutral."""
    drop, swap = empty >= 2, neutral >= 2 and own >= 1
    return drop, swap, drop or (not swap and empty > 0), swap or (not drop and empty == 0)


@njit(cache=True)
def touching_into(board, n, out):
    """The empty cells with a non-empty cell among their 8 neighbours, in order, into ``out``; their count."""
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
    return count


@njit(cache=True)
def _stone_touches(board, n, touch, cell):
    """Count the stone just put on the empty ``cell`` in ``touch`` (per cell: its 8 neighbours
    that hold a stone); return the change in the number of empty cells touching a stone."""
    change = -1 if touch[cell] else 0
    r0, c0 = cell // n, cell % n
    for r in range(max(r0 - 1, 0), min(r0 + 2, n)):
        for c in range(max(c0 - 1, 0), min(c0 + 2, n)):
            other = r * n + c
            touch[other] += 1
            if touch[other] == 1 and board[other] == EMPTY:
                change += 1
    return change


@njit(cache=True)
def _nth_touching(board, touch, index):
    """The ``index``-th empty cell (from 0), in order, with a stone among its neighbours."""
    for cell in range(len(board)):
        if board[cell] == EMPTY and touch[cell]:
            if index == 0:
                return cell
            index -= 1
    return -1


# --- random playouts ---------------------------------------------------------------------------------
@njit(cache=True)
def neutral_playout(board, n, colour, turns, pie_turn, goal, goal_stones, adjacent, neighbours, sides, seed):
    """A neutral-mutator game, micro-step by micro-step as ``envs.neutral.mutator.NeutralGame``.
    ``goal``, ``goal_stones``, ``neighbours`` and ``sides`` as the rules give them (``envs.stones.goals``)."""
    if goal == GOAL_COUNT:
        return _capture_playout(board, n, colour, adjacent, seed)
    return _taylor_playout(board, n, colour, turns, pie_turn, goal, goal_stones, neighbours, sides, seed)


@njit(cache=True)
def _taylor_playout(board, n, colour, turns, pie_turn, goal, goal_stones, neighbours, sides, seed):
    """Nex, Neumoku, Neu-Y: drops, swaps, Taylor's fill and convert; the goal judged after each turn.

    Every draw picks a cell by its rank among the cells holding one or two values; counts of
    each value per board row (``rows``) skip to the right row, so no draw scans the whole
    board and a change of a cell costs two increments.

    Hex chains live in a union-find per colour with its two edge nodes, as in
    ``envs.stones.compiled.placement_play``, built once the colour has n stones (fewer cannot join its
    edges). A swap's give-back takes a stone out of a chain, which a union-find cannot
    undo: that colour's sets are then a superset of its chains (stale), so "not joined"
    is still exact and only a claimed join rebuilds them from the board before it counts.
    The other goals are searched from the turn's new stones (``envs.stones.goals``); Y's cells off
    the triangle hold 4 and are counted apart.
    """
    cells = n * n
    after = np.empty(cells, np.uint8)
    counts = np.zeros(5, np.int64)  # empty, colour 1, colour 2, neutral, off the board
    rows = np.zeros((5, n), np.int64)  # the same per board row
    for i in range(cells):
        after[i] = board[i]
        counts[board[i]] += 1
        rows[board[i], i // n] += 1
    parents = np.empty((3, cells + 4), np.int64)  # row c: colour c's union-find
    sets = np.full(3, UNTRACKED)  # per colour: UNTRACKED, EXACT or STALE
    decisions, start, swapped = 0, turns, False
    while counts[EMPTY] + counts[NEUTRAL]:
        empty, neutral, own = counts[EMPTY], counts[NEUTRAL], counts[colour]
        drop, swap, want_empty, want_neutral = turn_starts(empty, neutral, own)
        count = (empty if want_empty else 0) + (neutral if want_neutral else 0)
        pie = 1 if turns == pie_turn and not swapped else 0
        index, seed = draw(seed, count + pie)
        decisions += 1
        turns += 1
        if index == count:  # swap-sides
            swapped = True
            continue
        first = _row_nth(after, n, rows, EMPTY if want_empty else NEUTRAL, NEUTRAL if want_neutral else EMPTY, index)
        was_empty = after[first] == EMPTY
        second = -1
        _put(after, n, counts, rows, first, colour)
        if sets[colour] != UNTRACKED:
            link(after, n, parents[colour], neighbours, first)
        if was_empty and drop:
            index, seed = draw(seed, counts[EMPTY])
            _put(after, n, counts, rows, _row_nth(after, n, rows, EMPTY, EMPTY, index), NEUTRAL)
            decisions += 1
        elif not was_empty and swap:
            index, seed = draw(seed, counts[NEUTRAL])
            second = _row_nth(after, n, rows, NEUTRAL, NEUTRAL, index)
            _put(after, n, counts, rows, second, colour)
            if sets[colour] != UNTRACKED:
                link(after, n, parents[colour], neighbours, second)
            # the stone given back: any of the mover's but the two just swapped
            index, seed = draw(seed, counts[colour] - 2)
            low, high = min(first, second), max(first, second)
            if index >= _row_rank(after, n, rows, colour, low):
                index += 1
            if index >= _row_rank(after, n, rows, colour, high):
                index += 1
            _put(after, n, counts, rows, _row_nth(after, n, rows, colour, colour, index), NEUTRAL)
            decisions += 2
            if sets[colour] == EXACT:
                sets[colour] = STALE
        if goal == GOAL_CHAIN:  # Hex: the union-finds above; the others: the search of ``envs.stones.goals``
            if counts[colour] >= n and joined(after, n, parents[colour], neighbours, sets, colour):
                return colour, decisions, turns - start, swapped
        elif counts[colour] >= goal_stones and turn_reached(after, n, goal, colour, first, second, neighbours, sides):
            return colour, decisions, turns - start, swapped
        colour = 3 - colour
    outcome = outcome_at_end(after, counts[1], counts[2], n, goal, neighbours, sides)
    return outcome, decisions, turns - start, swapped


@njit(cache=True)
def _put(board, n, counts, rows, cell, value):
    """``board[cell] = value``, with the counts per value and per value and row kept in step."""
    old = board[cell]
    board[cell] = value
    counts[old] -= 1
    counts[value] += 1
    rows[old, cell // n] -= 1
    rows[value, cell // n] += 1


@njit(cache=True)
def _row_nth(board, n, rows, first, second, index):
    """The ``index``-th cell (from 0), in order, among those holding ``first`` or ``second``."""
    row = 0
    while True:
        inside = rows[first, row] + (rows[second, row] if second != first else 0)
        if index < inside:
            break
        index -= inside
        row += 1
    return nth(board, row * n, row * n + n, first, second, index, -1, -1)


@njit(cache=True)
def _row_rank(board, n, rows, value, cell):
    """How many cells before ``cell`` hold ``value``."""
    row = cell // n
    total = 0
    for r in range(row):
        total += rows[value, r]
    for other in range(row * n, cell):
        total += board[other] == value
    return total


@njit(cache=True)
def _capture_playout(board, n, colour, adjacent, seed):
    """NeuVersi, AdNeuVersi: capturing drops and swaps, forced passes, the count at the end."""
    cells = n * n
    after = np.empty(cells, np.uint8)
    empty = 0
    for i in range(cells):
        after[i] = board[i]
        empty += board[i] == EMPTY
    starts = np.empty(cells, np.int64)
    buffer = np.empty(4 * n, np.int64)
    work = (np.empty(cells, np.int64), np.empty(cells, np.uint8), np.empty(4 * n, np.int64))
    # AdNeuVersi: stones per cell's neighbourhood, and the empty cells touching one (no stone
    # ever leaves the board, so both only change when an empty cell is filled)
    touch = np.zeros(cells, np.int64)
    touching = 0
    if adjacent:
        touching = touching_into(after, n, starts)
        for i in range(cells):
            if after[i] != EMPTY:
                _stone_touches(after, n, touch, i)
    decisions = turns = 0
    while True:
        count = capture_starts(after, n, colour, starts, work)
        if count == 0:  # pass if the other side has a turn, else the game is over
            if capture_starts(after, n, 3 - colour, starts, work) == 0:
                break
            _, seed = draw(seed, 1)
            decisions += 1
            turns += 1
            colour = 3 - colour
            continue
        index, seed = draw(seed, count)
        first = starts[index]
        decisions += 1
        turns += 1
        was_empty = after[first] == EMPTY
        for i in range(captures(after, n, first, colour, buffer)):
            after[buffer[i]] = colour
        after[first] = colour
        if was_empty:  # the drop's neutral, left out when no cell is allowed
            empty -= 1
            if adjacent:
                touching += _stone_touches(after, n, touch, first)
            spots = touching if adjacent else empty
            if spots:
                index, seed = draw(seed, spots)
                if adjacent:
                    cell = _nth_touching(after, touch, index)
                    after[cell] = NEUTRAL
                    touching += _stone_touches(after, n, touch, cell)
                else:
                    after[nth(after, 0, cells, EMPTY, EMPTY, index, -1, -1)] = NEUTRAL
                empty -= 1
                decisions += 1
        else:  # a swap: a second capturing neutral, then a stone given back
            index, seed = draw(seed, capturing_into(after, n, colour, NEUTRAL, starts))
            second = starts[index]
            for i in range(captures(after, n, second, colour, buffer)):
                after[buffer[i]] = colour
            after[second] = colour
            own = 0
            for v in after:
                own += v == colour
            index, seed = draw(seed, own - 2)
            after[nth(after, 0, cells, colour, colour, index, first, second)] = NEUTRAL
            decisions += 2
        colour = 3 - colour
    return count_winner(after), decisions, turns, False
