"""The zoo's networks as players: the ``zoo[:GAME][:SIMS]`` player spec.

``zoo`` plays the zoo's network for the game being played, ``zoo:GAME`` the
network named ``GAME`` (refused, naming both, unless it was trained for exactly
this game, rule set and board size); ``SIMS`` sets the search budget (default:
the budget it plays with: its card's ``play``, else the one it was trained with), ``0``
plays the raw network. The networks and
their cards are in ``agents/net/zoo/`` (``python evaluate.py mode=zoo``).
"""

from __future__ import annotations

from agents.net.zoo import load_network
from agents.players.az_player import network_player
from agents.players.player import Player
from envs.core import Game


def make_zoo_player(game: Game, args: list[str]) -> Player:
    """The ``zoo[:GAME][:SIMS]`` spec (``PLAYER_SPECS``)."""
    name, simulations = zoo_spec(args, game.info.name)
    net, search, play = load_network(name, game)
    return network_player(game, net, search, simulations, play)


def zoo_spec(args: list[str], game_name: str) -> tuple[str, int | None]:
    """The network a ``zoo[:GAME][:SIMS]`` spec's arguments name for game ``game_name``, and its
    budget (None: the network's own)."""
    if len(args) > 2 or any(not arg for arg in args):
        raise ValueError(f"player spec 'zoo' takes [:GAME][:SIMS], got {':'.join(['zoo', *args])!r}")
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
    return name, simulations
