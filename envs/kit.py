"""A game whose engine is its compiled rules: write the rules once, in numba over a flat int32
row, and :class:`RowGame` gives the rest of ``envs.core.Game``.

For a game inventor, a game is then three files in ``envs/games/<game>/`` (docs/architecture.md,
"Add your game", walks through Connect Four, ``envs/games/connect_four/``):

``kernels.py``
    The rules over one row (``numpy.int32[width]``: the board, the seat to move, anything else
    the rules must remember), as the ``envs.compiled`` protocol's numba functions of
    ``(context, row, ...)``: ``legal`` (the legal actions, increasing), ``apply``, ``to_play`` (a
    seat, ``CHANCE`` or ``TERMINAL``), ``returns``, ``playout`` and ``observe`` (the network's
    planes), and ``chance`` where the game has chance nodes. ``context`` is a namedtuple of the
    game's constants (its size...) whose class the module ``envs.compiled.register`` s the
    functions for.
``game.py``
    A :class:`RowGame` subclass: its ``GameInfo`` and start row, then only what a person reads
    or types: the class docstring's table, ``action_to_text`` and ``parse_turn`` (notation both
    ways), ``render_text``, ``board_view``.
``__init__.py``
    Empty; the game's line in ``envs.GAMES`` (and ``envs.TITLES``) registers it.

The state is the row (:class:`RowState`, one attribute ``row``), so the engine, the random
playouts, the compiled search (``agents.search.mcts.driver``) and the batched env
(``envs.make_vec``) play the same code, and ``compiled()``'s rows need no conversion. A first
try may also be plain Python against ``envs.core.Game`` (slower: no compiled search, the engine
stepped per game in ``make_vec``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, typeof

from envs import compiled
from envs.compiled import CompiledGame
from envs.core import CHANCE, TERMINAL, Game, GameInfo, IllegalActionError
from envs.kernels import CUT, playout_seed
from envs.row_playout import random_play


class RowState:
    """A position as its rules' row (``row``, int32); a game may subclass it to name what its
    row holds (properties that read it)."""

    __slots__ = ("row",)

    def __init__(self, row: np.ndarray):
        self.row = row

    def copy(self):
        return type(self)(self.row.copy())


class Rows(CompiledGame):
    """A :class:`RowGame`'s ``CompiledGame``: its states are the rows, so encoding copies one."""

    def __init__(self, game: "RowGame", width: int, max_legal: int, max_chance: int):
        self.context, self.width, self.max_legal, self.max_chance = game.context, width, max_legal, max_chance
        self.state_class = game.state_class

    def encode(self, state: RowState) -> np.ndarray:
        return state.row.copy()

    def decode(self, row: np.ndarray) -> RowState:
        return self.state_class(np.array(row, np.int32))


class RowGame(Game):
    """``envs.core.Game``'s engine over a game's registered kernels (module docstring).

    A subclass calls ``super().__init__(info, context, start, max_legal)`` with its ``GameInfo``,
    its kernels' context, its start row (int32, ``width`` entries) and the most legal actions a
    row can have (``max_chance``: the most chance outcomes, for a game with chance nodes), then
    writes notation, text and the board view. It may override :meth:`illegal_reason` to say
    why an action is illegal in the game's words, and ``heuristic_returns`` for the ``hmcts``
    player's cut playouts."""

    state_class: type = RowState

    def __init__(self, info: GameInfo, context, start: np.ndarray, max_legal: int, max_chance: int = 0):
        self.info, self.context = info, context
        self.start = np.array(start, np.int32)
        self._rows = Rows(self, len(self.start), max_legal, max_chance)
        self._options = np.empty(max_legal, np.int64)
        self._bind()

    BOUND = ("_legal", "_to_play", "_apply", "_offers", "_play_legal", "_returns", "_observe")

    def _bind(self) -> None:
        """The kernels' compiled entries (``bound``), the attributes ``BOUND`` names; again after
        unpickling, since an entry does not pickle (self-play workers get the game pickled)."""
        context, row, options, action = self.context, self.start, self._options, 0
        self._legal = bound(legal_of, context, row, options)
        self._to_play = bound(to_play_of, context, row)
        self._apply = bound(compiled.apply_row, context, row, action)
        self._offers = bound(offers, context, row, action, options)
        self._play_legal = bound(play_legal, context, row, action, options)
        self._returns = bound(returns_of, context, row, np.zeros(self.info.num_seats))
        planes = np.empty(self.info.obs_shape, np.float32)
        provided = compiled.provides(self._rows, "observe")
        self._observe = bound(compiled.observe_row, context, row, planes) if provided else None

    def __getstate__(self) -> dict:
        return {key: value for key, value in self.__dict__.items() if key not in self.BOUND}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._bind()

    def compiled(self) -> Rows:
        return self._rows

    # --- transitions ---------------------------------------------------------------------------
    def initial_state(self) -> RowState:
        return self.state_class(self.start.copy())

    def to_play(self, state: RowState) -> int:
        return int(self._to_play(self.context, state.row))

    def legal_actions(self, state: RowState) -> list[int]:
        return self._options[: self._legal(self.context, state.row, self._options)].tolist()

    def legal_mask(self, state: RowState) -> np.ndarray:
        mask = np.zeros(self.info.num_actions, dtype=bool)
        mask[self._options[: self._legal(self.context, state.row, self._options)]] = True
        return mask

    def apply(self, state: RowState, action: int) -> None:
        action = self.check_action(state, action)
        if self.to_play(state) == CHANCE:
            self._apply(self.context, state.row, action)
        elif type(self).is_legal is RowGame.is_legal:  # legal's own test: one kernel call tests and plays
            if not self._play_legal(self.context, state.row, action, self._options):
                raise IllegalActionError(self.illegal_text(state, action))
        elif self.is_legal(state, action):
            self._apply(self.context, state.row, action)
        else:
            raise IllegalActionError(self.illegal_text(state, action))

    def returns(self, state: RowState) -> tuple[float, ...]:
        out = np.zeros(self.info.num_seats)
        self._returns(self.context, state.row, out)
        return tuple(out.tolist())

    def chance_outcomes(self, state: RowState) -> list[tuple[int, float]]:
        if self._rows.max_chance == 0 or self.to_play(state) != CHANCE:
            return []
        outcomes, probs = np.empty(self._rows.max_chance, np.int64), np.empty(self._rows.max_chance)
        count = compiled.chance_row(self.context, state.row, outcomes, probs)
        return list(zip(outcomes[:count].tolist(), probs[:count].tolist()))

    def observe(self, state: RowState) -> np.ndarray:
        out = np.empty(self.info.obs_shape, np.float32)
        (self._observe or compiled.observe_row)(self.context, state.row, out)
        return out

    # --- playouts: the engine loop's game for a seed (``Game.engine_playout``), in numba ------------
    def random_playout(self, state: RowState, rng: np.random.Generator) -> tuple[tuple[float, ...], int, int]:
        if self._rows.max_chance:  # ``envs.row_playout.random_play`` plays decisions only
            return super().random_playout(state, rng)
        row = state.row.copy()
        _, decisions, turns = random_play(self.context, row, playout_seed(rng), -1, self._options.copy())
        return self.returns(self.state_class(row)), int(decisions), int(turns)

    def cut_playout(self, state: RowState, rng: np.random.Generator, turns: int) -> tuple[float, ...]:
        if self._rows.max_chance:
            return super().cut_playout(state, rng, turns)
        final = self.state_class(state.row.copy())
        outcome, _, _ = random_play(self.context, final.row, playout_seed(rng), turns, self._options.copy())
        return self.heuristic_returns(final) if outcome == CUT else self.returns(final)

    def is_legal(self, state: RowState, action: int) -> bool:
        """Whether the decision ``action`` (in range) is legal: among ``legal``'s actions (a game
        whose row tells it sooner may say so)."""
        return self._offers(self.context, state.row, action, self._options)

    # --- errors in the game's words ----------------------------------------------------------------
    def illegal_text(self, state: RowState, action: int) -> str:
        """The message of the error that ``apply`` raises for the illegal decision ``action``."""
        return f"action {action} ({self.action_name(action)}): {self.illegal_reason(state, action)}"

    def action_name(self, action: int) -> str:
        """What ``action`` names, for error messages (e.g. ``column d``); the number by default."""
        return str(action)

    def illegal_reason(self, state: RowState, action: int) -> str:
        """Why ``action`` (in range, at a decision) is illegal in ``state``, in the game's words."""
        return "not a legal action here"


# --- the registered kernels, called from Python on one row ----------------------------------------------
def bound(kernel, *args):
    """``kernel`` compiled for arguments of the types of ``args``: its compiled entry, which a
    game calls with arguments of exactly those types (a row is int32, C-contiguous). numba's
    dispatch by type costs microseconds a call for a namedtuple context, more than the rules."""
    return kernel.compile(tuple(typeof(arg) for arg in args))


@njit(cache=True)
def legal_of(context, row, out):
    """The game's ``legal`` on one row: the count, the actions in ``out[:count]``."""
    return compiled.legal(context, row, out)


@njit(cache=True)
def to_play_of(context, row):
    """The game's ``to_play`` on one row."""
    return compiled.to_play(context, row)


@njit(cache=True)
def returns_of(context, row, out):
    """The game's ``returns`` on one row, into ``out``."""
    compiled.returns(context, row, out)


@njit(cache=True)
def offers(context, row, action, out):
    """Whether ``action`` is among the game's ``legal`` actions of ``row`` (``out``: scratch room)."""
    for k in range(compiled.legal(context, row, out)):
        if out[k] == action:
            return True
    return False


@njit(cache=True)
def play_legal(context, row, action, out):
    """Play ``action`` on ``row`` if it is among the game's ``legal`` actions; whether it was."""
    if not offers(context, row, action, out):
        return False
    compiled.apply(context, row, action)
    return True


__all__ = ["CHANCE", "TERMINAL", "RowGame", "RowState", "Rows"]
