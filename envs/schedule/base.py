"""What every scheduled game (``envs.schedule.game.TurnGame``) shares beside its kernels: the
``GameInfo`` of its rules and schedule, and what a person reads and types: notation both ways,
text, the board's view, the words of an illegal move, symmetries.

A state here has ``board``, ``player``, ``turn``, ``moves_left``, ``partial``, ``origins``,
``placed`` and ``result``; the rules are an ``envs.schedule.moves.BoardRules``.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from envs.core import GameInfo, IllegalActionError, NotationError, Symmetry, turn_text
from envs.schedule.moves import BoardRules
from envs.schedule.schedule import TurnSchedule


class ScheduledBase:
    """A base game's moves grouped into turns by a schedule (module docstring); a ``Game`` mixin."""

    def _set_up(self, rules: BoardRules, schedule, restricted: bool, name: str | None = None) -> GameInfo:
        """Keep ``rules``, the schedule and the restriction; the game's ``GameInfo``."""
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
        return GameInfo(
            name=name or rules.name,
            seat_names=rules.seat_names,
            num_actions=rules.num_cells + self._has_pass,
            obs_shape=(planes, rules.rows, rules.cols),
            max_decisions=self._steps * rules.max_moves() + passes,
            params={"schedule": self.schedule.text, "restricted": self.restricted},
            torus=rules.torus,
        )

    def heuristic_returns(self, state) -> tuple[float, float]:
        """The rules' guess from the board (``BoardRules.heuristic_returns``)."""
        return self.rules.heuristic_returns(state.board)

    def _origins(self, state):
        return state.origins if self.restricted else None

    def _why_illegal(self, state, cell: int) -> str:
        if cell == self.PASS and self.rules.can_pass:
            return "pass ends a turn only after a whole move; finish the move first"
        if cell == self.PASS and self.rules.passes_when_stuck:
            return "pass is legal only at the start of a turn with no move to make"
        return self.rules.why_illegal(
            state.board, state.player, state.partial, self._origins(state), state.placed, cell
        )

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
                raise IllegalActionError(f"turn {text!r}: {self._why_illegal(state, self.PASS)}")
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

    def board_view(self, state):
        from envs.schedule.view import scheduled_board_view

        return scheduled_board_view(self, state)
