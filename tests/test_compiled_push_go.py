"""Push Go's compiled rules (``PushGo.compiled()``, ``envs.games.push_go.kernels``): a third
repetition's row, the packed position keys, a refused history, and the search driver against
the reference search (rows of random games against the engine: ``tests/test_conformance_games.py``,
with :func:`same_state`)."""

import numpy as np
import pytest
from compiled_rows import assert_search_is_the_reference
from compiled_rows import random_games as games
from conformance import check_positions

from envs import make_game
from envs.games.push_go.kernels import pack_keys, unpack_keys


def same_state(a, b) -> bool:
    fields = ("board", "previous", "player", "passes", "turns", "repeats", "seen")
    return all(getattr(a, f) == getattr(b, f) for f in fields) and type(a.board) is bytearray


def test_a_third_repetition_ends_the_row_drawn():
    game = make_game("push_go", size=4, ko="push")
    state = games(game, [5])[-1]
    assert state.repeats == 3 and game.returns(state) == (0.0, 0.0)
    assert check_positions(game, [state], same_state) == 0  # the end: no actions


def test_position_keys_pack_and_unpack():
    rng = np.random.default_rng(0)
    for cells in (4, 15, 16, 81, 361):
        keys = rng.integers(0, 3, size=(7, cells + 1)).astype(np.uint8)
        keys[:, -1] = rng.integers(0, 2, size=7)
        packed = pack_keys(keys)
        assert packed.dtype == np.int32 and packed.shape == (7, -(-(cells + 1) // 16))
        np.testing.assert_array_equal(unpack_keys(packed, cells), keys)
        assert len({row.tobytes() for row in packed}) == len({row.tobytes() for row in keys})


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
