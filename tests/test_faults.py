"""Fault injection: a training process killed (SIGKILL, SIGINT, SIGTERM) at random
moments leaves a newest checkpoint that loads, and resuming from its end-of-iteration
checkpoints reproduces the uninterrupted run bit for bit."""

import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import torch

from agents.net.checkpoint import load_checkpoint
from agents.training.saving import checkpoint_files, is_interrupted, load_replay

ROOT = Path(__file__).parents[1]
RUN = [
    "experiment=smoke",
    "train.iterations=4",
    "train.checkpoint_every=1",
    "train.keep_checkpoints=20",
    "eval.every=0",
]


def start(log: Path, *args):
    """``train.py ARGS`` in the background, its output in ``log``."""
    return subprocess.Popen(
        [sys.executable, "train.py", *args],
        cwd=ROOT,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )


def wait_until(done, process, what, limit):
    """Poll ``done()`` until it holds; fail naming ``what`` if the run exits or ``limit`` seconds pass."""
    began = time.monotonic()
    while not done():
        if process.poll() is not None or time.monotonic() - began > limit:
            raise AssertionError(f"{what} (exit {process.poll()})")
        time.sleep(0.02)
    return time.monotonic()


def wait_for_training(run_dir, process, limit=120.0):
    """The moment the run's TensorBoard file appears (training has begun)."""
    return wait_until(
        lambda: list(Path(run_dir).glob("events.out.tfevents.*")), process, "the run did not start", limit
    )


def wait_for_checkpoints(run_dir, process, count, limit=300.0):
    """Block until the run has written ``count`` end-of-iteration checkpoints."""

    def reached() -> bool:
        ends = [p for p in checkpoint_files(Path(run_dir) / "checkpoints") if not is_interrupted(p)]
        return len(ends) >= count

    wait_until(reached, process, f"the run did not reach checkpoint {count}", limit)


def assert_same_state(a: Path, b: Path):
    first, second = load_checkpoint(a), load_checkpoint(b)
    assert first["step"] == second["step"] and first["iteration"] == second["iteration"]
    for key in first["model"]:
        assert torch.equal(first["model"][key], second["model"][key]), key
    for state_a, state_b in zip(first["optimizer"]["state"].values(), second["optimizer"]["state"].values()):
        for key in state_a:
            assert torch.equal(state_a[key], state_b[key]), key
    assert first["numpy_rng"] == second["numpy_rng"] and torch.equal(first["torch_rng"], second["torch_rng"])


@pytest.mark.slow  # about 15 training processes: 2-4 minutes on 2 shared cores
def test_killed_runs_leave_loadable_checkpoints_and_resume_exactly(tmp_path):
    reference_dir = tmp_path / "reference"
    process = start(tmp_path / "reference.log", f"hydra.run.dir={reference_dir}", *RUN)
    began = wait_for_training(reference_dir, process)
    assert process.wait(timeout=600) == 0, (tmp_path / "reference.log").read_text()
    training_seconds = time.monotonic() - began
    reference = checkpoint_files(reference_dir / "checkpoints")
    assert len(reference) == 4 and not any(is_interrupted(p) for p in reference)

    rng = np.random.default_rng(12)
    signals = [signal.SIGKILL, signal.SIGINT, signal.SIGTERM] * 2
    resumed = 0
    for number, sent in enumerate(signals):
        run_dir, log = tmp_path / f"run{number}", tmp_path / f"run{number}.log"
        process = start(log, f"hydra.run.dir={run_dir}", *RUN)
        wait_for_training(run_dir, process)
        if number < 3:  # any moment, start-up and the end included
            time.sleep(rng.uniform(0.0, 1.1) * training_seconds)
        else:  # within iteration 2, 3 or 4, so that these runs have something to resume
            wait_for_checkpoints(run_dir, process, number - 2)
            time.sleep(rng.uniform(0.0, 0.5) * training_seconds / len(reference))
        process.send_signal(sent)
        code = process.wait(timeout=300)
        output = log.read_text()
        found = checkpoint_files(run_dir / "checkpoints")
        if sent != signal.SIGKILL:
            assert "Traceback" not in output and code in (0, 128 + sent), (sent, code, output)
            assert found, (sent, code, output)  # caught: the run ended with a checkpoint
        if found:  # the newest checkpoint loads, with its replay buffer
            assert load_checkpoint(found[-1])["config"] and load_replay(found[-1]).capacity == 50_000
        ends = [p for p in found if not is_interrupted(p)]
        for path in ends:  # every end-of-iteration checkpoint is the uninterrupted run's
            assert_same_state(path, reference_dir / "checkpoints" / path.name)
        if not ends or ends[-1].name == reference[-1].name:
            continue
        # resumed without a run directory: it continues in the checkpoint's own
        again = start(tmp_path / f"resume{number}.log", f"resume={ends[-1]}")
        assert again.wait(timeout=600) == 0, (tmp_path / f"resume{number}.log").read_text()
        resumed += 1
        assert_same_state(checkpoint_files(run_dir / "checkpoints")[-1], reference[-1])
        assert not list((run_dir / "checkpoints").glob(".*.tmp"))  # the resumed start removed stale files
    assert resumed >= 3
