"""The sequential test (agents/evaluation/sprt.py): its error rates over many simulated matches,
its statistic, its settings refused by name, and a real sequential match through evaluate.py
that stops, resumes and reaches the verdict of one run straight through."""

import io
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from ctrl_c import stop_after
from hydra import compose, initialize_config_dir

from agents.config import ConfigError
from agents.evaluation.figure_records import evaluation_records
from agents.evaluation.journal import JOURNAL
from agents.evaluation.modes import evaluate
from agents.evaluation.runner import play_games
from agents.evaluation.sprt import PAIR_SCORES, SPRT, constrained_mle, pair_probabilities, simulate

ROOT = Path(__file__).resolve().parents[1]
CARD_TEST = SPRT(low=0.85, high=0.95, alpha=0.05, beta=0.05, cap=200)
RUNS = 4000  # simulated matches per true score


@pytest.mark.parametrize(
    "score, draws, seat_edge",
    [(0.80, 0, 0), (0.85, 0, 0), (0.90, 0, 0), (0.95, 0, 0), (0.97, 0, 0), (0.85, 0.2, 0.04), (0.95, 0.06, 0.02)],
)
def test_simulated_error_rates_stay_within_alpha_and_beta(score, draws, seat_edge):
    """The candidate wins, draws and loses each game with fixed chances (its score ``score``),
    seat 0 favoured by ``seat_edge`` wins. At or below ``low`` the test may accept "at least
    high" at most alpha of the time, at or above ``high`` accept "at most low" at most beta of
    the time; between them it may go either way. The tolerance: three standard errors of an
    error rate of alpha over RUNS matches (0.0103), which a test with the stated rates exceeds
    by chance about once in 700 seeds."""
    probabilities = pair_probabilities(score - draws / 2, draws, seat_edge)
    assert math.isclose(float(np.dot(probabilities, PAIR_SCORES)), score)
    accepted, games = simulate(CARD_TEST, probabilities, RUNS, np.random.default_rng(65))
    tolerance = 3 * math.sqrt(0.05 * 0.95 / RUNS)
    print(
        f"score {score}, draws {draws}, seat edge {seat_edge}: 'at least 0.95' accepted {accepted.mean():.4f}, "
        f"mean games {games.mean():.1f}, cap reached {np.mean(games == CARD_TEST.cap):.4f}"
    )
    if score <= CARD_TEST.low:
        assert accepted.mean() <= CARD_TEST.alpha + tolerance
    if score >= CARD_TEST.high:
        assert 1 - accepted.mean() <= CARD_TEST.beta + tolerance
    if score in (0.80, 0.97):  # far outside the bounds, it stops well before the cap of a fixed match
        assert games.mean() < 70 and games.max() <= CARD_TEST.cap


def test_the_constrained_maximum_has_the_mean_and_beats_other_distributions_of_that_mean():
    rng = np.random.default_rng(3)
    for _ in range(50):
        counts = rng.integers(0, 30, size=5) + 1e-3
        mean = rng.uniform(0.05, 0.95)
        best = constrained_mle(counts, mean)
        assert math.isclose(float(best.sum()), 1) and math.isclose(float(best @ PAIR_SCORES), mean, abs_tol=1e-9)
        for _ in range(20):  # move mass along a direction that keeps the sum and the mean
            direction = rng.normal(size=5)
            basis = np.stack([np.ones(5), PAIR_SCORES])
            direction -= basis.T @ np.linalg.lstsq(basis.T, direction, rcond=None)[0]
            other = best + 1e-3 * direction / np.abs(direction).max()
            if (other > 0).all():
                assert counts @ np.log(other) < counts @ np.log(best)


def test_a_clean_sweep_decides_after_the_fewest_games_and_the_cap_decides_by_the_nearer_bound():
    test = SPRT(0.3, 0.7, 0.05, 0.05, cap=20)
    fewest = test.fewest_games()
    assert fewest == 8  # log(0.7 / 0.3) = 0.847 a clean pair, log(19) = 2.94 to reach: 4 pairs
    sweep = test.decide([2.0] * 10)
    assert (sweep.decision, sweep.stopped, sweep.games, sweep.counts) == ("high", "bound", 8, (0, 0, 0, 0, 4))
    assert test.decide([0.0] * 10).decision == "low"
    assert test.decide([2.0] * 3).decision is None  # three pairs: not yet
    # alternate clean wins and losses: the LLR stays at 0 or one pair's step from it, to the cap
    even = test.decide([2.0, 0.0] * 10)
    assert (even.stopped, even.games) == ("cap", 20) and even.decision == ("high" if even.llr > 0 else "low")
    one_more_win = test.decide([2.0, 0.0] * 4 + [2.0, 1.5])
    assert one_more_win.stopped == "cap" and one_more_win.llr > 0 and one_more_win.decision == "high"
    assert "the cap decided" in one_more_win.sentence()
    # a row's LLR is its own whatever rows share the call, counts too large to pack into one key too
    rows = np.array([[1, 2, 3, 4, 5], [0, 0, 0, 0, 10**5], [1, 2, 3, 4, 5], [3, 0, 1, 0, 9]])
    assert np.array_equal(test.llr(rows), [float(test.llr(row)) for row in rows])
    assert np.array_equal(test.llr(rows[[0, 3]]), test.llr(rows)[[0, 3]])


def run(run_dir, *overrides):
    with initialize_config_dir(config_dir=str(ROOT / "configs"), version_base="1.3"):
        cfg = compose("evaluate", overrides=["progress=false", *overrides])
    out = io.StringIO()
    return evaluate(cfg, run_dir, out), out.getvalue()


MATCH = ("game=hex", "game.size=4", "players=[mcts:8,random]", "games=40", "test=sprt")
BOUNDS = ("sprt.low=0.3", "sprt.high=0.7")


@pytest.mark.parametrize(
    "overrides, message",
    [
        (["sprt.alpha=0.5"], r"^sprt\.alpha: an error rate must be a number in \(0, 0\.5\), got 0\.5$"),
        (["sprt.alpha=0"], r"^sprt\.alpha: an error rate must be a number in \(0, 0\.5\), got 0\.0$"),
        (["sprt.beta=0.7"], r"^sprt\.beta: an error rate"),
        (["sprt.high=1"], r"^sprt\.high: a bound on the score must be a number in \(0, 1\), got 1\.0$"),
        (["sprt.low=0"], r"^sprt\.low: a bound on the score must be a number in \(0, 1\)"),
        (["sprt.low=0.8"], r"^sprt\.low: must be below sprt\.high, got low 0\.8 and high 0\.7$"),
        (["games=6"], r"^games: a cap of 6 games is below the 8 this test needs to reach a decision"),
        (["games=41"], r"^games: the test's cap counts seat-swapped pairs, so it must be even, got 41$"),
        (["players=[mcts:8,random,greedy]"], r"^players: test=sprt tests players\[0\] against players\[1\]"),
        (["mode=stats"], r"^test: test=sprt decides a mode=match, not mode=stats$"),
        (["test=maybe"], r"^test: must be one of fixed, sprt, got 'maybe'$"),
        (["test=fixed"], r"^sprt\.low: the test's bounds are for test=sprt; give test=sprt too$"),
        (["sprt.high=null"], r"^sprt\.high: test=sprt needs both bounds"),
    ],
)
def test_settings_that_make_no_test_are_refused_naming_the_setting(tmp_path, overrides, message):
    keys = {override.split("=")[0] for override in overrides}
    given = [o for o in (*MATCH, *BOUNDS) if o.split("=")[0] not in keys]
    with pytest.raises(ConfigError, match=message) as refused:
        run(tmp_path, *given, *overrides)
    assert "\n" not in str(refused.value)
    assert not (tmp_path / JOURNAL).exists()  # refused before any game


def test_the_command_line_reports_a_bad_setting_in_one_line_without_a_traceback(tmp_path):
    failed = subprocess.run(
        [sys.executable, str(ROOT / "evaluate.py"), *MATCH, *BOUNDS, "sprt.alpha=0.6", f"hydra.run.dir={tmp_path}"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert failed.returncode == 1 and "Traceback" not in failed.stderr
    errors = [line for line in failed.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1 and errors[0].endswith(
        "error: sprt.alpha: an error rate must be a number in (0, 0.5), got 0.6"
    )


@pytest.fixture(scope="module")
def straight(tmp_path_factory):
    run_dir = tmp_path_factory.mktemp("straight")
    document, text = run(run_dir, *MATCH, *BOUNDS)
    return run_dir, document, text


def test_a_sequential_match_stops_at_its_verdict_with_the_games_of_the_fixed_duplicate_match(straight):
    run_dir, document, text = straight
    verdict = document["sprt"]
    games = sum(verdict["pairs"]) * 2
    assert verdict["decision"] == "high" and verdict["stopped"] == "bound" and 8 <= games < 40
    assert verdict["llr"] >= verdict["llr_bounds"][1] and verdict["llr_bounds"] == [-2.9444, 2.9444]
    row = document["table"][0]
    assert (row["player"], row["opponent"], row["games"]) == ("mcts:8", "random", games)
    assert row["score"] == round((row["wins"] + row["draws"] / 2) / games, 4)
    assert f"mcts:8 against random: accepted >= 0.7 (not <= 0.3) after {games} games" in text
    assert f"score {row['score']:.3f} (95% CI {row['ci_low']:.3f}..{row['ci_high']:.3f})" in text
    # its games are the first games of the fixed-count duplicate match: the same pairs, in order
    game_cfg = {"name": "hex", "size": 4, "pie_rule": False}
    lineups = [("mcts:8", "random"), ("random", "mcts:8")] * (games // 2)
    fixed = play_games(game_cfg, lineups, seed=0, duplicate=True)
    assert [list(r.returns) for r in fixed] == [g["returns"] for g in document["games"]]
    # the decision is the first pair whose LLR reached a bound
    points = [(first.winner == 0) + (second.winner == 1) for first, second in zip(fixed[::2], fixed[1::2])]
    test = SPRT(0.3, 0.7, 0.05, 0.05, 40)
    assert test.decide(points[:-1]).decision is None and test.decide(points).decision == "high"


def test_a_sequential_match_records_its_verdict_beside_the_score(straight):
    _, document, _ = straight
    [record] = evaluation_records(document, "python evaluate.py ...")
    row = document["table"][0]
    assert (record["subject"], record["against"], record["value"]) == ("mcts:8", "random", row["score"])
    assert record["note"].startswith(f"{row['games']} games, seats alternating, duplicate: ")
    assert record["note"].endswith(
        f"; sequential test: accepted >= 0.7 (not <= 0.3) after {row['games']} games: "
        f"LLR {document['sprt']['llr']:.3g} reached 2.94"
    )


def test_a_stopped_sequential_match_resumes_to_the_same_verdict(tmp_path, monkeypatch, straight):
    _, document, _ = straight
    stop_after(monkeypatch, 3)  # Ctrl-C as the fourth game is saved, mid-pair
    with pytest.raises(KeyboardInterrupt):
        run(tmp_path, *MATCH, *BOUNDS)
    monkeypatch.undo()
    assert len((tmp_path / JOURNAL).read_text().splitlines()) == 1 + 3
    with pytest.raises(ConfigError, match=r"sprt: \{\"low\": 0.3, .*\} then, \{\"low\": 0.4,"):
        run(tmp_path, *MATCH, "sprt.low=0.4", "sprt.high=0.7", f"resume={tmp_path}")
    resumed, text = run(tmp_path, *MATCH, *BOUNDS, f"resume={tmp_path}", "workers=2")  # any workers
    assert "resumed: 3 of 40 games saved" in text and "playing on until the test decides" in text
    assert resumed["sprt"] == document["sprt"] and resumed["table"] == document["table"]
    assert [g["returns"] for g in resumed["games"]] == [g["returns"] for g in document["games"]]
    # resumed again once decided: nothing more is played, the verdict stands
    again, _ = run(tmp_path, *MATCH, *BOUNDS, f"resume={tmp_path}")
    assert again["sprt"] == document["sprt"]
    assert len((tmp_path / JOURNAL).read_text().splitlines()) == 1 + 2 * sum(document["sprt"]["pairs"])
    assert json.loads((tmp_path / "results.json").read_text())["sprt"] == document["sprt"]
