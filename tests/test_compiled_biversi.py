"""Biversi's compiled rules (``Biversi.compiled()``, ``envs.games.biversi.kernels``) against the
engine: rows of random positions (turns begun, sections apart and joined, forced passes, other
schedules and starts, ends) round-trip and step as the engine does, the random playout is
``random_playout``'s, and the search driver gives the reference search's results."""

import numpy as np
import pytest
from compiled_rows import assert_playouts_are_the_engines, assert_rows_follow_the_engine, assert_search_is_the_reference
from compiled_rows import random_games as games

from envs import make_game

CONFIGS = [
    {"size": 6},
    {"size": 8, "schedule": "123"},
    {"size": 6, "must_flank": False},
    {"size": 6, "must_flank": False, "start": "a1 c5 e3 / a2 c6 e4"},  # three sections
]


def same_state(a, b) -> bool:
    return a.key() == b.key() and a.moves == b.moves and a.result == b.result and a.board.dtype == b.board.dtype


@pytest.mark.parametrize("params", CONFIGS, ids=[str(p) for p in CONFIGS])
def test_rows_step_as_the_engine(params):
    game = make_game("biversi", **params)
    states = games(game, range(4))
    met = assert_rows_follow_the_engine(game, states, same_state)
    assert met["ends"] == 4 and met["actions"] > 200
    assert any(state.placed for state in states) and any(game.rules.apart(state.board) for state in states)


def test_a_forced_pass_steps_as_the_engine():
    game = make_game("biversi", size=6)
    states = [s for s in games(game, range(40)) if game.legal_actions(s) == [game.PASS]]
    assert states
    assert_rows_follow_the_engine(game, states[:5], same_state)


@pytest.mark.parametrize("params", CONFIGS[:2], ids=[str(p) for p in CONFIGS[:2]])
def test_the_row_playout_is_the_engines(params):
    game = make_game("biversi", **params)
    assert assert_playouts_are_the_engines(game, games(game, range(2))[::3]) >= 5


def test_the_driver_gives_the_reference_results():
    game = make_game("biversi", size=6)
    assert_search_is_the_reference(game, games(game, [3])[::4])


def test_the_rows_keep_the_turns_origins():
    game = make_game("biversi", size=6)
    compiled = game.compiled()
    state = games(game, [1])[5]
    decoded = compiled.decode(compiled.encode(state))
    assert decoded.origins == state.origins and len(state.origins) > 0
    assert np.array_equal(decoded.board, state.board)
