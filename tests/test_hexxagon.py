"""Hexxagon and 1344 Hexxagon (docs/games/hexxagon.md): the text's two turns replayed to its
diagram, hand-made positions for each rule, and random games against an independent reading of
the rules in the text's doubled coordinates (hypothesis)."""

from pathlib import Path
from types import SimpleNamespace

import gymnasium as gym
import numpy as np
import pytest
from conformance import Reading, check_playout, check_random_game
from diagrams import read_hexagon_board
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st

import envs  # noqa: F401  (registers the ids)
from envs import IllegalActionError, NotationError, make_game
from envs.games.hexxagon.game import TEXT_START
from envs.records import format_game, parse_header, read_record, replay
from envs.schedule.moves import EMPTY, OFF_BOARD, PIECE
from envs.stones.hexagon import LETTERS

DATA = Path(__file__).parent / "data"


def sample():
    record = read_record((DATA / "hexxagon_1344_sample.txt").read_text())
    game = make_game("hexxagon_1344", **parse_header(record))
    states = [state.copy() for state in replay(game, record.turns)]
    return game, record, states


def names(game, board, value):
    return sorted(game.rules.cell_name(c) for c in np.flatnonzero(board == value))


def cell(game, name):
    return game.rules.parse_cell(name)


# --- the text's sample ----------------------------------------------------------------------------
def test_the_diagram_is_the_board_after_the_printed_turns():
    game, record, states = sample()
    printed = read_hexagon_board(game.rules, (DATA / "hexxagon_1344_diagram.txt").read_text())
    final = states[-1]
    assert [game.rules.cell_name(c) for c in np.flatnonzero(final.board != printed)] == []
    start = game.initial_state().board
    # the diagram is not the start: it holds the cells moved to and lacks m5, which jumped
    assert [game.rules.cell_name(c) for c in np.flatnonzero(start != printed)] == ["p4", "v4", "m5", "f6", "n6"]
    assert game.to_play(final) == 0 and final.moves_left == 4
    assert (printed >= 0).sum() == 217 and (printed == PIECE[0]).sum() == 10 and (printed == PIECE[1]).sum() == 11


def test_the_reconstructed_start_is_the_default_and_a_half_turn_exchanges_the_sides():
    game = make_game("hexxagon_1344")
    board = game.initial_state().board
    xs, os = TEXT_START.split("/")
    assert names(game, board, PIECE[0]) == sorted(xs.split()) and names(game, board, PIECE[1]) == sorted(os.split())
    half_turn = board[::-1]  # the array's cells in reverse order: (r, q) -> (16 - r, 16 - q)
    assert np.array_equal(half_turn == PIECE[0], board == PIECE[1])
    assert np.array_equal(half_turn == PIECE[1], board == PIECE[0])


def test_the_sample_turns_print_back_as_recorded():
    game, record, _ = sample()
    state, actions = game.initial_state(), []
    for text in record.turns:
        turn = game.parse_turn(state, text)
        actions += turn
        for action in turn:
            game.apply(state, action)
    assert format_game(game, actions) == record.turns
    assert actions == [cell(game, w) for w in ("v4", "n6", "m5", "p4", "f6")] == [64, 93, 76, 61, 89]
    # docs/rules.md, the encodings
    assert [cell(game, w) for w in ("i1", "y1", "a9", "G9", "i17")] == [8, 16, 136, 152, 272]
    assert game.info.obs_shape == (8, 17, 17) and game.info.num_actions == 289
    # the order matters: once m5 has jumped, no stone o had at the start of the turn touches n6
    with pytest.raises(IllegalActionError, match="n6 is empty but next to none of your stones that may move"):
        game.parse_turn(game.step(game.initial_state(), cell(game, "v4")), "m5p4,n6,f6")


# --- hand-made positions, one rule each -----------------------------------------------------------------
def test_moves_only_from_stones_on_the_board_at_the_start_of_the_turn():
    game = make_game("hexxagon_1344")
    state = game.play_turn(game.initial_state(), "v4")
    game.apply(state, cell(game, "n6"))  # a clone from m5: n6 is new this turn
    o7 = cell(game, "o7")  # next to n6 only
    assert o7 not in game.legal_actions(state)
    with pytest.raises(IllegalActionError, match="o7 is empty but next to none of your stones that may move"):
        game.apply(state, o7)
    free = make_game("hexxagon_1344", restricted=False)
    state = free.play_turn(free.initial_state(), "v4")
    free.apply(state, cell(free, "n6"))
    assert o7 in free.legal_actions(state)


def test_a_clone_grows_a_jump_moves_and_both_turn_the_rival_stones_next_to_them():
    game = make_game("hexxagon", size=3, start="c1 / e3 g3")
    state = game.initial_state()
    game.play_turn(state, "d2")  # a clone: c1 stays; e3 touches d2 and turns
    assert names(game, state.board, PIECE[0]) == ["c1", "d2", "e3"] and names(game, state.board, PIECE[1]) == ["g3"]
    game.play_turn(state, "g3e1")  # a jump two away: g3 empties; e1 touches c1 and d2
    assert names(game, state.board, PIECE[1]) == ["c1", "d2", "e1"] and names(game, state.board, PIECE[0]) == ["e3"]


def test_a_turn_whose_quota_cannot_be_filled_ends_after_the_moves_it_has():
    # o's one stone, c1, is shut in by x's: it can only jump, and the stone it turns is no origin
    game = make_game("hexxagon", size=3, schedule="13", start="e1 b2 d2 / c1")
    state = game.play_turn(game.initial_state(), "g1")
    assert game.to_play(state) == 1 and state.moves_left == 3
    assert game.legal_actions(state) == [cell(game, "c1")]  # no clone, only the jump
    start = state.copy()
    game.play_turn(state, "c1e3")  # d2 turns to o, but was x's at the start of the turn: the turn ends
    assert names(game, state.board, PIECE[1]) == ["d2", "e3"]
    assert game.to_play(state) == 0 and state.moves_left == 3
    assert game.turn_kind(start, game.parse_turn(start, "c1e3")) == "short"
    free = make_game("hexxagon", size=3, schedule="13", restricted=False, start="e1 b2 d2 / c1")
    state = free.play_turn(free.initial_state(), "g1")
    free.apply(state, cell(free, "c1"))
    free.apply(state, cell(free, "e3"))
    assert free.to_play(state) == 1 and state.moves_left == 2  # unrestricted, d2 and e3 may go on


def test_a_stone_new_this_turn_starts_no_move_even_on_a_cell_a_jump_left():
    game = make_game("hexxagon", size=3, schedule="13", start="e5 / c3 e3")
    state = game.play_turn(game.initial_state(), "g5")
    for text in ("c3c1", "c3"):  # c3 jumps away, then e3 clones into c3 again
        for action in game.rules.parse_move(text):
            game.apply(state, action)
    assert game.to_play(state) == 1 and state.moves_left == 1
    legal = game.legal_actions(state)
    assert cell(game, "e3") in legal  # e3 was o's at the start of the turn and has not jumped
    assert cell(game, "c3") not in legal and cell(game, "b4") not in legal  # b4 touches only c3 of o's
    with pytest.raises(IllegalActionError, match="the stone on c3 may not move this turn"):
        game.apply(state, cell(game, "c3"))


def test_the_side_that_cannot_move_ends_the_game_and_the_empty_cells_go_to_the_other():
    game = make_game("hexxagon", size=3, start="c1 / e1 b2 d2 g1 f2 a3 c3 e3")
    state = game.initial_state()  # every cell within two of x's one stone is o's
    assert game.is_terminal(state) and game.returns(state) == (-1.0, 1.0)
    assert game.result_text(state) == "o wins (1 stones to 8 on the board)"
    stuck = make_game("hexxagon", size=3, start="e1 b2 d2 g1 f2 a3 c3 e3 / c1")
    state = stuck.play_turn(stuck.initial_state(), "g3")  # o is to move and cannot: the 9 empty cells go to x
    assert stuck.is_terminal(state) and stuck.returns(state) == (1.0, -1.0)


def test_a_game_at_the_move_limit_is_scored_by_the_stones_on_the_board():
    game = make_game("hexxagon", size=3, move_limit=2)
    state = game.play_turn(game.initial_state(), "g3")  # x's clone from i3, next to no o stone: 4 to 3
    assert not game.is_terminal(state)
    game.play_turn(state, "c3")  # o's clone from a3, next to no x stone: 4 to 4
    assert game.is_terminal(state) and game.returns(state) == (0.0, 0.0)
    assert game.info.params["move_limit"] == 2 and make_game("hexxagon").info.params["move_limit"] == 4 * 61


# --- errors and notation ------------------------------------------------------------------------------
def test_every_cell_name_reads_back_and_bad_text_names_the_problem():
    for side in (3, 5, 9):
        game = make_game("hexxagon", size=side)
        on = np.flatnonzero(game.initial_state().board != OFF_BOARD)
        assert len(on) == 3 * side * (side - 1) + 1
        assert [game.rules.parse_cell(game.rules.cell_name(c)) for c in on] == on.tolist()
    game = make_game("hexxagon_1344")
    assert game.rules.cell_name(cell(game, "G9")) == "G9" and cell(game, "i1") == 8
    for bad in ("a1", "b9", "H9", "v44", "4v"):
        with pytest.raises(NotationError):
            game.rules.parse_cell(bad)
    state = game.initial_state()
    with pytest.raises(NotationError, match="expected a clone 'v4' or a jump 'm5p4'"):
        game.parse_turn(state, "v4x")
    with pytest.raises(IllegalActionError, match="a9 holds a rival stone"):
        game.parse_turn(state, "a9")
    with pytest.raises(IllegalActionError, match="the turn ends after 1"):
        game.parse_turn(state, "v4,t4")
    for bad in ("i1 / q1 / y1", "i1 / i1", "/ i1", "i1 / b9"):
        with pytest.raises(ValueError, match="start"):
            make_game("hexxagon_1344", start=bad)
    for bad in (2, 14, True, "5"):
        with pytest.raises(ValueError, match="size"):
            make_game("hexxagon", size=bad)
    with pytest.raises(ValueError, match="move_limit"):
        make_game("hexxagon", move_limit=-1)


def test_check_env_on_both_ids():
    for env_id, kwargs in (("Hexxagon-v0", {}), ("Hexxagon1344-v0", {})):
        for mode in ("ansi", "rgb_array"):
            check_env(gym.make(env_id, render_mode=mode, **kwargs).unwrapped, skip_render_check=False)


def test_an_illegal_step_loses_for_its_maker():
    env = gym.make("Hexxagon1344-v0").unwrapped
    env.reset(seed=0)
    _, reward, terminated, truncated, info = env.step(0)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert info["message"] == "action 0: cell 0 is not on the board"


# --- random games against an independent reading of the rules -----------------------------------------------
def doubled(game):
    """Every board cell's (row, doubled letter) from its name (not from the engine's arrays)."""
    board = game.initial_state().board
    out = {}
    for c in np.flatnonzero(board != OFF_BOARD):
        name = game.rules.cell_name(c)
        out[int(c)] = (int(name[1:]), LETTERS.index(name[0]))
    return out


def distance(a, b):
    dr, dx = abs(a[0] - b[0]), abs(a[1] - b[1])
    return dr + max(0, (dx - dr) // 2)


def expected_mask(game, coords, state, origins):
    board = state.board
    if state.partial:
        start = coords[state.partial[0]]
        return sorted(c for c, at in coords.items() if board[c] == EMPTY and distance(start, at) == 2)
    clones = [c for c, at in coords.items() if board[c] == EMPTY and any(distance(at, coords[o]) == 1 for o in origins)]
    jumps = [o for o in origins if any(board[c] == EMPTY and distance(coords[o], at) == 2 for c, at in coords.items())]
    return sorted(clones + jumps)


class HexxagonReading(Reading):
    """Hexxagon in doubled coordinates: each micro-step's mask (clones next to the turn's
    origins, jumps two away), the captures around a move, a turn that ends full or stuck, and the
    count with the stuck side's empty cells to its rival (both ids)."""

    def __init__(self, game):
        self.game, self.coords = game, doubled(game)
        self.origins = set(np.flatnonzero(game.initial_state().board == PIECE[0]).tolist())
        self.moves_in_turn, self.turn = 0, 0

    def legal(self, state):
        return expected_mask(self.game, self.coords, state, self.movable(state, state.player))

    def movable(self, state, seat) -> set:
        """Where the turn's moves may start: its origins not moved yet, or, unrestricted, every
        stone of the mover's."""
        return self.origins if self.game.restricted else set(np.flatnonzero(state.board == PIECE[seat]).tolist())

    def step(self, before, action, after):
        game, coords, seat = self.game, self.coords, before.player
        if after.partial:
            return
        self.moves_in_turn += 1
        assert after.board[action] == PIECE[seat]
        for c, at in coords.items():  # the rival stones next to the cell moved to have turned
            if distance(at, coords[action]) == 1 and before.board[c] == PIECE[1 - seat]:
                assert after.board[c] == PIECE[seat]
        if before.partial:
            assert after.board[before.partial[0]] == EMPTY
            self.origins.discard(before.partial[0])
        if game.is_terminal(after) or game.to_play(after) == seat:
            return
        quota = game.schedule.moves(self.turn)
        stuck = state_as(after, seat)
        assert self.moves_in_turn == quota or expected_mask(game, coords, stuck, self.movable(stuck, seat)) == []
        self.origins = set(np.flatnonzero(after.board == PIECE[1 - seat]).tolist())
        self.moves_in_turn, self.turn = 0, self.turn + 1

    def end(self, state):
        counts = [int((state.board == piece).sum()) for piece in PIECE]
        stuck = state.player
        if state.moves < self.game.rules.move_limit:
            counts[1 - stuck] += int((state.board == EMPTY).sum())
        expected = (0.0, 0.0) if counts[0] == counts[1] else (1.0, -1.0) if counts[0] > counts[1] else (-1.0, 1.0)
        assert self.game.returns(state) == expected


def check_rules(seed, size, schedule):
    game = make_game("hexxagon", size=size, schedule=schedule)
    check_random_game(game, seed, HexxagonReading(game), every=1000, playouts=0, symmetries=0)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([3, 4]), schedule=st.sampled_from(["1", "1344", "12"]))
def test_random_games_follow_the_rules_turn_by_turn(seed, size, schedule):
    check_rules(seed, size, schedule)


@pytest.mark.slow
def test_thousands_of_random_games_follow_the_rules():
    for seed in range(3000):
        check_rules(seed, [3, 4][seed % 2], ("1", "134", "12")[seed % 3])


def state_as(state, seat):
    """``state``'s board seen as ``seat``'s position at the start of a move (for the mask of a turn
    that ended): what :func:`expected_mask` reads."""
    return SimpleNamespace(board=state.board, player=seat, partial=())


# --- playouts from hand-made positions ---------------------------------------------------------
def test_hand_made_positions_play_out_as_the_engine_loop():
    """The compiled playout plays the engine loop's game from a turn whose quota cannot be filled,
    a stone new this turn on a cell a jump left, a jump picked and the move limit one move away."""
    cases = []
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
    for game, state in cases:
        state = game.initial_state() if state is None else state
        for seed in range(20):
            check_playout(game, state, seed, game.compiled())
