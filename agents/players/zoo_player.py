"""The zoo's networks as players: the ``zoo[:GAME[@any]][:SIMS]`` player spec.

``zoo`` plays the zoo's network for the game being played, ``zoo:GAME`` the
network named ``GAME``: refused, naming both, unless it was trained for this game
and rule set and on this board size (a network trained across several sizes plays
each of them). ``zoo:GAME@any`` plays it at any board size of its game, trained on
it or not: for measuring how it transfers to a size it never saw (zero-shot).
``SIMS`` sets the search budget (default: the budget it plays with: its card's
``play``, else the one it was trained with), ``0`` plays the raw network. The
networks and their cards are in ``agents/net/zoo/`` (``python evaluate.py mode=zoo``).
"""

from __future__ import annotations

from typing import NamedTuple

from agents.net.zoo import load_network
from agents.players.az_player import network_player
from agents.players.player import Player
from envs.core import Game

ANY_SIZE = "@any"  # zoo:GAME@any: at any board size, zero-shot where it was not trained


class ZooSpec(NamedTuple):
    name: str  # the network
    simulations: int | None  # its budget; None: the network's own
    any_size: bool  # played at sizes it was not trained on too


def make_zoo_player(game: Game, args: list[str]) -> Player:
    """The ``zoo[:GAME[@any]][:SIMS]`` spec (``PLAYER_SPECS``)."""
    spec = zoo_spec(args, game.info.name)
    net, search, play = load_network(spec.name, game, any_size=spec.any_size)
    return network_player(game, net, search, spec.simulations, play)


def zoo_spec(args: list[str], game_name: str) -> ZooSpec:
    """What a ``zoo[:GAME[@any]][:SIMS]`` spec's arguments name for game ``game_name``."""
    written = ":".join(["zoo", *args])
    if len(args) > 2 or any(not arg for arg in args):
        raise ValueError(f"player spec 'zoo' takes [:GAME[{ANY_SIZE}]][:SIMS], got {written!r}")
    name, simulations = game_name, None
    if args and not args[-1].lstrip("-").isdigit():
        if len(args) == 2:
            raise ValueError(f"zoo:GAME:SIMS needs SIMS to be an integer >= 0, got {args[1]!r}")
        name = args[0]
    elif args:
        simulations = int(args[-1])
        if simulations < 0:
            raise ValueError(f"zoo:GAME:SIMS needs SIMS to be an integer >= 0, got {args[-1]!r}")
        name = args[0] if len(args) == 2 else name
    any_size = name.endswith(ANY_SIZE)
    name = name.removesuffix(ANY_SIZE)
    if not name or "@" in name:
        raise ValueError(f"player spec {written!r}: {ANY_SIZE} follows the network's name, as in zoo:GAME{ANY_SIZE}")
    return ZooSpec(name, simulations, any_size)
