"""A match's journal (agents/evaluation/journal.py): games saved as they end, a stopped match
resumed to exactly the games of one uninterrupted run, and every way a resume can go wrong
refused with a message."""

import io
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from ctrl_c import hear_ctrl_c, stop_after
from hydra import compose, initialize_config_dir

from agents.config import ConfigError
from agents.evaluation import journal as journal_module
from agents.evaluation.journal import JOURNAL, MatchJournal, match_settings
from agents.evaluation.modes import evaluate

ROOT = Path(__file__).resolve().parents[1]
MATCH = ("game=nex", "game.size=4", "players=[mcts:20,greedy]", "games=12")


def run(run_dir, *overrides):
    with initialize_config_dir(config_dir=str(ROOT / "configs"), version_base="1.3"):
        cfg = compose("evaluate", overrides=["progress=false", *overrides])
    out = io.StringIO()
    return evaluate(cfg, run_dir, out), out.getvalue()


def games_of(run_dir: Path) -> list[str]:
    """The match's game records, in order: what it played, move by move."""
    return [path.read_text() for path in sorted((run_dir / "games").glob("game_*.txt"))]


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    run_dir = tmp_path_factory.mktemp("uninterrupted")
    document, _ = run(run_dir, *MATCH, "batch_games=2")
    return document, games_of(run_dir), (run_dir / JOURNAL).read_text().splitlines()


def test_the_journal_holds_every_game_as_the_match_plays_it(uninterrupted):
    document, _, lines = uninterrupted
    header = json.loads(lines[0])
    assert header["settings"]["players"] == ["mcts:20", "greedy"] and header["settings"]["games"] == 12
    saved = [json.loads(line) for line in lines[1:]]
    assert [game["number"] for game in saved] == list(range(12))
    assert [game["returns"] for game in saved] == [game["returns"] for game in document["games"]]


def test_a_match_stopped_midway_resumes_to_the_games_of_one_uninterrupted_run(tmp_path, monkeypatch, uninterrupted):
    document, records, _ = uninterrupted
    stop_after(monkeypatch, 5)  # game 6 of 12 is the first of a group of two (batch_games=2)
    with pytest.raises(KeyboardInterrupt):
        run(tmp_path, *MATCH, "batch_games=2")
    assert len((tmp_path / JOURNAL).read_text().splitlines()) == 1 + 5
    monkeypatch.undo()

    resumed, text = run(tmp_path, *MATCH, "batch_games=2", f"resume={tmp_path}", "workers=2")
    assert "resumed: 5 of 12 games saved" in text
    assert games_of(tmp_path) == records
    assert resumed["table"] == document["table"] and resumed["ratings"] == document["ratings"]
    assert len((tmp_path / JOURNAL).read_text().splitlines()) == 1 + 12


def test_a_game_cut_off_mid_write_is_played_again(tmp_path, uninterrupted):
    document, records, lines = uninterrupted
    (tmp_path / JOURNAL).write_text("\n".join(lines[:4]) + "\n" + lines[4][:30])  # a kill mid-line
    resumed, text = run(tmp_path, *MATCH, "batch_games=2", f"resume={tmp_path}")
    assert "resumed: 3 of 12 games saved" in text
    assert games_of(tmp_path) == records and resumed["table"] == document["table"]
    assert [json.loads(line)["number"] for line in (tmp_path / JOURNAL).read_text().splitlines()[1:]] == [
        0,
        1,
        2,
        *range(3, 12),
    ]


@pytest.mark.parametrize(
    "change, named",
    [
        ("games=14", "games: 12 then, 14 now"),
        ("seed=1", "seed: 0 then, 1 now"),
        ("opening=2", "opening: 0 then, 2 now"),
        ("game.size=5", '"size": 4'),
        ("players=[mcts:21,greedy]", '"mcts:20"'),
        ("batch_games=1", "batch_games: 2 then, 1 now"),
    ],
)
def test_a_resumed_match_must_decide_the_same_games(tmp_path, uninterrupted, change, named):
    _, _, lines = uninterrupted
    (tmp_path / JOURNAL).write_text("\n".join(lines[:3]) + "\n")
    overrides = [o for o in (*MATCH, "batch_games=2") if o.split("=")[0] != change.split("=")[0]]
    with pytest.raises(ConfigError, match="played with other settings") as refused:
        run(tmp_path, *overrides, change, f"resume={tmp_path}")
    assert named in str(refused.value)
    assert (tmp_path / JOURNAL).read_text() == "\n".join(lines[:3]) + "\n"  # nothing played, nothing lost


def test_a_network_changed_since_is_refused(tmp_path):
    weights = tmp_path / "net.pt"
    weights.write_bytes(b"the first network")
    game = {"name": "nex", "size": 4, "pie_rule": False}
    settings = match_settings(game, [f"az:{weights}", "mcts:400"], games=4, seed=0)
    assert set(settings["networks"]) == {f"az:{weights}"}
    MatchJournal.start(tmp_path, settings)
    assert (
        MatchJournal.resume(tmp_path, match_settings(game, [f"az:{weights}", "mcts:400"], games=4, seed=0)).games == {}
    )
    weights.write_bytes(b"another network")
    with pytest.raises(ConfigError, match=f"the network file of az:{weights} has changed since"):
        MatchJournal.resume(tmp_path, match_settings(game, [f"az:{weights}", "mcts:400"], games=4, seed=0))


def test_a_zoo_spec_is_fingerprinted_by_its_weights_file():
    settings = match_settings({"name": "nex", "size": 11, "pie_rule": False}, ["zoo", "mcts:400"], games=2, seed=0)
    digest = __import__("hashlib").sha256((ROOT / "agents/net/zoo/nex.pt").read_bytes()).hexdigest()
    assert settings["networks"] == {"zoo": digest}


def test_a_directory_holding_a_match_is_not_overwritten_and_resume_needs_one(tmp_path, uninterrupted):
    _, _, lines = uninterrupted
    (tmp_path / JOURNAL).write_text("\n".join(lines[:3]) + "\n")
    with pytest.raises(ConfigError, match=f"already holds a match .*resume={tmp_path} continues it"):
        run(tmp_path, *MATCH, "batch_games=2")
    assert (tmp_path / JOURNAL).read_text() == "\n".join(lines[:3]) + "\n"
    with pytest.raises(ConfigError, match="holds no match to continue"):
        run(tmp_path / "empty", *MATCH, f"resume={tmp_path / 'empty'}")
    with pytest.raises(ConfigError, match="continues a stopped mode=match, not mode=stats"):
        run(tmp_path, "mode=stats", "game=nex", "game.size=4", "players=[random]", f"resume={tmp_path}")
    with pytest.raises(ConfigError, match="continues in its own directory"):
        run(tmp_path / "elsewhere", *MATCH, "batch_games=2", f"resume={tmp_path}")


def test_a_damaged_journal_is_refused_by_line(tmp_path, uninterrupted):
    _, _, lines = uninterrupted
    (tmp_path / JOURNAL).write_text("\n".join([lines[0], lines[1], "not a game", lines[2]]) + "\n")
    with pytest.raises(ConfigError, match="line 3 of .* is not a saved game"):
        run(tmp_path, *MATCH, "batch_games=2", f"resume={tmp_path}")
    (tmp_path / JOURNAL).write_text("{}\n")
    with pytest.raises(ConfigError, match="is not a match journal"):
        run(tmp_path, *MATCH, "batch_games=2", f"resume={tmp_path}")


def test_outcome_facts_of_numpy_types_are_saved_as_plain_json():
    import numpy as np

    assert json.loads(json.dumps({"score": np.float32(0.5), "cells": np.arange(2)}, default=journal_module._plain)) == {
        "score": 0.5,
        "cells": [0, 1],
    }
    with pytest.raises(TypeError, match="cannot save"):
        json.dumps({"x": object()}, default=journal_module._plain)


def test_ctrl_c_stops_a_match_on_the_command_line_and_resume_finishes_it(tmp_path):
    match = ["game=nex", "game.size=4", "players=[mcts:200,mcts:100]", "games=30", "progress=false"]
    command = [sys.executable, str(ROOT / "evaluate.py"), *match]
    run_dir = tmp_path / "match"
    process = subprocess.Popen(
        [*command, f"hydra.run.dir={run_dir}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        preexec_fn=hear_ctrl_c,
    )
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and process.poll() is None:  # two games saved: stop it mid-match
        if (run_dir / JOURNAL).is_file() and len((run_dir / JOURNAL).read_text().splitlines()) >= 3:
            break
        time.sleep(0.05)
    assert process.poll() is None, "the match ended before it could be stopped"
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130 and "Traceback" not in err, err
    saved = len((run_dir / JOURNAL).read_text().splitlines()) - 1
    assert 2 <= saved < 30 and f"stopped: {saved} games saved" in out and f"resume={run_dir}" in out

    resumed = subprocess.run([*command, f"resume={run_dir}"], capture_output=True, text=True, cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert f"resumed: {saved} of 30 games saved" in resumed.stdout
    whole, _ = run(tmp_path / "whole", *match)
    assert games_of(run_dir) == games_of(tmp_path / "whole")
    assert json.loads((run_dir / "results.json").read_text())["table"] == whole["table"]
