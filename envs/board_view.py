"""A board as data for vector drawings (the browser board's SVG): cells with their place,
shape and contents, the actions a click on each offers, and the board's lines and labels.

``Game.board_view(state)`` returns a :class:`BoardView`; its coordinates are in cell widths
(a square cell is 1 x 1, a hexagonal one is 1 wide), x to the right and y down. Every game
draws its board with these pieces in its own code; this module names no game.
"""

from __future__ import annotations

from dataclasses import dataclass

from envs.render import RGB, STONE_COLOURS

HEX_RADIUS = 3**-0.5  # centre to corner of a pointy-top hexagon one cell wide
HEX_ROW = 1.5 * HEX_RADIUS  # the distance between the centres of two rows of hexagons


@dataclass(frozen=True)
class Cell:
    """One cell: ``id`` numbers it as the game does (a stone game's placing action),
    ``actions`` are what a click on it may play (the engine judges them: a stone game
    offers the cell itself, Odoku a blue and a white piece, Sudoku Moyo the nine digits),
    ``owner`` is the stone on it (a key of ``envs.render.STONE_COLOURS``, '' for none),
    ``fill`` its background (``#rrggbb``), ``text`` what is printed on it (a digit, a
    verdict), ``tags`` facts for styling and tests (``given``, ``dead``, ``chosen``),
    ``piece`` the figure that stands there in the owner's colour instead of a plain stone
    (one of :data:`PIECES`, '' for none)."""

    id: int
    name: str
    x: float
    y: float
    shape: str  # "square" or "hex"
    actions: tuple[int, ...]
    owner: str = ""
    fill: str = "#dcb46e"
    text: str = ""
    tags: tuple[str, ...] = ()
    piece: str = ""

    def __post_init__(self):
        if self.piece and self.piece not in PIECES:
            raise ValueError(f"Cell {self.name}: piece must be one of {', '.join(PIECES)}, got {self.piece!r}")


# the figures a drawing knows (Cell.piece): the chess pieces, and Hop Chess's hopper
PIECES = ("king", "queen", "rook", "bishop", "knight", "pawn", "hopper")


@dataclass(frozen=True)
class Line:
    """A line on the board (a Hex side in the colour that joins it, a box border)."""

    x1: float
    y1: float
    x2: float
    y2: float
    colour: str
    width: float = 0.08


@dataclass(frozen=True)
class Label:
    """Text beside the board (coordinates, group verdicts)."""

    x: float
    y: float
    text: str


@dataclass(frozen=True)
class BoardView:
    """What a drawing of one position needs: the board's size in cell widths, its cells,
    lines and labels, the actions that belong to no cell (``pass``, ``swap-sides``) and a
    few lines of text about the position (whose step it is, the verdicts so far)."""

    width: float
    height: float
    cells: tuple[Cell, ...]
    lines: tuple[Line, ...] = ()
    labels: tuple[Label, ...] = ()
    buttons: tuple[int, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Layout:
    """A board's fixed geometry: its size, the shape of its cells, the centre of each cell
    on the board (``centres[cell]``, None for a cell off the board), its lines and labels."""

    width: float
    height: float
    shape: str
    centres: tuple[tuple[float, float] | None, ...]
    lines: tuple[Line, ...] = ()
    labels: tuple[Label, ...] = ()


def colour(rgb: RGB) -> str:
    """``(220, 180, 110)`` -> ``"#dcb46e"``."""
    return "#{:02x}{:02x}{:02x}".format(*rgb)


STONE_FILLS = {name: colour(rgb) for name, rgb in STONE_COLOURS.items()}


def square_layout(rows: list[str], columns: list[str], lines: tuple[Line, ...] = ()) -> Layout:
    """A grid of ``len(rows)`` x ``len(columns)`` square cells numbered row by row from the
    top; row names go left of it (top row first), column names under it."""
    centres = tuple((c + 0.5, r + 0.5) for r in range(len(rows)) for c in range(len(columns)))
    labels = [Label(-0.45, r + 0.5, name) for r, name in enumerate(rows)]
    labels += [Label(c + 0.5, len(rows) + 0.45, name) for c, name in enumerate(columns)]
    return Layout(len(columns), len(rows), "square", centres, lines, tuple(labels))


def box_lines(size: int, box: int, colour: str = "#3c3c3c") -> tuple[Line, ...]:
    """Thick lines around every ``box`` x ``box`` block of a ``size`` x ``size`` grid (Sudoku)."""
    return tuple(
        line
        for k in range(0, size + 1, box)
        for line in (Line(k, 0, k, size, colour, 0.1), Line(0, k, size, k, colour, 0.1))
    )
