"""Play games between players: one game (:func:`play_game`) or a match (:func:`play_match`).

Every evaluation (training's periodic checks, ``evaluate.py``) goes through
these two functions, so chance nodes, resets and results are handled once::

    result = play_game(game, [make_player("random", game), make_player("oracle", game)], rng)
    result.returns, result.winner, result.num_turns, result.info   # info: e.g. Odoku's score
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from agents.players import Player
from envs.core import CHANCE, Game
from envs.records import split_turns


@dataclass(frozen=True)
class GameResult:
    """The outcome of one game.

    ``returns`` per seat, ``winner`` (seat or None for a draw), ``actions`` (every
    action including chance outcomes, in order: replayable from the start),
    ``num_decisions`` (actions chosen by players), ``num_turns`` (record turns,
    ``envs.records.split_turns``), ``info`` (``game.outcome_info``, e.g. Odoku's
    ``score``).
    """

    returns: tuple[float, ...]
    winner: int | None
    actions: tuple[int, ...]
    num_decisions: int
    num_turns: int
    info: dict[str, Any] = field(default_factory=dict)


def play_game(game: Game, players: Sequence[Player], rng: np.random.Generator, state=None) -> GameResult:
    """Play one game: ``players[seat]`` acts for ``seat``; chance outcomes drawn from ``rng``.

    Every player is ``reset()`` first. An illegal action from a player raises the
    engine's ``IllegalActionError`` (naming the action); it is never skipped.
    """
    if len(players) != game.info.num_seats:
        raise ValueError(f"{game.info.name} needs {game.info.num_seats} players, got {len(players)}")
    for player in players:
        player.reset()
    start = game.initial_state() if state is None else state.copy()
    state = start.copy()
    actions: list[int] = []
    decisions = 0
    while not game.is_terminal(state):
        seat = game.to_play(state)
        if seat == CHANCE:
            action = game.sample_chance(state, rng)
        else:
            action = int(players[seat].act(state, rng))
            decisions += 1
        game.apply(state, action)
        actions.append(action)
    return GameResult(
        returns=tuple(float(r) for r in game.returns(state)),
        winner=game.winner(state),
        actions=tuple(actions),
        num_decisions=decisions,
        num_turns=len(split_turns(game, actions, start)),
        info=dict(game.outcome_info(state)),
    )


@dataclass(frozen=True)
class MatchResult:
    """Many games of ``players[0]`` (the candidate) against ``players[1]``.

    ``seats[i]`` is the seat the candidate held in game i, ``games[i]`` its
    result. ``score`` is the candidate's mean of win 1, draw 0.5, loss 0;
    ``mean_return`` its mean return (Odoku: the normalised score from its seat).
    """

    seats: tuple[int, ...]
    games: tuple[GameResult, ...]

    @property
    def score(self) -> float:
        points = [
            0.5 if g.winner is None else float(g.winner == seat) for seat, g in zip(self.seats, self.games)
        ]
        return float(np.mean(points)) if points else float("nan")

    @property
    def mean_return(self) -> float:
        values = [g.returns[seat] for seat, g in zip(self.seats, self.games)]
        return float(np.mean(values)) if values else float("nan")

    def info_mean(self, key: str) -> float:
        """Mean of an outcome fact over the games, e.g. ``info_mean("score")`` for Odoku."""
        return float(np.mean([g.info[key] for g in self.games]))


def play_match(
    game: Game,
    candidate: Player,
    opponent: Player,
    num_games: int,
    rng: np.random.Generator,
    seats: Sequence[int] | None = None,
) -> MatchResult:
    """Play ``num_games`` games; the candidate alternates seats (0, 1, 0, ...) unless
    ``seats`` fixes them (e.g. ``[0]`` to always play seat 0)."""
    if num_games < 0:
        raise ValueError(f"num_games must be >= 0, got {num_games}")
    seat_cycle = tuple(seats) if seats is not None else tuple(range(game.info.num_seats))
    if not seat_cycle or any(s not in range(game.info.num_seats) for s in seat_cycle):
        raise ValueError(f"seats must be seats of {game.info.name}, got {seats!r}")
    played_seats, results = [], []
    for i in range(num_games):
        seat = seat_cycle[i % len(seat_cycle)]
        lineup = [opponent] * game.info.num_seats
        lineup[seat] = candidate
        results.append(play_game(game, lineup, rng))
        played_seats.append(seat)
    return MatchResult(seats=tuple(played_seats), games=tuple(results))
