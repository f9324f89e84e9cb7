"""Hop Chess's random playout in one numba kernel (``HopChess.random_playout``), and the
engine's legal turns compiled from the same rules (``legal_turns``).

It plays the game the engine loop plays for the same seed (``Game.engine_playout``): one
``envs.kernels.draw`` per decision over the legal micro-steps in the engine's order (the
squares of the pieces with a legal move, increasing; the chosen piece's final squares by
action, so the moves without promotion or to a queen first, then the knight's, bishop's and
rook's promotions, each by square; the safe hopper squares, increasing), from any position, a
turn begun included. The rules are ``moves.py``'s, step for step: the hops of
``destinations`` (each hopper once, a queen on a hopper keeps its line, a pawn promoted on one
moves on as the new piece, a queen orthogonally), ``make_piece_move``, ``_castles`` and the
king's safety of ``_safe_hopper_squares`` (the enemy's reach without the mover's hopper, then
for each square only the pieces that could stop there). ``HopChess._start_turn``'s ends follow:
mate and stalemate, the third occurrence of a position (the repetition key of
``_record_position``, en passant square included only where a pawn of the mover can take
there), 150 turns without a capture or pawn move, bare kings and the turn cap.

A square set is a uint8 per square with bit ``1 << promotion`` (0 for none) set for each
(final square, promotion) the engine's set holds; a set's order never matters, only the
engine's sorting of the actions.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import njit

from envs.games.hop_chess.moves import (
    _RIGHTS_OF,
    DIAGONAL,
    KING,
    KING_TARGETS,
    KNIGHT,
    KNIGHT_TARGETS,
    ORTHOGONAL,
    PAWN,
    QUEEN,
    RAYS,
)
from envs.kernels import CUT, draw

START, CHOSEN, MOVED = 0, 1, 2  # the micro-step the turn is at: a piece to choose, its final square, the hopper
ALONG, ACROSS = 1, 2  # a piece's lines as bits: orthogonal, diagonal (``moves.LINES``)
PROMOTION_BITS = (1 << 5) | (1 << 2) | (1 << 3) | (1 << 4)  # a pawn reaching the last rank: Q, N, B, R
RIGHTS_OF = np.array(
    [_RIGHTS_OF.get(square, 0) for square in range(64)], dtype=np.int64
)  # the engine's table, by square
KEY_SIZE = 70  # the repetition key: board, both hoppers, side, castling, en passant, opening


@cache
def tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``moves.KNIGHT_TARGETS``, ``KING_TARGETS`` (64, 8) and the rays of ``moves.RAYS``
    (64, 8 directions: the orthogonal ones, then the diagonal, 7 squares), padded with -1."""
    knight = np.full((64, 8), -1, np.int64)
    king = np.full((64, 8), -1, np.int64)
    rays = np.full((64, 8, 7), -1, np.int64)
    for square in range(64):
        knight[square, : len(KNIGHT_TARGETS[square])] = KNIGHT_TARGETS[square]
        king[square, : len(KING_TARGETS[square])] = KING_TARGETS[square]
        for d, ray in enumerate(RAYS[ORTHOGONAL][square] + RAYS[DIAGONAL][square]):
            rays[square, d, : len(ray)] = ray
    return knight, king, rays


def key_row(key: tuple) -> np.ndarray:
    """``HopChess._record_position``'s key as the kernel's row of int8."""
    board, hoppers, side, castling, ep, opening = key
    return np.array([*board, *hoppers, side, castling, ep, opening], np.int8)


@njit(cache=True)
def playout(board, position, hops, history, max_turns, tables, seed, cut, cut_board):
    """``(outcome, decisions, turns)`` of a random game from a position (not over), as
    ``Game.engine_playout`` counts them: ``outcome`` 0 a draw, 1 or 2 the winning seat + 1;
    ``CUT`` once ``cut`` turns have ended (-1: never), the board then in ``cut_board``.
    ``board``: ``Position.board`` (int8); ``position``: (white's hopper, black's, side,
    castling, en passant, clock, opening, turns played, micro-step, chosen square); ``hops``:
    the hopper squares of the move made (micro-step ``MOVED``); ``history``: the repetition
    keys since the last capture or pawn move (``HopChessState.seen``, this turn's included)."""
    work = _work(tables)
    board = board.copy()
    hoppers = position[0:2].copy()
    side, castling, ep, clock, opening = position[2], position[3], position[4], position[5], position[6]
    plies, phase, origin = position[7], position[8], position[9]
    keys = np.empty((len(history) + 152, KEY_SIZE), np.int8)  # the clock draws within 150 turns
    hashes = np.empty(len(keys), np.int64)
    count_keys = len(history)
    for k in range(count_keys):
        keys[k] = history[k]
        hashes[k] = _hash(keys[k])
    options = np.empty(256, np.int64)
    squares = np.empty(64, np.int64)
    legal = np.zeros(64, np.uint8)
    hop_count = len(hops)
    squares[:hop_count] = hops
    decisions = played = 0
    fresh = False  # the turn at hand began here (else in the engine: recorded, and not over)
    while True:
        if played == cut and not fresh:  # cut = 0: the position given, whatever its micro-step
            cut_board[:] = board
            return CUT, decisions, played
        if phase == START:
            sign = 1 if side == 0 else -1
            count = 0
            for square in range(64):
                if board[square] * sign > 0:
                    if _movable(board, hoppers, side, castling, ep, clock, opening, square, legal, True, work):
                        options[count] = square
                        count += 1
            if fresh:
                if count == 0:
                    if _attacked(board, hoppers, ep, _king(board, side), 1 - side, work):
                        return 2 - side, decisions, played  # checkmate: the other side wins
                    return 0, decisions, played  # stalemate
                if clock == 0:  # a capture or pawn move: no earlier position can come back
                    count_keys = 0
                row = keys[count_keys]
                en_passant = _en_passant_key(board, hoppers, side, castling, ep, clock, opening, legal, work)
                _key(board, hoppers, side, castling, en_passant, opening, row)
                hashes[count_keys] = _hash(row)
                repeats = 1
                for k in range(count_keys):
                    if hashes[k] == hashes[count_keys] and np.all(keys[k] == row):
                        repeats += 1
                count_keys += 1
                if repeats >= 3 or clock >= 150 or _bare_kings(board) or plies >= max_turns:
                    return 0, decisions, played
                if played == cut:  # the game goes on: the heuristic scores the board
                    cut_board[:] = board
                    return CUT, decisions, played
            index, seed = draw(seed, count)
            origin = options[index]
            decisions += 1
            phase = CHOSEN
            continue
        if phase == CHOSEN:
            _movable(board, hoppers, side, castling, ep, clock, opening, origin, legal, False, work)
            count = 0
            for k in range(4):  # the to-actions' order: 64 k + square, k by ``game.TO_KINDS``
                bits = (1 | (1 << QUEEN)) if k == 0 else 1 << _TO_KINDS[k]
                for square in range(64):
                    if legal[square] & bits:
                        options[count] = 64 * k + square
                        count += 1
            index, seed = draw(seed, count)
            final, k = options[index] % 64, options[index] // 64
            promo = _TO_KINDS[k] if k else (0 if legal[final] & 1 else QUEEN)  # ``game._move_of``: the least
            decisions += 1
            castling, ep, clock = _make_move(board, hoppers, castling, ep, clock, origin, final, promo)
            if not opening:
                hop_count = _safe_squares(board, hoppers, side, ep, False, squares, work)
                phase = MOVED
                continue
            square = -1  # white's first move: no hopper
        else:
            index, seed = draw(seed, hop_count)
            square = squares[index]
            decisions += 1
        if square >= 0:  # ``moves.place_hopper``, ``HopChess._end_turn``
            hoppers[side] = square
        opening = 0
        side = 1 - side
        plies += 1
        played += 1
        phase, fresh = START, True


_TO_KINDS = (0, KNIGHT, 3, 4)  # ``game.TO_KINDS`` past k = 0: knight, bishop, rook
MOST_MOVES = 16 * 64 * 4 + 2  # a bound on a side's piece moves: 16 pieces, 64 squares, 4 promotions, 2 castles


@njit(cache=True)
def _work(tables):
    """The scratch arrays the rules below share (``work[k]``)."""
    knight, king, rays = tables
    return (
        knight,
        king,
        rays,
        np.zeros(64, np.uint8),  # a piece's destinations
        np.empty((64, 5), np.int64),  # the hops still to follow
        np.empty((64, 64), np.uint8),  # each enemy piece's empty stops
        np.empty(64, np.int64),  # the enemy pieces
        np.empty(64, np.int64),  # hopper squares found
        np.zeros(64, np.uint8),  # the mover's piece's destinations
        np.empty(64, np.int8),  # the position after a move
    )


@njit(cache=True)
def legal_turns(board, hoppers, side, castling, ep, clock, opening, tables):
    """``moves.legal_turns`` compiled, in its order: ``(moves, starts, squares)``, the legal
    (from, to, promotion) piece moves (n, 3), and for move k its safe hopper squares
    ``squares[starts[k]:starts[k + 1]]`` (-1 alone on white's first move). ``board`` is
    ``Position.board`` as int8, left as it was."""
    work = _work(tables)
    moves = np.empty((MOST_MOVES, 3), np.int64)
    starts = np.empty(MOST_MOVES + 1, np.int64)
    squares = np.empty(4096, np.int8)  # grown as needed: most turns hold far fewer
    found = np.empty(64, np.int64)
    mine = work[8]
    sign = 1 if side == 0 else -1
    n = total = starts[0] = 0
    for source in range(64 + 2):  # every piece's destinations by (square, promotion), then the castles
        if source < 64:
            origin, piece = source, board[source]
            if piece * sign <= 0:
                continue
            board[origin] = 0
            _destinations(board, hoppers[0], hoppers[1], ep, origin, piece, work)
            board[origin] = piece
            mine[:] = work[3]
        else:
            origin, final = _king(board, side), _castles(board, hoppers, side, castling, ep, work)[source - 64]
            if final < 0:
                continue
            mine[:] = 0
            mine[final] = 1
        for final in range(64):
            for promo in (0, 2, 3, 4, 5):
                if not mine[final] & (1 << promo):
                    continue
                count = _hopper_squares_after(
                    board, hoppers, side, castling, ep, clock, opening, origin, final, promo, False, found, work
                )
                if count == 0:
                    continue
                moves[n, 0], moves[n, 1], moves[n, 2] = origin, final, promo
                if total + count > len(squares):
                    grown = np.empty(2 * len(squares), np.int8)
                    grown[:total] = squares[:total]
                    squares = grown
                squares[total : total + count] = found[:count]
                total += count
                n += 1
                starts[n] = total
    return moves[:n].copy(), starts[: n + 1].copy(), squares[:total].copy()


@njit(cache=True)
def _movable(board, hoppers, side, castling, ep, clock, opening, origin, legal, first_only, work):
    """Whether the piece on ``origin`` has a legal move (``first_only``), or every one of them
    into ``legal`` (the square set of its final squares), castling included."""
    mine = work[8]
    piece = board[origin]
    board[origin] = 0
    _destinations(board, hoppers[0], hoppers[1], ep, origin, piece, work)
    board[origin] = piece
    mine[:] = work[3]
    legal[:] = 0
    found = False
    for final in range(64):
        if mine[final]:
            for promo in (0, 2, 3, 4, 5):
                if mine[final] & (1 << promo) and _is_legal(
                    board, hoppers, side, castling, ep, clock, opening, origin, final, promo, work
                ):
                    legal[final] |= 1 << promo
                    found = True
                    if first_only:
                        return True
    if abs(piece) == KING:
        for final in _castles(board, hoppers, side, castling, ep, work):
            if final >= 0 and _is_legal(board, hoppers, side, castling, ep, clock, opening, origin, final, 0, work):
                legal[final] |= 1
                found = True
                if first_only:
                    return True
    return found


@njit(cache=True)
def _castles(board, hoppers, side, castling, ep, work):
    """``moves._castles``: the king's final squares of the castlings it may try (-1: not)."""
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
        if not clear or board[home + rook] != sign * 4:
            continue
        if _attacked(board, hoppers, ep, home + 4, 1 - side, work):
            continue
        if _attacked(board, hoppers, ep, home + crossed, 1 - side, work):
            continue
        if right == 0:
            short = home + 6
        else:
            long = home + 2
    return short, long


@njit(cache=True)
def _is_legal(board, hoppers, side, castling, ep, clock, opening, origin, final, promo, work):
    """``moves.legal_turns``: whether the king is safe after the move (on white's first move)
    or after some hopper square."""
    return (
        _hopper_squares_after(
            board, hoppers, side, castling, ep, clock, opening, origin, final, promo, True, work[7], work
        )
        > 0
    )


@njit(cache=True)
def _hopper_squares_after(
    board, hoppers, side, castling, ep, clock, opening, origin, final, promo, first_only, squares, work
):
    """``moves.legal_turns`` for one piece move: the hopper squares after which the king is
    safe, into ``squares`` (-1 alone on white's first move, when the king is safe), and their
    count (``first_only``: 1 at the first); 0 when the move is illegal."""
    after = work[9]
    after[:] = board
    _, after_ep, _ = _make_move(after, hoppers, castling, ep, clock, origin, final, promo)
    if opening:
        if _attacked(after, hoppers, after_ep, _king(after, side), 1 - side, work):
            return 0
        squares[0] = -1
        return 1
    return _safe_squares(after, hoppers, side, after_ep, first_only, squares, work)


@njit(cache=True)
def _safe_squares(board, hoppers, side, ep, first_only, squares, work):
    """``moves._safe_hopper_squares`` after the piece move (``board``): the squares for the
    mover's hopper after which his king is not attacked, increasing, into ``squares``; their
    count (``first_only``: 1 at the first)."""
    king_targets, out, stops, pieces = work[1], work[3], work[5], work[6]
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
        _destinations(board, h0, h1, ep, origin, piece, work)
        board[origin] = piece
        if out[king]:
            return 0  # no square saves the king
        pieces[n] = origin
        for s in range(64):
            stops[n, s] = out[s] != 0 and board[s] == 0
        n += 1
    count = 0
    for s in range(64):
        if s != own and (board[s] != 0 or s == other):  # ``moves.hopper_squares``
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
                _destinations(board, h0, h1, ep, origin, piece, work)
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


@njit(cache=True)
def _attacked(board, hoppers, ep, square, by, work):
    """``moves.attacked``: whether a piece of ``by`` could capture on ``square``."""
    king_targets, out = work[1], work[3]
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
        _destinations(board, hoppers[0], hoppers[1], ep, origin, piece, work)
        board[origin] = piece
        if out[square]:
            found = True
            break
    board[square] = saved
    return found


@njit(cache=True)
def _destinations(board, h0, h1, ep, start, piece, work):
    """``moves.destinations``: every (final square, promotion) of ``piece`` moving from
    ``start`` (``board[start]`` empty), hops included, as the square set ``work[3]``."""
    knight, king, rays, out, stack = work[0], work[1], work[2], work[3], work[4]
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
                    go_on, top = _land(
                        board,
                        h0,
                        h1,
                        target,
                        start,
                        sign,
                        kind,
                        line if kind == QUEEN else lines,
                        used,
                        promoted,
                        out,
                        stack,
                        top,
                    )
                    if not go_on:
                        break


@njit(cache=True)
def _lines(kind):
    return ACROSS if kind == 3 else ALONG if kind == 4 else ALONG | ACROSS if kind == QUEEN else 0


@njit(cache=True)
def _push(stack, top, square, kind, lines, used, promoted):
    stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3], stack[top, 4] = square, kind, lines, used, promoted
    return top + 1


@njit(cache=True)
def _land(board, h0, h1, square, start, sign, kind, lines, used, promoted, out, stack, top):
    """``moves._land``: hop, stop or be blocked on ``square``; (whether a slider goes on, top)."""
    hopper = 1 if square == h0 else 2 if square == h1 else 0
    if hopper:
        if not used & hopper:
            top = _push(stack, top, square, kind, lines, used | hopper, promoted)
        return True, top  # pieces move over hoppers
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
    """``moves._pawn``: the pawn on ``square`` steps, double-steps, captures, promotes."""
    step = 8 * sign
    last = 7 if sign > 0 else 0
    forward = square + step
    if not 0 <= forward < 64:
        return top
    hopper = 1 if forward == h0 else 2 if forward == h1 else 0
    if board[forward] == 0 and not (hopper and used & hopper):
        if forward // 8 == last:
            for kind in (QUEEN, KNIGHT, 3, 4):
                if hopper:  # promotion on a hopper: the new piece moves on (a queen orthogonally)
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
    """``moves.make_piece_move`` on ``board``: the new (castling, en passant, clock)."""
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
    ep = skipped if double else -1  # a double step across a hopper is a step onto it and on
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


@njit(cache=True)
def _en_passant_key(board, hoppers, side, castling, ep, clock, opening, legal, work):
    """``HopChess._record_position``'s en passant square: ``ep`` where a legal move of a pawn
    of the mover ends there, else -1."""
    if ep < 0:
        return -1
    pawn = PAWN if side == 0 else -PAWN
    for origin in range(64):
        if board[origin] == pawn:
            _movable(board, hoppers, side, castling, ep, clock, opening, origin, legal, False, work)
            if legal[ep]:
                return ep
    return -1


@njit(cache=True)
def _key(board, hoppers, side, castling, ep, opening, row):
    row[:64] = board
    row[64], row[65], row[66], row[67], row[68], row[69] = hoppers[0], hoppers[1], side, castling, ep, opening


@njit(cache=True)
def _hash(row):
    h = np.int64(0)
    for value in row:
        h = h * 1000003 + value
    return h
