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
wave, one per search, in a single ``evaluate`` call (how self-play batches a
network).

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
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol, Sequence

import numba
import numpy as np

from envs.core import CHANCE, TERMINAL, Game

CHANCE_MODES = ("expectation", "sample")


@dataclass(frozen=True)
class SearchConfig:
    """Search parameters; invalid values raise ValueError naming the field.

    ============================  ==================================================
    ``num_simulations`` (64)      simulations per search, the root expansion included
    ``c_puct`` (1.25)             exploration constant of the PUCT formula
    ``dirichlet_alpha`` (None)    root noise concentration; None: ``10 / n_legal``
    ``dirichlet_fraction`` (0.25) weight of the noise in the root priors
    ``chance`` ("expectation")    "expectation" or "sample" at chance nodes
    ``fpu_reduction`` (0.0)       unvisited child value = node value minus this
    ``gumbel`` (False)            Gumbel root search with sequential halving
    ``gumbel_actions`` (16)       root actions sampled for sequential halving
    ``gumbel_c_visit`` (50.0)     sigma(q) = (c_visit + max N) * c_scale * q
    ``gumbel_c_scale`` (1.0)      (q rescaled to [0, 1] over the root's children)
    ============================  ==================================================
    """

    num_simulations: int = 64
    c_puct: float = 1.25
    dirichlet_alpha: float | None = None
    dirichlet_fraction: float = 0.25
    chance: str = "expectation"
    fpu_reduction: float = 0.0
    gumbel: bool = False
    gumbel_actions: int = 16
    gumbel_c_visit: float = 50.0
    gumbel_c_scale: float = 1.0

    def __post_init__(self):
        if (
            isinstance(self.num_simulations, bool)
            or not isinstance(self.num_simulations, (int, np.integer))
            or self.num_simulations < 1
        ):
            raise ValueError(f"num_simulations must be a positive integer, got {self.num_simulations!r}")
        _check_number("c_puct", self.c_puct, low=0.0)
        if self.dirichlet_alpha is not None:
            _check_number("dirichlet_alpha", self.dirichlet_alpha, low=0.0, strict=True)
        _check_number("dirichlet_fraction", self.dirichlet_fraction, low=0.0, high=1.0)
        _check_number("fpu_reduction", self.fpu_reduction)
        if self.chance not in CHANCE_MODES:
            raise ValueError(f"chance must be one of {CHANCE_MODES}, got {self.chance!r}")
        if not isinstance(self.gumbel, (bool, np.bool_)):
            raise ValueError(f"gumbel must be true or false, got {self.gumbel!r}")
        if (
            isinstance(self.gumbel_actions, bool)
            or not isinstance(self.gumbel_actions, (int, np.integer))
            or self.gumbel_actions < 1
        ):
            raise ValueError(f"gumbel_actions must be a positive integer, got {self.gumbel_actions!r}")
        _check_number("gumbel_c_visit", self.gumbel_c_visit, low=0.0)
        _check_number("gumbel_c_scale", self.gumbel_c_scale, low=0.0)


def _check_number(name, value, low=None, high=None, strict=False) -> None:
    ok = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)
    ok = ok and math.isfinite(value)
    ok = ok and (low is None or (value > low if strict else value >= low))
    ok = ok and (high is None or value <= high)
    if not ok:
        bounds = []
        if low is not None:
            bounds.append(f"{'>' if strict else '>='} {low}")
        if high is not None:
            bounds.append(f"<= {high}")
        rule = "a finite number" + (" " + " and ".join(bounds) if bounds else "")
        raise ValueError(f"{name} must be {rule}, got {value!r}")


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
    """

    visit_counts: np.ndarray
    root_values: np.ndarray
    q_values: np.ndarray
    priors: np.ndarray
    to_play: int
    selected: int | None = None
    improved_policy: np.ndarray | None = None

    def policy(self, temperature: float) -> np.ndarray:
        """Visit distribution ``N(a)^(1/T)`` normalised; T = 0 puts equal mass on
        the most visited actions (all of it on ``selected`` after a Gumbel
        search). With no visits (one simulation) the priors stand in."""
        _check_number("temperature", temperature, low=0.0)
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


class _Node:
    """One search node. ``w`` is the per-seat value sum, so ``w[s] / n`` is the
    mean value for seat ``s``. ``child_q[i]`` is child ``i``'s mean value for
    this node's mover (decision nodes), ``child_n[i]`` its visit count."""

    __slots__ = ("state", "player", "n", "w", "actions", "priors", "children", "child_n", "child_q")

    def __init__(self, state, player: int):
        self.state = state
        self.player = player
        self.n = 0
        self.w = None
        self.actions = None  # legal actions or outcome ids, once expanded


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
        self._uniform: dict[int, np.ndarray] = {}  # count -> shared uniform priors

    def search(self, state, evaluator: Evaluator, rng: np.random.Generator, add_noise: bool = False) -> SearchResult:
        """Search from ``state`` (a decision or chance node; it is not modified)."""
        return self.search_many([state], evaluator, rng, add_noise)[0]

    def search_many(
        self, states: Sequence, evaluator: Evaluator, rng: np.random.Generator, add_noise: bool = False
    ) -> list[SearchResult]:
        """Independent searches from each state, run in lockstep so that every
        simulation wave makes one ``evaluator.evaluate`` call for all of them."""
        game = self.game
        roots = []
        for index, state in enumerate(states):
            player = game.to_play(state)
            if player == TERMINAL:
                raise ValueError(f"state {index}: cannot search a finished game")
            roots.append(_Node(state.copy(), player))
        halving: dict[int, _SequentialHalving] = {}
        for simulation in range(self.config.num_simulations):
            paths, pending = [], []
            for index, root in enumerate(roots):
                first = halving[index].choose(root) if index in halving else None
                path, new = self._descend(root, rng, first)
                paths.append(path)
                pending += new
            if pending:
                self._evaluate(pending, evaluator)
            for path in paths:
                self._backup(path)
            if simulation == 0:  # the first simulation expanded the roots
                for index, root in enumerate(roots):
                    if root.player < 0:
                        continue
                    if self.config.gumbel:
                        halving[index] = _SequentialHalving(root, self.config, rng, add_noise)
                    elif add_noise:
                        self._add_noise(root, rng)
        return [self._result(root, halving.get(index)) for index, root in enumerate(roots)]

    def _evaluate(self, nodes: list, evaluator: Evaluator) -> None:
        priors, values = evaluator.evaluate([node.state for node in nodes])
        priors = np.asarray(priors)
        values = np.asarray(values, dtype=np.float64)
        count = len(nodes)
        if priors.shape != (count, self._num_actions) or values.shape != (count, self._num_seats):
            raise ValueError(
                f"evaluator returned priors {priors.shape} and values {values.shape} for {count} states; "
                f"expected {(count, self._num_actions)} and {(count, self._num_seats)}"
            )
        for node, prior_row, value in zip(nodes, priors, values.tolist()):
            self._expand_decision(node, prior_row, value)

    # --- one simulation ---------------------------------------------------------------
    def _descend(self, node: _Node, rng, first: int | None = None) -> tuple[list, list]:
        """Walk from the root to a leaf, taking child ``first`` at the root when
        given; return the path as (node, child index) pairs ending with
        (leaf, -1), and the new decision nodes to evaluate."""
        path = []
        while True:
            player = node.player
            if player == TERMINAL:
                path.append((node, -1))
                return path, []
            if node.actions is None:
                if player >= 0:
                    path.append((node, -1))
                    return path, [node]
                self._expand_chance(node)
                if self._expect:
                    path.append((node, -1))
                    return path, self._create_outcomes(node)
            index = self._select(node, rng) if first is None else first
            first = None
            child = node.children[index]
            if child is None:
                child = self._child(node, index)
            path.append((node, index))
            node = child

    def _select(self, node: _Node, rng) -> int:
        if node.player == CHANCE:
            if self._expect:
                return _lagging_outcome(node.priors, node.child_n, node.n)
            return min(int(np.searchsorted(node.child_q, rng.random(), side="right")), len(node.actions) - 1)
        fpu = node.w[node.player] / node.n - self._fpu_reduction
        return _puct_choice(node.child_n, node.child_q, node.priors, fpu, self._c_puct * math.sqrt(node.n))

    def _child(self, node: _Node, index: int) -> _Node:
        state = node.state.copy()
        self.game.apply(state, node.actions[index])
        child = _Node(state, self.game.to_play(state))
        node.children[index] = child
        return child

    def _expand_chance(self, node: _Node) -> None:
        outcomes = self.game.chance_outcomes(node.state)
        probs = np.array([p for _, p in outcomes], dtype=np.float64)
        node.actions = [o for o, _ in outcomes]
        node.priors = probs / probs.sum()
        node.children = [None] * len(outcomes)
        node.child_n = np.zeros(len(outcomes))
        node.child_q = np.cumsum(node.priors)  # for sampling an outcome
        node.w = [0.0] * self._num_seats

    def _create_outcomes(self, node: _Node) -> list[_Node]:
        """Create every outcome child of an expanded chance node, expanding chance
        children recursively; return the decision nodes among them."""
        result = []
        for index in range(len(node.actions)):
            child = self._child(node, index)
            if child.player >= 0:
                result.append(child)
            elif child.player == CHANCE:
                self._expand_chance(child)
                result.extend(self._create_outcomes(child))
        return result

    def _expand_decision(self, node: _Node, prior_row: np.ndarray, value: list) -> None:
        """Attach the evaluation of a new decision node; it counts as one visit."""
        actions = self.game.legal_actions(node.state)
        if not actions:
            raise ValueError(f"{self.game.info.name}: a decision state without legal actions")
        if _is_uniform(prior_row):  # rollouts, uniform evaluators: no gather needed
            node.priors = self._uniform_priors(len(actions))
        else:
            priors = prior_row[actions]
            total = float(priors.sum())
            if 0.0 < total < math.inf and priors.min() >= 0.0:  # NaN fails too
                node.priors = np.multiply(priors, 1.0 / total, dtype=np.float64)
            else:
                node.priors = self._uniform_priors(len(actions))
        node.actions = actions
        node.children = [None] * len(actions)
        node.child_n = np.zeros(len(actions))
        node.child_q = np.zeros(len(actions))
        node.n = 1
        node.w = value

    def _uniform_priors(self, count: int) -> np.ndarray:
        """``count`` equal priors summing to 1, one read-only array shared by every node."""
        priors = self._uniform.get(count)
        if priors is None:
            priors = self._uniform[count] = np.full(count, 1.0 / count)
            priors.flags.writeable = False
        return priors

    def _add_noise(self, root: _Node, rng) -> None:
        n = len(root.actions)
        alpha = self.config.dirichlet_alpha or 10.0 / n
        noise = rng.dirichlet(np.full(n, alpha))
        fraction = self.config.dirichlet_fraction
        root.priors = (1.0 - fraction) * root.priors + fraction * noise

    # --- backup ------------------------------------------------------------------------
    def _visit_terminal(self, node: _Node) -> list:
        """Count a visit to a terminal node; its value is the game's returns."""
        if node.n == 0:
            node.w = list(self.game.returns(node.state))
            node.n = 1
            return list(node.w)
        value = [x / node.n for x in node.w]
        node.n += 1
        node.w = [x * node.n for x in value]
        return value

    def _expectation(self, node: _Node) -> list:
        """Count a visit to an expanded chance node (expectation mode) and return
        its value: the probability-weighted mean of its outcome children."""
        value = [0.0] * self._num_seats
        for index, (p, child) in enumerate(zip(node.priors, node.children)):
            if child.n == 0:  # created in this simulation
                if child.player == TERMINAL:
                    self._visit_terminal(child)
                else:
                    self._expectation(child)
                node.child_n[index] = child.n
            value = [v + p * w / child.n for v, w in zip(value, child.w)]
        node.n += 1
        node.w = [v * node.n for v in value]
        return value

    def _backup(self, path: list) -> None:
        leaf, _ = path[-1]
        if leaf.player >= 0:
            value = list(leaf.w)  # just evaluated, n == 1
        elif leaf.player == TERMINAL:
            value = self._visit_terminal(leaf)
        else:
            value = self._expectation(leaf)
        child = leaf
        for node, index in reversed(path[:-1]):
            node.child_n[index] = child.n
            player = node.player
            if player >= 0:
                node.child_q[index] = child.w[player] / child.n
            elif self._expect:
                value = self._expectation(node)
                child = node
                continue
            node.n += 1
            node.w = [w + v for w, v in zip(node.w, value)]
            child = node

    def _result(self, root: _Node, halving: "_SequentialHalving | None") -> SearchResult:
        num_actions = self.game.info.num_actions
        visits = np.zeros(num_actions)
        q_values = np.full((num_actions, self._num_seats), np.nan)
        priors = np.zeros(num_actions)
        if root.actions:
            actions = list(root.actions)
            visits[actions] = root.child_n
            priors[actions] = root.priors
            for action, child in zip(actions, root.children):
                if child is not None and child.n > 0:
                    q_values[action] = [x / child.n for x in child.w]
        result = SearchResult(
            visit_counts=visits,
            root_values=np.array([x / root.n for x in root.w]),
            q_values=q_values,
            priors=priors,
            to_play=root.player,
        )
        if halving is not None:
            result.selected = root.actions[halving.selected(root)]
            result.improved_policy = np.zeros(num_actions)
            result.improved_policy[list(root.actions)] = halving.improved_policy(root)
        return result


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

    def __init__(self, root: _Node, config: SearchConfig, rng, add_noise: bool):
        n = len(root.actions)
        self.logits = np.log(np.maximum(root.priors, 1e-30))
        self.gumbel = rng.gumbel(size=n) if add_noise else np.zeros(n)
        self.order = rng.permutation(n)  # ties broken at random, not by action index
        self.value = root.w[root.player]  # the evaluator's value: the root has one visit
        self.schedule = considered_visits(min(config.gumbel_actions, n), config.num_simulations - 1)
        self.scale = config.gumbel_c_scale
        self.c_visit = config.gumbel_c_visit
        self.done = 0

    def choose(self, root: _Node) -> int:
        """The root child for the next simulation."""
        considered = self.schedule[self.done]
        self.done += 1
        return self._best(root, root.child_n == considered)

    def selected(self, root: _Node) -> int:
        """The chosen root child: the best among the most visited."""
        return self._best(root, root.child_n == root.child_n.max())

    def improved_policy(self, root: _Node) -> np.ndarray:
        z = self.logits + self._sigma(root)
        p = np.exp(z - z.max())
        return p / p.sum()

    def _best(self, root: _Node, allowed: np.ndarray) -> int:
        scores = np.where(allowed, self.gumbel + self.logits + self._sigma(root), -np.inf)
        return int(self.order[np.argmax(scores[self.order])])

    def _sigma(self, root: _Node) -> np.ndarray:
        visits, q = root.child_n, root.child_q
        visited = visits > 0
        total = visits.sum()
        if total > 0:
            weights = root.priors[visited]
            v_mix = (self.value + total * (weights @ q[visited]) / weights.sum()) / (1.0 + total)
        else:
            v_mix = self.value
        completed = np.where(visited, q, v_mix)
        low, high = completed.min(), completed.max()
        completed = (completed - low) / max(high - low, 1e-8)
        return (self.c_visit + visits.max()) * self.scale * completed


@numba.njit(cache=True)
def _puct_choice(child_n, child_q, priors, fpu, scale):
    """Index of the child with the highest PUCT score (the first one on ties)."""
    best, choice = -np.inf, 0
    for i in range(child_n.shape[0]):
        n = child_n[i]
        score = (child_q[i] if n > 0 else fpu) + priors[i] * scale / (1.0 + n)
        if score > best:
            best, choice = score, i
    return choice


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


@numba.njit(cache=True)
def _lagging_outcome(probs, child_n, n):
    """Index of the outcome whose visits lag its probability the most."""
    best, choice = -np.inf, 0
    for i in range(probs.shape[0]):
        lag = probs[i] * (n + 1) - child_n[i]
        if lag > best:
            best, choice = lag, i
    return choice
