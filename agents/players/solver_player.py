"""The exact player for tiny boards: the ``solver[:MAX_NODES]`` player spec."""

from __future__ import annotations

import numpy as np

from agents.players.player import Player
from agents.search.solver import DEFAULT_MAX_NODES, Solver
from envs.core import Game


class SolverPlayer(Player):
    """Plays an optimal micro-step, ties broken by ``rng`` (exact: tiny boards only)."""

    name = "solver"

    def __init__(self, game: Game, max_nodes: int = DEFAULT_MAX_NODES):
        self.solver = Solver(game, max_nodes)

    def act(self, state, rng: np.random.Generator) -> int:
        best = self.solver.optimal_actions(state)
        return best[int(rng.integers(len(best)))]


def make_solver_player(game: Game, args: list[str]) -> Player:
    """``solver`` or ``solver:MAX_NODES`` (the node budget of the search)."""
    if len(args) > 1 or (args and not args[0].isdigit()):
        raise ValueError(f"player spec 'solver' takes an optional node budget, e.g. solver:1000000; got {args}")
    return SolverPlayer(game, int(args[0]) if args else DEFAULT_MAX_NODES)
