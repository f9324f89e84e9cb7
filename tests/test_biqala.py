"""Biqala (docs/games/biqala.md): sowing and captures in both rings, the transfer to the
other ring, feeding, the grand slam, the end; properties over thousands of random games."""

import numpy as np
import pytest
from conformance import Reading, check_playout, check_random_game
from hypothesis import given, settings
from hypothesis import strategies as st

from envs import TERMINAL, IllegalActionError, NotationError, make_game
from envs.games.biqala.game import Biqala, BiqalaState
from envs.games.biqala.kernels import (
    CELL_OF,
    END,
    INNER_RING,
    NUM_CELLS,
    OUTER_RING,
    OWNER,
    PARTNERS,
    PUT,
    SEAT_CELLS,
    SOW,
    TRANSFER,
)
from envs.kernels import draw, playout_seed


def position(counts: dict[str, int], player: int = 0, stores=(0, 0), idle: int = 0) -> BiqalaState:
    """A hand-made position: the cells named (by letter) hold the counts, the others are empty."""
    board = [0] * NUM_CELLS
    for letter, count in counts.items():
        board[CELL_OF[letter]] = count
    return GAME.position(board, player, stores, idle=idle)


def board_of(state) -> dict[str, int]:
    return {letter: state.board[cell] for letter, cell in CELL_OF.items() if state.board[cell]}


GAME = make_game("biqala")


def play(state, text: str):
    for action in GAME.parse_turn(state, text):
        GAME.apply(state, action)
    return state


def test_the_start_and_the_rings():
    state = GAME.initial_state()
    assert sum(state.board) == 80 and GAME.info.num_actions == 73
    assert [state.board[c] for c in OUTER_RING] == [3] * 16 and [state.board[c] for c in INNER_RING] == [4] * 8
    assert GAME.legal_actions(state) == [SOW + c for c in range(12)] + [TRANSFER + c for c in range(12)]
    assert "".join(sorted(x for x, c in CELL_OF.items() if OWNER[c] == 0)) == "ABCDEFGHIJKL"
    assert {x: "".join(sorted(k for k, c in CELL_OF.items() if c in PARTNERS[CELL_OF[x]])) for x in "KJCAEL"} == {
        "K": "D",
        "J": "CD",
        "C": "HIJ",
        "A": "EFGH",
        "E": "A",
        "L": "D",
    }


def test_an_outer_sow_stays_in_the_outer_ring():
    state = play(position({"E": 3, "A": 1, "c": 5}), "E")
    assert board_of(state) == {"F": 1, "G": 1, "H": 1, "A": 1, "c": 5} and state.player == 1


def test_an_outer_sow_captures_twos_and_threes_backwards():
    # L sows e f g; g reaches 3, f 2, e 2: all three taken; the chain stops at A's own L
    state = play(position({"L": 3, "e": 1, "f": 1, "g": 2, "h": 1, "a": 4}), "L")
    assert board_of(state) == {"h": 1, "a": 4} and state.stores == [7, 0]


def test_a_capture_chain_stops_at_a_cell_without_two_or_three():
    state = play(position({"K": 4, "e": 3, "f": 1, "g": 2, "a": 4}), "K")
    # K sows L e f g: g 3 and f 2 taken; e reaches 4 and stops the chain
    assert board_of(state) == {"L": 1, "e": 4, "a": 4} and state.stores == [5, 0]


def test_an_inner_sow_captures_in_the_inner_ring_only():
    state = play(position({"D": 2, "a": 1, "b": 2, "e": 1, "F": 1}), "D")
    assert board_of(state) == {"e": 1, "F": 1} and state.stores == [5, 0]
    state = play(position({"d": 3, "A": 0, "B": 1, "C": 2, "L": 1}, player=1), "d")
    assert board_of(state) == {"A": 1, "L": 1} and state.stores == [0, 5]  # d sows A B C: C 3, B 2, A 1 (no)


def test_no_capture_on_the_movers_own_cells():
    state = play(position({"A": 2, "B": 1, "C": 2, "a": 1}), "A")
    assert board_of(state) == {"B": 2, "C": 3, "a": 1} and state.stores == [0, 0]


def test_a_lap_skips_the_emptied_cell():
    # 9 stones from D round the 8-cell inner ring: a b c d A B C, D skipped, a b
    state = play(position({"D": 9, "e": 5}), "D")
    assert board_of(state) == {"A": 1, "B": 1, "C": 1, "c": 1, "d": 1, "e": 5} and state.stores == [4, 0]
    # 17 from L round the 16-cell outer ring: each other cell 1, then e and f again
    state = play(position({"L": 17, "a": 1}), "L")
    assert state.board[CELL_OF["L"]] == 0 and state.stores == [4, 0]  # e and f at 2, taken


def test_a_grand_slam_captures_nothing():
    state = play(position({"L": 3, "e": 1, "f": 1, "g": 2, "A": 1}), "L")
    assert board_of(state) == {"e": 2, "f": 2, "g": 3, "A": 1} and state.stores == [0, 0]


def test_the_opponent_must_be_fed():
    state = position({"A": 1, "d": 0, "L": 1, "D": 1}, player=0)  # B has nothing
    # L's stone reaches e (fed); A's reaches B and D's reaches a? D sows a: fed. Transfers never feed.
    assert GAME.legal_actions(state) == [SOW + CELL_OF["L"], SOW + CELL_OF["D"]]
    with pytest.raises(IllegalActionError, match="must be fed"):
        GAME.apply(state, TRANSFER + CELL_OF["L"])
    with pytest.raises(IllegalActionError, match="does not reach them"):
        GAME.apply(state, SOW + CELL_OF["A"])


def test_no_feeding_move_ends_the_game_and_the_mover_takes_his_stones():
    state = position({"A": 1, "H": 2, "l": 1}, player=1, stores=(30, 40))
    play(state, "l")  # l sows E: B is empty, and A cannot feed him (A reaches B, H I J, E F)
    assert state.player == TERMINAL and board_of(state) == {} and state.stores == [34, 40]
    assert GAME.returns(state) == (-1.0, 1.0) and GAME.result_text(state) == "B wins, 34-40"


def test_a_transfer_hands_one_stone_over_and_moves_the_rest():
    state = position({"C": 4, "a": 1})
    actions = GAME.parse_turn(state, "C>JJI")
    assert actions == [TRANSFER + CELL_OF["C"], PUT + CELL_OF["J"], PUT + CELL_OF["J"], PUT + CELL_OF["I"]]
    assert GAME.format_turn(state, actions) == "C>JJI"
    play(state, "C>JJI")  # the source is empty: the turn ends by itself
    assert board_of(state) == {"J": 2, "I": 1, "a": 1} and state.stores == [0, 1] and state.player == 1
    state = play(position({"K": 5, "a": 1}), "K>D")
    assert board_of(state) == {"K": 3, "D": 1, "a": 1} and state.stores == [0, 1]
    assert GAME.parse_turn(position({"K": 5, "a": 1}), "K>D")[-1] == END
    state = play(position({"c": 2, "A": 1}, player=1), "c>")
    assert board_of(state) == {"c": 1, "A": 1} and state.stores == [1, 0] and state.player == 0


def test_a_transfer_reaches_only_the_touching_cells_of_the_other_ring():
    state = position({"C": 4, "a": 1})
    GAME.apply(state, TRANSFER + CELL_OF["C"])
    assert GAME.legal_actions(state) == [PUT + CELL_OF[x] for x in "JIH"] + [END]
    with pytest.raises(IllegalActionError, match="put a stone on J I H"):
        GAME.apply(state, PUT + CELL_OF["D"])
    with pytest.raises(IllegalActionError, match="under way"):
        GAME.apply(state, SOW + CELL_OF["A"])
    with pytest.raises(IllegalActionError, match="stones and must"):
        GAME.apply(position({"C": 1}), TRANSFER + CELL_OF["C"])


def test_bad_notation_and_bad_actions_are_named():
    state = GAME.initial_state()
    with pytest.raises(NotationError, match="cannot read Biqala turn"):
        GAME.parse_turn(state, "M")
    with pytest.raises(IllegalActionError, match="is B's cell"):
        GAME.apply(state, SOW + CELL_OF["a"])
    with pytest.raises(IllegalActionError, match="no transfer is under way"):
        GAME.apply(state, END)
    with pytest.raises(IllegalActionError, match="empty before"):
        GAME.parse_turn(position({"C": 2, "a": 1}), "C>JJ")


def test_more_than_half_ends_the_game():
    state = play(position({"L": 2, "e": 1, "f": 1, "A": 2, "i": 4}, stores=(37, 20)), "L")
    # L takes e and f (4): 41 of 80 ends the game; each side's stones go to its owner
    assert state.player == TERMINAL and state.stores == [43, 24] and GAME.returns(state) == (1.0, -1.0)


def test_the_cycle_rule_ends_a_game_without_captures():
    game = make_game("biqala", idle_limit=2)
    state = position({"A": 1, "a": 1, "F": 1})
    for text in ("A", "a"):
        for action in game.parse_turn(state, text):
            game.apply(state, action)
    assert state.player == TERMINAL and state.stores == [2, 1] and game.returns(state) == (1.0, -1.0)


def test_the_picture_shows_a_move():
    state = GAME.initial_state()
    before = GAME.render_rgb(state)
    GAME.apply(state, TRANSFER + CELL_OF["C"])
    assert not np.array_equal(before, GAME.render_rgb(state))
    assert "transferring from C" in GAME.render_text(state)


# --- properties ------------------------------------------------------------------------------
def sown(board: list[int], cell: int) -> list[int]:
    """An independent reading of the sowing: the ring's other cells take n // (L - 1) each,
    the first n % (L - 1) of them one more (no captures)."""
    ring = INNER_RING if cell in INNER_RING else OUTER_RING
    others = [ring[(ring.index(cell) + k) % len(ring)] for k in range(1, len(ring))]
    result, stones = board[:], board[cell]
    result[cell] = 0
    for k, other in enumerate(others):
        result[other] += stones // len(others) + (k < stones % len(others))
    return result


class BiqalaReading(Reading):
    """Biqala by :func:`sown`: a sowing takes only 2s and 3s, into the mover's store; the stones
    are conserved; the game ends with an empty board and the stores decide."""

    def __init__(self, game):
        self.game = game

    def step(self, before, action, after):
        if action < TRANSFER and after.player != TERMINAL:
            expected = sown(before.board, action - SOW)
            taken = [c for c in range(NUM_CELLS) if after.board[c] != expected[c]]
            assert all(after.board[c] == 0 and expected[c] in (2, 3) for c in taken)
            assert sum(expected[c] for c in taken) == after.stores[before.player] - before.stores[before.player]
        assert sum(after.board) + sum(after.stores) == self.game.total  # stones are conserved

    def end(self, state):
        returns = self.game.returns(state)
        assert sum(returns) == 0 and sum(state.board) == 0
        assert returns[0] == np.sign(state.stores[0] - state.stores[1])


def check_rules(game, seed: int, every_action: bool) -> int:
    """One random game against the reading (every refused action tried at each position with
    ``every_action``); its decisions."""
    every = 1 if every_action else 10**6
    return check_random_game(game, seed, BiqalaReading(game), every=every, playouts=0, symmetries=0).decisions


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_every_action_is_legal_exactly_when_the_mask_says_so(seed):
    check_rules(GAME, seed, every_action=True)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([(3, 4), (1, 1), (2, 6), (5, 2)]))
def test_random_games_conserve_the_stones_and_end(seed, seeds):
    check_rules(make_game("biqala", outer_seeds=seeds[0], inner_seeds=seeds[1]), seed, every_action=False)


@pytest.mark.slow
def test_thousands_of_random_games():
    assert sum(check_rules(GAME, seed, every_action=False) > 0 for seed in range(3000)) == 3000


# --- playouts from hand-made positions of the rules -------------------------------------------
RARE_RULES = (  # where the conformance harness starts playouts too
    lambda s: s.source >= 0,  # a transfer under way
    lambda s: s.source >= 0 and s.board[s.source] == 1,  # its next put empties the source
    lambda s: not any(s.board[c] for c in SEAT_CELLS[1 - s.player]),  # the opponent to feed
    lambda s: s.turns and s.idle == 0,  # just after a capture or transfer
)


def seed_choosing(game, state, action: int) -> int:
    """A seed whose first draw over ``state``'s legal actions picks ``action``."""
    legal = game.legal_actions(state)
    return next(
        s for s in range(10_000) if draw(playout_seed(np.random.default_rng(s)), len(legal))[0] == legal.index(action)
    )


def one_turn(game: Biqala, state, action: int) -> tuple:
    """The kernel's game from ``state`` when its first draw picks ``action`` (checked against the engine)."""
    seed = seed_choosing(game, state, action)
    check_playout(game, state, seed, game.compiled())
    return game.random_playout(state, np.random.default_rng(seed))


def test_captures_and_the_grand_slam():
    game = make_game("biqala", max_turns=1)  # one turn, then each takes his own stones
    # L sows e f g: g 3, f 2, e 2 taken (7 against B's 5 left)
    state = position({"L": 3, "e": 1, "f": 1, "g": 2, "h": 1, "a": 4})
    assert one_turn(game, state, SOW + CELL_OF["L"]) == ((1.0, -1.0), 1, 1)
    # the same sow taking every stone B has is a grand slam: nothing taken, B keeps 7 against 1
    state = position({"L": 3, "e": 1, "f": 1, "g": 2, "A": 1})
    assert one_turn(game, state, SOW + CELL_OF["L"]) == ((-1.0, 1.0), 1, 1)
    # 9 stones round the inner ring skip D: a and b reach 2 and are taken (4 + A B C: 7 against c d e's 6)
    state = position({"D": 9, "e": 4})
    assert one_turn(game, state, SOW + CELL_OF["D"]) == ((1.0, -1.0), 1, 1)


def test_the_transfer():
    game = make_game("biqala", max_turns=1)
    # one stone handed over ends the turn at once when the source is empty; A keeps C's other 3
    state = position({"C": 4, "a": 1})
    after = game.step(state, TRANSFER + CELL_OF["C"])
    assert after.source == CELL_OF["C"]
    for start in (state, after):
        for seed in range(30):
            check_playout(game, start, seed, game.compiled())
    assert one_turn(game, position({"C": 1, "a": 1}), TRANSFER + CELL_OF["C"]) == ((-1.0, 1.0), 1, 1)
    # a transfer resets the cycle count, a sow without capture does not
    long = make_game("biqala", idle_limit=2)
    state = position({"A": 1, "J": 2, "a": 1, "b": 1}, idle=1)
    assert one_turn(long, state, SOW + CELL_OF["A"])[2] == 1  # the second capture-free turn: over
    assert one_turn(long, state, TRANSFER + CELL_OF["J"])[2] > 1


def test_feeding_and_no_move():
    game = make_game("biqala")
    # B has nothing: only the sows that reach him (L, D), never a transfer
    state = position({"A": 1, "L": 1, "D": 1})
    assert game.legal_actions(state) == [SOW + CELL_OF["L"], SOW + CELL_OF["D"]]
    for seed in range(30):
        check_playout(game, state, seed, game.compiled())
    # l feeds A's E; then A cannot feed B back: the game ends, A takes his own stones
    state = position({"A": 1, "H": 2, "l": 1}, player=1, stores=(30, 40))
    assert game.random_playout(state, np.random.default_rng(0)) == ((-1.0, 1.0), 1, 1)
    check_playout(game, state, 0, game.compiled())


def test_the_ends():
    # more than half the stones: L takes e and f, 41 of 80
    game = make_game("biqala")
    state = position({"L": 2, "e": 1, "f": 1, "A": 2, "i": 4}, stores=(37, 20))
    assert one_turn(game, state, SOW + CELL_OF["L"]) == ((1.0, -1.0), 1, 1)
    # the cycle rule: two turns without a capture or transfer
    game = make_game("biqala", idle_limit=2)
    state = position({"A": 1, "a": 1, "F": 1})
    state = game.step(state, SOW + CELL_OF["A"])
    assert one_turn(game, state, SOW + CELL_OF["a"]) == ((1.0, -1.0), 1, 1)
    # the turn cap: every game from the start of a 3-turn game plays 3 turns
    game = make_game("biqala", max_turns=3)
    for seed in range(20):
        check_playout(game, game.initial_state(), seed, game.compiled())
        assert game.random_playout(game.initial_state(), np.random.default_rng(seed))[2] == 3
    # a finished game: nothing to play
    game = make_game("biqala")
    state = game.step(position({"A": 1, "H": 2, "l": 1}, player=1), SOW + CELL_OF["l"])
    assert game.random_playout(state, np.random.default_rng(0)) == (game.returns(state), 0, 0)
