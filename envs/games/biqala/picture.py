"""The picture of a Biqala board (its board view): the two rings in each owner's colour, stone
counts on the cells."""

from __future__ import annotations

from envs.board_view import RGB, BoardView, Cell, Label, colour, square_layout

# owner x ring: A's outer, A's inner, B's outer, B's inner; the transfer's source is marked
BIQALA_COLOURS: tuple[tuple[RGB, RGB], ...] = (((235, 205, 150), (210, 170, 110)), ((170, 200, 225), (120, 160, 200)))
SOURCE_COLOUR: RGB = (240, 240, 120)


def biqala_view(state) -> BoardView:
    """The board as vector data (``envs.board_view``), A's outer board at the top: every cell
    its owner's colour (the inner ring darker, a transfer's source marked and tagged
    ``chosen``), its stones counted on a neutral pile, its letter in its corner. A click on one of the mover's cells
    offers its sow and the start of a transfer from it; while a transfer is under way, a stone
    put on it; the end of the transfer is a button."""
    from envs.games.biqala.game import SEAT_NAMES
    from envs.games.biqala.kernels import COLS, END, INNER_RING, LETTERS, OWNER, PUT, RING_OF, ROWS, SOW, TRANSFER

    layout = square_layout(["A", "A", "B", "B"], [""] * COLS)
    cells = []
    for cell in range(ROWS * COLS):
        x, y = layout.centres[cell]
        chosen = cell == state.source
        ground = SOURCE_COLOUR if chosen else BIQALA_COLOURS[OWNER[cell]][int(RING_OF[cell] is INNER_RING)]
        stones = state.board[cell]
        actions = (PUT + cell,) if state.source >= 0 else (SOW + cell, TRANSFER + cell)
        cells.append(
            Cell(
                cell,
                LETTERS[cell],
                x,
                y,
                "square",
                actions,
                "neutral" if stones else "",
                colour(ground),
                str(stones) if stones else "",
                ("chosen",) if chosen else (),
            )
        )
    labels = tuple(label for label in layout.labels if label.text)  # the rows' owners
    labels += tuple(Label(cell.x - 0.37, cell.y - 0.35, cell.name) for cell in cells)  # each cell's letter
    a, b = state.stores
    notes = [f"captured: {SEAT_NAMES[0]} {a}, {SEAT_NAMES[1]} {b}"]
    if state.source >= 0:
        notes.insert(0, f"{SEAT_NAMES[state.player]} transfers from {LETTERS[state.source]}: put a stone, or end it")
    elif state.player >= 0:
        notes.insert(0, f"{SEAT_NAMES[state.player]} to move: sow a cell or begin a transfer from it")
    return BoardView(layout.width, layout.height, tuple(cells), (), labels, (END,), tuple(notes))
