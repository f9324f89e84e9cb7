"""The compiled random playouts of the scheduled games (Amazons, Biversi, Hexxagon, Send It) play the
engine loop's game: for the same seed, the same draws over the same legal actions, so the same
returns, the same number of decisions and of turns (``ScheduledGame.engine_playout`` is the loop).
Positions come from random games: the start, a turn begun, a jump begun, an amazon picked and one
moved with its arrow to come, a random one and the last ones before the end, and hand-made ones for
the forced pass, a turn cut short, three sections, the move limit, a capture, a refused suicide, a
pass after a drop and a shut-in amazon."""

import pickle

import numpy as np
import pytest

from envs import Game, make_game
from envs.kernels import playout_seed

# (registry name, parameters): every size class, both must_flank settings, several schedules,
# Hexxagon, Send It and Amazons restricted and not, move limits the games reach
CONFIGS = [
    ("amazons", {"size": 6}),
    ("amazons", {}),
    ("amazons", {"size": 6, "schedule": "23", "restricted": False}),
    ("progressive_amazons", {"size": 8}),
    ("progressive_amazons", {"size": 8, "restricted": False}),
    ("biversi", {"size": 6}),
    ("biversi", {"size": 6, "must_flank": False}),
    ("biversi", {"size": 8, "schedule": "13"}),
    ("biversi", {"size": 8, "must_flank": False, "schedule": "1"}),
    ("biversi", {"size": 10}),
    ("biversi", {"size": 12, "must_flank": False}),
    ("hexxagon", {}),
    ("hexxagon", {"size": 3, "schedule": "1344"}),
    ("hexxagon", {"size": 4, "schedule": "12", "restricted": False}),
    ("hexxagon", {"size": 4, "schedule": "134", "move_limit": 15}),
    ("hexxagon", {"size": 6, "schedule": "23", "restricted": False, "move_limit": 40}),
    ("hexxagon_1344", {}),
    ("send_it", {"size": 5}),
    ("send_it", {"size": 7, "schedule": "12"}),
    ("send_it", {"size": 6, "restricted": False}),
    ("send_it", {"size": 5, "schedule": "2", "move_limit": 20}),
    ("send_it", {}),
]
LONG = ("hexxagon_1344", "send_it")  # their text's boards: fewer games


# a move made with more to come; a jump begun (an amazon picked); an amazon moved, its arrow to come
TURN_BEGUN = (lambda s: s.placed, lambda s: s.partial, lambda s: len(s.partial) == 2)


def positions(game, seed: int, begun=TURN_BEGUN) -> list:
    """States along one random game (engine, ``seed``): the start, the first state each test of
    ``begun`` marks (a turn begun at one of its micro-steps), one at random and the last three
    before the end, and the end."""
    rng = np.random.default_rng(seed)
    state, states = game.initial_state(), []
    while not game.is_terminal(state):
        states.append(state.copy())
        legal = game.legal_actions(state)
        game.apply(state, legal[int(rng.integers(len(legal)))])
    picks = {0, int(rng.integers(len(states))), *range(max(0, len(states) - 3), len(states))}
    for marks in begun:
        picks.update([k for k, s in enumerate(states) if marks(s)][:1])
    return [states[k] for k in sorted(picks)] + [state]


def assert_plays_the_engine_game(game, state, seed: int) -> None:
    before = pickle.dumps(state)
    played = game.random_playout(state, np.random.default_rng(seed))
    assert pickle.dumps(state) == before  # left untouched
    assert played == game.engine_playout(state, playout_seed(np.random.default_rng(seed)))
    if game.is_terminal(state):
        assert played == (game.returns(state), 0, 0)


def check_config(name: str, params: dict, seeds: range, begun=TURN_BEGUN) -> int:
    """Compare the kernel with the engine loop at ``positions`` of each seed's game; return how many."""
    game, compared = make_game(name, **params), 0
    for seed in seeds:
        for k, state in enumerate(positions(game, seed, begun)):
            assert_plays_the_engine_game(game, state, 1000 * seed + k)
            compared += 1
    return compared


@pytest.mark.parametrize("name, params", CONFIGS, ids=[f"{n}-{p}" for n, p in CONFIGS])
def test_the_kernel_plays_the_engine_loop_game(name, params):
    seeds = range(1 if params == {} and name in LONG else 5)
    assert check_config(name, params, seeds) >= 5 * len(seeds)  # at least the start, a random one, the last three


@pytest.mark.slow
def test_thousands_of_positions_play_the_engine_loop_game():
    compared = 0
    for name, params in CONFIGS:
        compared += check_config(name, params, range(100, 110 if params == {} and name in LONG else 160))
    assert compared >= 3000


def test_hand_made_positions():
    cases = []
    # the forced pass (tests/test_biversi.py's random game, seed 28): o passes at its 15th turn
    game = make_game("biversi", size=6)
    state = game.initial_state()
    turns = "d4 | b4 c1 | a5 d2 | c4 e4 | a1 d3 | b1 b5 | a3 c5 | c6 e2 | d6 f1 | f3 a6 | d5 f2 | e1 b6 | f4 e3 | a4 d1"
    for text in turns.split("|"):
        game.play_turn(state, text)
    assert game.legal_actions(state) == [game.PASS]
    cases.append((game, state))
    # a stuck side passes from the start; a turn cut short by the section rule; three sections
    for params in (
        {"start": "a3 a5 / b1 c1 d1 e1 f1 a4"},
        {"schedule": "2", "start": "a1 / b1 d4 e4"},
        {"size": 10, "schedule": "13", "start": "b2 e8 h4 / c2 f8 i4"},
    ):
        game = make_game("biversi", **{"size": 6} | params)
        cases.append((game, game.initial_state()))
    # Hexxagon: a turn whose quota cannot be filled, a stone new this turn on a cell a jump left,
    # a jump picked, the move limit one move away
    game = make_game("hexxagon", size=3, schedule="13", start="e1 b2 d2 / c1")
    cases.append((game, game.play_turn(game.initial_state(), "g1")))
    game = make_game("hexxagon", size=3, schedule="13", start="e5 / c3 e3")
    state = game.play_turn(game.initial_state(), "g5")
    for action in game.rules.parse_move("c3c1") + game.rules.parse_move("c3"):
        game.apply(state, action)
    cases.append((game, state))
    game = make_game("hexxagon_1344")
    state = game.play_turn(game.initial_state(), "v4")
    game.apply(state, game.rules.parse_cell("y1"))  # a jump's stone picked
    assert state.partial
    cases.append((game, state))
    game = make_game("hexxagon", size=3, move_limit=2)
    cases.append((game, game.play_turn(game.initial_state(), "g3")))
    # Send It: a drop that captures, a suicide refused, a turn stopped after a drop and a pass
    cases.append((make_game("send_it", size=5, start="a1 a2 c1 / b1 b3"), None))
    cases.append((make_game("send_it", size=5, start="a3 e5 / a2 b1 c1 b2 c2 c3 b4 a4"), None))
    game = make_game("send_it", size=5, start="a1 / e5")
    state = game.play_turn(game.initial_state(), "a3")
    game.apply(state, game.rules.parse_move("e3")[0])
    cases.append((game, state.copy()))
    game.apply(state, game.PASS)
    cases.append((game, state))  # x to move after a pass ended o's turn
    for game, state in cases:
        state = game.initial_state() if state is None else state
        for seed in range(20):
            assert_plays_the_engine_game(game, state, seed)


def test_hand_made_amazons_positions():
    cases = []
    # a turn of two moves cut short: w's only amazon has moved (restricted)
    game = make_game("amazons", size=6, schedule="2", start="a1 / f6")
    cases.append((game, game.initial_state()))
    # an amazon shut in by its own (a1) is no start until one of them moves away
    game = make_game("amazons", size=4, start="a1 a2 b1 b2 / d4")
    cases.append((game, game.initial_state()))
    # 13(4) on 6x6: the second turn's second move at each micro-step
    game = make_game("progressive_amazons", size=6)
    state = game.play_turn(game.initial_state(), "a2c2/c3")
    for action in game.rules.parse_move("a5b5/b4"):  # o's turn: a whole move, then one cell at a time
        game.apply(state, action)
    for action in game.rules.parse_move("f5d3/d5")[:2]:
        cases.append((game, state.copy()))
        game.apply(state, action)
    assert len(state.partial) == 2
    cases.append((game, state))
    for game, state in cases:
        for seed in range(20):
            assert_plays_the_engine_game(game, state, seed)


def test_the_kernels_play_uniformly_random_games():
    """The kernel's first-seat score from the start is the engine loop's (``Game.random_playout``,
    its own generator) within four standard errors."""
    for name, params in (
        ("biversi", {"size": 6}),
        ("hexxagon", {"size": 4}),
        ("send_it", {"size": 5}),
        ("amazons", {"size": 6}),
        ("progressive_amazons", {"size": 6}),
    ):
        assert_scores_as_the_engine_loop(make_game(name, **params))


def assert_scores_as_the_engine_loop(game) -> None:
    """The kernel's first-seat score from the start is the engine loop's (``Game.random_playout``,
    its own generator) within four standard errors."""
    rng, start = np.random.default_rng(0), game.initial_state()
    ours = [game.random_playout(start, rng)[0][0] for _ in range(2000)]
    theirs = [Game.random_playout(game, start, rng)[0][0] for _ in range(300)]
    error = (np.var(ours) / len(ours) + np.var(theirs) / len(theirs)) ** 0.5
    assert abs(np.mean(ours) - np.mean(theirs)) < 4 * error


def test_rules_without_a_kernel_keep_the_engine_loop(monkeypatch):
    """Every scheduled game has a kernel now; rules that lack one (``has_playout`` false, as a new
    game's rules start) play ``random_playout`` through the engine loop, the same game for the
    same generator."""
    game = make_game("amazons", size=6)
    monkeypatch.setattr(type(game.rules), "has_playout", False)
    monkeypatch.setattr(type(game.rules), "playout", None)  # a call to the kernel would fail
    state = game.initial_state()
    played = game.random_playout(state, np.random.default_rng(3))
    assert played == Game.random_playout(game, state, np.random.default_rng(3))
    assert played[1] > 0
