"""Numba kernels that step a batch of stone games (every ``envs.stones.rules`` game and its
neutral variant) at once: the rules of ``envs.stones.rules`` and ``envs.neutral.mutator`` over
arrays, the goal judged by ``envs.stones.goals``.

A batch is a struct of arrays, one row per game: ``board`` (uint8 ``[N, cells]``, the
colours as ``envs.stones.rules.StoneState`` stores them), ``counts`` (``[N, 5]``: empty, colour 1,
colour 2, neutral, off the board), ``meta`` (int64 ``[N, META]``, the fields named below), ``mask`` (int8
``[N, actions]``, the legal actions of the node, all zeros at the end) and ``seeds`` (int64
``[N]``, each game's ``envs.kernels.draw`` stream, which picks the random opponent's
actions and the random seat). One constant ``params`` row holds the game's parameters.

Each rule below mirrors the engine method named in its docstring; the tests replay
thousands of games against the engine for every game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from envs.kernels import EMPTY, FIRST, GOAL_CHAIN, NEUTRAL, OFF_BOARD, SECOND, draw, find
from envs.neutral.kernels import (
    DROP_NEUTRAL,
    START,
    SWAP_GIVE,
    SWAP_SECOND,
    touching_into,
    turn_starts,
)
from envs.stones.bitboards import MAX_SIZE, capturing_moves
from envs.stones.chains import link
from envs.stones.flanking import capture_starts, captures, capturing_into
from envs.stones.goals import outcome_at_end, turn_reached
from envs.vector.common import (
    DONE,
    LEGAL,
    PLAYER,
    SEAT,
    SHARED_META,
    TERMINAL,
    Batch,
    begin_step,
    end_step,
    lose_by_illegal,
    new_game,
    nth_legal,
)

# meta columns: one game's scalars
# (STARTS: how many turn starts ``_end_turn`` left in the scratch ``out``, -1 for none, so that
# ``_legal_into`` does not search a capturing game's moves twice)
COLOUR, SWAPPED, TURNS, PHASE, CHOSEN, CHOSEN2, OUTCOME, STARTS = range(SHARED_META, SHARED_META + 8)
META = SHARED_META + 8
# params entries: the game's constants
# (OFF_PLANE: the plane marking the cells off the board, -1 where every cell is on it)
N, CAPTURES, NEUTRALS, ADJACENT, GOAL, PIE_TURN, GOAL_STONES, PLANES, OPPONENT, SEAT_OPTION, OFF_PLANE = range(11)


def make_params(game, single_agent: bool, seat_option: int) -> np.ndarray:
    """The ``params`` row of a ``StoneGame`` (plain or neutral)."""
    from envs.neutral.mutator import NeutralGame

    rules, neutral = game.rules, isinstance(game, NeutralGame)
    params = np.zeros(11, np.int64)
    params[N] = game.n
    params[CAPTURES] = rules.captures
    params[NEUTRALS] = neutral
    params[ADJACENT] = neutral and game.adjacent_neutrals
    params[GOAL] = rules.kernel_goal
    params[PIE_TURN] = -1 if game.pie_turn is None else game.pie_turn
    params[GOAL_STONES] = min(rules.goal_stones, 2**62)
    params[PLANES] = game.info.obs_shape[0]
    params[OPPONENT] = single_agent
    params[SEAT_OPTION] = seat_option
    params[OFF_PLANE] = -1 if rules.off_board is None else len(game.PLANES)
    return params


class Scratch:
    """Work space the kernels share (allocated once per batch)."""

    def __init__(self, n: int):
        cells = n * n
        self.cells = np.empty(cells, np.int64)
        self.work = (np.empty(cells, np.int64), np.empty(cells, np.uint8), np.empty(4 * n, np.int64))
        self.flipped = np.empty(4 * n, np.int64)


# --- the legal actions ------------------------------------------------------------------------------
@njit(cache=True)
def _seat_of(meta, colour):
    return (colour - 1) ^ meta[SWAPPED]


@njit(cache=True)
def _starts(board, counts, meta, params, colour, out, work):
    """``StoneGame._moves`` / ``NeutralGame._moves``: the cells that start a turn, in order."""
    n, cells = params[N], len(board)
    if params[CAPTURES]:
        if params[NEUTRALS] and counts[NEUTRAL]:
            return capture_starts(board, n, colour, out, work)
        if n <= MAX_SIZE and counts[NEUTRAL] == 0:
            return capturing_moves(board, n, colour, out)
        return capturing_into(board, n, colour, EMPTY, out)
    want_empty, want_neutral = True, False
    if params[NEUTRALS]:  # the drop, the swap, or Taylor's fill and convert rules
        _, _, want_empty, want_neutral = turn_starts(counts[EMPTY], counts[NEUTRAL], counts[colour])
    count = 0
    for cell in range(cells):
        v = board[cell]
        if (want_empty and v == EMPTY) or (want_neutral and v == NEUTRAL):
            out[count] = cell
            count += 1
    return count


@njit(cache=True)
def _legal_into(board, counts, meta, params, mask, out, work):
    """Write the node's legal mask (``StoneGame._legal`` / ``NeutralGame._legal``) and
    return how many actions it has; zeros at the end."""
    mask[:] = 0
    if meta[PLAYER] == TERMINAL:
        return 0
    n, colour, phase, cells = params[N], meta[COLOUR], meta[PHASE], len(board)
    count = 0
    if phase == START:
        count = meta[STARTS] if meta[STARTS] >= 0 else _starts(board, counts, meta, params, colour, out, work)
        meta[STARTS] = -1
        for i in range(count):
            mask[out[i]] = 1
        if count == 0:  # the turn starts with nothing to do: a forced pass
            mask[cells] = 1
            return 1
        if meta[TURNS] == params[PIE_TURN] and meta[SWAPPED] == 0:
            mask[cells + 1] = 1
            count += 1
        return count
    if phase == DROP_NEUTRAL:
        if params[ADJACENT]:
            count = touching_into(board, n, out)
            for i in range(count):
                mask[out[i]] = 1
            return count
        return _mask_holding(board, EMPTY, mask)
    if phase == SWAP_SECOND:
        if params[CAPTURES]:
            count = capturing_into(board, n, colour, NEUTRAL, out)
            for i in range(count):
                mask[out[i]] = 1
            return count
        return _mask_holding(board, NEUTRAL, mask)
    for cell in range(cells):  # SWAP_GIVE: a stone of the mover's but the two just swapped
        if board[cell] == colour and cell != meta[CHOSEN] and cell != meta[CHOSEN2]:
            mask[cell] = 1
            count += 1
    return count


@njit(cache=True)
def _mask_holding(board, value, mask):
    """Mark the cells holding ``value`` legal; return their count."""
    count = 0
    for cell in range(len(board)):
        if board[cell] == value:
            mask[cell] = 1
            count += 1
    return count


# --- transitions ------------------------------------------------------------------------------------
@njit(cache=True)
def _set(board, counts, cell, value):
    counts[board[cell]] -= 1
    counts[value] += 1
    board[cell] = value


@njit(cache=True)
def _place(board, counts, params, cell, colour, flipped):
    """``StoneGame._place``: a ``colour`` stone on ``cell`` with its captures."""
    if params[CAPTURES]:
        for i in range(captures(board, params[N], cell, colour, flipped)):
            _set(board, counts, flipped[i], colour)
    _set(board, counts, cell, colour)


@njit(cache=True)
def _wins(board, params, sides, neighbours, parent, colour, first, second):
    """``Rules.wins`` for the turn that made ``first`` (and ``second``, or -1) ``colour``'s.
    Plain Hex asks its union-find (stones are never taken back there); the others search."""
    goal, n = params[GOAL], params[N]
    if goal == GOAL_CHAIN and not params[NEUTRALS]:
        base = n * n + 2 * (colour - 1)
        return find(parent, base) == find(parent, base + 1)
    return turn_reached(board, n, goal, colour, first, second, neighbours, sides)


@njit(cache=True)
def _final_outcome(board, counts, params, sides, neighbours):
    """``Rules.final_outcome``."""
    return outcome_at_end(board, counts[FIRST], counts[SECOND], params[N], params[GOAL], neighbours, sides)


@njit(cache=True)
def _end_turn(board, counts, meta, params, sides, neighbours, parent, first, second, out, work):
    """``StoneGame._end_turn`` and ``_start_turn``: judge the turn, then hand the move over."""
    mover = meta[COLOUR]
    meta[TURNS] += 1
    meta[PHASE], meta[CHOSEN], meta[CHOSEN2] = START, -1, -1
    if (
        first >= 0
        and counts[mover] >= params[GOAL_STONES]
        and _wins(board, params, sides, neighbours, parent, mover, first, second)
    ):
        meta[OUTCOME], meta[PLAYER] = mover, TERMINAL
        return
    colour = 3 - mover
    meta[COLOUR] = colour
    if params[CAPTURES]:
        starts = _starts(board, counts, meta, params, colour, out, work)
        if starts:
            meta[PLAYER], meta[STARTS] = _seat_of(meta, colour), starts  # ``out`` holds them
            return
        if _can_capture(board, counts, meta, params, 3 - colour, out, work):
            meta[PLAYER], meta[STARTS] = _seat_of(meta, colour), 0  # a forced pass
            return
    elif counts[EMPTY] + (counts[NEUTRAL] if params[NEUTRALS] else 0) > 0:
        meta[PLAYER] = _seat_of(meta, colour)
        return
    meta[OUTCOME] = _final_outcome(board, counts, params, sides, neighbours)
    meta[PLAYER] = TERMINAL


@njit(cache=True)
def _can_capture(board, counts, meta, params, colour, out, work):
    """``_can_move`` of a capturing game: whether ``colour`` has a turn."""
    return _starts(board, counts, meta, params, colour, out, work) > 0


@njit(cache=True)
def _apply(board, counts, meta, params, sides, neighbours, parent, action, out, work, flipped):
    """``StoneGame.apply`` / ``NeutralGame._play`` of a legal action."""
    cells, colour = len(board), meta[COLOUR]
    if action == cells + 1:  # swap-sides
        meta[SWAPPED] = 1
        meta[TURNS] += 1
        meta[PLAYER] = _seat_of(meta, colour)
        return
    if action == cells:  # pass
        _end_turn(board, counts, meta, params, sides, neighbours, parent, -1, -1, out, work)
        return
    cell = action
    if not params[NEUTRALS]:
        _place(board, counts, params, cell, colour, flipped)
        if params[GOAL] == GOAL_CHAIN:
            link(board, params[N], parent, neighbours, cell)
        _end_turn(board, counts, meta, params, sides, neighbours, parent, cell, -1, out, work)
        return
    phase = meta[PHASE]
    if phase == START:
        was_empty = board[cell] == EMPTY
        drop, swap, _, _ = turn_starts(counts[EMPTY], counts[NEUTRAL], counts[colour])
        if params[CAPTURES]:  # every stone placed captures: a drop or a swap, never the end-game rules
            drop = swap = True
        drop, swap = drop and was_empty, swap and not was_empty
        _place(board, counts, params, cell, colour, flipped)
        meta[CHOSEN] = cell
        if drop:
            if params[ADJACENT] or counts[EMPTY] == 0:
                spots = touching_into(board, params[N], out) if params[ADJACENT] else counts[EMPTY]
                if spots == 0:  # the neutral is left out
                    _end_turn(board, counts, meta, params, sides, neighbours, parent, cell, -1, out, work)
                    return
            meta[PHASE] = DROP_NEUTRAL
        elif swap:
            meta[PHASE] = SWAP_SECOND
        else:  # the fill or convert rule: the whole turn
            _end_turn(board, counts, meta, params, sides, neighbours, parent, cell, -1, out, work)
    elif phase == DROP_NEUTRAL:
        _set(board, counts, cell, NEUTRAL)
        _end_turn(board, counts, meta, params, sides, neighbours, parent, meta[CHOSEN], -1, out, work)
    elif phase == SWAP_SECOND:
        _place(board, counts, params, cell, colour, flipped)
        meta[CHOSEN2] = cell
        meta[PHASE] = SWAP_GIVE
    else:
        _set(board, counts, cell, NEUTRAL)
        _end_turn(board, counts, meta, params, sides, neighbours, parent, meta[CHOSEN], meta[CHOSEN2], out, work)


# --- observations and the batch step ------------------------------------------------------------
@njit(cache=True)
def _observe(board, meta, params, planes):
    """``StoneGame.observe`` (with ``NeutralGame._extra_planes``) into ``planes`` ``[P, n, n]``,
    every value written once."""
    n, colour, count = params[N], meta[COLOUR], params[PLANES]
    cells = n * n
    flat = planes.reshape(count, cells)
    pie = meta[TURNS] == params[PIE_TURN] and meta[SWAPPED] == 0 and meta[PHASE] == 0 and meta[PLAYER] != TERMINAL
    pie_value, first_value = np.float32(pie), np.float32(colour == FIRST)
    for cell in range(cells):
        v = board[cell]
        flat[0, cell] = v == colour
        flat[1, cell] = v == 3 - colour
        flat[count - 2, cell] = pie_value
        flat[count - 1, cell] = first_value
    if params[OFF_PLANE] >= 0:
        for cell in range(cells):
            flat[params[OFF_PLANE], cell] = board[cell] == OFF_BOARD
    if params[NEUTRALS]:
        for cell in range(cells):
            flat[2, cell] = board[cell] == NEUTRAL
            flat[3, cell] = cell == meta[CHOSEN] or cell == meta[CHOSEN2]
        for phase in (DROP_NEUTRAL, SWAP_SECOND, SWAP_GIVE):
            flat[3 + phase, :] = np.float32(meta[PHASE] == phase)


@njit(cache=True)
def _advance(i, board, counts, meta, params, sides, neighbours, parents, mask, seeds, out, work, flipped):
    """Play the random opponent (single-agent mode) until the agent's seat is to play."""
    row = meta[i]
    while params[OPPONENT] and row[PLAYER] != TERMINAL and row[PLAYER] != row[SEAT]:
        index, seeds[i] = draw(seeds[i], row[LEGAL])
        _apply(
            board[i],
            counts[i],
            row,
            params,
            sides,
            neighbours,
            parents[i],
            nth_legal(mask[i], index),
            out,
            work,
            flipped,
        )
        row[LEGAL] = _legal_into(board[i], counts[i], row, params, mask[i], out, work)


@njit(cache=True)
def _reset(i, initial, board, counts, meta, params, sides, neighbours, parents, mask, seeds, obs, out, work, flipped):
    """A new game in row ``i``: the seat drawn first (when random), then the opponent's
    opening moves; observation and mask written."""
    row = meta[i]
    board[i, :] = initial
    counts[i, :] = 0
    for v in initial:
        counts[i, v] += 1
    row[COLOUR], row[SWAPPED], row[TURNS], row[PHASE] = FIRST, 0, 0, START
    row[CHOSEN], row[CHOSEN2], row[PLAYER], row[OUTCOME], row[STARTS] = -1, -1, 0, -1, -1
    for k in range(parents.shape[1]):  # plain Hex's union-find: every stone alone (the board is empty)
        parents[i, k] = k
    new_game(i, meta, seeds, params[OPPONENT], params[SEAT_OPTION])
    row[LEGAL] = _legal_into(board[i], counts[i], row, params, mask[i], out, work)
    _advance(i, board, counts, meta, params, sides, neighbours, parents, mask, seeds, out, work, flipped)
    _observe(board[i], row, params, obs[i])


@njit(cache=True)
def reset_games(
    which, initial, board, counts, meta, params, sides, neighbours, parents, mask, seeds, obs, out, work, flipped
):
    """A new game in every row ``i`` with ``which[i]``."""
    for i in range(len(which)):
        if which[i]:
            _reset(
                i,
                initial,
                board,
                counts,
                meta,
                params,
                sides,
                neighbours,
                parents,
                mask,
                seeds,
                obs,
                out,
                work,
                flipped,
            )


@njit(cache=True)
def step_games(
    actions,
    illegal,
    initial,
    board,
    counts,
    meta,
    params,
    sides,
    neighbours,
    parents,
    mask,
    seeds,
    obs,
    rewards,
    terminated,
    returns,
    out,
    work,
    flipped,
):
    """One step of every game: a game that ended on the last step starts anew (next-step
    autoreset, reward 0); ``illegal[i]`` ends game ``i`` as a loss for its mover; otherwise
    ``actions[i]`` is played, then the opponent's replies. ``returns[i]`` gets the per-seat
    result of a game that ends; ``rewards[i]`` the acting seat's (two-player) or the agent's."""
    for i in range(len(actions)):
        row = meta[i]
        begin_step(i, rewards, terminated, returns)
        if row[DONE]:
            _reset(
                i,
                initial,
                board,
                counts,
                meta,
                params,
                sides,
                neighbours,
                parents,
                mask,
                seeds,
                obs,
                out,
                work,
                flipped,
            )
            continue
        actor = row[PLAYER]
        if illegal[i]:
            lose_by_illegal(i, actor, meta, mask, returns)
        else:
            _apply(board[i], counts[i], row, params, sides, neighbours, parents[i], actions[i], out, work, flipped)
            row[LEGAL] = _legal_into(board[i], counts[i], row, params, mask[i], out, work)
            _advance(i, board, counts, meta, params, sides, neighbours, parents, mask, seeds, out, work, flipped)
            if row[PLAYER] == TERMINAL and row[OUTCOME] > 0:
                winner = _seat_of(row, row[OUTCOME])
                returns[i, winner], returns[i, 1 - winner] = 1.0, -1.0
        end_step(i, actor, params[OPPONENT], meta, rewards, terminated, returns)
        _observe(board[i], row, params, obs[i])


class StoneBatch(Batch):
    """The arrays of N stone games and the kernels over them (``envs.vector.vector_env``'s backend)."""

    def __init__(self, game, num_envs: int, single_agent: bool, seat_option: int):
        super().__init__(game, num_envs, META)
        n = game.n
        self.params = make_params(game, single_agent, seat_option)
        self.sides = np.ascontiguousarray(game.rules.goal_sides, dtype=np.uint8)
        self.neighbours = np.ascontiguousarray(game.rules.neighbour_array, dtype=np.int64)
        self.initial = np.array(game.rules.initial_board(), np.uint8)
        self.board = np.zeros((num_envs, n * n), np.uint8)
        self.counts = np.zeros((num_envs, 5), np.int64)
        self.parents = np.zeros((num_envs, n * n + 4), np.int64)
        self.scratch = Scratch(n)

    def _common(self):
        return (
            self.board,
            self.counts,
            self.meta,
            self.params,
            self.sides,
            self.neighbours,
            self.parents,
            self.mask,
            self.seeds,
            self.obs,
            self.scratch.cells,
            self.scratch.work,
            self.scratch.flipped,
        )

    def reset(self, which: np.ndarray) -> None:
        reset_games(which, self.initial, *self._common())

    def step(self, actions: np.ndarray, illegal: np.ndarray) -> None:
        (board, counts, meta, params, sides, neighbours, parent, mask, seeds, obs, cells, work, flipped) = (
            self._common()
        )
        step_games(
            actions,
            illegal,
            self.initial,
            board,
            counts,
            meta,
            params,
            sides,
            neighbours,
            parent,
            mask,
            seeds,
            obs,
            self.rewards,
            self.terminated,
            self.returns,
            cells,
            work,
            flipped,
        )

    def engine_state(self, i: int):
        """Game ``i`` as an engine state (``envs.stones.rules.StoneState``)."""
        row = self.meta[i]
        state = self.game._new_state(self.board[i].tolist())
        state.colour, state.swapped, state.turns, state.phase = (
            int(row[COLOUR]),
            bool(row[SWAPPED]),
            int(row[TURNS]),
            int(row[PHASE]),
        )
        state.chosen = tuple(int(c) for c in row[CHOSEN : CHOSEN2 + 1] if c >= 0)
        state.player, state.outcome = int(row[PLAYER]), int(row[OUTCOME])
        return state
