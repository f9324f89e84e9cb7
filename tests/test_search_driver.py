"""The search driver (agents.search.mcts.driver) against the reference search
(``tests/reference_search.py``, a Python loop over engine states): the same visit counts,
values, priors, principal variations and draws on fixed seeds, over many positions, chance
nodes in both chance modes included; and the rows (observation planes, chance outcomes,
playouts) against the engines."""

from __future__ import annotations

import dataclasses
from contextlib import contextmanager

import numpy as np
import pytest
import torch
from reference_search import ReferenceMCTS

from agents.net.net_estimator import NetEstimator
from agents.net.network import NetConfig, PolicyValueNet
from agents.search.estimators import FunctionEstimator, RolloutEstimator, UniformEstimator
from agents.search.mcts import MCTS, SearchConfig
from agents.search.mcts import driver as compiled_driver
from agents.search.mcts.python_rows import PythonRows
from envs import GAMES as REGISTERED
from envs import compiled as rules
from envs import make_game
from envs.core import CHANCE, TERMINAL
from envs.kernels import playout_seed
from envs.neutral.compiled import START

torch.set_num_threads(1)  # tiny batches: threads only contend on the shared CPU

GAMES = [
    ("hex", {"size": 5}),
    ("hex", {"size": 4, "pie_rule": True}),
    ("hex", {"size": 7}),
    ("y", {"size": 5}),
    ("y", {"size": 4, "pie_rule": True}),
    ("gomoku", {"size": 7}),
    ("gomoku", {"size": 5, "pie_rule": True}),
    ("reversi", {"size": 4}),
    ("reversi", {"size": 6}),
    ("nex", {"size": 4}),
    ("nex", {"size": 5, "pie_rule": True}),
    ("neumoku", {"size": 6}),
    ("neuy", {"size": 5, "pie_rule": True}),
    ("neuversi", {"size": 4}),
    ("neuversi", {"size": 6}),
    ("adneuversi", {"size": 6}),
]
GAME_IDS = [f"{name}-{'-'.join(f'{k}={v}' for k, v in params.items())}" for name, params in GAMES]


def positions(game, rng, count: int) -> list:
    """The start, then positions after random play, down to a few empty cells (terminal children)."""
    result = [game.initial_state()]
    while len(result) < count:
        state = game.initial_state()
        for _ in range(int(rng.integers(1, game.num_cells))):
            legal = game.legal_actions(state)
            child = game.step(state, legal[int(rng.integers(len(legal)))])
            if game.to_play(child) == TERMINAL:
                break
            state = child
        result.append(state)
    return result


def fake_network(game):
    """Priors and values a function of the position (zeros, ties and a NaN row included)."""
    num_actions = game.info.num_actions

    def function(state):
        board = np.frombuffer(bytes(state.board), np.uint8).astype(np.float32)
        total = int(board.sum()) + state.turns
        priors = np.zeros(num_actions, np.float32)
        priors[: game.num_cells] = (np.arange(game.num_cells) * 7 + total) % 5 + board
        priors[-1] = 0.5
        if total % 11 == 3:  # unusable: the search falls back to uniform
            priors[0] = np.nan
        value = np.float64((total % 7 - 3) / 3.5)
        return priors, np.array([value, -value]) if state.colour == 1 else np.array([-value, value])

    return FunctionEstimator(game, function)


class PlanesNetwork(NetEstimator):
    """``NetEstimator`` (its ``estimate`` and ``estimate_planes``) over a fixed random linear map
    of the observation planes in place of the network: every plane's every entry moves the
    priors and values, so planes built wrongly from the rows change the search."""

    def __init__(self, game, seed: int = 0):
        self.game, self.calls, self.positions, self.seconds = game, 0, 0, 0.0
        size, actions = int(np.prod(game.info.obs_shape)), game.info.num_actions
        self.weights = np.random.default_rng(seed).normal(size=(size, actions + 1))

    def forward(self, obs):
        out = obs.reshape(len(obs), -1).astype(np.float64) @ self.weights
        return out[:, :-1], np.tanh(out[:, -1] / 4)


def observed_network(game):
    """Priors and values a function of the observation (zeros and a NaN row included): for the
    games whose states ``fake_network`` cannot read."""
    num_actions = game.info.num_actions

    def function(state):
        total = int(game.observe(state).sum() * 5)
        priors = ((np.arange(num_actions) * 7 + total) % 5).astype(np.float32)
        if total % 11 == 3:  # unusable: the search falls back to uniform
            priors[0] = np.nan
        value = np.float64((total % 7 - 3) / 3.5)
        return priors, np.array([value, -value])

    return FunctionEstimator(game, function)


def estimators(kind: str, game, seed: int):
    """A fresh estimator of ``kind`` and the generator the searches draw from."""
    rng = np.random.default_rng(seed)
    if kind == "uniform":
        return UniformEstimator(game), rng
    if kind == "network":
        return (observed_network if game.info.has_chance else fake_network)(game), rng
    if kind == "planes":
        return PlanesNetwork(game, seed), rng
    if kind == "rollout":
        return RolloutEstimator(game, rng), rng
    if kind == "rollout x3":
        return RolloutEstimator(game, np.random.default_rng(seed + 1), num_rollouts=3), rng
    raise ValueError(kind)


def with_reference(game, config, states, kind, seed, add_noise, per_state=False):
    """(results, the generators' states after) of the reference search and the driver."""
    outcomes = []
    for search in (ReferenceMCTS, MCTS):
        estimator, rng = estimators(kind, game, seed)
        rngs = [np.random.default_rng(seed + 10 + i) for i in range(len(states))] if per_state else rng
        with rows_only(game, kind == "planes" and search is MCTS):
            results = search(game, config).search_many(states, estimator, rngs, add_noise)
        after = [r.bit_generator.state for r in ([rng] + (rngs if per_state else []))]
        if hasattr(estimator, "rng"):
            after.append(estimator.rng.bit_generator.state)
        outcomes.append((results, after))
    return outcomes


@contextmanager
def rows_only(game, refuse: bool):
    """With ``refuse``, the game's compiled rows cannot be decoded meanwhile (the planes path
    builds the network's input from the rows alone)."""
    if not refuse:
        yield
        return
    compiled = game.compiled()

    def refused(row):
        raise AssertionError("a row was decoded")

    compiled.decode = refused
    try:
        yield
    finally:
        del compiled.decode


def assert_same(reference, driver):
    (ours, after), (theirs, after_too) = reference, driver
    assert after == after_too  # the same draws from every generator
    for a, b in zip(ours, theirs):
        assert a.selected == b.selected  # Gumbel's choice (None without it)
        if a.improved_policy is not None:
            np.testing.assert_array_equal(a.improved_policy, b.improved_policy)
        np.testing.assert_array_equal(a.visit_counts, b.visit_counts)
        np.testing.assert_array_equal(a.root_values, b.root_values)
        np.testing.assert_array_equal(a.q_values, b.q_values)
        np.testing.assert_array_equal(a.priors, b.priors)
        assert a.to_play == b.to_play
        assert a.principal_variation == b.principal_variation


@pytest.mark.parametrize("kind", ["uniform", "network", "planes", "rollout", "rollout x3"])
@pytest.mark.parametrize("name,params", GAMES, ids=GAME_IDS)
def test_driver_gives_the_reference_results(name, params, kind):
    game = make_game(name, **params)
    rng = np.random.default_rng(7)
    states = positions(game, rng, 8)
    for seed, state in enumerate(states):
        add_noise = seed % 2 == 1
        config = SearchConfig(
            num_simulations=int(rng.integers(1, 120)),
            fpu_reduction=0.1 * (seed % 3),
            gumbel=seed % 4 >= 2,
            gumbel_actions=int(rng.integers(1, 20)),
            playout_mix=0.5 if seed % 3 == 1 else 0.0,
        )
        assert_same(*with_reference(game, config, [state], kind, seed, add_noise))


@pytest.mark.parametrize("gumbel", [False, True])
@pytest.mark.parametrize("kind", ["network", "planes", "rollout"])
@pytest.mark.parametrize("per_state", [False, True])
def test_driver_matches_in_lockstep_over_many_roots(kind, per_state, gumbel):
    game = make_game("hex", size=5, pie_rule=True)
    states = positions(game, np.random.default_rng(3), 12)
    config = SearchConfig(num_simulations=150, c_puct=2.0, gumbel=gumbel, gumbel_actions=8, playout_mix=0.25)
    assert_same(*with_reference(game, config, states, kind, 5, add_noise=True, per_state=per_state))


@pytest.mark.parametrize("kind", ["uniform", "network", "planes", "rollout"])
def test_driver_passes_in_reversi(kind):
    """A root whose only action is a pass, in a tree that reaches the count at the end."""
    game = make_game("reversi", size=4)
    state = game.from_diagram(". . . o\no o o x\n. o x x\n. x x x", "o", turns=7)
    assert game.legal_actions(state) == [game.PASS]
    outcomes = with_reference(game, SearchConfig(num_simulations=60), [state], kind, 2, add_noise=True)
    assert_same(*outcomes)
    visits = outcomes[1][0][0].visit_counts
    assert visits[game.PASS] == visits.sum() > 50
    assert len(outcomes[1][0][0].principal_variation) >= 3


@pytest.mark.parametrize("kind", ["rollout", "network", "planes"])
def test_driver_grows_its_edge_arrays(monkeypatch, kind):
    """Starting with room for one wave's edges, the arrays grow many times over."""
    monkeypatch.setattr(compiled_driver, "FIRST_EDGES", 1)
    game = make_game("hex", size=7)
    assert_same(*with_reference(game, SearchConfig(num_simulations=200), [game.initial_state()] * 3, kind, 1, False))


@pytest.mark.parametrize("kind", ["rollout", "network"])
def test_driver_grows_its_paths(kind):
    """A game whose ``max_decisions`` understates its depth (paths start 4 long): the paths grow
    and the searches are those of the game that states its depth."""
    outcomes = []
    for depth in (None, 0):
        game = make_game("hex", size=4)
        if depth is not None:
            game.info = dataclasses.replace(game.info, max_decisions=depth)
        estimator, rng = estimators(kind, game, 3)
        results = MCTS(game, SearchConfig(num_simulations=300)).search_many([game.initial_state()] * 2, estimator, rng)
        outcomes.append((results, [rng.bit_generator.state]))
    assert len(outcomes[0][0][0].principal_variation) > 2
    assert_same(*outcomes)


@pytest.mark.parametrize("name,params", GAMES, ids=GAME_IDS)
def test_decoded_rows_are_the_engine_states(name, params):
    game = make_game(name, **params)
    compiled = game.compiled()
    for state in positions(game, np.random.default_rng(11), 20):
        decoded = compiled.decode(compiled.encode(state))
        assert decoded.key() == state.key()
        assert game.legal_actions(decoded) == game.legal_actions(state)
        np.testing.assert_array_equal(game.observe(decoded), game.observe(state))
        for action in game.legal_actions(state)[:3]:
            assert game.step(decoded, action).key() == game.step(state, action).key()
            assert game.returns(game.step(decoded, action)) == game.returns(game.step(state, action))


@pytest.mark.parametrize("name,params", GAMES, ids=GAME_IDS)
def test_row_observations_are_the_engine_observations(name, params):
    """Every position of random games (the pie swap, micro-steps and the end included): the
    planes built from the row equal ``game.observe``, dtype and values."""
    game = make_game(name, **params)
    compiled, rng = game.compiled(), np.random.default_rng(5)
    assert rules.provides(compiled, "observe")
    seen = {"pie": 0, "step": 0, "end": 0}
    for _ in range(12):
        state = game.initial_state()
        while True:
            out = np.full(game.info.obs_shape, 9.0, np.float32)  # every entry must be written
            rules.observe_row(compiled.context, compiled.encode(state), out)
            expected = game.observe(state)
            assert out.dtype == expected.dtype == np.float32
            np.testing.assert_array_equal(out, expected)
            seen["pie"] += bool(expected[-2].all())
            seen["step"] += getattr(state, "phase", START) != START
            if game.to_play(state) == TERMINAL:
                seen["end"] += 1
                break
            legal = game.legal_actions(state)
            state = game.step(state, legal[int(rng.integers(len(legal)))])
    assert seen["end"] == 12
    assert (seen["pie"] > 0) == (game.pie_turn is not None)
    assert (seen["step"] > 0) == (name in ("nex", "neumoku", "neuy", "neuversi", "adneuversi"))


def test_the_planes_path_needs_a_network_over_the_searched_game():
    """Row planes go to an estimator with ``estimate_planes`` over the search's own game;
    another estimator, or one over another game object, gets decoded states."""
    game = make_game("nex", size=5)
    mcts, state, rng = MCTS(game), game.initial_state(), np.random.default_rng(0)
    assert compiled_driver.RowSearch(mcts, [state], game.compiled(), PlanesNetwork(game), [rng]).inputs
    for estimator in (fake_network(game), PlanesNetwork(make_game("nex", size=5))):
        assert compiled_driver.RowSearch(mcts, [state], game.compiled(), estimator, [rng]).inputs is None


def test_every_registered_game_searches_its_compiled_rows():
    """The driver runs numba over ``game.compiled()`` rows for every registered game, and over
    ``PythonRows`` in Python for a game without them."""
    for name in REGISTERED:
        game = make_game(name)
        assert MCTS(game)._compiled is not None, name
    plain = make_game("hex", size=3)
    plain.compiled = lambda: None  # as a game written in plain Python against envs.core.Game
    assert MCTS(plain)._compiled is None
    search = compiled_driver.RowSearch(
        MCTS(plain), [plain.initial_state()], PythonRows(plain), UniformEstimator(plain), [np.random.default_rng(0)]
    )
    assert search.kernels is compiled_driver.PYTHON_KERNELS


def test_search_errors_name_the_reason():
    odoku = make_game("odoku")
    odoku.compiled = make_game("hex", size=5).compiled  # rows without a chance function
    with pytest.raises(ValueError, match="odoku has chance nodes but its compiled rules register no chance function"):
        MCTS(odoku)
    game = make_game("hex", size=2)
    state = game.initial_state()
    for action in (0, 1, 2):
        game.apply(state, action)
    with pytest.raises(ValueError, match="state 0: cannot search a finished game"):
        MCTS(game).search(state, UniformEstimator(game), np.random.default_rng(0))

    class Short:
        def estimate(self, states):
            return np.ones((len(states), 3)), np.zeros((len(states), 2))

    with pytest.raises(ValueError, match="estimator returned priors"):
        MCTS(game).search(game.initial_state(), Short(), np.random.default_rng(0))


@pytest.mark.parametrize("kind", ["network", "torch"])
@pytest.mark.parametrize("name,params", [("nex", {"size": 5}), ("neuversi", {"size": 6})])
def test_self_play_gives_the_reference_games(name, params, kind):
    """The nex11 recipe's search (Gumbel root, playout mix) through self-play: the same games and
    targets, with a fake network on decoded states and a small real one on the rows' planes."""
    from agents.training.selfplay import SelfPlayConfig

    game = make_game(name, **params)
    search = SearchConfig(num_simulations=32, gumbel=True, playout_mix=0.5)
    selfplay = SelfPlayConfig(games_per_iteration=4, concurrent_games=4, outcome_rollouts=2)
    assert_same_self_play(game, search, selfplay, fake_network(game) if kind == "network" else None)


def assert_same_self_play(game, search, selfplay, estimator=None) -> None:
    """``selfplay``'s games with ``search`` on the reference and the driver give the same games and
    targets: with ``estimator``, or (None) a small real network on the rows' planes (decoding refused)."""
    from agents.training.selfplay import self_play

    torch.manual_seed(0)
    net = PolicyValueNet.for_game(game.info, NetConfig(channels=8, blocks=1, value_hidden=8))
    batches = []
    for searching in (ReferenceMCTS, MCTS):
        mcts = searching(game, search)
        with rows_only(game, estimator is None and searching is MCTS):
            playing = estimator or NetEstimator(game, net, inference="torch")
            batches.append(
                self_play(game, mcts, playing, selfplay.games_per_iteration, selfplay, np.random.default_rng(3))
            )
    reference, driver = batches
    assert reference.games == driver.games and reference.returns == driver.returns
    np.testing.assert_array_equal(reference.obs, driver.obs)
    np.testing.assert_array_equal(reference.policy, driver.policy)
    np.testing.assert_array_equal(reference.value, driver.value)


# --- chance nodes: Odoku (a coin before every move), Sudoku Moyo (the puzzle drawn at the start) ---
CHANCE_GAMES = [("odoku", {}), ("odoku", {"bias": 0.3}), ("sudoku_moyo", {})]
CHANCE_IDS = ["odoku", "odoku-bias=0.3", "sudoku_moyo"]


def chance_positions(game, rng, count: int, setup: bool) -> list:
    """Chance and decision positions of random games (the start left out unless ``setup``: a
    search at Sudoku Moyo's setup expands its 65,536 puzzles in expectation mode)."""
    result = []
    while len(result) < count:
        state = game.initial_state()
        for step in range(int(rng.integers(0, 60))):
            if game.is_chance(state):
                child = game.step(state, game.sample_chance(state, rng))
            else:
                legal = game.legal_actions(state)
                child = game.step(state, legal[int(rng.integers(len(legal)))])
            if game.to_play(child) == TERMINAL:
                break
            state = child
        if setup or not game.is_chance(state) or game.info.name == "odoku":
            result.append(state)
    return result


@pytest.mark.parametrize("chance", ["expectation", "sample"])
@pytest.mark.parametrize("kind", ["uniform", "network", "planes", "rollout", "rollout x3"])
@pytest.mark.parametrize("name,params", CHANCE_GAMES, ids=CHANCE_IDS)
def test_driver_gives_the_reference_results_at_chance_nodes(name, params, kind, chance):
    """Chance roots and decision roots, chance nodes below them expanded or sampled, with root
    noise, Gumbel (neither at a chance root) and the playout mix."""
    game = make_game(name, **params)
    rng = np.random.default_rng(17)
    states = chance_positions(game, rng, 6, setup=False)
    assert any(game.is_chance(s) for s in states) == (name == "odoku")
    for seed, state in enumerate(states):
        config = SearchConfig(
            num_simulations=int(rng.integers(1, 80)),
            chance=chance,
            fpu_reduction=0.1 * (seed % 3),
            gumbel=seed % 4 >= 2,
            gumbel_actions=int(rng.integers(1, 20)),
            playout_mix=0.5 if seed % 3 == 1 else 0.0,
        )
        assert_same(*with_reference(game, config, [state], kind, seed, seed % 2 == 1))


@pytest.mark.parametrize("chance", ["expectation", "sample"])
@pytest.mark.parametrize("kind", ["planes", "rollout"])
@pytest.mark.parametrize("per_state", [False, True])
def test_driver_matches_over_many_chance_roots(kind, per_state, chance):
    """Roots at the coin and after it in lockstep, the arrays and draw streams grown on the way."""
    game = make_game("odoku")
    states = chance_positions(game, np.random.default_rng(3), 10, setup=False)
    assert {game.to_play(s) for s in states} >= {CHANCE, 0, 1}
    config = SearchConfig(num_simulations=90, c_puct=0.5, chance=chance, gumbel=True, gumbel_actions=6)
    assert_same(*with_reference(game, config, states, kind, 6, add_noise=True, per_state=per_state))


def test_sampling_chance_needs_generators_of_64_bit_draws():
    """MT19937's ``random()`` is not one raw draw: a sampling search of a chance game refuses it,
    naming the generators it takes; a game without chance nodes, or expectation mode, takes it."""
    odoku, hex5 = make_game("odoku"), make_game("hex", size=5)
    rng = np.random.Generator(np.random.MT19937(5))
    with pytest.raises(ValueError, match=r"chance='sample' draws outcomes from generators .*PCG64.*got MT19937"):
        MCTS(odoku, SearchConfig(chance="sample")).search(odoku.initial_state(), UniformEstimator(odoku), rng)
    coin = odoku.step(odoku.initial_state(), 0)  # a decision root
    for game, state, chance in ((hex5, hex5.initial_state(), "sample"), (odoku, coin, "expectation")):
        config = SearchConfig(num_simulations=20, chance=chance)
        assert MCTS(game, config).search(state, UniformEstimator(game), rng).visit_counts.sum() == 19


@pytest.mark.parametrize("name,params", CHANCE_GAMES, ids=CHANCE_IDS)
def test_chance_rows_are_the_engine_states(name, params):
    """Along random games: the row's state, legal actions, chance outcomes, observation, mover,
    returns and playout are the engine's, and so is the row after each action or outcome."""
    game = make_game(name, **params)
    compiled, rng = game.compiled(), np.random.default_rng(9)
    assert rules.provides(compiled, "chance") and rules.provides(compiled, "observe")
    legal, outcomes = np.empty(compiled.max_legal, np.int64), np.empty(compiled.max_chance, np.int64)
    probs, out = np.empty(compiled.max_chance), np.zeros(2)
    seen = {CHANCE: 0, TERMINAL: 0, 0: 0, 1: 0}
    for _ in range(3):
        state = game.initial_state()
        row = compiled.encode(state)
        while True:
            player = game.to_play(state)
            seen[player] += 1
            decoded = compiled.decode(row)
            assert decoded.key() == state.key() and compiled.encode(decoded).tolist() == row.tolist()
            assert compiled_driver.legal_actions(compiled.context, row, legal) == len(game.legal_actions(state))
            assert legal[: len(game.legal_actions(state))].tolist() == game.legal_actions(state)
            count = rules.chance_row(compiled.context, row, outcomes, probs)
            assert list(zip(outcomes[:count].tolist(), probs[:count].tolist())) == list(game.chance_outcomes(state))
            planes = np.full(game.info.obs_shape, 9.0, np.float32)
            rules.observe_row(compiled.context, row, planes)
            np.testing.assert_array_equal(planes, game.observe(state))
            if player == TERMINAL:
                compiled_driver.playouts(
                    compiled.context, row[None], np.zeros(1, np.int64), np.zeros(1, np.int64), out[None]
                )
                assert tuple(out) == game.returns(state)
                break
            if player >= 0:
                seed = int(rng.integers(1000))
                expected = game.random_playout(state, np.random.default_rng(seed))[0]
                seeds = np.array([playout_seed(np.random.default_rng(seed))], np.int64)
                played = np.zeros((1, 2))
                compiled_driver.playouts(compiled.context, row[None], np.zeros(1, np.int64), seeds, played)
                assert tuple(played[0]) == expected
                action = game.legal_actions(state)[int(rng.integers(len(game.legal_actions(state))))]
            else:
                action = game.sample_chance(state, rng)
            game.apply(state, action)
            rules.apply_row(compiled.context, row, action)
    assert all(seen.values())
