"""Writing training checkpoints, and reading back what a resumed run needs.

The checkpoint format is :mod:`agents.net.checkpoint`'s (which also loads a
checkpoint as a network). Both files of a checkpoint, ``NAME.pt`` and the
replay buffer ``NAME.replay.npz`` beside it, are written to a temporary file
in the same directory and moved into place with ``os.replace``, the replay
first, so an interrupted write never leaves a broken or unpaired checkpoint.
Every problem raises :class:`CheckpointError` naming the file.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Callable

import numpy as np
import torch

from agents.net.checkpoint import FORMAT, CheckpointError
from agents.net.network import PolicyValueNet
from agents.training.replay import ReplayBuffer
from envs.core import GameInfo


def save_checkpoint(
    path: str | Path,
    *,
    game_info: GameInfo,
    net: PolicyValueNet,
    optimizer: torch.optim.Optimizer,
    step: int,
    iteration: int,
    rng: np.random.Generator,
    config_yaml: str,
    replay: ReplayBuffer | None = None,
) -> Path:
    """Write ``path`` (and ``replay_path(path)`` when a buffer is given) atomically."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if replay is not None:
        _atomic_write(replay_path(path), lambda f: np.savez(f, **replay.state_dict()))
    payload = {
        "format": FORMAT,
        "game": {"name": game_info.name, "params": dict(game_info.params)},
        "net_config": net.config.to_dict(),
        "model": {k: v.detach().cpu() for k, v in net.state_dict().items()},
        "optimizer": optimizer.state_dict(),
        "step": int(step),
        "iteration": int(iteration),
        "numpy_rng": rng.bit_generator.state,
        "torch_rng": torch.get_rng_state(),
        "config": config_yaml,
    }
    _atomic_write(path, lambda f: torch.save(payload, f))
    return path


def replay_path(path: str | Path) -> Path:
    """Where the replay buffer of checkpoint ``path`` lives: ``NAME.replay.npz`` beside it."""
    path = Path(path)
    return path.with_name(path.stem + ".replay.npz")


def load_replay(path: str | Path) -> ReplayBuffer:
    """The replay buffer saved beside checkpoint ``path``."""
    file = replay_path(path)
    if not file.is_file():
        raise CheckpointError(f"replay buffer {file} of checkpoint {path}: no such file")
    try:
        with np.load(file, allow_pickle=False) as data:
            return ReplayBuffer.from_state_dict({key: data[key] for key in data.files})
    except Exception as error:  # zip, key and shape errors of a damaged file
        raise CheckpointError(f"replay buffer {file}: not readable ({type(error).__name__}: {error})") from None


def restore_rngs(checkpoint: dict) -> np.random.Generator:
    """Put torch's generator back, and return the run's numpy generator, as they were saved."""
    bits = np.random.PCG64()  # the bit generator of np.random.default_rng
    try:
        bits.state = checkpoint["numpy_rng"]
    except (TypeError, ValueError, KeyError) as error:
        raise CheckpointError(f"checkpoint: the saved numpy generator state does not load ({error})") from None
    rng = np.random.Generator(bits)
    torch.set_rng_state(checkpoint["torch_rng"])
    return rng


def latest_checkpoint(directory: str | Path) -> Path:
    """The newest ``*.pt`` (by step in its name) under ``directory``."""
    found = sorted(Path(directory).rglob("ckpt_step*.pt"))
    if not found:
        raise CheckpointError(f"no checkpoint (ckpt_step*.pt) under {directory}")
    return found[-1]


def _atomic_write(path: Path, write: Callable) -> None:
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)
    except BaseException:
        os.unlink(temp)
        raise
