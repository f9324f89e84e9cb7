"""End to end: ``experiment=smoke`` trains, logs, checkpoints, resumes exactly, stops cleanly."""

import subprocess
import sys
from pathlib import Path

import gymnasium
import numpy as np
import pytest
import torch
from hydra import compose, initialize_config_dir

import agents.training.feeds as feeds
from agents.config import ConfigError
from agents.evaluation.odoku_measures import move_regret
from agents.net.checkpoint import load_checkpoint
from agents.search.estimators import UniformEstimator
from agents.search.mcts import MCTS, SearchConfig, SearchResult
from agents.training.loop import train
from agents.training.saving import load_replay
from agents.training.selfplay import SelfPlayConfig, self_play
from agents.training.settings import build_settings
from envs import make_game
from envs.games.odoku.game import value

ROOT = Path(__file__).parents[1]
SCALARS = {
    "loss/policy",
    "loss/value",
    "selfplay/game_length",
    "selfplay/first_seat_win_rate",
    "perf/positions_per_s",
    "eval/win_rate_vs_random",
    "eval/win_rate_vs_mcts",
    "eval/score_vs_oracle_as_B",
    "eval/score_vs_oracle_as_A",
}


def compose_train(overrides):
    with initialize_config_dir(config_dir=str(ROOT / "configs"), version_base="1.3"):
        return compose("train", overrides=list(overrides))


def run(directory, *overrides):
    """A smoke run; a resumed run takes its configuration from the checkpoint."""
    if not any(o.startswith("resume=") for o in overrides):
        overrides = ["experiment=smoke", *overrides]
    return train(compose_train(overrides), directory, overrides)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """An uninterrupted 3-iteration smoke run, and one stopped after 2 and resumed to 3."""
    base = tmp_path_factory.mktemp("runs")
    whole = run(base / "whole", "train.iterations=3")
    first = run(base / "first", "train.iterations=2")
    resumed = run(base / "resumed", f"resume={first.checkpoint}", "train.iterations=3")
    return whole, first, resumed


@pytest.mark.parametrize("value_mix", [0.0, 0.5])
def test_selfplay_targets(value_mix):
    """Every searched position gives the mover's final return (mixed with the root value)
    and a policy on legal actions; games run concurrently to the end."""

    game = make_game("odoku")
    config = SelfPlayConfig(concurrent_games=2, temperature_moves=25, value_mix=value_mix)
    batch = self_play(
        game, MCTS(game, SearchConfig(num_simulations=3)), UniformEstimator(game), 3, config, np.random.default_rng(0)
    )
    assert batch.game_lengths == [25, 25, 25] and batch.num_positions == 75 and len(batch.games) == 3
    np.testing.assert_allclose(batch.policy.sum(axis=1), 1.0, rtol=1e-6)
    index = 0
    for actions, returns in zip(batch.games, batch.returns):
        state = game.initial_state()
        for action in actions:
            if not game.is_chance(state):
                mover = game.to_play(state)
                assert np.all(batch.policy[index][~game.legal_mask(state)] == 0)
                np.testing.assert_array_equal(batch.obs[index], game.observe(state))
                # value = (1 - mix) * outcome + mix * root value, a root value lies in [-1, 1]
                outcome_part = (1 - value_mix) * returns[mover]
                assert abs(batch.value[index] - outcome_part) <= value_mix + 1e-6
                index += 1
            game.apply(state, action)
        assert game.returns(state) == returns
    assert index == 75
    assert batch.first_seat_win_rate == np.mean([r[0] > 0 for r in batch.returns])


def test_rollout_outcomes_are_the_mean_of_random_playouts_from_the_position():
    """With ``outcome_rollouts = K`` the outcome part of each value target is the mean
    return of K random playouts from the position: on Odoku (random-turn theorem) an
    unbiased estimate of the exact value, so with K = 64 every target lies near it."""

    game = make_game("odoku")
    config = SelfPlayConfig(concurrent_games=2, outcome_rollouts=64)
    batch = self_play(
        game, MCTS(game, SearchConfig(num_simulations=2)), UniformEstimator(game), 2, config, np.random.default_rng(3)
    )
    states = [state for state, _ in _searched_positions(game, batch.games)]
    exact = [(value(s) - 7.5) / 7.5 * (1 if game.to_play(s) == 0 else -1) for s in states]
    errors = batch.value - np.array(exact)
    # a playout's return has a standard deviation below 0.27: 64 of them, below 0.034
    assert len(states) == batch.num_positions and np.max(np.abs(errors)) < 0.15
    assert abs(np.mean(errors)) < 0.03


def test_rollout_outcomes_come_from_the_games_playouts(monkeypatch):
    """The rollout mean replaces the final return: a game whose playouts always end
    (0.25, -0.25) gives every position that value for its mover, whatever the result."""

    game = make_game("odoku")
    monkeypatch.setattr(game, "random_playout", lambda state, rng: ((0.25, -0.25), 0, 0))
    config = SelfPlayConfig(concurrent_games=2, outcome_rollouts=3, value_mix=0.0)
    batch = self_play(
        game, MCTS(game, SearchConfig(num_simulations=2)), UniformEstimator(game), 2, config, np.random.default_rng(0)
    )
    movers = [game.to_play(state) for state, _ in _searched_positions(game, batch.games)]
    np.testing.assert_array_equal(batch.value, [0.25 if m == 0 else -0.25 for m in movers])


def test_playout_policy_targets_are_the_best_actions_by_the_playouts(monkeypatch):
    """With ``policy_rollouts = K`` the policy target is uniform over the legal actions
    whose playouts return the most to the mover, not the search's visit shares: a
    stand-in ranking (the mover gains most from the two highest legal cells' colours
    for B, the lowest for A) must be learned exactly, whatever the search visited."""

    game = make_game("odoku")
    asked = []

    def ranking(state, rollouts, rng):
        asked.append(rollouts)
        means = np.full((50, 2), np.nan)
        legal = game.legal_actions(state)
        means[legal, 0] = np.array(legal) // 2 / 25.0  # both colours of a cell tie
        means[legal, 1] = -means[legal, 0]
        return means

    monkeypatch.setattr(game, "action_playout_returns", ranking)
    config = SelfPlayConfig(concurrent_games=2, policy_rollouts=7)
    batch = self_play(
        game, MCTS(game, SearchConfig(num_simulations=8)), UniformEstimator(game), 2, config, np.random.default_rng(0)
    )
    positions = _searched_positions(game, batch.games)
    for index, (state, _) in enumerate(positions):
        legal = game.legal_actions(state)
        best = legal[-2:] if game.to_play(state) == 0 else legal[:2]
        expected = np.zeros(50, dtype=np.float32)
        expected[best] = 0.5
        np.testing.assert_array_equal(batch.policy[index], expected)
    assert len(positions) == batch.num_positions == len(asked) and set(asked) == {7}


def test_playout_policy_targets_on_odoku_are_near_optimal():
    """On Odoku the playout ranking (common random numbers) picks moves within a
    small fraction of a point of the best; the search's visit shares with a
    uniform estimator and 8 simulations lose far more."""

    game = make_game("odoku")
    regrets = {}
    for rollouts in (0, 256):
        config = SelfPlayConfig(concurrent_games=2, policy_rollouts=rollouts)
        batch = self_play(
            game,
            MCTS(game, SearchConfig(num_simulations=8)),
            UniformEstimator(game),
            2,
            config,
            np.random.default_rng(1),
        )
        lost = []
        for index, (state, _) in enumerate(_searched_positions(game, batch.games)):
            lost.append(sum(p * move_regret(state, a) for a, p in enumerate(batch.policy[index]) if p > 0))
        regrets[rollouts] = np.mean(lost)
    assert regrets[256] < 0.03 and regrets[0] > 0.2


def _searched_positions(game, games):
    """(state, action played) for every searched decision of the recorded games, in order."""
    positions = []
    for actions in games:
        state = game.initial_state()
        for action in actions:
            if not game.is_chance(state) and len(game.legal_actions(state)) > 1:
                positions.append((state.copy(), action))
            game.apply(state, action)
    return positions


def test_gumbel_selfplay_learns_the_improved_policy_and_the_selected_value():
    """After a Gumbel search, self-play plays the action sequential halving selected,
    learns its improved policy (not the visit shares) and takes the selected action's
    value as the search value (not the root mean)."""

    game = make_game("odoku")
    n = game.info.num_actions

    class GumbelResults:  # stands in for MCTS: results whose three answers all differ
        def search_many(self, states, estimator, rng, add_noise=False):
            results = []
            for state in states:
                legal = game.legal_actions(state)
                visits, improved, q = np.zeros(n), np.zeros(n), np.full((n, 2), np.nan)
                visits[legal[0]] = 5.0
                improved[legal[1]] = 1.0
                q[legal[-1]] = (0.25, -0.25)
                root_values = np.array([0.75, -0.75])
                results.append(SearchResult(visits, root_values, q, visits, game.to_play(state), legal[-1], improved))
            return results

    batch = self_play(game, GumbelResults(), None, 2, SelfPlayConfig(value_mix=1.0), np.random.default_rng(0))
    positions = _searched_positions(game, batch.games)
    for index, (state, action) in enumerate(positions):
        legal = game.legal_actions(state)
        assert action == legal[-1]
        assert int(np.argmax(batch.policy[index])) == legal[1] and batch.policy[index].sum() == 1.0
        assert batch.value[index] == (0.25 if game.to_play(state) == 0 else -0.25)
    assert len(positions) == batch.num_positions > 40


def test_playout_cap_records_only_the_full_searches(monkeypatch):
    """With ``full_search_share = 0.25`` about a quarter of the moves get the full
    search with root noise and become targets; the others get the fast search,
    without noise, and are played but not recorded."""

    game = make_game("odoku")
    searched = []  # (simulations, add_noise, states) per search_many call
    search_many = MCTS.search_many

    def spy(self, states, estimator, rng, add_noise=False):
        searched.append((self.config.num_simulations, add_noise, len(states)))
        return search_many(self, states, estimator, rng, add_noise)

    monkeypatch.setattr(MCTS, "search_many", spy)
    config = SelfPlayConfig(concurrent_games=4, full_search_share=0.25, fast_simulations=2)
    mcts = MCTS(game, SearchConfig(num_simulations=8))
    batch = self_play(game, mcts, UniformEstimator(game), 8, config, np.random.default_rng(0))
    full = sum(n for sims, noise, n in searched if sims == 8 and noise)
    fast = sum(n for sims, noise, n in searched if sims == 2 and not noise)
    assert full + fast == sum(n for _, _, n in searched) == sum(batch.game_lengths) == 200
    assert batch.num_positions == full and 30 <= full <= 70  # 200 draws of 0.25: 50 +- 6
    recorded = [game.observe(state) for state, _ in _searched_positions(game, batch.games)]
    at = 0  # the targets are the full searches' positions, in the order played
    for obs in batch.obs:
        while not np.array_equal(recorded[at], obs):
            at += 1
        at += 1
    again = self_play(game, mcts, UniformEstimator(game), 8, config, np.random.default_rng(0))
    assert again.games == batch.games and np.array_equal(again.value, batch.value)


@pytest.mark.parametrize(
    "name, params, search, selfplay",
    [
        ("odoku", {}, {"num_simulations": 6, "chance": "sample"}, {"full_search_share": 0.5, "fast_simulations": 2}),
        ("nex", {"size": 4}, {"num_simulations": 8, "gumbel": True, "gumbel_actions": 4, "playout_mix": 0.5}, {}),
        ("nex", {"size": 4}, {"num_simulations": 8}, {"outcome_rollouts": 2, "temperature_moves": 3}),
    ],
)
def test_games_in_flight_change_no_game(name, params, search, selfplay):
    """Each game draws from its own generator, so with an estimator that gives a state the same
    output in any batch, 1, 3 or 7 games in flight play the same games and the same targets."""
    from test_search import HashEstimator

    game = make_game(name, **params)
    mcts = MCTS(game, SearchConfig(**search))
    batches = [
        self_play(game, mcts, HashEstimator(game), 7, SelfPlayConfig(concurrent_games=k, **selfplay), rng)
        for k, rng in ((1, np.random.default_rng(5)), (3, np.random.default_rng(5)), (7, np.random.default_rng(5)))
    ]
    first = batches[0]
    assert len({tuple(map(tuple, b.games)) for b in batches}) == 1 and len({tuple(g) for g in first.games}) > 1
    for other in batches[1:]:
        assert np.array_equal(other.obs, first.obs) and np.array_equal(other.policy, first.policy)
        assert np.array_equal(other.value, first.value) and other.returns == first.returns


def test_smoke_run_writes_events_and_checkpoints(runs):
    whole, _, _ = runs
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    events = EventAccumulator(str(whole.run_dir)).Reload()
    assert SCALARS <= set(events.Tags()["scalars"])
    assert [e.step for e in events.Scalars("loss/policy")] == [1, 2, 3]
    texts = set(events.Tags()["tensors"])
    assert {"hparams/text_summary", "selfplay/sample_game/text_summary"} <= texts
    oracle_b = events.Scalars("eval/score_vs_oracle_as_B")[-1].value
    assert 0 <= oracle_b <= 15
    assert whole.step == 9 and whole.iteration == 3
    checkpoint = load_checkpoint(whole.checkpoint)
    assert checkpoint["step"] == 9 and checkpoint["iteration"] == 3
    assert "num_simulations: 4" in checkpoint["config"]
    kept = sorted(p.name for p in (whole.run_dir / "checkpoints").iterdir())
    assert kept == [f"ckpt_step{3 * i:07d}_iter{i:04d}{ext}" for i in (1, 2, 3) for ext in (".pt", ".replay.npz")]


def test_checkpoint_loads_as_an_opponent_and_plays_a_full_game(runs):
    whole, _, _ = runs
    for spec in (f"az:{whole.checkpoint}", f"az:{whole.checkpoint}:0"):
        env = gymnasium.make("Odoku-v0", opponent=spec, agent_seat=1)
        obs, info = env.reset(seed=3)
        terminated = False
        while not terminated:
            obs, reward, terminated, _, info = env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        assert 0 <= info["score"] <= 15 and reward == pytest.approx(-(info["score"] - 7.5) / 7.5)


def test_same_seed_same_losses_and_exact_resume(runs):
    whole, first, resumed = runs
    assert first.losses == whole.losses[:2]  # the same seed gives the same numbers
    assert resumed.step == whole.step and resumed.iteration == whole.iteration == 3
    assert resumed.losses == whole.losses[2:]  # continued exactly where it stopped
    a, b = load_checkpoint(whole.checkpoint), load_checkpoint(resumed.checkpoint)
    for key in a["model"]:
        torch.testing.assert_close(a["model"][key], b["model"][key], rtol=0, atol=0)
    for state_a, state_b in zip(a["optimizer"]["state"].values(), b["optimizer"]["state"].values()):
        for key in state_a:
            torch.testing.assert_close(state_a[key], state_b[key], rtol=0, atol=0)
    assert a["numpy_rng"] == b["numpy_rng"]


def test_ctrl_c_writes_a_checkpoint_that_resumes(tmp_path, monkeypatch):
    calls = []
    real = feeds.self_play_sizes  # the main process's feed (experiment=smoke: workers=0)

    def interrupted_second_time(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(feeds, "self_play_sizes", interrupted_second_time)
    stopped = run(tmp_path / "stopped", "train.iterations=3", "eval.every=0")
    assert stopped.interrupted and stopped.iteration == 1 and stopped.step == 3
    assert load_checkpoint(stopped.checkpoint)["iteration"] == 1
    monkeypatch.setattr(feeds, "self_play_sizes", real)
    finished = run(tmp_path / "finished", f"resume={stopped.checkpoint.parent.parent}")
    assert not finished.interrupted and finished.iteration == 3 and finished.step == 9


@pytest.mark.slow  # spawning a process that imports torch takes 10-30 s on the shared CPU
def test_a_worker_process_plays_the_games(tmp_path):
    result = run(tmp_path, "train.iterations=1", "eval.every=0", "agent.selfplay.workers=1")
    assert result.step == 3
    assert len(load_replay(result.checkpoint)) == 4 * 25  # 4 games of 25 searched decisions


@pytest.mark.parametrize(
    "overrides, key",
    [
        (["agent.search.num_simulations=-1"], "num_simulations"),
        (["agent.selfplay.concurrent_games=0"], "agent.selfplay.concurrent_games"),
        (["agent.selfplay.policy_rollouts=-8"], "agent.selfplay.policy_rollouts"),
        (["agent.selfplay.full_search_share=0"], "agent.selfplay.full_search_share"),
        (["agent.selfplay.full_search_share=0.25"], "agent.selfplay.fast_simulations must be >= 1"),
        (["agent.selfplay.full_search_share=0.25", "agent.selfplay.fast_simulations=64"], "must be below"),
        (["agent.learner.lr=0"], "agent.learner.lr"),
        (["+agent.search.depth=3"], "agent.search"),
        (["game.name=chess"], "unknown game 'chess'"),
        (["game.bias=1.5"], "bias"),
        (["net.channels=-4"], "net.channels"),
        (["train.iterations=-1"], "train.iterations"),
        (["eval.games=-2"], "eval.games"),
        (["device=abacus"], "device"),
    ],
)
def test_invalid_values_stop_before_training(overrides, key):
    with pytest.raises(ConfigError, match=key):
        build_settings(compose_train(overrides))


def test_a_size_the_game_does_not_allow():
    with pytest.raises(ConfigError, match=r"game \(name='nex', size=1"):
        build_settings(compose_train(["game=nex", "game.size=1"]))


def test_resume_cannot_switch_game(tmp_path, runs):
    whole, _, _ = runs
    with pytest.raises(ConfigError, match="game: a config group cannot change"):
        run(tmp_path, f"resume={whole.checkpoint}", "game=nex")


def cli(tmp_path, *args):
    return subprocess.run(
        [sys.executable, "train.py", f"hydra.run.dir={tmp_path}", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_command_line_smoke_run(tmp_path):
    done = cli(tmp_path, "experiment=smoke", "train.iterations=1")
    assert done.returncode == 0, done.stderr
    output = done.stdout + done.stderr
    assert f"run directory: {tmp_path}" in output and f"tensorboard --logdir {tmp_path}" in output
    assert "iter 1/1" in output and "\r" not in output  # no progress bar when not on a terminal
    assert list(tmp_path.glob("events.out.tfevents.*")) and list(tmp_path.glob("checkpoints/*.pt"))
    # the log file keeps the run's history: banner, iterations, evaluation, checkpoint
    logged = (tmp_path / "train.log").read_text().splitlines()
    assert "[INFO][agents.training.loop] training odoku {'bias': 0.5} on cpu, seed 0" in logged[2]
    summary = next(line for line in logged if "iter 1/1" in line)
    assert "win_rate_vs_random" in summary and "score_vs_oracle_as_B" in summary
    (checkpoint,) = tmp_path.glob("checkpoints/*.pt")
    assert logged[-4].endswith(f"checkpoint: {checkpoint}")


def test_command_line_rejects_bad_values_without_traceback(tmp_path):
    done = cli(tmp_path, "experiment=smoke", "agent.search.num_simulations=-3")
    assert done.returncode == 1
    assert "num_simulations" in done.stderr and "Traceback" not in done.stderr
    assert not list(tmp_path.glob("events.out.tfevents.*"))


def test_tensorboard_has_the_hparams_dashboard_and_board_pictures(runs):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    whole, _, _ = runs
    images, hparams, metrics = [], set(), set()
    for path in whole.run_dir.glob("events.out.tfevents.*"):
        events = EventAccumulator(str(path), size_guidance={"images": 0})
        events.Reload()
        if "selfplay/sample_position" in events.Tags()["images"]:
            images = events.Images("selfplay/sample_position")
        try:
            hparams |= set(events.PluginTagToContent("hparams"))
        except KeyError:  # this file has no HParams data
            pass
        metrics |= {tag for tag in events.Tags()["scalars"] if tag.startswith("hparam/")}
    assert [image.step for image in images] == [1, 2, 3]  # the smoke recipe evaluates every iteration
    assert images[0].width > 100 and images[0].height > 100
    assert {"_hparams_/experiment", "_hparams_/session_start_info", "_hparams_/session_end_info"} <= hparams
    assert {"hparam/loss/policy", "hparam/eval/win_rate_vs_random"} <= metrics
