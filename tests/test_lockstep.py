"""Evaluation games in lockstep (``batch_games``): each game equals the same game played
alone, players decide for many positions at once, results do not depend on workers."""

import importlib
import inspect
import pkgutil
import re

import numpy as np
import pytest
import torch
from test_checkpoint import write_checkpoint
from test_search import HashEstimator

import agents.evaluation.runner as runner
import agents.players
from agents.evaluation.runner import play_batches, play_game, play_games, play_lockstep
from agents.players.mcts_player import SearchPlayer
from agents.players.player import CallablePlayer, Player
from agents.players.registry import make_player
from agents.pool import WorkerPool
from agents.search.mcts import SearchConfig
from envs import make_game
from envs.records import split_turns

torch.set_num_threads(1)  # as evaluate.py's default torch_threads


def hash_searcher(game, **config):
    """A searching player whose estimator gives a state the same output in any batch."""
    return SearchPlayer(game, HashEstimator(game), SearchConfig(**config))


class CountingSearcher(SearchPlayer):
    """Records how many positions every call decided."""

    def __init__(self, game, **config):
        super().__init__(game, HashEstimator(game), SearchConfig(**config))
        self.calls = []

    def act(self, state, rng):
        self.calls.append(1)
        return super().act(state, rng)

    def act_many(self, states, rngs):
        self.calls.append(len(states))
        return super().act_many(states, rngs)


@pytest.mark.parametrize(
    "name, params, config",
    [
        ("odoku", {}, {"num_simulations": 12, "chance": "sample", "playout_mix": 0.5}),
        ("nex", {"size": 4, "pie_rule": True}, {"num_simulations": 12, "gumbel": True, "gumbel_actions": 4}),
        ("neuversi", {"size": 4}, {"num_simulations": 8}),
    ],
)
def test_games_in_lockstep_equal_the_games_played_one_at_a_time(name, params, config):
    game = make_game(name, **params)
    searcher, other = CountingSearcher(game, **config), hash_searcher(game, num_simulations=6)
    lineups = [
        [searcher, other],
        [other, searcher],
        [searcher, searcher],
        [make_player("random", game), searcher],
        [other, make_player("mcts:5", game)],
    ]
    together = play_lockstep(game, lineups, [np.random.default_rng(40 + k) for k in range(len(lineups))])
    calls, searcher.calls = searcher.calls, []
    alone = [play_game(game, lineup, np.random.default_rng(40 + k)) for k, lineup in enumerate(lineups)]
    assert together == alone
    assert max(calls) >= 2 and sum(calls) == len(searcher.calls)  # several games decided at once
    assert all(result.num_decisions > 0 for result in together)


def test_act_many_of_one_position_is_act_for_every_kind_of_player(tmp_path):
    game = make_game("nex", size=3)
    path = tmp_path / "ckpt_step0000002.pt"
    write_checkpoint(path, game)
    state = game.initial_state()
    game.apply(state, 4)
    for spec in (f"az:{path}", f"az:{path}:0", "mcts:20", "random", "greedy", "solver"):
        player = make_player(spec, game)
        many = player.act_many([state], [np.random.default_rng(3)])
        assert many == [player.act(state, np.random.default_rng(3))], spec


def test_a_searcher_decides_many_positions_as_it_decides_each():
    game = make_game("odoku")
    player, rng = hash_searcher(game, num_simulations=16, chance="sample"), np.random.default_rng(0)
    states = []
    for plies in range(0, 12, 2):
        state = game.initial_state()
        for _ in range(plies):
            game.apply(
                state, game.legal_actions(state)[0] if game.to_play(state) >= 0 else game.sample_chance(state, rng)
            )
        if game.to_play(state) >= 0:
            states.append(state)
    rngs = [np.random.default_rng(k) for k in range(len(states))]
    assert player.act_many(states, rngs) == [player.act(s, np.random.default_rng(k)) for k, s in enumerate(states)]


def test_a_random_opening_varies_the_games_of_deterministic_players():
    game = make_game("neumoku", size=9)  # the pie rule is offered after three turns
    first = CallablePlayer(lambda state, rng: game.legal_actions(state)[0], "first legal")
    lineups = [[first, first]] * 6
    plain = play_lockstep(game, lineups, [np.random.default_rng(k) for k in range(6)])
    assert len({result.actions for result in plain}) == 1
    opened = play_lockstep(game, lineups, [np.random.default_rng(k) for k in range(6)], opening=2)
    assert len({result.actions for result in opened}) == 6
    assert opened == [play_game(game, lineup, np.random.default_rng(k), opening=2) for k, lineup in enumerate(lineups)]
    for result in opened:  # two whole random turns, then only the players' choices
        turns = split_turns(game, result.actions)
        state = game.initial_state()
        for action in [a for turn in turns[:2] for a in turn]:
            game.apply(state, action)
        assert len(turns[0]) == len(turns[1]) == 2  # drops: a stone and a neutral each
        for action in [a for turn in turns[2:] for a in turn]:
            assert action == game.legal_actions(state)[0]
            game.apply(state, action)
        assert result.num_decisions == len(result.actions)


def test_players_that_keep_state_play_their_games_alone():
    game = make_game("nex", size=4)

    class Planner(CallablePlayer):
        keeps_state = True

        def act_many(self, states, rngs):
            raise AssertionError("a player that keeps state was asked for several games at once")

    first = lambda state, rng: game.legal_actions(state)[int(rng.integers(2))]  # noqa: E731
    planner, searcher = Planner(first, "planner"), hash_searcher(game, num_simulations=4)
    lineups = [[planner, searcher], [searcher, planner], [searcher, searcher]]
    together = play_lockstep(game, lineups, [np.random.default_rng(k) for k in range(3)])
    assert together == [play_game(game, lineup, np.random.default_rng(k)) for k, lineup in enumerate(lineups)]


def test_every_player_that_resets_something_declares_that_it_keeps_state():
    """A player with its own ``reset`` remembers something between moves: the runner
    must not share it between games in flight, so it must say ``keeps_state``."""
    kinds = []
    for module in pkgutil.iter_modules(agents.players.__path__):
        loaded = importlib.import_module(f"agents.players.{module.name}")
        kinds += [
            c for _, c in inspect.getmembers(loaded, inspect.isclass) if issubclass(c, Player) and c is not Player
        ]
    assert {"GreedyPlayer", "HumanPlayer", "SearchPlayer", "NetworkPlayer"} <= {c.__name__ for c in kinds}
    for kind in kinds:
        assert kind.keeps_state == (kind.reset is not Player.reset), kind.__name__


SPECS = ["random", "greedy", "mcts:6"]


def test_batch_games_changes_nothing_but_speed_for_players_without_a_network():
    lineups = [(a, b) for a in SPECS for b in SPECS] * 2
    config = {"name": "nex", "size": 4, "pie_rule": True}
    one = play_games(config, lineups, seed=3)
    opened = play_games(config, lineups, seed=3, opening=1)
    assert opened != one and play_games(config, lineups, seed=3, batch_games=5, workers=2, opening=1) == opened
    assert play_games(config, lineups, seed=3, batch_games=5) == one
    assert play_games(config, lineups, seed=3, batch_games=len(lineups) + 3) == one
    assert play_games(config, lineups, seed=4, batch_games=5) != one


def test_az_results_do_not_depend_on_workers_and_progress_counts_games(tmp_path, capsys):
    game = make_game("nex", size=4)
    path = tmp_path / "ckpt_step0000002.pt"
    write_checkpoint(path, game)
    az, raw = f"az:{path}:4", f"az:{path}:0"
    batches = [[(az, "mcts:4"), ("mcts:4", az)] * 3, [(az, raw), (raw, az), (raw, "random")] * 2]
    config = {"name": "nex", "size": 4}
    here = play_batches(config, batches, seed=1, workers=1, batch_games=4, progress=True)
    assert re.search(r"games: 100%.*\b12/12\b", capsys.readouterr().err)
    assert play_batches(config, batches, seed=1, workers=2, batch_games=4) == here
    assert [len(results) for results in here] == [6, 6]


def test_the_groups_of_games_are_the_same_for_any_number_of_workers(monkeypatch):
    groups = {}  # processes asked for -> the groups' (lineup, seed) pairs

    class InProcessPool(WorkerPool):
        def __init__(self, workers, setup, *setup_args):
            super().__init__(0, setup, *setup_args)
            self.asked = workers

        def map(self, task, jobs, progress="", count=None, each=None):
            groups[self.asked] = [[(lineup, seed.spawn_key) for lineup, seed, _ in group] for group in jobs]
            return super().map(task, jobs, progress, count, each)

    monkeypatch.setattr(runner, "WorkerPool", InProcessPool)
    batches = [[("random", "mcts:2")] * 7, [("mcts:2", "random")] * 3]
    results = {
        workers: play_batches({"name": "nex", "size": 3}, batches, 0, workers, batch_games=4) for workers in (1, 3)
    }
    assert results[1] == results[3] and set(groups) == {0, 3}
    assert groups[0] == groups[3]
    assert [len(group) for group in groups[3]] == [4, 4, 2]
    # groups run across batches; each batch's game k keeps child k of SeedSequence(seed)
    assert groups[3][1][2:] == [(("random", "mcts:2"), (6,)), (("mcts:2", "random"), (0,))]


def test_batch_games_must_be_a_positive_integer():
    for bad in (0, -2, 1.5, True, "4"):
        with pytest.raises(ValueError, match=r"batch_games must be an integer >= 1, got"):
            play_games({"name": "odoku"}, [("random", "random")], seed=0, batch_games=bad)
