"""Hop Chess's rules, written once, in numba over one flat int32 row: the state of
``HopChess`` (``game.py``) and the rows of ``envs.compiled`` (``legal``, ``apply``,
``to_play``, ``returns``, ``playout``, ``observe``), so the engine, the random playout and
the search driver play the same code (docs/games/hop_chess.md).

The rules: the hops of :func:`_destinations` (each hopper once, a queen on a hopper keeps
its line, a pawn promoted on one moves on as the new piece, a queen orthogonally), attacks
through hoppers (:func:`_attacked`), castling (:func:`_castles`, never across a hopper),
:func:`_make_move`, the king's safety after the hopper step (:func:`_safe_squares`: the
enemy's reach without the mover's hopper, then for each square only the pieces that could
stop there), and at each turn's start (:func:`begin_turn`) the pieces that can move, the
position recorded for repetition and the ends: mate and stalemate, the third occurrence of a
position (FIDE art. 9.2.2: the same pieces, hoppers, side to move, castling rights and en
passant capture, the square counting only where a pawn of the mover can take there), 150
turns without a capture or pawn move, bare kings and the turn cap.

A row (``WIDTH`` entries)::

    0..63    the board (index rank * 8 + file; +1..+6 white pawn..king, negative black, 0 empty)
    64, 65   white's and black's hopper (-1: off the board)
    66..71   SIDE (to move), CASTLING (bits K Q k q), EP (-1 none), CLOCK (turns since a capture
             or pawn move), OPENING (white's first move, without a hopper, still to come), PLIES
             (turns played)
    72..75   PHASE (START: a piece to choose, CHOSEN: its final square, MOVED: the hopper's
             square), ORIGIN (the chosen square), FINAL and PROMO (the piece move made)
    76..79   PLAYER (SIDE, or envs.core.TERMINAL), END (why the game ended: NO_END ...
             TURN_CAP), REPEATS (occurrences of this turn's position), RECORDED (positions
             recorded since the last capture or pawn move, this turn's included)
    80..143  OFFERS: the micro-step's options by square: 1 for a piece that can move (START), its
             legal promotions as bits 1 << promotion, 0 for none (CHOSEN), 1 for a safe hopper
             square (MOVED)
    144..    the recorded positions, KEY_WORDS entries each (:func:`_pack`)

Actions: 0-63 the piece's square, 64 + 64 k + s its final square s (k = 0: no promotion, or a
queen's where that is the only move there; 1, 2, 3: knight, bishop, rook), 320 + s the hopper.
"""

from __future__ import annotations

from collections import namedtuple
from functools import cache

import numpy as np
from numba import njit

from envs.compiled import register
from envs.core import TERMINAL
from envs.games.hop_chess.position import BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK, Position
from envs.row_playout import random_play
from envs.stones.board import neighbour_table, ray_table

# --- the row --------------------------------------------------------------------------------------
HOPPERS, SIDE, CASTLING, EP, CLOCK, OPENING, PLIES = 64, 66, 67, 68, 69, 70, 71
PHASE, ORIGIN, FINAL, PROMO, PLAYER, END, REPEATS, RECORDED = 72, 73, 74, 75, 76, 77, 78, 79
OFFERS, KEYS = 80, 144
START, CHOSEN, MOVED = 0, 1, 2  # PHASE
NO_END, CHECKMATE, STALEMATE, REPETITION, CLOCK_DRAW, BARE_KINGS, TURN_CAP = range(7)  # END
KEY_WORDS = 9  # a recorded position: the board in 8 words of 4-bit squares, then the rest in one
MOST_KEYS = 151  # the clock draws at 150 turns: at most 151 positions since the last capture or pawn move
WIDTH = KEYS + MOST_KEYS * KEY_WORDS
FROM, TO, HOPPER = 0, 64, 320  # the actions' ranges
NUM_ACTIONS = HOPPER + 64
MAX_LEGAL = 4 * 64  # the most a micro-step offers: a piece's final squares with 4 promotions each
TO_KINDS = (QUEEN, KNIGHT, BISHOP, ROOK)  # TO + 64 k + square: k names the promotion (0 also: none)
PROMOTION_BITS = (1 << QUEEN) | (1 << KNIGHT) | (1 << BISHOP) | (1 << ROOK)  # a pawn reaching the last rank
ALONG, ACROSS = 1, 2  # a piece's lines as bits: orthogonal, diagonal
NUM_PLANES = 23
RIGHTS_OF = np.zeros(64, np.int64)  # the castling rights lost by a move from or to a square
RIGHTS_OF[[0, 4, 7, 56, 60, 63]] = 2, 3, 1, 8, 12, 4
ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))  # (rank step, file step)
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))
KNIGHT_STEPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))

HopChessContext = namedtuple(
    "HopChessContext",
    ["params", "knight", "king", "rays", "reach", "stack", "stops", "pieces", "found", "mine", "after", "legal"],
)


def context(max_turns: int) -> HopChessContext:
    """The rules' constants (``params``: the turn cap; the knight's and the king's targets and
    the rays, 8 directions, the orthogonal ones first, of 7 squares, padded with -1) and scratch
    room."""
    knight, king = np.full((64, 8), -1, np.int64), np.full((64, 8), -1, np.int64)
    rays = np.full((64, 8, 7), -1, np.int64)
    tables = (
        neighbour_table(8, KNIGHT_STEPS),
        neighbour_table(8, ORTHOGONAL + DIAGONAL),
        ray_table(8, ORTHOGONAL + DIAGONAL),
    )
    for square, (jumps, steps, lines) in enumerate(zip(*tables)):
        knight[square, : len(jumps)], king[square, : len(steps)] = jumps, steps
        for d, ray in enumerate(lines):
            rays[square, d, : len(ray)] = ray
    return HopChessContext(
        np.array([max_turns], np.int64),
        knight,
        king,
        rays,
        np.zeros(64, np.int32),  # a piece's destinations (a square set: bit 1 << promotion)
        np.empty((64, 5), np.int64),  # the hops still to follow
        np.empty((64, 64), np.uint8),  # each enemy piece's empty stops
        np.empty(64, np.int64),  # the enemy pieces
        np.empty(64, np.int64),  # hopper squares found
        np.zeros(64, np.int32),  # the mover's piece's destinations
        np.empty(64, np.int32),  # the board after a move
        np.zeros(64, np.int32),  # a piece's legal final squares (a square set)
    )


# --- the registered functions (envs.compiled) --------------------------------------------------------
@njit(cache=True)
def offered(row, action):
    """Whether ``action`` is legal at ``row``: what the micro-step's OFFERS hold for it."""
    if row[PLAYER] == TERMINAL:
        return False
    phase = row[PHASE]
    if phase == START:
        return FROM <= action < TO and row[OFFERS + action - FROM] != 0
    if phase == MOVED:
        return HOPPER <= action < NUM_ACTIONS and row[OFFERS + action - HOPPER] != 0
    if not TO <= action < HOPPER:
        return False
    k, square = divmod(action - TO, 64)
    bits = (1 | (1 << QUEEN)) if k == 0 else 1 << TO_KINDS[k]
    return row[OFFERS + square] & bits != 0


@njit(cache=True)
def legal(context, row, out):
    """The legal actions into ``out``, increasing; their count."""
    base = FROM if row[PHASE] == START else TO if row[PHASE] == CHOSEN else HOPPER
    count = 0
    for action in range(base, base + (HOPPER - TO if row[PHASE] == CHOSEN else 64)):
        if offered(row, action):
            out[count] = action
            count += 1
    return count


@njit(cache=True)
def apply(context, row, action):
    """Play the legal ``action``: choose the piece (its legal final squares into OFFERS), make
    its move (the safe hopper squares into OFFERS; on white's first move the turn ends), or put
    the hopper; a turn's end begins the next one (:func:`begin_turn`)."""
    board, hoppers, offers = row[:64], row[HOPPERS : HOPPERS + 2], row[OFFERS : OFFERS + 64]
    side, castling, ep, clock, opening = row[SIDE], row[CASTLING], row[EP], row[CLOCK], row[OPENING]
    phase = row[PHASE]
    if phase == START:
        row[ORIGIN] = action - FROM
        _movable(board, hoppers, side, castling, ep, clock, opening, action - FROM, offers, False, context)
        row[PHASE] = CHOSEN
        return
    if phase == CHOSEN:
        k, final = divmod(action - TO, 64)
        promo = TO_KINDS[k] if k else (0 if offers[final] & 1 else QUEEN)  # the least: no promotion
        row[CASTLING], row[EP], row[CLOCK] = _make_move(board, hoppers, castling, ep, clock, row[ORIGIN], final, promo)
        row[FINAL], row[PROMO] = final, promo
        if not opening:
            found = context.found
            offers[:] = 0
            for i in range(_safe_squares(board, hoppers, side, row[EP], False, found, context)):
                offers[found[i]] = 1
            row[PHASE] = MOVED
            return
    else:
        hoppers[side] = action - HOPPER
    row[OPENING] = 0
    row[SIDE] = 1 - side
    row[PLIES] += 1
    begin_turn(context, row)


@njit(cache=True)
def to_play(context, row):
    return row[PLAYER]


@njit(cache=True)
def returns(context, row, out):
    """+1 / -1 for a mate (the side to move is mated), else zeros."""
    out[:] = 0.0
    if row[END] == CHECKMATE:
        out[1 - row[SIDE]], out[row[SIDE]] = 1.0, -1.0


@njit(cache=True)
def playout(context, row, seed, out):
    """The returns of ``envs.row_playout.random_play`` from a copy of ``row`` to the end."""
    final = row.copy()
    random_play(context, final, seed, -1, np.empty(MAX_LEGAL, np.int64))
    returns(context, final, out)


@njit(cache=True)
def observe(context, row, out):
    """``HopChess.observe``: float32 ``(23, 8, 8)``, rank 8 at the top, from the mover's view
    (the class docstring's planes)."""
    out[:] = 0.0
    mover = row[SIDE]
    for square in range(64):
        piece, rank, file = row[square], 7 - square // 8, square % 8
        if piece:
            out[abs(piece) - 1 + (0 if (piece > 0) == (mover == 0) else 6), rank, file] = 1.0
    for k in range(2):  # the mover's hopper, then the opponent's
        hopper = row[HOPPERS + (mover + k) % 2]
        if hopper >= 0:
            out[12 + k, 7 - hopper // 8, hopper % 8] = 1.0
    if row[ORIGIN] >= 0:
        out[14, 7 - row[ORIGIN] // 8, row[ORIGIN] % 8] = 1.0
    out[15] = 1.0 if row[PHASE] == MOVED else 0.0
    out[16] = 1.0 if mover == 0 else 0.0
    if row[EP] >= 0:
        out[17, 7 - row[EP] // 8, row[EP] % 8] = 1.0
    for plane in range(4):  # the mover's short and long castling, the opponent's
        bit = 1 << ((plane + (0 if mover == 0 else 2)) % 4)
        out[18 + plane] = 1.0 if row[CASTLING] & bit else 0.0
    out[22] = 1.0 if row[REPEATS] > 1 else 0.0


# --- turns ----------------------------------------------------------------------------------------
@njit(cache=True)
def begin_turn(context, row):
    """``SIDE``'s turn begins: the pieces that can move into OFFERS, the position recorded
    (the record restarts after a capture or pawn move: no earlier position can come back) and
    counted, and the game's end where one has come."""
    board, hoppers, offers = row[:64], row[HOPPERS : HOPPERS + 2], row[OFFERS : OFFERS + 64]
    side, castling, ep, clock, opening = row[SIDE], row[CASTLING], row[EP], row[CLOCK], row[OPENING]
    row[PHASE], row[ORIGIN], row[FINAL], row[PROMO] = START, -1, -1, 0
    sign = 1 if side == 0 else -1
    count = 0
    for square in range(64):
        offers[square] = 0
        if board[square] * sign > 0:
            if _movable(board, hoppers, side, castling, ep, clock, opening, square, context.legal, True, context):
                offers[square] = 1
                count += 1
    recorded = row[RECORDED] if clock > 0 else 0
    key = row[KEYS + recorded * KEY_WORDS : KEYS + (recorded + 1) * KEY_WORDS]
    _pack(row, _en_passant_key(board, hoppers, side, castling, ep, clock, opening, context), key)
    repeats = 1
    for k in range(recorded):
        same = True
        for i in range(KEY_WORDS):
            if row[KEYS + k * KEY_WORDS + i] != key[i]:
                same = False
                break
        repeats += same
    row[RECORDED], row[REPEATS] = recorded + 1, repeats
    end = NO_END
    if count == 0:
        end = CHECKMATE if _attacked(board, hoppers, ep, _king(board, side), 1 - side, context) else STALEMATE
    elif repeats >= 3:
        end = REPETITION
    elif clock >= 150:
        end = CLOCK_DRAW
    elif _bare_kings(board):
        end = BARE_KINGS
    elif row[PLIES] >= context.params[0]:
        end = TURN_CAP
    row[END] = end
    row[PLAYER] = side if end == NO_END else TERMINAL
    if end != NO_END:
        offers[:] = 0


@njit(cache=True)
def _pack(row, en_passant, key):
    """The position at a turn's start as KEY_WORDS numbers: the board 8 squares a word (the
    piece + 6 in 4 bits), then the hoppers, side, castling rights, ``en_passant`` and opening."""
    for word in range(8):
        value = np.int64(0)
        for i in range(8):
            value |= np.int64(row[8 * word + i] + 6) << (4 * i)
        key[word] = np.int32(value - (1 << 32) if value >= 1 << 31 else value)
    rest = row[HOPPERS] + 1 + 65 * (row[HOPPERS + 1] + 1)
    key[8] = rest + 65 * 65 * (row[SIDE] + 2 * (row[CASTLING] + 16 * (en_passant + 1 + 65 * row[OPENING])))


@njit(cache=True)
def _en_passant_key(board, hoppers, side, castling, ep, clock, opening, context):
    """The repetition key's en passant square: ``ep`` where a legal move of a pawn of the mover
    ends there, else -1."""
    if ep < 0:
        return -1
    pawn = PAWN if side == 0 else -PAWN
    for origin in range(64):
        if board[origin] == pawn:
            _movable(board, hoppers, side, castling, ep, clock, opening, origin, context.legal, False, context)
            if context.legal[ep]:
                return ep
    return -1


@njit(cache=True)
def _movable(board, hoppers, side, castling, ep, clock, opening, origin, legal, first_only, context):
    """Whether the piece on ``origin`` has a legal move (``first_only``), or every one of them
    into ``legal`` (the square set of its final squares), castling included."""
    mine = context.mine
    piece = board[origin]
    board[origin] = 0
    _destinations(board, hoppers[0], hoppers[1], ep, origin, piece, context)
    board[origin] = piece
    mine[:] = context.reach
    legal[:] = 0
    found = False
    for final in range(64):
        if mine[final]:
            for promo in (0, 2, 3, 4, 5):
                if mine[final] & (1 << promo) and _is_legal(
                    board, hoppers, side, castling, ep, clock, opening, origin, final, promo, context
                ):
                    legal[final] |= 1 << promo
                    found = True
                    if first_only:
                        return True
    if abs(piece) == KING:
        for final in _castles(board, hoppers, side, castling, ep, context):
            if final >= 0 and _is_legal(board, hoppers, side, castling, ep, clock, opening, origin, final, 0, context):
                legal[final] |= 1
                found = True
                if first_only:
                    return True
    return found


@njit(cache=True)
def _is_legal(board, hoppers, side, castling, ep, clock, opening, origin, final, promo, context):
    """Whether the king is safe after the move (on white's first move) or after some hopper square."""
    count = _hopper_squares_after(
        board, hoppers, side, castling, ep, clock, opening, origin, final, promo, True, context.found, context
    )
    return count > 0


@njit(cache=True)
def _hopper_squares_after(
    board, hoppers, side, castling, ep, clock, opening, origin, final, promo, first_only, squares, context
):
    """For one piece move: the hopper squares after which the king is safe, into ``squares``
    (-1 alone on white's first move, when the king is safe), and their count (``first_only``:
    1 at the first); 0 when the move is illegal."""
    after = context.after
    after[:] = board
    _, after_ep, _ = _make_move(after, hoppers, castling, ep, clock, origin, final, promo)
    if opening:
        if _attacked(after, hoppers, after_ep, _king(after, side), 1 - side, context):
            return 0
        squares[0] = -1
        return 1
    return _safe_squares(after, hoppers, side, after_ep, first_only, squares, context)


@njit(cache=True)
def _safe_squares(board, hoppers, side, ep, first_only, squares, context):
    """After the piece move (``board``): the squares for the mover's hopper (an empty square
    without the other hopper, or where it stands) after which his king is not attacked,
    increasing, into ``squares``; their count (``first_only``: 1 at the first).

    With the hopper off the board the enemy's reach is computed once; a hopper only adds
    paths, and a path that uses it first lands on its square as on an empty one, so for
    each square only the enemy pieces that could stop there need a second look."""
    king_targets, out, stops, pieces = context.king, context.reach, context.stops, context.pieces
    king = _king(board, side)
    own, other = hoppers[side], hoppers[1 - side]
    h0, h1 = (-1, other) if side == 0 else (other, -1)  # the mover's hopper off the board
    n = 0
    for origin in range(64):
        piece = board[origin]
        if piece == 0 or (piece > 0) == (side == 0):
            continue
        if abs(piece) == KING:
            for k in range(8):
                if king_targets[origin, k] == king:
                    return 0  # the enemy king's attack needs no hopper
            continue
        board[origin] = 0
        _destinations(board, h0, h1, ep, origin, piece, context)
        board[origin] = piece
        if out[king]:
            return 0  # no square saves the king
        pieces[n] = origin
        for s in range(64):
            stops[n, s] = out[s] != 0 and board[s] == 0
        n += 1
    count = 0
    for s in range(64):
        if s != own and (board[s] != 0 or s == other):
            continue
        if side == 0:
            h0 = s
        else:
            h1 = s
        safe = True
        for j in range(n):
            if stops[j, s]:
                origin = pieces[j]
                piece = board[origin]
                board[origin] = 0
                _destinations(board, h0, h1, ep, origin, piece, context)
                board[origin] = piece
                if out[king]:
                    safe = False
                    break
        if safe:
            squares[count] = s
            count += 1
            if first_only:
                return count
    return count


# --- piece moves ----------------------------------------------------------------------------------
@njit(cache=True)
def _castles(board, hoppers, side, castling, ep, context):
    """The king's final squares of the castlings it may try, short and long (-1: not): the
    right kept, king and rook at home, the squares between empty and without a hopper, the
    king not in check nor crossing an attacked square."""
    home = 0 if side == 0 else 56
    sign = 1 if side == 0 else -1
    short = long = -1
    if board[home + 4] != sign * KING:
        return short, long
    for right in range(2):
        bit = (1 if right == 0 else 2) << (0 if side == 0 else 2)
        if not castling & bit:
            continue
        first, last, rook, crossed = (5, 6, 7, 5) if right == 0 else (1, 3, 0, 3)
        clear = True
        for s in range(home + first, home + last + 1):
            if board[s] or s == hoppers[0] or s == hoppers[1]:  # nor castle across a hopper
                clear = False
        if not clear or board[home + rook] != sign * ROOK:
            continue
        if _attacked(board, hoppers, ep, home + 4, 1 - side, context):
            continue
        if _attacked(board, hoppers, ep, home + crossed, 1 - side, context):
            continue
        if right == 0:
            short = home + 6
        else:
            long = home + 2
    return short, long


@njit(cache=True)
def _attacked(board, hoppers, ep, square, by, context):
    """Whether a piece of ``by`` could capture on ``square`` (hops included); an empty
    ``square`` is treated as holding a piece of the other side."""
    king_targets, out = context.king, context.reach
    saved = board[square]
    if saved == 0:
        board[square] = KING if by == 1 else -KING  # something to capture
    found = False
    for origin in range(64):
        piece = board[origin]
        if piece == 0 or (piece > 0) != (by == 0) or origin == square:
            continue
        if abs(piece) == KING:
            for k in range(8):
                if king_targets[origin, k] == square:
                    found = True
            if found:
                break
            continue
        board[origin] = 0
        _destinations(board, hoppers[0], hoppers[1], ep, origin, piece, context)
        board[origin] = piece
        if out[square]:
            found = True
            break
    board[square] = saved
    return found


@njit(cache=True)
def _destinations(board, h0, h1, ep, start, piece, context):
    """Every (final square, promotion) of ``piece`` moving from ``start`` (``board[start]``
    empty), hops included, before the king-safety test, as the square set ``context.reach``.
    A king never lands on a hopper; every other piece that does moves on (each hopper once)."""
    knight, king, rays, out, stack = context.knight, context.king, context.rays, context.reach, context.stack
    out[:] = 0
    sign = 1 if piece > 0 else -1
    kind = abs(piece)
    if kind == KING:
        for k in range(8):
            target = king[start, k]
            if target >= 0 and target != h0 and target != h1 and board[target] * sign <= 0:
                out[target] = 1
        return
    stack[0, 0], stack[0, 1], stack[0, 2], stack[0, 3], stack[0, 4] = start, kind, _lines(kind), 0, 0
    top = 1
    while top > 0:  # the piece on ``square`` moves (as ``kind`` along ``lines``), the hoppers ``used`` used
        top -= 1
        square, kind, lines, used, promoted = stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3], stack[top, 4]
        if kind == PAWN:
            top = _pawn(board, h0, h1, ep, start, sign, square, used, out, stack, top)
        elif kind == KNIGHT:
            for k in range(8):
                target = knight[square, k]
                if target >= 0:
                    _, top = _land(board, h0, h1, target, start, sign, kind, lines, used, promoted, out, stack, top)
        else:
            for d in range(8):
                line = ALONG if d < 4 else ACROSS
                if not lines & line:
                    continue
                for i in range(7):
                    target = rays[square, d, i]
                    if target < 0:
                        break
                    along = line if kind == QUEEN else lines  # a queen on a hopper keeps its line
                    go_on, top = _land(board, h0, h1, target, start, sign, kind, along, used, promoted, out, stack, top)
                    if not go_on:
                        break


@njit(cache=True)
def _lines(kind):
    return ACROSS if kind == BISHOP else ALONG if kind == ROOK else ALONG | ACROSS if kind == QUEEN else 0


@njit(cache=True)
def _push(stack, top, square, kind, lines, used, promoted):
    stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3], stack[top, 4] = square, kind, lines, used, promoted
    return top + 1


@njit(cache=True)
def _land(board, h0, h1, square, start, sign, kind, lines, used, promoted, out, stack, top):
    """The piece arrives on ``square``: hop (pieces move over hoppers), stop (an empty square,
    never its start, or a capture), or be blocked; (whether a slider goes on, top)."""
    hopper = 1 if square == h0 else 2 if square == h1 else 0
    if hopper:
        if not used & hopper:
            top = _push(stack, top, square, kind, lines, used | hopper, promoted)
        return True, top
    occupant = board[square]
    if occupant == 0:
        if square != start:
            out[square] |= 1 << promoted
        return True, top
    if occupant * sign < 0:
        out[square] |= 1 << promoted
    return False, top


@njit(cache=True)
def _pawn(board, h0, h1, ep, start, sign, square, used, out, stack, top):
    """The pawn on ``square`` steps, double-steps (from home, before any hop), captures (en
    passant only without a hop), promotes (on a hopper on the last rank: the new piece moves
    on, a queen orthogonally)."""
    step = 8 * sign
    last = 7 if sign > 0 else 0
    forward = square + step
    if not 0 <= forward < 64:
        return top
    hopper = 1 if forward == h0 else 2 if forward == h1 else 0
    if board[forward] == 0 and not (hopper and used & hopper):
        if forward // 8 == last:
            for kind in TO_KINDS:
                if hopper:
                    lines = ALONG if kind == QUEEN else _lines(kind)
                    top = _push(stack, top, forward, kind, lines, used | hopper, kind)
                elif forward != start:
                    out[forward] |= 1 << kind
        elif hopper:
            top = _push(stack, top, forward, PAWN, 0, used | hopper, 0)
        elif forward != start:
            out[forward] |= 1
        home = 1 if sign > 0 else 6
        if not used and square // 8 == home:
            double = forward + step
            if board[double] == 0:
                hopper = 1 if double == h0 else 2 if double == h1 else 0
                if hopper:
                    top = _push(stack, top, double, PAWN, 0, hopper, 0)
                else:
                    out[double] |= 1
    file = square % 8
    for df in (-1, 1):
        if not 0 <= file + df < 8:
            continue
        target = forward + df
        occupant = board[target]
        en_passant = not used and target == ep and occupant == 0 and target != h0 and target != h1
        if occupant * sign < 0 or en_passant:
            out[target] |= PROMOTION_BITS if target // 8 == last else 1
    return top


@njit(cache=True)
def _make_move(board, hoppers, castling, ep, clock, origin, target, promo):
    """The piece part of a turn on ``board`` (the hopper stays): the new (castling, en passant,
    clock). A double step across a hopper is a step onto it and on: no en passant."""
    piece = board[origin]
    kind, sign = abs(piece), (1 if piece > 0 else -1)
    capture = board[target] != 0
    board[origin] = 0
    if kind == PAWN and target == ep and not capture and (target - origin) % 8 != 0:
        board[target - 8 * sign] = 0  # en passant
        capture = True
    if kind == KING and abs(target - origin) == 2:  # castling: the rook comes round
        rook_from, rook_to = (origin + 3, origin + 1) if target > origin else (origin - 4, origin - 1)
        board[rook_to] = board[rook_from]
        board[rook_from] = 0
    board[target] = sign * promo if promo else piece
    skipped = (origin + target) // 2
    double = kind == PAWN and abs(target - origin) == 16 and skipped != hoppers[0] and skipped != hoppers[1]
    ep = skipped if double else -1
    clock = 0 if capture or kind == PAWN else clock + 1
    castling &= ~(RIGHTS_OF[origin] | RIGHTS_OF[target])
    return castling, ep, clock


@njit(cache=True)
def _king(board, side):
    target = KING if side == 0 else -KING
    for square in range(64):
        if board[square] == target:
            return square
    return -1


@njit(cache=True)
def _bare_kings(board):
    for piece in board:
        if piece != 0 and abs(piece) != KING:
            return False
    return True


# --- from Python: rows and positions --------------------------------------------------------------
@cache
def _scratch() -> HopChessContext:
    return context(1)


def position_row(pos: Position, plies: int = 0) -> np.ndarray:
    """A row at the start of a turn in ``pos`` before :func:`begin_turn` (nothing recorded)."""
    row = np.zeros(WIDTH, np.int32)
    row[:64], row[HOPPERS : HOPPERS + 2] = pos.board, pos.hoppers
    row[SIDE : PLIES + 1] = pos.side, pos.castling, pos.ep, pos.clock, pos.opening, plies
    return row


def row_position(row: np.ndarray) -> Position:
    """The ``Position`` of a row (a copy)."""
    values = row[: OPENING + 1].tolist()
    pos = Position.__new__(Position)
    pos.board, pos.hoppers = values[:64], values[HOPPERS : HOPPERS + 2]
    pos.side, pos.castling, pos.ep, pos.clock = values[SIDE:OPENING]
    pos.opening = bool(values[OPENING])
    return pos


def in_check(pos: Position, colour: int) -> bool:
    """Whether a piece of the other side could capture ``colour``'s king (hops included)."""
    row = position_row(pos)
    board = row[:64]
    return bool(_attacked(board, row[HOPPERS : HOPPERS + 2], pos.ep, _king(board, colour), 1 - colour, _scratch()))


register(HopChessContext, legal=legal, apply=apply, to_play=to_play, returns=returns, playout=playout, observe=observe)
