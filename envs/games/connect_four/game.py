"""Connect Four (docs/games/connect_four.md): drop discs into columns, four in a row wins.

The rules are ``kernels.py``'s; ``envs.kit.RowGame`` makes them the engine. Here is only what
a person reads or types: the table below, the notation (a column's letter), the text diagram
and the board's view (its one picture).
"""

from __future__ import annotations

import numpy as np

from envs.board_view import BoardView, colour, square_layout
from envs.core import TERMINAL, GameInfo, IllegalActionError, NotationError, Symmetry, turn_text
from envs.games.connect_four import kernels
from envs.kit import RowGame, RowState

SEAT_NAMES = ("x", "o")
SYMBOLS = ".xo"  # a cell: empty, x's disc, o's disc
DISCS = (None, "black", "white")  # the discs' colours in the board view
BOARD_BLUE = (40, 80, 180)
LETTERS = "abcdefghijkl"


class ConnectFour(RowGame):
    """The rules of Connect Four (``ConnectFour-v0``).

    ==============  ==============================================================
    Board           ``columns`` x ``rows`` (default 7 x 6, each 4 to 12); columns
                    ``a``.. from the left, row 1 at the bottom; cell ``r * columns
                    + c`` with r = 0 the top row
    Seats           0 ``x`` (moves first), 1 ``o``
    Actions         ``Discrete(columns * rows)``: the cell where the disc comes to
                    rest, so each column that has room offers its lowest empty cell
    Observation     ``(3, rows, columns)`` float32, top row first, from the mover's
                    view: 0 the mover's discs, 1 the opponent's, 2 the mover is x
    Returns         +1 / -1 for the first four (or more) in a row across, up or
                    diagonally; 0 when the board fills without one
    Symmetries      the identity and the mirror (columns reversed)
    Notation        the column's letter, ``d``; ``ansi`` draws the board with
                    ``x``, ``o`` and ``.``, row 1 at the bottom
    Arguments       ``columns`` (default 7), ``rows`` (default 6)
    ==============  ==============================================================
    """

    def __init__(self, columns: int = 7, rows: int = 6):
        for name, value in (("columns", columns), ("rows", rows)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 4 <= value <= 12:
                raise ValueError(f"{name} must be an integer from 4 to 12, got {value!r}")
        self.columns, self.rows = int(columns), int(rows)
        context = kernels.ConnectFourContext(self.columns, self.rows)
        info = GameInfo(
            name="connect_four",
            seat_names=SEAT_NAMES,
            num_actions=self.columns * self.rows,
            obs_shape=(kernels.NUM_PLANES, self.rows, self.columns),
            max_decisions=self.columns * self.rows,
            params={"columns": self.columns, "rows": self.rows},
        )
        super().__init__(info, context, kernels.start_row(context), max_legal=self.columns)

    def symmetries(self) -> list[Symmetry]:
        cells = np.arange(self.columns * self.rows)
        mirror = cells - cells % self.columns + self.columns - 1 - cells % self.columns
        return [
            Symmetry("identity", lambda planes: planes, cells),
            Symmetry("mirror", lambda planes: planes[..., ::-1], mirror),
        ]

    # --- notation --------------------------------------------------------------------------------
    def action_to_text(self, state: RowState, action: int) -> str:
        return LETTERS[int(action) % self.columns]

    def parse_turn(self, state: RowState, text: str) -> list[int]:
        """One word: the column's letter (``d``)."""
        word = turn_text(text).strip().lower()
        if len(word) != 1 or word not in LETTERS[: self.columns]:
            raise NotationError(
                f"cannot read Connect Four move {text!r}: expected a column letter a..{LETTERS[self.columns - 1]}"
            )
        if self.to_play(state) == TERMINAL:
            raise IllegalActionError(f"{text!r}: the game is over")
        cell = kernels.landing(self.context, state.row, LETTERS.index(word))
        if cell < 0:
            raise IllegalActionError(f"{text!r}: column {word} is full")
        return [int(cell)]

    def action_name(self, action: int) -> str:
        return f"cell {self.cell_name(action)}"

    def illegal_reason(self, state: RowState, action: int) -> str:
        if state.row[action] != kernels.EMPTY:
            return "the cell is taken"
        return f"a disc dropped in column {LETTERS[action % self.columns]} comes to rest lower down"

    def cell_name(self, cell: int) -> str:
        """``d1`` for the bottom cell of column d."""
        return f"{LETTERS[cell % self.columns]}{self.rows - cell // self.columns}"

    # --- text and pictures -----------------------------------------------------------------------
    def render_text(self, state: RowState) -> str:
        cols = self.columns
        lines = [
            " ".join(SYMBOLS[v] for v in state.row[r * cols : (r + 1) * cols]) + f"  {self.rows - r}"
            for r in range(self.rows)
        ]
        lines.append(" ".join(LETTERS[:cols]))
        lines.append(self.status(state))
        return "\n".join(lines)

    def status(self, state: RowState) -> str:
        """Whose move it is, or how the game ended."""
        if self.to_play(state) == TERMINAL:
            return self.result_text(state)
        return f"{SEAT_NAMES[self.to_play(state)]} to move"

    def board_view(self, state: RowState) -> BoardView:
        """Square cells, the discs on them; a click anywhere in a column drops there."""
        layout = square_layout([str(self.rows - r) for r in range(self.rows)], list(LETTERS[: self.columns]))
        drops = [kernels.landing(self.context, state.row, c) for c in range(self.columns)]
        playing = self.to_play(state) != TERMINAL
        fill = colour(BOARD_BLUE)

        def fields(cell: int) -> dict:
            lands = playing and drops[cell % self.columns] == cell  # a click offers the cell a disc lands on
            return {
                "name": self.cell_name(cell),
                "actions": (cell,) if lands else (),
                "owner": DISCS[state.row[cell]] or "",
                "fill": fill,
            }

        return layout.view(((cell, fields(cell)) for cell in range(len(layout.centres))), (), (self.status(state),))
