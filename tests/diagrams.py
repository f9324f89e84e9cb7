"""Boards read from the diagrams that the scheduled games' texts print (``BoardRules.diagram``'s
layout): the sample tests compare a replayed game's board with them."""

import numpy as np

from envs.core import NotationError
from envs.schedule.moves import OFF_BOARD, PIECE
from envs.stones import hexagon


def read_square_board(rules, text: str, aliases: dict[str, str] | None = None) -> np.ndarray:
    """The board of a square game's diagram (``rules``: its ``SquareBoardRules``): every line that
    starts with n cell symbols (``rules.symbols()``) is a row, top to bottom; what stands right of
    them, a row number or the move list, is ignored. ``aliases``: what else the text writes for a
    symbol (Send It's ``X``: an x stone of the last turn)."""
    symbols, n, rows = rules.symbols(), rules.n, []
    for line in text.splitlines():
        tokens = [(aliases or {}).get(t, t) for t in line.split()[:n]]
        if len(tokens) == n and all(len(t) == 1 and t in symbols for t in tokens):
            rows.append([symbols.index(t) for t in tokens])
    if len(rows) != n:
        raise NotationError(f"a {n}x{n} diagram needs {n} rows, found {len(rows)}")
    return np.array(rows, np.int8).reshape(-1)


def read_hexagon_board(rules, text: str) -> np.ndarray:
    """The board of a Hexxagon diagram (``envs.stones.hexagon.read_diagram``)."""
    return hexagon.read_diagram(rules.side, text, {".": 0, "x": PIECE[0], "o": PIECE[1]}, OFF_BOARD)
