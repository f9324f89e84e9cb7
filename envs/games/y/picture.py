"""The picture of a Y board (its board view's layout): a triangle of hexagonal cells."""

from __future__ import annotations

from typing import Sequence

from envs.board_view import HEX_RADIUS, HEX_ROW, Label, Layout


def y_layout(n: int, names: Sequence[str]) -> Layout:
    """The triangle as vector geometry (``envs.board_view``), row 1 at the bottom; ``names``
    are row 1's cell names, written under it (row numbers go on the left)."""

    def centre(r: float, c: float) -> tuple[float, float]:
        return c + 0.5 * r + 0.5, HEX_RADIUS + HEX_ROW * (n - 1 - r)

    centres = tuple(centre(*divmod(cell, n)) if sum(divmod(cell, n)) <= n - 1 else None for cell in range(n * n))
    labels = [Label(*centre(r, -0.85), str(r + 1)) for r in range(n)]
    labels += [Label(centre(0, c)[0], centre(0, c)[1] + 0.95, names[c]) for c in range(n)]
    return Layout(n, 2 * HEX_RADIUS + HEX_ROW * (n - 1) + 0.6, "hex", centres, (), tuple(labels))
