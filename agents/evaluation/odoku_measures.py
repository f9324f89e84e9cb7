"""Exact yardsticks for Odoku agents: score against the oracle, and regret.

* **Score against the oracle**: the player's games as B against the oracle as A,
  and as A against the oracle as B; the mean final score (0..15) from each seat
  with a 95% interval. References (docs/games/odoku.md): oracle vs oracle 9.375,
  random B vs oracle A 3.40, oracle B vs random A 14.33.
* **Regret** of one move: the expected final score it gave away, i.e. the value
  of the best move minus the value of the move played, from the mover's side
  (B maximises the value, A minimises it); values are exact by the random-turn
  theorem (``envs.games.odoku.game.action_values``). Reported per move (mean over all its
  moves) and per game (the sum over its moves in a game, averaged over games),
  the regret per move with the half-width of its 95% interval (a ratio of sums
  over independent games: the delta method). The oracle's regret is exactly 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from agents.config import game_from_config
from agents.evaluation.intervals import mean_interval
from agents.evaluation.runner import GameResult, play_games
from envs.games.odoku.game import Odoku, action_values

ORACLE = "oracle"


def move_regret(state, action: int) -> float:
    """Expected score given away by ``action`` in a decision state, from the mover's side."""
    values = action_values(state)
    if action not in values:
        raise ValueError(f"action {action} is not a legal placement in this position")
    if state.player == 0:
        return max(values.values()) - values[action]
    return values[action] - min(values.values())


def game_regrets(game: Odoku, actions: Sequence[int], seat: int) -> list[float]:
    """The regret of every move ``seat`` made in a game given as its action sequence."""
    state = game.initial_state()
    regrets = []
    for action in actions:
        if game.to_play(state) == seat:
            regrets.append(move_regret(state, action))
        game.apply(state, action)
    return regrets


@dataclass(frozen=True)
class SeatMeasure:
    """A player's games from one seat against the oracle."""

    seat: int
    games: int
    mean_score: float
    score_ci: float  # half-width of the 95% interval
    moves: int
    regret_per_move: float
    regret_per_game: float
    regret_total: float
    regret_per_move_ci: float  # half-width of the 95% interval of regret_per_move

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def measure_seat(game: Odoku, results: Sequence[GameResult], seat: int) -> SeatMeasure:
    """Score and regret of the player in ``seat`` over the given games."""
    if not isinstance(game, Odoku):
        raise ValueError(f"Odoku measures need the Odoku game, not {game.info.name!r}")
    per_game = [game_regrets(game, r.actions, seat) for r in results]
    moves = sum(len(g) for g in per_game)
    total = sum(sum(g) for g in per_game)
    mean, ci = mean_interval(r.info["score"] for r in results)
    per_move = total / moves if moves else 0.0
    return SeatMeasure(
        seat=seat,
        games=len(results),
        mean_score=mean,
        score_ci=ci,
        moves=moves,
        regret_per_move=per_move,
        regret_per_game=total / len(results),
        regret_total=total,
        regret_per_move_ci=_ratio_half_width([sum(g) for g in per_game], [len(g) for g in per_game], per_move),
    )


def _ratio_half_width(sums: Sequence[float], counts: Sequence[int], ratio: float) -> float:
    """Half-width of the 95% interval of ``sum(sums) / sum(counts)`` over independent games:
    the interval of the mean residual ``sum - ratio * count``, divided by the mean count."""
    mean_count = sum(counts) / len(counts) if counts else 0.0
    if mean_count == 0 or len(counts) < 2:
        return 0.0 if mean_count == 0 else float("inf")
    _, half = mean_interval(s - ratio * c for s, c in zip(sums, counts))
    return half / mean_count


def measure_against_oracle(
    game_cfg: dict, spec: str, games: int, seed: int, workers: int = 1, progress: bool = False, batch_games: int = 1
) -> tuple[SeatMeasure, SeatMeasure]:
    """``games`` games as B against the oracle, then ``games`` as A; one measure per seat."""
    if games < 2:
        raise ValueError(f"games must be >= 2 for an interval, got {games}")
    lineups = [(spec, ORACLE)] * games + [(ORACLE, spec)] * games
    results = play_games(game_cfg, lineups, seed, workers, progress, batch_games)
    game = game_from_config(game_cfg)
    return measure_seat(game, results[:games], 0), measure_seat(game, results[games:], 1)
