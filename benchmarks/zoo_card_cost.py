"""What a zoo card's baseline matches would cost for games without a zoo network.

    OMP_NUM_THREADS=1 python benchmarks/zoo_card_cost.py [GAME ...] [--decisions 30] [--random-games 20]

For each game at its default size (by default every game that has no network in
``agents/net/zoo/``): the mean length of ``--random-games`` random games in decisions (seed 0),
and the time ``mcts:400`` takes a decision over the first ``--decisions`` decisions of a game it
plays against itself. From these it estimates the one-core hours of the card's two 200-game
matches, counting only the baseline's half of the decisions: ``mcts:1600`` at four times
``mcts:400``'s cost a decision (its random rollouts dominate). A lower bound, then: the zoo
network's own search is left out, and searching players' games can run longer or shorter than
random ones.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import envs
from agents.net.zoo import zoo_names
from agents.players.player import RandomPlayer
from agents.players.registry import make_player
from envs.core import play_out


def random_length(game, games: int, rng: np.random.Generator) -> float:
    player = RandomPlayer(game)
    return float(np.mean([play_out(game, game.initial_state(), rng, {0: player, 1: player}) for _ in range(games)]))


def seconds_a_decision(game, spec: str, decisions: int, rng: np.random.Generator) -> float:
    player, state = make_player(spec, game), game.initial_state()
    player.act(state, rng)  # numba compiles outside the timing
    start = time.perf_counter()
    made = play_out(game, state, rng, {0: player, 1: player}, max_decisions=decisions)
    return (time.perf_counter() - start) / max(made, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="game names (default: every game without a zoo network)")
    parser.add_argument("--decisions", type=int, default=30)
    parser.add_argument("--random-games", type=int, default=20)
    args = parser.parse_args()
    names = args.games or [name for name in envs.GAMES if name not in zoo_names()]
    print(f"{'game':22s} {'random game':>12s} {'mcts:400':>12s} {'200 vs mcts:400':>16s} {'200 vs mcts:1600':>17s}")
    for name in names:
        if name not in envs.GAMES:
            raise SystemExit(f"unknown game {name!r}; the games: {', '.join(envs.GAMES)}")
        game = envs.make_game(name)
        length = random_length(game, args.random_games, np.random.default_rng(0))
        per_decision = seconds_a_decision(game, "mcts:400", args.decisions, np.random.default_rng(0))
        hours = 200 * length / 2 * per_decision / 3600
        print(f"{name:22s} {length:9.0f} dec {1000 * per_decision:9.0f} ms {hours:14.1f} h {4 * hours:15.1f} h")


if __name__ == "__main__":
    main()
