"""Blockdance's and Four-way walls' compiled search: the driver's batched playouts from rows
give the engine loop's returns, and the search driver gives the reference search's results
on fixed seeds, with random rollouts and with a network fed the rows' planes (rows of random
games against the engines: ``tests/test_conformance_games.py``, with these ``GAMES``)."""

from __future__ import annotations

import numpy as np
import pytest
from test_blockdance import random_start
from test_search_driver import assert_same, with_reference

from agents.search.mcts import MCTS, SearchConfig
from agents.search.mcts.driver import playouts
from envs import make_game
from envs.core import TERMINAL

# (registry name, parameters): small boards and short limits, so that random games end every way
GAMES = [
    ("blockdance", {"size": 6, "max_turns": 40}),
    ("blockdance", {"size": 6, "start": random_start(np.random.default_rng(2), 6), "idle_limit": 12}),
    ("blockdance", {"size": 7, "start": random_start(np.random.default_rng(3), 7), "free_pass": False}),
    ("four_way_walls", {"size": 5, "walls": 3, "max_turns": 60}),
    ("four_way_walls", {"size": 6, "walls": 6, "schedule": "1", "max_turns": 40}),
    ("four_way_walls", {"size": 7, "walls": 0, "schedule": "24", "max_turns": 30}),
]
GAME_IDS = [f"{name}-{i}" for i, (name, _) in enumerate(GAMES)]


def random_states(game, seed: int, games: int) -> list:
    """Every position of ``games`` seeded random games, the ends included."""
    rng, states = np.random.default_rng(seed), []
    for _ in range(games):
        state = game.initial_state()
        states.append(state)
        while game.to_play(state) != TERMINAL:
            legal = game.legal_actions(state)
            state = game.step(state, legal[int(rng.integers(len(legal)))])
            states.append(state)
    return states


@pytest.mark.parametrize("name,params", GAMES, ids=GAME_IDS)
def test_playouts_from_rows_are_the_engines(name, params):
    """The registered playout from a row: ``random_playout``'s returns for the same seed."""
    game = make_game(name, **params)
    compiled = game.compiled()
    rows = np.array([compiled.encode(state) for state in random_states(game, 2, 1)[::7]])
    seeds = np.arange(len(rows), dtype=np.int64) * 7919 + 3
    out = np.empty((len(rows), 2))
    playouts(compiled.context, rows, np.arange(len(rows)), seeds, out)
    for row, seed, returns in zip(rows, seeds, out):
        state = compiled.decode(row)
        expected = game.returns(state) if game.to_play(state) == TERMINAL else game.engine_playout(state, seed)[0]
        assert tuple(returns) == expected


@pytest.mark.parametrize("kind", ["rollout", "planes"])
@pytest.mark.parametrize("name,params", GAMES, ids=GAME_IDS)
def test_the_driver_gives_the_reference_results(name, params, kind):
    game = make_game(name, **params)
    assert MCTS(game)._compiled is game.compiled()
    rng = np.random.default_rng(4)
    states = random_states(game, 3, 1)
    states = [s for s in states if game.to_play(s) != TERMINAL]
    for seed, state in enumerate(states[:: max(1, len(states) // 5)][:5]):
        config = SearchConfig(num_simulations=int(rng.integers(8, 60)), gumbel=seed % 2 == 1, gumbel_actions=4)
        assert_same(*with_reference(game, config, [state], kind, seed, add_noise=seed % 3 == 0))
