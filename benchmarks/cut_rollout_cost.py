"""What a decision costs early, mid and late in a game: ``hmcts`` against plain ``mcts``.

    OMP_NUM_THREADS=1 python benchmarks/cut_rollout_cost.py [GAME[:SIZE] ...] [--simulations 100]
        [--turns 4] [--repeats 3] [--seed 0]

For each game (by default every game with a heuristic value, at its default size) one random
game is played from seed ``--seed``, and the positions at 10%, 50% and 90% of its decisions are
searched by ``mcts:S`` (random rollouts to the end) and by ``hmcts:S:T`` (rollouts cut after
``T`` turns and scored by the game's heuristic), with the same number of simulations S. Each
figure is the median CPU time of one decision over ``--repeats`` searches with different seeds
(CPU time of this process, so that other processes on the machine weigh less), after one search
that compiles what numba compiles. The columns: turns left in the random game, each player's
milliseconds a decision, each player's cost relative to its own cost early in the game, and
``hmcts``'s cost over ``mcts``'s. Plain MCTS's rollouts shorten as the game goes on; a cut
rollout's do not, so its cost should stay flat.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import envs
from agents.players.player import RandomPlayer
from agents.players.registry import make_player
from envs.core import TERMINAL, has_heuristic, play_out

PHASES = (("early", 0.1), ("mid", 0.5), ("late", 0.9))


def positions(game, seed: int) -> list[tuple[str, object, int]]:
    """(phase, state, turns left) at each of ``PHASES`` of one random game from ``seed``."""
    player, state, rng = RandomPlayer(game), game.initial_state(), np.random.default_rng(seed)
    states, movers = [], []
    while game.to_play(state) != TERMINAL:
        play_out(game, state, rng, {0: player, 1: player}, max_decisions=1)
        if game.to_play(state) != TERMINAL:
            states.append(state.copy())
            movers.append(game.to_play(state))
    turn_starts = np.cumsum([0] + [a != b for a, b in zip(movers, movers[1:])])
    picked = []
    for phase, fraction in PHASES:
        index = int(fraction * (len(states) - 1))
        picked.append((phase, states[index], int(turn_starts[-1] - turn_starts[index] + 1)))
    return picked


def seconds_a_decision(player, state, repeats: int, seed: int) -> float:
    """The median CPU time of ``repeats`` searches of ``state``, each from its own seed."""
    times = []
    for repeat in range(repeats):
        rng = np.random.default_rng([seed, repeat])
        start = time.process_time()
        player.act(state, rng)
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="GAME or GAME:SIZE (default: every game with a heuristic value)")
    parser.add_argument("--simulations", type=int, default=100, help="simulations a decision, both players")
    parser.add_argument("--turns", type=int, default=4, help="turns a cut rollout plays (hmcts:S:T)")
    parser.add_argument("--repeats", type=int, default=3, help="searches a figure is the median of")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random game")
    args = parser.parse_args()
    if args.simulations < 1 or args.turns < 0 or args.repeats < 1:
        raise SystemExit("--simulations and --repeats must be positive and --turns non-negative")
    cases = args.games or [name for name in envs.GAMES if has_heuristic(envs.make_game(name))]
    plain, cut = f"mcts:{args.simulations}", f"hmcts:{args.simulations}:{args.turns}"
    print(f"CPU time a decision; {plain} against {cut}; ratios to each player's early cost, and {cut} / {plain}")
    print(
        f"{'game':26s} {'phase':5s} {'turns left':>10s} {plain:>11s} {cut:>13s} {'ratio':>6s} {'ratio':>6s} {'cut/plain':>9s}"
    )
    for case in cases:
        name, _, size = case.partition(":")
        if name not in envs.GAMES:
            raise SystemExit(f"unknown game {name!r}; the games: {', '.join(envs.GAMES)}")
        game = envs.make_game(name, **({"size": int(size)} if size else {}))
        players = [make_player(plain, game), make_player(cut, game)]
        picked = positions(game, args.seed)
        for player in players:  # numba compiles outside the timing
            player.act(picked[0][1], np.random.default_rng(0))
        early = None
        for phase, state, left in picked:
            costs = [seconds_a_decision(player, state, args.repeats, args.seed) for player in players]
            early = early or costs
            ratios = [cost / first for cost, first in zip(costs, early)]
            print(
                f"{case:26s} {phase:5s} {left:10d} {1000 * costs[0]:8.0f} ms {1000 * costs[1]:10.0f} ms "
                f"{ratios[0]:6.2f} {ratios[1]:6.2f} {costs[1] / costs[0]:9.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
