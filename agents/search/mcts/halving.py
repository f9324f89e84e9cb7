"""Gumbel root search: sequential halving over the root's actions (Danihelka et al., ICLR 2022)."""

from __future__ import annotations

import math

import numba
import numpy as np

from agents.search.mcts.config import SearchConfig
from agents.search.mcts.kernels import FIRST_EDGE, PLAYER, child_stats
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
    arithmetic of a choice is :func:`best_child`; the search driver chooses every
    root's child before a simulation in one call (:class:`RootHalvings`), :meth:`choose`
    one root's.
    """

    def __init__(self, tree: Tree, root: int, config: SearchConfig, rng, add_noise: bool):
        self.priors = tree.priors(root).copy()
        n = len(self.priors)
        self.logits = np.log(np.maximum(self.priors, 1e-30))
        self.gumbel = rng.gumbel(size=n) if add_noise else np.zeros(n)
        self.noisy_logits = self.gumbel + self.logits
        self.order = rng.permutation(n)  # ties broken at random, not by action index
        self.value = tree.values[root, tree.nodes[root, PLAYER]]  # the estimator's: one visit so far
        self.schedule = np.array(considered_visits(min(config.gumbel_actions, n), config.num_simulations - 1), np.int64)
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


class RootHalvings:
    """The ``SequentialHalving`` of every root of a search (None at a chance root) as arrays
    (``arrays``), a row per root, so that one kernel call (:func:`choose_children`) chooses every
    root's child for a simulation as each one's :meth:`SequentialHalving.choose` would."""

    def __init__(self, halvings: list):
        count, present = len(halvings), [h for h in halvings if h is not None]
        width = max((len(h.priors) for h in present), default=1)
        steps = max((len(h.schedule) for h in present), default=1)
        sizes = np.zeros(count, np.int64)  # each root's actions, 0 where it has no halving
        priors, noisy_logits, orders = (
            np.zeros((count, width)),
            np.zeros((count, width)),
            np.zeros((count, width), np.int64),
        )
        schedules, values = np.zeros((count, steps), np.int64), np.zeros(count)
        for r, h in enumerate(halvings):
            if h is not None:
                n = sizes[r] = len(h.priors)
                priors[r, :n], noisy_logits[r, :n], orders[r, :n] = h.priors, h.noisy_logits, h.order
                schedules[r, : len(h.schedule)] = h.schedule
                values[r] = h.value
        constants = (present[0].c_visit, present[0].scale) if present else (0.0, 0.0)
        done = np.zeros(count, np.int64)  # each root's choices so far
        self.arrays = (sizes, priors, noisy_logits, orders, values, schedules, done, *map(float, constants))


@numba.njit(cache=True)
def choose_children(nodes, values, edge_child, roots, firsts, halvings):
    """Each root's child for the next simulation into ``firsts`` (-1 where it has no halving),
    ``halvings`` a :class:`RootHalvings`' ``arrays``."""
    sizes, priors, noisy_logits, orders, root_values, schedules, done, c_visit, scale = halvings
    for r in range(roots.shape[0]):
        n = sizes[r]
        if n == 0:
            firsts[r] = -1
            continue
        root = roots[r]
        start = nodes[root, FIRST_EDGE]
        visits, q = child_stats(nodes, values, edge_child[start : start + n], max(nodes[root, PLAYER], 0))
        allowed = visits == schedules[r, done[r]]
        done[r] += 1
        firsts[r] = best_child(
            visits, q, allowed, priors[r, :n], noisy_logits[r, :n], orders[r, :n], root_values[r], c_visit, scale
        )


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
