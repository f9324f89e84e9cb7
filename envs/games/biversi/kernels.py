"""Biversi's rules in numba: its placements (``BiversiRules.options`` and ``play`` call them) and,
over a flat int32 row, its turns, which the random playout and the search driver
(``envs.compiled``, ``Biversi.compiled()``) run.

Flanking runs through Reversi's kernels on the board's 3 x 3 tiling, as the engine's
(``envs.games.biversi.torus``), kept up to date cell by cell instead of tiled afresh; the
sections are a union-find over the torus's 8-neighbourhood, kept as stones are added (stones
are never taken off, so groups only merge).

A row holds the board (``cells`` entries, ``PIECE`` values), the scalars ``PLAYER, TURN,
MOVES_LEFT, PASSES, MOVES, OUTCOME, PLACED`` (``ScheduledState``'s; ``OUTCOME`` -1 while the
game runs, else the index of its returns in ``envs.kernels.OUTCOME_RETURNS``; ``PLACED`` how
many cells this turn has placed on), those cells (``most`` entries, the schedule's largest
count), then the turn's origins (``ScheduledState.origins``: the mover's stones at the turn's
start) as bits, 31 cells a word. The context is a :class:`BiversiContext`: ``params`` int64
``[n, must_flank, most]``, the schedule's counts, the torus's neighbours and tiling, and scratch
room. The turns are ``ScheduledGame``'s with Biversi's rules: a turn holds the schedule's count
of placements, ends early when the mover has no placement left, and a seat with no placement
at the start of its turn passes (``PASS``, ``cells``) while the other has one; when neither has,
more stones wins. :func:`play` draws one ``envs.kernels.draw`` a decision over :func:`legal`'s
actions (the placements in increasing cell order, or the forced PASS alone), the game
``Game.engine_playout`` plays for the same seed.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from envs.compiled import register
from envs.core import TERMINAL
from envs.kernels import EMPTY, draw, find
from envs.stones.flanking import captures, captures_any, count_winner

PLAYER, TURN, MOVES_LEFT, PASSES, MOVES, OUTCOME, PLACED = range(7)  # after the board
SCALARS = 7
RUNNING = -1  # ``OUTCOME`` while the game goes on
N, MUST_FLANK, MOST = range(3)  # params
CELLS_A_WORD = 31  # origin bits in an int32, the sign bit unused
BiversiContext = namedtuple(
    "BiversiContext",
    ["params", "schedule", "neighbours", "torus_of", "centre", "tiled", "parent", "roots", "flipped", "moves", "copy"],
)


def context(n: int, must_flank: bool, schedule: np.ndarray, width: int) -> BiversiContext:
    """The kernels' constants and scratch room (``schedule``: ``TurnSchedule.counts``; ``width``:
    the rows')."""
    from envs.games.biversi.torus import tiling, torus_neighbours

    torus_of, centre = tiling(n)
    most = int(schedule.max())
    return BiversiContext(
        np.array([n, must_flank, most], np.int64),
        np.ascontiguousarray(schedule, np.int64),
        torus_neighbours(n),
        torus_of,
        centre,
        np.empty(len(torus_of), np.uint8),
        np.empty(n * n, np.int64),
        np.empty(most + 1, np.int64),
        np.empty(8 * n, np.int64),
        np.empty(n * n + 1, np.int64),
        np.empty(width, np.int32),
    )


def origin_words(cells: int) -> int:
    return -(-cells // CELLS_A_WORD)


# --- the row's turns ---------------------------------------------------------------------------
@njit(cache=True)
def legal(context, row, out):
    """``ScheduledGame.legal_actions`` into ``out[:count]``; the count (0 at the end)."""
    return _turn_options(context, row, _load(context, row), out)


@njit(cache=True)
def apply(context, row, action):
    """``ScheduledGame.apply`` for a legal ``action``."""
    _move(context, row, _load(context, row), action, context.moves)


@njit(cache=True)
def to_play(context, row):
    cells = context.params[N] ** 2
    return row[cells + PLAYER] if row[cells + OUTCOME] == RUNNING else TERMINAL


@njit(cache=True)
def returns(context, row, out):
    """+1 / -1 for more stones at the end, zeros for a draw or before the end."""
    won = row[context.params[N] ** 2 + OUTCOME]
    out[0] = out[1] = 0.0
    if won > 0:
        out[won - 1], out[2 - won] = 1.0, -1.0


@njit(cache=True)
def play(context, row, seed):
    """``(outcome, decisions, turns)`` of a random game from ``row`` (played on in place), as
    ``Game.engine_playout`` counts them: ``outcome`` 0 a draw, 1 or 2 the winning seat + 1."""
    cells = context.params[N] ** 2
    meta, moves = row[cells : cells + SCALARS], context.moves
    groups = _load(context, row)
    count = _turn_options(context, row, groups, moves)
    decisions = turns = 0
    while meta[OUTCOME] == RUNNING:
        index, seed = draw(seed, count)
        mover = meta[PLAYER]
        groups, count = _move(context, row, groups, moves[index], moves)
        decisions += 1
        turns += meta[OUTCOME] != RUNNING or meta[PLAYER] != mover
    return meta[OUTCOME], decisions, turns


@njit(cache=True)
def playout(context, row, seed, out):
    """The returns of :func:`play` from ``row`` (left untouched) into ``out``."""
    copy = context.copy
    copy[:] = row
    play(context, copy, seed)
    returns(context, copy, out)


@njit(cache=True)
def observe(context, row, out):
    """``ScheduledGame.observe`` with Biversi's planes into ``out`` (``[8, n, n]``): the mover's
    and the rival stones, the sections apart, the mover is x, the move's cells (none: a placement
    is one step), the placements left / the most a turn holds, the mover's stones (the turn's
    possible origins, unrestricted) and this turn's placements."""
    params = context.params
    cells = params[N] ** 2
    board, meta = row[:cells], row[cells : cells + SCALARS]
    seat = meta[PLAYER] if meta[OUTCOME] == RUNNING else 0
    apart = _load(context, row) >= 2
    flat = out.reshape(out.shape[0], cells)
    flat[:] = 0.0
    for cell in range(cells):
        if board[cell] == 1 + seat:
            flat[0, cell] = flat[6, cell] = 1.0
        elif board[cell] == 2 - seat:
            flat[1, cell] = 1.0
    flat[2, :] = 1.0 if apart else 0.0
    flat[3, :] = float(seat)
    flat[5, :] = meta[MOVES_LEFT] / params[MOST]
    for i in range(meta[PLACED]):
        flat[7, row[cells + SCALARS + i]] = 1.0


@njit(cache=True)
def _load(context, row):
    """The tiling and the sections' union-find of the row's board into the context's scratch
    room; the number of sections."""
    cells = context.params[N] ** 2
    board = row[:cells]
    _tile_into(board, context.torus_of, context.tiled)
    return _sections_into(board, context.neighbours, context.parent)


@njit(cache=True)
def _turn_options(context, row, groups, out):
    """``ScheduledGame.legal_actions`` of a loaded row (:func:`_load`): the placements, else at a
    turn's start the forced PASS while the other seat can place; none at the end."""
    params = context.params
    n = params[N]
    cells = n * n
    meta = row[cells : cells + SCALARS]
    if meta[OUTCOME] != RUNNING:
        return 0
    board, placed = row[:cells], row[cells + SCALARS : cells + SCALARS + params[MOST]]
    tiled, parent, neighbours, centre, roots = (
        context.tiled,
        context.parent,
        context.neighbours,
        context.centre,
        context.roots,
    )
    colour, count, must_flank = 1 + meta[PLAYER], meta[PLACED], params[MUST_FLANK]
    found = _options(board, tiled, n, must_flank, colour, placed, count, groups, parent, neighbours, centre, roots, out)
    if found == 0 and count == 0:
        if _options(board, tiled, n, must_flank, 3 - colour, placed, 0, groups, parent, neighbours, centre, roots, out):
            out[0] = cells  # PASS
            return 1
    return found


@njit(cache=True)
def _move(context, row, groups, action, out):
    """``ScheduledGame.apply`` on a loaded row: a placement with its flips, the turn over when its
    quota is filled or it has no placement left, or the forced pass. ``(sections, count)``: the
    legal actions after it are in ``out[:count]``."""
    params = context.params
    n = params[N]
    cells = n * n
    board, meta = row[:cells], row[cells : cells + SCALARS]
    seat = meta[PLAYER]
    if action == cells:  # PASS
        return groups, _end_turn(context, row, groups, seat, out)
    colour = 1 + seat
    tiled, flipped, torus_of = context.tiled, context.flipped, context.torus_of
    for i in range(captures(tiled, 3 * n, context.centre[action], colour, flipped)):
        _set(board, tiled, n, torus_of[flipped[i]], colour)
    _set(board, tiled, n, action, colour)
    groups += 1 - _join(board, context.parent, context.neighbours, action)
    row[cells + SCALARS + meta[PLACED]] = action
    meta[PLACED] += 1
    meta[MOVES] += 1
    meta[MOVES_LEFT] -= 1
    # the turn's origins stay: its placements flip rival stones only, never the mover's
    if meta[MOVES_LEFT] > 0:
        found = _turn_options(context, row, groups, out)
        if found:
            return groups, found
    return groups, _end_turn(context, row, groups, seat, out)


@njit(cache=True)
def _end_turn(context, row, groups, seat, out):
    """``ScheduledGame._end_turn`` and ``_start_turn``: the other seat's turn, or the end where
    neither can place; the count of its legal actions in ``out``. (Two passed turns in a row
    cannot come: a pass is forced only while the other seat can place.)"""
    params = context.params
    cells = params[N] ** 2
    board, meta = row[:cells], row[cells : cells + SCALARS]
    meta[PASSES] = 0 if meta[PLACED] else meta[PASSES] + 1
    turn, schedule = meta[TURN] + 1, context.schedule
    meta[PLAYER], meta[TURN], meta[PLACED] = 1 - seat, turn, 0
    meta[MOVES_LEFT] = schedule[min(turn, len(schedule) - 1)]
    row[cells + SCALARS : cells + SCALARS + params[MOST]] = 0  # no placements yet: one row a position
    origins = row[cells + SCALARS + params[MOST] :]
    origins[:] = 0
    for cell in range(cells):
        if board[cell] == 2 - seat:  # the new mover's stone
            origins[cell // CELLS_A_WORD] |= 1 << (cell % CELLS_A_WORD)
    found = _turn_options(context, row, groups, out)
    if found == 0:
        meta[OUTCOME] = count_winner(board)
    return found


# --- placements (the engine's and the row's) ---------------------------------------------------
@njit(cache=True)
def legal_cells(board, n, must_flank, colour, placed_now, neighbours, torus_of, centre):
    """The cells (int64, in increasing order) a ``colour`` stone may go on in a turn that has
    placed on ``placed_now``: ``BiversiRules.options``, by the rows' own ``_options``."""
    tiled = np.empty(len(torus_of), np.uint8)
    _tile_into(board, torus_of, tiled)
    parent = np.empty(n * n, np.int64)
    groups = _sections_into(board, neighbours, parent)
    count = len(placed_now)
    placed = np.empty(max(count, 1), np.int64)
    placed[:count] = placed_now
    roots = np.empty(len(placed), np.int64)
    out = np.empty(n * n, np.int64)
    found = _options(board, tiled, n, must_flank, colour, placed, count, groups, parent, neighbours, centre, roots, out)
    return out[:found]


@njit(cache=True)
def place(board, n, cell, colour, torus_of, centre):
    """Put a ``colour`` stone on the empty ``cell`` and flip every line of rival stones it flanks
    on the torus (``BiversiRules.play``), as the rows' placements do."""
    flipped = np.empty(8 * n, np.int64)  # at most n - 2 stones in each of the 8 directions
    tiled = np.empty(len(torus_of), np.uint8)
    _tile_into(board, torus_of, tiled)
    for i in range(captures(tiled, 3 * n, centre[cell], colour, flipped)):
        board[torus_of[flipped[i]]] = colour  # the antipode, on both diagonals, is set twice
    board[cell] = colour


@njit(cache=True)
def section_count(board, neighbours):
    """The number of sections (8-connected groups of stones on the torus) on ``board``."""
    return _sections_into(board, neighbours, np.empty(len(board), np.int64))


@njit(cache=True)
def _tile_into(board, torus_of, tiled):
    """The board's 3 x 3 tiling into ``tiled`` (uint8), for Reversi's flanking kernels."""
    for i in range(len(torus_of)):
        tiled[i] = board[torus_of[i]]


@njit(cache=True)
def _sections_into(board, neighbours, parent):
    """The union-find of ``board``'s sections into ``parent``; their number."""
    groups = 0
    for cell in range(len(board)):
        parent[cell] = cell
    for cell in range(len(board)):
        if board[cell] != EMPTY:
            groups += 1 - _join(board, parent, neighbours, cell)
    return groups


@njit(cache=True)
def _options(board, tiled, n, must_flank, colour, placed, count, groups, parent, neighbours, centre, roots, out):
    """Write the cells a ``colour`` stone may go on (``BiversiRules.options``), in order, into
    ``out``; return their count. While the sections are apart and the turn has placed, a cell
    must touch a section that none of the turn's ``count`` placements is in."""
    apart = groups >= 2 and count > 0
    for i in range(count):
        roots[i] = find(parent, placed[i])
    found = 0
    for cell in range(n * n):
        if board[cell] != EMPTY:
            continue
        if must_flank:
            if not captures_any(tiled, 3 * n, centre[cell], colour):
                continue
        elif not _touches(board, neighbours, cell):
            continue
        if apart and not _touches_open_section(board, parent, neighbours, cell, roots, count):
            continue
        out[found] = cell
        found += 1
    return found


@njit(cache=True)
def _touches(board, neighbours, cell):
    for k in range(neighbours.shape[1]):
        if board[neighbours[cell, k]] != EMPTY:
            return True
    return False


@njit(cache=True)
def _touches_open_section(board, parent, neighbours, cell, roots, count):
    """Whether a neighbour of ``cell`` is a stone of a section none of ``roots[:count]`` is."""
    for k in range(neighbours.shape[1]):
        other = neighbours[cell, k]
        if board[other] == EMPTY:
            continue
        root = find(parent, other)
        touched = False
        for i in range(count):
            if roots[i] == root:
                touched = True
                break
        if not touched:
            return True
    return False


@njit(cache=True)
def _join(board, parent, neighbours, cell):
    """Union the stone on ``cell`` with the stones next to it; the number of sets merged into it."""
    merged = 0
    for k in range(neighbours.shape[1]):
        other = neighbours[cell, k]
        if board[other] != EMPTY:
            a, b = find(parent, cell), find(parent, other)
            if a != b:
                parent[a] = b
                merged += 1
    return merged


@njit(cache=True)
def _set(board, tiled, n, cell, value):
    """Put ``value`` on the torus ``cell`` and on its 9 copies in the tiling."""
    board[cell] = value
    r, c, big = cell // n, cell % n, 3 * n
    for i in range(3):
        for j in range(3):
            tiled[(r + i * n) * big + c + j * n] = value


register(BiversiContext, legal=legal, apply=apply, to_play=to_play, returns=returns, playout=playout, observe=observe)
