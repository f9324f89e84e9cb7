"""A board as data for vector drawings (the browser board's SVG): cells with their place,
shape and contents, the actions a click on each offers, and the board's lines and labels.

``Game.board_view(state)`` returns a :class:`BoardView`; its coordinates are in cell widths
(a square cell is 1 x 1, a hexagonal one is 1 wide), x to the right and y down. Every game
draws its board with these pieces in its own code; this module names no game.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

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
    verdict), ``tags`` facts for styling and tests (``given``, ``dead``, ``chosen``)."""

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


def board_svg(view: BoardView, pixels_per_cell: int = 32) -> str:
    """``view`` as a standalone SVG document, drawn as the browser board draws it (cells,
    stones, marks, lines and labels, a margin of one cell round the board), for pages and files."""

    def tag(name: str, text: str = "", **attributes) -> str:
        words = " ".join(
            f"{key.rstrip('_').replace('_', '-')}={quoteattr(str(value))}" for key, value in attributes.items()
        )
        return f"<{name} {words}>{escape(text)}</{name}>" if text else f"<{name} {words}/>"

    def number(value: float) -> str:
        return f"{value:.3f}".rstrip("0").rstrip(".")

    def centred_text(text: str, x: float, y: float, size: str, fill: str, **extra) -> str:
        return tag(
            "text",
            text,
            x=number(x),
            y=number(y),
            font_size=size,
            text_anchor="middle",
            dominant_baseline="central",
            fill=fill,
            **extra,
        )

    def hexagon(x: float, y: float) -> str:
        corners = ((0.5, -HEX_RADIUS / 2), (0, -HEX_RADIUS), (-0.5, -HEX_RADIUS / 2))
        corners += tuple((-dx, -dy) for dx, dy in corners)
        return " ".join(f"{number(x + dx)},{number(y + dy)}" for dx, dy in corners)

    width, height = view.width + 2, view.height + 2
    parts = [
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="-1 -1 {number(width)} {number(height)}" '
        f'width="{round(width * pixels_per_cell)}" height="{round(height * pixels_per_cell)}" font-family="sans-serif">',
        tag("rect", x=-1, y=-1, width=number(width), height=number(height), fill="#ebe1c8"),
    ]
    for line in view.lines:
        parts.append(
            tag(
                "line",
                x1=number(line.x1),
                y1=number(line.y1),
                x2=number(line.x2),
                y2=number(line.y2),
                stroke=line.colour,
                stroke_width=number(line.width),
                stroke_linecap="round",
            )
        )
    for cell in view.cells:
        parts.append(f"<g><title>{escape(cell.name + (f' ({cell.owner})' if cell.owner else ''))}</title>")
        ground = {"fill": cell.fill, "stroke": "#3c3c3c", "stroke_width": "0.03"}
        if cell.shape == "hex":
            parts.append(tag("polygon", points=hexagon(cell.x, cell.y), **ground))
        else:
            parts.append(tag("rect", x=number(cell.x - 0.5), y=number(cell.y - 0.5), width=1, height=1, **ground))
        if cell.owner:
            parts.append(
                tag(
                    "circle",
                    cx=number(cell.x),
                    cy=number(cell.y),
                    r="0.36",
                    fill=STONE_FILLS[cell.owner],
                    stroke="#3c3c3c",
                    stroke_width="0.035",
                )
            )
        if cell.text:
            weight = {"font_weight": "bold"} if "given" in cell.tags else {}
            parts.append(centred_text(cell.text, cell.x, cell.y, "0.42", _text_colour(cell), **weight))
        parts.append("</g>")
    parts += [centred_text(label.text, label.x, label.y, "0.36", "#111111") for label in view.labels]
    return "\n".join(parts + ["</svg>"]) + "\n"


def _text_colour(cell: Cell) -> str:
    """The colour of a cell's text, as the browser board picks it."""
    if cell.owner:
        return "#ffffff" if _dark(STONE_FILLS[cell.owner]) else "#111111"
    if "chosen" in cell.tags:
        return "#c81e1e"
    if "dead" in cell.tags:
        return "#ffc8c8" if _dark(cell.fill) else "#a01010"
    return "#ffffff" if _dark(cell.fill) else "#111111"


def _dark(fill: str) -> bool:
    """Whether text on ``fill`` (``#rrggbb``) reads better in white (the browser board's rule)."""
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b < 150
