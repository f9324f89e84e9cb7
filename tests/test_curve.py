"""Learning curves: milestones survive pruning, checkpoints carry the run's wall clock
across resumes, and ``evaluate.py mode=curve`` replays the matches mode=match plays."""

import csv
import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch
from hydra import compose, initialize_config_dir
from hydra.errors import ConfigCompositionException
from omegaconf import OmegaConf

import agents.training.loop as loop
import agents.training.settings as settings
from agents.config import ConfigError
from agents.evaluation.modes import evaluate
from agents.evaluation.runner import play_batches, play_games
from agents.net.checkpoint import MILESTONES, CheckpointError, checkpoint_files, load_checkpoint
from agents.training.saving import remove_stale_files

ROOT = Path(__file__).resolve().parents[1]
# a smoke run on Nex 3x3 (short games); checkpoints only at the end and at milestones
RUN = [
    "experiment=smoke",
    "eval.every=0",
    "game=nex",
    "game.size=3",
    "train.checkpoint_every=1000",
    "train.keep_checkpoints=2",
    "train.milestone_every=1",
]
GAME = ["game=nex", "game.size=3"]


def compose_config(name, overrides):
    with initialize_config_dir(config_dir=str(ROOT / "configs"), version_base="1.3"):
        return compose(name, overrides=list(overrides))


def train(directory, *overrides):
    if not any(o.startswith("resume=") for o in overrides):
        overrides = [*RUN, *overrides]
    return loop.train(compose_config("train", overrides), directory, overrides)


def evaluate_run(directory, *overrides):
    out = io.StringIO()
    return evaluate(compose_config("evaluate", ["progress=false", *overrides]), directory, out), out.getvalue()


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """Two iterations with a milestone each, then resumed to three from a checkpoint whose
    clock was set to an hour: (run directory, seconds the resumed part took)."""
    directory = tmp_path_factory.mktemp("run")
    first = train(directory, "train.iterations=2")
    saved = load_checkpoint(first.checkpoint)
    saved["wall_seconds"] = 3600.0
    torch.save(saved, directory / "edited.pt")
    os.replace(directory / "edited.pt", first.checkpoint)  # a new file: its milestone keeps the true clock
    started = time.perf_counter()
    train(directory, f"resume={first.checkpoint}", "train.iterations=3")
    return directory, time.perf_counter() - started


def test_milestones_survive_pruning(run):
    directory, _ = run
    kept = checkpoint_files(directory / "checkpoints")
    milestones = checkpoint_files(directory / "checkpoints" / MILESTONES)
    assert [p.name for p in kept] == ["ckpt_step0000006_iter0002.pt", "ckpt_step0000009_iter0003.pt"]  # keep 2
    assert [p.name for p in milestones] == [f"ckpt_step{3 * i:07d}_iter{i:04d}.pt" for i in (1, 2, 3)]
    assert [load_checkpoint(p)["iteration"] for p in milestones] == [1, 2, 3]
    assert not list((directory / "checkpoints" / MILESTONES).glob("*.replay.npz"))  # weights only
    newest, last = load_checkpoint(kept[-1])["model"], load_checkpoint(milestones[-1])["model"]
    assert all(torch.equal(newest[key], last[key]) for key in newest)


def test_no_milestones_by_default(tmp_path):
    train(tmp_path, "train.iterations=2", "train.milestone_every=0")
    assert not (tmp_path / "checkpoints" / MILESTONES).exists()
    assert [p.name for p in checkpoint_files(tmp_path / "checkpoints")] == ["ckpt_step0000006_iter0002.pt"]  # the end


def test_the_wall_clock_is_recorded_and_continues_across_a_resume(run):
    directory, resumed_seconds = run
    first, second, third = [
        load_checkpoint(p)["wall_seconds"] for p in checkpoint_files(directory / "checkpoints" / MILESTONES)
    ]
    assert 0 < first < second < 3600  # the first run's own clock (its third checkpoint was set to an hour)
    assert 3600 < third < 3600 + resumed_seconds


def test_a_checkpoint_without_a_wall_clock_loads_and_its_resume_records_none(run, tmp_path):
    directory, _ = run
    saved = load_checkpoint(checkpoint_files(directory / "checkpoints" / MILESTONES)[1])  # iteration 2
    del saved["wall_seconds"]
    old = tmp_path / "checkpoints" / "ckpt_step0000006_iter0002.pt"
    old.parent.mkdir()
    torch.save(saved, old)
    (old.parent / "ckpt_step0000006_iter0002.replay.npz").write_bytes(
        (directory / "checkpoints" / "ckpt_step0000009_iter0003.replay.npz").read_bytes()
    )
    assert "wall_seconds" not in load_checkpoint(old)
    result = train(tmp_path, f"resume={old}", "train.iterations=3")
    assert "wall_seconds" not in load_checkpoint(result.checkpoint)
    assert load_checkpoint(result.checkpoint)["iteration"] == 3


def test_a_wall_clock_of_the_wrong_kind_is_refused_by_name(run, tmp_path):
    directory, _ = run
    saved = load_checkpoint(checkpoint_files(directory / "checkpoints")[-1])
    saved["wall_seconds"] = "an hour"
    torch.save(saved, tmp_path / "bad.pt")
    with pytest.raises(CheckpointError, match="field 'wall_seconds' must be a number of seconds"):
        load_checkpoint(tmp_path / "bad.pt")


@pytest.mark.parametrize("value", [-1, "often", 1.5])
def test_a_bad_milestone_interval_is_refused_by_name(value):
    """Hydra refuses a value of the wrong type while composing (the structured config's
    type), build_settings one out of range or of the wrong type in a stored config."""
    if value == -1:
        with pytest.raises(ConfigError, match="train.milestone_every"):
            settings.build_settings(compose_config("train", [*RUN, f"train.milestone_every={value}"]))
        return
    with pytest.raises(ConfigCompositionException, match="train.milestone_every"):
        compose_config("train", [*RUN, f"train.milestone_every={value}"])
    stored = OmegaConf.to_container(compose_config("train", RUN))  # as a checkpoint stores it
    stored["train"]["milestone_every"] = value
    with pytest.raises(ConfigError, match="^train.milestone_every: "):
        settings.build_settings(OmegaConf.create(stored))


def test_a_configuration_saved_before_milestones_runs_without_them():
    cfg = OmegaConf.create(OmegaConf.to_container(compose_config("train", RUN)))  # as a checkpoint stores it
    del cfg.train["milestone_every"]
    assert settings.build_settings(cfg).milestone_every == 0


def test_stale_temporary_milestones_are_removed(tmp_path):
    stale = tmp_path / MILESTONES / ".ckpt_step0000003_iter0001.pt.x1y2.tmp"
    stale.parent.mkdir()
    stale.write_bytes(b"half a checkpoint")
    assert remove_stale_files(tmp_path) == [stale] and not stale.exists()


def test_batches_play_the_games_of_separate_calls():
    game = {"name": "nex", "size": 3, "pie_rule": False}
    batches = [[("random", "greedy"), ("greedy", "random")] * 2, [("mcts:2", "random")] * 3]
    together = play_batches(game, batches, seed=11)
    alone = [play_games(game, lineups, seed=11) for lineups in batches]
    assert [[r.actions for r in batch] for batch in together] == [[r.actions for r in batch] for batch in alone]
    assert len({r.actions for r in together[0]}) > 1  # the games differ: each has its own generator


@pytest.mark.parametrize("opening", [0, 2])
def test_curve_replays_the_matches_of_mode_match(run, tmp_path, opening):
    directory, _ = run
    summary, text = evaluate_run(
        tmp_path / "curve",
        "mode=curve",
        *GAME,
        f"checkpoints={directory}",
        "players=[random,greedy]",
        "games=6",
        "seed=5",
        f"opening={opening}",
    )
    rows = list(csv.DictReader(open(tmp_path / "curve" / "curve.csv")))
    milestones = checkpoint_files(directory / "checkpoints" / MILESTONES)
    newest = checkpoint_files(directory / "checkpoints")[-1]
    assert [(Path(r["checkpoint"]), r["opponent"]) for r in rows] == [
        (path, opponent) for path in [*milestones[:2], newest] for opponent in ("random", "greedy")
    ]
    assert [int(r["iteration"]) for r in rows] == [1, 1, 2, 2, 3, 3]
    for number, row in enumerate(rows):
        seconds = load_checkpoint(row["checkpoint"])["wall_seconds"]
        assert float(row["wall_minutes"]) == round(seconds / 60, 3)
        match, _ = evaluate_run(
            tmp_path / f"match{number}",  # a run directory holds one match
            "mode=match",
            *GAME,
            f"players=[az:{row['checkpoint']},{row['opponent']}]",
            "games=6",
            "seed=5",
            f"opening={opening}",
        )
        pair = match["table"][0]
        assert (int(row["wins"]), int(row["draws"]), int(row["losses"])) == (
            pair["wins"],
            pair["draws"],
            pair["losses"],
        )
        assert (float(row["win_rate"]), float(row["ci_low"]), float(row["ci_high"])) == (
            pair["score"],
            pair["ci_low"],
            pair["ci_high"],
        )
    assert summary["x_axis"] == "wall_minutes" and summary["table"][0]["games"] == 6
    assert (tmp_path / "curve" / "curve.png").stat().st_size > 1000
    assert (tmp_path / "curve" / "results.json").is_file()
    assert "ckpt_step0000003_iter0001" in text and "win rate" in text


def test_a_curve_over_checkpoints_without_wall_clock_is_drawn_against_iterations(run, tmp_path):
    directory, _ = run
    milestone = checkpoint_files(directory / "checkpoints" / MILESTONES)[0]
    saved = load_checkpoint(milestone)
    del saved["wall_seconds"]
    old = tmp_path / "ckpt_step0000003_iter0001.pt"
    torch.save(saved, old)
    summary, text = evaluate_run(
        tmp_path / "curve",
        "mode=curve",
        *GAME,
        f"checkpoints=[{old},{milestone}]",
        "players=[random]",
        "games=2",
        "simulations=0",
    )
    assert summary["x_axis"] == "iteration"
    assert [row["wall_minutes"] for row in summary["table"]][0] == ""
    assert "drawn against iterations: ckpt_step0000003_iter0001.pt record no wall-clock time" in text
    assert (tmp_path / "curve" / "curve.png").stat().st_size > 1000


@pytest.mark.parametrize(
    "overrides, message",
    [
        (["checkpoints=null"], "checkpoints: mode=curve needs a run directory"),
        (["checkpoints=/nonexistent/run"], "checkpoints: /nonexistent/run is neither a run directory"),
        (["checkpoints=EMPTY"], "is not a training run: no checkpoint"),
        (["checkpoints=[/nonexistent/ckpt.pt]"], "checkpoints: /nonexistent/ckpt.pt is not a checkpoint file"),
        (["checkpoints=RUN", "players=[nosuch:3]"], "unknown player spec 'nosuch:3'"),
        (["checkpoints=RUN", "simulations=-2"], "simulations: must be null"),
        (["checkpoints=RUN", "game=hex", "game.size=3"], "is for nex"),
    ],
)
def test_bad_input_is_refused_by_name(run, tmp_path, overrides, message):
    directory, _ = run
    (tmp_path / "empty").mkdir()
    overrides = [o.replace("EMPTY", str(tmp_path / "empty")).replace("RUN", str(directory)) for o in overrides]
    game = [] if any(o.startswith("game=") for o in overrides) else GAME
    with pytest.raises(ValueError, match=message):
        evaluate_run(tmp_path / "out", "mode=curve", *game, "players=[random]", "games=2", *overrides)


def test_the_command_line_reports_a_bad_run_directory_without_traceback(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "evaluate.py"),
            "mode=curve",
            "game=nex",
            "game.size=3",
            f"checkpoints={tmp_path}",
            "players=[random]",
            f"hydra.run.dir={tmp_path / 'out'}",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1 and "is not a training run" in done.stderr and "Traceback" not in done.stderr
