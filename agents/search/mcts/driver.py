"""The search driver: ``MCTS.search_many`` over positions stored as int32 rows, for every game.

A game with compiled rules (``game.compiled()``, an ``envs.compiled.CompiledGame``: every
registered game) is searched by this module's numba kernels; a game written in plain Python
(``compiled()`` is None) by the same kernels run as Python over
:class:`~agents.search.mcts.python_rows.PythonRows` (``PYTHON_KERNELS``; that module says why).

The tree is :class:`~agents.search.mcts.tree.Tree`'s arrays (selected by ``kernels.walk`` and
backed up by ``kernels.backup``), plus each node's position as a row of ``rows`` and each
edge's action (or chance outcome) in ``edge_action``. A wave (one simulation of every root) is
:func:`descend` (select, create new children by the game's ``apply``, judge them by
``to_play``/``returns``, expand new chance nodes by the game's ``chance`` and, in expectation
mode, create all their outcomes; in sample mode draw the outcome), the leaf estimates, then
:func:`finish` (expand the new decision leaves with the game's ``legal``, back up). With Gumbel
root search, the wave's kernel first chooses every root's first child
(:class:`~agents.search.mcts.halving.RootHalvings`). With a network, Python runs between
:func:`descend_wave` (the choice, :func:`descend`, and the new leaves' network planes) and
:func:`finish`: it calls the estimator on the new leaves, and where ``playout_mix`` asks for
playouts, :func:`mixed_playouts` plays them (seeded by raw draws of the leaves' roots'
generators) and mixes their returns into the estimates; :func:`finish` sums each leaf's prior
mass on its legal actions as numpy would. An estimator with ``estimate_planes``
(``NetEstimator``) over the search's game, where the game registers ``observe``, gets the
leaves' observation planes, legal masks and movers built from the rows by
:func:`observe_leaves` into arrays that grow with the wave's leaves; any other estimator gets
the leaves decoded into engine states. Random rollouts (``RolloutEstimator`` with the search's
game) and uniform estimates (``UniformEstimator``) run every wave in one :func:`run` call.

The random numbers of the waves (a sampled chance outcome: ``rng.random()`` of its root's
generator; a rollout's seed: ``playout_seed(rng)`` of the estimator's) the kernels take from
:class:`Draws`: each generator's next raw draws, taken ahead and given back as far as used,
so the generators are left as if drawn from directly, in the order of the waves. The reference
search of the tests (``tests/reference_search.py``, a Python loop over engine states) draws
the same numbers in the same order and gives the same results.

The kernels call the game through ``envs.compiled`` (numba specialises them on the game's
context type) and sit in numba's on-disk cache like the rest. ``tree`` in their arguments is
the tuple ``(nodes, values, edge_child, edge_prior, edge_action, rows, counts)``, ``counts``
the nodes, edges and wave leaves used (``NODES, EDGES, LEAVES``); ``walks`` is
``(roots, paths, lengths, leaves, owners, firsts, planes, masks, movers)``: per root its path,
path length and the child it takes first (-1: PUCT's), per new decision leaf of the wave its
node, root and network inputs (no rows where the estimator takes no planes);
``work`` holds scratch room for legal actions and chance outcomes. A kernel that finds an
array or a path full stops before changing the tree (``NEED_ROOM``, the sizes in ``need``:
those three and the ``PATH`` length, which starts at twice ``max_decisions``) or a draw
stream empty (``NEED_DRAWS``), and ``progress`` (wave, phase, index) says where to go on once
Python has made room.
"""

from __future__ import annotations

import sys
import types

import numpy as np
from numba import njit

from agents.search.estimators import RolloutEstimator, UniformEstimator
from agents.search.mcts import python_rows
from agents.search.mcts.halving import RootHalvings, choose_children
from agents.search.mcts.interface import checked, estimates
from agents.search.mcts.kernels import (
    AT_TERMINAL,
    FIRST_EDGE,
    NEW_CHILD,
    NUM_EDGES,
    PATH_FULL,
    PLAYER,
    SAMPLE,
    VISITS,
    backup,
    is_uniform,
    normalise,
    sampled_outcome,
    walk,
)
from agents.search.mcts.python_rows import PythonRows
from agents.search.mcts.tree import Tree, blank_nodes, doubled
from agents.search.sums import pairwise_sum
from envs import compiled as rules
from envs.core import CHANCE, TERMINAL

ROLLOUT, UNIFORM = 0, 1  # what run() estimates leaves with
DONE, NEED_ROOM, NEED_DRAWS = range(3)  # what a kernel stopped at
NODES, EDGES, LEAVES, PATH = range(4)  # counts entries (the first three) and need entries
WAVE, PHASE, INDEX = range(3)  # progress entries: the wave, CHOOSE, DESCEND or EXPAND, the root or leaf
CHOOSE, DESCEND, EXPAND = range(3)
SUMMED = (np.float64, np.float32)  # priors whose sums the kernels add as numpy does; others become float64
FIRST_EDGES = 2**18  # the most edges a search starts with (6 MiB)
# Bit generators whose ``random()`` is one raw draw's top 53 bits (numpy's ``next_double``).
RAW_DOUBLES = ("PCG64", "PCG64DXSM", "Philox", "SFC64")


def draws_match(rng) -> bool:
    """Whether the kernels can sample chance outcomes from ``rng``'s raw draws."""
    return type(rng.bit_generator).__name__ in RAW_DOUBLES


class Draws:
    """Streams of raw draws for the kernels: stream ``k`` holds ``generators[k]``'s next raw
    draws (a sampled outcome takes one as ``rng.random()`` does, a playout seed one as
    ``playout_seed`` does). :meth:`take` draws them ahead; :meth:`give_back` leaves each
    generator as far as its stream was used, as if it had been drawn from directly."""

    def __init__(self, generators: list, size: int):
        self.generators, self.size, self.saved = generators, size, None
        self.raws = np.zeros((len(generators), 0), np.int64)
        self.cursors = np.zeros(len(generators), np.int64)

    def take(self) -> None:
        if self.saved is not None or not self.generators:
            return
        self.saved = [rng.bit_generator.state for rng in self.generators]
        self.raws = np.stack([rng.bit_generator.random_raw(self.size).view(np.int64) for rng in self.generators])
        self.cursors[:] = 0

    def give_back(self) -> None:
        if self.saved is None:
            return
        for rng, state, used in zip(self.generators, self.saved, self.cursors.tolist()):
            rng.bit_generator.state = state
            if used:
                rng.bit_generator.random_raw(used)
        self.saved = None

    def more(self) -> None:
        """Streams twice as long, from where the kernel stopped."""
        self.give_back()
        self.size *= 2
        self.take()


class RowSearch:
    """The arrays of one ``search_many`` call, and the steps over them."""

    def __init__(self, mcts, states, compiled, estimator, rngs):
        """``rngs``: each root's generator (sampled chance outcomes and ``playout_mix``'s
        playouts draw from it)."""
        self.mcts, self.game, self.compiled, self.estimator, self.rngs = mcts, mcts.game, compiled, estimator, rngs
        # this module's numba kernels (looked up at each call), or the same code in Python over a plain game's rows
        self.kernels = PYTHON_KERNELS if isinstance(compiled, PythonRows) else sys.modules[__name__]
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
        self.nodes = blank_nodes(count * (simulations + 1))  # a node per root and simulation, grown for chance
        self.values = np.zeros((len(self.nodes), mcts.game.info.num_seats))
        # every simulation's expansion, up to a first size that stays small; more is grown
        edges = max(min(count * simulations * compiled.max_legal, FIRST_EDGES), count * compiled.max_legal)
        self.edge_child = np.full(edges, -1, dtype=np.int64)
        self.edge_prior = np.zeros(edges)
        self.edge_action = np.zeros(edges, dtype=np.int64)
        self.rows = np.empty((len(self.nodes), compiled.width), dtype=np.int32)
        self.counts = np.array([count, 0, 0], dtype=np.int64)  # nodes, edges, the wave's leaves
        for index, state in enumerate(states):
            self.rows[index] = compiled.encode(state)
            self.nodes[index, PLAYER] = mcts.game.to_play(state)
        self.paths = np.zeros((count, mcts._path_length, 2), dtype=np.int64)
        self.lengths = np.zeros(count, dtype=np.int64)
        self.leaves, self.owners = np.zeros(count, dtype=np.int64), np.zeros(count, dtype=np.int64)
        self.firsts = np.full(count, -1, dtype=np.int64)  # the root child each walk takes (-1: PUCT's)
        self.raws = [rng.bit_generator.random_raw for rng in rngs]  # each root's draws of playout seeds
        self.mixed = np.zeros((count, mcts.game.info.num_seats))  # the wave's leaf values, playouts mixed in
        outcomes = max(compiled.max_chance, 1)
        self.work = (np.empty(compiled.max_legal, np.int64), np.empty(outcomes, np.int64), np.empty(outcomes))
        self.progress, self.need = np.zeros(3, dtype=np.int64), np.zeros(4, dtype=np.int64)
        self.draws, self.streams = self._streams(rngs, count, simulations)
        self.no_inputs = self._inputs(0)  # for leaves without planes
        # the network's inputs for a wave's leaves, built from their rows (as long as ``leaves``)
        self.inputs = None
        observes = getattr(estimator, "game", None) is mcts.game and rules.provides(compiled, "observe")
        if self.kind is None and observes and hasattr(estimator, "estimate_planes"):
            self.inputs = self._inputs(count)

    def _streams(self, rngs, count: int, simulations: int) -> tuple:
        """The draw streams and each root's (then the rollouts') stream, -1 for none."""
        generators, streams = [], np.full(count + 1, -1, dtype=np.int64)

        def stream(rng) -> int:
            for k, known in enumerate(generators):
                if known is rng:
                    return k
            generators.append(rng)
            return len(generators) - 1

        if not self.mcts._expect:  # sampled chance outcomes
            for index, rng in enumerate(rngs):
                streams[index] = stream(rng)
        rollouts = 1
        if self.kind == ROLLOUT:
            streams[count] = stream(self.estimator.rng)
            rollouts = self.estimator.num_rollouts
        return Draws(generators, count * simulations * rollouts + 64), streams

    def _inputs(self, count: int) -> tuple:
        info = self.game.info
        planes, masks = np.empty((count, *info.obs_shape), np.float32), np.empty((count, info.num_actions), bool)
        return planes, masks, np.empty(count, dtype=np.int64)

    def arrays(self) -> tuple:
        return self.nodes, self.values, self.edge_child, self.edge_prior, self.edge_action, self.rows, self.counts

    def walks(self) -> tuple:
        inputs = self.no_inputs if self.inputs is None else self.inputs
        return self.roots, self.paths, self.lengths, self.leaves, self.owners, self.firsts, *inputs

    def tree(self) -> Tree:
        return Tree.of_arrays(self.nodes, self.values, self.edge_child, self.edge_prior, self.edge_action)

    def grow(self) -> None:
        """Grow the arrays that ``need`` asks more of."""
        nodes, edges, leaves, path = self.need.tolist()
        while len(self.nodes) < nodes:
            self.nodes = np.concatenate([self.nodes, blank_nodes(len(self.nodes))])
            self.values, self.rows = doubled(self.values, 0.0), doubled(self.rows, 0)
        while len(self.edge_child) < edges:
            self.edge_child = doubled(self.edge_child, -1)
            self.edge_prior = doubled(self.edge_prior, 0.0)
            self.edge_action = doubled(self.edge_action, 0)
        while len(self.leaves) < leaves:
            self.leaves, self.owners = doubled(self.leaves, 0), doubled(self.owners, 0)
            if self.inputs is not None:
                self.inputs = tuple(doubled(array, 0) for array in self.inputs)
        while self.paths.shape[1] < path:  # a game deeper than its max_decisions says
            self.paths = np.concatenate([self.paths, np.zeros_like(self.paths)], axis=1)

    def call(self, kernel, *arguments) -> None:
        """``kernel`` until it is done, making room and drawing more between the calls."""
        while True:
            self.draws.take()
            draws = (self.draws.raws, self.draws.cursors, self.streams)
            status = kernel(
                self.compiled.context,
                self.arrays(),
                self.walks(),
                self.work,
                draws,
                self.progress,
                self.need,
                *arguments,
            )
            if status == DONE:
                return
            if status == NEED_DRAWS:
                self.draws.more()
            else:
                self.grow()

    def waves(self, first: int, last: int, halving: list | None = None) -> None:
        """Simulations (waves) ``first`` to ``last - 1``; ``halving``: each root's
        ``SequentialHalving`` (None at a chance root), which chooses its root child before
        every wave. The generators are left as far on as the waves drew from them."""
        choices = RootHalvings([] if halving is None else halving).arrays
        if self.kind is not None:
            self.run(first, last, choices)
        else:
            for _ in range(first, last):
                self.step(choices)
        self.draws.give_back()

    def run(self, first: int, last: int, choices: tuple) -> None:
        """Waves ``first`` to ``last - 1`` estimated in the kernel (ROLLOUT or UNIFORM)."""
        mcts, rollouts = self.mcts, self.estimator.num_rollouts if self.kind == ROLLOUT else 1
        self.progress[:] = first, CHOOSE, 0
        self.counts[LEAVES] = 0
        arguments = (mcts._c_puct, mcts._fpu_reduction, mcts._expect, choices, self.kind, rollouts)
        self.call(self.kernels.run, last, *arguments)

    def step(self, choices: tuple) -> None:
        """One wave with the estimator called from Python on the new decision leaves: a kernel
        call that selects them (and builds their planes), the estimator's, one that plays the
        leaves' playouts where ``playout_mix`` asks for them, one that expands them and backs up."""
        compiled, mcts, info = self.compiled, self.mcts, self.game.info
        self.progress[:] = 0, CHOOSE, 0
        self.counts[LEAVES] = 0
        self.call(self.kernels.descend_wave, mcts._c_puct, mcts._fpu_reduction, mcts._expect, choices)
        self.draws.give_back()  # the estimator may draw from the same generators
        count = int(self.counts[LEAVES])
        leaves = self.leaves[:count]
        masks = self.no_inputs[1]  # no masks: the decoded leaves' totals follow their legal actions' order
        if not count:
            priors = values = np.zeros((0, info.num_actions))
        elif self.inputs is None:
            priors, values = estimates(self.estimator, [compiled.decode(self.rows[node]) for node in leaves], info)
        else:
            planes, masks, movers = (array[:count] for array in self.inputs)
            priors, values = checked(self.estimator.estimate_planes(planes, masks, movers), count, info)
        mix = mcts._playout_mix
        if mix and count:  # each playout seeded by a raw draw of its root's generator, in leaf order
            raws = np.array([self.raws[owner]() for owner in self.owners[:count].tolist()], dtype=np.uint64)
            if len(self.mixed) < count:
                self.mixed = np.zeros((len(self.leaves), info.num_seats))
            mixed = self.mixed[:count]
            self.kernels.mixed_playouts(compiled.context, self.rows, leaves, raws, values, mix, mixed)
            values = mixed
        if priors.dtype not in SUMMED:
            priors = priors.astype(np.float64)
        self.progress[INDEX] = 0
        self.call(self.kernels.finish, priors, values, masks, mcts._expect)


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
def mixed_playouts(context, rows, nodes, raws, values, mix, out):
    """``out[i] = (1 - mix) * values[i] + mix * returns`` (numpy's arithmetic), the returns of the
    game's ``playout`` from ``rows[nodes[i]]`` seeded by the raw draw ``raws[i]`` as
    ``playout_seed`` seeds it (its top 63 bits)."""
    played = np.zeros(out.shape[1])
    for i in range(nodes.shape[0]):
        rules.playout(context, rows[nodes[i]], np.int64(np.uint64(raws[i]) >> np.uint64(1)), played)
        for seat in range(out.shape[1]):
            out[i, seat] = (1.0 - mix) * values[i, seat] + mix * played[seat]


@njit(cache=True)
def observe_leaves(context, tree, walks, scratch):
    """The wave's ``i``-th leaf's ``game.observe`` into ``planes[i]``, ``game.legal_mask``
    into ``masks[i]`` and seat to move into ``movers[i]`` (``walks``' last three), by the
    game's ``observe`` and ``legal``."""
    nodes, rows, leaves = tree[0], tree[5], walks[3]
    planes, masks, movers = walks[6], walks[7], walks[8]
    for i in range(tree[6][LEAVES]):
        node = leaves[i]
        rules.observe(context, rows[node], planes[i])
        masks[i] = False
        for k in range(rules.legal(context, rows[node], scratch)):
            masks[i, scratch[k]] = True
        movers[i] = nodes[node, PLAYER]


@njit(cache=True)
def next_raw(draws, stream):
    """(whether the stream had one, the stream's next raw draw)."""
    raws, cursors = draws[0], draws[1]
    k = cursors[stream]
    if k == raws.shape[1]:
        return False, np.int64(0)
    cursors[stream] = k + 1
    return True, raws[stream, k]


@njit(cache=True)
def descend_wave(context, tree, walks, work, draws, progress, need, c_puct, fpu_reduction, expect, halvings):
    """A wave's selection: every root's first child chosen by :func:`choose`, the walks of
    :func:`descend`, then the new decision leaves' planes (:func:`observe_leaves`) where
    ``walks`` has room for them."""
    choose(tree, walks, halvings, progress)
    status = descend(context, tree, walks, work, draws, progress, need, c_puct, fpu_reduction, expect)
    if status == DONE and walks[6].shape[0]:
        observe_leaves(context, tree, walks, work[0])
    return status


@njit(cache=True)
def choose(tree, walks, halvings, progress):
    """At a wave's CHOOSE phase: each root's child for the wave into ``firsts`` by its
    sequential halving (``halvings``: ``RootHalvings.arrays``; none for no root: PUCT's
    throughout), and the wave on to DESCEND from its first root. In any other phase (a kernel
    called again after Python made room) the children stand chosen."""
    if progress[PHASE] != CHOOSE:
        return
    if halvings[0].shape[0]:
        choose_children(tree[0], tree[1], tree[2], walks[0], walks[5], halvings)
    progress[PHASE], progress[INDEX] = DESCEND, 0


@njit(cache=True)
def descend(context, tree, walks, work, draws, progress, need, c_puct, fpu_reduction, expect):
    """Select from every root from ``progress[INDEX]`` on to a leaf; stop
    at a root that found no room or no draw, before changing anything it cannot finish."""
    while progress[INDEX] < walks[0].shape[0]:
        status = descend_root(context, tree, walks, work, draws, progress[INDEX], need, c_puct, fpu_reduction, expect)
        if status != DONE:
            return status
        progress[INDEX] += 1
    return DONE


@njit(cache=True)
def descend_root(context, tree, walks, work, draws, r, need, c_puct, fpu_reduction, expect):
    """Root ``r``'s walk: its path into ``paths[r]`` and ``lengths[r]``, its new decision leaves
    appended to the wave's. Stopped for room or draws, it gives its draws back and the next
    call walks again: the same way, as the nodes it made stand where the walk finds them."""
    nodes, edge_action, rows, counts = tree[0], tree[4], tree[5], tree[6]
    roots, paths, lengths, firsts = walks[0], walks[1], walks[2], walks[5]
    stream = draws[2][r]
    mark = draws[1][stream] if stream >= 0 else 0
    path, length, node, first = paths[r], 0, roots[r], firsts[r]
    while True:
        length, node, status = walk(
            nodes, tree[1], tree[2], tree[3], path, length, node, first, c_puct, fpu_reduction, expect
        )
        first = -1
        if status == PATH_FULL:
            need[PATH] = 2 * path.shape[0]
            return stopped(draws, stream, mark, NEED_ROOM)
        if status == AT_TERMINAL:
            lengths[r] = length
            return DONE
        if status == SAMPLE:  # an expanded chance node
            count = nodes[node, NUM_EDGES]
        else:
            if length == path.shape[0]:
                need[PATH] = 2 * path.shape[0]
                return stopped(draws, stream, mark, NEED_ROOM)
            if status == NEW_CHILD:  # create it in the next free row, counted once there is room for all it needs
                parent, child = node, counts[NODES]
                edge = nodes[parent, FIRST_EDGE] + path[length - 1, 1]
                if child == nodes.shape[0]:
                    need[NODES] = child + 1
                    return stopped(draws, stream, mark, NEED_ROOM)
                rows[child] = rows[parent]
                rules.apply(context, rows[child], edge_action[edge])
                player = rules.to_play(context, rows[child])
                count, outcomes = 0, 0
                if player == CHANCE:
                    if nodes[parent, PLAYER] == CHANCE:
                        raise ValueError("a chance outcome that leads to another chance node (envs.compiled)")
                    count = rules.chance(context, rows[child], work[1], work[2])
                    outcomes = count if expect else 0
                if not room(tree, walks, 1 + outcomes, count, 1 if player >= 0 else outcomes, need):
                    return stopped(draws, stream, mark, NEED_ROOM)
                node = child
                counts[NODES] += 1
                nodes[node, PLAYER] = player
                if player == TERMINAL:  # its value: the returns, counted on its first visit
                    rules.returns(context, rows[node], tree[1][node])
                tree[2][edge] = node
            else:  # an unexpanded root
                player = nodes[node, PLAYER]
                count = rules.chance(context, rows[node], work[1], work[2]) if player == CHANCE else 0
                outcomes = count if expect else 0
                if not room(tree, walks, outcomes, count, 1 if player >= 0 else outcomes, need):
                    return stopped(draws, stream, mark, NEED_ROOM)
            path[length, 0], path[length, 1] = node, -1
            if player != CHANCE:
                if player >= 0:
                    add_leaf(counts, walks, node, r)
                lengths[r] = length + 1
                return DONE
            expand_chance(tree, node, work, count)
            if expect:
                create_outcomes(context, tree, walks, node, r)
                lengths[r] = length + 1
                return DONE
        found, raw = next_raw(draws, stream)
        if not found:
            return stopped(draws, stream, mark, NEED_DRAWS)
        start = nodes[node, FIRST_EDGE]
        first = sampled_outcome(tree[3][start : start + count], uniform(raw))


@njit(cache=True)
def stopped(draws, stream, mark, status):
    """``status``, the stream ``stream`` given back to ``mark``."""
    if stream >= 0:
        draws[1][stream] = mark
    return status


@njit(cache=True)
def uniform(raw):
    """``rng.random()`` of the raw draw (numpy's ``next_double``: its top 53 bits)."""
    return np.float64(np.uint64(raw) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def room(tree, walks, nodes, edges, leaves, need):
    """Whether the arrays hold ``nodes``, ``edges`` and wave ``leaves`` more; else what they
    need into ``need``."""
    counts = tree[6]
    need[NODES], need[EDGES] = counts[NODES] + nodes, counts[EDGES] + edges
    need[LEAVES] = counts[LEAVES] + leaves
    return need[NODES] <= tree[0].shape[0] and need[EDGES] <= tree[2].shape[0] and need[LEAVES] <= walks[3].shape[0]


@njit(cache=True)
def add_leaf(counts, walks, node, r):
    walks[3][counts[LEAVES]], walks[4][counts[LEAVES]] = node, r
    counts[LEAVES] += 1


@njit(cache=True)
def expand_chance(tree, node, work, count):
    """Give the chance node its ``count`` outcomes (``work``'s) as edges."""
    nodes, edge_prior, edge_action, counts = tree[0], tree[3], tree[4], tree[6]
    start = counts[EDGES]
    counts[EDGES] += count
    normalise(work[2][:count], edge_prior[start : start + count])
    edge_action[start : start + count] = work[1][:count]
    nodes[node, FIRST_EDGE], nodes[node, NUM_EDGES] = start, count


@njit(cache=True)
def create_outcomes(context, tree, walks, node, r):
    """Create every outcome child of the expanded chance node; the
    decision children become leaves of root ``r``."""
    nodes, values, edge_child, edge_action, rows, counts = tree[0], tree[1], tree[2], tree[4], tree[5], tree[6]
    start = nodes[node, FIRST_EDGE]
    for edge in range(start, start + nodes[node, NUM_EDGES]):
        child = counts[NODES]
        counts[NODES] += 1
        rows[child] = rows[node]
        rules.apply(context, rows[child], edge_action[edge])
        player = rules.to_play(context, rows[child])
        if player == CHANCE:
            raise ValueError("a chance outcome that leads to another chance node (envs.compiled)")
        nodes[child, PLAYER] = player
        if player == TERMINAL:
            rules.returns(context, rows[child], values[child])
        else:
            add_leaf(counts, walks, child, r)
        edge_child[edge] = child


@njit(cache=True)
def legal_room(context, tree, walks, node, scratch, need):
    """The legal actions of a leaf into ``scratch`` and their count, or -1 where the edges are full."""
    count = rules.legal(context, tree[5][node], scratch)
    if count == 0:
        raise ValueError("a decision state without legal actions")
    return count if room(tree, walks, 0, count, 0, need) else -1


@njit(cache=True)
def attach(tree, node, scratch, count, prior_row, total, value):
    """Attach a new decision leaf's estimate over its ``count`` legal actions in ``scratch``
    (one visit); ``total``: the prior mass on them (unused where ``prior_row``
    is uniform)."""
    nodes, values, edge_prior, edge_action, counts = tree[0], tree[1], tree[3], tree[4], tree[6]
    start = counts[EDGES]
    counts[EDGES] += count
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
def back_up(tree, walks, expect):
    for r in range(walks[0].shape[0]):
        backup(tree[0], tree[1], tree[2], tree[3], walks[1][r], walks[2][r], expect)


@njit(cache=True)
def finish(context, tree, walks, work, draws, progress, need, priors, leaf_values, masks, expect):
    """Expand the wave's decision leaves from ``progress[INDEX]`` on (estimate row ``i``: leaf
    ``i``) and back every root's path up. A leaf's prior mass on its legal actions is summed as
    numpy sums ``priors[i][masks[i]]`` (no masks: ``priors[i][legal]``, in the game's order)."""
    leaves = walks[3]
    while progress[INDEX] < tree[6][LEAVES]:
        i = progress[INDEX]
        count = legal_room(context, tree, walks, leaves[i], work[0], need)
        if count < 0:
            return NEED_ROOM
        total = 0.0
        if not is_uniform(priors[i]):  # else the priors are not used
            total = legal_mass(priors[i], masks, i, work[0], count)
        attach(tree, leaves[i], work[0], count, priors[i], total, leaf_values[i])
        progress[INDEX] += 1
    back_up(tree, walks, expect)
    return DONE


@njit(cache=True)
def legal_mass(prior_row, masks, i, legal, count):
    """``prior_row[masks[i]].sum()`` (no ``masks``: ``prior_row[legal[:count]].sum()``) as numpy adds it."""
    chosen, k = np.empty(prior_row.shape[0], prior_row.dtype), 0
    if masks.shape[0]:
        for a in range(masks.shape[1]):
            if masks[i, a]:
                chosen[k] = prior_row[a]
                k += 1
    else:
        for k in range(count):
            chosen[k] = prior_row[legal[k]]
        k = count
    return np.float64(pairwise_sum(chosen, k))


@njit(cache=True)
def run(
    context, tree, walks, work, draws, progress, need, last, c_puct, fpu_reduction, expect, halvings, kind, rollouts
):
    """Waves ``progress[WAVE]`` to ``last - 1`` with leaves estimated here: ROLLOUT (uniform
    priors, the mean returns of ``rollouts`` playouts, seeded by the rollout stream's draws in
    leaf order) or UNIFORM (zero values); the root children chosen as :func:`descend_wave`
    chooses them."""
    counts, leaves = tree[6], walks[3]
    stream = draws[2][walks[0].shape[0]]
    ones = np.ones(1)
    value, sample = np.zeros(tree[1].shape[1]), np.zeros(tree[1].shape[1])
    while progress[WAVE] < last:
        choose(tree, walks, halvings, progress)
        if progress[PHASE] == DESCEND:
            status = descend(context, tree, walks, work, draws, progress, need, c_puct, fpu_reduction, expect)
            if status != DONE:
                return status
            progress[PHASE], progress[INDEX] = EXPAND, 0
        while progress[INDEX] < counts[LEAVES]:
            node = leaves[progress[INDEX]]
            if kind == ROLLOUT and draws[1][stream] + rollouts > draws[0].shape[1]:
                return NEED_DRAWS
            count = legal_room(context, tree, walks, node, work[0], need)
            if count < 0:
                return NEED_ROOM
            value[:] = 0.0
            if kind == ROLLOUT:
                for _ in range(rollouts):
                    raw = next_raw(draws, stream)[1]
                    rules.playout(context, tree[5][node], np.int64(np.uint64(raw) >> np.uint64(1)), sample)
                    value += sample
                value /= rollouts
            attach(tree, node, work[0], count, ones, 1.0, value)
            progress[INDEX] += 1
        back_up(tree, walks, expect)
        progress[WAVE], progress[PHASE], progress[INDEX] = progress[WAVE] + 1, CHOOSE, 0
        counts[LEAVES] = 0
    return DONE


def python_kernels(rules_module) -> types.SimpleNamespace:
    """Every numba kernel of this module as a plain Python function (its ``py_func``'s code) that
    calls ``rules_module``'s ``legal``, ``apply``, ... where the kernel calls ``envs.compiled``'s,
    and this module's other kernels in Python too (``agents.search.mcts.python_rows`` says why).
    The search kernels of ``agents.search.mcts.kernels`` stay numba: they never call the game."""
    namespace, twins = {**globals(), "rules": rules_module}, {}
    for name, value in globals().items():
        function = getattr(value, "py_func", None)
        if function is not None and function.__module__ == __name__:
            twins[name] = types.FunctionType(function.__code__, namespace, name, function.__defaults__)
    namespace.update(twins)
    return types.SimpleNamespace(**twins)


PYTHON_KERNELS = python_kernels(python_rows)
