"""Biversi's compiled rules (``envs.games.biversi.kernels``, the engine's): forced passes applied
to rows, and the search driver against the reference search (rows of random games against an
independent reading: ``tests/test_conformance_games.py``)."""

from compiled_rows import assert_search_is_the_reference
from compiled_rows import random_games as games
from conformance import check_positions

from envs import make_game


def test_a_forced_pass_steps_as_the_engine():
    game = make_game("biversi", size=6)
    states = [s for s in games(game, range(40)) if game.legal_actions(s) == [game.PASS]]
    assert len(states) >= 2  # forced passes are rare: 2 in these 40 games
    assert check_positions(game, states) == len(states)  # the pass, applied to each row


def test_the_driver_gives_the_reference_results():
    game = make_game("biversi", size=6)
    assert_search_is_the_reference(game, games(game, [3])[::4])
