"""Every game's board as vector data (``Game.board_view``): each legal action is offered by
exactly one cell or button, cells and labels lie inside the drawing, the owners are the stones
on the board, and the layouts put the cells where the rule book does; the view drawn as SVG
(``board_svg``) and painted as the raster picture (``render_rgb``, ``render_mode="rgb_array"``)."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ElementTree

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from small_games import SMALL

import envs
from envs.board_view import FIGURES, HEX_RADIUS, STONE_FILLS, Cell, board_svg
from envs.render import PIXELS_PER_CELL

DEFAULT_AND_SMALL = [(name, {}) for name in envs.GAMES] + list(SMALL.items())


def random_position(game, seed: int, steps: int):
    rng = np.random.default_rng(seed)
    state = game.initial_state()
    for _ in range(steps):
        if game.is_terminal(state):
            break
        action = game.sample_chance(state, rng) if game.is_chance(state) else rng.choice(game.legal_actions(state))
        game.apply(state, int(action))
    return state


@settings(max_examples=40, deadline=None)
@given(game_index=st.integers(0, len(DEFAULT_AND_SMALL) - 1), seed=st.integers(0, 2**16), steps=st.integers(0, 60))
def test_every_legal_action_is_offered_by_one_cell_or_button(game_index, seed, steps):
    name, params = DEFAULT_AND_SMALL[game_index]
    game = envs.make_game(name, **params)
    state = random_position(game, seed, steps)
    view = game.board_view(state)
    offered = [a for cell in view.cells for a in cell.actions] + list(view.buttons)
    assert len(offered) == len(set(offered))
    assert set(game.legal_actions(state)) <= set(offered) <= set(range(game.info.num_actions))
    names = [cell.name for cell in view.cells]
    assert len(set(names)) == len(names)
    centres = {(round(cell.x, 6), round(cell.y, 6)) for cell in view.cells}
    assert len(centres) == len(view.cells)
    extent = HEX_RADIUS if view.cells[0].shape == "hex" else 0.5
    for cell in view.cells:  # inside the drawing: the page adds a margin of one cell width
        assert 0.5 - 1e-9 <= cell.x <= view.width - 0.5 + 1e-9 and extent - 1e-9 <= cell.y
        assert cell.y <= view.height - extent + 1e-9
    for label in view.labels:
        assert -1 < label.x < view.width + 1 and -1 < label.y < view.height + 1, label
    if game.to_play(state) >= 0:  # a cell's name is the game's notation of it: a stone game's action
        for cell in view.cells:  # is the cell's name, another game's names it (Hop Chess ``Ng1``, ``:f3``)
            if len(cell.actions) == 1:  # or its column (Connect Four's ``d`` lands on ``d3``)
                text = game.action_to_text(state, cell.actions[0])
                named = text == cell.name or cell.name in re.findall(r"[a-zA-Z][0-9]+", text)
                assert named or cell.name.rstrip("0123456789") == text, (text, cell.name)


@pytest.mark.parametrize("name", sorted(SMALL))
def test_owners_are_the_stones_on_the_board(name):
    game = envs.make_game(name, **SMALL[name])
    state = random_position(game, 1, 30)
    owners = {cell.name: cell.owner for cell in game.board_view(state).cells}
    if hasattr(state, "counts"):  # the stone games: counts of empty, first, second, neutral
        assert [list(owners.values()).count(o) for o in ("", "black", "white", "neutral")] == state.counts
        symbols = game.rules.symbols
        for cell, value in enumerate(state.board):
            if value < 4:
                assert owners[game.rules.cell_name(cell)] == ("", "black", "white", "neutral")[value], symbols
    elif hasattr(state, "partial"):  # the scheduled games: their board values, an arrow a neutral stone
        first, second = ("white", "black") if "amazons" in name else ("black", "white")
        assert [owners[game.rules.cell_name(cell)] for cell in np.flatnonzero(state.board >= 0)] == [
            ("", first, second, "neutral")[v] for v in state.board if v >= 0
        ]
    elif name == "biqala":  # a pile of neutral stones where there are any, counted
        from envs.games.biqala.kernels import LETTERS

        view = game.board_view(state)
        assert [(c.name, c.owner, c.text) for c in view.cells] == [
            (LETTERS[c], "neutral" if k else "", str(k) if k else "") for c, k in enumerate(state.board)
        ]
    elif name == "push_go":
        assert [owners[f"{'abcde'[c % 5]}{c // 5 + 1}"] for c in range(25)] == [
            ("", "black", "white")[v] for v in state.board
        ]
    elif name == "hop_chess":  # a piece or a hopper: its figure in its colour
        pos = state.pos
        figures = ("", "pawn", "knight", "bishop", "rook", "queen", "king")
        for cell in game.board_view(state).cells:
            piece, hopper = pos.board[cell.id], cell.id in pos.hoppers
            hopper_owner = ("white", "black")[pos.hoppers.index(cell.id)] if hopper else ""
            assert cell.owner == ("white" if piece > 0 else "black" if piece else hopper_owner)
            assert cell.piece == (figures[abs(piece)] if piece else "hopper" if hopper else "")
            assert cell.text == ""
            assert ("hopper" in cell.tags) == (hopper and not piece)
    elif name == "blockdance":  # Y's men black, O's white
        assert [owners[game.cell_name(c)] for c, v in enumerate(state.board) if v >= 0] == [
            ("", "black", "white")[v] for v in state.board if v >= 0
        ]
    elif name == "four_way_walls":  # a stone of its seat's colour with its letter; wall slots hold none
        view = game.board_view(state)
        letters = {cell: "NESWnesw"[k] for k, cell in enumerate(state.pos.stones) if cell >= 0}
        stones = [(c.name, c.owner, c.text) for c in view.cells if c.id < 16]
        assert stones == [
            (
                f"{'abcd'[c % 4]}{c // 4 + 1}",
                ("black", "white")[letters[c].islower()] if c in letters else "",
                letters.get(c, ""),
            )
            for c in range(16)
        ]
        assert all(c.owner == "" and len(c.actions) == 2 for c in view.cells[16:]) and len(view.cells) == 16 + 9
    elif name == "connect_four":  # x's discs black, o's white
        cells = game.columns * game.rows
        assert [owners[game.cell_name(c)] for c in range(cells)] == [
            ("", "black", "white")[v] for v in state.row[:cells]
        ]
    elif name == "odoku":
        assert [owners[f"{'abcde'[c % 5]}{c // 5 + 1}"] for c in range(25)] == [
            ("", "blue", "white")[v] for v in state.board
        ]
    else:  # Sudoku Moyo: a placed digit sits on a counter of its box's owner, givens on none
        view = game.board_view(state)
        for cell in view.cells:
            digit = state.grid[cell.id]
            assert cell.text == (str(digit) if digit else ("x" if "dead" in cell.tags else ""))
            assert bool(cell.owner) == bool(digit and not state.given[cell.id])


def test_the_layouts_put_cells_where_the_rule_book_does():
    hex3 = {
        c.name: (c.x, c.y)
        for c in envs.make_game("hex", size=3).board_view(envs.make_game("hex", size=3).initial_state()).cells
    }
    assert hex3["a1"] == (0.5, HEX_RADIUS) and hex3["c1"] == (2.5, HEX_RADIUS)
    assert hex3["a2"] == pytest.approx((1.0, HEX_RADIUS * 2.5))  # row 2 half a cell right of row 1
    y = envs.make_game("y", size=3)
    cells = {c.name: (c.x, c.y) for c in y.board_view(y.initial_state()).cells}
    assert sorted(cells) == ["a1", "b2", "c1", "c3", "d2", "e1"]
    assert cells["c3"][1] < cells["b2"][1] < cells["a1"][1]  # row 1 at the bottom, the apex on top
    assert math.isclose(cells["c3"][0], (cells["a1"][0] + cells["e1"][0]) / 2)
    odoku = envs.make_game("odoku")
    cells = {c.name: c for c in odoku.board_view(odoku.initial_state()).cells}
    assert (cells["a5"].x, cells["a5"].y) == (0.5, 0.5) and cells["c3"].tags == ("region-0",)  # north at the top
    assert cells["b3"].actions == (22, 23)
    square = envs.make_game("gomoku", size=5)
    view = square.board_view(square.initial_state())
    assert [(c.name, c.x, c.y) for c in view.cells[:2]] == [("a1", 0.5, 0.5), ("b1", 1.5, 0.5)]  # row 1 at the top
    hexxagon = envs.make_game("hexxagon", size=3)
    cells = {c.name: (c.x, c.y) for c in hexxagon.board_view(hexxagon.initial_state()).cells}
    assert [name for name, (x, y) in cells.items() if y == HEX_RADIUS] == ["c1", "e1", "g1"]  # row 1 at the top
    assert cells["c1"][0] == cells["c3"][0] == 1.5 and cells["b2"][0] == (cells["a3"][0] + cells["c3"][0]) / 2
    chess = envs.make_game("hop_chess")
    cells = {c.name: c for c in chess.board_view(chess.initial_state()).cells}
    assert (cells["a8"].x, cells["a8"].y, cells["h1"].x, cells["h1"].y) == (0.5, 0.5, 7.5, 7.5)  # white below
    assert (cells["e1"].owner, cells["e1"].piece, cells["d8"].owner, cells["d8"].piece) == (
        ("white", "king", "black", "queen")
    )
    assert [cells[name].piece for name in ("b1", "c8", "a2", "h8")] == ["knight", "bishop", "pawn", "rook"]
    biqala = envs.make_game("biqala")
    cells = {c.name: c for c in biqala.board_view(biqala.initial_state()).cells}
    assert (cells["K"].x, cells["K"].y, cells["k"].x, cells["k"].y) == (0.5, 0.5, 5.5, 3.5)  # A's outer board on top
    assert cells["C"].actions == (8, 32) and cells["C"].text == "4"  # sow C, begin a transfer from C


def test_verdicts_and_steps_are_shown():
    odoku = envs.make_game("odoku")
    state = odoku.initial_state()
    for turn in ["B Xa1", "A Xb1", "B Oc1", "A Od1"]:
        for action in odoku.parse_turn(state, turn):
            odoku.apply(state, action)
    view = odoku.board_view(state)
    labels = [label.text for label in view.labels]
    assert "1+" in labels and "a" in labels  # row 1 holds two blue and two white: balanced
    assert view.notes == ("the coin decides who moves next", "decided so far: 1 balanced (+), 0 unbalanced (-)")
    nex = envs.make_game("nex", size=4)
    state = nex.initial_state()
    nex.apply(state, 0)
    [chosen] = [c for c in nex.board_view(state).cells if c.tags]
    assert (chosen.name, chosen.text, chosen.tags, chosen.owner) == ("a1", "1", ("chosen",), "black")
    assert nex.board_view(state).notes[0] == "Vertical (v) to move, drop a1: now its neutral"


def test_every_registered_game_has_a_board_view():
    for name in envs.GAMES:
        game = envs.make_game(name)
        assert game.board_view(game.initial_state()).cells


def test_a_scheduled_turn_marks_its_cells_so_far():
    amazons = envs.make_game("amazons", size=5)
    state = amazons.initial_state()
    for action in (1, 0):  # the amazon on b1 goes to a1; the arrow is next
        amazons.apply(state, action)
    view = amazons.board_view(state)
    assert [(c.name, c.text, c.tags, c.owner) for c in view.cells if c.tags] == [
        ("a1", "*", ("chosen",), "white"),
        ("b1", "*", ("chosen",), ""),
    ]
    assert view.notes == ("w to move (turn 1, 1 move(s) left): choose the arrow",)
    send_it = envs.make_game("send_it", size=5, schedule="134")
    state = send_it.initial_state()
    for _ in range(2):  # x's one drop, then o's first of three
        send_it.apply(state, send_it.legal_actions(state)[0])
    view = send_it.board_view(state)
    assert [(c.text, c.tags) for c in view.cells if c.tags] == [("1", ("chosen",))]
    assert view.buttons == (send_it.PASS,) and "2 move(s) left" in view.notes[0]


def test_the_svg_drawing_draws_chess_figures_and_hoppers():
    """``board_svg`` draws a cell's ``piece`` as the browser board does: a chess figure's glyph
    in its owner's colour, a hopper as two rings; a plain stone nowhere on a Hop Chess board."""
    game = envs.make_game("hop_chess")
    view = game.board_view(random_position(game, seed=1, steps=12))
    root = ElementTree.fromstring(board_svg(view))
    ns = {"svg": "http://www.w3.org/2000/svg"}
    drawn = {}
    for group, cell in zip(root.findall("svg:g", ns), view.cells, strict=True):
        figures = [(t.text, t.get("fill")) for t in group.findall("svg:text", ns)]
        rings = [c.get("stroke") for c in group.findall("svg:circle", ns)]
        if cell.piece:
            drawn[cell.piece] = drawn.get(cell.piece, 0) + 1
        if cell.piece == "hopper":
            assert figures == [] and rings[1] == STONE_FILLS[cell.owner] and len(rings) == 2
        elif cell.piece:
            assert figures == [(FIGURES[cell.piece], STONE_FILLS[cell.owner])] and rings == []
        else:
            assert figures == [] and rings == []
    assert drawn["king"] == 2 and drawn["pawn"] > 0 and drawn.get("hopper", 0) >= 1


def test_a_cell_refuses_a_figure_no_drawing_knows():
    with pytest.raises(ValueError, match="e4: piece must be one of king, queen, rook, bishop, knight, pawn, hopper"):
        Cell(0, "e4", 0.5, 0.5, "square", (), piece="wizard")


@pytest.mark.parametrize("name", ["nex", "sudoku_moyo", "blockdance"])
def test_the_svg_drawing_holds_every_cell_stone_mark_and_label(name):
    """``board_svg`` draws what the view holds: a titled group per cell (a hexagon or a square),
    a circle per stone in its owner's colour, each cell's text and each label."""
    game = envs.make_game(name)
    view = game.board_view(random_position(game, seed=3, steps=6))
    root = ElementTree.fromstring(board_svg(view))
    ns = {"svg": "http://www.w3.org/2000/svg"}
    groups = root.findall("svg:g", ns)
    assert [g.find("svg:title", ns).text.split(" (")[0] for g in groups] == [cell.name for cell in view.cells]
    shapes = [g[1].tag.split("}")[1] for g in groups]
    assert shapes == ["polygon" if cell.shape == "hex" else "rect" for cell in view.cells]
    stones = [(c.get("cx"), c.get("fill")) for g in groups for c in g.findall("svg:circle", ns)]
    owned = [cell for cell in view.cells if cell.owner]
    assert len(stones) == len(owned) > 0
    assert [fill for _, fill in stones] == [STONE_FILLS[cell.owner] for cell in owned]
    marks = [t.text for g in groups for t in g.findall("svg:text", ns)]
    assert marks == [cell.text for cell in view.cells if cell.text]
    assert [t.text for t in root.findall("svg:text", ns)] == [label.text for label in view.labels]


@pytest.mark.parametrize("name, params", DEFAULT_AND_SMALL, ids=lambda value: str(value or "default"))
def test_the_raster_picture_is_the_view_painted(name, params):
    """``render_rgb`` and the env's ``rgb_array`` frame paint the board view: an RGB image of the
    view's size with its margin, every cell in its fill where it is bare and in its owner's colour
    under a stone, a chess figure (a stone with its letter) or a hopper's ring, read at the
    cell's centre or, where a text or a figure's letter stands there, 0.3 of a cell to its left."""
    game = envs.make_game(name, **params)
    state = random_position(game, 7, 30)
    view = game.board_view(state)
    image = game.render_rgb(state)
    assert image.dtype == np.uint8 and image.shape == picture_shape(view)

    def colour_at(x: float, y: float) -> str:
        return "#{:02x}{:02x}{:02x}".format(*image[int((y + 1) * PIXELS_PER_CELL), int((x + 1) * PIXELS_PER_CELL)])

    for cell in view.cells:
        left = 0.3 if cell.text or cell.piece else 0.0
        expected = STONE_FILLS[cell.owner] if cell.owner else cell.fill
        assert colour_at(cell.x - left, cell.y) == expected, cell.name
    assert any(cell.owner for cell in view.cells)

    env = gym.make(envs.GAMES[name][0], render_mode="rgb_array", **params)
    env.reset(seed=0)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.shape == picture_shape(game.board_view(env.unwrapped.state))
    env.close()


def picture_shape(view) -> tuple[int, int, int]:
    """The raster's (height, width, 3): the view with a margin of one cell round it."""
    return round((view.height + 2) * PIXELS_PER_CELL), round((view.width + 2) * PIXELS_PER_CELL), 3
