"""Rows for a game written in plain Python (``Game.compiled()`` is None), so that the one search
driver serves it too.

The driver's kernels (:mod:`~agents.search.mcts.driver`) step positions through
``envs.compiled``'s functions (``legal``, ``apply``, ``to_play``, ``returns``, ``playout``,
``chance``) on int32 rows. Here a row is one entry, a handle into :class:`PythonRows`' table
of engine states, and this module's functions of the same names call the ``Game``'s methods on
the state it names. ``driver.PYTHON_KERNELS`` holds the driver's kernels run as plain Python
(each numba function's ``py_func``) with these functions in place of ``envs.compiled``'s, so a
plain game runs the very lines that search a compiled game, in the interpreter: there is one
driver to read, test and change, and no second search to keep equal to it. The cost is speed
(every step interpreted, a state copied per new node), which is the plain game's path anyway.
"""

from __future__ import annotations

import numpy as np

from envs.compiled import CompiledGame

MAX_CHANCE = 1 << 16  # the most outcomes a plain game's chance node may have (the work arrays' size)


class PythonRows(CompiledGame):
    """One search's positions of a plain-Python game: row ``[k]`` is ``states[k]``.

    ``apply`` never changes a state: it appends the child to the table and points the row at
    it, so a row copied from its parent's (as the driver creates a child) keeps its own state.
    The context the functions take is the object itself."""

    width = 1

    def __init__(self, game):
        self.game, self.states = game, []
        self.max_legal = game.info.num_actions
        self.max_chance = MAX_CHANCE if game.info.has_chance else 0
        self.context = self

    def encode(self, state) -> np.ndarray:
        return np.array([self._add(state.copy())], dtype=np.int32)

    def decode(self, row: np.ndarray):
        """The state of ``row`` itself (the search's estimators must not modify it)."""
        return self.states[row[0]]

    def _add(self, state) -> int:
        self.states.append(state)
        return len(self.states) - 1


def legal(context, row, out):
    actions = context.game.legal_actions(context.states[row[0]])
    out[: len(actions)] = actions
    return len(actions)


def apply(context, row, action):
    state = context.states[row[0]].copy()
    context.game.apply(state, int(action))
    row[0] = context._add(state)


def to_play(context, row):
    return context.game.to_play(context.states[row[0]])


def returns(context, row, out):
    out[:] = context.game.returns(context.states[row[0]])


def playout(context, row, seed, out):
    """``game.random_playout`` with a generator seeded by ``seed``."""
    out[:] = context.game.random_playout(context.states[row[0]], np.random.default_rng(int(seed)))[0]


def chance(context, row, outcomes, probs):
    pairs = context.game.chance_outcomes(context.states[row[0]])
    if len(pairs) > len(outcomes):
        raise ValueError(
            f"{context.game.info.name}: a chance node with {len(pairs)} outcomes; the search takes at most {MAX_CHANCE}"
        )
    for k, (outcome, probability) in enumerate(pairs):
        outcomes[k], probs[k] = outcome, probability
    return len(pairs)
