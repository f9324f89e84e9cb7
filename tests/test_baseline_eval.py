"""The in-training evaluation: every game seeded by (seed, iteration, match, game), whatever the workers."""

import dataclasses

import numpy as np
import pytest
import torch
from test_train import compose_train

from agents.config import ConfigError
from agents.evaluation.runner import play_game
from agents.net.net_estimator import NetEstimator
from agents.net.network import PolicyValueNet
from agents.players.az_player import NetworkPlayer
from agents.players.mcts_player import SearchPlayer
from agents.players.registry import make_player
from agents.training.baseline_eval import BaselineConfig, BaselineEval
from agents.training.loop import make_baseline_eval
from agents.training.settings import build_settings


def settings(*overrides):
    return build_settings(compose_train(["experiment=smoke", *overrides]))


def net_for(s, seed):
    torch.manual_seed(seed)
    return PolicyValueNet.for_game(s.game.info, s.net)


def replayed(s, net, iteration, raw):
    """The figures computed game by game from the documented seeds, without the pool."""
    game = s.game
    estimator = NetEstimator(game, net)
    if raw:
        candidate = NetworkPlayer(estimator)
    else:
        # the candidate plays as az:CHECKPOINT does: training's search, less the playout mix
        search = dataclasses.replace(s.search, num_simulations=s.eval_simulations, playout_mix=0.0)
        candidate = SearchPlayer(game, estimator, search)
    matches = [
        ("random", [g % 2 for g in range(s.eval_games)]),
        (f"mcts:{s.eval_mcts_simulations}", [g % 2 for g in range(s.eval_games)]),
        ("oracle", [0] * s.eval_oracle_games),
        ("oracle", [1] * s.eval_oracle_games),
    ]
    figures = []
    for m, (spec, seats) in enumerate(matches):
        results = []
        for g, seat in enumerate(seats):
            lineup = [make_player(spec, game)] * 2
            lineup[seat] = candidate
            result = play_game(game, lineup, np.random.default_rng((s.seed, iteration, m, g)))
            results.append(
                result.info["score"]
                if spec == "oracle"
                else 0.5
                if result.winner is None
                else float(result.winner == seat)
            )
        figures.append(float(np.mean(results)))
    return figures


@pytest.mark.parametrize("raw, mix", [(False, 0.0), (True, 0.0), (False, 0.5)])
def test_figures_are_the_games_of_their_seeds_in_process(raw, mix):
    """With ``playout_mix`` in training's search (0.5) the candidate still searches without it."""
    overrides = ["eval.games=3", "eval.oracle_games=2", f"agent.search.playout_mix={mix}"]
    s = settings(*overrides, *(["eval.simulations=0"] if raw else []))
    assert s.search.playout_mix == mix
    net = net_for(s, 1)
    baselines = make_baseline_eval(dataclasses.replace(s, workers=0))
    try:
        figures = baselines.evaluate(net, iteration=4)
    finally:
        baselines.close()
    assert list(figures) == [
        "eval/win_rate_vs_random",
        "eval/win_rate_vs_mcts",
        "eval/score_vs_oracle_as_B",
        "eval/score_vs_oracle_as_A",
    ]
    assert list(figures.values()) == replayed(s, net, 4, raw)


def test_worker_processes_give_the_same_figures_and_load_each_iterations_weights():
    s = settings("eval.games=4", "eval.oracle_games=2")
    first, second = net_for(s, 1), net_for(s, 2)
    config = BaselineConfig(s.eval_games, s.eval_mcts_simulations, s.eval_oracle_games, s.eval_opponents)
    search = dataclasses.replace(s.search, num_simulations=s.eval_simulations)
    figures = {}
    for workers in (0, 2):
        baselines = BaselineEval(workers, s.games, s.net, search, config, s.seed)
        try:
            figures[workers] = [baselines.evaluate(first, 1), baselines.evaluate(second, 2)]
        finally:
            baselines.close()
    assert figures[2] == figures[0]
    assert figures[0][1] == dict(zip(figures[0][1], replayed(s, second, 2, raw=False)))


def test_no_evaluation_no_pool():
    assert make_baseline_eval(settings("eval.every=0")) is None


def test_more_opponents_are_matches_of_their_own_and_a_refused_spec_names_the_setting():
    s = settings("eval.opponents=[greedy,mcts:3]", "eval.oracle_games=0")
    evaluation = make_baseline_eval(s)
    try:
        tags = [(m.tag, m.opponent, m.seats) for m in evaluation.matches()]
    finally:
        evaluation.close()
    alternating = tuple(g % 2 for g in range(s.eval_games))
    assert tags[2:] == [
        ("eval/win_rate_vs_greedy", "greedy", alternating),
        ("eval/win_rate_vs_mcts_3", "mcts:3", alternating),
    ]
    with pytest.raises(ConfigError, match="^eval.opponents: .*hmcts.*odoku"):
        settings("eval.opponents=[hmcts:8]")
