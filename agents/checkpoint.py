"""Training checkpoints: atomic writes, safe loads, clear errors.

A checkpoint ``NAME.pt`` is a ``torch.save`` of plain containers and tensors
only, loaded with ``torch.load(weights_only=True)`` (no arbitrary pickles):

===================  =============================================================
``format``           ``"neuzero-checkpoint/1"``
``game``             ``{"name": ..., "params": {...}}`` from ``game.info``
``net_config``       the network's depth and width (``NetConfig``)
``model``            the network's ``state_dict``
``optimizer``        the optimiser's ``state_dict``
``step``             learner steps done; ``iteration``: iterations done
``numpy_rng``        the run generator's ``bit_generator.state``
``torch_rng``        ``torch.get_rng_state()``
``config``           the run's full configuration as YAML text
===================  =============================================================

The replay buffer is saved beside it as ``NAME.replay.npz`` (plain arrays,
loaded with ``allow_pickle=False``). Both files are written to a temporary
file in the same directory and moved into place with ``os.replace``, the
replay first, so an interrupted write never leaves a broken or unpaired
checkpoint. Every problem raises :class:`CheckpointError` naming the file.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any, Callable

import numpy as np
import torch

from agents.network import NetConfig, PolicyValueNet
from agents.replay import ReplayBuffer
from envs.core import Game, GameInfo

FORMAT = "neuzero-checkpoint/1"
_KEYS = ("format", "game", "net_config", "model", "optimizer", "step", "iteration", "numpy_rng", "torch_rng", "config")


class CheckpointError(ValueError):
    """A checkpoint that is missing, unreadable, or for another game."""


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


def load_checkpoint(path: str | Path, game: Game | None = None) -> dict[str, Any]:
    """Read and validate a checkpoint; with ``game``, also check it is for that game and size."""
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(f"checkpoint {path}: no such file")
    try:
        checkpoint = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # torch raises many types for a damaged or foreign file
        raise CheckpointError(f"checkpoint {path}: not a readable checkpoint ({type(error).__name__}: {error})") from None
    if not isinstance(checkpoint, dict) or checkpoint.get("format") != FORMAT:
        raise CheckpointError(f"checkpoint {path}: not a neuzero checkpoint (expected format {FORMAT!r})")
    missing = [key for key in _KEYS if key not in checkpoint]
    if missing:
        raise CheckpointError(f"checkpoint {path}: incomplete, missing {', '.join(missing)}")
    if game is not None:
        check_game(checkpoint, game, path)
    return checkpoint


def check_game(checkpoint: dict, game: Game, path: str | Path) -> None:
    """Raise CheckpointError unless the checkpoint was trained on ``game`` with the same parameters."""
    trained = checkpoint["game"]
    wanted = {"name": game.info.name, "params": dict(game.info.params)}
    if trained["name"] != wanted["name"] or trained["params"] != wanted["params"]:
        raise CheckpointError(
            f"checkpoint {path} is for {_describe(trained)}, not {_describe(wanted)}"
        )


def build_network(checkpoint: dict, path: str | Path, game: Game) -> PolicyValueNet:
    """The checkpoint's network, weights loaded, on the CPU."""
    try:
        net = PolicyValueNet.for_game(game.info, NetConfig(**checkpoint["net_config"]))
        net.load_state_dict(checkpoint["model"])
    except (RuntimeError, TypeError, ValueError) as error:
        raise CheckpointError(f"checkpoint {path}: the network does not load ({error})") from None
    return net


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


def _describe(game: dict) -> str:
    params = ", ".join(f"{k}={v}" for k, v in sorted(game["params"].items()))
    return f"{game['name']}({params})"


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
