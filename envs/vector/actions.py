"""Uniformly random legal actions for a whole batch in one numba call (random baselines,
benchmarks): ``actions, seed = random_legal(obs["action_mask"], seed)``."""

from __future__ import annotations

import numpy as np
from numba import njit

from envs.kernels import draw


@njit(cache=True)
def random_legal(mask, seed):
    """One uniformly random legal action per row of ``mask`` (``[N, actions]``, nonzero =
    legal; 0 for a row without any), drawn from the ``envs.kernels.draw`` stream at
    ``seed``: ``(actions int64 [N], next seed)``."""
    actions = np.zeros(mask.shape[0], np.int64)
    for i in range(mask.shape[0]):
        count = 0
        for a in range(mask.shape[1]):
            count += mask[i, a] != 0
        if count == 0:
            continue
        index, seed = draw(seed, count)
        for a in range(mask.shape[1]):
            if mask[i, a] != 0:
                if index == 0:
                    actions[i] = a
                    break
                index -= 1
    return actions, seed
