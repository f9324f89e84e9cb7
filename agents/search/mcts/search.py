"""The search itself (:class:`MCTS`): simulations in lockstep over many roots, leaves
estimated in one call per wave, chance nodes expanded or sampled, on the one driver
(:mod:`~agents.search.mcts.driver`)."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from agents.search.mcts.config import SearchConfig
from agents.search.mcts.driver import RAW_DOUBLES, RowSearch, draws_match
from agents.search.mcts.halving import SequentialHalving
from agents.search.mcts.interface import Estimator, SearchResult
from agents.search.mcts.kernels import PLAYER, VISITS
from agents.search.mcts.python_rows import PythonRows
from agents.search.mcts.tree import Tree
from envs import compiled as rules
from envs.core import TERMINAL, Game


class MCTS:
    """PUCT tree search for one game; see the package docstring for the algorithm.

    Every game runs on the one driver (:mod:`~agents.search.mcts.driver`): over the rows of
    ``game.compiled()`` in numba, or, for a game written in plain Python (``compiled()`` is
    None), over :class:`~agents.search.mcts.python_rows.PythonRows` in Python.
    """

    def __init__(self, game: Game, config: SearchConfig = SearchConfig()):
        if not isinstance(config, SearchConfig):
            raise ValueError(f"config must be a SearchConfig, got {type(config).__name__}")
        self.game = game
        self.config = config
        self._compiled = game.compiled()  # None: PythonRows, one table of states per search
        if self._compiled is not None and game.info.has_chance and not rules.provides(self._compiled, "chance"):
            raise ValueError(f"{game.info.name} has chance nodes but its compiled rules register no chance function")
        self._num_seats = game.info.num_seats
        self._expect = config.chance == "expectation"
        self._c_puct = float(config.c_puct)
        self._fpu_reduction = float(config.fpu_reduction)
        self._playout_mix = float(config.playout_mix)
        self._path_length = 2 * game.info.max_decisions + 4  # the paths' first length: they grow if a game goes deeper

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
        rngs = self._checked(states, rng)
        rows = self._compiled if self._compiled is not None else PythonRows(self.game)
        search = RowSearch(self, states, rows, estimator, rngs)
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

    def _checked(self, states: Sequence, rng) -> list:
        """One generator per state (``rng`` itself for each when it is one generator), the
        states and generators checked."""
        rngs = _per_state(rng, len(states))
        for index, state in enumerate(states):
            if self.game.to_play(state) == TERMINAL:
                raise ValueError(f"state {index}: cannot search a finished game")
        if not self._expect and self.game.info.has_chance:
            for r in rngs:
                if not draws_match(r):
                    raise ValueError(
                        f"chance='sample' draws outcomes from generators whose random() is one raw draw "
                        f"({', '.join(RAW_DOUBLES)}; numpy's default_rng), got {type(r.bit_generator).__name__}"
                    )
        return rngs

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
