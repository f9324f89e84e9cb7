"""Engine, playout and self-play speed of two checkouts, side by side: new/old per row.

    python benchmarks/compare_checkouts.py OLD_CHECKOUT [NEW_CHECKOUT] [--rounds 5] [--seconds 1] [--games hex y]
        [--selfplay [hop_chess ...]] [--positions 256] [--cpu-time] [--record results/speed.jsonl]

Runs ``benchmarks/bench_engines.py`` (decisions per second of the ``engine``, ``playout`` and
``env`` rows of ``--games``) and, with ``--selfplay``, ``benchmarks/bench_selfplay_moves.py``
(self-play positions per second of the given games, default all four of its recipes, over
``--positions`` positions each), this checkout's copies, so both sides are timed the same
way, alternately in each checkout, ``--rounds`` times each, and prints for every row the
median, least and greatest of the per-round ratios new/old. The rounds alternate because a
shared machine's load drifts: a ratio is only sound between two rates measured close
together (``--cpu-time``: each rate by the process's CPU seconds, steadier on a machine busy
with other jobs). A self-play row compares only where both checkouts timed the same game,
search settings and network (the digest each row prints). ``--games`` defaults to six games,
or to none with ``--selfplay``. NEW_CHECKOUT defaults to this one; an old checkout is e.g.
``git worktree add /tmp/old COMMIT``. ``--record PATH`` appends each row's median as a speed
record (:mod:`agents.evaluation.figure_records`; its commit is the checkout this script's
``agents`` package comes from).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
ENGINES = HERE / "benchmarks" / "bench_engines.py"
SELFPLAY = HERE / "benchmarks" / "bench_selfplay_moves.py"
DEFAULT_GAMES = ["hex", "y", "nex", "neuy", "reversi", "odoku"]
ENGINE_ROW = re.compile(r"^(\S+)?\s+(engine|playout|env)\s+([\d.]+)\s+(\d+)")  # game, via, games/s, decisions/s
SELFPLAY_ROW = re.compile(r"^(\S+)\s+(selfplay)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+(\w+)$")  # ..., positions/s, digest
# what each row times and its rate, as a record names them (bench_engines' subjects: "hex engine loop")
PATHS = {"engine": "engine loop", "playout": "playout kernel", "env": "Gymnasium env", "selfplay": "self-play"}
UNITS = {"engine": "decisions/s", "playout": "decisions/s", "env": "decisions/s", "selfplay": "positions/s"}


def run(checkout: Path, script: Path, arguments: list[str]) -> str:
    """The output of this checkout's ``script`` run with ``checkout``'s code; a failure is one line."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run(
        [sys.executable, str(script), *arguments], cwd=checkout, env=env, capture_output=True, text=True
    )
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(f"{script.name} failed in {checkout}: {last}")
    return done.stdout


def engine_rates(text: str) -> dict[tuple[str, str], tuple[float, str]]:
    """Decisions per second per (game, via) row of a bench_engines output (no digest: '')."""
    found, game = {}, None
    for line in text.splitlines():
        match = ENGINE_ROW.match(line)
        if match:
            game = match.group(1) or game
            found[(game, match.group(2))] = (float(match.group(4)), "")
    return found


def selfplay_rates(text: str) -> dict[tuple[str, str], tuple[float, str]]:
    """Positions per second and digest per (game, 'selfplay') row of a bench_selfplay_moves output."""
    rows = (SELFPLAY_ROW.match(line) for line in text.splitlines())
    return {(m.group(1), m.group(2)): (float(m.group(5)), m.group(6)) for m in rows if m}


def rates(checkout: Path, args) -> dict[tuple[str, str], tuple[float, str]]:
    """Every row's rate and digest of one round in ``checkout``."""
    clock = ["--cpu-time"] if args.cpu_time else []
    found = {}
    if args.games:
        found |= engine_rates(run(checkout, ENGINES, ["--seconds", str(args.seconds), "--games", *args.games, *clock]))
    if args.selfplay is not None:
        text = run(checkout, SELFPLAY, [*args.selfplay, "--positions", str(args.positions), *clock])
        found |= selfplay_rates(text)
    return found


def round_ratios(old: dict, new: dict) -> dict[tuple[str, str], float]:
    """new/old of every row both rounds timed; rows whose digests differ timed different work."""
    ratios = {}
    for row in sorted(old.keys() & new.keys()):
        (old_rate, old_digest), (new_rate, new_digest) = old[row], new[row]
        if old_digest != new_digest:
            raise SystemExit(
                f"{' '.join(row)}: the checkouts timed different settings or networks (digest {old_digest} "
                f"old, {new_digest} new); both must compose the same game, search and network"
            )
        ratios[row] = new_rate / old_rate
    return ratios


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old", type=Path, help="the checkout to compare against")
    parser.add_argument("new", type=Path, nargs="?", default=HERE, help="default: this checkout")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0, help="wall time per engine row and run")
    parser.add_argument("--games", nargs="*", help=f"engine rows' games (default {' '.join(DEFAULT_GAMES)})")
    parser.add_argument(
        "--selfplay", nargs="*", metavar="GAME", help="self-play rows (bench_selfplay_moves.py's games; none: all)"
    )
    parser.add_argument("--positions", type=int, default=256, help="self-play positions per row and run")
    parser.add_argument("--cpu-time", action="store_true", help="rates by CPU time, not wall time (a busy machine)")
    parser.add_argument("--record", metavar="PATH", help="append each row's median ratio as a speed record to PATH")
    args = parser.parse_args()
    if args.games is None:
        args.games = [] if args.selfplay is not None else DEFAULT_GAMES
    if args.rounds < 1:
        parser.error(f"--rounds must be a positive integer, got {args.rounds}")
    ratios: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.rounds):
        old = rates(args.old.resolve(), args)
        new = rates(args.new.resolve(), args)
        for row, ratio in round_ratios(old, new).items():
            ratios.setdefault(row, []).append(ratio)
    clock = "CPU" if args.cpu_time else "wall"
    print(
        f"new/old per second ({clock} time; engine rows: decisions, selfplay: positions), {args.rounds} alternating rounds"
    )
    width = max([12] + [len(game) + 1 for game, _ in ratios])  # a space after the longest name
    print(f"{'game':<{width}}{'via':<9}{'median':>8}{'min':>8}{'max':>8}")
    for (game, via), values in sorted(ratios.items()):
        print(f"{game:<{width}}{via:<9}{statistics.median(values):>8.3f}{min(values):>8.3f}{max(values):>8.3f}")
    if args.record:
        record(args, ratios)


def record(args, ratios: dict[tuple[str, str], list[float]]) -> None:
    """Each row's median as a speed record: the new code's rate against the old checkout's."""
    from agents.evaluation.figure_records import SpeedRecords, code_commit

    records = SpeedRecords(args.record)
    old = code_commit(args.old.resolve())
    clock = "CPU" if args.cpu_time else "wall"
    for (game, via), values in sorted(ratios.items()):
        records.add(
            f"{game} {PATHS[via]}",
            f"{UNITS[via]} ({clock} time)",
            f"the code at {old}",
            statistics.median(values),
            note=f"median of {len(values)} alternating rounds, per-round ratios {min(values):.2f}-{max(values):.2f}",
        )
    records.write()


if __name__ == "__main__":
    main()
