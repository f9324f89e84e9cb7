"""A game's compiled rules (``envs.compiled``) called on one row from Python, for the tests.

Cached: numba's cache folder is named by a hash of every numba module of the package
(``envs.numba_cache``), so a changed kernel compiles these again; they sit in a module of their
own because numba also compiles them again whenever this file changes."""

from numba import njit

from envs import compiled as rules
from envs.kit import legal_of, returns_of, to_play_of  # noqa: F401 (the tests import them from here)


@njit(cache=True)
def playout_of(context, row, seed, out):
    rules.playout(context, row, seed, out)


apply_to, observe_of, chance_of = rules.apply_row, rules.observe_row, rules.chance_row
