"""Four-way walls' rules, written once, in numba over a flat int32 row: steps and jumps, the walls
that may stand, the race its heuristic scores (``steps_to_go``), and the game's micro-steps,
which the engine (``envs.kit.RowGame``: the state is the row), the random and cut playouts, the
search driver and the batched env all run (docs/games/four_way_walls.md; the board's points,
cells and walls are drawn in ``board.py``).

The rules: a step, a jump over a line of stones and its right-angle turn where a wall or
another boundary stops it (:func:`route_ways`), a wall's clashes (no overlap, no crossing), and
the path rule, searched only for a wall that closes a loop of walls and boundary (a union-find
of the points built afresh for each wall phase).

A row (int32) holds the 8 stones' cells (stone ``seat * 4 + goal``, -1 off the board), the
walls by centre (``WALLS`` on: ``2 * (n + 1) ** 2`` entries, ``o * (n + 1) ** 2 + i * (n + 1) +
j``), then the scalars ``PLAYER`` (the seat, kept at the end), ``TURN``, ``PHASE`` (0 the
steps, 1 the wall), ``STEPS`` (left this turn), ``MOVED`` (the stones moved this turn, bits),
``PICKED`` (-1 none), ``WALLS0``, ``WALLS1`` (in hand) and ``RESULT`` (-1 playing, 0 a draw, 1
or 2 the winning seat + 1). The context is a :class:`WallsContext`: ``params`` int64 ``[n,
max_turns, walls]``, the schedule's step counts, and scratch room. The legal actions come in
increasing order (the stones that can step by their cells, a picked stone's destinations by
cell with ``off`` last, the walls horizontal first by centre).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from envs.compiled import register
from envs.core import TERMINAL
from envs.kernels import find
from envs.row_playout import random_play

WALLS = 8  # where a row's walls start, after the 8 stones
PLAYER, TURN, PHASE, STEPS, MOVED, PICKED, WALLS0, WALLS1, RESULT = range(9)  # the scalars, after the walls
SCALARS = 9
N, MAX_TURNS, WALLS_EACH = range(3)  # params
BLOCKED, OFF = -2, -1
TO_WIN = 3
FAR = 1 << 16  # a cell's steps to a goal the walls shut out
WallsContext = namedtuple("WallsContext", ["params", "schedule", "parent", "seen", "todo", "scratch"])


def context(n: int, max_turns: int, walls: int, schedule) -> WallsContext:
    """The kernels' constants (``schedule``: each turn's steps, the last repeating) and scratch room."""
    points = (n + 1) ** 2
    params = np.array([n, max_turns, walls], np.int64)
    scratch = (np.empty(points + 1, np.int64), np.empty(n * n, np.uint8), np.empty(n * n, np.int64))
    return WallsContext(params, np.array(schedule, np.int64), *scratch, np.empty(8, np.int64))


def side_of(row: np.ndarray) -> int:
    """The board's side ``n`` of a row (its width tells it)."""
    return int(round(((len(row) - WALLS - SCALARS) // 2) ** 0.5)) - 1


def max_legal(n: int) -> int:
    """The most legal actions a row can have: the cells and off, or the walls."""
    return max(n * n + 1, 2 * (n - 1) ** 2)


# --- the game over a row ----------------------------------------------------------------------------
@njit(cache=True)
def _meta(context):
    """Where a row's scalars start."""
    n = context.params[N]
    return WALLS + 2 * (n + 1) * (n + 1)


@njit(cache=True)
def _parts(context, row):
    """The row's stones, walls and scalars."""
    meta = _meta(context)
    return row[:WALLS], row[WALLS:meta], row[meta:]


@njit(cache=True)
def legal(context, row, out):
    """The legal actions: the walls that may stand; the stones that can step; the
    picked stone's destinations (``n * n`` off the board)."""
    n = context.params[N]
    stones, walls, st = _parts(context, row)
    if st[RESULT] >= 0:
        return 0
    if st[PHASE] == 1:
        count = legal_walls(stones, walls, n, out, context, False)
        for i in range(count):
            out[i] += n * n + 1
        return count
    if st[PICKED] >= 0:
        return routes(stones, walls, n, st[PICKED], out)
    count = 0
    for k in range(4 * st[PLAYER], 4 * st[PLAYER] + 4):
        if _can_step(stones, walls, n, st, k, context.scratch):
            out[count] = stones[k]
            count += 1
    out[:count].sort()
    return count


@njit(cache=True)
def apply(context, row, action):
    """Play the legal ``action``: a wall, a stone picked, its destination."""
    n = context.params[N]
    stones, walls, st = _parts(context, row)
    mover = st[PLAYER]
    if st[PHASE] == 1:
        rest = action - n * n - 1
        o, slot = rest // ((n - 1) * (n - 1)), rest % ((n - 1) * (n - 1))
        walls[o * (n + 1) * (n + 1) + (slot // (n - 1) + 1) * (n + 1) + slot % (n - 1) + 1] = 1
        st[WALLS0 + mover] -= 1
        start_turn(context, row, 1 - mover, st[TURN] + 1)
    elif st[PICKED] < 0:
        for k in range(8):
            if stones[k] == action:
                st[PICKED] = k
                break
    else:
        stone = st[PICKED]
        stones[stone] = OFF if action == n * n else action
        st[PICKED] = -1
        st[MOVED] |= 1 << stone
        st[STEPS] -= 1
        off = 0
        for k in range(4 * mover, 4 * mover + 4):
            off += stones[k] == OFF
        if off >= TO_WIN:
            st[RESULT] = 1 + mover
        elif st[STEPS] == 0 or not _any_movable(stones, walls, n, st, context.scratch):
            st[PHASE] = 1  # the wall, if the mover has one in hand and a slot for it; else the next turn
            if not (st[WALLS0 + mover] > 0 and legal_walls(stones, walls, n, context.scratch, context, True)):
                start_turn(context, row, 1 - mover, st[TURN] + 1)


@njit(cache=True)
def start_turn(context, row, seat, turn):
    """Seat ``seat``'s turn ``turn``, or the next while a turn has
    neither a step nor a wall; the draw at ``max_turns``."""
    params, schedule = context.params, context.schedule
    n = params[N]
    stones, walls, st = _parts(context, row)
    while True:
        st[PLAYER], st[TURN] = seat, turn
        if turn >= params[MAX_TURNS]:
            st[RESULT] = 0
            return
        st[PHASE], st[STEPS], st[MOVED], st[PICKED] = 0, schedule[min(turn, len(schedule) - 1)], 0, -1
        if _any_movable(stones, walls, n, st, context.scratch):
            return
        st[PHASE] = 1
        if st[WALLS0 + seat] > 0 and legal_walls(stones, walls, n, context.scratch, context, True):
            return
        seat, turn = 1 - seat, turn + 1


@njit(cache=True)
def to_play(context, row):
    meta = _meta(context)
    return TERMINAL if row[meta + RESULT] >= 0 else row[meta + PLAYER]


@njit(cache=True)
def returns(context, row, out):
    """+1 / -1 for the first seat with three stones off the board; zeros otherwise."""
    result = row[_meta(context) + RESULT]
    out[:] = 0.0
    if result > 0:
        out[result - 1], out[2 - result] = 1.0, -1.0


@njit(cache=True)
def playout(context, row, seed, out):
    """The returns of ``envs.row_playout.random_play`` from ``row`` (left untouched) to the end."""
    row = row.copy()
    n = context.params[N]
    random_play(context, row, seed, -1, np.empty(max(n * n + 1, 2 * (n - 1) * (n - 1)), np.int64))
    returns(context, row, out)


@njit(cache=True)
def observe(context, row, out):
    """The planes of ``FourWayWalls``' docstring from the row (its class docstring's 23 planes)."""
    params = context.params
    n = params[N]
    n1 = n + 1
    stones, walls, st = _parts(context, row)
    mover = st[PLAYER] if st[RESULT] < 0 else 0
    out[:] = 0.0
    for stone in range(8):
        cell = stones[stone]
        if cell != OFF:
            out[stone % 4 + (0 if stone // 4 == mover else 4), cell // n, cell % n] = 1.0
    for o in range(2):
        for i in range(1, n):
            for j in range(1, n):
                out[8 + o, i - 1, j - 1] = walls[o * n1 * n1 + i * n1 + j]
    for cell in range(n * n):
        for d in range(4):
            if _step(walls, n, cell, d, d) == BLOCKED:
                out[10 + d, cell // n, cell % n] = 1.0
    if st[PICKED] >= 0:
        cell = stones[st[PICKED]]
        out[14, cell // n, cell % n] = 1.0
    for stone in range(4 * mover, 4 * mover + 4):
        if st[MOVED] >> stone & 1 and stones[stone] != OFF:
            out[15, stones[stone] // n, stones[stone] % n] = 1.0
    if st[PHASE] == 1 and st[RESULT] < 0:
        out[16] = 1.0
    if st[PHASE] == 0:
        out[17] = st[STEPS] / 4
    if params[WALLS_EACH]:
        out[18] = st[WALLS0 + mover] / params[WALLS_EACH]
        out[19] = st[WALLS1 - mover] / params[WALLS_EACH]
    off = np.zeros(2, np.int64)
    for stone in range(8):
        off[stone // 4] += stones[stone] == OFF
    out[20] = off[mover] / TO_WIN
    out[21] = off[1 - mover] / TO_WIN
    out[22] = min(st[TURN], params[MAX_TURNS]) / params[MAX_TURNS]


@njit(cache=True)
def _any_movable(stones, walls, n, st, scratch):
    for k in range(4 * st[PLAYER], 4 * st[PLAYER] + 4):
        if _can_step(stones, walls, n, st, k, scratch):
            return True
    return False


@njit(cache=True)
def _can_step(stones, walls, n, st, k, scratch):
    """Whether stone ``k`` is on the board, has not stepped this turn and has a destination."""
    if stones[k] == OFF or st[MOVED] >> k & 1:
        return False
    return routes(stones, walls, n, k, scratch) > 0


# --- steps and jumps ------------------------------------------------------------
@njit(cache=True)
def _step(walls, n, cell, d, goal):
    """The next cell from ``cell`` in direction ``d`` (0..3 = N E S W), OFF across
    the stone's goal boundary, BLOCKED by a wall or another boundary."""
    r, c, n1 = cell // n, cell % n, n + 1
    v = n1 * n1  # where the vertical walls start
    if d == 0:
        if r == 0:
            return OFF if goal == 0 else BLOCKED
        if walls[r * n1 + c] or walls[r * n1 + c + 1]:
            return BLOCKED
        return cell - n
    if d == 2:
        if r == n - 1:
            return OFF if goal == 2 else BLOCKED
        if walls[(r + 1) * n1 + c] or walls[(r + 1) * n1 + c + 1]:
            return BLOCKED
        return cell + n
    if d == 3:
        if c == 0:
            return OFF if goal == 3 else BLOCKED
        if walls[v + r * n1 + c] or walls[v + (r + 1) * n1 + c]:
            return BLOCKED
        return cell - 1
    if c == n - 1:
        return OFF if goal == 1 else BLOCKED
    if walls[v + r * n1 + c + 1] or walls[v + (r + 1) * n1 + c + 1]:
        return BLOCKED
    return cell + 1


@njit(cache=True)
def _taken(stones, cell):
    """Whether a stone stands on ``cell`` (OFF is no cell)."""
    if cell < 0:
        return False
    for k in range(8):
        if stones[k] == cell:
            return True
    return False


@njit(cache=True)
def routes(stones, walls, n, stone, out):
    """Write the destinations of ``stone`` (cells, ``n * n`` for off the board) in increasing
    order into ``out``, each once; return their count."""
    return route_ways(stones, walls, n, stone, out, out[:0].reshape(0, 3))[0]  # room for no ways


@njit(cache=True, inline="always")  # inside routes, the hot path
def route_ways(stones, walls, n, stone, out, ways):
    """:func:`routes`' destinations and count, and the number of routes, each (its destination,
    its direction 0..3 = N E S W, the right angle a blocked jump turned or -1) into ``ways`` in
    the order found where ``ways`` has room. A step goes to the next cell; if stones stand there
    the stone jumps the whole line of them to the next vacant cell (or off, across its goal); a
    wall or boundary part-way through the jump lets it turn either right angle from the last
    stone jumped, one step onto a vacant cell (or off across its goal)."""
    cell, goal, count, found = stones[stone], stone % 4, 0, 0
    for d in range(4):
        nxt = _step(walls, n, cell, d, goal)
        if nxt == BLOCKED:
            continue
        while nxt != OFF and _taken(stones, nxt):  # a stone here: jump it
            last = nxt
            nxt = _step(walls, n, nxt, d, goal)
            if nxt == BLOCKED:  # stopped part-way: turn a right angle from the last stone jumped
                for turn in ((d + 1) % 4, (d + 3) % 4):
                    side = _step(walls, n, last, turn, goal)
                    if side != BLOCKED and not _taken(stones, side):
                        count = _add(out, count, n * n if side == OFF else side)
                        found = _way(ways, found, n * n if side == OFF else side, d, turn)
                break
        if nxt != BLOCKED:
            count = _add(out, count, n * n if nxt == OFF else nxt)
            found = _way(ways, found, n * n if nxt == OFF else nxt, d, -1)
    out[:count].sort()
    return count, found


@njit(cache=True, inline="always")
def _way(ways, found, destination, d, turn):
    if found < len(ways):
        ways[found, 0], ways[found, 1], ways[found, 2] = destination, d, turn
    return found + 1


@njit(cache=True)
def _add(out, count, value):
    for i in range(count):
        if out[i] == value:
            return count
    out[count] = value
    return count + 1


# --- walls: clashes and the path rule -----------------------------------------------------------------
@njit(cache=True)
def _node(n, i, j):
    return (n + 1) * (n + 1) if i == 0 or i == n or j == 0 or j == n else i * (n + 1) + j


@njit(cache=True)
def _ends(n, o, i, j):
    """The union-find nodes of a wall's two end points (every boundary point is one node)."""
    if o == 0:
        return _node(n, i, j - 1), _node(n, i, j + 1)
    return _node(n, i - 1, j), _node(n, i + 1, j)


@njit(cache=True)
def legal_walls(stones, walls, n, out, context, first_only):
    """Write the walls (``o * (n-1)**2 + (i-1)(n-1) + (j-1)``) that may be played, in order,
    into ``out`` (the first one only, with ``first_only``); return their count."""
    n1, parent = n + 1, context.parent
    v = n1 * n1  # where the vertical walls start
    for x in range(len(parent)):
        parent[x] = x
    for o in range(2):
        for p in range(n1 * n1):
            if walls[o * v + p]:
                a, c = _ends(n, o, p // n1, p % n1)
                a, b, c = find(parent, a), find(parent, p), find(parent, c)
                parent[a] = c
                parent[b] = find(parent, c)
    count = 0
    for o in range(2):
        step = 1 if o == 0 else n1  # from a wall's centre to the next along it
        for i in range(1, n):
            for j in range(1, n):
                p = o * v + i * n1 + j
                if walls[p] or walls[p - step] or walls[p + step] or walls[(1 - o) * v + i * n1 + j]:
                    continue
                a, c = _ends(n, o, i, j)
                a, b, c = find(parent, a), find(parent, i * n1 + j), find(parent, c)
                if a == b or b == c or a == c:  # it closes a loop: search the paths
                    walls[p] = 1
                    cut = not all_can_reach(stones, walls, n, context.seen, context.todo)
                    walls[p] = 0
                    if cut:
                        continue
                out[count] = o * (n - 1) * (n - 1) + (i - 1) * (n - 1) + j - 1
                count += 1
                if first_only:
                    return count
    return count


@njit(cache=True)
def all_can_reach(stones, walls, n, seen, todo):
    """Whether every stone on the board has a path to its goal boundary past the walls (stones do
    not count: they move)."""
    for goal in range(4):
        needed = False
        for k in range(8):
            needed |= stones[k] != OFF and k % 4 == goal
        if not needed:
            continue
        seen[:] = 0
        top = 0
        for e in range(n):
            cell = (e, e * n + n - 1, n * (n - 1) + e, e * n)[goal]
            seen[cell] = 1
            todo[top] = cell
            top += 1
        while top:
            top -= 1
            cell = todo[top]
            for d in range(4):
                nxt = _step(walls, n, cell, d, goal)
                if nxt >= 0 and not seen[nxt]:
                    seen[nxt] = 1
                    todo[top] = nxt
                    top += 1
        for k in range(8):
            if stones[k] != OFF and k % 4 == goal and not seen[stones[k]]:
                return False
    return True


@njit(cache=True)
def steps_to_go(stones, walls, n, out):
    """Each seat's steps to go into ``out[seat]``: the steps its ``TO_WIN`` stones nearest their
    goals need to leave the board, each by its shortest path past the walls, other stones left
    out (they move, and a stone jumps them), 0 for a stone off the board; the game is won by
    that many stones off, so the other stones' steps do not count. A breadth-first search from
    each goal's edge (a step off it is 1), whose steps are the same both ways: walls block both
    sides."""
    cells = n * n
    distance = np.empty((4, cells), np.int64)
    frontier, reached = np.empty(cells, np.int64), np.empty(cells, np.int64)
    for goal in range(4):
        distance[goal] = FAR
        count = 0
        for e in range(n):
            cell = (e, e * n + n - 1, n * (n - 1) + e, e * n)[goal]
            distance[goal, cell] = 1
            frontier[count] = cell
            count += 1
        while count:
            found = 0
            for i in range(count):
                cell = frontier[i]
                for d in range(4):
                    nxt = _step(walls, n, cell, d, goal)
                    if nxt >= 0 and distance[goal, nxt] == FAR:
                        distance[goal, nxt] = distance[goal, cell] + 1
                        reached[found] = nxt
                        found += 1
            frontier, reached = reached, frontier
            count = found
    steps = np.empty(4, np.int64)
    for seat in range(2):
        for goal in range(4):
            cell = stones[4 * seat + goal]
            steps[goal] = 0 if cell == OFF else distance[goal, cell]
        steps.sort()
        out[seat] = steps[:TO_WIN].sum()


register(WallsContext, legal=legal, apply=apply, to_play=to_play, returns=returns, playout=playout, observe=observe)
