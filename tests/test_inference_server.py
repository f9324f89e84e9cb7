"""The inference server (agents/net/inference_server.py): the games a served estimator plays
are those of a network of its own, bit for bit; errors and a closed server reach the worker
as errors, not hangs; worker processes fed by one server play complete, legal games, a
worker killed mid-run stops the run with a clear error, and closing leaves no process."""

import multiprocessing
import os
import signal
import threading
import time
from pathlib import Path

import numpy as np
import pytest
import torch
from hydra import compose, initialize_config_dir

from agents.config import ConfigError
from agents.net.inference_server import InferenceServer, ServedEstimator, connect
from agents.net.net_estimator import NetEstimator
from agents.net.network import NetConfig, PolicyValueNet
from agents.search.mcts import MCTS, SearchConfig
from agents.sizes import parse_sizes
from agents.training.feeds import ProcessFeed
from agents.training.selfplay import SelfPlayConfig, self_play
from agents.training.settings import build_settings
from agents.training.workers import cpu_weights
from envs import make_game

NET = NetConfig(channels=8, blocks=1, value_hidden=8)
SEARCH = SearchConfig(num_simulations=8)


@pytest.fixture
def setup():
    game = make_game("nex", size=4)
    torch.manual_seed(3)
    net = PolicyValueNet.for_game(game.info, NET)
    with InferenceServer(game, NET, "cpu") as server:
        server.load(cpu_weights(net), version=0)
        yield game, net, server


def test_served_games_are_the_networks_own_bit_for_bit(setup):
    game, net, server = setup
    config = SelfPlayConfig(games_per_iteration=6, concurrent_games=3)
    own = self_play(game, MCTS(game, SEARCH), NetEstimator(game, net), 6, config, np.random.default_rng(5))
    served = ServedEstimator(game, connect(server.address, server.authkey))
    remote = self_play(game, MCTS(game, SEARCH), served, 6, config, np.random.default_rng(5))
    assert own.games == remote.games
    for key in ("obs", "policy", "value"):
        np.testing.assert_array_equal(getattr(own, key), getattr(remote, key))
    assert served.calls == server.requests == server.estimator.calls > 0
    assert served.positions == server.estimator.positions
    assert 0 < server.busy_share() < 1


def test_a_failed_forward_pass_is_raised_in_the_worker(setup):
    game, _, server = setup

    def broken(obs):
        raise MemoryError("out of device memory")

    server.estimator.run = broken
    served = ServedEstimator(game, connect(server.address, server.authkey))
    with pytest.raises(RuntimeError, match="forward pass failed: MemoryError"):
        served.forward(np.zeros((2, *game.info.obs_shape), np.float32))
    assert server.alive  # and it serves on


def test_a_closed_server_is_an_error_not_a_hang(setup):
    game, _, server = setup
    served = ServedEstimator(game, connect(server.address, server.authkey))
    served.forward(np.zeros((1, *game.info.obs_shape), np.float32))
    server.close()
    with pytest.raises(RuntimeError, match="inference server closed the connection"):
        served.forward(np.zeros((1, *game.info.obs_shape), np.float32))


@pytest.mark.parametrize("where", ["agent.selfplay.workers=0", "distributed=ray"])
def test_a_server_without_local_workers_is_refused_naming_the_key(where):
    with initialize_config_dir(config_dir=str(Path(__file__).parents[1] / "configs"), version_base="1.3"):
        cfg = compose("train", overrides=["experiment=smoke", "agent.selfplay.workers=1", where])
        cfg.agent.selfplay.inference_server = True
    with pytest.raises(ConfigError, match="agent.selfplay.inference_server=true .* needs agent.selfplay.workers >= 1"):
        build_settings(cfg)
    cfg.agent.selfplay.inference_server = "yes"
    with pytest.raises(ConfigError, match="agent.selfplay.inference_server must be true or false"):
        build_settings(cfg)


def replays_legally(game, actions) -> bool:
    """Whether ``actions`` is a legal game from the start to its end (chance outcomes included)."""
    state = game.initial_state()
    for action in actions:
        if game.is_terminal(state):
            return False
        legal = [o for o, _ in game.chance_outcomes(state)] if game.is_chance(state) else game.legal_actions(state)
        if action not in list(legal):
            return False
        game.apply(state, action)
    return game.is_terminal(state)


def served_feed(game, net, games: int) -> ProcessFeed:
    config = SelfPlayConfig(games_per_iteration=games, concurrent_games=2)
    server = InferenceServer(game, NET, "cpu")
    return ProcessFeed(2, parse_sizes(4), {4: game}, NET, SEARCH, config, False, server)


@pytest.mark.slow  # two spawned processes that import torch: 20-60 s on the shared CPU
def test_two_workers_fed_by_one_server_play_complete_games_and_leave_nothing(setup):
    game, net, _ = setup
    feed = served_feed(game, net, 6)
    try:
        chunks = feed.collect(net, 0, np.random.default_rng(1), 1, more=False)
        workers = [p for p in multiprocessing.active_children()]
    finally:
        feed.close()
    assert sorted(c.worker for c in chunks) == [0, 1]
    games = [actions for c in chunks for actions in c.batches[4].games]
    assert len(games) == 6 and all(replays_legally(game, actions) for actions in games)
    positions = sum(c.num_positions for c in chunks)
    assert feed.server.estimator.positions >= positions * SEARCH.num_simulations // 2  # every wave was served
    assert workers and not any(p.is_alive() for p in workers)
    assert not feed.server.alive


@pytest.mark.slow  # two spawned processes that import torch: 20-60 s on the shared CPU
def test_a_worker_killed_mid_run_stops_it_with_a_clear_error(setup):
    game, net, _ = setup
    feed = served_feed(game, net, 400)  # far more than the kill leaves time for

    def kill_a_worker_once_serving():
        while feed.server.requests < 5:
            time.sleep(0.05)
        os.kill(next(iter(feed._pool._executor._processes)), signal.SIGKILL)

    killer = threading.Thread(target=kill_a_worker_once_serving, daemon=True)
    killer.start()
    try:
        with pytest.raises(RuntimeError, match="a self-play worker process died"):
            feed.collect(net, 0, np.random.default_rng(1), 1, more=False)
    finally:
        feed.close()
    killer.join(timeout=5)
    assert not multiprocessing.active_children()
