"""Numba kernels that step a batch of Odoku games at once: the rules of ``envs.games.odoku.game`` over
arrays, with the coin flipped inside.

A batch is ``board`` (uint8 ``[N, 25]``: 0 empty, 1 blue, 2 white), ``counts`` (int64
``[N, 30]``: blue stones per group, then white), ``meta`` (int64 ``[N, META]``), ``mask``
(int8 ``[N, 50]``) and ``seeds`` (each game's ``envs.kernels.draw`` stream: the coins, the
random opponent's actions, the random seat). ``params`` holds the opponent flag, the seat
option and the coin's bias as a threshold on ``draw(seed, COIN_SCALE)``.

The rules kernels (``legal_into``, ``place``, ``b_return``, ``observe_into``, ``fill_playout``)
take one game's board, counts and meta row, so that the compiled rules
(``envs.games.odoku.compiled``, a flat row holding the three) and the engine's random playout
use them too.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from envs.games.odoku.game import CELL_GROUPS, NUM_CELLS, SIZE
from envs.kernels import draw
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

CHANCE = -1
EMPTY, BLUE, WHITE = 0, 1, 2
GROUPS = 15
COIN_SCALE = 1 << 30  # a coin is draw(seed, COIN_SCALE) < bias * COIN_SCALE: B moves

MOVES = SHARED_META  # meta column: placements made
META = SHARED_META + 1
OPPONENT, SEAT_OPTION, COIN_THRESHOLD = range(3)
_CELL_GROUPS = np.array(CELL_GROUPS, np.int64)  # [cell] -> (row, column, region) groups


def make_params(game, single_agent: bool, seat_option: int) -> np.ndarray:
    return np.array([single_agent, seat_option, coin_threshold(game.bias)], np.int64)


def coin_threshold(bias: float) -> int:
    return int(round(bias * COIN_SCALE))


@njit(cache=True)
def flip(seed, threshold):
    """One coin from the stream at ``seed``: (0 = B moves or 1 = A moves, next seed)."""
    value, seed = draw(seed, COIN_SCALE)
    return (0 if value < threshold else 1), seed


@njit(cache=True)
def legal_into(board, meta, mask):
    mask[:] = 0
    if meta[PLAYER] < 0:
        return 0
    count = 0
    for cell in range(NUM_CELLS):
        if board[cell] == EMPTY:
            mask[2 * cell] = mask[2 * cell + 1] = 1
            count += 2
    return count


@njit(cache=True)
def place(board, counts, meta, action):
    """``Odoku.apply`` of a legal placement; the coin for the next move is flipped by ``_advance``."""
    cell, colour = action >> 1, action & 1
    board[cell] = BLUE if colour == 0 else WHITE
    for g in _CELL_GROUPS[cell]:
        counts[colour * GROUPS + g] += 1
    meta[MOVES] += 1
    meta[PLAYER] = TERMINAL if meta[MOVES] == NUM_CELLS else CHANCE


@njit(cache=True)
def b_return(counts):
    """B's return of a full board (``Odoku.returns``' first entry)."""
    score = 0
    for g in range(GROUPS):
        score += counts[g] + counts[GROUPS + g] == SIZE and 2 <= counts[g] <= 3
    return (score - 7.5) / 7.5


@njit(cache=True)
def fill_playout(board, blue, seed):
    """B's return of a random playout (``Odoku.random_playout``): under uniformly random play
    every empty cell ends with an independent fair-coin colour, whoever the coins pick to place
    it, so the final board is drawn directly, a colour per empty cell in cell order from the
    ``draw`` stream at ``seed`` (0: blue). ``blue``: the blue stones per group."""
    final = np.empty(GROUPS, np.int64)
    final[:] = blue[:GROUPS]
    for cell in range(NUM_CELLS):
        if board[cell] == EMPTY:
            colour, seed = draw(seed, 2)
            if colour == 0:
                for g in _CELL_GROUPS[cell]:
                    final[g] += 1
    score = 0
    for g in range(GROUPS):
        score += 2 <= final[g] <= 3
    return (score - 7.5) / 7.5


@njit(cache=True)
def _advance(i, board, counts, meta, params, mask, seeds):
    """Flip coins, and play the random opponent in single-agent mode, until the agent acts."""
    row = meta[i]
    while True:
        if row[PLAYER] == CHANCE:
            row[PLAYER], seeds[i] = flip(seeds[i], params[COIN_THRESHOLD])
            row[LEGAL] = legal_into(board[i], row, mask[i])
        elif params[OPPONENT] and row[PLAYER] >= 0 and row[PLAYER] != row[SEAT]:
            index, seeds[i] = draw(seeds[i], row[LEGAL])
            place(board[i], counts[i], row, nth_legal(mask[i], index))
            row[LEGAL] = legal_into(board[i], row, mask[i])
        else:
            return


@njit(cache=True)
def observe_into(board, counts, meta, planes):
    """``Odoku.observe`` into ``planes`` ``[11, 5, 5]``."""
    flat = planes.reshape(11, NUM_CELLS)
    flat[:] = 0.0
    for cell in range(NUM_CELLS):
        v = board[cell]
        flat[0 if v == BLUE else 1 if v == WHITE else 2, cell] = 1.0
        for k in range(3):
            g = _CELL_GROUPS[cell, k]
            flat[5 + 2 * k, cell] = counts[g] / SIZE
            flat[6 + 2 * k, cell] = counts[GROUPS + g] / SIZE
    if meta[PLAYER] >= 0:
        flat[3 + meta[PLAYER], :] = 1.0


@njit(cache=True)
def _reset(i, board, counts, meta, params, mask, seeds, obs):
    row = meta[i]
    board[i, :] = EMPTY
    counts[i, :] = 0
    row[PLAYER], row[MOVES] = CHANCE, 0
    new_game(i, meta, seeds, params[OPPONENT], params[SEAT_OPTION])
    _advance(i, board, counts, meta, params, mask, seeds)
    observe_into(board[i], counts[i], row, obs[i])


@njit(cache=True)
def reset_games(which, board, counts, meta, params, mask, seeds, obs):
    """A new game in every row ``i`` with ``which[i]``: the seat drawn first (when random),
    then coins and the opponent's moves until the agent acts."""
    for i in range(len(which)):
        if which[i]:
            _reset(i, board, counts, meta, params, mask, seeds, obs)


@njit(cache=True)
def step_games(actions, illegal, board, counts, meta, params, mask, seeds, obs, rewards, terminated, returns):
    """One step of every game, as ``envs.vector.stones.step_games``."""
    for i in range(len(actions)):
        row = meta[i]
        begin_step(i, rewards, terminated, returns)
        if row[DONE]:
            _reset(i, board, counts, meta, params, mask, seeds, obs)
            continue
        actor = row[PLAYER]
        if illegal[i]:
            lose_by_illegal(i, actor, meta, mask, returns)
        else:
            place(board[i], counts[i], row, actions[i])
            row[LEGAL] = legal_into(board[i], row, mask[i])
            _advance(i, board, counts, meta, params, mask, seeds)
            if row[PLAYER] == TERMINAL:
                returns[i, 0] = b_return(counts[i])
                returns[i, 1] = -returns[i, 0]
        end_step(i, actor, params[OPPONENT], meta, rewards, terminated, returns)
        observe_into(board[i], counts[i], row, obs[i])


class OdokuBatch(Batch):
    """The arrays of N Odoku games and the kernels over them (``envs.vector.vector_env``'s backend)."""

    def __init__(self, game, num_envs: int, single_agent: bool, seat_option: int):
        super().__init__(game, num_envs, META)
        self.params = make_params(game, single_agent, seat_option)
        self.board = np.zeros((num_envs, NUM_CELLS), np.uint8)
        self.counts = np.zeros((num_envs, 2 * GROUPS), np.int64)

    def reset(self, which: np.ndarray) -> None:
        reset_games(which, self.board, self.counts, self.meta, self.params, self.mask, self.seeds, self.obs)

    def step(self, actions: np.ndarray, illegal: np.ndarray) -> None:
        step_games(
            actions,
            illegal,
            self.board,
            self.counts,
            self.meta,
            self.params,
            self.mask,
            self.seeds,
            self.obs,
            self.rewards,
            self.terminated,
            self.returns,
        )

    def engine_state(self, i: int):
        """Game ``i`` as an engine state (``envs.games.odoku.game.OdokuState``)."""
        from envs.games.odoku.game import OdokuState

        state = OdokuState()
        state.board = self.board[i].tolist()
        state.blue, state.white = self.counts[i, :GROUPS].tolist(), self.counts[i, GROUPS:].tolist()
        state.player, state.moves = int(self.meta[i, PLAYER]), int(self.meta[i, MOVES])
        return state
