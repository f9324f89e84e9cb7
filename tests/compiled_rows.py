"""Checks of a game's compiled rules (``Game.compiled()``, ``envs.compiled``) against its engine,
shared by the per-game test files: rows that round-trip, kernels that give the engine's legal
actions, moves, seats, returns and observations, and the search driver's results equal to the
reference search's (``tests/reference_search.py``)."""

from __future__ import annotations

import numpy as np
from numba import njit
from reference_search import ReferenceMCTS
from test_search_driver import assert_same, with_reference

from agents.search.estimators import FunctionEstimator
from agents.search.mcts import MCTS, SearchConfig
from envs import compiled as rules
from envs.core import TERMINAL
from envs.kernels import playout_seed


@njit  # not cached: numba would not see the kernels it calls change
def legal_of(context, row, out):
    return rules.legal(context, row, out)


@njit  # not cached: numba would not see the kernels it calls change
def apply_to(context, row, action):
    rules.apply(context, row, action)


@njit  # not cached: numba would not see the kernels it calls change
def to_play_of(context, row):
    return rules.to_play(context, row)


@njit  # not cached: numba would not see the kernels it calls change
def returns_of(context, row, out):
    rules.returns(context, row, out)


@njit  # not cached: numba would not see the kernels it calls change
def playout_of(context, row, seed, out):
    rules.playout(context, row, seed, out)


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


def assert_rows_follow_the_engine(game, states, same_state) -> dict:
    """For every state: its row decodes to an equal state (``same_state(a, b)``), and the kernels
    give its legal actions, seat, returns and observation; every legal action applied to the row
    gives the row of the engine's child. Counts what was met (positions, ends, actions)."""
    compiled = game.compiled()
    context, out = compiled.context, np.empty(compiled.max_legal, np.int64)
    met = {"positions": 0, "ends": 0, "actions": 0}
    for state in states:
        row = compiled.encode(state)
        assert row.dtype == np.int32 and row.shape == (compiled.width,)
        assert same_state(compiled.decode(row), state)
        legal = game.legal_actions(state)
        assert out[: legal_of(context, row, out)].tolist() == legal
        assert to_play_of(context, row) == game.to_play(state)
        returned = np.full(game.info.num_seats, 9.0)
        returns_of(context, row, returned)
        assert tuple(returned) == game.returns(state)
        if rules.provides(compiled, "observe"):
            planes = np.full(game.info.obs_shape, 9.0, np.float32)
            rules.observe_row(context, row, planes)
            np.testing.assert_array_equal(planes, game.observe(state))
        for action in legal:
            child = row.copy()
            apply_to(context, child, action)
            np.testing.assert_array_equal(child, compiled.encode(game.step(state, action)))
        met["positions"] += 1
        met["ends"] += not legal
        met["actions"] += len(legal)
    return met


def assert_playouts_are_the_engines(game, states, seed: int = 0) -> int:
    """The registered ``playout`` from each row gives ``random_playout``'s returns for the same
    seed (``envs.kernels.playout_seed`` of the same generator); the row is left as it was."""
    compiled = game.compiled()
    compared = 0
    for k, state in enumerate(states):
        if game.to_play(state) == TERMINAL:
            continue
        row, out = compiled.encode(state), np.empty(game.info.num_seats)
        kept = row.copy()
        playout_of(compiled.context, row, playout_seed(np.random.default_rng([seed, k])), out)
        np.testing.assert_array_equal(row, kept)
        assert tuple(out) == game.random_playout(state, np.random.default_rng([seed, k]))[0]
        compared += 1
    return compared


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
