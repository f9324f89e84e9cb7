"""Four-way walls (docs/games/four_way_walls.md): the text's move table replayed to its diagram,
hand-made positions for each rule (steps, jumps and their right-angle turns, the boundary,
walls: the path rule, overlaps, crossings, never on the boundary; stones leaving the board,
stones that cannot step, the win at three off), and random games against an independent
reading of the rules (hypothesis and seeded loops)."""

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import gymnasium as gym
import numpy as np
import pytest
from conformance import Reading, check_playout, check_random_game
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st

import envs  # noqa: F401  (registers the ids)
from envs import GameError, IllegalActionError, NotationError, make_game
from envs.games.four_way_walls.board import OFF, Position
from envs.games.four_way_walls.game import FourWayWalls, start_stones
from envs.games.four_way_walls.notation import (
    STONE_LETTERS,
    diagram,
    parse_wall,
    read_diagram,
    wall_name,
)
from envs.records import format_game, read_record, replay, split_turns
from envs.stones.board import cell_name, parse_cell

DATA = Path(__file__).parent / "data"
GAME = make_game("four_way_walls")
SMALL = FourWayWalls(size=5)


# the eight maps of the square in (row, column) terms, beside ``symmetry.py``'s array maps:
# (name, the map of (row, column) on a grid whose last index is m, swaps the axes)
SQUARE_MAPS: tuple[tuple[str, Callable[[int, int, int], tuple[int, int]], bool], ...] = (
    ("identity", lambda r, c, m: (r, c), False),
    ("turn 90", lambda r, c, m: (c, m - r), True),
    ("turn 180", lambda r, c, m: (m - r, m - c), False),
    ("turn 270", lambda r, c, m: (m - c, r), True),
    ("mirror left-right", lambda r, c, m: (r, m - c), False),
    ("mirror top-bottom", lambda r, c, m: (m - r, c), False),
    ("transpose", lambda r, c, m: (c, r), True),
    ("anti-transpose", lambda r, c, m: (m - c, m - r), True),
)
STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # north, east, south, west as (row, column)


@dataclass(frozen=True)
class SquareMap:
    """One map of the n x n board: of cells, of interior points (wall centres), of directions."""

    name: str
    size: int
    point: Callable[[int, int, int], tuple[int, int]]
    swaps: bool

    def cell(self, cell: int) -> int:
        r, c = self.point(*divmod(cell, self.size), self.size - 1)
        return r * self.size + c

    def wall(self, orientation: int, i: int, j: int) -> tuple[int, int, int]:
        i2, j2 = self.point(i, j, self.size)
        return (1 - orientation if self.swaps else orientation), i2, j2

    def direction(self, d: int) -> int:
        """The image of direction d (the map's linear part: the image of the origin subtracted)."""
        r0, c0 = self.point(0, 0, 0)
        r, c = self.point(*STEPS[d], 0)
        return STEPS.index((r - r0, c - c0))


def square_maps(size: int) -> list[SquareMap]:
    return [SquareMap(name, size, point, swaps) for name, point, swaps in SQUARE_MAPS]


def sample():
    record = read_record((DATA / "four_way_walls_sample.txt").read_text())
    states = [state.copy() for state in replay(GAME, record.turns)]
    return record, states


def position(game, stones: str, walls: str = "") -> Position:
    """A position from ``"N c3, n a5"`` (stone letter and cell; stones not named are off) and wall names."""
    cells = [OFF] * 8
    for item in stones.split(","):
        letter, name = item.split()
        seat = 0 if letter in STONE_LETTERS[0] else 1
        cells[4 * seat + STONE_LETTERS[seat].index(letter)] = parse_cell(name, game.size)
    pos = Position.empty(game.size, cells)
    for name in walls.split():
        o, i, j = parse_wall(game.size, name)
        pos.walls[o][i * (game.size + 1) + j] = True
    return pos


def at(game, stones: str, walls: str = "", to_move: int = 0, **kwargs):
    return game.state_at(position(game, stones, walls), to_move, turn=kwargs.pop("turn", 4), **kwargs)


def destinations(game, state, letter: str) -> list[str]:
    """The names of the cells (or ``off``) the stone may step to, by picking it."""
    trial = state.copy()
    seat = trial.player
    game.apply(trial, trial.pos.stones[4 * seat + STONE_LETTERS[seat].index(letter)])
    return sorted(game.action_to_text(trial, a) for a in game.legal_actions(trial))


def steps(game, state, text):
    """Apply steps (or other words) without ending the turn."""
    for word in text.split():
        for action in game._read_word(state, word):
            game.apply(state, action)
    return state


def wall_action(game, name: str) -> int:
    return game._wall_action(*parse_wall(game.size, name))


# --- the text's sample ------------------------------------------------------------------------------------
def test_the_move_table_replays_to_the_printed_diagram_stone_by_stone_and_wall_by_wall():
    record, states = sample()
    printed = (DATA / "four_way_walls_diagram.txt").read_text()
    final = states[-1].pos
    expected = read_diagram(printed)
    assert {cell_name(c, 10) for c in final.stones} == {cell_name(c, 10) for c in expected.stones}
    assert final.stones == expected.stones  # each letter on its printed cell
    assert sorted(final.wall_list()) == sorted(expected.wall_list())
    names = sorted(w for turn in record.turns for w in turn.split() if len(w) == 3)
    assert sorted(wall_name(*w) for w in final.wall_list()) == sorted("Hfh" if n == "Hhf" else n for n in names)
    # the drawing agrees character by character but for two mid-points: the text draws the middle
    # of Ddf (at De) and of Cfh (at Cg) as '+', the other vertical walls' middles as '|'
    ours, theirs = diagram(final).splitlines(), printed.splitlines()
    assert len(ours) == len(theirs) == 22
    differences = [(k, col) for k, (a, b) in enumerate(zip(ours, theirs)) for col in range(len(a)) if a[col] != b[col]]
    assert differences == [(9, 14), (13, 10)]
    assert ours[9][14] == ours[13][10] == "|" and theirs[9][14] == theirs[13][10] == "+"
    state = states[-1]
    assert GAME.to_play(state) == 1 and state.steps_left == 4 and state.walls_left == [5, 6]


def test_the_reconstructed_start_is_the_default_and_symmetric():
    start = GAME.initial_state().pos.stones
    assert [cell_name(c, 10) for c in start] == ["g10", "a7", "d1", "j4", "d10", "a4", "g1", "j7"]
    half_turn = [99 - c for c in start]  # each stone onto its partner heading the other way
    assert half_turn == [start[k] for k in (2, 3, 0, 1, 6, 7, 4, 5)]
    mirror = [(c // 10) * 10 + 9 - c % 10 for c in start]  # left to right: onto the other seat's stones
    assert mirror == [start[k] for k in (4, 7, 6, 5, 0, 3, 2, 1)]
    quarter = [(c % 10) * 10 + 9 - c // 10 for c in start]  # clockwise: N onto E's cell, E onto S's, ...
    assert quarter == [start[k] for k in (1, 2, 3, 0, 5, 6, 7, 4)]
    assert [cell_name(c, 5) for c in start_stones(5)] == ["d5", "a4", "b1", "e2", "b5", "a2", "d1", "e4"]
    for size in range(4, 26):  # the four turns keep each seat's start, stones relabelled; reflections swap seats
        for square in square_maps(size):
            start = start_stones(size)
            image = {(k // 4, square.direction(k % 4)): square.cell(cell) for k, cell in enumerate(start)}
            swaps_seats = square.name.startswith(("mirror", "transpose", "anti-transpose"))
            assert all(image[(seat ^ swaps_seats, d)] == start[4 * seat + d] for seat in (0, 1) for d in range(4))


def test_the_sample_prints_back_in_the_step_notation_and_reads_both_ways():
    record, _ = sample()
    state, actions = GAME.initial_state(), []
    for text in record.turns:
        turn = GAME.parse_turn(state, text)
        actions += turn
        for action in turn:
            GAME.apply(state, action)
    lines = format_game(GAME, actions)
    assert lines[:3] == ["Ww CEj", "ne ee ss Fik", "Nn Ee Ss Ww GIc"]
    assert lines[6] == "Nn En Sw Ww Hfh"  # the text's Hhf, its points in order
    *_, again = replay(GAME, lines)
    assert again.pos == state.pos and again.player == state.player
    # the 13444 equalizer: seat 0's first turn one step, seat 1's three, then four
    first = GAME.initial_state()
    assert first.steps_left == 1
    with pytest.raises(IllegalActionError, match="steps are done: play a wall"):
        GAME.parse_turn(first, "Ww Nn CEj")
    second = GAME.play_turn(GAME.initial_state(), "Ww CEj")
    assert second.steps_left == 3 and GAME.play_turn(second, "ne ee ss Fik").steps_left == 4


# --- steps, the boundary, jumps ---------------------------------------------------------------------------
def test_a_step_is_one_cell_and_only_the_goal_boundary_can_be_crossed():
    state = at(SMALL, "N a1, E a3, n e5, s e3")
    assert destinations(SMALL, state, "N") == ["a2", "b1", "off"]  # north is N's goal; west is the edge
    assert destinations(SMALL, state, "E") == ["a2", "a4", "b3"]  # the west boundary stops E
    walled = at(SMALL, "E c3, W e1, n e5, s d5", "BDc Dce")
    assert destinations(SMALL, walled, "E") == ["b3", "c4"]  # BDc blocks north, Dce east


def test_a_jump_clears_the_whole_line_of_stones_to_the_next_vacant_cell():
    state = at(SMALL, "N c5, n c4, E c3, e a1")
    assert destinations(SMALL, state, "N") == ["b5", "c2", "d5"]  # over n and E, own or not
    off = at(SMALL, "N c2, W e3, s c1, e a5")
    assert "off" in destinations(SMALL, off, "N")  # the next vacant "cell" is past N's goal
    SMALL.play_turn(off, "Nn")
    assert off.pos.stones[0] == OFF


def test_a_blocked_jump_turns_either_free_right_angle():
    # N on c4 jumps s on c3; BDc blocks beyond: from c3 it may turn to b3 or d3
    state = SMALL.from_diagram(
        """
  A   B   C   D   E   F
a + - - - - - - - - - +
  : n                 :
b :   +   +   +   +   :
  :                   :
c :   +-------+   +   :
  :         s         :
d :   +   +   +   +   :
  :         N         :
e :   +   +   +   +   :
  :                 W :
f + - - - - - - - - - +
"""
    )
    assert destinations(SMALL, state, "N") == ["b3", "b4", "c5", "d3", "d4"]
    with pytest.raises(NotationError, match="ambiguous.*Nne or Nnw"):
        SMALL.parse_turn(state, "Nn")
    actions = SMALL._read_word(state, "Nne")
    assert actions == [parse_cell("c4", 5), parse_cell("d3", 5)]
    assert SMALL.format_turn(state, actions) == "Nne" and SMALL.format_turn(state, actions[:1]) == "Nc4"
    # a stone beside the jumped one, or a wall there, leaves only the other way
    assert destinations(SMALL, at(SMALL, "N c4, W e5, s c3, n b3", "BDc"), "N") == ["b4", "c5", "d3", "d4"]
    assert destinations(SMALL, at(SMALL, "N c4, W e5, s c3, n a5", "BDc Dce"), "N") == ["b3", "b4", "c5"]  # Dce: east
    # a boundary that is not the jumper's goal stops it like a wall; its own goal lets it off
    assert destinations(SMALL, at(SMALL, "S c2, W e5, n c1, s a5"), "S") == ["b1", "b2", "c3", "d1", "d2"]
    # N jumps n east along the top row, Cac stops it: turning north takes it off across its goal
    assert destinations(SMALL, at(SMALL, "N a1, W e5, n b1, s a5", "Cac"), "N") == ["a2", "b2", "off"]


def test_a_wall_next_to_the_stone_blocks_the_direction_altogether():
    state = at(SMALL, "N c4, W e1, s c3, n a5", "BDd")  # between c4 and c3: no jump, no turn
    assert destinations(SMALL, state, "N") == ["b4", "c5", "d4"]


# --- walls -------------------------------------------------------------------------------------------------
def test_walls_are_never_on_the_boundary_and_every_slot_has_a_name():
    assert GAME.info.num_actions == 100 + 1 + 2 * 81
    for o in (0, 1):
        for i in range(1, 10):
            for j in range(1, 10):
                action = GAME._wall_action(o, i, j)
                name = GAME.action_to_text(GAME.initial_state(), action)
                assert GAME._wall_action(*parse_wall(10, name)) == action
    for text, problem in [
        ("ACa", "boundary"),
        ("ACk", "boundary"),
        ("Aac", "boundary"),
        ("Kfh", "boundary"),
        ("JLc", "leaves the board"),
        ("ADc", "two cells long"),
        ("Cfg", "two cells long"),
        ("CEz", "leaves the board"),
        ("CE3", "cannot read wall"),
    ]:
        with pytest.raises(NotationError, match=problem):
            parse_wall(10, text)


def test_overlapping_or_crossing_walls_are_refused_touching_ones_are_not():
    state = GAME.play_turn(GAME.initial_state(), "Ww CEj")
    steps(GAME, state, "ne ee ss")
    legal = set(GAME.legal_actions(state))
    for name, why in [("CEj", "stands there already"), ("DFj", "overlap"), ("BDj", "overlap"), ("Dik", "cross")]:
        assert wall_action(GAME, name) not in legal
        with pytest.raises(IllegalActionError, match=why):
            GAME.apply(state.copy(), wall_action(GAME, name))
    for name in ("EGj", "ACj", "Cik", "Eik", "Dhj"):  # end to end, or a T at an end or a middle
        assert wall_action(GAME, name) in legal


def test_no_wall_may_cut_a_stone_off_from_its_goal():
    # S on a1 with Bac east of a1, a2: ACc would shut a1, a2 in, and S heads south
    state = at(SMALL, "S a1, W e3, n e5, s c5", "Bac", to_move=0)
    steps(SMALL, state, "Ss Wn")  # S to a2, then the wall
    assert wall_action(SMALL, "ACc") not in SMALL.legal_actions(state)
    with pytest.raises(IllegalActionError, match="cut a stone off"):
        SMALL.apply(state.copy(), wall_action(SMALL, "ACc"))
    # the same pocket is allowed when nobody is in it, or for a stone whose goal it touches
    empty = at(SMALL, "S c1, W e3, n e5, s c5", "Bac")
    steps(SMALL, empty, "Ss Wn")
    assert wall_action(SMALL, "ACc") in SMALL.legal_actions(empty)
    northward = at(SMALL, "N b5, W e3, n a1, s e4", "Bac", to_move=1)
    steps(SMALL, northward, "ns ss")
    assert cell_name(northward.pos.stones[4], 5) == "a2"  # n, heading north, inside the pocket
    assert wall_action(SMALL, "ACc") in SMALL.legal_actions(northward)  # a2 -> a1 -> off
    # the opponent's stones count as much as one's own
    theirs = at(SMALL, "N e5, W e3, s a2, n c5", "Bac")
    steps(SMALL, theirs, "Nn Wn")
    assert wall_action(SMALL, "ACc") not in SMALL.legal_actions(theirs)
    with pytest.raises(ValueError, match="no path"):
        SMALL.state_at(position(SMALL, "S a1, W e3, n e5, s c5", "Bac ACc"))


# --- stones leaving, stuck, the end ---------------------------------------------------------------------------
def test_a_stone_off_the_board_steps_no_more():
    state = at(SMALL, "N c1, E a3, S b1, W e2, n e5, s a5")
    SMALL.play_turn(state, "Nn Ee Ss Ww ACd")
    assert state.pos.stones[0] == OFF and state.off(0) == 1
    SMALL.play_turn(state, "nw sn Bac")
    assert state.player == 0 and parse_cell("c1", 5) not in SMALL.legal_actions(state)
    with pytest.raises(IllegalActionError, match="N has left the board"):
        SMALL.parse_turn(state, "Nn Ee Ss Ww")
    turn = SMALL.parse_turn(state, "Ee Ss Ww CEb")  # three steps fill the turn, then the wall
    assert len(turn) == 7


def test_three_stones_off_win_at_once_even_mid_turn():
    state = at(SMALL, "S c5, W a2, n e5, e a1")
    assert state.off(0) == 2
    actions = SMALL.parse_turn(state, "Ss")
    for action in actions:
        SMALL.apply(state, action)
    assert SMALL.is_terminal(state) and SMALL.returns(state) == (1.0, -1.0)
    assert SMALL.result_text(state) == "NESW wins with three stones off the board"
    assert SMALL.outcome_info(state)["off"] == [3, 2]
    with pytest.raises(IllegalActionError, match="game is over"):
        SMALL.parse_turn(state, "Ww")


# seat 1's n (a5) and e (a4) are shut in: n's jump over e and E ends at ACc and both turns from a3
# are blocked (S on b3, the west edge); e cannot step east (Bdf), nor jump south off a board edge
# that is not its goal, nor north (the same blocked jump). Both still have paths: a3, b3, c3, c2.
STUCK = "E a3, S b3, n a5, e a4"
STUCK_WALLS = "Bdf ACc"


def test_a_stone_that_cannot_step_is_passed_over():
    state = at(SMALL, STUCK + ", s e1", STUCK_WALLS, to_move=1)
    assert SMALL.legal_actions(state) == [parse_cell("e1", 5)]  # s alone may step
    steps(SMALL, state, "ss")
    assert state.phase == 1 and state.player == 1  # one step of the four: the wall comes next


def test_a_turn_with_neither_a_step_nor_a_wall_passes():
    walls_only = at(SMALL, STUCK, STUCK_WALLS, to_move=1, walls_left=(3, 2))
    assert walls_only.phase == 1 and all(a > 25 for a in SMALL.legal_actions(walls_only))
    passed = at(SMALL, STUCK, STUCK_WALLS, to_move=1, walls_left=(3, 0))
    assert SMALL.to_play(passed) == 0 and passed.turn == 5
    limit = FourWayWalls(size=5, max_turns=5)
    over = limit.state_at(position(limit, STUCK, STUCK_WALLS), 1, turn=4, walls_left=(3, 0))
    assert limit.is_terminal(over) and limit.returns(over) == (0.0, 0.0) and "draw" in limit.result_text(over)


def test_a_record_turn_runs_on_while_the_opponents_turns_pass():
    game = FourWayWalls(size=5, schedule="1", max_turns=8)  # nesw is shut in and has no walls
    state = game.state_at(position(game, STUCK + ", N e5", STUCK_WALLS), 0, turn=4, walls_left=(5, 0))
    with pytest.raises(IllegalActionError, match="nesw's turn passed"):
        game.parse_turn(state, "Nn DFb")
    actions = game.parse_turn(state, "Nn DFb Nn DFc")  # turns 5 and 7 pass; turn 8 is the limit
    assert split_turns(game, actions, state) == [actions] and game.format_turn(state, actions) == "Nn DFb Nn DFc"
    assert game.to_play(game.step(game.step(state, actions[0]), actions[1])) == 0  # at once NESW again
    final = state.copy()
    for action in actions:
        game.apply(final, action)
    assert game.is_terminal(final) and final.turn == 8


# --- notation and errors ------------------------------------------------------------------------------------------
def test_bad_notation_and_illegal_steps_say_why():
    state = GAME.initial_state()
    for text, error, match in [
        ("", NotationError, "needs its steps"),
        ("Xn CEj", NotationError, "cannot read 'Xn'"),
        ("Nq CEj", NotationError, "cannot read 'Nq'"),
        ("nn CEj", IllegalActionError, "n is not a stone of NESW"),
        ("Ww", IllegalActionError, "stops early.*its wall"),
        ("Ww ACa", NotationError, "boundary"),
        ("We CEj", IllegalActionError, "cannot go that way"),
        ("Ww CEj Nn", IllegalActionError, "comes after the turn's end"),
    ]:
        with pytest.raises(error, match=match):
            GAME.parse_turn(state, text)
    with pytest.raises(IllegalActionError, match="no stone of NESW stands there"):
        GAME.apply(state, parse_cell("e5", 10))
    with pytest.raises(IllegalActionError, match="the wall comes after"):
        GAME.apply(state, wall_action(GAME, "CEj"))
    with pytest.raises(IllegalActionError, match="pick a stone first"):
        GAME.apply(state, GAME.OFF)
    picked = GAME.step(state, parse_cell("j4", 10))
    assert GAME.action_to_text(state, parse_cell("j4", 10)) == "Wj4"
    with pytest.raises(IllegalActionError, match="W cannot get there"):
        GAME.apply(picked, parse_cell("a1", 10))
    assert GAME.parse_turn(picked, "i4 CEj") == GAME.parse_turn(picked, "w CEj")


def test_bad_constructor_arguments_name_the_key():
    for kwargs, key in [
        ({"size": 3}, "size"),
        ({"size": 26}, "size"),
        ({"walls": -1}, "walls"),
        ({"max_turns": 0}, "max_turns"),
        ({"schedule": "15"}, "schedule"),
        ({"schedule": "0"}, "schedule"),
        ({"size": True}, "size"),
    ]:
        with pytest.raises(ValueError, match=key):
            make_game("four_way_walls", **kwargs)
    start = SMALL.initial_state().pos
    for kwargs, key in [({"to_move": 2}, "to_move"), ({"turn": -1}, "turn"), ({"walls_left": (1,)}, "walls_left")]:
        with pytest.raises(ValueError, match=key):
            SMALL.state_at(start, **kwargs)
    with pytest.raises(ValueError, match="the position is 10 x 10, the game 5 x 5"):
        SMALL.state_at(GAME.initial_state().pos)


def test_the_env_passes_gymnasiums_checks_at_the_texts_size():
    env = gym.make("FourWayWalls-v0", render_mode="rgb_array").unwrapped
    check_env(env, skip_render_check=False)
    observation, _ = env.reset(seed=0)
    assert observation["observation"].shape == (23, 10, 10) and observation["action_mask"].sum() == 4


def test_the_observation_is_from_the_movers_view():
    state = GAME.play_turn(GAME.initial_state(), "Ww CEj")
    planes = GAME.observe(state)
    assert planes[4:8].sum() == 4 and planes[7, 3, 8] == 1.0  # the opponent's W, one step west
    assert planes[8, 8, 2] == 1.0 and planes[9].sum() == 0  # CEj: centre (9, 3) on cell (8, 2)
    assert planes[12, 8, 2:4].sum() == planes[10, 9, 2:4].sum() == 2 == planes[10:14].sum() / 2  # c9, d9 / c10, d10
    assert planes[18, 0, 0] == 1.0 and planes[19, 0, 0] == pytest.approx(0.9) and planes[17, 0, 0] == 0.75


def mapped_state(game, state, square):
    """``state`` with the board under ``square`` (a ``SquareMap``): every stone's goal mapped along."""
    stones, walls = [OFF] * 8, ([False] * len(state.pos.walls[0]), [False] * len(state.pos.walls[0]))
    for k, cell in enumerate(state.pos.stones):
        stones[k // 4 * 4 + square.direction(k % 4)] = OFF if cell == OFF else square.cell(cell)
    for o, i, j in state.pos.wall_list():
        o2, i2, j2 = square.wall(o, i, j)
        walls[o2][i2 * (game.size + 1) + j2] = True
    k = state.picked
    picked = -1 if k < 0 else k // 4 * 4 + square.direction(k % 4)
    moved = sum(1 << (k // 4 * 4 + square.direction(k % 4)) for k in range(8) if state.moved >> k & 1)
    pos = Position(game.size, stones, walls)
    other = game.state_of(
        pos, state.player, state.turn, state.phase, state.steps_left, moved, picked, state.walls_left, state.result
    )
    return other


def test_the_eight_maps_of_the_square_are_symmetries():
    for size, seed in ((5, 0), (6, 1)):
        game = FourWayWalls(size=size, walls=6)
        symmetries = game.symmetries()
        assert [s.name for s in symmetries][:3] == ["identity", "turn 90", "turn 180"] and len(symmetries) == 8
        assert all(sorted(s.action_perm) == list(range(game.info.num_actions)) for s in symmetries)
        rng, state = np.random.default_rng(seed), game.initial_state()
        for _ in range(120):
            if game.is_terminal(state):
                break
            planes, legal = game.observe(state), game.legal_actions(state)
            for symmetry, square in zip(symmetries, square_maps(size)):
                image = mapped_state(game, state, square)
                np.testing.assert_array_equal(game.observe(image), symmetry.obs(planes), err_msg=square.name)
                assert game.legal_actions(image) == sorted(symmetry.action_perm[legal].tolist()), square.name
            game.apply(state, int(rng.choice(legal)))


# --- an independent reading of the rules, over random games ----------------------------------------------------
def independent_legal(game, state) -> set[int]:
    """The legal actions, read from the rule book in (row, column) coordinates with unit wall segments."""
    n, pos = game.size, state.pos
    walls = pos.wall_list()
    across = {(i, j + dj) for o, i, j in walls if o == 0 for dj in (-1, 0)}  # point row i, cell column
    down = {(j, i + di) for o, i, j in walls if o == 1 for di in (-1, 0)}  # point column j, cell row
    cells = {c: k for k, c in enumerate(pos.stones) if c != OFF}
    moves = ((-1, 0), (0, 1), (1, 0), (0, -1))

    def go(r, c, d, goal, across=across, down=down):
        dr, dc = moves[d]
        if not (0 <= r + dr < n and 0 <= c + dc < n):
            return "off" if d == goal else None
        crossed = {0: ((r, c), across), 2: ((r + 1, c), across), 3: ((c, r), down), 1: ((c + 1, r), down)}[d]
        return None if crossed[0] in crossed[1] else (r + dr, c + dc)

    def targets(stone):
        r, c = divmod(pos.stones[stone], n)
        goal, found = stone % 4, set()
        for d in range(4):
            here, nxt = None, go(r, c, d, goal)
            while nxt not in (None, "off") and nxt[0] * n + nxt[1] in cells:
                here, nxt = nxt, go(*nxt, d, goal)
            if nxt is None and here is not None:
                for t in ((d + 1) % 4, (d + 3) % 4):
                    side = go(*here, t, goal)
                    if side == "off" or (side is not None and side[0] * n + side[1] not in cells):
                        found.add(side)
            elif nxt is not None:
                found.add(nxt)
        return {game.OFF if t == "off" else t[0] * n + t[1] for t in found}

    def reaches(stone, across, down):
        goal = stone % 4
        start = divmod(pos.stones[stone], n)
        seen, todo = {start}, [start]
        while todo:
            here = todo.pop()
            for d in range(4):
                nxt = go(*here, d, goal, across, down)
                if nxt == "off" and d == goal:
                    return True
                if nxt not in (None, "off") and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return False

    seat = state.player
    if state.phase == 1:
        legal = set()
        centres = {(o, i, j) for o, i, j in walls}
        for o in (0, 1):
            for i in range(1, n):
                for j in range(1, n):
                    mine = {(i, j - 1), (i, j)} if o == 0 else {(j, i - 1), (j, i)}
                    if mine & (across if o == 0 else down) or (1 - o, i, j) in centres:
                        continue
                    a2, d2 = (across | mine, down) if o == 0 else (across, down | mine)
                    if all(reaches(k, a2, d2) for k in cells.values()):
                        legal.add(game._wall_action(o, i, j))
        return legal
    if state.picked >= 0:
        return targets(state.picked)
    return {
        pos.stones[k]
        for k in range(4 * seat, 4 * seat + 4)
        if pos.stones[k] != OFF and not state.moved >> k & 1 and targets(k)
    }


class FourWayWallsReading(Reading):
    """Four-way walls by the independent reading above (every ``every``-th decision): the mask,
    a wall that comes after the turn's quota of steps or when no stone left can step, the turn cap
    and a winner with three stones off."""

    def __init__(self, game, every: int = 1):
        self.game, self.every, self.seen, self.stepped, self.turn = game, every, 0, 0, -1

    def legal(self, state):
        if state.turn != self.turn:
            self.turn, self.stepped = state.turn, 0
        if state.phase == 1:  # the wall comes after the turn's quota, or when no stone left can step
            assert self.stepped == self.game.schedule.moves(self.turn) or not independent_legal_steps(self.game, state)
        self.seen += 1
        return independent_legal(self.game, state) if (self.seen - 1) % self.every == 0 else None

    def step(self, before, action, after):
        self.stepped += before.phase == 0 and before.picked >= 0

    def end(self, state):
        game, returns = self.game, self.game.returns(state)
        assert state.turn <= game.max_turns
        assert sum(returns) == 0 and (returns == (0.0, 0.0)) == (state.turn >= game.max_turns)
        if returns != (0.0, 0.0):
            assert state.off(game.winner(state)) == 3


def check_rules(game, seed: int, every: int = 1) -> int:
    """A random game against the independent reading; the decisions made."""
    return check_random_game(
        game, seed, FourWayWallsReading(game, every), every=10**6, playouts=0, symmetries=0
    ).decisions


def independent_legal_steps(game, state) -> bool:
    """Whether a stone of the mover could still step, were the turn back in its step phase."""
    s = state
    trial = game.state_of(s.pos, s.player, s.turn, 0, s.steps_left, s.moved, -1, s.walls_left, s.result)
    return bool(independent_legal(game, trial))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**20), size=st.sampled_from([4, 5, 6]), walls=st.integers(0, 6))
def test_random_games_match_the_independent_reading_and_end(seed, size, walls):
    check_rules(FourWayWalls(size=size, walls=walls, max_turns=60), seed)


def test_random_games_on_the_texts_board_match_the_independent_reading():
    for seed in range(2):
        check_rules(FourWayWalls(max_turns=30), seed, every=4)


def test_random_games_round_trip_as_text():
    game = FourWayWalls(size=6, walls=4, max_turns=80)
    for seed in range(6):
        rng = np.random.default_rng(seed)
        state, actions = game.initial_state(), []
        while not game.is_terminal(state):
            legal = game.legal_actions(state)
            actions.append(int(legal[rng.integers(len(legal))]))
            game.apply(state, actions[-1])
        *_, again = replay(game, format_game(game, actions))
        assert again.pos == state.pos and game.returns(again) == game.returns(state)


def test_every_action_reads_back_from_its_text_and_every_board_from_its_diagram():
    game = FourWayWalls(size=6, walls=5, max_turns=60)
    rng, state = np.random.default_rng(9), game.initial_state()
    while not game.is_terminal(state):
        assert read_diagram(diagram(state.pos)) == state.pos
        legal = game.legal_actions(state)
        for action in legal:
            assert game._read_word(state, game.action_to_text(state, action)) == [action]
        game.apply(state, int(rng.choice(legal)))


def test_every_refused_action_leaves_the_state_as_it_was():
    rng = np.random.default_rng(5)
    state = SMALL.initial_state()
    for _ in range(80):
        if SMALL.is_terminal(state):
            break
        legal = set(SMALL.legal_actions(state))
        before = SMALL.observe(state)
        for action in range(SMALL.info.num_actions):
            if action not in legal:
                with pytest.raises(GameError):
                    SMALL.apply(state, action)
        np.testing.assert_array_equal(SMALL.observe(state), before)
        SMALL.apply(state, int(rng.choice(sorted(legal))))


@pytest.mark.slow
def test_many_random_games_match_the_independent_reading():
    for seed in range(300):
        check_rules(FourWayWalls(size=5 + seed % 4, walls=seed % 11, max_turns=150), seed)
    for seed in range(20):
        check_rules(FourWayWalls(), seed, every=5)


# --- playouts from hand-made positions ---------------------------------------------------------
def test_hand_made_positions_play_out_as_the_engine_loop():
    cases = []
    # a jump turned sideways by a wall: N on c4 picked, s on c3, BDc beyond: b3 or d3
    state = at(SMALL, "N c4, W e5, s c3, n b3, e a1", "BDc")
    SMALL.apply(state, state.pos.stones[0])
    assert len(SMALL.legal_actions(state)) == 4
    cases.append((SMALL, state))
    # a wall refused: ACc would shut S (a2) off from the south
    state = steps(SMALL, at(SMALL, "S a1, W e3, n e5, s c5", "Bac", to_move=0), "Ss Wn")
    assert state.phase == 1 and wall_action(SMALL, "ACc") not in SMALL.legal_actions(state)
    cases.append((SMALL, state))
    # three stones off: S steps off and wins at once, mid-turn; or plays elsewhere
    cases.append((SMALL, at(SMALL, "S c5, W a2, n e5, e a1")))
    # a stuck stone passed over; a turn of only a wall; turns that pass with nothing to do
    cases.append((SMALL, at(SMALL, STUCK + ", s e1", STUCK_WALLS, to_move=1)))
    cases.append((SMALL, at(SMALL, STUCK, STUCK_WALLS, to_move=1, walls_left=(3, 2))))
    game = FourWayWalls(size=5, schedule="1", max_turns=8)
    cases.append((game, game.state_at(position(game, STUCK + ", N e5", STUCK_WALLS), 0, turn=4, walls_left=(5, 0))))
    # the 200-turn draw: the text's board two turns before the limit
    game = make_game("four_way_walls")
    state = game.state_at(game.initial_state().pos, 0, turn=198)
    cases.append((game, state))
    for game, state in cases:
        for seed in range(20):
            check_playout(game, state, seed, game.compiled())
    played = make_game("four_way_walls").random_playout(state, np.random.default_rng(0))
    assert played[0] == (0.0, 0.0) and played[2] == 2  # two turns, then the draw
