"""Plain Reversi: the start, captures in every direction, forced passes, the count."""

from envs import make_game


def play(game, state, *turns):
    for text in turns:
        for action in game.parse_turn(state, text):
            game.apply(state, action)
    return state


def cells(game, state, actions):
    return sorted(game.action_to_text(state, a) for a in actions)


def test_start_and_first_moves():
    game = make_game("reversi")
    state = game.initial_state()
    assert game.render_text(state).splitlines()[3:5] == [". . . x o . . .  4", ". . . o x . . .  5"]
    assert cells(game, state, game.legal_actions(state)) == ["c5", "d6", "e3", "f4"]
    play(game, state, "e3")
    assert game.render_text(state).splitlines()[2:5] == [
        ". . . . x . . .  3",
        ". . . x x . . .  4",
        ". . . o x . . .  5",
    ]
    assert cells(game, state, game.legal_actions(state)) == ["d3", "f3", "f5"]


def test_a_placement_flips_every_flanked_line():
    game = make_game("reversi", size=6)
    diagram = "x . x . x .\n. o o o . .\nx o . o x .\n. o o o . .\nx . x . x .\n. . . . . ."
    state = play(game, game.from_diagram(diagram, "x"), "c3")
    assert game.render_text(state).splitlines()[:5] == [
        "x . x . x .  1",
        ". x x x . .  2",
        "x x x x x .  3",
        ". x x x . .  4",
        "x . x . x .  5",
    ]


def test_forced_pass_and_the_end():
    game = make_game("reversi", size=4)
    state = game.from_diagram("x x x x\nx x x x\no x . x\nx x x x", "x")
    assert game.legal_actions(state) == [game.PASS]
    play(game, state, "pass")
    assert cells(game, state, game.legal_actions(state)) == ["c3"]
    play(game, state, "c3")
    assert game.is_terminal(state) and game.returns(state) == (1.0, -1.0)  # 13 x to 3 o


def test_equal_counts_draw():
    game = make_game("reversi", size=4)
    state = game.from_diagram("x x o o\nx x o o\nx x o o\nx x o o", "x")
    assert game.is_terminal(state) and game.returns(state) == (0.0, 0.0)


def test_symmetry_count_and_default():
    game = make_game("reversi")
    assert len(game.symmetries()) == 8 and game.info.params == {"size": 8}
