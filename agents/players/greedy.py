"""The greedy baseline: win now if possible, never hand the opponent a win in one.

It thinks in whole turns (:mod:`envs.turns`), so in the neutral games it
sees wins that take a drop or a three-step swap, and at a micro-step boundary
it plays the next step of the turn it planned.
"""

from __future__ import annotations

import numpy as np

from agents.players.player import Player, no_args
from envs.core import CHANCE, TERMINAL, Game
from envs.turns import iter_turns


class GreedyPlayer(Player):
    """Plays, in this order of preference:

    1. a turn after which the game is over and it has won (``game.winner``);
    2. a random turn after which the opponent cannot win in its next turn
       (for every chance outcome that gives it the move);
    3. a random turn.

    Turns are checked in a random order and the first safe one is played, so
    the cost is one enumeration of the opponent's turns per turn tried.
    """

    name = "greedy"
    keeps_state = True  # the rest of a planned turn

    def __init__(self, game: Game):
        self.game = game
        self._plan: list[int] = []
        self._expected = None  # observation of the state the plan continues from

    def reset(self) -> None:
        self._plan, self._expected = [], None

    def act(self, state, rng: np.random.Generator) -> int:
        if self._plan and np.array_equal(self.game.observe(state), self._expected):
            return self._step(state)
        self._plan = list(self._choose(state, rng))
        return self._step(state)

    def _step(self, state) -> int:
        action = self._plan.pop(0)
        if self._plan:
            self._expected = self.game.observe(self.game.step(state, action))
        return action

    def _choose(self, state, rng) -> tuple[int, ...]:
        game = self.game
        me = game.to_play(state)
        turns = list(iter_turns(game, state))
        for actions, end in turns:
            if game.to_play(end) == TERMINAL and game.winner(end) == me:
                return actions
        for index in rng.permutation(len(turns)):
            actions, end = turns[index]
            if not self._opponent_wins_in_one(end, me):
                return actions
        return turns[int(rng.integers(len(turns)))][0]

    def _opponent_wins_in_one(self, state, me: int) -> bool:
        game = self.game
        player = game.to_play(state)
        if player == TERMINAL or player == me:
            return False
        if player == CHANCE:
            return any(
                p > 0 and self._opponent_wins_in_one(game.step(state, outcome), me)
                for outcome, p in game.chance_outcomes(state)
            )
        return any(game.to_play(end) == TERMINAL and game.winner(end) == player for _, end in iter_turns(game, state))


def make_greedy_player(game: Game, args: list[str]) -> Player:
    no_args("greedy", args)
    return GreedyPlayer(game)
