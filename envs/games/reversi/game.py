"""Reversi on an even n x n board (docs/games/reversi.md): flank and flip; more stones wins.

Cells (index = r * n + c; row 1 at the top). Start, for n = 8::

    4 | . . . x o . . .      x (colour 1, moves first) on d4 e5,
    5 | . . . o x . . .      o on e4 d5: the central 2x2, x on its main diagonal
          a b c d e f g h    (the standard Othello start mirrored)

A placement must flank, in at least one of the 8 directions, a contiguous line
of one or more enemy (or, in the neutral games, neutral) stones ending in a
friendly stone; every such line turns friendly. A side without a legal turn
passes; when neither side has one the game ends and more stones wins.
"""

from __future__ import annotations

from envs.kernels import EMPTY, FIRST, GOAL_COUNT, SECOND
from envs.neutral.mutator import NeutralGame
from envs.stones.board import check_size
from envs.stones.rules import NO_GOAL, Rules, StoneGame


class ReversiRules(Rules):
    """Reversi's placement and count for ``envs.stones.rules`` (captures; no pie rule)."""

    name = "reversi"
    captures = True
    goal_stones = NO_GOAL  # only the final count decides
    kernel_goal = GOAL_COUNT
    goals = ("have more stones than your opponent when neither side can move",) * 2

    def __init__(self, size: int = 8):
        self.n = check_size(size, 4, even=True)

    def initial_board(self) -> list[int]:
        n, h = self.n, self.n // 2
        board = [EMPTY] * (n * n)
        for r, c, colour in ((h - 1, h - 1, FIRST), (h, h, FIRST), (h - 1, h, SECOND), (h, h - 1, SECOND)):
            board[r * n + c] = colour
        return board

    def why_not_placeable(self, board: bytearray, cell: int, colour: int) -> str:
        return f"a stone on {self.cell_name(cell)} captures nothing (a placement must flank a line of enemy stones)"


class Reversi(StoneGame):
    """Plain Reversi (docs/games/reversi.md).

    ===================  ================================================================
    Board                n x n, ``size`` even, 4..26 (default 8); cell ``r * n + c``, row
                         1 (r = 0) at the top; start x on d4 e5, o on e4 d5 (n = 8)
    Seats                0 ``x`` (moves first), 1 ``o``
    Actions              ``Discrete(n*n + 2)``: cells (legal placements), PASS (legal
                         exactly when no placement is), SWAP_SIDES (never legal)
    Observation          ``(4, n, n)`` float32 from the mover's view: 0 mover's stones,
                         1 opponent's stones, 2 pie swap available (always zeros),
                         3 the mover holds x
    Symmetries           the 8 maps of the square (the rules are invariant under all of
                         them; the start position only under some)
    End                  when neither side can place; more stones wins (+1 / -1), equal
                         counts draw (0)
    Text                 ``f5``, ``pass``; ``ansi`` like the seed's diagrams
    ===================  ================================================================
    """

    def __init__(self, size: int = 8):
        super().__init__(ReversiRules(size))


class NeuVersi(NeutralGame):
    """NeuVersi = Reversi + neutral mutator (docs/games/neuversi.md); neutrals dropped on any empty cell.

    ===================  ================================================================
    Board                n x n, ``size`` even 4..26 (default 8), row 1 at the top; start
                         x on d4 e5, o on e4 d5 (the central 2x2 for other sizes)
    Seats                0 ``x`` (first), 1 ``o``; neutrals ``?`` count as enemy stones
                         for captures and for nobody at the end
    Turn                 drop ``e3 g7`` (a capturing stone, then a neutral; ``e3`` alone
                         when no cell for the neutral is left), swap ``f6g5 a11`` (two
                         neutrals, each a capturing placement in turn, then a stone of
                         yours other than those two made neutral), ``pass`` when neither
                         is possible; no end-game fill/convert rules, no pie rule
    Actions              ``Discrete(n*n + 2)``: cells, PASS, SWAP_SIDES (never legal)
    Observation          ``(9, n, n)`` float32 from the mover's view: 0 mover's stones,
                         1 opponent's, 2 neutrals, 3 cells chosen earlier this turn,
                         4/5/6 micro-step (drop's neutral / swap's second neutral / stone
                         to neutralise), 7 pie swap available (always zeros), 8 the mover
                         holds x
    Symmetries           the 8 maps of the square
    End                  when neither side has a turn; more stones wins (+1 / -1), equal
                         counts draw (0)
    ===================  ================================================================
    """

    adjacent = False

    def __init__(self, size: int = 8):
        super().__init__(ReversiRules(size), type(self).__name__.lower(), adjacent_neutrals=self.adjacent)


class AdNeuVersi(NeuVersi):
    """AdNeuVersi = NeuVersi whose drops put the neutral on an empty cell touching a stone.

    "Touching": one of the 8 neighbours holds a stone of either colour or a neutral
    (after the drop's own stone has landed). Everything else as :class:`NeuVersi`.
    """

    adjacent = True
