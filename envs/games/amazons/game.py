"""The Game of the Amazons, plain and with the 13(4) progressive mutator (docs/games/amazons.md).

Cells (index = r * n + c; row 1 at the top, as the text's diagram prints it)::

    row 1 |  0      1    ...  n-1         a move: a queen's move of one of the
    row 2 |  n     n+1   ... 2n-1         mover's amazons, then an arrow shot
            a      b           ...        from where it lands, both over empty
                                          cells; ``a7d7/g4``

One move is three micro-steps (the amazon, its destination, the arrow), each a
cell. The seat that has no move at the start of its turn loses.
"""

from __future__ import annotations

import re
from typing import Sequence

import numpy as np

from envs.board_view import WOOD
from envs.core import NotationError, lead_returns
from envs.games.amazons import kernels as kernel
from envs.schedule.game import TurnGame
from envs.schedule.moves import BLOCK, EMPTY, PIECE, SquareBoardRules, read_start
from envs.stones.board import cell_name

ARROW_FILL = "#5a3c28"  # the cell of an arrow in the board view
_MOVE = re.compile(r"^([a-z][0-9]{1,2})([a-z][0-9]{1,2})/([a-z][0-9]{1,2})$")

# The text's 19x19 start, reconstructed from its record (docs/games/progressive_amazons.md): the pieces
# that never move stand where the final diagram shows them, every other one on the from-square
# of its first move.
TEXT_START = "s4 a16 a8 s12 d1 p19 l1 h19 / a7 d19 l19 h1 a12 p1 s8 s16"


def standard_start(n: int) -> str:
    """The standard 10x10 start scaled to n x n: ``a4 d1 g1 j4 / a7 d10 g10 j7`` for n = 10."""
    k = (n - 1) // 3
    first = [(k, 0), (0, k), (0, n - 1 - k), (k, n - 1)]
    names = [[cell_name(r * n + c, n) for r, c in first], [cell_name((n - 1 - r) * n + c, n) for r, c in first]]
    return " / ".join(" ".join(side) for side in names)


class AmazonsRules(SquareBoardRules):
    """How a person reads and writes Amazons (a move: a queen move and an arrow)."""

    step_names = ("amazon", "destination", "arrow")
    extra_plane_names = ("arrows",)
    restriction_text = "an amazon moves at most once a turn"

    def __init__(self, size: int, start: str, seat_names: tuple[str, str], name: str):
        super().__init__(size, 4)
        self.name, self.seat_names = name, seat_names
        self.start_text = start or standard_start(self.n)
        self.start = read_start(self.start_text, self.num_cells, self.parse_cell, "amazons", "a4 d1 / a7 d10")

    def why_illegal(self, board, seat, partial, origins, placed, cell) -> str:
        name, value = self.cell_name(cell), board[cell]
        if not partial:
            if value != PIECE[seat]:
                what = "is empty" if value == EMPTY else "holds an arrow" if value == BLOCK else "holds a rival amazon"
                return f"{name} {what}; a move starts with one of your amazons"
            if origins is not None and cell not in origins:
                return f"the amazon on {name} has moved this turn ({self.restriction_text})"
            return f"the amazon on {name} is shut in: no empty cell next to it"
        start, step = self.cell_name(partial[-1]), self.step_names[len(partial)]
        if value != EMPTY:
            return f"the {step} must go to an empty cell; {name} is not empty"
        return f"the {step} goes a queen's move from {start} over empty cells; {name} is not one"

    def heuristic_returns(self, board) -> tuple[float, float]:
        """Territory now: the empty cells the first seat's amazons reach in fewer queen moves
        (over empty cells, ``queen_distances``) than the second's, less those the second's
        reach first. The game ends when a side cannot move, so the cells each side reaches first
        are, near the end, the moves it has left, and before that the room it controls; a lead
        of the board's side (n cells) is worth 0.76 (``envs.core.lead_returns``)."""
        first, second = self.queen_distances(board, PIECE[0]), self.queen_distances(board, PIECE[1])
        return lead_returns(int((first < second).sum()) - int((second < first).sum()), self.n)

    def queen_distances(self, board: np.ndarray, piece: int) -> np.ndarray:
        """For every cell, the fewest queen moves over empty cells that bring an amazon ``piece``
        onto it (``kernel.UNREACHED`` where none can; the amazons' own cells 0), in the kernel."""
        distances = np.empty(self.num_cells, np.int64)
        kernel.queen_distances(board, *kernel.tables(self.n), piece, distances)
        return distances

    def goal_text(self, seat: int) -> str:
        return "be the last to move: every move is an amazon's queen move and an arrow shot from where it lands"

    def result_text(self, board, winner) -> str:
        return f"{self.seat_names[winner]} wins: {self.seat_names[1 - winner]} has no move"

    # --- notation --------------------------------------------------------------------------------------
    def move_text(self, cells: Sequence[int]) -> str:
        names = [self.cell_name(c) for c in cells]
        return "".join(names[:2]) + ("/" + names[2] if len(names) > 2 else "")

    def parse_move(self, text: str) -> list[int]:
        match = _MOVE.match(text.lower())
        if match is None:
            raise NotationError(f"cannot read Amazons move {text!r}: expected from, to and arrow, 'a7d7/g4'")
        return [self.parse_cell(word) for word in match.groups()]

    # --- pictures and symmetry ----------------------------------------------------------------------------
    def symbols(self) -> str:
        return super().symbols() + "#"

    def cell_look(self, value: int):
        """The first seat's amazons white, the second's black, an arrow a neutral stone on a dark
        cell (tagged ``arrow``)."""
        if value == BLOCK:
            return "neutral", ARROW_FILL, ("arrow",)
        return ("", "white", "black")[value], WOOD, ()


class Amazons(TurnGame):
    """The Game of the Amazons (``Amazons-v0``); ``ProgressiveAmazons`` is the text's 13(4) form.

    ==============  ==============================================================
    Board           n x n, ``size`` 4..26 (default 10); cell ``r * n + c``, row 1
                    (r = 0) at the top; ``start`` lists each side's amazons,
                    ``"a4 d1 g1 j4 / a7 d10 g10 j7"``, "" the standard 10x10 start
                    scaled to n (docs/games/amazons.md)
    Seats           0 moves first (``w``; ``y`` in the 13(4) form), 1 second (``b``; ``o``)
    Actions         ``Discrete(n * n)``: a move is three micro-steps, each a cell: an
                    amazon of the mover's (one with an empty neighbour), its
                    destination (a queen's move over empty cells), the arrow (a
                    queen's move from the destination; the vacated cell counts as
                    empty)
    Turns           ``schedule`` (default ``1``): digits, the moves of turn 1, 2, ...,
                    the last for ever (``134``: 1, 3, then 4); with ``restricted`` an
                    amazon moves at most once a turn; a turn whose quota cannot be
                    filled ends after the moves it has
    Observation     ``(9, n, n)``: 0 mover's amazons, 1 rival amazons, 2 arrows,
                    3 the amazon picked (and where it went), 4 step "destination",
                    5 step "arrow", 6 moves left this turn / the schedule's largest
                    count, 7 the mover's amazons that may still move this turn,
                    8 where this turn's amazons have gone
    Returns         +1 / -1: the seat that has no move at the start of its turn loses
                    (no draws)
    Symmetries      the 8 maps of the square
    Notation        a move ``a7d7/g4`` (from, to, arrow); a turn its moves separated
                    by spaces, ``a7d7/g4 d19g16/g7``
    ==============  ==============================================================
    """

    NAME, SEATS = "amazons", ("w", "b")

    def __init__(self, size: int = 10, schedule: str = "1", restricted: bool = True, start: str = ""):
        if not isinstance(start, str):
            raise ValueError(f"start must be text such as 'a4 d1 / a7 d10', got {start!r}")
        rules = AmazonsRules(size, start, self.SEATS, self.NAME)
        super().__init__(rules, schedule, restricted, rules.start, max_legal=rules.num_cells)
        self.info.params.update(size=rules.n, start=rules.start_text)

    def make_context(self, params: np.ndarray, schedule: np.ndarray) -> kernel.AmazonsContext:
        return kernel.context(self.rules.n, params, schedule, self.rules.start)

    def row_extra(self, board: np.ndarray) -> list[int]:
        lists = kernel.amazon_lists(board)
        counts = [int((board == piece).sum()) for piece in PIECE]
        if counts != [int((self.rules.start == piece).sum()) for piece in PIECE]:
            raise ValueError(f"{self.info.name}: the board has {counts} amazons a seat; the game keeps its start's")
        return lists


class ProgressiveAmazons(Amazons):
    """Amazons with the 13(4) progressive mutator (``ProgressiveAmazons-v0``): 19x19, the text's
    start, turns of 1, 3, then 4 moves, an amazon moving at most once a turn. On other sizes the
    start is the standard one scaled (``Amazons``' table)."""

    NAME, SEATS = "progressive_amazons", ("y", "o")

    def __init__(self, size: int = 19, schedule: str = "134", restricted: bool = True, start: str = ""):
        super().__init__(size, schedule, restricted, start or (TEXT_START if size == 19 else ""))
