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
    Empty; the game's line in ``envs.GAMES`` registers it.

The state is the row (:class:`RowState`, one attribute ``row``), so the engine, the random
playouts, the compiled search (``agents.search.mcts.driver``) and the batched env
(``envs.make_vec``) play the same code, and ``compiled()``'s rows need no conversion. A first
try may also be plain Python against ``envs.core.Game`` (slower: no compiled search, and batched
by ``gymnasium.make_vec`` over the single env rather than ``envs.make_vec``).
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit

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
        self.row = np.ascontiguousarray(row, np.int32)  # the type the game's bound kernels take

    def copy(self):
        other = object.__new__(type(self))
        other.row = self.row.copy()
        return other

    def key(self) -> bytes:
        """Hashable identity of the position (for transposition tables and solvers)."""
        return self.row.tobytes()


def row_field(entry: int, start=None) -> property:
    """A read-only property of a :class:`RowState` subclass: the int at ``row[start(row) +
    entry]`` (``start``: where the row's scalars begin, a function of the row; 0 by default)."""
    if start is None:
        return property(lambda self: int(self.row[entry]))
    return property(lambda self: int(self.row[start(self.row) + entry]))


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
        self._outcomes, self._probs = np.empty(max_chance, np.int64), np.empty(max_chance)
        self._bind()

    BOUND = ("_kernels",)  # the attributes :meth:`_bind` sets: compiled entries, which do not pickle

    def _bind(self) -> None:
        """Bind the game's kernels to their compiled entries (:class:`Kernels`); a subclass that
        binds more of its own (:func:`bound`) extends this and ``BOUND``. Again after unpickling:
        self-play workers get the game pickled."""
        self._kernels = Kernels(self)

    def __getstate__(self) -> dict:
        return {key: value for key, value in self.__dict__.items() if key not in self.BOUND}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        for writable in ("start", "_options", "_outcomes", "_probs"):  # Ray unpickles arrays read-only
            setattr(self, writable, np.array(getattr(self, writable)))  # (the start row types the bound kernels)
        self._bind()

    def compiled(self) -> Rows:
        return self._rows

    # --- transitions ---------------------------------------------------------------------------
    def initial_state(self) -> RowState:
        return self.state_class(self.start.copy())

    def to_play(self, state: RowState) -> int:
        return self._kernels.to_play(self.context, state.row)

    def legal_actions(self, state: RowState) -> list[int]:
        return self._options[: self._kernels.legal(self.context, state.row, self._options)].tolist()

    def legal_mask(self, state: RowState) -> np.ndarray:
        mask = np.zeros(self.info.num_actions, dtype=bool)
        mask[self._options[: self._kernels.legal(self.context, state.row, self._options)]] = True
        return mask

    def apply(self, state: RowState, action: int) -> None:
        kernels, context, row = self._kernels, self.context, state.row
        player = kernels.to_play(context, row)
        if type(action) is int:  # the common case, checked (and played) by the kernels alone
            if player >= 0 and kernels.apply_offered(context, row, action, self._options):
                return
            if player == CHANCE and kernels.offers_outcome(context, row, action, self._outcomes, self._probs):
                kernels.apply(context, row, action)
                return
        action = self.check_action(state, action)  # its type and range, the end, a chance outcome
        if player == CHANCE:
            kernels.apply(context, row, action)
        elif not kernels.apply_offered(context, row, action, self._options):
            raise IllegalActionError(self.illegal_text(state, action))

    def returns(self, state: RowState) -> tuple[float, ...]:
        out = np.zeros(self.info.num_seats)
        self._kernels.returns(self.context, state.row, out)
        return tuple(out.tolist())

    def chance_outcomes(self, state: RowState) -> list[tuple[int, float]]:
        if self._rows.max_chance == 0 or self.to_play(state) != CHANCE:
            return []
        count = self._kernels.chance(self.context, state.row, self._outcomes, self._probs)
        return list(zip(self._outcomes[:count].tolist(), self._probs[:count].tolist()))

    def observe(self, state: RowState) -> np.ndarray:
        out = np.empty(self.info.obs_shape, np.float32)
        self._kernels.observe(self.context, state.row, out)
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

    # --- errors in the game's words ----------------------------------------------------------------
    def action_name(self, action: int) -> str:
        """What ``action`` names, for error messages (e.g. ``column d``); the number by default."""
        return str(action)

    def illegal_text(self, state: RowState, action: int) -> str:
        """The message of the error ``apply`` raises for the illegal decision ``action``."""
        return f"action {action} ({self.action_name(action)}): {self.illegal_reason(state, action)}"

    def illegal_reason(self, state: RowState, action: int) -> str:
        """Why ``action`` (in range, at a decision) is illegal in ``state``, in the game's words."""
        return "not a legal action here"


# --- the registered kernels, called from Python on one row ----------------------------------------------
class Kernels:
    """A :class:`RowGame`'s one-row kernels, each compiled for the game's argument types and
    called through its compiled entry point: numba's ordinary call types a namedtuple context
    anew on every call, which costs more than a small game's rules. The arguments must keep
    those types (a ``RowState``'s row is int32 and contiguous; the kit makes the rest)."""

    __slots__ = ("to_play", "legal", "apply_offered", "apply", "returns", "chance", "offers_outcome", "observe")

    def __init__(self, game: RowGame):
        context, row, options = game.context, game.start, game._options
        self.to_play = bound(to_play_of, context, row)
        self.legal = bound(legal_of, context, row, options)
        self.apply_offered = bound(apply_offered, context, row, 0, options)
        self.apply = bound(compiled.apply_row, context, row, 0)
        self.returns = bound(returns_of, context, row, np.zeros(game.info.num_seats))
        self.chance = self.offers_outcome = self.observe = None  # the protocol's optional functions
        if game.compiled().max_chance:
            outcomes, probs = game._outcomes, game._probs
            self.chance = bound(compiled.chance_row, context, row, outcomes, probs)
            self.offers_outcome = bound(offers_outcome, context, row, 0, outcomes, probs)
        if compiled.provides(game.compiled(), "observe"):
            self.observe = bound(compiled.observe_row, context, row, np.empty(game.info.obs_shape, np.float32))


def bound(kernel, *args):
    """``kernel``'s compiled entry point for the types of ``args`` (compiled, or loaded from
    numba's disk cache, now): called with arguments of exactly those types (a row is int32 and
    C-contiguous), it skips numba's dispatch by type."""
    signature = tuple(numba.typeof(arg) for arg in args)
    kernel.compile(signature)
    return kernel.overloads[signature].entry_point


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
def apply_offered(context, row, action, out):
    """Play ``action`` on ``row`` where it is among the game's ``legal`` actions (``out``: scratch
    room); whether it was (the row is left as it was where not)."""
    for k in range(compiled.legal(context, row, out)):
        if out[k] == action:
            compiled.apply(context, row, action)
            return True
    return False


@njit(cache=True)
def offers_outcome(context, row, outcome, outcomes, probs):
    """Whether ``outcome`` is among the game's ``chance`` outcomes of ``row`` (``outcomes`` and
    ``probs``: scratch room)."""
    for k in range(compiled.chance(context, row, outcomes, probs)):
        if outcomes[k] == outcome:
            return True
    return False


__all__ = ["CHANCE", "TERMINAL", "RowGame", "RowState", "Rows", "bound", "row_field"]
