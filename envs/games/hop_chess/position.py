"""Hop Chess's positions in Python: squares, pieces, the position's fields, FEN (the rules
are ``kernels.py``'s, in numba).

Squares: index = rank * 8 + file, a1 = 0, h1 = 7, a8 = 56. Pieces: +1..+6 white
pawn, knight, bishop, rook, queen, king; negative for black; 0 empty. Hoppers stand
on empty squares (``hoppers[colour]``, -1 off the board).
"""

from __future__ import annotations

from envs.core import NotationError

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6
WHITE, BLACK = 0, 1
CASTLE_RIGHTS = {"K": 1, "Q": 2, "k": 4, "q": 8}


def colour_of(piece: int) -> int:
    return WHITE if piece > 0 else BLACK


class Position:
    """Pieces, hoppers, the side to move, castling rights (bits K Q k q), the en passant
    square (-1 none), the halfmove clock and whether white's first move is still to come."""

    __slots__ = ("board", "hoppers", "side", "castling", "ep", "clock", "opening")

    def __init__(self):
        self.board = [0] * 64
        self.hoppers = [-1, -1]
        self.side = WHITE
        self.castling = 15
        self.ep = -1
        self.clock = 0
        self.opening = True


# --- FEN -----------------------------------------------------------------------------------------
LETTERS = ".PNBRQK"
START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def from_fen(fen: str, opening: bool | None = None) -> Position:
    """A position from FEN (the first four fields; hoppers off the board). ``opening``: white's
    first move without a hopper step (default: the standard start)."""
    fields = fen.split()
    if len(fields) < 4:
        raise ValueError(f"FEN needs at least 4 fields, got {fen!r}")
    pos = Position()
    rows = fields[0].split("/")
    if len(rows) != 8:
        raise ValueError(f"FEN board needs 8 ranks, got {len(rows)}")
    for index, row in enumerate(rows):
        file = 0
        for char in row:
            if char.isdigit():
                file += int(char)
            elif char.upper() in LETTERS[1:]:
                kind = LETTERS.index(char.upper())
                pos.board[(7 - index) * 8 + file] = kind if char.isupper() else -kind
                file += 1
            else:
                raise ValueError(f"FEN: unexpected {char!r}")
        if file != 8:
            raise ValueError(f"FEN rank {8 - index} has {file} files")
    pos.side = WHITE if fields[1] == "w" else BLACK
    pos.castling = sum(CASTLE_RIGHTS[c] for c in fields[2] if c in CASTLE_RIGHTS)
    pos.ep = -1 if fields[3] == "-" else square_of(fields[3])
    pos.opening = fen == START_FEN if opening is None else opening
    return pos


def square_name(square: int) -> str:
    return "abcdefgh"[square % 8] + str(square // 8 + 1)


def square_of(text: str) -> int:
    if len(text) != 2 or text[0] not in "abcdefgh" or text[1] not in "12345678":
        raise NotationError(f"cannot read square {text!r}: expected a1..h8")
    return (int(text[1]) - 1) * 8 + "abcdefgh".index(text[0])
