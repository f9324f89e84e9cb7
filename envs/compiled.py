"""A game's rules as numba functions over a flat array state: the compiled search, playouts and
batched env of every game that has them.

A game that returns a :class:`CompiledGame` from ``Game.compiled()`` lets the search driver
(``agents.search.mcts.driver``), the random playouts (``envs.row_playout``) and ``envs.make_vec``
(``envs.vector.compiled_batch``) step positions without Python objects: a position is one int32
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

import inspect
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


# by arity: a numba implementation that calls ``function`` with the protocol function's arguments
# (named, not ``*args``: numba cannot inline a game's function called with ``*args``)
_FORWARD = {
    2: lambda function: lambda context, row: function(context, row),
    3: lambda function: lambda context, row, a: function(context, row, a),
    4: lambda function: lambda context, row, a, b: function(context, row, a, b),
}


@njit(cache=True)
def _no_chance(context, row, outcomes, probs):
    return 0


def _protocol(name: str, arity: int, doc: str):
    """The protocol's function ``name`` (called in numba): each call runs the function the
    context's game registered under ``name``."""

    def function(*args):
        raise NotImplementedError("envs.compiled functions run inside numba kernels only")

    def typer(context, *args):
        implementation = _implementation(name, context)
        if implementation is None and name == "chance" and _implementation("legal", context) is not None:
            implementation = _no_chance  # no chance nodes: drivers never ask, but their kernels compile the call
        return None if implementation is None else _FORWARD[arity](implementation)

    typer.__signature__ = inspect.signature(_FORWARD[arity](None))  # what numba checks the forward against
    function.__name__ = function.__qualname__ = name
    function.__doc__ = doc
    overload(function, jit_options={"cache": True})(typer)
    return function


legal = _protocol(
    "legal",
    3,
    "``legal(context, row, out)``: the legal actions of ``row`` into ``out[:count]``, increasing; the count.",
)
apply = _protocol("apply", 3, "``apply(context, row, action)``: play the legal ``action`` on ``row`` in place.")
to_play = _protocol("to_play", 2, "``to_play(context, row)``: the seat to move, ``envs.core.CHANCE`` or ``TERMINAL``.")
returns = _protocol(
    "returns", 3, "``returns(context, row, out)``: the per-seat returns into ``out`` (zeros before the end)."
)
playout = _protocol("playout", 4, "``playout(context, row, seed, out)``: the returns of a random playout into ``out``.")
observe = _protocol("observe", 3, "``observe(context, row, out)``: ``game.observe`` of the row's state into ``out``.")
chance = _protocol(
    "chance",
    4,
    "``chance(context, row, outcomes, probs)``: a chance row's outcomes and their probabilities, "
    "in ``game.chance_outcomes``' order; the count.",
)


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
