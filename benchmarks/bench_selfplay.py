"""Self-play throughput at the training defaults (``configs/train.yaml``), by inference backend and search driver.

    python benchmarks/bench_selfplay.py [--games N] [--backends torch,onnx] [--drivers python,compiled]
        [--rounds R] [experiment=nex5 ...]

Composes the training config (Hydra overrides after the options), plays
``--games`` self-play games with a fresh network exactly as one training
iteration does, once per backend of ``agents/net/inference.py`` and MCTS driver
(``MCTS(driver=...)``: the compiled or the Python one; ``decode``: the compiled one
handed the network through an estimator without ``estimate_planes``, so that it decodes
every new leaf into an engine state for ``game.observe`` instead of building the planes
from its rows) per round, the columns
alternating so that the machine's load falls on all alike, and prints per column
(``backend/driver``; the median round): recorded positions/s (the
``perf/positions_per_s`` of training), network-evaluated positions/s, network
calls/s and their mean batch, the network's own forward-pass ceiling (the
positions those calls evaluated over the time spent inside them: self-play with
nothing between the calls) and the share of it self-play reaches, a lone ``search`` (one state, no batching), and each
measure's ratio to the first column's. Nothing here is a test.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import torch
from hydra import compose, initialize_config_dir

from agents.config import with_recipe_aliases
from agents.evaluation.figure_records import SpeedRecords, add_record_option
from agents.net.net_estimator import NetEstimator
from agents.net.network import PolicyValueNet
from agents.search.mcts import MCTS
from agents.training.selfplay import self_play
from agents.training.settings import build_settings

CONFIGS = Path(__file__).resolve().parents[1] / "configs"
DRIVERS = {"decode": "compiled"}  # the MCTS driver of a column that is not one's name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, help="self-play games to time (default: one iteration's)")
    parser.add_argument("--lone-moves", type=int, default=20, help="single-state searches to time")
    parser.add_argument("--backends", default="torch,onnx", help="inference backends, the first the reference")
    parser.add_argument(
        "--drivers", default="auto", help="MCTS drivers (auto, compiled, python, decode), the first the reference"
    )
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every backend, alternating")
    add_record_option(parser)
    parser.add_argument("overrides", nargs="*", help="Hydra overrides, e.g. experiment=nex5")
    args = parser.parse_args()
    records = SpeedRecords(args.record)
    with initialize_config_dir(config_dir=str(CONFIGS), version_base="1.3"):
        cfg = compose("train", overrides=with_recipe_aliases(args.overrides))
    s = build_settings(cfg)
    num_games = args.games or s.selfplay.games_per_iteration
    if s.torch_threads:
        torch.set_num_threads(s.torch_threads)
    game = s.game
    torch.manual_seed(s.seed)
    net = PolicyValueNet.for_game(game.info, s.net).to(s.device)
    searches = {driver: MCTS(game, s.search, driver=DRIVERS.get(driver, driver)) for driver in args.drivers.split(",")}
    rng = np.random.default_rng(s.seed)

    columns = [(backend, driver) for backend in args.backends.split(",") for driver in searches]
    rounds = {column: [] for column in columns}
    for backend, driver in columns:  # warm-up: imports, allocator, the first export, numba's cache
        estimator = NetEstimator(game, net, s.device, backend)
        self_play(game, searches[driver], searching(estimator, driver), 1, s.selfplay, rng)
    for _ in range(args.rounds):
        for backend, driver in columns:
            row = measure(game, net, searches[driver], driver, s, backend, num_games, args.lone_moves, rng)
            rounds[backend, driver].append(row)

    print(
        f"game {game.info.name} {game.info.params}  net {s.net.to_dict()}  device {s.device}  "
        f"torch threads {torch.get_num_threads()}"
    )
    print(
        f"simulations/move {s.search.num_simulations}  concurrent games {s.selfplay.concurrent_games}  "
        f"games timed {num_games}  rounds {args.rounds} (median shown)"
    )
    print()
    table = {
        f"{backend}/{driver}": {key: float(np.median([r[key] for r in rows])) for key in rows[0]}
        for (backend, driver), rows in rounds.items()
    }
    backends = list(table)
    first = backends[0]
    width = max(len(key) for key in table[first])
    widths = {b: max(10, len(b)) for b in backends}
    header = f"{'measure':<{width}}" + "".join(f"  {b:>{widths[b]}}" for b in backends)
    header += "".join(f"  {'x' + str(i + 1):>12}" for i in range(1, len(backends)))
    print(header)
    print("-" * len(header))
    for key in table[first]:
        line = f"{key:<{width}}" + "".join(f"  {table[b][key]:>{widths[b]}.1f}" for b in backends)
        line += "".join(f"  {table[b][key] / table[first][key]:>12.2f}" for b in backends[1:])
        print(line)
    print()
    print("columns: " + ", ".join(f"{i + 1} {b}" for i, b in enumerate(backends)) + "; x<i>: column i / column 1")
    label = " ".join([game.info.name, *(str(v) for k, v in game.info.params.items() if k == "size")])
    for column in backends[1:]:
        for key, what in (("self-play positions/s", "self-play"), ("lone search simulations/s", "lone search")):
            records.add(
                f"{label} {what} with {column}",
                key,
                f"with {first}",
                table[column][key] / table[first][key],
                note=f"{args.rounds} rounds (medians), {num_games} games timed",
            )
    records.write()


class DecodedStates:
    """The network estimator without ``estimate_planes``: the compiled driver decodes its leaves."""

    def __init__(self, estimator: NetEstimator):
        self.game, self.estimate = estimator.game, estimator.estimate


def searching(estimator: NetEstimator, driver: str):
    """What the search of column ``driver`` is handed: the estimator, or it behind ``DecodedStates``."""
    return DecodedStates(estimator) if driver == "decode" else estimator


def measure(game, net, mcts, driver: str, s, backend: str, num_games: int, lone_moves: int, rng) -> dict:
    """One round of one backend and driver: the self-play games, its forward-pass ceiling, a lone search."""
    estimator = NetEstimator(game, net, s.device, backend)
    start = time.perf_counter()
    batch = self_play(game, mcts, searching(estimator, driver), num_games, s.selfplay, rng)
    seconds = time.perf_counter() - start
    mean_batch = estimator.positions / max(estimator.calls, 1)
    evaluated = estimator.positions / seconds
    ceiling = estimator.positions / estimator.seconds  # the same forward passes with nothing between them

    lone = searching(estimator, driver)  # its session made already
    state = game.initial_state()
    lone_start = time.perf_counter()
    for _ in range(lone_moves):
        mcts.search(state, lone, rng)
    lone_seconds = time.perf_counter() - lone_start
    return {
        "self-play positions/s": batch.num_positions / seconds,
        "self-play evaluated positions/s": evaluated,
        "self-play network calls/s": estimator.calls / seconds,
        "self-play mean batch": mean_batch,
        "self-play games/s": num_games / seconds,
        "forward ceiling positions/s": ceiling,
        "share of the ceiling, %": 100 * evaluated / ceiling,
        "lone search simulations/s": lone_moves * s.search.num_simulations / lone_seconds,
    }


if __name__ == "__main__":
    main()
