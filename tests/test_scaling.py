"""Every core by default: workers=auto, worker processes whose play overlaps learning, the lag logged."""

import os
from pathlib import Path

import numpy as np
import pytest
import torch
from hydra import compose, initialize_config_dir

import agents.training.workers as workers
from agents.config import ConfigError
from agents.net.checkpoint import load_checkpoint
from agents.training.feeds import split_games
from agents.training.loop import train
from agents.training.saving import load_replay
from agents.training.settings import build_settings

ROOT = Path(__file__).parents[1]


def compose_train(overrides):
    with initialize_config_dir(config_dir=str(ROOT / "configs"), version_base="1.3"):
        return compose("train", overrides=list(overrides))


def scalars(run_dir, tag):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    return [e.value for e in EventAccumulator(str(run_dir)).Reload().Scalars(tag)]


def test_workers_auto_resolves_to_the_usable_cores(monkeypatch):
    """The default run plays on every core this process may use (its affinity)."""
    assert build_settings(compose_train([])).workers == len(os.sched_getaffinity(0))
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 2, 5, 7, 9})
    assert build_settings(compose_train([])).workers == 5
    assert build_settings(compose_train(["agent.selfplay.workers=3"])).workers == 3
    assert build_settings(compose_train(["experiment=smoke"])).workers == 0  # tests: the main process


@pytest.mark.parametrize("value", ["many", -1, 1.5])
def test_a_bad_worker_count_names_the_key(value):
    with pytest.raises(ConfigError, match="agent.selfplay.workers"):
        build_settings(compose_train([f"agent.selfplay.workers={value}"]))


def test_games_are_split_evenly_over_the_workers():
    assert split_games(64, 2) == [32, 32] and split_games(5, 2) == [3, 2] and split_games(1, 3) == [1]


def smoke(directory, *overrides):
    overrides = ["experiment=smoke", "eval.every=0", *overrides]
    return train(compose_train(overrides), directory, overrides)


@pytest.fixture(scope="module")
def overlapped(tmp_path_factory):
    """Two identical runs with 2 worker processes playing while the learner steps."""
    base = tmp_path_factory.mktemp("overlap")
    args = ("train.iterations=3", "agent.selfplay.workers=2", "agent.selfplay.max_policy_lag=3")
    return smoke(base / "a", *args), smoke(base / "b", *args)


def test_overlapped_workers_repeat_with_a_fixed_seed(overlapped):
    """Weights, seeds and shares are fixed when games are handed out, so timing
    cannot change a run: the same seed and worker count give the same weights."""
    a, b = overlapped
    assert a.losses == b.losses and a.step == b.step == 9
    first, second = load_checkpoint(a.checkpoint), load_checkpoint(b.checkpoint)
    for key in first["model"]:
        torch.testing.assert_close(first["model"][key], second["model"][key], rtol=0, atol=0)
    assert len(load_replay(a.checkpoint)) == 3 * 4 * 25  # every iteration's 4 games of 25 decisions


def test_overlap_lags_one_iteration_and_logs_it(overlapped):
    """Iteration k learns from games played with the weights before iteration k-1's
    learning: a lag of exactly steps_per_iteration (3) once learning has begun."""
    a, _ = overlapped
    assert scalars(a.run_dir, "perf/policy_lag") == [0.0, 3.0, 3.0]
    # 3 steps of 16 samples per 100 new positions
    assert scalars(a.run_dir, "perf/replay_ratio") == pytest.approx([0.48] * 3)
    assert all(rate > 0 for rate in scalars(a.run_dir, "perf/actor_positions_per_s"))


def test_taking_turns_has_no_lag(tmp_path):
    result = smoke(tmp_path, "train.iterations=2", "agent.selfplay.max_policy_lag=0")
    assert scalars(result.run_dir, "perf/policy_lag") == [0.0, 0.0]


def test_in_process_play_is_untouched_by_the_lag_bound(tmp_path):
    """workers=0 plays in the main process between learning phases whatever the bound:
    the same games, so the same losses, as with the bound at 0."""
    a = smoke(tmp_path / "a", "train.iterations=2", "agent.selfplay.max_policy_lag=100")
    b = smoke(tmp_path / "b", "train.iterations=2", "agent.selfplay.max_policy_lag=0")
    assert a.losses == b.losses


def test_resolve_workers_rejects_what_is_not_a_count():
    assert workers.resolve_workers(0) == 0 and workers.resolve_workers(4) == 4
    with pytest.raises(ValueError, match="agent.selfplay.workers must be 'auto' or an integer >= 0, got 'all'"):
        workers.resolve_workers("all")
    assert np.issubdtype(type(workers.available_cores()), np.integer)
