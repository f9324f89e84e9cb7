"""Writing training checkpoints, and reading back what a resumed run needs
(:func:`run_start`: the network, buffer, counters and generators a run begins with).

The checkpoint format is :mod:`agents.net.checkpoint`'s (which also loads a
checkpoint as a network). Both files of a checkpoint, ``NAME.pt`` and the
replay buffer ``NAME.replay.npz`` beside it, are written to a temporary file
in the same directory and moved into place with ``os.replace``, the replay
first, so an interrupted write never leaves a broken or unpaired checkpoint;
a run killed mid-write leaves a hidden ``.NAME...tmp`` file, which the next
start in that directory removes. The replay file holds each array in its most
compact lossless form (:func:`~agents.training.replay.pack_state`), compressed; a
checkpoint whose buffer has not changed since the previous one shares that
file (a hard link) instead of writing it again.

Names: ``ckpt_stepSSSSSSS_iterIIII.pt`` at the end of an iteration (``SSSSSSS``
learner steps and ``IIII`` iterations done) and
``ckpt_stepSSSSSSS_iterIIII_interrupted[N].pt`` for a run stopped within an
iteration, so a stop never replaces the end-of-iteration checkpoint that
resumes exactly. A milestone (:func:`keep_milestone`) is a second name for a
checkpoint in ``milestones/`` beside it (a hard link, or a copy where links
fail), so pruning the checkpoint folder leaves it; it has no replay buffer.
Every problem raises :class:`CheckpointError` naming the file.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Mapping

import numpy as np
import torch

from agents.net.checkpoint import (
    FORMAT,
    MILESTONES,
    CheckpointError,
    atomic_write,
    build_network,
    check_game,
    checkpoint_files,
)
from agents.net.network import PolicyValueNet
from agents.training.replay import ReplayBuffer, SizedReplay, pack_state, unpack_state
from envs.core import GameInfo

if TYPE_CHECKING:
    from agents.training.settings import Settings

_STALE = ".ckpt_step*.tmp"


def checkpoint_path(directory: str | Path, step: int, iteration: int, interrupted: bool = False) -> Path:
    """A new checkpoint's name in ``directory``; an interrupted one never takes an existing name."""
    stem = Path(directory) / f"ckpt_step{step:07d}_iter{iteration:04d}"
    if not interrupted:
        return stem.with_name(stem.name + ".pt")
    number = 1
    while (path := stem.with_name(f"{stem.name}_interrupted{number if number > 1 else ''}.pt")).exists():
        number += 1
    return path


def is_interrupted(path: str | Path) -> bool:
    """Whether checkpoint ``path`` was written by a run stopped within an iteration."""
    return "_interrupted" in Path(path).name


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
    replay: ReplayBuffer | SizedReplay | None = None,
    same_replay_as: Path | None = None,
    wall_seconds: float | None = None,
) -> Path:
    """Write ``path`` (and ``replay_path(path)`` when a buffer is given) atomically.

    ``same_replay_as``: a checkpoint whose replay file holds exactly ``replay``;
    the new checkpoint links to it rather than writing it again. ``wall_seconds``:
    the run's training time so far (None: unknown, the field is left out).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if replay is not None:
        target = replay_path(path)
        source = replay_path(same_replay_as) if same_replay_as is not None else None
        try:
            if source is None or not source.is_file():
                raise FileNotFoundError(source)
            atomic_write(target, link_from=source)
        except OSError:  # nothing to share, or a file system without hard links
            atomic_write(target, lambda f: np.savez_compressed(f, **pack_state(replay.state_dict())))
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
    if wall_seconds is not None:
        payload["wall_seconds"] = float(wall_seconds)
    atomic_write(path, lambda f: torch.save(payload, f))
    return path


def replay_path(path: str | Path) -> Path:
    """Where the replay buffer of checkpoint ``path`` lives: ``NAME.replay.npz`` beside it."""
    path = Path(path)
    return path.with_name(path.stem + ".replay.npz")


def load_replay(path: str | Path, capacity: int | None = None, shapes: Mapping | None = None) -> SizedReplay:
    """The replay buffer saved beside checkpoint ``path`` (resized to ``capacity``:
    a smaller one keeps the newest positions), with a ring for every board size in
    ``shapes`` (size -> observation shape, actions; see :class:`SizedReplay`)."""
    file = replay_path(path)
    if not file.is_file():
        raise CheckpointError(f"replay buffer {file} of checkpoint {path}: no such file")
    try:
        with np.load(file, allow_pickle=False) as data:
            return SizedReplay.from_state_dict(unpack_state({key: data[key] for key in data.files}), capacity, shapes)
    except Exception as error:  # zip, key and shape errors of a damaged file
        raise CheckpointError(
            f"replay buffer {file} of checkpoint {path}: not readable ({type(error).__name__}: {error})"
        ) from None


def restore_rngs(checkpoint: dict) -> np.random.Generator:
    """Put torch's generator back, and return the run's numpy generator, as they were saved
    (both fields were checked by ``load_checkpoint``)."""
    bits = np.random.PCG64()  # the bit generator of np.random.default_rng
    bits.state = checkpoint["numpy_rng"]
    torch.set_rng_state(checkpoint["torch_rng"])
    return np.random.Generator(bits)


@dataclass
class RunStart:
    """What a run begins with: a fresh network and buffer, or what a checkpoint restores."""

    net: PolicyValueNet
    replay: SizedReplay
    rng: np.random.Generator
    step: int = 0
    iteration: int = 0
    optimizer: dict | None = None  # the optimiser's saved state (None: a fresh optimiser)
    wall_seconds: float | None = 0.0  # the run's clock so far; None: the checkpoint recorded none


def run_start(
    s: "Settings", checkpoint: dict | None = None, path: Path | None = None, weights: dict | None = None
) -> RunStart:
    """A fresh start from ``s.seed`` (the network's initial weights drawn from torch's
    generator, its value head's last layer zero with ``agent.learner.zero_value_init``, or
    ``weights``: ``init=``), or the run saved in ``checkpoint`` (read from
    ``path``): its weights, replay buffer, counters, optimiser state and generators."""
    shapes = {size: (g.info.obs_shape, g.info.num_actions) for size, g in s.games.items()}
    torch.manual_seed(s.seed)
    if checkpoint is None:
        rng = np.random.default_rng(s.seed)
        net = PolicyValueNet.for_game(s.game.info, s.net)
        if weights is not None:
            net.load_state_dict(weights)
        elif s.learner.zero_value_init:
            net.zero_value_output()
        return RunStart(net, SizedReplay(s.learner.replay_capacity, shapes), rng)
    check_game(checkpoint, s.game, path)  # a command-line override may have changed it
    net = build_network(checkpoint, path, s.game)
    replay = load_replay(path, s.learner.replay_capacity, shapes)
    return RunStart(
        net,
        replay,
        restore_rngs(checkpoint),
        checkpoint["step"],
        checkpoint["iteration"],
        checkpoint["optimizer"],
        checkpoint.get("wall_seconds"),
    )


def prune(directory: str | Path, keep: int) -> None:
    """Delete all but the newest ``keep`` checkpoints (and their replay files)."""
    for old in checkpoint_files(directory)[:-keep]:
        replay_path(old).unlink(missing_ok=True)
        old.unlink()


def keep_milestone(path: str | Path) -> Path:
    """Keep checkpoint ``path`` as a milestone, ``milestones/NAME.pt`` beside it, out of
    :func:`prune`'s reach (the weights, optimiser and generators; not the replay buffer)."""
    path = Path(path)
    target = path.parent / MILESTONES / path.name
    target.parent.mkdir(exist_ok=True)

    def copy(f) -> None:
        with path.open("rb") as source:
            shutil.copyfileobj(source, f)

    try:
        atomic_write(target, link_from=path)
    except OSError:  # a file system without hard links
        atomic_write(target, copy)
    return target


def remove_stale_files(directory: str | Path) -> list[Path]:
    """Delete the temporary files a killed run left in checkpoint folder ``directory``
    and its milestones."""
    directory = Path(directory)
    stale = sorted([*directory.glob(_STALE), *(directory / MILESTONES).glob(_STALE)])
    for file in stale:
        file.unlink(missing_ok=True)
    return stale
