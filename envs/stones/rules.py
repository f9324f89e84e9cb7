"""What Hex, Gomoku and Reversi share: stones of two colours on an n x n grid.

A base game is a :class:`Rules` object (geometry, where a stone may go, what it
captures, the goal); :class:`StoneGame` turns one into a :class:`~envs.core.Game`
with one placement per turn (plain Hex, Gomoku, Reversi), and
:class:`envs.neutral.mutator.NeutralGame` into the neutral-mutator game over it.

Colours, not seats, are on the board: colour 1 (``x``, Hex's Vertical) moves
first and belongs to seat 0 until the pie rule (``swap-sides``) hands the
colours over; seats keep their numbers (docs/rules.md, the neutral mutator).
"""

from __future__ import annotations

import abc
from bisect import bisect_left, insort
from functools import cached_property, lru_cache
from itertools import compress
from typing import Sequence

import numpy as np

from envs.core import (
    TERMINAL,
    Game,
    GameInfo,
    GameOverError,
    IllegalActionError,
    NotationError,
    Symmetry,
    turn_text,
)
from envs.kernels import (
    EMPTY,
    FIRST,
    GOAL_COUNT,
    NEUTRAL,
    OFF_BOARD,
    SECOND,
    draw,
    playout_seed,
)
from envs.stones.board import (
    DIHEDRAL,
    board_symmetry,
    cell_name,
    parse_cell,
    square_diagram,
)
from envs.stones.goals import no_sides, outcome_at_end, reached
from envs.stones.playout import placement_playout

PIE_HORIZON = 4  # no rule looks at more than the first 4 turns (the pie rule's turn count)


NO_GOAL = 10**9  # the goal_stones of a game without a goal (Reversi): no count of stones reaches it


class Rules(abc.ABC):
    """A base game's rules as pure queries over a flat board of colours.

    Subclasses set ``name`` and ``n`` and may change the defaults below: ``symbols``
    (text for empty, colour 1, colour 2, neutral), ``seat_names``, ``captures``
    (False: a stone may go on any empty cell and changes nothing else), ``pie_turn``
    (number of turns after which seat 1 may swap sides when the pie rule is on;
    None: no pie rule), ``symmetry_names`` (keys of ``envs.stones.board.DIHEDRAL``),
    ``orientation`` (text for the last observation plane). The defaults describe a
    square board (names, text, board layout, the 8 symmetries); Hex and Y override them.
    A board that does not fill its n x n array (Y's triangle) holds ``OFF_BOARD`` on
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
    goal_stones = 1  # fewer stones than this cannot reach the goal (a cheap filter before ``wins``); NO_GOAL: never
    kernel_goal: int  # the goal's code (``envs.stones.goals``: GOAL_CHAIN, GOAL_LINE, GOAL_COUNT, GOAL_SIDES)
    neighbour_array = np.zeros((0, 6), np.int64)  # a chain goal's neighbours per cell, padded with -1
    off_board: np.ndarray | None = None
    orientation = "the mover holds x, the first colour"
    goals = ("win", "win")  # what each colour plays for, in words (first colour, second)

    def initial_board(self) -> list[int]:
        return [EMPTY] * (self.n * self.n)

    def flips(self, board: bytearray, cell: int, colour: int) -> list[int] | None:
        """Cells a ``colour`` stone on ``cell`` turns friendly, or None if it may not go there.

        ``cell`` is empty, or neutral during a neutral-game swap. Default: no captures.
        """
        return []

    def why_not_placeable(self, board: bytearray, cell: int, colour: int) -> str:
        """Why a ``colour`` stone may not go on the empty ``cell`` (the placement rule's message)."""
        return f"a stone may not go on {self.cell_name(cell)}"

    def placements(self, board: bytearray, colour: int, value: int) -> list[int]:
        """The cells holding ``value`` (empty, or neutral) where a ``colour`` stone may go."""
        return cells_with(board, value)

    def placements_after(self, board: bytearray, cell: int, colour: int, value: int) -> list[int]:
        """``placements`` once a ``colour`` stone has gone on ``cell`` (with its captures)."""
        after = board[:]
        for other in [cell, *(self.flips(board, cell, colour) or ())]:
            after[other] = colour
        return self.placements(after, colour, value)

    def swap_starts(self, board: bytearray, colour: int) -> list[int]:
        """The neutral cells where a ``colour`` stone may go and leave a neutral where one may go
        next (the first two steps of a neutral-game swap, with captures)."""
        return [c for c in self.placements(board, colour, NEUTRAL) if self.placements_after(board, c, colour, NEUTRAL)]

    @cached_property
    def goal_sides(self) -> np.ndarray:
        """uint8 ``[3, cells]``: per colour, the sides of its chain goal each cell lies on, as bits
        (``envs.stones.goals``); zeros for a goal that is not a chain."""
        return no_sides(self.n)

    def wins(self, board: Sequence[int], colour: int, cells: Sequence[int]) -> bool:
        """Whether ``colour`` has reached the goal after a turn that made ``cells`` its own."""
        goal, n, neighbours, sides = self.kernel_goal, self.n, self.neighbour_array, self.goal_sides
        return any(reached(board, n, goal, colour, cell, neighbours, sides) for cell in cells)

    def chains(self, board: bytearray) -> np.ndarray | None:
        """A structure that ``link`` keeps up to date as stones are added, to judge the goal
        without a search (Hex's union-find), or None: ``wins`` judges every turn."""
        return None

    def link(self, chains: np.ndarray, board: bytearray, cell: int) -> bool:
        """Add the stone just placed on ``cell`` to ``chains``: whether its colour has now
        reached the goal (the same answer as ``wins`` for that turn)."""
        raise NotImplementedError

    def final_outcome(self, board: Sequence[int], counts: Sequence[int]) -> int:
        """The winning colour (1, 2) or 0 for a draw when neither side can move any more."""
        goal, n, neighbours, sides = self.kernel_goal, self.n, self.neighbour_array, self.goal_sides
        return outcome_at_end(board, counts[FIRST], counts[SECOND], n, goal, neighbours, sides)

    def playout(self, board: bytearray, colour: int, turns: int, pie_turn: int, seed: int):
        """Uniformly random plain play from a turn start to the end in one kernel, drawing from
        the ``envs.kernels.draw`` stream at ``seed``: (outcome colour or 0, decisions, turns,
        sides swapped), or None without a kernel. ``pie_turn`` is -1 without the pie rule.
        A placement game's goal (Hex, Y, Gomoku) is played by ``envs.stones.playout``."""
        if self.kernel_goal == GOAL_COUNT:
            return None
        return placement_playout(
            board, self.n, colour, turns, pie_turn, self.kernel_goal, self.neighbour_array, self.goal_sides, seed
        )

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


@lru_cache(maxsize=None)
def _table(values: tuple[int, ...]) -> bytes:
    return bytes(int(v in values) for v in range(256))


def cells_with(board: bytearray, *values: int) -> list[int]:
    """The cells whose value is one of ``values``, in order (at C speed)."""
    return list(compress(range(len(board)), board.translate(_table(values))))


class StoneState:
    """A position: board of colours, whose colour moves, micro-step, pie, cached legal actions.

    ``counts`` = [empty, colour 1, colour 2, neutral]; ``empty_cells`` and ``neutral_cells``
    list those cells in order (no stone ever leaves the board, so the first only shrinks);
    ``phase`` and ``chosen`` belong to the neutral games' micro-steps (0 and () otherwise);
    ``legal`` is a cache of the legal actions (None until asked for, reset by every action);
    ``chains`` is ``Rules.chains`` for the games that keep one (None otherwise).
    """

    __slots__ = (
        "board",
        "counts",
        "empty_cells",
        "neutral_cells",
        "colour",
        "swapped",
        "turns",
        "phase",
        "chosen",
        "player",
        "outcome",
        "legal",
        "chains",
    )

    def __init__(self, board: Sequence[int]):
        self.board = bytearray(board)
        self.counts = [self.board.count(v) for v in (EMPTY, FIRST, SECOND, NEUTRAL)]
        self.empty_cells = cells_with(self.board, EMPTY)
        self.neutral_cells = cells_with(self.board, NEUTRAL)
        self.colour = FIRST
        self.swapped = False
        self.turns = 0
        self.phase = 0
        self.chosen: tuple[int, ...] = ()
        self.player = 0
        self.outcome = -1  # at the end: winning colour, or 0 for a draw
        self.legal: list[int] | None = None
        self.chains: np.ndarray | None = None

    def copy(self) -> "StoneState":
        other = StoneState.__new__(StoneState)
        other.board = self.board[:]
        other.counts = self.counts[:]
        other.empty_cells = self.empty_cells[:]
        other.neutral_cells = self.neutral_cells[:]
        other.colour = self.colour
        other.swapped = self.swapped
        other.turns = self.turns
        other.phase = self.phase
        other.chosen = self.chosen
        other.player = self.player
        other.outcome = self.outcome
        other.legal = self.legal
        other.chains = None if self.chains is None else self.chains.copy()
        return other

    def key(self) -> tuple:
        """Hashable identity of the position (for transposition tables)."""
        return (
            bytes(self.board),
            self.colour,
            self.swapped,
            min(self.turns, PIE_HORIZON),
            self.phase,
            self.chosen,
            self.player,
        )

    def seat_of(self, colour: int) -> int:
        return (colour - 1) ^ self.swapped


class StoneGame(Game):
    """A plain placement game: one stone per turn (Hex, Gomoku, Reversi).

    Actions: cell ``r * n + c`` (r = 0 is row 1, the top row), then ``PASS`` =
    n*n (Reversi only, when no placement is legal), then ``SWAP_SIDES`` = n*n + 1
    (the pie rule, where on). Turn text: ``e3``, ``pass``, ``swap-sides``.
    The game ends when a turn reaches the goal (Hex, Gomoku) or when neither side
    can move (a full board; Reversi: no legal placement for either side).

    Observation planes (mover's view): 0 the mover's stones, 1 the opponent's,
    then the cells off the board (where ``rules.off_board`` marks some), then pie swap available now, then
    ``rules.orientation`` (all ones or all zeros).
    """

    PLANES = ("mover's stones", "opponent's stones")
    keeps_chains = True  # judge a placement by ``rules.link`` where the rules keep ``chains``

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
        self._compiled = None
        params = {"size": n} | ({"pie_rule": bool(pie_rule)} if rules.pie_turn is not None else {})
        self.info = GameInfo(
            name=name or rules.name,
            seat_names=rules.seat_names,
            num_actions=n * n + 2,
            obs_shape=(len(self.PLANES) + (rules.off_board is not None) + 2, n, n),
            max_decisions=self.max_decisions(),
            params=params,
        )

    def compiled(self):
        """``envs.stones.compiled``'s rules: a plain placement game's (no captures, a goal) or
        Reversi's (captures, the count), else None."""
        if self.rules.captures != (self.rules.kernel_goal == GOAL_COUNT):
            return None  # neither
        if self._compiled is None:
            from envs.stones.compiled import FlankingRows, PlacementRows

            self._compiled = (FlankingRows if self.rules.captures else PlacementRows)(self)
        return self._compiled

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

    # --- transitions -------------------------------------------------------------------
    def initial_state(self) -> StoneState:
        state = self._new_state(self.rules.initial_board())
        self._start_turn(state)
        return state

    def _new_state(self, board: Sequence[int]) -> StoneState:
        state = StoneState(board)
        if self.keeps_chains:
            state.chains = self.rules.chains(state.board)
        return state

    def to_play(self, state: StoneState) -> int:
        return state.player

    def legal_actions(self, state: StoneState) -> list[int]:
        legal = state.legal
        if legal is None:
            legal = state.legal = self._legal(state) if state.player != TERMINAL else []
        return legal[:]

    def apply(self, state: StoneState, action: int) -> None:
        legal = state.legal
        if legal is None:
            if state.player == TERMINAL:
                raise GameOverError(f"action {action}: the game is over")
            legal = state.legal = self._legal(state)
        if type(action) is not int:
            action = self.check_action(state, action)
        index = bisect_left(legal, action)  # legal actions are in increasing order
        if index == len(legal) or legal[index] != action:
            self.check_action(state, action)
            raise IllegalActionError(f"{self._describe(action)}: {self._why_illegal(state, action)}")
        if action == self.SWAP_SIDES:
            self._swap_sides(state)
        elif action == self.PASS:
            self._end_turn(state, ())
        else:
            self._play(state, action)

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
        state = self._new_state(self.rules.read_diagram(text))
        state.colour, state.turns = symbols.index(to_move), turns
        self._start_turn(state)
        return state

    def returns(self, state: StoneState) -> tuple[float, float]:
        if state.player != TERMINAL or state.outcome == 0:
            return (0.0, 0.0)
        return (1.0, -1.0) if state.seat_of(state.outcome) == 0 else (-1.0, 1.0)

    def random_playout(self, state: StoneState, rng: np.random.Generator) -> tuple[tuple[float, float], int, int]:
        """Uniformly random legal actions from ``state`` (left untouched) to the end.

        Returns (returns, decisions, turns). One seed from ``rng`` (``playout_seed``)
        starts a stream of ``envs.kernels.draw``, one draw per decision over the legal
        actions in order. A turn already begun is finished by this loop; from a turn
        start a numba kernel plays the rest, drawing exactly as this loop would, so
        both play the same game; the tests check it.
        """
        given, decisions, turns = state, 0, 0
        seed = playout_seed(rng)
        while state.player != TERMINAL:
            if state.phase == 0:  # the kernels run from a turn start
                pie_turn = -1 if self.pie_turn is None or state.swapped else self.pie_turn
                result = self._kernel_playout(state, pie_turn, seed)
                if result is not None:
                    outcome, kernel_decisions, kernel_turns, swapped = result
                    decisions, turns = decisions + kernel_decisions, turns + kernel_turns
                    if outcome == 0:
                        return (0.0, 0.0), decisions, turns
                    seat = (outcome - 1) ^ (state.swapped or swapped)
                    return ((1.0, -1.0) if seat == 0 else (-1.0, 1.0)), decisions, turns
            if state is given:  # the loop plays on a copy
                state = state.copy()
            legal = self.legal_actions(state)
            index, seed = draw(seed, len(legal))
            self.apply(state, legal[index])
            decisions += 1
            turns += state.phase == 0
        return self.returns(state), decisions, turns

    def _kernel_playout(self, state: StoneState, pie_turn: int, seed: int):
        return self.rules.playout(state.board, state.colour, state.turns, pie_turn, seed)

    # --- the turn structure (the mutator overrides these) ---------------------------------------
    def _legal(self, state: StoneState) -> list[int]:
        return self._opening(state, self._moves(state, state.colour))

    def _opening(self, state: StoneState, moves: list[int]) -> list[int]:
        """The actions at a turn start, given the cells that start a turn."""
        if not moves:  # _start_turn left the game running, so the other side can move
            return [self.PASS]
        if state.turns == self.pie_turn and self._pie_available(state):
            return moves + [self.SWAP_SIDES]
        return moves

    def _moves(self, state: StoneState, colour: int) -> list[int]:
        """Cells where ``colour`` may start a turn."""
        if not self.rules.captures:
            return state.empty_cells[:]
        return self.rules.placements(state.board, colour, EMPTY)

    def _play(self, state: StoneState, cell: int) -> None:
        self._place(state, cell, state.colour)
        if state.chains is None:
            self._end_turn(state, (cell,))
        else:
            self._end_turn(state, (cell,), self.rules.link(state.chains, state.board, cell))

    def _why_illegal(self, state: StoneState, action: int) -> str:
        if action == self.SWAP_SIDES:
            return self._pie_message(state)
        if action == self.PASS:
            return "pass is legal only when no placement is"
        if state.board[action] == OFF_BOARD:
            return f"cell {action} is not on the board"
        if state.board[action] != EMPTY:
            return f"cell {self.rules.cell_name(action)} is occupied"
        return self.rules.why_not_placeable(state.board, action, state.colour)

    # --- shared machinery --------------------------------------------------------------------
    def _set(self, state: StoneState, cell: int, value: int) -> None:
        counts, old = state.counts, state.board[cell]
        if old == EMPTY:
            del state.empty_cells[bisect_left(state.empty_cells, cell)]
        elif old == NEUTRAL:
            del state.neutral_cells[bisect_left(state.neutral_cells, cell)]
        if value == NEUTRAL:
            insort(state.neutral_cells, cell)
        counts[old] -= 1
        counts[value] += 1
        state.board[cell] = value

    def _place(self, state: StoneState, cell: int, colour: int) -> list[int]:
        """Put a ``colour`` stone on ``cell`` with its captures; return the captured cells."""
        flips = self.rules.flips(state.board, cell, colour) if self.rules.captures else ()
        self._set(state, cell, colour)
        for other in flips:
            self._set(state, other, colour)
        return flips

    def _pie_available(self, state: StoneState) -> bool:
        return state.turns == self.pie_turn and not state.swapped and state.phase == 0

    def _pie_message(self, state: StoneState) -> str:
        if self.pie_turn is None:
            return "swap-sides: the pie rule is off in this game"
        return f"swap-sides is legal only as seat 1's answer to the first {self.pie_turn} turn(s)"

    def _swap_sides(self, state: StoneState) -> None:
        # seat 1 takes the first colour's stones; the second colour, now seat 0's, moves next
        state.swapped = True
        state.turns += 1
        state.player = state.seat_of(state.colour)
        state.legal = None

    def _can_move(self, state: StoneState, colour: int) -> bool:
        if not self.rules.captures:  # a stone may go on any empty cell (the neutral games: or neutral)
            return state.counts[EMPTY] + state.counts[NEUTRAL] > 0
        return bool(self._moves(state, colour))

    def _end_turn(self, state: StoneState, cells: Sequence[int], won: bool | None = None) -> None:
        """Judge the finished turn as a whole (``won``: already judged by ``rules.link``), then
        hand the move over (or end the game)."""
        mover = state.colour
        state.turns += 1
        state.phase, state.chosen, state.legal = 0, (), None
        if won is None:
            rules = self.rules
            won = bool(cells) and state.counts[mover] >= rules.goal_stones and rules.wins(state.board, mover, cells)
        if won:
            state.outcome, state.player = mover, TERMINAL
            return
        state.colour = 3 - mover
        self._start_turn(state)

    def _start_turn(self, state: StoneState) -> None:
        colour = state.colour
        if self.rules.captures:
            moves = self._moves(state, colour)
            if moves or self._can_move(state, 3 - colour):  # with nothing to do it must pass
                state.player = state.seat_of(colour)
                state.legal = self._opening(state, moves)
                return
        elif self._can_move(state, colour):  # then the other side could move too
            state.player = state.seat_of(colour)
            return
        state.outcome = self.rules.final_outcome(state.board, state.counts)
        state.player = TERMINAL

    # --- observation and symmetry -----------------------------------------------------------
    def observe(self, state: StoneState) -> np.ndarray:
        n, mover = self.n, state.colour
        board = np.frombuffer(state.board, dtype=np.uint8).reshape(n, n)
        planes = np.zeros(self.info.obs_shape, dtype=np.float32)
        planes[0] = board == mover
        planes[1] = board == 3 - mover
        self._extra_planes(state, board, planes)
        if self.rules.off_board is not None:
            planes[len(self.PLANES)] = self.rules.off_board
        planes[-2] = self._pie_available(state) and state.player != TERMINAL
        planes[-1] = mover == FIRST
        return planes

    def _extra_planes(self, state: StoneState, board: np.ndarray, planes: np.ndarray) -> None:
        """Planes 2.. before the last two (the neutral games add theirs here)."""

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
        if state.player == TERMINAL:
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
