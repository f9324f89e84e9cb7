"""Odoku against the oracle: docs/games/odoku.md's reference scores and exact regret."""

import numpy as np
import pytest

from agents.evaluation.odoku_measures import game_regrets, measure_against_oracle, move_regret
from agents.evaluation.runner import play_games
from envs import make_game
from envs.games.odoku.game import value

ODOKU = {"name": "odoku"}


@pytest.fixture(scope="module")
def random_vs_oracle():
    return measure_against_oracle(ODOKU, "random", 2000, seed=11)


def test_oracle_beats_random_by_the_rules_margins(random_vs_oracle):
    as_b, as_a = random_vs_oracle
    # docs/games/odoku.md: random B vs oracle A 3.40 +- 0.08; oracle B vs random A 14.33 +- 0.04
    assert as_b.games == as_a.games == 2000
    assert abs(as_b.mean_score - 3.40) <= as_b.score_ci + 0.08
    assert abs(as_a.mean_score - 14.33) <= as_a.score_ci + 0.04
    assert 0.05 < as_b.score_ci < 0.1 and 0.02 < as_a.score_ci < 0.06


def test_random_gives_away_expected_score(random_vs_oracle):
    for measure in random_vs_oracle:
        assert measure.regret_per_move > 0.2
        assert measure.regret_total == pytest.approx(measure.regret_per_game * measure.games)
        assert measure.regret_per_move == pytest.approx(measure.regret_total / measure.moves)
        assert 23_000 < measure.moves < 27_000  # about half of 25 moves in 2,000 games


def test_oracle_against_itself_averages_the_exact_value_with_zero_regret():
    as_b, as_a = measure_against_oracle(ODOKU, "oracle", 1000, seed=5)
    assert as_b.regret_total == 0.0 and as_a.regret_total == 0.0
    assert 12_000 < as_b.moves < 13_000 and 12_000 < as_a.moves < 13_000  # its own moves only
    pooled = (as_b.mean_score + as_a.mean_score) / 2
    half_width = np.hypot(as_b.score_ci, as_a.score_ci) / 2
    assert abs(pooled - 9.375) <= half_width
    assert as_b.score_ci < 0.15


def test_move_regret_is_the_value_lost_from_the_movers_side():
    game = make_game("odoku")
    rng = np.random.default_rng(2)
    for _ in range(30):
        state = game.initial_state()
        for _ in range(int(rng.integers(0, 24))):
            game.apply(state, int(rng.integers(2)))
            game.apply(state, int(rng.choice(game.legal_actions(state))))
        game.apply(state, int(rng.integers(2)))
        children = {a: value(game.step(state, a)) for a in game.legal_actions(state)}
        sign = 1.0 if state.player == 0 else -1.0
        best = max(sign * v for v in children.values())
        for action, child_value in children.items():
            assert move_regret(state, action) == pytest.approx(best - sign * child_value, abs=1e-12)
            assert move_regret(state, action) >= -1e-12


def test_regrets_follow_the_seat_through_a_recorded_game():
    game = make_game("odoku")
    results = play_games(ODOKU, [("random", "oracle")], seed=3)
    actions = results[0].actions
    b_moves = sum(1 for i, a in enumerate(actions[:-1]) if i % 2 == 0 and a == 0)
    assert len(game_regrets(game, actions, 0)) == b_moves
    assert game_regrets(game, actions, 1) == [0.0] * (25 - b_moves)
    with pytest.raises(ValueError, match="not a legal placement"):
        move_regret(game.step(game.initial_state(), 0), 99)
