"""neuzero games: exact engines (``make_game``) and Gymnasium environments.

Importing ``envs`` registers every game with the engine registry and every
environment id with Gymnasium, e.g. ``gymnasium.make("Odoku-v0")``.
"""

from importlib import import_module

import gymnasium

from envs.core import (
    CHANCE,
    TERMINAL,
    Game,
    GameError,
    GameInfo,
    GameOverError,
    IllegalActionError,
    NotationError,
    Symmetry,
    game_names,
    make_game,
    register_game,
    winner_of,
)

# name -> (Gymnasium id, "module:class", fixed keyword arguments)
GAMES = {
    "odoku": ("Odoku-v0", "envs.odoku:Odoku", {}),
    "nex": ("Nex-v0", "envs.neutral_games:Nex", {}),
    "neumoku": ("Neumoku-v0", "envs.neutral_games:Neumoku", {}),
    "neuversi": ("NeuVersi-v0", "envs.neutral_games:NeuVersi", {}),
    "adneuversi": ("AdNeuVersi-v0", "envs.neutral_games:AdNeuVersi", {}),
    "hex": ("Hex-v0", "envs.hex:Hex", {}),
    "gomoku": ("Gomoku-v0", "envs.gomoku:Gomoku", {}),
    "reversi": ("Reversi-v0", "envs.reversi:Reversi", {}),
    "sudoku_moyo": ("SudokuMoyo-v0", "envs.sudoku_moyo:SudokuMoyo", {}),
}


def _factory(target: str, fixed: dict):
    module, name = target.split(":")

    def build(**kwargs):
        return getattr(import_module(module), name)(**fixed, **kwargs)

    return build


for _name, (_env_id, _target, _fixed) in GAMES.items():
    register_game(_name, _factory(_target, _fixed))
    if _env_id not in gymnasium.registry:
        gymnasium.register(_env_id, entry_point="envs.env:BoardGameEnv", kwargs={"game": _name})

__all__ = [
    "CHANCE",
    "GAMES",
    "TERMINAL",
    "Game",
    "GameError",
    "GameInfo",
    "GameOverError",
    "IllegalActionError",
    "NotationError",
    "Symmetry",
    "game_names",
    "make_game",
    "register_game",
    "winner_of",
]
