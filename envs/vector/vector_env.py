"""A batch of N games of one neuzero game as a Gymnasium ``VectorEnv``, stepped by one
compiled (numba) call over arrays: ``envs.make_vec("Hex-v0", num_envs=1024)``."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from envs.core import TERMINAL, Game, GameError, IllegalActionError, make_game
from envs.env import RENDER_MODES, check_env_options, observation_space
from envs.kernels import playout_seed
from envs.vector.compiled_batch import RANDOM_SEAT, CompiledBatch


class BatchedBoardGameEnv(VectorEnv):
    """N games of one neuzero game, all stepped in one numba call.

    =====================  ===========================================================
    Observation            ``Dict(observation=Box(0, 1, (N, planes, rows, cols), float32),
                           action_mask=(N, num_actions) int8)``: per game what
                           ``BoardGameEnv`` observes (``single_observation_space`` is its
                           ``observation_space``)
    Action                 ``MultiDiscrete([num_actions] * N)``, one action per game
    Modes                  ``opponent=None``: two-player; game i's action is that of the
                           seat in ``info["to_play"][i]``. ``opponent="random"``:
                           single-agent against uniformly random legal actions; the
                           agent holds ``agent_seat`` (0, 1 or ``"random"`` per game)
    Randomness             each game draws its coins, its random opponent's actions and
                           its random seat from its own ``envs.kernels.draw`` stream:
                           ``reset(seed=s)`` seeds game i with ``s + i`` (a list: one
                           seed per game), so one seed gives the same games at any N
    Reward                 at the end of a game, as ``BoardGameEnv``: the return of the
                           seat that acted (two-player) or of the agent's seat
    Autoreset              next-step (``metadata["autoreset_mode"]``): the step after a
                           game ends starts a new one in that slot (action ignored,
                           reward 0); ``reset(options={"reset_mask": mask})`` restarts
                           only the games in ``mask``
    Illegal action         ``"lose"`` (default): game i ends as a loss (-1) for its mover,
                           ``info["illegal_action"][i]``; ``"raise"``: an
                           ``IllegalActionError`` naming the game, the action and why
    ``info``               ``to_play`` (seat, -1 once over), ``agent_seat`` (single-agent),
                           ``returns`` (per seat, ``[N, 2]``) and ``illegal_action``, each
                           with its ``_key`` mask of the games it applies to
    Rendering              ``render_mode="ansi"`` or ``"rgb_array"``: one frame per game
    =====================  ===========================================================

    The game's compiled rules (``Game.compiled()``) step as rows in one numba call
    (``envs.vector.compiled_batch``, through the ``envs.compiled`` protocol alone); a game
    without them (a ``Game`` object of your own) is a ValueError: ``gymnasium.make_vec`` over
    ``BoardGameEnv`` batches any game. ``copy=False`` returns the batch's own arrays, which the
    next step overwrites.
    """

    metadata = {"render_modes": RENDER_MODES, "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        game: str | Game = "hex",
        num_envs: int = 1,
        opponent: str | None = None,
        agent_seat: int | str = 0,
        illegal_action: str = "lose",
        render_mode: str | None = None,
        copy: bool = True,
        **game_kwargs,
    ):
        self.game = make_game(game, **game_kwargs) if isinstance(game, str) else game
        info = self.game.info
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if opponent not in (None, "random"):
            raise ValueError(
                f"opponent must be None (two-player) or 'random' in the batched env, got {opponent!r}; "
                "other opponents play through gymnasium.make_vec over BoardGameEnv"
            )
        check_env_options(info, render_mode, illegal_action, agent_seat)
        self.num_envs = int(num_envs)
        self.opponent = opponent
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.copy = copy
        if self.game.compiled() is None:
            raise ValueError(
                f"{info.name} has no compiled rules (Game.compiled() is None), which the batched env steps; "
                "gymnasium.make_vec over BoardGameEnv batches any game"
            )
        self.batch = CompiledBatch(
            self.game, self.num_envs, opponent is not None, RANDOM_SEAT if agent_seat == "random" else agent_seat
        )
        self.single_action_space = spaces.Discrete(info.num_actions)
        self.single_observation_space = observation_space(info)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self._rows = np.arange(self.num_envs)
        self._seeded = False

    # --- Gymnasium API -----------------------------------------------------------------------
    def reset(self, *, seed: int | list[int] | None = None, options: dict | None = None):
        super().reset(seed=seed if isinstance(seed, (int, np.integer)) else None)
        which = np.ones(self.num_envs, np.bool_)
        if options:
            unknown = set(options) - {"reset_mask"}
            if unknown:
                raise ValueError(f"reset options: unknown key(s) {sorted(unknown)}; the only option is 'reset_mask'")
            which = np.asarray(options["reset_mask"], dtype=np.bool_)
            if which.shape != (self.num_envs,):
                raise ValueError(f"reset_mask must have shape ({self.num_envs},), got {which.shape}")
        if seed is not None or not self._seeded:
            self.batch.seeds[which] = _stream_seeds(seed, self.num_envs)[which]
            self._seeded = True
        self.batch.reset(which)
        return self._observation(), self._info(None, None)

    def step(self, actions):
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions must be {self.num_envs} integers (shape ({self.num_envs},)), got {actions!r}")
        if not self._seeded:
            raise GameError("call reset() before step()")
        batch, num_actions = self.batch, self.single_action_space.n
        in_range = (actions >= 0) & (actions < num_actions)
        clipped = np.where(in_range, actions, 0).astype(np.int64)
        illegal = ~batch.done() & ~(in_range & (batch.mask[self._rows, clipped] == 1))
        if illegal.any() and self.illegal_action == "raise":
            raise self._why_illegal(int(np.flatnonzero(illegal)[0]), actions)
        batch.step(clipped, illegal)
        terminated = batch.terminated.copy()
        truncated = np.zeros(self.num_envs, np.bool_)
        return self._observation(), batch.rewards.copy(), terminated, truncated, self._info(terminated, illegal)

    def render(self):
        if self.render_mode is None:
            return None
        draw = self.game.render_text if self.render_mode == "ansi" else self.game.render_rgb
        return tuple(draw(self.engine_state(i)) for i in range(self.num_envs))

    # --- conveniences ----------------------------------------------------------------------------
    def action_masks(self) -> np.ndarray:
        """Legal-action masks as bools ``[N, num_actions]``."""
        return self.batch.mask.astype(bool)

    def engine_state(self, i: int):
        """Game ``i`` as a state of the engine (``self.game``), e.g. for search or rendering."""
        return self.batch.engine_state(i)

    # --- internals ----------------------------------------------------------------------------------
    def _observation(self) -> dict[str, np.ndarray]:
        batch = self.batch
        if self.copy:
            return {"observation": batch.obs.copy(), "action_mask": batch.mask.copy()}
        return {"observation": batch.obs, "action_mask": batch.mask}

    def _info(self, terminated, illegal) -> dict[str, Any]:
        to_play = self.batch.to_play().copy()
        to_play[to_play == TERMINAL] = -1
        info: dict[str, Any] = {"to_play": to_play, "_to_play": np.ones(self.num_envs, np.bool_)}
        if self.opponent is not None:
            info["agent_seat"] = self.batch.agent_seat().copy()
            info["_agent_seat"] = np.ones(self.num_envs, np.bool_)
        if terminated is not None and terminated.any():
            info["returns"] = self.batch.returns.copy()
            info["_returns"] = terminated
            if illegal.any():
                info["illegal_action"] = illegal
                info["_illegal_action"] = illegal
        return info

    def _why_illegal(self, i: int, actions: np.ndarray) -> IllegalActionError:
        state = self.engine_state(i)
        try:
            self.game.apply(state, actions[i].item())
        except GameError as error:
            return IllegalActionError(f"game {i} of the batch: {error}")
        return IllegalActionError(f"game {i} of the batch: action {actions[i]} is illegal")


def _stream_seeds(seed, num_envs: int) -> np.ndarray:
    """Each game's ``draw`` stream seed: game i from ``seed + i`` (or ``seed[i]``; fresh entropy for None)."""
    if seed is None:
        seeds = [None] * num_envs
    elif isinstance(seed, (int, np.integer)):
        seeds = [int(seed) + i for i in range(num_envs)]
    else:
        seeds = list(seed)
        if len(seeds) != num_envs:
            raise ValueError(f"seed: a list of seeds needs one per game ({num_envs}), got {len(seeds)}")
    return np.array([playout_seed(np.random.default_rng(s)) for s in seeds], np.int64)


def game_stream_seed(seed: int) -> int:
    """The ``draw`` stream a game seeded with ``seed`` plays from (for replaying it on the engine)."""
    return int(_stream_seeds(seed, 1)[0])
