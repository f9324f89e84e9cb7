"""Self-play throughput by backend and worker count, with and without overlapped learning.

    python benchmarks/bench_scaling.py [--games nex11 odoku] [--iterations 2] [--workers 1 2] [key=value ...]

For each game it runs, side by side in one process: worker processes
(``distributed=local``) and Ray actors on a local runtime
(``distributed=ray``, when Ray is installed), 1 and 2 of each (and with
``--main-process`` self-play in the main process, ``workers=0``), in three
modes:

* ``self-play``: games only, no learner (the feed's raw throughput);
* ``turns``: the learner takes the iteration's steps after its games
  (``agent.selfplay.max_policy_lag=0``);
* ``overlap``: the workers play the next iteration's games while the learner
  steps (policy lag = steps per iteration).

Games and learner steps per iteration are per worker: a row with W workers
plays W times the games of the game's overrides per iteration (each worker
the same share, with the same games in flight) and takes W times the learner
steps, so the ratio to one worker is what more cores add.
Each row is the steady state: each backend and worker count starts one feed
(the training loop's own, :func:`make_feed`) and plays one warm-up iteration
(process start, numba compilation, weights shipped); each mode then plays
``--iterations`` timed iterations of the loop's own pieces (the feed, the
replay buffer, the learner), ``overlap`` after one untimed iteration that
hands out the first games played during learning.
Every row runs once per ``--inference`` backend (torch, then ONNX Runtime, by
default). Columns: positions/s over the timed wall time, its ratio to the same mode's
1-worker row of the same backend, the ratio of Ray to worker processes at the
same count, the ratio of the row's inference backend to the first one, and the CPU the run's processes used (driver + workers, from
``/proc``; 100% = one core). A second table gives the network's forward-pass
time by batch size on this machine's CPU (the inference batch costs of
docs/scaling.md's projection), and the machine's own ceiling: forward passes
alone (at the rows' batch, the games in flight of one worker), in one process
and in two processes at once. Two processes that share nothing but the
hardware can go no faster than that ratio, so a row's 1-to-2 ratio below it is
the machine, and below it by more is the code. Nothing here is a test.
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import os
import time
from pathlib import Path

import numpy as np
import torch
from hydra import compose, initialize_config_dir

from agents.evaluation.figure_records import SpeedRecords, add_record_option
from agents.net.inference import ENVIRONMENT, set_default_backend
from agents.net.net_estimator import NetEstimator
from agents.net.network import PolicyValueNet
from agents.training.learner import Learner
from agents.training.loop import make_feed
from agents.training.replay import SizedReplay
from agents.training.settings import build_settings

CONFIGS = Path(__file__).resolve().parents[1] / "configs"
GAMES = {  # the Hydra overrides of each game's rows
    "nex11": [
        "experiment=none",
        "game=nex",
        "agent.selfplay.games_per_iteration=8",
        "agent.selfplay.concurrent_games=8",
        "agent.learner.steps_per_iteration=20",
    ],
    # the default recipe at an eighth of its games and learner steps per iteration
    "odoku": [
        "experiment=odoku",
        "agent.selfplay.games_per_iteration=8",
        "agent.selfplay.concurrent_games=8",
        "agent.learner.steps_per_iteration=25",
    ],
}
MODES = ("self-play", "turns", "overlap")
CEILING_REPEATS = 3


def settings(overrides, backend: str, workers: int):
    extra = [
        "device=cpu",
        "eval.every=0",
        "train.torch_threads=1",
        f"distributed={'ray' if backend == 'ray' else 'local'}",
    ]
    if backend == "ray":
        extra += [f"distributed.actors={workers}", "distributed.inference_actors=0"]
    else:
        extra.append(f"agent.selfplay.workers={workers}")
    with initialize_config_dir(config_dir=str(CONFIGS), version_base="1.3"):
        s = build_settings(compose("train", overrides=[*overrides, *extra]))
    # Each worker gets the games (and the iteration the learner steps) of one: split over
    # more workers, a fixed number of games would shrink every worker's batch of games in
    # flight, and the ratio would measure smaller network batches, not a second core.
    scale = max(workers, 1)
    selfplay = dataclasses.replace(s.selfplay, games_per_iteration=s.selfplay.games_per_iteration * scale)
    learner = dataclasses.replace(s.learner, min_replay=1, steps_per_iteration=s.learner.steps_per_iteration * scale)
    return dataclasses.replace(s, selfplay=selfplay, learner=learner)


def measure(s, modes, iterations: int) -> dict[str, tuple[float, float]]:
    """Steady-state positions/s and CPU share (1.0 = one core) of ``iterations`` loop
    iterations in each mode, on one feed (started and warmed up once)."""
    torch.manual_seed(s.seed)
    rng = np.random.default_rng(s.seed)
    net = PolicyValueNet.for_game(s.game.info, s.net)
    learner = Learner(net, s.learner, s.device)
    replay = SizedReplay(
        s.learner.replay_capacity, {size: (g.info.obs_shape, g.info.num_actions) for size, g in s.games.items()}
    )
    symmetries = {size: g.symmetries() for size, g in s.games.items()}
    feed = make_feed(s, {size: NetEstimator(g, net) for size, g in s.games.items()})
    step = 0

    def iteration(steps: int) -> int:
        nonlocal step
        chunks = feed.collect(net, step, rng, 1, True)
        for chunk in chunks:
            for size, batch in chunk.batches.items():
                replay.add(size, batch.obs, batch.policy, batch.value)
        for _ in range(steps):
            learner.step(*replay.sample(s.learner.batch_size, rng, symmetries))
            step += 1
        return sum(chunk.num_positions for chunk in chunks)

    results = {}
    try:
        iteration(0)  # warm-up: processes started, kernels compiled, weights shipped
        pids = [os.getpid(), *worker_pids(feed)]
        for mode in modes:
            feed.overlap = mode == "overlap" and feed.workers > 0
            steps = 0 if mode == "self-play" else s.learner.steps_per_iteration
            if feed.overlap:
                iteration(steps)  # hands out the first games that play during learning
            cpu_before, started = cpu_seconds(pids), time.perf_counter()
            positions = sum(iteration(steps) for _ in range(iterations))
            wall = time.perf_counter() - started
            results[mode] = positions / wall, (cpu_seconds(pids) - cpu_before) / wall
    finally:
        feed.close()
    return results


def worker_pids(feed) -> list[int]:
    if hasattr(feed, "actor_pids"):
        return feed.actor_pids()
    executor = getattr(getattr(feed, "_pool", None), "_executor", None)
    return list(executor._processes) if executor is not None else []


def cpu_seconds(pids) -> float:
    """User + system CPU seconds of the processes (Linux /proc), 0 for any that ended."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def forward_costs(s, sizes=(1, 8, 32, 128, 512), repeats=20) -> list[tuple[int, float]]:
    """Milliseconds per forward pass of the game's network at each batch size (CPU, one thread)."""
    net = PolicyValueNet.for_game(s.game.info, s.net).eval()
    rows = []
    for size in sizes:
        obs = torch.zeros((size, *s.game.info.obs_shape))
        with torch.inference_mode():
            net(obs)
            started = time.perf_counter()
            for _ in range(repeats):
                net(obs)
        rows.append((size, (time.perf_counter() - started) / repeats * 1000))
    return rows


def learner_step_ms(s, repeats=10) -> float:
    """Milliseconds per learner step at the configured batch size (CPU, one thread)."""
    info = s.game.info
    net = PolicyValueNet.for_game(info, s.net)
    learner = Learner(net, s.learner, torch.device("cpu"))
    rng = np.random.default_rng(0)
    obs = rng.random((s.learner.batch_size, *info.obs_shape), dtype=np.float32)
    policy = np.full((s.learner.batch_size, info.num_actions), 1 / info.num_actions, dtype=np.float32)
    value = np.zeros(s.learner.batch_size, dtype=np.float32)
    learner.step(obs, policy, value)
    started = time.perf_counter()
    for _ in range(repeats):
        learner.step(obs, policy, value)
    return (time.perf_counter() - started) / repeats * 1000


def _forward_loop(info, net_config, batch: int, seconds: float, start, counts, index: int) -> None:
    """Forward passes of batch ``batch`` for ``seconds`` after ``start`` opens; the count into ``counts[index]``."""
    torch.set_num_threads(1)
    net = PolicyValueNet.for_game(info, net_config).eval()
    obs = torch.zeros((batch, *info.obs_shape))
    with torch.inference_mode():
        net(obs)
        start.wait()
        done, stop = 0, time.perf_counter() + seconds
        while time.perf_counter() < stop:
            net(obs)
            done += 1
    counts[index] = done


def parallel_ceiling(s, processes: int, seconds: float = 10.0) -> float:
    """Forward passes per second of ``processes`` processes running them at once."""
    context = multiprocessing.get_context("spawn")
    start, counts = context.Event(), context.Array("l", processes)
    batch = s.selfplay.concurrent_games
    jobs = [
        context.Process(target=_forward_loop, args=(s.game.info, s.net, batch, seconds, start, counts, i))
        for i in range(processes)
    ]
    for job in jobs:
        job.start()
    time.sleep(5.0)  # every process imported torch and built its network
    start.set()
    for job in jobs:
        job.join()
    return sum(counts) / seconds


def print_costs(s, name: str, records: SpeedRecords) -> None:
    """What docs/scaling.md's projection takes from this machine besides the rates."""
    info = s.game.info
    weights = sum(p.numel() for p in PolicyValueNet.for_game(info, s.net).state_dict().values()) * 4
    position = (int(np.prod(info.obs_shape)) + info.num_actions + 1) * 4
    print(
        "  forward pass (ms) by batch size, CPU, 1 thread: "
        + ", ".join(f"{size}: {ms:.2f}" for size, ms in forward_costs(s))
    )
    print(
        f"  learner step, batch {s.learner.batch_size}, CPU, 1 thread: {learner_step_ms(s):.1f} ms; "
        f"weights {weights / 1e3:.0f} kB; one position's targets {position} B",
        flush=True,
    )
    rates = {1: [], 2: []}
    for _ in range(CEILING_REPEATS):  # alternating, so a slow spell of the machine hits both
        for processes in rates:
            rates[processes].append(parallel_ceiling(s, processes))
    span = {n: f"{min(r):.0f}-{max(r):.0f}/s" for n, r in rates.items()}
    print(
        f"  machine ceiling, forward passes alone (batch {s.selfplay.concurrent_games}, {CEILING_REPEATS} alternating "
        f"runs of 10 s): 1 process {span[1]}, 2 processes at once {span[2]}, x{sum(rates[2]) / sum(rates[1]):.2f}\n",
        flush=True,
    )
    records.add(
        f"{name} network forward passes, 2 processes at once",
        "forward passes/s",
        "1 process",
        sum(rates[2]) / sum(rates[1]),
        note=f"batch {s.selfplay.concurrent_games}, {CEILING_REPEATS} runs of 10 s each",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--iterations", type=int, default=2, help="timed iterations per row")
    parser.add_argument("--workers", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--modes", nargs="+", default=list(MODES), choices=MODES)
    parser.add_argument("--no-ray", action="store_true", help="skip the Ray rows")
    parser.add_argument("--main-process", action="store_true", help="add a row for self-play in the main process")
    parser.add_argument("--costs", action="store_true", help="only the forward-pass and learner costs (no rows)")
    parser.add_argument(
        "--inference",
        nargs="+",
        default=["torch", "onnx"],
        choices=["torch", "onnx"],
        help="inference backends (agents/net/inference.py), each row once per backend; the first is the reference",
    )
    add_record_option(parser)
    parser.add_argument("overrides", nargs="*", help="Hydra overrides for every game, after its own")
    args = parser.parse_args()
    records = SpeedRecords(args.record)
    torch.set_num_threads(1)
    backends = ["local"]
    if not args.no_ray and not args.costs:
        try:
            import ray  # noqa: F401

            backends.append("ray")
        except ImportError:
            print("ray is not installed: no Ray rows (pip install -e '.[ray]')")
    print(
        f"machine: {os.cpu_count()} CPUs visible, {len(os.sched_getaffinity(0))} usable; torch threads 1; "
        f"timed iterations per row {args.iterations}\n"
    )
    for name in args.games:
        overrides = [*GAMES[name], *args.overrides]
        base = settings(overrides, "local", 0)
        print(
            f"== {name}: {' '.join(overrides)}  (games/iteration per worker {base.selfplay.games_per_iteration}, "
            f"learner steps/iteration per worker {base.learner.steps_per_iteration}, simulations {base.search.num_simulations})"
        )
        if args.costs:
            print_costs(base, name, records)
            continue
        results = {}
        rows = [("in-process", 0, ("turns",))] if args.main_process else []
        rows += [(b, w, args.modes) for b in backends for w in args.workers]
        for inference, (backend, workers, modes) in [(i, row) for row in rows for i in args.inference]:
            set_default_backend(inference)  # worker processes inherit it
            if backend == "ray":  # a runtime per row: one row's killed actors must not slow the next
                env_vars = {"OMP_NUM_THREADS": "1", "PYTHONPATH": str(CONFIGS.parent), ENVIRONMENT: inference}
                ray.init(
                    num_cpus=max(args.workers),
                    include_dashboard=False,
                    logging_level="WARNING",
                    runtime_env={"env_vars": env_vars},
                )
            try:
                measured = measure(
                    settings(overrides, "local" if backend == "in-process" else backend, workers),
                    modes,
                    args.iterations,
                )
            finally:
                if backend == "ray":
                    ray.shutdown()
            for mode, (rate, cpu) in measured.items():
                results[inference, backend, workers, mode] = rate
                one = results.get((inference, backend, min(args.workers), mode))
                peer = results.get((inference, "local", workers, mode)) if backend == "ray" else None
                reference = args.inference[0]
                old = results.get((reference, backend, workers, mode)) if inference != reference else None
                label = {"in-process": "main process", "local": "worker processes", "ray": "Ray actors"}[backend]
                versus = f"x{rate / one:5.2f} vs 1" if one and workers else " " * 10
                subject = f"{name} {mode} ({inference}), {workers} {label}"
                if one and workers and workers != min(args.workers):
                    records.add(subject, "positions/s", f"{min(args.workers)} {label}", rate / one)
                if peer:
                    records.add(subject, "positions/s", f"{workers} worker processes", rate / peer)
                if old:
                    records.add(subject, "positions/s", f"{workers} {label} ({reference})", rate / old)
                print(
                    f"  {label:<17} {workers:>2}  {inference:<5}  {mode:<9}  {rate:8.1f} pos/s  {versus}  "
                    f"{'ray/local x%.2f' % (rate / peer) if peer else '':<15}  "
                    f"{'%s/%s x%.2f' % (inference, reference, rate / old) if old else '':<17}  CPU {cpu * 100:4.0f}%",
                    flush=True,
                )
        print_costs(base, name, records)
    records.write()


if __name__ == "__main__":
    main()
