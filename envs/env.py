"""One Gymnasium environment class for every neuzero game."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from envs.core import TERMINAL, Game, GameError, GameInfo, GameOverError, make_game, play_out
from envs.opponents import resolve_opponent

RENDER_MODES = ["ansi", "rgb_array"]
ILLEGAL_ACTION_MODES = ("lose", "raise")
NO_SEAT = -1  # info["to_play"] once the episode is over, info["winner"] of a draw


def check_choice(name: str, value, choices) -> None:
    """A ValueError naming the option ``name``, its choices and ``value`` where it is none of them."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {tuple(choices)}, got {value!r}")


def check_env_options(info: GameInfo, render_mode, illegal_action, agent_seat) -> None:
    """The options the single and the batched env share, checked alike."""
    check_choice("render_mode", render_mode, (None, *RENDER_MODES))
    check_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
    check_choice("agent_seat", agent_seat, (*range(info.num_seats), "random"))


def observation_space(info: GameInfo) -> spaces.Dict:
    """What an env observes of one game: the game's planes and its int8 legal mask."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, info.obs_shape, dtype=np.float32),
            "action_mask": spaces.MultiBinary(info.num_actions),
        }
    )


class BoardGameEnv(gym.Env):
    """A neuzero game as a Gymnasium environment (two-player or single-agent).

    Every game id (``Odoku-v0``, ``Nex-v0``, ...) is this class with a different
    ``game``; the game's own docstring (``env.unwrapped.game``) lists its rules,
    observation planes and action layout.

    =====================  ===========================================================
    Observation            ``Dict(observation=Box(0, 1, (planes, rows, cols), float32),
                           action_mask=MultiBinary(num_actions))`` (int8 mask, 1 = legal)
    Action                 ``Discrete(num_actions)``, the game's action encoding
    Modes                  ``opponent=None``: two-player; every ``step`` is the action of
                           the seat in ``info["to_play"]``. Otherwise single-agent: the
                           agent holds ``agent_seat`` (0, 1 or ``"random"`` per episode)
                           and the opponent's actions happen inside ``step``.
    Chance                 coin flips (Odoku) are drawn from ``self.np_random``, so the
                           same seed gives the same game.
    Reward                 at the end: the return of the seat that acted (two-player) or
                           of the agent's seat (single-agent); win +1, loss -1, draw 0;
                           Odoku (score - 7.5) / 7.5 for B and the negative for A.
    Termination            the game is over (there is no truncation).
    Illegal action         ``illegal_action="lose"`` (default): the episode ends as a loss
                           (-1) for the seat that made it, with ``info["illegal_action"]``
                           and ``info["message"]``; ``"raise"``: a ``GameError`` naming
                           the action and why it is illegal.
    ``info``               every step: ``to_play`` (int seat to act, ``NO_SEAT`` = -1 once
                           the episode is over), ``action_mask`` (the observation's int8
                           mask), single-agent ``agent_seat`` (int); at the end also
                           ``returns`` (float64 array, one per seat), ``winner`` (int
                           seat, ``NO_SEAT`` = -1 for a draw), ``illegal_action`` (bool),
                           game facts such as Odoku's ``score`` (int), and after an
                           illegal action ``message`` (str). Types never change within
                           or between episodes, so ``gym.make_vec`` stacks them.
    Rendering              ``render_mode="ansi"`` (text board) or ``"rgb_array"`` (the
                           board view painted, ``envs.render``).
    =====================  ===========================================================

    Arguments: ``game`` (registry name or a :class:`~envs.core.Game`), ``opponent``
    (None, a player spec such as ``"random"``, ``"oracle"`` or ``"az:PATH[:SIMS]"``
    resolved through :mod:`envs.opponents`, an object with ``act(state, rng)`` such
    as an ``agents.Player``, or a callable ``policy(state, rng) -> action``),
    ``agent_seat``, ``render_mode``, ``illegal_action``, and game parameters
    (``size``, ``pie_rule``, ``bias``, ...).
    """

    metadata = {"render_modes": RENDER_MODES, "render_fps": 2}

    def __init__(
        self,
        game: str | Game = "odoku",
        opponent: Any = None,
        agent_seat: int | str = 0,
        render_mode: str | None = None,
        illegal_action: str = "lose",
        **game_kwargs,
    ):
        self.game = make_game(game, **game_kwargs) if isinstance(game, str) else game
        check_env_options(self.game.info, render_mode, illegal_action, agent_seat)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.agent_seat_option = agent_seat
        self.opponent = resolve_opponent(opponent, self.game)
        self.action_space = spaces.Discrete(self.game.info.num_actions)
        self.observation_space = observation_space(self.game.info)
        self.state = None
        self.agent_seat = 0 if agent_seat == "random" else agent_seat
        self._finished = False
        self._final_info: dict[str, Any] = {}

    # --- Gymnasium API -----------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self.state = self.game.initial_state()
        self._finished = False
        self._final_info = {}
        if self.agent_seat_option == "random":
            self.agent_seat = int(self.np_random.integers(self.game.info.num_seats))
        if self.opponent is not None and hasattr(self.opponent, "reset"):
            self.opponent.reset()
        self._advance()
        return self._outputs()

    def step(self, action):
        if self.state is None:
            raise GameOverError("call reset() before step()")
        if self._finished:
            raise GameOverError("the episode is over; call reset() to start a new game")
        actor = self.game.to_play(self.state)
        try:
            self.game.apply(self.state, action)
        except GameError as error:
            message = f"action {action}: {error}"  # the engine speaks notation; RL code thinks in indices
            if self.illegal_action == "raise":
                raise type(error)(message) from None
            return self._lose_by_illegal_action(actor, message)
        self._advance()
        terminated = self.game.is_terminal(self.state)
        reward = 0.0
        if terminated:
            self._finish()
            seat = actor if self.opponent is None else self.agent_seat
            reward = float(self.game.returns(self.state)[seat])
        observation, info = self._outputs()
        return observation, reward, terminated, False, info

    def render(self):
        if self.render_mode is None or self.state is None:
            return None
        if self.render_mode == "ansi":
            return self.game.render_text(self.state)
        return self.game.render_rgb(self.state)

    # --- conveniences ----------------------------------------------------------------------
    def action_masks(self) -> np.ndarray:
        """Legal-action mask as bools (the sb3-contrib MaskablePPO convention);
        all False once the episode is over, like the observation's mask."""
        return self._mask().astype(bool)

    def legal_actions(self) -> list[int]:
        """The legal actions (none once the episode is over)."""
        return np.flatnonzero(self._mask()).tolist()

    @property
    def to_play(self) -> int:
        """The seat to act, or ``NO_SEAT`` (-1) once the episode is over."""
        player = self.game.to_play(self.state)
        return NO_SEAT if player == TERMINAL or self._finished else int(player)

    # --- internals ---------------------------------------------------------------------------
    def _advance(self) -> None:
        """Flip coins, and in single-agent mode play the opponent, until the agent acts."""
        seats = range(self.game.info.num_seats) if self.opponent is not None else ()
        play_out(self.game, self.state, self.np_random, {s: self.opponent for s in seats if s != self.agent_seat})

    def _lose_by_illegal_action(self, actor: int, message: str):
        returns = np.ones(self.game.info.num_seats)
        returns[actor] = -1.0
        self._finished = True
        self._final_info = {
            "returns": returns,
            "winner": 1 - actor if self.game.info.num_seats == 2 else NO_SEAT,
            "illegal_action": True,
            "message": message,
        }
        observation, info = self._outputs()
        return observation, -1.0, True, False, info

    def _finish(self) -> None:
        self._finished = True
        winner = self.game.winner(self.state)
        self._final_info = {
            "returns": np.array(self.game.returns(self.state), dtype=np.float64),
            "winner": NO_SEAT if winner is None else int(winner),
            "illegal_action": False,
            **self.game.outcome_info(self.state),
        }

    def _observation(self) -> dict[str, np.ndarray]:
        return {"observation": self.game.observe(self.state), "action_mask": self._mask()}

    def _mask(self) -> np.ndarray:
        if self._finished:
            return np.zeros(self.game.info.num_actions, dtype=np.int8)
        return self.game.legal_mask(self.state).astype(np.int8)

    def _info(self, mask: np.ndarray) -> dict[str, Any]:
        info: dict[str, Any] = {"to_play": self.to_play, "action_mask": mask}
        if self.opponent is not None:
            info["agent_seat"] = int(self.agent_seat)
        info.update(self._final_info)
        return info

    def _outputs(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Observation and info, sharing one legal mask."""
        observation = self._observation()
        return observation, self._info(observation["action_mask"])
