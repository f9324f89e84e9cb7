"""Odoku's exact perfect player (random-turn theorem, docs/games/odoku.md)."""

from __future__ import annotations

import numpy as np

from agents.players.player import Player, no_args
from envs.core import Game
from envs.games.odoku.game import Odoku, optimal_actions


class OdokuOracle(Player):
    """Plays a move that is optimal for the seat to move; ties broken by ``rng``.

    Exact for the fair coin (the default). With a biased coin the random-turn
    theorem no longer holds and this player is the fair-coin heuristic.
    """

    name = "oracle"

    def act(self, state, rng: np.random.Generator) -> int:
        best = optimal_actions(state)
        return best[int(rng.integers(len(best)))]


def make_oracle_player(game: Game, args: list[str]) -> Player:
    no_args("oracle", args)
    if not isinstance(game, Odoku):
        raise ValueError(f"the oracle player exists for Odoku only, not {game.info.name!r}")
    return OdokuOracle()
