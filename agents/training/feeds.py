"""Where an iteration's self-play games come from: the calling process or worker processes.

The training loop asks a feed for ``agent.selfplay.games_per_iteration`` games
once per iteration (:meth:`collect`), handing it the current network, the
learner step, the run's generator and the iteration the games are for, and
gets back :class:`Chunk` s (games per board size, the version of the weights
that played them, the seconds it took). A feed knows the run's board sizes
(:class:`~agents.sizes.SizeSchedule`) and hands each share of games
the iteration's size mix. Every feed plays with
:func:`agents.training.selfplay.self_play_sizes`; they differ only in where it
runs:

* :class:`InlineFeed` (``agent.selfplay.workers=0``) plays in the calling
  process with the run's generator, between learning phases: policy lag 0.
* :class:`ProcessFeed` (``workers=N``) splits the games over N worker
  processes (:class:`agents.pool.WorkerPool`), each a :class:`SelfPlayWorker`
  with its own network copy, seeded
  from the run's generator. With ``overlap`` it hands the workers the next
  iteration's games (with the weights as they are before this iteration's
  learning) before it returns, so the workers play while the learner steps:
  the policy lag is then exactly ``steps_per_iteration``. Chunks come back in
  worker order and the seeds, sizes and weights are fixed when the games are
  handed out, so a fixed seed and worker count give identical runs either way.
  With ``agent.selfplay.inference_server`` the workers hold no network: their
  forward passes go to one :class:`~agents.net.inference_server.InferenceServer`
  (a thread of this process, on the run's device), which batches the requests
  of all the workers. A single worker's games are then exactly those it plays
  with a network of its own; with several, a network's float arithmetic can
  round an estimate differently in a batch mixed from several workers, so the
  games are legal, complete and seeded alike but not bit-reproducible.
  A worker process that dies stops the run with an error saying so.

The Ray backend (:mod:`agents.training.ray_backend`) is a third feed with the
same interface.
"""

from __future__ import annotations

import time
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Mapping, Protocol

import numpy as np

from agents.net.inference_server import InferenceServer, ServedEstimator, connect
from agents.net.network import NetConfig, PolicyValueNet
from agents.pool import WorkerPool
from agents.search.mcts import MCTS, SearchConfig
from agents.sizes import SizeSchedule
from agents.training.selfplay import Board, SelfPlayConfig, self_play_sizes
from agents.training.workers import Chunk, SelfPlayWorker, cpu_weights
from envs.core import Game


class Feed(Protocol):
    workers: int  # processes or actors playing (0: the calling process)
    overlap: bool  # whether workers play while the learner steps
    stale_games: int  # games played but dropped for exceeding the policy lag bound (Ray only)

    def collect(
        self, net: PolicyValueNet, step: int, rng: np.random.Generator, iteration: int, more: bool
    ) -> list[Chunk]:
        """The games of ``iteration`` (1-based); ``more`` is False at the last iteration
        (nothing to prefetch)."""

    def close(self) -> None: ...


def split_games(num_games: int, workers: int) -> list[int]:
    """Games per worker, as even as possible, larger shares first (zeros dropped)."""
    shares = [len(part) for part in np.array_split(np.arange(num_games), workers)]
    return [n for n in shares if n]


class InlineFeed:
    """Self-play in the calling process, with the run's own generator."""

    workers = 0
    overlap = False
    stale_games = 0

    def __init__(
        self, sizes: SizeSchedule, estimators: Mapping[Any, Any], search: SearchConfig, config: SelfPlayConfig
    ):
        """``estimators``: board size -> the run network's estimator for that size's game."""
        self.sizes, self.config = sizes, config
        self.boards = {size: Board(e.game, MCTS(e.game, search), e) for size, e in estimators.items()}

    def collect(self, net, step, rng, iteration, more=True) -> list[Chunk]:
        started = time.perf_counter()
        mix = self.sizes.at(iteration)
        batches = self_play_sizes(self.boards, mix, self.config.games_per_iteration, self.config, rng, step)
        return [Chunk(batches, step, time.perf_counter() - started, 0)]

    def close(self) -> None:
        pass


class ProcessFeed:
    """Self-play in ``workers`` spawned processes, reused every iteration; with ``server``
    their forward passes run there."""

    stale_games = 0  # every chunk is played with the weights of the iteration before

    def __init__(
        self,
        workers: int,
        sizes: SizeSchedule,
        games: Mapping[Any, Game],
        net: NetConfig,
        search: SearchConfig,
        config: SelfPlayConfig,
        overlap: bool,
        server: InferenceServer | None = None,
    ):
        """``games``: board size -> game, every size of the run."""
        self.workers, self.overlap, self.config, self.sizes = workers, overlap, config, sizes
        self.server = server
        if server is None:
            self._pool = WorkerPool(workers, SelfPlayWorker, dict(games), net, search, config)
        else:
            self._pool = WorkerPool(
                workers, served_worker, dict(games), net, search, config, server.address, server.authkey
            )
        self._pending = None

    def collect(self, net, step, rng, iteration, more=True) -> list[Chunk]:
        if self._pending is None:
            self._pending = self._submit(net, step, rng, iteration)
        try:
            chunks = [future.result() for future in self._pending]
        except BrokenProcessPool:
            raise RuntimeError(
                "a self-play worker process died (killed, or out of memory); the run stops "
                "(resume=RUN_DIR continues from its last checkpoint)"
            ) from None
        self._pending = self._submit(net, step, rng, iteration + 1) if self.overlap and more else None
        return chunks

    def _submit(self, net: PolicyValueNet, step: int, rng: np.random.Generator, iteration: int):
        weights = cpu_weights(net)
        if self.server is not None:  # no game is in flight: the last chunks are back
            self.server.load(weights, step)
            weights = None
        shares = split_games(self.config.games_per_iteration, self.workers)
        seeds = rng.integers(2**63, size=len(shares))
        mix = self.sizes.at(iteration)
        return [
            self._pool.submit(_play_share, (weights, step, n, int(seed), index, mix))
            for index, (n, seed) in enumerate(zip(shares, seeds))
        ]

    def close(self) -> None:
        self._pool.close()
        if self.server is not None:
            self.server.close()


def served_worker(games, net, search, config, address, authkey: bytes) -> SelfPlayWorker:
    """A worker process's :class:`SelfPlayWorker` whose estimators send their forward passes
    to the inference server at ``address``."""
    connection = connect(address, authkey)
    return SelfPlayWorker(games, net, search, config, estimator_for=lambda game: ServedEstimator(game, connection))


def _play_share(worker: SelfPlayWorker, job: tuple) -> Chunk:
    weights, version, num_games, seed, index, mix = job
    worker.worker = index  # the pool hands any job to any process: the index names the share
    return worker.play(weights, version, num_games, seed, mix)
