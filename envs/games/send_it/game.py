"""Send It (docs/games/send_it.md): drops in line of sight, Go captures, area scoring.

Cells (index = r * n + c; row 1 at the top, as the column prints its board)::

    row 1 |  0      1    ...  n-1        a drop goes on an empty cell that sees a
    row 2 |  n     n+1   ... 2n-1        friendly stone along its row or column
            a      b           ...       (only empty cells between); a turn drops
                                         up to the schedule's count, no two of
                                         them in one group

Each drop is one micro-step (one cell); PASS ends the turn early, or passes it.
Groups without a liberty are captured as in Go; when both sides pass in a row
the game ends and Chinese area counting (stones plus surrounded empty cells)
decides.
"""

from __future__ import annotations

import re

import numpy as np

from envs.core import NotationError, lead_returns
from envs.games.send_it import kernels as kernel
from envs.schedule.game import TurnGame
from envs.schedule.moves import EMPTY, PIECE, SquareBoardRules, read_start
from envs.stones.board import COLUMNS, cell_name

_WORD = re.compile(r"^([a-z]+)([0-9]{1,2})$")


def corner_start(n: int) -> str:
    """x on (d, d) and its opposite corner point, o on the other two (13x13: ``c3 k11 / k3 c11``)."""
    d = min(2, (n - 1) // 4)
    far = n - 1 - d
    return " / ".join(
        " ".join(cell_name(r * n + c, n) for r, c in side) for side in (((d, d), (far, far)), ((d, far), (far, d)))
    )


class SendItRules(SquareBoardRules):
    """How a person reads and writes Send It (a move: a drop, with Go's captures), and its area."""

    step_names = ("drop",)
    restriction_text = "no two of a turn's new stones in one group"
    can_pass = True
    seat_names = ("x", "o")

    def __init__(self, size: int, start: str, name: str, move_limit: int):
        super().__init__(size, 5)
        self.name = name
        self.neighbours, self.rays, self.bounds = kernel.tables(self.n)
        cells = self.num_cells  # the kernels' scratch room; ``_seen`` all zeros between calls
        self._stack, self._seen = np.empty(cells, np.int64), np.zeros(cells, np.uint8)
        if isinstance(move_limit, bool) or not isinstance(move_limit, (int, np.integer)) or move_limit < 0:
            raise ValueError(f"move_limit must be a positive integer (0: four drops a cell), got {move_limit!r}")
        self.move_limit = int(move_limit) or 4 * self.num_cells
        self.start_text = start or corner_start(self.n)
        self.start = read_start(self.start_text, self.num_cells, self.parse_cell, "stones", "c3 k11 / k3 c11")

    # --- the words of an illegal drop, and area: the kernels' (``envs.games.send_it.kernels``) ----
    def _refusal(self, board: np.ndarray, seat: int, cell: int, placed) -> str | None:
        """Why a drop on ``cell`` is illegal, or None when it is legal (``placed``: the turn's
        drops under the group rule, None without it)."""
        name = self.cell_name(cell)
        if board[cell] != EMPTY:
            return f"{name} is not empty"
        if not kernel.in_sight(board, self.rays, self.bounds, cell, PIECE[seat]):
            return f"{name} sees none of your stones along its row or column (only empty cells between)"
        trial, stack = board.copy(), self._stack
        kernel.drop(trial, self.neighbours, cell, PIECE[seat], stack, self._seen)
        size, free = kernel.group(trial, self.neighbours, cell, stack, self._seen)
        if not free:
            return f"a stone on {name} would leave its own group without a liberty"
        joined = set(stack[:size].tolist()).intersection(placed or ())
        if joined:
            return f"a stone on {name} joins {self.cell_name(min(joined))}, dropped this turn ({self.restriction_text})"
        return None

    def why_illegal(self, board, seat, partial, origins, placed, cell) -> str:
        return self._refusal(board, seat, cell, placed if origins is not None else None) or f"{cell} is legal"

    # --- the end --------------------------------------------------------------------------------------
    def area(self, board: np.ndarray) -> tuple[int, int]:
        """Chinese area: each side's stones plus the empty regions that touch only its stones."""
        first, second = kernel.area(board, self.neighbours, self._stack, self._seen)
        return int(first), int(second)

    def heuristic_returns(self, board) -> tuple[float, float]:
        """Area now: x's Chinese area (``area``: stones plus the empty regions only its stones
        touch) less o's, what the game is scored by when it ends; a lead of the board's side
        (n points) is worth 0.76 (``envs.core.lead_returns``). While the empty regions are
        shared it counts stones, the captures included."""
        first, second = self.area(board)
        return lead_returns(first - second, self.n)

    def goal_text(self, seat: int) -> str:
        return "have more area (stones and surrounded empty cells) when both sides pass"

    def score_text(self, board) -> str:
        return "area {} to {}".format(*self.area(board))

    # --- notation --------------------------------------------------------------------------------------
    def parse_move(self, text: str) -> list[int]:
        return [self.parse_cell(text.lower())]

    def turn_text(self, moves) -> str:
        """Drops one after another in a row share its number, as the column writes them: ``bg3 g11 b7``."""
        words: list[tuple[str, int]] = []
        for (cell,) in moves:
            row, letter = cell // self.n + 1, COLUMNS[cell % self.n]
            if words and words[-1][1] == row:
                words[-1] = (words[-1][0] + letter, row)
            else:
                words.append((letter, row))
        return " ".join(f"{letters}{row}" for letters, row in words)

    def read_turn(self, text: str) -> list[list[int]]:
        moves = []
        for word in re.split(r"[\s,]+", text.strip().lower()):
            match = _WORD.match(word)
            if match is None:
                raise NotationError(f"cannot read Send It drops {word!r}: expected cells such as 'i3' or 'bg3'")
            moves += [[self.parse_cell(letter + match.group(2))] for letter in match.group(1)]
        return moves

    # --- pictures ----------------------------------------------------------------------------------------
    def view_notes(self, board) -> tuple[str, ...]:
        first, second = self.area(board)
        return (f"area so far: {self.seat_names[0]} {first}, {self.seat_names[1]} {second}",)


class SendIt(TurnGame):
    """Send It (``SendIt-v0``): drops in line of sight, Go captures, area scoring, 13444 turns.

    ==============  ==============================================================
    Board           n x n, ``size`` 5..26 (default 13); cell ``r * n + c``, row 1
                    (r = 0) at the top; ``start`` lists each side's stones, "" the
                    column's four (13x13: ``c3 k11 / k3 c11``, docs/games/send_it.md)
    Seats           0 ``x`` (moves first), 1 ``o``
    Actions         ``Discrete(n * n + 1)``: a drop is one micro-step, an empty cell
                    that sees a stone of the mover's along its row or column (only
                    empty cells between; the turn's earlier drops count), whose own
                    group keeps a liberty after its captures; with ``restricted``
                    not in one group with another drop of the turn; PASS (``n * n``)
                    ends the turn, or passes it at its start
    Turns           ``schedule`` (default ``13444``: 1, 3, then up to 4 drops a turn,
                    the column's pie rule)
    Observation     ``(6, n, n)``: 0 mover's stones, 1 rival stones, 2 the piece picked (a drop has
                    one step: zeros), 3 drops left this turn / 4, 4 the mover's
                    stones from the start of the turn, 5 this turn's drops
    Returns         +1 / -1 / 0 by Chinese area (stones plus empty regions touching
                    only one side) when both sides pass a turn in a row, or at
                    ``move_limit`` drops (default 0: four a cell)
    Symmetries      the 8 maps of the square
    Notation        drops ``i3``, one after another in a row ``bg3`` (b3 then g3); a
                    turn its drops separated by spaces, ``bg3 g11 b7``; ``pass``
    ==============  ==============================================================
    """

    def __init__(
        self, size: int = 13, schedule: str = "13444", restricted: bool = True, start: str = "", move_limit: int = 0
    ):
        if not isinstance(start, str):
            raise ValueError(f"start must be text such as 'c3 k11 / k3 c11', got {start!r}")
        rules = SendItRules(size, start, "send_it", move_limit)
        super().__init__(rules, schedule, restricted, rules.start, max_legal=rules.num_cells + 1)  # drops, PASS
        self.info.params.update(size=rules.n, start=rules.start_text, move_limit=rules.move_limit)

    def make_context(self, params: np.ndarray, schedule: np.ndarray) -> kernel.SendItContext:
        return kernel.context(self.rules.n, params, schedule)
