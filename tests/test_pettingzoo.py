"""The PettingZoo AEC environment: PettingZoo's own API and seed tests for every game,
and its games replayed against the engine."""

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402
from small_games import SMALL  # noqa: E402

from envs import CHANCE, GAMES, TERMINAL, make_game  # noqa: E402
from envs.pettingzoo import env, raw_env  # noqa: E402


def test_every_game_is_covered():
    assert set(SMALL) == set(GAMES)


@pytest.mark.parametrize("name", sorted(SMALL))
def test_pettingzoo_api_and_seed_tests(name):
    with warnings.catch_warnings():  # the tests' style advice (agent names, Dict spaces)
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(name, **SMALL[name]), num_cycles=300)
        seed_test(lambda: env(name, **SMALL[name]), num_cycles=300)


def play(aec, rng):
    """Random legal actions to the end: the (agent, action) pairs and each agent's total reward."""
    moves, totals = [], dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        observation, reward, termination, truncation, _ = aec.last()
        totals[agent] += reward
        if termination or truncation:
            aec.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        moves.append((agent, action))
        aec.step(action)
    return moves, totals


@pytest.mark.parametrize("name", sorted(SMALL))
def test_games_replay_on_the_engine_with_zero_sum_rewards(name):
    """Each selected agent is the engine's seat to play (coins from the env's own seed), and
    both agents end with the engine's returns."""
    rng = np.random.default_rng(7)
    for game_seed in range(20):
        aec = env(name, **SMALL[name])
        aec.reset(seed=game_seed)
        moves, totals = play(aec, rng)
        game = make_game(name, **SMALL[name])
        coins = np.random.default_rng(game_seed)  # the generator gymnasium's seeding builds
        state = game.initial_state()
        for agent, action in moves:
            while game.to_play(state) == CHANCE:
                game.apply(state, game.sample_chance(state, coins))
            assert agent == game.info.seat_names[game.to_play(state)]
            game.apply(state, action)
        assert game.to_play(state) == TERMINAL
        assert totals == dict(zip(game.info.seat_names, game.returns(state)))
        assert sum(totals.values()) == 0.0


def test_neutral_turn_is_consecutive_selections_of_one_agent():
    aec = raw_env("nex", size=5)
    aec.reset(seed=0)
    first = aec.agent_selection
    aec.step(12)  # c3: a drop, whose neutral the same agent places next
    assert aec.agent_selection == first
    assert aec.observe(first)["observation"][4].all()  # step plane: the drop's neutral
    aec.step(0)
    assert aec.agent_selection != first


def test_odoku_coin_can_select_the_same_agent_twice():
    aec = raw_env("odoku")
    aec.reset(seed=3)
    selections = []
    for agent in aec.agent_iter(25):
        selections.append(agent)
        aec.step(int(np.flatnonzero(aec.observe(agent)["action_mask"])[0]))
    assert any(a == b for a, b in zip(selections, selections[1:]))
    assert set(selections) == {"B", "A"}


def test_only_the_selected_agent_has_a_mask():
    aec = raw_env("hex", size=5)
    aec.reset(seed=0)
    assert aec.observe("Vertical")["action_mask"].sum() == 25
    assert aec.observe("Horizontal")["action_mask"].sum() == 0


def test_illegal_action_loses_for_its_agent_only():
    aec = raw_env("hex", size=5)
    aec.reset(seed=0)
    aec.step(6)
    aec.step(6)  # occupied
    assert aec.rewards == {"Vertical": 1.0, "Horizontal": -1.0}
    assert aec.terminations == {"Vertical": True, "Horizontal": True}
    assert aec.infos["Horizontal"]["illegal_action"]
    assert "occupied" in aec.infos["Horizontal"]["message"]


def test_render_modes_match_the_engine():
    aec = raw_env("reversi", size=6, render_mode="ansi")
    aec.reset(seed=0)
    assert aec.render() == aec.game.render_text(aec.game.initial_state())
    picture = raw_env("odoku", render_mode="rgb_array")
    picture.reset(seed=0)
    image = picture.render()
    assert image.dtype == np.uint8 and image.ndim == 3
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("hex", render_mode="human")
