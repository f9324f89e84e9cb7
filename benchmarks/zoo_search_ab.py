"""One zoo network under two search settings, head to head:
``python benchmarks/zoo_search_ab.py NAME A B [--games N] [--opening K] [--seed S]``.

``A`` and ``B`` are ``SIMS[,KEY=VALUE...]``: the budget and any ``agent.search``
settings that differ from those ``zoo:NAME:SIMS`` plays with, e.g. ``32`` (as
``zoo:NAME:32`` plays) against ``32,playout_mix=0.5`` (random playouts mixed into the
leaf values, as the Hex, Nex, Y and Neu-Y networks trained). Seats alternate; every game starts from ``--opening``
random turns, so that searches without randomness still play varied games. Prints A's
wins, by seat, and the 95% interval of its score.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys

import numpy as np
import torch

from agents.evaluation.intervals import score_interval
from agents.evaluation.runner import play_game
from agents.net.zoo import ZooError, load_network, read_card
from agents.players.az_player import network_player
from agents.players.mcts_player import SearchPlayer
from agents.search.mcts import SearchConfig
from agents.search.mcts.config import with_settings
from envs.core import make_game


def search_config(played: SearchConfig, text: str) -> SearchConfig:
    """``SIMS[,KEY=VALUE...]`` over ``played``, the settings ``zoo:NAME`` plays with."""
    budget, *pairs = text.split(",")
    return SearchConfig(**with_settings(dataclasses.asdict(played), [f"num_simulations={budget}", *pairs]))


def main(argv: list[str] | None = None) -> int:
    arguments = argparse.ArgumentParser(
        prog="python benchmarks/zoo_search_ab.py", description=__doc__.split("\n\n")[1].replace("\n", " ")
    )
    arguments.add_argument("name", help="the zoo network (agents/net/zoo/NAME.pt), at its own game and size")
    arguments.add_argument("a", help="SIMS[,KEY=VALUE...]: the first search")
    arguments.add_argument("b", help="SIMS[,KEY=VALUE...]: the second search")
    arguments.add_argument("--games", type=int, default=100, help="games, seats alternating (default 100)")
    arguments.add_argument("--opening", type=int, default=2, help="random turns before the searches play (default 2)")
    arguments.add_argument("--seed", type=int, default=1, help="the games' generator seed (default 1)")
    args = arguments.parse_args(argv)
    torch.set_num_threads(1)
    try:
        card = read_card(args.name)
        game = make_game(card["game"]["name"], **card["game"]["params"])
        net, trained, play = load_network(args.name, game)
        zoo_player = network_player(game, net, trained, play=play)  # its settings and estimator, as zoo:NAME plays
        configs = [search_config(zoo_player.mcts.config, text) for text in (args.a, args.b)]
        players = [SearchPlayer(game, zoo_player.estimator, config) for config in configs]
    except (ZooError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    rng, points = np.random.default_rng(args.seed), [0.0, 0.0]
    for index in range(args.games):
        seat = index % 2
        lineup = [players[1], players[1]]
        lineup[seat] = players[0]
        winner = play_game(game, lineup, rng, opening=args.opening).winner
        points[seat] += 0.5 if winner is None else float(winner == seat)
    low, high = score_interval(sum(points), args.games)
    print(
        f"{args.name}: A ({args.a}) against B ({args.b}): A scores {sum(points):g} of {args.games}, "
        f"{sum(points) / args.games:.1%} ({low:.1%}-{high:.1%}); {points[0]:g} as seat 0, {points[1]:g} as seat 1"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
