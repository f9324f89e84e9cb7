"""Biversi (docs/games/biversi.md): the text's sample replayed to its printed board, hand-made
positions for each rule (flips round the edges, the section rule, the 1222 quota, a turn cut
short, the forced pass, the end and the count), and random games against an independent reading
of the rules (plain modular arithmetic, not the kernels' neighbour tables)."""

from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from conformance import Reading, check_playout, check_random_game
from diagrams import read_square_board
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st

import envs  # noqa: F401  (registers the ids)
from envs import IllegalActionError, NotationError, make_game
from envs.games.biversi import kernels
from envs.records import parse_header, read_record
from envs.schedule import rows
from envs.schedule.moves import EMPTY, PIECE

DATA = Path(__file__).parent / "data"
SAMPLE = (DATA / "biversi_sample.txt").read_text()
SAMPLE_RULES = parse_header(read_record(SAMPLE))  # the option the record needs, in its header
# docs/games/biversi.md: O's printed "b4" of its 4th turn (X had played b4 the turn before)
# stands for a3, and O's "b3" of its 7th (a cell of the crossed pattern) for b5
ERRATA = {(4, 0): "a3", (7, 0): "b5"}
# the sample's placements that flank nothing (corrected cells), each legal only with must_flank=False
FLANK_NOTHING = ["a3", "j7", "a5", "b6", "b5"]


def printed_turns() -> list[tuple[str, list[str]]]:
    """The sample's move table as printed: (side, placements) in the order played, O first; the
    table's ``.`` (O's first turn holds one placement) is dropped."""
    turns = []
    for line in SAMPLE.splitlines():
        words = line.split()
        if len(words) > 10 and words[10].rstrip(".").isdigit():
            o, x = words[11:13], words[13:15]
            turns.append(("o", [w for w in o if w != "."]))
            if x:
                turns.append(("x", x))
    return [(side, cells) for side, cells in turns if cells]


def corrected_turns() -> list[tuple[str, list[str]]]:
    out, o_turn = [], 0
    for side, cells in printed_turns():
        if side == "o":
            o_turn += 1
            cells = [ERRATA.get((o_turn, k), word) for k, word in enumerate(cells)]
        out.append((side, cells))
    return out


def cell(game, name):
    return game.rules.parse_cell(name)


def names(game, cells):
    return [game.rules.cell_name(c) for c in cells]


def placements(game, board, seat, placed=()):
    """The cells ``kernels.placements`` offers ``seat`` on ``board`` in a turn that has placed on
    ``placed`` (the cells must hold ``seat``'s stones)."""
    row = rows.start_row(board, game.schedule.counts, seat, 0, game.row_extra(board))
    fields = 2 * len(board)
    row[fields + rows.PLACED_COUNT] = len(placed)
    row[fields + rows.PLACED : fields + rows.PLACED + len(placed)] = placed
    out = np.empty(len(board), np.int64)
    return out[: kernels.placements(game.context, row, PIECE[seat], len(placed), out)].tolist()


def stones(game, board, seat):
    return sorted(names(game, np.flatnonzero(board == PIECE[seat])))


# --- the text's sample ----------------------------------------------------------------------------------
def test_the_table_reads_as_printed():
    turns = printed_turns()
    assert turns[:3] == [("o", ["c4"]), ("x", ["d4", "g9"]), ("o", ["d3", "f10"])]
    assert turns[5] == ("x", ["e1J", "b4"]) and turns[6] == ("o", ["b4", "i7"])
    assert turns[-1] == ("o", ["h9", "i6"]) and len(turns) == 17
    assert sum(len(cells) for _, cells in turns) == 33
    # 41 stones on the board, 33 placements on 32 cells; the stones on no placed cell are the two
    # patterns less b3 (a printed placement) and the two cells of the errata
    game = make_game("biversi")
    printed = read_square_board(game.rules, SAMPLE)
    placed = {cell(game, w) for _, cells in turns for w in cells}
    assert (printed != EMPTY).sum() == 41 and len(placed) == 32 and all(printed[c] != EMPTY for c in placed)
    unplaced = names(game, sorted(set(np.flatnonzero(printed != EMPTY).tolist()) - placed))
    assert sorted(unplaced) == ["a3", "b2", "b5", "c2", "c3", "g7", "g8", "h7", "h8"]


def test_the_sample_states_the_option_it_needs_and_the_default_differs():
    assert SAMPLE_RULES == {"must_flank": False}
    assert make_game("biversi").info.params["must_flank"] is True  # the text's "as at Reversi"


def test_the_sample_replays_to_the_printed_board_cell_by_cell():
    game = make_game("biversi", **SAMPLE_RULES)
    state, flanked_nothing = game.initial_state(), []
    for number, (side, cells) in enumerate(corrected_turns()):
        assert game.info.seat_names[state.player] == side and state.moves_left == (1 if number == 0 else 2)
        for word, action in zip(cells, game.parse_turn(state, " ".join(cells))):  # the whole turn, no more
            before = state.board.copy()
            game.apply(state, action)
            if not ((before != EMPTY) & (before != state.board)).any():
                flanked_nothing.append(word)
    printed = read_square_board(game.rules, SAMPLE)
    assert names(game, np.flatnonzero(state.board != printed)) == []
    assert flanked_nothing == FLANK_NOTHING
    assert game.rules.counts(printed) == (26, 15) == game.rules.counts(state.board)
    assert state.player == 1 and state.moves_left == 2 and not game.is_terminal(state)  # X to move, as printed


def test_the_errata_the_other_way_round_miss_the_board_on_c3_and_c4():
    game = make_game("biversi", **SAMPLE_RULES)
    state = game.initial_state()
    swapped = {(4, 0): "b5", (7, 0): "a3"}
    o_turn = 0
    for side, cells in printed_turns():
        if side == "o":
            o_turn += 1
            cells = [swapped.get((o_turn, k), word) for k, word in enumerate(cells)]
        game.play_turn(state, " ".join(cells))
    assert names(game, np.flatnonzero(state.board != read_square_board(game.rules, SAMPLE))) == ["c3", "c4"]


def test_the_start_is_the_one_the_sample_fits_and_the_patterns_are_antipodal():
    game = make_game("biversi")
    board = game.initial_state().board
    assert stones(game, board, 0) == ["b3", "c2", "g8", "h8"] and stones(game, board, 1) == ["b2", "c3", "g7", "h7"]
    # the crossed pattern shifted half the torus both ways lands on the parallel one's cells
    grid = board.reshape(10, 10)
    assert np.array_equal(np.roll(grid, (5, 5), axis=(0, 1)) != EMPTY, grid != EMPTY)
    # crossed: each colour on a diagonal; parallel: each colour on a row
    assert grid[1, 1] == grid[2, 2] != grid[1, 2] == grid[2, 1]
    assert grid[6, 6] == grid[6, 7] != grid[7, 6] == grid[7, 7]


def test_e1J_is_the_placement_that_joins_the_two_sections():
    game = make_game("biversi")
    state = game.initial_state()
    for side, cells in corrected_turns()[:5]:
        game.play_turn(state, " ".join(cells))
        assert len(reference_groups(state.board, 10)) == 2 and game.rules.apart(state.board)
    game.apply(state, cell(game, "e1J"))
    assert len(reference_groups(state.board, 10)) == 1 and not game.rules.apart(state.board)
    # once joined, the turn's second placement may go anywhere legal: b4 is in the same section
    assert cell(game, "b4") in game.legal_actions(state)
    assert game.info.obs_shape == (8, 10, 10) and not game.observe(state)[2].any()  # plane 2: apart
    assert game.observe(game.initial_state())[2].all()


def test_the_observation_shows_the_seat_to_move():
    """The first seat's edge depends on the seat, not on the stones, so plane 3
    says whether x (seat 1) is to move: zeros for o's one placement, ones for x's two after it."""
    game = make_game("biversi")
    state = game.initial_state()
    assert state.player == 0 and not game.observe(state)[3].any()
    game.apply(state, game.legal_actions(state)[0])
    assert state.player == 1 and game.observe(state)[3].all()
    game.apply(state, game.legal_actions(state)[0])
    assert state.player == 1 and game.observe(state)[3].all()  # x's second placement
    game.apply(state, game.legal_actions(state)[0])
    assert state.player == 0 and not game.observe(state)[3].any()


def test_under_reversi_rules_the_sample_replays_until_its_first_placement_that_flanks_nothing():
    game = make_game("biversi")  # must_flank=True, the text's "as at Reversi"
    state = game.initial_state()
    turns = corrected_turns()
    for side, cells in turns[:6]:  # O c4 ... X e1J b4: eleven placements, every one flanking
        game.play_turn(state, " ".join(cells))
    with pytest.raises(IllegalActionError, match="a3 flanks no line of rival stones"):
        game.parse_turn(state, "a3 i7")
    printed = printed_turns()
    with pytest.raises(IllegalActionError, match="b4 is not empty"):  # the printed cell, X's stone
        game.parse_turn(state, " ".join(printed[6][1]))


def test_the_printed_b3_is_a_start_cell():
    game = make_game("biversi", **SAMPLE_RULES)
    state = game.initial_state()
    turns = corrected_turns()
    for side, cells in turns[:12]:
        game.play_turn(state, " ".join(cells))
    assert printed_turns()[12] == ("o", ["b3", "b0"])
    with pytest.raises(IllegalActionError, match="b3 is not empty"):
        game.parse_turn(state, "b3 b0")


def colourings(game):
    """The 8 ways to colour the two patterns' cells (crossed b2-c3, parallel g7-h8 by rows or
    by columns), each as a start text."""
    for crossed in ("b2 c3", "c2 b3"):
        other = "c2 b3" if crossed == "b2 c3" else "b2 c3"
        for parallel, rest in (("g7 h7", "g8 h8"), ("g8 h8", "g7 h7"), ("g7 g8", "h7 h8"), ("h7 h8", "g7 g8")):
            yield f"{other} {rest} / {crossed} {parallel}"  # o's stones / x's stones


def flanking_replays(board, turns, n=10):
    """Whether some order of each turn's placements lets every one flank a line (a search over
    the orders, cut at the first placement that flanks nothing)."""
    if not turns:
        return True
    (side, cells), rest = turns[0], turns[1:]
    mover = PIECE["ox".index(side)]
    for order in {tuple(cells), tuple(reversed(cells))}:
        after, ok = board.copy(), True
        for word in order:
            c = make_game("biversi").rules.parse_cell(word)
            flips = reference_flips(after, n, c, mover) if after[c] == EMPTY else set()
            if not flips:
                ok = False
                break
            after[list(flips) + [c]] = mover
        if ok and flanking_replays(after, rest, n):
            return True
    return False


def test_no_start_and_no_order_of_the_placements_makes_every_placement_flank():
    game = make_game("biversi")
    turns = corrected_turns()
    fits = []
    for start in colourings(game):
        board = make_game("biversi", start=start).initial_state().board
        assert not flanking_replays(board, turns)
        if flanking_replays(board, turns[:5]):  # the turns before e1J joins the sections
            fits.append(start)
    assert len(fits) == 1
    assert np.array_equal(make_game("biversi", start=fits[0]).initial_state().board, game.initial_state().board)


# --- hand-made positions, one rule each -------------------------------------------------------------------
def test_lines_wrap_round_the_edges():
    game = make_game("biversi", size=6, start="e1 e5 / f1 f6")
    state = game.initial_state()
    assert cell(game, "a1") in game.legal_actions(state)
    game.play_turn(state, "a1")  # left from a1: f1 (x), then e1; up-left: f6 (x), then e5
    assert stones(game, state.board, 0) == ["a1", "e1", "e5", "f1", "f6"] and stones(game, state.board, 1) == []


def test_the_antipode_lies_on_both_diagonals_and_flips_once():
    # a1's diagonals on the 6x6 torus: b2 c3 d4 e5 f6 and f2 e3 d4 c5 b6; d4 is on both
    game = make_game("biversi", size=6, start="e5 c5 / b2 c3 d4 f2 e3")
    state = game.play_turn(game.initial_state(), "a1")
    assert stones(game, state.board, 1) == []
    assert len(stones(game, state.board, 0)) == 8


def test_a_line_does_not_close_on_the_placed_stone_itself_and_a_stuck_side_passes():
    # b1..f1 ring round to a1: from a1 the row meets five x and then a1 again, which is not another o
    game = make_game("biversi", size=6, start="a3 a5 / b1 c1 d1 e1 f1 a4")
    state = game.initial_state()
    assert game.legal_actions(state) == [game.PASS]  # o has no placement, x has (a2, a6)
    assert game.action_to_text(state, game.PASS) == "pass"
    with pytest.raises(IllegalActionError, match="a1 flanks no line"):
        game.apply(state, cell(game, "a1"))
    assert game.board_view(state).buttons == (game.PASS,)
    assert game.parse_turn(state, "pass") == [game.PASS]
    assert game.turn_kind(state, [game.PASS]) == "pass" and game.format_turn(state, [game.PASS]) == "pass"
    game.apply(state, game.PASS)
    assert state.player == 1 and state.moves_left == 2 and game.legal_actions(state) == names_to(game, ["a2", "a6"])
    with pytest.raises(IllegalActionError, match="pass is legal only at the start of a turn with no move"):
        game.parse_turn(state, "pass")


def names_to(game, words):
    return sorted(cell(game, w) for w in words)


def test_a_pass_from_a_random_game():
    # a 6x6 game (random play, seed 28): o's 15th turn finds no placement and passes
    turns = "d4 | b4 c1 | a5 d2 | c4 e4 | a1 d3 | b1 b5 | a3 c5 | c6 e2 | d6 f1 | f3 a6 | d5 f2 | e1 b6 | f4 e3 | a4 d1"
    game = make_game("biversi", size=6)
    state = game.initial_state()
    for text in turns.split("|"):
        game.play_turn(state, text)
    assert state.player == 0 and game.legal_actions(state) == [game.PASS]
    game.play_turn(state, "pass")
    assert state.player == 1 and game.legal_actions(state) != [game.PASS]


def test_while_apart_a_turns_two_placements_go_one_into_each_section():
    game = make_game("biversi")
    state = game.play_turn(game.initial_state(), "c4")  # o's one placement, in the crossed section
    assert state.player == 1 and state.moves_left == 2
    first = game.legal_actions(state)
    assert {"b4", "d4", "g9", "i9"} <= set(names(game, first))  # either section to start with
    game.apply(state, cell(game, "d4"))
    second = names(game, game.legal_actions(state))
    assert second and all(w[0] in "efghij" for w in second)  # only next to the parallel section
    assert "b4" in names(game, placements(game, state.board, 1))  # legal by flanking ...
    with pytest.raises(IllegalActionError, match="not in the section this turn has still to play in"):
        game.apply(state, cell(game, "b4"))  # ... but in the section the turn has played in


def test_the_1222_quota():
    game = make_game("biversi")
    state = game.initial_state()
    assert game.schedule.text == "12" and [game.schedule.moves(t) for t in range(4)] == [1, 2, 2, 2]
    with pytest.raises(IllegalActionError, match="has 2 moves, but the turn ends after 1"):
        game.parse_turn(state, "c4 d4")
    game.play_turn(state, "c4")
    with pytest.raises(IllegalActionError, match="this turn holds 2"):
        game.parse_turn(state, "d4")
    actions = game.parse_turn(state, "d4 g9")
    assert game.format_turn(state, actions) == "d4 g9" and game.turn_kind(state, actions) == "place"


def test_a_turn_whose_quota_cannot_be_filled_ends_after_the_placements_it_has_and_the_count_decides():
    # sections {a1 b1} and {d4 e4}: o's only placement is c1; the x section has no o stone to
    # close a line, so the turn's second placement has nowhere to go
    game = make_game("biversi", size=6, schedule="2", start="a1 / b1 d4 e4")
    state = game.initial_state()
    assert game.legal_actions(state) == [cell(game, "c1")]
    start = state.copy()
    game.apply(state, cell(game, "c1"))
    assert game.turn_kind(start, [cell(game, "c1")]) == "short"
    # neither side can place now: the game is over, 3 stones to 2
    assert game.is_terminal(state) and game.returns(state) == (1.0, -1.0)
    assert game.result_text(state) == "o wins (3 stones to 2)"


def test_equal_counts_draw_and_the_end_needs_neither_side_to_move():
    game = make_game("biversi", size=6, start="a1 c3 / b1 d3")  # one section: no section rule
    state = game.initial_state()
    assert sorted(names(game, game.legal_actions(state))) == ["c1", "e3"]
    stuck = make_game("biversi", size=6, start="a1 / d4")
    state = stuck.initial_state()
    assert stuck.is_terminal(state) and stuck.returns(state) == (0.0, 0.0)


def test_cell_names_read_back_row_0_is_row_10_and_bad_text_names_the_problem():
    game = make_game("biversi")
    assert [cell(game, game.rules.cell_name(c)) for c in range(100)] == list(range(100))
    assert cell(game, "j0") == cell(game, "j10") == 99 and cell(game, "e1J") == cell(game, "e1") == 4
    for bad in ("k1", "a11", "a", "1a", "e1j", "E1", "a-1"):
        with pytest.raises(NotationError):
            cell(game, bad)
    with pytest.raises(NotationError, match="off the 6x6 board"):
        make_game("biversi", size=6).rules.parse_cell("a0")
    for bad in (4, 7, 28, True, "10"):
        with pytest.raises(ValueError, match="size"):
            make_game("biversi", size=bad)
    with pytest.raises(ValueError, match="must_flank"):
        make_game("biversi", must_flank="yes")
    for bad in ("a1 / a1", "a1", "a1 / k1"):
        with pytest.raises(ValueError, match="start"):
            make_game("biversi", start=bad)
    with pytest.raises(ValueError, match="schedule"):
        make_game("biversi", schedule="102")


def test_the_8_maps_of_the_square_map_the_legal_placements():
    game = make_game("biversi", size=8)
    rng, state = np.random.default_rng(5), game.initial_state()
    checked = 0
    while not game.is_terminal(state) and checked < 12:
        legal = game.legal_actions(state)
        if legal != [game.PASS]:
            for symmetry in game.symmetries():
                board = symmetry.obs(state.board.reshape(1, 8, 8).astype(np.float32)).reshape(-1).astype(np.int8)
                placed = [int(symmetry.action_perm[c]) for c in state.placed]
                mapped = placements(game, board, state.player, placed)
                assert mapped == sorted(int(symmetry.action_perm[a]) for a in legal), symmetry.name
            checked += 1
        game.apply(state, int(rng.choice(legal)))
    assert len(game.symmetries()) == 8


def test_check_env_and_an_illegal_step_loses_for_its_maker():
    for mode in ("ansi", "rgb_array"):
        check_env(gym.make("Biversi-v0", render_mode=mode).unwrapped, skip_render_check=False)
    env = gym.make("Biversi-v0").unwrapped
    env.reset(seed=0)
    _, reward, terminated, truncated, info = env.step(0)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert "a1" in info["message"]


# --- random games against an independent reading of the rules -------------------------------------------------
DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def reference_flips(board, n, cell_, mover):
    """Walk each direction r + k*dr, c + k*dc (mod n) for k = 1 .. n - 1: rival stones, then one
    of the mover's; the cell itself (k = n) is never reached."""
    r0, c0 = divmod(cell_, n)
    out = set()
    for dr, dc in DIRECTIONS:
        run = []
        for k in range(1, n):
            v = board[((r0 + k * dr) % n) * n + (c0 + k * dc) % n]
            if v == mover:
                out.update(run)
                break
            if v == EMPTY:
                break
            run.append(((r0 + k * dr) % n) * n + (c0 + k * dc) % n)
    return out


def around(n, cell_):
    r, c = divmod(cell_, n)
    return {((r + dr) % n) * n + (c + dc) % n for dr, dc in DIRECTIONS}


def reference_groups(board, n):
    """Connected groups of stones by repeated merging (not the engine's search)."""
    label = {c: c for c in range(n * n) if board[c] != EMPTY}
    changed = True
    while changed:
        changed = False
        for c in label:
            low = min([label[c]] + [label[o] for o in around(n, c) if o in label])
            if low != label[c]:
                label[c], changed = low, True
    groups = {}
    for c, g in label.items():
        groups.setdefault(g, set()).add(c)
    return list(groups.values())


def reference_options(board, n, seat, placed, must_flank):
    mover = PIECE[seat]
    cells = [
        c
        for c in range(n * n)
        if board[c] == EMPTY
        and (reference_flips(board, n, c, mover) if must_flank else any(board[o] != EMPTY for o in around(n, c)))
    ]
    groups = reference_groups(board, n)
    if len(groups) >= 2 and placed:
        open_groups = [g for g in groups if not g & set(placed)]
        cells = [c for c in cells if any(around(n, c) & g for g in open_groups)]
    return cells


class BiversiReading(Reading):
    """Biversi by coordinates on the torus: each placement's options (flanking or touching, in a
    section the turn has not placed in), the flips, the forced pass, a turn that ends full or
    stuck, an end where neither side can place, and the count."""

    def __init__(self, game):
        self.game, self.n, self.must_flank = game, game.rules.n, game.rules.must_flank
        self.placed, self.turn = [], 0

    def legal(self, state):
        return reference_options(state.board, self.n, state.player, self.placed, self.must_flank) or [self.game.PASS]

    def step(self, before, action, after):
        game, n, seat = self.game, self.n, before.player
        if action == game.PASS:
            assert not self.placed and reference_options(after.board, n, 1 - seat, [], self.must_flank)
        else:
            flips = reference_flips(before.board, n, action, PIECE[seat])
            assert not self.must_flank or flips
            expected = before.board.copy()
            expected[list(flips) + [action]] = PIECE[seat]
            assert np.array_equal(after.board, expected)
            self.placed.append(action)
        if game.is_terminal(after) or game.to_play(after) != seat:
            # a turn holds the schedule's count, or stops where no placement is left for it
            assert (
                len(self.placed) == game.schedule.moves(self.turn)
                or action == game.PASS
                or not reference_options(after.board, n, seat, self.placed, self.must_flank)
            )
            self.placed, self.turn = [], self.turn + 1

    def end(self, state):
        for seat in (0, 1):  # the game ends only when neither side can place
            assert reference_options(state.board, self.n, seat, [], self.must_flank) == []
        first, second = ((state.board == piece).sum() for piece in PIECE)
        expected = (0.0, 0.0) if first == second else (1.0, -1.0) if first > second else (-1.0, 1.0)
        assert self.game.returns(state) == expected


def check_rules(seed, size, must_flank, schedule="12"):
    game = make_game("biversi", size=size, must_flank=must_flank, schedule=schedule)
    check_random_game(game, seed, BiversiReading(game), every=1000, playouts=0, symmetries=0)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.sampled_from([6, 8]), must_flank=st.booleans())
def test_random_games_follow_the_rules_move_by_move(seed, size, must_flank):
    check_rules(seed, size, must_flank)


def test_random_games_on_the_texts_board():
    for seed in range(3):
        check_rules(seed, 10, seed != 1)


@pytest.mark.slow
def test_thousands_of_random_games_follow_the_rules():
    for seed in range(2000):
        check_rules(seed, (6, 8, 10)[seed % 3], seed % 4 != 0, ("12", "1", "13")[seed % 5 % 3])


def test_the_compiled_placements_and_flips_equal_the_reference_on_thousands_of_random_positions():
    """``kernels.placements``, ``BiversiRules.apart`` and ``kernels.flips`` against the reference
    on random boards, not only reachable ones: any number of sections, a random seat and a random
    set of the mover's stones as the turn's placements so far, every size class, both settings."""
    rng = np.random.default_rng(7)
    apart = 0
    for k in range(3000):
        size, must_flank = (6, 8, 10, 12)[k % 4], bool(k % 3)
        game = make_game("biversi", size=size, must_flank=must_flank)
        board = rng.choice(np.array([EMPTY, *PIECE], np.int8), size * size, p=[0.6, 0.2, 0.2])
        seat = int(rng.integers(2))
        mine = np.flatnonzero(board == PIECE[seat])
        placed = [int(c) for c in rng.choice(mine, min(len(mine), int(rng.integers(3))), replace=False)]
        expected = reference_options(board, size, seat, placed, must_flank)
        assert placements(game, board, seat, placed) == expected, k
        assert placements(game, board, seat) == reference_options(board, size, seat, [], must_flank), k
        assert game.rules.apart(board) == (len(reference_groups(board, size)) >= 2), k
        for cell_ in expected[:2]:  # and each placement flips what the reference flips
            flipped = np.empty(8 * size, np.int64)
            count = kernels.flips(board, game.rules.neighbours, cell_, PIECE[seat], flipped)
            assert set(flipped[:count].tolist()) == reference_flips(board, size, cell_, PIECE[seat]), k
        apart += bool(placed) and len(reference_groups(board, size)) >= 2
    assert apart > 300  # the section rule is exercised, not only the flanking


# --- playouts from hand-made positions ---------------------------------------------------------
def test_hand_made_positions_play_out_as_the_engine_loop():
    """The compiled playout plays the engine loop's game from the forced pass, a stuck side, a turn
    cut short by the section rule and three sections."""
    cases = []
    # the forced pass (tests/test_biversi.py's random game, seed 28): o passes at its 15th turn
    game = make_game("biversi", size=6)
    state = game.initial_state()
    turns = "d4 | b4 c1 | a5 d2 | c4 e4 | a1 d3 | b1 b5 | a3 c5 | c6 e2 | d6 f1 | f3 a6 | d5 f2 | e1 b6 | f4 e3 | a4 d1"
    for text in turns.split("|"):
        game.play_turn(state, text)
    assert game.legal_actions(state) == [game.PASS]
    cases.append((game, state))
    # a stuck side passes from the start; a turn cut short by the section rule; three sections
    for params in (
        {"start": "a3 a5 / b1 c1 d1 e1 f1 a4"},
        {"schedule": "2", "start": "a1 / b1 d4 e4"},
        {"size": 10, "schedule": "13", "start": "b2 e8 h4 / c2 f8 i4"},
    ):
        game = make_game("biversi", **{"size": 6} | params)
        cases.append((game, game.initial_state()))
    for game, state in cases:
        state = game.initial_state() if state is None else state
        for seed in range(20):
            check_playout(game, state, seed, game.compiled())
