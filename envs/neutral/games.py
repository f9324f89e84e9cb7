"""The neutral-mutator games: Hex, Gomoku, Reversi and Y rules wrapped by ``envs.neutral.mutator``.

Each class only chooses a base game, its defaults and the mutator's options;
``envs.neutral.mutator`` documents the micro-steps and ``NeutralGame`` the observation.
"""

from __future__ import annotations

from envs.games.gomoku.game import GomokuRules
from envs.games.hex.game import HexRules
from envs.neutral.mutator import NeutralGame
from envs.games.reversi.game import ReversiRules
from envs.games.y.game import YRules


class Nex(NeutralGame):
    """Nex = Hex + neutral mutator (docs/rules.md section 2a).

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


class Neumoku(NeutralGame):
    """Neumoku = Gomoku + neutral mutator (docs/rules.md section 2b).

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


class NeuVersi(NeutralGame):
    """NeuVersi = Reversi + neutral mutator (docs/rules.md section 2c); neutrals dropped on any empty cell.

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


class NeuY(NeutralGame):
    """Neu-Y = Y + neutral mutator (docs/rules.md 2d).

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
