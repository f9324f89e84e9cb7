"""Hop Chess's move rules: FIDE chess where a piece that lands on a hopper moves on
(docs/games/hop_chess.md). No Game API here: positions, piece moves, attacks, full turns.

Squares: index = rank * 8 + file, a1 = 0, h1 = 7, a8 = 56. Pieces: +1..+6 white
pawn, knight, bishop, rook, queen, king; negative for black; 0 empty. Hoppers stand
on empty squares (``hoppers[colour]``, -1 off the board).
"""

from __future__ import annotations

PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6
WHITE, BLACK = 0, 1
PROMOTIONS = (QUEEN, KNIGHT, BISHOP, ROOK)
ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))  # (rank step, file step)
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
KNIGHT_STEPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
LINES = {BISHOP: (DIAGONAL,), ROOK: (ORTHOGONAL,), QUEEN: (ORTHOGONAL, DIAGONAL)}
CASTLE_RIGHTS = {"K": 1, "Q": 2, "k": 4, "q": 8}


def _table(steps, slide: bool):
    table = []
    for square in range(64):
        rank, file = divmod(square, 8)
        per_step = []
        for dr, df in steps:
            ray, r, f = [], rank + dr, file + df
            while 0 <= r < 8 and 0 <= f < 8:
                ray.append(r * 8 + f)
                if not slide:
                    break
                r, f = r + dr, f + df
            per_step.append(tuple(ray))
        table.append(tuple(per_step))
    return tuple(table)


RAYS = {ORTHOGONAL: _table(ORTHOGONAL, True), DIAGONAL: _table(DIAGONAL, True)}
KNIGHT_TARGETS = tuple(tuple(r[0] for r in rays if r) for rays in _table(KNIGHT_STEPS, False))
KING_TARGETS = tuple(tuple(r[0] for r in rays if r) for rays in _table(ORTHOGONAL + DIAGONAL, False))


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

    def copy(self) -> "Position":
        other = Position.__new__(Position)
        other.board, other.hoppers = self.board[:], self.hoppers[:]
        other.side, other.castling, other.ep, other.clock = self.side, self.castling, self.ep, self.clock
        other.opening = self.opening
        return other

    def king(self, colour: int) -> int:
        target = KING if colour == WHITE else -KING
        return self.board.index(target)


# --- piece moves -----------------------------------------------------------------------------------
def destinations(pos: Position, start: int, piece: int) -> set[tuple[int, int]]:
    """Every (final square, promotion) of ``piece`` (signed) moving from ``start``, hops
    included, before the king-safety test; ``pos.board[start]`` must already be empty.
    Promotion is 0, or the piece a pawn became (on the last rank or on a hopper there)."""
    out: set[tuple[int, int]] = set()
    colour = colour_of(piece)
    kind = abs(piece)
    if kind == KING:
        hops = set(pos.hoppers)
        for target in KING_TARGETS[start]:
            if target not in hops and (pos.board[target] == 0 or colour_of(pos.board[target]) != colour):
                out.add((target, 0))
        return out
    if kind == PAWN:
        _pawn(pos, start, start, colour, (), 0, out)
    else:
        _piece(pos, start, start, colour, kind, LINES.get(kind, ()), (), 0, out)
    return out


def _hop(pos: Position, square: int, start: int, colour: int, kind: int, lines, used, promoted, out) -> None:
    """The piece stands on the hopper on ``square``: it moves again (each hopper once)."""
    used = used + (square,)
    if kind == PAWN:
        _pawn(pos, square, start, colour, used, promoted, out)
    else:
        _piece(pos, square, start, colour, kind, lines, used, promoted, out)


def _land(pos, square, start, colour, kind, lines, used, promoted, out) -> bool:
    """The piece arrives on ``square``: hop, stop (an empty square or a capture), or be
    blocked. Returns whether a slider may go on past it."""
    hoppers = pos.hoppers
    if square == hoppers[0] or square == hoppers[1]:
        if square not in used:
            _hop(pos, square, start, colour, kind, lines, used, promoted, out)
        return True  # pieces move over hoppers
    occupant = pos.board[square]
    if occupant == 0:
        if square != start:
            out.add((square, promoted))
        return True
    if colour_of(occupant) != colour:
        out.add((square, promoted))
    return False


def _piece(pos, square, start, colour, kind, lines, used, promoted, out) -> None:
    if kind == KNIGHT:
        for target in KNIGHT_TARGETS[square]:
            _land(pos, target, start, colour, kind, lines, used, promoted, out)
        return
    for line in lines:
        for ray in RAYS[line][square]:
            for target in ray:
                if not _land(
                    pos, target, start, colour, kind, (line,) if kind == QUEEN else lines, used, promoted, out
                ):
                    break


def _pawn(pos, square, start, colour, used, promoted, out) -> None:
    step = 8 if colour == WHITE else -8
    last = 7 if colour == WHITE else 0
    board, hoppers = pos.board, pos.hoppers
    forward = square + step
    if not 0 <= forward < 64:
        return
    on_hopper = forward == hoppers[0] or forward == hoppers[1]
    if board[forward] == 0 and not (on_hopper and forward in used):
        if forward // 8 == last:
            for kind in PROMOTIONS:
                if on_hopper:  # promotion on a hopper: the new piece moves on (a queen orthogonally)
                    lines = (ORTHOGONAL,) if kind == QUEEN else LINES.get(kind, ())
                    _hop(pos, forward, start, colour, kind, lines, used, kind, out)
                elif forward != start:
                    out.add((forward, kind))
        elif on_hopper:
            _hop(pos, forward, start, colour, PAWN, (), used, 0, out)
        elif forward != start:
            out.add((forward, 0))
        home = 1 if colour == WHITE else 6
        if not used and square // 8 == home:
            double = forward + step
            if board[double] == 0:
                if double == hoppers[0] or double == hoppers[1]:
                    _hop(pos, double, start, colour, PAWN, (), used, 0, out)
                else:
                    out.add((double, 0))
    file = square % 8
    for df in (-1, 1):
        if not 0 <= file + df < 8:
            continue
        target = forward + df
        occupant = board[target]
        capture = occupant != 0 and colour_of(occupant) != colour
        en_passant = not used and target == pos.ep and occupant == 0 and target not in hoppers
        if capture or en_passant:
            if target // 8 == last:
                for kind in PROMOTIONS:
                    out.add((target, kind))
            else:
                out.add((target, 0))


# --- attacks -----------------------------------------------------------------------------------
def attacked(pos: Position, square: int, by: int) -> bool:
    """Whether a piece of ``by`` could capture on ``square`` (hops included); an empty
    ``square`` is treated as holding a piece of the other side."""
    board = pos.board
    saved = board[square]
    if saved == 0:
        board[square] = KING if by == BLACK else -KING  # something to capture
    try:
        for origin, piece in enumerate(board):
            if piece == 0 or colour_of(piece) != by or origin == square:
                continue
            if abs(piece) == KING:
                if square in KING_TARGETS[origin]:
                    return True
                continue
            board[origin] = 0
            try:
                if any(final == square for final, _ in destinations(pos, origin, piece)):
                    return True
            finally:
                board[origin] = piece
        return False
    finally:
        board[square] = saved


def in_check(pos: Position, colour: int) -> bool:
    return attacked(pos, pos.king(colour), 1 - colour)


# --- making moves ----------------------------------------------------------------------------------
def piece_moves(pos: Position) -> list[tuple[int, int, int]]:
    """The side to move's (from, to, promotion) piece moves before the king-safety test,
    castling included (the king's two-square move)."""
    moves = []
    board, side = pos.board, pos.side
    for origin in range(64):
        piece = board[origin]
        if piece == 0 or colour_of(piece) != side:
            continue
        board[origin] = 0
        try:
            finals = destinations(pos, origin, piece)
        finally:
            board[origin] = piece
        moves.extend((origin, final, promo) for final, promo in sorted(finals))
    moves.extend(_castles(pos))
    return moves


def _castles(pos: Position) -> list[tuple[int, int, int]]:
    side = pos.side
    home = 0 if side == WHITE else 56
    out = []
    for right, rook, between, crossed in (("K", 7, (5, 6), (5,)), ("Q", 0, (1, 2, 3), (3,))):
        bit = CASTLE_RIGHTS[right if side == WHITE else right.lower()]
        if not pos.castling & bit or pos.board[home + 4] != (KING if side == WHITE else -KING):
            continue
        squares = [home + s for s in between]
        if any(pos.board[s] or s in pos.hoppers for s in squares):  # nor castle across a hopper
            continue
        if pos.board[home + rook] != (ROOK if side == WHITE else -ROOK):
            continue
        if in_check(pos, side) or any(attacked(pos, home + s, 1 - side) for s in crossed):
            continue
        out.append((home + 4, home + (6 if right == "K" else 2), 0))
    return out


def make_piece_move(pos: Position, move: tuple[int, int, int]) -> None:
    """Play the piece part of a turn in place (the hopper stays where it is)."""
    origin, target, promo = move
    board = pos.board
    piece = board[origin]
    kind, sign = abs(piece), (1 if piece > 0 else -1)
    capture = board[target] != 0
    board[origin] = 0
    if kind == PAWN and target == pos.ep and not capture and (target - origin) % 8 != 0:
        board[target - 8 * sign] = 0  # en passant
        capture = True
    if kind == KING and abs(target - origin) == 2:  # castling: the rook comes round
        rook_from, rook_to = (origin + 3, origin + 1) if target > origin else (origin - 4, origin - 1)
        board[rook_to], board[rook_from] = board[rook_from], 0
    board[target] = sign * promo if promo else piece
    skipped = (origin + target) // 2
    double = kind == PAWN and abs(target - origin) == 16 and skipped not in pos.hoppers
    pos.ep = skipped if double else -1  # a double step across a hopper is a step onto it and on: no en passant
    pos.clock = 0 if capture or kind == PAWN else pos.clock + 1
    for square in (origin, target):
        pos.castling &= ~_RIGHTS_OF.get(square, 0)


_RIGHTS_OF = {0: 2, 4: 3, 7: 1, 56: 8, 60: 12, 63: 4}


def hopper_squares(pos: Position) -> list[int]:
    """Where the mover may put his hopper after his piece moved: an empty square without the
    other hopper, or where it stands; none on white's first move."""
    if pos.opening:
        return []
    own, other = pos.hoppers[pos.side], pos.hoppers[1 - pos.side]
    return [s for s in range(64) if s == own or (pos.board[s] == 0 and s != other)]


def legal_turns(pos: Position) -> dict[tuple[int, int, int], list[int]]:
    """Every legal piece move and, for each, the hopper squares after which the mover's
    king is safe ([-1] on white's first move: no hopper step). The rules' reference: the
    engine plays the compiled ``game.compiled_turns``, which the tests hold to this."""
    turns = {}
    side = pos.side
    for move in piece_moves(pos):
        after = pos.copy()
        make_piece_move(after, move)
        if pos.opening:
            if not in_check(after, side):
                turns[move] = [-1]
            continue
        safe = _safe_hopper_squares(after, side, pos.hoppers[side])
        if safe:
            turns[move] = safe
    return turns


def _safe_hopper_squares(after: Position, side: int, own: int) -> list[int]:
    """The squares for ``side``'s hopper (now on ``own``) after which its king is not attacked.

    With the hopper off the board the enemy's reach is computed once; a hopper only adds
    paths, and a path that uses it first lands on its square as on an empty one, so for
    each square only the enemy pieces that could stop there need a second look."""
    board, king = after.board, after.king(side)
    after.hoppers[side] = -1
    stops: list[tuple[int, int, set[int]]] = []  # (square, piece, empty squares it can stop on)
    for origin, piece in enumerate(board):
        if piece == 0 or colour_of(piece) == side or abs(piece) == KING:
            if piece and colour_of(piece) != side and king in KING_TARGETS[origin]:
                return []  # the enemy king's attack needs no hopper
            continue
        board[origin] = 0
        finals = destinations(after, origin, piece)
        board[origin] = piece
        if any(final == king for final, _ in finals):
            return []  # no square saves the king
        stops.append((origin, piece, {final for final, _ in finals if board[final] == 0}))
    after.hoppers[side] = own
    squares = hopper_squares(after)
    safe = []
    for square in squares:
        after.hoppers[side] = square
        if not any(square in empty and _reaches(after, origin, piece, king) for origin, piece, empty in stops):
            safe.append(square)
    after.hoppers[side] = own
    return safe


def _reaches(pos: Position, origin: int, piece: int, target: int) -> bool:
    board = pos.board
    board[origin] = 0
    try:
        return any(final == target for final, _ in destinations(pos, origin, piece))
    finally:
        board[origin] = piece


def place_hopper(pos: Position, square: int) -> None:
    """End the turn: the hopper to ``square`` (-1: white's first move), the other side to move."""
    if square >= 0:
        pos.hoppers[pos.side] = square
    pos.opening = False
    pos.side = 1 - pos.side


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
        raise ValueError(f"not a square: {text!r}")
    return (int(text[1]) - 1) * 8 + "abcdefgh".index(text[0])
