"""Biversi's compiled rules (``Biversi.compiled()``, ``envs.games.biversi.kernels``): forced
passes and the turn's origins in the rows, and the search driver against the reference search (rows of random games against the engine: ``tests/test_conformance_games.py``, with
:func:`same_state`)."""

import numpy as np
from compiled_rows import assert_search_is_the_reference
from compiled_rows import random_games as games
from conformance import check_positions

from envs import make_game


def same_state(a, b) -> bool:
    return a.key() == b.key() and a.moves == b.moves and a.result == b.result and a.board.dtype == b.board.dtype


def test_a_forced_pass_steps_as_the_engine():
    game = make_game("biversi", size=6)
    states = [s for s in games(game, range(40)) if game.legal_actions(s) == [game.PASS]]
    assert len(states) >= 2  # forced passes are rare: 2 in these 40 games
    assert check_positions(game, states, same_state) == len(states)  # the pass, applied to each row


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
