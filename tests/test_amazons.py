"""Amazons and the 13(4) ProgressiveAmazons (docs/games/amazons.md): the text's sample replayed
to its printed board, hand-made positions for each rule, and random games against an independent
reading of the rules (hypothesis)."""

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
from envs.games.amazons.game import TEXT_START, standard_start
from envs.records import format_game, parse_header, read_record, replay
from envs.schedule.moves import BLOCK, EMPTY, PIECE
from envs.stones.board import parse_cell

DATA = Path(__file__).parent / "data"


def sample():
    record = read_record((DATA / "progressive_amazons_sample.txt").read_text())
    game = make_game("progressive_amazons", **parse_header(record))
    states = [state.copy() for state in replay(game, record.turns)]
    return game, record, states


def cells(game, text):
    return [parse_cell(word, game.rules.n) for word in text.split()]


# --- the text's sample ----------------------------------------------------------------------------
def test_the_sample_replays_to_the_printed_board_square_by_square():
    game, record, states = sample()
    assert len(states) == 7
    printed = read_square_board(game.rules, (DATA / "progressive_amazons_final_diagram.txt").read_text())
    final = states[-1]
    assert [game.rules.cell_name(c) for c in np.flatnonzero(final.board != printed)] == []
    assert (final.board == BLOCK).sum() == 1 + 3 + 4 * 5  # one arrow a move: 1, 3, then 4 a turn
    assert game.to_play(final) == 1 and final.moves_left == 4  # o to move, four moves in the turn


def test_the_sample_turns_hold_one_three_then_four_moves():
    game, record, states = sample()
    assert [len(turn.split()) for turn in record.turns] == [1, 3, 4, 4, 4, 4, 4]
    assert [game.to_play(state) for state in states] == [1, 0, 1, 0, 1, 0, 1]


def test_the_sample_turns_print_back_as_recorded():
    game, record, _ = sample()
    state, actions = game.initial_state(), []
    for text in record.turns:
        turn = game.parse_turn(state, text)
        actions += turn
        for action in turn:
            game.apply(state, action)
    assert format_game(game, actions) == record.turns


def test_the_reconstructed_start_is_the_default_at_19():
    game = make_game("progressive_amazons")
    board = game.initial_state().board
    ys, os = TEXT_START.split("/")
    assert sorted(np.flatnonzero(board == PIECE[0])) == sorted(cells(game, ys))
    assert sorted(np.flatnonzero(board == PIECE[1])) == sorted(cells(game, os))
    assert game.info.params == {"schedule": "134", "restricted": True, "size": 19, "start": TEXT_START}


def test_the_start_is_symmetric_but_for_the_printed_a7():
    """docs/games/progressive_amazons.md: y's amazons keep their places under a half turn, and o's are y's
    mirrored left to right except a7 (where the mirror image has a4)."""
    game = make_game("progressive_amazons")
    ys, os = (set(cells(game, side)) for side in TEXT_START.split("/"))
    assert {360 - c for c in ys} == ys
    mirrored = {(c // 19) * 19 + 18 - c % 19 for c in ys}
    assert mirrored - os == set(cells(game, "a4")) and os - mirrored == set(cells(game, "a7"))


def test_the_standard_start():
    assert standard_start(10) == "a4 d1 g1 j4 / a7 d10 g10 j7"
    assert standard_start(5) == "a2 b1 d1 e2 / a4 b5 d5 e4"
    assert make_game("amazons").info.params["schedule"] == "1"


# --- hand-made positions, one rule each -----------------------------------------------------------------
def test_an_amazon_moves_at_most_once_a_turn():
    game = make_game("progressive_amazons")
    state = game.play_turn(game.initial_state(), "s4d4/b4")
    game.apply(state, game.rules.parse_move("a7d7/g4")[0])
    for action in game.rules.parse_move("a7d7/g4")[1:]:
        game.apply(state, action)
    d7 = parse_cell("d7", 19)
    assert d7 not in game.legal_actions(state) and state.moves_left == 2
    with pytest.raises(IllegalActionError, match="the amazon on d7 has moved this turn"):
        game.apply(state, d7)
    free = make_game("progressive_amazons", restricted=False)
    state = free.play_turn(free.initial_state(), "s4d4/b4")
    for action in free.rules.parse_move("a7d7/g4"):
        free.apply(state, action)
    assert d7 in free.legal_actions(state)


def test_moves_and_arrows_go_over_empty_cells_only():
    game = make_game("amazons", size=5, start="a1 / c1")
    state = game.initial_state()
    a1, b1, c1 = cells(game, "a1 b1 c1")
    game.apply(state, a1)
    reach = set(game.legal_actions(state))
    assert b1 in reach and c1 not in reach and parse_cell("d1", 5) not in reach  # c1's amazon blocks the row
    assert set(cells(game, "a2 a3 a4 a5 b2 c3 d4 e5")) <= reach
    with pytest.raises(IllegalActionError, match="the destination must go to an empty cell; c1 is not empty"):
        game.apply(state, c1)
    game.apply(state, parse_cell("a3", 5))
    assert a1 in game.legal_actions(state)  # the arrow may land on the square just left


def test_a_turn_whose_quota_cannot_be_filled_ends_after_the_moves_it_has():
    game = make_game("amazons", size=5, schedule="12", start="a1 / e5")
    state = game.play_turn(game.initial_state(), "a1a2/a3")
    assert game.to_play(state) == 1 and state.moves_left == 2
    start = state.copy()
    game.play_turn(state, "e5e4/e3")  # o has one amazon, which has moved: the turn ends after one move
    assert game.to_play(state) == 0 and state.moves_left == 2
    assert game.turn_kind(start, game.parse_turn(start, "e5e4/e3")) == "short"
    with pytest.raises(IllegalActionError, match="the turn ends after 1"):
        game.parse_turn(start, "e5e4/e3 e4e5/e4")


def test_the_seat_without_a_move_at_the_start_of_its_turn_loses():
    game = make_game("amazons", size=4, start="c3 c4 a1 / d4")
    state = game.play_turn(game.initial_state(), "a1d1/d3")  # the arrow on d3 shuts b's amazon on d4 in
    assert game.is_terminal(state) and game.returns(state) == (1.0, -1.0)
    assert game.result_text(state) == "w wins: b has no move"
    other = game.play_turn(game.initial_state(), "a1d1/d2")  # with d3 still free, b plays on
    assert game.to_play(other) == 1 and game.legal_actions(other) == [parse_cell("d4", 4)]


# --- errors and notation ------------------------------------------------------------------------------
def test_bad_turns_and_moves_name_the_problem():
    game = make_game("amazons")
    state = game.initial_state()
    assert game.parse_turn(state, "a4a5/a6") == [30, 40, 50]  # docs/rules.md, the encodings
    assert game.info.obs_shape == (9, 10, 10) and make_game("progressive_amazons").info.num_actions == 361
    with pytest.raises(NotationError, match="expected from, to and arrow"):
        game.parse_turn(state, "a4a5")
    with pytest.raises(IllegalActionError, match="a5 is empty; a move starts with one of your amazons"):
        game.parse_turn(state, "a5a6/a7")
    with pytest.raises(IllegalActionError, match="the turn ends after 1"):
        game.parse_turn(state, "a4a5/a6 d1d2/d3")
    progressive = make_game("progressive_amazons")
    second = progressive.play_turn(progressive.initial_state(), "s4d4/b4")
    with pytest.raises(IllegalActionError, match="has 1 moves; this turn holds 3"):
        progressive.parse_turn(second, "a7d7/g4")
    with pytest.raises(IllegalActionError, match="a7 holds a rival amazon"):
        game.apply(state, parse_cell("a7", 10))
    for bad in ("start", "a4 / z99", "a4 a4 / a7", "a4 /"):
        with pytest.raises(ValueError, match="start"):
            make_game("amazons", start=bad)
    for bad in ("", "1a", "0", "103", [1, 0], True, 3.5):
        with pytest.raises(ValueError, match="schedule"):
            make_game("amazons", schedule=bad)


def test_check_env_on_both_ids():
    for env_id, kwargs in (("Amazons-v0", {"size": 6}), ("ProgressiveAmazons-v0", {})):
        for mode in ("ansi", "rgb_array"):
            check_env(gym.make(env_id, render_mode=mode, **kwargs).unwrapped, skip_render_check=False)


def test_an_illegal_step_loses_for_its_maker():
    env = gym.make("ProgressiveAmazons-v0").unwrapped
    env.reset(seed=0)
    _, reward, terminated, truncated, info = env.step(parse_cell("a1", 19))
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert "a1 is empty" in info["message"]


# --- random games against an independent reading of the rules -----------------------------------------------
def queen_targets(board, n, cell):
    """The empty cells a queen on ``cell`` reaches, by coordinates (not the engine's rays)."""
    r0, c0, out = divmod(cell, n) + ([],)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if dr or dc:
                r, c = r0 + dr, c0 + dc
                while 0 <= r < n and 0 <= c < n and board[r * n + c] == EMPTY:
                    out.append(r * n + c)
                    r, c = r + dr, c + dc
    return sorted(out)


def expected_mask(game, state, moved):
    n, board, seat = game.rules.n, state.board, state.player
    if not state.partial:
        pieces = [c for c in np.flatnonzero(board == PIECE[seat]) if c not in moved]
        return [int(c) for c in pieces if queen_targets(board, n, c)]
    return queen_targets(board, n, state.partial[-1])


class AmazonsReading(Reading):
    """Amazons by coordinates: each micro-step's mask, a turn that ends full or with no unmoved
    amazon able to move (any amazon, unrestricted), and a loser who had no move (both ids)."""

    def __init__(self, game):
        self.game, self.moved, self.moves_in_turn, self.turn = game, set(), 0, 0

    def legal(self, state):
        return expected_mask(self.game, state, self.done())

    def done(self) -> set:
        """The amazons that may not move again this turn: those moved, where the turn is restricted."""
        return self.moved if self.game.restricted else set()

    def step(self, before, action, after):
        game, size, seat, step = self.game, self.game.rules.n, before.player, len(before.partial)
        if step == 1:
            self.moved.add(action)
        if step != 2 or game.is_terminal(after):
            return
        self.moves_in_turn += 1
        if game.to_play(after) != seat:  # the turn is over: full, or no unmoved amazon can move
            full = self.moves_in_turn == game.schedule.moves(self.turn)
            unmoved = [c for c in np.flatnonzero(after.board == PIECE[seat]) if c not in self.done()]
            assert full or not any(queen_targets(after.board, size, c) for c in unmoved)
            self.moved, self.moves_in_turn, self.turn = set(), 0, self.turn + 1
        else:
            assert self.moves_in_turn < game.schedule.moves(self.turn)

    def end(self, state):
        loser = self.game.returns(state).index(-1.0)
        assert loser == state.player  # the seat to start the turn had no move
        pieces = np.flatnonzero(state.board == PIECE[loser])
        assert not any(queen_targets(state.board, self.game.rules.n, c) for c in pieces)


def check_rules(seed, size, schedule):
    game = make_game("amazons", size=size, schedule=schedule)
    check_random_game(game, seed, AmazonsReading(game), every=1000, playouts=0, symmetries=0)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([4, 5, 6]), schedule=st.sampled_from(["1", "134", "12"]))
def test_random_games_follow_the_rules_turn_by_turn(seed, size, schedule):
    check_rules(seed, size, schedule)


@pytest.mark.slow
def test_thousands_of_random_games_follow_the_rules():
    for seed in range(3000):
        check_rules(seed, [4, 5, 6][seed % 3], ("1", "134", "12")[seed % 3])


# --- playouts from hand-made positions ---------------------------------------------------------
def test_hand_made_positions_play_out_as_the_engine_loop():
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
            check_playout(game, state, seed, game.compiled())
