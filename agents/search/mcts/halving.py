"""Gumbel root search: sequential halving over the root's actions (Danihelka et al., ICLR 2022)."""

from __future__ import annotations

import math

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
    the root's estimate and its visited children) rescaled to [0, 1].
    """

    def __init__(self, tree: Tree, root: int, config: SearchConfig, rng, add_noise: bool):
        self.priors = tree.priors(root).copy()
        n = len(self.priors)
        self.logits = np.log(np.maximum(self.priors, 1e-30))
        self.gumbel = rng.gumbel(size=n) if add_noise else np.zeros(n)
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
        scores = np.where(allowed, self.gumbel + self.logits + self._sigma(visits, q), -np.inf)
        return int(self.order[np.argmax(scores[self.order])])

    def _sigma(self, visits: np.ndarray, q: np.ndarray) -> np.ndarray:
        """``sigma(completed q)`` from the root children's visits and mean values."""
        visited = visits > 0
        total = visits.sum()
        if total > 0:
            weights = self.priors[visited]
            v_mix = (self.value + total * (weights @ q[visited]) / weights.sum()) / (1.0 + total)
        else:
            v_mix = self.value
        completed = np.where(visited, q, v_mix)
        low, high = completed.min(), completed.max()
        completed = (completed - low) / max(high - low, 1e-8)
        return (self.c_visit + visits.max()) * self.scale * completed
