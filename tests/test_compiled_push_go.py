"""Push Go's compiled rules (``PushGo.compiled()``, ``envs.games.push_go.kernels``) against the
engine: rows of random positions (both ko rules and push forms, pushes, kos, passes, repetitions
and ends) round-trip and step as the engine does, the random playout is ``random_playout``'s, and
the search driver gives the reference search's results."""

import numpy as np
import pytest
from compiled_rows import assert_playouts_are_the_engines, assert_rows_follow_the_engine, assert_search_is_the_reference
from compiled_rows import random_games as games

from envs import make_game
from envs.games.push_go.kernels import pack_keys, unpack_keys

CONFIGS = [
    {"size": 4},
    {"size": 5, "push_form": "move", "komi": 0},
    {"size": 4, "ko": "push"},  # seed 5's game cycles to a third repetition (tests/test_push_go.py)
    {"size": 5, "ko": "push", "push_form": "move", "max_turns": 30},
    {"size": 7, "komi": -2.5, "max_turns": 40},
]


def same_state(a, b) -> bool:
    fields = ("board", "previous", "player", "passes", "turns", "repeats", "seen")
    return all(getattr(a, f) == getattr(b, f) for f in fields) and type(a.board) is bytearray


@pytest.mark.parametrize("params", CONFIGS, ids=[str(p) for p in CONFIGS])
def test_rows_step_as_the_engine(params):
    game = make_game("push_go", **params)
    states = games(game, range(6))
    met = assert_rows_follow_the_engine(game, states, same_state)
    assert met["ends"] == 6 and met["actions"] > 100
    assert any(game.turn_kind(state, [a]) == "push" for state in states for a in game.legal_actions(state))


def test_a_third_repetition_ends_the_row_drawn():
    game = make_game("push_go", size=4, ko="push")
    state = games(game, [5])[-1]
    assert state.repeats == 3 and game.returns(state) == (0.0, 0.0)
    assert_rows_follow_the_engine(game, [state], same_state)


def test_position_keys_pack_and_unpack():
    rng = np.random.default_rng(0)
    for cells in (4, 15, 16, 81, 361):
        keys = rng.integers(0, 3, size=(7, cells + 1)).astype(np.uint8)
        keys[:, -1] = rng.integers(0, 2, size=7)
        packed = pack_keys(keys)
        assert packed.dtype == np.int32 and packed.shape == (7, -(-(cells + 1) // 16))
        np.testing.assert_array_equal(unpack_keys(packed, cells), keys)
        assert len({row.tobytes() for row in packed}) == len({row.tobytes() for row in keys})


@pytest.mark.parametrize("params", CONFIGS, ids=[str(p) for p in CONFIGS])
def test_the_row_playout_is_the_engines(params):
    game = make_game("push_go", **params)
    assert assert_playouts_are_the_engines(game, games(game, range(2))[::5]) >= 5


@pytest.mark.parametrize("params", [{"size": 5}, {"size": 4, "ko": "push", "push_form": "move"}], ids=str)
def test_the_driver_gives_the_reference_results(params):
    game = make_game("push_go", **params)
    assert_search_is_the_reference(game, games(game, [3])[::6])


def test_a_wrong_history_is_refused_by_name():
    game = make_game("push_go", size=3, ko="push", max_turns=2)
    state = game.initial_state()
    state.seen = state.seen * 4
    with pytest.raises(ValueError, match="a position with 4 earlier positions; the rows hold 3"):
        game.compiled().encode(state)
