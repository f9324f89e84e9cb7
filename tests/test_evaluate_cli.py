"""evaluate.py end to end: every mode through the Hydra compose API, the CLI itself."""

import csv
import io
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from ctrl_c import hear_ctrl_c
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from agents.config import ConfigError
from agents.evaluation.modes import MODES, evaluate
from envs.records import replay_record

ROOT = Path(__file__).resolve().parents[1]


def run(tmp_path, *overrides):
    with initialize_config_dir(config_dir=str(ROOT / "configs"), version_base="1.3"):
        cfg = compose("evaluate", overrides=["progress=false", *overrides])
    out = io.StringIO()
    return evaluate(cfg, tmp_path, out), out.getvalue()


def test_match_writes_table_ratings_records_plot_and_tensorboard(tmp_path):
    result, text = run(tmp_path, "game=nex", "game.size=3", "players=[greedy,random]", "games=6")
    assert "random = 0" in text and "greedy" in text
    saved = json.loads((tmp_path / "results.json").read_text())
    assert saved["ratings"]["random"] == {"rating": 0.0, "ci": 0.0} and saved["anchor"] == "random"
    assert saved["config"]["game"] == {"name": "nex", "size": 3, "pie_rule": False}
    rows = list(csv.DictReader(open(tmp_path / "results.csv")))
    pair = next(r for r in rows if r["opponent"] == "random")
    assert int(pair["wins"]) + int(pair["draws"]) + int(pair["losses"]) == int(pair["games"]) == 6
    assert {r["player"] for r in rows if r["opponent"] == "all"} == {"greedy", "random"}
    assert len(saved["games"]) == 6 and saved["distinct_games"] == 6
    for entry in saved["games"]:
        game, state = replay_record((tmp_path / entry["file"]).read_text())
        assert list(game.returns(state)) == entry["returns"]
    assert (tmp_path / "ratings.png").stat().st_size > 1000
    assert list((tmp_path / "tb").glob("events.out.tfevents.*"))


def test_solve_accuracy_stats_and_odoku_modes(tmp_path):
    solved, text = run(tmp_path / "s", "mode=solve", "game=hex", "game.size=2")
    assert solved["value"] == 1.0 and set(solved["optimal_first_turns"]) == {"b1", "a2"}
    assert "first player (seat 0) wins" in text
    accuracy, _ = run(tmp_path / "a", "mode=accuracy", "game=hex", "game.size=3", "players=[solver]", "games=4")
    assert accuracy["optimal"] == accuracy["turns"] > 0 and accuracy["opponents"] == ["random"]
    odoku_accuracy, _ = run(tmp_path / "o", "mode=accuracy", "players=[oracle,random]", "games=4")
    assert odoku_accuracy["share"] == 1.0 and odoku_accuracy["turns"] > 20
    stats, text = run(tmp_path / "t", "mode=stats", "game=nex", "game.size=3", "players=[random]", "games=10")
    assert stats["statistics"]["games"] == 10 and "random self-play" in text
    assert stats["statistics"]["distinct_games"] == 10 and "warning" not in text
    measures, text = run(tmp_path / "m", "mode=odoku", "players=[oracle]", "games=20")
    assert [m["regret_total"] for m in measures["measures"]["oracle"]] == [0.0, 0.0]
    assert "reference (docs/games/odoku.md)" in text


def test_stats_of_two_players_gives_each_seating(tmp_path):
    # Hex 2x2 is a first-player win: the solver wins every game it starts
    stats, text = run(tmp_path, "mode=stats", "game=hex", "game.size=2", "players=[solver,random]", "games=10")
    by_first = stats["statistics"]["first_seat_by_first_player"]
    assert by_first["solver"]["win"]["games"] == 5 and by_first["solver"]["win"]["rate"] == 1.0
    assert stats["statistics"]["first_seat"]["win"]["games"] == 5 + by_first["random"]["win"]["games"]
    assert "with solver first: first seat wins 5 of 5, 100.0%" in text


def test_accuracy_on_the_principal_lines(tmp_path):
    judged, text = run(
        tmp_path, "mode=accuracy", "positions=lines", "game=hex", "game.size=2", "players=[solver,random]"
    )
    assert judged["line_positions"] == 9 and judged["lost_for_mover"] == 2
    assert judged["judged"]["solver"]["optimal"] == 9 and judged["judged"]["solver"]["misses"] == []
    randomly = judged["judged"]["random"]
    assert randomly["optimal"] < 9 and len(randomly["misses"]) == 9 - randomly["optimal"]
    assert "9 positions on the principal lines (2 lost for the mover" in text
    assert "solver: 9 of 9 turns optimal = 100.0%" in text
    miss = randomly["misses"][0]
    line = " ".join(f"{n}. {t}" for n, t in enumerate(miss["line"], start=1)) or "the start"
    assert f"  after {line}: played {miss['played']}; optimal {' | '.join(miss['optimal'])}" in text
    assert json.loads((tmp_path / "results.json").read_text())["judged"]["random"] == randomly


@pytest.mark.parametrize(
    "overrides, message",
    [
        (["mode=bogus"], "mode: unknown mode"),
        (["games=0"], "games: must be an integer >= 1"),
        (["workers=-1"], "workers:"),
        (["prior_draws=-1"], "prior_draws:"),
        (["seed=-1"], "seed: must be an integer >= 0, got -1"),
        (["batch_games=0"], "batch_games: must be an integer >= 1, got 0"),
        (["torch_threads=-1"], "torch_threads: must be an integer >= 0, got -1"),
        (["opening=-1"], "opening: must be an integer >= 0, got -1"),
        (["+nosuchkey=1"], "nosuchkey: unknown key"),
        (["players=[random]"], "players: mode=match needs at least 2"),
        (["players=[human,random]"], "players: 'human' plays in mode=play only"),
        (["players=[nonsense,random]"], "unknown player spec 'nonsense'; the forms are"),
        (["game=hex", "game.size=1"], r"game \(name='hex', size=1, pie_rule=False\): size must"),
        (["mode=solve"], "chance node"),
        (["mode=odoku", "game=hex", "game.size=3"], "mode=odoku needs game=odoku"),
        (["mode=play", "players=[random,oracle]"], "one of them human"),
        (["mode=stats", "players=[random,oracle,random]"], "one player"),
        (["mode=accuracy", "positions=all"], "positions: must be one of games, lines, got 'all'"),
        (["mode=accuracy", "positions=lines", "players=[oracle]"], "positions: positions=lines walks the exact solver"),
        (
            ["mode=accuracy", "positions=lines", "game=nex", "game.size=3", "players=[solver]", "max_nodes=100"],
            "gave up after 100 positions.*max_nodes sets the budget",
        ),
    ],
)
def test_bad_settings_name_the_key(tmp_path, overrides, message):
    with pytest.raises(ValueError, match=message):
        run(tmp_path, *overrides)


@pytest.mark.parametrize("override", ["batch_games=many", "games=1.5", "progress=maybe"])
def test_a_value_of_the_wrong_type_is_refused_while_composing(tmp_path, override):
    """The structured config's types: Hydra names the override before anything runs."""
    from hydra.errors import ConfigCompositionException

    with pytest.raises(ConfigCompositionException, match=override.replace(".", r"\.")):
        run(tmp_path, override)


def test_a_stored_configuration_is_checked_against_the_same_types(tmp_path):
    with initialize_config_dir(config_dir=str(ROOT / "configs"), version_base="1.3"):
        cfg = OmegaConf.to_container(compose("evaluate", overrides=["progress=false"]))
    cfg["batch_games"] = "many"
    with pytest.raises(ValueError, match="^batch_games: Value 'many'"):
        evaluate(OmegaConf.create(cfg), tmp_path, io.StringIO())


def test_batch_games_reaches_the_runner_and_torch_threads_this_process(tmp_path, monkeypatch):
    import torch

    import agents.evaluation.runner as runner

    groups, play_lockstep = [], runner.play_lockstep
    monkeypatch.setattr(
        runner,
        "play_lockstep",
        lambda game, lineups, rngs, opening=0, chance_rngs=None: (
            groups.append(len(lineups)) or play_lockstep(game, lineups, rngs, opening, chance_rngs)
        ),
    )
    threads = torch.get_num_threads()
    try:
        batched, _ = run(
            tmp_path / "b", "mode=odoku", "players=[random]", "games=5", "batch_games=4", "torch_threads=2"
        )
        assert torch.get_num_threads() == 2 and groups == [4, 4, 2]
        single, _ = run(tmp_path / "s", "mode=odoku", "players=[random]", "games=5", "torch_threads=0")
        assert torch.get_num_threads() == 2 and groups[3:] == [1] * 10  # 0: left as it was
    finally:
        torch.set_num_threads(threads)
    assert batched["measures"] == single["measures"]


def test_modes_are_a_table():
    assert set(MODES) == {"match", "solve", "accuracy", "stats", "odoku", "play", "curve", "report", "zoo"}
    assert issubclass(ConfigError, ValueError)


def cli(args, tmp_path, stdin="", run_dir=None):
    return subprocess.run(
        [sys.executable, str(ROOT / "evaluate.py"), *args, f"hydra.run.dir={run_dir or tmp_path}", "progress=false"],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )


def test_a_configuration_error_leaves_no_run_directory_and_keeps_a_match(tmp_path):
    refused = cli(["game=hex", "game.size=2", "players=[nobody,random]"], tmp_path, run_dir=tmp_path / "runs" / "new")
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert "nobody" in refused.stderr and not (tmp_path / "runs").exists()
    match = ["game=hex", "game.size=2", "players=[greedy,random]"]
    played = cli([*match, "games=2"], tmp_path, run_dir=tmp_path / "match")
    assert played.returncode == 0, played.stderr
    # resumed with another number of games: refused, and the match's directory is left whole
    resumed = cli([*match, "games=4", f"resume={tmp_path / 'match'}"], tmp_path, run_dir=tmp_path / "match")
    assert resumed.returncode == 1 and "games: 2 then, 4 now" in resumed.stderr
    assert (tmp_path / "match" / "match.jsonl").is_file() and (tmp_path / "match" / "results.json").is_file()


def test_help_and_a_human_game_through_stdin(tmp_path):
    shown = cli(["--help"], tmp_path)
    assert shown.returncode == 0 and "mode: match" in shown.stdout and "play      play against" in shown.stdout
    assert "positions: games" in shown.stdout and "positions=lines: each player's turn" in shown.stdout
    # Hex 2x2: b1 wins whatever the reply (an occupied cell is rejected, the next line is read)
    script = "b1 b2\nb1\nundo\nb1\na2\nb2\n"
    played = cli(["mode=play", "game=hex", "game.size=2", "players=[human,random]"], tmp_path, script)
    assert played.returncode == 0, played.stderr
    assert "cannot play 'b1 b2'" in played.stdout and "took back" in played.stdout
    assert "You play Vertical (seat 0, first): join row 1 and the last row" in played.stdout
    assert "game over: Vertical wins; Vertical is human" in played.stdout
    logged = (tmp_path / "evaluate.log").read_text()
    assert "[INFO][agents.evaluate] game over: Vertical wins; Vertical is human" in logged
    record = (tmp_path / "game.txt").read_text()
    game, state = replay_record(record)
    assert game.winner(state) == 0 and json.loads((tmp_path / "results.json").read_text())["finished"]


def test_ctrl_c_in_a_human_game_ends_cleanly_and_keeps_a_replayable_record(tmp_path):
    log = tmp_path / "stdout.txt"
    with open(log, "w") as stdout:
        process = subprocess.Popen(
            [
                sys.executable,
                str(ROOT / "evaluate.py"),
                "mode=play",
                "game=nex",
                "game.size=4",
                "players=[human,random]",
                f"hydra.run.dir={tmp_path}",
                "progress=false",
            ],
            stdin=subprocess.PIPE,
            stdout=stdout,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tmp_path,
            preexec_fn=hear_ctrl_c,
        )
        process.stdin.write("b2 c3\n")
        process.stdin.flush()
        deadline = time.monotonic() + 120
        while "Horizontal (random) plays" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(0.5)  # the prompt for the second turn is up
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)  # stdin still open: the end of the input cannot end it instead
        _, stderr = process.communicate()
    assert process.returncode == 0 and "Traceback" not in stderr, stderr
    assert "game abandoned" in log.read_text()
    game, state = replay_record((tmp_path / "game.txt").read_text())
    assert game.info.params["size"] == 4 and state.turns == 2 and not game.is_terminal(state)
    assert json.loads((tmp_path / "results.json").read_text())["finished"] is False


def test_cli_reports_errors_without_a_traceback(tmp_path):
    # the run directory is the working directory (hydra.run.dir=.): it stays, with the error logged
    failed = cli(["players=[oracle,nonsense]"], tmp_path)
    assert failed.returncode == 1
    assert "error: unknown player spec 'nonsense'" in failed.stderr and "Traceback" not in failed.stderr
    assert "[ERROR][agents.evaluate] error: unknown player spec 'nonsense'" in (tmp_path / "evaluate.log").read_text()


def test_display_names_in_table_csv_records_and_a_readable_ratings_plot(tmp_path):
    from agents.players.registry import display_names

    long = "az:runs/odoku/2026-11-30_12-00-00/checkpoints/ckpt_step0000009.pt:4"
    other = "az:runs/odoku/2026-11-29_09-30-00/checkpoints/ckpt_step0000009.pt:4"
    assert display_names(["me=" + long, long, other, "mcts:400"]) == [
        "me",
        "az:2026-11-30_12-00-00/ckpt_step0000009:4",
        "az:2026-11-29_09-30-00/ckpt_step0000009:4",
        "mcts:400",
    ]
    assert display_names([long, "random"]) == ["az:ckpt_step0000009:4", "random"]
    with pytest.raises(ValueError, match="distinct names"):
        display_names(["a=random", "a=greedy"])

    # Hydra reads "=" inside a list only within quotes
    players = "['first=greedy','second=mcts:4',random,'a_rather_long_display_name_for_a_player=mcts:2']"
    result, text = run(tmp_path, "game=hex", "game.size=2", f"players={players}", "games=2")
    assert result["names"] == ["first", "second", "random", "a_rather_long_display_name_for_a_player"]
    header = text.splitlines()[0]
    assert header.index("opponent") == len("a_rather_long_display_name_for_a_player") + 2  # names set the width
    assert "first" in text and "greedy" not in text.split("ratings:")[0]
    rows = list(csv.DictReader(open(tmp_path / "results.csv")))
    assert {r["player"] for r in rows} == set(result["names"])
    record = (tmp_path / result["games"][0]["file"]).read_text()
    assert "# seat 0: first = greedy" in record and "# seat 1: second = mcts:4" in record
    replay_record(record)
    from PIL import Image

    width, height = Image.open(tmp_path / "ratings.png").size
    assert width >= 800 and height >= 3 * 45  # room for the names and a row each
