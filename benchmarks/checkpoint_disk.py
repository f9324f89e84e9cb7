"""Disk cost of training checkpoints: the size of one, and the bytes a default run writes.

    python benchmarks/checkpoint_disk.py [--games N] [--seed S]

For each default run (``python train.py``, ``game=nex``, ``game=neumoku``: Odoku,
Nex 11x11, Neumoku 15x15) this composes the training config, plays ``--games``
self-play games with a fresh network and the run's own search and target
settings (a short run), puts their positions in a replay buffer and writes it
twice in the same process: as the trainer writes it now
(:func:`agents.training.saving.save_checkpoint`: lossless compact arrays,
compressed) and as plain float32 arrays (``np.savez``, the format before
compaction), the peer. The ``.pt`` part (network and optimiser) is written by
the same function after one learner step.

Scaling to a whole default run: positions per iteration = games per iteration
x the mean positions per game measured here; the replay holds
min(capacity, iterations x that); checkpoints fall where the loop writes them
(every ``train.checkpoint_every`` learner steps and at the end); replay bytes
scale with the positions held at the measured bytes per position. Game
lengths of a fresh network stand in for those of a trained one. Nothing here
is a test.
"""

from __future__ import annotations

import argparse
import io
import tempfile
from pathlib import Path

import numpy as np
import torch
from hydra import compose, initialize_config_dir

from agents.config import with_recipe_aliases
from agents.evaluation.figure_records import SpeedRecords, add_record_option
from agents.net.net_estimator import NetEstimator
from agents.net.network import PolicyValueNet
from agents.search.mcts import MCTS
from agents.training.learner import Learner
from agents.training.replay import ReplayBuffer
from agents.training.saving import replay_path, save_checkpoint
from agents.training.selfplay import self_play
from agents.training.settings import build_settings

CONFIGS = Path(__file__).resolve().parents[1] / "configs"
RUNS = {"Odoku": [], "Nex 11": ["game=nex"], "Neumoku 15": ["game=neumoku"]}
MB = 1e6


def checkpoint_iterations(s, positions_per_iteration: float) -> list[tuple[int, int]]:
    """(iteration, positions held) of every checkpoint a run of settings ``s`` writes."""
    step = last = 0
    saved = []
    for iteration in range(1, s.iterations + 1):
        held = int(min(s.learner.replay_capacity, iteration * positions_per_iteration))
        if held >= s.learner.min_replay:
            step += s.learner.steps_per_iteration
        if step - last >= s.checkpoint_every or iteration == s.iterations:
            saved.append((iteration, held))
            last = step
    return saved


def measure(overrides: list[str], games: int, seed: int) -> dict:
    with initialize_config_dir(config_dir=str(CONFIGS), version_base="1.3"):
        cfg = compose("train", overrides=with_recipe_aliases(overrides))
    s = build_settings(cfg)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    info = s.game.info
    net = PolicyValueNet.for_game(info, s.net)
    batch = self_play(s.game, MCTS(s.game, s.search), NetEstimator(s.game, net), games, s.selfplay, rng)
    replay = ReplayBuffer(max(1, batch.num_positions), info.obs_shape, info.num_actions)
    replay.add(batch.obs, batch.policy, batch.value)
    learner = Learner(net, s.learner, torch.device("cpu"))
    learner.step(*replay.sample(min(s.learner.batch_size, len(replay)), rng))
    with tempfile.TemporaryDirectory() as folder:
        path = save_checkpoint(
            Path(folder) / "ckpt.pt",
            game_info=info,
            net=net,
            optimizer=learner.optimizer,
            step=1,
            iteration=1,
            rng=rng,
            config_yaml="{}",
            replay=replay,
        )
        pt_bytes, replay_bytes = path.stat().st_size, replay_path(path).stat().st_size
    plain = io.BytesIO()
    np.savez(
        plain,
        **{
            "obs": batch.obs,
            "policy": batch.policy,
            "value": batch.value,
            "capacity": np.array(replay.capacity),
            "total_added": np.array(replay.total_added),
        },
    )
    per_position = {"before": plain.tell() / len(replay), "after": replay_bytes / len(replay)}
    positions_per_iteration = s.selfplay.games_per_iteration * batch.num_positions / games
    saved = checkpoint_iterations(s, positions_per_iteration)
    final_held = saved[-1][1]
    return {
        "positions_per_game": batch.num_positions / games,
        "per_position": per_position,
        "checkpoints": len(saved),
        "iterations": s.iterations,
        "checkpoint": {k: pt_bytes + v * final_held for k, v in per_position.items()},
        "written": {k: sum(pt_bytes + v * held for _, held in saved) for k, v in per_position.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="self-play games per run measured")
    parser.add_argument("--seed", type=int, default=0)
    add_record_option(parser)
    args = parser.parse_args()
    records = SpeedRecords(args.record)
    torch.set_num_threads(1)
    header = (
        "run",
        "pos/game",
        "B/pos before",
        "B/pos after",
        "ckpts",
        "ckpt MB before",
        "ckpt MB after",
        "written MB before",
        "written MB after",
        "ratio",
    )
    print(" | ".join(header))
    for name, overrides in RUNS.items():
        m = measure(overrides, args.games, args.seed)
        print(
            " | ".join(
                [
                    name,
                    f"{m['positions_per_game']:.1f}",
                    f"{m['per_position']['before']:.0f}",
                    f"{m['per_position']['after']:.1f}",
                    f"{m['checkpoints']} in {m['iterations']} it",
                    f"{m['checkpoint']['before'] / MB:.1f}",
                    f"{m['checkpoint']['after'] / MB:.2f}",
                    f"{m['written']['before'] / MB:.0f}",
                    f"{m['written']['after'] / MB:.1f}",
                    f"{m['written']['before'] / m['written']['after']:.0f}x",
                ]
            ),
            flush=True,
        )
        records.add(
            f"{name}: checkpoints packed",
            "bytes a default run writes (unpacked / packed)",
            "unpacked checkpoints",
            m["written"]["before"] / m["written"]["after"],
            note=f"{m['checkpoints']} checkpoints in {m['iterations']} iterations",
        )
    records.write()


if __name__ == "__main__":
    main()
