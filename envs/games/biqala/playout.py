"""Biqala's random playout in one numba kernel (``Biqala.random_playout``).

It plays the game the engine loop plays for the same seed (``Game.engine_playout``): one
``envs.kernels.draw`` per decision over the legal actions in the engine's order
(``Biqala.legal_actions``: the mover's non-empty cells in increasing order to sow, then the
same cells to begin a transfer; only the feeding sows when the opponent's side is empty; in a
transfer under way the source's partners in ``PARTNERS`` order, then the end), from any
position, a transfer under way included. The rules are ``game.py``'s, step for step: ``sow``
(a lap skips the emptied cell, the 2-or-3 captures backwards), the grand slam, ``_feeds``, the
transfer (its first stone to the opponent's store, the turn over when the source is empty) and
``Biqala._end_turn``'s ends (more than half the stones in a store, ``idle_limit``,
``max_turns``, no legal move), after which each player takes the stones on his own cells. The
tables are the engine's (``RING_OF``, ``OWNER``, ``PARTNERS``, ``SEAT_CELLS``) as arrays.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import njit

from envs.games.biqala.game import INNER_RING, NUM_CELLS, OUTER_RING, OWNER, PARTNERS, RING_OF, SEAT_CELLS, TRANSFER
from envs.kernels import draw


@cache
def tables() -> tuple[np.ndarray, ...]:
    """The engine's board as arrays: ``rings`` (2, 16; the outer ring, then the inner, padded
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


@njit(cache=True)
def playout(board, stores, player, source, idle, turns, rules, tables, seed):
    """``(outcome, decisions, turns)`` of a random game from a position (not over), as
    ``Game.engine_playout`` counts them: ``outcome`` 0 a draw, 1 or 2 the winning seat + 1.
    ``board``, ``stores``, ``player``, ``source``, ``idle``, ``turns``: ``BiqalaState``'s;
    ``rules``: ``(total, idle_limit, max_turns)``; ``tables``: ``tables()``."""
    total, idle_limit, max_turns = rules[0], rules[1], rules[2]
    rings, lengths, ring_of, place, owner, partners, seat_cells = tables
    board, stores = board.copy(), stores.copy()
    options = np.empty(2 * seat_cells.shape[1], np.int64)
    captured = np.empty(lengths[0], np.int64)
    decisions = played = 0
    while True:
        decisions += 1
        if source >= 0:  # a transfer under way: a partner of the source, or the end
            count = 0
            while count < partners.shape[1] and partners[source, count] >= 0:
                count += 1
            index, seed = draw(seed, count + 1)
            if index < count:
                board[source] -= 1
                board[partners[source, index]] += 1
                if board[source]:
                    continue
            took = True  # a transfer resets the cycle count, as a capture does
        else:
            count = _options(board, player, rings, lengths, ring_of, place, owner, seat_cells, options)
            index, seed = draw(seed, count)
            action = options[index]
            if action >= TRANSFER:
                source = action - TRANSFER
                board[source] -= 1
                stores[1 - player] += 1
                if board[source]:
                    continue
                took = True
            else:
                taken = _sow(board, action, rings, lengths, ring_of, place, owner, captured)
                stores[player] += taken
                took = taken > 0
        # the turn is over (``Biqala._end_turn``)
        source = -1
        turns += 1
        played += 1
        idle = 0 if took else idle + 1
        player = 1 - player
        over = 2 * max(stores[0], stores[1]) > total or idle >= idle_limit or turns >= max_turns
        if over or _options(board, player, rings, lengths, ring_of, place, owner, seat_cells, options) == 0:
            for seat in range(2):
                for cell in seat_cells[seat]:
                    stores[seat] += board[cell]
            if stores[0] == stores[1]:
                return 0, decisions, played
            return (1 if stores[0] > stores[1] else 2), decisions, played


@njit(cache=True)
def _options(board, seat, rings, lengths, ring_of, place, owner, seat_cells, options):
    """``Biqala.legal_actions`` of ``seat`` outside a transfer into ``options``; their count."""
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


@njit(cache=True)
def _feeds(board, cell, rings, lengths, ring_of, place, owner):
    """``game._feeds``: whether sowing ``cell`` puts a stone on the opponent's side."""
    ring, size, position = rings[ring_of[cell]], lengths[ring_of[cell]], place[cell]
    for _ in range(min(board[cell], size - 1)):
        position = (position + 1) % size
        if owner[ring[position]] != owner[cell]:
            return True
    return False


@njit(cache=True)
def _sow(board, cell, rings, lengths, ring_of, place, owner, captured):
    """``game.sow`` and ``Biqala.apply``'s captures: sow ``cell`` in place, take the 2s and 3s
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
