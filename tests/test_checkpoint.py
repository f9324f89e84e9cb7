"""Checkpoints round-trip exactly, fail clearly, and load as ``az:`` players."""

import gymnasium
import numpy as np
import pytest
import torch

import envs
from agents.evaluation.runner import play_game
from agents.net.checkpoint import CheckpointError, build_network, check_game, latest_checkpoint, load_checkpoint
from agents.net.network import NetConfig, PolicyValueNet
from agents.players.registry import make_player
from agents.training.learner import Learner, LearnerConfig
from agents.training.replay import ReplayBuffer
from agents.training.saving import load_replay, replay_path, restore_rngs, save_checkpoint

torch.set_num_threads(1)  # tiny batches: threads only contend on the shared CPU

CONFIG = """\
agent:
  search:
    num_simulations: 3
    c_puct: 1.25
    dirichlet_alpha: null
    dirichlet_fraction: 0.25
    chance: expectation
    fpu_reduction: 0.0
"""


def write_checkpoint(path, game, seed=0):
    """A checkpoint after two learner steps, with a small replay buffer."""
    torch.manual_seed(seed)
    info = game.info
    net = PolicyValueNet.for_game(info, NetConfig(channels=8, blocks=1, value_hidden=8))
    learner = Learner(net, LearnerConfig(batch_size=4, min_replay=1), torch.device("cpu"))
    rng = np.random.default_rng(seed)
    replay = ReplayBuffer(10, info.obs_shape, info.num_actions)
    policy = rng.dirichlet(np.ones(info.num_actions), size=6).astype(np.float32)
    replay.add(rng.random((6, *info.obs_shape), dtype=np.float32), policy, rng.uniform(-1, 1, 6).astype(np.float32))
    for _ in range(2):
        learner.step(*replay.sample(4, rng))
    save_checkpoint(
        path,
        game_info=info,
        net=net,
        optimizer=learner.optimizer,
        step=2,
        iteration=1,
        rng=rng,
        config_yaml=CONFIG,
        replay=replay,
    )
    return net, learner, rng, replay, torch.rand(3)


@pytest.fixture
def odoku():
    return envs.make_game("odoku")


def test_round_trip_restores_everything(tmp_path, odoku):
    path = tmp_path / "ckpt_step0000002.pt"
    net, learner, rng, replay, torch_draws = write_checkpoint(path, odoku)
    checkpoint = load_checkpoint(path, odoku)
    assert checkpoint["step"] == 2 and checkpoint["iteration"] == 1
    assert checkpoint["game"] == {"name": "odoku", "params": {"bias": 0.5}}
    loaded = build_network(checkpoint, path, odoku).eval()
    obs = torch.rand(3, *odoku.info.obs_shape)
    for a, b in zip(net.eval()(obs), loaded(obs)):
        torch.testing.assert_close(a, b, rtol=0, atol=0)
    fresh = Learner(loaded, learner.config, torch.device("cpu"))
    fresh.optimizer.load_state_dict(checkpoint["optimizer"])
    for a, b in zip(learner.optimizer.state_dict()["state"].values(), fresh.optimizer.state_dict()["state"].values()):
        torch.testing.assert_close(a["exp_avg"], b["exp_avg"])
    torch.manual_seed(123)  # restore_rngs must undo this
    restored = restore_rngs(checkpoint)
    assert restored.random() == rng.random()
    torch.testing.assert_close(torch.rand(3), torch_draws)
    again = load_replay(path)
    for key, value in replay.state_dict().items():
        np.testing.assert_array_equal(again.state_dict()[key], value)
    assert latest_checkpoint(tmp_path) == path
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []  # no temp files left


def test_missing_corrupt_and_foreign_files(tmp_path, odoku):
    with pytest.raises(CheckpointError, match=r"nothere\.pt: no such file"):
        load_checkpoint(tmp_path / "nothere.pt")
    garbage = tmp_path / "garbage.pt"
    garbage.write_bytes(b"this is not a checkpoint" * 10)
    with pytest.raises(CheckpointError, match=r"garbage\.pt: not a readable checkpoint"):
        load_checkpoint(garbage)
    good = tmp_path / "good.pt"
    write_checkpoint(good, odoku)
    truncated = tmp_path / "truncated.pt"
    truncated.write_bytes(good.read_bytes()[:2000])
    with pytest.raises(CheckpointError, match=r"truncated\.pt: not a readable checkpoint"):
        load_checkpoint(truncated)
    foreign = tmp_path / "foreign.pt"
    torch.save({"weights": torch.zeros(2)}, foreign)
    with pytest.raises(CheckpointError, match=r"foreign\.pt: not a neuzero checkpoint"):
        load_checkpoint(foreign)
    with pytest.raises(CheckpointError, match=r"good\.pt is for odoku\(bias=0\.5\), not odoku\(bias=0\.3\)"):
        load_checkpoint(good, envs.make_game("odoku", bias=0.3))
    replay_path(good).unlink()
    with pytest.raises(CheckpointError, match=r"good\.replay\.npz of checkpoint .*good\.pt: no such file"):
        load_replay(good)
    with pytest.raises(CheckpointError, match="no checkpoint"):
        latest_checkpoint(tmp_path / "empty")


def test_checkpoint_plays_any_size_of_its_game_only(tmp_path, odoku):
    """The weights fit every board size: a Nex 5 checkpoint plays Nex 7 (its network's
    priors cover the 7x7 board); another game or other parameters are refused, and so
    is another size where the size must match (resuming a run)."""
    path = tmp_path / "nex.pt"
    write_checkpoint(path, envs.make_game("nex", size=5))
    nex7 = envs.make_game("nex", size=7)
    player = make_player(f"az:{path}:0", nex7)
    state = nex7.initial_state()
    priors, _ = player.estimator.estimate([state])
    assert priors.shape == (1, nex7.info.num_actions) and priors[0, : 7 * 7].min() > 0
    assert player.act(state, np.random.default_rng(0)) in nex7.legal_actions(state)
    with pytest.raises(
        CheckpointError, match=r"nex\.pt is for nex\(pie_rule=False, size=5\), not nex\(pie_rule=True, size=7\)"
    ):
        make_player(f"az:{path}", envs.make_game("nex", size=7, pie_rule=True))
    with pytest.raises(CheckpointError, match=r"is for nex\(.*\), not odoku"):
        make_player(f"az:{path}", odoku)
    with pytest.raises(
        CheckpointError, match=r"is for nex\(pie_rule=False, size=5\), not nex\(pie_rule=False, size=7\)"
    ):
        check_game(load_checkpoint(path), nex7, path)


def test_nex_checkpoint_is_an_env_opponent(tmp_path):
    path = tmp_path / "nex5.pt"
    write_checkpoint(path, envs.make_game("nex", size=5))
    env = gymnasium.make("Nex-v0", size=5, opponent=f"az:{path}:2", agent_seat=0)
    obs, info = env.reset(seed=1)
    terminated, rng = False, np.random.default_rng(1)
    while not terminated:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, _, info = env.step(int(rng.choice(legal)))
    assert info["winner"] in (0, 1) and reward == (1.0 if info["winner"] == 0 else -1.0)


def test_failed_write_keeps_the_old_checkpoint(tmp_path, odoku, monkeypatch):
    path = tmp_path / "ckpt.pt"
    write_checkpoint(path, odoku)
    before = path.read_bytes()

    def broken_save(obj, f):
        f.write(b"half a file")
        raise OSError("disk full")

    monkeypatch.setattr(torch, "save", broken_save)
    with pytest.raises(OSError, match="disk full"):
        write_checkpoint(path, odoku, seed=1)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ckpt.pt", "ckpt.replay.npz"]


def test_az_players_play_full_games(tmp_path, odoku):
    path = tmp_path / "ckpt.pt"
    write_checkpoint(path, odoku)
    rng = np.random.default_rng(0)
    raw, searching = make_player(f"az:{path}:0", odoku), make_player(f"az:{path}", odoku)
    assert searching.mcts.config.num_simulations == 3  # the checkpoint's budget
    assert make_player(f"az:{path}:7", odoku).mcts.config.num_simulations == 7
    result = play_game(odoku, [raw, searching], rng)
    assert result.num_decisions == 25
    # the raw network is deterministic: the same position, the same move
    state = odoku.initial_state()
    odoku.apply(state, 0)
    assert raw.act(state, np.random.default_rng(1)) == raw.act(state, np.random.default_rng(2))
    env = gymnasium.make("Odoku-v0", opponent=f"az:{path}:2")
    obs, info = env.reset(seed=0)
    terminated, steps = False, 0
    while not terminated:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, _, info = env.step(int(legal[0]))
        steps += 1
    assert "score" in info and 0 < steps < 25


@pytest.mark.parametrize(
    "spec, message", [("az:", "PATH"), ("az:x.pt:many", "SIMS"), ("az:x.pt:-1", "SIMS"), ("az:a:1:2", "PATH")]
)
def test_az_spec_errors(spec, message, odoku):
    with pytest.raises(ValueError, match=message):
        make_player(spec, odoku)


@pytest.mark.parametrize(
    "array",
    [
        np.zeros(0, dtype=np.float32),
        (np.arange(3000) % 2).astype(np.float32),  # a 0/1 plane
        np.concatenate([np.zeros(2500), [-0.0, 0.25, 7.0], np.ones(500)]).astype(
            np.float32
        ),  # values only near the end
        np.arange(256, dtype=np.float32)[::-1].repeat(7),  # exactly 256 values
        np.arange(257, dtype=np.float32),  # one too many
        np.random.default_rng(0).random(5000, dtype=np.float32),
    ],
)
def test_replay_packing_finds_the_distinct_values_as_a_sort_does(array):
    """Packing keeps at most 256 distinct bit patterns (-0.0 apart from 0.0) and uint8
    indices; small chunks make the values first seen past the first chunk count."""
    from agents.training.replay import _few_distinct

    bits = array.view(np.uint32)
    values, inverse = np.unique(bits, return_inverse=True)
    found = _few_distinct(bits, 256, chunk=1000)
    if len(values) > 256:
        assert found is None
    else:
        np.testing.assert_array_equal(found[0], values)
        np.testing.assert_array_equal(found[1], inverse)
        assert found[1].dtype == np.uint8
