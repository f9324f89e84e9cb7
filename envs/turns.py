"""Complete turns: every way the seat to play can finish its turn.

A turn is one action in Odoku and one to three micro-steps by the same seat in
the neutral games (docs/rules.md, the encodings). From a decision state (also one in the
middle of a turn) the turns are found depth-first over micro-steps; a turn
ends when the seat to play changes, the game ends or a chance node comes::

    for actions, end in iter_turns(game, state):   # end: the state after the turn
        ...
"""

from __future__ import annotations

from typing import Iterator

from envs.core import Game


def iter_turns(game: Game, state) -> Iterator[tuple[tuple[int, ...], object]]:
    """Yield ``(actions, end_state)`` for every complete turn from ``state``
    (not modified), depth-first in action order; stop early by breaking."""
    mover = game.to_play(state)
    if mover < 0:
        raise ValueError("turns start at a decision state, not at a chance node or the end")
    return _extend(game, state, mover, ())


def _extend(game: Game, state, mover: int, prefix: tuple[int, ...]):
    for action in game.legal_actions(state):
        child = game.step(state, action)
        if game.to_play(child) == mover:
            yield from _extend(game, child, mover, (*prefix, action))
        else:
            yield (*prefix, action), child


def complete_turns(game: Game, state) -> list[tuple[int, ...]]:
    """The actions of every complete turn from ``state``."""
    return [actions for actions, _ in iter_turns(game, state)]
