"""train.py and evaluate.py as a user runs them: recipe-free runs, multiruns, what gets installed."""

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_script(*args, cwd=ROOT):
    # the checkout's own packages ahead of an installed copy, as pytest's pythonpath does: a script
    # under benchmarks/ would otherwise import whatever ``pip install -e`` points at
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=600, env=env)


def test_experiment_null_and_none_both_give_the_plain_defaults():
    null = run_script("train.py", "experiment=null", "--cfg", "job")
    none = run_script("train.py", "experiment=none", "--cfg", "job")
    assert null.returncode == 0, null.stderr
    assert null.stdout == none.stdout and "c_puct: 1.25" in null.stdout


def test_a_multirun_over_games_takes_a_size_for_every_game(tmp_path):
    result = run_script(
        "evaluate.py",
        "-m",
        "mode=solve",
        "game=hex,nex",
        "game.size=2",
        "progress=false",
        f"hydra.sweep.dir={tmp_path}",
    )
    assert result.returncode == 0, result.stderr
    assert "hex {'size': 2" in result.stdout and "nex {'size': 2" in result.stdout
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_dir()) == ["0_hex", "1_nex"]


def test_installing_adds_only_the_envs_and_agents_packages(tmp_path):
    source = tmp_path / "source"  # a copy, so that the build leaves nothing in the checkout
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", "runs", "outputs", "__pycache__", "*.egg-info"))
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
            str(source),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert build.returncode == 0, build.stderr
    (wheel,) = tmp_path.glob("neuzero-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top_level = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert top_level == {"envs", "agents"}
    assert "agents/__init__.py" in names and not {"train.py", "evaluate.py"} & set(names)


def test_the_selfplay_benchmark_takes_the_recipe_free_form():
    result = run_script(
        "benchmarks/bench_selfplay.py",
        "--games",
        "1",
        "--lone-moves",
        "1",
        "experiment=null",
        "game=hex",
        "game.size=3",
        "agent.search.num_simulations=2",
    )
    assert result.returncode == 0, result.stderr
    assert "game hex {'size': 3" in result.stdout and "simulations/move 2 " in result.stdout


def test_the_selfplay_benchmark_profiles_positions_and_measures_games_in_flight():
    result = run_script(
        "benchmarks/bench_selfplay.py",
        *("--games", "1", "--lone-moves", "1", "--rounds", "1", "--profile", "--in-flight", "2,5"),
        *("--in-flight-moves", "1", "--backends", "onnx,stand-in", "--stand-in-ms", "1:0.1,64:0.2"),
        *("experiment=null", "game=hex", "game.size=3", "agent.search.num_simulations=2"),
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    total = next(line.split() for line in lines if line.startswith("total "))
    assert total[-1] == total[-4] == "100.0%"  # each column's parts add up to its whole
    assert any(line.startswith("inference call ") for line in lines)
    assert any(line.startswith("stand-in device busy on a free core") for line in lines)
    rows = [line.split() for line in lines if line.startswith(("onnx ", "stand-in ")) and line.split()[1].isdigit()]
    assert [(row[0], int(row[1])) for row in rows] == [(b, n) for b in ("onnx", "stand-in") for n in (2, 5)]
    # one network call per wave: its batch, every game in flight whose walk ended at a new leaf
    assert all(1 < float(row[3]) <= int(row[1]) for row in rows) and float(rows[1][3]) > 2


def test_the_cut_rollout_benchmark_prints_each_phase_against_the_early_cost():
    result = run_script("benchmarks/cut_rollout_cost.py", "amazons:4", "--simulations", "4", "--repeats", "1")
    assert result.returncode == 0, result.stderr
    rows = [line.split() for line in result.stdout.splitlines() if line.startswith("amazons:4")]
    assert [row[1] for row in rows] == ["early", "mid", "late"]
    assert rows[0][-3:-1] == ["1.00", "1.00"]  # each player's early cost is its own unit
    assert int(rows[0][2]) > int(rows[1][2]) > int(rows[2][2]) > 0  # turns left


def test_the_inference_benchmark_prints_both_backends_and_their_agreement():
    result = run_script(
        "benchmarks/bench_inference.py",
        "--games",
        "hex:3",
        "--nets",
        "tiny",
        "--batches",
        "2",
        "--rounds",
        "1",
        "--seconds",
        "0.05",
    )
    assert result.returncode == 0, result.stderr
    (row,) = [line.split() for line in result.stdout.splitlines() if line.startswith("hex:3")]
    assert row[:3] == ["hex:3", "tiny", "2"] and float(row[-1]) < 1e-4  # onnx gives torch's outputs


def test_a_games_own_recipe_chosen_for_another_game_is_refused(tmp_path):
    result = run_script("train.py", "experiment=sudoku_moyo", f"hydra.run.dir={tmp_path / 'run'}")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "experiment=sudoku_moyo is the recipe of game sudoku_moyo; train it with game=sudoku_moyo" in result.stderr
    assert not (tmp_path / "run").exists()


def test_the_report_cost_benchmark_estimates_every_section_from_the_balance_pairing():
    result = run_script("benchmarks/bench_report_cost.py", "--game", "hex", "--param", "size=2", "--games", "2")
    assert result.returncode == 0, result.stderr
    assert "hex {'size': 2}: 2 games mcts:128 vs mcts:64" in result.stdout
    sections = [line.split()[1] for line in result.stdout.splitlines() if line.strip().startswith("budget=quick")]
    assert sections == ["ladder", "balance", "luck", "valued", "report"]


def test_the_engine_benchmark_times_mcts_on_games_with_chance_nodes():
    # the random game it walks passes Odoku's coins and Sudoku Moyo's puzzle as chance draws
    result = run_script(
        "benchmarks/bench_engines.py",
        "--seconds",
        "0.05",
        "--games",
        "odoku",
        "sudoku_moyo",
        "--mcts",
        "4",
        "--moves",
        "2",
        "--playout-only",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("mcts:4 ms/move over 2 positions") == 2
