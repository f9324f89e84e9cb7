"""The registry of player specs: ``make_player(spec, game)``.

Specs are short strings, as on the command line: ``random``, ``greedy``,
``mcts:N``, ``az:PATH[:SIMS]``, ``oracle``, ``solver``, ``human``. Each kind
maps to a factory ``(game, args) -> Player``, imported on first use, so a
spec that needs torch (``az``) imports it only when it is asked for.

Importing this module also registers every kind with :mod:`envs.opponents`, so
the same specs name an env's opponent (``gymnasium.make("Nex-v0",
opponent="mcts:200")``); ``envs`` imports ``agents`` on the first spec it does
not know, so users need not import it themselves.
"""

from __future__ import annotations

from importlib import import_module
from typing import Callable

from agents.players.player import Player, RandomPlayer, no_args
from envs.core import Game
from envs.opponents import register_opponent_kind


def _random(game: Game, args: list[str]) -> Player:
    no_args("random", args)
    return RandomPlayer(game)


# spec kind -> factory(game, args) or "module:function" imported on first use
PLAYER_SPECS: dict[str, tuple[str | Callable, str]] = {
    "random": (_random, "random: uniformly random legal actions"),
    "greedy": (
        "agents.players.greedy:make_greedy_player",
        "greedy: takes a win in one turn, avoids giving one, else random",
    ),
    "mcts": ("agents.players.mcts_player:make_mcts_player", "mcts:N: plain MCTS with N random rollouts per move"),
    "az": (
        "agents.players.az_player:make_az_player",
        "az:PATH[:SIMS]: a training checkpoint with its search (SIMS=0: the raw network)",
    ),
    "oracle": ("agents.players.oracle:make_oracle_player", "oracle: Odoku's exact perfect player"),
    "solver": ("agents.players.solver_player:make_solver_player", "solver: exact alpha-beta player for tiny boards"),
    "human": ("agents.players.human:make_human_player", "human: a person at the terminal (RULES.md notation)"),
}


def make_player(spec: str, game: Game) -> Player:
    """Build a player from its spec string for ``game``; unknown specs list the forms."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"player spec must be a non-empty string, got {spec!r}")
    kind, *args = spec.strip().split(":")
    if kind == "az" and len(args) > 1 and len(args[0]) == 1 and args[1].startswith(("\\", "/")):
        args = [args[0] + ":" + args[1], *args[2:]]  # a Windows drive letter in the path
    try:
        factory, _ = PLAYER_SPECS[kind]
    except KeyError:
        forms = "\n  ".join(help_text for _, help_text in PLAYER_SPECS.values())
        raise ValueError(f"unknown player spec {spec!r}; the forms are:\n  {forms}") from None
    if isinstance(factory, str):
        module, function = factory.split(":")
        factory = getattr(import_module(module), function)
    player = factory(game, args)
    player.name = spec
    return player


for _kind in PLAYER_SPECS:
    register_opponent_kind(_kind, make_player)
