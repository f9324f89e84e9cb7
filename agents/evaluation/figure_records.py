"""Measured figures kept as data: one JSON line per figure, appended by the command that measured it.

A record says what was measured and against what, its value, and where it came
from. ``results/*.jsonl`` in the checkout hold the records the docs cite;
``python -m agents.evaluation.leaderboard`` renders ``docs/results.md`` from
them and the zoo's cards. The measuring commands append their records through
:func:`append_records`: ``evaluate.py record=PATH``, ``train.py record=PATH``
and the benchmarks' ``--record PATH``.

==========  ===========================================================================
field       meaning
==========  ===========================================================================
table       the leaderboard's table: ``strength`` (scores, training times, other
            measures of a trained agent) or ``speed`` (a rate against its peer)
subject     what was measured: a recipe and seed, a player, a piece of code
measures    the quantity: ``score``, ``training wall time``, ``games/s``, ...
against     what it is measured against: an opponent, the peer of a ratio; ``""``
            for an absolute figure (a wall time)
value       the number, in ``unit``
unit        ``share`` (0..1, shown as a percentage), ``minutes``, ``ratio`` (x) or
            ``number``
interval    the 95% interval ``[low, high]`` around ``value``, or ``null``
command     the command that measured it
commit      the code it ran on (hex, ``+dirty`` when the checkout had changes), or
            ``unknown`` where that was not recorded
machine     the machine, in words
date        ``YYYY-MM-DD`` (UTC)
note        optional: what else a reader needs (the load, the games, a caveat)
==========  ===========================================================================

The leaderboard shows the newest record of each ``table``, ``subject``,
``measures`` and ``against``: a measurement appended later supersedes the one
before it (remove the older line; git keeps it).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Iterable

from agents.evaluation.sprt import Verdict

ROOT = Path(__file__).resolve().parents[2]  # the checkout: train.py, evaluate.py, results/
RECORDS_DIR = ROOT / "results"

TABLES = ("strength", "speed")
UNITS = ("share", "minutes", "ratio", "number")
REQUIRED = (
    "table",
    "subject",
    "measures",
    "against",
    "value",
    "unit",
    "interval",
    "command",
    "commit",
    "machine",
    "date",
)
OPTIONAL = ("note",)
UNKNOWN = "unknown"

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_COMMIT = re.compile(r"[0-9a-f]{7,40}(\+dirty)?")


class RecordError(ValueError):
    """A record that does not follow the schema; the message is one line naming the field."""


def check_record(record: object) -> dict:
    """``record`` if it follows the schema, else :class:`RecordError` naming the field."""
    if not isinstance(record, dict):
        raise RecordError(f"record: a JSON object expected, got {type(record).__name__}")
    missing = [key for key in REQUIRED if key not in record]
    if missing:
        raise RecordError(f"record: missing field {', '.join(missing)} (a record has {', '.join(REQUIRED)})")
    unknown = sorted(set(record) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise RecordError(f"record: unknown field {', '.join(unknown)}")
    for key in ("subject", "measures", "command", "machine"):
        if not isinstance(record[key], str) or not record[key].strip():
            raise RecordError(f"record: {key} must be non-empty text, got {record[key]!r}")
    if not isinstance(record["against"], str):
        raise RecordError(f"record: against must be text ('' for none), got {record['against']!r}")
    if record["table"] not in TABLES:
        raise RecordError(f"record: table must be one of {', '.join(TABLES)}, got {record['table']!r}")
    if record["unit"] not in UNITS:
        raise RecordError(f"record: unit must be one of {', '.join(UNITS)}, got {record['unit']!r}")
    value = record["value"]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise RecordError(f"record: value must be a finite number, got {value!r}")
    interval = record["interval"]
    if interval is not None:
        if not (
            isinstance(interval, list) and len(interval) == 2 and all(isinstance(v, (int, float)) for v in interval)
        ):
            raise RecordError(f"record: interval must be [low, high] or null, got {interval!r}")
        if not interval[0] <= value <= interval[1]:
            raise RecordError(f"record: interval {interval} does not hold the value {value}")
    if not isinstance(record["commit"], str) or not (
        record["commit"] == UNKNOWN or _COMMIT.fullmatch(record["commit"])
    ):
        raise RecordError(f"record: commit must be a hex commit or {UNKNOWN!r}, got {record['commit']!r}")
    if not isinstance(record["date"], str) or not _DATE.fullmatch(record["date"]):
        raise RecordError(f"record: date must be YYYY-MM-DD, got {record['date']!r}")
    if "note" in record and not isinstance(record["note"], str):
        raise RecordError(f"record: note must be text, got {record['note']!r}")
    return record


def append_records(path: str | Path, records: Iterable[dict]) -> int:
    """Append ``records`` to the JSON-lines file ``path`` (made if absent), each checked first: a
    faulty one writes none. Returns how many were written."""
    lines = [json.dumps(check_record(record), ensure_ascii=False) + "\n" for record in records]
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as file:
        file.writelines(lines)
    return len(lines)


def read_records(path: str | Path) -> list[dict]:
    """The records of one file, each checked; an error names the file and line."""
    records = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(check_record(json.loads(line)))
        except (ValueError, RecordError) as error:
            raise RecordError(f"{path}:{number}: {error}") from None
    return records


def measured(
    table: str,
    subject: str,
    measures: str,
    against: str,
    value: float,
    unit: str,
    *,
    command: str,
    interval: tuple[float, float] | None = None,
    note: str | None = None,
) -> dict:
    """A record of a figure measured now, by this checkout on this machine."""
    record = {
        "table": table,
        "subject": subject,
        "measures": measures,
        "against": against,
        "value": value,
        "unit": unit,
        "interval": None if interval is None else [float(interval[0]), float(interval[1])],
        "command": command,
        "commit": code_commit(),
        "machine": this_machine(),
        "date": datetime.datetime.now(datetime.timezone.utc).date().isoformat(),
    }
    if note:
        record["note"] = note
    return check_record(record)


def code_commit(root: Path = ROOT) -> str:
    """The checkout's commit, ``+dirty`` when tracked files differ from it; ``unknown`` outside git."""
    try:
        head = _git(root, "rev-parse", "--short=12", "HEAD")
        changed = _git(root, "status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.CalledProcessError):
        return UNKNOWN
    return head + ("+dirty" if changed else "")


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True).stdout.strip()


def this_machine() -> str:
    """The machine in words: CPU model and cores, the GPU if torch sees one, and the load."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.partition(":")[2].strip()
                break
    except OSError:
        pass
    words = f"{os.cpu_count()} CPU cores ({cpu})"
    torch = sys.modules.get("torch")  # only where the command loaded it: a benchmark need not
    if torch is not None and torch.cuda.is_available():
        words += f", {torch.cuda.get_device_name(0)}"
    if hasattr(os, "getloadavg"):
        words += f", load {os.getloadavg()[0]:.1f}"
    return words


def command_line(argv: list[str] | None = None) -> str:
    """The command as typed: ``python SCRIPT ARGS`` from ``sys.argv`` (the script relative to the checkout)."""
    argv = list(sys.argv if argv is None else argv)
    script = Path(argv[0])
    if script.is_absolute() and script.is_relative_to(ROOT):
        script = script.relative_to(ROOT)
    return shlex.join(["python", str(script), *argv[1:]])


def add_record_option(parser: argparse.ArgumentParser) -> None:
    """A benchmark's ``--record PATH``: append its figures there as records."""
    parser.add_argument(
        "--record",
        metavar="PATH",
        default=None,
        help="append the figures measured as records (one JSON line each) to PATH, e.g. results/speed.jsonl",
    )


RECORDED_MODES = ("match", "accuracy")  # evaluate.py record=PATH: the modes whose figures it records


def evaluation_records(document: dict, command: str) -> list[dict]:
    """The figures of an ``evaluate.py`` results document (``mode=match``: each player's score
    against each other, seats alternating; ``mode=accuracy``: the share of optimal turns)."""
    if document["mode"] == "accuracy":
        against = ", ".join(document["opponents"])
        share, interval = document["share"], (document["ci_low"], document["ci_high"])
        return [
            measured(
                "strength",
                document["agent"],
                "optimal turns",
                against,
                share,
                "share",
                command=command,
                interval=interval,
                note=f"{document['turns']} turns",
            )
        ]
    if document["mode"] != "match":
        raise RecordError(
            f"record: mode={document['mode']} has no figures to record; the modes that do: {', '.join(RECORDED_MODES)}"
        )
    test = document.get("sprt")  # test=sprt: duplicate pairs, and the verdict beside the score
    duplicate = ", duplicate" if document["config"].get("duplicate") or test else ""
    verdict = f"; sequential test: {Verdict.from_dict(test).sentence()}" if test else ""
    specs = dict(zip(document["names"], document["players"]))  # the table names players; a record, their specs
    return [
        measured(
            "strength",
            specs[row["player"]],
            "score",
            specs[row["opponent"]],
            row["score"],
            "share",
            command=command,
            interval=(row["ci_low"], row["ci_high"]),
            note=f"{row['games']} games, seats alternating{duplicate}: {row['wins']} wins, {row['draws']} draws, "
            f"{row['losses']} losses{verdict}",
        )
        for row in document["table"]
        if row["opponent"] != "all"
    ]


class SpeedRecords:
    """A benchmark's figures (ratios by default, or shares and numbers), appended to ``path`` as
    ``speed`` records when it ends (``--record PATH``; ``None``: kept nowhere). The command is the
    benchmark's own command line."""

    def __init__(self, path: str | Path | None):
        self.path, self.records = path, []

    def add(
        self, subject: str, measures: str, against: str, value: float, note: str | None = None, unit: str = "ratio"
    ) -> None:
        if self.path is not None:
            self.records.append(
                measured(
                    "speed",
                    subject,
                    measures,
                    against,
                    round(float(value), 3 if unit == "share" else 2),
                    unit,
                    command=command_line(),
                    note=note,
                )
            )

    def write(self) -> None:
        if self.path is not None:
            print(f"{append_records(self.path, self.records)} records appended to {self.path}")
