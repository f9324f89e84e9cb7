"""The engine API that every game implements and every search uses.

A game is a *rules object* (:class:`Game`) over a small mutable *state* that is
cheap to copy (``state.copy()``). Search code clones and steps states through
this API alone, without the Gymnasium wrapper::

    game = envs.make_game("odoku")
    state = game.initial_state()
    while not game.is_terminal(state):
        if game.is_chance(state):
            game.apply(state, game.sample_chance(state, rng))
        else:
            game.apply(state, rng.choice(game.legal_actions(state)))
    game.returns(state)          # one float per seat, zero-sum

Conventions
-----------
* ``to_play(state)`` is a seat (0 or 1), :data:`CHANCE` at a chance node, or
  :data:`TERMINAL` once the game is over. A seat may move several times in a
  row (micro-steps, chance), so search must back up ``returns[seat]`` rather
  than flip a sign per ply.
* At a chance node the "actions" are the outcome ids of
  ``chance_outcomes(state)``; ``apply`` takes them like any action.
* ``apply`` mutates the state in place and always validates: an illegal
  action raises :class:`IllegalActionError` with a message that names the
  action and why it is illegal.
* A *turn* is what a player writes in a record: one action for Odoku (with
  the coin outcome in front when the state is a chance node, ``B Xb3``), one
  to three micro-step actions for the neutral games (``e3 g7``).
  ``parse_turn`` / ``format_turn`` convert both ways.
"""

from __future__ import annotations

import abc
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from envs.kernels import draw, playout_seed

CHANCE = -1
TERMINAL = -2


class GameError(ValueError):
    """Base class of every rules error raised by an engine."""


class IllegalActionError(GameError):
    """An action that the rules do not allow in this state."""


class NotationError(GameError):
    """Move or record text that cannot be parsed."""


class GameOverError(IllegalActionError):
    """An action applied to a finished game."""


@dataclass(frozen=True)
class GameInfo:
    """Everything a wrapper, a network or a doc needs to know about a game.

    Declared once per game (and size); spaces and network shapes derive from it.
    """

    name: str  # registry name, e.g. "odoku", "nex"
    seat_names: tuple[str, ...]  # seat 0 first, e.g. ("B", "A") or ("x", "o")
    num_actions: int  # size of the fixed action space (and legal mask)
    obs_shape: tuple[int, int, int]  # (planes, rows, cols)
    max_decisions: int  # upper bound on non-chance actions in one game
    has_chance: bool = False
    num_seats: int = 2
    params: dict[str, Any] = field(default_factory=dict)  # size, pie_rule, bias, ...
    torus: bool = False  # the board's rows and columns wrap round (Biversi): networks pad circularly

    @property
    def board_shape(self) -> tuple[int, int]:
        return self.obs_shape[1], self.obs_shape[2]


@dataclass(frozen=True)
class Symmetry:
    """A symmetry of a game: how it maps observation planes and actions.

    ``action_perm[a]`` is the image of action ``a``, so a policy maps as
    ``mapped[action_perm] = policy``. ``obs`` maps a (planes, rows, cols) array.
    """

    name: str
    obs: Callable[[np.ndarray], np.ndarray]
    action_perm: np.ndarray

    def policy(self, policy: np.ndarray) -> np.ndarray:
        """A policy (or a batch of them, actions on the last axis) mapped by this symmetry."""
        mapped = np.empty_like(policy)
        mapped[..., self.action_perm] = policy
        return mapped


class Game(abc.ABC):
    """Rules of one game. Subclasses set ``self.info`` in ``__init__``."""

    info: GameInfo

    # --- state and transitions ---------------------------------------------
    @abc.abstractmethod
    def initial_state(self) -> Any:
        """A fresh state (the game's start, possibly a chance node)."""

    @abc.abstractmethod
    def to_play(self, state) -> int:
        """The seat to act, CHANCE, or TERMINAL."""

    @abc.abstractmethod
    def legal_actions(self, state) -> list[int]:
        """Legal actions of the seat to play (empty at chance or terminal nodes)."""

    @abc.abstractmethod
    def apply(self, state, action: int) -> None:
        """Apply an action (or chance outcome) in place; raise IllegalActionError."""

    @abc.abstractmethod
    def returns(self, state) -> tuple[float, ...]:
        """Per-seat returns of a terminal state (zero-sum); zeros before the end."""

    def chance_outcomes(self, state) -> list[tuple[int, float]]:
        """(outcome, probability) pairs at a chance node."""
        return []

    def compiled(self):
        """The game's rules as numba functions over flat array states (an
        ``envs.compiled.CompiledGame``, which the search driver uses), or None."""
        return None

    # --- derived queries ------------------------------------------------------
    def is_terminal(self, state) -> bool:
        return self.to_play(state) == TERMINAL

    def is_chance(self, state) -> bool:
        return self.to_play(state) == CHANCE

    def legal_mask(self, state) -> np.ndarray:
        mask = np.zeros(self.info.num_actions, dtype=bool)
        mask[self.legal_actions(state)] = True
        return mask

    def step(self, state, action: int):
        """A new state: ``state`` with ``action`` applied (``state`` is untouched)."""
        child = state.copy()
        self.apply(child, action)
        return child

    def sample_chance(self, state, rng: np.random.Generator) -> int:
        """An outcome of the chance node ``state``, drawn by its probability."""
        outcomes, probs = zip(*self.chance_outcomes(state))
        return int(outcomes[rng.choice(len(outcomes), p=probs)])

    def random_playout(self, state, rng: np.random.Generator) -> tuple[tuple[float, ...], int, int]:
        """Play uniformly random legal actions (chance by its probabilities) from
        ``state`` (left untouched) to the end: ``(returns, decisions, turns)``.

        Games override this with faster equivalents (numba kernels, Odoku's fill).
        """
        state = state.copy()
        decisions = turns = 0
        player = self.to_play(state)
        while player != TERMINAL:
            if player == CHANCE:
                self.apply(state, self.sample_chance(state, rng))
            else:
                legal = self.legal_actions(state)
                self.apply(state, legal[int(rng.integers(len(legal)))])
                decisions += 1
                turns += self.to_play(state) != player
            player = self.to_play(state)
        return self.returns(state), decisions, turns

    def engine_playout(self, state, seed: int, cut: int = -1) -> tuple[tuple[float, ...], int, int]:
        """The engine loop from ``state`` (left untouched) to the end, one ``envs.kernels.draw``
        from the stream at ``seed`` per decision over ``legal_actions``; with ``cut >= 0`` it stops
        once ``cut`` turns have ended (a turn ends where the seat to play changes) and scores the
        position by ``heuristic_returns``. The game a compiled :meth:`random_playout` (and
        :meth:`cut_playout`) must play for the same seed (games without chance;
        ``tests/conformance.py`` checks it for every game)."""
        state, decisions, turns = state.copy(), 0, 0
        mover = self.to_play(state)
        while mover != TERMINAL:
            if turns == cut:
                return self.heuristic_returns(state), decisions, turns
            if mover == CHANCE:
                raise ValueError("engine_playout plays games without chance nodes")
            legal = self.legal_actions(state)
            index, seed = draw(seed, len(legal))
            self.apply(state, legal[index])
            decisions += 1
            player = self.to_play(state)
            turns += player != mover
            mover = player
        return self.returns(state), decisions, turns

    def cut_playout(self, state, rng: np.random.Generator, turns: int) -> tuple[float, ...]:
        """The returns of a random playout from ``state`` (left untouched) stopped once ``turns``
        turns have ended and scored there by :meth:`heuristic_returns`, or the game's returns
        where it ends sooner: ``engine_playout(state, playout_seed(rng), cut=turns)``, one seed
        drawn from ``rng``. Games with a playout kernel override it with the same game, compiled
        (games without chance)."""
        return self.engine_playout(state, playout_seed(rng), cut=turns)[0]

    def action_playout_returns(self, state, rollouts: int, rng: np.random.Generator) -> np.ndarray:
        """Mean return per seat of ``rollouts`` random playouts after each legal
        action of ``state``: float64 ``[num_actions, num_seats]``, NaN rows for
        illegal actions.

        Playout ``k`` after every action draws from the same seed (common random
        numbers), so the differences between actions, which decide a move, carry
        less noise than independent playouts would give them.
        """
        seeds = rng.integers(2**63, size=rollouts)
        means = np.full((self.info.num_actions, self.info.num_seats), np.nan)
        for action in self.legal_actions(state):
            child = state.copy()
            self.apply(child, action)
            returns = [self.random_playout(child, np.random.default_rng(seed))[0] for seed in seeds]
            means[action] = np.mean(returns, axis=0)
        return means

    def heuristic_returns(self, state) -> tuple[float, ...]:
        """A quick guess at ``returns`` from the position alone (material, area, distance to the
        goal: the game's docstring of this method says which and why), one value a seat in
        [-1, 1], zero-sum; what a random rollout cut short scores where it stops (the
        ``hmcts`` player). Raises NotImplementedError naming the game where it has none."""
        raise NotImplementedError(f"{self.info.name} has no heuristic value")

    def winner(self, state) -> int | None:
        """The winning seat of a terminal state, or None for a draw."""
        return winner_of(self.returns(state))

    def outcome_info(self, state) -> dict[str, Any]:
        """Extra end-of-game facts for ``info`` (Odoku: the raw score)."""
        return {}

    # --- what generic agents code asks of a game (evaluation, statistics) -----------
    #: the player spec of an exact player that measures agents (Odoku: ``"oracle"``); None: none
    reference_player: str | None = None
    #: the ``outcome_info`` fact that scores a game on the rule book's scale (Odoku: ``"score"``)
    score_fact: str | None = None

    def turn_judge(self) -> Callable[[Any, Sequence[int]], bool] | None:
        """``judge(state, turn_actions) -> bool``: whether a complete turn is exactly optimal,
        when the rules alone tell (Odoku's random-turn theorem); None: a search must decide."""
        return None

    def turn_kind(self, state, actions: Sequence[int]) -> str:
        """The kind of a complete turn (its decision actions) played from ``state``, for
        game statistics: ``place`` unless a game has other kinds (pass, swap-sides, drop ...)."""
        return "place"

    def goal_text(self, seat: int) -> str:
        """What ``seat`` plays for, in one sentence (told to a person at the start)."""
        return "win the game"

    def value_text(self, value: float, seat: int) -> str:
        """``value`` (``seat``'s expected return, -1..1) in the game's own units."""
        return f"{value:+.2f} (+1 a sure win, -1 a sure loss)"

    def result_text(self, state) -> str:
        """The end of a finished game in words (who won, and by what)."""
        winner = self.winner(state)
        return "a draw" if winner is None else f"{self.info.seat_names[winner]} wins"

    # --- observation and symmetry ---------------------------------------------
    @abc.abstractmethod
    def observe(self, state) -> np.ndarray:
        """float32 planes of shape ``info.obs_shape``, from the mover's view."""

    def symmetries(self) -> list[Symmetry]:
        """All symmetries, identity first."""
        n = self.info.num_actions
        return [Symmetry("identity", lambda planes: planes, np.arange(n))]

    # --- text -------------------------------------------------------------------
    @abc.abstractmethod
    def action_to_text(self, state, action: int) -> str:
        """Notation of one action in ``state`` (before it is applied)."""

    @abc.abstractmethod
    def parse_turn(self, state, text: str) -> list[int]:
        """The actions of one record turn; raises NotationError or IllegalActionError."""

    def play_turn(self, state, text: str):
        """Apply one record turn (``"c3 b2"``) to ``state`` in place and return it. The whole
        turn is parsed first, so a NotationError or IllegalActionError leaves ``state`` as it was."""
        for action in self.parse_turn(state, text):
            self.apply(state, action)
        return state

    def format_turn(self, state, actions: Sequence[int]) -> str:
        """Record text of a turn given as its actions, starting from ``state``."""
        state = state.copy()
        words = []
        for action in actions:
            words.append(self.action_to_text(state, action))
            self.apply(state, action)
        return " ".join(words)

    @abc.abstractmethod
    def render_text(self, state) -> str:
        """The board as text, like the seed diagrams."""

    def render_rgb(self, state) -> np.ndarray:
        """The board as an RGB uint8 image: its :meth:`board_view` painted (``envs.render``)."""
        from envs.render import board_rgb

        return board_rgb(self.board_view(state))

    def board_view(self, state):
        """The board as data for a vector drawing (an ``envs.board_view.BoardView``: cells with
        their names, contents and the actions a click offers), what the browser board draws."""
        raise NotImplementedError(f"{self.info.name} has no board view")

    # --- errors -----------------------------------------------------------------
    def check_action(self, state, action) -> int:
        """Validate an action's type, range and legality; return it as an int.

        An action is an integer: a Python or NumPy integer, or a 0-d integer array
        (what Gymnasium's ``Discrete.contains`` accepts); bools are not actions.
        """
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action[()]
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(f"action must be an integer, got {action!r}")
        action = int(action)
        player = self.to_play(state)
        if player == TERMINAL:
            raise GameOverError(f"action {action}: the game is over")
        if player == CHANCE:
            outcomes = [o for o, _ in self.chance_outcomes(state)]
            if action not in outcomes:
                raise IllegalActionError(f"action {action}: this is a chance node; outcomes are {outcomes}")
            return action
        if not 0 <= action < self.info.num_actions:
            raise IllegalActionError(f"action {action} is out of range 0..{self.info.num_actions - 1}")
        return action


def turn_text(text) -> str:
    """``text`` if it is a string; otherwise a NotationError (for ``parse_turn``)."""
    if not isinstance(text, str):
        raise NotationError(f"a turn must be text, got {text!r}")
    return text


def play_out(
    game: Game,
    state,
    rng: np.random.Generator,
    players: Mapping[int, Any],
    actions: list | None = None,
    chance_rng: np.random.Generator | None = None,
    max_decisions: int | None = None,
) -> int:
    """Play ``state`` forward in place until a seat without a player is to move, the players
    have made ``max_decisions`` decisions (when given), or the end.

    Chance outcomes are drawn from ``chance_rng`` (default: ``rng``); seat ``s`` in
    ``players`` acts by ``players[s].act(state, rng)`` (a chance generator of its own
    gives two games the same luck: duplicate matches). Every action is appended to ``actions`` when
    given; returns the number of decisions the players made. The one game loop:
    ``agents.evaluation.runner.play_game`` gives every seat a player, the env
    gives its opponent's seats one and stops where its agent is to move.
    """
    decisions = 0
    while True:
        seat = game.to_play(state)
        if seat == CHANCE:
            action = game.sample_chance(state, rng if chance_rng is None else chance_rng)
        elif seat in players and decisions != max_decisions:
            action = players[seat].act(state, rng)
            decisions += 1
        else:  # a seat without a player, the decisions made, or TERMINAL
            return decisions
        game.apply(state, action)
        if actions is not None:
            actions.append(int(action))


def has_heuristic(game: Game) -> bool:
    """Whether ``game`` gives ``heuristic_returns`` (rather than raising NotImplementedError)."""
    try:
        game.heuristic_returns(game.initial_state())
    except NotImplementedError:
        return False
    return True


def lead_returns(lead: float, scale: float) -> tuple[float, float]:
    """Heuristic returns of a two-seat game from seat 0's lead in the game's own units (material,
    area, steps): ``(v, -v)`` with ``v = tanh(lead / scale)``, so no lead is worth 0, a lead of
    ``scale`` 0.76 and a large one nearly a win (``Game.heuristic_returns``)."""
    value = math.tanh(lead / scale)
    return (value, -value)


def winner_of(returns: Sequence[float]) -> int | None:
    """The seat with the strictly highest return, or None for a tie."""
    best = max(returns)
    seats = [seat for seat, value in enumerate(returns) if value == best]
    return seats[0] if len(seats) == 1 else None


# --- registry -------------------------------------------------------------------
_GAMES: dict[str, Callable[..., Game]] = {}


def register_game(name: str, factory: Callable[..., Game]) -> None:
    """Make ``make_game(name, **kwargs)`` build ``factory(**kwargs)``."""
    _GAMES[name] = factory


def game_names() -> list[str]:
    return sorted(_GAMES)


def make_game(name: str, **kwargs) -> Game:
    """Build a registered game by name, e.g. ``make_game("nex", size=5)``.

    Unknown names and invalid parameters raise ValueError naming the problem.
    """
    try:
        factory = _GAMES[name.lower()]
    except (KeyError, AttributeError):
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(game_names())}") from None
    try:
        return factory(**kwargs)
    except TypeError as error:  # an unexpected keyword argument
        raise ValueError(f"game {name!r}: {error}") from None
