"""What a game's inventor's report would cost, and where its search time goes.

    python benchmarks/bench_report_cost.py --game blockdance [--param size=6 ...] [--budget quick] [--games 2]

Plays ``--games`` games of the report's balance pairing (``mcts:TOP`` against ``mcts:TOP/2``,
seats alternating, seed 0, in this process), times them in CPU seconds, and splits that time
into the game's ``random_playout`` (one rollout per new leaf) and the rest, the search
(``apply``, legal moves, selection and backup; a game with compiled rules, as every registered
game, plays its rollouts inside the search driver's kernel, and the playout share reads 0%). From the games' mean length it
estimates the report's CPU time: every match the budget plays (``agents.evaluation.report``:
the ladder, the balance games, the luck pairs, the valued turns) at that length and that cost
per simulation. The ladder's lower rungs play games of other lengths, and the count of legal
turns is left out, so the estimate says whether a report fits a time, not its minute (it ran
low by a fifth for Four-way walls 5, whose quick report took 7.9 min against the 6.4 estimated).
"""

from __future__ import annotations

import argparse
import time

from agents.config import game_from_config
from agents.evaluation.ladder import budget_specs
from agents.evaluation.report import Budget, budget_of
from agents.evaluation.runner import play_games


def timed_playouts(game_class) -> list[float]:
    """Wrap ``game_class.random_playout`` so that its CPU seconds add up in the list returned."""
    spent = [0.0]
    playout = game_class.random_playout

    def timed(self, state, rng):
        start = time.process_time()
        try:
            return playout(self, state, rng)
        finally:
            spent[0] += time.process_time() - start

    game_class.random_playout = timed
    return spent


def report_simulations(plan: Budget, params: dict, decisions: float, turns: float) -> dict[str, float]:
    """The simulations each section of a report plays when every game has ``decisions``
    decisions and ``turns`` turns (a search of ``mcts:N`` is N simulations)."""
    sims = [int(spec.split(":")[1]) for spec in budget_specs("mcts", plan.base, plan.doublings)]

    def games(count: int, a: int, b: int) -> float:
        return count * decisions * (a + b) / 2  # the seats alternate, so half the decisions each

    variants = 2 if "pie_rule" in params else 1  # with and without the pie rule
    return {
        "ladder": sum(games(plan.rung_games, high, low) for low, high in zip(sims, sims[1:])),
        "balance": variants * games(plan.balance_games, sims[-1], sims[-2]),
        "luck": games(2 * plan.duplicate_pairs, sims[-1], sims[-3]),
        "valued turns": plan.value_games * turns * plan.value_simulations,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--param", nargs="*", default=[], help="game parameters, key=value (integers as such)")
    parser.add_argument("--budget", default="quick")
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    params = {key: int(value) if value.lstrip("-").isdigit() else value for key, value in _pairs(args.param)}
    cfg = {"name": args.game, **params}
    game, plan = game_from_config(cfg), budget_of(args.budget)
    top, second = budget_specs("mcts", plan.base, plan.doublings)[-1:-3:-1]
    play_games(cfg, [("mcts:2", "mcts:2")], 1, 1, False)  # numba compiles outside the timing
    in_playouts = timed_playouts(type(game))
    start = time.process_time()
    lineups = [(top, second) if g % 2 == 0 else (second, top) for g in range(args.games)]
    results = play_games(cfg, lineups, 0, 1, False)
    cpu = time.process_time() - start
    decisions = sum(len(r.actions) for r in results) / len(results)
    turns = sum(r.num_turns for r in results) / len(results)
    mean_sims = (int(top.split(":")[1]) + int(second.split(":")[1])) / 2
    per_sim = cpu / (decisions * len(results) * mean_sims)
    print(f"{args.game} {params}: {len(results)} games {top} vs {second}, {cpu:.1f} s CPU")
    print(f"  a game: {turns:.0f} turns, {decisions:.0f} decisions; {1000 * cpu / (decisions * len(results)):.1f} ms")
    print(f"  a decision, {1e6 * per_sim:.0f} us a simulation; random_playout {in_playouts[0] / cpu:.0%} of it")
    sections = report_simulations(plan, game.info.params, decisions, turns)
    for name, sims in sections.items():
        print(
            f"  budget={args.budget} {name:13s} {sims / 1e6:6.2f} M simulations, about {sims * per_sim / 60:5.1f} min"
        )
    total = sum(sections.values())
    print(
        f"  budget={args.budget} report        {total / 1e6:6.2f} M simulations, about {total * per_sim / 60:5.1f} min CPU"
    )


def _pairs(words: list[str]) -> list[tuple[str, str]]:
    pairs = [word.split("=", 1) for word in words]
    if any(len(pair) != 2 for pair in pairs):
        raise SystemExit(f"--param takes key=value words, got {words!r}")
    return pairs


if __name__ == "__main__":
    main()
