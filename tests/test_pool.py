"""agents.pool.WorkerPool: one setup per worker, jobs in order, the same results in-process and in processes."""

import os
import subprocess
import sys
import time

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
    import torch  # noqa: F401, F811  (imported before the pool's own start-up code, as a network's module would)


def torch_threads(state, job) -> int:
    import torch  # noqa: F811  (the worker imports it itself)

    return torch.get_num_threads()


def test_workers_run_torch_on_one_thread(monkeypatch):
    """Even when unpickling the setup imported torch before the worker's start-up code ran."""
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    with WorkerPool(2, torch_setup) as pool:
        assert pool.map(torch_threads, range(4)) == [1] * 4


def test_bad_worker_count():
    with pytest.raises(ValueError, match="workers must be an integer >= 0, got -1"):
        WorkerPool(-1, counter_setup, 0)


ORPHAN_SCRIPT = """
import time
from agents.pool import WorkerPool
from test_pool import counter_setup, spin

if __name__ == "__main__":
    pool = WorkerPool(2, counter_setup, 0)
    pids = set()
    while len(pids) < 2:
        pids.update(pool.map(spin, [0.2, 0.2]))
    pool.submit(spin, 600)  # one worker busy, the other waiting for a job
    print(*pids, flush=True)
    time.sleep(600)
"""


def spin(state: dict, seconds: float) -> int:
    """Busy for ``seconds``; the worker's pid."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
    return state["pid"]


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie nobody reaped counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
def test_closing_a_pool_ends_a_job_still_running():
    """A stopped run closes its pool mid-job: the busy worker ends at once, not when its
    (here ten-minute) job would have, and so does the idle one."""
    pool = WorkerPool(2, counter_setup, 0)
    pids: set[int] = set()
    while len(pids) < 2:
        pids.update(pool.map(spin, [0.2, 0.2]))
    future = pool.submit(spin, 600)
    time.sleep(0.5)  # the job has started
    started = time.monotonic()
    pool.close()
    assert time.monotonic() - started < 20
    assert not any(map(running, pids)), f"workers outlived their closed pool: {pids}"
    assert future.done()


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
def test_workers_end_when_their_parent_is_killed(tmp_path):
    """SIGKILL to the parent: its workers, one mid-job and one waiting, exit within seconds."""
    script = tmp_path / "parent.py"
    script.write_text(ORPHAN_SCRIPT)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, os.path.join(root, "tests")]))
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True, env=env, cwd=root)
    workers: list[int] = []
    try:
        workers = [int(pid) for pid in parent.stdout.readline().split()]
        assert len(workers) == 2 and all(map(running, workers))
        parent.kill()
        parent.wait()
        deadline = time.monotonic() + 20
        while any(map(running, workers)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(map(running, workers)), f"workers outlived their parent: {workers}"
    finally:
        parent.kill()
        for pid in workers:
            if running(pid):
                os.kill(pid, 9)
