"""How many games a sequential match takes: ``python benchmarks/sprt_games.py [--low L --high H ...]``.

Simulates the capped SPRT of ``evaluate.py test=sprt`` (:mod:`agents.evaluation.sprt`) for
candidates of known scores, their games independent, no draws (or ``--draws D`` of every
game), and prints for each score how often the test accepts "at least high", the mean,
median and 90th percentile of the games it plays, and how often the cap decides. The table
in docs/evaluate.md ("Sequential matches") is this script's output at its defaults.
"""

import argparse

import numpy as np

from agents.evaluation.sprt import SPRT, pair_probabilities, simulate

SCORES = (0.70, 0.80, 0.85, 0.88, 0.90, 0.92, 0.95, 0.97, 0.99)


def table(test: SPRT, scores, draws: float, runs: int, seed: int) -> list[str]:
    """The rows of the table, one a score, as markdown."""
    rng = np.random.default_rng(seed)
    rows = [
        f"| true score | 'at least {test.high:g}' accepted | mean games | median | 90th percentile | cap decides |",
        "|---|---|---|---|---|---|",
    ]
    for score in scores:
        accepted, games = simulate(test, pair_probabilities(score - draws / 2, draws), runs, rng)
        rows.append(
            f"| {score:.2f} | {accepted.mean():.1%} | {games.mean():.1f} | {np.median(games):.0f} | "
            f"{np.percentile(games, 90):.0f} | {np.mean(games == test.cap):.1%} |"
        )
    return rows


def main(argv: list[str] | None = None) -> None:
    arguments = argparse.ArgumentParser(prog="python benchmarks/sprt_games.py", description=__doc__.split("\n\n")[1])
    arguments.add_argument("--low", type=float, default=0.85, help="sprt.low (default 0.85)")
    arguments.add_argument("--high", type=float, default=0.95, help="sprt.high (default 0.95)")
    arguments.add_argument("--alpha", type=float, default=0.05, help="sprt.alpha (default 0.05)")
    arguments.add_argument("--beta", type=float, default=0.05, help="sprt.beta (default 0.05)")
    arguments.add_argument("--cap", type=int, default=200, help="games= (default 200)")
    arguments.add_argument("--draws", type=float, default=0.0, help="each game's chance of a draw (default 0)")
    arguments.add_argument("--runs", type=int, default=20000, help="simulated matches per score (default 20000)")
    arguments.add_argument("--seed", type=int, default=0)
    args = arguments.parse_args(argv)
    try:
        test = SPRT(args.low, args.high, args.alpha, args.beta, args.cap)
    except ValueError as error:
        arguments.error(str(error))
    print(
        f"SPRT on seat-swapped pairs: <= {test.low:g} against >= {test.high:g}, alpha {test.alpha:g}, "
        f"beta {test.beta:g}, cap {test.cap} games (a clean sweep decides after {test.fewest_games()}); "
        f"{args.runs} simulated matches per score, draws {args.draws:g}"
    )
    print("\n".join(table(test, SCORES, args.draws, args.runs, args.seed)))


if __name__ == "__main__":
    main()
