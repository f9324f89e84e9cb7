"""Plain Gomoku: five or more in a row in every direction, draws, the pie rule."""

import pytest

from envs import make_game


def play(game, state, *turns):
    for text in turns:
        for action in game.parse_turn(state, text):
            game.apply(state, action)
    return state


@pytest.mark.parametrize(
    "line",
    [
        ["a1", "b1", "c1", "d1", "e1"],
        ["c2", "c3", "c4", "c5", "c6"],
        ["b2", "c3", "d4", "e5", "f6"],
        ["f2", "e3", "d4", "c5", "b6"],
    ],
)
def test_five_in_a_row_wins_in_every_direction(line):
    game = make_game("gomoku", size=7)
    others = iter(["a7", "c7", "e7", "g7", "g5"])
    state = game.initial_state()
    for cell in line[:4]:
        play(game, state, cell, next(others))
    assert not game.is_terminal(state)
    play(game, state, line[4])
    assert game.returns(state) == (1.0, -1.0)


def test_six_in_a_row_wins_four_does_not():
    game = make_game("gomoku", size=7)
    state = game.from_diagram("x x . x x x .\n" + "o o o . . . .\n" + ". . . . . . .\n" * 5, "x")
    assert not game.is_terminal(state)
    play(game, state, "c1")
    assert game.winner(state) == 0


def test_a_full_board_without_five_is_a_draw():
    game = make_game("gomoku", size=5)
    rows = ["x x o o x", "o o x x o", "x x o o x", "o o x x o", "x x o o ."]
    state = play(game, game.from_diagram("\n".join(rows), "x"), "e5")
    assert game.is_terminal(state) and game.returns(state) == (0.0, 0.0) and game.winner(state) is None
    assert game.render_text(state).splitlines()[-1] == "draw"


def test_pie_rule_after_three_turns():
    game = make_game("gomoku", size=9, pie_rule=True)
    state = play(game, game.initial_state(), "e5", "e6")
    assert game.SWAP_SIDES not in game.legal_actions(state)
    play(game, state, "d4")
    assert game.legal_actions(state)[-1] == game.SWAP_SIDES
    play(game, state, "swap-sides")
    assert game.to_play(state) == 0 and game.observe(state)[0].sum() == 1  # seat 0 now plays o


def test_defaults_match_the_configs():
    assert make_game("gomoku").info.params == {"size": 15, "pie_rule": False}
    assert make_game("neumoku").info.params == {"size": 15, "pie_rule": True}
