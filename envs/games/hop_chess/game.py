"""Hop Chess: FIDE chess where each turn also moves the player's hopper, and a piece that
lands on a hopper moves again (docs/games/hop_chess.md; the rules are ``kernels.py``'s).

Squares (index = rank * 8 + file)::

    8 | 56 57 ... 63
    ...
    1 |  0  1 ...  7
         a  b ...  h

A turn is two or three micro-steps: the piece's square, its final square (with the piece
a promotion makes), then the hopper's square (none on white's first move). The state is the
kernels' row; notation, text and the board's pictures are read from it here.
"""

from __future__ import annotations

import re

import numpy as np

from envs.board_view import BoardView, Cell, square_layout
from envs.core import TERMINAL, GameInfo, IllegalActionError, NotationError, lead_returns, turn_text
from envs.games.hop_chess import kernels
from envs.games.hop_chess.kernels import (
    FROM,
    HOPPER,
    NUM_ACTIONS,
    NUM_PLANES,
    TO,
    TO_KINDS,
    in_check,
    position_row,
    row_position,
)
from envs.games.hop_chess.position import (
    BISHOP,
    KING,
    KNIGHT,
    LETTERS,
    PAWN,
    QUEEN,
    ROOK,
    START_FEN,
    WHITE,
    Position,
    colour_of,
    from_fen,
    square_name,
    square_of,
)
from envs.kit import RowGame, RowState, row_field

SEAT_NAMES = ("white", "black")
# the seed's diagrams: white capitals with 'O' for its pawns, black small letters
PIECE_OF_SYMBOL = {"O": PAWN, "p": -PAWN} | {
    symbol: sign * LETTERS.index(symbol.upper())
    for sign, case in ((1, str.upper), (-1, str.lower))
    for symbol in map(case, "NBRQK")
}
FIGURES = ("", "pawn", "knight", "bishop", "rook", "queen", "king")  # the board view's, by abs(piece)
LIGHT, DARK, CHOSEN = "#ebd7b4", "#b4875f", "#f0f078"  # the board view's squares
PIECE_VALUES = (0, 1, 3, 3, 5, 9, 0)  # by abs(piece): none, pawn, knight, bishop, rook, queen, king
END_REASONS = {
    kernels.CHECKMATE: "checkmate",
    kernels.STALEMATE: "stalemate",
    kernels.REPETITION: "threefold repetition",  # docs/games/hop_chess.md: a claim made for the players
    kernels.CLOCK_DRAW: "75 moves without a capture or a pawn move",
    kernels.BARE_KINGS: "bare kings",
}


class HopChessState(RowState):
    """A position as the kernels' row (``kernels.py``'s layout: the board, hoppers, the
    micro-step under way, the end, the positions recorded for repetition); the properties
    read it: ``origin`` the chosen piece's square (-1 at a turn's start), ``player``, ``plies``
    (turns played), ``repeats`` (how often the position at this turn's start has occurred),
    ``recorded`` (the positions recorded since the last capture or pawn move, this turn's
    included)."""

    __slots__ = ()

    origin = row_field(kernels.ORIGIN)
    player = row_field(kernels.PLAYER)
    plies = row_field(kernels.PLIES)
    repeats = row_field(kernels.REPEATS)
    recorded = row_field(kernels.RECORDED)

    @property
    def pos(self) -> Position:
        """The pieces, hoppers, side to move, castling, en passant, clock and opening (a copy)."""
        return row_position(self.row)

    @property
    def move(self) -> tuple[int, int, int] | None:
        """The piece move made, (from, to, promotion), while the hopper is still to place."""
        row = self.row
        if row[kernels.PHASE] != kernels.MOVED:
            return None
        return int(row[kernels.ORIGIN]), int(row[kernels.FINAL]), int(row[kernels.PROMO])

    @property
    def reason(self) -> str:
        """Why the game ended ("" before the end)."""
        end = int(self.row[kernels.END])
        return f"{self.plies} turns" if end == kernels.TURN_CAP else END_REASONS.get(end, "")


class HopChess(RowGame):
    """The rules of Hop Chess (``HopChess-v0``).

    ==============  ==============================================================
    Seats           0 = white (moves first), 1 = black
    Actions         ``Discrete(384)``: 0-63 the square of the piece to move; 64 +
                    64 k + s its final square s (k = 0 also for every move that does
                    not promote; a promotion to queen, knight, bishop, rook is k = 0,
                    1, 2, 3); 320 + s the hopper to square s. The hops between are not
                    actions: every path to the same final square gives the same position
    Observation     ``(23, 8, 8)`` float32, rank 8 at the top, from the mover's view:
                    0-5 the mover's pawns, knights, bishops, rooks, queens, king, 6-11
                    the opponent's, 12 the mover's hopper, 13 the opponent's, 14 the
                    chosen piece, 15 the piece has moved (the hopper is next), 16 the
                    mover is white, 17 the en passant square, 18-21 castling rights
                    (mover's short and long, opponent's short and long), 22 the
                    position has occurred before (once more draws)
    Returns         +1 / -1 checkmate; 0 stalemate, threefold repetition, 75 moves
                    (150 turns) without a capture or pawn move, bare kings, or
                    ``max_turns`` turns
    Symmetries      the identity only (castling is not mirror-symmetric)
    Notation        ``Ng1-f3 e5`` (piece move, then the hopper's square), short forms
                    as in the seed's game (``Nf3 e5``, ``B:f6 e5``, ``e:Q+ f3``,
                    ``Nce2 f3``), ``O-O h3``; white's first turn has no hopper
    Arguments       ``fen`` (a start without hoppers; the standard one by default),
                    ``max_turns`` (default 400)
    ==============  ==============================================================
    """

    def __init__(self, fen: str = START_FEN, max_turns: int = 400):
        if isinstance(max_turns, bool) or not isinstance(max_turns, (int, np.integer)) or max_turns < 1:
            raise ValueError(f"max_turns must be a positive integer, got {max_turns!r}")
        if not isinstance(fen, str):
            raise ValueError(f"fen must be a FEN string, got {fen!r}")
        self.fen, self.max_turns = fen, int(max_turns)
        self.context = kernels.context(self.max_turns)
        start = self.state_at(from_fen(fen)).row  # refuses a position without two kings or a side in check
        info = GameInfo(
            name="hop_chess",
            seat_names=SEAT_NAMES,
            num_actions=NUM_ACTIONS,
            obs_shape=(NUM_PLANES, 8, 8),
            max_decisions=3 * self.max_turns,
            params={"fen": fen, "max_turns": self.max_turns},
        )
        super().__init__(info, self.context, start, kernels.MAX_LEGAL)

    state_class = HopChessState

    # --- transitions: envs.kit.RowGame's over the kernels ----------------------------------------------
    def state_at(self, pos: Position, plies: int = 0) -> HopChessState:
        """A state at the start of a turn in ``pos`` (hoppers where ``pos`` has them)."""
        if pos.board.count(KING) != 1 or pos.board.count(-KING) != 1:
            raise ValueError("a position needs exactly one king a side")
        if in_check(pos, 1 - pos.side):
            raise ValueError(f"{SEAT_NAMES[1 - pos.side]} is in check with {SEAT_NAMES[pos.side]} to move")
        row = position_row(pos, plies)
        kernels.begin_turn(self.context, row)
        return HopChessState(row)

    def to_play(self, state: HopChessState) -> int:
        return int(state.row[kernels.PLAYER])  # read from the row: quicker than a kernel call

    def action_name(self, action: int) -> str:
        if FROM <= action < TO:
            return f"piece on {square_name(action)}"
        if TO <= action < HOPPER:
            return f"to {square_name((action - TO) % 64)}"
        if HOPPER <= action < NUM_ACTIONS:
            return f"hopper to {square_name(action - HOPPER)}"
        return "out of range"

    def illegal_reason(self, state: HopChessState, action: int) -> str:
        if state.move is not None:
            return "the piece has moved: put the hopper on an empty square where the king is then safe"
        pos = state.pos
        if state.origin < 0:
            if not FROM <= action < TO:
                return "choose the square of a piece to move first"
            piece = pos.board[action]
            if piece == 0 or colour_of(piece) != pos.side:
                return f"no {SEAT_NAMES[pos.side]} piece on {square_name(action)}"
            return f"the piece on {square_name(action)} has no legal move"
        if not TO <= action < HOPPER:
            return f"the piece on {square_name(state.origin)} is chosen: name its final square"
        return f"the piece on {square_name(state.origin)} cannot end there (its moves, hops and the king's safety)"

    def heuristic_returns(self, state: HopChessState) -> tuple[float, float]:
        """Material now: white's pieces less black's at the usual values (``PIECE_VALUES``: pawn
        1, knight and bishop 3, rook 5, queen 9; kings and hoppers 0), what chess players and
        engines count first; a lead of a rook is worth 0.76 (``envs.core.lead_returns``). Mate,
        the goal, is left to the search: hops make it come sooner than in chess."""
        return lead_returns(material(state.row[:64].tolist()), PIECE_VALUES[ROOK])

    def outcome_info(self, state: HopChessState) -> dict:
        return {"reason": state.reason}

    def result_text(self, state: HopChessState) -> str:
        return f"{super().result_text(state)} ({state.reason})"

    def goal_text(self, seat: int) -> str:
        return "checkmate the enemy king (hops count)"

    # --- text -----------------------------------------------------------------------------------------
    def action_to_text(self, state: HopChessState, action: int) -> str:
        action = int(action)
        if FROM <= action < TO:
            piece = state.pos.board[action]
            return (LETTERS[abs(piece)] if abs(piece) > PAWN else "") + square_name(action)
        if TO <= action < HOPPER:
            square = (action - TO) % 64
            promo = _promotion(state, action) if state.origin >= 0 and state.move is None else 0
            promo = "=" + LETTERS[promo] if promo else ""
            return (":" if state.pos.board[square] else "-") + square_name(square) + promo
        return square_name(action - HOPPER)

    def format_turn(self, state: HopChessState, actions) -> str:
        """``Ng1-f3 e5``: the piece's square and final square joined, a space, the hopper."""
        state = state.copy()
        words = []
        for action in actions:
            words.append(self.action_to_text(state, action))
            self.apply(state, action)
        if len(words) >= 2:
            words[:2] = [words[0] + words[1]]
        return " ".join(words)

    _SHORT = re.compile(
        r"^(?P<piece>[NBRQK])?(?P<file>[a-h])?(?P<rank>[1-8])?(?P<sep>[-:x])?"
        r"(?P<target>[a-h][1-8]|[PNBRQ])(=?(?P<promo>[NBRQ]))?[+#]*$"
    )
    _LONG = re.compile(r"^(?P<piece>[NBRQK])?(?P<path>[a-h][1-8](?:[-:x][a-h][1-8])+)(=?(?P<promo>[NBRQ]))?[+#]*$")

    def parse_turn(self, state: HopChessState, text: str) -> list[int]:
        """A whole turn at its start (``Nf3 e5``, ``Ng1-f3 e5``, ``Bc8-f5-e4 d2``, ``O-O h3``);
        within a turn, the rest: a final square (``f3``) or the hopper's square."""
        words = turn_text(text).split()
        if state.player == TERMINAL:
            raise IllegalActionError(f"{text!r}: the game is over ({state.reason})")
        actions: list[int] = []
        if state.move is None and state.origin >= 0:
            if not words:
                raise NotationError(f"{text!r}: name the chosen piece's final square")
            target = square_of(words.pop(0).lstrip("-:x").rstrip("+#"))
            actions.append(TO + target)
        elif state.move is None:
            if not words:
                raise NotationError("a turn needs a piece move, e.g. 'Nf3 e5'")
            move = self._read_move(state, words.pop(0))
            actions += [FROM + move[0], _to_action(move)]
        else:
            move = state.move
        scratch = state.copy()
        for action in actions:
            self.apply(scratch, action)
        if scratch.move is not None:
            if not words:
                raise NotationError(f"{text!r}: the turn needs the hopper's square after the piece move")
            actions.append(HOPPER + square_of(words.pop(0).rstrip("+#")))
        if words:
            raise NotationError(f"{text!r}: unexpected {' '.join(words)!r} after the turn")
        return actions

    def legal_moves(self, state: HopChessState) -> list[tuple[int, int, int]]:
        """The legal piece moves (from, to, promotion) at a turn's start, as the rules offer them:
        each piece that can move, then each final square it may choose (OFFERS' promotion bits)."""
        moves = []
        for origin in self.legal_actions(state):
            offers = self.step(state, FROM + origin).row[kernels.OFFERS : kernels.OFFERS + 64].tolist()
            moves += [
                (origin, to, kind)
                for to in range(64)
                for kind in (0, KNIGHT, BISHOP, ROOK, QUEEN)
                if offers[to] >> kind & 1
            ]
        return moves

    def _read_move(self, state: HopChessState, word: str) -> tuple[int, int, int]:
        pos, moves = state.pos, self.legal_moves(state)
        clean = word.replace("0", "O").rstrip("+#")
        if clean in ("O-O", "O-O-O"):
            home = 4 if pos.side == WHITE else 60
            target = home + (2 if clean == "O-O" else -2)
            found = [m for m in moves if m[:2] == (home, target) and abs(pos.board[home]) == KING]
            return _one(found, word)
        long, short = self._LONG.match(word), self._SHORT.match(word)
        if long:
            squares = [square_of(s) for s in re.split(r"[-:x]", long["path"])]
            kind = LETTERS.index(long["piece"]) if long["piece"] else PAWN
            promo = LETTERS.index(long["promo"]) if long["promo"] else 0
            found = [
                m
                for m in moves
                if m[:2] == (squares[0], squares[-1]) and abs(pos.board[m[0]]) == kind and _promo_fits(m, promo)
            ]
            return _one(found, word)
        if not short:
            raise NotationError(
                f"cannot read Hop Chess move {word!r}: expected e.g. 'Nf3', 'B:f6', 'e:d4', 'Ng1-f3', 'O-O'"
            )
        kind = LETTERS.index(short["piece"]) if short["piece"] else PAWN
        promo = LETTERS.index(short["promo"]) if short["promo"] else 0
        target = short["target"]
        found = []
        for move in moves:
            origin, final, _ = move
            if abs(pos.board[origin]) != kind or not _promo_fits(move, promo):
                continue
            if short["file"] and "abcdefgh"[origin % 8] != short["file"]:
                continue
            if short["rank"] and str(origin // 8 + 1) != short["rank"]:
                continue
            captured = pos.board[final]
            if len(target) == 2:
                if final != square_of(target):
                    continue
            elif captured == 0 or LETTERS[abs(captured)] != target:
                continue
            if short["sep"] in (":", "x") and captured == 0 and not (kind == PAWN and final == pos.ep):
                continue
            found.append(move)
        return _one(found, word)

    def render_text(self, state: HopChessState) -> str:
        """The seed's diagram: pieces as letters (white capitals), ``O`` white pawns, ``@``
        white's hopper, ``#`` black's."""
        pos, lines = state.pos, []
        for rank in range(7, -1, -1):
            row = [_symbol(pos, rank * 8 + file) for file in range(8)]
            lines.append(" ".join(row) + f"  {rank + 1}")
        lines.append("a b c d e f g h")
        if state.player == TERMINAL:
            lines.append(self.result_text(state))
        else:
            lines.append(f"{SEAT_NAMES[state.player]} to move")
        return "\n".join(lines)

    def board_view(self, state: HopChessState) -> BoardView:
        """The board as vector data (``envs.board_view``), rank 8 at the top: a piece is its chess
        figure in its colour (``Cell.piece``: ``knight``, ...), a hopper the ``hopper`` figure in
        its colour (tagged ``hopper``); the squares chosen so far in the turn (the piece's, its
        final square) are marked and tagged ``chosen``. A click on a square offers what the
        turn's next micro-step may do there: pick the piece, end the piece's move (each
        promotion where there are several), put the hopper."""
        pos = state.pos
        layout = square_layout([str(r) for r in range(8, 0, -1)], list("abcdefgh"))
        chosen = ([state.origin] if state.origin >= 0 else []) + ([state.move[1]] if state.move is not None else [])
        legal = set(self.legal_actions(state))
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
                owner, figure = SEAT_NAMES[colour_of(piece)], FIGURES[abs(piece)]
            elif square in pos.hoppers:
                owner, figure, tags = SEAT_NAMES[pos.hoppers.index(square)], "hopper", ("hopper",)
            else:
                owner, figure = "", ""
            ground = CHOSEN if square in chosen else (LIGHT if (rank + file) % 2 else DARK)
            tags += ("chosen",) if square in chosen else ()
            cells.append(Cell(square, square_name(square), x, y, "square", actions, owner, ground, "", tags, figure))
        notes = []
        if state.player >= 0:
            step = "the hopper's square" if state.move is not None else "the piece's final square"
            step = step if state.origin >= 0 else "a piece to move"
            notes.append(f"{SEAT_NAMES[state.player]} to move: choose {step}")
        return BoardView(layout.width, layout.height, tuple(cells), (), layout.labels, (), tuple(notes))

    def from_diagram(self, diagram: str, to_move: str = "white") -> HopChessState:
        """A state from a diagram in the seed's style (``render_text`` reads back): castling
        rights where king and rook stand at home, no en passant, past white's first move."""
        symbols = self.read_diagram(diagram)
        if to_move not in SEAT_NAMES:
            raise NotationError(f"to_move must be 'white' or 'black', got {to_move!r}")
        pos = Position()
        for square, symbol in enumerate(symbols):
            if symbol in "@#":
                pos.hoppers["@#".index(symbol)] = square
            elif symbol != ".":
                if symbol not in PIECE_OF_SYMBOL:
                    raise NotationError(f"diagram: unexpected {symbol!r} (white pawns are 'O', black 'p')")
                pos.board[square] = PIECE_OF_SYMBOL[symbol]
        homes = ((4, 7, 1), (4, 0, 2), (60, 63, 4), (60, 56, 8))  # king, rook, right
        sign = {4: 1, 60: -1}
        pos.castling = sum(
            bit
            for king, rook, bit in homes
            if pos.board[king] == sign[king] * KING and pos.board[rook] == sign[king] * ROOK
        )
        pos.side, pos.opening = SEAT_NAMES.index(to_move), False
        return self.state_at(pos)

    def read_diagram(self, diagram: str) -> list[str]:
        """The 64 symbols of a diagram in the seed's style (rank 8 first), index = rank * 8 + file."""
        rows = [line.split()[:8] for line in diagram.strip().splitlines()]
        rows = [row for row in rows if len(row) == 8]
        if len(rows) != 8:
            raise NotationError(f"a diagram needs 8 ranks of 8 squares, got {len(rows)}")
        return [rows[7 - rank][file] for rank in range(8) for file in range(8)]

    def symbols(self, state: HopChessState) -> list[str]:
        return [_symbol(state.pos, s) for s in range(64)]


def _symbol(pos: Position, square: int) -> str:
    piece = pos.board[square]
    if piece:
        letter = "O" if piece == PAWN else LETTERS[abs(piece)]
        return letter if piece > 0 else letter.lower()
    if square == pos.hoppers[0]:
        return "@"
    if square == pos.hoppers[1]:
        return "#"
    return "."


def _promotion(state: HopChessState, action: int) -> int:
    """The promotion a legal to-action names for the chosen piece (k = 0: none, or a queen's
    where that is the only move to the square), 0 for an illegal one."""
    if not kernels.offered(state.row, action):
        return 0
    kind, square = divmod(action - TO, 64)
    return TO_KINDS[kind] if kind or not state.row[kernels.OFFERS + square] & 1 else 0


def _to_action(move: tuple[int, int, int]) -> int:
    origin, final, promo = move
    return TO + 64 * (TO_KINDS.index(promo) if promo else 0) + final


def _promo_fits(move, promo: int) -> bool:
    """A written promotion must match; an unwritten one is a queen."""
    return move[2] == promo or (promo == 0 and move[2] in (0, QUEEN))


def _one(found: list, word: str):
    if not found:
        raise IllegalActionError(f"{word!r} is not a legal move here")
    if len(found) > 1:
        options = ", ".join(f"{square_name(m[0])}-{square_name(m[1])}" for m in found)
        raise NotationError(f"{word!r} is ambiguous: {options}")
    return found[0]


def material(board) -> int:
    """White's pieces less black's at ``PIECE_VALUES`` (``board``: signed pieces, white's positive)."""
    return sum(PIECE_VALUES[piece] if piece > 0 else -PIECE_VALUES[-piece] for piece in board)
