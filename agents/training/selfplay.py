"""Self-play: many games stepped together, their searches batched through one estimator.

:func:`self_play` keeps ``concurrent_games`` games in flight; every move of every
game in flight is searched by one ``MCTS.search_many`` call, so each
simulation wave costs one batched network evaluation of up to that many leaves
(hundreds in flight are one process's way to feed a large batch to a network:
``benchmarks/bench_selfplay.py --in-flight`` measures positions/s against it).
Each game draws everything (chance nodes such as Odoku's coin, root noise,
Gumbel draws, playouts, temperature, playout-cap draws) from a generator of its
own, seeded from the caller's generator in the order the games start, so a
game's moves do not depend on ``concurrent_games`` as long as the estimator's
output for a state does not depend on the batch it came in: exactly so for
random-free estimators such as uniform or hashed ones; a network's batched
float arithmetic (GEMM blocking by batch size) can round the last bits of an
estimate differently, which can flip a close choice, and an estimator that
draws from a generator of its own (``RolloutEstimator``) draws in wave order.
A run stays bit-reproducible per seed at any ``concurrent_games``. Each searched position becomes a
training target for the seat that moved there: its observation, the search's
visit distribution (after a Gumbel search, its improved policy, and the game
plays the action sequential halving selected) or, with ``policy_rollouts = K
> 0``, the action whose K random playouts (common random numbers across the
actions, :meth:`Game.action_playout_returns`) return the most to the mover
(ties share the mass; in a random-turn game the playouts rank the moves
without the network's or the search's errors), and the value target

    value = (1 - value_mix) * outcome[mover] + value_mix * search_value[mover]

The outcome is the game's final return (AlphaZero), or with
``outcome_rollouts = K > 0`` the mean return of K random playouts from the
position (AlphaGo's rollouts: in a random-turn game such as Odoku a random
playout is an unbiased sample of the exact value, so K of them are a target
free of the self-play policy's errors; elsewhere they carry random play's
bias). ``value_mix > 0`` mixes in the search value (lower variance in games
with chance): the root's mean value, or after a Gumbel search the value of the
action it selected. Positions with a single legal action are played without
search and are not recorded.

Playout-cap randomisation (KataGo): with ``full_search_share = p < 1`` each
move is searched in full, with root noise, and recorded with probability p;
the other moves get a fast search of ``fast_simulations`` without noise, which
only plays the move and is not recorded. The games then cost far less per
position while every recorded target still comes from a full search.

With ``heuristic_mix = w > 0`` (a game with ``Game.heuristic_returns``) the search
values each new leaf ``(1 - w) * v + w * h``, ``h`` the heuristic's returns
(:class:`agents.search.estimators.HeuristicMixEstimator`); with
``heuristic_mix_steps = S`` the weight falls linearly to 0 at learner step S, the
step being that of the weights that play (:meth:`SelfPlayConfig.heuristic_weight`).

A run over several board sizes (``game.size`` a list or a schedule,
:mod:`agents.sizes`) plays through :func:`self_play_sizes`: each game
draws its size from the iteration's mix, and the games of each size are played
together by :func:`self_play`, one batch of targets per size.

Where the games are played (the main process, worker processes, Ray actors)
is the business of :mod:`agents.training.feeds`; every place runs
:func:`self_play_sizes`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Mapping, NamedTuple

import numpy as np

from agents.config import ConfigError, check
from agents.search.estimators import HeuristicMixEstimator
from agents.search.mcts import MCTS, SearchConfig, select_action, temperature_schedule
from agents.sizes import SizeMix
from envs.core import CHANCE, Game


@dataclass(frozen=True)
class SelfPlayConfig:
    """How self-play games are played (``agent.selfplay`` in the configs; these defaults are the config's)."""

    games_per_iteration: int = 64
    concurrent_games: int = 32  # games in flight; their leaves share one network call
    temperature_moves: int = 8  # decisions per game sampled at temperature 1, then greedy
    value_mix: float = 0.0  # value target: (1 - mix) * outcome + mix * search value
    outcome_rollouts: int = 0  # outcome: 0 = the game's final return; K > 0 = mean of K random playouts
    policy_rollouts: int = 0  # policy target: 0 = the search's visits; K > 0 = the best action by K playouts after each
    full_search_share: float = 1.0  # share of moves searched in full and recorded; the rest: a fast search
    # a leaf's value: (1 - w) * the network's + w * the game's heuristic_returns, w falling linearly
    # from heuristic_mix at learner step 0 to 0 at heuristic_mix_steps (0: w stays heuristic_mix)
    heuristic_mix: float = 0.0
    heuristic_mix_steps: int = 0
    fast_simulations: int = 0  # simulations of a fast search (needed when full_search_share < 1)
    workers: int | str = "auto"  # self-play worker processes; auto: one per usable core; 0: the main process
    # true: the workers hold no network; one inference server (a thread of the main process, on
    # `device`, beside the learner) batches all the workers' forward passes (needs workers >= 1)
    inference_server: bool = False
    # learner steps between the weights that play a game and those that learn from it; workers play
    # while the learner steps when steps_per_iteration is within it (0: they take turns)
    max_policy_lag: int = 400

    def __post_init__(self):
        integers = (
            ("games_per_iteration", 1),
            ("concurrent_games", 1),
            ("temperature_moves", 0),
            ("outcome_rollouts", 0),
            ("policy_rollouts", 0),
            ("max_policy_lag", 0),
            ("fast_simulations", 0),
            ("heuristic_mix_steps", 0),
        )
        for key, low in integers:
            check(f"agent.selfplay.{key}", getattr(self, key), "integer", low=low)
        check("agent.selfplay.inference_server", self.inference_server, "bool")
        check("agent.selfplay.value_mix", self.value_mix, "number", low=0.0, high=1.0)
        check("agent.selfplay.heuristic_mix", self.heuristic_mix, "number", low=0.0, high=1.0)
        check("agent.selfplay.full_search_share", self.full_search_share, "number", low=0.0, high=1.0, strict=True)
        if self.full_search_share < 1 and self.fast_simulations < 1:
            raise ConfigError(
                f"agent.selfplay.fast_simulations must be >= 1 when full_search_share < 1 "
                f"(got {self.fast_simulations} with full_search_share={self.full_search_share})"
            )

    def heuristic_weight(self, step: int) -> float:
        """The heuristic's share of a leaf value in games played by the weights of learner ``step``."""
        if not self.heuristic_mix_steps:
            return self.heuristic_mix
        return self.heuristic_mix * max(0.0, 1.0 - step / self.heuristic_mix_steps)

    def fast_search(self, search: SearchConfig) -> SearchConfig:
        """The fast search's config beside the full ``search``."""
        if self.fast_simulations >= search.num_simulations:
            raise ConfigError(
                f"agent.selfplay.fast_simulations ({self.fast_simulations}) must be below "
                f"agent.search.num_simulations ({search.num_simulations})"
            )
        return dataclasses.replace(search, num_simulations=self.fast_simulations)


@dataclass
class SelfPlayBatch:
    """Training targets and statistics of a set of finished self-play games."""

    obs: np.ndarray
    policy: np.ndarray
    value: np.ndarray
    game_lengths: list[int] = field(default_factory=list)  # decisions per game
    returns: list[tuple[float, ...]] = field(default_factory=list)  # per seat, per game
    games: list[list[int]] = field(default_factory=list)  # every game's actions (chance included)
    reasons: list[str | None] = field(default_factory=list)  # why each game ended, where the game says

    @property
    def num_positions(self) -> int:
        return len(self.value)

    @property
    def first_seat_win_rate(self) -> float:
        """Fraction of games that seat 0 won outright (draws count as not won)."""
        return first_seat_win_rate(self.returns)

    @classmethod
    def concatenate(cls, batches: list["SelfPlayBatch"]) -> "SelfPlayBatch":
        return cls(
            obs=np.concatenate([b.obs for b in batches]),
            policy=np.concatenate([b.policy for b in batches]),
            value=np.concatenate([b.value for b in batches]),
            game_lengths=[n for b in batches for n in b.game_lengths],
            returns=[r for b in batches for r in b.returns],
            games=[g for b in batches for g in b.games],
            reasons=[r for b in batches for r in b.reasons],
        )


def first_seat_win_rate(returns: list[tuple[float, ...]]) -> float:
    """Fraction of games (per-seat returns) that seat 0 won outright (draws count as not won)."""
    return float(np.mean([r[0] > max(r[1:]) for r in returns])) if returns else float("nan")


class Board(NamedTuple):
    """What plays one board size: its game, its search, and an estimator over the run's network."""

    game: Game
    mcts: MCTS
    estimator: Any


def self_play_sizes(
    boards: Mapping[Any, Board],
    mix: SizeMix,
    num_games: int,
    config: SelfPlayConfig,
    rng: np.random.Generator,
    step: int = 0,
) -> dict[Any, SelfPlayBatch]:
    """``num_games`` games, each at a size drawn from ``mix`` (one size: no draw, so the
    games are exactly :func:`self_play`'s); the batch of each size played, in ``mix`` order.
    ``step``: the learner step of the weights that play (the heuristic mix fades with it)."""
    counts = mix.counts(num_games, rng)
    weight = config.heuristic_weight(step)
    batches = {}
    for size, n in counts.items():
        if n:
            game, mcts, estimator = boards[size]
            if weight:
                estimator = HeuristicMixEstimator(estimator, game, weight)
            batches[size] = self_play(game, mcts, estimator, n, config, rng)
    return batches


class _Game:
    """One game in flight and the positions it has recorded so far."""

    __slots__ = (
        "index",
        "state",
        "rng",
        "actions",
        "obs",
        "policy",
        "movers",
        "search_values",
        "rollout_values",
        "decisions",
    )

    def __init__(self, index: int, state, rng: np.random.Generator):
        self.index, self.state, self.rng = index, state, rng
        self.actions: list[int] = []
        self.obs: list[np.ndarray] = []
        self.policy: list[np.ndarray] = []
        self.movers: list[int] = []
        self.search_values: list[float] = []
        self.rollout_values: list[float] = []
        self.decisions = 0


def self_play(
    game: Game, mcts: MCTS, estimator, num_games: int, config: SelfPlayConfig, rng: np.random.Generator
) -> SelfPlayBatch:
    """Play ``num_games`` self-play games, ``config.concurrent_games`` at a time, each drawing
    from its own generator seeded by ``rng``."""
    fast = None if config.full_search_share == 1 else MCTS(game, config.fast_search(mcts.config))
    seeds = rng.integers(0, 2**63, size=num_games)  # one draw, whatever the games in flight
    in_flight: list[_Game] = []
    finished: list[_Game] = []
    started = 0
    while started < num_games or in_flight:
        while len(in_flight) < config.concurrent_games and started < num_games:
            in_flight.append(_Game(started, game.initial_state(), np.random.default_rng(seeds[started])))
            started += 1
        searching = []
        for g in in_flight:
            _advance_forced(game, g)
            if game.is_terminal(g.state):
                finished.append(g)
            else:
                searching.append(g)
        in_flight = searching
        if not searching:
            continue
        full, quick = searching, []
        if fast is not None:
            in_full = [g.rng.random() < config.full_search_share for g in searching]
            full = [g for g, drawn in zip(searching, in_full) if drawn]
            quick = [g for g, drawn in zip(searching, in_full) if not drawn]
        if full:
            results = mcts.search_many([g.state for g in full], estimator, [g.rng for g in full], add_noise=True)
            for g, result in zip(full, results):
                _record(game, g, result, config)
                _play(game, g, result, config)
        if quick:
            for g, result in zip(quick, fast.search_many([g.state for g in quick], estimator, [g.rng for g in quick])):
                _play(game, g, result, config)
    return _targets(game, sorted(finished, key=lambda g: g.index), config)  # in the order they started


def _record(game: Game, g: _Game, result, config: SelfPlayConfig) -> None:
    """Keep the searched position of ``g`` as a training target."""
    rng, mover = g.rng, game.to_play(g.state)
    g.obs.append(game.observe(g.state))
    if config.policy_rollouts:
        g.policy.append(playout_policy(game, g.state, mover, config.policy_rollouts, rng))
    else:
        g.policy.append(_policy_target(result))
    g.movers.append(mover)
    g.search_values.append(_search_value(result, mover))
    if config.outcome_rollouts:
        g.rollout_values.append(rollout_value(game, g.state, mover, config.outcome_rollouts, rng))


def _play(game: Game, g: _Game, result, config: SelfPlayConfig) -> None:
    """Play the move the search chose."""
    if result.selected is not None:  # Gumbel: its noise already explored
        action = result.selected
    else:
        action = select_action(result, temperature_schedule(g.decisions, config.temperature_moves), g.rng)
    _apply(game, g, action)
    g.decisions += 1


def _policy_target(result) -> np.ndarray:
    """Gumbel MuZero's improved policy after a Gumbel search, else the visit shares
    (the priors when nothing was visited)."""
    if result.improved_policy is not None:
        return result.improved_policy.astype(np.float32)
    return result.policy(1.0).astype(np.float32)


def playout_policy(game: Game, state, mover: int, rollouts: int, rng: np.random.Generator) -> np.ndarray:
    """Uniform over the legal actions whose ``rollouts`` random playouts return the most to ``mover``."""
    means = game.action_playout_returns(state, rollouts, rng)[:, mover]
    best = np.nanmax(means)
    target = (means == best).astype(np.float32)  # NaN rows (illegal actions) compare False
    return target / target.sum()


def _search_value(result, mover: int) -> float:
    """The search's value of the position for ``mover``: after a Gumbel search the
    value of the action it selected (its root mean also averages every action
    sequential halving tried, good and bad alike), else the root's mean value."""
    if result.selected is not None and not np.isnan(result.q_values[result.selected, mover]):
        return float(result.q_values[result.selected, mover])
    return float(result.root_values[mover])


def rollout_value(game: Game, state, mover: int, rollouts: int, rng: np.random.Generator) -> float:
    """Mean return for ``mover`` of ``rollouts`` random playouts from ``state``."""
    return float(np.mean([game.random_playout(state, rng)[0][mover] for _ in range(rollouts)]))


def _advance_forced(game: Game, g: _Game) -> None:
    """Flip coins and play single legal actions until a real decision or the end."""
    while not game.is_terminal(g.state):
        if game.to_play(g.state) == CHANCE:
            _apply(game, g, game.sample_chance(g.state, g.rng))
            continue
        legal = game.legal_actions(g.state)
        if len(legal) != 1:
            return
        _apply(game, g, legal[0])
        g.decisions += 1


def _apply(game: Game, g: _Game, action: int) -> None:
    game.apply(g.state, action)
    g.actions.append(action)


def _targets(game: Game, finished: list[_Game], config: SelfPlayConfig) -> SelfPlayBatch:
    info, mix = game.info, config.value_mix
    obs, policy, value = [], [], []
    for g in finished:
        final = game.returns(g.state)
        outcomes = g.rollout_values if config.outcome_rollouts else [final[m] for m in g.movers]
        obs.extend(g.obs)
        policy.extend(g.policy)
        value.extend((1.0 - mix) * z + mix * v for z, v in zip(outcomes, g.search_values))
    return SelfPlayBatch(
        obs=np.asarray(obs, dtype=np.float32).reshape(-1, *info.obs_shape),
        policy=np.asarray(policy, dtype=np.float32).reshape(-1, info.num_actions),
        value=np.asarray(value, dtype=np.float32),
        game_lengths=[g.decisions for g in finished],
        returns=[tuple(float(r) for r in game.returns(g.state)) for g in finished],
        games=[g.actions for g in finished],
        reasons=[game.outcome_info(g.state).get("reason") for g in finished],
    )
