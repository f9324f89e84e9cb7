"""Hex on an n x n rhombus (docs/games/hex.md): Vertical joins rows 1 and n, Horizontal columns a and the last.

Cells (index = r * n + c; row 1 at the top, each row shifted half a cell right)::

    1  0  1  2
    2   3  4  5        (r, c) touches (r-1, c), (r-1, c+1), (r, c-1),
    3    6  7  8                      (r, c+1), (r+1, c-1), (r+1, c)
        a  b  c

Colour 1 is Vertical (``v``, seat 0 unless the pie rule swapped the colours),
colour 2 Horizontal (``h``). A full Hex board always holds exactly one winning
chain, so plain Hex has no draws; in Nex neutrals belong to no chain.
"""

from __future__ import annotations

from functools import cached_property
from typing import Sequence

import numpy as np

from envs.board_view import HEX_RADIUS, HEX_ROW, INK, STONE_FILLS, Label, Layout, Line
from envs.kernels import GOAL_CHAIN
from envs.neutral.mutator import NeutralGame
from envs.stones.board import COLUMNS, HEX_STEPS, check_size, hex_diagram, neighbour_table, padded
from envs.stones.rules import Rules, StoneGame


class HexRules(Rules):
    """Hex geometry and goal for ``envs.stones.rules`` (no captures; win = a chain joining your edges)."""

    name = "hex"
    symbols = ".vh?"
    seat_names = ("Vertical", "Horizontal")
    pie_turn = 1
    # the rhombus maps onto itself by a half turn; a transposition swaps the two goals
    symmetry_names = ("identity", "rot180", "transpose", "antitranspose")
    transposition_swaps_colours = True
    kernel_goal = GOAL_CHAIN
    goals = (
        "join row 1 and the last row with a chain of your stones",
        "join column a and the last column with a chain of your stones",
    )

    def __init__(self, size: int = 11):
        self.n = self.goal_stones = n = check_size(size, 2)
        self.neighbours = neighbour_table(n, HEX_STEPS)
        self.neighbour_array = padded(self.neighbours, 6)
        r, c = np.divmod(np.arange(n * n), n)
        # per colour and cell, the colour's edges it lies on as bits (1: the first edge, 2: the second)
        self.goal_sides = np.stack([np.zeros(n * n), (r == 0) + 2 * (r == n - 1), (c == 0) + 2 * (c == n - 1)])
        self.goal_sides = self.goal_sides.astype(np.uint8)

    def diagram(self, symbols: Sequence[str]) -> list[str]:
        return hex_diagram(symbols, self.n)

    @cached_property
    def layout(self) -> Layout:
        """The rhombus as vector geometry (``envs.board_view``): row r shifted half a cell right of
        row r-1, the top and bottom sides in the first colour, the left and right in the second."""
        n = self.n

        def centre(r: float, c: float) -> tuple[float, float]:
            return c + 0.5 * r + 0.5, HEX_RADIUS + HEX_ROW * r

        first, second = STONE_FILLS["black"], STONE_FILLS["white"]
        top_left, top_right = centre(-0.6, -0.6), centre(-0.6, n - 0.4)
        bottom_left, bottom_right = centre(n - 0.4, -0.6), centre(n - 0.4, n - 0.4)
        lines = []
        for (x1, y1), (x2, y2) in ((top_left, bottom_left), (top_right, bottom_right)):
            lines += [Line(x1, y1, x2, y2, INK, 0.3), Line(x1, y1, x2, y2, second, 0.2)]  # a rim for the light colour
        for (x1, y1), (x2, y2) in ((top_left, top_right), (bottom_left, bottom_right)):
            lines.append(Line(x1, y1, x2, y2, first, 0.24))
        labels = [Label(*centre(r, -1.05), str(r + 1)) for r in range(n)]
        labels += [Label(centre(-1.1, c)[0] + 0.25, centre(-1.1, c)[1], COLUMNS[c]) for c in range(n)]
        centres = tuple(centre(r, c) for r in range(n) for c in range(n))
        return Layout(1.5 * n - 0.5, 2 * HEX_RADIUS + HEX_ROW * (n - 1), "hex", centres, tuple(lines), tuple(labels))


class Hex(StoneGame):
    """Plain Hex (docs/games/hex.md): one stone on an empty cell per turn.

    ===================  ================================================================
    Board                n x n rhombus, ``size`` 2..26 (default 11); cell ``r * n + c``,
                         row 1 (r = 0) at the top, ``a11`` = bottom-left
    Seats                0 Vertical (``v``, moves first, joins rows 1 and n),
                         1 Horizontal (``h``, joins columns a and the last)
    Actions              ``Discrete(n*n + 2)``: cells, PASS (never legal in Hex),
                         SWAP_SIDES (the pie rule: with ``pie_rule=True`` seat 1 may
                         answer the first turn with ``swap-sides``, taking Vertical and
                         its stone; seat 0 then plays Horizontal and moves next)
    Observation          ``(4, n, n)`` float32 from the mover's view: 0 mover's stones,
                         1 opponent's stones, 2 pie swap available (all ones), 3 the
                         mover holds Vertical (all ones; else zeros). Board coordinates,
                         so plane [r, c] is action r*n + c; the symmetries include the
                         transpositions, which swap the goals and invert plane 3, so
                         augmented data teaches one network both directions.
    Symmetries           identity, rot180, transpose, antitranspose
    End                  the first chain joining a player's edges wins (+1 / -1); no draws
    Text                 ``e3``, ``swap-sides``; ``ansi`` like the seed (rows indented)
    ===================  ================================================================
    """

    def __init__(self, size: int = 11, pie_rule: bool = False):
        super().__init__(HexRules(size), pie_rule)


class Nex(NeutralGame):
    """Nex = Hex + neutral mutator (docs/games/nex.md).

    ===================  ================================================================
    Board                n x n Hex rhombus, ``size`` 2..26 (default 11), row 1 at the top,
                         each row shifted half a cell right (the seed's diagram)
    Seats                0 Vertical (``v``, first; joins rows 1 and n), 1 Horizontal
                         (``h``; joins columns a and the last); neutrals (``?``) join no
                         chain
    Turn                 drop ``e3 g7``, swap ``f6g5 a11``, end-game fill/convert ``e3``;
                         ``pie_rule=True`` (default off): seat 1 may answer the first turn
                         with ``swap-sides`` (it takes Vertical and its stones)
    Actions              ``Discrete(n*n + 2)``: cells, PASS (never legal), SWAP_SIDES;
                         one action per micro-step (``envs.neutral.mutator``)
    Observation          ``(9, n, n)`` float32, the mover's view in board coordinates:
                         0 mover's stones, 1 opponent's, 2 neutrals, 3 cells chosen
                         earlier this turn, 4/5/6 micro-step (drop's neutral / swap's
                         second neutral / stone to neutralise), 7 pie swap available,
                         8 the mover holds Vertical (joins top and bottom). Instead of
                         transposing the board for Horizontal, plane 8 says which edges
                         the mover joins and the symmetries include the transpositions
                         (which invert plane 8), so one network serves both seats while
                         plane [r, c] stays action r*n + c.
    Symmetries           identity, rot180, transpose, antitranspose
    End                  a whole turn that leaves the mover joined wins (+1 / -1); no draws
    ===================  ================================================================
    """

    def __init__(self, size: int = 11, pie_rule: bool = False):
        super().__init__(HexRules(size), "nex", pie_rule)
