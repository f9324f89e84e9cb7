"""Estimators without a network, for baselines and tests (no torch).

An estimator maps a batch of decision states to priors ``[B, num_actions]``
and per-seat values ``[B, num_seats]`` (see :class:`agents.search.mcts.Estimator`).
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from envs.core import Game, has_heuristic


class UniformEstimator:
    """Uniform priors and zero values: search guided by terminal states alone."""

    def __init__(self, game: Game):
        self.game = game
        self._priors, self._values = _ones(0, game.info.num_actions), _zeros(0, game.info.num_seats)

    def estimate(self, states: Sequence) -> tuple[np.ndarray, np.ndarray]:
        if len(self._priors) != len(states):
            info = self.game.info
            self._priors, self._values = _ones(len(states), info.num_actions), _zeros(len(states), info.num_seats)
        return self._priors, self._values


class RolloutEstimator:
    """Uniform priors; value = mean returns of ``num_rollouts`` random playouts.

    A playout is ``game.random_playout``: uniformly random legal actions and
    chance outcomes by their probabilities until the game ends (the stone games
    run it in numba kernels, Odoku draws the final board directly). Randomness
    comes from ``self.rng``, a numpy Generator given at construction (a player
    may point it at the generator it is handed for each move). The priors are
    one read-only array of ones per batch size; the values are float64.
    """

    def __init__(self, game: Game, rng: np.random.Generator, num_rollouts: int = 1):
        if isinstance(num_rollouts, bool) or not isinstance(num_rollouts, (int, np.integer)) or num_rollouts < 1:
            raise ValueError(f"num_rollouts must be a positive integer, got {num_rollouts!r}")
        self.game = game
        self.num_rollouts = int(num_rollouts)
        self.rng = rng
        self._priors = _ones(0, game.info.num_actions)

    @property
    def rng(self) -> np.random.Generator:
        return self._rng

    @rng.setter
    def rng(self, rng: np.random.Generator) -> None:
        if not isinstance(rng, np.random.Generator):
            raise ValueError(f"rng must be a numpy Generator, got {type(rng).__name__}")
        self._rng = rng

    def estimate(self, states: Sequence) -> tuple[np.ndarray, np.ndarray]:
        info, playout, rng = self.game.info, self.game.random_playout, self._rng
        if self.num_rollouts == 1:
            values = [playout(state, rng)[0] for state in states]
        else:
            values = [np.mean([playout(state, rng)[0] for _ in range(self.num_rollouts)], axis=0) for state in states]
        if len(self._priors) != len(states):
            self._priors = _ones(len(states), info.num_actions)
        return self._priors, np.array(values, dtype=np.float64)  # exact returns


class CutRolloutEstimator:
    """Uniform priors; value = one random rollout cut short after ``turns`` turns and scored
    there by the game's heuristic (``game.heuristic_returns``: material, area, distance to the
    goal), or the game's returns where it ends sooner.

    The rollout is ``game.cut_playout``: uniformly random legal actions, in the game's playout
    kernel (every game with a heuristic has one), else the engine loop. A
    turn ends where the seat to play changes, so from a leaf in mid-turn finishing that turn is
    the first; ``turns=0`` scores the leaf itself. The cost of a value is ``turns`` turns and
    one heuristic, whatever the number of turns left in the game, where a playout to the end
    (:class:`RolloutEstimator`) costs them all. Randomness comes from ``self.rng``, as for
    :class:`RolloutEstimator`.
    """

    def __init__(self, game: Game, rng: np.random.Generator, turns: int):
        if isinstance(turns, bool) or not isinstance(turns, (int, np.integer)) or turns < 0:
            raise ValueError(f"turns must be a non-negative integer, got {turns!r}")
        if not has_heuristic(game):
            raise ValueError(f"{game.info.name} has no heuristic value (Game.heuristic_returns) to cut a rollout with")
        self.game = game
        self.turns = int(turns)
        self.rng = rng
        self._priors = _ones(0, game.info.num_actions)

    rng = RolloutEstimator.rng

    def estimate(self, states: Sequence) -> tuple[np.ndarray, np.ndarray]:
        if len(self._priors) != len(states):
            self._priors = _ones(len(states), self.game.info.num_actions)
        return self._priors, np.array([self.value(state) for state in states], dtype=np.float64)

    def value(self, state) -> tuple[float, ...]:
        """The returns of one rollout from ``state`` (left untouched) cut after ``turns`` turns."""
        return self.game.cut_playout(state, self._rng, self.turns)


class HeuristicMixEstimator:
    """Another estimator's priors, and its values mixed with the game's heuristic:
    ``(1 - mix) * v + mix * game.heuristic_returns(state)``. A young network's values say
    little; a game's heuristic (material, area) says something from the first game, so
    self-play can lean on it early and fade it out (``agent.selfplay.heuristic_mix``)."""

    def __init__(self, inner, game: Game, mix: float):
        if not has_heuristic(game):
            raise ValueError(
                f"{game.info.name} has no heuristic value (Game.heuristic_returns) to mix leaf values with"
            )
        self.inner, self.game, self.mix = inner, game, float(mix)

    def estimate(self, states: Sequence) -> tuple[np.ndarray, np.ndarray]:
        priors, values = self.inner.estimate(states)
        heuristic = np.array([self.game.heuristic_returns(state) for state in states], dtype=np.float64)
        return priors, (1.0 - self.mix) * np.asarray(values, dtype=np.float64) + self.mix * heuristic


class FunctionEstimator:
    """Wraps ``function(state) -> (priors, values)`` for one state (tests, oracles).

    Values stay float64 so that exact values reach the search exactly.
    """

    def __init__(self, game: Game, function: Callable):
        self.game = game
        self.function = function

    def estimate(self, states: Sequence) -> tuple[np.ndarray, np.ndarray]:
        info = self.game.info
        priors = np.empty((len(states), info.num_actions), dtype=np.float32)
        values = np.empty((len(states), info.num_seats), dtype=np.float64)
        for i, state in enumerate(states):
            priors[i], values[i] = self.function(state)
        return priors, values


def _ones(rows: int, columns: int) -> np.ndarray:
    """Uniform priors, read-only so that one array can serve every batch of a size."""
    priors = np.ones((rows, columns), dtype=np.float32)
    priors.flags.writeable = False
    return priors


def _zeros(rows: int, columns: int) -> np.ndarray:
    """Zero values, read-only like ``_ones``."""
    values = np.zeros((rows, columns), dtype=np.float32)
    values.flags.writeable = False
    return values
