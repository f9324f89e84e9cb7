"""PUCT search: exact values through chance nodes, repeated movers, tactics."""

import dataclasses

import numpy as np
import pytest

from agents.evaluation.runner import play_match
from agents.players.registry import make_player
from agents.search.estimators import FunctionEstimator, RolloutEstimator, UniformEstimator
from agents.search.mcts import (
    MCTS,
    SearchConfig,
    SearchResult,
    considered_visits,
    select_action,
    temperature_schedule,
)
from envs import CHANCE, TERMINAL, Game, GameInfo, IllegalActionError, make_game
from envs.games.odoku.game import action_values, optimal_actions, value
from envs.turns import iter_turns


# --- a tiny game with repeated movers and a biased chance node ----------------------------
class ChanceNimState:
    __slots__ = ("pile", "player")

    def __init__(self, pile, player):
        self.pile, self.player = pile, player

    def copy(self):
        return ChanceNimState(self.pile, self.player)


class ChanceNim(Game):
    """Take 1, 2 or 3 from a pile; whoever takes the last one loses.

    Taking 1 flips a biased coin (seat 0 moves next with probability
    ``bias``), taking 2 keeps the move (the same seat moves again), taking 3
    passes it. Values are fractional and need chance weighting and repeated
    movers handled right (``expectimax`` below is the ground truth).
    """

    def __init__(self, pile=7, bias=0.8):
        self.pile, self.bias = pile, bias
        self.info = GameInfo("chancenim", ("first", "second"), 3, (1, 1, 1), 3 * pile, has_chance=True)

    def initial_state(self):
        return ChanceNimState(self.pile, 0)

    def to_play(self, state):
        return TERMINAL if state.pile == 0 else state.player

    def chance_outcomes(self, state):
        return [(0, self.bias), (1, 1 - self.bias)] if self.to_play(state) == CHANCE else []

    def legal_actions(self, state):
        return [a for a in range(3) if a < state.pile] if state.player >= 0 and state.pile else []

    def apply(self, state, action):
        player = self.to_play(state)
        if player == CHANCE:
            state.player = self.check_action(state, action)
            return
        if action not in self.legal_actions(state):
            raise IllegalActionError(f"action {action} is illegal")
        state.pile -= action + 1
        next_player = {0: CHANCE, 1: player, 2: 1 - player}[action]
        state.player = 1 - player if state.pile == 0 else next_player  # the winner, for returns

    def returns(self, state):
        if state.pile:
            return (0.0, 0.0)
        return (1.0, -1.0) if state.player == 0 else (-1.0, 1.0)

    def observe(self, state):
        return np.full((1, 1, 1), state.pile, dtype=np.float32)

    def action_to_text(self, state, action):
        return str(action + 1)

    def parse_turn(self, state, text):
        return [int(text) - 1]

    def render_text(self, state):
        return f"pile {state.pile}, to play {state.player}"


def expectimax(game, state, key=lambda s: (s.pile, s.player), memo=None):
    """Exact value for seat 0 of a small two-seat zero-sum game (memoised by ``key``)."""
    memo = {} if memo is None else memo
    k = key(state)
    if k not in memo:
        player = game.to_play(state)
        if player == TERMINAL:
            memo[k] = game.returns(state)[0]
        elif player == CHANCE:
            memo[k] = sum(p * expectimax(game, game.step(state, o), key, memo) for o, p in game.chance_outcomes(state))
        else:
            values = [expectimax(game, game.step(state, a), key, memo) for a in game.legal_actions(state)]
            memo[k] = max(values) if player == 0 else min(values)
    return memo[k]


def odoku_key(state):
    return (tuple(state.board), state.player)


def exact_estimator(game, key):
    """Expectimax values, priors uniform over the optimal actions."""
    memo = {}

    def evaluate(state):
        player = game.to_play(state)
        action_value = {a: expectimax(game, game.step(state, a), key, memo) for a in game.legal_actions(state)}
        sign = 1.0 if player == 0 else -1.0
        best = max(sign * v for v in action_value.values())
        priors = np.zeros(game.info.num_actions)
        for a, v in action_value.items():
            priors[a] = sign * v >= best - 1e-12
        return priors, (sign * best, -sign * best)

    return FunctionEstimator(game, evaluate)


def odoku_oracle_estimator(game):
    """Odoku's exact values by the random-turn theorem, priors uniform over optimal moves."""

    def evaluate(state):
        values = action_values(state)
        best = optimal_actions(state)
        priors = np.zeros(game.info.num_actions)
        priors[best] = 1.0
        b_return = (values[best[0]] - 7.5) / 7.5
        return priors, (b_return, -b_return)

    return FunctionEstimator(game, evaluate)


def odoku_position(game, moves):
    """Fill the board with ``moves`` (``"Xa1 Ob2 ..."``), every move by B."""
    state = game.initial_state()
    for text in moves.split():
        for action in game.parse_turn(state, "B " + text):
            game.apply(state, action)
    return state


ALMOST_FULL = (
    "Xa1 Oa2 Xa3 Oa4 Xa5 Ob1 Xb2 Ob3 Xb4 Ob5 Xc1 Xc2 Oc3 Xc4 Oc5 "
    "Od1 Xd2 Od3 Xd4 Od5 Xe1 Oe2 Xe3"
)  # 23 stones: e4 and e5 are empty


# --- exact values --------------------------------------------------------------------------
@pytest.mark.parametrize("chance", ["expectation", "sample"])
@pytest.mark.parametrize("pile,player", [(7, 0), (6, 1), (5, CHANCE), (4, CHANCE), (3, 1)])
def test_exact_estimator_gives_exact_value_through_repeated_movers_and_chance(pile, player, chance):
    game = ChanceNim(bias=0.8)
    state = ChanceNimState(pile, player)
    exact = expectimax(game, state)
    mcts = MCTS(game, SearchConfig(num_simulations=1000, chance=chance))
    result = mcts.search(state, exact_estimator(game, key=lambda s: (s.pile, s.player)), np.random.default_rng(0))
    if chance == "expectation":
        np.testing.assert_allclose(result.root_values, [exact, -exact], atol=1e-9)
    else:  # a mean over sampled coins: within 4 standard errors (+-1 outcomes, p = 0.8)
        np.testing.assert_allclose(result.root_values, [exact, -exact], atol=4 * 2 * 0.4 / 1000**0.5)
    if player >= 0:
        best = int(np.argmax(result.visit_counts))
        assert expectimax(game, game.step(state, best)) == pytest.approx(exact)


@pytest.mark.parametrize("mover", [None, 0, 1])
@pytest.mark.parametrize("simulations,outcome_visits", [(1, [1, 1]), (50, [26, 25])])
def test_odoku_oracle_estimator_gives_odoku_value(mover, simulations, outcome_visits):
    """Fair coin, two empty cells: the search's value is odoku.value (the
    random-turn theorem) at a chance root, and the best move's value at a decision root."""
    game = make_game("odoku")
    state = odoku_position(game, ALMOST_FULL)
    expected = value(state)
    if mover is not None:
        game.apply(state, mover)
        expected = (max if mover == 0 else min)(action_values(state).values())
    result = MCTS(game, SearchConfig(num_simulations=simulations)).search(
        state, odoku_oracle_estimator(game), np.random.default_rng(1)
    )
    b_return = (expected - 7.5) / 7.5
    np.testing.assert_allclose(result.root_values, [b_return, -b_return], atol=1e-9)
    if mover is None:
        assert result.to_play == CHANCE
        # both outcomes evaluated by the first simulation, then one visit per simulation
        np.testing.assert_array_equal(result.visit_counts[:2], outcome_visits)
    elif simulations > 1:
        assert int(np.argmax(result.visit_counts)) in optimal_actions(state)


@pytest.mark.parametrize("bias", [0.5, 0.9])
def test_odoku_biased_coin_exact_value(bias):
    """With a biased coin the random-turn theorem fails; the expectimax
    estimator's value must still come back exactly (outcomes weighted by the bias)."""
    game = make_game("odoku", bias=bias)
    state = odoku_position(game, ALMOST_FULL.rsplit(" ", 1)[0])  # three empty cells
    exact = expectimax(game, state, odoku_key)
    result = MCTS(game, SearchConfig(num_simulations=60)).search(
        state, exact_estimator(game, odoku_key), np.random.default_rng(2)
    )
    np.testing.assert_allclose(result.root_values, [exact, -exact], atol=1e-9)
    fair_coin = (value(state) - 7.5) / 7.5
    if bias == 0.5:
        assert exact == pytest.approx(fair_coin)
    else:
        assert abs(exact - fair_coin) > 1e-3


def test_odoku_uniform_estimator_finds_an_optimal_move():
    game = make_game("odoku")
    state = odoku_position(game, ALMOST_FULL)
    game.apply(state, 1)  # A moves
    result = MCTS(game, SearchConfig(num_simulations=200)).search(
        state, UniformEstimator(game), np.random.default_rng(2)
    )
    assert int(np.argmax(result.visit_counts)) in optimal_actions(state)


def test_uniform_estimator_converges_to_expectimax():
    """Values from terminal states alone: the mean backup approaches the exact value."""
    game = ChanceNim(pile=9, bias=0.7)
    state = game.initial_state()
    result = MCTS(game, SearchConfig(num_simulations=3000)).search(
        state, UniformEstimator(game), np.random.default_rng(3)
    )
    exact = expectimax(game, state)
    assert abs(result.root_values[0] - exact) < 0.05
    assert expectimax(game, game.step(state, int(np.argmax(result.visit_counts)))) == pytest.approx(exact)


def test_search_goes_deeper_than_max_decisions_says():
    """``info.max_decisions`` only sizes the first path buffers: a game whose
    paths run longer is searched exactly as one that states its depth."""
    honest, understated = ChanceNim(pile=9, bias=0.7), ChanceNim(pile=9, bias=0.7)
    understated.info = dataclasses.replace(understated.info, max_decisions=0)
    results = [
        MCTS(game, SearchConfig(num_simulations=500, chance=chance)).search(
            game.initial_state(), UniformEstimator(game), np.random.default_rng(3)
        )
        for chance in ("expectation", "sample")
        for game in (honest, understated)
    ]
    for a, b in (results[:2], results[2:]):
        np.testing.assert_array_equal(a.visit_counts, b.visit_counts)
        np.testing.assert_array_equal(a.root_values, b.root_values)


def test_same_seat_moves_twice_picks_the_winning_pair():
    """Pile 6, seat 0: taking 2 keeps the move, then taking 3 leaves the last
    stone to the opponent. A search that flipped signs per ply would score the
    second move for the opponent and miss the pair."""
    game = ChanceNim(pile=6, bias=0.5)
    state = game.initial_state()
    assert expectimax(game, state) == 1.0
    assert expectimax(game, game.step(state, 0)) < 1.0 and expectimax(game, game.step(state, 2)) < 1.0
    result = MCTS(game, SearchConfig(num_simulations=300)).search(
        state, UniformEstimator(game), np.random.default_rng(4)
    )
    assert int(np.argmax(result.visit_counts)) == 1
    assert result.root_values[0] > 0.8
    assert result.q_values[1, 0] > 0.9


# --- batching, noise, results -----------------------------------------------------------------
class CountingEstimator:
    def __init__(self, inner):
        self.inner, self.batches = inner, []

    def estimate(self, states):
        self.batches.append(len(states))
        for state in states:
            assert self.inner.game.to_play(state) >= 0
        return self.inner.estimate(states)


def test_search_many_batches_one_leaf_per_search_and_matches_search():
    game = make_game("odoku")
    rng = np.random.default_rng(5)
    states = [game.initial_state() for _ in range(3)]
    for state in states[1:]:
        game.apply(state, 0)
    estimator = CountingEstimator(UniformEstimator(game))
    mcts = MCTS(game, SearchConfig(num_simulations=20))
    many = mcts.search_many(states, estimator, rng)
    assert len(estimator.batches) == 20
    assert estimator.batches[0] == 2 + 1 + 1  # a chance root expands both outcomes
    single = mcts.search(states[1], UniformEstimator(game), rng)
    np.testing.assert_array_equal(many[1].visit_counts, single.visit_counts)
    assert many[1].visit_counts.sum() == 19


def test_root_noise_changes_priors_only_at_the_root():
    game = make_game("odoku")
    state = game.initial_state()
    game.apply(state, 0)
    mcts = MCTS(game, SearchConfig(num_simulations=2))
    quiet = mcts.search(state, UniformEstimator(game), np.random.default_rng(6))
    noisy = mcts.search(state, UniformEstimator(game), np.random.default_rng(6), add_noise=True)
    np.testing.assert_allclose(quiet.priors[quiet.priors > 0], 1 / 50)
    assert noisy.priors.sum() == pytest.approx(1.0)
    assert noisy.priors.min() >= 0.75 / 50 - 1e-12
    assert np.ptp(noisy.priors) > 0.01


def test_illegal_actions_get_no_prior_and_no_visits():
    game = make_game("odoku")
    state = odoku_position(game, ALMOST_FULL)
    game.apply(state, 0)
    result = MCTS(game, SearchConfig(num_simulations=30)).search(
        state, UniformEstimator(game), np.random.default_rng(7)
    )
    legal = game.legal_mask(state)
    assert result.visit_counts[~legal].sum() == 0 and result.priors[~legal].sum() == 0
    assert result.visit_counts.sum() == 29
    assert np.isnan(result.q_values[~legal]).all()


def test_policy_and_select_action():
    result = SearchResult(
        visit_counts=np.array([0.0, 3.0, 1.0, 3.0]),
        root_values=np.zeros(2),
        q_values=np.zeros((4, 2)),
        priors=np.full(4, 0.25),
        to_play=0,
    )
    np.testing.assert_allclose(result.policy(0.0), [0, 0.5, 0, 0.5])
    np.testing.assert_allclose(result.policy(1.0), [0, 3 / 7, 1 / 7, 3 / 7])
    np.testing.assert_allclose(result.policy(0.5), [0, 9 / 19, 1 / 19, 9 / 19])
    picks = {select_action(result, 0.0, np.random.default_rng(seed)) for seed in range(20)}
    assert picks == {1, 3}
    with pytest.raises(ValueError, match="temperature"):
        result.policy(-1.0)


def test_temperature_schedule():
    assert [temperature_schedule(d, 2) for d in range(4)] == [1.0, 1.0, 0.0, 0.0]
    assert temperature_schedule(0, 1, temperature=0.5) == 0.5


@pytest.mark.parametrize(
    "field,value",
    [
        ("num_simulations", 0),
        ("num_simulations", 2.5),
        ("c_puct", -1.0),
        ("dirichlet_alpha", 0.0),
        ("dirichlet_fraction", 1.5),
        ("chance", "average"),
        ("fpu_reduction", float("nan")),
        ("playout_mix", -0.1),
        ("playout_mix", 1.5),
    ],
)
def test_config_validation_names_the_field(field, value):
    with pytest.raises(ValueError, match=field):
        SearchConfig(**{field: value})


def test_bad_inputs_raise_clear_errors():
    game = make_game("odoku")
    state = odoku_position(game, ALMOST_FULL)
    for text in ("B Xe4", "A Oe5"):
        for action in game.parse_turn(state, text):
            game.apply(state, action)
    mcts = MCTS(game, SearchConfig(num_simulations=4))
    with pytest.raises(ValueError, match="finished game"):
        mcts.search(state, UniformEstimator(game), np.random.default_rng(0))

    class Wrong:
        def estimate(self, states):
            return np.ones((len(states), 3)), np.zeros((len(states), 2))

    with pytest.raises(ValueError, match="estimator returned"):
        mcts.search(game.initial_state(), Wrong(), np.random.default_rng(0))
    with pytest.raises(ValueError, match="num_rollouts"):
        RolloutEstimator(game, np.random.default_rng(0), num_rollouts=0)
    with pytest.raises(ValueError, match="Generator"):
        RolloutEstimator(game, 42)


def test_rollout_estimator_is_seeded_and_unbiased_on_odoku():
    game = make_game("odoku")
    state = odoku_position(game, ALMOST_FULL)
    game.apply(state, 0)
    states = [state] * 400
    first = RolloutEstimator(game, np.random.default_rng(8)).estimate(states)[1]
    again = RolloutEstimator(game, np.random.default_rng(8)).estimate(states)[1]
    np.testing.assert_array_equal(first, again)
    # random play from here: both coin outcomes, both colours equally likely
    finals = [v for v in action_values(state).values()]
    expected = (np.mean(finals) - 7.5) / 7.5
    assert abs(first[:, 0].mean() - expected) < 0.05
    np.testing.assert_allclose(first[:, 0], -first[:, 1])


@pytest.mark.parametrize("name,size", [("nex", 5), ("sudoku_moyo", None), ("odoku", None)])
def test_full_playout_mix_is_a_rollout_search(name, size):
    """playout_mix=1 over uniform priors is the rollout estimator's search, draw for draw."""
    game = make_game(name, **({"size": size} if size else {}))
    state = game.initial_state()
    rng = np.random.default_rng(3)
    while game.to_play(state) == CHANCE:
        game.apply(state, game.sample_chance(state, rng))
    config = SearchConfig(num_simulations=40)
    mixed = MCTS(game, dataclasses.replace(config, playout_mix=1.0)).search(
        state, UniformEstimator(game), np.random.default_rng(5)
    )
    rollout_rng = np.random.default_rng(5)
    rollouts = MCTS(game, config).search(state, RolloutEstimator(game, rollout_rng), rollout_rng)
    np.testing.assert_array_equal(mixed.visit_counts, rollouts.visit_counts)
    np.testing.assert_array_equal(mixed.root_values, rollouts.root_values)


def test_playout_mix_weighs_the_estimator_and_one_playout():
    """One simulation: the root's value is (1 - mix) * the estimator's + mix * the playout's."""
    game = make_game("nex", size=5)
    state = game.initial_state()
    constant = FunctionEstimator(game, lambda s: (np.ones(game.info.num_actions), np.array([0.5, -0.5])))
    playout = np.array(game.random_playout(state, np.random.default_rng(11))[0])
    result = MCTS(game, SearchConfig(num_simulations=1, playout_mix=0.25)).search(
        state, constant, np.random.default_rng(11)
    )
    np.testing.assert_allclose(result.root_values, 0.75 * np.array([0.5, -0.5]) + 0.25 * playout)
    assert abs(playout[0]) == 1  # a decided game, so the mix moved the value


@pytest.mark.parametrize("name,turns", [("hex", ["b2", "a1", "c3"]), ("nex", ["b2 a1", "c3 a2", "a3 c2"])])
def test_rollout_values_are_random_play_on_stone_games(name, turns):
    """Rollouts (the engines' playout kernels) score like random play: the mean
    over many rollouts matches the exact random-play value of a 3x3 position."""
    game = make_game(name, size=3)
    state = game.initial_state()
    for turn in turns:
        for action in game.parse_turn(state, turn):
            game.apply(state, action)

    def random_play_value(node):
        if game.to_play(node) == TERMINAL:
            return game.returns(node)[0]
        actions = game.legal_actions(node)
        return sum(random_play_value(game.step(node, a)) for a in actions) / len(actions)

    exact = random_play_value(state)
    values = RolloutEstimator(game, np.random.default_rng(9)).estimate([state] * 2000)[1]
    assert abs(values[:, 0].mean() - exact) < 4 * values[:, 0].std() / 2000**0.5
    np.testing.assert_array_equal(values[:, 0], -values[:, 1])


# --- tactics in every registered game -----------------------------------------------------------
def play_turn(game, player, state, rng):
    """Let ``player`` finish the turn of the seat to move; return the state after it."""
    state = state.copy()
    mover = game.to_play(state)
    while game.to_play(state) == mover:
        game.apply(state, player.act(state, rng))
    return state


def wins_now(game, state, seat):
    return game.to_play(state) == TERMINAL and game.winner(state) == seat


def can_win_in_one(game, state):
    seat = game.to_play(state)
    return seat >= 0 and any(wins_now(game, end, seat) for _, end in iter_turns(game, state))


def seeded_position(game, seed, wanted, games=200):
    """The first turn start of seeded random games where ``wanted(seat, turn ends)`` holds."""
    rng = np.random.default_rng(seed)
    for _ in range(games):
        state = game.initial_state()
        while game.to_play(state) >= 0:
            ends = [end for _, end in iter_turns(game, state)]
            if wanted(game.to_play(state), ends):
                return state
            state = ends[int(rng.integers(len(ends)))]
    raise AssertionError(f"no such position in {games} random games of {game.info.name}")


def some_win(game, exact=False):
    """At least 2 turns, of which at most half win at once; with ``exact``,
    every other turn is worse by exact solution (no slower forced win)."""

    def wanted(seat, ends):
        wins = sum(wins_now(game, end, seat) for end in ends)
        if not (len(ends) >= 2 and 0 < 2 * wins <= len(ends)):
            return False
        if exact and not few_empty(ends):
            return False
        return not exact or all(solved(game, end, seat) < 1.0 for end in ends if not wins_now(game, end, seat))

    return wanted


def must_block(game, exact=False):
    """No win at once, at least 2 turns, and at most half of them stop the
    opponent's win in one; with ``exact``, some of those does not lose by force."""

    def wanted(seat, ends):
        if len(ends) < 2 or any(wins_now(game, end, seat) for end in ends):
            return False
        safe = [end for end in ends if not can_win_in_one(game, end)]
        if not 0 < 2 * len(safe) <= len(ends) or (exact and not few_empty(ends)):
            return False
        return not exact or max(solved(game, end, seat) for end in safe) > -1.0

    return wanted


def few_empty(ends, most=3):
    """Whether the turn ends leave few empty cells (so solving them is quick)."""
    return sum(colour == 0 for colour in ends[0].board) <= most


def solved(game, state, seat):
    """Exact value of a small stone-game position for ``seat``."""
    value = expectimax(game, state, key=lambda s: s.key())
    return value if seat == 0 else -value


HEX_4 = """
 {a} . v .
  . h v .
   . . v h
    . . h .
"""  # Vertical c1 c2 c3 joins row 1 to row 3; c4 is taken, so b4 is its one way to row 4
GOMOKU_5 = """
x x x x .
o o o . .
. . . . .
. . {c} . .
{a} . . . .
"""  # x needs e1 for five in a row; o's three in a row are no threat

TACTICS = {  # game: (params, win-in-one position, block-a-loss position)
    "hex": ({"size": 4}, (HEX_4.format(a="h"), "v"), (HEX_4.format(a="."), "h")),
    "nex": ({"size": 4}, (HEX_4.format(a="h"), "v"), (HEX_4.format(a="."), "h")),
    "gomoku": ({"size": 5}, (GOMOKU_5.format(a=".", c="o"), "x"), (GOMOKU_5.format(a="x", c="o"), "o")),
    "neumoku": ({"size": 5}, (GOMOKU_5.format(a=".", c="o"), "x"), (GOMOKU_5.format(a="x", c="o"), "o")),
    "reversi": ({"size": 4}, 11, 12),  # positions from seeded random games
    "neuversi": ({"size": 4}, 13, 14),
    "adneuversi": ({"size": 4}, 18, 16),
}


def tactic_position(game, spec, condition):
    if isinstance(spec, int):  # near the end of a small board: solved exactly
        return seeded_position(game, spec, condition(game, exact=True))
    state = game.from_diagram(*spec)
    assert condition(game)(game.to_play(state), [end for _, end in iter_turns(game, state)])
    return state


@pytest.mark.parametrize("name", sorted(TACTICS))
def test_search_wins_in_one(name):
    params, spec, _ = TACTICS[name]
    game = make_game(name, **params)
    state = tactic_position(game, spec, some_win)
    seat = game.to_play(state)
    player = make_player("mcts:300", game)
    for seed in range(3):  # a random player passes all three at most 1 time in 8
        assert wins_now(game, play_turn(game, player, state, np.random.default_rng(seed)), seat)


@pytest.mark.parametrize("name", sorted(TACTICS))
def test_search_blocks_a_loss_in_one(name):
    params, _, spec = TACTICS[name]
    game = make_game(name, **params)
    state = tactic_position(game, spec, must_block)
    player = make_player("mcts:1000", game)
    for seed in range(3):
        assert not can_win_in_one(game, play_turn(game, player, state, np.random.default_rng(seed)))


@pytest.mark.parametrize("spec", ["mcts", "mcts:0", "mcts:-3", "mcts:ten", "mcts:5:6"])
def test_mcts_spec_needs_one_positive_count(spec):
    with pytest.raises(ValueError, match="positive integer"):
        make_player(spec, make_game("hex", size=3))


def test_mcts_player_is_reproducible_from_the_rng_it_is_given():
    game = make_game("nex", size=4)
    state = game.initial_state()
    player = make_player("mcts:40", game)
    moves = [player.act(state, np.random.default_rng(seed)) for seed in (5, 5, 6, 7, 8)]
    assert moves[0] == moves[1]
    assert len(set(moves)) > 1


@pytest.mark.parametrize("bad", [0.0, -1.0, float("nan")])
def test_unusable_priors_fall_back_to_uniform(bad):
    game = make_game("hex", size=3)

    def evaluate(state):
        priors = np.ones(game.info.num_actions)
        priors[0] = bad
        if bad == 0.0:
            priors[:] = 0.0
        return priors, (0.0, 0.0)

    result = MCTS(game, SearchConfig(num_simulations=3)).search(
        game.initial_state(), FunctionEstimator(game, evaluate), np.random.default_rng(0)
    )
    np.testing.assert_allclose(result.priors[:9], 1 / 9)


# --- Gumbel root search -----------------------------------------------------------------------
def test_sequential_halving_schedule():
    assert considered_visits(4, 12) == [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    assert considered_visits(1, 3) == [0, 1, 2]
    assert considered_visits(8, 5) == [0, 0, 0, 0, 0]


def test_gumbel_splits_visits_by_sequential_halving():
    game = make_game("hex", size=3)
    config = SearchConfig(num_simulations=13, gumbel=True, gumbel_actions=4)
    result = MCTS(game, config).search(game.initial_state(), UniformEstimator(game), np.random.default_rng(0))
    assert sorted(result.visit_counts[result.visit_counts > 0]) == [1, 1, 5, 5]
    assert result.visit_counts[result.selected] == 5
    assert result.policy(0.0)[result.selected] == 1.0
    policy = result.improved_policy
    assert policy.sum() == pytest.approx(1.0) and policy[9:].sum() == 0.0


@pytest.mark.parametrize("add_noise", [False, True])
def test_gumbel_finds_the_repeated_move_win_with_a_small_budget(add_noise):
    game = ChanceNim(pile=6, bias=0.5)
    config = SearchConfig(num_simulations=48, gumbel=True)
    result = MCTS(game, config).search(
        game.initial_state(), UniformEstimator(game), np.random.default_rng(3), add_noise=add_noise
    )
    assert result.selected == 1  # take 2, keep the move, then take 3
    assert int(np.argmax(result.improved_policy)) == 1


@pytest.mark.parametrize("add_noise", [False, True])
def test_gumbel_finds_a_forced_win_on_hex(add_noise):
    """Vertical wins at once on b4, or by force with b3 or a4: with 16
    simulations over 9 moves the chosen move keeps the exact value a win."""
    game = make_game("hex", size=4)
    state = game.from_diagram(HEX_4.format(a="h"), "v")
    mcts = MCTS(game, SearchConfig(num_simulations=16, gumbel=True))
    for seed in range(5):
        rng = np.random.default_rng(seed)
        result = mcts.search(state, UniformEstimator(game), rng, add_noise=add_noise)
        assert solved(game, game.step(state, result.selected), 0) == 1.0


@pytest.mark.parametrize("field,value", [("gumbel", "yes"), ("gumbel_actions", 0), ("gumbel_c_visit", -1.0)])
def test_gumbel_config_validation(field, value):
    with pytest.raises(ValueError, match=field):
        SearchConfig(**{field: value})


@pytest.mark.parametrize(
    "name,size,spec,opponent",
    [("hex", 5, "mcts:100", "random"), ("nex", 4, "mcts:100", "random"), ("hex", 5, "mcts:300", "greedy")],
)
def test_mcts_player_beats_weaker_players(name, size, spec, opponent):
    """Six games, three from each seat."""
    game = make_game(name, size=size)
    match = play_match(game, make_player(spec, game), make_player(opponent, game), 6, np.random.default_rng(0))
    assert match.score >= 5 / 6


class HashEstimator:
    """Deterministic priors and values from a fixed projection of each observation,
    computed state by state: the same output for a state in any batch."""

    def __init__(self, game):
        self.game = game
        info = game.info
        size = int(np.prod(info.obs_shape))
        rng = np.random.default_rng(123)
        self.weights, self.value_weights = rng.normal(size=(info.num_actions, size)), rng.normal(size=size)

    def estimate(self, states):
        priors, values = [], []
        for state in states:
            obs = self.game.observe(state).ravel().astype(np.float64)
            logits = np.array([row @ obs for row in self.weights]) / 4.0
            priors.append(np.exp(logits - logits.max()))
            v, mover = np.tanh(float(self.value_weights @ obs) / 8.0), self.game.to_play(state)
            values.append([v if seat == mover else -v for seat in range(self.game.info.num_seats)])
        return np.array(priors), np.array(values)


def search_fields(result):
    return (
        result.visit_counts,
        result.q_values,
        result.priors,
        result.root_values,
        result.to_play,
        result.selected,
        result.improved_policy,
    )


@pytest.mark.parametrize(
    "name, params, config, noise",
    [
        ("odoku", {}, SearchConfig(num_simulations=24, chance="sample", playout_mix=0.5), True),
        ("nex", {"size": 4}, SearchConfig(num_simulations=24, gumbel=True, gumbel_actions=8), True),
        ("nex", {"size": 4}, SearchConfig(num_simulations=24, gumbel=True, gumbel_actions=8), False),
        ("neuversi", {"size": 4}, SearchConfig(num_simulations=24, playout_mix=0.3), True),
    ],
)
def test_search_many_with_a_generator_per_state_equals_each_search_alone(name, params, config, noise):
    """Root noise, Gumbel draws, sampled chance outcomes and playouts of search i come
    from generator i only: each result, and what each generator drew, is the lone search's."""
    game = make_game(name, **params)
    rng = np.random.default_rng(9)
    states = []
    for plies in (0, 1, 3, 5, 2):
        state = game.initial_state()
        for _ in range(plies):
            actions = game.legal_actions(state) if game.to_play(state) >= 0 else [game.sample_chance(state, rng)]
            game.apply(state, actions[int(rng.integers(len(actions)))])
        states.append(state)
    mcts, estimator = MCTS(game, config), HashEstimator(game)
    together_rngs = [np.random.default_rng(100 + i) for i in range(len(states))]
    together = mcts.search_many(states, estimator, together_rngs, add_noise=noise)
    for i, state in enumerate(states):
        alone_rng = np.random.default_rng(100 + i)
        alone = mcts.search(state, estimator, alone_rng, add_noise=noise)
        for mine, theirs in zip(search_fields(together[i]), search_fields(alone)):
            np.testing.assert_array_equal(mine, theirs)
        assert together_rngs[i].random() == alone_rng.random()


def test_search_many_takes_one_generator_or_one_per_state():
    game = make_game("odoku")
    mcts, states = MCTS(game, SearchConfig(num_simulations=4)), [game.initial_state()] * 2
    with pytest.raises(ValueError, match=r"one per state \(2\), got 1 items"):
        mcts.search_many(states, UniformEstimator(game), [np.random.default_rng(0)])
