"""How close an Odoku network is to the exact values, and how close it could get.

    python benchmarks/odoku_targets.py --checkpoint runs/odoku/.../ckpt_step0002000.pt
    python benchmarks/odoku_targets.py --fit-exact 30000 --steps 3000 [--rollouts 16] [--policy-rollouts 64]

Odoku's exact value is known (``envs.games.odoku.game.value``), so a network can be
checked position by position instead of only by games. Both modes print one
table over positions reached by random play (random depth, fresh seed):

* value error of the network's value head in points (bias and RMS) against
  the exact value of the position for the seat to move;
* regret per move of the raw policy (its most likely legal move) and of the
  one-ply value player (the move whose chance node, the mean of the network's
  values with either seat to move, is best), in points given away.

``--checkpoint`` measures a trained network. ``--fit-exact`` is the ceiling:
a fresh network of the same shape (``--channels``, ``--blocks``, ``--value-hidden``) trained for
``--steps`` batches on exact targets (exact value, uniform over the optimal
moves) for that many random-play positions, with the game's symmetries;
``--rollouts K`` replaces each exact value target by the mean return of K
random playouts from the position (what ``agent.selfplay.outcome_rollouts``
gives self-play); ``--policy-rollouts K`` replaces each exact policy target by
the best moves of K playouts after every move, with common random numbers
(what ``agent.selfplay.policy_rollouts`` gives). Nothing here is a test.
"""

from __future__ import annotations

import argparse

import numpy as np
import torch

from agents.net.checkpoint import build_network, load_checkpoint
from agents.net.network import NetConfig, PolicyValueNet
from agents.training.replay import augment
from agents.training.selfplay import playout_policy, rollout_value
from envs import make_game
from envs.games.odoku.game import action_values, optimal_actions, value


def random_position(game, rng):
    """A decision state after a random number (0..24) of random moves; None if it ended."""
    state, moves, stop = game.initial_state(), 0, rng.integers(25)
    while not game.is_terminal(state):
        if game.is_chance(state):
            game.apply(state, game.sample_chance(state, rng))
        elif moves == stop:
            return state
        else:
            legal = game.legal_actions(state)
            game.apply(state, legal[rng.integers(len(legal))])
            moves += 1
    return None


def mover_value(state) -> float:
    """Exact normalised value for the seat to move (the network's value target)."""
    b_return = (value(state) - 7.5) / 7.5
    return b_return if state.player == 0 else -b_return


def measure(game, net, positions: int, rng) -> dict[str, float]:
    net.eval()
    errors, policy_regrets, value_regrets = [], [], []
    while len(errors) < positions:
        state = random_position(game, rng)
        if state is None:
            continue
        values, legal = action_values(state), game.legal_actions(state)
        best = max(values.values()) if state.player == 0 else min(values.values())
        children = []  # every move, then either seat to move (the coin's outcomes)
        for action in legal:
            for seat in (0, 1):
                child = state.copy()
                game.apply(child, action)
                if not game.is_terminal(child):
                    game.apply(child, seat)
                children.append(child)
        obs = np.stack([game.observe(s) for s in [state, *children]])
        with torch.no_grad():
            logits, net_values = net(torch.from_numpy(obs))
        net_values = net_values.squeeze(-1).numpy().astype(np.float64)
        errors.append(7.5 * (net_values[0] - mover_value(state)))
        policy_move = legal[int(np.argmax(logits[0].numpy()[legal]))]
        policy_regrets.append(abs(best - values[policy_move]))
        if all(not game.is_terminal(s) for s in children):  # the last move has no coin after it
            b_values = [v if s.player == 0 else -v for v, s in zip(net_values[1:], children)]
            chance = np.reshape(b_values, (-1, 2)).mean(axis=1)
            value_move = legal[int(np.argmax(chance) if state.player == 0 else np.argmin(chance))]
            value_regrets.append(abs(best - values[value_move]))
    errors = np.asarray(errors)
    return {
        "value bias (points)": errors.mean(),
        "value RMS error (points)": np.sqrt(np.mean(errors**2)),
        "regret/move, raw policy": np.mean(policy_regrets),
        "regret/move, one-ply value": np.mean(value_regrets),
    }


def fit_exact(game, net, positions: int, steps: int, rng, rollouts: int = 0, policy_rollouts: int = 0) -> None:
    """Train ``net`` on exact targets for ``positions`` random-play positions
    (value targets from ``rollouts`` random playouts each when > 0, policy
    targets from ``policy_rollouts`` playouts after each move when > 0)."""
    obs, policy, values = [], [], []
    while len(obs) < positions:
        state = random_position(game, rng)
        if state is None:
            continue
        if policy_rollouts:
            target = playout_policy(game, state, state.player, policy_rollouts, rng)
        else:
            target = np.zeros(game.info.num_actions, dtype=np.float32)
            target[optimal_actions(state)] = 1.0
            target /= target.sum()
        obs.append(game.observe(state))
        policy.append(target)
        values.append(rollout_value(game, state, state.player, rollouts, rng) if rollouts else mover_value(state))
    obs, policy, values = np.stack(obs), np.stack(policy), np.asarray(values, dtype=np.float32)
    optimizer = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    symmetries = game.symmetries()
    for _ in range(steps):
        rows = rng.integers(positions, size=128)
        o, p = augment(obs[rows], policy[rows], symmetries, rng.integers(len(symmetries), size=128))
        logits, v = net(torch.from_numpy(o))
        policy_loss = -(torch.from_numpy(p) * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
        value_loss = ((v.squeeze(-1) - torch.from_numpy(values[rows])) ** 2).mean()
        optimizer.zero_grad()
        (policy_loss + value_loss).backward()
        optimizer.step()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--checkpoint", help="an Odoku training checkpoint")
    source.add_argument("--fit-exact", type=int, metavar="POSITIONS", help="fit a fresh network to exact targets")
    parser.add_argument("--steps", type=int, default=3000, help="--fit-exact: batches of 128")
    parser.add_argument("--rollouts", type=int, default=0, help="--fit-exact: value targets from K playouts")
    parser.add_argument("--policy-rollouts", type=int, default=0, help="--fit-exact: policy targets from K playouts")
    parser.add_argument("--channels", type=int, default=32)
    parser.add_argument("--blocks", type=int, default=2)
    parser.add_argument("--value-hidden", type=int, default=64)
    parser.add_argument("--positions", type=int, default=300, help="positions measured")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    game, rng = make_game("odoku"), np.random.default_rng(args.seed)
    if args.checkpoint:
        net = build_network(load_checkpoint(args.checkpoint, game), args.checkpoint, game)
        label = args.checkpoint
    else:
        net = PolicyValueNet.for_game(
            game.info, NetConfig(channels=args.channels, blocks=args.blocks, value_hidden=args.value_hidden)
        )
        fit_exact(game, net, args.fit_exact, args.steps, rng, args.rollouts, args.policy_rollouts)
        moves = f"the best moves of {args.policy_rollouts} playouts" if args.policy_rollouts else "exact moves"
        values = f"{args.rollouts}-playout values" if args.rollouts else "exact values"
        label = f"fitted to {moves} and {values} ({args.fit_exact} positions, {args.steps} steps)"
    print(label)
    for name, figure in measure(game, net, args.positions, np.random.default_rng(args.seed + 1)).items():
        print(f"  {name:28}{figure:8.4f}")


if __name__ == "__main__":
    main()
