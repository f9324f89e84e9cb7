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
The rules are ``kernels.py``'s; ``envs.kit.RowGame`` makes them the engine. Here are
what a person reads or types (the table below, notation, text, puzzles, the board view)
and the symmetries.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from envs.board_view import RGB, BoardView, Cell, box_lines, colour, square_layout
from envs.core import CHANCE, TERMINAL, GameInfo, IllegalActionError, NotationError, Symmetry, turn_text
from envs.games.sudoku_moyo import kernels
from envs.games.sudoku_moyo.kernels import (
    BOX_OF_CELL,
    BOX_OWNER,
    CELL_OWNER,
    NEUTRAL,
    NUM_CELLS,
    PUZZLE_COUNT,
    SIZE,
    candidate_masks,
    count_solutions,
    puzzle,
    random_playout,
)
from envs.kernels import playout_seed
from envs.kit import RowGame, RowState, row_field

NUM_ACTIONS = NUM_CELLS * 9
COLUMNS = "abcdefghi"
SEAT_NAMES = ("light", "dark")
BOX_NAMES = ("SW", "S", "SE", "W", "C", "E", "NW", "N", "NE")  # box index = band * 3 + stack, bottom band first
DEFAULT_GIVENS = 26
MIN_GIVENS, MAX_GIVENS = 22, 80  # below 22 random removal rarely finds a proper puzzle quickly
NUM_PLANES = 23
SYMMETRY_SAMPLE = 256  # how many elements of the symmetry group symmetries() lists
BOX_COLOURS: tuple[RGB, ...] = ((245, 230, 190), (165, 120, 80), (200, 200, 200))  # light, dark, centre
BOX_COUNTERS = ("white", "black", "neutral")  # a placed digit's counter colour by its box's owner

BOX_OF = tuple(int(b) for b in BOX_OF_CELL)
OWNER_OF = tuple(int(o) for o in CELL_OWNER)


def cell_name(cell: int) -> str:
    return f"{COLUMNS[cell % SIZE]}{cell // SIZE + 1}"


def owner_name(owner: int) -> str:
    return "the centre" if owner == NEUTRAL else SEAT_NAMES[owner]


class SudokuMoyoState(RowState):
    """A position as ``kernels.py``'s row; the properties read it (copies): ``player`` the seat to
    move, CHANCE (the puzzle to draw) or TERMINAL; ``stuck`` at the end the seat that could not
    place (it loses), -1 before."""

    __slots__ = ()

    @property
    def grid(self) -> bytearray:
        """The 81 digits, 0 empty."""
        return bytearray(self.row[: kernels.GIVEN].astype(np.uint8).tobytes())

    @property
    def given(self) -> bytes:
        """Per cell, 1 where its digit is a given."""
        return self.row[kernels.GIVEN : kernels.PLAYER].astype(np.uint8).tobytes()

    player = row_field(kernels.PLAYER)
    stuck = row_field(kernels.STUCK)

    @property
    def opening(self) -> bool:
        """Whether the centre is still filled first."""
        return bool(self.row[kernels.OPENING])

    @property
    def puzzle(self) -> int | None:
        """The drawn puzzle number (None for a given puzzle or before the draw)."""
        number = int(self.row[kernels.PUZZLE])
        return None if number < 0 else number

    def candidates(self) -> list[int]:
        """Per cell, the bit mask of the digits that fit it (0 for a filled one)."""
        return candidate_masks(self.row[: kernels.GIVEN]).tolist()


class SudokuMoyo(RowGame):
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
        puzzle = None if puzzle == "" else puzzle  # "" as in the game config: drawn
        moves = None if moves == "" else moves
        start = kernels.setup_row()
        if puzzle is not None:
            self._set_up(start, puzzle)
            given = int(start[kernels.GIVEN : kernels.PLAYER].sum())
            if givens is not None and given != givens:
                raise ValueError(f"givens={givens} but the puzzle has {given} givens")
            self.givens = given
        # every key always present, "" for none: configs and record headers carry them as they are
        params = {
            "givens": self.givens,
            "puzzle": "" if puzzle is None else puzzle_text(SudokuMoyoState(start)),
            "moves": "",
        }
        info = GameInfo(
            name="sudoku_moyo",
            seat_names=SEAT_NAMES,
            num_actions=NUM_ACTIONS,
            obs_shape=(NUM_PLANES, SIZE, SIZE),
            max_decisions=NUM_CELLS,
            has_chance=puzzle is None,
            params=params,
        )
        super().__init__(info, kernels.context(self.givens), start, kernels.MAX_LEGAL, PUZZLE_COUNT)
        if moves is not None:
            if puzzle is None:
                raise ValueError("moves needs a puzzle: the turns are played from the puzzle's setup")
            if not isinstance(moves, str):
                raise ValueError(f"moves must be a string of turns such as 'e5=7 d4=2', got {moves!r}")
            state = self.initial_state()
            for text in moves.replace(",", " ").split():
                for action in self.parse_turn(state, text):
                    self.apply(state, action)
            self.start = state.row
            params["moves"] = " ".join(moves.replace(",", " ").split())

    state_class = SudokuMoyoState

    # --- setup ------------------------------------------------------------------------------
    def _set_up(self, row: np.ndarray, puzzle: str | int) -> None:
        """Lay out the given ``puzzle`` (its text or number) on the setup ``row``."""
        if isinstance(puzzle, (int, np.integer)) and not isinstance(puzzle, bool):
            if not 0 <= puzzle < PUZZLE_COUNT:
                raise ValueError(
                    f"puzzle: a puzzle number lies in 0..{PUZZLE_COUNT - 1}, got {puzzle}; "
                    "an 81-digit grid must be a string (write empty cells as '.')"
                )
            kernels.set_up(row, np.frombuffer(self.puzzle_digits(int(puzzle)), np.uint8), int(puzzle))
            return
        if not isinstance(puzzle, str):
            raise ValueError(f"puzzle must be an 81-character string or a puzzle number, got {puzzle!r}")
        kernels.set_up(row, np.frombuffer(parse_puzzle(puzzle), np.uint8), -1)

    def puzzle_digits(self, number: int) -> bytes:
        """The 81 digits (row 1 first, 0 empty) of puzzle ``number`` with ``self.givens`` givens."""
        return _generated(number, self.givens)

    # --- transitions ------------------------------------------------------------------------
    def sample_chance(self, state: SudokuMoyoState, rng: np.random.Generator) -> int:
        return int(rng.integers(PUZZLE_COUNT))

    def apply(self, state: SudokuMoyoState, action: int) -> None:
        if state.player != CHANCE:
            super().apply(state, action)
            return
        if isinstance(action, np.ndarray) and action.shape == ():  # a 0-d array, as Gymnasium allows
            action = action[()]
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(f"setup outcome must be a puzzle number, got {action!r}")
        if not 0 <= action < PUZZLE_COUNT:
            raise IllegalActionError(
                f"setup outcome {action}: this is the setup chance node; puzzle numbers are 0..{PUZZLE_COUNT - 1}"
            )
        kernels.set_up(state.row, np.frombuffer(self.puzzle_digits(int(action)), np.uint8), int(action))

    def action_name(self, action: int) -> str:
        cell, digit = divmod(int(action), 9)
        return f"{cell_name(cell)}={digit + 1}"

    def illegal_reason(self, state: SudokuMoyoState, action: int) -> str:
        cell, digit = action // 9, action % 9 + 1
        owner, grid = OWNER_OF[cell], state.grid
        if grid[cell]:
            return f"{cell_name(cell)} already holds {grid[cell]}"
        if state.opening and owner != NEUTRAL:
            return "the centre (d4-f6) still takes a digit, and the opening fills the centre first"
        if not state.opening and owner != state.player:
            return (
                f"{cell_name(cell)} is in {owner_name(owner)}'s box {BOX_NAMES[BOX_OF[cell]]}; "
                f"{SEAT_NAMES[state.player]} places only in its own boxes"
            )
        for group, (_, cells) in zip(("row", "column", "box"), _CELL_GROUPS[cell]):
            if any(grid[other] == digit for other in cells):
                return f"{digit} is already in the cell's {group}"
        return "not a legal placement here"

    def random_playout(self, state: SudokuMoyoState, rng: np.random.Generator) -> tuple[tuple[float, float], int, int]:
        """Random placements to the end in one numba call (a setup node draws its puzzle first)."""
        player = state.player
        if player == CHANCE:
            state = self.step(state, self.sample_chance(state, rng))
            player = state.player
        if player == TERMINAL:
            return self.returns(state), 0, 0
        winner, placements = random_playout(state.row, player, playout_seed(rng))  # reads the grid's 81 entries
        return ((1.0, -1.0) if winner == 0 else (-1.0, 1.0)), int(placements), int(placements)

    # --- symmetry ------------------------------------------------------------------------------------
    def symmetries(self) -> list[Symmetry]:
        """The identity, then 255 seeded elements of the group in the class docstring."""
        return list(_symmetry_sample())

    # --- text ---------------------------------------------------------------------------------------
    def action_to_text(self, state: SudokuMoyoState, action: int) -> str:
        return f"puzzle={int(action)}" if state.player == CHANCE else self.action_name(action)

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
        fits = state.candidates()
        lines = ["      a  b  c    d  e  f    g  h  i"]
        for row in reversed(range(SIZE)):
            if row % 3 == 2:
                owners = [label[int(BOX_OWNER[row // 3 * 3 + stack])] for stack in range(3)]
                lines.append("    +" + "+".join(f"-{name}".ljust(10, "-") for name in owners) + "+")
            boxes = []
            for stack in range(3):
                boxes.append("".join(_cell_token(state, row * SIZE + 3 * stack + c, fits) for c in range(3)))
            lines.append(f" {row + 1}  |" + " |".join(boxes) + " |")
        lines.append("    +" + "+".join(["-" * 10] * 3) + "+")
        lines.append("    5 given, 5' placed, x dead (no digit fits)")
        if state.player == TERMINAL:
            lines.append(f"{SEAT_NAMES[state.stuck]} cannot place: {SEAT_NAMES[1 - state.stuck]} wins")
        else:
            where = "the centre first" if state.opening else "its own boxes"
            lines.append(f"{SEAT_NAMES[state.player]} to move, in {where}")
        return "\n".join(lines)

    def board_view(self, state: SudokuMoyoState) -> BoardView:
        """The board as vector data (``envs.board_view``), row 9 at the top: boxes in their
        owner's colour, givens printed on the board, placed digits on counters of the placer's
        colour (grey in the neutral centre), dead cells marked and tagged; a click on a cell
        offers the nine digits."""
        grid, given, fits = state.grid, state.given, state.candidates()
        layout = square_layout([str(r + 1) for r in reversed(range(SIZE))], list(COLUMNS), box_lines(SIZE, 3))
        cells = []
        for cell, digit in enumerate(grid):
            r, c = divmod(cell, SIZE)
            x, y = layout.centres[(SIZE - 1 - r) * SIZE + c]
            dead = not digit and not fits[cell]
            tags = ("given",) if given[cell] else ("dead",) if dead else ("placed",) if digit else ()
            counter = BOX_COUNTERS[OWNER_OF[cell]] if digit and not given[cell] else ""
            text = str(digit) if digit else ("x" if dead else "")
            fill = colour(BOX_COLOURS[OWNER_OF[cell]])
            actions = tuple(range(9 * cell, 9 * cell + 9))
            cells.append(Cell(cell, cell_name(cell), x, y, "square", actions, counter, fill, text, tags))
        notes = self.render_text(state).splitlines()[-1:]
        return BoardView(layout.width, layout.height, tuple(cells), layout.lines, layout.labels, (), tuple(notes))


# --- puzzles --------------------------------------------------------------------------------------------
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


_GROUPS = (
    [(f"row {r + 1}", range(r * SIZE, (r + 1) * SIZE)) for r in range(SIZE)]
    + [(f"column {COLUMNS[c]}", range(c, NUM_CELLS, SIZE)) for c in range(SIZE)]
    + [(f"box {BOX_NAMES[b]}", [c for c in range(NUM_CELLS) if BOX_OF[c] == b]) for b in range(SIZE)]
)


_CELL_GROUPS = tuple(
    (_GROUPS[cell // SIZE], _GROUPS[SIZE + cell % SIZE], _GROUPS[2 * SIZE + BOX_OF[cell]]) for cell in range(NUM_CELLS)
)  # [cell] -> its row, column and box, as (name, cells)


def _cell_token(state: SudokuMoyoState, cell: int, fits: list[int]) -> str:
    """A cell in ``render_text``; ``fits``: the candidate masks of ``state``."""
    digit = state.row[cell]
    if digit:
        return f" {digit}" + (" " if state.row[kernels.GIVEN + cell] else "'")
    return " x " if not fits[cell] else " . "


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
    new_r, new_c = rows[np.arange(NUM_CELLS) // SIZE], columns[np.arange(NUM_CELLS) % SIZE]
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
