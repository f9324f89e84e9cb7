"""One conformance test over every registered game and environment id."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import envs
from envs import CHANCE, GAMES, GameError, GameOverError, IllegalActionError, make_game
from envs.records import format_game, replay

# Small boards keep the sweep fast; Odoku, Sudoku Moyo, Biqala, Hop Chess and Connect Four have no size
# (Biqala: fewer seeds; Hop Chess: short games; Blockdance: its smallest hexagon, short games).
SIZELESS = {
    "odoku": {},
    "sudoku_moyo": {},
    "biqala": {"outer_seeds": 1, "inner_seeds": 2},
    "hop_chess": {"max_turns": 12},
    "blockdance": {"size": 6, "max_turns": 40},
    "connect_four": {"columns": 5, "rows": 4},
}
# A rule option that changes how a game plays beyond its size runs the sweep as a case of its own.
RULE_OPTIONS = {"push_go-ko=push": ("push_go", {"ko": "push"})}
GAME_OF = {name: name for name in GAMES} | {case: game for case, (game, _) in RULE_OPTIONS.items()}
SMALL = {case: SIZELESS.get(game, {"size": 6 if "versi" in game else 5}) for case, game in GAME_OF.items()}
SMALL |= {case: SMALL[game] | option for case, (game, option) in RULE_OPTIONS.items()}
IDS = [(case, GAMES[game][0]) for case, game in GAME_OF.items()]


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


@pytest.mark.parametrize("name", list(GAME_OF))
def test_random_games_end_zero_sum_and_round_trip_as_text(name):
    game = make_game(GAME_OF[name], **SMALL[name])
    rng = np.random.default_rng(11)
    for _ in range(20):
        actions, final = random_game(game, rng)
        assert sum(game.returns(final)) == pytest.approx(0.0)
        assert all(-1.0 <= r <= 1.0 for r in game.returns(final))
        lines = format_game(game, actions)
        *_, replayed = replay(game, lines)
        assert game.returns(replayed) == game.returns(final)
        np.testing.assert_array_equal(game.observe(replayed), game.observe(final))


@pytest.mark.parametrize("name", list(GAME_OF))
def test_mask_agrees_with_apply(name):
    """Every masked action applies; every unmasked one raises a GameError."""
    game = make_game(GAME_OF[name], **SMALL[name])
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
    assert info["to_play"] == envs.NO_SEAT and not observation["action_mask"].any()
    winner = envs.winner_of(info["returns"])
    assert info["winner"] == (envs.NO_SEAT if winner is None else winner)


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
    with pytest.raises(ValueError, match="unknown opponent spec 'wizard'.*registered: az, greedy, hmcts, human, mcts"):
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


def check_info_types(info, num_seats, finished):
    """Every info value has one type for the whole episode, with -1 for "no seat"."""
    assert type(info["to_play"]) is int and (info["to_play"] == -1) == finished
    assert info["action_mask"].dtype == np.int8
    if finished:
        assert type(info["winner"]) is int and -1 <= info["winner"] < num_seats
        assert info["returns"].dtype == np.float64 and info["returns"].shape == (num_seats,)
        assert type(info["illegal_action"]) is bool
        winner = envs.winner_of(info["returns"])
        assert info["winner"] == (-1 if winner is None else winner)
    else:
        assert "winner" not in info and "returns" not in info


@pytest.mark.parametrize("name, env_id", IDS)
def test_info_types_are_fixed_and_draws_use_the_sentinel(name, env_id):
    rng = np.random.default_rng(2)
    env = gym.make(env_id, opponent="random", agent_seat="random", **SMALL[name])
    for episode in range(30):
        observation, info = env.reset(seed=episode)
        check_info_types(info, 2, finished=False)
        assert type(info["agent_seat"]) is int
        terminated = False
        while not terminated:
            observation, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            check_info_types(info, 2, finished=terminated)
    assert env.unwrapped.to_play == -1


def test_a_drawn_game_reports_winner_minus_one():
    env = gym.make("Gomoku-v0", size=5).unwrapped  # random play on 5x5 often fills the board
    rng = np.random.default_rng(0)
    for seed in range(200):
        observation, info = env.reset(seed=seed)
        terminated = False
        while not terminated:
            observation, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        if list(info["returns"]) == [0.0, 0.0]:
            break
    assert list(info["returns"]) == [0.0, 0.0], "no drawn game in 200"
    assert info["winner"] == -1 and info["to_play"] == -1 and type(info["winner"]) is int


VECTOR_STEPS = 2000  # sub-env steps per id, mode and opponent: every env finishes many episodes


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("name, env_id", IDS)
def test_vector_envs_run_thousands_of_steps_with_autoreset(name, env_id, mode):
    num_envs = 4
    rng = np.random.default_rng(0)
    # async: the single-agent mode of the reported crash; sync also the two-player mode
    for opponent in (None, "random") if mode == "sync" else ("random",):
        vec = gym.make_vec(env_id, num_envs=num_envs, vectorization_mode=mode, opponent=opponent, **SMALL[name])
        try:
            observation, info = vec.reset(seed=3)
            episodes = draws = 0
            done = np.zeros(num_envs, dtype=bool)
            for _ in range(VECTOR_STEPS // num_envs):
                masks = observation["action_mask"]
                # next-step autoreset: an env that just finished ignores its action
                actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
                assert not masks[~done].sum(axis=1).min(initial=1) == 0
                observation, rewards, terminated, truncated, info = vec.step(actions)
                assert info["to_play"].dtype.kind == "i"
                np.testing.assert_array_equal(info["to_play"] == -1, terminated)
                if terminated.any():
                    assert info["winner"].dtype.kind == "i" and info["returns"].shape == (num_envs, 2)
                    assert set(info["winner"][terminated]) <= {-1, 0, 1}
                    draws += int((info["winner"][terminated] == -1).sum())
                    episodes += int(terminated.sum())
                done = terminated | truncated
            assert episodes >= num_envs
        finally:
            vec.close()


def test_zero_dimensional_integer_arrays_are_actions_like_gymnasium_says():
    env = gym.make("Odoku-v0").unwrapped
    observation, _ = env.reset(seed=1)
    legal = int(np.flatnonzero(observation["action_mask"])[0])
    for action in (np.array(legal), np.array(legal, dtype=np.int32)):
        assert env.action_space.contains(action)
        env.reset(seed=1)
        _, _, _, _, info = env.step(action)
        assert "illegal_action" not in info
    for name, game_name in GAME_OF.items():
        game = make_game(game_name, **SMALL[name])
        state = game.initial_state()
        if game.is_chance(state):
            game.apply(state, np.array(0))
            assert game.to_play(state) == 0 and type(state.player) is int
        game.apply(state, np.array(game.legal_actions(state)[0]))
    for bad in (np.array(legal, dtype=float), np.array([legal]), np.array(True)):
        assert not env.action_space.contains(bad)
        env.reset(seed=1)
        _, reward, terminated, _, info = env.step(bad)
        assert terminated and reward == -1.0 and "integer" in info["message"]


@pytest.mark.parametrize("name, env_id", IDS)
def test_after_an_illegal_action_no_action_is_legal_anywhere(name, env_id):
    env = gym.make(env_id, **SMALL[name]).unwrapped
    observation, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0]) if not observation["action_mask"].all() else -1
    observation, _, terminated, _, info = env.step(illegal)
    assert terminated and info["illegal_action"]
    assert not observation["action_mask"].any()
    assert not env.action_masks().any() and env.action_masks().dtype == bool
    assert env.legal_actions() == [] and env.to_play == -1


@pytest.mark.parametrize("name", list(GAME_OF))
def test_a_turn_that_is_not_text_is_a_notation_error(name):
    game = make_game(GAME_OF[name], **SMALL[name])
    for bad in (None, 3, b"e3"):
        with pytest.raises(envs.NotationError, match="text"):
            game.parse_turn(game.initial_state(), bad)


def test_every_game_has_a_display_name():
    assert list(envs.TITLES) == list(GAMES)
    assert (envs.game_title("hop_chess"), envs.game_title("four_way_walls")) == ("Hop Chess", "Four-Way Walls")
