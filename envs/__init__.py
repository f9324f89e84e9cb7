"""neuzero games: exact engines (``make_game``) and Gymnasium environments.

Importing ``envs`` registers every game with the engine registry and every
environment id with Gymnasium, e.g. ``gymnasium.make("Odoku-v0")``.
"""

import inspect
from importlib import import_module

import gymnasium

import envs.numba_cache  # noqa: F401  (first: numba's cache folder before any kernel)
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
from envs.env import NO_SEAT

# name -> (Gymnasium id, "module:class", display name for pages and tables; the registry name is for code and configs)
GAMES = {
    "odoku": ("Odoku-v0", "envs.games.odoku.game:Odoku", "Odoku"),
    "nex": ("Nex-v0", "envs.games.hex.game:Nex", "Nex"),
    "neumoku": ("Neumoku-v0", "envs.games.gomoku.game:Neumoku", "Neumoku"),
    "neuversi": ("NeuVersi-v0", "envs.games.reversi.game:NeuVersi", "NeuVersi"),
    "adneuversi": ("AdNeuVersi-v0", "envs.games.reversi.game:AdNeuVersi", "AdNeuVersi"),
    "neuy": ("NeuY-v0", "envs.games.y.game:NeuY", "Neu-Y"),
    "hex": ("Hex-v0", "envs.games.hex.game:Hex", "Hex"),
    "gomoku": ("Gomoku-v0", "envs.games.gomoku.game:Gomoku", "Gomoku"),
    "reversi": ("Reversi-v0", "envs.games.reversi.game:Reversi", "Reversi"),
    "y": ("Y-v0", "envs.games.y.game:Y", "Y"),
    "sudoku_moyo": ("SudokuMoyo-v0", "envs.games.sudoku_moyo.game:SudokuMoyo", "Sudoku Moyo"),
    "amazons": ("Amazons-v0", "envs.games.amazons.game:Amazons", "Amazons"),
    "progressive_amazons": (
        "ProgressiveAmazons-v0",
        "envs.games.amazons.game:ProgressiveAmazons",
        "Progressive Amazons",
    ),
    "hexxagon": ("Hexxagon-v0", "envs.games.hexxagon.game:Hexxagon", "Hexxagon"),
    "hexxagon_1344": ("Hexxagon1344-v0", "envs.games.hexxagon.game:Hexxagon1344", "Hexxagon 1344"),
    "send_it": ("SendIt-v0", "envs.games.send_it.game:SendIt", "Send It"),
    "biqala": ("Biqala-v0", "envs.games.biqala.game:Biqala", "Biqala"),
    "push_go": ("PushGo-v0", "envs.games.push_go.game:PushGo", "Push Go"),
    "hop_chess": ("HopChess-v0", "envs.games.hop_chess.game:HopChess", "Hop Chess"),
    "biversi": ("Biversi-v0", "envs.games.biversi.game:Biversi", "Biversi"),
    "blockdance": ("Blockdance-v0", "envs.games.blockdance.game:Blockdance", "Blockdance"),
    "four_way_walls": ("FourWayWalls-v0", "envs.games.four_way_walls.game:FourWayWalls", "Four-Way Walls"),
    "connect_four": ("ConnectFour-v0", "envs.games.connect_four.game:ConnectFour", "Connect Four"),
}
TITLES = {name: title for name, (_, _, title) in GAMES.items()}  # name -> display name


def game_title(name: str) -> str:
    """Game ``name``'s display name: ``game_title("hop_chess") == "Hop Chess"``."""
    return TITLES[name]


def _factory(target: str):
    module, name = target.split(":")

    def build(**kwargs):
        return getattr(import_module(module), name)(**kwargs)

    return build


def game_defaults(name: str) -> dict:
    """Game ``name``'s config entry: its name and every constructor argument with its default,
    ``game_defaults("nex") == {"name": "nex", "size": 11, "pie_rule": False}``. The constructors
    hold the defaults; the ``game`` config group is made of these entries."""
    module, cls = GAMES[name][1].split(":")
    parameters = inspect.signature(getattr(import_module(module), cls)).parameters.values()
    return {"name": name} | {p.name: p.default for p in parameters}


def make_vec(env_id: str, num_envs: int = 1, **kwargs):
    """N games of one game stepped together by one compiled call, as a Gymnasium ``VectorEnv``:
    ``make_vec("Hex-v0", num_envs=1024, size=11)``. ``env_id`` is a Gymnasium id or a
    registry name; ``kwargs`` are those of ``envs.vector.vector_env.BatchedBoardGameEnv``
    (``opponent``, ``agent_seat``, ``illegal_action``, ``render_mode``) and the game's."""
    from envs.vector.vector_env import BatchedBoardGameEnv

    names = {env: name for name, (env, _, _) in GAMES.items()}
    name = names.get(env_id, env_id)
    if name not in GAMES:
        raise ValueError(f"unknown env id {env_id!r}; known ids: {', '.join(names)}")
    return BatchedBoardGameEnv(name, num_envs=num_envs, **kwargs)


for _name, (_env_id, _target, _) in GAMES.items():
    register_game(_name, _factory(_target))
    if _env_id not in gymnasium.registry:
        gymnasium.register(_env_id, entry_point="envs.env:BoardGameEnv", kwargs={"game": _name})

__all__ = [
    "CHANCE",
    "GAMES",
    "TERMINAL",
    "TITLES",
    "Game",
    "GameError",
    "GameInfo",
    "GameOverError",
    "IllegalActionError",
    "NO_SEAT",
    "NotationError",
    "Symmetry",
    "game_defaults",
    "game_names",
    "game_title",
    "make_game",
    "make_vec",
    "register_game",
    "winner_of",
]
