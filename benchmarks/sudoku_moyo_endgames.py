"""How often players choose an optimal placement in late Sudoku Moyo positions.

    python benchmarks/sudoku_moyo_endgames.py [--players random mcts:400 az:CKPT] [--positions 200]
        [--empty 12] [--givens 26] [--seed 0]

Prints a table; nothing here is a test. The positions come from uniformly
random games (puzzles drawn by the seed): in each game, the first position
with at most ``--empty`` empty cells that still take a digit and more than one
legal placement. The exact solver (``agents/search/solver.py``) values each; a
placement is optimal when it keeps that value. ``decisive`` counts the
positions where some placements win and others lose: elsewhere every
placement is optimal. Each player sees every position once, with its own
generator seeded from ``--seed``.
"""

from __future__ import annotations

import argparse

import numpy as np

from agents.evaluation.intervals import score_interval
from agents.players import make_player
from agents.search.solver import Solver
from envs import make_game


def live_cells(state) -> int:
    """Empty cells where some digit still fits."""
    return sum(1 for cell in range(81) if state.candidates(cell))


def late_positions(game, count: int, empty: int, rng: np.random.Generator) -> list:
    positions = []
    while len(positions) < count:
        state = game.step(game.initial_state(), game.sample_chance(game.initial_state(), rng))
        while not game.is_terminal(state):
            legal = game.legal_actions(state)
            if live_cells(state) <= empty and len(legal) > 1:
                positions.append(state)
                break
            game.apply(state, legal[int(rng.integers(len(legal)))])
    return positions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", nargs="+", default=["random", "mcts:400"])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--empty", type=int, default=12)
    parser.add_argument("--givens", type=int, default=26)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = make_game("sudoku_moyo", givens=args.givens)
    solver = Solver(game)
    positions = late_positions(game, args.positions, args.empty, np.random.default_rng(args.seed))
    optimal = [set(solver.optimal_actions(state)) for state in positions]
    decisive = [
        i for i, (state, best) in enumerate(zip(positions, optimal)) if len(best) < len(game.legal_actions(state))
    ]
    print(
        f"{len(positions)} positions (at most {args.empty} live empty cells), {len(decisive)} decisive; "
        f"solver positions searched: {solver.nodes}"
    )
    print(f"{'player':<40} {'optimal (all)':>22} {'optimal (decisive)':>24}")
    for spec in args.players:
        player = make_player(spec, game)
        rng = np.random.default_rng(args.seed)
        hits = [player.act(state, rng) in best for state, best in zip(positions, optimal)]
        cells = []
        for chosen in (hits, [hits[i] for i in decisive]):
            low, high = score_interval(sum(chosen), len(chosen))
            share = sum(chosen) / len(chosen) if chosen else float("nan")
            cells.append(f"{share:6.1%} ({low:.0%}..{high:.0%})")
        print(f"{spec:<40} {cells[0]:>22} {cells[1]:>24}")


if __name__ == "__main__":
    main()
