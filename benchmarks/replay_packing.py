"""Time to pack a full replay buffer for a checkpoint, against a sort as the peer.

    python benchmarks/replay_packing.py [--positions 50000] [--planes 23] [--board 9] [--actions 729]

A checkpoint stores the replay's arrays with at most 256 distinct values as
uint8 indices (:func:`agents.training.replay.pack_state`). The buffer here has
the shape of a full Sudoku Moyo replay by default (50,000 positions of 23 planes
over 9x9, 729 policy entries): 0/1 observation planes, continuous policy
targets (Gumbel's improved policy: more than 256 values, kept as they are) and
+-1 values. The table gives the seconds to find each array's distinct values
and indices by ``np.unique(..., return_inverse=True)`` (a sort of every entry,
the peer) and by the packer's search among the few values, both in this run,
and checks that the two agree. Nothing here is a test.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from agents.evaluation.figure_records import SpeedRecords, add_record_option
from agents.training.replay import _few_distinct


def by_sort(bits: np.ndarray):
    values, index = np.unique(bits, return_inverse=True)
    return None if len(values) > 256 else (values, index.astype(np.uint8))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=50_000)
    parser.add_argument("--planes", type=int, default=23)
    parser.add_argument("--board", type=int, default=9)
    parser.add_argument("--actions", type=int, default=729)
    add_record_option(parser)
    args = parser.parse_args()
    records = SpeedRecords(args.record)
    rng = np.random.default_rng(0)
    n = args.positions
    arrays = {
        "obs": (rng.random((n, args.planes, args.board, args.board), dtype=np.float32) < 0.2).astype(np.float32),
        "policy": rng.dirichlet(np.ones(args.actions), size=n).astype(np.float32),
        "value": rng.choice(np.array([-1.0, 1.0], dtype=np.float32), size=n),
    }
    print(f"{'array':<8} {'entries':>12} {'sort s':>8} {'search s':>9} {'sort/search':>12}  distinct")
    for name, array in arrays.items():
        bits = array.view(np.uint32).ravel()
        started = time.perf_counter()
        peer = by_sort(bits)
        sort_s = time.perf_counter() - started
        started = time.perf_counter()
        found = _few_distinct(bits, 256)
        search_s = time.perf_counter() - started
        assert (peer is None) == (found is None)
        if found is not None:
            assert np.array_equal(peer[0], found[0]) and np.array_equal(peer[1], found[1])
        distinct = "more than 256 (stored as float32)" if found is None else str(len(found[0]))
        print(
            f"{name:<8} {bits.size:>12,} {sort_s:>8.2f} {search_s:>9.2f} {sort_s / max(search_s, 1e-9):>11.1f}x  {distinct}"
        )
        records.add(
            f"packing a replay's {name}: the search for distinct values",
            "speed (sort time / search time)",
            "sorting",
            sort_s / max(search_s, 1e-9),
            note=f"{bits.size:,} entries",
        )
    records.write()


if __name__ == "__main__":
    main()
