"""Exact game values for tiny boards: alpha-beta with a transposition table.

The search walks the engine's own actions (micro-steps for the neutral games,
chance outcomes where a game has them), so it needs nothing beyond the engine
API plus a hashable ``state.key()``. Values are seat 0's return under optimal
play by both seats (seat 0 maximises, seat 1 minimises; returns are zero-sum
and lie in [-1, 1]); a chance node's value is the expectation over its outcomes.

A complete turn is optimal exactly when the value after it equals the value
before it: within a turn the mover picks every micro-step, so the position's
value is the best over the turn's completions. :meth:`Solver.optimal_turns`
lists them by following only value-preserving micro-steps, and
:meth:`Solver.principal_positions` lists every position the game's principal
lines pass through (both seats playing every optimal turn), where agents are
judged for exactness.

The transposition table stores, per position, a lower and an upper bound on its
value and the best action found (tried first on the next visit). The search
gives up with :class:`SolverLimitError` after ``max_nodes`` expanded positions:
the solver is meant for boards such as Hex and Nex up to 4x4 or NeuVersi 4x4.
"""

from __future__ import annotations

from collections import deque
from typing import Iterable, Sequence

import numpy as np

from envs.core import CHANCE, TERMINAL, Game
from envs.records import split_turns

LOW, HIGH = -1.0, 1.0  # bounds of every return
TOLERANCE = 1e-9
DEFAULT_MAX_NODES = 5_000_000  # about 2.5 GB of table at most


class SolverLimitError(ValueError):
    """The position is too large to solve within the node budget."""


class Solver:
    """Exact values of positions of one game; the table is kept between calls."""

    def __init__(self, game: Game, max_nodes: int = DEFAULT_MAX_NODES):
        if max_nodes < 1:
            raise ValueError(f"max_nodes must be >= 1, got {max_nodes}")
        self.game = game
        self.max_nodes = max_nodes
        self.nodes = 0  # positions expanded so far (cumulative)
        self.table: dict = {}
        self.history: dict[int, int] = {}  # cut-offs per action: tried first elsewhere too

    # --- queries -------------------------------------------------------------------
    def value(self, state) -> float:
        """Seat 0's return under optimal play from ``state``."""
        return self._search(state, LOW, HIGH)

    def mover_value(self, state) -> float:
        """The value from the side of the seat to play (seat 0's for chance or terminal)."""
        return self.value(state) * (-1.0 if self.game.to_play(state) == 1 else 1.0)

    def action_values(self, state) -> dict[int, float]:
        """Seat 0's value after each legal action of the seat to play."""
        return {a: self.value(self.game.step(state, a)) for a in self.game.legal_actions(state)}

    def optimal_actions(self, state) -> list[int]:
        """Every legal action that keeps the position's value (all optimal micro-steps)."""
        target = self.value(state)
        return [a for a, v in self.action_values(state).items() if abs(v - target) <= TOLERANCE]

    def optimal_turns(self, state) -> list[list[int]]:
        """Every complete optimal turn of the seat to play, as lists of actions."""
        mover = self.game.to_play(state)
        if mover < 0:
            raise ValueError("optimal_turns needs a decision state (a seat to play)")
        turns = []
        for action in self.optimal_actions(state):
            child = self.game.step(state, action)
            if self.game.to_play(child) == mover:
                turns += [[action, *rest] for rest in self.optimal_turns(child)]
            else:
                turns.append([action])
        return turns

    def turn_is_optimal(self, state, actions) -> bool:
        """Whether a complete turn of the seat to play keeps the position's value."""
        end = state.copy()
        for action in actions:
            self.game.apply(end, action)
        return abs(self.value(end) - self.value(state)) <= TOLERANCE

    def principal_positions(self, start=None) -> list[tuple[list[int], object]]:
        """Every decision position on the principal lines from ``start`` (default: the
        game's start): those reached when both seats play every optimal turn and chance
        plays every outcome. Each comes once (by ``state.key()``), as ``(actions from
        start, state)`` with the fewest turns, in order of that distance; chance nodes
        are passed through, not listed. Raises :class:`SolverLimitError` past the budget.
        """
        start = self.game.initial_state() if start is None else start
        seen, positions = {start.key()}, []
        queue = deque([([], start)])
        while queue:
            path, state = queue.popleft()
            mover = self.game.to_play(state)
            if mover == TERMINAL:
                continue
            if mover == CHANCE:
                moves = [[o] for o, p in self.game.chance_outcomes(state) if p > 0]
            else:
                positions.append((path, state))
                moves = self.optimal_turns(state)
            for move in moves:
                child = state.copy()
                for action in move:
                    self.game.apply(child, action)
                if child.key() not in seen:
                    seen.add(child.key())
                    queue.append(([*path, *move], child))
        return positions

    # --- search --------------------------------------------------------------------
    def _search(self, state, alpha: float, beta: float) -> float:
        game = self.game
        player = game.to_play(state)
        if player == TERMINAL:
            return float(game.returns(state)[0])
        key = state.key()
        lower, upper, best_action = self.table.get(key, (LOW, HIGH, None))
        if lower >= beta or lower == upper:
            return lower
        if upper <= alpha:
            return upper
        alpha, beta = max(alpha, lower), min(beta, upper)
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise SolverLimitError(
                f"the exact solver gave up after {self.max_nodes} positions: this "
                f"{game.info.name} position is too large (the solver is for tiny boards; "
                f"max_nodes sets the budget)"
            )
        if player == CHANCE:
            value = sum(p * self._search(game.step(state, o), LOW, HIGH) for o, p in game.chance_outcomes(state))
            self.table[key] = (value, value, None)
            return value

        history = self.history
        actions = sorted(game.legal_actions(state), key=lambda a: -history.get(a, 0))
        if best_action is not None:
            actions = [best_action, *(a for a in actions if a != best_action)]
        maximise = player == 0
        window = (alpha, beta)
        best = -np.inf if maximise else np.inf
        for action in actions:
            value = self._search(game.step(state, action), alpha, beta)
            if (value > best) if maximise else (value < best):
                best, best_action = value, action
            if maximise:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                history[action] = history.get(action, 0) + 1
                break
        # fail-soft: outside the searched window, best is only a bound on the value
        if best <= window[0]:
            upper = min(upper, best)
        elif best >= window[1]:
            lower = max(lower, best)
        else:
            lower = upper = best
        self.table[key] = (lower, upper, best_action)
        return best


def optimal_share(game: Game, games: Iterable[tuple[Sequence[int], int]], judge) -> tuple[int, int]:
    """(optimal turns, turns) of one seat over games given as ``(actions, seat)``.

    ``judge(state, turn_actions) -> bool`` decides a turn from the state before it
    (e.g. :meth:`Solver.turn_is_optimal`); chance outcomes are skipped.
    """
    optimal = total = 0
    for actions, seat in games:
        state = game.initial_state()
        for turn in split_turns(game, actions):
            while turn and game.to_play(state) == CHANCE:
                game.apply(state, turn.pop(0))
            if turn and game.to_play(state) == seat:
                total += 1
                optimal += bool(judge(state, turn))
            for action in turn:
                game.apply(state, action)
    return optimal, total
