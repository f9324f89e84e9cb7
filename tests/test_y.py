"""Y and Neu-Y (docs/games/y.md, docs/games/neuy.md): the triangle in its square array, names, sides, the six
maps of the triangle, exact small boards. The sample game is replayed in
test_neutral_samples.py; random-game properties and the playout kernels are checked with
the other stone games in test_neutral_properties.py."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from envs import NotationError, make_game
from envs.kernels import OFF_BOARD


# --- the board ---------------------------------------------------------------------------------
def test_cells_and_names_of_the_five_row_board():
    game = make_game("y", size=5)
    state = game.initial_state()
    legal = game.legal_actions(state)
    assert len(legal) == 15 == game.n * (game.n + 1) // 2
    rows = {}
    for cell in legal:
        name = game.action_to_text(state, cell)
        rows.setdefault(name[1:], []).append(name[0])
    assert rows == {"1": list("acegi"), "2": list("bdfh"), "3": list("ceg"), "4": list("df"), "5": ["e"]}
    for cell in legal:  # both ways
        assert game.parse_turn(state, game.action_to_text(state, cell)) == [cell]
    off = [cell for cell in range(25) if cell not in legal]
    assert all(state.board[cell] == OFF_BOARD for cell in off)
    planes = game.observe(state)
    np.testing.assert_array_equal(planes[2].reshape(-1), [cell in off for cell in range(25)])


@pytest.mark.parametrize(
    "text, message",
    [("e4", "row 4 holds d4 f4"), ("b1", "row 1 holds a1 c1"), ("e6", "rows 1-5"), ("zz", "cannot read")],
)
def test_cells_off_the_triangle_are_refused_by_name(text, message):
    game = make_game("neuy", size=5)
    with pytest.raises(NotationError, match=message):
        game.parse_turn(game.initial_state(), text)


def test_a_cell_off_the_triangle_is_never_legal():
    game = make_game("y", size=5)
    state = game.initial_state()
    with pytest.raises(ValueError, match="not on the board"):
        game.apply(state, 24)


def test_sizes():
    assert make_game("neuy").n == 13 and make_game("y").n == 13
    assert not make_game("neuy").info.params["pie_rule"]
    with pytest.raises(ValueError, match="size must be from 2 to 13"):
        make_game("y", size=14)
    with pytest.raises(ValueError, match="size"):
        make_game("neuy", size=1)


@pytest.mark.parametrize(
    "stones, wins",
    [
        ("a1 c1 e1 g1 i1", True),  # the bottom row: its ends are corners on the other sides
        ("a1 c1 e1 g1", False),  # bottom and left only
        ("e5 d4 c3 b2 a1", True),  # the left side, corner to corner
        ("c1 c3 d4 e5", False),  # c1 and c3 do not touch
        ("c1 b2 c3 d4", False),  # bottom and left (d4 is on the left side)
        ("c1 b2 c3 d4 f4", True),  # d4 and f4 touch along row 4; f4 is on the right side
        ("e1 d2 c3 d4 f4", True),  # from the bottom's middle to both upper sides
        ("g1 f2 e3 g3 h2", False),  # bottom and right only
    ],
)
def test_a_chain_wins_when_it_touches_all_three_sides(stones, wins):
    game = make_game("y", size=5)
    state = game.initial_state()
    *others, last = stones.split()
    for name in others:  # the stones on the board (the row's cells), read back from the diagram
        state.row[game.parse_turn(state, name)[0]] = 1
    state = game.from_diagram(game.render_text(state), "x")
    game.apply(state, game.parse_turn(state, last)[0])
    assert (game.winner(state) == 0) == wins


def test_the_ansi_board_reads_back():
    game = make_game("neuy", size=4)
    rng = np.random.default_rng(5)
    state = game.initial_state()
    for _ in range(9):
        legal = game.legal_actions(state)
        game.apply(state, legal[int(rng.integers(len(legal)))])
    text = game.render_text(state)
    assert text.splitlines()[0] == "4      " + ".xo?"[state.board[3 * 4]]  # d4, the top corner
    assert game.from_diagram(text, "xo"[state.colour - 1]).board == state.board
    image = game.render_rgb(state)
    assert image.ndim == 3 and image.shape[2] == 3


# --- symmetries ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["y", "neuy"])
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([3, 4, 5, 6]))
def test_symmetries_map_games_onto_games(name, seed, size):
    """A random game mapped action by action by each of the six maps is a legal game with the
    mapped masks and observations, and the same winner."""
    game = make_game(name, size=size)
    symmetries = game.symmetries()
    assert [s.name for s in symmetries][0] == "identity" and len(symmetries) == 6
    rng = np.random.default_rng(seed)
    state = game.initial_state()
    images = [game.initial_state() for _ in symmetries]
    while not game.is_terminal(state):
        legal = game.legal_actions(state)
        action = legal[int(rng.integers(len(legal)))]
        for symmetry, image in zip(symmetries, images):
            assert sorted(symmetry.action_perm[legal]) == game.legal_actions(image)
            np.testing.assert_array_equal(symmetry.obs(game.observe(state)), game.observe(image))
            game.apply(image, int(symmetry.action_perm[action]))
        game.apply(state, action)
    assert all(game.returns(image) == game.returns(state) for image in images)


def test_the_six_maps_are_distinct_and_keep_the_triangle():
    game = make_game("y", size=4)
    on = game.legal_actions(game.initial_state())
    perms = {tuple(s.action_perm) for s in game.symmetries()}
    assert len(perms) == 6
    for perm in perms:
        assert sorted(perm[c] for c in on) == on


# --- exact small boards (docs/games/y.md, docs/games/neuy.md: "Exact facts the tests check") ----------------------------------
NEUY_3_LOSING_DROPS = {"a1 b2", "a1 d2", "e1 b2", "e1 d2", "c3 b2", "c3 d2", "a1 c1", "e1 c1", "c3 c1"}


def solved(name, size, pie_rule=False):
    from agents.search.solver import Solver

    game = make_game(name, size=size, pie_rule=pie_rule)
    start = game.initial_state()
    solver = Solver(game)
    return solver.value(start), {game.format_turn(start, turn) for turn in solver.optimal_turns(start)}


def test_plain_y_3_and_4_first_player_wins_except_from_a_corner():
    value, turns = solved("y", 3)
    assert value == 1.0 and turns == {"c1", "b2", "d2"}
    value, turns = solved("y", 4)
    assert value == 1.0 and turns == {"c1", "e1", "b2", "d2", "f2", "c3", "e3"}


def test_neuy_3_first_player_wins_with_21_of_its_30_drops():
    value, turns = solved("neuy", 3)
    drops = {
        f"{a} {b}" for a in ("a1", "c1", "e1", "b2", "d2", "c3") for b in ("a1", "c1", "e1", "b2", "d2", "c3") if a != b
    }
    assert value == 1.0 and len(turns) == 21
    assert turns == drops - NEUY_3_LOSING_DROPS


@pytest.mark.parametrize("name", ["y", "neuy"])
def test_with_the_pie_rule_the_second_player_wins_on_3(name):
    value, turns = solved(name, 3, pie_rule=True)
    assert value == -1.0 and len(turns) == (6 if name == "y" else 30)  # every first turn loses


@pytest.mark.slow
def test_plain_y_5_first_player_wins_only_from_the_centre():
    assert solved("y", 5) == (1.0, {"d2", "f2", "e3"})


@pytest.mark.slow
def test_neuy_4_every_drop_wins():
    value, turns = solved("neuy", 4)
    assert value == 1.0 and len(turns) == 90


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([2, 3, 4, 5, 7]), pie=st.booleans())
def test_neuy_ends_within_2e_plus_n_turns_with_one_winner(seed, size, pie):
    """From the start E = n(n+1)/2 and N = 0: at most 2E turns (plus the pie swap), and a full
    board or a won turn at the end, with exactly one winner."""
    game = make_game("neuy", size=size, pie_rule=pie)
    rng = np.random.default_rng(seed)
    state = game.initial_state()
    turns = 0
    while not game.is_terminal(state):
        legal = game.legal_actions(state)
        game.apply(state, legal[int(rng.integers(len(legal)))])
        if state.phase == 0:
            turns += 1
    assert turns <= size * (size + 1) + pie
    assert game.winner(state) in (0, 1) and sorted(game.returns(state)) == [-1.0, 1.0]
