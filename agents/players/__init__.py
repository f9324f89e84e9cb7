"""Players: the interface every agent shares, the spec registry, and every player.

:mod:`~agents.players.player` defines ``Player`` (``act(state, rng)``,
``reset()``) and the simplest players; :mod:`~agents.players.registry` turns a
spec string (``random``, ``greedy``, ``mcts:N``, ``az:PATH[:SIMS]``, ``oracle``,
``solver``, ``human``) into a player, importing each kind's module on first
use. One module per kind of player: ``greedy``, ``mcts_player`` (any
estimator's search; ``mcts:N``), ``az_player`` (a training checkpoint),
``oracle`` (Odoku's exact player), ``solver_player`` (exact on tiny boards) and
``human`` (a person at the terminal). Players use ``agents.search`` and
``agents.net``; only ``az`` imports torch.
"""

from agents.players.player import CallablePlayer, Player, RandomPlayer
from agents.players.registry import PLAYER_SPECS, make_player

__all__ = ["CallablePlayer", "PLAYER_SPECS", "Player", "RandomPlayer", "make_player"]
