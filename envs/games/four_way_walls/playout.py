"""Four-way walls' random playout in one numba kernel (``FourWayWalls.random_playout``), and
the race its heuristic scores (``steps_to_go``).

It plays the game the engine loop plays for the same seed (``Game.engine_playout``): one
``envs.kernels.draw`` per decision over the legal actions in the engine's order (the stones
that can step by their cells, a picked stone's destinations by cell with ``off`` last, the
walls horizontal first by centre), from any position, a turn begun included. The rules are
``board.py``'s, step for step: a step, a jump over a line of stones and its right-angle turn
where a wall or another boundary stops it (``routes``), a wall's clashes (``wall_clash``),
and the path rule searched only for a wall that closes a loop of walls and boundary
(``legal_walls``, a union-find of the points built afresh at each wall).

The kernel's state is one int64 array (its fields named below, ``PLAYER`` ... ``RESULT``), the
stones' cells (-1 off) and the walls by centre (``walls[orientation, i * (n + 1) + j]``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from envs.kernels import CUT, draw, find

# the kernel's state array: seat to move, turn, phase (0 steps, 1 the wall), steps left, the
# stones moved this turn (bits), the stone picked (-1 none), each seat's walls in hand, result
# (-1 playing, 0 a draw, 1 seat 0 won, 2 seat 1 won)
PLAYER, TURN, PHASE, STEPS, MOVED, PICKED, WALLS0, WALLS1, RESULT = range(9)
BLOCKED, OFF = -2, -1
TO_WIN = 3
FAR = 1 << 16  # a cell's steps to a goal the walls shut out


@njit(cache=True)
def playout(stones, walls, fields, n, schedule, max_turns, seed, cut, cut_stones, cut_walls):
    """``(outcome, decisions, turns)`` of a random game from a position (not over), as
    ``Game.engine_playout`` counts them: ``outcome`` 0 a draw, 1 or 2 the winning seat + 1;
    ``CUT`` once ``cut`` turns have ended (-1: never), the stones and walls then in
    ``cut_stones`` and ``cut_walls``.
    ``stones``: the 8 stones' cells (``Position.stones``); ``walls``: ``(2, (n+1)**2)``;
    ``fields``: the state array (``PLAYER`` ... ``RESULT``); ``schedule``: the step counts."""
    stones, walls, st = stones.copy(), walls.copy(), fields.copy()
    options = np.empty(max(n * n + 1, 2 * (n - 1) * (n - 1)), np.int64)
    parent = np.empty((n + 1) * (n + 1) + 1, np.int64)
    seen = np.empty(n * n, np.uint8)
    todo = np.empty(n * n, np.int64)
    scratch = np.empty(8, np.int64)
    work = (options, parent, seen, todo, scratch)
    walls_found = -1  # the count of legal walls in ``options`` when the wall phase just began
    decisions = turns = 0
    while st[RESULT] < 0:
        if turns == cut:  # the game goes on: the heuristic scores the position
            cut_stones[:] = stones
            cut_walls[:] = walls
            return CUT, decisions, turns
        mover = st[PLAYER]
        if st[PHASE] == 1:
            count = walls_found if walls_found >= 0 else _legal_walls(stones, walls, n, options, parent, seen, todo)
            walls_found = -1
            index, seed = draw(seed, count)
            action = options[index]
            o, rest = action // ((n - 1) * (n - 1)), action % ((n - 1) * (n - 1))
            walls[o, (rest // (n - 1) + 1) * (n + 1) + rest % (n - 1) + 1] = 1
            st[WALLS0 + mover] -= 1
            walls_found = _start_turn(stones, walls, st, n, 1 - mover, st[TURN] + 1, schedule, max_turns, work)
        elif st[PICKED] < 0:
            count = 0
            for k in range(4 * mover, 4 * mover + 4):
                if _can_step(stones, walls, n, st, k, scratch):
                    options[count] = stones[k]
                    count += 1
            options[:count].sort()
            index, seed = draw(seed, count)
            for k in range(4 * mover, 4 * mover + 4):
                if stones[k] == options[index]:
                    st[PICKED] = k
        else:
            stone = st[PICKED]
            count = _routes(stones, walls, n, stone, options)
            index, seed = draw(seed, count)
            target = options[index]
            stones[stone] = OFF if target == n * n else target
            st[PICKED] = -1
            st[MOVED] |= 1 << stone
            st[STEPS] -= 1
            off = 0
            for k in range(4 * mover, 4 * mover + 4):
                off += stones[k] == OFF
            if off >= TO_WIN:
                st[RESULT] = 1 + mover
            elif st[STEPS] == 0 or not _any_movable(stones, walls, n, st, scratch):
                st[PHASE] = 1
                if st[WALLS0 + mover] > 0:
                    walls_found = _legal_walls(stones, walls, n, options, parent, seen, todo)
                if walls_found <= 0:
                    walls_found = _start_turn(stones, walls, st, n, 1 - mover, st[TURN] + 1, schedule, max_turns, work)
        decisions += 1
        turns += 1 if st[RESULT] >= 0 or st[PLAYER] != mover else 0
    return st[RESULT], decisions, turns


@njit(cache=True)
def _start_turn(stones, walls, st, n, seat, turn, schedule, max_turns, work):
    """``FourWayWalls._start_turn``: seat ``seat``'s turn ``turn``, or the next while it passes;
    the count of legal walls left in ``work``'s options when the turn is a wall alone, else -1."""
    options, parent, seen, todo, scratch = work
    while True:
        st[PLAYER], st[TURN] = seat, turn
        if turn >= max_turns:
            st[RESULT] = 0
            return -1
        st[PHASE], st[STEPS], st[MOVED], st[PICKED] = 0, schedule[min(turn, len(schedule) - 1)], 0, -1
        if _any_movable(stones, walls, n, st, scratch):
            return -1
        st[PHASE] = 1
        if st[WALLS0 + seat] > 0:
            count = _legal_walls(stones, walls, n, options, parent, seen, todo)
            if count > 0:
                return count
        seat, turn = 1 - seat, turn + 1


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
    return _routes(stones, walls, n, k, scratch) > 0


# --- steps and jumps (``board.routes``) ------------------------------------------------------------
@njit(cache=True)
def _step(walls, n, cell, d, goal):
    """``board.step``: the next cell from ``cell`` in direction ``d`` (0..3 = N E S W), OFF across
    the stone's goal boundary, BLOCKED by a wall or another boundary."""
    r, c, n1 = cell // n, cell % n, n + 1
    if d == 0:
        if r == 0:
            return OFF if goal == 0 else BLOCKED
        if walls[0, r * n1 + c] or walls[0, r * n1 + c + 1]:
            return BLOCKED
        return cell - n
    if d == 2:
        if r == n - 1:
            return OFF if goal == 2 else BLOCKED
        if walls[0, (r + 1) * n1 + c] or walls[0, (r + 1) * n1 + c + 1]:
            return BLOCKED
        return cell + n
    if d == 3:
        if c == 0:
            return OFF if goal == 3 else BLOCKED
        if walls[1, r * n1 + c] or walls[1, (r + 1) * n1 + c]:
            return BLOCKED
        return cell - 1
    if c == n - 1:
        return OFF if goal == 1 else BLOCKED
    if walls[1, r * n1 + c + 1] or walls[1, (r + 1) * n1 + c + 1]:
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
def _routes(stones, walls, n, stone, out):
    """Write the destinations of ``stone`` (cells, ``n * n`` for off the board) in increasing
    order into ``out``, each once; return their count."""
    cell, goal, count = stones[stone], stone % 4, 0
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
                break
        if nxt != BLOCKED:
            count = _add(out, count, n * n if nxt == OFF else nxt)
    out[:count].sort()
    return count


@njit(cache=True)
def _add(out, count, value):
    for i in range(count):
        if out[i] == value:
            return count
    out[count] = value
    return count + 1


# --- walls (``board.legal_walls``) -----------------------------------------------------------------
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
def _legal_walls(stones, walls, n, out, parent, seen, todo):
    """Write the wall actions (``o * (n-1)**2 + (i-1)(n-1) + (j-1)``) that may be played, in
    order, into ``out``; return their count."""
    n1 = n + 1
    for x in range(len(parent)):
        parent[x] = x
    for o in range(2):
        for p in range(n1 * n1):
            if walls[o, p]:
                a, c = _ends(n, o, p // n1, p % n1)
                a, b, c = find(parent, a), find(parent, p), find(parent, c)
                parent[a] = c
                parent[b] = find(parent, c)
    count = 0
    for o in range(2):
        di, dj = (0, 1) if o == 0 else (1, 0)
        for i in range(1, n):
            for j in range(1, n):
                p = i * n1 + j
                if walls[o, p] or walls[o, p - di * n1 - dj] or walls[o, p + di * n1 + dj] or walls[1 - o, p]:
                    continue
                a, c = _ends(n, o, i, j)
                a, b, c = find(parent, a), find(parent, p), find(parent, c)
                if a == b or b == c or a == c:  # it closes a loop: search the paths
                    walls[o, p] = 1
                    cut = not _all_can_reach(stones, walls, n, seen, todo)
                    walls[o, p] = 0
                    if cut:
                        continue
                out[count] = o * (n - 1) * (n - 1) + (i - 1) * (n - 1) + j - 1
                count += 1
    return count


@njit(cache=True)
def _all_can_reach(stones, walls, n, seen, todo):
    """``board.all_can_reach``: every stone on the board has a path to its goal boundary."""
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
