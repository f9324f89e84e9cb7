"""Round-robin tournaments between player specs: the schedule, the games, the tallies.

Every pair of players meets ``games_per_pair`` times with the seats swapped
each game; the games are played by :func:`agents.evaluation.runner.play_games`
(seeded, parallel), and a :class:`Tournament` tallies each pair's wins, draws
and losses and fits the players' ratings. :func:`sequential_match` plays two players'
seat-swapped pairs until a sequential test (:mod:`agents.evaluation.sprt`) decides.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

import numpy as np

from agents.evaluation.intervals import score_interval
from agents.evaluation.ratings import Ratings, fit_ratings
from agents.evaluation.runner import GameResult, play_games
from agents.evaluation.sprt import SPRT, Verdict


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


class _Decided(Exception):
    """Raised from a game's callback once the test has decided: the games after it are not played."""


def sequential_match(
    game_cfg: dict,
    specs: Sequence[str],
    test: SPRT,
    seed: int,
    workers: int = 1,
    progress: bool = False,
    batch_games: int = 1,
    opening: int = 0,
    done: Mapping[int, GameResult] | None = None,
    on_played: Callable[[int, GameResult], None] | None = None,
) -> tuple[Tournament, Verdict]:
    """Play ``specs[0]`` (the candidate) against ``specs[1]`` in duplicate pairs (the same opening
    and chance, the candidate in seat 0 then seat 1: the games of ``round_robin(..., test.cap,
    duplicate=True)``, in its order) until ``test`` decides; returns the games it counted (those
    up to its decision) and its verdict. The decision is the first pair, in order, whose LLR
    reaches a bound, so it does not depend on ``workers``; ``done`` and ``on_played`` as in
    :func:`round_robin` (a resumed match whose saved games already decide plays none)."""
    specs = tuple(specs)
    if len(specs) != 2 or specs[0] == specs[1]:
        raise ValueError(f"a sequential match is between two distinct specs, got {list(specs)}")
    schedule = round_robin_schedule(2, test.cap)
    lineups = [tuple(specs[p] for p in seats) for seats in schedule]
    results = dict(done or {})
    counts = np.zeros(5, dtype=int)
    lower, upper = test.bounds
    pairs_counted = 0

    def count_pairs() -> bool:
        """Count the pairs now complete, in order; whether the last one reaches a bound."""
        nonlocal pairs_counted
        while 2 * pairs_counted + 1 in results and 2 * pairs_counted in results:
            first, second = results[2 * pairs_counted], results[2 * pairs_counted + 1]
            counts[round(2 * (_points(first, 0) + _points(second, 1)))] += 1
            pairs_counted += 1
            if not lower < float(test.llr(counts)) < upper:
                return True
        return False

    def played(number: int, result: GameResult) -> None:
        results[number] = result
        if on_played is not None:
            on_played(number, result)
        if count_pairs():
            raise _Decided

    if not count_pairs():
        try:
            play_games(game_cfg, lineups, seed, workers, progress, batch_games, opening, True, results, played)
        except _Decided:
            pass
    verdict = test.decide([_points(results[2 * j], 0) + _points(results[2 * j + 1], 1) for j in range(pairs_counted)])
    counted = tuple(results[number] for number in range(verdict.games))
    return Tournament(players=specs, schedule=tuple(schedule[: verdict.games]), results=counted), verdict


def _points(result: GameResult, seat: int) -> float:
    """``seat``'s points in a game: win 1, draw 0.5, loss 0."""
    return (1.0, 0.5, 0.0)[_outcome(result, seat)]
