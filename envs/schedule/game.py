"""A scheduled game whose engine is its compiled rows (``envs.schedule.rows``): the rules are
the game's kernels (``envs.games.NAME.kernels``), ``envs.kit.RowGame`` plays them, and the
state is the row (:class:`TurnState`, whose properties read it). What a person reads and
types comes from ``envs.schedule.base`` and the game's ``BoardRules``.

The turns (docs/rules.md, the turn-schedule mutator): a turn of seat ``s`` holds
``schedule.moves(turn)`` moves, every move one to three micro-steps, each one action; with
``restricted`` a move starts only from a piece that stood where it stands at the start of the
turn; a turn whose quota cannot be filled ends after the moves it has; a seat with no move at
the start of its turn ends the game; where the rules allow it (Send It) PASS ends the turn
after any whole move, and two passed turns in a row end the game.
"""

from __future__ import annotations

import numpy as np

from envs.core import Game
from envs.kernels import CUT, OUTCOME_RETURNS, playout_seed
from envs.kit import RowGame, RowState, bound, row_field
from envs.schedule import rows
from envs.schedule.base import ScheduledBase
from envs.schedule.moves import BoardRules


def _fields(row) -> int:
    return 2 * int(row[-1])  # the row ends with its board's cell count


class TurnState(RowState):
    """A position as its row (``envs.schedule.rows``' layout): the board, the seat to move, the
    turn (its number and the moves left in it), the current move's cells so far, the turn's
    allowed origins, the cells this turn's moves put a piece on, the result."""

    __slots__ = ()

    player = row_field(rows.SEAT, _fields)
    turn = row_field(rows.TURN, _fields)
    moves_left = row_field(rows.MOVES_LEFT, _fields)
    moves = row_field(rows.MOVES, _fields)
    passes = row_field(rows.PASSES, _fields)

    @property
    def board(self) -> np.ndarray:
        """The board's values (``envs.schedule.moves``), read-only."""
        board = self.row[: int(self.row[-1])]
        board.flags.writeable = False
        return board

    @property
    def partial(self) -> tuple[int, ...]:
        at = _fields(self.row)
        return tuple(self.row[at + rows.PARTIAL : at + rows.PARTIAL + self.row[at + rows.STEP]].tolist())

    @property
    def placed(self) -> tuple[int, ...]:
        at = _fields(self.row)
        return tuple(self.row[at + rows.PLACED : at + rows.PLACED + self.row[at + rows.PLACED_COUNT]].tolist())

    @property
    def origins(self) -> frozenset[int]:
        cells = int(self.row[-1])
        return frozenset(np.flatnonzero(self.row[cells : 2 * cells]).tolist())

    @property
    def result(self) -> tuple[float, float] | None:
        outcome = self.row[_fields(self.row) + rows.OUTCOME]
        return None if outcome == rows.PLAYING else OUTCOME_RETURNS[outcome]


class TurnGame(ScheduledBase, RowGame):
    """A scheduled game over its kernels (module docstring). A subclass calls
    ``super().__init__(rules, schedule, restricted, start, max_legal)`` with its ``BoardRules``
    and start board, and gives :meth:`make_context` (its kernels' context), and where its rows
    hold more than the turn, :meth:`row_extra`; where a seat may start with no move,
    :meth:`stuck_outcome`."""

    state_class = TurnState

    def __init__(self, rules: BoardRules, schedule, restricted: bool, start: np.ndarray, max_legal: int):
        info = self._set_up(rules, schedule, restricted)
        counts = self.schedule.counts
        limit = rules.move_limit
        params = rows.leading_params(len(start), restricted, max(counts), self._steps, self._extra, limit, max_legal)
        context = self.make_context(np.array(params, np.int64), np.array(counts, np.int64))
        super().__init__(info, context, rows.start_row(start, counts, 0, 0, self.row_extra(start)), max_legal)
        self.start = self.state_at(start).row

    def make_context(self, params: np.ndarray, schedule: np.ndarray):
        """The kernels' context of these leading ``params`` (``envs.schedule.rows``) and schedule."""
        raise NotImplementedError

    def row_extra(self, board: np.ndarray) -> list[int]:
        """The game's own entries of a row with ``board`` (after the turn's)."""
        return []

    def stuck_outcome(self, board: np.ndarray, seat: int) -> int:
        """The outcome (``envs.schedule.rows``' ``OUTCOME``) when ``seat`` has no move at the start
        of its turn on ``board``: by default the other seat wins."""
        return 2 - seat

    def state_at(self, board: np.ndarray, to_move: int = 0, turn: int = 0) -> TurnState:
        """The start of ``to_move``'s turn number ``turn`` (0: the game's first) on ``board``."""
        row = rows.start_row(np.asarray(board), self.schedule.counts, to_move, turn, self.row_extra(board))
        state = self.state_class(row)
        if not self.legal_actions(state):
            row[_fields(row) + rows.OUTCOME] = self.stuck_outcome(row[: len(board)], to_move)
        return state

    # --- playouts: ``envs.schedule.rows.play``, which finds each decision's actions once ----------
    BOUND = (*RowGame.BOUND, "_play")

    def _bind(self) -> None:
        super()._bind()
        self._play = bound(rows.play, self.context, self.start, 0, 0)

    def random_playout(self, state: TurnState, rng: np.random.Generator) -> tuple[tuple[float, float], int, int]:
        """From any position, a turn or a move begun included: one seed from ``rng``
        (``playout_seed``), then the game ``Game.engine_playout`` plays from that seed (the tests
        check it); at the end, no draw."""
        if state.result is not None:
            return Game.random_playout(self, state, rng)
        outcome, decisions, turns = self._play(self.context, state.row.copy(), playout_seed(rng), -1)
        return OUTCOME_RETURNS[outcome], int(decisions), int(turns)

    def cut_playout(self, state: TurnState, rng: np.random.Generator, turns: int) -> tuple[float, float]:
        """``Game.cut_playout`` in the kernels, the heuristic scoring the board it stops at."""
        if state.result is not None:
            return Game.cut_playout(self, state, rng, turns)
        final = state.row.copy()
        outcome = self._play(self.context, final, playout_seed(rng), turns)[0]
        return self.heuristic_returns(self.state_class(final)) if outcome == CUT else OUTCOME_RETURNS[outcome]

    def illegal_text(self, state: TurnState, action: int) -> str:
        return self._why_illegal(state, action)
