"""Hexxagon, plain and 1344 (docs/games/hexxagon.md): clone or jump on a hexagon of hexagons.

The board is a hexagon of side s (``envs.stones.hexagon``: cells, names, diagrams, maps).

A move is a clone (a stone of the mover's grows into an adjacent empty cell:
one micro-step, the new cell, written ``v4``) or a jump (a stone leaves its cell
for an empty cell two away: two micro-steps, written ``m5p4``); then every enemy
stone next to the cell moved to turns to the mover's colour.
"""

from __future__ import annotations

import numpy as np

from envs.core import NotationError, Symmetry, lead_returns
from envs.games.hexxagon import kernels as kernel
from envs.schedule.game import TurnGame
from envs.schedule.moves import EMPTY, OFF_BOARD, PIECE, BoardRules, read_start
from envs.stones import hexagon
from envs.stones.board import cell_symmetry
from envs.stones.hexagon import CELL, MAX_SIDE, geometry

MIN_SIDE = 3
# The text's 1344 start, reconstructed (docs/games/hexxagon_1344.md): its diagram less the printed
# first two turns; a half turn of the board maps x's stones onto o's.
TEXT_START = "i1 q1 u5 i9 G9 e13 u13 C13 i17 / y1 e5 C5 m5 a9 y9 m13 q17 y17"


def corner_start(side: int) -> tuple[list[int], list[int]]:
    """The six corners, alternately x's and o's, going round from the top left."""
    n, k = 2 * side - 1, side - 1
    corners = [(0, k), (0, n - 1), (k, n - 1), (n - 1, k), (n - 1, 0), (k, 0)]
    cells = [r * n + q for r, q in corners]
    return cells[0::2], cells[1::2]


class HexxagonRules(BoardRules):
    """How a person reads and writes Hexxagon (a move: a clone or a jump, then the captures)."""

    step_names = ("stone or clone", "jump")
    extra_plane_names = ("cells of the board",)
    restriction_text = "every move is from a stone that was yours at the start of the turn and has not jumped"
    move_separator = ","
    seat_names = ("x", "o")

    def __init__(self, side: int, start: str, name: str, move_limit: int):
        if isinstance(side, bool) or not isinstance(side, (int, np.integer)) or not MIN_SIDE <= side <= MAX_SIDE:
            raise ValueError(
                f"size (the hexagon's side) must be an integer from {MIN_SIDE} to {MAX_SIDE}, got {side!r}"
            )
        self.side, self.name = int(side), name
        self.rows = self.cols = 2 * self.side - 1
        self.on = geometry(self.side)[0]
        self.playable = int(self.on.sum())
        if isinstance(move_limit, bool) or not isinstance(move_limit, (int, np.integer)) or move_limit < 0:
            raise ValueError(f"move_limit must be a positive integer (0: four moves a cell), got {move_limit!r}")
        self.move_limit = int(move_limit) or 4 * self.playable
        self.start = self._read_start(start)
        self.start_text = start or self.side_text(self.start)

    def _read_start(self, text: str) -> np.ndarray:
        blank = np.where(self.on, EMPTY, OFF_BOARD).astype(np.int8)
        if text:
            return read_start(text, self.num_cells, self.parse_cell, "stones", "i1 q1 / y1 e5", blank)
        for seat, cells in enumerate(corner_start(self.side)):
            blank[cells] = PIECE[seat]
        return blank

    def why_illegal(self, board, seat, partial, origins, placed, cell) -> str:
        if board[cell] == OFF_BOARD:
            return f"cell {cell} is not on the board"
        name, value = self.cell_name(cell), board[cell]
        if partial:
            start = self.cell_name(partial[0])
            if value != EMPTY:
                return f"the jump from {start} lands on an empty cell; {name} is not empty"
            return f"the jump from {start} goes to an empty cell two away; {name} is not two away"
        if value == EMPTY:
            return (
                f"{name} is empty but next to none of your stones that may move ({self.restriction_text})"
                if origins is not None
                else f"{name} is empty but next to none of your stones"
            )
        if value != PIECE[seat]:
            return f"{name} holds a rival stone; a move clones to an empty cell or jumps from your stone"
        if origins is not None and cell not in origins:
            return f"the stone on {name} may not move this turn ({self.restriction_text})"
        return f"the stone on {name} has no empty cell two away to jump to"

    def heuristic_returns(self, board) -> tuple[float, float]:
        """Stones now: x's less o's, what the game is scored by when it ends; a lead of the
        hexagon's middle row (2s - 1 stones, 9 on side 5) is worth 0.76
        (``envs.core.lead_returns``). One clone can turn six stones, so the count swings."""
        first, second = self.counts(board)
        return lead_returns(first - second, self.rows)

    def goal_text(self, seat: int) -> str:
        return "have more stones at the end: clone next to a stone or jump two away, turning the rival stones around"

    def score_text(self, board) -> str:
        return "{} stones to {} on the board".format(*self.counts(board))

    # --- notation --------------------------------------------------------------------------------------
    def cell_name(self, cell: int) -> str:
        return hexagon.cell_name(self.side, cell)

    def parse_cell(self, text: str) -> int:
        return hexagon.parse_cell(self.side, text)

    def parse_move(self, text: str) -> list[int]:
        words = CELL.findall(text)
        if not 1 <= len(words) <= 2 or "".join(a + b for a, b in words) != text:
            raise NotationError(f"cannot read Hexxagon move {text!r}: expected a clone 'v4' or a jump 'm5p4'")
        return [self.parse_cell(a + b) for a, b in words]

    # --- pictures and symmetry ----------------------------------------------------------------------------
    def diagram(self, board) -> str:
        return hexagon.diagram(self.side, board, {EMPTY: ".", PIECE[0]: "x", PIECE[1]: "o"})

    def view_layout(self):
        from envs.stones.view import hexagon_layout

        return hexagon_layout(self.side)

    def view_notes(self, board) -> tuple[str, ...]:
        first, second = self.counts(board)
        return (f"stones: {self.seat_names[0]} {first}, {self.seat_names[1]} {second}",)

    def symmetries(self, num_actions: int) -> list[Symmetry]:
        """The 12 maps of the hexagon: 6 turns by 60 degrees, each with and without a reflection."""
        return [cell_symmetry(name, image, num_actions) for name, image, _ in hexagon.hexagon_maps(self.side)]


class Hexxagon(TurnGame):
    """Hexxagon on a hexagon of hexagons (``Hexxagon-v0``); ``Hexxagon1344`` is the text's variant.

    ==============  ==============================================================
    Board           a hexagon of side ``size`` (3..13, default 5: 61 cells) in a
                    (2s-1) x (2s-1) array, cell ``r * (2s-1) + q`` (module doc);
                    ``start`` lists each side's stones, ``"i1 q1 / y1 e5"``, "" the
                    six corners, x and o alternately
    Seats           0 ``x`` (moves first), 1 ``o``
    Actions         ``Discrete((2s-1)^2)``: a clone is one micro-step, the empty cell
                    it grows into (next to a stone of the mover's); a jump two, the
                    stone, then an empty cell two away; then the rival stones next
                    to the cell moved to turn
    Turns           ``schedule`` (default ``1``; ``1344`` in the 1344 variant); with
                    ``restricted`` every move is from a stone that was the mover's at
                    the start of the turn and has not jumped away; a turn whose quota
                    cannot be filled ends after the moves it has
    Observation     ``(8, 2s-1, 2s-1)``: 0 mover's stones, 1 rival stones, 2 the
                    board's cells, 3 the stone picked for a jump, 4 step "jump",
                    5 moves left this turn / the schedule's largest count, 6 the
                    mover's stones that may still move this turn, 7 the cells this
                    turn's moves have put a stone on
    Returns         the seat that cannot move at the start of its turn ends the game;
                    the empty cells go to the other side; more stones wins, equal is
                    a draw; a game reaching ``move_limit`` moves is scored by the
                    stones on the board
    Symmetries      the 12 maps of the hexagon
    Notation        a clone ``v4``, a jump ``m5p4``; a turn its moves separated by
                    commas, ``n6,m5p4,f6`` (spaces are read too)
    ==============  ==============================================================
    """

    NAME = "hexxagon"

    def __init__(
        self, size: int = 5, schedule: str = "1", restricted: bool = True, start: str = "", move_limit: int = 0
    ):
        if not isinstance(start, str):
            raise ValueError(f"start must be text such as 'i1 q1 / y1 e5', got {start!r}")
        rules = HexxagonRules(size, start, self.NAME, move_limit)
        super().__init__(rules, schedule, restricted, rules.start, max_legal=rules.num_cells)  # starts, or landings
        self.info.params.update(size=rules.side, start=rules.start_text, move_limit=rules.move_limit)

    def make_context(self, params: np.ndarray, schedule: np.ndarray) -> kernel.HexxagonContext:
        return kernel.context(self.rules.side, params, schedule)

    def stuck_outcome(self, board: np.ndarray, seat: int) -> int:
        return kernel.stuck_outcome(board, seat)


class Hexxagon1344(Hexxagon):
    """1344 Hexxagon (``Hexxagon1344-v0``): the text's 17-row hexagon (side 9, 217 cells), its
    start, turns of 1, 3, 4, 4, ... moves, every move from a stone on the board at the start of
    the turn. Other sizes start from the six corners (``Hexxagon``'s table)."""

    NAME = "hexxagon_1344"

    def __init__(
        self, size: int = 9, schedule: str = "1344", restricted: bool = True, start: str = "", move_limit: int = 0
    ):
        super().__init__(size, schedule, restricted, start or (TEXT_START if size == 9 else ""), move_limit)
