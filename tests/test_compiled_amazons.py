"""Amazons' compiled rules (``envs.games.amazons.kernels``, ``Amazons.compiled()``): a board
that lost an amazon refused, the kernel's reach against queen moves by coordinates, and the
search driver against the reference search on fixed seeds, with random rollouts and with
networks over the rows' planes (rows of random games against the engine:
``tests/test_conformance_games.py``, with :func:`same_state` and these ``CONFIGS``)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from conformance import random_game
from reference_search import ReferenceMCTS
from test_search_driver import assert_same, rows_only, with_reference

from agents.net.net_estimator import NetEstimator
from agents.net.network import NetConfig, PolicyValueNet
from agents.search.mcts import MCTS, SearchConfig
from envs import make_game
from envs.core import TERMINAL
from envs.games.amazons import kernels

torch.set_num_threads(1)

# schedules of one to four moves, restricted or not, and starts with unequal sides
CONFIGS = [
    ("amazons", {"size": 5}),
    ("amazons", {"size": 6, "schedule": "23", "restricted": False}),
    ("amazons", {"size": 5, "schedule": "2", "start": "a1 c3 / e5"}),
    ("progressive_amazons", {"size": 6}),
    ("progressive_amazons", {"size": 7, "restricted": False}),
]
IDS = [f"{name}-{params}" for name, params in CONFIGS]


def same_state(a, b) -> bool:
    """A decoded state is the engine's: the same position key, moves and result."""
    return a.key() == b.key() and a.moves == b.moves and a.result == b.result


def test_a_board_that_lost_an_amazon_is_refused():
    game = make_game("amazons", size=5)
    board = game.rules.start.copy()
    board[np.flatnonzero(board == 2)[0]] = 0
    with pytest.raises(ValueError, match=r"amazons: the board has \[4, 3\] amazons a seat"):
        game.state_at(board)


def test_the_kernel_reaches_queen_moves():
    """The kernel's ``reach`` against queen moves walked by coordinates."""
    rng, out = np.random.default_rng(0), np.empty(49, np.int64)
    for _ in range(40):
        board = rng.choice(np.array([0, 0, 0, 1, 2, 3], np.int8), 49)
        cell = int(rng.integers(49))
        expected = []
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                r, c = cell // 7 + dr, cell % 7 + dc
                while (dr or dc) and 0 <= r < 7 and 0 <= c < 7 and board[r * 7 + c] == 0:
                    expected.append(r * 7 + c)
                    r, c = r + dr, c + dc
        found = out[: kernels.reach(board, *kernels.tables(7), cell, out)].tolist()
        assert found == sorted(expected)


@pytest.mark.parametrize("kind", ["uniform", "planes", "rollout", "rollout x3"])
@pytest.mark.parametrize("name, params", CONFIGS[::2], ids=IDS[::2])
def test_the_driver_gives_the_reference_results(name, params, kind):
    game = make_game(name, **params)
    assert MCTS(game)._compiled is game.compiled()
    states = [s for s in random_game(game, 1)[0] if game.to_play(s) != TERMINAL][::8]
    for seed, state in enumerate(states):
        config = SearchConfig(
            num_simulations=20 + 7 * seed,
            gumbel=seed % 4 >= 2,
            gumbel_actions=4,
            playout_mix=0.5 if seed % 3 == 1 else 0.0,
        )
        assert_same(*with_reference(game, config, [state], kind, seed, seed % 2 == 1))


def test_compiled_driver_searches_many_roots_in_lockstep():
    game = make_game("progressive_amazons", size=6)
    states = [s for s in random_game(game, 2)[0] if game.to_play(s) != TERMINAL][:12]
    config = SearchConfig(num_simulations=40, gumbel=True, gumbel_actions=6)
    assert_same(*with_reference(game, config, states, "planes", 4, add_noise=True, per_state=True))


def test_self_play_gives_the_same_games_on_with_reference():
    """A small real network on the rows' planes (no row decoded): the same games and targets."""
    from agents.training.selfplay import SelfPlayConfig, self_play

    game = make_game("progressive_amazons", size=5)
    search = SearchConfig(num_simulations=12, gumbel=True, gumbel_actions=4)
    selfplay = SelfPlayConfig(games_per_iteration=2, concurrent_games=2)
    torch.manual_seed(0)
    net = PolicyValueNet.for_game(game.info, NetConfig(channels=8, blocks=1, value_hidden=8))
    batches = []
    for searching in (ReferenceMCTS, MCTS):
        estimator = NetEstimator(game, net, inference="torch")
        with rows_only(game, searching is MCTS):
            batches.append(self_play(game, searching(game, search), estimator, 2, selfplay, np.random.default_rng(3)))
    reference, driver = batches
    assert reference.games == driver.games and reference.returns == driver.returns
    np.testing.assert_array_equal(reference.obs, driver.obs)
    np.testing.assert_array_equal(reference.policy, driver.policy)
    np.testing.assert_array_equal(reference.value, driver.value)
