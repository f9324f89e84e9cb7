"""``init=``: a new run whose network starts from trained weights.

``resume=PATH`` continues a run: its weights, optimiser, replay buffer, counters, generators
and clock. ``init=SOURCE`` starts a new run (fresh optimiser, empty replay buffer, step 0,
this run's seed) whose network begins with the weights of ``SOURCE``: ``zoo`` (the zoo's
network for the run's game), ``zoo:NAME``, a zoo-format file's path (a progress file
``agents/net/zoo/training/NAME.pt``, :mod:`agents.net.zoo.export`) or a checkpoint (a file,
or a run directory: its newest). It is how a shipped network trains further when the run
that made it is gone, and how training goes on from its progress file on another machine.
The weights must be for the run's game and rules (at any board size) and
have the run's ``net`` shape; anything else is a ConfigError naming both. A zoo-format file
is recorded with its digest, ``PATH@sha256:HEX`` (the export finds the training before the
run by it), and such a source is refused once the file no longer holds those weights.
"""

from __future__ import annotations

from pathlib import Path

import torch

from agents.config import ConfigError
from agents.net.checkpoint import CheckpointError, build_network, check_game, latest_checkpoint, load_checkpoint
from agents.net.network import NetConfig
from agents.net.zoo import (
    DIGEST,
    ZooError,
    file_digest,
    is_zoo_file,
    load_file,
    load_network,
    named_network,
    split_digest,
)
from envs.core import Game


def initial_weights(source: str, game: Game, net_config: NetConfig) -> tuple[dict[str, torch.Tensor], str]:
    """The weights ``init=source`` names, checked against the run's ``game`` and ``net_config``,
    and the source as the run records it (a run directory becomes its newest checkpoint's path)."""
    zoo_name = named_network(source, game.info.name)
    try:
        if zoo_name:
            net = load_network(zoo_name, game, any_size=True).net  # weights fit every size
        else:
            text, digest = split_digest(source)
            path = Path(text)
            path = latest_checkpoint(path) if path.is_dir() else path
            if is_zoo_file(path):
                found = file_digest(path)
                if digest not in (None, found):
                    raise ZooError(f"{path} no longer holds those weights (its digest is now {found})")
                net = load_file(path, game, any_size=True).net
                source = f"{path}{DIGEST}{found}"
            else:
                source = str(path)
                checkpoint = load_checkpoint(path)
                check_game(checkpoint, game, path, any_size=True)  # a checkpoint's weights fit every size
                net = build_network(checkpoint, path, game)
    except (ZooError, CheckpointError) as error:
        raise ConfigError(f"init={source}: {error}") from None
    if net.config != net_config:
        overrides = " ".join(f"net.{key}={value}" for key, value in net.config.to_dict().items())
        raise ConfigError(
            f"init={source}: its network is {_shape(net.config)}, this run's net is {_shape(net_config)}; "
            f"a run starts only from weights of its own shape ({overrides})"
        )
    return net.state_dict(), source


def _shape(config: NetConfig) -> str:
    return ", ".join(f"{key} {value}" for key, value in config.to_dict().items())
