"""Sudoku Moyo's rules, written once, in numba over one flat int32 row (``envs.compiled``'s
protocol, the drawn puzzle a chance node), and the grid's algorithms under them: a solution
counter, a puzzle generator, a random playout, the placements and turn starts.
``envs.kit.RowGame`` makes them the engine (``game.py``).

A grid is 81 digits (0 = empty), cell ``r * 9 + c`` with ``r = 0`` the bottom row
(row ``1``); digit ``d`` is bit ``1 << (d - 1)`` in the row, column and box masks.
Random numbers come from the SplitMix64 stream of :mod:`envs.kernels` (``draw``),
so one seed gives one puzzle and one playout, here and in the tests' Python
re-implementations. Compiled on first use and cached on disk.

A row (int32) holds the grid, which of its digits are givens (81 flags), then ``PLAYER`` (a
seat, CHANCE at the setup, TERMINAL), ``STUCK`` (the seat that could not place, -1),
``OPENING`` (1 while the centre is filled first) and ``PUZZLE`` (the drawn puzzle number, -1
for none). The context is a :class:`SudokuContext`: ``givens`` (int64 ``[1]``, the givens of a
drawn puzzle).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from envs.compiled import register
from envs.core import CHANCE, TERMINAL
from envs.kernels import draw

ALL_DIGITS = 0x1FF
NEUTRAL = 2  # owner code of the centre box (seats are 0 and 1)
MAX_ATTEMPTS = 1000  # full grids tried per puzzle before the generator gives up

BOX_OF_CELL = np.array([(cell // 9) // 3 * 3 + (cell % 9) // 3 for cell in range(81)], dtype=np.int64)
# Boxes by band (bottom first) and stack: SW S SE / W C E / NW N NE.
BOX_OWNER = np.array([0, 1, 1, 1, NEUTRAL, 0, 0, 0, 1], dtype=np.int64)
CELL_OWNER = BOX_OWNER[BOX_OF_CELL]
POPCOUNT = np.array([bin(m).count("1") for m in range(512)], dtype=np.int64)
LOWEST_DIGIT = np.array([0] + [(m & -m).bit_length() for m in range(1, 512)], dtype=np.int64)


@njit(cache=True)
def _masks(grid, rows, cols, boxes):
    """Fill the used-digit masks of ``grid``; False when a digit repeats in a group."""
    rows[:] = 0
    cols[:] = 0
    boxes[:] = 0
    for cell in range(81):
        digit = grid[cell]
        if digit:
            bit = 1 << (digit - 1)
            r, c, b = cell // 9, cell % 9, BOX_OF_CELL[cell]
            if (rows[r] | cols[c] | boxes[b]) & bit:
                return False
            rows[r] |= bit
            cols[c] |= bit
            boxes[b] |= bit
    return True


@njit(cache=True)
def _put(grid, rows, cols, boxes, cell, digit):
    """``digit`` on the empty ``cell``, or with ``digit`` 0 the cell emptied; the masks follow."""
    bit = 1 << ((digit if digit else grid[cell]) - 1)
    grid[cell] = digit
    rows[cell // 9] ^= bit
    cols[cell % 9] ^= bit
    boxes[BOX_OF_CELL[cell]] ^= bit


@njit(cache=True)
def _most_constrained(grid, rows, cols, boxes):
    """(cell, candidate mask) of the empty cell with the fewest candidates, or (-1, 0)."""
    best, best_mask, best_count = -1, 0, 10
    for cell in range(81):
        if grid[cell] == 0:
            mask = ALL_DIGITS & ~(rows[cell // 9] | cols[cell % 9] | boxes[BOX_OF_CELL[cell]])
            count = POPCOUNT[mask]
            if count < best_count:
                best, best_mask, best_count = cell, mask, count
                if count <= 1:
                    break
    return best, best_mask


@njit(cache=True)
def _search(grid, limit, seed, solution):
    """Depth-first search over the completions of ``grid`` (left unchanged), most
    constrained cell first: the number found, stopping at ``limit``. With ``seed``
    >= 0 the digits are tried in random order; the first completion goes to ``solution``."""
    g = grid.astype(np.int64)
    rows, cols, boxes = np.zeros(9, np.int64), np.zeros(9, np.int64), np.zeros(9, np.int64)
    if not _masks(g, rows, cols, boxes):
        return 0
    empty = 0
    for cell in range(81):
        empty += g[cell] == 0
    if empty == 0:
        solution[:] = g
        return 1
    cells, masks = np.empty(empty, np.int64), np.empty(empty, np.int64)
    cells[0], masks[0] = _most_constrained(g, rows, cols, boxes)
    depth, found = 0, 0
    while depth >= 0:
        cell = cells[depth]
        if g[cell]:
            _put(g, rows, cols, boxes, cell, 0)
        mask = masks[depth]
        if mask == 0:
            depth -= 1
            continue
        if seed >= 0:
            pick, seed = draw(seed, POPCOUNT[mask])
            for _ in range(pick):
                mask &= mask - 1  # drop the lowest digits until the picked one is lowest
        bit = mask & -mask
        masks[depth] ^= bit
        _put(g, rows, cols, boxes, cell, LOWEST_DIGIT[bit])
        if depth + 1 == empty:
            if found == 0:
                solution[:] = g
            found += 1
            if found >= limit:
                return found
            continue
        depth += 1
        cells[depth], masks[depth] = _most_constrained(g, rows, cols, boxes)
    return found


@njit(cache=True)
def count_solutions(grid, limit):
    """Completions of ``grid`` (an int array of 81 digits), counted up to ``limit``."""
    return _search(grid, limit, -1, np.zeros(81, np.int64))


@njit(cache=True)
def generate(seed, givens):
    """A proper puzzle with exactly ``givens`` digits (a completion that is unique),
    drawn from the stream at ``seed``; all zeros when ``MAX_ATTEMPTS`` grids fail.

    A random full grid (random digit order in the search), then its cells in
    random order are emptied one by one, each kept only while the completion stays
    unique, until ``givens`` digits are left; a grid that gets stuck above
    ``givens`` (a minimal puzzle) is replaced by the next.
    """
    empty = np.zeros(81, np.int64)
    for _ in range(MAX_ATTEMPTS):
        puzzle = np.zeros(81, np.int64)
        stream = seed
        _search(empty, 1, stream, puzzle)
        _, seed = draw(seed, 2)  # the next attempt starts further along the stream
        order = np.arange(81)
        for i in range(80, 0, -1):  # Fisher-Yates
            j, seed = draw(seed, i + 1)
            order[i], order[j] = order[j], order[i]
        left = 81
        for cell in order:
            if left == givens:
                break
            digit = puzzle[cell]
            puzzle[cell] = 0
            if count_solutions(puzzle, 2) == 1:
                left -= 1
            else:
                puzzle[cell] = digit
        if left == givens:
            return puzzle
    return empty


@njit(cache=True)
def puzzle(number, givens):
    """Puzzle ``number`` with ``givens`` givens (all zeros where the generator found none): the
    generator's stream starts at a seed that mixes both (SplitMix64 scrambles neighbouring seeds)."""
    return generate(number * 128 + givens, givens)


@njit(cache=True)
def _region_moves(grid, rows, cols, boxes, owner):
    """Number of (cell, digit) placements in the cells of ``owner`` (seat or NEUTRAL)."""
    total = 0
    for cell in range(81):
        if grid[cell] == 0 and CELL_OWNER[cell] == owner:
            total += POPCOUNT[ALL_DIGITS & ~(rows[cell // 9] | cols[cell % 9] | boxes[BOX_OF_CELL[cell]])]
    return total


@njit(cache=True)
def random_playout(board, player, seed):
    """Uniformly random legal placements from a position (``board``: its 81 digits first) with
    ``player`` to move until someone cannot move: ``(winner, placements)``. The legal placements
    are taken in action order (cell, then digit) and one is picked with
    ``index, seed = draw(seed, count)``, as the tests' Python loop does."""
    grid = np.empty(81, np.int64)
    for cell in range(81):  # ``board`` may be any buffer (a state's ``grid`` is a bytearray)
        grid[cell] = board[cell]
    rows, cols, boxes = _board_masks(grid)
    opening = True
    placements = 0
    while True:
        count = 0
        if opening:
            count = _region_moves(grid, rows, cols, boxes, NEUTRAL)
            opening = count > 0
        region = NEUTRAL if opening else player
        if not opening:
            count = _region_moves(grid, rows, cols, boxes, player)
        if count == 0:
            return 1 - player, placements
        index, seed = draw(seed, count)
        for cell in range(81):
            if grid[cell] == 0 and CELL_OWNER[cell] == region:
                mask = ALL_DIGITS & ~(rows[cell // 9] | cols[cell % 9] | boxes[BOX_OF_CELL[cell]])
                n = POPCOUNT[mask]
                if index < n:
                    for _ in range(index):
                        mask &= mask - 1
                    _put(grid, rows, cols, boxes, cell, LOWEST_DIGIT[mask & -mask])
                    break
                index -= n
        placements += 1
        player = 1 - player


# --- the rules over a row (envs.compiled) ----------------------------------------------------------
SIZE = 9
NUM_CELLS = SIZE * SIZE
PUZZLE_COUNT = 2**16  # the setup chance: puzzle numbers 0 .. PUZZLE_COUNT - 1, equally likely
GIVEN = NUM_CELLS
PLAYER, STUCK, OPENING, PUZZLE = range(2 * NUM_CELLS, 2 * NUM_CELLS + 4)
WIDTH = PUZZLE + 1
MAX_LEGAL = 4 * 9 * 9  # a seat's four boxes, every digit on every cell
SudokuContext = namedtuple("SudokuContext", ["givens"])


def context(givens: int) -> SudokuContext:
    return SudokuContext(np.array([givens], np.int64))


def setup_row() -> np.ndarray:
    """The setup chance node: the puzzle not drawn yet."""
    row = np.zeros(WIDTH, np.int32)
    row[PLAYER], row[STUCK], row[OPENING], row[PUZZLE] = CHANCE, -1, 1, -1
    return row


@njit(cache=True)
def _board_masks(board):
    rows, cols, boxes = np.zeros(9, np.int64), np.zeros(9, np.int64), np.zeros(9, np.int64)
    _masks(board, rows, cols, boxes)
    return rows, cols, boxes


@njit(cache=True)
def candidate_masks(board):
    """Per cell, the bit mask of the digits that fit it (0 for a filled one)."""
    rows, cols, boxes = _board_masks(board)
    out = np.zeros(81, np.int64)
    for cell in range(81):
        if board[cell] == 0:
            out[cell] = ALL_DIGITS & ~(rows[cell // 9] | cols[cell % 9] | boxes[BOX_OF_CELL[cell]])
    return out


@njit(cache=True)
def set_up(row, digits, number):
    """Lay out the puzzle ``digits`` (81, 0 empty; ``number``: its puzzle number or -1) on the
    setup ``row``, light to move in the centre first."""
    for cell in range(NUM_CELLS):
        row[cell] = digits[cell]
        row[GIVEN + cell] = digits[cell] != 0
    row[PUZZLE], row[PLAYER] = number, 0
    _start_turn(row)


@njit(cache=True)
def _start_turn(row):
    """After a placement or the setup, ``PLAYER`` to move: the opening ends once the centre
    takes no placement, the game once the mover has none in its own boxes (then the mover is
    stuck and loses)."""
    board, player = row[:GIVEN], row[PLAYER]
    rows, cols, boxes = _board_masks(board)
    if row[OPENING]:
        row[OPENING] = _region_moves(board, rows, cols, boxes, NEUTRAL) > 0
    if not row[OPENING] and _region_moves(board, rows, cols, boxes, player) == 0:
        row[STUCK], row[PLAYER] = player, TERMINAL


@njit(cache=True)
def legal(context, row, out):
    """The placements ``9 * cell + digit - 1``, in order: on the empty cells of the centre
    while the opening lasts, then of the mover's boxes."""
    player = row[PLAYER]
    if player < 0:
        return 0
    board, owner = row[:GIVEN], NEUTRAL if row[OPENING] else player
    rows, cols, boxes = _board_masks(board)
    n = 0
    for cell in range(81):
        if board[cell] == 0 and CELL_OWNER[cell] == owner:
            mask = ALL_DIGITS & ~(rows[cell // 9] | cols[cell % 9] | boxes[BOX_OF_CELL[cell]])
            for d in range(9):
                if mask >> d & 1:
                    out[n] = 9 * cell + d
                    n += 1
    return n


@njit(cache=True)
def apply(context, row, action):
    """The setup lays out the drawn puzzle; a placement hands the move over."""
    if row[PLAYER] == CHANCE:
        digits = puzzle(action, context.givens[0])
        if digits.sum() == 0:
            raise ValueError("the generator found no proper puzzle for this number")
        set_up(row, digits, action)
    else:
        row[action // 9] = action % 9 + 1
        row[PLAYER] = 1 - row[PLAYER]
        _start_turn(row)


@njit(cache=True)
def to_play(context, row):
    return row[PLAYER]


@njit(cache=True)
def chance(context, row, outcomes, probs):
    """Every puzzle number, equally likely."""
    if row[PLAYER] != CHANCE:
        return 0
    for number in range(PUZZLE_COUNT):
        outcomes[number], probs[number] = number, 1.0 / PUZZLE_COUNT
    return PUZZLE_COUNT


@njit(cache=True)
def returns(context, row, out):
    """-1 for the stuck seat, +1 for the other."""
    out[0] = out[1] = 0.0
    if row[PLAYER] == TERMINAL:
        out[row[STUCK]], out[1 - row[STUCK]] = -1.0, 1.0


@njit(cache=True)
def playout(context, row, seed, out):
    """The returns of :func:`random_playout` from a decision row."""
    if row[PLAYER] == TERMINAL:
        returns(context, row, out)
        return
    winner = random_playout(row[:GIVEN], row[PLAYER], seed)[0]
    out[winner], out[1 - winner] = 1.0, -1.0


@njit(cache=True)
def observe(context, row, out):
    """The network's planes (``SudokuMoyo``'s docstring; zeros at the setup)."""
    flat = out.reshape(out.shape[0], NUM_CELLS)
    flat[:] = 0.0
    player = row[PLAYER]
    if player == CHANCE:
        return
    mover = row[STUCK] if player == TERMINAL else player
    region = -1 if player == TERMINAL else (NEUTRAL if row[OPENING] else mover)  # the cells to fill now
    rows, cols, boxes = _board_masks(row[:GIVEN])
    for cell in range(81):
        digit, owner = row[cell], CELL_OWNER[cell]
        if owner == mover:
            flat[9, cell] = 1.0
        elif owner == 1 - mover:
            flat[10, cell] = 1.0
        if row[GIVEN + cell]:
            flat[11, cell] = 1.0
        if digit:
            flat[digit - 1, cell] = 1.0
        else:
            mask = ALL_DIGITS & ~(rows[cell // 9] | cols[cell % 9] | boxes[BOX_OF_CELL[cell]])
            for d in range(9):
                if mask >> d & 1:
                    flat[12 + d, cell] = 1.0
            if mask == 0:
                flat[22, cell] = 1.0
            if owner == region:
                flat[21, cell] = 1.0


register(
    SudokuContext,
    legal=legal,
    apply=apply,
    to_play=to_play,
    returns=returns,
    playout=playout,
    observe=observe,
    chance=chance,
)
