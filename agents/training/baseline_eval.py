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
from agents.net.net_estimator import NetEstimator
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
    opponents: tuple[str, ...] = ()  # more player specs, ``games`` each, seats alternating


@dataclass(frozen=True)
class Match:
    tag: str  # as logged
    size: int  # the board size it plays on
    opponent: str  # a player spec
    seats: tuple[int, ...]  # the candidate's seat in each game
    fact: str | None  # the outcome fact averaged (the reference player's matches); None: the score


class BaselineEval:
    """Plays the evaluation games of a run, at each of its board sizes, on ``workers``
    processes (0: this process). With several sizes the tags are ``eval/<size>/...``."""

    def __init__(
        self,
        workers: int,
        games: dict[int, Game],
        net: NetConfig,
        search: SearchConfig | None,
        config: BaselineConfig,
        seed: int,
        device: str | torch.device = "cpu",
    ):
        """``games``: board size -> game; ``search``: the candidate's search (None: the raw network plays)."""
        self.games, self.config, self.seed = games, config, seed
        self._pool = WorkerPool(workers, _Candidate, games, net, search, str(device) if workers == 0 else "cpu")

    def matches(self) -> list[Match]:
        """Every match of an evaluation, in order."""
        c, found = self.config, []
        for size, game in self.games.items():
            prefix = f"eval/{size}/" if len(self.games) > 1 else "eval/"
            alternating = tuple(g % game.info.num_seats for g in range(c.games))
            if c.games:
                found.append(Match(f"{prefix}win_rate_vs_random", size, "random", alternating, None))
                if c.mcts_simulations:
                    found.append(
                        Match(f"{prefix}win_rate_vs_mcts", size, f"mcts:{c.mcts_simulations}", alternating, None)
                    )
                for spec in c.opponents:  # a tag without colons: TensorBoard's characters
                    found.append(Match(f"{prefix}win_rate_vs_{spec.replace(':', '_')}", size, spec, alternating, None))
            reference, fact = game.reference_player, game.score_fact
            if c.reference_games and reference:
                for seat, seat_name in enumerate(game.info.seat_names):
                    found.append(
                        Match(
                            f"{prefix}{fact}_vs_{reference}_as_{seat_name}",
                            size,
                            reference,
                            (seat,) * c.reference_games,
                            fact,
                        )
                    )
        return found

    def evaluate(self, net: PolicyValueNet, iteration: int) -> dict[str, float]:
        """The tags of :meth:`matches` with the candidate's score (win 1, draw 0.5) in each,
        or the mean of the game's score fact against the reference player."""
        weights = cpu_weights(net)
        matches = self.matches()
        futures = [  # every game of every match handed out before any result is awaited
            [
                self._pool.submit(
                    _play, (weights, iteration, match.size, match.opponent, seat, (self.seed, iteration, m, g))
                )
                for g, seat in enumerate(match.seats)
            ]
            for m, match in enumerate(matches)
        ]
        results = {}
        for match, games in zip(matches, futures):
            played = MatchResult(seats=match.seats, games=tuple(future.result() for future in games))
            results[match.tag] = played.score if match.fact is None else played.info_mean(match.fact)
        return results

    def close(self) -> None:
        self._pool.close()


class _Candidate:
    """A worker's state: one network copy (it plays every size), the candidate player
    of each size and the opponents it has built."""

    def __init__(self, games: dict[int, Game], net: NetConfig, search: SearchConfig | None, device: str):
        self.games = games
        largest = games[max(games)]
        self.net = PolicyValueNet.for_game(largest.info, net).to(torch.device(device)).eval()
        self.players = {}
        for size, game in games.items():
            estimator = NetEstimator(game, self.net, device)
            self.players[size] = SearchPlayer(game, estimator, search) if search else NetworkPlayer(estimator)
        self.opponents: dict[tuple[int, str], object] = {}
        self.iteration: int | None = None  # whose weights are loaded

    def load(self, weights: dict, iteration: int) -> None:
        if iteration != self.iteration:
            self.net.load_state_dict(weights)
            self.iteration = iteration

    def opponent(self, size: int, spec: str):
        if (size, spec) not in self.opponents:
            self.opponents[size, spec] = make_player(spec, self.games[size])
        return self.opponents[size, spec]


def _play(candidate: _Candidate, job: tuple) -> GameResult:
    weights, iteration, size, spec, seat, seed = job
    candidate.load(weights, iteration)
    game = candidate.games[size]
    lineup = [candidate.opponent(size, spec)] * game.info.num_seats
    lineup[seat] = candidate.players[size]
    return play_game(game, lineup, np.random.default_rng(seed))
