"""Exactness on tiny boards: a player judged at every position of the principal lines.

The exact solver lists the decision positions reached from the start when both
seats play every optimal turn (:meth:`Solver.principal_positions`); at each, the
player chooses a complete turn the way it does in a game (``act`` until another
seat, chance or the end is to move, after ``reset()``; ``batch`` positions at a
time through ``act_many``) and the solver judges it.
In a position lost for the mover every turn is optimal; those count as optimal
without asking the player, and the share is also given over the other
positions, where a turn can give value away.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np
from tqdm import tqdm

from agents.evaluation.intervals import score_interval
from agents.players.player import Player
from agents.search.solver import LOW, TOLERANCE, Solver
from envs.core import Game
from envs.records import format_game


@dataclass
class LinesJudgement:
    """One player's turns at the principal lines' positions.

    ``seats[s]`` is ``[optimal, positions]`` with seat ``s`` to play; ``lost`` the
    positions lost for the mover (every turn optimal there); ``misses`` every
    position where the player's turn is not optimal, as the line to it, the turn
    played and the optimal turns, in the game's notation.
    """

    lost: int = 0
    seats: dict[int, list[int]] = field(default_factory=dict)
    misses: list[dict] = field(default_factory=list)

    @property
    def positions(self) -> int:
        return sum(n for _, n in self.seats.values())

    @property
    def optimal(self) -> int:
        return sum(o for o, _ in self.seats.values())

    @property
    def share(self) -> float:
        return self.optimal / self.positions if self.positions else float("nan")

    @property
    def interval(self) -> tuple[float, float]:
        return score_interval(self.optimal, self.positions)

    @property
    def contested(self) -> tuple[int, int]:
        """(optimal, positions) over the positions not lost for the mover."""
        return self.optimal - self.lost, self.positions - self.lost

    def as_dict(self) -> dict:
        low, high = self.interval
        won, contested = self.contested
        seats = {str(seat): counts for seat, counts in self.seats.items()}  # as JSON writes them
        return {
            "positions": self.positions,
            "optimal": self.optimal,
            **asdict(self),
            "seats": seats,
            "share": self.share,
            "ci_low": low,
            "ci_high": high,
            "contested_optimal": won,
            "contested_positions": contested,
        }


def player_turns(game: Game, player: Player, states, rngs) -> list[list[int]]:
    """The player's complete turn from each decision state (not modified), the
    positions played in lockstep (``act_many``: one network call for all)."""
    states = [state.copy() for state in states]
    movers = [game.to_play(state) for state in states]
    turns: list[list[int]] = [[] for _ in states]
    playing = list(range(len(states)))
    while playing:
        actions = player.act_many([states[i] for i in playing], [rngs[i] for i in playing])
        for i, action in zip(playing, actions):
            game.apply(states[i], int(action))
            turns[i].append(int(action))
        playing = [i for i in playing if game.to_play(states[i]) == movers[i]]
    return turns


def lost_for_mover(solver: Solver, state) -> bool:
    """Whether the seat to play loses whatever it does (so every turn is optimal)."""
    return solver.mover_value(state) <= LOW + TOLERANCE


def judge_lines(
    solver: Solver, positions, player: Player, seed: int, start=None, progress: bool = False, batch: int = 1
) -> LinesJudgement:
    """Judge ``player``'s turn at each of ``positions`` (``Solver.principal_positions(start)``;
    default: from the game's start).

    Position ``k`` draws the player's random choices from child ``k`` of
    ``numpy.random.SeedSequence(seed)``, so a position's verdict does not depend on
    the others. ``batch``: positions whose turns are chosen together, the player
    reset before each group (a player that keeps state plays one at a time); as
    with ``batch_games``, a batched network's outputs differ from single ones in
    the last digits, so near-ties may go the other way. ``progress``: a progress bar.
    """
    game = solver.game
    judged = LinesJudgement()
    seeds = np.random.SeedSequence(seed).spawn(len(positions))
    contested = []  # (path, state, seed) where a turn can give value away
    for (path, state), seq in zip(positions, seeds):
        counts = judged.seats.setdefault(game.to_play(state), [0, 0])  # [optimal, positions] of the mover's seat
        counts[1] += 1
        if lost_for_mover(solver, state):
            judged.lost += 1
            counts[0] += 1
        else:
            contested.append((path, state, seq))
    size = 1 if player.keeps_state else batch
    groups = [contested[i : i + size] for i in range(0, len(contested), size)]
    with tqdm(
        total=len(positions), initial=judged.lost, disable=not progress, desc=player.name, unit="position"
    ) as bar:
        for group in groups:
            player.reset()
            turns = player_turns(
                game, player, [state for _, state, _ in group], [np.random.default_rng(seq) for _, _, seq in group]
            )
            for (path, state, _), turn in zip(group, turns):
                _judge_turn(solver, judged, path, state, turn, start)
            bar.update(len(group))
    return judged


def _judge_turn(solver: Solver, judged: LinesJudgement, path, state, turn: list[int], start) -> None:
    game = solver.game
    if solver.turn_is_optimal(state, turn):
        judged.seats[game.to_play(state)][0] += 1
    else:
        judged.misses.append(
            {
                "line": format_game(game, path, start),
                "seat": game.to_play(state),
                "played": game.format_turn(state, turn),
                "optimal": [game.format_turn(state, t) for t in solver.optimal_turns(state)],
            }
        )
