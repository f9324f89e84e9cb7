"""MCTS simulations per second, and OpenSpiel's MCTSBot (C++ and Python) in the same run.

    python benchmarks/bench_search.py [--seconds 3] [--simulations 64] [--rounds 3] [--cpp-simulations 400]

Prints a table; nothing here is a test. Each row repeats searches of
``--simulations`` simulations (default: ``SearchConfig``'s default) from the
game's start for about ``--seconds`` of wall time, after one untimed warm-up
search (numba kernels compile on first use), and reports simulations/s:

* ``rollout``: plain MCTS, one random playout per simulation (``mcts:N``);
* ``uniform``: uniform priors and zero values, the search's own cost;
* ``uniform x16``: 16 searches in lockstep (``search_many``), as in self-play;
* ``observe x16``: the same with an estimator that observes each leaf (``game.observe``,
  a network's input) and answers uniform priors and zero values: self-play's search
  without the forward pass. The search calls it from Python once per wave, as a
  network, through its ``estimate_planes``: the planes built from the rows.

Then, per game, ``rollout`` is timed in ``--rounds`` alternating rounds on the game's
compiled rows and on the same game as if written in plain Python (``plain``: ``compiled()``
None, so the one driver runs its kernels in Python over ``PythonRows``), and ``observe x16``
on the compiled rows, on them with an estimator without ``estimate_planes`` (``decode``:
every new leaf decoded into an engine state for ``game.observe``) and on the plain game; the
medians of the per-round ratios are printed.

With ``open-spiel`` installed, OpenSpiel's C++ ``pyspiel.MCTSBot`` (UCT, c = 2,
``RandomRolloutEvaluator(1)``, no solver) searches ``hex(board_size=5)`` and
``hex(board_size=11)`` from the start with ``--cpp-simulations`` simulations, timed in
``--rounds`` alternating rounds with our rollout search of the same simulations on the
compiled rows and on the plain game; each of ours / C++ is
the median of the per-round ratios. Then, OpenSpiel's ``MCTSBot`` (UCT, c = 2) with
``RandomRolloutEvaluator(n_rollouts=1)`` searches ``hex(board_size=5)`` with
the same simulation budget, and ours/theirs is printed for Hex 5x5 rollouts (Python's
MCTSBot is slow: its rounds run ``--simulations`` simulations).
On a shared machine the load changes from one minute to the next, so the two
are timed in ``--rounds`` alternating rounds (ours, theirs, ours, ...) of
``--seconds`` each and the median of the per-round ratios is the figure.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from agents.evaluation.figure_records import SpeedRecords, add_record_option
from agents.search.estimators import RolloutEstimator, UniformEstimator
from agents.search.mcts import MCTS, SearchConfig
from envs import CHANCE, make_game

GAMES = {  # row label: (registry name, parameters)
    "odoku": ("odoku", {}),
    "hex 5x5": ("hex", {"size": 5}),
    "hex 11x11": ("hex", {"size": 11}),
    "nex 5x5": ("nex", {"size": 5}),
    "neumoku 9x9": ("neumoku", {"size": 9}),
    "nex 11x11": ("nex", {"size": 11}),
    "neuversi 6x6": ("neuversi", {"size": 6}),
    "reversi 8x8": ("reversi", {"size": 8}),
}


def timed(search_once, simulations: int, seconds: float) -> float:
    """Simulations per second of repeated calls of ``search_once``."""
    search_once()
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        search_once()
        done += simulations
    return done / (time.perf_counter() - start)


def start_state(game, rng):
    """The game's start, with Odoku's first coin flipped (a decision root)."""
    state = game.initial_state()
    if game.to_play(state) == CHANCE:
        game.apply(state, 0)
    return state


class ObservingEstimator:
    """Uniform priors and zero values, after observing each state as a network's input would."""

    def __init__(self, game):
        self.game = game

    def estimate(self, states):
        observe = self.game.observe
        np.stack([observe(state) for state in states])
        return self.answer(len(states))

    def answer(self, count: int):
        info = self.game.info
        return np.ones((count, info.num_actions), np.float32), np.zeros((count, info.num_seats))


class PlanesEstimator(ObservingEstimator):
    """``ObservingEstimator`` that takes ready planes too (``NetEstimator.estimate_planes``)."""

    def estimate_planes(self, obs, masks, movers):
        return self.answer(len(obs))


def plain(game):
    """A new ``game`` as if written in plain Python: without compiled rules, so that the search
    runs its kernels in Python over ``PythonRows``."""
    game = make_game(game.info.name, **game.info.params)
    game.compiled = lambda: None
    return game


def observe_search(game, simulations: int, rows: str, rng):
    """A function running 16 of our searches in lockstep with an observing estimator on ``rows``:
    ``compiled``, ``decode`` (the compiled rows, handed ``ObservingEstimator``) or ``plain``."""
    game = plain(game) if rows == "plain" else game
    config, batch = SearchConfig(num_simulations=simulations), [start_state(game, rng)] * 16
    estimator = (ObservingEstimator if rows == "decode" else PlanesEstimator)(game)
    mcts = MCTS(game, config)
    return lambda: mcts.search_many(batch, estimator, rng)


def our_rates(game, simulations: int, seconds: float, rng) -> dict[str, float]:
    mcts = MCTS(game, SearchConfig(num_simulations=simulations))
    state = start_state(game, rng)
    rollout, uniform = RolloutEstimator(game, rng), UniformEstimator(game)
    batch = [state] * 16
    return {
        "observe x16": timed(observe_search(game, simulations, "compiled", rng), 16 * simulations, seconds),
        "rollout": timed(lambda: mcts.search(state, rollout, rng), simulations, seconds),
        "uniform": timed(lambda: mcts.search(state, uniform, rng), simulations, seconds),
        "uniform x16": timed(lambda: mcts.search_many(batch, uniform, rng), 16 * simulations, seconds),
    }


def open_spiel_search(simulations: int):
    """A function running one OpenSpiel Python MCTSBot search on Hex 5x5, or None without open-spiel."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import mcts
    except ImportError:
        return None
    game = pyspiel.load_game("hex(board_size=5)")
    random_state = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 2.0, simulations, mcts.RandomRolloutEvaluator(1, random_state), random_state=random_state)
    state = game.new_initial_state()
    return lambda: bot.mcts_search(state)


def cpp_search(size: int, simulations: int):
    """A function running one search of OpenSpiel's C++ MCTSBot on Hex ``size``, or None without open-spiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(f"hex(board_size={size})")
    # (game, evaluator, uct_c, max_simulations, max_memory_mb, solve, seed, verbose)
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, simulations, 1000, False, 0, False)
    state = game.new_initial_state()
    return lambda: bot.step(state)


def alternating_rates(searches: list, simulations: int, seconds: float, rounds: int) -> list[list[float]]:
    """Per round, the rate of each of ``searches`` timed one right after the other."""
    return [[timed(search, simulations, seconds) for search in searches] for _ in range(rounds)]


def rollout_search(game, simulations: int, rows: str, rng):
    """A function running one of our rollout searches from the start on ``rows``: ``compiled`` or ``plain``."""
    game = plain(game) if rows == "plain" else game
    mcts, state = MCTS(game, SearchConfig(num_simulations=simulations)), game.initial_state()
    estimator = RolloutEstimator(game, rng)
    return lambda: mcts.search(state, estimator, rng)


MEDIAN = "simulations/s, median of alternating rounds"  # what each ratio measures, as a record names it


def against_cpp(simulations: int, seconds: float, rounds: int, rng, records: SpeedRecords) -> None:
    """Our search on compiled rows and on the plain game against the C++ MCTSBot on Hex 5x5 and 11x11, alternating."""
    for size in (5, 11):
        game = make_game("hex", size=size)
        ours = [rollout_search(game, simulations, rows, rng) for rows in ("compiled", "plain")]
        rows = alternating_rates([*ours, cpp_search(size, simulations)], simulations, seconds, rounds)
        print(f"hex {size}x{size} rollout, {simulations} simulations, {rounds} alternating rounds of {seconds:g} s:")
        print("  compiled / plain / C++ MCTSBot: " + ", ".join(" / ".join(f"{r:.0f}" for r in row) for row in rows))
        for column, name in ((0, "compiled"), (1, "plain")):
            ratio = float(np.median([row[column] / row[2] for row in rows]))
            print(f"{f'ours ({name}) / C++ MCTSBot (hex {size}x{size} rollout), median':60}{ratio:8.2f}x")
            records.add(
                f"search on {name} rows, hex {size}x{size} rollout, {simulations} simulations",
                MEDIAN,
                "OpenSpiel C++ pyspiel.MCTSBot",
                ratio,
                note=f"{rounds} rounds of {seconds:g} s",
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="wall time per row")
    parser.add_argument("--simulations", type=int, default=SearchConfig().num_simulations)
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds against OpenSpiel")
    parser.add_argument("--cpp-simulations", type=int, default=400, help="simulations per search against C++")
    add_record_option(parser)
    args = parser.parse_args()
    records = SpeedRecords(args.record)
    rng = np.random.default_rng(0)

    columns = ("rollout", "uniform", "uniform x16", "observe x16")
    print(f"simulations/s, {args.simulations} simulations per search from the start")
    print(f"{'game':14}" + "".join(f"{c:>14}" for c in columns))
    rates = {}
    for label in args.games:
        name, params = GAMES[label]
        rates[label] = our_rates(make_game(name, **params), args.simulations, args.seconds, rng)
        print(f"{label:14}" + "".join(f"{rates[label][c]:14.0f}" for c in columns), flush=True)

    for label in args.games:
        name, params = GAMES[label]
        game = make_game(name, **params)
        kinds = (("rollout", rollout_search, 1, ("plain",)), ("observe x16", observe_search, 16, ("decode", "plain")))
        for column, search, count, others in kinds:
            kinds_of_rows = ("compiled", *others)
            searches = [search(game, args.simulations, rows, rng) for rows in kinds_of_rows]
            rounds = alternating_rates(searches, count * args.simulations, args.seconds, args.rounds)
            rates = ", ".join(" / ".join(f"{rate:.0f}" for rate in row) for row in rounds)
            print(f"{label} {column}, {' / '.join(kinds_of_rows)} rows: {rates}")
            for index, other in enumerate(others, start=1):
                ratio = float(np.median([row[0] / row[index] for row in rounds]))
                print(f"{f'compiled / {other} rows ({label} {column}), median':60}{ratio:8.2f}x")
                records.add(
                    f"search on compiled rows, {label} {column}, {args.simulations} simulations",
                    MEDIAN,
                    f"the search on {other} rows",
                    ratio,
                    note=f"{args.rounds} rounds of {args.seconds:g} s",
                )

    theirs = open_spiel_search(args.simulations)
    if theirs is None:
        print("open_spiel is not installed: no OpenSpiel comparison")
        records.write()
        return
    against_cpp(args.cpp_simulations, args.seconds, args.rounds, rng, records)
    ours = rollout_search(make_game("hex", size=5), args.simulations, "compiled", rng)
    pairs = alternating_rates([ours, theirs], args.simulations, args.seconds, args.rounds)
    ratios = [our / their for our, their in pairs]
    print(
        f"hex 5x5 rollout in {args.rounds} alternating rounds of {args.seconds:g} s (ours, OpenSpiel Python MCTSBot):"
    )
    print("  " + ", ".join(f"{our:.0f} / {their:.0f} = {our / their:.2f}x" for our, their in pairs))
    print(f"{'ours / OpenSpiel Python (hex 5x5 rollout), median':60}{float(np.median(ratios)):8.2f}x")
    records.add(
        f"our search, hex 5x5 rollout, {args.simulations} simulations",
        MEDIAN,
        "OpenSpiel Python MCTSBot",
        float(np.median(ratios)),
        note=f"{args.rounds} rounds of {args.seconds:g} s; rounds {min(ratios):.2f}x to {max(ratios):.2f}x",
    )
    records.write()


if __name__ == "__main__":
    main()
