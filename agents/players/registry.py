"""The registry of player specs: ``make_player(spec, game)``.

Specs are short strings, as on the command line: ``random``, ``greedy``,
``mcts:N``, ``hmcts:N[:TURNS]``, ``az:PATH[:SIMS]``, ``zoo[:GAME[@any]][:SIMS]``, ``oracle``,
``solver``, ``human``. Each kind maps to a factory ``(game, args) -> Player``, imported on first use, so a
spec that needs torch (``az``) imports it only when it is asked for. A spec may
carry a display name for tables, plots and records: ``me=az:PATH:64``; without
one, :func:`display_names` shortens checkpoint paths to their file names.

Importing this module also registers every kind with :mod:`envs.opponents`, so
the same specs name an env's opponent (``gymnasium.make("Nex-v0",
opponent="mcts:200")``); ``envs`` imports ``agents`` on the first spec it does
not know, so users need not import it themselves.
"""

from __future__ import annotations

import re
from importlib import import_module
from pathlib import Path, PurePath
from typing import Callable, Sequence

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
    "hmcts": (
        "agents.players.mcts_player:make_hmcts_player",
        "hmcts:N[:TURNS]: MCTS with N random rollouts cut after TURNS turns, scored by the game's heuristic",
    ),
    "az": (
        "agents.players.az_player:make_az_player",
        "az:PATH[:SIMS]: a training checkpoint with its search (SIMS=0: the raw network)",
    ),
    "zoo": (
        "agents.players.zoo_player:make_zoo_player",
        "zoo[:GAME[@any]][:SIMS]: the zoo's network for this game (agents/net/zoo/, python evaluate.py "
        "mode=zoo); @any: also at board sizes it was not trained on",
    ),
    "oracle": ("agents.players.oracle:make_oracle_player", "oracle: Odoku's exact perfect player"),
    "solver": ("agents.players.solver_player:make_solver_player", "solver: exact alpha-beta player for tiny boards"),
    "human": (
        "agents.players.human:make_human_player",
        "human: a person at the terminal (the notation of docs/games/NAME.md)",
    ),
}


_NAMED_SPEC = re.compile(r"^([A-Za-z0-9_.+-]+)=(.+)$")


def split_name(spec: str) -> tuple[str | None, str]:
    """``"me=az:PATH"`` -> ``("me", "az:PATH")``; a spec without a name -> ``(None, spec)``."""
    match = _NAMED_SPEC.match(spec.strip())
    return (match.group(1), match.group(2)) if match else (None, spec.strip())


def display_names(specs: Sequence[str]) -> list[str]:
    """Distinct short names for a lineup: the given names, other specs as written
    except checkpoint paths, which keep just enough of their path to stay distinct
    (``az:ckpt_step0000009:4``, then ``az:2026-11-30_12-00-00/ckpt_step0000009``)."""
    parsed = [split_name(spec) for spec in specs]
    for depth in range(1, 64):
        names = [name or _short_spec(spec, depth) for name, spec in parsed]
        if len(set(names)) == len(names):
            return names
    raise ValueError(f"players must have distinct names, got {list(specs)}")


def _short_spec(spec: str, depth: int) -> str:
    kind, *args = spec.split(":")
    if kind != "az" or not args:
        return spec
    path, sims = _az_path_and_rest(args)
    parts = [part for part in PurePath(path).with_suffix("").parts if part != "checkpoints"]
    return ":".join(["az", "/".join(parts[-depth:]), *sims])


def _az_path_and_rest(args: list[str]) -> tuple[str, list[str]]:
    if len(args) > 1 and len(args[0]) == 1 and args[1].startswith(("\\", "/")):
        args = [args[0] + ":" + args[1], *args[2:]]  # a Windows drive letter in the path
    return args[0], args[1:]


def network_file(spec: str, game_name: str) -> Path | None:
    """The file whose network spec ``spec`` plays in game ``game_name`` (``az:PATH``'s checkpoint,
    ``zoo``'s weights, which hold its search settings too); None for a spec without one."""
    _, spec = split_name(spec)
    kind, *args = spec.split(":")
    if kind == "az" and args:
        return Path(_az_path_and_rest(args)[0])
    if kind == "zoo":
        from agents.net.zoo import weights_path  # torch: only for a spec that plays a network
        from agents.players.zoo_player import zoo_spec

        return weights_path(zoo_spec(args, game_name).name)
    return None


def make_player(spec: str, game: Game) -> Player:
    """Build a player from its spec string for ``game``; unknown specs list the forms."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"player spec must be a non-empty string, got {spec!r}")
    name, spec = split_name(spec)
    kind, *args = spec.split(":")
    if kind == "az" and args:
        path, rest = _az_path_and_rest(args)
        args = [path, *rest]
    try:
        factory, _ = PLAYER_SPECS[kind]
    except KeyError:
        forms = "\n  ".join(help_text for _, help_text in PLAYER_SPECS.values())
        raise ValueError(f"unknown player spec {spec!r}; the forms are:\n  {forms}") from None
    if isinstance(factory, str):
        module, function = factory.split(":")
        factory = getattr(import_module(module), function)
    player = factory(game, args)
    player.name = name or spec
    return player


for _kind in PLAYER_SPECS:
    register_opponent_kind(_kind, make_player)
