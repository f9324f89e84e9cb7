"""The view of a stone board (``envs.board_view``): one cell per point on the board, the stone
on it, the cells chosen earlier in a neutral game's turn numbered in their order; and the
geometry of a hexagon of hexagonal cells (``envs.stones.hexagon``)."""

from __future__ import annotations

from functools import lru_cache

from envs.board_view import HEX_RADIUS, HEX_ROW, BoardView, Label, Layout, square_layout
from envs.kernels import OFF_BOARD
from envs.stones.board import COLUMNS
from envs.stones.hexagon import LETTERS

# the stone on a cell by board value: 0 empty, 1 the first colour, 2 the second, 3 neutral
STONE_OF_VALUE = ("", "black", "white", "neutral")


def square_stone_layout(n: int) -> Layout:
    """An n x n grid, row 1 at the top, columns a.. (Gomoku, Reversi)."""
    return square_layout([str(r + 1) for r in range(n)], list(COLUMNS[:n]))


@lru_cache(maxsize=None)
def hexagon_layout(side: int) -> Layout:
    """The hexagon of side ``side`` as vector geometry, row 1 at the top: cell ``r * n + q`` at
    its doubled letter column ``2q + r - (side - 1)`` (half a cell width a letter), the letters
    above the board, every row's number left of its first cell."""
    n, k = 2 * side - 1, side - 1
    centres: list[tuple[float, float] | None] = []
    labels = []
    for r in range(n):
        for q in range(n):
            on = k <= r + q <= 3 * k
            centres.append((0.5 * (2 * q + r - k + 1), HEX_RADIUS + HEX_ROW * r) if on else None)
        first = abs(r - k)  # the doubled column of the row's first cell
        labels.append(Label(0.5 * (first + 1) - 0.85, HEX_RADIUS + HEX_ROW * r, str(r + 1)))
    labels += [Label(0.5 * (x + 1), -0.45, LETTERS[x]) for x in range(4 * k + 1)]
    return Layout(float(n), 2 * HEX_RADIUS + HEX_ROW * (n - 1), "hex", tuple(centres), (), tuple(labels))


def stone_board_view(game, state) -> BoardView:
    """The view of ``game`` (a ``StoneGame``) at ``state``."""
    rules, layout, board, chosen = game.rules, game.rules.layout, state.board, state.chosen

    def fields(cell: int) -> dict:
        marks = {"text": str(chosen.index(cell) + 1), "tags": ("chosen",)} if cell in chosen else {}
        return {"name": rules.cell_name(cell), "owner": STONE_OF_VALUE[board[cell]]} | marks

    on_board = (cell for cell, centre in enumerate(layout.centres) if centre is not None and board[cell] != OFF_BOARD)
    cells = ((cell, fields(cell)) for cell in on_board)
    buttons = ((game.PASS,) if rules.captures else ()) + ((game.SWAP_SIDES,) if game.pie_turn is not None else ())
    first, second = (STONE_OF_VALUE[1 + (seat ^ state.swapped)] for seat in (0, 1))  # each seat's colour
    colours = f"{rules.seat_names[0]} plays {first}, {rules.seat_names[1]} {second}"
    return layout.view(cells, buttons, (game.status(state), colours))
