"""The neutral games (Nex, Neumoku, Neu-Y, NeuVersi, AdNeuVersi) as an
``envs.compiled.CompiledGame``: ``NeutralGame``'s micro-steps over a flat row.

A row (int32) holds the board (``cells`` colours), then the scalars ``COLOUR, SWAPPED,
TURNS, PLAYER, OUTCOME`` (as ``envs.stones.compiled``'s rows, so its ``to_play`` and
``returns`` serve here too), the counts of empty cells, first and second colour and
neutrals (``COUNTS + value``, ``StoneState.counts``), then ``PHASE`` and the turn's chosen
cells (``CHOSEN``, two entries, -1 where none). The context is a :class:`NeutralContext`:
``params`` int64 ``[n, goal, pie_turn, goal_stones, adjacent, captures]`` (pie_turn -1
without the pie rule), the rules' ``neighbour_array`` and ``goal_sides``, and scratch room
for the capture kernels. Each function mirrors the ``NeutralGame`` method it is named after
(a turn of one to three micro-steps, Taylor's end-game rules, forced passes in the capture
games, the goal judged after the whole turn); the tests hold the driver that uses them to
the engine's searches. ``observe`` is ``NeutralGame.observe`` from the row.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from envs.compiled import CompiledGame, register
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
from envs.neutral.mutator import NeutralGame
from envs.stones.compiled import (
    COLOUR,
    OUTCOME,
    PLAYER,
    SWAPPED,
    TURNS,
    observe_stones,
    returns,
    to_play,
    won_by,
)
from envs.stones.flanking import capture_starts, captures, capturing_into
from envs.stones.goals import outcome_at_end, turn_reached
from envs.stones.rules import StoneState

COUNTS, PHASE, CHOSEN = 5, 9, 10  # after the board: counts of EMPTY..NEUTRAL, the micro-step, 2 chosen cells
SCALARS = 12
N, GOAL, PIE_TURN, GOAL_STONES, ADJACENT, CAPTURES = range(6)  # params
NEUTRALS, CHOSEN_PLANE = 2, 3  # planes: the neutral stones, the cells chosen earlier this turn
PLANES = len(NeutralGame.PLANES)  # then the step planes (3 + phase), before the off-board plane and the last two
NeutralContext = namedtuple(
    "NeutralContext", ["params", "neighbours", "sides", "neutrals", "scratch", "flipped", "starts"]
)


class NeutralRows(CompiledGame):
    """The ``CompiledGame`` of a ``NeutralGame`` (module docstring)."""

    def __init__(self, game):
        rules, n = game.rules, game.n
        self.game, self.cells = game, n * n
        pie_turn = -1 if game.pie_turn is None else game.pie_turn
        goal_stones = min(rules.goal_stones, 2**62)
        params = [n, rules.kernel_goal, pie_turn, goal_stones, game.adjacent_neutrals, rules.captures]
        self.context = NeutralContext(
            np.array(params, np.int64),
            np.ascontiguousarray(rules.neighbour_array, dtype=np.int64),
            np.ascontiguousarray(rules.goal_sides, dtype=np.uint8),
            np.empty(self.cells, np.int64),
            np.empty(self.cells, np.uint8),
            np.empty(4 * n, np.int64),
            np.empty(self.cells, np.int64),
        )
        self.width = self.cells + SCALARS
        self.max_legal = self.cells + 1  # the cells, then PASS or SWAP_SIDES

    def encode(self, state: StoneState) -> np.ndarray:
        cells = self.cells
        row = np.full(self.width, -1, np.int32)
        row[:cells] = np.frombuffer(bytes(state.board), np.uint8)
        row[cells : cells + COUNTS] = (state.colour, state.swapped, state.turns, state.player, state.outcome)
        row[cells + COUNTS : cells + PHASE] = state.counts
        row[cells + PHASE] = state.phase
        row[cells + CHOSEN : cells + CHOSEN + len(state.chosen)] = state.chosen
        return row

    def decode(self, row: np.ndarray) -> StoneState:
        cells = self.cells
        state = StoneState(row[:cells].astype(np.uint8).tobytes())
        scalars = row[cells:].tolist()
        state.colour, swapped, state.turns, state.player, state.outcome = scalars[:COUNTS]
        state.swapped = bool(swapped)
        state.phase = scalars[PHASE]
        state.chosen = tuple(c for c in scalars[CHOSEN : CHOSEN + 2] if c >= 0)
        return state


@njit(cache=True)
def _put(row, cells, cell, value):
    """``NeutralGame._set``: ``cell`` holds ``value``, the counts kept in step."""
    row[cells + COUNTS + row[cell]] -= 1
    row[cells + COUNTS + value] += 1
    row[cell] = value


@njit(cache=True)
def _place(context, row, cell, colour):
    """``NeutralGame._place``: a ``colour`` stone on ``cell`` with its captures (where the rules capture)."""
    n, flipped = context.params[N], context.flipped
    cells = n * n
    if context.params[CAPTURES]:
        for i in range(captures(row[:cells], n, cell, colour, flipped)):
            _put(row, cells, flipped[i], colour)
    _put(row, cells, cell, colour)


@njit(cache=True)
def _starts(context, row, colour, out):
    """``NeutralGame._moves``: the cells that start a whole turn for ``colour``, in order."""
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
    """``NeutralGame.legal_actions`` for each micro-step (``envs.neutral.mutator``)."""
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
    """``NeutralGame._end_turn`` (the turn made ``first``, ``second`` its own; -1: none) and
    ``_start_turn``: a win, or the other colour's turn (a pass where it must), or the end."""
    params, neighbours, sides = context.params, context.neighbours, context.sides
    n = params[N]
    cells = n * n
    board, meta = row[:cells], row[cells:]
    mover = meta[COLOUR]
    meta[TURNS] += 1
    meta[PHASE], meta[CHOSEN], meta[CHOSEN + 1] = START, -1, -1
    if first >= 0 and meta[COUNTS + mover] >= params[GOAL_STONES]:
        if turn_reached(board, n, params[GOAL], mover, first, second, neighbours, sides):
            meta[OUTCOME], meta[PLAYER] = mover, TERMINAL
            return
    colour = 3 - mover
    meta[COLOUR] = colour
    if params[CAPTURES]:
        more = _starts(context, row, colour, context.starts) > 0 or _starts(context, row, mover, context.starts) > 0
    else:
        more = meta[COUNTS + EMPTY] + meta[COUNTS + NEUTRAL] > 0
    if more:
        meta[PLAYER] = (colour - 1) ^ meta[SWAPPED]
        return
    first_count, second_count = meta[COUNTS + FIRST], meta[COUNTS + SECOND]
    meta[OUTCOME] = outcome_at_end(board, first_count, second_count, n, params[GOAL], neighbours, sides)
    meta[PLAYER] = TERMINAL


@njit(cache=True)
def apply(context, row, action):
    """``NeutralGame.apply`` for a legal action: swap sides, a pass, or one micro-step (``_play``)."""
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
def playout(context, row, seed, out):
    """``StoneGame.random_playout``'s returns: the rest of a turn begun one drawn micro-step at a
    time, then from the turn start ``neutral_playout`` (the same kernel as the engine's)."""
    params, neighbours, sides = context.params, context.neighbours, context.sides
    n = params[N]
    cells = n * n
    if row[cells + PHASE] != START:
        row = row.copy()
        actions = np.empty(cells + 1, np.int64)
        while row[cells + PLAYER] != TERMINAL and row[cells + PHASE] != START:
            index, seed = draw(seed, legal(context, row, actions))
            apply(context, row, actions[index])
        if row[cells + PLAYER] == TERMINAL:
            returns(context, row, out)
            return
    swapped = row[cells + SWAPPED]
    pie_turn = -1 if params[PIE_TURN] < 0 or swapped else params[PIE_TURN]
    outcome, _, _, swaps = neutral_playout(
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
    won_by(outcome, swapped != 0 or swaps, out)


@njit(cache=True)
def observe(context, row, out):
    """``NeutralGame.observe``: the stone planes, the neutral stones, the cells chosen earlier
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
