"""Evaluators without a network, for baselines and tests (no torch).

An evaluator maps a batch of decision states to priors ``[B, num_actions]``
and per-seat values ``[B, num_seats]`` (see :class:`agents.search.Evaluator`).
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from envs.core import CHANCE, TERMINAL, Game


class UniformEvaluator:
    """Uniform priors and zero values: search guided by terminal states alone."""

    def __init__(self, game: Game):
        self.game = game

    def evaluate(self, states: Sequence) -> tuple[np.ndarray, np.ndarray]:
        info = self.game.info
        return (
            np.ones((len(states), info.num_actions), dtype=np.float32),
            np.zeros((len(states), info.num_seats), dtype=np.float32),
        )


class RolloutEvaluator:
    """Uniform priors; value = mean returns of ``num_rollouts`` random playouts.

    A playout picks uniformly among the legal actions and samples chance
    outcomes by their probabilities until the game ends. For a game that
    offers ``random_playout(state, rng)`` (the stone games' numba kernels,
    which run from a turn start) it finishes the current turn here and hands
    the rest over. Randomness comes from ``self.rng``, a numpy Generator given
    at construction (a player may point it at the generator it is handed for
    each move).
    """

    def __init__(self, game: Game, rng: np.random.Generator, num_rollouts: int = 1):
        if isinstance(num_rollouts, bool) or not isinstance(num_rollouts, (int, np.integer)) or num_rollouts < 1:
            raise ValueError(f"num_rollouts must be a positive integer, got {num_rollouts!r}")
        self.game = game
        self.num_rollouts = int(num_rollouts)
        self.rng = rng
        self._kernel = getattr(game, "random_playout", None)

    @property
    def rng(self) -> np.random.Generator:
        return self._rng

    @rng.setter
    def rng(self, rng: np.random.Generator) -> None:
        if not isinstance(rng, np.random.Generator):
            raise ValueError(f"rng must be a numpy Generator, got {type(rng).__name__}")
        self._rng = rng
        self._uniforms: list[float] = []  # a new generator starts a fresh block

    def evaluate(self, states: Sequence) -> tuple[np.ndarray, np.ndarray]:
        info = self.game.info
        if self.num_rollouts == 1:
            values = [self.playout(state) for state in states]
        else:
            values = [np.mean([self.playout(state) for _ in range(self.num_rollouts)], axis=0) for state in states]
        return np.ones((len(states), info.num_actions), dtype=np.float32), np.array(values, dtype=np.float32)

    def playout(self, state) -> tuple[float, ...]:
        """Returns at the end of one random playout from ``state`` (not modified)."""
        game = self.game
        to_play, legal_actions, apply = game.to_play, game.legal_actions, game.apply
        state = state.copy()
        mover = to_play(state)
        while True:
            player = to_play(state)
            if player == TERMINAL:
                return game.returns(state)
            if player != mover and self._kernel is not None:
                # a turn start, where the kernels run (mid-turn they fall back to a Python loop)
                return self._kernel(state, self._rng)[0]
            if player == CHANCE:
                u = self._uniform()
                outcomes = game.chance_outcomes(state)
                for outcome, p in outcomes:
                    u -= p
                    if u < 0.0:
                        break
                apply(state, outcome)
            else:
                actions = legal_actions(state)
                apply(state, actions[int(self._uniform() * len(actions))])

    def _uniform(self) -> float:
        # uniforms drawn in blocks: one Generator call per scalar would dominate a playout
        if not self._uniforms:
            self._uniforms = self._rng.random(1024).tolist()
        return self._uniforms.pop()


class FunctionEvaluator:
    """Wraps ``function(state) -> (priors, values)`` for one state (tests, oracles).

    Values stay float64 so that exact values reach the search exactly.
    """

    def __init__(self, game: Game, function: Callable):
        self.game = game
        self.function = function

    def evaluate(self, states: Sequence) -> tuple[np.ndarray, np.ndarray]:
        info = self.game.info
        priors = np.empty((len(states), info.num_actions), dtype=np.float32)
        values = np.empty((len(states), info.num_seats), dtype=np.float64)
        for i, state in enumerate(states):
            priors[i], values[i] = self.function(state)
        return priors, values
