"""Self-play throughput at the training defaults (``configs/train.yaml``), by inference backend and network input.

    python benchmarks/bench_selfplay.py [--games N] [--backends torch,onnx,stand-in] [--inputs planes,decode]
        [--rounds R] [--profile] [--in-flight 16,64,256] [--served 1,2,4] [--stand-in-ms h200] [experiment=nex5 ...]

Composes the training config (Hydra overrides after the options), plays
``--games`` self-play games with a fresh network exactly as one training
iteration does, once per backend of ``agents/net/inference.py`` and way the search feeds
the network (``planes``: the observation planes built from the search's rows; ``decode``: the
network handed to the search through an estimator without ``estimate_planes``, so that the
search decodes every new leaf into an engine state for ``game.observe``) per round, the columns
alternating so that the machine's load falls on all alike, and prints per column
(``backend/inputs``; the median round): recorded positions/s (the
``perf/positions_per_s`` of training), network-evaluated positions/s, network
calls/s and their mean batch, the network's own forward-pass ceiling (the
positions those calls evaluated over the time spent inside them: self-play with
nothing between the calls) and the share of it self-play reaches, a lone ``search`` (one state, no batching), and each
measure's ratio to the first column's.

``--profile`` adds, per column, where a position's milliseconds go: every function that does
one part of self-play is wrapped by a timer for the measured games (exclusive time: a part
nested in another counts only in itself), and the parts are the numba search kernels (with
each wave's root choice of sequential halving and the network's planes, which the wave's
selecting kernel builds from the search's rows), the leaves' random playouts (the game's
playout kernel, where ``playout_mix`` asks for them), the Gumbel root's sequential halving in
Python (setting it up, the chosen action and policy), the network's planes where the search
hands the estimator engine states (``game.observe``; the ``decode`` inputs), the inference call itself,
the estimator's numpy around it (masking, softmax), the search's Python between kernels, the
training targets (observation, outcome playouts),
playing the chosen moves, and self-play's own loop (the rest).

``--in-flight 16,64,256`` measures the steady state of that many games in flight: as many
positions a few random moves into a game, searched together by ``MCTS.search_many`` (one
network call per simulation wave) for ``--in-flight-moves`` moves each, playing the chosen
moves; positions searched per second, the mean batch and the share of the forward ceiling
per backend and count (no training targets are built: those cost the same per position at
any count).

``--served 1,2,4`` plays ``--games`` games (default: one iteration's) through one inference
server fed by that many worker processes (``agent.selfplay.inference_server``,
``agents/net/inference_server.py``), per backend and count, after a warm-up game per
worker (spawning, imports, numba's cache): positions/s, the server's mean batch and its
busy share (the seconds inside forward passes over the wall time, on this machine as
loaded: worker processes beyond its free cores only wait for one).

The ``stand-in`` backend replaces the network's forward pass by one that waits the latency
of a batch of its size on another device (``--stand-in-ms``: ``h200``, the table
``benchmarks/gpu_check.py`` measured on an NVIDIA H200 for Nex 11's ``net=medium``, or
``BATCH:MS,...``; linear between the sizes and beyond the last two) and returns fixed random
logits and values. Its share of the ceiling is how busy self-play on this machine keeps that
device; as a loaded machine stretches wall time, its rows also give the device's busy share on a
free core (the device's seconds over those plus this process's CPU seconds outside the calls),
and the in-flight rows give positions/s on such a core. Nothing here is a test.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import torch
from hydra import compose, initialize_config_dir

import agents.search.mcts.driver as driver_module
import agents.training.selfplay as selfplay_module
from agents.config import with_recipe_aliases
from agents.evaluation.figure_records import SpeedRecords, add_record_option
from agents.net.inference_server import InferenceServer
from agents.net.net_estimator import NetEstimator
from agents.net.network import PolicyValueNet
from agents.search.mcts import MCTS, select_action
from agents.search.mcts.halving import RootHalvings, SequentialHalving
from agents.training.feeds import ProcessFeed
from agents.training.selfplay import self_play
from agents.training.settings import build_settings
from envs.core import CHANCE

CONFIGS = Path(__file__).resolve().parents[1] / "configs"
INPUTS = ("planes", "decode")  # how the search feeds the network (see above)
STAND_IN = "stand-in"  # the backend whose forward pass waits a device's latency
# benchmarks/gpu_check.py on an NVIDIA H200 (2026-12-04), Nex 11 net=medium, CUDA torch: ms a call by batch
H200_FORWARD_MS = {1: 1.08, 32: 1.20, 256: 1.55, 1024: 2.50}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, help="self-play games to time (default: one iteration's)")
    parser.add_argument("--lone-moves", type=int, default=20, help="single-state searches to time")
    parser.add_argument("--backends", default="torch,onnx", help="inference backends, the first the reference")
    parser.add_argument(
        "--inputs", default="planes", help="how the search feeds the network (planes, decode), the first the reference"
    )
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every backend, alternating")
    parser.add_argument("--profile", action="store_true", help="time every part of a position (see above)")
    parser.add_argument(
        "--in-flight", help="comma-separated games in flight to measure the steady state at (e.g. 16,64,256)"
    )
    parser.add_argument("--served", help="comma-separated worker processes to feed one inference server (e.g. 1,2,4)")
    parser.add_argument("--in-flight-moves", type=int, default=3, help="moves each of those games is searched")
    parser.add_argument(
        "--stand-in-ms", default="h200", help="the stand-in's ms a call by batch: h200 or BATCH:MS,... (see above)"
    )
    add_record_option(parser)
    parser.add_argument("overrides", nargs="*", help="Hydra overrides, e.g. experiment=nex5")
    args = parser.parse_args()
    records = SpeedRecords(args.record)
    latency = stand_in_table(args.stand_in_ms, parser)
    in_flight = counts_option(args.in_flight, parser, "--in-flight")
    served = counts_option(args.served, parser, "--served")
    with initialize_config_dir(config_dir=str(CONFIGS), version_base="1.3"):
        cfg = compose("train", overrides=with_recipe_aliases(args.overrides))
    s = build_settings(cfg)
    num_games = args.games or s.selfplay.games_per_iteration
    if s.torch_threads:
        torch.set_num_threads(s.torch_threads)
    game = s.game
    torch.manual_seed(s.seed)
    net = PolicyValueNet.for_game(game.info, s.net).to(s.device)
    inputs = args.inputs.split(",")
    if not set(inputs) <= set(INPUTS):
        parser.error(f"--inputs takes a comma-separated list of {', '.join(INPUTS)}, got {args.inputs!r}")
    searches = {feed: MCTS(game, s.search) for feed in inputs}
    rng = np.random.default_rng(s.seed)

    names = args.backends.split(",")
    columns = [(backend, feed) for backend in names for feed in searches]
    rounds = {column: [] for column in columns}
    estimators = {backend: (lambda b=backend: estimator_for(game, net, s.device, b, latency)) for backend in names}
    for backend, feed in columns:  # warm-up: imports, allocator, the first export, numba's cache
        self_play(game, searches[feed], searching(estimators[backend](), feed), 1, s.selfplay, rng)
    profiles = {column: [] for column in columns}
    for _ in range(args.rounds):
        for backend, feed in columns:
            accounting = Accounting() if args.profile else None
            row = measure(
                game, searches[feed], feed, s, estimators[backend], num_games, args.lone_moves, rng, accounting
            )
            rounds[backend, feed].append(row)
            if accounting is not None:
                profiles[backend, feed].append(accounting.per_position())

    print(
        f"game {game.info.name} {game.info.params}  net {s.net.to_dict()}  device {s.device}  "
        f"torch threads {torch.get_num_threads()}"
    )
    print(
        f"simulations/move {s.search.num_simulations}  concurrent games {s.selfplay.concurrent_games}  "
        f"games timed {num_games}  rounds {args.rounds} (median shown)"
    )
    print()
    table = {
        f"{backend}/{feed}": {key: float(np.median([r[key] for r in rows])) for key in rows[0]}
        for (backend, feed), rows in rounds.items()
    }
    backends = list(table)
    first = backends[0]
    keys = list(dict.fromkeys(key for column in table.values() for key in column))  # the stand-in's own row too
    width = max(len(key) for key in keys)
    widths = {b: max(10, len(b)) for b in backends}
    header = f"{'measure':<{width}}" + "".join(f"  {b:>{widths[b]}}" for b in backends)
    header += "".join(f"  {'x' + str(i + 1):>12}" for i in range(1, len(backends)))
    print(header)
    print("-" * len(header))
    for key in keys:
        cells = {b: table[b].get(key, float("nan")) for b in backends}
        line = f"{key:<{width}}" + "".join(f"  {cells[b]:>{widths[b]}.1f}" for b in backends)
        line += "".join(f"  {cells[b] / cells[first]:>12.2f}" for b in backends[1:])
        print(line)
    print()
    print("columns: " + ", ".join(f"{i + 1} {b}" for i, b in enumerate(backends)) + "; x<i>: column i / column 1")
    label = " ".join([game.info.name, *(str(v) for k, v in game.info.params.items() if k == "size")])
    for column in backends[1:]:
        for key, what in (("self-play positions/s", "self-play"), ("lone search simulations/s", "lone search")):
            records.add(
                f"{label} {what} with {column}",
                key,
                f"with {first}",
                table[column][key] / table[first][key],
                note=f"{args.rounds} rounds (medians), {num_games} games timed",
            )
    for (backend, feed), rows in rounds.items():
        column = f"{backend}/{feed}"
        each = ", ".join(f"{row['share of the ceiling, %']:.1f}%" for row in rows)
        print(f"{column} share of the ceiling by round: {each}")
        records.add(
            f"{label} self-play with {column}",
            "share of the forward ceiling",
            "",
            table[column]["share of the ceiling, %"] / 100,
            note=f"{args.rounds} rounds (medians; by round {each}), {num_games} games timed, "
            f"{s.selfplay.concurrent_games} in flight; target 75%",
            unit="share",
        )
    if args.profile:
        print_profile(profiles, label, records)
    if in_flight:
        print_in_flight(game, s, net, searches, names, estimators, in_flight, args.in_flight_moves, label, records)
    if served:
        print_served(s, net, names, served, num_games, latency, label, records)
    records.write()


class DecodedStates:
    """The network estimator without ``estimate_planes``: the search decodes its leaves."""

    def __init__(self, estimator: NetEstimator):
        self.game, self.estimate = estimator.game, estimator.estimate


def searching(estimator: NetEstimator, feed: str):
    """What the search of column ``feed`` is handed: the estimator, or it behind ``DecodedStates``."""
    return DecodedStates(estimator) if feed == "decode" else estimator


def measure(game, mcts, feed: str, s, make_estimator, num_games, lone_moves, rng, accounting=None) -> dict:
    """One round of one backend and input: the self-play games, its forward-pass ceiling, a lone
    search; ``accounting``: time the parts of the games."""
    estimator = make_estimator()
    start, cpu_start = time.perf_counter(), time.process_time()
    if accounting is None:
        batch = self_play(game, mcts, searching(estimator, feed), num_games, s.selfplay, rng)
    else:
        with accounting.installed(estimator):
            batch = self_play(game, mcts, searching(estimator, feed), num_games, s.selfplay, rng)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    mean_batch = estimator.positions / max(estimator.calls, 1)
    evaluated = estimator.positions / seconds
    ceiling = estimator.positions / estimator.seconds  # the same forward passes with nothing between them
    if accounting is not None:
        accounting.finish(seconds, batch.num_positions)

    lone = searching(estimator, feed)  # its session made already
    state = game.initial_state()
    lone_start = time.perf_counter()
    for _ in range(lone_moves):
        mcts.search(state, lone, rng)
    lone_seconds = time.perf_counter() - lone_start
    busy = {}
    if isinstance(estimator.run, StandInForward):
        busy["stand-in device busy on a free core, %"] = 100 * device_busy(estimator.run, cpu_seconds)
    return {
        **busy,
        "self-play positions/s": batch.num_positions / seconds,
        "self-play evaluated positions/s": evaluated,
        "self-play network calls/s": estimator.calls / seconds,
        "self-play mean batch": mean_batch,
        "self-play games/s": num_games / seconds,
        "forward ceiling positions/s": ceiling,
        "share of the ceiling, %": 100 * evaluated / ceiling,
        "lone search simulations/s": lone_moves * s.search.num_simulations / lone_seconds,
    }


def estimator_for(game, net, device, backend: str, latency: dict[int, float]) -> NetEstimator:
    """The network's estimator on ``backend``, or on ONNX Runtime with the stand-in's forward."""
    if backend != STAND_IN:
        return NetEstimator(game, net, device, backend)
    estimator = NetEstimator(game, net, device, "onnx")
    estimator.run = StandInForward(game.info.num_actions, latency)
    return estimator


class StandInForward:
    """A forward pass that takes another device's time for a batch (``latency``: ms a call by
    batch size, linear between and beyond them) and returns fixed random logits and values."""

    name = STAND_IN

    def __init__(self, num_actions: int, latency: dict[int, float]):
        rng = np.random.default_rng(0)
        self.sizes = np.array(sorted(latency), dtype=float)
        self.ms = np.array([latency[b] for b in sorted(latency)])
        self.logits = rng.normal(scale=0.5, size=(4096, num_actions)).astype(np.float32)
        self.values = rng.uniform(-0.5, 0.5, size=4096).astype(np.float32)

    def latency_s(self, batch: int) -> float:
        if batch >= self.sizes[-1]:  # beyond the table: the last two sizes' slope
            slope = (self.ms[-1] - self.ms[-2]) / (self.sizes[-1] - self.sizes[-2])
            return (self.ms[-1] + slope * (batch - self.sizes[-1])) / 1000
        return float(np.interp(batch, self.sizes, self.ms)) / 1000

    nominal = 0.0  # the device's seconds: the table's latency of every call
    cpu = 0.0  # this process's CPU seconds inside the calls

    def __call__(self, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        start, latency = time.process_time(), self.latency_s(len(obs))
        rows = np.arange(len(obs)) % len(self.values)
        logits, values = self.logits[rows], self.values[rows]
        self.cpu += time.process_time() - start
        self.nominal += latency
        time.sleep(latency)
        return logits, values


def device_busy(forward, cpu_seconds: float) -> float:
    """The stand-in device's busy share were this process alone on a core: its latency over that
    plus this process's CPU seconds outside the calls (a busy machine stretches wall time, not these)."""
    return forward.nominal / (forward.nominal + cpu_seconds - forward.cpu)


def stand_in_table(text: str, parser) -> dict[int, float]:
    if text == "h200":
        return H200_FORWARD_MS
    try:
        table = {int(b): float(ms) for b, ms in (item.split(":") for item in text.split(","))}
    except ValueError:
        parser.error(f"--stand-in-ms must be h200 or BATCH:MS,... (e.g. 1:1.08,1024:2.5), got {text!r}")
    if len(table) < 2 or min(table) < 1 or min(table.values()) <= 0:
        parser.error(f"--stand-in-ms needs two or more positive batch sizes with positive ms, got {text!r}")
    return table


def counts_option(text: str | None, parser, option: str) -> list[int]:
    if not text:
        return []
    try:
        counts = [int(n) for n in text.split(",")]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1:
        parser.error(f"{option} must be comma-separated positive integers, got {text!r}")
    return counts


# What each wrapped function does: (where it is looked up, its name, the part of a position)
KERNELS, PLAYOUTS, HALVING, PLANES, INFERENCE, ESTIMATOR = (
    "search kernels (numba)",
    "leaf playouts (the game's kernel)",
    "Gumbel root, sequential halving",
    "network planes",
    "inference call",
    "estimator's numpy around the call",
)
SEARCH, TARGETS, MOVES, LOOP = (
    "search's Python between kernels",
    "training targets (observe, playouts)",
    "playing the chosen moves",
    "self-play loop (the rest)",
)
PARTS = (KERNELS, PLAYOUTS, HALVING, PLANES, INFERENCE, ESTIMATOR, SEARCH, TARGETS, MOVES, LOOP)
WRAPPED = (
    *((driver_module, name, KERNELS) for name in ("descend_wave", "finish", "run", "legal_actions")),
    (driver_module, "mixed_playouts", PLAYOUTS),
    (NetEstimator, "estimate", PLANES),
    (NetEstimator, "estimate_planes", ESTIMATOR),
    (NetEstimator, "forward", ESTIMATOR),
    *((SequentialHalving, name, HALVING) for name in ("__init__", "choose", "selected", "improved_policy")),
    (RootHalvings, "__init__", HALVING),
    (MCTS, "search_many", SEARCH),
    (selfplay_module, "_record", TARGETS),
    (selfplay_module, "_play", MOVES),
    (selfplay_module, "_advance_forced", MOVES),
)


class Accounting:
    """Exclusive seconds per part of self-play, from timers wrapped around the functions of ``WRAPPED``."""

    def __init__(self):
        self.seconds: dict[str, float] = defaultdict(float)
        self.inner: list[float] = []  # per open call: the time spent in the timed calls inside it

    def timed(self, part: str, function):
        def timer(*args, **kwargs):
            start = time.perf_counter()
            self.inner.append(0.0)
            try:
                return function(*args, **kwargs)
            finally:
                spent, inner = time.perf_counter() - start, self.inner.pop()
                self.seconds[part] += spent - inner
                if self.inner:
                    self.inner[-1] += spent

        return timer

    @contextmanager
    def installed(self, estimator):
        saved = [(owner, name, getattr(owner, name)) for owner, name, _ in WRAPPED]
        run = estimator.run
        try:
            for (owner, name, part), (_, _, function) in zip(WRAPPED, saved):
                setattr(owner, name, self.timed(part, function))
            estimator.run = self.timed(INFERENCE, run)
            yield
        finally:
            for owner, name, function in saved:
                setattr(owner, name, function)
            estimator.run = run

    def finish(self, seconds: float, positions: int) -> None:
        self.seconds[LOOP] = seconds - sum(v for k, v in self.seconds.items() if k != LOOP)
        self.total, self.positions = seconds, positions

    def per_position(self) -> dict[str, float]:
        """Milliseconds per recorded position of each part."""
        return {part: 1000 * self.seconds[part] / self.positions for part in PARTS}


def print_profile(profiles: dict, label: str, records: SpeedRecords) -> None:
    """The parts of a position by column (the median round), in ms and as shares."""
    print("\nwhere a recorded position's time goes (ms a position, share of self-play time; median round)")
    columns = {
        f"{b}/{d}": {p: float(np.median([r[p] for r in rows])) for p in PARTS} for (b, d), rows in profiles.items()
    }
    width = max(len(p) for p in PARTS) + 2
    print(f"{'part':<{width}}" + "".join(f"  {c:>20}" for c in columns))
    for part in (*PARTS, "total"):
        cells = []
        for ms in columns.values():
            total = sum(ms.values())
            value = total if part == "total" else ms[part]
            cells.append(f"{value:8.2f} ms {100 * value / total:6.1f}%")
        print(f"{part:<{width}}" + "".join(f"  {c:>20}" for c in cells))
    column, ms = next(iter(columns.items()))  # records of the first column's profile
    total = sum(ms.values())
    for part in PARTS:
        records.add(
            f"{label} self-play with {column}: {part}",
            "share of self-play time",
            "",
            ms[part] / total,
            note=f"{total:.2f} ms a recorded position in all",
            unit="share",
        )


def print_in_flight(game, s, net, searches, backends, estimators, counts, moves, label, records) -> None:
    """Searched positions/s by games in flight (the steady state, see above), per backend."""
    feed = next(iter(searches))
    mcts = searches[feed]
    print(f"\ngames in flight, steady state ({moves} moves each searched together; inputs {feed}):")
    print("(stand-in rows: on a free core, the CPU seconds of the search plus the device's; the share: the device's)")
    print(f"{'backend':<10} {'in flight':>9} {'positions/s':>12} {'mean batch':>11} {'share of ceiling':>17}")
    rates = {}
    for backend in backends:
        for count in counts:
            estimator = estimators[backend]()
            states, rngs = openings(game, count, np.random.default_rng(s.seed))
            start, cpu_start = time.perf_counter(), time.process_time()
            searched = 0
            for _ in range(moves):
                results = mcts.search_many(states, searching(estimator, feed), rngs, add_noise=True)
                searched += len(states)
                for i, (state, result, rng) in enumerate(zip(states, results, rngs)):
                    action = result.selected if result.selected is not None else select_action(result, 1.0, rng)
                    game.apply(state, action)
                    settle(game, state, rng)
                    if game.is_terminal(state):
                        states[i] = game.initial_state()
            seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
            share = estimator.positions / seconds / (estimator.positions / estimator.seconds)
            stand_in = isinstance(estimator.run, StandInForward)
            if stand_in:  # on a free core: the device's busy share, and positions/s of that CPU time
                share = device_busy(estimator.run, cpu_seconds)
                seconds = estimator.run.nominal + cpu_seconds - estimator.run.cpu
            rates[backend, count] = searched / seconds
            batch = estimator.positions / max(estimator.calls, 1)
            print(f"{backend:<10} {count:>9} {searched / seconds:>12.1f} {batch:>11.1f} {100 * share:>16.1f}%")
            records.add(
                f"{label} self-play search with {backend}, {count} games in flight",
                "stand-in device busy on a free core" if stand_in else "share of the forward ceiling",
                "",
                share,
                note=f"{searched / seconds:.1f} positions/s, mean batch {batch:.1f}, {moves} moves each",
                unit="share",
            )
    for backend in backends:
        for count in counts[1:]:
            records.add(
                f"{label} self-play search with {backend}, {count} games in flight",
                "positions/s",
                f"{counts[0]} in flight",
                rates[backend, count] / rates[backend, counts[0]],
                note=f"{rates[backend, count]:.1f} vs {rates[backend, counts[0]]:.1f} positions/s",
            )


def served_rates(s, net, backend: str, workers: int, num_games: int, latency: dict | None = None) -> dict:
    """Self-play of ``num_games`` games (settings ``s``, weights of ``net``) by ``workers`` processes
    through one inference server on ``s.device`` with ``backend`` (the stand-in: ``latency``'s)."""
    server = InferenceServer(s.game, s.net, s.device, "onnx" if backend == STAND_IN else backend)
    if backend == STAND_IN:
        server.estimator.run = StandInForward(s.game.info.num_actions, latency)
    config = dataclasses.replace(s.selfplay, games_per_iteration=num_games)
    feed = ProcessFeed(workers, s.sizes, s.games, s.net, s.search, config, False, server)
    rng = np.random.default_rng(s.seed)
    try:
        feed.config = dataclasses.replace(config, games_per_iteration=workers)  # the warm-up: a game each
        feed.collect(net, 0, rng, 1, more=False)
        feed.config = config
        server.reset()
        started = time.perf_counter()
        chunks = feed.collect(net, 0, rng, 1, more=False)
        seconds = time.perf_counter() - started
        busy = server.busy_share()
    finally:
        feed.close()
    calls = max(server.estimator.calls, 1)
    return {
        "positions/s": sum(chunk.num_positions for chunk in chunks) / seconds,
        "mean batch": server.estimator.positions / calls,
        "requests a call": server.requests / calls,
        "busy": busy,
    }


def print_served(s, net, backends, counts, num_games, latency, label, records) -> None:
    """Positions/s and the server's busy share by worker processes feeding it, per backend."""
    print(f"\nself-play through one inference server on {s.device} ({num_games} games, a warm-up game per worker):")
    print(f"{'backend':<10} {'workers':>7} {'positions/s':>12} {'mean batch':>11} {'requests/call':>14} {'busy':>7}")
    first = {}
    for backend in backends:
        for count in counts:
            row = served_rates(s, net, backend, count, num_games, latency)
            first.setdefault(backend, row)
            print(
                f"{backend:<10} {count:>7} {row['positions/s']:>12.1f} {row['mean batch']:>11.1f} "
                f"{row['requests a call']:>14.2f} {100 * row['busy']:>6.1f}%"
            )
            subject = f"{label} self-play through one inference server with {backend}, {count} workers"
            note = f"{row['positions/s']:.1f} positions/s, mean batch {row['mean batch']:.1f}, {num_games} games"
            records.add(subject, "server busy share", "", row["busy"], note=note, unit="share")
            if count != counts[0]:
                records.add(
                    subject,
                    "positions/s",
                    f"{counts[0]} workers",
                    row["positions/s"] / first[backend]["positions/s"],
                    note=note,
                )


def openings(game, count: int, rng: np.random.Generator) -> tuple[list, list]:
    """``count`` positions a few random moves into a game, each with a generator of its own."""
    states, rngs = [], []
    for seed in rng.integers(0, 2**63, size=count):
        own = np.random.default_rng(seed)
        state = game.initial_state()
        for _ in range(int(own.integers(2, 7))):
            settle(game, state, own)
            if game.is_terminal(state):
                break
            legal = game.legal_actions(state)
            game.apply(state, int(legal[own.integers(len(legal))]))
        settle(game, state, own)
        if game.is_terminal(state):
            state = game.initial_state()
        states.append(state)
        rngs.append(own)
    return states, rngs


def settle(game, state, rng) -> None:
    """Flip coins and play single legal actions until a decision or the end."""
    while not game.is_terminal(state):
        if game.to_play(state) == CHANCE:
            game.apply(state, game.sample_chance(state, rng))
            continue
        legal = game.legal_actions(state)
        if len(legal) != 1:
            return
        game.apply(state, legal[0])


if __name__ == "__main__":
    main()
