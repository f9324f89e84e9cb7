"""A game's rules as numba functions over a flat array state, for compiled search drivers.

A game that returns a :class:`CompiledGame` from ``Game.compiled()`` lets a driver (the MCTS's
``agents.search.mcts.driver``) step positions without Python objects: a position is one int32
row of ``width`` entries, and numba kernels call the functions of this module on it::

    count = legal(context, row, out)       # legal actions into out[:count], increasing
    apply(context, row, action)            # in place; the action must be legal
    player = to_play(context, row)         # a seat, envs.core.CHANCE or envs.core.TERMINAL
    returns(context, row, out)             # per-seat returns into out (zeros before the end)
    playout(context, row, seed, out)       # returns of one random playout into out, drawing
                                           # from the envs.kernels.draw stream at seed
    observe(context, row, out)             # optional: game.observe of the row's state into out
                                           # (float32 [planes, n, n], C-contiguous, every entry set)
    count = chance(context, row, outcomes, probs)  # a game with chance nodes: a chance row's
                                           # outcomes into outcomes[:count] (int64) and their
                                           # probabilities into probs[:count] (float64), in
                                           # game.chance_outcomes' order

``context`` (``CompiledGame.context``) holds the game's constants in a namedtuple whose class
picks the game's implementations: a game joins by :func:`register` ing its functions for its
context class, and numba specialises each driver kernel on the context's type, so the driver
stays one piece of code and its kernels stay in numba's on-disk cache. ``observe`` and
``chance`` are optional (``OPTIONAL``): :func:`provides` tells whether a game registered
them. A driver without ``observe`` builds a network's input from decoded states instead;
a game registers ``chance`` exactly when its rows can be chance nodes (``to_play`` gives
``CHANCE``), and then ``apply(context, row, outcome)`` plays an outcome there,
``CompiledGame.max_chance`` bounds its count, and every outcome leads to a decision or
terminal row (the compiled driver stops with an error at a chance row after a chance row).
``playout`` starts from decision rows only.

``encode(state)`` gives a state's row and ``decode(row)`` a state equal to the one the Python
engine reaches by the same actions; ``playout`` plays the same game as
``game.random_playout(state, rng)`` when ``seed = envs.kernels.playout_seed(rng)``, so a driver
that draws seeds in the engine's order gives the same rollout values. Each game registers its
functions in a module of its own (the placement games and Reversi in ``envs.stones.compiled``, the
neutral games in ``envs.neutral.compiled``, the others in their folders); :func:`rules_module`
names it, and the games table (``docs/games/index.md``, generated) says which games have compiled
rules.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit
from numba.extending import overload


class CompiledGame:
    """A game's flat int32 rows and the context its registered functions take (module docstring).

    Subclasses set ``width`` (entries of a row), ``max_legal`` (most legal actions a position
    can have), ``max_chance`` (most outcomes a chance node can have; 0 without chance nodes)
    and ``context`` (a namedtuple of a registered class), and give ``encode`` and ``decode``."""

    width: int
    max_legal: int
    max_chance: int = 0
    context: Any

    def encode(self, state) -> np.ndarray:
        """The row of ``state`` (int32 ``[width]``)."""
        raise NotImplementedError

    def decode(self, row: np.ndarray):
        """The engine state of ``row``."""
        raise NotImplementedError


_IMPLEMENTATIONS: dict[type, dict[str, Any]] = {}  # context class -> function name -> njit function
NAMES = ("legal", "apply", "to_play", "returns", "playout")
OPTIONAL = ("observe", "chance")  # a game may leave these out


def register(context_class: type, **functions) -> None:
    """The numba functions (keywords ``NAMES``, and any of ``OPTIONAL``) that serve contexts
    of ``context_class``."""
    missing, unknown = set(NAMES) - set(functions), set(functions) - set(NAMES) - set(OPTIONAL)
    if missing or unknown:
        raise ValueError(f"register needs the functions {NAMES} and may add {OPTIONAL}, got {sorted(functions)}")
    _IMPLEMENTATIONS[context_class] = functions


def provides(compiled: CompiledGame, name: str) -> bool:
    """Whether ``compiled``'s game registered the function ``name`` (one of ``OPTIONAL``)."""
    return name in _IMPLEMENTATIONS.get(type(compiled.context), {})


def rules_module(compiled: CompiledGame) -> str:
    """The module whose ``legal`` serves ``compiled``'s game (where its rules are written), dotted."""
    legal = _IMPLEMENTATIONS[type(compiled.context)]["legal"]
    return getattr(legal, "py_func", legal).__module__


def _implementation(name: str, context):
    functions = _IMPLEMENTATIONS.get(getattr(context, "instance_class", None))
    return None if functions is None else functions.get(name)


def legal(context, row, out):
    """The legal actions of ``row`` into ``out[:count]`` in increasing order; the count (in numba)."""
    raise NotImplementedError("envs.compiled functions run inside numba kernels only")


def apply(context, row, action):
    """Play the legal ``action`` on ``row`` in place (in numba)."""
    raise NotImplementedError("envs.compiled functions run inside numba kernels only")


def to_play(context, row):
    """The seat to move at ``row``, ``envs.core.CHANCE`` or ``envs.core.TERMINAL`` (in numba)."""
    raise NotImplementedError("envs.compiled functions run inside numba kernels only")


def returns(context, row, out):
    """The per-seat returns of ``row`` into ``out`` (zeros before the end; in numba)."""
    raise NotImplementedError("envs.compiled functions run inside numba kernels only")


def playout(context, row, seed, out):
    """The returns of one random playout from ``row`` into ``out``, seeded by ``seed`` (in numba)."""
    raise NotImplementedError("envs.compiled functions run inside numba kernels only")


def observe(context, row, out):
    """``game.observe`` of the row's state into ``out`` (float32 ``[planes, n, n]``; in numba)."""
    raise NotImplementedError("envs.compiled functions run inside numba kernels only")


def chance(context, row, outcomes, probs):
    """A chance row's outcomes into ``outcomes[:count]`` and their probabilities into
    ``probs[:count]``, in ``game.chance_outcomes``' order; the count (in numba)."""
    raise NotImplementedError("envs.compiled functions run inside numba kernels only")


@njit(cache=True)
def observe_row(context, row, out):
    """The game's ``observe`` from Python (one row; the tests')."""
    observe(context, row, out)


@njit(cache=True)
def chance_row(context, row, outcomes, probs):
    """The game's ``chance`` from Python (one row; the tests')."""
    return chance(context, row, outcomes, probs)


@njit(cache=True)
def apply_row(context, row, action):
    """The game's ``apply`` from Python (one row; the tests')."""
    apply(context, row, action)


@overload(legal, jit_options={"cache": True})
def _legal(context, row, out):
    function = _implementation("legal", context)
    return None if function is None else (lambda context, row, out: function(context, row, out))


@overload(apply, jit_options={"cache": True})
def _apply(context, row, action):
    function = _implementation("apply", context)
    return None if function is None else (lambda context, row, action: function(context, row, action))


@overload(to_play, jit_options={"cache": True})
def _to_play(context, row):
    function = _implementation("to_play", context)
    return None if function is None else (lambda context, row: function(context, row))


@overload(returns, jit_options={"cache": True})
def _returns(context, row, out):
    function = _implementation("returns", context)
    return None if function is None else (lambda context, row, out: function(context, row, out))


@overload(playout, jit_options={"cache": True})
def _playout(context, row, seed, out):
    function = _implementation("playout", context)
    return None if function is None else (lambda context, row, seed, out: function(context, row, seed, out))


@overload(observe, jit_options={"cache": True})
def _observe(context, row, out):
    function = _implementation("observe", context)
    return None if function is None else (lambda context, row, out: function(context, row, out))


@overload(chance, jit_options={"cache": True})
def _chance(context, row, outcomes, probs):
    if _implementation("legal", context) is None:
        return None
    function = _implementation("chance", context)
    if function is None:  # a game without chance nodes: drivers never ask, but their kernels compile the call
        return lambda context, row, outcomes, probs: 0
    return lambda context, row, outcomes, probs: function(context, row, outcomes, probs)
