"""The network's forward pass alone, PyTorch against ONNX Runtime, side by side.

    python benchmarks/bench_inference.py [--games nex:11,odoku] [--nets small,medium] [--batches 1,32]
                                         [--rounds 5] [--seconds 1.0]

For each game, network size and batch, the two backends of ``agents/net/inference.py``
run ``NetEstimator.forward`` on the same random observations in alternating rounds
(the machine's load falls on both alike) with one torch thread, as a self-play worker
does; the table gives the median positions/s of each and their ratio, and the largest
difference between their outputs. Nothing here is a test.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import torch
from omegaconf import OmegaConf

from agents.evaluation.figure_records import SpeedRecords, add_record_option
from agents.net.net_estimator import NetEstimator
from agents.net.network import NetConfig, PolicyValueNet
from envs import make_game

BACKENDS = ("torch", "onnx")
CONFIGS = Path(__file__).resolve().parents[1] / "configs"


def rate(estimator: NetEstimator, obs: np.ndarray, seconds: float) -> float:
    calls, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        estimator.forward(obs)
        calls += 1
    return calls * len(obs) / (time.perf_counter() - start)


def net_config(name: str) -> NetConfig:
    return NetConfig(**OmegaConf.load(CONFIGS / "net" / f"{name}.yaml"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="nex:11,odoku", help="GAME[:SIZE],... (default: nex:11,odoku)")
    parser.add_argument("--nets", default="small,medium", help="net config names (configs/net)")
    parser.add_argument("--batches", default="1,32", help="batch sizes")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds; the median is shown")
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per backend per round")
    add_record_option(parser)
    args = parser.parse_args()
    records = SpeedRecords(args.record)
    torch.set_num_threads(1)
    print(f"torch {torch.__version__}, 1 thread; {args.rounds} alternating rounds of {args.seconds} s, medians")
    print()
    header = f"{'game':<14} {'net':<7} {'batch':>5}  {'torch pos/s':>11}  {'onnx pos/s':>10}  {'onnx/torch':>10}  {'max diff':>8}"
    print(header)
    print("-" * len(header))
    for spec in args.games.split(","):
        name, _, size = spec.partition(":")
        game = make_game(name, **({"size": int(size)} if size else {}))
        for net_name in args.nets.split(","):
            torch.manual_seed(0)
            net = PolicyValueNet.for_game(game.info, net_config(net_name)).eval()
            estimators = {b: NetEstimator(game, net, "cpu", b) for b in BACKENDS}
            for batch in map(int, args.batches.split(",")):
                obs = np.random.default_rng(batch).random((batch, *game.info.obs_shape), dtype=np.float32)
                outputs = {b: e.forward(obs) for b, e in estimators.items()}  # also the warm-up
                diff = max(np.abs(t - o).max() for t, o in zip(outputs["torch"], outputs["onnx"]))
                rates = {b: [] for b in BACKENDS}
                for _ in range(args.rounds):
                    for backend, estimator in estimators.items():
                        rates[backend].append(rate(estimator, obs, args.seconds))
                torch_rate, onnx_rate = (float(np.median(rates[b])) for b in BACKENDS)
                print(
                    f"{spec:<14} {net_name:<7} {batch:>5}  {torch_rate:>11.0f}  {onnx_rate:>10.0f}  "
                    f"{onnx_rate / torch_rate:>10.2f}  {diff:>8.1e}"
                )
                records.add(
                    f"ONNX Runtime forward pass, {spec} {net_name} net, batch {batch}",
                    "positions/s, median of alternating rounds",
                    "PyTorch, one thread",
                    onnx_rate / torch_rate,
                    note=f"{args.rounds} rounds of {args.seconds:g} s; largest difference {diff:.1e}",
                )
    records.write()


if __name__ == "__main__":
    main()
