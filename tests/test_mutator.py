"""The neutral mutator: end-game rules, whole-turn judging, micro-step masks, errors, pie rule."""

import numpy as np
import pytest

from envs import GameOverError, IllegalActionError, NotationError, make_game
from envs.records import format_game, read_record, replay, write_record
from envs.turns import complete_turns

ALL = ["nex", "neumoku", "neuversi", "adneuversi", "hex", "gomoku", "reversi"]
SMALL = {"nex": 4, "hex": 4, "neumoku": 6, "gomoku": 6, "neuversi": 6, "adneuversi": 6, "reversi": 6}


def texts(game, state, turns):
    return sorted(game.format_turn(state, t) for t in turns)


# --- Taylor's end-game rules ------------------------------------------------------------------
def test_fill_when_one_empty_and_no_swap():
    game = make_game("nex", size=2)
    state = game.from_diagram("v v\n h .", "v")  # one empty cell, no neutrals
    assert texts(game, state, complete_turns(game, state)) == ["b2"]
    game.play_turn(state, "b2")
    assert game.winner(state) == 0  # b1-b2 joins row 1 to row 2


def test_a_swap_excludes_the_fill_rule():
    game = make_game("nex", size=3)
    state = game.from_diagram("v ? ?\n h h .\n  h v h", "v")  # one empty cell, two neutrals
    turns = texts(game, state, complete_turns(game, state))
    assert turns == sorted(["b1c1 a1", "b1c1 b3", "c1b1 a1", "c1b1 b3"])
    with pytest.raises(IllegalActionError, match="c2 is empty, but a swap is possible"):
        game.apply(state, game.parse_action("c2"))


def test_convert_when_the_board_holds_no_empty_cell():
    game = make_game("nex", size=2)
    state = game.from_diagram("h ?\n v h", "v")
    assert texts(game, state, complete_turns(game, state)) == ["b1"]
    game.play_turn(state, "b1")
    assert game.winner(state) == 0  # b1 joins a2 on row 2
    # no stone of the mover's: two neutrals cannot be swapped, one is converted
    state = game.from_diagram("h ?\n ? h", "v")
    assert texts(game, state, complete_turns(game, state)) == ["a2", "b1"]
    # with an empty cell left, that is filled instead
    game = make_game("nex", size=3)
    state = game.from_diagram("h ? ?\n . h .\n  . . .", "v")
    with pytest.raises(IllegalActionError, match="b1 holds a neutral stone, but no swap is possible"):
        game.apply(state, game.parse_action("b1"))


def test_one_empty_and_one_neutral_fill_then_the_opponent_converts():
    game = make_game("neumoku", size=5)
    rows = ["x o x o x", "o x o x o", "o x o x o", "x o x o x", "x o x ? ."]
    state = game.from_diagram("\n".join(rows), "o")
    game.play_turn(state, "e5")
    assert game.to_play(state) == 0 and texts(game, state, complete_turns(game, state)) == ["d5"]
    game.play_turn(state, "d5")
    assert game.is_terminal(state) and game.returns(state) == (0.0, 0.0)  # full board, no five


# --- a turn is judged as a whole ------------------------------------------------------------------
def test_a_line_made_and_broken_in_one_swap_does_not_win():
    game = make_game("neumoku", size=5)
    rows = ["x x x ? ?", ". . . . .", ". o . o .", ". . o . .", "o . . . ."]
    state = game.from_diagram("\n".join(rows), "x")
    for action in game.parse_turn(state, "d1e1 a1")[:2]:
        game.apply(state, action)
    assert list(state.board[:5]) == [1] * 5  # five in a row on the board, mid-turn
    assert game.to_play(state) == 0 and not game.is_terminal(state)
    game.apply(state, game.parse_action("a1"))  # every x stone is on the line
    assert game.to_play(state) == 1 and game.returns(state) == (0.0, 0.0)


def test_a_swap_that_keeps_the_line_wins():
    game = make_game("neumoku", size=5)
    rows = ["x x x ? ?", ". . . . x", ". o . o .", ". . o . .", "o . . . ."]
    state = game.play_turn(game.from_diagram("\n".join(rows), "x"), "d1e1 e2")
    assert game.returns(state) == (1.0, -1.0)


def test_nex_neutrals_join_no_chain():
    game = make_game("nex", size=3)
    state = game.play_turn(game.from_diagram("v . .\n ? . .\n  . . .", "v"), "a3 c3")
    assert not game.is_terminal(state)  # a1 ? a3: the neutral breaks the chain
    game.play_turn(state, "c1 b1")
    broken = game.play_turn(state.copy(), "a2b1 a3")  # a1 a2 b1 join row 1 to row 2 only
    assert game.to_play(broken) == 1
    joined = game.play_turn(state.copy(), "a2b1 a1")  # b1 a2 a3 join row 1 to row 3
    assert game.returns(joined) == (1.0, -1.0)


# --- NeuVersi specifics -----------------------------------------------------------------------------
def test_neutrals_count_as_enemy_stones_for_captures():
    game = make_game("neuversi", size=4)
    state = game.from_diagram(". . . .\n. x ? .\n. o x .\n. . . .", "x")
    game.play_turn(state, "d2 a1")
    assert game.render_text(state).splitlines()[:4] == ["? . . .  1", ". x x x  2", ". o x .  3", ". . . .  4"]


def test_drop_without_a_cell_for_the_neutral_is_one_word():
    game = make_game("neuversi", size=4)
    state = game.from_diagram("x o o .\nx x x x\nx x x x\nx x x x", "x")
    assert texts(game, state, complete_turns(game, state)) == ["d1"]
    game.play_turn(state, "d1")
    assert game.is_terminal(state) and game.returns(state) == (1.0, -1.0)


def test_adneuversi_neutral_goes_next_to_a_stone():
    game = make_game("adneuversi", size=6)
    state = game.initial_state()
    game.apply(state, game.parse_action("d2"))
    offered = {game.action_to_text(state, a) for a in game.legal_actions(state)}
    stones = {(r, c) for r in range(6) for c in range(6) if state.board[r * 6 + c]}
    expected = {
        "abcdef"[c] + str(r + 1)
        for r in range(6)
        for c in range(6)
        if not state.board[r * 6 + c] and any(abs(r - sr) <= 1 and abs(c - sc) <= 1 for sr, sc in stones)
    }
    assert offered == expected and "a6" not in offered
    with pytest.raises(IllegalActionError, match="next to a stone"):
        game.apply(state, game.parse_action("a6"))


def test_neuversi_pass_and_the_end():
    game = make_game("neuversi", size=4)
    state = game.from_diagram("x x x x\nx x x x\no x . x\nx x x x", "x")  # x cannot capture, o can
    assert game.legal_actions(state) == [game.PASS]
    game.play_turn(state, "pass")
    assert game.to_play(state) == 1
    with pytest.raises(IllegalActionError, match="pass is legal only"):
        game.apply(state, game.PASS)
    ended = game.from_diagram("x x x x\nx x x x\nx x x .\nx x x ?", "o")
    assert game.is_terminal(ended) and game.returns(ended) == (1.0, -1.0)


# --- the pie rule -----------------------------------------------------------------------------------
def test_neumoku_pie_rule_after_three_turns():
    game = make_game("neumoku", size=7)
    state = game.initial_state()
    for text in ("d4 a1", "c3 a2", "e5 a3"):
        assert game.SWAP_SIDES not in game.legal_actions(state)
        game.play_turn(state, text)
    assert game.to_play(state) == 1 and game.SWAP_SIDES in game.legal_actions(state)
    assert game.observe(state)[7].all()
    game.play_turn(state, "swap-sides")
    # seat 1 now holds x (the d4 e5 stones), seat 0 plays o and moves
    assert game.to_play(state) == 0 and state.seat_of(1) == 1
    assert game.observe(state)[0].sum() == 1 and game.observe(state)[8].sum() == 0
    assert game.SWAP_SIDES not in game.legal_actions(state)
    for text in ("a7 g2", "c4 g3", "c7 g4", "b4 g5", "e7 g6", "e4 g7", "b6 f2", "f4 b2"):
        assert not game.is_terminal(state)
        game.play_turn(state, text)
    assert game.is_terminal(state) and game.returns(state) == (-1.0, 1.0)  # x wins: seat 1


def test_pie_rule_off_by_default_for_nex():
    game = make_game("nex", size=5)
    state = game.play_turn(game.initial_state(), "c3 a1")
    assert game.SWAP_SIDES not in game.legal_actions(state)
    with pytest.raises(IllegalActionError, match="pie rule is off"):
        game.parse_turn(state, "swap-sides")
    with pytest.raises(ValueError, match="pie_rule"):
        make_game("neuversi", pie_rule=True)


# --- bad input --------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["", "e3 g7 h2", "e3,g7", "3e", "e", "swap", "f6g5", "e3e4e5 a1", "E33 a1"])
def test_malformed_turn_text(text):
    game = make_game("nex")
    with pytest.raises(NotationError):
        game.parse_turn(game.initial_state(), text)


def test_errors_name_the_problem():
    game = make_game("nex", size=11)
    state = game.play_turn(game.initial_state(), "a11 f6")
    with pytest.raises(NotationError, match="off the 11x11 board"):
        game.parse_turn(state, "l1 a2")
    with pytest.raises(NotationError, match="off the"):
        game.parse_turn(state, "a12 a2")
    with pytest.raises(IllegalActionError, match="neutral goes on an empty cell; a11 holds an opponent"):
        game.parse_turn(state, "b2 a11")
    with pytest.raises(IllegalActionError, match="not a legal swap: a1 is empty"):
        game.parse_turn(state, "a1f6 b2")
    with pytest.raises(IllegalActionError, match="not a whole turn"):
        game.parse_turn(state, "b2")
    game.apply(state, game.parse_action("b2"))  # the drop's stone; now its neutral
    with pytest.raises(IllegalActionError, match="middle of a turn"):
        game.apply(state, game.PASS)
    with pytest.raises(IllegalActionError, match="middle of a turn"):
        game.apply(state, game.SWAP_SIDES)
    with pytest.raises(IllegalActionError, match="b2 was chosen earlier"):
        game.apply(state, game.parse_action("b2"))
    with pytest.raises(IllegalActionError, match="out of range"):
        game.apply(state, 500)
    with pytest.raises(IllegalActionError, match="integer"):
        game.apply(state, "b3")
    with pytest.raises(IllegalActionError, match="integer"):
        game.apply(state, True)


def test_swap_of_a_non_neutral_and_a_bad_give_back():
    game = make_game("nex", size=5)
    state = game.from_diagram("v ? ? . .\n . . . . .\n  . . . . .\n   . . . . .\n    h h . . .", "v")
    with pytest.raises(IllegalActionError, match="second cell must be a neutral stone; d1 is empty"):
        game.parse_turn(state, "b1d1 a1")
    game.apply(state, game.parse_action("b1"))
    with pytest.raises(IllegalActionError, match="second cell must be a neutral stone; a1 holds your stone"):
        game.apply(state, game.parse_action("a1"))
    game.apply(state, game.parse_action("c1"))
    with pytest.raises(IllegalActionError, match="b5 holds an opponent"):
        game.apply(state, game.parse_action("b5"))
    with pytest.raises(IllegalActionError, match="c1 was chosen earlier"):
        game.apply(state, game.parse_action("c1"))


def test_finished_game_refuses_actions():
    game = make_game("nex", size=2)
    state = game.play_turn(game.from_diagram("v v\n h .", "v"), "b2")
    with pytest.raises(GameOverError):
        game.apply(state, 0)
    with pytest.raises(GameOverError):
        game.parse_turn(state, "a1")


@pytest.mark.parametrize(
    "name, kwargs",
    [
        ("reversi", {"size": 7}),
        ("reversi", {"size": 2}),
        ("neuversi", {"size": 5}),
        ("hex", {"size": 1}),
        ("nex", {"size": 27}),
        ("gomoku", {"size": 4}),
        ("neumoku", {"size": "15"}),
        ("nex", {"size": True}),
    ],
)
def test_bad_sizes_name_size(name, kwargs):
    with pytest.raises(ValueError, match="size"):
        make_game(name, **kwargs)


def test_bad_pie_rule_value():
    with pytest.raises(ValueError, match="pie_rule"):
        make_game("nex", pie_rule="yes")


# --- observation, symmetry, keys, text ---------------------------------------------------------------
def test_observation_planes_follow_the_micro_steps():
    game = make_game("nex", size=5)
    state = game.play_turn(game.initial_state(), "c3 a1")
    game.play_turn(state, "b2 e5")
    state = game.play_turn(state, "d4 b1")
    obs = game.observe(state)  # Horizontal to move
    assert obs.shape == (9, 5, 5) and obs[8].sum() == 0
    assert obs[0].sum() == 1 and obs[1].sum() == 2 and obs[2].sum() == 3
    game.apply(state, game.parse_action("a1"))  # a swap starts on the neutral a1
    obs = game.observe(state)
    assert obs[3, 0, 0] == 1 and obs[3].sum() == 1 and obs[5].all() and not obs[4].any() and not obs[6].any()
    game.apply(state, game.parse_action("e5"))
    obs = game.observe(state)
    assert obs[3].sum() == 2 and obs[6].all() and obs[0].sum() == 3


def image_state(game, state, symmetry):
    """The position mapped by ``symmetry`` (Hex transpositions also swap the colours)."""
    n = game.n
    swap = game.rules.transposition_swaps_colours and "transpose" in symmetry.name
    symbols = [None] * (n * n)
    for cell, value in enumerate(state.board):
        value = {1: 2, 2: 1}.get(value, value) if swap else value
        symbols[symmetry.action_perm[cell]] = game.rules.symbols[value]
    mover = 3 - state.colour if swap else state.colour
    return game.from_diagram("\n".join(game.rules.diagram(symbols)), game.rules.symbols[mover])


@pytest.mark.parametrize("name", ALL)
def test_symmetries_map_observations_and_legal_actions_together(name):
    game = make_game(name, size=SMALL[name])
    rng = np.random.default_rng(3)
    symmetries = game.symmetries()
    assert symmetries[0].name == "identity"
    assert len(symmetries) == (4 if "hex" in game.rules.name else 8)
    for _ in range(6):
        state = game.initial_state()
        for _ in range(int(rng.integers(1, 12))):
            if game.is_terminal(state):
                break
            legal = game.legal_actions(state)
            game.apply(state, legal[int(rng.integers(len(legal)))])
        if game.is_terminal(state) or state.phase:
            continue
        state = game.from_diagram(game.render_text(state), game.rules.symbols[state.colour])
        for symmetry in symmetries:
            image = image_state(game, state, symmetry)
            np.testing.assert_array_equal(symmetry.obs(game.observe(state)), game.observe(image))
            np.testing.assert_array_equal(symmetry.policy(game.legal_mask(state)), game.legal_mask(image))


def test_keys_identify_positions():
    game = make_game("nex", size=4)
    a = game.play_turn(game.play_turn(game.initial_state(), "a1 b1"), "c3 d4")
    b = game.play_turn(game.play_turn(game.initial_state(), "a1 b1"), "c3 d4")
    assert a.key() == b.key() and hash(a.key()) == hash(b.key())
    c = game.step(a, game.parse_action("a2"))
    assert c.key() != a.key() and game.step(a, game.parse_action("a2")).key() == c.key()
    d = game.play_turn(game.play_turn(game.initial_state(), "a1 d4"), "c3 b1")
    assert d.key() == a.key()  # the same position by another order
    e = game.play_turn(game.play_turn(game.initial_state(), "a1 b1"), "d4 c3")
    assert e.key() != a.key()


@pytest.mark.parametrize("name", ALL)
def test_records_round_trip(name, tmp_path):
    game = make_game(name, size=SMALL[name])
    rng = np.random.default_rng(11)
    state, actions = game.initial_state(), []
    while not game.is_terminal(state):
        legal = game.legal_actions(state)
        actions.append(legal[int(rng.integers(len(legal)))])
        game.apply(state, actions[-1])
    path = tmp_path / "game.txt"
    path.write_text(write_record(game.info.params, format_game(game, actions)))
    record = read_record(path.read_text())
    assert record.params["size"] == str(SMALL[name])
    *_, replayed = replay(game, record.turns)
    assert replayed.key() == state.key() and game.returns(replayed) == game.returns(state)


@pytest.mark.parametrize("name", ALL)
def test_renderings(name):
    game = make_game(name, size=SMALL[name])
    state = game.initial_state()
    game.apply(state, game.legal_actions(state)[0])
    text = game.render_text(state)
    assert game.from_diagram(text, game.rules.symbols[state.colour]).board == state.board
    picture = game.render_rgb(state)
    assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3


@pytest.mark.parametrize("name", ALL)
def test_the_game_config_keys_are_the_game_parameters(name):
    from envs import game_defaults

    config = game_defaults(name)
    assert config.pop("name") == name
    assert make_game(name).info.params == config
    assert make_game(name, **config).info.params == config
