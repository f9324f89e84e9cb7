"""The picture of a Hop Chess board (its board view): checkered squares, the pieces as chess
figures and the hoppers."""

from __future__ import annotations

from envs.board_view import BoardView, Cell, square_layout

LIGHT, DARK, CHOSEN = "#ebd7b4", "#b4875f", "#f0f078"
SEAT_COLOURS = ("white", "black")
FIGURES = ("", "pawn", "knight", "bishop", "rook", "queen", "king")  # by piece kind (position.PAWN = 1, ...)


def hop_chess_view(game, state) -> BoardView:
    """The board as vector data (``envs.board_view``), rank 8 at the top: a piece is its chess
    figure in its colour (``Cell.piece``: ``knight``, ...), a hopper the ``hopper`` figure in
    its colour (tagged ``hopper``); the squares chosen so far in the turn (the piece's, its final square) are
    marked and tagged ``chosen``. A click on a square offers what the turn's next micro-step
    may do there: pick the piece, end the piece's move (each promotion where there are
    several), put the hopper."""
    from envs.games.hop_chess.game import FROM, HOPPER, TO, TO_KINDS
    from envs.games.hop_chess.position import colour_of, square_name

    pos = state.pos
    layout = square_layout([str(r) for r in range(8, 0, -1)], list("abcdefgh"))
    chosen = ([state.origin] if state.origin >= 0 else []) + ([state.move[1]] if state.move is not None else [])
    legal = set(game.legal_actions(state))
    cells = []
    for square in range(64):
        rank, file = divmod(square, 8)
        x, y = layout.centres[(7 - rank) * 8 + file]
        piece = pos.board[square]
        if state.move is not None:
            actions: tuple[int, ...] = (HOPPER + square,)
        elif state.origin >= 0:
            ends = tuple(a for a in (TO + 64 * k + square for k in range(len(TO_KINDS))) if a in legal)
            actions = ends or (TO + square,)
        else:
            actions = (FROM + square,)
        tags: tuple[str, ...] = ()
        if piece:
            owner, figure = SEAT_COLOURS[colour_of(piece)], FIGURES[abs(piece)]
        elif square in pos.hoppers:
            owner, figure, tags = SEAT_COLOURS[pos.hoppers.index(square)], "hopper", ("hopper",)
        else:
            owner, figure = "", ""
        ground = CHOSEN if square in chosen else (LIGHT if (rank + file) % 2 else DARK)
        tags += ("chosen",) if square in chosen else ()
        cells.append(Cell(square, square_name(square), x, y, "square", actions, owner, ground, "", tags, figure))
    notes = []
    if state.player >= 0:
        step = "the hopper's square" if state.move is not None else "the piece's final square"
        step = step if state.origin >= 0 else "a piece to move"
        notes.append(f"{game.info.seat_names[state.player]} to move: choose {step}")
    return BoardView(layout.width, layout.height, tuple(cells), (), layout.labels, (), tuple(notes))
