"""The flat int32 row of a scheduled game (``envs.schedule.game.TurnGame``: its state is
the row), and the turn bookkeeping and random playout every scheduled game's rules share
(``envs.games.amazons.kernels``, ``envs.games.hexxagon.kernels``, ``envs.games.send_it.kernels``,
``envs.games.biversi.kernels``).

A row holds, for a board of ``cells`` cells::

    [0, cells)            the board (``envs.schedule.moves``' values)
    [cells, 2 cells)      1 on the cells of ``origins`` (the mover's pieces that may start a move)
    2 cells + SEAT ...    the scalars: the seat to move, ``turn``, ``moves_left``, ``moves``,
                          ``passes``, the outcome (``PLAYING`` while the game goes on, else the
                          index of its returns in ``envs.kernels.OUTCOME_RETURNS``: the winning
                          piece, 0 for a draw), the micro-step (``len(partial)``) and
                          ``partial``'s cells (``PARTIAL_SLOTS`` slots), how many cells
                          ``placed`` holds, then ``placed`` (``most`` slots, the schedule's
                          largest count); unused slots hold -1
    2 cells + SCALARS + most ...   the game's own entries
    last                  ``cells`` (the kernels read it from ``params``; the state from here)

A game's context is a namedtuple whose ``params`` (int64) start ``CELLS, RESTRICTED, MOST,
STEPS, EXTRA, MOVE_LIMIT, MAX_LEGAL`` (:func:`leading_params`: the cells, whether the turn's
restriction holds, the schedule's largest count, the micro-steps of a move, the rules'
observation planes, the move limit and the most legal actions; the game's own parameters
follow from ``PARAMS`` on) and whose ``schedule`` is the move counts (int64,
``TurnSchedule.counts``).

How a scheduled game joins: its kernels module gives, in numba, ``legal``, ``apply``, ``step``
(``apply`` that leaves the next position's legal actions behind, so a playout finds each
decision's actions once) and ``observe`` (over :func:`observe_turn`), built on
:func:`record_move` and :func:`begin_turn`, and registers them with :func:`register_game`.
:func:`to_play`, :func:`returns` and the random playout (:func:`play`, :func:`playout`) then
come from here.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit
from numba.extending import overload

from envs import compiled
from envs.core import TERMINAL
from envs.kernels import CUT, draw
from envs.schedule.moves import PIECE

SEAT, TURN, MOVES_LEFT, MOVES, PASSES, OUTCOME, STEP, PARTIAL = range(8)  # after the board and origins
PARTIAL_SLOTS = 3  # a move's cells before its last micro-step (Amazons: the amazon and its destination)
PLACED_COUNT = PARTIAL + PARTIAL_SLOTS
PLACED = PLACED_COUNT + 1
SCALARS = PLACED  # then ``most`` slots of ``placed``
CELLS, RESTRICTED, MOST, STEPS, EXTRA, MOVE_LIMIT, MAX_LEGAL = range(7)  # params
PARAMS = 7  # where a game's own params start
PLAYING = -1  # OUTCOME while the game goes on
NO_LIMIT = np.iinfo(np.int64).max  # MOVE_LIMIT of a game without one
_STEPS: dict[type, Any] = {}  # context class -> the game's ``step``


def register_game(context_class: type, legal, apply, step, observe) -> None:
    """A scheduled game's functions for contexts of ``context_class``: ``envs.compiled``'s
    (with :func:`to_play`, :func:`returns` and :func:`playout` from here), and ``step(context,
    row, action, out)``: ``apply`` of a legal action, then the legal actions after it into
    ``out`` and their count (0 at the end), which :func:`play` draws from."""
    compiled.register(
        context_class, legal=legal, apply=apply, to_play=to_play, returns=returns, playout=playout, observe=observe
    )
    _STEPS[context_class] = step


def step(context, row, action, out):
    """The registered ``step`` of the context's game (in numba)."""
    raise NotImplementedError("envs.schedule.rows.step runs inside numba kernels only")


# without reference counting: a step allocates nothing, and the counts numba keeps for every
# array it passes into an inlined helper (``context``'s arrays and the row) made a playout ~30% slower
@overload(step, inline="always", jit_options={"cache": True, "_nrt": False})
def _step(context, row, action, out):
    function = _STEPS.get(getattr(context, "instance_class", None))
    return None if function is None else (lambda context, row, action, out: function(context, row, action, out))


def leading_params(cells: int, restricted: bool, most: int, steps: int, planes: int, move_limit, max_legal: int):
    """A context's leading ``params`` (module docstring): ``move_limit`` None for no limit."""
    limit = NO_LIMIT if move_limit is None else move_limit
    return [cells, int(restricted), most, steps, planes, limit, max_legal]


def start_row(board: np.ndarray, schedule, seat: int, turn: int, extra) -> np.ndarray:
    """The row of the start of ``seat``'s turn number ``turn`` (0: the game's first) on ``board``,
    nothing played in it yet: its origins the seat's pieces, ``extra`` the game's own entries;
    whether the seat has a move there is the caller's to judge."""
    cells, most = len(board), max(schedule)
    row = np.full(2 * cells + SCALARS + most + len(extra) + 1, -1, np.int32)
    row[:cells] = board
    row[cells : 2 * cells] = np.asarray(board) == PIECE[seat]
    moves_left = schedule[min(turn, len(schedule) - 1)]
    row[2 * cells : 2 * cells + PARTIAL] = (seat, turn, moves_left, 0, 0, PLAYING, 0)
    row[2 * cells + PLACED_COUNT] = 0
    row[2 * cells + SCALARS + most : -1] = extra
    row[-1] = cells  # how the state (``envs.schedule.game.TurnState``) finds its fields
    return row


@njit(cache=True)
def play(context, row, seed, cut):
    """``(outcome, decisions, turns)`` of a random game from ``row`` (played on in place), one
    ``envs.kernels.draw`` per decision over the legal actions, the game ``Game.engine_playout``
    plays for the same seed: ``outcome`` as ``OUTCOME``; ``CUT`` once ``cut`` turns have ended
    (-1: never), the row then where the game stopped."""
    return _play(context, row, seed, cut, np.empty(context.params[MAX_LEGAL], np.int64))


@njit(cache=True, _nrt=False)  # the loop allocates nothing: no reference counts (``step``)
def _play(context, row, seed, cut, actions):
    """:func:`play` with room for the legal actions; ``step`` is inlined here."""
    cells = context.params[CELLS]
    base = 2 * cells
    count = compiled.legal(context, row, actions)
    decisions = turns = 0
    while row[base + OUTCOME] == PLAYING:
        if turns == cut:  # the game goes on: the heuristic scores the board
            return CUT, decisions, turns
        index, seed = draw(seed, count)
        mover = row[base + SEAT]
        count = step(context, row, actions[index], actions)
        decisions += 1
        turns += row[base + OUTCOME] != PLAYING or row[base + SEAT] != mover
    return row[base + OUTCOME], decisions, turns


@njit(cache=True)
def playout(context, row, seed, out):
    """The returns of :func:`play` from a copy of ``row`` into ``out`` (``envs.compiled.playout``)."""
    row = row.copy()
    play(context, row, seed, -1)
    returns(context, row, out)


# the helpers index the row rather than slice it: a slice costs a reference count each time
@njit(cache=True, inline="always")
def to_play(context, row):
    """The seat to play, or TERMINAL once the game has an outcome."""
    fields = 2 * context.params[CELLS]
    return TERMINAL if row[fields + OUTCOME] != PLAYING else row[fields + SEAT]


@njit(cache=True)
def returns(context, row, out):
    """The returns: +1 / -1 by the winning piece's seat, zeros for a draw or before the end."""
    outcome = row[2 * context.params[CELLS] + OUTCOME]
    out[0] = out[1] = 0.0
    if outcome > 0:
        out[outcome - 1], out[2 - outcome] = 1.0, -1.0


@njit(cache=True, inline="always")
def is_over(context, row):
    return row[2 * context.params[CELLS] + OUTCOME] != PLAYING


@njit(cache=True, inline="always")
def record_move(context, row, landing):
    """After a whole move: ``landing`` joins ``placed``, the move's cells
    are cleared, and the move counts. Whether the move limit is reached (the caller scores the
    game, or else ends the turn where it is over)."""
    params = context.params
    fields = 2 * params[CELLS]
    row[fields + PLACED + row[fields + PLACED_COUNT]] = landing
    row[fields + PLACED_COUNT] += 1
    for k in range(row[fields + STEP]):
        row[fields + PARTIAL + k] = -1
    row[fields + STEP] = 0
    row[fields + MOVES] += 1
    row[fields + MOVES_LEFT] -= 1
    return row[fields + MOVES] >= params[MOVE_LIMIT]


@njit(cache=True, inline="always")
def begin_turn(context, row):
    """The end of a turn and the next one's start but the origins and the stuck test: the
    turn counts as passed when it placed nothing; after two passed turns in a row, False (the
    caller scores the game); else the other seat's turn and its moves from the schedule, and
    True (the caller sets the origins, :func:`mark_origins` or its own, and judges whether the
    new mover has a move)."""
    params, schedule = context.params, context.schedule
    fields = 2 * params[CELLS]
    row[fields + PASSES] = 0 if row[fields + PLACED_COUNT] else row[fields + PASSES] + 1
    if row[fields + PASSES] >= 2:
        return False
    seat = 1 - row[fields + SEAT]
    turn = row[fields + TURN] + 1
    row[fields + SEAT], row[fields + TURN] = seat, turn
    row[fields + MOVES_LEFT] = schedule[min(turn, len(schedule) - 1)]
    for k in range(row[fields + PLACED_COUNT]):
        row[fields + PLACED + k] = -1
    row[fields + PLACED_COUNT] = 0
    return True


@njit(cache=True, inline="always")
def mark_origins(context, row):
    """The origins of the turn :func:`begin_turn` began: the new mover's pieces on the board."""
    cells = context.params[CELLS]
    piece = PIECE[row[2 * cells + SEAT]]
    for cell in range(cells):
        row[cells + cell] = row[cell] == piece


@njit(cache=True)
def observe_turn(context, row, out):
    """The observation of everything but the rules' own planes (2 .. 2 + EXTRA - 1,
    left zero): the pieces, the move's cells, its micro-step, the moves left, the origins and
    ``placed``; ``out`` is float32 ``[planes, rows, cols]``."""
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
