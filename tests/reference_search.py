"""The search's reference: simulations written as a Python loop over engine states
(:class:`ReferenceMCTS`), the algorithm of ``agents.search.mcts`` step by step with
``game.apply``, ``game.legal_actions`` and ``game.chance_outcomes``, against which
``tests/test_search_driver.py`` and the compiled-rules tests check the package's one driver
on fixed seeds (visit counts, values, priors, principal variations, the generators' draws).

It shares the package's selection and backup kernels (``agents.search.mcts.kernels``), its
Gumbel root and its result; what it writes anew is how a tree grows: its nodes hold engine
states (:class:`ListTree`), children are created with ``game.apply``, chance nodes expanded
from ``game.chance_outcomes``, the estimator called on the states themselves and
``playout_mix``'s playouts played by ``game.random_playout`` with each root's generator. A
sampled chance outcome takes ``rng.random()``.
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from agents.search.mcts import MCTS
from agents.search.mcts.halving import SequentialHalving
from agents.search.mcts.interface import Estimator, SearchResult, estimates
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
from agents.search.mcts.search import _per_state
from agents.search.mcts.tree import Tree, blank_nodes, doubled
from envs.core import CHANCE, TERMINAL

# The first array sizes (they double when full): a node per simulation and root, and a guess of
# the edges a simulation's expansion adds, plus slack.
NODE_SLACK = 16
EDGES_PER_SIMULATION = 8
EDGE_SLACK = 64


class ListTree(Tree):
    """A :class:`Tree` grown node by node: ``states[i]`` holds node ``i``'s engine state and
    ``actions[i]`` its legal actions or outcome ids (None until expanded)."""

    def __init__(self, num_seats: int, nodes: int, edges: int):
        super().__init__(
            blank_nodes(nodes), np.zeros((nodes, num_seats)), np.full(edges, -1, dtype=np.int64), np.zeros(edges), []
        )
        self.num_edges = 0
        self.states: list = []

    def add(self, state, player: int) -> int:
        """A new unexpanded node for ``state``; its id."""
        node = len(self.states)
        if node == len(self.nodes):
            self.nodes = np.concatenate([self.nodes, blank_nodes(node)])
            self.values = doubled(self.values, 0.0)
        self.nodes[node, PLAYER] = player
        self.states.append(state)
        self.actions.append(None)
        return node

    def expand(self, node: int, actions: list, priors) -> None:
        """Give ``node`` one edge per action, with these priors (an array, or one number for all)."""
        start, count = self.num_edges, len(actions)
        while start + count > len(self.edge_child):
            self.edge_child, self.edge_prior = doubled(self.edge_child, -1), doubled(self.edge_prior, 0.0)
        self.edge_prior[start : start + count] = priors
        self.num_edges = start + count
        self.nodes[node, FIRST_EDGE] = start
        self.nodes[node, NUM_EDGES] = count
        self.actions[node] = actions


class ReferenceMCTS(MCTS):
    """``MCTS`` with ``search_many`` as the Python loop over engine states (module docstring)."""

    def search_many(
        self,
        states: Sequence,
        estimator: Estimator,
        rng: np.random.Generator | Sequence[np.random.Generator],
        add_noise: bool = False,
    ) -> list[SearchResult]:
        game, simulations = self.game, self.config.num_simulations
        rngs = _per_state(rng, len(states))
        for index, state in enumerate(states):
            if game.to_play(state) == TERMINAL:
                raise ValueError(f"state {index}: cannot search a finished game")
        nodes = len(states) * (simulations + 1) + NODE_SLACK
        tree = ListTree(self._num_seats, nodes, len(states) * simulations * EDGES_PER_SIMULATION + EDGE_SLACK)
        roots = [tree.add(state.copy(), game.to_play(state)) for state in states]
        paths = [np.empty((self._path_length, 2), dtype=np.int64) for _ in roots]
        halving: dict[int, SequentialHalving] = {}
        for simulation in range(simulations):
            lengths, pending, owners = [], [], []
            for index, root in enumerate(roots):
                first = halving[index].choose(tree, root) if index in halving else -1
                length, new = self._descend(tree, paths, index, root, rngs[index], first)
                lengths.append(length)
                pending += new
                owners += [rngs[index]] * len(new)
            if pending:
                self._estimate(tree, pending, estimator, owners)
            for path, length in zip(paths, lengths):
                backup(tree.nodes, tree.values, tree.edge_child, tree.edge_prior, path, length, self._expect)
            if simulation == 0:  # the first simulation expanded the roots
                for index, root in enumerate(roots):
                    if tree.nodes[root, PLAYER] < 0:
                        continue
                    if self.config.gumbel:
                        halving[index] = SequentialHalving(tree, root, self.config, rngs[index], add_noise)
                    elif add_noise:
                        self._add_noise(tree, root, rngs[index])
        return [self._result(tree, root, halving.get(index)) for index, root in enumerate(roots)]

    def _estimate(self, tree: ListTree, nodes: list, estimator: Estimator, rngs: list) -> None:
        """Estimate new decision nodes; ``rngs[i]`` draws node ``i``'s playout (playout_mix)."""
        states = [tree.states[node] for node in nodes]
        priors, values = estimates(estimator, states, self.game.info)
        if self._playout_mix:
            playout, mix = self.game.random_playout, self._playout_mix
            values = (1.0 - mix) * values + mix * np.array([playout(s, r)[0] for s, r in zip(states, rngs)])
        for node, prior_row, value in zip(nodes, priors, values):
            self._expand_decision(tree, node, prior_row, value)

    # --- one simulation ---------------------------------------------------------------
    def _descend(self, tree: ListTree, paths: list, index: int, node: int, rng, first: int) -> tuple[int, list]:
        """Walk from the root ``node`` to a leaf, taking child ``first`` at the
        root when it is not -1. The path goes into ``paths[index]`` as (node,
        child index) rows ending with (leaf, -1); return its length and the
        new decision nodes to estimate."""
        length = 0
        while True:
            path = paths[index]
            length, node, status = walk(
                tree.nodes,
                tree.values,
                tree.edge_child,
                tree.edge_prior,
                path,
                length,
                node,
                first,
                self._c_puct,
                self._fpu_reduction,
                self._expect,
            )
            if status == PATH_FULL:  # walk again from where it stopped, with the same first
                paths[index] = doubled(path, -1)
                continue
            first = -1
            if status == AT_TERMINAL:
                return length, []
            if status == SAMPLE:
                first = self._sample_outcome(tree, node, rng)
                continue
            if status == NEW_CHILD:  # the path's last row chose a child not created yet
                node, player = self._child(tree, node, int(path[length - 1, 1]))
            else:
                player = tree.nodes[node, PLAYER]
            # node is unexpanded: a decision or chance node, or a new terminal one
            if length == len(path):
                path = paths[index] = doubled(path, -1)
            if player != CHANCE:
                path[length] = (node, -1)
                return length + 1, [node] if player >= 0 else []
            self._expand_chance(tree, node)
            if self._expect:
                path[length] = (node, -1)
                return length + 1, self._create_outcomes(tree, node)
            first = self._sample_outcome(tree, node, rng)

    def _sample_outcome(self, tree: ListTree, node: int, rng) -> int:
        return sampled_outcome(tree.priors(node), rng.random())

    def _child(self, tree: ListTree, node: int, index: int) -> tuple[int, int]:
        """Create child ``index`` of ``node``; return it and its player."""
        state = tree.states[node].copy()
        self.game.apply(state, tree.actions[node][index])
        player = self.game.to_play(state)
        child = tree.add(state, player)
        if player == TERMINAL:  # its value: the returns, counted on its first visit
            tree.values[child] = self.game.returns(state)
        tree.edge_child[tree.nodes[node, FIRST_EDGE] + index] = child
        return child, player

    def _expand_chance(self, tree: ListTree, node: int) -> None:
        outcomes = self.game.chance_outcomes(tree.states[node])
        probs = np.array([p for _, p in outcomes], dtype=np.float64)
        normalise(probs, probs)
        tree.expand(node, [o for o, _ in outcomes], probs)

    def _create_outcomes(self, tree: ListTree, node: int) -> list[int]:
        """Create every outcome child of an expanded chance node, expanding chance
        children recursively; return the decision nodes among them."""
        result = []
        for index in range(len(tree.actions[node])):
            child, player = self._child(tree, node, index)
            if player >= 0:
                result.append(child)
            elif player == CHANCE:
                self._expand_chance(tree, child)
                result.extend(self._create_outcomes(tree, child))
        return result

    def _expand_decision(self, tree: ListTree, node: int, prior_row: np.ndarray, value: np.ndarray) -> None:
        """Attach the estimate of a new decision node; it counts as one visit."""
        actions = self.game.legal_actions(tree.states[node])
        if not actions:
            raise ValueError(f"{self.game.info.name}: a decision state without legal actions")
        if is_uniform(prior_row):  # rollouts, uniform estimators: no gather needed
            tree.expand(node, actions, 1.0 / len(actions))
        else:
            priors = prior_row[actions]
            total = float(priors.sum())
            if 0.0 < total < math.inf and priors.min() >= 0.0:  # NaN fails too
                tree.expand(node, actions, np.multiply(priors, 1.0 / total, dtype=np.float64))
            else:
                tree.expand(node, actions, 1.0 / len(actions))
        tree.nodes[node, VISITS] = 1
        tree.values[node] = value
