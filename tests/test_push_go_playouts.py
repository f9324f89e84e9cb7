"""The compiled random playout of Push Go plays the engine loop's game: for the same seed, the
same draws over the same legal actions, so the same returns, the same number of decisions and
of turns (``Game.engine_playout`` is the loop). Positions come from random games (the start, the
first pass, push, ko and push offered, one at random and the last ones before the end) on boards
of 2 to 9 in both push forms, whole-number komi (draws) and short ``max_turns``; and from the
hand-made positions of ``tests/test_push_go.py`` (ko, suicide, the pushes at the edge; under
``ko="push"`` a ko retaken until its position stands twice, and a third time by two passes)."""

import numpy as np
import pytest
from test_push_go import EDGE_BEFORE, FRAME, on_the_edge
from test_scheduled_playouts import assert_plays_the_engine_game, assert_scores_as_the_engine_loop, check_config

from envs import make_game
from envs.games.push_go.game import EMPTY, PushGo

CONFIGS = [
    {"size": 5},
    {"size": 5, "push_form": "move"},
    {"size": 9},
    {"size": 9, "push_form": "move"},
    {"size": 4, "komi": 0},  # draws
    {"size": 3, "komi": 1, "push_form": "move"},
    {"size": 2, "komi": 0},
    {"size": 6, "max_turns": 12},  # games cut by the turn cap
    {"size": 7, "komi": -2.5, "push_form": "move", "max_turns": 40},
    {"size": 4, "ko": "push"},  # seed 5's game cycles to a third repetition (tests/test_push_go.py)
    {"size": 5, "ko": "push", "push_form": "move"},
    {"size": 9, "ko": "push", "komi": 0},
]


def _engine(state) -> PushGo:
    return PushGo(size=int(len(state.board) ** 0.5), komi=0)  # legality only: no komi, any push form


def one_pass(state) -> bool:
    return state.passes == 1  # the next pass ends the game


def just_pushed(state) -> bool:
    """A stone changed colour in the last turn: only a push does that."""
    return any(p and b and p != b for p, b in zip(state.previous, state.board))


def ko_refused(state) -> bool:
    """A placement on a cell the last turn emptied is refused for ko, not as suicide."""
    game = _engine(state)
    legal = game.legal_actions(state)
    return any(
        state.board[c] == EMPTY and state.previous[c] != EMPTY and c not in legal and not game._suicide(state, c)
        for c in range(len(state.board))
    )


def push_offered(state) -> bool:
    n2 = len(state.board)
    return any(n2 <= a < 2 * n2 for a in _engine(state).legal_actions(state))


def stands_twice(state) -> bool:
    """``ko="push"``: the position has stood before; once more ends the game drawn."""
    return state.repeats == 2


BEGUN = (one_pass, just_pushed, ko_refused, push_offered)


@pytest.mark.parametrize("params", CONFIGS, ids=[str(p) for p in CONFIGS])
def test_the_kernel_plays_the_engine_loop_game(params):
    seeds = range(8)
    assert check_config("push_go", params, seeds, (*BEGUN, stands_twice)) >= 5 * len(seeds)


@pytest.mark.slow
def test_thousands_of_positions_play_the_engine_loop_game():
    compared = sum(check_config("push_go", params, range(100, 160), BEGUN) for params in CONFIGS)
    assert compared >= 3000


def test_random_games_reach_the_rare_rules():
    """The 9x9 games the tests compare along pass, push and run into ko, in both forms."""
    for form in ("place", "move"):
        game, found = make_game("push_go", size=9, push_form=form), set()
        for seed in range(8):
            rng, state = np.random.default_rng(seed), game.initial_state()
            while not game.is_terminal(state):
                found.update(mark.__name__ for mark in BEGUN if mark(state))
                legal = game.legal_actions(state)
                game.apply(state, legal[int(rng.integers(len(legal)))])
        assert found == {mark.__name__ for mark in BEGUN}, form


def test_hand_made_positions():
    cases = []
    for form in ("place", "move"):
        # the ko: x takes b2 with c2; o may not retake at once, but may push (c2>b2)
        game = make_game("push_go", size=5, push_form=form)
        state = game.from_diagram(FRAME, "x")
        cases.append((game, state))
        ko = game.step(state, game.parse_turn(state, "c2")[0])
        assert game.parse_turn(ko, "b2")[0] not in game.legal_actions(ko)
        assert game.parse_turn(ko, "c2>b2")[0] in game.legal_actions(ko)
        cases.append((game, ko))
        # the push at the edge, o pushing e9 into d9
        nine = make_game("push_go", size=9, push_form=form)
        cases.append((nine, nine.from_diagram(on_the_edge(EDGE_BEFORE), "o")))
        # a2 pushed: refused in the move form (nothing of x's beyond, off the board)
        cases.append((game, game.from_diagram("x . . . .\no . . . .\nx . . . .\n. . . . .\n. . . . .", "x")))
        # ko="push": the ko retaken until FRAME with x to move stands twice (a retake more draws), and
        # FRAME with o to move after a pass (a second pass ends it scored on its third repetition)
        for komi, turns in ((7.5, "c2 b2 c2"), (0.5, "c2 b2 pass")):
            push = make_game("push_go", size=5, push_form=form, ko="push", komi=komi)
            state = push.from_diagram(FRAME, "x")
            for text in turns.split():
                push.apply(state, push.parse_turn(state, text)[0])
            cases.append((push, state))
    # suicide refused (a1), and a capture that is not suicide (a1 again)
    game = make_game("push_go", size=5)
    cases.append((game, game.from_diagram(". o . . .\no . . . .\n. . . . .\n. . . . .\n. . . . .", "x")))
    cases.append((game, game.from_diagram(". o x . .\no x . . .\nx . . . .\n. . . . .\n. . . . .", "x")))
    # one pass made: a second ends the game; a full board whose one empty cell o takes all on
    state = game.step(game.initial_state(), game.pass_action)
    cases.append((game, state))
    for komi in (8.5, 9):
        small = make_game("push_go", size=3, komi=komi)
        cases.append((small, small.from_diagram("x x x\nx . x\nx x x", "o")))
    for game, state in cases:
        for seed in range(20):
            assert_plays_the_engine_game(game, state, seed)


def test_the_last_turn_before_the_cap():
    game = make_game("push_go", size=5, max_turns=7)
    state = game.initial_state()
    for _ in range(6):
        game.apply(state, game.legal_actions(state)[-2])  # never a pass: the game goes on
    for seed in range(20):
        assert game.random_playout(state, np.random.default_rng(seed))[1:] == (1, 1)
        assert_plays_the_engine_game(game, state, seed)


@pytest.mark.parametrize("form", ["place", "move"])
def test_the_kernel_plays_uniformly_random_games(form):
    assert_scores_as_the_engine_loop(make_game("push_go", size=5, push_form=form))


@pytest.mark.slow  # 300 engine games of some 130 turns: about 10 s
def test_the_kernel_plays_uniformly_random_games_on_nine_by_nine():
    assert_scores_as_the_engine_loop(make_game("push_go", size=9))
