"""Record text: headers, comments, byte-order marks and header values that are not data."""

import pytest

from envs import IllegalActionError, NotationError, make_game
from envs.records import parse_header, read_record, replay_record

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
