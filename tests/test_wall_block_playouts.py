"""The compiled random playouts of Four-way walls and Blockdance play the engine loop's game:
for the same seed, the same draws over the same legal actions, so the same returns, the same
number of decisions and of turns (``Game.engine_playout`` is the loop). Positions come from
random games (the start, a turn begun at each of its micro-steps, one at random and the last
ones before the end) and hand-made ones for the rare rules."""

import numpy as np
import pytest
from test_blockdance import game_with, random_start
from test_four_way_walls import SMALL, STUCK, STUCK_WALLS, at, position, steps, wall_action
from test_scheduled_playouts import assert_plays_the_engine_game, assert_scores_as_the_engine_loop, check_config

from envs import make_game
from envs.games.four_way_walls.game import FourWayWalls

# (registry name, parameters, what marks a turn begun): sizes, wall counts, schedules, limits
CONFIGS = [
    ("four_way_walls", {"size": 5, "walls": 3, "max_turns": 60}),
    ("four_way_walls", {"size": 6, "walls": 6, "schedule": "1", "max_turns": 80}),
    ("four_way_walls", {"size": 7, "walls": 0, "schedule": "24", "max_turns": 40}),
    ("four_way_walls", {"size": 8, "walls": 12, "max_turns": 100}),
    ("four_way_walls", {}),
    ("blockdance", {"size": 6, "max_turns": 80}),
    ("blockdance", {"size": 7, "free_pass": False, "idle_limit": 30}),
    ("blockdance", {"size": 6, "start": random_start(np.random.default_rng(1), 6), "free_pass": False}),
    ("blockdance", {"size": 6, "start": random_start(np.random.default_rng(2), 6), "idle_limit": 20}),
    ("blockdance", {"size": 7, "start": random_start(np.random.default_rng(3), 7), "max_turns": 60}),
    ("blockdance", {}),
]
BEGUN = {
    "four_way_walls": (lambda s: s.picked >= 0, lambda s: s.moved and s.picked < 0, lambda s: s.phase == 1),
    "blockdance": (
        lambda s: s.pivot >= 0 and not s.angle,
        lambda s: s.angle and len(s.block) == 1,
        lambda s: len(s.block) > 2,
    ),
}
LONG = ("four_way_walls", "blockdance")  # their text's boards: fewer games


@pytest.mark.parametrize("name, params", CONFIGS, ids=[f"{n}-{p}" for n, p in CONFIGS])
def test_the_kernel_plays_the_engine_loop_game(name, params):
    seeds = range(1 if params == {} and name in LONG else 6)
    assert check_config(name, params, seeds, BEGUN[name]) >= 5 * len(
        seeds
    )  # at least the start, a random one, the last three


@pytest.mark.slow
def test_thousands_of_positions_play_the_engine_loop_game():
    compared = 0
    for name, params in CONFIGS:
        compared += check_config(name, params, range(100, 108 if params == {} and name in LONG else 180), BEGUN[name])
    assert compared >= 2000


def test_hand_made_four_way_walls_positions():
    cases = []
    # a jump turned sideways by a wall: N on c4 picked, s on c3, BDc beyond: b3 or d3
    state = at(SMALL, "N c4, W e5, s c3, n b3, e a1", "BDc")
    SMALL.apply(state, state.pos.stones[0])
    assert len(SMALL.legal_actions(state)) == 4
    cases.append((SMALL, state))
    # a wall refused: ACc would shut S (a2) off from the south
    state = steps(SMALL, at(SMALL, "S a1, W e3, n e5, s c5", "Bac", to_move=0), "Ss Wn")
    assert state.phase == 1 and wall_action(SMALL, "ACc") not in SMALL.legal_actions(state)
    cases.append((SMALL, state))
    # three stones off: S steps off and wins at once, mid-turn; or plays elsewhere
    cases.append((SMALL, at(SMALL, "S c5, W a2, n e5, e a1")))
    # a stuck stone passed over; a turn of only a wall; turns that pass with nothing to do
    cases.append((SMALL, at(SMALL, STUCK + ", s e1", STUCK_WALLS, to_move=1)))
    cases.append((SMALL, at(SMALL, STUCK, STUCK_WALLS, to_move=1, walls_left=(3, 2))))
    game = FourWayWalls(size=5, schedule="1", max_turns=8)
    cases.append((game, game.state_at(position(game, STUCK + ", N e5", STUCK_WALLS), 0, turn=4, walls_left=(5, 0))))
    # the 200-turn draw: the text's board two turns before the limit
    game = make_game("four_way_walls")
    state = game.state_at(game.initial_state().pos, 0, turn=198)
    cases.append((game, state))
    for game, state in cases:
        for seed in range(20):
            assert_plays_the_engine_game(game, state, seed)
    played = make_game("four_way_walls").random_playout(state, np.random.default_rng(0))
    assert played[0] == (0.0, 0.0) and played[2] == 2  # two turns, then the draw


def test_hand_made_blockdance_positions():
    cases = []
    # a capture by rotation: v5.1 x5 lands on w6 and takes it (the last man, so it wins)
    cases.append(game_with("v5 x5", "w6"))
    cases.append(game_with("v5 x5", "w6 a8 c8", idle_limit=3))
    # a pass: men that touch none of their own have no move, pass alone (two passes draw)
    cases.append(game_with("a8 e8", "C8 y8"))
    cases.append(game_with("a8 e8 v5 x5", "C8 y8", free_pass=False))
    # the block must take in a forced man (x5 lands on w6), and one landing off the board
    cases.append(game_with("v5 x5 w6", "a8 c8"))
    for game in cases:
        start = game.initial_state()
        states = [start]
        if game.legal_actions(start) != [game.PASS]:
            pivot = game.step(start, game.legal_actions(start)[0])
            angle = game.step(pivot, game.legal_actions(pivot)[0])
            states += [pivot, angle]
        for state in states:
            for seed in range(20):
                assert_plays_the_engine_game(game, state, seed)
    outcomes = {cases[0].random_playout(cases[0].initial_state(), np.random.default_rng(k))[0] for k in range(20)}
    assert outcomes == {(1.0, -1.0), (0.0, 0.0)}  # the capture that kills all, or passes and turns to a draw


def test_the_kernels_play_uniformly_random_games():
    assert_scores_as_the_engine_loop(make_game("four_way_walls", size=5, walls=3, max_turns=60))
    assert_scores_as_the_engine_loop(make_game("blockdance", size=6, start=random_start(np.random.default_rng(2), 6)))


def test_the_engine_loop_refuses_chance():
    game = make_game("odoku")
    state = game.initial_state()
    while game.to_play(state) != -1:
        game.apply(state, game.legal_actions(state)[0])
    with pytest.raises(ValueError, match="without chance"):
        game.engine_playout(state, 1)
