"""What Hex, Y, Gomoku and Reversi share: stones of two colours on an n x n grid.

A base game is a :class:`Rules` object (geometry, names, text, the goal's code);
:class:`StoneGame` turns one into a :class:`~envs.core.Game` with one placement per turn
(plain Hex, Y, Gomoku, Reversi), and :class:`envs.neutral.mutator.NeutralGame` into the
neutral-mutator game over it. The rules themselves are compiled, written once over a flat
row (``envs.stones.compiled``, ``envs.neutral.compiled``), and ``envs.kit.RowGame`` makes
them the engine; here is what a person reads or types: notation both ways, text, errors in
the game's words, the board view.

Colours, not seats, are on the board: colour 1 (``x``, Hex's Vertical) moves
first and belongs to seat 0 until the pie rule (``swap-sides``) hands the
colours over; seats keep their numbers (docs/rules.md, the neutral mutator).
"""

from __future__ import annotations

import abc
from functools import cached_property
from typing import Sequence

import numpy as np

from envs.core import TERMINAL, GameInfo, GameOverError, IllegalActionError, NotationError, Symmetry, turn_text
from envs.kernels import EMPTY, FIRST, OFF_BOARD, playout_seed
from envs.kit import RowGame, RowState, bound
from envs.stones import compiled
from envs.stones.board import DIHEDRAL, board_symmetry, cell_name, parse_cell, square_diagram
from envs.stones.compiled import CHOSEN, COLOUR, COUNTS, OUTCOME, PHASE, PLAYER, SWAPPED, TURNS
from envs.stones.goals import no_sides

PIE_HORIZON = 4  # no rule looks at more than the first 4 turns (the pie rule's turn count)


NO_GOAL = 10**9  # the goal_stones of a game without a goal (Reversi): no count of stones reaches it


class Rules(abc.ABC):
    """What a person reads of a base game, and the constants its compiled rules take: the
    board's geometry, names, text and pictures, the goal's code.

    Subclasses set ``name`` and ``n`` and may change the defaults below: ``symbols``
    (text for empty, colour 1, colour 2, neutral), ``seat_names``, ``captures``
    (False: a stone may go on any empty cell and changes nothing else), ``pie_turn``
    (number of turns after which seat 1 may swap sides when the pie rule is on;
    None: no pie rule), ``symmetry_names`` (keys of ``envs.stones.board.DIHEDRAL``). The
    defaults describe a square board (names, text, board layout, the 8 symmetries); Hex and Y
    override them. A board that does not fill its n x n array (Y's triangle) holds ``OFF_BOARD`` on
    the other cells and sets ``off_board`` (a 0/1 float32 n x n plane, shown to the
    network); no stone ever goes there.
    """

    name: str
    n: int
    symbols = ".xo?"
    seat_names = ("x", "o")
    captures = False
    pie_turn: int | None = None
    symmetry_names = tuple(DIHEDRAL)
    transposition_swaps_colours = False  # True for Hex: a transposed board swaps the goals
    goal_stones = 1  # fewer stones than this cannot reach the goal (a cheap filter); NO_GOAL: never
    kernel_goal: int  # the goal's code (``envs.stones.goals``: GOAL_CHAIN, GOAL_LINE, GOAL_COUNT, GOAL_SIDES)
    neighbour_array = np.zeros((0, 6), np.int64)  # a chain goal's neighbours per cell, padded with -1
    off_board: np.ndarray | None = None
    goals = ("win", "win")  # what each colour plays for, in words (first colour, second)

    def initial_board(self) -> list[int]:
        return [EMPTY] * (self.n * self.n)

    def why_not_placeable(self, board: bytes, cell: int, colour: int) -> str:
        """Why a ``colour`` stone may not go on the empty ``cell`` (the placement rule's message)."""
        return f"a stone may not go on {self.cell_name(cell)}"

    @cached_property
    def goal_sides(self) -> np.ndarray:
        """uint8 ``[3, cells]``: per colour, the sides of its chain goal each cell lies on, as bits
        (``envs.stones.goals``); zeros for a goal that is not a chain."""
        return no_sides(self.n)

    def cell_name(self, cell: int) -> str:
        """The cell's name in records, ``e3``."""
        return cell_name(cell, self.n)

    def parse_cell(self, text: str) -> int:
        """The cell named ``text``; NotationError for bad text or a cell off the board."""
        return parse_cell(text, self.n)

    def symmetries(self, num_actions: int, last_plane: int) -> list[Symmetry]:
        """The maps ``symmetry_names`` of the n x n board. Where a transposition swaps the
        goals (Hex), it inverts ``last_plane`` (the mover holds the first colour)."""
        swaps = self.transposition_swaps_colours
        return [
            board_symmetry(name, self.n, num_actions, last_plane if swaps and "transpose" in name else None)
            for name in self.symmetry_names
        ]

    def diagram(self, symbols: Sequence[str]) -> list[str]:
        """Text lines of the board, one symbol per cell."""
        return square_diagram(symbols, self.n)

    def read_diagram(self, text: str) -> list[int]:
        """The board of a diagram: every line with exactly n cell symbols is a row, top to
        bottom (row numbers, column letters, indentation and a leading ``#`` ignored)."""
        symbols, n = self.symbols, self.n
        rows = []
        for line in text.splitlines():
            tokens = [t for t in line.lstrip("#").split() if len(t) == 1 and t in symbols]
            if len(tokens) == n:
                rows.append([symbols.index(t) for t in tokens])
        if len(rows) != n:
            raise NotationError(f"a {n}x{n} diagram needs {n} rows of {n} cells, found {len(rows)}")
        return [v for row in rows for v in row]

    @cached_property
    def layout(self):
        """The board's geometry for vector drawings (an ``envs.board_view.Layout``): by default
        an n x n grid of squares, row 1 at the top."""
        from envs.stones.view import square_stone_layout

        return square_stone_layout(self.n)


class StoneState(RowState):
    """A position: the stone games' row, its entries read by the names of
    ``envs.stones.compiled``'s docstring; ``board`` as bytes (a value per cell), ``counts`` as
    [empty, colour 1, colour 2, neutral], ``chosen`` as a tuple of cells (() at a turn's start)."""

    __slots__ = ()

    def _scalar(self, index: int) -> int:
        return int(self.row[int(self.row[-1]) + index])

    @property
    def board(self) -> bytes:
        return self.row[: self.row[-1]].astype(np.uint8).tobytes()

    colour = property(lambda self: self._scalar(COLOUR))
    swapped = property(lambda self: bool(self._scalar(SWAPPED)))
    turns = property(lambda self: self._scalar(TURNS))
    player = property(lambda self: self._scalar(PLAYER))
    outcome = property(lambda self: self._scalar(OUTCOME))
    phase = property(lambda self: self._scalar(PHASE))

    @property
    def counts(self) -> list[int]:
        cells = int(self.row[-1])
        return self.row[cells + COUNTS : cells + COUNTS + 4].tolist()

    @property
    def chosen(self) -> tuple[int, ...]:
        cells = int(self.row[-1])
        return tuple(c for c in self.row[cells + CHOSEN : cells + CHOSEN + 2].tolist() if c >= 0)

    def key(self) -> tuple:
        """Hashable identity of the position (for transposition tables)."""
        return (
            self.board,
            self.colour,
            self.swapped,
            min(self.turns, PIE_HORIZON),
            self.phase,
            self.chosen,
            self.player,
        )

    def seat_of(self, colour: int) -> int:
        return (colour - 1) ^ self.swapped


class StoneGame(RowGame):
    """A plain placement game: one stone per turn (Hex, Y, Gomoku, Reversi).

    Actions: cell ``r * n + c`` (r = 0 is row 1, the top row), then ``PASS`` =
    n*n (Reversi only, when no placement is legal), then ``SWAP_SIDES`` = n*n + 1
    (the pie rule, where on). Turn text: ``e3``, ``pass``, ``swap-sides``.
    The game ends when a turn reaches the goal (Hex, Y, Gomoku) or when neither side
    can move (a full board; Reversi: no legal placement for either side).

    Observation planes (mover's view): 0 the mover's stones, 1 the opponent's,
    then the cells off the board (where ``rules.off_board`` marks some), then pie swap available now, then
    the mover holds the first colour (all ones or all zeros).
    """

    PLANES = ("mover's stones", "opponent's stones")
    state_class = StoneState

    def __init__(self, rules: Rules, pie_rule: bool = False, name: str | None = None):
        """``name``: the registry name, when it is not the base game's (``rules.name``)."""
        if not isinstance(pie_rule, (bool, np.bool_)):
            raise ValueError(f"pie_rule must be true or false, got {pie_rule!r}")
        if pie_rule and rules.pie_turn is None:
            raise ValueError(f"pie_rule: {rules.name} has no pie rule")
        self.rules = rules
        self.n = n = rules.n
        self.num_cells = n * n
        self.PASS = n * n
        self.SWAP_SIDES = n * n + 1
        self.pie_turn = rules.pie_turn if pie_rule else None
        self._player = n * n + PLAYER  # where a row holds the seat to move
        params = {"size": n} | ({"pie_rule": bool(pie_rule)} if rules.pie_turn is not None else {})
        info = GameInfo(
            name=name or rules.name,
            seat_names=rules.seat_names,
            num_actions=n * n + 2,
            obs_shape=(len(self.PLANES) + (rules.off_board is not None) + 2, n, n),
            max_decisions=self.max_decisions(),
            params=params,
        )
        context, self._begin, self._play, self._extra, max_legal = self._rules_kernels()
        super().__init__(info, context, self._row(rules.initial_board(), FIRST, 0, context), max_legal)

    BOUND = (*RowGame.BOUND, "_playout")

    def _bind(self) -> None:
        super()._bind()
        self._playout = bound(self._play, self.context, self.start, 0)

    def _rules_kernels(self):
        """The compiled rules: (context, begin, play, entries after the scalars, most legal actions)."""
        rules, n, pie_turn = self.rules, self.n, -1 if self.pie_turn is None else self.pie_turn
        if rules.captures:
            return compiled.flanking_context(n), compiled.flanking_begin, compiled.flanking_play, 0, n * n
        context = compiled.placement_context(n, rules.kernel_goal, pie_turn, rules.neighbour_array, rules.goal_sides)
        room = compiled.chain_room(rules.kernel_goal, n * n)
        return context, compiled.placement_begin, compiled.placement_play, room, n * n + 1

    def _row(self, board: Sequence[int], colour: int, turns: int, context=None) -> np.ndarray:
        """The row of a turn's start: ``board``, ``colour`` to move after ``turns`` turns."""
        row = compiled.new_row(np.asarray(board, np.int32), self._extra, colour, turns)
        self._begin(self.context if context is None else context, row)
        return row

    def turn_kind(self, state: StoneState, actions) -> str:
        first = actions[0]
        if first == self.PASS:
            return "pass"
        if first == self.SWAP_SIDES:
            return "swap-sides"
        return "place"

    def max_decisions(self) -> int:
        # Reversi: every placement fills a cell, a pass is never followed by a pass
        return 2 * self.num_cells + 1

    # --- transitions: envs.kit.RowGame's over the compiled rules ---------------------------------
    def to_play(self, state: StoneState) -> int:
        return int(state.row[self._player])  # read from the row: quicker than a kernel call

    def from_diagram(self, text: str, to_move: str, turns: int = PIE_HORIZON) -> StoneState:
        """A position from a board diagram, ``to_move`` the symbol of the colour to move.

        The cell symbols are ``.``, the two colour letters and ``?``; ``rules.read_diagram``
        reads the rows (row numbers, column letters, indentation and a leading ``#``
        are ignored, so the seed's diagrams and ``render_text`` both read back).
        Seat 0 holds the first colour; ``turns`` counts the turns played (it matters
        only for the pie rule).
        """
        symbols = self.rules.symbols
        if len(to_move) != 1 or to_move not in symbols[1:3]:
            raise NotationError(f"to_move must be {symbols[1]!r} or {symbols[2]!r}, got {to_move!r}")
        return StoneState(self._row(self.rules.read_diagram(text), symbols.index(to_move), turns))

    def random_playout(self, state: StoneState, rng: np.random.Generator) -> tuple[tuple[float, float], int, int]:
        """Uniformly random legal actions from ``state`` (left untouched) to the end: (returns,
        decisions, turns). One seed from ``rng`` (``playout_seed``) starts a stream of
        ``envs.kernels.draw``, one draw per decision over the legal actions in order, in one
        numba kernel (the game ``Game.engine_playout`` plays for that seed; the tests check it)."""
        outcome, decisions, turns, swapped = self._playout(self.context, state.row, playout_seed(rng))
        if outcome == 0:
            return (0.0, 0.0), int(decisions), int(turns)
        seat = (int(outcome) - 1) ^ bool(swapped)
        return ((1.0, -1.0) if seat == 0 else (-1.0, 1.0)), int(decisions), int(turns)

    # --- errors in the game's words ------------------------------------------------------------------
    def illegal_text(self, state: StoneState, action: int) -> str:
        return f"{self._describe(action)}: {self.illegal_reason(state, action)}"

    def illegal_reason(self, state: StoneState, action: int) -> str:
        if action == self.SWAP_SIDES:
            return self._pie_message(state)
        if action == self.PASS:
            return "pass is legal only when no placement is"
        board = state.board
        if board[action] == OFF_BOARD:
            return f"cell {action} is not on the board"
        if board[action] != EMPTY:
            return f"cell {self.rules.cell_name(action)} is occupied"
        return self.rules.why_not_placeable(board, action, state.colour)

    def _pie_message(self, state: StoneState) -> str:
        if self.pie_turn is None:
            return "swap-sides: the pie rule is off in this game"
        return f"swap-sides is legal only as seat 1's answer to the first {self.pie_turn} turn(s)"

    # --- observation and symmetry -----------------------------------------------------------
    def symmetries(self) -> list[Symmetry]:
        """Board maps the rules are invariant under, identity first (``rules.symmetries``).

        For Hex a transposition also swaps the two goals, so it inverts the last
        plane (the mover holds Vertical) while the mover's stones stay the mover's.
        """
        return self.rules.symmetries(self.info.num_actions, self.info.obs_shape[0] - 1)

    # --- text ------------------------------------------------------------------------------------
    def action_to_text(self, state: StoneState, action: int) -> str:
        action = int(action)
        if not 0 <= action <= self.SWAP_SIDES:
            raise IllegalActionError(f"action {action} is out of range 0..{self.SWAP_SIDES}")
        return self._describe(action)

    def _describe(self, action: int) -> str:
        if action == self.PASS:
            return "pass"
        if action == self.SWAP_SIDES:
            return "swap-sides"
        if self.rules.off_board is not None and self.rules.off_board.flat[action]:
            return f"cell {action} (off the board)"
        return self.rules.cell_name(action)

    def parse_action(self, word: str) -> int:
        """One word of a turn: a cell, ``pass`` or ``swap-sides``."""
        word = word.strip().lower()
        if word == "pass":
            return self.PASS
        if word == "swap-sides":
            return self.SWAP_SIDES
        return self.rules.parse_cell(word)

    def parse_turn(self, state: StoneState, text: str) -> list[int]:
        """``e3`` (a placement), ``pass`` or ``swap-sides``."""
        words = turn_text(text).split()
        if len(words) != 1:
            raise NotationError(
                f"cannot read {self.info.name} turn {text!r}: expected one cell, 'pass' or 'swap-sides'"
            )
        actions = [self.parse_action(words[0])]
        self._check_turn(state, text, actions)
        return actions

    def _check_turn(self, state: StoneState, text: str, actions: list[int]) -> None:
        """Play ``actions`` on a copy: they must be legal and make exactly one whole turn."""
        if self.to_play(state) == TERMINAL:
            raise GameOverError(f"{text!r}: the game is over")
        trial = state.copy()
        for number, action in enumerate(actions):
            if number and trial.phase == 0:
                raise IllegalActionError(f"{text!r}: the turn is complete before {self._describe(action)!r}")
            self.apply(trial, action)
        if trial.phase != 0:
            raise IllegalActionError(f"{text!r} is not a whole turn: {self._step_text(trial).strip(' ,')}")

    def render_text(self, state: StoneState) -> str:
        symbols = [self.rules.symbols[v] if v != OFF_BOARD else " " for v in state.board]
        return "\n".join(self.rules.diagram(symbols) + [self.status(state)])

    def status(self, state: StoneState) -> str:
        """One line: who is to move (and in which micro-step), or the result."""
        names = self.rules.seat_names
        if state.player == TERMINAL:
            if state.outcome == 0:
                return "draw"
            return f"{names[state.seat_of(state.outcome)]} ({self.rules.symbols[state.outcome]}) wins"
        return f"{names[state.player]} ({self.rules.symbols[state.colour]}) to move{self._step_text(state)}"

    def _step_text(self, state: StoneState) -> str:
        return ""

    def goal_text(self, seat: int) -> str:
        # seat 0 holds the first colour until a pie swap, which the opening line precedes
        return f"{self.rules.goals[seat]} (your stones are {self.rules.symbols[seat + 1]})"

    def board_view(self, state: StoneState):
        from envs.stones.view import stone_board_view

        return stone_board_view(self, state)
