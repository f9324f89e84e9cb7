"""The player interface every agent shares, and the simplest players.

A player is bound to one game and picks one action at a time, or one for each
of several positions at once (games played in lockstep)::

    player = make_player("oracle", game)   # agents.players.registry
    action = player.act(state, rng)        # rng: numpy Generator, passed in
    actions = player.act_many(states, rngs)   # act(states[i], rngs[i]) for each i
"""

from __future__ import annotations

import abc
from typing import Callable, Sequence

import numpy as np

from envs.core import Game


class Player(abc.ABC):
    """Chooses actions for whichever seat is to play in a decision state."""

    name: str = "player"
    # True for a player that remembers something between its moves (a plan, typed
    # input): one object must then play one game at a time, never several in lockstep.
    keeps_state: bool = False

    @abc.abstractmethod
    def act(self, state, rng: np.random.Generator) -> int:
        """A legal action for the seat to play in ``state`` (never a chance node)."""

    def act_many(self, states: Sequence, rngs: Sequence[np.random.Generator]) -> list[int]:
        """``act(states[i], rngs[i])`` for each position, in order; players with a
        network evaluate all the positions together, drawing from ``rngs[i]`` for
        position ``i`` exactly what ``act`` would."""
        return [self.act(state, rng) for state, rng in zip(states, rngs, strict=True)]

    def reset(self) -> None:
        """Forget anything kept between moves (called at the start of every game)."""


class CallablePlayer(Player):
    """Wraps a plain function ``policy(state, rng) -> action``."""

    def __init__(self, policy: Callable, name: str | None = None):
        self.policy = policy
        self.name = name or getattr(policy, "__name__", "callable")

    def act(self, state, rng):
        return int(self.policy(state, rng))


class RandomPlayer(Player):
    """Uniformly random among the legal actions."""

    name = "random"

    def __init__(self, game: Game):
        self.game = game

    def act(self, state, rng):
        actions = self.game.legal_actions(state)
        return actions[int(rng.integers(len(actions)))]


def no_args(kind: str, args: list[str]) -> None:
    if args:
        raise ValueError(f"player spec {kind!r} takes no arguments, got {':'.join(args)!r}")
