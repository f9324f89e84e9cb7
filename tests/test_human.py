"""Scripted sessions of a person at the terminal (input fed as a stream)."""

import io

import numpy as np

from agents.players.human import HumanPlayer, play_interactive
from agents.players.registry import make_player
from envs import make_game
from envs.records import split_turns


def session(game, script, opponent="random", human_seat=0, seed=0):
    out = io.StringIO()
    human = HumanPlayer(game, io.StringIO(script), out)
    players = [make_player(opponent, game)] * 2
    players[human_seat] = human
    played = play_interactive(game, players, np.random.default_rng(seed), out)
    return played, out.getvalue()


def test_a_scripted_hex_game_with_a_malformed_turn_and_an_undo_completes():
    game = make_game("hex", size=2)
    # b1 touches both cells of row 2, so a2 or b2 (whichever is free) wins; an occupied
    # cell is rejected and the next line is read
    script = "undo\nhello\nb1\nundo\nb1\na2\nb2\n"
    played, text = session(game, script)
    actions = played.actions
    assert played.finished and "nothing to undo yet" in text
    assert "cannot play 'hello'" in text
    assert "took back your last turn" in text
    assert text.count("plays b1") == 2
    assert "game over" in text and "wins" in text
    state = game.initial_state()
    for action in actions:
        game.apply(state, action)
    assert game.winner(state) == 0
    assert len(split_turns(game, actions)) == 3  # the undone turns are not in the game


def test_whole_neutral_turns_hints_and_evaluation_from_the_solver():
    game = make_game("nex", size=3)
    out = io.StringIO()
    human = HumanPlayer(game, io.StringIO("hint\nb2\nb2 b2\nb2 a1\nquit\n"), out)
    played = play_interactive(game, [human, make_player("solver", game)], np.random.default_rng(1), out)
    text = out.getvalue()
    assert not played.finished and "game abandoned" in text
    turns = split_turns(game, played.actions)  # the person's turn and the solver's reply
    assert len(turns) == 2 and game.format_turn(game.initial_state(), turns[0]) == "b2 a1"
    # Nex 3x3 is a first-player win
    assert "agent's evaluation for you (Vertical): +1.00 (+1 a sure win, -1 a sure loss)" in text
    assert "hint: " in text
    assert "cannot play 'b2': 'b2' is not a whole turn" in text
    assert "cannot play 'b2 b2'" in text
    assert "plays b2 a1" in text


def test_odoku_turns_and_the_end_of_input():
    game = make_game("odoku")
    played, text = session(game, "Xc3\nXc3\n", opponent="oracle", human_seat=1, seed=3)
    assert not played.finished and "game abandoned" in text
    assert "You play A (seat 1, second): make as few as possible of the 15 groups" in text
    assert "legal first steps: Xa1 Oa1" in text
    assert "A (human) plays Xc3" in text and "cell c3 is occupied" in text


class InterruptedInput(io.StringIO):
    """Typed lines, then Ctrl-C at the next prompt."""

    def readline(self, *args):
        line = super().readline(*args)
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_at_the_prompt_abandons_the_game_and_keeps_the_whole_turns():
    game = make_game("nex", size=4)
    out = io.StringIO()
    human = HumanPlayer(game, InterruptedInput("b2 c3\n"), out)
    played = play_interactive(game, [human, make_player("random", game)], np.random.default_rng(0), out)
    assert not played.finished and out.getvalue().endswith("game abandoned\n")
    turns = split_turns(game, played.actions)
    assert len(turns) == 2 and game.format_turn(game.initial_state(), turns[0]) == "b2 c3"
