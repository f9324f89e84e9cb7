"""Biqala: a double mancala on two concentric rings with Wari (Oware abapa) rules,
sowing around the emptied cell's own ring, and a transfer to the other ring that
hands one stone to the opponent (docs/games/biqala.md).

The rules and the board (its diagram, cells and actions) are ``kernels.py``'s;
``envs.kit.RowGame`` makes them the engine. Here is what a person reads or types: the
table below, the notation, the text and the board's view.
"""

from __future__ import annotations

import re

import numpy as np

from envs.board_view import RGB, BoardView, Cell, Label, colour, square_layout
from envs.core import TERMINAL, GameInfo, IllegalActionError, NotationError, turn_text
from envs.games.biqala import kernels
from envs.games.biqala.kernels import (
    CELL_OF,
    COLS,
    END,
    IDLE,
    INNER_RING,
    LETTERS,
    NUM_ACTIONS,
    NUM_CELLS,
    NUM_PLANES,
    OWNER,
    PARTNERS,
    PLAYER,
    PUT,
    RING_OF,
    ROWS,
    SOURCE,
    SOW,
    STORES,
    TRANSFER,
    TURNS,
)
from envs.kernels import playout_seed
from envs.kit import RowGame, RowState, row_field

SEAT_NAMES = ("A", "B")
# owner x ring: A's outer, A's inner, B's outer, B's inner; the transfer's source is marked
CELL_COLOURS: tuple[tuple[RGB, RGB], ...] = (((235, 205, 150), (210, 170, 110)), ((170, 200, 225), (120, 160, 200)))
SOURCE_COLOUR: RGB = (240, 240, 120)


class BiqalaState(RowState):
    """A position as the kernels' row: stones per cell, the two stores, whose turn, the
    transfer in progress (its source cell, or -1), turns since the last capture, and turns
    played; the properties read it."""

    __slots__ = ()

    board = property(lambda self: self.row[:NUM_CELLS].tolist())
    stores = property(lambda self: self.row[STORES : STORES + 2].tolist())
    player = row_field(PLAYER)
    source = row_field(SOURCE)
    idle = row_field(IDLE)
    turns = row_field(TURNS)


class Biqala(RowGame):
    """The rules of Biqala (``Biqala-v0``).

    ==============  ==============================================================
    Seats           0 = A (capitals, the top half, moves first), 1 = B (small letters)
    Board           24 cells on a 6 x 4 grid (``kernels.py``'s diagram): the outer ring of
                    16 cells starts with ``outer_seeds`` stones each (3), the inner
                    ring of 8 with ``inner_seeds`` (4); each player owns 8 outer and
                    4 inner cells
    Actions         ``Discrete(73)``: 0-23 sow cell c (a whole Wari move); 24-47
                    begin a transfer from c (one of its stones goes at once to the
                    opponent's store: the stone the rules make the mover hand over);
                    48-71 put one more stone of the transfer on c, a cell of the mover
                    in the other ring touching the source; 72 end the transfer. The
                    transfer ends by itself when its source is empty
    Observation     ``(9, 4, 6)`` float32, from the mover's view: 0 the mover's cells,
                    1 stones / 24 (at most 1), 2 cells with 1 stone, 3 cells with 2,
                    4 the transfer's source, 5 a transfer in progress, 6 the mover's
                    store, 7 the opponent's store (both / all stones), 8 turns since the
                    last capture / ``idle_limit``
    Returns         +1 for the seat with more stones captured, -1 for the other, 0 each
                    for a tie
    Termination     a store holds more than half the stones; the player to move has no
                    legal move, or must feed and cannot (docs/games/biqala.md); ``idle_limit``
                    turns in a row without a capture or transfer, or ``max_turns``
                    turns in all (the cycle rule). Then each player takes the stones
                    on his own cells
    Symmetries      the identity only (a mirror reverses the sowing)
    Notation        a sow is the cell's letter, ``C``; a transfer is its source, ``>``
                    and the cells that receive a stone, ``C>JJI`` (four stones leave C:
                    one to the opponent, two to J, one to I); ``C>`` hands over one stone
    Arguments       ``outer_seeds`` (1-12, default 3), ``inner_seeds`` (1-12, default 4),
                    ``idle_limit`` (default 100 turns), ``max_turns`` (default 400)
    ==============  ==============================================================
    """

    state_class = BiqalaState

    def __init__(self, outer_seeds: int = 3, inner_seeds: int = 4, idle_limit: int = 100, max_turns: int = 400):
        for key, value, low, high in (
            ("outer_seeds", outer_seeds, 1, 12),
            ("inner_seeds", inner_seeds, 1, 12),
            ("idle_limit", idle_limit, 1, 10_000),
            ("max_turns", max_turns, 1, 10_000),
        ):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
                raise ValueError(f"{key} must be an integer from {low} to {high}, got {value!r}")
        self.outer_seeds, self.inner_seeds = int(outer_seeds), int(inner_seeds)
        self.idle_limit, self.max_turns = int(idle_limit), int(max_turns)
        self.total = 16 * self.outer_seeds + 8 * self.inner_seeds
        # a turn is a sow (1 action) or a transfer (at most total + 1 actions)
        info = GameInfo(
            name="biqala",
            seat_names=SEAT_NAMES,
            num_actions=NUM_ACTIONS,
            obs_shape=(NUM_PLANES, ROWS, COLS),
            max_decisions=self.max_turns * (self.total + 1),
            params={
                "outer_seeds": self.outer_seeds,
                "inner_seeds": self.inner_seeds,
                "idle_limit": self.idle_limit,
                "max_turns": self.max_turns,
            },
        )
        context = kernels.context(self.total, self.idle_limit, self.max_turns)
        super().__init__(info, context, kernels.start_row(self.outer_seeds, self.inner_seeds), kernels.MAX_LEGAL)

    def position(
        self, board, player: int = 0, stores=(0, 0), source: int = -1, idle: int = 0, turns: int = 0
    ) -> BiqalaState:
        """The state of these fields (``board``: 24 cells' stones)."""
        return BiqalaState(np.array([*board, *stores, player, source, idle, turns], np.int32))

    def to_play(self, state: BiqalaState) -> int:
        return int(state.row[PLAYER])  # read from the row: quicker than a kernel call

    def random_playout(self, state: BiqalaState, rng: np.random.Generator) -> tuple[tuple[float, float], int, int]:
        """``RowGame.random_playout``'s game (the same draws), by ``kernels.play``: the kernels
        inlined without numba's reference counts, twice as fast as the generic loop here."""
        row = state.row.copy()
        _, decisions, turns = kernels.play(self.context, row, playout_seed(rng))
        return self.returns(BiqalaState(row)), int(decisions), int(turns)

    def action_name(self, action: int) -> str:
        if not 0 <= action < NUM_ACTIONS:
            return f"out of range 0..{NUM_ACTIONS - 1}"
        if action == END:
            return "."
        kind, cell = divmod(action, NUM_CELLS)
        return LETTERS[cell] + ("", ">", "")[kind]

    def illegal_reason(self, state: BiqalaState, action: int) -> str:
        seat = state.player
        if state.source >= 0:
            partners = " ".join(LETTERS[c] for c in PARTNERS[state.source])
            return f"a transfer from {LETTERS[state.source]} is under way: put a stone on {partners}, or end it"
        cell = (action - SOW) % NUM_CELLS
        if action >= PUT:
            return "no transfer is under way: sow a cell or begin a transfer"
        if OWNER[cell] != seat:
            return f"{LETTERS[cell]} is {SEAT_NAMES[1 - seat]}'s cell"
        if not state.board[cell]:
            return f"{LETTERS[cell]} is empty"
        if action >= TRANSFER:
            return f"{SEAT_NAMES[1 - seat]} has no stones and must be fed; a transfer feeds nobody"
        return f"{SEAT_NAMES[1 - seat]} has no stones and sowing {LETTERS[cell]} does not reach them"

    def outcome_info(self, state: BiqalaState) -> dict:
        return {"stores": tuple(state.stores)}

    def result_text(self, state: BiqalaState) -> str:
        a, b = state.stores
        return ("a draw" if a == b else f"{SEAT_NAMES[int(b > a)]} wins") + f", {a}-{b}"

    def turn_kind(self, state: BiqalaState, actions) -> str:
        return "transfer" if actions and TRANSFER <= actions[0] < PUT else "sow"

    def goal_text(self, seat: int) -> str:
        return f"capture more than half the {self.total} stones"

    # --- text -----------------------------------------------------------------------------------
    def action_to_text(self, state: BiqalaState, action: int) -> str:
        return self.action_name(int(action))

    def format_turn(self, state: BiqalaState, actions) -> str:
        """``C`` for a sow, ``C>JJI`` for a transfer (the end action is not written)."""
        return "".join(self.action_name(a) for a in actions if a != END)

    _TURN = re.compile(r"^([A-La-l])(>([A-La-l]*))?$")

    def parse_turn(self, state: BiqalaState, text: str) -> list[int]:
        """``C`` (sow C) or ``C>JJI`` (transfer from C: one stone to the opponent, the rest
        to the cells named, one each); in a transfer under way, the cells still to receive."""
        word = turn_text(text).strip()
        if state.player == TERMINAL:
            raise IllegalActionError(f"{text!r}: the game is over")
        if state.source >= 0:
            puts, actions = word.lstrip(">"), []
        else:
            match = self._TURN.match(word)
            if match is None:
                raise NotationError(
                    f"cannot read Biqala turn {text!r}: expected a cell letter A-L or a-l (a sow, 'C') "
                    "or a transfer 'C>JJI' (source, '>', the cells receiving a stone)"
                )
            cell = CELL_OF[match.group(1)]
            if match.group(2) is None:
                return [SOW + cell]
            puts, actions = match.group(3), [TRANSFER + cell]
        bad = [x for x in puts if x not in CELL_OF]
        if bad:
            raise NotationError(f"{text!r}: {bad[0]!r} is not a cell letter (A-L, a-l)")
        state = state.copy()
        for action in actions:
            self.apply(state, action)
        for letter in puts:
            if state.source < 0:
                raise IllegalActionError(f"{text!r}: the transfer's source is empty before {letter}")
            actions.append(PUT + CELL_OF[letter])
            self.apply(state, actions[-1])
        if state.source >= 0:
            actions.append(END)
        return actions

    def render_text(self, state: BiqalaState) -> str:
        lines = []
        for row in range(ROWS):
            cells = range(row * COLS, (row + 1) * COLS)
            counts = "".join(f"{state.board[c]:3d}" for c in cells)
            names = " ".join(LETTERS[c] for c in cells)
            lines.append(f"{counts}    {names}")
        a, b = state.stores
        lines.append(f"captured: A {a}, B {b}")
        if state.player == TERMINAL:
            lines.append(self.result_text(state))
        elif state.source >= 0:
            lines.append(f"{SEAT_NAMES[state.player]} to move, transferring from {LETTERS[state.source]}")
        else:
            lines.append(f"{SEAT_NAMES[state.player]} to move")
        return "\n".join(lines)

    def board_view(self, state: BiqalaState) -> BoardView:
        """The board as vector data (``envs.board_view``), A's outer board at the top: every cell
        its owner's colour (the inner ring darker, a transfer's source marked and tagged
        ``chosen``), its stones counted on a neutral pile, its letter in its corner. A click on one
        of the mover's cells offers its sow and the start of a transfer from it; while a transfer
        is under way, a stone put on it; the end of the transfer is a button."""
        layout = square_layout(["A", "A", "B", "B"], [""] * COLS)
        cells = []
        for cell in range(ROWS * COLS):
            x, y = layout.centres[cell]
            chosen = cell == state.source
            ground = SOURCE_COLOUR if chosen else CELL_COLOURS[OWNER[cell]][int(RING_OF[cell] is INNER_RING)]
            stones = state.board[cell]
            actions = (PUT + cell,) if state.source >= 0 else (SOW + cell, TRANSFER + cell)
            pile, count = ("neutral", str(stones)) if stones else ("", "")
            tags = ("chosen",) if chosen else ()
            cells.append(Cell(cell, LETTERS[cell], x, y, "square", actions, pile, colour(ground), count, tags))
        labels = tuple(label for label in layout.labels if label.text)  # the rows' owners
        labels += tuple(Label(cell.x - 0.37, cell.y - 0.35, cell.name) for cell in cells)  # each cell's letter
        a, b = state.stores
        notes = [f"captured: {SEAT_NAMES[0]} {a}, {SEAT_NAMES[1]} {b}"]
        if state.source >= 0:
            notes.insert(
                0, f"{SEAT_NAMES[state.player]} transfers from {LETTERS[state.source]}: put a stone, or end it"
            )
        elif state.player >= 0:
            notes.insert(0, f"{SEAT_NAMES[state.player]} to move: sow a cell or begin a transfer from it")
        return BoardView(layout.width, layout.height, tuple(cells), (), labels, (END,), tuple(notes))
