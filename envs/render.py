"""Pictures of boards (``render_mode="rgb_array"``), drawn with Pillow.

Square boards share :func:`draw_square_board`: a background colour per cell,
an optional stone per cell, coordinates in the margin. Row 0 of the arrays is
drawn at the top.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from PIL import Image, ImageDraw

RGB = tuple[int, int, int]
CELL = 48
MARGIN = 28
BOARD_LINE: RGB = (60, 60, 60)
STONE_COLOURS: dict[str, RGB] = {
    "black": (25, 25, 25),
    "white": (245, 245, 245),
    "blue": (40, 90, 200),
    "neutral": (150, 150, 150),
}


def draw_square_board(
    backgrounds: Sequence[Sequence[RGB]],
    stones: Sequence[Sequence[str | None]],
    row_labels: Sequence[str],
    column_labels: Sequence[str],
    marks: Sequence[Sequence[str]] | None = None,
) -> np.ndarray:
    """A grid of cells with stones (keys of STONE_COLOURS) and optional text marks."""
    rows, cols = len(backgrounds), len(backgrounds[0])
    image = Image.new("RGB", (2 * MARGIN + cols * CELL, 2 * MARGIN + rows * CELL), (235, 225, 200))
    draw = ImageDraw.Draw(image)
    for r in range(rows):
        for c in range(cols):
            x0, y0 = MARGIN + c * CELL, MARGIN + r * CELL
            draw.rectangle([x0, y0, x0 + CELL, y0 + CELL], fill=backgrounds[r][c], outline=BOARD_LINE)
            stone = stones[r][c]
            if stone is not None:
                pad = CELL // 7
                draw.ellipse(
                    [x0 + pad, y0 + pad, x0 + CELL - pad, y0 + CELL - pad],
                    fill=STONE_COLOURS[stone],
                    outline=BOARD_LINE,
                    width=2,
                )
            if marks is not None and marks[r][c]:
                draw.text((x0 + CELL // 2, y0 + CELL // 2), marks[r][c], fill=(200, 30, 30), anchor="mm")
    for r, label in enumerate(row_labels):
        draw.text((MARGIN // 2, MARGIN + r * CELL + CELL // 2), label, fill=(0, 0, 0), anchor="mm")
    for c, label in enumerate(column_labels):
        x = MARGIN + c * CELL + CELL // 2
        draw.text((x, MARGIN + rows * CELL + MARGIN // 2), label, fill=(0, 0, 0), anchor="mm")
    return np.asarray(image)


# Odoku: the five regions (cross and four corners) get their own colours.
REGION_COLOURS: tuple[RGB, ...] = (
    (250, 235, 160),  # cross
    (190, 225, 190),  # NE
    (190, 210, 240),  # SE
    (240, 200, 200),  # SW
    (220, 200, 235),  # NW
)


def draw_odoku(
    board: Sequence[int], region_of_cell: Sequence[int], status: Sequence[str | None]
) -> np.ndarray:
    """Odoku board (north at the top) with regions coloured and decided groups marked.

    A decided row or column gets ``+`` (balanced) or ``-`` (unbalanced) in its
    margin; a decided region gets the mark in the corner of each of its empty cells.
    """
    size = 5
    sign = {None: "", "balanced": "+", "unbalanced": "-"}
    rows = list(reversed(range(size)))  # draw row 5 first
    backgrounds = [[REGION_COLOURS[region_of_cell[r * size + c]] for c in range(size)] for r in rows]
    stones = [[(None, "blue", "white")[board[r * size + c]] for c in range(size)] for r in rows]
    marks = [
        [sign[status[10 + region_of_cell[r * size + c]]] if board[r * size + c] == 0 else "" for c in range(size)]
        for r in rows
    ]
    row_labels = [f"{r + 1}{sign[status[r]]}" for r in rows]
    column_labels = [f"{'abcde'[c]}{sign[status[5 + c]]}" for c in range(size)]
    return draw_square_board(backgrounds, stones, row_labels, column_labels, marks)


# Stone games (Hex, Gomoku, Reversi and their neutral variants): board values
# 0 empty, 1 first colour, 2 second colour, 3 neutral.
STONE_OF_VALUE = (None, "black", "white", "neutral")
WOOD: RGB = (220, 180, 110)


def draw_stone_square(board: Sequence[int], n: int, marks: Sequence[str]) -> np.ndarray:
    """An n x n board of stones, row 1 at the top (Gomoku, Reversi)."""
    from envs.stones.board import COLUMNS

    rows = range(n)
    return draw_square_board(
        [[WOOD] * n for _ in rows],
        [[STONE_OF_VALUE[board[r * n + c]] for c in range(n)] for r in rows],
        [str(r + 1) for r in rows],
        list(COLUMNS[:n]),
        [[marks[r * n + c] for c in range(n)] for r in rows],
    )


def draw_hex_board(board: Sequence[int], n: int, marks: Sequence[str]) -> np.ndarray:
    """A rhombic Hex board (row r shifted half a cell right of row r-1).

    The top and bottom edges are drawn in the first colour (Vertical joins
    them), the left and right edges in the second colour.
    """
    from envs.stones.board import COLUMNS

    radius = CELL / 2
    width = radius * 3**0.5  # flat-to-flat width of a pointy-top hexagon
    dy = 1.5 * radius

    def centre(r: float, c: float) -> tuple[float, float]:
        return MARGIN + width * (c + 0.5 * r + 0.5), MARGIN + radius + dy * r

    size = (int(2 * MARGIN + width * (1.5 * n)), int(2 * MARGIN + dy * (n - 1) + 2 * radius))
    image = Image.new("RGB", size, (235, 225, 200))
    draw = ImageDraw.Draw(image)
    edge_width = 6
    first, second = STONE_COLOURS["black"], STONE_COLOURS["white"]
    top_left, top_right = centre(-0.6, -0.6), centre(-0.6, n - 0.4)
    bottom_left, bottom_right = centre(n - 0.4, -0.6), centre(n - 0.4, n - 0.4)
    for start, end in ((top_left, bottom_left), (top_right, bottom_right)):
        draw.line([start, end], fill=BOARD_LINE, width=edge_width + 2)  # a rim for the light colour
        draw.line([start, end], fill=second, width=edge_width)
    draw.line([top_left, top_right], fill=first, width=edge_width)
    draw.line([bottom_left, bottom_right], fill=first, width=edge_width)
    for r in range(n):
        for c in range(n):
            _hex_cell(draw, centre(r, c), radius, board[r * n + c], marks[r * n + c])
        x, y = centre(r, -1)
        draw.text((x + radius * 0.3, y), str(r + 1), fill=(0, 0, 0), anchor="mm")
    for c in range(n):
        draw.text((centre(0, c)[0], centre(-1, c)[1] + radius * 0.3), COLUMNS[c], fill=(0, 0, 0), anchor="mm")
    return np.asarray(image)


def _hex_cell(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, value: int, mark: str) -> None:
    """One pointy-top hexagonal cell with its stone (board value) and mark."""
    x, y = centre
    width = radius * 3**0.5
    corners = [(0.5 * width, -0.5 * radius), (0, -radius), (-0.5 * width, -0.5 * radius),
               (-0.5 * width, 0.5 * radius), (0, radius), (0.5 * width, 0.5 * radius)]
    draw.polygon([(x + dx, y + dy) for dx, dy in corners], fill=WOOD, outline=BOARD_LINE)
    stone = STONE_OF_VALUE[value]
    if stone is not None:
        pad = radius * 0.7
        draw.ellipse([x - pad, y - pad, x + pad, y + pad], fill=STONE_COLOURS[stone], outline=BOARD_LINE, width=2)
    if mark:
        draw.text((x, y), mark, fill=(200, 30, 30), anchor="mm")


def draw_y_board(board: Sequence[int], n: int, marks: Sequence[str], bottom_names: Sequence[str]) -> np.ndarray:
    """A triangular Y board of hexagonal cells, row 1 (n cells) at the bottom, row n at the top.

    Cell ``r * n + c`` with r + c <= n-1 (the rest of the array is off the board);
    ``bottom_names`` labels row 1's cells, row numbers go on the left.
    """
    radius = CELL / 2
    width = radius * 3**0.5
    dy = 1.5 * radius

    def centre(r: float, c: float) -> tuple[float, float]:
        return MARGIN + width * (c + 0.5 * r + 0.5), MARGIN + radius + dy * (n - 1 - r)

    size = (int(2 * MARGIN + width * n), int(2 * MARGIN + dy * (n - 1) + 2 * radius))
    image = Image.new("RGB", size, (235, 225, 200))
    draw = ImageDraw.Draw(image)
    for r in range(n):
        for c in range(n - r):
            _hex_cell(draw, centre(r, c), radius, board[r * n + c], marks[r * n + c])
        x, y = centre(r, -0.5)
        draw.text((x - radius * 0.2, y), str(r + 1), fill=(0, 0, 0), anchor="mm")
    for c, name in enumerate(bottom_names):
        x, y = centre(0, c)
        draw.text((x, y + radius + MARGIN // 2 - 2), name, fill=(0, 0, 0), anchor="mm")
    return np.asarray(image)


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
