"""Training checkpoints: the format, safe loads, clear errors, and checkpoints as networks.

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
``wall_seconds``     the run's wall-clock seconds of training when it was written,
                     summed over its resumes (optional: older checkpoints lack it)
===================  =============================================================

The replay buffer is saved beside it as ``NAME.replay.npz`` (plain arrays,
loaded with ``allow_pickle=False``); :mod:`agents.training.saving` writes both
files and reads the replay back. Every problem raises :class:`CheckpointError`
naming the file and, for a file that loads but holds something else, the field.

A run keeps its checkpoints in ``RUN/checkpoints/``, named
``ckpt_stepSSSSSSS_iterIIII[_interrupted[N]].pt`` (:func:`checkpoint_files` lists
them in order), and its milestones, which are never pruned, as links to the same
files in ``RUN/checkpoints/milestones/`` (:data:`MILESTONES`; no replay buffer).
"""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path
from typing import Any, Callable

import numpy as np
import torch
import yaml

from agents.net.network import NetConfig, PolicyValueNet
from envs import make_game
from envs.core import Game

FORMAT = "neuzero-checkpoint/1"
_KEYS = ("format", "game", "net_config", "model", "optimizer", "step", "iteration", "numpy_rng", "torch_rng", "config")
_NAME = re.compile(r"ckpt_step(\d+)(?:_iter(\d+))?(?:_interrupted(\d*))?\.pt")  # no _iter: older runs
MILESTONES = "milestones"  # RUN/checkpoints/milestones/: the checkpoints train.milestone_every keeps


class CheckpointError(ValueError):
    """A checkpoint that is missing, unreadable, or for another game."""


def load_checkpoint(path: str | Path, game: Game | None = None) -> dict[str, Any]:
    """Read and validate a checkpoint; with ``game``, also check it is for that game (at any
    board size: the network's weights do not depend on it)."""
    path = Path(path)
    if path.is_dir():
        raise CheckpointError(f"checkpoint {path}: is a directory, not a checkpoint file")
    if not path.is_file():
        raise CheckpointError(f"checkpoint {path}: no such file")
    try:
        checkpoint = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # torch raises many types for a damaged or foreign file
        raise CheckpointError(
            f"checkpoint {path}: not a readable checkpoint ({type(error).__name__}: {error})"
        ) from None
    if not isinstance(checkpoint, dict) or checkpoint.get("format") != FORMAT:
        raise CheckpointError(f"checkpoint {path}: not a neuzero checkpoint (expected format {FORMAT!r})")
    missing = [key for key in _KEYS if key not in checkpoint]
    if missing:
        raise CheckpointError(f"checkpoint {path}: incomplete, missing {', '.join(missing)}")
    for key, check in _FIELD_CHECKS.items():
        problem = check(checkpoint[key]) if key in checkpoint else None  # only wall_seconds may be missing
        if problem:
            raise CheckpointError(f"checkpoint {path}: field {key!r} {problem}")
    if game is not None:
        check_game(checkpoint, game, path, any_size=True)
    return checkpoint


def checkpoint_files(directory: str | Path) -> list[Path]:
    """The checkpoints in ``directory``, oldest first (:func:`checkpoint_order`)."""
    directory = Path(directory)
    found = [p for p in directory.glob("ckpt_step*.pt") if _NAME.fullmatch(p.name)] if directory.is_dir() else []
    return sorted(found, key=checkpoint_order)


def latest_checkpoint(directory: str | Path) -> Path:
    """The newest checkpoint in ``directory`` or its ``checkpoints/`` folder (a run directory)."""
    directory = Path(directory)
    found = checkpoint_files(directory) or checkpoint_files(directory / "checkpoints")
    if not found:
        raise CheckpointError(f"no checkpoint (ckpt_step*.pt) under {directory}")
    return found[-1]


def checkpoint_order(path: Path) -> tuple[int, int, int]:
    """Sort key of a checkpoint name: its steps, iterations, then stops."""
    step, iteration, stop = _NAME.fullmatch(Path(path).name).groups()
    return int(step), int(iteration or -1), -1 if stop is None else int(stop or 1)


def check_game(
    checkpoint: dict, game: Game, path: str | Path, any_size: bool = False, what: str = "checkpoint"
) -> None:
    """Raise CheckpointError unless the checkpoint was trained on ``game`` with the same
    parameters; with ``any_size``, its ``size`` may differ, and so may what the game derives
    from the size (Progressive Amazons' start), while every other rule must agree. ``what``
    names the file's kind in the message (a zoo network, :mod:`agents.net.zoo`)."""
    trained = checkpoint["game"]
    wanted = {"name": game.info.name, "params": dict(game.info.params)}
    if trained["name"] == wanted["name"] and (
        rule_changes(trained) == rule_changes(wanted) if any_size else trained["params"] == wanted["params"]
    ):
        return
    raise CheckpointError(f"{what} {path} is for {_describe(trained)}, not {_describe(wanted)}")


def rule_changes(game: dict) -> dict:
    """The parameters of ``game`` (``{"name", "params"}``) other than its size that differ from
    the game's own at that size: the rules it changes, not what the size sets."""
    params = game["params"]
    sized = {"size": params["size"]} if "size" in params else {}
    own = dict(make_game(game["name"], **sized).info.params)
    return {key: value for key, value in params.items() if key != "size" and own.get(key) != value}


def build_network(checkpoint: dict, path: str | Path, game: Game) -> PolicyValueNet:
    """The checkpoint's network, weights loaded, on the CPU, for ``game`` at its board size
    (the weights fit every size of the game they were trained on)."""
    net = PolicyValueNet.for_game(game.info, NetConfig(**checkpoint["net_config"]))
    try:
        net.load_state_dict(checkpoint["model"])
    except (RuntimeError, TypeError, ValueError) as error:
        raise CheckpointError(f"checkpoint {path}: field 'model' does not fit its network ({error})") from None
    return net


def stored_config(checkpoint: dict, path: str | Path) -> dict:
    """The run configuration saved in the checkpoint, as plain data."""
    return yaml.safe_load(checkpoint["config"])  # load_checkpoint checked that it parses to a mapping


# --- what each field must hold: None if it does, else the problem ------------------------
def _game(value) -> str | None:
    if isinstance(value, dict) and isinstance(value.get("name"), str) and isinstance(value.get("params"), dict):
        return None
    return f"must be {{'name': str, 'params': dict}}, got {_short(value)}"


def _net_config(value) -> str | None:
    if not isinstance(value, dict):
        return f"must be a mapping of network settings, got {_short(value)}"
    try:
        NetConfig(**value)
    except (TypeError, ValueError) as error:
        return f"does not describe a network ({error})"
    return None


def _model(value) -> str | None:
    if (
        isinstance(value, dict)
        and value
        and all(isinstance(k, str) and isinstance(v, torch.Tensor) for k, v in value.items())
    ):
        return None
    return f"must be a mapping of parameter names to tensors, got {_short(value)}"


def _optimizer(value) -> str | None:
    groups = value.get("param_groups") if isinstance(value, dict) else None
    if (
        isinstance(value, dict)
        and isinstance(value.get("state"), dict)
        and isinstance(groups, list)
        and all(isinstance(g, dict) and isinstance(g.get("params"), list) for g in groups)
    ):
        return None
    return f"must be an optimiser state_dict (state, param_groups with params), got {_short(value)}"


def _count(value) -> str | None:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return None
    return f"must be an integer >= 0, got {_short(value)}"


def _seconds(value) -> str | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and np.isfinite(value) and value >= 0:
        return None
    return f"must be a number of seconds >= 0, got {_short(value)}"


def _numpy_rng(value) -> str | None:
    try:
        np.random.PCG64().state = value
    except (TypeError, ValueError, KeyError) as error:
        return f"is not a PCG64 generator state ({error})"
    return None


def _torch_rng(value) -> str | None:
    expected = torch.get_rng_state()
    if isinstance(value, torch.Tensor) and value.dtype == expected.dtype and value.shape == expected.shape:
        return None
    return f"must be a {expected.dtype} tensor of shape {tuple(expected.shape)} (torch.get_rng_state()), got {_short(value)}"


def _config(value) -> str | None:
    if not isinstance(value, str):
        return f"must be YAML text, got {_short(value)}"
    try:
        data = yaml.safe_load(value)
    except yaml.YAMLError as error:
        return f"is not readable YAML ({str(error).splitlines()[0]})"
    return None if isinstance(data, dict) else f"must be a YAML mapping, got {_short(data)}"


def _short(value) -> str:
    text = repr(value) if not isinstance(value, torch.Tensor) else f"tensor{tuple(value.shape)} {value.dtype}"
    return text if len(text) <= 60 else text[:57] + "..."


_FIELD_CHECKS = {
    "game": _game,
    "net_config": _net_config,
    "model": _model,
    "optimizer": _optimizer,
    "step": _count,
    "iteration": _count,
    "numpy_rng": _numpy_rng,
    "torch_rng": _torch_rng,
    "config": _config,
    "wall_seconds": _seconds,
}


def _describe(game: dict) -> str:
    params = ", ".join(f"{k}={v}" for k, v in sorted(game["params"].items()))
    return f"{game['name']}({params})"


def atomic_write(path: Path, write: Callable | None = None, link_from: Path | None = None) -> None:
    """Write ``path`` whole or not at all: a temporary file beside it, either filled by
    ``write(stream)`` or a hard link to ``link_from``, then replaces ``path``. A written file gets
    the mode a plain ``open`` gives (``tempfile.mkstemp`` would make it private to its owner)."""
    temp = path.parent / f".{path.name}.{secrets.token_hex(4)}.tmp"
    # link and O_EXCL both refuse an existing name: the temporary is never another writer's
    if link_from is not None:
        os.link(link_from, temp)
    else:
        handle = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # less the umask, as open()
    try:
        if link_from is None:
            with os.fdopen(handle, "wb") as stream:
                write(stream)
                stream.flush()
                os.fsync(stream.fileno())
        os.replace(temp, path)
    except BaseException:
        os.unlink(temp)
        raise
