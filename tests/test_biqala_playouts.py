"""The compiled random playout of Biqala plays the engine loop's game: for the same seed, the
same draws over the same legal actions, so the same returns, the same number of decisions and
of turns (``Game.engine_playout`` is the loop). Positions come from random games (the start, a
transfer under way, a side to feed, one at random and the last ones before the end) with other
starts and short cycle and turn limits, and from the hand-made positions of the rules
(``tests/test_biqala.py``): captures, the grand slam, laps, feeding, transfers and every end."""

import numpy as np
import pytest
from test_biqala import position
from test_scheduled_playouts import assert_plays_the_engine_game, assert_scores_as_the_engine_loop, check_config

from envs import make_game
from envs.games.biqala.game import CELL_OF, SOW, TRANSFER, Biqala
from envs.kernels import draw, playout_seed

# other starts (big laps with 12 a cell), cycle and turn limits the random games reach
CONFIGS = [
    {},
    {"outer_seeds": 1, "inner_seeds": 1},
    {"outer_seeds": 2, "inner_seeds": 6},
    {"outer_seeds": 12, "inner_seeds": 12, "max_turns": 40},
    {"idle_limit": 4},
    {"outer_seeds": 5, "inner_seeds": 2, "idle_limit": 2},
    {"max_turns": 12},
    {"outer_seeds": 1, "inner_seeds": 3, "idle_limit": 6, "max_turns": 30},
]
BEGUN = (
    lambda s: s.source >= 0,  # a transfer under way
    lambda s: s.source >= 0 and s.board[s.source] == 1,  # its next put empties the source
    lambda s: s.on_side(1 - s.player) == 0,  # the opponent to feed
    lambda s: s.turns and s.idle == 0,  # just after a capture or transfer
)


@pytest.mark.parametrize("params", CONFIGS, ids=[str(p) for p in CONFIGS])
def test_the_kernel_plays_the_engine_loop_game(params):
    seeds = range(8)
    assert check_config("biqala", params, seeds, BEGUN) >= 5 * len(seeds)  # the start, a random one, the last three


@pytest.mark.slow
def test_thousands_of_positions_play_the_engine_loop_game():
    compared = sum(check_config("biqala", params, range(100, 200), BEGUN) for params in CONFIGS)
    assert compared >= 5000


def seed_choosing(game, state, action: int) -> int:
    """A seed whose first draw over ``state``'s legal actions picks ``action``."""
    legal = game.legal_actions(state)
    return next(
        s for s in range(10_000) if draw(playout_seed(np.random.default_rng(s)), len(legal))[0] == legal.index(action)
    )


def one_turn(game: Biqala, state, action: int) -> tuple:
    """The kernel's game from ``state`` when its first draw picks ``action`` (checked against the engine)."""
    seed = seed_choosing(game, state, action)
    assert_plays_the_engine_game(game, state, seed)
    return game.random_playout(state, np.random.default_rng(seed))


def test_captures_and_the_grand_slam():
    game = make_game("biqala", max_turns=1)  # one turn, then each takes his own stones
    # L sows e f g: g 3, f 2, e 2 taken (7 against B's 5 left)
    state = position({"L": 3, "e": 1, "f": 1, "g": 2, "h": 1, "a": 4})
    assert one_turn(game, state, SOW + CELL_OF["L"]) == ((1.0, -1.0), 1, 1)
    # the same sow taking every stone B has is a grand slam: nothing taken, B keeps 7 against 1
    state = position({"L": 3, "e": 1, "f": 1, "g": 2, "A": 1})
    assert one_turn(game, state, SOW + CELL_OF["L"]) == ((-1.0, 1.0), 1, 1)
    # 9 stones round the inner ring skip D: a and b reach 2 and are taken (4 + A B C: 7 against c d e's 6)
    state = position({"D": 9, "e": 4})
    assert one_turn(game, state, SOW + CELL_OF["D"]) == ((1.0, -1.0), 1, 1)


def test_the_transfer():
    game = make_game("biqala", max_turns=1)
    # one stone handed over ends the turn at once when the source is empty; A keeps C's other 3
    state = position({"C": 4, "a": 1})
    after = game.step(state, TRANSFER + CELL_OF["C"])
    assert after.source == CELL_OF["C"]
    for start in (state, after):
        for seed in range(30):
            assert_plays_the_engine_game(game, start, seed)
    assert one_turn(game, position({"C": 1, "a": 1}), TRANSFER + CELL_OF["C"]) == ((-1.0, 1.0), 1, 1)
    # a transfer resets the cycle count, a sow without capture does not
    long = make_game("biqala", idle_limit=2)
    state = position({"A": 1, "J": 2, "a": 1, "b": 1})
    state.idle = 1
    assert one_turn(long, state, SOW + CELL_OF["A"])[2] == 1  # the second capture-free turn: over
    assert one_turn(long, state, TRANSFER + CELL_OF["J"])[2] > 1


def test_feeding_and_no_move():
    game = make_game("biqala")
    # B has nothing: only the sows that reach him (L, D), never a transfer
    state = position({"A": 1, "L": 1, "D": 1})
    assert game.legal_actions(state) == [SOW + CELL_OF["L"], SOW + CELL_OF["D"]]
    for seed in range(30):
        assert_plays_the_engine_game(game, state, seed)
    # l feeds A's E; then A cannot feed B back: the game ends, A takes his own stones
    state = position({"A": 1, "H": 2, "l": 1}, player=1, stores=(30, 40))
    assert game.random_playout(state, np.random.default_rng(0)) == ((-1.0, 1.0), 1, 1)
    assert_plays_the_engine_game(game, state, 0)


def test_the_ends():
    # more than half the stones: L takes e and f, 41 of 80
    game = make_game("biqala")
    state = position({"L": 2, "e": 1, "f": 1, "A": 2, "i": 4}, stores=(37, 20))
    assert one_turn(game, state, SOW + CELL_OF["L"]) == ((1.0, -1.0), 1, 1)
    # the cycle rule: two turns without a capture or transfer
    game = make_game("biqala", idle_limit=2)
    state = position({"A": 1, "a": 1, "F": 1})
    state = game.step(state, SOW + CELL_OF["A"])
    assert one_turn(game, state, SOW + CELL_OF["a"]) == ((1.0, -1.0), 1, 1)
    # the turn cap: every game from the start of a 3-turn game plays 3 turns
    game = make_game("biqala", max_turns=3)
    for seed in range(20):
        assert_plays_the_engine_game(game, game.initial_state(), seed)
        assert game.random_playout(game.initial_state(), np.random.default_rng(seed))[2] == 3
    # a finished game: nothing to play
    game = make_game("biqala")
    state = game.step(position({"A": 1, "H": 2, "l": 1}, player=1), SOW + CELL_OF["l"])
    assert game.random_playout(state, np.random.default_rng(0)) == (game.returns(state), 0, 0)


def test_the_kernel_plays_uniformly_random_games():
    assert_scores_as_the_engine_loop(make_game("biqala"))
