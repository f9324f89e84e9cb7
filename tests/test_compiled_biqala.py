"""Biqala's compiled search: the search driver gives the reference search's results (its rows
against the engine: ``tests/test_conformance_games.py``, with :func:`same_state`)."""

from compiled_rows import assert_search_is_the_reference
from compiled_rows import random_games as games

from envs import make_game


def same_state(a, b) -> bool:
    """Decoded and engine state alike, field by field, each of the same type."""
    fields = ("board", "stores", "player", "source", "idle", "turns")
    return all(getattr(a, f) == getattr(b, f) and type(getattr(a, f)) is type(getattr(b, f)) for f in fields)


def test_the_driver_gives_the_reference_results():
    game = make_game("biqala")
    assert_search_is_the_reference(game, games(game, [3])[::10])
