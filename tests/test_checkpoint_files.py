"""Damaged, foreign and malicious checkpoint files: as ``az:PATH`` and as ``resume=``,
always a CheckpointError naming the file and the problem; no payload ever runs."""

import os
import pickle
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
import yaml
from hydra import compose, initialize_config_dir

from agents.net.checkpoint import CheckpointError, atomic_write, load_checkpoint
from agents.players.registry import make_player
from agents.training.loop import train
from agents.training.saving import replay_path
from envs import make_game

ROOT = Path(__file__).parents[1]
FLAG = "neuzero-payload-ran"


def compose_train(overrides):
    with initialize_config_dir(config_dir=str(ROOT / "configs"), version_base="1.3"):
        return compose("train", overrides=list(overrides))


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    """A one-iteration smoke run's checkpoint and its contents."""
    directory = tmp_path_factory.mktemp("good")
    overrides = ["experiment=smoke", "train.iterations=1", "eval.every=0"]
    result = train(compose_train(overrides), directory, overrides)
    return result.checkpoint, torch.load(result.checkpoint, weights_only=True)


class Payload:
    """Unpickling this creates the flag file: it must never happen."""

    def __init__(self, flag):
        self.flag = str(flag)

    def __reduce__(self):
        return (os.mkdir, (self.flag,))


def renamed_search_key(config):
    data = yaml.safe_load(config)
    data["agent"]["search"]["simulations"] = data["agent"]["search"].pop("num_simulations")
    return yaml.safe_dump(data)


def renamed_learner_key(config):
    data = yaml.safe_load(config)
    data["agent"]["learner"]["learning_rate"] = data["agent"]["learner"].pop("lr")
    return yaml.safe_dump(data)


# field -> (new value as a function of the good one, what the message must say)
BAD_FIELDS = [
    ("game", lambda v: "odoku", r"field 'game'"),
    ("game", lambda v: {"name": 5, "params": {}}, r"field 'game'"),
    ("net_config", lambda v: {**v, "kernels": 3}, r"field 'net_config'"),
    ("net_config", lambda v: [1, 2], r"field 'net_config'"),
    ("model", lambda v: {k: t[:1] if t.dim() else t for k, t in v.items()}, r"field 'model'"),
    ("model", lambda v: "weights", r"field 'model'"),
    ("optimizer", lambda v: "adam", r"field 'optimizer'"),
    ("optimizer", lambda v: {"state": {}, "param_groups": [{"lr": 0.1}]}, r"field 'optimizer'"),
    ("step", lambda v: "ten", r"field 'step'"),
    ("step", lambda v: -3, r"field 'step'"),
    ("iteration", lambda v: 1.5, r"field 'iteration'"),
    ("numpy_rng", lambda v: {"bit_generator": "MT19937"}, r"field 'numpy_rng'"),
    ("numpy_rng", lambda v: 7, r"field 'numpy_rng'"),
    ("torch_rng", lambda v: torch.zeros(3), r"field 'torch_rng'"),
    ("torch_rng", lambda v: "seed", r"field 'torch_rng'"),
    ("config", lambda v: "agent: [unclosed", r"field 'config'"),
    ("config", lambda v: 42, r"field 'config'"),
    ("config", renamed_search_key, r"field 'config'.*simulations"),
    ("config", renamed_learner_key, r"field 'config'.*learning_rate"),  # az:PATH needs agent.search only
]
RESUME_ONLY = {"broken replay", "bad config 18"}  # what az:PATH does not read


def crafted(tmp_path, good) -> list[tuple[str, Path, str]]:
    """(case, file, pattern the message must match after the file name)."""
    path, contents = good
    cases = []

    def write(name, data: bytes):
        file = tmp_path / f"{name}.pt"
        file.write_bytes(data)
        return file

    data = path.read_bytes()
    cases.append(("truncated", write("truncated", data[: len(data) // 2]), "not a readable checkpoint"))
    cases.append(("random", write("random", np.random.default_rng(0).bytes(4000)), "not a readable checkpoint"))
    cases.append(("empty", write("empty", b""), "not a readable checkpoint"))
    folder = tmp_path / "folder.pt"
    folder.mkdir()
    cases.append(("directory", folder, "is a directory|no checkpoint"))
    cases.append(("pickle", write("pickle", pickle.dumps(Payload(tmp_path / FLAG))), "not a readable checkpoint"))
    torch_pickle = tmp_path / "torch_pickle.pt"
    torch.save({**contents, "model": Payload(tmp_path / FLAG)}, torch_pickle)
    cases.append(("torch pickle", torch_pickle, "not a readable checkpoint"))
    for number, (field, change, pattern) in enumerate(BAD_FIELDS):
        file = tmp_path / f"bad_{field}_{number}.pt"
        torch.save({**contents, field: change(contents[field])}, file)
        os.link(replay_path(path), replay_path(file))
        cases.append((f"bad {field} {number}", file, pattern))
    broken_replay = tmp_path / "broken_replay.pt"
    broken_replay.write_bytes(data)
    replay_path(broken_replay).write_bytes(replay_path(path).read_bytes()[:500])
    cases.append(("broken replay", broken_replay, "not readable"))
    return cases


def test_every_crafted_file_is_a_checkpoint_error_naming_file_and_problem(tmp_path, good):
    odoku = make_game("odoku")
    for case, file, pattern in crafted(tmp_path, good):
        if case not in RESUME_ONLY:
            with pytest.raises(CheckpointError) as error:
                make_player(f"az:{file}", odoku)
            assert file.name in str(error.value) and re.search(pattern, str(error.value)), (case, error.value)
        overrides = [f"resume={file}", "train.iterations=2"]
        with pytest.raises(CheckpointError) as error:
            train(compose_train(overrides), tmp_path / "runs" / case.replace(" ", "_"), overrides)
        assert file.name in str(error.value) and re.search(pattern, str(error.value)), (case, error.value)
    assert not (tmp_path / FLAG).exists()


def test_a_checkpoint_of_another_game_is_refused_as_an_opponent(tmp_path):
    overrides = ["experiment=smoke", "game=nex", "game.size=3", "train.iterations=1", "eval.every=0"]
    nex = train(compose_train(overrides), tmp_path / "nex", overrides)
    with pytest.raises(CheckpointError, match=rf"{nex.checkpoint.name} is for nex\(.*\), not odoku"):
        make_player(f"az:{nex.checkpoint}", make_game("odoku"))


def test_a_resume_directory_without_checkpoints(tmp_path):
    overrides = [f"resume={tmp_path}"]
    with pytest.raises(CheckpointError, match=rf"no checkpoint .* under {tmp_path}"):
        train(compose_train(overrides), tmp_path / "run", overrides)


def test_good_checkpoint_still_loads(good):
    path, _ = good
    assert load_checkpoint(path, make_game("odoku"))["iteration"] == 1


@pytest.mark.parametrize("entry", ["train", "evaluate"])
def test_command_lines_report_a_damaged_file_without_a_traceback(tmp_path, good, entry):
    damaged = tmp_path / "damaged.pt"
    damaged.write_bytes(good[0].read_bytes()[:3000])
    if entry == "train":
        args = [f"resume={damaged}", f"hydra.run.dir={tmp_path / 'run'}"]
    else:
        args = [f"players=[az:{damaged},random]", "games=2", f"hydra.run.dir={tmp_path / 'run'}"]
    done = subprocess.run([sys.executable, f"{entry}.py", *args], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    assert "damaged.pt" in done.stderr and "not a readable checkpoint" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600)])
def test_atomic_write_gives_the_file_the_mode_open_would_and_keeps_the_old_one_on_a_fault(tmp_path, umask, mode):
    # checkpoints and zoo files are written through a temporary file; it must not stay private
    path = tmp_path / "card.json"
    path.write_bytes(b"old")
    old_mask = os.umask(umask)
    try:
        atomic_write(path, lambda stream: stream.write(b"new"))

        def fault(stream):
            stream.write(b"half")
            raise OSError("disk full")

        with pytest.raises(OSError, match="disk full"):
            atomic_write(path, fault)
    finally:
        os.umask(old_mask)
    assert (path.read_bytes(), path.stat().st_mode & 0o777) == (b"new", mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["card.json"]
