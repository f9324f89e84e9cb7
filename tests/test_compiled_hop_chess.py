"""Hop Chess's compiled rules (``envs/games/hop_chess/kernels.py``, the engine's own) through
``envs.compiled``: rows round-trip, the registered ``legal``/``to_play``/``returns`` give the
engine's answers and ``observe`` the planes the class docstring describes (read here from the
position, independently); the search driver gives the reference search's results (random
rollouts, a network on the rows' planes, one on decoded states) and self-play games; and the
random playout kernel plays the engine loop's game: for the same seed, the same draws over the
same legal actions, so the same returns, decisions and turns (``Game.engine_playout`` is the
loop), from random games' positions (the start, a piece chosen, a piece moved with the hopper to
place, one at random and the last ones before the end) of the opening and of endgames rich in
castling, en passant, promotion and mate, and from hand-made positions of the hopper rules
(``tests/test_hop_chess.py``) and of every end rule."""

import numpy as np
import pytest
import torch
from conformance import check_playout, positions
from reference_search import ReferenceMCTS
from test_hop_chess import (
    CASTLING,
    EN_PASSANT,
    KNIGHTS_OUT_AND_BACK,
    MATE_THROUGH_A_HOPPER,
    PROMOTION,
    ROOK_BY_A_HOPPER,
    play_turns,
)
from test_search_driver import PlanesNetwork, assert_same, assert_same_self_play, rows_only

from agents.search.estimators import FunctionEstimator, RolloutEstimator, UniformEstimator
from agents.search.mcts import MCTS, SearchConfig
from agents.search.mcts import driver as compiled_driver
from envs import compiled as rules
from envs import make_game
from envs.games.hop_chess.game import FROM, HOPPER, TO, material
from envs.games.hop_chess.position import from_fen, square_of
from envs.kernels import draw, playout_seed

torch.set_num_threads(1)

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
            check_playout(other, state, seed, other.compiled())


def test_mate_through_a_hopper():
    game = make_game("hop_chess")
    state = moved(game, game.from_diagram(MATE_THROUGH_A_HOPPER), "e1", "d1")
    seed = seed_choosing(game, state, HOPPER + square_of("a8"))  # a1-a8-h8
    assert game.random_playout(state, np.random.default_rng(seed)) == ((1.0, -1.0), 1, 1)
    check_playout(game, state, seed, game.compiled())


def test_the_draws():
    game = make_game("hop_chess")
    # threefold repetition: the knights' dance, the last hopper step still to take
    state = play_turns(game.initial_state(), ["Ng1-f3", "Ng8-f6 e5"] + KNIGHTS_OUT_AND_BACK * 2)
    state = moved(game, state, "f3", "g1")
    seed = seed_choosing(game, state, HOPPER + square_of("d4"))
    assert game.random_playout(state, np.random.default_rng(seed)) == ((0.0, 0.0), 1, 1)
    check_playout(game, state, seed, game.compiled())
    # the same pieces with and without an en passant right are two positions: the kings' dance
    # draws at the third occurrence without it (``test_an_en_passant_right_makes_a_position_of_its_own``)
    other, state = with_hoppers(EN_PASSANT, "a3", "h6")
    kings = ["Ke1-f1 a3", "Ke8-f8 h6", "Kf1-e1 a3", "Kf8-e8 h6"]
    state = moved(other, play_turns(state, ["d5 h6"] + kings * 2), "e1", "f1")
    seed = seed_choosing(other, state, HOPPER + square_of("a3"))
    assert other.random_playout(state, np.random.default_rng(seed)) == ((0.0, 0.0), 1, 1)
    check_playout(other, state, seed, other.compiled())
    # 75 moves without a capture or a pawn move: one turn from the limit
    pos = from_fen("7k/8/8/8/8/8/8/R3K3 w Q - 0 1", opening=False)
    pos.clock = 149
    state = game.state_at(pos)
    for seed in range(20):
        assert game.random_playout(state, np.random.default_rng(seed)) == ((0.0, 0.0), 3, 1)
        check_playout(game, state, seed, game.compiled())
    # bare kings: the king takes the last knight (or steps aside)
    state = game.state_at(from_fen("8/8/8/8/8/3k4/4N3/7K b - - 0 1", opening=False))
    ends = set()
    for seed in range(40):
        check_playout(game, state, seed, game.compiled())
        ends.add(game.random_playout(state, np.random.default_rng(seed))[1:] == (3, 1))
    assert ends == {True, False}
    # the turn cap: the last turn of a 3-turn game
    capped = make_game("hop_chess", max_turns=3)
    state = play_turns(capped.initial_state(), ["e4", "e5 d4"])
    for seed in range(20):
        assert capped.random_playout(state, np.random.default_rng(seed)) == ((0.0, 0.0), 3, 1)


# --- the rows ---------------------------------------------------------------------------------------
def sample_states(count_games: int = 6) -> list:
    """(game, state) along random games of several starts: every micro-step and the ends."""
    found = []
    for fen, max_turns in CONFIGS[:6]:
        game = make_game("hop_chess", **params_of(fen, max_turns))
        for seed in range(count_games):
            found += [(game, state) for state in positions(game, seed, BEGUN)]
    return found


def independent_planes(state) -> np.ndarray:
    """The class docstring's observation planes, read from the position in Python."""
    pos, mover = state.pos, state.pos.side
    planes = np.zeros((23, 64), np.float32)
    for square, piece in enumerate(pos.board):
        if piece:
            planes[abs(piece) - 1 + (0 if (piece > 0) == (mover == 0) else 6), square] = 1.0
    for plane, colour in ((12, mover), (13, 1 - mover)):
        if pos.hoppers[colour] >= 0:
            planes[plane, pos.hoppers[colour]] = 1.0
    if state.origin >= 0:
        planes[14, state.origin] = 1.0
    planes[15] = state.move is not None
    planes[16] = mover == 0
    if pos.ep >= 0:
        planes[17, pos.ep] = 1.0
    rights = (1, 2, 4, 8) if mover == 0 else (4, 8, 1, 2)  # the mover's short and long, the opponent's
    for plane, bit in enumerate(rights, start=18):
        planes[plane] = bool(pos.castling & bit)
    planes[22] = state.repeats > 1
    return planes.reshape(23, 8, 8)[:, ::-1, :]


def test_rows_round_trip_and_the_kernels_answer_as_the_engine():
    kinds = {"start": 0, "chosen": 0, "moved": 0, "end": 0}
    scratch = np.empty(256, np.int64)
    for game, state in sample_states():
        compiled = game.compiled()
        row = compiled.encode(state)
        assert row.dtype == np.int32 and row.shape == (compiled.width,)
        decoded = compiled.decode(row)
        np.testing.assert_array_equal(decoded.row, state.row)
        assert decoded.row is not row and game.legal_actions(decoded) == game.legal_actions(state)
        count = compiled_driver.legal_actions(compiled.context, row, scratch)
        assert scratch[:count].tolist() == game.legal_actions(state) and count <= compiled.max_legal
        out = np.full((23, 8, 8), 9.0, np.float32)  # every entry must be written
        rules.observe_row(compiled.context, row, out)
        np.testing.assert_array_equal(out, independent_planes(state))
        np.testing.assert_array_equal(out, game.observe(state))
        played = np.zeros((1, 2))
        compiled_driver.playouts(compiled.context, row[None], np.array([0]), np.array([12345]), played)
        assert tuple(played[0]) == game.engine_playout(state, 12345)[0]
        if game.is_terminal(state):
            kinds["end"] += 1
            assert count == 0 and game.returns(state) == game.random_playout(state, np.random.default_rng(0))[0]
        else:
            kinds["moved" if state.move else "chosen" if state.origin >= 0 else "start"] += 1
        assert game.returns(decoded) == game.returns(state) and game.to_play(decoded) == game.to_play(state)
        for action in game.legal_actions(state)[:3]:
            np.testing.assert_array_equal(game.step(decoded, action).row, game.step(state, action).row)
    assert min(kinds.values()) >= 5, kinds


# --- the search driver ----------------------------------------------------------------------------------
def fake_network(game):
    """Priors and values a function of the position (ties and an unusable row included): an
    estimator without ``estimate_planes``, so the driver decodes its leaves."""

    def function(state):
        total = material(state.pos.board) + 3 * state.plies + state.origin
        priors = ((np.arange(game.info.num_actions) * 7 + total) % 5).astype(np.float32)
        if total % 11 == 3:  # unusable: the search falls back to uniform
            priors[0] = np.nan
        value = np.tanh(total / 7.0)
        return priors, np.array([value, -value])

    return FunctionEstimator(game, function)


ESTIMATORS = {
    "uniform": lambda game, seed: UniformEstimator(game),
    "rollout": lambda game, seed: RolloutEstimator(game, np.random.default_rng(seed + 1)),
    "rollout x2": lambda game, seed: RolloutEstimator(game, np.random.default_rng(seed + 1), num_rollouts=2),
    "network": lambda game, seed: fake_network(game),
    "planes": lambda game, seed: PlanesNetwork(game, seed),
}


@pytest.mark.parametrize("kind", sorted(ESTIMATORS))
def test_the_driver_gives_the_reference_searches(kind):
    game = make_game("hop_chess", fen=CONFIGS[2][0], max_turns=12)
    states = positions(game, 1, BEGUN)[:-1]
    rng = np.random.default_rng(4)
    for seed, state in enumerate(states[:6]):
        config = SearchConfig(
            num_simulations=int(rng.integers(8, 40)),
            gumbel=seed % 2 == 1,
            gumbel_actions=4,
            playout_mix=0.5 if seed % 3 == 2 else 0.0,
        )
        outcomes = []
        for search in (ReferenceMCTS, MCTS):
            estimator, search_rng = ESTIMATORS[kind](game, seed), np.random.default_rng(seed)
            with rows_only(game, kind == "planes" and search is MCTS):
                results = search(game, config).search_many([state], estimator, search_rng, seed % 2 == 0)
            after = [search_rng.bit_generator.state] + (
                [estimator.rng.bit_generator.state] if kind[:7] == "rollout" else []
            )
            outcomes.append((results, after))
        assert_same(*outcomes)


def test_the_driver_searches_the_compiled_rows():
    assert MCTS(make_game("hop_chess"))._compiled is not None


def test_self_play_gives_the_reference_games():
    """The recipe's search (Gumbel root) through self-play, a small real network on the rows' planes."""
    from agents.training.selfplay import SelfPlayConfig

    selfplay = SelfPlayConfig(games_per_iteration=2, concurrent_games=2, outcome_rollouts=1)
    search = SearchConfig(num_simulations=8, gumbel=True, playout_mix=0.5)
    assert_same_self_play(make_game("hop_chess", max_turns=6), search, selfplay)
