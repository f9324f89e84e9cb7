"""The ONNX Runtime forward pass (agents/net/inference.py) against PyTorch's: the same
priors and values on random positions of every game, weights followed as the learner
changes them, and the backend named by the config with a clear error for a bad name."""

from pathlib import Path

import numpy as np
import pytest
import torch
from hydra import compose, initialize_config_dir

from agents.config import ConfigError
from agents.net import inference
from agents.net.inference import OnnxForward, TorchForward, make_forward, set_default_backend
from agents.net.net_estimator import NetEstimator
from agents.net.network import NetConfig, PolicyValueNet
from agents.search.mcts import MCTS, SearchConfig
from agents.training.selfplay import SelfPlayConfig, self_play
from agents.training.settings import build_settings
from envs import GAMES, make_game

pytest.importorskip("onnxruntime")

NET = NetConfig(channels=16, blocks=1, value_hidden=16)
TOLERANCE = 1e-4  # float32 arithmetic in a different order


def random_positions(game, count: int, seed: int) -> list:
    """Decision states met in random games (chance resolved at random)."""
    rng, states = np.random.default_rng(seed), []
    state = game.initial_state()
    while len(states) < count:
        if game.is_terminal(state):
            state = game.initial_state()
        elif game.is_chance(state):
            outcomes, probs = zip(*game.chance_outcomes(state))
            game.apply(state, outcomes[rng.choice(len(outcomes), p=np.array(probs) / sum(probs))])
        else:
            if rng.random() < 0.3:
                states.append(state.copy())
            legal = game.legal_actions(state)
            game.apply(state, legal[int(rng.integers(len(legal)))])
    return states


@pytest.mark.parametrize("name", sorted(GAMES))
def test_onnx_gives_torchs_priors_and_values_on_every_game(name):
    game = make_game(name)
    torch.manual_seed(0)
    net = PolicyValueNet.for_game(game.info, NET)
    states = random_positions(game, 6, seed=len(name))
    by_torch = NetEstimator(game, net, inference="torch")
    by_onnx = NetEstimator(game, net, inference="onnx")
    assert isinstance(by_torch.run, TorchForward) and isinstance(by_onnx.run, OnnxForward)
    for batch in (states[:1], states):
        priors, values = by_torch.estimate(batch)
        onnx_priors, onnx_values = by_onnx.estimate(batch)
        assert np.abs(priors - onnx_priors).max() < TOLERANCE
        assert np.abs(values - onnx_values).max() < TOLERANCE
        assert np.array_equal(priors > 0, onnx_priors > 0)  # the same legal actions


def test_onnx_follows_the_weights_as_they_change():
    game = make_game("nex", size=5)
    torch.manual_seed(1)
    net = PolicyValueNet.for_game(game.info, NET)
    forward = make_forward(net, torch.device("cpu"), "onnx")
    obs = np.stack([game.observe(s) for s in random_positions(game, 4, seed=3)])

    def agrees() -> bool:
        net.eval()
        with torch.inference_mode():
            logits, value = net(torch.from_numpy(obs))
        ours = forward(obs)
        return np.allclose(ours[0], logits.numpy(), atol=TOLERANCE) and np.allclose(
            ours[1], value.numpy(), atol=TOLERANCE
        )

    assert agrees() and forward.exports == 1
    forward(obs)
    assert forward.exports == 1  # unchanged weights: the session is kept
    optimiser = torch.optim.SGD(net.parameters(), lr=0.5)
    net.train()
    logits, value = net(torch.from_numpy(obs))
    (logits.square().mean() + value.sum()).backward()
    optimiser.step()  # a learner step, batch norm's statistics updated in train mode
    assert agrees() and forward.exports == 2
    other = PolicyValueNet.for_game(game.info, NET)
    net.load_state_dict(other.state_dict())  # what a worker does when the learner publishes
    assert agrees() and forward.exports == 3
    forward(np.stack([make_game("nex", size=7).observe(make_game("nex", size=7).initial_state())]))
    assert forward.exports == 4  # another board size: a session of its own


def test_the_backend_is_named_and_checked(monkeypatch):
    game = make_game("odoku")
    net = PolicyValueNet.for_game(game.info, NET)
    monkeypatch.delenv(inference.ENVIRONMENT, raising=False)
    assert isinstance(NetEstimator(game, net).run, OnnxForward)  # auto on the CPU, onnxruntime installed
    set_default_backend("torch")
    assert isinstance(NetEstimator(game, net).run, TorchForward)
    with pytest.raises(ValueError, match="inference must be one of auto, torch, onnx, got 'tensorrt'"):
        set_default_backend("tensorrt")
    monkeypatch.setattr(inference, "onnx_available", lambda: False)
    assert isinstance(make_forward(net, torch.device("cpu"), "auto"), TorchForward)
    with pytest.raises(ValueError, match="pip install onnxruntime onnx"):
        make_forward(net, torch.device("cpu"), "onnx")


def test_a_bad_inference_key_is_refused_by_name():
    with initialize_config_dir(config_dir=str(Path(__file__).parents[1] / "configs"), version_base="1.3"):
        cfg = compose("train", overrides=["inference=fast"])
    with pytest.raises(ConfigError, match="inference must be one of auto, torch, onnx, got 'fast'"):
        build_settings(cfg)


@pytest.mark.parametrize("name", ["hex", "nex", "neuversi"])
def test_both_backends_play_the_same_self_play_games_on_tiny_boards(name):
    """The backends differ in the last bits only: on the solver's boards (3x3, NeuVersi 4x4) the
    same seed gives the same self-play games, move for move, and the same targets to 1e-4."""
    game = make_game(name, size=4 if name == "neuversi" else 3)
    torch.manual_seed(0)
    net = PolicyValueNet.for_game(game.info, NET)
    config = SelfPlayConfig(games_per_iteration=8, concurrent_games=8)
    batches = {
        backend: self_play(
            game,
            MCTS(game, SearchConfig(num_simulations=24)),
            NetEstimator(game, net, inference=backend),
            8,
            config,
            np.random.default_rng(5),
        )
        for backend in ("torch", "onnx")
    }
    assert batches["torch"].games == batches["onnx"].games
    np.testing.assert_allclose(batches["torch"].policy, batches["onnx"].policy, atol=1e-4)
    np.testing.assert_allclose(batches["torch"].value, batches["onnx"].value, atol=1e-4)
