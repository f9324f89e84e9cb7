"""The compiled search driver: ``MCTS.search_many`` in numba for games with an
``envs.compiled.CompiledGame`` (Hex, Y, Gomoku, Reversi and their neutral games).

The tree is the Python driver's (:class:`~agents.search.mcts.tree.Tree`'s arrays, selected by
``kernels.walk`` and backed up by ``kernels.backup``), plus each node's position as a row of
``rows`` and each edge's action in ``edge_action``. A wave (one simulation of every root) is
:func:`descend` (select, create the new child by the game's ``apply``, judge it by
``to_play``/``returns``), the leaf estimates, then :func:`finish` (expand the new decision
leaves with the game's ``legal``, back up). With a network, Python runs between the two: it
calls the estimator on the new leaves and computes the prior sums with numpy as the Python
driver does. An estimator with ``estimate_planes`` (``NetEstimator``) over the search's game,
where the game registers ``observe``, gets the leaves' observation planes, legal masks and
movers built from the rows in one :func:`observe_leaves` call into arrays made once per
search; any other estimator gets the leaves decoded into engine states. Random rollouts (``RolloutEstimator`` with the search's
game) and uniform estimates (``UniformEstimator``) run every wave in one :func:`run` call:
the playouts are the game's ``playout`` kernel, seeded by raw draws of the estimator's
generator taken in the Python driver's order, so both drivers give the same results.

The kernels call the game through ``envs.compiled`` (numba specialises them on the game's
context type) and sit in numba's on-disk cache like the rest. ``tree`` in their arguments is
the tuple ``(nodes, values, edge_child, edge_prior, edge_action, rows, counts)``, ``counts``
the nodes and edges used; ``walks`` is ``(roots, paths, lengths, pending, firsts)``, one entry per root.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.search.estimators import RolloutEstimator, UniformEstimator
from agents.search.mcts.interface import checked, estimates
from agents.search.mcts.kernels import (
    AT_TERMINAL,
    FIRST_EDGE,
    NEW_CHILD,
    NUM_EDGES,
    PATH_FULL,
    PLAYER,
    VISITS,
    backup,
    is_uniform,
    walk,
)
from agents.search.mcts.tree import Tree, blank_nodes, doubled
from envs import compiled as rules
from envs.core import TERMINAL
from envs.kernels import playout_seed

ROLLOUT, UNIFORM = 0, 1  # what run() estimates leaves with
FIRST_EDGES = 2**18  # the most edges a search starts with (6 MiB)


class CompiledSearch:
    """The arrays of one ``search_many`` call on the compiled driver, and the steps over them."""

    def __init__(self, mcts, states, compiled, estimator, rngs):
        """``rngs``: each root's generator (``playout_mix``'s playouts draw from it)."""
        self.mcts, self.game, self.compiled, self.estimator, self.rngs = mcts, mcts.game, compiled, estimator, rngs
        if mcts._playout_mix:
            self.kind = None  # the mix's playouts draw from the roots' generators, between estimator calls
        elif type(estimator) is RolloutEstimator and estimator.game is mcts.game:
            self.kind = ROLLOUT
        elif type(estimator) is UniformEstimator:
            self.kind = UNIFORM
        else:
            self.kind = None  # the estimator is called from Python
        count, simulations = len(states), mcts.config.num_simulations
        self.roots = np.arange(count, dtype=np.int64)
        self.nodes = blank_nodes(count * (simulations + 1))  # a node per root and simulation at most
        self.values = np.zeros((len(self.nodes), mcts.game.info.num_seats))
        # every simulation's expansion, up to a first size that stays small; more is grown
        edges = max(min(count * simulations * compiled.max_legal, FIRST_EDGES), count * compiled.max_legal)
        self.edge_child = np.full(edges, -1, dtype=np.int64)
        self.edge_prior = np.zeros(edges)
        self.edge_action = np.zeros(edges, dtype=np.int64)
        self.rows = np.empty((len(self.nodes), compiled.width), dtype=np.int32)
        self.counts = np.array([count, 0], dtype=np.int64)  # nodes, edges used
        for index, state in enumerate(states):
            self.rows[index] = compiled.encode(state)
            self.nodes[index, PLAYER] = mcts.game.to_play(state)
        paths = np.zeros((count, mcts._path_length, 2), dtype=np.int64)
        lengths, pending = np.zeros(count, dtype=np.int64), np.full(count, -1, dtype=np.int64)
        self.firsts = np.full(count, -1, dtype=np.int64)  # the root child each walk takes (-1: PUCT's)
        self.walks = (self.roots, paths, lengths, pending, self.firsts)
        self.scratch = np.empty(compiled.max_legal, dtype=np.int64)
        self.inputs = None  # the network's inputs for a wave's leaves, built from their rows
        observes = getattr(estimator, "game", None) is mcts.game and rules.provides(compiled, "observe")
        if self.kind is None and observes and hasattr(estimator, "estimate_planes"):
            info = mcts.game.info
            planes, masks = np.empty((count, *info.obs_shape), np.float32), np.empty((count, info.num_actions), bool)
            self.inputs = planes, masks, np.empty(count, dtype=np.int64)

    def arrays(self) -> tuple:
        return self.nodes, self.values, self.edge_child, self.edge_prior, self.edge_action, self.rows, self.counts

    def tree(self) -> Tree:
        return Tree.of_arrays(self.nodes, self.values, self.edge_child, self.edge_prior, self.edge_action)

    def make_room(self) -> None:
        """Grow the edge arrays until one more wave fits."""
        while self.counts[1] + len(self.roots) * self.compiled.max_legal > len(self.edge_child):
            self.edge_child = doubled(self.edge_child, -1)
            self.edge_prior = doubled(self.edge_prior, 0.0)
            self.edge_action = doubled(self.edge_action, 0)

    def waves(self, first: int, last: int, halving: list | None = None) -> None:
        """Simulations (waves) ``first`` to ``last - 1``; ``halving``: each root's
        ``SequentialHalving``, which chooses its root child before every wave."""
        if halving is None and self.kind is not None:
            self.run(first, last)
            return
        for wave in range(first, last):
            if halving is not None:
                tree = self.tree()
                for index, root in enumerate(self.roots):
                    self.firsts[index] = halving[index].choose(tree, root)
            if self.kind is None:
                self.step()
            else:
                self.run(wave, wave + 1)

    def run(self, first: int, last: int) -> None:
        """Waves ``first`` to ``last - 1`` estimated in the kernel (ROLLOUT or UNIFORM); the
        playout seeds are raw draws of the estimator's generator, which is left as the
        Python driver leaves it."""
        context, mcts, kind, saved = self.compiled.context, self.mcts, self.kind, None
        seeds, rollouts = np.zeros(0, dtype=np.int64), 1
        if kind == ROLLOUT:
            rng, rollouts = self.estimator.rng, self.estimator.num_rollouts
            saved, draws = rng.bit_generator.state, (last - first) * len(self.roots) * rollouts
            seeds = (rng.bit_generator.random_raw(size=draws) >> 1).astype(np.int64)  # envs.kernels.playout_seed
        used = 0
        while first < last:
            self.make_room()
            c_puct, fpu = mcts._c_puct, mcts._fpu_reduction
            waves = (first, last, c_puct, fpu, kind, seeds, used, rollouts)
            first, used = run(context, self.arrays(), self.walks, self.scratch, *waves)
        if saved is not None:  # the generator as far as the seeds used
            rng.bit_generator.state = saved
            rng.bit_generator.random_raw(size=used)

    def step(self) -> None:
        """One wave with the estimator called from Python on the new decision leaves."""
        compiled, mcts, info = self.compiled, self.mcts, self.game.info
        self.make_room()
        descend(compiled.context, self.arrays(), self.walks, mcts._c_puct, mcts._fpu_reduction)
        pending = self.walks[3]
        leaves = pending[pending >= 0]
        count = len(leaves)
        if not count:
            none = np.zeros((0, info.num_actions))
            finish(compiled.context, self.arrays(), self.walks, self.scratch, none, none, np.zeros(0))
            return
        if self.inputs is None:
            priors, values = estimates(self.estimator, [compiled.decode(self.rows[node]) for node in leaves], info)
        else:
            planes, masks, movers = self.inputs
            observe_leaves(compiled.context, self.arrays(), pending, self.scratch, planes, masks, movers)
            inputs = planes[:count], masks[:count], movers[:count]
            priors, values = checked(self.estimator.estimate_planes(*inputs), count, info)
        mix = mcts._playout_mix
        if mix:  # MCTS._estimate's mix, each playout seeded from its root's generator in the same order
            seeds = [playout_seed(self.rngs[owner]) for owner in np.flatnonzero(pending >= 0)]
            played = np.zeros((count, info.num_seats))
            playouts(compiled.context, self.rows, leaves, np.array(seeds, dtype=np.int64), played)
            values = (1.0 - mix) * values + mix * played
        masks = None if self.inputs is None else self.inputs[1]
        totals = np.zeros(count)  # each leaf's prior mass on its legal actions, summed as numpy does
        for i in np.flatnonzero(~uniform_rows(priors)):
            if masks is None:
                legal = self.scratch[: legal_actions(compiled.context, self.rows[leaves[i]], self.scratch)]
            else:  # the same actions in the same order
                legal = masks[i]
            totals[i] = float(priors[i][legal].sum())
        finish(compiled.context, self.arrays(), self.walks, self.scratch, priors, values, totals)


@njit(cache=True)
def legal_actions(context, row, out):
    """The game's ``legal`` from Python."""
    return rules.legal(context, row, out)


@njit(cache=True)
def playouts(context, rows, nodes, seeds, out):
    """The returns of the game's ``playout`` from ``rows[nodes[i]]`` seeded by ``seeds[i]`` into ``out[i]``."""
    for i in range(nodes.shape[0]):
        rules.playout(context, rows[nodes[i]], seeds[i], out[i])


@njit(cache=True)
def observe_leaves(context, tree, pending, scratch, planes, masks, movers):
    """The ``i``-th pending leaf's ``game.observe`` into ``planes[i]``, ``game.legal_mask``
    into ``masks[i]`` and seat to move into ``movers[i]``, by the game's ``observe`` and ``legal``."""
    nodes, rows = tree[0], tree[5]
    i = 0
    for r in range(pending.shape[0]):
        node = pending[r]
        if node < 0:
            continue
        rules.observe(context, rows[node], planes[i])
        masks[i] = False
        for k in range(rules.legal(context, rows[node], scratch)):
            masks[i, scratch[k]] = True
        movers[i] = nodes[node, PLAYER]
        i += 1


@njit(cache=True)
def uniform_rows(priors):
    """``is_uniform`` of each row."""
    result = np.zeros(priors.shape[0], dtype=np.bool_)
    for i in range(priors.shape[0]):
        result[i] = is_uniform(priors[i])
    return result


@njit(cache=True)
def descend(context, tree, walks, c_puct, fpu_reduction):
    """Select from every root to a leaf (``MCTS._descend``): the path into ``paths[r]`` and
    ``lengths[r]``, the new decision leaf (or -1: none) into ``pending[r]``."""
    nodes, values, edge_child, edge_prior, edge_action, rows, counts = tree
    roots, paths, lengths, pending, firsts = walks
    for r in range(roots.shape[0]):
        path = paths[r]
        length, node, status = walk(
            nodes, values, edge_child, edge_prior, path, 0, roots[r], firsts[r], c_puct, fpu_reduction, True
        )
        pending[r] = -1
        if status == AT_TERMINAL:
            lengths[r] = length
            continue
        if status == NEW_CHILD:  # create it
            parent, edge = node, nodes[node, FIRST_EDGE] + path[length - 1, 1]
            node = counts[0]
            counts[0] += 1
            rows[node] = rows[parent]
            rules.apply(context, rows[node], edge_action[edge])
            nodes[node, PLAYER] = rules.to_play(context, rows[node])
            if nodes[node, PLAYER] == TERMINAL:  # its value: the returns, counted on its first visit
                rules.returns(context, rows[node], values[node])
            edge_child[edge] = node
        if status == PATH_FULL or length == path.shape[0]:
            raise ValueError("a search path longer than twice the game's max_decisions")
        path[length, 0], path[length, 1] = node, -1
        lengths[r] = length + 1
        if nodes[node, PLAYER] >= 0:
            pending[r] = node


@njit(cache=True)
def expand(context, tree, node, scratch, prior_row, total, value):
    """Attach a new decision leaf's estimate (``MCTS._expand_decision``); ``total``: the
    prior mass on its legal actions (unused where ``prior_row`` is uniform)."""
    nodes, values, edge_child, edge_prior, edge_action, rows, counts = tree
    count = rules.legal(context, rows[node], scratch)
    if count == 0:
        raise ValueError("a decision state without legal actions")
    start = counts[1]
    counts[1] += count
    valid = not is_uniform(prior_row) and 0.0 < total < np.inf
    if valid:
        for i in range(count):
            if not prior_row[scratch[i]] >= 0.0:  # NaN fails too
                valid = False
    for i in range(count):
        edge_action[start + i] = scratch[i]
        edge_prior[start + i] = np.float64(prior_row[scratch[i]]) * (1.0 / total) if valid else 1.0 / count
    nodes[node, FIRST_EDGE], nodes[node, NUM_EDGES], nodes[node, VISITS] = start, count, 1
    values[node] = value


@njit(cache=True)
def finish(context, tree, walks, scratch, priors, leaf_values, totals):
    """Expand the wave's new decision leaves (estimate row ``i``: the ``i``-th pending leaf)
    and back every root's path up."""
    nodes, values, edge_child, edge_prior = tree[0], tree[1], tree[2], tree[3]
    roots, paths, lengths, pending, firsts = walks
    i = 0
    for r in range(roots.shape[0]):
        if pending[r] >= 0:
            expand(context, tree, pending[r], scratch, priors[i], totals[i], leaf_values[i])
            i += 1
    for r in range(roots.shape[0]):
        backup(nodes, values, edge_child, edge_prior, paths[r], lengths[r], True)


@njit(cache=True)
def run(context, tree, walks, scratch, first, last, c_puct, fpu_reduction, kind, seeds, used, rollouts):
    """Waves ``first`` to ``last - 1`` with leaves estimated here: ROLLOUT (uniform priors, the
    mean returns of ``rollouts`` playouts seeded by ``seeds[used:]`` in order) or UNIFORM (zero
    values). Stops early when the edge arrays could not hold another wave; returns (the next
    wave, the seeds used)."""
    nodes, values, edge_child, edge_prior = tree[0], tree[1], tree[2], tree[3]
    roots, paths, lengths, pending, firsts = walks
    ones = np.ones(1)
    value, sample = np.zeros(values.shape[1]), np.zeros(values.shape[1])
    for wave in range(first, last):
        if tree[6][1] + roots.shape[0] * scratch.shape[0] > edge_child.shape[0]:
            return wave, used
        descend(context, tree, walks, c_puct, fpu_reduction)
        for r in range(roots.shape[0]):
            if pending[r] < 0:
                continue
            value[:] = 0.0
            if kind == ROLLOUT:
                for _ in range(rollouts):
                    rules.playout(context, tree[5][pending[r]], seeds[used], sample)
                    used += 1
                    value += sample
                value /= rollouts
            expand(context, tree, pending[r], scratch, ones, 1.0, value)
        for r in range(roots.shape[0]):
            backup(nodes, values, edge_child, edge_prior, paths[r], lengths[r], True)
    return last, used
