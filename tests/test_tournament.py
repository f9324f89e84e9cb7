"""The match runner: schedules, seeding independent of workers, tallies, records, intervals."""

import numpy as np
import pytest

from agents.config import game_from_config
from agents.evaluation.intervals import mean_interval, score_interval
from agents.evaluation.runner import GameResult, play_games
from agents.evaluation.tournament import Tournament, round_robin, round_robin_schedule
from envs.records import game_record, replay_record


def test_round_robin_schedule_swaps_seats_within_every_pair():
    schedule = round_robin_schedule(3, 4)
    assert len(schedule) == 3 * 4
    for pair in [(0, 1), (0, 2), (1, 2)]:
        games = [s for s in schedule if sorted(s) == list(pair)]
        assert games.count(pair) == games.count(pair[::-1]) == 2
    assert round_robin_schedule(2, 3) == [(0, 1), (1, 0), (0, 1)]
    with pytest.raises(ValueError, match="at least 2 players"):
        round_robin_schedule(1, 2)
    with pytest.raises(ValueError, match="games per pair"):
        round_robin_schedule(2, 0)


def test_results_do_not_depend_on_the_number_of_workers():
    lineups = [("random", "oracle"), ("oracle", "random"), ("random", "random")] * 3
    one = play_games({"name": "odoku"}, lineups, seed=9, workers=1)
    two = play_games({"name": "odoku"}, lineups, seed=9, workers=2)
    assert one == two
    assert len({r.actions for r in one}) == len(lineups)  # every game has its own stream
    assert play_games({"name": "odoku"}, lineups[:2], seed=10) != one[:2]


def fake(winner):
    returns = (0.0, 0.0) if winner is None else tuple(1.0 if s == winner else -1.0 for s in (0, 1))
    return GameResult(returns=returns, winner=winner, actions=(), num_decisions=0, num_turns=0)


def test_tallies_count_each_game_from_the_right_players_side():
    tournament = Tournament(
        players=("a", "b", "c"),
        schedule=((0, 1), (1, 0), (0, 1), (2, 0), (1, 2)),
        results=(fake(0), fake(0), fake(None), fake(1), fake(1)),
    )
    pairs = {(p.i, p.j): (p.wins, p.draws, p.losses) for p in tournament.pairs()}
    assert pairs == {(0, 1): (1, 1, 1), (0, 2): (1, 0, 0), (1, 2): (0, 0, 1)}
    totals = [(p.wins, p.draws, p.losses) for p in tournament.totals()]
    assert totals == [(2, 1, 1), (1, 1, 2), (1, 0, 1)]
    assert tournament.pairs()[0].score == pytest.approx(0.5)
    # by seat: a (0, 1): win, draw; b (1, 0) in seat 0: win; (2, 0): c's seat 0 loss; (1, 2): b's seat 0 loss
    seats = {(seat, p.i): (p.wins, p.draws, p.losses) for seat, p in tournament.seats()}
    assert seats == {
        (0, 0): (1, 1, 0),
        (0, 1): (1, 0, 1),
        (0, 2): (0, 0, 1),
        (1, 0): (1, 0, 1),
        (1, 1): (0, 1, 1),
        (1, 2): (1, 0, 0),
    }


def test_records_replay_to_the_same_results():
    for config, specs in [
        ({"name": "nex", "size": 3}, ["random", "greedy"]),
        ({"name": "odoku"}, ["random", "oracle"]),
    ]:
        game = game_from_config(config)
        tournament = round_robin(config, specs, 4, seed=1)
        for seats, result in zip(tournament.schedule, tournament.results):
            text = game_record(game, result.actions, [specs[p] for p in seats])
            assert f"# seat 0: {specs[seats[0]]}" in text and "# result: " in text
            replayed, state = replay_record(text)
            assert replayed.info == game.info
            assert replayed.is_terminal(state) and replayed.returns(state) == result.returns


def test_intervals():
    assert score_interval(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)  # Wilson, z = 1.96
    assert score_interval(0, 20)[0] == 0.0 and score_interval(20, 20)[1] == 1.0
    assert score_interval(10.5, 20)[0] < 10.5 / 20 < score_interval(10.5, 20)[1]
    mean, half = mean_interval([1.0, 3.0] * 50)
    assert mean == 2.0 and half == pytest.approx(1.96 * np.std([1.0, 3.0] * 50, ddof=1) / 10, rel=1e-3)
    with pytest.raises(ValueError, match="no values"):
        mean_interval([])


def test_bad_configs_and_players():
    with pytest.raises(ValueError, match="'name'"):
        game_from_config({"size": 3})
    with pytest.raises(ValueError, match="distinct"):
        round_robin({"name": "odoku"}, ["random", "random"], 2, seed=0)
    with pytest.raises(ValueError, match="workers"):
        play_games({"name": "odoku"}, [("random", "random")], seed=0, workers=0)
