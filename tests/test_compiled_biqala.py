"""Biqala's compiled search: the search driver gives the reference search's results (its rows
against the engine: ``tests/test_conformance_games.py``)."""

from compiled_rows import assert_search_is_the_reference
from compiled_rows import random_games as games

from envs import make_game


def test_the_driver_gives_the_reference_results():
    game = make_game("biqala")
    assert_search_is_the_reference(game, games(game, [3])[::10])
