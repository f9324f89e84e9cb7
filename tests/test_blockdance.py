"""Blockdance (docs/games/blockdance.md): the text's turns replayed from the reconstructed start to
its diagram, hand-made positions for each rule, the notation both ways, the symmetries, and random
games against an independent reading of the rules in the text's doubled coordinates."""

import re
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from conformance import check_playout
from hypothesis import given, settings
from hypothesis import strategies as st

import envs  # noqa: F401  (registers the ids)
from envs import TERMINAL, IllegalActionError, NotationError, make_game
from envs.games.blockdance.kernels import EMPTY, OFF_BOARD, PIECE
from envs.records import parse_header, read_record, replay
from envs.stones.hexagon import LETTERS, rotate

DATA = Path(__file__).parent / "data"
TEXT_TURNS = ["v5.2 xz5wy6", "w8.3 v9", "t7.4 not(s6)", "w12.2 x11"]  # as printed
ERRATA = {"w8.3 v9": "w10.3 v11"}


def game_with(y: str, o: str, **kwargs):
    return make_game("blockdance", start=f"{y} / {o}", **kwargs)


def men(game, state, seat: int) -> list[str]:
    return sorted(game.cell_name(c) for c, v in enumerate(state.board) if v == PIECE[seat])


def play(game, state, text: str):
    for action in game.parse_turn(state, text):
        game.apply(state, action)
    return state


def cells(game, text: str) -> list[int]:
    return [game.parse_cell(name) for name in text.split()]


# --- the text's sample -------------------------------------------------------------------------
def printed_turns() -> list[str]:
    """The turns printed right of the diagram's rows 1 and 2 (two a line: Y's, then O's)."""
    turns = []
    for line in (DATA / "blockdance_diagram.txt").read_text().splitlines():
        match = re.search(r"\s([12])\s(\S+ \S+)\s+(\S+ \S+)$", line)  # \s: the text pads with no-break spaces
        if match:
            turns += [match.group(2), match.group(3)]
    return turns


def test_the_record_is_the_printed_turns_with_one_erratum():
    record = read_record((DATA / "blockdance_sample.txt").read_text())
    assert printed_turns() == TEXT_TURNS
    assert record.turns == [ERRATA.get(turn, turn) for turn in TEXT_TURNS]


def test_the_printed_turns_replay_from_the_start_to_the_diagram_cell_by_cell():
    record = read_record((DATA / "blockdance_sample.txt").read_text())
    game = make_game("blockdance", **parse_header(record))
    states = [state.copy() for state in replay(game, record.turns)]
    final = states[-1]
    printed = game.read_diagram((DATA / "blockdance_diagram.txt").read_text())
    assert [game.cell_name(c) for c in range(game.num_cells) if final.board[c] != printed[c]] == []
    assert printed.count(OFF_BOARD) == 225 - 169 and printed.count(PIECE[0]) == printed.count(PIECE[1]) == 21
    assert game.to_play(final) == 0 and final.turns == 4 and final.idle == 4  # nothing was taken
    start = game.initial_state().board
    changed = {game.cell_name(c) for c in range(game.num_cells) if start[c] != printed[c]}
    assert changed == set("w4 y4 v5 x5 z5 w6 y6 m6 s6 n7 p7 r7 t7 q8 x9 v11 x11 x13".split())  # t5, u6: there and back


def test_the_printed_o_turn_cannot_be_played_and_the_erratum_can():
    game = make_game("blockdance")
    state = play(game, game.initial_state(), "v5.2 xz5wy6")
    assert state.board[game.parse_cell("w8")] == EMPTY and state.board[game.parse_cell("v9")] == EMPTY
    with pytest.raises(IllegalActionError, match="w8 holds no man of o's"):
        game.parse_turn(state, "w8.3 v9")
    play(game, state, "w10.3 v11")
    assert "x9" in men(game, state, 1) and "v11" not in men(game, state, 1)


def test_the_comma_of_the_diagram_is_an_empty_cell():
    game = make_game("blockdance")
    text = (DATA / "blockdance_diagram.txt").read_text()
    assert sum(line.count(",") for line in text.splitlines() if not line.startswith("#")) == 1
    assert game.read_diagram(text)[game.parse_cell("x11")] == EMPTY
    with pytest.raises(NotationError, match="row 1 of the diagram"):
        game.read_diagram(text.replace(". . . o o . . .", ". . . o * . . .", 1))


def test_the_start_is_six_flowers_and_a_sixth_of_a_turn_exchanges_the_sides():
    game = make_game("blockdance")
    state = game.initial_state()
    assert len(men(game, state, 0)) == len(men(game, state, 1)) == 21
    for centre, seat in (("o2", 1), ("x5", 0), ("x11", 1), ("o14", 0), ("f11", 1), ("f5", 0)):
        c = game.parse_cell(centre)
        assert all(state.board[m] == PIECE[seat] for m in (c, *game.adjacent[c])), centre
    middle = game.parse_cell("o8")
    turned = {rotate(8, c, middle, 1) for c in range(game.num_cells) if state.board[c] == PIECE[1]}
    assert turned == {c for c in range(game.num_cells) if state.board[c] == PIECE[0]}
    assert game.info.params["start"].startswith("e4 g4 w4 y4 d5") and game.info.num_actions == 231


def test_board_rows_have_8_to_15_cells():
    game = make_game("blockdance")
    rows = [sum(game.on[r * 15 : (r + 1) * 15]) for r in range(15)]
    assert rows == [8, 9, 10, 11, 12, 13, 14, 15, 14, 13, 12, 11, 10, 9, 8]
    assert [game.cell_name(c) for c in np.flatnonzero(game.on)][:8] == "h1 j1 l1 n1 p1 r1 t1 v1".split()
    assert game.cell_name(7 * 15) == "a8" and game.cell_name(7 * 15 + 14) == "C8"


# --- hand-made positions -------------------------------------------------------------------------
def test_a_block_lands_on_empty_cells_at_each_angle():
    for angle, landing in zip(range(1, 6), "w6 u6 t5 u4 w4".split()):
        game = game_with("v5 x5", "a8 C8")
        state = play(game, game.initial_state(), f"v5.{angle} x5")
        assert men(game, state, 0) == sorted(["v5", landing]) and game.to_play(state) == 1


def test_an_enemy_landed_on_is_taken():
    game = game_with("v5 x5", "w6 a8")
    state = play(game, game.initial_state(), "v5.1 x5")
    assert men(game, state, 0) == ["v5", "w6"] and men(game, state, 1) == ["a8"]
    assert state.idle == 0 and game.to_play(state) == 1


def test_a_man_may_land_on_a_cell_the_block_leaves_and_not_on_one_it_keeps():
    game = game_with("v5 x5 w6", "a8")
    state = play(game, game.initial_state(), "v5.1 x5w6")
    assert men(game, state, 0) == ["u6", "v5", "w6"]  # x5 onto w6's cell, w6 onto u6
    state = game.initial_state()
    with pytest.raises(IllegalActionError, match="cannot turn yet"):
        play(game, state, "v5.1 x5")  # w6 stays and x5 would land on it
    for action in (game.parse_cell("v5"), game.ANGLE, game.parse_cell("x5")):
        game.apply(state, action)
    assert game.legal_actions(state) == cells(game, "w6")  # w6 must join; the block cannot turn yet


def test_a_man_turned_off_the_board_is_refused():
    game = game_with("h1 j1", "a8")
    state = game.initial_state()
    game.apply(state, game.parse_cell("j1"))
    assert game.legal_actions(state) == [game.ANGLE + a - 1 for a in (3, 4, 5)]  # h1 would go to row 0
    with pytest.raises(IllegalActionError, match="no block through j1 can turn by 1"):
        game.apply(state, game.ANGLE)
    state = game.initial_state()
    game.apply(state, game.parse_cell("h1"))
    assert game.legal_actions(state) == [game.ANGLE + a - 1 for a in (1, 2)]


def test_a_ring_turned_onto_itself_is_no_move():
    game = game_with("x5 v5 z5 w4 y4 w6 y6", "a8")
    state = game.initial_state()
    assert game.parse_cell("x5") not in game.legal_actions(state)  # every block through x5 rings round it
    assert game.parse_cell("v5") in game.legal_actions(state)
    with pytest.raises(IllegalActionError, match="no block through x5 can turn"):
        game.apply(state, game.parse_cell("x5"))
    game = game_with("o8 m8 q8 n7 p7 n9 p9 s8", "a8")  # a tail: the ring turns with it, the tail moves
    state = play(game, game.initial_state(), "o8.1 not()")
    assert men(game, state, 0) == sorted("o8 m8 q8 n7 p7 n9 p9 q10".split())


def test_the_block_is_connected_and_grows_from_the_pivot():
    game = game_with("v5 x5 z5 B7", "a8")
    state = game.initial_state()
    for action in (game.parse_cell("v5"), game.ANGLE):
        game.apply(state, action)
    assert game.legal_actions(state) == cells(game, "x5")  # z5 touches x5, not v5; B7 touches nothing
    with pytest.raises(IllegalActionError, match="z5 is not next to the block"):
        game.apply(state.copy(), game.parse_cell("z5"))
    game.apply(state, game.parse_cell("x5"))
    assert game.legal_actions(state) == cells(game, "v5 z5")  # z5 may join; v5 again turns v5 x5
    with pytest.raises(IllegalActionError, match="B7 not connected"):
        game.parse_turn(game.initial_state(), "v5.1 xz5B7")
    with pytest.raises(IllegalActionError, match="not in the pivot's group"):
        game.parse_turn(game.initial_state(), "v5.1 not(B7)")


def test_pass_is_always_legal_and_the_only_action_when_no_move_is():
    game = make_game("blockdance")
    state = game.initial_state()
    assert game.PASS in game.legal_actions(state) and len(game.legal_actions(state)) > 1
    lonely = game_with("a8 e8", "C8 y8")  # men that touch no man of their own cannot move
    state = lonely.initial_state()
    assert lonely.legal_actions(state) == [lonely.PASS]
    strict = make_game("blockdance", free_pass=False)
    state = strict.initial_state()
    assert strict.PASS not in strict.legal_actions(state)
    with pytest.raises(IllegalActionError, match="only when no move is"):
        strict.apply(state, strict.PASS)
    strict_lonely = game_with("a8 e8", "C8 y8", free_pass=False)
    assert strict_lonely.legal_actions(strict_lonely.initial_state()) == [strict_lonely.PASS]


def test_two_passes_in_a_row_draw_and_a_move_between_resets_them():
    game = game_with("a8 e8", "C8 y8")
    state = game.initial_state()
    game.apply(state, game.PASS)
    assert game.to_play(state) == 1 and state.passes == 1
    game.apply(state, game.PASS)
    assert game.is_terminal(state) and game.returns(state) == (0.0, 0.0) and game.reason(state) == "both passed"
    game = game_with("v5 x5", "a8 c8")
    state = play(game, play(game, game.initial_state(), "pass"), "a8.1 c8")
    assert state.passes == 0 and game.to_play(state) == 0
    play(game, state, "pass")
    assert not game.is_terminal(state)


def test_taking_the_last_enemy_man_wins():
    game = game_with("v5 x5", "w6")
    state = play(game, game.initial_state(), "v5.1 x5")
    assert game.is_terminal(state) and game.returns(state) == (1.0, -1.0) and game.winner(state) == 0
    assert game.outcome_info(state) == {"reason": "every enemy man killed", "men": (2, 0)}
    assert game.result_text(state) == "y wins (every enemy man killed; men: y 2, o 0)"


def test_o_wins_when_o_takes_the_last_y_man():
    game = game_with("w6", "v5 x5")
    state = game.state_of(game.initial_state().board, 1)
    play(game, state, "v5.1 x5")
    assert game.returns(state) == (-1.0, 1.0) and game.winner(state) == 1


def test_the_draw_limits():
    game = game_with("v5 x5", "a8 c8", idle_limit=2)
    state = play(game, play(game, game.initial_state(), "v5.1 x5"), "a8.1 c8")
    assert game.is_terminal(state) and game.returns(state) == (0.0, 0.0)
    assert game.reason(state) == "2 turns without a capture"
    game = game_with("v5 x5", "w6 a8 c8", idle_limit=2)
    state = play(game, play(game, game.initial_state(), "v5.1 x5"), "a8.1 c8")
    assert not game.is_terminal(state)  # the capture reset the count
    game = game_with("v5 x5", "a8 c8", max_turns=1)
    state = play(game, game.initial_state(), "pass")
    assert game.is_terminal(state) and game.reason(state) == "1 turns"


def test_bad_arguments_are_refused():
    for kwargs, message in (
        ({"size": 5}, "size"),
        ({"size": 14}, "size"),
        ({"idle_limit": 0}, "idle_limit"),
        ({"max_turns": True}, "max_turns"),
        ({"free_pass": "yes"}, "free_pass"),
        ({"start": "v5 x5"}, "each side"),
        ({"start": "v5 / v5"}, "two men"),
        ({"start": "v5 / "}, "at least one man"),
        ({"start": "b1 / v5"}, "not on the hexagon"),
    ):
        with pytest.raises(ValueError, match=message):
            make_game("blockdance", **kwargs)


# --- notation -------------------------------------------------------------------------------------
def test_the_text_turns_are_written_as_printed():
    game = make_game("blockdance")
    state = game.initial_state()
    for text in [ERRATA.get(t, t) for t in TEXT_TURNS]:
        actions = game.parse_turn(state, text)
        assert game.format_turn(state, actions) == text
        play(game, state, text)


def test_not_is_the_pivots_group_less_the_cells_named():
    game = make_game("blockdance")
    state = play(game, play(game, game.initial_state(), "v5.2 xz5wy6"), "w10.3 v11")
    listed = game.parse_turn(state, "t7.4 wy4tv5u6")
    assert set(game.parse_turn(state, "t7.4 not(s6)")) == set(listed)
    assert game.format_turn(state, listed) == "t7.4 not(s6)"  # the shorter form
    whole = game.parse_turn(state, "t7.4 not()")
    assert len(whole) == 2 + 6 + 1 and game.format_turn(state, whole).startswith("t7.4 ")
    with pytest.raises(IllegalActionError, match="may not leave out the pivot"):
        game.parse_turn(state, "t7.4 not(t7)")


def test_turns_in_parts_and_the_text_of_each_action():
    game = make_game("blockdance")
    state = game.initial_state()
    v5, x5 = game.parse_cell("v5"), game.parse_cell("x5")
    assert game.parse_turn(state, "v5") == [v5]
    assert game.parse_turn(state, "v5.2") == [v5, game.ANGLE + 1]
    assert game.parse_turn(state, "pass") == [game.PASS] and game.action_to_text(state, game.PASS) == "pass"
    assert game.action_to_text(state, v5) == "v5"
    game.apply(state, v5)
    assert game.parse_turn(state, ".2 xz5wy6")[0] == game.ANGLE + 1
    assert game.action_to_text(state, game.ANGLE + 1) == ".2"
    game.apply(state, game.ANGLE + 1)
    rest = game.parse_turn(state, "zx5yw6")  # any order; the turn ends
    assert sorted(rest[:-1]) == sorted(cells(game, "x5 z5 w6 y6")) and rest[-1] == v5
    game.apply(state, x5)
    assert game.action_to_text(state, x5) == "x5" and game.action_to_text(state, v5) == "v5 end"
    assert game.format_turn(state, game.parse_turn(state, "z5 wy6 end")) == "z5wy6"


@pytest.mark.parametrize(
    "text, error, message",
    [
        ("v5.7 x5", NotationError, "angle is 1..5"),
        ("v5.0 x5", NotationError, "angle is 1..5"),
        ("zz", NotationError, "cannot read Blockdance turn"),
        ("", NotationError, "cannot read Blockdance turn"),
        ("v5 x5", NotationError, "angle follows the pivot"),
        ("v5.2 x5x5", NotationError, "named twice"),
        ("v5.2 v5x5", NotationError, "stands before the dot"),
        ("v5.2 x5!", NotationError, "cannot read cells"),
        ("b1.2 x5", NotationError, "not on the hexagon"),
        ("v5.2 n1", IllegalActionError, "holds no man of y's"),
        ("n1.2 m2", IllegalActionError, "holds no man of y's"),
        ("x5.1 not()", IllegalActionError, "no block through x5 can turn"),
    ],
)
def test_bad_turns_are_refused_with_a_reason(text, error, message):
    game = make_game("blockdance")
    state = game.initial_state()
    with pytest.raises(error, match=re.escape(message)):
        game.parse_turn(state, text)
    assert game.initial_state().board == state.board  # nothing was played


def test_a_refused_action_names_itself_and_why():
    game = make_game("blockdance")
    state = game.initial_state()
    with pytest.raises(IllegalActionError, match=r"action 231 is out of range"):
        game.apply(state, 231)
    with pytest.raises(IllegalActionError, match=r"action 225 \(angle 1\): choose the pivot first"):
        game.apply(state, game.ANGLE)
    with pytest.raises(IllegalActionError, match=r"\(cell 0, off the board\): cell 0 is not on the board"):
        game.apply(state, 0)
    game.apply(state, game.parse_cell("v5"))
    with pytest.raises(IllegalActionError, match="the pivot is v5: choose the angle"):
        game.apply(state, game.parse_cell("x5"))


# --- observation, pictures, symmetries --------------------------------------------------------------
def test_the_observation_planes():
    game = make_game("blockdance")
    state = game.initial_state()
    planes = game.observe(state)
    assert planes.shape == (14, 15, 15) and planes[0].sum() == planes[1].sum() == 21 and planes[2].sum() == 169
    for action in game.parse_turn(state, "v5.2 xz5")[:-1]:
        game.apply(state, action)
    planes = game.observe(state).reshape(14, -1)
    assert planes[3].sum() == 1 and planes[4].sum() == 3 and planes[7].all() and not planes[6].any()
    assert sorted(game.cell_name(c) for c in np.flatnonzero(planes[5])) == ["t7", "u6", "v5"]
    game.apply(state, game.parse_cell("v5"))
    assert game.observe(state)[1].sum() == 21 - 1 + 1 - 1 + 1  # O to move: Y's men are its rivals


def test_the_picture_and_the_view_show_the_turn_so_far():
    game = make_game("blockdance")
    state = game.initial_state()
    before = game.render_rgb(state)
    for action in game.parse_turn(state, "v5.2 xz5wy6")[:3]:
        game.apply(state, action)
    assert not np.array_equal(before, game.render_rgb(state))
    view = game.board_view(state)
    marked = {c.name: c.text for c in view.cells if c.text}
    assert marked == {"v5": "*", "x5": "+", "u6": "o"} and view.buttons == tuple(range(225, 231))
    assert "add a man next to the block, or v5 to turn it" in view.notes[0]
    assert len(view.cells) == 169 and {c.owner for c in view.cells} == {"", "black", "white"}


def mapped_state(game, state, symmetry):
    """``state`` with the board, the turn so far and the counters carried by ``symmetry``."""
    perm = symmetry.action_perm
    board = [OFF_BOARD] * game.num_cells
    for old in range(game.num_cells):
        board[perm[old]] = state.board[old]
    image = game.state_of(board, state.player, turns=state.turns, idle=state.idle, passes=state.passes)
    turn = [state.block[0], game.ANGLE + state.angle - 1, *state.block[1:]] if state.angle else list(state.block)
    for action in turn:
        game.apply(image, int(perm[action]))
    return image


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**16), steps=st.integers(0, 40))
def test_every_symmetry_maps_masks_and_observations(seed, steps):
    game = make_game("blockdance", size=6)
    rng = np.random.default_rng(seed)
    state = game.initial_state()
    for _ in range(steps):
        if game.is_terminal(state):
            return
        legal = game.legal_actions(state)
        game.apply(state, legal[rng.integers(len(legal))])
    if game.is_terminal(state):
        return
    symmetries = game.symmetries()
    assert len(symmetries) == 12 and symmetries[0].name == "identity"
    for symmetry in symmetries:
        image = mapped_state(game, state, symmetry)
        np.testing.assert_array_equal(symmetry.policy(game.legal_mask(state)), game.legal_mask(image))
        np.testing.assert_array_equal(symmetry.obs(game.observe(state)), game.observe(image))


# --- an independent reading, in the text's doubled coordinates ---------------------------------------
class Reading:
    """The rules read again: cells as (letter, row) with letters doubled, every connected block
    through every pivot at every angle enumerated (no largest-block argument)."""

    def __init__(self, game, state):
        self.game, self.side = game, game.side
        s = self.side
        self.cells = {}
        for r in range(1, 2 * s):
            for x in range(abs(r - s), 4 * (s - 1) - abs(r - s) + 1, 2):
                self.cells[(x, r)] = state.board[game.parse_cell(f"{LETTERS[x]}{r}")]
        self.seat = state.player

    def near(self, a, b) -> bool:
        return (abs(a[0] - b[0]), abs(a[1] - b[1])) in ((2, 0), (1, 1))

    def turned(self, cell, pivot, angle):
        dx, dr = cell[0] - pivot[0], cell[1] - pivot[1]
        for _ in range(angle):  # clockwise with row 1 on top: east goes to south-east
            dx, dr = (dx - 3 * dr) // 2, (dx + dr) // 2
        return pivot[0] + dx, pivot[1] + dr

    def connected(self, block) -> bool:
        block = list(block)
        seen, todo = {block[0]}, [block[0]]
        while todo:
            cell = todo.pop()
            for other in block:
                if other not in seen and self.near(cell, other):
                    seen.add(other)
                    todo.append(other)
        return len(seen) == len(block)

    def moves(self) -> set:
        piece = PIECE[self.seat]
        own = [c for c, v in self.cells.items() if v == piece]
        groups, left = [], set(own)
        while left:
            group = {left.pop()}
            grown = True
            while grown:
                extra = {c for c in left if any(self.near(c, g) for g in group)}
                grown = bool(extra)
                group |= extra
                left -= extra
            groups.append(sorted(group))
        found = set()
        for group in groups:
            for size in range(2, len(group) + 1):
                for block in combinations(group, size):
                    if not self.connected(block):
                        continue
                    for pivot in block:
                        for angle in range(1, 6):
                            lands = [self.turned(m, pivot, angle) for m in block]
                            if any(t not in self.cells for t in lands):
                                continue
                            if any(self.cells[t] == piece and t not in block for t in lands):
                                continue
                            if all(self.cells[t] == piece for t in lands):
                                continue  # the block lands on itself: nothing moves
                            found.add((pivot, angle, frozenset(block)))
        return found

    def name(self, cell) -> str:
        return f"{LETTERS[cell[0]]}{cell[1]}"

    def mask(self, state) -> list[str]:
        """The legal actions' texts at ``state``'s micro-step."""
        moves = {(self.name(p), a, frozenset(map(self.name, b))) for p, a, b in self.moves()}
        if state.pivot < 0:
            pivots = sorted({p for p, _, _ in moves})
            return pivots + (["pass"] if self.game.free_pass or not pivots else [])
        pivot = self.game.cell_name(state.pivot)
        if not state.angle:
            return [f".{a}" for a in sorted({a for p, a, _ in moves if p == pivot})]
        block = {self.game.cell_name(c) for c in state.block}
        cells_by_name = {self.name(c): c for c in self.cells}
        options = set()
        for p, a, b in moves:
            if p != pivot or a != state.angle or not block <= b:
                continue
            if b == block:
                options.add(f"{pivot} end")
            for m in b - block:
                if any(self.near(cells_by_name[m], cells_by_name[k]) for k in block):
                    options.add(m)
        return sorted(options)


def engine_mask(game, state) -> list[str]:
    return sorted(game.action_to_text(state, a) for a in game.legal_actions(state))


def random_start(rng, size: int) -> str:
    """A few clusters of men a side, grown by random steps (so that blocks form)."""
    game = make_game("blockdance", size=size)
    on = [c for c in range(game.num_cells) if game.on[c]]
    taken, sides = set(), ([], [])
    for seat in (0, 1):
        for _ in range(int(rng.integers(1, 3))):
            cell = int(rng.choice([c for c in on if c not in taken]))
            for _ in range(int(rng.integers(1, 5))):
                if cell not in taken:
                    taken.add(cell)
                    sides[seat].append(game.cell_name(cell))
                cell = int(rng.choice(game.adjacent[cell]))
    return " ".join(sides[0]) + " / " + " ".join(sides[1])


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), free_pass=st.booleans())
def test_the_mask_is_the_independent_reading_at_every_step(seed, free_pass):
    rng = np.random.default_rng(seed)
    game = make_game("blockdance", size=6, start=random_start(rng, 6), free_pass=free_pass, max_turns=12)
    state = game.initial_state()
    while not game.is_terminal(state):
        expected = Reading(game, state).mask(state)
        assert engine_mask(game, state) == sorted(expected), game.render_text(state)
        legal = game.legal_actions(state)
        game.apply(state, legal[rng.integers(len(legal))])


def test_the_mask_is_the_independent_reading_from_the_text_start():
    game = make_game("blockdance", size=8, max_turns=6)
    rng = np.random.default_rng(5)
    for _ in range(2):
        state = game.initial_state()
        while not game.is_terminal(state):
            assert engine_mask(game, state) == sorted(Reading(game, state).mask(state))
            legal = game.legal_actions(state)
            game.apply(state, legal[rng.integers(len(legal))])


def random_games(game, count: int, seed: int):
    """(the state before, the actions, the state after) of every turn of ``count`` random games."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        state, turns = game.initial_state(), 0
        while not game.is_terminal(state):
            before, turn, mover = state.copy(), [], game.to_play(state)
            while game.to_play(state) == mover:
                legal = game.legal_actions(state)
                turn.append(legal[rng.integers(len(legal))])
                game.apply(state, turn[-1])
            turns += 1
            yield before, turn, state.copy()
        assert turns <= game.max_turns


def largest_group(game, state) -> int:
    piece = PIECE[state.player]
    return max(len(game.group_of(state.board, c)) for c in range(game.num_cells) if state.board[c] == piece)


def test_random_games_end_and_every_turn_reads_back():
    game = make_game("blockdance", size=6)
    ends = set()
    for before, turn, after in random_games(game, 12, seed=1):
        text = game.format_turn(before, turn)
        replayed = play(game, before.copy(), text)
        assert replayed.board == after.board and game.format_turn(before, game.parse_turn(before, text)) == text
        if game.is_terminal(after):
            assert sum(game.returns(after)) == 0.0
            ends.add(game.reason(after).split(" ")[-1])
    assert ends  # some games ended (every game ends: random_games counts its turns)


@pytest.mark.slow
def test_thousands_of_random_games_end_and_match_the_reading():
    game = make_game("blockdance")
    checked = 0
    for before, turn, after in random_games(game, 1000, seed=2):
        assert after.player == TERMINAL or game.legal_actions(after)
        if checked < 3000 and largest_group(game, before) <= 10:
            assert engine_mask(game, before) == sorted(Reading(game, before).mask(before))
            checked += 1


# --- playouts from hand-made positions ---------------------------------------------------------
def test_hand_made_positions_play_out_as_the_engine_loop():
    cases = []
    # a capture by rotation: v5.1 x5 lands on w6 and takes it (the last man, so it wins)
    cases.append(game_with("v5 x5", "w6"))
    cases.append(game_with("v5 x5", "w6 a8 c8", idle_limit=3))
    # a pass: men that touch none of their own have no move, pass alone (two passes draw)
    cases.append(game_with("a8 e8", "C8 y8"))
    cases.append(game_with("a8 e8 v5 x5", "C8 y8", free_pass=False))
    # the block must take in a forced man (x5 lands on w6), and one landing off the board
    cases.append(game_with("v5 x5 w6", "a8 c8"))
    for game in cases:
        start = game.initial_state()
        states = [start]
        if game.legal_actions(start) != [game.PASS]:
            pivot = game.step(start, game.legal_actions(start)[0])
            angle = game.step(pivot, game.legal_actions(pivot)[0])
            states += [pivot, angle]
        for state in states:
            for seed in range(20):
                check_playout(game, state, seed, game.compiled())
    outcomes = {cases[0].random_playout(cases[0].initial_state(), np.random.default_rng(k))[0] for k in range(20)}
    assert outcomes == {(1.0, -1.0), (0.0, 0.0)}  # the capture that kills all, or passes and turns to a draw
