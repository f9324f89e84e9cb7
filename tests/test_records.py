"""Record text: headers (bracketed, and the older ``key: value``) that no turn is taken for,
comments, byte-order marks, header values that are not data, and what the writer refuses."""

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from envs import IllegalActionError, NotationError, make_game
from envs.records import format_game, parse_header, read_record, replay_record, write_record

NEX = "game: nex\nsize: 3\npie_rule: false\n# a comment\na1 b2\nc3 a2\n"


def test_header_values_are_typed():
    record = read_record(NEX)
    assert parse_header(record) == {"game": "nex", "size": 3, "pie_rule": False}
    assert record.turns == ["a1 b2", "c3 a2"]


def test_a_byte_order_mark_is_read_as_the_start_of_the_text(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text(NEX, encoding="utf-8-sig")  # what Notepad writes
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    text = path.read_text(encoding="utf-8")
    assert read_record(text).params == read_record(NEX).params
    game, state = replay_record(text)
    expected_game, expected = replay_record(NEX)
    assert game.info == expected_game.info and game.render_text(state) == expected_game.render_text(expected)


@pytest.mark.parametrize(
    "value",
    [
        "!!python/object/apply:os.system ['touch {flag}']",
        "!!python/name:os.system",
        "!!binary aGVsbG8=",
        "[unclosed",
    ],
)
def test_header_values_that_are_not_plain_data_are_notation_errors(value, tmp_path):
    flag = tmp_path / "ran"
    text = f"game: nex\nsize: {value.format(flag=flag)}\na1 b2\n"
    with pytest.raises(NotationError, match="header 'size'"):
        replay_record(text)
    with pytest.raises(NotationError, match="header 'size'"):
        parse_header(read_record(text))
    assert not flag.exists()


def test_a_record_without_a_game_header_says_so():
    with pytest.raises(ValueError, match="no 'game' header line"):
        replay_record("size: 3\na1 b2\n")


@pytest.mark.parametrize("turn", ["c3 c3", "c3 z9", "c3"])
def test_a_turn_that_fails_to_parse_leaves_the_state_as_it_was(turn):
    game = make_game("nex", size=3)
    state = game.play_turn(game.initial_state(), "a1 b2")
    before = state.copy()
    with pytest.raises((NotationError, IllegalActionError)):
        game.play_turn(state, turn)
    assert game.render_text(state) == game.render_text(before) and game.to_play(state) == game.to_play(before)
    assert game.play_turn(state, "c3 a2") is state and game.render_text(state) != game.render_text(before)


# --- headers that no turn can be mistaken for ---------------------------------------------------
CAPTURE_START = "4k3/8/7p/8/8/8/8/2B1K3 w - - 0 1"  # white's bishop takes on h6 at once


@pytest.mark.parametrize(
    "header",
    [f"[game: hop_chess]\n[fen: {CAPTURE_START}]\n", f"game: hop_chess\nfen: {CAPTURE_START}\n"],
    ids=["bracketed", "older key: value"],
)
def test_a_hop_chess_capture_is_a_turn_not_a_header(header):
    text = header + "Bc1:h6 d2\nKe8-d7 c3\n"
    assert read_record(text).turns == ["Bc1:h6 d2", "Ke8-d7 c3"]
    game, state = replay_record(text)
    symbols = game.symbols(state)  # a1 b1 ... h8
    assert game.info.params["fen"] == CAPTURE_START and symbols[47] == "B" and "p" not in symbols


def test_records_written_before_the_brackets_still_read():
    """The older writer's ``key: value`` header; its Hop Chess records (a capture after the first
    turn) read now, and the samples in tests/data are of this kind."""
    game = make_game("hop_chess", max_turns=20)
    state, actions, rng = game.initial_state(), [], np.random.default_rng(1)
    while not game.is_terminal(state):
        actions.append(int(rng.choice(game.legal_actions(state))))
        game.apply(state, actions[-1])
    turns = format_game(game, actions)
    assert any(":" in turn for turn in turns[1:])
    older = "# seat 0: random\ngame: hop_chess\nmax_turns: 20\n" + "\n".join(turns) + "\n"
    replayed_game, replayed = replay_record(older)
    assert replayed_game.render_text(replayed) == game.render_text(state)
    assert replayed_game.returns(replayed) == game.returns(state)


@pytest.mark.parametrize(
    "text, message",
    [
        ("[game: nex]\na1 b2\n[size: 3]\n", "line 3: header '\\[size: 3\\]' after the first turn"),
        ("[game: nex]\n[size 3]\n", "line 2: a header is '\\[key: value\\]'"),
        ("[game: nex]\n[9x: 3]\n", "line 2: a header is"),
        ("[size: 3]\n[game: nex]\n[size: 4]\n", "line 3: header 'size' is given twice"),
    ],
)
def test_malformed_or_misplaced_headers_name_their_line(text, message):
    with pytest.raises(NotationError, match=message):
        read_record(text)


def test_after_a_bracketed_header_a_key_value_line_is_a_turn():
    record = read_record("[game: nex]  # a comment\n[size: 3]\nsize: 4\n")
    assert record.params == {"game": "nex", "size": "3"} and record.turns == ["size: 4"]


@pytest.mark.parametrize("turn", ["[a1]", "a1 # b2", "a1\nb2", "", "  "])
def test_a_turn_that_would_not_read_back_is_refused(turn):
    with pytest.raises(ValueError, match="cannot be written"):
        write_record({"game": "nex"}, ["a1 b2", turn])


@pytest.mark.parametrize("params", [{"not a name": 1}, {"size": float("inf")}, {"size": [1, 2]}])
def test_a_header_that_would_not_read_back_is_refused(params):
    with pytest.raises(ValueError, match="record header"):
        write_record(params, ["a1"])


PLAIN = st.one_of(st.text(), st.integers(), st.floats(allow_nan=False, allow_infinity=False), st.booleans(), st.none())


@settings(max_examples=300, deadline=None)
@example(values={"moves": "a] # b", "puzzle": "", "schedule": "134", "flag": "true", "bias": 1e-05})
@example(values={"fen": "8/8/8/8/8/8/8/K6k w - - 0 1", "tail": "x]", "head": "[y", "hash": "#"})
@given(values=st.dictionaries(st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True), PLAIN, max_size=4))
def test_header_values_read_back_as_written(values):
    """Strings that look like numbers, booleans, null or YAML syntax, or hold ``#`` or ``]``;
    ints and floats (1e-05, which PyYAML would read as a string unless written 1.0e-05)."""
    text = write_record(values, ["a1 b2"], ["a # comment", "two\nlines"])
    record = read_record(text)
    assert record.turns == ["a1 b2"] and parse_header(record) == values
    for key, value in values.items():
        assert type(parse_header(record)[key]) is type(value)
