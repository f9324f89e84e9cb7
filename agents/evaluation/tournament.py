"""Round-robin tournaments between player specs: the schedule, the games, the tallies.

Every pair of players meets ``games_per_pair`` times with the seats swapped
each game; the games are played by :func:`agents.evaluation.runner.play_games`
(seeded, parallel), and a :class:`Tournament` tallies each pair's wins, draws
and losses and fits the players' ratings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

import numpy as np

from agents.evaluation.intervals import score_interval
from agents.evaluation.ratings import Ratings, fit_ratings
from agents.evaluation.runner import GameResult, play_games


@dataclass(frozen=True)
class PairResult:
    """Games between ``players[i]`` and ``players[j]``, counted from ``i``'s side."""

    i: int
    j: int
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + 0.5 * self.draws

    @property
    def score(self) -> float:
        return self.points / self.games

    @property
    def interval(self) -> tuple[float, float]:
        return score_interval(self.points, self.games)


@dataclass(frozen=True)
class Tournament:
    """A round robin's players, its schedule and every game's result."""

    players: tuple[str, ...]
    schedule: tuple[tuple[int, ...], ...]  # player index per seat, one entry per game
    results: tuple[GameResult, ...]

    def pairs(self) -> list[PairResult]:
        tally: dict[tuple[int, int], list[int]] = {}
        for seats, result in zip(self.schedule, self.results):
            i, j = sorted(seats)
            tally.setdefault((i, j), [0, 0, 0])[_outcome(result, seats.index(i))] += 1
        return [PairResult(*key, *tally[key]) for key in sorted(tally)]

    def totals(self) -> list[PairResult]:
        """Each player's results over all its games (``j`` = -1: everyone)."""
        sums = np.zeros((len(self.players), 3), dtype=int)
        for pair in self.pairs():
            sums[pair.i] += (pair.wins, pair.draws, pair.losses)
            sums[pair.j] += (pair.losses, pair.draws, pair.wins)
        return [PairResult(i, -1, *map(int, row)) for i, row in enumerate(sums)]

    def seats(self) -> list[tuple[int, PairResult]]:
        """Each player's results in each seat (``j`` = -1: everyone), seat by seat: a game that
        favours a seat shows here, whoever sits in it."""
        seat_count = max(len(seats) for seats in self.schedule)
        sums = np.zeros((seat_count, len(self.players), 3), dtype=int)
        for seats, result in zip(self.schedule, self.results):
            for seat, player in enumerate(seats):
                sums[seat, player, _outcome(result, seat)] += 1
        return [
            (seat, PairResult(i, -1, *map(int, sums[seat, i])))
            for seat in range(seat_count)
            for i in range(len(self.players))
            if sums[seat, i].sum()
        ]

    def ratings(self, prior_draws: float = 1.0) -> Ratings:
        k = len(self.players)
        games, points = np.zeros((k, k)), np.zeros((k, k))
        for pair in self.pairs():
            games[pair.i, pair.j] = games[pair.j, pair.i] = pair.games
            points[pair.i, pair.j], points[pair.j, pair.i] = pair.points, pair.games - pair.points
        return fit_ratings(self.players, games, points, prior_draws=prior_draws)


def _outcome(result: GameResult, seat: int) -> int:
    """The game from ``seat``'s side as an index into (wins, draws, losses)."""
    return 1 if result.winner is None else 0 if result.winner == seat else 2


def round_robin_schedule(num_players: int, games_per_pair: int) -> list[tuple[int, int]]:
    """Every pair ``i < j`` plays ``games_per_pair`` games, alternating who takes seat 0."""
    if num_players < 2:
        raise ValueError(f"a round robin needs at least 2 players, got {num_players}")
    if games_per_pair < 1:
        raise ValueError(f"games per pair must be >= 1, got {games_per_pair}")
    return [
        (i, j) if g % 2 == 0 else (j, i)
        for i in range(num_players)
        for j in range(i + 1, num_players)
        for g in range(games_per_pair)
    ]


def round_robin(
    game_cfg: dict,
    specs: Sequence[str],
    games_per_pair: int,
    seed: int,
    workers: int = 1,
    progress: bool = False,
    batch_games: int = 1,
    opening: int = 0,
    duplicate: bool = False,
    done: Mapping[int, GameResult] | None = None,
    on_played: Callable[[int, GameResult], None] | None = None,
) -> Tournament:
    """Play a seat-swapped round robin between the player specs (``batch_games``, ``opening``,
    ``duplicate``: see :func:`agents.evaluation.runner.play_batches`; duplicate matches need
    an even ``games_per_pair``, each pair of games one chance setup; ``done``, ``on_played``: games
    already played, in schedule order from 0, and a callback for each new one, as ``play_batches``)."""
    specs = tuple(specs)
    if len(set(specs)) != len(specs):
        raise ValueError(f"players must be distinct specs, got {list(specs)}")
    if duplicate and games_per_pair % 2:
        raise ValueError(f"duplicate matches play each setup twice: games per pair must be even, got {games_per_pair}")
    schedule = round_robin_schedule(len(specs), games_per_pair)
    lineups = [tuple(specs[p] for p in seats) for seats in schedule]
    results = play_games(game_cfg, lineups, seed, workers, progress, batch_games, opening, duplicate, done, on_played)
    return Tournament(players=specs, schedule=tuple(schedule), results=tuple(results))
