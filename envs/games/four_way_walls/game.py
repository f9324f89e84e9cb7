"""Four-way walls (docs/games/four_way_walls.md): a Quoridor variant in which each player's four
stones head for the four boundaries, every stone steps each turn and then a wall is played.

A turn is micro-steps: for each stone that moves, the stone (its cell) and its destination (a
cell, or ``off`` across its goal boundary); then the wall (one action per wall slot). The
schedule (``13444``: one step in the first turn, three in the second, then four) counts the
steps, each by a different stone. The rules are ``kernels.py``'s; ``envs.kit.RowGame`` makes
them the engine. Here is what a person reads or types: the table, the notation (the names in
``notation.py``), the text and the board's view.
"""

from __future__ import annotations

import re
from typing import Sequence

import numpy as np

from envs.board_view import WOOD, BoardView, Cell, Label, Line
from envs.core import TERMINAL, GameInfo, IllegalActionError, NotationError, Symmetry, lead_returns, turn_text
from envs.games.four_way_walls import kernels
from envs.games.four_way_walls.board import HORIZONTAL, OFF, Position, seat_of
from envs.games.four_way_walls.notation import (
    DIRECTIONS,
    POINT_COLUMNS,
    POINT_ROWS,
    STONE_LETTERS,
    diagram,
    parse_wall,
    read_diagram,
    stone_letter,
    wall_name,
)
from envs.kernels import OUTCOME_RETURNS
from envs.kit import RowGame, RowState, row_field
from envs.schedule.schedule import TurnSchedule
from envs.stones.board import COLUMNS, cell_name, parse_cell

SEAT_NAMES = ("NESW", "nesw")
STEP, WALL = 0, 1  # the phases of a turn: stones stepping, then the wall
NUM_PLANES = 23
MIN_SIZE, MAX_SIZE = 4, 25  # the start needs two stones a side apart; point names run A..Z
CHOSEN, WALL_INK, GROOVE = "#f0f078", "#782814", "#be965a"  # the board view's
SEAT_STONES = ("black", "white")
_STEP_WORD = re.compile(r"^([NESWnesw])([nesw])([nesw])?$", re.IGNORECASE)
_PICK_WORD = re.compile(r"^([NESWnesw])([a-z][0-9]{1,2})$")


def _scalars(row):
    return len(row) - kernels.SCALARS  # the scalars end the row


class WallsState(RowState):
    """A position as the kernels' row (``kernels.py``'s layout); the properties read it: the
    board (a :class:`Position`), the seat to move, the turn (its number, the phase, the steps
    left, the stones that have moved in it, the stone picked), each seat's walls in hand, and the
    result (None while the game goes on)."""

    __slots__ = ()

    player = row_field(kernels.PLAYER, _scalars)
    turn = row_field(kernels.TURN, _scalars)
    phase = row_field(kernels.PHASE, _scalars)
    steps_left = row_field(kernels.STEPS, _scalars)
    moved = row_field(kernels.MOVED, _scalars)
    picked = row_field(kernels.PICKED, _scalars)
    walls_left = property(lambda self: self.row[_scalars(self.row) + kernels.WALLS0 :][:2].tolist())

    @property
    def result(self) -> tuple[float, float] | None:
        result = self.row[_scalars(self.row) + kernels.RESULT]
        return None if result < 0 else OUTCOME_RETURNS[result]

    @property
    def pos(self) -> Position:
        """The stones and walls (a copy)."""
        points = (kernels.side_of(self.row) + 1) ** 2
        walls = [bool(w) for w in self.row[kernels.WALLS : kernels.WALLS + 2 * points]]
        return Position(kernels.side_of(self.row), self.row[: kernels.WALLS].tolist(), (walls[:points], walls[points:]))

    def off(self, seat: int) -> int:
        """How many of ``seat``'s stones have left the board."""
        return int(np.count_nonzero(self.row[4 * seat : 4 * seat + 4] == OFF))


def start_stones(size: int) -> list[int]:
    """The text's start, scaled: two stones on each edge, at the edge's cells k and n-1-k with
    k = (n - 1) // 3 (3 and 6 on 10 x 10), each heading for the opposite boundary; a quarter turn
    maps every stone onto the start of the same seat's stone heading a quarter on (N onto E's
    cell), a mirror left to right onto the other seat's."""
    k, far = (size - 1) // 3, size - 1 - (size - 1) // 3
    last = size - 1

    def at(r: int, c: int) -> int:
        return r * size + c

    # seat 0: N E S W, then seat 1: n e s w
    return [at(last, far), at(far, 0), at(0, k), at(k, last), at(last, k), at(k, 0), at(0, far), at(far, last)]


class FourWayWalls(RowGame):
    """The rules of Four-way walls (``FourWayWalls-v0``).

    ==============  ==============================================================
    Seats           0 = ``N E S W`` (moves first), 1 = ``n e s w``; each stone heads
                    for the boundary its letter names
    Actions         ``Discrete(n*n + 1 + 2*(n-1)**2)`` (263 on 10 x 10): 0..n*n-1 a
                    cell (the stone to step, then its destination); n*n ``off`` (the
                    picked stone leaves across its goal boundary); then the walls,
                    horizontal ones first, wall ``(i, j)`` (its centre point) at
                    n*n + 1 + o*(n-1)**2 + (i-1)*(n-1) + (j-1)
    Observation     ``(23, n, n)`` float32 from the mover's view: 0-3 the mover's
                    stones heading N, E, S, W, 4-7 the opponent's; 8 and 9 the
                    horizontal and vertical walls at their centres (point (i, j) on
                    cell (i-1, j-1)); 10-13 a wall on the cell's N, E, S, W side; 14
                    the stone picked; 15 the mover's stones that have stepped this
                    turn; 16 the wall is next; 17 steps left this turn / 4; 18 and 19
                    the mover's and the opponent's walls in hand / ``walls``; 20 and
                    21 their stones off the board / 3; 22 turns played / ``max_turns``
    Returns         +1 / -1 for the first seat with three stones off the board; 0 at
                    ``max_turns`` turns
    Symmetries      the square's 8 maps, each stone's goal mapped along
    Notation        a turn is its steps in order, then the wall: ``Nn Ee Ss Ww GIc``
                    (stone, direction, and the right angle a blocked jump turned:
                    ``Nne``); the text's table rows are read too (``- - - W CEj``)
    Arguments       ``size`` (4..25, default 10), ``walls`` each (default 10),
                    ``schedule`` (default ``13444``), ``max_turns`` (default 200)
    ==============  ==============================================================
    """

    state_class = WallsState

    def __init__(self, size: int = 10, walls: int = 10, schedule="13444", max_turns: int = 200):
        for key, value, least in (("size", size, MIN_SIZE), ("walls", walls, 0), ("max_turns", max_turns, 1)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < least:
                raise ValueError(f"{key} must be an integer of at least {least}, got {value!r}")
        if size > MAX_SIZE:
            raise ValueError(f"size must be an integer from {MIN_SIZE} to {MAX_SIZE}, got {size!r}")
        self.schedule = TurnSchedule(schedule)
        if self.schedule.most > 4:
            raise ValueError(f"schedule: a turn steps each of four stones at most once, got {schedule!r}")
        self.size, self.walls, self.max_turns = int(size), int(walls), int(max_turns)
        n = self.size
        self.OFF = n * n
        self.WALL0 = n * n + 1
        self.slots = (n - 1) ** 2
        info = GameInfo(
            name="four_way_walls",
            seat_names=SEAT_NAMES,
            num_actions=self.WALL0 + 2 * self.slots,
            obs_shape=(NUM_PLANES, n, n),
            max_decisions=(2 * self.schedule.most + 1) * self.max_turns,
            params={"size": n, "walls": self.walls, "schedule": self.schedule.text, "max_turns": self.max_turns},
        )
        context = kernels.context(n, self.max_turns, self.walls, self.schedule.counts)
        self.context = context  # ``state_at`` makes the start with it
        start = self.state_at(Position.empty(n, start_stones(n))).row
        super().__init__(info, context, start, kernels.max_legal(n))

    # --- positions: the engine is ``envs.kit.RowGame``'s over the kernels --------------------------
    def state_at(
        self, pos: Position, to_move: int = 0, turn: int = 0, walls_left: Sequence[int] | None = None
    ) -> WallsState:
        """A state at the start of ``to_move``'s turn number ``turn`` (0 = the game's first)."""
        if pos.size != self.size:
            raise ValueError(f"the position is {pos.size} x {pos.size}, the game {self.size} x {self.size}")
        if not self._all_can_reach(pos):
            raise ValueError("a stone of the position has no path to its goal boundary")
        if to_move not in (0, 1) or isinstance(turn, bool) or not isinstance(turn, int) or turn < 0:
            raise ValueError(f"to_move must be 0 or 1 and turn a turn number from 0, got {to_move!r}, {turn!r}")
        if walls_left is not None and (len(walls_left) != 2 or any(not 0 <= int(w) for w in walls_left)):
            raise ValueError(f"walls_left must be two counts of walls in hand, got {walls_left!r}")
        walls_left = [self.walls] * 2 if walls_left is None else [int(w) for w in walls_left]
        state = self.state_of(pos, to_move, turn, STEP, 0, 0, -1, walls_left, None)
        if any(state.off(seat) >= kernels.TO_WIN for seat in (0, 1)):
            raise ValueError("a seat of the position has three stones off the board: the game is over")
        kernels.start_turn(self.context, state.row, to_move, turn)
        return state

    def state_of(
        self,
        pos: Position,
        player: int,
        turn: int,
        phase: int,
        steps_left: int,
        moved: int,
        picked: int,
        walls_left: list[int],
        result: tuple[float, float] | None,
    ) -> WallsState:
        """The state of these fields as they stand."""
        outcome = -1 if result is None else OUTCOME_RETURNS.index(tuple(result))
        scalars = [player, turn, phase, steps_left, moved, picked, *walls_left, outcome]
        return WallsState(np.array([*pos.stones, *pos.walls[0], *pos.walls[1], *scalars], np.int32))

    def _all_can_reach(self, pos: Position) -> bool:
        """Whether every stone on the board still has a path to its goal boundary."""
        n = self.size
        seen, todo = np.empty(n * n, np.uint8), np.empty(n * n, np.int64)
        return kernels.all_can_reach(np.array(pos.stones, np.int32), wall_array(pos), n, seen, todo)

    def from_diagram(self, text: str, to_move: int = 0, turn: int = 4, walls_left=None) -> WallsState:
        """A state from a diagram in the text's style (``render_text``'s first lines); stones not
        drawn are off the board. By default past the schedule's opening, each seat's walls in hand
        ``walls``."""
        return self.state_at(read_diagram(text), to_move, turn, walls_left)

    def to_play(self, state: WallsState) -> int:
        return TERMINAL if state.row[-kernels.SCALARS + kernels.RESULT] >= 0 else state.player

    def routes(self, state: WallsState, stone: int) -> dict[int, list[tuple[int, int | None]]]:
        """Every destination of ``stone`` (a cell, or ``OFF``'s action ``n * n``) with the routes
        that reach it: (direction, the right angle a blocked jump turned or None)."""
        n = self.size
        out, ways = np.empty(n * n + 1, np.int64), np.empty((8, 3), np.int64)
        walls = state.row[kernels.WALLS : len(state.row) - kernels.SCALARS]
        _, found = kernels.route_ways(state.row[: kernels.WALLS], walls, n, stone, out, ways)
        routes: dict[int, list[tuple[int, int | None]]] = {}
        for destination, d, turn in ways[:found].tolist():
            routes.setdefault(destination, []).append((d, None if turn < 0 else turn))
        return dict(sorted(routes.items()))

    def heuristic_returns(self, state: WallsState) -> tuple[float, float]:
        """The race: each seat's steps still to go (``kernels.steps_to_go``: its three stones
        nearest their goals, by their shortest paths past the walls), seat 1's less seat 0's; a
        lead of the board's side (n steps) is worth 0.76 (``envs.core.lead_returns``). Walls
        lengthen the paths, so a wall that costs the rival more steps than it costs the mover
        counts too."""
        steps = np.empty(2, np.int64)
        kernels.steps_to_go(state.row[: kernels.WALLS], state.row[kernels.WALLS : -kernels.SCALARS], self.size, steps)
        return lead_returns(int(steps[1] - steps[0]), self.size)

    def outcome_info(self, state: WallsState) -> dict:
        return {"off": [state.off(0), state.off(1)], "turns": state.turn}

    def goal_text(self, seat: int) -> str:
        letters = " ".join(STONE_LETTERS[seat])
        return f"be first to get three of your stones {letters} off the board, each across the boundary it names"

    def result_text(self, state: WallsState) -> str:
        winner = self.winner(state)
        if winner is None:
            return f"a draw ({self.max_turns} turns)"
        return f"{SEAT_NAMES[winner]} wins with three stones off the board"

    def turn_kind(self, state: WallsState, actions: Sequence[int]) -> str:
        """``place`` for a turn that played a wall, ``short`` for one without (no wall left or none
        legal, or the game ended in it)."""
        return "place" if any(a >= self.WALL0 for a in actions) else "short"

    # --- actions and their names -----------------------------------------------------------------------
    def _wall_action(self, o: int, i: int, j: int) -> int:
        return self.WALL0 + o * self.slots + (i - 1) * (self.size - 1) + (j - 1)

    def _wall_of(self, action: int) -> tuple[int, int, int]:
        o, rest = divmod(action - self.WALL0, self.slots)
        i, j = divmod(rest, self.size - 1)
        return o, i + 1, j + 1

    def action_name(self, action: int) -> str:
        if action < self.OFF:
            return f"cell {cell_name(action, self.size)}"
        if action == self.OFF:
            return "off the board"
        return f"wall {wall_name(*self._wall_of(action))}"

    def illegal_reason(self, state: WallsState, action: int) -> str:
        pos, seat = state.pos, state.player
        if state.phase == WALL:
            if action < self.WALL0:
                return "the stones have stepped: play a wall"
            o, i, j = self._wall_of(action)
            clash = wall_clash(state, o, i, j)
            return clash or "it would cut a stone off from its goal boundary"
        if action >= self.WALL0:
            return "the wall comes after the stones' steps"
        if state.picked >= 0:
            letter = stone_letter(state.picked)
            return f"stone {letter} cannot get there in one step (a step, a jump over stones, or a blocked jump's turn)"
        if action == self.OFF:
            return "pick a stone first"
        stone = pos.occupant().get(action)
        if stone is None or seat_of(stone) != seat:
            return f"no stone of {SEAT_NAMES[seat]} stands there"
        if state.moved >> stone & 1:
            return f"stone {stone_letter(stone)} has stepped this turn"
        return f"stone {stone_letter(stone)} has no step"

    def action_to_text(self, state: WallsState, action: int) -> str:
        action = int(action)
        if not 0 <= action < self.info.num_actions:
            raise IllegalActionError(f"action {action} is out of range 0..{self.info.num_actions - 1}")
        if action == self.OFF:
            return "off"
        if action >= self.WALL0:
            return wall_name(*self._wall_of(action))
        stone = state.pos.occupant().get(action)
        name = cell_name(action, self.size)
        picking = state.result is None and state.phase == STEP and state.picked < 0
        return stone_letter(stone) + name if picking and stone is not None else name

    # --- turns as text ------------------------------------------------------------------------------------
    def format_turn(self, state: WallsState, actions: Sequence[int]) -> str:
        """The steps in order and the wall: ``Nn Ee Ss Ww GIc``; a step is its stone, direction and
        (a jump that turned) the right angle; a stone picked at the end of ``actions`` is written
        as its letter and cell (``Nd4``)."""
        state, words = state.copy(), []
        for action in actions:
            if state.phase == STEP and state.picked >= 0:
                stone = state.picked
                found = self.routes(state, stone)[action]
                d, turn = min(found, key=lambda route: route[1] is not None)
                words[-1] = stone_letter(stone) + DIRECTIONS[d] + ("" if turn is None else DIRECTIONS[turn])
            else:
                words.append(self.action_to_text(state, action))
            self.apply(state, action)
        return " ".join(words)

    def parse_turn(self, state: WallsState, text: str) -> list[int]:
        """A whole turn of the seat to move: its steps (``Nn``, ``Nne``), then its wall (``GIc``);
        the text's table rows (``N E S W GIc``, ``- - - W CEj``: each stone's direction in the
        order N E S W, ``-`` for none) are read too. Within a step a picked stone takes its
        destination (``n``, ``d3`` or ``off``). The text must end where the seat's turn does."""
        words = re.split(r"[\s,]+", turn_text(text).strip())
        words = [w for w in words if w]
        if state.result is not None:
            raise IllegalActionError(f"turn {text!r}: the game is over")
        if not words:
            raise NotationError("a turn needs its steps and its wall, e.g. 'Nn Ee Ss Ww GIc'")
        seat, trial, actions = state.player, state.copy(), []
        if len(words) >= 4 and all(len(w) == 1 and w.upper() in "NESW-" for w in words[:4]) and trial.picked < 0:
            letters = STONE_LETTERS[seat]
            words = [letters[g] + w.lower() for g, w in enumerate(words[:4]) if w != "-"] + words[4:]
        for word in words:
            if self.to_play(trial) != seat:
                raise IllegalActionError(f"turn {text!r}: {word!r} comes after the turn's end")
            try:
                for action in self._read_word(trial, word):
                    self.apply(trial, action)
                    actions.append(action)
            except IllegalActionError as error:
                raise IllegalActionError(f"{word!r} of turn {text!r}: {error}") from None
        if self.to_play(trial) == seat:
            if trial.turn != state.turn:  # a record turn runs on while the opponent's turns pass
                raise IllegalActionError(
                    f"turn {text!r} stops early: {SEAT_NAMES[1 - seat]}'s turn passed (no step, no wall), "
                    f"so the record turn goes on with {SEAT_NAMES[seat]}'s next one"
                )
            todo = "its wall" if trial.phase == WALL else f"{trial.steps_left} more step(s)"
            raise IllegalActionError(f"turn {text!r} stops early: the turn still holds {todo}")
        return actions

    def _read_word(self, state: WallsState, word: str) -> list[int]:
        """The actions of one word in ``state``: a wall, a step, a pick, or a picked stone's destination."""
        n = self.size
        if state.phase == WALL:
            if _STEP_WORD.match(word) or _PICK_WORD.match(word):
                raise IllegalActionError(f"{word!r}: the turn's steps are done: play a wall")
            o, i, j = parse_wall(n, word)
            return [self._wall_action(o, i, j)]
        if state.picked >= 0:
            if word.lower() == "off":
                return [self.OFF]
            if word[0].isalpha() and word[1:].isdigit():
                return [parse_cell(word, n)]
            return [self._destination(state, state.picked, word, word)]
        if match := _PICK_WORD.match(word):
            return [self._stone_cell(state, match[1], word)]
        match = _STEP_WORD.match(word)
        if not match:
            raise NotationError(
                f"cannot read {word!r}: a step is a stone and a direction ('Nn', 'ew'; 'Nne' for a blocked "
                "jump's turn), a wall two points and a line ('CEj', 'Fik')"
            )
        cell = self._stone_cell(state, match[1], word)
        stone = state.pos.stones.index(cell)
        return [cell, self._destination(state, stone, word[1:], word)]

    def _stone_cell(self, state: WallsState, letter: str, word: str) -> int:
        seat = state.player
        if letter not in STONE_LETTERS[seat]:
            raise IllegalActionError(f"{word!r}: {letter} is not a stone of {SEAT_NAMES[seat]}, who is to move")
        cell = state.pos.stones[4 * seat + STONE_LETTERS[seat].index(letter)]
        if cell == OFF:
            raise IllegalActionError(f"{word!r}: stone {letter} has left the board")
        return cell

    def _destination(self, state: WallsState, stone: int, way: str, word: str) -> int:
        """The destination of ``stone`` by ``way``: a direction and, for a jump that turned, the turn."""
        way = way.lower()
        if not (1 <= len(way) <= 2 and all(ch in DIRECTIONS for ch in way)):
            raise NotationError(f"cannot read {word!r}: a destination is a direction (n e s w), a cell or 'off'")
        d, turn = DIRECTIONS.index(way[0]), DIRECTIONS.index(way[1]) if len(way) == 2 else None
        routes = self.routes(state, stone)
        found = [dest for dest, ways in routes.items() if any(r[0] == d for r in ways)]
        if turn is not None:
            found = [dest for dest in found if (d, turn) in routes[dest]]
        elif len(found) > 1:  # a straight step is meant where there is one; else the jump must say its turn
            straight = [dest for dest in found if (d, None) in routes[dest]]
            found = straight or found
        if not found:
            raise IllegalActionError(f"{word!r}: stone {stone_letter(stone)} cannot go that way")
        if len(found) > 1:
            options = " or ".join(stone_letter(stone) + way[0] + DIRECTIONS[t] for t in range(4) if (t - d) % 2)
            raise NotationError(f"{word!r} is ambiguous: the jump may turn either way ({options})")
        return found[0]

    # --- symmetry -----------------------------------------------------------------------------------------
    def symmetries(self) -> list[Symmetry]:
        """The square's eight maps, each stone's goal mapped along (``symmetry.py``)."""
        from envs.games.four_way_walls.symmetry import symmetries

        return symmetries(self)

    # --- pictures ------------------------------------------------------------------------------------------
    def render_text(self, state: WallsState) -> str:
        lines = [diagram(state.pos)]
        lines.append(
            f"walls in hand {SEAT_NAMES[0]} {state.walls_left[0]}, {SEAT_NAMES[1]} {state.walls_left[1]}; "
            f"off the board {SEAT_NAMES[0]} {state.off(0)}, {SEAT_NAMES[1]} {state.off(1)}"
        )
        if state.result is not None:
            lines.append(self.result_text(state))
        else:
            lines.append(f"{SEAT_NAMES[state.player]} to move (turn {state.turn + 1}): {self.step_text(state)}")
        return "\n".join(lines)

    def step_text(self, state: WallsState) -> str:
        """What the mover is to do next, in words."""
        if state.phase == WALL:
            return "play a wall"
        if state.picked >= 0:
            return f"choose stone {stone_letter(state.picked)}'s destination"
        return f"choose a stone to step ({state.steps_left} step(s) left)"

    def board_view(self, state: WallsState) -> BoardView:
        """The board as vector data (``envs.board_view``) at twice the cells' pitch: cell (r, c)
        at (2c + 0.5, 2r + 0.5), each offering itself (the stone to step, or a destination); the
        wall slots between four cells at their centre point, each offering its horizontal and
        its vertical wall (the centre of a standing wall tagged ``wall``); the walls as thick
        lines, ``off`` (a stone leaving the board) as a button."""
        n, pos = self.size, state.pos
        at = pos.occupant()
        chosen = pos.stones[state.picked] if state.picked >= 0 else None
        cells = []
        for cell in range(n * n):
            r, c = divmod(cell, n)
            stone = at.get(cell)
            owner = SEAT_STONES[seat_of(stone)] if stone is not None else ""
            text = stone_letter(stone) if stone is not None else ""
            tags = ("chosen",) if cell == chosen else ()
            fill = CHOSEN if cell == chosen else WOOD
            cells.append(
                Cell(cell, cell_name(cell, n), 2 * c + 0.5, 2 * r + 0.5, "square", (cell,), owner, fill, text, tags)
            )
        standing = {(i, j) for _, i, j in pos.wall_list()}
        for i in range(1, n):
            for j in range(1, n):
                actions = (self._wall_action(0, i, j), self._wall_action(1, i, j))
                wall = (i, j) in standing
                fill, tags = (WALL_INK, ("wall",)) if wall else (GROOVE, ())
                name = POINT_COLUMNS[j] + POINT_ROWS[i]
                cells.append(Cell(actions[0], name, 2 * j - 0.5, 2 * i - 0.5, "square", actions, "", fill, "", tags))
        lines = []
        for o, i, j in pos.wall_list():
            x, y = 2 * j - 0.5, 2 * i - 0.5
            dx, dy = (1.35, 0) if o == HORIZONTAL else (0, 1.35)  # over its two cells (the caps are round)
            lines.append(Line(x - dx, y - dy, x + dx, y + dy, WALL_INK, 0.3))
        side = 2 * n - 1
        labels = [Label(2 * c + 0.5, side + 0.45, COLUMNS[c]) for c in range(n)]
        labels += [Label(-0.45, 2 * r + 0.5, str(r + 1)) for r in range(n)]
        notes = [
            self.result_text(state)
            if state.result is not None
            else f"{SEAT_NAMES[state.player]} to move: {self.step_text(state)}",
            f"walls in hand {state.walls_left[0]} / {state.walls_left[1]}; off the board {state.off(0)} / {state.off(1)}",
        ]
        return BoardView(side, side, tuple(cells), tuple(lines), tuple(labels), (self.OFF,), tuple(notes))


def wall_array(pos: Position) -> np.ndarray:
    """The walls by centre as the kernels take them: int32, the horizontal ones' ``(n + 1) ** 2``
    entries, then the vertical ones'."""
    return np.array(pos.walls[0] + pos.walls[1], np.int32)


def wall_clash(state: WallsState, orientation: int, i: int, j: int) -> str:
    """Why a wall centred on point (i, j) cannot stand beside the others ('' if it can), in the
    rules' words: it may not overlap a wall of its own orientation nor cross one of the other at
    its centre."""
    n = kernels.side_of(state.row)
    if not (1 <= i <= n - 1 and 1 <= j <= n - 1):
        return "a wall may not lie on the boundary or leave the board"
    n1, walls = n + 1, state.pos.walls
    same, other = walls[orientation], walls[1 - orientation]
    if same[i * n1 + j]:
        return "a wall stands there already"
    di, dj = (0, 1) if orientation == HORIZONTAL else (1, 0)
    if same[(i - di) * n1 + j - dj] or same[(i + di) * n1 + j + dj]:
        return "it would overlap a wall"
    if other[i * n1 + j]:
        return "it would cross a wall"
    return ""
