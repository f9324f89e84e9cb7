"""Amazons' compiled rules (``envs.games.amazons.kernels``, ``Amazons.compiled()``) against the
engine: rows that encode and decode to the engine's states, the same legal cells in the same
order, the same row after every micro-step as the engine's state encoded, the same seat to move,
returns and observation planes, over seeded random games (mid-turn micro-steps, turns cut short
and the end included); and the search driver against the reference search on fixed seeds,
with random rollouts and with networks over the rows' planes."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from reference_search import ReferenceMCTS
from test_search_driver import assert_same, rows_only, with_reference

from agents.net.net_estimator import NetEstimator
from agents.net.network import NetConfig, PolicyValueNet
from agents.search.mcts import MCTS, SearchConfig
from envs import compiled as rules
from envs import make_game
from envs.core import TERMINAL
from envs.games.amazons import kernels
from envs.schedule import rows

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


def random_game(game, seed: int) -> list:
    """Every state of one random game (engine, ``seed``), the end included."""
    rng, state, states = np.random.default_rng(seed), game.initial_state(), []
    while True:
        states.append(state.copy())
        if game.is_terminal(state):
            return states
        legal = game.legal_actions(state)
        game.apply(state, legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize("name, params", CONFIGS, ids=IDS)
def test_rows_step_as_the_engine_does(name, params):
    game = make_game(name, **params)
    compiled = game.compiled()
    assert compiled is game.compiled() and isinstance(compiled, kernels.AmazonsRows)
    context, out, values = compiled.context, np.empty(compiled.max_legal, np.int64), np.zeros(2)
    seen = {"steps": set(), "short": 0, "end": 0}
    for seed in range(6):
        states = random_game(game, seed)
        row = compiled.encode(states[0])
        for state, after in zip(states, states[1:] + [None]):
            np.testing.assert_array_equal(row, compiled.encode(state))  # the kernels' row is the engine's
            decoded = compiled.decode(row)
            assert decoded.key() == state.key() and decoded.moves == state.moves and decoded.result == state.result
            count = kernels.legal(context, row, out)
            assert out[:count].tolist() == game.legal_actions(decoded) == game.legal_actions(state)
            assert rows.to_play(context, row) == game.to_play(state)
            rows.returns(context, row, values)
            assert tuple(values) == game.returns(state)
            seen["steps"].add(len(state.partial))
            if after is None:
                seen["end"] += 1
                break
            action = next(a for a in game.legal_actions(state) if game.step(state, a).key() == after.key())
            kernels.apply(context, row, action)
            seen["short"] += len(state.partial) == 2 and state.moves_left > 1 and after.player != state.player
    assert seen["steps"] == {0, 1, 2} and seen["end"] == 6
    if game.restricted and game.schedule.most > 1:
        assert seen["short"]  # a turn that ended before its quota


@pytest.mark.parametrize("name, params", CONFIGS, ids=IDS)
def test_row_observations_are_the_engine_observations(name, params):
    game = make_game(name, **params)
    compiled = game.compiled()
    assert rules.provides(compiled, "observe")
    for state in random_game(game, 3)[::3]:
        out = np.full(game.info.obs_shape, 9.0, np.float32)  # every entry must be written
        rules.observe_row(compiled.context, compiled.encode(state), out)
        np.testing.assert_array_equal(out, game.observe(state))


def test_a_board_that_lost_an_amazon_is_refused():
    game = make_game("amazons", size=5)
    state = game.initial_state()
    state.board[np.flatnonzero(state.board == 2)[0]] = 0
    with pytest.raises(ValueError, match="amazons: 3 amazons of a seat that starts with 4"):
        game.compiled().encode(state)


def test_the_engine_reaches_the_kernels_cells():
    """``AmazonsRules.reach`` (the kernel) against queen moves walked by coordinates."""
    game, rng = make_game("amazons", size=7), np.random.default_rng(0)
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
        assert game.rules.reach(board, cell) == sorted(expected)


@pytest.mark.parametrize("kind", ["uniform", "planes", "rollout", "rollout x3"])
@pytest.mark.parametrize("name, params", CONFIGS[::2], ids=IDS[::2])
def test_the_driver_gives_the_reference_results(name, params, kind):
    game = make_game(name, **params)
    assert MCTS(game)._compiled is game.compiled()
    states = [s for s in random_game(game, 1) if game.to_play(s) != TERMINAL][::8]
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
    states = [s for s in random_game(game, 2) if game.to_play(s) != TERMINAL][:12]
    config = SearchConfig(num_simulations=40, gumbel=True, gumbel_actions=6)
    assert_same(*with_reference(game, config, states, "planes", 4, add_noise=True, per_state=True))


def test_self_play_gives_the_reference_games():
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
