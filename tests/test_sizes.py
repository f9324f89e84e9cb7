"""One network across board sizes: ``game.size`` as a list, weights or a schedule.

Runs are tiny Nex boards (3x3 and 4x4) with ``experiment=smoke``'s tiny network and
few simulations; each asserts what the run recorded (TensorBoard scalars, the replay
file, the checkpoint's weights), not only that it finished.
"""

import asyncio
import io
from pathlib import Path

import numpy as np
import pytest
import torch
from hydra import compose, initialize_config_dir

import envs
from agents.config import ConfigError
from agents.evaluation.modes import evaluate as evaluate_cli
from agents.net.checkpoint import load_checkpoint
from agents.net.network import NetConfig
from agents.sizes import parse_sizes
from agents.training.loop import train
from agents.training.ray_backend import InferenceActor
from agents.training.replay import ReplayBuffer, SizedReplay
from agents.training.saving import load_replay
from agents.training.settings import build_settings
from envs.records import replay_record

ROOT = Path(__file__).parents[1]
NEX = ["experiment=smoke", "game=nex", "eval.every=0", "agent.learner.min_replay=1"]
SCHEDULE = "game.size=[{from_iteration:1,sizes:[3]},{from_iteration:3,sizes:[4]}]"


def compose_cfg(config, overrides):
    with initialize_config_dir(config_dir=str(ROOT / "configs"), version_base="1.3"):
        return compose(config, overrides=list(overrides))


def run(directory, *overrides):
    return train(compose_cfg("train", overrides), directory, overrides)


def scalars(run_dir):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    events = EventAccumulator(str(run_dir)).Reload()
    return {tag: [e.value for e in events.Scalars(tag)] for tag in events.Tags()["scalars"]}


# --- game.size's shapes ------------------------------------------------------------------------
def test_shapes_of_game_size():
    assert parse_sizes(11).sizes == (11,) and not parse_sizes(11).mixed
    mix = parse_sizes([5, 7, 11]).at(1)
    assert mix.sizes == (5, 7, 11) and mix.probabilities == pytest.approx((1 / 3,) * 3)
    assert parse_sizes({"sizes": [5, 11], "weights": [1, 3]}).at(9).probabilities == (0.25, 0.75)
    schedule = parse_sizes(
        [{"from_iteration": 1, "sizes": [5]}, {"from_iteration": 4, "sizes": [5, 11], "weights": [1, 2]}]
    )
    assert [schedule.at(i).sizes for i in (1, 3, 4, 40)] == [(5,), (5,), (5, 11), (5, 11)]
    assert schedule.at(4).probabilities == pytest.approx((1 / 3, 2 / 3)) and schedule.sizes == (5, 11)


def test_each_game_draws_its_size_with_the_weights():
    mix = parse_sizes({"sizes": [3, 5, 7], "weights": [1, 0, 3]}).at(1)
    counts = mix.counts(8000, np.random.default_rng(0))
    assert counts[5] == 0 and sum(counts.values()) == 8000
    assert counts[3] / 8000 == pytest.approx(0.25, abs=0.02) and counts[7] / 8000 == pytest.approx(0.75, abs=0.02)
    rng = np.random.default_rng(1)
    assert parse_sizes(5).at(1).counts(10, rng) == {5: 10}
    assert rng.random() == np.random.default_rng(1).random()  # one size draws nothing


@pytest.mark.parametrize(
    "size, message",
    [
        ("big", r"game\.size must be an integer \(11\), a list of sizes"),
        ("[]", r"game\.size: the list of sizes is empty"),
        ("[3,3]", r"game\.size names size 3 twice"),
        ("{sizes:[3,4],weights:[1]}", r"game\.size: weights must be a list with one number per size \(2\)"),
        ("{sizes:[3,4],weights:[0,0]}", r"game\.size: weights must be numbers >= 0, not all zero"),
        ("{sizes:[3],bias:[1]}", r"game\.size must be an integer"),
        ("[{from_iteration:2,sizes:[3]}]", r"game\.size\[0\]\.from_iteration must be 1"),
        (
            "[{from_iteration:1,sizes:[3]},{from_iteration:1,sizes:[4]}]",
            r"game\.size\[1\]\.from_iteration \(1\) must be greater than the step before it \(1\)",
        ),
        ("[{from_iteration:1,sizes:[3]},{from_iteration:5,sizes:[]}]", r"game\.size\[1\]: the list of sizes is empty"),
        ("[{from_iteration:1,sizes:[3]},{from:5,sizes:[4]}]", r"game\.size\[1\]: a schedule step is \{from_iteration"),
        ("[3,1]", r"game\.size=\[3, 1\]: size 1 is refused: game \(name='nex', size=1.*\): size must"),
    ],
)
def test_bad_sizes_are_refused_naming_game_size(size, message):
    with pytest.raises(ConfigError, match=message):
        build_settings(compose_cfg("train", [*NEX, f"game.size={size}"]))


@pytest.mark.parametrize(
    "game, size, refused",
    [
        ("odoku", "[5,7]", "size 7 is refused: .*size must be 5"),
        ("neuy", "[5,1]", "size 1 is refused"),
        ("neuversi", "[6,7]", "size 7 is refused: .*even"),
    ],
)
def test_sizes_each_game_refuses(game, size, refused):
    with pytest.raises(ConfigError, match=rf"game\.size=.*{refused}"):
        build_settings(compose_cfg("train", ["experiment=smoke", f"game={game}", f"game.size={size}"]))


# --- the replay buffer over sizes --------------------------------------------------------------
def tagged(game, count, first):
    """``count`` positions of ``game`` whose value tags them ``first``, ``first + 1``, ..."""
    info = game.info
    obs = np.zeros((count, *info.obs_shape), dtype=np.float32)
    policy = np.full((count, info.num_actions), 1.0 / info.num_actions, dtype=np.float32)
    return obs, policy, np.arange(first, first + count, dtype=np.float32)


def test_sized_replay_keeps_the_runs_newest_positions_and_draws_batches_of_one_size():
    games = {3: envs.make_game("nex", size=3), 4: envs.make_game("nex", size=4)}
    shapes = {size: (g.info.obs_shape, g.info.num_actions) for size, g in games.items()}
    replay = SizedReplay(10, shapes)
    replay.add(3, *tagged(games[3], 6, 0))
    replay.add(4, *tagged(games[4], 3, 100))
    replay.add(3, *tagged(games[3], 4, 6))  # 13 added: the 3 oldest (size 3: 0, 1, 2) go
    assert len(replay) == 10 and replay.total_added == 13 and replay.held() == {3: 7, 4: 3}
    state = replay.state_dict()
    np.testing.assert_array_equal(state["size3_value"], [3, 4, 5, 6, 7, 8, 9])
    assert state["arrivals"].tolist() == [[3, 3], [4, 3], [3, 4]]
    rng = np.random.default_rng(0)
    symmetries = {size: g.symmetries() for size, g in games.items()}
    drawn = {3: 0, 4: 0}
    for _ in range(400):
        obs, policy, value = replay.sample(5, rng, symmetries)
        size = obs.shape[-1]
        assert policy.shape == (5, games[size].info.num_actions)
        assert set(value) <= ({3, 4, 5, 6, 7, 8, 9} if size == 3 else {100, 101, 102})
        drawn[size] += 1
    assert drawn[3] / 400 == pytest.approx(0.7, abs=0.08)  # in proportion to the positions held
    again = SizedReplay.from_state_dict(state)
    assert again.state_dict()["arrivals"].tolist() == state["arrivals"].tolist()
    smaller = SizedReplay.from_state_dict(state, capacity=5)  # keeps the run's newest 5
    assert smaller.held() == {3: 4, 4: 1}
    assert smaller.state_dict()["size4_value"].tolist() == [102]


def test_one_size_is_exactly_one_ring():
    game = envs.make_game("nex", size=3)
    ring = ReplayBuffer(7, game.info.obs_shape, game.info.num_actions)
    replay = SizedReplay(7, {3: (game.info.obs_shape, game.info.num_actions)})
    rng = np.random.default_rng(5)
    for first in (0, 4, 8):
        obs, policy, value = tagged(game, 4, first)
        obs = rng.random(obs.shape, dtype=np.float32)
        ring.add(obs, policy, value)
        replay.add(3, obs, policy, value)
    a, b = np.random.default_rng(2), np.random.default_rng(2)
    for x, y in zip(ring.sample(9, a, game.symmetries()), replay.sample(9, b, {3: game.symmetries()})):
        np.testing.assert_array_equal(x, y)
    assert set(replay.state_dict()) == set(ring.state_dict())


# --- training runs -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    """Weighted sizes, 2 iterations of 24 games, evaluated at every size."""
    directory = tmp_path_factory.mktemp("mixed")
    return run(
        directory,
        *NEX,
        "game.size={sizes:[3,4],weights:[1,3]}",
        "train.iterations=2",
        "agent.selfplay.games_per_iteration=24",
        "agent.selfplay.concurrent_games=24",
        "eval.every=2",
        "eval.games=2",
        "eval.mcts_simulations=2",
    )


def test_a_mixed_size_run_plays_trains_and_evaluates_every_size(mixed):
    recorded = scalars(mixed.run_dir)
    games = {size: sum(recorded[f"selfplay/{size}/games"]) for size in (3, 4)}
    assert games[3] + games[4] == 48 and games[4] / 48 == pytest.approx(0.75, abs=0.2)
    held = load_replay(mixed.checkpoint).held()
    assert held[3] >= games[3] and held[4] >= games[4]  # every game has a searched position
    for size in (3, 4):  # and at most a game's longest
        assert held[size] <= games[size] * envs.make_game("nex", size=size).info.max_decisions
    assert mixed.step == 6 and len(recorded["loss/policy"]) == 2
    for size in (3, 4):
        for tag in ("win_rate_vs_random", "win_rate_vs_mcts"):
            assert 0 <= recorded[f"eval/{size}/{tag}"][-1] <= 1
    assert not any(tag.startswith("eval/win_rate") for tag in recorded)  # per size only
    assert load_checkpoint(mixed.checkpoint)["game"]["params"]["size"] == 4  # the largest


def test_a_schedule_switches_sizes_at_the_given_iterations(tmp_path):
    result = run(tmp_path, *NEX, SCHEDULE, "train.iterations=3")
    recorded = scalars(result.run_dir)
    assert recorded["selfplay/3/games"] == [4, 4, 0] and recorded["selfplay/4/games"] == [0, 0, 4]
    held = load_replay(result.checkpoint).held()
    assert 4 <= held[4] <= 4 * envs.make_game("nex", size=4).info.max_decisions and held[3] >= 8


def test_a_mixed_run_resumes_exactly(tmp_path):
    """With a small capacity the oldest positions go every iteration: the resumed
    buffer must know which size arrived when."""
    mixed = [*NEX, "game.size=[4,3]", "agent.learner.replay_capacity=100"]
    whole = run(tmp_path / "whole", *mixed, "train.iterations=3")
    first = run(tmp_path / "first", *mixed, "train.iterations=2")
    overrides = [f"resume={first.checkpoint}", "train.iterations=3"]
    resumed = run(tmp_path / "first", *overrides)
    assert resumed.losses == whole.losses[2:]
    a, b = load_checkpoint(whole.checkpoint)["model"], load_checkpoint(resumed.checkpoint)["model"]
    assert all(torch.equal(a[key], b[key]) for key in a)
    x, y = load_replay(whole.checkpoint).state_dict(), load_replay(resumed.checkpoint).state_dict()
    assert set(x) == set(y) and all(np.array_equal(x[key], y[key]) for key in x)
    assert x["arrivals"][:, 1].sum() == 100 < x["total_added"]
    assert load_replay(first.checkpoint).state_dict()["arrivals"][0, 0] == 4  # 4x4 arrived first


def test_one_size_in_a_list_trains_exactly_as_the_plain_size(tmp_path):
    plain = run(tmp_path / "plain", *NEX, "game.size=3", "train.iterations=2")
    listed = run(tmp_path / "listed", *NEX, "game.size=[3]", "train.iterations=2")
    a, b = load_checkpoint(plain.checkpoint), load_checkpoint(listed.checkpoint)
    assert all(torch.equal(a["model"][key], b["model"][key]) for key in a["model"])
    assert a["game"] == b["game"] and plain.losses == listed.losses
    x, y = load_replay(plain.checkpoint).state_dict(), load_replay(listed.checkpoint).state_dict()
    assert set(x) == set(y) and all(np.array_equal(x[key], y[key]) for key in x)
    assert "eval/win_rate_vs_random" not in scalars(plain.run_dir)  # eval.every=0


def test_a_checkpoint_plays_another_size_in_evaluate(mixed, tmp_path):
    """Trained on 3x3 and 4x4, the checkpoint plays 5x5 in evaluate.py's match mode."""
    cfg = compose_cfg(
        "evaluate",
        ["progress=false", "game=nex", "game.size=5", f"players=[az:{mixed.checkpoint}:2,random]", "games=2"],
    )
    result = evaluate_cli(cfg, tmp_path, io.StringIO())
    assert len(result["games"]) == 2
    for entry in result["games"]:
        game, state = replay_record((tmp_path / entry["file"]).read_text())
        assert game.info.params["size"] == 5 and game.is_terminal(state)
        assert list(game.returns(state)) == entry["returns"]


def test_an_inference_actor_serves_each_board_size_its_own_pass():
    """Requests of two sizes arriving together: each gets its own rows of its own size's pass."""
    small, large = envs.make_game("nex", size=3), envs.make_game("nex", size=4)
    server = InferenceActor(small, NetConfig(channels=4, blocks=0, value_hidden=4), "cpu")
    obs = [
        np.random.default_rng(i).random((2, *g.info.obs_shape), dtype=np.float32)
        for i, g in enumerate([small, large, small])
    ]

    async def together():
        return await asyncio.wait_for(asyncio.gather(*(server.forward(o) for o in obs)), timeout=60)

    answers = asyncio.run(together())
    assert server.estimator.calls == 2  # one pass per size
    for o, (logits, values) in zip(obs, answers):
        expected_logits, expected_values = server.estimator.forward(o)
        np.testing.assert_allclose(logits, expected_logits, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(values, expected_values, rtol=1e-5, atol=1e-6)
