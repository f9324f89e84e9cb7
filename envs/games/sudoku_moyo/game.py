"""Sudoku Moyo: two players fill one Sudoku grid, each in its own four boxes
around a neutral centre that is filled first (docs/games/sudoku_moyo.md).

Cells (index = (row - 1) * 9 + column), row 9 is north; boxes and owners
(L light = seat 0, D dark = seat 1, C the neutral centre)::

    9 | 72 .. 80      NW L | N L | NE D
    ..                W  D | C   | E  L
    1 |  0 ..  8      SW L | S D | SE D
         a .. i

Action = 9 * cell + (digit - 1). A half turn maps light's boxes onto dark's.
The setup puzzle is a chance node whose outcome is a puzzle number; the number
picks a proper puzzle from a seeded generator (:mod:`envs.games.sudoku_moyo.kernels`).
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from envs.core import (
    CHANCE,
    TERMINAL,
    Game,
    GameInfo,
    IllegalActionError,
    NotationError,
    Symmetry,
    turn_text,
)
from envs.games.sudoku_moyo.kernels import (
    ALL_DIGITS,
    BOX_OF_CELL,
    BOX_OWNER,
    CELL_OWNER,
    NEUTRAL,
    count_placements,
    count_solutions,
    placements,
    planes,
    puzzle,
    random_playout,
    start_turn,
)
from envs.kernels import playout_seed

SIZE = 9
NUM_CELLS = SIZE * SIZE
NUM_ACTIONS = NUM_CELLS * 9
COLUMNS = "abcdefghi"
SEAT_NAMES = ("light", "dark")
BOX_NAMES = ("SW", "S", "SE", "W", "C", "E", "NW", "N", "NE")  # box index = band * 3 + stack, bottom band first
DEFAULT_GIVENS = 26
MIN_GIVENS, MAX_GIVENS = 22, 80  # below 22 random removal rarely finds a proper puzzle quickly
PUZZLE_COUNT = 2**16  # the setup chance: puzzle numbers 0 .. PUZZLE_COUNT - 1, equally likely
NUM_PLANES = 23
SYMMETRY_SAMPLE = 256  # how many elements of the symmetry group symmetries() lists

ROW_OF_CELL = tuple(cell // SIZE for cell in range(NUM_CELLS))
COL_OF_CELL = tuple(cell % SIZE for cell in range(NUM_CELLS))
BOX_OF = tuple(int(b) for b in BOX_OF_CELL)
OWNER_OF = tuple(int(o) for o in CELL_OWNER)


def cell_name(cell: int) -> str:
    return f"{COLUMNS[cell % SIZE]}{cell // SIZE + 1}"


def owner_name(owner: int) -> str:
    return "the centre" if owner == NEUTRAL else SEAT_NAMES[owner]


class SudokuMoyoState:
    """Digits, which of them are givens, used-digit masks per row, column and box,
    whose turn, and whether the opening (the centre first) is still on."""

    __slots__ = ("grid", "given", "rows", "cols", "boxes", "player", "stuck", "opening", "puzzle")

    def __init__(self):
        self.grid = bytearray(NUM_CELLS)
        self.given = bytes(NUM_CELLS)
        self.rows, self.cols, self.boxes = [0] * SIZE, [0] * SIZE, [0] * SIZE
        self.player = CHANCE
        self.stuck = -1  # at the end: the seat that could not place (it loses)
        self.opening = True
        self.puzzle: int | None = None  # the drawn puzzle number

    def copy(self) -> "SudokuMoyoState":
        other = SudokuMoyoState.__new__(SudokuMoyoState)
        other.grid = self.grid[:]
        other.given = self.given
        other.rows, other.cols, other.boxes = self.rows[:], self.cols[:], self.boxes[:]
        other.player, other.stuck, other.opening, other.puzzle = self.player, self.stuck, self.opening, self.puzzle
        return other

    def key(self) -> tuple:
        """Hashable identity of the position (givens do not change the play)."""
        return (bytes(self.grid), self.player)

    def candidates(self, cell: int) -> int:
        """Bit mask of the digits that fit an empty ``cell`` (0 for a filled one)."""
        if self.grid[cell]:
            return 0
        return ALL_DIGITS & ~(self.rows[ROW_OF_CELL[cell]] | self.cols[COL_OF_CELL[cell]] | self.boxes[BOX_OF[cell]])

    def moves_in(self, owner: int) -> list[int]:
        """The placements (actions) on the empty cells of ``owner``'s boxes, in order."""
        return placements(self.grid, owner).tolist()

    def has_move_in(self, owner: int) -> bool:
        return count_placements(self.grid, owner) > 0

    def place(self, cell: int, digit: int) -> None:
        bit = 1 << (digit - 1)
        self.grid[cell] = digit
        self.rows[ROW_OF_CELL[cell]] |= bit
        self.cols[COL_OF_CELL[cell]] |= bit
        self.boxes[BOX_OF[cell]] |= bit


class SudokuMoyo(Game):
    """The rules of Sudoku Moyo (``SudokuMoyo-v0``).

    ==============  ==============================================================
    Seats           0 = light (moves first; boxes NW, N, E, SW), 1 = dark (NE, W,
                    S, SE); the centre box C (d4-f6) is neutral
    Setup (chance)  without ``puzzle``: the start is a chance node whose outcomes
                    are the puzzle numbers 0..65535, equally likely; number ``n``
                    is the proper puzzle (exactly one completion) with ``givens``
                    digits that the seeded generator makes from ``n``, the same
                    on every machine. Players, self-play and the env draw it with
                    ``sample_chance`` (O(1)); ``chance_outcomes`` lists all 65536,
                    so a search rooted at the setup would expand them all: search
                    starts after it, at the first placement. With ``puzzle`` (81
                    characters, row 9 first, ``1``-``9`` givens, ``.`` or ``0``
                    empty; or a puzzle number) there is no chance node
    Actions         ``Discrete(729)``: ``9 * cell + digit - 1``, cell = (row-1)*9 +
                    col; legal: an empty cell where the digit is in none of the
                    cell's row, column and box; in the centre while the centre has
                    such a placement, afterwards in the mover's own boxes
    Observation     ``(23, 9, 9)`` float32, plane[p, row-1, col], from the mover's
                    view: 0-8 digit 1-9 on the cell, 9 the mover's boxes,
                    10 the opponent's boxes, 11 givens, 12-20 digit 1-9 fits the
                    empty cell, 21 cells the mover may fill now, 22 dead cells (empty,
                    no digit fits); all zeros at the setup chance node
    Returns         +1 for the seat that placed last, -1 for the seat that cannot
                    place (no passes, no draws)
    Termination     the seat to move has no legal placement
    Symmetries      digit relabelling (9!) x permuting the rows within each band and
                    the columns within each stack (6^6) x the half turn, which swaps
                    the players and so keeps the mover's view; ``symmetries()``
                    lists the identity and 255 seeded elements of this group
    Notation        ``e5=7`` (digit 7 on e5); the setup outcome is ``puzzle=N``,
                    written before the first placement: ``puzzle=123 e5=7``
    Arguments       ``givens`` (22-80, default 26) for drawn puzzles; ``puzzle``;
                    ``size`` must be 9 (there so that ``game.size`` exists for every game);
                    ``moves``: turns played after the puzzle's setup (a position to
                    start from, e.g. an endgame for the solver), needs ``puzzle``
    ==============  ==============================================================
    """

    def __init__(
        self, givens: int | None = None, puzzle: str | int | None = "", moves: str | None = "", size: int = SIZE
    ):
        # ``size`` is accepted so that ``game.size`` exists for every game; the grid is fixed.
        if size != SIZE:
            raise ValueError(f"Sudoku Moyo is played on the {SIZE}x{SIZE} grid: size must be {SIZE}, got {size}")
        if givens is not None and (isinstance(givens, bool) or not isinstance(givens, (int, np.integer))):
            raise ValueError(f"givens must be an integer from {MIN_GIVENS} to {MAX_GIVENS}, got {givens!r}")
        if givens is not None and not MIN_GIVENS <= givens <= MAX_GIVENS:
            raise ValueError(f"givens must be from {MIN_GIVENS} to {MAX_GIVENS}, got {givens}")
        self.givens = DEFAULT_GIVENS if givens is None else int(givens)
        self.start: SudokuMoyoState | None = None  # the fixed start, when the puzzle is given
        self._compiled = None
        puzzle = None if puzzle == "" else puzzle  # "" as in the game config: drawn
        moves = None if moves == "" else moves
        if puzzle is not None:
            self.start = self._puzzle_state(puzzle)
            if givens is not None and sum(self.start.given) != givens:
                raise ValueError(f"givens={givens} but the puzzle has {sum(self.start.given)} givens")
            self.givens = sum(self.start.given)
        # every key always present, "" for none: configs and record headers carry them as they are
        params = {"givens": self.givens, "puzzle": "" if puzzle is None else puzzle_text(self.start), "moves": ""}
        self.info = GameInfo(
            name="sudoku_moyo",
            seat_names=SEAT_NAMES,
            num_actions=NUM_ACTIONS,
            obs_shape=(NUM_PLANES, SIZE, SIZE),
            max_decisions=NUM_CELLS,
            has_chance=puzzle is None,
            params=params,
        )
        if moves is not None:
            if self.start is None:
                raise ValueError("moves needs a puzzle: the turns are played from the puzzle's setup")
            if not isinstance(moves, str):
                raise ValueError(f"moves must be a string of turns such as 'e5=7 d4=2', got {moves!r}")
            for text in moves.replace(",", " ").split():
                for action in self.parse_turn(self.start, text):
                    self.apply(self.start, action)
            params["moves"] = " ".join(moves.replace(",", " ").split())

    def compiled(self):
        """``envs.games.sudoku_moyo.compiled``'s rules over a flat row, the drawn puzzle a chance node."""
        if self._compiled is None:
            from envs.games.sudoku_moyo.compiled import SudokuRows

            self._compiled = SudokuRows(self)
        return self._compiled

    # --- setup ------------------------------------------------------------------------------
    def _puzzle_state(self, puzzle: str | int) -> SudokuMoyoState:
        if isinstance(puzzle, (int, np.integer)) and not isinstance(puzzle, bool):
            if not 0 <= puzzle < PUZZLE_COUNT:
                raise ValueError(
                    f"puzzle: a puzzle number lies in 0..{PUZZLE_COUNT - 1}, got {puzzle}; "
                    "an 81-digit grid must be a string (write empty cells as '.')"
                )
            state = SudokuMoyoState()
            self._set_up(state, int(puzzle))
            return state
        if not isinstance(puzzle, str):
            raise ValueError(f"puzzle must be an 81-character string or a puzzle number, got {puzzle!r}")
        digits = parse_puzzle(puzzle)
        state = SudokuMoyoState()
        _lay_out(state, digits)
        state.player = 0
        self._start_turn(state)
        return state

    def puzzle_digits(self, number: int) -> bytes:
        """The 81 digits (row 1 first, 0 empty) of puzzle ``number`` with ``self.givens`` givens."""
        return _generated(number, self.givens)

    def _set_up(self, state: SudokuMoyoState, number: int) -> None:
        _lay_out(state, self.puzzle_digits(number))
        state.puzzle = number
        state.player = 0
        self._start_turn(state)

    # --- transitions ------------------------------------------------------------------------
    def initial_state(self) -> SudokuMoyoState:
        return SudokuMoyoState() if self.start is None else self.start.copy()

    def to_play(self, state: SudokuMoyoState) -> int:
        return state.player

    def chance_outcomes(self, state: SudokuMoyoState) -> list[tuple[int, float]]:
        return _ALL_PUZZLES if state.player == CHANCE else []

    def sample_chance(self, state: SudokuMoyoState, rng: np.random.Generator) -> int:
        return int(rng.integers(PUZZLE_COUNT))

    def legal_actions(self, state: SudokuMoyoState) -> list[int]:
        if state.player < 0:
            return []
        return state.moves_in(NEUTRAL if state.opening else state.player)

    def legal_mask(self, state: SudokuMoyoState) -> np.ndarray:
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        mask[self.legal_actions(state)] = True
        return mask

    def apply(self, state: SudokuMoyoState, action: int) -> None:
        if state.player == CHANCE:
            if isinstance(action, np.ndarray) and action.shape == ():  # a 0-d array, as Gymnasium allows
                action = action[()]
            if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
                raise IllegalActionError(f"setup outcome must be a puzzle number, got {action!r}")
            if not 0 <= action < PUZZLE_COUNT:
                raise IllegalActionError(
                    f"setup outcome {action}: this is the setup chance node; puzzle numbers are 0..{PUZZLE_COUNT - 1}"
                )
            self._set_up(state, int(action))
            return
        action = self.check_action(state, action)
        cell, digit = action // 9, action % 9 + 1
        problem = self._problem(state, cell, digit)
        if problem:
            raise IllegalActionError(f"action {action} ({cell_name(cell)}={digit}): {problem}")
        state.place(cell, digit)
        state.player = 1 - state.player
        self._start_turn(state)

    def _problem(self, state: SudokuMoyoState, cell: int, digit: int) -> str:
        """Why placing ``digit`` on ``cell`` is illegal ('' when it is legal)."""
        owner = OWNER_OF[cell]
        if state.grid[cell]:
            return f"{cell_name(cell)} already holds {state.grid[cell]}"
        if state.opening and owner != NEUTRAL:
            return "the centre (d4-f6) still takes a digit, and the opening fills the centre first"
        if not state.opening and owner != state.player:
            return (
                f"{cell_name(cell)} is in {owner_name(owner)}'s box {BOX_NAMES[BOX_OF[cell]]}; "
                f"{SEAT_NAMES[state.player]} places only in its own boxes"
            )
        bit = 1 << (digit - 1)
        for group, used in (
            ("row", state.rows[ROW_OF_CELL[cell]]),
            ("column", state.cols[COL_OF_CELL[cell]]),
            ("box", state.boxes[BOX_OF[cell]]),
        ):
            if used & bit:
                return f"{digit} is already in the cell's {group}"
        return ""

    def _start_turn(self, state: SudokuMoyoState) -> None:
        """After a placement or the setup: end the opening, or the game, when due."""
        state.opening, stuck = start_turn(state.grid, state.player, state.opening)
        if stuck >= 0:
            state.stuck, state.player = stuck, TERMINAL

    def returns(self, state: SudokuMoyoState) -> tuple[float, float]:
        if state.player != TERMINAL:
            return (0.0, 0.0)
        return (-1.0, 1.0) if state.stuck == 0 else (1.0, -1.0)

    def random_playout(self, state: SudokuMoyoState, rng: np.random.Generator) -> tuple[tuple[float, float], int, int]:
        """Random placements to the end in one numba call (a setup node draws its puzzle first)."""
        if state.player == TERMINAL:
            return self.returns(state), 0, 0
        if state.player == CHANCE:
            state = self.step(state, self.sample_chance(state, rng))
            if state.player == TERMINAL:
                return self.returns(state), 0, 0
        winner, placements = random_playout(state.grid, state.player, playout_seed(rng))
        return ((1.0, -1.0) if winner == 0 else (-1.0, 1.0)), int(placements), int(placements)

    # --- observation and symmetry -----------------------------------------------------------------
    def observe(self, state: SudokuMoyoState) -> np.ndarray:
        out = np.zeros((NUM_PLANES, NUM_CELLS), dtype=np.float32)
        if state.player != CHANCE:
            mover = state.stuck if state.player == TERMINAL else state.player
            region = -1 if state.player == TERMINAL else (NEUTRAL if state.opening else mover)
            planes(state.grid, state.given, mover, region, out)
        return out.reshape(self.info.obs_shape)

    def symmetries(self) -> list[Symmetry]:
        """The identity, then 255 seeded elements of the group in the class docstring."""
        return list(_symmetry_sample())

    # --- text ---------------------------------------------------------------------------------------
    def action_to_text(self, state: SudokuMoyoState, action: int) -> str:
        if state.player == CHANCE:
            return f"puzzle={int(action)}"
        cell, digit = divmod(int(action), 9)
        return f"{cell_name(cell)}={digit + 1}"

    _MOVE = re.compile(r"^([a-i])([1-9])=([1-9])$")
    _SETUP = re.compile(r"^puzzle=([0-9]+)$")

    def parse_turn(self, state: SudokuMoyoState, text: str) -> list[int]:
        """``"e5=7"``; at the setup node the puzzle number comes first: ``"puzzle=123 e5=7"``."""
        words = turn_text(text).strip().lower().split()
        actions = []
        if state.player == CHANCE:
            setup = self._SETUP.match(words[0]) if words else None
            if setup is None:
                raise NotationError(f"{text!r}: the puzzle is not drawn yet; start with it, e.g. 'puzzle=123 e5=7'")
            actions.append(int(setup.group(1)))
            words = words[1:]
            if not words:
                return actions
        elif state.player == TERMINAL:
            raise IllegalActionError(f"{text!r}: the game is over")
        if len(words) != 1:
            raise NotationError(f"{text!r}: a turn is one placement, e.g. 'e5=7'")
        move = self._MOVE.match(words[0])
        if move is None:
            raise NotationError(
                f"cannot read Sudoku Moyo move {words[0]!r}: expected a cell a1..i9, '=' and a digit 1-9, e.g. 'e5=7'"
            )
        column, row, digit = move.groups()
        actions.append(9 * ((int(row) - 1) * SIZE + COLUMNS.index(column)) + int(digit) - 1)
        return actions

    def render_text(self, state: SudokuMoyoState) -> str:
        if state.player == CHANCE:
            return "Sudoku Moyo: the puzzle is not drawn yet"
        label = {0: "light", 1: "dark", NEUTRAL: "centre"}
        lines = ["      a  b  c    d  e  f    g  h  i"]
        for row in reversed(range(SIZE)):
            if row % 3 == 2:
                owners = [label[int(BOX_OWNER[row // 3 * 3 + stack])] for stack in range(3)]
                lines.append("    +" + "+".join(f"-{name}".ljust(10, "-") for name in owners) + "+")
            boxes = []
            for stack in range(3):
                boxes.append("".join(_cell_token(state, row * SIZE + 3 * stack + c) for c in range(3)))
            lines.append(f" {row + 1}  |" + " |".join(boxes) + " |")
        lines.append("    +" + "+".join(["-" * 10] * 3) + "+")
        lines.append("    5 given, 5' placed, x dead (no digit fits)")
        if state.player == TERMINAL:
            lines.append(f"{SEAT_NAMES[state.stuck]} cannot place: {SEAT_NAMES[1 - state.stuck]} wins")
        else:
            where = "the centre first" if state.opening else "its own boxes"
            lines.append(f"{SEAT_NAMES[state.player]} to move, in {where}")
        return "\n".join(lines)

    def board_view(self, state: SudokuMoyoState):
        from envs.games.sudoku_moyo.picture import sudoku_moyo_view

        dead = [not state.grid[c] and not state.candidates(c) for c in range(NUM_CELLS)]
        notes = self.render_text(state).splitlines()[-1:]
        return sudoku_moyo_view(state.grid, state.given, OWNER_OF, dead, notes)


# --- puzzles --------------------------------------------------------------------------------------------
_ALL_PUZZLES = [(n, 1.0 / PUZZLE_COUNT) for n in range(PUZZLE_COUNT)]


@lru_cache(maxsize=4096)
def _generated(number: int, givens: int) -> bytes:
    """Puzzle ``number`` with ``givens`` givens (``kernels.puzzle``)."""
    digits = puzzle(number, givens)
    if not digits.any():
        raise RuntimeError(f"the generator found no proper puzzle with {givens} givens for number {number}")
    return bytes(digits.astype(np.uint8))


def parse_puzzle(text: str) -> bytes:
    """81 digits (row 1 first, 0 empty) of a proper puzzle written row 9 first;
    ValueError naming the problem (length, a character, a repeated digit, no or
    several completions)."""
    chars = "".join(text.split())
    if len(chars) != NUM_CELLS:
        raise ValueError(f"puzzle must have 81 cells (row 9 first, '.' or '0' for empty), got {len(chars)} characters")
    bad = sorted(set(chars) - set(".0123456789"))
    if bad:
        raise ValueError(f"puzzle: unexpected character {bad[0]!r}; use 1-9 for givens and '.' or '0' for empty cells")
    digits = bytearray(NUM_CELLS)
    for i, char in enumerate(chars):
        digits[(SIZE - 1 - i // SIZE) * SIZE + i % SIZE] = 0 if char == "." else int(char)
    grid = np.frombuffer(bytes(digits), dtype=np.uint8).astype(np.int64)
    for name, group in _GROUPS:
        values = [int(grid[c]) for c in group if grid[c]]
        repeated = sorted({v for v in values if values.count(v) > 1})
        if repeated:
            raise ValueError(f"puzzle: digit {repeated[0]} appears twice in {name}")
    completions = count_solutions(grid, 2)
    if completions != 1:
        raise ValueError(
            "puzzle: has no completion"
            if completions == 0
            else "puzzle: has more than one completion; a proper puzzle has exactly one"
        )
    return bytes(digits)


def puzzle_text(state: SudokuMoyoState) -> str:
    """The givens of ``state`` as an 81-character puzzle, row 9 first, '.' for empty."""
    return "".join(
        str(state.grid[cell]) if state.given[cell] else "."
        for row in reversed(range(SIZE))
        for cell in range(row * SIZE, (row + 1) * SIZE)
    )


def grid_text(state: SudokuMoyoState) -> str:
    """Every digit of ``state`` (givens and placements), row 9 first, '.' for empty."""
    return "".join(
        str(d) if d else "." for row in reversed(range(SIZE)) for d in state.grid[row * SIZE : (row + 1) * SIZE]
    )


def _lay_out(state: SudokuMoyoState, digits: bytes) -> None:
    state.given = bytes(1 if d else 0 for d in digits)
    for cell, digit in enumerate(digits):
        if digit:
            state.place(cell, digit)


_GROUPS = (
    [(f"row {r + 1}", range(r * SIZE, (r + 1) * SIZE)) for r in range(SIZE)]
    + [(f"column {COLUMNS[c]}", range(c, NUM_CELLS, SIZE)) for c in range(SIZE)]
    + [(f"box {BOX_NAMES[b]}", [c for c in range(NUM_CELLS) if BOX_OF[c] == b]) for b in range(SIZE)]
)


def _cell_token(state: SudokuMoyoState, cell: int) -> str:
    digit = state.grid[cell]
    if digit:
        return f" {digit}" + (" " if state.given[cell] else "'")
    return " x " if not state.candidates(cell) else " . "


# --- symmetries ------------------------------------------------------------------------------------------
def symmetry(digits, rows, columns, half_turn: bool = False, name: str = "") -> Symmetry:
    """The element of the symmetry group that writes digit ``d`` as ``digits[d-1] + 1``,
    moves row index ``r`` to ``rows[r]`` and column ``c`` to ``columns[c]`` (each must
    keep its band or stack), then turns the board half round when ``half_turn``."""
    digits, rows, columns = (np.asarray(x, dtype=np.int64) for x in (digits, rows, columns))
    for what, perm in (("digits", digits), ("rows", rows), ("columns", columns)):
        if sorted(perm.tolist()) != list(range(SIZE)):
            raise ValueError(f"{what} must be a permutation of 0..8, got {perm.tolist()}")
    if any(rows // 3 != np.arange(SIZE) // 3) or any(columns // 3 != np.arange(SIZE) // 3):
        raise ValueError("rows and columns must stay within their band and stack (box owners must not change)")
    new_r, new_c = rows[np.array(ROW_OF_CELL)], columns[np.array(COL_OF_CELL)]
    if half_turn:
        new_r, new_c = SIZE - 1 - new_r, SIZE - 1 - new_c
    cells = new_r * SIZE + new_c  # cells[old cell] = new cell
    action_perm = (9 * cells[:, None] + digits[None, :]).reshape(-1)
    order = np.arange(NUM_PLANES)  # order[new plane] = old plane
    order[digits] = np.arange(9)
    order[12 + digits] = 12 + np.arange(9)  # the half turn needs no plane swap: the planes are the mover's

    def planes(obs: np.ndarray) -> np.ndarray:
        flat = obs.reshape(*obs.shape[:-2], NUM_CELLS)
        out = np.empty_like(flat)
        out[..., cells] = flat[..., order, :]
        return out.reshape(obs.shape)

    return Symmetry(name or "relabel", planes, action_perm)


@lru_cache(maxsize=1)
def _symmetry_sample() -> tuple[Symmetry, ...]:
    identity = np.arange(SIZE)
    rng = np.random.default_rng(0)
    result = [symmetry(identity, identity, identity, name="identity")]
    for k in range(1, SYMMETRY_SAMPLE):
        digits = rng.permutation(SIZE)
        rows = np.concatenate([3 * band + rng.permutation(3) for band in range(3)])
        columns = np.concatenate([3 * stack + rng.permutation(3) for stack in range(3)])
        half = bool(k % 2)
        name = (
            f"digits {''.join(str(d + 1) for d in digits)} rows {''.join(map(str, rows))} "
            f"columns {''.join(map(str, columns))}" + (" half-turn" if half else "")
        )
        result.append(symmetry(digits, rows, columns, half, name))
    return tuple(result)
