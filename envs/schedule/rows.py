"""A ``ScheduledState`` as a flat int32 row, and the turn machinery over it in numba, for the
scheduled games' ``envs.compiled.CompiledGame`` s (``envs.games.amazons.kernels``).

A row holds, for a board of ``cells`` cells::

    [0, cells)            the board (``envs.schedule.moves``' values)
    [cells, 2 cells)      1 on the cells of ``origins`` (the mover's pieces that may start a move)
    2 cells + SEAT ...    the scalars below: ``state.player``, ``turn``, ``moves_left``,
                          ``moves``, ``passes``, the outcome (-1 while the game goes on, else
                          the index of its returns in ``envs.kernels.OUTCOME_RETURNS``), the
                          micro-step (``len(partial)``) and ``partial``'s cells (``PARTIAL``
                          slots), how many cells ``placed`` holds, then ``placed`` (``most``
                          slots, the schedule's largest count); unused slots hold -1
    2 cells + SCALARS + most ...   the game's own entries (``ScheduledRows.extra``)

A scheduled game's context is a namedtuple with at least ``params`` (int64, starting with
``CELLS, RESTRICTED, MOST, STEPS, EXTRA``: the cells, whether the turn's restriction holds, the
schedule's largest count, the micro-steps of a move and the rules' observation planes; the game's
own parameters follow from ``PARAMS`` on) and ``schedule`` (the move counts, int64,
``TurnSchedule.counts``). :func:`to_play` and :func:`returns` serve any such context as they are;
:func:`record_move`, :func:`begin_turn` and :func:`observe_turn` are the ``ScheduledGame`` steps
the games' ``apply`` and ``observe`` are built from, and :func:`cut_playout` is the random
playout of any registered game over its ``legal`` and ``apply``. The steps are inlined where
they are called (``inline="always"``), as a playout calls them every move.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from envs import compiled
from envs.core import TERMINAL
from envs.kernels import CUT, OUTCOME_RETURNS, draw
from envs.schedule.moves import PIECE, MoveRules
from envs.schedule.mutator import ScheduledState

SEAT, TURN, MOVES_LEFT, MOVES, PASSES, OUTCOME, STEP, PARTIAL = range(8)  # after the board and origins
PARTIAL_SLOTS = 3  # a move's cells before its last micro-step (Amazons: the amazon and its destination)
PLACED_COUNT = PARTIAL + PARTIAL_SLOTS
PLACED = PLACED_COUNT + 1
SCALARS = PLACED  # then ``most`` slots of ``placed``
CELLS, RESTRICTED, MOST, STEPS, EXTRA = range(5)  # params
PARAMS = 5  # where a game's own params start
PLAYING = -1  # OUTCOME while the game goes on


class ScheduledRows(compiled.CompiledGame):
    """The rows of a ``ScheduledGame`` (module docstring); a game's class adds its context
    (``params`` starting with ``self.leading_params``, ``schedule`` as ``self.schedule``),
    ``max_legal`` and its own entries (``extra`` of them at ``self.extra_at``, written by
    :meth:`encode_extra`)."""

    def __init__(self, rules: MoveRules, schedule: tuple[int, ...], restricted: bool, extra: int = 0):
        """``schedule``: the move counts (``TurnSchedule.counts``); ``restricted``: the game's."""
        if len(rules.step_names) - 1 > PARTIAL_SLOTS:
            raise ValueError(f"{rules.name}: a row holds moves of at most {PARTIAL_SLOTS + 1} micro-steps")
        self.rules, self.cells, self.most = rules, rules.num_cells, max(schedule)
        self.schedule = np.array(schedule, np.int64)
        self.fields = 2 * self.cells
        self.extra_at = self.fields + SCALARS + self.most
        self.width = self.extra_at + extra
        self._blank = np.full(self.width, -1, np.int32)  # what ``encode`` fills in
        self._blank[self.cells : self.fields] = 0
        steps, planes = len(rules.step_names), len(rules.extra_plane_names)
        self.leading_params = [self.cells, int(restricted), self.most, steps, planes]  # ``CELLS`` ... ``EXTRA``

    def encode(self, state: ScheduledState) -> np.ndarray:
        cells, fields = self.cells, self.fields
        row = self._blank.copy()
        row[:cells] = state.board
        if state.origins:
            row[cells + np.fromiter(state.origins, np.int64, len(state.origins))] = 1
        outcome = PLAYING if state.result is None else OUTCOME_RETURNS.index(tuple(state.result))
        partial, placed = state.partial, state.placed
        scalars = (state.player, state.turn, state.moves_left, state.moves, state.passes, outcome, len(partial))
        row[fields : fields + PARTIAL] = scalars
        if partial:
            row[fields + PARTIAL : fields + PARTIAL + len(partial)] = partial
        row[fields + PLACED_COUNT] = len(placed)
        if placed:
            row[fields + PLACED : fields + PLACED + len(placed)] = placed
        self.encode_extra(state, row)
        return row

    def encode_extra(self, state: ScheduledState, row: np.ndarray) -> None:
        """Write the game's own entries of ``state``'s row."""

    def decode(self, row: np.ndarray) -> ScheduledState:
        cells, fields = self.cells, self.fields
        state = ScheduledState(row[:cells].astype(np.int8))
        scalars = row[fields:].tolist()
        state.player, state.turn, state.moves_left, state.moves, state.passes, outcome, step = scalars[:PARTIAL]
        state.partial = tuple(scalars[PARTIAL : PARTIAL + step])
        state.placed = tuple(scalars[PLACED : PLACED + scalars[PLACED_COUNT]])
        state.origins = frozenset(np.flatnonzero(row[cells:fields]).tolist())
        state.result = None if outcome == PLAYING else OUTCOME_RETURNS[outcome]
        return state


@njit(cache=True, inline="always")
def to_play(context, row):
    """The seat to move, or TERMINAL once the game is over."""
    fields = 2 * context.params[CELLS]
    return TERMINAL if row[fields + OUTCOME] != PLAYING else row[fields + SEAT]


@njit(cache=True)
def returns(context, row, out):
    """The seats' returns (zeros before the end): +1 to the winner, -1 to the loser."""
    outcome = row[2 * context.params[CELLS] + OUTCOME]
    out[0] = 1.0 if outcome == 1 else -1.0 if outcome == 2 else 0.0
    out[1] = -out[0]


@njit(cache=True, inline="always")
def record_move(context, row, landing):
    """``ScheduledGame.apply`` after a whole move: ``landing`` joins ``placed``, the move's cells
    are cleared, and the move counts (the caller ends the turn where it is over)."""
    fields = 2 * context.params[CELLS]
    row[fields + PLACED + row[fields + PLACED_COUNT]] = landing
    row[fields + PLACED_COUNT] += 1
    row[fields + STEP] = 0
    for k in range(PARTIAL_SLOTS):
        row[fields + PARTIAL + k] = -1
    row[fields + MOVES] += 1
    row[fields + MOVES_LEFT] -= 1


@njit(cache=True, inline="always")
def begin_turn(context, row):
    """``ScheduledGame._end_turn`` and ``_start_turn`` after a turn with moves: the other seat's
    turn and its moves from the schedule (the caller sets the origins flags, the new mover's
    pieces, and judges whether it has a move)."""
    params, schedule = context.params, context.schedule
    cells = params[CELLS]
    fields = 2 * cells
    row[fields + PASSES] = 0 if row[fields + PLACED_COUNT] else row[fields + PASSES] + 1
    seat = 1 - row[fields + SEAT]
    turn = row[fields + TURN] + 1
    row[fields + SEAT], row[fields + TURN] = seat, turn
    row[fields + MOVES_LEFT] = schedule[min(turn, len(schedule) - 1)]
    for k in range(row[fields + PLACED_COUNT]):
        row[fields + PLACED + k] = -1
    row[fields + PLACED_COUNT] = 0


@njit(cache=True)
def observe_turn(context, row, out):
    """``ScheduledGame.observe`` of everything but the rules' own planes (2 .. 2 + EXTRA - 1,
    left zero): the pieces, the move's cells, its micro-step, the moves left, the origins and
    ``placed``."""
    params = context.params
    cells, steps = params[CELLS], params[STEPS]
    fields = 2 * cells
    flat = out.reshape(out.shape[0], cells)
    flat[:] = 0.0
    seat = row[fields + SEAT] if row[fields + OUTCOME] == PLAYING else 0
    mine, theirs = PIECE[seat], PIECE[1 - seat]
    base = 2 + params[EXTRA]
    for cell in range(cells):
        value = row[cell]
        if value == mine:
            flat[0, cell] = 1.0
        elif value == theirs:
            flat[1, cell] = 1.0
        if (row[cells + cell] == 1) if params[RESTRICTED] else value == mine:
            flat[base + steps + 1, cell] = 1.0
    step = row[fields + STEP]
    for k in range(step):
        flat[base, row[fields + PARTIAL + k]] = 1.0
    if step:
        flat[base + step, :] = 1.0
    flat[base + steps, :] = np.float32(row[fields + MOVES_LEFT] / params[MOST])
    for k in range(row[fields + PLACED_COUNT]):
        flat[base + steps + 2, row[fields + PLACED + k]] = 1.0


@njit(cache=True)
def cut_playout(context, row, seed, cut, cut_board):
    """``(outcome, decisions, turns)`` of a random game from ``row`` (played on in place): one
    ``envs.kernels.draw`` per decision over the game's ``legal`` actions, the engine loop's game
    (``Game.engine_playout``); the outcome as ``OUTCOME``, or ``envs.kernels.CUT`` once ``cut``
    turns have ended (-1: never), the board then in ``cut_board``."""
    cells = context.params[CELLS]
    actions = np.empty(cells + 1, np.int64)
    decisions = turns = 0
    mover = compiled.to_play(context, row)
    while mover != TERMINAL:
        if turns == cut:
            cut_board[:] = row[:cells]
            return CUT, decisions, turns
        index, seed = draw(seed, compiled.legal(context, row, actions))
        compiled.apply(context, row, actions[index])
        decisions += 1
        player = compiled.to_play(context, row)
        turns += player != mover
        mover = player
    return row[2 * cells + OUTCOME], decisions, turns
