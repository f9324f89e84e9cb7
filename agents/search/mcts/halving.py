"""Gumbel root search: sequential halving over the root's actions (Danihelka et al., ICLR 2022)."""

from __future__ import annotations

import math

import numba
import numpy as np

from agents.search.mcts.config import SearchConfig
from agents.search.mcts.kernels import PLAYER
from agents.search.mcts.tree import Tree


def considered_visits(num_considered: int, num_simulations: int) -> list[int]:
    """Sequential halving's schedule: for each simulation, the visit count a
    root action must have to be chosen. Each phase gives every action still
    considered the same number of visits, then halves them (down to 2); the
    ``ceil(log2 num_considered)`` phases share the budget equally."""
    if num_considered <= 1:
        return list(range(num_simulations))
    phases = math.ceil(math.log2(num_considered))
    schedule, visits, considered = [], 0, num_considered
    while len(schedule) < num_simulations:
        for _ in range(max(1, num_simulations // (phases * considered))):
            schedule += [visits] * considered
            visits += 1
        considered = max(2, considered // 2)
    return schedule[:num_simulations]


class SequentialHalving:
    """Gumbel root search (Danihelka et al., "Policy improvement by planning
    with Gumbel", ICLR 2022): the root actions with the top ``g + logits``
    (``g`` Gumbel noise, zero without ``add_noise``) share the simulations by
    sequential halving on ``g + logits + sigma(q)``; below the root, PUCT.

    ``sigma(q) = (c_visit + max_b N(b)) * c_scale * q``, with q the completed
    values for the mover (unvisited actions get the mixed value ``v_mix`` of
    the root's estimate and its visited children) rescaled to [0, 1]. The
    arithmetic of a choice is one numba call (:func:`best_child`): it runs
    before every simulation of every root.
    """

    def __init__(self, tree: Tree, root: int, config: SearchConfig, rng, add_noise: bool):
        self.priors = tree.priors(root).copy()
        n = len(self.priors)
        self.logits = np.log(np.maximum(self.priors, 1e-30))
        self.gumbel = rng.gumbel(size=n) if add_noise else np.zeros(n)
        self.noisy_logits = self.gumbel + self.logits
        self.order = rng.permutation(n)  # ties broken at random, not by action index
        self.value = tree.values[root, tree.nodes[root, PLAYER]]  # the estimator's: one visit so far
        self.schedule = considered_visits(min(config.gumbel_actions, n), config.num_simulations - 1)
        self.scale = config.gumbel_c_scale
        self.c_visit = config.gumbel_c_visit
        self.done = 0

    def choose(self, tree: Tree, root: int) -> int:
        """The root child for the next simulation."""
        considered = self.schedule[self.done]
        self.done += 1
        visits, q = tree.child_stats(root)
        return self._best(visits, q, visits == considered)

    def selected(self, tree: Tree, root: int) -> int:
        """The chosen root child: the best among the most visited."""
        visits, q = tree.child_stats(root)
        return self._best(visits, q, visits == visits.max())

    def improved_policy(self, tree: Tree, root: int) -> np.ndarray:
        z = self.logits + self._sigma(*tree.child_stats(root))
        p = np.exp(z - z.max())
        return p / p.sum()

    def _best(self, visits: np.ndarray, q: np.ndarray, allowed: np.ndarray) -> int:
        """The allowed action with the top ``g + logits + sigma(q)`` (ties: the first in ``order``)."""
        return int(best_child(visits, q, allowed, self.priors, self.noisy_logits, self.order, *self._constants()))

    def _sigma(self, visits: np.ndarray, q: np.ndarray) -> np.ndarray:
        """``sigma(completed q)`` from the root children's visits and mean values."""
        return sigma(visits, q, self.priors, *self._constants())

    def _constants(self) -> tuple[float, float, float]:
        return float(self.value), float(self.c_visit), float(self.scale)


@numba.njit(cache=True)
def sigma(visits, q, priors, value, c_visit, scale):
    """``SequentialHalving._sigma``: sigma of the completed values (the sums run in index order)."""
    total, dot, weights = 0.0, 0.0, 0.0
    for i in range(visits.shape[0]):
        if visits[i] > 0:
            total += visits[i]
            dot += priors[i] * q[i]
            weights += priors[i]
    v_mix = (value + total * dot / weights) / (1.0 + total) if total > 0 else value
    completed = np.where(visits > 0, q, v_mix)
    low, high = completed.min(), completed.max()
    return (c_visit + visits.max()) * scale * ((completed - low) / max(high - low, 1e-8))


@numba.njit(cache=True)
def best_child(visits, q, allowed, priors, noisy_logits, order, value, c_visit, scale):
    """The index with the top ``noisy_logits + sigma`` among ``allowed``, ties to the first in ``order``."""
    scores = noisy_logits + sigma(visits, q, priors, value, c_visit, scale)
    best, choice = -np.inf, order[0]
    for k in range(order.shape[0]):
        i = order[k]
        if allowed[i] and scores[i] > best:
            best, choice = scores[i], i
    return choice
