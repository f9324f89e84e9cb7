"""init=: a new run starts from a zoo network's or a checkpoint's weights, with a fresh
optimiser, replay buffer and counters; weights of another game or shape are refused by name."""

import json
from pathlib import Path

import pytest
import torch
import yaml
from hydra import compose, initialize_config_dir

import agents.training.loop as loop
from agents.config import ConfigError
from agents.net.checkpoint import CheckpointError, load_checkpoint
from agents.net.zoo import load_network
from agents.net.zoo.export import export_network
from agents.training.saving import load_replay
from envs.core import make_game

ROOT = Path(__file__).parents[1]
# smoke's 4 games an iteration; no learner step (min_replay out of reach), so the weights stay as they started
FROZEN = ["experiment=smoke", "eval.every=0", "agent.learner.min_replay=50000"]


def train(directory, *overrides):
    with initialize_config_dir(config_dir=str(ROOT / "configs"), version_base="1.3"):
        cfg = compose("train", overrides=list(overrides))
    return loop.train(cfg, directory, overrides)


def assert_same_weights(model: dict, expected: dict) -> None:
    assert model.keys() == expected.keys()
    for key, tensor in expected.items():
        assert torch.equal(model[key], tensor), key


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    """A smoke run of two iterations that learned (3 steps each): the weights to start from."""
    return train(tmp_path_factory.mktemp("source"), "experiment=smoke", "eval.every=0", "train.iterations=2")


def test_a_run_starts_from_a_checkpoints_weights_with_fresh_counters_and_replay(tmp_path, source):
    run = train(tmp_path, *FROZEN, "train.iterations=1", f"init={source.checkpoint}")
    started, ended = load_checkpoint(source.checkpoint), load_checkpoint(run.checkpoint)
    assert started["step"] == 6 and started["iteration"] == 2
    assert ended["step"] == 0 and ended["iteration"] == 1  # a new run's counters, not the source's
    assert_same_weights(ended["model"], started["model"])
    # its own 4 games' positions only, fewer than the source's 8 games (its buffer was not taken)
    assert 0 < load_replay(run.checkpoint).total_added < load_replay(source.checkpoint).total_added


def test_a_run_directory_gives_its_newest_checkpoint_which_the_run_records(tmp_path, source):
    run = train(tmp_path, *FROZEN, "train.iterations=1", f"init={source.checkpoint.parents[1]}")
    assert_same_weights(load_checkpoint(run.checkpoint)["model"], load_checkpoint(source.checkpoint)["model"])
    assert yaml.safe_load(load_checkpoint(run.checkpoint)["config"])["init"] == str(source.checkpoint)


def test_a_run_starts_from_the_zoo_network_of_its_game(tmp_path):
    run = train(tmp_path, *FROZEN, "net=small", "train.iterations=1", "init=zoo")
    zoo = load_network("odoku", make_game("odoku")).net.state_dict()
    assert_same_weights(load_checkpoint(run.checkpoint)["model"], zoo)


def test_a_zoo_network_starts_a_run_on_another_board_size(tmp_path):
    """Weights to train further fit every size (the network is fully convolutional): the zoo's
    Hex 11 network starts a Hex 5 run, its weights unchanged."""
    run = train(
        tmp_path, *FROZEN, "game=hex", "game.size=5", "experiment=none", "net=small", "train.iterations=1", "init=zoo"
    )
    zoo = load_network("hex", make_game("hex", size=5), any_size=True).net.state_dict()
    assert_same_weights(load_checkpoint(run.checkpoint)["model"], zoo)


def test_without_init_the_run_starts_elsewhere(tmp_path, source):
    run = train(tmp_path, *FROZEN, "train.iterations=1")
    model, other = load_checkpoint(run.checkpoint)["model"], load_checkpoint(source.checkpoint)["model"]
    assert any(not torch.equal(model[key], other[key]) for key in model)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (
            ["init=zoo"],  # smoke's tiny net against the zoo's small one
            r"init=zoo: its network is channels 32, blocks 2, value_hidden 64, this run's net is channels 8, "
            r"blocks 1, value_hidden 16; .*\(net.channels=32 net.blocks=2 net.value_hidden=64\)",
        ),
        (["net=small", "init=zoo:hex"], r"init=zoo:hex: zoo network .*hex.pt is for hex\(.*\), not odoku\(bias=0.5\)"),
        (["init=zoo:nosuch"], r"init=zoo:nosuch: the zoo has no network 'nosuch'"),
        (["init=/no/such/checkpoint.pt"], r"init=/no/such/checkpoint.pt: checkpoint .* no such file"),
    ],
)
def test_weights_that_do_not_fit_are_refused_naming_both(tmp_path, overrides, message):
    with pytest.raises(ConfigError, match=message):
        train(tmp_path, *FROZEN, *overrides)


def test_another_games_checkpoint_is_refused(tmp_path, source):
    with pytest.raises(ConfigError, match=r"is for odoku\(bias=0.5\), not nex\(.*size=3"):
        train(tmp_path, *FROZEN, "game=nex", "game.size=3", f"init={source.checkpoint}")


def test_resume_refuses_a_new_init(tmp_path, source):
    with pytest.raises(ConfigError, match="init: a resumed run continues from its checkpoint's weights"):
        train(tmp_path, f"resume={source.checkpoint}", "init=zoo")


def test_export_counts_the_training_the_run_started_from(tmp_path, source):
    """A zoo card's commands, wall time, steps and iterations cover the whole chain of runs."""
    zoo = tmp_path / "zoo"
    _, card_a = export_network(source.checkpoint, ["python train.py A"], "c1", "machine A", name="odoku", directory=zoo)
    measured = {"name": "f", "command": "x", "games": 1, "value": 1.0, "interval": [0.0, 1.0]}
    measured |= {"target": "none", "met": True, "verdict": "v", "date": "2026-12-05"}
    card_a.write_text(json.dumps(json.loads(card_a.read_text()) | {"figures": [measured]}))  # a measured card
    from_checkpoint = train(tmp_path / "b", *FROZEN, "train.iterations=1", f"init={source.checkpoint}")
    from_zoo = train(tmp_path / "c", *FROZEN, "net=small", "train.iterations=1", "init=zoo")
    source_s, checkpoint_s, zoo_s = (
        load_checkpoint(r.checkpoint)["wall_seconds"] for r in (source, from_checkpoint, from_zoo)
    )

    _, card = export_network(
        from_checkpoint.checkpoint, ["python train.py B"], "c2", "machine B", name="b", directory=zoo
    )
    training = json.loads(card.read_text())["training"]
    assert training["commands"] == ["python train.py B"]  # the source checkpoint's commands are unknown
    assert (training["steps"], training["iterations"]) == (6 + 0, 2 + 1)
    assert training["wall_seconds"] == round(source_s + checkpoint_s, 1)

    # init=zoo: the card in the export's zoo folder (here the one written above) is the training before
    _, card = export_network(from_zoo.checkpoint, ["python train.py C"], "c3", "machine C", name="c", directory=zoo)
    training = json.loads(card.read_text())["training"]
    assert training["commands"] == ["python train.py A", "python train.py C"]
    assert (training["steps"], training["iterations"]) == (6, 3)
    assert training["wall_seconds"] == round(round(source_s, 1) + zoo_s, 1)
    assert training["machine"] == "machine A; then (init=zoo) machine C"


def test_export_needs_the_training_the_run_started_from(tmp_path, source):
    run = train(tmp_path / "run", *FROZEN, "net=small", "train.iterations=1", "init=zoo")
    with pytest.raises(CheckpointError, match="started from init=zoo, whose card is needed"):
        export_network(run.checkpoint, ["python train.py"], "c", "m", directory=tmp_path / "empty_zoo")
