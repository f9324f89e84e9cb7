"""Duplicate matches: both games of a pair start from the same chance setup, seats swapped."""

import pytest
from hydra import compose, initialize_config_dir

from agents.config import ConfigError
from agents.evaluation.modes import evaluate
from agents.evaluation.runner import play_games
from agents.evaluation.tournament import round_robin
from agents.evaluation.zoo_cards import CONFIGS
from envs.core import CHANCE, make_game


def chance_outcomes(game, actions):
    """The chance outcomes of a game given as its actions, in order."""
    state, outcomes = game.initial_state(), []
    for action in actions:
        if game.to_play(state) == CHANCE:
            outcomes.append(action)
        game.apply(state, action)
    return outcomes


def test_each_sudoku_moyo_puzzle_is_played_twice_with_the_seats_swapped():
    game = make_game("sudoku_moyo")
    tournament = round_robin({"name": "sudoku_moyo"}, ["random", "greedy"], 8, seed=5, duplicate=True)
    puzzles = [chance_outcomes(game, r.actions) for r in tournament.results]
    assert all(len(p) == 1 for p in puzzles)  # the puzzle is the only chance outcome
    for k in range(0, 8, 2):
        assert puzzles[k] == puzzles[k + 1]
        assert tournament.schedule[k] == tournament.schedule[k + 1][::-1]
    assert len({p[0] for p in puzzles}) == 4  # four different puzzles
    plain = round_robin({"name": "sudoku_moyo"}, ["random", "greedy"], 8, seed=5)
    assert len({chance_outcomes(game, r.actions)[0] for r in plain.results}) == 8  # without: one puzzle a game


def test_odoku_pairs_share_every_coin_and_the_opening():
    game = make_game("odoku")
    lineups = [("random", "greedy"), ("greedy", "random")] * 3
    results = play_games({"name": "odoku"}, lineups, seed=2, duplicate=True, opening=2)
    coins = [chance_outcomes(game, r.actions) for r in results]
    for k in range(0, 6, 2):
        assert len(coins[k]) == 25 and coins[k] == coins[k + 1]
        assert results[k].actions[:4] == results[k + 1].actions[:4]  # coin, opening turn, coin, opening turn
    assert coins[0] != coins[2] and coins[2] != coins[4]
    same_workers = play_games({"name": "odoku"}, lineups, seed=2, workers=2, duplicate=True, opening=2)
    assert same_workers == results


def test_duplicate_needs_seat_swapped_pairs():
    with pytest.raises(ValueError, match=r"seat-swapped pairs.*games 1\.\. are \[\['random', 'greedy'\], \['random'"):
        play_games({"name": "odoku"}, [("random", "greedy"), ("random", "greedy")], seed=0, duplicate=True)
    with pytest.raises(ValueError, match="games per pair must be even, got 3"):
        round_robin({"name": "odoku"}, ["random", "greedy"], 3, seed=0, duplicate=True)


def test_evaluate_plays_duplicate_matches_and_refuses_them_elsewhere(tmp_path):
    def config(*overrides):
        with initialize_config_dir(config_dir=str(CONFIGS), version_base="1.3"):
            return compose("evaluate", overrides=["game=sudoku_moyo", "progress=false", *overrides])

    document = evaluate(config("players=[greedy,random]", "games=4", "duplicate=true"), tmp_path / "m")
    puzzles = [r["file"] for r in document["games"]]
    assert len(puzzles) == 4 and document["config"]["duplicate"] is True
    texts = [(tmp_path / "m" / name).read_text() for name in puzzles]
    drawn = [next(line for line in text.splitlines() if line.startswith("puzzle=")).split()[0] for text in texts]
    assert drawn[0] == drawn[1] != drawn[2] == drawn[3]  # the records' first turns: "puzzle=N cell=digit"
    with pytest.raises(ConfigError, match="games must be even, got 3"):
        evaluate(config("players=[greedy,random]", "games=3", "duplicate=true"), tmp_path / "odd")
    with pytest.raises(ConfigError, match="duplicate=true plays in mode=match, not mode=stats"):
        evaluate(config("mode=stats", "players=[greedy]", "duplicate=true"), tmp_path / "stats")
