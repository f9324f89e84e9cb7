"""Biqala's compiled rules (``Biqala.compiled()``, ``envs.games.biqala.kernels``) against the
engine: rows of random positions (transfers under way, captures, grand slams, feeding, the cycle
rule and ends) round-trip and step as the engine does, the random playout is
``random_playout``'s, and the search driver gives the reference search's results."""

import pytest
from compiled_rows import assert_playouts_are_the_engines, assert_rows_follow_the_engine, assert_search_is_the_reference
from compiled_rows import random_games as games

from envs import make_game
from envs.games.biqala.game import PUT

CONFIGS = [
    {},
    {"outer_seeds": 1, "inner_seeds": 1},  # feeding and empty sides
    {"outer_seeds": 5, "inner_seeds": 2, "idle_limit": 6, "max_turns": 40},  # the cycle rule
]


def same_state(a, b) -> bool:
    fields = ("board", "stores", "player", "source", "idle", "turns")
    return all(getattr(a, f) == getattr(b, f) and type(getattr(a, f)) is type(getattr(b, f)) for f in fields)


@pytest.mark.parametrize("params", CONFIGS, ids=[str(p) for p in CONFIGS])
def test_rows_step_as_the_engine(params):
    game = make_game("biqala", **params)
    states = games(game, range(6))
    met = assert_rows_follow_the_engine(game, states, same_state)
    assert met["ends"] == 6 and met["actions"] > 300
    assert any(state.source >= 0 for state in states)  # transfers under way
    assert any(a >= PUT for state in states for a in game.legal_actions(state))


@pytest.mark.parametrize("params", CONFIGS, ids=[str(p) for p in CONFIGS])
def test_the_row_playout_is_the_engines(params):
    game = make_game("biqala", **params)
    assert assert_playouts_are_the_engines(game, games(game, range(3))[::7]) >= 10


def test_the_driver_gives_the_reference_results():
    game = make_game("biqala")
    assert_search_is_the_reference(game, games(game, [3])[::10])
