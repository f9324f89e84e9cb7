"""benchmarks/compare_checkouts.py reads both benchmarks' rows, and bench_selfplay_moves.py stops where asked."""

import numpy as np
import pytest
from checkout_scripts import load_script

import envs
from agents.search.estimators import UniformEstimator
from agents.search.mcts import MCTS, SearchConfig
from agents.training.selfplay import SelfPlayConfig, self_play

compare = load_script("benchmarks/compare_checkouts.py")
moves = load_script("benchmarks/bench_selfplay_moves.py")

ENGINES_OUTPUT = """\
game            via            games/s   decisions/s     turns/s
hex             engine           812.4         35213       35213
                playout        34521.0       1496321     1496321  (playout/engine 42.5x)
                env               95.1          4122  (env/engine 0.12x)
odoku           engine           101.7          6012        6012
"""


def test_engine_rows_are_read_by_game_and_path():
    assert compare.engine_rates(ENGINES_OUTPUT) == {
        ("hex", "engine"): (35213.0, ""),
        ("hex", "playout"): (1496321.0, ""),
        ("hex", "env"): (4122.0, ""),
        ("odoku", "engine"): (6012.0, ""),
    }


def test_selfplay_rows_printed_by_the_benchmark_are_read_back():
    text = "\n".join(
        [moves.header(), moves.row("hop_chess", 256, 2.5, "3eca6764b225"), moves.row("send_it_13", 64, 0.46, "85acde")]
    )
    assert compare.selfplay_rates(text) == {
        ("hop_chess", "selfplay"): (102.4, "3eca6764b225"),
        ("send_it_13", "selfplay"): (139.13, "85acde"),
    }


def test_ratios_are_new_over_old_and_need_the_same_digest():
    old = {("hex", "engine"): (100.0, ""), ("blockdance_8", "selfplay"): (20.0, "abc"), ("y", "env"): (5.0, "")}
    new = {("hex", "engine"): (150.0, ""), ("blockdance_8", "selfplay"): (50.0, "abc")}
    assert compare.round_ratios(old, new) == {("hex", "engine"): 1.5, ("blockdance_8", "selfplay"): 2.5}
    with pytest.raises(SystemExit, match="blockdance_8 selfplay: the checkouts timed different .* abc old, abd new"):
        compare.round_ratios(old, {("blockdance_8", "selfplay"): (50.0, "abd")})


@pytest.mark.parametrize("positions, recorded", [(1, 4), (4, 4), (6, 8), (9, 12)])
def test_self_play_stops_at_the_wave_that_reaches_the_positions(positions, recorded):
    game = envs.make_game("hex", size=3)
    config = SelfPlayConfig(concurrent_games=4)
    search = SearchConfig(num_simulations=4)
    assert moves.first_moves(game, search, UniformEstimator(game), config, 0, positions) == recorded


def test_self_play_past_the_last_position_counts_every_recorded_one():
    game = envs.make_game("hex", size=3)
    config = SelfPlayConfig(concurrent_games=3)
    search = SearchConfig(num_simulations=4)
    batch = self_play(game, MCTS(game, search), UniformEstimator(game), 3, config, np.random.default_rng(5))
    assert moves.first_moves(game, search, UniformEstimator(game), config, 5, 10_000) == batch.num_positions
