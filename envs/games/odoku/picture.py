"""The picture of an Odoku board (its board view): the five regions coloured, decided groups marked."""

from __future__ import annotations

from typing import Sequence

from envs.board_view import RGB, BoardView, Cell, colour, square_layout

# Odoku: the five regions (cross and four corners) get their own colours.
REGION_COLOURS: tuple[RGB, ...] = (
    (250, 235, 160),  # cross
    (190, 225, 190),  # NE
    (190, 210, 240),  # SE
    (240, 200, 200),  # SW
    (220, 200, 235),  # NW
)


def odoku_view(board: Sequence[int], region_of_cell: Sequence[int], status: Sequence[str | None], notes) -> BoardView:
    """The board as vector data (``envs.board_view``), north at the top: regions coloured, a
    decided row's or column's verdict (``+`` balanced, ``-`` unbalanced) beside its name, a
    decided region's on each of its empty cells; a click on a cell offers a blue and a white piece."""
    size = 5
    sign = {None: "", "balanced": "+", "unbalanced": "-"}
    rows = list(reversed(range(size)))  # row 5 first
    layout = square_layout(
        [f"{r + 1}{sign[status[r]]}" for r in rows], [f"{'abcde'[c]}{sign[status[5 + c]]}" for c in range(size)]
    )
    cells = []
    for cell, value in enumerate(board):
        r, c = divmod(cell, size)
        x, y = layout.centres[(size - 1 - r) * size + c]
        region = region_of_cell[cell]
        verdict = sign[status[10 + region]] if value == 0 else ""
        tags = (f"region-{region}",) + ((f"region-{status[10 + region]}",) if status[10 + region] else ())
        owner = ("", "blue", "white")[value]
        cells.append(
            Cell(
                cell,
                "abcde"[c] + str(r + 1),
                x,
                y,
                "square",
                (2 * cell, 2 * cell + 1),
                owner,
                colour(REGION_COLOURS[region]),
                verdict,
                tags,
            )
        )
    return BoardView(layout.width, layout.height, tuple(cells), (), layout.labels, (), tuple(notes))
