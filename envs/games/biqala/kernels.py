"""Biqala's rules, written once, in numba over a flat int32 row: the engine
(``envs.kit.RowGame``: the state is the row), the random playouts, the compiled search driver
and the batched env run them (docs/games/biqala.md).

The board is a 6 x 4 grid: an outer ring of 16 cells round an inner ring of 8.
A owns the capitals (top half), B the small letters; index = row * 6 + column::

    row 0 |  K  J  I  H  G  F      0  1  2  3  4  5     A's outer board
    row 1 |  L [D  C  B  A] E      6  7  8  9 10 11     A's inner board [ ]
    row 2 |  e [a  b  c  d] l     12 13 14 15 16 17     B's inner board [ ]
    row 3 |  f  g  h  i  j  k     18 19 20 21 22 23     B's outer board

Both rings are sown counterclockwise: outer e f g ... k l E F ... K L, inner
a b c d A B C D. Actions: 0-23 sow the cell, 24-47 begin a transfer from the
cell, 48-71 put one more stone of the transfer on the cell, 72 end the transfer.

A row holds the board (24 cells' stones), the two stores, then ``PLAYER`` (a seat or
``TERMINAL``), ``SOURCE`` (the transfer under way's source, or -1), ``IDLE`` (turns since the
last capture or transfer) and ``TURNS``. The context is a :class:`BiqalaContext`: ``params``
int64 ``[total, idle_limit, max_turns]``, the board as arrays (:func:`tables`) and scratch
room. The legal actions: the mover's non-empty cells in increasing order to sow, then the same
cells to begin a transfer; only the feeding sows when the opponent's side is empty; in a
transfer under way the source's partners in ``PARTNERS`` order, then the end. A sow skips the
emptied cell on every lap and takes the 2s and 3s back from its last cell unless that would
take every stone the opponent has (the grand slam); a transfer's first stone goes to the
opponent's store, and the turn is over when the source is empty. The game ends when a store
holds more than half the stones, after ``idle_limit`` turns without a capture or transfer, after
``max_turns`` turns, or when the mover has no legal move; each player then takes the stones on
his own cells. :func:`play` draws one ``envs.kernels.draw`` a decision over :func:`legal`'s
actions, as ``envs.row_playout.random_play`` does.
"""

from __future__ import annotations

from collections import namedtuple
from functools import cache

import numpy as np
from numba import njit

from envs.compiled import register
from envs.core import TERMINAL
from envs.kernels import draw

ROWS, COLS = 4, 6
NUM_CELLS = ROWS * COLS
LETTERS = "KJIHGFLDCBAEeabcdlfghijk"  # the cell's letter, by index
CELL_OF = {letter: cell for cell, letter in enumerate(LETTERS)}
OUTER_RING = tuple(CELL_OF[x] for x in "efghijklEFGHIJKL")
INNER_RING = tuple(CELL_OF[x] for x in "abcdABCD")
RING_OF = tuple(OUTER_RING if cell in OUTER_RING else INNER_RING for cell in range(NUM_CELLS))
OWNER = tuple(0 if letter.isupper() else 1 for letter in LETTERS)
SEAT_CELLS = tuple(tuple(c for c in range(NUM_CELLS) if OWNER[c] == seat) for seat in (0, 1))
SOW, TRANSFER, PUT, END = 0, NUM_CELLS, 2 * NUM_CELLS, 3 * NUM_CELLS
NUM_ACTIONS = END + 1
NUM_PLANES = 9


def _partners(cell: int) -> tuple[int, ...]:
    """The owner's cells of the other ring that touch ``cell`` (at a side or a corner)."""
    row, col = divmod(cell, COLS)
    near = [
        (r * COLS + c)
        for r in range(row - 1, row + 2)
        for c in range(col - 1, col + 2)
        if 0 <= r < ROWS and 0 <= c < COLS and (r, c) != (row, col)
    ]
    return tuple(c for c in near if OWNER[c] == OWNER[cell] and RING_OF[c] is not RING_OF[cell])


PARTNERS = tuple(_partners(cell) for cell in range(NUM_CELLS))

STORES, PLAYER, SOURCE, IDLE, TURNS = NUM_CELLS, NUM_CELLS + 2, NUM_CELLS + 3, NUM_CELLS + 4, NUM_CELLS + 5
WIDTH = NUM_CELLS + 6
TOTAL, IDLE_LIMIT, MAX_TURNS = range(3)  # params
BiqalaContext = namedtuple(
    "BiqalaContext",
    ["params", "rings", "lengths", "ring_of", "place", "owner", "partners", "seat_cells"]
    + ["options", "captured", "moves", "copy"],
)


@cache
def tables() -> tuple[np.ndarray, ...]:
    """The board as arrays: ``rings`` (2, 16; the outer ring, then the inner, padded
    with -1), each ring's length, each cell's ring (0 outer, 1 inner) and place in it, its
    owner, its ``PARTNERS`` (24, 4; padded with -1) and each seat's cells (2, 12)."""
    rings = np.full((2, len(OUTER_RING)), -1, np.int64)
    rings[0, : len(OUTER_RING)] = OUTER_RING
    rings[1, : len(INNER_RING)] = INNER_RING
    lengths = np.array([len(OUTER_RING), len(INNER_RING)], np.int64)
    ring_of = np.array([0 if RING_OF[c] is OUTER_RING else 1 for c in range(NUM_CELLS)], np.int64)
    place = np.array([RING_OF[c].index(c) for c in range(NUM_CELLS)], np.int64)
    partners = np.full((NUM_CELLS, max(len(p) for p in PARTNERS)), -1, np.int64)
    for cell, cells in enumerate(PARTNERS):
        partners[cell, : len(cells)] = cells
    return rings, lengths, ring_of, place, np.array(OWNER, np.int64), partners, np.array(SEAT_CELLS, np.int64)


@njit(cache=True, inline="always")
def legal(context, row, out):
    """The legal actions (module docstring) into ``out[:count]``; the count (0 at the end)."""
    player, source = row[PLAYER], row[SOURCE]
    if player == TERMINAL:
        return 0
    if source >= 0:  # a transfer under way: a partner of the source, or the end
        partners = context.partners
        count = 0
        while count < partners.shape[1] and partners[source, count] >= 0:
            out[count] = PUT + partners[source, count]
            count += 1
        out[count] = END
        return count + 1
    rings, lengths, ring_of, place, owner = (
        context.rings,
        context.lengths,
        context.ring_of,
        context.place,
        context.owner,
    )
    return _options(row[:NUM_CELLS], player, rings, lengths, ring_of, place, owner, context.seat_cells, out)


@njit(cache=True, inline="always")
def apply(context, row, action):
    """Play the legal ``action``: a sow with its captures, a transfer begun (its
    first stone to the opponent's store), a stone of it put, or its end; then the turn's end
    where the turn is over."""
    board, stores, player = row[:NUM_CELLS], row[NUM_CELLS : NUM_CELLS + 2], row[PLAYER]
    if action < TRANSFER:
        taken = _sow(
            board,
            action,
            context.rings,
            context.lengths,
            context.ring_of,
            context.place,
            context.owner,
            context.captured,
        )
        stores[player] += taken
        _end_turn(context, row, taken > 0)
        return
    if action < PUT:
        row[SOURCE] = action - TRANSFER
        stores[1 - player] += 1
    elif action < END:
        board[action - PUT] += 1
    else:
        _end_turn(context, row, True)  # a transfer resets the cycle count, as a capture does
        return
    board[row[SOURCE]] -= 1
    if board[row[SOURCE]] == 0:
        _end_turn(context, row, True)


@njit(cache=True, inline="always")
def _end_turn(context, row, took):
    """The turn ends: the other player's turn, or the end, where each player takes the
    stones on his own cells."""
    board, stores = row[:NUM_CELLS], row[NUM_CELLS : NUM_CELLS + 2]
    params, seat_cells = context.params, context.seat_cells
    row[SOURCE] = -1
    row[TURNS] += 1
    row[IDLE] = 0 if took else row[IDLE] + 1
    row[PLAYER] = 1 - row[PLAYER]
    over = 2 * max(stores[0], stores[1]) > params[TOTAL] or row[IDLE] >= params[IDLE_LIMIT]
    if over or row[TURNS] >= params[MAX_TURNS] or legal(context, row, context.options) == 0:
        for seat in range(2):
            for cell in seat_cells[seat]:
                stores[seat] += board[cell]
                board[cell] = 0
        row[PLAYER] = TERMINAL


@njit(cache=True)
def to_play(context, row):
    return row[PLAYER]


@njit(cache=True)
def returns(context, row, out):
    """+1 / -1 for the seat with more stones captured at the end, zeros for a tie or before it."""
    out[0] = out[1] = 0.0
    first, second = row[NUM_CELLS], row[NUM_CELLS + 1]
    if row[PLAYER] == TERMINAL and first != second:
        won = 0 if first > second else 1
        out[won], out[1 - won] = 1.0, -1.0


@njit(cache=True, _nrt=False)  # no reference counts: a decision allocates nothing, and numba's counts
def play(context, row, seed):  # for the context's arrays around every inlined helper made it ~2x slower
    """``(outcome, decisions, turns)`` of a random game from ``row`` (played on in place), as
    ``envs.row_playout.random_play`` plays and counts it: ``outcome`` 0 a draw, 1 or 2 the winning seat + 1."""
    moves = context.moves
    decisions = turns = 0
    while row[PLAYER] != TERMINAL:
        index, seed = draw(seed, legal(context, row, moves))
        mover = row[PLAYER]
        apply(context, row, moves[index])
        decisions += 1
        turns += row[PLAYER] != mover
    first, second = row[NUM_CELLS], row[NUM_CELLS + 1]
    return (0 if first == second else (1 if first > second else 2)), decisions, turns


@njit(cache=True)
def playout(context, row, seed, out):
    """The returns of :func:`play` from ``row`` (left untouched) into ``out``."""
    copy = context.copy
    copy[:] = row
    play(context, copy, seed)
    returns(context, copy, out)


@njit(cache=True)
def observe(context, row, out):
    """The planes of ``Biqala``'s docstring into ``out`` (``[9, 4, 6]``)."""
    params, owner = context.params, context.owner
    flat = out.reshape(out.shape[0], NUM_CELLS)
    flat[:] = 0.0
    mover = 0 if row[PLAYER] == TERMINAL else row[PLAYER]
    for cell in range(NUM_CELLS):
        stones = row[cell]
        flat[0, cell] = 1.0 if owner[cell] == mover else 0.0
        flat[1, cell] = np.float32(min(stones, 24)) / np.float32(24.0)
        flat[2, cell] = 1.0 if stones == 1 else 0.0
        flat[3, cell] = 1.0 if stones == 2 else 0.0
    if row[SOURCE] >= 0:
        flat[4, row[SOURCE]] = 1.0
        flat[5, :] = 1.0
    flat[6, :] = row[NUM_CELLS + mover] / params[TOTAL]
    flat[7, :] = row[NUM_CELLS + 1 - mover] / params[TOTAL]
    flat[8, :] = row[IDLE] / params[IDLE_LIMIT]


@njit(cache=True, inline="always")
def _options(board, seat, rings, lengths, ring_of, place, owner, seat_cells, options):
    """The legal actions of ``seat`` outside a transfer into ``options``; their count."""
    opponent = 0
    for cell in seat_cells[1 - seat]:
        opponent += board[cell]
    count = 0
    for cell in seat_cells[seat]:
        if board[cell] and (opponent or _feeds(board, cell, rings, lengths, ring_of, place, owner)):
            options[count] = cell  # the sow (``SOW`` is 0)
            count += 1
    if opponent:  # transfers feed nobody: only when the opponent has stones
        for k in range(count):
            options[count + k] = TRANSFER + options[k]
        count *= 2
    return count


@njit(cache=True, inline="always")
def _feeds(board, cell, rings, lengths, ring_of, place, owner):
    """Whether sowing ``cell`` puts a stone on the opponent's side."""
    ring, size, position = rings[ring_of[cell]], lengths[ring_of[cell]], place[cell]
    for _ in range(min(board[cell], size - 1)):
        position = (position + 1) % size
        if owner[ring[position]] != owner[cell]:
            return True
    return False


@njit(cache=True, inline="always")
def _sow(board, cell, rings, lengths, ring_of, place, owner, captured):
    """Sow ``cell`` in place, take the 2s and 3s
    back from the last cell unless that is a grand slam; the stones taken."""
    ring, size, position = rings[ring_of[cell]], lengths[ring_of[cell]], place[cell]
    mover = owner[cell]
    stones = board[cell]
    board[cell] = 0
    while stones:
        position = (position + 1) % size
        if ring[position] != cell:  # the emptied cell is skipped on every lap
            board[ring[position]] += 1
            stones -= 1
    taken = count = 0
    while owner[ring[position]] != mover and (board[ring[position]] == 2 or board[ring[position]] == 3):
        captured[count] = ring[position]
        taken += board[ring[position]]
        count += 1
        position = (position - 1) % size
    if taken == 0:
        return 0
    opponent = 0
    for other in range(len(board)):
        if owner[other] != mover:
            opponent += board[other]
    if taken == opponent:  # a grand slam captures nothing
        return 0
    for k in range(count):
        board[captured[k]] = 0
    return taken


def context(total: int, idle_limit: int, max_turns: int) -> BiqalaContext:
    """The kernels' constants (``Biqala``'s settings, the board's :func:`tables`) and scratch room."""
    board = tables()
    return BiqalaContext(
        np.array([total, idle_limit, max_turns], np.int64),
        *board,
        np.empty(2 * board[-1].shape[1], np.int64),
        np.empty(board[1][0], np.int64),
        np.empty(2 * board[-1].shape[1] + 1, np.int64),
        np.empty(WIDTH, np.int32),
    )


MAX_LEGAL = 2 * len(SEAT_CELLS[0])  # a sow and a transfer from each of the mover's cells


def start_row(outer: int, inner: int) -> np.ndarray:
    """The start: ``outer`` stones on each outer cell, ``inner`` on each inner one, A to move."""
    row = np.zeros(WIDTH, np.int32)
    row[:NUM_CELLS] = [outer if RING_OF[cell] is OUTER_RING else inner for cell in range(NUM_CELLS)]
    row[SOURCE] = -1
    return row


register(BiqalaContext, legal=legal, apply=apply, to_play=to_play, returns=returns, playout=playout, observe=observe)
