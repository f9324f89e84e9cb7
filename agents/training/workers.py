"""One self-play worker: its own network copy and search, playing chunks of games.

A :class:`SelfPlayWorker` is the unit every backend runs: the in-process
worker processes (:mod:`agents.training.feeds`) and the Ray actors
(:mod:`agents.training.ray_backend`) each hold one. :meth:`SelfPlayWorker.play`
loads the weights it is handed (only when their version differs from the
ones it holds), plays ``num_games`` games, each at a board size drawn from
the mix it is handed, with a generator seeded from ``seed`` and returns a
:class:`Chunk`: the games' targets per size, the learner step of
the weights that played them (its ``version``, from which the loop computes
the policy lag) and the seconds it spent playing.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import numpy as np
import torch

from agents.net.net_estimator import NetEstimator
from agents.net.network import NetConfig, PolicyValueNet
from agents.search.mcts import MCTS, SearchConfig
from agents.sizes import SizeMix
from agents.training.selfplay import Board, SelfPlayBatch, SelfPlayConfig, self_play_sizes
from envs.core import Game


def available_cores() -> int:
    """The cores this process may run on (its affinity, not the machine's total)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


def resolve_workers(value, key: str = "agent.selfplay.workers") -> int:
    """``auto`` -> the available cores; an integer >= 0 as it is; anything else a ValueError naming ``key``."""
    if value == "auto":
        return available_cores()
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{key} must be 'auto' or an integer >= 0, got {value!r}")
    return value


@dataclass
class Chunk:
    """Games one worker played with one version of the weights."""

    batches: dict[Any, SelfPlayBatch]  # board size -> its games
    version: int  # the learner step of the weights that played it
    seconds: float  # the worker's time playing them
    worker: int

    @property
    def num_positions(self) -> int:
        return sum(batch.num_positions for batch in self.batches.values())

    @property
    def num_games(self) -> int:
        return sum(len(batch.game_lengths) for batch in self.batches.values())


class SelfPlayWorker:
    """Plays self-play games at the run's board sizes with a private network copy (or a
    shared estimator)."""

    def __init__(
        self,
        games: Mapping[Any, Game],
        net: NetConfig,
        search: SearchConfig,
        config: SelfPlayConfig,
        worker: int = 0,
        device: str = "cpu",
        estimator_for: Callable[[Game], Any] | None = None,
    ):
        """``games``: board size -> game. With ``estimator_for`` (a game -> an estimator of a
        shared inference service) the worker holds no network: whoever serves the
        estimators loads the weights."""
        torch.set_num_threads(1)  # the workers are the parallelism
        self.config, self.worker = config, worker
        first = next(iter(games.values()))
        self.net = None if estimator_for else PolicyValueNet.for_game(first.info, net).to(torch.device(device))
        estimator_for = estimator_for or (lambda game: NetEstimator(game, self.net, device))
        self.boards = {size: Board(game, MCTS(game, search), estimator_for(game)) for size, game in games.items()}
        self.version: int | None = None  # learner step of the loaded weights

    def load(self, weights: dict | Callable[[], dict] | None, version: int) -> None:
        """Take ``weights`` (a state dict, or a function fetching it) unless ``version`` is loaded."""
        if self.net is None or weights is None or version == self.version:
            return
        self.net.load_state_dict(weights() if callable(weights) else weights)
        self.version = version

    def play(self, weights, version: int, num_games: int, seed: int, mix: SizeMix) -> Chunk:
        self.load(weights, version)
        started = time.perf_counter()
        batches = self_play_sizes(self.boards, mix, num_games, self.config, np.random.default_rng(seed), version)
        return Chunk(batches, version, time.perf_counter() - started, self.worker)


def cpu_weights(net: PolicyValueNet) -> dict[str, torch.Tensor]:
    """A copy of the network's weights on the CPU (what workers load). A copy, not a
    view: a process pool pickles its jobs in a background thread, while the learner
    already steps on the live weights."""
    return {key: value.detach().to("cpu", copy=True) for key, value in net.state_dict().items()}
