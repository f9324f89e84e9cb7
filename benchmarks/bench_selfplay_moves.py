"""Self-play positions/s over the first moves of a recipe's games, in whichever checkout is imported.

    PYTHONPATH=CHECKOUT python benchmarks/bench_selfplay_moves.py [--positions 256] [--cpu-time]
        [hop_chess progressive_amazons_19 blockdance_8 send_it_13]

Per game of ``RECIPES`` (the long games whose self-play speed issue 66 asks about, each
with its recipe and board): composes the checkout's training config with the game's
overrides, builds its untrained network from the config's seed, and plays the
recipe's ``concurrent_games`` games with ``agents.training.selfplay.self_play``
exactly as a training iteration does, stopping when the next search would begin once
``--positions`` positions have been searched and recorded; a first wave of the same
games, untimed, warms up numba and the inference backend. Only the API that the
compiled-rules work left unchanged is used (``build_settings``, ``PolicyValueNet.for_game``,
``NetEstimator``, ``MCTS``, ``self_play``), so the same script times the code before it
(``benchmarks/compare_checkouts.py --selfplay`` runs it in both checkouts, rounds alternating).

Prints one row per game: the positions, the seconds (wall, or with ``--cpu-time`` this
process's CPU seconds), positions/s, and a digest of what was timed (the game and its
parameters, the search settings, the games in flight and the network's weights), which
two checkouts must share for their rates to be compared. Nothing here is a test.
"""

from __future__ import annotations

import argparse
import hashlib
import time
from pathlib import Path

import numpy as np
import torch
from hydra import compose, initialize_config_dir

import agents
from agents.net.net_estimator import NetEstimator
from agents.net.network import PolicyValueNet
from agents.search.mcts import MCTS
from agents.training.selfplay import self_play
from agents.training.settings import build_settings

# Hop Chess: hop_chess_material's search and games (the recipe agents/net/zoo/training/hop_chess.json
# trains) spelled out, since the code before has no such recipe, without its heuristic mix (the
# code before has none); the others: their recipes on the text's boards.
RECIPES = {
    "hop_chess": [
        "game=hop_chess",
        "agent.search.num_simulations=32",
        "agent.search.gumbel=true",
        "agent.search.gumbel_actions=8",
        "agent.search.gumbel_c_scale=0.1",
        "agent.selfplay.concurrent_games=16",
        "agent.selfplay.temperature_moves=8",
        "agent.selfplay.value_mix=0.5",
    ],
    "progressive_amazons_19": ["experiment=progressive_amazons10", "game.size=19"],
    "blockdance_8": ["experiment=blockdance6", "game.size=8"],
    "send_it_13": ["experiment=send_it7", "game.size=13"],
}
VIA = "selfplay"  # the rows' second column, as benchmarks/bench_engines.py names its paths


class Enough(Exception):
    """Raised into ``self_play`` at the search that would pass the positions asked for."""


def counted(mcts: MCTS, positions: int) -> list[int]:
    """Wrap ``mcts.search_many`` to count the positions it searches with root noise (those
    self-play records) and to stop self-play before the first search past ``positions``."""
    search_many, searched = mcts.search_many, [0]

    def search_and_count(states, *args, **kwargs):
        if searched[0] >= positions:
            raise Enough
        results = search_many(states, *args, **kwargs)
        if kwargs.get("add_noise"):
            searched[0] += len(states)
        return results

    mcts.search_many = search_and_count
    return searched


def first_moves(game, search, estimator, config, seed: int, positions: int) -> int:
    """Self-play of the recipe's games in flight from ``seed`` until ``positions`` are recorded;
    the positions recorded (fewer where every game ended first)."""
    mcts = MCTS(game, search)
    searched = counted(mcts, positions)
    try:
        self_play(game, mcts, estimator, config.concurrent_games, config, np.random.default_rng(seed))
    except Enough:
        pass
    return searched[0]


def digest(s, net: PolicyValueNet) -> str:
    """What two checkouts must share for their rates to compare: game, search, games in flight, weights."""
    sha = hashlib.sha256()
    config = s.selfplay
    sha.update(repr((s.game.info.name, sorted(s.game.info.params.items()), s.search)).encode())
    sha.update(repr((config.concurrent_games, config.temperature_moves, config.full_search_share)).encode())
    for tensor in net.state_dict().values():
        sha.update(tensor.detach().cpu().numpy().tobytes())
    return sha.hexdigest()[:12]


def measure(name: str, positions: int, clock) -> tuple[int, float, str]:
    """Positions, seconds and digest of one game's timed self-play in the imported checkout."""
    configs = Path(agents.__file__).resolve().parents[1] / "configs"  # the checkout's own recipes
    with initialize_config_dir(config_dir=str(configs), version_base="1.3"):
        s = build_settings(compose("train", overrides=RECIPES[name]))
    if s.torch_threads:
        torch.set_num_threads(s.torch_threads)
    torch.manual_seed(s.seed)
    net = PolicyValueNet.for_game(s.game.info, s.net).to(s.device)
    estimator = NetEstimator(s.game, net, s.device, s.inference)
    first_moves(s.game, s.search, estimator, s.selfplay, s.seed, 1)  # one wave: compiling, the first export
    start = clock()
    done = first_moves(s.game, s.search, estimator, s.selfplay, s.seed, positions)
    return done, clock() - start, digest(s, net)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=list(RECIPES), help=f"of {', '.join(RECIPES)} (default: all)")
    parser.add_argument("--positions", type=int, default=256, help="positions to record per game (default 256)")
    parser.add_argument("--cpu-time", action="store_true", help="this process's CPU seconds, not wall time")
    args = parser.parse_args()
    unknown = [name for name in args.games if name not in RECIPES]
    if unknown:
        parser.error(f"unknown game {', '.join(unknown)}; the games: {', '.join(RECIPES)}")
    if args.positions < 1:
        parser.error(f"--positions must be a positive integer, got {args.positions}")
    clock = time.process_time if args.cpu_time else time.perf_counter
    print(header())
    for name in args.games:
        print(row(name, *measure(name, args.positions, clock)))


WIDTH = max(len(name) for name in RECIPES) + 2


def header() -> str:
    return f"{'game':<{WIDTH}}{'via':<10}{'positions':>10}{'seconds':>10}{'positions/s':>13}  digest"


def row(name: str, positions: int, seconds: float, setup: str) -> str:
    """A game's row (``benchmarks/compare_checkouts.py`` reads it back)."""
    return f"{name:<{WIDTH}}{VIA:<10}{positions:>10}{seconds:>10.2f}{positions / seconds:>13.2f}  {setup}"


if __name__ == "__main__":
    main()
