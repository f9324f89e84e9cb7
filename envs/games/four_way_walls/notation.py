"""Four-way walls' names and diagrams (docs/games/four_way_walls.md): cells, walls and the text's
board diagram, both ways.

* A cell is its column letter (``a`` on the left) and its row number (1 at the top): ``d4``
  (``envs.stones.board``'s names).
* A wall is named by the points it joins, as the text does: point columns ``A``... from the
  left, point rows ``a``... from the top; ``CEj`` lies on point row j from C to E (horizontal),
  ``Fik`` on point column F from i to k (vertical). The pair may come in either order (``Hhf``).
* A stone is its letter, ``N E S W`` for seat 0 and ``n e s w`` for seat 1.

The diagram (``diagram`` / ``read_diagram``) is the text's: points ``+`` four characters apart,
the boundary drawn ``+ - - +`` and ``:``, walls ``-------`` and ``|``, stones at the cells' centres.
"""

from __future__ import annotations

import re

from envs.core import NotationError
from envs.games.four_way_walls.board import HORIZONTAL, OFF, VERTICAL, Position
from envs.stones.board import COLUMNS, cell_name

POINT_COLUMNS, POINT_ROWS = COLUMNS.upper(), COLUMNS
STONE_LETTERS = ("NESW", "nesw")  # seat 0's stones, seat 1's, in goal order
DIRECTIONS = "nesw"
_HORIZONTAL = re.compile(r"^([A-Z])([A-Z])([a-z])$")
_VERTICAL = re.compile(r"^([A-Z])([a-z])([a-z])$")


def wall_name(orientation: int, i: int, j: int) -> str:
    if orientation == HORIZONTAL:
        return f"{POINT_COLUMNS[j - 1]}{POINT_COLUMNS[j + 1]}{POINT_ROWS[i]}"
    return f"{POINT_COLUMNS[j]}{POINT_ROWS[i - 1]}{POINT_ROWS[i + 1]}"


def parse_wall(size: int, text: str) -> tuple[int, int, int]:
    """(orientation, i, j) of a wall's name; a NotationError for text that names no wall slot
    (two points that are not two cells apart, on the boundary, off the board)."""
    points = POINT_COLUMNS[: size + 1]
    if match := _HORIZONTAL.match(text):
        ends, line, orientation = (points.find(match[1]), points.find(match[2])), POINT_ROWS.find(match[3]), HORIZONTAL
    elif match := _VERTICAL.match(text):
        ends, line, orientation = (
            (POINT_ROWS.find(match[2]), POINT_ROWS.find(match[3])),
            points.find(match[1]),
            VERTICAL,
        )
    else:
        raise NotationError(
            f"cannot read wall {text!r}: expected two point columns and a point row (CEj) or a point column "
            "and two point rows (Fik)"
        )
    if min(*ends, line) < 0 or max(*ends, line) > size:
        raise NotationError(f"wall {text!r} leaves the board (points A..{points[-1]}, a..{POINT_ROWS[size]})")
    if abs(ends[0] - ends[1]) != 2:
        raise NotationError(f"wall {text!r}: a wall is two cells long, its points two apart")
    if line in (0, size):
        raise NotationError(f"wall {text!r} lies on the boundary, where no wall may be played")
    middle = min(ends) + 1
    return (orientation, line, middle) if orientation == HORIZONTAL else (orientation, middle, line)


# --- the text's diagram -----------------------------------------------------------------------------
def stone_letter(stone: int) -> str:
    return STONE_LETTERS[stone // 4][stone % 4]


def diagram(pos: Position) -> str:
    """The board as the text draws it (``read_diagram`` reads it back)."""
    n, n1 = pos.size, pos.size + 1
    h, v = pos.walls
    width = 4 * n + 3
    lines = ["  " + "   ".join(POINT_COLUMNS[: n + 1])]
    at = pos.occupant()
    for i in range(n + 1):
        row = [" "] * width
        row[0] = POINT_ROWS[i]
        if i in (0, n):
            row[2 : 4 * n + 3] = "+" + " -" * (2 * n - 1) + " +"
        else:
            row[2] = row[4 * n + 2] = ":"
            for j in range(1, n):
                row[2 + 4 * j] = "|" if v[i * n1 + j] else "+"
                if h[i * n1 + j]:
                    row[4 * j - 1 : 4 * j + 6] = "-" * 7
        lines.append("".join(row))
        if i == n:
            break
        cells = [" "] * width
        cells[2] = cells[4 * n + 2] = ":"
        for j in range(1, n):
            if v[i * n1 + j] or v[(i + 1) * n1 + j]:
                cells[2 + 4 * j] = "|"
        for c in range(n):
            if i * n + c in at:
                cells[4 + 4 * c] = stone_letter(at[i * n + c])
        lines.append("".join(cells).rstrip())
    return "\n".join(lines)


def read_diagram(text: str) -> Position:
    """The stones and walls of a diagram in the text's style; a stone missing from it is off the
    board. The walls are the drawn wall segments paired along each line (a straight run of 2k
    segments is k walls in one way only)."""
    lines = [line.rstrip() for line in text.splitlines() if line.strip()]
    if not lines or not re.fullmatch(r"\s*A(\s+[B-Z])*", lines[0]):
        raise NotationError("a diagram starts with its point columns, '  A   B   C ...'")
    n = len(lines[0].split()) - 1
    if len(lines) != 2 * n + 2:
        raise NotationError(f"a diagram of {n} x {n} cells has {2 * n + 1} lines under its header")
    body = [line.ljust(4 * n + 3) for line in lines[1:]]
    stones = [OFF] * 8
    for r in range(n):
        for c in range(n):
            char = body[2 * r + 1][4 + 4 * c]
            if char in " .":
                continue
            seat = next((s for s, letters in enumerate(STONE_LETTERS) if char in letters), None)
            if seat is None:
                raise NotationError(f"diagram: unexpected {char!r} on cell {cell_name(r * n + c, n)}")
            stone = seat * 4 + STONE_LETTERS[seat].index(char)
            if stones[stone] != OFF:
                raise NotationError(f"diagram: stone {char} stands twice")
            stones[stone] = r * n + c
    pos = Position.empty(n, stones)
    across = [[body[2 * i][4 + 4 * k] == "-" for k in range(n)] for i in range(1, n)]  # point row i, cell k
    down = [[body[2 * r + 1][2 + 4 * j] == "|" for r in range(n)] for j in range(1, n)]  # point column j, cell r
    for orientation, runs in ((HORIZONTAL, across), (VERTICAL, down)):
        for line, segments in enumerate(runs, start=1):
            k = 0
            while k < n:
                if not segments[k]:
                    k += 1
                    continue
                if k + 1 >= n or not segments[k + 1]:
                    kind = "row" if orientation == HORIZONTAL else "column"
                    raise NotationError(f"diagram: a wall on point {kind} {line} is one cell long")
                i, j = (line, k + 1) if orientation == HORIZONTAL else (k + 1, line)
                pos.walls[orientation][i * (n + 1) + j] = True
                k += 2
    return pos
