"""The network against the baselines during training, its games spread over worker processes.

Every ``eval.every`` iterations the loop measures the current weights (searching
with ``eval.simulations``, or the raw network at 0) against ``random``,
``mcts:N`` and, where the game names one, its reference player from each seat
(Odoku's exact oracle). Each of those games is one job on a
:class:`agents.pool.WorkerPool` of ``workers`` processes, each holding its own
network copy (loaded once per evaluation) and its opponents, so an evaluation
keeps every core busy instead of stalling the run on one; with ``workers=0``
the games play in the calling process.

Game ``g`` of match ``m`` at iteration ``i`` draws from a generator seeded with
``(seed, i, m, g)``: the figures depend on the seed and the iteration only, not
on the number of workers or their timing, and evaluating never touches the
training's own generators.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from agents.evaluation.runner import GameResult, MatchResult, play_game
from agents.net.net_evaluator import NetEvaluator
from agents.net.network import NetConfig, PolicyValueNet
from agents.players.az_player import NetworkPlayer
from agents.players.mcts_player import SearchPlayer
from agents.players.registry import make_player
from agents.pool import WorkerPool
from agents.search.mcts import SearchConfig
from agents.training.workers import cpu_weights
from envs.core import Game


@dataclass(frozen=True)
class BaselineConfig:
    games: int  # per baseline (random, mcts:N), seats alternating
    mcts_simulations: int  # the plain-MCTS baseline's rollouts per move (0: none)
    reference_games: int  # per seat against the game's reference player (where it has one)


@dataclass(frozen=True)
class Match:
    tag: str  # as logged
    opponent: str  # a player spec
    seats: tuple[int, ...]  # the candidate's seat in each game
    fact: str | None  # the outcome fact averaged (the reference player's matches); None: the score


class BaselineEval:
    """Plays the evaluation games of a run on ``workers`` processes (0: this process)."""

    def __init__(self, workers: int, game: Game, net: NetConfig, search: SearchConfig | None, config: BaselineConfig,
                 seed: int, device: str | torch.device = "cpu"):
        """``search``: the candidate's search (None: the raw network plays)."""
        self.game, self.config, self.seed = game, config, seed
        self._pool = WorkerPool(workers, _Candidate, game, net, search, str(device) if workers == 0 else "cpu")

    def matches(self) -> list[Match]:
        """Every match of an evaluation, in order."""
        c, info = self.config, self.game.info
        alternating = tuple(g % info.num_seats for g in range(c.games))
        found = []
        if c.games:
            found.append(Match("eval/win_rate_vs_random", "random", alternating, None))
            if c.mcts_simulations:
                found.append(Match("eval/win_rate_vs_mcts", f"mcts:{c.mcts_simulations}", alternating, None))
        reference, fact = self.game.reference_player, self.game.score_fact
        if c.reference_games and reference:
            for seat, seat_name in enumerate(info.seat_names):
                found.append(Match(f"eval/{fact}_vs_{reference}_as_{seat_name}", reference,
                                   (seat,) * c.reference_games, fact))
        return found

    def evaluate(self, net: PolicyValueNet, iteration: int) -> dict[str, float]:
        """The tags of :meth:`matches` with the candidate's score (win 1, draw 0.5) in each,
        or the mean of the game's score fact against the reference player."""
        weights = cpu_weights(net)
        matches = self.matches()
        futures = [  # every game of every match handed out before any result is awaited
            [self._pool.submit(_play, (weights, iteration, match.opponent, seat, (self.seed, iteration, m, g)))
             for g, seat in enumerate(match.seats)]
            for m, match in enumerate(matches)
        ]
        results = {}
        for match, games in zip(matches, futures):
            played = MatchResult(seats=match.seats, games=tuple(future.result() for future in games))
            results[match.tag] = played.score if match.fact is None else played.info_mean(match.fact)
        return results

    def close(self) -> None:
        self._pool.close()


class SizedBaselines:
    """One :class:`BaselineEval` per board size of a run: the tags ``eval/<size>/...``
    when there are several sizes, the plain ``eval/...`` tags for one."""

    def __init__(self, evals: dict):
        self.evals = evals  # board size -> its BaselineEval

    def evaluate(self, net: PolicyValueNet, iteration: int) -> dict[str, float]:
        if len(self.evals) == 1:
            return next(iter(self.evals.values())).evaluate(net, iteration)
        results = {}
        for size, baselines in self.evals.items():
            for tag, value in baselines.evaluate(net, iteration).items():
                results[tag.replace("eval/", f"eval/{size}/", 1)] = value
        return results

    def close(self) -> None:
        for baselines in self.evals.values():
            baselines.close()


class _Candidate:
    """A worker's state: its network copy, the candidate player and the opponents it has built."""

    def __init__(self, game: Game, net: NetConfig, search: SearchConfig | None, device: str):
        self.game = game
        self.net = PolicyValueNet.for_game(game.info, net).to(torch.device(device)).eval()
        evaluator = NetEvaluator(game, self.net, device)
        self.player = SearchPlayer(game, evaluator, search) if search else NetworkPlayer(evaluator)
        self.opponents: dict[str, object] = {}
        self.iteration: int | None = None  # whose weights are loaded

    def load(self, weights: dict, iteration: int) -> None:
        if iteration != self.iteration:
            self.net.load_state_dict(weights)
            self.iteration = iteration

    def opponent(self, spec: str):
        if spec not in self.opponents:
            self.opponents[spec] = make_player(spec, self.game)
        return self.opponents[spec]


def _play(candidate: _Candidate, job: tuple) -> GameResult:
    weights, iteration, spec, seat, seed = job
    candidate.load(weights, iteration)
    lineup = [candidate.opponent(spec)] * candidate.game.info.num_seats
    lineup[seat] = candidate.player
    return play_game(candidate.game, lineup, np.random.default_rng(seed))
