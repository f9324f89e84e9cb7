"""Evaluation games per second with ``batch_games=1`` and ``batch_games=B`` in the same run.

    PYTHONPATH=. python benchmarks/bench_eval_batch.py [--games 16] [--batch 16] [--sizes 11 5] [--parts games outputs]

Builds an untrained network of the default architecture (``net=small``) for
Nex and saves it as a checkpoint with the default search (32 simulations) in a
temporary directory, then plays ``--games`` games (seats alternating) of each
lineup on each board size through ``agents.evaluation.runner.play_games`` in
this process (``workers=1``, one torch thread), once one game at a time and
once ``--batch`` games in lockstep, and prints games/s of both, their ratio,
and how many of the games came out identical (the network's batched outputs
differ from its one-by-one outputs in the last float bits). Speed, not
strength: an untrained network plays as fast as a trained one. The ``outputs``
part evaluates ``--batch`` positions of random games one by one and in one
batch and prints how many positions' priors or values differ, and by how much
at most. Nothing here is a test.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
import torch
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from agents.evaluation.figure_records import SpeedRecords, add_record_option
from agents.evaluation.runner import play_games
from agents.net.checkpoint import build_network, load_checkpoint
from agents.net.net_estimator import NetEstimator
from agents.net.network import PolicyValueNet
from agents.training.learner import Learner
from agents.training.saving import save_checkpoint
from agents.training.settings import build_settings
from envs import make_game

CONFIGS = Path(__file__).resolve().parents[1] / "configs"


def untrained_checkpoint(directory: Path, size: int) -> Path:
    """A checkpoint of a fresh default network for Nex, with the default search settings."""
    with initialize_config_dir(config_dir=str(CONFIGS), version_base="1.3"):
        cfg = compose("train", overrides=["game=nex", f"game.size={size}", "experiment=none"])
    s = build_settings(cfg)
    torch.manual_seed(0)
    net = PolicyValueNet.for_game(s.game.info, s.net)
    learner = Learner(net, s.learner, torch.device("cpu"))
    path = directory / "ckpt_step0000000.pt"
    save_checkpoint(
        path,
        game_info=s.game.info,
        net=net,
        optimizer=learner.optimizer,
        step=0,
        iteration=0,
        rng=np.random.default_rng(0),
        config_yaml=OmegaConf.to_yaml(cfg),
    )
    return path


def timed_games(game_cfg: dict, pair: tuple[str, str], games: int, batch_games: int):
    """(games/s, results) of ``games`` games of ``pair``, seats alternating."""
    lineups = [pair if k % 2 == 0 else pair[::-1] for k in range(games)]
    start = time.perf_counter()
    results = play_games(game_cfg, lineups, seed=0, batch_games=batch_games)
    return games / (time.perf_counter() - start), results


def output_differences(checkpoint: Path, size: int, positions: int) -> tuple[int, float, float]:
    """(positions whose outputs differ, max |prior difference|, max |value difference|)
    between one-by-one and batched evaluation of positions from random games."""
    game = make_game("nex", size=size)
    estimator = NetEstimator(game, build_network(load_checkpoint(checkpoint, game), checkpoint, game))
    rng, states = np.random.default_rng(0), []
    while len(states) < positions:
        state = game.initial_state()
        for _ in range(int(rng.integers(0, 3 * size))):
            actions = game.legal_actions(state)
            game.apply(state, actions[int(rng.integers(len(actions)))])
            if game.to_play(state) < 0:
                break
        if game.to_play(state) >= 0:
            states.append(state)
    alone = [estimator.estimate([state]) for state in states]
    priors, values = estimator.estimate(states)
    prior_gap = np.array([np.abs(priors[i] - p[0]).max() for i, (p, _) in enumerate(alone)])
    value_gap = np.array([np.abs(values[i] - v[0]).max() for i, (_, v) in enumerate(alone)])
    return int(((prior_gap > 0) | (value_gap > 0)).sum()), float(prior_gap.max()), float(value_gap.max())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=16, help="games per lineup and board size")
    parser.add_argument("--batch", type=int, default=16, help="batch_games of the batched rows")
    parser.add_argument("--sizes", type=int, nargs="+", default=[11, 5], help="Nex board sizes")
    parser.add_argument("--parts", nargs="+", default=["games", "outputs"], choices=["games", "outputs"])
    add_record_option(parser)
    args = parser.parse_args()
    records = SpeedRecords(args.record)
    torch.set_num_threads(1)  # evaluate.py's default torch_threads
    with tempfile.TemporaryDirectory() as directory:
        checkpoint = untrained_checkpoint(Path(directory), args.sizes[0])
        if "outputs" in args.parts:
            print(f"network outputs, {args.batch} positions evaluated one by one and in one batch")
            for size in args.sizes:
                differ, prior_gap, value_gap = output_differences(checkpoint, size, args.batch)
                print(
                    f"{size}x{size:<4} {differ}/{args.batch} positions differ; max |prior diff| {prior_gap:.1e},"
                    f" max |value diff| {value_gap:.1e}"
                )
        if "games" not in args.parts:
            return
        az = f"az:{checkpoint}"
        lineups = {"az vs az": (az, az), "az vs mcts:400": (az, "mcts:400")}
        print(f"Nex, {args.games} games per row, untrained net=small with 32 simulations, workers=1, one torch thread")
        header = f"{'board':6} {'lineup':16} {'games/s B=1':>12} {f'games/s B={args.batch}':>13} {'ratio':>7} {'same games':>11}"
        print(header)
        print("-" * len(header))
        for size in args.sizes:
            game_cfg = {"name": "nex", "size": size}
            play_games(game_cfg, [(az, "mcts:4")], seed=0)  # warm-up: numba kernels, imports
            for label, pair in lineups.items():
                one_rate, one = timed_games(game_cfg, pair, args.games, 1)
                many_rate, many = timed_games(game_cfg, pair, args.games, args.batch)
                same = sum(a == b for a, b in zip(one, many))
                print(
                    f"{size}x{size:<4} {label:16} {one_rate:12.3f} {many_rate:13.3f} {many_rate / one_rate:6.2f}x"
                    f" {same:>6}/{args.games}",
                    flush=True,
                )
                records.add(
                    f"Nex {size}x{size} evaluation games, batch_games={args.batch}, {label}",
                    "games/s",
                    "batch_games=1",
                    many_rate / one_rate,
                    note=f"{args.games} games, {same} the same",
                )
    records.write()


if __name__ == "__main__":
    main()
