"""A board view painted into an RGB image (``render_mode="rgb_array"``, TensorBoard's boards):
the shapes of ``envs.board_view.drawing``, the same picture ``board_svg`` writes, drawn with
Pillow at twice the size and halved, so edges are smooth.

Text is set in Pillow's own font, which has no chess glyphs: a chess figure is painted as a
stone in its colour carrying the piece's letter (K, Q, R, B, N, P). This module names no game.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from envs.board_view import STONE_RADIUS, BoardView, Circle, Figure, Group, Line, Polygon, Rect, Shape, Text, drawing

PIXELS_PER_CELL = 48
OVERSAMPLE = 2
LETTERS = {"king": "K", "queen": "Q", "rook": "R", "bishop": "B", "knight": "N", "pawn": "P"}


def board_rgb(view: BoardView, pixels_per_cell: int = PIXELS_PER_CELL) -> np.ndarray:
    """``view`` as an RGB uint8 array (height, width, 3), ``pixels_per_cell`` to a cell width,
    a margin of one cell round the board as in ``board_svg``."""
    size = (round((view.width + 2) * pixels_per_cell), round((view.height + 2) * pixels_per_cell))
    image = Image.new("RGB", (size[0] * OVERSAMPLE, size[1] * OVERSAMPLE))
    paint = _Painter(ImageDraw.Draw(image), pixels_per_cell * OVERSAMPLE)
    for item in drawing(view):
        for shape in item.shapes if isinstance(item, Group) else (item,):
            paint(shape)
    return np.asarray(image.reduce(OVERSAMPLE))


class _Painter:
    """Paints shapes given in cell widths, the board's top left corner one cell in."""

    def __init__(self, draw: ImageDraw.ImageDraw, scale: int):
        self.draw, self.scale = draw, scale

    def point(self, x: float, y: float) -> tuple[float, float]:
        return (x + 1) * self.scale, (y + 1) * self.scale

    def width(self, width: float) -> int:
        return max(1, round(width * self.scale))

    def __call__(self, shape: Shape) -> None:
        if isinstance(shape, Rect):
            corners = [self.point(shape.x, shape.y), self.point(shape.x + shape.width, shape.y + shape.height)]
            border = {"outline": shape.stroke, "width": self.width(shape.stroke_width)} if shape.stroke else {}
            self.draw.rectangle(corners, fill=shape.fill, **border)
        elif isinstance(shape, Polygon):
            points = [self.point(x, y) for x, y in shape.points]
            self.draw.polygon(points, fill=shape.fill)  # with a wide outline Pillow paints a mask the image's size
            self.draw.line(points + points[:1], fill=shape.stroke, width=self.width(shape.stroke_width))
        elif isinstance(shape, Circle):
            self.circle(shape.x, shape.y, shape.r, shape.fill or None, shape.stroke, shape.stroke_width)
        elif isinstance(shape, Line):
            ends = [self.point(shape.x1, shape.y1), self.point(shape.x2, shape.y2)]
            self.draw.line(ends, fill=shape.colour, width=self.width(shape.width))
            for x, y in ((shape.x1, shape.y1), (shape.x2, shape.y2)):  # round caps
                self.circle(x, y, shape.width / 2, shape.colour, "", 0)
        elif isinstance(shape, Figure):
            self.circle(shape.x, shape.y, STONE_RADIUS, shape.fill, shape.edge, 0.035)
            self.text(Text(shape.x, shape.y, LETTERS[shape.piece], 0.5, shape.edge, bold=True))
        else:
            self.text(shape)

    def circle(self, x: float, y: float, r: float, fill: str | None, stroke: str, stroke_width: float) -> None:
        """A circle whose stroke is centred on its line (SVG's rule; Pillow draws it inside)."""
        outer = r + stroke_width / 2 if stroke else r
        (x0, y0), (x1, y1) = self.point(x - outer, y - outer), self.point(x + outer, y + outer)
        border = {"outline": stroke, "width": self.width(stroke_width)} if stroke else {}
        self.draw.ellipse([x0, y0, x1, y1], fill=fill, **border)

    def text(self, text: Text) -> None:
        size = round(text.size * self.scale)
        bold = {"stroke_width": max(1, size // 16), "stroke_fill": text.fill} if text.bold else {}
        self.draw.text(self.point(text.x, text.y), text.text, fill=text.fill, font=_font(size), anchor="mm", **bold)


@lru_cache(maxsize=None)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's own font at ``size`` pixels (its small bitmap font where Pillow lacks FreeType)."""
    return ImageFont.load_default(size)
