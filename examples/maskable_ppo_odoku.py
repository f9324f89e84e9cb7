"""Train sb3-contrib's MaskablePPO on ``Odoku-v0`` against a random opponent, then measure
it against Odoku's exact oracle (the optional extra ``sb3``).

    python examples/maskable_ppo_odoku.py --timesteps 100000 --eval-games 200

Training: four ``gymnasium.make("Odoku-v0", opponent="random", agent_seat="random")``
envs (the agent plays B or A by a coin per game); MaskablePPO reads the legal actions
through the env's ``action_masks()``. Evaluation: ``--eval-games`` games as B against
the oracle as A and as many as A against the oracle as B, with the policy's most likely
legal action, scored as ``python evaluate.py mode=odoku`` scores a player
(``agents.evaluation.odoku_measures``: mean final score 0..15 with its 95% interval, regret per
move); the random player is measured the same way beside it. References (docs/games/odoku.md):
random B vs oracle A 3.40, oracle vs oracle 9.375; B wants a high score, A a low one.
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

from agents.evaluation.odoku_measures import measure_seat
from agents.evaluation.runner import play_game
from agents.players import CallablePlayer, make_player
from envs import make_game  # importing envs registers Odoku-v0


def train(timesteps: int, seed: int):
    """A MaskablePPO policy trained for ``timesteps`` agent steps against random play."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    torch.set_num_threads(1)  # a small MLP: one thread is fastest, and fair to a shared CPU
    venv = make_vec_env(lambda: gym.make("Odoku-v0", opponent="random", agent_seat="random"), n_envs=4, seed=seed)
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=256, batch_size=128, gamma=1.0, seed=seed, verbose=0)
    model.learn(total_timesteps=timesteps)
    return model


def ppo_player(model, game) -> CallablePlayer:
    """The policy's most likely legal action in the engine's state."""

    def act(state, rng):
        mask = game.legal_mask(state)
        observation = {"observation": game.observe(state), "action_mask": mask.astype(np.int8)}
        action, _ = model.predict(observation, action_masks=mask, deterministic=True)
        return int(action)

    return CallablePlayer(act, name="maskable-ppo")


def against_oracle(game, player, games: int, seed: int) -> dict[str, dict]:
    """``games`` games from each seat against the oracle: ``agents.evaluation.odoku_measures`` per seat."""
    oracle = make_player("oracle", game)
    rng = np.random.default_rng(seed)
    measures = {}
    for seat, name in enumerate(game.info.seat_names):
        lineup = [player, oracle] if seat == 0 else [oracle, player]
        results = [play_game(game, lineup, rng) for _ in range(games)]
        measures[name] = measure_seat(game, results, seat).as_dict()
    return measures


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--timesteps", type=int, default=100_000, help="agent steps of training")
    parser.add_argument("--eval-games", type=int, default=200, help="games per seat against the oracle (>= 2)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.timesteps < 1:
        parser.error(f"--timesteps must be positive, got {args.timesteps}")
    if args.eval_games < 2:
        parser.error(f"--eval-games must be at least 2 (for an interval), got {args.eval_games}")

    start = time.perf_counter()
    model = train(args.timesteps, args.seed)
    minutes = (time.perf_counter() - start) / 60
    game = make_game("odoku")
    report = {
        "maskable-ppo": against_oracle(game, ppo_player(model, game), args.eval_games, args.seed + 1),
        "random": against_oracle(game, make_player("random", game), args.eval_games, args.seed + 1),
    }
    print(f"MaskablePPO, {args.timesteps} timesteps against random ({minutes:.1f} min), seed {args.seed}")
    print(f"against the oracle, {args.eval_games} games per seat (B wants a high score, A a low one):")
    print(f"{'player':<14}{'seat':<6}{'mean score':>12}{'95% +-':>9}{'regret/move':>13}")
    for player, seats in report.items():
        for seat, m in seats.items():
            print(f"{player:<14}{seat:<6}{m['mean_score']:>12.2f}{m['score_ci']:>9.2f}{m['regret_per_move']:>13.3f}")
    return report


if __name__ == "__main__":
    main()
