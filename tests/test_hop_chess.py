"""Hop Chess (docs/games/hop_chess.md): perft of plain chess from standard positions (the
kernels' move rules against the published counts), the seed's game replayed to its final
position with its checks, the seed's sample moves, and each hopper rule on a hand-made
position; properties over random games (the hopper squares against trying each)."""

import copy
import re
from pathlib import Path

import numpy as np
import pytest
from conformance import Reading, check_random_game
from hypothesis import given, settings
from hypothesis import strategies as st

from envs import TERMINAL, IllegalActionError, NotationError, make_game
from envs.games.hop_chess import kernels
from envs.games.hop_chess.game import FROM, HOPPER, TO
from envs.games.hop_chess.kernels import HOPPERS, in_check, position_row
from envs.games.hop_chess.position import KING, START_FEN, colour_of, from_fen, square_of
from envs.records import read_record, replay_record, write_record

GAME = make_game("hop_chess")
SAMPLE = Path(__file__).parent / "data" / "hop_chess_sample.txt"

# the hand-made positions of the hopper rules (``tests/test_compiled_hop_chess.py`` plays them out too)
ROOK_BY_A_HOPPER = """
    . . . . k . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    @ . . . . . . .
    . . . . . . . .
    R . . . K . . .
    """
CASTLING = """
    r . . . k . . r
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    R {} . . K {} {} R
    """  # the squares between king and rook on white's side to fill in
EN_PASSANT = "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"
PROMOTION = "8/4P3/8/k7/8/8/8/4K3 w - - 0 1"
MATE_THROUGH_A_HOPPER = """
    . . . . . . . k
    . . . . . . p p
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    R . . . K . . #
    """  # Ke1-d1 a8 mates: a1-a8-h8


# --- piece moves and whole turns from the kernels' parts (the engine plays micro-steps) ---------
SCRATCH = kernels.context(1)


def piece_moves(pos) -> list[tuple[int, int, int]]:
    """``pos``'s side's (from, to, promotion) piece moves before the king-safety test, by square,
    final square and promotion, then the castlings (the king's two-square move)."""
    row, moves = position_row(pos), []
    board, hoppers = row[:64], row[HOPPERS : HOPPERS + 2]
    for origin, piece in enumerate(pos.board):
        if piece and colour_of(piece) == pos.side:
            board[origin] = 0
            kernels._destinations(board, hoppers[0], hoppers[1], pos.ep, origin, piece, SCRATCH)
            board[origin] = piece
            reach = SCRATCH.reach.tolist()
            moves += [(origin, to, promo) for to in range(64) for promo in (0, 2, 3, 4, 5) if reach[to] >> promo & 1]
    king = pos.board.index(KING if pos.side == 0 else -KING)
    castles = kernels._castles(board, hoppers, pos.side, pos.castling, pos.ep, SCRATCH)
    return moves + [(king, final, 0) for final in castles if final >= 0]


def make_piece_move(pos, move: tuple[int, int, int]) -> None:
    """Play the piece part of a turn on ``pos`` in place (the hopper stays where it is)."""
    row = position_row(pos)
    made = kernels._make_move(row[:64], row[HOPPERS : HOPPERS + 2], pos.castling, pos.ep, pos.clock, *move)
    pos.castling, pos.ep, pos.clock = (int(v) for v in made)
    pos.board = row[:64].tolist()


def legal_turns(pos) -> dict[tuple[int, int, int], list[int]]:
    """Every legal piece move of ``pos``'s side and, for each, the hopper squares after which
    his king is safe ([-1] on white's first move: no hopper step)."""
    row, found, turns = position_row(pos), np.empty(64, np.int64), {}
    board, hoppers, fields = row[:64], row[HOPPERS : HOPPERS + 2], (pos.castling, pos.ep, pos.clock, int(pos.opening))
    for move in piece_moves(pos):
        count = kernels._hopper_squares_after(board, hoppers, pos.side, *fields, *move, False, found, SCRATCH)
        if count:
            turns[move] = found[:count].tolist()
    return turns


def perft(pos, depth: int) -> int:
    """Plain chess (no hoppers on the board): leaf count of the legal move tree."""
    count = 0
    for move in piece_moves(pos):
        after = copy.deepcopy(pos)
        make_piece_move(after, move)
        if in_check(after, pos.side):
            continue
        after.side = 1 - pos.side
        count += perft(after, depth - 1) if depth > 1 else 1
    return count


@pytest.mark.parametrize(
    "fen, counts",
    [
        (START_FEN, [20, 400, 8902]),
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", [48, 2039]),  # Kiwipete
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", [14, 191, 2812]),
        ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", [6, 264, 9467]),
        ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", [44, 1486]),
    ],
)
def test_perft_of_plain_chess(fen, counts):
    pos = from_fen(fen)
    assert [perft(pos, depth) for depth in range(1, len(counts) + 1)] == counts


def sample_turns() -> list[str]:
    """The record's turns in order (each 'move hopper', white's first without a hopper)."""
    turns = []
    for line in SAMPLE.read_text().splitlines():
        match = re.match(r"^\s*(\d+)\.\s+(.*)$", line)
        if not match:
            continue
        words = match.group(2).split()
        if match.group(1) == "1":
            turns += [words[0], " ".join(words[1:3])]
        else:
            turns += [" ".join(words[0:2])] + ([" ".join(words[2:4])] if words[2] != "resign" else [])
    return turns


def test_the_seeds_game_replays_to_its_final_position_with_its_checks():
    state = GAME.initial_state()
    turns = sample_turns()
    assert len(turns) == 33
    for turn in turns:
        for action in GAME.parse_turn(state, turn):
            GAME.apply(state, action)
        # every '+' of the record is a check (through hoppers too), and nothing else is
        assert in_check(state.pos, state.pos.side) == ("+" in turn), turn
    final = SAMPLE.read_text().split("# the final position")[1].split("\n", 1)[1]
    assert GAME.symbols(state) == GAME.read_diagram(final)
    assert state.player == 1 and not GAME.is_terminal(state)


def test_the_seeds_game_as_a_project_record_reads_back():
    """Its captures after the first turn (``B:f6 e5``) are turns, not headers."""
    text = write_record({"game": "hop_chess"}, sample_turns(), ["the seed's game"])
    assert read_record(text).turns == sample_turns()
    game, state = replay_record(text)
    final = SAMPLE.read_text().split("# the final position")[1].split("\n", 1)[1]
    assert game.symbols(state) == GAME.read_diagram(final) and not game.is_terminal(state)


def test_the_record_reads_back_in_long_notation():
    state = GAME.initial_state()
    for turn in sample_turns():
        actions = GAME.parse_turn(state, turn)
        text = GAME.format_turn(state, actions)
        assert GAME.parse_turn(state, text) == actions, text
        for action in actions:
            GAME.apply(state, action)


EXAMPLE = """
r . b q k b n r
p p . . p p p p
. . n p . . . .
. . p . . # . .
. . . @ . . . .
. . . . . . O .
O O O O O O B O
R N B Q K . N R
"""


def test_the_seeds_sample_moves_are_legal():
    black = GAME.from_diagram(EXAMPLE, "black")
    for text in ("Bc8-f5-e4", "Nc6-d4-f5:g3"):  # over black's hopper; over both
        actions = GAME.parse_turn(black, text + " a6")
        assert actions[:2] == [FROM + square_of(text[1:3]), TO + square_of(text[-2:])]
        assert actions[2] == HOPPER + square_of("a6")
    white = GAME.from_diagram(EXAMPLE, "white")
    assert GAME.parse_turn(white, "d2-d4:c5 h6")[:2] == [FROM + square_of("d2"), TO + square_of("c5")]
    with pytest.raises(IllegalActionError, match="not a legal move"):
        GAME.parse_turn(black, "Bc8-f5 a6")  # a piece may not stop on a hopper


def destinations_of(state, square: str) -> set[str]:
    origin = square_of(square)
    return {
        "abcdefgh"[move[1] % 8] + str(move[1] // 8 + 1) + ("=" + ".PNBRQK"[move[2]] if move[2] else "")
        for move in GAME.legal_moves(state)
        if move[0] == origin
    }


def test_a_rook_moves_on_from_a_hopper_but_never_back_to_its_square():
    state = GAME.from_diagram(ROOK_BY_A_HOPPER)
    # a1 up the file, over a3 or onto it and on along rank 3; not back to a1, not stopping on a3
    reach = destinations_of(state, "a1")
    assert {"a2", "a4", "a8", "b3", "h3", "b1", "d1"} <= reach and not {"a1", "a3"} & reach


def test_a_queen_keeps_its_kind_of_line():
    state = GAME.from_diagram(
        """
        . . . . k . . #
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . @ . . . .
        . . . . . . . .
        . . . Q . . . K
        """
    )
    reach = destinations_of(state, "d1")
    assert {"a3", "h3", "d8", "h5", "a4"} <= reach  # d1-d3 then along rank 3; the plain lines
    assert not {"c4", "e4", "b5", "f5"} & reach  # reached up the file, d3 sends it on orthogonally only


def test_a_king_never_lands_on_a_hopper():
    state = GAME.from_diagram(
        """
        . . . . k . . .
        . . . . . . . p
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        O . . . . . . .
        . . . . # . . .
        . . . . K . . .
        """
    )
    assert destinations_of(state, "e1") == {"d1", "d2", "f1", "f2"}


def test_castling_never_crosses_a_hopper():
    assert {"g1", "c1"} <= destinations_of(GAME.from_diagram(CASTLING.format(".", ".", ".")), "e1")
    for cells, gone in (((".", "#", "."), "g1"), ((".", ".", "#"), "g1"), (("#", ".", "."), "c1")):
        state = GAME.from_diagram(CASTLING.format(*cells))
        assert gone not in destinations_of(state, "e1"), cells


def test_en_passant_only_without_a_hop():
    pos = from_fen(EN_PASSANT, opening=False)
    pos.hoppers = [square_of("a3"), square_of("h6")]
    state = GAME.state_at(pos)
    for action in GAME.parse_turn(state, "d5 h6"):
        GAME.apply(state, action)
    assert "d6" in destinations_of(state, "e5")  # the plain double step: e5xd6 en passant
    for action in GAME.parse_turn(state, "e:d6 a3"):
        GAME.apply(state, action)
    assert state.pos.board[square_of("d5")] == 0
    # across a hopper on d6 the double step is the step onto it and on: no en passant
    pos = from_fen(EN_PASSANT, opening=False)
    pos.hoppers = [square_of("a3"), square_of("d6")]
    state = GAME.state_at(pos)
    for action in GAME.parse_turn(state, "d5 d6"):
        GAME.apply(state, action)
    assert state.pos.ep == -1 and "d6" not in destinations_of(state, "e5")


def play_turns(state, turns):
    for turn in turns:
        for action in GAME.parse_turn(state, turn):
            GAME.apply(state, action)
    return state


KNIGHTS_OUT_AND_BACK = ["Nf3-g1 d4", "Nf6-g8 e5", "Ng1-f3 d4", "Ng8-f6 e5"]


def test_the_third_occurrence_of_a_position_draws():
    state = play_turns(GAME.initial_state(), ["Ng1-f3", "Ng8-f6 e5"] + KNIGHTS_OUT_AND_BACK)
    assert state.repeats == 1 and not GAME.observe(state)[22].any()
    play_turns(state, KNIGHTS_OUT_AND_BACK[:1])
    assert state.repeats == 2 and GAME.observe(state)[22].all()  # the position after turn 3 again
    play_turns(state, KNIGHTS_OUT_AND_BACK[1:] + KNIGHTS_OUT_AND_BACK[:1])
    assert GAME.is_terminal(state) and GAME.returns(state) == (0.0, 0.0)
    assert GAME.result_text(state) == "a draw (threefold repetition)"


def test_a_moved_hopper_or_a_pawn_move_makes_a_new_position():
    state = play_turns(GAME.initial_state(), ["Ng1-f3", "Ng8-f6 e5"])
    for hopper in ("a3", "b3", "c3", "d3", "e3", "g3", "h3", "a4", "b4", "c4", "e4", "f4"):
        move = "Nf3-g1" if state.pos.board[square_of("f3")] else "Ng1-f3"
        reply = "Nf6-g8" if state.pos.board[square_of("f6")] else "Ng8-f6"
        play_turns(state, [f"{move} {hopper}", f"{reply} e5"])
        assert state.repeats == 1  # white's hopper never stood there before
    play_turns(state, KNIGHTS_OUT_AND_BACK * 2 + ["e2-e3 d4"])  # a repetition, then a pawn move
    assert state.repeats == 1 and state.recorded == 1
    play_turns(state, ["Nf6-g8 e5", "Nf3-g1 d4", "Ng8-f6 e5", "Ng1-f3 d4", "Nf6-g8 e5"])
    assert state.repeats == 2 and not GAME.is_terminal(state)


def test_an_en_passant_right_makes_a_position_of_its_own():
    pos = from_fen(EN_PASSANT, opening=False)
    pos.hoppers = [square_of("a3"), square_of("h6")]
    state = play_turns(GAME.state_at(pos), ["d5 h6"])  # white may take en passant now
    kings = ["Ke1-f1 a3", "Ke8-f8 h6", "Kf1-e1 a3", "Kf8-e8 h6"]
    play_turns(state, kings)
    assert state.repeats == 1  # the same pieces, but no en passant right: a new position
    play_turns(state, kings + kings[:1])  # Kf1 with black to move a third time
    assert GAME.is_terminal(state) and state.reason == "threefold repetition"


def test_a_pawn_promotes_on_a_hopper_and_the_new_piece_moves_on():
    pos = from_fen(PROMOTION, opening=False)
    pos.hoppers = [square_of("e8"), -1]
    reach = destinations_of(GAME.state_at(pos), "e7")
    assert {"d6=N", "f6=N", "c7=N", "g7=N"} <= reach  # a knight from e8
    assert {"h8=Q", "b8=Q", "e2=Q", "h8=R", "d7=B", "f7=B", "h5=B"} <= reach
    assert "d7=Q" not in reach  # the queen goes on orthogonally, as the pawn came
    assert not any(square.startswith("e8") for square in reach)


def test_check_and_mate_through_a_hopper():
    state = GAME.from_diagram(MATE_THROUGH_A_HOPPER)
    assert not in_check(state.pos, 1)
    for action in GAME.parse_turn(state, "Ke1-d1 a8"):  # the hopper on a8: a1-a8-h8
        GAME.apply(state, action)
    assert state.player == TERMINAL and GAME.returns(state) == (1.0, -1.0)
    assert GAME.result_text(state) == "white wins (checkmate)"


def test_the_king_must_be_safe_after_the_hopper_moves():
    state = GAME.from_diagram(
        """
        . . . . k . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . r . . K . . @
        """
    )
    for action in (FROM + square_of("e1"), TO + square_of("e2")):  # out of the rook's check
        GAME.apply(state, action)
    safe = {a - HOPPER for a in GAME.legal_actions(state)}
    assert square_of("h1") in safe and square_of("f1") in safe
    # b1-e1 then up the file, or b1-b2 then along rank 2: both reach e2
    assert square_of("e1") not in safe and square_of("b2") not in safe
    with pytest.raises(IllegalActionError, match="king is then safe"):
        GAME.apply(state, HOPPER + square_of("b2"))


def test_white_starts_without_a_hopper_and_black_must_place_his():
    state = GAME.initial_state()
    assert len(GAME.legal_actions(state)) == 10  # the pieces that can move: 8 pawns, 2 knights
    for action in GAME.parse_turn(state, "e4"):
        GAME.apply(state, action)
    assert state.player == 1 and state.pos.hoppers == [-1, -1]
    with pytest.raises(NotationError, match="needs the hopper's square"):
        GAME.parse_turn(state, "e5")
    for action in GAME.parse_turn(state, "e5 e6"):
        GAME.apply(state, action)
    assert state.pos.hoppers == [-1, square_of("e6")] and state.player == 0
    moved = GAME.step(GAME.step(state, FROM + square_of("g1")), TO + square_of("f3"))
    with pytest.raises(IllegalActionError, match="king is then safe"):
        GAME.apply(moved, HOPPER + square_of("e6"))  # black's hopper stands there


def test_bad_text_and_bad_actions_are_named():
    state = GAME.initial_state()
    with pytest.raises(NotationError, match="cannot read Hop Chess move"):
        GAME.parse_turn(state, "Zz9")
    with pytest.raises(IllegalActionError, match="no white piece on e5"):
        GAME.apply(state, FROM + square_of("e5"))
    with pytest.raises(IllegalActionError, match="choose the square of a piece"):
        GAME.apply(state, HOPPER)
    chosen = GAME.step(state, FROM + square_of("g1"))
    with pytest.raises(IllegalActionError, match="cannot end there"):
        GAME.apply(chosen, TO + square_of("g3"))
    with pytest.raises(ValueError, match="black is in check with white to move"):
        make_game("hop_chess", fen="7k/8/8/8/8/8/8/4K2R w - - 0 1")
    with pytest.raises(ValueError, match="one king a side"):
        make_game("hop_chess", fen="8/8/8/8/8/8/8/4K3 w - - 0 1")
    knights = GAME.state_at(from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", opening=False))
    with pytest.raises(NotationError, match="ambiguous: b1-d2, f1-d2"):
        GAME.parse_turn(knights, "Nd2 a3")


# --- properties ------------------------------------------------------------------------------
def hopper_squares(pos) -> list[int]:
    """Where the mover may put his hopper after his piece moved (the rules' text): an empty
    square without the other hopper, or where it stands."""
    own, other = pos.hoppers[pos.side], pos.hoppers[1 - pos.side]
    return [s for s in range(64) if s == own or (pos.board[s] == 0 and s != other)]


def naive_safe_squares(pos, move) -> list[int]:
    """The hopper squares after ``move`` that leave the mover's king unattacked, by trying each."""
    after, safe = copy.deepcopy(pos), []
    make_piece_move(after, move)
    for square in hopper_squares(after):
        trial = copy.deepcopy(after)
        trial.hoppers[pos.side] = square
        if not in_check(trial, pos.side):
            safe.append(square)
    return safe


def actions_of_turns(state, turns: dict) -> list[int]:
    """The legal actions of ``state``'s micro-step read from its turn's legal turns (``turns``,
    at the turn's start): the pieces that have one, the chosen piece's final squares (k = 0 for
    no promotion or a queen's), the moved piece's hopper squares."""
    if state.move is not None:
        return [HOPPER + s for s in turns[state.move]]
    if state.origin < 0:
        return sorted({FROM + origin for origin, _, _ in turns})
    kinds = (5, 2, 3, 4)  # TO + 64 k + square: queen (or none), knight, bishop, rook
    return sorted(
        {
            TO + 64 * (kinds.index(promo) if promo else 0) + final
            for origin, final, promo in turns
            if origin == state.origin
        }
    )


class HopChessReading(Reading):
    """Hop Chess by whole turns (``legal_turns``) and a naive king test: each micro-step offers
    what the turn's legal turns allow, each move's hopper squares are the safe ones found by
    trying each, a refused move has none; hoppers stand on empty squares; the end is zero-sum."""

    def __init__(self, game):
        self.game, self.turns = game, {}

    def legal(self, state):
        if state.origin < 0:
            self.turns = legal_turns(state.pos)
            if not state.pos.opening:
                for move, squares in self.turns.items():
                    assert squares == naive_safe_squares(state.pos, move)
                for move in set(piece_moves(state.pos)) - set(self.turns):  # a refused move has no safe hopper
                    assert naive_safe_squares(state.pos, move) == []
        return actions_of_turns(state, self.turns)  # each micro-step offers what the whole turns allow

    def step(self, before, action, after):
        assert all(after.pos.board[h] == 0 for h in after.pos.hoppers if h >= 0)  # hoppers stand on empty squares

    def end(self, state):
        assert sum(self.game.returns(state)) == 0


def check_rules(seed: int, max_turns: int) -> None:
    game = make_game("hop_chess", max_turns=max_turns)
    check_random_game(game, seed, HopChessReading(game), every=1, playouts=0, symmetries=0)


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_games_agree_with_the_naive_king_test(seed):
    check_rules(seed, max_turns=8)


@pytest.mark.slow
def test_many_random_games():
    for seed in range(40):
        check_rules(seed, max_turns=30)


@pytest.mark.slow
def test_a_thousand_short_random_games():
    """The mask is the legal actions and hoppers stay on empty squares in 1,000 games of 12 turns."""
    game = make_game("hop_chess", max_turns=12)
    for seed in range(1000):
        rng, state = np.random.default_rng(seed), game.initial_state()
        while not game.is_terminal(state):
            legal = game.legal_actions(state)
            assert np.flatnonzero(game.legal_mask(state)).tolist() == legal
            game.apply(state, legal[int(rng.integers(len(legal)))])
            assert all(state.pos.board[h] == 0 for h in state.pos.hoppers if h >= 0)
        assert state.plies <= 12 and sum(game.returns(state)) == 0
