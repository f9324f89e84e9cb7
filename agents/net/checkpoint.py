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
===================  =============================================================

The replay buffer is saved beside it as ``NAME.replay.npz`` (plain arrays,
loaded with ``allow_pickle=False``); :mod:`agents.training.saving` writes both
files and reads the replay back. Every problem raises :class:`CheckpointError`
naming the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch

from agents.net.network import NetConfig, PolicyValueNet
from envs.core import Game

FORMAT = "neuzero-checkpoint/1"
_KEYS = ("format", "game", "net_config", "model", "optimizer", "step", "iteration", "numpy_rng", "torch_rng", "config")


class CheckpointError(ValueError):
    """A checkpoint that is missing, unreadable, or for another game."""


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


def _describe(game: dict) -> str:
    params = ", ".join(f"{k}={v}" for k, v in sorted(game["params"].items()))
    return f"{game['name']}({params})"
