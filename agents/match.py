"""Seeded, parallel batches of games and round-robin tournaments between player specs.

Game ``k`` of a batch draws every random choice (chance outcomes and the
players' own) from its own generator, spawned as child ``k`` of
``np.random.SeedSequence(seed)``, and every player is reset before each game,
so a batch's results do not depend on the number of worker processes. Each
worker builds the game and one player per (seat, spec) once, from the game
config (``{"name": ..., **params}``) and the spec strings; worker processes run
torch single-threaded (``OMP_NUM_THREADS=1`` unless already set).

Scores count a win 1, a draw 0.5, a loss 0. Their 95% interval is the Wilson
score interval of the mean score over ``n`` games (exact for win/loss results,
conservative when there are draws, and sensible at 0% and 100%).
"""

from __future__ import annotations

import multiprocessing
import os
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import numpy as np
import yaml
from tqdm import tqdm

from agents.arena import GameResult, play_game
from agents.config import game_from_config
from agents.players import Player, make_player
from agents.ratings import Z95, Ratings, fit_ratings
from envs.core import Game, make_game
from envs.records import format_game, read_record, replay, write_record

_WORKER: dict[str, Any] = {}


def play_games(
    game_cfg: dict,
    lineups: Sequence[Sequence[str]],
    seed: int,
    workers: int = 1,
    progress: bool = False,
) -> list[GameResult]:
    """Play one game per lineup (the spec of each seat); results in lineup order."""
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    seeds = np.random.SeedSequence(seed).spawn(len(lineups))
    jobs = [(tuple(lineup), child) for lineup, child in zip(lineups, seeds)]
    bar = dict(total=len(jobs), disable=not progress, desc="games", unit="game")
    if workers == 1 or len(jobs) <= 1:
        _init_worker(dict(game_cfg))
        return [_play(job) for job in tqdm(jobs, **bar)]
    context = multiprocessing.get_context("spawn")  # safe with torch and threads, unlike fork
    chunk = max(1, len(jobs) // (8 * workers))
    with context.Pool(workers, initializer=_init_worker, initargs=(dict(game_cfg), True)) as pool:
        return list(tqdm(pool.imap(_play, jobs, chunksize=chunk), **bar))


def _init_worker(game_cfg: dict, single_threaded: bool = False) -> None:
    if single_threaded:  # W workers each with all cores' threads would oversubscribe the CPU
        os.environ.setdefault("OMP_NUM_THREADS", "1")  # read by torch when a player imports it
    _WORKER.clear()
    _WORKER["game"] = game_from_config(game_cfg)
    _WORKER["players"] = {}


def _play(job) -> GameResult:
    lineup, seed_seq = job
    game: Game = _WORKER["game"]
    players: dict[tuple[int, str], Player] = _WORKER["players"]
    seated = []
    for seat, spec in enumerate(lineup):
        if (seat, spec) not in players:
            players[seat, spec] = make_player(spec, game)
        seated.append(players[seat, spec])
    return play_game(game, seated, np.random.default_rng(seed_seq))


# --- round robin -------------------------------------------------------------------------
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
            counts = tally.setdefault((i, j), [0, 0, 0])
            if result.winner is None:
                counts[1] += 1
            else:
                counts[0 if seats[result.winner] == i else 2] += 1
        return [PairResult(*key, *tally[key]) for key in sorted(tally)]

    def totals(self) -> list[PairResult]:
        """Each player's results over all its games (``j`` = -1: everyone)."""
        sums = np.zeros((len(self.players), 3), dtype=int)
        for pair in self.pairs():
            sums[pair.i] += (pair.wins, pair.draws, pair.losses)
            sums[pair.j] += (pair.losses, pair.draws, pair.wins)
        return [PairResult(i, -1, *map(int, row)) for i, row in enumerate(sums)]

    def ratings(self, prior_draws: float = 1.0) -> Ratings:
        k = len(self.players)
        games, points = np.zeros((k, k)), np.zeros((k, k))
        for pair in self.pairs():
            games[pair.i, pair.j] = games[pair.j, pair.i] = pair.games
            points[pair.i, pair.j], points[pair.j, pair.i] = pair.points, pair.games - pair.points
        return fit_ratings(self.players, games, points, prior_draws=prior_draws)


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
) -> Tournament:
    """Play a seat-swapped round robin between the player specs."""
    specs = tuple(specs)
    if len(set(specs)) != len(specs):
        raise ValueError(f"players must be distinct specs, got {list(specs)}")
    schedule = round_robin_schedule(len(specs), games_per_pair)
    lineups = [tuple(specs[p] for p in seats) for seats in schedule]
    results = play_games(game_cfg, lineups, seed, workers, progress)
    return Tournament(players=specs, schedule=tuple(schedule), results=tuple(results))


def score_interval(points: float, games: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of the mean score ``points / games``."""
    if games <= 0:
        return (0.0, 1.0)
    p = points / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * np.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    low = 0.0 if points <= 0 else max(0.0, centre - half)
    high = 1.0 if points >= games else min(1.0, centre + half)
    return (float(low), float(high))


def mean_interval(values: Iterable[float], z: float = Z95) -> tuple[float, float]:
    """Mean and half-width of its normal-approximation interval (z * standard error)."""
    values = np.asarray(list(values), dtype=float)
    if len(values) == 0:
        raise ValueError("no values to average")
    half = z * values.std(ddof=1) / np.sqrt(len(values)) if len(values) > 1 else float("inf")
    return float(values.mean()), float(half)


# --- records -----------------------------------------------------------------------------
def game_record(game: Game, actions: Sequence[int], lineup: Sequence[str]) -> str:
    """A replayable record: header ``game`` and its parameters, comments naming the
    players and the result, then one turn a line in the game's notation."""
    state = game.initial_state()
    for action in actions:
        game.apply(state, action)
    comments = [f"seat {seat}: {spec}" for seat, spec in enumerate(lineup)]
    if game.is_terminal(state):
        winner = game.winner(state)
        outcome = "draw" if winner is None else f"seat {winner} wins"
        facts = "".join(f", {key} {value}" for key, value in game.outcome_info(state).items())
        comments.append(f"result: {outcome}, returns {' '.join(f'{r:g}' for r in game.returns(state))}{facts}")
    else:
        comments.append("unfinished: the game was abandoned here")
    header = {"game": game.info.name, **game.info.params}
    return write_record(header, format_game(game, actions), comments)


def replay_record(text: str) -> tuple[Game, Any]:
    """The game named in a :func:`game_record` header and its final position."""
    record = read_record(text)
    params = {key: yaml.safe_load(value) for key, value in record.params.items()}
    if "game" not in params:
        raise ValueError("the record has no 'game:' header line")
    game = make_game(params.pop("game"), **params)
    state = game.initial_state()
    for state in replay(game, record.turns, state):
        pass
    return game, state
