"""A board as data for vector drawings: cells with their place, shape and contents, the actions
a click on each offers, and the board's lines and labels; and how such a view looks, decided once
(:func:`drawing`), written as SVG here (:func:`board_svg`, the docs' pictures) and painted into an
image by ``envs.render`` (``render_mode="rgb_array"``, TensorBoard's boards).

``Game.board_view(state)`` returns a :class:`BoardView`; its coordinates are in cell widths
(a square cell is 1 x 1, a hexagonal one is 1 wide), x to the right and y down. Every game
draws its board with these pieces in its own code; this module names no game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable
from xml.sax.saxutils import escape, quoteattr

RGB = tuple[int, int, int]
HEX_RADIUS = 3**-0.5  # centre to corner of a pointy-top hexagon one cell wide
HEX_ROW = 1.5 * HEX_RADIUS  # the distance between the centres of two rows of hexagons
WOOD = "#dcb46e"  # a cell's fill unless the game gives one
INK = "#3c3c3c"  # cell borders, stone outlines, box lines
STONE_FILLS = {"black": "#191919", "white": "#f5f5f5", "blue": "#285ac8", "neutral": "#969696"}
STONE_RADIUS = 0.36


@dataclass(frozen=True)
class Cell:
    """One cell: ``id`` numbers it as the game does (a stone game's placing action),
    ``actions`` are what a click on it may play (the engine judges them: a stone game
    offers the cell itself, Odoku a blue and a white piece, Sudoku Moyo the nine digits),
    ``owner`` is the stone on it (a key of :data:`STONE_FILLS`, '' for none),
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
    fill: str = WOOD
    text: str = ""
    tags: tuple[str, ...] = ()
    piece: str = ""

    def __post_init__(self):
        if self.piece and self.piece not in PIECES:
            raise ValueError(f"Cell {self.name}: piece must be one of {', '.join(PIECES)}, got {self.piece!r}")


# the figures a drawing knows (Cell.piece): the chess pieces, and Hop Chess's hopper
PIECES = ("king", "queen", "rook", "bishop", "knight", "pawn", "hopper")
# the chess figures' solid glyphs, filled with the owner's colour (agents/web/static/board_draw.js
# draws the same); U+FE0E asks for the text glyph where a system would draw the pawn as an emoji
FIGURES = {
    "king": "\u265a",
    "queen": "\u265b",
    "rook": "\u265c",
    "bishop": "\u265d",
    "knight": "\u265e",
    "pawn": "\u265f\ufe0e",
}


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

    def view(self, cells: Iterable[tuple[int, dict]], buttons=(), notes=()) -> "BoardView":
        """A view of a position on this board: for each ``(cell, fields)`` a :class:`Cell` at the
        cell's centre, of the layout's shape, ``fields`` its others (``actions`` by default the
        cell alone)."""
        drawn = tuple(
            Cell(
                id=cell,
                x=self.centres[cell][0],
                y=self.centres[cell][1],
                shape=self.shape,
                **{"actions": (cell,)} | fields,
            )
            for cell, fields in cells
        )
        return BoardView(self.width, self.height, drawn, self.lines, self.labels, tuple(buttons), tuple(notes))


def colour(rgb: RGB) -> str:
    """``(220, 180, 110)`` -> ``"#dcb46e"``."""
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def square_layout(rows: list[str], columns: list[str], lines: tuple[Line, ...] = ()) -> Layout:
    """A grid of ``len(rows)`` x ``len(columns)`` square cells numbered row by row from the
    top; row names go left of it (top row first), column names under it."""
    centres = tuple((c + 0.5, r + 0.5) for r in range(len(rows)) for c in range(len(columns)))
    labels = [Label(-0.45, r + 0.5, name) for r, name in enumerate(rows)]
    labels += [Label(c + 0.5, len(rows) + 0.45, name) for c, name in enumerate(columns)]
    return Layout(len(columns), len(rows), "square", centres, lines, tuple(labels))


def box_lines(size: int, box: int, colour: str = INK) -> tuple[Line, ...]:
    """Thick lines around every ``box`` x ``box`` block of a ``size`` x ``size`` grid (Sudoku)."""
    return tuple(
        line
        for k in range(0, size + 1, box)
        for line in (Line(k, 0, k, size, colour, 0.1), Line(0, k, size, k, colour, 0.1))
    )


# --- the drawing: how a view looks, decided once, as shapes in cell widths ----------------------
BACKGROUND = "#ebe1c8"
LABEL_INK = "#111111"
# a pointy-top hexagon's corners from its centre: upper right, top, upper left and on round
HEX_CORNERS = ((0.5, -HEX_RADIUS / 2), (0, -HEX_RADIUS), (-0.5, -HEX_RADIUS / 2))
HEX_CORNERS += tuple((-dx, -dy) for dx, dy in HEX_CORNERS)


@dataclass(frozen=True)
class Rect:
    """A rectangle from (x, y), ``width`` x ``height``; ``stroke`` '' for no border."""

    x: float
    y: float
    width: float
    height: float
    fill: str
    stroke: str = ""
    stroke_width: float = 0.0


@dataclass(frozen=True)
class Polygon:
    """A closed polygon through ``points``, filled and bordered."""

    points: tuple[tuple[float, float], ...]
    fill: str
    stroke: str
    stroke_width: float


@dataclass(frozen=True)
class Circle:
    """A circle of radius ``r`` round (x, y); ``fill`` '' for a ring. The stroke is centred on
    the circle's line, as in SVG."""

    x: float
    y: float
    r: float
    fill: str
    stroke: str
    stroke_width: float


@dataclass(frozen=True)
class Text:
    """Text centred on (x, y), ``size`` high."""

    x: float
    y: float
    text: str
    size: float
    fill: str
    bold: bool = False


@dataclass(frozen=True)
class Figure:
    """A chess figure (a key of :data:`FIGURES`) centred on (x, y), in ``fill`` edged with ``edge``."""

    x: float
    y: float
    piece: str
    fill: str
    edge: str


Shape = Rect | Polygon | Circle | Line | Text | Figure


@dataclass(frozen=True)
class Group:
    """The shapes of one cell, under its name (a tooltip in SVG)."""

    title: str
    shapes: tuple[Shape, ...]


def drawing(view: BoardView) -> tuple[Shape | Group, ...]:
    """``view`` as the shapes the browser board draws, back to front: the background with a
    margin of one cell round the board, the lines, each cell's group (its square or hexagon, its
    stone, figure or hopper ring, its text), the labels. ``board_svg`` writes them as SVG,
    ``envs.render.board_rgb`` paints them into an image."""
    items: list[Shape | Group] = [Rect(-1, -1, view.width + 2, view.height + 2, BACKGROUND)]
    items += view.lines
    for cell in view.cells:
        shapes: list[Shape] = []
        if cell.shape == "hex":
            corners = tuple((cell.x + dx, cell.y + dy) for dx, dy in HEX_CORNERS)
            shapes.append(Polygon(corners, cell.fill, INK, 0.03))
        else:
            shapes.append(Rect(cell.x - 0.5, cell.y - 0.5, 1, 1, cell.fill, INK, 0.03))
        if cell.piece == "hopper":  # a ring in the owner's colour, edged to show on any square
            shapes += [
                Circle(cell.x, cell.y, 0.3, "", ring, width)
                for ring, width in ((_edge(cell.owner), 0.2), (STONE_FILLS[cell.owner], 0.12))
            ]
        elif cell.piece:
            shapes.append(Figure(cell.x, cell.y, cell.piece, STONE_FILLS[cell.owner], _edge(cell.owner)))
        elif cell.owner:
            shapes.append(Circle(cell.x, cell.y, STONE_RADIUS, STONE_FILLS[cell.owner], INK, 0.035))
        if cell.text:
            shapes.append(Text(cell.x, cell.y, cell.text, 0.42, _text_colour(cell), bold="given" in cell.tags))
        items.append(Group(cell.name + (f" ({cell.owner})" if cell.owner else ""), tuple(shapes)))
    items += [Text(label.x, label.y, label.text, 0.36, LABEL_INK) for label in view.labels]
    return tuple(items)


def board_svg(view: BoardView, pixels_per_cell: int = 32) -> str:
    """``view`` as a standalone SVG document (its :func:`drawing`), for pages and files."""
    width, height = view.width + 2, view.height + 2
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="-1 -1 {_number(width)} {_number(height)}" '
        f'width="{round(width * pixels_per_cell)}" height="{round(height * pixels_per_cell)}" font-family="sans-serif">'
    ]
    for item in drawing(view):
        if isinstance(item, Group):
            parts.append(f"<g><title>{escape(item.title)}</title>")
            parts += [_svg(shape) for shape in item.shapes]
            parts.append("</g>")
        else:
            parts.append(_svg(item))
    return "\n".join(parts + ["</svg>"]) + "\n"


def _svg(shape: Shape) -> str:
    """One shape as an SVG element."""
    if isinstance(shape, Rect):
        border = {"stroke": shape.stroke, "stroke_width": _number(shape.stroke_width)} if shape.stroke else {}
        box = {key: _number(getattr(shape, key)) for key in ("x", "y", "width", "height")}
        return _tag("rect", **box, fill=shape.fill, **border)
    if isinstance(shape, Polygon):
        points = " ".join(f"{_number(x)},{_number(y)}" for x, y in shape.points)
        return _tag(
            "polygon", points=points, fill=shape.fill, stroke=shape.stroke, stroke_width=_number(shape.stroke_width)
        )
    if isinstance(shape, Circle):
        centre = {"cx": _number(shape.x), "cy": _number(shape.y), "r": _number(shape.r)}
        return _tag(
            "circle", **centre, fill=shape.fill or "none", stroke=shape.stroke, stroke_width=_number(shape.stroke_width)
        )
    if isinstance(shape, Line):
        ends = {key: _number(getattr(shape, key)) for key in ("x1", "y1", "x2", "y2")}
        return _tag("line", **ends, stroke=shape.colour, stroke_width=_number(shape.width), stroke_linecap="round")
    if isinstance(shape, Figure):  # the figure's glyph sits a little low in its em box
        edge = {"stroke": shape.edge, "stroke_width": "0.035", "paint_order": "stroke"}
        return _centred_text(FIGURES[shape.piece], shape.x, shape.y + 0.04, 0.82, shape.fill, **edge)
    extra = {"font_weight": "bold"} if shape.bold else {}
    return _centred_text(shape.text, shape.x, shape.y, shape.size, shape.fill, **extra)


def _tag(name: str, text: str = "", **attributes) -> str:
    words = " ".join(
        f"{key.rstrip('_').replace('_', '-')}={quoteattr(str(value))}" for key, value in attributes.items()
    )
    return f"<{name} {words}>{escape(text)}</{name}>" if text else f"<{name} {words}/>"


def _number(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".")


def _centred_text(text: str, x: float, y: float, size: float, fill: str, **extra) -> str:
    return _tag(
        "text",
        text,
        x=_number(x),
        y=_number(y),
        font_size=_number(size),
        text_anchor="middle",
        dominant_baseline="central",
        fill=fill,
        **extra,
    )


def _text_colour(cell: Cell) -> str:
    """The colour of a cell's text, as the browser board picks it."""
    if cell.owner:
        return "#ffffff" if _dark(STONE_FILLS[cell.owner]) else "#111111"
    if "chosen" in cell.tags:
        return "#c81e1e"
    if "dead" in cell.tags:
        return "#ffc8c8" if _dark(cell.fill) else "#a01010"
    return "#ffffff" if _dark(cell.fill) else "#111111"


def _edge(owner: str) -> str:
    """The outline of a figure in ``owner``'s colour, as the browser board draws it."""
    return "#f0f0f0" if _dark(STONE_FILLS[owner]) else "#111111"


def _dark(fill: str) -> bool:
    """Whether text on ``fill`` (``#rrggbb``) reads better in white (the browser board's rule)."""
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b < 150
