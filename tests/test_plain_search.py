"""A game written in plain Python against ``envs.core.Game`` (no ``compiled()``) searched by the
one driver over ``PythonRows``: its results equal the reference search's on fixed seeds
(uniform, a network on the states, seeded rollouts, root noise, Gumbel, chance nodes in both
modes), and MCTS plays it legally and finds a forced win with uniform, rollout and tiny-network
estimators."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
import torch
from reference_search import ReferenceMCTS
from test_search_driver import assert_same, chance_positions

from agents.net.net_estimator import NetEstimator
from agents.net.network import NetConfig, PolicyValueNet
from agents.search.estimators import FunctionEstimator, RolloutEstimator, UniformEstimator
from agents.search.mcts import MCTS, SearchConfig, python_rows
from agents.search.mcts.python_rows import PythonRows
from envs.core import CHANCE, TERMINAL, Game, GameInfo
from envs.kernels import playout_seed

torch.set_num_threads(1)


@dataclass
class NimState:
    pile: int
    player: int = 0
    taker: int = -1  # the seat that took last
    rain: bool = False  # a chance node: whether the rain washes one more stone away

    def copy(self) -> "NimState":
        return NimState(self.pile, self.player, self.taker, self.rain)


class Nim(Game):
    """Take 1, 2 or 3 stones (actions 0, 1, 2); whoever takes the last stone wins. With
    ``rain``, after every take that leaves stones a chance node washes one more away with
    probability 1/3 (outcome 1; the taker owns it), so the pile a seat faces is not certain."""

    def __init__(self, pile: int = 9, rain: bool = False):
        self.pile, self.raining = pile, rain
        self.info = GameInfo("nim", ("first", "second"), 3, (2, 1, 3), pile, has_chance=rain)

    def initial_state(self) -> NimState:
        return NimState(self.pile)

    def to_play(self, state: NimState) -> int:
        return TERMINAL if state.pile == 0 else CHANCE if state.rain else state.player

    def legal_actions(self, state: NimState) -> list[int]:
        return [] if state.rain else list(range(min(3, state.pile)))

    def apply(self, state: NimState, action: int) -> None:
        if state.rain:
            state.pile -= action
            state.rain = False
            return
        assert action in self.legal_actions(state), action
        state.pile -= action + 1
        state.taker, state.player = state.player, 1 - state.player
        state.rain = self.raining and state.pile > 0

    def chance_outcomes(self, state: NimState) -> list[tuple[int, float]]:
        return [(0, 2 / 3), (1, 1 / 3)] if state.rain else []

    def returns(self, state: NimState) -> tuple[float, ...]:
        if state.pile:
            return (0.0, 0.0)
        return (1.0, -1.0) if state.taker == 0 else (-1.0, 1.0)

    def observe(self, state: NimState) -> np.ndarray:
        planes = np.zeros(self.info.obs_shape, np.float32)
        planes[0], planes[1] = state.pile / self.pile, state.player
        return planes

    def action_to_text(self, state: NimState, action: int) -> str:
        return str(action + 1)

    def parse_turn(self, state: NimState, text: str) -> list[int]:
        return [int(text) - 1]

    def render_text(self, state: NimState) -> str:
        return f"{state.pile} stones"


def table(game: Nim, state: NimState) -> tuple[np.ndarray, np.ndarray]:
    """Priors and values a function of the position (ties and an unusable row included)."""
    priors = ((np.arange(3) * 7 + state.pile) % 5).astype(np.float32)
    if state.pile % 4 == 3:
        priors[1] = np.nan  # unusable: the search falls back to uniform
    value = ((state.pile * 3) % 7 - 3) / 3.5
    return priors, np.array([value, -value]) if state.player == 0 else np.array([-value, value])


class SeededRollouts:
    """``RolloutEstimator`` as the driver plays it for a plain game: a playout seed drawn from
    ``rng`` per state, then ``game.random_playout`` with a generator of that seed."""

    def __init__(self, game, rng):
        self.game, self.rng = game, rng

    def estimate(self, states):
        values = [self.game.random_playout(s, np.random.default_rng(playout_seed(self.rng)))[0] for s in states]
        return np.ones((len(states), 3), np.float32), np.array(values)


@pytest.mark.parametrize("chance", ["expectation", "sample"])
@pytest.mark.parametrize("kind", ["uniform", "network", "rollout"])
@pytest.mark.parametrize("rain", [False, True])
def test_plain_game_gives_the_reference_results(rain, kind, chance):
    game = Nim(9, rain)
    assert game.compiled() is None and MCTS(game)._compiled is None
    rng = np.random.default_rng(5)
    states = chance_positions(game, rng, 6, setup=True)
    assert any(game.is_chance(s) for s in states) == rain
    for seed, state in enumerate(states):
        config = SearchConfig(
            num_simulations=int(rng.integers(1, 60)),
            chance=chance,
            fpu_reduction=0.1 * (seed % 3),
            gumbel=seed % 4 >= 2,
            gumbel_actions=2,
        )
        outcomes = []
        for search in (ReferenceMCTS, MCTS):
            search_rng, rollout_rng = np.random.default_rng(seed), np.random.default_rng(seed + 100)
            estimator = {
                "uniform": UniformEstimator(game),
                "network": FunctionEstimator(game, lambda s: table(game, s)),
                "rollout": (SeededRollouts if search is ReferenceMCTS else RolloutEstimator)(game, rollout_rng),
            }[kind]
            results = search(game, config).search_many([state], estimator, search_rng, seed % 2 == 1)
            outcomes.append((results, [search_rng.bit_generator.state, rollout_rng.bit_generator.state]))
        assert_same(*outcomes)


def test_plain_game_searches_many_roots_in_lockstep():
    game = Nim(9, rain=True)
    states = chance_positions(game, np.random.default_rng(2), 10, setup=True)
    config = SearchConfig(num_simulations=40, gumbel=True, gumbel_actions=3)
    outcomes = []
    for search in (ReferenceMCTS, MCTS):
        rngs = [np.random.default_rng(20 + i) for i in range(len(states))]
        estimator = FunctionEstimator(game, lambda s: table(game, s))
        results = search(game, config).search_many(states, estimator, rngs, add_noise=True)
        outcomes.append((results, [r.bit_generator.state for r in rngs]))
    assert_same(*outcomes)


def tiny_network(game: Nim) -> NetEstimator:
    torch.manual_seed(0)
    net = PolicyValueNet.for_game(game.info, NetConfig(channels=4, blocks=1, value_hidden=4))
    return NetEstimator(game, net, inference="torch")


ESTIMATORS = {
    "uniform": lambda game: UniformEstimator(game),
    "rollout": lambda game: RolloutEstimator(game, np.random.default_rng(1)),
    "tiny network": tiny_network,
}


@pytest.mark.parametrize("mix", [0.0, 0.5])
@pytest.mark.parametrize("kind", sorted(ESTIMATORS))
def test_plain_game_search_finds_the_forced_win(kind, mix):
    """From 5 stones only taking 1 wins (4 left is lost for the mover, whatever it takes); from
    6, taking 2; from 2 in the rain, taking both at once (taking one leaves a coin flip)."""
    for pile, rain, winning in ((5, False, 0), (6, False, 1), (2, True, 1)):
        game = Nim(pile, rain)
        estimator = ESTIMATORS[kind](game)
        config = SearchConfig(num_simulations=400, playout_mix=mix)
        result = MCTS(game, config).search(game.initial_state(), estimator, np.random.default_rng(pile))
        assert int(np.argmax(result.visit_counts)) == winning, (pile, rain, result.visit_counts)
        assert result.root_values[0] > 0 and result.q_values[winning, 0] > 0.5


@pytest.mark.parametrize("kind", sorted(ESTIMATORS))
def test_plain_game_self_play_is_legal(kind):
    """Whole games of searched moves (coins by their probabilities), every move legal, every
    game ended with zero-sum returns; the search adds its states to one table per search."""
    game, rng = Nim(9, rain=True), np.random.default_rng(3)
    mcts = MCTS(game, SearchConfig(num_simulations=24, chance="sample"))
    estimator = ESTIMATORS[kind](game)
    for _ in range(4):
        state = game.initial_state()
        while not game.is_terminal(state):
            if game.is_chance(state):
                game.apply(state, game.sample_chance(state, rng))
                continue
            result = mcts.search(state, estimator, rng, add_noise=True)
            action = int(np.argmax(result.visit_counts))
            assert action in game.legal_actions(state) and result.visit_counts.sum() == 23
            assert not result.visit_counts[~game.legal_mask(state)].any()
            game.apply(state, action)
        assert sum(game.returns(state)) == 0 and abs(game.returns(state)[0]) == 1


def test_python_rows_keep_every_state_apart():
    """A row copied from its parent's and then played keeps the parent's state untouched."""
    game = Nim(5, rain=True)
    rows = PythonRows(game)
    parent = rows.encode(game.initial_state())
    child = parent.copy()
    python_rows.apply(rows, child, 1)
    assert rows.decode(parent) == NimState(5) and rows.decode(child) == NimState(3, 1, 0, True)
    outcomes, probs = np.zeros(4, np.int64), np.zeros(4)
    assert python_rows.chance(rows, child, outcomes, probs) == 2
    assert outcomes[:2].tolist() == [0, 1] and probs[:2].tolist() == [2 / 3, 1 / 3]
    assert python_rows.to_play(rows, child) == CHANCE and python_rows.to_play(rows, parent) == 0
