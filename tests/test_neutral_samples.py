"""The published sample games (tests/data/, docs/rules.md section 4) replayed to their stated positions."""

from pathlib import Path

import pytest

from envs import make_game
from envs.turns import complete_turns
from envs.records import format_game, read_record, replay
from envs.stones import NEUTRAL

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
        game.format_turn(as_x, turn).split()[0]
        for turn in complete_turns(game, as_x)
        if as_x.board[turn[0]] == NEUTRAL
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
