"""Training, evaluation, statistics and human play on Y's triangle inside the square array."""

import io
import subprocess
import sys
from pathlib import Path

from hydra import compose, initialize_config_dir

from agents.evaluation.modes import evaluate
from agents.training.loop import train
from envs.records import replay_record

ROOT = Path(__file__).resolve().parents[1]


def compose_config(name, overrides):
    with initialize_config_dir(config_dir=str(ROOT / "configs"), version_base="1.3"):
        return compose(name, overrides=list(overrides))


def test_smoke_training_on_neuy_5_then_a_match_and_statistics(tmp_path):
    overrides = ["experiment=smoke", "game=neuy", "game.size=5", "train.iterations=1"]
    result = train(compose_config("train", overrides), tmp_path / "run", overrides)
    assert result.checkpoint.exists()
    out = io.StringIO()
    match = evaluate(
        compose_config(
            "evaluate",
            ["progress=false", "game=neuy", "game.size=5", f"players=[az:{result.checkpoint}:4,random]", "games=2"],
        ),
        tmp_path / "match",
        out,
    )
    assert len(match["games"]) == 2 and "az:" in out.getvalue()
    stats = evaluate(
        compose_config(
            "evaluate", ["progress=false", "mode=stats", "game=neuy", "game.size=5", "players=[random]", "games=20"]
        ),
        tmp_path / "stats",
        io.StringIO(),
    )["statistics"]
    assert stats["games"] == 20 and stats["first_seat"]["draw"]["rate"] == 0.0  # Y has no draws
    assert set(stats["turn_kinds"]) <= {"drop", "swap", "fill", "convert"} and stats["turn_kinds"]["drop"] > 0


def test_a_human_game_of_y_through_stdin(tmp_path):
    # Y 3: x c1 b2 d2 touches all three sides; e4 is not a cell of this board and is refused
    script = "c1\na1\nb2\ne4\ne1\nd2\n"
    played = subprocess.run(
        [
            sys.executable,
            str(ROOT / "evaluate.py"),
            "mode=play",
            "game=y",
            "game.size=3",
            "players=[human,human]",
            f"hydra.run.dir={tmp_path}",
            "progress=false",
        ],
        input=script,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert played.returncode == 0, played.stderr
    assert "off the Y board with 3 rows" in played.stdout and "game over: x wins" in played.stdout
    game, state = replay_record((tmp_path / "game.txt").read_text())
    assert game.info.name == "y" and game.winner(state) == 0
