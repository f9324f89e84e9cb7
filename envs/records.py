"""Game records in the testdata format: ``key: value`` header lines, ``#``
comments, then one turn a line in the game's notation (``game.parse_turn``).

    size: 11
    a11 f6
    d7 b8

Header values are plain YAML scalars (``11``, ``true``, ``0.5``, ``nex``); tags
such as ``!!python/...`` are refused, never constructed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

import yaml

from envs.core import CHANCE, Game, GameError, NotationError

BYTE_ORDER_MARK = "\ufeff"


@dataclass
class Record:
    """Header parameters (strings as written) and turns (text, one per line)."""

    params: dict[str, str] = field(default_factory=dict)
    turns: list[str] = field(default_factory=list)


def read_record(text: str) -> Record:
    """Parse record text; header lines come before the first turn. A leading
    byte-order mark (files saved as "UTF-8 with BOM") is not part of the text."""
    record = Record()
    for number, raw in enumerate(text.removeprefix(BYTE_ORDER_MARK).splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, sep, value = line.partition(":")
        if sep and not record.turns and key.strip().isidentifier():
            record.params[key.strip()] = value.strip()
        elif sep and key.strip().isidentifier() and " " not in key.strip():
            raise NotationError(f"line {number}: header {line!r} after the first turn")
        else:
            record.turns.append(line)
    return record


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


def write_record(params: dict, turns: Iterable[str], comments: Sequence[str] = ()) -> str:
    lines = [f"# {c}" for c in comments]
    lines += [f"{key}: {value}" for key, value in params.items()]
    lines += list(turns)
    return "\n".join(lines) + "\n"


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
