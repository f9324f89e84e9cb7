"""Odoku: 5x5, a coin flip before every move decides who moves (docs/games/odoku.md).

Cells (index = (row - 1) * 5 + column), row 5 is north::

    5 | 20 21 22 23 24
    4 | 15 16 17 18 19
    3 | 10 11 12 13 14
    2 |  5  6  7  8  9
    1 |  0  1  2  3  4
         a  b  c  d  e

Action = 2 * cell + colour (0 = blue ``X``, 1 = white ``O``); chance outcome
0 = B (seat 0, Balancer) moves, 1 = A (seat 1, Anti-balancer) moves.
Every cell lies in exactly three of the 15 groups: its row, its column and one
of the five regions (cross and four pinwheel corners).
"""

from __future__ import annotations

import re
from math import comb
from typing import Sequence

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
from envs.kernels import playout_seed

SIZE = 5
NUM_CELLS = SIZE * SIZE
EMPTY, BLUE, WHITE = 0, 1, 2
COLOUR_LETTERS = "XO"  # colour 0 = blue, 1 = white
SEAT_NAMES = ("B", "A")
MAX_SCORE = 15
HALF_SCORE = MAX_SCORE / 2  # the score of a fair game: returns are (score - HALF_SCORE) / HALF_SCORE


def cell_index(name: str) -> int:
    """``"b3"`` -> 11."""
    return (int(name[1:]) - 1) * SIZE + "abcde".index(name[0])


def cell_name(cell: int) -> str:
    return "abcde"[cell % SIZE] + str(cell // SIZE + 1)


REGIONS = {
    "cross": "c3 b3 d3 c2 c4",
    "NE": "d4 d5 e4 e5 c5",
    "SE": "d1 d2 e1 e2 e3",
    "SW": "a1 a2 b1 b2 c1",
    "NW": "a4 a5 b4 b5 a3",
}
GROUP_NAMES: tuple[str, ...] = (
    tuple(f"row{r}" for r in range(1, 6)) + tuple(f"col{c}" for c in "abcde") + tuple(REGIONS)
)
GROUPS: tuple[tuple[int, ...], ...] = (
    tuple(tuple(r * SIZE + c for c in range(SIZE)) for r in range(SIZE))
    + tuple(tuple(r * SIZE + c for r in range(SIZE)) for c in range(SIZE))
    + tuple(tuple(cell_index(n) for n in cells.split()) for cells in REGIONS.values())
)
CELL_GROUPS: tuple[tuple[int, ...], ...] = tuple(
    tuple(g for g, cells in enumerate(GROUPS) if cell in cells) for cell in range(NUM_CELLS)
)
_CELL_GROUP_INDEX = np.array(CELL_GROUPS)  # [cell] -> (row group, column group, region group)
_MEMBERSHIP = np.array([[cell in cells for cells in GROUPS] for cell in range(NUM_CELLS)], dtype=np.int64)
REGION_OF_CELL: tuple[int, ...] = tuple(groups[2] - 10 for groups in CELL_GROUPS)
# one letter per region for text boards: the cross, then the pinwheel corners by compass point
REGION_LETTERS = {"cross": "C", "NE": "N", "SE": "E", "SW": "S", "NW": "W"}
_REGION_LETTER_OF_CELL = tuple(tuple(REGION_LETTERS.values())[region] for region in REGION_OF_CELL)


def _balanced_probability(blue: int, white: int) -> float:
    """P(group ends with 2 or 3 blue | its blue and white counts), empties by a fair coin."""
    empty = SIZE - blue - white
    hits = sum(comb(empty, k) for k in range(empty + 1) if 2 <= blue + k <= 3)
    return hits / 2**empty


# P_BALANCED[blue][white]; entries with blue + white > 5 are never used.
P_BALANCED = tuple(
    tuple(_balanced_probability(b, w) if b + w <= SIZE else 0.0 for w in range(SIZE + 1)) for b in range(SIZE + 1)
)


class OdokuState:
    """Board, per-group colour counts, and whose turn (CHANCE before every move)."""

    __slots__ = ("board", "blue", "white", "player", "moves")

    def __init__(self):
        self.board = [EMPTY] * NUM_CELLS
        self.blue = [0] * len(GROUPS)
        self.white = [0] * len(GROUPS)
        self.player = CHANCE
        self.moves = 0

    def copy(self) -> "OdokuState":
        other = OdokuState.__new__(OdokuState)
        other.board = self.board[:]
        other.blue = self.blue[:]
        other.white = self.white[:]
        other.player = self.player
        other.moves = self.moves
        return other

    def key(self) -> tuple:
        """Hashable identity of the position (for transposition tables)."""
        return (bytes(self.board), self.player)


class Odoku(Game):
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
        self.info = GameInfo(
            name="odoku",
            seat_names=SEAT_NAMES,
            num_actions=2 * NUM_CELLS,
            obs_shape=(11, SIZE, SIZE),
            max_decisions=NUM_CELLS,
            has_chance=True,
            params={"bias": self.bias},
        )
        self._chance = [(0, self.bias), (1, 1.0 - self.bias)]
        self._compiled = None

    # --- transitions ---------------------------------------------------------------
    def compiled(self):
        """``envs.games.odoku.compiled``'s rules over a flat row, the coin a chance node."""
        if self._compiled is None:
            from envs.games.odoku.compiled import OdokuRows

            self._compiled = OdokuRows(self)
        return self._compiled

    def initial_state(self) -> OdokuState:
        return OdokuState()

    def to_play(self, state: OdokuState) -> int:
        return state.player

    def chance_outcomes(self, state: OdokuState) -> list[tuple[int, float]]:
        return self._chance if state.player == CHANCE else []

    def legal_actions(self, state: OdokuState) -> list[int]:
        if state.player < 0:
            return []
        board = state.board
        return [a for a in range(2 * NUM_CELLS) if board[a >> 1] == EMPTY]

    def legal_mask(self, state: OdokuState) -> np.ndarray:
        if state.player < 0:
            return np.zeros(2 * NUM_CELLS, dtype=bool)
        return np.repeat(np.asarray(state.board) == EMPTY, 2)

    def apply(self, state: OdokuState, action: int) -> None:
        if type(action) is not int:
            action = self.check_action(state, action)
        if state.player == CHANCE and (action == 0 or action == 1):
            state.player = action
            return
        action = self.check_action(state, action)
        cell, colour = divmod(action, 2)
        if state.board[cell] != EMPTY:
            raise IllegalActionError(f"{self.action_to_text(state, action)}: cell {cell_name(cell)} is occupied")
        state.board[cell] = BLUE if colour == 0 else WHITE
        counts = state.blue if colour == 0 else state.white
        for g in CELL_GROUPS[cell]:
            counts[g] += 1
        state.moves += 1
        state.player = TERMINAL if state.moves == NUM_CELLS else CHANCE

    def returns(self, state: OdokuState) -> tuple[float, float]:
        if state.player != TERMINAL:
            return (0.0, 0.0)
        b_return = (score(state) - HALF_SCORE) / HALF_SCORE
        return (b_return, -b_return)

    def random_playout(self, state: OdokuState, rng: np.random.Generator) -> tuple[tuple[float, float], int, int]:
        """Random play from ``state`` to the end, by its final board alone: every empty cell
        gets a fair-coin colour (``envs.games.odoku.compiled.fill_playout``, exactly the
        random-play distribution), from one ``playout_seed`` draw of ``rng``."""
        if state.player == TERMINAL:
            return self.returns(state), 0, 0
        from envs.games.odoku.compiled import fill_playout  # numba kernels, compiled on first use

        board = np.array(state.board, np.int64)
        b_return = fill_playout(board, np.array(state.blue, np.int64), playout_seed(rng))
        empty = int(np.count_nonzero(board == EMPTY))
        return (b_return, -b_return), empty, empty

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

    # --- observation and symmetry -----------------------------------------------------
    def observe(self, state: OdokuState) -> np.ndarray:
        """Planes: blue, white, empty, B to move, A to move (both 0 at a chance node),
        then the blue and white counts / 5 of each cell's row, column and region."""
        board = np.asarray(state.board, dtype=np.int8).reshape(SIZE, SIZE)
        planes = np.zeros(self.info.obs_shape, dtype=np.float32)
        planes[0] = board == BLUE
        planes[1] = board == WHITE
        planes[2] = board == EMPTY
        if state.player in (0, 1):
            planes[3 + state.player] = 1.0
        counts = np.array((state.blue, state.white), dtype=np.float32) / SIZE
        planes[5:] = counts[:, _CELL_GROUP_INDEX].transpose(2, 0, 1).reshape(6, SIZE, SIZE)
        return planes

    def symmetries(self) -> list[Symmetry]:
        """The 4 rotations, each with and without swapping blue and white."""
        cells = np.arange(NUM_CELLS).reshape(SIZE, SIZE)
        result = []
        for swap in (False, True):
            for k in range(4):
                rotated = np.rot90(cells, k).reshape(-1)  # rotated[new_pos] = old cell
                cell_perm = np.empty(NUM_CELLS, dtype=np.int64)
                cell_perm[rotated] = np.arange(NUM_CELLS)
                colour_perm = np.array([1, 0] if swap else [0, 1])
                action_perm = (2 * cell_perm[:, None] + colour_perm[None, :]).reshape(-1)
                result.append(
                    Symmetry(
                        f"rot{90 * k}" + ("+swap" if swap else ""),
                        _odoku_obs_map(k, swap),
                        action_perm,
                    )
                )
        return result

    # --- text -------------------------------------------------------------------------
    def action_to_text(self, state: OdokuState, action: int) -> str:
        if state.player == CHANCE:
            return SEAT_NAMES[action]
        cell, colour = divmod(int(action), 2)
        return COLOUR_LETTERS[colour] + cell_name(cell)

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

    def board_view(self, state: OdokuState):
        from envs.games.odoku.picture import odoku_view

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
        return odoku_view(state.board, REGION_OF_CELL, statuses, (coin, decided))


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
