"""One conformance test over every registered game and environment id."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import envs
from envs import CHANCE, GAMES, GameError, GameOverError, IllegalActionError, make_game
from envs.records import format_game, replay

# Small boards keep the sweep fast; Odoku has no size.
SMALL = {name: ({} if name == "odoku" else {"size": 6 if "versi" in name else 5}) for name in GAMES}
IDS = [(name, GAMES[name][0]) for name in GAMES]


def random_game(game, rng):
    """Play one uniformly random game; return (actions, final state)."""
    state = game.initial_state()
    actions = []
    while not game.is_terminal(state):
        if game.is_chance(state):
            action = game.sample_chance(state, rng)
        else:
            legal = game.legal_actions(state)
            action = legal[int(rng.integers(len(legal)))]
        actions.append(int(action))
        game.apply(state, action)
    return actions, state


@pytest.mark.parametrize("name, env_id", IDS)
def test_check_env(name, env_id):
    for mode in ("ansi", "rgb_array"):
        env = gym.make(env_id, render_mode=mode, **SMALL[name]).unwrapped
        check_env(env, skip_render_check=False)


@pytest.mark.parametrize("name, env_id", IDS)
def test_same_seed_same_game(name, env_id):
    def trajectory(seed):
        env = gym.make(env_id, opponent="random", agent_seat="random", **SMALL[name])
        observation, info = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        frames = [observation["observation"].copy()]
        terminated = False
        while not terminated:
            legal = np.flatnonzero(observation["action_mask"])
            observation, reward, terminated, _, info = env.step(int(rng.choice(legal)))
            frames.append(observation["observation"].copy())
        return np.stack(frames), reward, info["agent_seat"]

    first, second, other = trajectory(7), trajectory(7), trajectory(8)
    np.testing.assert_array_equal(first[0], second[0])
    assert first[1:] == second[1:]
    assert len(first[0]) != len(other[0]) or not np.array_equal(first[0], other[0]) or first[2] != other[2]


@pytest.mark.parametrize("name", list(GAMES))
def test_random_games_end_zero_sum_and_round_trip_as_text(name):
    game = make_game(name, **SMALL[name])
    rng = np.random.default_rng(11)
    for _ in range(20):
        actions, final = random_game(game, rng)
        assert sum(game.returns(final)) == pytest.approx(0.0)
        assert all(-1.0 <= r <= 1.0 for r in game.returns(final))
        lines = format_game(game, actions)
        *_, replayed = replay(game, lines)
        assert game.returns(replayed) == game.returns(final)
        np.testing.assert_array_equal(game.observe(replayed), game.observe(final))


@pytest.mark.parametrize("name", list(GAMES))
def test_mask_agrees_with_apply(name):
    """Every masked action applies; every unmasked one raises a GameError."""
    game = make_game(name, **SMALL[name])
    rng = np.random.default_rng(3)
    state = game.initial_state()
    checked = 0
    while not game.is_terminal(state) and checked < 60:
        if game.is_chance(state):
            game.apply(state, game.chance_outcomes(state)[0][0])
            continue
        mask = game.legal_mask(state)
        assert mask.dtype == bool and mask.shape == (game.info.num_actions,)
        assert sorted(np.flatnonzero(mask)) == sorted(game.legal_actions(state))
        for action in range(game.info.num_actions):
            if mask[action]:
                game.step(state, action)
            else:
                with pytest.raises(GameError):
                    game.step(state, action)
        legal = np.flatnonzero(mask)
        game.apply(state, int(rng.choice(legal)))
        checked += 1


@pytest.mark.parametrize("name, env_id", IDS)
def test_illegal_action_loses_or_raises(name, env_id):
    env = gym.make(env_id, **SMALL[name])
    env.reset(seed=0)
    observation, _, _, _, info = env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))
    actor = info["to_play"]
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -1.0 and info["illegal_action"]
    assert info["winner"] == 1 - actor and info["returns"][actor] == -1.0
    assert str(illegal) in info["message"]
    with pytest.raises(GameOverError, match="reset"):
        env.step(0)

    strict = gym.make(env_id, illegal_action="raise", **SMALL[name])
    strict.reset(seed=0)
    strict.step(int(np.flatnonzero(strict.unwrapped.action_masks())[0]))
    with pytest.raises(IllegalActionError, match=str(illegal)):
        strict.step(illegal)


@pytest.mark.parametrize("name, env_id", IDS)
def test_two_player_rewards_go_to_the_seat_that_acted(name, env_id):
    env = gym.make(env_id, **SMALL[name])
    rng = np.random.default_rng(1)
    observation, info = env.reset(seed=1)
    terminated = False
    while not terminated:
        actor = info["to_play"]
        assert np.array_equal(observation["action_mask"], info["action_mask"])
        assert np.array_equal(env.unwrapped.action_masks(), observation["action_mask"].astype(bool))
        legal = np.flatnonzero(observation["action_mask"])
        observation, reward, terminated, _, info = env.step(int(rng.choice(legal)))
    assert reward == info["returns"][actor]
    assert info["to_play"] is None and not observation["action_mask"].any()
    assert info["winner"] == envs.winner_of(info["returns"])


@pytest.mark.parametrize("name, env_id", IDS)
def test_single_agent_with_callable_opponent(name, env_id):
    calls = []

    def first_legal(state, rng):
        calls.append(1)
        return env.unwrapped.game.legal_actions(state)[0]

    env = gym.make(env_id, opponent=first_legal, agent_seat=1, **SMALL[name])
    observation, info = env.reset(seed=4)
    terminated = False
    while not terminated:
        assert info["to_play"] == 1
        observation, reward, terminated, _, info = env.step(int(np.flatnonzero(observation["action_mask"])[-1]))
    assert calls and reward == info["returns"][1]


def test_bad_constructor_arguments():
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        make_game("chess")
    with pytest.raises(ValueError, match="agent_seat"):
        gym.make("Odoku-v0", agent_seat=2)
    with pytest.raises(ValueError, match="illegal_action"):
        gym.make("Odoku-v0", illegal_action="ignore")
    with pytest.raises(ValueError, match="render_mode"):
        gym.make("Odoku-v0", render_mode="svg")
    with pytest.raises(ValueError, match="unknown opponent spec 'wizard'.*registered: az, greedy, human, mcts"):
        gym.make("Odoku-v0", opponent="wizard")
    with pytest.raises(GameOverError, match="reset"):
        gym.make("Odoku-v0").unwrapped.step(0)


def test_oracle_refuses_other_games():
    with pytest.raises(ValueError, match="oracle player exists for Odoku only"):
        gym.make("Hex-v0", size=3, opponent="oracle")


def test_chance_is_flipped_before_every_move():
    env = gym.make("Odoku-v0")
    _, info = env.reset(seed=5)
    movers = [info["to_play"]]
    for _ in range(24):
        observation, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        movers.append(info["to_play"])
    assert set(movers) == {0, 1}
    assert env.unwrapped.game.to_play(env.unwrapped.state) != CHANCE
