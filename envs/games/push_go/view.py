"""The board view of Push Go (``envs.board_view``): the stone board of the other square games,
a click on an empty cell placing a stone there, on an enemy stone pushing it; pass is a button."""

from __future__ import annotations

from envs.board_view import BoardView, Cell
from envs.core import TERMINAL
from envs.games.push_go.kernels import REPETITIONS
from envs.stones.board import cell_name
from envs.stones.view import STONE_OF_VALUE, square_stone_layout


def push_go_view(game, state) -> BoardView:
    """The view of ``game`` (a ``PushGo``) at ``state``: every empty cell offers its placement,
    every stone of the mover's opponent its push (the mover's own stones offer their cell's
    placement, never legal, so that every cell offers something)."""
    n, n2 = game.n, game.n * game.n
    layout = square_stone_layout(n)
    enemy = 2 - state.player if state.player != TERMINAL else -1
    cells = []
    for cell, (x, y) in enumerate(layout.centres):
        value = state.board[cell]
        cells.append(
            Cell(
                id=cell,
                name=cell_name(cell, n),
                x=x,
                y=y,
                shape="square",
                actions=(n2 + cell,) if value == enemy else (cell,),
                owner=STONE_OF_VALUE[value],
            )
        )
    black, white = game.area(state.board)
    seats = game.info.seat_names
    notes = [f"area so far: {seats[0]} {black}, {seats[1]} {white} (komi {game.komi:g})"]
    if state.player != TERMINAL:
        notes.insert(0, f"{seats[state.player]} to move" + (" (the opponent passed)" if state.passes else ""))
        if state.repeats == REPETITIONS - 1:  # ko="push": a repetition more draws
            notes.append("this position has stood before: a third time ends the game drawn")
    return BoardView(
        layout.width, layout.height, tuple(cells), layout.lines, layout.labels, (game.pass_action,), tuple(notes)
    )
