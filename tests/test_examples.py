"""The examples run from a fresh install with their extras."""

import pytest
from checkout_scripts import load_script


def load(name: str):
    return load_script(f"examples/{name}.py")


@pytest.mark.slow
def test_maskable_ppo_odoku_trains_and_measures_against_the_oracle():
    pytest.importorskip("sb3_contrib")
    report = load("maskable_ppo_odoku").main(["--timesteps", "1024", "--eval-games", "3"])
    for player in ("maskable-ppo", "random"):
        for seat in ("B", "A"):
            measure = report[player][seat]
            assert measure["games"] == 3 and measure["moves"] > 0
            assert 0 <= measure["mean_score"] <= 15
            assert measure["regret_per_move"] >= 0


def test_maskable_ppo_odoku_rejects_bad_flags(capsys):
    example = load("maskable_ppo_odoku")
    with pytest.raises(SystemExit):
        example.main(["--eval-games", "1"])
    assert "--eval-games must be at least 2" in capsys.readouterr().err
