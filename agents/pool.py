"""The one worker pool: processes spawned once and reused, each holding state its setup built.

Self-play (:mod:`agents.training.selfplay`) and batches of games between player
specs (:func:`agents.evaluation.runner.play_games`) both run on it::

    with WorkerPool(workers, setup, *setup_args) as pool:   # workers=0: this process
        results = pool.map(task, jobs)                       # task(state, job), in order
        future = pool.submit(task, job)                      # future.result()

Each worker process calls ``setup(*setup_args)`` once and keeps what it returns
(its game, players, network copy ...); every job then runs as ``task(state,
job)``. ``setup`` and ``task`` must be module-level functions (they are pickled
by name). Processes start with ``spawn`` (safe with torch and threads, unlike
``fork``) and with ``OMP_NUM_THREADS=1`` unless already set: W workers each
using every core's threads would oversubscribe the CPU. With ``workers=0`` the
setup runs once in the calling process and jobs run there, one after another.

After :func:`use_ray` (``evaluate.py ray=true``) the workers of every pool this
process opens are Ray actors instead, on a local runtime or a cluster, each with
one CPU; ``map`` gives the same results in the same order (``submit``, which only
training's pools use, stays on processes).
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import sys
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, Callable, Iterable

from tqdm import tqdm

_STATE: list = []  # in a worker process: what its pool's setup returned
_RAY: dict = {}  # set by use_ray(): where this process's pools put their workers
# passed to Ray actors, which a cluster's nodes start without this process's environment
_INHERITED = ("NEUZERO_INFERENCE",)


def use_ray(address: str | None = None) -> int:
    """Put the workers of every pool this process opens from now on on Ray actors: a local
    runtime (``address=None``), this machine's cluster (``"auto"``) or ``"HOST:PORT"``.
    Returns the runtime's CPU count."""
    try:
        import ray
    except ImportError:
        raise ValueError('ray=true needs Ray: pip install -e ".[ray]"') from None
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    _RAY["ray"] = ray
    return int(ray.cluster_resources().get("CPU", 0))


class WorkerPool:
    """``workers`` processes (0: the calling process), each with ``setup(*setup_args)``'s state."""

    def __init__(self, workers: int, setup: Callable[..., Any], *setup_args: Any):
        if not isinstance(workers, int) or workers < 0:
            raise ValueError(f"workers must be an integer >= 0, got {workers!r}")
        self.workers = workers
        self._state = None
        self._executor = None
        self._actors = []
        if workers == 0:
            self._state = setup(*setup_args)
        elif _RAY:
            ray = _RAY["ray"]
            environment = {key: os.environ[key] for key in _INHERITED if key in os.environ}
            actor = ray.remote(num_cpus=1)(_RayWorker)
            self._actors = [actor.remote(setup, setup_args, environment) for _ in range(workers)]
        else:
            self._executor = ProcessPoolExecutor(
                workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start,
                initargs=(setup, setup_args),
            )

    def submit(self, task: Callable[[Any, Any], Any], job: Any) -> Future:
        """Run ``task(state, job)`` on a worker (or here, at once); its result comes from the future."""
        if self._actors:
            raise NotImplementedError("submit runs on worker processes; Ray pools take jobs through map")
        if self._executor is not None:
            return self._executor.submit(_run, task, job)
        future: Future = Future()
        future.set_result(task(self._state, job))
        return future

    def map(
        self,
        task: Callable[[Any, Any], Any],
        jobs: Iterable[Any],
        progress: str = "",
        count: Callable[[Any], int] | None = None,
        each: Callable[[int, Any], None] | None = None,
    ) -> list:
        """``[task(state, job) for job in jobs]`` over the workers, in order; ``progress="game"``
        shows a progress bar counting games: one per job, or ``count(job)`` per job; ``each(k,
        result)`` is called with job ``k``'s result as soon as it and those before it are done, so
        a caller can save results as they come and a run stopped later keeps them."""
        jobs = list(jobs)
        sizes = [count(job) if count else 1 for job in jobs]
        if self._actors:
            from ray.util import ActorPool

            results = ActorPool(self._actors).map(lambda actor, job: actor.run.remote(task, job), jobs)
        elif self._executor is None:
            results = (task(self._state, job) for job in jobs)
        else:
            # jobs go out in chunks (fewer round trips), one at a time when each result is saved
            chunk = 1 if each is not None else max(1, len(jobs) // (8 * self.workers))
            results = self._executor.map(_run, [task] * len(jobs), jobs, chunksize=chunk)
        out = []
        with tqdm(total=sum(sizes), disable=not progress, desc=f"{progress}s", unit=progress) as bar:
            for number, (result, size) in enumerate(zip(results, sizes)):
                out.append(result)
                if each is not None:
                    each(number, result)
                bar.update(size)
        return out

    def close(self) -> None:
        """End the workers. A job still running (a stopped run's self-play share, hours of
        games on a large board) has nothing to keep, so its process is ended, not waited for."""
        if self._executor is not None:
            # the executor's own processes; Python 3.14's terminate_workers() does the same
            for process in list((getattr(self._executor, "_processes", None) or {}).values()):
                process.terminate()
            self._executor.shutdown(cancel_futures=True)
        for actor in self._actors:
            _RAY["ray"].kill(actor)
        self._actors = []

    def __enter__(self) -> "WorkerPool":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _start(setup: Callable[..., Any], setup_args: tuple) -> None:
    threading.Thread(target=_exit_with_parent, daemon=True).start()
    _one_thread()
    _STATE[:] = [setup(*setup_args)]


class _RayWorker:
    """A pool's worker as a Ray actor: ``setup``'s state, then ``task(state, job)`` per job."""

    def __init__(self, setup: Callable[..., Any], setup_args: tuple, environment: dict):
        os.environ.update(environment)
        _one_thread()
        self.state = setup(*setup_args)

    def run(self, task: Callable[[Any, Any], Any], job: Any) -> Any:
        return task(self.state, job)


def _one_thread() -> None:
    threads = os.environ.setdefault("OMP_NUM_THREADS", "1")
    # Unpickling the setup and its arguments ran before this and may have imported torch,
    # which then read its thread count already: set it as well (batch-1 convolutions in
    # W processes with a thread per core each run several times slower).
    torch = sys.modules.get("torch")
    if torch is not None and threads.isdigit():
        torch.set_num_threads(int(threads))


def _exit_with_parent() -> None:
    """End this worker when the process that started it ends. A parent killed outright
    (SIGKILL, the OOM killer) cannot shut its pool down, and its workers would go on
    playing, or wait for jobs, unseen."""
    parent = multiprocessing.parent_process()
    if parent is not None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(1)


def _run(task: Callable[[Any, Any], Any], job: Any) -> Any:
    return task(_STATE[0], job)
