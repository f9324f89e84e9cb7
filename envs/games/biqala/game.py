"""Biqala: a double mancala on two concentric rings with Wari (Oware abapa) rules,
sowing around the emptied cell's own ring, and a transfer to the other ring that
hands one stone to the opponent (docs/games/biqala.md).

The board is a 6 x 4 grid: an outer ring of 16 cells round an inner ring of 8.
A owns the capitals (top half), B the small letters; index = row * 6 + column::

    row 0 |  K  J  I  H  G  F      0  1  2  3  4  5     A's outer board
    row 1 |  L [D  C  B  A] E      6  7  8  9 10 11     A's inner board [ ]
    row 2 |  e [a  b  c  d] l     12 13 14 15 16 17     B's inner board [ ]
    row 3 |  f  g  h  i  j  k     18 19 20 21 22 23     B's outer board

Both rings are sown counterclockwise: outer e f g ... k l E F ... K L, inner
a b c d A B C D. Actions: 0-23 sow the cell, 24-47 begin a transfer from the
cell, 48-71 put one more stone of the transfer on the cell, 72 end the transfer.
"""

from __future__ import annotations

import re

import numpy as np

from envs.core import TERMINAL, Game, GameInfo, IllegalActionError, NotationError, turn_text
from envs.kernels import OUTCOME_RETURNS, playout_seed

ROWS, COLS = 4, 6
NUM_CELLS = ROWS * COLS
LETTERS = "KJIHGFLDCBAEeabcdlfghijk"  # the cell's letter, by index
CELL_OF = {letter: cell for cell, letter in enumerate(LETTERS)}
OUTER_RING = tuple(CELL_OF[x] for x in "efghijklEFGHIJKL")
INNER_RING = tuple(CELL_OF[x] for x in "abcdABCD")
RING_OF = tuple(OUTER_RING if cell in OUTER_RING else INNER_RING for cell in range(NUM_CELLS))
OWNER = tuple(0 if letter.isupper() else 1 for letter in LETTERS)
SEAT_CELLS = tuple(tuple(c for c in range(NUM_CELLS) if OWNER[c] == seat) for seat in (0, 1))
SOW, TRANSFER, PUT, END = 0, NUM_CELLS, 2 * NUM_CELLS, 3 * NUM_CELLS
NUM_ACTIONS = END + 1
SEAT_NAMES = ("A", "B")
NUM_PLANES = 9


def _partners(cell: int) -> tuple[int, ...]:
    """The owner's cells of the other ring that touch ``cell`` (at a side or a corner)."""
    row, col = divmod(cell, COLS)
    near = [
        (r * COLS + c)
        for r in range(row - 1, row + 2)
        for c in range(col - 1, col + 2)
        if 0 <= r < ROWS and 0 <= c < COLS and (r, c) != (row, col)
    ]
    return tuple(c for c in near if OWNER[c] == OWNER[cell] and RING_OF[c] is not RING_OF[cell])


PARTNERS = tuple(_partners(cell) for cell in range(NUM_CELLS))


class BiqalaState:
    """Stones per cell, the two stores, whose turn, the transfer in progress (its source
    cell, or -1), turns since the last capture, and turns played."""

    __slots__ = ("board", "stores", "player", "source", "idle", "turns")

    def __init__(self, outer: int, inner: int):
        self.board = [outer if RING_OF[cell] is OUTER_RING else inner for cell in range(NUM_CELLS)]
        self.stores = [0, 0]
        self.player = 0
        self.source = -1
        self.idle = 0
        self.turns = 0

    def copy(self) -> "BiqalaState":
        other = BiqalaState.__new__(BiqalaState)
        other.board, other.stores = self.board[:], self.stores[:]
        other.player, other.source, other.idle, other.turns = self.player, self.source, self.idle, self.turns
        return other

    def on_side(self, seat: int) -> int:
        """Stones on ``seat``'s cells."""
        return sum(self.board[c] for c in SEAT_CELLS[seat])


def sow(board: list[int], cell: int) -> tuple[int, list[int]]:
    """Sow ``cell``'s stones one by one counterclockwise round its own ring, skipping
    ``cell`` itself on every lap (Wari's 12-seed rule); ``board`` changes in place.
    Returns the last cell sown and the cells that capture: the last cell and those
    before it, while they are the opponent's and hold 2 or 3 (before the grand-slam test)."""
    ring = RING_OF[cell]
    owner = OWNER[cell]
    stones, board[cell] = board[cell], 0
    position = ring.index(cell)
    while stones:
        position = (position + 1) % len(ring)
        if ring[position] != cell:
            board[ring[position]] += 1
            stones -= 1
    last = ring[position]
    captured = []
    while OWNER[ring[position]] != owner and board[ring[position]] in (2, 3):
        captured.append(ring[position])
        position -= 1
    return last, captured


class Biqala(Game):
    """The rules of Biqala (``Biqala-v0``).

    ==============  ==============================================================
    Seats           0 = A (capitals, the top half, moves first), 1 = B (small letters)
    Board           24 cells on a 6 x 4 grid (module docstring): the outer ring of
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
        self._rows = None  # ``compiled()``'s, made on first use
        # a turn is a sow (1 action) or a transfer (at most total + 1 actions)
        self.info = GameInfo(
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

    # --- transitions ----------------------------------------------------------------------
    def initial_state(self) -> BiqalaState:
        return BiqalaState(self.outer_seeds, self.inner_seeds)

    def to_play(self, state: BiqalaState) -> int:
        return state.player

    def legal_actions(self, state: BiqalaState) -> list[int]:
        seat = state.player
        if seat == TERMINAL:
            return []
        if state.source >= 0:
            return [PUT + c for c in PARTNERS[state.source]] + [END]
        cells = [c for c in SEAT_CELLS[seat] if state.board[c]]
        if state.on_side(1 - seat) == 0:  # the opponent must be fed
            return [SOW + c for c in cells if _feeds(state.board, c)]
        return [SOW + c for c in cells] + [TRANSFER + c for c in cells]

    def apply(self, state: BiqalaState, action: int) -> None:
        action = self.check_action(state, action)
        legal = self.legal_actions(state)
        if action not in legal:
            raise IllegalActionError(f"action {action} ({_action_name(action)}): {self._problem(state, action)}")
        seat = state.player
        if action < TRANSFER:
            last, captured = sow(state.board, action - SOW)
            taken = sum(state.board[c] for c in captured)
            if taken and taken == state.on_side(1 - seat):  # a grand slam captures nothing
                taken, captured = 0, []
            for cell in captured:
                state.board[cell] = 0
            state.stores[seat] += taken
            self._end_turn(state, captured=taken > 0)
        elif action < PUT:
            state.source = action - TRANSFER
            state.board[state.source] -= 1
            state.stores[1 - seat] += 1
            if state.board[state.source] == 0:
                self._end_turn(state, captured=True)
        elif action < END:
            state.board[state.source] -= 1
            state.board[action - PUT] += 1
            if state.board[state.source] == 0:
                self._end_turn(state, captured=True)
        else:
            self._end_turn(state, captured=True)

    def _problem(self, state: BiqalaState, action: int) -> str:
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

    def _end_turn(self, state: BiqalaState, captured: bool) -> None:
        state.source = -1
        state.turns += 1
        state.idle = 0 if captured else state.idle + 1
        state.player = 1 - state.player
        half = self.total / 2
        cycle = state.idle >= self.idle_limit or state.turns >= self.max_turns
        if max(state.stores) > half or cycle or not self.legal_actions(state):
            for seat in (0, 1):
                state.stores[seat] += state.on_side(seat)
                for cell in SEAT_CELLS[seat]:
                    state.board[cell] = 0
            state.player = TERMINAL

    def random_playout(self, state: BiqalaState, rng: np.random.Generator) -> tuple[tuple[float, float], int, int]:
        """Uniformly random legal actions from ``state`` (left untouched, a transfer under way
        included) to the end: ``(returns, decisions, turns)``, in one numba kernel
        (``kernels.play`` on the state's row) that draws one seed from ``rng``
        (``playout_seed``) and plays the game ``Game.engine_playout`` plays for that seed
        (``tests/test_biqala_playouts.py``)."""
        if state.player == TERMINAL:
            return self.returns(state), 0, 0
        from envs.games.biqala import kernels  # here: numba compiles on first use

        rows = self.compiled()
        outcome, decisions, turns = kernels.play(rows.context, rows.encode(state), playout_seed(rng))
        return OUTCOME_RETURNS[outcome], int(decisions), int(turns)

    def compiled(self):
        """The game's rules over flat rows (``envs.games.biqala.kernels``)."""
        if self._rows is None:
            from envs.games.biqala.kernels import BiqalaRows

            self._rows = BiqalaRows(self)
        return self._rows

    def returns(self, state: BiqalaState) -> tuple[float, float]:
        if state.player != TERMINAL or state.stores[0] == state.stores[1]:
            return (0.0, 0.0)
        return (1.0, -1.0) if state.stores[0] > state.stores[1] else (-1.0, 1.0)

    def outcome_info(self, state: BiqalaState) -> dict:
        return {"stores": tuple(state.stores)}

    def result_text(self, state: BiqalaState) -> str:
        a, b = state.stores
        return ("a draw" if a == b else f"{SEAT_NAMES[int(b > a)]} wins") + f", {a}-{b}"

    def turn_kind(self, state: BiqalaState, actions) -> str:
        return "transfer" if actions and TRANSFER <= actions[0] < PUT else "sow"

    def goal_text(self, seat: int) -> str:
        return f"capture more than half the {self.total} stones"

    # --- observation ----------------------------------------------------------------------------
    def observe(self, state: BiqalaState) -> np.ndarray:
        out = np.zeros((NUM_PLANES, NUM_CELLS), dtype=np.float32)
        mover = 0 if state.player == TERMINAL else state.player
        board = np.array(state.board, dtype=np.float32)
        out[0] = np.array(OWNER) == mover
        out[1] = np.minimum(board, 24.0) / 24.0
        out[2] = board == 1
        out[3] = board == 2
        if state.source >= 0:
            out[4, state.source] = 1.0
            out[5] = 1.0
        out[6] = state.stores[mover] / self.total
        out[7] = state.stores[1 - mover] / self.total
        out[8] = state.idle / self.idle_limit
        return out.reshape(self.info.obs_shape)

    # --- text -----------------------------------------------------------------------------------
    def action_to_text(self, state: BiqalaState, action: int) -> str:
        return _action_name(int(action))

    def format_turn(self, state: BiqalaState, actions) -> str:
        """``C`` for a sow, ``C>JJI`` for a transfer (the end action is not written)."""
        return "".join(_action_name(a) for a in actions if a != END)

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

    def board_view(self, state: BiqalaState):
        from envs.games.biqala.picture import biqala_view

        return biqala_view(state)


def _feeds(board: list[int], cell: int) -> bool:
    """Whether sowing ``cell`` puts a stone on the opponent's side (it always stays: a
    capture that would take every stone there is a grand slam and captures nothing)."""
    ring = RING_OF[cell]
    position, stones = ring.index(cell), board[cell]
    for _ in range(min(stones, len(ring) - 1)):
        position = (position + 1) % len(ring)
        if OWNER[ring[position]] != OWNER[cell]:
            return True
    return False


def _action_name(action: int) -> str:
    if not 0 <= action < NUM_ACTIONS:
        return f"out of range 0..{NUM_ACTIONS - 1}"
    if action == END:
        return "."
    kind, cell = divmod(action, NUM_CELLS)
    return LETTERS[cell] + ("", ">", "")[kind]
