"""Plain Hex: adjacency, the goal, no draws, the pie rule, the seed's text layout."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from test_neutral_properties import ref_hex_joined

from envs import make_game
from envs.games.hex.game import HexRules


def play(game, state, *turns):
    for text in turns:
        for action in game.parse_turn(state, text):
            game.apply(state, action)
    return state


def test_neighbours_of_the_rhombus():
    rules = HexRules(3)
    names = lambda cells: sorted("abc"[c % 3] + str(c // 3 + 1) for c in cells)  # noqa: E731
    assert names(rules.neighbours[4]) == ["a2", "a3", "b1", "b3", "c1", "c2"]  # b2
    assert names(rules.neighbours[0]) == ["a2", "b1"]  # a1: the acute corner
    assert names(rules.neighbours[2]) == ["b1", "b2", "c2"]  # c1: the obtuse corner


def test_vertical_joins_top_and_bottom():
    game = make_game("hex", size=3)
    state = play(game, game.initial_state(), "c1", "a1", "b2", "a2")
    assert not game.is_terminal(state)
    play(game, state, "a3")  # c1 b2 a3: a chain from row 1 to row 3
    assert game.returns(state) == (1.0, -1.0) and game.winner(state) == 0


def test_horizontal_joins_left_and_right():
    game = make_game("hex", size=3)
    state = play(game, game.initial_state(), "a1", "a2", "b1", "b2", "a3", "c2")
    assert game.returns(state) == (-1.0, 1.0)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(2, 9))
def test_a_full_board_has_exactly_one_winner(seed, size):
    board = np.random.default_rng(seed).integers(1, 3, size * size).astype(np.uint8)
    winners = [colour for colour in (1, 2) if ref_hex_joined(bytes(board), size, colour)]
    assert len(winners) == 1
    # the compiled rules find it too: the full board read from a diagram is over, won by that colour
    game = make_game("hex", size=size)
    symbols = [game.rules.symbols[v] for v in board]
    state = game.from_diagram("\n".join(game.rules.diagram(symbols)), "v")
    assert game.is_terminal(state) and state.outcome == winners[0]


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(2, 9))
def test_the_kept_chains_judge_each_turn_like_the_chain_search(seed, size):
    # plain Hex judges a turn by its union-find, kept from the start or from a diagram
    game, rng = make_game("hex", size=size), np.random.default_rng(seed)
    state = game.initial_state()
    while not game.is_terminal(state):
        before, cell, mover = state.copy(), int(rng.choice(game.legal_actions(state))), state.colour
        game.apply(state, cell)
        assert game.is_terminal(state) == ref_hex_joined(state.board, size, mover)
    text = game.render_text(before).splitlines()[:-1]
    again = game.from_diagram("\n".join(text), game.rules.symbols[mover], turns=before.turns)
    game.apply(again, cell)
    assert game.is_terminal(again) and game.returns(again) == game.returns(state)


def test_pie_rule_hands_over_the_colours():
    game = make_game("hex", size=5, pie_rule=True)
    state = play(game, game.initial_state(), "c3")
    assert game.SWAP_SIDES in game.legal_actions(state)
    play(game, state, "swap-sides")
    assert game.to_play(state) == 0 and state.seat_of(1) == 1  # seat 1 is Vertical now
    assert game.SWAP_SIDES not in game.legal_actions(state)
    play(game, state, "a1", "c2", "b1", "c1", "a2", "c4", "a3")
    assert not game.is_terminal(state)
    play(game, state, "c5")  # Vertical (seat 1) joins c1 to c5
    assert game.winner(state) == 1


def test_ansi_rows_are_indented_like_the_seed():
    game = make_game("hex", size=3)
    state = play(game, game.initial_state(), "b2", "c3")
    assert game.render_text(state).splitlines() == [
        "  a b c",
        "1  . . .",
        "2   . v .",
        "3    . . h",
        "      a b c",
        "Vertical (v) to move",
    ]


def test_defaults_match_the_configs():
    game = make_game("hex")
    assert game.info.params == {"size": 11, "pie_rule": False}
    assert game.info.num_actions == 123 and game.info.obs_shape == (4, 11, 11)
    assert make_game("nex").info.params == {"size": 11, "pie_rule": False}
    assert make_game("nex").info.obs_shape == (9, 11, 11)
