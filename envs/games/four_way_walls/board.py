"""Four-way walls' board (docs/games/four_way_walls.md) as the notation, the diagrams and the
pictures read it (:class:`Position`, from a row of ``kernels.py``, whose rules are the game's).

The board has n x n cells and (n + 1) x (n + 1) points, both counted from the top left::

    point (0, 0) +---+---+      cell (r, c) lies between points rows r, r + 1
                 |0,0|0,1|      and point columns c, c + 1; cell index r * n + c
                 +---+---+
                 |1,0|1,1|
                 +---+---+ point (2, 2)

A wall is two cells long and is named by its centre, an interior point (i, j) with
1 <= i, j <= n - 1: a horizontal wall lies on point row i from point column j - 1 to
j + 1 (between cell rows i - 1 and i, over cell columns j - 1 and j), a vertical one on
point column j from point row i - 1 to i + 1. The boundary is never a wall's centre line.

Stones are numbered ``seat * 4 + goal``, goals ``N, E, S, W`` = 0..3: stone 1 is seat 0's
``E``, which leaves the board across the east boundary. ``OFF`` is a stone off the board.
"""

from __future__ import annotations

from dataclasses import dataclass

HORIZONTAL, VERTICAL = 0, 1
OFF = -1  # a stone's cell once it has left the board; also the destination "off the board"


@dataclass
class Position:
    """What the board holds: ``stones[k]`` the cell of stone k (or OFF), the walls by their
    centres (``walls[orientation][i * (n + 1) + j]``)."""

    size: int
    stones: list[int]
    walls: tuple[list[bool], list[bool]]

    @classmethod
    def empty(cls, size: int, stones: list[int]) -> "Position":
        points = (size + 1) ** 2
        return cls(size, list(stones), ([False] * points, [False] * points))

    def occupant(self) -> dict[int, int]:
        """cell -> the stone on it."""
        return {cell: stone for stone, cell in enumerate(self.stones) if cell != OFF}

    def wall_list(self) -> list[tuple[int, int, int]]:
        """Every wall as (orientation, i, j), horizontal ones first."""
        n1 = self.size + 1
        return [(o, p // n1, p % n1) for o in (HORIZONTAL, VERTICAL) for p, on in enumerate(self.walls[o]) if on]


def seat_of(stone: int) -> int:
    return stone // 4
