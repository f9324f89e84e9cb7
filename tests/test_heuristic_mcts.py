"""The games' heuristic values on hand-made positions, and ``hmcts``: MCTS whose random rollouts
are cut after a few turns and scored by them (agents/search/estimators.py CutRolloutEstimator)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conformance import positions

from agents.players.registry import make_player
from agents.search.estimators import CutRolloutEstimator
from envs import make_game
from envs.core import TERMINAL, play_out
from envs.games.four_way_walls.board import HORIZONTAL, OFF, Position
from envs.games.four_way_walls.game import WALL, start_stones, wall_array
from envs.games.four_way_walls.kernels import steps_to_go
from envs.kernels import playout_seed
from envs.schedule.moves import BLOCK, PIECE


def lead(value: float, scale: float) -> tuple[float, float]:
    return (math.tanh(value / scale), -math.tanh(value / scale))


def test_hop_chess_counts_material_and_a_capture_changes_it():
    game = make_game("hop_chess", fen="4k3/8/8/3p4/4P3/8/8/R3K3 w - - 0 1")
    state = game.initial_state()
    assert game.heuristic_returns(state) == lead(5 + 1 - 1, 5)  # white's rook and pawn, black's pawn
    game.play_turn(state, "e4:d5 h3")
    assert game.heuristic_returns(state) == lead(5 + 1, 5)
    assert game.heuristic_returns(make_game("hop_chess").initial_state()) == lead(0, 5)


def columns_board(n: int) -> np.ndarray:
    """x on column b, o on column c: x's area 2n, o's n + 2n (the columns beyond)."""
    board = np.zeros(n * n, np.int8)
    board[1::n], board[2::n] = PIECE[0], PIECE[1]
    return board


def test_send_it_counts_area():
    game = make_game("send_it", size=5)
    assert game.heuristic_returns(game.state_at(columns_board(5))) == lead(10 - 15, 5)


def test_push_go_counts_area_less_the_komi():
    game = make_game("push_go", size=5, komi=0.5)
    state = game.from_diagram("\n".join([". x o . ."] * 5))
    assert game.heuristic_returns(state) == lead(10 - 15 - 0.5, 5)


def test_hexxagon_counts_stones():
    game = make_game("hexxagon", size=5)
    state = game.initial_state()
    assert game.heuristic_returns(state) == lead(0, 9)
    board = state.board.copy()
    board[np.flatnonzero(board == 0)[:2]] = PIECE[0]  # two more x stones
    assert game.heuristic_returns(game.state_at(board)) == lead(2, 9)
    assert make_game("hexxagon_1344").heuristic_returns(make_game("hexxagon_1344").initial_state()) == lead(0, 17)


def test_amazons_counts_the_cells_each_side_reaches_first():
    game = make_game("amazons", size=4, start="a1 / d4")
    # a1 and d4 each reach four cells first (b1 c1 a2 a3 / c4 b4 d3 d2); the rest are tied
    assert game.heuristic_returns(game.initial_state()) == lead(0, 4)
    board = game.initial_state().board.copy()
    board[[1, 4, 5]] = BLOCK  # arrows on b1, a2 and b2 shut a1's amazon in: d4's reaches all 11 empty cells
    assert game.heuristic_returns(game.state_at(board)) == lead(-11, 4)
    distances = game.rules.queen_distances(board, PIECE[1])
    assert distances[[14, 13, 12, 11, 7, 3, 10]].tolist() == [1] * 7
    assert distances[[2, 6, 8, 9]].tolist() == [2] * 4


def race(pos: Position) -> list[int]:
    """Each seat's steps to go in ``pos``."""
    steps = np.empty(2, np.int64)
    steps_to_go(np.array(pos.stones, np.int64), wall_array(pos), pos.size, steps)
    return steps.tolist()


def test_four_way_walls_counts_the_steps_of_each_seats_three_nearest_stones():
    game = make_game("four_way_walls", size=5)
    assert game.heuristic_returns(game.initial_state()) == lead(0, 5)
    pos = Position.empty(5, start_stones(5))
    assert race(pos) == [15, 15]  # every stone 5 steps from its goal: 4 across, 1 off
    pos.stones[0] = 2 * 5 + 3  # N on d3: 2 across, 1 off
    assert race(pos) == [3 + 5 + 5, 15]
    pos.walls[HORIZONTAL][2 * 6 + 3] = True  # right in front of it: N goes round by e3
    assert race(pos) == [4 + 5 + 5, 15]
    pos = Position.empty(5, start_stones(5))
    pos.walls[HORIZONTAL][4 * 6 + 3] = True  # in front of N on d5: its 6 steps are the fourth stone's
    assert race(pos) == [15, 15]
    pos.stones[1] = OFF
    assert race(pos) == [5 + 5 + 0, 15]
    assert game.heuristic_returns(game.state_at(pos)) == lead(15 - 10, 5)


def test_blockdance_counts_men():
    game = make_game("blockdance", size=6)
    start = game.initial_state()
    assert game.heuristic_returns(start) == lead(0, 4)
    board = list(start.board)
    for cell in [c for c, value in enumerate(board) if value == PIECE[1]][:2]:
        board[cell] = 0
    assert game.heuristic_returns(game.state_of(board, 0)) == lead(2, 4)


def test_a_cut_rollout_scores_where_it_stops_or_where_the_game_ends():
    game = make_game("amazons", size=4, start="a1 / d4")
    board = game.initial_state().board.copy()
    board[[10, 11, 14]] = BLOCK  # c3, d3, c4: d4's amazon is shut in, so x wins by any move
    state = game.state_at(board)
    before = board.copy()
    at_leaf = CutRolloutEstimator(game, np.random.default_rng(0), 0).value(state)
    assert at_leaf == game.heuristic_returns(state) and 0 < at_leaf[0] < 1
    for seed in range(5):
        assert CutRolloutEstimator(game, np.random.default_rng(seed), 1).value(state) == (1.0, -1.0)
    assert np.array_equal(state.board, before) and game.to_play(state) == 0


# a move made with more to come; a jump begun (an amazon picked); an amazon moved, its arrow to come
TURN_BEGUN = (lambda s: s.placed, lambda s: s.partial, lambda s: len(s.partial) == 2)
HOP_CHESS_BEGUN = (lambda s: s.origin >= 0, lambda s: s.move is not None)  # a piece chosen; moved
KERNEL_CUTS = [
    ("amazons", {"size": 6}, TURN_BEGUN),
    ("progressive_amazons", {"size": 7}, TURN_BEGUN),
    ("hexxagon", {"size": 4, "schedule": "134"}, TURN_BEGUN),
    ("hexxagon_1344", {"size": 4}, TURN_BEGUN),
    ("send_it", {"size": 5}, TURN_BEGUN),
    ("send_it", {"size": 6, "restricted": False}, TURN_BEGUN),
    ("hop_chess", {"max_turns": 60}, HOP_CHESS_BEGUN),
    ("four_way_walls", {"size": 5}, (lambda s: s.picked >= 0, lambda s: s.phase == WALL)),
    ("blockdance", {"size": 6, "max_turns": 60}, (lambda s: s.pivot >= 0, lambda s: s.angle > 0)),
    ("push_go", {"size": 5}, ()),
]


@pytest.mark.parametrize("name, params, begun", KERNEL_CUTS, ids=[f"{n}-{p}" for n, p, _ in KERNEL_CUTS])
def test_a_kernels_cut_playout_plays_the_engine_loops_game(name, params, begun):
    """For the same seed the kernel stops where the engine loop stops (``engine_playout``'s
    ``cut``), at positions of random games, mid-turn ones included, and scores the same."""
    game = make_game(name, **params)
    scored = 0
    for seed in range(3):
        for k, state in enumerate(positions(game, seed, begun)[:-1]):
            for turns in (0, 1, 2, 5):
                value = game.cut_playout(state, np.random.default_rng([seed, k, turns]), turns)
                expected = game.engine_playout(state, playout_seed(np.random.default_rng([seed, k, turns])), turns)
                assert value == expected[0]
                scored += abs(value[0]) not in (0.0, 1.0)
    assert scored  # some stopped before the end with a lead


SMALL_GAMES = [
    ("hop_chess", {}, 40),
    ("send_it", {"size": 5}, 60),
    ("push_go", {"size": 3}, 60),
    ("hexxagon", {"size": 3}, 200),
    ("hexxagon_1344", {"size": 3}, 200),
    ("amazons", {"size": 4}, 200),
    ("progressive_amazons", {"size": 5}, 200),
    ("four_way_walls", {"size": 4}, 60),
    ("blockdance", {"size": 6}, 40),
]


@pytest.mark.parametrize("name, params, cap", SMALL_GAMES, ids=[name for name, _, _ in SMALL_GAMES])
def test_hmcts_plays_legal_games(name, params, cap):
    """Every action goes through ``apply``, which raises on an illegal one; the small boards end
    within the cap, the large games are cut there."""
    game = make_game(name, **params)
    player = make_player("hmcts:6:2", game)
    state, actions = game.initial_state(), []
    made = play_out(game, state, np.random.default_rng(1), {0: player, 1: player}, actions, max_decisions=cap)
    assert made == len(actions) > 0
    assert game.to_play(state) == TERMINAL or made == cap
    if cap == 200:
        assert game.to_play(state) == TERMINAL


def test_hmcts_spec_errors_name_the_problem():
    with pytest.raises(ValueError, match=r"hmcts:N\[:TURNS\]': hex has no heuristic value.*hop_chess"):
        make_player("hmcts:10", make_game("hex", size=3))
    amazons = make_game("amazons", size=4)
    for spec in ("hmcts", "hmcts:0", "hmcts:x", "hmcts:10:2:3"):
        with pytest.raises(ValueError, match="needs N, a positive integer of simulations"):
            make_player(spec, amazons)
    for spec in ("hmcts:10:-1", "hmcts:10:x", "hmcts:10:"):
        with pytest.raises(ValueError, match="TURNS, the turns a rollout plays, must be a non-negative integer"):
            make_player(spec, amazons)
    player = make_player("hmcts:10:3", amazons)
    assert player.name == "hmcts:10:3" and player.estimator.turns == 3
    assert make_player("hmcts:10", amazons).estimator.turns == 4
