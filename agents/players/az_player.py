"""Training checkpoints as players: the ``az:PATH[:SIMS]`` player spec.

``az:PATH`` searches with the checkpoint's network and the simulation budget
and search settings the checkpoint was trained with, less the random playouts
that training may mix into leaf values (see :func:`network_player`);
``az:PATH:SIMS`` sets the budget; ``az:PATH:0`` plays the raw network (the most
likely legal action).
The checkpoint must be for the same game and parameters as the game it plays, at
any board size (the network's weights do not depend on it), e.g.
``gymnasium.make("Nex-v0", size=7, opponent="az:runs/nex/.../ckpt_step0000400.pt")``
with a checkpoint trained on Nex 5x5. ``PATH`` may also be a file in the zoo's format,
such as a training progress file (``agents/net/zoo/training/NAME.pt``, docs/zoo.md), which
a fresh clone has where it has no run directory.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import yaml

from agents.net.checkpoint import CheckpointError, build_network, load_checkpoint
from agents.net.net_estimator import NetEstimator
from agents.net.zoo import is_zoo_file, load_file
from agents.players.mcts_player import SearchPlayer
from agents.players.player import Player
from agents.search.mcts import SearchConfig
from envs.core import Game


class NetworkPlayer(Player):
    """Plays the legal action with the highest network prior (ties: the lowest index)."""

    name = "network"

    def __init__(self, estimator: NetEstimator):
        self.estimator = estimator

    def act(self, state, rng: np.random.Generator) -> int:
        return self.act_many([state], [rng])[0]

    def act_many(self, states, rngs) -> list[int]:
        """One network call for all the positions (``rngs`` are not drawn from)."""
        priors, _ = self.estimator.estimate(states)
        return [int(action) for action in np.argmax(priors, axis=1)]


def load_az_player(path: str | Path, game: Game, simulations: int | None = None) -> Player:
    """A player from checkpoint ``path`` for ``game``: search with ``simulations``
    (default: the checkpoint's training budget), or the raw network for 0."""
    if is_zoo_file(Path(path)):  # the zoo's format: a shipped network or a progress file, at any size
        net, search, play = load_file(Path(path), game, any_size=True)
        return network_player(game, net, search, simulations, play)
    checkpoint = load_checkpoint(path, game)
    net = build_network(checkpoint, path, game)
    try:
        search = dict(yaml.safe_load(checkpoint["config"])["agent"]["search"])
        SearchConfig(**search)
    except (KeyError, TypeError, ValueError) as error:
        raise CheckpointError(f"checkpoint {path}: field 'config' has no usable agent.search ({error})") from None
    return network_player(game, net, search, simulations)


def network_player(game: Game, net, search: dict, simulations: int | None = None, play: dict | None = None) -> Player:
    """``net`` searching with the ``agent.search`` settings ``search`` changed by ``play`` (a zoo
    network's own, :mod:`agents.net.zoo`) and ``simulations`` (when given, the budget), or the
    raw network for ``simulations=0``.

    The player values leaves by the network alone unless ``play`` says otherwise: ``playout_mix``
    is set to 0. Mixing one random playout into every leaf helps a young network in training, but
    a trained one usually searches far better without that noise (each zoo network trained with
    ``playout_mix=0.5`` on the Hex and Y boards scores 99-100 of 100 without it against itself
    with it: ``benchmarks/zoo_search_ab.py``)."""
    estimator = NetEstimator(game, net)
    if simulations == 0:
        return NetworkPlayer(estimator)
    search = {**search, "playout_mix": 0.0, **(play or {})}
    if simulations is not None:
        search["num_simulations"] = simulations
    return SearchPlayer(game, estimator, SearchConfig(**search))


def make_az_player(game: Game, args: list[str]) -> Player:
    """The ``az:PATH[:SIMS]`` spec (``PLAYER_SPECS``)."""
    if not 1 <= len(args) <= 2 or not args[0]:
        raise ValueError(f"player spec 'az' takes PATH[:SIMS], got {':'.join(args)!r}")
    simulations = None
    if len(args) == 2:
        try:
            simulations = int(args[1])
        except ValueError:
            simulations = -1
        if simulations < 0:
            raise ValueError(f"az:PATH:SIMS needs SIMS to be an integer >= 0, got {args[1]!r}")
    return load_az_player(args[0], game, simulations)
