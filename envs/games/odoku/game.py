"""Odoku: 5x5, a coin flip before every move decides who moves (docs/games/odoku.md).

The rules are ``compiled.py``'s (the cell diagram and the row's layout are there);
``envs.kit.RowGame`` makes them the engine. Here are what a person reads or types (the table
below, notation, text, the board view), the symmetries and the exact evaluation (the
random-turn theorem: the ``oracle`` player, the turn judge).

Action = 2 * cell + colour (0 = blue ``X``, 1 = white ``O``); chance outcome
0 = B (seat 0, Balancer) moves, 1 = A (seat 1, Anti-balancer) moves.
"""

from __future__ import annotations

import re
from math import comb
from typing import Sequence

import numpy as np

from envs.board_view import BoardView, Cell, square_layout
from envs.core import CHANCE, TERMINAL, GameInfo, IllegalActionError, NotationError, Symmetry, turn_text
from envs.games.odoku import compiled
from envs.games.odoku.compiled import CELL_GROUPS, EMPTY, GROUP_CELLS, NUM_CELLS, REGIONS, SIZE, cell_index
from envs.kernels import playout_seed
from envs.kit import RowGame, RowState, row_field

COLOUR_LETTERS = "XO"  # colour 0 = blue, 1 = white
SEAT_NAMES = ("B", "A")
MAX_SCORE = 15
HALF_SCORE = MAX_SCORE / 2  # the score of a fair game: returns are (score - HALF_SCORE) / HALF_SCORE


def cell_name(cell: int) -> str:
    return "abcde"[cell % SIZE] + str(cell // SIZE + 1)


GROUP_NAMES: tuple[str, ...] = (
    tuple(f"row{r}" for r in range(1, 6)) + tuple(f"col{c}" for c in "abcde") + tuple(REGIONS)
)
_MEMBERSHIP = np.array([[cell in cells for cells in GROUP_CELLS] for cell in range(NUM_CELLS)], dtype=np.int64)
REGION_OF_CELL: tuple[int, ...] = tuple(groups[2] - 10 for groups in CELL_GROUPS)
# one letter per region for text boards: the cross, then the pinwheel corners by compass point
REGION_LETTERS = {"cross": "C", "NE": "N", "SE": "E", "SW": "S", "NW": "W"}
_REGION_LETTER_OF_CELL = tuple(tuple(REGION_LETTERS.values())[region] for region in REGION_OF_CELL)
REGION_FILLS = ("#faeba0", "#bee1be", "#bed2f0", "#f0c8c8", "#dcc8eb")  # the board view's: cross, NE, SE, SW, NW


def _balanced_probability(blue: int, white: int) -> float:
    """P(group ends with 2 or 3 blue | its blue and white counts), empties by a fair coin."""
    empty = SIZE - blue - white
    hits = sum(comb(empty, k) for k in range(empty + 1) if 2 <= blue + k <= 3)
    return hits / 2**empty


# P_BALANCED[blue][white]; entries with blue + white > 5 are never used.
P_BALANCED = tuple(
    tuple(_balanced_probability(b, w) if b + w <= SIZE else 0.0 for w in range(SIZE + 1)) for b in range(SIZE + 1)
)


class OdokuState(RowState):
    """A position as ``compiled.py``'s row, read as Python ints: ``board`` (per cell 0 empty, 1
    blue, 2 white), ``blue`` and ``white`` (each group's stones, ``GROUP_CELLS``' order),
    ``player`` (the seat to move, CHANCE or TERMINAL) and ``moves`` (placements made)."""

    __slots__ = ()

    board = property(lambda self: self.row[:NUM_CELLS].tolist())
    blue = property(lambda self: self.row[compiled.COUNTS : compiled.COUNTS + compiled.GROUPS].tolist())
    white = property(lambda self: self.row[compiled.COUNTS + compiled.GROUPS : compiled.PLAYER].tolist())
    player = row_field(compiled.PLAYER)
    moves = row_field(compiled.MOVES)


class Odoku(RowGame):
    """The rules of Odoku (``Odoku-v0``); ``bias`` is the probability that the coin picks B.

    ``size`` must be 5 (accepted so that ``game.size`` exists for every game).

    ==============  ==============================================================
    Seats           0 = B (Balancer, maximises the score), 1 = A (Anti-balancer)
    Chance          before every move: outcome 0 (B moves) with probability
                    ``bias``, outcome 1 (A moves) otherwise
    Actions         ``Discrete(50)``: ``2 * cell + colour``, cell = (row-1)*5 + col,
                    colour 0 = blue ``X``, 1 = white ``O``; legal on empty cells
    Observation     ``(11, 5, 5)`` float32, plane[p, row-1, col]:
                    0 blue pieces, 1 white pieces, 2 empty cells,
                    3 all ones when B is to move, 4 all ones when A is to move,
                    5-10 the blue and white counts / 5 of the cell's row (5, 6),
                    column (7, 8) and region (9, 10): the exact value is a sum of
                    per-group terms, and these planes put each group's counts on
                    every one of its cells
    Returns         (score - HALF_SCORE) / HALF_SCORE for B, the negative for A; ``score`` (0..15
                    balanced groups) in ``outcome_info`` and the env's final ``info``
    Termination     after 25 moves (the board is full)
    Symmetries      4 rotations x swapping blue and white (8)
    Notation        ``Xb3``; a record turn adds the mover, ``B Xb3``
    Measures        the ``oracle`` player is exact (``reference_player``); a turn is
                    judged optimal by the random-turn theorem (``turn_judge``)
    ==============  ==============================================================
    """

    reference_player = "oracle"
    score_fact = "score"

    def __init__(self, bias: float = 0.5, size: int = SIZE):
        # ``size`` is accepted so that every board game's config has one (``game.size=N``
        # overrides then compose for any game, multiruns included); Odoku's board is fixed.
        if size != SIZE:
            raise ValueError(f"Odoku is played on a {SIZE}x{SIZE} board: size must be {SIZE}, got {size}")
        if not 0.0 < bias < 1.0:
            raise ValueError(f"bias must lie strictly between 0 and 1, got {bias}")
        self.bias = float(bias)
        info = GameInfo(
            name="odoku",
            seat_names=SEAT_NAMES,
            num_actions=2 * NUM_CELLS,
            obs_shape=(11, SIZE, SIZE),
            max_decisions=NUM_CELLS,
            has_chance=True,
            params={"bias": self.bias},
        )
        super().__init__(
            info, compiled.context(self.bias), compiled.start_row(), compiled.MAX_LEGAL, compiled.MAX_CHANCE
        )

    state_class = OdokuState

    def random_playout(self, state: OdokuState, rng: np.random.Generator) -> tuple[tuple[float, float], int, int]:
        """Random play from ``state`` to the end, by its final board alone: every empty cell
        gets a fair-coin colour (``compiled.fill_playout``, exactly the random-play
        distribution), from one ``playout_seed`` draw of ``rng``."""
        if state.player == TERMINAL:
            return self.returns(state), 0, 0
        row = state.row
        b_return = compiled.fill_playout(row[:NUM_CELLS], row[compiled.COUNTS : compiled.PLAYER], playout_seed(rng))
        empty = NUM_CELLS - state.moves
        return (b_return, -b_return), empty, empty

    def action_name(self, action: int) -> str:
        cell, colour = divmod(int(action), 2)
        return COLOUR_LETTERS[colour] + cell_name(cell)

    def illegal_reason(self, state: OdokuState, action: int) -> str:
        return f"cell {cell_name(action // 2)} is occupied"

    def action_playout_returns(self, state: OdokuState, rollouts: int, rng: np.random.Generator) -> np.ndarray:
        """Mean return per seat of ``rollouts`` random playouts after each legal
        placement, vectorised: playout ``k`` is one fair-coin colouring of the
        board (as in :meth:`random_playout`) shared by every placement, which
        overrides the colouring on its own cell (common random numbers)."""
        means = np.full((2 * NUM_CELLS, 2), np.nan)
        if state.player not in (0, 1):
            return means
        empty = np.asarray(state.board) == EMPTY
        cells = np.flatnonzero(empty)
        fill = (rng.integers(2, size=(rollouts, NUM_CELLS)) == 0) & empty  # blue where the coin says so
        blue = np.asarray(state.blue) + fill.astype(np.int64) @ _MEMBERSHIP  # [rollouts, groups]
        groups = _MEMBERSHIP[cells][:, None, :]  # [placements, 1, groups]
        unfilled = blue[None] - fill.T[cells][:, :, None] * groups  # the placed cell left out
        for colour in (0, 1):
            final = unfilled + groups if colour == 0 else unfilled
            b_return = (((final >= 2) & (final <= 3)).sum(axis=-1).mean(axis=-1) - HALF_SCORE) / HALF_SCORE
            means[2 * cells + colour, 0] = b_return
            means[2 * cells + colour, 1] = -b_return
        return means

    def turn_judge(self):
        return turn_is_optimal

    def outcome_info(self, state: OdokuState) -> dict:
        return {"score": score(state)}

    # --- symmetry ------------------------------------------------------------------------
    def symmetries(self) -> list[Symmetry]:
        """The 4 rotations, each with and without swapping blue and white."""
        cells = np.arange(NUM_CELLS).reshape(SIZE, SIZE)
        result = []
        for swap in (False, True):
            for k in range(4):
                cell_perm = np.argsort(np.rot90(cells, k).reshape(-1))  # the inverse of "new position <- old cell"
                action_perm = (2 * cell_perm[:, None] + ([1, 0] if swap else [0, 1])).reshape(-1)
                result.append(
                    Symmetry(f"rot{90 * k}" + ("+swap" if swap else ""), _odoku_obs_map(k, swap), action_perm)
                )
        return result

    # --- text -------------------------------------------------------------------------
    def action_to_text(self, state: OdokuState, action: int) -> str:
        return SEAT_NAMES[action] if state.player == CHANCE else self.action_name(action)

    _MOVE = re.compile(r"^(?:([BA])\s+)?([XO])([a-e])([1-5])$", re.IGNORECASE)

    def parse_turn(self, state: OdokuState, text: str) -> list[int]:
        """``"B Xb3"`` (mover, colour, cell) or, once the coin has fallen, ``"Xb3"``."""
        match = self._MOVE.match(turn_text(text).strip())
        if match is None:
            raise NotationError(
                f"cannot read Odoku move {text!r}: expected colour X/O and a cell a1..e5, "
                "optionally after the mover, e.g. 'Xb3' or 'B Xb3'"
            )
        mover, colour, column, row = match.groups()
        action = 2 * cell_index(column.lower() + row) + COLOUR_LETTERS.index(colour.upper())
        if state.player == TERMINAL:
            raise IllegalActionError(f"{text!r}: the game is over")
        if state.player == CHANCE:
            if mover is None:
                raise NotationError(f"{text!r}: the coin has not fallen yet; name the mover, e.g. 'B {text.strip()}'")
            return [SEAT_NAMES.index(mover.upper()), action]
        if mover is not None and SEAT_NAMES.index(mover.upper()) != state.player:
            raise IllegalActionError(f"{text!r}: out of turn, {SEAT_NAMES[state.player]} is to move")
        return [action]

    def render_text(self, state: OdokuState) -> str:
        """The board with each row's and column's verdict in the margins, and beside it
        the map of the five regions (C the cross, N/E/S/W the pinwheel corners)."""
        marks = {None: " ", "balanced": "+", "unbalanced": "-"}
        statuses = group_status(state)
        status = [marks[s] for s in statuses]
        lines = ["    a b c d e        a b c d e"]
        for r in reversed(range(SIZE)):
            cells = " ".join(".XO"[state.board[r * SIZE + c]] for c in range(SIZE))
            regions = " ".join(_REGION_LETTER_OF_CELL[r * SIZE + c] for c in range(SIZE))
            lines.append(f" {r + 1}  {cells}  {status[r]}  {r + 1}  {regions}")
        lines.append("    " + " ".join(status[5 + c] for c in range(SIZE)))
        lines.append(
            "    " + "  ".join(f"{REGION_LETTERS[name]} {name}{status[10 + i]}" for i, name in enumerate(REGIONS))
        )
        if state.player == TERMINAL:
            verdicts = {kind: [n for n, s in zip(GROUP_NAMES, statuses) if s == kind] for kind in marks if kind}
            lines.append(f"final score {score(state)} of 15 (the balanced groups)")
            for kind, names in verdicts.items():
                lines.append(f"  {kind} ({len(names)}): {' '.join(names) or '-'}")
        else:
            who = "coin to flip" if state.player == CHANCE else f"{SEAT_NAMES[state.player]} to move"
            lines.append(f"{who}, value {value(state):.4f}  (+ balanced, - unbalanced for sure)")
        return "\n".join(lines)

    def goal_text(self, seat: int) -> str:
        want = "as many as possible" if seat == 0 else "as few as possible"
        return (
            f"make {want} of the 15 groups (rows, columns, regions) end balanced, with 2 or 3 "
            "blue (X) pieces; a coin decides who moves before every move, and either player "
            "may place blue or white"
        )

    def value_text(self, value: float, seat: int) -> str:
        # the returns are (score - 7.5) / 7.5 for B and the negative for A
        expected = 7.5 + 7.5 * (value if seat == 0 else -value)
        return (
            f"expected final score {expected:.2f} of 15 ({SEAT_NAMES[seat]} wants it {'high' if seat == 0 else 'low'})"
        )

    def result_text(self, state: OdokuState) -> str:
        return f"final score {score(state)} of 15"

    def board_view(self, state: OdokuState) -> BoardView:
        statuses = group_status(state)
        decided = (
            f"decided so far: {statuses.count('balanced')} balanced (+), {statuses.count('unbalanced')} unbalanced (-)"
        )
        if state.player == TERMINAL:
            coin = self.result_text(state)
        elif state.player == CHANCE:
            coin = "the coin decides who moves next"
        else:
            coin = (
                f"the coin chose {SEAT_NAMES[state.player]}: {SEAT_NAMES[state.player]} to move, blue (X) or white (O)"
            )
        return _view(state.board, statuses, (coin, decided))


def _view(board: Sequence[int], status: Sequence[str | None], notes) -> BoardView:
    """The board as vector data (``envs.board_view``), north at the top: regions coloured, a
    decided row's or column's verdict (``+`` balanced, ``-`` unbalanced) beside its name, a
    decided region's on each of its empty cells; a click on a cell offers a blue and a white piece."""
    size = SIZE
    sign = {None: "", "balanced": "+", "unbalanced": "-"}
    rows = list(reversed(range(size)))  # row 5 first
    layout = square_layout(
        [f"{r + 1}{sign[status[r]]}" for r in rows], [f"{'abcde'[c]}{sign[status[5 + c]]}" for c in range(size)]
    )
    cells = []
    for cell, value in enumerate(board):
        r, c = divmod(cell, size)
        x, y = layout.centres[(size - 1 - r) * size + c]
        region = REGION_OF_CELL[cell]
        verdict = sign[status[10 + region]] if value == 0 else ""
        tags = (f"region-{region}",) + ((f"region-{status[10 + region]}",) if status[10 + region] else ())
        owner, name = ("", "blue", "white")[value], "abcde"[c] + str(r + 1)
        cells.append(
            Cell(cell, name, x, y, "square", (2 * cell, 2 * cell + 1), owner, REGION_FILLS[region], verdict, tags)
        )
    return BoardView(layout.width, layout.height, tuple(cells), (), layout.labels, (), tuple(notes))


def _odoku_obs_map(k: int, swap: bool):
    # A quarter turn makes every row a column: the row and column count planes trade places.
    order = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10] if k % 2 == 0 else [0, 1, 2, 3, 4, 7, 8, 5, 6, 9, 10]
    if swap:  # blue <-> white in the pieces and in every count pair
        order = [order[i] for i in (1, 0, 2, 3, 4, 6, 5, 8, 7, 10, 9)]

    def transform(planes: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(np.rot90(planes, k, axes=(-2, -1))[..., order, :, :])

    return transform


# --- exact evaluation (random-turn theorem, fair coin) --------------------------------------
def score(state: OdokuState) -> int:
    """Number of balanced groups (meaningful when the board is full)."""
    return sum(1 for b, w in zip(state.blue, state.white) if b + w == SIZE and 2 <= b <= 3)


def value(state: OdokuState) -> float:
    """Expected final score under optimal play by both sides, exact for the fair coin.

    By the random-turn theorem it equals the expected score when every empty
    cell is filled by an independent fair coin (docs/games/odoku.md).
    """
    return sum(P_BALANCED[b][w] for b, w in zip(state.blue, state.white))


def action_values(state: OdokuState) -> dict[int, float]:
    """Value of the position after each legal placement (same for either mover)."""
    base = value(state)
    blue, white = state.blue, state.white
    result = {}
    for cell in range(NUM_CELLS):
        if state.board[cell] != EMPTY:
            continue
        groups = CELL_GROUPS[cell]
        old = sum(P_BALANCED[blue[g]][white[g]] for g in groups)
        result[2 * cell] = base - old + sum(P_BALANCED[blue[g] + 1][white[g]] for g in groups)
        result[2 * cell + 1] = base - old + sum(P_BALANCED[blue[g]][white[g] + 1] for g in groups)
    return result


def optimal_actions(state: OdokuState, tolerance: float = 1e-9) -> list[int]:
    """All placements that are optimal for the seat to move (B maximises, A minimises)."""
    if state.player not in (0, 1):
        raise IllegalActionError("optimal_actions needs a decision node (a seat to move)")
    values = action_values(state)
    sign = 1.0 if state.player == 0 else -1.0
    best = max(sign * v for v in values.values())
    return [a for a, v in values.items() if sign * v >= best - tolerance]


def turn_is_optimal(state: OdokuState, actions: Sequence[int]) -> bool:
    """Whether a one-placement turn is among the mover's exactly optimal moves."""
    return len(actions) == 1 and actions[0] in optimal_actions(state)


def group_status(state: OdokuState) -> list[str | None]:
    """Per group: "balanced" or "unbalanced" when decided for sure, else None."""
    result: list[str | None] = []
    for b, w in zip(state.blue, state.white):
        if b >= 2 and w >= 2:
            result.append("balanced")
        elif b >= 4 or w >= 4:
            result.append("unbalanced")
        else:
            result.append(None)
    return result
