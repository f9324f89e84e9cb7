"""Players that act by tree search: any estimator, and plain MCTS (``mcts:N``)."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from agents.players.player import Player
from agents.search.estimators import RolloutEstimator
from agents.search.mcts import MCTS, Estimator, SearchConfig, SearchResult, select_action
from envs.core import Game


class SearchPlayer(Player):
    """Searches every decision with ``estimator`` and plays the most visited
    action (temperature 0, ties broken by ``rng``); no root noise. ``last_search`` keeps
    the search of the last ``act`` (its values and planned line: the browser board shows them)."""

    name = "search"
    last_search: SearchResult | None = None

    def __init__(self, game: Game, estimator: Estimator, config: SearchConfig):
        self.game = game
        self.estimator = estimator
        self.mcts = MCTS(game, config)

    def act(self, state, rng: np.random.Generator) -> int:
        self.last_search = self.mcts.search(state, self.estimator, rng)
        return select_action(self.last_search, 0.0, rng)

    def act_many(self, states: Sequence, rngs: Sequence[np.random.Generator]) -> list[int]:
        """One lockstep search of every position (one estimator call per simulation
        wave), each drawing from its own generator: ``act_many([s], [r]) == act(s, r)``."""
        rngs = list(rngs)
        results = self.mcts.search_many(states, self.estimator, rngs)
        return [select_action(result, 0.0, rng) for result, rng in zip(results, rngs, strict=True)]


class RolloutPlayer(SearchPlayer):
    """Plain MCTS: uniform priors, one random rollout per simulation, drawn
    from the generator handed to ``act``."""

    def __init__(self, game: Game, config: SearchConfig):
        super().__init__(game, RolloutEstimator(game, np.random.default_rng(0)), config)

    def act(self, state, rng: np.random.Generator) -> int:
        self.estimator.rng = rng
        return super().act(state, rng)

    # The rollout estimator draws from one generator, set per call: one position at a time.
    act_many = Player.act_many


def make_mcts_player(game: Game, args: list[str]) -> Player:
    """``mcts:N``: N simulations, each with one random rollout."""
    if len(args) != 1 or not args[0].strip().isdigit() or int(args[0]) < 1:
        raise ValueError(f"player spec 'mcts:N' needs N, a positive integer of rollouts; got {':'.join(args)!r}")
    return RolloutPlayer(game, SearchConfig(num_simulations=int(args[0])))
