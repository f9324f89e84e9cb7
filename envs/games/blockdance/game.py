"""Blockdance: turn a connected block of your men around one of them; kill every enemy man
(docs/games/blockdance.md). The rules are ``kernels.py``'s, and ``envs.kit.RowGame`` makes
them the engine; here is what a person reads or types: the table, the notation, the text and
the board's view.

The board is a hexagon of side s (``envs.stones.hexagon``: 15 rows of 8 to 15 cells for the
text's s = 8, letters ``a``-``C``). A turn is micro-steps over cells: the pivot (a man of the
mover's), the angle (one of five actions after the cells), the block's other men one at a
time (each next to the block so far), then the pivot again to turn the block; or the pass.
"""

from __future__ import annotations

import re
from itertools import groupby
from typing import Iterable, Sequence

import numpy as np

from envs.board_view import BoardView, Cell
from envs.core import TERMINAL, GameInfo, IllegalActionError, NotationError, Symmetry, lead_returns, turn_text
from envs.games.blockdance import kernels
from envs.games.blockdance.kernels import ANGLES, EMPTY, OFF_BOARD, PIECE, SCALARS
from envs.kit import RowGame, RowState, row_field
from envs.schedule.moves import read_start
from envs.stones import hexagon
from envs.stones.board import cell_symmetry
from envs.stones.view import STONE_OF_VALUE, hexagon_layout

SEAT_NAMES = ("y", "o")
MIN_SIDE = 6  # the six flowers of the start need a hexagon of side 6 or more
SYMBOLS = {EMPTY: ".", PIECE[0]: "y", PIECE[1]: "o"}
# the text's diagram also has a "," (x11, the cell the last move left): read as empty
DIAGRAM_VALUES = {".": EMPTY, ",": EMPTY, "y": PIECE[0], "o": PIECE[1]}
NUM_PLANES = 14
MEN_LEAD = 4  # a lead of this many men is worth 0.76 in ``heuristic_returns``
_PIVOT = re.compile(r"^([a-zA-Z][0-9]{1,2})(?:\.([0-9]))?$")
_ANGLE = re.compile(r"^\.?([0-9])$")
_GROUP = re.compile(r"([a-zA-Z]+)([0-9]{1,2})")  # ``xz5wy6``: the letters of one row, then its number
NOT = re.compile(r"^not\((.*)\)$")  # the pivot's whole group less the cells in the brackets


def flower_start(side: int) -> tuple[list[int], list[int]]:
    """The text's start: six flowers of seven men (a man and its six neighbours) centred at the
    middles of the sides of the ring 2 * ((s - 2) // 2) cells round the middle (6 for s = 8:
    the flowers touch the edge); O's at the top, then alternately Y's and O's clockwise."""
    n, k, radius = 2 * side - 1, side - 1, 2 * ((side - 2) // 2)
    _, adjacent, _ = hexagon.geometry(side)
    middle = k * n + k
    top = (k - radius) * n + k + radius // 2  # straight up: half the steps up-left, half up-right
    sides: tuple[list[int], list[int]] = ([], [])
    for turn in range(6):
        centre = hexagon.rotate(side, top, middle, turn)
        sides[1 - turn % 2].extend(sorted((centre, *adjacent[centre])))
    return sides[0], sides[1]


def _scalars(row):
    return row[-1]  # the board's cell count: the scalars follow the board


class BlockdanceState(RowState):
    """A position as the kernels' row (``kernels.py``'s layout); the properties read it: the
    board (a list of values), whose turn, the turn so far (the pivot or -1, the angle or 0, the
    block's men in the order chosen, the pivot first; the chosen angle's largest block), turns
    played, turns since the last capture, passes in a row, and at the end the winner (-1 a draw)."""

    __slots__ = ()

    board = property(lambda self: self.row[: self.row[-1]].tolist())
    player = row_field(kernels.PLAYER, _scalars)
    pivot = row_field(kernels.PIVOT, _scalars)
    angle = row_field(kernels.ANGLE, _scalars)
    turns = row_field(kernels.TURNS, _scalars)
    idle = row_field(kernels.IDLE, _scalars)
    passes = row_field(kernels.PASSES, _scalars)
    winner = row_field(kernels.WINNER, _scalars)

    @property
    def block(self) -> tuple[int, ...]:
        start = self.row[-1] + SCALARS
        return tuple(self.row[start : start + int(self.row[self.row[-1] + kernels.SIZE])].tolist())

    @property
    def reach(self) -> frozenset[int]:
        """The men of the chosen angle's largest block (empty before the angle)."""
        reach = self.row[-1] + SCALARS + (len(self.row) - 1 - self.row[-1] - SCALARS) // 2
        return frozenset(self.row[reach : reach + int(self.row[self.row[-1] + kernels.REACH])].tolist())

    def men(self, seat: int) -> int:
        return int(np.count_nonzero(self.row[: self.row[-1]] == PIECE[seat]))


class Blockdance(RowGame):
    """The rules of Blockdance (``Blockdance-v0``).

    ==============  ==============================================================
    Board           a hexagon of side ``size`` (6..13, default 8: the text's 169 cells)
                    in a (2s-1) x (2s-1) array, cell ``r * (2s-1) + q``
                    (``envs.stones.hexagon``); ``start`` lists each side's men,
                    ``"v5 x5 / o2"``, "" the text's six flowers of seven
    Seats           0 ``y`` (Y, moves first), 1 ``o`` (O)
    Actions         ``Discrete((2s-1)^2 + 6)``: a cell, then (after the cells) the
                    angles 1..5 (clockwise sixths of a turn), then pass. A turn is
                    the pivot's cell, the angle, each other man of the block (a man
                    of the mover's next to the block so far), the pivot's cell again
                    (turn the block). Each step offers only what still leads to a
                    legal move; pass is legal at every turn's start (``free_pass``;
                    with ``free_pass=False`` only when no move is)
    Observation     ``(14, 2s-1, 2s-1)`` float32, from the mover's view: 0 the
                    mover's men, 1 the enemy's, 2 the board's cells, 3 the pivot, 4
                    the block so far, 5 where the block lands, 6-10 the angle chosen
                    (one plane each, 1..5), 11 the last turn was a pass, 12 turns
                    since the last capture / ``idle_limit``, 13 turns / ``max_turns``
    Returns         +1 / -1 when one side has no man left (the mover killed the last);
                    0 when both pass in a row, after ``idle_limit`` turns in a row
                    without a capture, or after ``max_turns`` turns
    Symmetries      the 12 maps of the hexagon (a mirror turns angle a into 6 - a)
    Notation        ``v5.2 xz5wy6``: the pivot, ``.`` the angle, the other men row by
                    row (each row's letters, then its number); ``t7.4 not(s6)`` the
                    pivot's whole group less the cells in brackets; ``pass``
    Arguments       ``size``, ``start``, ``free_pass`` (default True, the text's
                    reading), ``idle_limit`` (default 100), ``max_turns`` (default 500)
    ==============  ==============================================================
    """

    state_class = BlockdanceState

    def __init__(
        self, size: int = 8, start: str = "", free_pass: bool = True, idle_limit: int = 100, max_turns: int = 500
    ):
        for key, value, low, high in (
            ("size (the hexagon's side)", size, MIN_SIDE, hexagon.MAX_SIDE),
            ("idle_limit", idle_limit, 1, 100_000),
            ("max_turns", max_turns, 1, 100_000),
        ):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
                raise ValueError(f"{key} must be an integer from {low} to {high}, got {value!r}")
        if not isinstance(free_pass, (bool, np.bool_)):
            raise ValueError(f"free_pass must be True or False, got {free_pass!r}")
        if not isinstance(start, str):
            raise ValueError(f"start must be text such as 'v5 x5 / o2 p1', got {start!r}")
        self.side = int(size)
        self.n = 2 * self.side - 1
        self.num_cells = self.n * self.n
        self.ANGLE, self.PASS = self.num_cells, self.num_cells + len(ANGLES)
        self.on, self.adjacent, _ = hexagon.geometry(self.side)
        self.free_pass, self.idle_limit, self.max_turns = bool(free_pass), int(idle_limit), int(max_turns)
        board = self._read_start(start)
        self.start_text = start or " / ".join(
            " ".join(self.cell_name(c) for c in range(self.num_cells) if board[c] == piece) for piece in PIECE
        )
        most = max(board.count(piece) for piece in PIECE)
        context = kernels.context(self.side, self.free_pass, self.idle_limit, self.max_turns, most)
        info = GameInfo(
            name="blockdance",
            seat_names=SEAT_NAMES,
            num_actions=self.PASS + 1,
            obs_shape=(NUM_PLANES, self.n, self.n),
            max_decisions=self.max_turns * (most + 2),  # pivot, angle, the other men, the pivot again
            params={
                "size": self.side,
                "start": self.start_text,
                "free_pass": self.free_pass,
                "idle_limit": self.idle_limit,
                "max_turns": self.max_turns,
            },
        )
        start_row = kernels.row_of(context, board, 0, -1, 0, (), 0, 0, 0, -1)
        super().__init__(info, context, start_row, max_legal=self.num_cells + 1)  # the pivots and the pass

    def _read_start(self, text: str) -> list[int]:
        blank = np.array([EMPTY if on else OFF_BOARD for on in self.on], np.int8)
        if text:
            example = "v5 x5 / o2 p1"  # Y's men, then O's
            return read_start(text, self.num_cells, self.parse_cell, "men", example, blank, "man").tolist()
        for seat, cells in enumerate(flower_start(self.side)):
            blank[cells] = PIECE[seat]
        return blank.tolist()

    # --- positions: the engine is ``envs.kit.RowGame``'s over the kernels --------------------------
    def state_of(
        self,
        board: Sequence[int],
        player: int,
        pivot: int = -1,
        angle: int = 0,
        block: tuple[int, ...] = (),
        turns: int = 0,
        idle: int = 0,
        passes: int = 0,
        winner: int = -1,
    ) -> BlockdanceState:
        """The state these fields describe (a turn begun or the end included)."""
        row = kernels.row_of(self.context, board, player, pivot, angle, block, turns, idle, passes, winner)
        return BlockdanceState(row)

    def to_play(self, state: BlockdanceState) -> int:
        return int(state.row[self.num_cells + kernels.PLAYER])  # read from the row: quicker than a kernel call

    def reason(self, state: BlockdanceState) -> str:
        """Why the game is over ('' while it goes on)."""
        if state.player != TERMINAL:
            return ""
        if state.winner >= 0:
            return "every enemy man killed"
        if state.passes >= 2:
            return "both passed"
        if state.idle >= self.idle_limit:
            return f"{self.idle_limit} turns without a capture"
        return f"{self.max_turns} turns"

    def group_of(self, board: Sequence[int], cell: int) -> set[int]:
        """The men of ``cell``'s colour connected to it (its maximal group)."""
        size = kernels.group_of(self.context, np.asarray(board, np.int32), cell)
        return set(self.context.group[:size].tolist())

    def action_name(self, action: int) -> str:
        if action == self.PASS:
            return "pass"
        if action >= self.ANGLE:
            return f"angle {action - self.ANGLE + 1}"
        return f"cell {self.cell_name(action)}" if self.on[action] else f"cell {action}, off the board"

    def illegal_reason(self, state: BlockdanceState, action: int) -> str:
        seat = SEAT_NAMES[state.player]
        if state.pivot < 0:
            if action == self.PASS:
                return "passing is allowed only when no move is (free_pass=False); a move is legal"
            if action >= self.ANGLE:
                return "choose the pivot first: a man of yours"
            name, value = self.cell_name(action), state.board[action]
            if value == OFF_BOARD:
                return f"cell {action} is not on the board"
            if value != PIECE[state.player]:
                return f"{name} holds no man of {seat}'s; the pivot is a man of yours"
            return f"no block through {name} can turn: every rotation lands off the board or on your own men"
        pivot = self.cell_name(state.pivot)
        if not state.angle:
            if action < self.ANGLE or action == self.PASS:
                return f"the pivot is {pivot}: choose the angle (1..5 sixths of a turn clockwise)"
            return f"no block through {pivot} can turn by {action - self.ANGLE + 1} (off the board or onto your men)"
        if action >= self.ANGLE:
            return f"the block through {pivot} is being chosen: add a man next to it, or {pivot} again to turn it"
        if action == state.pivot:
            return f"the block {self._block_text(state)} cannot turn yet: a man lands off the board or on a man of yours outside it, or nothing moves"
        name = self.cell_name(action)
        if state.board[action] != PIECE[state.player]:
            return f"{name} holds no man of {seat}'s"
        if action in state.block:
            return f"{name} is in the block already"
        if action not in state.reach:
            return f"with {name} in it no block through {pivot} can turn by {state.angle}"
        return f"{name} is not next to the block so far ({self._block_text(state)})"

    def _block_text(self, state: BlockdanceState) -> str:
        return " ".join(self.cell_name(c) for c in state.block)

    def heuristic_returns(self, state: BlockdanceState) -> tuple[float, float]:
        """Men now: y's less o's. The game is won by killing every enemy man and a man once
        killed never comes back, so the count is the progress made; a lead of ``MEN_LEAD`` men
        (of the start's 21 a side) is worth 0.76 (``envs.core.lead_returns``)."""
        return lead_returns(state.men(0) - state.men(1), MEN_LEAD)

    def outcome_info(self, state: BlockdanceState) -> dict:
        return {"reason": self.reason(state), "men": (state.men(0), state.men(1))}

    def result_text(self, state: BlockdanceState) -> str:
        return f"{super().result_text(state)} ({self.reason(state)}; men: y {state.men(0)}, o {state.men(1)})"

    def turn_kind(self, state: BlockdanceState, actions: Sequence[int]) -> str:
        return "pass" if list(actions[:1]) == [self.PASS] else "rotate"

    def goal_text(self, seat: int) -> str:
        return "kill every enemy man: turn a connected block of your men round one of them onto empty cells or enemies"

    # --- symmetry ------------------------------------------------------------
    def symmetries(self) -> list[Symmetry]:
        """The 12 maps of the hexagon; a mirror also swaps angle a and 6 - a (its planes and actions)."""
        maps = []
        mirrored = [self.ANGLE + 5 - a for a in ANGLES]  # angle a's action -> angle 6 - a's
        for name, image, reflects in hexagon.hexagon_maps(self.side):
            cells = cell_symmetry(name, image, self.info.num_actions)
            if not reflects:
                maps.append(cells)
                continue
            perm = cells.action_perm.copy()
            perm[self.ANGLE : self.PASS] = mirrored
            maps.append(Symmetry(name, _mirror_angles(cells.obs), perm))
        return maps

    # --- text --------------------------------------------------------------------------------
    def cell_name(self, cell: int) -> str:
        return hexagon.cell_name(self.side, cell)

    def parse_cell(self, text: str) -> int:
        return hexagon.parse_cell(self.side, text)

    def action_to_text(self, state: BlockdanceState, action: int) -> str:
        """``v5`` (a pivot or a man joining the block), ``.2`` (the angle), ``v5 end`` (the pivot
        again: turn the block), ``pass``."""
        action = int(action)
        if action == self.PASS:
            return "pass"
        if action >= self.ANGLE:
            return f".{action - self.ANGLE + 1}"
        name = self.cell_name(action) if self.on[action] else str(action)
        return f"{name} end" if state.angle and action == state.pivot else name

    def format_turn(self, state: BlockdanceState, actions: Sequence[int]) -> str:
        """``v5.2 xz5wy6`` (the block's other men row by row), ``t7.4 not(s6)`` when naming the
        men left out of the pivot's group is shorter, ``pass``; what a part of a turn has of it."""
        actions = [int(a) for a in actions]
        if actions[:1] == [self.PASS]:
            return "pass"
        scratch, text, members, whole = state.copy(), "", [], state.pivot < 0
        for action in actions:
            if scratch.pivot < 0:
                text = self.cell_name(action)
            elif not scratch.angle:
                text += f".{action - self.ANGLE + 1}"
            elif action != scratch.pivot:
                members.append(action)
            else:
                listed = cells_text(self.side, members)
                group = self.group_of(scratch.board, scratch.pivot) - set(scratch.block)
                left_out = f"not({cells_text(self.side, group)})"
                text += " " + (left_out if whole and group and len(left_out) < len(listed) else listed)
                members = []
            self.apply(scratch, action)
        return (text + " " + cells_text(self.side, members)).strip() if members else text.strip()

    def parse_turn(self, state: BlockdanceState, text: str) -> list[int]:
        """A turn, or the rest of one: at its start ``pass``, ``v5`` (the pivot), ``v5.2`` (and
        the angle) or ``v5.2 xz5wy6`` / ``t7.4 not(s6)`` (the whole turn); after the pivot
        ``.2`` or ``.2 xz5wy6``; while the block is chosen, the men still to join (the turn ends)."""
        words = turn_text(text).split()
        if state.player == TERMINAL:
            raise IllegalActionError(f"{text!r}: the game is over ({self.reason(state)})")
        scratch, actions = state.copy(), []

        def play(action: int) -> None:
            self.apply(scratch, action)
            actions.append(action)

        if state.pivot < 0:
            if [w.lower() for w in words] == ["pass"]:
                return [self.PASS]
            match = _PIVOT.match(words[0]) if words else None
            if match is None:
                raise NotationError(
                    f"cannot read Blockdance turn {text!r}: expected 'pass' or pivot.angle and the block's "
                    "other men, 'v5.2 xz5wy6' or 't7.4 not(s6)'"
                )
            play(self.parse_cell(match.group(1)))
            words.pop(0)
            if match.group(2) is None:
                if words:
                    raise NotationError(f"{text!r}: the angle follows the pivot after a dot, 'v5.2 xz5wy6'")
                return actions
            play(self._angle_action(match.group(2), text))
            if not words:
                return actions
        elif not state.angle:
            match = _ANGLE.match(words[0]) if words else None
            if match is None:
                raise NotationError(f"{text!r}: the pivot is chosen; write the angle, '.2' (and the block's men)")
            play(self._angle_action(match.group(1), text))
            words.pop(0)
            if not words:
                return actions
        for man in self._members(scratch, words, text):
            play(man)
        play(scratch.pivot)
        return actions

    def _angle_action(self, digit: str, text: str) -> int:
        if int(digit) not in ANGLES:
            raise NotationError(f"{text!r}: the angle is 1..5 sixths of a turn clockwise, got {digit}")
        return self.ANGLE + int(digit) - 1

    def _members(self, state: BlockdanceState, words: list[str], text: str) -> list[int]:
        """The men ``words`` name that are not in the block yet, in an order that keeps the block
        connected (nearest the block first)."""
        if words and words[-1].lower() == "end":
            words = words[:-1]
        left_out = NOT.match(words[0]) if len(words) == 1 else None
        if left_out:
            excluded = read_cells(self.side, left_out.group(1))
            if state.pivot in excluded:
                raise IllegalActionError(
                    f"{text!r}: not(...) may not leave out the pivot {self.cell_name(state.pivot)}"
                )
            group = self.group_of(state.board, state.pivot)
            strays = [self.cell_name(c) for c in excluded if c not in group]
            if strays:
                raise IllegalActionError(f"{text!r}: {' '.join(strays)} not in the pivot's group of men")
            wanted = group - set(excluded)
        else:
            wanted = [c for word in words for c in read_cells(self.side, word)]
            if len(set(wanted)) != len(wanted):
                raise NotationError(f"{text!r}: a man is named twice")
            if state.pivot in wanted:
                raise NotationError(
                    f"{text!r}: the pivot {self.cell_name(state.pivot)} stands before the dot; list the other men"
                )
            for man in wanted:
                if state.board[man] != PIECE[state.player]:
                    raise IllegalActionError(
                        f"{text!r}: {self.cell_name(man)} holds no man of {SEAT_NAMES[state.player]}'s"
                    )
            wanted = set(wanted)
        todo, block, order = set(wanted) - set(state.block), set(state.block), []
        while todo:
            near = sorted(m for m in todo if any(c in block for c in self.adjacent[m]))
            if not near:
                names = " ".join(self.cell_name(c) for c in sorted(todo))
                raise IllegalActionError(f"{text!r}: {names} not connected to the block through the pivot")
            order.append(near[0])
            block.add(near[0])
            todo.discard(near[0])
        return order

    def render_text(self, state: BlockdanceState) -> str:
        """The text's diagram (``y`` and ``o`` men), then whose turn it is and the turn so far."""
        lines = [hexagon.diagram(self.side, state.board, SYMBOLS)]
        if state.player == TERMINAL:
            lines.append(self.result_text(state))
        else:
            line = f"{SEAT_NAMES[state.player]} to move"
            if state.pivot >= 0:
                line += f": pivot {self.cell_name(state.pivot)}"
            if state.angle:
                line += f", angle {state.angle}, block {self._block_text(state)}"
            lines.append(line)
        return "\n".join(lines)

    def read_diagram(self, text: str) -> list[int]:
        """The board of a diagram in the text's layout (``y``, ``o``, ``.``; the text's ``,`` is empty)."""
        return hexagon.read_diagram(self.side, text, DIAGRAM_VALUES, OFF_BOARD).tolist()

    def board_view(self, state: BlockdanceState) -> BoardView:
        """The view (``envs.board_view``): the hexagon's men (Y black, O white), the turn so far
        marked (``*`` the pivot, ``+`` the block's other men, ``o`` where the block lands); every
        cell offers itself (the pivot, a man joining the block, the pivot again to turn it); the
        five angles and pass are buttons."""
        marks = [""] * self.num_cells
        if state.angle:
            image = self.context.rotation[state.angle, state.pivot]
            for man in state.block:
                marks[image[man]] = "o"
        for man in state.block:
            marks[man] = "+"
        if state.pivot >= 0:
            marks[state.pivot] = "*"
        layout, board, cells = hexagon_layout(self.side), state.board, []
        for cell, centre in enumerate(layout.centres):
            if centre is not None:
                tags = ("chosen",) if cell in state.block else ()
                owner = STONE_OF_VALUE[board[cell]]
                x, y = centre
                cells.append(Cell(cell, self.cell_name(cell), x, y, "hex", (cell,), owner, text=marks[cell], tags=tags))
        buttons = tuple(range(self.ANGLE, self.PASS + 1))
        notes = (self._step_text(state), f"men: y {state.men(0)} (black), o {state.men(1)} (white)")
        return BoardView(layout.width, layout.height, tuple(cells), (), layout.labels, buttons, notes)

    def _step_text(self, state: BlockdanceState) -> str:
        if state.player == TERMINAL:
            return self.result_text(state)
        seat = SEAT_NAMES[state.player]
        if state.pivot < 0:
            return f"{seat} to move: choose the pivot (or pass)"
        pivot = self.cell_name(state.pivot)
        if not state.angle:
            return f"{seat} to move, pivot {pivot}: choose the angle (sixths of a turn clockwise)"
        return f"{seat} to move, pivot {pivot}, angle {state.angle}: add a man next to the block, or {pivot} to turn it"


def _mirror_angles(spatial):
    """``spatial`` (a cell map of the planes) that also swaps the planes of angle a and 6 - a."""
    order = list(range(NUM_PLANES))
    order[6:11] = order[10:5:-1]

    def planes(obs: np.ndarray) -> np.ndarray:
        return np.ascontiguousarray(spatial(obs)[..., order, :, :])

    return planes


# --- cells listed compactly by row, as the text writes a block's men ------------------------------
def cells_text(side: int, cells: Iterable[int]) -> str:
    """``[x5, z5, w6, y6]`` (in any order) -> ``"xz5wy6"``: row by row, each row's letters in
    order and then its number."""
    names = sorted((hexagon.cell_name(side, c) for c in cells), key=_row_then_letter)
    words = []
    for row, names_in_row in groupby(names, key=lambda name: name[1:]):
        words.append("".join(name[0] for name in names_in_row) + row)
    return "".join(words)


def _row_then_letter(name: str) -> tuple[int, int]:
    return int(name[1:]), hexagon.LETTERS.index(name[0])


def read_cells(side: int, text: str) -> list[int]:
    """The cells of ``xz5wy6`` (also ``x5z5w6y6``), in the order written."""
    if not text:
        return []
    groups = _GROUP.findall(text)
    if "".join(letters + row for letters, row in groups) != text:
        raise NotationError(f"cannot read cells {text!r}: expected letters then a row number, e.g. 'xz5wy6'")
    return [hexagon.parse_cell(side, letter + row) for letters, row in groups for letter in letters]
