"""The picture of Blockdance (its board view): the hexagon's men (Y black, O white), the turn so
far marked (``*`` the pivot, ``+`` the block's other men, ``o`` where the block lands)."""

from __future__ import annotations

from envs.board_view import BoardView, Cell
from envs.core import TERMINAL
from envs.stones.view import STONE_OF_VALUE, hexagon_layout


def blockdance_view(game, state) -> BoardView:
    """The view of ``game`` at ``state``: every cell offers itself (the pivot, a man joining
    the block, the pivot again to turn it); the five angles and pass are buttons."""
    layout = hexagon_layout(game.side)
    marks = game.marks(state)
    cells = []
    for cell, centre in enumerate(layout.centres):
        if centre is None:
            continue
        chosen = cell in state.block
        cells.append(
            Cell(
                id=cell,
                name=game.cell_name(cell),
                x=centre[0],
                y=centre[1],
                shape="hex",
                actions=(cell,),
                owner=STONE_OF_VALUE[state.board[cell]],
                text=marks[cell],
                tags=("chosen",) if chosen else (),
            )
        )
    buttons = tuple(range(game.ANGLE, game.PASS + 1))
    men = f"men: y {state.men(0)} (black), o {state.men(1)} (white)"
    return BoardView(layout.width, layout.height, tuple(cells), (), layout.labels, buttons, (_step(game, state), men))


def _step(game, state) -> str:
    if state.player == TERMINAL:
        return game.result_text(state)
    seat = game.info.seat_names[state.player]
    if state.pivot < 0:
        return f"{seat} to move: choose the pivot (or pass)"
    pivot = game.cell_name(state.pivot)
    if not state.angle:
        return f"{seat} to move, pivot {pivot}: choose the angle (sixths of a turn clockwise)"
    return f"{seat} to move, pivot {pivot}, angle {state.angle}: add a man next to the block, or {pivot} to turn it"
