"""Why a fresh network's self-play search passes in Blockdance, seed by seed.

    python benchmarks/blockdance_passes.py
    python benchmarks/blockdance_passes.py --size 8 --seeds 0 1 2 3 4
    python benchmarks/blockdance_passes.py --seeds 0 --c-scale 0.1

For each seed, a fresh ``net=small`` network as ``train.py seed=S`` draws it (torch's default
initialisation, and the same with ``agent.learner.zero_value_init``) at two roots: the start,
and the start after the first player passed (where a second pass ends the game at exactly 0).
Each line gives the mover's value of the root by the network, the mean value to the mover of
the children the first micro-step of a move reaches (the mover keeps the turn) and of the
pass's child (``net``: the network's value, the turn handed over; ``end``: the game's exact
return), then what the recipes' self-play search (Gumbel, 32 simulations, root noise) makes of
it over ``--searches`` root generators: the share that selected the pass and the mean mass of
its policy target (the improved policy) on the pass.

Nothing here is a test; docs/training.md ("Why Blockdance's first games end by two passes")
gives the figures, tests/test_value_init.py asserts them.
"""

from __future__ import annotations

import argparse

import numpy as np
import torch

from agents.net.net_estimator import NetEstimator
from agents.net.network import NetConfig, PolicyValueNet
from agents.search.mcts import MCTS, SearchConfig
from envs import make_game

SMALL = NetConfig(channels=32, blocks=2, value_hidden=64)  # configs/net/small.yaml, the recipes' net


def fresh_estimator(game, seed: int, zero_value: bool) -> NetEstimator:
    """The network ``train.py seed=seed`` starts from (``net=small``)."""
    torch.manual_seed(seed)
    net = PolicyValueNet.for_game(game.info, SMALL)
    if zero_value:
        net.zero_value_output()
    return NetEstimator(game, net, inference="torch")


def child_values(game, estimator, state, mover: int) -> tuple[float, float, str]:
    """Mean value to ``mover`` of the moves' children, the pass child's value and its kind."""
    moves, passed, kind = [], 0.0, "net"
    for action in game.legal_actions(state):
        child = state.copy()
        game.apply(child, action)
        if game.is_terminal(child):
            value, kind = float(game.returns(child)[mover]), "end"
        else:
            value = float(estimator.estimate([child])[1][0, mover])
        if action == game.PASS:
            passed = value
        else:
            moves.append(value)
    return float(np.mean(moves)), passed, kind


def report(game, estimator, state, searches: int, c_scale: float) -> str:
    mover = game.to_play(state)
    root = float(estimator.estimate([state])[1][0, mover])
    moves, passed, kind = child_values(game, estimator, state, mover)
    mcts = MCTS(game, SearchConfig(num_simulations=32, gumbel=True, gumbel_c_scale=c_scale))
    rngs = [np.random.default_rng(seed) for seed in range(searches)]
    results = mcts.search_many([state] * searches, estimator, rngs, add_noise=True)
    chosen = np.mean([r.selected == game.PASS for r in results])
    target = np.mean([r.improved_policy[game.PASS] for r in results])
    return (
        f"root {root:+.4f} | moves {moves:+.4f} | pass {passed:+.4f} ({kind}) | "
        f"pass selected {chosen:.2f}, its target mass {target:.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=6, help="the hexagon's side (6: blockdance6; 8: the text's)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2], help="train.py seeds (network inits)")
    parser.add_argument("--searches", type=int, default=20, help="root generators searched at each root")
    parser.add_argument("--c-scale", type=float, default=1.0, help="agent.search.gumbel_c_scale (the recipes': 1)")
    args = parser.parse_args()
    game = make_game("blockdance", size=args.size)
    start = game.initial_state()
    after_pass = start.copy()
    game.apply(after_pass, game.PASS)
    print(f"Blockdance side {args.size}; values are the mover's")
    for seed in args.seeds:
        for zero_value in (False, True):
            estimator = fresh_estimator(game, seed, zero_value)
            init = "zero value head" if zero_value else "default init"
            for name, state in (("start", start), ("after a pass", after_pass)):
                print(
                    f"seed {seed}, {init:15s}, {name:12s}: {report(game, estimator, state, args.searches, args.c_scale)}"
                )


if __name__ == "__main__":
    main()
