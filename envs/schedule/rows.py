"""A :class:`~envs.schedule.mutator.ScheduledState` as a flat int32 row, and the turn
bookkeeping and random playout every scheduled game's compiled rules (``envs.compiled``) share
(``envs.games.amazons.kernels``, ``envs.games.hexxagon.kernels``, ``envs.games.send_it.kernels``).

A row holds, for a board of ``cells`` cells::

    [0, cells)            the board (``envs.schedule.moves``' values)
    [cells, 2 cells)      1 on the cells of ``origins`` (the mover's pieces that may start a move)
    2 cells + SEAT ...    the scalars: ``state.player``, ``turn``, ``moves_left``, ``moves``,
                          ``passes``, the outcome (``PLAYING`` while the game goes on, else the
                          index of its returns in ``envs.kernels.OUTCOME_RETURNS``: the winning
                          piece, 0 for a draw), the micro-step (``len(partial)``) and
                          ``partial``'s cells (``PARTIAL_SLOTS`` slots), how many cells
                          ``placed`` holds, then ``placed`` (``most`` slots, the schedule's
                          largest count); unused slots hold -1
    2 cells + SCALARS + most ...   the game's own entries (``ScheduledRows.extra_at``)

A game's context is a namedtuple whose ``params`` (int64) start ``CELLS, RESTRICTED, MOST,
STEPS, EXTRA, MOVE_LIMIT, MAX_LEGAL`` (``ScheduledRows.leading_params``: the cells, whether the
turn's restriction holds, the schedule's largest count, the micro-steps of a move, the rules'
observation planes, the move limit and the most legal actions; the game's own parameters
follow from ``PARAMS`` on) and whose ``schedule`` is the move counts (int64,
``TurnSchedule.counts``).

How a scheduled game joins: its rules (a ``MoveRules``) also derive from :class:`RowRules` and
name their :class:`ScheduledRows` subclass (``rows_class``, which builds the context and writes
the game's own entries); its kernels module gives, in numba, ``legal``, ``apply``, ``step``
(``apply`` that leaves the next position's legal actions behind, so a playout finds each
decision's actions once), ``observe`` (over :func:`observe_turn`) and ``play_from`` (:func:`play`
given the context's arrays one by one: a quicker call from Python), built on :func:`record_move`
and :func:`begin_turn`, and registers them with :func:`register_game`. :func:`to_play`,
:func:`returns`, the random playout (:func:`play`, :func:`playout`) and the engine's
``MoveRules.playout`` then come from here.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit
from numba.extending import overload

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
CELLS, RESTRICTED, MOST, STEPS, EXTRA, MOVE_LIMIT, MAX_LEGAL = range(7)  # params
PARAMS = 7  # where a game's own params start
PLAYING = -1  # OUTCOME while the game goes on
NO_LIMIT = np.iinfo(np.int64).max  # MOVE_LIMIT of a game without one
FEW = 16  # origins ``encode`` writes one by one
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


class ScheduledRows(compiled.CompiledGame):
    """The rows of a ``ScheduledGame`` (module docstring); a game's class adds its context
    (``params`` starting with ``self.leading_params``, ``schedule`` as ``self.schedule``), its
    own entries (``extra`` of them at ``self.extra_at``, written by :meth:`encode_extra`) and
    ``play_from`` (its kernels')."""

    play_from: Any  # the game's kernels' ``play_from``

    def __init__(self, rules: MoveRules, schedule: tuple[int, ...], restricted: bool, max_legal: int, extra: int = 0):
        """``schedule``: the move counts (``TurnSchedule.counts``); ``restricted``: the game's."""
        if len(rules.step_names) - 1 > PARTIAL_SLOTS:
            raise ValueError(f"{rules.name}: a row holds moves of at most {PARTIAL_SLOTS + 1} micro-steps")
        self.rules, self.cells, self.most = rules, rules.num_cells, max(schedule)
        self.schedule = np.array(schedule, np.int64)
        self.max_legal = max_legal
        self.fields = 2 * self.cells
        self.extra_at = self.fields + SCALARS + self.most
        self.width = self.extra_at + extra
        self._blank = np.full(self.width, -1, np.int32)  # what ``encode`` fills in
        self._blank[self.cells : self.fields] = 0
        steps, planes = len(rules.step_names), len(rules.extra_plane_names)
        limit = NO_LIMIT if rules.move_limit is None else rules.move_limit
        self.leading_params = [self.cells, int(restricted), self.most, steps, planes, limit, max_legal]

    def encode(self, state: ScheduledState) -> np.ndarray:
        cells, fields = self.cells, self.fields
        row = self._blank.copy()
        row[:cells] = state.board
        origins = state.origins
        if len(origins) <= FEW:  # a playout encodes its start: per-cell stores beat numpy's fixed costs
            for cell in origins:
                row[cells + cell] = 1
        else:
            row[cells:fields][list(origins)] = 1
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

    def play(self, state: ScheduledState, seed: int, cut: int, cut_board: np.ndarray) -> tuple[int, int, int]:
        """:func:`play` from ``state`` (``MoveRules.playout``)."""
        return self.play_from(*self.context, self.encode(state), seed, cut, cut_board)


class RowRules:
    """What a scheduled game's ``MoveRules`` gains from compiled rows (module docstring): the
    rows of each schedule and restriction, made once, and the compiled random playout."""

    has_playout = True
    rows_class: type[ScheduledRows]  # made from (rules, schedule, restricted)

    def compiled_rules(self, schedule, restricted: bool) -> ScheduledRows:
        """The compiled rules for a schedule's move counts and the restriction (made once)."""
        key = (np.asarray(schedule, np.int64).tobytes(), bool(restricted))
        made = self.__dict__.setdefault("_compiled_rows", {})
        if key not in made:
            made[key] = self.rows_class(self, tuple(int(count) for count in schedule), key[1])
        return made[key]

    def playout(self, state, schedule, restricted, seed, cut, cut_board) -> tuple[int, int, int]:
        """The compiled random playout (:func:`play` over the game's ``step``)."""
        last = self.__dict__.get("_last_rows")  # a game asks with the same schedule array each time
        if last is None or last[0] is not schedule or last[1] != restricted:
            last = self._last_rows = (schedule, restricted, self.compiled_rules(schedule, restricted))
        return last[2].play(state, seed, cut, cut_board)


@njit(cache=True)
def play(context, row, seed, cut, cut_board):
    """``(outcome, decisions, turns)`` of a random game from ``row`` (played on in place), one
    ``envs.kernels.draw`` per decision over the legal actions, the game ``Game.engine_playout``
    plays for the same seed: ``outcome`` as ``OUTCOME``; ``CUT`` once ``cut`` turns have ended
    (-1: never), the board then in ``cut_board``."""
    return _play(context, row, seed, cut, cut_board, np.empty(context.params[MAX_LEGAL], np.int64))


@njit(cache=True, _nrt=False)  # the loop allocates nothing: no reference counts (``step``)
def _play(context, row, seed, cut, cut_board, actions):
    """:func:`play` with room for the legal actions; ``step`` is inlined here."""
    cells = context.params[CELLS]
    base = 2 * cells
    count = compiled.legal(context, row, actions)
    decisions = turns = 0
    while row[base + OUTCOME] == PLAYING:
        if turns == cut:  # the game goes on: the heuristic scores the board
            for cell in range(cells):
                cut_board[cell] = row[cell]
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
    play(context, row, seed, -1, np.empty(0, np.int8))
    returns(context, row, out)


# the helpers index the row rather than slice it: a slice costs a reference count each time
@njit(cache=True, inline="always")
def to_play(context, row):
    """``ScheduledGame.to_play``: the seat, or TERMINAL once the game has an outcome."""
    fields = 2 * context.params[CELLS]
    return TERMINAL if row[fields + OUTCOME] != PLAYING else row[fields + SEAT]


@njit(cache=True)
def returns(context, row, out):
    """``ScheduledGame.returns``: +1 / -1 by the winning piece's seat, zeros for a draw or before the end."""
    outcome = row[2 * context.params[CELLS] + OUTCOME]
    out[0] = out[1] = 0.0
    if outcome > 0:
        out[outcome - 1], out[2 - outcome] = 1.0, -1.0


@njit(cache=True, inline="always")
def is_over(context, row):
    return row[2 * context.params[CELLS] + OUTCOME] != PLAYING


@njit(cache=True, inline="always")
def record_move(context, row, landing):
    """``ScheduledGame.apply`` after a whole move: ``landing`` joins ``placed``, the move's cells
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
    """``ScheduledGame._end_turn`` and ``_start_turn`` but the origins and the stuck test: the
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
    """``ScheduledGame.observe`` of everything but the rules' own planes (2 .. 2 + EXTRA - 1,
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
