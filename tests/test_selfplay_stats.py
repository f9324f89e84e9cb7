"""What training logs to tell why a game learns or not: outcome shares, lengths, end reasons,
policy entropies; and the heuristic leaf mix that self-play can fade out."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from agents.config import ConfigError
from agents.net.network import NetConfig, PolicyValueNet
from agents.search.estimators import FunctionEstimator, HeuristicMixEstimator, UniformEstimator
from agents.search.mcts import MCTS, SearchConfig
from agents.sizes import parse_sizes
from agents.training.learner import Learner, LearnerConfig
from agents.training.selfplay import Board, SelfPlayConfig, self_play_sizes
from agents.training.selfplay_stats import entropy, outcome_scalars, reason_tag
from envs import make_game


def test_outcome_scalars_count_wins_by_seat_draws_lengths_and_end_reasons():
    returns = [(1, -1), (1, -1), (-1, 1), (0, 0), (0, 0)]
    lengths = [10, 20, 30, 40, 50]
    reasons = ["checkmate", "checkmate", "checkmate", "400 turns", None]
    scalars = outcome_scalars(returns, lengths, reasons, known=["stalemate"])
    assert scalars == {
        "selfplay/won_by_seat0": 0.4,
        "selfplay/won_by_seat1": 0.2,
        "selfplay/draws": 0.4,
        "selfplay/game_length_p10": 14.0,
        "selfplay/game_length_p50": 30.0,
        "selfplay/game_length_p90": 46.0,
        "selfplay/end/stalemate": 0.0,  # known from earlier iterations: its curve has no gap
        "selfplay/end/checkmate": 0.6,
        "selfplay/end/400_turns": 0.2,
    }
    assert outcome_scalars([], [], []) == {}


def test_a_three_seat_tie_for_first_is_a_draw():
    scalars = outcome_scalars([(1, 1, -2), (0, 2, -2)], [5, 5], [None, None])
    assert (scalars["selfplay/won_by_seat1"], scalars["selfplay/draws"], scalars["selfplay/won_by_seat2"]) == (
        0.5,
        0.5,
        0.0,
    )


def test_reason_tags_and_entropies():
    assert reason_tag("75 moves without a capture or a pawn move") == "75_moves_without_a_capture_or_a_pawn_move"
    rows = np.array([[1.0, 0, 0, 0], [0.5, 0.5, 0, 0], [0.25] * 4])
    np.testing.assert_allclose(entropy(rows), [0.0, math.log(2), math.log(4)])


def test_the_learner_reports_the_networks_entropy_and_the_value_targets_variance():
    game = make_game("hex", size=3)
    torch.manual_seed(0)
    net = PolicyValueNet.for_game(game.info, NetConfig(channels=8, blocks=1, value_hidden=8))
    rng = np.random.default_rng(0)
    obs = rng.random((4, *game.info.obs_shape), dtype=np.float32)
    policy = rng.dirichlet(np.ones(game.info.num_actions), size=4).astype(np.float32)
    value = np.array([1, -1, 1, 1], dtype=np.float32)
    net.train()
    with torch.no_grad():
        probs = torch.softmax(net(torch.from_numpy(obs))[0], dim=1).numpy()  # before the step
    losses = Learner(net, LearnerConfig(batch_size=4, min_replay=1), torch.device("cpu")).step(obs, policy, value)
    assert losses["learner/net_entropy"] == pytest.approx(entropy(probs).mean(), rel=1e-5)
    assert losses["learner/value_target_variance"] == pytest.approx(0.75)


def test_heuristic_mix_estimator_mixes_the_inner_values_with_the_heuristic():
    up = make_game("hop_chess", fen="4k3/8/8/8/8/8/8/R3K3 w - - 0 1")  # white a rook up: tanh(1)
    inner = FunctionEstimator(up, lambda s: (np.ones(up.info.num_actions), (0.5, -0.5)))
    priors, values = HeuristicMixEstimator(inner, up, 0.25).estimate([up.initial_state()])
    np.testing.assert_array_equal(priors, np.ones((1, up.info.num_actions)))
    np.testing.assert_allclose(values, [[0.75 * 0.5 + 0.25 * math.tanh(1), -(0.75 * 0.5 + 0.25 * math.tanh(1))]])
    with pytest.raises(ValueError, match="odoku has no heuristic value"):
        HeuristicMixEstimator(UniformEstimator(make_game("odoku")), make_game("odoku"), 0.5)


def test_the_heuristic_weight_fades_linearly_over_the_learner_steps_it_names():
    fading = SelfPlayConfig(heuristic_mix=0.5, heuristic_mix_steps=1000)
    assert [fading.heuristic_weight(step) for step in (0, 500, 1000, 5000)] == [0.5, 0.25, 0.0, 0.0]
    assert SelfPlayConfig(heuristic_mix=0.3).heuristic_weight(10**6) == 0.3
    with pytest.raises(ValueError, match="agent.selfplay.heuristic_mix must"):
        SelfPlayConfig(heuristic_mix=1.5)


def test_a_heuristic_mix_on_a_game_without_a_heuristic_is_refused_naming_the_setting():
    from test_train import compose_train

    from agents.training.settings import build_settings

    cfg = compose_train(["experiment=smoke", "agent.selfplay.heuristic_mix=0.5"])
    with pytest.raises(ConfigError, match="agent.selfplay.heuristic_mix needs a game with a heuristic value"):
        build_settings(cfg)


@pytest.mark.parametrize("step", [0, 10])
def test_self_play_records_why_each_game_ended_and_searches_with_the_mixed_values(step):
    """Hop Chess capped at 2 turns: every game ends by the cap. At step 0 the leaves' values
    are all the heuristic's (equal material: 0), so the search values the targets take
    (value_mix 1) are 0; at step 10 the mix has faded and the estimator's 0.9 shows."""
    game = make_game("hop_chess", max_turns=2)
    mcts = MCTS(game, SearchConfig(num_simulations=4))
    config = SelfPlayConfig(concurrent_games=2, value_mix=1.0, heuristic_mix=1.0, heuristic_mix_steps=10)
    board = Board(game, mcts, FunctionEstimator(game, lambda s: (np.ones(game.info.num_actions), (0.9, -0.9))))
    mix = parse_sizes(None).at(1)
    batch = self_play_sizes({None: board}, mix, 2, config, np.random.default_rng(0), step)[None]
    assert batch.reasons == ["2 turns", "2 turns"] and batch.returns == [(0.0, 0.0), (0.0, 0.0)]
    assert batch.num_positions > 0 and np.all(batch.value == 0) == (step == 0)
