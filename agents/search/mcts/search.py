"""The search itself (:class:`MCTS`): simulations in lockstep over many roots, leaves
estimated in one call per wave, chance nodes expanded or sampled."""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from agents.search.mcts.config import SearchConfig
from agents.search.mcts.driver import CompiledSearch, draws_match
from agents.search.mcts.halving import SequentialHalving
from agents.search.mcts.interface import Estimator, SearchResult, estimates
from agents.search.mcts.kernels import (
    AT_TERMINAL,
    FIRST_EDGE,
    NEW_CHILD,
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
from agents.search.mcts.tree import EDGE_SLACK, EDGES_PER_SIMULATION, NODE_SLACK, Tree, doubled
from envs import compiled as rules
from envs.core import CHANCE, TERMINAL, Game

DRIVERS = ("auto", "compiled", "python")


class MCTS:
    """PUCT tree search for one game; see the module docstring for the algorithm.

    ``driver``: "auto" runs the compiled driver (``agents.search.mcts.driver``) where the game
    has compiled rules (``game.compiled()`` is not None; every configuration), and the Python
    driver otherwise; "python" always runs the Python driver, "compiled" the
    compiled one (ValueError where it cannot). Both give the same results.
    """

    def __init__(self, game: Game, config: SearchConfig = SearchConfig(), driver: str = "auto"):
        if not isinstance(config, SearchConfig):
            raise ValueError(f"config must be a SearchConfig, got {type(config).__name__}")
        if driver not in DRIVERS:
            raise ValueError(f"driver must be one of {DRIVERS}, got {driver!r}")
        self.game = game
        self.config = config
        self._compiled = None
        if driver != "python":
            compiled = game.compiled()
            if compiled is None:
                if driver == "compiled":
                    raise ValueError(f"driver='compiled': {game.info.name} has no compiled rules")
            elif game.info.has_chance and not rules.provides(compiled, "chance"):
                raise ValueError(
                    f"{game.info.name} has chance nodes but its compiled rules register no chance function"
                )
            else:
                self._compiled = compiled
        self._num_seats = game.info.num_seats
        self._expect = config.chance == "expectation"
        self._c_puct = float(config.c_puct)
        self._fpu_reduction = float(config.fpu_reduction)
        self._playout_mix = float(config.playout_mix)
        self._path_length = 2 * game.info.max_decisions + 4  # grows if a game goes deeper

    def search(self, state, estimator: Estimator, rng: np.random.Generator, add_noise: bool = False) -> SearchResult:
        """Search from ``state`` (a decision or chance node; it is not modified)."""
        return self.search_many([state], estimator, rng, add_noise)[0]

    def search_many(
        self,
        states: Sequence,
        estimator: Estimator,
        rng: np.random.Generator | Sequence[np.random.Generator],
        add_noise: bool = False,
    ) -> list[SearchResult]:
        """Independent searches from each state, run in lockstep so that every
        simulation wave makes one ``estimator.estimate`` call for all of them.

        ``rng``: one generator that every search draws from in turn (self-play),
        or one per state: then everything search ``i`` draws (sampled chance
        outcomes, root noise, Gumbel draws, playouts) comes from ``rng[i]``, and
        its result does not depend on the other states in the call (given an
        estimator whose output for a state does not depend on its batch)."""
        game, simulations = self.game, self.config.num_simulations
        rngs = _per_state(rng, len(states))
        for index, state in enumerate(states):
            if game.to_play(state) == TERMINAL:
                raise ValueError(f"state {index}: cannot search a finished game")
        if self._compiled is not None and (self._expect or all(draws_match(r) for r in rngs)):
            return self._search_compiled(states, estimator, rngs, add_noise)
        nodes = len(states) * (simulations + 1) + NODE_SLACK
        tree = Tree(self._num_seats, nodes, len(states) * simulations * EDGES_PER_SIMULATION + EDGE_SLACK)
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

    def _search_compiled(self, states: Sequence, estimator: Estimator, rngs: list, add_noise: bool) -> list:
        """``search_many`` on the compiled driver (same results as the loop above)."""
        search = CompiledSearch(self, states, self._compiled, estimator, rngs)
        simulations, gumbel = self.config.num_simulations, self.config.gumbel
        search.waves(0, 1 if add_noise or gumbel else simulations)
        halving = None
        if gumbel or add_noise:  # after the first simulation expanded the roots; none at a chance root
            tree = search.tree()
            deciding = [tree.nodes[root, PLAYER] >= 0 for root in search.roots]
            if gumbel:
                halving = [
                    SequentialHalving(tree, root, self.config, rng, add_noise) if decides else None
                    for root, rng, decides in zip(search.roots, rngs, deciding)
                ]
            else:
                for root, rng, decides in zip(search.roots, rngs, deciding):
                    if decides:
                        self._add_noise(tree, root, rng)
            search.waves(1, simulations, halving)
        tree = search.tree()
        return [
            self._result(tree, root, None if halving is None else halving[index])
            for index, root in enumerate(search.roots)
        ]

    def _estimate(self, tree: Tree, nodes: list, estimator: Estimator, rngs: list) -> None:
        """Estimate new decision nodes; ``rngs[i]`` draws node ``i``'s playout (playout_mix)."""
        states = [tree.states[node] for node in nodes]
        priors, values = estimates(estimator, states, self.game.info)
        if self._playout_mix:
            playout, mix = self.game.random_playout, self._playout_mix
            values = (1.0 - mix) * values + mix * np.array([playout(s, r)[0] for s, r in zip(states, rngs)])
        for node, prior_row, value in zip(nodes, priors, values):
            self._expand_decision(tree, node, prior_row, value)

    # --- one simulation ---------------------------------------------------------------
    def _descend(self, tree: Tree, paths: list, index: int, node: int, rng, first: int) -> tuple[int, list]:
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

    def _sample_outcome(self, tree: Tree, node: int, rng) -> int:
        return sampled_outcome(tree.priors(node), rng.random())

    def _child(self, tree: Tree, node: int, index: int) -> tuple[int, int]:
        """Create child ``index`` of ``node``; return it and its player."""
        state = tree.states[node].copy()
        self.game.apply(state, tree.actions[node][index])
        player = self.game.to_play(state)
        child = tree.add(state, player)
        if player == TERMINAL:  # its value: the returns, counted on its first visit
            tree.values[child] = self.game.returns(state)
        tree.edge_child[tree.nodes[node, FIRST_EDGE] + index] = child
        return child, player

    def _expand_chance(self, tree: Tree, node: int) -> None:
        outcomes = self.game.chance_outcomes(tree.states[node])
        probs = np.array([p for _, p in outcomes], dtype=np.float64)
        normalise(probs, probs)
        tree.expand(node, [o for o, _ in outcomes], probs)

    def _create_outcomes(self, tree: Tree, node: int) -> list[int]:
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

    def _expand_decision(self, tree: Tree, node: int, prior_row: np.ndarray, value: np.ndarray) -> None:
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

    def _add_noise(self, tree: Tree, root: int, rng) -> None:
        priors = tree.priors(root)
        n = len(priors)
        alpha = self.config.dirichlet_alpha or 10.0 / n
        noise = rng.dirichlet(np.full(n, alpha))
        fraction = self.config.dirichlet_fraction
        priors[:] = (1.0 - fraction) * priors + fraction * noise

    def _result(self, tree: Tree, root: int, halving: "SequentialHalving | None") -> SearchResult:
        num_actions = self.game.info.num_actions
        visits = np.zeros(num_actions)
        q_values = np.full((num_actions, self._num_seats), np.nan)
        priors = np.zeros(num_actions)
        actions = tree.actions[root]
        if actions:
            visits[actions], _ = tree.child_stats(root)
            priors[actions] = tree.priors(root)
            visited = visits > 0
            children = np.zeros(num_actions, dtype=np.int64)
            children[actions] = tree.children(root)
            q_values[visited] = tree.values[children[visited]] / visits[visited, None]
        result = SearchResult(
            visit_counts=visits,
            root_values=tree.values[root] / tree.nodes[root, VISITS],
            q_values=q_values,
            priors=priors,
            to_play=int(tree.nodes[root, PLAYER]),
            principal_variation=tree.principal_variation(root),
        )
        if halving is not None:
            result.selected = actions[halving.selected(tree, root)]
            result.improved_policy = np.zeros(num_actions)
            result.improved_policy[actions] = halving.improved_policy(tree, root)
        return result


def _per_state(rng, count: int) -> list:
    """One generator per state: ``rng`` itself for each when it is one generator."""
    if isinstance(rng, np.random.Generator):
        return [rng] * count
    rngs = list(rng)
    if len(rngs) != count or not all(isinstance(r, np.random.Generator) for r in rngs):
        raise ValueError(f"rng must be a numpy Generator or one per state ({count}), got {len(rngs)} items")
    return rngs
