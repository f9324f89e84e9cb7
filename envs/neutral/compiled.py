"""The neutral games' rules (Nex, Neumoku, Neu-Y, NeuVersi, AdNeuVersi), written once in numba
over the stone games' flat int32 row (``envs.stones.compiled`` describes it): the neutral
mutator's micro-steps, which ``envs.neutral.mutator.NeutralGame`` makes the engine (``envs.kit``).

A turn is one to three micro-steps by the same seat, each one action (docs/rules.md, the
encodings): at ``START`` an empty cell (a drop: the stone lands at once, with its captures, or
the fill rule), a neutral (a swap, or the convert rule), PASS or SWAP_SIDES; at ``DROP_NEUTRAL``
the drop's neutral (an empty cell; next to a stone in AdNeuVersi; skipped when none); at
``SWAP_SECOND`` the swap's second neutral; at ``SWAP_GIVE`` the stone of the mover's to
neutralise, not one of the two just swapped. Without captures (Hex, Gomoku, Y) a drop needs two
empty cells and a swap two neutrals and one stone of the mover's; when neither exists Bill
Taylor's end-game rules give the turn (:func:`turn_starts`). With captures (Reversi) every stone
placed, the swapped neutrals included, must capture; a side with no drop and no swap passes, and
the game ends when neither side has a turn. The goal is judged after the whole turn. Every
start that ``legal`` offers can be completed into a whole turn.

The context is a :class:`NeutralContext`: ``params`` int64 ``[n, goal, pie_turn, goal_stones,
adjacent, captures]`` (pie_turn -1 without the pie rule), the rules' ``neighbour_array`` and
``goal_sides``, and scratch room for the capture kernels.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from envs.compiled import register
from envs.core import TERMINAL
from envs.kernels import EMPTY, FIRST, NEUTRAL, SECOND, draw
from envs.neutral.kernels import (
    DROP_NEUTRAL,
    START,
    SWAP_GIVE,
    SWAP_SECOND,
    neutral_playout,
    touching_into,
    turn_starts,
)
from envs.stones.compiled import (
    CHOSEN,
    COLOUR,
    COUNTS,
    OUTCOME,
    PHASE,
    PLAYER,
    STONE_PLANES,
    SWAPPED,
    TURNS,
    count_values,
    observe_stones,
    returns,
    to_play,
    won_by,
)
from envs.stones.flanking import capture_starts, captures, capturing_into
from envs.stones.goals import outcome_at_end, turn_reached

N, GOAL, PIE_TURN, GOAL_STONES, ADJACENT, CAPTURES = range(6)  # params
NEUTRALS, CHOSEN_PLANE = 2, 3  # planes: the neutral stones, the cells chosen earlier this turn
PLANES = (
    STONE_PLANES + 5
)  # then the neutrals, the chosen cells, the step planes (3 + phase), before the off-board plane and the last two
NeutralContext = namedtuple(
    "NeutralContext", ["params", "neighbours", "sides", "neutrals", "scratch", "flipped", "starts"]
)


def neutral_context(n, goal, pie_turn, goal_stones, adjacent, captures, neighbours, sides) -> NeutralContext:
    """The context of a neutral game (``pie_turn`` -1: no pie rule)."""
    cells = n * n
    params = [n, goal, pie_turn, min(goal_stones, 2**62), adjacent, captures]
    return NeutralContext(
        np.array(params, np.int64),
        np.ascontiguousarray(neighbours, dtype=np.int64),
        np.ascontiguousarray(sides, dtype=np.uint8),
        np.empty(cells, np.int64),
        np.empty(cells, np.uint8),
        np.empty(4 * n, np.int64),
        np.empty(cells, np.int64),
    )


@njit(cache=True)
def _put(row, cells, cell, value):
    """``cell`` holds ``value``, the counts kept in step."""
    row[cells + COUNTS + row[cell]] -= 1
    row[cells + COUNTS + value] += 1
    row[cell] = value


@njit(cache=True)
def _place(context, row, cell, colour):
    """A ``colour`` stone on ``cell`` with its captures (where the rules capture)."""
    n, flipped = context.params[N], context.flipped
    cells = n * n
    if context.params[CAPTURES]:
        for i in range(captures(row[:cells], n, cell, colour, flipped)):
            _put(row, cells, flipped[i], colour)
    _put(row, cells, cell, colour)


@njit(cache=True)
def _starts(context, row, colour, out):
    """The cells that start a whole turn for ``colour`` (drops, swaps, or the end-game rules), in order."""
    params = context.params
    n = params[N]
    cells = n * n
    board = row[:cells]
    if params[CAPTURES]:
        return capture_starts(board, n, colour, out, (context.neutrals, context.scratch, context.flipped))
    counts = row[cells + COUNTS : cells + PHASE]
    _, _, want_empty, want_neutral = turn_starts(counts[EMPTY], counts[NEUTRAL], counts[colour])
    count = 0
    for i in range(cells):
        if (want_empty and board[i] == EMPTY) or (want_neutral and board[i] == NEUTRAL):
            out[count] = i
            count += 1
    return count


@njit(cache=True)
def legal(context, row, out):
    """The legal actions of each micro-step (module docstring)."""
    params = context.params
    n = params[N]
    cells = n * n
    if row[cells + PLAYER] == TERMINAL:
        return 0
    board, phase, colour = row[:cells], row[cells + PHASE], row[cells + COLOUR]
    if phase == START:
        count = _starts(context, row, colour, out)
        if count == 0:  # the other side has a turn (else the game would be over)
            out[0] = cells
            return 1
        if row[cells + TURNS] == params[PIE_TURN] and row[cells + SWAPPED] == 0:
            out[count] = cells + 1
            count += 1
        return count
    if phase == DROP_NEUTRAL:
        if params[ADJACENT]:
            return touching_into(board, n, out)
        value = EMPTY
    elif phase == SWAP_SECOND:
        if params[CAPTURES]:
            return capturing_into(board, n, colour, NEUTRAL, out)
        value = NEUTRAL
    else:  # SWAP_GIVE: a stone of the mover's but the two just swapped
        value = colour
    count = 0
    for i in range(cells):
        if board[i] == value and (phase != SWAP_GIVE or (i != row[cells + CHOSEN] and i != row[cells + CHOSEN + 1])):
            out[count] = i
            count += 1
    return count


@njit(cache=True)
def _end_turn(context, row, first, second):
    """The turn made ``first`` and ``second`` (-1: none) the mover's: a win, else the other colour's turn."""
    params = context.params
    n = params[N]
    cells = n * n
    meta = row[cells:]
    mover = meta[COLOUR]
    meta[TURNS] += 1
    meta[PHASE], meta[CHOSEN], meta[CHOSEN + 1] = START, -1, -1
    if first >= 0 and meta[COUNTS + mover] >= params[GOAL_STONES]:
        if turn_reached(row[:cells], n, params[GOAL], mover, first, second, context.neighbours, context.sides):
            meta[OUTCOME], meta[PLAYER] = mover, TERMINAL
            return
    meta[COLOUR] = 3 - mover
    _neutral_turn(context, row)


@njit(cache=True)
def _neutral_turn(context, row):
    """The colour to move has a turn (a pass where only the other side has one), or the game
    ends by the base game's count."""
    params, neighbours, sides = context.params, context.neighbours, context.sides
    n = params[N]
    cells = n * n
    board, meta = row[:cells], row[cells:]
    colour = meta[COLOUR]
    if params[CAPTURES]:
        starts = context.starts
        more = _starts(context, row, colour, starts) > 0 or _starts(context, row, 3 - colour, starts) > 0
    else:
        more = meta[COUNTS + EMPTY] + meta[COUNTS + NEUTRAL] > 0
    if more:
        meta[PLAYER] = (colour - 1) ^ meta[SWAPPED]
        return
    first_count, second_count = meta[COUNTS + FIRST], meta[COUNTS + SECOND]
    meta[OUTCOME] = outcome_at_end(board, first_count, second_count, n, params[GOAL], neighbours, sides)
    meta[PLAYER] = TERMINAL


@njit(cache=True)
def begin(context, row):
    """Fill a row made by ``envs.stones.compiled.new_row``: counts, whose turn it is, or the end."""
    count_values(row, context.params[N] * context.params[N])
    _neutral_turn(context, row)


@njit(cache=True)
def apply(context, row, action):
    """A legal action: swap sides, a pass, or one micro-step."""
    params = context.params
    n = params[N]
    cells = n * n
    meta = row[cells:]
    colour, phase = meta[COLOUR], meta[PHASE]
    if action == cells + 1:  # swap-sides: the same colour moves next, now the other seat's
        meta[SWAPPED] = 1
        meta[TURNS] += 1
        meta[PLAYER] = (colour - 1) ^ 1
        return
    if action == cells:
        _end_turn(context, row, -1, -1)
        return
    if phase == START:
        was_empty = row[action] == EMPTY
        drop, swap, _, _ = turn_starts(meta[COUNTS + EMPTY], meta[COUNTS + NEUTRAL], meta[COUNTS + colour])
        if params[CAPTURES]:
            drop = swap = True
        _place(context, row, action, colour)
        meta[CHOSEN] = action
        if was_empty and drop:
            if params[ADJACENT] or meta[COUNTS + EMPTY] == 0:
                spots = touching_into(row[:cells], n, context.starts) if params[ADJACENT] else 0
                if spots == 0:  # the neutral is left out
                    _end_turn(context, row, action, -1)
                    return
            meta[PHASE] = DROP_NEUTRAL
        elif not was_empty and swap:
            meta[PHASE] = SWAP_SECOND
        else:  # the fill or convert rule: the whole turn
            _end_turn(context, row, action, -1)
    elif phase == DROP_NEUTRAL:
        _put(row, cells, action, NEUTRAL)
        _end_turn(context, row, meta[CHOSEN], -1)
    elif phase == SWAP_SECOND:
        _place(context, row, action, colour)
        meta[CHOSEN + 1] = action
        meta[PHASE] = SWAP_GIVE
    else:
        _put(row, cells, action, NEUTRAL)
        _end_turn(context, row, meta[CHOSEN], meta[CHOSEN + 1])


@njit(cache=True)
def play(context, row, seed):
    """A random game from the row (left untouched): ``(outcome colour or 0, decisions, turns,
    the pie swap taken)``. A turn begun is finished one drawn micro-step at a time, then from the
    turn start ``envs.neutral.kernels.neutral_playout`` plays the game ``envs.row_playout`` plays."""
    params, neighbours, sides = context.params, context.neighbours, context.sides
    n = params[N]
    cells = n * n
    decisions = turns = 0
    if row[cells + PHASE] != START:
        row = row.copy()
        actions = np.empty(cells + 1, np.int64)
        while row[cells + PLAYER] != TERMINAL and row[cells + PHASE] != START:
            index, seed = draw(seed, legal(context, row, actions))
            apply(context, row, actions[index])
            decisions += 1
        turns = 1
    if row[cells + PLAYER] == TERMINAL:
        return row[cells + OUTCOME], decisions, turns, row[cells + SWAPPED] != 0
    swapped = row[cells + SWAPPED]
    pie_turn = -1 if params[PIE_TURN] < 0 or swapped else params[PIE_TURN]
    outcome, more, more_turns, swaps = neutral_playout(
        row[:cells],
        n,
        row[cells + COLOUR],
        row[cells + TURNS],
        pie_turn,
        params[GOAL],
        params[GOAL_STONES],
        params[ADJACENT] != 0,
        neighbours,
        sides,
        seed,
    )
    return outcome, decisions + more, turns + more_turns, swapped != 0 or swaps


@njit(cache=True)
def playout(context, row, seed, out):
    """The returns of ``play``."""
    outcome, _, _, swapped = play(context, row, seed)
    won_by(outcome, swapped, out)


@njit(cache=True)
def observe(context, row, out):
    """The stone planes, the neutral stones, the cells chosen earlier
    this turn, the micro-step's plane of ones (none at a turn's start)."""
    params = context.params
    cells = params[N] * params[N]
    meta = row[cells:]
    phase = meta[PHASE]
    pie = meta[TURNS] == params[PIE_TURN] and meta[SWAPPED] == 0 and phase == START and meta[PLAYER] != TERMINAL
    observe_stones(row[:cells], meta[COLOUR], pie, PLANES, out)
    flat = out.reshape(out.shape[0], cells)
    for i in range(cells):
        if row[i] == NEUTRAL:
            flat[NEUTRALS, i] = 1.0
    for k in range(2):
        if meta[CHOSEN + k] >= 0:
            flat[CHOSEN_PLANE, meta[CHOSEN + k]] = 1.0
    if phase != START:
        flat[CHOSEN_PLANE + phase, :] = 1.0


register(NeutralContext, legal=legal, apply=apply, to_play=to_play, returns=returns, playout=playout, observe=observe)
