"""Every registered game through the conformance harness (``tests/conformance.py``): random games
at a small board, at the default board and under the rule options that change how a game plays,
each position checked by the engine's promises, the compiled rules, the playouts, the notation,
the symmetries and the game's independent reading where its tests have one; the batched env
beside single games with illegal actions injected; and faults injected into each part, which
the harness must find."""

from __future__ import annotations

import conformance
import numpy as np
import pytest
import row_kernels
from conformance import check_batched, check_playout_scores, check_random_game
from numba import njit
from small_games import SMALL
from test_amazons import AmazonsReading
from test_biqala import RARE_RULES as BIQALA_RARE_RULES
from test_biqala import BiqalaReading
from test_biversi import BiversiReading
from test_blockdance import random_start
from test_compiled_amazons import CONFIGS as AMAZONS_CONFIGS
from test_compiled_amazons import same_state as amazons_same_state
from test_compiled_block_walls import GAMES as WALLS_CONFIGS
from test_compiled_hop_chess import BEGUN as HOP_CHESS_BEGUN
from test_compiled_hop_chess import CONFIGS as HOP_CHESS_CONFIGS
from test_compiled_hop_chess import params_of
from test_four_way_walls import FourWayWallsReading
from test_hexxagon import HexxagonReading
from test_hop_chess import HopChessReading
from test_push_go import RARE_RULES as PUSH_GO_RARE_RULES
from test_push_go import PushGoReading, stands_twice
from test_send_it import SendItReading
from test_sudoku_moyo import SudokuMoyoReading

from envs import Symmetry, game_names, make_game
from envs import compiled as rules
from envs.schedule.moves import EMPTY, PIECE

# each game's independent reading of its rules (its own test file keeps it)
READINGS = {
    "amazons": AmazonsReading,
    "progressive_amazons": AmazonsReading,
    "biqala": BiqalaReading,
    "biversi": BiversiReading,
    "four_way_walls": FourWayWallsReading,
    "hexxagon": HexxagonReading,
    "hexxagon_1344": HexxagonReading,
    "hop_chess": HopChessReading,
    "push_go": PushGoReading,
    "send_it": SendItReading,
    "sudoku_moyo": SudokuMoyoReading,
}
# a decoded row's state against the engine's, field by field, where a game's tests say how
SAME_STATE = {
    "amazons": amazons_same_state,
    "progressive_amazons": amazons_same_state,
}
# rare rules a game's playouts must start from too (beyond a turn begun)
MARKS = {"push_go": (*PUSH_GO_RARE_RULES, stands_twice), "biqala": BIQALA_RARE_RULES, "hop_chess": HOP_CHESS_BEGUN}
# default boards where a random game through the harness takes more than a few seconds here
SLOW_DEFAULTS = {"blockdance", "four_way_walls", "hexxagon_1344", "hop_chess", "progressive_amazons"}
# rule options that change how a game plays beyond its size: schedules, starts, limits, forms
OPTIONS = (
    [(name, params) for name, params in AMAZONS_CONFIGS if params not in ({"size": 5},)]
    + [(name, params) for name, params in WALLS_CONFIGS]
    + [
        ("biversi", {"size": 8, "schedule": "123"}),
        ("biversi", {"size": 6, "must_flank": False}),
        ("biversi", {"size": 6, "must_flank": False, "start": "a1 c5 e3 / a2 c6 e4"}),  # three sections
        ("hexxagon", {"size": 4, "schedule": "12", "restricted": False}),
        ("hexxagon", {"size": 4, "schedule": "134", "move_limit": 15}),
        ("send_it", {"size": 6, "restricted": False}),
        ("send_it", {"size": 5, "schedule": "2", "move_limit": 20}),
        ("push_go", {"size": 4, "ko": "push"}),  # seed 5's game cycles to a third repetition
        ("push_go", {"size": 5, "ko": "push", "push_form": "move", "max_turns": 30}),
        ("push_go", {"size": 3, "komi": 1, "push_form": "move"}),
        ("push_go", {"size": 2, "komi": 0}),
        ("push_go", {"size": 7, "komi": -2.5, "max_turns": 40}),
        ("biqala", {"outer_seeds": 5, "inner_seeds": 2, "idle_limit": 6, "max_turns": 40}),  # the cycle rule
        ("biqala", {"outer_seeds": 12, "inner_seeds": 12, "max_turns": 40}),  # big laps
        ("biqala", {"max_turns": 12}),
    ]
    + [("hop_chess", params_of(fen, turns)) for fen, turns in HOP_CHESS_CONFIGS if fen is not None]
)
CASES = (
    [pytest.param(name, SMALL[name], id=f"{name}-small") for name in game_names()]
    + [
        pytest.param(name, {}, id=f"{name}-default", marks=[pytest.mark.slow] if name in SLOW_DEFAULTS else [])
        for name in game_names()
    ]
    + [pytest.param(name, params, id=f"{name}-{params}") for name, params in OPTIONS]
)


def check(game, seed: int, **kwargs):
    """The harness on one random game of ``game`` with its game's reading, state check and marks."""
    name = game.info.name
    reading = READINGS[name](game) if name in READINGS else None
    return check_random_game(game, seed, reading, same_state=SAME_STATE.get(name), marks=MARKS.get(name, ()), **kwargs)


def test_every_game_has_a_small_board():
    assert set(SMALL) == set(game_names())


@pytest.mark.parametrize("name, kwargs", CASES)
def test_random_games_conform(name, kwargs):
    """One game a case: every position against the rows, every fourth (on a small board, else
    every tenth) against every refused action, the notation and all legal actions on rows."""
    game = make_game(name, **kwargs)
    met = check(game, 0, every=4 if kwargs is SMALL[name] else 10, symmetries=2)
    assert met.positions == met.decisions + met.chance + 1 and met.decisions > 0
    assert met.row_actions >= met.decisions and met.turns > 0 and met.playouts >= 2


@pytest.mark.slow
@pytest.mark.parametrize("name, kwargs", CASES)
def test_many_random_games_conform(name, kwargs):
    game = make_game(name, **kwargs)
    for seed in range(1, 40):
        check(game, seed)


# boards where the plain engine loop's 300 playouts take a second or two
SCORED = [
    ("amazons", {"size": 6}),
    ("progressive_amazons", {"size": 6}),
    ("biversi", {"size": 6}),
    ("hexxagon", {"size": 4}),
    ("send_it", {"size": 5}),
    ("biqala", {}),
    ("push_go", {"size": 5}),
    ("push_go", {"size": 5, "push_form": "move"}),
    ("four_way_walls", {"size": 5, "walls": 3, "max_turns": 60}),
    ("blockdance", {"size": 6, "start": random_start(np.random.default_rng(2), 6)}),
]


@pytest.mark.parametrize("name, kwargs", SCORED, ids=[f"{name}-{kwargs}" for name, kwargs in SCORED])
def test_the_compiled_playouts_draw_uniformly(name, kwargs):
    check_playout_scores(make_game(name, **kwargs))


@pytest.mark.slow
@pytest.mark.parametrize(
    "name, kwargs",
    [("push_go", {"size": 9}), ("hop_chess", {"fen": "k7/8/8/8/8/8/8/1QQ1K2R w K - 0 1", "max_turns": 16})],
)
def test_the_compiled_playouts_draw_uniformly_on_long_games(name, kwargs):
    check_playout_scores(make_game(name, **kwargs))


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("mode", ["two-player", "against-random"])
def test_the_batched_env_steps_as_single_games(name, mode):
    opponent, seat = (None, 0) if mode == "two-player" else ("random", "random")
    ended = check_batched(name, SMALL[name], num_envs=5, steps=60, opponent=opponent, seat=seat, seed=3)
    assert ended >= 5


@pytest.mark.slow
@pytest.mark.parametrize("name", game_names())
def test_thousands_of_batched_games_step_as_single_games(name):
    for opponent, seat, seed in ((None, 0, 101), ("random", "random", 102), ("random", 1, 103)):
        assert check_batched(name, SMALL[name], num_envs=50, steps=600, opponent=opponent, seat=seat, seed=seed) >= 500


@pytest.mark.slow
@pytest.mark.parametrize("name", ["hex", "nex", "reversi", "neuversi", "gomoku", "y", "neuy", "push_go"])
def test_the_batched_env_at_default_sizes(name):
    assert check_batched(name, {}, num_envs=4, steps=300, opponent="random", seat=1, seed=3) >= 4


# --- faults the harness must find ----------------------------------------------------------------------------
# Faults in the compiled rules stand in for the harness's row functions (``tests/row_kernels.py``),
# each around the game's own function. Not cached: numba's cache index of a function lists every
# type it was compiled for, so a fault never meets a type the cache would have to keep.
@njit
def legal_without_the_last(context, row, out):
    count = rules.legal(context, row, out)
    return count - 1 if count > 1 else count


@njit
def observe_a_row_off(context, row, out):
    rules.observe(context, row, out)
    out[0, 1:] = out[0, :-1].copy()  # the first plane one board row down


@njit
def playout_for_the_other_seat(context, row, seed, out):
    rules.playout(context, row, seed, out)
    out[0], out[1] = out[1], out[0]


@njit
def apply_that_plays_twice(context, row, action):
    rules.apply(context, row, action)
    out = np.empty(4096, np.int64)
    if rules.to_play(context, row) >= 0 and rules.legal(context, row, out) > 0:
        rules.apply(context, row, out[0])


@pytest.mark.parametrize(
    "name, function, fault",
    [
        ("reversi", "legal_of", legal_without_the_last),
        ("amazons", "legal_of", legal_without_the_last),
        ("hex", "observe_of", observe_a_row_off),
        ("hex", "playout_of", playout_for_the_other_seat),
        ("send_it", "apply_to", apply_that_plays_twice),
    ],
    ids=["reversi-legal", "amazons-legal", "hex-observe", "hex-playout", "send_it-apply"],
)
def test_a_kernel_fault_is_found(monkeypatch, name, function, fault):
    monkeypatch.setattr(row_kernels, function, fault)
    with pytest.raises(AssertionError):
        check_random_game(make_game(name, **SMALL[name]), 0)


def forgetting_captures(apply):
    """Send It's engine ``apply`` that leaves the rival stones a drop captures on the board."""

    def drop(self, state, action):
        seat, cells = state.player, self.rules.num_cells
        before = state.row[:cells].copy()
        apply(self, state, action)
        board = state.row[:cells]
        board[(before == PIECE[1 - seat]) & (board == EMPTY)] = PIECE[1 - seat]

    return drop


@pytest.mark.parametrize("compiled", [True, False], ids=["against the rows", "against the reading"])
def test_an_apply_that_forgets_a_capture_is_found(monkeypatch, compiled):
    game = make_game("send_it", size=5, move_limit=60)
    monkeypatch.setattr(type(game), "apply", forgetting_captures(type(game).apply))
    with pytest.raises(AssertionError):
        for seed in range(20):  # a game with a capture
            check_random_game(game, seed, SendItReading(game), compiled=compiled, playouts=4 * compiled)


def test_a_batched_step_that_ignores_a_game_is_found(monkeypatch):
    make_vec_of = conformance.make_vec_of

    def ignoring_the_second_game(name, num_envs, **kwargs):
        vec = make_vec_of(name, num_envs, **kwargs)
        batch, step = vec.batch, vec.batch.step

        def stale_step(actions, illegal):
            kept = {key: value[1].copy() for key, value in vars(batch).items() if is_per_game(value, num_envs)}
            step(actions, illegal)
            for key, value in kept.items():
                getattr(batch, key)[1] = value
            batch.rewards[1], batch.terminated[1] = 0.0, False

        batch.step = stale_step
        return vec

    monkeypatch.setattr(conformance, "make_vec_of", ignoring_the_second_game)
    with pytest.raises(AssertionError):
        check_batched("hex", SMALL["hex"], num_envs=3, steps=10)


def is_per_game(value, num_envs: int) -> bool:
    return isinstance(value, np.ndarray) and value.ndim > 0 and len(value) == num_envs


def test_a_symmetry_that_maps_actions_and_planes_apart_is_found(monkeypatch):
    """The planes turned by one map, the actions by another."""
    game = make_game("gomoku", size=7)
    symmetries = game.symmetries()
    wrong = [symmetries[0], Symmetry(symmetries[1].name, symmetries[1].obs, symmetries[2].action_perm)]
    monkeypatch.setattr(game, "symmetries", lambda: wrong)
    with pytest.raises(AssertionError):
        check_random_game(game, 0)


def test_notation_that_names_two_actions_alike_is_found(monkeypatch):
    game = make_game("hex", size=5)
    action_to_text = type(game).action_to_text
    monkeypatch.setattr(game, "action_to_text", lambda state, action: action_to_text(game, state, max(action, 1)))
    with pytest.raises(AssertionError):
        check_random_game(game, 0)
