"""Decisiveness: how many turns before the end is a game decided?

Each finished game with a winner is replayed, and at the start of every turn
(every decision state where a new turn begins, chance resolved) a plain MCTS
search of ``simulations`` random-rollout simulations estimates the position's
value for the eventual winner (``SearchResult.root_values``, -1 a sure loss,
+1 a sure win). The game is **decided** that many turns before its end from
which the winner's estimate stays at or above ``threshold`` up to the end::

    traces = value_traces(game_cfg, [r.actions for r in won], simulations=64, seed=0)
    decided_turns(trace, threshold=0.5)   # turns before the end the winner stayed above 0.5

A decisive game has a small figure against its length (it stays open until
late); a game settled by its opening has a figure near its length. The
estimate is only as good as the search: a deeper search sees wins earlier.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from agents.config import game_from_config
from agents.pool import WorkerPool
from agents.search.estimators import RolloutEstimator
from agents.search.mcts import MCTS, SearchConfig
from envs.core import CHANCE, Game
from envs.records import split_turns

THRESHOLD = 0.5  # the winner's value (-1..1) that counts as decided: a 75% winning chance


def value_traces(
    game_cfg: dict,
    games: Sequence[Sequence[int]],
    simulations: int,
    seed: int,
    workers: int = 1,
    progress: bool = False,
) -> list[list[float]]:
    """The winner's value estimate at every turn start of each game (a game that ends in a
    draw has an empty trace); game ``k`` searches with child ``k`` of ``SeedSequence(seed)``."""
    jobs = list(zip((tuple(actions) for actions in games), np.random.SeedSequence(seed).spawn(len(games))))
    processes = workers if workers > 1 and len(jobs) > 1 else 0
    with WorkerPool(processes, _setup, dict(game_cfg), simulations) as pool:
        return pool.map(_trace, jobs, progress="valued game" if progress else "")


def _setup(game_cfg: dict, simulations: int) -> dict:
    game = game_from_config(game_cfg)
    return {"game": game, "mcts": MCTS(game, SearchConfig(num_simulations=simulations))}


def _trace(setup: dict, job) -> list[float]:
    actions, seed_seq = job
    game: Game = setup["game"]
    rng = np.random.default_rng(seed_seq)
    estimator = RolloutEstimator(game, rng)
    final = game.initial_state()
    for action in actions:
        game.apply(final, action)
    winner = game.winner(final)
    if winner is None:
        return []
    state, trace = game.initial_state(), []
    for turn in split_turns(game, actions):
        turn = list(turn)
        while turn and game.to_play(state) == CHANCE:
            game.apply(state, turn.pop(0))
        if turn:
            trace.append(float(setup["mcts"].search(state, estimator, rng).root_values[winner]))
        for action in turn:
            game.apply(state, action)
    return trace


def decided_turns(trace: Sequence[float], threshold: float = THRESHOLD) -> int:
    """How many turns before the end the winner's estimate stayed at or above ``threshold``."""
    count = 0
    for value in reversed(trace):
        if value < threshold:
            break
        count += 1
    return count
