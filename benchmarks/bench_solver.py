"""How far the exact solver reaches: value, optimal first turns, positions, time.

    python benchmarks/bench_solver.py [--boards hex:2 hex:3 nex:3 neuversi:4 hex:4] [--max-nodes 5000000]

Prints a table; nothing here is a test. Each row solves the start of one board
with a fresh :class:`agents.search.solver.Solver` (``value``), then lists the optimal
first turns (``optimal_turns``, which reuses the table). ``positions`` counts
expanded positions; the transposition table keeps about that many entries
(roughly 0.5 kB each), so memory bounds the reach more than time does.
"""

from __future__ import annotations

import argparse
import time

from agents.search.solver import Solver, SolverLimitError
from envs import make_game


def solve(name: str, size: int, max_nodes: int) -> dict:
    game = make_game(name, size=size)
    start = game.initial_state()
    solver = Solver(game, max_nodes)
    began = time.perf_counter()
    try:
        value = solver.value(start)
        value_seconds = time.perf_counter() - began
        turns = solver.optimal_turns(start)
    except SolverLimitError:
        return {
            "board": f"{name} {size}x{size}",
            "value": "unsolved",
            "turns": "",
            "positions": solver.nodes,
            "value_s": float("nan"),
            "total_s": time.perf_counter() - began,
        }
    shown = " ".join(game.format_turn(start, t).replace(" ", "-") for t in turns[:6])
    return {
        "board": f"{name} {size}x{size}",
        "value": f"{value:+g}",
        "turns": f"{len(turns)}: {shown}{' ...' if len(turns) > 6 else ''}",
        "positions": solver.nodes,
        "value_s": value_seconds,
        "total_s": time.perf_counter() - began,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", nargs="+", default=["hex:2", "hex:3", "nex:3", "neuversi:4", "hex:4"])
    parser.add_argument("--max-nodes", type=int, default=5_000_000)
    args = parser.parse_args()
    warm = make_game("hex", size=2)
    Solver(warm).value(warm.initial_state())  # imports and numba kernels before the clock starts
    print(f"{'board':16s} {'value':>8s} {'positions':>10s} {'value s':>8s} {'total s':>8s}  optimal first turns")
    for board in args.boards:
        name, size = board.split(":")
        row = solve(name, int(size), args.max_nodes)
        print(
            f"{row['board']:16s} {row['value']:>8s} {row['positions']:10d} {row['value_s']:8.2f} "
            f"{row['total_s']:8.2f}  {row['turns']}",
            flush=True,
        )


if __name__ == "__main__":
    main()
