"""Engine and playout speed of two checkouts, side by side: new/old per row.

    python benchmarks/compare_checkouts.py OLD_CHECKOUT [NEW_CHECKOUT] [--rounds 5] [--seconds 1] [--games hex y]
        [--cpu-time]

Runs ``benchmarks/bench_engines.py`` (this checkout's copy, so both sides are timed
the same way) alternately in each checkout, ``--rounds`` times each, and prints for
every row the median of the per-round ratios new/old of decisions per second. The
rounds alternate because a shared machine's load drifts: a ratio is only sound
between two rates measured close together (``--cpu-time``: each rate by the
process's CPU seconds, ``bench_engines.py --cpu-time``, steadier on a machine busy
with other jobs). NEW_CHECKOUT defaults to this one;
an old checkout is e.g. ``git worktree add /tmp/old COMMIT``.
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
BENCH = HERE / "benchmarks" / "bench_engines.py"
ROW = re.compile(r"^(\S+)?\s+(engine|playout|env)\s+([\d.]+)\s+(\d+)")


def rates(checkout: Path, games: list[str], seconds: float, cpu_time: bool) -> dict[tuple[str, str], float]:
    """Decisions per second per (game, via) row of one bench_engines run in ``checkout``."""
    command = [sys.executable, str(BENCH), "--seconds", str(seconds), "--games", *games]
    command += ["--cpu-time"] if cpu_time else []
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    text = subprocess.run(command, cwd=checkout, env=env, capture_output=True, text=True, check=True).stdout
    found, game = {}, None
    for line in text.splitlines():
        match = ROW.match(line)
        if match:
            game = match.group(1) or game
            found[(game, match.group(2))] = float(match.group(4))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old", type=Path, help="the checkout to compare against")
    parser.add_argument("new", type=Path, nargs="?", default=HERE, help="default: this checkout")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0, help="wall time per row and run")
    parser.add_argument("--games", nargs="+", default=["hex", "y", "nex", "neuy", "reversi", "odoku"])
    parser.add_argument("--cpu-time", action="store_true", help="rates by CPU time, not wall time (a busy machine)")
    args = parser.parse_args()
    ratios: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.rounds):
        old = rates(args.old.resolve(), args.games, args.seconds, args.cpu_time)
        new = rates(args.new.resolve(), args.games, args.seconds, args.cpu_time)
        for row in old.keys() & new.keys():
            ratios.setdefault(row, []).append(new[row] / old[row])
    clock = "CPU" if args.cpu_time else "wall"
    print(f"new/old decisions per second ({clock} time), median of {args.rounds} alternating rounds")
    width = max([12] + [len(game) + 1 for game, _ in ratios])  # a space after the longest name
    print(f"{'game':<{width}}{'via':<9}{'median':>8}{'min':>8}{'max':>8}")
    for (game, via), values in sorted(ratios.items()):
        print(f"{game:<{width}}{via:<9}{statistics.median(values):>8.3f}{min(values):>8.3f}{max(values):>8.3f}")


if __name__ == "__main__":
    main()
