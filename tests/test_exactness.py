"""Exactness on tiny boards: the principal lines against an independent reading, and players judged on them."""

import numpy as np
import pytest
from test_checkpoint import write_checkpoint
from test_solver import exhaustive

from agents.evaluation.exactness import judge_lines
from agents.players.player import CallablePlayer
from agents.players.registry import make_player
from agents.search.solver import Solver, SolverLimitError
from envs import make_game
from envs.records import format_game
from envs.turns import iter_turns


def read_lines(game, start):
    """The decision positions reached by every value-keeping complete turn and every chance outcome
    (plain minimax, no solver)."""
    memo, found, frontier = {}, set(), [start]
    while frontier:
        state = frontier.pop()
        if game.is_terminal(state) or state.key() in found:
            continue
        if game.is_chance(state):
            frontier += [game.step(state, o) for o, p in game.chance_outcomes(state) if p > 0]
            continue
        found.add(state.key())
        target = exhaustive(game, state, memo)
        frontier += [end for _, end in iter_turns(game, state) if abs(exhaustive(game, end, memo) - target) < 1e-9]
    return found


def play_turns(game, rng, turns):
    """The position after ``turns`` random complete turns (chance outcomes drawn on the way)."""
    state = game.initial_state()
    while turns and not game.is_terminal(state):
        if game.is_chance(state):
            game.apply(state, game.sample_chance(state, rng))
            continue
        options = list(iter_turns(game, state))
        state = options[int(rng.integers(len(options)))][1]
        turns -= 1
    return state


def test_hex_2x2_lines_are_the_hand_reading():
    # b1 and a2 win (they touch both rows' cells); after either, all three replies lose, and
    # Vertical's win follows: 1 + 2 + 6 positions
    game = make_game("hex", size=2)
    lines = [" ".join(format_game(game, path)) for path, _ in Solver(game).principal_positions()]
    assert lines == ["", "b1", "a2", "b1 a1", "b1 a2", "b1 b2", "a2 a1", "a2 b1", "a2 b2"]


@pytest.mark.parametrize("name, size, turns", [("hex", 3, 0), ("nex", 3, 2), ("odoku", 5, 21)])
def test_lines_agree_with_plain_minimax_over_complete_turns(name, size, turns):
    # the whole Hex 3x3 game; a Nex ending (two-step turns); an Odoku ending from its coin (chance)
    game = make_game(name, size=size)
    start = play_turns(game, np.random.default_rng(3), turns)
    assert game.is_chance(start) == (name == "odoku")
    positions = Solver(game).principal_positions(start)
    keys = [state.key() for _, state in positions]
    assert len(keys) == len(set(keys)) > 3
    assert set(keys) == read_lines(game, start)
    for path, state in positions:  # each path leads to its position
        replayed = start.copy()
        for action in path:
            game.apply(replayed, action)
        assert replayed.key() == state.key()


def test_the_solver_is_exact_on_the_lines_and_a_wrong_player_is_caught():
    game = make_game("hex", size=3)
    solver = Solver(game)
    positions = solver.principal_positions()
    exact = judge_lines(solver, positions, make_player("solver", game), seed=0)
    assert exact.optimal == exact.positions == len(positions) and exact.misses == []
    assert 0 < exact.lost < exact.positions  # the second seat's positions are lost: every turn optimal
    assert sum(n for _, n in exact.seats.values()) == exact.positions

    first_legal = CallablePlayer(lambda state, rng: game.legal_actions(state)[0], "first legal")
    wrong = judge_lines(solver, positions, first_legal, seed=0)
    assert wrong.positions == exact.positions and wrong.lost == exact.lost
    assert wrong.optimal < wrong.positions and len(wrong.misses) == wrong.positions - wrong.optimal
    assert wrong.misses[0] == {"line": [], "seat": 0, "played": "a1", "optimal": ["c1", "a2", "b2", "c2", "a3"]}
    assert wrong.as_dict()["contested_positions"] == exact.positions - exact.lost


def test_random_is_judged_reproducibly_and_a_checkpoint_plays_whole_turns(tmp_path):
    game = make_game("nex", size=3)
    solver = Solver(game)
    start = play_turns(game, np.random.default_rng(3), 2)
    positions = solver.principal_positions(start)
    random = [judge_lines(solver, positions, make_player("random", game), s, start).as_dict() for s in (0, 0, 1)]
    assert random[0] == random[1] and random[0]["optimal"] < random[0]["positions"]
    assert random[0]["misses"] != random[2]["misses"]
    path = tmp_path / "ckpt_step0000002.pt"
    write_checkpoint(path, game)
    for spec, seeds in ((f"az:{path}", (0, 0)), (f"az:{path}:0", (0, 1))):  # the search breaks ties by the seed
        judged = [judge_lines(solver, positions, make_player(spec, game), s, start) for s in seeds]
        assert judged[0] == judged[1] and judged[0].positions == len(positions)
        assert all(miss["played"] not in miss["optimal"] for miss in judged[0].misses)


def test_the_node_budget_names_max_nodes():
    game = make_game("hex", size=3)
    with pytest.raises(SolverLimitError, match="max_nodes"):
        Solver(game, max_nodes=200).principal_positions()


class BatchCounter(CallablePlayer):
    """The first legal action, recording how many positions each ``act_many`` call got."""

    def __init__(self, game, keeps_state=False):
        super().__init__(lambda state, rng: game.legal_actions(state)[0], "first legal")
        self.keeps_state, self.calls = keeps_state, []

    def act_many(self, states, rngs):
        self.calls.append(len(states))
        return super().act_many(states, rngs)


def test_batched_positions_get_the_same_verdicts():
    """``batch`` positions choose their turns together; players that draw per position
    (random, plain MCTS) judge identically, and a player that keeps state plays alone."""
    game = make_game("nex", size=3)
    solver = Solver(game)
    start = play_turns(game, np.random.default_rng(3), 2)
    positions = solver.principal_positions(start)
    for spec in ("random", "mcts:8"):
        single = judge_lines(solver, positions, make_player(spec, game), 5, start)
        assert judge_lines(solver, positions, make_player(spec, game), 5, start, batch=7) == single
    counter = BatchCounter(game)
    batched = judge_lines(solver, positions, counter, 0, start, batch=4)
    contested = batched.positions - batched.lost
    assert max(counter.calls) == 4 and sum(counter.calls) >= contested  # drops take two calls
    alone = BatchCounter(game, keeps_state=True)
    assert judge_lines(solver, positions, alone, 0, start, batch=4) == batched and set(alone.calls) == {1}
