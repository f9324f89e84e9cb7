"""The picture of a Sudoku Moyo board (its board view): boxes in their owner's colour, givens,
counters, dead cells."""

from __future__ import annotations

from typing import Sequence

from envs.board_view import RGB, BoardView, Cell, box_lines, colour, square_layout

# Sudoku Moyo: boxes in their owner's colour, placed digits on counters of the
# placer's colour (grey in the neutral centre), givens printed on the board, dead cells marked.
SUDOKU_BOX_COLOURS: tuple[RGB, ...] = ((245, 230, 190), (165, 120, 80), (200, 200, 200))  # light, dark, centre
SUDOKU_COUNTERS = ("white", "black", "neutral")  # counter colour per owner of the box


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
