"""Complete-turn enumeration over micro-steps, chance nodes and the end."""

import numpy as np
import pytest

from envs import CHANCE, TERMINAL, make_game
from envs.turns import complete_turns, iter_turns

SMALL = {
    "nex": {"size": 4},
    "neumoku": {"size": 5, "pie_rule": True},
    "neuversi": {"size": 4},
    "adneuversi": {"size": 4},
    "hex": {"size": 4, "pie_rule": True},
    "gomoku": {"size": 5},
    "reversi": {"size": 4},
}


def random_positions(game, rng, count):
    """Decision states at turn starts along one seeded random game per call."""
    positions = []
    while len(positions) < count:
        state = game.initial_state()
        while game.to_play(state) != TERMINAL:
            if rng.random() < 0.3:
                positions.append(state.copy())
            turns = complete_turns(game, state)
            for action in turns[int(rng.integers(len(turns)))]:
                game.apply(state, action)
    return positions[:count]


@pytest.mark.parametrize("name", sorted(SMALL))
def test_turns_are_distinct_and_keep_the_mover(name):
    game = make_game(name, **SMALL[name])
    rng = np.random.default_rng(0)
    for state in random_positions(game, rng, 6):
        mover = game.to_play(state)
        found = []
        for actions, end in iter_turns(game, state):
            trial = state.copy()
            for action in actions[:-1]:
                game.apply(trial, action)
                assert game.to_play(trial) == mover  # a turn is one seat's micro-steps
            game.apply(trial, actions[-1])
            assert game.to_play(trial) == game.to_play(end) != mover or game.to_play(end) == TERMINAL
            assert 1 <= len(actions) <= 3
            found.append(tuple(actions))
        assert len(found) == len(set(found))


def test_nex_opening_turns_are_all_drops():
    game = make_game("nex", size=3)
    turns = complete_turns(game, game.initial_state())
    assert len(turns) == 9 * 8  # a friendly stone, then a neutral on another empty cell
    assert all(len(turn) == 2 and turn[0] != turn[1] for turn in turns)


def test_mid_turn_state_gives_the_rest_of_the_turn():
    game = make_game("nex", size=3)
    state = game.initial_state()
    game.apply(state, 4)  # the drop's stone on b2; the neutral comes next
    assert complete_turns(game, state) == [(c,) for c in range(9) if c != 4]


def test_odoku_turns_are_single_placements_ending_at_the_coin():
    game = make_game("odoku")
    state = game.initial_state()
    game.apply(state, 1)
    pairs = list(iter_turns(game, state))
    assert [actions for actions, _ in pairs] == [(a,) for a in range(50)]
    assert all(game.to_play(end) == CHANCE for _, end in pairs)


def test_turns_need_a_decision_state():
    game = make_game("odoku")
    with pytest.raises(ValueError, match="decision state"):
        complete_turns(game, game.initial_state())
