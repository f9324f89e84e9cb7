"""``agent.learner.zero_value_init``: a fresh network whose value head starts at zero, and why
Blockdance's self-play needs it (docs/training.md, "Why Blockdance's first games end by two passes").

A randomly initialised value head gives nearly every position one value ``c``. In Blockdance a
move's first micro-step keeps the turn (its child is worth ``c`` to the mover) while the pass
hands it over (``-c``) and a second pass ends the game at exactly 0; Gumbel search rescales the
root children's values to [0, 1], so a gap of ``2|c|`` puts the pass 50 logits ahead."""

import numpy as np
import pytest
import torch
from hydra import compose, initialize_config_dir
from test_configs import CONFIGS

from agents.config import ConfigError
from agents.net.net_estimator import NetEstimator
from agents.net.network import NetConfig, PolicyValueNet
from agents.search.mcts import MCTS, SearchConfig
from agents.training.learner import LearnerConfig
from agents.training.saving import run_start
from agents.training.settings import build_settings
from envs import make_game

SEARCHES = 12  # root generators 0..11


def untrained(game, seed: int, zero: bool) -> NetEstimator:
    torch.manual_seed(seed)
    net = PolicyValueNet.for_game(game.info, NetConfig(channels=32, blocks=2, value_hidden=64))
    if zero:
        net.zero_value_output()
    return NetEstimator(game, net, inference="torch")


def root_searches(game, estimator, state):
    """The recipe's self-play search (Gumbel, 32 simulations, root noise) from ``state``, once per generator."""
    mcts = MCTS(game, SearchConfig(num_simulations=32, gumbel=True))
    rngs = [np.random.default_rng(seed) for seed in range(SEARCHES)]
    return mcts.search_many([state] * SEARCHES, estimator, rngs, add_noise=True)


def start_and_after_a_pass(game):
    passed = game.initial_state()
    game.apply(passed, game.PASS)
    return {"start": game.initial_state(), "after a pass": passed}


@pytest.mark.parametrize("seed, values", [(0, (-0.0378, -0.0297)), (2, (-0.0611, -0.0628))])
def test_a_random_value_head_makes_blockdance_pass(seed, values):
    game = make_game("blockdance", size=6)
    estimator = untrained(game, seed, zero=False)
    for (name, state), value in zip(start_and_after_a_pass(game).items(), values):
        _, estimate = estimator.estimate([state])  # the mover's value: below 0 at both roots
        assert estimate[0, game.to_play(state)] == pytest.approx(value, abs=1e-3)
        results = root_searches(game, estimator, state)
        passes = sum(r.selected == game.PASS for r in results)
        assert passes >= 9, (name, passes)  # the pass wins whenever halving considers it (16 of 19)
        assert max(r.improved_policy[game.PASS] for r in results) > 0.999


@pytest.mark.parametrize("seed", [0, 2])
def test_a_zero_value_head_leaves_the_search_to_the_priors(seed):
    game = make_game("blockdance", size=6)
    estimator = untrained(game, seed, zero=True)
    for name, state in start_and_after_a_pass(game).items():
        priors, values = estimator.estimate([state])
        assert not values.any()
        results = root_searches(game, estimator, state)
        for r in results:  # every completed value is 0: sigma adds nothing to the logits
            np.testing.assert_allclose(r.improved_policy, priors[0], atol=1e-12)
        passes = sum(r.selected == game.PASS for r in results)
        assert passes <= 2, (name, passes)  # about the pass's prior, 1/19, of 12 searches


def settings(*overrides):
    with initialize_config_dir(config_dir=str(CONFIGS), version_base="1.3"):
        return build_settings(compose("train", overrides=["experiment=smoke", *overrides]))


def test_a_run_starts_with_a_zero_value_head_and_the_same_other_weights():
    plain = run_start(settings()).net.state_dict()
    zeroed = run_start(settings("agent.learner.zero_value_init=true")).net
    last = [name for name in plain if name.startswith("value_mlp.2.")]
    assert sorted(last) == ["value_mlp.2.bias", "value_mlp.2.weight"] and all(plain[n].abs().sum() > 0 for n in last)
    for name, tensor in zeroed.state_dict().items():
        assert torch.equal(tensor, torch.zeros_like(tensor) if name in last else plain[name]), name
    zeroed.eval()
    _, value = zeroed(torch.randn(4, *settings().game.info.obs_shape))
    assert torch.equal(value, torch.zeros(4))


def test_zero_value_init_is_off_by_default_and_takes_a_bool():
    assert LearnerConfig().zero_value_init is False
    with pytest.raises(ConfigError, match="agent.learner.zero_value_init"):
        LearnerConfig(zero_value_init=1)
