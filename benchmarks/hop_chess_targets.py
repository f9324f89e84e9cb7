"""What self-play's policy targets teach a Hop Chess network, search setting by setting.

    python benchmarks/hop_chess_targets.py --network agents/net/zoo/training/hop_chess.pt
    python benchmarks/hop_chess_targets.py --network RUN/checkpoints/ckpt_step0000400_iter0004.pt --mixes 0.5

Positions are reached by random play (20 to 299 decisions, seeded). Each search setting
searches every position as self-play does (root noise, ``agent.selfplay.heuristic_mix``
weight ``w`` of the material heuristic in every leaf value) and its policy target is
compared with the network's own priors and with a reference: PUCT with
``--reference-simulations``, uniform priors and leaves valued by material alone, no noise
(the same reference for every network, so checkpoints of a run compare).
Per setting and weight, the means over the positions of:

* ``entropy``: of the target (nats); near 0 is one-hot;
* ``KL to prior``: how far the target moves the network (nats);
* ``reference``: the reference's probability mass under the target, sum(target * ref),
  beside the same for the network's priors: a target under the priors' figure teaches the
  network moves the reference plays less often than the network already does.

Nothing here is a test; docs/training.md (Hop Chess) gives the figures.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from agents.net.checkpoint import build_network, load_checkpoint
from agents.net.net_estimator import NetEstimator
from agents.net.zoo import is_zoo_file, load_file
from agents.search.estimators import HeuristicMixEstimator, UniformEstimator
from agents.search.mcts import MCTS, SearchConfig
from envs import make_game

SETTINGS = {  # name: agent.search settings
    "gumbel 16 sims, 16 actions, c_scale 1": dict(gumbel=True, num_simulations=16, gumbel_actions=16),
    "gumbel 16 sims, 16 actions, c_scale 0.1": dict(
        gumbel=True, num_simulations=16, gumbel_actions=16, gumbel_c_scale=0.1
    ),
    "gumbel 32 sims, 8 actions, c_scale 0.1": dict(
        gumbel=True, num_simulations=32, gumbel_actions=8, gumbel_c_scale=0.1
    ),
    "gumbel 64 sims, 8 actions, c_scale 0.1": dict(
        gumbel=True, num_simulations=64, gumbel_actions=8, gumbel_c_scale=0.1
    ),
    "puct 64 sims, dirichlet noise": dict(gumbel=False, num_simulations=64),
}


def network(path: Path, game):
    """The network of a zoo-format file or a training checkpoint."""
    if is_zoo_file(path):
        return load_file(path, game, any_size=True).net
    return build_network(load_checkpoint(path, game), path, game)


def random_positions(game, count: int, rng: np.random.Generator) -> list:
    """``count`` decision states with more than one legal action, each after 20..299 random decisions."""
    positions = []
    while len(positions) < count:
        state, stop = game.initial_state(), rng.integers(20, 300)
        for _ in range(stop):
            if game.is_terminal(state):
                break
            legal = game.legal_actions(state)
            game.apply(state, legal[rng.integers(len(legal))])
        if not game.is_terminal(state) and len(game.legal_actions(state)) > 1:
            positions.append(state)
    return positions


def targets(mcts: MCTS, positions: list, estimator, seed: int) -> list[np.ndarray]:
    """Self-play's policy target at each position: the improved policy after a Gumbel search, else the visit shares."""
    rngs = [np.random.default_rng([seed, i]) for i in range(len(positions))]
    results = mcts.search_many(positions, estimator, rngs, add_noise=True)
    return [r.improved_policy if r.improved_policy is not None else r.policy(1.0) for r in results]


def entropy(p: np.ndarray) -> float:
    p = p[p > 0]
    return float(-(p * np.log(p)).sum())


def kl(p: np.ndarray, q: np.ndarray) -> float:
    keep = p > 0
    return float((p[keep] * np.log(p[keep] / np.maximum(q[keep], 1e-12))).sum())


def main() -> None:
    arguments = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    arguments.add_argument("--network", type=Path, required=True, help="a zoo-format file or a training checkpoint")
    arguments.add_argument("--positions", type=int, default=40, help="positions reached by random play")
    arguments.add_argument(
        "--mixes", default="0,0.5,1", help="heuristic_mix weights, comma-separated (empty: the priors alone)"
    )
    arguments.add_argument("--reference-simulations", type=int, default=800, help="the reference search's budget")
    arguments.add_argument("--seed", type=int, default=0)
    args = arguments.parse_args()
    game = make_game("hop_chess")
    estimator = NetEstimator(game, network(args.network, game))
    positions = random_positions(game, args.positions, np.random.default_rng(args.seed))
    priors = estimator.estimate(positions)[0]
    material = HeuristicMixEstimator(UniformEstimator(game), game, 1.0)  # the same for every network
    reference_search = MCTS(game, SearchConfig(num_simulations=args.reference_simulations, dirichlet_fraction=0.0))
    reference = [
        r.policy(1.0)
        for r in reference_search.search_many(
            positions, material, [np.random.default_rng(i) for i in range(len(positions))], add_noise=False
        )
    ]
    prior_reference = np.mean([float(p @ r) for p, r in zip(priors, reference)])
    print(
        f"{len(positions)} positions; the network's priors: entropy {np.mean([entropy(p) for p in priors]):.2f}, ",
        end="",
    )
    print(f"reference {prior_reference:.3f}")
    print(f"{'w':>4}  {'setting':42s} {'entropy':>8} {'KL to prior':>12} {'reference':>10}")
    for mix in (float(text) for text in args.mixes.split(",") if text):
        leaves = HeuristicMixEstimator(estimator, game, mix) if mix else estimator
        for name, settings in SETTINGS.items():
            found = targets(MCTS(game, SearchConfig(**settings)), positions, leaves, args.seed + 1)
            print(
                f"{mix:4.2f}  {name:42s} {np.mean([entropy(t) for t in found]):8.2f} "
                f"{np.mean([kl(t, p) for t, p in zip(found, priors)]):12.2f} "
                f"{np.mean([float(t @ r) for t, r in zip(found, reference)]):10.3f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
