"""The Ray backend on a local 2-CPU runtime: end to end, the CPU inference actor, a killed actor, resuming.

The default suite runs one Ray training end to end; the killed actor, the two-node cluster and
evaluation on Ray actors take minutes each, so they are slow tests, which `.ci/run` runs too."""

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from hydra import compose, initialize_config_dir

pytest.importorskip("ray", reason='the Ray backend needs ray: pip install -e ".[ray]" (CI installs it)')

from agents.config import ConfigError  # noqa: E402
from agents.net.checkpoint import load_checkpoint  # noqa: E402
from agents.training import ray_backend  # noqa: E402
from agents.training.loop import train  # noqa: E402
from agents.training.saving import load_replay  # noqa: E402
from agents.training.settings import build_settings  # noqa: E402

ROOT = Path(__file__).parents[1]
RAY_TAGS = {
    "perf/actor_positions_per_s",
    "perf/policy_lag",
    "perf/replay_ratio",
    "loss/policy",
    "eval/score_vs_oracle_as_B",
}


def compose_train(overrides):
    with initialize_config_dir(config_dir=str(ROOT / "configs"), version_base="1.3"):
        return compose("train", overrides=list(overrides))


def events(run_dir):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    return EventAccumulator(str(run_dir)).Reload()


@pytest.fixture(scope="module")
def ray_run(tmp_path_factory):
    """``python train.py distributed=ray experiment=smoke`` on a local runtime of 2 CPUs:
    one self-play actor whose leaves a CPU inference actor evaluates."""
    run_dir = tmp_path_factory.mktemp("ray")
    args = [
        "distributed=ray",
        "experiment=smoke",
        "distributed.num_cpus=2",
        "distributed.actors=1",
        "distributed.inference_actors=1",
        f"hydra.run.dir={run_dir}",
    ]
    done = subprocess.run([sys.executable, "train.py", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return run_dir


def test_a_ray_run_logs_the_same_tags_and_writes_a_checkpoint_that_plays(ray_run):
    found = events(ray_run)
    assert RAY_TAGS <= set(found.Tags()["scalars"])
    assert [e.step for e in found.Scalars("loss/policy")] == [1, 2]
    assert [e.value for e in found.Scalars("selfplay/replay_size")] == [100.0, 200.0]
    checkpoint = sorted((ray_run / "checkpoints").glob("*.pt"))[-1]
    assert load_checkpoint(checkpoint)["step"] == 6 and len(load_replay(checkpoint)) == 200
    env = gymnasium.make("Odoku-v0", opponent=f"az:{checkpoint}", agent_seat=0)
    obs, info = env.reset(seed=1)
    terminated = False
    while not terminated:
        obs, reward, terminated, _, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert 0 <= info["score"] <= 15


def test_a_ray_checkpoint_resumes_in_process(ray_run, tmp_path):
    checkpoint = sorted((ray_run / "checkpoints").glob("*.pt"))[-1]
    overrides = [f"resume={checkpoint}", "distributed=local", "train.iterations=3", "eval.every=0"]
    result = train(compose_train(overrides), tmp_path, overrides)
    assert result.iteration == 3 and result.step == 9
    assert "backend: local" in load_checkpoint(result.checkpoint)["config"]
    assert len(load_replay(result.checkpoint)) == 300


@pytest.mark.slow
def test_a_killed_actor_is_restarted_and_the_run_goes_on(tmp_path, monkeypatch):
    """An in-process checkpoint continues on Ray with 2 actors playing while the learner
    steps; actor 0's process is killed mid-run. Ray restarts it, its chunk in flight is
    played again, and every iteration still adds its games."""
    first = train(compose_train(["experiment=smoke", "train.iterations=1", "eval.every=0"]), tmp_path / "first")
    pids, real_collect = [], ray_backend.RayFeed.collect

    def collect_and_kill(feed, *args, **kwargs):
        pids.append(feed.actor_pids())
        if len(pids) == 2:
            os.kill(pids[-1][0], signal.SIGKILL)
        return real_collect(feed, *args, **kwargs)

    monkeypatch.setattr(ray_backend.RayFeed, "collect", collect_and_kill)
    overrides = [
        f"resume={first.checkpoint}",
        "distributed=ray",
        "distributed.num_cpus=2",
        "distributed.actors=2",
        "distributed.inference_actors=0",
        "train.iterations=4",
    ]
    result = train(compose_train(overrides), tmp_path / "ray", overrides)
    assert result.iteration == 4 and result.step == 12 and not result.interrupted
    assert pids[2][0] != pids[1][0] and pids[2][1] == pids[1][1]  # actor 0 is a new process, actor 1 the same
    sizes = [e.value for e in events(result.run_dir).Scalars("selfplay/replay_size")]
    assert len(sizes) == 3 and sizes[0] >= 200 and all(b > a for a, b in zip(sizes, sizes[1:]))
    assert len(load_replay(result.checkpoint)) == sizes[-1]


@pytest.mark.slow
def test_a_run_joins_a_cluster_of_two_nodes(tmp_path):
    """``distributed.address=HOST:PORT`` joins a running cluster: two nodes of one CPU each
    (two raylets on this machine, Ray's own test cluster), so the two actors, one CPU
    each, must run on different nodes; the driver ships the ``agents`` and ``envs``
    packages to them, and the run ends with its checkpoint."""
    from ray.cluster_utils import Cluster

    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    try:
        cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        args = [
            "distributed=ray",
            "experiment=smoke",
            f"distributed.address={cluster.address}",
            "distributed.actors=2",
            "distributed.inference_actors=0",
            "train.iterations=2",
            "eval.every=0",
            f"hydra.run.dir={tmp_path}",
        ]
        done = subprocess.run(
            [sys.executable, "train.py", *args], cwd=ROOT, capture_output=True, text=True, timeout=600
        )
    finally:
        cluster.shutdown()
        for sig, handler in handlers.items():  # the test cluster's nodes install shutdown handlers in this process
            signal.signal(sig, handler)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Ray: 2 self-play actors on 2 node(s), 0 inference actors" in (tmp_path / "train.log").read_text()
    assert "backend: ray" in load_checkpoint(sorted((tmp_path / "checkpoints").glob("*.pt"))[-1])["config"]


def test_a_placement_the_cluster_cannot_hold_is_refused():
    s = build_settings(compose_train(["experiment=smoke", "distributed=ray", "distributed.gpus_per_actor=1"]))
    with pytest.raises(ConfigError, match="GPUs; the Ray cluster has 0"):
        from agents.training.loop import make_feed

        make_feed(s, None)


def test_bad_ray_settings_name_the_key():
    with pytest.raises(ConfigError, match="distributed.actors"):
        build_settings(compose_train(["distributed=ray", "distributed.actors=-2"]))
    with pytest.raises(ConfigError, match="distributed.backend"):
        build_settings(compose_train(["distributed.backend=spark"]))


def run_evaluate(run_dir, *overrides):
    """``evaluate.py`` in a process of its own (a Ray runtime stays with the process that
    started it)."""
    args = ["progress=false", f"hydra.run.dir={run_dir}", *overrides]
    return subprocess.run([sys.executable, "evaluate.py", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def refusal(tmp_path, *overrides) -> str:
    """The message of an ``evaluate.py`` run that must stop with a clear error, not a traceback."""
    done = run_evaluate(tmp_path, *overrides)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    return done.stderr + done.stdout


def evaluate_games(tmp_path, name, *overrides):
    """The games' records and results of an ``evaluate.py`` run, from its results.json."""
    run_dir = tmp_path / name
    done = run_evaluate(run_dir, *overrides)
    assert done.returncode == 0, done.stderr[-3000:]
    assert ("workers: 2 Ray actors, on a Ray runtime" in done.stdout) == ("ray=true" in overrides)
    document = json.loads((run_dir / "results.json").read_text())
    return [(game["players"], game["returns"], (run_dir / game["file"]).read_text()) for game in document["games"]]


@pytest.mark.slow
def test_evaluation_games_on_ray_actors_are_the_games_of_worker_processes(tmp_path):
    match = ["mode=match", "game=hex", "game.size=3", "players=[mcts:16,random]", "games=12", "workers=2"]
    on_ray = evaluate_games(tmp_path, "ray", *match, "ray=true")
    assert on_ray == evaluate_games(tmp_path, "processes", *match)
    assert len(on_ray) == 12 and len({record for *_, record in on_ray}) > 1


def test_more_ray_workers_than_the_runtime_has_cpus_are_refused_not_left_waiting(tmp_path):
    message = refusal(
        tmp_path, "game=hex", "game.size=3", "players=[mcts:8,random]", "games=4", "ray=true", "workers=64"
    )
    assert "workers=64: each Ray worker holds one CPU" in message


def test_a_ray_address_without_ray_is_refused_by_name(tmp_path):
    assert "ray_address: set only with ray=true" in refusal(tmp_path, "game=hex", "game.size=3", "ray_address=auto")
