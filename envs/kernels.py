"""Numba kernels for the stone games' hot paths: Hex chains, Gomoku lines, Reversi
captures, and a random playout of every stone game in one call.

They read the board as it is stored in ``envs.stones.StoneState`` (a
``bytearray`` of colours: 0 empty, 1 and 2 the colours, 3 neutral), so no
conversion happens per call. The playouts draw from their own SplitMix64 stream
(``draw``), seeded once per playout from the caller's numpy Generator, and keep
whatever they need per turn (counts, union-finds, scratch boards) up to date
instead of rescanning the board. Compiled on first use and cached on disk.

For speed each rule here is written a second time: the Python engines
(``envs/hex.py``, ``gomoku.py``, ``reversi.py``, ``mutator.py``) are the
reference, and the playouts must follow them move for move.
``tests/test_neutral_properties.py::test_random_playout_plays_the_engine_loop_game``
checks that, seed by seed, for every stone game; constants of a rule (Gomoku's
``LINE``) are defined here once and imported by the engine.
"""

from __future__ import annotations

import numpy as np
from numba import njit

EMPTY = 0
ALL_SIDES = 7  # Y: a chain touching sides 1, 2 and 4


# --- the playouts' random numbers ----------------------------------------------------------------------
# SplitMix64 (Steele, Lea and Flood, OOPSLA 2014): a 64-bit counter mixed into each output. A
# playout gets one 63-bit seed from the caller's numpy Generator (``playout_seed``) and draws the
# rest from this stream: handing the Generator itself to a numba function costs ~20 us per call,
# a whole 5x5 Hex playout ~1 us. Seeds are int64 (the state's bits), so they pass to and from Python.
_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


def playout_seed(rng: np.random.Generator) -> int:
    """A playout's seed: 63 random bits, one raw draw of ``rng``'s bit generator."""
    return rng.bit_generator.random_raw() >> 1


@njit(cache=True)
def draw(seed, bound):
    """``(index, next_seed)``: a uniform integer in ``[0, bound)`` (``bound`` < 2**32) from the
    stream at ``seed`` (bias below ``bound / 2**32``), and the seed of the rest of the stream."""
    state = np.uint64(seed) + _GAMMA
    z = (state ^ (state >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    return np.int64(((z >> np.uint64(32)) * np.uint64(bound)) >> np.uint64(32)), np.int64(state)


@njit(cache=True)
def chain_sides(board, colour, start, neighbours, sides, goal):
    """The sides that the ``colour`` chain through ``start`` touches, as bits (``sides``: the
    bits of each cell), 0 when ``start`` does not hold ``colour``; the search stops once the
    bits of ``goal`` are all touched. ``neighbours`` is a (cells, 6) array padded with -1.

    Hex: a colour's two edges (bits 1, 2; goal 3). Y: the three sides (bits 1, 2, 4; goal 7).
    """
    if board[start] != colour:
        return 0
    seen = np.zeros(len(board), np.uint8)
    stack = np.empty(len(board), np.int64)
    stack[0] = start
    seen[start] = 1
    top, touched = 1, 0
    while top and touched & goal != goal:
        top -= 1
        cell = stack[top]
        touched |= sides[cell]
        for k in range(neighbours.shape[1]):
            other = neighbours[cell, k]
            if other >= 0 and seen[other] == 0 and board[other] == colour:
                seen[other] = 1
                stack[top] = other
                top += 1
    return touched


@njit(cache=True)
def captures(board, n, cell, colour, out):
    """Write into ``out`` the stones a ``colour`` stone on ``cell`` flanks; return their count.

    A line is one or more stones that are neither empty nor ``colour`` (enemy or
    neutral), closed by a ``colour`` stone, in any of the 8 directions.
    """
    r0, c0 = cell // n, cell % n
    count = 0
    for dr in range(-1, 2):
        for dc in range(-1, 2):
            if dr == 0 and dc == 0:
                continue
            r, c, start, closed = r0 + dr, c0 + dc, count, False
            while 0 <= r < n and 0 <= c < n:
                v = board[r * n + c]
                if v == EMPTY:
                    break
                if v == colour:
                    closed = True
                    break
                out[count] = r * n + c
                count += 1
                r += dr
                c += dc
            if not closed:
                count = start
    return count


@njit(cache=True)
def captures_any(board, n, cell, colour):
    """Whether a ``colour`` stone on ``cell`` flanks at least one line."""
    r0, c0 = cell // n, cell % n
    for dr in range(-1, 2):
        for dc in range(-1, 2):
            if dr == 0 and dc == 0:
                continue
            r, c, length = r0 + dr, c0 + dc, 0
            while 0 <= r < n and 0 <= c < n:
                v = board[r * n + c]
                if v == EMPTY:
                    break
                if v == colour:
                    if length:
                        return True
                    break
                length += 1
                r += dr
                c += dc
    return False


@njit(cache=True)
def capturing_cells(board, n, colour, value):
    """The cells holding ``value`` (empty, or neutral) where a ``colour`` stone captures."""
    out = np.empty(len(board), np.int64)
    return out[: _capturing_into(board, n, colour, value, out)]


@njit(cache=True)
def _capturing_into(board, n, colour, value, out):
    """``capturing_cells`` written into ``out``; returns their count."""
    count = 0
    for cell in range(len(board)):
        if board[cell] == value and captures_any(board, n, cell, colour):
            out[count] = cell
            count += 1
    return count


@njit(cache=True)
def placements_after(board, n, cell, colour, value):
    """``capturing_cells`` for ``value`` once a ``colour`` stone has gone on ``cell`` and captured."""
    after = np.empty(len(board), np.uint8)
    for i in range(len(board)):
        after[i] = board[i]
    flipped = np.empty(4 * n, np.int64)
    for i in range(captures(board, n, cell, colour, flipped)):
        after[flipped[i]] = colour
    after[cell] = colour
    return capturing_cells(after, n, colour, value)


@njit(cache=True)
def empty_cells_touching(board, n):
    """The empty cells with a non-empty cell among their 8 neighbours."""
    out = np.empty(len(board), np.int64)
    return out[: _touching_into(board, n, out)]


@njit(cache=True)
def _touching_into(board, n, out):
    """``empty_cells_touching`` written into ``out``; returns their count."""
    count = 0
    for cell in range(len(board)):
        if board[cell] != EMPTY:
            continue
        r0, c0 = cell // n, cell % n
        found = False
        for r in range(max(r0 - 1, 0), min(r0 + 2, n)):
            for c in range(max(c0 - 1, 0), min(c0 + 2, n)):
                if board[r * n + c] != EMPTY:
                    found = True
        if found:
            out[count] = cell
            count += 1
    return count


@njit(cache=True)
def _stone_touches(board, n, touch, cell):
    """Count the stone just put on the empty ``cell`` in ``touch`` (per cell: its 8 neighbours
    that hold a stone); return the change in the number of empty cells touching a stone."""
    change = -1 if touch[cell] else 0
    r0, c0 = cell // n, cell % n
    for r in range(max(r0 - 1, 0), min(r0 + 2, n)):
        for c in range(max(c0 - 1, 0), min(c0 + 2, n)):
            other = r * n + c
            touch[other] += 1
            if touch[other] == 1 and board[other] == EMPTY:
                change += 1
    return change


LINE = 5  # Gomoku's goal (envs.gomoku): five or more in a row


@njit(cache=True)
def line_through(board, n, cell, colour, length):
    """Whether ``length`` or more ``colour`` stones lie in a row (any of 4 directions) through ``cell``."""
    if board[cell] != colour:
        return False
    r0, c0 = cell // n, cell % n
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            r, c = r0 + sign * dr, c0 + sign * dc
            while 0 <= r < n and 0 <= c < n and board[r * n + c] == colour:
                run += 1
                r += sign * dr
                c += sign * dc
        if run >= length:
            return True
    return False


# --- random playouts ---------------------------------------------------------------------------------
# Each plays uniformly random legal actions from a turn start to the end of the game, drawing
# ``index, seed = draw(seed, len(legal))`` exactly as the engine loop over ``StoneGame.random_playout``
# would (legal actions in increasing order, SWAP_SIDES last, one draw per decision, forced passes
# included), so for the same seed both play the same game; the tests check it. ``pie_turn`` is
# the turn count at which seat 1 may swap sides (-1: no pie rule). Each returns (outcome colour
# or 0, decisions, turns, whether the sides swapped).

GOAL_CHAIN, GOAL_LINE, GOAL_COUNT, GOAL_SIDES = 0, 1, 2, 3  # Hex, Gomoku (five), Reversi, Y
NEUTRAL = 3
_UNTRACKED, _EXACT, _STALE = 0, 1, 2  # a colour's union-find in ``_taylor_playout``


@njit(cache=True)
def _find(parent, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@njit(cache=True)
def _link(board, n, parent, neighbours, cell):
    """Union a Hex stone with its same-coloured neighbours and its colour's edge nodes."""
    colour, cells = board[cell], n * n
    along = cell // n if colour == 1 else cell % n
    base = cells + 2 * (colour - 1)  # colour 1: nodes cells, cells+1; colour 2: cells+2, cells+3
    if along == 0:
        parent[_find(parent, cell)] = _find(parent, base)
    if along == n - 1:
        parent[_find(parent, cell)] = _find(parent, base + 1)
    for k in range(neighbours.shape[1]):
        other = neighbours[cell, k]
        if other >= 0 and board[other] == colour:
            parent[_find(parent, cell)] = _find(parent, other)


@njit(cache=True)
def _join_sides(board, parent, touched, neighbours, cell):
    """Union the stone on ``cell`` with its neighbours of its colour; the sides its chain touches."""
    root = _find(parent, cell)
    for k in range(neighbours.shape[1]):
        other = neighbours[cell, k]
        if other >= 0 and board[other] == board[cell]:
            top = _find(parent, other)
            if top != root:
                parent[top] = root
                touched[root] |= touched[top]
    return touched[root]


@njit(cache=True)
def _nth(board, first, second, index, skip, skip_too):
    """The ``index``-th cell, in order, holding ``first`` or ``second`` (``skip`` cells not counted)."""
    for cell in range(len(board)):
        v = board[cell]
        if (v == first or v == second) and cell != skip and cell != skip_too:
            if index == 0:
                return cell
            index -= 1
    return -1


@njit(cache=True)
def placement_playout(board, n, colour, turns, pie_turn, goal, neighbours, sides, seed):
    """Plain Hex (``GOAL_CHAIN``, by union-find), Y (``GOAL_SIDES``: a union-find whose roots
    hold the sides their chains touch, ``sides`` as in ``chain_sides``) or Gomoku
    (``GOAL_LINE``): one stone a turn."""
    cells = n * n
    after = np.empty(cells, np.uint8)
    empty = np.empty(cells, np.int64)
    count = 0
    for i in range(cells):
        after[i] = board[i]
        if board[i] == EMPTY:
            empty[count] = i
            count += 1
    parent = np.arange(cells + 4)
    touched = sides.copy()  # GOAL_SIDES: valid at the roots
    if goal == GOAL_CHAIN or goal == GOAL_SIDES:
        for i in range(cells):
            if after[i] == 1 or after[i] == 2:
                if goal == GOAL_CHAIN:
                    _link(after, n, parent, neighbours, i)
                else:
                    _join_sides(after, parent, touched, neighbours, i)
    decisions, start, swapped = 0, turns, False
    while count:
        pie = 1 if turns == pie_turn and not swapped else 0
        index, seed = draw(seed, count + pie)
        decisions += 1
        turns += 1
        if index == count:  # swap-sides: the same colour moves next, now seat 0's
            swapped = True
            continue
        cell = empty[index]
        for i in range(index, count - 1):
            empty[i] = empty[i + 1]
        count -= 1
        after[cell] = colour
        if goal == GOAL_CHAIN:
            _link(after, n, parent, neighbours, cell)
            base = cells + 2 * (colour - 1)
            if _find(parent, base) == _find(parent, base + 1):
                return colour, decisions, turns - start, swapped
        elif goal == GOAL_SIDES:
            if _join_sides(after, parent, touched, neighbours, cell) == ALL_SIDES:
                return colour, decisions, turns - start, swapped
        elif line_through(after, n, cell, colour, LINE):
            return colour, decisions, turns - start, swapped
        colour = 3 - colour
    return 0, decisions, turns - start, swapped


@njit(cache=True)
def reversi_playout(board, n, colour, seed):
    """Plain Reversi: a capturing stone a turn, a forced pass, the count at the end."""
    cells = n * n
    after = np.empty(cells, np.uint8)
    for i in range(cells):
        after[i] = board[i]
    flipped = np.empty(4 * n, np.int64)
    moves = np.empty(cells, np.int64)
    decisions = 0
    while True:
        count = _capturing_into(after, n, colour, EMPTY, moves)
        if count == 0:
            if not _any_capture(after, n, 3 - colour, EMPTY):
                break
            _, seed = draw(seed, 1)  # the forced pass is a decision with one choice
        else:
            index, seed = draw(seed, count)
            cell = moves[index]
            for i in range(captures(after, n, cell, colour, flipped)):
                after[flipped[i]] = colour
            after[cell] = colour
        decisions += 1
        colour = 3 - colour
    return _count_winner(after), decisions, decisions, False


@njit(cache=True)
def _count_winner(board):
    first = second = 0
    for v in board:
        first += v == 1
        second += v == 2
    return 1 if first > second else 2 if second > first else 0


@njit(cache=True)
def neutral_playout(board, n, colour, turns, pie_turn, goal, adjacent, neighbours, sides, seed):
    """A neutral-mutator game, micro-step by micro-step as ``envs.mutator.NeutralGame``.
    ``sides``: Y's sides per cell (``chain_sides``), unused by the other goals."""
    if goal == GOAL_COUNT:
        return _capture_playout(board, n, colour, adjacent, seed)
    return _taylor_playout(board, n, colour, turns, pie_turn, goal, neighbours, sides, seed)


@njit(cache=True)
def _taylor_playout(board, n, colour, turns, pie_turn, goal, neighbours, sides, seed):
    """Nex, Neumoku, Neu-Y: drops, swaps, Taylor's fill and convert; the goal judged after each turn.

    Every draw picks a cell by its rank among the cells holding one or two values; counts of
    each value per board row (``rows``) skip to the right row, so no draw scans the whole
    board and a change of a cell costs two increments.

    Hex chains live in a union-find per colour with its two edge nodes, as in
    ``placement_playout``, built once the colour has n stones (fewer cannot join its
    edges). A swap's give-back takes a stone out of a chain, which a union-find cannot
    undo: that colour's sets are then a superset of its chains (stale), so "not joined"
    is still exact and only a claimed join rebuilds them from the board before it counts.
    Y's chains are searched from the turn's new stones (``chain_sides``); Y's cells off
    the triangle hold 4 and are counted apart.
    """
    cells = n * n
    after = np.empty(cells, np.uint8)
    counts = np.zeros(5, np.int64)  # empty, colour 1, colour 2, neutral, off the board
    rows = np.zeros((5, n), np.int64)  # the same per board row
    for i in range(cells):
        after[i] = board[i]
        counts[board[i]] += 1
        rows[board[i], i // n] += 1
    parents = np.empty((3, cells + 4), np.int64)  # row c: colour c's union-find
    sets = np.full(3, _UNTRACKED)  # per colour: _UNTRACKED, _EXACT or _STALE
    decisions, start, swapped = 0, turns, False
    while counts[EMPTY] + counts[NEUTRAL]:
        empty, neutral, own = counts[EMPTY], counts[NEUTRAL], counts[colour]
        drop, swap = empty >= 2, neutral >= 2 and own >= 1
        want_empty = drop or (not swap and empty > 0)  # a drop, or the fill rule
        want_neutral = swap or (not drop and empty == 0)  # a swap, or the convert rule
        count = (empty if want_empty else 0) + (neutral if want_neutral else 0)
        pie = 1 if turns == pie_turn and not swapped else 0
        index, seed = draw(seed, count + pie)
        decisions += 1
        turns += 1
        if index == count:  # swap-sides
            swapped = True
            continue
        first = _row_nth(after, n, rows, EMPTY if want_empty else NEUTRAL, NEUTRAL if want_neutral else EMPTY, index)
        was_empty = after[first] == EMPTY
        second = -1
        _put(after, n, counts, rows, first, colour)
        if sets[colour] != _UNTRACKED:
            _link(after, n, parents[colour], neighbours, first)
        if was_empty and drop:
            index, seed = draw(seed, counts[EMPTY])
            _put(after, n, counts, rows, _row_nth(after, n, rows, EMPTY, EMPTY, index), NEUTRAL)
            decisions += 1
        elif not was_empty and swap:
            index, seed = draw(seed, counts[NEUTRAL])
            second = _row_nth(after, n, rows, NEUTRAL, NEUTRAL, index)
            _put(after, n, counts, rows, second, colour)
            if sets[colour] != _UNTRACKED:
                _link(after, n, parents[colour], neighbours, second)
            # the stone given back: any of the mover's but the two just swapped
            index, seed = draw(seed, counts[colour] - 2)
            low, high = min(first, second), max(first, second)
            if index >= _row_rank(after, n, rows, colour, low):
                index += 1
            if index >= _row_rank(after, n, rows, colour, high):
                index += 1
            _put(after, n, counts, rows, _row_nth(after, n, rows, colour, colour, index), NEUTRAL)
            decisions += 2
            if sets[colour] == _EXACT:
                sets[colour] = _STALE
        if goal == GOAL_CHAIN:
            if counts[colour] >= n and _joined(after, n, parents[colour], neighbours, sets, colour):
                return colour, decisions, turns - start, swapped
        elif goal == GOAL_SIDES:
            if counts[colour] >= n and (
                chain_sides(after, colour, first, neighbours, sides, ALL_SIDES) == ALL_SIDES
                or (second >= 0 and chain_sides(after, colour, second, neighbours, sides, ALL_SIDES) == ALL_SIDES)
            ):
                return colour, decisions, turns - start, swapped
        elif counts[colour] >= LINE and (
            line_through(after, n, first, colour, LINE) or (second >= 0 and line_through(after, n, second, colour, LINE))
        ):
            return colour, decisions, turns - start, swapped
        colour = 3 - colour
    if goal == GOAL_CHAIN:  # a full Hex board: whoever is joined
        for side in (1, 2):
            if _joined(after, n, parents[side], neighbours, sets, side):
                return side, decisions, turns - start, swapped
    if goal == GOAL_SIDES:  # a full Y board: whoever holds a Y (a turn that made one has ended the game)
        for cell in range(cells):
            if after[cell] == 1 or after[cell] == 2:
                if chain_sides(after, after[cell], cell, neighbours, sides, ALL_SIDES) == ALL_SIDES:
                    return after[cell], decisions, turns - start, swapped
    return 0, decisions, turns - start, swapped


@njit(cache=True)
def _put(board, n, counts, rows, cell, value):
    """``board[cell] = value``, with the counts per value and per value and row kept in step."""
    old = board[cell]
    board[cell] = value
    counts[old] -= 1
    counts[value] += 1
    rows[old, cell // n] -= 1
    rows[value, cell // n] += 1


@njit(cache=True)
def _nth_touching(board, touch, index):
    """The ``index``-th empty cell (from 0), in order, with a stone among its neighbours."""
    for cell in range(len(board)):
        if board[cell] == EMPTY and touch[cell]:
            if index == 0:
                return cell
            index -= 1
    return -1


@njit(cache=True)
def _row_nth(board, n, rows, first, second, index):
    """The ``index``-th cell (from 0), in order, among those holding ``first`` or ``second``."""
    row = 0
    while True:
        inside = rows[first, row] + (rows[second, row] if second != first else 0)
        if index < inside:
            break
        index -= inside
        row += 1
    for cell in range(row * n, row * n + n):
        v = board[cell]
        if v == first or v == second:
            if index == 0:
                return cell
            index -= 1
    return -1


@njit(cache=True)
def _row_rank(board, n, rows, value, cell):
    """How many cells before ``cell`` hold ``value``."""
    row = cell // n
    total = 0
    for r in range(row):
        total += rows[value, r]
    for other in range(row * n, cell):
        total += board[other] == value
    return total


@njit(cache=True)
def _joined(board, n, parent, neighbours, sets, colour):
    """Whether ``colour`` joins its edges: untracked sets are built, stale ones that claim a join rebuilt."""
    base = n * n + 2 * (colour - 1)
    if sets[colour] == _UNTRACKED:
        _relink(board, n, parent, neighbours, colour)
        sets[colour] = _EXACT
    if _find(parent, base) != _find(parent, base + 1):
        return False
    if sets[colour] == _STALE:
        _relink(board, n, parent, neighbours, colour)
        sets[colour] = _EXACT
        return _find(parent, base) == _find(parent, base + 1)
    return True


@njit(cache=True)
def _relink(board, n, parent, neighbours, colour):
    """Build ``colour``'s union-find ``parent`` afresh from its stones on ``board``."""
    for i in range(len(parent)):
        parent[i] = i
    for cell in range(n * n):
        if board[cell] == colour:
            _link(board, n, parent, neighbours, cell)


@njit(cache=True)
def _any_capture(board, n, colour, value):
    """Whether a ``colour`` stone captures on some cell holding ``value``."""
    for cell in range(len(board)):
        if board[cell] == value and captures_any(board, n, cell, colour):
            return True
    return False


@njit(cache=True)
def _capture_starts(board, n, colour, out, work):
    """Write the cells that start a NeuVersi turn (capturing drops and completable swaps),
    in order, into ``out``; return their count. ``work`` holds scratch space: (cells, board, flipped)."""
    neutrals, scratch, flipped = work
    count = candidates = 0
    for cell in range(len(board)):
        v = board[cell]
        if (v == EMPTY or v == NEUTRAL) and captures_any(board, n, cell, colour):
            out[count] = cell
            count += 1
            if v == NEUTRAL:
                neutrals[candidates] = cell
                candidates += 1
    if candidates == 0:
        return count
    kept = 0  # keep the drops and the swaps that a second neutral can complete
    for i in range(count):
        cell = out[i]
        if board[cell] == EMPTY or _swap_completes(board, n, cell, colour, neutrals[:candidates], scratch, flipped):
            out[kept] = cell
            kept += 1
    return kept


@njit(cache=True)
def swap_starts(board, n, colour):
    """The neutral cells where a ``colour`` stone captures and leaves a neutral that captures next."""
    cells = len(board)
    likely = np.empty(cells, np.int64)
    count = 0
    for cell in range(cells):
        if board[cell] == NEUTRAL and captures_any(board, n, cell, colour):
            likely[count] = cell
            count += 1
    scratch, flipped = np.empty(cells, np.uint8), np.empty(4 * n, np.int64)
    out = np.empty(count, np.int64)
    kept = 0
    for i in range(count):
        if _swap_completes(board, n, likely[i], colour, likely[:count], scratch, flipped):
            out[kept] = likely[i]
            kept += 1
    return out[:kept]


@njit(cache=True)
def _swap_completes(board, n, cell, colour, likely, scratch, flipped):
    """Whether, once a ``colour`` stone on the neutral ``cell`` has captured, another neutral
    captures too (``placements_after(...)`` is not empty, without building it). The
    ``likely`` cells (neutrals that capture now) are tried first: most still do."""
    for i in range(len(board)):
        scratch[i] = board[i]
    for i in range(captures(board, n, cell, colour, flipped)):
        scratch[flipped[i]] = colour
    scratch[cell] = colour
    for other in likely:
        if scratch[other] == NEUTRAL and captures_any(scratch, n, other, colour):
            return True
    return _any_capture(scratch, n, colour, NEUTRAL)


@njit(cache=True)
def _capture_playout(board, n, colour, adjacent, seed):
    """NeuVersi, AdNeuVersi: capturing drops and swaps, forced passes, the count at the end."""
    cells = n * n
    after = np.empty(cells, np.uint8)
    empty = 0
    for i in range(cells):
        after[i] = board[i]
        empty += board[i] == EMPTY
    starts = np.empty(cells, np.int64)
    buffer = np.empty(4 * n, np.int64)
    work = (np.empty(cells, np.int64), np.empty(cells, np.uint8), np.empty(4 * n, np.int64))
    # AdNeuVersi: stones per cell's neighbourhood, and the empty cells touching one (no stone
    # ever leaves the board, so both only change when an empty cell is filled)
    touch = np.zeros(cells, np.int64)
    touching = 0
    if adjacent:
        touching = _touching_into(after, n, starts)
        for i in range(cells):
            if after[i] != EMPTY:
                _stone_touches(after, n, touch, i)
    decisions = turns = 0
    while True:
        count = _capture_starts(after, n, colour, starts, work)
        if count == 0:  # pass if the other side has a turn, else the game is over
            if _capture_starts(after, n, 3 - colour, starts, work) == 0:
                break
            _, seed = draw(seed, 1)
            decisions += 1
            turns += 1
            colour = 3 - colour
            continue
        index, seed = draw(seed, count)
        first = starts[index]
        decisions += 1
        turns += 1
        was_empty = after[first] == EMPTY
        for i in range(captures(after, n, first, colour, buffer)):
            after[buffer[i]] = colour
        after[first] = colour
        if was_empty:  # the drop's neutral, left out when no cell is allowed
            empty -= 1
            if adjacent:
                touching += _stone_touches(after, n, touch, first)
            spots = touching if adjacent else empty
            if spots:
                index, seed = draw(seed, spots)
                if adjacent:
                    cell = _nth_touching(after, touch, index)
                    after[cell] = NEUTRAL
                    touching += _stone_touches(after, n, touch, cell)
                else:
                    after[_nth(after, EMPTY, EMPTY, index, -1, -1)] = NEUTRAL
                empty -= 1
                decisions += 1
        else:  # a swap: a second capturing neutral, then a stone given back
            index, seed = draw(seed, _capturing_into(after, n, colour, NEUTRAL, starts))
            second = starts[index]
            for i in range(captures(after, n, second, colour, buffer)):
                after[buffer[i]] = colour
            after[second] = colour
            own = 0
            for v in after:
                own += v == colour
            index, seed = draw(seed, own - 2)
            after[_nth(after, colour, colour, index, first, second)] = NEUTRAL
            decisions += 2
        colour = 3 - colour
    return _count_winner(after), decisions, turns, False
