"""The published sample games (tests/data/, corrected as each game's page in docs/games/ says) replayed to their stated positions."""

from pathlib import Path

import pytest

from envs import NotationError, make_game
from envs.kernels import NEUTRAL
from envs.records import format_game, read_record, replay
from envs.turns import complete_turns

DATA = Path(__file__).parent / "data"


def sample(name):
    text = (DATA / f"{name}_sample.txt").read_text()
    record = read_record(text)
    game = make_game(name, size=int(record.params["size"]))
    states = [state.copy() for state in replay(game, record.turns)]
    return game, record, text, states


def comment_block(text, start, stop=None):
    """The comment lines after the one containing ``start`` (up to ``stop``)."""
    block = text.split(start, 1)[1]
    return block.split(stop, 1)[0] if stop else block


def played(game, state, turn):
    child = state.copy()
    for action in turn:
        game.apply(child, action)
    return child


def test_nex_sample_reaches_the_seed_diagram():
    game, record, text, states = sample("nex")
    assert len(states) == 40
    final = states[-1]
    assert not game.is_terminal(final) and game.to_play(final) == 0  # Vertical resigned, nobody won
    stated = game.from_diagram(comment_block(text, "Final position"), "v")
    assert final.board == stated.board
    # the ansi rendering is the seed's own diagram, line for line
    diagram = (DATA / "nex_final_diagram.txt").read_text()  # the column's "Final Position", as printed
    assert game.render_text(final).splitlines()[:-1] == [line.rstrip() for line in diagram.splitlines()]


def test_nex_sample_turns_print_back_as_recorded():
    game, record, _, _ = sample("nex")
    actions = [a for state_turn in _turn_actions(game, record.turns) for a in state_turn]
    assert format_game(game, actions) == record.turns


def _turn_actions(game, turns):
    state = game.initial_state()
    for text in turns:
        actions = game.parse_turn(state, text)
        yield actions
        for action in actions:
            game.apply(state, action)


def test_neumoku_sample_position_and_o_winning_turns():
    game, record, text, states = sample("neumoku")
    final = states[-1]
    assert game.to_play(final) == 0 and not game.is_terminal(final)
    empty_row = " ".join("." * 15)
    diagram = comment_block(text, "Position now", "# 11..15") + f"\n{empty_row}" * 5
    assert game.from_diagram(diagram, "x").board == final.board
    as_o = game.from_diagram(diagram, "o")
    winning = {
        game.format_turn(as_o, turn)
        for turn in complete_turns(game, as_o)
        if game.winner(played(game, as_o, turn)) == 1
    }
    empties = [game.action_to_text(as_o, c) for c, v in enumerate(as_o.board) if v == 0]
    o_stones = [game.action_to_text(as_o, c) for c, v in enumerate(as_o.board) if v == 2]
    line = {"m3", "l4", "k5", "j6", "i7"}  # the diagonal from p4 to t0 on the seed's board
    drops = {f"j10 {cell}" for cell in empties if cell != "j10"}
    swaps = {f"{pair} {cell}" for pair in ("l4m3", "m3l4") for cell in o_stones if cell not in line}
    assert winning == drops | swaps
    assert len(swaps) == 18


def test_neuversi_sample_first_diagram_and_x_swaps():
    game, record, text, states = sample("neuversi")
    final = states[-1]
    assert game.to_play(final) == 1
    first = comment_block(text, "Position now", "Were x")
    assert game.from_diagram(first, "o").board == final.board
    as_x = game.from_diagram(first, "x")
    swaps = {
        game.format_turn(as_x, turn).split()[0] for turn in complete_turns(game, as_x) if as_x.board[turn[0]] == NEUTRAL
    }
    assert swaps == {"g7h4", "h8h4", "h4g7", "h4h8"}
    # h8 first captures g7 and f6 through e5
    after_h8 = game.step(as_x, game.parse_turn(as_x, "h8h4 e3")[0])
    assert [game.action_to_text(as_x, c) for c, v in enumerate(after_h8.board) if v == 1 and as_x.board[c] != 1] == [
        "f6",
        "g7",
        "h8",
    ]


def test_neuversi_second_diagram_has_no_swap_for_x():
    game, _, text, _ = sample("neuversi")
    second = game.from_diagram(comment_block(text, "second diagram"), "x")
    starts = game.legal_actions(second)
    assert starts and all(second.board[a] == 0 for a in starts)
    with pytest.raises(ValueError, match="not a legal swap"):
        game.parse_turn(second, "h8a8 e5")
    # the seed's 4... h4 a8 put a genuine stone on a neutral: not a drop here
    _, _, _, states = sample("neuversi")
    with pytest.raises(ValueError, match="h4"):
        game.parse_turn(states[-1], "h4 a8")


def test_neuy_sample_replays_into_the_seed_diagram():
    game, record, text, states = sample("neuy")
    assert len(states) == len(record.turns) == 9
    final = states[-1]
    assert game.to_play(final) == 1 and not game.is_terminal(final)
    assert all(not game.is_terminal(state) for state in states)
    diagram = text.split("final position", 1)[1]
    assert game.from_diagram(diagram, "o").board == final.board
    # the rendering is the file's diagram, line for line
    lines = [line[2:] for line in diagram.splitlines()[1:] if line.startswith("# ")]
    assert game.render_text(final).splitlines()[: game.n] == lines
    assert [game.action_to_text(final, c) for c, v in enumerate(final.board) if v == 0] == ["d2"]


def test_neuy_sample_turns_print_back_as_recorded():
    game, record, _, _ = sample("neuy")
    state = game.initial_state()
    for text in record.turns:
        actions = game.parse_turn(state, text)
        assert game.format_turn(state, actions) == text
        for action in actions:
            game.apply(state, action)


def test_neuy_sample_printed_e4_is_off_the_board():
    game, record, _, _ = sample("neuy")
    printed = [record.turns[0], record.turns[1].replace("e3", "e4")]
    with pytest.raises(NotationError, match="turn 2 'e4 h2'.*off the Y board"):
        list(replay(game, printed))


def test_after_the_neuy_sample_o_must_swap_and_x_wins_next():
    game, _, _, states = sample("neuy")
    final = states[-1]
    # one empty cell: no drop, so o's turn starts on a neutral (a swap)
    assert all(final.board[cell] == NEUTRAL for cell in game.legal_actions(final))
    as_x = game.from_diagram(game.render_text(final), "x")
    winning = {game.format_turn(as_x, t) for t in complete_turns(game, as_x) if game.winner(played(game, as_x, t)) == 0}
    # swapping e5 and f4 joins c1-b2-c3-d4 to the two upper sides; of x's other stones only e1
    # is not needed (c1 holds the bottom, b2 c3 d4 the way up)
    assert {t for t in winning if t.split()[0] in ("e5f4", "f4e5")} == {"e5f4 e1", "f4e5 e1"}
    assert len(winning) == 18
    for turn in complete_turns(game, final):  # every o turn leaves x a winning turn: o resigns
        after = played(game, final, turn)
        assert not game.is_terminal(after)
        assert any(game.winner(played(game, after, reply)) == 0 for reply in complete_turns(game, after))
