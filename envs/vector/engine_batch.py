"""The batch of a game without compiled rules (``Game.compiled()`` is None): the engine's own
states, stepped one by one in Python, behind the same arrays, the same random streams and the
same bookkeeping of a step (``envs.vector.common``) as ``envs.vector.compiled_batch``, so that
``envs.make_vec`` serves every game and a game plays the same games on either."""

from __future__ import annotations

import numpy as np

from envs.core import CHANCE, Game
from envs.core import TERMINAL as ENGINE_TERMINAL
from envs.kernels import draw
from envs.vector import common
from envs.vector.common import DONE, LEGAL, PLAYER, SEAT, SHARED_META, TERMINAL, Batch, draw_outcome


def chance_from_stream(game: Game, state, seed: int) -> tuple[int, int]:
    """A chance outcome of ``game.chance_outcomes(state)`` drawn from the stream at ``seed``, as
    the compiled batch draws it (``envs.vector.common.draw_outcome``), and the stream's next seed."""
    outcomes, probs = zip(*game.chance_outcomes(state))
    index, seed = draw_outcome(np.array(probs, np.float64), len(outcomes), seed)
    return int(outcomes[index]), int(seed)


class EngineBatch(Batch):
    """N engine states of ``game`` with the arrays of ``envs.vector.common.Batch``."""

    def __init__(self, game: Game, num_envs: int, single_agent: bool, seat_option: int):
        super().__init__(game, num_envs, SHARED_META)
        self.single_agent, self.seat_option = single_agent, seat_option
        self.states = [None] * num_envs

    def reset(self, which: np.ndarray) -> None:
        for i in np.flatnonzero(which):
            self._reset(int(i))

    def step(self, actions: np.ndarray, illegal: np.ndarray) -> None:
        meta, returns = self.meta, self.returns
        for i in range(self.num_envs):
            common.begin_step(i, self.rewards, self.terminated, returns)
            if meta[i, DONE]:
                self._reset(i)
                continue
            actor = int(meta[i, PLAYER])
            if illegal[i]:
                common.lose_by_illegal(i, actor, meta, self.mask, returns)
            else:
                self.game.apply(self.states[i], int(actions[i]))
                self._advance(i)
                if meta[i, PLAYER] == TERMINAL:
                    returns[i] = self.game.returns(self.states[i])
            common.end_step(i, actor, self.single_agent, meta, self.rewards, self.terminated, returns)
            self.obs[i] = self.game.observe(self.states[i])

    @property
    def num_envs(self) -> int:
        return len(self.states)

    def engine_state(self, i: int):
        """A copy of game ``i``'s engine state."""
        return self.states[i].copy()

    def _reset(self, i: int) -> None:
        common.new_game(i, self.meta, self.seeds, self.single_agent, self.seat_option)
        self.states[i] = self.game.initial_state()
        self._advance(i)
        self.obs[i] = self.game.observe(self.states[i])

    def _advance(self, i: int) -> None:
        """Chance outcomes, then the random opponent (single-agent), until the agent's seat acts;
        then the node's mask."""
        game, state, row = self.game, self.states[i], self.meta[i]
        while True:
            player = game.to_play(state)
            if player == CHANCE:
                outcome, self.seeds[i] = chance_from_stream(game, state, self.seeds[i])
                game.apply(state, outcome)
            elif self.single_agent and player >= 0 and player != row[SEAT]:
                legal = game.legal_actions(state)
                index, self.seeds[i] = draw(self.seeds[i], len(legal))
                game.apply(state, legal[index])
            else:
                break
        row[PLAYER] = TERMINAL if player == ENGINE_TERMINAL else player
        self.mask[i] = game.legal_mask(state) if player != ENGINE_TERMINAL else 0
        row[LEGAL] = int(self.mask[i].sum())
