"""Every id against every bad action: each action outside the mask, out of range or of an odd
type, at the start and at random positions, in two-player and single-agent mode, gives the
documented result and nothing else: an illegal-action loss with ``info["illegal_action"]``,
or with ``illegal_action="raise"`` a ``GameError`` that leaves the game as it was."""

import copy

import gymnasium as gym
import numpy as np
import pytest

import envs  # noqa: F401  (registers the ids)
from envs import GAMES, GameError, game_defaults, make_game

ODD_TYPES = [1.5, "3", None, True, np.float32(2.0), np.array([1, 2]), [0], object()]
MODES = {"two-player": {}, "single-agent": {"opponent": "random", "agent_seat": 0}}


def sizes(name: str) -> list[tuple[str, dict]]:
    """The default board and, where the game has sizes, a small one (for the random positions)."""
    default = game_defaults(name).get("size")
    small = 6 if "versi" in name else 5
    try:
        make_game(name, size=small)
    except (TypeError, ValueError):  # no size, or one fixed board (Sudoku Moyo's 9x9)
        return [("only", {})]
    return [("default", {"size": default}), ("small", {"size": small})]


# a rule option that changes how a game plays beyond its size: its boards are a case of their own
RULE_OPTIONS = [("push_go", "ko=push", {"ko": "push"})]
CASES = [
    pytest.param(env_id, kwargs, mode, id=f"{env_id}-{board}-{mode}")
    for name, (env_id, _, _) in GAMES.items()
    for board, kwargs in sizes(name)
    for mode in MODES
] + [
    pytest.param(GAMES[name][0], kwargs | option, mode, id=f"{GAMES[name][0]}-{text}-{board}-{mode}")
    for name, text, option in RULE_OPTIONS
    for board, kwargs in sizes(name)
    for mode in MODES
]


def positions(env_id: str, kwargs: dict, mode: str, count: int):
    """The start and ``count`` positions of random games (one env per position, seeded)."""
    for seed in range(count + 1):
        env = gym.make(env_id, **kwargs, **MODES[mode]).unwrapped
        observation, _ = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        steps = 0 if seed == 0 else int(rng.integers(1, 60))
        for _ in range(steps):
            legal = np.flatnonzero(observation["action_mask"])
            trial = copy.deepcopy(env)
            observation, _, terminated, _, _ = trial.step(int(rng.choice(legal)))
            if terminated:
                break
            env = trial
        yield env, env._observation()


def assert_illegal_loss(env, action) -> None:
    seat = env.to_play if env.opponent is None else env.agent_seat
    observation, reward, terminated, truncated, info = env.step(action)
    assert (reward, terminated, truncated) == (-1.0, True, False), action
    assert info["illegal_action"] is True and isinstance(info["message"], str) and info["message"]
    assert info["returns"][seat] == -1.0 and not observation["action_mask"].any()


@pytest.mark.parametrize("env_id, kwargs, mode", CASES)
def test_every_unmasked_action_loses_or_raises_and_nothing_else(env_id, kwargs, mode):
    count = 0 if kwargs.get("size", 0) > 6 else 3  # random positions on the small or only board
    for env, observation in positions(env_id, kwargs, mode, count):
        mask = observation["action_mask"]
        bad = np.flatnonzero(mask == 0).tolist() + [-1, len(mask), 10**9, np.int64(-5)]
        strict = copy.deepcopy(env)
        strict.illegal_action = "raise"
        before = observation["observation"].copy()
        for action in bad + ODD_TYPES:
            with pytest.raises(GameError):
                strict.step(action)
            # a refused action leaves the game as it was
            np.testing.assert_array_equal(strict._observation()["observation"], before)
            np.testing.assert_array_equal(strict._mask(), mask)
        for action in bad + ODD_TYPES:
            assert_illegal_loss(copy.deepcopy(env), action)
        legal = int(np.flatnonzero(mask)[0])
        strict.step(legal)  # the refusals left a playable game
