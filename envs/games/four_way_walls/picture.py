"""The picture of a Four-way walls board (its board view): stones with their letters, between the
cells the wall slots, the walls in the grooves."""

from __future__ import annotations

from envs.board_view import WOOD, BoardView, Cell, Label, Line
from envs.games.four_way_walls.board import HORIZONTAL, seat_of
from envs.games.four_way_walls.notation import COLUMNS, POINT_COLUMNS, POINT_ROWS, cell_name, stone_letter

CHOSEN, WALL, GROOVE = "#f0f078", "#782814", "#be965a"
SEAT_STONES = ("black", "white")


def walls_view(game, state) -> BoardView:
    """The board as vector data (``envs.board_view``) at twice the cells' pitch: cell (r, c) at
    (2c + 0.5, 2r + 0.5), each offering itself (the stone to step, or a destination); the wall
    slots between four cells at their centre point, each offering its horizontal and its
    vertical wall (the centre of a standing wall tagged ``wall``); the walls as thick lines,
    ``off`` (a stone leaving the board) as a button."""
    n, pos = game.size, state.pos
    at = pos.occupant()
    chosen = pos.stones[state.picked] if state.picked >= 0 else None
    cells = []
    for cell in range(n * n):
        r, c = divmod(cell, n)
        stone = at.get(cell)
        owner = SEAT_STONES[seat_of(stone)] if stone is not None else ""
        text = stone_letter(stone) if stone is not None else ""
        tags = ("chosen",) if cell == chosen else ()
        fill = CHOSEN if cell == chosen else WOOD
        cells.append(
            Cell(cell, cell_name(n, cell), 2 * c + 0.5, 2 * r + 0.5, "square", (cell,), owner, fill, text, tags)
        )
    standing = {(i, j) for _, i, j in pos.wall_list()}
    for i in range(1, n):
        for j in range(1, n):
            actions = (game._wall_action(0, i, j), game._wall_action(1, i, j))
            wall = (i, j) in standing
            fill = WALL if wall else GROOVE
            name = POINT_COLUMNS[j] + POINT_ROWS[i]
            point = Cell(
                actions[0], name, 2 * j - 0.5, 2 * i - 0.5, "square", actions, "", fill, "", ("wall",) if wall else ()
            )
            cells.append(point)
    lines = []
    for o, i, j in pos.wall_list():
        x, y = 2 * j - 0.5, 2 * i - 0.5
        dx, dy = (1.35, 0) if o == HORIZONTAL else (0, 1.35)  # over its two cells (the caps are round)
        lines.append(Line(x - dx, y - dy, x + dx, y + dy, WALL, 0.3))
    side = 2 * n - 1
    labels = [Label(2 * c + 0.5, side + 0.45, COLUMNS[c]) for c in range(n)]
    labels += [Label(-0.45, 2 * r + 0.5, str(r + 1)) for r in range(n)]
    notes = [
        game.result_text(state)
        if state.result is not None
        else f"{game.info.seat_names[state.player]} to move: {game.step_text(state)}",
        f"walls in hand {state.walls_left[0]} / {state.walls_left[1]}; off the board {state.off(0)} / {state.off(1)}",
    ]
    return BoardView(side, side, tuple(cells), tuple(lines), tuple(labels), (game.OFF,), tuple(notes))
