"""The batched vector env's own promises: the compiled batch plays the engine batch's games, chance
by its probabilities, per-game seeds, partial resets, illegal actions, bad arguments, spaces and
the bitboard moves (every game's batch stepped beside single games: ``tests/test_conformance_games.py``)."""

from collections import namedtuple

import gymnasium as gym
import numpy as np
import pytest
from engine_batch import EngineBatch
from small_games import SMALL

import envs
from envs import IllegalActionError, make_game
from envs.compiled import register
from envs.kernels import draw
from envs.stones import compiled as stones
from envs.vector.compiled_batch import OUTCOME_SCALE, CompiledBatch, draw_outcome
from envs.vector.vector_env import BatchedBoardGameEnv

BATCHED = sorted(SMALL)
COMPILED = [name for name in BATCHED if make_game(name, **SMALL[name]).compiled() is not None]


def assert_same_outputs(ours, theirs):
    """Two envs' ``(observation, info)`` (or whole step outputs) equal entry by entry."""
    for key in ("observation", "action_mask"):
        np.testing.assert_array_equal(ours[0][key], theirs[0][key], err_msg=key)
    for mine, other in zip(ours[1:-1], theirs[1:-1]):  # rewards, terminated, truncated
        np.testing.assert_array_equal(mine, other)
    assert ours[-1].keys() == theirs[-1].keys()
    for key in ours[-1]:
        np.testing.assert_array_equal(ours[-1][key], theirs[-1][key], err_msg=key)


def play_both(ours: BatchedBoardGameEnv, theirs: BatchedBoardGameEnv, seed: int, steps: int, faults: float) -> int:
    """Step two envs with the same random actions, a fraction ``faults`` of them illegal, and
    assert every output equal; the number of games that ended."""
    rng, ended = np.random.default_rng(seed), 0
    mine = ours.reset(seed=seed)
    assert_same_outputs(mine, theirs.reset(seed=seed))
    for _ in range(steps):
        actions = []
        for mask in mine[0]["action_mask"]:
            legal, illegal = np.flatnonzero(mask), np.flatnonzero(mask == 0)
            if legal.size and illegal.size and rng.random() < faults:
                actions.append(rng.choice(illegal))
            else:
                actions.append(rng.choice(legal) if legal.size else 0)
        mine = ours.step(np.array(actions))
        assert_same_outputs(mine, theirs.step(np.array(actions)))
        ended += int(mine[2].sum())
    return ended


@pytest.mark.parametrize("name", COMPILED)
def test_compiled_rows_equal_the_engine_batch(name):
    """The compiled batch plays the engine batch's games step for step (the same streams:
    chance, the random seat and opponent), illegal actions included, and decodes to its states."""
    kwargs = dict(num_envs=12, opponent="random", agent_seat="random", **SMALL[name])
    rows, engine = BatchedBoardGameEnv(name, **kwargs), BatchedBoardGameEnv(name, **kwargs)
    engine.batch = EngineBatch(engine.game, 12, True, -1)
    assert isinstance(rows.batch, CompiledBatch)
    assert play_both(rows, engine, seed=7, steps=150, faults=0.05) > 12
    for i in range(12):
        ours, theirs = rows.engine_state(i), engine.engine_state(i)
        assert rows.game.legal_actions(ours) == engine.game.legal_actions(theirs)
        np.testing.assert_array_equal(rows.game.observe(ours), engine.game.observe(theirs))


def test_a_game_without_compiled_observe_is_observed_from_decoded_rows():
    """Rules registered without ``observe``: the batch observes the decoded states, the same
    planes as the registered observer gives."""
    Blind = namedtuple("BlindPlacementContext", stones.PlacementContext._fields)
    register(
        Blind,
        legal=stones.legal,
        apply=stones.apply,
        to_play=stones.to_play,
        returns=stones.returns,
        playout=stones.playout,
    )
    game = make_game("hex", size=5)
    game.compiled().context = Blind(*game.compiled().context)
    blind = BatchedBoardGameEnv(game, num_envs=6, opponent="random", agent_seat="random")
    assert not blind.batch.observes
    plain = BatchedBoardGameEnv("hex", num_envs=6, opponent="random", agent_seat="random", size=5)
    assert play_both(blind, plain, seed=3, steps=60, faults=0.05) > 6


def test_chance_outcomes_are_drawn_by_their_probabilities():
    """Outcome k where the stream's draw lies below the first k + 1 probabilities' sum: a coin
    of bias p is ``draw(seed, 2**30) < round(p * 2**30)``; an outcome of probability 0 is never
    drawn, and frequencies follow the probabilities."""
    counts, seed = np.zeros(4, int), 12345
    for _ in range(20000):
        value, _ = draw(seed, OUTCOME_SCALE)
        coin, _ = draw_outcome(np.array([0.3, 0.7]), 2, seed)
        assert coin == (0 if value < round(0.3 * OUTCOME_SCALE) else 1)
        index, seed = draw_outcome(np.array([0.25, 0.0, 0.5, 0.25]), 4, seed)
        counts[index] += 1
    assert counts[1] == 0
    np.testing.assert_allclose(counts / counts.sum(), [0.25, 0.0, 0.5, 0.25], atol=0.015)


def test_seeds_are_per_game_and_independent_of_the_batch_size():
    wide = envs.make_vec("Odoku-v0", num_envs=4, opponent="random", agent_seat="random")
    narrow = envs.make_vec("Odoku-v0", num_envs=1, opponent="random", agent_seat="random")
    first, _ = wide.reset(seed=20)
    alone, _ = narrow.reset(seed=22)
    np.testing.assert_array_equal(first["observation"][2], alone["observation"][0])
    again, _ = wide.reset(seed=[22, 23, 20, 21])
    np.testing.assert_array_equal(again["observation"][0], alone["observation"][0])
    np.testing.assert_array_equal(again["observation"][2], first["observation"][0])


def test_reset_mask_restarts_only_the_masked_games():
    vec = envs.make_vec("Hex-v0", num_envs=3, size=5)
    vec.reset(seed=0)
    obs, *_ = vec.step(np.array([0, 1, 2]))
    obs, _ = vec.reset(options={"reset_mask": np.array([False, True, False])})
    assert obs["observation"][:, :2].sum(axis=(1, 2, 3)).tolist() == [1, 0, 1]
    with pytest.raises(ValueError, match="reset_mask"):
        vec.reset(options={"reset_mask": [True]})
    with pytest.raises(ValueError, match="unknown key"):
        vec.reset(options={"mask": [True]})


def test_illegal_actions_lose_or_raise():
    vec = envs.make_vec("Hex-v0", num_envs=2, size=5)
    vec.reset(seed=0)
    vec.step(np.array([3, 3]))
    obs, rewards, terminated, _, info = vec.step(np.array([3, 4]))  # game 0: occupied
    assert rewards.tolist() == [-1.0, 0.0] and terminated.tolist() == [True, False]
    assert info["illegal_action"].tolist() == [True, False]
    assert info["returns"][0].tolist() == [1.0, -1.0]
    assert not obs["action_mask"][0].any()
    strict = envs.make_vec("Hex-v0", num_envs=2, size=5, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError, match="game 1 of the batch: action 27 is out of range"):
        strict.step(np.array([3, 27]))


def test_bad_arguments_name_the_problem():
    with pytest.raises(ValueError, match="unknown env id 'Chess-v0'"):
        envs.make_vec("Chess-v0")
    with pytest.raises(ValueError, match="opponent"):
        envs.make_vec("Hex-v0", opponent="oracle")
    with pytest.raises(ValueError, match="num_envs"):
        envs.make_vec("Hex-v0", num_envs=0)
    uncompiled = make_game("hex", size=3)
    uncompiled.compiled = lambda: None  # as a Game of one's own without compiled rules
    with pytest.raises(ValueError, match="hex has no compiled rules"):
        BatchedBoardGameEnv(uncompiled, num_envs=2)
    vec = envs.make_vec("Hex-v0", num_envs=2)
    vec.reset(seed=0)
    with pytest.raises(ValueError, match="actions must be 2 integers"):
        vec.step(np.array([1, 2, 3]))


def test_spaces_and_render():
    vec = envs.make_vec("Reversi-v0", num_envs=2, render_mode="ansi")
    obs, _ = vec.reset(seed=0)
    assert obs in vec.observation_space
    assert vec.single_observation_space == gym.make("Reversi-v0").observation_space
    assert vec.render()[0] == vec.game.render_text(vec.game.initial_state())
    assert vec.action_space.shape == (2,)


@pytest.mark.parametrize("size", [4, 6, 8])
def test_bitboard_moves_equal_the_walk_from_every_cell(size):
    """Reversi's bitboard move generator against ``envs.stones.flanking``' per-cell walk, for both
    colours in every position of 200 random games."""
    from envs.stones.bitboards import capturing_moves
    from envs.stones.flanking import capturing_into

    game, rng = make_game("reversi", size=size), np.random.default_rng(size)
    ours, theirs, positions = np.empty(64, np.int64), np.empty(64, np.int64), 0
    for _ in range(200):
        state = game.initial_state()
        while game.to_play(state) >= 0:
            board = np.frombuffer(state.board, np.uint8)
            for colour in (1, 2):
                count = capturing_moves(board, size, colour, ours)
                assert ours[:count].tolist() == theirs[: capturing_into(board, size, colour, 0, theirs)].tolist()
            legal = game.legal_actions(state)
            game.apply(state, legal[rng.integers(len(legal))])
            positions += 1
    assert positions > 200 * (size * size - 8) // 2
