"""Send It (docs/games/send_it.md): the column's first four turns replayed to its diagram,
hand-made positions for each rule, and random games against an independent reading of the
drop rule (hypothesis)."""

from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from conformance import Reading, check_playout, check_random_game
from diagrams import read_square_board
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st

import envs  # noqa: F401  (registers the ids)
from envs import IllegalActionError, NotationError, make_game
from envs.records import format_game, parse_header, read_record, replay
from envs.schedule.moves import EMPTY, PIECE
from envs.stones.board import parse_cell

DATA = Path(__file__).parent / "data"


def sample():
    record = read_record((DATA / "send_it_sample.txt").read_text())
    game = make_game("send_it", **parse_header(record))
    states = [state.copy() for state in replay(game, record.turns)]
    return game, record, states


def names(game, board, value):
    return sorted(game.rules.cell_name(c) for c in np.flatnonzero(board == value))


def cell(game, name):
    return parse_cell(name, game.rules.n)


# --- the column's sample --------------------------------------------------------------------------
def test_the_first_turns_replay_to_the_printed_board():
    game, record, states = sample()
    printed = read_square_board(game.rules, (DATA / "send_it_diagram.txt").read_text(), {"X": "x", "O": "o"})
    assert [game.rules.cell_name(c) for c in np.flatnonzero(states[-1].board != printed)] == []
    start = game.initial_state().board
    assert names(game, start, PIECE[0]) == ["c3", "k11"] and names(game, start, PIECE[1]) == ["c11", "k3"]
    # the four start stones are exactly the printed stones that no turn dropped
    dropped = {c for state_turn in ("i3", "c7 g7 k7", "b3 g3 g11 b7", "i7 l7 i11 l12") for c in state_turn.split()}
    assert sorted(set(names(game, printed, PIECE[0]) + names(game, printed, PIECE[1])) - dropped) == [
        "c11",
        "c3",
        "k11",
        "k3",
    ]
    assert game.to_play(states[-1]) == 0 and states[-1].moves_left == 4
    grid = start.reshape(13, 13)
    assert np.array_equal(np.rot90(grid, 2), grid)  # a half turn keeps the start
    assert np.array_equal(np.rot90(grid) == PIECE[0], grid == PIECE[1])  # a quarter turn swaps the sides
    assert game.info.params["move_limit"] == 676


def test_the_turns_print_back_as_the_column_writes_them():
    game, record, states = sample()
    state, actions = game.initial_state(), []
    for text in record.turns:
        turn = game.parse_turn(state, text)
        actions += turn
        for action in turn:
            game.apply(state, action)
    assert format_game(game, actions) == record.turns == ["i3", "cgk7", "bg3 g11 b7", "il7 i11 l12"]


# --- hand-made positions, one rule each -----------------------------------------------------------------
def test_a_drop_needs_a_line_of_sight_over_empty_cells_only():
    game = make_game("send_it", size=7, start="a1 / c1")
    state = game.initial_state()
    legal = set(game.legal_actions(state))
    assert set(map(lambda w: cell(game, w), ["b1", "a2", "a7"])) <= legal
    assert cell(game, "d1") not in legal  # c1's stone blocks the row
    assert cell(game, "b2") not in legal  # diagonals give no sight
    with pytest.raises(IllegalActionError, match="d1 sees none of your stones along its row or column"):
        game.apply(state, cell(game, "d1"))


def test_a_turns_drops_see_along_earlier_drops_and_never_join_one_group():
    game = make_game("send_it", size=7, schedule="13", start="a1 / g7")
    state = game.play_turn(game.initial_state(), "a4")
    game.apply(state, cell(game, "g4"))  # o's first drop of three
    assert cell(game, "d4") in game.legal_actions(state)  # seen from g4 along row 4, dropped this turn
    assert cell(game, "f4") not in game.legal_actions(state)  # would join g4, dropped this turn
    assert cell(game, "g6") in game.legal_actions(state)  # joins g7, which is no drop of this turn
    with pytest.raises(IllegalActionError, match="a stone on f4 joins g4, dropped this turn"):
        game.apply(state, cell(game, "f4"))
    free = make_game("send_it", size=7, schedule="13", restricted=False, start="a1 / g7")
    state = free.play_turn(free.play_turn(free.initial_state(), "a4"), "g4 f4")
    assert names(free, state.board, PIECE[1]) == ["f4", "g4", "g7"]


def test_groups_without_a_liberty_are_captured_and_suicide_is_refused():
    capture = make_game("send_it", size=5, start="a1 a2 c1 / b1 b3")
    state = capture.play_turn(capture.initial_state(), "b2")  # b2 sees a2; o's b1 loses its last liberty
    assert names(capture, state.board, PIECE[1]) == ["b3"]
    assert names(capture, state.board, PIECE[0]) == ["a1", "a2", "b2", "c1"]
    refused = make_game("send_it", size=5, start="a3 e5 / a2 b1 c1 b2 c2 c3 b4 a4")
    state = refused.initial_state()  # x's b3 would join a3 with no liberty left and capture nothing
    assert cell(refused, "b3") not in refused.legal_actions(state)
    with pytest.raises(IllegalActionError, match="would leave its own group without a liberty"):
        refused.apply(state, cell(refused, "b3"))


def test_a_turn_may_stop_early_and_two_passed_turns_end_the_game_by_area():
    game = make_game("send_it", size=5, start="a1 / e5")
    state = game.play_turn(game.initial_state(), "a3")
    before = state.copy()
    game.play_turn(state, "e3")  # o stops after one of its three drops
    assert game.to_play(state) == 0 and game.turn_kind(before, game.parse_turn(before, "e3")) == "short"
    assert game.parse_turn(before, "e3") == [cell(game, "e3"), game.PASS]
    game.play_turn(state, "pass")
    assert not game.is_terminal(state)
    game.play_turn(state, "pass")
    assert game.is_terminal(state)
    # the one empty region touches both sides: the area is the stones alone
    assert game.rules.area(state.board) == (2, 2) and game.returns(state) == (0.0, 0.0)
    assert game.result_text(state) == "a draw (area 2 to 2)"


def test_area_counts_stones_and_the_empty_regions_that_touch_one_side():
    game = make_game("send_it", size=5, start="b1 b2 b3 b4 b5 / d1 d2 d3 d4 d5")
    board = game.initial_state().board.copy()
    assert game.rules.area(board) == (10, 10)  # column a is x's, column e o's, column c touches both
    board[cell(game, "c3")] = PIECE[0]
    assert game.rules.area(board) == (11, 10)


# --- errors and notation ------------------------------------------------------------------------------
def test_bad_text_and_parameters_name_the_problem():
    game = make_game("send_it")
    state = game.initial_state()
    with pytest.raises(NotationError, match="expected cells such as 'i3' or 'bg3'"):
        game.parse_turn(state, "i3x")
    with pytest.raises(IllegalActionError, match="the turn ends after 1"):
        game.parse_turn(state, "i3 g3")
    with pytest.raises(IllegalActionError, match="c3 is not empty"):
        game.parse_turn(state, "c3")
    assert game.action_to_text(state, game.PASS) == "pass" and game.info.num_actions == 170
    for bad in ("c3", "c3 / c3", "/ k3", "c3 / z1"):
        with pytest.raises(ValueError, match="start"):
            make_game("send_it", start=bad)
    with pytest.raises(ValueError, match="move_limit"):
        make_game("send_it", move_limit=True)


def test_check_env_and_the_illegal_step():
    for mode in ("ansi", "rgb_array"):
        check_env(gym.make("SendIt-v0", render_mode=mode).unwrapped, skip_render_check=False)
    env = gym.make("SendIt-v0").unwrapped
    env.reset(seed=0)
    _, reward, terminated, truncated, info = env.step(cell(make_game("send_it"), "d4"))
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert "d4 sees none of your stones" in info["message"]


# --- random games against an independent reading of the drop rule -------------------------------------------
def liberties_after(board, n, seat, cell):
    """Independently: the board after a drop with its captures, by coordinates."""
    board = board.copy()
    board[cell] = PIECE[seat]

    def group(start):
        colour, stones, todo = board[start], {start}, [start]
        free = False
        while todo:
            r, c = divmod(todo.pop(), n)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < n and 0 <= cc < n:
                    other = rr * n + cc
                    if board[other] == EMPTY:
                        free = True
                    elif board[other] == colour and other not in stones:
                        stones.add(other)
                        todo.append(other)
        return stones, free

    for other in range(n * n):
        if board[other] == PIECE[1 - seat]:
            stones, free = group(other)
            if not free:
                board[list(stones)] = EMPTY
    return board, group(cell)


def sees(board, n, seat, cell):
    r0, c0 = divmod(cell, n)
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = r0 + dr, c0 + dc
        while 0 <= r < n and 0 <= c < n and board[r * n + c] == EMPTY:
            r, c = r + dr, c + dc
        if 0 <= r < n and 0 <= c < n and board[r * n + c] == PIECE[seat]:
            return True
    return False


class SendItReading(Reading):
    """Send It by coordinates: the drops that see a stone of the mover's and keep a liberty
    without joining the turn's stones (where restricted), the board after each drop, the area count."""

    def __init__(self, game):
        self.game, self.n = game, game.rules.n

    def legal(self, state):
        seat, board, expected = state.player, state.board, []
        for c in np.flatnonzero(board == EMPTY).tolist():
            if sees(board, self.n, seat, c):
                _, (stones, free) = liberties_after(board, self.n, seat, c)
                if free and not (self.game.restricted and stones.intersection(state.placed)):
                    expected.append(c)
        return expected + [self.game.PASS]

    def step(self, before, action, after):
        if action != self.game.PASS:
            assert np.array_equal(after.board, liberties_after(before.board, self.n, before.player, action)[0])

    def end(self, state):
        first, second = self.game.rules.area(state.board)
        expected = (0.0, 0.0) if first == second else (1.0, -1.0) if first > second else (-1.0, 1.0)
        assert self.game.returns(state) == expected


def check_rules(seed, size):
    game = make_game("send_it", size=size, move_limit=60)
    check_random_game(game, seed, SendItReading(game), every=1000, playouts=0, symmetries=0)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([5, 6]))
def test_random_games_drop_by_the_rules(seed, size):
    check_rules(seed, size)


@pytest.mark.slow
def test_a_thousand_random_games_drop_by_the_rules():
    for seed in range(1000):
        check_rules(seed, (5, 6)[seed % 2])


# --- playouts from hand-made positions ---------------------------------------------------------
def test_hand_made_positions_play_out_as_the_engine_loop():
    """The compiled playout plays the engine loop's game from a drop that captures, a suicide
    refused, a turn stopped after a drop and after a pass."""
    cases = []
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
            check_playout(game, state, seed, game.compiled())
