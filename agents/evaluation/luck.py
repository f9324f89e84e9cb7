"""Luck: how often the weaker player wins, and how much of the outcome the dice decide.

**Upsets** (:func:`upset_rate`): the weaker player's score (win 1, draw 0.5)
over games against a player rated ``gap`` Elo above it, with its Wilson
interval, beside the Bradley-Terry expectation ``1 / (1 + 10 ** (gap / 400))``
for that gap. In a game where skill tells, a gap measured on the ladder
predicts the upsets; an observed score above the expectation means the gap
does not carry over (the pair's games are luckier than the ladder's).

**Chance share** (:func:`chance_share`) from **duplicate games**
(:func:`play_duplicates`): every lineup is played twice with the same chance
draws (one generator, the same seed, for the chance outcomes of both games)
and the players' own randomness drawn independently for each game. With the
outcome ``Y`` (seat 0's points), the chance outcomes ``c`` and the seating
``s``, the share of the variance due to chance is
``Var(E[Y | c, s]) / Var(Y | s)``, estimated as
``1 - mean((Y_a - Y_b)^2 / 2) / pooled Var(Y | s)``: the two games of a pair
differ only by the players' choices, so half their squared difference
measures the variance left when chance is fixed. Clipped to [0, 1]; 0 when
the outcome never varies; the interval is a seeded bootstrap over the pairs.
In a game without chance nodes both games of a pair are independent games
and the estimate is 0 up to its noise.

**Turns by seat** (:func:`outcome_by_turns`): where chance decides who moves
(Odoku's coin), the seats' numbers of turns differ from game to game; the
outcome (the game's ``score_fact``, else seat 0's return) is then tabled by
seat 1's number of turns, with the least-squares slope per extra turn. Games
whose seats alternate (at most two values of the difference) have no table.

The same chance draws give the same outcomes when both games reach the same
chance nodes in turn (Odoku's coin before every move, Sudoku Moyo's puzzle at
the start): the k-th chance node of each game gets the k-th draw.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from agents.config import game_from_config
from agents.evaluation.intervals import mean_interval, score_interval
from agents.evaluation.ratings import expected_score
from agents.evaluation.runner import GameResult, play_game
from agents.players.player import Player
from agents.players.registry import make_player
from agents.pool import WorkerPool
from envs.core import CHANCE, Game
from envs.records import split_turns

BOOTSTRAP = 2000  # resamples of the pairs for the chance share's interval


@dataclass(frozen=True)
class ChanceShare:
    share: float
    ci_low: float
    ci_high: float
    pairs: int

    def as_dict(self) -> dict:
        return {"share": self.share, "ci_low": self.ci_low, "ci_high": self.ci_high, "pairs": self.pairs}


class OwnRandomness(Player):
    """``player`` drawing its choices from its own generator, not the game's."""

    def __init__(self, player: Player, rng: np.random.Generator):
        self.player, self.rng = player, rng
        self.name, self.keeps_state = player.name, player.keeps_state

    def act(self, state, rng):
        return self.player.act(state, self.rng)

    def reset(self):
        self.player.reset()


def play_duplicates(
    game_cfg: dict, lineups: Sequence[Sequence[str]], seed: int, workers: int = 1, progress: bool = False
) -> list[tuple[GameResult, GameResult]]:
    """Two games per lineup with the same chance draws (child ``k`` of ``SeedSequence(seed)``
    seeds lineup ``k``'s chance, its own children the players' choices in each game)."""
    jobs = list(zip((tuple(lineup) for lineup in lineups), np.random.SeedSequence(seed).spawn(len(lineups))))
    processes = workers if workers > 1 and len(jobs) > 1 else 0
    with WorkerPool(processes, _setup, dict(game_cfg)) as pool:
        return pool.map(_play_pair, jobs, progress="duplicate pair" if progress else "")


def _setup(game_cfg: dict) -> dict:
    return {"game": game_from_config(game_cfg), "players": {}}


def _play_pair(seating: dict, job) -> tuple[GameResult, GameResult]:
    lineup, seed_seq = job
    game, players = seating["game"], seating["players"]
    chance_seed, *choice_seeds = seed_seq.spawn(3)
    pair = []
    for choices in choice_seeds:
        rngs = [np.random.default_rng(s) for s in choices.spawn(len(lineup))]
        lineup_players = []
        for seat, spec in enumerate(lineup):
            if (seat, spec) not in players:
                players[seat, spec] = make_player(spec, game)
            lineup_players.append(OwnRandomness(players[seat, spec], rngs[seat]))
        pair.append(play_game(game, lineup_players, np.random.default_rng(chance_seed)))
    return pair[0], pair[1]


def seat0_points(result: GameResult) -> float:
    return 0.5 if result.winner is None else float(result.winner == 0)


def chance_share(pairs: Sequence[tuple[GameResult, GameResult]], seatings: Sequence, seed: int = 0) -> ChanceShare:
    """The chance share of the module docstring; ``seatings[k]`` names pair ``k``'s lineup
    (pairs with equal seatings are pooled)."""
    if len(pairs) != len(seatings) or not pairs:
        raise ValueError(f"chance_share needs one seating per pair and at least one pair, got {len(pairs)}")
    y = np.array([[seat0_points(a), seat0_points(b)] for a, b in pairs])
    groups = np.unique([str(s) for s in seatings], return_inverse=True)[1]
    share = _share(y, groups)
    rng = np.random.default_rng(seed)
    resampled = []
    for _ in range(BOOTSTRAP):
        pick = rng.integers(len(y), size=len(y))
        resampled.append(_share(y[pick], groups[pick]))
    low, high = np.percentile(resampled, [2.5, 97.5])
    return ChanceShare(share, float(low), float(high), len(pairs))


def _share(y: np.ndarray, groups: np.ndarray) -> float:
    within = float(np.mean((y[:, 0] - y[:, 1]) ** 2) / 2)
    weights, variances = [], []
    for g in np.unique(groups):
        values = y[groups == g].ravel()
        weights.append(len(values))
        variances.append(values.var(ddof=1) if len(values) > 1 else 0.0)
    total = float(np.average(variances, weights=weights))
    if total <= 0:
        return 0.0
    return float(np.clip(1.0 - within / total, 0.0, 1.0))


def upset_rate(results: Sequence[GameResult], weaker_seats: Sequence[int], gap: float, gap_ci: float) -> dict:
    """The weaker player's score over ``results`` (it held ``weaker_seats[k]`` in game ``k``)
    against the Bradley-Terry expectation for a ``gap`` (+- ``gap_ci``) Elo gap."""
    points = sum(0.5 if r.winner is None else float(r.winner == seat) for r, seat in zip(results, weaker_seats))
    wins = sum(r.winner == seat for r, seat in zip(results, weaker_seats))
    low, high = score_interval(points, len(results))
    return {
        "games": len(results),
        "wins": int(wins),
        "score": points / len(results),
        "ci_low": low,
        "ci_high": high,
        "gap": gap,
        "gap_ci": gap_ci,
        "expected": expected_score(0.0, gap),
        "expected_low": expected_score(0.0, gap + gap_ci),
        "expected_high": expected_score(0.0, gap - gap_ci),
    }


def turns_by_seat(game: Game, actions: Sequence[int]) -> list[int]:
    """How many turns each seat took in the game ``actions``."""
    state, counts = game.initial_state(), [0] * game.info.num_seats
    for turn in split_turns(game, actions):
        seat = None
        for action in turn:
            mover = game.to_play(state)
            if seat is None and mover != CHANCE:
                seat = mover
            game.apply(state, action)
        if seat is not None:
            counts[seat] += 1
    return counts


def outcome_by_turns(game: Game, results: Sequence[GameResult]) -> dict | None:
    """The outcome tabled by seat 1's number of turns (module docstring); None where the seats alternate."""
    counts = np.array([turns_by_seat(game, r.actions) for r in results])
    if len(set(counts[:, 0] - counts[:, 1])) <= 2:
        return None
    fact = game.score_fact
    outcome = np.array([r.info[fact] if fact else r.returns[0] for r in results], dtype=float)
    rows = []
    for turns in sorted(set(counts[:, 1])):
        picked = outcome[counts[:, 1] == turns]
        mean, half = mean_interval(picked)
        rows.append({"turns": int(turns), "games": len(picked), "mean": mean, "ci": half})
    x = counts[:, 1].astype(float)
    slope, intercept = np.polyfit(x, outcome, 1)
    residual = outcome - (slope * x + intercept)
    spread = np.sum((x - x.mean()) ** 2)
    slope_se = np.sqrt(np.sum(residual**2) / (len(x) - 2) / spread) if len(x) > 2 and spread > 0 else float("inf")
    return {
        "outcome": fact or "seat 0's return",
        "rows": rows,
        "slope": float(slope),
        "slope_ci": 1.96 * float(slope_se),
    }
