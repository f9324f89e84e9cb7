"""Random-playout throughput of every registered game, through the engine API
and through the Gymnasium env, plus the Odoku oracle's time per move.

    python benchmarks/bench_engines.py [--seconds 2] [--games odoku nex]

Prints a table; nothing here is a test. Each row plays uniformly random games
for about ``--seconds`` seconds of wall time.
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

from envs import CHANCE, GAMES, make_game


def engine_playouts(game, seconds: float, rng: np.random.Generator) -> dict[str, float]:
    """Random games through the engine API: games/s, decisions/s and turns/s."""
    games = decisions = turns = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.initial_state()
        player = game.to_play(state)
        while player >= 0 or player == CHANCE:
            if player == CHANCE:
                outcomes, probs = zip(*game.chance_outcomes(state))
                game.apply(state, outcomes[rng.choice(len(outcomes), p=probs)])
            else:
                actions = game.legal_actions(state)
                game.apply(state, actions[int(rng.integers(len(actions)))])
                decisions += 1
                turns += game.to_play(state) != player
            player = game.to_play(state)
        games += 1
    elapsed = time.perf_counter() - start
    return {"games/s": games / elapsed, "decisions/s": decisions / elapsed, "turns/s": turns / elapsed}


def env_playouts(env_id: str, seconds: float, seed: int) -> dict[str, float]:
    """Random games through ``gymnasium.make`` in two-player mode (mask-sampled actions)."""
    env = gym.make(env_id)
    rng = np.random.default_rng(seed)
    games = steps = 0
    start = time.perf_counter()
    observation, _ = env.reset(seed=seed)
    while time.perf_counter() - start < seconds:
        legal = np.flatnonzero(observation["action_mask"])
        observation, _, terminated, _, _ = env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
        if terminated:
            games += 1
            observation, _ = env.reset()
    elapsed = time.perf_counter() - start
    return {"games/s": games / elapsed, "decisions/s": steps / elapsed}


def oracle_time_per_move(games: int, rng: np.random.Generator) -> float:
    """Mean seconds per Odoku oracle move over ``games`` oracle-vs-oracle games."""
    from agents.players import make_player

    game = make_game("odoku")
    oracle = make_player("oracle", game)
    moves, elapsed = 0, 0.0
    for _ in range(games):
        state = game.initial_state()
        while not game.is_terminal(state):
            if game.is_chance(state):
                game.apply(state, int(rng.integers(2)))
                continue
            start = time.perf_counter()
            action = oracle.act(state, rng)
            elapsed += time.perf_counter() - start
            game.apply(state, action)
            moves += 1
    return elapsed / moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="wall time per row")
    parser.add_argument("--games", nargs="*", default=sorted(GAMES), help="registry names")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)

    print(f"{'game':<12}{'via':<8}{'games/s':>12}{'decisions/s':>14}{'turns/s':>12}")
    for name in args.games:
        game = make_game(name)
        row = engine_playouts(game, args.seconds, rng)
        print(f"{name:<12}{'engine':<8}{row['games/s']:>12.1f}{row['decisions/s']:>14.0f}{row['turns/s']:>12.0f}")
        env_row = env_playouts(GAMES[name][0], args.seconds, args.seed)
        ratio = env_row["decisions/s"] / row["decisions/s"]
        print(
            f"{'':<12}{'env':<8}{env_row['games/s']:>12.1f}{env_row['decisions/s']:>14.0f}"
            f"{'':>12}  (env/engine {ratio:.2f}x)"
        )
    if "odoku" in args.games:
        per_move = oracle_time_per_move(200, rng)
        print(f"\nOdoku oracle: {per_move * 1e6:.1f} us per move (200 oracle-vs-oracle games)")


if __name__ == "__main__":
    main()
