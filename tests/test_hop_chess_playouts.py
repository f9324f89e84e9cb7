"""The compiled random playout of Hop Chess plays the engine loop's game: for the same seed, the
same draws over the same legal actions, so the same returns, the same number of decisions and
of turns (``Game.engine_playout`` is the loop). Positions come from random games (the start,
a piece chosen, a piece moved with the hopper to place, one at random and the last ones before
the end) from the opening and from endgames rich in castling, en passant, promotion and mate,
short ``max_turns`` keeping the engine's games quick; and from the hand-made positions of the
hopper rules (``tests/test_hop_chess.py``) and of every end rule."""

import numpy as np
import pytest
from test_hop_chess import (
    CASTLING,
    EN_PASSANT,
    KNIGHTS_OUT_AND_BACK,
    MATE_THROUGH_A_HOPPER,
    PROMOTION,
    ROOK_BY_A_HOPPER,
    play_turns,
)
from test_scheduled_playouts import assert_plays_the_engine_game, assert_scores_as_the_engine_loop, check_config

from envs import make_game
from envs.games.hop_chess.game import FROM, HOPPER, TO, compiled_turns
from envs.games.hop_chess.moves import from_fen, legal_turns, square_of
from envs.kernels import draw, playout_seed

# (FEN, max_turns): the opening (white's first move has no hopper), castling both ways,
# pawns to take en passant, promotions, mates, captures down to bare kings
CONFIGS = [
    (None, 5),
    (None, 10),
    ("r3k2r/pppq1ppp/8/8/8/8/PPPQ1PPP/R3K2R w KQkq - 0 1", 8),
    ("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1", 14),
    ("4k3/PPP5/8/8/8/8/5ppp/4K3 w - - 0 1", 12),
    ("k7/8/8/8/8/8/8/1QQ1K2R w K - 0 1", 30),
    ("4k3/8/8/3n4/8/8/8/3NK3 w - - 0 1", 40),
    ("r3k3/1p6/8/8/8/8/6P1/4K2R b Kq - 0 1", 16),
]
BEGUN = (lambda s: s.origin >= 0 and s.move is None, lambda s: s.move is not None)  # a piece chosen; moved


def params_of(fen, max_turns) -> dict:
    return {"max_turns": max_turns} | ({} if fen is None else {"fen": fen})


@pytest.mark.parametrize("fen, max_turns", CONFIGS, ids=[f"{f}-{t}" for f, t in CONFIGS])
def test_the_kernel_plays_the_engine_loop_game(fen, max_turns):
    seeds = range(6)
    assert check_config("hop_chess", params_of(fen, max_turns), seeds, BEGUN) >= 5 * len(seeds)


@pytest.mark.slow
def test_thousands_of_positions_play_the_engine_loop_game():
    compared = sum(check_config("hop_chess", params_of(*config), range(100, 140), BEGUN) for config in CONFIGS)
    compared += check_config("hop_chess", {}, range(100, 103), BEGUN)  # whole games to the 400-turn cap
    assert compared >= 2000


def seed_choosing(game, state, action: int) -> int:
    """A seed whose first draw over ``state``'s legal actions picks ``action``."""
    legal = game.legal_actions(state)
    return next(
        s for s in range(10_000) if draw(playout_seed(np.random.default_rng(s)), len(legal))[0] == legal.index(action)
    )


def chosen(game, state, square: str):
    return game.step(state, FROM + square_of(square))


def moved(game, state, origin: str, final: str, kind: int = 0):
    return game.step(chosen(game, state, origin), TO + 64 * kind + square_of(final))


def with_hoppers(fen: str, white: str, black: str, **params):
    game = make_game("hop_chess", fen=fen, **params)
    pos = from_fen(fen, opening=False)
    pos.hoppers = [square_of(white) if white else -1, square_of(black) if black else -1]
    return game, game.state_at(pos)


def test_hand_made_hopper_positions():
    game = make_game("hop_chess", max_turns=8)
    cases = []
    # a rook moving on from a hopper (a1-a3-h3)
    state = game.from_diagram(ROOK_BY_A_HOPPER)
    cases += [state, chosen(game, state, "a1"), moved(game, state, "a1", "h3")]
    # castling refused across a hopper, and allowed without one
    for cells in ((".", ".", "."), (".", "#", "."), ("#", ".", ".")):
        state = game.from_diagram(CASTLING.format(*cells))
        cases += [state, chosen(game, state, "e1")]
    cases.append(moved(game, game.from_diagram(CASTLING.format(".", ".", ".")), "e1", "c1"))
    # en passant: plain, across a hopper (none), and after the taker's own hop (none)
    after_a_hop = "4k3/3p4/8/8/4P3/8/8/4K3 b - - 0 1"
    for fen, hoppers, taker in (
        (EN_PASSANT, ("a3", "h6"), "e5"),
        (EN_PASSANT, ("a3", "d6"), "e5"),
        (after_a_hop, ("e5", "h6"), "e4"),
    ):
        other, state = with_hoppers(fen, *hoppers, max_turns=8)
        state = play_turns(state, [f"d5 {hoppers[1]}"])
        cases += [(other, state), (other, chosen(other, state, taker))]
    # a pawn promoting on a hopper: the new piece moves on
    other, state = with_hoppers(PROMOTION, "e8", None, max_turns=8)
    cases += [(other, state), (other, chosen(other, state, "e7")), (other, moved(other, state, "e7", "d6", 1))]
    for case in cases:
        other, state = case if isinstance(case, tuple) else (game, case)
        for seed in range(8):
            assert_plays_the_engine_game(other, state, seed)


def test_mate_through_a_hopper():
    game = make_game("hop_chess")
    state = moved(game, game.from_diagram(MATE_THROUGH_A_HOPPER), "e1", "d1")
    seed = seed_choosing(game, state, HOPPER + square_of("a8"))  # a1-a8-h8
    assert game.random_playout(state, np.random.default_rng(seed)) == ((1.0, -1.0), 1, 1)
    assert_plays_the_engine_game(game, state, seed)


def test_the_draws():
    game = make_game("hop_chess")
    # threefold repetition: the knights' dance, the last hopper step still to take
    state = play_turns(game.initial_state(), ["Ng1-f3", "Ng8-f6 e5"] + KNIGHTS_OUT_AND_BACK * 2)
    state = moved(game, state, "f3", "g1")
    seed = seed_choosing(game, state, HOPPER + square_of("d4"))
    assert game.random_playout(state, np.random.default_rng(seed)) == ((0.0, 0.0), 1, 1)
    assert_plays_the_engine_game(game, state, seed)
    # the same pieces with and without an en passant right are two positions: the kings' dance
    # draws at the third occurrence without it (``test_an_en_passant_right_makes_a_position_of_its_own``)
    other, state = with_hoppers(EN_PASSANT, "a3", "h6")
    kings = ["Ke1-f1 a3", "Ke8-f8 h6", "Kf1-e1 a3", "Kf8-e8 h6"]
    state = moved(other, play_turns(state, ["d5 h6"] + kings * 2), "e1", "f1")
    seed = seed_choosing(other, state, HOPPER + square_of("a3"))
    assert other.random_playout(state, np.random.default_rng(seed)) == ((0.0, 0.0), 1, 1)
    assert_plays_the_engine_game(other, state, seed)
    # 75 moves without a capture or a pawn move: one turn from the limit
    pos = from_fen("7k/8/8/8/8/8/8/R3K3 w Q - 0 1", opening=False)
    pos.clock = 149
    state = game.state_at(pos)
    for seed in range(20):
        assert game.random_playout(state, np.random.default_rng(seed)) == ((0.0, 0.0), 3, 1)
        assert_plays_the_engine_game(game, state, seed)
    # bare kings: the king takes the last knight (or steps aside)
    state = game.state_at(from_fen("8/8/8/8/8/3k4/4N3/7K b - - 0 1", opening=False))
    ends = set()
    for seed in range(40):
        assert_plays_the_engine_game(game, state, seed)
        ends.add(game.random_playout(state, np.random.default_rng(seed))[1:] == (3, 1))
    assert ends == {True, False}
    # the turn cap: the last turn of a 3-turn game
    capped = make_game("hop_chess", max_turns=3)
    state = play_turns(capped.initial_state(), ["e4", "e5 d4"])
    for seed in range(20):
        assert capped.random_playout(state, np.random.default_rng(seed)) == ((0.0, 0.0), 3, 1)


@pytest.mark.slow  # 300 engine games of up to 16 turns: about 8 s
def test_the_kernel_plays_uniformly_random_games():
    assert_scores_as_the_engine_loop(make_game("hop_chess", fen="k7/8/8/8/8/8/8/1QQ1K2R w K - 0 1", max_turns=16))


@pytest.mark.parametrize("fen, max_turns", CONFIGS, ids=[f"{f}-{t}" for f, t in CONFIGS])
def test_the_compiled_turns_are_the_reference_turns(fen, max_turns):
    """``game.compiled_turns`` (what the engine plays) gives ``moves.legal_turns``'s moves, order
    and hopper squares at every turn's start of 20 random games per position."""
    game = make_game("hop_chess", **params_of(fen, max_turns))
    compared = 0
    for seed in range(20):
        rng, state = np.random.default_rng(seed), game.initial_state()
        while not game.is_terminal(state):
            if state.origin < 0:
                assert list(compiled_turns(state.pos).items()) == list(legal_turns(state.pos).items())
                compared += 1
            legal = game.legal_actions(state)
            game.apply(state, legal[int(rng.integers(len(legal)))])
    assert compared >= 20 * 2
