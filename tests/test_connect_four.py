"""Connect Four (docs/games/connect_four.md): the kernels against a plain-Python reading of the
rules written here, known positions, the notation, and search tactics (win in one, block a
loss in one)."""

import numpy as np
import pytest

from agents.players.registry import make_player
from envs import IllegalActionError, NotationError, make_game
from envs.core import TERMINAL
from envs.kernels import playout_seed

LETTERS = "abcdefghijkl"
# a full 7 x 6 board without four in a row (found by a random search with PlainConnectFour)
DRAWN = "ddacfefgeccddffcceddbbcbffaeaeeggggabagabb"


class PlainConnectFour:
    """The rules as a person reads them: columns of discs from the bottom up; a game ends when
    some window of four cells in a line holds one colour, or when every column is full."""

    def __init__(self, columns=7, rows=6):
        self.columns, self.rows = columns, rows
        self.stacks = [[] for _ in range(columns)]
        self.mover, self.winner = 0, None

    def at(self, column, height):
        """The seat whose disc is at (column, height from the bottom), or None."""
        stack = self.stacks[column] if 0 <= column < self.columns else []
        return stack[height] if 0 <= height < len(stack) else None

    def lines_of_four(self):
        for column in range(self.columns):
            for height in range(self.rows):
                for dc, dh in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    yield [(column + k * dc, height + k * dh) for k in range(4)]

    def over(self):
        return self.winner is not None or all(len(s) == self.rows for s in self.stacks)

    def open_columns(self):
        return [] if self.over() else [c for c in range(self.columns) if len(self.stacks[c]) < self.rows]

    def drop(self, column):
        assert column in self.open_columns()
        self.stacks[column].append(self.mover)
        for line in self.lines_of_four():
            if all(self.at(*cell) == self.mover for cell in line):
                self.winner = self.mover
        self.mover = 1 - self.mover

    def returns(self):
        if self.winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if self.winner == 0 else (-1.0, 1.0)

    def planes(self):
        """The mover's discs, the opponent's, the mover is x: top row first."""
        mover = sum(map(len, self.stacks)) % 2
        out = np.zeros((3, self.rows, self.columns), np.float32)
        for column in range(self.columns):
            for height, seat in enumerate(self.stacks[column]):
                out[0 if seat == mover else 1, self.rows - 1 - height, column] = 1
        out[2] = mover == 0
        return out


def column_of(game, action: int) -> int:
    return action % game.columns


def play(game, moves: str):
    state = game.initial_state()
    for letter in moves:
        game.play_turn(state, letter)
    return state


@pytest.mark.parametrize("columns, rows", [(7, 6), (4, 4), (5, 7)])
def test_random_games_agree_with_the_plain_reading(columns, rows):
    game = make_game("connect_four", columns=columns, rows=rows)
    for seed in range(40):
        rng, state, plain = np.random.default_rng(seed), game.initial_state(), PlainConnectFour(columns, rows)
        while True:
            legal = game.legal_actions(state)
            assert [column_of(game, a) for a in sorted(legal, key=lambda a: a % columns)] == plain.open_columns()
            assert legal == sorted(legal) and game.legal_mask(state).sum() == len(legal)
            np.testing.assert_array_equal(game.observe(state), plain.planes())
            assert game.is_terminal(state) == plain.over()
            if plain.over():
                break
            assert game.to_play(state) == plain.mover
            action = legal[int(rng.integers(len(legal)))]
            game.apply(state, action)
            plain.drop(column_of(game, action))
        assert game.returns(state) == plain.returns()


def test_four_in_a_row_wins_in_each_direction():
    game = make_game("connect_four")
    across = play(game, "aabbccd")  # x: a1 b1 c1 d1
    up = play(game, "ababab" + "a")  # x: a1..a4
    rising = play(game, "abbccdcddgd")  # x: a1 b2 c3 d4
    falling = play(game, "gffeededdad")  # x: g1 f2 e3 d4
    for state in (across, up, rising, falling):
        assert game.is_terminal(state) and game.returns(state) == (1.0, -1.0)
        assert game.result_text(state) == "x wins"
    assert not game.is_terminal(play(game, "aabbcc"))  # three in a row: play goes on
    o_wins = play(game, "agagagbg")  # o: g1..g4
    assert game.returns(o_wins) == (-1.0, 1.0)


def test_a_full_board_without_four_is_a_draw():
    game = make_game("connect_four")
    state = play(game, DRAWN[:-1])
    assert game.legal_actions(state) == [1]  # the top of column b is the last empty cell
    game.play_turn(state, DRAWN[-1])
    assert game.is_terminal(state) and game.returns(state) == (0.0, 0.0)
    assert game.render_text(state).splitlines()[-2:] == ["a b c d e f g", "a draw"]


def test_the_text_diagram_and_the_pictures():
    game = make_game("connect_four")
    state = play(game, "dde")
    assert game.render_text(state) == "\n".join(
        [". . . . . . .  " + str(r) for r in (6, 5, 4, 3)]
        + [". . . o . . .  2", ". . . x x . .  1", "a b c d e f g", "o to move"]
    )
    view = game.board_view(state)
    cells = {cell.name: cell for cell in view.cells}
    assert (cells["d1"].owner, cells["d2"].owner, cells["e1"].owner, cells["a1"].owner) == (
        "black",
        "white",
        "black",
        "",
    )
    assert cells["d3"].actions == (game.parse_turn(state, "d")[0],) == (3 * 7 + 3,)  # where the disc lands
    assert cells["d6"].actions == cells["d2"].actions == ()
    assert game.render_rgb(state).shape[2] == 3


def test_notation_reads_back_and_bad_input_is_refused():
    game = make_game("connect_four")
    state = game.initial_state()
    for action in game.legal_actions(state):
        assert game.parse_turn(state, game.action_to_text(state, action)) == [action]
    with pytest.raises(NotationError, match="column letter a..g"):
        game.parse_turn(state, "h")
    full = play(game, "aaaaaa")
    with pytest.raises(IllegalActionError, match="column a is full"):
        game.parse_turn(full, "a")
    with pytest.raises(IllegalActionError, match=r"action 3 \(cell d6\): a disc dropped in column d comes to rest"):
        game.apply(state, 3)
    with pytest.raises(IllegalActionError, match="the game is over"):
        game.parse_turn(play(game, "ababab" + "a"), "c")
    with pytest.raises(ValueError, match="columns must be an integer from 4 to 12"):
        make_game("connect_four", columns=3)


def test_the_mirror_maps_positions_to_their_mirror_images():
    game = make_game("connect_four")
    identity, mirror = game.symmetries()
    state, image = play(game, "abbcg"), play(game, "gffea")
    np.testing.assert_array_equal(mirror.obs(game.observe(state)), game.observe(image))
    assert sorted(mirror.action_perm[game.legal_actions(state)].tolist()) == game.legal_actions(image)


def test_the_random_playout_plays_the_engine_loop_game():
    game = make_game("connect_four")
    state = play(game, "dc")
    for seed in range(20):
        played = game.random_playout(state, np.random.default_rng(seed))
        assert played == game.engine_playout(state, playout_seed(np.random.default_rng(seed)))
    assert game.to_play(state) == 0 and game.to_play(play(game, "ababab" + "a")) == TERMINAL


def test_search_wins_in_one_and_blocks_a_loss_in_one():
    game = make_game("connect_four")
    player, rng = make_player("mcts:300", game), np.random.default_rng(0)
    win = play(game, "aabbcc")  # x to move: d1 wins at once
    assert game.action_to_text(win, player.act(win, rng)) == "d"
    block = play(game, "agbgc")  # o to move: x threatens d1 (a1 b1 c1)
    assert game.action_to_text(block, player.act(block, rng)) == "d"
