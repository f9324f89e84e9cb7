"""Four-way walls' board (docs/games/four_way_walls.md), and its rules as the text names them:
where a stone may step or jump by which way (``routes``, for the notation), and why a wall
cannot stand (``wall_clash``, for the messages). The legal actions, the path rule and the
playouts are ``kernels.py``'s.

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

N, E, S, W = range(4)
STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # (row, column) of one step north, east, south, west
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

    def copy(self) -> "Position":
        return Position(self.size, self.stones.copy(), (self.walls[0].copy(), self.walls[1].copy()))

    def occupant(self) -> dict[int, int]:
        """cell -> the stone on it."""
        return {cell: stone for stone, cell in enumerate(self.stones) if cell != OFF}

    def wall_list(self) -> list[tuple[int, int, int]]:
        """Every wall as (orientation, i, j), horizontal ones first."""
        n1 = self.size + 1
        return [(o, p // n1, p % n1) for o in (HORIZONTAL, VERTICAL) for p, on in enumerate(self.walls[o]) if on]


def goal_of(stone: int) -> int:
    return stone % 4


def seat_of(stone: int) -> int:
    return stone // 4


# --- one step ------------------------------------------------------------------------------------
def walled(pos: Position, r: int, c: int, d: int) -> bool:
    """Whether a wall blocks the step from cell (r, c) in direction d (the cell is on the board)."""
    n1, h, v = pos.size + 1, pos.walls[HORIZONTAL], pos.walls[VERTICAL]
    if d == N:
        return h[r * n1 + c] or h[r * n1 + c + 1]
    if d == S:
        return h[(r + 1) * n1 + c] or h[(r + 1) * n1 + c + 1]
    if d == W:
        return v[r * n1 + c] or v[(r + 1) * n1 + c]
    return v[r * n1 + c + 1] or v[(r + 1) * n1 + c + 1]


BLOCKED = -2  # a step into a wall, or across a boundary that is not the stone's goal


def step(pos: Position, cell: int, d: int, goal: int) -> int:
    """Where one step from ``cell`` in direction ``d`` leads a stone heading for ``goal``: the next
    cell, OFF across its own goal boundary, or BLOCKED (a wall, or another boundary: the board's
    edge stops a stone like a wall)."""
    n = pos.size
    r, c = divmod(cell, n)
    dr, dc = STEPS[d]
    if not (0 <= r + dr < n and 0 <= c + dc < n):
        return OFF if d == goal else BLOCKED
    if walled(pos, r, c, d):
        return BLOCKED
    return (r + dr) * n + c + dc


def routes(pos: Position, stone: int) -> dict[int, list[tuple[int, int | None]]]:
    """Every destination of ``stone`` (a cell, or OFF) with the routes that reach it: (direction,
    the right angle turned or None). A step goes to the next cell; if stones stand there the stone
    jumps the whole line of them to the next vacant cell (or off, across its goal); a wall or
    boundary part-way through the jump lets it turn either right angle from the last stone jumped,
    one step onto a vacant cell (or off across its goal)."""
    cell, goal = pos.stones[stone], goal_of(stone)
    taken = {c for c in pos.stones if c != OFF}
    found: dict[int, list[tuple[int, int | None]]] = {}
    for d in range(4):
        nxt = step(pos, cell, d, goal)
        if nxt == BLOCKED:
            continue
        while nxt != OFF and nxt in taken:  # a stone here: jump it
            last, nxt = nxt, step(pos, nxt, d, goal)
            if nxt == BLOCKED:  # stopped part-way: turn a right angle from the last stone jumped
                for turn in ((d + 1) % 4, (d + 3) % 4):
                    side = step(pos, last, turn, goal)
                    if side != BLOCKED and side not in taken:
                        found.setdefault(side, []).append((d, turn))
                break
        else:
            found.setdefault(nxt, []).append((d, None))
    return dict(sorted(found.items()))


# --- walls -------------------------------------------------------------------------------------------
def wall_clash(pos: Position, orientation: int, i: int, j: int) -> str:
    """Why a wall centred on point (i, j) cannot stand beside the others ('' if it can): it may not
    overlap a wall of its own orientation nor cross one of the other at its centre."""
    n = pos.size
    if not (1 <= i <= n - 1 and 1 <= j <= n - 1):
        return "a wall may not lie on the boundary or leave the board"
    n1, same, other = n + 1, pos.walls[orientation], pos.walls[1 - orientation]
    if same[i * n1 + j]:
        return "a wall stands there already"
    di, dj = (0, 1) if orientation == HORIZONTAL else (1, 0)
    if same[(i - di) * n1 + j - dj] or same[(i + di) * n1 + j + dj]:
        return "it would overlap a wall"
    if other[i * n1 + j]:
        return "it would cross a wall"
    return ""
