"""Self-play throughput at the training defaults (``configs/train.yaml``).

    python benchmarks/bench_selfplay.py [--games N] [experiment=nex5 ...]

Composes the training config (Hydra overrides after the options), plays
``--games`` self-play games with a fresh network exactly as one training
iteration does, and prints a table: recorded positions/s (the
``perf/positions_per_s`` of training), network-evaluated MCTS simulations/s,
network calls/s and their mean batch, and a lone ``search`` (one state, no
batching) for comparison. Nothing here is a test.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import torch
from hydra import compose, initialize_config_dir

from agents.config import with_recipe_aliases
from agents.net.net_estimator import NetEstimator
from agents.net.network import PolicyValueNet
from agents.search.mcts import MCTS
from agents.training.selfplay import self_play
from agents.training.settings import build_settings

CONFIGS = Path(__file__).resolve().parents[1] / "configs"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, help="self-play games to time (default: one iteration's)")
    parser.add_argument("--lone-moves", type=int, default=20, help="single-state searches to time")
    parser.add_argument("overrides", nargs="*", help="Hydra overrides, e.g. experiment=nex5")
    args = parser.parse_args()
    with initialize_config_dir(config_dir=str(CONFIGS), version_base="1.3"):
        cfg = compose("train", overrides=with_recipe_aliases(args.overrides))
    s = build_settings(cfg)
    num_games = args.games or s.selfplay.games_per_iteration
    if s.torch_threads:
        torch.set_num_threads(s.torch_threads)
    game = s.game
    torch.manual_seed(s.seed)
    net = PolicyValueNet.for_game(game.info, s.net).to(s.device)
    mcts = MCTS(game, s.search)
    rng = np.random.default_rng(s.seed)

    estimator = NetEstimator(game, net, s.device)
    self_play(game, mcts, estimator, 1, s.selfplay, rng)  # warm-up: imports, allocator
    estimator = NetEstimator(game, net, s.device)
    start = time.perf_counter()
    batch = self_play(game, mcts, estimator, num_games, s.selfplay, rng)
    seconds = time.perf_counter() - start
    searches = batch.num_positions
    simulations = searches * s.search.num_simulations

    lone = NetEstimator(game, net, s.device)
    state = game.initial_state()
    lone_start = time.perf_counter()
    for _ in range(args.lone_moves):
        mcts.search(state, lone, rng)
    lone_seconds = time.perf_counter() - lone_start

    print(
        f"game {game.info.name} {game.info.params}  net {s.net.to_dict()}  device {s.device}  "
        f"torch threads {torch.get_num_threads()}"
    )
    print(
        f"simulations/move {s.search.num_simulations}  concurrent games {s.selfplay.concurrent_games}  "
        f"games timed {num_games}"
    )
    print()
    rows = [
        ("self-play positions/s", searches / seconds),
        ("self-play simulations/s", simulations / seconds),
        ("self-play network calls/s", estimator.calls / seconds),
        ("self-play mean batch", estimator.positions / max(estimator.calls, 1)),
        ("self-play games/s", num_games / seconds),
        ("lone search simulations/s", args.lone_moves * s.search.num_simulations / lone_seconds),
    ]
    width = max(len(name) for name, _ in rows)
    print(f"{'measure':<{width}}  {'value':>10}")
    print(f"{'-' * width}  {'-' * 10}")
    for name, value in rows:
        print(f"{name:<{width}}  {value:>10.1f}")


if __name__ == "__main__":
    main()
