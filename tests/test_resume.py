"""Resuming applies every override or refuses it by name; checkpoint names never
collide; signals end a run with a checkpoint; a resumed run keeps its run directory."""

import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
import yaml
from hydra import compose, initialize_config_dir

import agents.training.feeds as feeds  # the main process's feed plays smoke runs' games
import agents.training.loop as loop
import agents.training.settings as settings
from agents.config import ConfigError
from agents.net.checkpoint import load_checkpoint
from agents.training.learner import LearnerConfig
from agents.training.saving import checkpoint_files, is_interrupted, load_replay, replay_path

ROOT = Path(__file__).parents[1]
SMOKE = ["experiment=smoke", "eval.every=0"]  # 4 games (100 positions) and 3 learner steps an iteration


def compose_train(overrides):
    with initialize_config_dir(config_dir=str(ROOT / "configs"), version_base="1.3"):
        return compose("train", overrides=list(overrides))


def run(directory, *overrides):
    if not any(o.startswith("resume=") for o in overrides):
        overrides = [*SMOKE, *overrides]
    return loop.train(compose_train(overrides), directory, overrides)


@pytest.fixture(scope="module")
def first(tmp_path_factory):
    """One smoke iteration, to resume from."""
    return run(tmp_path_factory.mktemp("first"), "train.iterations=1")


def test_learning_rate_and_weight_decay_reach_the_optimiser(tmp_path, first):
    resumed = run(
        tmp_path,
        f"resume={first.checkpoint}",
        "train.iterations=2",
        "agent.learner.lr=0.5",
        "agent.learner.weight_decay=0.25",
    )
    checkpoint = load_checkpoint(resumed.checkpoint)
    groups = checkpoint["optimizer"]["param_groups"]
    assert {g["lr"] for g in groups} == {0.5} and {g["weight_decay"] for g in groups} == {0.25}
    learner = yaml.safe_load(checkpoint["config"])["agent"]["learner"]
    assert learner["lr"] == 0.5 and learner["weight_decay"] == 0.25
    before = load_checkpoint(first.checkpoint)["optimizer"]["param_groups"]
    assert {g["lr"] for g in before} == {0.002}


def test_the_cosine_schedule_falls_from_lr_to_its_final_fraction():
    config = LearnerConfig(lr=0.01, lr_schedule="cosine", lr_final=0.1)
    rates = [config.lr_at(step, 101) for step in range(101)]
    assert rates[0] == pytest.approx(0.01) and rates[50] == pytest.approx(0.0055) and rates[100] == pytest.approx(0.001)
    assert all(a > b for a, b in zip(rates, rates[1:]))
    assert LearnerConfig(lr=0.01).lr_at(100, 101) == 0.01
    with pytest.raises(ConfigError, match="agent.learner.lr_schedule"):
        LearnerConfig(lr_schedule="linear")


def test_a_resumed_cosine_run_takes_the_unbroken_runs_steps(tmp_path):
    cosine = ["train.iterations=3", "train.checkpoint_every=1", "agent.learner.lr_schedule=cosine"]
    unbroken = run(tmp_path / "unbroken", *cosine)
    first = checkpoint_files(tmp_path / "unbroken" / "checkpoints")[0]
    resumed = run(tmp_path / "resumed", f"resume={first}")
    ends = [load_checkpoint(path) for path in (unbroken.checkpoint, resumed.checkpoint)]
    assert ends[0]["iteration"] == ends[1]["iteration"] == 3 and ends[0]["step"] == 9
    for key, tensor in ends[0]["model"].items():
        assert torch.equal(tensor, ends[1]["model"][key]), key
    assert [g["lr"] for g in ends[0]["optimizer"]["param_groups"]] == pytest.approx([0.0002])  # 0.002 * 0.1


def test_a_smaller_replay_capacity_keeps_the_newest_positions(tmp_path, first):
    old = load_replay(first.checkpoint).state_dict()
    resumed = run(tmp_path, f"resume={first.checkpoint}", "train.iterations=2", "agent.learner.replay_capacity=130")
    replay = load_replay(resumed.checkpoint)
    assert replay.capacity == 130 and len(replay) == 130 and replay.total_added == 200
    kept = replay.state_dict()
    np.testing.assert_array_equal(kept["obs"][:30], old["obs"][-30:])
    assert yaml.safe_load(load_checkpoint(resumed.checkpoint)["config"])["agent"]["learner"]["replay_capacity"] == 130


@pytest.mark.parametrize(
    "override, key", [("net.channels=16", "net.channels"), ("net.blocks=3", "net.blocks"), ("seed=5", "seed")]
)
def test_what_a_checkpoint_fixes_is_refused_by_name(tmp_path, first, override, key):
    with pytest.raises(ConfigError, match=rf"^{key}: .*resum"):
        run(tmp_path, f"resume={first.checkpoint}", "train.iterations=2", override)


def test_unknown_keys_are_refused(tmp_path, first):
    with pytest.raises(ConfigError, match="nosuchkey"):
        settings.build_settings(compose_train([*SMOKE, "+nosuchkey=1"]))
    with pytest.raises(ConfigError, match="train.nosuch"):
        settings.build_settings(compose_train([*SMOKE, "+train.nosuch=1"]))
    with pytest.raises(ConfigError, match="nosuchkey"):
        run(tmp_path, f"resume={first.checkpoint}", "+nosuchkey=1")


def interrupt_second_self_play(monkeypatch, stop):
    """Self-play that, in the second iteration, draws from the run's generator and then stops."""
    real, calls = feeds.self_play_sizes, []

    def play(boards, mix, games, config, rng, *rest):
        calls.append(1)
        if len(calls) == 2:
            rng.random(100)  # part of the iteration's randomness is used
            stop()
        return real(boards, mix, games, config, rng, *rest)

    monkeypatch.setattr(feeds, "self_play_sizes", play)


def raise_keyboard_interrupt():
    raise KeyboardInterrupt


@pytest.mark.parametrize(
    "stop", [raise_keyboard_interrupt, lambda: os.kill(os.getpid(), signal.SIGTERM)], ids=["sigint", "sigterm"]
)
def test_an_interrupted_iteration_leaves_the_end_of_iteration_checkpoint_alone(tmp_path, monkeypatch, stop):
    whole = run(tmp_path / "whole", "train.iterations=3")
    interrupt_second_self_play(monkeypatch, stop)
    stopped = run(tmp_path / "stopped", "train.iterations=3")
    monkeypatch.undo()
    assert stopped.interrupted and stopped.iteration == 1 and is_interrupted(stopped.checkpoint)
    files = checkpoint_files(tmp_path / "stopped" / "checkpoints")
    assert [is_interrupted(p) for p in files] == [False, True] and files[1] == stopped.checkpoint
    end = files[0]
    assert load_checkpoint(end)["numpy_rng"] != load_checkpoint(stopped.checkpoint)["numpy_rng"]
    # the buffer had not changed since the end of iteration 1: one file, not a second copy
    assert replay_path(stopped.checkpoint).stat().st_ino == replay_path(end).stat().st_ino
    resumed = run(tmp_path / "stopped", f"resume={end}")
    assert resumed.losses == whole.losses[1:]  # exact, as if it had never stopped
    a, b = load_checkpoint(whole.checkpoint), load_checkpoint(resumed.checkpoint)
    assert all(torch.equal(a["model"][k], b["model"][k]) for k in a["model"])
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # the run gave the handler back


def test_a_second_interruption_at_the_same_step_gets_its_own_name(tmp_path, monkeypatch):
    interrupt_second_self_play(monkeypatch, raise_keyboard_interrupt)
    stopped = run(tmp_path, "train.iterations=3")
    monkeypatch.undo()

    def stop_at_once(boards, mix, games, config, rng, *rest):
        rng.random(7)
        raise KeyboardInterrupt

    monkeypatch.setattr(feeds, "self_play_sizes", stop_at_once)
    again = run(tmp_path, f"resume={stopped.checkpoint}")
    assert again.interrupted and again.checkpoint != stopped.checkpoint
    assert stopped.checkpoint.exists() and is_interrupted(again.checkpoint)
    assert checkpoint_files(tmp_path / "checkpoints")[-1] == again.checkpoint


def test_the_next_start_removes_stale_temporary_files(tmp_path, first):
    directory = tmp_path / "run"
    run(directory, "train.iterations=1")
    stale = directory / "checkpoints" / ".ckpt_step0000003_iter0001.replay.npz.x1y2.tmp"
    stale.write_bytes(b"half a replay buffer")
    run(directory, f"resume={checkpoint_files(directory / 'checkpoints')[-1]}", "train.iterations=2")
    assert not stale.exists()


def cli(cwd, *args):
    return subprocess.run(
        [sys.executable, str(ROOT / "train.py"), *args], cwd=cwd, capture_output=True, text=True, timeout=300
    )


def test_a_resumed_run_continues_in_its_own_run_directory(tmp_path):
    original = tmp_path / "runs" / "nex" / "original"
    done = cli(tmp_path, *SMOKE, "game=nex", "game.size=3", "train.iterations=1", f"hydra.run.dir={original}")
    assert done.returncode == 0, done.stderr
    checkpoint = checkpoint_files(original / "checkpoints")[-1]
    done = cli(tmp_path, f"resume={checkpoint}", "train.iterations=2", "agent.learner.lr=0.01")
    assert done.returncode == 0, done.stderr
    assert sorted(p.relative_to(tmp_path).as_posix() for p in (tmp_path / "runs").glob("*/*")) == ["runs/nex/original"]
    ran = yaml.safe_load((original / ".hydra" / "config.yaml").read_text())
    assert ran["game"] == {"name": "nex", "size": 3, "pie_rule": False}
    assert ran["train"]["iterations"] == 2 and ran["agent"]["learner"]["lr"] == 0.01
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    curves = EventAccumulator(str(original)).Reload()  # one set of curves: iteration 1, then 2
    assert [e.step for e in curves.Scalars("selfplay/game_length")] == [1, 2]
    assert load_checkpoint(checkpoint_files(original / "checkpoints")[-1])["iteration"] == 2


def test_a_config_error_leaves_no_run_directory(tmp_path):
    done = cli(tmp_path, *SMOKE, "agent.learner.lr=-1")
    assert done.returncode == 1 and "agent.learner.lr" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").rglob("*"))
    bad = tmp_path / "nothing.pt"
    done = cli(tmp_path, f"resume={bad}")
    assert done.returncode == 1 and "nothing.pt" in done.stderr
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").rglob("*.yaml"))
