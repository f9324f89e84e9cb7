"""Push Go (docs/games/push_go.md): the seed's push diagrams replay under both ko rules, the
push and its ko (simple ko beside the push, or the push instead of a ko rule with the third
repetition drawn), suicide, area scoring and komi; properties over random games against an
independent reading."""

import numpy as np
import pytest
from conformance import Reading, check_playout, check_random_game
from hypothesis import given, settings
from hypothesis import strategies as st

from envs import TERMINAL, IllegalActionError, NotationError, make_game
from envs.games.push_go.game import BLACK, EMPTY, KO_RULES, WHITE, PushGo

# The seed's "Little Go change": x pushes the isolated o on d5 (in atari) into c5.
FIRST_BEFORE = """
  . . . . . . . .
  . . . . . . . .
  . . . . . . . .
  . . o x . . . .
  . o . o x . . .
  . . o x . . . .
  . . . . . . . .
  . . . . . . . .
"""
FIRST_AFTER = """
  . . . . . . . .
  . . . . . . . .
  . . . . . . . .
  . . o x . . . .
  . o o x<- . . .
  . . o x . . . .
  . . . . . . . .
  . . . . . . . .
"""
# "[check previous]": the push at the edge, o pushing the x beside it, printed in both forms.
EDGE_BEFORE = """
  . . . .
  . x o .
  x . x o
  [edge]
"""
EDGE_MOVED = """
  . . . .
  . x o .
  x x o <
  [edge]
"""
EDGE_PLACED = """
  . . . . .
  . x o .
  x x o o
  [edge]
"""


def on_the_edge(fragment: str, n: int = 9) -> str:
    """A 4-column fragment that ends at the bottom edge, set in columns c-f of the bottom rows
    of an n x n board (an arrow ``<`` is an empty cell; the fifth dot of EDGE_PLACED's first
    row is a misprint: the fragment is four columns wide)."""
    rows = [line.replace("<", ".").split()[:4] for line in fragment.strip().splitlines() if "edge" not in line]
    empty = [". "] * n
    board = [empty[:] for _ in range(n - len(rows))]
    board += [[". ", ". "] + [w + " " for w in row] + [". "] * (n - 6) for row in rows]
    return "\n".join("".join(row) for row in board)


@pytest.mark.parametrize("ko", KO_RULES)
def test_the_push_in_the_form_the_text_settles_on_places_a_new_stone(ko):
    game = make_game("push_go", size=8, ko=ko)
    state = game.from_diagram(FIRST_BEFORE, "x")
    assert game.parse_turn(state, "d5>c5") == [64 + 4 * 8 + 3]
    game.apply(state, game.parse_turn(state, "d5>c5")[0])
    after = game.from_diagram(FIRST_AFTER, "o").board
    after[4 * 8 + 4] = BLACK  # the first diagram shows the first form: there e5's stone moved in
    assert state.board == after and state.player == 1


@pytest.mark.parametrize("ko", KO_RULES)
def test_the_first_form_replays_the_first_diagram_square_by_square(ko):
    game = make_game("push_go", size=8, push_form="move", ko=ko)
    state = game.from_diagram(FIRST_BEFORE, "x")
    game.apply(state, game.parse_turn(state, "d5>c5")[0])
    assert state.board == game.from_diagram(FIRST_AFTER, "o").board


@pytest.mark.parametrize("ko", KO_RULES)
@pytest.mark.parametrize("form, printed", [("move", EDGE_MOVED), ("place", EDGE_PLACED)])
def test_the_edge_diagrams_replay_in_both_forms(form, printed, ko):
    game = make_game("push_go", size=9, push_form=form, ko=ko)
    state = game.from_diagram(on_the_edge(EDGE_BEFORE), "o")
    assert game.action_to_text(state, 81 + 8 * 9 + 4) == "e9>d9"  # the x on e9 goes to its liberty d9
    for action in game.parse_turn(state, "e9>d9"):
        game.apply(state, action)
    assert state.board == game.from_diagram(on_the_edge(printed), "x").board


FRAME = """
. x o . .
x o . o .
. x o . .
. . . . .
. . . . .
"""


def test_a_ko_is_not_retaken_at_once_but_the_push_resolves_it():
    game = make_game("push_go", size=5)
    state = game.from_diagram(FRAME, "x")
    game.apply(state, game.parse_turn(state, "c2")[0])  # x takes the o on b2
    assert state.board[5 + 1] == EMPTY
    b2 = game.parse_turn(state, "b2")[0]
    assert b2 not in game.legal_actions(state)
    with pytest.raises(IllegalActionError, match="ko: the turn would bring back the board"):
        game.apply(state, b2)
    push = game.parse_turn(state, "c2>b2")[0]
    assert push in game.legal_actions(state)
    game.apply(state, push)  # o pushes x's ko stone into b2 and stands on c2
    assert state.board[5 + 1] == BLACK and state.board[5 + 2] == WHITE
    assert game.turn_kind(state, [push]) == "push"


def test_an_exchange_elsewhere_lifts_the_ko():
    game = make_game("push_go", size=5)
    state = game.from_diagram(FRAME, "x")
    for text in ("c2", "e5", "d5"):  # x takes, o plays a threat elsewhere, x answers
        game.apply(state, game.parse_turn(state, text)[0])
    assert game.parse_turn(state, "b2")[0] in game.legal_actions(state)


def play(game, state, texts: str) -> list[int]:
    """Plays the turns ``texts`` (space-separated) on ``state``; how often each position stood after its turn."""
    counts = []
    for text in texts.split():
        game.apply(state, game.parse_turn(state, text)[0])
        counts.append(state.repeats)
    return counts


def test_under_ko_push_a_ko_is_retaken_at_once_and_the_third_repetition_draws():
    game = make_game("push_go", size=5, ko="push")
    state = game.from_diagram(FRAME, "x")
    assert state.repeats == 1 and game.info.obs_shape == (7, 5, 5) and not game.observe(state)[6].any()
    # x takes b2, o retakes at once (no ko rule), x takes again: FRAME with x to move stood twice
    assert play(game, state, "c2 b2 c2") == [1, 2, 2] and game.observe(state)[6].all()  # once more draws
    assert "a third time ends the game drawn" in game.board_view(state).notes[-1]
    retake = game.parse_turn(state, "b2")[0]
    assert retake in game.legal_actions(state) and game.parse_turn(state, "c2>b2")[0] in game.legal_actions(state)
    game.apply(state, retake)  # FRAME with x to move a third time
    assert state.player == TERMINAL and state.repeats == 3 and game.returns(state) == (0.0, 0.0)
    assert (
        game.margin(state) != 0 and game.result_text(state) == "a draw by repetition (the position stood a third time)"
    )


def test_under_ko_push_the_push_settles_the_ko_before_a_draw():
    game = make_game("push_go", size=5, ko="push")
    state = game.from_diagram(FRAME, "x")
    assert play(game, state, "c2 b2 c2 c2>b2") == [1, 2, 2, 1]  # o pushes x's ko stone instead of retaking
    assert (state.board[6], state.board[7]) == (BLACK, WHITE) and state.player == 0
    assert game.turn_kind(state, [game.parse_turn(state, "pass")[0]]) == "pass"


def test_under_ko_push_two_passes_are_scored_even_on_a_third_repetition():
    game = make_game("push_go", size=5, ko="push", komi=0.5)
    state = game.from_diagram(FRAME, "x")
    assert play(game, state, "c2 b2 pass") == [1, 2, 1]  # FRAME with o to move is a position of its own
    game.apply(state, game.pass_action)  # FRAME with x to move a third time, by the second pass in a row
    assert (
        state.player == TERMINAL and game.returns(state) == (-1.0, 1.0) and game.result_text(state) == "o wins by 1.5"
    )


def test_under_simple_ko_the_same_turns_are_refused_and_nothing_counts_repetitions():
    game = make_game("push_go", size=5)
    state = game.from_diagram(FRAME, "x")
    assert play(game, state, "c2") == [1] and game.info.obs_shape == (6, 5, 5)
    with pytest.raises(IllegalActionError, match="ko"):
        game.apply(state, game.parse_turn(state, "b2")[0])
    assert game.info.params["ko"] == "simple" and game.compiled().width == 2 * 25 + 5 + 1  # no positions kept
    with pytest.raises(ValueError, match="ko must be one of"):
        make_game("push_go", ko="superko")


def test_suicide_is_illegal_and_a_capture_is_not_suicide():
    game = make_game("push_go", size=5)
    state = game.from_diagram(". o . . .\no . . . .\n. . . . .\n. . . . .\n. . . . .", "x")
    assert 0 not in game.legal_actions(state)
    with pytest.raises(IllegalActionError, match="suicide"):
        game.apply(state, 0)  # a1
    state = game.from_diagram(". o x . .\no x . . .\nx . . . .\n. . . . .\n. . . . .", "x")
    game.apply(state, 0)  # a1 fills its own last liberty but takes b1 and a2 first
    assert (state.board[0], state.board[1], state.board[5]) == (BLACK, EMPTY, EMPTY)


def test_only_an_isolated_stone_in_atari_is_pushed():
    game = make_game("push_go", size=5)
    state = game.from_diagram(". o . . .\nx . . . .\n. . . . .\n. . o o .\n. . . . .", "x")
    pushes = [a for a in game.legal_actions(state) if 25 <= a < 50]
    assert pushes == []  # b1 has two liberties, c4 d4 are a pair
    with pytest.raises(IllegalActionError, match="only a stone in atari"):
        game.apply(state, 25 + 1)
    with pytest.raises(IllegalActionError, match="only an isolated stone"):
        game.apply(state, 25 + 15 + 2)
    with pytest.raises(IllegalActionError, match="no o stone on a2"):
        game.apply(state, 25 + 5)
    corner = game.from_diagram("o x . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .", "x")
    game.apply(corner, game.parse_turn(corner, "a1>a2")[0])  # in a corner one stone is enough
    assert (corner.board[0], corner.board[5]) == (BLACK, WHITE)


def test_the_move_form_needs_a_stone_of_the_movers_beyond():
    diagram = "x . . . .\no . . . .\nx . . . .\n. . . . .\n. . . . ."  # o on a2, in atari, liberty b2
    moving = make_game("push_go", size=5, push_form="move")
    with pytest.raises(IllegalActionError, match="beyond it"):
        moving.apply(moving.from_diagram(diagram, "x"), 25 + 5)  # beyond a2 is off the board
    placing = make_game("push_go", size=5)
    state = placing.from_diagram(diagram, "x")
    placing.apply(state, 25 + 5)
    assert (state.board[5], state.board[6]) == (BLACK, WHITE)


def test_area_scoring_and_komi():
    game = make_game("push_go", size=3, komi=0)
    state = game.from_diagram("x . o\nx . o\nx . o", "x")
    assert game.area(state.board) == (3, 3)  # the middle column touches both: nobody's
    for action in (game.pass_action, game.pass_action):
        game.apply(state, action)
    assert state.player == TERMINAL and game.returns(state) == (0.0, 0.0) and game.result_text(state) == "a draw"
    game = make_game("push_go", size=3, komi=0.5)
    state = game.from_diagram("x o .\nx o .\nx o .", "o")
    assert game.area(state.board) == (3, 6)
    game.apply(state, game.pass_action)
    assert state.player == 0 and game.returns(state) == (0.0, 0.0)
    game.apply(state, game.pass_action)
    assert game.returns(state) == (-1.0, 1.0) and game.result_text(state) == "o wins by 3.5"
    assert game.outcome_info(state) == {"margin": -3.5}


def test_komi_decides_a_full_board():
    state = make_game("push_go", size=3).from_diagram("x x x\nx . x\nx x x", "o")
    for komi, expected in ((8.5, (1.0, -1.0)), (9, (0.0, 0.0))):
        game = make_game("push_go", size=3, komi=komi)
        end = state.copy()
        game.apply(end, game.pass_action)
        game.apply(end, game.pass_action)
        assert game.returns(end) == expected


def test_notation_both_ways_and_bad_text():
    game = make_game("push_go", size=9)
    state = game.initial_state()
    assert game.parse_turn(state, "e5") == [4 * 9 + 4] and game.action_to_text(state, 40) == "e5"
    assert game.parse_turn(state, "pass") == [162] and game.action_to_text(state, 162) == "pass"
    with pytest.raises(NotationError, match="off the 9x9 board"):
        game.parse_turn(state, "j1")
    with pytest.raises(NotationError):
        game.parse_turn(state, "hello")
    edge = make_game("push_go", size=9).from_diagram(on_the_edge(EDGE_BEFORE), "o")
    with pytest.raises(NotationError, match="pushed into its liberty, not e8"):
        game.parse_turn(edge, "e9>e8")
    with pytest.raises(ValueError, match="push_form"):
        make_game("push_go", push_form="slide")


def test_symmetries_map_pushes_with_their_cells():
    game = make_game("push_go", size=5)
    state = game.from_diagram(FRAME, "x")
    game.apply(state, game.parse_turn(state, "c2")[0])  # o to move: the push c2>b2, not b2 (ko)
    legal = np.flatnonzero(game.legal_mask(state))
    assert len(game.symmetries()) == 8
    for symmetry in game.symmetries():
        other = state.copy()
        other.row[:25] = mapped_board(symmetry, state.board)
        other.row[25:50] = mapped_board(symmetry, state.previous)
        assert sorted(symmetry.action_perm[legal]) == game.legal_actions(other), symmetry.name


def mapped_board(symmetry, board) -> list[int]:
    values = np.frombuffer(bytes(board), dtype=np.uint8).reshape(1, 5, 5)
    return symmetry.obs(values).reshape(-1).tolist()


# --- properties ------------------------------------------------------------------------------
def group(board, n, cell):
    """Stones and liberties of ``cell``'s group, by a recursive search (independent of the engine)."""
    stones, liberties = set(), set()

    def visit(c):
        stones.add(c)
        r, k = divmod(c, n)
        for rr, kk in ((r - 1, k), (r + 1, k), (r, k - 1), (r, k + 1)):
            if 0 <= rr < n and 0 <= kk < n:
                x = rr * n + kk
                if board[x] == EMPTY:
                    liberties.add(x)
                elif board[x] == board[c] and x not in stones:
                    visit(x)

    visit(cell)
    return stones, liberties


def independent_result(board, previous, n, colour, action, form, ko="simple"):
    """The board after ``action`` by an independent reading of docs/games/push_go.md, or None."""
    board, n2 = list(board), n * n
    if action < n2:
        if board[action]:
            return None
        board[action] = colour
    else:
        cell = action - n2
        if board[cell] != 3 - colour:
            return None
        stones, liberties = group(board, n, cell)
        if len(stones) != 1 or len(liberties) != 1:
            return None
        (liberty,) = liberties
        board[liberty], board[cell] = 3 - colour, colour
        if form == "move":
            r, k = divmod(cell, n)
            rr, kk = 2 * r - liberty // n, 2 * k - liberty % n
            if not (0 <= rr < n and 0 <= kk < n) or board[rr * n + kk] != colour:
                return None
            board[rr * n + kk] = EMPTY
    for c in range(n2):
        if board[c] == 3 - colour and not group(board, n, c)[1]:
            for s in group(board, n, c)[0]:
                board[s] = EMPTY
    if any(board[c] == colour and not group(board, n, c)[1] for c in range(n2)):
        return None
    if ko == "simple" and board == list(previous):
        return None
    return board


class PushGoReading(Reading):
    """Push Go by the rule book's text (:func:`independent_result`): each placement and push with
    the board it leaves, pass always, every group with a liberty, an end at two passes, a third
    repetition under ko=push or the turn cap, and the result by the margin. ``repeated``: whether
    the game ended drawn by repetition."""

    def __init__(self, game):
        self.game, self.turns, self.repeated = game, 0, False
        start = game.initial_state()
        self.stood = [(bytes(start.board), start.player)]  # every position after a turn, the start first

    def legal(self, state):
        game, expected = self.game, []
        for action in range(game.pass_action):
            result = independent_result(
                state.board, state.previous, game.n, state.player + 1, action, game.push_form, game.ko
            )
            if result is not None:
                assert list(game.step(state, action).board) == result, (action, game.render_text(state))
                expected.append(action)
        return expected + [game.pass_action]

    def step(self, before, action, after):
        game, n = self.game, self.game.n
        self.turns += 1
        self.stood.append((bytes(after.board), (self.stood[0][1] + self.turns) % 2))  # the board and the mover
        assert all(group(after.board, n, c)[1] for c in range(n * n) if after.board[c])
        second_pass = after.passes == 2
        self.repeated = game.ko == "push" and not second_pass and self.stood.count(self.stood[-1]) == 3
        assert game.is_terminal(after) == (second_pass or self.repeated or self.turns == game.max_turns)

    def end(self, state):
        margin = self.game.margin(state)
        if self.repeated:
            assert self.game.returns(state) == (0.0, 0.0)
        else:
            assert self.game.returns(state) == (
                (1.0, -1.0) if margin > 0 else (-1.0, 1.0) if margin < 0 else (0.0, 0.0)
            )


def check_rules(game, seed: int) -> bool:
    """One random game against the independent reading; whether it ended drawn by repetition."""
    reading = PushGoReading(game)
    check_random_game(game, seed, reading, every=1, playouts=0, symmetries=0)
    return reading.repeated


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from([(4, "place"), (5, "place"), (4, "move"), (5, "move")]),
    st.sampled_from(KO_RULES),
)
def test_the_mask_is_the_rules_independent_reading(seed, board, ko):
    size, form = board
    check_rules(make_game("push_go", size=size, push_form=form, ko=ko, komi=0.5), seed)


@pytest.mark.slow
def test_thousands_of_random_games():
    for seed in range(1000):
        check_rules(make_game("push_go", size=5, push_form=("place", "move")[seed % 2]), seed)


def test_random_games_under_ko_push_meet_the_repetition_draw():
    """Seed 5's game on 4x4 cycles to a third repetition in both forms; the reading above checks its end."""
    for form in ("place", "move"):
        game = make_game("push_go", size=4, push_form=form, ko="push", komi=0.5)
        assert [seed for seed in range(8) if check_rules(game, seed)] == [5]


# --- playouts from the rare rules and hand-made positions ----------------------------------------
def _engine(state) -> PushGo:
    return PushGo(size=int(len(state.board) ** 0.5), komi=0)  # legality only: no komi, any push form


def one_pass(state) -> bool:
    return state.passes == 1  # the next pass ends the game


def just_pushed(state) -> bool:
    """A stone changed colour in the last turn: only a push does that."""
    return any(p and b and p != b for p, b in zip(state.previous, state.board))


def ko_refused(state) -> bool:
    """A placement on a cell the last turn emptied is refused for ko, not as suicide."""
    game = _engine(state)
    legal = game.legal_actions(state)
    return any(
        state.board[c] == EMPTY and state.previous[c] != EMPTY and c not in legal and not game.suicide(state, c)
        for c in range(len(state.board))
    )


def push_offered(state) -> bool:
    n2 = len(state.board)
    return any(n2 <= a < 2 * n2 for a in _engine(state).legal_actions(state))


def stands_twice(state) -> bool:
    """``ko="push"``: the position has stood before; once more ends the game drawn."""
    return state.repeats == 2


RARE_RULES = (one_pass, just_pushed, ko_refused, push_offered)  # what the playouts must start from


def test_random_games_reach_the_rare_rules():
    """The 9x9 games pass, push and run into ko, in both forms (the conformance harness starts
    playouts where :data:`RARE_RULES` flag)."""
    for form in ("place", "move"):
        game, found = make_game("push_go", size=9, push_form=form), set()
        for seed in range(8):
            rng, state = np.random.default_rng(seed), game.initial_state()
            while not game.is_terminal(state):
                found.update(mark.__name__ for mark in RARE_RULES if mark(state))
                legal = game.legal_actions(state)
                game.apply(state, legal[int(rng.integers(len(legal)))])
        assert found == {mark.__name__ for mark in RARE_RULES}, form


def test_hand_made_positions_play_out_as_the_engine_loop():
    cases = []
    for form in ("place", "move"):
        # the ko: x takes b2 with c2; o may not retake at once, but may push (c2>b2)
        game = make_game("push_go", size=5, push_form=form)
        state = game.from_diagram(FRAME, "x")
        cases.append((game, state))
        ko = game.step(state, game.parse_turn(state, "c2")[0])
        assert game.parse_turn(ko, "b2")[0] not in game.legal_actions(ko)
        assert game.parse_turn(ko, "c2>b2")[0] in game.legal_actions(ko)
        cases.append((game, ko))
        # the push at the edge, o pushing e9 into d9
        nine = make_game("push_go", size=9, push_form=form)
        cases.append((nine, nine.from_diagram(on_the_edge(EDGE_BEFORE), "o")))
        # a2 pushed: refused in the move form (nothing of x's beyond, off the board)
        cases.append((game, game.from_diagram("x . . . .\no . . . .\nx . . . .\n. . . . .\n. . . . .", "x")))
        # ko="push": the ko retaken until FRAME with x to move stands twice (a retake more draws), and
        # FRAME with o to move after a pass (a second pass ends it scored on its third repetition)
        for komi, turns in ((7.5, "c2 b2 c2"), (0.5, "c2 b2 pass")):
            push = make_game("push_go", size=5, push_form=form, ko="push", komi=komi)
            state = push.from_diagram(FRAME, "x")
            for text in turns.split():
                push.apply(state, push.parse_turn(state, text)[0])
            cases.append((push, state))
    # suicide refused (a1), and a capture that is not suicide (a1 again)
    game = make_game("push_go", size=5)
    cases.append((game, game.from_diagram(". o . . .\no . . . .\n. . . . .\n. . . . .\n. . . . .", "x")))
    cases.append((game, game.from_diagram(". o x . .\no x . . .\nx . . . .\n. . . . .\n. . . . .", "x")))
    # one pass made: a second ends the game; a full board whose one empty cell o takes all on
    state = game.step(game.initial_state(), game.pass_action)
    cases.append((game, state))
    for komi in (8.5, 9):
        small = make_game("push_go", size=3, komi=komi)
        cases.append((small, small.from_diagram("x x x\nx . x\nx x x", "o")))
    for game, state in cases:
        for seed in range(20):
            check_playout(game, state, seed, game.compiled())


def test_the_last_turn_before_the_cap():
    game = make_game("push_go", size=5, max_turns=7)
    state = game.initial_state()
    for _ in range(6):
        game.apply(state, game.legal_actions(state)[-2])  # never a pass: the game goes on
    for seed in range(20):
        assert game.random_playout(state, np.random.default_rng(seed))[1:] == (1, 1)
        check_playout(game, state, seed, game.compiled())
