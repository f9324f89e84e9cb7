"""What every batch of games shares: the first columns of ``meta`` (per-game scalars), the
output arrays, and the bookkeeping of a step around a game's own rules."""

from __future__ import annotations

import numpy as np
from numba import njit

from envs.kernels import draw

TERMINAL = -2
PLAYER, SEAT, DONE, LEGAL = range(4)  # meta columns: seat to play, agent's seat, over, legal actions
SHARED_META = 4  # a game's own columns follow
RANDOM_SEAT = -1  # seat option: drawn per game
OUTCOME_SCALE = 1 << 30  # a chance outcome is drawn as draw(seed, OUTCOME_SCALE) against its probabilities


@njit(cache=True)
def draw_outcome(probs, count, seed):
    """``(index, next seed)``: an outcome of a chance node with probabilities ``probs[:count]``,
    drawn from the stream at ``seed``: outcome ``k`` when ``draw(seed, OUTCOME_SCALE)`` is below
    the first ``k + 1`` probabilities' sum times ``OUTCOME_SCALE`` (rounded) and not below the
    first ``k``'s; the last outcome takes what rounding leaves."""
    value, seed = draw(seed, OUTCOME_SCALE)
    total = 0.0
    for k in range(count - 1):
        total += probs[k]
        if value < np.rint(total * OUTCOME_SCALE):
            return k, seed
    return count - 1, seed


@njit(cache=True)
def new_game(i, meta, seeds, opponent, seat_option):
    """Mark game ``i`` running and seat the agent (a random seat is the stream's first draw)."""
    row = meta[i]
    row[DONE], row[LEGAL] = 0, 0
    row[SEAT] = seat_option
    if opponent and seat_option == RANDOM_SEAT:
        row[SEAT], seeds[i] = draw(seeds[i], 2)


@njit(cache=True)
def begin_step(i, rewards, terminated, returns):
    rewards[i] = 0.0
    terminated[i] = False
    returns[i, 0] = returns[i, 1] = 0.0


@njit(cache=True)
def lose_by_illegal(i, actor, meta, mask, returns):
    """Game ``i`` over: a loss for ``actor``, who played an illegal action."""
    returns[i, actor], returns[i, 1 - actor] = -1.0, 1.0
    meta[i, PLAYER], meta[i, LEGAL] = TERMINAL, 0
    mask[i, :] = 0


@njit(cache=True)
def end_step(i, actor, opponent, meta, rewards, terminated, returns):
    """After game ``i``'s step: at its end, the reward of the agent's seat (single-agent)
    or of the seat that acted (two-player)."""
    row = meta[i]
    if row[PLAYER] == TERMINAL:
        row[DONE] = 1
        terminated[i] = True
        rewards[i] = returns[i, row[SEAT] if opponent else actor]


class Batch:
    """Arrays of N games: ``meta``, the legal ``mask``, the ``seeds`` of each game's stream,
    the observation planes and the step's outputs. Subclasses add their game's arrays and
    the ``reset(which)`` / ``step(actions, illegal)`` kernels."""

    def __init__(self, game, num_envs: int, meta_columns: int):
        self.game = game
        info = game.info
        self.meta = np.zeros((num_envs, meta_columns), np.int64)
        self.meta[:, DONE] = 1
        self.mask = np.zeros((num_envs, info.num_actions), np.int8)
        self.seeds = np.zeros(num_envs, np.int64)
        self.obs = np.zeros((num_envs, *info.obs_shape), np.float32)
        self.rewards = np.zeros(num_envs, np.float64)
        self.terminated = np.zeros(num_envs, np.bool_)
        self.returns = np.zeros((num_envs, 2), np.float64)

    def to_play(self) -> np.ndarray:
        return self.meta[:, PLAYER]

    def agent_seat(self) -> np.ndarray:
        return self.meta[:, SEAT]

    def done(self) -> np.ndarray:
        return self.meta[:, DONE] == 1
