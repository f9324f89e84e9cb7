"""Figure records and the leaderboard: the schema, the commands that append records, and
docs/results.md generated from them (``python -m agents.evaluation.leaderboard``)."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from agents.evaluation import leaderboard
from agents.evaluation.figure_records import (
    REQUIRED,
    RecordError,
    SpeedRecords,
    append_records,
    check_record,
    command_line,
    read_records,
)

ROOT = Path(__file__).resolve().parents[1]
RECORD = {
    "table": "strength",
    "subject": "experiment=nex5 seed=0",
    "measures": "score",
    "against": "mcts:400",
    "value": 0.995,
    "unit": "share",
    "interval": [0.972, 0.999],
    "command": "python evaluate.py game=nex game.size=5 'players=[az:CKPT,mcts:400]' games=200",
    "commit": "16678ac",
    "machine": "2-core AMD EPYC",
    "date": "2026-12-01",
}


# --- the schema ------------------------------------------------------------------------------
@pytest.mark.parametrize("field", REQUIRED)
def test_the_writer_refuses_a_record_missing_a_field_in_one_line_and_writes_nothing(tmp_path, field):
    path = tmp_path / "records.jsonl"
    append_records(path, [RECORD])
    before = path.read_text()
    faulty = {key: value for key, value in RECORD.items() if key != field}
    with pytest.raises(RecordError) as refused:
        append_records(path, [RECORD, faulty])  # the good one before it is not written either
    message = str(refused.value)
    assert message.startswith(f"record: missing field {field} ") and "\n" not in message
    assert path.read_text() == before


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"unit": "percent"}, "unit must be one of"),
        ({"table": "recipes"}, "table must be one of"),
        ({"value": "99%"}, "value must be a finite number"),
        ({"value": float("nan")}, "value must be a finite number"),
        ({"interval": [0.5, 0.9]}, "does not hold the value 0.995"),
        ({"interval": [0.9]}, "interval must be [low, high] or null"),
        ({"commit": "main"}, "commit must be a hex commit or 'unknown'"),
        ({"date": "1 Dec 2026"}, "date must be YYYY-MM-DD"),
        ({"command": " "}, "command must be non-empty text"),
        ({"games": 200}, "unknown field games"),
    ],
)
def test_a_record_with_a_wrong_value_is_refused_naming_the_field(change, named):
    with pytest.raises(RecordError, match=re.escape(named)):
        check_record({**RECORD, **change})


def test_records_are_read_back_and_a_bad_line_is_named_by_file_and_line(tmp_path):
    path = tmp_path / "records.jsonl"
    append_records(path, [RECORD, {**RECORD, "commit": "unknown", "note": "not recorded"}])
    assert read_records(path) == [RECORD, {**RECORD, "commit": "unknown", "note": "not recorded"}]
    with path.open("a") as file:
        file.write(json.dumps({**RECORD, "unit": "percent"}) + "\n")
    with pytest.raises(RecordError, match=r"records.jsonl:3: record: unit must be one of"):
        read_records(path)


def test_a_benchmark_records_its_ratios_with_its_command_line(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "argv", [str(ROOT / "benchmarks" / "bench_engines.py"), "--games", "hex", "--record", "R"])
    assert command_line() == "python benchmarks/bench_engines.py --games hex --record R"
    records = SpeedRecords(tmp_path / "speed.jsonl")
    records.add("hex playout kernel", "games/s", "hex engine loop", 42.2468)
    records.write()
    (written,) = read_records(tmp_path / "speed.jsonl")
    assert written["value"] == 42.25 and written["unit"] == "ratio" and written["table"] == "speed"
    assert written["command"] == "python benchmarks/bench_engines.py --games hex --record R"
    SpeedRecords(None).add("kept nowhere", "games/s", "x", 1.0)  # no --record: nothing to write, no error


# --- the commands that measure ---------------------------------------------------------------
def run_script(script, tmp_path, *args):
    return subprocess.run(
        [sys.executable, str(ROOT / script), *args, "progress=false"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )


def test_an_evaluate_match_with_record_appends_each_pairs_score(tmp_path):
    records = tmp_path / "strength.jsonl"
    refused = run_script("evaluate.py", tmp_path, "mode=solve", "game=hex", "game.size=2", f"record={records}")
    assert refused.returncode == 1 and "record: mode=solve measures no figure" in refused.stderr
    assert "Traceback" not in refused.stderr and not records.exists()
    match = ["game=hex", "game.size=2", "players=[greedy,random]", "games=4", f"record={records}"]
    done = run_script("evaluate.py", tmp_path, *match, f"hydra.run.dir={tmp_path / 'run'}")
    assert done.returncode == 0, done.stderr
    (record,) = read_records(records)
    (pair,) = [
        row
        for row in json.loads((tmp_path / "run" / "results.json").read_text())["table"]
        if row["opponent"] == "random"
    ]
    assert (record["subject"], record["measures"], record["against"]) == ("greedy", "score", "random")
    assert record["value"] == pair["score"] and record["interval"] == [pair["ci_low"], pair["ci_high"]]
    assert record["command"].startswith("python evaluate.py game=hex game.size=2 'players=[greedy,random]' games=4")
    assert re.fullmatch(r"[0-9a-f]{12}(\+dirty)?", record["commit"]) and "4 games" in record["note"]


@pytest.mark.slow  # a second training run beside test_train's smoke run; the evaluate match above covers record=
def test_a_training_run_with_record_appends_its_wall_time(tmp_path):
    records = tmp_path / "strength.jsonl"
    done = run_script(
        "train.py",
        tmp_path,
        "experiment=smoke",
        "train.iterations=1",
        f"record={records}",
        f"hydra.run.dir={tmp_path / 'run'}",
    )
    assert done.returncode == 0, done.stderr
    (record,) = read_records(records)
    assert (record["subject"], record["measures"], record["unit"]) == (
        "experiment=smoke seed=0",
        "training wall time",
        "minutes",
    )
    assert 0 < record["value"] < 5 and record["note"] == "1 iterations"
    assert record["command"].startswith("python train.py experiment=smoke train.iterations=1 record=")


# --- the leaderboard -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def rows():
    return leaderboard.model()


def test_the_committed_page_is_what_the_records_make(capsys):
    assert leaderboard.main(["--check"]) == 0, capsys.readouterr().err


def test_a_stale_page_fails_the_check_naming_the_row(tmp_path, capsys):
    page = tmp_path / "results.md"
    text = leaderboard.PAGE.read_text()
    row = next(line for line in text.splitlines() if line.startswith("| experiment=nex5 seed=0 | score | mcts:400 |"))
    page.write_text(text.replace(row, row.replace("99.5%", "98.5%")))
    assert leaderboard.main(["--check", "--page", str(page)]) == 1
    error = capsys.readouterr().err
    assert (
        "is stale: 2 lines differ" in error
        and "on the page:  | experiment=nex5 seed=0 | score | mcts:400 | 98.5%" in error
    )
    # a new record makes the committed page stale too, and the check names the record's row
    records = tmp_path / "records"
    records.mkdir()
    for source in (ROOT / "results").glob("*.jsonl"):
        (records / source.name).write_text(source.read_text())
    append_records(records / "strength.jsonl", [{**RECORD, "date": "2026-12-07", "value": 0.9, "interval": None}])
    assert leaderboard.main(["--check", "--records", str(records)]) == 1
    assert "from records: | experiment=nex5 seed=0 | score | mcts:400 | 90.0% | 2026-12-07 |" in capsys.readouterr().err


def test_a_faulty_record_stops_the_generator_with_its_file_and_line(tmp_path, capsys):
    (tmp_path / "bad.jsonl").write_text(json.dumps({**RECORD, "commit": None}) + "\n")
    assert leaderboard.main(["--check", "--records", str(tmp_path)]) == 1
    assert re.search(r"^error: .*bad\.jsonl:1: record: commit must be", capsys.readouterr().err)


def test_the_newest_record_of_a_figure_is_the_one_shown(tmp_path):
    append_records(tmp_path / "a.jsonl", [{**RECORD, "date": "2026-12-03", "value": 0.9, "interval": None}, RECORD])
    ((shown, source),) = leaderboard.current_records(tmp_path)
    assert shown["date"] == "2026-12-03" and source.endswith("a.jsonl:1")


def test_every_figure_on_the_page_traces_to_a_record_or_card_that_names_its_command(rows):
    page_rows = [
        line for line in leaderboard.PAGE.read_text().splitlines() if line.startswith("| ") and "---" not in line
    ]
    headers = [line for line in page_rows if line.startswith(("| recipe", "| network", "| what", "| |"))]
    machines = [line for line in page_rows if re.match(r"\| M\d+ \|", line)]
    assert len(page_rows) - len(headers) - len(machines) == len(rows)  # one table row a figure
    commands = {}
    for path in (ROOT / "results").glob("*.jsonl"):
        for number, record in enumerate(read_records(path), start=1):
            commands[f"results/{path.name}:{number}"] = record["command"]
    for row in rows:
        if row.source.startswith("results/"):
            assert commands[row.source] == row.command, row
        else:  # a card: the figure's command, or the commands that trained the network
            card = json.loads((ROOT / row.source).read_text())
            named = [figure["command"] for figure in card["figures"]] + ["; ".join(card["training"]["commands"][:-1])]
            assert row.command in named, row
        assert row.command.startswith(("python ", "/usr/bin/time", "OMP_NUM_THREADS", "PYTHONPATH", "for ")), row
        assert f"`{row.command}` |" in leaderboard.PAGE.read_text(), row


def test_the_docs_links_into_the_leaderboard_name_its_sections():
    """Links to docs/results.md#SECTION from the other docs and the README land on a heading of the page."""
    headings = {
        re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower()).replace(" ", "-")
        for line in leaderboard.PAGE.read_text().splitlines()
        if line.startswith("#")
    }
    pages = [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
    links = {(page.name, anchor) for page in pages for anchor in re.findall(r"results\.md#([\w-]+)", page.read_text())}
    assert links and {anchor for _, anchor in links} <= headings, sorted(links)
