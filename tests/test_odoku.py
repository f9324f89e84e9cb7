"""Odoku rules, exact values and the oracle (docs/games/odoku.md)."""

from functools import partial
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.players.registry import make_player
from envs import CHANCE, TERMINAL, GameOverError, IllegalActionError, NotationError, make_game
from envs.games.odoku.game import (
    GROUP_CELLS,
    GROUP_NAMES,
    action_values,
    cell_index,
    group_status,
    optimal_actions,
    score,
    value,
)
from envs.records import format_game, replay

SAMPLE = Path(__file__).parent / "data" / "odoku_sample.txt"


@pytest.fixture
def game():
    return make_game("odoku")


def sample_rows():
    """(mover play, value, newly decided {group: status}) per line of the sample."""
    rows = []
    for line in SAMPLE.read_text().splitlines():
        if not line[:1].isdigit():
            continue
        _, mover, play, exact, *decided = line.split()
        remarks = dict(item.split(":") for item in decided if item != "-")
        rows.append((f"{mover} {play}", float(exact), remarks))
    return rows


def test_sample_game_replays_with_exact_values_and_decided_groups(game):
    rows = sample_rows()
    assert len(rows) == 25
    names = [name.lower() for name in GROUP_NAMES]
    before = [None] * len(GROUP_CELLS)
    states = replay(game, [turn for turn, _, _ in rows])
    for (turn, exact, remarks), state in zip(rows, states):
        assert value(state) == pytest.approx(exact, abs=1e-9), turn
        now = group_status(state)
        newly = {names[g]: now[g] for g in range(len(GROUP_CELLS)) if now[g] != before[g]}
        assert newly == {k.lower(): v for k, v in remarks.items()}, turn
        before = now
    assert game.is_terminal(state)
    assert score(state) == 8
    assert game.outcome_info(state) == {"score": 8}
    assert game.returns(state) == pytest.approx((0.5 / 7.5, -0.5 / 7.5))


def test_sample_game_round_trips_through_records(game):
    turns = [turn for turn, _, _ in sample_rows()]
    state = game.initial_state()
    actions = []
    for turn in turns:
        for action in game.parse_turn(state, turn):
            actions.append(action)
            game.apply(state, action)
    assert format_game(game, actions) == turns


def test_groups_partition_the_board_three_times():
    assert len(GROUP_CELLS) == 15 and all(len(g) == 5 for g in GROUP_CELLS)
    counts = np.bincount([cell for group in GROUP_CELLS for cell in group], minlength=25)
    assert (counts == 3).all()
    assert set(GROUP_CELLS[10]) == {cell_index(c) for c in "c3 b3 d3 c2 c4".split()}


def test_empty_board_value(game):
    assert value(game.initial_state()) == pytest.approx(9.375, abs=1e-12)


def random_position(game, rng, moves):
    state = game.initial_state()
    for _ in range(moves):
        game.apply(state, int(rng.integers(2)))
        legal = game.legal_actions(state)
        game.apply(state, legal[int(rng.integers(len(legal)))])
    return state


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 24))
def test_value_is_the_coin_average_of_best_moves(seed, moves):
    """Random-turn theorem: V = (max over moves + min over moves) / 2 with a fair coin."""
    game = make_game("odoku")
    state = random_position(game, np.random.default_rng(seed), moves)
    after = action_values(state)
    assert value(state) == pytest.approx((max(after.values()) + min(after.values())) / 2, abs=1e-9)
    for action, expected in after.items():
        child = state.copy()
        game.apply(child, 0)
        game.apply(child, action)
        assert value(child) == pytest.approx(expected, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 25))
def test_symmetries_preserve_values_and_map_observations(seed, moves):
    game = make_game("odoku")
    rng = np.random.default_rng(seed)
    actions = []
    state = game.initial_state()
    for _ in range(moves):
        seat = int(rng.integers(2))
        legal = game.legal_actions(game.step(state, seat))
        actions += [seat, legal[int(rng.integers(len(legal)))]]
        game.apply(state, actions[-2])
        game.apply(state, actions[-1])
    symmetries = game.symmetries()
    assert len(symmetries) == 8
    for symmetry in symmetries:
        image = game.initial_state()
        for i, action in enumerate(actions):
            game.apply(image, action if i % 2 == 0 else int(symmetry.action_perm[action]))
        assert value(image) == pytest.approx(value(state), abs=1e-12)
        assert score(image) == score(state)
        np.testing.assert_array_equal(game.observe(image), symmetry.obs(game.observe(state)))


def test_symmetries_map_groups_onto_groups(game):
    group_sets = {frozenset(g) for g in GROUP_CELLS}
    for symmetry in game.symmetries():
        cell_perm = symmetry.action_perm[0::2] // 2
        assert {frozenset(int(cell_perm[c]) for c in g) for g in GROUP_CELLS} == group_sets


def play(game, players, rng):
    state = game.initial_state()
    while not game.is_terminal(state):
        if game.is_chance(state):
            game.apply(state, int(rng.integers(2)))
        else:
            game.apply(state, players[game.to_play(state)].act(state, rng))
    return score(state)


@pytest.mark.parametrize(
    "b, a, expected, tolerance",
    [("oracle", "oracle", 9.375, 0.1), ("random", "oracle", 3.40, 0.12), ("oracle", "random", 14.33, 0.08)],
)
def test_oracle_mean_scores_over_2000_games(game, b, a, expected, tolerance):
    rng = np.random.default_rng(2026)
    players = [make_player(b, game), make_player(a, game)]
    scores = [play(game, players, rng) for _ in range(2000)]
    assert np.mean(scores) == pytest.approx(expected, abs=tolerance)


def test_optimal_actions_are_exactly_the_best_values(game):
    state = random_position(game, np.random.default_rng(5), 10)
    game.apply(state, 1)  # A to move: minimises
    values = action_values(state)
    best = optimal_actions(state)
    assert best and all(values[a] == pytest.approx(min(values.values())) for a in best)
    assert all(values[a] > min(values.values()) + 1e-9 for a in values if a not in best)


def test_chance_node_then_move(game):
    state = game.initial_state()
    assert game.to_play(state) == CHANCE
    assert game.chance_outcomes(state) == [(0, 0.5), (1, 0.5)]
    assert game.legal_actions(state) == []
    game.apply(state, 1)
    assert game.to_play(state) == 1 and len(game.legal_actions(state)) == 50
    game.apply(state, game.parse_turn(state, "Xb3")[0])
    assert game.to_play(state) == CHANCE


def test_biased_coin_probabilities():
    game = make_game("odoku", bias=0.7)
    assert game.chance_outcomes(game.initial_state()) == [(0, 0.7), (1, pytest.approx(0.3))]
    with pytest.raises(ValueError, match="bias"):
        make_game("odoku", bias=1.5)


@pytest.mark.parametrize("text", ["", "Xf3", "Zb3", "X b3", "B Xb6", "C Xb3", "Xb3 Oc2"])
def test_malformed_move_text(game, text):
    state = game.step(game.initial_state(), 0)
    with pytest.raises(NotationError, match="Odoku move"):
        game.parse_turn(state, text)


def test_bad_actions_raise_clear_errors(game):
    state = game.initial_state()
    with pytest.raises(NotationError, match="coin has not fallen"):
        game.parse_turn(state, "Xb3")
    with pytest.raises(IllegalActionError, match="chance node"):
        game.apply(state, 22)
    game.apply(state, 0)
    with pytest.raises(IllegalActionError, match="out of turn, B is to move"):
        game.parse_turn(state, "A Xb3")
    with pytest.raises(IllegalActionError, match="out of range"):
        game.apply(state, 50)
    with pytest.raises(IllegalActionError, match="integer"):
        game.apply(state, "Xb3")
    game.apply(state, game.parse_turn(state, "B Xb3")[0])
    game.apply(state, 1)
    with pytest.raises(IllegalActionError, match="b3 is occupied"):
        game.apply(state, game.parse_turn(state, "Ob3")[0])


def test_finished_game_rejects_moves(game):
    state = play_to_end(game)
    assert game.to_play(state) == TERMINAL and game.legal_actions(state) == []
    with pytest.raises(GameOverError):
        game.apply(state, 0)
    with pytest.raises(IllegalActionError, match="over"):
        game.parse_turn(state, "B Xb3")


def play_to_end(game):
    rng = np.random.default_rng(0)
    return random_position(game, rng, 25)


def test_render_text_marks_decided_groups(game):
    rows = [turn for turn, _, _ in sample_rows()]
    state = list(replay(game, rows[:12]))[-1]
    text = game.render_text(state)
    assert text.splitlines()[1].startswith(" 5  X . X X X  -")  # row 5 unbalanced after move 12
    assert "NE-" in text and "A to move" not in text and "coin to flip" in text


def test_random_playouts_average_to_the_exact_value(game):
    """Random play fills every empty cell by a fair coin, so its mean score is V."""
    from envs.core import Game

    state = random_position(game, np.random.default_rng(9), 12)
    rng = np.random.default_rng(0)
    for playout in (game.random_playout, lambda s, r: Game.random_playout(game, s, r)):
        results = [playout(state, rng) for _ in range(4000)]
        scores = np.array([7.5 + 7.5 * returns[0] for returns, _, _ in results])
        assert all(decisions == turns == 13 for _, decisions, turns in results)
        assert scores.mean() == pytest.approx(value(state), abs=4 * scores.std() / np.sqrt(len(scores)))


def test_playouts_after_each_placement_estimate_its_exact_value(game):
    """``action_playout_returns`` (the vectorised override and the generic loop) is an
    unbiased estimate of every placement's exact value, NaN for occupied cells. Its
    playouts share their random numbers, so the gap between a cell's two colours
    spreads less than either value (independent playouts: about 1.4 times more)."""
    from envs.core import Game

    state = random_position(game, np.random.default_rng(4), 10)
    game.apply(state, 1)  # A to move
    exact = action_values(state)
    legal = sorted(exact)
    for estimate, rollouts in ((game.action_playout_returns, 4000), (partial(Game.action_playout_returns, game), 1000)):
        rng = np.random.default_rng(0)
        means = estimate(state, rollouts, rng)
        assert means.shape == (50, 2) and np.isnan(means[[a for a in range(50) if a not in exact]]).all()
        assert np.array_equal(means[legal, 1], -means[legal, 0])
        points = 7.5 + 7.5 * means[legal, 0]
        np.testing.assert_allclose(points, [exact[a] for a in legal], atol=6 * 1.9 / np.sqrt(rollouts))

        single = 7.5 * np.array([estimate(state, 1, rng)[legal, 0] for _ in range(400)])
        gaps = single[:, 0::2] - single[:, 1::2]  # blue minus white on each empty cell
        assert gaps.std(axis=0).mean() < single.std(axis=0).mean()
    chance = game.initial_state()
    assert np.isnan(game.action_playout_returns(chance, 8, np.random.default_rng(0))).all()


def test_text_board_maps_the_regions_and_gives_every_groups_verdict_at_the_end(game):
    rows = [turn for turn, _, _ in sample_rows()]
    final = list(replay(game, rows))[-1]
    lines = game.render_text(final).splitlines()
    drawn = {}
    for line in lines[1:6]:  # " 5  X X O X X  -  5  W W N N N"
        row, letters = line.split()[-6], line.split()[-5:]
        for column, letter in zip("abcde", letters):
            drawn.setdefault(letter, set()).add(column + row)
    # docs/games/odoku.md, read independently of the engine's tables
    assert drawn == {
        "C": {"c3", "b3", "d3", "c2", "c4"},
        "N": {"d4", "d5", "e4", "e5", "c5"},
        "E": {"d1", "d2", "e1", "e2", "e3"},
        "S": {"a1", "a2", "b1", "b2", "c1"},
        "W": {"a4", "a5", "b4", "b5", "a3"},
    }
    assert "final score 8 of 15 (the balanced groups)" in lines  # the sample's last move makes it 8
    balanced = next(line for line in lines if line.startswith("  balanced"))
    unbalanced = next(line for line in lines if line.startswith("  unbalanced"))
    assert balanced.startswith("  balanced (8): ") and len(balanced.split(": ")[1].split()) == 8
    assert unbalanced.startswith("  unbalanced (7): ") and "row2" not in unbalanced  # row 2: X X O O X
    assert game.result_text(final) == "final score 8 of 15"


def test_values_in_the_games_own_units(game):
    assert game.value_text(0.0, 0) == "expected final score 7.50 of 15 (B wants it high)"
    assert game.value_text(0.2, 1) == "expected final score 6.00 of 15 (A wants it low)"
    assert "join row 1 and the last row" in make_game("nex", size=5).goal_text(0)


def test_the_engine_loop_refuses_chance():
    game = make_game("odoku")
    state = game.initial_state()
    while game.to_play(state) != -1:
        game.apply(state, game.legal_actions(state)[0])
    with pytest.raises(ValueError, match="without chance"):
        game.engine_playout(state, 1)


# --- the kit's chance path (envs.kit.RowGame over compiled.py's row), on Odoku ----------------------------
def test_chance_outcomes_are_checked_by_the_kernels_in_every_integer_form():
    game = make_game("odoku", bias=0.25)
    for outcome in (np.int64(1), np.array(1), 1):
        state = game.initial_state()
        game.apply(state, outcome)
        assert game.to_play(state) == 1
    state = game.initial_state()
    for outcome, message in ((2, r"chance node; outcomes are \[0, 1\]"), (-1, "chance node"), (True, "integer")):
        with pytest.raises(IllegalActionError, match=message):
            game.apply(state, outcome)
    assert game.to_play(state) == CHANCE and state.moves == 0  # refused outcomes change nothing
    game.apply(state, 0)
    game.apply(state, np.int32(22))  # a decision in numpy's integer type: checked the slow way, played
    assert state.board[11] == 1 and state.blue[GROUP_NAMES.index("row3")] == 1 and game.to_play(state) == CHANCE


def test_the_coin_falls_by_the_bias():
    game = make_game("odoku", bias=0.25)
    rng, state = np.random.default_rng(3), game.initial_state()
    draws = np.array([game.sample_chance(state, rng) for _ in range(4000)])
    assert set(draws.tolist()) == {0, 1}
    assert (draws == 0).mean() == pytest.approx(0.25, abs=4 * np.sqrt(0.25 * 0.75 / 4000))


def test_the_state_is_the_compiled_row(game):
    turns = [turn for turn, _, _ in sample_rows()][:7]
    states = [game.initial_state(), *(state.copy() for state in replay(game, turns))]
    compiled = game.compiled()
    assert compiled.max_chance == 2 and compiled.max_legal == 50 and compiled.width == len(states[0].row)
    for state in states:
        again = compiled.decode(compiled.encode(state))
        assert type(again) is type(state) and again.key() == state.key() and again.row is not state.row
        assert [again.board, again.blue, again.white, again.player, again.moves] == [
            state.board,
            state.blue,
            state.white,
            CHANCE,
            states.index(state),
        ]
    assert len({state.key() for state in states}) == len(states)
    wide = type(states[3])(states[3].row.astype(np.int64))  # a row of another integer type is taken as int32
    assert wide.row.dtype == np.int32 and game.legal_actions(wide) == game.legal_actions(states[3])


def test_a_pickled_game_plays_the_same_game(game):
    """Games cross process boundaries (self-play workers): the kit binds its kernels again there."""
    import pickle

    copy = pickle.loads(pickle.dumps(game))
    rng = np.random.default_rng(5)
    state, other = game.initial_state(), copy.initial_state()
    while not game.is_terminal(state):
        action = game.sample_chance(state, rng) if game.is_chance(state) else game.legal_actions(state)[0]
        game.apply(state, action)
        copy.apply(other, action)
        np.testing.assert_array_equal(copy.observe(other), game.observe(state))
    assert copy.returns(other) == game.returns(state) and copy.is_terminal(other)
