"""The picture of a Sudoku Moyo board: boxes in their owner's colour, givens, counters, dead cells."""

from __future__ import annotations

from typing import Sequence

import numpy as np
from PIL import Image, ImageDraw

from envs.board_view import BoardView, Cell, box_lines, colour, square_layout
from envs.render import BOARD_LINE, CELL, MARGIN, RGB, draw_square_board

# Sudoku Moyo: boxes in their owner's colour, placed digits on counters of the
# placer's colour (grey in the neutral centre), givens printed on the board, dead cells marked.
SUDOKU_BOX_COLOURS: tuple[RGB, ...] = ((245, 230, 190), (165, 120, 80), (200, 200, 200))  # light, dark, centre
SUDOKU_COUNTERS = ("white", "black", "neutral")  # counter colour per owner of the box


def draw_sudoku_moyo(
    grid: Sequence[int], given: Sequence[int], owner: Sequence[int], dead: Sequence[bool]
) -> np.ndarray:
    """The 9x9 board, row 9 at the top; cell lists are indexed ``(row - 1) * 9 + column``."""
    size = 9
    rows = list(reversed(range(size)))
    cells = [[r * size + c for c in range(size)] for r in rows]
    backgrounds = [[SUDOKU_BOX_COLOURS[owner[i]] for i in line] for line in cells]
    stones = [[SUDOKU_COUNTERS[owner[i]] if grid[i] and not given[i] else None for i in line] for line in cells]
    marks = [["x" if dead[i] else "" for i in line] for line in cells]
    image = Image.fromarray(
        draw_square_board(backgrounds, stones, [str(r + 1) for r in rows], list("abcdefghi"), marks)
    )
    draw = ImageDraw.Draw(image)
    for y, line in enumerate(cells):
        for x, i in enumerate(line):
            if grid[i]:
                ink = (255, 255, 255) if stones[y][x] == "black" else (0, 0, 0)
                centre = (MARGIN + x * CELL + CELL // 2, MARGIN + y * CELL + CELL // 2)
                draw.text(centre, str(grid[i]), fill=ink, anchor="mm")
    for k in range(0, size + 1, 3):  # box borders
        edge = MARGIN + k * CELL
        draw.line([(edge, MARGIN), (edge, MARGIN + size * CELL)], fill=BOARD_LINE, width=3)
        draw.line([(MARGIN, edge), (MARGIN + size * CELL, edge)], fill=BOARD_LINE, width=3)
    return np.asarray(image)


def sudoku_moyo_view(
    grid: Sequence[int], given: Sequence[int], owner: Sequence[int], dead: Sequence[bool], notes
) -> BoardView:
    """The board as vector data (``envs.board_view``), row 9 at the top: boxes in their owner's
    colour, givens printed on the board, placed digits on counters, dead cells tagged; a click
    on a cell offers the nine digits."""
    size = 9
    layout = square_layout([str(r + 1) for r in reversed(range(size))], list("abcdefghi"), box_lines(size, 3))
    cells = []
    for cell, digit in enumerate(grid):
        r, c = divmod(cell, size)
        x, y = layout.centres[(size - 1 - r) * size + c]
        tags = ("given",) if given[cell] else ("dead",) if dead[cell] else ("placed",) if digit else ()
        counter = SUDOKU_COUNTERS[owner[cell]] if digit and not given[cell] else ""
        text = str(digit) if digit else ("x" if dead[cell] else "")
        fill = colour(SUDOKU_BOX_COLOURS[owner[cell]])
        actions = tuple(range(9 * cell, 9 * cell + 9))
        cells.append(Cell(cell, "abcdefghi"[c] + str(r + 1), x, y, "square", actions, counter, fill, text, tags))
    return BoardView(layout.width, layout.height, tuple(cells), layout.lines, layout.labels, (), tuple(notes))
