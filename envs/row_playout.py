"""A random game over any ``envs.compiled.CompiledGame``'s row, by its registered ``legal``,
``apply`` and ``to_play``: the playout a game registers (and its ``Game.random_playout`` and
``Game.cut_playout``) written once over the rules, drawing as the engine loop does
(``Game.engine_playout``), so the kernels' game is the engine's for the same seed."""

from __future__ import annotations

import numpy as np
from numba import njit

from envs import compiled
from envs.core import TERMINAL
from envs.kernels import CUT, draw


@njit(cache=True)
def random_play(context, row, seed, cut, options):
    """``(outcome, decisions, turns)`` of a random game played on ``row`` in place (not over):
    one ``envs.kernels.draw`` from the stream at ``seed`` per decision over ``legal`` (into
    ``options``, room for the most legal actions), turns ending where the seat to play
    changes; ``outcome`` 0 a draw, 1 or 2 the seat with the positive return + 1, or ``CUT``
    once ``cut`` turns have ended (-1: never), the row then where the game stopped."""
    decisions = turns = 0
    mover = compiled.to_play(context, row)
    while mover != TERMINAL:
        if turns == cut:
            return CUT, decisions, turns
        index, seed = draw(seed, compiled.legal(context, row, options))
        compiled.apply(context, row, options[index])
        decisions += 1
        player = compiled.to_play(context, row)
        turns += player != mover
        mover = player
    returns = np.zeros(2)
    compiled.returns(context, row, returns)
    return (1 if returns[0] > 0 else 2 if returns[1] > 0 else 0), decisions, turns
