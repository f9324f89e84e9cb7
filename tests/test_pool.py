"""agents.pool.WorkerPool: one setup per worker, jobs in order, the same results in-process and in processes."""

import os

import pytest
import torch  # noqa: F401  (a worker unpickling this module's functions imports torch first)

from agents.pool import WorkerPool


def counter_setup(start: int) -> dict:
    return {"start": start, "pid": os.getpid(), "jobs": 0}


def count(state: dict, job: int) -> tuple[int, int, int]:
    state["jobs"] += 1  # kept between jobs: the setup ran once per worker
    return state["start"] + job, state["pid"], state["jobs"]


@pytest.mark.parametrize("workers", [0, 2])
def test_map_and_submit_keep_order_and_state(workers):
    with WorkerPool(workers, counter_setup, 100) as pool:
        results = pool.map(count, range(20))
        assert [value for value, _, _ in results] == list(range(100, 120))
        pids = {pid for _, pid, _ in results}
        assert (pids == {os.getpid()}) if workers == 0 else (os.getpid() not in pids and len(pids) <= 2)
        per_worker = {pid: max(n for _, p, n in results if p == pid) for pid in pids}
        assert sum(per_worker.values()) == 20  # each worker counted its own jobs from one setup
        assert pool.submit(count, 5).result()[0] == 105


def torch_setup() -> None:
    import torch  # noqa: F401  (imported before the pool's own start-up code, as a network's module would)


def torch_threads(state, job) -> int:
    import torch

    return torch.get_num_threads()


def test_workers_run_torch_on_one_thread(monkeypatch):
    """Even when unpickling the setup imported torch before the worker's start-up code ran."""
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    with WorkerPool(2, torch_setup) as pool:
        assert pool.map(torch_threads, range(4)) == [1] * 4


def test_bad_worker_count():
    with pytest.raises(ValueError, match="workers must be an integer >= 0, got -1"):
        WorkerPool(-1, counter_setup, 0)
