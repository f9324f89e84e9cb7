"""Push Go: Go with the push move of the seed's "Little Go change" (docs/games/push_go.md).

Cells (index = r * n + c; row 1 at the top, as in the other stone games)::

    1 |  0  1  2 ...
    2 |  n n+1  ...
         a  b  c

Colour 1 is ``x`` (black, moves first), colour 2 ``o`` (white, receives komi).
Actions: ``c`` places a stone on cell c; ``n*n + c`` pushes the enemy stone on c
(isolated, in atari) into its one liberty; ``2*n*n`` passes.
"""

from __future__ import annotations

import numpy as np

from envs.compiled import CompiledGame
from envs.core import TERMINAL, Game, GameInfo, IllegalActionError, NotationError, Symmetry, lead_returns, turn_text
from envs.games.push_go import kernels
from envs.games.push_go.kernels import KO_RULES, ORTHOGONAL, PUSH_FORMS, REPETITIONS
from envs.kernels import OUTCOME_RETURNS, cut_returns, playout_seed
from envs.stones.board import (
    DIHEDRAL,
    board_symmetry,
    cell_name,
    check_size,
    neighbour_table,
    parse_cell,
    square_diagram,
)

EMPTY, BLACK, WHITE = 0, 1, 2
SYMBOLS = ".xo"
SEAT_NAMES = ("x", "o")
NUM_PLANES = 6  # ko="push" adds a seventh: the position stands for the second time


class PushGoState:
    """The board (0 empty, 1 x, 2 o), whose turn, consecutive passes, turns played, the board
    before the last turn (the position the mover may not bring back: simple ko), and under
    ``ko="push"`` the positions so far (``seen``: a tuple of keys, the board and the player to
    move, shared between copies) and how often the current one has stood."""

    __slots__ = ("board", "player", "passes", "turns", "previous", "seen", "repeats")

    def __init__(self, n: int):
        self.board = bytearray(n * n)
        self.player = 0
        self.passes = 0
        self.turns = 0
        self.previous = bytes(n * n)
        self.seen: tuple[bytes, ...] = ()
        self.repeats = 1

    def copy(self) -> "PushGoState":
        other = PushGoState.__new__(PushGoState)
        other.board, other.previous = self.board[:], self.previous
        other.player, other.passes, other.turns = self.player, self.passes, self.turns
        other.seen, other.repeats = self.seen, self.repeats
        return other


class PushGo(Game):
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
        self.neighbours = neighbour_table(self.n, ORTHOGONAL)
        self._rows: PushGoRows | None = None
        self.info = GameInfo(
            name="push_go",
            seat_names=SEAT_NAMES,
            num_actions=2 * cells + 1,
            obs_shape=(NUM_PLANES + (ko == "push"), self.n, self.n),
            max_decisions=self.max_turns,
            params={"size": self.n, "komi": self.komi, "push_form": push_form, "max_turns": self.max_turns, "ko": ko},
        )

    # --- positions ----------------------------------------------------------------------------
    def initial_state(self) -> PushGoState:
        state = PushGoState(self.n)
        self._record(state)
        return state

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
        state = PushGoState(self.n)
        state.board = bytearray(SYMBOLS.index(w) for row in rows for w in row)
        state.previous = bytes(state.board)
        state.player = SEAT_NAMES.index(to_move)
        self._record(state)
        return state

    # --- transitions -----------------------------------------------------------------------------
    def to_play(self, state: PushGoState) -> int:
        return state.player

    def legal_actions(self, state: PushGoState) -> list[int]:
        """The placements by cell, the pushes by cell, the pass (``kernels.legal``)."""
        if state.player == TERMINAL:
            return []
        rows = self.compiled()
        return rows.moves[: kernels.legal(rows.context, rows.position(state), rows.moves)].tolist()

    def apply(self, state: PushGoState, action: int) -> None:
        action = self.check_action(state, action)
        if action not in self.legal_actions(state):
            raise IllegalActionError(f"action {action} ({self._name(action)}): {self._problem(state, action)}")
        rows = self.compiled()
        row = rows.position(state)
        kernels.advance(rows.context, row, action)
        if action != self.pass_action:
            state.previous, state.board = bytes(state.board), bytearray(row[: self.n * self.n].astype(np.uint8))
        else:
            state.previous = bytes(state.board)
        state.player, state.passes, state.turns = row[2 * self.n * self.n :][: kernels.TURNS + 1].tolist()
        if state.player == TERMINAL:
            return
        self._record(state)
        if state.repeats >= REPETITIONS or state.turns >= self.max_turns:
            state.player = TERMINAL

    def _record(self, state: PushGoState) -> None:
        """``ko="push"``: adds the position (the board and the player to move) to ``seen`` and
        counts how often it has stood, the start included."""
        if self.ko != "push":
            return
        key = bytes(state.board) + bytes((state.player,))
        state.seen += (key,)
        state.repeats = state.seen.count(key)

    def compiled(self) -> PushGoRows:
        """The game's rules over flat rows (``envs.games.push_go.kernels``), which the engine runs too."""
        if self._rows is None:
            self._rows = PushGoRows(self)
        return self._rows

    def _push_target(self, board, cell: int, colour: int) -> int | None:
        """The liberty the enemy stone on ``cell`` is pushed into, or None when there is no push."""
        if board[cell] != 3 - colour:
            return None
        stones, liberties = self._group(board, cell)
        if len(stones) != 1 or len(liberties) != 1:
            return None
        (liberty,) = liberties
        if self.push_form == "move":
            beyond = self._beyond(cell, liberty)
            if beyond is None or board[beyond] != colour:
                return None
        return liberty

    def _beyond(self, cell: int, liberty: int) -> int | None:
        """The cell on the far side of ``cell`` from ``liberty`` (None off the board)."""
        n = self.n
        r, c = divmod(cell, n)
        dr, dc = r - liberty // n, c - liberty % n
        if 0 <= r + dr < n and 0 <= c + dc < n:
            return (r + dr) * n + c + dc
        return None

    def _problem(self, state: PushGoState, action: int) -> str:
        n2, colour = self.n * self.n, state.player + 1
        board = state.board
        if action < n2:
            if board[action] != EMPTY:
                return f"{cell_name(action, self.n)} is not empty"
        else:
            cell = action - n2
            if board[cell] != 3 - colour:
                return f"there is no {SYMBOLS[3 - colour]} stone on {cell_name(cell, self.n)} to push"
            stones, liberties = self._group(board, cell)
            if len(stones) != 1:
                return "only an isolated stone (none of its colour beside it) can be pushed"
            if len(liberties) != 1:
                return f"the stone has {len(liberties)} liberties; only a stone in atari can be pushed"
            if self._push_target(board, cell, colour) is None:
                return f"the move form needs a {SYMBOLS[colour]} stone beyond it, opposite its liberty"
        if self._suicide(state, action):
            return "suicide: the turn would leave a group of the mover's without liberties"
        return "ko: the turn would bring back the board as it was before the opponent's last turn"

    def _suicide(self, state: PushGoState, action: int) -> bool:
        """Whether ``action`` (a placement on an empty cell, or a push) leaves a group of the
        mover's without liberties: refused with no ko rule in force."""
        rows = self.compiled()
        row = rows.position(state)
        row[self.n * self.n : 2 * self.n * self.n] = -1  # no board equals it: no ko
        return not kernels.result(rows.context, row, action)

    def _group(self, board, cell: int) -> tuple[list[int], set[int]]:
        colour, stones, liberties = board[cell], [cell], set()
        seen = {cell}
        for stone in stones:
            for x in self.neighbours[stone]:
                if board[x] == EMPTY:
                    liberties.add(x)
                elif board[x] == colour and x not in seen:
                    seen.add(x)
                    stones.append(x)
        return stones, liberties

    def random_playout(self, state: PushGoState, rng: np.random.Generator) -> tuple[tuple[float, float], int, int]:
        """Uniformly random legal actions from ``state`` (left untouched) to the end:
        ``(returns, decisions, turns)``, in one numba kernel (``kernels.play``) that draws one
        seed from ``rng`` (``playout_seed``) and plays the game ``Game.engine_playout`` plays for
        that seed (``tests/test_push_go_playouts.py``)."""
        if state.player == TERMINAL:
            return self.returns(state), 0, 0
        outcome, decisions, turns = self._play(state, playout_seed(rng), -1)[0]
        return OUTCOME_RETURNS[outcome], int(decisions), int(turns)

    def cut_playout(self, state: PushGoState, rng: np.random.Generator, turns: int) -> tuple[float, float]:
        """``Game.cut_playout`` in the playout kernel, the score of the board it stops at scoring
        it; the engine loop's game for the same seed."""
        if state.player == TERMINAL:
            return self.returns(state)
        (outcome, _, _), row = self._play(state, playout_seed(rng), turns)
        return cut_returns(outcome, lambda: self._lead(row[: self.n * self.n]))

    def _play(self, state: PushGoState, seed: int, cut: int) -> tuple[tuple[int, int, int], np.ndarray]:
        """``kernels.play`` from ``state`` (not over): its ``(outcome, decisions, turns)`` and the
        row it stopped at."""
        rows = self.compiled()
        row = rows.encode(state)
        return kernels.play(rows.context, row, seed, cut), row

    # --- the end -------------------------------------------------------------------------------
    def area(self, board) -> tuple[int, int]:
        """Area scores (x, o): stones plus the empty regions that touch one colour only."""
        board = board if isinstance(board, np.ndarray) else np.frombuffer(bytes(board), np.uint8)
        black, white = kernels.area_of(self.compiled().context, board.astype(np.int32))
        return int(black), int(white)

    def margin(self, state: PushGoState) -> float:
        """x's area minus o's area and the komi."""
        return self._margin(state.board)

    def _margin(self, board) -> float:
        black, white = self.area(board)
        return black - white - self.komi

    def heuristic_returns(self, state: PushGoState) -> tuple[float, float]:
        """The score now (``margin``): x's area (stones and the empty regions only its stones
        touch) less o's and the komi, what the game is scored by when it ends; a lead of the
        board's side (n points) is worth 0.76 (``envs.core.lead_returns``). On a nearly empty
        board the komi outweighs the rest, alike for every move a search compares."""
        return self._lead(state.board)

    def _lead(self, board) -> tuple[float, float]:
        return lead_returns(self._margin(board), self.n)

    def returns(self, state: PushGoState) -> tuple[float, float]:
        if state.player != TERMINAL or state.repeats >= REPETITIONS:
            return (0.0, 0.0)
        margin = self.margin(state)
        return (0.0, 0.0) if margin == 0 else ((1.0, -1.0) if margin > 0 else (-1.0, 1.0))

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

    # --- observation and symmetry ----------------------------------------------------------------
    def observe(self, state: PushGoState) -> np.ndarray:
        rows, out = self.compiled(), np.empty(self.info.obs_shape, np.float32)
        kernels.observe(rows.context, rows.position(state), out)
        return out

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
    def _name(self, action: int) -> str:
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
            liberty = self._push_target(state.board, cell, state.player + 1)
            if liberty is not None:
                return f"{cell_name(cell, self.n)}>{cell_name(liberty, self.n)}"
        return self._name(action)

    def parse_turn(self, state: PushGoState, text: str) -> list[int]:
        """``e5`` (a stone on e5), ``d5>c5`` (push the stone on d5 into c5), ``pass``."""
        word = turn_text(text).strip().lower()
        if word == "pass":
            return [self.pass_action]
        if ">" not in word:
            return [parse_cell(word, self.n)]
        source, _, target = word.partition(">")
        cell, liberty = parse_cell(source, self.n), parse_cell(target, self.n)
        if state.player != TERMINAL and self._push_target(state.board, cell, state.player + 1) not in (None, liberty):
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

    def board_view(self, state: PushGoState):
        from envs.games.push_go.view import push_go_view

        return push_go_view(self, state)


class PushGoRows(CompiledGame):
    """Push Go's ``envs.compiled.CompiledGame``: its rows and context (``kernels``' docstring)."""

    def __init__(self, game: PushGo):
        self.game, self.cells = game, game.n * game.n
        self.start = kernels.history_start(self.cells)  # a position's entries, the history aside
        self.words = kernels.words(self.cells)
        self.room = game.max_turns + 1 if game.ko == "push" else 0  # the start, then a position a turn
        self.width = self.start + self.room * self.words
        self.max_legal = 2 * self.cells + 1
        self.context = kernels.context(game.n, game.push_form, game.ko, game.max_turns, game.komi, self.width)
        self.moves = np.empty(self.max_legal, np.int64)  # the engine's legal actions

    def position(self, state: PushGoState) -> np.ndarray:
        """The row of ``state`` without its history: all that legality, a turn's board and the
        observation read."""
        cells = self.cells
        row = np.empty(self.start, np.int32)
        row[:cells] = np.frombuffer(state.board, np.uint8)
        row[cells : 2 * cells] = np.frombuffer(state.previous, np.uint8)
        row[2 * cells :] = (state.player, state.passes, state.turns, state.repeats, len(state.seen))
        return row

    def encode(self, state: PushGoState) -> np.ndarray:
        if len(state.seen) > self.room:
            raise ValueError(f"a position with {len(state.seen)} earlier positions; the rows hold {self.room}")
        row = np.zeros(self.width, np.int32)
        row[: self.start] = self.position(state)
        if state.seen:
            keys = np.frombuffer(b"".join(state.seen), np.uint8).reshape(len(state.seen), self.cells + 1)
            row[self.start : self.start + len(keys) * self.words] = kernels.pack_keys(keys).reshape(-1)
        return row

    def decode(self, row: np.ndarray) -> PushGoState:
        cells = self.cells
        state = PushGoState.__new__(PushGoState)
        state.board = bytearray(row[:cells].astype(np.uint8))
        state.previous = row[cells : 2 * cells].astype(np.uint8).tobytes()
        state.player, state.passes, state.turns, state.repeats, stored = row[2 * cells : self.start].tolist()
        packed = row[self.start : self.start + stored * self.words].reshape(stored, self.words)
        state.seen = tuple(key.tobytes() for key in kernels.unpack_keys(packed, cells))
        return state
