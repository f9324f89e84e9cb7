"""Push Go's compiled rules (``PushGo.compiled()``, ``envs.games.push_go.kernels``): a third
repetition's row and the search driver against the reference search (rows of random games:
``tests/test_conformance_games.py``)."""

import pytest
from compiled_rows import assert_search_is_the_reference
from compiled_rows import random_games as games
from conformance import check_positions

from envs import make_game


def test_a_third_repetition_ends_the_row_drawn():
    game = make_game("push_go", size=4, ko="push")
    state = games(game, [5])[-1]
    assert state.repeats == 3 and game.returns(state) == (0.0, 0.0)
    assert check_positions(game, [state]) == 0  # the end: no actions


@pytest.mark.parametrize("params", [{"size": 5}, {"size": 4, "ko": "push", "push_form": "move"}], ids=str)
def test_the_driver_gives_the_reference_results(params):
    game = make_game("push_go", **params)
    assert_search_is_the_reference(game, games(game, [3])[::6])
