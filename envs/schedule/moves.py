"""A base game's single move as micro-steps over board cells, for the turn-schedule mutator.

A move picks cells one at a time: a piece, then its destination, then (Amazons)
the arrow. Every micro-step is one action, so the action space stays the size
of the board. :class:`BoardRules` say how a person reads and writes the moves and the
board; the rules themselves are a game's kernels over ``envs.schedule.rows``
(``envs.schedule.game.TurnGame``).

Board values (a flat int8 array over ``rows * cols`` cells):
``EMPTY``, ``PIECE[seat]`` (1 and 2), ``BLOCK`` (an Amazons arrow) and ``OFF_BOARD``
(a cell of the array that the board does not have).

The turn's restriction is one set, ``origins``: the cells of the mover's pieces
at the start of the turn that have stayed in place. A rule that keeps it offers
only those pieces as a move's origin: with moving pieces (Amazons) that is "a
piece moves at most once a turn", with cloning stones (Hexxagon) "every move is
from a stone that was on the board at the start of the turn". ``origins`` is
None when the game is played without the restriction.
"""

from __future__ import annotations

import abc
import re
from typing import Callable, Sequence

import numpy as np

from envs.board_view import WOOD, Layout
from envs.core import NotationError, Symmetry
from envs.stones.board import COLUMNS, DIHEDRAL, board_symmetry, cell_name, check_size, parse_cell, square_diagram
from envs.stones.view import STONE_OF_VALUE, square_stone_layout

EMPTY, BLOCK, OFF_BOARD = 0, 3, -1
PIECE = (1, 2)


class BoardRules(abc.ABC):
    """What a person reads and types of a scheduled game: its board's notation, text and view,
    the words of its errors and results (module doc)."""

    name: str
    seat_names: tuple[str, str]
    rows: int
    cols: int
    #: what each micro-step of a move chooses, the first one included ("piece", "destination", "arrow")
    step_names: tuple[str, ...]
    #: planes the rules add to the observation
    extra_plane_names: tuple[str, ...] = ()
    #: the restriction the rules keep when ``restricted``, in words
    restriction_text: str = ""
    #: whether the board's rows and columns wrap round (``GameInfo.torus``)
    torus: bool = False
    #: whether a PASS action (the one after the cells) may end a turn at any whole move: at the
    #: turn's start it passes the turn; two passed turns in a row end the game
    can_pass: bool = False
    #: whether a seat with no move at the start of its turn passes (PASS its only action, Reversi's
    #: forced pass) while the other seat still has a move; when neither has one the game ends.
    #: Without it the seat to start a turn without a move ends the game.
    passes_when_stuck: bool = False
    #: a game that reaches this many moves ends (None: no limit)
    move_limit: int | None = None

    @property
    def num_cells(self) -> int:
        return self.rows * self.cols

    @abc.abstractmethod
    def why_illegal(self, board: np.ndarray, seat: int, partial: tuple[int, ...], origins, placed, cell: int) -> str:
        """Why the micro-step ``cell`` is not legal after ``partial`` (one sentence naming the
        cell); ``origins`` None without the restriction."""

    def heuristic_returns(self, board: np.ndarray) -> tuple[float, float]:
        """``Game.heuristic_returns`` of a position with this board (the rules' docstring says
        what it measures); NotImplementedError where the rules have none."""
        raise NotImplementedError(f"{self.name} has no heuristic value")

    #: the board a game starts on
    start: np.ndarray

    def max_moves(self) -> int:
        """An upper bound on the moves of a game: ``move_limit`` where there is one, else the
        start's empty cells (every move of a game without a limit fills one: Amazons' arrow,
        Biversi's placement)."""
        return self.move_limit if self.move_limit is not None else int((self.start == EMPTY).sum())

    def goal_text(self, seat: int) -> str:
        """What ``seat`` plays for, in one sentence."""
        return "win the game"

    def result_text(self, board: np.ndarray, winner: int | None) -> str:
        """The end of a finished game in words, the final :meth:`score_text` in brackets."""
        score = self.score_text(board)
        return ("a draw" if winner is None else f"{self.seat_names[winner]} wins") + (f" ({score})" if score else "")

    def score_text(self, board: np.ndarray) -> str:
        """What the game is scored by on ``board``, in words ('' where nothing is counted)."""
        return ""

    def counts(self, board: np.ndarray) -> tuple[int, int]:
        """Each seat's pieces on ``board``."""
        return int((board == PIECE[0]).sum()), int((board == PIECE[1]).sum())

    # --- notation --------------------------------------------------------------------------
    @abc.abstractmethod
    def cell_name(self, cell: int) -> str: ...

    def move_text(self, cells: Sequence[int]) -> str:
        """The notation of one move given as its micro-step cells: by default their names one
        after another (``m5p4``)."""
        return "".join(self.cell_name(c) for c in cells)

    @abc.abstractmethod
    def parse_move(self, text: str) -> list[int]:
        """The micro-step cells of one move's notation; NotationError for bad text."""

    move_separator: str = " "  # between the moves of one turn when written

    def turn_text(self, moves: Sequence[Sequence[int]]) -> str:
        """The notation of a turn's whole moves (each its micro-step cells)."""
        return self.move_separator.join(self.move_text(cells) for cells in moves)

    def side_text(self, board: np.ndarray) -> str:
        """Each seat's pieces on ``board`` as ``start`` lists them, the first seat's before the slash."""
        return " / ".join(" ".join(self.cell_name(c) for c in np.flatnonzero(board == piece)) for piece in PIECE)

    def read_turn(self, text: str) -> list[list[int]]:
        """The moves of a turn's text (``turn_text``'s inverse), each its micro-step cells; the
        words are split at spaces and commas."""
        return [self.parse_move(word) for word in re.split(r"[\s,]+", text.strip()) if word]

    # --- pictures and symmetry -------------------------------------------------------------------
    @abc.abstractmethod
    def diagram(self, board: np.ndarray) -> str:
        """The board as text, like the text's diagrams."""

    @abc.abstractmethod
    def view_layout(self) -> Layout:
        """The board's geometry for vector drawings (``envs.board_view``): a centre for every cell
        of the array on the board, None for the others."""

    def cell_look(self, value: int) -> tuple[str, str, tuple[str, ...]]:
        """How a cell holding board ``value`` is drawn: the stone on it (a key of
        ``envs.board_view.STONE_FILLS``, '' for none), its fill and its tags; by default the
        first seat's pieces black, the second's white, on wood."""
        return STONE_OF_VALUE[value], WOOD, ()

    def view_notes(self, board: np.ndarray) -> tuple[str, ...]:
        """Lines about the position under the board (a score so far)."""
        return ()

    def symmetries(self, num_actions: int) -> list[Symmetry]:
        """Board maps the rules are invariant under, identity first."""
        return [Symmetry("identity", lambda planes: planes, np.arange(num_actions))]


class SquareBoardRules(BoardRules):
    """The rules of a scheduled game on an n x n square (Amazons, Biversi, Send It): cells named
    ``e3`` (``envs.stones.board``), the text's diagram with the column letters on top, and the 8
    maps of the square (the rules are invariant under them; a start need not be)."""

    def __init__(self, size, minimum: int, even: bool = False):
        self.n = self.rows = self.cols = check_size(size, minimum, even)

    def symbols(self) -> str:
        """The text's symbol of each board value: empty, then each seat's piece."""
        return "." + "".join(self.seat_names)

    def cell_name(self, cell: int) -> str:
        return cell_name(cell, self.n)

    def parse_cell(self, text: str) -> int:
        return parse_cell(text, self.n)

    def diagram(self, board) -> str:
        symbols = self.symbols()
        return "\n".join([" ".join(COLUMNS[: self.n]), *square_diagram([symbols[v] for v in board], self.n)])

    def view_layout(self) -> Layout:
        return square_stone_layout(self.n)

    def symmetries(self, num_actions: int) -> list[Symmetry]:
        return [board_symmetry(name, self.n, num_actions) for name in DIHEDRAL]


def read_start(
    text: str,
    num_cells: int,
    parse: Callable[[str], int],
    pieces: str,
    example: str,
    blank: np.ndarray | None = None,
    piece: str | None = None,
) -> np.ndarray:
    """The board of a start written as each side's cells, the first seat's before the slash
    (``example``, e.g. ``"a4 d1 / a7 d10"``); ``pieces`` names them in the errors ("amazons",
    ``piece`` one of them, by default ``pieces`` less its last letter). ``blank``: the empty
    board to fill (a hexagon's holds its off-board cells); by default ``num_cells`` empty cells."""
    sides = text.split("/")
    if len(sides) != 2:
        raise ValueError(f"start must list each side's {pieces}, {example!r}, got {text!r}")
    board = np.zeros(num_cells, np.int8) if blank is None else blank.copy()
    for seat, side in enumerate(sides):
        for word in side.split():
            try:
                cell = parse(word)
            except NotationError as error:
                raise ValueError(f"start: {error}") from None
            if board[cell] != EMPTY:
                raise ValueError(f"start: {word} holds two {pieces}")
            board[cell] = PIECE[seat]
    if not all((board == piece).any() for piece in PIECE):
        raise ValueError(f"start must give each side at least one {piece or pieces[:-1]}, got {text!r}")
    return board
