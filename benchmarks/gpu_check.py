"""The CUDA path, checked on a machine with a GPU: training, losses against the CPU, self-play speed.

    python benchmarks/gpu_check.py [--games 16] [--in-flight 16,256] [--workers N] [--served-games 64] [--size 11]
        [--learner-steps 100]

1. Trains ``experiment=smoke`` with ``device=cuda`` end to end (self-play,
   learner, evaluation, checkpoint) in a temporary directory.
2. Takes the same learner steps on the same batches on the CPU and on CUDA
   from the same initial weights and prints the losses side by side; they
   must agree to 1e-3 (float32 kernels differ only in rounding).
3. Measures self-play positions/s at Nex 11 (``--size``) with ``net=medium`` on CUDA and on
   the CPU (one thread), each through both inference backends
   (``agents/net/inference.py``: torch, and ONNX Runtime where its provider for
   that device is installed, ``onnxruntime-gpu`` for CUDA), and the forward-pass
   time by batch size on each: which backend ``device=cuda`` should use. The CPU
   plays ``--games`` games with as many in flight; CUDA plays, for each count of
   ``--in-flight``, that many games all in flight (one process, one network call
   per simulation wave), and reports its positions/s against one CPU core's (the
   faster CPU backend) and the GPU's busy share: the seconds inside forward passes
   (each ends by copying the result back, so it waits for the GPU) over the
   self-play's wall time. Issue 68's target: 20x one CPU core, the GPU busy 50%.
   The forward-pass table is what ``benchmarks/bench_selfplay.py --stand-in-ms``
   takes to replay this device's latency on a CPU machine.
4. Self-play through one inference server on CUDA fed by ``--workers`` processes
   (``agent.selfplay.inference_server``; default: the usable cores but one, which the
   server and the learner keep): ``--served-games`` games of the same settings, each
   worker's share all in flight, after a warm-up game per worker; positions/s against
   one CPU core's (check 3's) and the server's busy share (its seconds inside forward
   passes over the wall time), with the same targets.
5. Times learner steps/s on CUDA and on one CPU thread for the Odoku recipe's
   network and batch and for Nex 11's medium network (docs/scaling.md asks
   whether a GPU learner keeps up with 15 self-play actors: 78 steps/s).

``--checks`` runs a subset (``smoke,losses,selfplay,served,learner``; all by default).

Where no CUDA device exists it says so and falls back to the CPU: every check runs
there (the losses check has nothing to compare and is skipped), which shows the
script works end to end, and nothing is recorded, as the figures are not a GPU's.
Exits with status 1 when a check fails. Nothing here runs in the test suite.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch
from bench_selfplay import served_rates  # benchmarks/ is this script's folder
from hydra import compose, initialize_config_dir

from agents.evaluation.figure_records import SpeedRecords, add_record_option
from agents.net.net_estimator import NetEstimator
from agents.net.network import PolicyValueNet
from agents.search.mcts import MCTS
from agents.training.learner import Learner
from agents.training.loop import train
from agents.training.selfplay import self_play
from agents.training.settings import build_settings
from agents.training.workers import available_cores

CONFIGS = Path(__file__).resolve().parents[1] / "configs"


def compose_train(overrides):
    with initialize_config_dir(config_dir=str(CONFIGS), version_base="1.3"):
        return compose("train", overrides=list(overrides))


def smoke_on(device: str) -> None:
    with tempfile.TemporaryDirectory() as directory:
        overrides = ["experiment=smoke", f"device={device}"]
        result = train(compose_train(overrides), directory, overrides)
        print(
            f"1. experiment=smoke on {device}: {result.iteration} iterations, {result.step} learner steps, "
            f"checkpoint {Path(result.checkpoint).name}, losses {result.losses[-1]}"
        )


def losses_match(steps: int = 5) -> bool:
    s = build_settings(compose_train(["experiment=smoke", "device=cpu"]))
    rng = np.random.default_rng(0)
    torch.manual_seed(0)
    cpu_net = PolicyValueNet.for_game(s.game.info, s.net)
    batch = self_play(s.game, MCTS(s.game, s.search), NetEstimator(s.game, cpu_net), 4, s.selfplay, rng)
    cuda_net = PolicyValueNet.for_game(s.game.info, s.net)
    cuda_net.load_state_dict(cpu_net.state_dict())
    cuda_net.to("cuda")
    learners = {
        "cpu": Learner(cpu_net, s.learner, torch.device("cpu")),
        "cuda": Learner(cuda_net, s.learner, torch.device("cuda")),
    }
    worst = 0.0
    print("2. the same learner steps on the CPU and on CUDA (loss/total):")
    for step in range(steps):
        index = rng.integers(batch.num_positions, size=s.learner.batch_size)
        sample = (batch.obs[index], batch.policy[index], batch.value[index])
        losses = {device: learner.step(*sample)["loss/total"] for device, learner in learners.items()}
        worst = max(worst, abs(losses["cpu"] - losses["cuda"]))
        print(f"   step {step + 1}: cpu {losses['cpu']:.6f}  cuda {losses['cuda']:.6f}")
    print(f"   largest difference {worst:.2e} (must be below 1e-3)")
    return worst < 1e-3


def selfplay_speed(num_games: int, in_flight: list[int], records: SpeedRecords, device: str, size: int) -> float:
    """Check 3; returns one CPU core's positions/s (the faster CPU backend)."""
    torch.set_num_threads(1)
    rates, tables = {}, {}
    runs = [("device", backend, in_flight) for backend in inference_paths(device)]
    runs += [("core", backend, [num_games]) for backend in inference_paths("cpu")]
    for role, backend, counts in runs:
        where = device if role == "device" else "cpu"
        for count in counts:
            s = nex_medium(count, size)
            torch.manual_seed(0)
            net = PolicyValueNet.for_game(s.game.info, s.net).to(where)
            estimator = NetEstimator(s.game, net, where, backend)
            mcts, rng = MCTS(s.game, s.search), np.random.default_rng(0)
            self_play(s.game, mcts, estimator, 1, s.selfplay, rng)  # warm-up: kernels, allocator
            estimator.seconds = 0.0
            started = time.perf_counter()
            batch = self_play(s.game, mcts, estimator, count, s.selfplay, rng)
            seconds = time.perf_counter() - started
            busy = estimator.seconds / seconds
            rates[role, backend, count] = batch.num_positions / seconds, busy
            if (where, backend) not in tables:
                tables[where, backend] = forward_table(estimator, s.game.info.obs_shape, where)
            print(
                f"   {where:<4} {backend:<5} {count:>4} in flight: {batch.num_positions / seconds:8.1f} positions/s "
                f"({batch.num_positions} positions, {seconds:.1f} s), forward passes {100 * busy:.1f}% of the time"
            )
    print(f"3. self-play at Nex {size}, net=medium, {s.search.num_simulations} simulations, one process (above);")
    print("   forward pass by batch size, ms a call:")
    for (where, backend), table in tables.items():
        print(f"   {where:<4} {backend:<5}: " + ", ".join(f"{size}: {ms:.2f}" for size, ms in table.items()))
    cpu = {b: rates["core", b, num_games][0] for b in inference_paths("cpu")}
    core, core_rate = max(cpu.items(), key=lambda item: item[1])
    for (role, backend, count), (rate, busy) in rates.items():
        if role != "device":
            continue
        print(
            f"   {device} {backend} {count} in flight: {rate / core_rate:.1f}x one CPU core ({core}), "
            f"{device} busy {100 * busy:.1f}% (target 20x and 50%: {met(rate / core_rate, busy)})"
        )
        subject = f"nex {size} net=medium self-play, {device} {backend}, {count} games in flight"
        for cpu_backend, cpu_rate in cpu.items():
            records.add(
                subject,
                "positions/s",
                f"cpu {cpu_backend}, one thread",
                rate / cpu_rate,
                note=f"{rate:.1f} vs {cpu_rate:.1f} positions/s; target 20x",
            )
        records.add(
            subject,
            "GPU busy share",
            "",
            busy,
            note="seconds in forward passes over wall time; target 50%",
            unit="share",
        )
    return core_rate


def met(ratio: float, busy: float) -> str:
    return "met" if ratio >= 20 and busy >= 0.5 else "not met"


def served_speed(
    workers: int, num_games: int, core_rate: float | None, records: SpeedRecords, device: str, size: int
) -> None:
    """Check 4: item 2's path, worker processes feeding one inference server on ``device``."""
    per_worker = -(-num_games // workers)
    s = dataclasses.replace(nex_medium(per_worker, size), device=torch.device(device))
    torch.manual_seed(0)
    net = PolicyValueNet.for_game(s.game.info, s.net).to(device)
    row = served_rates(s, net, "auto", workers, num_games)
    rate, busy = row["positions/s"], row["busy"]
    print(
        f"4. self-play through one inference server on {device}, {workers} worker process(es), "
        f"{per_worker} games in flight each: {rate:.1f} positions/s, mean batch {row['mean batch']:.1f}, "
        f"server busy {100 * busy:.1f}%"
    )
    if core_rate is None:
        print("   (against one CPU core: run check 3, selfplay, too)")
        return
    print(
        f"   {rate / core_rate:.1f}x one CPU core, busy {100 * busy:.1f}% (target 20x and 50%: {met(rate / core_rate, busy)})"
    )
    subject = f"nex {size} net=medium self-play, {workers} workers through one inference server on {device}"
    records.add(
        subject,
        "positions/s",
        "one CPU core",
        rate / core_rate,
        note=f"{rate:.1f} vs {core_rate:.1f} positions/s, {num_games} games; target 20x",
    )
    records.add(
        subject,
        "GPU busy share",
        "",
        busy,
        note="the server's seconds in forward passes over wall time; target 50%",
        unit="share",
    )


def nex_medium(games: int, size: int):
    """gpu_check's self-play settings: Nex at ``size``, net=medium, ``games`` games all in flight."""
    return build_settings(
        compose_train(
            [
                "experiment=none",
                "game=nex",
                f"game.size={size}",
                "net=medium",
                "device=cpu",
                f"agent.selfplay.games_per_iteration={games}",
                f"agent.selfplay.concurrent_games={games}",
            ]
        )
    )


def forward_table(estimator, obs_shape, device: str) -> dict[int, float]:
    """Milliseconds a forward pass by batch size (the mean of 10 after one warm-up call)."""
    table = {}
    for size in (1, 32, 256, 1024):
        obs = np.zeros((size, *obs_shape), dtype=np.float32)
        estimator.forward(obs)
        if device == "cuda":
            torch.cuda.synchronize()
        started = time.perf_counter()
        for _ in range(10):
            estimator.forward(obs)
        table[size] = (time.perf_counter() - started) * 100
    return table


def learner_rate(records: SpeedRecords, device: str, steps: int = 100) -> None:
    print(
        f"5. learner steps/s ({steps} timed steps after {min(steps, 10)} warm-up steps, one torch thread on the CPU):"
    )
    torch.set_num_threads(1)
    for label, overrides in (
        ("odoku recipe", ["experiment=odoku"]),
        ("nex 11, net=medium", ["experiment=none", "game=nex", "net=medium"]),
    ):
        s = build_settings(compose_train([*overrides, "device=cpu"]))
        rng = np.random.default_rng(0)
        batch = s.learner.batch_size
        obs = rng.random((batch, *s.game.info.obs_shape), dtype=np.float32)
        policy = rng.dirichlet(np.ones(s.game.info.num_actions), size=batch).astype(np.float32)
        torch.manual_seed(0)
        net = PolicyValueNet.for_game(s.game.info, s.net)
        with torch.no_grad():
            value = np.clip(net(torch.from_numpy(obs[:1]))[1].numpy(), -1, 1)
        value = np.repeat(value, batch, axis=0).astype(np.float32)
        rates = []
        for where in (device, "cpu"):
            learner = Learner(PolicyValueNet.for_game(s.game.info, s.net).to(where), s.learner, torch.device(where))
            for _ in range(min(steps, 10)):
                learner.step(obs, policy, value)
            if where == "cuda":
                torch.cuda.synchronize()
            started = time.perf_counter()
            for _ in range(steps):
                learner.step(obs, policy, value)
            if where == "cuda":
                torch.cuda.synchronize()
            rates.append(steps / (time.perf_counter() - started))
        print(
            f"   {label:<20} batch {batch}: {device} {rates[0]:8.1f} steps/s, cpu {rates[1]:7.1f} steps/s, "
            f"{rates[0] / rates[1]:.1f}x"
        )
        records.add(
            f"{label} learner on {device}, batch {batch}",
            "learner steps/s",
            "cpu, one torch thread",
            rates[0] / rates[1],
            note=f"{rates[0]:.1f} vs {rates[1]:.1f} steps/s",
        )


CHECKS = ("smoke", "losses", "selfplay", "served", "learner")


def inference_paths(device: str) -> list[str]:
    """The backends this machine can run on ``device``: torch, and ONNX Runtime where it has
    the device's execution provider."""
    try:
        import onnxruntime

        providers = onnxruntime.get_available_providers()
    except ImportError:
        providers = []
    provider = "CUDAExecutionProvider" if device == "cuda" else "CPUExecutionProvider"
    if provider in providers:
        return ["torch", "onnx"]
    if device == "cuda":
        print("   (ONNX Runtime on CUDA not measured: no CUDAExecutionProvider; pip install onnxruntime-gpu)")
    return ["torch"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=16, help="Nex self-play games to time on the CPU")
    parser.add_argument(
        "--size", type=int, default=11, help="Nex's board for checks 3 and 4 (a small one for a quick CPU fallback)"
    )
    parser.add_argument(
        "--in-flight", default="16,256", help="comma-separated games in flight (and games timed) on CUDA"
    )
    parser.add_argument(
        "--workers", type=int, default=max(1, available_cores() - 1), help="worker processes of check 4 (served)"
    )
    parser.add_argument("--learner-steps", type=int, default=100, help="learner steps timed per device in check 5")
    parser.add_argument("--served-games", type=int, default=64, help="self-play games of check 4 (served)")
    parser.add_argument("--checks", default=",".join(CHECKS), help=f"comma-separated subset of {', '.join(CHECKS)}")
    add_record_option(parser)
    args = parser.parse_args()
    records = SpeedRecords(args.record)
    checks = args.checks.split(",")
    unknown = sorted(set(checks) - set(CHECKS))
    if unknown:
        parser.error(f"--checks: unknown {', '.join(unknown)}; choose from {', '.join(CHECKS)}")
    try:
        in_flight = [int(n) for n in args.in_flight.split(",")]
    except ValueError:
        in_flight = []
    if not in_flight or min(in_flight) < 1 or min(args.games, args.workers, args.served_games, args.learner_steps) < 1:
        parser.error(
            f"--in-flight, --games, --workers, --served-games and --learner-steps take positive integers, got "
            f"{args.in_flight!r}, {args.games}, {args.workers}, {args.served_games} and {args.learner_steps}"
        )
    device = "cuda"
    if torch.cuda.is_available():
        print(f"device: {torch.cuda.get_device_name(0)}, torch {torch.__version__}\n")
    else:
        device = "cpu"
        records = SpeedRecords(None)
        print(
            f"gpu_check: no CUDA device here (torch.cuda.is_available() is False, torch {torch.__version__}): "
            "falling back to the CPU. Every check runs there, so this shows the script works end to end; "
            "its figures are not a GPU's and nothing is recorded (--size 5 --learner-steps 2 make it quick).\n"
        )
    if "smoke" in checks:
        smoke_on(device)
    ok = True
    if "losses" in checks:
        if device == "cuda":
            ok = losses_match()
        else:
            print("2. losses on the CPU and on CUDA: skipped (no CUDA device to compare with)")
    core_rate = selfplay_speed(args.games, in_flight, records, device, args.size) if "selfplay" in checks else None
    if "served" in checks:
        served_speed(args.workers, args.served_games, core_rate, records, device, args.size)
    if "learner" in checks:
        learner_rate(records, device, args.learner_steps)
    records.write()
    if not ok:
        sys.exit("gpu_check: the CUDA losses differ from the CPU's by more than 1e-3")


if __name__ == "__main__":
    try:
        main()
    except SystemExit as stop:
        if isinstance(stop.code, str):
            print(stop.code, file=sys.stderr)
            sys.exit(1)
        raise
