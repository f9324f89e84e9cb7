"""The batch of any game with compiled rules (``Game.compiled()``, an ``envs.compiled.CompiledGame``):
N of its int32 rows in one ``[N, width]`` array, every game stepped by one numba call through the
protocol's functions alone (``legal``, ``apply``, ``to_play``, ``returns``, ``chance``, ``observe``).

A step of game ``i`` plays the agent's action on its row, then chance outcomes and, against the
random opponent, the opponent's actions until the agent's seat is to play or the game is over;
each is drawn from the game's ``envs.kernels.draw`` stream (``seeds[i]``): an opponent's action
as ``legal``'s ``draw(seed, count)``-th, a chance outcome by :func:`draw_outcome`
over ``chance``'s probabilities. The mask is ``legal``'s actions, the returns ``returns``' at the
end. Observations come from the registered ``observe`` in a second numba call, or, for a game
without one, from ``game.observe`` of the decoded rows. The bookkeeping of a step around the
rules (``new_game``, ``begin_step``, ``lose_by_illegal``, ``end_step``) and the arrays of
:class:`Batch` are what ``tests/engine_batch.py``, the engine's reference batch, shares.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from envs import compiled as rules
from envs.core import CHANCE, TERMINAL
from envs.kernels import draw

PLAYER, SEAT, DONE, LEGAL = range(4)  # meta columns: seat to play, agent's seat, over, legal actions
SHARED_META = 4  # a game's own columns follow
RANDOM_SEAT = -1  # seat option: drawn per game
OUTCOME_SCALE = 1 << 30  # a chance outcome is drawn as draw(seed, OUTCOME_SCALE) against its probabilities


@njit(cache=True)
def draw_outcome(probs, count, seed):
    """``(index, next seed)``: an outcome of a chance node with probabilities ``probs[:count]``,
    drawn from the stream at ``seed``: outcome ``k`` when ``draw(seed, OUTCOME_SCALE)`` is below
    the first ``k + 1`` probabilities' sum times ``OUTCOME_SCALE`` (rounded) and not below the
    first ``k``'s; the last outcome takes what rounding leaves."""
    value, seed = draw(seed, OUTCOME_SCALE)
    total = 0.0
    for k in range(count - 1):
        total += probs[k]
        if value < np.rint(total * OUTCOME_SCALE):
            return k, seed
    return count - 1, seed


@njit(cache=True)
def new_game(i, meta, seeds, opponent, seat_option):
    """Mark game ``i`` running and seat the agent (a random seat is the stream's first draw)."""
    row = meta[i]
    row[DONE], row[LEGAL] = 0, 0
    row[SEAT] = seat_option
    if opponent and seat_option == RANDOM_SEAT:
        row[SEAT], seeds[i] = draw(seeds[i], 2)


@njit(cache=True)
def begin_step(i, rewards, terminated, returns):
    rewards[i] = 0.0
    terminated[i] = False
    returns[i, 0] = returns[i, 1] = 0.0


@njit(cache=True)
def lose_by_illegal(i, actor, meta, mask, returns):
    """Game ``i`` over: a loss for ``actor``, who played an illegal action."""
    returns[i, actor], returns[i, 1 - actor] = -1.0, 1.0
    meta[i, PLAYER], meta[i, LEGAL] = TERMINAL, 0
    mask[i, :] = 0


@njit(cache=True)
def end_step(i, actor, opponent, meta, rewards, terminated, returns):
    """After game ``i``'s step: at its end, the reward of the agent's seat (single-agent)
    or of the seat that acted (two-player)."""
    row = meta[i]
    if row[PLAYER] == TERMINAL:
        row[DONE] = 1
        terminated[i] = True
        rewards[i] = returns[i, row[SEAT] if opponent else actor]


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


class Batch:
    """Arrays of N games: ``meta``, the legal ``mask``, the ``seeds`` of each game's stream,
    the observation planes and the step's outputs. Subclasses add their game's arrays and
    the ``reset(which)`` / ``step(actions, illegal)`` kernels."""

    def __init__(self, game, num_envs: int, meta_columns: int):
        self.game = game
        info = game.info
        self.meta = np.zeros((num_envs, meta_columns), np.int64)
        self.meta[:, DONE] = 1
        self.mask = np.zeros((num_envs, info.num_actions), np.int8)
        self.seeds = np.zeros(num_envs, np.int64)
        self.obs = np.zeros((num_envs, *info.obs_shape), np.float32)
        self.rewards = np.zeros(num_envs, np.float64)
        self.terminated = np.zeros(num_envs, np.bool_)
        self.returns = np.zeros((num_envs, 2), np.float64)

    def to_play(self) -> np.ndarray:
        return self.meta[:, PLAYER]

    def agent_seat(self) -> np.ndarray:
        return self.meta[:, SEAT]

    def done(self) -> np.ndarray:
        return self.meta[:, DONE] == 1


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
