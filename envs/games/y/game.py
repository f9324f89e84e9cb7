"""The game of Y on a triangle with n cells a side (docs/games/y.md), inside an n x n array.

Row 1 is the bottom row (n cells), row n the top (one cell). Cell (r, c) of the
array (r = 0 is row 1, c = 0..n-1-r) is on the board and has index r * n + c;
the other cells hold ``OFF_BOARD`` and are never played. Names double the
column letters as the seed does: (r, c) is letter number r + 2c, row r + 1::

    5         e5                         4    20
    4       d4  f4                       3   15 16
    3     c3  e3  g3          index      2  10 11 12       (n = 5)
    2   b2  d2  f2  h2                   1  5  6  7  8
    1 a1  c1  e1  g1  i1                 0 0  1  2  3  4

In the array Y's neighbours are Hex's: (r, c) touches (r-1, c), (r-1, c+1),
(r, c-1), (r, c+1), (r+1, c-1), (r+1, c), so the triangle is the corner of a
Hex rhombus with r + c <= n-1. Its sides: bottom (r = 0), left (c = 0) and
right (r + c = n-1). A chain of one colour touching all three sides wins;
a full board holds exactly one such chain. Cell (r, c) is OpenSpiel's ``y``
action r * n + c, the same index.

The six symmetries of the triangle permute the three distances to the sides
(r, c, n-1-r-c); every one keeps the win rule (all sides alike).
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Sequence

import numpy as np

from envs.board_view import HEX_RADIUS, HEX_ROW, Label, Layout
from envs.core import NotationError, Symmetry
from envs.kernels import EMPTY, GOAL_SIDES, OFF_BOARD
from envs.neutral.mutator import NeutralGame
from envs.stones.board import COLUMNS, HEX_STEPS, cell_symmetry, check_size, neighbour_table, padded
from envs.stones.rules import Rules, StoneGame

MAX_SIZE = (len(COLUMNS) + 1) // 2  # the top corner's letter is number 2n - 2
_CELL = re.compile(r"^([a-z])([0-9]{1,2})$")
BOTTOM, LEFT, RIGHT = 1, 2, 4  # bits of ``YRules.goal_sides``

# The six maps of the triangle as permutations of (r, c, s), s = n-1-r-c the distance to the
# right side: the image of a cell has coordinates (coords[i] for i in the map).
TRIANGLE_MAPS = {
    "identity": (0, 1, 2),
    "rot120": (1, 2, 0),
    "rot240": (2, 0, 1),
    "mirror_bottom": (0, 2, 1),  # left and right sides exchange, the bottom stays
    "mirror_left": (2, 1, 0),
    "mirror_right": (1, 0, 2),
}


class YRules(Rules):
    """Y's geometry and goal for ``envs.stones.rules`` (no captures; win = a chain touching all three sides)."""

    name = "y"
    symbols = ".xo?"
    seat_names = ("x", "o")
    pie_turn = 1
    symmetry_names = tuple(TRIANGLE_MAPS)
    kernel_goal = GOAL_SIDES
    goals = (
        "join all three sides of the triangle with one chain of your stones (a corner counts for both its sides)",
    ) * 2

    def __init__(self, size: int = 13):
        n = check_size(size, 2)
        if n > MAX_SIZE:
            raise ValueError(
                f"size must be from 2 to {MAX_SIZE} for Y (its letters run a..{COLUMNS[2 * MAX_SIZE - 2]}), got {n}"
            )
        self.n = self.goal_stones = n  # a chain touching all three sides has n stones at least
        r, c = np.divmod(np.arange(n * n), n)
        on = r + c <= n - 1
        self.on_board = on
        self.off_board = (~on).reshape(n, n).astype(np.float32)
        self.neighbours = neighbour_table(n, HEX_STEPS, on)
        self.neighbour_array = padded(self.neighbours, 6)
        sides = np.where(on, BOTTOM * (r == 0) + LEFT * (c == 0) + RIGHT * (r + c == n - 1), 0)
        self.goal_sides = np.stack([np.zeros_like(sides), sides, sides]).astype(np.uint8)  # both colours alike

    def initial_board(self) -> list[int]:
        return [EMPTY if on else OFF_BOARD for on in self.on_board]

    # --- names, text, pictures, symmetries ------------------------------------------------------
    def cell_name(self, cell: int) -> str:
        r, c = divmod(cell, self.n)
        return f"{COLUMNS[r + 2 * c]}{r + 1}"

    def parse_cell(self, text: str) -> int:
        match = _CELL.match(text)
        if match is None:
            raise NotationError(f"cannot read cell {text!r}: expected a column letter and a row number, e.g. 'e3'")
        letter, r, n = COLUMNS.index(match.group(1)), int(match.group(2)) - 1, self.n
        if not 0 <= r < n:
            raise NotationError(f"cell {text!r} is off the Y board with {n} rows (rows 1-{n})")
        c, odd = divmod(letter - r, 2)
        if odd or not 0 <= c < n - r:
            row = " ".join(self.cell_name(r * n + k) for k in range(n - r))
            raise NotationError(f"cell {text!r} is off the Y board with {n} rows: row {r + 1} holds {row}")
        return r * n + c

    def symmetries(self, num_actions: int, last_plane: int) -> list[Symmetry]:
        n = self.n
        r, c = np.divmod(np.arange(n * n), n)
        coords = np.stack([r, c, n - 1 - r - c])
        result = []
        for name, order in TRIANGLE_MAPS.items():
            image = np.arange(n * n)  # image[new] = old; cells off the board stay put
            new = coords[order[0]] * n + coords[order[1]]
            image[new[self.on_board]] = np.flatnonzero(self.on_board)
            result.append(cell_symmetry(name, image, num_actions))
        return result

    def diagram(self, symbols: Sequence[str]) -> list[str]:
        """The seed's layout: row n at the top, every cell under its letter, letters below."""
        n, width = self.n, len(str(self.n))
        lines = [
            str(r + 1).rjust(width) + " " * (3 + r) + " ".join(symbols[r * n : r * n + n - r])
            for r in reversed(range(n))
        ]
        lines.append(" " * (width + 3) + COLUMNS[: 2 * n - 1])
        return lines

    def read_diagram(self, text: str) -> list[int]:
        """The board of a diagram in ``diagram``'s layout: the lines made of cell symbols
        (after an optional ``#`` and row number) are the rows, 1 to n cells, top to bottom."""
        rows = []
        for line in text.splitlines():
            tokens = line.lstrip("#").split()
            if tokens and tokens[0].isdigit():
                tokens = tokens[1:]
            if tokens and all(len(t) == 1 and t in self.symbols for t in tokens):
                rows.append([self.symbols.index(t) for t in tokens])
        n = self.n
        if [len(row) for row in rows] != list(range(1, n + 1)):
            raise NotationError(
                f"a Y diagram with {n} rows needs rows of 1, 2, ..., {n} cells from the top, "
                f"found rows of {[len(row) for row in rows]}"
            )
        board = self.initial_board()
        for row in rows:
            r = n - len(row)
            board[r * n : r * n + len(row)] = row
        return board

    @cached_property
    def layout(self) -> Layout:
        """The triangle as vector geometry (``envs.board_view``), row 1 at the bottom, its cell
        names under it, the row numbers on the left."""
        n = self.n

        def centre(r: float, c: float) -> tuple[float, float]:
            return c + 0.5 * r + 0.5, HEX_RADIUS + HEX_ROW * (n - 1 - r)

        centres = tuple(centre(*divmod(cell, n)) if self.on_board[cell] else None for cell in range(n * n))
        labels = [Label(*centre(r, -0.85), str(r + 1)) for r in range(n)]
        labels += [Label(centre(0, c)[0], centre(0, c)[1] + 0.95, self.cell_name(c)) for c in range(n)]
        return Layout(n, 2 * HEX_RADIUS + HEX_ROW * (n - 1) + 0.6, "hex", centres, (), tuple(labels))


class Y(StoneGame):
    """Plain Y (docs/games/y.md): one stone on an empty cell per turn.

    ===================  ================================================================
    Board                triangle with ``size`` cells a side, 2..13 (default 13), inside an
                         n x n array: cell ``r * n + c`` for r + c <= n-1, row 1 (r = 0)
                         at the bottom; names double the letters (``a1 c1 e1 .. b2 ..``)
    Seats                0 ``x`` (moves first), 1 ``o``
    Actions              ``Discrete(n*n + 2)``: cells (those off the triangle never legal),
                         PASS (never legal), SWAP_SIDES (the pie rule: with
                         ``pie_rule=True`` seat 1 may answer the first turn with
                         ``swap-sides``, taking x and its stone)
    Observation          ``(5, n, n)`` float32 from the mover's view: 0 mover's stones,
                         1 opponent's, 2 cells off the board (ones), 3 pie swap available,
                         4 the mover holds x
    Symmetries           the six maps of the triangle (rotations exchange the sides)
    End                  the first chain touching all three sides wins (+1 / -1); a full
                         board always holds one, so no draws
    Text                 ``e3``, ``swap-sides``; ``ansi`` like the seed (row n at the top)
    ===================  ================================================================
    """

    def __init__(self, size: int = 13, pie_rule: bool = False):
        super().__init__(YRules(size), pie_rule)


class NeuY(NeutralGame):
    """Neu-Y = Y + neutral mutator (docs/games/neuy.md).

    ===================  ================================================================
    Board                Y triangle with ``size`` cells a side, 2..13 (default 13), inside
                         an n x n array (``envs.games.y.game``): row 1 (n cells) at the bottom, names
                         with doubled letters (``a1 c1 e1 .. b2 d2 ..``)
    Seats                0 ``x`` (first), 1 ``o``; neutrals ``?`` join no chain
    Turn                 drop ``e3 g7``, swap ``f6g5 a1``, end-game fill/convert ``e3``;
                         ``pie_rule=True`` (default off): seat 1 may answer the first turn
                         with ``swap-sides`` (it takes x and its stones)
    Actions              ``Discrete(n*n + 2)``: cells (off the triangle never legal), PASS
                         (never legal), SWAP_SIDES; one action per micro-step
    Observation          ``(10, n, n)`` float32 from the mover's view: 0 mover's stones,
                         1 opponent's, 2 neutrals, 3 cells chosen earlier this turn,
                         4/5/6 micro-step (drop's neutral / swap's second neutral / stone
                         to neutralise), 7 cells off the board, 8 pie swap available,
                         9 the mover holds x
    Symmetries           the six maps of the triangle
    End                  a whole turn that leaves the mover a chain touching all three sides
                         wins (+1 / -1); the board fills by Taylor's rules and a full board
                         holds one winner, so no draws
    ===================  ================================================================
    """

    def __init__(self, size: int = 13, pie_rule: bool = False):
        super().__init__(YRules(size), "neuy", pie_rule)
