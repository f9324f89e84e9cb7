"""The neutral games' rules (Nex, Neumoku, Neu-Y, NeuVersi, AdNeuVersi), written once in numba
over the stone games' flat int32 row (``envs.stones.compiled`` describes it): the neutral
mutator's micro-steps, which ``envs.neutral.mutator.NeutralGame`` makes the engine (``envs.kit``),
and the random playout that plays them.

A turn is one to three micro-steps by the same seat, each one action: the phases ``START``,
``DROP_NEUTRAL``, ``SWAP_SECOND`` and ``SWAP_GIVE`` (0 to 3) of ``envs.neutral.mutator``'s table,
with the rules of drops, swaps, passes and Bill Taylor's end-game turns (docs/rules.md, the
encodings). The goal is judged after the whole turn. Every start that ``legal`` offers can be
completed into a whole turn.

The rules are small functions of counts and cells (:func:`turn_starts`, :func:`start_count`,
:func:`offered`, :func:`picked_into`, :func:`stone_of`, :func:`next_phase`) that both the row's
``legal`` / ``apply`` and the playout (:func:`play`) call: the row keeps its counts in its
scalars, the playout its own (per value and board row, a union-find per colour for Hex, the
stones around each cell for AdNeuVersi), so that no draw scans the whole board.

The context is a :class:`NeutralContext`: ``params`` int64 ``[n, goal, pie_turn, goal_stones,
adjacent, captures]`` (pie_turn -1 without the pie rule), the rules' ``neighbour_array`` and
``goal_sides``, and scratch room for the capture kernels.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from envs.compiled import register
from envs.core import TERMINAL
from envs.kernels import EMPTY, FIRST, GOAL_CHAIN, NEUTRAL, SECOND, draw, nth
from envs.stones.chains import STALE, UNTRACKED, joined, link
from envs.stones.compiled import (
    CHOSEN,
    COLOUR,
    COUNTS,
    OUTCOME,
    PHASE,
    PLAYER,
    STONE_PLANES,
    SWAPPED,
    TURNS,
    count_values,
    observe_stones,
    returns,
    to_play,
    won_by,
)
from envs.stones.flanking import capture_starts, captures, capturing_into
from envs.stones.goals import outcome_at_end, turn_reached

START, DROP_NEUTRAL, SWAP_SECOND, SWAP_GIVE = 0, 1, 2, 3  # a turn's micro-steps (``PHASE``)
N, GOAL, PIE_TURN, GOAL_STONES, ADJACENT, CAPTURES = range(6)  # params
NEUTRALS, CHOSEN_PLANE = 2, 3  # planes: the neutral stones, the cells chosen earlier this turn
# the stone planes, the neutrals, the chosen cells, the step planes (3 + phase); then the off-board plane and the last two
PLANES = STONE_PLANES + 5
NeutralContext = namedtuple(
    "NeutralContext", ["params", "neighbours", "sides", "neutrals", "scratch", "flipped", "starts"]
)


def neutral_context(n, goal, pie_turn, goal_stones, adjacent, captures, neighbours, sides) -> NeutralContext:
    """The context of a neutral game (``pie_turn`` -1: no pie rule)."""
    cells = n * n
    params = [n, goal, pie_turn, min(goal_stones, 2**62), adjacent, captures]
    return NeutralContext(
        np.array(params, np.int64),
        np.ascontiguousarray(neighbours, dtype=np.int64),
        np.ascontiguousarray(sides, dtype=np.uint8),
        np.empty(cells, np.int64),
        np.empty(cells, np.uint8),
        np.empty(4 * n, np.int64),
        np.empty(cells, np.int64),
    )


# --- the rules, shared by the row and the playout -------------------------------------------------
@njit(cache=True)
def turn_starts(empty, neutral, own, capturing):
    """What a turn may start with, given the counts of empty cells, neutrals and the mover's
    stones: ``(drop, swap, on_empty, on_neutral)``. Without captures a drop needs two empty
    cells, a swap two neutrals and a stone to give back; when neither exists Bill Taylor's
    end-game rules give the turn: fill an empty cell, else convert a neutral. With captures
    every start is a drop or a swap, and the captures pick the cells (:func:`picked_into`)."""
    if capturing:
        return True, True, True, True
    drop, swap = empty >= 2, neutral >= 2 and own >= 1
    return drop, swap, drop or (not swap and empty > 0), swap or (not drop and empty == 0)


@njit(cache=True)
def start_count(board, n, colour, empty, neutral, own, capturing, out, work):
    """How many cells start a whole turn for ``colour`` (0: it has no turn). With captures they
    are listed into ``out`` (``envs.stones.flanking.capture_starts``, ``work`` its scratch)."""
    if capturing:
        return capture_starts(board, n, colour, out, work)
    _, _, on_empty, on_neutral = turn_starts(empty, neutral, own, False)
    return (empty if on_empty else 0) + (neutral if on_neutral else 0)


@njit(cache=True)
def offered(phase, colour, empty, neutral, own, chosen, chosen_too, capturing, adjacent):
    """The cells a micro-step of ``colour`` offers, by their values: ``(first, second, skip,
    skip_too)``, the cells holding ``first`` or ``second`` in order but ``skip`` and ``skip_too``
    (-1: none; the two cells just swapped, which hold ``first``); ``first`` -1 where the
    captures or the adjacency rule pick them instead (:func:`picked_into`). ``empty``,
    ``neutral``, ``own``: the counts, read at a turn's start (:func:`turn_starts`)."""
    if phase == START:
        if capturing:
            return -1, -1, -1, -1
        _, _, on_empty, on_neutral = turn_starts(empty, neutral, own, False)
        return EMPTY if on_empty else NEUTRAL, NEUTRAL if on_neutral else EMPTY, -1, -1
    if phase == DROP_NEUTRAL:
        return (-1 if adjacent else EMPTY), EMPTY, -1, -1
    if phase == SWAP_SECOND:
        return (-1 if capturing else NEUTRAL), NEUTRAL, -1, -1
    return np.int64(colour), np.int64(colour), np.int64(chosen), np.int64(chosen_too)


@njit(cache=True)
def picked_into(board, n, phase, colour, out, work):
    """The cells a micro-step offers where :func:`offered` names no value, in order, into
    ``out``; their count: a turn's starts with captures, the drop's neutral next to a stone
    (AdNeuVersi), the swap's second neutral that captures."""
    if phase == START:
        return capture_starts(board, n, colour, out, work)
    if phase == DROP_NEUTRAL:
        return touching_into(board, n, out)
    return capturing_into(board, n, colour, NEUTRAL, out)


@njit(cache=True)
def stone_of(phase, colour):
    """What a micro-step puts on its cell: the mover's stone (with its captures) at a turn's
    start and as the swap's second neutral, a neutral as the drop's and as the stone given back."""
    return colour if phase == START or phase == SWAP_SECOND else NEUTRAL


@njit(cache=True)
def next_phase(phase, was_empty, drop, swap, spots):
    """The micro-step after one at ``phase`` on a cell that ``was_empty`` (``START``: the turn is
    over). A drop is followed by its neutral where a cell is left for it (``spots``), a swap by
    its second neutral and the stone given back; the fill and convert rules are whole turns.
    ``drop``, ``swap``: what the turn's start allowed (:func:`turn_starts`)."""
    if phase == START:
        if was_empty:
            return DROP_NEUTRAL if drop and spots else START
        return SWAP_SECOND if swap else START
    return SWAP_GIVE if phase == SWAP_SECOND else START


@njit(cache=True)
def touching_into(board, n, out):
    """The empty cells with a non-empty cell among their 8 neighbours, in order, into ``out``; their count."""
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


# --- the row ---------------------------------------------------------------------------------------
@njit(cache=True)
def _put(row, cells, cell, value):
    """``cell`` holds ``value``, the counts kept in step."""
    row[cells + COUNTS + row[cell]] -= 1
    row[cells + COUNTS + value] += 1
    row[cell] = value


@njit(cache=True)
def _place(context, row, cell, colour):
    """A ``colour`` stone on ``cell`` with its captures (where the rules capture)."""
    n, flipped = context.params[N], context.flipped
    cells = n * n
    if context.params[CAPTURES]:
        for i in range(captures(row[:cells], n, cell, colour, flipped)):
            _put(row, cells, flipped[i], colour)
    _put(row, cells, cell, colour)


@njit(cache=True)
def _start_count(context, row, colour, out):
    """:func:`start_count` of the row for ``colour``."""
    params = context.params
    n = params[N]
    cells = n * n
    counts = row[cells + COUNTS : cells + PHASE]
    work = (context.neutrals, context.scratch, context.flipped)
    capturing = params[CAPTURES] != 0
    return start_count(row[:cells], n, colour, counts[EMPTY], counts[NEUTRAL], counts[colour], capturing, out, work)


@njit(cache=True)
def legal(context, row, out):
    """The legal actions of each micro-step (module docstring)."""
    params = context.params
    n = params[N]
    cells = n * n
    meta = row[cells:]
    if meta[PLAYER] == TERMINAL:
        return 0
    board, phase, colour = row[:cells], meta[PHASE], meta[COLOUR]
    counts, capturing, adjacent = meta[COUNTS : COUNTS + 4], params[CAPTURES] != 0, params[ADJACENT] != 0
    first, second, skip, skip_too = offered(
        phase,
        colour,
        counts[EMPTY],
        counts[NEUTRAL],
        counts[colour],
        meta[CHOSEN],
        meta[CHOSEN + 1],
        capturing,
        adjacent,
    )
    if first >= 0:
        count = 0
        for i in range(cells):
            if (board[i] == first or board[i] == second) and i != skip and i != skip_too:
                out[count] = i
                count += 1
    else:
        count = picked_into(board, n, phase, colour, out, (context.neutrals, context.scratch, context.flipped))
    if phase == START:
        if count == 0:  # the other side has a turn (else the game would be over)
            out[0] = cells
            return 1
        if meta[TURNS] == params[PIE_TURN] and meta[SWAPPED] == 0:
            out[count] = cells + 1
            count += 1
    return count


@njit(cache=True)
def _end_turn(context, row, first, second):
    """The turn made ``first`` and ``second`` (-1: none) the mover's: a win, else the other colour's turn."""
    params = context.params
    n = params[N]
    cells = n * n
    meta = row[cells:]
    mover = meta[COLOUR]
    meta[TURNS] += 1
    meta[PHASE], meta[CHOSEN], meta[CHOSEN + 1] = START, -1, -1
    if first >= 0 and meta[COUNTS + mover] >= params[GOAL_STONES]:
        if turn_reached(row[:cells], n, params[GOAL], mover, first, second, context.neighbours, context.sides):
            meta[OUTCOME], meta[PLAYER] = mover, TERMINAL
            return
    meta[COLOUR] = 3 - mover
    _neutral_turn(context, row)


@njit(cache=True)
def _neutral_turn(context, row):
    """The colour to move has a turn (a pass where only the other side has one), or the game
    ends by the base game's count."""
    params = context.params
    n = params[N]
    cells = n * n
    meta = row[cells:]
    colour, starts = meta[COLOUR], context.starts
    if _start_count(context, row, colour, starts) > 0 or _start_count(context, row, 3 - colour, starts) > 0:
        meta[PLAYER] = (colour - 1) ^ meta[SWAPPED]
        return
    first, second = meta[COUNTS + FIRST], meta[COUNTS + SECOND]
    meta[OUTCOME] = outcome_at_end(row[:cells], first, second, n, params[GOAL], context.neighbours, context.sides)
    meta[PLAYER] = TERMINAL


@njit(cache=True)
def begin(context, row):
    """Fill a row made by ``envs.stones.compiled.new_row``: counts, whose turn it is, or the end."""
    count_values(row, context.params[N] * context.params[N])
    _neutral_turn(context, row)


@njit(cache=True)
def apply(context, row, action):
    """A legal action: swap sides, a pass, or one micro-step."""
    params = context.params
    n = params[N]
    cells = n * n
    meta = row[cells:]
    colour, phase = meta[COLOUR], meta[PHASE]
    if action == cells + 1:  # swap-sides: the same colour moves next, now the other seat's
        meta[SWAPPED] = 1
        meta[TURNS] += 1
        meta[PLAYER] = (colour - 1) ^ 1
        return
    if action == cells:
        _end_turn(context, row, -1, -1)
        return
    counts = meta[COUNTS : COUNTS + 4]
    drop, swap, _, _ = turn_starts(counts[EMPTY], counts[NEUTRAL], counts[colour], params[CAPTURES] != 0)
    was_empty = row[action] == EMPTY
    if stone_of(phase, colour) == colour:
        _place(context, row, action, colour)
    else:
        _put(row, cells, action, NEUTRAL)
    if phase == START:
        meta[CHOSEN] = action
    elif phase == SWAP_SECOND:
        meta[CHOSEN + 1] = action
    spots = phase == START and was_empty and drop and counts[EMPTY] > 0
    if spots and params[ADJACENT]:
        spots = touching_into(row[:cells], n, context.starts) > 0
    phase = next_phase(phase, was_empty, drop, swap, spots)
    if phase == START:
        _end_turn(context, row, meta[CHOSEN], meta[CHOSEN + 1])
    else:
        meta[PHASE] = phase


# --- the random playout ----------------------------------------------------------------------------
@njit(cache=True)
def play(context, row, seed):
    """A random game from the row (left untouched): ``(outcome colour or 0, decisions, turns,
    the pie swap taken)``, the game ``envs.row_playout`` plays over ``legal`` and ``apply`` (the
    tests check it): each micro-step draws one of the cells the rules above offer, in the same
    order, and plays it as ``apply`` does.

    Every draw picks a cell by its rank among the cells holding one or two values; counts of
    each value per board row (``rows``) skip to the right row, so no draw scans the whole board
    and a change of a cell costs two increments. AdNeuVersi's drop neutral is drawn among the
    empty cells by the stones around each (``touch``), which only a filled cell changes.

    Hex chains live in a union-find per colour with its two edge nodes, as in
    ``envs.stones.compiled.placement_play``, built once the colour has n stones (fewer cannot
    join its edges). A swap's give-back takes a stone out of a chain, which a union-find cannot
    undo: that colour's sets are then a superset of its chains (stale), so "not joined" is still
    exact and only a claimed join rebuilds them from the board before it counts. The other
    goals are searched from the turn's new stones (``envs.stones.goals``).
    """
    params, neighbours, sides = context.params, context.neighbours, context.sides
    n, goal, goal_stones, pie_turn = params[N], params[GOAL], params[GOAL_STONES], params[PIE_TURN]
    capturing, adjacent = params[CAPTURES] != 0, params[ADJACENT] != 0
    cells = n * n
    meta = row[cells:]
    colour, turns, swapped = meta[COLOUR], meta[TURNS], meta[SWAPPED] != 0
    if meta[PLAYER] == TERMINAL:
        return meta[OUTCOME], 0, 0, swapped
    phase, chosen, chosen_too = meta[PHASE], meta[CHOSEN], meta[CHOSEN + 1]
    board = np.empty(cells, np.uint8)
    counts = np.zeros(5, np.int64)  # empty, colour 1, colour 2, neutral, off the board
    rows = np.zeros((5, n), np.int64)  # the same per board row
    touch = np.zeros(cells if adjacent else 0, np.int64)  # AdNeuVersi: the filled cells around each cell
    for i in range(cells):
        board[i] = row[i]
        counts[row[i]] += 1
        rows[row[i], i // n] += 1
    parents = np.empty((3, cells + 4), np.int64)  # row c: colour c's union-find
    sets = np.full(3, UNTRACKED)  # per colour: UNTRACKED, EXACT or STALE
    room = cells if capturing or adjacent else 0  # the scratch of captures and adjacency, else none
    starts = np.empty(room, np.int64)
    touching = 0  # AdNeuVersi: the empty cells with a non-empty one around
    if adjacent:
        touching = touching_into(board, n, starts)
        for i in range(cells):
            if board[i] != EMPTY:
                _stone_touches(board, n, touch, i)
    work = (np.empty(room, np.int64), np.empty(room, np.uint8), np.empty(4 * n if capturing else 0, np.int64))
    decisions, start = 0, turns
    drop = swap = True
    while True:
        pie = 0
        if phase == START:
            drop, swap, _, _ = turn_starts(counts[EMPTY], counts[NEUTRAL], counts[colour], capturing)
            pie = 1 if turns == pie_turn and not swapped else 0
        first, second, skip, skip_too = offered(
            phase, colour, counts[EMPTY], counts[NEUTRAL], counts[colour], chosen, chosen_too, capturing, adjacent
        )
        if first >= 0:
            count = counts[first] + (counts[second] if second != first else 0) - (skip >= 0) - (skip_too >= 0)
        elif phase == DROP_NEUTRAL:
            count = touching
        else:
            count = picked_into(board, n, phase, colour, starts, work)
        if count == 0:  # no turn for the mover: a pass where the other side has one, else the end
            other = 3 - colour
            others = start_count(
                board, n, other, counts[EMPTY], counts[NEUTRAL], counts[other], capturing, starts, work
            )
            if others == 0:
                break
            _, seed = draw(seed, 1)
            decisions += 1
            turns += 1
            colour = other
            continue
        index, seed = draw(seed, count + pie)
        decisions += 1
        if index == count:  # swap-sides: the same colour moves next, now the other seat's
            swapped = True
            turns += 1
            continue
        if first >= 0:
            if skip >= 0:  # ranks among all, the skipped cells counted
                low, high = min(skip, skip_too), max(skip, skip_too)
                if index >= _row_rank(board, n, rows, first, low):
                    index += 1
                if index >= _row_rank(board, n, rows, first, high):
                    index += 1
            cell = _row_nth(board, n, rows, first, second, index)
        elif phase == DROP_NEUTRAL:
            cell = _nth_touching(board, touch, index)
        else:
            cell = starts[index]
        was_empty = board[cell] == EMPTY
        value = stone_of(phase, colour)
        if value == colour and capturing:
            for i in range(captures(board, n, cell, colour, work[2])):
                _set(board, n, counts, rows, work[2][i], colour)
        _set(board, n, counts, rows, cell, value)
        if was_empty and adjacent:
            touching += _stone_touches(board, n, touch, cell)
        if goal == GOAL_CHAIN and sets[colour] != UNTRACKED:
            if value == colour:
                link(board, n, parents[colour], neighbours, cell)
            elif not was_empty:  # a stone given back
                sets[colour] = STALE
        if phase == START:
            chosen = cell
        elif phase == SWAP_SECOND:
            chosen_too = cell
        spots = was_empty and counts[EMPTY] > 0 and (touching > 0 or not adjacent)
        phase = next_phase(phase, was_empty, drop, swap, spots)
        if phase != START:
            continue
        turns += 1
        if counts[colour] >= goal_stones:
            if goal == GOAL_CHAIN:
                won = joined(board, n, parents[colour], neighbours, sets, colour)
            else:
                won = turn_reached(board, n, goal, colour, chosen, chosen_too, neighbours, sides)
            if won:
                return colour, decisions, turns - start, swapped
        colour, chosen, chosen_too = 3 - colour, -1, -1
    outcome = outcome_at_end(board, counts[FIRST], counts[SECOND], n, goal, neighbours, sides)
    return outcome, decisions, turns - start, swapped


@njit(cache=True)
def _set(board, n, counts, rows, cell, value):
    """``board[cell] = value``, with the counts per value and per value and row kept in step."""
    old = board[cell]
    board[cell] = value
    counts[old] -= 1
    counts[value] += 1
    rows[old, cell // n] -= 1
    rows[value, cell // n] += 1


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
    return nth(board, row * n, row * n + n, first, second, index)


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
def _stone_touches(board, n, touch, cell):
    """Count the cell just filled in ``touch`` (per cell: its 8 neighbours that are not empty);
    return the change in the number of empty cells touching a filled one."""
    change = -1 if touch[cell] else 0
    r0, c0 = cell // n, cell % n
    for r in range(max(r0 - 1, 0), min(r0 + 2, n)):
        for c in range(max(c0 - 1, 0), min(c0 + 2, n)):
            other = r * n + c
            touch[other] += 1
            if touch[other] == 1 and board[other] == EMPTY:
                change += 1
    return change


@njit(cache=True)
def _nth_touching(board, touch, index):
    """The ``index``-th empty cell (from 0), in order, with a filled cell among its neighbours."""
    for cell in range(len(board)):
        if board[cell] == EMPTY and touch[cell]:
            if index == 0:
                return cell
            index -= 1
    return -1


@njit(cache=True)
def playout(context, row, seed, out):
    """The returns of ``play``."""
    outcome, _, _, swapped = play(context, row, seed)
    won_by(outcome, swapped, out)


@njit(cache=True)
def observe(context, row, out):
    """The stone planes, the neutral stones, the cells chosen earlier
    this turn, the micro-step's plane of ones (none at a turn's start)."""
    params = context.params
    cells = params[N] * params[N]
    meta = row[cells:]
    phase = meta[PHASE]
    pie = meta[TURNS] == params[PIE_TURN] and meta[SWAPPED] == 0 and phase == START and meta[PLAYER] != TERMINAL
    observe_stones(row[:cells], meta[COLOUR], pie, PLANES, out)
    flat = out.reshape(out.shape[0], cells)
    for i in range(cells):
        if row[i] == NEUTRAL:
            flat[NEUTRALS, i] = 1.0
    for k in range(2):
        if meta[CHOSEN + k] >= 0:
            flat[CHOSEN_PLANE, meta[CHOSEN + k]] = 1.0
    if phase != START:
        flat[CHOSEN_PLANE + phase, :] = 1.0


register(NeutralContext, legal=legal, apply=apply, to_play=to_play, returns=returns, playout=playout, observe=observe)
