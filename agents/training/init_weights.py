"""``init=``: a new run whose network starts from trained weights.

``resume=PATH`` continues a run: its weights, optimiser, replay buffer, counters, generators
and clock. ``init=SOURCE`` starts a new run (fresh optimiser, empty replay buffer, step 0,
this run's seed) whose network begins with the weights of ``SOURCE``: ``zoo`` (the zoo's
network for the run's game), ``zoo:NAME`` or a checkpoint (a file, or a run directory: its
newest). It is how a shipped network trains further when the run that made it is gone.
The weights must be for the run's game and rules (at any board size) and
have the run's ``net`` shape; anything else is a ConfigError naming both.
"""

from __future__ import annotations

from pathlib import Path

import torch

from agents.config import ConfigError
from agents.net.checkpoint import CheckpointError, build_network, check_game, load_checkpoint
from agents.net.network import NetConfig
from agents.net.zoo import ZooError, load_network, named_network
from agents.training.saving import latest_checkpoint
from envs.core import Game


def initial_weights(source: str, game: Game, net_config: NetConfig) -> tuple[dict[str, torch.Tensor], str]:
    """The weights ``init=source`` names, checked against the run's ``game`` and ``net_config``,
    and the source as the run records it (a run directory becomes its newest checkpoint's path)."""
    zoo_name = named_network(source, game.info.name)
    try:
        if zoo_name:
            net = load_network(zoo_name, game, any_size=True).net  # weights fit every size
        else:
            path = Path(source)
            path = latest_checkpoint(path) if path.is_dir() else path
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
