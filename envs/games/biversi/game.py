"""Biversi (docs/games/biversi.md): Reversi on a torus from two start patterns, 1222 turns.

Cells (index = r * n + c; row 1 at the top, as the text prints its board; 10x10)::

    row 1 | . . . . . . . . . .      the crossed pattern on b2-c3 (x on b2 c3,
    row 2 | . x o . . . . . . .      o on c2 b3) and, antipodal to it (five rows
    row 3 | . o x . . . . . . .      and five columns on), the parallel one on
    ...                              g7-h8 (x on g7 h7, o on g8 h8)
    row 7 | . . . . . . x x . .
    row 8 | . . . . . . o o . .
            a b c d e f g h i j

A placement flanks lines of rival stones as at Reversi, the lines wrapping round
the edges (``torus``), and flips them. o moves first with one placement, then
every turn holds two (schedule ``12``); while the two sections (the groups of
stones grown from the two patterns) are apart, a turn's placements go one into
each. A seat without a placement passes; when neither has one, more stones wins.
"""

from __future__ import annotations

import re

import numpy as np

from envs.core import NotationError
from envs.games.biversi import kernels
from envs.schedule.game import TurnGame
from envs.schedule.moves import EMPTY, PIECE, SquareBoardRules, read_start
from envs.stones.board import COLUMNS
from envs.stones.flanking import count_winner

MIN_SIZE = 6  # the patterns stay apart from 6 x 6 on
# a cell: column letter, row number (the text writes row 10 as 0), then the text's mark J on the
# placement that joins the two sections
_WORD = re.compile(r"^([a-z])([0-9]{1,2})(J?)$")


def start_board(n: int) -> np.ndarray:
    """The crossed pattern on rows 2-3, columns b-c and the parallel one antipodal to it, both
    as the text's sample has them (docs/games/biversi.md)."""
    board = np.zeros(n * n, np.int8)
    o, x = PIECE
    h = n // 2
    for (r, c), value in {(1, 1): x, (2, 2): x, (1, 2): o, (2, 1): o}.items():
        board[r * n + c] = value
    for (r, c), value in {(1, 1): x, (1, 2): x, (2, 1): o, (2, 2): o}.items():
        board[(r + h) * n + c + h] = value
    return board


class BiversiRules(SquareBoardRules):
    """How a person reads and writes Biversi (a move: one placement, a flanking stone on the
    torus; the rules are ``kernels.py``'s)."""

    name = "biversi"
    seat_names = ("o", "x")
    step_names = ("placement",)
    # the seat plane: with one placement, then two a turn, the first seat wins most games between
    # equal players (mode=stats with mcts:200 against itself: 90% for seat 0), an edge a value head can only learn if it sees the seat
    extra_plane_names = ("sections apart", "the mover is x")
    restriction_text = "while the two sections are apart, a turn's two placements go one into each"
    passes_when_stuck = True
    torus = True

    def __init__(self, size: int, must_flank: bool, start: str):
        super().__init__(size, MIN_SIZE, even=True)
        if not isinstance(must_flank, (bool, np.bool_)):
            raise ValueError(f"must_flank must be true or false, got {must_flank!r}")
        self.must_flank = bool(must_flank)
        if not isinstance(start, str):
            raise ValueError(f"start must be text such as 'c2 b3 / b2 c3', got {start!r}")
        self.start = (
            read_start(start, self.num_cells, self.parse_cell, "stones", "c2 b3 / b2 c3")
            if start
            else start_board(self.n)
        )
        self.start_text = self.side_text(self.start)
        self.neighbours = kernels.torus_neighbours(self.n)

    def apart(self, board: np.ndarray) -> bool:
        """Whether the sections are apart (two or more groups of stones)."""
        return kernels.sections(board, self.neighbours, np.empty(len(board), np.int64)) >= 2

    def why_illegal(self, board, seat, partial, origins, placed, cell) -> str:
        name = self.cell_name(cell)
        if board[cell] != EMPTY:
            return f"{name} is not empty"
        if not kernels.placeable(board, self.neighbours, self.must_flank, PIECE[seat], cell):
            if self.must_flank:
                return (
                    f"a stone on {name} flanks no line of rival stones (a placement must flank one, as at "
                    "Reversi; lines wrap round the edges)"
                )
            return f"{name} touches no stone (a placement goes next to a stone)"
        return f"{name} is not in the section this turn has still to play in ({self.restriction_text})"

    # --- the end --------------------------------------------------------------------------------
    def goal_text(self, seat: int) -> str:
        return "have more stones when neither side can place: flank lines of rival stones, round the edges too"

    def score_text(self, board) -> str:
        return "{} stones to {}".format(*self.counts(board))

    # --- notation -------------------------------------------------------------------------------
    def parse_cell(self, text: str) -> int:
        return self.parse_move(text)[0]

    def parse_move(self, text: str) -> list[int]:
        """``e3``; row 10 may be written ``0`` (``j0`` is ``j10``, the text's way) and a trailing
        ``J`` (the text's mark of the placement that joins the sections) is read and ignored."""
        match = _WORD.match(text)
        if match is None:
            raise NotationError(
                f"cannot read Biversi placement {text!r}: expected a column letter and a row number, e.g. 'e3'"
            )
        column, row = COLUMNS.index(match.group(1)), int(match.group(2))
        if match.group(2) == "0" and self.n >= 10:
            row = 10
        if column >= self.n or not 1 <= row <= self.n:
            raise NotationError(
                f"cell {text!r} is off the {self.n}x{self.n} board (columns a-{COLUMNS[self.n - 1]}, rows 1-{self.n})"
            )
        return [(row - 1) * self.n + column]

    # --- pictures and symmetry ----------------------------------------------------------------------
    def view_notes(self, board) -> tuple[str, ...]:
        first, second = self.counts(board)
        where = "apart: a turn places one stone into each" if self.apart(board) else "joined: placements go anywhere"
        return (f"stones: {self.seat_names[0]} {first}, {self.seat_names[1]} {second}", f"sections {where}")


class Biversi(TurnGame):
    """Biversi (``Biversi-v0``): Reversi on an n x n torus from a crossed and a parallel start
    pattern set antipodally, one placement and then two a turn (docs/games/biversi.md).

    ==============  ==============================================================
    Board           n x n torus, ``size`` even 6..26 (default 10); cell ``r * n + c``,
                    row 1 (r = 0) at the top; x on b2 c3 and o on c2 b3 (crossed),
                    x on g7 h7 and o on g8 h8 (parallel, n/2 rows and columns on);
                    ``start`` lists each side's stones instead, o's first,
                    ``"c2 b3 / b2 c3"``
    Seats           0 ``o`` (moves first), 1 ``x``
    Actions         ``Discrete(n * n + 1)``: a cell (one placement, one micro-step),
                    PASS (``n * n``): the only action of a seat that has no
                    placement at the start of its turn while the other has one
    Placement       an empty cell from which a stone flanks a line of rival stones,
                    the lines wrapping round the edges; every flanked line flips.
                    ``must_flank=False`` (the text's sample): any empty cell next to
                    a stone, flipping what it flanks
    Turns           ``schedule`` (default ``12``: one placement, then two a turn).
                    While the two sections (the 8-connected groups of stones) are
                    apart, a turn's placements go one into each (next to a stone of
                    it; with a ``start`` of more groups, each into a group the turn
                    has not touched); a turn whose quota cannot be filled ends
                    after the placements it has
    Observation     ``(8, n, n)``: 0 mover's stones, 1 rival stones, 2 all ones while
                    the sections are apart, 3 all ones when x (seat 1) is to move,
                    4 the move's cells so far (empty: a placement is one step),
                    5 placements left this turn / 2, 6 the mover's stones, 7 this
                    turn's placements
    Returns         when neither seat can place, more stones wins (+1 / -1), equal
                    counts draw (0)
    Symmetries      the 8 maps of the square
    Notation        ``e3`` (``j0`` is read as ``j10``, a trailing ``J`` ignored), a
                    turn its placements separated by spaces ``d4 g9``, ``pass``
    ==============  ==============================================================
    """

    def __init__(self, size: int = 10, schedule: str = "12", must_flank: bool = True, start: str = ""):
        rules = BiversiRules(size, must_flank, start)
        super().__init__(rules, schedule, False, rules.start, max_legal=rules.num_cells)  # placements, or PASS
        self.info.params.update(size=rules.n, must_flank=rules.must_flank, start=rules.start_text)
        del self.info.params["restricted"]  # placements have no origins to restrict

    def make_context(self, params: np.ndarray, schedule: np.ndarray) -> kernels.BiversiContext:
        return kernels.context(self.rules.n, self.rules.must_flank, params, schedule)

    def row_extra(self, board: np.ndarray) -> list[int]:
        return [kernels.sections(board, self.rules.neighbours, np.empty(len(board), np.int64))]

    def stuck_outcome(self, board: np.ndarray, seat: int) -> int:
        return count_winner(board)  # neither seat can place: more stones wins
