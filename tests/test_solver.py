"""The exact solver against plain exhaustive search, known Hex results and its player."""

import numpy as np
import pytest

from agents.evaluation.runner import play_games
from agents.players.registry import make_player
from agents.search.solver import Solver, SolverLimitError, optimal_share
from envs import make_game
from envs.games.odoku.game import optimal_actions, value


def exhaustive(game, state, memo):
    """Minimax over every action with no pruning, chance as its expectation (memoised by position)."""
    if game.is_terminal(state):
        return game.returns(state)[0]
    key = state.key()
    if key not in memo:
        if game.is_chance(state):
            memo[key] = sum(p * exhaustive(game, game.step(state, o), memo) for o, p in game.chance_outcomes(state))
        else:
            values = [exhaustive(game, game.step(state, a), memo) for a in game.legal_actions(state)]
            memo[key] = max(values) if game.to_play(state) == 0 else min(values)
    return memo[key]


def random_position(game, rng, turns):
    state = game.initial_state()
    for _ in range(turns):
        mover = game.to_play(state)
        while game.to_play(state) == mover:
            game.apply(state, int(rng.choice(game.legal_actions(state))))
        if game.is_terminal(state):
            break
    return state


@pytest.mark.parametrize("size, openings", [(2, {"b1", "a2"}), (3, None)])
def test_plain_hex_is_a_first_player_win_and_openings_match_exhaustive_search(size, openings):
    game = make_game("hex", size=size)
    start = game.initial_state()
    solver = Solver(game)
    assert solver.value(start) == 1.0
    memo = {}
    assert exhaustive(game, start, memo) == 1.0
    winning = {
        game.action_to_text(start, a)
        for a in game.legal_actions(start)
        if exhaustive(game, game.step(start, a), memo) == 1.0
    }
    found = {game.format_turn(start, turn) for turn in solver.optimal_turns(start)}
    assert found == winning
    assert openings is None or found == openings
    assert 0 < len(found) < size * size


@pytest.mark.parametrize("name, size, turns", [("nex", 3, 2), ("neuversi", 4, 5), ("hex", 3, 1)])
def test_values_agree_with_exhaustive_search_in_random_positions(name, size, turns):
    game = make_game(name, size=size)
    rng = np.random.default_rng(4)
    for _ in range(4):
        state = random_position(game, rng, turns)
        solver, memo = Solver(game), {}
        truth = exhaustive(game, state, memo)
        assert solver.value(state) == truth
        if not game.is_terminal(state):
            for action, value in solver.action_values(state).items():
                assert value == exhaustive(game, game.step(state, action), memo)
            # a fresh table: optimal actions from their own searches, not the values above
            assert Solver(game).optimal_actions(state) == [
                a for a in game.legal_actions(state) if exhaustive(game, game.step(state, a), memo) == truth
            ]


def test_nex_3x3_optimal_first_turns_are_whole_value_preserving_turns():
    game = make_game("nex", size=3)
    start = game.initial_state()
    solver = Solver(game)
    assert solver.value(start) == 1.0
    turns = solver.optimal_turns(start)
    assert all(len(turn) == 2 for turn in turns)  # drops: stone then neutral
    assert all(solver.turn_is_optimal(start, turn) for turn in turns)
    assert solver.turn_is_optimal(start, [4, 0]) == ([4, 0] in turns)
    assert 0 < len(turns) < 9 * 8


def test_solver_player_wins_the_first_seat_and_judges_its_own_turns_optimal():
    config = {"name": "hex", "size": 3}
    game = make_game(**config)
    first = play_games(config, [("solver", "random")] * 10, seed=1)
    second = play_games(config, [("random", "solver")] * 10, seed=2)
    assert all(r.winner == 0 for r in first)
    judge = Solver(game).turn_is_optimal
    optimal, total = optimal_share(game, [(r.actions, 0) for r in first] + [(r.actions, 1) for r in second], judge)
    assert optimal == total > 20
    optimal, total = optimal_share(game, [(r.actions, 0) for r in second], judge)
    assert 0 < optimal < total  # random throws the first player's win away sometimes


def test_node_budget_and_spec_errors():
    game = make_game("nex", size=4)
    with pytest.raises(SolverLimitError, match="too large"):
        Solver(game, max_nodes=1000).value(game.initial_state())
    assert make_player("solver:50", game).solver.max_nodes == 50
    with pytest.raises(ValueError, match="node budget"):
        make_player("solver:many", game)
    with pytest.raises(ValueError, match="decision state"):
        hex2 = make_game("hex", size=2)  # four turns fill its board: no decision left
        Solver(hex2).optimal_turns(random_position(hex2, np.random.default_rng(0), 4))


@pytest.mark.slow
def test_hex_4x4_openings_are_the_short_diagonal():
    game = make_game("hex", size=4)
    start = game.initial_state()
    solver = Solver(game)
    assert solver.value(start) == 1.0
    assert {game.format_turn(start, t) for t in solver.optimal_turns(start)} == {"d1", "c2", "b3", "a4"}


@pytest.mark.slow
def test_neuversi_4x4_is_a_first_player_win():
    game = make_game("neuversi", size=4)
    assert Solver(game).value(game.initial_state()) == 1.0


def test_chance_nodes_average_exactly_as_the_random_turn_theorem_says():
    game = make_game("odoku")
    rng = np.random.default_rng(6)
    for empties in (1, 3, 5):
        state = game.initial_state()
        while 25 - state.moves > empties:
            game.apply(state, int(rng.integers(2)))
            game.apply(state, int(rng.choice(game.legal_actions(state))))
        solver = Solver(game)
        assert solver.value(state) == pytest.approx((value(state) - 7.5) / 7.5, abs=1e-12)
        game.apply(state, 1)  # A to move: the solver's best moves are the oracle's
        assert sorted(solver.optimal_actions(state)) == sorted(optimal_actions(state))
