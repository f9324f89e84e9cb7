"""The batch of any game with compiled rules (``Game.compiled()``, an ``envs.compiled.CompiledGame``):
N of its int32 rows in one ``[N, width]`` array, every game stepped by one numba call through the
protocol's functions alone (``legal``, ``apply``, ``to_play``, ``returns``, ``chance``, ``observe``).

A step of game ``i`` plays the agent's action on its row, then chance outcomes and, against the
random opponent, the opponent's actions until the agent's seat is to play or the game is over;
each is drawn from the game's ``envs.kernels.draw`` stream (``seeds[i]``): an opponent's action
as ``legal``'s ``draw(seed, count)``-th, a chance outcome by :func:`envs.vector.common.draw_outcome`
over ``chance``'s probabilities. The mask is ``legal``'s actions, the returns ``returns``' at the
end. Observations come from the registered ``observe`` in a second numba call, or, for a game
without one, from ``game.observe`` of the decoded rows.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from envs import compiled as rules
from envs.core import CHANCE
from envs.kernels import draw
from envs.vector.common import (
    DONE,
    LEGAL,
    PLAYER,
    SEAT,
    SHARED_META,
    TERMINAL,
    Batch,
    begin_step,
    draw_outcome,
    end_step,
    lose_by_illegal,
    new_game,
)

OPPONENT, SEAT_OPTION = range(2)  # params: single-agent against random, the agent's seat option


@njit(cache=True)
def _advance(i, context, rows, meta, params, mask, seeds, legal, outcomes, probs):
    """Chance outcomes, and the random opponent (single-agent), until the agent's seat acts or
    the game ends; then the node's seat, mask and legal count into ``meta[i]``."""
    row, game = rows[i], meta[i]
    while True:
        player = rules.to_play(context, row)
        if player == CHANCE:
            count = rules.chance(context, row, outcomes, probs)
            if count == 0:
                raise ValueError("a chance row without outcomes (envs.compiled: register chance)")
            index, seeds[i] = draw_outcome(probs, count, seeds[i])
            rules.apply(context, row, outcomes[index])
        elif params[OPPONENT] and player >= 0 and player != game[SEAT]:
            index, seeds[i] = draw(seeds[i], rules.legal(context, row, legal))
            rules.apply(context, row, legal[index])
        else:
            break
    game[PLAYER] = player
    mask[i, :] = 0
    count = 0 if player == TERMINAL else rules.legal(context, row, legal)
    for k in range(count):
        mask[i, legal[k]] = 1
    game[LEGAL] = count


@njit(cache=True)
def _reset(i, context, initial, rows, meta, params, mask, seeds, legal, outcomes, probs):
    """A new game in row ``i``: the seat drawn first (when random), then chance and the opponent."""
    rows[i, :] = initial
    new_game(i, meta, seeds, params[OPPONENT], params[SEAT_OPTION])
    _advance(i, context, rows, meta, params, mask, seeds, legal, outcomes, probs)


@njit(cache=True)
def reset_games(which, context, initial, rows, meta, params, mask, seeds, legal, outcomes, probs):
    """A new game in every row ``i`` with ``which[i]``."""
    for i in range(len(which)):
        if which[i]:
            _reset(i, context, initial, rows, meta, params, mask, seeds, legal, outcomes, probs)


@njit(cache=True)
def step_games(
    actions,
    illegal,
    context,
    initial,
    rows,
    meta,
    params,
    mask,
    seeds,
    rewards,
    terminated,
    returns,
    legal,
    outcomes,
    probs,
):
    """One step of every game: a game that ended on the last step starts anew (next-step
    autoreset, reward 0); ``illegal[i]`` ends game ``i`` as a loss for its mover; otherwise
    ``actions[i]`` is played, then chance and the opponent's replies. ``returns[i]`` gets the
    per-seat result of a game that ends; ``rewards[i]`` the acting seat's (two-player) or the
    agent's."""
    for i in range(len(actions)):
        begin_step(i, rewards, terminated, returns)
        if meta[i, DONE]:
            _reset(i, context, initial, rows, meta, params, mask, seeds, legal, outcomes, probs)
            continue
        actor = meta[i, PLAYER]
        if illegal[i]:
            lose_by_illegal(i, actor, meta, mask, returns)
        else:
            rules.apply(context, rows[i], actions[i])
            _advance(i, context, rows, meta, params, mask, seeds, legal, outcomes, probs)
            if meta[i, PLAYER] == TERMINAL:
                rules.returns(context, rows[i], returns[i])
        end_step(i, actor, params[OPPONENT], meta, rewards, terminated, returns)


@njit(cache=True)
def observe_games(context, rows, obs):
    """The registered ``observe`` of every row into ``obs``."""
    for i in range(rows.shape[0]):
        rules.observe(context, rows[i], obs[i])


class CompiledBatch(Batch):
    """N games of a game with compiled rules as rows (``envs.vector.vector_env``'s backend)."""

    def __init__(self, game, num_envs: int, single_agent: bool, seat_option: int):
        super().__init__(game, num_envs, SHARED_META)
        self.compiled = compiled = game.compiled()
        self.observes = rules.provides(compiled, "observe")
        self.params = np.array([single_agent, seat_option], np.int64)
        self.initial = compiled.encode(game.initial_state())
        self.rows = np.zeros((num_envs, compiled.width), np.int32)
        self.legal = np.empty(max(compiled.max_legal, 1), np.int64)
        self.outcomes = np.empty(max(compiled.max_chance, 1), np.int64)
        self.probs = np.empty(max(compiled.max_chance, 1), np.float64)

    def _rules(self):
        return self.compiled.context, self.initial, self.rows, self.meta, self.params, self.mask, self.seeds

    def _scratch(self):
        return self.legal, self.outcomes, self.probs

    def reset(self, which: np.ndarray) -> None:
        reset_games(which, *self._rules(), *self._scratch())
        self._observe(which)

    def step(self, actions: np.ndarray, illegal: np.ndarray) -> None:
        step_games(actions, illegal, *self._rules(), self.rewards, self.terminated, self.returns, *self._scratch())
        self._observe(np.ones(len(self.rows), np.bool_))

    def _observe(self, which: np.ndarray) -> None:
        """The observations of the games in ``which`` (every game: the registered ``observe``)."""
        if self.observes:
            observe_games(self.compiled.context, self.rows, self.obs)
        else:
            for i in np.flatnonzero(which):
                self.obs[i] = self.game.observe(self.engine_state(int(i)))

    def engine_state(self, i: int):
        """Game ``i`` as an engine state (the decoded row)."""
        return self.compiled.decode(self.rows[i])
