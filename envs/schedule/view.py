"""The view of a scheduled game's board (``envs.board_view``): one cell per cell of the board,
each offering itself (every micro-step is a cell), the piece on it, the cells of the turn so far
tagged ``chosen``: the current move's cells marked ``*`` (the piece picked, then its
destination), the cells this turn's earlier moves put a piece on numbered in their order.
The rules give the geometry (``view_layout``) and the look of a board value (``cell_look``)."""

from __future__ import annotations

from envs.board_view import BoardView


def scheduled_board_view(game, state) -> BoardView:
    """The view of ``game`` (a ``TurnGame``) at ``state``."""
    rules = game.rules
    layout = rules.view_layout()
    marks = {cell: str(number) for number, cell in enumerate(state.placed, start=1)}
    marks.update((cell, "*") for cell in state.partial)
    board, on_board = state.board, (cell for cell, centre in enumerate(layout.centres) if centre is not None)
    cells = ((cell, _fields(rules, cell, int(board[cell]), marks.get(cell, ""))) for cell in on_board)
    buttons = (game.PASS,) if rules.can_pass or rules.passes_when_stuck else ()
    notes = (_status(game, state), *rules.view_notes(state.board))
    return layout.view(cells, buttons, notes)


def _fields(rules, cell: int, value: int, mark: str) -> dict:
    owner, fill, tags = rules.cell_look(value)
    tags += ("chosen",) if mark else ()
    return {"name": rules.cell_name(cell), "owner": owner, "fill": fill, "text": mark, "tags": tags}


def _status(game, state) -> str:
    if state.result is not None:
        return game.result_text(state)
    rules, name = game.rules, game.info.seat_names[state.player]
    step = rules.step_names[len(state.partial)]
    return f"{name} to move (turn {state.turn + 1}, {state.moves_left} move(s) left): choose the {step}"
