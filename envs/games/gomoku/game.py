"""Gomoku on an n x n board (docs/games/gomoku.md): five or more in a row wins.

Cells (index = r * n + c; row 1 at the top)::

    1 |  0  1  2 ...
    2 |  n n+1  ...
         a  b  c

Colour 1 is ``x`` (moves first), colour 2 ``o``. A full board without a line
of five is a draw.
"""

from __future__ import annotations

from envs.kernels import GOAL_LINE
from envs.neutral.mutator import NeutralGame
from envs.stones.board import check_size
from envs.stones.goals import LINE
from envs.stones.rules import Rules, StoneGame


class GomokuRules(Rules):
    """Gomoku's goal for ``envs.stones.rules``: five or more of a colour in a row (no captures)."""

    name = "gomoku"
    pie_turn = 3  # the seed's Neumoku pie: after x, o, x
    goal_stones = LINE
    kernel_goal = GOAL_LINE
    goals = (f"make {LINE} or more of your stones in a row (across, down or diagonally)",) * 2

    def __init__(self, size: int = 15):
        self.n = check_size(size, LINE)


class Gomoku(StoneGame):
    """Plain Gomoku: one stone on an empty cell per turn; five or more in a row wins.

    ===================  ================================================================
    Board                n x n, ``size`` 5..26 (default 15); cell ``r * n + c``, row 1
                         (r = 0) at the top
    Seats                0 ``x`` (moves first), 1 ``o``
    Actions              ``Discrete(n*n + 2)``: cells, PASS (never legal), SWAP_SIDES
                         (``pie_rule=True``: after the first three turns x, o, x seat 1
                         may answer ``swap-sides``, taking the x stones; seat 0 then
                         plays o and moves next)
    Observation          ``(4, n, n)`` float32 from the mover's view: 0 mover's stones,
                         1 opponent's stones, 2 pie swap available, 3 the mover holds x
    Symmetries           the 8 maps of the square
    End                  a turn that makes five or more in a row (orthogonal or diagonal)
                         wins (+1 / -1); a full board without one is a draw (0)
    Text                 ``h8``, ``swap-sides``; ``ansi`` like the seed's diagrams
    ===================  ================================================================
    """

    def __init__(self, size: int = 15, pie_rule: bool = False):
        super().__init__(GomokuRules(size), pie_rule)


class Neumoku(NeutralGame):
    """Neumoku = Gomoku + neutral mutator (docs/games/neumoku.md).

    ===================  ================================================================
    Board                n x n, ``size`` 5..26 (default 15), row 1 at the top
    Seats                0 ``x`` (first), 1 ``o``; neutrals ``?``
    Turn                 drop ``e3 g7``, swap ``f6g5 a11``, end-game fill/convert ``e3``;
                         ``pie_rule=True`` (default on, the seed's rule): after the first
                         three turns (x, o, x) seat 1 may answer ``swap-sides``, taking
                         the x stones; seat 0 then plays o and moves next
    Actions              ``Discrete(n*n + 2)``: cells, PASS (never legal), SWAP_SIDES
    Observation          ``(9, n, n)`` float32 from the mover's view: 0 mover's stones,
                         1 opponent's, 2 neutrals, 3 cells chosen earlier this turn,
                         4/5/6 micro-step (drop's neutral / swap's second neutral / stone
                         to neutralise), 7 pie swap available, 8 the mover holds x
    Symmetries           the 8 maps of the square
    End                  a whole turn that leaves the mover five or more in a row wins
                         (+1 / -1); a full board without one is a draw (0)
    ===================  ================================================================
    """

    def __init__(self, size: int = 15, pie_rule: bool = True):
        super().__init__(GomokuRules(size), "neumoku", pie_rule)
