"""Every neuzero game as a PettingZoo AEC environment (the optional extra ``pettingzoo``).

Follows the module convention of PettingZoo's classic games::

    from envs.pettingzoo import env
    game = env("nex", size=5)              # raw_env(...) wrapped in the usual checks
    game.reset(seed=0)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        if termination or truncation:
            action = None
        else:
            legal = observation["action_mask"].nonzero()[0]
            action = int(game.np_random.choice(legal))
        game.step(action)

=====================  ===========================================================
Agents                 the game's seat names, seat 0 first: ``"B"``, ``"A"`` (Odoku),
                       ``"Vertical"``, ``"Horizontal"`` (Hex, Nex), ``"x"``, ``"o"``
Selection              the seat to play. Odoku's coin is flipped inside (from
                       ``np_random``, so one seed gives one game): the agent selected
                       is the coin's winner, possibly the same agent several times
                       in a row. A neutral game's turn (one to three micro-steps) is
                       that many consecutive selections of the same agent.
Observation            ``Dict(observation=Box(0, 1, (planes, rows, cols), float32),
                       action_mask=Box(0, 1, (num_actions,), int8))``: the game's planes
                       from the view of the seat to play (the Gymnasium env's
                       observation); the mask is all zeros for an agent that is not
                       selected and once the game is over
Action                 ``Discrete(num_actions)``, the game's action encoding
Reward                 both agents at the end: the engine's per-seat returns
                       (zero-sum; win +1, loss -1, draw 0; Odoku (score - 7.5) / 7.5
                       for B). An illegal action ends the game: -1 for its agent,
                       +1 for the other, and ``infos[agent]["illegal_action"]``
Rendering              ``render_mode="ansi"`` (text board) or ``"rgb_array"``
=====================  ===========================================================

There is no parallel API (``metadata["is_parallelizable"]`` is False): the games
are turn-based, so at every moment exactly one agent may act and a parallel step
would be that agent's action with the others' ignored. PettingZoo's own classic
board games have none for the same reason.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from envs.core import CHANCE, TERMINAL, Game, GameError, make_game
from envs.env import RENDER_MODES, check_choice


def env(game: str | Game = "odoku", render_mode: str | None = None, **game_kwargs) -> AECEnv:
    """``raw_env`` inside PettingZoo's out-of-bounds and call-order checks."""
    wrapped = raw_env(game, render_mode=render_mode, **game_kwargs)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):
    """A neuzero game (registry name or :class:`~envs.core.Game`) as an AEC environment.

    Arguments: ``game``, ``render_mode`` (None, ``"ansi"``, ``"rgb_array"``) and the
    game's parameters (``size``, ``pie_rule``, ``bias``, ...). See the module doc.
    """

    metadata = {
        "render_modes": RENDER_MODES,
        "name": "neuzero_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(self, game: str | Game = "odoku", render_mode: str | None = None, **game_kwargs):
        super().__init__()
        self.game = make_game(game, **game_kwargs) if isinstance(game, str) else game
        check_choice("render_mode", render_mode, (None, *RENDER_MODES))
        info = self.game.info
        self.metadata = {**self.metadata, "name": f"neuzero_{info.name}_v0"}
        self.render_mode = render_mode
        self.possible_agents = list(info.seat_names)
        self.agents = self.possible_agents[:]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, info.obs_shape, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (info.num_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {agent: observation_space for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(info.num_actions) for agent in self.possible_agents}
        self.state_ = None
        self.np_random, _ = seeding.np_random(None)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # --- AEC API ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.state_ = self.game.initial_state()
        self._select()

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._clear_rewards()
        try:
            self.game.apply(self.state_, action)
        except GameError as error:  # zero-sum: the offender loses, the other agent wins
            self._finish({other: 1.0 for other in self.agents} | {agent: -1.0})
            self.infos[agent] = {"illegal_action": True, "message": str(error)}
        else:
            self._select()
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        mask = np.zeros(self.game.info.num_actions, dtype=np.int8)
        if not self.terminations[agent] and agent == self.agent_selection:
            mask[self.game.legal_actions(self.state_)] = 1
        return {"observation": self.game.observe(self.state_), "action_mask": mask}

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'rgb_array'")
            return None
        if self.render_mode == "ansi":
            return self.game.render_text(self.state_)
        return self.game.render_rgb(self.state_)

    def close(self) -> None:
        pass

    # --- internals ------------------------------------------------------------------------------
    def _select(self) -> None:
        """Flip coins until a seat is to play and select it, or reward both seats at the end."""
        game, state = self.game, self.state_
        while game.to_play(state) == CHANCE:
            game.apply(state, game.sample_chance(state, self.np_random))
        player = game.to_play(state)
        if player == TERMINAL:
            returns = game.returns(state)
            self._finish({agent: float(returns[self._seat[agent]]) for agent in self.agents})
            self.infos = {agent: dict(game.outcome_info(state)) for agent in self.agents}
        else:
            self.agent_selection = self.possible_agents[player]

    def _finish(self, rewards: dict[str, float]) -> None:
        self.rewards = rewards
        self.terminations = dict.fromkeys(self.agents, True)
