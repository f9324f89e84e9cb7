"""The reference ``envs.vector.compiled_batch`` is checked against: a batch of the engine's own
states, stepped one by one in Python, behind the same arrays, the same random streams and the
same bookkeeping of a step, so a game plays the same games on either (``tests/test_vector_env.py``)."""

from __future__ import annotations

import numpy as np

from envs.core import CHANCE, Game
from envs.kernels import draw
from envs.vector import compiled_batch
from envs.vector.compiled_batch import DONE, LEGAL, PLAYER, SEAT, SHARED_META, TERMINAL, Batch, draw_outcome


def chance_from_stream(game: Game, state, seed: int) -> tuple[int, int]:
    """A chance outcome of ``game.chance_outcomes(state)`` drawn from the stream at ``seed``, as
    the compiled batch draws it (``envs.vector.compiled_batch.draw_outcome``), and the stream's next seed."""
    outcomes, probs = zip(*game.chance_outcomes(state))
    index, seed = draw_outcome(np.array(probs, np.float64), len(outcomes), seed)
    return int(outcomes[index]), int(seed)


class EngineBatch(Batch):
    """N engine states of ``game`` with the arrays of ``envs.vector.compiled_batch.Batch``."""

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
            compiled_batch.begin_step(i, self.rewards, self.terminated, returns)
            if meta[i, DONE]:
                self._reset(i)
                continue
            actor = int(meta[i, PLAYER])
            if illegal[i]:
                compiled_batch.lose_by_illegal(i, actor, meta, self.mask, returns)
            else:
                self.game.apply(self.states[i], int(actions[i]))
                self._advance(i)
                if meta[i, PLAYER] == TERMINAL:
                    returns[i] = self.game.returns(self.states[i])
            compiled_batch.end_step(i, actor, self.single_agent, meta, self.rewards, self.terminated, returns)
            self.obs[i] = self.game.observe(self.states[i])

    @property
    def num_envs(self) -> int:
        return len(self.states)

    def engine_state(self, i: int):
        """A copy of game ``i``'s engine state."""
        return self.states[i].copy()

    def _reset(self, i: int) -> None:
        compiled_batch.new_game(i, self.meta, self.seeds, self.single_agent, self.seat_option)
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
        row[PLAYER] = player
        self.mask[i] = game.legal_mask(state) if player != TERMINAL else 0
        row[LEGAL] = int(self.mask[i].sum())
