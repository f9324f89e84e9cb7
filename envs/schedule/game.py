"""A scheduled game whose engine is its compiled rows (``envs.schedule.rows``): the rules are
the game's kernels (``envs.games.NAME.kernels``), ``envs.kit.RowGame`` plays them, and the
state is the row (:class:`TurnState`, whose properties read it). What a person reads and
types (notation both ways, text, the board's view, the words of an illegal move) is
:class:`TurnGame`'s over the game's ``BoardRules``.

The turns (docs/rules.md, the turn-schedule mutator): a turn of seat ``s`` holds
``schedule.moves(turn)`` moves, every move one to three micro-steps, each one action; with
``restricted`` a move starts only from a piece that stood where it stands at the start of the
turn; a turn whose quota cannot be filled ends after the moves it has; a seat with no move at
the start of its turn ends the game, or, where the rules say so (Biversi), passes while the
other seat has a move; where the rules allow it (Send It) PASS ends the turn
after any whole move, and two passed turns in a row end the game.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from envs.board_view import BoardView
from envs.core import Game, GameInfo, IllegalActionError, NotationError, Symmetry, turn_text
from envs.kernels import CUT, OUTCOME_RETURNS, playout_seed
from envs.kit import RowGame, RowState, bound, row_field
from envs.schedule import rows
from envs.schedule.moves import BoardRules
from envs.schedule.schedule import TurnSchedule


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


class TurnGame(RowGame):
    """A scheduled game over its kernels (module docstring). A subclass calls
    ``super().__init__(rules, schedule, restricted, start, max_legal)`` with its ``BoardRules``
    and start board, and gives :meth:`make_context` (its kernels' context), and where its rows
    hold more than the turn, :meth:`row_extra`; where a seat may start with no move,
    :meth:`stuck_outcome`."""

    state_class = TurnState

    def __init__(self, rules: BoardRules, schedule, restricted: bool, start: np.ndarray, max_legal: int):
        if not isinstance(restricted, (bool, np.bool_)):
            raise ValueError(f"restricted must be true or false, got {restricted!r}")
        self.rules = rules
        self.schedule = TurnSchedule(schedule)
        self.restricted = bool(restricted)
        self._steps = len(rules.step_names)
        self._extra = len(rules.extra_plane_names)
        planes = 2 + self._extra + 1 + (self._steps - 1) + 3
        self.PASS = rules.num_cells  # an action only where ``rules.can_pass`` or ``rules.passes_when_stuck``
        self._has_pass = bool(rules.can_pass or rules.passes_when_stuck)
        # a pass ends at most one turn with moves and one without between two such turns; a forced
        # pass comes at most once between two moves
        passes = (2 * rules.max_moves() + 1) * rules.can_pass or (rules.max_moves() + 1) * rules.passes_when_stuck
        info = GameInfo(
            name=rules.name,
            seat_names=rules.seat_names,
            num_actions=rules.num_cells + self._has_pass,
            obs_shape=(planes, rules.rows, rules.cols),
            max_decisions=self._steps * rules.max_moves() + passes,
            params={"schedule": self.schedule.text, "restricted": self.restricted},
            torus=rules.torus,
        )
        counts = self.schedule.counts
        params = rows.leading_params(
            len(start), restricted, max(counts), self._steps, self._extra, rules.move_limit, max_legal
        )
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

    # --- the rules' words ----------------------------------------------------------------------------
    def heuristic_returns(self, state) -> tuple[float, float]:
        """The rules' guess from the board (``BoardRules.heuristic_returns``)."""
        return self.rules.heuristic_returns(state.board)

    def illegal_text(self, state: TurnState, cell: int) -> str:
        if cell == self.PASS and self.rules.can_pass:
            return "pass ends a turn only after a whole move; finish the move first"
        if cell == self.PASS and self.rules.passes_when_stuck:
            return "pass is legal only at the start of a turn with no move to make"
        origins = state.origins if self.restricted else None
        return self.rules.why_illegal(state.board, state.player, state.partial, origins, state.placed, cell)

    # --- what generic code asks ------------------------------------------------------------------
    def turn_kind(self, state, actions: Sequence[int]) -> str:
        """``place`` for a turn of the schedule's full count, ``short`` for one that ended early,
        ``pass`` for a turn passed at its start."""
        moves = self._moves_of(state, actions)
        if not moves:
            return "pass"
        return "place" if len(moves) == state.moves_left else "short"

    def goal_text(self, seat: int) -> str:
        counts = ", ".join(map(str, self.schedule.counts))
        return f"{self.rules.goal_text(seat)}; turns hold {counts} moves (the last count for ever)"

    def result_text(self, state) -> str:
        return self.rules.result_text(state.board, self.winner(state))

    def symmetries(self) -> list[Symmetry]:
        return self.rules.symmetries(self.info.num_actions)

    # --- text ----------------------------------------------------------------------------------------
    def action_to_text(self, state, action: int) -> str:
        action = int(action)
        if not 0 <= action < self.info.num_actions:
            raise IllegalActionError(f"action {action} is out of range 0..{self.info.num_actions - 1}")
        return "pass" if action == self.PASS else self.rules.cell_name(action)

    def format_turn(self, state, actions: Sequence[int]) -> str:
        """The turn's moves in the rules' notation, ``a7d7/g4 d19g16/g7`` (a move cut short at the
        end of ``actions`` is written as far as it goes); a turn passed at its start is ``pass``, and
        the pass that ends a turn after some moves is not written."""
        moves = self._moves_of(state, actions)
        return self.rules.turn_text(moves) if moves else "pass"

    def _moves_of(self, state, actions: Sequence[int]) -> list[list[int]]:
        state, moves, current = state.copy(), [], []
        for action in actions:
            self.apply(state, action)
            if action == self.PASS and self._has_pass:
                continue
            current.append(int(action))
            if not state.partial:
                moves.append(current)
                current = []
        return moves + ([current] if current else [])

    def parse_turn(self, state, text: str) -> list[int]:
        """A whole turn, its moves separated by spaces or commas (``a7d7/g4 d19g16/g7``); every move
        is checked in the position it is played in, and the turn must end where the text does
        (where the rules allow a pass, one ends a turn cut short, and ``pass`` passes the turn)."""
        text = turn_text(text).strip()
        if state.result is not None:
            raise IllegalActionError(f"turn {text!r}: the game is over")
        if self.rules.passes_when_stuck and text.lower() == "pass":
            if self.PASS not in self.legal_actions(state):
                raise IllegalActionError(f"turn {text!r}: {self.illegal_text(state, self.PASS)}")
            return [self.PASS]
        can_pass = self.rules.can_pass
        moves = [] if can_pass and text.lower() == "pass" else self.rules.read_turn(text)
        if not moves and not (can_pass and text.lower() == "pass"):
            raise NotationError(f"cannot read {self.info.name} turn {text!r}: no moves")
        trial, actions, seat = state.copy(), [], state.player
        for number, cells in enumerate(moves, start=1):
            if self.to_play(trial) != seat:
                raise IllegalActionError(
                    f"turn {text!r} has {len(moves)} moves, but the turn ends after {number - 1} "
                    f"(schedule {self.schedule.text})"
                )
            word = self.rules.move_text(cells)
            for cell in cells:
                try:
                    self.apply(trial, cell)
                except IllegalActionError as error:
                    raise IllegalActionError(f"move {word!r} of turn {text!r}: {error}") from None
                actions.append(cell)
            if trial.partial:
                raise NotationError(f"move {word!r} of turn {text!r} is not a whole move")
        if self.to_play(trial) == seat:
            if not can_pass:
                raise IllegalActionError(
                    f"turn {text!r} has {len(moves)} moves; this turn holds {state.moves_left} "
                    f"(schedule {self.schedule.text})"
                )
            actions.append(self.PASS)  # the turn stops here
        return actions

    def render_text(self, state) -> str:
        lines = [self.rules.diagram(state.board)]
        if state.result is None:
            name = self.info.seat_names[state.player]
            lines.append(f"{name} to move: {state.moves_left} move(s) left this turn (turn {state.turn + 1})")
        else:
            lines.append(self.result_text(state))
        return "\n".join(lines)

    def board_view(self, state) -> BoardView:
        """One cell per cell of the board, each offering itself (every micro-step is a cell), the
        piece on it (``rules.cell_look``), the turn so far tagged ``chosen``: the current move's
        cells marked ``*`` (the piece picked, then its destination), the cells this turn's earlier
        moves put a piece on numbered in their order."""
        rules, layout, board = self.rules, self.rules.view_layout(), state.board
        marks = {cell: str(number) for number, cell in enumerate(state.placed, start=1)}
        marks.update((cell, "*") for cell in state.partial)
        on_board = (cell for cell, centre in enumerate(layout.centres) if centre is not None)
        cells = ((cell, _cell_fields(rules, cell, int(board[cell]), marks.get(cell, ""))) for cell in on_board)
        buttons = (self.PASS,) if self._has_pass else ()
        return layout.view(cells, buttons, (self._status(state), *rules.view_notes(board)))

    def _status(self, state) -> str:
        if state.result is not None:
            return self.result_text(state)
        step = self.rules.step_names[len(state.partial)]
        name = self.info.seat_names[state.player]
        return f"{name} to move (turn {state.turn + 1}, {state.moves_left} move(s) left): choose the {step}"


def _cell_fields(rules: BoardRules, cell: int, value: int, mark: str) -> dict:
    owner, fill, tags = rules.cell_look(value)
    tags += ("chosen",) if mark else ()
    return {"name": rules.cell_name(cell), "owner": owner, "fill": fill, "text": mark, "tags": tags}
