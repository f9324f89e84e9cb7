"""Self-play on Ray: actors that play, optional inference actors that evaluate, the learner on the driver.

``python train.py distributed=ray`` runs the training loop unchanged with a
:class:`RayFeed` as its feed (:mod:`agents.training.feeds`):

* **Self-play actors** (``distributed.actors``, each ``cpus_per_actor`` CPUs,
  ``gpus_per_actor`` GPUs): each holds a :class:`SelfPlayWorker` (its own
  network copy and batched search) and plays chunks of games. The learner
  publishes its weights once per iteration with ``ray.put``; an actor fetches
  them from the object store only when the version it is handed is not the one
  it holds.
* **Inference actors** (``distributed.inference_actors``, one per GPU by
  default when ``device`` is CUDA): the self-play actors then hold no network;
  each sends its leaf batches to an inference actor, which runs the requests
  that arrived while it was busy as one forward pass. On the CPU the same path
  runs with ``inference_actors=1``.
* **Replay and learner** stay on the driver: chunks are added to the replay
  buffer as they arrive, the learner steps, checkpoints are the in-process
  ones (a Ray run resumes in-process and vice versa).

Board sizes: every actor holds a search per board size of the run, and each
chunk it is handed carries the size mix of the iteration it is handed out for
(in the asynchronous schedule: the iteration being gathered, or the next one
once it has its games); an inference actor runs the requests of each board
size as one forward pass.

Two schedules. With ``agent.selfplay.max_policy_lag`` below
``agent.learner.steps_per_iteration`` the actors play in rounds: every actor
gets its share of the iteration's games with the current weights and a seed
from the run's generator, and the chunks come back in actor order (policy
lag 0; seeds and weights handed out in a fixed order). Otherwise the
actors play without pause: each chunk is handed out as soon as the actor's
previous one is back, with the newest published weights, and an iteration
takes the first chunks to arrive until it has its games, so the learner
steps while the actors play. Which actor plays which seed then depends on
timing: an asynchronous run records its seeds' source (the run seed) and its
policy lag, but is not bit-reproducible. Chunks whose lag exceeds
``max_policy_lag`` are dropped and counted (``selfplay/stale_games``).

Fault tolerance: actors restart after their process dies (up to
``distributed.max_restarts`` times each) and a chunk in flight on a dead
actor is played again on its restarted copy, so the run goes on; the driver
holds the replay buffer and the learner, so a driver that dies loses what
followed its last checkpoint, and ``resume=`` continues from there.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from agents.net.net_estimator import NetEstimator
from agents.net.network import NetConfig, PolicyValueNet
from agents.search.mcts import SearchConfig
from agents.sizes import SizeSchedule
from agents.training.feeds import split_games
from agents.training.selfplay import SelfPlayConfig
from agents.training.workers import Chunk, SelfPlayWorker, cpu_weights
from envs.core import Game

log = logging.getLogger(__name__)

INSTALL_HINT = 'distributed=ray needs Ray: pip install -e ".[ray]"'


def import_ray():
    """The ``ray`` module, or an ImportError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise ImportError(INSTALL_HINT) from None
    return ray


@dataclass(frozen=True)
class RayConfig:
    """Placement of the Ray run (``distributed`` in the configs, with ``backend: ray``)."""

    address: str | None = None  # None: a local runtime; "auto" or HOST:PORT: join that cluster
    num_cpus: int | None = None  # the local runtime's CPUs (None: all)
    actors: int | str = "auto"  # self-play actors; auto: the cluster's CPUs / cpus_per_actor
    cpus_per_actor: float = 1.0
    gpus_per_actor: float = 0.0
    gpus_per_learner: float = 0.0
    inference_actors: int | str = "auto"  # auto: one per GPU when device is CUDA, else 0
    cpus_per_inference_actor: float = 1.0
    gpus_per_inference_actor: float = 1.0
    max_restarts: int = 10  # restarts per actor after its process dies

    def __post_init__(self):
        for key in ("actors", "inference_actors"):
            value = getattr(self, key)
            if value != "auto" and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
                raise ValueError(f"distributed.{key} must be 'auto' or an integer >= 0, got {value!r}")
        for key in (
            "cpus_per_actor",
            "gpus_per_actor",
            "gpus_per_learner",
            "cpus_per_inference_actor",
            "gpus_per_inference_actor",
        ):
            value = getattr(self, key)
            if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0:
                raise ValueError(f"distributed.{key} must be a number >= 0, got {value!r}")
        if self.num_cpus is not None and (not isinstance(self.num_cpus, int) or self.num_cpus < 1):
            raise ValueError(f"distributed.num_cpus must be null or an integer >= 1, got {self.num_cpus!r}")
        if not isinstance(self.max_restarts, int) or self.max_restarts < -1:
            raise ValueError(
                f"distributed.max_restarts must be an integer >= -1 (-1: unlimited), got {self.max_restarts!r}"
            )
        if self.address is not None and not isinstance(self.address, str):
            raise ValueError(f"distributed.address must be null, 'auto' or HOST:PORT, got {self.address!r}")


class RayFeed:
    """The training loop's feed (see :mod:`agents.training.feeds`) on Ray actors."""

    def __init__(
        self,
        config: RayConfig,
        sizes: SizeSchedule,
        games: dict,
        net: NetConfig,
        search: SearchConfig,
        selfplay: SelfPlayConfig,
        device: torch.device,
        overlap: bool,
        max_policy_lag: int,
    ):
        """``games``: board size -> game, every size of the run."""
        ray = self._ray = import_ray()
        self.config, self.selfplay, self.overlap, self.max_policy_lag = config, selfplay, overlap, max_policy_lag
        self.sizes = sizes
        game = next(iter(games.values()))
        self._owns_runtime = not ray.is_initialized()
        if self._owns_runtime:
            _start(ray, config)
        try:
            resources = ray.cluster_resources()
            self.workers = config.actors
            if self.workers == "auto":
                self.workers = max(1, int(resources.get("CPU", 1) // max(config.cpus_per_actor, 1e-9)))
            inference = config.inference_actors
            if inference == "auto":  # one per GPU when the network runs on CUDA
                inference = int(resources.get("GPU", 0)) if device.type == "cuda" else 0
            server_gpus = config.gpus_per_inference_actor if device.type == "cuda" else 0.0
            _check_resources(config, self.workers, inference, server_gpus, resources)
            self._reservation = _reserve_learner(ray, config.gpus_per_learner)
            self.servers = [
                ray.remote(InferenceActor)
                .options(
                    num_cpus=config.cpus_per_inference_actor,
                    num_gpus=server_gpus,
                    max_restarts=config.max_restarts,
                    max_task_retries=-1,
                )
                .remote(game, net, "cuda" if device.type == "cuda" else "cpu")  # Ray maps its GPU to cuda:0
                for _ in range(inference)
            ]
            actor_device = "cuda" if config.gpus_per_actor > 0 and not self.servers else "cpu"
            self.actors = [
                ray.remote(SelfPlayActor)
                .options(
                    num_cpus=config.cpus_per_actor,
                    num_gpus=config.gpus_per_actor,
                    max_restarts=config.max_restarts,
                    max_task_retries=-1,
                )
                .remote(
                    games,
                    net,
                    search,
                    selfplay,
                    index,
                    actor_device,
                    self.servers[index % len(self.servers)] if self.servers else None,
                )
                for index in range(self.workers)
            ]
            nodes = set(ray.get([actor.node.remote() for actor in self.actors]))
            log.info("Ray: %d self-play actors on %d node(s), %d inference actors", self.workers, len(nodes), inference)
        except BaseException:  # a refused placement or a failed start leaves no runtime behind
            if self._owns_runtime:
                ray.shutdown()
            raise
        self._box = None  # [ObjectRef] of the published weights (a list, so Ray passes the ref, not the value)
        self._version = None
        self._pending: dict = {}  # ObjectRef of a chunk in flight -> actor index
        self.stale_games = 0

    # --- the feed interface ---------------------------------------------------------------
    def collect(
        self, net: PolicyValueNet, step: int, rng: np.random.Generator, iteration: int, more: bool = True
    ) -> list[Chunk]:
        ray = self._ray
        self._publish(net, step)
        if not self.overlap:  # rounds: every actor one share, results in actor order
            shares = split_games(self.selfplay.games_per_iteration, self.workers)
            refs = [self._play(index, n, rng, iteration) for index, n in enumerate(shares)]
            return ray.get(refs)
        share = -(-self.selfplay.games_per_iteration // self.workers)
        for index in set(range(self.workers)) - set(self._pending.values()):
            self._pending[self._play(index, share, rng, iteration)] = index
        chunks, games = [], 0
        while games < self.selfplay.games_per_iteration:
            (ref,), _ = ray.wait(list(self._pending), num_returns=1)
            index = self._pending.pop(ref)
            chunk = ray.get(ref)
            played = chunk.num_games
            if step - chunk.version > self.max_policy_lag:
                self.stale_games += played
            else:
                chunks.append(chunk)
                games += played
            gathering = games < self.selfplay.games_per_iteration
            if more or gathering:
                self._pending[self._play(index, share, rng, iteration if gathering else iteration + 1)] = index
        return chunks

    def close(self) -> None:
        ray = self._ray
        for ref in self._pending:  # a cancelled task is not retried when its actor is killed next
            ray.cancel(ref)
        for actor in self.actors + self.servers:
            ray.kill(actor)
        if self._reservation is not None:
            ray.kill(self._reservation)
        if self._owns_runtime:
            ray.shutdown()

    # --- helpers ----------------------------------------------------------------------------
    def actor_pids(self) -> list[int]:
        return self._ray.get([actor.pid.remote() for actor in self.actors])

    def inference_stats(self) -> list[tuple[int, int]]:
        """(forward passes, positions) per inference actor so far."""
        return self._ray.get([server.stats.remote() for server in self.servers])

    def _publish(self, net: PolicyValueNet, step: int) -> None:
        if step == self._version:
            return
        self._box = [self._ray.put(cpu_weights(net))]
        self._version = step
        self._ray.get([server.load.remote(self._box, step) for server in self.servers])

    def _play(self, index: int, num_games: int, rng: np.random.Generator, iteration: int):
        seed, mix = int(rng.integers(2**63)), self.sizes.at(iteration)
        return self.actors[index].play.remote(self._box, self._version, num_games, seed, mix)


class SelfPlayActor:
    """A Ray actor around one :class:`SelfPlayWorker`."""

    def __init__(self, games, net, search, selfplay, index, device, server=None):
        estimator_for = (lambda game: RemoteEstimator(game, server)) if server is not None else None
        self.worker = SelfPlayWorker(games, net, search, selfplay, index, device, estimator_for)

    def play(self, box: list, version: int, num_games: int, seed: int, mix) -> Chunk:
        import ray

        return self.worker.play(lambda: ray.get(box[0]), version, num_games, seed, mix)

    def pid(self) -> int:
        return os.getpid()

    def node(self) -> str:
        import ray

        return ray.get_runtime_context().get_node_id()


class InferenceActor:
    """One network on one device serving forward passes to many self-play actors.

    An asynchronous actor: requests that arrive while a forward pass runs wait,
    and the first of them to be served takes all the waiting ones along: one
    forward pass per board size among them."""

    def __init__(self, game: Game, net: NetConfig, device: str):
        torch.set_num_threads(1)
        self.net = PolicyValueNet.for_game(game.info, net).to(device)
        self.estimator = NetEstimator(game, self.net, device)
        self.version = None
        self._queue: list = []

    async def load(self, box: list, version: int) -> None:
        if version != self.version:
            self.net.load_state_dict(await box[0])
            self.version = version

    async def forward(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        future = asyncio.get_running_loop().create_future()
        self._queue.append((obs, future))
        if len(self._queue) == 1:
            await asyncio.sleep(0)  # let the requests already delivered join this batch
            waiting, self._queue = self._queue, []
            for shape in dict.fromkeys(o.shape[1:] for o, _ in waiting):
                self._serve([(o, f) for o, f in waiting if o.shape[1:] == shape])
        return await future

    def _serve(self, batch: list) -> None:
        """One forward pass for requests of one observation shape."""
        try:
            logits, values = self.estimator.forward(np.concatenate([o for o, _ in batch]))
        except Exception as error:  # every waiting request hears of it
            for _, waiting in batch:
                waiting.set_exception(error)
        else:
            offset = 0
            for o, waiting in batch:
                waiting.set_result((logits[offset : offset + len(o)], values[offset : offset + len(o)]))
                offset += len(o)

    def stats(self) -> tuple[int, int]:
        return self.estimator.calls, self.estimator.positions


class RemoteEstimator(NetEstimator):
    """A :class:`NetEstimator` whose forward pass runs in an :class:`InferenceActor`.

    Observations and legal masks are computed here; only the stacked
    observations travel. It holds no network, so it skips NetEstimator's
    constructor (which checks one)."""

    def __init__(self, game: Game, server):
        self.game, self.server = game, server
        self.calls = self.positions = 0

    def forward(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        import ray

        self.calls += 1
        self.positions += len(obs)
        return ray.get(self.server.forward.remote(obs))


# --- starting and placing ---------------------------------------------------------------------
def _start(ray, config: RayConfig) -> None:
    """A local runtime (``address`` null), whose workers import this checkout (and
    reuse its compiled numba kernels), or a connection to a cluster, whose workers
    get this checkout's ``agents`` and ``envs`` packages shipped to them."""
    import agents
    import envs

    # ray.init installs its own SIGTERM handler; the run's (checkpoint, then stop) stays in charge
    handler = signal.getsignal(signal.SIGTERM)
    env_vars = {"OMP_NUM_THREADS": "1"}
    if config.address is None:
        env_vars["PYTHONPATH"] = os.pathsep.join(
            filter(None, [str(Path(agents.__file__).parents[1]), os.environ.get("PYTHONPATH")])
        )
        ray.init(
            num_cpus=config.num_cpus,
            include_dashboard=False,
            runtime_env={"env_vars": env_vars},
            logging_level="WARNING",
        )
    else:
        packages = [str(Path(agents.__file__).parent), str(Path(envs.__file__).parent)]
        ray.init(
            address=config.address, runtime_env={"py_modules": packages, "env_vars": env_vars}, logging_level="WARNING"
        )
    signal.signal(signal.SIGTERM, handler)


def _check_resources(config: RayConfig, actors: int, inference: int, server_gpus: float, resources: dict) -> None:
    """Refuse a placement the cluster cannot hold (Ray would wait for it forever)."""
    cpus = actors * config.cpus_per_actor + inference * config.cpus_per_inference_actor
    gpus = actors * config.gpus_per_actor + inference * server_gpus + config.gpus_per_learner
    have_cpus, have_gpus = resources.get("CPU", 0), resources.get("GPU", 0)
    if cpus > have_cpus:
        raise ValueError(
            f"distributed.actors={actors} x cpus_per_actor={config.cpus_per_actor} + inference_actors={inference} "
            f"x cpus_per_inference_actor={config.cpus_per_inference_actor} needs {cpus:g} CPUs; the Ray cluster has {have_cpus:g}"
        )
    if gpus > have_gpus:
        raise ValueError(
            f"distributed.gpus_per_actor / gpus_per_inference_actor / gpus_per_learner ask for {gpus:g} GPUs; "
            f"the Ray cluster has {have_gpus:g}"
        )


class _Reservation:
    """Holds the learner's GPU share on the driver's node so no actor is placed on it."""


def _reserve_learner(ray, gpus: float):
    if gpus <= 0:
        return None
    node = f"node:{ray.util.get_node_ip_address()}"
    return ray.remote(_Reservation).options(num_cpus=0, num_gpus=gpus, resources={node: 0.001}).remote()
