"""The turn-schedule mutator (docs/rules.md) over any base game's :class:`MoveRules`, in
Python: the engine of a scheduled game whose rules are not yet compiled rows
(``envs.schedule.game.TurnGame``'s).

This module knows everything about turns of several moves and nothing about the
particular base game; the rules say what one move is (its micro-steps, their
cells, how the game ends) and the schedule says how many moves each turn holds.

* A turn of seat ``s`` holds ``schedule.moves(turn)`` moves, every move one to
  three micro-steps (a piece, its destination, Amazons' arrow), each one action.
* With ``restricted`` the rules' restriction holds within a turn: a move starts
  only from a piece that stood where it stands at the start of the turn
  (``origins``, :mod:`envs.schedule.moves`).
* A turn whose quota cannot be filled (no move is left for the mover within the
  restriction) ends after the moves it has; a seat that has no move at the
  start of its turn ends the game (``rules.stuck_returns``), or, where the
  rules say so (``rules.passes_when_stuck``, Reversi's forced pass), passes
  with the action PASS while the other seat still has a move.
* Where the rules allow it (``rules.can_pass``, Send It's "up to four"), the
  action PASS after the cells ends the turn after any whole move, and passes
  the turn at its start; two passed turns in a row end the game
  (``rules.pass_returns``).
* Every cell the mask offers can be completed into a whole move, so masks never
  lead into a dead end; the turn ends only after a whole move.
"""

from __future__ import annotations

import numpy as np

from envs.core import TERMINAL, Game, IllegalActionError
from envs.kernels import OUTCOME_RETURNS, cut_returns, playout_seed
from envs.schedule.base import ScheduledBase
from envs.schedule.moves import NO_BOARD, PIECE, MoveRules


class ScheduledState:
    """A position: the board, the seat to move, the turn (its number and the moves left in it),
    the current move's cells so far, the turn's allowed origins, the moves made, the result."""

    __slots__ = (
        "board",
        "player",
        "turn",
        "moves_left",
        "partial",
        "origins",
        "placed",
        "passes",
        "moves",
        "result",
        "legal",
    )

    def __init__(self, board: np.ndarray):
        self.board = board
        self.player = 0
        self.turn = 0
        self.moves_left = 0
        self.partial: tuple[int, ...] = ()
        self.origins: frozenset[int] = frozenset()
        self.placed: tuple[int, ...] = ()  # the cells this turn's moves put a piece on
        self.passes = 0  # turns passed in a row
        self.moves = 0
        self.result: tuple[float, float] | None = None
        self.legal: list[int] | None = None

    def copy(self) -> "ScheduledState":
        other = ScheduledState.__new__(ScheduledState)
        other.board = self.board.copy()
        other.player, other.turn, other.moves_left = self.player, self.turn, self.moves_left
        other.partial, other.origins, other.moves = self.partial, self.origins, self.moves
        other.placed, other.passes = self.placed, self.passes
        other.result, other.legal = self.result, self.legal
        return other

    def key(self) -> tuple:
        """Hashable identity of the position."""
        return (
            self.board.tobytes(),
            self.player,
            self.turn,
            self.moves_left,
            self.partial,
            self.origins,
            self.placed,
            self.passes,
        )


class ScheduledGame(ScheduledBase, Game):
    """A base game's moves grouped into turns by a schedule (Biversi).

    ===================  ================================================================
    Actions              ``Discrete(rows * cols)``: one board cell per micro-step (a
                         piece, its destination, Amazons' arrow); cell ``r * cols + c``;
                         with ``rules.can_pass`` one more, PASS (Send It); with
                         ``rules.passes_when_stuck`` PASS too, a seat's only action
                         when it has no move (Biversi)
    Observation          ``(planes, rows, cols)`` float32 from the mover's view: 0 the
                         mover's pieces, 1 the opponent's, then the rules' own planes
                         (arrows, the board's cells), the piece picked (the current
                         move's cells so far), one plane per micro-step after the first
                         (all ones in that step), moves left this turn (the current
                         one included) over the schedule's largest count, the
                         pieces that may still start a move this turn, and the cells
                         this turn's moves have put a piece on
    Returns              the rules' (``stuck_returns``, ``over_returns``, ``limit_returns``)
    ===================  ================================================================
    """

    def __init__(self, rules: MoveRules, schedule="1", restricted: bool = True, name: str | None = None):
        self.info = self._set_up(rules, schedule, restricted, name)
        self._counts = np.array(self.schedule.counts, np.int64)  # for the kernels (``rules.playout``)

    # --- state and transitions --------------------------------------------------------------
    def initial_state(self) -> ScheduledState:
        state = ScheduledState(self.rules.initial_board())
        self._start_turn(state, 0, 0)
        return state

    def to_play(self, state: ScheduledState) -> int:
        return TERMINAL if state.result is not None else state.player

    def legal_actions(self, state: ScheduledState) -> list[int]:
        if state.result is not None:
            return []
        if state.legal is None:
            rules = self.rules
            state.legal = rules.options(state.board, state.player, state.partial, self._origins(state), state.placed)
            if rules.can_pass and not state.partial:
                state.legal = [*state.legal, self.PASS]
            elif rules.passes_when_stuck and not state.legal and not state.placed and self._other_can_move(state):
                state.legal = [self.PASS]
        return state.legal

    def returns(self, state: ScheduledState) -> tuple[float, float]:
        return state.result if state.result is not None else (0.0, 0.0)

    def apply(self, state: ScheduledState, action: int) -> None:
        cell = self.check_action(state, action)
        if cell not in self.legal_actions(state):
            raise IllegalActionError(self._why_illegal(state, cell))
        rules, seat = self.rules, state.player
        state.legal = None
        if cell == self.PASS and self._has_pass:
            self._end_turn(state, seat)
            return
        done = rules.play(state.board, seat, state.partial, cell)
        piece = PIECE[seat]
        state.origins = frozenset(c for c in state.origins if state.board[c] == piece)
        if not done:
            state.partial += (cell,)
            return
        state.placed += (rules.landing((*state.partial, cell)),)
        state.partial = ()
        state.moves += 1
        state.moves_left -= 1
        over = rules.over_returns(state.board)
        if over is None and rules.move_limit is not None and state.moves >= rules.move_limit:
            over = rules.limit_returns(state.board)
        if over is not None:
            state.result = over
        elif state.moves_left == 0 or not rules.options(state.board, seat, (), self._origins(state), state.placed):
            self._end_turn(state, seat)

    def random_playout(self, state: ScheduledState, rng: np.random.Generator) -> tuple[tuple[float, float], int, int]:
        """Uniformly random legal actions from ``state`` (left untouched) to the end:
        ``(returns, decisions, turns)``. Where the rules have a kernel (``rules.playout``: Biversi's)
        it plays from any position, a turn or a move begun included, drawing one seed
        from ``rng`` (``playout_seed``) and then exactly as ``Game.engine_playout`` does from that
        seed; the tests check it. Otherwise the engine loop draws from ``rng`` (``Game``'s)."""
        if state.result is None and self.rules.has_playout:
            seed = playout_seed(rng)
            outcome, decisions, turns = self.rules.playout(state, self._counts, self.restricted, seed, -1, NO_BOARD)
            return OUTCOME_RETURNS[outcome], decisions, turns
        return super().random_playout(state, rng)

    def cut_playout(self, state: ScheduledState, rng: np.random.Generator, turns: int) -> tuple[float, float]:
        """``Game.cut_playout`` in the rules' kernel where they have one, the heuristic scoring the
        board it stops at; the same game as the engine loop for the same seed."""
        if state.result is not None or not self.rules.has_playout:
            return super().cut_playout(state, rng, turns)
        board = np.empty_like(state.board)
        outcome = self.rules.playout(state, self._counts, self.restricted, playout_seed(rng), turns, board)[0]
        return cut_returns(outcome, lambda: self.rules.heuristic_returns(board))

    def _end_turn(self, state: ScheduledState, seat: int) -> None:
        state.passes = 0 if state.placed else state.passes + 1
        if state.passes >= 2:
            state.result = self.rules.pass_returns(state.board)
        else:
            self._start_turn(state, 1 - seat, state.turn + 1)

    def _start_turn(self, state: ScheduledState, seat: int, turn: int) -> None:
        state.player, state.turn, state.legal, state.placed = seat, turn, None, ()
        state.moves_left = self.schedule.moves(turn)
        state.origins = frozenset(np.flatnonzero(state.board == PIECE[seat]).tolist())
        if not self.legal_actions(state):
            state.result = self.rules.stuck_returns(state.board, seat)

    def _other_can_move(self, state: ScheduledState) -> bool:
        """Whether the other seat would have a move at the start of a turn of its own."""
        other = 1 - state.player
        origins = frozenset(np.flatnonzero(state.board == PIECE[other]).tolist()) if self.restricted else None
        return bool(self.rules.options(state.board, other, (), origins, ()))

    # --- observation and symmetry ------------------------------------------------------------------
    def observe(self, state: ScheduledState) -> np.ndarray:
        rules, board = self.rules, state.board
        seat = state.player if state.result is None else 0
        planes = np.zeros((self.info.obs_shape[0], rules.num_cells), np.float32)
        planes[0] = board == PIECE[seat]
        planes[1] = board == PIECE[1 - seat]
        for k, plane in enumerate(rules.extra_planes(board, seat)):
            planes[2 + k] = plane
        base = 2 + self._extra
        for cell in state.partial:
            planes[base, cell] = 1.0
        if state.partial:
            planes[base + len(state.partial)] = 1.0
        planes[base + self._steps] = state.moves_left / self.schedule.most
        for cell in self._origins(state) if self.restricted else np.flatnonzero(board == PIECE[seat]):
            planes[base + self._steps + 1, cell] = 1.0
        for cell in state.placed:
            planes[base + self._steps + 2, cell] = 1.0
        return planes.reshape(self.info.obs_shape)
