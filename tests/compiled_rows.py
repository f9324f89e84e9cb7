"""The search driver's results equal to the reference search's (``tests/reference_search.py``)
on positions of random games, shared by the per-game test files (a game's rows against its engine:
``tests/conformance.py``)."""

from __future__ import annotations

import numpy as np
from reference_search import ReferenceMCTS
from test_search_driver import assert_same, with_reference

from agents.search.estimators import FunctionEstimator
from agents.search.mcts import MCTS, SearchConfig
from envs.core import TERMINAL


def random_games(game, seeds, stop=lambda state: False) -> list:
    """Every position of a random game per seed, the end included (``stop``: a position after
    which a game is left unfinished)."""
    result = []
    for seed in seeds:
        rng, state = np.random.default_rng(seed), game.initial_state()
        result.append(state)
        while game.to_play(state) != TERMINAL and not stop(state):
            legal = game.legal_actions(state)
            state = game.step(state, legal[int(rng.integers(len(legal)))])
            result.append(state)
    return result


def observed_network(game, seed: int = 0) -> FunctionEstimator:
    """Priors and values a fixed random linear map of ``game.observe``: a search that decodes its
    leaves for it gets other results where a decoded state differs from the engine's."""
    size, actions = int(np.prod(game.info.obs_shape)), game.info.num_actions
    weights = np.random.default_rng(seed).normal(size=(size, actions + 1))

    def function(state):
        out = game.observe(state).reshape(-1).astype(np.float64) @ weights
        value = np.tanh(out[-1] / 4)
        mover = max(game.to_play(state), 0)
        return out[:-1].astype(np.float32), np.array([value, -value] if mover == 0 else [-value, value])

    return function


def assert_search_is_the_reference(game, states, seed: int = 0) -> None:
    """The search driver gives the reference search's visit counts, values, priors and principal
    variations with random rollouts, a network over the rows' planes (``observe``) and one over
    decoded states, Gumbel and PUCT, with and without noise."""
    for kind in ("rollout", "rollout x3", "planes", "decoded"):
        for k, state in enumerate(states):
            if game.to_play(state) == TERMINAL:
                continue
            config = SearchConfig(
                num_simulations=10 + 7 * k % 40, gumbel=k % 2 == 1, gumbel_actions=4, playout_mix=0.5 * (k % 3 == 2)
            )
            if kind == "decoded":
                assert_same(*decoded_searches(game, config, [state], seed + k, add_noise=k % 2 == 0))
            else:
                assert_same(*with_reference(game, config, [state], kind, seed + k, add_noise=k % 2 == 0))


def decoded_searches(game, config, states, seed, add_noise):
    """``with_reference`` with :func:`observed_network` (the driver decodes every leaf)."""
    outcomes = []
    for search in (ReferenceMCTS, MCTS):
        rng = np.random.default_rng(seed)
        estimator = FunctionEstimator(game, observed_network(game, seed))
        results = search(game, config).search_many(states, estimator, rng, add_noise)
        outcomes.append((results, [rng.bit_generator.state]))
    return outcomes
