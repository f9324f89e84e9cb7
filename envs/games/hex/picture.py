"""The picture of a Hex board (its board view's layout): a rhombus of hexagonal cells, each side
in the colour that joins it."""

from __future__ import annotations

from envs.board_view import HEX_RADIUS, HEX_ROW, INK, STONE_FILLS, Label, Layout, Line
from envs.stones.board import COLUMNS


def hex_layout(n: int) -> Layout:
    """The rhombus as vector geometry (``envs.board_view``): row r shifted half a cell right of
    row r-1, the top and bottom sides in the first colour, the left and right in the second."""

    def centre(r: float, c: float) -> tuple[float, float]:
        return c + 0.5 * r + 0.5, HEX_RADIUS + HEX_ROW * r

    first, second, rim = STONE_FILLS["black"], STONE_FILLS["white"], INK
    top_left, top_right = centre(-0.6, -0.6), centre(-0.6, n - 0.4)
    bottom_left, bottom_right = centre(n - 0.4, -0.6), centre(n - 0.4, n - 0.4)
    lines = []
    for (x1, y1), (x2, y2) in ((top_left, bottom_left), (top_right, bottom_right)):
        lines += [Line(x1, y1, x2, y2, rim, 0.3), Line(x1, y1, x2, y2, second, 0.2)]  # a rim for the light colour
    for (x1, y1), (x2, y2) in ((top_left, top_right), (bottom_left, bottom_right)):
        lines.append(Line(x1, y1, x2, y2, first, 0.24))
    labels = [Label(*centre(r, -1.05), str(r + 1)) for r in range(n)]
    labels += [Label(centre(-1.1, c)[0] + 0.25, centre(-1.1, c)[1], COLUMNS[c]) for c in range(n)]
    centres = tuple(centre(r, c) for r in range(n) for c in range(n))
    return Layout(1.5 * n - 0.5, 2 * HEX_RADIUS + HEX_ROW * (n - 1), "hex", centres, tuple(lines), tuple(labels))
