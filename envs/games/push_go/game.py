"""Push Go: Go with the push move of the seed's "Little Go change" (docs/games/push_go.md).

Cells (index = r * n + c; row 1 at the top, as in the other stone games)::

    1 |  0  1  2 ...
    2 |  n n+1  ...
         a  b  c

Colour 1 is ``x`` (black, moves first), colour 2 ``o`` (white, receives komi).
Actions: ``c`` places a stone on cell c; ``n*n + c`` pushes the enemy stone on c
(isolated, in atari) into its one liberty; ``2*n*n`` passes. The rules are ``kernels.py``'s;
``envs.kit.RowGame`` makes them the engine. Here is what a person reads or types: the table
below, the notation, the text and the board's view.
"""

from __future__ import annotations

import numpy as np

from envs.board_view import BoardView, Cell
from envs.core import TERMINAL, GameInfo, NotationError, Symmetry, lead_returns, turn_text
from envs.games.push_go import kernels
from envs.games.push_go.kernels import KO_RULES, PASSES, PLAYER, PUSH_FORMS, REPEATS, REPETITIONS, TURNS
from envs.kit import RowGame, RowState, row_field
from envs.stones.board import DIHEDRAL, board_symmetry, cell_name, check_size, parse_cell, square_diagram
from envs.stones.view import STONE_OF_VALUE, square_stone_layout

EMPTY, BLACK, WHITE = 0, 1, 2
SYMBOLS = ".xo"
SEAT_NAMES = ("x", "o")
NUM_PLANES = 6  # ko="push" adds a seventh: the position stands for the second time


def _scalars(row):
    return 2 * row[-1] ** 2  # after the board and the previous one (the side is last)


class PushGoState(RowState):
    """A position as the kernels' row (``kernels.py``'s layout, the board's side last); the
    properties read it: the board (0 empty, 1 x, 2 o), the board before the last turn (what
    simple ko refuses to bring back), whose turn, consecutive passes, turns played, and how often
    the position has stood (``ko="push"``)."""

    __slots__ = ()

    board = property(lambda self: self.row[: self.row[-1] ** 2].tolist())
    previous = property(lambda self: self.row[self.row[-1] ** 2 : 2 * self.row[-1] ** 2].tolist())
    player = row_field(PLAYER, _scalars)
    passes = row_field(PASSES, _scalars)
    turns = row_field(TURNS, _scalars)
    repeats = row_field(REPEATS, _scalars)


class PushGo(RowGame):
    """The rules of Push Go (``PushGo-v0``).

    ==============  ==============================================================
    Board           n x n, ``size`` 2..19 (default 9); cell ``r * n + c``, row 1 at
                    the top
    Seats           0 ``x`` (black, moves first), 1 ``o`` (white, takes ``komi``,
                    default 7.5)
    Actions         ``Discrete(2*n*n + 1)``: 0..n*n-1 place a stone on the cell;
                    n*n + c push the enemy stone on c, an isolated stone (no stone of
                    its colour beside it) in atari, into its one liberty, and place a
                    stone on c (``push_form="place"``, the form the text settles on;
                    ``"move"``: the mover's stone beyond c moves onto c instead);
                    2*n*n pass. Captures, then suicide: a turn removes the enemy's
                    groups left without liberties, then a group of the mover's left
                    without liberties makes the turn illegal
    Ko              ``ko="simple"`` (default): a turn may not bring back the board as it
                    was before the opponent's last turn (placements and pushes alike);
                    ``ko="push"``: no ko rule (the push settles kos), and a turn after
                    which a position (board and player to move) stands for the third
                    time ends the game drawn
    Observation     ``(6, n, n)`` float32 from the mover's view: 0 mover's stones, 1
                    opponent's stones, 2 mover's stones in atari, 3 opponent's stones in
                    atari, 4 the mover is x, 5 the opponent passed last; ``ko="push"``
                    adds 6: the position stands for the second time (once more draws)
    Returns         area scoring: stones plus empty regions that touch one colour only;
                    x wins (+1 / -1) when its area exceeds o's plus ``komi``, o when it
                    falls short, a draw (0) when equal (only with a whole-number komi)
                    or after a third repetition (``ko="push"``)
    Termination     two passes in a row (scored even on a third repetition), a third
                    repetition (``ko="push"``), or ``max_turns`` turns (default 4*n*n)
    Symmetries      the 8 maps of the square
    Notation        ``e5``, a push ``d5>c5`` (the stone on d5 goes to c5), ``pass``
    ==============  ==============================================================
    """

    state_class = PushGoState

    def __init__(
        self,
        size: int = 9,
        komi: float = 7.5,
        push_form: str = "place",
        max_turns: int | None = None,
        ko: str = "simple",
    ):
        self.n = check_size(size, 2)
        if self.n > 19:
            raise ValueError(f"size must be from 2 to 19, got {size}")
        if isinstance(komi, bool) or not isinstance(komi, (int, float)) or not abs(komi) <= self.n * self.n:
            raise ValueError(f"komi must be a number of points within +-{self.n * self.n}, got {komi!r}")
        if push_form not in PUSH_FORMS:
            raise ValueError(f"push_form must be one of {PUSH_FORMS}, got {push_form!r}")
        if ko not in KO_RULES:
            raise ValueError(f"ko must be one of {KO_RULES}, got {ko!r}")
        default_turns = 4 * self.n * self.n
        max_turns = default_turns if max_turns is None else max_turns
        if isinstance(max_turns, bool) or not isinstance(max_turns, (int, np.integer)) or max_turns < 1:
            raise ValueError(f"max_turns must be a positive integer, got {max_turns!r}")
        self.komi, self.push_form, self.ko, self.max_turns = float(komi), push_form, ko, int(max_turns)
        cells = self.n * self.n
        self.pass_action = 2 * cells
        width = kernels.width(self.n, ko, self.max_turns)
        context = kernels.context(self.n, push_form, ko, self.max_turns, self.komi, width)
        info = GameInfo(
            name="push_go",
            seat_names=SEAT_NAMES,
            num_actions=2 * cells + 1,
            obs_shape=(NUM_PLANES + (ko == "push"), self.n, self.n),
            max_decisions=self.max_turns,
            params={"size": self.n, "komi": self.komi, "push_form": push_form, "max_turns": self.max_turns, "ko": ko},
        )
        super().__init__(info, context, kernels.start_row(context, np.zeros(cells), 0), max_legal=2 * cells + 1)

    # --- positions ----------------------------------------------------------------------------
    def from_diagram(self, text: str, to_move: str = "x") -> PushGoState:
        """A position from a diagram: rows of ``.``, ``x`` and ``o`` top to bottom; an arrow
        ``<-`` or ``<`` (the seed's mark of the cell a push emptied) reads as ``.``, any other
        word (row numbers, ``[edge]``) is ignored; ``to_move`` ``x`` or ``o``."""
        lines = text.replace("<-", " . ").replace("<", " . ").splitlines()
        rows = [[w for w in line.split() if w in SYMBOLS] for line in lines]
        rows = [row for row in rows if row]
        if len(rows) != self.n or any(len(row) != self.n for row in rows):
            shape = [len(row) for row in rows]
            raise NotationError(f"a {self.n}x{self.n} diagram needs {self.n} rows of {self.n} cells, got {shape}")
        if to_move not in SEAT_NAMES:
            raise NotationError(f"to_move must be 'x' or 'o', got {to_move!r}")
        return self.state_of([SYMBOLS.index(w) for row in rows for w in row], SEAT_NAMES.index(to_move))

    def state_of(self, board, player: int) -> PushGoState:
        """The state of ``board`` (0 empty, 1 x, 2 o) with ``player`` to move, as a game's start:
        no earlier board to repeat, the position standing once."""
        return PushGoState(kernels.start_row(self.context, board, player))

    def to_play(self, state: PushGoState) -> int:
        return state.player  # read from the row: quicker than a kernel call

    def _push_target(self, state: PushGoState, cell: int) -> int:
        """The liberty the mover would push the enemy stone on ``cell`` into (-1: no push)."""
        n, board = self.n, state.row[: self.n * self.n]
        move_form = self.push_form == "move"
        return int(kernels.push_target(board, cell, state.player + 1, n, move_form, self.context.neighbours))

    def suicide(self, state: PushGoState, action: int) -> bool:
        """Whether ``action`` (a placement on an empty cell, or a push) leaves a group of the
        mover's without liberties: refused with no ko rule in force."""
        row = state.row.copy()
        n2 = self.n * self.n
        row[n2 : 2 * n2] = -1  # no board equals it: no ko
        return not kernels.result(self.context, row, action)

    def illegal_reason(self, state: PushGoState, action: int) -> str:
        n2, colour = self.n * self.n, state.player + 1
        board = state.row[:n2]
        if action < n2:
            if board[action] != EMPTY:
                return f"{cell_name(action, self.n)} is not empty"
        else:
            cell = action - n2
            if board[cell] != 3 - colour:
                return f"there is no {SYMBOLS[3 - colour]} stone on {cell_name(cell, self.n)} to push"
            stones, liberties = kernels.group_of(self.context, board, cell)
            if stones != 1:
                return "only an isolated stone (none of its colour beside it) can be pushed"
            if liberties != 1:
                return f"the stone has {liberties} liberties; only a stone in atari can be pushed"
            if self._push_target(state, cell) < 0:
                return f"the move form needs a {SYMBOLS[colour]} stone beyond it, opposite its liberty"
        if self.suicide(state, action):
            return "suicide: the turn would leave a group of the mover's without liberties"
        return "ko: the turn would bring back the board as it was before the opponent's last turn"

    # --- the end -------------------------------------------------------------------------------
    def area(self, board) -> tuple[int, int]:
        """Area scores (x, o): stones plus the empty regions that touch one colour only."""
        black, white = kernels.area_of(self.context, np.asarray(board, np.int32))
        return int(black), int(white)

    def margin(self, state: PushGoState) -> float:
        """x's area minus o's area and the komi."""
        black, white = self.area(state.board)
        return black - white - self.komi

    def heuristic_returns(self, state: PushGoState) -> tuple[float, float]:
        """The score now (``margin``): x's area (stones and the empty regions only its stones
        touch) less o's and the komi, what the game is scored by when it ends; a lead of the
        board's side (n points) is worth 0.76 (``envs.core.lead_returns``). On a nearly empty
        board the komi outweighs the rest, alike for every move a search compares."""
        return lead_returns(self.margin(state), self.n)

    def outcome_info(self, state: PushGoState) -> dict:
        return {"margin": self.margin(state)}

    def result_text(self, state: PushGoState) -> str:
        if state.repeats >= REPETITIONS:
            return "a draw by repetition (the position stood a third time)"
        margin = self.margin(state)
        if margin == 0:
            return "a draw"
        return f"{SEAT_NAMES[int(margin < 0)]} wins by {abs(margin):g}"

    def turn_kind(self, state: PushGoState, actions) -> str:
        action = actions[0] if actions else self.pass_action
        return "pass" if action == self.pass_action else ("push" if action >= self.n * self.n else "place")

    def goal_text(self, seat: int) -> str:
        return "have more area (stones and surrounded empty cells)" + (" after the komi" if seat == 0 else " with komi")

    # --- symmetry -----------------------------------------------------------------------------
    def symmetries(self) -> list[Symmetry]:
        n2 = self.n * self.n
        result = []
        for name in DIHEDRAL:
            base = board_symmetry(name, self.n, self.info.num_actions)
            perm = base.action_perm.copy()
            perm[n2 : 2 * n2] = base.action_perm[:n2] + n2
            result.append(Symmetry(name, base.obs, perm))
        return result

    # --- text ---------------------------------------------------------------------------------
    def action_name(self, action: int) -> str:
        n2 = self.n * self.n
        if action == self.pass_action:
            return "pass"
        if action < n2:
            return cell_name(action, self.n)
        return f"push {cell_name(action - n2, self.n)}"

    def action_to_text(self, state: PushGoState, action: int) -> str:
        action, n2 = int(action), self.n * self.n
        if n2 <= action < 2 * n2:
            cell = action - n2
            liberty = self._push_target(state, cell)
            if liberty >= 0:
                return f"{cell_name(cell, self.n)}>{cell_name(liberty, self.n)}"
        return self.action_name(action)

    def parse_turn(self, state: PushGoState, text: str) -> list[int]:
        """``e5`` (a stone on e5), ``d5>c5`` (push the stone on d5 into c5), ``pass``."""
        word = turn_text(text).strip().lower()
        if word == "pass":
            return [self.pass_action]
        if ">" not in word:
            return [parse_cell(word, self.n)]
        source, _, target = word.partition(">")
        cell, liberty = parse_cell(source, self.n), parse_cell(target, self.n)
        if state.player != TERMINAL and self._push_target(state, cell) not in (-1, liberty):
            raise NotationError(f"{text!r}: the stone on {source} would be pushed into its liberty, not {target}")
        return [self.n * self.n + cell]

    def render_text(self, state: PushGoState) -> str:
        lines = square_diagram([SYMBOLS[v] for v in state.board], self.n)
        black, white = self.area(state.board)
        lines.append(f"area x {black}, o {white}, komi {self.komi:g}")
        if state.player == TERMINAL:
            lines.append(self.result_text(state))
        else:
            lines.append(f"{SEAT_NAMES[state.player]} to move")
        return "\n".join(lines)

    def board_view(self, state: PushGoState) -> BoardView:
        """The view (``envs.board_view``): the stone board of the other square games; every empty
        cell offers its placement, every stone of the mover's opponent its push (the mover's own
        stones offer their cell's placement, never legal, so that every cell offers something);
        pass is a button."""
        n2, layout = self.n * self.n, square_stone_layout(self.n)
        enemy = 2 - state.player if state.player != TERMINAL else -1
        cells = []
        for cell, (x, y) in enumerate(layout.centres):
            value = state.board[cell]
            actions = (n2 + cell,) if value == enemy else (cell,)
            cells.append(Cell(cell, cell_name(cell, self.n), x, y, "square", actions, STONE_OF_VALUE[value]))
        black, white = self.area(state.board)
        notes = [f"area so far: {SEAT_NAMES[0]} {black}, {SEAT_NAMES[1]} {white} (komi {self.komi:g})"]
        if state.player != TERMINAL:
            notes.insert(0, f"{SEAT_NAMES[state.player]} to move" + (" (the opponent passed)" if state.passes else ""))
            if state.repeats == REPETITIONS - 1:  # ko="push": a repetition more draws
                notes.append("this position has stood before: a third time ends the game drawn")
        lines, labels = layout.lines, layout.labels
        return BoardView(layout.width, layout.height, tuple(cells), lines, labels, (self.pass_action,), tuple(notes))
