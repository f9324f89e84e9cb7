"""Game records: ``#`` comments, ``[key: value]`` header lines, then one turn a line in the
game's notation (``game.parse_turn``). docs/rules.md ("Records") describes the format.

    # seat 0: random
    [game: nex]
    [size: 11]
    a11 f6
    d7 b8

The brackets keep a header from being read as a turn: no game's turn starts with ``[``
(:func:`write_record` refuses one), whereas a turn may well look like ``key: value``
(Hop Chess's capture ``Bc1:h6 b1``). Header values are plain YAML scalars (``11``, ``true``,
``0.5``, ``nex``, ``""``; a ``#`` in a quoted one written ``\\x23``, as ``#`` starts a comment
anywhere); tags such as ``!!python/...`` are refused, never constructed.

Records written before the brackets have ``key: value`` header lines (``size: 11``, a space
or the end of the line after the colon); they still read as headers where they stand before
the first turn and before any bracketed header. After the first turn a bracketed header is
an error, and every other line a turn.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

import numpy as np
import yaml

from envs.core import CHANCE, Game, GameError, NotationError, make_game

BYTE_ORDER_MARK = "\ufeff"
COMMENT = "#"


@dataclass
class Record:
    """Header parameters (strings as written) and turns (text, one per line)."""

    params: dict[str, str] = field(default_factory=dict)
    turns: list[str] = field(default_factory=list)


def read_record(text: str) -> Record:
    """Parse record text: headers (``[key: value]``, or an older record's ``key: value``)
    before the first turn, then turns; ``#`` starts a comment. A NotationError names the line of
    a malformed or repeated header, or one after the first turn. A leading byte-order mark
    (files saved as "UTF-8 with BOM") is not part of the text."""
    record, bracketed = Record(), False
    for number, raw in enumerate(text.removeprefix(BYTE_ORDER_MARK).splitlines(), start=1):
        line = raw.split(COMMENT, 1)[0].strip()
        if not line:
            continue
        if line.startswith("["):
            if record.turns:
                raise NotationError(f"line {number}: header {line!r} after the first turn")
            key, value = _bracketed_header(number, line)
            bracketed = True
        elif not record.turns and not bracketed and _is_old_header(line):
            key, _, value = line.partition(":")
        else:
            record.turns.append(line)
            continue
        key, value = key.strip(), value.strip()
        if key in record.params:
            raise NotationError(f"line {number}: header {key!r} is given twice")
        record.params[key] = value
    return record


def _bracketed_header(number: int, line: str) -> tuple[str, str]:
    key, sep, value = line[1:-1].partition(":")
    if not line.endswith("]") or not sep or not key.strip().isidentifier():
        raise NotationError(f"line {number}: a header is '[key: value]', got {line!r}")
    return key, value


def _is_old_header(line: str) -> bool:
    """``key: value`` as records without brackets wrote it (``size: 11``; not ``Bc1:h6``)."""
    key, sep, value = line.partition(":")
    return bool(sep) and key.strip().isidentifier() and (not value or value[0].isspace())


def parse_header(record: Record) -> dict[str, Any]:
    """The header values as data (``size: 11`` -> 11); a value that is not a plain
    scalar, such as a ``!!python`` tag, is a NotationError naming its key."""
    params = {}
    for key, text in record.params.items():
        try:
            value = yaml.safe_load(text)
        except yaml.YAMLError as error:
            problem = str(error).splitlines()[0]
            raise NotationError(f"record header {key!r}: {text!r} is not a plain value ({problem})") from None
        if value is not None and not isinstance(value, (str, int, float, bool)):
            raise NotationError(f"record header {key!r}: {text!r} is not a plain value")
        params[key] = value
    return params


def record_game(record: Record) -> Game:
    """The game a record's ``game`` header names, built with its other headers as parameters;
    a ValueError names what is missing or wrong."""
    params = parse_header(record)
    if "game" not in params:
        raise ValueError("the record has no 'game' header line ([game: NAME] before the first turn)")
    return make_game(str(params.pop("game")), **params)


def game_record(game: Game, actions: Sequence[int], lineup: Sequence[str]) -> str:
    """A replayable record: header ``game`` and its parameters, comments naming the
    players and the result, then one turn a line in the game's notation."""
    state = game.initial_state()
    for action in actions:
        game.apply(state, action)
    comments = [f"seat {seat}: {spec}" for seat, spec in enumerate(lineup)]
    if game.is_terminal(state):
        winner = game.winner(state)
        outcome = "draw" if winner is None else f"seat {winner} wins"
        facts = "".join(f", {key} {value}" for key, value in game.outcome_info(state).items())
        comments.append(f"result: {outcome}, returns {' '.join(f'{r:g}' for r in game.returns(state))}{facts}")
    else:
        comments.append("unfinished: the game was abandoned here")
    header = {"game": game.info.name, **game.info.params}
    return write_record(header, format_game(game, actions), comments)


def replay_record(text: str) -> tuple[Game, Any]:
    """The game a record's header names and the position after its turns."""
    record = read_record(text)
    game = record_game(record)
    state = game.initial_state()
    for state in replay(game, record.turns, state):
        pass
    return game, state


def write_record(params: dict, turns: Iterable[str], comments: Sequence[str] = ()) -> str:
    """Record text that :func:`read_record` reads back to ``params`` (through
    :func:`parse_header`) and ``turns``; a ValueError for a key, value or turn it could not."""
    lines = [f"{COMMENT} {line}".rstrip() for comment in comments for line in str(comment).splitlines() or [""]]
    for key, value in params.items():
        if not isinstance(key, str) or not key.isidentifier():
            raise ValueError(f"record header key {key!r}: a header key is a name such as 'size'")
        lines.append(f"[{key}: {header_text(key, value)}]")
    for number, turn in enumerate(turns, start=1):
        if len(turn.splitlines()) != 1 or not turn.strip() or turn.strip().startswith("[") or COMMENT in turn:
            raise ValueError(
                f"turn {number} {turn!r} cannot be written: a turn is one line of text, "
                f"neither starting with '[' nor holding a '{COMMENT}'"
            )
        lines.append(turn.strip())
    return "\n".join(lines) + "\n"


def header_text(key: str, value) -> str:
    """``value`` as a YAML scalar that reads back as the same value and kind (``11``, ``true``,
    ``"134"`` for the string, ``""``); a ValueError for one that has none."""
    candidates = ["null"] if value is None else [str(value).lower() if _kind(value) == "bool" else str(value)]
    if isinstance(value, str):
        quoted = yaml.safe_dump(value, default_style='"', width=math.inf, allow_unicode=True).rstrip("\n")
        candidates.append(quoted.replace(COMMENT, "\\x23"))  # the reader takes a '#' for a comment
    if _kind(value) == "float" and "e" in str(float(value)) and "." not in str(float(value)):
        candidates.append(str(float(value)).replace("e", ".0e"))  # PyYAML reads 1e-05 as a string
    for text in candidates:
        try:
            loaded = yaml.safe_load(text)
        except yaml.YAMLError:
            continue
        one_line = "\n" not in text and COMMENT not in text
        if one_line and _kind(loaded) == _kind(value) != "other" and loaded == value:
            return text
    raise ValueError(f"record header {key!r}: {value!r} cannot be written as a plain value")


def _kind(value) -> str:
    if value is None or isinstance(value, str):
        return type(value).__name__
    if isinstance(value, (bool, np.bool_)):
        return "bool"
    if isinstance(value, numbers.Integral):
        return "int"
    return "float" if isinstance(value, numbers.Real) else "other"


def replay(game: Game, turns: Iterable[str], state=None):
    """Apply every turn to ``state`` (default: the start); yield the state after each.

    Errors name the turn number and its text.
    """
    state = game.initial_state() if state is None else state
    for number, text in enumerate(turns, start=1):
        try:
            game.play_turn(state, text)
        except GameError as error:
            raise type(error)(f"turn {number} {text!r}: {error}") from None
        yield state


def split_turns(game: Game, actions: Sequence[int], state=None) -> list[list[int]]:
    """Group a game's action sequence into record turns.

    A turn ends after a decision action when the next state is a chance node,
    the end, or another seat's decision (so Odoku's coin outcome opens a turn
    and a neutral game's micro-steps stay together).
    """
    state = game.initial_state() if state is None else state.copy()
    turns: list[list[int]] = []
    current: list[int] = []
    for action in actions:
        mover = game.to_play(state)
        game.apply(state, action)
        current.append(action)
        if mover != CHANCE and game.to_play(state) != mover:
            turns.append(current)
            current = []
    if current:
        turns.append(current)
    return turns


def format_game(game: Game, actions: Sequence[int], state=None) -> list[str]:
    """Record lines (one per turn) for a game given as its action sequence."""
    state = game.initial_state() if state is None else state.copy()
    lines = []
    for turn in split_turns(game, actions, state):
        lines.append(game.format_turn(state, turn))
        for action in turn:
            game.apply(state, action)
    return lines
