"""Players that act by tree search: any estimator, plain MCTS (``mcts:N``) and MCTS whose
rollouts a heuristic cuts short (``hmcts:N[:TURNS]``)."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from agents.players.player import Player
from agents.search.estimators import CutRolloutEstimator, RolloutEstimator
from agents.search.mcts import MCTS, Estimator, SearchConfig, SearchResult, select_action
from envs.core import Game, game_names, has_heuristic, make_game

CUT_TURNS = 4  # hmcts's turns of a rollout before the heuristic scores it, when the spec gives none


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
    """MCTS with uniform priors and one random rollout per simulation, drawn from the generator
    handed to ``act``: to the end of the game (plain MCTS), or cut short and scored by the game's
    heuristic where ``estimator`` is a :class:`CutRolloutEstimator`."""

    def __init__(self, game: Game, config: SearchConfig, estimator: RolloutEstimator | CutRolloutEstimator = None):
        super().__init__(game, estimator or RolloutEstimator(game, np.random.default_rng(0)), config)

    def act(self, state, rng: np.random.Generator) -> int:
        self.estimator.rng = rng
        return super().act(state, rng)

    # The rollout estimator draws from one generator, set per call: one position at a time.
    act_many = Player.act_many


def make_mcts_player(game: Game, args: list[str]) -> Player:
    """``mcts:N``: N simulations, each with one random rollout."""
    if len(args) != 1 or not _is_count(args[0], 1):
        raise ValueError(f"player spec 'mcts:N' needs N, a positive integer of rollouts; got {':'.join(args)!r}")
    return RolloutPlayer(game, SearchConfig(num_simulations=int(args[0])))


def make_hmcts_player(game: Game, args: list[str]) -> Player:
    """``hmcts:N[:TURNS]``: N simulations, each with one random rollout of ``TURNS`` turns (default
    ``CUT_TURNS``) scored by the game's heuristic (``Game.heuristic_returns``)."""
    form = "player spec 'hmcts:N[:TURNS]'"
    if not 1 <= len(args) <= 2 or not _is_count(args[0], 1):
        raise ValueError(f"{form} needs N, a positive integer of simulations; got {':'.join(args)!r}")
    if len(args) == 2 and not _is_count(args[1], 0):
        raise ValueError(f"{form}: TURNS, the turns a rollout plays, must be a non-negative integer; got {args[1]!r}")
    if not has_heuristic(game):
        known = ", ".join(name for name in game_names() if has_heuristic(make_game(name)))
        raise ValueError(
            f"{form}: {game.info.name} has no heuristic value to cut rollouts with; games with one: {known}"
        )
    turns = int(args[1]) if len(args) == 2 else CUT_TURNS
    estimator = CutRolloutEstimator(game, np.random.default_rng(0), turns)
    return RolloutPlayer(game, SearchConfig(num_simulations=int(args[0])), estimator)


def _is_count(text: str, least: int) -> bool:
    """Whether ``text`` is a whole number of at least ``least``."""
    return text.strip().isdigit() and int(text) >= least
