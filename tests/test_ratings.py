import numpy as np
import pytest

from agents.evaluation.ratings import ELO, Z95, RatingError, expected_score, fit_ratings

NAMES = ["a", "random", "b", "c"]
TRUE = np.array([150.0, 0.0, 400.0, -200.0])


def synthetic(rng, true, games_per_pair):
    k = len(true)
    games, points = np.zeros((k, k)), np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1, k):
            wins = rng.binomial(games_per_pair, expected_score(true[i], true[j]))
            games[i, j] = games[j, i] = games_per_pair
            points[i, j], points[j, i] = wins, games_per_pair - wins
    return games, points


def test_known_strengths_are_recovered_within_their_intervals():
    rng = np.random.default_rng(7)
    inside, total = 0, 0
    for _ in range(200):
        ratings = fit_ratings(NAMES, *synthetic(rng, TRUE, 300))
        assert ratings.anchor == "random" and ratings.rating[1] == 0.0 and ratings.ci[1] == 0.0
        others = [0, 2, 3]
        inside += int(np.sum(np.abs(ratings.rating[others] - TRUE[others]) <= ratings.ci[others]))
        total += len(others)
    assert 0.91 <= inside / total <= 0.99  # nominal 95% coverage


def test_large_sample_is_close_to_the_truth():
    ratings = fit_ratings(NAMES, *synthetic(np.random.default_rng(3), TRUE, 20000))
    np.testing.assert_allclose(ratings.rating, TRUE, atol=12.0)
    assert np.all(ratings.ci[[0, 2, 3]] < 12.0)


def test_two_players_match_the_closed_form():
    games = np.array([[0, 100], [100, 0]])
    points = np.array([[0, 70], [30, 0]])  # 60 wins, 20 draws (10 + 10 points), 20 losses
    ratings = fit_ratings(["random", "x"], games, points, prior_draws=0)
    p = 0.3
    assert ratings.rating[0] == 0.0
    assert ratings.rating[1] == pytest.approx(400 * np.log10(p / (1 - p)))
    assert ratings.ci[1] == pytest.approx(Z95 * ELO / np.sqrt(100 * p * (1 - p)))


def test_anchor_is_the_first_player_without_random_and_can_be_chosen():
    games = np.array([[0, 10], [10, 0]])
    points = np.array([[0, 8], [2, 0]])
    first = fit_ratings(["x", "y"], games, points)
    assert first.anchor == "x" and first.rating[0] == 0.0 and first.rating[1] < 0
    chosen = fit_ratings(["x", "y"], games, points, anchor="y")
    assert chosen.rating[1] == 0.0 and chosen.rating[0] == pytest.approx(-first.rating[1])


def test_all_draws_give_equal_ratings():
    games = np.array([[0, 40], [40, 0]])
    ratings = fit_ratings(["random", "x"], games, games / 2)
    assert ratings.rating[1] == pytest.approx(0.0, abs=1e-9)


def test_a_clean_sweep_is_finite_with_the_prior_and_an_error_without():
    games = np.array([[0, 50], [50, 0]])
    points = np.array([[0, 0], [50, 0]])
    ratings = fit_ratings(["random", "x"], games, points)
    # one virtual draw: 50.5 points of 51 games
    assert ratings.rating[1] == pytest.approx(400 * np.log10(50.5 / 0.5))
    with pytest.raises(RatingError, match="converge"):
        fit_ratings(["random", "x"], games, points, prior_draws=0)


def test_players_without_games_to_the_anchor_are_rejected():
    games = np.zeros((3, 3))
    games[1, 2] = games[2, 1] = 4
    points = games / 2
    with pytest.raises(RatingError, match="no chain of games"):
        fit_ratings(["random", "x", "y"], games, points)


@pytest.mark.parametrize(
    "games, points, message",
    [
        (np.zeros((3, 3)), np.zeros((3, 3)), "2x2"),
        (np.array([[0, 2], [1, 0]]), np.array([[0, 1], [1, 0]]), "symmetric"),
        (np.array([[0, 2], [2, 0]]), np.array([[0, 2], [1, 0]]), "must equal"),
        (np.array([[0, 2], [2, 0]]), np.array([[0, -1], [3, 0]]), "non-negative"),
    ],
)
def test_bad_tables_are_rejected(games, points, message):
    with pytest.raises(RatingError, match=message):
        fit_ratings(["random", "x"], games, points)


def test_unknown_anchor_and_duplicate_names_are_rejected():
    games = np.array([[0, 2], [2, 0]])
    with pytest.raises(RatingError, match="anchor"):
        fit_ratings(["x", "y"], games, games / 2, anchor="z")
    with pytest.raises(RatingError, match="distinct"):
        fit_ratings(["x", "x"], games, games / 2)
