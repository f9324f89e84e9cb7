"""A :class:`~envs.schedule.mutator.ScheduledState` as a flat int32 row, and the turn
bookkeeping every scheduled game's compiled rules (``envs.compiled``) share.

A row holds, for a board of ``cells`` cells::

    row[:cells]                 the board (``envs.schedule.moves``' values, OFF_BOARD -1)
    row[cells : 2 * cells]      1 on the turn's ``origins`` (the mover's pieces from the turn's
                                start still in place), 0 elsewhere
    row[2 * cells + SEAT ...]   the scalars SEAT, TURN, MOVES_LEFT, PICKED (the move's first
                                cell, -1: none), PASSES, MOVES, OUTCOME (-1 while the game goes
                                on, else the winning piece or 0 for a draw), PLACED_COUNT
    row[2 * cells + SCALARS:]   ``placed``: the cells this turn's moves put a piece on, in order
                                (the schedule's largest count of entries)

A game's context is a namedtuple whose ``params`` start ``[cells, move_limit, restricted,
most]`` (``CELLS, MOVE_LIMIT, RESTRICTED, MOST``) and whose ``schedule`` is the turns' move
counts (int64), and whose ``scratch`` has room for the legal actions, so :func:`to_play`,
:func:`returns`, the random playout (:func:`play`, :func:`playout`) and the helpers here
serve every such game. The game's own module (``envs.games.hexxagon.kernels``,
``envs.games.send_it.kernels``) gives ``legal``, ``observe`` and ``step`` (``apply`` that
leaves the next legal actions behind, so a playout finds each decision's actions once) and
registers them with :func:`register_game`. Moves of one or two micro-steps (a piece picked,
then where it goes) fit the row.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit
from numba.extending import overload

from envs import compiled as rules
from envs.compiled import CompiledGame
from envs.core import TERMINAL
from envs.kernels import CUT, OUTCOME_RETURNS, draw
from envs.schedule.mutator import ScheduledState

SEAT, TURN, MOVES_LEFT, PICKED, PASSES, MOVES, OUTCOME, PLACED_COUNT = range(8)  # after board and origins
SCALARS = 8
CELLS, MOVE_LIMIT, RESTRICTED, MOST = range(4)  # the first params of every context
_STEPS: dict[type, Any] = {}  # context class -> the game's ``step``


def register_game(context_class: type, legal, step, apply, observe) -> None:
    """A scheduled game's functions for contexts of ``context_class``: ``envs.compiled``'s
    (with :func:`to_play`, :func:`returns` and :func:`playout` from here), and ``step(context,
    row, action, out)``: ``apply`` of a legal action, then the legal actions after it into
    ``out`` and their count (0 at the end), which :func:`play` draws from."""
    rules.register(
        context_class, legal=legal, apply=apply, to_play=to_play, returns=returns, playout=playout, observe=observe
    )
    _STEPS[context_class] = step


def step(context, row, action, out):
    """The registered ``step`` of the context's game (in numba)."""
    raise NotImplementedError("envs.schedule.rows.step runs inside numba kernels only")


@overload(step, jit_options={"cache": True})
def _step(context, row, action, out):
    function = _STEPS.get(getattr(context, "instance_class", None))
    return None if function is None else (lambda context, row, action, out: function(context, row, action, out))


class ScheduledRows(CompiledGame):
    """Encode and decode between a ``ScheduledGame``'s states and rows (module docstring);
    subclasses set ``context`` and ``max_legal``."""

    def __init__(self, cells: int, most: int):
        self.cells, self.most = int(cells), int(most)
        self.width = 2 * cells + SCALARS + most

    def encode(self, state: ScheduledState) -> np.ndarray:
        cells = self.cells
        row = np.empty(self.width, np.int32)
        row[:cells] = state.board
        row[cells : 2 * cells] = 0
        if state.origins:
            row[[cells + cell for cell in state.origins]] = 1
        outcome = -1 if state.result is None else OUTCOME_RETURNS.index(tuple(state.result))
        picked = state.partial[0] if state.partial else -1
        placed = state.placed
        row[2 * cells :] = (
            state.player,
            state.turn,
            state.moves_left,
            picked,
            state.passes,
            state.moves,
            outcome,
            len(placed),
            *placed,
            *(-1,) * (self.most - len(placed)),
        )
        return row

    def decode(self, row: np.ndarray) -> ScheduledState:
        cells = self.cells
        state = ScheduledState(row[:cells].astype(np.int8))
        state.origins = frozenset(np.flatnonzero(row[cells : 2 * cells]).tolist())
        seat, turn, moves_left, picked, passes, moves, outcome, placed = row[2 * cells : 2 * cells + SCALARS].tolist()
        state.player, state.turn, state.moves_left, state.passes, state.moves = seat, turn, moves_left, passes, moves
        state.partial = () if picked < 0 else (picked,)
        state.placed = tuple(row[2 * cells + SCALARS : 2 * cells + SCALARS + placed].tolist())
        state.result = None if outcome < 0 else OUTCOME_RETURNS[outcome]
        return state


@njit(cache=True)
def play(context, row, seed, cut, cut_board):
    """``(outcome, decisions, turns)`` of a random game from ``row`` (played on in place), one
    ``envs.kernels.draw`` per decision over the legal actions, the game ``Game.engine_playout``
    plays for the same seed: ``outcome`` the winning piece or 0 for a draw; ``CUT`` once
    ``cut`` turns have ended (-1: never), the board then in ``cut_board``. ``context.scratch``
    has room for the legal actions."""
    cells = context.params[CELLS]
    base = 2 * cells
    actions = np.empty(context.scratch.shape[0], np.int64)
    count = rules.legal(context, row, actions)
    decisions = turns = 0
    while row[base + OUTCOME] < 0:
        if turns == cut:  # the game goes on: the heuristic scores the board
            cut_board[:] = row[:cells]
            return CUT, decisions, turns
        index, seed = draw(seed, count)
        mover = row[base + SEAT]
        count = step(context, row, actions[index], actions)
        decisions += 1
        turns += row[base + OUTCOME] >= 0 or row[base + SEAT] != mover
    return row[base + OUTCOME], decisions, turns


@njit(cache=True)
def playout(context, row, seed, out):
    """The returns of :func:`play` from a copy of ``row`` into ``out`` (``envs.compiled.playout``)."""
    row = row.copy()
    play(context, row, seed, -1, np.empty(0, np.int8))
    returns(context, row, out)


# the helpers index the row rather than slice it: a slice costs a reference count each time
@njit(cache=True)
def to_play(context, row):
    """``ScheduledGame.to_play``: the seat, or TERMINAL once the game has an outcome."""
    base = 2 * context.params[CELLS]
    return TERMINAL if row[base + OUTCOME] >= 0 else row[base + SEAT]


@njit(cache=True)
def returns(context, row, out):
    """``ScheduledGame.returns``: +1 / -1 by the winning piece's seat, zeros for a draw or before the end."""
    outcome = row[2 * context.params[CELLS] + OUTCOME]
    out[0] = out[1] = 0.0
    if outcome > 0:
        out[outcome - 1], out[2 - outcome] = 1.0, -1.0


@njit(cache=True)
def is_over(context, row):
    return row[2 * context.params[CELLS] + OUTCOME] >= 0


@njit(cache=True)
def moved(context, row, landing):
    """A whole move ended on ``landing`` (``ScheduledGame.apply``'s bookkeeping): it joins
    ``placed``, the move counts, no piece stays picked. Whether the move limit is reached."""
    params = context.params
    base = 2 * params[CELLS]
    row[base + SCALARS + row[base + PLACED_COUNT]] = landing
    row[base + PLACED_COUNT] += 1
    row[base + PICKED] = -1
    row[base + MOVES] += 1
    row[base + MOVES_LEFT] -= 1
    return row[base + MOVES] >= params[MOVE_LIMIT]


@njit(cache=True)
def next_turn(context, row):
    """``ScheduledGame._end_turn`` and ``_start_turn`` but the stuck test: the turn counts as
    passed when it placed nothing; after two passed turns in a row, False (the caller scores
    the game); else the other seat's turn starts (its move count, its origins) and True."""
    params, schedule = context.params, context.schedule
    cells = params[CELLS]
    base = 2 * cells
    row[base + PASSES] = 0 if row[base + PLACED_COUNT] else row[base + PASSES] + 1
    if row[base + PASSES] >= 2:
        return False
    seat, turn = 1 - row[base + SEAT], row[base + TURN] + 1
    row[base + SEAT], row[base + TURN] = seat, turn
    row[base + MOVES_LEFT] = schedule[min(turn, schedule.shape[0] - 1)]
    for k in range(row[base + PLACED_COUNT]):
        row[base + SCALARS + k] = -1
    row[base + PLACED_COUNT] = 0
    for i in range(cells):
        row[cells + i] = row[i] == 1 + seat
    return True


@njit(cache=True)
def observe_turn(context, row, steps, out):
    """``ScheduledGame.observe`` but the rules' own planes (left zero, from plane 2 up to
    the piece-picked plane): ``out`` is float32 ``[planes, rows, cols]``; ``steps`` the
    micro-steps of a move."""
    params = context.params
    cells = params[CELLS]
    meta = row[2 * cells :]
    flat = out.reshape(out.shape[0], cells)
    flat[:] = 0.0
    seat = meta[SEAT] if meta[OUTCOME] < 0 else 0
    base = out.shape[0] - steps - 3  # the piece picked, the later micro-steps, then the turn's three
    for i in range(cells):
        if row[i] == 1 + seat:
            flat[0, i] = 1.0
            if not params[RESTRICTED]:
                flat[base + steps + 1, i] = 1.0
        elif row[i] == 2 - seat:
            flat[1, i] = 1.0
        if params[RESTRICTED] and row[cells + i]:
            flat[base + steps + 1, i] = 1.0
    if meta[PICKED] >= 0:
        flat[base, meta[PICKED]] = 1.0
        flat[base + 1, :] = 1.0
    flat[base + steps, :] = np.float32(meta[MOVES_LEFT] / params[MOST])
    for k in range(meta[PLACED_COUNT]):
        flat[base + steps + 2, meta[SCALARS + k]] = 1.0
