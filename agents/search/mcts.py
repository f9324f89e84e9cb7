"""PUCT Monte Carlo tree search over the engine API (no torch).

One :class:`MCTS` object holds the game and a :class:`SearchConfig`; it
searches any number of states against an :class:`Evaluator` that returns
priors and per-seat values::

    mcts = MCTS(game, SearchConfig(num_simulations=200))
    result = mcts.search(state, RolloutEvaluator(game, rng), rng)
    action = select_action(result, temperature=0.0, rng=rng)

Values per seat
---------------
Every node keeps the sum of backed-up value *vectors* (one entry per seat) and
a node where seat ``s`` acts ranks its children by their value for ``s``. No
sign is ever flipped, so a seat that moves several times in a row (the
micro-steps of a neutral-game turn, Odoku's coin picking the same seat twice,
the pie-rule swap) is handled like any other move.

Selection (PUCT) at a decision node with visit count ``N`` picks the child
``a`` that maximises::

    Q_s(a) + c_puct * P(a) * sqrt(N) / (1 + N(a))

``Q_s(a)`` is the child's mean value for the mover ``s``; an unvisited child
counts as the node's own mean value for ``s`` minus ``fpu_reduction``
(first-play urgency). ``N`` includes the visit that expanded the node, so the
first choice follows the priors. ``P`` is the evaluator's prior restricted to
the legal actions and renormalised (uniform when that row has no positive
mass over them, or a negative or NaN entry).

Chance nodes
------------
``chance="expectation"``: expanding a chance node expands all its outcomes at
once; its value is the probability-weighted mean of its outcome children's
values (exact for Odoku's two coin outcomes). Later simulations descend into
the outcome whose share of visits lags its probability the most
(``argmax p_i * (n + 1) - n_i``), a deterministic stratified choice.
``chance="sample"``: each simulation samples one outcome with the search's
rng, and the node's value is the mean of what was backed up through it.

Simulations
-----------
``num_simulations`` counts every simulation, including the first one that
expands the root, so a decision root's children share
``num_simulations - 1`` visits. Each simulation adds one leaf (all the outcome
children at once for an expanded chance node in expectation mode) and calls
the evaluator for the new decision states. :meth:`MCTS.search_many` runs
independent searches in lockstep and evaluates the leaves of one simulation
wave, one per search, in a single ``evaluate`` call (how self-play and
evaluation games batch a network); each search may draw from a generator of its
own, so that its result does not depend on which searches share its waves.

Leaf values mixed with playouts
-------------------------------
With ``playout_mix = m > 0`` a new leaf's value is ``(1 - m) * v + m * z``:
``v`` the evaluator's value, ``z`` the returns of one random playout from the
leaf (``game.random_playout`` with the search's rng), as AlphaGo mixed its
value network with rollouts. Where a random playout already says much about a
position (the end of a normal-play game, Odoku), a young network's value
gains from it at the cost of one playout per leaf.

Root noise
----------
With ``add_noise=True`` a decision root's priors become
``(1 - dirichlet_fraction) * P + dirichlet_fraction * Dir(alpha)`` with
``alpha = dirichlet_alpha`` or, when that is None, ``10 / n_legal`` (AlphaZero's
0.3 for chess, 0.03 for Go scale like this). A chance root gets no noise.

Gumbel root search
------------------
With ``gumbel=True`` a decision root follows Gumbel MuZero (Danihelka et al.,
ICLR 2022), which improves the policy even with a handful of simulations:
``gumbel_actions`` root actions with the top ``g + logits`` (``g`` Gumbel noise
when ``add_noise``, else zero) share the budget by sequential halving on
``g + logits + sigma(q)`` (:class:`_SequentialHalving`); the result's
``selected`` is the action to play and ``improved_policy`` the policy target.
Below the root, selection is PUCT as above; Dirichlet noise is not used.

Representation
--------------
The nodes of one ``search_many`` call live in flat arrays (:class:`_Tree`):
numba kernels select down the tree (``_walk``) and back values up
(``_backup``); Python only creates children with ``game.apply``, expands
chance nodes and calls the evaluator. A child's visit count and mean value
are the N and Q of the edge that leads to it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Protocol, Sequence

import numba
import numpy as np

from agents.config import check
from envs.core import CHANCE, TERMINAL, Game

CHANCE_MODES = ("expectation", "sample")


@dataclass(frozen=True)
class SearchConfig:
    """Search parameters (``agent.search`` in the configs; these defaults are the config's).

    Invalid values raise ValueError naming the field.
    """

    num_simulations: int = 32  # simulations per search, the root expansion included
    c_puct: float = 1.25  # exploration constant of the PUCT formula
    dirichlet_alpha: float | None = None  # root noise concentration; None: 10 / number of legal actions
    dirichlet_fraction: float = 0.25  # weight of the noise in the root priors
    chance: str = "expectation"  # at chance nodes: "expectation" or "sample"
    fpu_reduction: float = 0.0  # an unvisited child's value: its node's value minus this
    playout_mix: float = 0.0  # a leaf's value: (1 - mix) * the evaluator's + mix * one random playout's returns
    gumbel: bool = False  # Gumbel root search (sequential halving); self-play then learns its improved policy
    gumbel_actions: int = 16  # root actions sampled for sequential halving
    gumbel_c_visit: float = 50.0  # sigma(q) = (c_visit + max N) * c_scale * q,
    gumbel_c_scale: float = 1.0  # with q rescaled to [0, 1] over the root's children

    def __post_init__(self):
        check("num_simulations", self.num_simulations, "integer", low=1)
        check("c_puct", self.c_puct, "number", low=0.0)
        if self.dirichlet_alpha is not None:
            check("dirichlet_alpha", self.dirichlet_alpha, "number", low=0.0, strict=True)
        check("dirichlet_fraction", self.dirichlet_fraction, "number", low=0.0, high=1.0)
        check("fpu_reduction", self.fpu_reduction, "number")
        check("playout_mix", self.playout_mix, "number", low=0.0, high=1.0)
        check("chance", self.chance, "choice", choices=CHANCE_MODES)
        check("gumbel", self.gumbel, "bool")
        check("gumbel_actions", self.gumbel_actions, "integer", low=1)
        check("gumbel_c_visit", self.gumbel_c_visit, "number", low=0.0)
        check("gumbel_c_scale", self.gumbel_c_scale, "number", low=0.0)


class Evaluator(Protocol):
    """What the search asks of a position: action priors and per-seat values."""

    def evaluate(self, states: Sequence) -> tuple[np.ndarray, np.ndarray]:
        """priors float32 [B, num_actions] (the search masks illegal actions and
        renormalises), values float32 [B, num_seats]: expected final return per
        seat. Called only on decision states (never chance or terminal ones),
        which it must not modify."""


@dataclass
class SearchResult:
    """What one search found at its root.

    ``visit_counts`` [num_actions]: visits of each root child (zeros for
    illegal actions; at a chance root, indexed by outcome id).
    ``root_values`` [num_seats]: the root's value estimate per seat.
    ``q_values`` [num_actions, num_seats]: each root child's mean value, NaN
    for children never visited. ``priors`` [num_actions]: the root priors the
    search used (noise included; outcome probabilities at a chance root).
    ``to_play``: the root's seat, or CHANCE.
    Gumbel search only (else None): ``selected``, the action sequential
    halving chose; ``improved_policy`` [num_actions], ``softmax(logits +
    sigma(completed q))``, the policy target of Gumbel MuZero.
    ``principal_variation``: the line of most visited children from the root
    (chance outcomes included), what the search expects to be played.
    """

    visit_counts: np.ndarray
    root_values: np.ndarray
    q_values: np.ndarray
    priors: np.ndarray
    to_play: int
    selected: int | None = None
    improved_policy: np.ndarray | None = None
    principal_variation: list[int] = field(default_factory=list)

    def policy(self, temperature: float) -> np.ndarray:
        """Visit distribution ``N(a)^(1/T)`` normalised; T = 0 puts equal mass on
        the most visited actions (all of it on ``selected`` after a Gumbel
        search). With no visits (one simulation) the priors stand in."""
        check("temperature", temperature, "number", low=0.0)
        counts = self.visit_counts if self.visit_counts.sum() > 0 else self.priors
        if temperature == 0.0 and self.selected is not None:
            return np.eye(len(counts))[self.selected]
        if temperature == 0.0:
            best = counts == counts.max()
            return best / best.sum()
        # scaled by the max first so large counts and small temperatures cannot overflow
        weights = (counts / counts.max()) ** (1.0 / temperature)
        return weights / weights.sum()


def select_action(result: SearchResult, temperature: float, rng: np.random.Generator) -> int:
    """Sample an action from ``result.policy(temperature)`` (T = 0: a random best one)."""
    policy = result.policy(temperature)
    return int(rng.choice(len(policy), p=policy))


def temperature_schedule(decision: int, sampling_decisions: int, temperature: float = 1.0) -> float:
    """``temperature`` for the first ``sampling_decisions`` decisions of a game
    (counted from 0, every micro-step one decision), then 0 (play the best)."""
    return temperature if decision < sampling_decisions else 0.0


# Columns of _Tree.nodes. A node's edges are edge_child/edge_prior[FIRST_EDGE : FIRST_EDGE + NUM_EDGES].
PLAYER, VISITS, FIRST_EDGE, NUM_EDGES = range(4)
# What _walk stopped at.
_AT_TERMINAL, _UNEXPANDED, _NEW_CHILD, _SAMPLE, _PATH_FULL = range(5)


class _Tree:
    """The nodes of one ``search_many`` call in flat arrays, so that numba
    kernels select and back up without touching Python objects.

    ``nodes[i]``: PLAYER (seat, CHANCE or TERMINAL), VISITS, FIRST_EDGE (-1
    until expanded), NUM_EDGES. ``values[i]``: the per-seat value sum, so
    ``values[i, s] / nodes[i, VISITS]`` is the mean value for seat ``s``.
    An edge (a legal action, or a chance outcome) holds its prior (the outcome
    probability at a chance node) and its child node (-1 until created); a
    child's visits and mean value are the edge's N and Q. ``states[i]`` and
    ``actions[i]`` (legal actions or outcome ids) stay Python objects.
    """

    def __init__(self, num_seats: int, nodes: int, edges: int):
        self.nodes = _blank_nodes(nodes)
        self.values = np.zeros((nodes, num_seats))
        self.edge_child = np.full(edges, -1, dtype=np.int64)
        self.edge_prior = np.zeros(edges)
        self.num_edges = 0
        self.states: list = []
        self.actions: list = []

    def add(self, state, player: int) -> int:
        """A new unexpanded node for ``state``; its id."""
        node = len(self.states)
        if node == len(self.nodes):
            self.nodes = np.concatenate([self.nodes, _blank_nodes(node)])
            self.values = _doubled(self.values, 0.0)
        self.nodes[node, PLAYER] = player
        self.states.append(state)
        self.actions.append(None)
        return node

    def expand(self, node: int, actions: list, priors) -> None:
        """Give ``node`` one edge per action, with these priors (an array, or one number for all)."""
        start, count = self.num_edges, len(actions)
        while start + count > len(self.edge_child):
            self.edge_child, self.edge_prior = _doubled(self.edge_child, -1), _doubled(self.edge_prior, 0.0)
        self.edge_prior[start : start + count] = priors
        self.num_edges = start + count
        self.nodes[node, FIRST_EDGE] = start
        self.nodes[node, NUM_EDGES] = count
        self.actions[node] = actions

    def priors(self, node: int) -> np.ndarray:
        """The priors of ``node``'s edges (a view: writing it changes the tree)."""
        return self.edge_prior[self._edges(node)]

    def children(self, node: int) -> np.ndarray:
        """The child node of each of ``node``'s edges, -1 where none was created."""
        return self.edge_child[self._edges(node)]

    def _edges(self, node: int) -> slice:
        start = self.nodes[node, FIRST_EDGE]
        return slice(start, start + self.nodes[node, NUM_EDGES])

    def child_stats(self, node: int) -> tuple[np.ndarray, np.ndarray]:
        """Visits (float) and mean value for ``node``'s mover (0 where unvisited) of each edge."""
        return _child_stats(self.nodes, self.values, self.children(node), max(self.nodes[node, PLAYER], 0))


# A search's first array sizes (they double when full, so these only save copies): a node per
# simulation and root, and a guess of the edges a simulation's expansion adds, plus slack.
_NODE_SLACK = 16
_EDGES_PER_SIMULATION = 8
_EDGE_SLACK = 64


def _blank_nodes(count: int) -> np.ndarray:
    nodes = np.zeros((count, 4), dtype=np.int64)
    nodes[:, FIRST_EDGE] = -1
    return nodes


def _doubled(array: np.ndarray, fill) -> np.ndarray:
    """``array`` followed by as many rows again, holding ``fill``."""
    return np.concatenate([array, np.full_like(array, fill)])


class MCTS:
    """PUCT tree search for one game; see the module docstring for the algorithm."""

    def __init__(self, game: Game, config: SearchConfig = SearchConfig()):
        if not isinstance(config, SearchConfig):
            raise ValueError(f"config must be a SearchConfig, got {type(config).__name__}")
        self.game = game
        self.config = config
        self._num_seats = game.info.num_seats
        self._num_actions = game.info.num_actions
        self._expect = config.chance == "expectation"
        self._c_puct = float(config.c_puct)
        self._fpu_reduction = float(config.fpu_reduction)
        self._playout_mix = float(config.playout_mix)
        self._path_length = 2 * game.info.max_decisions + 4  # grows if a game goes deeper

    def search(self, state, evaluator: Evaluator, rng: np.random.Generator, add_noise: bool = False) -> SearchResult:
        """Search from ``state`` (a decision or chance node; it is not modified)."""
        return self.search_many([state], evaluator, rng, add_noise)[0]

    def search_many(
        self,
        states: Sequence,
        evaluator: Evaluator,
        rng: np.random.Generator | Sequence[np.random.Generator],
        add_noise: bool = False,
    ) -> list[SearchResult]:
        """Independent searches from each state, run in lockstep so that every
        simulation wave makes one ``evaluator.evaluate`` call for all of them.

        ``rng``: one generator that every search draws from in turn (self-play),
        or one per state: then everything search ``i`` draws (sampled chance
        outcomes, root noise, Gumbel draws, playouts) comes from ``rng[i]``, and
        its result does not depend on the other states in the call (given an
        evaluator whose output for a state does not depend on its batch)."""
        game, simulations = self.game, self.config.num_simulations
        rngs = _per_state(rng, len(states))
        nodes = len(states) * (simulations + 1) + _NODE_SLACK
        tree = _Tree(self._num_seats, nodes, len(states) * simulations * _EDGES_PER_SIMULATION + _EDGE_SLACK)
        roots = []
        for index, state in enumerate(states):
            player = game.to_play(state)
            if player == TERMINAL:
                raise ValueError(f"state {index}: cannot search a finished game")
            roots.append(tree.add(state.copy(), player))
        paths = [np.empty((self._path_length, 2), dtype=np.int64) for _ in roots]
        halving: dict[int, _SequentialHalving] = {}
        for simulation in range(simulations):
            lengths, pending, owners = [], [], []
            for index, root in enumerate(roots):
                first = halving[index].choose(tree, root) if index in halving else -1
                length, new = self._descend(tree, paths, index, root, rngs[index], first)
                lengths.append(length)
                pending += new
                owners += [rngs[index]] * len(new)
            if pending:
                self._evaluate(tree, pending, evaluator, owners)
            for path, length in zip(paths, lengths):
                _backup(tree.nodes, tree.values, tree.edge_child, tree.edge_prior, path, length, self._expect)
            if simulation == 0:  # the first simulation expanded the roots
                for index, root in enumerate(roots):
                    if tree.nodes[root, PLAYER] < 0:
                        continue
                    if self.config.gumbel:
                        halving[index] = _SequentialHalving(tree, root, self.config, rngs[index], add_noise)
                    elif add_noise:
                        self._add_noise(tree, root, rngs[index])
        return [self._result(tree, root, halving.get(index)) for index, root in enumerate(roots)]

    def _evaluate(self, tree: _Tree, nodes: list, evaluator: Evaluator, rngs: list) -> None:
        """Evaluate new decision nodes; ``rngs[i]`` draws node ``i``'s playout (playout_mix)."""
        states = [tree.states[node] for node in nodes]
        priors, values = evaluator.evaluate(states)
        priors = np.asarray(priors)
        values = np.asarray(values, dtype=np.float64)
        count = len(nodes)
        if priors.shape != (count, self._num_actions) or values.shape != (count, self._num_seats):
            raise ValueError(
                f"evaluator returned priors {priors.shape} and values {values.shape} for {count} states; "
                f"expected {(count, self._num_actions)} and {(count, self._num_seats)}"
            )
        if self._playout_mix:
            playout, mix = self.game.random_playout, self._playout_mix
            values = (1.0 - mix) * values + mix * np.array([playout(s, r)[0] for s, r in zip(states, rngs)])
        for node, prior_row, value in zip(nodes, priors, values):
            self._expand_decision(tree, node, prior_row, value)

    # --- one simulation ---------------------------------------------------------------
    def _descend(self, tree: _Tree, paths: list, index: int, node: int, rng, first: int) -> tuple[int, list]:
        """Walk from the root ``node`` to a leaf, taking child ``first`` at the
        root when it is not -1. The path goes into ``paths[index]`` as (node,
        child index) rows ending with (leaf, -1); return its length and the
        new decision nodes to evaluate."""
        length = 0
        while True:
            path = paths[index]
            length, node, status = _walk(
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
            if status == _PATH_FULL:  # walk again from where it stopped, with the same first
                paths[index] = _doubled(path, -1)
                continue
            first = -1
            if status == _AT_TERMINAL:
                return length, []
            if status == _SAMPLE:
                first = self._sample_outcome(tree, node, rng)
                continue
            if status == _NEW_CHILD:  # the path's last row chose a child not created yet
                node, player = self._child(tree, node, int(path[length - 1, 1]))
            else:
                player = tree.nodes[node, PLAYER]
            # node is unexpanded: a decision or chance node, or a new terminal one
            if length == len(path):
                path = paths[index] = _doubled(path, -1)
            if player != CHANCE:
                path[length] = (node, -1)
                return length + 1, [node] if player >= 0 else []
            self._expand_chance(tree, node)
            if self._expect:
                path[length] = (node, -1)
                return length + 1, self._create_outcomes(tree, node)
            first = self._sample_outcome(tree, node, rng)

    def _sample_outcome(self, tree: _Tree, node: int, rng) -> int:
        cumulative = np.cumsum(tree.priors(node))
        return min(int(np.searchsorted(cumulative, rng.random(), side="right")), len(cumulative) - 1)

    def _child(self, tree: _Tree, node: int, index: int) -> tuple[int, int]:
        """Create child ``index`` of ``node``; return it and its player."""
        state = tree.states[node].copy()
        self.game.apply(state, tree.actions[node][index])
        player = self.game.to_play(state)
        child = tree.add(state, player)
        if player == TERMINAL:  # its value: the returns, counted on its first visit
            tree.values[child] = self.game.returns(state)
        tree.edge_child[tree.nodes[node, FIRST_EDGE] + index] = child
        return child, player

    def _expand_chance(self, tree: _Tree, node: int) -> None:
        outcomes = self.game.chance_outcomes(tree.states[node])
        probs = np.array([p for _, p in outcomes], dtype=np.float64)
        tree.expand(node, [o for o, _ in outcomes], probs / probs.sum())

    def _create_outcomes(self, tree: _Tree, node: int) -> list[int]:
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

    def _expand_decision(self, tree: _Tree, node: int, prior_row: np.ndarray, value: np.ndarray) -> None:
        """Attach the evaluation of a new decision node; it counts as one visit."""
        actions = self.game.legal_actions(tree.states[node])
        if not actions:
            raise ValueError(f"{self.game.info.name}: a decision state without legal actions")
        if _is_uniform(prior_row):  # rollouts, uniform evaluators: no gather needed
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

    def _add_noise(self, tree: _Tree, root: int, rng) -> None:
        priors = tree.priors(root)
        n = len(priors)
        alpha = self.config.dirichlet_alpha or 10.0 / n
        noise = rng.dirichlet(np.full(n, alpha))
        fraction = self.config.dirichlet_fraction
        priors[:] = (1.0 - fraction) * priors + fraction * noise

    def _result(self, tree: _Tree, root: int, halving: "_SequentialHalving | None") -> SearchResult:
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
            principal_variation=_principal_variation(tree, root),
        )
        if halving is not None:
            result.selected = actions[halving.selected(tree, root)]
            result.improved_policy = np.zeros(num_actions)
            result.improved_policy[actions] = halving.improved_policy(tree, root)
        return result


def _principal_variation(tree: _Tree, root: int) -> list[int]:
    """The actions (or outcomes) of the most visited child at each node from ``root``, down to
    a node whose children were never visited (ties: the first action)."""
    line, node = [], root
    while tree.nodes[node, FIRST_EDGE] >= 0:
        children = tree.children(node)
        visits = np.where(children >= 0, tree.nodes[children, VISITS], 0)
        if visits.max() <= 0:
            break
        best = int(np.argmax(visits))
        line.append(int(tree.actions[node][best]))
        node = int(children[best])
    return line


def _per_state(rng, count: int) -> list:
    """One generator per state: ``rng`` itself for each when it is one generator."""
    if isinstance(rng, np.random.Generator):
        return [rng] * count
    rngs = list(rng)
    if len(rngs) != count or not all(isinstance(r, np.random.Generator) for r in rngs):
        raise ValueError(f"rng must be a numpy Generator or one per state ({count}), got {len(rngs)} items")
    return rngs


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


class _SequentialHalving:
    """Gumbel root search (Danihelka et al., "Policy improvement by planning
    with Gumbel", ICLR 2022): the root actions with the top ``g + logits``
    (``g`` Gumbel noise, zero without ``add_noise``) share the simulations by
    sequential halving on ``g + logits + sigma(q)``; below the root, PUCT.

    ``sigma(q) = (c_visit + max_b N(b)) * c_scale * q``, with q the completed
    values for the mover (unvisited actions get the mixed value ``v_mix`` of
    the root's evaluation and its visited children) rescaled to [0, 1].
    """

    def __init__(self, tree: _Tree, root: int, config: SearchConfig, rng, add_noise: bool):
        self.priors = tree.priors(root).copy()
        n = len(self.priors)
        self.logits = np.log(np.maximum(self.priors, 1e-30))
        self.gumbel = rng.gumbel(size=n) if add_noise else np.zeros(n)
        self.order = rng.permutation(n)  # ties broken at random, not by action index
        self.value = tree.values[root, tree.nodes[root, PLAYER]]  # the evaluator's: one visit so far
        self.schedule = considered_visits(min(config.gumbel_actions, n), config.num_simulations - 1)
        self.scale = config.gumbel_c_scale
        self.c_visit = config.gumbel_c_visit
        self.done = 0

    def choose(self, tree: _Tree, root: int) -> int:
        """The root child for the next simulation."""
        considered = self.schedule[self.done]
        self.done += 1
        visits, q = tree.child_stats(root)
        return self._best(visits, q, visits == considered)

    def selected(self, tree: _Tree, root: int) -> int:
        """The chosen root child: the best among the most visited."""
        visits, q = tree.child_stats(root)
        return self._best(visits, q, visits == visits.max())

    def improved_policy(self, tree: _Tree, root: int) -> np.ndarray:
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


# --- numba kernels over _Tree's arrays ---------------------------------------------------
@numba.njit(cache=True)
def _walk(nodes, values, edge_child, edge_prior, path, length, node, first, c_puct, fpu_reduction, expect):
    """Select from ``node`` down the tree, appending (node, child index) rows
    to ``path`` after its first ``length``; take child ``first`` at ``node``
    when it is not -1. Stop at a terminal node (appended as (node, -1)), an
    unexpanded node, a chosen child not created yet, a chance node to sample
    or a full path; return (length, node, what it stopped at)."""
    while True:
        player = nodes[node, PLAYER]
        if player == TERMINAL:
            if length == path.shape[0]:
                return length, node, _PATH_FULL
            path[length, 0], path[length, 1] = node, -1
            return length + 1, node, _AT_TERMINAL
        start = nodes[node, FIRST_EDGE]
        if start < 0:
            return length, node, _UNEXPANDED
        count = nodes[node, NUM_EDGES]
        if first >= 0:
            index = first
        elif player >= 0:
            visits = nodes[node, VISITS]
            fpu = values[node, player] / visits - fpu_reduction
            index = _puct_choice(
                nodes,
                values,
                edge_child[start : start + count],
                edge_prior[start : start + count],
                player,
                fpu,
                c_puct * np.sqrt(visits),
            )
        elif expect:
            index = _lagging_outcome(
                nodes, edge_child[start : start + count], edge_prior[start : start + count], nodes[node, VISITS]
            )
        else:
            return length, node, _SAMPLE
        if length == path.shape[0]:
            return length, node, _PATH_FULL
        first = -1
        path[length, 0], path[length, 1] = node, index
        length += 1
        child = edge_child[start + index]
        if child < 0:
            return length, node, _NEW_CHILD
        node = child


@numba.njit(cache=True)
def _puct_choice(nodes, values, children, priors, player, fpu, scale):
    """Index of the child with the highest PUCT score for ``player`` (the first one on ties)."""
    best, choice = -np.inf, 0
    for i in range(children.shape[0]):
        child = children[i]
        n = nodes[child, VISITS] if child >= 0 else 0
        score = (values[child, player] / n if n > 0 else fpu) + priors[i] * scale / (1.0 + n)
        if score > best:
            best, choice = score, i
    return choice


@numba.njit(cache=True)
def _child_stats(nodes, values, children, player):
    """Visits (float) and mean value for ``player`` (0 where unvisited) of these children."""
    visits, means = np.zeros(children.shape[0]), np.zeros(children.shape[0])
    for i in range(children.shape[0]):
        child = children[i]
        if child >= 0 and nodes[child, VISITS] > 0:
            visits[i] = nodes[child, VISITS]
            means[i] = values[child, player] / visits[i]
    return visits, means


@numba.njit(cache=True)
def _lagging_outcome(nodes, children, probs, visits):
    """Index of the outcome whose visits lag its probability the most."""
    best, choice = -np.inf, 0
    for i in range(children.shape[0]):
        child = children[i]
        lag = probs[i] * (visits + 1) - (nodes[child, VISITS] if child >= 0 else 0)
        if lag > best:
            best, choice = lag, i
    return choice


@numba.njit(cache=True)
def _backup(nodes, values, edge_child, edge_prior, path, length, expect):
    """Back the leaf's value up the path: a new decision leaf's evaluation, a
    terminal leaf's returns, or a chance leaf's expectation."""
    leaf = path[length - 1, 0]
    player = nodes[leaf, PLAYER]
    if player >= 0:
        value = values[leaf].copy()  # just evaluated: one visit
    elif player == TERMINAL:
        value = _visit_terminal(nodes, values, leaf)
    else:
        value = _expectation(nodes, values, edge_child, edge_prior, leaf)
    for i in range(length - 2, -1, -1):
        node = path[i, 0]
        if expect and nodes[node, PLAYER] == CHANCE:
            value = _expectation(nodes, values, edge_child, edge_prior, node)
            continue
        nodes[node, VISITS] += 1
        for seat in range(value.shape[0]):
            values[node, seat] += value[seat]


@numba.njit(cache=True)
def _visit_terminal(nodes, values, node):
    """Count a visit to a terminal node (its value sum starts as the returns); return its value."""
    visits = nodes[node, VISITS]
    if visits == 0:
        nodes[node, VISITS] = 1
        return values[node].copy()
    value = values[node] / visits
    nodes[node, VISITS] = visits + 1
    values[node] = value * (visits + 1)
    return value


@numba.njit(cache=True)
def _expectation(nodes, values, edge_child, edge_prior, node):
    """Count a visit to an expanded chance node (expectation mode) and return its
    value: the probability-weighted mean of its outcome children, visiting
    those created in this simulation (terminal, or chance ones recursively)."""
    value = np.zeros(values.shape[1])
    start = nodes[node, FIRST_EDGE]
    for edge in range(start, start + nodes[node, NUM_EDGES]):
        child = edge_child[edge]
        if nodes[child, VISITS] == 0:  # created in this simulation
            if nodes[child, PLAYER] == TERMINAL:
                _visit_terminal(nodes, values, child)
            else:
                _expectation(nodes, values, edge_child, edge_prior, child)
        p, visits = edge_prior[edge], nodes[child, VISITS]
        for seat in range(value.shape[0]):
            value[seat] = value[seat] + p * values[child, seat] / visits
    nodes[node, VISITS] += 1
    values[node] = value * nodes[node, VISITS]
    return value


@numba.njit(cache=True)
def _is_uniform(row):
    """Whether every entry of ``row`` is the same positive finite number."""
    first = row[0]
    if not 0.0 < first < np.inf:  # NaN fails too
        return False
    for x in row:
        if x != first:
            return False
    return True
